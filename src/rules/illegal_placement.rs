//! `illegal-placement`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::{Attribute, AttributeOp, Expr, ExprKind, Parameter, ResourceForm};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports constructs in a place Puppet's validator refuses: a class,
/// defined type or node inside anything but the top level or a class; a
/// function or type alias anywhere but the top level; `+>` outside a
/// resource override or collector; a virtual or exported class; a
/// parameter that captures the rest (`*$rest`) in a class or defined type,
/// or anywhere but last in a lambda; and a collector where a value is
/// needed (`$x = File <| |>`).
///
/// ## Why is this bad?
/// Puppet refuses the whole file, so every catalog that needs it fails.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-placement",
    name: "IllegalPlacement",
    default_level: Level::Error,
    summary: "A definition, operator, parameter or collector where Puppet does not allow it.",
    documentation: include_str!("../../rules/illegal-placement.md"),
};

/// What owns a block of statements, for where definitions may be.
#[derive(Clone, Copy, PartialEq)]
enum Owner {
    Top,
    Class,
    Apply,
    Other,
}

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut report =
        |span, message: String| findings.push(Finding::in_file(&RULE, RULE.default_level, file, span, message));
    definitions(&manifest.statements, Owner::Top, &mut report);
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            let owner = match &e.kind {
                ExprKind::Class(_) => Owner::Class,
                ExprKind::Apply(_) => Owner::Apply,
                _ => Owner::Other,
            };
            for block in e.blocks() {
                definitions(&block.statements, owner, &mut report);
            }
            match &e.kind {
                ExprKind::Resource(r) => {
                    if r.form != ResourceForm::Regular && matches!(&r.type_expr.kind, ExprKind::Name(n) if n == "class") {
                        report(e.span, "a class cannot be virtual or exported (`@class`, `@@class`); declare it, or make its resources virtual".into());
                    }
                    for body in &r.bodies {
                        appends(&body.attributes, "a resource declaration", &mut report);
                        not_values(body.attributes.iter().map(|a| &a.value), &mut report);
                    }
                }
                ExprKind::ResourceDefaults(d) => {
                    appends(&d.attributes, "resource defaults", &mut report);
                    not_values(d.attributes.iter().map(|a| &a.value), &mut report);
                }
                ExprKind::ResourceOverride(d) => not_values(d.attributes.iter().map(|a| &a.value), &mut report),
                ExprKind::Collector(c) => not_values(c.overrides.iter().map(|a| &a.value), &mut report),
                ExprKind::Class(c) => captures_rest(&c.params, "a class", &mut report),
                ExprKind::Define(d) => captures_rest(&d.params, "a defined type", &mut report),
                ExprKind::Call(c) => {
                    if let Some(l) = &c.lambda {
                        rest_not_last(&l.params, &mut report);
                    }
                }
                ExprKind::MethodCall(c) => {
                    if let Some(l) = &c.lambda {
                        rest_not_last(&l.params, &mut report);
                    }
                }
                ExprKind::Assignment { value, .. } => not_values([&**value], &mut report),
                ExprKind::Binary { left, right, .. } => not_values([&**left, &**right], &mut report),
                // Parentheses are a unary operator for Puppet: they pass the
                // need for a value on.
                ExprKind::Unary { operand, .. } | ExprKind::Paren(operand) => not_values([&**operand], &mut report),
                ExprKind::Array(items) => not_values(items, &mut report),
                ExprKind::Hash(pairs) => not_values(pairs.iter().flat_map(|p| [&p.key, &p.value]), &mut report),
                ExprKind::If(i) | ExprKind::Unless(i) => not_values(i.branches.iter().map(|b| &b.condition), &mut report),
                ExprKind::Case(c) => {
                    not_values([&c.value], &mut report);
                    not_values(c.options.iter().flat_map(|o| &o.matches), &mut report);
                }
                ExprKind::Selector { value, entries } => {
                    not_values([&**value], &mut report);
                    not_values(entries.iter().map(|e| &e.matcher), &mut report);
                }
                _ => {}
            }
        });
    }
}

/// Definitions among `statements`, a block that `owner` owns.
fn definitions(statements: &[Expr], owner: Owner, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    if owner == Owner::Top {
        return;
    }
    for s in statements {
        let (what, top_only, at) = match &s.kind {
            ExprKind::Class(_) => ("a class", false, s.span),
            ExprKind::Define(_) => ("a defined type", false, s.span),
            ExprKind::Node(_) => ("a node", false, s.span),
            ExprKind::Function(_) => ("a function", true, s.span),
            ExprKind::TypeAlias(t) if t.mapping.is_empty() => ("a type alias", true, t.name_span),
            ExprKind::TypeDefinition(_) => ("a type definition", true, s.span),
            _ => continue,
        };
        if top_only {
            report(at, format!("{what} may only be defined at the top level of a file"));
        } else if !matches!(owner, Owner::Class | Owner::Apply) {
            report(at, format!("{what} may only be defined at the top level or directly inside a class"));
        }
    }
}

fn appends(attributes: &[Attribute], container: &str, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    for a in attributes.iter().filter(|a| a.op == AttributeOp::Append) {
        report(
            a.span,
            format!("`+>` cannot be used in {container}, only in an override (`File['x'] {{ … }}`) or a collector; use `=>`"),
        );
    }
}

fn captures_rest(params: &[Parameter], container: &str, report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    for p in params.iter().filter(|p| p.captures_rest) {
        report(p.name_span, format!("`*${}`: {container} cannot have a parameter that captures the rest", p.name));
    }
}

fn rest_not_last(params: &[Parameter], report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    let Some((_, init)) = params.split_last() else { return };
    for p in init.iter().filter(|p| p.captures_rest) {
        report(p.name_span, format!("`*${}` captures the rest, so it must be the last parameter", p.name));
    }
}

/// Collectors where a value is needed: they produce none.
fn not_values<'a>(
    values: impl IntoIterator<Item = &'a Expr>,
    report: &mut impl FnMut(crate::syntax::source::Span, String),
) {
    for v in values {
        if let ExprKind::Collector(c) = &v.kind {
            report(
                c.type_expr.span,
                "a collector produces no value; it cannot be used as one (assigned, compared, in an array or hash)"
                    .into(),
            );
        }
    }
}
