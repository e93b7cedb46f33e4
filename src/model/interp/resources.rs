//! Resource declarations, collector queries, and resources' identity.

use super::{Ctx, Given, Interpreter};
use crate::model::index::{normalize_name, Loc};
use crate::model::record::*;
use crate::model::value::Value;
use crate::syntax::ast::*;

impl<'m, 'a> Interpreter<'m, 'a> {
    /// In a collector query, bare words name attributes: only the values
    /// are evaluated.
    pub(super) fn eval_query(&mut self, query: &Expr, ctx: &Ctx) {
        match &query.kind {
            ExprKind::Binary { left, right, op: BinaryOp::And | BinaryOp::Or } => {
                self.eval_query(left, ctx);
                self.eval_query(right, ctx);
            }
            ExprKind::Binary { right, .. } => {
                self.eval(right, ctx);
            }
            ExprKind::Paren(inner) => self.eval_query(inner, ctx),
            _ => {
                self.eval(query, ctx);
            }
        }
    }

    pub(super) fn eval_resource(&mut self, resource: &Resource, ctx: &Ctx) -> Value {
        let type_name = match &resource.type_expr.kind {
            ExprKind::Access { object, index } => {
                // `Resource['file'] { 'x': }` names the type in the index.
                self.eval(object, ctx);
                let keys = self.eval_all(index, ctx);
                keys.first()
                    .and_then(|k| {
                        k.as_str().or(match k {
                            Value::Type(t) => Some(t.as_str()),
                            _ => None,
                        })
                    })
                    .map(normalize_name)
            }
            _ => resource.type_name(),
        };
        // A `default:` body's attributes apply to every other body of the
        // expression that does not set them itself.
        let mut defaults: Vec<Given> = Vec::new();
        for body in resource.bodies.iter().filter(|b| matches!(b.title.kind, ExprKind::Default)) {
            for attribute in &body.attributes {
                let value = self.eval(&attribute.value, ctx);
                defaults.push((attribute.name.clone(), value, Loc::new(ctx.file, attribute.name_span)));
            }
        }
        for body in &resource.bodies {
            if matches!(body.title.kind, ExprKind::Default) {
                continue;
            }
            let title = self.eval(&body.title, ctx);
            let mut given: Vec<Given> = Vec::with_capacity(body.attributes.len() + defaults.len());
            for attribute in &body.attributes {
                let value = self.eval(&attribute.value, ctx);
                given.push((attribute.name.clone(), value, Loc::new(ctx.file, attribute.name_span)));
            }
            for default in &defaults {
                if default.0 == "*" || !given.iter().any(|(name, ..)| *name == default.0) {
                    given.push(default.clone());
                }
            }
            let Some(type_name) = &type_name else {
                self.out.open_types.insert("*".to_string());
                continue;
            };
            let titles = titles(&title);
            let body_loc = Loc::new(ctx.file, body.title.span);
            if titles.iter().any(Option::is_none) || !identity_known(type_name, &given) {
                self.out.open_types.insert(type_name.clone());
            }
            if resource.form == ResourceForm::Virtual {
                self.record_virtual_references(type_name, &titles, &body.attributes, &given, ctx);
            }
            if resource.form == ResourceForm::Regular {
                let value_locs = body.attributes.iter().map(|a| Loc::new(ctx.file, a.value.span));
                let value_locs: Vec<Loc> =
                    value_locs.chain(given[body.attributes.len()..].iter().map(|g| g.2)).collect();
                for ((name, value, _), at) in given.iter().zip(value_locs) {
                    let Some(metaparam) = RELATIONSHIP_METAPARAMS.iter().find(|m| **m == name.as_str()) else {
                        continue;
                    };
                    let value = value.clone().on_path(&ctx.path);
                    self.record_references(&value, at, RefVia::Metaparam(metaparam), None, ctx);
                    if !self.surely_runs(ctx) {
                        continue;
                    }
                    let Some(targets) = referenced_resources(&value, true) else { continue };
                    for title in titles.iter().flatten() {
                        let this = (type_name.clone(), title.clone());
                        for target in &targets {
                            let (before, after) = match *metaparam {
                                "require" | "subscribe" => (target.clone(), this.clone()),
                                _ => (this.clone(), target.clone()),
                            };
                            self.record_relationship(before, after, at, metaparam, ctx);
                        }
                    }
                }
            }
            if self.record_values || self.constraints.iter().any(|c| c.records_type(type_name)) {
                let reads: Vec<(usize, ParamRead)> = if self.record_values {
                    body.attributes
                        .iter()
                        .enumerate()
                        .flat_map(|(i, a)| self.parameters_read(&a.value, ctx).into_iter().map(move |r| (i, r)))
                        .collect()
                } else {
                    Vec::new()
                };
                let values: Vec<_> = body
                    .attributes
                    .iter()
                    .zip(&given)
                    .map(|(a, (name, value, _))| {
                        (name.clone(), Loc::new(ctx.file, a.value.span), value.clone().on_path(&ctx.path))
                    })
                    .collect();
                for title in &titles {
                    self.out.declared.push(Declared {
                        type_name: type_name.clone(),
                        title: title.clone(),
                        loc: body_loc,
                        attributes: values.clone(),
                        owner: ctx.owner.clone(),
                        exported: resource.form == ResourceForm::Exported,
                        reads: reads.clone(),
                    });
                }
            }
            if type_name == "class" {
                for title in titles.into_iter().flatten() {
                    self.declare_class(&title, DeclHow::ResourceLike, Some(given.clone()), body_loc, ctx);
                }
                continue;
            }
            let is_define = self.index.find_define(type_name, self.standalone).is_some();
            let last = titles.len().saturating_sub(1);
            for (i, title) in titles.into_iter().enumerate() {
                let recorded = title.as_ref().map(|title| {
                    let key = self
                        .identifying_attribute(type_name, is_define)
                        .and_then(|namevar| uniqueness_key(type_name, namevar, title, &given));
                    self.out.resources.push(ResourceDecl {
                        type_name: type_name.clone(),
                        title: title.clone(),
                        key,
                        aliases: known_aliases(&given).unwrap_or_default(),
                        loc: body_loc,
                        owner: ctx.owner.clone(),
                        path: ctx.path.clone(),
                        instance: None,
                        attributes: set_names(&given),
                        applied: resource.form == ResourceForm::Regular,
                    });
                    self.out.resources.len() - 1
                });
                if is_define {
                    let before = self.out.instances.len();
                    // The last title takes the attributes; the others copy them.
                    let params = if i == last { std::mem::take(&mut given) } else { given.clone() };
                    self.declare_define(type_name, title, params, body_loc, ctx, false);
                    if let (Some(record), true) = (recorded, self.out.instances.len() > before) {
                        self.out.resources[record].instance = Some(before);
                    }
                    // A virtual or exported instance runs only if collected.
                    if resource.form != ResourceForm::Regular && self.out.instances.len() > before {
                        self.out.may_not_run.insert(Owner::Define(before));
                        self.out.virtual_instances.insert(before);
                    }
                }
            }
        }
        Value::Unknown
    }

    /// Records the resources a relationship names, when all of them are known.
    /// `of_virtual`: the virtual resource (type, titles) whose metaparameter
    /// names them.
    pub(super) fn record_references(
        &mut self,
        value: &Value,
        at: Loc,
        via: RefVia,
        of_virtual: Option<(String, Vec<String>)>,
        ctx: &Ctx,
    ) {
        // Metaparameters take a reference written as a string too.
        let strings = matches!(via, RefVia::Metaparam(_));
        let Some(references) = referenced_resources(value, strings) else { return };
        for (type_name, title) in references {
            let by = ctx.owner.clone();
            let of_virtual = of_virtual.clone();
            let path = ctx.path.clone();
            self.out.references.push(ResourceRef { type_name, title, loc: at, by, path, via, of_virtual });
        }
    }

    /// A virtual resource's relationship metaparameters: the resources they
    /// name must be in the catalog once it is realized.
    fn record_virtual_references(
        &mut self,
        type_name: &str,
        titles: &[Option<String>],
        attributes: &[Attribute],
        given: &[Given],
        ctx: &Ctx,
    ) {
        let Some(titles) = titles.iter().cloned().collect::<Option<Vec<String>>>() else { return };
        // The values written in the body (resource defaults come after them).
        for (attribute, (name, value, _)) in attributes.iter().zip(given) {
            let Some(metaparam) = RELATIONSHIP_METAPARAMS.iter().find(|m| **m == name.as_str()) else { continue };
            let at = Loc::new(ctx.file, attribute.value.span);
            let value = value.clone().on_path(&ctx.path);
            let of_virtual = Some((type_name.to_string(), titles.clone()));
            self.record_references(&value, at, RefVia::Metaparam(metaparam), of_virtual, ctx);
        }
    }

    /// A resource default's relationship metaparameter (`Service { require
    /// => Package['x'] }`): the resources it names, for the resources of
    /// the type that the same code declares after it. Not in a lambda,
    /// whose defaults stay in it.
    pub(super) fn record_default_references(
        &mut self,
        type_name: &str,
        attribute: &Attribute,
        value: Value,
        ctx: &Ctx,
    ) {
        let Some(metaparam) = RELATIONSHIP_METAPARAMS.iter().find(|m| **m == attribute.name.as_str()) else { return };
        if matches!(self.scopes[ctx.scope].kind, ScopeKind::Lambda) {
            return;
        }
        let Some(targets) = referenced_resources(&value.on_path(&ctx.path), true) else { return };
        self.out.default_references.push(DefaultReference {
            type_name: type_name.to_string(),
            metaparam,
            targets,
            loc: Loc::new(ctx.file, attribute.value.span),
            by: ctx.owner.clone(),
            path: ctx.path.clone(),
            resources_before: self.out.resources.len(),
        });
    }

    /// Whether the code `ctx` runs surely runs in this compilation: no
    /// condition on its path or on its owner's.
    pub(super) fn surely_runs(&self, ctx: &Ctx) -> bool {
        ctx.path.is_empty()
            && !self.may_skip(ctx)
            && match &ctx.owner {
                Owner::Top | Owner::Node => true,
                Owner::Class(name) => self.out.classes.get(&**name).is_none_or(|c| c.path.is_empty()),
                Owner::Define(i) => self.out.instances.get(*i).is_none_or(|d| d.path.is_empty()),
            }
    }

    /// Whether code may not run whatever its path says: in a lambda (its
    /// iteration may be empty), or in code that may not run.
    pub(super) fn may_skip(&self, ctx: &Ctx) -> bool {
        matches!(self.scopes[ctx.scope].kind, ScopeKind::Lambda) || self.out.may_not_run.contains(&ctx.owner)
    }

    /// Records that `before` is applied before `after`, as code at `at`
    /// states it.
    pub(super) fn record_relationship(
        &mut self,
        before: (String, String),
        after: (String, String),
        at: Loc,
        via: &'static str,
        ctx: &Ctx,
    ) {
        let (by, path) = (ctx.owner.clone(), ctx.path.clone());
        self.out.relationships.push(Relationship { before, after, loc: at, via, by, path });
    }

    /// `Type['title'] { … }`: recorded per title for the rules that judge
    /// overrides; nothing is known of the resource here.
    pub(super) fn eval_override(&mut self, over: &ResourceDefaults, ctx: &Ctx) -> Value {
        let target = match &over.type_expr.kind {
            ExprKind::Access { object, index } => match &object.kind {
                ExprKind::Name(n) | ExprKind::TypeRef(n) => {
                    let titles: Vec<Option<String>> = self.eval_all(index, ctx).iter().flat_map(titles).collect();
                    Some((normalize_name(n), titles))
                }
                _ => {
                    self.eval(&over.type_expr, ctx);
                    None
                }
            },
            _ => {
                self.eval(&over.type_expr, ctx);
                None
            }
        };
        for attribute in &over.attributes {
            self.eval(&attribute.value, ctx);
        }
        let Some((type_name, titles)) = target else { return Value::Unknown };
        let at = Loc::new(ctx.file, over.type_expr.span);
        for title in titles.iter().flatten() {
            let (type_name, title, by) = (type_name.clone(), title.clone(), ctx.owner.clone());
            self.out.references.push(ResourceRef {
                type_name,
                title,
                loc: at,
                by,
                path: ctx.path.clone(),
                via: RefVia::Override,
                of_virtual: None,
            });
        }
        let attributes: Vec<(String, Loc)> =
            over.attributes.iter().map(|a| (a.name.clone(), Loc::new(ctx.file, a.name_span))).collect();
        for title in titles.into_iter().flatten() {
            self.out.overrides.push(ResourceOverride {
                type_name: type_name.clone(),
                title,
                attributes: attributes.clone(),
                loc: Loc::new(ctx.file, over.type_expr.span),
                owner: ctx.owner.clone(),
                path: ctx.path.clone(),
            });
        }
        Value::Unknown
    }
}

/// The metaparameters that make relationships.
pub const RELATIONSHIP_METAPARAMS: [&str; 4] = ["require", "before", "notify", "subscribe"];

/// The names `alias` gives a declaration: known strings, or none.
fn known_aliases(given: &[Given]) -> Option<Vec<String>> {
    given.iter().find(|(name, ..)| name == "alias").map_or(Some(Vec::new()), |(_, value, _)| alias_names(value))
}

/// The names an `alias` value gives, when they are known.
fn alias_names(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Undef => Some(Vec::new()),
        Value::Str(alias) => Some(vec![alias.clone()]),
        Value::Array(items) => items.iter().map(|item| item.as_str().map(str::to_string)).collect(),
        _ => None,
    }
}

/// Whether a declaration's attributes leave its identity beside its title
/// known: aliases known, a namevar set to a known value, no splat that could
/// set either.
fn identity_known(type_name: &str, given: &[Given]) -> bool {
    let namevar = namevar(type_name);
    given.iter().all(|(name, value, _)| match name.as_str() {
        "alias" => alias_names(value).is_some(),
        "*" => matches!(value, Value::Hash(pairs) if pairs.iter().all(|(key, _)| key.as_str().is_some_and(|k| k != "alias" && k != namevar))),
        _ if name == namevar => value.to_text().is_some(),
        _ => true,
    })
}

/// The resources a relationship's value names: `Type['title']`, arrays of
/// them, and strings of the form `Type[title]`. `None` when some part of
/// the value is unknown.
pub(super) fn referenced_resources(value: &Value, strings: bool) -> Option<Vec<(String, String)>> {
    match value {
        Value::Undef => Some(Vec::new()),
        Value::Array(items) => {
            let mut all = Vec::new();
            for item in items {
                all.extend(referenced_resources(item, strings)?);
            }
            Some(all)
        }
        Value::Type(reference) => {
            let (type_name, rest) = reference.split_once('[')?;
            let mut inner = rest.strip_suffix(']')?;
            let mut titles = Vec::new();
            // `'a', 'b'`: quoted titles, as references print them.
            loop {
                let quoted = inner.strip_prefix('\'')?;
                let end = quoted.find('\'')?;
                titles.push((normalize_name(type_name), quoted[..end].to_string()));
                inner = &quoted[end + 1..];
                if inner.is_empty() {
                    break;
                }
                inner = inner.strip_prefix(", ")?;
            }
            Some(titles)
        }
        Value::Str(text) if strings => {
            let (type_name, rest) = text.split_once('[')?;
            let title = rest.strip_suffix(']')?;
            let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
            if !type_name.starts_with(|c: char| c.is_ascii_uppercase()) || !type_name.chars().all(plain) {
                return None;
            }
            if title.is_empty() || title.contains(['\'', '"', '[', ']', ',']) {
                return None;
            }
            Some(vec![(normalize_name(type_name), title.to_string())])
        }
        _ => None,
    }
}

/// The names of the attributes a declaration sets: a splat's keys when
/// they are known, else `*`.
fn set_names(given: &[Given]) -> Vec<String> {
    let mut names = Vec::new();
    for (name, value, _) in given {
        match (name.as_str(), value) {
            ("*", Value::Hash(pairs)) if pairs.iter().all(|(key, _)| key.as_str().is_some()) => {
                names.extend(pairs.iter().filter_map(|(key, _)| key.as_str().map(str::to_string)));
            }
            _ => names.push(name.clone()),
        }
    }
    names
}

/// The titles a title expression names; `None` for an unknown one.
fn titles(value: &Value) -> Vec<Option<String>> {
    match value {
        Value::Array(items) => items.iter().flat_map(titles).collect(),
        Value::Unknown => vec![None],
        // A `default:` body sets defaults for the other bodies; Puppet
        // declares nothing titled `undef` or `''` (it fails).
        Value::Default | Value::Undef => Vec::new(),
        Value::Str(title) if title.is_empty() => Vec::new(),
        other => vec![other.to_text()],
    }
}

impl<'m> Interpreter<'m, '_> {
    /// The one attribute whose value identifies a resource of the type
    /// beside its title, where that is certain: Puppet's own types, defined
    /// types (`name`), and Ruby types of the tree with a single namevar. A
    /// type of a module outside the tree may have several (`rvm_gem` is
    /// keyed by `name` and `ruby_version`): only its titles identify it.
    fn identifying_attribute(&self, type_name: &str, is_define: bool) -> Option<&'m str> {
        // Non-isomorphic types are unique by title alone (Puppet 7.23: two
        // execs with one command compile). sshkey is keyed by name and key
        // type.
        if matches!(type_name, "exec" | "sshkey") {
            return None;
        }
        let shipped = || {
            super::BUILT_IN_TYPES.contains(&type_name)
                || crate::model::type_names::is_shipped_resource_type(type_name)
                || type_name.starts_with("nagios_")
        };
        if is_define || shipped() {
            return Some(namevar(type_name));
        }
        let ruby_types: &'m _ = self.type_names?.ruby_types();
        ruby_types.get(type_name)?.namevar.as_deref()
    }
}

/// A resource's identity beside its title: the value of its namevar.
/// Files ignore trailing slashes; packages are unique per provider.
fn uniqueness_key(type_name: &str, namevar: &str, title: &str, attributes: &[Given]) -> Option<String> {
    let mut key = match attributes.iter().find(|(n, ..)| n == namevar) {
        // Given as `undef`, it is not given: Puppet takes the title.
        Some((_, Value::Undef, _)) | None => title.to_string(),
        // Set to something unknown: the resource's identity is unknown.
        Some((_, value, _)) => value.to_text()?,
    };
    if type_name == "file" && key.len() > 1 {
        key = key.trim_end_matches('/').to_string();
    }
    if type_name == "package" {
        let provider =
            attributes.iter().find(|(n, ..)| n == "provider").map(|(_, v, _)| v.to_text().unwrap_or_default());
        key = format!("{key}\u{0}{}", provider.unwrap_or_default());
    }
    Some(key)
}

/// The attribute that identifies a resource beside its title.
pub fn namevar(type_name: &str) -> &'static str {
    match type_name {
        "file" => "path",
        _ => "name",
    }
}
