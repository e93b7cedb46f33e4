//! Declaring classes and defined types, and running their code with
//! their parameters bound.

use rustc_hash::FxHashMap as HashMap;

use super::builtins::METAPARAMETERS;
use super::variables::surely_ran;
use super::{
    ClassState, Ctx, Given, Interpreter, PendingDefine, MAX_DECLARATION_DEPTH, MAX_DEFINE_DEPTH, MAX_DEFINE_INSTANCES,
};
use crate::model::index::{normalize_name, DefBody, Index, Loc};
use crate::model::record::*;
use crate::model::value::Value;
use crate::syntax::ast::*;

impl<'m, 'a> Interpreter<'m, 'a> {
    /// `include`, `require`, `contain`, `class { … }` and entry points.
    /// Like Puppet, a class enters the catalog (after its parents) before its
    /// code runs, so code that includes it again meanwhile does nothing.
    pub(super) fn declare_class(&mut self, name: &str, how: DeclHow, params: Option<Vec<Given>>, at: Loc, ctx: &Ctx) {
        let name = normalize_name(name);
        // `contain` and `require` order resources: the graph needs them.
        let orders = matches!(how, DeclHow::Contain | DeclHow::Require) && self.surely_runs(ctx);
        if (self.record_declarations && how != DeclHow::Entry) || orders {
            let path = self.absolute_path(ctx);
            let by = ctx.owner.clone();
            self.out.declarations.push(Declaration { class: Some(name.clone()), how, loc: at, by, path });
        }
        if !self.add_to_catalog(&name, how, at, ctx, &mut Vec::new()) {
            return;
        }
        self.evaluate_class(&name, params, at);
    }

    /// Adds a class (parents first) to the catalog; false when it was there
    /// already or cannot be declared.
    fn add_to_catalog(&mut self, name: &str, how: DeclHow, at: Loc, ctx: &Ctx, inheriting: &mut Vec<String>) -> bool {
        let path = self.absolute_path(ctx);
        if let Some(decl) = self.out.classes.get_mut(name) {
            // An entry point's own declaration is hypothetical: whoever
            // really declares the class may do it resource-like.
            // The earlier declaration's path this one can share: each kept
            // path (three exclusive branches each declaring the class meet
            // none), or else what they all have in common.
            let earlier_path = match &decl.declared_under {
                Some(paths) => paths.iter().find(|p| compatible(p, &path)).cloned(),
                None => Some(decl.path.clone()).filter(|p| compatible(p, &path)),
            };
            let excludes_earlier = earlier_path.is_none();
            if let (DeclHow::ResourceLike, true, Some(earlier_path)) = (how, decl.how != DeclHow::Entry, earlier_path) {
                let earlier = decl.loc;
                let shared = meet(&earlier_path, &path);
                let unshared = join(&earlier_path, &path).into_iter().filter(|atom| !shared.contains(atom)).collect();
                self.out.events.push(Event::DuplicateClass { class: name.to_string(), loc: at, earlier, unshared });
            } else {
                // Declared again on another path: its code runs on either.
                let resource_like = how == DeclHow::ResourceLike || decl.how == DeclHow::ResourceLike;
                if resource_like && excludes_earlier {
                    decl.values_vary = true;
                }
                let (covered_before, shared_before) = (decl.covers_path, decl.path.clone());
                decl.path = meet(&decl.path, &path);
                let known = decl.declared_under.as_ref().is_some_and(|paths| paths.contains(&path));
                if let Some(paths) = &mut decl.declared_under {
                    if !known {
                        paths.push(path.clone());
                    }
                    if paths.len() > MAX_CLASS_PATHS {
                        // A declaration on the path all share runs whenever
                        // any other does: it alone says when the class runs.
                        decl.declared_under = paths.contains(&decl.path).then(|| vec![decl.path.clone()]);
                    }
                } else if path == decl.path {
                    decl.declared_under = Some(vec![path.clone()]);
                }
                let (under, shared) = (decl.declared_under.clone(), decl.path.clone());
                let covers = if path.iter().all(|atom| shared.contains(atom)) {
                    // This declaration runs wherever the class's code does.
                    true
                } else if known && shared == shared_before {
                    covered_before
                } else {
                    under.is_some_and(|under| {
                        let under = under.into_iter().map(|p| self.without_implied(p)).collect();
                        surely_ran(under, &self.without_implied(shared), &self.choice_arity)
                    })
                };
                if let Some(decl) = self.out.classes.get_mut(name) {
                    decl.covers_path = covers && !decl.values_vary;
                }
            }
            return false;
        }
        let Some((class, def)) = self.index.find_class(name, self.standalone) else {
            let guarded = self.out.guarded(&ctx.path, true, |g| *g == Guarded::Type(name.to_string()));
            if self.index.find_define(name, self.standalone).is_none() && !guarded {
                self.out.events.push(Event::UnknownClass { name: name.to_string(), loc: at });
            }
            return false;
        };
        if let Some((parent, parent_span)) = &class.parent {
            let parent = normalize_name(parent);
            if parent != "default" && !self.out.classes.contains_key(&parent) {
                if parent == name || inheriting.contains(&parent) {
                    // Puppet recurses here until its stack overflows.
                    self.out.events.push(Event::InheritanceLoop { class: name.to_string(), loc: at });
                    return false;
                }
                inheriting.push(name.to_string());
                let parent_loc = Loc::new(def.file, *parent_span);
                let added = self.add_to_catalog(&parent, DeclHow::Inherited, parent_loc, ctx, inheriting);
                inheriting.pop();
                if !added
                    && !self.out.classes.contains_key(&parent)
                    && self.index.find_class(&parent, self.standalone).is_some()
                {
                    return false;
                }
            }
        }
        if self.may_skip(ctx) {
            self.out.may_not_run.insert(Owner::Class(name.into()));
        }
        self.out.classes.insert(
            name.to_string(),
            ClassDecl {
                how,
                loc: at,
                by: ctx.owner.clone(),
                declared_under: Some(vec![path.clone()]),
                path,
                covers_path: true,
                values_vary: false,
            },
        );
        let enclosing = self.base_of(ctx.scope);
        self.classes.insert(name.to_string(), ClassState { scope: None, enclosing, evaluated: false });
        true
    }

    /// Runs a declared class's code once: its parent's first, then its own
    /// parameters and body in a scope whose parent is the parent class's
    /// scope or else the enclosing top or node scope.
    fn evaluate_class(&mut self, name: &str, params: Option<Vec<Given>>, at: Loc) {
        let Some(state) = self.classes.get_mut(name) else { return };
        if state.evaluated {
            return;
        }
        state.evaluated = true;
        let enclosing = state.enclosing;
        let Some((class, def)) = self.index.find_class(name, self.standalone) else { return };
        if self.declaring.len() >= MAX_DECLARATION_DEPTH {
            self.out
                .events
                .push(Event::Limit { what: format!("classes declared {MAX_DECLARATION_DEPTH} deep"), loc: at });
            return;
        }
        let file = def.file;
        self.declaring.push(name.to_string());
        let mut inherited = None;
        if let Some((parent, _)) = &class.parent {
            let parent = normalize_name(parent);
            self.evaluate_class(&parent, None, at);
            inherited = self.classes.get(&parent).and_then(|s| s.scope);
        }
        let shared: ClassName = name.into();
        let given = params.unwrap_or_default();
        let how = self.out.classes.get(name).map_or(DeclHow::Include, |decl| decl.how);
        let declared = Owner::Class(shared.clone());
        let refused = self.record_parameters(name, true, def.loc(), &class.params, &given, at, declared, how);
        let scope = self.new_scope(ScopeKind::Class(shared.clone()), inherited, Some(enclosing), None);
        // Its parameters, `$title` and `$name`, bound at once.
        self.scopes[scope].vars.reserve(class.params.len() + 2);
        if let Some(state) = self.classes.get_mut(name) {
            state.scope = Some(scope);
        }
        self.bind_quietly(scope, "title", Value::Str(name.to_string()), None);
        self.bind_quietly(scope, "name", Value::Str(name.to_string()), None);
        let class_ctx = Ctx { scope, path: Vec::new(), file, owner: Owner::Class(shared), in_default: false };
        let (mut params, open_splat) = passed_values(given);
        unknown_where_refused(&mut params, &refused);
        // Metaparameters given to a resource-like declaration are variables
        // in the class's scope.
        for (name, value) in &params {
            if METAPARAMETERS.contains(&name.as_str()) && !class.params.iter().any(|p| &p.name == name) {
                self.bind_quietly(scope, name, value.clone(), None);
            }
        }
        self.bind_parameters(&class.params, params, open_splat, &class_ctx);
        self.eval_block(&class.body, &class_ctx);
        self.declaring.pop();
    }

    /// Passed values first; defaults are evaluated in the new scope, in order.
    /// With `unknown_values`, every defaulted parameter's value is unknown
    /// (data from Hiera or an unknown declarer may replace the default; a
    /// value given here is what the class gets, or Puppet fails at this
    /// resource-like declaration); so is every parameter not passed by
    /// name when a splat with unknown keys was.
    fn bind_parameters(&mut self, params: &[Parameter], passed: Vec<(String, Value)>, open_splat: bool, ctx: &Ctx) {
        // Few values are passed: a search beats a map. The last of a name
        // given twice counts, as a map built from them would keep it.
        let passed_value = |name: &str| passed.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v);
        let unknown_values = self.out.hypothetical() && matches!(ctx.owner, Owner::Class(_))
            || matches!(&ctx.owner, Owner::Define(i) if self.out.instances.get(*i).is_some_and(|d| d.entry));
        for param in params {
            // `undef` given for a parameter with a default gives the default.
            let given = passed_value(&param.name).filter(|v| !(matches!(v, Value::Undef) && param.default.is_some()));
            // Puppet's automatic parameter lookup: data for `class::param`
            // in the tree's Hiera data replaces the default, which Puppet
            // then does not evaluate (where the data applies).
            let from_data = given.is_none()
                && matches!(&ctx.owner, Owner::Class(class) if self.facts.has_data_for(&format!("{class}::{}", param.name)));
            let mut value = match given {
                Some(v) => v.clone(),
                None => match &param.default {
                    Some(default) => {
                        let reads_before = self.out.reads.len();
                        let value = self.eval(default, &Ctx { in_default: true, ..ctx.clone() });
                        if from_data {
                            self.out.reads[reads_before..].iter_mut().for_each(|read| read.default_replaced = true);
                        }
                        if self.record_values {
                            let owner_name = match &ctx.owner {
                                Owner::Class(name) => name.to_string(),
                                Owner::Define(i) => self.out.instances[*i].type_name.clone(),
                                Owner::Top | Owner::Node => String::new(),
                            };
                            let reads = self.parameters_read(default, ctx);
                            self.out.defaults.push(DefaultValue {
                                owner: ctx.owner.clone(),
                                owner_name,
                                param: param.name.clone(),
                                at: Loc::new(ctx.file, default.span),
                                value: value.clone().on_path(&ctx.path),
                                reads,
                                order: self.out.declared.len(),
                            });
                        }
                        value
                    }
                    None => Value::Unknown,
                },
            };
            let defaulted = given.is_none();
            // A resource default, override or collector may set it instead.
            let set_elsewhere = defaulted
                && matches!(&ctx.owner, Owner::Define(i)
                    if self.set_elsewhere.is_some_and(|s| s.covers(&self.out.instances[*i].type_name, &param.name)));
            if ((unknown_values || open_splat) && defaulted) || from_data || set_elsewhere {
                value = Value::Unknown;
            }
            // Only for what evaluating the type records (`Enum[$x]`).
            if let Some(t) = param.type_expr.as_ref().filter(|t| !records_nothing(t)) {
                self.eval(t, ctx);
            }
            if self.record_values {
                self.parameters.insert((ctx.scope, param.name.clone()), passed_value(&param.name).is_some());
            }
            self.bind_quietly(ctx.scope, &param.name, value, Some(Loc::new(ctx.file, param.name_span)));
        }
    }

    pub(super) fn declare_define(
        &mut self,
        type_name: &str,
        title: Option<String>,
        params: Vec<Given>,
        at: Loc,
        ctx: &Ctx,
        entry: bool,
    ) {
        let type_name = normalize_name(type_name);
        let Some((define, def)) = self.index.find_define(&type_name, self.standalone) else {
            return;
        };
        if self.out.instances.len() >= MAX_DEFINE_INSTANCES {
            if self.out.instances.len() == MAX_DEFINE_INSTANCES {
                self.out
                    .events
                    .push(Event::Limit { what: format!("{MAX_DEFINE_INSTANCES} defined-type instances"), loc: at });
                // Counted once: the limit event is not repeated.
                self.out.instances.push(DefineInstance {
                    depth: 0,
                    entry: false,
                    type_name,
                    title,
                    loc: at,
                    by: ctx.owner.clone(),
                    path: self.absolute_path(ctx),
                });
            }
            return;
        }
        let depth = match &ctx.owner {
            Owner::Define(i) => self.out.instances.get(*i).map_or(0, |d| d.depth) + 1,
            _ => 0,
        };
        // A recursion sure never to end is reported once and not followed.
        if self.instance_of_above(&ctx.owner, &type_name) {
            if let Some(event) = self.endless_recursion(&type_name, at, &ctx.owner) {
                self.out.events.push(event);
                return;
            }
        }
        if depth > MAX_DEFINE_DEPTH {
            self.out.events.push(Event::Limit {
                what: format!("defined types declaring each other {MAX_DEFINE_DEPTH} deep"),
                loc: at,
            });
            return;
        }
        let instance = self.out.instances.len();
        if self.may_skip(ctx) {
            self.out.may_not_run.insert(Owner::Define(instance));
        }
        self.out.instances.push(DefineInstance {
            depth,
            entry,
            type_name,
            title: title.clone(),
            loc: at,
            by: ctx.owner.clone(),
            path: self.absolute_path(ctx),
        });
        let mut refused = Vec::new();
        if !entry {
            let declared = Owner::Define(instance);
            let type_name = self.out.instances[instance].type_name.clone();
            let how = DeclHow::ResourceLike;
            refused = self.record_parameters(&type_name, false, def.loc(), &define.params, &params, at, declared, how);
        }
        let (mut params, open_splat) = passed_values(params);
        unknown_where_refused(&mut params, &refused);
        let title_value = title.map_or(Value::Unknown, Value::Str);
        if !params.iter().any(|(n, _)| n == "name") {
            params.push(("name".into(), title_value.clone()));
        }
        params.push(("title".into(), title_value));
        self.pending.push_back(PendingDefine {
            define,
            file: def.file,
            instance,
            enclosing: self.base_of(ctx.scope),
            params,
            open_splat,
        });
    }

    /// Defined types are evaluated after the code that declared them, in
    /// the order they were declared, as Puppet's compiler does.
    /// A virtual or exported instance runs only where a collector or
    /// `realize` brings it in: in its turn when the code of classes does,
    /// else once an instance's code does; one nothing brings in never runs.
    pub(super) fn evaluate_pending_defines(&mut self) {
        let mut held = Vec::new();
        loop {
            while let Some(pending) = self.pending.pop_front() {
                if self.out.virtual_instances.contains(&pending.instance) && !self.out.may_realize(pending.instance) {
                    held.push(pending);
                } else {
                    self.evaluate_define(pending);
                }
            }
            let (brought_in, waiting): (Vec<_>, Vec<_>) =
                held.into_iter().partition(|pending| self.out.may_realize(pending.instance));
            held = waiting;
            if brought_in.is_empty() {
                break;
            }
            for pending in brought_in {
                self.evaluate_define(pending);
            }
        }
    }

    /// Runs one instance's parameters and body in a scope of its own.
    fn evaluate_define(&mut self, pending: PendingDefine<'a>) {
        let type_name: ClassName = self.out.instances[pending.instance].type_name.as_str().into();
        let scope = self.new_scope(
            ScopeKind::Define { type_name, instance: pending.instance },
            None,
            Some(pending.enclosing),
            None,
        );
        self.scopes[scope].vars.reserve(pending.define.params.len() + 2);
        let ctx = Ctx {
            scope,
            path: Vec::new(),
            file: pending.file,
            owner: Owner::Define(pending.instance),
            in_default: false,
        };
        let mut passed = pending.params;
        // Metaparameters passed to an instance are variables in its scope.
        for (name, value) in &passed {
            let declared = || pending.define.params.iter().any(|p| &p.name == name);
            if METAPARAMETERS.contains(&name.as_str()) && !declared() {
                self.bind_quietly(scope, name, value.clone(), None);
            }
        }
        for builtin in ["title", "name"] {
            if let Some(pos) = passed.iter().position(|(n, _)| n == builtin) {
                let (_, value) = passed.remove(pos);
                self.bind_quietly(scope, builtin, value, None);
            }
        }
        self.bind_parameters(&pending.define.params, passed, pending.open_splat, &ctx);
        self.eval_branch(&pending.define.body, &ctx);
    }
}

impl Interpreter<'_, '_> {
    /// Whether `owner` is, or was declared by, an instance of `type_name`.
    fn instance_of_above(&self, owner: &Owner, type_name: &str) -> bool {
        let mut current = owner.clone();
        // Bounded: each instance is declared by an earlier one.
        for _ in 0..=self.out.instances.len() {
            let Owner::Define(i) = current else { return false };
            let Some(instance) = self.out.instances.get(i) else { return false };
            if instance.type_name == type_name {
                return true;
            }
            current = instance.by.clone();
        }
        false
    }

    /// Declaring `type_name` at `at` from `owner`, an instance of it or of
    /// a type it declared: the cycle of defined types that declare each
    /// other there, when each step is sure to repeat whenever its
    /// declarer's body runs.
    fn endless_recursion(&self, type_name: &str, at: Loc, owner: &Owner) -> Option<Event> {
        let mut cycle = vec![(type_name.to_string(), at)];
        let Owner::Define(mut current) = *owner else { return None };
        loop {
            let declarer = self.out.instances.get(current)?;
            let (_, step_at) = cycle.last()?;
            if !self.declares_unconditionally(&declarer.type_name, *step_at) {
                return None;
            }
            if declarer.type_name == type_name {
                break;
            }
            cycle.push((declarer.type_name.clone(), declarer.loc));
            let Owner::Define(by) = declarer.by else { return None };
            current = by;
        }
        cycle.reverse();
        // The outermost instance of the types of the cycle.
        while let Owner::Define(by) = self.out.instances[current].by {
            if !cycle.iter().any(|(t, _)| *t == self.out.instances[by].type_name) {
                break;
            }
            current = by;
        }
        Some(Event::EndlessRecursion { cycle, outermost: current })
    }

    /// Whether the body of defined type `define_type` declares, at `at`,
    /// exactly one instance whenever it runs: a statement of the body
    /// itself (under no condition or iteration), of a named type, titled by
    /// one string, in a body that never calls `fail` or `return`.
    fn declares_unconditionally(&self, define_type: &str, at: Loc) -> bool {
        let Some((define, def)) = self.index.find_define(define_type, self.standalone) else { return false };
        if def.file != at.file() {
            return false;
        }
        let mut stops = false;
        let mut note = |e: &Expr| match &e.kind {
            ExprKind::Call(call) if matches!(call.name.as_str(), "fail" | "return") => stops = true,
            ExprKind::MethodCall(call) if matches!(call.method.as_str(), "fail" | "return") => stops = true,
            _ => {}
        };
        for statement in &define.body.statements {
            statement.walk(&mut note);
        }
        for default in define.params.iter().filter_map(|p| p.default.as_ref()) {
            default.walk(&mut note);
        }
        if stops {
            return false;
        }
        define.body.statements.iter().any(|statement| {
            let ExprKind::Resource(resource) = &statement.kind else { return false };
            resource.form == ResourceForm::Regular
                && resource.type_name().is_some()
                && resource.bodies.iter().any(|body| {
                    body.title.span.start == at.start() && body.title.span.end == at.end() && one_string(&body.title)
                })
        })
    }

    /// Records what Puppet's check of a declaration's attributes against
    /// its definition's parameters finds: attributes that are no parameter,
    /// and parameters without default given no value (Hiera may still
    /// provide those of a class).
    #[allow(clippy::too_many_arguments)]
    fn record_parameters(
        &mut self,
        type_name: &str,
        class: bool,
        definition: Loc,
        params: &[Parameter],
        given: &[Given],
        at: Loc,
        declared: Owner,
        how: DeclHow,
    ) -> Vec<String> {
        // Borrowed: most given names are only compared.
        let mut names: Vec<(std::borrow::Cow<'_, str>, Loc)> = Vec::with_capacity(given.len());
        let mut open_splat = false;
        for (name, value, place) in given {
            if name == "*" {
                match splat_keys(value) {
                    Some(keys) => names.extend(keys.into_iter().map(|key| (key.into(), *place))),
                    None => open_splat = true,
                }
            } else {
                names.push((name.as_str().into(), *place));
            }
        }
        let unknown: Vec<(String, Loc)> = names
            .iter()
            .filter(|(name, _)| {
                name != "name" && !METAPARAMETERS.contains(&&**name) && !params.iter().any(|p| p.name == *name)
            })
            .map(|(name, place)| (name.to_string(), *place))
            .collect();
        let missing: Vec<String> = params
            .iter()
            .filter(|p| p.default.is_none() && !names.iter().any(|(name, _)| *name == p.name))
            .map(|p| p.name.clone())
            .collect();
        let mut mismatched = self.type_mismatches(definition, params, given, class);
        if !open_splat {
            let given_names: Vec<&str> = names.iter().map(|(name, _)| &**name).collect();
            mismatched.extend(self.default_mismatches(definition, params, &given_names, at));
        }
        if unknown.is_empty() && missing.is_empty() && mismatched.is_empty() {
            return Vec::new();
        }
        let refused = mismatched.iter().filter(|m| m.default.is_none()).map(|m| m.param.clone()).collect();
        self.out.events.push(Event::Parameters {
            type_name: type_name.to_string(),
            class,
            definition,
            loc: at,
            declared,
            how,
            unknown,
            missing,
            open_splat,
            mismatched,
        });
        refused
    }
}

/// What one parameter type says of the scalar values tested against it.
#[derive(Default)]
struct ScalarChecks {
    strings: HashMap<String, Option<bool>>,
    integers: HashMap<i64, Option<bool>>,
    booleans: [Option<Option<bool>>; 2],
    /// Most values checked are `undef` (an optional parameter not given).
    undef: Option<Option<bool>>,
}

impl ScalarChecks {
    fn get(&self, value: &Value) -> Option<Option<bool>> {
        match value {
            Value::Str(s) => self.strings.get(s.as_str()).copied(),
            Value::Int(i) => self.integers.get(i).copied(),
            Value::Bool(b) => self.booleans[usize::from(*b)],
            Value::Undef => self.undef,
            _ => None,
        }
    }

    fn insert(&mut self, value: &Value, result: Option<bool>) {
        match value {
            Value::Str(s) => {
                self.strings.insert(s.clone(), result);
            }
            Value::Int(i) => {
                self.integers.insert(*i, result);
            }
            Value::Bool(b) => self.booleans[usize::from(*b)] = Some(result),
            Value::Undef => self.undef = Some(result),
            _ => {}
        }
    }
}

impl crate::model::value::AliasMemo for TypeChecks {
    fn get(&self, alias: &str, value: &Value) -> Option<Option<bool>> {
        self.slot()?.aliases.get(alias)?.get(value)
    }

    fn insert(&self, alias: &str, value: &Value, result: Option<bool>) {
        let Some(mut slot) = self.slot() else { return };
        if !value.is_scalar_or_undef() {
            return;
        }
        match slot.aliases.get_mut(alias) {
            Some(checks) => checks.insert(value, result),
            None => {
                let mut checks = ScalarChecks::default();
                checks.insert(value, result);
                slot.aliases.insert(alias.into(), checks);
            }
        }
    }
}

/// What parameter types (by their place) say of the scalar values given
/// for them, shared by every compilation of a run: the same few values
/// meet the same types very often. One slot per worker thread, so that
/// threads do not wait for each other.
pub struct TypeChecks {
    slots: Vec<std::sync::Mutex<TypeCheckSlot>>,
}

#[derive(Default)]
struct TypeCheckSlot {
    scalars: HashMap<Loc, ScalarChecks>,
    /// By type alias name, for scalars checked against an alias anywhere.
    aliases: HashMap<Box<str>, ScalarChecks>,
    /// Per definition, the literal defaults its parameters' types refuse.
    refused_defaults: HashMap<Loc, std::sync::Arc<[RefusedDefault]>>,
}

impl TypeChecks {
    pub fn new() -> Self {
        let slots = (0..=rayon::current_num_threads()).map(|_| Default::default()).collect();
        TypeChecks { slots }
    }

    /// No cache at all.
    pub const NONE: &'static TypeChecks = &TypeChecks { slots: Vec::new() };

    fn slot(&self) -> Option<std::sync::MutexGuard<'_, TypeCheckSlot>> {
        let slot = rayon::current_thread_index().map_or(0, |i| i + 1);
        self.slots.get(slot % self.slots.len().max(1))?.lock().ok()
    }

    fn get(&self, at: Loc, value: &Value) -> Option<Option<bool>> {
        self.slot()?.scalars.get(&at)?.get(value)
    }

    fn insert(&self, at: Loc, value: &Value, result: Option<bool>) {
        let Some(mut slot) = self.slot() else { return };
        if value.is_scalar_or_undef() {
            slot.scalars.entry(at).or_default().insert(value, result);
        }
    }

    fn refused_defaults(&self, definition: Loc) -> Option<std::sync::Arc<[RefusedDefault]>> {
        self.slot()?.refused_defaults.get(&definition).cloned()
    }

    fn insert_refused_defaults(&self, definition: Loc, refused: std::sync::Arc<[RefusedDefault]>) {
        if let Some(mut slot) = self.slot() {
            slot.refused_defaults.insert(definition, refused);
        }
    }
}

impl Default for TypeChecks {
    fn default() -> Self {
        Self::new()
    }
}

/// A parameter whose literal default its type refuses.
pub(super) struct RefusedDefault {
    param: String,
    expected: String,
    got: String,
    default: Loc,
}

impl<'a> Interpreter<'_, 'a> {
    /// Given values that surely are not of their parameter's declared
    /// type. `undef` is one only for a defined type's parameter without a
    /// default: otherwise Puppet takes the default, or a class's value from
    /// Hiera.
    fn type_mismatches(
        &self,
        definition: Loc,
        params: &[Parameter],
        given: &[Given],
        class: bool,
    ) -> Vec<TypeMismatch> {
        let text = &self.files[definition.file()].source.text;
        let mut values: Vec<(&str, &Value, Loc)> = Vec::new();
        for (name, value, place) in given {
            match (name.as_str(), value) {
                ("*", Value::Hash(pairs)) => {
                    values.extend(pairs.iter().filter_map(|(key, value)| Some((key.as_str()?, value, *place))));
                }
                ("*", _) => {}
                _ => values.push((name, value, *place)),
            }
        }
        let mut mismatched = Vec::new();
        for (name, value, place) in values {
            let Some(param) = params.iter().find(|p| p.name == name) else { continue };
            if matches!(value, Value::Undef) && (class || param.default.is_some()) {
                continue;
            }
            let Some(type_expr) = &param.type_expr else { continue };
            let Some(written) = text.get(type_expr.span.start..type_expr.span.end) else { continue };
            // Comments in a type are not read: such a type is not judged.
            if has_comment(written) {
                continue;
            }
            if self.instance_of_type(value, written, Loc::new(definition.file(), type_expr.span)) == Some(false) {
                mismatched.push(TypeMismatch {
                    param: name.to_string(),
                    expected: written.split_whitespace().collect::<Vec<_>>().join(" "),
                    got: value.described(),
                    loc: place,
                    default: None,
                });
            }
        }
        mismatched
    }

    /// Whether a value is of the type written at `at`; for scalars, asked
    /// once per type and value in a run.
    pub(super) fn instance_of_type(&self, value: &Value, written: &str, at: Loc) -> Option<bool> {
        // Nothing is known of these whatever the type.
        if matches!(value, Value::Unknown | Value::Choice(_) | Value::Default) {
            return None;
        }
        if let Some(known) = self.type_checks.get(at, value) {
            return known;
        }
        let (index, files) = (self.index, self.files);
        let result =
            value.instance_of_remembering(written, &|name| type_alias_text(index, files, name), self.type_checks);
        self.type_checks.insert(at, value, result);
        result
    }

    /// Literal defaults (`'80'`, `undef`, …) that their parameter's type
    /// refuses, of the parameters given no value at `at`. Whether the default
    /// is really taken (Hiera may give a class's value) the rule decides.
    fn default_mismatches(
        &mut self,
        definition: Loc,
        params: &[Parameter],
        given: &[&str],
        at: Loc,
    ) -> Vec<TypeMismatch> {
        let refused = match self.type_checks.refused_defaults(definition) {
            Some(refused) => refused,
            None => {
                let refused: std::sync::Arc<[RefusedDefault]> = self.refused_defaults_of(definition, params).into();
                self.type_checks.insert_refused_defaults(definition, refused.clone());
                refused
            }
        };
        refused
            .iter()
            .filter(|r| !given.contains(&r.param.as_str()))
            .map(|r| TypeMismatch {
                param: r.param.clone(),
                expected: r.expected.clone(),
                got: r.got.clone(),
                loc: at,
                default: Some(r.default),
            })
            .collect()
    }

    /// The parameters of a definition whose literal default its type
    /// refuses: the same wherever it is declared.
    fn refused_defaults_of(&self, definition: Loc, params: &[Parameter]) -> Vec<RefusedDefault> {
        let text = &self.files[definition.file()].source.text;
        let mut refused = Vec::new();
        for param in params {
            let (Some(default), Some(type_expr)) = (&param.default, &param.type_expr) else { continue };
            let value = match &default.kind {
                ExprKind::Undef => Value::Undef,
                _ => match Self::literal(default) {
                    Some(value) => value,
                    None => continue,
                },
            };
            let Some(written) = text.get(type_expr.span.start..type_expr.span.end) else { continue };
            if has_comment(written) {
                continue;
            }
            if value.instance_of_with(written, &|name| self.type_alias_text(name)) == Some(false) {
                refused.push(RefusedDefault {
                    param: param.name.clone(),
                    expected: written.split_whitespace().collect::<Vec<_>>().join(" "),
                    got: value.described(),
                    default: Loc::new(definition.file(), default.span),
                });
            }
        }
        refused
    }

    /// Whether a parameter's declared type surely holds neither `undef` nor
    /// `false`: Puppet refuses such a value, so the parameter is truthy.
    pub(super) fn type_is_truthy(&self, param: &Parameter, file: crate::model::index::FileId) -> bool {
        let Some(type_expr) = &param.type_expr else { return false };
        let Some(written) = self.files[file].source.text.get(type_expr.span.start..type_expr.span.end) else {
            return false;
        };
        if has_comment(written) {
            return false;
        }
        let at = Loc::new(file, type_expr.span);
        [Value::Undef, Value::Bool(false)].iter().all(|falsy| self.instance_of_type(falsy, written, at) == Some(false))
    }

    /// The type a type alias of the tree stands for, as written; `None`
    /// unless exactly one alias of that name is defined.
    fn type_alias_text(&self, name: &str) -> Option<&'a str> {
        type_alias_text(self.index, self.files, name)
    }
}

/// See [`Interpreter::type_alias_text`].
fn type_alias_text<'f>(index: &Index<'_>, files: &'f [crate::syntax::ParsedFile], name: &str) -> Option<&'f str> {
    let [definition] = index.type_aliases.get(&normalize_name(name))?.as_slice() else { return None };
    let DefBody::TypeAlias(alias) = definition.body else { return None };
    if !alias.mapping.is_empty() {
        return None;
    }
    let text = &files[definition.file].source.text;
    let span = &alias.value.span;
    let written = text.get(span.start..span.end)?;
    (!has_comment(written)).then_some(written)
}

/// Whether evaluating an expression records nothing: literals, names and
/// types, and arrays, hashes and accesses of those (most parameter types).
fn records_nothing(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Name(_)
        | ExprKind::TypeRef(_)
        | ExprKind::Number(_)
        | ExprKind::Boolean(_)
        | ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Regex(_) => true,
        ExprKind::Str(s) => s.as_literal().is_some(),
        ExprKind::Array(items) => items.iter().all(records_nothing),
        ExprKind::Hash(pairs) => pairs.iter().all(|p| records_nothing(&p.key) && records_nothing(&p.value)),
        ExprKind::Access { object, index } => records_nothing(object) && index.iter().all(records_nothing),
        ExprKind::Paren(inner) => records_nothing(inner),
        _ => false,
    }
}

/// Might a type as written hold a comment?
pub(super) fn has_comment(written: &str) -> bool {
    // Byte searches: `contains("/*")` builds a substring searcher per call.
    let bytes = written.as_bytes();
    bytes.contains(&b'#') || (bytes.contains(&b'/') && bytes.windows(2).any(|pair| pair == b"/*"))
}

/// A title that is always one string: a string, or `$title`.
fn one_string(title: &Expr) -> bool {
    match &title.kind {
        ExprKind::Str(_) => true,
        ExprKind::Variable(v) => v.name.as_ref() == "title",
        _ => false,
    }
}

/// The keys a splatted hash sets, when they are all known.
fn splat_keys(value: &Value) -> Option<Vec<String>> {
    let Value::Hash(pairs) = value else { return None };
    pairs.iter().map(|(key, _)| key.as_str().map(str::to_string)).collect()
}

/// The values a declaration passes by name: known splats unfolded (a
/// name given outright wins), and whether a splat's keys are unknown.
/// A value its parameter's type refuses never reaches the body: Puppet
/// fails at the declaration. The body is still evaluated, with the value
/// unknown, so that nothing it does with the refused value is reported too.
fn unknown_where_refused(passed: &mut [(String, Value)], refused: &[String]) {
    for (name, value) in passed.iter_mut() {
        if refused.contains(name) {
            *value = Value::Unknown;
        }
    }
}

fn passed_values(given: Vec<Given>) -> (Vec<(String, Value)>, bool) {
    let mut passed: Vec<(String, Value)> = Vec::with_capacity(given.len());
    let mut splats = Vec::new();
    for (name, value, _) in given {
        if name == "*" {
            splats.push(value);
        } else {
            passed.push((name, value));
        }
    }
    let mut open_splat = false;
    for splat in splats {
        match splat {
            Value::Hash(pairs) if pairs.iter().all(|(key, _)| key.as_str().is_some()) => {
                for (key, value) in pairs {
                    let key = key.as_str().unwrap_or_default().to_string();
                    if !passed.iter().any(|(name, _)| *name == key) {
                        passed.push((key, value));
                    }
                }
            }
            _ => open_splat = true,
        }
    }
    (passed, open_splat)
}
