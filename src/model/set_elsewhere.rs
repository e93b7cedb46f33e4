//! The types whose attributes code other than their declarations may set.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::syntax::ast::{Attribute, Expr, ExprKind, NameText};
use crate::syntax::ParsedFile;

/// Types whose attributes code other than their declarations may set:
/// resource defaults (`Mymod::Thing { x => 1 }`), overrides
/// (`Mymod::Thing['t'] { x => 1 }`) and collectors with attributes.
#[derive(Default)]
pub struct SetElsewhere {
    /// The attributes set, by type; `*` where a splat may set any.
    types: FxHashMap<String, FxHashSet<String>>,
    /// Some such statement names its type by an expression: any type.
    any: bool,
}

/// Sorted, whatever the order of the hash maps: the result cache keys on it.
impl std::fmt::Debug for SetElsewhere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let types: std::collections::BTreeMap<&String, std::collections::BTreeSet<&String>> =
            self.types.iter().map(|(name, set)| (name, set.iter().collect())).collect();
        f.debug_struct("SetElsewhere").field("types", &types).field("any", &self.any).finish()
    }
}

impl SetElsewhere {
    pub fn scan(files: &[ParsedFile]) -> SetElsewhere {
        let mut found = SetElsewhere::default();
        for file in files {
            let Some(manifest) = &file.manifest else { continue };
            for statement in &manifest.statements {
                statement.walk(&mut |e: &Expr| match &e.kind {
                    ExprKind::ResourceDefaults(d) | ExprKind::ResourceOverride(d) => {
                        found.note(&d.type_expr, &d.attributes)
                    }
                    ExprKind::Collector(c) if !c.overrides.is_empty() => found.note(&c.type_expr, &c.overrides),
                    _ => {}
                });
            }
        }
        found
    }

    fn note(&mut self, type_expr: &Expr, attributes: &[Attribute]) {
        match &type_expr.kind {
            ExprKind::Name(n) | ExprKind::TypeRef(n) if n.eq_ignore_ascii_case("resource") => self.any = true,
            ExprKind::Name(n) | ExprKind::TypeRef(n) => {
                let set = self.types.entry(n.without_anchor().to_ascii_lowercase()).or_default();
                set.extend(attributes.iter().map(|a| a.name.clone()));
            }
            ExprKind::Access { object, .. } => self.note(object, attributes),
            _ => self.any = true,
        }
    }

    /// Whether an attribute of the type (lower case) may be set elsewhere.
    pub fn covers(&self, type_name: &str, attribute: &str) -> bool {
        self.any || self.types.get(type_name).is_some_and(|set| set.contains("*") || set.contains(attribute))
    }
}

#[cfg(test)]
mod tests {
    use super::SetElsewhere;
    use crate::syntax::parse_file;

    #[test]
    fn shows_types_and_attributes_sorted_whatever_their_order() {
        let files = |order: [&str; 2]| {
            order.map(|text| parse_file("x.pp", text.as_bytes().to_vec())).into_iter().collect::<Vec<_>>()
        };
        let a = "Zeta::Thing { b => 1, a => 2 }";
        let b = "Alpha::Thing <| |> { d => 3, c => 4 }";
        let one = SetElsewhere::scan(&files([a, b]));
        let other = SetElsewhere::scan(&files([b, a]));
        let shown = format!("{one:?}");
        assert_eq!(shown, format!("{other:?}"));
        assert_eq!(
            shown,
            r#"SetElsewhere { types: {"alpha::thing": {"c", "d"}, "zeta::thing": {"a", "b"}}, any: false }"#
        );
        assert!(one.covers("zeta::thing", "b") && !one.covers("zeta::thing", "c"));
    }
}
