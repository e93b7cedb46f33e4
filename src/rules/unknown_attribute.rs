//! `unknown-attribute`

use super::{closest, RuleInfo, Sink};
use crate::model::index::{FileId, Loc};
use crate::model::interp::{built_in_attributes, METAPARAMETERS};
use crate::model::ruby_types::RubyType;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind, NameText, ResourceForm};

/// ## What it does
/// Reports an attribute that a resource of one of Puppet's core types
/// (`file`, `package`, `service`, `exec`, `user`, `group`, `notify`,
/// `tidy`, `schedule`, `filebucket`, `resources`, `stage`) does not have:
/// neither one of the type's parameters or properties, nor `name`, nor a
/// metaparameter. Resource types of the tree's modules written in Ruby are
/// judged by the parameters and properties their file declares, when it
/// declares them plainly. Virtual and exported resources count: Puppet
/// checks them where they are declared. So do resource defaults
/// (`File { … }`) of a scope that surely declares a resource of the type,
/// and the keys of a literal hash given as a splat (`* => { modee => 1 }`).
///
/// ## Why is this bad?
/// Puppet fails the catalog of every node that evaluates the resource:
/// "no parameter named 'modee'". Usually a typo, or an attribute of
/// another type (`owner` on a `service`).
///
/// ## Example
/// ```puppet
/// file { '/etc/motd': modee => '0644' }
/// ```
/// Use instead:
/// ```puppet
/// file { '/etc/motd': mode => '0644' }
/// ```
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-attribute",
    name: "UnknownAttribute",
    default_level: Level::Error,
    summary: "A resource is given an attribute its type (a core type or a module's Ruby type) does not have.",
    documentation: include_str!("../../rules/unknown-attribute.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let ruby_types = model.ruby_types();
    let known = |type_name: &str| -> Option<(Vec<&str>, String)> {
        if model.index.types.contains_key(type_name) {
            return None;
        }
        match (ruby_types.get(type_name), built_in_attributes(type_name)) {
            (Some(RubyType { module, attributes: Some(ruby), .. }), _) => {
                let own: Vec<&str> = ruby.iter().map(String::as_str).collect();
                let listed = own.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
                let takes = if own.is_empty() { "only `name`".to_string() } else { listed };
                let origin = format!(" (the type `{type_name}` of module `{module}` takes {takes})");
                Some((own.into_iter().chain(["name", "provider"]).collect(), origin))
            }
            (None, Some(core)) => Some((core.to_vec(), String::new())),
            _ => None,
        }
    };
    for (file, parsed) in model.files.iter().enumerate() {
        let Some(manifest) = &parsed.manifest else { continue };
        if model.reported[file] {
            check_defaults_in(model, file, &manifest.statements, &known, sink);
        }
    }
    model.walk_reported(|file, e: &Expr| {
        match &e.kind {
            ExprKind::Class(class) => check_defaults_in(model, file, &class.body.statements, &known, sink),
            ExprKind::Define(define) => check_defaults_in(model, file, &define.body.statements, &known, sink),
            ExprKind::Node(node) => check_defaults_in(model, file, &node.body.statements, &known, sink),
            _ => {}
        }
        let ExprKind::Resource(resource) = &e.kind else { return };
        let Some(type_name) = resource.type_name() else { return };
        let Some((attributes, origin)) = known(&type_name) else { return };
        let text = &model.files[file].source.text;
        let capitalized = capitalize(&type_name);
        for body in &resource.bodies {
            for (name, at) in given_names(&body.attributes) {
                let Some(suggestion) = unknown(&name, &attributes) else { continue };
                let title = title_text(text, &body.title);
                sink.report(
                    &RULE,
                    Loc::new(file, at),
                    format!("{capitalized}[{title}]: has no parameter named '{name}'{origin}{suggestion}"),
                    vec![(Loc::new(file, body.title.span), format!("{capitalized}[{title}] declared here"))],
                );
            }
        }
    });
}

/// A type's attributes, and what to say of where they come from.
type TypeAttributes<'m> = (Vec<&'m str>, String);

/// Resource defaults (`File { modee => '0644' }`) with an attribute the
/// type lacks, in a scope's statements that surely declare a resource of
/// that type: Puppet then fails on that resource. A default no resource
/// takes is harmless, so one alone, or with resources only in a branch or
/// in another scope, is not judged.
fn check_defaults_in<'m>(
    model: &Model<'_>,
    file: FileId,
    statements: &[Expr],
    known: &dyn Fn(&str) -> Option<TypeAttributes<'m>>,
    sink: &mut Sink<'_, '_>,
) {
    for statement in statements {
        let ExprKind::ResourceDefaults(defaults) = &statement.kind else { continue };
        let ExprKind::TypeRef(written_type) = &defaults.type_expr.kind else { continue };
        let type_name = written_type.without_anchor().to_ascii_lowercase();
        let Some((attributes, origin)) = known(&type_name) else { continue };
        // The first resource of the type this scope surely declares.
        let Some(taker) = statements.iter().find_map(|other| {
            let ExprKind::Resource(resource) = &other.kind else { return None };
            let body = resource.bodies.iter().find(|body| !matches!(body.title.kind, ExprKind::Default))?;
            (resource.form == ResourceForm::Regular && resource.type_name().as_deref() == Some(type_name.as_str()))
                .then_some(body)
        }) else {
            continue;
        };
        let capitalized = capitalize(&type_name);
        let text = &model.files[file].source.text;
        let title = title_text(text, &taker.title);
        for attribute in &defaults.attributes {
            let name = attribute.name.as_str();
            let Some(suggestion) = unknown(name, &attributes) else { continue };
            sink.report(
                &RULE,
                Loc::new(file, attribute.name_span),
                format!(
                    "{capitalized}[{title}]: has no parameter named '{name}'{origin}, which the resource default \
                     of its scope sets{suggestion}"
                ),
                vec![(Loc::new(file, taker.title.span), format!("{capitalized}[{title}] declared here"))],
            );
        }
    }
}

/// The attributes a body gives, at their names: a splat of a literal hash
/// (`* => { mode => '0644' }`) gives its keys.
fn given_names(attributes: &[crate::syntax::ast::Attribute]) -> Vec<(String, crate::syntax::source::Span)> {
    let mut names = Vec::new();
    for attribute in attributes {
        match (&attribute.value.kind, attribute.name.as_str()) {
            (ExprKind::Hash(pairs), "*") => {
                for pair in pairs {
                    let key = match &pair.key.kind {
                        ExprKind::Str(s) => s.as_literal(),
                        ExprKind::Name(n) => Some(n.clone()),
                        _ => None,
                    };
                    names.extend(key.map(|k| (k, pair.key.span)));
                }
            }
            _ => names.push((attribute.name.clone(), attribute.name_span)),
        }
    }
    names
}

/// For an attribute the type does not take, what to suggest instead (empty
/// when nothing is close); `None` for a known one, or a splat.
fn unknown(name: &str, attributes: &[&str]) -> Option<String> {
    if name == "*" || attributes.contains(&name) || METAPARAMETERS.contains(&name) {
        return None;
    }
    Some(
        closest(name, attributes.iter().chain(METAPARAMETERS).copied())
            .map(|known| format!("; did you mean '{known}'?"))
            .unwrap_or_default(),
    )
}

/// A title as Puppet names the resource: a plain string's value, else the
/// title as written.
fn title_text(text: &str, title: &Expr) -> String {
    match &title.kind {
        ExprKind::Str(s) => s.as_literal(),
        _ => None,
    }
    .unwrap_or_else(|| text[title.span.start..title.span.end.min(text.len())].to_string())
}

fn capitalize(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
