//! `illegal-title`

use std::collections::HashMap;

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::{AssignOp, Expr, ExprKind, Number};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a resource title written as a literal that is not a non-empty
/// string: a number, a boolean, `undef`, `''`, a regular expression or a
/// hash (alone or in an array of titles), and a title written twice in one
/// array of titles (`notify { [a, b, a]: }`), and `default` given twice in
/// one resource expression (`notify { default: ; default: }`). A title that is a variable
/// its scope assigned such a literal before (`$port = 80`, then
/// `notify { $port: }` in the same class) counts as that literal, but an
/// `undef` or `false` one not under `if $port`, which never runs with it.
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
    variable_titles(&manifest.statements, &mut report);
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if let Some(lambda) = e.lambda() {
                variable_titles(&lambda.body.statements, &mut report);
            }
            match &e.kind {
                ExprKind::Class(c) => variable_titles(&c.body.statements, &mut report),
                ExprKind::Define(d) | ExprKind::Plan(d) => variable_titles(&d.body.statements, &mut report),
                ExprKind::Function(f) => variable_titles(&f.body.statements, &mut report),
                ExprKind::Node(n) => variable_titles(&n.body.statements, &mut report),
                _ => {}
            }
            let ExprKind::Resource(resource) = &e.kind else { return };
            // Only one body of an expression may give its defaults.
            let mut default_seen = false;
            for body in &resource.bodies {
                let titles = match &body.title.kind {
                    ExprKind::Array(items) => items.iter().collect(),
                    _ => vec![&body.title],
                };
                let mut seen: Vec<String> = Vec::new();
                let in_array = matches!(body.title.kind, ExprKind::Array(_));
                for (index, title) in titles.into_iter().enumerate() {
                    if matches!(title.kind, ExprKind::Default) {
                        if default_seen {
                            // Puppet reports it at the resource expression.
                            let message = "The title 'default' has already been used in this resource expression";
                            report(e, message.to_string());
                        }
                        default_seen = true;
                        continue;
                    }
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

/// In one scope's statements (not those of lambdas or definitions within,
/// which have scopes of their own): resources titled by a variable that a
/// statement of the scope assigned a literal Puppet refuses as a title.
fn variable_titles(statements: &[Expr], report: &mut impl FnMut(&Expr, String)) {
    let mut literals: HashMap<&str, (&Expr, usize)> = HashMap::new();
    for statement in statements {
        let ExprKind::Assignment { op: AssignOp::Assign, target, value } = &statement.kind else { continue };
        let ExprKind::Variable(variable) = &target.kind else { continue };
        if !variable.is_qualified() && is_literal(value) {
            literals.insert(&variable.name, (value, statement.span.start));
        }
    }
    if literals.is_empty() {
        return;
    }
    let mut own_scopes: Vec<crate::syntax::source::Span> = Vec::new();
    // Branches that run only when a variable is true (`if $url { … }`):
    // never with the `undef` or `false` it was assigned.
    let mut guarded: Vec<(crate::syntax::source::Span, String)> = Vec::new();
    for statement in statements {
        statement.walk(&mut |e| {
            if own_scopes.iter().any(|scope| scope.contains(e.span)) {
                return;
            }
            own_scopes.extend(e.lambda().map(|l| l.span));
            if let ExprKind::If(conditional) = &e.kind {
                for branch in &conditional.branches {
                    if let ExprKind::Variable(tested) = &branch.condition.kind {
                        guarded.push((branch.body.span, tested.name.to_string()));
                    }
                }
            }
            match &e.kind {
                ExprKind::Class(_)
                | ExprKind::Define(_)
                | ExprKind::Plan(_)
                | ExprKind::Function(_)
                | ExprKind::Node(_) => own_scopes.push(e.span),
                ExprKind::Resource(resource) => {
                    for body in &resource.bodies {
                        let ExprKind::Variable(variable) = &body.title.kind else { continue };
                        let Some((value, assigned)) = literals.get(&*variable.name) else { continue };
                        if *assigned > e.span.start {
                            continue;
                        }
                        let falsy = matches!(value.kind, ExprKind::Undef | ExprKind::Boolean(false));
                        if falsy && guarded.iter().any(|(body, name)| body.contains(e.span) && **name == *variable.name)
                        {
                            continue;
                        }
                        let (items, in_array) = match &value.kind {
                            ExprKind::Array(items) => (items.iter().collect(), true),
                            _ => (vec![*value], false),
                        };
                        for (index, item) in items.into_iter().enumerate() {
                            if let Some(problem) = refused(item, index, in_array) {
                                let problem = problem.trim_end_matches('.');
                                report(
                                    &body.title,
                                    format!("{problem}: `${}` is assigned {}", variable.name, describe(item)),
                                );
                            }
                        }
                    }
                }
                _ => {}
            }
        });
    }
}

/// A literal value: what a variable assigned it holds for certain.
fn is_literal(value: &Expr) -> bool {
    match &value.kind {
        ExprKind::Number(_) | ExprKind::Boolean(_) | ExprKind::Undef | ExprKind::Regex(_) => true,
        ExprKind::Str(s) => s.as_literal().is_some(),
        ExprKind::Name(_) => true,
        ExprKind::Array(items) => items.iter().all(is_literal),
        ExprKind::Hash(pairs) => pairs.iter().all(|p| is_literal(&p.key) && is_literal(&p.value)),
        _ => false,
    }
}

/// A literal as a message shows it.
fn describe(literal: &Expr) -> &'static str {
    match &literal.kind {
        ExprKind::Number(Number::Integer(_)) => "an Integer",
        ExprKind::Number(Number::Float(_)) => "a Float",
        ExprKind::Boolean(_) => "a Boolean",
        ExprKind::Undef => "undef",
        ExprKind::Regex(_) => "a Regexp",
        ExprKind::Hash(_) => "a Hash",
        _ => "an empty String",
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
