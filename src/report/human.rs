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

pub fn render(outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    let mut files = SimpleFiles::new();
    let mut ids: HashMap<&PathBuf, usize> = HashMap::new();
    for file in &outcome.files {
        let id = files.add(super::slash_path(&file.source.path), file.source.text.as_str());
        ids.insert(&file.source.path, id);
    }
    let mut buffer = if options.color { Buffer::ansi() } else { Buffer::no_color() };
    let config = term::Config::default();
    for notice in &outcome.notices {
        let diagnostic = Diagnostic::<usize>::warning().with_message(&notice.message);
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic);
    }
    for finding in &outcome.findings {
        let severity = match finding.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Note => Severity::Note,
        };
        let mut diagnostic = Diagnostic::new(severity).with_code(finding.rule).with_message(&finding.message);
        let mut labels = Vec::new();
        if let Some(&id) = ids.get(&finding.path) {
            labels.push(Label::primary(id, finding.span.start..finding.span.end));
        }
        for related in &finding.related {
            if let Some(&id) = ids.get(&related.path) {
                labels.push(Label::secondary(id, related.span.start..related.span.end).with_message(&related.message));
            }
        }
        diagnostic = diagnostic.with_labels(labels);
        let _ = term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic);
    }
    let mut out = buffer.into_inner();
    out.extend_from_slice(summary_line(outcome).as_bytes());
    out.push(b'\n');
    out
}
