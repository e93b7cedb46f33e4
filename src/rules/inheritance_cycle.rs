//! `inheritance-cycle`

use std::collections::BTreeSet;

use super::{RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody, Loc, Visibility};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports classes whose `inherits` clauses form a cycle, a class
/// inheriting itself included, whether or not anything declares them.
///
/// ## Why is this bad?
/// Declaring any class of the cycle makes Puppet recurse until it fails with
/// "stack level too deep"; undeclared, the cycle waits for the first user.
pub const RULE: RuleInfo = RuleInfo {
    id: "inheritance-cycle",
    name: "InheritanceCycle",
    default_level: Level::Error,
    summary: "Classes inherit from each other in a cycle.",
    documentation: include_str!("../../rules/inheritance-cycle.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
    for (name, definitions) in &model.index.types {
        for def in definitions {
            let standalone = match def.visibility {
                Visibility::File(f) => Some(f),
                Visibility::Global => None,
            };
            // Follow parents; a cycle returns to `name` within as many steps
            // as there are classes.
            let mut chain: Vec<(String, Loc)> = Vec::new();
            let mut current = name.clone();
            let mut cycle = false;
            for _ in 0..=model.index.types.len() {
                let Some((class, cdef)) = model.index.find_class(&current, standalone) else { break };
                let Some((parent, span)) = &class.parent else { break };
                chain.push((current.clone(), Loc::new(cdef.file, *span)));
                current = normalize_name(parent);
                if current == *name {
                    cycle = true;
                    break;
                }
                if chain.iter().any(|(c, _)| *c == current) {
                    break;
                }
            }
            if !cycle || !matches!(def.body, DefBody::Class(_)) {
                continue;
            }
            let mut members: Vec<String> = chain.iter().map(|(c, _)| c.clone()).collect();
            members.sort();
            if !seen.insert(members.clone()) {
                continue;
            }
            let description = if members.len() == 1 {
                format!("class `{name}` inherits itself")
            } else {
                let mut path: Vec<String> = chain.iter().map(|(c, _)| format!("`{c}`")).collect();
                path.push(format!("`{name}`"));
                format!("classes inherit in a cycle: {}", path.join(" → "))
            };
            let related = chain
                .iter()
                .map(|(class, loc)| (*loc, format!("`{class}` inherits from the next class of the cycle here")))
                .collect();
            sink.report(&RULE, chain[0].1, description, related);
        }
    }
}
