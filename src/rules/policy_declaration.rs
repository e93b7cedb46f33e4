//! Policy constraints on how classes are declared: whose code may declare
//! which classes (`forbid-class`, `allow-class`), how many of some classes
//! a node declares (`exactly-one-class`), where a class may be declared
//! resource-like (`forbid-resource-like`), and classes that take no
//! parameters (`forbid-parameters`).
//!
//! They read the interpreter's record of every class declaration the code
//! makes, with the include chain to it. A node is said to declare none of
//! some classes only when everything its code declares is known: no
//! declaration of a name mplint cannot evaluate, no function that may
//! declare classes unseen (`hiera_include`, a site's own `role()`).

use std::collections::BTreeMap;

use super::{chain_related, Sink};
use crate::model::index::{DefBody, Loc};
use crate::model::record::{compatible, Compilation, DeclHow, Declaration, Entry, Event, Owner};
use crate::model::workspace::FileRole;
use crate::model::Model;
use crate::policy::{Constraint, Declarers, NameGlobs, Test};
use crate::syntax::ast::{Expr, ExprKind};

pub fn check(model: &Model<'_>, compilation: &Compilation, constraint: &Constraint, sink: &mut Sink<'_, '_>) {
    match &constraint.test {
        Test::Declares { declaring, forbid, allow } => {
            for declaration in &compilation.declarations {
                declares(model, compilation, constraint, declaration, declaring, forbid, allow, sink);
            }
        }
        Test::ExactlyOne(classes) => exactly_one(model, compilation, constraint, classes, sink),
        Test::ResourceLike { classes, anywhere } => {
            for declaration in &compilation.declarations {
                resource_like(model, compilation, constraint, declaration, classes.as_ref(), *anywhere, sink);
            }
        }
        _ => {}
    }
}

/// The name whose code an owner runs, as `declaring` matches it.
fn owner_name(compilation: &Compilation, owner: &Owner) -> Option<String> {
    match owner {
        Owner::Class(name) => Some(name.to_string()),
        Owner::Define(i) => compilation.instances.get(*i).map(|d| d.type_name.clone()),
        Owner::Node | Owner::Top => None,
    }
}

fn describe_owner(owner: &Owner, name: Option<&str>) -> String {
    match (owner, name) {
        (Owner::Node, _) => "the node".to_string(),
        (Owner::Define(_), Some(name)) => format!("defined type `{name}`"),
        (_, Some(name)) => format!("class `{name}`"),
        _ => "top scope".to_string(),
    }
}

fn applies(model: &Model<'_>, constraint: &Constraint, at: Loc) -> bool {
    constraint.applies_in(model.relative_path(at.file()))
}

fn tail(constraint: &Constraint) -> String {
    format!("(constraint `{}` of policy {})", constraint.id, constraint.policy)
}

#[allow(clippy::too_many_arguments)]
fn declares(
    model: &Model<'_>,
    compilation: &Compilation,
    constraint: &Constraint,
    declaration: &Declaration,
    declaring: &Declarers,
    forbid: &Option<NameGlobs>,
    allow: &Option<NameGlobs>,
    sink: &mut Sink<'_, '_>,
) {
    let Some(class) = &declaration.class else { return };
    let name = owner_name(compilation, &declaration.by);
    let looked_at = match &declaration.by {
        Owner::Node => declaring.nodes && site_node(model, compilation).is_some(),
        Owner::Class(_) | Owner::Define(_) => name.as_deref().is_some_and(|n| declaring.class(n)),
        Owner::Top => false,
    };
    if !looked_at || !applies(model, constraint, declaration.loc) {
        return;
    }
    let why = if let Some(pattern) = forbid.as_ref().and_then(|f| f.matching(class)) {
        format!("`{class}` matches `{pattern}` in `forbid-class`")
    } else if let Some(allow) = allow.as_ref().filter(|a| a.matching(class).is_none()) {
        format!("`{class}` is not one of {} (`allow-class`)", allow.describe())
    } else {
        return;
    };
    let who = describe_owner(&declaration.by, name.as_deref());
    let message =
        format!("{}: {who} {} `{class}`; {why} {}", constraint.message, declaration.how.verb(), tail(constraint));
    let related = chain_related(&compilation.chain(&declaration.by), compilation, model);
    let mut flow = related.clone();
    flow.push((declaration.loc, format!("`{class}` {} here", declaration.how.verb())));
    sink.report_for(constraint.id, constraint.level, declaration.loc, message, related, flow);
}

/// Each node declares exactly one of the classes: two that can be
/// declared together are reported, and none when the node's declarations
/// are all known.
fn exactly_one(
    model: &Model<'_>,
    compilation: &Compilation,
    constraint: &Constraint,
    classes: &NameGlobs,
    sink: &mut Sink<'_, '_>,
) {
    let Some((site, entry)) = site_node(model, compilation) else { return };
    let at = Loc::new(entry.file, entry.node.matchers.first().map_or(entry.span, |m| m.span()));
    if !applies(model, constraint, at) {
        return;
    }
    let node_name = model.describe_entry(compilation);
    // The node's own code and top scope's, which every node runs.
    let own = |d: &&Declaration| matches!(d.by, Owner::Node | Owner::Top);
    let mut first: BTreeMap<&str, &Declaration> = BTreeMap::new();
    for declaration in compilation.declarations.iter().filter(own) {
        if let Some(class) = declaration.class.as_deref().filter(|c| classes.matching(c).is_some()) {
            first.entry(class).or_insert(declaration);
        }
    }
    let found: Vec<&Declaration> = first.into_values().collect();
    let together = found
        .iter()
        .enumerate()
        .find_map(|(i, a)| found[i + 1..].iter().find(|b| compatible(&a.path, &b.path)).map(|b| (*a, *b)));
    if let Some((a, b)) = together {
        let (a_name, b_name) = (a.class.as_deref().unwrap_or(""), b.class.as_deref().unwrap_or(""));
        let message = format!(
            "{}: {node_name} declares both `{a_name}` and `{b_name}`, where it should declare exactly one of {} {}",
            constraint.message,
            classes.describe(),
            tail(constraint)
        );
        let related = vec![
            (a.loc, format!("`{a_name}` {} here", a.how.verb())),
            (b.loc, format!("`{b_name}` {} here", b.how.verb())),
        ];
        sink.report_for(constraint.id, constraint.level, at, message, related, Vec::new());
        return;
    }
    // A site whose nodes declare none of the classes in their code gets
    // them from elsewhere (an ENC, a console).
    if !found.is_empty()
        || declares_unseen(model, compilation, site, entry.node)
        || !site_declares_in_code(model, site, classes)
    {
        return;
    }
    let message =
        format!("{}: {node_name} declares none of {} {}", constraint.message, classes.describe(), tail(constraint));
    sink.report_for(constraint.id, constraint.level, at, message, Vec::new(), Vec::new());
}

/// The node of a site manifest a compilation is for: nodes in a module's
/// usage examples are not a site's.
fn site_node<'m, 'a>(
    model: &'m Model<'a>,
    compilation: &Compilation,
) -> Option<(usize, &'m crate::model::index::NodeEntry<'a>)> {
    let Entry::Node { site, node } = &compilation.entry else { return None };
    let entry = &model.index.sites[*site].nodes[*node];
    matches!(model.index.roles[entry.file], FileRole::Site { .. }).then_some((*site, entry))
}

/// Whether some node of the site names one of the classes in a
/// declaration it writes (`include role::web`, `class { 'role::web': }`, a
/// site's include function such as `role('web')`).
fn site_declares_in_code(model: &Model<'_>, site: usize, classes: &NameGlobs) -> bool {
    let functions = &model.workspace.include_functions;
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Str(s) => s.as_literal(),
        ExprKind::Name(n) => Some(n.clone()),
        _ => None,
    };
    let mut found = false;
    for entry in &model.index.sites[site].nodes {
        for statement in &entry.node.body.statements {
            statement.walk(&mut |e| {
                let names: Vec<String> = match &e.kind {
                    ExprKind::Call(call) => {
                        let name = crate::model::index::normalize_name(&call.name);
                        let args = call.args.iter().flat_map(|a| match &a.kind {
                            ExprKind::Array(items) => items.iter().filter_map(literal).collect::<Vec<_>>(),
                            _ => literal(a).into_iter().collect(),
                        });
                        match functions.get(&name) {
                            Some(function) => args.map(|a| function.class.replace("{}", &a)).collect(),
                            None if matches!(name.as_str(), "include" | "require" | "contain") => args.collect(),
                            None => Vec::new(),
                        }
                    }
                    ExprKind::Resource(resource) if resource.type_name().as_deref() == Some("class") => {
                        resource.bodies.iter().filter_map(|b| literal(&b.title)).collect()
                    }
                    _ => Vec::new(),
                };
                found |= names.iter().any(|n| classes.matching(n).is_some());
            });
        }
    }
    found
}

/// Whether a node or top scope may declare classes mplint does not see: a
/// declaration of a name it could not evaluate, a call of a function that
/// is not Puppet's (a site's `role()`), or code that declares classes by
/// means it does not follow (`hiera_include`, `$classes.include`,
/// `create_resources('class', …)`, `class { $name: }`, `Resource[$t]`).
fn declares_unseen(
    model: &Model<'_>,
    compilation: &Compilation,
    site: usize,
    node: &crate::syntax::ast::NodeDef,
) -> bool {
    let unknown_name =
        compilation.declarations.iter().any(|d| d.class.is_none() && matches!(d.by, Owner::Node | Owner::Top));
    let opaque_call = compilation.events.iter().any(|e| matches!(e, Event::NodeCall { .. }));
    if unknown_name || opaque_call {
        return true;
    }
    let mut unseen = false;
    let mut look = |expr: &Expr| {
        expr.walk(&mut |e| unseen |= declares_by_unseen_means(e));
    };
    for statement in &node.body.statements {
        look(statement);
    }
    for (_, statement) in &model.index.sites[site].top_level {
        look(statement);
    }
    unseen
}

fn declares_by_unseen_means(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Call(call) => {
            let name = crate::model::index::normalize_name(&call.name);
            let builtin = crate::model::interp::is_built_in_call(&call.name);
            !builtin
                || matches!(
                    name.as_str(),
                    "hiera_include" | "create_resources" | "ensure_resource" | "ensure_resources" | "call"
                )
        }
        ExprKind::MethodCall(call) => {
            matches!(call.method.as_str(), "include" | "require" | "contain" | "hiera_include" | "call")
        }
        ExprKind::Resource(resource) => match resource.type_name().as_deref() {
            Some("class") => {
                resource.bodies.iter().any(|b| !matches!(b.title.kind, ExprKind::Str(_) | ExprKind::Name(_)))
            }
            Some(_) => false,
            None => true,
        },
        _ => false,
    }
}

/// The module a place's file belongs to.
fn module_of<'m>(model: &'m Model<'_>, at: Loc) -> Option<&'m str> {
    match &model.index.roles[at.file()] {
        FileRole::Module { module } | FileRole::Example { module } => Some(module),
        FileRole::Site { .. } | FileRole::Standalone => None,
    }
}

fn resource_like(
    model: &Model<'_>,
    compilation: &Compilation,
    constraint: &Constraint,
    declaration: &Declaration,
    classes: Option<&NameGlobs>,
    anywhere: bool,
    sink: &mut Sink<'_, '_>,
) {
    let Some(class) = &declaration.class else { return };
    if declaration.how != DeclHow::ResourceLike
        || classes.is_some_and(|c| c.matching(class).is_none())
        || !applies(model, constraint, declaration.loc)
    {
        return;
    }
    let class_module = class.split("::").next().unwrap_or(class);
    let from = module_of(model, declaration.loc);
    let why = match from {
        _ if anywhere => "classes are declared with `include`, `require` or `contain`".to_string(),
        Some(module) if module == class_module => return,
        Some(module) => format!("from module `{module}`, not from `{class_module}` itself"),
        None => format!("outside module `{class_module}`"),
    };
    let message = format!(
        "{}: `{class}` is declared resource-like (`class {{ '{class}': }}`) {why} {}",
        constraint.message,
        tail(constraint)
    );
    let related = chain_related(&compilation.chain(&declaration.by), compilation, model);
    let mut flow = related.clone();
    flow.push((declaration.loc, format!("`{class}` declared here")));
    sink.report_for(constraint.id, constraint.level, declaration.loc, message, related, flow);
}

/// Classes that take parameters where the policy says they take none, at
/// their first parameter.
pub fn finish(model: &Model<'_>, constraint: &Constraint, sink: &mut Sink<'_, '_>) {
    let Test::NoParameters(classes) = &constraint.test else { return };
    for (name, definitions) in &model.index.types {
        if classes.matching(name).is_none() {
            continue;
        }
        for definition in definitions {
            let DefBody::Class(class) = definition.body else { continue };
            let Some(first) = class.params.first() else { continue };
            let at = Loc::new(definition.file, first.name_span);
            if !model.is_reported(at) || !applies(model, constraint, at) {
                continue;
            }
            let names: Vec<String> = class.params.iter().map(|p| format!("`${}`", p.name)).collect();
            let message = format!(
                "{}: class `{name}` takes parameters ({}), where the classes matching {} take none {}",
                constraint.message,
                names.join(", "),
                classes.describe(),
                tail(constraint)
            );
            sink.report_for(constraint.id, constraint.level, at, message, Vec::new(), Vec::new());
        }
    }
}
