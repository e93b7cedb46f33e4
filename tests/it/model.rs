//! The semantic model end to end: layouts, limits, explanations.

use mplint::check::{check, CheckOptions};
use mplint::rules::{Finding, Level};

use crate::support::write;

fn findings(paths: Vec<std::path::PathBuf>, module_path: Vec<std::path::PathBuf>) -> Vec<Finding> {
    mplint::run_with_large_stack(move || {
        let options = CheckOptions { module_path, ..CheckOptions::default() };
        check(&paths, &options).unwrap().findings
    })
}

fn rules(findings: &[Finding]) -> Vec<(&'static str, String, u32)> {
    findings
        .iter()
        .map(|f| (f.rule, f.path.file_name().unwrap().to_string_lossy().into_owned(), f.span.start_pos.line))
        .collect()
}

#[test]
fn control_repository_node_scope_leak_names_the_node_and_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site-modules:modules:$basemodulepath\n");
    write(root, "manifests/site.pp", "node 'web01.example.com' {\n  $role = 'web'\n  include role::web\n}\n");
    write(root, "site-modules/role/manifests/web.pp", "class role::web {\n  include profile::base\n}\n");
    write(root, "site-modules/profile/manifests/base.pp", "class profile::base {\n  notify { \"role ${role}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("node-scope-leak", "base.pp".to_string(), 2)], "{found:#?}");
    let related: Vec<&str> = found[0].related.iter().map(|r| r.message.as_str()).collect();
    assert!(related.iter().any(|m| m.contains("assigned here by node 'web01.example.com'")), "{related:?}");
    assert!(related.iter().any(|m| m.contains("`role::web` included by node 'web01.example.com'")), "{related:?}");
    assert!(related.iter().any(|m| m.contains("`profile::base` included by `role::web`")), "{related:?}");
}

#[test]
fn with_a_site_in_view_an_unbound_variable_is_undefined() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    write(root, "modules/profile/manifests/base.pp", "class profile::base {\n  notify { \"role ${role}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "base.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_module_alone_reports_what_only_a_declarer_can_provide() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("profile");
    write(&module, "metadata.json", "{\"name\": \"acme-profile\"}");
    write(&module, "manifests/base.pp", "class profile::base {\n  notify { \"role ${role}\": }\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("node-scope-leak", "base.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("only a declaring node or top scope can provide `$role`"));
}

#[test]
fn custom_facts_from_modules_are_not_leaks() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("dc");
    write(&module, "manifests/init.pp", "class dc {\n  notify { \"dc ${datacenter}\": }\n}\n");
    write(&module, "lib/facter/datacenter.rb", "Facter.add(:datacenter) do\n  setcode { 'ams' }\nend\n");
    let found = findings(vec![module], vec![]);
    // Only the note that a fact is better read from `$facts`.
    assert_eq!(rules(&found), [("top-scope-fact", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("`$facts['datacenter']`"), "{}", found[0].message);
}

#[test]
fn module_path_makes_classes_known_without_reporting_them() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let vendor = dir.path().join("vendor");
    write(
        &site,
        "manifests/site.pp",
        "node default {\n  include ntp\n  include missing\n  include ntp::typo\n  include missing::too\n}\n",
    );
    write(&vendor, "ntp/manifests/init.pp", "class ntp {\n  notify { \"x ${undefined_in_vendor}\": }\n}\n");
    let found = findings(vec![site.clone()], vec![vendor]);
    // The vendored module's own problem is not reported; its class is known,
    // a class its module lacks is unknown, an absent module is one note.
    assert_eq!(
        rules(&found),
        [("missing-module", "site.pp".to_string(), 3), ("unknown-class", "site.pp".to_string(), 4)],
        "{found:#?}"
    );
    assert_eq!(found[0].related.len(), 1, "{found:#?}");
    let without = findings(vec![site], vec![]);
    assert_eq!(without.iter().filter(|f| f.rule == "missing-module").count(), 2, "{without:#?}");
    assert_eq!(without.iter().filter(|f| f.rule == "unknown-class").count(), 0, "{without:#?}");
}

#[test]
fn recursive_defines_and_long_include_chains_terminate() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "recursive.pp",
        "define grow { grow { \"${title}x\": } }\ngrow { 'a': }\ndefine same { same { $title: } }\nsame { 'b': }\n\
         define fork { fork { \"${title}l\": } fork { \"${title}r\": } }\nfork { 'c': }\n\
         define stop(Integer $n) { if $n > 0 { stop { \"s${n}\": n => $n - 1 } } }\nstop { 'd': n => 500 }\n",
    );
    let mut chain = String::new();
    for i in 0..500 {
        chain.push_str(&format!("class c{i} {{ include c{} }}\n", i + 1));
    }
    chain.push_str("class c500 { }\ninclude c0\n");
    write(dir.path(), "chain.pp", &chain);
    let found = findings(vec![dir.path().to_path_buf()], vec![]);
    // `same` declares its own title again: a duplicate, found, not a hang.
    assert!(found.iter().any(|f| f.rule == "duplicate-resource" && f.path.ends_with("recursive.pp")), "{found:#?}");
    // Each unconditional recursion is reported once, the forking one too
    // (it fills the instances before it is deep); `stop` may end.
    let recursions: Vec<u32> =
        found.iter().filter(|f| f.rule == "recursive-defined-type").map(|f| f.span.start_pos.line).collect();
    assert_eq!(recursions, [1, 3, 5], "{found:#?}");
}

#[test]
fn a_module_the_puppetfile_installs_and_the_tree_vendors_off_the_module_path_is_named_with_its_copy() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site:$basemodulepath\n");
    write(root, "Puppetfile", "moduledir 'thirdparty'\nmod 'acme/widget'\nmod 'acme/gadget'\n");
    write(root, "vendored/widget/manifests/init.pp", "class widget { }\n");
    write(root, "manifests/site.pp", "node default {\n  include widget\n  include gadget\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<&str> = found.iter().filter(|f| f.rule == "missing-module").map(|f| f.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{found:#?}");
    assert!(
        messages[0].starts_with(
            "module `widget` is not in the checked tree where Puppet loads it from (its copy in vendored/widget is off the module path)"
        ),
        "{messages:?}"
    );
    assert!(messages[1].starts_with("module `gadget` is not in the checked tree: "), "{messages:?}");
}

#[test]
fn a_type_from_outside_the_tree_is_identified_by_its_titles_only() {
    // Its Ruby code may key it by more than `name` (a gem per Ruby
    // version): one name under two titles is not surely one resource.
    // One title twice is, whatever the type.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "site.pp",
        "node default {\n  vendor_gem { 'rake 2.7': name => 'rake', ruby => '2.7' }\n  \
         vendor_gem { 'rake 3.1': name => 'rake', ruby => '3.1' }\n  vendor_gem { 'rake 2.7': }\n\
         package { 'a': name => 'same' }\n  package { 'b': name => 'same' }\n}\n",
    );
    let found = findings(vec![dir.path().join("site.pp")], vec![]);
    let duplicates: Vec<(&str, u32)> =
        found.iter().filter(|f| f.rule == "duplicate-resource").map(|f| (f.rule, f.span.start_pos.line)).collect();
    assert_eq!(duplicates, [("duplicate-resource", 4), ("duplicate-resource", 6)], "{found:#?}");
}

#[test]
fn duplicate_resource_explains_both_chains() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "site.pp",
        "class web { package { 'nginx': } }\nclass proxy { package { 'nginx': } }\nnode 'web01' {\n  include web\n  include proxy\n}\n",
    );
    let found = findings(vec![dir.path().join("site.pp")], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "site.pp".to_string(), 2)], "{found:#?}");
    let related: Vec<&str> = found[0].related.iter().map(|r| r.message.as_str()).collect();
    assert!(related.contains(&"Package['nginx'] first declared here"), "{related:?}");
    assert!(related.iter().any(|m| m.starts_with("first: `web` included by node 'web01'")), "{related:?}");
    assert!(related.iter().any(|m| m.starts_with("second: `proxy` included by node 'web01'")), "{related:?}");
}

#[test]
fn every_finding_of_the_model_rules_explains_itself() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "all.pp",
        concat!(
            "class a inherits b { }\nclass b inherits a { }\n",
            "class dup { }\nclass dup { }\n",
            "class db ($p = 1) { }\n",
            "class reader {\n  notify { \"${later}\": }\n  $later = 1\n  $twice = 1\n  $twice = 2\n}\n",
            "node default {\n  include db\n  class { 'db': p => 2 }\n  include reader\n  file { '/x': }\n  file { '/x': }\n}\n",
        ),
    );
    let found = findings(vec![dir.path().join("all.pp")], vec![]);
    let mut seen: Vec<&str> = found.iter().map(|f| f.rule).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        [
            "duplicate-class-declaration",
            "duplicate-definition",
            "duplicate-resource",
            "inheritance-cycle",
            "use-before-assign",
            "variable-reassigned"
        ],
        "{found:#?}"
    );
    for finding in &found {
        assert!(!finding.related.is_empty(), "{} has no related location: {finding:#?}", finding.rule);
        assert!(finding.related.iter().all(|r| !r.message.is_empty()));
    }
}

#[test]
fn a_stale_example_is_reported_at_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(&module, "manifests/init.pp", "class m {\n  include m::a\n}\n");
    write(&module, "manifests/a.pp", "class m::a {\n  file { '/srv/m': }\n}\n");
    write(&module, "manifests/b.pp", "class m::b {\n  file { '/srv/m': }\n}\n");
    // Only the example puts both classes in one catalog.
    write(&module, "examples/both.pp", "include m\ninclude m::b\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "both.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.starts_with("this example makes module code fail"), "{found:#?}");
    assert!(found[0].related.iter().any(|r| r.path.ends_with("b.pp") && r.span.start_pos.line == 2), "{found:#?}");
}

#[test]
fn top_scope_variables_of_the_site_are_not_an_examples_fault() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "$realm = 'production'\nnode default {\n  include m\n}\n");
    write(root, "modules/m/manifests/init.pp", "class m {\n  notify { \"realm ${::realm}\": }\n}\n");
    write(root, "modules/m/tests/init.pp", "include m\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn type_aliases_functions_and_plans_are_not_applied() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(&module, "manifests/init.pp", "class m { }\n");
    write(&module, "types/port.pp", "type M::Port = Integer[1, 65535]\n");
    write(&module, "functions/twice.pp", "function m::twice(Integer $x) >> Integer {\n  $x * 2\n}\n");
    write(&module, "plans/deploy.pp", "plan m::deploy(String $target) {\n  notice($target)\n}\n");
    write(&module, "spec/fixtures/modules/other/manifests/init.pp", "class other {\n  $x = 1\n  $x = 2\n}\n");
    let found = findings(vec![module], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn guards_cover_the_right_of_and_and_their_whole_block() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(
        &module,
        "manifests/program.pp",
        "define m::program() {\n  file { \"/etc/m/${title}\":\n    notify => (defined('$notify') and $notify) ? { true => $notify, default => undef },\n  }\n}\n",
    );
    write(
        &module,
        "manifests/server.pp",
        "define m::server() {\n  if !defined(Service['m']) {\n    service { 'm': }\n    file { '/etc/m/mask': }\n  }\n}\n",
    );
    write(
        &module,
        "manifests/init.pp",
        "class m {\n  m::program { 'a': }\n  m::server { 'one': }\n  m::server { 'two': }\n}\n",
    );
    let found = findings(vec![module], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn definitions_puppet_never_loads_are_no_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A stray copy of a module under another directory name: Puppet would
    // load `modules/manifests/init.pp` only for a class `modules`.
    write(root, "stdlib/manifests/init.pp", "class stdlib {\n}\n");
    write(root, "modules/manifests/init.pp", "class stdlib {\n}\n");
    // Two definitions in files Puppet reads do clash.
    write(root, "ntp/manifests/init.pp", "class ntp {\n}\nclass ntp::config {\n}\n");
    write(root, "ntp/manifests/config.pp", "class ntp::config {\n}\n");
    write(root, "site.pp", "include stdlib\ninclude ntp\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let duplicates: Vec<_> = rules(&found).into_iter().filter(|(rule, _, _)| *rule == "duplicate-definition").collect();
    assert_eq!(duplicates, [("duplicate-definition", "init.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_module_kept_in_examples_is_a_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy/manifests/init.pp", "class policy {\n}\n");
    write(root, "policy/examples/hardening/manifests/init.pp", "class hardening {\n  $level = 1\n}\n");
    write(
        root,
        "policy/examples/hardening/manifests/ssh.pp",
        "class hardening::ssh {\n  include hardening\n  notify { \"${hardening::level}\": }\n}\n",
    );
    write(root, "policy/examples/hardening/tests/ssh.pp", "include hardening::ssh\ninclude hardening::gone\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-class", "ssh.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn an_example_whose_manifests_define_nothing_of_its_own_is_no_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // An image built with `apache`: its `manifests/` only declares.
    write(root, "image/manifests/init.pp", "class image {\n}\n");
    write(root, "image/examples/apache/manifests/init.pp", "class { 'apache': }\n");
    write(root, "web/manifests/init.pp", "class web {\n  include apache\n  apache::vhost { 'x': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<(&str, String, u32)> = found
        .iter()
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(reported, [("missing-module", "image/examples/apache/manifests/init.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn a_module_commented_out_of_the_puppetfile_is_named_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site-modules:modules\n");
    write(root, "Puppetfile", "mod 'puppetlabs-stdlib', '9.0.0'\n# mod 'puppet-letsencrypt', '10.0.0'\n");
    write(root, "manifests/site.pp", "node default {\n  include role::web\n}\n");
    write(
        root,
        "site-modules/role/manifests/web.pp",
        "class role::web {\n  include letsencrypt\n  include stdlib\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<(&str, &str)> = found.iter().map(|f| (f.rule, f.message.as_str())).collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(messages[0].1.contains("`letsencrypt`") && messages[0].1.contains("commented out"), "{messages:#?}");
    assert!(messages[1].1.contains("`stdlib`") && messages[1].1.contains("installs it"), "{messages:#?}");
}

#[test]
fn dependencies_of_a_control_repository_metadata_json_are_named_as_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site\n");
    let dependencies = r#"{"name": "acme-control", "version": "1.0.0", "dependencies": [
        {"name": "puppetlabs/ntp", "version_requirement": "4.x"},
        {"name": "puppetlabs/java", "version_requirement": "1.x"}]}"#;
    write(root, "metadata.json", dependencies);
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    write(
        root,
        "site/profile/manifests/base.pp",
        "class profile::base {\n  include ntp\n  include java\n  include absent\n}\n",
    );
    let messages = |found: Vec<Finding>| -> Vec<String> { found.into_iter().map(|f| f.message).collect() };
    // librarian-puppet's `metadata` installs what metadata.json lists; the
    // commented `mod` line is its template's.
    write(root, "Puppetfile", "metadata\n# mod 'puppetlabs-ntp'\n");
    let found = messages(findings(vec![root.to_path_buf()], vec![]));
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].contains("`ntp`") && found[0].contains("Puppetfile installs it"), "{found:#?}");
    assert!(found[1].contains("`java`") && found[1].contains("Puppetfile installs it"), "{found:#?}");
    assert!(found[2].contains("`absent`") && found[2].contains("no Puppetfile"), "{found:#?}");
    // Without the directive, metadata.json still names where they come from.
    write(root, "Puppetfile", "mod 'puppetlabs-stdlib'\n");
    let found = messages(findings(vec![root.to_path_buf()], vec![]));
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[1].contains("metadata.json lists `puppetlabs/java`"), "{found:#?}");
}

#[test]
fn a_class_in_a_module_file_its_path_does_not_give_is_not_what_declarations_reach() {
    // Puppet 7.23: "Could not find declared class foo" (the autoloader
    // reads foo/manifests/init.pp only), and "Unacceptable location" where
    // the file is loaded for `legacy_foo`: the parameters never matter.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/legacy_foo/manifests/init.pp", "class foo($a = 1) {\n  notify { \"a=${a}\": }\n}\n");
    write(root, "modules/bar/manifests/init.pp", "class bar {\n}\n");
    write(root, "modules/bar/manifests/one.pp", "class bar::two($b) {\n}\n");
    write(
        root,
        "manifests/site.pp",
        "node default {\n  class { 'foo': b => 2 }\n  include bar\n  include bar::two\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<(&str, String, u32)> = found
        .iter()
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(reported, [("definition-location", "modules/bar/manifests/one.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn a_class_of_a_module_copy_hidden_by_an_earlier_module_path_entry_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site:modules\n");
    write(root, "site/profile/manifests/base.pp", "class profile::base {\n}\n");
    write(root, "modules/profile/manifests/extra.pp", "class profile::extra {\n}\n");
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n  include profile::extra\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<(&str, &str)> = found.iter().map(|f| (f.rule, f.message.as_str())).collect();
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert_eq!(messages[0].0, "unknown-class");
    assert!(
        messages[0]
            .1
            .contains("the module `profile` that comes first on the module path, site/profile, hides that copy"),
        "{messages:#?}"
    );
}

#[test]
fn a_file_a_tool_applies_beside_an_importing_site_pp_is_not_part_of_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "import 'nodes/*.pp'\n");
    write(
        root,
        "manifests/nodes/n.pp",
        "class c($x = 1) {\n  notify { \"x=${x}\": }\n}\nclass pm {\n  class { 'c': x => 2 }\n}\nnode 'n1.example.com' {\n  class { 'c': x => 3 }\n}\n",
    );
    // The bootstrap a Vagrant box applies: Puppet 3 reads site.pp and what
    // it imports, never this file, on the master.
    write(root, "manifests/vagrant.pp", "import 'nodes/n.pp'\ninclude pm\n");
    write(
        root,
        "Vagrantfile",
        "Vagrant.configure('2') do |config|\n  config.vm.provision :puppet do |puppet|\n    puppet.manifests_path = 'manifests'\n    puppet.manifest_file = 'vagrant.pp'\n  end\nend\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let rules: Vec<&str> = found.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["unknown-function", "unknown-function"], "{found:#?}");
    // A file the site imports stays part of it.
    write(root, "manifests/site.pp", "import 'nodes/*.pp'\nimport 'vagrant.pp'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.iter().any(|f| f.rule == "duplicate-class-declaration"), "{found:#?}");
}

#[test]
fn manifests_that_each_set_one_top_scope_variable_are_applied_one_by_one() {
    // `puppet apply puppet/manifests/a.pp` compiles; the directory as one
    // main manifest fails ("Cannot reassign variable '$x'").
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/modules/foo/manifests/init.pp", "class foo {\n}\n");
    write(root, "puppet/manifests/a.pp", "$x = 1\nclass { 'foo': }\n");
    write(root, "puppet/manifests/b.pp", "$x = 2\nclass { 'foo': }\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
    // Where an environment.conf says the directory is the main manifest, it is.
    write(root, "puppet/environment.conf", "modulepath = modules\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let rules: Vec<&str> = found.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["variable-reassigned", "duplicate-class-declaration"], "{found:#?}");
}

#[test]
fn manifests_a_deployment_task_list_names_are_applied_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "deployment_scripts/puppet/modules/foo/manifests/init.pp", "class foo {\n  file { '/etc/foo': }\n}\n");
    write(root, "deployment_scripts/puppet/modules/bar/manifests/init.pp", "class bar {\n  file { '/etc/foo': }\n}\n");
    write(root, "deployment_scripts/puppet/manifests/foo.pp", "include foo\n");
    write(root, "deployment_scripts/puppet/manifests/bar.pp", "include bar\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let rules: Vec<&str> = found.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["duplicate-resource"], "{found:#?}");
    let tasks = "- id: foo\n  type: puppet\n  parameters:\n    puppet_manifest: puppet/manifests/foo.pp\n\
                 - id: bar\n  type: puppet\n  parameters:\n    puppet_manifest: puppet/manifests/bar.pp\n";
    write(root, "deployment_tasks.yaml", tasks);
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
    // Each is a whole program: no node scope can bind what its classes read.
    write(root, "deployment_scripts/puppet/modules/bar/manifests/init.pp", "class bar {\n  file { $bar_path: }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, mplint::rules::Level)> = found.iter().map(|f| (f.rule, f.level)).collect();
    assert_eq!(levels, [("undefined-variable", mplint::rules::Level::Error)], "{found:#?}");
}

#[test]
fn a_directory_named_modules_deep_in_a_project_is_a_directory_of_modules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // One module without an `init.pp`, one using it.
    write(root, "agent/puppet/modules/hdp/manifests/params.pp", "class hdp::params {\n  $x = 1\n}\n");
    write(
        root,
        "agent/puppet/modules/flume/manifests/init.pp",
        "class flume {\n  include hdp::params\n  include hdp::absent\n}\n",
    );
    write(root, "agent/puppet/templates/controller.pp", "include flume\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<(&str, &str)> = found.iter().map(|f| (f.rule, f.message.as_str())).collect();
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(messages[0].1.starts_with("class `hdp::absent` is not defined"), "{messages:#?}");
    // A project whose Puppetfile installs elsewhere keeps its own modules too.
    write(root, "Puppetfile", "moduledir '/usr/share/openstack-puppet/modules'\nmod 'stdlib'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<(&str, &str)> = found.iter().map(|f| (f.rule, f.message.as_str())).collect();
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(messages[0].1.starts_with("class `hdp::absent` is not defined"), "{messages:#?}");
}

#[test]
fn an_empty_module_directory_defines_no_function_it_lacks() {
    // A git submodule not checked out: an empty `stdlib/`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "foo/manifests/init.pp",
        "class foo {\n  $x = stdlib::merge({ 'a' => 1 }, { 'b' => 2 })\n  notify { \"${x}\": }\n}\n",
    );
    std::fs::create_dir_all(root.join("stdlib")).unwrap();
    write(root, "bar/manifests/init.pp", "class bar {\n  $y = foo::absent()\n  notify { \"${y}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let rules: Vec<(&str, String)> =
        found.iter().map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string())).collect();
    assert_eq!(rules, [("unknown-function", "bar/manifests/init.pp".to_string())], "{found:#?}");
}

#[test]
fn classes_declaring_each_other_are_checked_from_their_module_main_class() {
    // `include srv` compiles; only `include srv::selinux` alone would fail
    // (its parents declare `srv`, which declares `srv::install` again).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "srv/manifests/init.pp",
        "class srv {\n  class { 'srv::install': } ->\n  class { 'srv::selinux': } ->\n  class { 'srv::config': }\n}\n",
    );
    write(root, "srv/manifests/install.pp", "class srv::install inherits srv {\n  notify { 'install': }\n}\n");
    write(root, "srv/manifests/selinux.pp", "class srv::selinux inherits srv::install {\n  notify { 'selinux': }\n}\n");
    write(root, "srv/manifests/config.pp", "class srv::config {\n  include srv\n}\n");
    let found = findings(vec![root.join("srv")], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn top_scope_variables_a_node_function_may_set_are_not_undefined_in_its_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let site = "node /^web/ {\n  role(web)\n  include profile::base\n}\nnode /^db/ {\n  include profile::db\n}\n";
    write(root, "manifests/site.pp", site);
    write(
        root,
        "modules/profile/manifests/base.pp",
        "class profile::base {\n  notify { \"role ${::_role}\": }\n  notify { \"${missing}\": }\n}\n",
    );
    write(root, "modules/profile/manifests/db.pp", "class profile::db {\n  notify { \"role ${::_role}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let rules_found: Vec<(&str, String, u32)> = rules(&found);
    // `role()` may set `$::_role` in the nodes that call it, not in the
    // others; nothing sets the plain `$missing`.
    let expected = [
        ("incomplete-node", "site.pp".to_string(), 2),
        ("undefined-variable", "base.pp".to_string(), 3),
        ("undefined-variable", "db.pp".to_string(), 2),
    ];
    assert_eq!(rules_found, expected, "{found:#?}");
    assert_eq!(found[2].level, mplint::rules::Level::Note, "{found:#?}");
}

#[test]
fn a_node_calling_a_data_type_is_not_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "node 'web01' {\n  notify { 'x': message => Deferred('sprintf', ['%s', 'x']) }\n  $port = Integer('80')\n  notify { \"${port}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_node_calling_stdlib_value_functions_is_not_incomplete() {
    // stdlib is not in the tree: its functions are known to declare no class.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "node 'web01' {\n  $opts = deep_merge({ 'a' => 1 }, { 'b' => 2 })\n  file { '/tmp/x': content => stdlib::deferrable_epp('m/x.epp', $opts) }\n  role(web)\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("incomplete-node", "site.pp".to_string(), 4)], "{found:#?}");
}

#[test]
fn an_optional_top_scope_variable_read_for_a_fallback_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile::app\n}\n");
    write(
        root,
        "modules/profile/manifests/app.pp",
        "class profile::app {\n  $env = pick_default($::appenv, 'dev')\n  notify { \"${env} ${::tier}\": }\n  include profile::db\n  $port = pick($profile::db::prot, 5432)\n}\n",
    );
    write(root, "modules/profile/manifests/db.pp", "class profile::db ($port = 5432) {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(mplint::rules::Level, u32)> = found.iter().map(|f| (f.level, f.span.start_pos.line)).collect();
    // A class variable that does not exist is a mistake, fallback or not;
    // `$::tier` may come from outside the tree.
    let expected = [(mplint::rules::Level::Note, 2), (mplint::rules::Level::Note, 3), (mplint::rules::Level::Error, 5)];
    assert_eq!(levels, expected, "{found:#?}");
    assert!(found[0].message.contains("getvar('::appenv')"), "{found:#?}");
}

#[test]
fn nodes_with_the_same_body_report_at_their_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let body = "{\n  $role = 'web'\n  include role::web\n  notify { \"${missing}\": }\n  file { '/x': }\n  file { '/x': }\n}\n";
    write(root, "manifests/site.pp", format!("node 'a' {body}node 'b' {body}"));
    write(root, "manifests/more.pp", format!("# more nodes\nnode 'c' {body}"));
    write(root, "modules/role/manifests/web.pp", "class role::web {\n  notify { \"role ${role}\": }\n}\n");
    let run = |compile_every_node: bool| {
        let paths = vec![root.to_path_buf()];
        mplint::run_with_large_stack(move || {
            check(&paths, &CheckOptions { compile_every_node, ..CheckOptions::default() }).unwrap().findings
        })
    };
    let shared = run(false);
    assert!(shared == run(true), "sharing node compilations changed the findings");
    let mut at: Vec<(&str, String, u32)> = rules(&shared);
    at.sort();
    assert_eq!(
        at,
        [
            ("duplicate-resource", "more.pp".to_string(), 7),
            ("duplicate-resource", "site.pp".to_string(), 6),
            ("duplicate-resource", "site.pp".to_string(), 13),
            ("node-scope-leak", "web.pp".to_string(), 2),
            ("undefined-variable", "more.pp".to_string(), 5),
            ("undefined-variable", "site.pp".to_string(), 4),
            ("undefined-variable", "site.pp".to_string(), 11),
        ],
        "{shared:#?}"
    );
    // The leak names where each node assigns the variable.
    let related: Vec<&str> = shared.iter().flat_map(|f| &f.related).map(|r| r.message.as_str()).collect();
    for node in ["'a'", "'b'", "'c'"] {
        assert!(related.iter().any(|m| m.contains(&format!("assigned here by node {node}"))), "{related:?}");
    }
}

#[test]
fn a_top_scope_variable_the_tree_never_sets_is_a_note_naming_the_facts_setting() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    write(
        root,
        "modules/profile/manifests/base.pp",
        "class profile::base {\n  notify { \"${::hosting_platform}\": }\n  notify { \"${check_period}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(u32, mplint::rules::Level)> = found.iter().map(|f| (f.span.start_pos.line, f.level)).collect();
    // `$::x` may be an external fact; an unqualified name falling through to top scope is a mistake.
    assert_eq!(levels, [(2, mplint::rules::Level::Note), (3, mplint::rules::Level::Error)], "{found:#?}");
    assert!(found[0].message.contains("list it under `facts` in .mplint.toml"), "{}", found[0].message);

    // Declared as a fact in the configuration: nothing to say.
    let paths = vec![root.to_path_buf()];
    let declared = mplint::run_with_large_stack(move || {
        let mut options = CheckOptions::default();
        options.settings.facts = vec!["hosting_platform".into()];
        check(&paths, &options).unwrap().findings
    });
    assert_eq!(rules(&declared), [("undefined-variable", "base.pp".to_string(), 3)], "{declared:#?}");
}

#[test]
fn facts_a_hierarchy_interpolates_or_a_module_ships_in_facts_d_are_known() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: roles\n    path: \"roles/%{::puppet_role}.yaml\"\n  - name: tiers\n    path: \"tiers/%{facts.tier}.yaml\"\n");
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    write(root, "modules/profile/facts.d/rack.yaml", "---\nrack_row: 4\n");
    write(
        root,
        "modules/profile/manifests/base.pp",
        "class profile::base {\n  notify { \"${puppet_role} ${tier} ${rack_row}\": }\n  notify { \"${rack_column}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    // `rack_row` is surely a fact (a file of facts.d sets it): a note says to read it from `$facts`.
    assert_eq!(
        rules(&found),
        [("top-scope-fact", "base.pp".to_string(), 2), ("undefined-variable", "base.pp".to_string(), 3)],
        "{found:#?}"
    );
}

#[test]
fn a_parameter_hiera_data_sets_is_not_its_default() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("repo");
    write(&module, "metadata.json", "{\"name\": \"acme-repo\"}");
    write(&module, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n");
    write(&module, "data/common.yaml", "---\nrepo::main_key: 'https://example.com/main.asc'\n");
    write(
        &module,
        "manifests/init.pp",
        "class repo (\n  Optional[String] $main_key = undef,\n  Optional[String] $extra_key = undef,\n) {\n  exec { \"import ${main_key}\": }\n  exec { \"import ${extra_key}\": }\n}\n",
    );
    write(&module, "examples/init.pp", "include repo\n");
    // With both defaults the two titles would be the same; the data sets one.
    let found = findings(vec![module.clone()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
    std::fs::remove_file(module.join("data/common.yaml")).unwrap();
    let found = findings(vec![module], vec![]);
    // Reported at the example line that leads to the clash.
    assert_eq!(rules(&found), [("duplicate-resource", "init.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn the_puppetfile_of_a_module_checked_alone_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("demo");
    write(&module, "metadata.json", "{\"name\": \"acme-demo\"}");
    write(&module, "Puppetfile", "mod 'puppet/nginx', '0.6.0'\n");
    write(&module, "manifests/init.pp", "class demo {\n  include nginx\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("Puppetfile installs it"), "{}", found[0].message);
}

#[test]
fn a_type_named_like_a_missing_dependency_is_a_use_of_that_module() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("demo");
    write(&module, "metadata.json", "{\"name\": \"acme-demo\", \"dependencies\": [{\"name\": \"puppetlabs/concat\"}]}");
    write(&module, "manifests/init.pp", "class demo {\n  concat { '/etc/demo.conf': }\n  file_line { 'x': }\n}\n");
    write(
        &module,
        "manifests/part.pp",
        "class demo::part {\n  concat::fragment { 'part': target => '/etc/demo.conf' }\n}\n",
    );
    let found = findings(vec![module.clone()], vec![]);
    // `file_line` may be any module's Ruby type: no dependency names it.
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("`concat` and 1 more name used at 2 places;"), "{}", found[0].message);
    // Without the dependency, `concat` alone is no sign of the module.
    write(&module, "metadata.json", "{\"name\": \"acme-demo\"}");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("missing-module", "part.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_missing_module_used_in_more_places_than_shown_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("demo");
    write(&module, "metadata.json", "{\"name\": \"acme-demo\"}");
    let body: String = (1..=15).map(|i| format!("  include other::c{i}\n")).collect();
    write(&module, "manifests/init.pp", format!("class demo {{\n{body}}}\n"));
    let found = findings(vec![module], vec![]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("used at 15 places (13 shown)"), "{}", found[0].message);
    assert_eq!(found[0].related.len(), 12, "{found:#?}");
}

#[test]
fn the_directory_a_puppetfile_fills_is_not_named_for_a_module_it_does_not_install() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site-modules:modules:$basemodulepath\n");
    write(root, "Puppetfile", "mod 'puppetlabs-stdlib', '6.5.0'\n");
    write(root, "manifests/site.pp", "node default {\n  include profile::agent\n}\n");
    write(root, "site-modules/profile/manifests/agent.pp", "class profile::agent {\n  include pe_tools::agent\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let notes: Vec<&str> = found.iter().filter(|f| f.rule == "missing-module").map(|f| f.message.as_str()).collect();
    assert_eq!(notes.len(), 1, "{found:#?}");
    assert!(
        notes[0].contains("the modulepath entry `$basemodulepath` of ")
            && notes[0].ends_with("environment.conf, not in the checked tree, may provide it"),
        "{}",
        notes[0]
    );
    // Without another entry, where it could come from is not known.
    write(root, "environment.conf", "modulepath = site-modules:modules\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let notes: Vec<&str> = found.iter().filter(|f| f.rule == "missing-module").map(|f| f.message.as_str()).collect();
    assert_eq!(notes.len(), 1, "{found:#?}");
    assert!(
        notes[0].contains("Puppetfile does not install it, and the modulepath entry `modules` of ")
            && notes[0].ends_with("environment.conf holds what it installs"),
        "{}",
        notes[0]
    );
}

#[test]
fn a_relative_include_of_a_nested_class_names_the_class_puppet_3_found() {
    // Oracle case 582: Puppet 7 fails with "Could not find class ::amq::service".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile::mq\n}\n");
    write(
        root,
        "modules/profile/manifests/mq.pp",
        "class profile::mq {\n  class amq::service {\n    notify { 'mq': }\n  }\n  include amq::service\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-class", "mq.pp".to_string(), 5)], "{found:#?}");
    assert!(
        found[0].message.contains("not as `profile::mq::amq::service`, which Puppet 3 found"),
        "{}",
        found[0].message
    );
    // A module the Puppetfile installs is what the name means today.
    write(root, "Puppetfile", "mod 'acme-amq', '1.0.0'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "mq.pp".to_string(), 5)], "{found:#?}");
    std::fs::remove_file(root.join("Puppetfile")).unwrap();
    // A class naming its own module's class is no relative name.
    write(root, "modules/profile/manifests/mq.pp", "class profile::mq {\n  include mq\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "mq.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_resource_only_an_instance_of_one_title_declares_is_not_a_possible_duplicate() {
    // Oracle case 583: Puppet compiles it. Were `$key` 'port', Puppet
    // would fail on `Setting['port']` before the file.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("settings");
    write(
        &module,
        "manifests/entry.pp",
        "define settings::entry($value = undef) {\n  if $name == 'port' {\n    file { '/tmp/port': content => $value }\n  }\n}\n",
    );
    write(
        &module,
        "manifests/init.pp",
        "class settings(Hash $extra = {}) {\n  settings::entry { 'port': value => '5432' }\n  $extra.each |$key, $val| {\n    settings::entry { $key: value => $val }\n  }\n}\n",
    );
    let found = findings(vec![module.clone()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // A title tested against another literal is no such instance.
    write(
        &module,
        "manifests/entry.pp",
        "define settings::entry($value = undef) {\n  if $name == 'port' or $name == 'listen' {\n    file { '/tmp/port': content => $value }\n  }\n}\n",
    );
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "entry.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_module_directory_without_code_is_named_in_the_missing_module_note() {
    // Puppet 7: "Could not find class ::cron".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include cron\n}\n");
    write(root, "modules/cron/spec/classes/init_spec.rb", "describe 'cron' do\nend\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "site.pp".to_string(), 2)], "{found:#?}");
    assert!(
        found[0].message.starts_with("module `cron` is not in the checked tree (its directory ")
            && found[0].message.contains("modules/cron holds no manifests or metadata.json)"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_class_defined_only_in_a_file_the_autoloader_never_reads_is_not_found() {
    // Puppet 7: "Could not find class ::profile::windows::users" at the include.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    write(root, "modules/profile/manifests/base.pp", "class profile::base {\n  include profile::windows::users\n}\n");
    write(
        root,
        "modules/profile/manifests/windows-old/users.pp",
        "class profile::windows::users {\n  notify { 'users': }\n}\n",
    );
    // Code of such a file never runs: what it declares is not judged.
    write(
        root,
        "modules/profile/manifests/windows-old/groups.pp",
        "class profile::windows::groups {\n  include profile::windows::users\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [
            ("unknown-class", "base.pp".to_string(), 2),
            ("definition-location", "groups.pp".to_string(), 1),
            ("definition-location", "users.pp".to_string(), 1)
        ],
        "{found:#?}"
    );
    assert!(
        found[0].message.starts_with("Could not find class ::profile::windows::users: it is defined only in "),
        "{}",
        found[0].message
    );
    // Where the autoloader finds it, it is found.
    std::fs::remove_dir_all(root.join("modules/profile/manifests/windows-old")).unwrap();
    write(
        root,
        "modules/profile/manifests/windows/users.pp",
        "class profile::windows::users {\n  notify { 'users': }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_variable_the_reader_assigns_on_other_paths_is_its_own_whatever_the_puppetfile_installs() {
    // Puppet 7 with strict_variables: "Unknown variable: 'auth'".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Puppetfile", "mod 'puppetlabs/apt', '2.3.0'\n");
    write(root, "manifests/site.pp", "node default {\n  app::uri { 'cs': database => 'cs' }\n}\n");
    write(
        root,
        "modules/app/manifests/uri.pp",
        "define app::uri($database, $username = '') {\n  if $username != '' {\n    $auth = \"${username}@\"\n  }\n  notify { \"mongodb://${auth}host/${database} ${deploy_env}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(String, &str)> = found
        .iter()
        .filter(|f| f.rule == "undefined-variable")
        .map(|f| (format!("{:?}", f.level), f.message.split(' ').next().unwrap_or_default()))
        .collect();
    // `$deploy_env` may be a fact of a module the Puppetfile installs.
    assert_eq!(levels, [("Error".to_string(), "`$auth`"), ("Warning".to_string(), "`$deploy_env`")], "{found:#?}");
}

#[test]
fn a_class_variable_bound_only_in_a_branch_that_did_not_run_says_so() {
    // Puppet 7 with strict_variables: "Unknown variable: 'app::settings::enabled'".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include app\n}\n");
    write(
        root,
        "modules/app/manifests/init.pp",
        "class app {\n  include app::settings\n  if $app::settings::enabled {\n    notify { 'on': }\n  }\n}\n",
    );
    write(
        root,
        "modules/app/manifests/settings.pp",
        "class app::settings {\n  $write = undef\n  if $write {\n    $enabled = true\n  }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 3)], "{found:#?}");
    assert!(
        found[0].message.starts_with("`$app::settings::enabled` is not bound: class `app::settings` assigns it only in branches that did not run"),
        "{}",
        found[0].message
    );
    assert_eq!(found[0].related[0].span.start_pos.line, 4, "{found:#?}");
}

#[test]
fn a_defined_type_written_inside_a_class_is_suggested_by_its_full_name() {
    // Puppet 7: "Unknown resource type: 'bs::link'".
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("bs");
    write(
        &module,
        "manifests/jenkins.pp",
        "class bs::jenkins {\n  define bs::link($to) {\n    notify { $to: }\n  }\n  bs::link { 'ant': to => '/opt/ant' }\n}\n",
    );
    write(&module, "manifests/init.pp", "class bs {\n  include bs::jenkins\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("unknown-resource-type", "jenkins.pp".to_string(), 5)], "{found:#?}");
    assert!(
        found[0].message.ends_with("the tree defines `bs::jenkins::bs::link`: a defined type written inside class `bs::jenkins` takes its name as a prefix"),
        "{}",
        found[0].message
    );
}

#[test]
fn custom_facts_named_like_legacy_facts_are_not_legacy() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("site_facts");
    write(
        &module,
        "manifests/init.pp",
        "class site_facts {\n  notify { \"${::osfamily} ${lsbdistcodename} ${facts['ipaddress']} ${::memorysize}\": }\n}\n",
    );
    write(&module, "lib/facter/osfamily.rb", "Facter.add(:osfamily) do\n  setcode { 'Debian' }\nend\n");
    write(&module, "facts.d/site.txt", "lsbdistcodename=bookworm\nipaddress=10.0.0.1\n");
    let found = findings(vec![module], vec![]);
    let legacy: Vec<&str> = found.iter().filter(|f| f.rule == "legacy-fact").map(|f| f.message.as_str()).collect();
    assert_eq!(legacy.len(), 1, "{found:#?}");
    assert!(legacy[0].contains("`$::memorysize`") && legacy[0].contains("$facts['memory']['system']['total']"));
    let notes: Vec<&str> = found.iter().filter(|f| f.rule == "top-scope-fact").map(|f| f.message.as_str()).collect();
    assert_eq!(
        notes,
        [
            "`$::osfamily` reads a fact as a variable: use `$facts['osfamily']`",
            "`$lsbdistcodename` reads a fact as a variable: use `$facts['lsbdistcodename']`"
        ],
        "{found:#?}"
    );
}

#[test]
fn a_server_fact_read_as_a_variable_is_called_a_server_fact() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("report");
    write(&module, "manifests/init.pp", "class report {\n  notify { \"${::serverversion} ${::kernel}\": }\n}\n");
    let found = findings(vec![module], vec![]);
    let notes: Vec<&str> = found.iter().filter(|f| f.rule == "top-scope-fact").map(|f| f.message.as_str()).collect();
    assert_eq!(
        notes,
        [
            "`$::serverversion` reads a server fact as a variable: use `$server_facts['serverversion']`",
            "`$::kernel` reads a fact as a variable: use `$facts['kernel']`"
        ],
        "{found:#?}"
    );
}

#[test]
fn a_legacy_fact_read_by_every_node_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "node 'a.example.com' {\n  include base\n}\nnode 'b.example.com' {\n  $x = 1\n  include base\n}\n",
    );
    write(root, "modules/base/manifests/init.pp", "class base {\n  notify { $::operatingsystem: }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("legacy-fact", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("`$facts['os']['name']`"), "{}", found[0].message);
}

#[test]
fn a_class_no_node_reaches_may_get_its_fact_named_variable_from_a_node() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  $osfamily = 'Custom'\n}\n");
    write(
        root,
        "modules/base/manifests/init.pp",
        "class base {\n  notify { \"${osfamily}\": }\n  notify { \"${::osfamily}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("legacy-fact", "init.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn core_type_names_the_tree_defines_again_are_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("site");
    write(
        &module,
        "manifests/init.pp",
        "class site {\n  package { 'curl': ensure => installed, extra => 1 }\n  service { 'x': bogus => 1 }\n  file { '/x': modee => '0644' }\n}\n",
    );
    // A module's own `package` type takes what its Ruby says.
    write(
        &module,
        "lib/puppet/type/package.rb",
        "Puppet::Type.newtype(:package) do\n  ensurable\n  newparam(:extra)\nend\n",
    );
    let found = findings(vec![module], vec![]);
    let unknown: Vec<(&str, String, u32)> =
        rules(&found).into_iter().filter(|(rule, _, _)| *rule == "unknown-attribute").collect();
    assert_eq!(
        unknown,
        [("unknown-attribute", "init.pp".to_string(), 3), ("unknown-attribute", "init.pp".to_string(), 4)],
        "{found:#?}"
    );
    let file = found.iter().rfind(|f| f.rule == "unknown-attribute").unwrap();
    assert_eq!(file.message, "File[/x]: has no parameter named 'modee'; did you mean 'mode'?");
}

#[test]
fn a_selector_is_judged_only_on_values_no_hiera_data_can_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include app\n}\n");
    write(
        root,
        "modules/app/manifests/init.pp",
        "class app($tier = 'staging') {\n  $from_parameter = $tier ? { 'production' => 3, 'test' => 1 }\n  $local = 'staging'\n  $from_local = $local ? { 'production' => 3, 'test' => 1 }\n  notify { \"${from_parameter} ${from_local}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let selectors: Vec<(&str, String, u32)> =
        rules(&found).into_iter().filter(|(rule, _, _)| *rule == "selector-without-match").collect();
    // The parameter's default may be replaced by Hiera data outside the tree.
    assert_eq!(selectors, [("selector-without-match", "init.pp".to_string(), 4)], "{found:#?}");
    let finding = found.iter().find(|f| f.rule == "selector-without-match").unwrap();
    assert!(finding.flow.iter().any(|step| step.message.contains("app")), "{finding:#?}");
}

#[test]
fn legacy_facts_in_hiera_configurations_and_data_are_reported_where_interpolated() {
    let trees = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/trees");
    let found = findings(vec![trees.join("16_hiera_hierarchy_interpolates_a_legacy_fact")], vec![]);
    let legacy: Vec<(String, u32, u32, &str)> = found
        .iter()
        .filter(|f| f.rule == "legacy-fact")
        .map(|f| {
            let file = f.path.file_name().unwrap().to_string_lossy().into_owned();
            (file, f.span.start_pos.line, f.span.start_pos.column, f.message.as_str())
        })
        .collect();
    assert_eq!(
        legacy,
        [
            (
                "common.yaml".to_string(),
                2,
                24,
                "`%{facts.lsbdistcodename}` interpolates the legacy fact `lsbdistcodename`, which Puppet 8 no longer provides: use `%{facts.os.distro.codename}`"
            ),
            (
                "hiera.yaml".to_string(),
                8,
                15,
                "`%{::operatingsystem}` interpolates the legacy fact `operatingsystem`, which Puppet 8 no longer provides: use `%{facts.os.name}`"
            ),
        ],
        "{found:#?}"
    );
    // Structured facts, a variable the site sets, a comment: Puppet compiles.
    let found = findings(vec![trees.join("17_hiera_interpolates_structured_facts_and_site_variables")], vec![]);
    assert!(found.is_empty(), "{found:#?}");

    // A module's own layer and JSON data are read; a custom fact of that
    // name, a copy under `files/` and a module only on the module path are not.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("app");
    write(&module, "manifests/init.pp", "class app (String $zone = 'a') {\n  notify { $zone: }\n}\n");
    write(
        &module,
        "hiera.yaml",
        "---\nversion: 5\nhierarchy:\n  - name: os\n    path: \"%{facts.operatingsystemmajrelease}.yaml\"\n  - name: rack\n    path: \"%{::rack}/%{::macaddress_eth0}.yaml\"\n  - name: common\n    data_hash: json_data\n    path: common.json\n",
    );
    // Read by no level: not Hiera data.
    write(&module, "data/tool/settings.json", "{\"name\": \"%{::osfamily}\"}\n");
    write(&module, "data/common.json", "{\"app::zone\": \"%{scope('::fqdn')}\"}\n");
    write(&module, "files/hiera.yaml", "---\nversion: 5\nhierarchy:\n  - path: \"%{::osfamily}.yaml\"\n");
    write(&module, "lib/facter/rack.rb", "Facter.add(:rack) do\n  setcode { 'r1' }\nend\n");
    let vendored = dir.path().join("vendor/lib");
    write(&vendored, "manifests/init.pp", "class lib {\n}\n");
    write(&vendored, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - path: \"%{::osfamily}.yaml\"\n");
    let found = findings(vec![module], vec![dir.path().join("vendor")]);
    assert_eq!(
        rules(&found),
        [
            ("legacy-fact", "common.json".to_string(), 1),
            ("legacy-fact", "hiera.yaml".to_string(), 5),
            ("legacy-fact", "hiera.yaml".to_string(), 7),
        ],
        "{found:#?}"
    );
    assert!(found[0].message.contains("use `%{facts.networking.fqdn}`"), "{}", found[0].message);
    assert!(found[2].message.contains("`%{::macaddress_eth0}`"), "{}", found[2].message);
}

#[test]
fn keys_of_eyaml_data_are_hiera_keys() {
    let dir = tempfile::tempdir().unwrap();
    let env = dir.path().join("production");
    write(&env, "environment.conf", "modulepath = site\n");
    write(
        &env,
        "hiera.yaml",
        "---\nversion: 5\ndefaults:\n  datadir: data\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: common.eyaml\n  - name: common\n    path: common.yaml\n",
    );
    write(&env, "data/common.yaml", "---\nntp::servers: []\n");
    write(
        &env,
        "data/common.eyaml",
        "---\nprofile::db::password: ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEh]\n",
    );
    write(&env, "manifests/site.pp", "node default { include profile::db }\n");
    write(&env, "site/profile/manifests/db.pp", "class profile::db (String $password) {\n  notify { 'db': }\n}\n");
    let found = findings(vec![env.clone()], vec![]);
    assert!(found.iter().all(|f| f.rule != "missing-parameter"), "{found:#?}");
    write(&env, "data/common.eyaml", "---\nprofile::db::user: ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEh]\n");
    let found = findings(vec![env], vec![]);
    assert!(found.iter().any(|f| f.rule == "missing-parameter"), "{found:#?}");
}

#[test]
fn relationships_are_not_judged_where_hiera_may_set_a_class_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let env = dir.path().join("production");
    write(&env, "environment.conf", "modulepath = site\n");
    write(
        &env,
        "site/web/manifests/init.pp",
        "class web (String $package = 'nginx-light') {\n  package { $package: }\n}\n",
    );
    write(
        &env,
        "manifests/site.pp",
        "node default {\n  include web\n  service { 'nginx': require => Package['nginx'] }\n}\n",
    );
    // Hiera data outside the tree may give `web::package: nginx`.
    let found = findings(vec![env.clone()], vec![]);
    assert!(found.iter().all(|f| f.rule != "missing-relationship-target"), "{found:#?}");
    // A class without parameters leaves nothing to Hiera.
    write(&env, "site/web/manifests/init.pp", "class web {\n  package { 'nginx-light': }\n}\n");
    let found = findings(vec![env], vec![]);
    assert!(found.iter().any(|f| f.rule == "missing-relationship-target"), "{found:#?}");
}

#[test]
fn the_manifest_setting_of_environment_conf_names_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let env = dir.path().join("production");
    write(&env, "environment.conf", "manifest = manifests/site.pp\n");
    write(&env, "manifests/site.pp", "node default { notify { 'current': } }\n");
    write(&env, "manifests/old_site.pp", "node default { notify { 'old': } }\n");
    let found = findings(vec![env.clone()], vec![]);
    assert!(found.iter().all(|f| f.rule != "duplicate-definition"), "{found:#?}");
    // Without it, Puppet reads every file of manifests/: two default nodes.
    write(&env, "environment.conf", "modulepath = modules\n");
    let found = findings(vec![env], vec![]);
    assert_eq!(rules(&found), [("duplicate-definition", "site.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn puppet_functions_the_tree_defines_again_in_ruby_are_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("site");
    write(
        &module,
        "manifests/init.pp",
        "class site {\n  $a = 3.5.reverse_each |$x| { notice($x) }\n  $b = join('a b', ' ')\n}\n",
    );
    let found = findings(vec![module.clone()], vec![]);
    let judged: Vec<(&str, String, u32)> =
        rules(&found).into_iter().filter(|(rule, _, _)| *rule == "type-mismatch").collect();
    let expected = [("type-mismatch", "init.pp".to_string(), 2), ("type-mismatch", "init.pp".to_string(), 3)];
    assert_eq!(judged, expected, "{found:#?}");
    // A module's own `join` takes what its Ruby says.
    write(
        &module,
        "lib/puppet/functions/join.rb",
        "Puppet::Functions.create_function(:join) do\n  def join(*args)\n    args.join\n  end\nend\n",
    );
    let found = findings(vec![module], vec![]);
    let judged: Vec<(&str, String, u32)> =
        rules(&found).into_iter().filter(|(rule, _, _)| *rule == "type-mismatch").collect();
    assert_eq!(judged, [("type-mismatch", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_directory_with_no_part_of_a_module_is_a_missing_module() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("modules");
    write(&modules.join("docker"), "manifests/init.pp", "class docker {\n  include epel\n}\n");
    write(
        &modules.join("docker"),
        "metadata.json",
        r#"{"name": "x-docker", "version": "1.0.0", "dependencies": [{"name": "stahnma/epel"}]}"#,
    );
    // What is left of a module removed from the tree.
    write(&modules.join("epel"), "Gemfile.lock", "");
    let found = findings(vec![modules], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_class_in_a_file_the_autoloader_does_not_read_says_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("modules");
    // A module unpacked under its Forge name: not a module name.
    write(&modules.join("saz-rsyslog"), "manifests/init.pp", "class rsyslog {\n}\n");
    write(&modules.join("app"), "manifests/init.pp", "class app {\n  include rsyslog\n}\n");
    let found = findings(vec![modules.clone()], vec![]);
    assert_eq!(rules(&found), [("unknown-class", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("saz-rsyslog/manifests/init.pp, outside the module path"), "{found:#?}");
    // The module path the run found is named.
    let expected = format!("looks for rsyslog/manifests/init.pp in {}", modules.display());
    assert!(found[0].message.ends_with(&expected), "{}", found[0].message);
}

#[test]
fn modules_a_puppetfile_installs_into_its_moduledir_are_on_the_module_path() {
    // Puppet (`--modulepath=./modules:./r10k_modules`) compiles `include app`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Puppetfile", "moduledir 'r10k_modules'\nmod 'puppetlabs-apt', '10.0.1'\n");
    write(root, "manifests/site.pp", "node default {\n  include app\n}\n");
    write(root, "modules/app/manifests/init.pp", "class app {\n  include apt\n}\n");
    write(root, "r10k_modules/apt/manifests/init.pp", "class apt {\n  include apt::params\n}\n");
    write(root, "r10k_modules/apt/manifests/params.pp", "class apt::params {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_bolt_projects_modulepath_is_the_module_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "bolt-project.yaml", "name: site\nmodulepath:\n  - modules\n  - r10k_modules\n");
    write(root, "modules/app/manifests/init.pp", "class app {\n  include apt\n}\n");
    write(root, "r10k_modules/apt/manifests/init.pp", "class apt {\n}\n");
    assert_eq!(rules(&findings(vec![root.to_path_buf()], vec![])), []);
    // The inline list form, and a directory the project does not name.
    write(root, "bolt-project.yaml", "name: site\nmodulepath: [modules]\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-class", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_boltdir_in_a_repository_is_a_project_with_its_own_module_path_and_puppetfile() {
    // Bolt 2's `Boltdir`: `modules`, `site-modules` and `site` by default,
    // its Puppetfile installing the rest.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "README.md", "deploy with bolt\n");
    write(root, "Boltdir/Puppetfile", "mod 'puppetlabs-apache', '4.1.0'\n");
    write(root, "Boltdir/site-modules/sq/manifests/init.pp", "class sq {\n  include apache\n  include sq::web\n}\n");
    write(root, "Boltdir/site-modules/sq/manifests/web.pp", "class sq::web {\n}\n");
    for checked in [root.to_path_buf(), root.join("Boltdir")] {
        let found = findings(vec![checked], vec![]);
        assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
        assert!(found[0].message.contains("Boltdir/Puppetfile installs it"), "{}", found[0].message);
    }
}

#[test]
fn an_environment_kept_inside_another_is_compiled_with_its_own_modules() {
    // Puppet compiles `include foo` in environment `windows` (modulepath
    // ./modules), the repository's root being an environment too.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "notify { 'x': }\n");
    write(root, "environments/windows/environment.conf", "modulepath = ./modules\n");
    write(root, "environments/windows/modules/foo/manifests/init.pp", "class foo {\n  include foo::params\n}\n");
    write(root, "environments/windows/modules/foo/manifests/params.pp", "class foo::params {\n}\n");
    // An environment directory without code of its own adds nothing.
    write(root, "environments/production/environment.conf", "config_version = get_config.sh\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_module_the_puppetfile_installs_is_missing_though_a_copy_lies_elsewhere() {
    // Puppet reads `dd` where the Puppetfile installs it, not from a copy
    // outside the module path.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Puppetfile", "mod 'dd', :git => 'https://example.com/dd.git'\n");
    write(root, "modules/app/manifests/init.pp", "class app inherits dd::params {\n  include dd\n}\n");
    write(root, "attic/modules/dd/manifests/init.pp", "class dd {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 1)], "{found:#?}");
    assert!(found[0].message.contains("Puppetfile installs it"), "{}", found[0].message);
}

#[test]
fn files_kept_over_a_module_the_puppetfile_installs_are_not_the_whole_module() {
    // `modules/yum` keeps one class of the site's own, laid over the module
    // the Puppetfile installs there: `include yum` finds the installed one.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Puppetfile", "mod 'example42/yum'\n");
    write(root, "environment.conf", "modulepath = modules:site:$basemodulepath\n");
    write(
        root,
        "modules/yum/manifests/repo/local.pp",
        "class yum::repo::local {\n  yum::managed_yumrepo { 'local': }\n}\n",
    );
    write(
        root,
        "site/profile/manifests/base.pp",
        "class profile::base {\n  include yum\n  include yum::repo::local\n}\n",
    );
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "local.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("(only files added over it are): `yum` and 1 more"), "{}", found[0].message);
    assert!(found[0].message.contains("Puppetfile installs it"), "{}", found[0].message);
    // A whole module kept in the tree is the one Puppet loads.
    write(root, "modules/yum/manifests/init.pp", "class yum {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-resource-type", "local.pp".to_string(), 2)], "{found:#?}");
    // So is one the Puppetfile takes from the tree (r10k's `:local`).
    std::fs::remove_file(root.join("modules/yum/manifests/init.pp")).unwrap();
    write(root, "Puppetfile", "mod 'yum', :local => true\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let expected = [("unknown-resource-type", "local.pp".to_string(), 2), ("unknown-class", "base.pp".to_string(), 2)];
    assert_eq!(rules(&found), expected, "{found:#?}");
}

#[test]
fn a_variable_top_or_node_scope_code_reads_unset_may_come_from_outside_like_dollar_colon_colon() {
    // `$role` at node or top scope looks in top scope, as `$::role` does:
    // an ENC parameter or an external fact may set it (Puppet compiles
    // this with the fact given, and fails without it). A class's own read
    // of a variable bound nowhere is a warning: the site reads `$::zone`,
    // which comes from outside the tree, and this may too.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "notify { \"tier ${tier}\": }\nnode default {\n  notify { \"role ${role} ${::zone}\": }\n  include app\n}\n",
    );
    write(root, "modules/app/manifests/init.pp", "class app {\n  notify { \"${nowhere}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(String, u32, mplint::rules::Level)> = found
        .iter()
        .map(|f| (f.path.file_name().unwrap().to_string_lossy().into_owned(), f.span.start_pos.line, f.level))
        .collect();
    use mplint::rules::Level::{Note, Warning};
    assert_eq!(
        levels,
        [
            ("site.pp".to_string(), 1, Note),
            ("site.pp".to_string(), 3, Note),
            ("site.pp".to_string(), 3, Note),
            ("init.pp".to_string(), 2, Warning)
        ],
        "{found:#?}"
    );
    assert!(found[0].message.contains("ENC parameter"), "{}", found[0].message);
}

#[test]
fn a_duplicate_only_some_nodes_declare_names_the_conditions_it_needs() {
    // Puppet compiles this for a Linux node; a Windows node declaring two
    // checks fails. The finding says when the catalog holds both.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "define check() {\n  case $facts['os']['family'] {\n    'windows': { notify { 'nsc_ini_check': } }\n    default:   { notify { \"cfg-${title}\": } }\n  }\n}\nnode /^linux/ {\n  check { 'a': }\n  check { 'b': }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "site.pp".to_string(), 3)], "{found:#?}");
    assert!(found[0].message.ends_with("whenever `$facts['os']['family']` is 'windows'"), "{}", found[0].message);
}

#[test]
fn data_whose_root_mapping_is_indented_gives_its_keys() {
    // `---` then `  p::a: 1` is one mapping to YAML: Puppet binds `p::a`
    // (it compiles this). A key nested under another is no root key.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site\n");
    write(root, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n");
    write(root, "data/common.yaml", "---\n  p::a: 1\n  other:\n    p::b: 2\n");
    write(root, "site/p/manifests/init.pp", "class p ($a, $b) {\n  notify { \"${a} ${b}\": }\n}\n");
    write(root, "manifests/site.pp", "include p\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-parameter", "site.pp".to_string(), 1)], "{found:#?}");
    assert!(found[0].message.contains("'b'") && !found[0].message.contains("'a'"), "{}", found[0].message);
}

#[test]
fn code_beside_a_directory_of_modules_is_an_environment_without_environment_conf() {
    // A Vagrant setup's `puppet/`, run with `--modulepath puppet/modules`:
    // Puppet compiles it. It is no module named `puppet`, and its modules
    // are on its module path.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/manifests/site.pp", "node default {\n  include b\n}\n");
    write(root, "puppet/manifests/x.pp", "class puppet::x {\n}\n");
    write(root, "puppet/modules/a/manifests/init.pp", "class a {\n  notify { 'a': }\n}\n");
    write(root, "puppet/modules/b/manifests/init.pp", "class b {\n  include a\n  include puppet::x\n}\n");
    write(root, "Vagrantfile", "# puppet.manifests_path = 'puppet/manifests'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn code_beside_a_puppetfile_is_an_environment_though_its_modules_are_not_installed() {
    // `puppet apply demo/puppet/manifests` reads the directory as one
    // manifest; the Puppetfile installs its modules at deployment.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "demo/puppet/Puppetfile", "mod 'puppetlabs/stdlib'\n");
    write(root, "demo/puppet/manifests/a.pp", "file { '/tmp/x': ensure => file }\n");
    write(root, "demo/puppet/manifests/b.pp", "exec { 'use': command => '/bin/true', require => File['/tmp/x'] }\n");
    for checked in [root.to_path_buf(), root.join("demo"), root.join("demo/puppet")] {
        let found = findings(vec![checked], vec![]);
        assert_eq!(rules(&found), [], "{found:#?}");
    }
}

#[test]
fn a_class_name_no_class_can_have_is_an_error_not_a_missing_module() {
    // Puppet: "Could not find declared class keystone:ldap" (oracle case
    // 540), whatever modules are installed.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("keystone");
    write(&module, "manifests/init.pp", "class keystone {\n}\n");
    write(&module, "manifests/ldap.pp", "class keystone::ldap {\n}\n");
    write(&module, "examples/ldap.pp", "class { 'keystone:ldap': }\ninclude 'keystone::'\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(
        rules(&found),
        [("unknown-class", "ldap.pp".to_string(), 1), ("unknown-class", "ldap.pp".to_string(), 2)],
        "{found:#?}"
    );
    assert!(found.iter().all(|f| f.level == mplint::rules::Level::Error), "{found:#?}");
    assert!(found[0].message.contains("did you mean `keystone::ldap`?"), "{}", found[0].message);
}

#[test]
fn a_long_parameter_list_is_counted_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let params: Vec<String> = (1..=9).map(|i| format!("$p{i} = 1")).collect();
    write(root, "site.pp", format!("class big ({}) {{\n}}\nclass {{ 'big': debug => true }}\n", params.join(", ")));
    let found = findings(vec![root.join("site.pp")], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "site.pp".to_string(), 3)], "{found:#?}");
    assert!(found[0].message.ends_with("(class `big` takes 9 parameters)"), "{}", found[0].message);
}

#[test]
fn a_title_mplint_cannot_know_is_shown_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "site.pp",
        "define member (String $ip) {\n  notify { $ip: }\n}\nmember { $trusted['certname']:\n  ip    => '1',\n  order => 2,\n}\n",
    );
    let found = findings(vec![root.join("site.pp")], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "site.pp".to_string(), 6)], "{found:#?}");
    assert!(
        found[0].message.starts_with("Member[$trusted['certname']]: has no parameter named 'order'"),
        "{}",
        found[0].message
    );
}

#[test]
fn environments_kept_inside_an_environment_need_no_environment_conf() {
    // Puppet compiles `sub` (modulepath sub/modules, manifest
    // sub/manifests/site.pp) and `environments/wintest` each with its own
    // modules and top scope. The root's `manifests/init.pp` beside its
    // `environment.conf` is its manifest, not a module's.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules:$basemodulepath\n");
    write(root, "manifests/init.pp", "include base\n");
    write(root, "modules/base/manifests/init.pp", "class base {\n}\n");
    write(root, "sub/manifests/site.pp", "$greeting = 'hello'\nnode default {\n  include m\n}\n");
    write(root, "sub/modules/m/manifests/init.pp", "class m {\n  notify { $greeting: }\n}\n");
    write(root, "environments/wintest/manifests/site.pp", "$who = 'hi'\ninclude choco\n");
    write(root, "environments/wintest/modules/choco/manifests/init.pp", "class choco {\n  notify { $who: }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_custom_fact_whose_name_is_computed_covers_names_with_its_start() {
    // Facter resolves `has_tmp` from this loop; Puppet given the fact
    // compiles the site. `$hostname_x` is no such fact.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/m/lib/facter/paths.rb",
        "%w{/srv/x /tmp}.each do |path|\n  Facter.add(\"has\" + path.gsub(/[\\/-]/, '_')) do\n    setcode { FileTest.exist?(path) }\n  end\nend\n",
    );
    write(
        root,
        "modules/m/manifests/init.pp",
        "class m {\n  if $has_tmp {\n    notify { \"${other_thing}\": }\n  }\n}\n",
    );
    write(root, "manifests/site.pp", "node default {\n  include m\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_puppet_3_relative_parent_is_named_with_the_class_it_meant() {
    // Puppet 7: "Could not find parent resource type '::params'".
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("foo");
    write(&module, "manifests/params.pp", "class foo::params {\n  $x = 1\n}\n");
    write(&module, "manifests/init.pp", "class foo inherits params {\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("unknown-class", "init.pp".to_string(), 1)], "{found:#?}");
    assert!(found[0].message.ends_with("write `inherits foo::params`"), "{}", found[0].message);
}

#[test]
fn each_operand_of_a_condition_with_and_holds_in_its_branch() {
    // `family == 'Debian' and $m` and `family != 'Debian' and $m` never
    // hold together: Puppet declares the service once whatever the family.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "site.pp",
        "class s ($m = true) {\n  if $facts['os']['family'] == 'Debian' and $m {\n    service { 'trapd': }\n  }\n  if ($facts['os']['family'] != 'Debian') and ($m) {\n    service { 'trapd': }\n  }\n  if $facts['os']['family'] == 'RedHat' and $facts['kernel'] == 'Linux' {\n    package { 'p': }\n  }\n  if !($facts['kernel'] == 'Linux') {\n    package { 'p': }\n  }\n}\ninclude s\n",
    );
    let found = findings(vec![root.join("site.pp")], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_modulepath_entry_inside_the_deployed_environment_is_its_own_directory() {
    // Deployed as `$confdir/environments/production`, the entry is the
    // environment's own `modules`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = $confdir/environments/$environment/modules:$basemodulepath\n");
    write(root, "manifests/site.pp", "include app\n");
    write(root, "modules/app/manifests/init.pp", "class app {\n  include app::config\n}\n");
    write(root, "modules/app/manifests/config.pp", "class app::config {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_default_hiera_data_replaces_is_not_evaluated() {
    // Puppet binds `node_definitions` from the data and never evaluates
    // the default's misspelt read; without the data, the read fails.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n");
    write(root, "data/common.yaml", "---\nmm::master::node_definitions:\n  a: 1\n");
    write(
        root,
        "modules/mm/manifests/master.pp",
        "class mm::master (\n  $node_definitions = $mm::params::node_defintions,\n) inherits mm::params {\n  notify { \"n=${node_definitions}\": }\n}\n",
    );
    write(root, "modules/mm/manifests/params.pp", "class mm::params {\n  $node_definitions = {}\n}\n");
    write(root, "manifests/site.pp", "node default {\n  include mm::master\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    write(root, "data/common.yaml", "---\nmm::other: 1\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "master.pp".to_string(), 2)], "{found:#?}");
    // Data mplint does not hold (a level reading outside the tree) may
    // replace the default too.
    write(
        root,
        "hiera.yaml",
        "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n  - name: secrets\n    datadir: /etc/puppetlabs/secrets\n    path: common.yaml\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn what_a_parent_outside_the_tree_may_bind_is_not_judged() {
    // `somemod::params` comes from a Puppetfile module not installed here:
    // Puppet with it installed compiles this.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Puppetfile", "mod 'somemod', :git => 'https://example.com/somemod.git'\n");
    write(
        root,
        "site/profile/manifests/app.pp",
        "class profile::app inherits somemod::params {\n  $dir = pick($dir, '/srv')\n  notify { \"${foo} ${dir}\": }\n}\n",
    );
    write(root, "manifests/site.pp", "node default {\n  include profile::app\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "app.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn a_metaparameter_the_declarer_may_set_is_read_by_a_class_checked_on_its_own() {
    // Declared `class { 'm::entropy': stage => 'early' }` (elsewhere), the
    // class reads `$stage`; a defined type reads `$notify` likewise.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(&module, "manifests/entropy.pp", "class m::entropy {\n  notify { \"stage=${stage}\": }\n}\n");
    write(&module, "manifests/part.pp", "define m::part () {\n  if $notify {\n    notify { $title: }\n  }\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn yaml_under_data_that_no_hierarchy_level_reads_is_not_hiera_data() {
    // tp's tinydata: `data/<app>/hiera.yaml` is read by a Ruby function
    // that expands `%{osfamily}` itself; the module's Hiera reads only
    // common.yaml. Puppet never reads the file.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("tdm");
    write(&module, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n");
    write(&module, "data/app/hiera.yaml", "---\nprefix: \"%{osfamily}\"\n");
    write(&module, "data/common.yaml", "---\ntdm::family: \"%{::osfamily}\"\n");
    write(&module, "manifests/init.pp", "class tdm (String $family = 'x') {\n  notify { $family: }\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("legacy-fact", "common.yaml".to_string(), 2)], "{found:#?}");
}

#[test]
fn yaml_that_no_level_of_a_version_3_hierarchy_reads_is_not_hiera_data() {
    // Puppet 7 with this configuration as the site's Hiera looks `k` up
    // in base.yaml only; example.yaml is never read.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "hiera.yaml",
        "---\n:backends:\n  - yaml\n:hierarchy:\n  - node/%{::clientcert}\n  - base\n:yaml:\n  :datadir: /etc/puppet/environments/%{environment}/hieradata\n",
    );
    write(root, "hieradata/base.yaml", "---\nk: \"%{::fqdn}\"\n");
    write(root, "hieradata/node/web01.yaml", "---\nk: \"%{::hostname}\"\n");
    write(root, "hieradata/example.yaml", "---\nk: \"%{::domain}\"\n");
    write(root, "manifests/site.pp", "node default {\n  notify { lookup('k'): }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("legacy-fact", "base.yaml".to_string(), 2), ("legacy-fact", "web01.yaml".to_string(), 2)],
        "{found:#?}"
    );
}

#[test]
fn a_class_the_site_defines_and_a_module_init_pp_too_is_not_a_certain_duplicate() {
    // Puppet finds `keychain` in the site's manifests and never reads the
    // module's init.pp here (it compiles this).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/packages.pp", "class keychain {\n  notify { 'site keychain': }\n}\n");
    write(root, "manifests/site.pp", "node default {\n  include keychain\n}\n");
    write(root, "modules/keychain/manifests/init.pp", "class keychain {\n  notify { 'module keychain': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_later_include_under_a_condition_the_read_is_not_under_is_not_judged() {
    // tp::install's shape: whether `m` runs before the read depends on the
    // declarer and on data (Puppet compiles `include m`, and `m::i` alone
    // with its defaults).
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(
        &module,
        "manifests/i.pp",
        "define m::i (Optional[String] $meth = undef, Boolean $v4 = false) {\n  $dest = $meth ? { 'release' => \"${m::d}/r\", default => undef }\n  notify { \"${title} ${dest}\": }\n  if $v4 { include m }\n}\n",
    );
    write(&module, "manifests/init.pp", "class m {\n  $d = '/x'\n  m::i { 'a': }\n}\n");
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_stale_copy_of_a_class_outside_its_autoload_path_is_not_the_one_evaluated() {
    // Puppet's autoloader reads `mrtgserver/manifests/apache.pp`; the copy
    // under `mrtg/` sorts first but is never loaded (Puppet fails on the
    // real file's `$group`, not on the copy's `$owner`).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include mrtgserver::apache\n}\n");
    write(
        root,
        "modules/mrtg/manifests/apache.pp",
        "class mrtgserver::apache {\n  file { '/tmp/x': owner => $owner }\n}\n",
    );
    write(
        root,
        "modules/mrtgserver/manifests/apache.pp",
        "class mrtgserver::apache {\n  file { '/tmp/x': group => $group }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "apache.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].path.ends_with("mrtgserver/manifests/apache.pp"), "{found:#?}");
}

#[test]
fn facts_an_executable_of_facts_d_prints_are_known() {
    // Facter runs executables in facts.d and reads `name=value` lines of
    // their output (Puppet compiles this with the fact the script sets).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile\n}\n");
    write(
        root,
        "modules/profile/facts.d/dropbox.py",
        "#!/usr/bin/env python\nprint(\"dropbox_presence=\" + str(True))\n",
    );
    write(
        root,
        "modules/profile/manifests/init.pp",
        "class profile {\n  notify { \"${dropbox_presence} ${rack_column}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("top-scope-fact", "init.pp".to_string(), 2), ("undefined-variable", "init.pp".to_string(), 2)],
        "{found:#?}"
    );
    assert!(found[1].message.contains("rack_column"), "{found:#?}");
    // A script whose output names cannot be read may set any fact.
    write(root, "modules/profile/facts.d/more.py", "import json\nprint(json.dumps(collect()))\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(!rules(&found).iter().any(|(rule, ..)| *rule == "undefined-variable"), "{found:#?}");
}

#[test]
fn code_for_another_version_of_a_module_in_the_tree_is_not_run() {
    // icinga's shape: the branch for an older `libmod` passes a parameter
    // that the installed 5.0.0 no longer has (Puppet compiles this).
    let dir = tempfile::tempdir().unwrap();
    let mp = dir.path();
    let libmod = "class libmod (\n  String $new_param = 'x',\n) {\n  notify { \"libmod ${new_param}\": }\n}\n";
    write(mp, "libmod/manifests/init.pp", libmod);
    write(
        mp,
        "usemod/manifests/init.pp",
        "class usemod {\n  $v = load_module_metadata('libmod')['version']\n  if versioncmp($v, '4.0.0') < 0 {\n    class { 'libmod': old_param => 'y' }\n  } else {\n    class { 'libmod': new_param => 'y' }\n  }\n}\n",
    );
    let metadata =
        |version: &str| format!("{{\"name\": \"x-libmod\", \"version\": \"{version}\", \"dependencies\": []}}");
    write(mp, "libmod/metadata.json", metadata("5.0.0"));
    let found = findings(vec![mp.join("usemod")], vec![mp.to_path_buf()]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // With 3.0.0 installed, the older branch runs.
    write(mp, "libmod/metadata.json", metadata("3.0.0"));
    let found = findings(vec![mp.join("usemod")], vec![mp.to_path_buf()]);
    assert_eq!(rules(&found), [("unknown-parameter", "init.pp".to_string(), 4)], "{found:#?}");
}

#[test]
fn an_unbound_read_a_module_the_puppetfile_installs_may_set_is_a_warning() {
    // `mac_facts` (not in the tree) ships the custom fact `mac_laptop`:
    // Puppet compiles this once r10k has installed it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site:modules:$basemodulepath\n");
    write(root, "manifests/site.pp", "node default {\n  include profile\n}\n");
    write(root, "site/profile/manifests/init.pp", "class profile {\n  notify { \"${mac_laptop}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 2)], "{found:#?}");
    assert_eq!(found[0].level, mplint::rules::Level::Error, "{found:#?}");
    write(root, "Puppetfile", "mod 'mac_facts',\n  :git => 'https://example.com/mac_facts.git'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 2)], "{found:#?}");
    assert_eq!(found[0].level, mplint::rules::Level::Warning, "{found:#?}");
    assert!(found[0].message.contains("`mac_facts`"), "{found:#?}");
}

#[test]
fn directories_of_modules_beside_the_code_without_environment_conf_are_read_as_module_directories() {
    // A control repository that keeps its roles and profiles in `roles/`
    // and `profiles/` and deploys them on the module path elsewhere.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/nodes.pp", "node default {\n  include web\n}\n");
    write(root, "roles/web/manifests/init.pp", "class web {\n  include base\n}\n");
    write(root, "profiles/base/manifests/init.pp", "class base (Integer $port = 80) {\n  notify { \"${port}\": }\n}\n");
    write(root, "profiles/stale/manifests/init.pp", "class base {\n  notify { $missing: }\n}\n");
    let outcome = mplint::run_with_large_stack({
        let root = root.to_path_buf();
        move || check(&[root], &CheckOptions::default()).unwrap()
    });
    assert_eq!(rules(&outcome.findings), [], "{:#?}", outcome.findings);
    let assumed: Vec<String> = outcome
        .notices
        .iter()
        .filter(|n| n.kind == mplint::input::NoticeKind::AssumedModuleDir)
        .map(|n| n.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(assumed, ["profiles", "roles"], "{:#?}", outcome.notices);
    // A configuration directory's `puppet.conf` that puts them on the
    // module path says so: nothing is assumed.
    write(root, "puppet.conf", "[main]\nbasemodulepath=$confdir/modules:$confdir/roles:$confdir/profiles\n");
    let outcome = mplint::run_with_large_stack({
        let root = root.to_path_buf();
        move || check(&[root], &CheckOptions::default()).unwrap()
    });
    assert_eq!(rules(&outcome.findings), [], "{:#?}", outcome.findings);
    let assumed = outcome.notices.iter().filter(|n| n.kind == mplint::input::NoticeKind::AssumedModuleDir).count();
    assert_eq!(assumed, 0, "{:#?}", outcome.notices);
}

#[test]
fn what_a_module_serves_renders_or_loads_as_ruby_is_not_read_as_code() {
    // SELinux's compiled policies are `.pp` files too; Puppet only serves them.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include m\n}\n");
    write(
        root,
        "modules/m/manifests/init.pp",
        "class m {\n  file { '/tmp/m.pp': source => 'puppet:///modules/m/m.pp' }\n}\n",
    );
    std::fs::create_dir_all(root.join("modules/m/files")).unwrap();
    std::fs::write(root.join("modules/m/files/m.pp"), [0x8f, 0xff, 0x7c, 0xf9, 0x01, 0x00, 0x00, 0x00, 0xff, 0xfe])
        .unwrap();
    // A template named `.pp` is text that Puppet renders, not code.
    write(
        root,
        "modules/m/templates/sudoers.pp",
        "u1 ALL = (root) NOPASSWD : ROOT_CMDS
",
    );
    // Ruby saved as `.pp` among a module's plugins: Puppet loads `lib/`
    // only for Ruby.
    write(
        root,
        "modules/m/lib/puppet/provider/package/swupd.pp",
        "Puppet::Type.type(:package).provide :swupd do\nend\n",
    );
    // Also in a module of plugins only.
    write(
        root,
        "modules/swupd/lib/puppet/provider/package/swupd.pp",
        "Puppet::Type.type(:package).provide :swupd do\nend\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn defined_of_a_name_no_class_of_a_module_in_the_tree_has_is_false() {
    // simp's puppetdb shape: `defined('dep::java_args')` (no `$`) asks for a
    // class or type, which the module `dep` does not have: false, so the
    // read after `or` never runs (Puppet compiles this; without the test
    // it fails with "Unknown variable: 'dep::java_args'").
    let dir = tempfile::tempdir().unwrap();
    let mp = dir.path();
    write(mp, "dep/manifests/init.pp", "class dep ($java_args = []) {\n}\n");
    write(
        mp,
        "user/manifests/init.pp",
        "class user {\n  if !defined('dep::java_args') or empty($dep::java_args) {\n    $x = 'default'\n  } else {\n    $x = $dep::java_args\n  }\n  class { 'dep': }\n  notify { \"x=${x}\": }\n}\n",
    );
    let found = findings(vec![mp.join("user")], vec![mp.to_path_buf()]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // A class of that name in the module: the reads may run first.
    write(mp, "dep/manifests/java_args.pp", "class dep::java_args {\n}\n");
    let found = findings(vec![mp.join("user")], vec![mp.to_path_buf()]);
    assert_eq!(rules(&found).len(), 2, "{found:#?}");
}

#[test]
fn an_unbound_read_an_external_node_classifier_may_set_is_a_warning() {
    // qtqa's shape: puppet.conf runs an ENC that gives every node `input`
    // (Puppet compiles this with the ENC; without it, "Unknown variable").
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include foo\n}\n");
    write(root, "modules/foo/manifests/init.pp", "class foo {\n  notify { \"${input}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        found.iter().map(|f| (f.rule, f.level)).collect::<Vec<_>>(),
        [("undefined-variable", mplint::rules::Level::Error)]
    );
    write(root, "puppet/puppet.conf", "[main]\n    node_terminus = exec\n    external_nodes = $confdir/nodecfg.pl\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        found.iter().map(|f| (f.rule, f.level)).collect::<Vec<_>>(),
        [("undefined-variable", mplint::rules::Level::Warning)]
    );
    assert!(found[0].message.contains("external node classifier"), "{found:#?}");
}

#[test]
fn an_unbound_read_at_a_site_that_reads_facts_from_outside_is_a_warning() {
    // The nodes are classified by an external fact the tree does not set:
    // they get facts from outside, and `$env` may be another.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include base\n}\n");
    write(root, "modules/base/manifests/init.pp", "class base {\n  if $env == 'prod' {\n    notify { 'p': }\n  }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        found.iter().map(|f| (f.rule, f.level)).collect::<Vec<_>>(),
        [("undefined-variable", mplint::rules::Level::Error)]
    );
    // Puppet's own variables are no sign.
    write(root, "manifests/site.pp", "node default {\n  include base\n  $c = $::trusted['certname']\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        found.iter().filter(|f| f.rule == "undefined-variable").map(|f| f.level).collect::<Vec<_>>(),
        [mplint::rules::Level::Error]
    );
    write(root, "manifests/site.pp", "node default {\n  include base\n  $roles = split($::roles, ',')\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<_> = found.iter().map(|f| (f.path.ends_with("site.pp"), f.level)).collect();
    assert_eq!(levels, [(true, mplint::rules::Level::Note), (false, mplint::rules::Level::Warning)], "{found:#?}");
    assert!(found[1].message.contains("reads `$::roles`"), "{found:#?}");
    // A variable the class assigns on other paths is its own, not a fact.
    write(
        root,
        "modules/base/manifests/init.pp",
        "class base($tier = 'test') {\n  if $tier == 'prod' {\n    $env = 'prod'\n  }\n  notify { $env: }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<_> = found.iter().map(|f| (f.path.ends_with("site.pp"), f.level)).collect();
    assert_eq!(levels, [(true, mplint::rules::Level::Note), (false, mplint::rules::Level::Error)], "{found:#?}");
    // So is one it assigns in a lambda, whose variables end with it.
    write(
        root,
        "modules/base/manifests/init.pp",
        "class base {\n  [1].each |$i| {\n    $env = 'prod'\n  }\n  notify { $env: }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<_> = found.iter().map(|f| (f.path.ends_with("site.pp"), f.level)).collect();
    assert_eq!(levels, [(true, mplint::rules::Level::Note), (false, mplint::rules::Level::Error)], "{found:#?}");
    write(root, "modules/base/manifests/init.pp", "class base {\n  if $env == 'prod' {\n    notify { 'p': }\n  }\n}\n");
    // A fact the tree ships is no sign of facts from outside.
    write(root, "modules/base/facts.d/roles.txt", "roles=web\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        found.iter().filter(|f| f.rule == "undefined-variable").map(|f| (f.rule, f.level)).collect::<Vec<_>>(),
        [("undefined-variable", mplint::rules::Level::Error)]
    );
}

#[test]
fn a_puppet_conf_a_module_serves_may_set_an_external_node_classifier() {
    // The site's Puppet server is configured by a module of the tree. A
    // module that only offers a classifier as an option does not say so.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include foo\n}\n");
    write(root, "modules/foo/manifests/init.pp", "class foo {\n  notify { \"${datacenter}\": }\n}\n");
    let optional = "[master]\n<% if @enc -%>\nnode_terminus = exec\n<% end -%>\nexternal_nodes = <%= @enc %>\n";
    write(root, "modules/puppet/templates/server/puppet.conf.erb", optional);
    let levels = |found: &[Finding]| found.iter().map(|f| (f.rule, f.level)).collect::<Vec<_>>();
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(levels(&found), [("undefined-variable", mplint::rules::Level::Error)], "{found:#?}");
    write(
        root,
        "modules/pm/templates/puppet.conf.erb",
        "[master]\n<% if @ca -%>\nca = true\n<% end -%>\nnode_terminus = exec\nexternal_nodes = <%= @enc %>\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(levels(&found), [("undefined-variable", mplint::rules::Level::Warning)], "{found:#?}");
    assert!(found[0].message.contains("modules/pm/templates/puppet.conf.erb sets"), "{found:#?}");
}

#[test]
fn a_plan_returns_or_passes_on_the_results_of_apply() {
    // Puppet (tasks mode) parses each as one call: `notice(...)`, `return(...)`.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(&module, "manifests/init.pp", "class m { }\n");
    write(
        &module,
        "plans/p.pp",
        "plan m::p(TargetSpec $t) {\n  notice(apply($t) { })\n  return apply($t) { file { '/x': } }\n}\n",
    );
    write(&module, "plans/q.pp", "plan m::q(TargetSpec $t) {\n  return(apply($t) { })\n}\n");
    let found = findings(vec![module], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn files_of_manifests_without_site_pp_or_environment_conf_are_applied_one_by_one() {
    // Each is run as `puppet apply manifests/a.pp` (Puppet applies each);
    // loaded together as an environment's manifest they clash.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/a.pp", "node /example/ {\n  include web\n}\n");
    write(root, "manifests/b.pp", "node /example/ {\n  notice('b')\n}\n");
    write(root, "modules/web/manifests/init.pp", "class web {\n  notice('web')\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    write(root, "environment.conf", "manifest = manifests\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-definition", "b.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn directories_of_modules_of_a_tree_with_a_puppetfile_and_no_manifests_are_module_directories() {
    // Applied with `puppet apply --modulepath dist:modules` (Puppet finds
    // every class so).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Puppetfile", "mod 'puppetlabs/stdlib'\n");
    write(root, "dist/role/manifests/x.pp", "class role::x {\n  include profile::base\n}\n");
    write(root, "dist/profile/manifests/base.pp", "class profile::base {\n  notify { 'base': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(!rules(&found).iter().any(|(rule, ..)| *rule == "unknown-class"), "{found:#?}");
}

#[test]
fn a_class_its_parent_declares_is_checked_where_its_parent_declares_it() {
    // pure_repmgr's shape: `b` declares `b::install`, which inherits `b`.
    // Puppet compiles `include b` (install's body runs before `b::config`);
    // checked on its own after its parent, `b::install` would declare `a`
    // resource-like after `b::config` included it.
    let dir = tempfile::tempdir().unwrap();
    let mp = dir.path();
    write(mp, "a/manifests/init.pp", "class a { }\n");
    write(mp, "a/manifests/config.pp", "class a::config inherits a { }\n");
    write(mp, "b/manifests/init.pp", "class b {\n  class { 'b::install': }\n  -> class { 'b::config': }\n}\n");
    write(mp, "b/manifests/install.pp", "class b::install inherits b {\n  class { 'a': }\n}\n");
    write(mp, "b/manifests/config.pp", "class b::config inherits b {\n  include a::config\n}\n");
    let found = findings(vec![mp.join("b")], vec![mp.to_path_buf()]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_class_whose_autoload_file_defines_another_or_does_not_parse_is_explained_once() {
    let dir = tempfile::tempdir().unwrap();
    let mp = dir.path();
    write(mp, "a/manifests/init.pp", "class a {\n  include a::x::y\n}\n");
    write(mp, "a/manifests/x/y.pp", "class a::y {\n}\n");
    write(
        mp,
        "a/manifests/broken.pp",
        "class a::broken {\n  package { 'p':\n    ensure => present\n    name => 'q',\n  }\n}\n",
    );
    write(mp, "a/manifests/child.pp", "class a::child inherits a::broken {\n}\n");
    let found = findings(vec![mp.join("a")], vec![mp.to_path_buf()]);
    let unknown: Vec<&Finding> = found.iter().filter(|f| f.rule == "unknown-class").collect();
    assert_eq!(unknown.len(), 1, "{found:#?}");
    assert!(unknown[0].message.contains("manifests/x/y.pp, defines `a::y` instead"), "{}", unknown[0].message);
    // The parent's file does not parse: its syntax error says so, alone.
    assert!(found.iter().any(|f| f.rule == "syntax-error" && f.path.ends_with("broken.pp")), "{found:#?}");
    assert!(!found.iter().any(|f| f.path.ends_with("child.pp")), "{found:#?}");
}

#[test]
fn what_an_inherited_node_sets_is_not_reported_again_as_unbound() {
    // Puppet 4 and later refuse `node … inherits` (reported once per node);
    // the rest is evaluated as Puppet 3 did, where the child node's scope
    // inherits its parent's, so `$vol` is a node-scope read, not unbound.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "node default {\n  $vol = 'v'\n}\nnode common inherits default {\n  notify { \"c ${vol}\": }\n}\nnode 'experience' inherits common {\n  include exp\n  notify { \"x ${nothere}\": }\n}\n",
    );
    write(root, "modules/exp/manifests/init.pp", "class exp {\n  notify { \"e ${vol}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [
            ("illegal-expression", "site.pp".to_string(), 4),
            ("illegal-expression", "site.pp".to_string(), 7),
            ("undefined-variable", "site.pp".to_string(), 9),
            ("node-scope-leak", "init.pp".to_string(), 2),
        ],
        "{found:#?}"
    );
    let unbound = found.iter().find(|f| f.rule == "undefined-variable").unwrap();
    assert!(unbound.message.contains("(searched node scope, top scope)"), "{}", unbound.message);
}

#[test]
fn an_unbound_read_at_a_site_whose_manifest_classifies_nothing_is_a_warning() {
    // An empty `site.pp`: only an external node classifier can give nodes
    // their classes, and its parameters are top-scope variables.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "\n");
    write(
        root,
        "modules/zbx/manifests/init.pp",
        "class zbx {\n  $server = $branch_parameter\n  notify { $server: }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 2)], "{found:#?}");
    assert_eq!(found[0].level, mplint::rules::Level::Warning, "{found:#?}");
    assert!(found[0].message.contains("external node classifier"), "{found:#?}");
    // A site manifest that declares the class shows every top-scope variable.
    write(root, "manifests/site.pp", "include zbx\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 2)], "{found:#?}");
    assert_eq!(found[0].level, mplint::rules::Level::Error, "{found:#?}");
}

#[test]
fn an_assignment_that_a_reads_own_test_guards_leaves_the_read_uncertain() {
    // `location` may be an external fact: when it is set, the assignment
    // never runs and Puppet compiles; when not, the read fails first.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "case $::location {\n  undef: { $location = 'yow' }\n  default: { }\n}\nnotify { \"at ${::location}\": }\nnotify { \"${::zone}\": }\n$zone = 'z'\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, u32, mplint::rules::Level)> =
        found.iter().map(|f| (f.rule, f.span.start_pos.line, f.level)).collect();
    use mplint::rules::Level::{Error, Warning};
    assert_eq!(levels, [("use-before-assign", 1, Warning), ("use-before-assign", 6, Error)], "{found:#?}");
}

#[test]
fn a_guarded_default_in_a_class_or_defined_type_leaves_the_read_uncertain() {
    // An unqualified read in a class or defined type falls back to top
    // scope, where a fact or node classifier parameter may bind it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/rcb/manifests/init.pp",
        "class rcb {\n  if !$package_repo {\n    $package_repo = 'http://packages'\n  }\n  notify { $package_repo: }\n  notify { $zone: }\n  $zone = 'z'\n}\n",
    );
    write(
        root,
        "modules/rcb/manifests/repo.pp",
        "define rcb::repo {\n  case $mirror {\n    undef: { $mirror = 'm' }\n    default: { }\n  }\n  notify { \"${title} ${mirror}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(String, u32, mplint::rules::Level)> = found
        .iter()
        .filter(|f| f.rule == "use-before-assign")
        .map(|f| (f.path.file_name().unwrap().to_string_lossy().into_owned(), f.span.start_pos.line, f.level))
        .collect();
    use mplint::rules::Level::{Error, Warning};
    assert_eq!(
        levels,
        [("init.pp".to_string(), 2, Warning), ("init.pp".to_string(), 6, Error), ("repo.pp".to_string(), 2, Warning)],
        "{found:#?}"
    );
}

#[test]
fn a_read_its_owner_assigns_only_in_branches_that_did_not_run_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "define pool (Optional[String] $ip = undef) {\n  if $ip {\n    $temp_ip = $ip\n  }\n  [1].each |$x| {\n    $inner = $x\n  }\n  notify { \"${title} ${temp_ip} ${inner}\": }\n}\npool { 'a': }\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{found:#?}");
    assert!(messages.iter().any(|m| m.starts_with("`$temp_ip` is not bound on this path")), "{messages:?}");
    // A lambda's assignment binds the lambda's variable: not the read's.
    assert!(messages.iter().any(|m| m.starts_with("`$inner` is not bound anywhere")), "{messages:?}");
    let temp = found.iter().find(|f| f.message.starts_with("`$temp_ip`")).unwrap();
    assert_eq!(temp.related[0].span.start_pos.line, 3, "{temp:#?}");
}

#[test]
fn a_defined_type_of_an_absent_module_is_a_missing_module_note() {
    let dir = tempfile::tempdir().unwrap();
    let mp = dir.path();
    write(mp, "m/manifests/init.pp", "class m {\n  wget::fetch { 'x': destination => '/tmp' }\n  include wget\n}\n");
    let found = findings(vec![mp.join("m")], vec![mp.to_path_buf()]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(
        found[0]
            .message
            .starts_with("module `wget` is not in the checked tree: `wget` and 1 more name used at 2 places"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_value_in_two_disjoint_lists_of_literals_takes_one_branch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let code = "class site::repos {\n  \
        if $facts['os']['name'] == 'RedHat' {\n    notify { 'base': }\n  }\n  \
        if $facts['os']['name'] in ['CentOS', 'Rocky'] {\n    notify { 'base': }\n  }\n  \
        if $facts['os']['release']['major'] in ['6', '7'] {\n    notify { 'fw': }\n  }\n  \
        if $facts['os']['release']['major'] in ['8', '9'] {\n    notify { 'fw': }\n  }\n  \
        if $facts['os']['family'] in ['Debian', 'RedHat'] {\n    notify { 'both': }\n  }\n  \
        if $facts['os']['family'] in ['redhat', 'Suse'] {\n    notify { 'both': }\n  }\n}\n";
    write(root, "site/manifests/repos.pp", code);
    let found = findings(vec![root.to_path_buf()], vec![]);
    let lines: Vec<(&str, u32)> = found.iter().map(|f| (f.rule, f.span.start_pos.line)).collect();
    // Only the lists sharing a literal (without case) can both hold.
    assert_eq!(lines, [("possible-duplicate-resource", 18)], "{found:#?}");
}

#[test]
fn variables_bound_to_the_same_data_lookup_are_one_value() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let site = |top_key: &str| {
        format!(
            "$services = hiera('{top_key}', [])\n\
             class mail {{\n  $s = hiera('services', [])\n  if !('mx' in $s) {{\n    notify {{ 'mynetworks': }}\n  }}\n}}\n\
             node default {{\n  include mail\n  if 'mx' in $services {{\n    notify {{ 'mynetworks': }}\n  }}\n}}\n"
        )
    };
    write(root, "manifests/site.pp", site("services"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
    // Another key may hold another list.
    write(root, "manifests/site.pp", site("other_services"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    let lines: Vec<(&str, u32)> = found.iter().map(|f| (f.rule, f.span.start_pos.line)).collect();
    assert_eq!(lines, [("possible-duplicate-resource", 11)], "{found:#?}");
}

#[test]
fn a_node_overrides_what_the_node_it_inherits_set() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let site = "define svc($args = '') {\n  notify { $title: message => $args }\n}\n\
        node base {\n  svc { 'a': args => 'one' }\n}\n\
        node 'n1.example.com' inherits base {\n  Svc['a'] { args => 'two' }\n}\n\
        node 'n2.example.com' {\n  svc { 'b': args => 'one' }\n  Svc['b'] { args => 'two' }\n}\n";
    write(root, "manifests/site.pp", site);
    let found = findings(vec![root.to_path_buf()], vec![]);
    let lines: Vec<(&str, u32)> = found.iter().map(|f| (f.rule, f.span.start_pos.line)).collect();
    // Puppet 4 refuses `inherits`; Puppet 3 let the child override. One
    // node overriding what it set itself is refused either way.
    assert_eq!(lines, [("illegal-expression", 7), ("illegal-override", 12)], "{found:#?}");
}

#[test]
fn a_bare_word_compared_is_a_literal_string() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let code = "define site::handler ($ensure = present) {\n  \
        if $ensure == present {\n    notify { $name: message => 'add' }\n  }\n  \
        if $ensure == absent {\n    notify { $name: message => 'remove' }\n  }\n  \
        if $ensure in [absent, purged] {\n    notify { \"${name} gone\": }\n  }\n  \
        if $ensure == present {\n    notify { \"${name} gone\": }\n  }\n}\n";
    write(root, "site/manifests/handler.pp", code);
    write(
        root,
        "site/manifests/init.pp",
        "class site ($e = $facts['handler_ensure']) {\n  site::handler { 'a': ensure => $e }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_project_whose_manifests_define_nodes_is_no_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/m/manifests/init.pp", "class m {\n  notify { 'm': }\n}\n");
    // A Vagrant project beside the modules: `manifests/` is its main
    // manifest, applied with `modules/` as the module path.
    write(root, "proj/Modulefile", "name 'me-proj'\nversion '0.1.0'\n");
    write(root, "proj/manifests/init.pp", "class proj {\n  notify { 'proj': }\n}\ninclude proj\n");
    write(root, "proj/manifests/site.pp", "import 'nodes.pp'\n");
    write(root, "proj/manifests/nodes.pp", "node default {\n  include m\n}\n");
    // A module whose `site.pp` defines its class `<module>::site`.
    write(root, "tool/manifests/init.pp", "class tool {\n}\ninclude tool\n");
    write(root, "tool/manifests/site.pp", "class tool::site {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let located: Vec<(&str, String, u32)> = found
        .iter()
        .filter(|f| f.rule == "definition-location")
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(located, [("definition-location", "tool/manifests/init.pp".to_string(), 3)], "{found:#?}");
    assert!(!found.iter().any(|f| f.rule == "unknown-class"), "{found:#?}");
}

#[test]
fn a_missing_relationship_target_names_the_conditions_it_is_made_under() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include app\n}\n");
    let app = "class app {\n  case $facts['os']['family'] {\n    'RedHat': { }\n    'Debian': {\n      \
        service { 'app': require => Package['app'] }\n    }\n    default: { }\n  }\n}\n";
    write(root, "modules/app/manifests/init.pp", app);
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<(&str, &str)> = found.iter().map(|f| (f.rule, f.message.as_str())).collect();
    assert_eq!(messages.len(), 1, "{found:#?}");
    assert_eq!(messages[0].0, "missing-relationship-target");
    // Equal to 'Debian' says that it is not 'RedHat'.
    assert!(
        messages[0].1.contains("does not declare whenever `$facts['os']['family']` is 'Debian': Puppet fails"),
        "{found:#?}"
    );
}

#[test]
fn a_case_option_naming_no_type_is_taken_for_the_string_meant() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // `Linux` and `SunOS` name no type. Puppet fails at them (reported as
    // unknown-type-reference); the code is checked as the strings meant,
    // which exclude each other.
    write(
        root,
        "m/manifests/init.pp",
        "class m {\n  case $facts['kernel'] {\n    Linux: {\n      include m::a\n      include m::b\n    }\n    default: {}\n  }\n}\n",
    );
    let inner = |class: &str| {
        format!("class m::{class} {{\n  case $facts['kernel'] {{\n    SunOS: {{ notify {{ 'git': }} }}\n    default: {{}}\n  }}\n}}\n")
    };
    write(root, "m/manifests/a.pp", inner("a"));
    write(root, "m/manifests/b.pp", inner("b"));
    // Each option still runs where its string matches.
    write(
        root,
        "m/manifests/c.pp",
        "class m::c {\n  $os = $facts['os']['family'] ? { RedHat => 'el', Debian => 'deb' }\n  case $os {\n    'el': { notify { 'c': } }\n    default: {}\n  }\n  notify { 'c': }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<(&str, String, u32)> = found
        .iter()
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    let file = |name: &str| format!("m/manifests/{name}");
    assert_eq!(
        reported,
        [
            ("unknown-type-reference", file("a.pp"), 3),
            ("unknown-type-reference", file("b.pp"), 3),
            ("unknown-type-reference", file("c.pp"), 2),
            ("unknown-type-reference", file("c.pp"), 2),
            ("possible-duplicate-resource", file("c.pp"), 7),
            ("unknown-type-reference", file("init.pp"), 3),
        ],
        "{found:#?}"
    );
}

#[test]
fn a_stale_copy_of_a_module_off_the_module_path_uses_its_own_classes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/dj/manifests/params.pp", "class dj::params {\n  $confdir = '/etc/dj'\n}\n");
    // An older copy kept beside the modules: its classes read its own
    // `dj::params`, which binds `$installpath`.
    write(root, "old/dj/manifests/params.pp", "class dj::params {\n  $installpath = '/opt'\n}\n");
    write(
        root,
        "old/dj/manifests/ubuntu/base.pp",
        "class dj::ubuntu::base {\n  include dj::params\n  notify { \"path ${dj::params::installpath}\": }\n  notify { \"conf ${dj::params::confdir}\": }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<(&str, String, u32)> = found
        .iter()
        .filter(|f| f.level == mplint::rules::Level::Error)
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(reported, [("undefined-variable", "old/dj/manifests/ubuntu/base.pp".to_string(), 4)], "{found:#?}");
}

#[test]
fn a_module_off_the_module_path_brings_its_own_custom_facts() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // The site's modules live where no layout rule finds them.
    write(root, "site/manifests/site.pp", "node default {\n  include gdm\n}\n");
    write(
        root,
        "site/extra/modules/gdm/lib/facter/gdm_installed.rb",
        "Facter.add('gdm_installed') do\n  setcode { 'true' }\nend\n",
    );
    write(
        root,
        "site/extra/modules/gdm/manifests/init.pp",
        "class gdm {\n  if $gdm_installed == 'true' {\n    notify { 'gdm': }\n  }\n  notify { $unset_anywhere: }\n}\n",
    );
    for checked in [root.to_path_buf(), root.join("site")] {
        let found = findings(vec![checked], vec![]);
        let unbound: Vec<(&str, u32)> = found
            .iter()
            .filter(|f| f.level >= mplint::rules::Level::Warning && f.message.contains('$'))
            .map(|f| (f.rule, f.span.start_pos.line))
            .collect();
        // Only the variable nothing sets stays unbound.
        assert_eq!(unbound.len(), 1, "{found:#?}");
        assert_eq!(unbound[0].1, 5, "{found:#?}");
    }
}

#[test]
fn a_module_kept_beside_the_site_manifests_is_read_as_on_the_module_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // `modules/` is filled by r10k at deployment; the site's own `profile`
    // module sits at the root and is linked onto the module path.
    write(root, "modules/README", "installed by r10k\n");
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n  include other::thing\n}\n");
    write(root, "profile/manifests/base.pp", "class profile::base {\n  include profile::base::cron\n}\n");
    write(root, "profile/manifests/base/cron.pp", "class profile::base::cron {\n  notify { 'cron': }\n}\n");
    // A directory whose classes are not named after it is no module.
    write(root, "tools/manifests/thing.pp", "class other::thing {\n  notify { 'thing': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let unknown: Vec<(&str, String, u32)> = found
        .iter()
        .filter(|f| f.rule == "unknown-class")
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(unknown, [("unknown-class", "manifests/site.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_declaration_surely_clashing_with_one_is_an_error_though_it_may_clash_with_an_earlier_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "site/manifests/init.pp",
        "class site ($purge = false) {\n  if $purge {\n    notify { 'purge': }\n  }\n  include site::post\n}\n",
    );
    // Twice under `if $debug`: whenever it is true, Puppet fails, whatever
    // `$purge` is.
    write(
        root,
        "site/manifests/post.pp",
        "class site::post ($debug = false) {\n  if $debug {\n    notify { 'purge': }\n  }\n  if $debug {\n    notify { 'purge': }\n  }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("possible-duplicate-resource", "post.pp".to_string(), 3), ("duplicate-resource", "post.pp".to_string(), 6)],
        "{found:#?}"
    );
}

#[test]
fn an_absolute_modulepath_naming_the_deployed_environment_reads_its_own_modules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // The repository is checked out as the production environment.
    write(root, "environment.conf", "modulepath = /etc/puppet/environments/production/modules:$basemodulepath\n");
    write(root, "manifests/site.pp", "node default {\n  class { 'foo': prot => 80 }\n}\n");
    write(root, "modules/foo/manifests/init.pp", "class foo ($port) {\n  notify { \"${port}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "site.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_variable_name_puppet_refuses_is_reported_once() {
    // Puppet fails the file at parse time: how the name would resolve is moot.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/nagios/manifests/init.pp",
        "class nagios {\n  notify { 'n': message => \"host \\\\$HOSTNAME\\\\$\" }\n}\n",
    );
    write(root, "manifests/site.pp", "notify { \"\\\\$Top\": }\ninclude nagios\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<(&str, u32)> = found.iter().map(|f| (f.rule, f.span.start_pos.line)).collect();
    assert_eq!(reported, [("illegal-name", 1), ("illegal-name", 2)], "{found:#?}");
}

#[test]
fn nothing_runs_after_a_certain_fail() {
    // Puppet stops at `fail()`: the queued instances never run, so `frag`
    // never reads the class `outer` would have declared.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let site = "class setup {\n  $first = 1\n  $root_group = 0\n}\ndefine outer() {\n  include setup\n}\ndefine frag($group = $setup::root_group) {\n  notify { \"${title} ${group}\": }\n}\nclass php {\n  if ! defined(Class['prefork']) {\n    fail('php requires prefork')\n  }\n}\nouter { 'a': }\nfrag { 'b': }\ninclude php\n";
    write(root, "manifests/site.pp", site);
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.iter().all(|f| f.level < mplint::rules::Level::Error), "{found:#?}");
    // Declared in the other order, `frag` reads a class no one declared yet.
    write(
        root,
        "manifests/site.pp",
        site.replace("outer { 'a': }\nfrag { 'b': }\n", "frag { 'b': }\nouter { 'a': }\n").replace("include php\n", ""),
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let errors: Vec<(&str, u32)> = found
        .iter()
        .filter(|f| f.level == mplint::rules::Level::Error)
        .map(|f| (f.rule, f.span.start_pos.line))
        .collect();
    assert_eq!(errors, [("use-before-assign", 8)], "{found:#?}");
}

#[test]
fn an_unknown_defined_type_of_a_module_off_the_module_path_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/web/manifests/init.pp", "class web {\n  php::ini { 'x': }\n}\n");
    // A copy of `php` kept off the module path.
    write(root, "old/php/manifests/init.pp", "class php {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let unknown: Vec<&str> =
        found.iter().filter(|f| f.rule == "unknown-resource-type").map(|f| f.message.as_str()).collect();
    assert_eq!(unknown.len(), 1, "{found:#?}");
    assert!(unknown[0].contains("no module `php` is on the module path"), "{}", unknown[0]);
}

#[test]
fn a_test_against_an_instances_known_title_excludes_the_same_test_of_another() {
    // Each host declares the node's own file when the node is that host:
    // `$fqdn` equals at most one of the titles (Puppet compiles it).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/m/manifests/init.pp",
        "class m {\n  m::host { 'a.example.com': }\n  m::host { 'b.example.com': }\n}\n",
    );
    for test in ["$facts['networking']['fqdn'] == $title", "\"${facts['networking']['fqdn']}\" == \"${name}\""] {
        let host =
            format!("define m::host {{\n  if {test} {{\n    file {{ '/etc/m.info': ensure => file }}\n  }}\n}}\n");
        write(root, "modules/m/manifests/host.pp", &host);
        let found = findings(vec![root.to_path_buf()], vec![]);
        assert_eq!(rules(&found), [], "{found:#?}");
    }
    // A parameter given the same value twice is one test: both hold on `a`.
    let host = "define m::host($node = 'a') {\n  if $facts['networking']['fqdn'] == $node {\n    file { '/etc/m.info': ensure => file }\n  }\n}\n";
    write(root, "modules/m/manifests/host.pp", host);
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "host.pp".to_string(), 3)], "{found:#?}");
    assert!(found[0].message.ends_with("whenever `$facts['networking']['fqdn']` is 'a'"), "{}", found[0].message);
}

#[test]
fn versioncmp_equal_to_two_plain_versions_excludes_itself() {
    // `versioncmp($v, '8') == 0` holds only for the string '8'; a version
    // with letters is left undecided (`'8a'` and `'8A'` compare equal).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let class = |a: &str, b: &str| {
        format!("class main(String $major) {{\n  if versioncmp($major, '{a}') == 0 {{\n    file {{ '/tmp/devel': }}\n  }}\n  if 0 == versioncmp($major, '{b}') {{\n    file {{ '/tmp/devel': }}\n  }}\n}}\n")
    };
    write(root, "modules/main/manifests/init.pp", class("8", "9.0-1"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    write(root, "modules/main/manifests/init.pp", class("8a", "8b"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "init.pp".to_string(), 6)], "{found:#?}");
}

#[test]
fn manifests_that_vagrant_or_packer_apply_one_at_a_time_are_not_one_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/modules/base/manifests/init.pp", "class base {\n}\n");
    write(root, "puppet/manifests/default.pp", "package { 'htop': ensure => present }\ninclude base\n");
    write(root, "puppet/manifests/exercise.pp", "package { 'htop': ensure => latest }\n");
    // Read as one directory manifest, the two files clash.
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "exercise.pp".to_string(), 1)], "{found:#?}");
    // Vagrant applies `default.pp` alone; `exercise.pp` is applied by hand.
    write(
        root,
        "Vagrantfile",
        "Vagrant.configure('2') do |config|\n  config.vm.provision 'puppet' do |puppet|\n    puppet.manifests_path = 'puppet/manifests'\n    puppet.manifest_file = 'default.pp'\n    puppet.module_path = 'puppet/modules'\n  end\nend\n",
    );
    assert_eq!(rules(&findings(vec![root.to_path_buf()], vec![])), []);
    // Packer, run from the repository's top, applies each file on its own:
    // found from the checked directory, or from the git work tree's top.
    std::fs::remove_file(root.join("Vagrantfile")).unwrap();
    write(
        root,
        "templates/aws/image.json",
        "{\"provisioners\": [{\"type\": \"puppet-masterless\", \"manifest_file\": \"puppet/manifests/{{user `component`}}.pp\"}]}\n",
    );
    assert_eq!(rules(&findings(vec![root.to_path_buf()], vec![])), []);
    std::fs::create_dir_all(root.join(".git")).unwrap();
    assert_eq!(rules(&findings(vec![root.join("puppet")], vec![])), []);
}

#[test]
fn a_class_misplaced_in_another_module_does_not_make_its_module_present() {
    // `torque` is installed from elsewhere; the role module misplaces one
    // of its classes, which Puppet refuses where it is.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include role::x\n}\n");
    write(
        root,
        "modules/role/manifests/x.pp",
        "class torque::extra {\n  include torque::mom\n}\nclass role::x {\n  include torque::extra\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("definition-location", "x.pp".to_string(), 1), ("missing-module", "x.pp".to_string(), 2)],
        "{found:#?}"
    );
}

#[test]
fn the_one_file_vagrant_applies_is_the_site_with_what_it_imports() {
    // `default.pp` imports `classes/*.pp`; `manual.pp` is applied by hand.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Vagrantfile",
        "Vagrant.configure('2') do |c|\n  c.vm.provision :puppet do |puppet|\n    puppet.manifests_path = 'puppet/manifests'\n    puppet.manifest_file = 'default.pp'\n  end\nend\n",
    );
    write(root, "puppet/manifests/default.pp", "import 'classes/*.pp'\ninclude app\n");
    write(root, "puppet/manifests/classes/app.pp", "class app {\n  file { '/tmp/x': ensure => file }\n}\n");
    write(root, "puppet/manifests/manual.pp", "file { '/tmp/x': ensure => file }\n");
    for checked in [root.to_path_buf(), root.join("puppet")] {
        let found = findings(vec![checked], vec![]);
        assert!(found.iter().all(|f| f.rule == "unknown-function"), "{found:#?}");
    }
    // Nodes classified in a file it does not import: production reads the
    // directory whole.
    write(root, "puppet/manifests/nodes/web.pp", "node 'web01' {\n  include app\n}\n");
    let found = findings(vec![root.join("puppet")], vec![]);
    assert!(found.iter().any(|f| f.rule == "duplicate-resource"), "{found:#?}");
}

#[test]
fn a_site_that_classifies_nodes_is_read_whole_though_vagrant_applies_one_file() {
    // Vagrant applies `vagrant.pp`; production reads the whole directory,
    // whose first file declares what the node's classes read.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Vagrantfile", "Vagrant.configure('2') do |c|\n  c.vm.provision :puppet do |puppet|\n    puppet.manifest_file = 'vagrant.pp'\n  end\nend\n");
    write(root, "manifests/site/00_all.pp", "include params\n");
    write(root, "manifests/site/01_app.pp", "node 'app01' {\n  include app\n}\n");
    write(root, "manifests/vagrant.pp", "node 'app-vm' {\n  include app\n}\n");
    write(root, "modules/params/manifests/init.pp", "class params {\n  $root = '/srv'\n}\n");
    write(root, "modules/app/manifests/init.pp", "class app {\n  notify { $params::root: }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.iter().all(|f| f.level < mplint::rules::Level::Error), "{found:#?}");
}

#[test]
fn an_environment_conf_left_in_a_configuration_directory_makes_no_environment() {
    // `ops/puppet` is unpacked into /etc/puppetlabs; its environments take
    // `code/modules` as their base module path.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "ops/puppet/environment.conf", "");
    write(root, "ops/puppet/code/environments/production/environment.conf", "");
    write(root, "ops/puppet/code/environments/production/manifests/site.pp", "include role\n");
    write(root, "ops/puppet/code/modules/role/manifests/init.pp", "class role {\n  include profile\n}\n");
    write(root, "ops/puppet/code/modules/profile/manifests/init.pp", "class profile {\n  notify { 'p': }\n}\n");
    for checked in [root.to_path_buf(), root.join("ops"), root.join("ops/puppet")] {
        let found = findings(vec![checked], vec![]);
        assert_eq!(rules(&found), [], "{found:#?}");
    }
}

#[test]
fn a_puppetfile_helper_method_installs_modules_as_mod_does() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Puppetfile",
        "def github(name, *args)\n  mod name, args.first, :github_tarball => \"boxen/puppet-#{name}\"\nend\ngithub \"boxen\", \"3.11.1\"\n",
    );
    write(root, "manifests/site.pp", "include boxen::environment\ninclude other\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let missing: Vec<&str> = found.iter().filter(|f| f.rule == "missing-module").map(|f| f.message.as_str()).collect();
    assert_eq!(missing.len(), 2, "{found:#?}");
    assert!(missing[0].contains("Puppetfile installs it"), "{}", missing[0]);
    assert!(missing[1].contains("no Puppetfile"), "{}", missing[1]);
}

#[test]
fn a_module_a_puppetfile_below_installs_from_beside_it_is_on_the_module_path() {
    // librarian-puppet installs `puppet/roles` and `puppet/profiles` as the
    // modules `roles` and `profiles`; Puppet finds `profiles::y`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "puppet/Puppetfile",
        "mod 'vagrant-profiles', :path => 'profiles'\nmod 'vagrant-roles', :path => 'roles'\n",
    );
    write(root, "puppet/roles/manifests/x.pp", "class roles::x {\n  include profiles::y\n}\n");
    write(root, "puppet/profiles/manifests/y.pp", "class profiles::y {\n  notify { 'y': }\n}\n");
    write(root, "scripts/provision.sh", "librarian-puppet install\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_file_applied_on_its_own_that_imports_or_is_imported_may_get_variables_from_the_other() {
    // Puppet 3 read `prod.pp` with `base/nodes.pp` as one manifest: its
    // `$level` and `base`'s `$slavetype` bound what `foo` and `bar` read.
    // Puppet 4 and later fail at `import` itself.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "prod.pp", "$level = 'production'\nimport 'base/*'\nnode 'web1' inherits 'base' {\n  include bar\n}\n");
    write(root, "base/nodes.pp", "node 'base' {\n  $slavetype = 'stage'\n}\nnode 'centos' {\n  include foo\n}\n");
    write(root, "modules/foo/manifests/init.pp", "class foo {\n  notify { \"x ${level}\": }\n}\n");
    write(root, "modules/bar/manifests/init.pp", "class bar {\n  notify { \"y ${slavetype}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let unbound: Vec<(&str, &str)> = found
        .iter()
        .filter(|f| f.rule == "undefined-variable")
        .map(|f| (f.message.split('`').nth(1).unwrap_or_default(), f.level.as_str()))
        .collect();
    assert_eq!(unbound, [("$slavetype", "warning"), ("$level", "warning")], "{found:#?}");
    assert!(found.iter().any(|f| f.message.contains("base/nodes.pp is imported by prod.pp")), "{found:#?}");
}

#[test]
fn a_site_that_imports_a_file_the_tree_lacks_may_bind_what_classes_read() {
    // `nodes.pp` is kept out of the repository; its nodes set `$isp`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "import 'roles'\nimport 'nodes'\n");
    write(root, "manifests/roles.pp", "class role::gateway {\n  include isp\n}\n");
    write(root, "modules/isp/manifests/init.pp", "class isp {\n  notify { \"isp ${isp}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let unbound: Vec<&Finding> = found.iter().filter(|f| f.rule == "undefined-variable").collect();
    assert_eq!(unbound.len(), 1, "{found:#?}");
    assert_eq!(unbound[0].level.as_str(), "warning", "{found:#?}");
    assert!(unbound[0].message.contains("imports nodes.pp, which is not in the tree"), "{}", unbound[0].message);
}

#[test]
fn manifests_that_each_define_node_default_are_applied_one_at_a_time() {
    // Read as one main manifest, Puppet fails ("Node 'default' is already
    // defined"); `puppet apply --modulepath=modules manifests/front.pp`
    // and `… manifests/site.pp` each compile. front.pp's `polipo` is the
    // module's, which inherits the `polipo::params` only front.pp defines;
    // the directory's name (`anon`) makes it no copy of a module.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("anon");
    write(
        &root,
        "manifests/front.pp",
        "node default {\n  include polipo\n}\nclass polipo::params {\n  $port = 8123\n}\n",
    );
    write(
        &root,
        "manifests/site.pp",
        "node default {\n  $squid_user = 'proxy'\n  include polipo\n}\nclass polipo {\n  group { $squid_user: }\n}\n",
    );
    write(
        &root,
        "modules/polipo/manifests/init.pp",
        "class polipo inherits polipo::params {\n  notify { \"port ${port}\": }\n}\n",
    );
    let found = findings(vec![root.clone()], vec![]);
    assert_eq!(rules(&found), [("node-scope-leak", "site.pp".to_string(), 6)], "{found:#?}");
}

#[test]
fn a_collection_of_module_sources_names_a_clone_directory_after_its_metadata() {
    // `acme-foo/` is the source of module `foo`; `acme-bar/` would be
    // `bar`, but a `bar/` beside it is that module already.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "acme-foo/metadata.json", "{\"name\": \"acme-foo\", \"version\": \"0.1.0\"}\n");
    write(root, "acme-foo/manifests/init.pp", "class foo {\n  include foo::bar\n}\n");
    write(root, "acme-foo/manifests/bar.pp", "class foo::bar {\n  notify { 'bar': }\n}\n");
    write(root, "bar/manifests/init.pp", "class bar {\n  include bar::baz\n}\n");
    write(root, "acme-bar/metadata.json", "{\"name\": \"acme-bar\"}\n");
    write(root, "acme-bar/manifests/baz.pp", "class bar::baz {\n  notify { 'baz': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-class", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("class `bar::baz` is defined in acme-bar"), "{}", found[0].message);
}

#[test]
fn the_modules_directory_of_a_repository_of_module_sources_names_clones_after_their_metadata() {
    // No environment, no Puppetfile: `modules/puppet-foo` is the source of
    // module `foo`, as its tests install it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/puppet-foo/metadata.json", "{\"name\": \"me-foo\"}\n");
    write(root, "modules/puppet-foo/manifests/init.pp", "class foo inherits foo::params {\n}\n");
    write(root, "modules/puppet-foo/manifests/params.pp", "class foo::params {\n}\n");
    write(root, "modules/bar/manifests/init.pp", "class bar {\n  include foo\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_class_a_file_applied_on_its_own_never_declares_clashes_with_nothing_the_file_runs() {
    // `puppet apply demo.pp` runs `b` only; `a` is dead code there. A class
    // of a site manifest may still be declared by a node classifier.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let code = "class a {\n  file { 'x': path => '/tmp/motd' }\n}\nclass b {\n  file { 'y': path => '/tmp/motd' }\n}\ninclude b\n";
    write(root, "demo/demo.pp", code);
    write(root, "site/manifests/site.pp", code);
    write(root, "site/modules/m/manifests/init.pp", "class m {\n}\n");
    let found = findings(vec![root.join("demo/demo.pp")], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    let found = findings(vec![root.join("site")], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "site.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_submodule_not_checked_out_is_missing_though_a_site_defines_a_class_of_its_name() {
    // `manifests/site.pp` keeps its own `userids::params`; the module
    // `userids` is a git submodule the clone did not fetch.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".gitmodules",
        "[submodule \"modules/userids\"]\n\tpath = modules/userids\n\turl = https://example.com/userids.git\n",
    );
    write(root, "manifests/site.pp", "class userids::params {\n  $uid = 100\n}\nnode default {\n  include tor\n}\n");
    write(root, "modules/tor/manifests/init.pp", "class tor {\n  include userids\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("git submodule"), "{}", found[0].message);
}

#[test]
fn a_lone_module_below_a_repository_is_the_module_its_metadata_names() {
    // `puppet apply --modulepath=provision/puppet-modules
    // provision/puppet-modules/elk_server/examples/init.pp` compiles.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "provision/puppet-modules/elk_server/metadata.json", "{\"name\": \"lab-elk_server\"}\n");
    write(
        root,
        "provision/puppet-modules/elk_server/manifests/init.pp",
        "class elk_server {\n  notify { 'elk': }\n}\n",
    );
    write(root, "provision/puppet-modules/elk_server/examples/init.pp", "include elk_server\n");
    write(root, "provision/setup.sh", "puppet apply examples/init.pp\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn an_environment_checked_apart_reads_a_module_directory_its_modulepath_names_up_the_tree() {
    // `modulepath = site:../../modules/custom`: Puppet 7 finds `foo`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/environments/production/environment.conf", "modulepath = site:../../modules/custom\n");
    write(
        root,
        "puppet/environments/production/manifests/site.pp",
        "node default {\n  class { 'foo': size => 2 }\n}\n",
    );
    write(root, "puppet/modules/custom/foo/manifests/init.pp", "class foo($colour = 'red') {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "site.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn an_environment_checked_apart_finds_the_modules_its_code_dirs_puppetfile_takes_from_the_tree() {
    // `puppet/Puppetfile` installs `puppet/profiles` into `puppet/modules`,
    // the base module path of `puppet/environments/*`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/Puppetfile", "mod 'vagrant-profiles', :path => 'profiles'\n");
    write(root, "puppet/profiles/manifests/y.pp", "class profiles::y($size = 1) {\n  notify { \"y${size}\": }\n}\n");
    write(
        root,
        "puppet/environments/web/manifests/site.pp",
        "node default {\n  class { 'profiles::y': colour => 2 }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "site.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_module_manifests_tree_holding_nodes_may_be_applied_whole() {
    // `puppet apply site/manifests` reads the tree as the main manifest,
    // whose files Puppet checks by no location (Puppet 7.23 compiles it;
    // `include site::web` alone fails "Unacceptable location").
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "site/manifests/nodes.pp", "node default {\n  include site::web\n}\n");
    write(
        root,
        "site/manifests/web.pp",
        "class site::web {\n  rules { 'x': }\n}\ndefine rules {\n  notify { $title: }\n}\n",
    );
    write(root, "other/manifests/init.pp", "class other {\n}\ndefine stray {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let located: Vec<(&str, Level, String, u32)> = found
        .iter()
        .filter(|f| f.rule == "definition-location")
        .map(|f| (f.rule, f.level, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(
        located,
        [
            ("definition-location", Level::Error, "other/manifests/init.pp".to_string(), 3),
            ("definition-location", Level::Warning, "site/manifests/nodes.pp".to_string(), 1),
            ("definition-location", Level::Warning, "site/manifests/web.pp".to_string(), 4),
        ],
        "{found:#?}"
    );
}

#[test]
fn a_checked_module_named_by_its_metadata_comes_before_a_module_path_copy() {
    // `puppet-foo/` is module `foo`: its classes, not those of a module of
    // that name on `--modulepath`, are the ones its code uses.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet-foo/metadata.json", "{\"name\": \"me-foo\", \"version\": \"1.0.0\"}\n");
    write(root, "puppet-foo/manifests/params.pp", "class foo::params {\n  $dir = '/etc/foo'\n}\n");
    write(
        root,
        "puppet-foo/manifests/init.pp",
        "class foo inherits foo::params {\n  $z = 1\n  $z = 2\n  file { $foo::params::dir: }\n}\n",
    );
    write(root, "mp/foo/manifests/params.pp", "class foo::params {\n  $other = 1\n}\n");
    write(root, "mp/foo/manifests/init.pp", "class foo {\n}\n");
    let found = findings(vec![root.join("puppet-foo")], vec![root.join("mp")]);
    assert_eq!(rules(&found), [("variable-reassigned", "init.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_quoted_modulepath_is_read_without_its_quotes() {
    // Puppet drops the quotes around a setting's value.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = \"./modules:./site-modules:$basemodulepath\"\n");
    write(root, "manifests/site.pp", "node default {\n  include role::web\n}\n");
    write(root, "site-modules/role/manifests/web.pp", "class role::web {\n  class { 'foo': size => 1 }\n}\n");
    write(root, "modules/foo/manifests/init.pp", "class foo {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "web.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_fact_a_modules_ruby_helper_adds_is_a_fact() {
    // `lib/facter/foo.rb` loads a helper of the module's, which adds it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/foo/lib/facter/foo.rb",
        "require File.join(File.dirname(__FILE__), '..', 'puppet/foo/facts.rb')\nPuppet::Foo::Facts.install\n",
    );
    write(
        root,
        "modules/foo/lib/puppet/foo/facts.rb",
        "module Puppet; module Foo; module Facts\n  def self.install\n    Facter.add(:foo_plugins) do\n      setcode { 'a' }\n    end\n  end\nend; end; end\n",
    );
    write(root, "modules/foo/manifests/init.pp", "class foo {\n  notice($::foo_plugins)\n}\n");
    write(root, "manifests/site.pp", "node default {\n  include foo\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("top-scope-fact", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_vagrant_boxs_module_path_is_a_directory_of_modules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "box/Vagrantfile",
        "Vagrant.configure('2') do |config|\n  config.vm.provision :puppet do |puppet|\n    puppet.manifests_path = 'manifests'\n    puppet.module_path = '../pm'\n    puppet.manifest_file = 'site.pp'\n  end\nend\n",
    );
    write(root, "box/manifests/site.pp", "node default {\n  class { 'role': size => 1 }\n}\n");
    write(root, "pm/role/manifests/init.pp", "class role {\n  include profile::base\n}\n");
    write(root, "pm/profile/manifests/base.pp", "class profile::base {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "site.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_vagrant_box_finds_the_modules_of_an_environment_checked_apart() {
    // `puppet/` is an environment of its own; the box beside it applies
    // its manifest with `puppet/modules` as the module path.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/manifests/site.pp", "node default {\n  include apt\n}\n");
    write(root, "puppet/modules/apt/manifests/init.pp", "class apt($proxy = undef) {\n}\n");
    write(
        root,
        "tests/box/Vagrantfile",
        "Vagrant.configure('2') do |config|\n  config.vm.provision 'puppet' do |puppet|\n    puppet.manifests_path = './vagrant'\n    puppet.module_path = '../../puppet/modules'\n    puppet.manifest_file = 'install.pp'\n  end\nend\n",
    );
    write(root, "tests/box/vagrant/install.pp", "class { 'apt': size => 1 }\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "install.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn a_puppet_directory_deep_in_the_tree_is_an_environment_whose_files_are_applied_one_at_a_time() {
    // A build step runs `puppet apply --modulepath=modules manifests/$VARIANT.pp`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let puppet = "steps/data/setup/puppet";
    write(root, &format!("{puppet}/manifests/min.pp"), "class { 'env':\n  variant => 'min',\n}\n");
    write(root, &format!("{puppet}/manifests/big.pp"), "class { 'env':\n  variant => 'big',\n}\n");
    write(
        root,
        &format!("{puppet}/modules/env/manifests/init.pp"),
        "class env($variant) {\n  notify { $variant: message => $packages }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn an_environment_of_modules_only_takes_its_code_dirs_modules() {
    // `environments/demo` has no manifests of its own: Puppet still puts
    // `<codedir>/modules` on its module path.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "environments/demo/modules/localconfig/manifests/init.pp",
        "class localconfig {\n  apache::balancer { 'b': size => 2 }\n}\n",
    );
    write(
        root,
        "modules/apache/manifests/balancer.pp",
        "define apache::balancer($port = 80) {\n  notify { $title: }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_module_the_puppetfile_installs_from_the_tree_is_on_the_module_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/Puppetfile", "mod 'qbrc-mevapi', '0.1.0', :path => './mevapi'\n");
    write(root, "puppet/manifests/site.pp", "node default {\n  class { 'mevapi': no_such_param => 1 }\n}\n");
    write(
        root,
        "puppet/mevapi/metadata.json",
        "{\"name\": \"qbrc-mevapi\", \"dependencies\": [{\"name\": \"puppet-nginx\"}]}\n",
    );
    write(root, "puppet/mevapi/manifests/init.pp", "class mevapi($admin_email = 'a@b') {\n  include nginx\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("unknown-parameter", "site.pp".to_string(), 2), ("missing-module", "init.pp".to_string(), 2)],
        "{found:#?}"
    );
    assert!(found[1].message.contains("depends on `puppet-nginx`"), "{}", found[1].message);
}

#[test]
fn stdlibs_type_tests_guard_their_branch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/fw/manifests/rule.pp",
        "define fw::rule($dport, $opts = 5) {\n  if is_array($dport) { $d = join($dport, ',') } else { $d = \"${dport}\" }\n  if is_hash($opts) { $k = keys($opts) } else { $k = [] }\n  notify { \"${title} ${d} ${k}\": }\n}\n",
    );
    write(
        root,
        "manifests/site.pp",
        "fw::rule { 'a': dport => 8091 }\nfw::rule { 'b': dport => [1, 2], opts => { 'x' => 1 } }\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_value_its_parameters_type_refuses_never_reaches_the_body() {
    // Puppet fails at each declaration (oracle cases 559 and 560): what
    // the body would do with the value is no second error.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        concat!(
            "define inner(Optional[Array] $addresses = undef) { }\n",
            "define outer(Array $address = []) {\n",
            "  inner { $title: addresses => $address }\n",
            "}\n",
            "outer { 'vlan100': address => '10.0.0.1/24' }\n",
            "class modes(Enum['a', 'b'] $mode = 'a') {\n",
            "  $port = $mode ? { 'a' => 1, 'b' => 2 }\n",
            "  notify { \"port ${port}\": }\n",
            "}\n",
            "class { 'modes': mode => 'c' }\n",
            "outer { 'ok': address => ['10.0.0.2/24'] }\n",
        ),
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("type-mismatch", "site.pp".into(), 5), ("type-mismatch", "site.pp".into(), 10)],
        "{found:#?}"
    );
}

#[test]
fn a_puppet_3_configuration_directory_compiles_site_pp_alone() {
    // `/etc/puppet` kept in git: `puppet.conf` beside `manifests/`. Puppet 3's
    // main manifest is `manifests/site.pp`; `localdev.pp` beside it is applied
    // on its own on a development box.
    let layout = |puppet_conf: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "modules/app/manifests/init.pp", "class app($flavor) {\n  notify { \"app ${flavor}\": }\n}\n");
        write(root, "manifests/site.pp", "node default {\n  class { 'app': flavor => 'prod' }\n}\n");
        write(root, "manifests/localdev.pp", "class { 'app': flavor => 'dev' }\n");
        if let Some(conf) = puppet_conf {
            write(root, "puppet.conf", conf);
        }
        let found = findings(vec![root.to_path_buf()], vec![]);
        rules(&found)
    };
    assert_eq!(layout(Some("[main]\n  logdir=/var/log/puppet\n")), []);
    // Where `puppet.conf` names another main manifest, site.pp is the one
    // applied on its own.
    assert_eq!(layout(Some("[master]\n  manifest = $confdir/manifests/localdev.pp\n")), []);
    // Without `puppet.conf` the directory is an environment's main
    // manifest, read whole, as Puppet 4 and later do.
    assert_eq!(layout(None), [("duplicate-class-declaration", "site.pp".to_string(), 2)]);
}

#[test]
fn a_module_copy_later_on_the_module_path_is_read_as_a_copy_of_its_own() {
    // Puppet loads `pf` from `a/` only; `b/pf` is never loaded, and its
    // `pf::files` reads its own `pf::params`, not `a/`'s.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = a:b\n");
    write(root, "manifests/site.pp", "include pf::params\n");
    write(root, "a/pf/manifests/params.pp", "class pf::params { }\n");
    write(root, "b/pf/manifests/params.pp", "class pf::params { $mode = '0644' }\n");
    write(
        root,
        "b/pf/manifests/files.pp",
        "class pf::files inherits pf::params {\n  notify { $pf::params::mode: }\n}\n",
    );
    // A module only `b/` has is loaded from there, against `a/`'s modules.
    write(root, "b/other/manifests/init.pp", "class other {\n  notify { \"${pf::params::mode}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_packaged_module_copy_under_another_directory_name_is_never_loaded() {
    // `saz_zzlog/` holds `zzlog`'s classes (its metadata.json says so), but
    // Puppet loads `zzlog::*` from `zzlog/` alone.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, "manifests/site.pp", "include zzlog\n");
    write(root, "modules/zzlog/manifests/init.pp", "class zzlog { }\n");
    write(
        root,
        "modules/saz_zzlog/metadata.json",
        "{\"name\": \"saz-zzlog\", \"version\": \"1.0.0\", \"dependencies\": []}\n",
    );
    write(root, "modules/saz_zzlog/manifests/init.pp", "class zzlog($perm = '0644') { }\n");
    write(
        root,
        "modules/saz_zzlog/manifests/snippet.pp",
        "define zzlog::snippet {\n  include zzlog\n  notify { \"${name}: ${zzlog::perm}\": }\n}\n",
    );
    // A stale name in metadata.json: its classes are the directory's own.
    write(root, "modules/graphite_server/manifests/init.pp", "class graphite_server { }\n");
    write(
        root,
        "modules/graphiteserver/metadata.json",
        "{\"name\": \"root-graphite_server\", \"version\": \"0.1.0\"}\n",
    );
    write(root, "modules/graphiteserver/manifests/init.pp", "class graphiteserver($port) { }\n");
    write(root, "manifests/nodes.pp", "node default {\n  class { 'graphiteserver': port => 1, bogus => 2 }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "nodes.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn facts_the_trees_scripts_and_vagrantfile_set_are_facts() {
    // `apply.sh` exports `FACTER_HOME` before `puppet apply`; Vagrant passes
    // `puppet.facter` the same way: Puppet compiles both.
    let tree = |tool: Option<(&str, &str)>| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "modules/cfg/manifests/init.pp", "class cfg {\n  notify { \"home is ${home}, ${motd}\": }\n}\n");
        write(root, "manifests/default.pp", "include cfg\n");
        if let Some((name, text)) = tool {
            write(root, name, text);
        }
        let found = findings(vec![root.to_path_buf()], vec![]);
        found.iter().filter(|f| f.level == mplint::rules::Level::Error).map(|f| f.message.clone()).collect::<Vec<_>>()
    };
    let script = "#!/bin/sh\nexport FACTER_HOME=\"$HOME\"\nexport FACTER_motd=hi\npuppet apply --modulepath modules manifests/default.pp\n";
    assert_eq!(tree(Some(("apply.sh", script))), Vec::<String>::new());
    let vagrant = "Vagrant.configure('2') do |c|\n  c.vm.provision :puppet do |puppet|\n    puppet.manifest_file = 'default.pp'\n    puppet.facter = { 'home' => '/root', 'motd' => 'hi' }\n  end\nend\n";
    assert_eq!(tree(Some(("Vagrantfile", vagrant))), Vec::<String>::new());
    assert_eq!(tree(None).len(), 2, "{:?}", tree(None));
}

#[test]
fn a_manifest_no_class_name_maps_to_is_applied_not_autoloaded() {
    // `connectivity-checker.pp` in a module's `manifests/` is never
    // autoloaded (no name maps to it); a task runner applies it directly.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let task = "notice('checking')\n$settings = { 'tries' => 5 }\nnotify { \"tries ${settings['tries']}\": }\n";
    write(root, "puppet/osf/manifests/init.pp", "class osf { }\n");
    write(root, "puppet/osf/manifests/connectivity-checker.pp", task);
    // The same code where a name maps to it is module code Puppet refuses.
    write(root, "puppet/osf/manifests/checker.pp", task);
    let found = findings(vec![root.join("puppet")], vec![]);
    let files: Vec<(&str, String)> = rules(&found).into_iter().map(|(rule, file, _)| (rule, file)).collect();
    assert_eq!(files, vec![("definition-location", "checker.pp".to_string()); 3], "{found:#?}");
}

#[test]
fn a_missing_module_names_the_puppetfile_of_the_module_that_uses_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "m/manifests/init.pp", "class m {\n  include foo\n}\n");
    write(root, "m/Puppetfile", "forge 'https://forgeapi.puppet.com'\nmod 'acme-foo', '1.0.0'\n");
    write(root, "n/manifests/init.pp", "class n { }\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("m/Puppetfile installs it"), "{}", found[0].message);
}

#[test]
fn modules_kept_a_few_levels_down_in_a_repository_are_a_directory_of_modules() {
    // `deployment/puppet/<module>` is what packaging installs as the module
    // path: the modules' classes are found there.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "deployment/puppet/app/manifests/init.pp", "class app {\n  class { 'db': size => 1 }\n}\n");
    write(root, "deployment/puppet/db/manifests/init.pp", "class db { }\n");
    write(root, "debian/rules", "install deployment/puppet/* /usr/share/puppet/modules\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-parameter", "init.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_variable_bound_to_a_test_is_that_test() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let code = "class site::flags ($mode) {\n  \
        $is_debian = $facts['os']['family'] == 'Debian'\n  \
        if $is_debian {\n    package { 'x': }\n  }\n  \
        if $facts['os']['family'] != 'Debian' {\n    package { 'x': }\n  }\n  \
        $use_b = $mode =~ /^b/\n  \
        if $use_b {\n    file { '/b': }\n  }\n  \
        unless $mode =~ /^b/ {\n    file { '/b': }\n  }\n  \
        $other = !$is_debian\n  \
        if $other {\n    service { 's': }\n  }\n  \
        if $is_debian {\n    service { 's': }\n  }\n  \
        if $facts['os']['family'] == 'Debian' {\n    user { 'u': }\n  }\n  \
        unless $other {\n    user { 'u': }\n  }\n}\n";
    write(root, "site/manifests/flags.pp", code);
    let found = findings(vec![root.to_path_buf()], vec![]);
    let lines: Vec<(&str, u32)> = found.iter().map(|f| (f.rule, f.span.start_pos.line)).collect();
    // Only the two users are declared on the same condition.
    assert_eq!(lines, [("duplicate-resource", 27)], "{found:#?}");
}

#[test]
fn a_class_declared_under_conditions_that_cover_its_path_surely_runs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let class = "class a {\n  file { '/srv/m': }\n}\n";
    let cases = [
        (
            "separate.pp",
            "if $facts['x1'] { include a }\nif $facts['x2'] { include a }\n",
            "possible-duplicate-resource",
        ),
        ("both_branches.pp", "if $facts['x1'] { include a } else { include a }\n", "duplicate-resource"),
        ("once_for_sure.pp", "include a\nif $facts['x2'] { include a }\n", "duplicate-resource"),
        ("many.pp", "", "duplicate-resource"),
    ];
    // More declarations than the paths kept of a class, one of them sure.
    let many: String =
        (0..20).map(|i| format!("if $facts['r{i}'] {{ include a }}\n")).collect::<String>() + "include a\n";
    for (name, declarations, rule) in cases {
        let declarations = if name == "many.pp" { many.as_str() } else { declarations };
        let case = root.join(name.trim_end_matches(".pp"));
        write(&case, name, format!("{class}{declarations}file {{ '/srv/m': }}\n"));
        let found = findings(vec![case.join(name)], vec![]);
        let found: Vec<&str> = found.iter().map(|f| f.rule).collect();
        assert_eq!(found, [rule], "{name}");
    }
}

#[test]
fn an_example_leads_only_to_module_code_it_surely_runs() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("g");
    write(
        &module,
        "manifests/init.pp",
        "class g {\n  if $facts['os']['family'] == 'RedHat' {\n    notify { 'n': message => $g::nope }\n  }\n  \
         notify { 'm': message => $g::never }\n}\n",
    );
    write(&module, "examples/init.pp", "include g\n");
    let found = findings(vec![module], vec![]);
    // The RedHat branch may never run where the example is applied: its
    // read is the module's to fix; the other read fails the example.
    assert_eq!(
        rules(&found),
        [("undefined-variable", "init.pp".to_string(), 1), ("undefined-variable", "init.pp".to_string(), 3)],
        "{found:#?}"
    );
    assert!(found[0].path.ends_with("examples/init.pp"), "{found:#?}");
    assert!(found[0].message.starts_with("this example makes module code fail"), "{found:#?}");
    assert!(found[1].path.ends_with("manifests/init.pp"), "{found:#?}");
    assert!(!found[1].message.starts_with("this example"), "{found:#?}");
}

#[test]
fn a_module_file_no_name_leads_to_is_refused_only_by_validation() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(&module, "manifests/init.pp", "class m {\n  notify { 'real': }\n}\n");
    write(&module, "manifests/init-sample.pp", "class m {\n  notify { 'sample': }\n}\n");
    write(&module, "manifests/other.pp", "class m::misplaced {\n}\n");
    let found = findings(vec![module], vec![]);
    let levels: Vec<(&str, String, mplint::rules::Level)> =
        found.iter().map(|f| (f.rule, f.path.file_name().unwrap().to_string_lossy().into_owned(), f.level)).collect();
    assert_eq!(
        levels,
        [
            ("definition-location", "init-sample.pp".to_string(), mplint::rules::Level::Warning),
            ("definition-location", "other.pp".to_string(), mplint::rules::Level::Error)
        ],
        "{found:#?}"
    );
}

#[test]
fn each_machine_of_a_vagrantfile_applies_its_own_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let machine = |name: &str| {
        format!(
            "  config.vm.define :{name} do |m|\n    m.vm.provision :puppet do |puppet|\n      \
             puppet.manifests_path = 'deploy/manifests'\n      puppet.manifest_file = '{name}.pp'\n      \
             puppet.module_path = 'deploy/modules'\n    end\n  end\n"
        )
    };
    write(root, "Vagrantfile", format!("Vagrant.configure('2') do |config|\n{}{}end\n", machine("a"), machine("b")));
    write(root, "deploy/manifests/a.pp", "class { 'tools': }\npackage { 'y': }\n");
    write(root, "deploy/manifests/b.pp", "package { 'y': }\n");
    write(root, "deploy/modules/tools/manifests/init.pp", "class tools {\n  package { 'x': }\n}\n");
    // Declared by no machine's manifest: checked on its own, not with a.pp.
    write(root, "deploy/modules/fw/manifests/init.pp", "class fw {\n  package { 'x': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn import_at_the_top_of_an_applied_manifest_surely_fails() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "import 'nodes/*.pp'\nclass legacy {\n  import 'more.pp'\n}\n");
    write(root, "manifests/nodes/web.pp", "node default {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, u32, mplint::rules::Level)> =
        found.iter().map(|f| (f.rule, f.span.start_pos.line, f.level)).collect();
    assert_eq!(
        levels,
        [("unknown-function", 1, mplint::rules::Level::Error), ("unknown-function", 3, mplint::rules::Level::Warning)],
        "{found:#?}"
    );
}

#[test]
fn a_case_default_is_described_by_the_options_it_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let code = "class a {\n  package { 'hg': }\n}\nclass b {\n  case $facts['os']['name'] {\n    /^Ubuntu/: { }\n    \
                /^Cent/: { }\n    default: { package { 'hg': } }\n  }\n}\nnode default {\n  include a\n  include b\n}\n";
    write(root, "site.pp", code);
    let found = findings(vec![root.join("site.pp")], vec![]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].message.ends_with("if `$facts['os']['name']` matches none of /^Ubuntu/, /^Cent/"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_case_option_past_a_regex_is_not_described_by_the_literals_alone() {
    // On Ubuntu neither class declares the notify: "is not 'windows'"
    // alone would say the duplicate is there.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let case = |body_at: usize| {
        let mut bodies = ["{ }", "{ }", "{ }"];
        bodies[body_at] = "{ notify { 'x': } }";
        format!(
            "  case $facts['os']['name'] {{\n    'windows': {}\n    /^(Debian|Ubuntu)$/: {}\n    default: {}\n  }}\n",
            bodies[0], bodies[1], bodies[2]
        )
    };
    for (at, said) in [
        (2, "whenever `$facts['os']['name']` matches none of 'windows', /^(Debian|Ubuntu)$/"),
        (1, "whenever `$facts['os']['name']` matches /^(Debian|Ubuntu)$/ and `$facts['os']['name']` is not 'windows'"),
    ] {
        let code =
            format!("class a {{\n{}}}\nclass b {{\n{}}}\nnode default {{\n  include a, b\n}}\n", case(at), case(at));
        write(root, "site.pp", &code);
        let found = findings(vec![root.join("site.pp")], vec![]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].message.ends_with(said), "{}", found[0].message);
    }
}

#[test]
fn a_configuration_directory_with_its_site_pp_beside_its_modules_is_an_environment() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A Puppet 3 `/etc/puppet` kept as `pmdata/`: `site.pp` imports the
    // nodes, and the modules are on its module path.
    write(root, "pmdata/site.pp", "import 'nodes/*.pp'\n$site_var = 'x'\n");
    write(root, "pmdata/nodes/web.pp", "node 'web' {\n  include foo\n}\n");
    write(root, "pmdata/modules/foo/manifests/init.pp", "class foo {\n  notify { \"foo ${site_var}\": }\n}\n");
    write(root, "deploy/manifests/a.pp", "include bar\n");
    write(root, "deploy/modules/bar/manifests/init.pp", "class bar {\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-function", "site.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn a_name_the_site_reads_as_a_top_scope_fact_is_no_certain_error_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "if !$::project {\n  fail('every node must have a project fact')\n}\nnode default {\n  include m\n}\n",
    );
    write(root, "modules/m/manifests/init.pp", "class m {\n  notify { \"${project} ${nowhere}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, String, mplint::rules::Level)> =
        found.iter().map(|f| (f.rule, f.message.split('`').nth(1).unwrap_or("").to_string(), f.level)).collect();
    assert_eq!(
        levels,
        [
            ("undefined-variable", "$::project".to_string(), mplint::rules::Level::Note),
            ("undefined-variable", "$project".to_string(), mplint::rules::Level::Note),
            // The site's nodes get facts from outside: perhaps this one too.
            ("undefined-variable", "$nowhere".to_string(), mplint::rules::Level::Warning)
        ],
        "{found:#?}"
    );
}

#[test]
fn what_the_site_declares_beside_a_class_checked_on_its_own_is_the_sites() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "class { 'hiera': }\n");
    write(root, "modules/hiera/manifests/init.pp", "class hiera {\n  package { 'x': }\n}\n");
    write(root, "modules/fw/manifests/init.pp", "class fw {\n  package { 'x': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "init.pp".to_string(), 2)], "{found:#?}");
    let labels: Vec<&str> = found[0].related.iter().map(|r| r.message.as_str()).collect();
    assert!(labels.contains(&"first: `hiera` declared by the site manifest's top-level code"), "{labels:#?}");
}

#[test]
fn an_append_assignment_is_one_error_however_its_variable_was_bound() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class a {\n  $x = [1]\n  $x += [2]\n  $y -= [3]\n  notify { \"${x} ${y}\": }\n}\ninclude a\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let site = "site.pp".to_string();
    assert_eq!(rules(&found), [("illegal-assignment", site.clone(), 3), ("illegal-assignment", site, 4)], "{found:#?}");
}

#[test]
fn an_operating_system_name_implies_its_family_in_any_form() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let class = "class c {\n\
         if $facts['os']['family'] == 'Darwin' { package { 'slack': provider => 'brewcask' } }\n\
         if $facts['os']['name'] == 'Ubuntu' { package { 'slack': provider => 'snap' } }\n\
         if $::osfamily == 'Debian' { file { '/a': } }\n\
         if $facts['os']['family'] == 'RedHat' { file { '/a': } }\n\
         case $::operatingsystem {\n    'CentOS': { user { 'u': } }\n    default: {}\n  }\n\
         if $facts['osfamily'] != 'RedHat' { user { 'u': } }\n\
         if $os['name'] == 'Ubuntu' { group { 'g': } }\n\
         if $facts['os']['family'] == 'Debian' { group { 'g': } }\n\
         if $::operatingsystem == 'Plan9' { cron { 'h': } }\n\
         if $::osfamily == 'Suse' { cron { 'h': } }\n\
         }\n";
    write(root, "manifests/site.pp", format!("{class}node default {{ include c }}\n"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    let duplicates: Vec<_> =
        rules(&found).into_iter().filter(|(rule, ..)| rule.ends_with("duplicate-resource")).collect();
    // Ubuntu is of the Debian family; of Plan9 nothing is known.
    let site = "site.pp".to_string();
    assert_eq!(
        duplicates,
        [("possible-duplicate-resource", site.clone(), 12), ("possible-duplicate-resource", site, 14)],
        "{found:#?}"
    );
}

#[test]
fn an_assignment_whose_value_reads_its_variable_leaves_the_read_uncertain() {
    // `pick($addr, …)` keeps a value top scope gives (a fact, a node
    // classifier's parameter): Puppet fails only where none is given.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class p {\n  $addr = pick($addr, 'x')\n  notify { $addr: }\n}\n\
         class q {\n  $port = $port ? { undef => 80, default => $port }\n  notify { \"${port}\": }\n}\n\
         class r {\n  notify { \"${late}\": }\n  $late = 1\n}\n\
         node default { include p, q, r }\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, u32, mplint::rules::Level)> =
        found.iter().map(|f| (f.rule, f.span.start_pos.line, f.level)).collect();
    use mplint::rules::Level::{Error, Warning};
    assert_eq!(
        levels,
        [("use-before-assign", 2, Warning), ("use-before-assign", 6, Warning), ("use-before-assign", 10, Error)],
        "{found:#?}"
    );
}

#[test]
fn a_virtual_instance_runs_only_where_something_may_collect_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let code = "define plug($plugin = $name) {\n  file { \"/etc/${plugin}.load\": }\n}\n\
                plug { 'net-master': plugin => 'network' }\n@plug { 'net-virtual': plugin => 'network' }\n";
    write(root, "alone/site.pp", code);
    write(root, "collected/site.pp", format!("{code}if $facts['collect'] {{ Plug <| |> }}\n"));
    let alone = findings(vec![root.join("alone/site.pp")], vec![]);
    assert!(alone.is_empty(), "{alone:#?}");
    let collected = findings(vec![root.join("collected/site.pp")], vec![]);
    assert_eq!(rules(&collected), [("possible-duplicate-resource", "site.pp".to_string(), 2)], "{collected:#?}");
    assert!(collected[0].message.contains("if Plug['net-virtual'] is collected or realized"), "{collected:#?}");
}

#[test]
fn a_variable_bound_on_both_sides_of_a_choice_tests_that_choice() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class m {\n  case $facts['os']['family'] {\n    'FreeBSD': {\n      $id = false\n      notify { 'n': }\n    }\n\
         default: { $id = 'x' }\n  }\n  if $id {\n    notify { 'n': }\n  }\n\
         if $facts['flag'] { $keep = true } else { $keep = false }\n  unless $keep { user { 'u': } }\n\
         if $facts['flag'] { user { 'u': } }\n  if $keep { file { '/f': } }\n  file { '/f': }\n}\n\
         node default { include m }\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    // Only the file clashes: whenever `$keep` is true.
    assert_eq!(rules(&found), [("possible-duplicate-resource", "site.pp".to_string(), 16)], "{found:#?}");
}

#[test]
fn a_type_without_a_title_in_a_relationship_fails() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class a {}\nclass b {}\ninclude a\ninclude b\nClass['a'] -> Class['b']\nPackage['p'] -> [File, Class['a']]\nClass['a'] -> Class ['b']\npackage { 'p': }\nClass['a'] -> Class ['b']\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let site = "site.pp".to_string();
    assert_eq!(
        rules(&found),
        [
            ("missing-relationship-target", site.clone(), 6),
            ("missing-relationship-target", site.clone(), 7),
            ("missing-relationship-target", site, 9)
        ],
        "{found:#?}"
    );
    assert!(found[0].message.starts_with("`File` in a relationship is a type"), "{found:#?}");
    // The space is the mistake: the list after it is not reported again.
    // Puppet 7.23 refuses a list followed by more code when it parses the
    // file ("This Array Expression has no effect"); the file's last one
    // is evaluated: "No title provided".
    assert!(found[1].message.starts_with("`Class [` with a space before `[`"), "{found:#?}");
    assert!(found[1].message.contains("\"This Array Expression has no effect\""), "{found:#?}");
    assert!(found[2].message.contains("\"No title provided\""), "{found:#?}");
}

#[test]
fn a_definition_puppet_refuses_at_load_is_not_also_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/cpan/manifests/init.pp",
        "class cpan {\n  case $facts['kernel'] {\n    'Linux': { include cpan::linux }\n    'Darwin': { include cpan::mac }\n    default: {}\n  }\n}\n",
    );
    for os in ["linux", "mac"] {
        write(
            root,
            &format!("modules/cpan/manifests/{os}.pp"),
            format!("class cpan::{os} {{\n  cpan::pkg {{ 'YAML': }}\n}}\ndefine cpan::pkg() {{\n  notify {{ \"{os} ${{name}}\": }}\n}}\n"),
        );
    }
    let found = findings(vec![root.to_path_buf()], vec![]);
    let rules: Vec<&str> = found.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["definition-location", "definition-location"], "{found:#?}");
}

#[test]
fn a_module_script_no_code_names_is_refused_only_if_something_outside_loads_it() {
    // `puppet apply modules/m/manifests/site.pp` runs it; only a name
    // from outside the tree would make Puppet's autoloader read it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/m/manifests/init.pp", "class m {}\n");
    write(root, "modules/m/manifests/site.pp", "class { 'm': }\nnotify { 'x': }\n");
    write(root, "modules/m/manifests/used.pp", "include m\n");
    write(root, "site.pp", "include m::used\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, String, mplint::rules::Level)> = found
        .iter()
        .filter(|f| f.rule == "definition-location")
        .map(|f| (f.rule, f.path.file_name().unwrap().to_string_lossy().into_owned(), f.level))
        .collect();
    use mplint::rules::Level::{Error, Warning};
    let (site, used) = ("site.pp".to_string(), "used.pp".to_string());
    assert_eq!(
        levels,
        [
            ("definition-location", site.clone(), Warning),
            ("definition-location", site, Warning),
            ("definition-location", used, Error)
        ],
        "{found:#?}"
    );
}

#[test]
fn a_main_manifest_directory_with_init_pp_beside_modules_is_a_site() {
    // `puppet apply --modulepath puppet/modules puppet/manifests` reads
    // every file of the directory into one catalog.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/manifests/init.pp", "include m\n");
    write(root, "puppet/manifests/files.pp", "file { '/data': ensure => directory }\n");
    write(
        root,
        "puppet/manifests/userdb.pp",
        "file { '/data/x': ensure => link, target => '/y', require => File['/data'] }\nfile { '/data': }\n",
    );
    write(root, "puppet/modules/m/manifests/init.pp", "class m {}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "userdb.pp".to_string(), 2)], "{found:#?}");
}

#[test]
fn a_comparison_and_its_complement_are_one_test() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class a3 {\n  if $facts['rel'] >= 11 { package { 'p': } }\n  if $facts['rel'] < 11 { package { 'p': } }\n\
         if $facts['n'] !~ /x/ { file { '/f': } }\n  if $facts['n'] =~ /x/ { file { '/f': } }\n\
         if $facts['rel'] < 11 { user { 'v': } }\n  if $facts['q'] { user { 'v': } }\n}\ninclude a3\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "site.pp".to_string(), 7)], "{found:#?}");
    // Named by the test written first, from its side.
    assert!(found[0].message.contains("if `$facts['rel'] >= 11` is false and `$facts['q']` is true"), "{found:#?}");
}

#[test]
fn a_class_declared_resource_like_on_exclusive_branches_is_declared_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let installers = "class da {\n  case $facts['os']['family'] {\n    'Debian': { include da::ubuntu }\n\
                      'RedHat': { include da::redhat }\n    'Suse': { include da::suse }\n  }\n}\n\
                      class da::ubuntu { class { 'da::t': } }\nclass da::redhat { class { 'da::t': } }\n\
                      class da::suse { class { 'da::t': } }\nclass da::t { }\n";
    write(root, "manifests/site.pp", format!("{installers}node default {{ include da }}\n"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // A declaration on every path still meets each branch's.
    write(
        root,
        "manifests/site.pp",
        format!("{installers}node default {{\n  include da\n  class {{ 'da::t': }}\n}}\n"),
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "site.pp".to_string(), 14)], "{found:#?}");
    assert!(found[0].message.contains("is 'Debian'"), "{found:#?}");
}

#[test]
fn hiera_data_in_a_hiera_directory_may_replace_parameter_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, "manifests/site.pp", "node /^uc/ {\n  include m::a\n  include m::b\n}\n");
    write(root, "modules/m/manifests/a.pp", "class m::a ($iface = 'eth0') { file { \"/tmp/${iface}\": } }\n");
    write(root, "modules/m/manifests/b.pp", "class m::b ($iface = 'eth0') { file { \"/tmp/${iface}\": } }\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "b.pp".to_string(), 1)], "{found:#?}");
    // A Hiera 3 configuration with its data beside it, installed elsewhere.
    write(
        root,
        "hiera/hiera.yaml",
        "---\n:backends:\n  - yaml\n:yaml:\n  :datadir: /etc/puppet/hiera/data\n:hierarchy:\n  - common\n",
    );
    write(root, "hiera/data/common.yaml", "m::b::iface: eth1\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn bolt_data_types_are_types_in_case_options() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "foo/metadata.json", "{\"name\": \"x-foo\", \"version\": \"1.0.0\"}\n");
    write(
        root,
        "foo/plans/p.pp",
        "plan foo::p(TargetSpec $targets) {\n  $r = run_command('true', $targets).first\n  case $r {\n\
             ApplyResult: { out::message('apply') }\n    Result: { out::message('command') }\n\
             Linux: { out::message('typo') }\n    default: {}\n  }\n}\n",
    );
    let found = findings(vec![root.join("foo")], vec![]);
    // Only the word that names no type at all.
    assert_eq!(rules(&found), [("unknown-type-reference", "p.pp".to_string(), 6)], "{found:#?}");
}

#[test]
fn an_environment_that_is_the_module_its_puppetfile_installs_is_that_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = .modules\nmanifest = site.pp\n");
    write(root, "site.pp", "node default { include nest }\n");
    write(root, "metadata.json", "{\"name\": \"me-nest\", \"version\": \"0.1.0\", \"dependencies\": []}\n");
    write(root, "manifests/init.pp", "class nest {\n  nest::lib::pkg { 'a': }\n  include nest::missing\n}\n");
    write(root, "manifests/lib/pkg.pp", "define nest::lib::pkg() { notify { $title: } }\n");
    write(root, "data/common.yaml", "apache::servername: \"%{facts.fqdn}\"\n");
    // Installed from this very repository: the class that exists is found,
    // the one that does not is unknown, and `data/` is read once.
    write(root, "Puppetfile", "mod 'nest', :git => 'https://example.com/nest.git', :branch => :control_branch\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("legacy-fact", "common.yaml".to_string(), 1), ("unknown-class", "init.pp".to_string(), 3)],
        "{found:#?}"
    );
}

#[test]
fn a_fact_file_that_adds_its_fact_through_a_helper_ships_the_fact_it_is_named_after() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/m/lib/facter/m_running.rb",
        "require File.expand_path(File.join(File.dirname(__FILE__), '../puppet_x/m/facts'))\nPuppetX::M::Facts.define_running_fact\n",
    );
    write(
        root,
        "modules/m/lib/puppet_x/m/facts.rb",
        "module PuppetX; module M; class Facts\n  def self.define_running_fact\n    Facter.add('m_running'.to_sym) { setcode { 'true' } }\n  end\nend; end; end\n",
    );
    write(
        root,
        "modules/m/manifests/init.pp",
        "class m {\n  if $::m_running == 'true' {\n    notify { \"${m_stopped}\": }\n  }\n}\n",
    );
    write(root, "manifests/site.pp", "node default {\n  include m\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("top-scope-fact", "init.pp".to_string(), 2), ("undefined-variable", "init.pp".to_string(), 3)],
        "{found:#?}"
    );
}

#[test]
fn an_environment_in_a_module_examples_reads_its_own_modules() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("emb");
    write(&module, "metadata.json", "{\"name\": \"me-emb\", \"version\": \"0.1.0\"}\n");
    write(&module, "manifests/init.pp", "class emb { }\n");
    write(&module, "examples/site/manifests/site.pp", "node default { include role::demo }\n");
    write(
        &module,
        "examples/site/modules/role/manifests/demo.pp",
        "class role::demo {\n  include profile::db\n  include emb\n  include profile::gone\n}\n",
    );
    write(&module, "examples/site/modules/profile/manifests/db.pp", "class profile::db { }\n");
    let found = findings(vec![module], vec![]);
    // Reported where the example leads to it.
    assert_eq!(rules(&found), [("unknown-class", "site.pp".to_string(), 1)], "{found:#?}");
}

#[test]
fn a_node_of_a_file_applied_on_its_own_is_classified_by_that_file() {
    // `manifests/` (the main manifest) only defines; `site.pp` beside it is
    // applied on its own and classifies its nodes itself: no external node
    // classifier gives the misspelt parameter.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "site.pp", "node /^uc/ {\n  include rs::uc\n}\n");
    write(root, "manifests/uc.pp", "class rs::uc ($gateway = 1) {\n  rs::net { 'ctlplane': }\n}\n");
    write(root, "manifests/net.pp", "define rs::net ($gateway_address = undef) {\n  notify { $gatewau_address: }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "net.pp".to_string(), 2)], "{found:#?}");
    assert_eq!(found[0].level, mplint::rules::Level::Error, "{found:#?}");
}

#[test]
fn a_fact_read_where_a_test_shows_the_node_has_it_is_bound() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let tests = [
        "'bundler_path' in $facts",
        "has_key($facts, 'bundler_path')",
        "$facts['bundler_path']",
        "$facts['bundler_path'] != undef",
        "defined('$::bundler_path')",
    ];
    for test in tests {
        write(
            root,
            "manifests/site.pp",
            format!(
                "class app {{\n  if {test} {{ $cmd = $::bundler_path }} else {{ $cmd = '/usr/bin/bundler' }}\n  notify {{ $cmd: }}\n  notify {{ \"${{::gem_path}}\": }}\n}}\nnode default {{ include app }}\n"
            ),
        );
        let found = findings(vec![root.to_path_buf()], vec![]);
        // Only the fact no test guards.
        assert_eq!(rules(&found), [("undefined-variable", "site.pp".to_string(), 4)], "{test}: {found:#?}");
    }
}

#[test]
fn a_short_host_name_never_equals_a_dotted_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for subject in ["$trusted['hostname']", "$facts['hostname']", "$facts['networking']['hostname']", "$::hostname"] {
        write(
            root,
            "manifests/site.pp",
            format!(
                "class web {{\n  file {{ '/etc/x.conf': }}\n}}\nclass other {{\n  if {subject} == 'tools1.example.com' {{\n    file {{ '/etc/x.conf': }}\n  }}\n  if {subject} == 'tools1' {{\n    file {{ '/etc/x.conf': }}\n  }}\n}}\nnode /^tools1/ {{\n  include web\n  include other\n}}\n"
            ),
        );
        let found = findings(vec![root.to_path_buf()], vec![]);
        // Only the short name may clash.
        let clashes: Vec<u32> =
            found.iter().filter(|f| f.rule == "possible-duplicate-resource").map(|f| f.span.start_pos.line).collect();
        assert_eq!(clashes, [9], "{subject}: {found:#?}");
    }
}

#[test]
fn a_missing_module_names_the_puppetfile_above_the_code_that_uses_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "bootstrap.sh", "#!/bin/sh\npuppet apply --modulepath=puppet/modules -e 'include app'\n");
    write(root, "puppet/modules/app/manifests/init.pp", "class app { include ntp }\n");
    write(root, "puppet/Puppetfile", "mod 'ntp',\n  :git => 'https://github.com/puppetlabs/puppetlabs-ntp'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 1)], "{found:#?}");
    assert!(found[0].message.contains("puppet/Puppetfile installs it"), "{}", found[0].message);
}

#[test]
fn operating_system_names_tested_as_a_set_imply_their_families() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let tests = [
        ("$::operatingsystem == 'Debian' or $::operatingsystem == 'Ubuntu'", "$::osfamily == 'RedHat'", 0),
        ("$facts['os']['name'] in ['Debian', 'Ubuntu']", "$facts['os']['family'] == 'RedHat'", 0),
        ("$facts['os']['name'] in ['Debian', 'Ubuntu']", "$facts['os']['family'] != 'Debian'", 0),
        // Names of two families: either may be the one tested.
        ("$facts['os']['name'] in ['Debian', 'CentOS']", "$facts['os']['family'] == 'RedHat'", 1),
        // Another fact: unrelated.
        ("$::operatingsystem == 'Debian' or $::kernel == 'Linux'", "$::osfamily == 'RedHat'", 1),
    ];
    for (first, second, clashes) in tests {
        write(
            root,
            "manifests/site.pp",
            format!(
                "class a {{\n  if {first} {{ exec {{ 'stop': command => '/bin/true' }} }}\n  if {second} {{ exec {{ 'stop': command => '/bin/true' }} }}\n}}\ninclude a\n"
            ),
        );
        let found = findings(vec![root.to_path_buf()], vec![]);
        let found: Vec<_> = found.iter().filter(|f| f.rule == "possible-duplicate-resource").collect();
        assert_eq!(found.len(), clashes, "{first} / {second}: {found:#?}");
    }
}

#[test]
fn a_branch_a_parameter_type_rules_out_is_not_checked() {
    // Oracle case 573: a `String` or `Integer` parameter is never falsy,
    // whatever declares the defined type; an `Optional` one may be `undef`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/m/manifests/init.pp", "class m (String $cert = '/etc/pki/cert.pem') {}\n");
    write(
        root,
        "modules/m/manifests/conn.pp",
        "define m::conn (String $cacert, Integer $port) {\n  include m\n  \
         if $cacert { $c = $cacert } else { $c = $m::cacert }\n  \
         unless $port { notify { \"${m::port}\": } }\n  notify { \"${title} ${c}\": }\n}\n",
    );
    write(
        root,
        "modules/m/manifests/maybe.pp",
        "define m::maybe (Optional[String] $cacert = undef) {\n  include m\n  \
         if $cacert { $c = $cacert } else { $c = $m::cacert }\n  notify { \"${title} ${c}\": }\n}\n",
    );
    let found = findings(vec![root.join("modules/m")], vec![]);
    let reported: Vec<(&str, String, u32)> = found
        .iter()
        .map(|f| (f.rule, f.path.strip_prefix(root).unwrap().display().to_string(), f.span.start_pos.line))
        .collect();
    assert_eq!(reported, [("undefined-variable", "modules/m/manifests/maybe.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn code_in_a_hidden_directory_is_not_the_trees_own() {
    // Puppet loads no module named `.old`; Bolt installs modules into
    // `.modules`, which is on its project's module path: read, not reported.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "modules/bar/manifests/init.pp", "class bar {}\n");
    write(root, "modules/.old/oldprof/manifests/init.pp", "class oldprof {\n  class { 'bar': x => 1 }\n}\n");
    write(root, "manifests/site.pp", "node default {\n  include bar\n}\n");
    assert!(findings(vec![root.to_path_buf()], vec![]).is_empty());

    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    write(root, "bolt-project.yaml", "name: site\n");
    write(root, ".modules/vendored/manifests/init.pp", "class vendored {\n  class { 'site': x => 1 }\n}\n");
    write(root, "manifests/init.pp", "class site {\n  include vendored\n  include nosuch\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "init.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_fact_name_an_executable_builds_at_run_time_may_be_any_name_so_begun() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/foo/facts.d/cam.py",
        "#!/usr/bin/env python3\nfor key, val in {'ocam': 'yes'}.items():\n    print(\"cam_%s=%s\" % (key, val))\n",
    );
    write(
        root,
        "modules/foo/manifests/init.pp",
        "class foo {\n  if $cam_ocam == 'yes' { notify { 'ocam': } }\n  notify { \"${other}\": }\n}\n",
    );
    write(root, "manifests/site.pp", "include foo\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("undefined-variable", "init.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn the_facts_of_a_module_kept_inside_manifests_are_facts() {
    // Applied as `puppet apply manifests/site.pp --modulepath manifests/mods`:
    // the module's classes are part of the main manifest, its facts synced.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "include foo\n");
    write(root, "manifests/mods/foo/lib/facter/myfact.rb", "Facter.add(:myfact) do\n  setcode { 'x' }\nend\n");
    write(root, "manifests/mods/foo/manifests/init.pp", "class foo {\n  notify { \"a ${myfact} ${other}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<(&str, String)> = found.iter().map(|f| (f.rule, f.message.clone())).collect();
    assert!(
        reported.iter().all(|(rule, message)| *rule == "top-scope-fact" || !message.contains("myfact")),
        "{found:#?}"
    );
    assert!(
        reported.iter().any(|(rule, message)| *rule == "undefined-variable" && message.contains("other")),
        "{found:#?}"
    );
}

#[test]
fn a_variable_bound_to_a_class_variable_is_that_value() {
    // Both classes copy `$m::role`: it cannot be 'client' in one and
    // 'master' in the other. Copies of two different variables can.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "m/manifests/init.pp",
        "class m (String $role = 'client', String $other = 'master') {\n  include m::a\n  include m::b\n  include m::c\n}\n",
    );
    write(root, "m/manifests/a.pp", "class m::a {\n  $role = $m::role\n  if $role == 'client' {\n    file { '/etc/x.conf': ensure => file }\n    file { '/etc/y.conf': ensure => file }\n  }\n}\n");
    write(root, "m/manifests/b.pp", "class m::b {\n  $role = $::m::role\n  if $role == 'master' {\n    file { '/etc/x.conf': ensure => file }\n  }\n}\n");
    write(root, "m/manifests/c.pp", "class m::c {\n  $role = $m::other\n  if $role == 'master' {\n    file { '/etc/y.conf': ensure => file }\n  }\n}\n");
    let found = findings(vec![root.join("m")], vec![]);
    let duplicates: Vec<&str> =
        found.iter().filter(|f| f.rule == "possible-duplicate-resource").map(|f| f.message.as_str()).collect();
    assert_eq!(duplicates.len(), 1, "{found:#?}");
    assert!(duplicates[0].starts_with("File['/etc/y.conf']"), "{found:#?}");
}

#[test]
fn the_modules_a_bolt_project_lists_are_named_as_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "bolt-project.yaml",
        "name: boss\nmodules:\n  - puppet/python\n  - name: puppet/systemd\n    ref: main\n",
    );
    write(root, "manifests/init.pp", "class boss {\n  include python\n  include epel\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let messages: Vec<&str> = found.iter().filter(|f| f.rule == "missing-module").map(|f| f.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{found:#?}");
    assert!(
        messages.iter().any(|m| m.contains("`python`") && m.contains("bolt-project.yaml installs it")),
        "{messages:#?}"
    );
    assert!(messages.iter().any(|m| m.contains("`epel`") && m.contains("no Puppetfile")), "{messages:#?}");
}

#[test]
fn hiera_data_beside_a_directory_of_modules_is_an_environment() {
    // `env/` is an environment whose main manifest a module deploys; an
    // old copy of one of its modules elsewhere in the repository is not
    // on its module path.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "env/modules/a/manifests/init.pp", "class a {\n  include b\n}\n");
    write(root, "env/modules/b/manifests/init.pp", "class b {}\n");
    write(root, "env/hieradata/common.yaml", "---\n");
    write(root, "old/dep/modules/b/manifests/init.pp", "class b {}\n");
    write(root, "old/dep/modules/c/manifests/init.pp", "class c {\n  include b\n}\n");
    assert!(findings(vec![root.to_path_buf()], vec![]).is_empty());
}

#[test]
fn a_read_under_its_own_truth_test_is_bound() {
    // Puppet 7.23 with `$pw` at top scope compiles; without it, it fails at
    // the test (strict_variables), never inside the branch.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class foo {\n  if $pw {\n    notify { 'a': message => $pw }\n  } else {\n    $pw = 'generated'\n  }\n  unless $other {\n    notify { 'b': message => $other }\n  }\n}\nnode default { include foo }\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let lines: Vec<(&str, u32)> = found.iter().map(|f| (f.rule, f.span.start_pos.line)).collect();
    assert_eq!(lines, [("use-before-assign", 2), ("undefined-variable", 7), ("undefined-variable", 8)], "{found:#?}");
}

#[test]
fn a_puppet_conf_above_an_environment_of_the_tree_sets_its_classifier() {
    // `puppet/puppet.conf` configures the environments below it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet.conf", "[main]\nnode_terminus = exec\nexternal_nodes = /usr/local/bin/enc\n");
    write(root, "development/manifests/site.pp", "notify { 'top': }\nnode default {\n  include foo\n}\n");
    write(root, "development/modules/foo/manifests/init.pp", "class foo {\n  notify { \"${bar}\": }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        found.iter().map(|f| (f.rule, f.level)).collect::<Vec<_>>(),
        [("undefined-variable", mplint::rules::Level::Warning)],
        "{found:#?}"
    );
}

#[test]
fn a_module_build_in_pkg_is_not_the_modules_code() {
    // `puppet module build` leaves a copy of an older state in `pkg/`:
    // the module's own `manifests/` is what Puppet loads.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "metadata.json", "{\"name\": \"me-m\", \"version\": \"0.2.0\", \"dependencies\": []}\n");
    write(root, "manifests/init.pp", "class m (String $v = 'a') {\n  notify { $v: }\n}\n");
    write(root, "pkg/me-m-0.1.0/metadata.json", "{\"name\": \"me-m\", \"version\": \"0.1.0\", \"dependencies\": []}\n");
    write(root, "pkg/me-m-0.1.0/manifests/init.pp", "class m {\n  notify { $v: }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_site_beside_its_modules_deep_in_a_tree_is_an_environment() {
    // A book's examples: `chapter10/example2/production`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "chapter10/example2/production/manifests/site.pp", "node default {\n  include m\n}\n");
    write(root, "chapter10/example2/production/modules/m/manifests/init.pp", "class m {}\n");
    write(root, "chapter11/other/manifests/site.pp", "node default {\n  include m\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    // The other chapter's site has no `m` of its own.
    assert_eq!(rules(&found), [("missing-module", "site.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].path.ends_with("chapter11/other/manifests/site.pp"), "{found:#?}");
}

#[test]
fn a_hiera_configuration_two_checked_trees_read_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Makefile", "all:\n");
    write(
        root,
        "puppet/hiera.yaml",
        "---\n:backends:\n  - yaml\n:yaml:\n  :datadir: \"%{::puppet_root}/hieradata\"\n:hierarchy:\n  - \"host/%{fqdn}\"\n  - common\n",
    );
    write(root, "puppet/hieradata/common.yaml", "---\n");
    write(root, "puppet/modules/foo/manifests/init.pp", "class foo {}\n");
    write(root, "puppet/manifests/site.pp", "hiera_include('classes')\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("legacy-fact", "hiera.yaml".to_string(), 7)], "{found:#?}");
}

#[test]
fn a_value_given_to_a_class_is_known_in_a_class_checked_on_its_own() {
    // Checked on its own, `m::a` may be declared in any way, but what it
    // gives `m::b` is what `m::b` gets: Puppet compiles this.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "modules/m/manifests/a.pp",
        "class m::a {\n  file { '/tmp/x': content => 'a' }\n  class { 'm::b': flag => true }\n}\n",
    );
    write(
        root,
        "modules/m/manifests/b.pp",
        "class m::b($flag = false) {\n  if ! $flag {\n    file { '/tmp/x': ensure => absent }\n  }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // Given other values on a branch that excludes this one, the class ran
    // with the first branch's only: no certain duplicate.
    write(
        root,
        "modules/m/manifests/a.pp",
        "class m::a($x = true) {\n  file { '/tmp/x': content => 'a' }\n  if $x {\n    class { 'm::b': flag => false }\n  } else {\n    class { 'm::b': flag => true }\n  }\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "b.pp".to_string(), 3)], "{found:#?}");
    // A default stays open to Hiera data and other declarers.
    write(root, "modules/m/manifests/a.pp", "class m::a {\n  file { '/tmp/x': content => 'a' }\n  include m::b\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "b.pp".to_string(), 3)], "{found:#?}");
}

#[test]
fn a_possible_duplicate_names_each_condition_a_class_is_declared_under() {
    // `r::log` runs if either role is given; the clash also needs `graph`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "node default {\n  $roles = split($facts['roles'], ',')\n  if 'log' in $roles {\n    include r::log\n  }\n  if 'logv' in $roles {\n    include r::logv\n  }\n  if 'graph' in $roles {\n    include r::graph\n  }\n}\n",
    );
    write(root, "modules/r/manifests/log.pp", "class r::log {\n  file { '/etc/l': }\n}\n");
    write(root, "modules/r/manifests/logv.pp", "class r::logv {\n  include r::log\n}\n");
    write(root, "modules/r/manifests/graph.pp", "class r::graph {\n  file { '/etc/l': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "graph.pp".to_string(), 2)], "{found:#?}");
    let message = &found[0].message;
    assert!(message.contains("if `'graph' in $roles` in the node is true and class `r::log` is declared"), "{message}");
    assert!(message.contains("or if `'logv' in $roles`"), "{message}");
}

#[test]
fn a_modulepath_written_for_windows_is_split_on_semicolons() {
    // Puppet on Windows separates modulepath entries with `;`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "production/environment.conf", "modulepath = modules;c:/vagrant/puppet/modules\n");
    write(root, "production/manifests/default.pp", "node default {\n  include role::ads\n}\n");
    write(root, "production/modules/role/manifests/ads.pp", "class role::ads {\n}\n");
    let found = findings(vec![root.join("production")], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_missing_module_that_is_a_submodule_not_checked_out_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".gitmodules",
        "[submodule \"modules/nfs\"]\n\tpath = modules/nfs\n\turl = https://example.com/nfs.git\n",
    );
    std::fs::create_dir_all(root.join("modules/nfs")).unwrap();
    write(root, "modules/prof/manifests/client.pp", "class prof::client {\n  include nfs::client\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("missing-module", "client.pp".to_string(), 2)], "{found:#?}");
    assert!(found[0].message.contains("declares `modules/nfs` as a git submodule"), "{}", found[0].message);
}

#[test]
fn a_case_option_matching_a_known_value_runs_only_if_no_earlier_option_matched() {
    // `'httpd'` matches, but only where `$facts['svc']` did not first:
    // the two files are never declared together (Puppet compiles this).
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "manifests/site.pp",
        "class k($service_name = 'httpd') {\n  case $service_name {\n    $facts['svc']: {\n      file { '/k': ensure => file }\n    }\n    'httpd': {\n      file { '/k': ensure => absent }\n    }\n  }\n}\nnode default {\n  include k\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_regular_expression_a_value_surely_fails_excludes_its_equality() {
    // Puppet 7.23 with os.family 'Gentoo' declares one notify: the class
    // that declares the other is included only where the family does not
    // match /^(FreeBSD|Gentoo)/.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("mpm");
    write(
        &module,
        "manifests/itk.pp",
        "class mpm::itk {\n  if $facts['os']['family'] =~ /^(FreeBSD|Gentoo)/ {\n    notice('no prefork')\n  } else {\n    include mpm::prefork\n  }\n  case $facts['os']['family'] {\n    'Gentoo': { notify { 'mpms': message => 'itk' } }\n    default: { }\n  }\n}\n",
    );
    write(
        &module,
        "manifests/prefork.pp",
        "class mpm::prefork {\n  case $facts['os']['family'] {\n    'Suse': { notice('suse') }\n    'Gentoo': { notify { 'mpms': message => 'prefork' } }\n    default: { }\n  }\n}\n",
    );
    let found = findings(vec![module.clone()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // A pattern Gentoo does not match leaves the clash possible, and the
    // note names the test.
    let itk = std::fs::read_to_string(module.join("manifests/itk.pp")).unwrap();
    write(&module, "manifests/itk.pp", itk.replace("^(FreeBSD|Gentoo)", "^(FreeBSD)"));
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "itk.pp".to_string(), 8)], "{found:#?}");
    assert!(found[0].message.contains("=~ /^(FreeBSD)/` is false"), "{}", found[0].message);
}

#[test]
fn a_version_fact_compared_with_a_number_is_reported_and_never_matches() {
    // Puppet 7.23 with Facter 4 (os.release.major '12'): `== 12` is false,
    // the option `12` does not match, `in [12]` is false, and `< 7` fails
    // with "Comparison of: String < Integer, is not possible".
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("provider");
    write(
        &module,
        "manifests/init.pp",
        "class provider {\n  case $::operatingsystemmajrelease {\n    12, 7: { notify { 'provider': message => 'systemd' } }\n    default: { }\n  }\n  if $facts['os']['release']['full'] == 12.11 {\n    notify { 'full': }\n  }\n  notify { 'provider': message => 'other' }\n  notify { 'full': }\n  if $facts['os']['release']['major'] in [12, 13] { notify { 'in': } }\n  notify { 'in': }\n  if 7 > $::operatingsystemmajrelease { notify { 'old': } }\n}\n",
    );
    let mut found = findings(vec![module.clone()], vec![]);
    found.retain(|f| f.rule != "legacy-fact");
    // No possible duplicates: the numbers never match.
    let expected = [3, 6, 11, 13].map(|line| ("version-fact-compared-with-number", "init.pp".to_string(), line));
    assert_eq!(rules(&found), expected, "{found:#?}");
    let levels: Vec<Level> = found.iter().map(|f| f.level).collect();
    assert_eq!(levels, [Level::Warning, Level::Warning, Level::Warning, Level::Error]);
    assert!(found[0].message.contains("the options 12, 7 never match it; quote them ('12')"), "{}", found[0].message);
    assert!(
        found[1].message.contains("never equals the number 12.11: this test is always false"),
        "{}",
        found[1].message
    );
    assert!(found[2].message.contains(": 12, 13 in this array never match"), "{}", found[2].message);
    assert!(found[3].message.contains("\"Comparison of: Integer > String, is not possible\""), "{}", found[3].message);
    // A class parameter of the fact's name is no fact, nor a quoted number.
    write(
        &module,
        "manifests/init.pp",
        "class provider($operatingsystemmajrelease = 7) {\n  if $operatingsystemmajrelease < 8 { notify { 'old': } }\n  if $facts['os']['release']['major'] == '12' { notify { 'new': } }\n}\n",
    );
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn an_unknown_module_function_is_compared_without_its_module_prefix() {
    // Puppet 7.23: "Unknown function: 'longname::unwrap'". The module's
    // own functions share its prefix, which must not make them look alike.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("longname");
    write(&module, "functions/parse.pp", "function longname::parse(String $s) >> String {\n  $s\n}\n");
    write(&module, "functions/render.pp", "function longname::render(String $s) >> String {\n  $s\n}\n");
    write(
        &module,
        "manifests/init.pp",
        "class longname(Sensitive $password) {\n  $a = longname::unwrap($password)\n  $b = longname::rendr('x')\n  notify { \"${a}${b}\": }\n}\n",
    );
    let found = findings(vec![module], vec![]);
    assert_eq!(
        rules(&found),
        [("unknown-function", "init.pp".to_string(), 2), ("unknown-function", "init.pp".to_string(), 3)],
        "{found:#?}"
    );
    assert!(found[0].message.ends_with("; Puppet's own function is `unwrap()`"), "{}", found[0].message);
    assert!(found[1].message.ends_with("; did you mean 'longname::render'?"), "{}", found[1].message);
}

#[test]
fn a_hyphenated_bare_word_is_a_subtraction_of_type_references() {
    // Oracle case 586: "Resource type not found: RedHat".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "site.pp",
        "$x = \"${facts['os']['family']}-${facts['os']['name']}\" ? {\n  RedHat-Fedora => 'f',\n  default => 'o',\n}\nif $x == Debian-ubuntu-Mint { notify { 'eq': } }\nnotify { $x: }\n$y = 1 - 2\nif $x == File-Fedora { notify { 'file': } }\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    // `File` names a type: Puppet gets past it (and fails on the subtraction).
    assert_eq!(
        rules(&found),
        [("unknown-type-reference", "site.pp".to_string(), 2), ("unknown-type-reference", "site.pp".to_string(), 5)],
        "{found:#?}"
    );
    assert!(
        found[1].message.starts_with(
            "`Debian-ubuntu-Mint` is the subtraction `Debian - ubuntu - Mint`, and `Debian` names no type"
        ),
        "{}",
        found[1].message
    );
}

#[test]
fn a_class_declared_on_many_paths_still_excludes_what_its_shared_path_excludes() {
    // Puppet 7.23 compiles it for every host name: `web` declares the rule
    // only off the listed hosts, `web::dynamic` (the other) only on them.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let roles: String = (1..=20).map(|i| format!("  if $facts['role{i}'] {{ include web }}\n")).collect();
    write(root, "modules/role/manifests/init.pp", format!("class role {{\n{roles}}}\n"));
    write(
        root,
        "modules/web/manifests/init.pp",
        "class web {\n  if $facts['networking']['hostname'] in ['beach', 'picconi'] {\n    include web::dynamic\n  } else {\n    notify { 'http-rule': }\n  }\n}\n",
    );
    write(root, "modules/web/manifests/dynamic.pp", "class web::dynamic {\n  notify { 'http-rule': }\n}\n");
    write(root, "modules/cache/manifests/init.pp", "class cache {\n  include web::dynamic\n}\n");
    let site = "node default {\n  include role\n  if $facts['x'] { include web }\n  if $facts['networking']['hostname'] == 'picconi' {\n    include cache\n  }\n}\n";
    write(root, "manifests/site.pp", site);
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // Declared once where every other declaration runs too.
    write(root, "manifests/site.pp", site.replace("if $facts['x'] { include web }", "include web"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // Off the list, `cache` brings the second one in: a possible clash.
    write(root, "manifests/site.pp", site.replace("== 'picconi'", "== 'other'"));
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "init.pp".to_string(), 5)], "{found:#?}");
}

#[test]
fn a_case_option_of_several_literals_is_a_list_the_value_is_in() {
    // Puppet 7.23, for host names pejacevic, picconi, buxtehude, milanollo
    // and others: never two `Package[nfs-common]`.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let classes = "class autofs_common { package { 'nfs-common': ensure => installed } }\nclass nfs_server { package { 'nfs-common': ensure => installed } }\n";
    let cases = [
        "if $facts['networking']['hostname'] in ['buxtehude', 'milanollo'] {\n    include nfs_server\n  }",
        "case $facts['networking']['hostname'] {\n    'buxtehude', 'milanollo': { include nfs_server }\n  }",
        "if $facts['networking']['hostname'] == 'buxtehude' {\n    include nfs_server\n  }",
    ];
    for other in cases {
        let site = format!(
            "{classes}node default {{\n  case $facts['networking']['hostname'] {{\n    'pejacevic', 'picconi': {{ include autofs_common }}\n  }}\n  {other}\n}}\n"
        );
        write(root, "manifests/site.pp", site);
        let found = findings(vec![root.to_path_buf()], vec![]);
        assert_eq!(rules(&found), [], "{other}: {found:#?}");
    }
    // A later option's list is named in the note's words, and inequalities
    // to literals outside it are left out.
    let site = "class b { notify { 'n': } }\nclass c {\n  if $facts['foo'] { notify { 'n': } }\n}\nnode default {\n  case $facts['networking']['hostname'] {\n    'x': { }\n    'tye', 'ullmann': { include b }\n  }\n  include c\n}\n";
    write(root, "manifests/site.pp", site);
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "site.pp".to_string(), 3)], "{found:#?}");
    assert!(
        found[0]
            .message
            .ends_with("if `$facts['networking']['hostname']` matches 'tye', 'ullmann' and `$facts['foo']` is true"),
        "{}",
        found[0].message
    );
}

#[test]
fn a_lambda_called_once_with_known_arguments_binds_them() {
    // Puppet 7.23 compiles both: the one directory's provider is not
    // 'location', and `with` passes 'b'.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(
        &module,
        "manifests/init.pp",
        "class m {\n  [{ 'provider' => 'directory' }].each |Hash $d| {\n    if $d['provider'] == 'location' { notify { 'proxy': } }\n  }\n  notify { 'proxy': }\n  with('b') |$x| {\n    if $x == 'a' { notify { 'with': } }\n  }\n  notify { 'with': }\n}\n",
    );
    let found = findings(vec![module.clone()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    // Over two elements the parameter is either: the clash may happen.
    let init = std::fs::read_to_string(module.join("manifests/init.pp")).unwrap();
    write(
        &module,
        "manifests/init.pp",
        init.replace(
            "[{ 'provider' => 'directory' }]",
            "[{ 'provider' => 'directory' }, { 'provider' => 'location' }]",
        ),
    );
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "init.pp".to_string(), 5)], "{found:#?}");
}

#[test]
fn a_relative_name_is_reported_beside_a_module_path_entry_outside_the_tree() {
    // Puppet 7.23: "Could not find class ::archvsync_base"; `::ntp` is
    // written as a top-level name and Puppet 3 never took it as relative.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules:$basemodulepath\n");
    write(root, "manifests/site.pp", "node default {\n  include roles\n}\n");
    write(
        root,
        "modules/roles/manifests/init.pp",
        "class roles {\n  include archvsync_base\n  include ::ntp\n  foo { 'x': }\n}\n",
    );
    write(root, "modules/roles/manifests/archvsync_base.pp", "class roles::archvsync_base { }\n");
    write(root, "modules/roles/manifests/ntp.pp", "class roles::ntp { }\n");
    write(root, "modules/roles/manifests/foo.pp", "define roles::foo { }\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let reported: Vec<_> = rules(&found).into_iter().filter(|(rule, _, _)| *rule != "missing-module").collect();
    assert_eq!(
        reported,
        [("unknown-class", "init.pp".to_string(), 2), ("unknown-resource-type", "init.pp".to_string(), 4)],
        "{found:#?}"
    );
    assert!(found.iter().any(|f| f.message.ends_with("write `roles::archvsync_base`")), "{found:#?}");
    // A Puppetfile that installs the module is what the name means.
    write(root, "Puppetfile", "mod 'example/archvsync_base', '1.0.0'\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(!found.iter().any(|f| f.rule == "unknown-class"), "{found:#?}");
}

#[test]
fn a_puppetfile_beside_the_code_names_a_missing_module() {
    // A Vagrant box applies `vagrant/manifests/default.pp` with the modules
    // `puppet/Puppetfile` installs.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "puppet/Puppetfile", "mod 'saz/sudo', '8.0.0'\n");
    write(root, "puppet/environment.conf", "modulepath = modules:external_modules\n");
    write(root, "puppet/modules/profiles/manifests/base.pp", "class profiles::base {\n  sudo::conf { 'admins': }\n}\n");
    write(root, "vagrant/manifests/default.pp", "node default {\n  sudo::conf { 'vagrant': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    let notes: Vec<&str> = found.iter().filter(|f| f.rule == "missing-module").map(|f| f.message.as_str()).collect();
    assert_eq!(notes.len(), 2, "{found:#?}");
    assert!(notes.iter().all(|m| m.contains("puppet/Puppetfile installs it")), "{notes:#?}");
}

#[test]
fn a_version_fact_tested_as_a_number_type_is_never_one() {
    // Puppet 7.23 compiles it: `=~ Integer` is false for the string, and
    // `and` never evaluates the comparison.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("p");
    write(
        &module,
        "manifests/init.pp",
        "class p {\n  if $facts['os']['release']['major'] =~ Integer and $facts['os']['release']['major'] >= 7 {\n    notify { 'new': }\n  }\n  notify { 'new': }\n}\n",
    );
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
}

#[test]
fn a_class_whose_file_gitignore_keeps_out_is_a_note() {
    // Puppet 7.23 fails with "Could not find class ::roles::pubsub::params"
    // without the file, and compiles with it, as on the server.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "# secrets kept only on the puppet server\nmodules/roles/manifests/pubsub/params.pp\n");
    write(root, "manifests/site.pp", "node default {\n  include roles::pubsub\n}\n");
    write(
        root,
        "modules/roles/manifests/pubsub.pp",
        "class roles::pubsub {\n  include roles::pubsub::params\n  include roles::pubsub::other\n}\n",
    );
    let found = findings(vec![root.to_path_buf()], vec![]);
    let levels: Vec<(&str, u32, Level)> = found.iter().map(|f| (f.rule, f.span.start_pos.line, f.level)).collect();
    assert_eq!(levels, [("unknown-class", 2, Level::Note), ("unknown-class", 3, Level::Warning)], "{found:#?}");
    assert!(
        found[0].message.contains(".gitignore names its file roles/manifests/pubsub/params.pp"),
        "{}",
        found[0].message
    );
}

#[test]
fn stdlib_pick_of_known_values_is_the_first_given() {
    // Puppet 7.23 with stdlib compiles the example when `from_source` is
    // given (`pick(undef, false)` is false), and fails with "Duplicate
    // declaration: M::Svc[default]" when it is not (`pick(undef, true)`).
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("m");
    write(
        &module,
        "manifests/inst.pp",
        "define m::inst (\n  Optional[Boolean] $from_source = undef,\n  Optional[Boolean] $manage_service = undef,\n) {\n  if $from_source != undef {\n    $managed = pick($manage_service, '', false)\n  } else {\n    $managed = $manage_service.pick_default(true)\n  }\n  if $managed {\n    m::svc { $name: }\n  }\n}\n",
    );
    write(&module, "manifests/svc.pp", "define m::svc () {\n  notify { \"svc ${name}\": }\n}\n");
    write(&module, "examples/dup.pp", "m::inst { 'default':\n  from_source => false,\n}\n-> m::svc { 'default': }\n");
    let found = findings(vec![module.clone()], vec![]);
    assert_eq!(rules(&found), [], "{found:#?}");
    write(&module, "examples/dup.pp", "m::inst { 'default': }\n-> m::svc { 'default': }\n");
    let found = findings(vec![module.clone()], vec![]);
    assert_eq!(rules(&found), [("duplicate-resource", "inst.pp".to_string(), 11)], "{found:#?}");
    // A splatted argument may be empty: the value is not known.
    let inst = std::fs::read_to_string(module.join("manifests/inst.pp")).unwrap();
    write(
        &module,
        "manifests/inst.pp",
        inst.replace("$manage_service.pick_default(true)", "pick(*$manage_service, true)"),
    );
    let found = findings(vec![module], vec![]);
    assert_eq!(rules(&found), [("possible-duplicate-resource", "inst.pp".to_string(), 11)], "{found:#?}");
}

#[test]
fn a_class_whose_name_puppet_refuses_is_read_and_refused_where_declared() {
    // Puppet 7.23 autoloads the file for `apache::cve-2011-3192` and fails:
    // "Unacceptable name. The name 'apache::cve-2011-3192' is unacceptable
    // as the name of a Host Class Definition".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include apache::cve-2011-3192\n}\n");
    write(root, "modules/apache/manifests/init.pp", "class apache { }\n");
    write(root, "modules/apache/manifests/cve-2011-3192.pp", "class apache::cve-2011-3192 {\n  notify { 'cve': }\n}\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(
        rules(&found),
        [("unknown-class", "site.pp".to_string(), 2), ("illegal-name", "cve-2011-3192.pp".to_string(), 1)],
        "{found:#?}"
    );
    assert!(
        found[0].message.starts_with(
            "Puppet's autoloader reads modules/apache/manifests/cve-2011-3192.pp for `apache::cve-2011-3192` and refuses it"
        ),
        "{}",
        found[0].message
    );
}

#[test]
fn puppet_3_extlookup_is_an_unknown_function() {
    // Puppet 7.23: "Unknown function: 'extlookup'".
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  $pw = extlookup('db_password', 'x')\n  notify { $pw: }\n}\n");
    // It looked data up: no class is hidden from the node.
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("unknown-function", "site.pp".to_string(), 2)], "{found:#?}");
    // A function of the tree by that name is the one called.
    write(
        root,
        "modules/compat/lib/puppet/parser/functions/extlookup.rb",
        "module Puppet::Parser::Functions\n  newfunction(:extlookup, :type => :rvalue) { |args| args[1] }\nend\n",
    );
    write(root, "modules/compat/manifests/init.pp", "class compat { }\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(!rules(&found).iter().any(|(rule, _, _)| *rule == "unknown-function"), "{found:#?}");
}

#[test]
fn a_yaml_document_named_as_a_manifest_is_said_to_be_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default { }\n");
    write(root, "hieradata/development.pp", "---\nclasses:\n  - base\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert_eq!(rules(&found), [("syntax-error", "development.pp".to_string(), 2)], "{found:#?}");
    assert!(
        found[0].message.ends_with("(the file is YAML, which starts with `---`: Hiera data belongs in a .yaml file)"),
        "{}",
        found[0].message
    );
    // Puppet code that does not parse is not taken for YAML.
    write(root, "hieradata/development.pp", "class a {\n");
    let found = findings(vec![root.to_path_buf()], vec![]);
    assert!(!found[0].message.contains("YAML"), "{}", found[0].message);
}
