//! Whether a capitalised word names a type: Puppet's data types, its
//! resource types, and the tree's classes, defined types, aliases and Ruby
//! types. A word naming none fails where Puppet evaluates it.

use std::collections::BTreeMap;

use super::index::Index;
use super::interp::BUILT_IN_TYPES;
use super::ruby_types::RubyType;
use crate::syntax::ast::NameText;

/// Puppet's data types and the types of its type system, lower-cased.
const DATA_TYPES: &[&str] = &[
    "any",
    "array",
    "binary",
    "boolean",
    "callable",
    "catalogentry",
    "class",
    "collection",
    "data",
    "default",
    "deferred",
    "enum",
    "error",
    "float",
    "hash",
    "init",
    "integer",
    "iterable",
    "iterator",
    "notundef",
    "numeric",
    "object",
    "optional",
    "pattern",
    "regexp",
    "resource",
    "richdata",
    "runtime",
    "scalar",
    "scalardata",
    "semver",
    "semverrange",
    "sensitive",
    "string",
    "struct",
    "timespan",
    "timestamp",
    "tuple",
    "type",
    "typealias",
    "typereference",
    "typeset",
    "undef",
    "unit",
    "uri",
    "variant",
    "node",
];

/// The data types Bolt gives plans and the functions they call, lower-cased:
/// code run by Bolt names them as Puppet's own.
const BOLT_DATA_TYPES: &[&str] = &[
    "applyresult",
    "containerresult",
    "future",
    "planresult",
    "resourceinstance",
    "result",
    "resultset",
    "target",
    "targetspec",
];

/// Resource types Puppet ships besides those it checks attributes of:
/// its own and those of the modules the agent package bundles.
const SHIPPED_RESOURCE_TYPES: &[&str] = &[
    "component",
    "whit",
    "computer",
    "interface",
    "k5login",
    "macauthorization",
    "mailalias",
    "maillist",
    "mcx",
    "router",
    "scheduled_task",
    "selboolean",
    "selmodule",
    "vlan",
    "zone",
    "exec",
];

/// Whether Puppet or a module bundled with it ships the resource type,
/// beside those whose attributes mplint checks.
pub fn is_shipped_resource_type(name: &str) -> bool {
    SHIPPED_RESOURCE_TYPES.contains(&name)
}

/// The types a tree knows.
#[derive(Clone, Copy)]
pub struct TypeNames<'m> {
    index: &'m Index<'m>,
    ruby_types: &'m BTreeMap<String, RubyType>,
}

impl<'m> TypeNames<'m> {
    pub fn new(index: &'m Index<'m>, ruby_types: &'m BTreeMap<String, RubyType>) -> Self {
        TypeNames { index, ruby_types }
    }

    /// The resource types the tree's modules write in Ruby, by name.
    pub fn ruby_types(&self) -> &'m BTreeMap<String, RubyType> {
        self.ruby_types
    }

    /// Whether a capitalised word written alone (`RedHat`) surely names no
    /// type. A qualified word (`Foo::Bar`) may name a type of a module the
    /// tree lacks, so it is never sure.
    pub fn names_no_type(&self, name: &str) -> bool {
        if name.is_qualified() {
            return false;
        }
        let lower = name.to_ascii_lowercase();
        let known = DATA_TYPES.contains(&lower.as_str())
            || BOLT_DATA_TYPES.contains(&lower.as_str())
            || BUILT_IN_TYPES.contains(&lower.as_str())
            || SHIPPED_RESOURCE_TYPES.contains(&lower.as_str())
            || lower.starts_with("nagios_")
            || self.index.types.contains_key(&lower)
            || self.index.type_aliases.keys().any(|alias| alias.eq_ignore_ascii_case(name))
            || self.ruby_types().contains_key(&lower);
        !known
    }
}
