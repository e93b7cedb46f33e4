//! Reports: the outcome of a check rendered for people (`human`), scripts
//! (`json`) and code-scanning tools (`sarif`).

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
}

/// Options every format may use.
#[derive(Debug, Clone)]
pub struct ReportOptions<'a> {
    /// Paths in reports are made relative to this directory where possible.
    pub base_dir: &'a Path,
    /// Colour the human output.
    pub color: bool,
}

pub fn render(format: Format, outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    match format {
        Format::Human => human::render(outcome, options),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome, options),
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

/// `Checked 3 files: 1 error, 0 warnings, 0 notes.`
pub fn summary_line(outcome: &CheckOutcome) -> String {
    use crate::rules::Level;
    format!(
        "Checked {}: {}, {}, {}.",
        plural(outcome.checked, "file"),
        plural(outcome.count(Level::Error), "error"),
        plural(outcome.count(Level::Warning), "warning"),
        plural(outcome.count(Level::Note), "note"),
    )
}
