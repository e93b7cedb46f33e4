//! `duplicate-definition`

use super::{RuleInfo, Sink};
use crate::model::index::Visibility;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a class or defined type defined twice (classes and defined
/// types share one namespace) where one compilation can see both: in one
/// file, or in two files Puppet loads (the site's manifests, module files at
/// their autoload path). A definition in a module file Puppet never reads is
/// not counted.
///
/// ## Why is this bad?
/// Puppet fails with "Class 'x' is already defined"; which body a reader
/// meant is anyone's guess.
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
            if let Some(earlier) = earlier {
                sink.report(
                    &RULE,
                    def.loc(),
                    format!("{} `{name}` is already defined", def.kind_word()),
                    vec![(earlier.loc(), format!("`{name}` first defined here as a {}", earlier.kind_word()))],
                );
            }
        }
    }
}
