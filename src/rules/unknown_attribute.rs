//! `unknown-attribute`

use super::{closest, RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::interp::{built_in_attributes, METAPARAMETERS};
use crate::model::ruby_types::RubyType;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind};

/// ## What it does
/// Reports an attribute that a resource of one of Puppet's core types
/// (`file`, `package`, `service`, `exec`, `user`, `group`, `notify`,
/// `tidy`, `schedule`, `filebucket`, `resources`, `stage`) does not have:
/// neither one of the type's parameters or properties, nor `name`, nor a
/// metaparameter. Resource types of the tree's modules written in Ruby are
/// judged by the parameters and properties their file declares, when it
/// declares them plainly. Virtual and exported resources count: Puppet
/// checks them where they are declared.
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
    let ruby_types = crate::model::ruby_types::discover(&model.workspace);
    model.walk_reported(|file, e: &Expr| {
        let ExprKind::Resource(resource) = &e.kind else { return };
        let Some(type_name) = resource.type_name() else { return };
        if model.index.types.contains_key(&type_name) {
            return;
        }
        let (attributes, origin): (Vec<&str>, String) =
            match (ruby_types.get(&type_name), built_in_attributes(&type_name)) {
                (Some(RubyType { module, attributes: Some(ruby) }), _) => {
                    let own: Vec<&str> = ruby.iter().map(String::as_str).collect();
                    let listed = own.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
                    let takes = if own.is_empty() { "only `name`".to_string() } else { listed };
                    let origin = format!(" (the type `{type_name}` of module `{module}` takes {takes})");
                    (own.into_iter().chain(["name", "provider"]).collect(), origin)
                }
                (None, Some(core)) => (core.to_vec(), String::new()),
                _ => return,
            };
        let text = &model.files[file].source.text;
        let capitalized = capitalize(&type_name);
        for body in &resource.bodies {
            for attribute in &body.attributes {
                let name = attribute.name.as_str();
                if name == "*" || attributes.contains(&name) || METAPARAMETERS.contains(&name) {
                    continue;
                }
                let written = &text[body.title.span.start..body.title.span.end.min(text.len())];
                let title = match &body.title.kind {
                    ExprKind::Str(s) => s.as_literal().unwrap_or_else(|| written.to_string()),
                    _ => written.to_string(),
                };
                let suggestion = closest(name, attributes.iter().chain(METAPARAMETERS).copied())
                    .map(|known| format!("; did you mean '{known}'?"))
                    .unwrap_or_default();
                sink.report(
                    &RULE,
                    Loc::new(file, attribute.name_span),
                    format!("{capitalized}[{title}]: has no parameter named '{name}'{origin}{suggestion}"),
                    vec![(Loc::new(file, body.title.span), format!("{capitalized}[{title}] declared here"))],
                );
            }
        }
    });
}

fn capitalize(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
