//! `top-scope-fact`

use super::legacy_fact::{maybe_bound_elsewhere, written};
use super::{RuleInfo, Sink};
use crate::model::facts::{MODERN_FACTS, PUPPET_FACTS, SERVER_FACTS};
use crate::model::record::{Compilation, FactForm};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a fact read as a top-scope variable (`$::os`, `$os`,
/// `$::kernel`, a module's custom fact) and gives the `$facts[...]` form.
/// Legacy facts are `legacy-fact`'s.
///
/// ## Why is this bad?
/// A variable of that name in any enclosing scope hides the fact, and a
/// reader cannot tell a fact from a variable; `$facts['os']` is always the
/// fact.
pub const RULE: RuleInfo = RuleInfo {
    id: "top-scope-fact",
    name: "TopScopeFact",
    default_level: Level::Note,
    summary: "A fact is read as a top-scope variable rather than from `$facts`.",
    documentation: include_str!("../../rules/top-scope-fact.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    for read in &compilation.fact_reads {
        // Templates are judged for legacy facts only.
        if sink.already_reported(&RULE, read.loc)
            || read.form == FactForm::FactsHash
            || read.template.is_some()
            || maybe_bound_elsewhere(model, compilation, read)
        {
            continue;
        }
        let name = &*read.name;
        let (what, hash) =
            if model.facts.is_shipped_custom(name) || MODERN_FACTS.contains(&name) || PUPPET_FACTS.contains(&name) {
                ("a fact", "facts")
            } else if SERVER_FACTS.contains(&name) {
                // Set by the server, not by the agent's Facter.
                ("a server fact", "server_facts")
            } else {
                continue;
            };
        let message = format!("{} reads {what} as a variable: use `${hash}['{name}']`", written(read));
        sink.report(&RULE, read.loc, message, Vec::new());
    }
}
