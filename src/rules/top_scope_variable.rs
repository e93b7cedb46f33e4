//! `top-scope-variable`

use super::node_scope_leak::describe_owner;
use super::{chain_related, RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::record::{Compilation, Entry, Owner, ReadOutcome, ScopeKind};
use crate::model::workspace::FileRole;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports a class or defined type that reads an unqualified variable
/// (`$foo`, not `$::foo`) which Puppet finds in top scope: assigned by the
/// site manifest's code outside nodes and classes, or set by an include
/// function of the configuration. Facts are not reported here
/// (`top-scope-fact`, `legacy-fact`), nor reads that a node's scope
/// answers (`node-scope-leak`). Off unless turned on; the
/// `deny-node-scope` policy makes it an error.
///
/// ## Why is this bad?
/// The class depends on a global that nothing in its interface shows, and
/// any variable of that name in a scope between (a node's, say) silently
/// replaces it.
pub const RULE: RuleInfo = RuleInfo {
    id: "top-scope-variable",
    name: "TopScopeVariable",
    default_level: Level::Warning,
    summary: "A class or defined type reads a top-scope variable without `$::`.",
    documentation: include_str!("../../rules/top-scope-variable.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    // A usage example's top scope stands in for whatever declares the
    // module's classes: not a site's globals.
    if applies_an_example(model, compilation) {
        return;
    }
    sink.compilation(compilation);
    for read in &compilation.reads {
        let (Owner::Class(_) | Owner::Define(_)) = &read.reader else { continue };
        let ReadOutcome::Bound { kind: ScopeKind::Top, binding: Some(binding) } = &read.outcome else { continue };
        if read.name.is_qualified() || model.facts.is_named_fact(&read.name) {
            continue;
        }
        // Checked on its own, a class may really be declared from a node
        // that assigns the name: which scope answers is not known.
        if compilation.hypothetical() && model.node_variables.contains(&*read.name) {
            continue;
        }
        let name = &read.name;
        let reader = describe_owner(&read.reader, compilation);
        let instead = match read.reader {
            Owner::Define(_) => "a parameter of the defined type",
            _ => "a class parameter",
        };
        let mut related = vec![(*binding, describe_binding(model, *binding, name))];
        related.extend(chain_related(&compilation.chain(&read.reader), compilation, model));
        let mut flow = related.clone();
        flow.push((read.loc, format!("`${name}` read here, found in top scope")));
        sink.report_with_flow(
            &RULE,
            read.loc,
            format!(
                "{reader} reads the top-scope variable `${name}` unqualified: write `$::{name}`, or make it {instead}"
            ),
            related,
            flow,
        );
    }
}

/// Reads that node scope answers in some compilation are
/// `node-scope-leak`'s: the same place is not reported twice.
pub fn finish(sink: &mut Sink<'_, '_>) {
    let leaks: std::collections::BTreeSet<Loc> = sink
        .findings
        .keys()
        .filter(|(rule, _)| *rule == super::node_scope_leak::RULE.id)
        .map(|(_, loc)| *loc)
        .collect();
    sink.findings.retain(|(rule, loc), _| *rule != RULE.id || !leaks.contains(loc));
}

/// Whether the compilation applies a module's usage example (or a class
/// defined in one).
fn applies_an_example(model: &Model<'_>, compilation: &Compilation) -> bool {
    let (Entry::Node { site, .. } | Entry::TopLevel { site } | Entry::Unreached { site: Some(site), .. }) =
        &compilation.entry
    else {
        return false;
    };
    model.index.sites[*site].standalone.is_some_and(|file| matches!(model.index.roles[file], FileRole::Example { .. }))
}

/// What set the variable: an assignment, or a call of an include function.
fn describe_binding(model: &Model<'_>, at: Loc, name: &str) -> String {
    let text = &model.files[at.file()].source.text;
    if text.get(at.start()..).is_some_and(|rest| rest.starts_with('$')) {
        format!("`${name}` assigned here, at top scope")
    } else {
        format!("`${name}` set at top scope by this call")
    }
}
