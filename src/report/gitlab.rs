//! GitLab Code Quality: a JSON array of Code Climate issues, which GitLab
//! shows in merge requests (`artifacts: reports: codequality`).
//!
//! Suppressed findings are left out: GitLab has no notion of them. Each
//! issue's `fingerprint` is the finding's stable fingerprint, so that GitLab
//! tells new findings from old ones across commits.

use serde::Serialize;

use crate::check::CheckOutcome;
use crate::rules::Level;
use crate::syntax::source::Position;

#[derive(Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    check_name: &'static str,
    description: &'a str,
    content: Content,
    categories: [&'static str; 1],
    severity: &'static str,
    fingerprint: String,
    location: Location,
}

#[derive(Serialize)]
struct Content {
    body: String,
}

#[derive(Serialize)]
struct Location {
    path: String,
    positions: Positions,
}

#[derive(Serialize)]
struct Positions {
    begin: LineColumn,
    end: LineColumn,
}

#[derive(Serialize)]
struct LineColumn {
    line: u32,
    column: u32,
}

impl From<Position> for LineColumn {
    fn from(p: Position) -> Self {
        LineColumn { line: p.line, column: p.column }
    }
}

/// GitLab's severities run info, minor, major, critical, blocker; an
/// error fails a Puppet run, so it is critical.
fn severity(level: Level) -> &'static str {
    match level {
        Level::Error => "critical",
        Level::Warning => "major",
        Level::Note => "info",
    }
}

pub fn render(outcome: &CheckOutcome) -> Vec<u8> {
    let issues: Vec<Issue<'_>> = outcome
        .findings
        .iter()
        .zip(super::fingerprints(outcome))
        .filter(|(f, _)| f.suppressed_by.is_none())
        .map(|(f, fingerprint)| {
            let mut body = String::new();
            for place in &f.related {
                body.push_str(&format!(
                    "- {}:{}:{}: {}\n",
                    super::slash_path(&place.path),
                    place.span.start_pos.line,
                    place.span.start_pos.column,
                    place.message
                ));
            }
            if !body.is_empty() {
                body.push('\n');
            }
            body.push_str(&format!("See `mplint rule {}`.", f.rule));
            Issue {
                kind: "issue",
                check_name: f.rule,
                description: &f.message,
                content: Content { body },
                categories: ["Bug Risk"],
                severity: severity(f.level),
                fingerprint,
                location: Location {
                    path: super::slash_path(&f.path),
                    positions: Positions { begin: f.span.start_pos.into(), end: f.span.end_pos.into() },
                },
            }
        })
        .collect();
    let mut out = serde_json::to_vec_pretty(&issues).expect("the report serialises");
    out.push(b'\n');
    out
}
