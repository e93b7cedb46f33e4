//! `variable-reassigned`

use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::record::Event;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports an assignment to a variable already assigned in the same scope
/// on a path that can run with it.
///
/// ## Why is this bad?
/// Puppet variables are immutable: the second assignment fails the
/// compilation with "Cannot reassign variable".
pub const RULE: RuleInfo = RuleInfo {
    id: "variable-reassigned",
    name: "VariableReassigned",
    default_level: Level::Error,
    summary: "A variable is assigned twice in one scope.",
    documentation: include_str!("../../rules/variable-reassigned.md"),
};

pub fn check(_model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        if let Event::Reassigned { name, loc, first } = event {
            let related = first.iter().map(|f| (*f, format!("`${name}` first assigned here"))).collect();
            sink.report(&RULE, *loc, format!("`${name}` is already assigned in this scope"), related);
        }
    }
}
