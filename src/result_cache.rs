//! What each entry point's compilation found, kept on disk between runs:
//! an entry point whose inputs have not changed is not compiled again.
//!
//! An entry's result depends on the code its compilation runs or names and
//! on what the whole tree shows. So a kept result records two digests: one
//! of the whole tree — every file's path and whether it is reported, the
//! full text of every file that is not only class and defined-type
//! definitions, and of those the definitions' names, places and
//! parameters; the configuration, facts, templates, Ruby types and module
//! layout — and one per file of the definitions the entry point reaches,
//! read from its code (transitively) and from what its compilation
//! declared. Editing the body of a class changes only the results of the
//! entry points that reach it.
//!
//! Entries are written with the parse cache's own functions (under a
//! temporary name, renamed into place, with a checksum): runs side by side
//! never see half an entry, and a damaged one is compiled again.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use xxhash_rust::xxh3::{xxh3_128, Xxh3};

use crate::model::index::{DefBody, FileId};
use crate::model::reach::Reach;
use crate::model::record::Entry;
use crate::model::{EntryResult, EntryStore, Model};
use crate::rules::{Checked, CompilationRules, StoredFindings};
use crate::syntax::ast::ExprKind;
use crate::syntax::cache::{prune_directories, read_entry, write_entry};

/// The first bytes of every entry.
const MAGIC: &[u8; 8] = b"mplintR\x01";

/// Version of the analysis: a result is read back only by the build of
/// mplint that wrote it.
fn version() -> String {
    format!("{}-{}", env!("CARGO_PKG_VERSION"), env!("MPLINT_ANALYSIS_VERSION"))
}

/// The directory of results under a cache's root.
fn directory_name() -> String {
    format!("results-{}", version())
}

/// Removes the results other builds wrote under `root`.
fn prune_other_versions(root: &Path) {
    let current = directory_name();
    prune_directories(root, |name| name != current && name.starts_with("results-"));
}

/// What the files an entry point depends on were: every file's text, or
/// those of some files.
#[derive(serde::Serialize, serde::Deserialize, PartialEq)]
enum Inputs {
    /// Its code names what only run time knows: every file counts.
    All(u128),
    Files(Vec<(u32, u128)>),
}

/// One kept result.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    tree: u128,
    entry: String,
    inputs: Inputs,
    reached: Vec<String>,
    findings: StoredFindings,
}

/// What one run knows to key results by.
struct Keys<'m> {
    tree: u128,
    texts: Vec<u128>,
    all_texts: u128,
    reach: Reach<'m>,
}

/// The results kept for one tree, in a cache directory.
pub struct ResultCache<'r, 'm, 'a> {
    dir: PathBuf,
    rules: &'r CompilationRules<'m, 'a>,
    keys: OnceLock<Keys<'m>>,
}

impl<'r, 'm, 'a> ResultCache<'r, 'm, 'a> {
    /// The results under a cache's `root`, for the model `rules` check.
    pub fn new(root: &Path, rules: &'r CompilationRules<'m, 'a>) -> Self {
        let dir = root.join(directory_name());
        if !dir.is_dir() {
            prune_other_versions(root);
        }
        ResultCache { dir, rules, keys: OnceLock::new() }
    }

    /// The digests of this run, worked out when first asked for: once the
    /// nodes that decide what every rule asks have compiled.
    fn keys(&self, model: &'m Model<'a>) -> &Keys<'m> {
        self.keys.get_or_init(|| {
            let texts: Vec<u128> = model.files.iter().map(|f| xxh3_128(f.source.text.as_bytes())).collect();
            let mut all = Xxh3::new();
            texts.iter().for_each(|t| all.update(&t.to_le_bytes()));
            Keys {
                tree: tree_digest(model, &texts),
                all_texts: all.digest128(),
                texts,
                reach: Reach::new(&model.index, &model.workspace.include_functions),
            }
        })
    }

    fn entry_path(&self, model: &Model<'_>, entry: &Entry) -> PathBuf {
        let name = format!("{:?}\n{:?}", model.workspace.roots, entry);
        let hash = format!("{:032x}", xxh3_128(name.as_bytes()));
        self.dir.join(&hash[..2]).join(&hash[2..])
    }

    /// The inputs an entry point's result depends on, besides the tree's.
    fn inputs(
        &self,
        model: &'m Model<'a>,
        entry: &Entry,
        reached: &BTreeSet<String>,
        findings: &StoredFindings,
    ) -> Inputs {
        let keys = self.keys(model);
        let Some(mut files) = keys.reach.files_reached(entry) else { return Inputs::All(keys.all_texts) };
        for name in reached {
            files.extend(model.index.types.get(name).into_iter().flatten().map(|d| d.file));
        }
        // Every place a finding names: what it says of the place holds while
        // its file does.
        files.extend(findings.places().map(|loc| loc.file()));
        Inputs::Files(files.into_iter().map(|f| (f as u32, keys.texts[f])).collect())
    }
}

impl<'r, 'm, 'a> EntryStore<Checked<'r, 'm, 'a>> for ResultCache<'r, 'm, 'a> {
    fn load(&self, entry: &Entry) -> Option<EntryResult<Checked<'r, 'm, 'a>>> {
        let model = self.rules.model();
        let payload = read_entry(&self.entry_path(model, entry), MAGIC)?;
        let kept: Kept = postcard::from_bytes(&payload).ok()?;
        let keys = self.keys(model);
        if kept.tree != keys.tree || kept.entry != format!("{entry:?}") {
            return None;
        }
        let current = match &kept.inputs {
            Inputs::All(_) => Inputs::All(keys.all_texts),
            Inputs::Files(files) => Inputs::Files(
                files
                    .iter()
                    .map(|(file, _)| Some((*file, *keys.texts.get(*file as usize)?)))
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        if current != kept.inputs {
            return None;
        }
        let checked = Checked::from_stored(self.rules, kept.findings)?;
        Some((kept.reached.into_iter().collect(), checked))
    }

    fn store(&self, entry: &Entry, result: &EntryResult<Checked<'r, 'm, 'a>>) {
        let model = self.rules.model();
        let (reached, checked) = result;
        let findings = checked.to_stored();
        let kept = Kept {
            tree: self.keys(model).tree,
            entry: format!("{entry:?}"),
            inputs: self.inputs(model, entry, reached, &findings),
            reached: reached.iter().cloned().collect(),
            findings,
        };
        let Ok(payload) = postcard::to_stdvec(&kept) else { return };
        write_entry(&self.entry_path(model, entry), MAGIC, &payload);
    }
}

/// Whether a file holds only class and defined-type definitions: what an
/// entry point that does not reach them takes from it is their names.
fn only_definitions(model: &Model<'_>, file: FileId) -> bool {
    let parsed = &model.files[file];
    parsed.problem.is_none()
        && parsed.manifest.as_ref().is_some_and(|manifest| {
            manifest.statements.iter().all(|s| matches!(s.kind, ExprKind::Class(_) | ExprKind::Define(_)))
        })
        && !model
            .index
            .sites
            .iter()
            .any(|site| site.standalone == Some(file) || site.top_level.iter().any(|(f, _)| *f == file))
}

/// The digest of what every entry point's result depends on.
fn tree_digest(model: &Model<'_>, texts: &[u128]) -> u128 {
    let mut digest = Xxh3::new();
    let mut add = |text: &str| {
        digest.update(&(text.len() as u64).to_le_bytes());
        digest.update(text.as_bytes());
    };
    add(&version());
    add(&format!("{:?}", model.nodes_call_opaque_functions()));
    // The definitions in each file, for those it holds nothing else.
    let mut definitions: Vec<Vec<String>> = vec![Vec::new(); model.files.len()];
    for (name, defs) in &model.index.types {
        for def in defs {
            let shape = match def.body {
                DefBody::Class(class) => format!(
                    "class {name} {:?} {:?} {:?}",
                    def.visibility,
                    class.parent.as_ref().map(|(p, _)| p),
                    class.params.iter().map(|p| &p.name).collect::<Vec<_>>()
                ),
                DefBody::Define(define) | DefBody::Plan(define) => format!(
                    "define {name} {:?} {:?}",
                    def.visibility,
                    define.params.iter().map(|p| &p.name).collect::<Vec<_>>()
                ),
                _ => continue,
            };
            definitions[def.file].push(shape);
        }
    }
    for (file, parsed) in model.files.iter().enumerate() {
        add(&parsed.source.path.to_string_lossy());
        add(if model.reported[file] { "reported" } else { "read" });
        if only_definitions(model, file) {
            definitions[file].sort();
            definitions[file].iter().for_each(|shape| add(shape));
        } else {
            add(&format!("{:032x}", texts[file]));
        }
    }
    let mut workspace = model.workspace.clone();
    workspace.focus = None;
    workspace.module_copies = Default::default();
    workspace.display = workspace.display.without_redundant_roots();
    add(&format!("{workspace:?}"));
    let index = &model.index;
    add(&format!("{:?}{:?}{:?}{:?}", index.roles, index.module_metadata, index.module_dirs, index.copy_roots));
    add(&format!("{:?}", model.facts));
    add(&model.templates.digest());
    add(&format!("{:?}", model.set_elsewhere));
    add(&format!("{:?}", model.ruby_types()));
    for (module, dir) in &model.modules {
        add(module);
        for part in crate::model::MODULE_PARTS {
            add(if dir.join(part).exists() { "1" } else { "0" });
        }
        add(if dir.join("lib").is_dir() { "1" } else { "0" });
        add(if dir.join("manifests").is_dir() { "1" } else { "0" });
    }
    // The git submodules a root declares decide which modules are missing.
    for root in &model.workspace.roots {
        add(&std::fs::read_to_string(root.join(".gitmodules")).unwrap_or_default());
    }
    digest.digest128()
}
