//! Rules: each a small query that turns what the lower layers found into
//! [`Finding`]s. One file per rule, with its documentation in `rules/<id>.md`.

pub mod syntax_error;

use std::path::PathBuf;

use serde::Serialize;

use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Note,
    Warning,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// A place that helps explain a finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Related {
    pub path: PathBuf,
    pub span: Span,
    pub message: String,
}

/// One problem found in one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub level: Level,
    pub path: PathBuf,
    pub span: Span,
    pub message: String,
    pub related: Vec<Related>,
}

impl Finding {
    /// The order findings are reported in: path, line, column, rule.
    pub fn sort_key(&self) -> (&PathBuf, u32, u32, &'static str) {
        (&self.path, self.span.start_pos.line, self.span.start_pos.column, self.rule)
    }
}

/// What a rule is, for reports and documentation.
#[derive(Debug, Clone, Copy)]
pub struct RuleInfo {
    /// Stable kebab-case id, used in suppressions and configuration.
    pub id: &'static str,
    /// PascalCase name, as SARIF wants it.
    pub name: &'static str,
    pub default_level: Level,
    /// One sentence: what the rule reports.
    pub summary: &'static str,
    /// The rule's documentation (`rules/<id>.md`).
    pub documentation: &'static str,
}

/// Every rule mplint has, in id order.
pub const ALL_RULES: &[&RuleInfo] = &[&syntax_error::RULE];

pub fn rule_info(id: &str) -> Option<&'static RuleInfo> {
    ALL_RULES.iter().copied().find(|r| r.id == id)
}

/// Findings about a single file.
pub fn check_file(file: &ParsedFile) -> Vec<Finding> {
    let mut findings = Vec::new();
    syntax_error::check(file, &mut findings);
    findings
}
