//! `type-mismatch`

use super::unknown_parameter::{definition_certain, reference};
use super::{chain_related, RuleInfo, Sink};
use crate::model::record::{Compilation, Event};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a value given to a parameter of a class or defined type at its
/// declaration (`class { 'app': port => '8080' }`) that the parameter's
/// declared type refuses (`Integer $port`), where mplint knows the value
/// and the type says for certain: Puppet's core types (`String`,
/// `Integer[1, 65535]`, `Boolean`, `Enum[…]`, `Pattern[…]`, `Optional[…]`,
/// `Variant[…]`, sized `String`/`Array`/`Hash`, `Struct[{…}]`, …) and the
/// tree's type aliases. Values mplint cannot know are not judged, nor
/// `undef`, with which Puppet takes the default.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Class[App]: parameter 'port' expects an
/// Integer value, got String". Numbers written in quotes are strings.
pub const RULE: RuleInfo = RuleInfo {
    id: "type-mismatch",
    name: "TypeMismatch",
    default_level: Level::Error,
    summary: "A class or defined type is given a value its parameter's type refuses.",
    documentation: include_str!("../../rules/type-mismatch.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::Parameters { type_name, class, definition, declared, mismatched, .. } = event else { continue };
        if mismatched.is_empty() || !definition_certain(model, type_name, *definition) {
            continue;
        }
        let what = reference(compilation, *class, type_name, declared);
        let kind = if *class { "class" } else { "defined type" };
        for mismatch in mismatched {
            let message = format!(
                "{what}: parameter '{}' expects a value of type {}, got {}",
                mismatch.param, mismatch.expected, mismatch.got
            );
            let related = vec![(*definition, format!("{kind} `{type_name}` defined here"))];
            let mut flow = chain_related(&compilation.chain(declared), compilation, model);
            flow.push((mismatch.loc, format!("'{}' given here", mismatch.param)));
            sink.report_with_flow(&RULE, mismatch.loc, message, related, flow);
        }
    }
}
