//! The JSON report: a stable document for scripts.
//!
//! ```json
//! { "version": 1,
//!   "tool": { "name": "mplint", "version": "0.1.0" },
//!   "summary": { "files": 3, "errors": 1, "warnings": 0, "notes": 0, "suppressed": 0 },
//!   "findings": [ { "rule": "syntax-error", "level": "error", "path": "a.pp",
//!                   "start": { "line": 1, "column": 20 }, "end": { … },
//!                   "message": "…", "related": [ { "path", "start", "end", "message" } ],
//!                   "flow": [ … same shape, outermost step first … ],
//!                   "suppressed": null or { "line", "column" } of the comment,
//!                   "fingerprint": "…" } ],
//!   "notices": [ { "path": "b.pp", "kind": "unreadable", "message": "…" } ] }
//! ```

use serde::Serialize;

use crate::check::CheckOutcome;
use crate::rules::Level;
use crate::syntax::source::Position;

/// Bumped when a field changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    tool: Tool,
    summary: Summary,
    findings: Vec<JsonFinding<'a>>,
    notices: Vec<JsonNotice<'a>>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
    notes: usize,
    suppressed: usize,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'static str,
    level: Level,
    path: String,
    start: Position,
    end: Position,
    message: &'a str,
    related: Vec<JsonRelated<'a>>,
    flow: Vec<JsonRelated<'a>>,
    /// Where the suppressing comment starts, when one suppresses this finding.
    suppressed: Option<Position>,
    fingerprint: String,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    path: String,
    start: Position,
    end: Position,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonNotice<'a> {
    path: String,
    kind: crate::input::NoticeKind,
    message: &'a str,
}

fn related(r: &crate::rules::Related) -> JsonRelated<'_> {
    JsonRelated { path: super::slash_path(&r.path), start: r.span.start_pos, end: r.span.end_pos, message: &r.message }
}

pub fn render(outcome: &CheckOutcome) -> Vec<u8> {
    let report = Report {
        version: SCHEMA_VERSION,
        tool: Tool { name: "mplint", version: env!("CARGO_PKG_VERSION") },
        summary: Summary {
            files: outcome.checked,
            errors: outcome.count(Level::Error),
            warnings: outcome.count(Level::Warning),
            notes: outcome.count(Level::Note),
            suppressed: outcome.suppressed(),
        },
        findings: outcome
            .findings
            .iter()
            .zip(super::fingerprints(outcome))
            .map(|(f, fingerprint)| JsonFinding {
                rule: f.rule,
                level: f.level,
                path: super::slash_path(&f.path),
                start: f.span.start_pos,
                end: f.span.end_pos,
                message: &f.message,
                related: f.related.iter().map(related).collect(),
                flow: f.flow.iter().map(related).collect(),
                suppressed: f.suppressed_by.map(|s| s.start_pos),
                fingerprint,
            })
            .collect(),
        notices: outcome
            .notices
            .iter()
            .map(|n| JsonNotice { path: super::slash_path(&n.path), kind: n.kind, message: &n.message })
            .collect(),
    };
    let mut out = serde_json::to_vec_pretty(&report).expect("the report serialises");
    out.push(b'\n');
    out
}
