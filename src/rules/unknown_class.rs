//! `unknown-class`

use super::{RuleInfo, Sink};
use crate::model::index::{class_name_flaw, normalize_name, DefBody, Loc};
use crate::model::record::Compilation;
use crate::model::record::Event;
use crate::model::workspace::autoload_path;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports `include`, `require`, `contain`, `class { … }` and `inherits`
/// naming a class that is defined nowhere in the checked tree or on the
/// module path, though its module is there (a module that is absent is
/// `missing-module`). A name no class can have (`keystone:ldap`, or an
/// empty one) is an error: no module path makes it found.
///
/// ## Why is this bad?
/// Puppet fails with "Could not find class". Often a typo, or a module
/// missing from the Puppetfile.
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-class",
    name: "UnknownClass",
    default_level: Level::Warning,
    summary: "A class is declared or inherited that is defined nowhere.",
    documentation: include_str!("../../rules/unknown-class.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    declared_from_unloaded_files(model, compilation, sink);
    for event in &compilation.events {
        if let Event::UnknownClass { name, loc } = event {
            if name.is_empty() {
                let message = "the class name is empty: Puppet fails with \"Cannot use empty string as a class name\"";
                sink.report_at_level(&RULE, Level::Error, *loc, message.to_string(), Vec::new(), Vec::new());
                continue;
            }
            if let Some(flaw) = class_name_flaw(name) {
                // Certain whatever the module path holds.
                let mut message =
                    format!("no class can be named `{name}`: {flaw}; Puppet fails with \"Could not find class\"");
                let separated = name.split(':').filter(|s| !s.is_empty()).collect::<Vec<_>>().join("::");
                if separated != **name && model.index.types.contains_key(&separated) {
                    message.push_str(&format!(" (did you mean `{separated}`?)"));
                }
                sink.report_at_level(&RULE, Level::Error, *loc, message, Vec::new(), Vec::new());
                continue;
            }
            if let Some(meant) =
                relative_class_at(model, name, *loc).filter(|_| top_level_surely_absent(model, name, *loc))
            {
                let message = format!(
                    "Puppet 4 and later look `{name}` up as a top-level class, which the checked tree does not define, not as `{meant}`, which Puppet 3 found relative to the enclosing namespace: write `{meant}`"
                );
                sink.report(&RULE, *loc, message, vec![]);
                continue;
            }
            if !model.module_present(name) {
                continue; // missing-module says it, once per module
            }
            if model.autoload_file_unparsed(name) {
                continue; // the file's syntax-error says it
            }
            // The file is kept out of version control on purpose (secrets
            // that only the server holds): mplint cannot see it.
            if let Some(gitignore) = kept_out_of_version_control(model, name) {
                let message = format!(
                    "class `{name}` is not in the checked tree: {} names its file {}, which is kept out of version control; Puppet fails with \"Could not find class\" wherever the file is missing",
                    model.workspace.display.show(&gitignore).display(),
                    autoload_path(name).display()
                );
                sink.report_at_level(&RULE, Level::Note, *loc, message, vec![], vec![]);
                continue;
            }
            // Defined in a file the autoloader does not read (a module
            // directory named `author-module`, say).
            let elsewhere = model.index.types.get(name).and_then(|defs| defs.first());
            let module = name.split("::").next().unwrap_or_default();
            // A copy of the module in a later module path directory, hidden
            // by the one Puppet finds first.
            let hidden_by = elsewhere.and_then(|def| {
                let path = model.path(def.file);
                let winner = model.modules.get(module)?;
                let in_module_path = model.workspace.module_dirs.iter().any(|d| path.starts_with(d.join(module)));
                (in_module_path && !path.starts_with(winner)).then_some(winner)
            });
            let message = match elsewhere {
                Some(def) if hidden_by.is_some() => format!(
                    "class `{name}` is defined in {}, but the module `{module}` that comes first on the module path, {}, hides that copy and does not define it",
                    model.relative_path(def.file).display(),
                    crate::paths::relative_to_roots(hidden_by.expect("checked"), &model.workspace.roots).display(),
                ),
                Some(def) => format!(
                    "class `{name}` is defined in {}, outside the module path: Puppet's autoloader looks for {} {}",
                    model.relative_path(def.file).display(),
                    autoload_path(name).display(),
                    module_path_shown(model)
                ),
                None => not_defined(model, name),
            };
            let related = elsewhere.map(|def| (def.loc(), format!("`{name}` defined here"))).into_iter().collect();
            sink.report(&RULE, *loc, message, related);
        }
    }
}

/// Why a class of a module in the tree is not found: no file defines it, or
/// the file the autoloader reads for it defines other names.
fn not_defined(model: &Model<'_>, name: &str) -> String {
    let path = autoload_path(name);
    match model.autoload_file_defining_others(name) {
        Some((file, names)) => {
            let names: Vec<String> = names.iter().take(3).map(|n| format!("`{n}`")).collect();
            format!(
                "class `{name}` is not defined: the file Puppet's autoloader reads for it, {}, defines {} instead",
                model.relative_path(file).display(),
                names.join(", ")
            )
        }
        None => format!(
            "class `{name}` is not defined in the checked tree or the module path (Puppet's autoloader looks for {})",
            path.display()
        ),
    }
}

/// Classes declared whose every definition is in a module file no name
/// leads Puppet's autoloader to (`manifests/windows-old/users.pp`): Puppet
/// never reads it, and fails with "Could not find class".
fn declared_from_unloaded_files(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    use crate::model::record::DeclHow;
    for (name, decl) in &compilation.classes {
        // Code in such a file never runs either: its file is reported.
        let from_unloaded = || super::definition_location::never_loaded(model, decl.loc.file());
        if matches!(decl.how, DeclHow::Entry | DeclHow::Inherited) || from_unloaded() {
            continue;
        }
        let Some(defs) = model.index.types.get(name.as_str()) else { continue };
        let unloaded = |def: &crate::model::index::Definition<'_>| {
            super::definition_location::never_loaded(model, def.file).then_some(def.file)
        };
        let Some(files) = defs.iter().map(unloaded).collect::<Option<Vec<_>>>() else { continue };
        let Some(&file) = files.first() else { continue };
        let looked_for = autoload_path(name);
        // A name Puppet refuses (`apache::cve-2011-3192`) still leads the
        // autoloader to its file, whose definition Puppet then refuses.
        let message = if model.files[file].source.path.ends_with(&looked_for) {
            format!(
                "Puppet's autoloader reads {} for `{name}` and refuses it: \"Unacceptable name\", `{name}` is no valid class name",
                model.relative_path(file).display()
            )
        } else {
            format!(
                "Could not find class ::{name}: it is defined only in {}, a file no name leads Puppet's autoloader to (it looks for {})",
                model.relative_path(file).display(),
                looked_for.display()
            )
        };
        sink.report(&RULE, decl.loc, message, vec![]);
    }
}

/// Where the autoloader looks, as the run found it.
fn module_path_shown(model: &Model<'_>) -> String {
    let dirs = &model.workspace.module_dirs;
    if dirs.is_empty() {
        return "in the module path's directories, and mplint found none here (give them with --modulepath)".into();
    }
    let shown: Vec<String> =
        dirs.iter().take(4).map(|d| format!("{}", model.workspace.display.show(d).display())).collect();
    if shown == ["."] {
        return "in . (the checked directory)".into();
    }
    let more = if dirs.len() > 4 { format!(" and {} more", dirs.len() - 4) } else { String::new() };
    format!("in {}{more}", shown.join(", "))
}

/// Classes that inherit a parent defined nowhere: the index alone says so.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for (full_name, definitions) in &model.index.types {
        for def in definitions {
            let DefBody::Class(class) = def.body else { continue };
            let Some((parent, span)) = &class.parent else { continue };
            let parent = normalize_name(parent);
            let standalone = match def.visibility {
                crate::model::index::Visibility::File(f) => Some(f),
                crate::model::index::Visibility::Global => None,
            };
            if parent == "default" || model.index.find_class(&parent, standalone).is_some() {
                continue;
            }
            // A module's class whose parent a file applied on its own
            // defines: the compilations that reach it say whether it is
            // found.
            if standalone.is_none() && model.index.types.contains_key(&parent) {
                continue;
            }
            if let Some(meant) = relative_parent(model, full_name, &parent, standalone) {
                sink.report(
                    &RULE,
                    Loc::new(def.file, *span),
                    format!(
                        "class `{full_name}` inherits `{parent}`, which Puppet 4 and later look up as the top-level class `{parent}` and do not find; Puppet 3 found `{meant}` relative to the class's namespace: write `inherits {meant}`"
                    ),
                    vec![],
                );
                continue;
            }
            if model.module_present(&parent) && !model.autoload_file_unparsed(&parent) {
                sink.report(
                    &RULE,
                    Loc::new(def.file, *span),
                    format!("class `{}` inherits `{parent}`: {}", class.name, not_defined(model, &parent)),
                    vec![],
                );
            }
        }
    }
}

/// Whether Puppet 4 surely finds no top-level class `name`: its module is
/// in the tree (which lacks the class), or nothing the layout names may
/// install it. A Puppetfile's module is what modern code means by the
/// name, not a class of its own namespace; a module path entry outside
/// the tree names no module, and does not make a top-level class of the
/// namespace's name likelier than the relative one the code found.
pub fn top_level_surely_absent(model: &Model<'_>, name: &str, loc: Loc) -> bool {
    model.module_present(name) || !super::missing_module::installed_by_name(model, name, loc)
}

/// The class a Puppet 3 relative name declared at `loc` (`include
/// amq::service` in `profile::mq`) meant: one in the namespace of the class
/// whose body holds `loc`, when no class of that name exists at the top.
/// Puppet 4 and later look the name up at the top only.
pub fn relative_class_at(model: &Model<'_>, name: &str, loc: Loc) -> Option<String> {
    relative_name_at(model, name, loc, |candidate| model.index.find_class(candidate, Some(loc.file())).is_some())
}

/// The defined type a Puppet 3 relative resource type declared at `loc`
/// (`config { … }` in `solr`, which defines `solr::config`) meant.
pub fn relative_define_at(model: &Model<'_>, name: &str, loc: Loc) -> Option<String> {
    relative_name_at(model, name, loc, |candidate| model.index.find_define(candidate, Some(loc.file())).is_some())
}

/// The name in the namespace of the class or defined type whose body
/// holds `loc` that `defined` accepts, nearest namespace first, when no
/// class or type of that name exists at the top.
fn relative_name_at(model: &Model<'_>, name: &str, loc: Loc, defined: impl Fn(&str) -> bool) -> Option<String> {
    use crate::syntax::ast::ExprKind;
    let file = loc.file();
    let parsed = model.files.get(file)?;
    // `::mysql::client` is written as a top-level name: Puppet 3 never
    // looked it up in a namespace either.
    let written = parsed.source.text.get(loc.start()..loc.end()).unwrap_or("");
    if written.trim_start_matches(['\'', '"']).starts_with("::") {
        return None;
    }
    let manifest = parsed.manifest.as_ref()?;
    let inside = |span: crate::syntax::source::Span| span.start <= loc.start() && loc.start() < span.end;
    // Classes nest only directly in class bodies; defined types in nothing
    // but those.
    let mut enclosing: Option<String> = None;
    let mut statements = &manifest.statements[..];
    loop {
        // Statements are in source order and do not overlap: the one holding
        // `loc` is found by halving, so a file of many statements is
        // searched in log time.
        let after = statements.partition_point(|s| s.span.start <= loc.start());
        let Some(statement) = statements[..after].last().filter(|s| inside(s.span)) else { break };
        let qualified = |own: &str| match &enclosing {
            Some(outer) => format!("{outer}::{}", normalize_name(own)),
            None => normalize_name(own),
        };
        match &statement.kind {
            ExprKind::Class(class) => {
                // A parent is looked up apart: see `relative_parent`.
                if class.parent.as_ref().is_some_and(|(_, span)| inside(*span)) {
                    return None;
                }
                enclosing = Some(qualified(&class.name));
                statements = &class.body.statements;
            }
            ExprKind::Define(define) => {
                enclosing = Some(qualified(&define.name));
                break;
            }
            _ => break,
        }
    }
    let name = normalize_name(name);
    if name.is_empty() || model.index.find_type(&name, Some(file)).is_some() {
        return None;
    }
    let owner = enclosing?;
    let mut namespace = owner.as_str();
    loop {
        let candidate = format!("{namespace}::{name}");
        // `include iegreview` in `profile::iegreview` means the module, not
        // the class itself or one it is nested in.
        let encloses = owner == candidate || owner.starts_with(&format!("{candidate}::"));
        if !encloses && defined(&candidate) {
            return Some(candidate);
        }
        namespace = namespace.rsplit_once("::")?.0;
    }
}

/// The class a Puppet 3 relative parent name (`inherits params` in
/// `foo::bar`) meant, found in the inheriting class's namespace, when
/// no class of that name exists at the top.
pub fn relative_parent(
    model: &Model<'_>,
    class: &str,
    parent: &str,
    standalone: Option<crate::model::index::FileId>,
) -> Option<String> {
    if parent.is_qualified() || model.index.find_type(parent, standalone).is_some() {
        return None;
    }
    let class = normalize_name(class);
    let mut namespace = class.as_str();
    loop {
        let candidate = format!("{namespace}::{parent}");
        if model.index.find_class(&candidate, standalone).is_some() {
            return Some(candidate);
        }
        namespace = namespace.rsplit_once("::")?.0;
    }
}

/// The `.gitignore` that leaves out the file Puppet's autoloader reads for
/// class `name` of a module in the tree, when one does (the nearest one
/// that decides, within the checked tree).
fn kept_out_of_version_control(model: &Model<'_>, name: &str) -> Option<std::path::PathBuf> {
    let module = name.without_anchor().split("::").next()?;
    let module_dir = model.modules.get(module)?;
    let file = module_dir.join(autoload_path(name).strip_prefix(module).ok()?);
    let roots = &model.workspace.roots;
    for dir in file.ancestors().skip(1).take_while(|dir| roots.iter().any(|root| dir.starts_with(root))) {
        let gitignore = dir.join(".gitignore");
        if !gitignore.is_file() {
            continue;
        }
        let mut builder = ignore::gitignore::GitignoreBuilder::new(dir);
        builder.add(&gitignore);
        let Ok(rules) = builder.build() else { continue };
        match rules.matched_path_or_any_parents(&file, false) {
            ignore::Match::Ignore(_) => return Some(gitignore),
            ignore::Match::Whitelist(_) => return None,
            ignore::Match::None => {}
        }
    }
    None
}
