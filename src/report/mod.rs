//! Reports: the outcome of a check rendered for people (`human`), scripts
//! (`json`), code-scanning tools (`sarif`) and CI systems (`github`,
//! `gitlab`, `junit`, `checkstyle`).

pub mod checkstyle;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
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
    /// GitLab Code Quality (Code Climate issues), for merge requests.
    Gitlab,
    /// JUnit XML, one test case per checked file.
    Junit,
    /// Checkstyle XML, for reviewdog, Jenkins and others.
    Checkstyle,
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
    /// The lowest level that fails the run: below it, formats that only
    /// know pass and fail (JUnit) show findings without failing.
    pub fail_on: crate::rules::Level,
    /// Leave out the summary line (human output).
    pub quiet: bool,
    /// The constraints of the policies applied: their findings name them
    /// as rules (SARIF).
    pub constraints: &'a [crate::policy::Constraint],
}

pub fn render(format: Format, outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    match format {
        Format::Human => human::render(outcome, options),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome, options),
        Format::Github => github::render(outcome),
        Format::Gitlab => gitlab::render(outcome),
        Format::Junit => junit::render(outcome, options),
        Format::Checkstyle => checkstyle::render(outcome),
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
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    let lines = source_lines(outcome);
    outcome
        .findings
        .iter()
        .zip(lines)
        .map(|(finding, line_text)| {
            let base = identity(finding.rule, &slash_path(&finding.path), &line_text, &finding.message);
            let occurrence = seen.entry(base).or_insert(0);
            *occurrence += 1;
            format!("{:016x}:{}", base, occurrence)
        })
        .collect()
}

/// Each finding's source line, whitespace folded (empty when the file's
/// text is not at hand): what a finding's identity takes instead of a line
/// number.
pub fn source_lines(outcome: &CheckOutcome) -> Vec<String> {
    const LONG_LINE: usize = 512;
    use std::collections::HashMap;
    let sources: HashMap<&std::path::Path, &crate::syntax::source::SourceFile> =
        outcome.files.iter().map(|f| (f.source.path.as_path(), &f.source)).collect();
    outcome
        .findings
        .iter()
        .map(|finding| {
            sources
                .get(finding.path.as_path())
                .and_then(|s| {
                    let (mut start, mut end) = s.lines.line_range(&s.text, finding.span.start_pos.line)?;
                    // On a very long line (generated code, one-line files) the
                    // text from the finding on stands for the line: copying the
                    // whole line for each of its findings would be quadratic.
                    if end - start > LONG_LINE {
                        start = finding.span.start.clamp(start, end);
                        end = (start + LONG_LINE / 2).min(end);
                        while !s.text.is_char_boundary(end) {
                            end -= 1;
                        }
                    }
                    Some(s.text[start..end].split_whitespace().collect::<Vec<_>>().join(" "))
                })
                .unwrap_or_default()
        })
        .collect()
}

/// The hash that identifies a finding without its position.
pub fn identity(rule: &str, path: &str, line_text: &str, message: &str) -> u64 {
    fnv1a([rule, path, line_text, message].join("\u{0}").as_bytes())
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

/// Text for an XML attribute: markup characters and line breaks escaped,
/// and characters XML 1.0 cannot hold at all (most control characters)
/// replaced by U+FFFD.
fn xml_escape(text: &str) -> String {
    xml_escape_impl(text, true)
}

/// Text for an XML element: as [`xml_escape`], line breaks kept.
fn xml_text(text: &str) -> String {
    xml_escape_impl(text, false)
}

fn xml_escape_impl(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' | '"' | '\'' if !attribute => out.push(c),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn xml_escape_handles_markup_and_control_characters() {
        assert_eq!(super::xml_escape("a<b & \"c\"\n\u{1}"), "a&lt;b &amp; &quot;c&quot;&#10;\u{fffd}");
        assert_eq!(super::xml_text("a<b & 'c'\n\u{1}"), "a&lt;b &amp; 'c'\n\u{fffd}");
    }
}
