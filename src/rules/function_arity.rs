//! `function-arity`

use super::{RuleInfo, Sink};
use crate::model::index::{normalize_name, Loc};
use crate::model::signatures::{dispatches, Dispatch, LambdaArg};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind, Lambda, UnaryOp};

/// ## What it does
/// Reports a call of one of Puppet's own functions with a number of
/// arguments, or with or without a lambda, that none of the function's
/// signatures takes: `step([1, 2], 1, 2)`, `[1, 2].each`, `size($x) |$y| {}`,
/// and a lambda with a number of parameters the function never gives it
/// (`$list.sort |$x| { … }`: `sort` gives two; `with(1) |$x, $y| { … }`:
/// `with` gives its arguments).
/// A method call counts its receiver as the first argument. Calls that
/// splat an array (`f(*$args)`) and functions the tree defines itself are
/// not judged.
///
/// ## Why is this bad?
/// Puppet fails the catalog when it evaluates the call: "'step' expects 2
/// arguments, got 3", "'each' expects a block".
pub const RULE: RuleInfo = RuleInfo {
    id: "function-arity",
    name: "FunctionArity",
    default_level: Level::Error,
    summary: "One of Puppet's functions is called with a number of arguments, or a lambda, that it does not take.",
    documentation: include_str!("../../rules/function-arity.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let ruby = model.workspace.ruby_functions();
    model.walk_reported(|file, e: &Expr| {
        let (name, at, args, lambda) = match &e.kind {
            ExprKind::Call(call) if !call.untitled_resource => {
                (call.name.as_str(), call.name_span, call.args.len(), call.lambda.as_ref())
            }
            ExprKind::MethodCall(call) => {
                (call.method.as_str(), call.method_span, call.args.len() + 1, call.lambda.as_ref())
            }
            _ => return,
        };
        let splat = |a: &Expr| matches!(a.kind, ExprKind::Unary { op: UnaryOp::Splat, .. });
        let splats = match &e.kind {
            ExprKind::Call(call) => call.args.iter().any(splat),
            ExprKind::MethodCall(call) => call.args.iter().any(splat) || splat(&call.object),
            _ => false,
        };
        let name = normalize_name(name);
        if splats || model.index.functions.contains_key(&name) || ruby.contains(&name) {
            return;
        }
        let Some(signatures) = dispatches(&name) else { return };
        // `with` gives its lambda the arguments it is given.
        if let (true, Some(lambda)) = (name == "with", lambda) {
            if let Some(unset) = lambda.params.iter().filter(|p| p.default.is_none() && !p.captures_rest).nth(args) {
                let message = format!(
                    "Parameter ${} is required but no value was given: `with` gives its lambda {args}",
                    unset.name
                );
                sink.report(&RULE, Loc::new(file, at), message, Vec::new());
            }
            return;
        }
        let Some(problem) = refused(signatures, args, lambda.map(Lambda::arguments_taken)) else { return };
        sink.report(&RULE, Loc::new(file, at), format!("'{name}' {problem}"), Vec::new());
    });
}

/// What is wrong with a call of `args` arguments, with a lambda taking
/// `lambda` arguments or without one, when no dispatch takes it.
fn refused(signatures: &[Dispatch], args: usize, lambda: Option<(usize, Option<usize>)>) -> Option<String> {
    let takes_count =
        |&(least, most, ..): &Dispatch| args >= usize::from(least) && most.is_none_or(|m| args <= usize::from(m));
    let takes_lambda = |&(_, _, l, _): &Dispatch| match l {
        LambdaArg::No => lambda.is_none(),
        LambdaArg::Optional => true,
        LambdaArg::Required => lambda.is_some(),
    };
    // The lambda can be given as many arguments as the dispatch gives it.
    let fits = |&(_, _, _, given): &Dispatch| match (given, lambda) {
        (Some((low, high)), Some((least, most))) => {
            usize::from(low).max(least) <= most.map_or(usize::from(high), |m| m.min(usize::from(high)))
        }
        _ => true,
    };
    if signatures.iter().any(|d| takes_count(d) && takes_lambda(d) && fits(d)) {
        return None;
    }
    let callable: Vec<&Dispatch> = signatures.iter().filter(|d| takes_count(d) && takes_lambda(d)).collect();
    if let (Some((least, most)), false) = (lambda, callable.is_empty()) {
        // Every dispatch that takes the call gives its lambda a known number
        // of arguments that the lambda cannot take.
        let low = callable.iter().filter_map(|d| d.3).map(|g| g.0).min()?;
        let high = callable.iter().filter_map(|d| d.3).map(|g| g.1).max()?;
        let expected = if low == high {
            format!("{low} argument{}", if low == 1 { "" } else { "s" })
        } else {
            format!("between {low} and {high} arguments")
        };
        let got = if most == Some(least) { least.to_string() } else { format!("{least} or more") };
        return Some(format!("block expects {expected}, got {got}"));
    }
    if signatures.iter().any(takes_count) {
        // `max()`: only a lambda would make no values acceptable.
        let without_lambda = signatures.iter().filter(|d| d.2 != LambdaArg::Required).map(|d| d.0).min();
        if let (None, Some(least)) = (lambda, without_lambda.filter(|least| usize::from(*least) > args)) {
            let plural = if least == 1 { "" } else { "s" };
            return Some(format!("expects at least {least} argument{plural} without a lambda, got {args}"));
        }
        return Some(if lambda.is_some() {
            "does not take a lambda here".into()
        } else {
            "expects a block (a lambda)".into()
        });
    }
    let least = signatures.iter().map(|d| d.0).min().unwrap_or(0);
    let most = signatures.iter().map(|d| d.1).try_fold(0u8, |max, m| m.map(|m| max.max(m)));
    let expected = match most {
        Some(most) if most == least => format!("{least} argument{}", if least == 1 { "" } else { "s" }),
        Some(most) => format!("between {least} and {most} arguments"),
        None => format!("at least {least} argument{}", if least == 1 { "" } else { "s" }),
    };
    Some(format!("expects {expected}, got {args}"))
}
