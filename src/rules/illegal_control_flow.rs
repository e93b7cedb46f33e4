//! `illegal-control-flow`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::{ExprKind, Lambda};
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports `break()`, `next()` and `return()` where Puppet cannot obey
/// them: `break()` outside any lambda; `next()` outside a lambda, class,
/// defined type or function (in top-level code or a node); `return()`
/// outside a class, defined type or function (in top-level code, a node, or
/// a lambda there).
///
/// ## Why is this bad?
/// Puppet fails when it evaluates the call: "break() from context where
/// this is illegal". The place alone decides.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-control-flow",
    name: "IllegalControlFlow",
    default_level: Level::Error,
    summary: "`break()`, `next()` or `return()` where Puppet has nothing for it to leave.",
    documentation: include_str!("../../rules/illegal-control-flow.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut lambdas: Vec<Span> = Vec::new();
    let mut definitions: Vec<Span> = Vec::new();
    let mut calls: Vec<(&str, Span)> = Vec::new();
    let mut lambda = |l: &Option<Lambda>| lambdas.extend(l.as_ref().map(|l| l.span));
    for statement in &manifest.statements {
        statement.walk(&mut |e| match &e.kind {
            ExprKind::Call(call) => {
                lambda(&call.lambda);
                if matches!(call.name.as_str(), "break" | "next" | "return") {
                    calls.push((call.name.as_str(), e.span));
                }
            }
            ExprKind::MethodCall(call) => lambda(&call.lambda),
            ExprKind::Class(_) | ExprKind::Define(_) | ExprKind::Function(_) | ExprKind::Plan(_) => {
                definitions.push(e.span)
            }
            _ => {}
        });
    }
    let within = |spans: &[Span], at: Span| spans.iter().any(|s| s.start <= at.start && at.end <= s.end);
    for (name, at) in calls {
        let (in_lambda, in_definition) = (within(&lambdas, at), within(&definitions, at));
        let why = match name {
            "break" if !in_lambda => "it only ends the iteration of a lambda (`each`, `map`, …)",
            "next" if !in_lambda && !in_definition => {
                "it only leaves a lambda, a class, a defined type or a function, and this is top-level or node code"
            }
            "return" if !in_definition => {
                "it only leaves a class, a defined type or a function, and this is top-level or node code"
            }
            _ => continue,
        };
        let message = format!("{name}() from context where this is illegal: {why}");
        findings.push(Finding::in_file(&RULE, RULE.default_level, file, at, message));
    }
}
