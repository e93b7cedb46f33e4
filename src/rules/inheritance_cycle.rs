//! `inheritance-cycle`

use std::collections::{BTreeSet, HashMap, HashSet};

use super::{RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody, FileId, Loc, Visibility};
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
    // Classes known to be on no cycle, for each visibility: a walk that
    // reaches one stops there, so that long chains are walked once, not
    // once per class (which was quadratic, and cubic with the lookups).
    let mut acyclic: HashMap<Option<FileId>, HashSet<String>> = HashMap::new();
    for (name, definitions) in &model.index.types {
        for def in definitions {
            let standalone = match def.visibility {
                Visibility::File(f) => Some(f),
                Visibility::Global => None,
            };
            let known_acyclic = acyclic.entry(standalone).or_default();
            // Follow parents; a cycle returns to `name` within as many steps
            // as there are classes.
            let mut chain: Vec<(String, Loc)> = Vec::new();
            let mut position: HashMap<String, usize> = HashMap::new();
            let mut current = name.clone();
            let mut cycle = false;
            // Where the walk entered a cycle that `name` is not on.
            let mut entered_at = None;
            for _ in 0..=model.index.types.len() {
                if known_acyclic.contains(&current) && current != *name {
                    break;
                }
                let Some((class, cdef)) = model.index.find_class(&current, standalone) else { break };
                let Some((parent, span)) = &class.parent else { break };
                position.insert(current.clone(), chain.len());
                chain.push((current.clone(), Loc::new(cdef.file, *span)));
                current = normalize_name(parent);
                if current == *name {
                    cycle = true;
                    break;
                }
                if let Some(&at) = position.get(&current) {
                    entered_at = Some(at);
                    break;
                }
            }
            if !cycle {
                // Everything before a cycle the walk entered leads into it
                // without being on it.
                let end = entered_at.unwrap_or(chain.len());
                known_acyclic.extend(chain[..end].iter().map(|(c, _)| c.clone()));
                known_acyclic.insert(name.clone());
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
