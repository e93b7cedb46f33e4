//! `statement-without-effect`

use super::{paren_calls_previous, puppet_span, Finding, Level, RuleInfo};
use crate::syntax::ast::{BinaryOp, Block, Expr, ExprKind, UnaryOp};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a statement that only produces a value, which is then
/// forgotten: a variable, a literal, a comparison, an `if` or `case` whose
/// branches do nothing, anywhere but last in its block; and such a
/// statement last in a class, defined type or node, whose value goes
/// nowhere either. A word alone is one too: `hiera_include 'classes'` is
/// two values, not a call, because only a few functions (`include`,
/// `notice`, …) may be called without parentheses.
///
/// ## Why is this bad?
/// Puppet refuses the whole file. The statement is usually a typo: a
/// missing `=`, a call without its parentheses, a stray word.
pub const RULE: RuleInfo = RuleInfo {
    id: "statement-without-effect",
    name: "StatementWithoutEffect",
    default_level: Level::Error,
    summary: "A statement whose value is forgotten: Puppet refuses it.",
    documentation: include_str!("../../rules/statement-without-effect.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut report = |e: &Expr, message: String| {
        findings.push(Finding::in_file(&RULE, RULE.default_level, file, puppet_span(file, e), message))
    };
    not_last(file, &manifest.statements, &mut report);
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            for block in e.blocks() {
                not_last(file, &block.statements, &mut report);
            }
            let owner = match &e.kind {
                ExprKind::Class(c) => Some((&c.body, "a class")),
                ExprKind::Define(d) => Some((&d.body, "a defined type")),
                ExprKind::Node(n) => Some((&n.body, "a node")),
                _ => None,
            };
            if let Some((body, owner)) = owner {
                last_in_body(file, body, owner, &mut report);
            }
        });
    }
}

/// The first statement of a block, but its last, that has no effect.
fn not_last(file: &ParsedFile, statements: &[Expr], report: &mut impl FnMut(&Expr, String)) {
    let Some((_, init)) = statements.split_last() else { return };
    for (i, statement) in init.iter().enumerate() {
        // `$f (1)` is one call for Puppet; `illegal-expression` reports it.
        if paren_calls_previous(file, &statements[i + 1]) || (i > 0 && paren_calls_previous(file, statement)) {
            continue;
        }
        if i > 0 && titles_type_before(file, &statements[i - 1], statement) {
            continue;
        }
        if has_no_effect(statement) {
            report(
                statement,
                format!(
                    "this {} has no effect: its value is forgotten (a missing `=`, or a call without parentheses?)",
                    describe(statement)
                ),
            );
            return;
        }
    }
}

fn last_in_body(file: &ParsedFile, body: &Block, owner: &str, report: &mut impl FnMut(&Expr, String)) {
    let Some(last) = body.statements.last() else { return };
    if is_untitled_resource(last) || paren_calls_previous(file, last) {
        return;
    }
    if let [.., previous, _] = body.statements.as_slice() {
        if titles_type_before(file, previous, last) {
            return;
        }
    }
    if has_no_effect(last) {
        report(
            last,
            format!("this {} has no effect: {owner} cannot end with a value that goes nowhere", describe(last)),
        );
    }
}

/// `Class['a'] -> Class ['b']`: the space before `[` leaves the type
/// without a title and makes the list a statement of its own;
/// `missing-relationship-target` reports the type.
fn titles_type_before(file: &ParsedFile, previous: &Expr, statement: &Expr) -> bool {
    let (ExprKind::Relationship { right, .. }, ExprKind::Array(_)) = (&previous.kind, &statement.kind) else {
        return false;
    };
    matches!(right.kind, ExprKind::TypeRef(_))
        && file
            .source
            .text
            .get(right.span.end..statement.span.start)
            .is_some_and(|gap| gap.chars().all(|c| c == ' ' || c == '\t'))
}

fn is_untitled_resource(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call(c) if c.untitled_resource)
}

/// Puppet's notion of an expression evaluated only for its value.
fn has_no_effect(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Variable(_)
        | ExprKind::Name(_)
        | ExprKind::TypeRef(_)
        | ExprKind::Number(_)
        | ExprKind::Boolean(_)
        | ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Str(_)
        | ExprKind::Regex(_)
        | ExprKind::Array(_)
        | ExprKind::Hash(_)
        | ExprKind::Access { .. }
        | ExprKind::Selector { .. } => true,
        ExprKind::Unary { op: UnaryOp::Not | UnaryOp::Negate | UnaryOp::Splat, .. } => true,
        // A match sets `$0`, `$1`, …
        ExprKind::Binary { op, .. } => !matches!(op, BinaryOp::Match | BinaryOp::NotMatch),
        ExprKind::Paren(inner) => has_no_effect(inner),
        ExprKind::If(i) | ExprKind::Unless(i) => {
            i.branches.iter().all(|b| has_no_effect(&b.condition) && block_has_no_effect(&b.body))
                && i.else_body.as_ref().is_none_or(block_has_no_effect)
        }
        ExprKind::Case(c) => {
            has_no_effect(&c.value)
                && c.options.iter().all(|o| o.matches.iter().all(has_no_effect) && block_has_no_effect(&o.body))
        }
        // `notify { message => 'x' }` is a name and a hash for Puppet.
        ExprKind::Call(c) => c.untitled_resource || (!c.parenthesized && c.args.is_empty() && c.lambda.is_none()),
        _ => false,
    }
}

fn block_has_no_effect(block: &Block) -> bool {
    block.statements.iter().all(has_no_effect)
}

fn describe(e: &Expr) -> &'static str {
    match &e.kind {
        ExprKind::Variable(_) => "variable",
        ExprKind::Name(_) => "bare word",
        ExprKind::TypeRef(_) => "type name",
        ExprKind::Number(_) => "number",
        ExprKind::Boolean(_) => "boolean",
        ExprKind::Undef => "`undef`",
        ExprKind::Default => "`default`",
        ExprKind::Str(_) => "string",
        ExprKind::Regex(_) => "regular expression",
        ExprKind::Array(_) => "array",
        ExprKind::Hash(_) => "hash",
        ExprKind::Access { .. } => "access",
        ExprKind::Selector { .. } => "selector",
        ExprKind::Unary { .. } => "expression",
        ExprKind::Binary { op, .. } => match op {
            BinaryOp::And | BinaryOp::Or => "logical expression",
            BinaryOp::In => "`in` expression",
            BinaryOp::Equal
            | BinaryOp::NotEqual
            | BinaryOp::Less
            | BinaryOp::LessEqual
            | BinaryOp::Greater
            | BinaryOp::GreaterEqual => "comparison",
            _ => "arithmetic expression",
        },
        ExprKind::Paren(inner) => describe(inner),
        ExprKind::If(_) => "`if`",
        ExprKind::Unless(_) => "`unless`",
        ExprKind::Case(_) => "`case`",
        ExprKind::Call(c) if c.untitled_resource => "resource without a title",
        ExprKind::Call(_) => "bare word",
        _ => "expression",
    }
}
