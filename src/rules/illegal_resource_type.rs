//! `illegal-resource-type`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::{Expr, ExprKind, NameText, Number};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a titled resource whose type is neither a name (`file`), a type
/// (`File`) nor an access to a type (`Resource[$kind]`): a variable, a
/// string, a word with `-` (a string too), a parenthesized expression. Also a collector of classes
/// (`Class <| |>`).
///
/// ## Why is this bad?
/// Puppet parses `$kind { 'x': }` but fails whenever it evaluates it, with
/// "Illegal Resource Type expression", whatever the value, even a type
/// such as `File`; a collector of classes fails with "Classes cannot be
/// collected". The syntax alone decides, so the rule reports such code
/// wherever it is, also in a class no node declares yet.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-resource-type",
    name: "IllegalResourceType",
    default_level: Level::Error,
    summary: "A resource's type is an expression Puppet refuses to evaluate as a type.",
    documentation: include_str!("../../rules/illegal-resource-type.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if let ExprKind::Collector(collector) = &e.kind {
                if let ExprKind::Name(n) | ExprKind::TypeRef(n) = &collector.type_expr.kind {
                    if n.without_anchor().eq_ignore_ascii_case("class") {
                        findings.push(Finding {
                            rule: RULE.id,
                            level: RULE.default_level,
                            path: file.source.path.clone(),
                            span: collector.type_expr.span,
                            message: "Classes cannot be collected: a collector takes virtual or exported resources, and classes are neither".into(),
                            related: Vec::new(),
                            flow: Vec::new(),
                            suppressed_by: None,
                        });
                    }
                }
                return;
            }
            let ExprKind::Resource(resource) = &e.kind else { return };
            let type_expr = &resource.type_expr;
            if is_type_reference(type_expr) {
                return;
            }
            let text = &file.source.text[type_expr.span.start..type_expr.span.end];
            findings.push(Finding {
                rule: RULE.id,
                level: RULE.default_level,
                path: file.source.path.clone(),
                span: type_expr.span,
                message: format!(
                    "Illegal Resource Type expression, expected result to be a type name, or untitled Resource, got {}",
                    describe(type_expr, text)
                ),
                related: Vec::new(),
                flow: Vec::new(),
                suppressed_by: None,
            });
        });
    }
}

/// What Puppet takes as a resource type without evaluating it first.
fn is_type_reference(expr: &Expr) -> bool {
    match &expr.kind {
        // A word with `-` (`ruby-enterprise::gem`) is a string to Puppet.
        ExprKind::Name(name) => !name.contains('-'),
        ExprKind::TypeRef(_) => true,
        ExprKind::Access { object, .. } => matches!(object.kind, ExprKind::TypeRef(_)),
        _ => false,
    }
}

/// The type Puppet names in its message, where a literal shows it;
/// otherwise the expression, and how to name a type by value.
fn describe(expr: &Expr, text: &str) -> String {
    match &expr.kind {
        ExprKind::Str(_) => "String".into(),
        ExprKind::Name(_) => "String (a word with `-` is a string, not a type name)".into(),
        ExprKind::Number(Number::Integer(_)) => "Integer".into(),
        ExprKind::Number(Number::Float(_)) => "Float".into(),
        ExprKind::Boolean(_) => "Boolean".into(),
        _ => {
            let inner = match &expr.kind {
                ExprKind::Paren(_) => text.trim_start_matches('(').trim_end_matches(')').trim(),
                _ => text,
            };
            format!("the value of `{text}` (`Resource[{inner}]` names a type by value)")
        }
    }
}
