//! `duplicate-resource`

use std::collections::HashMap;

use super::{chain_related, RuleInfo, Sink};
use crate::model::record::{compatible, join, Compilation, ResourceDecl};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports two declarations of the same resource — same type and title, or
/// same namevar (`file { 'a': path => '/x' }` and `file { '/x': }`) — that
/// one node's catalog can hold together: on paths that can both run,
/// wherever the two declarations live (two classes, two instances of one
/// defined type, virtual or exported resources alike).
///
/// ## Why is this bad?
/// Puppet fails the whole catalog with "Duplicate declaration: File[/x] is
/// already declared".
pub const RULE: RuleInfo = RuleInfo {
    id: "duplicate-resource",
    name: "DuplicateResource",
    default_level: Level::Error,
    summary: "One catalog can hold two declarations of the same resource.",
    documentation: include_str!("../../rules/duplicate-resource.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for compilation in &model.compilations {
        let mut by_title: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        let mut by_key: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        let paths: Vec<_> =
            compilation.resources.iter().map(|r| join(&compilation.owner_path(&r.owner), &r.path)).collect();
        for (i, resource) in compilation.resources.iter().enumerate() {
            let mut earlier: Option<usize> = None;
            let candidates =
                by_title.get(&(resource.type_name.as_str(), resource.title.as_str())).into_iter().flatten().chain(
                    resource
                        .key
                        .as_deref()
                        .and_then(|k| by_key.get(&(resource.type_name.as_str(), k)))
                        .into_iter()
                        .flatten(),
                );
            for &j in candidates {
                if may_clash(compilation, &paths[i], &paths[j]) && compilation.resources[j].loc != resource.loc {
                    earlier = Some(earlier.map_or(j, |e: usize| e.min(j)));
                }
            }
            if let Some(j) = earlier {
                report(model, compilation, resource, &compilation.resources[j], sink);
            }
            by_title.entry((&resource.type_name, &resource.title)).or_default().push(i);
            if let Some(key) = &resource.key {
                by_key.entry((&resource.type_name, key)).or_default().push(i);
            }
        }
        // Two instances of one defined type declaring a fixed title: both
        // declarations sit at one place; report them once there.
        let mut seen_same_place: HashMap<(&str, &str, crate::model::index::Loc), usize> = HashMap::new();
        for (i, resource) in compilation.resources.iter().enumerate() {
            let key = (resource.type_name.as_str(), resource.title.as_str(), resource.loc);
            if let Some(&j) = seen_same_place.get(&key) {
                if may_clash(compilation, &paths[i], &paths[j]) && resource.owner != compilation.resources[j].owner {
                    report(model, compilation, resource, &compilation.resources[j], sink);
                }
            } else {
                seen_same_place.insert(key, i);
            }
        }
    }
}

/// In a node's compilation two declarations clash when both can run; for a
/// class checked on its own, only when both always run.
fn may_clash(
    compilation: &Compilation,
    a: &crate::model::record::PathCond,
    b: &crate::model::record::PathCond,
) -> bool {
    if compilation.hypothetical() {
        a.is_empty() && b.is_empty()
    } else {
        compatible(a, b)
    }
}

fn describe(resource: &ResourceDecl) -> String {
    let mut chars = resource.type_name.split("::").map(|part| {
        let mut c = part.chars();
        c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
    });
    let first = chars.next().unwrap_or_default();
    let type_name = std::iter::once(first).chain(chars).collect::<Vec<_>>().join("::");
    format!("{type_name}['{}']", resource.title)
}

fn report(
    model: &Model<'_>,
    compilation: &Compilation,
    later: &ResourceDecl,
    earlier: &ResourceDecl,
    sink: &mut Sink<'_, '_>,
) {
    let entry = model.describe_entry(compilation);
    let mut related = vec![(earlier.loc, format!("{} first declared here", describe(earlier)))];
    let earlier_chain = chain_related(&compilation.chain(&earlier.owner), compilation, model);
    related.extend(earlier_chain.into_iter().map(|(loc, m)| (loc, format!("first: {m}"))));
    let later_chain = chain_related(&compilation.chain(&later.owner), compilation, model);
    let mut flow = later_chain.clone();
    flow.push((later.loc, format!("{} declared again here", describe(later))));
    related.extend(later_chain.into_iter().map(|(loc, m)| (loc, format!("second: {m}"))));
    let what = if later.title == earlier.title {
        describe(later)
    } else {
        format!("{} (same {} as {})", describe(later), namevar(&later.type_name), describe(earlier))
    };
    sink.report_with_flow(
        &RULE,
        later.loc,
        format!("{what} is already declared in the catalog of {entry}"),
        related,
        flow,
    );
}

fn namevar(type_name: &str) -> &'static str {
    crate::model::interp::namevar(type_name)
}
