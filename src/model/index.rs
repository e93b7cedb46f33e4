//! The index of definitions: every class, defined type, node, function, plan
//! and type alias of the checked tree and the module path.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::workspace::{FileRole, Workspace};
use crate::syntax::ast::*;
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// Index of a file in the checked set.
pub type FileId = usize;

/// A place in a checked file: three 32-bit numbers, since records hold
/// millions of them (files are far below 4 GiB, see `syntax::MAX_FILE_BYTES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Loc {
    file: u32,
    start: u32,
    end: u32,
}

impl Loc {
    pub fn new(file: FileId, span: Span) -> Loc {
        Loc::at(file, span.start, span.end)
    }

    pub fn at(file: FileId, start: usize, end: usize) -> Loc {
        Loc { file: file as u32, start: start as u32, end: end as u32 }
    }

    pub fn file(self) -> FileId {
        self.file as FileId
    }

    pub fn start(self) -> usize {
        self.start as usize
    }

    pub fn end(self) -> usize {
        self.end as usize
    }
}

/// Where a definition can be seen from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// A site manifest or a module: every compilation sees it.
    Global,
    /// A standalone file: only that file's own compilation sees it.
    File(FileId),
}

#[derive(Debug, Clone, Copy)]
pub enum DefBody<'a> {
    Class(&'a ClassDef),
    Define(&'a DefineDef),
    Plan(&'a DefineDef),
    Function(&'a FunctionDef),
    TypeAlias(&'a TypeAlias),
}

#[derive(Debug, Clone, Copy)]
pub struct Definition<'a> {
    pub file: FileId,
    pub name_span: Span,
    pub body: DefBody<'a>,
    pub visibility: Visibility,
}

impl Definition<'_> {
    pub fn loc(&self) -> Loc {
        Loc::new(self.file, self.name_span)
    }

    pub fn kind_word(&self) -> &'static str {
        match self.body {
            DefBody::Class(_) => "class",
            DefBody::Define(_) => "defined type",
            DefBody::Plan(_) => "plan",
            DefBody::Function(_) => "function",
            DefBody::TypeAlias(_) => "type alias",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct NodeEntry<'a> {
    pub file: FileId,
    pub node: &'a NodeDef,
    pub span: Span,
}

/// A program Puppet would compile: an environment's site manifest or a
/// standalone file.
#[derive(Debug, Clone)]
pub struct Site<'a> {
    /// The environment root, or the standalone file.
    pub path: PathBuf,
    pub standalone: Option<FileId>,
    /// Top-level statements in evaluation order (files sorted by path).
    pub top_level: Vec<(FileId, &'a Expr)>,
    pub nodes: Vec<NodeEntry<'a>>,
}

#[derive(Debug, Default)]
pub struct Index<'a> {
    /// Classes and defined types share one namespace in Puppet.
    pub types: BTreeMap<String, Vec<Definition<'a>>>,
    /// `types` and the names of `functions` again, hashed: compilations
    /// look names up all the time.
    types_hashed: rustc_hash::FxHashMap<String, Vec<Definition<'a>>>,
    function_names: rustc_hash::FxHashSet<String>,
    pub functions: BTreeMap<String, Vec<Definition<'a>>>,
    pub type_aliases: BTreeMap<String, Vec<Definition<'a>>>,
    pub sites: Vec<Site<'a>>,
    /// Whether each file is reported (checked) or only read for its
    /// definitions (`--modulepath`).
    pub roles: Vec<FileRole>,
    /// Each module's `metadata.json`, as `load_module_metadata` gives it.
    pub module_metadata: BTreeMap<String, crate::model::value::Value>,
    /// The directory of each module on the module path.
    pub module_dirs: BTreeMap<String, std::path::PathBuf>,
    /// For a loose file in a module's `manifests/` off the module path (a
    /// stale copy of a module), that module's directory.
    pub copy_roots: Vec<Option<PathBuf>>,
}

/// Lower-case name without a leading `::`, as Puppet keys definitions.
pub fn normalize_name(name: &str) -> String {
    name.without_anchor().to_ascii_lowercase()
}

/// Why no class can have this (normalised) name, so that Puppet never
/// finds one by it: a single `:`, an empty segment, a character no name
/// takes. `None` for a name a class may have.
pub fn class_name_flaw(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return None;
    }
    let segments: Vec<&str> = name.split("::").collect();
    if segments.iter().any(|s| s.contains(':')) {
        return Some("a single `:` separates no name segments (`::` does)");
    }
    if segments.iter().any(|s| s.is_empty()) {
        return Some("it has an empty segment");
    }
    if segments.iter().any(|s| !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')) {
        return Some("class names hold only letters, digits and `_` between `::`");
    }
    None
}

impl<'a> Index<'a> {
    /// Indexes every file's definitions in parallel, then merges them in
    /// file order so that the index does not depend on thread timing.
    pub fn build(files: &'a [ParsedFile], workspace: &Workspace) -> Index<'a> {
        use rayon::prelude::*;
        let per_file: Vec<(FileRole, Index<'a>)> = files
            .par_iter()
            .enumerate()
            .map(|(file_id, file)| {
                let role = workspace.role(&file.source.path);
                let mut own = Index::default();
                if let Some(manifest) = &file.manifest {
                    let visibility = if role.is_standalone() { Visibility::File(file_id) } else { Visibility::Global };
                    own.collect(file_id, &manifest.statements, "", visibility);
                }
                (role, own)
            })
            .collect();
        let mut index = Index::default();
        let merge = |into: &mut BTreeMap<String, Vec<Definition<'a>>>, from: &BTreeMap<String, Vec<Definition<'a>>>| {
            for (name, defs) in from {
                into.entry(name.clone()).or_default().extend(defs.iter().copied());
            }
        };
        for ((role, own), file) in per_file.iter().zip(files) {
            // A file of an environment applied on its own is no copy of a
            // module, whatever its directory is called.
            index.copy_roots.push(match role {
                FileRole::Standalone if !workspace.applied_on_its_own(&file.source.path) => {
                    module_copy_root(&file.source.path)
                }
                _ => None,
            });
            index.roles.push(role.clone());
            merge(&mut index.types, &own.types);
            merge(&mut index.functions, &own.functions);
            merge(&mut index.type_aliases, &own.type_aliases);
        }
        // Puppet's autoloader finds `a::b` in `a/manifests/b.pp` of module
        // `a` (whatever its directory is called: `puppet-a/` named by its
        // metadata): a module file elsewhere that defines it too (a stale
        // copy of the module) is read only by chance, so its definition
        // comes last.
        let module_dirs = workspace.modules();
        for (name, definitions) in index.types.iter_mut().filter(|(_, defs)| defs.len() > 1) {
            let expected = super::workspace::autoload_path(name);
            let module = name.split("::").next().unwrap_or_default();
            let in_module = module_dirs.get(module).and_then(|dir| Some(dir.join(expected.strip_prefix(module).ok()?)));
            definitions.sort_by_key(|def| {
                let path = &files[def.file].source.path;
                matches!(index.roles[def.file], FileRole::Module { .. })
                    && !path.ends_with(&expected)
                    && in_module.as_ref() != Some(path)
            });
        }
        let mut sites: BTreeMap<PathBuf, Site<'a>> = BTreeMap::new();
        for (file_id, file) in files.iter().enumerate() {
            let role = index.roles[file_id].clone();
            let Some(manifest) = &file.manifest else {
                continue;
            };
            let site_key = match &role {
                FileRole::Site { root } => Some((root.clone(), None)),
                FileRole::Standalone | FileRole::Example { .. } => Some((file.source.path.clone(), Some(file_id))),
                FileRole::Module { .. } => None,
            };
            if let Some((key, standalone)) = site_key {
                let site = sites.entry(key.clone()).or_insert_with(|| Site {
                    path: key,
                    standalone,
                    top_level: Vec::new(),
                    nodes: Vec::new(),
                });
                for statement in &manifest.statements {
                    match &statement.kind {
                        ExprKind::Node(node) => {
                            site.nodes.push(NodeEntry { file: file_id, node, span: statement.span })
                        }
                        ExprKind::Class(_)
                        | ExprKind::Define(_)
                        | ExprKind::Function(_)
                        | ExprKind::Plan(_)
                        | ExprKind::TypeAlias(_)
                        | ExprKind::TypeDefinition(_) => {}
                        _ => site.top_level.push((file_id, statement)),
                    }
                }
            }
        }
        index.sites = sites.into_values().collect();
        for (name, dir) in workspace.modules() {
            if let Ok(text) = std::fs::read_to_string(dir.join("metadata.json")) {
                if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) {
                    index.module_metadata.insert(name.clone(), crate::model::value::Value::from_json(&json));
                }
            }
            index.module_dirs.insert(name, dir);
        }
        index.types_hashed = index.types.iter().map(|(name, defs)| (name.clone(), defs.clone())).collect();
        index.function_names = index.functions.keys().cloned().collect();
        index
    }

    fn collect(&mut self, file: FileId, statements: &'a [Expr], prefix: &str, visibility: Visibility) {
        let qualify = |name: &str| {
            let name = normalize_name(name);
            if prefix.is_empty() {
                name
            } else {
                format!("{prefix}::{name}")
            }
        };
        let define = |name_span, body| Definition { file, name_span, body, visibility };
        for statement in statements {
            let (map, name, def) = match &statement.kind {
                ExprKind::Class(class) => {
                    let name = qualify(&class.name);
                    self.collect(file, &class.body.statements, &name, visibility);
                    (&mut self.types, name, define(class.name_span, DefBody::Class(class)))
                }
                ExprKind::Define(d) => (&mut self.types, qualify(&d.name), define(d.name_span, DefBody::Define(d))),
                ExprKind::Plan(p) => (&mut self.functions, qualify(&p.name), define(p.name_span, DefBody::Plan(p))),
                ExprKind::Function(f) => {
                    (&mut self.functions, normalize_name(&f.name), define(f.name_span, DefBody::Function(f)))
                }
                ExprKind::TypeAlias(a) => {
                    (&mut self.type_aliases, normalize_name(&a.name), define(a.name_span, DefBody::TypeAlias(a)))
                }
                _ => continue,
            };
            map.entry(name).or_default().push(def);
        }
    }

    /// The definition of a class or defined type visible from a compilation
    /// of `site_file` (a standalone file sees its own definitions first).
    pub fn find_type(&self, name: &str, standalone: Option<FileId>) -> Option<&Definition<'a>> {
        let candidates = match name.starts_with(':') || name.bytes().any(|b| b.is_ascii_uppercase()) {
            true => self.types_hashed.get(&normalize_name(name))?,
            false => self.types_hashed.get(name)?,
        };
        candidates
            .iter()
            .find(|d| standalone.is_some_and(|f| d.visibility == Visibility::File(f)))
            .or_else(|| {
                // A stale copy of a module uses its own classes, as it does
                // wherever it is on a module path.
                let root = self.copy_roots.get(standalone?)?.as_ref()?;
                candidates
                    .iter()
                    .find(|d| matches!(d.visibility, Visibility::File(f) if self.copy_roots[f].as_ref() == Some(root)))
            })
            .or_else(|| candidates.iter().find(|d| d.visibility == Visibility::Global))
    }

    /// Whether no class or defined type can have this qualified name: its
    /// module is in the tree, without the file the autoloader would read
    /// and without the name. (Ruby resource types have no `::`.)
    pub fn surely_undefined(&self, name: &str, standalone: Option<FileId>) -> bool {
        let name = normalize_name(name);
        let Some((module, _)) = name.split_once("::") else { return false };
        let Some(dir) = self.module_dirs.get(module) else { return false };
        let autoloaded =
            dir.join(super::workspace::autoload_path(&name).strip_prefix(module).unwrap_or(std::path::Path::new("")));
        dir.join("manifests").is_dir() && !autoloaded.exists() && self.find_type(&name, standalone).is_none()
    }

    /// Whether the tree defines a function of this (normalised) name.
    pub fn has_function(&self, name: &str) -> bool {
        self.function_names.contains(name)
    }

    pub fn find_class(&self, name: &str, standalone: Option<FileId>) -> Option<(&'a ClassDef, &Definition<'a>)> {
        let def = self.find_type(name, standalone)?;
        match def.body {
            DefBody::Class(class) => Some((class, def)),
            _ => None,
        }
    }

    pub fn find_define(&self, name: &str, standalone: Option<FileId>) -> Option<(&'a DefineDef, &Definition<'a>)> {
        let def = self.find_type(name, standalone)?;
        match def.body {
            DefBody::Define(define) => Some((define, def)),
            _ => None,
        }
    }
}

/// The module directory a loose file sits in when it is under a
/// `<module>/manifests/` directory.
pub(crate) fn module_copy_root(path: &std::path::Path) -> Option<PathBuf> {
    let manifests = path.ancestors().skip(1).find(|dir| dir.file_name().is_some_and(|n| n == "manifests"))?;
    let root = manifests.parent()?;
    let name = root.file_name()?.to_str()?;
    super::workspace::is_module_name(name).then(|| root.to_path_buf())
}
