//! Every manifest of Debian's packaged Puppet modules is valid Puppet, so
//! every one must parse with no ERROR or MISSING node and lower into a typed
//! tree. Skips, saying so, where the corpus is not installed
//! (`../shared/corpus/install.sh`); `MPLINT_CORPUS` names another location.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use mplint::check::{check, CheckOptions};

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MPLINT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/puppet/modules"));
    dir.is_dir().then_some(dir)
}

/// Every `*.pp` under `dir`, sorted, following the corpus's links.
fn manifests(dir: &Path) -> Vec<PathBuf> {
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
        // Nodes sharing a compilation give the findings of compiling each.
        let every_node = CheckOptions { compile_every_node: true, ..CheckOptions::default() };
        let unshared = check(std::slice::from_ref(&dir), &every_node).expect("check runs");
        assert!(outcome.findings == unshared.findings, "sharing node compilations changed the findings");
        let checked = outcome.files.len();
        rules_see_the_same_records_streamed_or_held(&dir);
        // Every manifest parses, test fixtures too: the check parsed the
        // others, these are parsed here. A file parses when it has no
        // problem: an ERROR or MISSING node in its tree is one.
        let by_path: HashSet<&Path> = outcome.files.iter().map(|f| f.source.path.as_path()).collect();
        let all = manifests(&dir);
        let skipped: Vec<mplint::syntax::ParsedFile> = all
            .iter()
            .filter(|path| !by_path.contains(path.as_path()))
            .map(|path| mplint::syntax::parse_file(path.clone(), std::fs::read(path).expect("readable")))
            .collect();
        let with_errors: Vec<String> = outcome
            .files
            .iter()
            .chain(&skipped)
            .filter_map(|file| {
                let problem = file.problem.as_ref()?;
                let at = problem.span.start_pos;
                Some(format!("{}:{}:{}: {}", file.source.path.display(), at.line, at.column, problem.message))
            })
            .collect();
        let mut by_rule = std::collections::BTreeMap::new();
        for f in &outcome.findings {
            *by_rule.entry(f.rule).or_insert(0) += 1;
        }
        (all.len(), checked, skipped.len(), outcome.notices.len(), by_rule, with_errors)
    });
    let (files, checked, skipped, notices, by_rule, with_errors) = outcome;
    eprintln!(
        "debian corpus: {files} files parsed, {} with errors; {checked} checked, {skipped} skipped (spec/fixtures); findings by rule: {by_rule:?}",
        with_errors.len()
    );
    assert!(files >= 1900, "expected the whole corpus, found {files} files");
    assert!(checked >= 1850 && checked < files, "checked {checked} of {files} files");
    assert_eq!(notices, 0, "files that could not be read");
    assert!(with_errors.is_empty(), "{} files do not parse:\n{}", with_errors.len(), with_errors.join("\n"));
    assert_eq!(by_rule.get("syntax-error"), None, "syntax findings on valid code");
}

/// The rules give the same findings whether each compilation is checked as
/// it is handed over and then dropped (what a run does) or all are held in
/// the model first.
fn rules_see_the_same_records_streamed_or_held(dir: &Path) {
    use mplint::model::{workspace::Workspace, Model};
    let files: Vec<mplint::syntax::ParsedFile> = manifests(dir)
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "fixtures"))
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable");
            mplint::syntax::parse_file(p, bytes)
        })
        .collect();
    let reported = vec![true; files.len()];
    let workspace = Workspace::discover(&[dir.to_path_buf()], &[]);
    let streamed = mplint::check::analyse(&files, reported.clone(), workspace.clone());
    let model = Model::build(&files, reported, workspace);
    let mut held: Vec<_> = files.iter().flat_map(mplint::rules::check_file).collect();
    held.extend(mplint::rules::check_model(&model));
    held.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    assert!(model.compilations.len() > 100, "the held model has its records");
    assert!(streamed.len() > 50, "the corpus has findings to compare");
    assert!(streamed == held, "checking records as they are compiled changed the findings");
}
