//! `definition-location`

use super::{puppet_span, RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::workspace::FileRole;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::ExprKind;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports, in a module's `manifests/`, `functions/` and `types/`, a class,
/// defined type or function whose name does not start with the name the
/// file's path gives (`apache::vhost` in `apache/manifests/vhost.pp`), and
/// anything at the top of such a file but definitions: an `include`, a
/// variable, a resource, a node.
///
/// ## Why is this bad?
/// Puppet refuses such a file whenever it loads it: "Unacceptable
/// location", or "unacceptable as a top level construct in this location".
pub const RULE: RuleInfo = RuleInfo {
    id: "definition-location",
    name: "DefinitionLocation",
    default_level: Level::Error,
    summary: "A module file defines a name its path does not give, or holds code outside definitions.",
    documentation: include_str!("../../rules/definition-location.md"),
};

/// The directories whose files Puppet's validator checks by location.
/// (`plans/` hold plans, which only Bolt's task mode reads.)
const CHECKED_DIRS: &[&str] = &["manifests", "functions", "types"];

/// A module file Puppet's validator checks, with the names its path gives.
struct Checked<'m> {
    id: usize,
    module: &'m str,
    relative: String,
    namespace: String,
    /// Some name leads Puppet's autoloader to the file.
    loaded: bool,
}

/// The module file `id` as Puppet's validator checks it: its module, its
/// path in the module, the names its path gives, and whether some name
/// leads the autoloader to it.
fn checked_file<'m>(model: &'m Model<'_>, id: usize) -> Option<Checked<'m>> {
    let Some(FileRole::Module { module }) = model.index.roles.get(id) else { return None };
    let dir = model.modules.get(module)?;
    let rest = model.files[id].source.path.strip_prefix(dir).ok()?;
    let parts: Vec<String> = rest.components().map(|c| c.as_os_str().to_string_lossy().to_lowercase()).collect();
    let [subdir, inner @ .., file_name] = parts.as_slice() else { return None };
    let stem = file_name.strip_suffix(".pp")?;
    if !CHECKED_DIRS.contains(&subdir.as_str()) {
        return None;
    }
    // No name maps to `init-sample.pp` or `2fa.pp`: Puppet never loads it.
    let name_segment = |segment: &str| {
        segment.starts_with(|c: char| c.is_ascii_lowercase())
            && segment.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    let loaded = inner.iter().all(|s| name_segment(s)) && name_segment(stem);
    let namespace = crate::model::workspace::path_namespace(&module.to_lowercase(), inner, stem);
    Some(Checked { id, module, relative: rest.display().to_string(), namespace, loaded })
}

fn is_definition(kind: &ExprKind) -> bool {
    matches!(
        kind,
        ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Function(_)
            | ExprKind::TypeAlias(_)
            | ExprKind::TypeDefinition(_)
            | ExprKind::Plan(_)
    )
}

/// Whether `file` is a module's manifest that no name leads Puppet's
/// autoloader to, in a directory that is the module it is named after:
/// Puppet never reads what it defines.
pub fn never_loaded(model: &Model<'_>, file: usize) -> bool {
    model
        .never_loaded_files(|| {
            let checked: Vec<Checked> = (0..model.files.len()).filter_map(|id| checked_file(model, id)).collect();
            let modules = modules_defining_own_names(model, &checked);
            checked
                .iter()
                .filter(|c| !c.loaded && c.relative.starts_with("manifests") && modules.contains(c.module))
                .map(|c| c.id)
                .collect()
        })
        .contains(&file)
}

/// The modules some of whose checked files define names of their own
/// namespace. A directory that defines none is not the module it is named
/// after (a packaging copy, a stray folder): Puppet never looks for a name
/// there, so it never loads its files.
fn modules_defining_own_names<'m>(model: &Model<'_>, checked: &[Checked<'m>]) -> std::collections::BTreeSet<&'m str> {
    checked
        .iter()
        .filter(|c| {
            definitions(model, c.id).any(|(_, name)| {
                let name = name.to_lowercase();
                let module = c.module.to_lowercase();
                name == module || name.starts_with(&format!("{module}::"))
            })
        })
        .map(|c| c.module)
        .collect()
}

/// Whether Puppet refuses a module file for defining `name`, which its
/// path does not give, as soon as it loads the file.
pub fn refused_at_load(model: &Model<'_>, file: usize, name: &str) -> bool {
    checked_file(model, file).is_some_and(|c| !name.to_lowercase().starts_with(&c.namespace))
}

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let checked: Vec<Checked> = (0..model.files.len()).filter_map(|id| checked_file(model, id)).collect();
    let is_module = modules_defining_own_names(model, &checked);
    // A main manifest's `nodes.pp` or `site.pp`, node definitions only, in
    // the `manifests/` of a directory that is no published module (no
    // `metadata.json`): the tree is applied whole as the main manifest
    // (`puppet apply site/manifests`), whose files Puppet checks by no
    // location; only the autoloader refuses them.
    let applied_whole: std::collections::BTreeSet<&str> = checked
        .iter()
        .filter(|c| {
            let main_manifest_name = matches!(c.relative.as_str(), "manifests/nodes.pp" | "manifests/site.pp");
            let published = model.modules.get(c.module).is_some_and(|dir| dir.join("metadata.json").is_file());
            main_manifest_name && !published && definitions(model, c.id).next().is_none()
        })
        .filter(|c| {
            let statements = model.files[c.id].manifest.as_ref().map_or(&[][..], |m| &m.statements[..]);
            statements.iter().any(|s| matches!(s.kind, ExprKind::Node(_)))
        })
        .map(|c| c.module)
        .collect();
    // The tree's code in lower case, read only if some file needs it.
    let mut texts: Option<Vec<String>> = None;
    for c in checked.iter().filter(|c| is_module.contains(c.module)) {
        let file = &model.files[c.id];
        let whole = c.relative.starts_with("manifests") && applied_whole.contains(c.module);
        let Some(manifest) = &file.manifest else { continue };
        // A file that defines nothing, under a name no code of the tree
        // writes, is a script run with `puppet apply`: only a name from
        // outside the tree (a node classifier) would make Puppet load it.
        let runs_something = manifest.statements.iter().any(|s| !is_definition(&s.kind));
        let script =
            runs_something && c.loaded && c.namespace.is_qualified() && definitions(model, c.id).next().is_none() && {
                let texts =
                    texts.get_or_insert_with(|| model.files.iter().map(|f| f.source.text.to_lowercase()).collect());
                !texts.iter().enumerate().any(|(i, text)| i != c.id && text.contains(&c.namespace))
            };
        for statement in &manifest.statements {
            let defined = match &statement.kind {
                ExprKind::Class(d) => ("class", &d.name),
                ExprKind::Define(d) => ("defined type", &d.name),
                ExprKind::Function(d) => ("function", &d.name),
                ExprKind::TypeAlias(_) | ExprKind::TypeDefinition(_) | ExprKind::Plan(_) => continue,
                _ if script => {
                    let message = format!(
                        "a module file may only hold definitions, and `{}` defines none: Puppet loads it only for the name `{}`, which no code here writes (a script for `puppet apply`?), but refuses this statement whenever it does, as `puppet parser validate` does",
                        c.relative, c.namespace
                    );
                    sink.report_at_level(
                        &RULE,
                        Level::Warning,
                        Loc::new(c.id, puppet_span(file, statement)),
                        message,
                        Vec::new(),
                        Vec::new(),
                    );
                    continue;
                }
                _ => {
                    let message = if c.loaded {
                        format!(
                            "a module file may only hold definitions; Puppet refuses this statement at the top of `{}` whenever it loads the file (move it into a class)",
                            c.relative
                        )
                    } else {
                        format!(
                            "a module file may only hold definitions; no name leads Puppet to load `{}`, but `puppet parser validate` refuses this statement at its top",
                            c.relative
                        )
                    };
                    report(sink, c, whole, Loc::new(c.id, puppet_span(file, statement)), message);
                    continue;
                }
            };
            let (what, name) = defined;
            // Puppet compares the start of the name only, without case.
            if !name.to_lowercase().starts_with(&c.namespace) {
                let message = if c.loaded {
                    format!(
                        "{what} `{name}` cannot be defined in `{}`: Puppet loads that file only for names under `{}`, and refuses it",
                        c.relative, c.namespace
                    )
                } else {
                    format!(
                        "{what} `{name}` cannot be defined in `{}`: no name leads Puppet to load that file, but `puppet parser validate` refuses it (a sample kept beside the code?)",
                        c.relative
                    )
                };
                report(sink, c, whole, Loc::new(c.id, statement.span), message);
            }
        }
    }
}

/// The classes, defined types and functions at the top of a file.
fn definitions<'m>(model: &'m Model<'_>, id: usize) -> impl Iterator<Item = (&'static str, &'m str)> {
    let statements = model.files[id].manifest.as_ref().map_or(&[][..], |m| &m.statements[..]);
    statements.iter().filter_map(|s| match &s.kind {
        ExprKind::Class(d) => Some(("class", d.name.as_str())),
        ExprKind::Define(d) => Some(("defined type", d.name.as_str())),
        ExprKind::Function(d) => Some(("function", d.name.as_str())),
        _ => None,
    })
}

/// A file no name leads Puppet to load fails no catalog: only `puppet
/// parser validate` refuses it, so it is a warning. So is a file of a tree
/// applied whole (`whole`), which Puppet may never load by name.
fn report(sink: &mut Sink<'_, '_>, checked: &Checked<'_>, whole: bool, at: Loc, mut message: String) {
    let level = if checked.loaded && !whole { RULE.default_level } else { Level::Warning };
    if whole {
        message.push_str(
            "; unless this `manifests/` tree is applied whole as the main manifest (`puppet apply <dir>`), as its node definitions suggest",
        );
    }
    sink.report_at_level(&RULE, level, at, message, Vec::new(), Vec::new());
}
