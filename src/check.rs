//! Running a check: discover files, read and parse them in parallel, apply
//! the rules, and gather the results in a stable order.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::config::Settings;
use crate::input::{self, Notice, NoticeKind};
use crate::model::index::FileId;
use crate::model::tool_manifests::Searched;
use crate::model::workspace::{
    code_dir_module_path, context_root_of_dir, context_root_with, environments_within, AncestorChecks, Workspace,
};
use crate::model::{EntryResults, Model};
use crate::paths::{normalize, PathDisplay};
use crate::rules::{self, Finding};
use crate::syntax::cache::ParseCache;
use crate::syntax::{self, ParsedFile};

#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Worker threads; `None` uses one per core.
    pub jobs: Option<usize>,
    /// `--exclude` globs.
    pub excludes: Vec<String>,
    /// `--modulepath` directories: their modules' definitions are known,
    /// their own findings are not reported.
    pub module_path: Vec<PathBuf>,
    /// Rule levels and the rest of the configuration.
    pub settings: Settings,
    /// Compile nodes with the same body text each on its own instead of
    /// once (the findings are the same; the tests check that).
    pub compile_every_node: bool,
    /// Findings of single files only (syntax), no analysis across files.
    pub syntax_only: bool,
    /// Text read from standard input and the path it stands for: checked
    /// as that file's contents, whether or not the file exists.
    pub stdin: Option<(PathBuf, Vec<u8>)>,
    /// Analyse each named file with the tree it belongs to
    /// ([`context_root`]) and report what concerns the named files; without
    /// it a named file is checked alone. A directory inside a module's
    /// code ([`context_root_of_dir`]) is analysed with its tree too; other
    /// directories are checked as named either way.
    pub in_context: bool,
    /// Where parse results are kept between runs; none parses every file.
    pub cache: Option<ParseCache>,
}

/// Everything a run found.
#[derive(Debug, Default)]
pub struct CheckOutcome {
    /// The files that were read and parsed, sorted: the checked ones, then
    /// those of the module path.
    pub files: Vec<ParsedFile>,
    /// How many of `files`, from the start, were checked (reported).
    pub checked: usize,
    /// Findings sorted by path, line, column and rule.
    pub findings: Vec<Finding>,
    /// Paths that could not be checked.
    pub notices: Vec<Notice>,
    pub elapsed: Duration,
}

impl CheckOutcome {
    /// Findings of a level that no comment suppresses.
    pub fn count(&self, level: rules::Level) -> usize {
        self.findings.iter().filter(|f| f.level == level && f.suppressed_by.is_none()).count()
    }

    pub fn suppressed(&self) -> usize {
        self.findings.iter().filter(|f| f.suppressed_by.is_some()).count()
    }

    /// Whether an unsuppressed finding reaches `fail_on`.
    pub fn fails(&self, fail_on: rules::Level) -> bool {
        self.findings.iter().any(|f| f.level >= fail_on && f.suppressed_by.is_none())
    }
}

#[derive(Debug)]
pub enum CheckError {
    BadExclude(globset::Error),
    ThreadPool(rayon::ThreadPoolBuildError),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::BadExclude(e) => write!(f, "invalid --exclude pattern: {e}"),
            CheckError::ThreadPool(e) => write!(f, "cannot start worker threads: {e}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Checks the given files and directories.
///
/// Syntax trees are as deep as the code nests, so the thread that drops the
/// outcome needs a stack like the workers' ([`crate::WORKER_STACK_SIZE`]);
/// [`crate::run_with_large_stack`] provides one.
pub fn check(paths: &[PathBuf], options: &CheckOptions) -> Result<CheckOutcome, CheckError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    if !options.in_context || options.syntax_only {
        return check_trees(paths, &[], None, options);
    }
    let mut trees: Vec<PathBuf> = Vec::new();
    let mut focus = Focus::default();
    let mut in_a_tree = false;
    // Finding roots is file system checks on every ancestor: done in
    // parallel, and once per directory, since a file's tree depends on its
    // directory alone.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build()
        .map_err(CheckError::ThreadPool)?;
    let absolute_paths: Vec<PathBuf> = paths.iter().map(|path| normalize(path, &cwd)).collect();
    let kinds: Vec<(bool, bool)> = pool.install(|| {
        absolute_paths
            .par_iter()
            .map(|a| std::fs::metadata(a).map_or((false, false), |m| (m.is_file(), m.is_dir())))
            .collect()
    });
    let mut file_dirs: Vec<&Path> = absolute_paths
        .iter()
        .zip(&kinds)
        .filter(|(_, (is_file, _))| *is_file)
        .filter_map(|(absolute, _)| absolute.parent())
        .collect();
    file_dirs.sort_unstable();
    file_dirs.dedup();
    let checks = AncestorChecks::default();
    let root_of_dir: std::collections::HashMap<&Path, Option<PathBuf>> = pool
        .install(|| file_dirs.par_iter().map(|dir| (*dir, context_root_with(&dir.join("*.pp"), &checks))).collect());
    let roots_of_named_dirs: Vec<Option<PathBuf>> = pool.install(|| {
        absolute_paths
            .par_iter()
            .zip(&kinds)
            .map(|(absolute, (is_file, is_dir))| (!is_file && *is_dir).then(|| context_root_of_dir(absolute)).flatten())
            .collect()
    });
    for (i, path) in paths.iter().enumerate() {
        let absolute = absolute_paths[i].clone();
        let root = match absolute.parent() {
            Some(dir) if kinds[i].0 => root_of_dir[dir].clone(),
            _ => roots_of_named_dirs[i].clone(),
        };
        match root {
            Some(root) => {
                in_a_tree = true;
                if kinds[i].1 {
                    focus.dirs.push(absolute);
                } else {
                    focus.files.insert(absolute);
                }
                // Named as the file was, so that paths are shown alike.
                let root = if path.is_relative() {
                    pathdiff::diff_paths(&root, &cwd).filter(|r| !r.as_os_str().is_empty()).unwrap_or(".".into())
                } else {
                    root
                };
                trees.push(root);
            }
            None => {
                if kinds[i].1 {
                    focus.dirs.push(absolute);
                } else {
                    focus.files.insert(absolute);
                }
                trees.push(path.clone());
            }
        }
    }
    if !in_a_tree {
        return check_trees(paths, &[], None, options);
    }
    // A tree inside another one is checked as part of it. Many named files
    // share a tree: each distinct tree is looked at once.
    let mut seen = std::collections::HashSet::new();
    let trees: Vec<(PathBuf, PathBuf)> = trees
        .into_iter()
        .map(|t| (normalize(&t, &cwd), t))
        .filter(|(absolute, _)| seen.insert(absolute.clone()))
        .collect();
    let dirs: Vec<&PathBuf> = trees.iter().map(|(absolute, _)| absolute).filter(|a| a.is_dir()).collect();
    let kept: Vec<PathBuf> = trees
        .iter()
        .filter(|(absolute, _)| !dirs.iter().any(|d| absolute != *d && absolute.starts_with(d)))
        .map(|(_, tree)| tree.clone())
        .collect();
    check_trees(&kept, paths, Some(focus), options)
}

/// What a run in context reports: findings located in, or related to, a
/// named file, and findings in a named directory.
#[derive(Debug, Default, Clone)]
struct Focus {
    files: std::collections::HashSet<PathBuf>,
    dirs: Vec<PathBuf>,
}

impl Focus {
    fn contains(&self, path: &std::path::Path) -> bool {
        self.files.contains(path) || self.dirs.iter().any(|d| path.starts_with(d))
    }

    fn concerns(&self, finding: &Finding) -> bool {
        self.contains(&finding.path) || finding.related.iter().chain(&finding.flow).any(|r| self.contains(&r.path))
    }
}

/// Checks `trees` (files and directories) as [`check`] does without
/// context. `named` are the paths the user gave, read even when the walk of
/// the trees would skip them; with `focus`, only what it concerns is
/// reported.
///
/// A directory that holds several environments (`environments/production`,
/// `environments/staging`) is checked one environment at a time, the rest
/// of it on its own: Puppet compiles each environment with its own modules.
fn check_trees(
    trees: &[PathBuf],
    named: &[PathBuf],
    focus: Option<Focus>,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckError> {
    let started = Instant::now();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let config_roots: Vec<PathBuf> = trees.iter().map(|p| normalize(p, &cwd)).collect();
    // Each environment: where it is, how it is shown, the code directory's
    // modules it takes as its base module path.
    let mut environments: Vec<(PathBuf, PathBuf, Vec<PathBuf>)> = Vec::new();
    if !options.syntax_only {
        for (tree, absolute) in trees.iter().zip(&config_roots) {
            for environment in environments_within(absolute) {
                // Shown as the tree was named.
                let inside = environment.strip_prefix(absolute).expect("an environment within the tree");
                let shown = if tree.is_relative() { tree.join(inside) } else { environment.clone() };
                let base = code_dir_module_path(&environment);
                environments.push((environment, shown, base));
            }
        }
    }
    if environments.is_empty() {
        let mut options = options.clone();
        if !options.syntax_only {
            options.module_path.extend(config_roots.iter().flat_map(|root| code_dir_module_path(root)));
        }
        let mut outcome = check_tree_group(trees, named, focus, &[], &config_roots, &options, &mut Searched::new())?;
        drop_findings_through_links(&mut outcome.findings, &cwd);
        return Ok(outcome);
    }
    let skipped: Vec<PathBuf> = environments.iter().map(|(absolute, ..)| absolute.clone()).collect();
    // The code directory's module directories that environments take are
    // the module path of the rest of the tree too, where they are.
    let mut rest_module_path: Vec<PathBuf> = Vec::new();
    for dir in environments.iter().flat_map(|(_, _, base)| base) {
        let in_rest =
            config_roots.iter().any(|root| dir.starts_with(root)) && !skipped.iter().any(|s| dir.starts_with(s));
        if in_rest && !rest_module_path.contains(dir) {
            rest_module_path.push(dir.clone());
        }
    }
    let mut groups: Vec<(Vec<PathBuf>, Vec<PathBuf>, Vec<PathBuf>)> =
        vec![(trees.to_vec(), skipped.clone(), rest_module_path)];
    // An environment that keeps others checks them apart too.
    let inner = |outer: &PathBuf| skipped.iter().filter(|e| *e != outer && e.starts_with(outer)).cloned().collect();
    groups.extend(environments.into_iter().map(|(absolute, shown, base)| (vec![shown], inner(&absolute), base)));
    let mut merged = CheckOutcome::default();
    let mut library: Vec<ParsedFile> = Vec::new();
    let mut stdin_taken = false;
    // The tools' configurations, searched once for the whole run.
    let mut searched = Searched::new();
    for (group_trees, group_skipped, base_modules) in groups {
        let absolute: Vec<PathBuf> = group_trees.iter().map(|t| normalize(t, &cwd)).collect();
        let belongs = |path: &PathBuf| {
            let path = normalize(path, &cwd);
            absolute.iter().any(|t| path.starts_with(t)) && !group_skipped.iter().any(|s| path.starts_with(s))
        };
        let group_named: Vec<PathBuf> = named.iter().filter(|n| belongs(n)).cloned().collect();
        let mut group_options = options.clone();
        group_options.module_path.extend(base_modules);
        let stdin_here = options.stdin.as_ref().is_some_and(|(path, _)| !stdin_taken && belongs(path));
        stdin_taken |= stdin_here;
        if !stdin_here {
            group_options.stdin = None;
        }
        let mut outcome = check_tree_group(
            &group_trees,
            &group_named,
            focus.clone(),
            &group_skipped,
            &config_roots,
            &group_options,
            &mut searched,
        )?;
        library.extend(outcome.files.split_off(outcome.checked));
        merged.checked += outcome.checked;
        merged.files.append(&mut outcome.files);
        merged.findings.append(&mut outcome.findings);
        merged.notices.append(&mut outcome.notices);
    }
    merged.files.sort_by(|a, b| a.source.path.cmp(&b.source.path));
    library.sort_by(|a, b| a.source.path.cmp(&b.source.path));
    library.dedup_by(|a, b| a.source.path == b.source.path);
    merged.files.append(&mut library);
    merged.findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    // A file two checked environments both read (a Hiera configuration
    // beside one, read by the tree around it too) is reported once.
    merged.findings.dedup_by(|a, b| a.sort_key() == b.sort_key() && a.span == b.span);
    drop_findings_through_links(&mut merged.findings, &cwd);
    merged.notices.sort_by(|a, b| (&a.path, &a.message).cmp(&(&b.path, &b.message)));
    merged.notices.dedup_by(|a, b| a.path == b.path && a.message == b.message);
    merged.elapsed = started.elapsed();
    Ok(merged)
}

/// A file the walk reaches through a symbolic link inside the tree
/// (`tests/noop/modules -> ../../deployment/puppet`) and by its own path
/// gives the same findings twice: those under the link's name are dropped
/// where the same finding is reported at the file's own path.
fn drop_findings_through_links(findings: &mut Vec<Finding>, cwd: &std::path::Path) {
    // Paths resolved once each, looking only at links (one `lstat` a file
    // or directory): most findings share a few directories.
    let mut real_dirs: std::collections::HashMap<PathBuf, Option<PathBuf>> = std::collections::HashMap::new();
    let keys: Vec<Option<(PathBuf, bool)>> = findings
        .iter()
        .map(|finding| {
            let absolute = normalize(&finding.path, cwd);
            let real = match real_dirs.get(&absolute) {
                Some(known) => known.clone(),
                None => {
                    let resolved = real_path(&absolute, &mut real_dirs);
                    real_dirs.insert(absolute.clone(), resolved.clone());
                    resolved
                }
            }?;
            let through_link = real != absolute;
            Some((real, through_link))
        })
        .collect();
    if !keys.iter().flatten().any(|(_, through_link)| *through_link) {
        return;
    }
    let key = |finding: &Finding, real: &PathBuf| {
        (
            real.clone(),
            finding.span.start_pos.line,
            finding.span.start_pos.column,
            finding.rule,
            finding.message.clone(),
        )
    };
    let at_own_path: std::collections::HashSet<_> = findings
        .iter()
        .zip(&keys)
        .filter_map(|(finding, k)| k.as_ref().filter(|(_, through)| !through).map(|(real, _)| key(finding, real)))
        .collect();
    let mut index = 0;
    findings.retain(|finding| {
        let drop =
            keys[index].as_ref().is_some_and(|(real, through)| *through && at_own_path.contains(&key(finding, real)));
        index += 1;
        !drop
    });
}

/// `path` (absolute, normalised) with its symbolic links resolved.
fn real_path(
    path: &std::path::Path,
    real_dirs: &mut std::collections::HashMap<PathBuf, Option<PathBuf>>,
) -> Option<PathBuf> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else { return Some(path.to_path_buf()) };
    let parent = match real_dirs.get(parent) {
        Some(known) => known.clone(),
        None => {
            let resolved = real_path(parent, real_dirs);
            real_dirs.insert(parent.to_path_buf(), resolved.clone());
            resolved
        }
    }?;
    let joined = parent.join(name);
    match std::fs::symlink_metadata(&joined) {
        Ok(metadata) if metadata.file_type().is_symlink() => std::fs::canonicalize(&joined).ok(),
        Ok(_) => Some(joined),
        Err(_) => None,
    }
}

/// Checks `trees` as one tree, leaving out the `skipped` directories.
/// `config_roots` are the paths the configuration's path patterns are
/// relative to.
fn check_tree_group(
    trees: &[PathBuf],
    named: &[PathBuf],
    focus: Option<Focus>,
    skipped: &[PathBuf],
    config_roots: &[PathBuf],
    options: &CheckOptions,
    searched: &mut Searched,
) -> Result<CheckOutcome, CheckError> {
    let started = Instant::now();
    let exclude_patterns: Vec<String> = options.excludes.iter().chain(&options.settings.excludes).cloned().collect();
    let excludes = input::exclude_set(&exclude_patterns).map_err(CheckError::BadExclude)?;
    let module_path: Vec<PathBuf> = options.module_path.iter().chain(&options.settings.module_path).cloned().collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .stack_size(crate::WORKER_STACK_SIZE)
        .thread_name(|i| format!("mplint-worker-{i}"))
        .build()
        .map_err(CheckError::ThreadPool)?;

    // Paths are absolute and normalised from here on, whichever way the user
    // named them; reports show them relative to the working directory again.
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let display = PathDisplay::new(&cwd, &[trees, named].concat());
    let roots: Vec<PathBuf> = trees.iter().map(|p| normalize(p, &cwd)).collect();
    let named: Vec<PathBuf> = named.iter().map(|p| normalize(p, &cwd)).collect();
    let module_path: Vec<PathBuf> = module_path.iter().map(|p| normalize(p, &cwd)).collect();
    let stdin = options.stdin.as_ref().map(|(path, text)| (normalize(path, &cwd), text));
    // A named Hiera file is reported on (its interpolations), not parsed as
    // a manifest.
    let is_data = |path: &PathBuf| path.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json");
    let named_apart: Vec<&PathBuf> = named.iter().filter(|n| !roots.contains(n) && !is_data(n)).collect();
    let walked: Vec<PathBuf> = roots.iter().chain(named_apart.iter().copied()).cloned().collect();
    let on_disk = |paths: &mut dyn Iterator<Item = &PathBuf>| -> Vec<PathBuf> {
        paths.filter(|r| stdin.as_ref().is_none_or(|(path, _)| path != *r)).cloned().collect()
    };
    let (mut checked_paths, mut notices) =
        pool.install(|| input::discover(&on_disk(&mut roots.iter()), skipped, &excludes, &display));
    // A named file the walk of its tree found is not looked at again; one
    // the walk skips (ignored, or outside the trees) is read all the same.
    let unwalked = on_disk(&mut named_apart.iter().copied().filter(|n| checked_paths.binary_search(n).is_err()));
    if !unwalked.is_empty() {
        let (more, more_notices) = pool.install(|| input::discover(&unwalked, skipped, &excludes, &display));
        checked_paths.extend(more);
        checked_paths.sort();
        checked_paths.dedup();
        notices.extend(more_notices);
    }
    if let Some((path, _)) = &stdin {
        if !checked_paths.contains(path) {
            checked_paths.push(path.clone());
            checked_paths.sort();
        }
    }
    // A check of syntax alone reads no module path and builds no model.
    let (library_paths, workspace) = if options.syntax_only {
        (Vec::new(), None)
    } else {
        let (library_paths, workspace, library_notices) =
            pool.install(|| library(&roots, &module_path, skipped, config_roots, &excludes, &display, searched));
        notices.extend(library_notices);
        (library_paths, Some(workspace))
    };
    let checked_count = checked_paths.len();
    // `checked_paths` is sorted.
    let library_paths: Vec<PathBuf> =
        library_paths.into_iter().filter(|p| checked_paths.binary_search(p).is_err()).collect();
    let all_paths: Vec<PathBuf> = checked_paths.into_iter().chain(library_paths).collect();

    let results: Vec<Result<ParsedFile, Notice>> = pool.install(|| {
        all_paths
            .into_par_iter()
            .map(|path| {
                if let Some((_, text)) = stdin.as_ref().filter(|(p, _)| *p == path) {
                    return Ok(syntax::parse_file_cached(path, text.to_vec(), options.cache.as_ref()));
                }
                let bytes = input::read_source(&path).map_err(|err| {
                    let shown = display.show(&path);
                    Notice {
                        message: format!("cannot read {}: {err}", shown.display()),
                        path: shown,
                        kind: NoticeKind::Unreadable,
                        named: walked.contains(&path),
                    }
                })?;
                Ok(syntax::parse_file_cached(path, bytes, options.cache.as_ref()))
            })
            .collect()
    });

    let mut outcome = CheckOutcome::default();
    let mut reported = Vec::new();
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Ok(parsed) => {
                reported.push(i < checked_count);
                outcome.files.push(parsed);
            }
            Err(notice) => notices.push(notice),
        }
    }
    outcome.checked = reported.iter().filter(|r| **r).count();
    outcome.findings = match workspace {
        None => syntax_findings(&outcome.files, &reported, &options.settings, &roots),
        Some(mut workspace) => {
            workspace.roots = config_roots.to_vec();
            workspace.find_node_classifier_above(&roots, config_roots);
            workspace.read_tool_manifests(config_roots, searched);
            workspace.display = display.clone();
            workspace.include_functions = options.settings.include_functions.clone();
            workspace.compile_every_node = options.compile_every_node;
            workspace.declared_facts = options.settings.facts.clone();
            workspace.constraints = options.settings.constraints.clone();
            // A focus on every checked file (all of a tree's files named, as a
            // pre-commit hook run on every file does) is no focus: nothing to skip.
            let everything_named = focus
                .as_ref()
                .is_some_and(|focus| outcome.files[..outcome.checked].iter().all(|f| focus.contains(&f.source.path)));
            workspace.focus = focus.as_ref().filter(|_| !everything_named).map(|focus| {
                outcome.files.iter().map(|f| f.source.path.clone()).filter(|p| focus.contains(p)).collect()
            });
            workspace.record_values = records_values(&options.settings);
            notices.extend(workspace_notices(&workspace, &display));
            let results = options.cache.as_ref().map(ParseCache::root);
            pool.install(|| findings_kept(&outcome.files, reported, workspace, &options.settings, results))
        }
    };
    if let Some(focus) = &focus {
        outcome.findings.retain(|f| focus.concerns(f));
        // The files in focus first: those are the ones checked.
        let (mut files, others): (Vec<ParsedFile>, Vec<ParsedFile>) =
            std::mem::take(&mut outcome.files).into_iter().partition(|f| focus.contains(&f.source.path));
        outcome.checked = files.len();
        files.extend(others);
        outcome.files = files;
    }
    show_paths(&mut outcome, &display);
    notices.sort_by(|a, b| a.path.cmp(&b.path));
    outcome.notices = notices;
    outcome.elapsed = started.elapsed();
    Ok(outcome)
}

/// What a run says of the module path it assumed or could not find.
fn workspace_notices(workspace: &Workspace, display: &PathDisplay) -> Vec<Notice> {
    let mut notices = Vec::new();
    let assumed_dirs = workspace.assumed_module_dirs.iter().map(|dir| {
        (dir, "read as a directory of modules, though no environment.conf puts it on the module path (Puppet's default has only modules/); name it in environment.conf's modulepath")
    });
    let assumed_modules = workspace.assumed_modules.iter().map(|dir| {
        (dir, "read as a module on the module path (its classes are named after it), though no environment.conf puts it there (Puppet's default has only modules/); move it under modules/ or name its parent in environment.conf's modulepath")
    });
    for (dir, why) in assumed_dirs.chain(assumed_modules) {
        let shown = display.show(dir);
        notices.push(Notice {
            message: format!("{}: {why}", shown.display()),
            path: shown,
            kind: NoticeKind::AssumedModuleDir,
            named: false,
        });
    }
    for missing in &workspace.missing_entries {
        let conf = display.show(&missing.conf);
        notices.push(Notice {
            message: format!(
                "{}: modulepath entry `{}` is not in the checked tree; its modules are reported as missing-module where used (add them with --modulepath)",
                conf.display(),
                missing.entry
            ),
            path: conf,
            kind: NoticeKind::ModulepathEntry,
            named: false,
        });
    }
    notices
}

/// The files of the module path and of the modules the tree's tools
/// install, read for what they define, with the tree's workspace.
fn library(
    roots: &[PathBuf],
    module_path: &[PathBuf],
    skipped: &[PathBuf],
    config_roots: &[PathBuf],
    excludes: &globset::GlobSet,
    display: &PathDisplay,
    searched: &mut Searched,
) -> (Vec<PathBuf>, Workspace, Vec<Notice>) {
    let (mut library_paths, notices) = input::discover(module_path, &[], excludes, display);
    let mut workspace = Workspace::discover(roots, module_path);
    workspace.add_tool_module_dirs(config_roots, searched);
    // Modules of the tree's own module path that ignore rules hide (installed
    // by r10k or a Puppetfile into an ignored `modules/`): Puppet loads them,
    // so they are read for what they define, not reported on.
    let tree_module_dirs: Vec<PathBuf> = workspace
        .module_dirs
        .iter()
        .filter(|dir| roots.iter().any(|root| dir.starts_with(root)))
        .filter(|dir| !skipped.iter().any(|s| dir.starts_with(s)))
        .cloned()
        .collect();
    if !tree_module_dirs.is_empty() {
        let (hidden, _) = input::discover_ignored_too(&tree_module_dirs, skipped, excludes, display);
        library_paths.extend(hidden);
        library_paths.sort();
        library_paths.dedup();
    }
    // Single modules outside the checked paths (those the code directory's
    // Puppetfile installs from the tree, for an environment checked apart),
    // and directories of modules there that an environment's modulepath
    // names (`../../modules/custom`), within the checked tree, are read for
    // what they define.
    let outside = |dir: &&PathBuf| !roots.iter().chain(module_path).any(|root| dir.starts_with(root));
    let in_checked_tree = |dir: &&PathBuf| config_roots.iter().any(|root| dir.starts_with(root));
    // A tree checked apart (an environment inside this one) may hold a
    // directory of this tree's module path (a Vagrant box's `../../puppet/modules`).
    let in_tree_apart = |dir: &&PathBuf| skipped.iter().any(|s| dir.starts_with(s));
    let outside_modules: Vec<PathBuf> = workspace
        .single_modules
        .keys()
        .filter(outside)
        .chain(workspace.module_dirs.iter().filter(|d| outside(d) || in_tree_apart(d)).filter(in_checked_tree))
        .cloned()
        .collect();
    if !outside_modules.is_empty() {
        let (found, _) = input::discover(&outside_modules, &[], excludes, display);
        library_paths.extend(found);
        library_paths.sort();
        library_paths.dedup();
    }
    (library_paths, workspace, notices)
}

/// Turns the absolute paths of files and findings into the ones reports show.
fn show_paths(outcome: &mut CheckOutcome, display: &PathDisplay) {
    for file in &mut outcome.files {
        file.source.path = display.show(&file.source.path);
    }
    for finding in &mut outcome.findings {
        finding.path = display.show(&finding.path);
        for place in finding.related.iter_mut().chain(finding.flow.iter_mut()) {
            place.path = display.show(&place.path);
        }
    }
    // Showing paths relative can change their order (`../b` before `a`).
    if !outcome.findings.is_sorted_by(|a, b| a.sort_key() <= b.sort_key()) {
        outcome.findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }
}

/// Findings for parsed files: each file's own, then the semantic model's.
/// `reported[i]` says whether findings in `files[i]` are wanted.
pub fn analyse(files: &[ParsedFile], reported: Vec<bool>, workspace: Workspace) -> Vec<Finding> {
    analyse_kept(files, reported, workspace, None)
}

/// As [`analyse`], taking each entry point's findings from the results
/// kept under `results` (a cache's root) where they still hold, and keeping
/// there those it works out.
pub fn analyse_kept(
    files: &[ParsedFile],
    reported: Vec<bool>,
    workspace: Workspace,
    results: Option<&Path>,
) -> Vec<Finding> {
    let facts = |workspace: &Workspace| {
        crate::model::facts::Facts::discover(workspace, &crate::model::module_copies(files, workspace))
    };
    analyse_facts_kept(files, reported, workspace, facts, results)
}

/// As [`analyse`], with the facts given.
pub fn analyse_with_facts(
    files: &[ParsedFile],
    reported: Vec<bool>,
    workspace: Workspace,
    facts: crate::model::facts::Facts,
) -> Vec<Finding> {
    analyse_facts_kept(files, reported, workspace, |_: &Workspace| facts, None)
}

/// `facts` finds the facts the workspace declares.
fn analyse_facts_kept(
    files: &[ParsedFile],
    reported: Vec<bool>,
    workspace: Workspace,
    facts: impl FnOnce(&Workspace) -> crate::model::facts::Facts + Send,
    results: Option<&Path>,
) -> Vec<Finding> {
    // The rules of single files run while the facts are found and the
    // model is built.
    let file_findings = || -> Vec<Finding> {
        files
            .par_iter()
            .zip(&reported)
            .filter(|(_, reported)| **reported)
            .flat_map_iter(|(file, _)| rules::check_file(file))
            .collect()
    };
    let (mut findings, model) =
        rayon::join(file_findings, || Model::new_finding_facts(files, reported.clone(), workspace, facts));
    let rules = rules::CompilationRules::new(&model);
    let kept = results.map(|root| crate::result_cache::ResultCache::new(root, &rules));
    let store = kept.as_ref().map(|kept| kept as &dyn crate::model::EntryStore<_>);
    let model_findings = match model.focus() {
        None => {
            // The checks of the index alone take the threads compilations
            // leave idle.
            let (checked, index_found) = rayon::join(
                || match store {
                    Some(store) => model.compile_into_stored(|| rules.sink(), store),
                    None => model.compile_into(|| rules.sink()),
                },
                || rules::index_findings(&model),
            );
            rules::ModelChecker::with_compilations(&model, checked).finish_with(index_found)
        }
        Some(focus) => {
            // A second run for a wider focus takes what the first found
            // for the entry points both have.
            let mut earlier = EntryResults::default();
            let index_found = rules::index_findings(&model);
            let check = |focus: &BTreeSet<FileId>, earlier: &mut _| {
                let checked = model.compile_focused(|| rules.sink(), focus, earlier, store);
                rules::ModelChecker::with_compilations(&model, checked).finish_with(index_found.clone())
            };
            let mut findings = check(focus, &mut earlier);
            let widened = files_for_related_places(&model, &findings).and_then(|more| model.widened_focus(focus, more));
            if let Some(widened) = widened {
                findings = check(&widened, &mut earlier);
            }
            findings
        }
    };
    findings.extend(model_findings);
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings
}

/// When a run reports on some files only, the other files whose
/// compilations can add to what it reports: those that findings about the
/// focused files sit in (each lists related places from every compilation
/// that touches it), and those that use a missing module a focused file uses
/// (its finding counts every use).
fn files_for_related_places(model: &Model, findings: &[Finding]) -> Option<Vec<FileId>> {
    let focus = model.focus()?;
    let file_of: std::collections::HashMap<&Path, FileId> =
        model.files.iter().enumerate().map(|(i, f)| (f.source.path.as_path(), i)).collect();
    let focused = |path: &Path| file_of.get(path).is_some_and(|id| focus.contains(id));
    let mut more = Vec::new();
    for finding in findings {
        if !finding.related.iter().chain(&finding.flow).any(|r| focused(&r.path)) && !focused(&finding.path) {
            continue;
        }
        more.extend(file_of.get(finding.path.as_path()).copied());
        if let Some(module) = rules::missing_module::module_of_finding(finding) {
            more.extend(model.files_naming_module(module));
        }
    }
    Some(more)
}

/// Everything a run reports for parsed files: [`analyse`], then the
/// configured levels, then in-source suppressions.
pub fn findings(files: &[ParsedFile], reported: Vec<bool>, workspace: Workspace, settings: &Settings) -> Vec<Finding> {
    findings_kept(files, reported, workspace, settings, None)
}

/// As [`findings`], with the results kept under `results` ([`analyse_kept`]).
pub fn findings_kept(
    files: &[ParsedFile],
    reported: Vec<bool>,
    workspace: Workspace,
    settings: &Settings,
    results: Option<&Path>,
) -> Vec<Finding> {
    let mut workspace = workspace;
    workspace.record_values |= records_values(settings);
    let roots = workspace.roots.clone();
    let mut findings = analyse_kept(files, reported.clone(), workspace, results);
    configure(&mut findings, settings, &roots);
    // Policy constraints are rules too: their ids can be suppressed. A
    // suppression is called useless only for a rule on in every file.
    let enabled = rules::ALL_RULES
        .iter()
        .map(|r| r.id)
        .chain(settings.constraints.iter().map(|c| c.id))
        .filter(|id| settings.on_everywhere(id))
        .collect();
    let constraints = settings.constraints.iter().map(|c| c.id).collect();
    rules::useless_suppression::apply(files, &reported, &enabled, &constraints, &mut findings);
    configure(&mut findings, settings, &roots);
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings
}

/// Whether a rule that looks at evaluated values is on: only then does the
/// interpreter keep them (it costs time and memory on large trees).
fn records_values(settings: &Settings) -> bool {
    rules::SECURITY_RULES.iter().any(|r| settings.on_somewhere(r.id))
}

/// What each reported file alone shows, with the configured levels and
/// suppressions.
fn syntax_findings(files: &[ParsedFile], reported: &[bool], settings: &Settings, roots: &[PathBuf]) -> Vec<Finding> {
    let mut findings: Vec<Finding> =
        files.iter().zip(reported).filter(|(_, r)| **r).flat_map(|(file, _)| rules::check_file(file)).collect();
    configure(&mut findings, settings, roots);
    // Only the single-file rules ran: a suppression of another rule is not useless.
    let enabled = rules::FILE_RULES.iter().map(|(rule, _)| rule.id).filter(|id| settings.on_everywhere(id)).collect();
    let constraints = settings.constraints.iter().map(|c| c.id).collect();
    rules::useless_suppression::apply(files, reported, &enabled, &constraints, &mut findings);
    configure(&mut findings, settings, roots);
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings
}

/// Applies the configured levels, for each finding's file (`roots`: the
/// checked files and directories, absolute, as finding paths are here):
/// findings of rules turned off go. A rule left at its default keeps the
/// lower level of its less certain findings.
pub fn configure(findings: &mut Vec<Finding>, settings: &Settings, roots: &[PathBuf]) {
    findings.retain_mut(|f| match settings.level_at(f.rule, crate::paths::relative_to_roots(&f.path, roots)) {
        Some(level) => {
            let default = rules::ALL_RULES.iter().find(|r| r.id == f.rule).map(|r| r.default_level);
            if default != Some(level) {
                f.level = level;
            }
            true
        }
        None => false,
    });
}
