//! Reports: the outcome of a check rendered for people (`human`), scripts
//! (`json`) and code-scanning tools (`sarif`).

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use std::path::Path;

use crate::check::CheckOutcome;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Findings with source snippets.
    Human,
    /// A stable JSON document.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…::…`).
    Github,
}

/// Options every format may use.
#[derive(Debug, Clone)]
pub struct ReportOptions<'a> {
    /// Paths in reports are made relative to this directory where possible.
    pub base_dir: &'a Path,
    /// Colour the human output.
    pub color: bool,
    /// List suppressed findings in the human output.
    pub show_suppressed: bool,
    /// How long the check took, when it should be shown.
    pub elapsed: Option<std::time::Duration>,
}

pub fn render(format: Format, outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    match format {
        Format::Human => human::render(outcome, options),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome, options),
        Format::Github => github::render(outcome),
    }
}

/// A path with `/` separators, as reports write them.
pub fn slash_path(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/").replacen("//", "/", 1)
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("{count} {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// `Checked 3 files: 1 error, 0 warnings, 0 notes (2 suppressed) in 0.12s.`
pub fn summary_line(outcome: &CheckOutcome, elapsed: Option<std::time::Duration>) -> String {
    use crate::rules::Level;
    let suppressed = match outcome.suppressed() {
        0 => String::new(),
        n => format!(" ({n} suppressed)"),
    };
    let time = elapsed.map_or(String::new(), |t| format!(" in {:.2}s", t.as_secs_f64()));
    format!(
        "Checked {}: {}, {}, {}{suppressed}{time}.",
        plural(outcome.checked, "file"),
        plural(outcome.count(Level::Error), "error"),
        plural(outcome.count(Level::Warning), "warning"),
        plural(outcome.count(Level::Note), "note"),
    )
}

/// Stable identities of findings: the same finding keeps its fingerprint when
/// lines are added or removed above it. Built from the rule, the file, the
/// finding's source line (whitespace folded), its message, and which
/// occurrence of all that it is in the file.
pub fn fingerprints(outcome: &CheckOutcome) -> Vec<String> {
    use std::collections::HashMap;
    let sources: HashMap<&std::path::Path, &crate::syntax::source::SourceFile> =
        outcome.files.iter().map(|f| (f.source.path.as_path(), &f.source)).collect();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    outcome
        .findings
        .iter()
        .map(|finding| {
            let line_text = sources
                .get(finding.path.as_path())
                .and_then(|s| {
                    let (start, end) = s.lines.line_range(&s.text, finding.span.start_pos.line)?;
                    Some(s.text[start..end].split_whitespace().collect::<Vec<_>>().join(" "))
                })
                .unwrap_or_default();
            let key = [finding.rule, &slash_path(&finding.path), &line_text, &finding.message].join("\u{0}");
            let base = fnv1a(key.as_bytes());
            let occurrence = seen.entry(base).or_insert(0);
            *occurrence += 1;
            format!("{:016x}:{}", base, occurrence)
        })
        .collect()
}

/// FNV-1a, 64 bits: a hash whose value never changes between releases.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
