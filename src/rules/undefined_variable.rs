//! `undefined-variable`

use super::node_scope_leak::describe_owner;
use super::{chain_related, RuleInfo, Sink};
use crate::model::facts::BUILT_IN_VARIABLES;
use crate::model::index::normalize_name;
use crate::model::interp::METAPARAMETERS;
use crate::model::record::Compilation;
use crate::model::record::{Entry, Event, Owner, ReadOutcome, ScopeKind};
use crate::model::{module_of, Model};
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports a read of a variable bound nowhere the reader could ever see:
/// not in its own scope, parameters or parent classes, and — in a tree with
/// site manifests — by no node and no top-scope code; or a qualified
/// `$a::x` that class `a` does not bind.
///
/// ## Why is this bad?
/// With strict variables Puppet fails with "Unknown variable"; without, the
/// value is silently `undef`, often a misspelt name.
pub const RULE: RuleInfo = RuleInfo {
    id: "undefined-variable",
    name: "UndefinedVariable",
    default_level: Level::Error,
    summary: "A variable is read that is bound nowhere the reader can see.",
    documentation: include_str!("../../rules/undefined-variable.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    // A function a node calls sets variables in that node's catalog only;
    // for the others (a class checked on its own) any node's call counts.
    let opaque_node_calls = match compilation.entry {
        Entry::Node { .. } => compilation.events.iter().any(|event| {
            matches!(event, Event::NodeCall { name, .. } if !model.index.functions.contains_key(&normalize_name(name)))
        }),
        _ => model.nodes_call_opaque_functions(),
    };
    sink.compilation(compilation);
    let standalone = model.standalone_of(compilation);
    for read in &compilation.reads {
        let ReadOutcome::Unbound { searched, elsewhere } = &read.outcome else { continue };
        sink.set_conditional(
            !read.path.is_empty()
                || !compilation.owner_path(&read.reader).is_empty()
                || !compilation.runs_on_its_path(&read.reader),
        );
        if read.default_replaced || default_data_may_replace(model, compilation, read) {
            continue;
        }
        // Set by a site function (`[include-functions]`) or the site.
        let set_by_function = set_by_include_function(model, read.name.without_anchor());
        // `$::x`, or `$x` read by code at top or node scope, which looks in
        // top scope all the same; unless a function the nodes call may have
        // set it.
        let top_scope_read = if let Some(name) = read.name.strip_prefix("::") {
            !name.is_qualified()
        } else {
            !read.name.is_qualified() && matches!(read.reader, Owner::Top | Owner::Node)
        };
        if set_by_function || model.site_provides(compilation, &read.name) || (top_scope_read && opaque_node_calls) {
            continue;
        }
        let qualified = read.name.without_anchor().rsplit_once("::").map(|(class, _)| class.to_string());
        // A parent the tree does not define may bind it.
        let searched_class = match (&qualified, &read.reader) {
            (Some(class), _) => Some(class.as_str()),
            (None, Owner::Class(reader)) => Some(&**reader),
            (None, _) => None,
        };
        if searched_class.is_some_and(|class| model.inherits_unknown(class, standalone)) {
            continue;
        }
        // A metaparameter the unknown declarer of a class or defined type
        // checked on its own may set (`class { 'x': stage => … }`).
        if qualified.is_none() && METAPARAMETERS.contains(&&*read.name) && compilation.is_entry_owner(&read.reader) {
            continue;
        }
        // Whether the whole program is in view: a node (or a site without
        // nodes) of an environment, or a standalone file's own code.
        let in_view = compilation.node_in_view
            || (standalone == Some(read.loc.file()) && !matches!(compilation.entry, Entry::Unreached { .. }));
        // A class of a module not in the tree: what it binds is unknown.
        if qualified.as_ref().is_some_and(|class| model.index.find_type(class, standalone).is_none()) {
            continue;
        }
        let report = match &qualified {
            // `$a::x`: an error when `a` ran and does not bind `x`, or
            // when the whole program is in view and `a` surely never ran.
            Some(class) => {
                compilation.classes.contains_key(class) || (in_view && !compilation.may_declare_unnamed_classes())
            }
            None => in_view || (model.has_site && !model.node_variables.contains(&*read.name)),
        };
        if !report {
            continue;
        }
        // The node scopes of inherited nodes are named once.
        let mut scopes: Vec<String> = searched
            .iter()
            .map(|s| match s {
                ScopeKind::Top => "top scope".to_string(),
                ScopeKind::Node => "node scope".to_string(),
                ScopeKind::Class(name) => format!("class `{name}`"),
                ScopeKind::Define { type_name, .. } => format!("defined type `{type_name}`"),
                ScopeKind::Lambda => "the lambda".to_string(),
            })
            .collect();
        scopes.dedup();
        let assigned_elsewhere = elsewhere.is_some() || assigned_in_own_body(model, compilation, read, false).is_some();
        let assigned_in_class = assigned_in_class_body(model, compilation, read);
        let message = match &qualified {
            Some(class) if !compilation.classes.contains_key(class) => {
                format!("`${}` is unknown: class `{class}` is never declared before this read", read.name)
            }
            // The class ran, and its code that binds it did not.
            Some(class) if assigned_in_class.is_some() => format!(
                "`${}` is not bound: class `{class}` assigns it only in branches that did not run (searched {})",
                read.name,
                scopes.join(", ")
            ),
            // Assigned, but only on branches this read's path does not take.
            _ if assigned_elsewhere => format!(
                "`${}` is not bound on this path: {} assigns it only in branches that do not run before this read (searched {})",
                read.name,
                describe_owner(&read.reader, compilation),
                scopes.join(", ")
            ),
            _ => format!(
                "`${}` is not bound anywhere {} can see (searched {})",
                read.name,
                describe_owner(&read.reader, compilation),
                scopes.join(", ")
            ),
        };
        let chain = chain_related(&compilation.chain(&read.reader), compilation, model);
        let mut flow = chain.clone();
        flow.push((read.loc, format!("`${}` read here, bound nowhere in view", read.name)));
        let mut related = chain;
        if let Some(other) =
            elsewhere.or_else(|| assigned_in_own_body(model, compilation, read, false)).or(assigned_in_class)
        {
            related.insert(0, (other, format!("`${}` is assigned here, on a path that excludes the read", read.name)));
        }
        // The site reads it as `$::name` itself: it expects a fact.
        let site_expects = qualified.is_none() && model.site_fact_reads.contains(&*read.name);
        // A class's variable that does not exist is stale code, fallback or not.
        if (top_scope_read || site_expects) && !read.with_fallback {
            // A top-scope variable the tree never binds: most often a fact
            // or ENC parameter that the agents, not the tree, provide.
            let message = format!(
                "{message}; no fact the tree shows sets it: if the nodes get it from outside the tree (an external fact in facts.d, an ENC parameter), list it under `facts` in .mplint.toml; if not, Puppet fails here under strict_variables (Puppet 8's default) and reads undef otherwise"
            );
            sink.report_at_level(&RULE, Level::Note, read.loc, message, related, flow);
        } else if read.with_fallback && qualified.as_deref().is_none_or(str::is_empty) {
            // Meant to be optional: it fails only under strict_variables.
            let message = format!(
                "{message}; it is passed to a function that falls back when it is undef, but with strict_variables (Puppet 8's default) the read itself fails: use getvar('{}')",
                read.name
            );
            sink.report_at_level(&RULE, Level::Note, read.loc, message, related, flow);
        } else if qualified.is_none() && searched.contains(&ScopeKind::Top) {
            // Puppet's last place to look is top scope, where facts are.
            let absent = model.absent_puppetfile_modules();
            if let Some(conf) = &model.workspace.node_classifier {
                // The classifier's parameters are top-scope variables.
                let message = format!(
                    "{message}; it may be a parameter of the external node classifier that {} sets; if so, list it under `facts` in .mplint.toml",
                    model.workspace.display.show(conf).display()
                );
                sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, flow);
            } else if model.sites_classify_nothing && !matches!(compilation.entry, Entry::Node { .. }) {
                // Nodes get their classes, and perhaps this, from outside;
                // not the nodes of a file applied on its own.
                let message = format!(
                    "{message}; the site manifest declares no class and no node, so an external node classifier must classify the nodes, and it may set this as a parameter; if so, list it under `facts` in .mplint.toml"
                );
                sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, flow);
            } else if let Some((file, (other, imports))) = standalone
                .and_then(|file| model.import_partner_binding(file, &read.name).map(|partner| (file, partner)))
            {
                // Puppet 3 read the file with the one it imports or that
                // imports it, whose top scope or nodes bind this.
                let message = format!(
                    "{message}; {} {} {}, which Puppet 3 read with it as one manifest, and which binds it at top scope or in a node",
                    model.relative_path(file).display(),
                    if imports { "imports" } else { "is imported by" },
                    model.relative_path(other).display()
                );
                sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, flow);
            } else if let Some((file, absent)) = model.absent_site_import.as_ref().filter(|_| standalone.is_none()) {
                // The site's nodes are partly kept out of the tree.
                let message = format!(
                    "{message}; {} imports {absent}, which is not in the tree, and whose top scope or nodes may bind it",
                    model.relative_path(*file).display()
                );
                sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, flow);
            } else if let Some(external) = site_reads_from_outside(model).filter(|_| {
                !assigned_elsewhere
                    && absent.is_empty()
                    && assigned_in_own_body(model, compilation, read, true).is_none()
            }) {
                // The site itself relies on values the tree does not set;
                // a variable the reader assigns on other paths, or in its
                // lambdas, is its own.
                let message = format!(
                    "{message}; the site manifest reads `$::{external}`, which no fact the tree shows sets, so its nodes get facts from outside the tree and this may be one; if so, list it under `facts` in .mplint.toml"
                );
                sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, flow);
            } else if absent.is_empty() || assigned_in_own_body(model, compilation, read, true).is_some() {
                // A variable the reader assigns on other paths, or in its
                // lambdas, is its own, whatever facts absent modules ship.
                let message = format!(
                    "{message}; if the nodes get it from outside the tree (an external fact, an ENC parameter), list it under `facts` in .mplint.toml"
                );
                sink.report_with_flow(&RULE, read.loc, message, related, flow);
            } else {
                // A module the Puppetfile installs may ship it as a custom fact.
                let shown: Vec<String> = absent.iter().take(3).map(|m| format!("`{m}`")).collect();
                let more = if absent.len() > 3 { format!(" and {} more", absent.len() - 3) } else { String::new() };
                let message = format!(
                    "{message}; it may be a custom fact of a module the Puppetfile installs that is not in the tree ({}{more}); if the nodes get it from outside the tree, list it under `facts` in .mplint.toml",
                    shown.join(", ")
                );
                sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, flow);
            }
        } else {
            sink.report_with_flow(&RULE, read.loc, message, related, flow);
        }
    }
    sink.set_conditional(false);
}

/// A top-scope variable the site manifests read as `$::name` that no fact
/// of the tree sets (`split($::roles, ',')`): the nodes get external facts
/// or ENC parameters.
fn site_reads_from_outside<'m>(model: &'m Model<'_>) -> Option<&'m str> {
    model.site_fact_reads.iter().map(String::as_str).find(|name| {
        !model.facts.is_fact(name) && !BUILT_IN_VARIABLES.contains(name) && !set_by_include_function(model, name)
    })
}

/// Whether a site function that declares classes (`[include-functions]`)
/// sets this top-scope variable.
fn set_by_include_function(model: &Model<'_>, name: &str) -> bool {
    model.workspace.include_functions.values().any(|f| f.sets.iter().any(|v| v.trim_start_matches(['$', ':']) == name))
}

/// A read in a class parameter's default at a site whose Hiera data mplint
/// does not hold whole (a datadir outside the tree, Hiera 3): the data may
/// replace the default, which Puppet then does not evaluate.
pub(super) fn default_data_may_replace(
    model: &Model<'_>,
    compilation: &Compilation,
    read: &crate::model::record::Read,
) -> bool {
    let Owner::Class(class) = &read.reader else { return false };
    read.in_parameter_default
        && model.has_site
        && !model.facts.all_data_known(super::unknown_parameter::environment(model, compilation), module_of(class))
}

/// An assignment of an unqualified variable read in a class or defined
/// type's own body, where the code that runs never reached it (a branch
/// whose condition is known false there); with `lambdas_too`, also one
/// inside a lambda of the body, which binds the lambda's own variable.
fn assigned_in_own_body(
    model: &Model<'_>,
    compilation: &Compilation,
    read: &crate::model::record::Read,
    lambdas_too: bool,
) -> Option<crate::model::index::Loc> {
    if read.name.is_qualified() {
        return None;
    }
    let type_name = match &read.reader {
        Owner::Class(name) => name.to_string(),
        Owner::Define(i) => compilation.instances.get(*i)?.type_name.clone(),
        _ => return None,
    };
    let def = model.index.types.get(&type_name)?.iter().find(|d| d.file == read.loc.file())?;
    assignment_in_body(def, &read.name, lambdas_too)
}

/// An assignment of `$class::name`, read from another scope, in the body of
/// the class that ran without binding it (a branch known false there).
fn assigned_in_class_body(
    model: &Model<'_>,
    compilation: &Compilation,
    read: &crate::model::record::Read,
) -> Option<crate::model::index::Loc> {
    let (class, name) = read.name.without_anchor().rsplit_once("::")?;
    if !compilation.classes.contains_key(class) {
        return None;
    }
    let def = model.index.types.get(class)?.first()?;
    assignment_in_body(def, name, false)
}

/// The first assignment of `$name` in a class or defined type's body;
/// with `lambdas_too`, also one inside a lambda of the body.
fn assignment_in_body(
    def: &crate::model::index::Definition<'_>,
    name: &str,
    lambdas_too: bool,
) -> Option<crate::model::index::Loc> {
    use crate::model::index::{DefBody, Loc};
    use crate::syntax::ast::ExprKind;
    let body = match def.body {
        DefBody::Class(class) => &class.body,
        DefBody::Define(define) => &define.body,
        _ => return None,
    };
    // Assignments inside a lambda bind the lambda's own variables.
    let mut lambdas = Vec::new();
    let mut assignments = Vec::new();
    for statement in &body.statements {
        statement.walk(&mut |e| match &e.kind {
            ExprKind::Call(call) => lambdas.extend(call.lambda.as_ref().map(|l| l.span)),
            ExprKind::MethodCall(call) => lambdas.extend(call.lambda.as_ref().map(|l| l.span)),
            ExprKind::Assignment { target, .. } => {
                if matches!(&target.kind, ExprKind::Variable(v) if *v.name == *name) {
                    assignments.push(target.span);
                }
            }
            _ => {}
        });
    }
    let in_lambda =
        |span: &crate::syntax::source::Span| lambdas.iter().any(|l| l.start <= span.start && span.end <= l.end);
    assignments.into_iter().find(|span| lambdas_too || !in_lambda(span)).map(|span| Loc::new(def.file, span))
}
