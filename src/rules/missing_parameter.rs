//! `missing-parameter`

use super::unknown_parameter::{definition_certain, environment, reference};
use super::{chain_related, RuleInfo, Sink};
use crate::model::record::{Compilation, DeclHow, Event};
use crate::model::set_elsewhere::SetElsewhere;
use crate::model::{module_of, Model};
use crate::rules::Level;

/// ## What it does
/// Reports a declaration of a defined type that gives no value for a
/// parameter without a default, and a declaration of a class (`include`,
/// `require`, `contain`, `class { … }`, or inheriting from it) that gives
/// none when the tree's Hiera data has no key `class::parameter` for it
/// either. For classes it reports only where the tree holds all the data
/// Puppet can look up: the environment's `hiera.yaml` (version 5) reads
/// only YAML, JSON or eyaml files of the tree, and so does the module's
/// own. It says nothing when a splat with unknown keys is passed, when
/// resource defaults, overrides or collectors elsewhere may set the
/// attribute, or for a class checked on its own, which anyone may declare.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Mymod::Thing[t]: expects a value for
/// parameter 'x'", or "Class[Foo]: expects a value for parameter 'x'".
///
/// ## Example
/// ```puppet
/// define mymod::thing(String $owner) { }
/// mymod::thing { 't': }
/// ```
/// Use instead:
/// ```puppet
/// define mymod::thing(String $owner) { }
/// mymod::thing { 't': owner => 'root' }
/// ```
pub const RULE: RuleInfo = RuleInfo {
    id: "missing-parameter",
    name: "MissingParameter",
    default_level: Level::Error,
    summary: "A class or defined type is declared without a value for a parameter that has no default.",
    documentation: include_str!("../../rules/missing-parameter.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, elsewhere: &SetElsewhere, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::Parameters { type_name, class, definition, loc, declared, how, missing, open_splat, .. } = event
        else {
            continue;
        };
        if missing.is_empty() || *open_splat || *how == DeclHow::Entry {
            continue;
        }
        if !definition_certain(model, type_name, *definition) {
            continue;
        }
        let missing: Vec<&String> = if *class {
            if !model.facts.all_data_known(environment(model, compilation), module_of(type_name)) {
                continue;
            }
            missing.iter().filter(|p| !model.facts.has_data_for(&format!("{type_name}::{p}"))).collect()
        } else {
            missing.iter().filter(|p| !elsewhere.covers(type_name, p)).collect()
        };
        if missing.is_empty() {
            continue;
        }
        let what = reference(model, compilation, *class, type_name, declared);
        let names = missing.iter().map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", ");
        let (value, s) = if missing.len() == 1 { ("a value", "") } else { ("values", "s") };
        let mut message = format!("{what}: expects {value} for parameter{s} {names}, which no default gives");
        if *class {
            let keys = missing.iter().map(|p| format!("`{type_name}::{p}`")).collect::<Vec<_>>().join(", ");
            message.push_str(&format!(" and the tree's Hiera data has no key {keys}"));
        }
        let kind = if *class { "class" } else { "defined type" };
        let related = vec![(*definition, format!("{kind} `{type_name}` defined here"))];
        let mut flow = chain_related(&compilation.chain(declared), compilation, model);
        if flow.last().is_none_or(|(at, _)| at != loc) {
            flow.push((*loc, format!("`{type_name}` declared here")));
        }
        sink.report_with_flow(&RULE, *loc, message, related, flow);
    }
}
