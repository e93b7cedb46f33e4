//! `missing-module`

use std::collections::{BTreeMap, BTreeSet};

use super::{RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody, Loc, Visibility};
use crate::model::record::{Compilation, Event};
use crate::model::workspace::{metadata_dependencies, puppetfile_installs, FileRole};
use crate::model::{module_of, Model};
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports, once per module, classes declared or inherited and defined
/// types declared from a module that is not in the checked tree at all — a dependency that a Puppetfile,
/// a modulepath entry outside the tree or `metadata.json` provides — with
/// every place that uses it.
///
/// ## Why is this bad?
/// Puppet fails with "Could not find class" unless the module is installed
/// where it runs. Usually it is, and the note only says that mplint could
/// not check those classes: pass the installed modules with `--modulepath`.
pub const RULE: RuleInfo = RuleInfo {
    id: "missing-module",
    name: "MissingModule",
    default_level: Level::Note,
    summary: "Classes or defined types are used from a module that is not in the checked tree.",
    documentation: include_str!("../../rules/missing-module.md"),
};

/// Every use of a class whose module is absent: by module, then place.
#[derive(Default, Clone)]
pub struct MissingUses(BTreeMap<String, BTreeMap<Loc, String>>);

impl MissingUses {
    /// Adds the uses another compilation found, after these.
    pub fn merge(&mut self, other: MissingUses) {
        for (module, uses) in other.0 {
            let ours = self.0.entry(module).or_default();
            for (loc, name) in uses {
                ours.entry(loc).or_insert(name);
            }
        }
    }

    /// The uses, to keep on disk.
    pub fn to_stored(&self) -> Vec<(String, Vec<(Loc, String)>)> {
        self.0
            .iter()
            .map(|(module, uses)| (module.clone(), uses.iter().map(|(l, n)| (*l, n.clone())).collect()))
            .collect()
    }

    /// What [`MissingUses::to_stored`] kept.
    pub fn from_stored(stored: Vec<(String, Vec<(Loc, String)>)>) -> Self {
        MissingUses(stored.into_iter().map(|(module, uses)| (module, uses.into_iter().collect())).collect())
    }

    fn add(&mut self, model: &Model<'_>, name: &str, loc: Loc) {
        if !model.module_present(name) {
            self.0.entry(module_of(name).to_string()).or_default().entry(loc).or_insert_with(|| name.to_string());
        }
    }
}

/// Collects the classes a compilation could not find.
pub fn collect(model: &Model<'_>, compilation: &Compilation, uses: &mut MissingUses) {
    for event in &compilation.events {
        if let Event::UnknownClass { name, loc } = event {
            // `unknown-class` reports an empty name, a name no class can
            // have, and a Puppet 3 relative parent.
            if name.is_empty()
                || crate::model::index::class_name_flaw(name).is_some()
                || relative_parent_at(model, name, *loc)
                || (super::unknown_class::relative_class_at(model, name, *loc).is_some()
                    && super::unknown_class::top_level_surely_absent(model, name, *loc))
            {
                continue;
            }
            uses.add(model, name, *loc);
        }
    }
}

/// Whether `name` at `loc` is a class's parent that a Puppet 3 relative
/// lookup would have found.
fn relative_parent_at(model: &Model<'_>, name: &str, loc: Loc) -> bool {
    !name.is_qualified()
        && model.index.types.iter().flat_map(|(full_name, defs)| defs.iter().map(move |def| (full_name, def))).any(
            |(full_name, def)| {
                let DefBody::Class(class) = def.body else { return false };
                let visible_from = match def.visibility {
                    Visibility::File(file) => Some(file),
                    Visibility::Global => None,
                };
                class.parent.as_ref().is_some_and(|(_, span)| Loc::new(def.file, *span) == loc)
                    && super::unknown_class::relative_parent(model, full_name, name, visible_from).is_some()
            },
        )
}

/// Adds the parents classes inherit from absent modules.
fn add_parents(model: &Model<'_>, uses: &mut MissingUses) {
    for (full_name, definitions) in &model.index.types {
        for def in definitions {
            let DefBody::Class(class) = def.body else { continue };
            let Some((parent, span)) = &class.parent else { continue };
            let parent = normalize_name(parent);
            let visible_from = match def.visibility {
                Visibility::File(file) => Some(file),
                Visibility::Global => None,
            };
            // `unknown-class` reports a Puppet 3 relative name.
            if parent != "default"
                && model.index.find_type(&parent, visible_from).is_none()
                && super::unknown_class::relative_parent(model, full_name, &parent, visible_from).is_none()
            {
                uses.add(model, &parent, Loc::new(def.file, *span));
            }
        }
    }
}

/// The module a finding of this rule is about.
pub fn module_of_finding(finding: &crate::rules::Finding) -> Option<&str> {
    if finding.rule != RULE.id {
        return None;
    }
    finding.message.strip_prefix("module `")?.split('`').next()
}

/// Adds the declarations of defined types of absent modules
/// (`wget::fetch { … }`), which `unknown-resource-type` leaves to this rule,
/// and of a type named like an absent module that the code's Puppetfile or
/// metadata.json asks for (`concat { … }`: the `concat` module's own type).
fn add_defined_types(model: &Model<'_>, uses: &mut MissingUses, defined_types: &mut BTreeSet<String>) {
    use rayon::prelude::*;
    let type_names = model.type_names();
    // Files are walked in parallel, their uses added in file order.
    let per_file: Vec<Vec<(String, Loc)>> = (0..model.files.len())
        .into_par_iter()
        .map(|file| {
            let mut found = Vec::new();
            model.walk_if_reported(file, |e| {
                let crate::syntax::ast::ExprKind::Resource(resource) = &e.kind else { return };
                let Some(type_name) = resource.type_name() else { return };
                // A word with `-` is no type name: `illegal-resource-type`.
                if type_name.contains('-') {
                    return;
                }
                // Most types are Puppet's own: known before the module is looked for.
                let may_be_a_modules_type = type_name.is_qualified() || type_names.names_no_type(&type_name);
                if may_be_a_modules_type && !model.module_present(&type_name) {
                    found.push((type_name, Loc::new(file, resource.type_expr.span)));
                }
            });
            found
        })
        .collect();
    let mut asked_for: BTreeMap<(String, Option<String>), bool> = BTreeMap::new();
    for (type_name, loc) in per_file.into_iter().flatten() {
        // A type without a namespace may be any module's Ruby type: it is
        // this module's only where the code's dependencies name the module.
        if !type_name.is_qualified() {
            let user = match &model.index.roles[loc.file()] {
                FileRole::Module { module } | FileRole::Example { module } => Some(module.clone()),
                _ => None,
            };
            let key = (type_name.clone(), user);
            let named =
                *asked_for.entry(key).or_insert_with_key(|(module, user)| dependency_named(model, module, user));
            if !named {
                continue;
            }
        }
        uses.add(model, &type_name, loc);
        defined_types.insert(type_name);
    }
}

/// Whether an environment's Puppetfile, or the using module's metadata.json
/// or Puppetfile, names `module`.
fn dependency_named(model: &Model<'_>, module: &str, user: &Option<String>) -> bool {
    if model.workspace.puppetfile_modules.contains_key(module) {
        return true;
    }
    let Some(dir) = user.as_ref().and_then(|user| model.modules.get(user)) else { return false };
    metadata_dependencies(dir).iter().any(|(short, _)| short == module) || puppetfile_installs(dir, module)
}

pub fn check(model: &Model<'_>, mut uses: MissingUses, sink: &mut Sink<'_, '_>) {
    add_parents(model, &mut uses);
    let mut defined_types = BTreeSet::new();
    add_defined_types(model, &mut uses, &mut defined_types);
    for (module, uses) in uses.0 {
        let mut places: Vec<(Loc, String)> = uses.into_iter().filter(|(loc, _)| model.is_reported(*loc)).collect();
        // The first place in report order carries the finding.
        places.sort_by(|(a, _), (b, _)| (model.path(a.file()), a.start()).cmp(&(model.path(b.file()), b.start())));
        let Some((first, _)) = places.first().cloned() else { continue };
        let mut classes: Vec<&str> = places.iter().map(|(_, c)| c.as_str()).collect();
        classes.sort_unstable();
        classes.dedup();
        let noun =
            if classes.iter().any(|c| defined_types.contains(*c)) { ("name", "names") } else { ("class", "classes") };
        let named = match classes.as_slice() {
            [one] => format!("`{one}`"),
            [one, rest @ ..] => {
                format!("`{one}` and {} more {}", rest.len(), if rest.len() == 1 { noun.0 } else { noun.1 })
            }
            [] => continue,
        };
        let count = places.len();
        let (where_from, _) = provider(model, &module, &places);
        let related = places.iter().skip(1).map(|(loc, class)| (*loc, format!("`{class}` used here"))).collect();
        sink.report(
            &RULE,
            first,
            format!(
                "module `{module}` is not in the checked tree{}: {named} used at {count} place{}{}; {where_from}",
                match model.module_copy_off_the_module_path(&module) {
                    _ if model.puppetfile_module_overlaid(&module) => " (only files added over it are)".to_string(),
                    // Vendored elsewhere too: not where Puppet loads it from.
                    Some(copy) =>
                        format!(" where Puppet loads it from (its copy in {} is off the module path)", copy.display()),
                    None => match model.module_dir_without_code(&module) {
                        Some(dir) => format!(" (its directory {} holds no manifests or metadata.json)", dir.display()),
                        None => String::new(),
                    },
                },
                if count == 1 { "" } else { "s" },
                // A finding lists only so many places.
                if count > super::MAX_RELATED + 1 {
                    format!(" ({} shown)", super::MAX_RELATED + 1)
                } else {
                    String::new()
                }
            ),
            related,
        );
    }
}

/// Whether something the layout names (a Puppetfile, a metadata.json
/// dependency, a modulepath entry outside the tree, a git submodule) may
/// install the module of `name`, used at `loc`, where Puppet runs.
pub fn may_be_installed(model: &Model<'_>, name: &str, loc: Loc) -> bool {
    provider(model, module_of(name), &[(loc, name.to_string())]).1
}

/// Whether something names the module of `name`, used at `loc`, as one to
/// install: a Puppetfile, a `metadata.json` dependency or a git submodule
/// (a module path entry outside the tree, which may hold any module, does
/// not name it).
pub fn installed_by_name(model: &Model<'_>, name: &str, loc: Loc) -> bool {
    provider_named(model, module_of(name), &[(loc, name.to_string())]).is_some_and(|(_, installed)| installed)
}

/// What should provide a missing module, as far as the layout says, and
/// whether it may be installed where Puppet runs.
fn provider(model: &Model<'_>, module: &str, places: &[(Loc, String)]) -> (String, bool) {
    if let Some(named) = provider_named(model, module, places) {
        return named;
    }
    let ws = &model.workspace;
    // No Puppetfile installs it: the directory one installs into is not
    // where it comes from.
    if let Some(entry) = ws.missing_entries.iter().find(|entry| entry.filled_by.is_none()) {
        return (
            format!(
                "the modulepath entry `{}` of {}, not in the checked tree, may provide it",
                entry.entry,
                ws.display.show(&entry.conf).display()
            ),
            true,
        );
    }
    if let Some(entry) = ws.missing_entries.first() {
        let puppetfile = entry.filled_by.as_deref().unwrap_or(&entry.conf);
        return (
            format!(
                "{} does not install it, and the modulepath entry `{}` of {} holds what it installs",
                ws.display.show(puppetfile).display(),
                entry.entry,
                ws.display.show(&entry.conf).display()
            ),
            false,
        );
    }
    ("no Puppetfile, modulepath entry or metadata.json dependency names it".to_string(), false)
}

/// "`puppetfile` installs it", with what to do about it.
fn installs_it(model: &Model<'_>, puppetfile: &std::path::Path) -> String {
    format!(
        "{} installs it: pass the installed modules with --modulepath to check its classes",
        model.workspace.display.show(puppetfile).display()
    )
}

/// The directories above the places, within the checked tree, each once:
/// from each place up to the first directory an earlier one reached (its
/// own ancestors were looked at with it). `skip` leaves out that many
/// levels, the file itself being one.
fn dirs_above<'m>(model: &'m Model<'_>, places: &[(Loc, String)], skip: usize) -> Vec<&'m std::path::Path> {
    let roots = &model.workspace.roots;
    let mut seen = std::collections::HashSet::new();
    let mut dirs = Vec::new();
    for (loc, _) in places {
        let path = &model.files[loc.file()].source.path;
        for dir in path.ancestors().skip(skip).take_while(|dir| roots.iter().any(|root| dir.starts_with(root))) {
            if !seen.insert(dir) {
                break;
            }
            dirs.push(dir);
        }
    }
    dirs
}

/// What names a missing module as one to install (a Puppetfile, a
/// dependency, a submodule), and whether that installs it.
fn provider_named(model: &Model<'_>, module: &str, places: &[(Loc, String)]) -> Option<(String, bool)> {
    let ws = &model.workspace;
    if let Some(puppetfile) = ws.puppetfile_modules.get(module) {
        return Some((installs_it(model, puppetfile), true));
    }
    if let Some(puppetfile) = ws.puppetfile_disabled.get(module) {
        return Some((
            format!(
                "{} has its `mod` line commented out, so nothing installs it and Puppet cannot find these classes",
                ws.display.show(puppetfile).display()
            ),
            false,
        ));
    }
    for (loc, _) in places {
        let (FileRole::Module { module: user } | FileRole::Example { module: user }) = &model.index.roles[loc.file()]
        else {
            continue;
        };
        let Some(dir) = model.modules.get(user) else { continue };
        if let Some((_, full)) = metadata_dependencies(dir).into_iter().find(|(short, _)| short == module) {
            return Some((
                format!(
                "module `{user}` depends on `{full}` in its metadata.json: pass the installed modules with --modulepath"
            ),
                true,
            ));
        }
        if puppetfile_installs(dir, module) {
            return Some((installs_it(model, &dir.join("Puppetfile")), true));
        }
    }
    // A Puppetfile above the code that uses it (`puppet/Puppetfile` beside
    // `puppet/modules/`), within the checked tree.
    for dir in dirs_above(model, places, 1) {
        if puppetfile_installs(dir, module) {
            return Some((installs_it(model, &dir.join("Puppetfile")), true));
        }
        if let Some((_, full)) = metadata_dependencies(dir).into_iter().find(|(short, _)| short == module) {
            return Some((
                format!(
                "{} lists `{full}` as a dependency: pass the installed modules with --modulepath to check its classes",
                ws.display.show(&dir.join("metadata.json")).display()
            ),
                true,
            ));
        }
    }
    // A Puppetfile beside the code's own directory (`puppet/Puppetfile` for
    // `vagrant/manifests/`), within the checked tree: the code is applied
    // with the modules it installs.
    for dir in dirs_above(model, places, 2) {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut beside: Vec<std::path::PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|sibling| sibling.join("Puppetfile").is_file())
            .collect();
        beside.sort();
        if let Some(sibling) = beside.into_iter().find(|sibling| puppetfile_installs(sibling, module)) {
            return Some((installs_it(model, &sibling.join("Puppetfile")), true));
        }
    }
    // A git submodule the checkout left empty (`modules/nfs`).
    for dir in dirs_above(model, places, 1) {
        if let Some(submodule) = crate::model::workspace::submodule_path(dir, module) {
            return Some((format!(
                "{} declares `{submodule}` as a git submodule, which is not checked out: `git submodule update --init` fetches it",
                ws.display.show(&dir.join(".gitmodules")).display()
            ), true));
        }
    }
    None
}
