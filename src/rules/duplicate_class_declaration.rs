//! `duplicate-class-declaration`

use super::{possible_duplicate_resource, RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::record::Event;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a resource-like class declaration (`class { 'x': }`) that runs
/// after class `x` is already declared, by `include`, `require`, `contain`
/// or another resource-like declaration, whenever both declarations run.
/// When they run together only if unknown conditions hold (one of them sits
/// in an `if` on a lookup, say), it is `possible-duplicate-resource`.
///
/// ## Why is this bad?
/// A class is a singleton; only `include`-like declarations are idempotent.
/// Puppet fails with "Duplicate declaration: Class[X] is already declared".
pub const RULE: RuleInfo = RuleInfo {
    id: "duplicate-class-declaration",
    name: "DuplicateClassDeclaration",
    default_level: Level::Error,
    summary: "A resource-like class declaration can run after the class is already declared.",
    documentation: include_str!("../../rules/duplicate-class-declaration.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::DuplicateClass { class, loc, earlier, unshared } = event else { continue };
        let entry = model.describe_entry(compilation);
        let related = vec![(*earlier, format!("`{class}` first declared here"))];
        if unshared.is_empty() {
            sink.report(
                &RULE,
                *loc,
                format!("class `{class}` is already declared when this resource-like declaration runs (in {entry})"),
                related,
            );
        } else if !compilation.hypothetical() {
            let conditions = possible_duplicate_resource::describe_conditions(model, compilation, unshared);
            sink.report(
                &possible_duplicate_resource::RULE,
                *loc,
                format!(
                    "Class[{}] is declared twice in the catalog of {entry} if {}",
                    super::reference_type(class),
                    conditions.join(" and ")
                ),
                related,
            );
        }
    }
}
