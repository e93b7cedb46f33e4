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

#[test]
fn debian_corpus_parses_without_errors() {
    let Some(dir) = corpus_dir() else {
        eprintln!("SKIPPED debian_corpus_parses_without_errors: no corpus at /usr/share/puppet/modules (run ../shared/corpus/install.sh)");
        return;
    };
    let outcome = mplint::run_with_large_stack(move || {
        let outcome = check(&[dir], &CheckOptions::default()).expect("check runs");
        let mut with_errors = Vec::new();
        for file in &outcome.files {
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
        (outcome.files.len(), outcome.notices.len(), by_rule, with_errors)
    });
    let (files, notices, by_rule, with_errors) = outcome;
    eprintln!("debian corpus: {files} files, {} with errors; findings by rule: {by_rule:?}", with_errors.len());
    assert!(files >= 1900, "expected the whole corpus, found {files} files");
    assert_eq!(notices, 0, "files that could not be read");
    assert!(with_errors.is_empty(), "{} files do not parse:\n{}", with_errors.len(), with_errors.join("\n"));
    assert_eq!(by_rule.get("syntax-error"), None, "syntax findings on valid code");
}
