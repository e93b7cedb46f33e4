//! `type-mismatch`

use super::missing_relationship_target::hiera_may_set_parameters;
use super::unknown_parameter::{definition_certain, environment, reference};
use super::{chain_related, RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::record::{Compilation, DeclHow, Event, Refusal};
use crate::model::set_elsewhere::SetElsewhere;
use crate::model::{module_of, Model};
use crate::rules::Level;

/// ## What it does
/// Reports a value given to a parameter of a class or defined type at its
/// declaration (`class { 'app': port => '8080' }`) that the parameter's
/// declared type refuses (`Integer $port`), where mplint knows the value
/// and the type says for certain: Puppet's core types (`String`,
/// `Integer[1, 65535]`, `Boolean`, `Enum[…]`, `Pattern[…]`, `Optional[…]`,
/// `Variant[…]`, sized `String`/`Array`/`Hash`, `Struct[{…}]`, …) and the
/// tree's type aliases. Values mplint cannot know are not judged, nor
/// `undef`, with which Puppet takes the default. The arguments a call gives
/// a function of the tree written in Puppet, or its lambda (`with`, and
/// `each`, `map`, `filter`, `any`, `all` over a known array or hash), and
/// to one of Puppet's own functions whose every signature refuses a known
/// argument (`3.5.each`, `[1, 2].step(0)`, `Integer('eleven')`), are judged
/// the same way.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Class[App]: parameter 'port' expects an
/// Integer value, got String". Numbers written in quotes are strings.
pub const RULE: RuleInfo = RuleInfo {
    id: "type-mismatch",
    name: "TypeMismatch",
    default_level: Level::Error,
    summary: "A class, defined type, function or lambda is given a value its parameter's type refuses.",
    documentation: include_str!("../../rules/type-mismatch.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    check_arguments(model, compilation, sink);
    for event in &compilation.events {
        let Event::Parameters { type_name, class, definition, declared, mismatched, .. } = event else { continue };
        if mismatched.is_empty() || !definition_certain(model, type_name, *definition) {
            continue;
        }
        let what = reference(model, compilation, *class, type_name, declared);
        let kind = if *class { "class" } else { "defined type" };
        for mismatch in mismatched.iter().filter(|m| m.default.is_none()) {
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

/// Values calls give the parameters of the tree's functions written in
/// Puppet, or their lambdas, that the parameters' types refuse. A value may
/// come from a class parameter's default: not where Hiera data outside the
/// tree may replace it.
fn check_arguments(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    check_built_in_calls(model, compilation, sink);
    let mut mismatches = compilation.events.iter().filter_map(|event| match event {
        Event::ArgumentMismatch { callee, definition, mismatch } => Some((callee, definition, mismatch)),
        _ => None,
    });
    let Some(first) = mismatches.next() else { return };
    if hiera_may_set_parameters(model, compilation) {
        return;
    }
    for (callee, definition, mismatch) in std::iter::once(first).chain(mismatches) {
        let taken = if mismatch.default.is_some() { " (its default: no value is given for it)" } else { "" };
        let message = format!(
            "{callee} parameter '{}' expects a value of type {}, got {}{taken}",
            mismatch.param, mismatch.expected, mismatch.got
        );
        let mut related: Vec<(Loc, String)> = Vec::new();
        if let Some(definition) = definition {
            related.push((*definition, format!("function {callee} defined here")));
        }
        if let Some(default) = mismatch.default {
            related.push((default, format!("the default of '{}'", mismatch.param)));
        }
        sink.report(&RULE, mismatch.loc, message, related);
    }
}

/// Calls of Puppet's functions whose known arguments no signature takes,
/// unless the tree defines a function of that name in Ruby.
fn check_built_in_calls(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut refused = compilation.events.iter().filter_map(|event| match event {
        Event::BuiltInRefused { function, loc, refusals, got } => Some((function, *loc, refusals, got)),
        _ => None,
    });
    let Some(first) = refused.next() else { return };
    if hiera_may_set_parameters(model, compilation) {
        return;
    }
    let ruby = model.workspace.ruby_functions();
    for (function, loc, refusals, got) in std::iter::once(first).chain(refused) {
        if ruby.contains(function.as_str()) {
            continue;
        }
        let message = refusal_message(function, refusals, got);
        sink.report(&RULE, loc, message, Vec::new());
    }
}

/// One parameter refused by every signature: its types; else each signature.
fn refusal_message(function: &str, refusals: &[Refusal], got: &[String]) -> String {
    let given = got.join(", ");
    let converted = got.first().map_or("a value", String::as_str);
    match function {
        "Integer.new" if refusals.iter().any(|r| r.param == "radix") => {
            let radix = got.get(1).map_or("a value", String::as_str);
            return format!("'Integer.new' is given the radix {radix}: Puppet takes 2, 8, 10, 16 or default");
        }
        "Integer.new" => {
            return format!(
                "'Integer.new' cannot convert {converted} to an Integer: it takes a number, a Boolean or a string that is an integer (with a radix of 2, 8, 10 or 16)"
            );
        }
        "Boolean.new" => {
            return format!(
                "'Boolean.new' cannot convert {converted} to a Boolean: it takes a number, a Boolean or one of the strings 'true', 'false', 'yes', 'no', 'y' and 'n' (in any case)"
            );
        }
        _ => {}
    }
    let first = &refusals[0];
    if refusals.iter().all(|r| r.arg == first.arg && r.param == first.param) {
        let mut expected: Vec<&str> = Vec::new();
        for refusal in refusals {
            if !expected.contains(&refusal.expected.as_str()) {
                expected.push(&refusal.expected);
            }
        }
        let expected = match expected.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        let got = got.get(first.arg).map_or("a value", String::as_str);
        return format!("'{function}' parameter '{}' expects a value of type {expected}, got {got}", first.param);
    }
    let signatures: Vec<String> = refusals.iter().map(|r| format!("({})", readable(r.signature))).collect();
    format!("'{function}' takes none of the arguments given ({given}): it expects {}", signatures.join(" or "))
}

/// A signature as Puppet shows it: `String s, Callable[String] block?`.
fn readable(signature: &str) -> String {
    let params = crate::model::value::split_type_params(signature);
    let shown: Vec<String> = params
        .iter()
        .map(|param| {
            let (marks, rest) = param.split_at(param.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(0));
            let suffix = match marks {
                "?" | "?&" => "?",
                "*" => "*",
                "+" => "+",
                _ => "",
            };
            format!("{rest}{suffix}")
        })
        .collect();
    shown.join(", ")
}

/// Defaults their parameter's type refuses (`Integer $port = '80'`,
/// `String $owner = undef`), where the declaration surely takes them: no
/// value given, no splat with unknown keys, and for a class no Hiera data
/// for it in a tree that holds all the data Puppet can look up; for a
/// defined type, no resource default, override or collector that may set it.
pub fn check_defaults(model: &Model<'_>, compilation: &Compilation, elsewhere: &SetElsewhere, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::Parameters { type_name, class, definition, declared, how, open_splat, mismatched, .. } = event
        else {
            continue;
        };
        if *open_splat || *how == DeclHow::Entry || !mismatched.iter().any(|m| m.default.is_some()) {
            continue;
        }
        if !definition_certain(model, type_name, *definition) {
            continue;
        }
        if *class && !model.facts.all_data_known(environment(model, compilation), module_of(type_name)) {
            continue;
        }
        let what = reference(model, compilation, *class, type_name, declared);
        let kind = if *class { "class" } else { "defined type" };
        for mismatch in mismatched {
            let Some(default) = mismatch.default else { continue };
            if *class && model.facts.has_data_for(&format!("{type_name}::{}", mismatch.param)) {
                continue;
            }
            if !*class && elsewhere.covers(type_name, &mismatch.param) {
                continue;
            }
            let message = format!(
                "{what}: parameter '{}' takes its default, which its type {} refuses: got {}",
                mismatch.param, mismatch.expected, mismatch.got
            );
            let related = vec![
                (default, format!("the default of '{}'", mismatch.param)),
                (*definition, format!("{kind} `{type_name}` defined here")),
            ];
            let mut flow = chain_related(&compilation.chain(declared), compilation, model);
            if flow.last().is_none_or(|(at, _)| *at != mismatch.loc) {
                flow.push((mismatch.loc, format!("`{type_name}` declared here")));
            }
            sink.report_with_flow(&RULE, mismatch.loc, message, related, flow);
        }
    }
}
