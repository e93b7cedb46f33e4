//! Resource types that modules write in Ruby (`lib/puppet/type/*.rb`): the
//! attributes each accepts, where the file says so plainly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::workspace::Workspace;

/// A resource type a module writes in Ruby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RubyType {
    /// The module that defines it.
    pub module: String,
    /// Its attributes besides `name`, `provider` and the metaparameters, or
    /// `None` where the code may add some mplint cannot read (a mixin, a
    /// loop, a parent type, another file reopening the type, two modules
    /// defining it).
    pub attributes: Option<BTreeSet<String>>,
    /// The one attribute that identifies a resource beside its title (its
    /// namevar), or `None` when there are several (`name` and
    /// `ruby_version`), title patterns, or code mplint cannot read: then
    /// two resources of the type are one only if their titles are.
    pub namevar: Option<String>,
}

/// Every Ruby resource type of the tree's modules, by name.
pub fn discover(workspace: &Workspace) -> BTreeMap<String, RubyType> {
    use rayon::prelude::*;
    let mut type_files: Vec<(String, PathBuf, String)> = Vec::new();
    let mut lib_files: Vec<PathBuf> = Vec::new();
    for (module, dir) in workspace.modules() {
        let type_dir = dir.join("lib/puppet/type");
        for path in ruby_files(&dir.join("lib")) {
            let stem = path.file_stem().map(|s| s.to_string_lossy().to_ascii_lowercase());
            match stem {
                Some(stem) if path.parent().is_some_and(|p| p == type_dir) => {
                    type_files.push((module.clone(), path, stem))
                }
                _ => lib_files.push(path),
            }
        }
    }
    // Files are read in parallel, then taken in module order: the first
    // module to define a type is the one named.
    let read: Vec<(Option<BTreeSet<String>>, Option<String>)> = type_files
        .par_iter()
        .map(|(_, path, stem)| match std::fs::read_to_string(path) {
            Ok(text) => {
                read_type(&text, stem).map_or((None, None), |(attributes, namevar)| (Some(attributes), namevar))
            }
            Err(_) => (None, None),
        })
        .collect();
    let mut types: BTreeMap<String, RubyType> = BTreeMap::new();
    for ((module, _, stem), (attributes, namevar)) in type_files.into_iter().zip(read) {
        match types.entry(stem) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(RubyType { module, attributes, namevar });
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                if slot.get().attributes != attributes || slot.get().namevar != namevar {
                    slot.get_mut().attributes = None;
                    slot.get_mut().namevar = None;
                }
            }
        }
    }
    // Code elsewhere that adds to a type: `Puppet::Type.type(:x).newparam`.
    let reopened = pattern(r"type\(\s*:([a-z][a-z0-9_]*)\s*\)\s*\.\s*(?:new|ensurable|instance_eval|class_eval)");
    let reopened_names: Vec<String> = lib_files
        .par_iter()
        .flat_map_iter(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            reopened.captures_iter(&text).map(|captures| captures[1].to_string()).collect::<Vec<_>>()
        })
        .collect();
    for name in reopened_names {
        if let Some(found) = types.get_mut(&name) {
            found.attributes = None;
            found.namevar = None;
        }
    }
    types
}

/// The attributes a type file declares with literal names and its one
/// namevar, if it has one; `None` when anything in it may declare others.
fn read_type(text: &str, name: &str) -> Option<(BTreeSet<String>, Option<String>)> {
    static NEWTYPE: LazyLock<Regex> = LazyLock::new(|| pattern(r"newtype\(\s*:([a-z][a-z0-9_]*)([^)\n]*)"));
    // Mixins, helpers given the type, and blocks of code run in it
    // (`instance_eval(&COMMON_PARAMS)`) may add attributes.
    static MIXIN: LazyLock<Regex> = LazyLock::new(|| {
        pattern(
            r"(?m)^\s*(?:extend|include)\s+[A-Z]|\(\s*self\s*[,)]|\b(?:instance_eval|class_eval|module_eval|instance_exec|class_exec)\b",
        )
    });
    static CALL: LazyLock<Regex> = LazyLock::new(|| pattern(r"\bnew(?:param|property|check)\b"));
    static LITERAL: LazyLock<Regex> = LazyLock::new(|| pattern(r"^\s*\(?\s*:([a-z_][a-z0-9_]*)\b"));
    static ENSURABLE: LazyLock<Regex> = LazyLock::new(|| pattern(r"\bensurable\b"));
    let code = without_comments(text);
    let declared = NEWTYPE.captures(&code)?;
    if &declared[1] != name || declared[2].contains("parent") || NEWTYPE.captures_iter(&code).count() != 1 {
        return None;
    }
    if MIXIN.is_match(&code) {
        return None;
    }
    let mut attributes = BTreeSet::new();
    let mut declared_at: Vec<(usize, &str)> = Vec::new();
    for found in CALL.find_iter(&code) {
        let name = LITERAL.captures(&code[found.end()..])?;
        let name = name.get(1).map_or("", |m| m.as_str());
        attributes.insert(name.to_string());
        declared_at.push((found.start(), name));
    }
    if ENSURABLE.is_match(&code) {
        attributes.insert("ensure".to_string());
    }
    let namevar = namevar(&code, &declared_at);
    Some((attributes, namevar))
}

/// The type's one namevar, from its code and where each attribute is
/// declared: the parameter marked `isnamevar` (in its block) or `namevar:
/// true`, else `name` when the type declares it (Puppet takes it then).
/// `None` for several, none, or title patterns, which may take keys from
/// the title.
fn namevar(code: &str, declared_at: &[(usize, &str)]) -> Option<String> {
    static MARKED: LazyLock<Regex> =
        LazyLock::new(|| pattern(r"(?-u:\b)isnamevar(?-u:\b)|:namevar\s*=>\s*true|(?-u:\b)namevar:\s*true"));
    if code.contains("title_patterns") {
        return None;
    }
    // Each attribute's text runs to the next one's declaration.
    let mut marked = Vec::new();
    for (i, (start, name)) in declared_at.iter().enumerate() {
        let end = declared_at.get(i + 1).map_or(code.len(), |(next, _)| *next);
        let text = &code[*start..end];
        if text.contains("namevar") && MARKED.is_match(text) {
            marked.push(*name);
        }
    }
    match marked.as_slice() {
        [one] => Some(one.to_string()),
        [] if declared_at.iter().any(|(_, name)| *name == "name") => Some("name".to_string()),
        _ => None,
    }
}

fn pattern(source: &str) -> Regex {
    Regex::new(source).expect("valid pattern")
}

/// The code without comment lines and `=begin`/`=end` blocks.
fn without_comments(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut in_block = false;
    for line in text.lines() {
        if line.starts_with("=begin") {
            in_block = true;
        } else if line.starts_with("=end") {
            in_block = false;
        } else if !in_block && !line.trim_start().starts_with('#') {
            code.push_str(line);
            code.push('\n');
        }
    }
    code
}

fn ruby_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        let mut children: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        children.sort();
        for path in children {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rb") {
                files.push(path);
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::read_type;

    fn attributes(text: &str, name: &str) -> Option<std::collections::BTreeSet<String>> {
        read_type(text, name).map(|(attributes, _)| attributes)
    }

    #[test]
    fn literal_attributes_are_read() {
        let text = "# newparam(x)\nPuppet::Type.newtype(:thing) do\n  ensurable\n  newparam(:name, namevar: true)\n  newproperty :size do\n  end\n  newparam(:flag, boolean: true, parent: Puppet::Parameter::Boolean)\nend\n";
        let read = attributes(text, "thing").unwrap();
        assert_eq!(read.into_iter().collect::<Vec<_>>(), ["ensure", "flag", "name", "size"]);
    }

    #[test]
    fn the_namevar_is_read_when_there_is_one() {
        let namevar = |text: &str| read_type(text, "thing").and_then(|(_, namevar)| namevar);
        let marked =
            "Puppet::Type.newtype(:thing) do\n  newparam(:path) do\n    isnamevar\n  end\n  newparam(:name)\nend\n";
        let argument =
            "Puppet::Type.newtype(:thing) do\n  newparam(:key, :namevar => true)\n  newproperty(:size)\nend\n";
        let plain_name = "Puppet::Type.newtype(:thing) do\n  newparam(:name) do\n  end\nend\n";
        assert_eq!(namevar(marked).as_deref(), Some("path"));
        assert_eq!(namevar(argument).as_deref(), Some("key"));
        assert_eq!(namevar(plain_name).as_deref(), Some("name"));
        let two = "Puppet::Type.newtype(:thing) do\n  newparam(:name) do\n    isnamevar\n  end\n  newparam(:ruby_version) do\n    isnamevar\n  end\nend\n";
        let patterns = "Puppet::Type.newtype(:thing) do\n  def self.title_patterns\n    [[/(.*)/, [[:name]]]]\n  end\n  newparam(:name, namevar: true)\nend\n";
        let commented = "Puppet::Type.newtype(:thing) do\n  newparam(:name) do\n    isnamevar\n  end\n  # newparam(:other) do isnamevar end\nend\n";
        assert_eq!(namevar(two), None);
        assert_eq!(namevar(patterns), None);
        assert_eq!(namevar(commented).as_deref(), Some("name"));
    }

    #[test]
    fn anything_that_may_add_attributes_makes_the_type_unknown() {
        let looped = "Puppet::Type.newtype(:thing) do\n  [:a, :b].each { |p| newparam(p) }\nend\n";
        let mixin = "Puppet::Type.newtype(:thing) do\n  extend Helpers\n  newparam(:a)\nend\n";
        let helper = "Puppet::Type.newtype(:thing) do\n  Helpers.add_params(self)\nend\n";
        let evaluated = "Puppet::Type.newtype(:thing) do\n  instance_eval(&Common::PARAMS)\n  newparam(:a)\nend\n";
        let parent = "Puppet::Type.newtype(:thing, parent: Puppet::Type::File) do\nend\n";
        let other_name = "Puppet::Type.newtype(:other) do\nend\n";
        for text in [looped, mixin, helper, evaluated, parent, other_name] {
            assert_eq!(attributes(text, "thing"), None, "{text}");
        }
    }
}
