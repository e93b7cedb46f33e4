//! Policy constraints (`[[constraint]]` in a policy file): each is a rule
//! of its own, with the id, level and message the policy gives it.
//!
//! A value constraint tests the value an attribute evaluated to, wherever
//! it came from: a literal, a variable, a parameter's default, a value
//! passed at a declaration an include chain away. Values mplint cannot know
//! (facts, lookups, unpassed parameters that Hiera may set) are never
//! reported: a finding is certain. A `require-one-of` constraint looks at
//! the attributes the declaration itself sets; resource defaults and
//! collectors that add attributes are not seen.

use super::Sink;
use crate::model::record::{Compilation, Declared};
use crate::model::value::Value;
use crate::model::Model;
use crate::policy::{Constraint, Test};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    if compilation.declared.is_empty() {
        return;
    }
    sink.compilation(compilation);
    for constraint in &model.workspace.constraints {
        for declared in &compilation.declared {
            if declared.type_name != constraint.type_name {
                continue;
            }
            if let Some(pattern) = &constraint.title {
                match &declared.title {
                    Some(title) if pattern.is_match(title) => {}
                    _ => continue,
                }
            }
            check_one(constraint, declared, sink);
        }
    }
}

fn check_one(constraint: &Constraint, declared: &Declared, sink: &mut Sink<'_, '_>) {
    let what = describe(declared);
    match &constraint.test {
        Test::Value { attribute, .. } => {
            for (name, at, value) in &declared.attributes {
                if name != attribute {
                    continue;
                }
                for text in known_texts(value) {
                    if let Some(why) = constraint.violation(&text) {
                        let message = format!(
                            "{}: `{attribute}` of {what} is '{text}', {why} (constraint `{}` of policy {})",
                            constraint.message, constraint.id, constraint.policy
                        );
                        let related = vec![(declared.loc, format!("{what} declared here"))];
                        sink.report_for(constraint.id, constraint.level, *at, message, related, Vec::new());
                        break;
                    }
                }
            }
        }
        Test::OneOf(names) => {
            if !declared.attributes.iter().any(|(name, _, _)| names.contains(name)) {
                let message = format!(
                    "{}: {what} sets none of {} (constraint `{}` of policy {})",
                    constraint.message,
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                    constraint.id,
                    constraint.policy
                );
                sink.report_for(constraint.id, constraint.level, declared.loc, message, Vec::new(), Vec::new());
            }
        }
    }
}

/// The texts of a value that is known: a scalar, or each item of an array
/// of scalars. Unknown values, hashes and undef give none.
fn known_texts(value: &Value) -> Vec<String> {
    match value {
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => value.to_text().into_iter().collect(),
        Value::Array(items) => items.iter().flat_map(known_texts).collect(),
        _ => Vec::new(),
    }
}

/// `File['/etc/x']`, `Class['apache']`.
fn describe(declared: &Declared) -> String {
    let type_name: Vec<String> = declared
        .type_name
        .split("::")
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
        })
        .collect();
    match &declared.title {
        Some(title) => format!("`{}['{title}']`", type_name.join("::")),
        None => format!("`{}`", type_name.join("::")),
    }
}
