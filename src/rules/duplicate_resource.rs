//! `duplicate-resource`

use rustc_hash::FxHashMap as HashMap;

use super::{chain_related, RuleInfo, Sink};
use crate::model::index::Loc;
use crate::model::record::{
    compatible, join, meet, possible, ChoiceLabel, Compilation, Entry, Guard, Guarded, Owner, PathCond, Place,
    ResourceDecl,
};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports two declarations of the same resource — same type and title, or
/// same namevar (`file { 'a': path => '/x' }` and `file { '/x': }`, for
/// types whose one namevar is known) — that
/// one node's catalog surely holds together whenever their shared
/// conditions hold, wherever the two declarations live (two classes, two
/// instances of one defined type, virtual or exported resources alike).
/// When they clash only if further unknown values line up, it is
/// `possible-duplicate-resource`.
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

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    // A class of a file applied on its own that the file never declares
    // never runs: what it declares clashes with nothing the file runs.
    let undeclared_in_own_file =
        matches!(compilation.entry, Entry::Unreached { .. }) && model.standalone_of(compilation).is_some();
    for (later, earlier) in clashes(compilation) {
        let a = &compilation.resources[later];
        let earlier: Vec<usize> = if undeclared_in_own_file {
            let a_within = compilation.within_entry(&a.owner);
            earlier
                .into_iter()
                .filter(|&j| compilation.within_entry(&compilation.resources[j].owner) == a_within)
                .collect()
        } else {
            earlier
        };
        // The earliest declaration it surely clashes with, or else the
        // earliest it may clash with.
        let mut possible = None;
        let mut certain = None;
        for j in earlier {
            let b = &compilation.resources[j];
            if titles_clash_first(model, compilation, a, b) {
                continue;
            }
            let conditions = uncertain_conditions(model, compilation, a, b);
            if conditions.is_empty() {
                certain = Some(b);
                break;
            }
            possible.get_or_insert((b, conditions));
        }
        match (certain, possible) {
            (Some(b), _) => report(model, compilation, a, b, sink),
            (None, Some((b, conditions))) => {
                crate::rules::possible_duplicate_resource::report(model, compilation, a, b, &conditions, sink)
            }
            (None, None) => {}
        }
    }
}

/// Declarations of one resource that can both run in the compilation: each
/// later one with the earlier ones it can clash with, earliest first.
pub fn clashes(compilation: &Compilation) -> Vec<(usize, Vec<usize>)> {
    let resources = &compilation.resources;
    // Neighbouring resources mostly share their owner: its path and
    // answers are looked up once for a run of them.
    let mut last_owner: Option<(&Owner, &[(u32, u16)])> = None;
    let paths: Vec<PathCond> = resources
        .iter()
        .map(|r| {
            let owner_path = match last_owner {
                Some((owner, path)) if same_owner(owner, &r.owner) => path,
                _ => {
                    let path = compilation.owner_path_ref(&r.owner);
                    last_owner = Some((&r.owner, path));
                    path
                }
            };
            join(owner_path, &r.path)
        })
        .collect();
    let twins = duplicated_instances(compilation, &paths);
    // By type and title: every declaration, and the first at each place.
    let mut by_title: HashMap<(&str, &str), Declared> = HashMap::default();
    by_title.reserve(resources.len());
    let mut by_key: HashMap<(&str, &str), Vec<usize>> = HashMap::default();
    let mut pairs = Vec::new();
    // `if !defined(Type['title'])` guards: most compilations have few.
    let resource_guards: Vec<&Guard> =
        compilation.guards.iter().filter(|g| !g.defined && matches!(g.what, Guarded::Resource { .. })).collect();
    // A declaration is guarded only on a path through a guard's branch:
    // most paths go through none.
    let guard_atoms: rustc_hash::FxHashSet<(u32, u16)> = resource_guards.iter().map(|g| (g.choice, g.branch)).collect();
    // Code of a virtual or exported instance that nothing collects or
    // realizes never runs here.
    // Found once per owner: most resources share theirs.
    let mut never_runs_by_owner: HashMap<&Owner, bool> = HashMap::default();
    let mut inside_twin_by_owner: HashMap<&Owner, bool> = HashMap::default();
    let mut last_answer: Option<(&Owner, bool)> = None;
    let never_runs: Vec<bool> = resources
        .iter()
        .map(|r| match last_answer {
            Some((owner, answer)) if same_owner(owner, &r.owner) => answer,
            _ => {
                let answer = *never_runs_by_owner.entry(&r.owner).or_insert_with(|| {
                    compilation.within_virtual_instance(&r.owner).is_some_and(|i| !compilation.may_realize(i))
                });
                last_answer = Some((&r.owner, answer));
                answer
            }
        })
        .collect();
    for (i, resource) in resources.iter().enumerate() {
        if never_runs[i] {
            continue;
        }
        // Inside a second instance of a defined type: that instance is the
        // duplicate, reported once at its declaration.
        let inside_twin = !twins.is_empty()
            && *inside_twin_by_owner
                .entry(&resource.owner)
                .or_insert_with(|| within_instances(compilation, &resource.owner).any(|inst| twins.contains(&inst)));
        // Declared only if not declared yet: never the second declaration,
        // though a later unguarded one clashes with it.
        let guarded = paths[i].iter().any(|atom| guard_atoms.contains(atom))
            && is_guarded(&resource_guards, resources, resource, &paths[i]);
        let declared = by_title.entry((resource.type_name.as_str(), resource.title.as_str())).or_default();
        if !inside_twin && !guarded {
            let candidates = declared.all.iter().chain(
                resource
                    .key
                    .as_deref()
                    .and_then(|k| by_key.get(&(resource.type_name.as_str(), k)))
                    .into_iter()
                    .flatten(),
            );
            let mut earlier: Vec<usize> = candidates
                .copied()
                .filter(|&j| {
                    together(compilation, &paths[i], &paths[j])
                        && ever_together(compilation, resource, &resources[j])
                        && resources[j].loc != resource.loc
                        && !guard_excludes(&resource_guards, resources, &paths, i, j)
                })
                .collect();
            earlier.sort_unstable();
            earlier.dedup();
            // Two instances of one defined type declaring a fixed title:
            // both declarations sit at one place.
            if earlier.is_empty() {
                if let Some(&(_, j)) = declared.first_at.iter().find(|(loc, _)| *loc == resource.loc) {
                    // Under `if !defined(…)`, the block runs in one instance only.
                    let in_guarded_block = compilation.guarded(&paths[i], false, |_| true);
                    if together(compilation, &paths[i], &paths[j])
                        && ever_together(compilation, resource, &resources[j])
                        && resource.owner != resources[j].owner
                        && !in_guarded_block
                    {
                        earlier.push(j);
                    }
                }
            }
            if !earlier.is_empty() {
                pairs.push((i, earlier));
            }
        }
        declared.all.push(i);
        if !declared.first_at.iter().any(|(loc, _)| *loc == resource.loc) {
            declared.first_at.push((resource.loc, i));
        }
        if let Some(key) = &resource.key {
            by_key.entry((&resource.type_name, key)).or_default().push(i);
        }
    }
    pairs
}

/// Whether two owners are one, comparing a class's shared name by
/// address first.
fn same_owner(a: &Owner, b: &Owner) -> bool {
    match (a, b) {
        (Owner::Class(x), Owner::Class(y)) => std::sync::Arc::ptr_eq(x, y) || x == y,
        _ => a == b,
    }
}

/// The declarations of one type and title: all of them in order, and the
/// first at each place (most titles are declared at one).
#[derive(Default)]
struct Declared {
    all: Vec<usize>,
    first_at: smallvec::SmallVec<[(Loc, usize); 1]>,
}

/// The conditions, beyond those both declarations share, under which they
/// run together: values mplint cannot know that may never line up (the
/// code does not show how facts, lookups or parameters are tied). None
/// when the clash is certain: both run whenever either does.
fn uncertain_conditions(
    model: &Model<'_>,
    compilation: &Compilation,
    a: &ResourceDecl,
    b: &ResourceDecl,
) -> Vec<String> {
    let (pa, pb) = (full_path(compilation, a), full_path(compilation, b));
    let shared = meet(&pa, &pb);
    let extra: PathCond = join(&pa, &pb).into_iter().filter(|atom| !shared.contains(atom)).collect();
    let mut conditions = Vec::new();
    if !extra.is_empty() {
        conditions = crate::rules::possible_duplicate_resource::describe_conditions(model, compilation, &extra);
    }
    // A class declared under conditions that need not hold together runs
    // only where one of them does; a virtual or exported instance's code,
    // only where it is collected.
    for owner in [&a.owner, &b.owner] {
        if let Some(instance) = compilation.within_virtual_instance(owner).and_then(|i| compilation.instances.get(i)) {
            let realized = |(type_name, title): &(String, String)| {
                *type_name == instance.type_name && instance.title.as_ref() == Some(title)
            };
            if compilation.surely_realized.iter().any(realized) {
                continue;
            }
            let title = instance.title.as_deref().map_or("…".to_string(), |t| format!("'{t}'"));
            conditions
                .push(format!("{}[{title}] is collected or realized", super::type_reference(&instance.type_name)));
        }
    }
    for owner in [&a.owner, &b.owner] {
        if let Some(class) = uncovering_class(compilation, owner) {
            conditions.push(declared_on_some_paths(model, compilation, class));
        }
    }
    conditions.dedup();
    conditions
}

/// The first class on the way to an owner's code whose declarations do
/// not cover its path.
fn uncovering_class<'c>(compilation: &'c Compilation, owner: &'c Owner) -> Option<&'c str> {
    if compilation.runs_on_its_path(owner) {
        return None;
    }
    let mut current = owner;
    for _ in 0..(compilation.classes.len() + compilation.instances.len() + 1) {
        current = match current {
            Owner::Class(name) => {
                let decl = compilation.classes.get(&**name)?;
                if !decl.covers_path {
                    return Some(name);
                }
                &decl.by
            }
            Owner::Define(i) => &compilation.instances.get(*i)?.by,
            Owner::Top | Owner::Node => return None,
        };
    }
    None
}

/// "class `a` is declared (if `$x` is true, or if `$y` is true)".
fn declared_on_some_paths(model: &Model<'_>, compilation: &Compilation, class: &str) -> String {
    let Some(decl) = compilation.classes.get(class) else { return format!("class `{class}` is declared") };
    // Its code ran with the values of its first declaration only.
    let taken = if decl.values_vary { 1 } else { usize::MAX };
    let alternatives: Vec<String> = decl
        .declared_under
        .iter()
        .flatten()
        .take(taken)
        .map(|path| {
            let own: PathCond = path.iter().filter(|atom| !decl.path.contains(atom)).copied().collect();
            crate::rules::possible_duplicate_resource::describe_conditions(model, compilation, &own).join(" and ")
        })
        .filter(|described| !described.is_empty())
        .collect();
    if alternatives.is_empty() {
        format!("class `{class}` is declared")
    } else if decl.values_vary {
        format!("class `{class}` is declared as it is if {}", alternatives[0])
    } else {
        format!("class `{class}` is declared (if {})", alternatives.join(", or if "))
    }
}

/// The later declaration sits in a block under `if !defined(X)`, and `X`
/// was declared before it by the earlier one's code, whenever that runs
/// (the same guarded block in another class): the block never runs then.
fn guard_excludes(
    guards: &[&Guard],
    resources: &[ResourceDecl],
    paths: &[PathCond],
    later: usize,
    earlier: usize,
) -> bool {
    let (owner, earlier_owner) = (&resources[later].owner, &resources[earlier].owner);
    guards.iter().filter(|g| paths[later].contains(&(g.choice, g.branch))).any(|g| {
        let Guarded::Resource { type_name, title: Some(title) } = &g.what else { return false };
        resources[..later].iter().zip(paths).any(|(x, path)| {
            x.type_name == *type_name
                && x.title == *title
                && x.owner == *earlier_owner
                && x.owner != *owner
                && path.iter().all(|atom| paths[earlier].contains(atom))
        })
    })
}

/// Whether code on both paths can run in one compilation: each can run
/// at all, and both together.
fn together(compilation: &Compilation, a: &PathCond, b: &PathCond) -> bool {
    possible(a) && possible(b) && compatible(a, b) && !compilation.literals_exclude(a, b)
}

/// Whether two declarations may run together, their classes declared on
/// whichever of their declarations' paths: a class declared in two
/// exclusive branches runs under one of them, not under what they share.
/// A class declared on too many paths runs under what they share, which
/// each of them holds: a path that cannot run with that cannot run with
/// any of them.
fn ever_together(compilation: &Compilation, a: &ResourceDecl, b: &ResourceDecl) -> bool {
    let under =
        |resource| declared_under(compilation, resource).unwrap_or_else(|| vec![full_path(compilation, resource)]);
    let (under_a, under_b) = (under(a), under(b));
    under_a.iter().any(|pa| under_b.iter().any(|pb| together(compilation, pa, pb)))
}

/// The paths a declaration runs under, one per declaration of the class
/// that holds it; `None` when only what they share is known.
fn declared_under(compilation: &Compilation, resource: &ResourceDecl) -> Option<Vec<PathCond>> {
    match &resource.owner {
        Owner::Class(name) => {
            let paths = compilation.classes.get(&**name)?.declared_under.as_ref()?;
            Some(paths.iter().map(|p| join(p, &resource.path)).collect())
        }
        _ => Some(vec![full_path(compilation, resource)]),
    }
}

fn full_path(compilation: &Compilation, resource: &ResourceDecl) -> PathCond {
    join(compilation.owner_path_ref(&resource.owner), &resource.path)
}

/// Declared under `if !defined(Type['title'])` (or `unless defined(…)`),
/// one of `guards`, by the statement that declares `Type['title']` itself
/// (`file { ['/a', '/a/b']: }` under `!defined(File['/a/b'])`).
fn is_guarded(guards: &[&Guard], resources: &[ResourceDecl], resource: &ResourceDecl, path: &PathCond) -> bool {
    guards.iter().any(|g| {
        path.contains(&(g.choice, g.branch))
            && match &g.what {
                Guarded::Resource { type_name, title } => {
                    *type_name == resource.type_name
                        && title.as_ref().is_none_or(|t| {
                            *t == resource.title
                                || resources.iter().any(|other| {
                                    other.loc == resource.loc && other.type_name == *type_name && other.title == *t
                                })
                        })
                }
                _ => false,
            }
    })
}

/// Whether the two declarations run together only where two instances of
/// one defined type have one title: each runs where its instance's
/// `$name` or `$title` equals a literal (`if $name == 'port'`), the
/// other's title being that literal or tested equal to it. Puppet then
/// fails on the instances' own duplicate first; the instances are judged
/// at their declarations.
fn titles_clash_first(model: &Model<'_>, compilation: &Compilation, a: &ResourceDecl, b: &ResourceDecl) -> bool {
    let (pa, pb) = (full_path(compilation, a), full_path(compilation, b));
    // The literals an instance's own title is tested equal to on a path.
    let title_tested = |path: &PathCond, instance: usize| -> Vec<&str> {
        path.iter()
            .filter(|(_, branch)| *branch == 1)
            .filter_map(|(choice, _)| match compilation.labels.get(choice)? {
                ChoiceLabel::Equality { at, place: Place::Define(i), literal } if *i == instance => {
                    let text = model.files.get(at.file())?.source.text.get(at.start()..at.end())?;
                    // A string literal is labelled quoted.
                    let string = literal.strip_prefix('\'')?.strip_suffix('\'')?;
                    matches!(text, "$name" | "$title").then_some(string)
                }
                _ => None,
            })
            .collect()
    };
    let (Some(ia), Some(ib)) =
        (within_instances(compilation, &a.owner).next(), within_instances(compilation, &b.owner).next())
    else {
        return false;
    };
    let (Some(da), Some(db)) = (compilation.instances.get(ia), compilation.instances.get(ib)) else { return false };
    if ia == ib || da.type_name != db.type_name {
        return false;
    }
    let (la, lb) = (title_tested(&pa, ia), title_tested(&pb, ib));
    let names = |instance: &crate::model::record::DefineInstance, tested: &[&str], literal: &str| {
        instance.title.as_deref() == Some(literal) || tested.contains(&literal)
    };
    la.iter().any(|literal| names(db, &lb, literal)) || lb.iter().any(|literal| names(da, &la, literal))
}

/// Instances of defined types that repeat an earlier instance (same type
/// and title, able to run together).
fn duplicated_instances(compilation: &Compilation, paths: &[PathCond]) -> Vec<usize> {
    let mut first: HashMap<(&str, &str), Vec<(usize, &PathCond)>> = HashMap::default();
    let mut twins = Vec::new();
    for (i, resource) in compilation.resources.iter().enumerate() {
        let Some(instance) = resource.instance else { continue };
        let key = (resource.type_name.as_str(), resource.title.as_str());
        let earlier = first.entry(key).or_default();
        if earlier.iter().any(|(_, p)| together(compilation, p, &paths[i])) {
            twins.push(instance);
        }
        earlier.push((instance, &paths[i]));
    }
    twins
}

/// The instances of defined types whose code an owner's code runs in,
/// innermost first.
fn within_instances<'c>(compilation: &'c Compilation, owner: &Owner) -> impl Iterator<Item = usize> + 'c {
    let mut current = owner.clone();
    let mut steps = 0;
    std::iter::from_fn(move || loop {
        steps += 1;
        if steps > compilation.instances.len() + compilation.classes.len() + 1 {
            return None;
        }
        match &current {
            Owner::Define(i) => {
                let i = *i;
                current = compilation.instances.get(i)?.by.clone();
                return Some(i);
            }
            Owner::Class(name) => current = compilation.classes.get(&**name)?.by.clone(),
            Owner::Top | Owner::Node => return None,
        }
    })
}

pub fn describe(resource: &ResourceDecl) -> String {
    format!("{}['{}']", super::type_reference(&resource.type_name), resource.title)
}

/// Places with what they show.
type Related = Vec<(Loc, String)>;

/// The include chains to both declarations, as related places marked
/// "first:" and "second:", and the second one's chain alone.
pub fn both_chains(
    model: &Model<'_>,
    compilation: &Compilation,
    earlier: &ResourceDecl,
    later: &ResourceDecl,
) -> (Related, Related) {
    let earlier_chain = chain_related(&compilation.chain(&earlier.owner), compilation, model);
    let later_chain = chain_related(&compilation.chain(&later.owner), compilation, model);
    // Steps both chains take are shown once, unlabelled.
    let mut related: Vec<(Loc, String)> = earlier_chain
        .iter()
        .map(|(loc, m)| match later_chain.contains(&(*loc, m.clone())) {
            true => (*loc, m.clone()),
            false => (*loc, format!("first: {m}")),
        })
        .collect();
    related.extend(
        later_chain.iter().filter(|step| !earlier_chain.contains(step)).map(|(loc, m)| (*loc, format!("second: {m}"))),
    );
    (related, later_chain)
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
    let (chains, later_chain) = both_chains(model, compilation, earlier, later);
    related.extend(chains);
    let mut flow = later_chain;
    flow.push((later.loc, format!("{} declared again here", describe(later))));
    let what = if later.title == earlier.title {
        describe(later)
    } else {
        format!("{} (same {} as {})", describe(later), namevar(&later.type_name), describe(earlier))
    };
    // Both run only where conditions mplint cannot decide hold (a fact's
    // value, say): the catalog holds both only there, which is said.
    let shared = meet(&full_path(compilation, later), &full_path(compilation, earlier));
    let conditions = compilation.describe_path(&shared, model.files);
    let when = if conditions.is_empty() { String::new() } else { format!(" whenever {}", conditions.join(" and ")) };
    sink.report_with_flow(
        &RULE,
        later.loc,
        format!("{what} is already declared in the catalog of {entry}{when}"),
        related,
        flow,
    );
}

fn namevar(type_name: &str) -> &'static str {
    crate::model::interp::namevar(type_name)
}
