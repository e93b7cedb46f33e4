//! `function-arity`

use super::{RuleInfo, Sink};
use crate::model::index::{normalize_name, Loc};
use crate::model::signatures::{dispatches, Dispatch, LambdaArg};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind, UnaryOp};

/// ## What it does
/// Reports a call of one of Puppet's own functions with a number of
/// arguments, or with or without a lambda, that none of the function's
/// signatures takes: `step([1, 2], 1, 2)`, `[1, 2].each`, `size($x) |$y| {}`.
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
                (call.name.as_str(), call.name_span, call.args.len(), call.lambda.is_some())
            }
            ExprKind::MethodCall(call) => {
                (call.method.as_str(), call.method_span, call.args.len() + 1, call.lambda.is_some())
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
        let Some(problem) = refused(signatures, args, lambda) else { return };
        sink.report(&RULE, Loc::new(file, at), format!("'{name}' {problem}"), Vec::new());
    });
}

/// What is wrong with a call of `args` arguments, with a lambda or not,
/// when no dispatch takes it.
fn refused(signatures: &[Dispatch], args: usize, lambda: bool) -> Option<String> {
    let takes_count =
        |&(least, most, _): &Dispatch| args >= usize::from(least) && most.is_none_or(|m| args <= usize::from(m));
    let takes_lambda = |&(_, _, l): &Dispatch| match l {
        LambdaArg::No => !lambda,
        LambdaArg::Optional => true,
        LambdaArg::Required => lambda,
    };
    if signatures.iter().any(|d| takes_count(d) && takes_lambda(d)) {
        return None;
    }
    if signatures.iter().any(takes_count) {
        return Some(if lambda { "does not take a lambda here".into() } else { "expects a block (a lambda)".into() });
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
