//! Policy constraints on constructs a team keeps out of its code
//! (`forbid-construct`): resource defaults, collectors that select by
//! anything but the title, classes and defined types defined inside
//! others, `inherits` other than from a `::params` class, and node
//! definitions outside a site's `manifests/`. They are read from the
//! syntax of each file the constraint's `paths` cover: what is written is
//! what is reported.

use super::Sink;
use crate::model::index::Loc;
use crate::model::workspace::FileRole;
use crate::model::Model;
use crate::policy::{Constraint, Construct, Test};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind};
use crate::syntax::source::Span;

pub fn finish(model: &Model<'_>, constraint: &Constraint, sink: &mut Sink<'_, '_>) {
    let Test::ForbidConstructs(constructs) = &constraint.test else { return };
    for (file, parsed) in model.files.iter().enumerate() {
        let Some(manifest) = &parsed.manifest else { continue };
        if !model.reported[file] || !constraint.applies_in(model.relative_path(file)) {
            continue;
        }
        let mut found: Vec<(Span, Construct, String)> = Vec::new();
        for statement in &manifest.statements {
            statement.walk(&mut |expr| constructs_in(model, file, expr, &mut found));
        }
        for (span, construct, what) in found {
            if !constructs.contains(&construct) {
                continue;
            }
            let message = format!(
                "{}: {what} (`{}` in `forbid-construct`; constraint `{}` of policy {})",
                constraint.message,
                construct.key(),
                constraint.id,
                constraint.policy
            );
            sink.report_for(constraint.id, constraint.level, Loc::new(file, span), message, Vec::new(), Vec::new());
        }
    }
}

/// The constructs an expression itself is (not those inside it, which the
/// walk visits on their own).
fn constructs_in(model: &Model<'_>, file: usize, expr: &Expr, found: &mut Vec<(Span, Construct, String)>) {
    match &expr.kind {
        ExprKind::ResourceDefaults(defaults) => {
            let type_name = &model.files[file].source.text[defaults.type_expr.span.start..defaults.type_expr.span.end];
            found.push((
                defaults.type_expr.span,
                Construct::ResourceDefaults,
                format!("`{type_name} {{ … }}` sets defaults for every `{type_name}` in this scope and in the classes it declares"),
            ));
        }
        ExprKind::Collector(collector) => {
            let on_title = collector.query.as_ref().is_some_and(selects_by_title);
            if !on_title {
                let how = if collector.query.is_none() {
                    "every resource of its type"
                } else {
                    "by attributes other than the title"
                };
                found.push((expr.span, Construct::CollectorNotByTitle, format!("this collector selects {how}")));
            }
        }
        ExprKind::Class(class) => {
            nested(&class.body.statements, &class.name, found);
            if let Some((parent, span)) = &class.parent {
                let parent = crate::model::index::normalize_name(parent);
                if parent.rsplit("::").next() != Some("params") {
                    found.push((
                        *span,
                        Construct::InheritsNotParams,
                        format!("class `{}` inherits `{parent}`, which is not a `::params` class", class.name),
                    ));
                }
            }
        }
        ExprKind::Define(define) => nested(&define.body.statements, &define.name, found),
        ExprKind::Node(node) => {
            let in_manifests = match &model.index.roles[file] {
                FileRole::Site { .. } => true,
                FileRole::Standalone => {
                    model.path(file).parent().and_then(|p| p.file_name()).is_some_and(|n| n == "manifests")
                }
                FileRole::Module { .. } | FileRole::Example { .. } => false,
            };
            if !in_manifests {
                let span = node.matchers.first().map_or(expr.span, |m| m.span());
                found.push((
                    span,
                    Construct::NodeOutsideManifests,
                    "a node definition outside a site's `manifests/` directory".to_string(),
                ));
            }
        }
        _ => {}
    }
}

/// Classes and defined types defined in a body, each reported as inside
/// the definition nearest around it.
fn nested(statements: &[Expr], outer: &str, found: &mut Vec<(Span, Construct, String)>) {
    let mut inner: Vec<(Span, &str, &String, Span)> = Vec::new();
    for statement in statements {
        statement.walk(&mut |e| match &e.kind {
            ExprKind::Class(c) => inner.push((e.span, "class", &c.name, c.name_span)),
            ExprKind::Define(d) => inner.push((e.span, "defined type", &d.name, d.name_span)),
            _ => {}
        });
    }
    let within = |a: Span, b: Span| a != b && b.start <= a.start && a.end <= b.end;
    for &(whole, kind, name, at) in &inner {
        if !inner.iter().any(|other| within(whole, other.0)) {
            found.push((at, Construct::NestedDefinition, format!("{kind} `{name}` is defined inside `{outer}`")));
        }
    }
}

/// A query that only compares the title: `title == 'x'`, `title != 'x'`,
/// joined by `and` and `or`.
fn selects_by_title(query: &Expr) -> bool {
    match &query.kind {
        ExprKind::Paren(inner) => selects_by_title(inner),
        ExprKind::Binary { op: BinaryOp::And | BinaryOp::Or, left, right } => {
            selects_by_title(left) && selects_by_title(right)
        }
        ExprKind::Binary { op: BinaryOp::Equal | BinaryOp::NotEqual, left, .. } => {
            matches!(&left.kind, ExprKind::Name(name) if name == "title")
        }
        _ => false,
    }
}
