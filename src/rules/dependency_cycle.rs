//! `dependency-cycle`

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::missing_relationship_target::hiera_may_set_parameters;
use super::{chain_related, reference_type, RuleInfo, Sink};
use crate::model::index::{normalize_name, DefBody, Loc};
use crate::model::record::{Compilation, DeclHow, Declaration, Entry, Owner, Relationship};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports relationships that order resources in a cycle: `A` before `B`
/// and, through other relationships or containment, `B` before `A`. It
/// follows what Puppet's agent builds its graph from: the relationship
/// metaparameters (`require`, `before`, `notify`, `subscribe`) of
/// resources that are not virtual, chaining arrows between references, the
/// `require` function, and containment — a class or defined-type instance
/// holds the resources its code declares, and a class holds the classes it
/// `contain`s. A relationship to a class or instance orders everything it
/// holds.
///
/// Only what surely happens counts: resources, relationships and
/// declarations whose code runs whatever the facts, the conditions and the
/// unknown values are, in compilations of a node, of a site's top-level
/// code, or of a class without parameters checked on its own; nowhere a
/// class's parameter values may come from Hiera data outside the tree.
/// References by an alias or a namevar, collectors, resource defaults and
/// the relationships Puppet adds by itself (a file's parent directory)
/// are left out: with them there may be more cycles, never fewer.
///
/// ## Why is this bad?
/// The catalog compiles, but the agent refuses to apply it: "Found 1
/// dependency cycle: (Notify[a] => Notify[b] => Notify[a])". Nothing of the
/// node's configuration is applied.
pub const RULE: RuleInfo = RuleInfo {
    id: "dependency-cycle",
    name: "DependencyCycle",
    default_level: Level::Error,
    summary: "Relationships and containment order resources in a cycle: the agent applies nothing.",
    documentation: include_str!("../../rules/dependency-cycle.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    // Without an order there is no cycle, unless `contain` makes one.
    let ordering = |d: &Declaration| matches!(d.how, DeclHow::Contain | DeclHow::Require);
    if compilation.relationships.is_empty() && !compilation.declarations.iter().any(ordering) {
        return;
    }
    if (compilation.hypothetical() && !entry_takes_no_parameters(model, compilation))
        || hiera_may_set_parameters(model, compilation)
    {
        return;
    }
    let graph = Graph::of(compilation);
    let cycles = graph.cycles();
    if cycles.is_empty() {
        return;
    }
    sink.compilation(compilation);
    for cycle in cycles {
        report(model, compilation, &graph, &cycle, sink);
    }
}

/// An entry point checked on its own is a class whose code runs the same
/// way whoever declares it.
fn entry_takes_no_parameters(model: &Model<'_>, compilation: &Compilation) -> bool {
    let Entry::Unreached { name, .. } = &compilation.entry else { return false };
    let definitions = model.index.types.get(name).into_iter().flatten();
    let mut classes = definitions.map(|def| match def.body {
        DefBody::Class(class) => class.params.is_empty(),
        _ => false,
    });
    classes.next() == Some(true) && classes.all(|no_params| no_params)
}

/// Why one step of a cycle holds.
#[derive(Clone, Copy)]
enum Because {
    /// A resource's relationship, by its index in the record.
    Relationship(usize),
    /// `require` of a class, by the declaration's index.
    RequireFunction(usize),
    /// A class or instance holds a resource, instance or class.
    Holds { container: usize, member: usize },
    /// `contain` of a class: the declaration's index, the graph's
    /// resources.
    Contains { declaration: usize, container: usize, member: usize },
    /// From a container's start to its end.
    Within,
}

/// Puppet's relationship graph, over the resources that surely are in the
/// catalog: a resource that holds others (a class, a defined-type
/// instance) is two nodes, where it starts and where it is complete. A
/// resource that holds none and that no order names is left out: it
/// cannot be on a cycle that its container's own start and end do not
/// already close.
struct Graph<'c> {
    /// Type (lower case) and title of each resource; a class's title is
    /// its name.
    resources: Vec<(&'c str, &'c str)>,
    /// Where each resource is declared (a class: nowhere in particular).
    declared_at: Vec<Option<Loc>>,
    /// The start and end node of each resource.
    nodes: Vec<(usize, usize)>,
    /// The resource of each node.
    owner_of: Vec<usize>,
    edges: Vec<Vec<(usize, Because)>>,
}

impl<'c> Graph<'c> {
    fn of(compilation: &'c Compilation) -> Graph<'c> {
        let certain = |owner: &Owner, path: &[(u32, u16)]| path.is_empty() && compilation.owner_path(owner).is_empty();
        let mut graph = Graph {
            resources: Vec::new(),
            declared_at: Vec::new(),
            nodes: Vec::new(),
            owner_of: Vec::new(),
            edges: Vec::new(),
        };
        let relationships: Vec<(usize, &Relationship)> =
            compilation.relationships.iter().enumerate().filter(|(_, r)| certain(&r.by, &r.path)).collect();
        let named: HashSet<(&str, &str)> = relationships
            .iter()
            .flat_map(|(_, r)| [&r.before, &r.after])
            .map(|(type_name, title)| (type_name.as_str(), title.as_str()))
            .collect();
        // Resources by type and title; `None` where two declarations share one.
        let mut by_key: HashMap<(&str, &str), Option<usize>> = HashMap::default();
        let mut class_resource: HashMap<&str, usize> = HashMap::default();
        let mut instance_resource: HashMap<usize, usize> = HashMap::default();
        for (name, class) in &compilation.classes {
            if class.path.is_empty() {
                let id = graph.add(("class", name), None, true);
                by_key.insert(("class", name), Some(id));
                class_resource.insert(name, id);
            }
        }
        let mut members: Vec<(&Owner, usize)> = Vec::new();
        for resource in &compilation.resources {
            if !resource.applied || !certain(&resource.owner, &resource.path) || resource.type_name == "class" {
                continue;
            }
            let instance = resource.instance.filter(|i| compilation.instances[*i].path.is_empty());
            let key = (resource.type_name.as_str(), resource.title.as_str());
            if instance.is_none() && !named.contains(&key) {
                continue;
            }
            let id = graph.add(key, Some(resource.loc), instance.is_some());
            if let Some(i) = instance {
                instance_resource.insert(i, id);
            }
            by_key.entry(key).and_modify(|known| *known = None).or_insert(Some(id));
            members.push((&resource.owner, id));
        }
        let container = |owner: &Owner| match owner {
            Owner::Class(name) => class_resource.get(&**name).copied(),
            Owner::Define(i) => instance_resource.get(i).copied(),
            Owner::Top | Owner::Node => None,
        };
        for (owner, member) in members {
            if let Some(holder) = container(owner) {
                graph.hold(holder, member, Because::Holds { container: holder, member });
            }
        }
        for (i, declaration) in compilation.declarations.iter().enumerate() {
            let Some(class) = declaration.class.as_deref().and_then(|c| class_resource.get(c).copied()) else {
                continue;
            };
            let Some(declarer) = container(&declaration.by).filter(|_| declaration.path.is_empty()) else { continue };
            match declaration.how {
                DeclHow::Contain => {
                    let because = Because::Contains { declaration: i, container: declarer, member: class };
                    graph.hold(declarer, class, because)
                }
                DeclHow::Require => graph.order(class, declarer, Because::RequireFunction(i)),
                _ => {}
            }
        }
        let resolve = |(type_name, title): &(String, String)| {
            if type_name == "class" {
                by_key.get(&("class", normalize_name(title).as_str())).copied().flatten()
            } else {
                by_key.get(&(type_name.as_str(), title.as_str())).copied().flatten()
            }
        };
        for (i, relationship) in relationships {
            if let (Some(before), Some(after)) = (resolve(&relationship.before), resolve(&relationship.after)) {
                graph.order(before, after, Because::Relationship(i));
            }
        }
        graph
    }

    /// A resource as Puppet names it: `Notify[a]`, `Class[Apache]`.
    fn name(&self, resource: usize) -> String {
        let (type_name, title) = self.resources[resource];
        if type_name == "class" {
            format!("Class[{}]", reference_type(title))
        } else {
            format!("{}[{title}]", reference_type(type_name))
        }
    }

    /// A resource, holding others or not.
    fn add(&mut self, resource: (&'c str, &'c str), declared_at: Option<Loc>, holds: bool) -> usize {
        let id = self.resources.len();
        self.resources.push(resource);
        self.declared_at.push(declared_at);
        let start = self.owner_of.len();
        self.owner_of.push(id);
        self.edges.push(Vec::new());
        let end = if holds {
            self.owner_of.push(id);
            self.edges.push(Vec::new());
            self.edges[start].push((start + 1, Because::Within));
            start + 1
        } else {
            start
        };
        self.nodes.push((start, end));
        id
    }

    /// `container` starts before `member` and completes after it.
    fn hold(&mut self, container: usize, member: usize, because: Because) {
        let ((start, end), (member_start, member_end)) = (self.nodes[container], self.nodes[member]);
        self.edges[start].push((member_start, because));
        self.edges[member_end].push((end, because));
    }

    /// `before` completes before `after` starts.
    fn order(&mut self, before: usize, after: usize, because: Because) {
        let (end, start) = (self.nodes[before].1, self.nodes[after].0);
        self.edges[end].push((start, because));
    }

    /// One cycle of each strongly connected part that has one, as the
    /// steps from node to node.
    fn cycles(&self) -> Vec<Vec<(usize, Because)>> {
        let component = self.components();
        let mut cycles = Vec::new();
        let mut reported = vec![false; self.edges.len()];
        for (from, edges) in self.edges.iter().enumerate() {
            for &(to, because) in edges {
                let in_cycle = component[from] == component[to];
                let ordered = matches!(because, Because::Relationship(_) | Because::RequireFunction(_));
                if !in_cycle || reported[component[from]] || !(ordered || from == to) {
                    continue;
                }
                // Back from `to` to `from` within the part, shortest first.
                let Some(mut path) = self.path_within(to, from, &component) else { continue };
                path.insert(0, (to, because));
                reported[component[from]] = true;
                cycles.push(path);
            }
        }
        // Cycles made only of containment (`contain` both ways).
        for (from, edges) in self.edges.iter().enumerate() {
            for &(to, because) in edges {
                if component[from] == component[to] && !reported[component[from]] {
                    if let Some(mut path) = self.path_within(to, from, &component) {
                        path.insert(0, (to, because));
                        reported[component[from]] = true;
                        cycles.push(path);
                    }
                }
            }
        }
        cycles
    }

    /// The steps of a shortest path from `from` to `to` inside their part.
    fn path_within(&self, from: usize, to: usize, component: &[usize]) -> Option<Vec<(usize, Because)>> {
        if from == to {
            return Some(Vec::new());
        }
        let mut came_by: Vec<Option<(usize, Because)>> = vec![None; self.edges.len()];
        let mut queue = VecDeque::from([from]);
        let mut seen = vec![false; self.edges.len()];
        seen[from] = true;
        while let Some(node) = queue.pop_front() {
            for &(next, because) in &self.edges[node] {
                if seen[next] || component[next] != component[from] {
                    continue;
                }
                seen[next] = true;
                came_by[next] = Some((node, because));
                if next == to {
                    let mut steps = Vec::new();
                    let mut at = to;
                    while at != from {
                        let (previous, because) = came_by[at].expect("a visited node was reached");
                        steps.push((at, because));
                        at = previous;
                    }
                    steps.reverse();
                    return Some(steps);
                }
                queue.push_back(next);
            }
        }
        None
    }

    /// The strongly connected part of each node (Tarjan's algorithm,
    /// without recursion: graphs can be large).
    fn components(&self) -> Vec<usize> {
        let count = self.edges.len();
        let mut index = vec![usize::MAX; count];
        let mut low = vec![0; count];
        let mut on_stack = vec![false; count];
        let mut stack = Vec::new();
        let mut component = vec![usize::MAX; count];
        let mut next_index = 0;
        let mut components = 0;
        for root in 0..count {
            if index[root] != usize::MAX {
                continue;
            }
            let mut work: Vec<(usize, usize)> = vec![(root, 0)];
            while let Some(top) = work.len().checked_sub(1) {
                let (node, edge) = work[top];
                if edge == 0 && index[node] == usize::MAX {
                    index[node] = next_index;
                    low[node] = next_index;
                    next_index += 1;
                    stack.push(node);
                    on_stack[node] = true;
                }
                if let Some(&(next, _)) = self.edges[node].get(edge) {
                    work[top].1 += 1;
                    if index[next] == usize::MAX {
                        work.push((next, 0));
                    } else if on_stack[next] {
                        low[node] = low[node].min(index[next]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == index[node] {
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component[member] = components;
                        if member == node {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
        component
    }
}

fn report(
    model: &Model<'_>,
    compilation: &Compilation,
    graph: &Graph<'_>,
    cycle: &[(usize, Because)],
    sink: &mut Sink<'_, '_>,
) {
    // The resources in order, as Puppet lists them: back to the first.
    let last = cycle.last().map(|(node, _)| graph.owner_of[*node]).expect("a cycle has a step");
    let mut shown = vec![graph.name(last)];
    for (node, _) in cycle {
        let name = graph.name(graph.owner_of[*node]);
        if shown.last() != Some(&name) {
            shown.push(name);
        }
    }
    if shown.len() == 1 {
        shown.push(shown[0].clone());
    }
    // Each step's place and what it says; orders first, containment after.
    let mut orders: Vec<(Loc, String, Owner)> = Vec::new();
    let mut holds: Vec<(Loc, String, Owner)> = Vec::new();
    for (_, because) in cycle {
        let (place, ordering) = match *because {
            Because::Relationship(i) => {
                let r = &compilation.relationships[i];
                let text = format!("`{}`: `{}` before `{}`", r.via, show(&r.before), show(&r.after));
                ((r.loc, text, r.by.clone()), true)
            }
            Because::RequireFunction(i) => {
                let d = &compilation.declarations[i];
                let class = d.class.as_deref().unwrap_or_default();
                let text = format!("`require {class}`: `Class['{class}']` before the code that requires it");
                ((d.loc, text, d.by.clone()), true)
            }
            Because::Contains { declaration, container, member } => {
                let d = &compilation.declarations[declaration];
                let text = format!(
                    "`contain`: `{}` starts and completes within `{}`",
                    graph.name(member),
                    graph.name(container)
                );
                ((d.loc, text, d.by.clone()), false)
            }
            Because::Holds { container, member } => {
                let Some(at) = graph.declared_at[member] else { continue };
                let text = format!("`{}` holds `{}`", graph.name(container), graph.name(member));
                ((at, text, Owner::Top), false)
            }
            Because::Within => continue,
        };
        let list = if ordering { &mut orders } else { &mut holds };
        if !list.iter().any(|(loc, text, _)| (*loc, text) == (place.0, &place.1)) {
            list.push(place);
        }
    }
    // Reported at the first order written (a `contain`, when only
    // containment makes the cycle); the other steps are related.
    let primary = if orders.is_empty() { &mut holds } else { &mut orders };
    primary.sort_by_key(|(loc, ..)| *loc);
    if primary.is_empty() {
        return;
    }
    let (loc, text, by) = primary.remove(0);
    let related: Vec<(Loc, String)> = orders.into_iter().chain(holds).map(|(loc, text, _)| (loc, text)).collect();
    let message = format!(
        "dependency cycle ({}), here {text}: the catalog compiles, but Puppet's agent applies nothing (\"Found 1 dependency cycle\")",
        shown.join(" => ")
    );
    let flow = chain_related(&compilation.chain(&by), compilation, model);
    sink.report_with_flow(&RULE, loc, message, related, flow);
}

/// A reference as code writes it.
fn show((type_name, title): &(String, String)) -> String {
    format!("{}['{title}']", reference_type(type_name))
}
