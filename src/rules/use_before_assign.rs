//! `use-before-assign`

use super::node_scope_leak::describe_owner;
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::record::{DeclHow, Owner, ReadOutcome, ScopeKind};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports a read of a variable that is bound only later: further down the
/// same scope, in a class declared after the read (`$a::x` before
/// `include a`), or in node scope after the class reading it was declared.
///
/// ## Why is this bad?
/// Puppet evaluates in order. With strict variables the read fails with
/// "Unknown variable"; without, it silently reads `undef`.
pub const RULE: RuleInfo = RuleInfo {
    id: "use-before-assign",
    name: "UseBeforeAssign",
    default_level: Level::Error,
    summary: "A variable is read before it is assigned.",
    documentation: include_str!("../../rules/use-before-assign.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    let standalone = model.standalone_of(compilation);
    for read in &compilation.reads {
        let ReadOutcome::LaterBound { kind, binding } = &read.outcome else { continue };
        if read.default_replaced || super::undefined_variable::default_data_may_replace(model, compilation, read) {
            continue;
        }
        // A parent the tree does not define may bind it before.
        let searched_class = match (read.name.without_anchor().rsplit_once("::"), &read.reader) {
            (Some((class, _)), _) => Some(class),
            (None, Owner::Class(reader)) => Some(&**reader),
            (None, _) => None,
        };
        if searched_class.is_some_and(|class| model.inherits_unknown(class, standalone)) {
            continue;
        }
        if compilation.hypothetical() && !later_in_own_code(read, compilation) {
            continue;
        }
        let place = match kind {
            ScopeKind::Class(name) => format!("class `{name}`"),
            ScopeKind::Node => "node scope".to_string(),
            ScopeKind::Top => "top scope".to_string(),
            _ => describe_owner(&read.reader, compilation),
        };
        let related = binding
            .iter()
            .map(|b| (*b, format!("`${}` is assigned here, in {place}, after it is read", read.name)))
            .collect();
        // `case $::x { undef: { $x = … } }`: when a fact sets `x`, the
        // assignment its own test guards never runs. An unqualified read in
        // a class or defined type falls back to top scope the same way.
        let may_read_top_scope = match kind {
            ScopeKind::Top => true,
            ScopeKind::Class(_) | ScopeKind::Define { .. } => !read.name.is_qualified(),
            _ => false,
        };
        // `$x = pick($x, 'default')` keeps the value of top scope or a
        // node, where one is given, the same way.
        let unless = binding.filter(|_| may_read_top_scope).and_then(|b| {
            if assigned_under_test_of(model, read.loc, b) {
                Some("a fact the tree does not show sets it (then the assignment, which this read's test decides, does not run)")
            } else if assigned_from_itself(model, read.loc, b) {
                Some("a fact or top-scope variable the tree does not show sets it (the assignment's own value reads it, to keep such a value)")
            } else {
                None
            }
        });
        if let Some(unless) = unless {
            let message = format!("`${}` is read before it is assigned, unless {unless}", read.name);
            sink.report_at_level(&RULE, Level::Warning, read.loc, message, related, Vec::new());
            continue;
        }
        sink.report(&RULE, read.loc, format!("`${}` is read before it is assigned", read.name), related);
    }
}

/// For a class checked on its own: is the later binding the reader's own
/// doing — its own scope, or a class the reader itself names in a
/// declaration after the read, made whenever the read is? Anything else, a
/// parent pulled in by a class the reader declares included, or a
/// declaration under a condition the read is not under, depends on who
/// declares the reader first.
fn later_in_own_code(read: &crate::model::record::Read, compilation: &crate::model::record::Compilation) -> bool {
    // A default reading `$a::x` states that `a` is declared first.
    if read.in_parameter_default {
        return false;
    }
    let name = read.name.without_anchor();
    match name.rsplit_once("::") {
        None => true,
        Some((class, _)) => {
            let read_path = crate::model::record::join(&compilation.owner_path(&read.reader), &read.path);
            compilation.classes.get(class).is_some_and(|decl| {
                decl.by == read.reader
                    && decl.how != DeclHow::Inherited
                    && decl.path.iter().all(|atom| read_path.contains(atom))
            })
        }
    }
}

/// Whether the assignment at `binding` sits in an `if`, `unless`, `case` or
/// selector whose test holds the read at `read`.
/// Whether the read is in the value of the assignment that binds it.
fn assigned_from_itself(model: &Model<'_>, read: crate::model::index::Loc, binding: crate::model::index::Loc) -> bool {
    use crate::syntax::ast::ExprKind;
    if read.file() != binding.file() {
        return false;
    }
    let Some(manifest) = &model.files[read.file()].manifest else { return false };
    let mut found = false;
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if let ExprKind::Assignment { target, value, .. } = &e.kind {
                found |= (target.span.start, target.span.end) == (binding.start(), binding.end())
                    && value.span.start <= read.start()
                    && read.end() <= value.span.end;
            }
        });
    }
    found
}

fn assigned_under_test_of(
    model: &Model<'_>,
    read: crate::model::index::Loc,
    binding: crate::model::index::Loc,
) -> bool {
    use crate::syntax::ast::ExprKind;
    if read.file() != binding.file() {
        return false;
    }
    let Some(manifest) = &model.files[read.file()].manifest else { return false };
    let holds = |span: crate::syntax::source::Span, start: usize, end: usize| span.start <= start && end <= span.end;
    let mut found = false;
    for statement in &manifest.statements {
        statement.walk(&mut |e| {
            if found || !holds(e.span, binding.start(), binding.end()) {
                return;
            }
            let tests: Vec<&crate::syntax::ast::Expr> = match &e.kind {
                ExprKind::If(branches) | ExprKind::Unless(branches) => {
                    branches.branches.iter().map(|b| &b.condition).collect()
                }
                ExprKind::Case(case) => vec![&case.value],
                ExprKind::Selector { value, .. } => vec![&**value],
                _ => return,
            };
            found = tests
                .iter()
                .any(|t| holds(t.span, read.start(), read.end()) && !holds(t.span, binding.start(), binding.end()));
        });
    }
    found
}
