//! Puppet layouts: which files are site manifests, which belong to which
//! module (and under what autoload name), and which stand alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a manifest sits in a Puppet layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRole {
    /// Part of an environment's `manifests/` directory (the site manifest).
    /// The site is identified by its environment root.
    Site { root: PathBuf },
    /// `<module>/manifests/<path>.pp` of a module on the module path.
    Module { module: String },
    /// Anything else (a module's `examples/`, a loose file): applied on its
    /// own, like `puppet apply FILE`.
    Standalone,
}

/// A module name Puppet accepts.
pub fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The layout of the checked tree.
#[derive(Debug, Default, Clone)]
pub struct Workspace {
    /// Environment roots (directories with `manifests/` as the site).
    pub environments: Vec<PathBuf>,
    /// Directories whose children are modules, in search order.
    pub module_dirs: Vec<PathBuf>,
    /// Single modules checked on their own, by directory.
    pub single_modules: BTreeMap<PathBuf, String>,
    /// How paths are shown in messages.
    pub display: crate::paths::PathDisplay,
}

fn read_environment_modulepath(root: &Path) -> Option<Vec<PathBuf>> {
    let conf = std::fs::read_to_string(root.join("environment.conf")).ok()?;
    for line in conf.lines() {
        let line = line.trim();
        if let Some(value) = line.strip_prefix("modulepath") {
            let value = value.trim_start().strip_prefix('=')?.trim();
            return Some(
                value
                    .split(':')
                    .map(str::trim)
                    .filter(|entry| !entry.is_empty() && !entry.starts_with('$'))
                    .map(|entry| root.join(entry))
                    .collect(),
            );
        }
    }
    None
}

/// The module name declared in `metadata.json` (`author-name` → `name`).
fn metadata_module_name(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("metadata.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let full = json.get("name")?.as_str()?;
    let short = full.rsplit(['-', '/']).next()?.to_string();
    is_module_name(&short).then_some(short)
}

fn looks_like_module(dir: &Path) -> bool {
    dir.join("manifests/init.pp").is_file() || dir.join("metadata.json").is_file()
}

fn is_environment(dir: &Path) -> bool {
    dir.join("environment.conf").is_file()
        || dir.join("manifests/site.pp").is_file()
        || (dir.join("manifests").is_dir() && ["modules", "site-modules", "site"].iter().any(|m| dir.join(m).is_dir()))
}

impl Workspace {
    /// Recognises environments, module directories and single modules among
    /// the checked paths; `module_path` adds directories of modules. Paths
    /// are absolute and normalised ([`crate::paths::normalize`]).
    pub fn discover(paths: &[PathBuf], module_path: &[PathBuf]) -> Workspace {
        let mut ws = Workspace::default();
        for path in paths {
            let path = path.clone();
            if !path.is_dir() {
                ws.place_file(&path);
                continue;
            }
            if is_environment(&path) {
                ws.environments.push(path.clone());
                let dirs = read_environment_modulepath(&path)
                    .unwrap_or_else(|| ["site-modules", "site", "modules"].iter().map(|m| path.join(m)).collect());
                ws.module_dirs.extend(dirs.into_iter().filter(|d| d.is_dir()));
            } else if looks_like_module(&path) {
                let name = metadata_module_name(&path)
                    .or_else(|| path_name(&path).filter(|n| is_module_name(n)))
                    .unwrap_or_else(|| "main".into());
                ws.single_modules.insert(path.clone(), name);
            } else if child_dirs(&path).iter().any(|child| looks_like_module(child) || child.join("manifests").is_dir())
            {
                ws.module_dirs.push(path.clone());
            } else if path.join("manifests").is_dir() {
                ws.environments.push(path.clone());
            }
        }
        ws.module_dirs.extend(module_path.iter().cloned());
        ws.module_dirs.dedup();
        // Modules inside a module (test fixtures) are not on the module path.
        let outer = ws.module_dirs.clone();
        let nested = |p: &PathBuf| outer.iter().any(|o| o != p && p.starts_with(o));
        ws.module_dirs.retain(|d| !nested(d));
        ws.environments.retain(|e| !nested(e));
        ws
    }

    /// A file named on its own: its layout is read from its ancestors, so
    /// that `modules/a/manifests/x.pp` is module `a`'s whichever way it is
    /// named.
    fn place_file(&mut self, file: &Path) {
        let Some(manifests) = file.ancestors().skip(1).find(|a| a.file_name().is_some_and(|n| n == "manifests")) else {
            return;
        };
        let Some(owner) = manifests.parent() else { return };
        let owner = if owner.as_os_str().is_empty() { Path::new(".") } else { owner };
        if is_environment(owner) {
            if !self.environments.iter().any(|e| e == owner) {
                self.environments.push(owner.to_path_buf());
            }
        } else if let Some(modules) = owner.parent() {
            let modules =
                if modules.as_os_str().is_empty() { Path::new(".").to_path_buf() } else { modules.to_path_buf() };
            if !self.module_dirs.contains(&modules) {
                self.module_dirs.push(modules);
            }
        }
    }

    /// The role of a file in this layout.
    pub fn role(&self, file: &Path) -> FileRole {
        for env in &self.environments {
            if file.starts_with(env.join("manifests")) {
                return FileRole::Site { root: env.clone() };
            }
        }
        for (dir, name) in &self.single_modules {
            if file.starts_with(dir.join("manifests")) {
                return FileRole::Module { module: name.clone() };
            }
        }
        for modules in &self.module_dirs {
            if let Ok(rest) = file.strip_prefix(modules) {
                let mut parts = rest.components();
                let module = parts.next().map(|c| c.as_os_str().to_string_lossy().into_owned());
                let manifests = parts.next().map(|c| c.as_os_str().to_string_lossy().into_owned());
                if let (Some(module), Some("manifests")) = (module, manifests.as_deref()) {
                    if is_module_name(&module) {
                        return FileRole::Module { module };
                    }
                }
            }
        }
        FileRole::Standalone
    }

    /// Every module directory, by module name (first one on the path wins).
    pub fn modules(&self) -> BTreeMap<String, PathBuf> {
        let mut modules = BTreeMap::new();
        for (dir, name) in &self.single_modules {
            modules.entry(name.clone()).or_insert_with(|| dir.clone());
        }
        for dir in &self.module_dirs {
            for child in child_dirs(dir) {
                if let Some(name) = path_name(&child).filter(|n| is_module_name(n)) {
                    modules.entry(name).or_insert(child);
                }
            }
        }
        modules
    }
}

/// The file Puppet's autoloader reads for a class or defined type:
/// `a` → `a/manifests/init.pp`, `a::b::c` → `a/manifests/b/c.pp`.
pub fn autoload_path(name: &str) -> PathBuf {
    let mut parts = name.trim_start_matches("::").split("::");
    let module = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    let mut path = PathBuf::from(module).join("manifests");
    if rest.is_empty() {
        path.push("init.pp");
    } else {
        for part in &rest[..rest.len() - 1] {
            path.push(part);
        }
        path.push(format!("{}.pp", rest[rest.len() - 1]));
    }
    path
}

fn path_name(path: &Path) -> Option<String> {
    let name = std::fs::canonicalize(path).ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    let own = path.file_name().map(|n| n.to_string_lossy().into_owned());
    // A symlinked module is known by the link's name.
    own.or(name)
}

fn child_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autoload_paths() {
        assert_eq!(autoload_path("apache"), PathBuf::from("apache/manifests/init.pp"));
        assert_eq!(autoload_path("apache::mod::ssl"), PathBuf::from("apache/manifests/mod/ssl.pp"));
        assert_eq!(autoload_path("::ntp::config"), PathBuf::from("ntp/manifests/config.pp"));
    }

    #[test]
    fn module_names() {
        assert!(is_module_name("apache"));
        assert!(is_module_name("mod_2"));
        assert!(!is_module_name("saz-rsyslog"));
        assert!(!is_module_name("Apache"));
        assert!(!is_module_name(""));
    }

    #[test]
    fn roles_in_a_control_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for p in [
            "manifests/site.pp",
            "site-modules/role/manifests/web.pp",
            "modules/ntp/manifests/init.pp",
            "modules/ntp/examples/init.pp",
        ] {
            std::fs::create_dir_all(root.join(p).parent().unwrap()).unwrap();
            std::fs::write(root.join(p), "").unwrap();
        }
        std::fs::write(root.join("environment.conf"), "modulepath = site-modules:modules:$basemodulepath\n").unwrap();
        let ws = Workspace::discover(&[root.to_path_buf()], &[]);
        assert_eq!(ws.role(&root.join("manifests/site.pp")), FileRole::Site { root: root.to_path_buf() });
        assert_eq!(
            ws.role(&root.join("site-modules/role/manifests/web.pp")),
            FileRole::Module { module: "role".into() }
        );
        assert_eq!(ws.role(&root.join("modules/ntp/manifests/init.pp")), FileRole::Module { module: "ntp".into() });
        assert_eq!(ws.role(&root.join("modules/ntp/examples/init.pp")), FileRole::Standalone);
    }
}
