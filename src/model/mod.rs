//! The semantic model: the workspace layout, the index of definitions, and
//! the record of the abstract interpreter's compilations.

pub mod facts;
pub mod index;
pub mod interp;
pub mod reach;
pub mod record;
pub mod ruby_types;
pub mod set_elsewhere;
pub mod signatures;
pub mod templates;
pub mod tool_manifests;
pub mod type_names;
pub mod value;
pub mod workspace;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use self::facts::Facts;
use self::index::{FileId, Index, Loc, Visibility};
use self::interp::Interpreter;
use self::record::{Compilation, Entry};
use self::workspace::Workspace;
use crate::syntax::ast::{Block, Expr, ExprKind, NameText};
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// What a module's directory holds: one of them makes it a module.
pub const MODULE_PARTS: [&str; 7] = ["manifests", "lib", "functions", "types", "templates", "files", "metadata.json"];

/// Longest chain of parents followed (a cycle is `inheritance-cycle`'s).
const MAX_INHERITANCE_STEPS: usize = 64;

/// Where [`Model::compile_into`] puts compilation records: each sink takes
/// some records in order, then the sinks are appended in order.
pub trait CompilationSink: Send + Sized {
    fn add(&mut self, compilation: Compilation);
    /// Adds what `later` took, as if its records had been added here.
    fn append(&mut self, later: Self);
}

/// What an entry point's compilation gave: the classes and defined types
/// it reached, and its sink.
pub type EntryResult<S> = (BTreeSet<String>, S);

/// Where results of entry points are kept between runs: one is taken
/// instead of compiling its entry point when nothing it depends on changed.
pub trait EntryStore<S>: Sync {
    /// The result an earlier run kept for `entry`, if it still holds.
    fn load(&self, entry: &Entry) -> Option<EntryResult<S>>;
    /// Keeps what `entry`'s compilation gave.
    fn store(&self, entry: &Entry, result: &EntryResult<S>);
}

/// The results of a run's entry points, for a run with a wider focus.
pub struct EntryResults<S>(std::collections::HashMap<Entry, EntryResult<S>>);

impl<S> Default for EntryResults<S> {
    fn default() -> Self {
        EntryResults(std::collections::HashMap::new())
    }
}

/// The records themselves, in order.
#[derive(Default, Clone)]
pub struct Records(pub Vec<Compilation>);

impl CompilationSink for Records {
    fn add(&mut self, compilation: Compilation) {
        self.0.push(compilation);
    }

    fn append(&mut self, later: Self) {
        self.0.extend(later.0);
    }
}

pub struct Model<'a> {
    pub files: &'a [ParsedFile],
    /// Whether findings in each file are reported (false for `--modulepath`).
    pub reported: Vec<bool>,
    pub workspace: Workspace,
    pub index: Index<'a>,
    pub facts: Facts,
    /// Every compilation's record, when built with [`Model::build`];
    /// empty when they are visited one by one ([`Model::compile`]).
    pub compilations: Vec<Compilation>,
    /// Whether some node calls a function mplint cannot see into, known
    /// once the nodes have compiled.
    opaque_node_calls: std::sync::OnceLock<bool>,
    /// Module manifests no name leads the autoloader to, once asked for.
    never_loaded: std::sync::OnceLock<BTreeSet<FileId>>,
    /// What parameter types say of values, shared by the compilations.
    type_checks: interp::TypeChecks,
    /// The resource types the tree's modules write in Ruby, once asked for.
    ruby_types: std::collections::BTreeMap<String, ruby_types::RubyType>,
    /// Whether the tree has an environment's site manifest.
    pub has_site: bool,
    /// The site manifests declare no class and no node (an empty
    /// `site.pp`): nodes get their classes from outside the tree.
    pub sites_classify_nothing: bool,
    /// The files reported on, when only some are (see [`Workspace::focus`]).
    focus: Option<BTreeSet<FileId>>,
    /// Variables some node definition assigns in its own body.
    pub node_variables: BTreeSet<String>,
    /// The modules of the layout, by name.
    pub modules: std::collections::BTreeMap<String, std::path::PathBuf>,
    /// Variables an environment's site manifests assign at top scope.
    pub site_variables: BTreeSet<String>,
    /// Names an environment's site manifests read as top-scope variables
    /// they do not assign (`if !$::project { fail(…) }`): facts or ENC
    /// parameters the site expects from outside the tree.
    pub site_fact_reads: BTreeSet<String>,
    /// Files applied on their own that Puppet 3 read with others through
    /// `import`: an importing file's imported files (`true`: it imports),
    /// and an imported file's importers.
    pub import_partners: std::collections::BTreeMap<FileId, Vec<(FileId, bool)>>,
    /// An `import` of a site manifest that names no file of the tree (the
    /// nodes kept private): the file and what it imports.
    pub absent_site_import: Option<(FileId, String)>,
    /// The templates code renders by literal names, and what they read.
    pub templates: templates::Templates,
    /// The types whose attributes resource defaults, overrides or
    /// collectors may set.
    pub set_elsewhere: set_elsewhere::SetElsewhere,
    /// Which module directories hold some of a module's parts.
    module_dirs_with_parts: workspace::DirAnswers,
    /// Each file by its path, made when first asked for.
    files_by_path: std::sync::OnceLock<rustc_hash::FxHashMap<&'a std::path::Path, FileId>>,
}

/// The module directories that checked files off the module path sit in
/// (`old/apache/manifests/init.pp` → `old/apache`), in path order.
pub fn module_copies(files: &[ParsedFile], workspace: &Workspace) -> Vec<std::path::PathBuf> {
    let copies: BTreeSet<std::path::PathBuf> = files
        .iter()
        .filter_map(|file| {
            let root = index::module_copy_root(&file.source.path)?;
            let loose = matches!(workspace.role(&file.source.path), workspace::FileRole::Standalone);
            // A module kept inside manifests (`manifests/mods/foo/`), whose
            // classes are read as the site's or its module's: applied with
            // a module path that holds it, which syncs its facts.
            let inside_manifests =
                root.ancestors().skip(1).any(|dir| dir.file_name().is_some_and(|n| n == "manifests"));
            (loose || inside_manifests).then_some(root)
        })
        .collect();
    copies.into_iter().collect()
}

impl<'a> Model<'a> {
    /// Builds the index and runs every compilation: one per node, a site's
    /// top-level code where it has no nodes, then every class and defined
    /// type no node reached, as an entry point of its own.
    pub fn build(files: &'a [ParsedFile], reported: Vec<bool>, workspace: Workspace) -> Model<'a> {
        let facts = Facts::discover(&workspace, &module_copies(files, &workspace));
        Self::build_with_facts(files, reported, workspace, facts)
    }

    /// As [`Model::build`], with the facts given instead of discovered.
    pub fn build_with_facts(
        files: &'a [ParsedFile],
        reported: Vec<bool>,
        workspace: Workspace,
        facts: Facts,
    ) -> Model<'a> {
        let mut model = Self::new(files, reported, workspace, facts);
        let mut compilations = Vec::new();
        model.compile(|compilation| compilations.push(compilation));
        model.compilations = compilations;
        model
    }

    /// The index and what the tree shows, before any compilation runs.
    pub fn new(files: &'a [ParsedFile], reported: Vec<bool>, workspace: Workspace, facts: Facts) -> Model<'a> {
        Self::new_finding_facts(files, reported, workspace, |_: &Workspace| facts)
    }

    /// As [`Model::new`], finding the facts with `facts` while the index
    /// is built.
    pub fn new_finding_facts(
        files: &'a [ParsedFile],
        reported: Vec<bool>,
        workspace: Workspace,
        facts: impl FnOnce(&Workspace) -> Facts + Send,
    ) -> Model<'a> {
        // What is read from disk (facts, every module's Ruby types) and
        // what is read from the trees are independent: found side by side.
        let ((index, ruby_types), (facts, set_elsewhere)) = rayon::join(
            || rayon::join(|| Index::build(files, &workspace), || ruby_types::discover(&workspace)),
            || rayon::join(|| facts(&workspace), || set_elsewhere::SetElsewhere::scan(files)),
        );
        let has_site = index.sites.iter().any(|s| s.standalone.is_none());
        let sites_classify_nothing = has_site
            && index.sites.iter().filter(|s| s.standalone.is_none()).all(|s| {
                s.nodes.is_empty()
                    && s.top_level.iter().all(|(_, e)| {
                        matches!(
                            e.kind,
                            crate::syntax::ast::ExprKind::Assignment { .. }
                                | crate::syntax::ast::ExprKind::ResourceDefaults(_)
                        )
                    })
            });
        let node_variables =
            index.sites.iter().flat_map(|s| &s.nodes).flat_map(|n| assigned_names(&n.node.body)).collect();
        let modules = index.module_dirs.clone();
        let templates = templates::Templates::discover(files, &modules, |name| facts.is_fact(name));
        let site_variables = index
            .sites
            .iter()
            .filter(|s| s.standalone.is_none())
            .flat_map(|s| assigned_in(s.top_level.iter().map(|(_, e)| *e)))
            .collect();
        let site_fact_reads = site_fact_reads(&index);
        let import_partners = import_partners(files, &index);
        let absent_site_import = absent_site_import(files, &index, &workspace);
        let focus = workspace.focus.as_ref().map(|paths| {
            files.iter().enumerate().filter(|(_, f)| paths.contains(&f.source.path)).map(|(i, _)| i).collect()
        });
        Model {
            focus,
            files,
            reported,
            workspace,
            index,
            facts,
            compilations: Vec::new(),
            opaque_node_calls: std::sync::OnceLock::new(),
            never_loaded: std::sync::OnceLock::new(),
            type_checks: interp::TypeChecks::new(),
            ruby_types,
            has_site,
            sites_classify_nothing,
            node_variables,
            modules,
            site_variables,
            site_fact_reads,
            import_partners,
            absent_site_import,
            templates,
            set_elsewhere,
            module_dirs_with_parts: Default::default(),
            files_by_path: std::sync::OnceLock::new(),
        }
    }

    /// Runs every compilation and hands each record to `visit`, in the
    /// order of [`Model::compile_into`].
    pub fn compile(&self, mut visit: impl FnMut(Compilation)) {
        let records: Records = self.compile_into(Records::default);
        records.0.into_iter().for_each(&mut visit);
    }

    /// Runs every compilation, in parallel, and adds each to a sink made by
    /// `empty`: nodes (or a site's top-level code), then the classes and
    /// defined types no node reached. Sinks are appended in that order, so
    /// the result is what adding every record to one sink in turn gives, at
    /// any thread count. A record is dropped once added, so a site with a
    /// thousand entry points holds only what the sinks keep of each.
    pub fn compile_into<S: CompilationSink + Clone>(&self, empty: impl Fn() -> S + Sync) -> S {
        self.compile_entries(empty, self.focus.as_ref(), None, None)
    }

    /// As [`Model::compile_into`], taking each entry point's result from
    /// `store` where it holds one, and keeping there those it compiles.
    pub fn compile_into_stored<S: CompilationSink + Clone>(
        &self,
        empty: impl Fn() -> S + Sync,
        store: &dyn EntryStore<S>,
    ) -> S {
        self.compile_entries(empty, self.focus.as_ref(), None, Some(store))
    }

    /// As [`Model::compile_into`], for the files of `focus` only, keeping
    /// what each entry point's compilation gave in `earlier` and taking it
    /// from there when an earlier run (with a narrower focus) already has
    /// it: the sink of one entry point does not depend on the focus.
    pub fn compile_focused<S: CompilationSink + Clone>(
        &self,
        empty: impl Fn() -> S + Sync,
        focus: &BTreeSet<FileId>,
        earlier: &mut EntryResults<S>,
        store: Option<&dyn EntryStore<S>>,
    ) -> S {
        self.compile_entries(empty, Some(focus), Some(earlier), store)
    }

    fn compile_entries<S: CompilationSink + Clone>(
        &self,
        empty: impl Fn() -> S + Sync,
        focus: Option<&BTreeSet<FileId>>,
        mut earlier: Option<&mut EntryResults<S>>,
        store: Option<&dyn EntryStore<S>>,
    ) -> S {
        let (index, files, facts, workspace) = (&self.index, self.files, &self.facts, &self.workspace);
        let type_names = self.type_names();
        let mut first: Vec<(Entry, bool)> = Vec::new();
        for (i, site) in index.sites.iter().enumerate() {
            if site.nodes.is_empty() {
                // A file a tool applies on its own is a whole program too.
                let applied =
                    site.standalone.is_some_and(|file| workspace.applied_on_its_own(&files[file].source.path));
                first.push((Entry::TopLevel { site: i }, site.standalone.is_none() || applied));
            } else {
                first.extend((0..site.nodes.len()).map(|node| (Entry::Node { site: i, node }, true)));
            }
        }
        let run = |(entry, in_view): &(Entry, bool)| {
            Interpreter::new(index, files, facts, entry.clone(), *in_view)
                .with_include_functions(&workspace.include_functions)
                .with_type_checks(&self.type_checks)
                .with_constraints(&workspace.constraints)
                .with_recorded_values(workspace.record_values)
                .with_templates(&self.templates)
                .with_set_elsewhere(&self.set_elsewhere)
                .with_type_names(type_names)
                .run()
        };
        // What a compilation reached is not checked as an entry point of its own.
        let add = |(mut reached, mut sink): EntryResult<S>, compilation: Compilation| {
            reached.extend(compilation.classes.keys().cloned());
            // A virtual instance nothing brings in never ran.
            let ran = |i: &usize| !compilation.virtual_instances.contains(i) || compilation.may_realize(*i);
            reached.extend(
                (0..compilation.instances.len()).filter(ran).map(|i| compilation.instances[i].type_name.clone()),
            );
            sink.add(compilation);
            (reached, sink)
        };
        let append = |(mut reached, mut sink): EntryResult<S>, (later_reached, later): EntryResult<S>| {
            reached.extend(later_reached);
            sink.append(later);
            (reached, sink)
        };
        let empty_pair = || (BTreeSet::new(), empty());
        // With earlier results to take and keep, each entry point gets a
        // sink of its own, appended in order: the same as adding them all.
        let keep = earlier.is_some() || store.is_some();
        // A result compiled here, kept in the store too.
        let stored = |entry: &Entry, result: EntryResult<S>| {
            if let Some(store) = store {
                store.store(entry, &result);
            }
            result
        };
        let own = |compilation: Compilation| add(empty_pair(), compilation);
        // Each entry's result in entry order, appended, with copies kept
        // for a later run of the same model.
        let copies_wanted = earlier.is_some();
        let merge_kept = |results: Vec<(Entry, EntryResult<S>)>, kept: &mut Vec<(Entry, EntryResult<S>)>| {
            if copies_wanted {
                kept.extend(results.iter().map(|(entry, result)| (entry.clone(), result.clone())));
            }
            results.into_par_iter().map(|(_, result)| result).reduce(&empty_pair, &append)
        };
        let mut kept: Vec<(Entry, EntryResult<S>)> = Vec::new();

        // Nodes whose bodies are the same text (many hosts given one role)
        // compile the same way: one is run, the others get its record with
        // places moved to their own bodies.
        let same_as =
            if workspace.compile_every_node { vec![None; first.len()] } else { same_node_bodies(index, files, &first) };
        // Reporting on some files only: a compilation whose code cannot
        // reach them adds nothing to what is reported, and the classes it
        // would have reached cannot reach them either.
        let reach = focus.map(|focus| (reach::Reach::new(index, &workspace.include_functions), focus));
        let skipped: Vec<bool> = first
            .iter()
            .map(|(entry, _)| reach.as_ref().is_some_and(|(r, focus)| !r.can_touch(entry, focus)))
            .collect();
        let mut taken: Vec<Option<EntryResult<S>>> = first
            .iter()
            .zip(&skipped)
            .map(|((entry, _), skip)| if *skip { None } else { earlier.as_deref_mut().and_then(|e| e.0.remove(entry)) })
            .collect();
        // A record that another node shares is run again unless every node
        // sharing it has its result already.
        let shared_by = |taken: &[Option<EntryResult<S>>]| -> BTreeSet<usize> {
            same_as
                .iter()
                .zip(&skipped)
                .zip(taken)
                .filter(|((_, skip), taken)| !**skip && taken.is_none())
                .filter_map(|((same, _), _)| *same)
                .collect()
        };
        let shared = shared_by(&taken);
        let has_result: Vec<bool> = taken.iter().map(Option::is_some).collect();
        let needed: Vec<bool> = (0..first.len())
            .map(|i| !skipped[i] && same_as[i].is_none() && (!has_result[i] || shared.contains(&i)))
            .collect();
        // Rules ask whether some node calls a function mplint cannot see
        // into. Only a node whose code names such a function can record the
        // call: those nodes are compiled first; every other record is checked
        // as soon as it is made.
        let names_opaque: Vec<bool> = first.iter().map(|(entry, _)| self.node_calls_opaque_function(entry)).collect();
        let mut early: std::collections::BTreeMap<usize, Compilation> = (0..first.len())
            .into_par_iter()
            .filter(|&i| needed[i] && names_opaque[i])
            .map(|i| (i, run(&first[i])))
            .collect();
        if self.opaque_node_calls.get().is_none() {
            let opaque = early.values().flat_map(|c| &c.events).any(|event| match event {
                record::Event::NodeCall { name, .. } => !index.functions.contains_key(&index::normalize_name(name)),
                _ => false,
            }) || (0..first.len()).any(|i| skipped[i] && names_opaque[i]);
            let _ = self.opaque_node_calls.set(opaque);
        }
        // Kept results are taken once what every rule asks is known; never
        // for a node that names an opaque function, which decides that.
        if let Some(store) = store {
            let wanted: Vec<bool> =
                (0..first.len()).map(|i| !skipped[i] && taken[i].is_none() && !names_opaque[i]).collect();
            let loaded: Vec<Option<EntryResult<S>>> = (0..first.len())
                .into_par_iter()
                .map(|i| if wanted[i] { store.load(&first[i].0) } else { None })
                .collect();
            for (slot, loaded) in taken.iter_mut().zip(loaded) {
                if loaded.is_some() {
                    *slot = loaded;
                }
            }
        }
        let shared = shared_by(&taken);
        let has_result: Vec<bool> = taken.iter().map(Option::is_some).collect();
        // The records that the nodes checked share: each is run by its
        // first user and freed by its last.
        let users = |j: usize| {
            (0..first.len()).filter(|&i| !skipped[i] && !has_result[i] && (i == j || same_as[i] == Some(j))).count()
        };
        type SharedRecord = (std::sync::Mutex<Option<std::sync::Arc<Compilation>>>, AtomicUsize);
        let templates: std::collections::BTreeMap<usize, SharedRecord> = shared
            .iter()
            .map(|&j| {
                (j, (std::sync::Mutex::new(early.remove(&j).map(std::sync::Arc::new)), AtomicUsize::new(users(j))))
            })
            .collect();
        let mut early: Vec<Option<Compilation>> = (0..first.len()).map(|i| early.remove(&i)).collect();
        let body = |entry: &Entry| match entry {
            Entry::Node { site, node } => node_body(index, *site, *node),
            _ => unreachable!("only nodes share compilations"),
        };
        // Shared record `j`, moved to entry `i`'s body.
        let shared_record = |j: usize, i: usize| {
            let (slot, users) = &templates[&j];
            let record = {
                // Run under the lock: the interpreter starts no parallel
                // work, so this thread cannot be given another user of `j`.
                let mut slot = slot.lock().expect("no panic while a record is shared");
                let record = slot.get_or_insert_with(|| std::sync::Arc::new(run(&first[j]))).clone();
                if users.fetch_sub(1, Ordering::AcqRel) == 1 {
                    *slot = None;
                }
                record
            };
            let record = std::sync::Arc::try_unwrap(record).unwrap_or_else(|shared| (*shared).clone());
            if i == j {
                record
            } else {
                record.moved_into(first[i].0.clone(), body(&first[j].0), body(&first[i].0))
            }
        };
        let outcomes = std::mem::take(&mut early).into_par_iter().zip(taken).enumerate().filter(|(i, _)| !skipped[*i]);
        let compilation = |i: usize, compiled: Option<Compilation>| match (compiled, same_as[i]) {
            (Some(compilation), _) => compilation,
            (None, Some(j)) => shared_record(j, i),
            (None, None) if templates.contains_key(&i) => shared_record(i, i),
            (None, None) => {
                let compilation = run(&first[i]);
                debug_assert!(
                    !compilation.events.iter().any(|e| matches!(e, record::Event::NodeCall { name, .. }
                        if !index.functions.contains_key(&index::normalize_name(name)))),
                    "a node that names no opaque function records no call of one"
                );
                compilation
            }
        };
        let (mut reached, mut result) = if keep {
            let results = outcomes
                .map(|(i, (compiled, taken))| {
                    let entry = &first[i].0;
                    let result = taken.unwrap_or_else(|| {
                        let result = own(compilation(i, compiled));
                        // Never taken from the store: not kept there either.
                        if names_opaque[i] {
                            result
                        } else {
                            stored(entry, result)
                        }
                    });
                    (entry.clone(), result)
                })
                .collect();
            merge_kept(results, &mut kept)
        } else {
            outcomes
                .map(|(i, (compiled, _))| compilation(i, compiled))
                .fold(&empty_pair, &add)
                .reduce(&empty_pair, &append)
        };
        drop(templates);

        // Classes and defined types no node reached are checked as entry
        // points: first those nothing else declares, then the ones those
        // compilations did not reach either, in three steps. Each phase
        // depends only on the previous ones and visits in a fixed order: the
        // result is deterministic at any thread count.
        let declared_by_others = statically_declared(index);
        for phase in 0..4 {
            let environment_site = index.sites.iter().position(|s| s.standalone.is_none());
            let unreached: BTreeSet<&String> = index
                .types
                .iter()
                .filter(|(name, defs)| !reached.contains(*name) && defs.iter().any(|d| self.reported[d.file]))
                .map(|(name, _)| name)
                .collect();
            let mut entries = Vec::new();
            for (name, definitions) in &index.types {
                // Then those no other left declares (a parent that declares
                // its child first reaches it as Puppet does); of those left
                // (declaring each other), a class before those of its
                // namespace (`srv` before `srv::install`); then the rest.
                let deferred = match phase {
                    0 => declared_by_others.contains_key(name),
                    1 => declared_by_others
                        .get(name)
                        .is_some_and(|by| by.iter().any(|d| d != name && unreached.contains(d))),
                    2 => name.match_indices("::").any(|(end, _)| unreached.contains(&name[..end].to_string())),
                    _ => false,
                };
                if reached.contains(name) || deferred {
                    continue;
                }
                let Some(def) = definitions.iter().find(|d| self.reported[d.file]) else { continue };
                let site = match def.visibility {
                    Visibility::File(file) => index.sites.iter().position(|s| s.standalone == Some(file)),
                    Visibility::Global => environment_site,
                };
                let entry = Entry::Unreached { name: name.clone(), site };
                if reach.as_ref().is_some_and(|(reach, focus)| !reach.can_touch(&entry, focus)) {
                    continue;
                }
                let taken = earlier.as_deref_mut().and_then(|e| e.0.remove(&entry));
                entries.push(((entry, false), taken));
            }
            let (phase_reached, phase_result) = if keep {
                let results = entries
                    .into_par_iter()
                    .map(|(entry, taken)| {
                        let result = taken
                            .or_else(|| store.and_then(|store| store.load(&entry.0)))
                            .unwrap_or_else(|| stored(&entry.0, own(run(&entry))));
                        (entry.0.clone(), result)
                    })
                    .collect();
                merge_kept(results, &mut kept)
            } else {
                entries
                    .into_par_iter()
                    .map(|(entry, _)| run(&entry))
                    .fold(&empty_pair, &add)
                    .reduce(&empty_pair, &append)
            };
            reached.extend(phase_reached);
            result.append(phase_result);
        }
        if let Some(earlier) = earlier {
            earlier.0.extend(kept);
        }
        result
    }

    /// Whether a node's code calls a function that is not Puppet's, not
    /// the site's own and not written in Puppet (read from the code, for a
    /// node that is not compiled).
    fn node_calls_opaque_function(&self, entry: &Entry) -> bool {
        let Entry::Node { site, node } = entry else { return false };
        let declaring = &self.workspace.include_functions;
        let mut opaque = false;
        for statement in &self.index.sites[*site].nodes[*node].node.body.statements {
            statement.walk(&mut |e: &Expr| {
                if let ExprKind::Call(call) = &e.kind {
                    let name = call.name.as_str();
                    opaque |= !matches!(name, "include" | "require" | "contain")
                        && !declaring.contains_key(name)
                        && !interp::is_built_in_call(name)
                        && !self.index.functions.contains_key(&index::normalize_name(name));
                }
            });
        }
        opaque
    }

    /// Visits every expression of the reported files, with its file.
    pub fn walk_reported(&self, mut visit: impl FnMut(FileId, &'a Expr)) {
        for file in 0..self.files.len() {
            self.walk_if_reported(file, |e| visit(file, e));
        }
    }

    /// Visits every expression of `file` if it is reported on.
    pub fn walk_if_reported(&self, file: FileId, mut visit: impl FnMut(&'a Expr)) {
        let Some(manifest) = &self.files[file].manifest else { return };
        if !self.reported[file] {
            return;
        }
        for statement in &manifest.statements {
            statement.walk(&mut visit);
        }
    }

    /// The files reported on, when only some are.
    pub fn focus(&self) -> Option<&BTreeSet<FileId>> {
        self.focus.as_ref()
    }

    /// `focus` widened by more files, when that may bring in entry points
    /// that the narrower focus skipped: the compilations must run again
    /// to see what they say.
    pub fn widened_focus(
        &self,
        focus: &BTreeSet<FileId>,
        files: impl IntoIterator<Item = FileId>,
    ) -> Option<BTreeSet<FileId>> {
        let mut widened = focus.clone();
        widened.extend(files);
        if widened.len() == focus.len() {
            return None;
        }
        let reach = reach::Reach::new(&self.index, &self.workspace.include_functions);
        let environment_site = self.index.sites.iter().position(|s| s.standalone.is_none());
        let nodes = self
            .index
            .sites
            .iter()
            .enumerate()
            .flat_map(|(site, s)| (0..s.nodes.len()).map(move |node| Entry::Node { site, node }));
        let unreached = self.index.types.iter().map(|(name, definitions)| {
            let site = match definitions[0].visibility {
                Visibility::File(file) => self.index.sites.iter().position(|s| s.standalone == Some(file)),
                Visibility::Global => environment_site,
            };
            Entry::Unreached { name: name.clone(), site }
        });
        let more =
            nodes.chain(unreached).any(|entry| reach.can_touch(&entry, &widened) && !reach.can_touch(&entry, focus));
        more.then_some(widened)
    }

    /// The resource types the tree's modules define in Ruby
    /// (`lib/puppet/type/*.rb`), by name; read once, by the first rule that
    /// asks.
    pub fn ruby_types(&self) -> &std::collections::BTreeMap<String, ruby_types::RubyType> {
        self.type_names().ruby_types()
    }

    /// The types the tree knows, to tell whether a word names one.
    pub fn type_names(&self) -> type_names::TypeNames<'_> {
        type_names::TypeNames::new(&self.index, &self.ruby_types)
    }

    /// The files whose code names a class or defined type of `module`.
    pub fn files_naming_module(&self, module: &str) -> BTreeSet<FileId> {
        let reach = reach::Reach::new(&self.index, &self.workspace.include_functions);
        reach.files_naming(|name| module_of(name) == module)
    }

    /// The example file a compilation applies, when it is a module's usage
    /// example (`examples/`, `tests/`).
    pub fn example_file(&self, compilation: &Compilation) -> Option<FileId> {
        let (Entry::TopLevel { site } | Entry::Node { site, .. }) = &compilation.entry else { return None };
        let file = self.index.sites[*site].standalone?;
        matches!(self.index.roles[file], workspace::FileRole::Example { .. }).then_some(file)
    }

    /// Whether an example compilation reads a top-scope variable that the
    /// site's own manifests bind: the site provides it, not the example.
    pub fn site_provides(&self, compilation: &Compilation, name: &str) -> bool {
        self.example_file(compilation).is_some() && self.site_variables.contains(name.without_anchor())
    }

    /// Whether some node calls a function that is not Puppet's and not
    /// written in Puppet (a site's Ruby `role()`, say): such a function can
    /// set top-scope variables mplint does not see.
    pub fn nodes_call_opaque_functions(&self) -> bool {
        self.opaque_node_calls.get().copied().unwrap_or(false)
    }

    /// The file Puppet's autoloader reads for a class, when it is in the tree.
    fn autoload_file(&self, class: &str) -> Option<FileId> {
        let module_dir = self.modules.get(module_of(class))?;
        let relative = workspace::autoload_path(class);
        let inside = relative.strip_prefix(module_of(class)).ok()?;
        let expected = module_dir.join(inside);
        let files_by_path = self.files_by_path.get_or_init(|| {
            let mut by_path = rustc_hash::FxHashMap::default();
            for (i, file) in self.files.iter().enumerate() {
                by_path.entry(file.source.path.as_path()).or_insert(i);
            }
            by_path
        });
        files_by_path.get(expected.as_path()).copied()
    }

    /// Whether the file Puppet's autoloader reads for a class is in the
    /// tree but could not be parsed: its definitions are unknown, not absent.
    /// Whether Puppet's autoloader may find `name` in `file`: not a module
    /// file whose path gives other names (`legacy_foo/manifests/init.pp`
    /// holding `class foo`), which Puppet never reads for it, and refuses
    /// when it reads it for another name.
    pub fn autoloader_may_find(&self, name: &str, file: FileId) -> bool {
        let role = &self.index.roles[file];
        self.workspace.autoload_namespace(self.path(file), role).is_none_or(|namespace| name.starts_with(&namespace))
    }

    pub fn autoload_file_unparsed(&self, class: &str) -> bool {
        self.autoload_file(class).is_some_and(|file| self.files[file].manifest.is_none())
    }

    /// The file Puppet's autoloader reads for a class and the names it
    /// defines instead, when it is in the tree and defines others.
    pub fn autoload_file_defining_others(&self, class: &str) -> Option<(FileId, Vec<String>)> {
        let file = self.autoload_file(class)?;
        let names: Vec<String> = self
            .index
            .types
            .iter()
            .filter(|(_, defs)| defs.iter().any(|d| d.file == file))
            .map(|(name, _)| name.clone())
            .collect();
        (!names.is_empty() && !names.iter().any(|n| n == class)).then_some((file, names))
    }

    /// Files Puppet can load a definition from: the site's manifests, which
    /// it reads whole, and module files at the autoload path of a name they
    /// define. A module file that defines no name of its own (a stray copy,
    /// `modules/manifests/init.pp` holding `class stdlib`) is never read.
    pub fn loadable_files(&self) -> BTreeSet<FileId> {
        let mut loadable = BTreeSet::new();
        for (name, definitions) in &self.index.types {
            for def in definitions {
                match &self.index.roles[def.file] {
                    workspace::FileRole::Module { .. } => {
                        let Some(module_dir) = self.modules.get(module_of(name)) else { continue };
                        let relative = workspace::autoload_path(name);
                        let Ok(inside) = relative.strip_prefix(module_of(name)) else { continue };
                        if self.files[def.file].source.path == module_dir.join(inside) {
                            loadable.insert(def.file);
                        }
                    }
                    _ => {
                        loadable.insert(def.file);
                    }
                }
            }
        }
        loadable
    }

    /// The file a standalone compilation's definitions are visible in.
    pub fn standalone_of(&self, compilation: &Compilation) -> Option<FileId> {
        match &compilation.entry {
            Entry::Node { site, .. } | Entry::TopLevel { site } | Entry::Unreached { site: Some(site), .. } => {
                self.index.sites[*site].standalone
            }
            Entry::Unreached { site: None, .. } => None,
        }
    }

    /// Whether a class inherits, itself or through its parents, from a
    /// class the tree does not define: what that parent binds is unknown.
    pub fn inherits_unknown(&self, class: &str, standalone: Option<FileId>) -> bool {
        let mut name = index::normalize_name(class);
        for _ in 0..MAX_INHERITANCE_STEPS {
            let Some((def, _)) = self.index.find_class(&name, standalone) else { return false };
            let Some((parent, _)) = &def.parent else { return false };
            name = index::normalize_name(parent);
            if self.index.find_class(&name, standalone).is_none() {
                return true;
            }
        }
        false
    }

    /// The first file Puppet 3 read with `file` through `import` that
    /// binds `name` at top scope or in a node, and whether `file` imports
    /// it.
    pub fn import_partner_binding(&self, file: FileId, name: &str) -> Option<(FileId, bool)> {
        let binds = |partner: FileId| {
            self.index.sites.iter().filter(|site| site.standalone == Some(partner)).any(|site| {
                assigned_in(site.top_level.iter().map(|(_, statement)| *statement)).iter().any(|n| n == name)
                    || site.nodes.iter().any(|node| assigned_names(&node.node.body).iter().any(|n| n == name))
            })
        };
        self.import_partners.get(&file)?.iter().copied().find(|(partner, _)| binds(*partner))
    }

    /// Modules a `Puppetfile` of the tree installs that the tree does not
    /// hold: their custom facts are unknown.
    pub fn absent_puppetfile_modules(&self) -> Vec<&str> {
        self.workspace
            .puppetfile_modules
            .keys()
            .filter(|module| {
                !self
                    .modules
                    .get(module.as_str())
                    .is_some_and(|dir| dir.join("lib").is_dir() || dir.join("manifests").is_dir())
            })
            .map(String::as_str)
            .collect()
    }

    /// Whether the module path holds the module's directory, with some of a
    /// module's parts: an empty directory (a git submodule not checked
    /// out) or one with a leftover `Gemfile.lock` is no module.
    pub fn module_dir_present(&self, module: &str) -> bool {
        let has_parts = |dir: &std::path::Path| MODULE_PARTS.iter().any(|part| dir.join(part).exists());
        self.modules.get(module).is_some_and(|dir| self.module_dirs_with_parts.answer(dir, has_parts))
    }

    /// Whether the tree holds the module of a class: its directory, or
    /// classes of its name.
    pub fn module_present(&self, class: &str) -> bool {
        let module = module_of(class);
        if self.puppetfile_module_overlaid(module) {
            return false;
        }
        if self.module_dir_present(module) {
            return true;
        }
        // A module the Puppetfile installs is read from where it installs
        // it, not from a copy elsewhere in the tree.
        if self.workspace.puppetfile_modules.contains_key(module) {
            return false;
        }
        // A git submodule not checked out: names of its namespace defined
        // elsewhere are not what Puppet loads.
        if self.workspace.roots.iter().any(|root| workspace::submodule_path(root, module).is_some()) {
            return false;
        }
        // One defined in another module's file is misplaced there
        // (`definition-location`), no sign of this module.
        let misplaced = |def: &index::Definition<'_>| match &self.index.roles[def.file] {
            workspace::FileRole::Module { module: other } => other != module && self.defines_own_names(other),
            _ => false,
        };
        self.names_of_module(module).any(|(_, defs)| defs.iter().any(|def| !misplaced(def)))
    }

    /// Whether the tree keeps only some files of a module its Puppetfile
    /// installs from outside (no `metadata.json`, `Modulefile` or
    /// `manifests/init.pp`): files added over the installed module, whose
    /// own contents are unknown.
    pub fn puppetfile_module_overlaid(&self, module: &str) -> bool {
        self.workspace.puppetfile_modules.contains_key(module)
            && !self.workspace.puppetfile_from_tree.contains(module)
            && self.modules.get(module).is_some_and(|dir| {
                !["metadata.json", "Modulefile", "manifests/init.pp"].iter().any(|part| dir.join(part).exists())
            })
    }

    /// Whether a module's own files define names of its namespace: a
    /// directory that defines none is no module Puppet looks in.
    fn defines_own_names(&self, module: &str) -> bool {
        let own = |def: &index::Definition<'_>| matches!(&self.index.roles[def.file], workspace::FileRole::Module { module: m } if m == module);
        self.names_of_module(module).any(|(_, defs)| defs.iter().any(own))
    }

    /// Where the tree holds a copy of a module that the Puppetfile
    /// installs, off the module path (vendored elsewhere too): the
    /// directory named after the module that defines its first name.
    pub fn module_copy_off_the_module_path(&self, module: &str) -> Option<&std::path::Path> {
        if self.module_dir_present(module) || !self.workspace.puppetfile_modules.contains_key(module) {
            return None;
        }
        let (_, defs) = self.names_of_module(module).next()?;
        let file = self.relative_path(defs.first()?.file);
        file.ancestors().skip(1).find(|dir| dir.file_name().is_some_and(|name| name == module))
    }

    /// The module manifests no name leads Puppet's autoloader to, found by
    /// `find` the first time they are asked for.
    pub fn never_loaded_files(&self, find: impl FnOnce() -> BTreeSet<FileId>) -> &BTreeSet<FileId> {
        self.never_loaded.get_or_init(find)
    }

    /// The directory of a module the module path holds with none of a
    /// module's parts (only tests, say): Puppet finds no class in it.
    pub fn module_dir_without_code(&self, module: &str) -> Option<std::path::PathBuf> {
        let dir = self.modules.get(module)?;
        (dir.is_dir() && !self.module_dir_present(module)).then(|| self.workspace.display.show(dir).to_path_buf())
    }

    /// The definitions of a module's namespace: the module's name, and the
    /// names under it.
    fn names_of_module<'s>(
        &'s self,
        module: &'s str,
    ) -> impl Iterator<Item = (&'s String, &'s Vec<index::Definition<'a>>)> + 's {
        // Names sharing the module's prefix sort together, from the module's own name on.
        self.index
            .types
            .range(module.to_string()..)
            .take_while(move |(name, _)| name.starts_with(module))
            .filter(move |(name, _)| name.len() == module.len() || name[module.len()..].starts_with("::"))
    }

    pub fn span(&self, loc: Loc) -> Span {
        self.files[loc.file()].source.span(loc.start(), loc.end())
    }

    pub fn path(&self, file: FileId) -> &std::path::Path {
        &self.files[file].source.path
    }

    /// A file's path relative to the checked directory it is in (the
    /// nearest, when they nest), or its name when it was named alone:
    /// what policy path globs match.
    pub fn relative_path(&self, file: FileId) -> &std::path::Path {
        crate::paths::relative_to_roots(self.path(file), &self.workspace.roots)
    }

    pub fn is_reported(&self, loc: Loc) -> bool {
        self.reported.get(loc.file()).copied().unwrap_or(false)
    }

    /// A short description of a compilation's entry, for messages.
    pub fn describe_entry(&self, compilation: &Compilation) -> String {
        match &compilation.entry {
            Entry::Node { site, node } => {
                let node = &self.index.sites[*site].nodes[*node];
                format!("node {}", describe_node(node.node))
            }
            Entry::TopLevel { site } => {
                format!(
                    "the top-level code of {}",
                    self.workspace.display.show(&self.index.sites[*site].path).display()
                )
            }
            Entry::Unreached { name, .. } => format!("`{name}` checked on its own"),
        }
    }
}

/// The module a class name belongs to: `apache::mod::ssl` → `apache`.
pub fn module_of(class: &str) -> &str {
    let name = class.without_anchor();
    name.split("::").next().unwrap_or(name)
}

pub fn describe_node(node: &crate::syntax::ast::NodeDef) -> String {
    use crate::syntax::ast::NodeMatcher;
    node.matchers
        .iter()
        .map(|m| match m {
            NodeMatcher::Name(name, _) => format!("'{name}'"),
            NodeMatcher::Regex(re, _) => format!("/{re}/"),
            NodeMatcher::Default(_) => "default".to_string(),
            NodeMatcher::Interpolated { .. } => "an interpolated name".to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names of classes and defined types that some other class or defined type
/// declares by name (`include x`, `class { 'x': }`, `x { … }`, `inherits x`).
/// The classes and defined types the tree's code declares by literal
/// names (or inherits from), each with the types whose code declares it
/// (not counting `inherits`).
fn statically_declared(index: &Index<'_>) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    use self::index::{normalize_name, DefBody};
    use crate::syntax::ast::{Expr, ExprKind as K};
    let literal = |e: &Expr| -> Vec<String> {
        match &e.kind {
            K::Name(n) => vec![normalize_name(n)],
            K::Str(s) => s.as_literal().map(|t| normalize_name(&t)).into_iter().collect(),
            K::Array(items) => items
                .iter()
                .filter_map(|i| match &i.kind {
                    K::Name(n) => Some(normalize_name(n)),
                    K::Str(s) => s.as_literal().map(|t| normalize_name(&t)),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    // Each definition's body is walked on its own thread; the map is the
    // same in any order.
    let types: Vec<(&String, &index::Definition)> =
        index.types.iter().flat_map(|(name, definitions)| definitions.iter().map(move |def| (name, def))).collect();
    let found_by: Vec<(&String, Vec<String>, Option<String>)> = types
        .par_iter()
        .map(|(name, def)| {
            let mut found = Vec::new();
            let mut visit = |e: &Expr| match &e.kind {
                K::Call(call) if matches!(call.name.as_str(), "include" | "require" | "contain") => {
                    found.extend(call.args.iter().flat_map(&literal));
                }
                K::Resource(r) => match r.type_name().as_deref() {
                    Some("class") => found.extend(r.bodies.iter().flat_map(|b| literal(&b.title))),
                    Some(other) => found.push(other.to_string()),
                    None => {}
                },
                _ => {}
            };
            let mut parent = None;
            match def.body {
                DefBody::Class(class) => {
                    parent = class.parent.as_ref().map(|(p, _)| normalize_name(p));
                    class.params.iter().filter_map(|p| p.default.as_ref()).for_each(|d| d.walk(&mut visit));
                    class.body.statements.iter().for_each(|s| s.walk(&mut visit));
                }
                DefBody::Define(define) => {
                    define.params.iter().filter_map(|p| p.default.as_ref()).for_each(|d| d.walk(&mut visit));
                    define.body.statements.iter().for_each(|s| s.walk(&mut visit));
                }
                _ => {}
            }
            // Only what names a definition is ever asked about.
            found.retain(|declared| index.types.contains_key(declared));
            found.sort_unstable();
            found.dedup();
            (*name, found, parent.filter(|parent| index.types.contains_key(parent)))
        })
        .collect();
    let mut declared: std::collections::BTreeMap<String, BTreeSet<String>> = std::collections::BTreeMap::new();
    for (name, found, parent) in found_by {
        for declared_name in found {
            declared.entry(declared_name).or_default().insert(name.clone());
        }
        if let Some(parent) = parent {
            declared.entry(parent).or_default();
        }
    }
    declared
}

/// Variables assigned anywhere in a block, branches included.
fn assigned_names(block: &Block) -> Vec<String> {
    assigned_in(block.statements.iter())
}

/// Variables assigned by statements, in their branches included.
fn assigned_in<'e>(statements: impl Iterator<Item = &'e Expr>) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack: Vec<&Expr> = statements.collect();
    while let Some(statement) = stack.pop() {
        match &statement.kind {
            ExprKind::Assignment { target, .. } => {
                if let ExprKind::Variable(v) = &target.kind {
                    names.push(v.name.to_string());
                }
            }
            ExprKind::If(i) | ExprKind::Unless(i) => {
                stack.extend(i.branches.iter().flat_map(|b| &b.body.statements));
                stack.extend(i.else_body.iter().flat_map(|b| &b.statements));
            }
            ExprKind::Case(c) => stack.extend(c.options.iter().flat_map(|o| &o.body.statements)),
            _ => {}
        }
    }
    names
}

/// See [`Model::import_partners`]: the imports of files applied on their
/// own, matched against the files of the tree.
fn import_partners(files: &[ParsedFile], index: &Index<'_>) -> std::collections::BTreeMap<FileId, Vec<(FileId, bool)>> {
    let mut partners: std::collections::BTreeMap<FileId, Vec<(FileId, bool)>> = std::collections::BTreeMap::new();
    for (importer, file) in files.iter().enumerate() {
        if !matches!(index.roles[importer], workspace::FileRole::Standalone) || !file.source.text.contains("import") {
            continue;
        }
        let Some(dir) = file.source.path.parent() else { continue };
        let imported = workspace::imported_paths_in(&file.source.text, dir);
        for (other, candidate) in files.iter().enumerate() {
            if other != importer && imported.iter().any(|path| candidate.source.path.starts_with(path)) {
                partners.entry(other).or_default().push((importer, false));
                partners.entry(importer).or_default().push((other, true));
            }
        }
    }
    partners
}

/// See [`Model::absent_site_import`]: the first import of a site file that
/// names neither a file of the tree nor a module.
fn absent_site_import(files: &[ParsedFile], index: &Index<'_>, workspace: &Workspace) -> Option<(FileId, String)> {
    files.iter().enumerate().find_map(|(id, file)| {
        if !matches!(index.roles[id], workspace::FileRole::Site { .. }) || !file.source.text.contains("import") {
            return None;
        }
        let dir = file.source.path.parent()?;
        let imported = workspace::imported_paths_in(&file.source.text, dir);
        // Puppet 2 imported a module by its name (`import "apt"`).
        let a_module = |written: &std::path::Path| {
            let name = written.with_extension("");
            workspace.module_dirs.iter().any(|modules| modules.join(&name).is_dir())
        };
        imported
            .iter()
            .find_map(|path| {
                let written = path.strip_prefix(dir).unwrap_or(path);
                (!path.exists() && !a_module(written)).then(|| written.display().to_string())
            })
            .map(|shown| (id, shown))
    })
}

/// The names an environment's site manifests read in top-scope form
/// (`$::project`) and never assign.
fn site_fact_reads(index: &Index<'_>) -> BTreeSet<String> {
    let mut read = BTreeSet::new();
    let mut assigned = BTreeSet::new();
    for site in index.sites.iter().filter(|s| s.standalone.is_none()) {
        let statements = site.top_level.iter().map(|(_, e)| (*e, true));
        let nodes = site.nodes.iter().flat_map(|n| &n.node.body.statements).map(|e| (e, false));
        for (statement, at_top) in statements.chain(nodes) {
            statement.walk(&mut |e: &Expr| match &e.kind {
                ExprKind::Variable(v) => {
                    if let Some(name) = v.name.strip_prefix("::").filter(|n| !n.is_qualified()) {
                        read.insert(name.to_string());
                    }
                }
                // A node's own variable (`$roles = split($::roles, ',')`)
                // is not the top-scope one.
                ExprKind::Assignment { target, .. } if at_top => {
                    if let ExprKind::Variable(v) = &target.kind {
                        assigned.insert(v.name.to_string());
                    }
                }
                _ => {}
            });
        }
    }
    read.retain(|name| !assigned.contains(name));
    read
}

/// Where a node's body is.
fn node_body(index: &Index<'_>, site: usize, node: usize) -> Loc {
    let entry = &index.sites[site].nodes[node];
    Loc::new(entry.file, entry.node.body.span)
}

/// For each entry, the earlier node entry of the same site whose body is
/// the same text, if any. Bodies holding definitions never share.
fn same_node_bodies(index: &Index<'_>, files: &[ParsedFile], entries: &[(Entry, bool)]) -> Vec<Option<usize>> {
    let mut first_with: std::collections::HashMap<(usize, &str), usize> = std::collections::HashMap::new();
    entries
        .iter()
        .enumerate()
        .map(|(i, (entry, _))| {
            let Entry::Node { site, node } = entry else { return None };
            let body = &index.sites[*site].nodes[*node].node.body;
            let text = &files[index.sites[*site].nodes[*node].file].source.text;
            let piece = text.get(body.span.start..body.span.end)?;
            let mut defines = false;
            for statement in &body.statements {
                statement.walk(&mut |e| {
                    defines |= matches!(
                        e.kind,
                        ExprKind::Class(_)
                            | ExprKind::Define(_)
                            | ExprKind::Node(_)
                            | ExprKind::Function(_)
                            | ExprKind::Plan(_)
                            | ExprKind::TypeAlias(_)
                            | ExprKind::TypeDefinition(_)
                    )
                });
            }
            if defines {
                return None;
            }
            match first_with.entry((*site, piece)) {
                std::collections::hash_map::Entry::Occupied(earlier) => Some(*earlier.get()),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                    None
                }
            }
        })
        .collect()
}
