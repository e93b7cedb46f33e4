//! Manifests that tools kept in the tree apply one file at a time: a
//! Vagrantfile's Puppet provisioner (`manifests_path`, `manifest_file`) and
//! Packer's `puppet-masterless` provisioner (`manifest_file`). Such a
//! `manifests/` directory is no directory manifest read whole. Also the
//! facts those tools and the tree's scripts give `puppet apply`
//! (`puppet.facter`, `FACTER_name=`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use regex::Regex;

/// A manifest a tool applies: the directory holding it and its file name,
/// `None` when the name is computed (`{{user `component`}}.pp`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedManifest {
    pub dir: PathBuf,
    pub file: Option<String>,
}

/// What the configurations and scripts under a directory give Puppet.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub manifests: Vec<NamedManifest>,
    /// Facts they set (`FACTER_home=…` makes `home`).
    pub facts: BTreeSet<String>,
    /// Directories of modules they put on the module path.
    pub module_dirs: BTreeSet<PathBuf>,
}

/// What was found under each directory searched.
pub type Searched = BTreeMap<PathBuf, Found>;

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
pub fn named_manifests_for(env: &Path, checked: &HashSet<PathBuf>, searched: &mut Searched) -> Vec<NamedManifest> {
    found_for(env, checked, searched).manifests
}

/// The facts that the tools and scripts of the repository holding `dir`
/// (or, in none, of the checked directory holding it) give `puppet apply`,
/// and those of Vagrantfiles a few directories above it.
pub fn tool_facts(dir: &Path, checked: &HashSet<PathBuf>, searched: &mut Searched) -> BTreeSet<String> {
    found_for(dir, checked, searched).facts
}

/// The directories of modules that the Vagrantfiles of the repository
/// holding `dir` (or, in none, of the checked directory holding it) put on
/// the module path, and those of Vagrantfiles a few directories above it.
pub fn tool_module_dirs(dir: &Path, checked: &HashSet<PathBuf>, searched: &mut Searched) -> BTreeSet<PathBuf> {
    found_for(dir, checked, searched).module_dirs
}

fn found_for(env: &Path, checked: &HashSet<PathBuf>, searched: &mut Searched) -> Found {
    let mut search = |dir: &Path| searched.entry(dir.to_path_buf()).or_insert_with(|| search_under(dir)).clone();
    let above: Vec<&Path> = env.ancestors().take(MAX_LEVELS_UP + 1).collect();
    if let Some(top) = above.iter().position(|dir| dir.join(".git").exists()) {
        return search(above[top]);
    }
    let base = above.iter().rev().find(|dir| checked.contains(**dir)).copied().unwrap_or(env);
    let mut found = search(base);
    for dir in above[1..].iter().filter(|dir| !dir.starts_with(base)) {
        if let Some(text) = read_file(&dir.join("Vagrantfile")) {
            found.manifests.extend(vagrant_manifests(dir, &text));
            found.facts.extend(vagrant_facts(&text));
            found.module_dirs.extend(vagrant_module_dirs(dir, &text));
        }
    }
    found
}

/// What the Vagrantfiles, Packer templates and scripts under `root` give.
fn search_under(root: &Path) -> Found {
    let mut found = Found::default();
    if root.is_dir() {
        let mut stack = vec![(root.to_path_buf(), 0)];
        while let Some((dir, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            entries.sort();
            for path in entries {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if path.is_dir() {
                    // A module below (a directory of modules checked) keeps
                    // no configuration of the tree's.
                    let module = path.join("metadata.json").is_file() || path.join("manifests/init.pp").is_file();
                    if depth < MAX_DEPTH && !name.starts_with('.') && !NOT_SEARCHED.contains(&name.as_str()) && !module
                    {
                        stack.push((path, depth + 1));
                    }
                } else if name == "Vagrantfile" {
                    if let Some(text) = read_file(&path) {
                        found.manifests.extend(vagrant_manifests(&dir, &text));
                        found.facts.extend(vagrant_facts(&text));
                        found.module_dirs.extend(vagrant_module_dirs(&dir, &text));
                    }
                } else if name.ends_with(".json") || name.ends_with(".pkr.hcl") {
                    if let Some(text) = read_file(&path) {
                        found.manifests.extend(packer_manifests(root, &dir, &text));
                        found.facts.extend(environment_facts(&text));
                    }
                } else if name.ends_with(".yaml") || name.ends_with(".yml") {
                    if let Some(text) = read_file(&path) {
                        found.manifests.extend(task_manifests(root, &dir, &text));
                    }
                } else if is_script(&name) {
                    if let Some(text) = read_file(&path) {
                        found.facts.extend(environment_facts(&text));
                    }
                }
            }
        }
    }
    found
}

/// Files that run `puppet apply` with facts in its environment.
fn is_script(name: &str) -> bool {
    const EXTENSIONS: &[&str] = &[".sh", ".bash", ".ps1", ".bat", ".cmd"];
    EXTENSIONS.iter().any(|e| name.ends_with(e)) || matches!(name, "Makefile" | "Dockerfile")
}

/// Facter makes a fact of each `FACTER_<name>` environment variable, its
/// name in lower case: `export FACTER_home=…`, `$env:FACTER_role = …`,
/// Dockerfile's `ENV FACTER_role web`.
fn environment_facts(text: &str) -> Vec<String> {
    static VARIABLE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r"\bFACTER_([A-Za-z][A-Za-z0-9_]*)(?:\s*=|[ \t]+[^\s=])").expect("a valid pattern")
    });
    VARIABLE.captures_iter(text).map(|c| c[1].to_ascii_lowercase()).collect()
}

/// The facts a Vagrantfile's Puppet provisioner sets: the keys of
/// `puppet.facter = { "name" => … }` and `puppet.facter["name"] = …`.
fn vagrant_facts(text: &str) -> Vec<String> {
    // A value may hold braces (`"#{host}.#{domain}"`, `map { |n| … }`): they
    // do not end the hash.
    static HASH: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r"(?m)^[^#\n]*\.facter\s*=\s*\{((?:[^{}]|\{[^{}]*\})*)\}").expect("a valid pattern")
    });
    static KEY: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r#"["':]([A-Za-z][A-Za-z0-9_]*)["']?\s*=>|\b([A-Za-z][A-Za-z0-9_]*):\s"#).expect("a valid pattern")
    });
    static INDEXED: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r#"(?m)^[^#\n]*\.facter\[\s*["':]([A-Za-z][A-Za-z0-9_]*)["']?\s*\]\s*="#).expect("a valid pattern")
    });
    let mut facts: Vec<String> = HASH
        .captures_iter(text)
        .flat_map(|hash| {
            KEY.captures_iter(&hash[1])
                .filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str().to_ascii_lowercase()))
                .collect::<Vec<_>>()
        })
        .collect();
    facts.extend(INDEXED.captures_iter(text).map(|c| c[1].to_ascii_lowercase()));
    facts
}

/// Whether the manifests in `dir` (and below) import files or define
/// nodes: a site Puppet reads whole, not files applied one at a time.
pub fn reads_as_one_site(dir: &Path) -> bool {
    !files_reading_as_one_site(dir, true).is_empty()
}

/// The files under `dir` that define nodes or import others: only the
/// first found with `first_only`.
pub fn files_reading_as_one_site(dir: &Path, first_only: bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
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
                found.push(path);
                if first_only {
                    return found;
                }
            }
        }
    }
    found
}

fn read_file(path: &Path) -> Option<String> {
    // Configurations are small; a large file is data.
    let size = std::fs::metadata(path).ok()?.len();
    if size > 1 << 20 {
        return None;
    }
    std::fs::read_to_string(path)
        .ok()
        .filter(|text| ["manifest", "FACTER_", "facter", "module_path"].iter().any(|word| text.contains(word)))
}

/// The directories a Vagrantfile's Puppet provisioner puts on the module
/// path, relative to the Vagrantfile: `puppet.module_path = "modules"` or
/// `= ["modules", "../shared"]`, those that exist.
fn vagrant_module_dirs(dir: &Path, text: &str) -> Vec<PathBuf> {
    static SETTING: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r#"(?m)^[^#\n]*\.module_path\s*=\s*(\[[^\]\n]*\]|["'][^"'\n]+["'])"#).expect("a valid pattern")
    });
    static ENTRY: std::sync::LazyLock<Regex> =
        std::sync::LazyLock::new(|| Regex::new(r#"["']([^"'\n]+)["']"#).expect("a valid pattern"));
    SETTING
        .captures_iter(text)
        .flat_map(|setting| ENTRY.captures_iter(&setting[1]).map(|c| c[1].to_string()).collect::<Vec<_>>())
        .map(|entry| crate::paths::normalize(Path::new(&entry), dir))
        .filter(|entry| entry.is_dir())
        .collect()
}

/// `puppet.manifests_path = "puppet/manifests"` and `puppet.manifest_file
/// = "site.pp"` (Vagrant's defaults: `manifests`, `default.pp`), when the
/// Vagrantfile sets either.
fn vagrant_manifests(dir: &Path, text: &str) -> Vec<NamedManifest> {
    let settings = |key: &str| -> Vec<String> {
        let Ok(pattern) = Regex::new(&format!(r#"(?m)^[^#\n]*\.{key}\s*=\s*["']([^"'\n]+)["']"#)) else {
            return Vec::new();
        };
        pattern.captures_iter(text).map(|c| c[1].to_string()).collect()
    };
    let (paths, files) = (settings("manifests_path"), settings("manifest_file"));
    if paths.is_empty() && files.is_empty() {
        return Vec::new();
    }
    // One machine per provisioner: each names its directory and file, or
    // takes Vagrant's defaults (or the only directory named).
    let count = paths.len().max(files.len());
    (0..count)
        .filter_map(|i| {
            let path = paths.get(i).or(if paths.len() == 1 { paths.first() } else { None });
            let dir = crate::paths::normalize(Path::new(path.map_or("manifests", String::as_str)), dir);
            let file = files.get(i).cloned().unwrap_or_else(|| "default.pp".into());
            // A directory given as the manifest is read whole.
            (!dir.join(&file).is_dir()).then_some(NamedManifest { dir, file: computed_or(file) })
        })
        .collect()
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

/// Every `puppet_manifest: …` of a deployment tool's task list (Fuel
/// plugins' `deployment_tasks.yaml`), each task a `puppet apply` of one
/// file: resolved against the plugin's `deployment_scripts/`, the list's
/// directory or the checked directory, whichever holds the directory named.
fn task_manifests(root: &Path, dir: &Path, text: &str) -> Vec<NamedManifest> {
    static TASK: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r#"(?m)^[^#\n]*\bpuppet_manifest:\s*["']?([^"'\s#]+\.pp)"#).expect("a valid pattern")
    });
    TASK.captures_iter(text)
        .filter_map(|c| {
            let written = Path::new(&c[1]);
            let file = written.file_name()?.to_string_lossy().into_owned();
            let parent = written.parent().unwrap_or(Path::new(""));
            let bases = [dir.join("deployment_scripts"), dir.to_path_buf(), root.to_path_buf()];
            let held = bases.iter().map(|base| crate::paths::normalize(parent, base)).find(|d| d.is_dir())?;
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
            vagrant_manifests(dir, text),
            [NamedManifest { dir: "/r/puppet/manifests".into(), file: Some("site.pp".into()) }]
        );
        assert_eq!(
            vagrant_manifests(dir, "puppet.manifests_path = 'p'\n"),
            [NamedManifest { dir: "/r/p".into(), file: Some("default.pp".into()) }]
        );
        assert_eq!(vagrant_manifests(dir, "config.vm.box = 'x'\n"), []);
        // Two machines, each applying its own manifest of one directory.
        let two = "a.vm.provision :puppet do |p|\n  p.manifests_path = 'd/manifests'\n  p.manifest_file = 'a.pp'\nend\n\
                   b.vm.provision :puppet do |p|\n  p.manifests_path = 'd/manifests'\n  p.manifest_file = 'b.pp'\nend\n";
        assert_eq!(
            vagrant_manifests(dir, two),
            [
                NamedManifest { dir: "/r/d/manifests".into(), file: Some("a.pp".into()) },
                NamedManifest { dir: "/r/d/manifests".into(), file: Some("b.pp".into()) }
            ]
        );
    }

    #[test]
    fn vagrant_module_path_entries_that_exist() {
        let dir = tempfile::tempdir().unwrap();
        let box_dir = dir.path().join("box");
        for made in ["box", "pm", "shared/modules"] {
            std::fs::create_dir_all(dir.path().join(made)).unwrap();
        }
        let one = "  puppet.module_path = \"../pm\"\n  # puppet.module_path = 'old'\n";
        assert_eq!(vagrant_module_dirs(&box_dir, one), [dir.path().join("pm")]);
        let list = "  puppet.module_path = ['../shared/modules', 'absent']\n";
        assert_eq!(vagrant_module_dirs(&box_dir, list), [dir.path().join("shared/modules")]);
    }

    #[test]
    fn facts_set_in_the_environment_of_puppet_apply() {
        let script = "export FACTER_HOME=\"$HOME\"\nFACTER_role=web puppet apply x.pp\n$env:FACTER_Site = 'a'\nENV FACTER_tier prod\necho $FACTER_unset\n";
        assert_eq!(environment_facts(script), ["home", "role", "site", "tier"]);
        let vagrant = "  puppet.facter = {\n    \"motd\" => \"hi\",\n    'fqdn_vip' => \"#{host}.#{domain}\",\n    'allow' => ips.map{|z| z.to_s}.join(','),\n    'env' => 'dev', region: 'x'\n  }\n  # puppet.facter['old'] = 1\n  puppet.facter[:zone] = 'z'\n";
        assert_eq!(vagrant_facts(vagrant), ["motd", "fqdn_vip", "allow", "env", "region", "zone"]);
    }

    #[test]
    fn deployment_task_manifests() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("deployment_scripts/puppet/manifests")).unwrap();
        let tasks = "- id: a\n  parameters:\n    puppet_manifest: \"puppet/manifests/a.pp\"\n    # puppet_manifest: old.pp\n- id: b\n  parameters:\n    puppet_manifest: puppet/manifests/b.pp\n";
        let manifests = root.join("deployment_scripts/puppet/manifests");
        assert_eq!(
            task_manifests(root, root, tasks),
            [
                NamedManifest { dir: manifests.clone(), file: Some("a.pp".into()) },
                NamedManifest { dir: manifests, file: Some("b.pp".into()) }
            ]
        );
    }

    #[test]
    fn packer_file_names_computed_or_not() {
        assert_eq!(computed_or("a.pp".into()), Some("a.pp".into()));
        assert_eq!(computed_or("{{user `component`}}.pp".into()), None);
    }
}
