//! Named files checked with the tree they belong to: the findings of a run
//! naming files are those of the full run located in, or related to, them.

use std::path::Path;
use std::process::Command;

use crate::support::{json, mplint, write};

/// A control repository in a git work tree: nodes in `manifests/site.pp`,
/// roles and profiles, a profile reading node scope, a duplicate resource
/// across two classes, a class that does not exist, suppressions useful and
/// useless.
fn control_repository(root: &Path) {
    std::fs::create_dir_all(root).unwrap();
    let git = Command::new("git").args(["init", "-q", "."]).current_dir(root).status().expect("git runs");
    assert!(git.success());
    write(root, "environment.conf", "modulepath = site-modules:modules:$basemodulepath\n");
    write(
        root,
        "manifests/site.pp",
        "node 'web01.example.com' {\n  $role_port = 8080\n  include role::web\n}\n\
         node 'db01.example.com' {\n  include role::db\n  include role::nosuch\n}\n\
         node default {\n  notify { 'unclassified': } # mplint:ignore:undefined-variable\n}\n",
    );
    write(
        root,
        "site-modules/role/manifests/web.pp",
        "class role::web {\n  include profile::nginx\n  include profile::base\n}\n",
    );
    write(
        root,
        "site-modules/role/manifests/db.pp",
        "class role::db {\n  include profile::base\n  include profile::postgres\n}\n",
    );
    write(
        root,
        "site-modules/profile/manifests/nginx.pp",
        "class profile::nginx {\n  file { '/etc/nginx/port':\n    content => \"${role_port}\",\n  }\n  package { 'curl': }\n}\n",
    );
    write(root, "site-modules/profile/manifests/base.pp", "class profile::base {\n  package { 'curl': }\n}\n");
    write(
        root,
        "site-modules/profile/manifests/postgres.pp",
        "class profile::postgres {\n  package { 'openssl': }\n  notify { \"${later}\": }\n  $later = 1\n}\n",
    );
    write(root, "modules/ntp/manifests/init.pp", "class ntp {\n  notify { \"${ntp_servers}\": }\n}\n");
}

/// Each finding of a JSON report as one comparable value, with the paths of
/// its places.
fn findings(report: &serde_json::Value) -> Vec<serde_json::Value> {
    report["findings"].as_array().unwrap().clone()
}

fn places(finding: &serde_json::Value) -> Vec<String> {
    let mut paths = vec![finding["path"].as_str().unwrap().to_string()];
    for key in ["related", "flow"] {
        for place in finding[key].as_array().unwrap() {
            paths.push(place["path"].as_str().unwrap().to_string());
        }
    }
    paths
}

fn rules(findings: &[serde_json::Value]) -> Vec<&str> {
    findings.iter().map(|f| f["rule"].as_str().unwrap()).collect()
}

#[test]
fn named_files_report_what_the_full_run_says_about_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    control_repository(root);
    let full = findings(&json(&mplint(&["--format", "json", "."], root)));
    assert!(rules(&full).contains(&"node-scope-leak"), "{full:#?}");
    assert!(rules(&full).contains(&"duplicate-resource"), "{full:#?}");
    assert!(rules(&full).contains(&"use-before-assign"), "{full:#?}");

    let with_findings =
        ["manifests/site.pp", "site-modules/profile/manifests/nginx.pp", "site-modules/profile/manifests/postgres.pp"];
    let mut files: Vec<String> = ["manifests", "site-modules", "modules"]
        .iter()
        .flat_map(|d| walk(&root.join(d)))
        .map(|p| p.strip_prefix(root).unwrap().to_str().unwrap().to_string())
        .collect();
    files.sort();
    for named in &files {
        let named = named.as_str();
        let expected: Vec<serde_json::Value> =
            full.iter().filter(|f| places(f).iter().any(|p| p == named)).cloned().collect();
        if with_findings.contains(&named) {
            assert!(!expected.is_empty(), "the fixture gives {named} findings");
        }
        let output = mplint(&["--format", "json", named], root);
        let report = json(&output);
        assert_eq!(findings(&report), expected, "{named}");
        assert_eq!(report["summary"]["files"], 1, "{named}");
        let fails = expected.iter().any(|f| f["level"] == "error" && f["suppressed"].is_null());
        assert_eq!(output.status.code(), Some(if fails { 1 } else { 0 }), "{named}");
        // The classes the site declares exist: only the one that does not is unknown.
        let unknown: Vec<&serde_json::Value> = expected.iter().filter(|f| f["rule"] == "unknown-class").collect();
        assert!(unknown.iter().all(|f| f["message"].as_str().unwrap().contains("role::nosuch")), "{unknown:#?}");
    }

    // Named from elsewhere, the same findings, shown from there.
    let from_parent = json(&mplint(
        &[
            "--format",
            "json",
            &format!("{}/site-modules/profile/manifests/nginx.pp", root.file_name().unwrap().to_str().unwrap()),
        ],
        root.parent().unwrap(),
    ));
    assert!(rules(&findings(&from_parent)).contains(&"node-scope-leak"), "{from_parent}");
}

#[test]
fn a_directory_inside_a_module_is_checked_with_its_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    control_repository(root);
    let full = findings(&json(&mplint(&["--format", "json", "."], root)));
    let named = "site-modules/profile/manifests";
    let expected: Vec<serde_json::Value> =
        full.iter().filter(|f| places(f).iter().any(|p| p.starts_with(named))).cloned().collect();
    assert!(rules(&expected).contains(&"node-scope-leak"), "{full:#?}");
    assert_eq!(findings(&json(&mplint(&["--format", "json", named], root))), expected);

    // A module's examples, and a directory of its classes, with the module.
    let other = tempfile::tempdir().unwrap();
    let module = other.path().join("foo");
    write(&module, "metadata.json", "{\"name\": \"acme-foo\"}");
    write(&module, "manifests/init.pp", "class foo (String $x = 'a') {\n  notify { $x: }\n}\n");
    write(&module, "manifests/b.pp", "class foo::b {}\n");
    write(&module, "manifests/sub/a.pp", "class foo::sub::a {\n  include foo::b\n}\n");
    write(&module, "examples/init.pp", "class { 'foo': y => 1 }\n");
    let examples = findings(&json(&mplint(&["--format", "json", "examples"], &module)));
    assert_eq!(rules(&examples), ["unknown-parameter"], "{examples:#?}");
    let sub = findings(&json(&mplint(&["--format", "json", "manifests/sub"], &module)));
    assert!(sub.is_empty(), "{sub:#?}");
    // Alone when asked: the module is then nowhere to be seen.
    let alone = findings(&json(&mplint(&["--format", "json", "--isolated", "examples"], &module)));
    assert_eq!(rules(&alone), ["missing-module"], "{alone:#?}");
}

#[test]
fn a_file_alone_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    control_repository(root);
    let site = findings(&json(&mplint(&["--format", "json", "manifests/site.pp"], root)));
    let alone = findings(&json(&mplint(&["--format", "json", "--isolated", "manifests/site.pp"], root)));
    // Alone, the site's classes are nowhere to be seen; with its repository
    // they are found.
    let unknown = |f: &[serde_json::Value]| rules(f).iter().filter(|r| **r == "unknown-class").count();
    assert_eq!(unknown(&site), 1, "{site:#?}");
    assert!(unknown(&alone) > 1, "{alone:#?}");
    // Alone, a class that reads node scope is reported without its node.
    let nginx = "site-modules/profile/manifests/nginx.pp";
    let with_node = findings(&json(&mplint(&["--format", "json", nginx], root)));
    let without = findings(&json(&mplint(&["--format", "json", "--isolated", nginx], root)));
    let leak = |f: &[serde_json::Value]| {
        f.iter().find(|f| f["rule"] == "node-scope-leak").map(|f| f["message"].as_str().unwrap().to_string())
    };
    assert!(leak(&with_node).is_some_and(|m| m.contains("node scope of the node")), "{with_node:#?}");
    assert_ne!(leak(&with_node), leak(&without));
}

#[test]
fn useless_suppressions_are_judged_against_the_whole_tree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    control_repository(root);
    // The suppression in the profile silences a leak only the site causes.
    write(
        root,
        "site-modules/profile/manifests/nginx.pp",
        "class profile::nginx {\n  file { '/etc/nginx/port':\n    content => \"${role_port}\", # mplint:ignore:node-scope-leak\n  }\n}\n",
    );
    let nginx = "site-modules/profile/manifests/nginx.pp";
    let report = json(&mplint(&["--format", "json", nginx], root));
    let found = findings(&report);
    assert!(!rules(&found).contains(&"useless-suppression"), "{found:#?}");
    assert!(found.iter().any(|f| f["rule"] == "node-scope-leak" && !f["suppressed"].is_null()), "{found:#?}");
    // site.pp's own suppression suppresses nothing, in context as in full.
    let site = findings(&json(&mplint(&["--format", "json", "manifests/site.pp"], root)));
    assert!(rules(&site).contains(&"useless-suppression"), "{site:#?}");
}

#[test]
fn files_of_several_trees_and_directories_together() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    control_repository(&root.join("control"));
    write(root, "loose/a.pp", "notify { \"${nowhere}\": }\n");
    let output =
        mplint(&["--format", "json", "control/site-modules/profile/manifests/nginx.pp", "loose", "missing.pp"], root);
    // A named path that does not exist is still a usage error.
    assert_eq!(output.status.code(), Some(2));
    let report = json(&output);
    let paths: Vec<String> = findings(&report).iter().map(|f| f["path"].as_str().unwrap().to_string()).collect();
    assert!(paths.contains(&"control/site-modules/profile/manifests/nginx.pp".to_string()), "{paths:?}");
    assert!(paths.contains(&"loose/a.pp".to_string()), "{paths:?}");
    assert_eq!(report["summary"]["files"], 2);
    assert!(report["notices"].as_array().unwrap().iter().any(|n| n["kind"] == "not-found"), "{report}");
}

#[test]
fn a_module_repository_is_the_context_of_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    assert!(Command::new("git").args(["init", "-q", "."]).current_dir(root).status().unwrap().success());
    write(root, "apache/manifests/init.pp", "class apache {\n  include apache::mod::ssl\n  include concat\n}\n");
    write(root, "apache/manifests/mod/ssl.pp", "class apache::mod::ssl {\n}\n");
    write(root, "concat/manifests/init.pp", "class concat {\n}\n");
    let report = json(&mplint(&["--format", "json", "apache/manifests/init.pp"], root));
    assert_eq!(findings(&report), Vec::<serde_json::Value>::new(), "{report}");
    let alone = json(&mplint(&["--format", "json", "--isolated", "apache/manifests/init.pp"], root));
    assert!(!findings(&alone).is_empty(), "{alone}");
}

/// An environment whose roles no node declares, so each is checked on its
/// own (but one node's role and one node's profile); roles share profiles;
/// a node calls a function mplint cannot see into; two nodes of the same body
/// (compiled once); module `web` defines `web::site` in
/// `manifests/site.pp`; two classes that share nothing use a missing module.
fn unreached_roles(root: &Path) {
    std::fs::create_dir_all(root).unwrap();
    let git = Command::new("git").args(["init", "-q", "."]).current_dir(root).status().expect("git runs");
    assert!(git.success());
    write(root, "environment.conf", "modulepath = site:modules\n");
    write(
        root,
        "manifests/site.pp",
        "$tier = 'prod'\nnode default {\n  $node_only = 1\n}\n\
         node 'app01' {\n  mystery_setup('x')\n  include role::d\n}\nnode 'web01' {\n  include profile::b\n}\n\
         node 'cache01' {\n  include role::a\n}\nnode 'cache02' {\n  include role::a\n}\n",
    );
    write(root, "site/role/manifests/a.pp", "class role::a {\n  include profile::common\n  include profile::a\n}\n");
    write(root, "site/role/manifests/b.pp", "class role::b {\n  include profile::common, profile::b\n}\n");
    write(root, "site/role/manifests/c.pp", "class role::c {\n  $kind = 'a'\n  include \"profile::${kind}\"\n}\n");
    write(
        root,
        "site/role/manifests/d.pp",
        "class role::d {\n  package { 'lonely': }\n  notify { \"${nowhere}\": }\n  include absent::one\n}\n",
    );
    write(
        root,
        "site/profile/manifests/common.pp",
        "class profile::common {\n  package { 'tool': }\n  notify { \"${node_only} ${missing_var} ${::from_setup}\": }\n}\n",
    );
    write(root, "site/profile/manifests/a.pp", "class profile::a {\n  package { 'tool': }\n}\n");
    write(
        root,
        "site/profile/manifests/b.pp",
        "class profile::b {\n  web::site { 'x': }\n  file { '/srv/x': }\n  notify { $profile::a::port: }\n}\n",
    );
    write(root, "modules/web/manifests/init.pp", "class web {\n  package { 'nginx': }\n}\n");
    write(root, "modules/web/manifests/site.pp", "define web::site {\n  file { \"/srv/${title}\": }\n}\n");
    write(
        root,
        "modules/web/manifests/unused.pp",
        "class web::unused {\n  notify { \"${web_unused}\": }\n  include absent::two\n}\n",
    );
}

#[test]
fn named_files_skip_only_what_cannot_concern_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    unreached_roles(root);
    let full = findings(&json(&mplint(&["--format", "json", "."], root)));
    for rule in ["duplicate-resource", "undefined-variable", "missing-module"] {
        assert!(rules(&full).contains(&rule), "{rule}: {full:#?}");
    }
    let mut files: Vec<String> = ["manifests", "site", "modules"]
        .iter()
        .flat_map(|d| walk(&root.join(d)))
        .map(|p| p.strip_prefix(root).unwrap().to_str().unwrap().to_string())
        .collect();
    files.sort();
    assert_eq!(files.len(), 11);
    for named in &files {
        let expected: Vec<serde_json::Value> =
            full.iter().filter(|f| places(f).iter().any(|p| p == named)).cloned().collect();
        let report = json(&mplint(&["--format", "json", named], root));
        assert_eq!(findings(&report), expected, "{named}");
    }
    // `web::site` in a module's `manifests/site.pp` is checked with the
    // environment that declares it: its duplicate comes from `profile::b`.
    let site = json(&mplint(&["--format", "json", "modules/web/manifests/site.pp"], root));
    assert!(rules(&findings(&site)).contains(&"duplicate-resource"), "{site:#}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "pp") {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_named_hiera_file_is_reported_on_not_parsed_as_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("control");
    control_repository(&root);
    write(&root, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: os\n    path: \"os/%{::osfamily}.yaml\"\n");
    write(&root, "data/common.yaml", "---\nprofile::base::domain: \"%{facts.domain}\"\n");
    let report = json(&mplint(&["hiera.yaml", "--format", "json"], &root));
    let found: Vec<(String, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap().to_string(), f["start"]["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(found, [("legacy-fact".to_string(), 5)], "{report:#}");
}

/// Puppet's code directory: two environments, each with its own
/// `profile::base`, and the base module path both take.
fn code_directory(code: &Path) {
    write(code, "modules/ntp/manifests/init.pp", "class ntp {\n  notify { 'ntp': }\n}\n");
    for (environment, profile) in [
        ("production", "class profile::base(Integer $port = 1) {\n  include ntp\n  notify { \"p${port}\": }\n}\n"),
        ("staging", "class profile::base {\n  include ntp\n}\n"),
    ] {
        let env = code.join("environments").join(environment);
        write(&env, "environment.conf", "modulepath = site:$basemodulepath\n");
        write(&env, "site/profile/manifests/base.pp", profile);
        write(&env, "manifests/site.pp", "node default {\n  class { 'profile::base': port => 2 }\n}\n");
    }
    write(code, "environments/README.md", "Each branch is an environment.\n");
    // Test fixtures are no environment to check, even with an environment.conf.
    write(code, "spec/fixtures/environment.conf", "modulepath = modules\n");
    write(code, "spec/fixtures/manifests/site.pp", "node default {\n  class { 'nosuch': }\n}\n");
}

#[test]
fn a_directory_of_environments_is_checked_one_environment_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    code_directory(&dir.path().join("code"));
    // Only staging's class lacks the parameter; each environment finds its
    // classes, and `ntp` in the code directory's modules.
    let expected = [("unknown-parameter", "code/environments/staging/manifests/site.pp", 2)];
    let summary = |report: &serde_json::Value| {
        findings(report)
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_string(),
                    f["path"].as_str().unwrap().to_string(),
                    f["start"]["line"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let as_expected: Vec<(String, String, u64)> =
        expected.iter().map(|(r, p, l)| (r.to_string(), p.to_string(), *l as u64)).collect();
    for checked in ["code", "code/environments", "code/"] {
        let output = mplint(&["--format", "json", checked], dir.path());
        let report = json(&output);
        assert_eq!(summary(&report), as_expected, "{checked}: {report:#}");
        assert_eq!(report["notices"], serde_json::json!([]), "{checked}");
        assert_eq!(output.status.code(), Some(1), "{checked}");
    }
    assert_eq!(json(&mplint(&["--format", "json", "code"], dir.path()))["summary"]["files"], 5);
    // A file of one environment, named: its environment and the base modules.
    let named = json(&mplint(&["--format", "json", "code/environments/staging/manifests/site.pp"], dir.path()));
    assert_eq!(summary(&named), as_expected, "{named:#}");
    assert_eq!(named["notices"], serde_json::json!([]));
    let production =
        json(&mplint(&["--format", "json", "code/environments/production/site/profile/manifests/base.pp"], dir.path()));
    assert_eq!(summary(&production), [], "{production:#}");
}

#[test]
fn a_code_directory_kept_in_a_repository_names_its_modules_by_codedir() {
    // The repository is deployed as /etc/puppetlabs/code: environments name
    // `$codedir/modules/…`, or reach them through a link to the deployed
    // directory (Puppet compiles this with the code directory at `code`).
    let dir = tempfile::tempdir().unwrap();
    let code = dir.path().join("code");
    write(
        &code,
        "modules/local/base/manifests/init.pp",
        "class base {\n  include base::users\n  class { 'ntp': servers => ['a'] }\n}\n",
    );
    write(&code, "modules/local/base/manifests/users.pp", "class base::users {\n  notify { 'users': }\n}\n");
    write(&code, "modules/public/ntp/manifests/init.pp", "class ntp {\n  notify { 'ntp': }\n}\n");
    write(&code, "environments/dev/environment.conf", "modulepath = $codedir/modules/public:$codedir/modules/local\n");
    write(
        &code,
        "environments/production/environment.conf",
        "modulepath = $codedir/environments/production/modules/public:$codedir/environments/production/modules/local\n",
    );
    std::os::unix::fs::symlink("/etc/puppetlabs/code/modules", code.join("environments/production/modules")).unwrap();
    for environment in ["dev", "production"] {
        write(&code.join("environments").join(environment), "manifests/site.pp", "node default {\n  include base\n}\n");
    }
    // `ntp` of the public modules takes no parameter; no class is unknown.
    let expected = vec![("unknown-parameter".to_string(), "code/modules/local/base/manifests/init.pp".to_string(), 3)];
    for checked in [".", "code", "code/environments/production"] {
        let report = json(&mplint(&["--format", "json", checked], dir.path()));
        let found: Vec<(String, String, u64)> = findings(&report)
            .iter()
            .map(|f| {
                let path = f["path"].as_str().unwrap().to_string();
                (f["rule"].as_str().unwrap().to_string(), path, f["start"]["line"].as_u64().unwrap())
            })
            .collect();
        let located_in_checked = checked != "code/environments/production";
        assert_eq!(found, if located_in_checked { expected.clone() } else { vec![] }, "{checked}: {report:#}");
        assert_eq!(report["notices"], serde_json::json!([]), "{checked}: {report:#}");
    }
}

#[test]
fn an_environment_of_only_modules_inside_another_environment_is_checked_on_its_own() {
    // `etc/` is an old layout (site manifest and modules); its code
    // directory holds an environment with modules only, no site manifest:
    // Puppet finds `app::params` on that environment's module path.
    let dir = tempfile::tempdir().unwrap();
    let etc = dir.path().join("etc");
    write(&etc, "manifests/site.pp", "node default {\n  include base\n}\n");
    write(&etc, "modules/base/manifests/init.pp", "class base {\n  notify { 'base': }\n}\n");
    let modules = etc.join("code/environments/production/modules");
    write(&modules, "app/manifests/init.pp", "class app {\n  include app::params\n}\n");
    write(&modules, "app/manifests/params.pp", "class app::params {\n  notify { 'params': }\n}\n");
    write(&modules, "app/examples/init.pp", "class { 'app': port => 1 }\n");
    for checked in [".", "etc"] {
        let report = json(&mplint(&["--format", "json", checked], dir.path()));
        let found: Vec<(String, String)> = findings(&report)
            .iter()
            .map(|f| (f["rule"].as_str().unwrap().to_string(), f["path"].as_str().unwrap().to_string()))
            .collect();
        let example = "etc/code/environments/production/modules/app/examples/init.pp".to_string();
        assert_eq!(found, [("unknown-parameter".to_string(), example)], "{checked}: {report:#}");
        assert_eq!(report["summary"]["files"], 5, "{checked}: each file checked once");
    }
}

#[test]
fn an_environment_a_module_keeps_deep_inside_is_checked_with_its_own_modules() {
    // A module's Vagrant setup keeps an environment of its own, whose `pg`
    // is another module than the site's.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, "manifests/site.pp", "node default {\n  include app\n}\n");
    write(root, "modules/app/manifests/init.pp", "class app {\n  notify { 'app': }\n}\n");
    write(root, "modules/pg/manifests/server.pp", "class pg::server ($port = 5432) {\n}\n");
    let env = root.join("modules/app/vagrant/env/dev");
    write(&env, "environment.conf", "modulepath = modules:site/modules\n");
    write(&env, "manifests/site.pp", "node default {\n  include profile::app\n}\n");
    write(&env, "modules/pg/manifests/server.pp", "class pg::server ($port = 5432, $acls = []) {\n}\n");
    write(
        &env,
        "site/modules/profile/manifests/app.pp",
        "class profile::app {\n  class { 'pg::server': acls => ['host all'] }\n}\n",
    );
    for checked in [".", "modules/app/vagrant/env/dev/site/modules/profile/manifests/app.pp"] {
        let report = json(&mplint(&["--format", "json", checked], root));
        assert!(findings(&report).is_empty(), "{checked}: {report:#}");
    }
    let report = json(&mplint(&["--format", "json", "."], root));
    assert_eq!(report["summary"]["files"], 6, "each file checked once: {report:#}");
}

#[test]
fn modules_that_ignore_rules_hide_are_read_but_not_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("control");
    std::fs::create_dir_all(&root).unwrap();
    let git = Command::new("git").args(["init", "-q", "."]).current_dir(&root).status().expect("git runs");
    assert!(git.success());
    // r10k installs the Puppetfile's modules into the ignored `modules/`.
    write(&root, ".gitignore", "modules/\n");
    write(&root, "environment.conf", "modulepath = site-modules:modules\n");
    write(&root, "Puppetfile", "mod 'puppetlabs/motd', '7.0.0'\n");
    write(&root, "manifests/site.pp", "node default {\n  include role::web\n}\n");
    write(&root, "site-modules/role/manifests/web.pp", "class role::web {\n  include motd\n  include nosuch\n}\n");
    // Its own findings are not the user's to fix.
    write(&root, "modules/motd/manifests/init.pp", "class motd {\n  include missing::dependency\n}\n");
    for args in [vec!["--format", "json", "."], vec!["--format", "json", "site-modules/role/manifests/web.pp"]] {
        let report = json(&mplint(&args, &root));
        let found = findings(&report);
        let messages: Vec<String> = found.iter().map(|f| f["message"].as_str().unwrap().to_string()).collect();
        assert!(rules(&found).iter().all(|rule| *rule == "missing-module"), "{args:?}: {found:#?}");
        assert!(!messages.iter().any(|m| m.contains("motd") || m.contains("missing::dependency")), "{messages:?}");
        assert!(messages.iter().any(|m| m.contains("`nosuch`")), "{messages:?}");
    }
    let report = json(&mplint(&["--format", "json", "."], &root));
    assert_eq!(report["summary"]["files"], 2, "{report:#}");
}

#[test]
fn a_module_without_init_pp_is_read_with_its_parent_only_when_that_holds_modules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Outside any git work tree: `scratch` is like /tmp, holding a module
    // without `init.pp` and, elsewhere, unrelated code that declares it.
    write(root, "scratch/mymod/manifests/foo.pp", "class mymod::foo {\n  notify { 'foo': }\n}\n");
    write(root, "scratch/old/tools/setup.pp", "class tools {\n  class { 'mymod::foo': nosuch => 1 }\n}\n");
    let report = json(&mplint(&["--format", "json", "mymod/manifests/foo.pp"], &root.join("scratch")));
    assert_eq!(findings(&report), Vec::<serde_json::Value>::new(), "{report}");
    // A site directory of modules without `init.pp`: the role sees its
    // profile beside it.
    write(root, "site/role/manifests/web.pp", "class role::web {\n  include profile::web\n}\n");
    write(root, "site/profile/manifests/web.pp", "class profile::web {\n  notify { 'web': }\n}\n");
    let report = json(&mplint(&["--format", "json", "role/manifests/web.pp"], &root.join("site")));
    assert_eq!(findings(&report), Vec::<serde_json::Value>::new(), "{report}");
    let alone = json(&mplint(&["--format", "json", "--isolated", "role/manifests/web.pp"], &root.join("site")));
    assert_eq!(rules(&findings(&alone)), vec!["unknown-class"], "{alone}");
}
