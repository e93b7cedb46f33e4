//! `variable-reassigned`

use super::{RuleInfo, Sink};
use crate::model::facts::FACTS_EVERY_AGENT_SENDS;
use crate::model::index::Loc;
use crate::model::record::Compilation;
use crate::model::record::Event;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind};

/// ## What it does
/// Reports an assignment to a variable already assigned in the same scope
/// on a path that can run with it.
///
/// ## Why is this bad?
/// Puppet variables are immutable: the second assignment fails the
/// compilation with "Cannot reassign variable". A fact every agent sends
/// is assigned at top scope before any manifest runs, so a top-scope
/// assignment of its name (`$os = 'centos5'`) fails the same way.
pub const RULE: RuleInfo = RuleInfo {
    id: "variable-reassigned",
    name: "VariableReassigned",
    default_level: Level::Error,
    summary: "A variable is assigned twice in one scope.",
    documentation: include_str!("../../rules/variable-reassigned.md"),
};

pub fn check(_model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        if let Event::Reassigned { name, loc, first } = event {
            let related = first.iter().map(|f| (*f, format!("`${name}` first assigned here"))).collect();
            sink.report(&RULE, *loc, format!("`${name}` is already assigned in this scope"), related);
        }
    }
}

/// Top-scope assignments, in a site manifest or a file applied on its own,
/// of a fact every agent sends.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for site in &model.index.sites {
        for (file, statement) in &site.top_level {
            let mut stack: Vec<&Expr> = vec![*statement];
            while let Some(expr) = stack.pop() {
                match &expr.kind {
                    ExprKind::Assignment { target, .. } => {
                        let ExprKind::Variable(variable) = &target.kind else { continue };
                        if FACTS_EVERY_AGENT_SENDS.contains(&&*variable.name) {
                            let message = format!(
                                "`${}` is a fact every agent sends, which Puppet sets at top scope before the manifest runs: Puppet fails with \"Cannot reassign variable '${}'\"; use another name",
                                variable.name, variable.name
                            );
                            sink.report(&RULE, Loc::new(*file, target.span), message, Vec::new());
                        }
                    }
                    // Branches at top level are top scope too.
                    ExprKind::If(branching) | ExprKind::Unless(branching) => {
                        stack.extend(branching.branches.iter().flat_map(|b| &b.body.statements));
                        stack.extend(branching.else_body.iter().flat_map(|b| &b.statements));
                    }
                    ExprKind::Case(case) => stack.extend(case.options.iter().flat_map(|o| &o.body.statements)),
                    _ => {}
                }
            }
        }
    }
}
