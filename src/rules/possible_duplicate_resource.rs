//! `possible-duplicate-resource`

use super::{RuleInfo, Sink};
use crate::model::record::{Compilation, PathCond, ResourceDecl};
use crate::model::Model;
use crate::rules::duplicate_resource::{both_chains, describe};
use crate::rules::Level;

/// ## What it does
/// Reports two declarations of the same resource (a class declared
/// resource-like included) that one node's catalog holds together only if
/// conditions on values mplint cannot know (facts, lookups or class
/// parameters) hold, naming those conditions.
///
/// ## Why is this bad?
/// Where the conditions hold, Puppet fails the catalog with "Duplicate
/// declaration". Often they never do (the two values are tied in a way the
/// code does not show); then nothing needs to change.
pub const RULE: RuleInfo = RuleInfo {
    id: "possible-duplicate-resource",
    name: "PossibleDuplicateResource",
    default_level: Level::Note,
    summary: "Two declarations of one resource clash if unknown conditions hold together.",
    documentation: include_str!("../../rules/possible-duplicate-resource.md"),
};

/// Called by `duplicate-resource`, which finds the pairs.
pub fn report(
    model: &Model<'_>,
    compilation: &Compilation,
    later: &ResourceDecl,
    earlier: &ResourceDecl,
    conditions: &[String],
    sink: &mut Sink<'_, '_>,
) {
    let entry = model.describe_entry(compilation);
    let mut related = vec![(earlier.loc, format!("{} also declared here", describe(earlier)))];
    related.extend(both_chains(model, compilation, earlier, later).0);
    sink.report(
        &RULE,
        later.loc,
        format!("{} is declared twice in the catalog of {entry} if {}", describe(later), conditions.join(" and ")),
        related,
    );
}

/// The conditions of a path, for a message.
pub fn describe_conditions(model: &Model<'_>, compilation: &Compilation, conditions: &PathCond) -> Vec<String> {
    let mut described = compilation.describe_path(conditions, model.files);
    if compilation.names_partly(conditions, model.files) {
        described.push("conditions mplint cannot name".into());
    }
    described
}

/// The rule's findings are made by `duplicate-resource`'s query.
pub fn check(_model: &Model<'_>, _sink: &mut Sink<'_, '_>) {}
