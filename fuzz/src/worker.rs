//! The child process: runs inputs it reads on standard input, one at a time,
//! and answers each with a line on standard output:
//! `ok <peak KB above the start> <feature>…`. A panic or abort ends the
//! process; the driver reads why from standard error.

use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use mplint::check::{CheckOptions, CheckOutcome};
use mplint::report::{self, Format, ReportOptions};

use crate::input::{Input, Target};

pub fn main(target: Target) -> std::process::ExitCode {
    mplint::run_with_large_stack(move || serve(target));
    std::process::ExitCode::SUCCESS
}

fn serve(target: Target) {
    let work = std::env::temp_dir().join(format!("mplint-fuzz-{}", std::process::id()));
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    while let Ok(Some(input)) = Input::read_from(&mut stdin) {
        let start_kb = reset_peak_memory();
        let features = match target {
            Target::Parse => run_parse(&input),
            Target::Check => run_check(&input, &work),
        };
        let peak_kb = peak_memory_kb().saturating_sub(start_kb);
        let mut line = format!("ok {peak_kb}");
        for feature in features {
            line.push_str(&format!(" {feature:x}"));
        }
        line.push('\n');
        if stdout.write_all(line.as_bytes()).and_then(|()| stdout.flush()).is_err() {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// Decode, parse, lower, single-file rules, and every report of them.
fn run_parse(input: &Input) -> BTreeSet<u64> {
    let (path, bytes) = &input.files[0];
    let parsed = mplint::syntax::parse_file(PathBuf::from(path), bytes.clone());
    let mut features = BTreeSet::new();
    if let Some(problem) = &parsed.problem {
        features.insert(hash(&("problem", shape(&problem.message))));
    }
    // Valid code only: its parse is quick (error recovery may not be).
    if parsed.problem.is_none() {
        if let Some(tree) = mplint::syntax::parse_tree(&parsed.source.text) {
            tree_features(&tree, &mut features);
        }
    }
    let findings = mplint::rules::check_file(&parsed);
    let outcome = CheckOutcome { files: vec![parsed], checked: 1, findings, ..CheckOutcome::default() };
    finding_features(&outcome, &mut features);
    render(&outcome, Path::new("."), &[Format::Human, Format::Json, Format::Github]);
    features
}

/// The whole check of a tree, as the command line runs it, on one thread.
fn run_check(input: &Input, work: &Path) -> BTreeSet<u64> {
    let mut features = BTreeSet::new();
    if let Err(e) = input.materialise(work) {
        eprintln!("mplint-fuzz worker: cannot write {}: {e}", work.display());
        std::process::exit(3);
    }
    let settings = match mplint::config::load(mplint::config::discover(work).as_deref()) {
        Ok(settings) => settings,
        Err(_) => {
            features.insert(hash(&"config-error"));
            mplint::config::load(None).expect("the default configuration loads")
        }
    };
    let options = CheckOptions { jobs: Some(1), settings, ..CheckOptions::default() };
    let outcome = mplint::check::check(&[work.to_path_buf()], &options).expect("a check of a written tree runs");
    finding_features(&outcome, &mut features);
    for notice in &outcome.notices {
        features.insert(hash(&("notice", shape(&notice.message))));
    }
    render(
        &outcome,
        work,
        &[
            Format::Human,
            Format::Json,
            Format::Sarif,
            Format::Github,
            Format::Gitlab,
            Format::Junit,
            Format::Checkstyle,
        ],
    );
    features
}

/// Renders the reports, human ones in colour and without. (SARIF runs git
/// for the revision: once per tree, not per file.)
fn render(outcome: &CheckOutcome, base_dir: &Path, formats: &[Format]) {
    for &format in formats {
        for color in [false, true] {
            if color && format != Format::Human {
                continue;
            }
            let options = ReportOptions {
                base_dir,
                color,
                show_suppressed: color,
                elapsed: None,
                fail_on: mplint::rules::Level::Warning,
                quiet: !color,
                constraints: &[],
            };
            std::hint::black_box(report::render(format, outcome, &options));
        }
    }
}

/// Which kinds of node appear under which: new pairs make an input worth
/// mutating further.
fn tree_features(tree: &tree_sitter::Tree, features: &mut BTreeSet<u64>) {
    // Parents' kinds on a stack of its own: Node::parent searches from the
    // root, quadratic over a deeply nested tree.
    let mut cursor = tree.walk();
    let mut parents: Vec<u16> = vec![0];
    let mut visited = 0;
    'walk: loop {
        let node = cursor.node();
        let parent = *parents.last().unwrap_or(&0);
        features.insert(hash(&(parent, node.kind_id(), node.is_error(), node.is_missing())));
        visited += 1;
        if visited > 200_000 {
            break;
        }
        if cursor.goto_first_child() {
            parents.push(node.kind_id());
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
            parents.pop();
        }
    }
}

fn finding_features(outcome: &CheckOutcome, features: &mut BTreeSet<u64>) {
    for finding in &outcome.findings {
        let related = finding.related.len().min(4);
        let flow = finding.flow.len().min(4);
        features.insert(hash(&(finding.rule, shape(&finding.message), related, flow)));
    }
}

/// A message without its particulars: its first words of letters only.
fn shape(message: &str) -> String {
    message
        .split_whitespace()
        .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
        .take(5)
        .collect::<Vec<_>>()
        .join(" ")
}

fn hash(value: &impl Hash) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// Returns freed memory to the system and restarts the kernel's peak
/// count, so that the next peak is this input's; returns the resident size.
fn reset_peak_memory() -> u64 {
    // SAFETY: mi_collect only walks mimalloc's own heaps.
    unsafe { mi_collect(true) };
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    status_kb("VmRSS:")
}

extern "C" {
    /// mimalloc's own, linked in with the global allocator.
    fn mi_collect(force: bool);
}

fn peak_memory_kb() -> u64 {
    status_kb("VmHWM:")
}

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
