//! `incomplete-node`

use std::collections::BTreeMap;

use super::{RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::record::{Compilation, Event};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports, once per function, a node definition that calls a function
/// that is neither Puppet's own nor defined in the checked tree, such as a
/// site's `role(web)` written in Ruby elsewhere. Such a function may
/// declare classes: the node's compilation does not see them, and the
/// classes are checked only on their own.
///
/// ## Why is this bad?
/// It is not wrong in itself, but mplint checks less than it could: declare
/// the function in `.mplint.toml` (`[include-functions.role]`) so that
/// node compilations reach the classes it declares.
pub const RULE: RuleInfo = RuleInfo {
    id: "incomplete-node",
    name: "IncompleteNode",
    default_level: Level::Note,
    summary: "A node calls a function mplint does not know; the classes it declares are not seen.",
    documentation: include_str!("../../rules/incomplete-node.md"),
};

/// The calls node code makes to functions that are neither Puppet's nor
/// in the tree's manifests, by function name.
#[derive(Default, Clone)]
pub struct NodeCalls(BTreeMap<String, Vec<Loc>>);

impl NodeCalls {
    /// The calls, to keep on disk.
    pub fn to_stored(&self) -> Vec<(String, Vec<Loc>)> {
        self.0.iter().map(|(name, places)| (name.clone(), places.clone())).collect()
    }

    /// What [`NodeCalls::to_stored`] kept.
    pub fn from_stored(stored: Vec<(String, Vec<Loc>)>) -> Self {
        NodeCalls(stored.into_iter().collect())
    }

    /// Adds the calls another compilation found.
    pub fn merge(&mut self, other: NodeCalls) {
        for (name, places) in other.0 {
            self.0.entry(name).or_default().extend(places);
        }
    }
}

/// Collects a compilation's node calls.
pub fn collect(model: &Model<'_>, compilation: &Compilation, calls: &mut NodeCalls) {
    for event in &compilation.events {
        let Event::NodeCall { name, loc } = event else { continue };
        let in_manifests = model.index.functions.contains_key(&crate::model::index::normalize_name(name));
        if !in_manifests && model.is_reported(*loc) {
            calls.0.entry(name.clone()).or_default().push(*loc);
        }
    }
}

pub fn check(model: &Model<'_>, calls: NodeCalls, sink: &mut Sink<'_, '_>) {
    let ruby = model.workspace.ruby_functions();
    let calls = calls.0.into_iter().filter(|(name, _)| !ruby.contains(name.without_anchor()));
    for (name, mut places) in calls {
        places.sort_by(|a, b| (model.path(a.file()), a.start()).cmp(&(model.path(b.file()), b.start())));
        places.dedup();
        let count = places.len();
        let related = places.iter().skip(1).map(|loc| (*loc, format!("`{name}()` called here too"))).collect();
        sink.report(
            &RULE,
            places[0],
            format!(
                "nodes call `{name}()` at {count} place{}, a function defined neither by Puppet nor in the checked tree: classes it declares are not part of these nodes' compilations (declare it under [include-functions.{name}] in .mplint.toml)",
                if count == 1 { "" } else { "s" }
            ),
            related,
        );
    }
}
