//! Finding the manifests to check: explicit files, and `*.pp` files under
//! directories (honouring `.gitignore`, following symbolic links).

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::WalkBuilder;

/// Something that kept a path from being checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Notice {
    pub path: PathBuf,
    pub kind: NoticeKind,
    pub message: String,
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
}

/// Folders of version-control systems, never walked.
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

fn is_excluded(excludes: &GlobSet, path: &Path, root: &Path) -> bool {
    if excludes.is_empty() {
        return false;
    }
    let display = clean(path);
    let relative = path.strip_prefix(root).unwrap_or(path);
    excludes.is_match(&display)
        || excludes.is_match(relative)
        || path.file_name().is_some_and(|name| excludes.is_match(Path::new(name)))
}

/// `./a/b.pp` → `a/b.pp`.
pub fn clean(path: &Path) -> PathBuf {
    let cleaned: PathBuf = path.components().filter(|c| !matches!(c, Component::CurDir)).collect();
    if cleaned.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        cleaned
    }
}

/// The manifests to check, sorted, each once, and what could not be walked.
pub fn discover(paths: &[PathBuf], excludes: &GlobSet) -> (Vec<PathBuf>, Vec<Notice>) {
    let mut files = Vec::new();
    let mut notices = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |path: PathBuf, files: &mut Vec<PathBuf>| {
        // The same file under two names is two files to Puppet (two module
        // names, say), so only the same path counts as a repeat.
        let identity = std::path::absolute(clean(&path)).unwrap_or_else(|_| path.clone());
        if seen.insert(identity) {
            files.push(clean(&path));
        }
    };
    for root in paths {
        let metadata = match std::fs::metadata(root) {
            Ok(m) => m,
            Err(err) => {
                let kind = if err.kind() == std::io::ErrorKind::NotFound {
                    NoticeKind::NotFound
                } else {
                    NoticeKind::Unreadable
                };
                notices.push(Notice {
                    path: root.clone(),
                    kind,
                    message: format!("cannot check {}: {err}", root.display()),
                });
                continue;
            }
        };
        if !metadata.is_dir() {
            // A file named explicitly is checked whatever its extension.
            if !is_excluded(excludes, root, Path::new("")) {
                add(root.clone(), &mut files);
            }
            continue;
        }
        let excludes_for_walk = excludes.clone();
        let walk_root = root.clone();
        let walker = WalkBuilder::new(root)
            .follow_links(true)
            .hidden(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .filter_entry(move |entry| {
                let name = entry.file_name().to_string_lossy();
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                let is_vcs = is_dir && VCS_DIRS.contains(&name.as_ref());
                !is_vcs && !is_excluded(&excludes_for_walk, entry.path(), &walk_root)
            })
            .build();
        for entry in walker {
            match entry {
                Ok(entry) => {
                    let is_file = entry.file_type().is_some_and(|t| t.is_file());
                    if is_file && entry.path().extension().is_some_and(|ext| ext == "pp") {
                        add(entry.into_path(), &mut files);
                    }
                }
                Err(err) => notices.push(walk_notice(err)),
            }
        }
    }
    files.sort();
    (files, notices)
}

fn walk_notice(err: ignore::Error) -> Notice {
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
    let message = match kind {
        NoticeKind::LinkLoop => {
            format!("skipped {}: the symbolic link leads back into a directory being checked", path.display())
        }
        _ => format!("cannot read {}: {err}", path.display()),
    };
    Notice { path: clean(&path), kind, message }
}
