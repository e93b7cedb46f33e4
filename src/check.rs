//! Running a check: discover files, read and parse them in parallel, apply
//! the rules, and gather the results in a stable order.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::input::{self, Notice, NoticeKind};
use crate::rules::{self, Finding};
use crate::syntax::{self, ParsedFile};

#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Worker threads; `None` uses one per core.
    pub jobs: Option<usize>,
    /// `--exclude` globs.
    pub excludes: Vec<String>,
}

/// Everything a run found.
#[derive(Debug, Default)]
pub struct CheckOutcome {
    /// The files that were checked (read and parsed), sorted.
    pub files: Vec<ParsedFile>,
    /// Findings sorted by path, line, column and rule.
    pub findings: Vec<Finding>,
    /// Paths that could not be checked.
    pub notices: Vec<Notice>,
    pub elapsed: Duration,
}

impl CheckOutcome {
    pub fn count(&self, level: rules::Level) -> usize {
        self.findings.iter().filter(|f| f.level == level).count()
    }
}

#[derive(Debug)]
pub enum CheckError {
    BadExclude(globset::Error),
    ThreadPool(rayon::ThreadPoolBuildError),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::BadExclude(e) => write!(f, "invalid --exclude pattern: {e}"),
            CheckError::ThreadPool(e) => write!(f, "cannot start worker threads: {e}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Checks the given files and directories.
///
/// Syntax trees are as deep as the code nests, so the thread that drops the
/// outcome needs a stack like the workers' ([`crate::WORKER_STACK_SIZE`]);
/// [`crate::run_with_large_stack`] provides one.
pub fn check(paths: &[PathBuf], options: &CheckOptions) -> Result<CheckOutcome, CheckError> {
    let started = Instant::now();
    let excludes = input::exclude_set(&options.excludes).map_err(CheckError::BadExclude)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .stack_size(crate::WORKER_STACK_SIZE)
        .thread_name(|i| format!("mplint-worker-{i}"))
        .build()
        .map_err(CheckError::ThreadPool)?;

    let (paths, mut notices) = input::discover(paths, &excludes);
    let results: Vec<Result<(ParsedFile, Vec<Finding>), Notice>> = pool.install(|| {
        paths
            .into_par_iter()
            .map(|path| {
                let bytes = std::fs::read(&path).map_err(|err| Notice {
                    message: format!("cannot read {}: {err}", path.display()),
                    path: path.clone(),
                    kind: NoticeKind::Unreadable,
                })?;
                let parsed = syntax::parse_file(path, bytes);
                let findings = rules::check_file(&parsed);
                Ok((parsed, findings))
            })
            .collect()
    });

    let mut outcome = CheckOutcome::default();
    for result in results {
        match result {
            Ok((parsed, findings)) => {
                outcome.findings.extend(findings);
                outcome.files.push(parsed);
            }
            Err(notice) => notices.push(notice),
        }
    }
    outcome.findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    notices.sort_by(|a, b| a.path.cmp(&b.path));
    outcome.notices = notices;
    outcome.elapsed = started.elapsed();
    Ok(outcome)
}
