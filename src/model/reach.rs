//! What an entry point's compilation can touch, known without running it:
//! the classes and defined types its code names, followed transitively. A
//! run that reports on a few named files skips the entry points whose
//! compilations cannot touch them.

use std::collections::{BTreeMap, BTreeSet};

use super::index::{normalize_name, DefBody, FileId, Index};
use super::record::Entry;
use crate::config::IncludeFunction;
use crate::syntax::ast::{Expr, ExprKind as K, NameText, StringPart};

/// What one class or defined type's code names.
#[derive(Default)]
struct Names {
    names: BTreeSet<String>,
    /// Names built at run time from these literal pieces, in order
    /// (`"raid::${x}"`: `raid::` then anything).
    patterns: Vec<Vec<String>>,
    /// Declares something whose name can be anything.
    dynamic: bool,
}

impl Names {
    /// Adds the defined names each pattern can build.
    fn expand_patterns(&mut self, defined: &[&str]) {
        for pattern in std::mem::take(&mut self.patterns) {
            self.names.extend(defined.iter().filter(|name| matches_pattern(name, &pattern)).map(|n| n.to_string()));
        }
    }
}

/// Whether `name` is the pieces in order, anything between them.
fn matches_pattern(name: &str, pieces: &[String]) -> bool {
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else { return true };
    let Some(mut rest) = name.strip_prefix(first.as_str()) else { return false };
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece.as_str()) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    pieces.len() == 1 && rest.is_empty() || pieces.len() > 1 && rest.ends_with(last.as_str())
}

/// The types that can reach a set of files, shared by the entries asking.
type Touching<'m> = std::sync::Arc<BTreeSet<&'m str>>;

pub struct Reach<'m> {
    /// The files of each type's definitions.
    files: BTreeMap<&'m str, Vec<FileId>>,
    by_type: BTreeMap<&'m str, Names>,
    /// Per site: what its top-level code names, and the files of that
    /// code (every compilation of the site runs it).
    sites: Vec<(Names, BTreeSet<FileId>)>,
    /// Per site and node: what the node's body names, and its file (only
    /// the node's own compilation runs the body).
    nodes: Vec<Vec<(Names, FileId)>>,
    /// The touching types worked out for each set of files asked about.
    touching: std::sync::Mutex<Vec<(BTreeSet<FileId>, Touching<'m>)>>,
}

impl<'m> Reach<'m> {
    /// `declaring_functions`: the site's own functions that declare classes.
    pub fn new(index: &'m Index<'_>, declaring_functions: &BTreeMap<String, IncludeFunction>) -> Self {
        let defined: Vec<&str> = index.types.keys().map(String::as_str).collect();
        let mut by_type = BTreeMap::new();
        for (name, definitions) in &index.types {
            let mut names = Names::default();
            for def in definitions {
                match def.body {
                    DefBody::Class(class) => {
                        if let Some((parent, _)) = &class.parent {
                            names.names.insert(normalize_name(parent));
                        }
                        for param in class.params.iter().filter_map(|p| p.default.as_ref()) {
                            collect(param, declaring_functions, &mut names);
                        }
                        for statement in &class.body.statements {
                            collect(statement, declaring_functions, &mut names);
                        }
                    }
                    DefBody::Define(define) => {
                        for param in define.params.iter().filter_map(|p| p.default.as_ref()) {
                            collect(param, declaring_functions, &mut names);
                        }
                        for statement in &define.body.statements {
                            collect(statement, declaring_functions, &mut names);
                        }
                    }
                    _ => {}
                }
            }
            names.expand_patterns(&defined);
            by_type.insert(name.as_str(), names);
        }
        let mut sites = Vec::new();
        let mut nodes = Vec::new();
        for site in &index.sites {
            let mut names = Names::default();
            let mut files: BTreeSet<FileId> = site.standalone.into_iter().collect();
            for (file, statement) in &site.top_level {
                files.insert(*file);
                collect(statement, declaring_functions, &mut names);
            }
            let mut per_node = Vec::new();
            for node in &site.nodes {
                let mut node_names = Names::default();
                for statement in &node.node.body.statements {
                    collect(statement, declaring_functions, &mut node_names);
                }
                node_names.expand_patterns(&defined);
                per_node.push((node_names, node.file));
            }
            names.expand_patterns(&defined);
            sites.push((names, files));
            nodes.push(per_node);
        }
        let files =
            index.types.iter().map(|(name, defs)| (name.as_str(), defs.iter().map(|d| d.file).collect())).collect();
        Reach { files, by_type, sites, nodes, touching: Default::default() }
    }

    /// The files whose code names something `wanted` accepts, or names
    /// things only known at run time.
    pub fn files_naming(&self, wanted: impl Fn(&str) -> bool) -> BTreeSet<FileId> {
        let names_wanted = |names: &Names| names.dynamic || names.names.iter().any(|n| wanted(n));
        let mut found = BTreeSet::new();
        for (name, names) in &self.by_type {
            if names_wanted(names) {
                found.extend(self.files[name].iter().copied());
            }
        }
        for ((names, files), nodes) in self.sites.iter().zip(&self.nodes) {
            if names_wanted(names) || nodes.iter().any(|(names, _)| names_wanted(names)) {
                found.extend(files.iter().copied());
                found.extend(nodes.iter().map(|(_, file)| *file));
            }
        }
        found
    }

    /// Whether a compilation can run, name or declare code in one of
    /// `files`: its site's manifests, or a definition it reaches through
    /// names written in code.
    pub fn can_touch(&self, entry: &Entry, files: &BTreeSet<FileId>) -> bool {
        let touching = self.touching(files);
        let names_touching = |names: &Names| names.names.iter().any(|n| touching.contains(n.as_str()));
        let site = match entry {
            Entry::TopLevel { .. } => return true,
            Entry::Node { site, node } => {
                let (names, file) = &self.nodes[*site][*node];
                if names.dynamic || files.contains(file) || names_touching(names) {
                    return true;
                }
                Some(*site)
            }
            Entry::Unreached { name, site } => {
                if touching.contains(name.as_str()) {
                    return true;
                }
                *site
            }
        };
        site.is_some_and(|site| {
            let (names, site_files) = &self.sites[site];
            names.dynamic || !site_files.is_disjoint(files) || names_touching(names)
        })
    }

    /// The files whose code an entry point's compilation can run or name,
    /// followed transitively; none when it names what only run time knows.
    pub fn files_reached(&self, entry: &Entry) -> Option<BTreeSet<FileId>> {
        let mut files = BTreeSet::new();
        let mut pending: Vec<&str> = Vec::new();
        let site = match entry {
            Entry::TopLevel { site } => Some(*site),
            Entry::Node { site, node } => {
                let (names, file) = &self.nodes[*site][*node];
                files.insert(*file);
                if !push_names(names, &mut pending) {
                    return None;
                }
                Some(*site)
            }
            Entry::Unreached { name, site } => {
                pending.push(name.as_str());
                *site
            }
        };
        if let Some(site) = site {
            let (names, site_files) = &self.sites[site];
            files.extend(site_files.iter().copied());
            if !push_names(names, &mut pending) {
                return None;
            }
        }
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        while let Some(name) = pending.pop() {
            if !seen.insert(name) {
                continue;
            }
            let Some((name, names)) = self.by_type.get_key_value(name) else { continue };
            files.extend(self.files[name].iter().copied());
            if !push_names(names, &mut pending) {
                return None;
            }
        }
        Some(files)
    }

    /// The types whose code, or code they name (transitively), is in one
    /// of `files` or names what only run time knows; worked out once per
    /// set of files.
    fn touching(&self, files: &BTreeSet<FileId>) -> Touching<'m> {
        let mut known = self.touching.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, set)) = known.iter().find(|(f, _)| f == files) {
            return set.clone();
        }
        let mut named_by: BTreeMap<&str, Vec<&'m str>> = BTreeMap::new();
        for (name, names) in &self.by_type {
            for named in &names.names {
                named_by.entry(named.as_str()).or_default().push(name);
            }
        }
        let mut pending: Vec<&'m str> = self
            .by_type
            .iter()
            .filter(|(name, names)| names.dynamic || self.files[*name].iter().any(|f| files.contains(f)))
            .map(|(name, _)| *name)
            .collect();
        let mut touching = BTreeSet::new();
        while let Some(name) = pending.pop() {
            if touching.insert(name) {
                pending.extend(named_by.get(name).into_iter().flatten().copied());
            }
        }
        let set = std::sync::Arc::new(touching);
        known.push((files.clone(), set.clone()));
        set
    }
}

/// Adds what `names` holds to `pending`; false when it names what only run
/// time knows.
fn push_names<'s>(names: &'s Names, pending: &mut Vec<&'s str>) -> bool {
    pending.extend(names.names.iter().map(String::as_str));
    !names.dynamic
}

/// The names a piece of code declares, inherits from or reads variables
/// of; `dynamic` when a declaration's target is not written literally.
fn collect(code: &Expr, declaring_functions: &BTreeMap<String, IncludeFunction>, out: &mut Names) {
    code.walk(&mut |e: &Expr| match &e.kind {
        K::Call(call) if matches!(call.name.as_str(), "include" | "require" | "contain") => {
            for arg in &call.args {
                literal_names(arg, out);
            }
        }
        K::Call(call) if declaring_functions.contains_key(&call.name) => {
            // The function declares a class named after its argument.
            let mut given = Names::default();
            for arg in &call.args {
                literal_names(arg, &mut given);
            }
            let class = &declaring_functions[&call.name].class;
            out.names.extend(given.names.iter().map(|n| normalize_name(&class.replace("{}", n))));
            out.dynamic |= given.dynamic;
        }
        K::Resource(resource) => match resource.type_name().as_deref() {
            Some("class") => {
                for body in &resource.bodies {
                    literal_names(&body.title, out);
                }
            }
            Some(other) => {
                out.names.insert(other.to_string());
            }
            None => out.dynamic = true,
        },
        K::Variable(variable) => {
            if let Some((class, _)) = variable.split_scope().filter(|(class, _)| !class.is_empty()) {
                out.names.insert(normalize_name(class));
            }
        }
        _ => {}
    });
}

fn literal_names(expr: &Expr, out: &mut Names) {
    match &expr.kind {
        K::Name(n) | K::TypeRef(n) => {
            out.names.insert(normalize_name(n));
        }
        K::Str(s) => match s.as_literal() {
            Some(text) => {
                out.names.insert(normalize_name(&text));
            }
            None => {
                // Text between interpolations; each interpolation is anything.
                let mut pieces = vec![String::new()];
                for part in &s.parts {
                    match part {
                        StringPart::Text(text) => pieces.last_mut().unwrap().push_str(&text.to_ascii_lowercase()),
                        StringPart::Interpolation(_) => pieces.push(String::new()),
                    }
                }
                pieces[0] = pieces[0].without_anchor().to_string();
                if pieces.iter().all(String::is_empty) {
                    out.dynamic = true;
                } else {
                    out.patterns.push(pieces);
                }
            }
        },
        K::Array(items) => items.iter().for_each(|item| literal_names(item, out)),
        _ => out.dynamic = true,
    }
}
