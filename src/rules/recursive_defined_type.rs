//! `recursive-defined-type`

use super::{chain_related, RuleInfo, Sink};
use crate::model::record::{Compilation, Event, Owner};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports defined types that declare themselves, directly or through
/// other defined types, on every run of their bodies: each step of the
/// cycle is a statement of the body itself (under no condition, in no
/// loop), titled by one string, in a body that never calls `fail` or
/// `return`. Such a recursion never ends, whatever the values.
///
/// ## Why is this bad?
/// Puppet fails the catalog: with a duplicate declaration when a title
/// repeats, else with "Somehow looped more than 1000 times while
/// evaluating host catalog" after a long run.
pub const RULE: RuleInfo = RuleInfo {
    id: "recursive-defined-type",
    name: "RecursiveDefinedType",
    default_level: Level::Error,
    summary: "Defined types declare each other without end.",
    documentation: include_str!("../../rules/recursive-defined-type.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::EndlessRecursion { cycle, outermost } = event else { continue };
        // Reported at one place of the cycle, whichever step the limit hit.
        let Some(first) = (0..cycle.len()).min_by_key(|&i| (cycle[i].1.file(), cycle[i].1.start())) else {
            continue;
        };
        let steps: Vec<&(String, _)> = cycle[first..].iter().chain(&cycle[..first]).collect();
        // Each step's declaration sits in the body of the type declared
        // before it.
        let declarer = |i: usize| &steps[(i + steps.len() - 1) % steps.len()].0;
        let mut names: Vec<&str> = steps.iter().map(|(t, _)| t.as_str()).collect();
        names.insert(0, declarer(0));
        let related = steps
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, (declared, at))| (*at, format!("`{}` declares `{declared}` here, on every run", declarer(i))))
            .collect();
        let flow = chain_related(&compilation.chain(&Owner::Define(*outermost)), compilation, model);
        let (declared, at) = steps[0];
        let message = if names.len() == 2 {
            format!("defined type `{declared}` declares itself on every run of its body: the recursion never ends")
        } else {
            format!("defined types declare each other on every run of their bodies, without end: {}", names.join(" → "))
        };
        sink.report_with_flow(&RULE, *at, message, related, flow);
    }
}
