//! `version-fact-compared-with-number`

use super::{chain_related, Level, RuleInfo, Sink};
use crate::model::record::{Compilation, Event, NumberComparison};
use crate::model::Model;

/// ## What it does
/// Reports a number compared with a version fact that Facter always gives
/// as a string — `$::operatingsystemmajrelease`, `$facts['os']['release']
/// ['major']`, `$::lsbdistrelease`, `$::kernelrelease` and the like:
/// `$::operatingsystemmajrelease == 7`, `!=`, `in [6, 7]`, a `case` option
/// `7:` or a selector key `7 =>` (warning), and `<`, `<=`, `>`, `>=`
/// (error). Not where the tree ships a fact of that name, nor where a
/// variable of the class shadows the fact.
///
/// ## Why is this bad?
/// Puppet 3 converted the string to a number; Puppet 4 and later do not. A
/// string never equals a number, so the test is always false and the
/// `case` option never matches: the code silently takes another way on
/// every host. Ordering a string against a number fails the catalog:
/// "Comparison of: String < Integer, is not possible".
pub const RULE: RuleInfo = RuleInfo {
    id: "version-fact-compared-with-number",
    name: "VersionFactComparedWithNumber",
    default_level: Level::Error,
    summary: "A version fact, always a string, compared with a number: never equal, and `<` or `>` fails.",
    documentation: include_str!("../../rules/version-fact-compared-with-number.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    // The comparison is wrong wherever it is: a usage example that reaches
    // it is not what needs fixing.
    sink.set_conditional(true);
    for event in &compilation.events {
        let Event::NumberAgainstStringFact { fact, numbers, loc, how, by } = event else { continue };
        if sink.already_reported(&RULE, *loc) {
            continue;
        }
        let number = numbers.first().map_or("", String::as_str);
        let quoted = format!("'{number}'");
        let listed = numbers.join(", ");
        let (level, message) = match how {
            NumberComparison::Ordering { op, fact_left } => {
                let number_type = if number.contains('.') { "Float" } else { "Integer" };
                let (written, types) = if *fact_left {
                    (format!("{fact} {op} {number}"), format!("String {op} {number_type}"))
                } else {
                    (format!("{number} {op} {fact}"), format!("{number_type} {op} String"))
                };
                (
                    Level::Error,
                    format!(
                        "`{written}` fails: the fact is a String, and Puppet does not order a String against a \
                         number (\"Comparison of: {types}, is not possible\"); compare versions with `versioncmp()`"
                    ),
                )
            }
            NumberComparison::Equality { negated } => (
                Level::Warning,
                format!(
                    "`{fact}` is a String and never equals the number {number}: this test is always {}; write {quoted}",
                    if *negated { "true" } else { "false" }
                ),
            ),
            NumberComparison::InArray if numbers.len() == 1 => (
                Level::Warning,
                format!("`{fact}` is a String and never equals the number {number} in this array; write {quoted}"),
            ),
            NumberComparison::InArray => (
                Level::Warning,
                format!("`{fact}` is a String and never equals a number: {listed} in this array never match; quote them ({quoted})"),
            ),
            NumberComparison::CaseOptions if numbers.len() == 1 => (
                Level::Warning,
                format!("`{fact}` is a String: the option {number} never matches it; write {quoted}"),
            ),
            NumberComparison::CaseOptions => (
                Level::Warning,
                format!("`{fact}` is a String: the options {listed} never match it; quote them ({quoted})"),
            ),
            NumberComparison::SelectorKeys if numbers.len() == 1 => (
                Level::Warning,
                format!("`{fact}` is a String: the key {number} never matches it; write {quoted}"),
            ),
            NumberComparison::SelectorKeys => (
                Level::Warning,
                format!("`{fact}` is a String: the keys {listed} never match it; quote them ({quoted})"),
            ),
        };
        let flow = chain_related(&compilation.chain(by), compilation, model);
        sink.report_at_level(&RULE, level, *loc, message, Vec::new(), flow);
    }
    sink.set_conditional(false);
}
