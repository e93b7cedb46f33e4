//! `illegal-override`

use std::collections::BTreeSet;

use super::{chain_related, RuleInfo, Sink};
use crate::model::index::{normalize_name, FileId, Loc};
use crate::model::record::{join, Compilation, Entry, Owner, PathCond, Source};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports an override (`File['x'] { mode => '0600' }`) that Puppet
/// refuses: from code that is neither the code that declared the resource
/// nor a class inheriting (directly or not) the class that did, or setting
/// an attribute that code of the same origin already set on the resource.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Only subclasses can override parameters", or
/// "Parameter 'mode' is already set on File[x] … cannot redefine".
pub const RULE: RuleInfo = RuleInfo {
    id: "illegal-override",
    name: "IllegalOverride",
    default_level: Level::Error,
    summary: "An override Puppet refuses: not from a subclass, or of an attribute already set.",
    documentation: include_str!("../../rules/illegal-override.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    if compilation.overrides.is_empty() {
        return;
    }
    sink.compilation(compilation);
    let standalone = model.standalone_of(compilation);
    // Code that collects with overrides may override anything afterwards.
    let free: BTreeSet<Source> =
        compilation.collector_overrides.iter().filter_map(|owner| compilation.source(owner)).collect();
    for (k, over) in compilation.overrides.iter().enumerate() {
        if matches!(over.type_name.as_str(), "class" | "resource") {
            continue;
        }
        let Some(source) = compilation.source(&over.owner) else { continue };
        if free.contains(&source) {
            continue;
        }
        let path = full_path(compilation, &over.owner, &over.path);
        let declarations: Vec<_> = compilation
            .resources
            .iter()
            .filter(|r| r.type_name == over.type_name && r.title == over.title)
            .filter_map(|r| Some((r, compilation.source(&r.owner)?, full_path(compilation, &r.owner, &r.path))))
            .collect();
        // The resource is surely declared whenever the override runs.
        let Some((declaration, declarer, _)) = declarations.iter().find(|(_, _, p)| within(p, &path)) else {
            continue;
        };
        let reference = format!("{}[{}]", super::reference_type(&over.type_name), over.title);
        let flow = chain_related(&compilation.chain(&over.owner), compilation, model);
        if declarations.iter().all(|(_, d, _)| !may_override(model, standalone, &source, d)) {
            let related = vec![(declaration.loc, format!("{reference} declared here by {}", describe(declarer)))];
            sink.report_with_flow(
                &RULE,
                over.loc,
                format!(
                    "Only subclasses can override parameters: {} overrides {reference}, declared by {}, which it does not inherit",
                    describe(&source),
                    describe(declarer)
                ),
                related,
                flow,
            );
            continue;
        }
        for (name, at) in &over.attributes {
            if name == "*" || compilation.resource_defaults.iter().any(|(t, a)| *t == over.type_name && a == name) {
                continue;
            }
            let by_declaration = declarations
                .iter()
                .find(|(r, d, p)| *d == source && within(p, &path) && r.attributes.iter().any(|a| a == name))
                .map(|(r, ..)| r.loc);
            let by_override = || {
                compilation.overrides[..k]
                    .iter()
                    .find(|o| {
                        o.type_name == over.type_name
                            && o.title == over.title
                            && compilation.source(&o.owner).as_ref() == Some(&source)
                            && o.attributes.iter().any(|(a, _)| a == name)
                            && {
                                let p = full_path(compilation, &o.owner, &o.path);
                                within(&p, &path) || within(&path, &p)
                            }
                    })
                    .and_then(|o| o.attributes.iter().find(|(a, _)| a == name).map(|(_, at)| *at))
            };
            let Some(earlier) = by_declaration.or_else(by_override) else { continue };
            // A node inheriting another overrides what that one set, as
            // Puppet 3 let it (Puppet 4 refuses `inherits` itself).
            if source == Source::Node
                && node_definition(model, compilation, earlier) != node_definition(model, compilation, *at)
            {
                continue;
            }
            sink.report_with_flow(
                &RULE,
                *at,
                format!("Parameter '{name}' is already set on {reference} by {}; cannot redefine", describe(&source)),
                vec![(earlier, format!("'{name}' set here"))],
                flow.clone(),
            );
        }
    }
}

/// The node definition whose body holds `loc`, in a node's compilation.
fn node_definition(model: &Model<'_>, compilation: &Compilation, loc: Loc) -> Option<usize> {
    let Entry::Node { site, .. } = compilation.entry else { return None };
    model.index.sites[site]
        .nodes
        .iter()
        .position(|node| node.file == loc.file() && node.span.start <= loc.start() && loc.end() <= node.span.end)
}

fn full_path(compilation: &Compilation, owner: &Owner, path: &PathCond) -> PathCond {
    join(&compilation.owner_path(owner), path)
}

/// Every condition of `inner` holds on `outer`: code on `inner` runs
/// whenever code on `outer` does.
fn within(inner: &PathCond, outer: &PathCond) -> bool {
    inner.iter().all(|atom| outer.contains(atom))
}

/// Whether code of origin `by` may override what code of origin `declarer`
/// declared: the same origin, or a class inheriting the declaring class.
fn may_override(model: &Model<'_>, standalone: Option<FileId>, by: &Source, declarer: &Source) -> bool {
    if by == declarer {
        return true;
    }
    let (Source::Class(class), Source::Class(target)) = (by, declarer) else { return false };
    let mut current = class.to_string();
    let mut seen = BTreeSet::new();
    while seen.insert(current.clone()) {
        let Some((def, _)) = model.index.find_class(&current, standalone) else { return true };
        let Some((parent, _)) = &def.parent else { return false };
        current = normalize_name(parent);
        if current == **target {
            return true;
        }
    }
    // An inheritance cycle: reported by its own rule.
    true
}

fn describe(source: &Source) -> String {
    match source {
        Source::Main => "top scope".to_string(),
        Source::Node => "the node".to_string(),
        Source::Class(name) => format!("class `{name}`"),
        Source::Define(name) => format!("defined type `{name}`"),
    }
}
