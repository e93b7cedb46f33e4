//! Inputs that once crashed mplint, made it run for minutes or exhaust
//! memory, each generated here rather than stored: every one must end in a
//! finding or a clean result. (How time and memory grow is measured by
//! `bench/pathological.py` and `bench/scaling.py`, not timed here.)

use std::path::Path;

use crate::support::{json, mplint, test_cache_dir, write};

/// Checks one file and returns its findings as (rule, line, column, message).
fn findings_for(name: &str, content: impl AsRef<[u8]>) -> Vec<(String, u64, u64, String)> {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), name, content);
    findings_in(dir.path())
}

fn findings_in(dir: &Path) -> Vec<(String, u64, u64, String)> {
    let output = mplint(&["--format", "json", "."], dir);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "crashed: {stderr}");
    assert!(matches!(output.status.code(), Some(0 | 1)), "{:?}: {stderr}", output.status);
    json(&output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["start"]["line"].as_u64().unwrap(),
                f["start"]["column"].as_u64().unwrap(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn only_syntax_error_at(findings: &[(String, u64, u64, String)], line: u64, column: u64) {
    assert_eq!(findings.len(), 1, "{findings:?}");
    let (rule, l, c, _) = &findings[0];
    assert_eq!((rule.as_str(), *l, *c), ("syntax-error", line, column), "{findings:?}");
}

#[test]
fn heredoc_with_an_unknown_flag_then_a_variable_line() {
    // Once made the external scanner allocate until the process aborted.
    only_syntax_error_at(&findings_for("heredoc.pp", "@(\"E\":n)\n$x\n"), 1, 9);
}

#[test]
fn big_hash_literal_is_checked() {
    let pairs: Vec<String> = (0..20_000).map(|i| format!("    'key{i}' => 'value{i}'")).collect();
    let text = format!("class big {{\n  $h = {{\n{}\n  }}\n  notice($h)\n}}\n", pairs.join(",\n"));
    assert_eq!(findings_for("big.pp", text), vec![]);
}

#[test]
fn long_line_of_variables_is_one_finding_per_rule() {
    let findings = findings_for("dollars.pp", "$x".repeat(40_000) + "\n");
    let rules: Vec<&str> = findings.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(rules, ["statement-without-effect", "undefined-variable"], "{findings:?}");
}

#[test]
fn strings_after_a_parameter_default() {
    // Error recovery over the strings took time quadratic in their number.
    let text = format!("class c ($p = 'd' {}) {{}}\n", "'x',".repeat(50_000));
    let findings = findings_for("params.pp", text);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].0, "syntax-error");
}

#[test]
fn nested_interpolation_openers() {
    only_syntax_error_at(&findings_for("openers.pp", "\"${[".repeat(4_000) + "\n"), 1, 1);
}

#[test]
fn invalid_list_assignment_line() {
    let findings = findings_for("list.pp", format!("$x = {}'x'\n", "'x',".repeat(25_000)));
    only_syntax_error_at(&findings, 1, 10);
    assert!(findings[0].3.starts_with("unexpected 'x'"), "{findings:?}");
}

#[test]
fn thousands_of_empty_parentheses() {
    // Describing the error climbed the tree from the error node, and
    // tree-sitter finds each parent from the root: quadratic in the depth.
    let n = 5_343;
    let findings = findings_for("parens.pp", format!("{}{}", "(".repeat(n), ")".repeat(n)));
    only_syntax_error_at(&findings, 1, n as u64 + 1);
}

#[test]
fn long_inheritance_chain_into_a_cycle() {
    // Each class walked the whole chain above it, and looked each step up
    // in the chain so far: cubic in the length of the chain.
    let dir = tempfile::tempdir().unwrap();
    let n = 600;
    for i in 0..n {
        let parent = match i {
            0 => String::new(),
            // The last 100 classes inherit in a cycle; the others lead into it.
            i if i == n - 100 => format!(" inherits m::c{}", n - 1),
            i => format!(" inherits m::c{}", i - 1),
        };
        write(dir.path(), &format!("modules/m/manifests/c{i}.pp"), format!("class m::c{i}{parent} {{ }}\n"));
    }
    write(dir.path(), "manifests/site.pp", "node default { include m::c0 }\n");
    let findings = findings_in(dir.path());
    let cycles: Vec<_> = findings.iter().filter(|f| f.0 == "inheritance-cycle").collect();
    assert_eq!(cycles.len(), 1, "{findings:?}");
    assert!(
        cycles[0].3.contains("`m::c599` → `m::c500`") || cycles[0].3.contains("`m::c500` → `m::c599`"),
        "{cycles:?}"
    );
}

#[test]
fn thousands_of_parentheses_in_a_module_of_a_tree() {
    // The same cause as above, found by the fuzzer through a whole check.
    let dir = tempfile::tempdir().unwrap();
    let n = 6_000;
    let body =
        format!("class m {{\n{}  notify {{ 'x':\n{}\n    before => [],\n  }}\n}}\n", "(".repeat(n), ")".repeat(n));
    write(dir.path(), "modules/m/manifests/init.pp", body);
    write(dir.path(), "manifests/site.pp", "node default { include m }\n");
    let findings = findings_in(dir.path());
    assert!(findings.iter().any(|f| f.0 == "syntax-error"), "{findings:?}");
}

/// Runs mplint's JSON report on `dir` and returns its findings and the
/// process's peak resident memory in KB. A small Python process starts it
/// and reads its peak: a child started straight from this large test
/// process would count the test's own pages until it execs.
fn findings_and_peak_kb(dir: &Path) -> (Vec<(String, u64, u64, String)>, u64) {
    let report = dir.join("report.json");
    let launcher = "import resource, subprocess, sys\n\
                    status = subprocess.run(sys.argv[1:]).returncode\n\
                    print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let output = std::process::Command::new("python3")
        .args(["-c", launcher, env!("CARGO_BIN_EXE_mplint"), "--format", "json", "--output"])
        .arg(&report)
        .arg(".")
        .current_dir(dir)
        .env("MPLINT_CACHE_DIR", test_cache_dir())
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let (status, peak_kb) = stdout.trim().split_once(' ').expect("status and peak");
    assert!(matches!(status, "0" | "1"), "{status}: {}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read(&report).unwrap();
    let findings = serde_json::from_slice::<serde_json::Value>(&text).unwrap()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap().to_string(), f["start"]["line"].as_u64().unwrap(), 0, String::new()))
        .collect();
    (findings, peak_kb.parse().unwrap())
}

#[test]
fn thousands_of_nested_nodes_on_one_long_line() {
    // Each finding on the line once copied the whole line into its
    // fingerprint: 8,192 findings × 65 KB, seven times the memory bound.
    let dir = tempfile::tempdir().unwrap();
    let n = 8_192;
    let text =
        format!("class m {{\n  if $facts['x'] {{\n{}$y = 1\n{}\n  }}\n}}\n", "node n {".repeat(n), "}".repeat(n));
    let size = text.len() as u64;
    write(dir.path(), "m.pp", text);
    let (findings, peak_kb) = findings_and_peak_kb(dir.path());
    let placements = findings.iter().filter(|f| f.0 == "illegal-placement" && f.1 == 3).count();
    assert_eq!(placements, n, "{:?}", &findings[..5.min(findings.len())]);
    let bound_kb = mplint::MEMORY_BASE_KB + size * mplint::MEMORY_PER_BYTE / 1024;
    assert!(peak_kb <= bound_kb, "{peak_kb} KB for {size} bytes; the bound is {bound_kb} KB");
}

/// Runs mplint with `args` in `dir`, killing it if it has not finished in
/// a minute: a run that would wait for ever fails the test instead.
fn mplint_or_kill(args: &[&str], dir: &Path) -> std::process::Output {
    let mut child = crate::support::mplint_command()
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("mplint starts");
    let started = std::time::Instant::now();
    while child.try_wait().expect("mplint can be waited for").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("mplint {args:?} was still running after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_named_pipe_without_a_writer_or_a_device_is_not_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("waiting.pp");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates the file.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    // Opening it for reading would wait for a writer; nothing is written.
    let output = mplint_or_kill(&["--format", "json", "waiting.pp"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(json(&output)["findings"], serde_json::json!([]));
    // A device is no manifest: reading `/dev/zero` would never end.
    let output = mplint_or_kill(&["--format", "json", "/dev/zero"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    let notices = json(&output)["notices"].to_string();
    assert!(notices.contains("/dev/zero: not a file or a directory"), "{notices}");
}

#[test]
fn deeply_nested_class_definitions_are_one_finding() {
    // Each nested class's name holds every outer one's: thousands of levels
    // would make names of megabytes. Past 100 levels the file is refused.
    let depth = 3000;
    let code = format!("{}{}\n", "class a {".repeat(depth), "}".repeat(depth));
    let findings = findings_for("nested.pp", &code);
    only_syntax_error_at(&findings, 1, 1 + 9 * 100);
    assert!(findings[0].3.contains("class definitions nest more than 100 deep"), "{findings:?}");
    // A hundred levels are analysed.
    let code = format!("{}{}\n", "class a {".repeat(100), "}".repeat(100));
    assert!(findings_for("nested.pp", &code).iter().all(|f| f.0 != "syntax-error"));
}
