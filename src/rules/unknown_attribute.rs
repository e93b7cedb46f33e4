//! `unknown-attribute`

use super::{RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::interp::{built_in_attributes, METAPARAMETERS};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind};

/// ## What it does
/// Reports an attribute that a resource of one of Puppet's core types
/// (`file`, `package`, `service`, `exec`, `user`, `group`, `notify`,
/// `tidy`, `schedule`, `filebucket`, `resources`, `stage`) does not have:
/// neither one of the type's parameters or properties, nor `name`, nor a
/// metaparameter. Virtual and exported resources count: Puppet checks them
/// where they are declared. Types that left Puppet's core for modules
/// (`cron`, `host`, `mount`, …) and any type the tree defines again under
/// a core name are not judged.
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
    summary: "A resource of a core type is given an attribute the type does not have.",
    documentation: include_str!("../../rules/unknown-attribute.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let redefined = model.workspace.ruby_types();
    for (file, parsed) in model.files.iter().enumerate() {
        let Some(manifest) = &parsed.manifest else { continue };
        if !model.reported[file] {
            continue;
        }
        let text = &parsed.source.text;
        for statement in &manifest.statements {
            statement.walk(&mut |e: &Expr| {
                let ExprKind::Resource(resource) = &e.kind else { return };
                let Some(type_name) = resource.type_name() else { return };
                let Some(attributes) = built_in_attributes(&type_name) else { return };
                if redefined.contains(&type_name) || model.index.types.contains_key(&type_name) {
                    return;
                }
                for body in &resource.bodies {
                    for attribute in &body.attributes {
                        let name = attribute.name.as_str();
                        if name == "*" || attributes.contains(&name) || METAPARAMETERS.contains(&name) {
                            continue;
                        }
                        let title = &text[body.title.span.start..body.title.span.end.min(text.len())];
                        let title = match &body.title.kind {
                            ExprKind::Str(s) => s.as_literal().unwrap_or_else(|| title.to_string()),
                            _ => title.to_string(),
                        };
                        let suggestion = attributes
                            .iter()
                            .chain(METAPARAMETERS)
                            .map(|known| (strsim::jaro_winkler(name, known), known))
                            .filter(|(score, _)| *score > 0.85)
                            .max_by(|a, b| a.0.total_cmp(&b.0))
                            .map(|(_, known)| format!("; did you mean '{known}'?"))
                            .unwrap_or_default();
                        let capitalized = capitalize(&type_name);
                        sink.report(
                            &RULE,
                            Loc::new(file, attribute.name_span),
                            format!("{capitalized}[{title}]: has no parameter named '{name}'{suggestion}"),
                            vec![(Loc::new(file, body.title.span), format!("{capitalized}[{title}] declared here"))],
                        );
                    }
                }
            });
        }
    }
}

fn capitalize(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
