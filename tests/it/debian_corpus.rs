//! Every manifest of Debian's packaged Puppet modules is valid Puppet, so
//! every one must parse with no ERROR or MISSING node and lower into a typed
//! tree. Skips, saying so, where the corpus is not installed
//! (`../shared/corpus/install.sh`); `MPLINT_CORPUS` names another location.

use std::path::PathBuf;

use mplint::check::{check, CheckOptions};

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MPLINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/puppet/modules"));
    dir.is_dir().then_some(dir)
}

/// Every `*.pp` under `dir`, sorted, following the corpus's links.
fn manifests(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn debian_corpus_parses_without_errors() {
    let Some(dir) = corpus_dir() else {
        eprintln!("SKIPPED debian_corpus_parses_without_errors: no corpus at /usr/share/puppet/modules (run ../shared/corpus/install.sh)");
        return;
    };
    let outcome = mplint::run_with_large_stack(move || {
        let outcome = check(std::slice::from_ref(&dir), &CheckOptions::default()).expect("check runs");
        let mut with_errors = Vec::new();
        // Every manifest parses, test fixtures too (which a check skips).
        let mut parsed: Vec<mplint::syntax::ParsedFile> = Vec::new();
        for path in manifests(&dir) {
            let bytes = std::fs::read(&path).expect("readable");
            parsed.push(mplint::syntax::parse_file(path, bytes));
        }
        let checked = outcome.files.len();
        for file in &parsed {
            let tree = mplint::syntax::parse_tree(&file.source.text).expect("parses");
            if tree.root_node().has_error() {
                with_errors.push(format!("{} (tree has ERROR or MISSING nodes)", file.source.path.display()));
            } else if let Some(problem) = &file.problem {
                with_errors.push(format!("{}: {}", file.source.path.display(), problem.message));
            }
        }
        let mut by_rule = std::collections::BTreeMap::new();
        for f in &outcome.findings {
            *by_rule.entry(f.rule).or_insert(0) += 1;
        }
        (parsed.len(), checked, outcome.notices.len(), by_rule, with_errors)
    });
    let (files, checked, notices, by_rule, with_errors) = outcome;
    eprintln!(
        "debian corpus: {files} files parsed, {} with errors; {checked} checked (spec/fixtures skipped); findings by rule: {by_rule:?}",
        with_errors.len()
    );
    assert!(files >= 1900, "expected the whole corpus, found {files} files");
    assert!(checked >= 1850 && checked < files, "checked {checked} of {files} files");
    assert_eq!(notices, 0, "files that could not be read");
    assert!(with_errors.is_empty(), "{} files do not parse:\n{}", with_errors.len(), with_errors.join("\n"));
    assert_eq!(by_rule.get("syntax-error"), None, "syntax findings on valid code");
}
