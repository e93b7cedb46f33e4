//! Manifests that tools kept in the tree apply one file at a time: a
//! Vagrantfile's Puppet provisioner (`manifests_path`, `manifest_file`) and
//! Packer's `puppet-masterless` provisioner (`manifest_file`). Such a
//! `manifests/` directory is no directory manifest read whole.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regex::Regex;

/// A manifest a tool applies: the directory holding it and its file name,
/// `None` when the name is computed (`{{user `component`}}.pp`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedManifest {
    pub dir: PathBuf,
    pub file: Option<String>,
}

/// What the configurations under each directory searched name.
pub type Searched = BTreeMap<PathBuf, Vec<NamedManifest>>;

/// Directories not searched for tool configurations: modules, data and
/// test fixtures hold none that name a site's manifests.
const NOT_SEARCHED: &[&str] =
    &["modules", "site-modules", "manifests", "spec", "files", "lib", "data", "hieradata", "node_modules", "vendor"];

/// How deep below a checked directory configurations are looked for.
const MAX_DEPTH: usize = 4;

/// How many directories above an environment a Vagrantfile may sit.
const MAX_LEVELS_UP: usize = 3;

/// The manifests that Vagrantfiles and Packer templates apply that may
/// concern the environment `env`: those of any configuration in its
/// repository (the git work tree holding it) or, in none, in the checked
/// directory holding it (`checked`: those the user named), and of
/// Vagrantfiles a few directories above it.
///
/// `searched` keeps what each directory searched holds, for the next
/// environment of the same run.
pub fn named_manifests_for(env: &Path, checked: &[PathBuf], searched: &mut Searched) -> Vec<NamedManifest> {
    let mut search =
        |dir: &Path| searched.entry(dir.to_path_buf()).or_insert_with(|| named_manifests(&[dir.to_path_buf()])).clone();
    let above: Vec<&Path> = env.ancestors().take(MAX_LEVELS_UP + 1).collect();
    if let Some(top) = above.iter().position(|dir| dir.join(".git").exists()) {
        return search(above[top]);
    }
    let base = above.iter().rev().find(|dir| checked.iter().any(|c| c == *dir)).copied().unwrap_or(env);
    let mut named = search(base);
    for dir in above[1..].iter().filter(|dir| !dir.starts_with(base)) {
        named.extend(read_file(&dir.join("Vagrantfile")).and_then(|text| vagrant_manifest(dir, &text)));
    }
    named
}

/// The manifests that Vagrantfiles and Packer templates under `roots` apply.
fn named_manifests(roots: &[PathBuf]) -> Vec<NamedManifest> {
    let mut named = Vec::new();
    for root in roots.iter().filter(|r| r.is_dir()) {
        let mut stack = vec![(root.clone(), 0)];
        while let Some((dir, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            entries.sort();
            for path in entries {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if path.is_dir() {
                    if depth < MAX_DEPTH && !name.starts_with('.') && !NOT_SEARCHED.contains(&name.as_str()) {
                        stack.push((path, depth + 1));
                    }
                } else if name == "Vagrantfile" {
                    named.extend(read_file(&path).and_then(|text| vagrant_manifest(&dir, &text)));
                } else if name.ends_with(".json") || name.ends_with(".pkr.hcl") {
                    if let Some(text) = read_file(&path) {
                        named.extend(packer_manifests(root, &dir, &text));
                    }
                }
            }
        }
    }
    named
}

/// Whether the manifests in `dir` (and below) import files or define
/// nodes: a site Puppet reads whole, not files applied one at a time.
pub fn reads_as_one_site(dir: &Path) -> bool {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            // Not following links: a link back up would never end.
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp")
                && std::fs::read_to_string(&path).is_ok_and(|text| super::workspace::defines_nodes_or_imports(&text))
            {
                return true;
            }
        }
    }
    false
}

fn read_file(path: &Path) -> Option<String> {
    // Configurations are small; a large file is data.
    let size = std::fs::metadata(path).ok()?.len();
    if size > 1 << 20 {
        return None;
    }
    std::fs::read_to_string(path).ok().filter(|text| text.contains("manifest"))
}

/// `puppet.manifests_path = "puppet/manifests"` and `puppet.manifest_file
/// = "site.pp"` (Vagrant's defaults: `manifests`, `default.pp`), when the
/// Vagrantfile sets either.
fn vagrant_manifest(dir: &Path, text: &str) -> Option<NamedManifest> {
    let setting = |key: &str| {
        let pattern = Regex::new(&format!(r#"(?m)^[^#\n]*\.{key}\s*=\s*["']([^"'\n]+)["']"#)).ok()?;
        pattern.captures(text).map(|c| c[1].to_string())
    };
    let path = setting("manifests_path");
    let file = setting("manifest_file");
    if path.is_none() && file.is_none() {
        return None;
    }
    let dir = crate::paths::normalize(Path::new(path.as_deref().unwrap_or("manifests")), dir);
    let file = file.unwrap_or_else(|| "default.pp".into());
    // A directory given as the manifest is read whole.
    (!dir.join(&file).is_dir()).then_some(NamedManifest { dir, file: computed_or(file) })
}

/// Every `"manifest_file": "…"` (JSON) or `manifest_file = "…"` (HCL),
/// resolved against the template's directory or, as Packer is usually run
/// from there, the checked directory: whichever holds the directory named.
fn packer_manifests(root: &Path, dir: &Path, text: &str) -> Vec<NamedManifest> {
    let Ok(pattern) = Regex::new(r#""?manifest_file"?\s*[:=]\s*"([^"\n]+)""#) else { return Vec::new() };
    pattern
        .captures_iter(text)
        .filter_map(|c| {
            let written = Path::new(&c[1]);
            let file = written.file_name()?.to_string_lossy().into_owned();
            let parent = written.parent().unwrap_or(Path::new(""));
            let held = [dir, root].iter().map(|base| crate::paths::normalize(parent, base)).find(|d| d.is_dir())?;
            Some(NamedManifest { dir: held, file: computed_or(file) })
        })
        .collect()
}

/// The file name, or `None` when a template computes it.
fn computed_or(file: String) -> Option<String> {
    (!file.contains("{{") && !file.contains("${")).then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vagrant_settings_and_defaults() {
        let dir = Path::new("/r");
        let text = "Vagrant.configure('2') do |c|\n  c.vm.provision 'puppet' do |puppet|\n    puppet.manifests_path = \"puppet/manifests\"\n    # puppet.manifest_file = 'old.pp'\n    puppet.manifest_file  = 'site.pp'\n  end\nend\n";
        assert_eq!(
            vagrant_manifest(dir, text),
            Some(NamedManifest { dir: "/r/puppet/manifests".into(), file: Some("site.pp".into()) })
        );
        assert_eq!(
            vagrant_manifest(dir, "puppet.manifests_path = 'p'\n"),
            Some(NamedManifest { dir: "/r/p".into(), file: Some("default.pp".into()) })
        );
        assert_eq!(vagrant_manifest(dir, "config.vm.box = 'x'\n"), None);
    }

    #[test]
    fn packer_file_names_computed_or_not() {
        assert_eq!(computed_or("a.pp".into()), Some("a.pp".into()));
        assert_eq!(computed_or("{{user `component`}}.pp".into()), None);
    }
}
