//! Findings for a terminal: the message, the source snippet with labels, and
//! a closing summary.

use std::collections::HashMap;
use std::path::PathBuf;

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::Buffer};

use super::{summary_line, ReportOptions};
use crate::check::CheckOutcome;
use crate::rules::Level;
use crate::syntax::source::SourceFile;

/// Longest source line shown as a snippet; longer ones (generated or
/// minified code) are cited by position only.
const MAX_SNIPPET_LINE: usize = 400;

fn snippet_fits(source: &SourceFile, line: u32) -> bool {
    source.lines.line_range(&source.text, line).is_some_and(|(start, end)| end - start <= MAX_SNIPPET_LINE)
}

pub fn render(outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    let mut files = SimpleFiles::new();
    // Each file's id and source, found by path once per finding.
    let mut ids: HashMap<&PathBuf, (usize, &SourceFile)> = HashMap::new();
    for file in &outcome.files {
        let id = files.add(super::slash_path(&file.source.path), file.source.text.as_str());
        ids.insert(&file.source.path, (id, &file.source));
    }
    let mut buffer = if options.color { Buffer::ansi() } else { Buffer::no_color() };
    let config = term::Config::default();
    for notice in &outcome.notices {
        let diagnostic =
            if notice.kind.is_layout_note() { Diagnostic::<usize>::note() } else { Diagnostic::<usize>::warning() }
                .with_message(&notice.message);
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic);
    }
    for finding in &outcome.findings {
        if finding.suppressed_by.is_some() && !options.show_suppressed {
            continue;
        }
        let severity = match finding.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Note => Severity::Note,
        };
        let mut diagnostic = Diagnostic::new(severity).with_code(finding.rule).with_message(&finding.message);
        let mut labels = Vec::new();
        match ids.get(&finding.path) {
            Some(&(id, source)) if snippet_fits(source, finding.span.start_pos.line) => {
                labels.push(Label::primary(id, finding.span.start..finding.span.end));
            }
            _ => {
                let at = finding.span.start_pos;
                diagnostic = diagnostic.with_notes(vec![format!(
                    "at {}:{}:{}",
                    super::slash_path(&finding.path),
                    at.line,
                    at.column
                )]);
            }
        }
        for related in &finding.related {
            if let Some(&(id, _)) = ids.get(&related.path) {
                labels.push(Label::secondary(id, related.span.start..related.span.end).with_message(&related.message));
            }
        }
        if let Some(comment) = finding.suppressed_by {
            diagnostic = diagnostic.with_message(format!("{} (suppressed)", finding.message));
            if let Some(&(id, _)) = ids.get(&finding.path) {
                labels
                    .push(Label::secondary(id, comment.start..comment.end).with_message("suppressed by this comment"));
            }
        }
        diagnostic = diagnostic.with_labels(labels);
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic);
    }
    let mut out = buffer.into_inner();
    if !options.quiet {
        out.extend_from_slice(summary_line(outcome, options.elapsed).as_bytes());
        out.push(b'\n');
    }
    out
}
