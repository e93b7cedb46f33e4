//! Puppet layouts: which files are site manifests, which belong to which
//! module (and under what autoload name), and which stand alone.

use crate::syntax::ast::NameText;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where a manifest sits in a Puppet layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRole {
    /// Part of an environment's `manifests/` directory (the site manifest).
    /// The site is identified by its environment root.
    Site { root: PathBuf },
    /// `<module>/manifests/<path>.pp` of a module on the module path, and
    /// the type aliases, functions and plans of its `types/`, `functions/`
    /// and `plans/`: definitions only, never applied on their own.
    Module { module: String },
    /// A manifest in a module's `examples/` or `tests/`: a usage example,
    /// applied on its own like `puppet apply FILE`.
    Example { module: String },
    /// Anything else (a loose file): applied on its own.
    Standalone,
}

impl FileRole {
    /// Applied on its own, like `puppet apply FILE`.
    pub fn is_standalone(&self) -> bool {
        matches!(self, FileRole::Example { .. } | FileRole::Standalone)
    }
}

/// A module's directories of Puppet code that Puppet loads by name.
const DEFINITION_DIRS: &[&str] = &["manifests", "types", "functions", "plans"];
/// A module's directories of usage examples.
const EXAMPLE_DIRS: &[&str] = &["examples", "tests"];

/// The role of a file at `rest` inside the module `module` rooted at `dir`.
/// A module kept under `examples/` or `tests/` (`examples/hardening/
/// manifests/…`, used with `--modulepath examples`) is a module of its own.
fn role_in_module_tree(dir: &Path, module: &str, rest: &Path) -> Option<FileRole> {
    let parts: Vec<String> = rest.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if let [examples, nested, subdir, _, ..] = parts.as_slice() {
        if EXAMPLE_DIRS.contains(&examples.as_str()) && is_nested_module(&dir.join(examples).join(nested)) {
            return role_in_module(nested, Some(subdir));
        }
    }
    if let [examples, site, modules, nested, subdir, _, ..] = parts.as_slice() {
        let site = dir.join(examples).join(site);
        if EXAMPLE_DIRS.contains(&examples.as_str())
            && modules == "modules"
            && is_example_site(&site)
            && is_nested_module(&site.join(modules).join(nested))
        {
            return role_in_module(nested, Some(subdir));
        }
    }
    match parts.as_slice() {
        // A definition file's path names what it defines
        // (`manifests/a/b_c.pp` is `module::a::b_c`): one no name maps to
        // and that defines nothing (`connectivity-checker.pp` of a task
        // runner) is never autoloaded, only applied.
        [subdir, path @ ..] if DEFINITION_DIRS.contains(&subdir.as_str()) && !path.is_empty() => {
            let named = path.iter().enumerate().all(|(i, part)| {
                let segment = if i + 1 == path.len() { part.strip_suffix(".pp").unwrap_or("") } else { part };
                is_module_name(segment)
            });
            let defines = || {
                std::fs::read_to_string(dir.join(rest))
                    .is_ok_and(|text| starts_a_line(&text, &["class", "define", "type", "function", "plan"]))
            };
            if named || defines() {
                role_in_module(module, Some(subdir))
            } else {
                None
            }
        }
        // Only a directory: a file directly in the module is not loaded.
        [subdir, _, ..] => role_in_module(module, Some(subdir)),
        _ => None,
    }
}

/// A whole environment inside a module's `examples/` (`manifests/` beside
/// `modules/`): applied with its `modules/` on the module path.
fn is_example_site(dir: &Path) -> bool {
    dir.join("manifests").is_dir() && dir.join("modules").is_dir()
}

/// A module inside a module's `examples/` or `tests/`: its manifests define
/// names of its own (an example's `manifests/` of code applied on its own
/// makes no module).
fn is_nested_module(dir: &Path) -> bool {
    path_name(dir).is_some_and(|n| is_module_name(&n) && defines_own_names(&dir.join("manifests"), &n))
}

fn role_in_module(module: &str, subdir: Option<&str>) -> Option<FileRole> {
    let subdir = subdir?;
    if DEFINITION_DIRS.contains(&subdir) {
        Some(FileRole::Module { module: module.to_string() })
    } else if EXAMPLE_DIRS.contains(&subdir) {
        Some(FileRole::Example { module: module.to_string() })
    } else {
        None
    }
}

/// An `environment.conf` modulepath entry that is not in the checked tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingEntry {
    pub conf: PathBuf,
    pub entry: String,
    /// The environment's Puppetfile, where the entry is the directory it
    /// installs into: that holds only the modules the Puppetfile names.
    pub filled_by: Option<PathBuf>,
}

/// A module name Puppet accepts.
pub fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Answers of [`Workspace::is_module_copy`], by module directory and the
/// module path's length when asked (the path only grows). A clone starts
/// with none.
#[derive(Debug, Default)]
pub struct CopyAnswers(std::sync::Mutex<std::collections::HashMap<(PathBuf, usize), bool>>);

impl Clone for CopyAnswers {
    fn clone(&self) -> Self {
        CopyAnswers::default()
    }
}

/// One question's answers about directories, each asked of the file
/// system once (two threads may both ask). A clone starts with none.
#[derive(Debug, Default)]
pub struct DirAnswers(std::sync::Mutex<std::collections::HashMap<PathBuf, bool>>);

impl Clone for DirAnswers {
    fn clone(&self) -> Self {
        DirAnswers::default()
    }
}

impl DirAnswers {
    /// `question(dir)`, asked once.
    pub fn answer(&self, dir: &Path, question: impl Fn(&Path) -> bool) -> bool {
        if let Some(answer) = self.0.lock().expect("no panic under the lock").get(dir) {
            return *answer;
        }
        let answer = question(dir);
        self.0.lock().expect("no panic under the lock").insert(dir.to_path_buf(), answer);
        answer
    }
}

/// [`Workspace::modules`]' answer, with the module directories it was
/// found for: found once per run, not once per asker. Shows nothing and
/// clones empty, so that it never changes what a workspace is.
#[derive(Default)]
pub struct ModulesFound(std::sync::Mutex<Option<(ModulesKey, BTreeMap<String, PathBuf>)>>);

type ModulesKey = (Vec<PathBuf>, BTreeMap<PathBuf, String>);

impl Clone for ModulesFound {
    fn clone(&self) -> Self {
        ModulesFound::default()
    }
}

impl std::fmt::Debug for ModulesFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ModulesFound")
    }
}

/// The layout of the checked tree.
#[derive(Debug, Default, Clone)]
pub struct Workspace {
    /// The checked files and directories, absolute: policy path globs
    /// match paths relative to them.
    pub roots: Vec<PathBuf>,
    /// Environment roots (directories with `manifests/` as the site).
    pub environments: Vec<PathBuf>,
    /// Environments whose `environment.conf` names their site manifest
    /// (`manifest = manifests/site.pp`): the file or directory, by root.
    pub site_manifests: BTreeMap<PathBuf, PathBuf>,
    /// What the main manifest of a configuration directory kept with its
    /// `site.pp` at the top imports (`nodes/`): part of its site, by root.
    pub site_imports: BTreeMap<PathBuf, Vec<PathBuf>>,
    /// Environments whose `manifests/` files tools apply one at a time
    /// (Packer templates naming several): each file is applied on its own.
    pub separately_applied: std::collections::BTreeSet<PathBuf>,
    /// Files in a site's `manifests/` that a tool applies on their own and
    /// the site does not import.
    pub applied_alone: std::collections::BTreeSet<PathBuf>,
    /// Directories whose children are modules, in search order.
    pub module_dirs: Vec<PathBuf>,
    /// Single modules checked on their own, by directory.
    pub single_modules: BTreeMap<PathBuf, String>,
    /// Module directories asked about by [`Workspace::is_module_copy`], with
    /// the answer.
    pub module_copies: CopyAnswers,
    /// Answers of [`looks_loadable`] for the directories of modules.
    pub loadable: DirAnswers,
    /// What [`Workspace::modules`] found last.
    pub modules_found: ModulesFound,
    /// The module directories each `environment.conf`'s `modulepath` names,
    /// in its order: where Puppet looks for a module first.
    pub stated_module_paths: Vec<Vec<PathBuf>>,
    /// How paths are shown in messages.
    pub display: crate::paths::PathDisplay,
    /// Modulepath entries whose modules are not in the checked tree.
    pub missing_entries: Vec<MissingEntry>,
    /// Directories of modules beside an environment's code that nothing
    /// puts on its module path (no `environment.conf`): read as module
    /// directories all the same, after the usual ones.
    pub assumed_module_dirs: Vec<PathBuf>,
    /// Modules kept beside an environment's code (`profile/` beside
    /// `manifests/`) whose classes are named after them: the site is
    /// deployed with them on its module path.
    pub assumed_modules: Vec<PathBuf>,
    /// Modules with a `metadata.json` found alone below a checked directory
    /// that is no environment (`provision/puppet-modules/elk_server`): the
    /// module its metadata names, unless the module path has one.
    pub lone_modules: Vec<PathBuf>,
    /// Modules a `Puppetfile` of an environment names, by module name.
    pub puppetfile_modules: BTreeMap<String, PathBuf>,
    /// Modules a Puppetfile names only in a commented-out `mod` line.
    pub puppetfile_disabled: BTreeMap<String, PathBuf>,
    /// Modules a Puppetfile takes from the tree itself (`:path => './x'`,
    /// r10k's `:local => true`), not from outside.
    pub puppetfile_from_tree: std::collections::BTreeSet<String>,
    /// The site's own functions that declare classes (configuration).
    pub include_functions: BTreeMap<String, crate::config::IncludeFunction>,
    /// Top-scope variables the configuration declares as facts.
    pub declared_facts: Vec<String>,
    /// Facts the tree's tools and scripts give `puppet apply` (Vagrant's
    /// `puppet.facter`, `FACTER_name=` in a script).
    pub tool_facts: BTreeSet<String>,
    /// A `puppet.conf` of the tree that gives nodes an external node
    /// classifier (`node_terminus = exec`): its parameters are top-scope
    /// variables mplint cannot see.
    pub node_classifier: Option<PathBuf>,
    /// The policies' constraints: resources of their types keep their
    /// attributes' values in the record.
    pub constraints: Vec<crate::policy::Constraint>,
    /// Keep every declaration's attribute values, parameter defaults and
    /// function calls in the record (for the rules that look at values).
    pub record_values: bool,
    /// Compile every node on its own, even nodes whose bodies are the same
    /// text (which otherwise compile once); the tests compare the two.
    pub compile_every_node: bool,
    /// The files a run reports on, when it reports on some files of the
    /// tree only: entry points that cannot touch them are not compiled.
    pub focus: Option<std::collections::BTreeSet<PathBuf>>,
}

/// The `modulepath` entries of an environment's `environment.conf`, as
/// written.
fn read_environment_modulepath(root: &Path) -> Option<Vec<String>> {
    let conf = std::fs::read_to_string(root.join("environment.conf")).ok()?;
    for line in conf.lines() {
        let line = line.trim();
        if let Some(value) = line.strip_prefix("modulepath") {
            let value = unquoted(value.trim_start().strip_prefix('=')?.trim());
            // Written for Puppet on Windows, whose path separator is `;`
            // (`modules;c:/vagrant/modules`).
            let separator = if value.contains(';') { ';' } else { ':' };
            return Some(
                value.split(separator).map(str::trim).filter(|e| !e.is_empty()).map(inside_own_environment).collect(),
            );
        }
    }
    None
}

/// A modulepath entry inside the environment's own directory, as
/// deployed (`$codedir/environments/$environment/modules`), made relative
/// to it (`modules`); other entries as written.
fn inside_own_environment(entry: &str) -> String {
    for base in
        ["$codedir/environments/$environment/", "$confdir/environments/$environment/", "$environmentpath/$environment/"]
    {
        if let Some(rest) = entry.strip_prefix(base).filter(|rest| !rest.is_empty() && !rest.contains('$')) {
            return rest.to_string();
        }
    }
    entry.to_string()
}

/// Where Puppet's default code directory is deployed from.
const DEPLOYED_CODEDIR: &str = "/etc/puppetlabs/code";

/// The code directory of an environment kept as `<codedir>/environments/<name>`.
fn codedir_of(environment: &Path) -> Option<&Path> {
    let environments = environment.parent().filter(|p| p.file_name().is_some_and(|n| n == "environments"))?;
    environments.parent()
}

/// A modulepath entry under `$codedir` of an environment kept in its code
/// directory: the directory in the tree it names once deployed, through
/// links to the deployed code directory (`modules -> /etc/puppetlabs/code/modules`).
fn in_codedir(environment: &Path, entry: &str) -> Option<PathBuf> {
    let codedir = codedir_of(environment)?;
    let rest = entry.strip_prefix("$codedir/")?;
    let name = environment.file_name()?.to_str()?;
    let rest = rest.replace("$environment", name);
    if rest.contains('$') {
        return None;
    }
    let mut path = codedir.to_path_buf();
    for component in Path::new(&rest).components() {
        path.push(component);
        if let Ok(target) = std::fs::read_link(&path) {
            if let Ok(deployed) = target.strip_prefix(DEPLOYED_CODEDIR) {
                path = codedir.join(deployed);
            }
        }
    }
    path.is_dir().then_some(path)
}

/// An absolute modulepath entry that names a directory of the environment
/// itself: its own path (`/…/checkout/modules`), or where it is deployed
/// (`/etc/puppetlabs/code/environments/production/modules`, the
/// environment's `modules/` once the repository is checked out there).
fn deployed_own_dir(environment: &Path, entry: &str) -> Option<PathBuf> {
    let path = Path::new(entry);
    if !path.is_absolute() {
        return None;
    }
    let inside = |dir: &Path| {
        let (dir, root) = (dir.canonicalize().ok()?, environment.canonicalize().ok()?);
        let rest = dir.strip_prefix(&root).ok()?.to_path_buf();
        Some(environment.join(rest))
    };
    if let Some(own) = inside(path) {
        return own.is_dir().then_some(own);
    }
    let components: Vec<&std::ffi::OsStr> = path.iter().collect();
    let environments = components.iter().rposition(|c| *c == "environments")?;
    let rest: PathBuf = components.get(environments + 2..)?.iter().collect();
    let own = environment.join(&rest);
    (!rest.as_os_str().is_empty() && own.is_dir()).then_some(own)
}

/// The `manifest` setting of an environment's `environment.conf`: the site
/// manifest (a file or a directory) inside the environment, when it names
/// one there.
fn read_environment_manifest(root: &Path) -> Option<PathBuf> {
    let conf = std::fs::read_to_string(root.join("environment.conf")).ok()?;
    let value = conf_setting(&conf, "manifest")?;
    if value.is_empty() || value.starts_with('$') || Path::new(&value).is_absolute() {
        return None;
    }
    Some(crate::paths::normalize(&root.join(value), root))
}

/// The value of the first `name = value` line of a Puppet configuration
/// file (`environment.conf`, `puppet.conf`), unquoted.
fn conf_setting(conf: &str, name: &str) -> Option<String> {
    conf.lines().find_map(|line| {
        let rest = line.trim().strip_prefix(name)?;
        rest.trim_start().strip_prefix('=').map(|v| unquoted(v.trim()).to_string())
    })
}

/// A setting's value as Puppet reads it: one quote at each end removed
/// (`modulepath = "site:modules"`).
fn unquoted(value: &str) -> &str {
    let value = value.strip_prefix(['"', '\'']).unwrap_or(value);
    value.strip_suffix(['"', '\'']).unwrap_or(value)
}

/// The main manifest of a Puppet 3 configuration directory (`/etc/puppet`:
/// `puppet.conf` beside `manifests/`, no `environment.conf`): one file, the
/// `manifest` that `puppet.conf` names, by default `manifests/site.pp`. The
/// other files of `manifests/` are not part of it (a manifest applied on its
/// own beside it), unless it imports them: then the directory is read whole.
fn legacy_main_manifest(root: &Path) -> Option<PathBuf> {
    if root.join("environment.conf").exists() {
        return None;
    }
    let conf = std::fs::read_to_string(root.join("puppet.conf")).ok()?;
    let setting = |name: &str| conf_setting(&conf, name);
    // Directory environments, or a main manifest found elsewhere: not this.
    if setting("environmentpath").is_some() || setting("manifestdir").is_some() {
        return None;
    }
    let manifest = match setting("manifest") {
        None => root.join("manifests/site.pp"),
        Some(value) => root.join(value.strip_prefix("$confdir/")?),
    };
    let text = std::fs::read_to_string(&manifest).ok()?;
    if starts_a_line(&text, &["import"]) {
        return None;
    }
    Some(crate::paths::normalize(&manifest, root))
}

/// The directories of a configuration directory that its `puppet.conf`
/// puts on the module path (`basemodulepath` or `modulepath`, entries
/// `$confdir/roles` or relative to it), in order.
fn conf_dir_module_path(root: &Path) -> Vec<PathBuf> {
    let Ok(conf) = std::fs::read_to_string(root.join("puppet.conf")) else { return Vec::new() };
    let mut dirs: Vec<PathBuf> = Vec::new();
    for name in ["basemodulepath", "modulepath"] {
        let Some(value) = conf_setting(&conf, name) else { continue };
        for entry in value.split(':') {
            let Some(inside) =
                entry.strip_prefix("$confdir/").or_else(|| (!entry.starts_with(['$', '/'])).then_some(entry))
            else {
                continue;
            };
            let dir = crate::paths::normalize(&root.join(inside), root);
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    dirs
}

/// What mplint reads of a `Puppetfile`.
#[derive(Default)]
struct Puppetfile {
    /// Module names it installs: `mod 'author-name'`, `mod 'author/name'`,
    /// `mod 'name'`.
    installed: Vec<String>,
    /// Module names only a commented-out `mod` line names.
    disabled: Vec<String>,
    /// Its `moduledir`, as written.
    moduledir: Option<String>,
    /// Modules installed from a directory of the tree (`:path => './app'`):
    /// name and path, as written.
    local: Vec<(String, String)>,
    /// Modules r10k leaves as the tree keeps them (`:local => true`).
    kept: Vec<String>,
}

fn read_puppetfile(root: &Path) -> Puppetfile {
    let Ok(text) = std::fs::read_to_string(root.join("Puppetfile")) else { return Puppetfile::default() };
    let mut read = Puppetfile::default();
    // Methods the Puppetfile defines (Boxen's `github "name", "1.0"`) are
    // called as `mod` is.
    let mut callers = vec!["mod".to_string()];
    callers.extend(text.lines().filter_map(|line| {
        let name = line.trim_start().strip_prefix("def ")?;
        let name: String = name.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        (!name.is_empty()).then_some(name)
    }));
    for line in text.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("moduledir") {
            let rest = rest.trim_start_matches(['(', ' ', '\t']);
            if let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') {
                read.moduledir = rest[1..].split(quote).next().map(str::to_string);
            }
            continue;
        }
        // librarian-puppet's `metadata` installs the dependencies that the
        // `metadata.json` beside the Puppetfile lists.
        if line.trim_end() == "metadata" {
            read.installed.extend(metadata_dependencies(root).into_iter().map(|(short, _)| short));
            continue;
        }
        let (line, commented) = match line.strip_prefix('#') {
            Some(rest) => (rest.trim_start_matches('#').trim_start(), true),
            None => (line, false),
        };
        let Some(module) = callers.iter().find_map(|caller| puppetfile_mod(line, caller)) else { continue };
        if commented {
            read.disabled.push(module)
        } else {
            if let Some(path) = local_path(line) {
                read.local.push((module.clone(), path));
            }
            if kept_local(line) {
                read.kept.push(module.clone());
            }
            read.installed.push(module)
        }
    }
    let installed = &read.installed;
    read.disabled.retain(|m| !installed.contains(m));
    read
}

/// The directory a `Puppetfile` at `root` installs its modules into: its
/// `moduledir` (relative to the Puppetfile), else `modules`, when it exists.
fn puppetfile_moduledir(root: &Path, puppetfile: &Puppetfile) -> Option<PathBuf> {
    let written = puppetfile.moduledir.as_deref().unwrap_or("modules");
    let dir = crate::paths::normalize(&root.join(written), root);
    dir.is_dir().then_some(dir)
}

/// A Bolt project: `bolt-project.yaml` (Bolt 3 and later), or `bolt.yaml`
/// or a directory named `Boltdir` (Bolt 1 and 2); no module.
fn is_bolt_project(dir: &Path) -> bool {
    let marked = dir.join("bolt-project.yaml").is_file()
        || dir.join("bolt.yaml").is_file()
        || dir.file_name().is_some_and(|n| n == "Boltdir");
    marked && !dir.join("metadata.json").is_file()
}

/// The module directories a Bolt project at `root` reads: the `modulepath`
/// of its `bolt-project.yaml` (or Bolt 2's `bolt.yaml`: a list, or a string
/// of `:`-separated directories), else Bolt 2's default (`modules`,
/// `site-modules`, `site`), and `.modules`, where Bolt 3 installs the
/// project's modules. Only those that exist.
fn bolt_modulepath(root: &Path) -> Vec<PathBuf> {
    if !is_bolt_project(root) {
        return Vec::new();
    }
    let modern = root.join("bolt-project.yaml").is_file();
    let config = if modern { "bolt-project.yaml" } else { "bolt.yaml" };
    let text = std::fs::read_to_string(root.join(config)).unwrap_or_default();
    let unquote = |s: &str| s.trim().trim_matches(['"', '\'']).to_string();
    let mut entries: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();
    let mut found = false;
    while let Some(line) = lines.next() {
        let Some(value) = line.strip_prefix("modulepath:") else { continue };
        found = true;
        let value = value.split(" #").next().unwrap_or("").trim();
        if let Some(list) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            entries.extend(list.split(',').map(unquote).filter(|e| !e.is_empty()));
        } else if !value.is_empty() {
            entries.extend(unquote(value).split(':').map(str::to_string).filter(|e| !e.is_empty()));
        } else {
            // A block list: `- dir` lines, indented.
            while let Some(item) = lines.peek().and_then(|l| l.trim_start().strip_prefix("- ")) {
                entries.push(unquote(item));
                lines.next();
            }
        }
    }
    if !found {
        // Bolt 3's default is `modules` alone; Bolt 2's, which projects
        // written for it still expect, adds `site-modules` and `site`.
        entries.extend(["modules", "site-modules", "site"].map(String::from));
    }
    if modern {
        entries.push(".modules".into());
    }
    entries
        .iter()
        .filter(|e| !e.starts_with('$') && !e.starts_with('~') && !Path::new(e).is_absolute())
        .map(|e| crate::paths::normalize(&root.join(e), root))
        .filter(|dir| dir.is_dir())
        .collect()
}

/// The modules a `bolt-project.yaml` lists under `modules:`, by their
/// short names: `- name: puppet/python`, `- puppetlabs-stdlib`.
fn bolt_project_modules(text: &str) -> Vec<String> {
    let mut modules = Vec::new();
    let mut in_modules = false;
    for line in text.lines() {
        if !line.starts_with([' ', '-', '#']) && !line.trim().is_empty() {
            in_modules = line.split(" #").next().is_some_and(|l| l.trim_end() == "modules:");
            continue;
        }
        if !in_modules {
            continue;
        }
        let item = line.trim_start().trim_start_matches("- ").trim();
        let written = match item.strip_prefix("name:") {
            Some(name) => name,
            None if line.trim_start().starts_with("- ") && !item.contains(':') => item,
            None => continue,
        };
        let written = written.split(" #").next().unwrap_or("").trim().trim_matches(['"', '\'']);
        let short = written.rsplit(['/', '-']).next().unwrap_or("");
        if is_module_name(short) {
            modules.push(short.to_string());
        }
    }
    modules
}

/// The directory a `mod` line installs from: `:path => './app'` (r10k,
/// librarian-puppet) or `path: './app'`.
fn local_path(line: &str) -> Option<String> {
    let at = line.find(":path").map(|i| i + 5).or_else(|| line.find(" path:").map(|i| i + 6))?;
    let rest = line[at..].trim_start().trim_start_matches("=>").trim_start();
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    rest[1..].split(quote).next().filter(|p| !p.is_empty()).map(str::to_string)
}

/// Whether a `mod` line says r10k leaves the module as the tree keeps it:
/// `:local => true` or `local: true`.
fn kept_local(line: &str) -> bool {
    let Some(at) = line.find(":local").map(|i| i + 6).or_else(|| line.find(" local:").map(|i| i + 7)) else {
        return false;
    };
    line[at..].trim_start().trim_start_matches("=>").trim_start().starts_with("true")
}

/// The module of a `mod 'owner-name', …` line (`caller` being `mod`).
fn puppetfile_mod(line: &str, caller: &str) -> Option<String> {
    let rest = line.strip_prefix(caller)?;
    if !rest.starts_with(['(', ' ', '\t', '\'', '"']) {
        return None;
    }
    let rest = rest.trim_start_matches(['(', ' ', '\t']);
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let name = rest[1..].split(quote).next()?;
    short_module_name(name)
}

/// `puppetlabs-stdlib`, `puppetlabs/stdlib` → `stdlib`.
pub fn short_module_name(full: &str) -> Option<String> {
    let short = full.rsplit(['-', '/']).next()?.to_string();
    is_module_name(&short).then_some(short)
}

/// The modules a module's `metadata.json` depends on, by short name, with
/// the full names as written.
pub fn metadata_dependencies(dir: &Path) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(dir.join("metadata.json")) else { return Vec::new() };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { return Vec::new() };
    json.get("dependencies")
        .and_then(|d| d.as_array())
        .into_iter()
        .flatten()
        .filter_map(|d| d.get("name")?.as_str())
        .filter_map(|full| Some((short_module_name(full)?, full.to_string())))
        .collect()
}

/// Whether the `Puppetfile` in `dir` (a module's own, say) installs `module`.
pub fn puppetfile_installs(dir: &Path, module: &str) -> bool {
    read_puppetfile(dir).installed.iter().any(|installed| installed == module)
}

/// The module name declared in `metadata.json` (`author-name` → `name`).
fn metadata_module_name(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("metadata.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    short_module_name(json.get("name")?.as_str()?)
}

fn looks_like_module(dir: &Path) -> bool {
    dir.join("metadata.json").is_file()
        || (dir.join("manifests/init.pp").is_file() && !holds_main_manifest(dir) && !holds_modules_dir(dir))
}

/// A `modules/` beside `manifests/` that holds modules: the directory is a
/// site whose main manifest is a directory with an `init.pp`, not a module.
fn holds_modules_dir(dir: &Path) -> bool {
    child_dirs(&dir.join("modules")).iter().any(|m| m.join("manifests").is_dir() || m.join("metadata.json").is_file())
}

/// A directory of a directory of modules that Puppet may load as a module:
/// not a project kept beside the modules whose `manifests/` is its main
/// manifest.
fn looks_loadable(dir: &Path) -> bool {
    dir.join("metadata.json").is_file() || !holds_main_manifest(dir)
}

/// A `manifests/site.pp` that defines nodes or imports files: the main
/// manifest of a Puppet 3, `puppet apply` or Vagrant project, which Puppet
/// reads whole, even beside an `init.pp` (a module's `site.pp` may only
/// define `<module>::site`).
fn holds_main_manifest(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("manifests/site.pp")).is_ok_and(|text| defines_nodes_or_imports(&text))
}

/// Whether a manifest's text has a line starting a `node` definition or an
/// `import`: what only a main manifest holds.
pub(super) fn defines_nodes_or_imports(text: &str) -> bool {
    starts_a_line(text, &["node", "import"])
}

/// Whether a line of a manifest starts with one of `keywords`.
fn starts_a_line(text: &str, keywords: &[&str]) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        keywords
            .iter()
            .any(|keyword| line.strip_prefix(keyword).is_some_and(|rest| rest.starts_with([' ', '\t', '\'', '"', '/'])))
    })
}

/// A Puppet 3 configuration directory kept with its main manifest beside
/// its modules (`site.pp`, `nodes/`, `modules/`, and no `manifests/`), as
/// `puppet apply site.pp --modulepath modules`, or a `manifest` setting
/// naming it, reads it.
fn holds_root_site(dir: &Path) -> bool {
    dir.join("site.pp").is_file()
        && !dir.join("manifests").exists()
        && !looks_like_module(dir)
        && child_dirs(&dir.join("modules")).iter().any(|module| module.join("manifests").is_dir())
}

/// What a main manifest's `import` statements name, resolved against its
/// directory: a file, or the directory a pattern (`nodes/*.pp`) reads.
fn imported_paths(manifest: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(manifest) else { return Vec::new() };
    let Some(dir) = manifest.parent() else { return Vec::new() };
    imported_paths_in(&text, dir)
}

/// What the `import` statements of a manifest's text name, resolved
/// against `dir`, the manifest's directory.
pub fn imported_paths_in(text: &str, dir: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("import") else { continue };
        if !rest.starts_with([' ', '\t', '\'', '"']) {
            continue;
        }
        for (i, quoted) in rest.split(['\'', '"']).enumerate() {
            if i % 2 == 0 || quoted.is_empty() {
                continue;
            }
            let written = Path::new(quoted);
            if quoted.contains(['*', '?', '[']) {
                let parent = written.parent().unwrap_or(Path::new(""));
                paths.push(crate::paths::normalize(parent, dir));
            } else {
                let file = if quoted.ends_with(".pp") { written.to_path_buf() } else { written.with_extension("pp") };
                paths.push(crate::paths::normalize(&file, dir));
            }
        }
    }
    paths
}

/// A module may define `<module>::site` in `manifests/site.pp`: that file
/// makes a site manifest only outside a module.
fn is_environment(dir: &Path) -> bool {
    holds_root_site(dir)
        || has_environment_conf(dir)
        || (dir.join("manifests/site.pp").is_file() && !looks_like_module(dir))
        || (dir.join("manifests").is_dir() && ["modules", "site-modules", "site"].iter().any(|m| dir.join(m).is_dir()))
        || code_beside_puppetfile(dir)
        || is_bolt_project(dir)
}

/// Whether the files of a directory taken for an environment by its layout
/// alone (no `environment.conf`, no `site.pp`, no node or `import`) assign
/// one top-scope variable twice, or each declare one class resource-like at
/// their top: read as one main manifest they could
/// never compile, so each is applied on its own (a deployment tool's
/// tasks, `puppet apply manifests/task.pp`).
fn files_contradict(env: &Path) -> bool {
    let dir = env.join("manifests");
    if has_environment_conf(env) || dir.join("site.pp").exists() || super::tool_manifests::reads_as_one_site(&dir) {
        return false;
    }
    let mut assigned: std::collections::HashSet<String> = std::collections::HashSet::new();
    for file in child_entries(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "pp")) {
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        // Assignments at the start of a line: top scope, not a class body.
        let mut names: std::collections::HashSet<String> = text
            .lines()
            .filter_map(|line| {
                let rest = line.strip_prefix('$')?;
                let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                let after = rest[end..].trim_start();
                (end > 0 && after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=~"))
                    .then(|| rest[..end].to_string())
            })
            .collect();
        // A class declared resource-like at the top of each (`class { 'env':
        // variant => 'min' }`) could only be declared once.
        names.extend(text.lines().filter_map(|line| {
            let rest = line.strip_prefix("class")?.trim_start().strip_prefix('{')?.trim_start();
            let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
            let name = &rest[1..];
            let end = name.find(quote)?;
            Some(format!("class {}", name[..end].without_anchor().to_lowercase()))
        }));
        if names.iter().any(|name| assigned.contains(name)) {
            return true;
        }
        assigned.extend(names);
    }
    false
}

/// Whether two files of a directory taken for an environment by its layout
/// alone (no `environment.conf`, not in an `environments/` directory),
/// neither importing the other, define the same node, most often `node
/// default` in each: read as one main manifest they could never compile
/// ("Node 'default' is already defined"), so each is applied on its own
/// (`puppet apply manifests/$1.pp`).
fn nodes_contradict(env: &Path) -> bool {
    if has_environment_conf(env) || codedir_of(env).is_some() {
        return false;
    }
    let files: Vec<PathBuf> = child_entries(&env.join("manifests"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    let imported: Vec<PathBuf> = files.iter().flat_map(|file| imported_paths(file)).collect();
    let mut defined: std::collections::HashSet<String> = std::collections::HashSet::new();
    for file in files.iter().filter(|file| !imported.iter().any(|p| file.starts_with(p))) {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let names = node_names(&text);
        if names.iter().any(|name| defined.contains(name)) {
            return true;
        }
        defined.extend(names);
    }
    false
}

/// The quoted or bare names of the `node` definitions starting a line
/// (`node 'a.example.com', default {`); regular expressions are left out.
fn node_names(text: &str) -> std::collections::HashSet<String> {
    let mut names = std::collections::HashSet::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("node") else { continue };
        if !rest.starts_with([' ', '\t', '\'', '"']) {
            continue;
        }
        let head = rest.split(['{', '#']).next().unwrap_or_default();
        let head = head.split(" inherits ").next().unwrap_or_default();
        for name in head.split(',') {
            let name = name.trim().trim_matches(['\'', '"']);
            if !name.is_empty() && !name.contains('/') && !name.contains(char::is_whitespace) {
                names.insert(name.to_ascii_lowercase());
            }
        }
    }
    names
}

/// An `environment.conf` that makes `dir` an environment: not one left in
/// Puppet's configuration directory (`/etc/puppetlabs`, holding
/// `code/environments/`), where Puppet never reads it.
fn has_environment_conf(dir: &Path) -> bool {
    let in_configuration_dir = dir.join("code/environments").is_dir() && !dir.join("manifests").is_dir();
    dir.join("environment.conf").is_file() && !in_configuration_dir
}

/// Manifests beside a Puppetfile, the directory being no module: the
/// Puppetfile installs the modules of that code (r10k, Bolt, `puppet apply`
/// of a demo), which may not be in the tree.
fn code_beside_puppetfile(dir: &Path) -> bool {
    dir.join("manifests").is_dir() && dir.join("Puppetfile").is_file() && !looks_like_module(dir)
}

/// A directory of Puppet's environment path that holds only modules (no
/// site manifest, no `environment.conf`): an environment all the same, whose
/// module path is its `modules/`.
fn is_bare_environment(dir: &Path) -> bool {
    dir.parent().is_some_and(|p| p.file_name().is_some_and(|n| n == "environments"))
        && child_dirs(&dir.join("modules")).iter().any(|module| module.join("manifests").is_dir())
}

/// Code beside a directory of modules or a Puppetfile, the directory being
/// no module: an environment even without an `environment.conf` (a Vagrant
/// or test setup's `puppet/` run with `--modulepath puppet/modules`).
fn holds_environment_layout(dir: &Path) -> bool {
    let beside_modules = dir.join("manifests").is_dir()
        && !looks_like_module(dir)
        && ["modules", "site-modules", "site"]
            .iter()
            .any(|m| child_dirs(&dir.join(m)).iter().any(|module| module.join("manifests").is_dir()));
    beside_modules || data_beside_modules(dir) || code_beside_puppetfile(dir)
}

/// Hiera data beside a directory of modules, the directory being no
/// module: an environment whose main manifest a module deploys
/// (`puppet/{modules,hieradata}`).
fn data_beside_modules(dir: &Path) -> bool {
    !looks_like_module(dir)
        && (dir.join("hieradata").is_dir() || (dir.join("data").is_dir() && dir.join("hiera.yaml").is_file()))
        && child_dirs(&dir.join("modules")).iter().any(|module| module.join("manifests").is_dir())
}

/// The tree a file named on its own belongs to, analysed whole so that the
/// file is seen as Puppet sees it: the nearest environment above it (not
/// past the top of its git work tree); else that work tree, when it holds a
/// module or modules; else the module the file sits in (or, for a module
/// without `init.pp` or `metadata.json`, its directory of modules when that
/// holds others). `None` when the file belongs to no such tree (a loose
/// manifest).
pub fn context_root(file: &Path) -> Option<PathBuf> {
    context_root_with(file, &AncestorChecks::default())
}

/// What [`context_root`] asks of a directory, kept for the searches of
/// many files, which share their ancestors.
#[derive(Default)]
pub struct AncestorChecks {
    work_tree_tops: DirAnswers,
    environments: DirAnswers,
}

impl AncestorChecks {
    fn work_tree_top(&self, dir: &Path) -> bool {
        self.work_tree_tops.answer(dir, |dir| dir.join(".git").exists())
    }

    fn environment(&self, dir: &Path) -> bool {
        self.environments.answer(dir, is_environment)
    }
}

/// As [`context_root`], asking `checks` what it knows of the ancestors.
pub fn context_root_with(file: &Path, checks: &AncestorChecks) -> Option<PathBuf> {
    let dirs: Vec<&Path> = file.ancestors().skip(1).filter(|a| !a.as_os_str().is_empty()).collect();
    let top = dirs.iter().position(|d| checks.work_tree_top(d));
    let within = &dirs[..top.map_or(dirs.len(), |t| t + 1)];
    if let Some(env) = within.iter().find(|d| checks.environment(d)) {
        return Some(env.to_path_buf());
    }
    let holds_modules = |d: &Path| looks_like_module(d) || d.join("manifests").is_dir();
    if let Some(top) = top.map(|t| dirs[t]) {
        if looks_like_module(top) || child_dirs(top).iter().any(|c| holds_modules(c)) {
            return Some(top.to_path_buf());
        }
    }
    let code_dir = within
        .iter()
        .position(|d| d.file_name().is_some_and(|n| DEFINITION_DIRS.iter().chain(EXAMPLE_DIRS).any(|s| n == *s)))?;
    let module = *within.get(code_dir + 1)?;
    if looks_like_module(module) {
        return Some(module.to_path_buf());
    }
    // A module without `init.pp` (a site's `profile`) is read with the
    // modules beside it; a directory that holds no other module (`/tmp`,
    // a home directory) is not read for it.
    let parent = *within.get(code_dir + 2)?;
    let modules_beside = child_dirs(parent).iter().any(|c| c.as_path() != module && holds_modules(c));
    Some(if modules_beside { parent } else { module }.to_path_buf())
}

/// The tree a named directory inside a module's code belongs to
/// (`examples/`, `tests/`, `manifests/object/`): that of a file in it, as
/// [`context_root`] finds it. Any other directory is a tree of its own.
pub fn context_root_of_dir(dir: &Path) -> Option<PathBuf> {
    let is_code_dir =
        |d: &Path| d.file_name().is_some_and(|n| DEFINITION_DIRS.iter().chain(EXAMPLE_DIRS).any(|s| n == *s));
    // The search ends at the first module, environment or work tree.
    let ends = |d: &Path| d.join(".git").exists() || looks_like_module(d) || is_environment(d);
    let code_dir = dir.ancestors().take_while(|d| !d.as_os_str().is_empty()).find(|d| is_code_dir(d) || ends(d))?;
    if !is_code_dir(code_dir) {
        return None;
    }
    let module = code_dir.parent()?;
    let in_module = looks_like_module(module) || (module.join("manifests").is_dir() && !is_environment(module));
    if !in_module {
        return None;
    }
    context_root(&dir.join("*.pp")).filter(|root| dir.starts_with(root) && root.as_path() != dir)
}

/// The environments a checked directory holds below it, when it is not one
/// itself: directories with an `environment.conf` or with code beside a
/// directory of modules one or two levels down, and the environments of an
/// `environments` directory (the directory itself or its child, as in
/// Puppet's code directory). Puppet compiles
/// each with its own modules, and two of them may define the same class:
/// each must be analysed on its own.
pub fn environments_within(dir: &Path) -> Vec<PathBuf> {
    // `manifests/init.pp` beside an `environment.conf` is the
    // environment's own manifest, not a module's.
    if !dir.is_dir() || (looks_like_module(dir) && !dir.join("environment.conf").is_file()) {
        return Vec::new();
    }
    let visible = |d: &PathBuf| d.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.'));
    if is_environment(dir) {
        let mut found = nested_environments(dir);
        add_deeper_environments(dir, &mut found);
        return found;
    }
    let mut found = Vec::new();
    let mut consider = |candidate: PathBuf, under_environments: bool| {
        let conf = has_environment_conf(&candidate);
        let environment = is_environment(&candidate) || is_bare_environment(&candidate);
        if conf
            || (under_environments && environment)
            || holds_environment_layout(&candidate)
            || holds_root_site(&candidate)
            || is_bolt_project(&candidate)
        {
            found.push(candidate);
        }
    };
    let dir_is_environments = dir.file_name().is_some_and(|n| n == "environments");
    for child in child_dirs(dir).into_iter().filter(visible) {
        if is_environment(&child) {
            consider(child, dir_is_environments);
            continue;
        }
        // A module's or a repository's test fixtures are not checked.
        if looks_like_module(&child) || child.file_name().is_some_and(|n| n == "spec") {
            continue;
        }
        if data_beside_modules(&child) {
            consider(child, false);
            continue;
        }
        let child_is_environments = child.file_name().is_some_and(|n| n == "environments");
        for grandchild in child_dirs(&child).into_iter().filter(visible) {
            // A code directory kept in the repository (`code/environments/<name>`).
            if !child_is_environments && grandchild.file_name().is_some_and(|n| n == "environments") {
                child_dirs(&grandchild).into_iter().filter(visible).for_each(|env| consider(env, true));
                continue;
            }
            consider(grandchild, child_is_environments);
        }
    }
    let nested: Vec<PathBuf> = found.iter().flat_map(|environment| nested_environments(environment)).collect();
    found.extend(nested);
    add_deeper_environments(dir, &mut found);
    found
}

/// Adds the environments kept deeper in `dir` than the layouts above look
/// (a module's Vagrant setup, `modules/app/vagrant/env/dev`): directories
/// with an `environment.conf` and code of their own, or with a site
/// manifest (or, named `puppet`, manifests) beside a directory of modules.
fn add_deeper_environments(dir: &Path, found: &mut Vec<PathBuf>) {
    // Where modules keep no environments, and test fixtures.
    const NOT_SEARCHED: &[&str] =
        &["spec", "files", "templates", "lib", "manifests", "functions", "types", "facts.d", "tasks", "node_modules"];
    let mut stack = vec![(dir.to_path_buf(), 0, false)];
    while let Some((current, depth, through_link)) = stack.pop() {
        for child in child_dirs(&current) {
            let name = child.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.starts_with('.') || NOT_SEARCHED.contains(&name.as_str()) {
                continue;
            }
            let through_link = through_link || child.is_symlink();
            // A site manifest beside a directory of modules (a book's
            // `chapter10/example2/production`) is one too; not through a
            // link, a second name for code kept elsewhere.
            // So is a `puppet/` directory of manifests beside modules (a build
            // step's `steps/data/setup/puppet`, applied with `--modulepath`).
            let site_beside_modules = !through_link
                && (child.join("manifests/site.pp").is_file()
                    || (name == "puppet" && child.join("manifests").is_dir()))
                && !looks_like_module(&child)
                && child_dirs(&child.join("modules")).iter().any(|module| module.join("manifests").is_dir());
            if (child.join("environment.conf").is_file() || site_beside_modules)
                && holds_code(&child)
                && !found.contains(&child)
            {
                found.push(child.clone());
            }
            if depth < 6 {
                stack.push((child, depth + 1, through_link));
            }
        }
    }
}

/// Whether an environment has code of its own: manifests, or a module
/// directory of its module path inside it.
fn holds_code(env: &Path) -> bool {
    let entries = read_environment_modulepath(env)
        .unwrap_or_else(|| ["site-modules", "site", "modules"].map(String::from).to_vec());
    env.join("manifests").is_dir()
        || entries.iter().any(|e| !e.starts_with('$') && !Path::new(e).is_absolute() && env.join(e).is_dir())
}

/// The environments an environment keeps in its `environments` directory
/// or a code directory's (`code/environments/`), each with code of its own,
/// or beside its own code (code beside a directory of modules): those are
/// compiled on their own.
fn nested_environments(dir: &Path) -> Vec<PathBuf> {
    let visible = |d: &PathBuf| d.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.'));
    let nested = std::iter::once(dir.join("environments"))
        .chain(child_dirs(dir).into_iter().filter(visible).map(|c| c.join("environments")));
    let mut found: Vec<PathBuf> = nested
        .flat_map(|n| child_dirs(&n))
        .filter(visible)
        .filter(|e| (is_environment(e) || is_bare_environment(e)) && holds_code(e))
        .collect();
    found.extend(child_dirs(dir).into_iter().filter(visible).filter(|c| holds_environment_layout(c)));
    found.dedup();
    found
}

/// The first `puppet.conf` (or a copy, `puppet.conf.erb`) in `dir` or at
/// most `depth` directories below it that sets an external node classifier.
fn node_classifier_within(dir: &Path, depth: usize) -> Option<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        match entry.file_type() {
            Ok(t) if t.is_dir() && !name.starts_with('.') => dirs.push(entry.path()),
            Ok(t) if !t.is_dir() && name.starts_with("puppet.conf") => files.push(entry.path()),
            _ => {}
        }
    }
    files.sort();
    dirs.sort();
    let sets_classifier = |path: &PathBuf, text: &str| {
        let template = path.extension().is_some_and(|e| e == "erb" || e == "epp");
        unconditional_lines(text, template).any(|line| {
            let Some((key, value)) = line.split_once('=') else { return false };
            let (key, value) = (key.trim(), value.trim());
            (key == "node_terminus" && value == "exec")
                || (key == "external_nodes" && !value.is_empty() && value != "none" && !value.contains("<%"))
        })
    };
    if let Some(conf) = files.into_iter().find(|f| std::fs::read_to_string(f).is_ok_and(|t| sets_classifier(f, &t))) {
        return Some(conf);
    }
    if depth == 0 {
        return None;
    }
    dirs.iter().find_map(|d| node_classifier_within(d, depth - 1))
}

/// The lines of a configuration file that every copy of it has: in an ERB
/// or EPP template, those outside its conditions and loops (a module's
/// `node_terminus = exec` under `<% if @enc %>` is an option, not the
/// site's choice).
fn unconditional_lines(text: &str, template: bool) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    text.lines().filter(move |line| {
        if !template {
            return true;
        }
        let outside = depth == 0;
        let mut rest = *line;
        while let Some(open) = rest.find("<%") {
            let after = &rest[open + 2..];
            let close = after.find("%>").unwrap_or(after.len());
            let code = after[..close].trim_start_matches(['-', '=']).trim_end_matches('-').trim();
            let opens = ["if ", "unless ", "case ", "while ", "for "].iter().any(|k| code.starts_with(k))
                || code.ends_with(" do")
                || code.contains(" do |")
                || code.ends_with('{');
            let closes = code == "end" || code.starts_with('}');
            if closes {
                depth = depth.saturating_sub(1);
            }
            if opens {
                depth += 1;
            }
            rest = &after[close.min(after.len())..];
        }
        outside && depth == 0 && !line.contains("<%")
    })
}

/// Puppet's base module path for an environment of a code directory
/// (`<codedir>/environments/<name>`): `<codedir>/modules`, when it exists
/// and the environment's module path takes it (`$basemodulepath`, or no
/// `modulepath` setting, whose default ends with it).
pub fn base_modules_of(environment: &Path) -> Option<PathBuf> {
    if !is_environment(environment) && !is_bare_environment(environment) {
        return None;
    }
    let environments = environment.parent().filter(|p| p.file_name().is_some_and(|n| n == "environments"))?;
    let modules = environments.parent()?.join("modules");
    let takes_base =
        read_environment_modulepath(environment).is_none_or(|entries| entries.iter().any(|e| e == "$basemodulepath"));
    (takes_base && modules.is_dir()).then_some(modules)
}

/// The directories of an environment's module path that its code
/// directory holds (`$basemodulepath`, `$codedir/…`), in the path's order.
pub fn code_dir_module_path(environment: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    match read_environment_modulepath(environment).filter(|_| is_environment(environment)) {
        Some(entries) => {
            for entry in entries {
                let dir = if entry == "$basemodulepath" {
                    base_modules_of(environment)
                } else {
                    in_codedir(environment, &entry)
                };
                dirs.extend(dir.filter(|d| !dirs.contains(d)));
            }
        }
        None => dirs.extend(base_modules_of(environment)),
    }
    dirs
}

impl Workspace {
    /// Where an environment is checked within a larger tree, the
    /// configuration directory above it (`puppet/puppet.conf` over
    /// `puppet/development/`), inside that tree, may set the classifier.
    pub fn find_node_classifier_above(&mut self, environments: &[PathBuf], trees: &[PathBuf]) {
        if self.node_classifier.is_some() {
            return;
        }
        // Each directory once: many named files share their ancestors.
        let mut above: Vec<&Path> = environments
            .iter()
            .filter(|environment| environment.is_dir())
            .flat_map(|environment| {
                environment.ancestors().skip(1).take_while(|dir| trees.iter().any(|tree| dir.starts_with(tree)))
            })
            .collect();
        above.sort_unstable_by(|a, b| b.cmp(a));
        above.dedup();
        self.node_classifier = above.into_iter().find_map(|dir| node_classifier_within(dir, 0));
    }

    /// Recognises environments, module directories and single modules among
    /// the checked paths; `module_path` adds directories of modules. Paths
    /// are absolute and normalised ([`crate::paths::normalize`]).
    pub fn discover(paths: &[PathBuf], module_path: &[PathBuf]) -> Workspace {
        let mut ws = Workspace { roots: paths.to_vec(), ..Workspace::default() };
        for path in paths {
            let path = path.clone();
            if !path.is_dir() {
                ws.place_file(&path);
                continue;
            }
            if is_environment(&path) || is_bare_environment(&path) {
                ws.add_environment(&path);
                continue;
            }
            // A checked directory that is no environment may still keep the
            // Puppetfile that installs its dependencies.
            let puppetfile = read_puppetfile(&path);
            if !looks_like_module(&path) {
                let known = ws.module_dirs.len();
                ws.add_installed_module_dirs(&path, &puppetfile);
                // Without a Puppetfile to install them, the `modules/` of
                // a directory that is no environment keeps module sources.
                if !path.join("Puppetfile").is_file() {
                    for position in known..ws.module_dirs.len() {
                        let dir = ws.module_dirs[position].clone();
                        ws.add_module_sources(&dir);
                    }
                }
            }
            ws.add_puppetfile(&path, puppetfile);
            if looks_like_module(&path) {
                let name = metadata_module_name(&path)
                    .or_else(|| path_name(&path).filter(|n| is_module_name(n)))
                    .unwrap_or_else(|| "main".into());
                ws.single_modules.insert(path.clone(), name);
            } else if child_dirs(&path).iter().any(|child| looks_like_module(child) || child.join("manifests").is_dir())
            {
                ws.module_dirs.push(path.clone());
                ws.add_module_sources(&path);
            } else if path.join("manifests").is_dir() {
                ws.environments.push(path.clone());
                ws.assume_module_dirs_beside(&path);
            } else if path.join("Puppetfile").is_file() {
                // A site applied with `--modulepath dist:modules`: its
                // Puppetfile says the tree is deployed, with its modules.
                ws.assume_module_dirs_beside(&path);
                if ws.module_dirs.is_empty() {
                    ws.assume_module_dirs_below(&path);
                }
            } else {
                ws.assume_module_dirs_below(&path);
            }
        }
        ws.node_classifier = paths.iter().filter(|p| p.is_dir()).find_map(|p| node_classifier_within(p, 1));
        ws.module_dirs.extend(module_path.iter().cloned());
        ws.add_lone_modules();
        if ws.node_classifier.is_none() {
            // A site that manages its Puppet server's configuration keeps
            // it in a module (`puppetmaster/templates/puppet.conf.erb`).
            ws.node_classifier = ws.modules().values().find_map(|module| {
                ["templates", "files"].iter().find_map(|served| node_classifier_within(&module.join(served), 1))
            });
        }
        ws.module_dirs.dedup();
        // Modules inside a module (test fixtures) are not on the module path;
        // directories of modules grouped in one (`modules/{public,local}`) are.
        let outer = ws.module_dirs.clone();
        let in_module_of = |p: &PathBuf, o: &PathBuf| {
            let first = p.strip_prefix(o).ok().and_then(|rest| rest.components().next());
            first.is_some_and(|first| {
                let module = o.join(first);
                looks_like_module(&module) || module.join("manifests").is_dir()
            })
        };
        let nested = |p: &PathBuf| outer.iter().any(|o| o != p && in_module_of(p, o));
        ws.module_dirs.retain(|d| !nested(d));
        ws.environments.retain(|e| !nested(e));
        ws
    }

    /// Adds the directories of modules that the Vagrantfiles of the tree
    /// put on the module path (`puppet.module_path = "../modules"`), those
    /// inside the `checked` directories.
    pub fn add_tool_module_dirs(&mut self, checked: &[PathBuf], searched: &mut super::tool_manifests::Searched) {
        let checked_set: std::collections::HashSet<PathBuf> = checked.iter().cloned().collect();
        let mut found = std::collections::BTreeSet::new();
        for dir in self.environments.iter().chain(checked) {
            found.extend(super::tool_manifests::tool_module_dirs(dir, &checked_set, searched));
        }
        for dir in found {
            if checked.iter().any(|root| dir.starts_with(root)) && !self.module_dirs.contains(&dir) {
                self.module_dirs.push(dir);
            }
        }
    }

    /// The manifests Vagrantfiles and Packer templates apply, for the
    /// environments whose `environment.conf` names no manifest: one file
    /// named is the site manifest; several, or a computed name, make each
    /// file one applied on its own.
    /// `checked` are the directories the user named, whose tools may be
    /// kept beside the environment; `searched`, what earlier trees of the
    /// run found.
    pub fn read_tool_manifests(&mut self, checked: &[PathBuf], searched: &mut super::tool_manifests::Searched) {
        let checked_set: std::collections::HashSet<PathBuf> = checked.iter().cloned().collect();
        for dir in self.environments.iter().chain(checked) {
            self.tool_facts.extend(super::tool_manifests::tool_facts(dir, &checked_set, searched));
        }
        for env in &self.environments {
            if self.site_manifests.contains_key(env) {
                continue;
            }
            let named = super::tool_manifests::named_manifests_for(env, &checked_set, searched);
            let dir = env.join("manifests");
            let mut files: Vec<Option<&String>> =
                named.iter().filter(|n| n.dir == dir).map(|n| n.file.as_ref()).collect();
            files.sort();
            files.dedup();
            // Unless a tool applies one file by name (Vagrant's default.pp).
            if !matches!(files.as_slice(), [Some(_)]) && nodes_contradict(env) {
                self.separately_applied.insert(env.clone());
                continue;
            }
            // Files that import others or classify nodes make a site read
            // whole, wherever a tool applies one of them (a Vagrant box
            // beside production).
            if !files.is_empty() && super::tool_manifests::reads_as_one_site(&dir) {
                // Except a file a tool applies that `site.pp` does not
                // import (a Vagrant box's bootstrap beside a Puppet 3 site):
                // Puppet 3 reads `site.pp` and what it imports.
                let site = dir.join("site.pp");
                // With no `site.pp`, the one file a tool applies is the
                // site, with what it imports (`import "classes/*.pp"`),
                // where no other file classifies nodes or imports: the
                // directory's other files are not read with it.
                if let [Some(file)] = files.as_slice() {
                    let applied = dir.join(file);
                    let imported = imported_paths(&applied);
                    let alone = || {
                        super::tool_manifests::files_reading_as_one_site(&dir, false)
                            .iter()
                            .all(|other| *other == applied || imported.iter().any(|p| other.starts_with(p)))
                    };
                    if !site.exists() && applied.is_file() && !imported.is_empty() && alone() {
                        self.site_imports.insert(env.clone(), imported);
                        self.site_manifests.insert(env.clone(), applied);
                        continue;
                    }
                }
                let imported = imported_paths(&site);
                if !imported.is_empty() {
                    for file in files.iter().flatten() {
                        let applied = dir.join(file);
                        if applied != site && applied.is_file() && !imported.iter().any(|p| applied.starts_with(p)) {
                            self.applied_alone.insert(applied);
                        }
                    }
                }
                continue;
            }
            match files.as_slice() {
                [] if files_contradict(env) => {
                    self.separately_applied.insert(env.clone());
                }
                [] => {}
                [Some(file)] if dir.join(file).is_file() => {
                    self.site_manifests.insert(env.clone(), dir.join(file));
                }
                _ => {
                    self.separately_applied.insert(env.clone());
                }
            }
        }
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
                self.add_environment(owner);
            }
        } else if let Some(modules) = owner.parent() {
            let modules =
                if modules.as_os_str().is_empty() { Path::new(".").to_path_buf() } else { modules.to_path_buf() };
            if !self.module_dirs.contains(&modules) {
                self.module_dirs.push(modules);
            }
        }
    }

    /// An environment: its site manifests, its modulepath (entries that are
    /// not in the tree are remembered), its Puppetfile.
    fn add_environment(&mut self, root: &Path) {
        self.environments.push(root.to_path_buf());
        let puppetfile = read_puppetfile(root);
        if let Some(manifest) = read_environment_manifest(root).or_else(|| legacy_main_manifest(root)) {
            self.site_manifests.insert(root.to_path_buf(), manifest);
        } else if holds_root_site(root) {
            let manifest = root.join("site.pp");
            self.site_imports.insert(root.to_path_buf(), imported_paths(&manifest));
            self.site_manifests.insert(root.to_path_buf(), manifest);
        }
        // An environment that is itself a module its Puppetfile installs
        // (`mod 'nest', :branch => :control_branch`): once deployed, its
        // own `manifests/` are that module on the module path.
        let own_module = metadata_module_name(root).filter(|name| {
            looks_like_module(root)
                && puppetfile.installed.iter().any(|installed| installed == name)
                && self.site_manifests.get(root).is_some_and(|site| !root.join("manifests").starts_with(site))
        });
        if let Some(name) = own_module {
            self.single_modules.insert(root.to_path_buf(), name);
        }
        // The code directory's Puppetfile installs into `$codedir/modules`,
        // the base module path, the modules it takes from the tree too.
        let takes_base = read_environment_modulepath(root)
            .is_none_or(|entries| entries.iter().any(|entry| entry == "$basemodulepath"));
        if let Some(codedir) = codedir_of(root).filter(|_| takes_base) {
            self.add_local_modules(codedir, &read_puppetfile(codedir));
        }
        let conf = root.join("environment.conf");
        match read_environment_modulepath(root) {
            Some(entries) => {
                let mut stated = Vec::new();
                for entry in entries {
                    let dir = root.join(&entry);
                    if !entry.starts_with('$') && !Path::new(&entry).is_absolute() && dir.is_dir() {
                        stated.push(crate::paths::normalize(&dir, root));
                        self.module_dirs.push(crate::paths::normalize(&dir, root));
                    } else if let Some(own) = deployed_own_dir(root, &entry) {
                        self.module_dirs.push(own);
                    } else if in_codedir(root, &entry).is_some()
                        || (entry == "$basemodulepath" && base_modules_of(root).is_some())
                    {
                        // Read as a module path: see `code_dir_module_path`.
                    } else {
                        let installs_here = !puppetfile.installed.is_empty()
                            && crate::paths::normalize(&dir, root)
                                == crate::paths::normalize(
                                    &root.join(puppetfile.moduledir.as_deref().unwrap_or("modules")),
                                    root,
                                );
                        let filled_by = installs_here.then(|| root.join("Puppetfile"));
                        self.missing_entries.push(MissingEntry { conf: conf.clone(), entry, filled_by });
                    }
                }
                self.stated_module_paths.push(stated);
            }
            // A Bolt project reads the module path Bolt gives it.
            None if is_bolt_project(root) => self.add_installed_module_dirs(root, &puppetfile),
            None => {
                let defaults = ["site-modules", "site", "modules"].iter().map(|m| root.join(m));
                self.module_dirs.extend(defaults.filter(|d| d.is_dir()));
                // Without an `environment.conf`, where the tree's own tools
                // install modules is where they are meant to be read from.
                self.add_installed_module_dirs(root, &puppetfile);
                self.assume_module_dirs_beside(root);
            }
        }
        self.add_puppetfile(root, puppetfile);
    }

    /// Directories beside an environment's `manifests/` that hold modules
    /// (`profiles/`, `roles/`) when nothing names its module path: the site
    /// is deployed with them on it, or its classes could not be found.
    fn assume_module_dirs_beside(&mut self, root: &Path) {
        const NOT_MODULE_DIRS: &[&str] = &[
            "manifests",
            "environments",
            "spec",
            "tests",
            "examples",
            "data",
            "hieradata",
            "files",
            "templates",
            "lib",
        ];
        // A configuration directory's `puppet.conf` may state them.
        let stated = conf_dir_module_path(root);
        for dir in child_dirs(root) {
            let Some(name) = path_name(&dir) else { continue };
            if name.starts_with('.') || NOT_MODULE_DIRS.contains(&name.as_str()) || self.module_dirs.contains(&dir) {
                continue;
            }
            let holds_modules = child_dirs(&dir)
                .iter()
                .any(|child| path_name(child).is_some_and(|n| is_module_name(&n)) && child.join("manifests").is_dir());
            if holds_modules && !looks_like_module(&dir) && !is_environment(&dir) {
                self.module_dirs.push(dir.clone());
                if !stated.contains(&dir) {
                    self.assumed_module_dirs.push(dir);
                }
            } else if !holds_modules && self.is_unplaced_module(root, &dir, &name) {
                self.single_modules.insert(dir.clone(), name);
                self.assumed_modules.push(dir);
            }
        }
    }

    /// Directories a few levels below a checked directory that is neither
    /// an environment nor a module nor a directory of modules, whose
    /// children are modules (`deployment/puppet/<module>/manifests`): a
    /// repository keeping its modules there is deployed with them on the
    /// module path, or its classes could not be found. A notice says so.
    fn assume_module_dirs_below(&mut self, root: &Path) {
        const NOT_SEARCHED: &[&str] =
            &["spec", "files", "templates", "lib", "data", "hieradata", "node_modules", "examples", "tests"];
        const MAX_DEPTH: usize = 3;
        let mut candidates: Vec<(PathBuf, BTreeSet<String>)> = Vec::new();
        let mut stack = vec![(root.to_path_buf(), 0)];
        while let Some((dir, depth)) = stack.pop() {
            for child in child_dirs(&dir) {
                let Some(name) = path_name(&child) else { continue };
                // A link is a second name for modules kept elsewhere.
                if name.starts_with('.') || NOT_SEARCHED.contains(&name.as_str()) || child.is_symlink() {
                    continue;
                }
                // A Puppetfile below that installs modules from beside it
                // (`mod 'vagrant-roles', :path => 'roles'`); an
                // environment's own is read with the environment.
                if !is_environment(&child) && child.join("Puppetfile").is_file() {
                    self.add_local_modules(&child, &read_puppetfile(&child));
                }
                if looks_like_module(&child) && child.join("metadata.json").is_file() {
                    self.lone_modules.push(child.clone());
                }
                if looks_like_module(&child)
                    || is_environment(&child)
                    || is_bare_environment(&child)
                    || data_beside_modules(&child)
                    || child.join("environment.conf").exists()
                    || child.join("manifests").is_dir()
                {
                    continue;
                }
                // A directory named `modules` is one whatever its modules
                // hold (`hdp/manifests/params.pp` without an `init.pp`).
                let named_modules = name == "modules";
                let modules: BTreeSet<String> = child_dirs(&child)
                    .iter()
                    .filter(|c| looks_like_module(c) || (named_modules && c.join("manifests").is_dir()))
                    .filter_map(|c| path_name(c).filter(|n| is_module_name(n)))
                    .collect();
                if modules.len() >= 2 || (named_modules && !modules.is_empty()) {
                    candidates.push((child, modules));
                } else if depth + 1 < MAX_DEPTH {
                    stack.push((child, depth + 1));
                }
            }
        }
        // Two directories with a module of the same name (`modules/` and an
        // `old/` copy): which one Puppet reads is not known, so neither.
        let known: BTreeSet<String> =
            self.module_dirs.iter().flat_map(|d| child_dirs(d)).filter_map(|c| path_name(&c)).collect();
        for (dir, modules) in &candidates {
            let collides = modules.iter().any(|m| known.contains(m))
                || candidates.iter().any(|(other, theirs)| other != dir && !modules.is_disjoint(theirs));
            if !collides && !self.module_dirs.contains(dir) {
                self.module_dirs.push(dir.clone());
                self.assumed_module_dirs.push(dir.clone());
            }
        }
    }

    /// Whether a directory beside an environment's code is a module of its
    /// own that nothing else provides: its `manifests/` defines classes or
    /// defined types named after it, no module directory read so far and
    /// no Puppetfile at the root has a module of that name.
    fn is_unplaced_module(&self, root: &Path, dir: &Path, name: &str) -> bool {
        if !is_module_name(name) || !dir.join("manifests").is_dir() || holds_main_manifest(dir) {
            return false;
        }
        let provided = self.module_dirs.iter().any(|modules| modules.join(name).join("manifests").is_dir())
            || self.single_modules.values().any(|module| module == name)
            || read_puppetfile(root).installed.iter().any(|module| module == name);
        !provided && defines_own_names(&dir.join("manifests"), name)
    }

    /// The lone modules whose name no module directory or other module
    /// has.
    fn add_lone_modules(&mut self) {
        let lone = std::mem::take(&mut self.lone_modules);
        let names: Vec<Option<String>> =
            lone.iter().map(|dir| metadata_module_name(dir).filter(|name| is_module_name(name))).collect();
        for (dir, name) in lone.iter().zip(&names) {
            let Some(name) = name else { continue };
            let twice = names.iter().filter(|other| other.as_ref() == Some(name)).count() > 1;
            let provided = self.module_dirs.iter().any(|modules| modules.join(name).is_dir())
                || self.single_modules.values().any(|module| module == name);
            if !twice && !provided {
                self.single_modules.insert(dir.clone(), name.clone());
            }
        }
    }

    /// In a checked collection of module sources, a directory whose name
    /// Puppet cannot load (`acme-ntp/`, a clone's name) is the module its
    /// `metadata.json` names, as `puppet module build` and `install` make
    /// it, where no directory of that name is beside it.
    fn add_module_sources(&mut self, collection: &Path) {
        let children = child_dirs(collection);
        for child in &children {
            if path_name(child).is_some_and(|name| is_module_name(&name)) || !child.join("manifests").is_dir() {
                continue;
            }
            let Some(name) = metadata_module_name(child).filter(|name| is_module_name(name)) else { continue };
            let taken = children.iter().any(|other| path_name(other).as_deref() == Some(name.as_str()))
                || self.single_modules.values().any(|module| *module == name);
            if !taken {
                self.single_modules.insert(child.clone(), name);
            }
        }
    }

    /// A module a `Puppetfile` at `root` installs from the tree is the
    /// tree's own code, on the module path once installed.
    fn add_local_modules(&mut self, root: &Path, puppetfile: &Puppetfile) {
        for (module, path) in &puppetfile.local {
            let dir = crate::paths::normalize(Path::new(path), root);
            if dir.join("manifests").is_dir() && dir.starts_with(root) && !self.single_modules.contains_key(&dir) {
                self.single_modules.insert(dir, module.clone());
            }
        }
    }

    /// The module directories a `Puppetfile` (its `moduledir`) or a Bolt
    /// project at `root` installs into or reads.
    fn add_installed_module_dirs(&mut self, root: &Path, puppetfile: &Puppetfile) {
        for dir in puppetfile_moduledir(root, puppetfile).into_iter().chain(bolt_modulepath(root)) {
            if !self.module_dirs.contains(&dir) {
                self.module_dirs.push(dir);
            }
        }
    }

    /// The modules a `Puppetfile` at `root` installs or comments out.
    fn add_puppetfile(&mut self, root: &Path, puppetfile: Puppetfile) {
        self.add_local_modules(root, &puppetfile);
        let from_tree = puppetfile.local.iter().map(|(module, _)| module).chain(&puppetfile.kept);
        self.puppetfile_from_tree.extend(from_tree.cloned());
        for module in puppetfile.installed {
            self.puppetfile_modules.entry(module).or_insert_with(|| root.join("Puppetfile"));
        }
        for module in puppetfile.disabled {
            self.puppetfile_disabled.entry(module).or_insert_with(|| root.join("Puppetfile"));
        }
        // `bolt module install` installs what a project's `modules:` lists.
        if root.join("bolt-project.yaml").is_file() {
            let config = root.join("bolt-project.yaml");
            for module in bolt_project_modules(&std::fs::read_to_string(&config).unwrap_or_default()) {
                self.puppetfile_modules.entry(module).or_insert_with(|| config.clone());
            }
        }
    }

    /// Whether module `name` of the module directory at `position` of the
    /// module path is a copy Puppet never loads, read as a copy of its own:
    /// a directory before it in a stated module path has the module (Puppet
    /// loads the first), or its `metadata.json` and `init.pp` name another
    /// module that the module path has (a packaged `saz_rsyslog/` beside
    /// `rsyslog/`).
    fn is_module_copy(&self, position: usize, name: &str) -> bool {
        let dir = self.module_dirs[position].join(name);
        let key = (dir.clone(), self.module_dirs.len());
        if let Some(&known) = self.module_copies.0.lock().expect("no panic while asked").get(&key) {
            return known;
        }
        let has_module = |modules: &PathBuf, module: &str| {
            let copy = modules.join(module);
            copy != dir
                && !dir.starts_with(modules.join(module))
                && (copy.join("manifests").is_dir() || copy.join("metadata.json").is_file())
                && looks_loadable(&copy)
        };
        // Only where an `environment.conf` states the order.
        let shadowed = self.stated_module_paths.iter().any(|stated| {
            stated
                .iter()
                .position(|d| *d == self.module_dirs[position])
                .is_some_and(|own| stated[..own].iter().any(|earlier| has_module(earlier, name)))
        });
        // Its classes are named for that module too (`class rsyslog` in
        // `init.pp`), not for the directory (a stale name in metadata.json).
        let named_for_another = || {
            metadata_module_name(&dir).filter(|named| named != name).is_some_and(|named| {
                let init = std::fs::read_to_string(dir.join("manifests/init.pp")).unwrap_or_default();
                let defines_named = init.lines().any(|line| {
                    line.trim_start()
                        .strip_prefix("class")
                        .and_then(|rest| rest.trim_start().strip_prefix(named.as_str()))
                        .is_some_and(|after| {
                            !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                        })
                });
                defines_named && self.module_dirs.iter().any(|modules| has_module(modules, &named))
            })
        };
        let copy = shadowed || named_for_another();
        self.module_copies.0.lock().expect("no panic while asked").insert(key, copy);
        copy
    }

    /// The role of a file in this layout.
    /// Whether a tool applies the file on its own (`puppet apply FILE`): a
    /// file of `manifests/` where they are applied one by one, or one a
    /// tool applies beside a site that does not import it.
    pub fn applied_on_its_own(&self, file: &Path) -> bool {
        self.applied_alone.contains(file)
            || self.separately_applied.iter().any(|env| file.parent() == Some(env.join("manifests").as_path()))
    }

    pub fn role(&self, file: &Path) -> FileRole {
        if self.applied_alone.contains(file) {
            return FileRole::Standalone;
        }
        for env in self.environments.iter().filter(|env| !self.separately_applied.contains(*env)) {
            let site = self.site_manifests.get(env).cloned().unwrap_or_else(|| env.join("manifests"));
            let imported = self.site_imports.get(env).is_some_and(|paths| paths.iter().any(|p| file.starts_with(p)));
            if file.starts_with(&site) || imported {
                return FileRole::Site { root: env.clone() };
            }
        }
        for (dir, name) in &self.single_modules {
            if let Ok(rest) = file.strip_prefix(dir) {
                if let Some(role) = role_in_module_tree(dir, name, rest) {
                    return role;
                }
            }
        }
        for (position, modules) in self.module_dirs.iter().enumerate() {
            if let Ok(rest) = file.strip_prefix(modules) {
                let mut parts = rest.components();
                let module = parts.next().map(|c| c.as_os_str().to_string_lossy().into_owned());
                let loadable = |m: &String| self.loadable.answer(&modules.join(m), looks_loadable);
                let Some(module) = module.filter(|m| is_module_name(m) && loadable(m)) else {
                    continue;
                };
                let role = role_in_module_tree(&modules.join(&module), &module, parts.as_path());
                match role {
                    Some(FileRole::Module { .. }) if self.is_module_copy(position, &module) => {
                        return FileRole::Standalone
                    }
                    Some(role) => return role,
                    None => {}
                }
            }
        }
        FileRole::Standalone
    }

    /// For a file in the `manifests/` of a module found in a directory of
    /// modules, the start every name it may define has: Puppet's autoloader
    /// reads it only for names under the module's directory name and the
    /// file's path (`apache/manifests/mod/ssl.pp`: `apache::mod::ssl`), and
    /// refuses any other name when it does. `None` for any other file.
    pub fn autoload_namespace(&self, file: &Path, role: &FileRole) -> Option<String> {
        let FileRole::Module { module: named } = role else { return None };
        let rest = self.module_dirs.iter().find_map(|dir| file.strip_prefix(dir).ok())?;
        let parts: Vec<String> = rest.components().map(|c| c.as_os_str().to_string_lossy().to_lowercase()).collect();
        let [module, manifests, inner @ .., file_name] = parts.as_slice() else { return None };
        let stem = file_name.strip_suffix(".pp")?;
        if module != named || manifests != "manifests" || self.single_modules.keys().any(|dir| file.starts_with(dir)) {
            return None;
        }
        Some(path_namespace(module, inner, stem))
    }

    /// Functions the modules define in Ruby (`lib/puppet/functions/**`,
    /// `lib/puppet/parser/functions/*`), by Puppet name.
    pub fn ruby_functions(&self) -> std::collections::BTreeSet<String> {
        let mut names = std::collections::BTreeSet::new();
        for dir in self.modules().values() {
            let modern = dir.join("lib/puppet/functions");
            let mut stack = vec![modern.clone()];
            while let Some(current) = stack.pop() {
                for path in child_entries(&current) {
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|e| e == "rb") {
                        let relative = path.strip_prefix(&modern).unwrap_or(&path).with_extension("");
                        let parts: Vec<String> =
                            relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                        names.insert(parts.join("::"));
                    }
                }
            }
            for path in child_entries(&dir.join("lib/puppet/parser/functions")) {
                if path.extension().is_some_and(|e| e == "rb") {
                    if let Some(stem) = path.file_stem() {
                        names.insert(stem.to_string_lossy().into_owned());
                    }
                }
            }
        }
        names
    }

    /// Every module directory, by module name (first one on the path wins).
    pub fn modules(&self) -> BTreeMap<String, PathBuf> {
        let key = (self.module_dirs.clone(), self.single_modules.clone());
        let mut found = self.modules_found.0.lock().expect("no panic while finding modules");
        if let Some((known_for, modules)) = found.as_ref() {
            if *known_for == key {
                return modules.clone();
            }
        }
        let modules = self.find_modules();
        *found = Some((key, modules.clone()));
        modules
    }

    fn find_modules(&self) -> BTreeMap<String, PathBuf> {
        let mut modules = BTreeMap::new();
        for (dir, name) in &self.single_modules {
            modules.entry(name.clone()).or_insert_with(|| dir.clone());
        }
        for dir in &self.module_dirs {
            for child in child_dirs(dir).into_iter().filter(|child| looks_loadable(child)) {
                if let Some(name) = path_name(&child).filter(|n| is_module_name(n)) {
                    modules.entry(name).or_insert(child);
                }
            }
        }
        // Modules kept in modules' examples, after every real one.
        let roots: Vec<PathBuf> = modules.values().cloned().collect();
        for root in roots {
            for examples in EXAMPLE_DIRS {
                for child in child_dirs(&root.join(examples)) {
                    let nested = if is_example_site(&child) {
                        child_dirs(&child.join("modules")).into_iter().filter(|d| is_nested_module(d)).collect()
                    } else if is_nested_module(&child) {
                        vec![child]
                    } else {
                        Vec::new()
                    };
                    for nested in nested {
                        if let Some(name) = path_name(&nested) {
                            modules.entry(name).or_insert(nested);
                        }
                    }
                }
            }
        }
        modules
    }
}

/// The path of a submodule named after `module` (`path = modules/nfs`)
/// that the `.gitmodules` of `dir` declares, when its directory holds no
/// `manifests/`.
pub fn submodule_path(dir: &std::path::Path, module: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".gitmodules")).ok()?;
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("path")?.trim_start().strip_prefix('=').map(str::trim))
        .find(|path| {
            std::path::Path::new(path).file_name().is_some_and(|name| name == module)
                && !dir.join(path).join("manifests").is_dir()
        })
        .map(str::to_string)
}

/// The file Puppet's autoloader reads for a class or defined type:
/// `a` → `a/manifests/init.pp`, `a::b::c` → `a/manifests/b/c.pp`.
/// The name a module file's path gives, which every name it defines must
/// start with: the module, the directories under `manifests/`, and the
/// file's stem unless it is the module's `init.pp`.
pub fn path_namespace(module: &str, inner: &[String], stem: &str) -> String {
    let mut names = vec![module.to_string()];
    names.extend(inner.iter().cloned());
    if !(inner.is_empty() && stem == "init") {
        names.push(stem.to_string());
    }
    names.join("::")
}

pub fn autoload_path(name: &str) -> PathBuf {
    let mut parts = name.without_anchor().split("::");
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
    // A symlinked module is known by the link's name: the target's is asked
    // only of a path without a name of its own (`..`).
    let own = |path: &Path| path.file_name().map(|n| n.to_string_lossy().into_owned());
    own(path).or_else(|| std::fs::canonicalize(path).ok().and_then(|p| own(&p)))
}

fn child_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|e| e.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    entries.sort();
    entries
}

fn child_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// Whether some manifest of a module's `manifests/` (the first few read)
/// defines a class or defined type named after the module.
fn defines_own_names(manifests: &Path, module: &str) -> bool {
    const FILES_READ: usize = 32;
    let pattern = format!(r"(?m)^\s*(class|define)\s+(::)?{}(::[a-z0-9_]+)*[\s({{]", regex::escape(module));
    let Ok(own_name) = regex::Regex::new(&pattern) else { return false };
    let mut stack = vec![manifests.to_path_buf()];
    let mut read = 0;
    while let Some(dir) = stack.pop() {
        for entry in child_entries(&dir) {
            if entry.is_dir() {
                stack.push(entry);
            } else if entry.extension().is_some_and(|e| e == "pp") && read < FILES_READ {
                read += 1;
                if std::fs::read_to_string(&entry).is_ok_and(|text| own_name.is_match(&text)) {
                    return true;
                }
            }
        }
    }
    false
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
    fn bolt_project_module_lists() {
        let config = "name: boss\nmodules:\n  - name: puppet/python\n    version_requirement: '>= 6.0.0'\n  - puppetlabs-stdlib # core\n  - git: https://github.com/puppetlabs/puppetlabs-yaml\n    ref: main\nmodulepath:\n  - site\n";
        assert_eq!(bolt_project_modules(config), ["python", "stdlib"]);
        assert!(bolt_project_modules("name: boss\nmodulepath: [site]\n").is_empty());
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
        assert_eq!(ws.role(&root.join("modules/ntp/examples/init.pp")), FileRole::Example { module: "ntp".into() });
        assert_eq!(ws.role(&root.join("modules/ntp/types/port.pp")), FileRole::Module { module: "ntp".into() });
        assert_eq!(ws.role(&root.join("modules/ntp/functions/f.pp")), FileRole::Module { module: "ntp".into() });
        assert_eq!(ws.role(&root.join("modules/ntp/plans/p.pp")), FileRole::Module { module: "ntp".into() });
        assert_eq!(ws.role(&root.join("loose.pp")), FileRole::Standalone);
        assert_eq!(
            ws.missing_entries,
            vec![MissingEntry {
                conf: root.join("environment.conf"),
                entry: "$basemodulepath".into(),
                filled_by: None
            }]
        );
    }
}
