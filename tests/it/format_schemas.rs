//! The CI formats against the schemas their consumers publish (vendored in
//! `tests/schemas/`, with their sources): GitLab's JSON Schema for Code
//! Quality issues, the Jenkins xUnit plugin's JUnit XSD, and the structure
//! of Checkstyle XML. Python's `jsonschema` and `xmlschema` do the
//! validating; `.ci/run` installs them in `.ci/tools/schema-venv`.
//! Elsewhere the test skips, saying so, unless
//! `MPLINT_REQUIRE_SCHEMA_VALIDATORS` is set.

use std::path::PathBuf;
use std::process::Command;

use crate::support::{mplint_command, repo, write};

fn python() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("MPLINT_SCHEMA_PYTHON") {
        return Some(PathBuf::from(path));
    }
    let local = repo().join(".ci/tools/schema-venv/bin/python");
    local.is_file().then_some(local)
}

/// Validates the reports named on its command line; prints one line per
/// problem and `checked N reports` at the end.
const VALIDATE: &str = r#"
import json, sys, xml.etree.ElementTree as ET
import jsonschema, xmlschema
schemas = sys.argv[1]
gitlab = json.load(open(schemas + "/gitlab-codeclimate.json"))
junit = xmlschema.XMLSchema(schemas + "/junit-10.xsd")
problems = 0
def problem(text):
    global problems
    problems += 1
    print(text)
for report in sys.argv[2:]:
    if report.endswith(".gitlab.json"):
        issues = json.load(open(report))
        if not isinstance(issues, list):
            problem(f"{report}: not an array")
            continue
        for issue in issues:
            for error in jsonschema.Draft7Validator(gitlab).iter_errors(issue):
                problem(f"{report}: {error.message}")
            if issue.get("severity") not in ("info", "minor", "major", "critical", "blocker"):
                problem(f"{report}: severity {issue.get('severity')!r}")
            if not issue.get("location", {}).get("path"):
                problem(f"{report}: no location path")
        fingerprints = [i.get("fingerprint") for i in issues]
        if len(set(fingerprints)) != len(fingerprints):
            problem(f"{report}: fingerprints repeat")
    elif report.endswith(".junit.xml"):
        for error in junit.iter_errors(report):
            problem(f"{report}: {error.reason} at {error.path}")
    elif report.endswith(".checkstyle.xml"):
        root = ET.parse(report).getroot()
        if root.tag != "checkstyle" or "version" not in root.attrib:
            problem(f"{report}: root {root.tag} {root.attrib}")
        for file in root:
            if file.tag != "file" or set(file.attrib) != {"name"}:
                problem(f"{report}: {file.tag} {file.attrib}")
            for error in file:
                if error.tag != "error" or set(error.attrib) != {"line", "column", "severity", "message", "source"}:
                    problem(f"{report}: {error.tag} {error.attrib}")
                if error.get("severity") not in ("error", "warning", "info"):
                    problem(f"{report}: severity {error.get('severity')}")
                if not (error.get("line").isdigit() and error.get("column").isdigit()):
                    problem(f"{report}: position {error.attrib}")
    else:
        problem(f"{report}: unknown kind")
print(f"checked {len(sys.argv) - 2} reports, {problems} problems")
sys.exit(1 if problems else 0)
"#;

#[test]
fn ci_formats_match_their_published_schemas() {
    let Some(python) = python() else {
        assert!(
            std::env::var_os("MPLINT_REQUIRE_SCHEMA_VALIDATORS").is_none(),
            "the schema validators are required but not installed (.ci/run installs them)"
        );
        eprintln!("SKIPPED ci_formats_match_their_published_schemas: no .ci/tools/schema-venv (see .ci/run)");
        return;
    };
    let root = repo();
    // Awkward text for XML and JSON: quotes, markup, a control character.
    let awkward = tempfile::tempdir().unwrap();
    write(awkward.path(), "a&b <c>.pp", "$x = \"it's <b>&amp;\"\n$x = 2\nnotify { \"${y}\u{1}\": }\nclass {\n");
    let targets: Vec<PathBuf> = vec![
        root.join("examples/demo-site"),
        root.join("tests/oracle/cases"),
        root.join("tests/fixtures/every-rule"),
        awkward.path().to_path_buf(),
    ];
    let out = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        for (format, suffix) in [("gitlab", "gitlab.json"), ("junit", "junit.xml"), ("checkstyle", "checkstyle.xml")] {
            let report = out.path().join(format!("{i}.{suffix}"));
            let status = mplint_command()
                .args(["--format", format, "--output"])
                .arg(&report)
                .arg(target)
                .current_dir(root)
                .status()
                .unwrap();
            assert!(status.code().is_some_and(|c| c <= 1), "mplint failed on {}", target.display());
            let text = std::fs::read_to_string(&report).unwrap();
            assert!(text.len() > 40, "{format} report of {} is empty: {text}", target.display());
            reports.push(report);
        }
    }
    let output = Command::new(&python)
        .args(["-c", VALIDATE])
        .arg(root.join("tests/schemas"))
        .args(&reports)
        .output()
        .expect("the validator runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    eprintln!("{}", text.lines().last().unwrap_or_default());
    assert!(output.status.success() && text.contains(", 0 problems"), "{text}");

    // The validators do reject what the schemas forbid.
    let bad_gitlab =
        write(out.path(), "bad.gitlab.json", r#"[{"description": "x", "severity": "major", "location": {}}]"#);
    let bad_junit =
        write(out.path(), "bad.junit.xml", r#"<testsuites><testsuite name="x" disabled="0"/></testsuites>"#);
    let output = Command::new(&python)
        .args(["-c", VALIDATE])
        .arg(root.join("tests/schemas"))
        .args([&bad_gitlab, &bad_junit])
        .output()
        .expect("the validator runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "{text}");
    assert!(text.contains("'fingerprint' is a required property") && text.contains("bad.junit.xml:"), "{text}");
}
