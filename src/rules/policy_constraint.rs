//! Policy constraints (`[[constraint]]` in a policy file): each is a rule
//! of its own, with the id, level and message the policy gives it.
//!
//! A value constraint tests the value an attribute evaluated to, wherever
//! it came from: a literal, a variable, a parameter's default, a value
//! passed at a declaration an include chain away. Values mplint cannot know
//! (facts, lookups, unpassed parameters that Hiera may set) are never
//! reported: a finding is certain. A `require-one-of` constraint looks at
//! the attributes the declaration itself sets; resource defaults and
//! collectors that add attributes are not seen.
//!
//! `forbid-type` and `forbid-function` judge code where it is written: a
//! declaration of a forbidden type or a call of a forbidden function in a
//! file the constraint's `paths` cover, whichever compilation reaches it.

use super::{chain_related, Sink};
use crate::model::index::Loc;
use crate::model::record::{CallRecord, Compilation, Declared, Owner};
use crate::model::value::Value;
use crate::model::Model;
use crate::policy::{Constraint, NameGlobs, Test, RESOURCE_FUNCTIONS};
use crate::syntax::ast::{Expr, ExprKind, NameText};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    // What code may contain is judged where the code is, whoever reaches
    // it (a usage example included).
    for constraint in &model.workspace.constraints {
        match &constraint.test {
            Test::ForbidTypes(types) => forbidden_types(model, compilation, constraint, types, sink),
            Test::ForbidFunctions(functions) => forbidden_functions(model, compilation, constraint, functions, sink),
            Test::Value { .. } | Test::OneOf(_) => {}
            _ => super::policy_declaration::check(model, compilation, constraint, sink),
        }
    }
    sink.compilation(compilation);
    for constraint in &model.workspace.constraints {
        if !matches!(constraint.test, Test::Value { .. } | Test::OneOf(_)) {
            continue;
        }
        for declared in &compilation.declared {
            let applies = constraint.applies_in(model.relative_path(declared.loc.file()));
            if constraint.type_name.as_deref() != Some(declared.type_name.as_str()) || !applies {
                continue;
            }
            if let Some(pattern) = &constraint.title {
                match &declared.title {
                    Some(title) if pattern.is_match(title) => {}
                    _ => continue,
                }
            }
            check_one(model, compilation, constraint, declared, sink);
        }
    }
}

/// Which pattern of a list a name matched, unless it is the name itself.
fn listed(key: &str, pattern: &str, name: &str) -> String {
    if pattern == name {
        format!(", which `{key}` lists")
    } else {
        format!(", which matches `{pattern}` in `{key}`")
    }
}

/// What the compilations did not evaluate (branches a known value rules
/// out, functions written in Puppet): declarations and calls that name a
/// forbidden type or function literally, in the files the constraints
/// cover. A place a compilation reported keeps that finding and its chain.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for constraint in &model.workspace.constraints {
        super::policy_declaration::finish(model, constraint, sink);
        super::policy_construct::finish(model, constraint, sink);
    }
    let forbidding: Vec<&Constraint> = model
        .workspace
        .constraints
        .iter()
        .filter(|c| matches!(c.test, Test::ForbidTypes(_) | Test::ForbidFunctions(_)))
        .collect();
    if forbidding.is_empty() {
        return;
    }
    for (file, parsed) in model.files.iter().enumerate() {
        let Some(manifest) = &parsed.manifest else { continue };
        if !model.reported[file] {
            continue;
        }
        let constraints: Vec<&Constraint> =
            forbidding.iter().copied().filter(|c| c.applies_in(model.relative_path(file))).collect();
        if constraints.is_empty() {
            continue;
        }
        for statement in &manifest.statements {
            statement.walk(&mut |expr| {
                for constraint in &constraints {
                    written(constraint, file, expr, sink);
                }
            });
        }
    }
}

/// A forbidden type or function that an expression names literally.
fn written(constraint: &Constraint, file: usize, expr: &Expr, sink: &mut Sink<'_, '_>) {
    let report = |sink: &mut Sink<'_, '_>, at: Loc, message: String| {
        sink.report_for(constraint.id, constraint.level, at, message, Vec::new(), Vec::new());
    };
    let tail = format!("(constraint `{}` of policy {})", constraint.id, constraint.policy);
    match (&constraint.test, &expr.kind) {
        (Test::ForbidTypes(types), ExprKind::Resource(resource)) => {
            let Some(type_name) = resource.type_name() else { return };
            let Some(pattern) = types.matching(&type_name) else { return };
            for body in resource.bodies.iter().filter(|b| !matches!(b.title.kind, ExprKind::Default)) {
                let what = match &body.title.kind {
                    ExprKind::Str(s) => {
                        s.as_literal().map(|t| format!("`{}['{t}']`", super::reference_type(&type_name)))
                    }
                    _ => None,
                }
                .unwrap_or_else(|| format!("this `{}`", super::reference_type(&type_name)));
                let message = format!(
                    "{}: {what} is a resource of type `{type_name}`{} {tail}",
                    constraint.message,
                    listed("forbid-type", pattern, &type_name)
                );
                report(sink, Loc::new(file, body.title.span), message);
            }
        }
        (Test::ForbidTypes(types), ExprKind::Call(call)) => {
            let name = crate::model::index::normalize_name(&call.name);
            if !RESOURCE_FUNCTIONS.contains(&name.as_str()) {
                return;
            }
            let Some(ExprKind::Str(first)) = call.args.first().map(|a| &a.kind) else { return };
            let Some(type_name) = first.as_literal().map(|t| crate::model::index::normalize_name(&t)) else { return };
            let Some(pattern) = types.matching(&type_name) else { return };
            let empty = match call.args.get(1).map(|a| &a.kind) {
                Some(ExprKind::Hash(pairs)) => pairs.is_empty(),
                Some(ExprKind::Array(items)) => items.is_empty(),
                _ => false,
            };
            if !empty {
                let message = format!(
                    "{}: `{name}` declares resources of type `{type_name}`{} {tail}",
                    constraint.message,
                    listed("forbid-type", pattern, &type_name)
                );
                report(sink, Loc::new(file, expr.span), message);
            }
        }
        (Test::ForbidFunctions(functions), ExprKind::Call(call)) => {
            let name = crate::model::index::normalize_name(&call.name);
            let (function, how) = match written_deferred(&call.name, None, &call.args) {
                Some(function) => (function, " through `Deferred`"),
                None => (name, ""),
            };
            let Some(pattern) = functions.matching(&function) else { return };
            let message = format!(
                "{}: `{function}` is called here{how}{} {tail}",
                constraint.message,
                listed("forbid-function", pattern, &function)
            );
            report(sink, Loc::new(file, expr.span), message);
        }
        (Test::ForbidFunctions(functions), ExprKind::MethodCall(call)) => {
            let name = crate::model::index::normalize_name(&call.method);
            let (function, how) = match written_deferred(&call.method, Some(&call.object), &call.args) {
                Some(function) => (function, " through `Deferred`"),
                None => (name, ""),
            };
            let Some(pattern) = functions.matching(&function) else { return };
            let message = format!(
                "{}: `{function}` is called here{how}{} {tail}",
                constraint.message,
                listed("forbid-function", pattern, &function)
            );
            report(sink, Loc::new(file, call.method_span), message);
        }
        _ => {}
    }
}

/// The function a `Deferred` written in the code names literally:
/// `Deferred('f', …)`, `new(Deferred, 'f', …)`, `Deferred.new('f', …)`
/// (`object` is the method call's receiver), or with a hash of
/// attributes naming it (`{'name' => 'f', …}`).
fn written_deferred(function: &str, object: Option<&Expr>, args: &[Expr]) -> Option<String> {
    let is_deferred = |e: &Expr| matches!(&e.kind, ExprKind::TypeRef(t) if is_deferred_type(t));
    let named = match object {
        Some(object) if is_deferred(object) && function.eq_ignore_ascii_case("new") => args.first(),
        Some(_) => None,
        None if is_deferred_type(function) => args.first(),
        None if function.eq_ignore_ascii_case("new") && args.first().is_some_and(is_deferred) => args.get(1),
        None => None,
    }?;
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Str(s) => s.as_literal(),
        _ => None,
    };
    let name = match &named.kind {
        ExprKind::Hash(pairs) => {
            pairs.iter().find(|p| literal(&p.key).as_deref() == Some("name")).and_then(|p| literal(&p.value))
        }
        _ => literal(named),
    }?;
    Some(crate::model::index::normalize_name(&name))
}

/// Places with what each says about the finding.
type Places = Vec<(Loc, String)>;

/// The include chain to an owner's code, then the place itself: as related
/// places and as the finding's flow.
fn chain_to(model: &Model<'_>, compilation: &Compilation, owner: &Owner, at: Loc, what: String) -> (Places, Places) {
    let related = chain_related(&compilation.chain(owner), compilation, model);
    let mut flow = related.clone();
    flow.push((at, what));
    (related, flow)
}

/// Resources of forbidden types: declared in the code, or by a function
/// such as `create_resources` given the type's name.
fn forbidden_types(
    model: &Model<'_>,
    compilation: &Compilation,
    constraint: &Constraint,
    types: &NameGlobs,
    sink: &mut Sink<'_, '_>,
) {
    let applies = |loc: Loc| constraint.applies_in(model.relative_path(loc.file()));
    for declared in &compilation.declared {
        let Some(pattern) = types.matching(&declared.type_name) else { continue };
        if !applies(declared.loc) {
            continue;
        }
        let what = describe(declared);
        let message = format!(
            "{}: {what} is a resource of type `{}`{} (constraint `{}` of policy {})",
            constraint.message,
            declared.type_name,
            listed("forbid-type", pattern, &declared.type_name),
            constraint.id,
            constraint.policy
        );
        let (related, flow) =
            chain_to(model, compilation, &declared.owner, declared.loc, format!("{what} declared here"));
        sink.report_for(constraint.id, constraint.level, declared.loc, message, related, flow);
    }
    for call in &compilation.calls {
        let name = crate::model::index::normalize_name(&call.name);
        if !RESOURCE_FUNCTIONS.contains(&name.as_str()) || !applies(call.at) {
            continue;
        }
        let Some(type_name) = call.args.first().and_then(Value::as_str) else { continue };
        let Some(pattern) = types.matching(type_name) else { continue };
        let type_name = crate::model::index::normalize_name(type_name);
        // `create_resources('exec', {})` declares nothing.
        if matches!(call.args.get(1), Some(Value::Hash(h)) if h.is_empty())
            || matches!(call.args.get(1), Some(Value::Array(a)) if a.is_empty())
        {
            continue;
        }
        let message = format!(
            "{}: `{name}` declares resources of type `{type_name}`{} (constraint `{}` of policy {})",
            constraint.message,
            listed("forbid-type", pattern, &type_name),
            constraint.id,
            constraint.policy
        );
        let (related, flow) = chain_to(model, compilation, &call.owner, call.at, format!("`{name}` called here"));
        sink.report_for(constraint.id, constraint.level, call.at, message, related, flow);
    }
}

/// Whether a name is the type `Deferred` (a type name starts upper-case;
/// the rest is without case).
fn is_deferred_type(name: &str) -> bool {
    let name = name.without_anchor();
    name.starts_with(|c: char| c.is_ascii_uppercase()) && name.eq_ignore_ascii_case("deferred")
}

/// The function a `Deferred` value names: its first argument, or the
/// `name` of a hash of attributes (`Deferred({'name' => 'f', …})`).
fn deferred_name(arg: Option<&Value>) -> Option<&str> {
    match arg? {
        Value::Str(name) => Some(name),
        Value::Hash(pairs) => pairs.iter().find(|(k, _)| k.as_str() == Some("name")).and_then(|(_, v)| v.as_str()),
        _ => None,
    }
}

/// The function a call runs by name rather than calling it itself, with
/// what it goes through: `call('f', …)` now, `Deferred('f', […])` (or
/// `Deferred.new`, `new(Deferred, …)`) on the agent.
fn called_by_name(call: &CallRecord) -> Option<(&str, &'static str)> {
    let name = crate::model::index::normalize_name(&call.name);
    if name == "call" {
        return call.args.first().and_then(Value::as_str).map(|f| (f, "call"));
    }
    if is_deferred_type(&call.name) {
        return deferred_name(call.args.first()).map(|f| (f, "Deferred"));
    }
    if name == "new" && matches!(call.args.first(), Some(Value::Type(t)) if is_deferred_type(t)) {
        return deferred_name(call.args.get(1)).map(|f| (f, "Deferred"));
    }
    None
}

/// Calls of forbidden functions: by name, as a method (`$x.f`), through
/// `call('f', …)`, or deferred to the agent (`Deferred('f', […])`).
fn forbidden_functions(
    model: &Model<'_>,
    compilation: &Compilation,
    constraint: &Constraint,
    functions: &NameGlobs,
    sink: &mut Sink<'_, '_>,
) {
    for call in &compilation.calls {
        let name = crate::model::index::normalize_name(&call.name);
        let called = match functions.matching(&name) {
            Some(pattern) => Some((name.clone(), pattern, None)),
            None => called_by_name(call).and_then(|(f, through)| {
                Some((crate::model::index::normalize_name(f), functions.matching(f)?, Some(through)))
            }),
        };
        let Some((function, pattern, through)) = called else { continue };
        if !constraint.applies_in(model.relative_path(call.at.file())) {
            continue;
        }
        let how = through.map_or_else(String::new, |through| format!(" through `{through}`"));
        let message = format!(
            "{}: `{function}` is called here{how}{} (constraint `{}` of policy {})",
            constraint.message,
            listed("forbid-function", pattern, &function),
            constraint.id,
            constraint.policy
        );
        let (related, flow) = chain_to(model, compilation, &call.owner, call.at, format!("`{function}` called here"));
        sink.report_for(constraint.id, constraint.level, call.at, message, related, flow);
    }
}

fn check_one(
    model: &Model<'_>,
    compilation: &Compilation,
    constraint: &Constraint,
    declared: &Declared,
    sink: &mut Sink<'_, '_>,
) {
    let what = describe(declared);
    // The value may come from the declarations on the way: the chain shows
    // them.
    let (chain, flow) = chain_to(model, compilation, &declared.owner, declared.loc, format!("{what} declared here"));
    match &constraint.test {
        Test::Value { attribute, .. } => {
            for (name, at, value) in &declared.attributes {
                if name != attribute {
                    continue;
                }
                for text in known_texts(value) {
                    if let Some(why) = constraint.violation(&text) {
                        let message = format!(
                            "{}: `{attribute}` of {what} is '{text}', {why} (constraint `{}` of policy {})",
                            constraint.message, constraint.id, constraint.policy
                        );
                        let mut related = vec![(declared.loc, format!("{what} declared here"))];
                        related.extend(chain.iter().cloned());
                        sink.report_for(constraint.id, constraint.level, *at, message, related, flow.clone());
                        break;
                    }
                }
            }
        }
        Test::OneOf(names) if !declared.attributes.iter().any(|(name, _, _)| names.contains(name)) => {
            let message = format!(
                "{}: {what} sets none of {} (constraint `{}` of policy {})",
                constraint.message,
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                constraint.id,
                constraint.policy
            );
            sink.report_for(constraint.id, constraint.level, declared.loc, message, chain, flow);
        }
        _ => {}
    }
}

/// The texts of a value that is known: a scalar, or each item of an array
/// of scalars. Unknown values, hashes and undef give none.
fn known_texts(value: &Value) -> Vec<String> {
    match value {
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => value.to_text().into_iter().collect(),
        Value::Array(items) => items.iter().flat_map(known_texts).collect(),
        _ => Vec::new(),
    }
}

/// `File['/etc/x']`, `Class['apache']`.
fn describe(declared: &Declared) -> String {
    let type_name = super::reference_type(&declared.type_name);
    match &declared.title {
        Some(title) => format!("`{type_name}['{title}']`"),
        None => format!("`{type_name}`"),
    }
}
