//! `duplicate-class-declaration`

use super::{RuleInfo, Sink};
use crate::model::record::Event;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a resource-like class declaration (`class { 'x': }`) that can run
/// after class `x` is already declared, by `include`, `require`, `contain`
/// or another resource-like declaration.
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

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for compilation in &model.compilations {
        sink.compilation(compilation);
        for event in &compilation.events {
            if let Event::DuplicateClass { class, loc, earlier, certain } = event {
                if compilation.hypothetical() && !certain {
                    continue;
                }
                let entry = model.describe_entry(compilation);
                sink.report(
                    &RULE,
                    *loc,
                    format!(
                        "class `{class}` is already declared when this resource-like declaration runs (in {entry})"
                    ),
                    vec![(*earlier, format!("`{class}` first declared here"))],
                );
            }
        }
    }
}
