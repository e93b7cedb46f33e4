//! `unknown-resource-type`

use super::{closest, RuleInfo, Sink};
use crate::model::index::{DefBody, Loc};
use crate::model::workspace::autoload_path;
use crate::model::{module_of, Model};
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind, NameText};

/// ## What it does
/// Reports a resource declaration whose type is a defined type of a module
/// in the tree (`app::site { 'x': }`) that the module does not define: no
/// defined type of that name anywhere in the checked tree or on the module
/// path. Virtual and exported declarations count. A module that is absent
/// is `missing-module`'s; a type without a namespace (`fil { … }`) may come
/// from any module's Ruby code and is not judged, unless it is a Puppet 3
/// relative name (`config { … }` in `solr`, which defines `solr::config`).
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Unknown resource type: 'app::sitee'". Often a
/// typo, or a defined type the module renamed.
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-resource-type",
    name: "UnknownResourceType",
    default_level: Level::Warning,
    summary: "A resource is declared with a module's defined type that the module does not define.",
    documentation: include_str!("../../rules/unknown-resource-type.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    model.walk_reported(|file, e: &Expr| {
        let ExprKind::Resource(resource) = &e.kind else { return };
        let Some(type_name) = resource.type_name() else { return };
        let at = Loc::new(file, resource.type_expr.span);
        if !type_name.is_qualified() {
            // A Puppet 3 relative name (`config { … }` in `solr`).
            // Most types are known: the code around is not searched then.
            let meant = model
                .type_names()
                .names_no_type(&type_name)
                .then(|| super::unknown_class::relative_define_at(model, &type_name, at))
                .flatten()
                .filter(|_| super::unknown_class::top_level_surely_absent(model, &type_name, at));
            if let Some(meant) = meant {
                let message = format!(
                    "Unknown resource type: '{type_name}': Puppet 4 and later look it up as a top-level type, which the checked tree does not define, not as `{meant}`, which Puppet 3 found relative to the enclosing namespace: write `{meant}`"
                );
                sink.report(&RULE, at, message, vec![]);
            }
            return;
        }
        if !type_name.is_qualified()
            || model.index.types.contains_key(&type_name)
            || !model.module_present(&type_name)
            || model.autoload_file_unparsed(&type_name)
        {
            return;
        }
        let module = module_of(&type_name);
        let defined_types = model.index.types.iter().filter(|(name, defs)| {
            module_of(name) == module && defs.iter().any(|d| matches!(d.body, DefBody::Define(_)))
        });
        // A defined type written inside a class is named after it.
        let suffix = format!("::{type_name}");
        let is_class = |name: &str| {
            model.index.types.get(name).is_some_and(|defs| defs.iter().any(|d| matches!(d.body, DefBody::Class(_))))
        };
        let nested = model.index.types.iter().find(|(name, defs)| {
            name.ends_with(&suffix)
                && is_class(&name[..name.len() - suffix.len()])
                && defs.iter().any(|d| matches!(d.body, DefBody::Define(_)))
        });
        let suggestion = match nested {
            Some((name, _)) => format!(
                "; the tree defines `{name}`: a defined type written inside class `{}` takes its name as a prefix",
                &name[..name.len() - suffix.len()]
            ),
            None => closest(&type_name, defined_types.map(|(name, _)| name.as_str()))
                .map(|name| format!("; did you mean '{name}'?"))
                .unwrap_or_default(),
        };
        // Names of the module defined elsewhere in the tree make it present
        // though no directory of it is on the module path.
        let message = if model.modules.contains_key(module) {
            format!(
                "Unknown resource type: '{type_name}': module `{module}` defines no such defined type (Puppet's autoloader looks for {}){suggestion}",
                autoload_path(&type_name).display()
            )
        } else {
            format!(
                "Unknown resource type: '{type_name}': no module `{module}` is on the module path, and the tree defines no such defined type (Puppet's autoloader looks for {}){suggestion}",
                autoload_path(&type_name).display()
            )
        };
        sink.report(&RULE, at, message, vec![]);
    });
}
