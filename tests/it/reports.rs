//! Reports, suppressions and configuration, end to end through the binary.

use std::path::Path;

use crate::support::{json, mplint, repo, stdout, write};

fn fixture() -> std::path::PathBuf {
    repo().join("tests/fixtures/every-rule")
}

#[test]
fn human_report_snapshot() {
    let output = mplint(&["--color", "never", "."], &fixture());
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("human", stdout(&output));
}

#[test]
fn human_report_with_suppressed_findings_snapshot() {
    let output = mplint(&["--color", "never", "--show-suppressed", "site.pp"], &fixture());
    let text = stdout(&output);
    assert!(text.contains("(suppressed)") && text.contains("suppressed by this comment"), "{text}");
    insta::assert_snapshot!("human_show_suppressed", text);
}

#[test]
fn json_report_snapshot() {
    let output = mplint(&["--format", "json", "."], &fixture());
    let report = json(&output);
    let rules: std::collections::BTreeSet<&str> =
        report["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    let on = mplint::rules::ALL_RULES.iter().filter(|r| mplint::rules::on_by_default(r.id)).count();
    assert_eq!(rules.len(), on, "the fixture must draw every rule on by default: {rules:?}");
    insta::assert_snapshot!("json", stdout(&output));
}

#[test]
fn github_report_snapshot() {
    let output = mplint(&["--format", "github", "."], &fixture());
    let text = stdout(&output);
    assert!(text
        .lines()
        .all(|l| l.starts_with("::error ") || l.starts_with("::warning ") || l.starts_with("::notice ")));
    insta::assert_snapshot!("github", text);
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let plain = stdout(&mplint(&["site.pp"], &fixture()));
    assert!(!plain.contains('\u{1b}'), "colour in a pipe");
    let coloured = stdout(&mplint(&["--color", "always", "site.pp"], &fixture()));
    assert!(coloured.contains('\u{1b}'), "no colour with --color always");
    let json = stdout(&mplint(&["--color", "always", "--format", "json", "site.pp"], &fixture()));
    assert!(!json.contains('\u{1b}'));
}

/// The fingerprints of the fixture's findings, by rule and message.
fn fingerprints(dir: &Path) -> Vec<(String, String, u64)> {
    let report = json(&mplint(&["--format", "json", "site.pp"], dir));
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["message"].as_str().unwrap().to_string(),
                f["fingerprint"].as_str().unwrap().to_string(),
                f["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn fingerprints_survive_lines_added_above() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string(fixture().join("site.pp")).unwrap();
    write(dir.path(), "site.pp", &original);
    let before = fingerprints(dir.path());
    write(dir.path(), "site.pp", format!("# a new header\n\n$unrelated = 1\n{original}"));
    let after = fingerprints(dir.path());
    assert_eq!(before.len(), after.len());
    for ((message, fp, line), (message_after, fp_after, line_after)) in before.iter().zip(&after) {
        assert_eq!(message, message_after);
        assert_eq!(line + 3, *line_after, "the finding moved down");
        assert_eq!(fp, fp_after, "fingerprint of '{message}' changed");
    }
    // Also in SARIF.
    let sarif: serde_json::Value =
        serde_json::from_slice(&mplint(&["--format", "sarif", "site.pp"], dir.path()).stdout).unwrap();
    let sarif_fps: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["partialFingerprints"]["mplintFingerprint/v1"].as_str().unwrap())
        .collect();
    let json_fps: Vec<&str> = after.iter().map(|(_, fp, _)| fp.as_str()).collect();
    assert_eq!(sarif_fps, json_fps);
}

#[test]
fn every_suppression_form() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "s.pp",
        concat!(
            "$a = 1\n$a = 2 # mplint:ignore:variable-reassigned\n",
            "# mplint:ignore:variable-reassigned, undefined-variable -- on the next line\n$a = 3\n",
            "# mplint:disable:undefined-variable\nnotify { \"${c::u1}\": }\nnotify { \"${c::u2}\": }\n# mplint:enable:undefined-variable\n",
            "notify { \"${c::u3}\": }\n",
            "# mplint:ignore:use-before-assign\nnotify { 'nothing to suppress': }\n",
            "$b = 1 # mplint:ignore:variable-reasigned\n",
            // Read before any code declares it: an error.
            "class c {\n}\n",
        ),
    );
    let report = json(&mplint(&["--format", "json", "s.pp"], dir.path()));
    let findings = report["findings"].as_array().unwrap();
    let at = |line: u64| -> Vec<(&str, bool)> {
        findings
            .iter()
            .filter(|f| f["start"]["line"] == line)
            .map(|f| (f["rule"].as_str().unwrap(), !f["suppressed"].is_null()))
            .collect()
    };
    assert_eq!(at(2), [("variable-reassigned", true)], "end of line");
    assert_eq!(at(4), [("variable-reassigned", true)], "line before");
    assert_eq!(at(6), [("undefined-variable", true)], "block");
    assert_eq!(at(7), [("undefined-variable", true)], "block");
    assert_eq!(at(9), [("undefined-variable", false)], "after the block");
    assert_eq!(at(10), [("useless-suppression", false)], "suppresses nothing");
    assert_eq!(at(12), [("useless-suppression", false)], "unknown rule");
    let messages: Vec<&str> = findings.iter().map(|f| f["message"].as_str().unwrap()).collect();
    assert!(messages.iter().any(|m| m.contains("suppresses nothing")));
    assert!(messages.iter().any(|m| m
        .contains("`variable-reasigned`, which mplint does not have; did you mean `variable-reassigned` for `variable-reasigned`?")));
    assert_eq!(report["summary"]["suppressed"], 4);

    // Suppressed findings stay in SARIF, marked in source.
    let sarif: serde_json::Value =
        serde_json::from_slice(&mplint(&["--format", "sarif", "s.pp"], dir.path()).stdout).unwrap();
    let suppressed = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["suppressions"][0]["kind"] == "inSource")
        .count();
    assert_eq!(suppressed, 4);
    // The exit status ignores suppressed findings: only line 9 remains.
    assert_eq!(mplint(&["s.pp"], dir.path()).status.code(), Some(1));
}

#[test]
fn configuration_is_found_upward_and_the_command_line_wins() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".mplint.toml",
        "fail-on = \"warning\"\n[rules]\nunknown-class = \"off\"\nnode-scope-leak = \"warning\"\n",
    );
    write(
        dir.path(),
        "modules/app/manifests/init.pp",
        "class app {\n  include app::missing\n  notify { \"${role}\": }\n}\n",
    );
    let module = dir.path().join("modules/app");
    // From inside the tree: the file is found; the leak warning fails the run.
    let report = json(&mplint(&["--format", "json", "."], &module));
    let rules: Vec<&str> = report["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["node-scope-leak"], "unknown-class is off");
    assert_eq!(mplint(&["."], &module).status.code(), Some(1), "fail-on warning");
    // The command line overrides the file.
    assert_eq!(mplint(&["--fail-on", "error", "."], &module).status.code(), Some(0));
    let strict = json(&mplint(&["--format", "json", "--policy", "deny-node-scope", "."], &module));
    assert_eq!(strict["findings"][0]["level"], "error");
    // An explicit file replaces the discovered one.
    write(dir.path(), "other.toml", "[rules]\nnode-scope-leak = \"off\"\n");
    let other = json(&mplint(&["--format", "json", "--config", "../../other.toml", "."], &module));
    assert_eq!(other["findings"].as_array().unwrap().len(), 1, "unknown-class back on, leak off: {other}");
    assert_eq!(other["findings"][0]["rule"], "unknown-class");
}

#[test]
fn bad_configuration_names_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".mplint.toml", "fail-on = \"error\"\n\n[rules]\nnode-scope-leek = \"error\"\n");
    write(dir.path(), "a.pp", "notify { 'x': }\n");
    let output = mplint(&["a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(".mplint.toml:4:1: unknown rule `node-scope-leek` in [rules]"), "{stderr}");

    write(dir.path(), ".mplint.toml", "fail-on = \"sometimes\"\n");
    let stderr = String::from_utf8_lossy(&mplint(&["a.pp"], dir.path()).stderr).into_owned();
    assert!(stderr.contains(".mplint.toml:1:11: `fail-on` is `sometimes`"), "{stderr}");

    std::fs::remove_file(dir.path().join(".mplint.toml")).unwrap();
    let output = mplint(&["--policy", "nope", "a.pp"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown policy `nope`"));
}

#[test]
fn gitlab_junit_and_checkstyle_reports_snapshot() {
    for format in ["gitlab", "junit", "checkstyle"] {
        let output = mplint(&["--format", format, "."], &fixture());
        assert_eq!(output.status.code(), Some(1));
        insta::assert_snapshot!(format, stdout(&output));
    }
}

#[test]
fn gitlab_fingerprints_are_the_stable_ones_and_suppressed_findings_stay_out() {
    let report: serde_json::Value = json(&mplint(&["--format", "gitlab", "."], &fixture()));
    let all = json(&mplint(&["--format", "json", "."], &fixture()));
    let unsuppressed: Vec<&str> = all["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["suppressed"].is_null())
        .map(|f| f["fingerprint"].as_str().unwrap())
        .collect();
    let gitlab: Vec<&str> = report.as_array().unwrap().iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
    assert_eq!(gitlab, unsuppressed);
}

#[test]
fn junit_fails_only_at_the_fail_on_level() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "clean.pp", "notify { 'x': }\n");
    write(dir.path(), "noted.pp", "include nosuchmodule\n");
    write(dir.path(), "broken.pp", "class {\n");
    let text = stdout(&mplint(&["--format", "junit", "."], dir.path()));
    assert!(text.contains(r#"<testsuites name="mplint" tests="3" failures="1" errors="0">"#), "{text}");
    assert!(text.contains(r#"<testcase name="clean.pp" classname="mplint"/>"#), "{text}");
    // The note is output, not a failure, below the default --fail-on error.
    let noted = &text[text.find(r#"name="noted.pp""#).unwrap()..];
    assert!(
        noted[..noted.find("</testcase>").unwrap()].contains("<system-out>noted.pp:1:9: note [missing-module]"),
        "{text}"
    );
    let text = stdout(&mplint(&["--format", "junit", "--fail-on", "note", "."], dir.path()));
    assert!(text.contains(r#"tests="3" failures="2""#), "{text}");
}

#[test]
fn sarif_leaves_credentials_out_of_the_repository_uri() {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    write(dir.path(), "site.pp", "$a = 1\n$a = 2\n");
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "x"]);
    git(&["remote", "add", "origin", "https://host/placeholder.git"]);
    for (remote, expected) in [
        ("https://user:token@host/x.git", "https://host/x.git"),
        ("https://alice:s3cr3t-pat@git.example.com:8443/site.git", "https://git.example.com:8443/site.git"),
        ("ssh://deploy:hunter2@host/x.git", "ssh://host/x.git"),
        ("alice@host:x.git", "ssh://host/x.git"),
    ] {
        git(&["remote", "set-url", "origin", remote]);
        let output = mplint(&["--format", "sarif", "."], dir.path());
        let text = stdout(&output);
        let sarif: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(sarif["runs"][0]["versionControlProvenance"][0]["repositoryUri"], expected, "{remote}");
        for secret in ["user:token", "user@", "alice", "s3cr3t-pat", "deploy", "hunter2"] {
            assert!(!text.contains(secret), "{secret} from {remote} is in the report");
        }
    }
}

#[test]
fn sarif_marks_security_relevant_rules() {
    let sarif = json(&mplint(&["--format", "sarif", "site.pp"], &fixture()));
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    let security: Vec<(&str, &str)> = rules
        .iter()
        .filter(|r| r["properties"]["tags"].as_array().unwrap().iter().any(|t| t == "security"))
        .map(|r| (r["id"].as_str().unwrap(), r["properties"]["security-severity"].as_str().unwrap()))
        .collect();
    assert_eq!(
        security,
        [
            ("node-scope-leak", "5.0"),
            ("security-admin-by-default", "5.0"),
            ("security-bind-all-interfaces", "5.0"),
            ("security-empty-password", "7.5"),
            ("security-hardcoded-secret", "7.5"),
            ("security-insecure-http", "6.0"),
            ("security-missing-integrity-check", "6.0"),
            ("security-secret-not-sensitive", "3.0"),
            ("security-weak-hash", "5.0"),
            ("security-world-writable", "7.0"),
            ("undefined-variable", "5.0"),
            ("use-before-assign", "5.0")
        ]
    );
    let others = rules.iter().filter(|r| r["properties"]["security-severity"].is_null()).count();
    assert_eq!(others, rules.len() - security.len());
    // Rules off by default say so.
    let secret = rules.iter().find(|r| r["id"] == "security-hardcoded-secret").unwrap();
    assert_eq!(secret["defaultConfiguration"]["enabled"], false);
}
