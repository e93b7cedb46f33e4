//! `duplicate-entry`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ast::{Expr, ExprKind, Parameter};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports what Puppet's validator refuses as given twice: a parameter of
/// a class, defined type or function, a `default` option of a `case` or a
/// selector, and a second `* =>` in one resource body; and an attribute
/// set twice in one resource body, which Puppet's evaluator refuses.
///
/// ## Why is this bad?
/// Puppet refuses the whole file, so every catalog that needs it fails;
/// an attribute set twice fails every catalog that declares the resource.
pub const RULE: RuleInfo = RuleInfo {
    id: "duplicate-entry",
    name: "DuplicateEntry",
    default_level: Level::Error,
    summary: "A parameter, a `default` option, a `* =>` or a resource attribute given twice.",
    documentation: include_str!("../../rules/duplicate-entry.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    let mut report =
        |span, message: String| findings.push(Finding::in_file(&RULE, RULE.default_level, file, span, message));
    for statement in &manifest.statements {
        statement.walk(&mut |e| match &e.kind {
            ExprKind::Class(c) => parameters(&c.params, &mut report),
            ExprKind::Define(d) => parameters(&d.params, &mut report),
            ExprKind::Function(f) => parameters(&f.params, &mut report),
            ExprKind::Case(c) => {
                let defaults = c.options.iter().flat_map(|o| &o.matches).filter(|m| is_default(m));
                for second in defaults.skip(1) {
                    report(
                        second.span,
                        "this `case` already has a `default` option: Puppet refuses the file for the second".into(),
                    );
                }
            }
            ExprKind::Selector { entries, .. } => {
                if let Some(second) = entries.iter().map(|e| &e.matcher).filter(|m| is_default(m)).nth(1) {
                    report(
                        second.span,
                        "this selector already has a `default` option: Puppet refuses the file for the second".into(),
                    );
                }
            }
            ExprKind::Resource(r) => {
                for body in &r.bodies {
                    for splat in body.attributes.iter().filter(|a| a.name == "*").skip(1) {
                        report(
                            splat.span,
                            "a resource body can take attributes from a hash (`* =>`) only once; merge the hashes"
                                .into(),
                        );
                    }
                    for (i, attribute) in body.attributes.iter().enumerate().filter(|(_, a)| a.name != "*") {
                        if body.attributes[..i].iter().any(|earlier| earlier.name == attribute.name) {
                            report(
                                attribute.name_span,
                                format!(
                                    "`{}` is already set in this resource body: Puppet fails wherever it evaluates the resource (\"The attribute '{}' has already been set\")",
                                    attribute.name, attribute.name
                                ),
                            );
                        }
                    }
                }
            }
            _ => {}
        });
    }
}

fn is_default(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Default)
}

fn parameters(params: &[Parameter], report: &mut impl FnMut(crate::syntax::source::Span, String)) {
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|earlier| earlier.name == p.name) {
            report(p.name_span, format!("parameter `${}` is declared more than once", p.name));
        }
    }
}
