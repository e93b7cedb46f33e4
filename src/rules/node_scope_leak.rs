//! `node-scope-leak`

use super::{chain_related, RuleInfo, Sink};
use crate::model::interp::METAPARAMETERS;
use crate::model::record::Compilation;
use crate::model::record::{Owner, ReadOutcome, ScopeKind};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports a class or defined type that reads an unqualified variable it
/// does not bind (nor its parameters or parent classes), which only node
/// scope provides: a node that declares the class, through any chain of
/// includes, assigns it. Checked without a site in view, a variable bound
/// nowhere in the tree is reported too: only the class's declarer can
/// provide it.
///
/// ## Why is this bad?
/// The class works only when declared from a node that happens to set the
/// variable. Declared from top scope, from another node, or by a node that
/// assigns the variable after the `include`, it fails or reads another value.
pub const RULE: RuleInfo = RuleInfo {
    id: "node-scope-leak",
    name: "NodeScopeLeak",
    default_level: Level::Warning,
    summary: "A class or defined type reads a variable that only node scope provides.",
    documentation: include_str!("../../rules/node-scope-leak.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for read in &compilation.reads {
        let (Owner::Class(_) | Owner::Define(_)) = &read.reader else { continue };
        if read.default_replaced {
            continue;
        }
        if model.site_provides(compilation, &read.name) {
            continue;
        }
        let reader = || describe_owner(&read.reader, compilation);
        match &read.outcome {
            ReadOutcome::Bound { kind: ScopeKind::Node, binding } => {
                let mut related = Vec::new();
                if let Some(binding) = binding {
                    related.push((
                        *binding,
                        format!("`${}` assigned here by {}", read.name, model.describe_entry(compilation)),
                    ));
                }
                related.extend(chain_related(&compilation.chain(&read.reader), compilation, model));
                let mut flow = related.clone();
                flow.push((read.loc, format!("`${}` read here, found in node scope", read.name)));
                sink.report_with_flow(
                    &RULE,
                    read.loc,
                    format!(
                        "`${}` is not bound in {}; it comes from the node scope of the node that declares it",
                        read.name,
                        reader()
                    ),
                    related,
                    flow,
                );
            }
            ReadOutcome::Unbound { elsewhere, .. }
                if !compilation.node_in_view && !model.has_site && !read.name.is_qualified() =>
            {
                // A parent the tree does not define may bind it; the
                // declarer of a class checked on its own may set a
                // metaparameter.
                let inherits_unknown = match &read.reader {
                    Owner::Class(class) => model.inherits_unknown(class, model.standalone_of(compilation)),
                    _ => false,
                };
                if inherits_unknown
                    || (METAPARAMETERS.contains(&&*read.name) && compilation.is_entry_owner(&read.reader))
                {
                    continue;
                }
                let mut related = chain_related(&compilation.chain(&read.reader), compilation, model);
                let message = match elsewhere {
                    Some(other) => {
                        related.insert(0, (*other, format!("`${}` is assigned here, on another path", read.name)));
                        format!(
                            "`${}` is not assigned on this path in {}; only a declaring node or top scope can provide `${}` here",
                            read.name,
                            reader(),
                            read.name
                        )
                    }
                    None => format!(
                        "`${}` is not bound in {} or its parents; only a declaring node or top scope can provide `${}`",
                        read.name,
                        reader(),
                        read.name
                    ),
                };
                sink.report(&RULE, read.loc, message, related);
            }
            _ => {}
        }
    }
}

/// `class `a``, `defined type `d``.
pub fn describe_owner(owner: &Owner, compilation: &crate::model::record::Compilation) -> String {
    match owner {
        Owner::Class(name) => format!("class `{name}`"),
        Owner::Define(i) => {
            let name = compilation.instances.get(*i).map_or("?", |d| d.type_name.as_str());
            format!("defined type `{name}`")
        }
        Owner::Node => "the node".into(),
        Owner::Top => "top scope".into(),
    }
}
