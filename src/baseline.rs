//! Baselines, for adopting mplint on a site that already has findings:
//! `--write-baseline FILE` records today's findings, `--baseline FILE`
//! reports only the others.
//!
//! A finding is recorded by its identity — rule, path (relative to the
//! baseline file), message and source line, never its line number — with a
//! count, so that edits elsewhere keep it baselined and a second copy of a
//! baselined finding is still reported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::check::CheckOutcome;
use crate::report;

/// Bumped when the identity of findings changes.
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

/// One identity and how many findings have it. `rule`, `path` and
/// `message` are there for people reading the file; `fingerprint` is
/// what is matched.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    fingerprint: String,
    rule: String,
    path: String,
    message: String,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    count: u32,
}

fn one() -> u32 {
    1
}

fn is_one(count: &u32) -> bool {
    *count == 1
}

/// A baseline read from its file.
#[derive(Debug, Default)]
pub struct Baseline {
    counts: BTreeMap<String, u32>,
    dir: PathBuf,
}

/// What applying a baseline did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// Findings the baseline held back.
    pub baselined: usize,
    /// Findings in the baseline that this run no longer has.
    pub gone: usize,
}

/// The identities of the outcome's findings, paths taken relative to `dir`.
/// Suppressed findings are not recorded: their comment already says so.
fn identities(outcome: &CheckOutcome, cwd: &Path, dir: &Path) -> Vec<Option<(String, String)>> {
    report::source_lines(outcome)
        .into_iter()
        .zip(&outcome.findings)
        .map(|(line_text, finding)| {
            if finding.suppressed_by.is_some() {
                return None;
            }
            let absolute = crate::paths::normalize(&finding.path, cwd);
            let relative = pathdiff::diff_paths(&absolute, dir).unwrap_or(absolute);
            let path = report::slash_path(&relative);
            let hash = report::identity(finding.rule, &path, &line_text, &finding.message);
            Some((format!("{hash:016x}"), path))
        })
        .collect()
}

fn directory_of(file: &Path, cwd: &Path) -> PathBuf {
    let absolute = crate::paths::normalize(file, cwd);
    absolute.parent().map(Path::to_path_buf).unwrap_or(absolute)
}

/// Writes the outcome's findings as a baseline to `file`; returns how many
/// findings it holds.
pub fn write(outcome: &CheckOutcome, file: &Path, cwd: &Path) -> Result<usize, String> {
    let dir = directory_of(file, cwd);
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    let mut total = 0;
    for (identity, finding) in identities(outcome, cwd, &dir).into_iter().zip(&outcome.findings) {
        let Some((fingerprint, path)) = identity else { continue };
        total += 1;
        entries.entry(fingerprint.clone()).and_modify(|e| e.count += 1).or_insert(Entry {
            fingerprint,
            rule: finding.rule.into(),
            path,
            message: finding.message.clone(),
            count: 1,
        });
    }
    let mut findings: Vec<Entry> = entries.into_values().collect();
    findings.sort_by(|a, b| {
        (&a.path, &a.rule, &a.message, &a.fingerprint).cmp(&(&b.path, &b.rule, &b.message, &b.fingerprint))
    });
    let mut text =
        serde_json::to_vec_pretty(&BaselineFile { version: VERSION, findings }).expect("baselines serialise");
    text.push(b'\n');
    std::fs::write(file, text).map_err(|e| format!("cannot write the baseline {}: {e}", file.display()))?;
    Ok(total)
}

impl Baseline {
    /// Reads a baseline file; a file that is not one is an error naming
    /// where it goes wrong.
    pub fn read(file: &Path, cwd: &Path) -> Result<Baseline, String> {
        let text = std::fs::read(file).map_err(|e| format!("cannot read the baseline {}: {e}", file.display()))?;
        let parsed: BaselineFile = serde_json::from_slice(&text).map_err(|e| {
            format!(
                "{}:{}:{}: not an mplint baseline: {e} (write one with --write-baseline)",
                file.display(),
                e.line(),
                e.column()
            )
        })?;
        if parsed.version != VERSION {
            return Err(format!(
                "{}: baseline version {} is not supported (this mplint writes version {VERSION}); write it again with --write-baseline",
                file.display(),
                parsed.version
            ));
        }
        let mut counts = BTreeMap::new();
        for entry in parsed.findings {
            *counts.entry(entry.fingerprint).or_insert(0) += entry.count;
        }
        Ok(Baseline { counts, dir: directory_of(file, cwd) })
    }

    /// Removes the findings the baseline holds from the outcome.
    pub fn apply(mut self, outcome: &mut CheckOutcome, cwd: &Path) -> Applied {
        let identities = identities(outcome, cwd, &self.dir);
        let mut keep = Vec::with_capacity(identities.len());
        let mut baselined = 0;
        for identity in identities {
            let held = identity.and_then(|(fingerprint, _)| self.counts.get_mut(&fingerprint)).is_some_and(|count| {
                let held = *count > 0;
                *count = count.saturating_sub(1);
                held
            });
            baselined += usize::from(held);
            keep.push(!held);
        }
        let mut keep = keep.into_iter();
        outcome.findings.retain(|_| keep.next().unwrap_or(true));
        let gone = self.counts.values().map(|c| *c as usize).sum();
        Applied { baselined, gone }
    }
}
