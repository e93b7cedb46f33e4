//! `unknown-type-reference`

use super::{RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::interp::BUILT_IN_TYPES;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind};

/// ## What it does
/// Reports a `case` option or a selector case written as a capitalised
/// bare word (`RedHat:`) that names no type: no data type, no resource
/// type of Puppet's, no class, defined type, type alias or Ruby type of
/// the tree.
///
/// ## Why is this bad?
/// Since Puppet 4 a capitalised word is a type reference, not a string:
/// Puppet fails with "Resource type not found: RedHat" when it gets to the
/// option. The author meant the string `'RedHat'`.
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-type-reference",
    name: "UnknownTypeReference",
    default_level: Level::Warning,
    summary: "A case option or selector case is a capitalised word that names no type.",
    documentation: include_str!("../../rules/unknown-type-reference.md"),
};

/// Puppet's data types and the types of its type system, lower-cased.
const DATA_TYPES: &[&str] = &[
    "any",
    "array",
    "binary",
    "boolean",
    "callable",
    "catalogentry",
    "class",
    "collection",
    "data",
    "default",
    "deferred",
    "enum",
    "error",
    "float",
    "hash",
    "init",
    "integer",
    "iterable",
    "iterator",
    "notundef",
    "numeric",
    "object",
    "optional",
    "pattern",
    "regexp",
    "resource",
    "richdata",
    "runtime",
    "scalar",
    "scalardata",
    "semver",
    "semverrange",
    "sensitive",
    "string",
    "struct",
    "timespan",
    "timestamp",
    "tuple",
    "type",
    "typealias",
    "typereference",
    "typeset",
    "undef",
    "unit",
    "uri",
    "variant",
    "node",
];

/// Resource types Puppet ships besides those it checks attributes of:
/// its own and those of the modules the agent package bundles.
const SHIPPED_RESOURCE_TYPES: &[&str] = &[
    "component",
    "whit",
    "computer",
    "interface",
    "k5login",
    "macauthorization",
    "mailalias",
    "maillist",
    "mcx",
    "router",
    "scheduled_task",
    "selboolean",
    "selmodule",
    "vlan",
    "zone",
    "exec",
];

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let ruby_types = model.ruby_types();
    let known = |name: &str| {
        let lower = name.to_ascii_lowercase();
        DATA_TYPES.contains(&lower.as_str())
            || BUILT_IN_TYPES.contains(&lower.as_str())
            || SHIPPED_RESOURCE_TYPES.contains(&lower.as_str())
            || lower.starts_with("nagios_")
            || model.index.types.contains_key(&lower)
            || model.index.type_aliases.keys().any(|alias| alias.eq_ignore_ascii_case(name))
            || ruby_types.contains_key(&lower)
    };
    model.walk_reported(|file, e: &Expr| {
        let options: Vec<&Expr> = match &e.kind {
            ExprKind::Case(case) => case.options.iter().flat_map(|o| &o.matches).collect(),
            ExprKind::Selector { entries, .. } => entries.iter().map(|entry| &entry.matcher).collect(),
            _ => return,
        };
        for option in options {
            let ExprKind::TypeRef(name) = &option.kind else { continue };
            if name.contains("::") || known(name) {
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
