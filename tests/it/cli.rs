//! The `mplint` command end to end: exit statuses, formats, file discovery
//! and inputs that must never crash it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{json, mplint, mplint_command, repo, write};

fn no_crash(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked") && !stderr.contains("overflow"), "crashed: {stderr}");
    assert!(output.status.code().is_some(), "killed by a signal: {:?}", output.status);
}

#[test]
fn syntax_error_points_where_puppet_does() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.pp", "class a { $x = 1 + }\n");
    let output = mplint(&["--format", "json", "a.pp"], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{report}");
    assert_eq!(findings[0]["rule"], "syntax-error");
    assert_eq!(findings[0]["start"]["line"], 1);
    // `puppet parser validate` reports line 1, column 20 (the `}`).
    let column = findings[0]["start"]["column"].as_i64().unwrap();
    assert!((column - 20).abs() <= 2, "column {column}");
}

#[test]
fn clean_files_exit_zero_and_other_files_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "good.pp", "class good { notice('hi') }\n");
    write(dir.path(), "bad.pp", "class bad {\n");
    write(dir.path(), "also_good.pp", "$x = 1\n");
    let output = mplint(&["--format", "json", "."], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    assert_eq!(report["summary"]["files"], 3);
    assert_eq!(report["findings"].as_array().unwrap().len(), 1);
    assert_eq!(report["findings"][0]["path"], "bad.pp");

    let clean = mplint(&["good.pp", "also_good.pp"], dir.path());
    assert_eq!(clean.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&clean.stdout).contains("Checked 2 files: 0 errors"));
}

#[test]
fn empty_file_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "empty.pp", "");
    let output = mplint(&["--format", "json", "empty.pp"], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json(&output)["findings"].as_array().unwrap().len(), 0);
}

#[test]
fn invalid_utf8_and_binary_files_are_findings() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "latin1.pp", b"notice('caf\xe9')\n");
    write(dir.path(), "binary.pp", b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe\x00\x01");
    write(dir.path(), "bom.pp", "\u{feff}notice(1)\n");
    let output = mplint(&["--format", "json", "."], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    let messages: Vec<(String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap().to_string(), f["message"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages[0].0 == "binary.pp" && messages[0].1.contains("binary"), "{messages:?}");
    assert!(messages[1].0 == "bom.pp" && messages[1].1.contains("byte order mark"), "{messages:?}");
    assert!(messages[2].0 == "latin1.pp" && messages[2].1.contains("UTF-8"), "{messages:?}");
    // The invalid byte is where the finding points.
    assert_eq!(report["findings"][2]["start"]["column"], 12);
}

#[test]
fn ten_thousand_levels_of_nesting_are_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let n = 10_000;
    write(dir.path(), "parens.pp", format!("$x = {}1{}\n", "(".repeat(n), ")".repeat(n)));
    write(dir.path(), "sum.pp", format!("$x = {}\n", vec!["1"; n].join(" + ")));
    write(dir.path(), "arrays.pp", format!("$x = {}{}\n", "[".repeat(n), "]".repeat(n)));
    write(dir.path(), "ifs.pp", format!("$a = $facts['x']\n{}{}\n", "if $a { ".repeat(n), "}".repeat(n)));
    let output = mplint(&["--format", "json", "."], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(json(&output)["summary"]["files"], 4);
}

#[test]
fn nesting_beyond_the_limit_is_reported_not_overflowed() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    write(dir.path(), "deep.pp", format!("$x = {}{}\n", "[".repeat(n), "]".repeat(n)));
    write(dir.path(), "unclosed.pp", format!("$x = {}\n", "(".repeat(n)));
    let output = mplint(&["--format", "json", "."], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(1));
    let report = json(&output);
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{report}");
    assert!(findings[0]["message"].as_str().unwrap().contains("levels deep"), "{report}");
    assert!(findings[1]["message"].as_str().unwrap().contains("end of file"), "{report}");
}

#[test]
fn twenty_megabyte_manifest_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::with_capacity(21_000_000);
    let mut i = 0;
    while text.len() < 20_000_000 {
        text.push_str(&format!(
            "file {{ '/srv/f{i}': ensure => file, content => \"line ${{name}} {i}\", mode => '0644' }}\n"
        ));
        i += 1;
    }
    write(dir.path(), "huge.pp", &text);
    // Parsed, not read back from the cache (which the cache's tests cover).
    let output = mplint(&["--no-cache", "--format", "json", "huge.pp"], dir.path());
    no_crash(&output);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json(&output)["summary"]["files"], 1);
}

#[test]
fn output_is_identical_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..40 {
        let content = if i % 3 == 0 { format!("class c{i} {{ $x = }}\n") } else { format!("class c{i} {{ }}\n") };
        write(dir.path(), &format!("m{}/manifests/init.pp", i % 7), "");
        write(dir.path(), &format!("m{}/manifests/c{i}.pp", i % 7), content);
    }
    for format in ["json", "sarif", "human"] {
        let one = mplint(&["--format", format, "--jobs", "1", "."], dir.path());
        let two = mplint(&["--format", format, "--jobs", "2", "."], dir.path());
        let many = mplint(&["--format", format, "--jobs", "8", "."], dir.path());
        assert_eq!(one.stdout, two.stdout, "{format} differs between 1 and 2 jobs");
        assert_eq!(one.stdout, many.stdout, "{format} differs between 1 and 8 jobs");
    }
}

#[test]
fn sarif_report_names_rules_and_locations() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/a.pp", "class a { $x = 1 + }\n");
    let output = mplint(&["--format", "sarif", "site"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let sarif = json(&output);
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "mplint");
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "syntax-error");
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(run["tool"]["driver"]["rules"][index]["id"], "syntax-error");
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "site/a.pp");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 1);
    assert_eq!(location["region"]["startColumn"], 20);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

#[test]
fn output_option_writes_the_report_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.pp", "notice(1)\n");
    let output = mplint(&["--format", "json", "--output", "report.json", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["summary"]["files"], 1);
}

#[test]
fn discovery_walks_directories_for_manifests_only() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "modules/a/manifests/init.pp", "class a { }\n");
    write(dir.path(), "modules/a/templates/x.erb", "<%= @x %>\n");
    write(dir.path(), "modules/a/README.md", "# a\n");
    write(dir.path(), ".git/hooks/bad.pp", "class {\n");
    write(dir.path(), "vendor/broken.pp", "class {\n");
    write(dir.path(), "spec/fixtures/broken.pp", "class {\n");
    let output = mplint(&["--format", "json", "--exclude", "vendor", "--exclude", "spec/fixtures", "."], dir.path());
    no_crash(&output);
    let report = json(&output);
    assert_eq!(report["summary"]["files"], 1, "{report}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn gitignored_files_are_skipped_inside_a_git_checkout() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("SKIPPED: git is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    assert!(Command::new("git").args(["init", "-q"]).current_dir(dir.path()).status().unwrap().success());
    write(dir.path(), ".gitignore", "generated/\n");
    write(dir.path(), "generated/broken.pp", "class {\n");
    write(dir.path(), "site.pp", "node default { }\n");
    let output = mplint(&["--format", "json", "."], dir.path());
    assert_eq!(json(&output)["summary"]["files"], 1);
    assert_eq!(output.status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_broken_links_are_notices() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "mod/manifests/init.pp", "class mod { }\n");
    std::os::unix::fs::symlink("..", dir.path().join("mod/manifests/loop")).unwrap();
    std::os::unix::fs::symlink("missing.pp", dir.path().join("mod/manifests/dangling.pp")).unwrap();
    // Not a manifest: nothing to say about it.
    std::fs::create_dir_all(dir.path().join("mod/files")).unwrap();
    std::os::unix::fs::symlink("/no/such/.my.cnf", dir.path().join("mod/files/.my.cnf")).unwrap();
    let output = mplint(&["--format", "json", "mod"], dir.path());
    no_crash(&output);
    let report = json(&output);
    assert_eq!(report["summary"]["files"], 1, "{report}");
    let notices = report["notices"].as_array().unwrap();
    let kinds: Vec<&str> = notices.iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"link-loop"), "{report}");
    assert!(kinds.contains(&"unreadable"), "{report}");
    assert!(!report["notices"].to_string().contains(".my.cnf"), "{report}");
    assert_eq!(notices.len(), 2, "{report}");
    // Found while walking, not named by the user: no usage error.
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn usage_errors_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let missing = mplint(&["no/such/dir"], dir.path());
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stdout).contains("no/such/dir"));
    let bad_format = mplint(&["--format", "xml", "."], dir.path());
    assert_eq!(bad_format.status.code(), Some(2));
    let bad_jobs = mplint(&["--jobs", "0", "."], dir.path());
    assert_eq!(bad_jobs.status.code(), Some(2));
    let bad_glob = mplint(&["--exclude", "a[", "."], dir.path());
    assert_eq!(bad_glob.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_glob.stderr).contains("--exclude"));
}

#[test]
fn version_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let version = mplint(&["--version"], dir.path());
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with(concat!("mplint ", env!("CARGO_PKG_VERSION"))));
    let help = mplint(&["--help"], dir.path());
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8_lossy(&help.stdout);
    for option in ["--format", "--output", "--jobs", "--exclude", "Exit status"] {
        assert!(text.contains(option), "--help lacks {option}");
    }
}

/// Findings with every path made absolute against the directory mplint ran
/// in, so that runs from different directories compare.
fn absolute_findings(output: &Output, cwd: &Path) -> Vec<String> {
    let report = json(output);
    let absolute = |p: &serde_json::Value| {
        let p = Path::new(p.as_str().unwrap());
        let joined = cwd.join(p);
        std::fs::canonicalize(&joined).unwrap_or(joined).display().to_string()
    };
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let related: Vec<String> = f["related"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| format!("{}:{} {}", absolute(&r["path"]), r["start"]["line"], r["message"]))
                .collect();
            format!(
                "{} {}:{}:{} {} {:?}",
                f["rule"],
                absolute(&f["path"]),
                f["start"]["line"],
                f["start"]["column"],
                f["message"],
                related
            )
        })
        .collect()
}

#[test]
fn the_same_findings_however_the_tree_is_named() {
    let repo = repo();
    let site = repo.join("examples/demo-site");
    let absolute_site = site.display().to_string();
    let runs: Vec<(Vec<&str>, PathBuf)> = vec![
        (vec![], site.clone()),
        (vec!["."], site.clone()),
        (vec!["./"], site.clone()),
        (vec![absolute_site.as_str()], site.clone()),
        (vec![absolute_site.as_str()], repo.to_path_buf()),
        (vec![".."], site.join("manifests")),
        (vec!["../"], site.join("manifests")),
        (vec!["examples/demo-site"], repo.to_path_buf()),
        (vec!["./examples//demo-site/../demo-site"], repo.to_path_buf()),
    ];
    let mut expected: Option<Vec<String>> = None;
    for (args, cwd) in runs {
        let mut all = vec!["--format", "json"];
        all.extend(&args);
        let output = mplint(&all, &cwd);
        no_crash(&output);
        let findings = absolute_findings(&output, &cwd);
        assert!(findings.iter().any(|f| f.contains("node-scope-leak")), "{args:?} in {}: {findings:#?}", cwd.display());
        assert!(!findings.iter().any(|f| f.contains("unknown-class")), "{args:?} in {}: {findings:#?}", cwd.display());
        match &expected {
            None => expected = Some(findings),
            Some(first) => assert_eq!(first, &findings, "{args:?} in {}", cwd.display()),
        }
    }
}

#[test]
fn syntax_only_reports_what_files_alone_show() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include profile::base\n}\n");
    write(root, "modules/profile/manifests/base.pp", "class profile::base {\n  notify { $missing: }\n}\n");
    write(root, "modules/profile/manifests/broken.pp", "class profile::broken {\n  notify { 'x'\n}\n");
    let full = json(&mplint(&["--format", "json", "."], root));
    let rules = |report: &serde_json::Value| -> Vec<String> {
        report["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect()
    };
    assert!(rules(&full).contains(&"undefined-variable".to_string()), "{full}");
    let output = mplint(&["--syntax-only", "--format", "json", "."], root);
    assert_eq!(output.status.code(), Some(1));
    let syntax = json(&output);
    assert_eq!(rules(&syntax), ["syntax-error"], "{syntax}");
}

#[test]
fn subcommands_list_and_explain_rules() {
    let dir = tempfile::tempdir().unwrap();
    let rules = mplint(&["rules"], dir.path());
    assert_eq!(rules.status.code(), Some(0));
    let text = String::from_utf8_lossy(&rules.stdout);
    for rule in mplint::rules::ALL_RULES {
        let line = text.lines().find(|l| l.starts_with(&format!("{} ", rule.id))).expect(rule.id);
        let level = if mplint::rules::on_by_default(rule.id) { rule.default_level.as_str() } else { "off" };
        assert!(line.contains(&format!(" {level} ")) && line.contains(rule.summary), "{line}");
    }
    let doc = mplint(&["rule", "node-scope-leak"], dir.path());
    assert_eq!(doc.status.code(), Some(0));
    let text = String::from_utf8_lossy(&doc.stdout);
    assert!(
        text.starts_with("node-scope-leak\n===============\n") && text.contains("What it does\n------------"),
        "{text}"
    );
    assert!(!text.contains("```") && !text.contains("**"), "{text}");

    let unknown = mplint(&["rule", "node-scope-leek"], dir.path());
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("did you mean `node-scope-leak`?"));
}

#[test]
fn a_directory_named_like_a_subcommand_stays_reachable() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "rules/a.pp", "$a = 1\n$a = 2\n");
    let output = mplint(&["--format", "json", "./rules"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json(&output)["findings"][0]["rule"], "variable-reassigned");
    // Options before it make it a path too.
    let output = mplint(&["--format", "json", "rules"], dir.path());
    assert_eq!(json(&output)["findings"][0]["path"], "rules/a.pp");
    // A mistyped subcommand is a missing path, with a hint.
    let output = mplint(&["rulez"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("did you mean the subcommand `mplint rules`?"));
    // And `mplint rules` is the subcommand.
    assert!(String::from_utf8_lossy(&mplint(&["rules"], dir.path()).stdout).contains("node-scope-leak"));
}

#[test]
fn rule_levels_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".mplint.toml", "[rules]\nvariable-reassigned = \"off\"\n");
    write(dir.path(), "a.pp", "$a = 1\n$a = 2\ninclude nosuchmodule\n");
    let rules = |args: &[&str]| -> Vec<(String, String)> {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        all.push("a.pp");
        json(&mplint(&all, dir.path()))["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["rule"].as_str().unwrap().to_string(), f["level"].as_str().unwrap().to_string()))
            .collect()
    };
    assert_eq!(rules(&[]), [("missing-module".to_string(), "note".to_string())]);
    assert_eq!(
        rules(&["--rule", "variable-reassigned=warning", "--rule", "missing-module=off"]),
        [("variable-reassigned".to_string(), "warning".to_string())]
    );
    let output = mplint(&["--rule", "variable-reasigned=error", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("did you mean `variable-reassigned`?"));
    let output = mplint(&["--rule", "variable-reassigned=loud", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("level `loud`"));
}

#[test]
fn standard_input_is_checked_as_the_named_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "modules/app/manifests/init.pp", "class app { include app::params }\n");
    write(dir.path(), "modules/app/manifests/params.pp", "class app::params { }\n");
    // The editor's unsaved text: the file on disk is different, or not there yet.
    let check_stdin = |name: &str, text: &[u8]| -> Output {
        let mut child = mplint_command()
            .args(["--format", "json", "--stdin-filename", name, "-"])
            .current_dir(dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(text).unwrap();
        child.wait_with_output().unwrap()
    };
    for name in ["modules/app/manifests/init.pp", "modules/app/manifests/unsaved.pp"] {
        let output = check_stdin(name, b"class app {\n  include app::params\n  $x = 1\n  $x = 2\n}\n");
        assert_eq!(output.status.code(), Some(1));
        let report = json(&output);
        assert_eq!(report["summary"]["files"], 1, "{report}");
        let findings = report["findings"].as_array().unwrap();
        let reassigned: Vec<&serde_json::Value> =
            findings.iter().filter(|f| f["rule"] == "variable-reassigned").collect();
        assert_eq!(reassigned.len(), 1, "{report}");
        assert_eq!(reassigned[0]["path"], name);
        assert_eq!(reassigned[0]["start"]["line"], 4);
        assert!(findings.iter().all(|f| f["path"] == name), "{report}");
    }
    assert_eq!(check_stdin("clean.pp", b"notify { 'x': }\n").status.code(), Some(0));

    let output = mplint(&["--stdin-filename", "x.pp", "."], dir.path());
    assert_eq!(output.status.code(), Some(2), "--stdin-filename without -");
}

#[test]
fn quiet_and_statistics() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.pp", "$a = 1\n$a = 2\n$a = 3\ninclude nosuchmodule\n");
    let quiet = String::from_utf8(mplint(&["--quiet", "--color", "never", "a.pp"], dir.path()).stdout).unwrap();
    assert!(quiet.contains("variable-reassigned") && !quiet.contains("Checked 1 file"), "{quiet}");
    let clean = mplint(
        &["--quiet", "--color", "never", "--rule", "variable-reassigned=off", "--rule", "missing-module=off", "a.pp"],
        dir.path(),
    );
    assert!(clean.stdout.is_empty() && clean.stderr.is_empty());

    let stats = String::from_utf8(mplint(&["--statistics", "--color", "never", "a.pp"], dir.path()).stdout).unwrap();
    let table = &stats[stats.find("Findings by rule").expect(&stats)..];
    assert!(table.contains("     2  error    variable-reassigned\n"), "{table}");
    assert!(table.contains("     1  note     missing-module\n"), "{table}");
    assert!(table.contains("     3  total\n"), "{table}");
    // With a machine format, the table goes to standard error.
    let output = mplint(&["--statistics", "--format", "json", "a.pp"], dir.path());
    json(&output);
    assert!(String::from_utf8_lossy(&output.stderr).contains("     3  total"));
}

#[test]
fn init_writes_a_configuration_once() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(mplint(&["init"], dir.path()).status.code(), Some(0));
    let text = std::fs::read_to_string(dir.path().join(".mplint.toml")).unwrap();
    assert!(text.contains("# node-scope-leak = \"warning\""), "{text}");
    // mplint reads what it wrote.
    write(dir.path(), "a.pp", "notify { 'x': }\n");
    assert_eq!(mplint(&["a.pp"], dir.path()).status.code(), Some(0));
    let again = mplint(&["init"], dir.path());
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert_eq!(std::fs::read_to_string(dir.path().join(".mplint.toml")).unwrap(), text);
}

#[test]
fn completions_and_manual_page() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = mplint(&["completions", shell], dir.path());
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("stdin-filename") && text.contains("write-baseline"), "{shell}: {text}");
    }
    let man = mplint(&["manpage"], dir.path());
    assert_eq!(man.status.code(), Some(0));
    let text = String::from_utf8_lossy(&man.stdout);
    assert!(text.starts_with(".ie") || text.contains(".TH mplint"), "{text}");
    assert!(text.contains("\\-\\-baseline") && text.contains("completions"), "{text}");
}

#[test]
fn unknown_options_get_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let output = mplint(&["--formt", "json"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("a similar argument exists: '--format'"));
}

/// The rules and messages of a JSON report's findings.
fn rules_of(output: &Output) -> Vec<String> {
    json(output)["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_baseline_holds_back_todays_findings() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/a.pp", "$a = 1\n$a = 2\n$a = 2\n");
    write(dir.path(), "site/b.pp", "notify { \"${u}\": }\n");
    let written = mplint(&["--write-baseline", "mplint-baseline.json", "site"], dir.path());
    assert_eq!(written.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&written.stderr).contains("recorded 3 findings"));
    let baseline = std::fs::read_to_string(dir.path().join("mplint-baseline.json")).unwrap();
    assert!(!baseline.contains("\"line\""), "no line numbers: {baseline}");
    assert!(baseline.contains("\"count\": 2"), "the same finding twice is counted: {baseline}");

    // Nothing new: exit 0, nothing reported.
    let output = mplint(&["--format", "json", "--baseline", "mplint-baseline.json", "site"], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert!(rules_of(&output).is_empty());
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("3 findings held back by the baseline mplint-baseline.json; 0 of its findings are gone"));

    // Unrelated edits above, a third copy of a baselined finding, one fixed:
    // only the new copy is reported, and the fixed one is gone.
    write(dir.path(), "site/a.pp", "# header\n\n$a = 1\n$a = 2\n$a = 2\n$a = 2\n");
    write(dir.path(), "site/b.pp", "$u = 1\nnotify { \"${u}\": }\n");
    let output = mplint(&["--format", "json", "--baseline", "mplint-baseline.json", "site"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(rules_of(&output), ["variable-reassigned"]);
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("2 findings held back by the baseline mplint-baseline.json; 1 of its findings are gone"));

    // Paths are relative to the baseline: the same from another directory.
    let output = mplint(&["--format", "json", "--baseline", "../mplint-baseline.json", "."], &dir.path().join("site"));
    assert_eq!(rules_of(&output), ["variable-reassigned"]);
}

#[test]
fn a_broken_baseline_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.pp", "notify { 'x': }\n");
    write(dir.path(), "broken.json", "{ \"version\": 1, \"findings\": [ { \"fingerprint\": 3 } ] }\n");
    let output = mplint(&["--baseline", "broken.json", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken.json:1:") && stderr.contains("not an mplint baseline"), "{stderr}");
    let output = mplint(&["--baseline", "missing.json", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read the baseline missing.json"));
    write(dir.path(), "future.json", "{ \"version\": 9, \"findings\": [] }\n");
    let output = mplint(&["--baseline", "future.json", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("baseline version 9 is not supported"));
}

#[cfg(unix)]
#[test]
fn a_link_to_a_directory_holding_the_tree_is_not_followed() {
    // `environments/production -> ../..` leads above the repository, to the
    // checkouts beside it: none of them is the repository's code.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "repo/modules/nodejs/manifests/init.pp", "class nodejs { }\n");
    write(dir.path(), "repo/manifests/site.pp", "include nodejs\n");
    write(dir.path(), "other/manifests/site.pp", "class { 'nodejs': manage_repo => true }\n");
    std::fs::create_dir_all(dir.path().join("repo/environments")).unwrap();
    std::os::unix::fs::symlink("../..", dir.path().join("repo/environments/production")).unwrap();
    let output = mplint(&["--format", "json", "."], &dir.path().join("repo"));
    no_crash(&output);
    let report = json(&output);
    assert_eq!(report["summary"]["files"], 2, "{report}");
    assert_eq!(report["findings"], serde_json::json!([]), "{report}");
    let notices = report["notices"].to_string();
    assert!(
        notices.contains("environments/production: the symbolic link leads to a directory that holds"),
        "{notices}"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[cfg(unix)]
#[test]
fn a_file_reached_through_a_link_inside_the_tree_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "repo/code/site.pp", "notify { undef: }\n");
    std::fs::create_dir_all(dir.path().join("repo/tests")).unwrap();
    std::os::unix::fs::symlink("../code", dir.path().join("repo/tests/code")).unwrap();
    let output = mplint(&["--format", "json", "repo"], dir.path());
    no_crash(&output);
    let report = json(&output);
    let paths: Vec<&str> = report["findings"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["repo/code/site.pp"], "{report}");
}
