//! `illegal-title`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::{Expr, ExprKind, Number};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a resource title written as a literal that is not a non-empty
/// string: a number, a boolean, `undef`, `''`, a regular expression or a
/// hash (alone or in an array of titles), and a title written twice in one
/// array of titles (`notify { [a, b, a]: }`).
///
/// ## Why is this bad?
/// Puppet fails whenever it evaluates the resource: "Illegal title type at
/// index 0. Expected String, got Integer", "Missing title. The title
/// expression resulted in undef", "Empty string title", "The title 'a' has
/// already been used in this resource expression". The literal alone
/// decides, so the rule reports it wherever it is.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-title",
    name: "IllegalTitle",
    default_level: Level::Error,
    summary: "A resource's title is a literal Puppet refuses: not a non-empty string, or repeated in one resource.",
    documentation: include_str!("../../rules/illegal-title.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut report = |expr: &Expr, message: String| {
        findings.push(Finding::in_file(&RULE, RULE.default_level, file, expr.span, message));
    };
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            let ExprKind::Resource(resource) = &e.kind else { return };
            for body in &resource.bodies {
                let titles = match &body.title.kind {
                    ExprKind::Array(items) => items.iter().collect(),
                    _ => vec![&body.title],
                };
                let mut seen: Vec<String> = Vec::new();
                let in_array = matches!(body.title.kind, ExprKind::Array(_));
                for (index, title) in titles.into_iter().enumerate() {
                    if let Some(problem) = refused(title, index, in_array) {
                        report(title, problem);
                        continue;
                    }
                    let text = match &title.kind {
                        ExprKind::Str(s) => s.as_literal(),
                        ExprKind::Name(n) => Some(n.clone()),
                        _ => None,
                    };
                    let Some(text) = text else { continue };
                    if seen.contains(&text) {
                        report(title, format!("The title '{text}' has already been used in this resource expression"));
                    } else {
                        seen.push(text);
                    }
                }
            }
        });
    }
}

/// What Puppet says of a literal title it refuses (the `index`-th title,
/// of an array of titles or alone).
fn refused(title: &Expr, index: usize, in_array: bool) -> Option<String> {
    let got = match &title.kind {
        ExprKind::Undef if in_array => {
            return Some(format!("Missing title at index {index}. The title expression resulted in an undef title"))
        }
        ExprKind::Undef => return Some("Missing title. The title expression resulted in undef".into()),
        ExprKind::Str(s) if s.as_literal().is_some_and(|t| t.is_empty()) => {
            return Some(format!("Empty string title at {index}. Title strings must have a length greater than zero."))
        }
        ExprKind::Number(Number::Integer(_)) => "Integer",
        ExprKind::Number(Number::Float(_)) => "Float",
        ExprKind::Boolean(_) => "Boolean",
        ExprKind::Regex(_) => "Regexp",
        ExprKind::Hash(_) => "Hash",
        _ => return None,
    };
    Some(format!("Illegal title type at index {index}. Expected String, got {got}"))
}
