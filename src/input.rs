//! Finding the manifests to check: explicit files, and `*.pp` files under
//! directories (honouring `.gitignore`, following symbolic links).

use std::collections::HashSet;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::WalkBuilder;

use crate::paths::PathDisplay;

/// Something that kept a path from being checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Notice {
    pub path: PathBuf,
    pub kind: NoticeKind,
    pub message: String,
    /// The user named this path: it not being checked is a usage error.
    #[serde(skip)]
    pub named: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoticeKind {
    /// A path named on the command line does not exist.
    NotFound,
    /// A file or directory could not be read.
    Unreadable,
    /// A symbolic link leads back into a directory being walked.
    LinkLoop,
    /// An `environment.conf` modulepath entry is not in the checked tree.
    ModulepathEntry,
    /// A directory of modules, or a module, is read as on the module path,
    /// though nothing puts it there.
    AssumedModuleDir,
}

impl NoticeKind {
    /// What the layout of the tree makes mplint assume: a note, not a
    /// failure to read.
    pub fn is_layout_note(self) -> bool {
        matches!(self, NoticeKind::ModulepathEntry | NoticeKind::AssumedModuleDir)
    }
}

/// Folders of version-control systems, never walked (nor `spec/fixtures`,
/// nor a module's `files`).
const VCS_DIRS: &[&str] = &[".git", ".hg", ".svn", ".bzr", "_darcs", "CVS"];

/// Compiles `--exclude` patterns. A pattern without `/` matches a file or
/// directory name anywhere; one with `/` matches the path.
pub fn exclude_set(patterns: &[String]) -> Result<GlobSet, globset::Error> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        builder.add(Glob::new(pattern)?);
        if pattern.contains('/') {
            // `dir/sub` also excludes everything below it.
            builder.add(Glob::new(&format!("{pattern}/**"))?);
        }
    }
    builder.build()
}

fn is_excluded(excludes: &GlobSet, path: &Path, root: &Path, display: &PathDisplay) -> bool {
    if excludes.is_empty() {
        return false;
    }
    let relative = path.strip_prefix(root).unwrap_or(path);
    excludes.is_match(display.show(path))
        || excludes.is_match(relative)
        || path.file_name().is_some_and(|name| excludes.is_match(Path::new(name)))
}

/// The manifests to check, sorted, each once, and what could not be walked.
/// `roots` are absolute and normalised ([`crate::paths::normalize`]); so are
/// the files found, and `skipped`, directories the walk leaves out. Notices
/// name paths as `display` shows them. Files that `.gitignore` (or
/// `.ignore`) rules leave out are not found.
pub fn discover(
    roots: &[PathBuf],
    skipped: &[PathBuf],
    excludes: &GlobSet,
    display: &PathDisplay,
) -> (Vec<PathBuf>, Vec<Notice>) {
    walk(roots, skipped, excludes, display, true)
}

/// As [`discover`], without `.gitignore` and `.ignore` rules: for the
/// module path, whose modules a deployment tool often installs into an
/// ignored directory.
pub fn discover_ignored_too(
    roots: &[PathBuf],
    skipped: &[PathBuf],
    excludes: &GlobSet,
    display: &PathDisplay,
) -> (Vec<PathBuf>, Vec<Notice>) {
    walk(roots, skipped, excludes, display, false)
}

fn walk(
    roots: &[PathBuf],
    skipped: &[PathBuf],
    excludes: &GlobSet,
    display: &PathDisplay,
    ignore_rules: bool,
) -> (Vec<PathBuf>, Vec<Notice>) {
    let mut files = Vec::new();
    let mut notices = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |path: PathBuf, files: &mut Vec<PathBuf>| {
        // The same file under two names is two files to Puppet (two module
        // names, say), so only the same path counts as a repeat.
        if seen.insert(path.clone()) {
            files.push(path);
        }
    };
    // Several directories are walked side by side, each on one thread.
    let metadata: Vec<std::io::Result<std::fs::Metadata>> = roots.iter().map(std::fs::metadata).collect();
    let dirs: Vec<usize> = (0..roots.len()).filter(|&i| metadata[i].as_ref().is_ok_and(|m| m.is_dir())).collect();
    let mut dir_walks: std::collections::HashMap<usize, (Vec<PathBuf>, Vec<Notice>)> = if dirs.len() > 1 {
        use rayon::prelude::*;
        dirs.par_iter().map(|&i| (i, walk_dir(&roots[i], skipped, excludes, display, ignore_rules, false))).collect()
    } else {
        Default::default()
    };
    for ((index, root), metadata) in roots.iter().enumerate().zip(metadata) {
        let metadata = match metadata {
            Ok(m) => m,
            Err(err) => {
                let kind = if err.kind() == std::io::ErrorKind::NotFound {
                    NoticeKind::NotFound
                } else {
                    NoticeKind::Unreadable
                };
                let shown = display.show(root);
                notices.push(Notice {
                    message: format!("cannot check {}: {err}", shown.display()),
                    path: shown,
                    kind,
                    named: true,
                });
                continue;
            }
        };
        if !metadata.is_dir() {
            // A device or socket is no manifest, and reading one may never
            // end (`/dev/zero`, a terminal); a pipe is read (`<(git show …)`).
            if !metadata.is_file() && !metadata.file_type().is_fifo() {
                let shown = display.show(root);
                notices.push(Notice {
                    message: format!("cannot check {}: not a file or a directory", shown.display()),
                    path: shown,
                    kind: NoticeKind::Unreadable,
                    named: true,
                });
                continue;
            }
            // A file named explicitly is checked whatever its extension.
            if !is_excluded(excludes, root, root, display) {
                add(root.clone(), &mut files);
            }
            continue;
        }
        let (walked, walk_notices) = match dir_walks.remove(&index) {
            Some(found) => found,
            None => walk_dir(root, skipped, excludes, display, ignore_rules, true),
        };
        for path in walked {
            add(path, &mut files);
        }
        notices.extend(walk_notices);
    }
    files.sort();
    (files, notices)
}

/// The manifests under one directory, sorted, and what is worth saying of
/// what the walk could not read. `parallel`: the walk itself runs on
/// several threads (one directory checked); else on this one.
fn walk_dir(
    root: &Path,
    skipped: &[PathBuf],
    excludes: &GlobSet,
    display: &PathDisplay,
    ignore_rules: bool,
    parallel: bool,
) -> (Vec<PathBuf>, Vec<Notice>) {
    let excludes_for_walk = excludes.clone();
    let walk_root = root.to_path_buf();
    let walk_display = display.clone();
    let walk_skipped = skipped.to_vec();
    // What the walk finds is sorted below.
    let found = std::sync::Mutex::new((Vec::new(), Vec::new()));
    // A link to a directory holding the tree (`env/production -> ../..`)
    // leads back into it, and to whatever lies beside it: not followed.
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let holding_links = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let holding_links_seen = holding_links.clone();
    let mut builder = WalkBuilder::new(root);
    builder
        .follow_links(true)
        .hidden(false)
        .git_ignore(ignore_rules)
        .git_exclude(ignore_rules)
        .git_global(ignore_rules)
        .ignore(ignore_rules)
        .filter_entry(move |entry| {
            let name = entry.file_name().to_string_lossy();
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let is_vcs = is_dir && VCS_DIRS.contains(&name.as_ref());
            // Puppet loads no module or manifest from a hidden directory
            // (`modules/.deprecated/`, a tool's `.kitchen/` copies); one on
            // the module path (Bolt's `.modules`) is walked as an entry of it.
            let is_hidden = is_dir && entry.depth() > 0 && name.starts_with('.');
            // Modules a test harness installs, not the tree's own code.
            let is_fixtures = is_dir
                && name == "fixtures"
                && entry.path().parent().and_then(|p| p.file_name()).is_some_and(|p| p == "spec");
            // What a module serves to agents (`.pp` is also SELinux's
            // compiled policy), renders as text or loads as Ruby
            // plugins (`lib/`): never read as manifests.
            let in_module = || {
                entry.path().parent().is_some_and(|p| p.join("manifests").is_dir() || p.join("metadata.json").is_file())
            };
            // A module of plugins only has no `manifests/`.
            let plugins = || ["puppet", "facter"].iter().any(|d| entry.path().join(d).is_dir());
            // `pkg/` holds what `puppet module build` or the PDK made of
            // the module: a copy of its code that Puppet never loads.
            let is_served = is_dir
                && match name.as_ref() {
                    "files" | "templates" | "pkg" => in_module(),
                    "lib" => in_module() || plugins(),
                    _ => false,
                };
            let is_skipped = is_dir && walk_skipped.iter().any(|s| s == entry.path());
            let holds_the_tree = is_dir
                && entry.path_is_symlink()
                && std::fs::canonicalize(entry.path())
                    .is_ok_and(|target| canonical_root.starts_with(&target) && target != canonical_root);
            if holds_the_tree {
                holding_links_seen.lock().expect("no walker panics").push(entry.path().to_path_buf());
            }
            !holds_the_tree
                && !is_vcs
                && !is_hidden
                && !is_fixtures
                && !is_served
                && !is_skipped
                && !is_excluded(&excludes_for_walk, entry.path(), &walk_root, &walk_display)
        })
        .threads(rayon::current_num_threads());
    let take = |entry: Result<ignore::DirEntry, ignore::Error>| {
        let mut found = found.lock().expect("no walker panics");
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|t| t.is_file());
                if is_file && entry.path().extension().is_some_and(|ext| ext == "pp") {
                    found.0.push(entry.into_path());
                }
            }
            Err(err) => found.1.extend(walk_notice(err, display)),
        }
    };
    if parallel {
        builder.build_parallel().run(|| {
            Box::new(|entry| {
                take(entry);
                ignore::WalkState::Continue
            })
        });
    } else {
        builder.build().for_each(take);
    }
    let (mut walked, mut walk_notices) = found.into_inner().expect("no walker panics");
    for link in holding_links.lock().expect("no walker panics").drain(..) {
        let path = display.show(&link);
        let message =
            format!("skipped {}: the symbolic link leads to a directory that holds the checked tree", path.display());
        walk_notices.push(Notice { path, kind: NoticeKind::LinkLoop, message, named: false });
    }
    walked.sort();
    walk_notices.sort_by(|a, b| (&a.path, &a.message).cmp(&(&b.path, &b.message)));
    (walked, walk_notices)
}

/// What a walk error is worth saying: a link loop, an unreadable directory
/// or manifest; nothing for other files (a dangling `files/.my.cnf` link is
/// no concern of a Puppet linter).
fn walk_notice(err: ignore::Error, display: &PathDisplay) -> Option<Notice> {
    let mut path = PathBuf::new();
    let mut kind = NoticeKind::Unreadable;
    let mut current = &err;
    loop {
        match current {
            ignore::Error::WithPath { path: p, err } => {
                path = p.clone();
                current = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => current = err,
            ignore::Error::Loop { child, .. } => {
                path = child.clone();
                kind = NoticeKind::LinkLoop;
                break;
            }
            _ => break,
        }
    }
    let is_manifest = path.extension().is_some_and(|ext| ext == "pp");
    if kind == NoticeKind::Unreadable && !is_manifest && !path.is_dir() {
        return None;
    }
    let path = display.show(&path);
    let message = match kind {
        NoticeKind::LinkLoop => {
            format!("skipped {}: the symbolic link leads back into a directory being checked", path.display())
        }
        _ => format!("cannot read {}: {err}", path.display()),
    };
    Some(Notice { path, kind, message, named: false })
}

/// Reads a manifest, at most one byte past what mplint checks, so that a
/// file that never ends is not read for ever. A named pipe is opened
/// without waiting for a writer: with none, it reads as empty.
pub fn read_source(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    // Reads wait again: a pipe's writer may be slow to write.
    // SAFETY: `fcntl` on a descriptor this function owns; no memory is passed.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    let size = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
    let limit = crate::syntax::MAX_FILE_BYTES + 1;
    let mut bytes = Vec::with_capacity(size.min(limit));
    file.take(limit as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}
