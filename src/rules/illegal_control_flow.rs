//! `illegal-control-flow`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::ExprKind;
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports `break()`, `next()` and `return()` where Puppet cannot obey
/// them: `break()` outside any lambda in top-level code, a node or a defined
/// type; `next()` outside a lambda, class, defined type or function (in
/// top-level code or a node); `return()` outside a class, defined type or
/// function (in top-level code, a node, or a lambda there).
///
/// ## Why is this bad?
/// Puppet fails when it evaluates the call: "break() from context where
/// this is illegal". The place alone decides. (A `break()` in a class or a
/// function leaves the iteration that declares the class or calls the
/// function, if there is one: that is not judged.)
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
    // Classes, functions and plans run where they are declared or called;
    // defined types run at the end of the compilation.
    let mut run_in_place: Vec<Span> = Vec::new();
    let mut defines: Vec<Span> = Vec::new();
    let mut calls: Vec<(&str, Span)> = Vec::new();
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            lambdas.extend(e.lambda().map(|l| l.span));
            match &e.kind {
                ExprKind::Call(call) if matches!(call.name.as_str(), "break" | "next" | "return") => {
                    calls.push((call.name.as_str(), e.span))
                }
                ExprKind::Class(_) | ExprKind::Function(_) | ExprKind::Plan(_) => run_in_place.push(e.span),
                ExprKind::Define(_) => defines.push(e.span),
                _ => {}
            }
        });
    }
    let within = |spans: &[Span], at: Span| spans.iter().any(|s| s.contains(at));
    for (name, at) in calls {
        let (in_lambda, in_place) = (within(&lambdas, at), within(&run_in_place, at));
        let in_definition = in_place || within(&defines, at);
        let why = match name {
            "break" if !in_lambda && !in_place => "it only ends the iteration of a lambda (`each`, `map`, …)",
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
