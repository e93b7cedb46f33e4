//! The types whose attributes code other than their declarations may set.

use std::collections::BTreeSet;

use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::ParsedFile;

/// Types whose attributes code other than their declarations may set:
/// resource defaults (`Mymod::Thing { x => 1 }`), overrides
/// (`Mymod::Thing['t'] { x => 1 }`) and collectors with attributes.
#[derive(Debug, Default)]
pub struct SetElsewhere {
    types: BTreeSet<String>,
    /// Some such statement names its type by an expression: any type.
    any: bool,
}

impl SetElsewhere {
    pub fn scan(files: &[ParsedFile]) -> SetElsewhere {
        let mut found = SetElsewhere::default();
        for file in files {
            let Some(manifest) = &file.manifest else { continue };
            for statement in &manifest.statements {
                statement.walk(&mut |e: &Expr| match &e.kind {
                    ExprKind::ResourceDefaults(d) | ExprKind::ResourceOverride(d) => found.note(&d.type_expr),
                    ExprKind::Collector(c) if !c.overrides.is_empty() => found.note(&c.type_expr),
                    _ => {}
                });
            }
        }
        found
    }

    fn note(&mut self, type_expr: &Expr) {
        match &type_expr.kind {
            ExprKind::Name(n) | ExprKind::TypeRef(n) if n.eq_ignore_ascii_case("resource") => self.any = true,
            ExprKind::Name(n) | ExprKind::TypeRef(n) => {
                self.types.insert(n.trim_start_matches("::").to_ascii_lowercase());
            }
            ExprKind::Access { object, .. } => self.note(object),
            _ => self.any = true,
        }
    }

    /// Whether attributes of the type (lower case) may be set elsewhere.
    pub fn covers(&self, type_name: &str) -> bool {
        self.any || self.types.contains(type_name)
    }
}
