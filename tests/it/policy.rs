//! Policy files: constraints over evaluated values, wherever the value
//! comes from, and clear errors for broken policy files.

use crate::support::{json, mplint, write};

const POLICY: &str = r#"
name = "site"
description = "What this site's code may do."
extends = ["deny-node-scope"]

[[constraint]]
id = "no-world-writable-files"
message = "files must not be world-writable"
type = "file"
attribute = "mode"
must-not-match = '^0?[0-7][0-7][2367]$'

[[constraint]]
id = "exec-is-idempotent"
level = "warning"
message = "an exec must say when it has nothing to do"
type = "exec"
require-one-of = ["creates", "onlyif", "unless", "refreshonly"]

[[constraint]]
id = "no-plain-http-repos"
message = "packages come from https mirrors"
type = "class"
title = '^repo$'
attribute = "url"
must-match = '^https://'
"#;

/// (rule, file, line) of each finding, in report order.
fn found(dir: &std::path::Path, args: &[&str]) -> (Vec<(String, String, u64)>, std::process::Output) {
    let output = mplint(args, dir);
    assert!(!output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    let report = json(&output);
    let rows = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().rsplit('/').next().unwrap().to_string(),
                f["line"].as_u64().or_else(|| f["start"]["line"].as_u64()).unwrap_or(0),
            )
        })
        .collect();
    (rows, output)
}

#[test]
fn constraints_see_values_through_variables_defaults_parameters_and_includes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy.toml", POLICY);
    // Through a variable.
    write(
        root,
        "modules/site/manifests/direct.pp",
        "class site::direct {\n  $mode = '0777'\n  file { '/tmp/a':\n    mode => $mode,\n  }\n}\n",
    );
    // Through a defined type's parameter default.
    write(
        root,
        "modules/site/manifests/shared.pp",
        "define site::shared (String $mode = '0666') {\n  file { $title:\n    mode => $mode,\n  }\n}\n",
    );
    write(
        root,
        "modules/site/manifests/uses_shared.pp",
        "class site::uses_shared {\n  site::shared { '/srv/x': }\n}\n",
    );
    // Through a class parameter given at a declaration an include away.
    write(root, "modules/repo/manifests/init.pp", "class repo (String $url) {\n  notify { $url: }\n}\n");
    write(
        root,
        "modules/site/manifests/mirror.pp",
        "class site::mirror {\n  $base = 'http://mirror.example.com'\n  class { 'repo':\n    url => \"${base}/debian\",\n  }\n}\n",
    );
    write(root, "modules/site/manifests/role.pp", "class site::role {\n  include site::mirror\n}\n");
    // Compliant and unknown values are not reported.
    write(
        root,
        "modules/site/manifests/fine.pp",
        "class site::fine (String $mode) {\n  file { '/tmp/b': mode => '0644' }\n  file { '/tmp/c': mode => $mode }\n  file { '/tmp/d': mode => $facts['mode'] }\n  exec { 'make': creates => '/usr/bin/x' }\n  exec { 'fetch': }\n}\n",
    );
    let (rows, output) = found(root, &["--policy", "policy.toml", "--format", "json", "modules"]);
    let expected: Vec<(String, String, u64)> = [
        ("no-world-writable-files", "direct.pp", 4),
        ("exec-is-idempotent", "fine.pp", 6),
        ("no-plain-http-repos", "mirror.pp", 4),
        ("no-world-writable-files", "shared.pp", 3),
    ]
    .into_iter()
    .map(|(r, f, l)| (r.to_string(), f.to_string(), l))
    .collect();
    assert_eq!(rows, expected, "{}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(output.status.code(), Some(1), "errors fail the check");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("`mode` of `File['/tmp/a']` is '0777'"), "{text}");
    assert!(text.contains("'http://mirror.example.com/debian', it does not match"), "{text}");

    // In SARIF, a constraint is a rule of its own, naming its policy.
    let sarif = json(&mplint(&["--policy", "policy.toml", "--format", "sarif", "modules"], root));
    let run = &sarif["runs"][0];
    let result = run["results"].as_array().unwrap().iter().find(|r| r["ruleId"] == "exec-is-idempotent").unwrap();
    assert_eq!(result["properties"]["policy"], "site", "{result}");
    let rule = &run["tool"]["driver"]["rules"][result["ruleIndex"].as_u64().unwrap() as usize];
    assert_eq!(rule["id"], "exec-is-idempotent", "{rule}");
    assert_eq!(rule["properties"]["policy"], "site", "{rule}");
    assert_eq!(rule["defaultConfiguration"]["level"], "warning", "{rule}");

    // A constraint's finding can be suppressed by its id.
    write(
        root,
        "modules/site/manifests/direct.pp",
        "class site::direct {\n  $mode = '0777'\n  file { '/tmp/a':\n    mode => $mode, # mplint:ignore:no-world-writable-files\n  }\n}\n",
    );
    let (_, output) = found(root, &["--policy", "policy.toml", "--format", "json", "modules"]);
    let summary = &json(&output)["summary"];
    assert_eq!((summary["errors"].as_u64(), summary["suppressed"].as_u64()), (Some(2), Some(1)), "{summary}");

    // The constraint's level can be changed like any rule's.
    write(root, ".mplint.toml", "policies = [\"policy.toml\"]\n[rules]\nno-world-writable-files = \"off\"\n");
    let (rows, _) = found(root, &["--format", "json", "modules"]);
    assert!(rows.iter().all(|(rule, _, _)| rule != "no-world-writable-files"), "{rows:?}");
    assert_eq!(rows.len(), 2, "{rows:?}");
}

#[test]
fn a_broken_policy_file_names_its_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "site.pp", "notify { 'x': }\n");
    for (policy, line, says) in [
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\ntype = \"file\"\nattribute = \"mode\"\nmust-match = \"(\"\n",
            1,
            "not a valid regular expression",
        ),
        (
            "\n[[constraint]]\nid = \"Bad Id\"\nmessage = \"m\"\ntype = \"file\"\nrequire-one-of = [\"a\"]\n",
            2,
            "lower-case words",
        ),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\ntype = \"file\"\nattribute = \"mode\"\n", 1, "needs one of"),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\ntype = \"file\"\nforbid-type = [\"exec\"]\n", 1, "has `type`"),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-type = [\"exec\"]\nforbid-function = [\"f\"]\n",
            1,
            "needs one of",
        ),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-function = [\"a[\"]\n",
            1,
            "`forbid-function` has a pattern",
        ),
        (
            "\n\n[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-type = [\"exec\"]\npaths = [\"a/[b\"]\n",
            3,
            "`paths` has a pattern",
        ),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-type = [\"exec\"]\npaths = []\n", 1, "empty `paths`"),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-type = \"exec\"\n", 4, "invalid type"),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-class = [\"role::*\"]\n", 1, "needs `declaring`"),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\ndeclaring = [\"role::*\"]\nexactly-one-class = [\"a\"]\n",
            1,
            "nodes only",
        ),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-resource-like = \"sometimes\"\n",
            1,
            "expected \"outside-module\"",
        ),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-parameters = true\n", 1, "needs `classes`"),
        ("[rules]\n\n[[override]]\npaths = [\"a\"]\nrules = { node-scope-leek = \"off\" }\n", 5, "unknown rule `node-scope-leek` in [[override]]"),
        ("[[override]]\nrules = { node-scope-leak = \"off\" }\n", 1, "missing field `paths`"),
        ("[[override]]\npaths = []\n", 2, "is empty"),
        ("[[override]]\npaths = [\"a\"]\nrules = { node-scope-leak = \"loud\" }\n", 3, "level `loud`"),
        ("[[override]]\npaths = [\"a\"]\nlevels = {}\n", 3, "unknown field `levels`"),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\ntype = \"file\"\nattribute = \"mode\"\nmode-at-most = \"0855\"\n", 1, "expected an octal mode"),
        ("[[constraint]]\nid = \"x\"\nmessage = \"m\"\ntype = \"file\"\nmode-at-most = \"0755\"\n", 1, "needs one of"),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-construct = [\"defaults\"]\n",
            1,
            "unknown construct `defaults` in `forbid-construct`",
        ),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\nforbid-type = [\"exec\"]\ndeclaring = [\"a\"]\n",
            1,
            "has `declaring`",
        ),
        (
            "[[constraint]]\nid = \"x\"\nmessage = \"m\"\ndeclaring = [\"node\"]\nallow-class = [\"[\"]\n",
            1,
            "`allow-class` has a pattern",
        ),
        ("[[constraint]]\nid = \"x\"\nmesage = \"m\"\n", 3, "unknown field `mesage`"),
        ("extends = [\"nope\"]\n", 1, "unknown policy `nope`"),
    ] {
        write(root, "bad.toml", policy);
        let output = mplint(&["--policy", "bad.toml", "site.pp"], root);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("bad.toml:{line}:")), "{policy}\n{stderr}");
        assert!(stderr.contains(says), "{policy}\n{stderr}");
    }
}

#[test]
fn strict_puts_every_rule_at_error() {
    let dir = tempfile::tempdir().unwrap();
    // A missing module is a note and a duplicate hash key a warning, by default.
    write(dir.path(), "site.pp", "include absent::thing\n$h = { 'a' => 1, 'a' => 2 }\nnotice($h)\n");
    let levels = |args: &[&str]| -> Vec<(String, String)> {
        let report = json(&mplint(args, dir.path()));
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["rule"].as_str().unwrap().to_string(), f["level"].as_str().unwrap().to_string()))
            .collect()
    };
    let default = levels(&["--format", "json", "."]);
    assert!(default.contains(&("missing-module".into(), "note".into())), "{default:?}");
    assert!(default.contains(&("duplicate-key".into(), "warning".into())), "{default:?}");
    let strict = levels(&["--format", "json", "--policy", "strict", "."]);
    assert_eq!(strict.len(), default.len(), "{strict:?}");
    assert!(strict.iter().all(|(_, level)| level == "error"), "{strict:?}");

    // `"*"` sets every rule; a rule named beside it keeps its own level.
    write(dir.path(), "mine.toml", "[rules]\n\"*\" = \"warning\"\nmissing-module = \"off\"\n");
    let mine = levels(&["--format", "json", "--policy", "./mine.toml", "."]);
    assert_eq!(mine, [("duplicate-key".to_string(), "warning".to_string())]);
}

#[test]
fn built_in_policies_are_listed_with_what_they_do() {
    let dir = tempfile::tempdir().unwrap();
    let output = mplint(&["policies"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    for (name, _) in mplint::config::POLICIES {
        let line = text.lines().find(|l| l.starts_with(&format!("{name} "))).expect(name);
        assert!(line.len() > name.len() + 10, "{name} has no description: {line}");
    }
}

/// The TOML example of `policies/README.md` that states constraint `id`.
fn readme_example(id: &str) -> String {
    let readme = std::fs::read_to_string(crate::support::repo().join("policies/README.md")).unwrap();
    let blocks: Vec<&str> = readme.split("```toml\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    let wanted = format!("id = \"{id}\"");
    blocks.into_iter().find(|b| b.contains(&wanted)).unwrap_or_else(|| panic!("no example states {id}")).to_string()
}

/// A control repository: a node includes a role, which includes profiles.
fn control_repo(root: &std::path::Path) {
    write(root, "environment.conf", "modulepath = site:modules\n");
    write(root, "manifests/site.pp", "node 'web01' {\n  include role::web\n}\n");
    write(
        root,
        "site/role/manifests/web.pp",
        "class role::web {\n  include profile::web\n  class { 'profile::maker':\n    function => 'inline_template',\n    type     => 'exec',\n  }\n}\n",
    );
}

/// (rule, path relative to the tree, line), in report order.
fn found_paths(dir: &std::path::Path, args: &[&str]) -> Vec<(String, String, u64)> {
    let output = mplint(args, dir);
    json(&output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
                f["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn rows(expected: &[(&str, &str, u64)]) -> Vec<(String, String, u64)> {
    expected.iter().map(|(r, p, l)| (r.to_string(), p.to_string(), *l)).collect()
}

#[test]
fn forbidden_types_and_functions_are_found_through_variables_defaults_parameters_and_includes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy.toml", readme_example("no-exec-in-profiles"));
    control_repo(root);
    write(
        root,
        "site/profile/manifests/web.pp",
        "class profile::web {\n  exec { 'direct': command => '/bin/true' }\n  $type = 'exec'\n  Resource[$type] { 'through-a-variable': command => '/bin/true' }\n  profile::runner { 'x': }\n  Resource[$facts['t']] { 'unknown': }\n  file { '/tmp/x': content => template('profile/x.erb') }\n}\n",
    );
    // The type's name is a parameter's default.
    write(
        root,
        "site/profile/manifests/runner.pp",
        "define profile::runner (String $type = 'exec') {\n  create_resources($type, { \"run-${title}\" => { command => '/bin/true' } })\n  create_resources($type, {})\n  if $type != 'exec' {\n    exec { 'never evaluated, still written': }\n  }\n}\n",
    );
    // Code no compilation runs is searched for what it names literally.
    write(
        root,
        "site/profile/functions/render.pp",
        "function profile::render() >> String {\n  inline_template('<%= 1 %>')\n}\n",
    );
    // The function's name is a class parameter given at the declaration.
    write(
        root,
        "site/profile/manifests/maker.pp",
        concat!(
            "class profile::maker (String $function, String $type = 'notify') {\n",
            "  $text = call($function, 'x')\n",
            "  $more = 'y'.inline_epp\n",
            "  notify { $text: }\n",
            "  ensure_resource($type, 'make-it', { command => '/bin/true' })\n",
            "  $renderer = 'inline_epp'\n",
            "  $page = call($renderer, 'p')\n",
            "  profile::renderer { 'r': }\n",
            "}\n",
        ),
    );
    // The function's name is a parameter's default.
    write(
        root,
        "site/profile/manifests/renderer.pp",
        "define profile::renderer (String $function = 'inline_template') {\n  $out = call($function, $title)\n}\n",
    );
    // Outside `paths`, an exec is fine; an inline template is not.
    write(
        root,
        "modules/tool/manifests/init.pp",
        "class tool {\n  exec { 'build': command => '/bin/true' }\n  $x = inline_template('<%= 1 %>')\n}\n",
    );
    let found = found_paths(root, &["--policy", "policy.toml", "--format", "json", "."]);
    let expected = rows(&[
        ("no-inline-templates", "modules/tool/manifests/init.pp", 3),
        ("no-inline-templates", "site/profile/functions/render.pp", 2),
        ("no-inline-templates", "site/profile/manifests/maker.pp", 2),
        ("no-inline-templates", "site/profile/manifests/maker.pp", 3),
        ("no-exec-in-profiles", "site/profile/manifests/maker.pp", 5),
        ("no-inline-templates", "site/profile/manifests/maker.pp", 7),
        ("no-inline-templates", "site/profile/manifests/renderer.pp", 2),
        ("no-exec-in-profiles", "site/profile/manifests/runner.pp", 2),
        ("no-exec-in-profiles", "site/profile/manifests/runner.pp", 5),
        ("no-exec-in-profiles", "site/profile/manifests/web.pp", 2),
        ("no-exec-in-profiles", "site/profile/manifests/web.pp", 4),
    ]);
    assert_eq!(found, expected);

    // The finding names the include chain from the node.
    let report = json(&mplint(&["--policy", "policy.toml", "--format", "json", "."], root));
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "site/profile/manifests/web.pp" && f["start"]["line"] == 4)
        .unwrap();
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.contains("`Exec['through-a-variable']` is a resource of type `exec`, which `forbid-type` lists"),
        "{message}"
    );
    let flow: Vec<&str> = finding["flow"].as_array().unwrap().iter().map(|s| s["message"].as_str().unwrap()).collect();
    assert_eq!(
        flow,
        [
            "`role::web` included by node 'web01'",
            "`profile::web` included by `role::web`",
            "`Exec['through-a-variable']` declared here"
        ],
        "{finding}"
    );
    let maker = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "site/profile/manifests/maker.pp" && f["start"]["line"] == 2)
        .unwrap();
    assert!(maker["message"].as_str().unwrap().contains("`inline_template` is called here through `call`"), "{maker}");

    // Named alone, the profile's file gets its own findings and those its
    // code leads to (the defined type it declares, where it runs).
    let named = found_paths(root, &["--policy", "policy.toml", "--format", "json", "site/profile/manifests/web.pp"]);
    let leads_to: Vec<_> = expected
        .iter()
        .filter(|(_, path, line)| path.ends_with("web.pp") || (path.ends_with("runner.pp") && *line == 2))
        .cloned()
        .collect();
    assert_eq!(named, leads_to);
}

#[test]
fn roles_profiles_preset_reports_what_is_certain() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = site:modules\n");
    write(
        root,
        "manifests/site.pp",
        concat!(
            "node 'one' {\n  include role::web\n}\n",
            "node 'two' {\n  include role::web\n  include role::db\n}\n",
            "node 'none' {\n  include profile::base\n}\n",
            // A role chosen by a fact, by a function mplint cannot see, by
            // Hiera, or on exclusive branches: nothing is certain to be wrong.
            "node 'fact' {\n  include \"role::${facts['role']}\"\n}\n",
            "node 'opaque' {\n  role('web')\n}\n",
            "node 'hiera' {\n  hiera_include('classes')\n}\n",
            "node 'branches' {\n  if $facts['db'] {\n    include role::db\n  } else {\n    include role::web\n  }\n}\n",
        ),
    );
    // A role declares a component module through a variable; a role with
    // a parameter.
    write(
        root,
        "site/role/manifests/web.pp",
        "class role::web {\n  include profile::base\n  $server = 'nginx'\n  include $server\n}\n",
    );
    write(root, "site/role/manifests/db.pp", "class role::db (String $size = 'large') {\n  include profile::db\n}\n");
    write(root, "site/profile/manifests/base.pp", "class profile::base {\n  include nginx\n}\n");
    // A profile declares a role through a parameter's default and through
    // a value given at its declaration.
    write(
        root,
        "site/profile/manifests/db.pp",
        "class profile::db (String $peer = 'role::web') {\n  include $peer\n  class { 'profile::mirror': role => 'role::db' }\n}\n",
    );
    write(root, "site/profile/manifests/mirror.pp", "class profile::mirror (String $role) {\n  require $role\n}\n");
    // A component module declares a profile, an include chain away.
    write(root, "modules/nginx/manifests/init.pp", "class nginx {\n  contain nginx::config\n}\n");
    write(root, "modules/nginx/manifests/config.pp", "class nginx::config {\n  include profile::base\n}\n");
    let found = found_paths(root, &["--policy", "roles-profiles", "--format", "json", "."]);
    let expected = rows(&[
        ("node-declares-one-role", "manifests/site.pp", 4),
        ("node-declares-one-role", "manifests/site.pp", 8),
        ("module-declares-no-profile", "modules/nginx/manifests/config.pp", 2),
        ("role-takes-no-parameters", "site/role/manifests/db.pp", 1),
        ("role-declares-only-profiles", "site/role/manifests/web.pp", 4),
        ("profile-declares-no-role", "site/profile/manifests/db.pp", 2),
        ("profile-declares-no-role", "site/profile/manifests/mirror.pp", 2),
    ]);
    let mut sorted = expected.clone();
    sorted.sort();
    // `role()` is also a note of its own (incomplete-node).
    let mut found_sorted: Vec<_> = found.into_iter().filter(|(rule, _, _)| rule != "incomplete-node").collect();
    found_sorted.sort();
    assert_eq!(found_sorted, sorted);

    let report = json(&mplint(&["--policy", "roles-profiles", "--format", "json", "."], root));
    let message = |path: &str, line: u64| {
        let finding = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path && f["start"]["line"] == line)
            .unwrap_or_else(|| panic!("no finding at {path}:{line}"));
        finding.clone()
    };
    let two = message("manifests/site.pp", 4);
    assert!(two["message"].as_str().unwrap().contains("declares both `role::db` and `role::web`"), "{two}");
    let none = message("manifests/site.pp", 8);
    assert!(none["message"].as_str().unwrap().contains("node 'none' declares none of `role::*`"), "{none}");
    let module = message("modules/nginx/manifests/config.pp", 2);
    let flow: Vec<&str> = module["flow"].as_array().unwrap().iter().map(|s| s["message"].as_str().unwrap()).collect();
    assert!(flow.contains(&"`nginx::config` contained by `nginx`"), "{module}");
    assert!(flow.last().unwrap().contains("`profile::base` included here"), "{module}");
    let mirror = message("site/profile/manifests/mirror.pp", 2);
    assert!(mirror["message"].as_str().unwrap().contains("class `profile::mirror` required `role::db`"), "{mirror}");

    // A site whose nodes name no role in their code classifies them
    // elsewhere (an ENC, a console); nodes of usage examples are no site's.
    write(root, "manifests/site.pp", "node default {\n}\nnode 'x' {\n  include profile::base\n}\n");
    write(root, "modules/nginx/examples/init.pp", "node default {\n  include nginx\n}\n");
    let found = found_paths(root, &["--policy", "roles-profiles", "--format", "json", "."]);
    assert!(found.iter().all(|(rule, _, _)| rule != "node-declares-one-role"), "{found:?}");
}

#[test]
fn resource_like_declarations_outside_their_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy.toml", readme_example("no-resource-like-from-outside"));
    write(
        root,
        "modules/apache/manifests/init.pp",
        "class apache (Integer $port = 80) {\n  class { 'apache::mod': }\n}\n",
    );
    write(root, "modules/apache/manifests/mod.pp", "class apache::mod {}\n");
    write(root, "modules/apache/examples/init.pp", "class { 'apache': port => 8080 }\n");
    write(
        root,
        "modules/site/manifests/web.pp",
        "class site::web {\n  $class = 'apache'\n  class { $class: port => 81 }\n  include site::roles\n  class { 'site::wrapper': inner => 'dns' }\n}\n",
    );
    write(
        root,
        "modules/site/manifests/roles.pp",
        "class site::roles {\n  include apache\n  include site::defaulted\n}\n",
    );
    // The class's name is a parameter's default, or given at a declaration.
    write(
        root,
        "modules/site/manifests/defaulted.pp",
        "class site::defaulted (String $inner = 'ntp') {\n  class { $inner: }\n}\n",
    );
    write(root, "modules/site/manifests/wrapper.pp", "class site::wrapper (String $inner) {\n  class { $inner: }\n}\n");
    write(root, "modules/ntp/manifests/init.pp", "class ntp {}\n");
    write(root, "modules/dns/manifests/init.pp", "class dns {}\n");
    // Values given at declarations are known where a node declares the
    // classes (checked on its own, a class's parameters may be anything).
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, "manifests/site.pp", "node 'web01' {\n  include site::web\n}\n");
    let found = found_paths(root, &["--policy", "policy.toml", "--format", "json", "."]);
    assert_eq!(
        found,
        rows(&[
            ("no-resource-like-from-outside", "modules/site/manifests/defaulted.pp", 2),
            ("no-resource-like-from-outside", "modules/site/manifests/web.pp", 3),
            ("no-resource-like-from-outside", "modules/site/manifests/wrapper.pp", 2),
        ])
    );
    let report = json(&mplint(&["--policy", "policy.toml", "--format", "json", "."], root));
    let message = report["findings"][1]["message"].as_str().unwrap();
    assert!(
        message.contains(
            "`apache` is declared resource-like (`class { 'apache': }`) from module `site`, not from `apache` itself"
        ),
        "{message}"
    );
    assert_eq!(report["findings"][1]["level"], "warning");

    // The README's other example: roles declare profiles only.
    write(root, "modules/role/manifests/web.pp", "class role::web {\n  include profile::web\n  include apache\n}\n");
    write(root, "modules/profile/manifests/web.pp", "class profile::web {}\n");
    let found = found_paths(root, &["--policy", "policy.toml", "--format", "json", "."]);
    assert!(
        found.contains(&("roles-declare-profiles".to_string(), "modules/role/manifests/web.pp".to_string(), 3)),
        "{found:?}"
    );
}

#[test]
fn forbidden_constructs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy.toml", readme_example("explicit-code"));
    write(
        root,
        "modules/app/manifests/init.pp",
        concat!(
            "class app inherits app::params {\n",
            "  File { mode => '0644' }\n",
            "  Package <| tag == 'app' |>\n",
            "  User <| title == 'deploy' or (title == 'ops' and title != 'x') |>\n",
            "  Exec <| |>\n",
            "  Service <<| title != 'x' |>>\n",
            "  file { '/tmp/x': ensure => file }\n",
            "  class inner {\n",
            "    define deeper() {}\n",
            "  }\n",
            "}\n",
        ),
    );
    write(root, "modules/app/manifests/params.pp", "class app::params {\n  $x = 1\n}\n");
    write(root, "modules/app/manifests/server.pp", "class app::server inherits app {\n}\n");
    write(root, "modules/app/examples/init.pp", "node default {\n  include app\n}\n");
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, "manifests/site.pp", "node default {\n  include app::server\n}\n");
    let found = found_paths(root, &["--policy", "policy.toml", "--format", "json", "."]);
    assert_eq!(
        found,
        rows(&[
            ("explicit-code", "modules/app/examples/init.pp", 1),
            ("explicit-code", "modules/app/manifests/init.pp", 2),
            ("explicit-code", "modules/app/manifests/init.pp", 3),
            ("explicit-code", "modules/app/manifests/init.pp", 5),
            ("explicit-code", "modules/app/manifests/init.pp", 8),
            ("explicit-code", "modules/app/manifests/init.pp", 9),
            ("explicit-code", "modules/app/manifests/server.pp", 1),
        ])
    );
    let report = json(&mplint(&["--policy", "policy.toml", "--format", "json", "."], root));
    let messages: Vec<&str> =
        report["findings"].as_array().unwrap().iter().map(|f| f["message"].as_str().unwrap()).collect();
    assert!(messages[5].contains("defined type `deeper` is defined inside `inner`"), "{messages:?}");
    assert!(
        messages[6].contains("class `app::server` inherits `app`, which is not a `::params` class"),
        "{messages:?}"
    );
}

#[test]
fn modes_at_most_through_variables_defaults_parameters_and_includes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy.toml", readme_example("no-group-or-world-write"));
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, "manifests/site.pp", "node 'web01' {\n  include site::role\n}\n");
    write(root, "modules/site/manifests/role.pp", "class site::role {\n  include site::profile\n}\n");
    write(
        root,
        "modules/site/manifests/profile.pp",
        concat!(
            "class site::profile {\n",
            "  $shared = 'u=rwx,g=rwx,o=rx'\n",
            "  file { '/srv/a': mode => $shared }\n",
            "  site::dropin { '/srv/b': }\n",
            "  class { 'site::store': mode => '2777' }\n",
            "  file { '/srv/c': mode => '0750' }\n",
            "  file { '/srv/d': mode => 'go-w' }\n",
            "  file { '/srv/e': mode => 'a+X' }\n",
            "  file { '/srv/f': mode => $facts['mode'] }\n",
            "}\n",
        ),
    );
    write(
        root,
        "modules/site/manifests/dropin.pp",
        "define site::dropin (String $mode = '0664') {\n  file { $title: mode => $mode }\n}\n",
    );
    write(
        root,
        "modules/site/manifests/store.pp",
        "class site::store (String $mode = '0700') {\n  file { '/srv/store': mode => $mode }\n}\n",
    );
    let found = found_paths(root, &["--policy", "policy.toml", "--format", "json", "."]);
    assert_eq!(
        found,
        rows(&[
            ("no-group-or-world-write", "modules/site/manifests/dropin.pp", 2),
            ("no-group-or-world-write", "modules/site/manifests/profile.pp", 3),
            ("no-group-or-world-write", "modules/site/manifests/store.pp", 2),
        ])
    );
    let report = json(&mplint(&["--policy", "policy.toml", "--format", "json", "."], root));
    let store = &report["findings"][2]["message"];
    assert!(
        store
            .as_str()
            .unwrap()
            .contains("is '2777', which sets bits beyond 0755: setgid, write for the group, write for others"),
        "{store}"
    );
    let variable = &report["findings"][1]["message"];
    assert!(variable.as_str().unwrap().contains("which sets bits beyond 0755: write for the group"), "{variable}");
}

#[test]
fn rule_levels_per_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "gradual.toml", readme_example_with("[[override]]", "name = \"gradual\""));
    // A duplicate key (a warning by default) in new and in legacy code.
    let code = "$h = { 'a' => 1, 'a' => 2 }\nnotice($h)\n";
    write(root, "site/new/manifests/init.pp", format!("class new {{\n{code}}}\n"));
    write(root, "site/legacy/manifests/init.pp", format!("class legacy {{\n{code}  include absent::thing\n}}\n"));
    write(root, "modules/vendored/manifests/init.pp", format!("class vendored {{\n{code}}}\n"));
    let levels = |args: &[&str]| -> Vec<(String, String, String)> {
        let report = json(&mplint(args, root));
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_string(),
                    f["path"].as_str().unwrap().split('/').nth(1).unwrap().to_string(),
                    f["level"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let row = |r: &str, p: &str, l: &str| (r.to_string(), p.to_string(), l.to_string());
    assert_eq!(
        levels(&["--policy", "gradual.toml", "--format", "json", "."]),
        [
            row("duplicate-key", "vendored", "warning"),
            row("duplicate-key", "legacy", "warning"),
            row("missing-module", "legacy", "warning"),
            row("duplicate-key", "new", "error"),
        ]
    );
    // The command line's level holds everywhere.
    assert_eq!(
        levels(&["--policy", "gradual.toml", "--rule", "duplicate-key=note", "--format", "json", "."]),
        [
            row("duplicate-key", "vendored", "note"),
            row("duplicate-key", "legacy", "note"),
            row("missing-module", "legacy", "warning"),
            row("duplicate-key", "new", "note"),
        ]
    );
    // A later override wins; a rule named beside "*" keeps its level.
    write(
        root,
        ".mplint.toml",
        "policies = [\"gradual.toml\"]\n[[override]]\npaths = [\"site/legacy\"]\nrules = { \"*\" = \"off\", missing-module = \"note\" }\n",
    );
    assert_eq!(
        levels(&["--format", "json", "."]),
        [
            row("duplicate-key", "vendored", "warning"),
            row("missing-module", "legacy", "note"),
            row("duplicate-key", "new", "error"),
        ]
    );
    // A suppression of a rule an override turns off is not called useless.
    write(root, ".mplint.toml", "[[override]]\npaths = [\"site/legacy\"]\nrules = { duplicate-key = \"off\" }\n");
    write(
        root,
        "site/legacy/manifests/init.pp",
        "class legacy {\n  $h = { 'a' => 1, 'a' => 2 } # mplint:ignore:duplicate-key\n  notice($h)\n}\n",
    );
    let found = levels(&["--format", "json", "."]);
    assert_eq!(found, [row("duplicate-key", "vendored", "warning"), row("duplicate-key", "new", "warning")]);
}

/// The TOML example of `policies/README.md` that holds both texts.
fn readme_example_with(a: &str, b: &str) -> String {
    let readme = std::fs::read_to_string(crate::support::repo().join("policies/README.md")).unwrap();
    readme
        .split("```toml\n")
        .skip(1)
        .map(|block| block.split("```").next().unwrap())
        .find(|block| block.contains(a) && block.contains(b))
        .unwrap_or_else(|| panic!("no example with {a} and {b}"))
        .to_string()
}

/// Every finding's related messages, by (rule, path, line).
fn related_of(report: &serde_json::Value, path: &str, line: u64) -> Vec<String> {
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path && f["start"]["line"] == line)
        .unwrap_or_else(|| panic!("no finding at {path}:{line}: {report}"));
    finding["related"].as_array().unwrap().iter().map(|r| r["message"].as_str().unwrap().to_string()).collect()
}

#[test]
fn deny_node_scope_makes_each_node_scope_read_an_error_naming_the_node_and_the_assignment() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules\n");
    write(
        root,
        "manifests/site.pp",
        concat!(
            "$site = 'ams'\n",
            "node 'web01.example.com' {\n  $port = 8080\n  $vhost = 'www'\n  include role::web\n}\n",
            "node 'db01.example.com' {\n  $datadir = '/srv/db'\n  include profile::db\n}\n",
        ),
    );
    write(root, "modules/role/manifests/web.pp", "class role::web {\n  include profile::web\n}\n");
    // Reads of node scope by a class, a defined type, another node's class;
    // the site's own global read qualified is no leak.
    write(
        root,
        "modules/profile/manifests/web.pp",
        "class profile::web {\n  notify { \"${port} ${::site}\": }\n  notify { $vhost: }\n  profile::vhost { 'main': }\n}\n",
    );
    write(
        root,
        "modules/profile/manifests/vhost.pp",
        "define profile::vhost {\n  notify { \"${title} ${port}\": }\n}\n",
    );
    write(
        root,
        "modules/profile/manifests/db.pp",
        "class profile::db {\n  file { $datadir: ensure => directory }\n}\n",
    );
    let args = ["--policy", "deny-node-scope", "--format", "json", "."];
    let output = mplint(&args, root);
    assert_eq!(output.status.code(), Some(1));
    let found = found_paths(root, &args);
    assert_eq!(
        found,
        rows(&[
            ("node-scope-leak", "modules/profile/manifests/db.pp", 2),
            ("node-scope-leak", "modules/profile/manifests/vhost.pp", 2),
            ("node-scope-leak", "modules/profile/manifests/web.pp", 2),
            ("node-scope-leak", "modules/profile/manifests/web.pp", 3),
        ]),
        "one finding per read of node scope"
    );
    let report = json(&output);
    assert!(report["findings"].as_array().unwrap().iter().all(|f| f["level"] == "error"), "{report}");
    let db = related_of(&report, "modules/profile/manifests/db.pp", 2);
    assert!(db.iter().any(|m| m == "`$datadir` assigned here by node 'db01.example.com'"), "{db:?}");
    let vhost = related_of(&report, "modules/profile/manifests/vhost.pp", 2);
    assert!(vhost.iter().any(|m| m == "`$port` assigned here by node 'web01.example.com'"), "{vhost:?}");
    // `modules/` alone, without the site: the same reads, each one that
    // only a declaring node or top scope can provide.
    let modules_only = ["--policy", "deny-node-scope", "--format", "json", "modules/"];
    assert_eq!(mplint(&modules_only, root).status.code(), Some(1));
    assert_eq!(found_paths(root, &modules_only), found);

    // The same classes given their values as parameters: no leak, exit 0.
    write(
        root,
        "manifests/site.pp",
        "$site = 'ams'\nnode 'web01.example.com' {\n  class { 'profile::db': datadir => '/srv/db' }\n}\n",
    );
    write(
        root,
        "modules/profile/manifests/db.pp",
        "class profile::db (String $datadir) {\n  file { $datadir: ensure => directory }\n}\n",
    );
    std::fs::remove_dir_all(root.join("modules/role")).unwrap();
    std::fs::remove_file(root.join("modules/profile/manifests/web.pp")).unwrap();
    std::fs::remove_file(root.join("modules/profile/manifests/vhost.pp")).unwrap();
    let clean = mplint(&["--policy", "deny-node-scope", "."], root);
    assert_eq!(clean.status.code(), Some(0), "{}", String::from_utf8_lossy(&clean.stdout));
}

#[test]
fn deny_node_scope_forbids_unqualified_reads_of_top_scope_variables_that_are_not_facts() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "environment.conf", "modulepath = modules\n");
    write(root, ".mplint.toml", "[include-functions.role]\nclass = \"role::{}\"\nsets = [\"_role\"]\n");
    // The hierarchy interpolates `$tier`, which the site sets itself.
    write(root, "hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: tier\n    path: \"%{::tier}.yaml\"\n");
    write(
        root,
        "manifests/site.pp",
        concat!(
            "$foo = 'top'\n",
            "$tier = 'prod'\n",
            "$shared = 'top'\n",
            "node 'web01.example.com' {\n  $shared = 'node'\n  role('web')\n}\n",
            "node 'db01.example.com' {\n  include app\n}\n",
        ),
    );
    write(root, "modules/role/manifests/web.pp", "class role::web {\n  include app\n  include app::local\n}\n");
    write(
        root,
        "modules/app/manifests/init.pp",
        concat!(
            "class app {\n",
            "  notify { \"unqualified ${foo}\": }\n",
            "  notify { \"qualified ${::foo}\": }\n",
            "  notify { \"fact ${os}\": }\n",
            "  notify { \"node or top ${shared}\": }\n",
            "  notify { \"from the role function ${_role}\": }\n",
            "  notify { \"interpolated by hiera ${tier}\": }\n",
            "  app::dir { '/srv': }\n",
            "}\n",
        ),
    );
    write(
        root,
        "modules/app/manifests/local.pp",
        "class app::local {\n  $foo = 'local'\n  notify { \"local ${foo}\": }\n}\n",
    );
    write(
        root,
        "modules/app/manifests/dir.pp",
        "define app::dir {\n  file { \"${title}/${foo}\": ensure => directory }\n}\n",
    );
    // A usage example's top scope stands in for the declarer: not reported.
    write(root, "modules/app/examples/init.pp", "$foo = 'example'\n$shared = 'example'\ninclude app\n");
    write(root, "modules/app/manifests/uses.pp", "class app::uses {\n  notify { $foo: }\n}\n");
    // No node declares it; one that did might answer the read from its own
    // scope, as web01 does for `$shared`: not certain, not reported.
    write(root, "modules/app/manifests/elsewhere.pp", "class app::elsewhere {\n  notify { $shared: }\n}\n");

    let args = ["--policy", "deny-node-scope", "--format", "json", "."];
    let found = found_paths(root, &args);
    assert_eq!(
        found,
        rows(&[
            ("top-scope-variable", "modules/app/manifests/dir.pp", 2),
            ("top-scope-variable", "modules/app/manifests/init.pp", 2),
            ("top-scope-fact", "modules/app/manifests/init.pp", 4),
            ("node-scope-leak", "modules/app/manifests/init.pp", 5),
            ("top-scope-variable", "modules/app/manifests/init.pp", 6),
            ("top-scope-variable", "modules/app/manifests/init.pp", 7),
            ("top-scope-variable", "modules/app/manifests/uses.pp", 2),
        ])
    );
    let report = json(&mplint(&args, root));
    let finding = &report["findings"][1];
    assert_eq!(finding["level"], "error");
    assert_eq!(
        finding["message"],
        "class `app` reads the top-scope variable `$foo` unqualified: write `$::foo`, or make it a class parameter"
    );
    let related = related_of(&report, "modules/app/manifests/init.pp", 2);
    assert_eq!(related[0], "`$foo` assigned here, at top scope", "{related:?}");
    let role = related_of(&report, "modules/app/manifests/init.pp", 6);
    assert_eq!(role[0], "`$_role` set at top scope by this call", "{role:?}");
    let dir_related = related_of(&report, "modules/app/manifests/dir.pp", 2);
    assert!(report["findings"][0]["message"].as_str().unwrap().contains("make it a parameter of the defined type"));
    assert!(dir_related.iter().any(|m| m.contains("`app::dir['/srv']` declared by `app`")), "{dir_related:?}");

    // Off unless turned on.
    let plain = found_paths(root, &["--format", "json", "."]);
    assert!(plain.iter().all(|(rule, _, _)| rule != "top-scope-variable"), "{plain:?}");
    let one = found_paths(root, &["--rule", "top-scope-variable=warning", "--format", "json", "."]);
    assert_eq!(one.iter().filter(|(rule, _, _)| rule == "top-scope-variable").count(), 5, "{one:?}");
}

#[test]
fn a_deferred_call_counts_as_a_call_of_the_function_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "policy.toml", readme_example("no-inline-templates"));
    write(root, "environment.conf", "modulepath = site:modules\n");
    write(root, "manifests/site.pp", "node 'web01' {\n  include role::web\n}\n");
    write(
        root,
        "site/role/manifests/web.pp",
        "class role::web {\n  include profile::web\n  class { 'profile::given': function => 'inline_epp' }\n}\n",
    );
    write(
        root,
        "site/profile/manifests/web.pp",
        concat!(
            "class profile::web (String $by_default = 'inline_template') {\n",
            "  $renderer = 'inline_epp'\n",
            "  notify { 'literal': message => Deferred('inline_epp', ['x']) }\n",
            "  notify { 'variable': message => Deferred($renderer, ['x']) }\n",
            "  notify { 'default': message => Deferred($by_default, ['x']) }\n",
            "  notify { 'method': message => Deferred.new('inline_epp', ['x']) }\n",
            "  notify { 'new': message => new(Deferred, 'inline_template', ['x']) }\n",
            "  notify { 'hash': message => Deferred({ 'name' => 'inline_epp', 'arguments' => ['x'] }) }\n",
            // Not forbidden, or not knowable.
            "  notify { 'allowed': message => Deferred('sprintf', ['%s', 'x']) }\n",
            "  notify { 'unknown': message => Deferred($facts['renderer'], ['x']) }\n",
            "  if $renderer == 'none' {\n    notify { 'never run, still written': message => Deferred('inline_template', []) }\n  }\n",
            "}\n",
        ),
    );
    write(
        root,
        "site/profile/manifests/given.pp",
        "class profile::given (String $function) {\n  notify { 'given': message => Deferred($function, []) }\n}\n",
    );
    write(
        root,
        "site/profile/functions/later.pp",
        "function profile::later() {\n  Deferred('inline_template', [])\n}\n",
    );
    let args = ["--policy", "policy.toml", "--format", "json", "."];
    let found = found_paths(root, &args);
    assert_eq!(
        found,
        rows(&[
            ("no-inline-templates", "site/profile/functions/later.pp", 2),
            ("no-inline-templates", "site/profile/manifests/given.pp", 2),
            ("no-inline-templates", "site/profile/manifests/web.pp", 3),
            ("no-inline-templates", "site/profile/manifests/web.pp", 4),
            ("no-inline-templates", "site/profile/manifests/web.pp", 5),
            ("no-inline-templates", "site/profile/manifests/web.pp", 6),
            ("no-inline-templates", "site/profile/manifests/web.pp", 7),
            ("no-inline-templates", "site/profile/manifests/web.pp", 8),
            ("no-inline-templates", "site/profile/manifests/web.pp", 12),
        ])
    );
    let report = json(&mplint(&args, root));
    let literal = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "site/profile/manifests/web.pp" && f["start"]["line"] == 3)
        .unwrap();
    assert!(
        literal["message"].as_str().unwrap().contains("`inline_epp` is called here through `Deferred`"),
        "{literal}"
    );
    let flow: Vec<&str> = literal["flow"].as_array().unwrap().iter().map(|s| s["message"].as_str().unwrap()).collect();
    assert_eq!(flow[0], "`role::web` included by node 'web01'", "{literal}");
}
