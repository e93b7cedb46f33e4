//! `illegal-name`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::variable_name_problem;
use crate::syntax::ast::{Expr, ExprKind, NodeMatcher, Parameter};
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports names Puppet's validator refuses: variables that are not
/// lower-case names or decimal match numbers (`$Port`, `$01`), parameters
/// that are not plain lower-case names (`$Port`, `$1`), classes, defined
/// types and functions that are not lower-case qualified names, or that
/// take a name Puppet's types own (`class string`), `$name` or `$title`
/// as a parameter of a class or defined type, the reserved words `attr`
/// and `private`, and node names with characters a host name cannot have.
/// The future reserved word `plan` as a name is a warning.
///
/// ## Why is this bad?
/// Puppet refuses the whole file, so every catalog that needs it fails.
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-name",
    name: "IllegalName",
    default_level: Level::Error,
    summary: "A variable, parameter, definition or node name Puppet refuses, or a reserved word.",
    documentation: include_str!("../../rules/illegal-name.md"),
};

/// Names of Puppet's own data types, which no class, defined type or
/// function may take.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "any",
    "array",
    "boolean",
    "collection",
    "enum",
    "float",
    "hash",
    "init",
    "integer",
    "numeric",
    "object",
    "optional",
    "pattern",
    "regexp",
    "runtime",
    "scalar",
    "semver",
    "semverrange",
    "sensitive",
    "string",
    "struct",
    "timespan",
    "timestamp",
    "tuple",
    "type",
    "typeset",
    "unit",
    "variant",
];

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let text = &file.source.text;
    let mut report = |level, span, message: String| findings.push(Finding::in_file(&RULE, level, file, span, message));
    // From the keyword, where Puppet reports, to the end of the name.
    let header = |e: &Expr, name: Span| file.source.span(e.span.start, name.end.max(e.span.start));
    // Definitions inside a class are named after it (`sysd::string`): only
    // the full name can be one of Puppet's own.
    let mut nested = std::collections::HashSet::new();
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if let ExprKind::Class(c) = &e.kind {
                for inner in &c.body.statements {
                    inner.walk(&mut |d| {
                        if matches!(d.kind, ExprKind::Class(_) | ExprKind::Define(_)) {
                            nested.insert(d.span.start);
                        }
                    });
                }
            }
        });
    }
    for statement in &manifest.statements {
        statement.walk(&mut |e| match &e.kind {
            ExprKind::Variable(v) => {
                if let Some(why) = variable_name_problem(&v.name) {
                    report(RULE.default_level, e.span, format!("`${}` is not a valid variable name: {why}", v.name));
                }
            }
            ExprKind::Reserved(word) => report(
                RULE.default_level,
                e.span,
                format!("`{word}` is a reserved word; quote it if it is meant as a string (`'{word}'`)"),
            ),
            ExprKind::Class(c) => {
                let written = &text[c.name_span.start..c.name_span.end];
                definition(header(e, c.name_span), "class", written, nested.contains(&e.span.start), &mut report);
                parameters(&c.params, Some("class"), &mut report);
            }
            ExprKind::Define(d) => {
                let written = &text[d.name_span.start..d.name_span.end];
                definition(header(e, d.name_span), "defined type", written, nested.contains(&e.span.start), &mut report);
                parameters(&d.params, Some("defined type"), &mut report);
            }
            ExprKind::Function(f) => {
                let written = &text[f.name_span.start..f.name_span.end];
                definition(header(e, f.name_span), "function", written, false, &mut report);
                parameters(&f.params, None, &mut report);
                if let Some(r) = &f.return_type {
                    future_reserved_type(r, &mut report);
                }
            }
            ExprKind::TypeAlias(t) => future_reserved_type(&t.value, &mut report),
            ExprKind::Call(c) => {
                if let Some(l) = &c.lambda {
                    parameters(&l.params, None, &mut report);
                }
            }
            ExprKind::MethodCall(c) => {
                if let Some(l) = &c.lambda {
                    parameters(&l.params, None, &mut report);
                }
            }
            ExprKind::Node(n) => {
                for matcher in &n.matchers {
                    match matcher {
                        NodeMatcher::Name(name, span) if !is_host_name(name) => report(
                            RULE.default_level,
                            *span,
                            format!("node name '{name}' has characters a host name cannot have (only letters, digits, `_`, `-` and `.`)"),
                        ),
                        NodeMatcher::Interpolated { at, .. } => report(
                            RULE.default_level,
                            *at,
                            "a node name cannot interpolate: node names are matched before any code runs".into(),
                        ),
                        _ => {}
                    }
                }
            }
            _ => {}
        });
    }
}

/// Checks a definition's name; `at` starts at its keyword, where Puppet
/// reports.
/// One `nested` in a class is named after it: `string` there is no type's.
fn definition(at: Span, what: &str, written: &str, nested: bool, report: &mut impl FnMut(Level, Span, String)) {
    if !is_definition_name(written) {
        report(
            RULE.default_level,
            at,
            format!("`{written}` is not a valid {what} name: lower-case names separated by `::`, each starting with a letter and holding letters, digits and `_`"),
        );
    } else if !nested && RESERVED_TYPE_NAMES.contains(&written) {
        report(
            RULE.default_level,
            at,
            format!("`{written}` is the name of one of Puppet's data types; a {what} cannot take it"),
        );
    } else if !nested && written == "plan" {
        report(
            Level::Warning,
            at,
            format!("`plan` is reserved for future use; a {what} named `plan` will stop working"),
        );
    }
}

/// A `Plan` type reference, which Puppet warns is reserved.
fn future_reserved_type(expr: &Expr, report: &mut impl FnMut(Level, Span, String)) {
    let reference = match &expr.kind {
        ExprKind::Access { object, .. } => object,
        _ => expr,
    };
    if let ExprKind::TypeRef(name) = &reference.kind {
        if name.eq_ignore_ascii_case("plan") {
            report(Level::Warning, expr.span, "`Plan` is reserved for future use as a type name".into());
        }
    }
}

/// `a::b_c`: lower-case segments starting with a letter.
fn is_definition_name(name: &str) -> bool {
    name.split("::").all(|s| {
        s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn parameters(params: &[Parameter], reserved_in: Option<&str>, report: &mut impl FnMut(Level, Span, String)) {
    for p in params {
        let name = p.name.as_str();
        let digits = name.strip_prefix("0x").unwrap_or(name);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            report(
                RULE.default_level,
                p.name_span,
                format!("`${name}` cannot be a parameter: numbered variables hold regex matches"),
            );
        } else if !is_parameter_name(name) {
            report(
                RULE.default_level,
                p.name_span,
                format!(
                    "`${name}` is not a valid parameter name: a lower-case letter or `_`, then letters, digits and `_`"
                ),
            );
        } else if let Some(what) = reserved_in.filter(|_| name == "name" || name == "title") {
            report(
                RULE.default_level,
                p.name_span,
                format!("`${name}` cannot be a parameter: every {what} has it already"),
            );
        }
    }
}

fn is_parameter_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Letters, digits, `_`, `-` and `.` only.
fn is_host_name(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}
