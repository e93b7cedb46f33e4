//! `duplicate-definition`

use super::{RuleInfo, Sink};
use crate::model::index::{Loc, Visibility};
use crate::model::workspace::FileRole;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NodeMatcher;

/// ## What it does
/// Reports a class or defined type defined twice (classes and defined
/// types share one namespace) where one compilation can see both: in one
/// file, or in two files Puppet loads (the site's manifests, module files at
/// their autoload path). A definition in a module file Puppet never reads is
/// not counted, nor a module's `init.pp` class the site's manifests define
/// too (Puppet loads that file only for another name of the module).
///
/// A node defined twice in one site (a name, `default`, or a regular
/// expression that Puppet names alike) is reported too.
///
/// ## Why is this bad?
/// Puppet fails with "Class 'x' is already defined" ("Node 'x' is already
/// defined"); which body a reader meant is anyone's guess.
pub const RULE: RuleInfo = RuleInfo {
    id: "duplicate-definition",
    name: "DuplicateDefinition",
    default_level: Level::Error,
    summary: "A class or defined type is defined twice.",
    documentation: include_str!("../../rules/duplicate-definition.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let loadable = model.loadable_files();
    for (name, definitions) in &model.index.types {
        let mut defs: Vec<_> = definitions.iter().collect();
        defs.sort_by_key(|d| (model.path(d.file).to_path_buf(), d.name_span.start));
        for (i, def) in defs.iter().enumerate() {
            // Both global, or both in the same standalone file.
            let earlier = defs[..i].iter().find(|e| match (e.visibility, def.visibility) {
                (Visibility::Global, Visibility::Global) => {
                    e.file == def.file || (loadable.contains(&e.file) && loadable.contains(&def.file))
                }
                (Visibility::File(a), Visibility::File(b)) => a == b,
                _ => false,
            });
            // The site's manifests define the class a module's `init.pp`
            // defines too: Puppet finds the name there and loads `init.pp`
            // only if it looks up another name of the module, which the
            // tree alone does not show.
            let site_and_module_init =
                |a: &crate::model::index::Definition<'_>, b: &crate::model::index::Definition<'_>| {
                    matches!(model.workspace.role(model.path(a.file)), FileRole::Site { .. })
                        && model.path(b.file).ends_with("manifests/init.pp")
                        && matches!(model.workspace.role(model.path(b.file)), FileRole::Module { .. })
                };
            // Puppet refuses a module file that defines a name its path
            // does not give before it sees a second definition
            // (definition-location reports it).
            let refused = |d: &crate::model::index::Definition<'_>| {
                crate::rules::definition_location::refused_at_load(model, d.file, name)
            };
            if let Some(earlier) = earlier.filter(|earlier| {
                !refused(earlier)
                    && !refused(def)
                    && !site_and_module_init(earlier, def)
                    && !site_and_module_init(def, earlier)
                    && !applied_one_by_one(model, earlier.file, def.file)
            }) {
                sink.report(
                    &RULE,
                    def.loc(),
                    format!("{} `{name}` is already defined", def.kind_word()),
                    vec![(earlier.loc(), format!("`{name}` first defined here as a {}", earlier.kind_word()))],
                );
            }
        }
    }
    duplicate_nodes(model, sink);
}

/// Nodes of one site that Puppet names alike: names ignore case, and a
/// regular expression is named by its source without the characters
/// Puppet drops.
/// Without `manifests/site.pp` or an `environment.conf`, two files of an
/// environment's `manifests/` that define the same node or class are files
/// applied one by one (`puppet apply manifests/web.pp`), not one site.
fn applied_one_by_one(model: &Model<'_>, a: usize, b: usize) -> bool {
    let (FileRole::Site { root }, FileRole::Site { root: other }) = (&model.index.roles[a], &model.index.roles[b])
    else {
        return false;
    };
    a != b && root == other && !root.join("environment.conf").is_file() && !root.join("manifests/site.pp").is_file()
}

fn duplicate_nodes(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for site in &model.index.sites {
        let mut first: std::collections::HashMap<String, Loc> = std::collections::HashMap::new();
        for entry in &site.nodes {
            for matcher in &entry.node.matchers {
                let (name, span) = match matcher {
                    NodeMatcher::Name(name, span) => (name.to_lowercase(), *span),
                    NodeMatcher::Default(span) => ("default".to_string(), *span),
                    NodeMatcher::Regex(source, span) => {
                        let kept: String = source
                            .to_lowercase()
                            .chars()
                            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
                            .collect();
                        (format!("__node_regexp__{}", kept.trim_start_matches('.')), *span)
                    }
                    _ => continue,
                };
                let at = Loc::new(entry.file, span);
                match first.get(&name) {
                    Some(earlier) if applied_one_by_one(model, earlier.file(), entry.file) => {}
                    Some(earlier) => sink.report(
                        &RULE,
                        at,
                        format!("Node '{name}' is already defined"),
                        vec![(*earlier, format!("node '{name}' first defined here"))],
                    ),
                    None => {
                        first.insert(name, at);
                    }
                }
            }
        }
    }
}
