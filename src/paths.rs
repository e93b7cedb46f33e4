//! Paths: absolute and normalised inside, relative to the working directory
//! only when shown.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against `cwd`, with `.` and `..` resolved
/// lexically (a symbolic link keeps its own name, as Puppet's module
/// directories do).
pub fn normalize(path: &Path, cwd: &Path) -> PathBuf {
    let joined = if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// How paths are shown in reports: relative to the working directory when
/// they lie under it or under a path the user named relatively, as named
/// otherwise.
#[derive(Debug, Clone, Default)]
pub struct PathDisplay {
    cwd: Option<PathBuf>,
    /// The normalised forms of the paths named relatively.
    relative_roots: Vec<PathBuf>,
}

impl PathDisplay {
    pub fn new(cwd: &Path, named: &[PathBuf]) -> PathDisplay {
        let relative_roots = named.iter().filter(|p| p.is_relative()).map(|p| normalize(p, cwd)).collect();
        PathDisplay { cwd: Some(cwd.to_path_buf()), relative_roots }
    }

    /// The same display without the named paths that change nothing:
    /// those under the working directory, whose paths show relative anyway.
    pub fn without_redundant_roots(&self) -> PathDisplay {
        let cwd = self.cwd.clone();
        let relative_roots = self
            .relative_roots
            .iter()
            .filter(|root| !cwd.as_ref().is_some_and(|cwd| root.starts_with(cwd)))
            .cloned()
            .collect();
        PathDisplay { cwd, relative_roots }
    }

    pub fn show(&self, path: &Path) -> PathBuf {
        let Some(cwd) = &self.cwd else { return path.to_path_buf() };
        if !path.is_absolute() {
            return path.to_path_buf();
        }
        if let Ok(inside) = path.strip_prefix(cwd) {
            return if inside.as_os_str().is_empty() { PathBuf::from(".") } else { inside.to_path_buf() };
        }
        if self.relative_roots.iter().any(|root| path.starts_with(root)) {
            if let Some(relative) = pathdiff::diff_paths(path, cwd) {
                return relative;
            }
        }
        path.to_path_buf()
    }
}

/// A path relative to the checked file or directory it is in (the
/// nearest, when they nest), or its name when it was named alone: what
/// policy path globs match. Paths and roots are absolute.
pub fn relative_to_roots<'p>(path: &'p Path, roots: &[PathBuf]) -> &'p Path {
    roots
        .iter()
        .filter_map(|root| match path.strip_prefix(root) {
            Ok(rest) if !rest.as_os_str().is_empty() => Some(rest),
            Ok(_) => path.file_name().map(Path::new),
            Err(_) => None,
        })
        .min_by_key(|rest| rest.components().count())
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_forms() {
        let cwd = Path::new("/site/manifests");
        for (given, expected) in [
            (".", "/site/manifests"),
            ("./", "/site/manifests"),
            ("..", "/site"),
            ("../modules/./a/../b", "/site/modules/b"),
            ("/x/y/", "/x/y"),
        ] {
            assert_eq!(normalize(Path::new(given), cwd), PathBuf::from(expected), "{given}");
        }
    }

    #[test]
    fn shown_relative_to_the_working_directory() {
        let cwd = Path::new("/site/manifests");
        let display = PathDisplay::new(cwd, &[PathBuf::from(".."), PathBuf::from("/elsewhere")]);
        assert_eq!(display.show(Path::new("/site/manifests/site.pp")), PathBuf::from("site.pp"));
        assert_eq!(display.show(Path::new("/site/modules/a/init.pp")), PathBuf::from("../modules/a/init.pp"));
        assert_eq!(display.show(Path::new("/elsewhere/b.pp")), PathBuf::from("/elsewhere/b.pp"));
        assert_eq!(display.show(Path::new("/site/manifests")), PathBuf::from("."));
        assert_eq!(PathDisplay::default().show(Path::new("case.pp")), PathBuf::from("case.pp"));
    }
}
