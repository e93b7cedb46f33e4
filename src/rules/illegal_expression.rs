//! `illegal-expression`

use super::{paren_calls_previous, puppet_span, Finding, Level, RuleInfo};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Number, StringKind};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports expressions Puppet parses but its validator refuses: a resource
/// without a title (`notify { message => 'x' }`), a call of something that
/// is not a function name (`$f(1)`), a collector of a type given by value
/// (`Resource['file'] <| |>`), a collector query with an operator other
/// than `==`, `!=`, `and` and `or`, an integer beyond 64 bits, node
/// inheritance, a type alias to an array, and the type definitions and
/// type mappings Puppet does not support.
///
/// ## Why is this bad?
/// Puppet refuses the whole file, so every catalog that needs it fails.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-expression",
    name: "IllegalExpression",
    default_level: Level::Error,
    summary: "An expression Puppet parses but refuses: a resource without a title, a call of a value, a bad collector query, an integer overflow, node inheritance.",
    documentation: include_str!("../../rules/illegal-expression.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut report =
        |span, message: String| findings.push(Finding::in_file(&RULE, RULE.default_level, file, span, message));
    calls_of_values(file, &manifest.statements, &mut report);
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            for block in e.blocks() {
                calls_of_values(file, &block.statements, &mut report);
            }
            match &e.kind {
                ExprKind::Call(c) if c.untitled_resource => report(
                    c.name_span,
                    format!("`{} {{ … }}` is a resource without a title: give it one (`{} {{ 'title': … }}`), or write defaults with a capital (`{} {{ … }}`)", c.name, c.name, super::type_reference(&c.name)),
                ),
                // `$x[1](2)`: only a type's access is called (`Integer[0, 9]('5')`,
                // lowered as a call of `new` on it).
                ExprKind::Call(c) if c.name == "new" && c.args.first().is_some_and(|a| a.span == c.name_span) => {
                    if let ExprKind::Access { object, .. } = &c.args[0].kind {
                        if !matches!(object.kind, ExprKind::TypeRef(_)) {
                            report(c.name_span, "an access (`[]`) is called as a function, but only a type's can be (`Integer[0, 9]('5')`)".into());
                        }
                    }
                }
                ExprKind::Collector(c) => {
                    if !matches!(c.type_expr.kind, ExprKind::TypeRef(_)) {
                        report(c.type_expr.span, "a collector needs a type name (`File <| |>`), not an expression".into());
                    }
                    if let Some(query) = &c.query {
                        collector_query(file, query, &mut report);
                    }
                }
                ExprKind::Number(Number::Overflow(text)) => report(
                    e.span,
                    format!("`{text}` is outside the range of Puppet's integers (64 bits, -2**63 to 2**63-1)"),
                ),
                ExprKind::Node(n) => {
                    if let Some(parent) = &n.parent {
                        report(parent.span(), "nodes cannot inherit since Puppet 4; use classes (roles and profiles) for what they share".into());
                    }
                }
                ExprKind::TypeDefinition(_) => report(
                    e.span,
                    "type definitions (`type X inherits Y {…}`) are not supported by Puppet; use `type X = Object[{…}]`".into(),
                ),
                ExprKind::TypeAlias(t) if !t.mapping.is_empty() => type_mapping(t, &mut report),
                ExprKind::TypeAlias(t) => {
                    if matches!(t.value.kind, ExprKind::Array(_)) {
                        report(t.value.span, format!("type alias `{}` must name a type, not an array", t.name));
                    }
                }
                _ => {}
            }
        });
    }
}

/// `$f (1)`: Puppet calls whatever precedes a `(` on the same line.
fn calls_of_values(
    file: &ParsedFile,
    statements: &[Expr],
    report: &mut impl FnMut(crate::syntax::source::Span, String),
) {
    for pair in statements.windows(2) {
        if !paren_calls_previous(file, &pair[1]) {
            continue;
        }
        let functor = rightmost(&pair[0]);
        let callable = match &functor.kind {
            ExprKind::Name(_) | ExprKind::TypeRef(_) => true,
            ExprKind::Access { object, .. } => matches!(object.kind, ExprKind::TypeRef(_)),
            ExprKind::Variable(_)
            | ExprKind::Str(_)
            | ExprKind::Number(_)
            | ExprKind::Boolean(_)
            | ExprKind::Array(_)
            | ExprKind::Hash(_)
            | ExprKind::Paren(_) => false,
            // Anything else: how Puppet would group it is not certain.
            _ => true,
        };
        if !callable {
            report(
                functor.span,
                "this is called as a function (`(` follows it on the same line), but it is not a function name; put the `(` on a line of its own if it starts a new expression".into(),
            );
        }
    }
}

/// The expression a `(` right after `e` applies to.
fn rightmost(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Assignment { value: right, .. } | ExprKind::Binary { right, .. } => rightmost(right),
        _ => e,
    }
}

/// A collector query may only compare with `==` and `!=`, combined with
/// `and` and `or`.
fn collector_query(file: &ParsedFile, query: &Expr, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    match &query.kind {
        ExprKind::Binary { op: BinaryOp::And | BinaryOp::Or, left, right } => {
            collector_query(file, left, report);
            collector_query(file, right, report);
        }
        ExprKind::Paren(inner) => collector_query(file, inner, report),
        ExprKind::Binary { op: BinaryOp::Equal | BinaryOp::NotEqual, .. }
        | ExprKind::Variable(_)
        | ExprKind::Name(_)
        | ExprKind::Number(_)
        | ExprKind::Boolean(_) => {}
        ExprKind::Str(s) if !matches!(s.kind, StringKind::Heredoc { .. }) && s.as_literal().is_some() => {}
        ExprKind::Binary { op, .. } => report(
            puppet_span(file, query),
            format!(
                "a collector query can only compare with `==` and `!=` (joined by `and`, `or`), not `{}`",
                op.token()
            ),
        ),
        _ => report(
            puppet_span(file, query),
            "a collector query can only compare attributes with `==` and `!=`, joined by `and` and `or`".into(),
        ),
    }
}

/// `type Runtime[…] = …`: Puppet's grammar accepts mappings of runtime types
/// but its validator only the two forms it implements.
fn type_mapping(t: &crate::syntax::ast::TypeAlias, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    let at = t.name_span;
    if t.name != "Runtime" {
        report(at, "type mappings are only supported for `Runtime[…]` types".into());
        return;
    }
    let is_replacement = |e: &Expr| match &e.kind {
        ExprKind::Array(items) => {
            items.len() == 2
                && matches!(items[0].kind, ExprKind::Regex(_))
                && matches!(&items[1].kind, ExprKind::Str(s) if s.as_literal().is_some() && !matches!(s.kind, StringKind::Heredoc { .. }))
        }
        _ => false,
    };
    let is_type = |e: &Expr| match &e.kind {
        ExprKind::TypeRef(_) => true,
        ExprKind::Access { object, .. } => matches!(object.kind, ExprKind::TypeRef(_)),
        _ => false,
    };
    let by_pattern = t.mapping.len() == 2 && is_replacement(&t.mapping[1]);
    let mismatch = if by_pattern { !is_replacement(&t.value) } else { !is_type(&t.value) };
    if mismatch {
        let expected = if by_pattern {
            "a pattern mapping (`Runtime[ruby, [/re/, 'X']]`) must map to `[/re/, 'replacement']`"
        } else {
            "a runtime type mapping must map to a type"
        };
        report(at, expected.into());
    }
}
