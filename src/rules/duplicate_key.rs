//! `duplicate-key`

use super::{next_token, Finding, Level, RuleInfo};
use crate::syntax::ast::{Expr, ExprKind, Number, StringKind, StringLit};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a hash literal that gives the same key twice, where both keys
/// are literal values (`{ 'a' => 1, a => 2 }`, `{ 1 => x, 0x1 => y }`).
///
/// ## Why is this bad?
/// Only the last value is kept; the earlier one is silently lost. Puppet 7
/// warns about it, and with `strict = error` (the default of Puppet 8) it
/// refuses the file.
pub const RULE: RuleInfo = RuleInfo {
    id: "duplicate-key",
    name: "DuplicateKey",
    default_level: Level::Warning,
    summary: "A hash literal gives the same key twice; the first value is lost.",
    documentation: include_str!("../../rules/duplicate-key.md"),
};

/// A literal value as Puppet compares hash keys.
#[derive(Debug, PartialEq)]
enum Literal {
    Str(String),
    Integer(i64),
    Float(f64),
    Boolean(bool),
    Undef,
    Default,
    Regex(String),
    Array(Vec<Literal>),
    Hash(Vec<(Literal, Literal)>),
}

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let text = &file.source.text;
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            let ExprKind::Hash(pairs) = &e.kind else { return };
            // Keys by their canonical text: a hash of 80,000 keys is linear.
            let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
            for pair in pairs {
                let Some(key) = literal(&pair.key) else { continue };
                if !seen.insert(canonical(&key)) {
                    // Puppet places a hash entry at its `=>`.
                    let arrow = next_token(text, pair.key.span.end);
                    let span = file.source.span(arrow, (arrow + 2).min(text.len()));
                    let written = &text[pair.key.span.start..pair.key.span.end];
                    findings.push(Finding::in_file(
                        &RULE,
                        RULE.default_level,
                        file,
                        span,
                        format!(
                            "the key `{written}` is given more than once in this hash; only the last value is kept"
                        ),
                    ));
                }
            }
        });
    }
}

/// Text equal for two keys exactly when the keys are equal (`-0.0` is `0.0`).
fn canonical(literal: &Literal) -> String {
    match literal {
        Literal::Float(f) if *f == 0.0 => format!("{:?}", Literal::Float(0.0)),
        Literal::Array(items) => format!("Array[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        Literal::Hash(pairs) => format!(
            "Hash[{}]",
            pairs.iter().map(|(k, v)| format!("{}=>{}", canonical(k), canonical(v))).collect::<Vec<_>>().join(",")
        ),
        other => format!("{other:?}"),
    }
}

fn literal(e: &Expr) -> Option<Literal> {
    Some(match &e.kind {
        ExprKind::Str(StringLit { kind: StringKind::SingleQuoted | StringKind::DoubleQuoted, .. }) => {
            let ExprKind::Str(s) = &e.kind else { return None };
            Literal::Str(s.as_literal()?)
        }
        ExprKind::Name(n) => Literal::Str(n.clone()),
        ExprKind::Number(Number::Integer(i)) => Literal::Integer(*i),
        ExprKind::Number(Number::Float(f)) => Literal::Float(*f),
        ExprKind::Boolean(b) => Literal::Boolean(*b),
        ExprKind::Undef => Literal::Undef,
        ExprKind::Default => Literal::Default,
        ExprKind::Regex(r) => Literal::Regex(r.clone()),
        ExprKind::Array(items) => Literal::Array(items.iter().map(literal).collect::<Option<_>>()?),
        ExprKind::Hash(pairs) => {
            Literal::Hash(pairs.iter().map(|p| Some((literal(&p.key)?, literal(&p.value)?))).collect::<Option<_>>()?)
        }
        _ => return None,
    })
}
