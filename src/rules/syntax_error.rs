//! `syntax-error`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a file that is not valid Puppet: the first token the parser
/// could not accept, an unclosed string or bracket, text that is not UTF-8.
///
/// ## Why is this bad?
/// Puppet refuses to compile a catalog from a manifest that does not parse,
/// so one broken file stops every node that uses it. mplint cannot analyse
/// the file either, so its other findings are missing until it parses.
///
/// ## Example
/// ```puppet
/// class profile::web {
///   $port = 80 +
/// }
/// ```
///
/// Use instead:
/// ```puppet
/// class profile::web {
///   $port = 80 + 8000
/// }
/// ```
pub const RULE: RuleInfo = RuleInfo {
    id: "syntax-error",
    name: "SyntaxError",
    default_level: Level::Error,
    summary: "The file is not valid Puppet syntax.",
    documentation: include_str!("../../rules/syntax-error.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    if let Some(problem) = &file.problem {
        findings.push(Finding {
            rule: RULE.id,
            level: RULE.default_level,
            path: file.source.path.clone(),
            span: problem.span,
            message: problem.message.clone(),
            related: Vec::new(),
            flow: Vec::new(),
            suppressed_by: None,
        });
    }
}
