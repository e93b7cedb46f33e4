//! `selector-without-match`

use super::{chain_related, RuleInfo, Sink};
use crate::model::record::{Compilation, Event};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a selector (`$x ? { … }`) whose value mplint knows (a literal,
/// a variable assigned one) and which none of its cases matches, with no
/// `default` case. It is reported for every compilation that evaluates the
/// selector, with the include chain that leads there. Values that depend
/// on facts, Hiera data or parameters are unknown and never reported.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "No matching entry for selector parameter
/// with value 'c'".
pub const RULE: RuleInfo = RuleInfo {
    id: "selector-without-match",
    name: "SelectorWithoutMatch",
    default_level: Level::Error,
    summary: "A selector's known value matches none of its cases and it has no default.",
    documentation: include_str!("../../rules/selector-without-match.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::SelectorWithoutMatch { value, loc, by } = event else { continue };
        let flow = chain_related(&compilation.chain(by), compilation, model);
        sink.report_with_flow(
            &RULE,
            *loc,
            format!("No matching entry for selector parameter with value {value}: no case matches it and there is no `default`"),
            Vec::new(),
            flow,
        );
    }
}
