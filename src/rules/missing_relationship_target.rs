//! `missing-relationship-target`

use super::unknown_parameter::environment;
use super::{chain_related, reference_type, Finding, RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody};
use crate::model::interp::{built_in_attributes, BUILT_IN_TYPES, RELATIONSHIP_METAPARAMS};
use crate::model::record::{join, Compilation, Event, Owner, RefVia, ResourceDecl, ResourceRef};
use crate::model::{module_of, Model};
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind, ResourceForm};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a relationship to a resource that the catalog does not hold: a
/// `require`, `before`, `notify` or `subscribe` of a resource that is not
/// virtual (or that `realize` surely makes real), or an operand of a
/// chaining arrow (`->`, `~>`, `<-`, `<~`) whose other side is no collector,
/// naming a resource no code of the compilation declares; and likewise a
/// resource `realize` names or an override (`File['x'] { … }`) sets, and a
/// resource default's relationship metaparameter that a resource declared
/// after it by the same code takes; and a metaparameter written as a
/// string that is no reference at all (`require => 'nginx'`), wherever it
/// is. Only compilations
/// of a node or of a site's top-level code count, and only when they show
/// every resource of the type: no title, namevar or alias of it unknown, no
/// class declared by an unknown name, no function that declares resources
/// (`create_resources`, a module's Ruby function), no exported resources
/// collected, no class with parameters whose values Hiera data outside the
/// tree may give. Resources of Puppet's core types, classes and the tree's
/// defined types are judged.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Could not find resource 'Package[nginx]' in
/// parameter 'require'", "No title provided and "nginx" is not a valid
/// resource reference", "… for relationship from 'File[/a]'", "Failed to
/// realize virtual resources", "Could not find resource(s) … for
/// overriding".
pub const RULE: RuleInfo = RuleInfo {
    id: "missing-relationship-target",
    name: "MissingRelationshipTarget",
    default_level: Level::Error,
    summary: "A relationship, `realize` or an override names a resource that no code of the catalog declares.",
    documentation: include_str!("../../rules/missing-relationship-target.md"),
};

/// A resource's relationship metaparameter written as a string that cannot
/// be a reference (`require => 'nginx'`): no `Type[title]` in it. The
/// literal alone decides.
pub fn check_literal_references(file: &ParsedFile, findings: &mut Vec<Finding>) {
    let Some(manifest) = &file.manifest else { return };
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if let ExprKind::Relationship { left, right, .. } = &e.kind {
                bare_types_in_relationship(file, left, right, manifest.statements.last(), findings);
                return;
            }
            let ExprKind::Resource(resource) = &e.kind else { return };
            // A virtual or exported resource's relationships may never hold.
            if resource.form != ResourceForm::Regular {
                return;
            }
            // A `default:` body's attributes only hold for the other bodies.
            let bodies = resource.bodies.iter().filter(|b| !matches!(b.title.kind, ExprKind::Default));
            for attribute in bodies.flat_map(|b| &b.attributes) {
                if !RELATIONSHIP_METAPARAMS.contains(&attribute.name.as_str()) {
                    continue;
                }
                let items: Vec<&Expr> = match &attribute.value.kind {
                    ExprKind::Array(items) => items.iter().collect(),
                    _ => vec![&attribute.value],
                };
                for item in items {
                    // A bare word is a string.
                    let text = match &item.kind {
                        ExprKind::Str(s) => s.as_literal(),
                        ExprKind::Name(name) => Some(name.clone()),
                        _ => None,
                    };
                    let Some(text) = text else { continue };
                    if text.contains(['[', ']']) {
                        continue;
                    }
                    let message = format!(
                        "'{text}' in `{}` is not a resource reference (`Type['title']`): Puppet fails with \"No title provided and \"{text}\" is not a valid resource reference\"",
                        attribute.name
                    );
                    findings.push(Finding::in_file(&RULE, RULE.default_level, file, item.span, message));
                }
            }
        });
    }
}

/// `Class['a'] -> Class`, or `-> Class ['b']` (a space before `[` makes
/// the list a statement of its own): an operand that is a type without a
/// title.
/// `last_statement` is the file's last top-level statement: only there is
/// such a list's value not refused as forgotten when the file is parsed.
fn bare_types_in_relationship(
    file: &ParsedFile,
    left: &Expr,
    right: &Expr,
    last_statement: Option<&Expr>,
    findings: &mut Vec<Finding>,
) {
    for operand in [left, right] {
        let items: Vec<&Expr> = match &operand.kind {
            ExprKind::Array(items) => items.iter().collect(),
            _ => vec![operand],
        };
        for item in items {
            let ExprKind::TypeRef(name) = &item.kind else { continue };
            let rest = file.source.text.get(item.span.end..).unwrap_or_default();
            let after_space = rest.trim_start_matches([' ', '\t']);
            let message = if after_space.starts_with('[') && rest.starts_with([' ', '\t']) {
                let list_at = item.span.end + rest.len() - after_space.len();
                let list_ends_the_file = last_statement
                    .is_some_and(|last| matches!(last.kind, ExprKind::Array(_)) && last.span.start == list_at);
                if list_ends_the_file {
                    format!(
                        "`{name} [` with a space before `[` is the type `{name}` without a title, followed by a list of its own: Puppet fails with \"No title provided\" (write `{name}[…]`)"
                    )
                } else {
                    format!(
                        "`{name} [` with a space before `[` is the type `{name}` without a title, followed by a list of its own whose value is forgotten: Puppet refuses the file (\"This Array Expression has no effect\"; write `{name}[…]`)"
                    )
                }
            } else {
                format!(
                "`{name}` in a relationship is a type, not a resource (`{name}['title']`): Puppet fails with \"No title provided\""
                )
            };
            findings.push(Finding::in_file(&RULE, RULE.default_level, file, item.span, message));
        }
    }
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let nothing_named = compilation.references.is_empty() && compilation.default_references.is_empty();
    if compilation.hypothetical() || nothing_named || may_declare_anything(model, compilation) {
        return;
    }
    sink.compilation(compilation);
    for reference in &compilation.references {
        if !judged(model, &reference.type_name)
            || compilation.open_types.contains(&reference.type_name)
            || compilation.may_not_run.contains(&reference.by)
            || !surely_holds(compilation, reference)
            || declared(compilation, reference)
        {
            continue;
        }
        let shown = format!("{}['{}']", reference_type(&reference.type_name), reference.title);
        let puppet = format!("{}[{}]", reference_type(&reference.type_name), title_display(reference));
        // The conditions the reference is made under, as duplicate-resource says them.
        let path = join(&compilation.owner_path(&reference.by), &reference.path);
        let conditions = compilation.describe_path(&path, model.files);
        let when =
            if conditions.is_empty() { String::new() } else { format!(" whenever {}", conditions.join(" and ")) };
        let message = match reference.via {
            RefVia::Metaparam(param) => format!(
                "`{shown}` in `{param}` names a resource this catalog does not declare{when}: Puppet fails with \"Could not find resource '{puppet}' in parameter '{param}'\""
            ),
            RefVia::Chain => format!(
                "`{shown}` names a resource this catalog does not declare{when}: Puppet fails with \"Could not find resource '{puppet}' for relationship\""
            ),
            RefVia::Realize => format!(
                "`{shown}` is realized, but this catalog declares no such resource{when}: Puppet fails with \"Failed to realize virtual resources {puppet}\""
            ),
            RefVia::Override => format!(
                "`{shown}` is overridden, but this catalog declares no such resource{when}: Puppet fails with \"Could not find resource(s) {puppet} for overriding\""
            ),
        };
        let flow = chain_related(&compilation.chain(&reference.by), compilation, model);
        sink.report_with_flow(&RULE, reference.loc, message, Vec::new(), flow);
    }
    check_defaults(model, compilation, sink);
}

/// A resource default's relationship metaparameter naming a resource no
/// code declares, where a resource surely takes the default: one of the
/// type that the same code declares after it, whenever the default runs,
/// without setting the metaparameter itself.
fn check_defaults(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let certain = |owner: &Owner, path: &[(u32, u16)]| path.is_empty() && compilation.owner_path(owner).is_empty();
    for default in &compilation.default_references {
        if !certain(&default.by, &default.path) {
            continue;
        }
        let takes = compilation.resources[default.resources_before..].iter().find(|r| {
            r.type_name == default.type_name
                && r.owner == default.by
                && r.applied
                && r.path.is_empty()
                && !r.attributes.iter().any(|a| a == default.metaparam || a == "*")
        });
        let Some(taker) = takes else { continue };
        for (type_name, title) in &default.targets {
            let reference = ResourceRef {
                type_name: type_name.clone(),
                title: title.clone(),
                loc: default.loc,
                by: default.by.clone(),
                path: default.path.clone(),
                via: RefVia::Metaparam(default.metaparam),
                of_virtual: None,
            };
            if !judged(model, type_name)
                || compilation.open_types.contains(type_name)
                || declared(compilation, &reference)
            {
                continue;
            }
            let shown = format!("{}['{title}']", reference_type(type_name));
            let puppet = format!("{}[{}]", reference_type(type_name), title_display(&reference));
            let param = default.metaparam;
            let message = format!(
                "`{shown}` in `{param}` of the resource default `{} {{ … }}` names a resource this catalog does not declare: Puppet fails with \"Could not find resource '{puppet}' in parameter '{param}'\"",
                reference_type(&default.type_name)
            );
            let taker_shown = format!("`{}['{}']` takes the default", reference_type(&taker.type_name), taker.title);
            let related = vec![(taker.loc, taker_shown)];
            let flow = chain_related(&compilation.chain(&default.by), compilation, model);
            sink.report_with_flow(&RULE, default.loc, message, related, flow);
        }
    }
}

/// Whether the compilation may declare resources its record does not show.
/// A class parameter's default that Hiera data outside the tree may replace
/// can decide titles and branches: then nothing is certain.
fn may_declare_anything(model: &Model<'_>, compilation: &Compilation) -> bool {
    compilation.open_types.contains("*")
        || hiera_may_set_parameters(model, compilation)
        || compilation.declarations.iter().any(|d| d.class.is_none())
        || compilation.events.iter().any(|e| matches!(e, Event::UnknownClass { .. } | Event::Limit { .. }))
        || compilation.resources.iter().any(|r| !known_type(model, &r.type_name))
}

/// Whether the compilation declares a class with parameters whose values
/// Hiera data outside the tree may give.
pub fn hiera_may_set_parameters(model: &Model<'_>, compilation: &Compilation) -> bool {
    let hiera_may_set = |class: &str| {
        let definitions = model.index.types.get(class).into_iter().flatten();
        let has_parameters =
            definitions.into_iter().any(|def| matches!(def.body, DefBody::Class(class) if !class.params.is_empty()));
        has_parameters && !model.facts.all_data_known(environment(model, compilation), module_of(class))
    };
    compilation.classes.keys().any(|class| hiera_may_set(class))
}

/// A type whose resources declare nothing unseen: Puppet's, a defined type
/// or class of the tree, a module's Ruby type.
fn known_type(model: &Model<'_>, type_name: &str) -> bool {
    type_name == "class"
        || BUILT_IN_TYPES.contains(&type_name)
        || model.index.types.contains_key(type_name)
        || model.ruby_types().contains_key(type_name)
}

/// The types whose references are judged: Puppet's core types (whose
/// identities mplint knows), classes and the tree's defined types.
fn judged(model: &Model<'_>, type_name: &str) -> bool {
    match type_name {
        "class" | "stage" => true,
        "resources" => false,
        _ => built_in_attributes(type_name).is_some() || model.index.find_define(type_name, None).is_some(),
    }
}

/// Whether some resource of the compilation answers to the reference, by
/// title or by identity (a namevar set apart from the title).
/// A virtual resource's relationship holds once `realize` surely makes it
/// real; others always.
fn surely_holds(compilation: &Compilation, reference: &ResourceRef) -> bool {
    let Some((type_name, titles)) = &reference.of_virtual else { return true };
    compilation.surely_realized.iter().any(|(t, title)| t == type_name && titles.contains(title))
}

fn declared(compilation: &Compilation, reference: &ResourceRef) -> bool {
    let title = reference.title.as_str();
    match reference.type_name.as_str() {
        "class" => {
            let class = normalize_name(title);
            return class == "main" || class == "settings" || compilation.classes.contains_key(&class);
        }
        "stage" if title == "main" => return true,
        _ => {}
    }
    // Files ignore trailing slashes.
    let trimmed = |t: &str| {
        if reference.type_name == "file" && t.len() > 1 {
            t.trim_end_matches('/').to_string()
        } else {
            t.to_string()
        }
    };
    let wanted = trimmed(title);
    let answers = |r: &ResourceDecl| {
        r.type_name == reference.type_name
            && (trimmed(&r.title) == wanted
                || r.aliases.iter().any(|alias| trimmed(alias) == wanted)
                || r.key.as_deref().and_then(|k| k.split('\u{0}').next()).is_some_and(|k| trimmed(k) == wanted))
    };
    compilation.resources.iter().any(answers)
}

/// A title as Puppet prints it in the reference: a class's capitalised.
fn title_display(reference: &ResourceRef) -> String {
    if reference.type_name == "class" {
        reference_type(&normalize_name(&reference.title))
    } else {
        reference.title.clone()
    }
}
