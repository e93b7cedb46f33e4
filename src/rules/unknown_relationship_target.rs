//! `unknown-relationship-target`

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashSet as HashSet;

use super::{chain_related, RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody, Loc};
use crate::model::interp::{
    built_in_attributes, literal_text, DECLARING_FUNCTIONS, NAMING_ATTRIBUTES, PACKAGE_FUNCTIONS,
};
use crate::model::record::{Compilation, Declaration, Entry, Event, Owner, Relation};
use crate::model::workspace::metadata_dependencies;
use crate::model::{module_of, Model};
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind, Resource, StringPart};

/// ## What it does
/// Reports a relationship (`require => Package['nginx']`,
/// `File['/x'] -> Service['b']`) to a resource that nothing in the tree
/// declares: no resource of that type has that title, namevar or alias, in
/// any compilation or in any code mplint did not evaluate.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Could not find resource 'Package[nginx]' in
/// parameter 'require'". Often a typo, or a resource that was renamed.
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-relationship-target",
    name: "UnknownRelationshipTarget",
    default_level: Level::Error,
    summary: "A relationship names a resource that nothing declares.",
    documentation: include_str!("../../rules/unknown-relationship-target.md"),
};

/// An include chain, and the compilation it is in.
type Witness = (Vec<(Loc, String)>, String);

/// A reference, with the first compilations making it whose code is all
/// known.
struct Reference {
    relation: Relation,
    /// A node's (or a site's top-level code's) compilation: it holds all
    /// that node's catalog holds.
    in_node: Option<Witness>,
    /// A class or defined type checked on its own: its real catalog may
    /// hold anything else the tree can declare.
    on_its_own: Option<Witness>,
}

/// What every compilation declares and refers to.
#[derive(Default)]
pub struct Relations {
    references: BTreeMap<(Loc, String, String), Reference>,
    /// (type, name) of every declared resource, by title, namevar and alias.
    declared: HashSet<(String, String)>,
    /// Declarations evaluated, at their titles.
    evaluated: HashSet<Loc>,
    /// Types some declaration of which has a name mplint does not know.
    open_types: BTreeSet<String>,
    /// Types partly known, as the text before and after what is unknown
    /// in the name (`("swift_", "_config")`; both empty when it is all
    /// unknown).
    open_patterns: BTreeSet<(String, String)>,
}

impl Relations {
    /// Adds what later compilations found.
    pub fn merge(&mut self, other: Relations) {
        for (key, reference) in other.references {
            self.add(key, reference);
        }
        self.declared.extend(other.declared);
        self.evaluated.extend(other.evaluated);
        self.open_types.extend(other.open_types);
        self.open_patterns.extend(other.open_patterns);
    }

    fn add(&mut self, key: (Loc, String, String), reference: Reference) {
        match self.references.entry(key) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(reference);
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                let ours = slot.get_mut();
                if ours.in_node.is_none() {
                    ours.in_node = reference.in_node;
                }
                if ours.on_its_own.is_none() {
                    ours.on_its_own = reference.on_its_own;
                }
            }
        }
    }

    fn open(&mut self, type_name: Option<&str>) {
        match type_name {
            Some(name) => self.open_types.insert(name.to_string()),
            None => self.open_patterns.insert((String::new(), String::new())),
        };
    }

    /// Whether some declaration of a type partly or wholly known may give
    /// the type a name mplint does not know.
    fn is_open(&self, type_name: &str) -> bool {
        self.open_types.contains(type_name)
            || self.open_patterns.iter().any(|(before, after)| {
                !(before.is_empty() && after.is_empty())
                    && type_name.len() >= before.len() + after.len()
                    && type_name.starts_with(before.as_str())
                    && type_name.ends_with(after.as_str())
            })
    }

    /// Whether some declaration's type is not known at all.
    fn open_everything(&self) -> bool {
        self.open_patterns.contains(&(String::new(), String::new()))
    }
}

/// What the tree defines beside manifests: its modules' Ruby types and
/// functions.
pub struct Known {
    ruby_types: BTreeSet<String>,
    ruby_functions: BTreeSet<String>,
    /// Ruby functions that declare resources themselves, by the last part
    /// of their names.
    declaring_ruby_functions: BTreeSet<String>,
    /// Modules whose `metadata.json` names a dependency the tree lacks.
    incomplete_modules: BTreeSet<String>,
}

impl Known {
    pub fn scan(model: &Model<'_>) -> Known {
        Known {
            ruby_types: crate::model::ruby_types::discover(&model.workspace).into_keys().collect(),
            ruby_functions: model.workspace.ruby_functions(),
            declaring_ruby_functions: declaring_ruby_functions(model),
            incomplete_modules: model
                .modules
                .iter()
                .filter(|(_, dir)| metadata_dependencies(dir).iter().any(|(dep, _)| !model.modules.contains_key(dep)))
                .map(|(name, _)| name.clone())
                .collect(),
        }
    }

    fn declares(&self, function: &str) -> bool {
        self.declaring_ruby_functions.contains(function.rsplit("::").next().unwrap_or(function))
    }
}

/// Takes in what one compilation declares and refers to.
pub fn collect(model: &Model<'_>, compilation: &Compilation, known: &Known, relations: &mut Relations) {
    for resource in &compilation.resources {
        relations.declared.insert(key(&resource.type_name, &resource.title));
        relations.evaluated.insert(resource.loc);
    }
    for (type_name, name) in &compilation.resource_names {
        relations.declared.insert(key(type_name, name));
    }
    for (type_name, at) in &compilation.unnamed_resources {
        relations.evaluated.insert(*at);
        relations.open(type_name.as_deref());
    }
    if compilation.relations.is_empty() {
        return;
    }
    let certain = all_code_known(model, compilation, known);
    let on_its_own = compilation.hypothetical();
    // Checked on its own, a module's code may rely on the modules it
    // depends on to declare what it refers to.
    let entry_module_incomplete = match &compilation.entry {
        Entry::Unreached { name, .. } => known.incomplete_modules.contains(module_of(name)),
        _ => false,
    };
    for relation in &compilation.relations {
        let owner_module_incomplete = match &relation.owner {
            Owner::Class(name) => known.incomplete_modules.contains(module_of(name)),
            Owner::Define(i) => compilation
                .instances
                .get(*i)
                .is_some_and(|d| known.incomplete_modules.contains(module_of(&d.type_name))),
            Owner::Top | Owner::Node => false,
        };
        let certain = certain && !(on_its_own && (entry_module_incomplete || owner_module_incomplete));
        let witness = certain.then(|| {
            let flow = chain_related(&compilation.chain(&relation.owner), compilation, model);
            (flow, model.describe_entry(compilation))
        });
        let (in_node, on_its_own) = if on_its_own { (None, witness) } else { (witness, None) };
        let key = (relation.loc, relation.type_name.clone(), relation.title.clone());
        relations.add(key, Reference { relation: relation.clone(), in_node, on_its_own });
    }
}

/// Whether every class, resource type and function the compilation uses
/// is known: code of an absent module may declare anything.
fn all_code_known(model: &Model<'_>, compilation: &Compilation, known: &Known) -> bool {
    if compilation.hidden_declarations
        || compilation.declarations.iter().any(|Declaration { class, .. }| class.is_none())
        || compilation.events.iter().any(|e| matches!(e, Event::UnknownClass { .. }))
        || compilation.unnamed_resources.iter().any(|(type_name, _)| type_name.is_none())
    {
        return false;
    }
    let type_known = |t: &str| {
        t == "class"
            || built_in_attributes(t).is_some()
            || model.index.types.contains_key(t)
            || known.ruby_types.contains(t)
    };
    if !compilation.resources.iter().all(|r| type_known(&r.type_name)) {
        return false;
    }
    compilation
        .foreign_calls
        .iter()
        .all(|f| (model.index.functions.contains_key(f) || known.ruby_functions.contains(f)) && !known.declares(f))
}

/// Reports the references to resources nothing declares.
pub fn check(model: &Model<'_>, mut relations: Relations, sink: &mut Sink<'_, '_>) {
    if relations.references.is_empty() {
        return;
    }
    scan_code(model, &mut relations);
    // A declaration of an unknown type may give any resource to a catalog
    // that holds it; a node's compilation holds none unless it says so.
    let anything_declarable = relations.open_everything();
    for reference in relations.references.values() {
        let witness = match (&reference.in_node, &reference.on_its_own) {
            (Some(witness), _) => witness,
            (None, Some(witness)) if !anything_declarable => witness,
            _ => continue,
        };
        let (flow, entry) = witness;
        let relation = &reference.relation;
        if !target_judged(model, relation) {
            continue;
        }
        if relations.declared.contains(&key(&relation.type_name, &relation.title))
            || relations.is_open(&relation.type_name)
        {
            continue;
        }
        let written = format!("{}['{}']", capitalize(&relation.type_name), relation.title);
        // Puppet writes a class reference's title as a type name.
        let puppet_title = if relation.type_name == "class" {
            capitalize(&normalize_name(&relation.title))
        } else {
            relation.title.clone()
        };
        let puppet = format!("{}[{puppet_title}]", capitalize(&relation.type_name));
        let (what, how) = match &relation.metaparameter {
            Some(name) => (format!("in parameter '{name}'"), format!("`{name}` names {written}")),
            None => ("for relationship".to_string(), format!("the relationship names {written}")),
        };
        let declared = if relation.type_name == "class" {
            format!("no class `{}` is defined", normalize_name(&relation.title))
        } else {
            "nothing in the tree declares it".to_string()
        };
        sink.report_with_flow(
            &RULE,
            relation.loc,
            format!(
                "{how}, but {declared}: Puppet fails the catalog of {entry} (\"Could not find resource '{puppet}' {what}\")"
            ),
            Vec::new(),
            flow.clone(),
        );
    }
}

/// Whether mplint knows how such a reference is resolved: Puppet's own
/// types, defined types, and classes of modules in the tree.
fn target_judged(model: &Model<'_>, relation: &Relation) -> bool {
    let type_name = relation.type_name.as_str();
    // Every catalog holds these.
    if matches!(
        (type_name, normalize_name(&relation.title).as_str()),
        ("stage", "main") | ("class", "main" | "settings")
    ) {
        return false;
    }
    if type_name == "class" {
        let class = normalize_name(&relation.title);
        return !class.is_empty()
            && !model.index.types.contains_key(&class)
            && model.module_present(&class)
            && !model.autoload_file_unparsed(&class);
    }
    built_in_attributes(type_name).is_some()
        || model
            .index
            .types
            .get(type_name)
            .is_some_and(|defs| defs.iter().all(|d| matches!(d.body, DefBody::Define(_))))
}

/// Adds what the code declares beside what compilations evaluated: the
/// declarations they did not reach, functions that declare resources,
/// and collectors of exported resources, which other nodes may fill.
fn scan_code(model: &Model<'_>, relations: &mut Relations) {
    for (file, parsed) in model.files.iter().enumerate() {
        // What a manifest that does not parse declares is unknown.
        let Some(manifest) = &parsed.manifest else {
            relations.open(None);
            continue;
        };
        for statement in &manifest.statements {
            statement.walk(&mut |e: &Expr| match &e.kind {
                ExprKind::Resource(resource) => scan_resource(file, resource, relations),
                // Calls that compilations evaluated are recorded with their values.
                _ if relations.evaluated.contains(&Loc::new(file, e.span)) => {}
                ExprKind::Call(call) => scan_call(&call.name, call.args.first(), relations),
                ExprKind::MethodCall(call) => scan_call(&call.method, Some(&call.object), relations),
                ExprKind::Collector(collector) if collector.exported => {
                    open_named_type(&collector.type_expr, relations);
                }
                _ => {}
            });
        }
    }
}

/// A declaration's names, when written literally; else, unless some
/// compilation evaluated it, its type is open.
fn scan_resource(file: usize, resource: &Resource, relations: &mut Relations) {
    let bodies = resource.bodies.iter().filter(|b| !matches!(b.title.kind, ExprKind::Default));
    let Some(type_name) = resource.type_name() else {
        if bodies.into_iter().any(|body| !relations.evaluated.contains(&Loc::new(file, body.title.span))) {
            match &resource.type_expr.kind {
                ExprKind::Access { index, .. } if index.len() == 1 => open_named_type(&index[0], relations),
                _ => relations.open(None),
            }
        }
        return;
    };
    if type_name == "class" {
        return;
    }
    for body in bodies {
        let evaluated = relations.evaluated.contains(&Loc::new(file, body.title.span));
        let naming = body.attributes.iter().filter(|a| NAMING_ATTRIBUTES.contains(&a.name.as_str()) || a.name == "*");
        for name in std::iter::once(&body.title).chain(naming.map(|a| &a.value)) {
            match literal_names(name) {
                Some(known) => {
                    for name in known {
                        relations.declared.insert(key(&type_name, &name));
                    }
                }
                None if !evaluated => {
                    relations.open_types.insert(type_name.clone());
                }
                None => {}
            }
        }
    }
}

/// A call of a function that declares resources, wherever it is.
fn scan_call(name: &str, first: Option<&Expr>, relations: &mut Relations) {
    let name = normalize_name(name);
    if DECLARING_FUNCTIONS.contains(&name.as_str()) {
        match first {
            Some(first) => open_named_type(first, relations),
            None => relations.open(None),
        }
    } else if PACKAGE_FUNCTIONS.contains(&name.as_str()) {
        relations.open_types.insert("package".to_string());
    }
}

/// Opens the type an expression names: that type when it is written
/// out, the types matching the literal text around an interpolation, or
/// every type.
fn open_named_type(expr: &Expr, relations: &mut Relations) {
    match &expr.kind {
        ExprKind::Name(name) | ExprKind::TypeRef(name) => {
            relations.open_types.insert(declared_type(name));
        }
        ExprKind::Str(string) => {
            let text = |part: &StringPart| match part {
                StringPart::Text(t) => Some(t.to_lowercase()),
                StringPart::Interpolation(_) => None,
            };
            let before: String = string.parts.iter().map_while(text).collect();
            if string.parts.iter().all(|p| matches!(p, StringPart::Text(_))) {
                relations.open_types.insert(declared_type(&before));
                return;
            }
            let mut after: Vec<String> = string.parts.iter().rev().map_while(text).collect();
            after.reverse();
            relations.open_patterns.insert((declared_type(&before), after.concat()));
        }
        _ => relations.open(None),
    }
}

/// The type a declaring function's argument names: `@file` declares
/// virtual files.
fn declared_type(name: &str) -> String {
    normalize_name(name.trim_start_matches('@'))
}

/// Ruby functions of the tree's modules that declare resources
/// themselves, by the last part of their names.
fn declaring_ruby_functions(model: &Model<'_>) -> BTreeSet<String> {
    let mut declaring = BTreeSet::new();
    for dir in model.workspace.modules().values() {
        for path in ruby_files(&dir.join("lib/puppet/functions"))
            .into_iter()
            .chain(ruby_files(&dir.join("lib/puppet/parser/functions")))
        {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            if ["create_resources", "ensure_resource", "ensure_packages", "add_resource"]
                .iter()
                .any(|n| text.contains(n))
            {
                if let Some(stem) = path.file_stem() {
                    declaring.insert(stem.to_string_lossy().into_owned());
                }
            }
        }
    }
    declaring
}

/// The `.rb` files under a directory, at any depth.
fn ruby_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rb") {
                found.push(path);
            }
        }
    }
    found
}

/// The names a title or naming attribute gives when written literally (a
/// string or an array of strings); `None` otherwise.
fn literal_names(expr: &Expr) -> Option<Vec<String>> {
    match &expr.kind {
        ExprKind::Array(items) => {
            let mut names = Vec::new();
            for item in items {
                names.extend(literal_names(item)?);
            }
            Some(names)
        }
        _ => literal_text(expr).map(|t| vec![t]),
    }
}

/// How a resource is looked up: by type, and by name ignoring case (Puppet
/// matches some types' titles without it), trailing slashes of files and
/// the leading `::` of classes.
fn key(type_name: &str, name: &str) -> (String, String) {
    let mut name = name.to_lowercase();
    if type_name == "file" && name.len() > 1 {
        name = name.trim_end_matches('/').to_string();
    }
    if type_name == "class" {
        name = name.trim_start_matches("::").to_string();
    }
    (type_name.to_string(), name)
}

/// `package` → `Package`, `apache::vhost` → `Apache::Vhost`.
fn capitalize(type_name: &str) -> String {
    type_name
        .split("::")
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("::")
}
