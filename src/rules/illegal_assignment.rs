//! `illegal-assignment`

use super::{puppet_span, Finding, Level, RuleInfo};
use crate::syntax::ast::{is_decimal, AssignOp, Expr, ExprKind, Parameter};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports assignments Puppet's validator refuses before it evaluates
/// anything: to a variable of another namespace (`$a::x = 1`, `$::x = 1`),
/// to a regex match variable (`$1 = 'x'`), to an element (`$x[0] = 1`),
/// to a value (`'a' = 1`), with `+=` or `-=`, and inside a parameter's
/// default value. Also assignments Puppet refuses when it evaluates them:
/// to `$facts`, `$trusted` or `$server_facts` (reserved), and to `$title`
/// or `$name` in top-level or node code (built in; in classes and defined
/// types `variable-reassigned` reports it).
///
/// ## Why is this bad?
/// Puppet refuses the whole file, so every catalog that needs it fails; or
/// fails each catalog that evaluates the assignment.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-assignment",
    name: "IllegalAssignment",
    default_level: Level::Error,
    summary: "An assignment Puppet refuses: to another namespace, a match variable, an element or a value, `+=`/`-=`, or in a parameter default.",
    documentation: include_str!("../../rules/illegal-assignment.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut report = |span, message: String| {
        findings.push(Finding::in_file(&RULE, RULE.default_level, file, span, message));
    };
    // Lambdas and functions may assign `$title` and `$name` of their own;
    // in classes and defined types, variable-reassigned tells.
    let mut own_scopes: Vec<crate::syntax::source::Span> = Vec::new();
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            own_scopes.extend(e.lambda().map(|l| l.span));
            if matches!(e.kind, ExprKind::Function(_) | ExprKind::Class(_) | ExprKind::Define(_) | ExprKind::Plan(_)) {
                own_scopes.push(e.span);
            }
        });
    }
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if let ExprKind::Assignment { op, target, .. } = &e.kind {
                match op {
                    AssignOp::Assign => {
                        check_target(target, &mut report);
                        let in_own_scope = own_scopes.iter().any(|scope| scope.contains(e.span));
                        built_in_targets(target, in_own_scope, &mut report);
                    }
                    AssignOp::Append | AssignOp::Delete => {
                        let operator = if *op == AssignOp::Append { "+=" } else { "-=" };
                        report(
                            puppet_span(file, e),
                            format!(
                                "`{operator}` is not supported since Puppet 4: variables cannot change; assign a new variable (`$y = $x + [...]` or `$x - [...]`)"
                            ),
                        );
                    }
                }
            }
            for params in parameter_lists(e) {
                for param in params {
                    if let Some(default) = &param.default {
                        assignments_outside_lambdas(default, &mut |a| {
                            report(
                                puppet_span(file, a),
                                format!(
                                    "an assignment is not allowed in the default value of parameter `${}`",
                                    param.name
                                ),
                            )
                        });
                    }
                }
            }
        });
    }
}

/// What `target = …` assigns to, as Puppet's validator sees it.
fn check_target(target: &Expr, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    match &target.kind {
        ExprKind::Variable(v) if is_decimal(&v.name) => {
            report(target.span, format!("`${}` is a regex match variable; it cannot be assigned", v.name))
        }
        ExprKind::Variable(v) if v.is_qualified() => report(
            target.span,
            format!(
                "cannot assign to `${}`: a variable can only be assigned in its own scope, without a namespace",
                v.name
            ),
        ),
        ExprKind::Variable(_) => {}
        ExprKind::Access { .. } => report(
            target.span,
            "cannot assign to an element (`$x[key] = …`): values cannot change; build a new array or hash".into(),
        ),
        ExprKind::Array(items) => {
            for item in items {
                check_target(item, report);
            }
        }
        _ => report(target.span, "cannot assign to this expression: only variables can be assigned".into()),
    }
}

/// Assignments to variables Puppet keeps for itself: reserved ones
/// anywhere, `$title` and `$name` in top-level or node code.
fn built_in_targets(target: &Expr, in_own_scope: bool, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    match &target.kind {
        ExprKind::Variable(v) => match &*v.name {
            "facts" | "trusted" | "server_facts" => {
                report(target.span, format!("Attempt to assign to a reserved variable name: '${}'", v.name))
            }
            "title" | "name" if !in_own_scope => report(
                target.span,
                format!("Cannot reassign built in variable '${}': every scope has it, set by Puppet", v.name),
            ),
            _ => {}
        },
        ExprKind::Array(items) => items.iter().for_each(|item| built_in_targets(item, in_own_scope, report)),
        _ => {}
    }
}

/// The parameter lists an expression owns (definitions and lambdas).
fn parameter_lists(e: &Expr) -> Vec<&[Parameter]> {
    match &e.kind {
        ExprKind::Class(c) => vec![&c.params],
        ExprKind::Define(d) | ExprKind::Plan(d) => vec![&d.params],
        ExprKind::Function(f) => vec![&f.params],
        ExprKind::Call(c) => c.lambda.iter().map(|l| l.params.as_slice()).collect(),
        ExprKind::MethodCall(c) => c.lambda.iter().map(|l| l.params.as_slice()).collect(),
        _ => Vec::new(),
    }
}

/// The outermost assignments in `e`, except inside lambdas (which have
/// scopes of their own).
fn assignments_outside_lambdas<'a>(e: &'a Expr, found: &mut impl FnMut(&'a Expr)) {
    let mut skipped: Vec<(usize, usize)> = Vec::new();
    e.walk(&mut |child| {
        let inside = |(start, end): (usize, usize)| start <= child.span.start && child.span.end <= end;
        if skipped.iter().copied().any(inside) {
            return;
        }
        let lambda = match &child.kind {
            ExprKind::Call(c) => c.lambda.as_ref(),
            ExprKind::MethodCall(c) => c.lambda.as_ref(),
            _ => None,
        };
        if let Some(l) = lambda {
            skipped.push((l.span.start, l.span.end));
        }
        if matches!(child.kind, ExprKind::Assignment { .. }) {
            skipped.push((child.span.start, child.span.end));
            found(child);
        }
    });
}
