//! `unknown-type-reference`

use super::{RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{BinaryOp, Expr, ExprKind};

/// ## What it does
/// Reports a `case` option, a selector case or an operand of `==`, `!=`
/// or `in` written as a capitalised bare word (`RedHat:`, `$os == RedHat`)
/// that names no type: no data type, no resource type of Puppet's, no
/// class, defined type, type alias or Ruby type of the tree.
///
/// ## Why is this bad?
/// Since Puppet 4 a capitalised word is a type reference, not a string:
/// Puppet fails with "Resource type not found: RedHat" when it gets to the
/// option. The author meant the string `'RedHat'`.
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-type-reference",
    name: "UnknownTypeReference",
    default_level: Level::Warning,
    summary: "A case option, selector case or compared value is a capitalised word that names no type.",
    documentation: include_str!("../../rules/unknown-type-reference.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let type_names = model.type_names();
    model.walk_reported(|file, e: &Expr| {
        let options: Vec<&Expr> = match &e.kind {
            ExprKind::Case(case) => case.options.iter().flat_map(|o| &o.matches).collect(),
            ExprKind::Selector { entries, .. } => entries.iter().map(|entry| &entry.matcher).collect(),
            ExprKind::Binary { op: BinaryOp::Equal | BinaryOp::NotEqual | BinaryOp::In, left, right } => {
                let listed = match &right.kind {
                    ExprKind::Array(items) => items.iter().collect(),
                    _ => vec![&**right],
                };
                std::iter::once(&**left).chain(listed).collect()
            }
            _ => return,
        };
        for option in options {
            if let Some((first, hyphenated)) = hyphenated_words(option, &model.files[file].source.text) {
                let ExprKind::TypeRef(name) = &first.kind else { continue };
                if type_names.names_no_type(name) {
                    sink.report(
                        &RULE,
                        Loc::new(file, first.span),
                        format!(
                            "`{hyphenated}` is the subtraction `{}`, and `{name}` names no type: Puppet fails with \"Resource type not found: {name}\" when it evaluates it; write the string '{hyphenated}'",
                            hyphenated.replace('-', " - ")
                        ),
                        vec![],
                    );
                }
                continue;
            }
            let ExprKind::TypeRef(name) = &option.kind else { continue };
            if !type_names.names_no_type(name) {
                continue;
            }
            sink.report(
                &RULE,
                Loc::new(file, option.span),
                format!(
                    "`{name}` names no type: a capitalised word is a type reference, and Puppet fails with \"Resource type not found: {name}\" when it compares the value with it; write the string '{name}'"
                ),
                vec![],
            );
        }
    });
}

/// Bare words joined by hyphens without spaces (`RedHat-Fedora`), which
/// Puppet 3 read as one string and Puppet 4 reads as subtractions: the
/// first word, which Puppet evaluates first, and the text.
fn hyphenated_words<'e>(option: &'e Expr, text: &str) -> Option<(&'e Expr, String)> {
    let ExprKind::Binary { op: BinaryOp::Subtract, .. } = &option.kind else { return None };
    let written = text.get(option.span.start..option.span.end)?;
    if written.contains(|c: char| c.is_whitespace()) {
        return None;
    }
    let mut first = option;
    while let ExprKind::Binary { op: BinaryOp::Subtract, left, right } = &first.kind {
        if !matches!(right.kind, ExprKind::TypeRef(_) | ExprKind::Name(_)) {
            return None;
        }
        first = left;
    }
    matches!(first.kind, ExprKind::TypeRef(_)).then(|| (first, written.to_string()))
}
