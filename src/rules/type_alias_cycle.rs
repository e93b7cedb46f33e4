//! `type-alias-cycle`

use std::collections::{BTreeMap, BTreeSet};

use super::{RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody, Loc};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind};

/// ## What it does
/// Reports type aliases that stand only for type aliases standing, in the
/// end, for themselves: `type Foo = Bar` with `type Bar = Foo`, or
/// `type Bar = Variant[Foo, Fee]` where `Foo` and `Fee` come back to
/// `Bar`. No real type is ever reached. An alias that refers to itself
/// inside another type (`type Tree = Variant[Integer, Array[Tree]]`) is a
/// recursive type and fine.
///
/// ## Why is this bad?
/// Wherever the alias is used, Puppet fails with "Type alias 'Foo' cannot
/// be resolved to a real type".
pub const RULE: RuleInfo = RuleInfo {
    id: "type-alias-cycle",
    name: "TypeAliasCycle",
    default_level: Level::Error,
    summary: "A type alias stands only for type aliases that come back to it: no real type.",
    documentation: include_str!("../../rules/type-alias-cycle.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    // Each alias defined once, with the aliases its body is made of alone:
    // a bare alias name, or a `Variant` of nothing but alias names.
    let mut only_aliases: BTreeMap<&str, (Vec<String>, Loc)> = BTreeMap::new();
    for (name, definitions) in &model.index.type_aliases {
        let [definition] = definitions.as_slice() else { continue };
        let DefBody::TypeAlias(alias) = definition.body else { continue };
        if !alias.mapping.is_empty() {
            continue;
        }
        let is_alias = |n: &str| model.index.type_aliases.get(&normalize_name(n)).is_some_and(|d| d.len() == 1);
        if let Some(members) = alias_members(&alias.value, &is_alias) {
            only_aliases.insert(name.as_str(), (members, definition.loc()));
        }
    }
    // Those that never reach a real type: drop every alias with a member
    // that may, until nothing changes.
    let mut unresolved: BTreeSet<&str> = only_aliases.keys().copied().collect();
    loop {
        let resolvable: Vec<&str> = unresolved
            .iter()
            .copied()
            .filter(|name| only_aliases[name].0.iter().any(|m| !unresolved.contains(m.as_str())))
            .collect();
        if resolvable.is_empty() {
            break;
        }
        for name in resolvable {
            unresolved.remove(name);
        }
    }
    for name in &unresolved {
        let (members, loc) = &only_aliases[name];
        let shown = reference_name(name);
        let stands_for: Vec<String> = members.iter().map(|m| format!("`{}`", reference_name(m))).collect();
        let message = format!(
            "type alias `{shown}` stands only for {}, which {} back to it: Puppet fails with \"Type alias '{shown}' cannot be resolved to a real type\" wherever it is used",
            stands_for.join(", "),
            if stands_for.len() == 1 { "comes" } else { "come" }
        );
        let related = members
            .iter()
            .filter(|m| m.as_str() != *name)
            .filter_map(|m| {
                only_aliases.get(m.as_str()).map(|(_, at)| (*at, format!("`{}` defined here", reference_name(m))))
            })
            .collect();
        sink.report(&RULE, *loc, message, related);
    }
}

/// The alias names a type expression consists of alone, normalised; `None`
/// when it names a real type somewhere at its top.
fn alias_members(expr: &Expr, is_alias: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
    match &expr.kind {
        ExprKind::TypeRef(name) if is_alias(name) => Some(vec![normalize_name(name)]),
        ExprKind::Paren(inner) => alias_members(inner, is_alias),
        ExprKind::Access { object, index } => {
            let ExprKind::TypeRef(variant) = &object.kind else { return None };
            if variant != "Variant" || index.is_empty() {
                return None;
            }
            let mut members = Vec::new();
            for member in index {
                members.extend(alias_members(member, is_alias)?);
            }
            Some(members)
        }
        _ => None,
    }
}

/// A type name as code writes it: `profile::port` → `Profile::Port`.
fn reference_name(name: &str) -> String {
    super::reference_type(name)
}
