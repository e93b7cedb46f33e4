//! The abstract interpreter: evaluates one compilation the way Puppet's
//! compiler does — top scope, node scope, class scopes fixed at first
//! declaration, inheritance, lazy defined types — over abstract values, and
//! records how every lookup and declaration resolved.
//!
//! A condition on an unknown value runs every branch, each under its own
//! path condition. Recursion follows the syntax tree only (bounded by the
//! parser's nesting limit); declarations are bounded by explicit limits.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::FxHashMap as HashMap;

use super::facts::{Facts, BUILT_IN_VARIABLES};
use super::index::{normalize_name, FileId, Index, Loc};
use super::record::*;
use super::value::{self, Value};
use crate::syntax::ast::*;
use crate::syntax::ParsedFile;

/// Most defined-type instances one compilation evaluates.
pub const MAX_DEFINE_INSTANCES: usize = 10_000;
/// Deepest chain of defined-type instances declaring instances.
pub const MAX_DEFINE_DEPTH: u32 = 100;
/// Attributes every resource type accepts.
pub const METAPARAMETERS: &[&str] = &[
    "alias",
    "audit",
    "before",
    "consume",
    "export",
    "loglevel",
    "noop",
    "notify",
    "require",
    "schedule",
    "stage",
    "subscribe",
    "tag",
];

/// Built-in resource types, for `defined('file')` and `defined(File)`.
const BUILT_IN_TYPES: &[&str] = &[
    "augeas",
    "cron",
    "exec",
    "file",
    "filebucket",
    "group",
    "host",
    "mount",
    "notify",
    "package",
    "resources",
    "schedule",
    "service",
    "ssh_authorized_key",
    "sshkey",
    "stage",
    "tidy",
    "user",
    "yumrepo",
    "zfs",
    "zpool",
];

/// Puppet's own functions (Puppet 7), which need no definition in the tree.
/// Functions that return their first argument that is not undef (stdlib's
/// `pick`, `pick_default`): a variable passed to them may be unset on purpose.
const FALLBACK_FUNCTIONS: &[&str] = &["pick", "pick_default"];

pub const BUILT_IN_FUNCTIONS: &[&str] = &[
    "abs",
    "alert",
    "all",
    "annotate",
    "any",
    "assert_type",
    "binary_file",
    "break",
    "call",
    "camelcase",
    "capitalize",
    "ceiling",
    "chomp",
    "chop",
    "compare",
    "contain",
    "convert_to",
    "create_resources",
    "crit",
    "debug",
    "defined",
    "dig",
    "digest",
    "downcase",
    "each",
    "emerg",
    "empty",
    "epp",
    "err",
    "eyaml_lookup_key",
    "fail",
    "file",
    "filter",
    "find_file",
    "find_template",
    "flatten",
    "floor",
    "fqdn_rand",
    "generate",
    "get",
    "getvar",
    "group_by",
    "hiera",
    "hiera_array",
    "hiera_hash",
    "hiera_include",
    "hocon_data",
    "import",
    "include",
    "index",
    "info",
    "inline_epp",
    "inline_template",
    "join",
    "json_data",
    "keys",
    "length",
    "lest",
    "lookup",
    "lstrip",
    "map",
    "match",
    "max",
    "md5",
    "min",
    "module_directory",
    "new",
    "next",
    "notice",
    "partition",
    "realize",
    "reduce",
    "regsubst",
    "require",
    "return",
    "reverse_each",
    "round",
    "rstrip",
    "scanf",
    "sha1",
    "sha256",
    "shellquote",
    "size",
    "slice",
    "sort",
    "split",
    "sprintf",
    "step",
    "strftime",
    "strip",
    "tag",
    "tagged",
    "template",
    "then",
    "tree_each",
    "type",
    "unique",
    "unwrap",
    "upcase",
    "values",
    "versioncmp",
    "warning",
    "with",
    "yaml_data",
];

/// Deepest chain of classes declaring classes (inheritance included).
pub const MAX_DECLARATION_DEPTH: usize = 200;

struct Binding {
    value: Value,
    loc: Option<Loc>,
    path: PathCond,
}

struct Scope {
    kind: ScopeKind,
    /// The parent class's scope, for a class that inherits.
    inherited: Option<ScopeId>,
    /// Top or node scope where the class or define was first declared.
    enclosing: Option<ScopeId>,
    /// For a lambda: the scope it was written in.
    lexical: Option<ScopeId>,
    vars: HashMap<String, Vec<Binding>>,
}

struct ClassState {
    /// Set once the class's code runs.
    scope: Option<ScopeId>,
    /// Top or node scope of its first declaration.
    enclosing: ScopeId,
    evaluated: bool,
}

struct PendingDefine<'a> {
    define: &'a DefineDef,
    file: FileId,
    instance: usize,
    enclosing: ScopeId,
    params: Vec<(String, Value)>,
}

/// Whether evaluation goes on after alternatives of which one runs: only
/// if at least one of them does not fail.
struct ArmsDeath {
    before: bool,
    all_dead: bool,
}

impl ArmsDeath {
    fn new(interp: &mut Interpreter<'_, '_>) -> Self {
        ArmsDeath { before: std::mem::replace(&mut interp.dead, false), all_dead: true }
    }

    fn arm_done(&mut self, interp: &mut Interpreter<'_, '_>) {
        self.all_dead &= std::mem::replace(&mut interp.dead, false);
    }

    fn finish(self, interp: &mut Interpreter<'_, '_>) {
        interp.dead = self.before || self.all_dead;
    }
}

#[derive(Clone)]
struct Ctx {
    scope: ScopeId,
    path: PathCond,
    file: FileId,
    owner: Owner,
    /// Evaluating a parameter's default value.
    in_default: bool,
}

pub struct Interpreter<'m, 'a> {
    index: &'m Index<'a>,
    files: &'a [ParsedFile],
    /// Choice points by the condition they test, so that two tests of the
    /// same condition in one scope take the same branch.
    choice_keys: HashMap<String, u32>,
    /// How many branches each choice point has.
    choice_arity: HashMap<u32, u16>,
    /// Subjects of `==` tests by key, and their literals by subject.
    subjects: HashMap<String, u32>,
    literals: HashMap<(u32, String), u32>,
    literal_counts: HashMap<u32, u32>,
    /// Atoms a `case` option's branch implies (its literal equal, earlier
    /// literals unequal), so that they can be dropped where it is present.
    implied: HashMap<(u32, u16), PathCond>,
    /// What each `defined(…)` call evaluated tests, by the call's place.
    defined_targets: HashMap<(FileId, usize), Guarded>,
    facts: &'m Facts,
    standalone: Option<FileId>,
    scopes: Vec<Scope>,
    classes: HashMap<String, ClassState>,
    declaring: Vec<String>,
    pending: VecDeque<PendingDefine<'a>>,
    choices: u32,
    top: ScopeId,
    /// The current path has called `fail()`: nothing after it runs.
    dead: bool,
    /// The site's own functions that declare classes.
    include_functions: Option<&'m BTreeMap<String, crate::config::IncludeFunction>>,
    out: Compilation,
}

/// The condition a test is about, without `!` and parentheses, and whether
/// it was negated.
fn strip_negation(expr: &Expr) -> (&Expr, bool) {
    match &expr.kind {
        ExprKind::Paren(inner) => strip_negation(inner),
        ExprKind::Unary { op: UnaryOp::Not, operand } => {
            let (inner, negated) = strip_negation(operand);
            (inner, !negated)
        }
        _ => (expr, false),
    }
}

fn loc(file: FileId, expr: &Expr) -> Loc {
    Loc::new(file, expr.span)
}

impl<'m, 'a> Interpreter<'m, 'a> {
    pub fn new(
        index: &'m Index<'a>,
        files: &'a [ParsedFile],
        facts: &'m Facts,
        entry: Entry,
        node_in_view: bool,
    ) -> Self {
        let standalone = match &entry {
            Entry::Node { site, .. } | Entry::TopLevel { site } | Entry::Unreached { site: Some(site), .. } => {
                index.sites[*site].standalone
            }
            Entry::Unreached { site: None, .. } => None,
        };
        let mut interp = Interpreter {
            index,
            files,
            choice_keys: HashMap::default(),
            choice_arity: HashMap::default(),
            subjects: HashMap::default(),
            literals: HashMap::default(),
            literal_counts: HashMap::default(),
            implied: HashMap::default(),
            defined_targets: HashMap::default(),
            facts,
            standalone,
            scopes: Vec::new(),
            classes: HashMap::default(),
            declaring: Vec::new(),
            pending: VecDeque::new(),
            choices: 0,
            top: 0,
            dead: false,
            include_functions: None,
            out: Compilation {
                entry,
                node_in_view,
                scopes: Vec::new(),
                reads: Vec::new(),
                classes: BTreeMap::new(),
                instances: Vec::new(),
                resources: Vec::new(),
                events: Vec::new(),
                guards: Vec::new(),
                labels: std::collections::HashMap::new(),
                choice_subjects: std::collections::HashMap::new(),
            },
        };
        interp.top = interp.new_scope(ScopeKind::Top, None, None, None);
        interp
    }

    /// Knows the site's own functions that declare classes.
    pub fn with_include_functions(mut self, functions: &'m BTreeMap<String, crate::config::IncludeFunction>) -> Self {
        self.include_functions = Some(functions);
        self
    }

    /// Runs the compilation its entry describes and returns the record.
    pub fn run(mut self) -> Compilation {
        let top_ctx = Ctx { scope: self.top, path: Vec::new(), file: 0, owner: Owner::Top, in_default: false };
        let site = match &self.out.entry {
            Entry::Node { site, .. } | Entry::TopLevel { site } | Entry::Unreached { site: Some(site), .. } => {
                Some(&self.index.sites[*site])
            }
            Entry::Unreached { site: None, .. } => None,
        };
        if let Some(site) = site {
            for (file, statement) in &site.top_level {
                let ctx = Ctx { file: *file, ..top_ctx.clone() };
                self.eval(statement, &ctx);
                if self.dead {
                    break;
                }
            }
        }
        match self.out.entry.clone() {
            Entry::Node { site, node } => {
                let entry = self.index.sites[site].nodes[node];
                let scope = self.new_scope(ScopeKind::Node, None, Some(self.top), None);
                let ctx = Ctx { scope, path: Vec::new(), file: entry.file, owner: Owner::Node, in_default: false };
                self.eval_block(&entry.node.body, &ctx);
            }
            Entry::TopLevel { .. } => {}
            Entry::Unreached { name, .. } => {
                if let Some(def) = self.index.find_type(&name, self.standalone) {
                    let def_loc = def.loc();
                    let ctx = Ctx { file: def.file, ..top_ctx.clone() };
                    if self.index.find_define(&name, self.standalone).is_some() {
                        self.declare_define(&name, None, Vec::new(), def_loc, &ctx);
                        if let Some(instance) = self.out.instances.last_mut() {
                            instance.entry = true;
                        }
                    } else {
                        self.declare_class(&name, DeclHow::Entry, None, def_loc, &ctx);
                    }
                }
            }
        }
        self.evaluate_pending_defines();
        self.finish_reads();
        self.out.scopes = self.scopes.iter().map(|s| s.kind.clone()).collect();
        self.out
    }

    fn new_scope(
        &mut self,
        kind: ScopeKind,
        inherited: Option<ScopeId>,
        enclosing: Option<ScopeId>,
        lexical: Option<ScopeId>,
    ) -> ScopeId {
        self.scopes.push(Scope { kind, inherited, enclosing, lexical, vars: HashMap::default() });
        self.scopes.len() - 1
    }

    /// Top or node scope that a class or define declared from `scope` gets
    /// as its enclosing scope.
    fn base_of(&self, mut scope: ScopeId) -> ScopeId {
        for _ in 0..self.scopes.len() + 1 {
            let s = &self.scopes[scope];
            match s.kind {
                ScopeKind::Top | ScopeKind::Node => return scope,
                ScopeKind::Lambda => scope = s.lexical.unwrap_or(self.top),
                _ => scope = s.enclosing.unwrap_or(self.top),
            }
        }
        self.top
    }

    fn absolute_path(&self, ctx: &Ctx) -> PathCond {
        join(&self.out.owner_path(&ctx.owner), &ctx.path)
    }

    // ------------------------------------------------------------ variables

    fn bind(&mut self, ctx: &Ctx, name: &str, value: Value, at: Option<Loc>) {
        let bindings = self.scopes[ctx.scope].vars.entry(name.to_string()).or_default();
        let earlier: Vec<&Binding> = bindings.iter().filter(|b| compatible(&b.path, &ctx.path)).collect();
        if !earlier.is_empty() {
            // Reported only when some earlier assignment surely ran first.
            let paths: Vec<PathCond> = earlier.iter().map(|b| b.path.clone()).collect();
            let first = earlier[0].loc;
            if let Some(at) = at {
                let paths = paths.into_iter().map(|p| self.without_implied(p)).collect();
                if surely_ran(paths, &self.without_implied(ctx.path.clone()), &self.choice_arity) {
                    self.out.events.push(Event::Reassigned { name: name.to_string(), loc: at, first });
                    return;
                }
            }
        }
        let bindings = self.scopes[ctx.scope].vars.entry(name.to_string()).or_default();
        bindings.push(Binding { value, loc: at, path: ctx.path.clone() });
    }

    /// A path without the atoms its `case` branches imply: what is left
    /// decides whether branches together cover every way through.
    fn without_implied(&self, path: PathCond) -> PathCond {
        let implied: Vec<(u32, u16)> =
            path.iter().filter_map(|atom| self.implied.get(atom)).flatten().copied().collect();
        if implied.is_empty() {
            return path;
        }
        path.into_iter().filter(|atom| !implied.contains(atom)).collect()
    }

    /// Binds a parameter or built-in without the reassignment check.
    fn bind_quietly(&mut self, scope: ScopeId, name: &str, value: Value, at: Option<Loc>) {
        self.scopes[scope].vars.insert(name.to_string(), vec![Binding { value, loc: at, path: Vec::new() }]);
    }

    fn local(&self, scope: ScopeId, name: &str, path: &PathCond) -> Option<&Binding> {
        self.scopes[scope].vars.get(name)?.iter().rev().find(|b| compatible(&b.path, path))
    }

    /// Puppet's unqualified lookup: the scope, then the inherited class's
    /// scope or else the enclosing top or node scope; lambdas look outward.
    fn lookup(&self, start: ScopeId, name: &str, path: &PathCond) -> Result<(ScopeId, &Binding), Vec<ScopeKind>> {
        let mut searched = Vec::new();
        let mut scope = start;
        for _ in 0..self.scopes.len() + 1 {
            if let Some(binding) = self.local(scope, name, path) {
                return Ok((scope, binding));
            }
            let s = &self.scopes[scope];
            searched.push(s.kind.clone());
            let next = match s.kind {
                ScopeKind::Lambda => s.lexical,
                ScopeKind::Top => None,
                _ => s.inherited.or(s.enclosing),
            };
            match next {
                Some(n) => scope = n,
                None => break,
            }
        }
        Err(searched)
    }

    /// An assignment the lookup chain from `start` holds on any path.
    fn assigned_on_other_paths(&self, start: ScopeId, name: &str) -> Option<Loc> {
        let mut scope = start;
        for _ in 0..self.scopes.len() + 1 {
            let s = &self.scopes[scope];
            if let Some(loc) = s.vars.get(name).and_then(|bs| bs.iter().find_map(|b| b.loc)) {
                return Some(loc);
            }
            scope = match s.kind {
                ScopeKind::Lambda => s.lexical?,
                ScopeKind::Top => return None,
                _ => s.inherited.or(s.enclosing)?,
            };
        }
        None
    }

    /// `$a::b::x`: the scope of class `a::b` (it must be declared), then the
    /// classes it inherits from; `$::x` reads top scope.
    fn lookup_qualified(
        &self,
        class: &str,
        leaf: &str,
        path: &PathCond,
    ) -> Result<(ScopeId, &Binding), Vec<ScopeKind>> {
        if class.is_empty() {
            return self.local(self.top, leaf, path).map(|b| (self.top, b)).ok_or_else(|| vec![ScopeKind::Top]);
        }
        let Some(mut scope) = self.classes.get(&normalize_name(class)).and_then(|s| s.scope) else {
            return Err(vec![ScopeKind::Class(normalize_name(class).into())]);
        };
        let mut searched = Vec::new();
        for _ in 0..self.scopes.len() + 1 {
            if let Some(binding) = self.local(scope, leaf, &Vec::new()) {
                return Ok((scope, binding));
            }
            searched.push(self.scopes[scope].kind.clone());
            match self.scopes[scope].inherited {
                Some(parent) => scope = parent,
                None => break,
            }
        }
        Err(searched)
    }

    fn resolve(&self, scope: ScopeId, variable: &Variable, path: &PathCond) -> (Value, ReadOutcome) {
        let name = variable.unanchored();
        if variable.is_match_variable() {
            return (Value::Unknown, ReadOutcome::BuiltIn);
        }
        let found = match variable.split_scope() {
            Some(("settings", _)) => return (Value::Unknown, ReadOutcome::BuiltIn),
            Some((class, leaf)) => self.lookup_qualified(class, leaf, path),
            None => self.lookup(scope, name, path),
        };
        match found {
            Ok((scope, binding)) => {
                // Bound on several paths (the branches of an `if`): the value
                // is known only if every branch agrees.
                let leaf = variable.split_scope().map_or(name, |(_, leaf)| leaf);
                let mut value = binding.value.clone();
                let candidates = self.scopes[scope].vars.get(leaf).map_or(&[][..], |v| v.as_slice());
                for other in candidates.iter().filter(|b| compatible(&b.path, path)) {
                    if other.value != value {
                        value = Value::Unknown;
                        break;
                    }
                }
                (value, ReadOutcome::Bound { kind: self.scopes[scope].kind.clone(), binding: binding.loc })
            }
            Err(searched) => {
                let leaf =
                    variable.split_scope().map_or(name, |(class, leaf)| if class.is_empty() { leaf } else { "" });
                if !leaf.is_empty() && self.facts.is_fact(leaf) {
                    (Value::Unknown, ReadOutcome::Fact)
                } else if !leaf.is_empty() && BUILT_IN_VARIABLES.contains(&leaf) {
                    (Value::Unknown, ReadOutcome::BuiltIn)
                } else {
                    let elsewhere = match variable.split_scope() {
                        None => self.assigned_on_other_paths(scope, name),
                        Some(_) => None,
                    };
                    (Value::Unknown, ReadOutcome::Unbound { searched, elsewhere })
                }
            }
        }
    }

    fn read(&mut self, variable: &Variable, at: Loc, ctx: &Ctx) -> Value {
        let (value, mut outcome) = self.resolve(ctx.scope, variable, &ctx.path);
        if matches!(outcome, ReadOutcome::Unbound { .. })
            && self.out.guarded(&ctx.path, true, |g| *g == Guarded::Variable(variable.unanchored().to_string()))
        {
            outcome = ReadOutcome::Guarded;
        }
        let value = value.on_path(&ctx.path);
        self.out.reads.push(Read {
            loc: at,
            name: variable.name.clone(),
            reader: ctx.owner.clone(),
            scope: ctx.scope,
            path: ctx.path.clone(),
            outcome,
            in_parameter_default: ctx.in_default,
            with_fallback: false,
        });
        value
    }

    /// Reads that found nothing are looked up again once the compilation is
    /// over: a binding found then came too late.
    fn finish_reads(&mut self) {
        let mut reads = std::mem::take(&mut self.out.reads);
        for read in &mut reads {
            if !matches!(read.outcome, ReadOutcome::Unbound { .. }) {
                continue;
            }
            let variable = Variable { name: read.name.clone() };
            if let (_, ReadOutcome::Bound { kind, binding }) = self.resolve(read.scope, &variable, &read.path) {
                read.outcome = ReadOutcome::LaterBound { kind, binding };
            }
        }
        self.out.reads = reads;
    }

    // ------------------------------------------------------------ classes

    /// `include`, `require`, `contain`, `class { … }` and entry points.
    /// Like Puppet, a class enters the catalog (after its parents) before its
    /// code runs, so code that includes it again meanwhile does nothing.
    fn declare_class(&mut self, name: &str, how: DeclHow, params: Option<Vec<(String, Value)>>, at: Loc, ctx: &Ctx) {
        let name = normalize_name(name);
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
            if how == DeclHow::ResourceLike && decl.how != DeclHow::Entry && compatible(&decl.path, &path) {
                let earlier = decl.loc;
                let shared = meet(&decl.path, &path);
                let unshared = join(&decl.path, &path).into_iter().filter(|atom| !shared.contains(atom)).collect();
                self.out.events.push(Event::DuplicateClass { class: name.to_string(), loc: at, earlier, unshared });
            } else {
                // Declared again on another path: its code runs on either.
                decl.path = meet(&decl.path, &path);
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
        self.out.classes.insert(name.to_string(), ClassDecl { how, loc: at, by: ctx.owner.clone(), path });
        let enclosing = self.base_of(ctx.scope);
        self.classes.insert(name.to_string(), ClassState { scope: None, enclosing, evaluated: false });
        true
    }

    /// Runs a declared class's code once: its parent's first, then its own
    /// parameters and body in a scope whose parent is the parent class's
    /// scope or else the enclosing top or node scope.
    fn evaluate_class(&mut self, name: &str, params: Option<Vec<(String, Value)>>, at: Loc) {
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
        let scope = self.new_scope(ScopeKind::Class(shared.clone()), inherited, Some(enclosing), None);
        if let Some(state) = self.classes.get_mut(name) {
            state.scope = Some(scope);
        }
        self.bind_quietly(scope, "title", Value::Str(name.to_string()), None);
        self.bind_quietly(scope, "name", Value::Str(name.to_string()), None);
        let class_ctx = Ctx { scope, path: Vec::new(), file, owner: Owner::Class(shared), in_default: false };
        let params = params.unwrap_or_default();
        // Metaparameters given to a resource-like declaration are variables
        // in the class's scope.
        for (name, value) in &params {
            if METAPARAMETERS.contains(&name.as_str()) && !class.params.iter().any(|p| &p.name == name) {
                self.bind_quietly(scope, name, value.clone(), None);
            }
        }
        self.bind_parameters(&class.params, params, &class_ctx);
        self.eval_block(&class.body, &class_ctx);
        self.declaring.pop();
    }

    /// Passed values first; defaults are evaluated in the new scope, in order.
    /// With `unknown_values`, every parameter's value is unknown (data from
    /// Hiera or an unknown declarer may replace the default).
    fn bind_parameters(&mut self, params: &[Parameter], passed: Vec<(String, Value)>, ctx: &Ctx) {
        let passed: HashMap<String, Value> = passed.into_iter().collect();
        let unknown_values = self.out.hypothetical() && matches!(ctx.owner, Owner::Class(_))
            || matches!(&ctx.owner, Owner::Define(i) if self.out.instances.get(*i).is_some_and(|d| d.entry));
        for param in params {
            let mut value = match passed.get(&param.name) {
                Some(v) => v.clone(),
                None => match &param.default {
                    Some(default) => self.eval(default, &Ctx { in_default: true, ..ctx.clone() }),
                    None => Value::Unknown,
                },
            };
            if unknown_values {
                value = Value::Unknown;
            }
            if let Some(t) = &param.type_expr {
                self.eval(t, ctx);
            }
            self.bind_quietly(ctx.scope, &param.name, value, Some(Loc::new(ctx.file, param.name_span)));
        }
    }

    // ------------------------------------------------------------ defines

    fn declare_define(
        &mut self,
        type_name: &str,
        title: Option<String>,
        params: Vec<(String, Value)>,
        at: Loc,
        ctx: &Ctx,
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
        if depth > MAX_DEFINE_DEPTH {
            self.out.events.push(Event::Limit {
                what: format!("defined types declaring each other {MAX_DEFINE_DEPTH} deep"),
                loc: at,
            });
            return;
        }
        let instance = self.out.instances.len();
        self.out.instances.push(DefineInstance {
            depth,
            entry: false,
            type_name,
            title: title.clone(),
            loc: at,
            by: ctx.owner.clone(),
            path: self.absolute_path(ctx),
        });
        let mut params = params;
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
        });
    }

    /// Defined types are evaluated after the code that declared them, in
    /// the order they were declared, as Puppet's compiler does.
    fn evaluate_pending_defines(&mut self) {
        while let Some(pending) = self.pending.pop_front() {
            let type_name = self.out.instances[pending.instance].type_name.clone();
            let scope = self.new_scope(
                ScopeKind::Define { type_name, instance: pending.instance },
                None,
                Some(pending.enclosing),
                None,
            );
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
                let declared = pending.define.params.iter().any(|p| &p.name == name);
                if METAPARAMETERS.contains(&name.as_str()) && !declared {
                    self.bind_quietly(scope, name, value.clone(), None);
                }
            }
            for builtin in ["title", "name"] {
                if let Some(pos) = passed.iter().position(|(n, _)| n == builtin) {
                    let (_, value) = passed.remove(pos);
                    self.bind_quietly(scope, builtin, value, None);
                }
            }
            self.bind_parameters(&pending.define.params, passed, &ctx);
            self.eval_branch(&pending.define.body, &ctx);
        }
    }

    // ------------------------------------------------------------ evaluation

    fn eval_block(&mut self, block: &Block, ctx: &Ctx) -> Value {
        let mut last = Value::Undef;
        for statement in &block.statements {
            last = self.eval(statement, ctx);
            if self.dead {
                break;
            }
        }
        last
    }

    /// Runs one branch; returns whether it ended in `fail()`.
    fn eval_branch(&mut self, block: &Block, ctx: &Ctx) -> (Value, bool) {
        let value = self.eval_block(block, ctx);
        let dead = std::mem::replace(&mut self.dead, false);
        (value, dead)
    }

    fn eval_all(&mut self, exprs: &[Expr], ctx: &Ctx) -> Vec<Value> {
        exprs.iter().map(|e| self.eval(e, ctx)).collect()
    }

    fn eval(&mut self, expr: &Expr, ctx: &Ctx) -> Value {
        let at = loc(ctx.file, expr);
        match &expr.kind {
            ExprKind::Variable(variable) => self.read(variable, at, ctx),
            ExprKind::Name(name) => Value::Str(name.clone()),
            ExprKind::TypeRef(name) => Value::Type(name.clone()),
            ExprKind::Number(Number::Integer(i)) => Value::Int(*i),
            ExprKind::Number(Number::Float(f)) => Value::Float(*f),
            ExprKind::Number(Number::Overflow(_)) => Value::Unknown,
            ExprKind::Boolean(b) => Value::Bool(*b),
            ExprKind::Undef => Value::Undef,
            ExprKind::Default => Value::Default,
            ExprKind::Reserved(_) => Value::Unknown,
            ExprKind::Regex(re) => Value::Regex(re.clone()),
            ExprKind::Str(string) => self.eval_string(string, ctx),
            ExprKind::Array(items) => {
                let values = self.eval_all(items, ctx);
                Value::Array(values)
            }
            ExprKind::Hash(pairs) => {
                let mut entries = Vec::new();
                for pair in pairs {
                    let key = self.eval(&pair.key, ctx);
                    let value = self.eval(&pair.value, ctx);
                    entries.push((key, value));
                }
                Value::Hash(entries)
            }
            ExprKind::Pair(pair) => {
                let key = self.eval(&pair.key, ctx);
                let value = self.eval(&pair.value, ctx);
                Value::Hash(vec![(key, value)])
            }
            ExprKind::Paren(inner) => self.eval(inner, ctx),
            ExprKind::Unary { op, operand } => {
                let value = self.eval(operand, ctx);
                match (op, &value) {
                    (UnaryOp::Not, v) => v.truthy().map_or(Value::Unknown, |b| Value::Bool(!b)),
                    (UnaryOp::Negate, Value::Int(i)) => i.checked_neg().map_or(Value::Unknown, Value::Int),
                    (UnaryOp::Negate, Value::Float(f)) => Value::Float(-f),
                    (UnaryOp::Splat, v) => v.clone(),
                    _ => Value::Unknown,
                }
            }
            ExprKind::Binary { op, left, right } => self.eval_binary(*op, left, right, ctx),
            ExprKind::Selector { value, entries } => self.eval_selector(value, entries, ctx).on_path(&ctx.path),
            ExprKind::Access { object, index } => {
                let object = self.eval(object, ctx);
                let keys = self.eval_all(index, ctx);
                access(&object, &keys)
            }
            ExprKind::Call(call) => self.eval_call(call, at, ctx),
            ExprKind::MethodCall(call) => {
                self.eval(&call.object, ctx);
                self.eval_all(&call.args, ctx);
                if let Some(lambda) = &call.lambda {
                    self.eval_lambda(lambda, ctx);
                }
                Value::Unknown
            }
            ExprKind::Collector(collector) => {
                self.eval(&collector.type_expr, ctx);
                if let Some(query) = &collector.query {
                    self.eval_query(query, ctx);
                }
                for attribute in &collector.overrides {
                    self.eval(&attribute.value, ctx);
                }
                Value::Unknown
            }
            ExprKind::If(conditional) => self.eval_if(conditional, false, ctx),
            ExprKind::Unless(conditional) => self.eval_if(conditional, true, ctx),
            ExprKind::Case(case) => self.eval_case(case, ctx),
            ExprKind::Assignment { op, target, value } => {
                // A selector's value stays tied to the conditions that chose it.
                let value = match &value.kind {
                    ExprKind::Selector { value: subject, entries } => self.eval_selector(subject, entries, ctx),
                    _ => self.eval(value, ctx),
                };
                self.assign(*op, target, value.clone(), ctx);
                value
            }
            ExprKind::Relationship { left, right, .. } => {
                self.eval(left, ctx);
                self.eval(right, ctx)
            }
            ExprKind::Resource(resource) => self.eval_resource(resource, ctx),
            ExprKind::ResourceDefaults(defaults) | ExprKind::ResourceOverride(defaults) => {
                self.eval(&defaults.type_expr, ctx);
                for attribute in &defaults.attributes {
                    self.eval(&attribute.value, ctx);
                }
                Value::Unknown
            }
            ExprKind::Apply(apply) => {
                self.eval_all(&apply.args, ctx);
                Value::Unknown
            }
            // Definitions are indexed, not evaluated where they stand.
            ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Node(_)
            | ExprKind::Function(_)
            | ExprKind::Plan(_)
            | ExprKind::TypeAlias(_)
            | ExprKind::TypeDefinition(_) => Value::Undef,
        }
    }

    fn eval_string(&mut self, string: &StringLit, ctx: &Ctx) -> Value {
        let mut text = Some(String::new());
        for part in &string.parts {
            match part {
                StringPart::Text(t) => {
                    if let Some(text) = &mut text {
                        text.push_str(t);
                    }
                }
                StringPart::Interpolation(expr) => {
                    let value = self.eval(expr, ctx);
                    match (value.to_text(), &mut text) {
                        (Some(piece), Some(text)) => text.push_str(&piece),
                        _ => text = None,
                    }
                }
            }
        }
        text.map_or(Value::Unknown, Value::Str)
    }

    /// In a collector query, bare words name attributes: only the values
    /// are evaluated.
    fn eval_query(&mut self, query: &Expr, ctx: &Ctx) {
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

    fn eval_binary(&mut self, op: BinaryOp, left: &Expr, right: &Expr, ctx: &Ctx) -> Value {
        let l = self.eval(left, ctx);
        // `and`/`or` short-circuit: the right side may not run.
        if (op == BinaryOp::And && l.truthy() == Some(false)) || (op == BinaryOp::Or && l.truthy() == Some(true)) {
            return Value::Bool(op == BinaryOp::Or);
        }
        // On an unknown left side, the right side runs only where `and`'s
        // left holds (or `or`'s fails): `defined('$x') and $x`.
        let r = if l.truthy().is_none() && matches!(op, BinaryOp::And | BinaryOp::Or) {
            let (tested, inverted) = strip_negation(left);
            let (choice, true_branch) = self.condition_choice(tested, ctx);
            self.add_guards(tested, choice, true_branch, ctx.file);
            let left_holds = (op == BinaryOp::And) != inverted;
            let branch = if left_holds { true_branch } else { 1 - true_branch };
            self.eval(right, &Self::with_choice(ctx, choice, branch))
        } else {
            self.eval(right, ctx)
        };
        value::binary(op, &l, &r)
    }

    fn assign(&mut self, op: AssignOp, target: &Expr, value: Value, ctx: &Ctx) {
        let at = loc(ctx.file, target);
        match &target.kind {
            ExprKind::Variable(variable) if !variable.is_qualified() => {
                if op != AssignOp::Assign {
                    // `$x += 1` reads the visible `$x` and binds a local one.
                    let previous = self.read(variable, at, ctx);
                    let combined = value::binary(BinaryOp::Add, &previous, &value);
                    self.bind(ctx, &variable.name, combined, Some(at));
                } else {
                    self.bind(ctx, &variable.name, value, Some(at));
                }
            }
            ExprKind::Array(targets) => {
                for (i, target) in targets.iter().enumerate() {
                    let element = match &value {
                        Value::Array(items) => items.get(i).cloned().unwrap_or(Value::Undef),
                        _ => Value::Unknown,
                    };
                    self.assign(AssignOp::Assign, target, element, ctx);
                }
            }
            _ => {}
        }
    }

    fn eval_lambda(&mut self, lambda: &Lambda, ctx: &Ctx) {
        let scope = self.new_scope(ScopeKind::Lambda, None, None, Some(ctx.scope));
        let inner = Ctx { scope, ..ctx.clone() };
        for param in &lambda.params {
            if let Some(default) = &param.default {
                self.eval(default, &inner);
            }
            self.bind_quietly(scope, &param.name, Value::Unknown, Some(Loc::new(ctx.file, param.name_span)));
        }
        // A failing lambda may never be called.
        self.eval_branch(&lambda.body, &inner);
    }

    /// The choice point for a condition: keyed by its text, and by the scope
    /// when it reads local variables (Puppet variables never change, so the
    /// same text in the same scope has the same value).
    fn choice_for(&mut self, kind: &str, exprs: &[&Expr], ctx: &Ctx) -> u32 {
        let key = self.condition_key(kind, exprs, ctx);
        let next = self.choices + 1;
        let id = *self.choice_keys.entry(key).or_insert(next);
        self.choices = self.choices.max(id);
        id
    }

    fn condition_key(&self, kind: &str, exprs: &[&Expr], ctx: &Ctx) -> String {
        let text = &self.files[ctx.file].source.text;
        let mut key = String::from(kind);
        for expr in exprs {
            let piece = &text[expr.span.start..expr.span.end.min(text.len())];
            key.push('\u{1}');
            for word in piece.split_whitespace() {
                key.push_str(word);
                key.push(' ');
            }
        }
        if self.reads_local_variables(exprs, ctx.file) {
            key = format!("{}\u{1}{key}", self.deciding_scopes(exprs, ctx));
        }
        key
    }

    /// The scopes whose variables a condition reads, so that the same text
    /// read from an inner lambda is the same condition: `$flag` tested in a
    /// class body and again in an `each` block inside it.
    fn deciding_scopes(&self, exprs: &[&Expr], ctx: &Ctx) -> String {
        let text = &self.files[ctx.file].source.text;
        let mut scopes = String::new();
        for expr in exprs {
            let piece = &text[expr.span.start..expr.span.end.min(text.len())];
            for (i, _) in piece.match_indices('$') {
                let rest = piece[i + 1..].trim_start_matches('{');
                let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
                let name = &rest[..end];
                if name.is_empty() || name.contains("::") {
                    continue;
                }
                let scope = self.lookup(ctx.scope, name, &ctx.path).map_or(ctx.scope, |(scope, _)| scope);
                scopes.push_str(&format!("{scope},"));
            }
        }
        scopes
    }

    /// Whether expressions read variables other than top-scope ones
    /// (`$::x`, `$facts`, `$trusted`, `$server_facts`).
    fn reads_local_variables(&self, exprs: &[&Expr], file: FileId) -> bool {
        let text = &self.files[file].source.text;
        let global = |rest: &str| {
            rest.starts_with("::")
                || ["facts", "trusted", "server_facts"].iter().any(|name| {
                    rest.strip_prefix(name)
                        .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
                })
        };
        exprs.iter().any(|expr| {
            let piece = &text[expr.span.start..expr.span.end.min(text.len())];
            piece.match_indices('$').any(|(i, _)| !global(&piece[i + 1..]))
        })
    }

    /// Where a condition on local variables is tested, for messages: the
    /// same text in two scopes is two different values.
    fn place_of(&self, exprs: &[&Expr], ctx: &Ctx) -> String {
        if !self.reads_local_variables(exprs, ctx.file) {
            return String::new();
        }
        match &ctx.owner {
            Owner::Class(name) => format!(" in class `{name}`"),
            Owner::Define(i) => match self.out.instances.get(*i) {
                Some(DefineInstance { type_name, title: Some(title), .. }) => format!(" in {type_name}['{title}']"),
                Some(instance) => format!(" in `{}`", instance.type_name),
                None => String::new(),
            },
            Owner::Node => " in the node".to_string(),
            Owner::Top => String::new(),
        }
    }

    /// A literal, a regular expression, a type, or an array of those.
    fn is_constant(expr: &Expr) -> bool {
        match &expr.kind {
            ExprKind::Regex(_)
            | ExprKind::TypeRef(_)
            | ExprKind::Number(_)
            | ExprKind::Boolean(_)
            | ExprKind::Undef => true,
            ExprKind::Str(s) => s.as_literal().is_some(),
            ExprKind::Array(items) => items.iter().all(Self::is_constant),
            ExprKind::Access { object, index } => Self::is_constant(object) && index.iter().all(Self::is_constant),
            ExprKind::Paren(inner) => Self::is_constant(inner),
            _ => false,
        }
    }

    /// An expression's source text on one line, shortened, for messages.
    fn source_text(&self, expr: &Expr, file: FileId) -> String {
        let text = &self.files[file].source.text;
        let piece = &text[expr.span.start..expr.span.end.min(text.len())];
        let mut flat = piece.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.chars().count() > 60 {
            flat = flat.chars().take(57).collect::<String>() + "...";
        }
        flat
    }

    fn label(&mut self, choice: u32, branch: u16, text: String) {
        self.out.labels.entry((choice, branch)).or_insert(text);
    }

    /// The unknown value an expression is, keyed like conditions: the same
    /// text in the same scope is the same value.
    fn subject_id(&mut self, subject: &Expr, ctx: &Ctx) -> u32 {
        let key = self.condition_key("subject", &[subject], ctx);
        let next = self.subjects.len() as u32;
        *self.subjects.entry(key).or_insert(next)
    }

    /// The choice point "`subject` == `literal`" (branch 1: equal), shared
    /// by every `==`, `!=`, case option and selector key testing that
    /// subject against that literal; `None` past the encoding's limits.
    fn equality_choice(&mut self, subject: &Expr, literal: &Value, ctx: &Ctx) -> Option<u32> {
        let literal_key = match literal {
            Value::Str(s) => format!("s:{}", s.to_lowercase()),
            Value::Int(i) => format!("n:{i}"),
            Value::Bool(b) => format!("b:{b}"),
            _ => return None,
        };
        let subject_id = self.subject_id(subject, ctx);
        let next_literal = self.literal_counts.get(&subject_id).copied().unwrap_or(0) + 1;
        let literal_id = *self.literals.entry((subject_id, literal_key)).or_insert_with(|| {
            self.literal_counts.insert(subject_id, next_literal);
            next_literal
        });
        if subject_id >= 1 << (31 - LITERAL_BITS) || literal_id >= 1 << LITERAL_BITS {
            return None;
        }
        let choice = EQUALITY_CHOICE | (subject_id << LITERAL_BITS) | literal_id;
        if let std::collections::hash_map::Entry::Vacant(arity) = self.choice_arity.entry(choice) {
            arity.insert(2);
            let who = format!("`{}`{}", self.source_text(subject, ctx.file), self.place_of(&[subject], ctx));
            let shown = match literal {
                Value::Str(s) => format!("'{s}'"),
                other => other.to_text().unwrap_or_default(),
            };
            self.label(choice, 1, format!("{who} is {shown}"));
            self.label(choice, 0, format!("{who} is not {shown}"));
        }
        Some(choice)
    }

    /// The branch a path has already taken at a choice point: directly, or
    /// for an equality test, by having found its subject equal to another
    /// literal.
    fn decided(path: &PathCond, choice: u32) -> Option<u16> {
        if let Some((_, branch)) = path.iter().find(|(c, _)| *c == choice) {
            return Some(*branch);
        }
        let subject = |c: u32| (c & EQUALITY_CHOICE != 0).then_some(c >> LITERAL_BITS);
        let mine = subject(choice)?;
        path.iter().any(|(c, b)| *b == 1 && subject(*c) == Some(mine)).then_some(0)
    }

    fn with_choice(ctx: &Ctx, choice: u32, branch: u16) -> Ctx {
        Ctx { path: join(&ctx.path, &vec![(choice, branch)]), ..ctx.clone() }
    }

    /// A literal written in the code: a string without interpolation, a
    /// number, a boolean.
    fn literal(expr: &Expr) -> Option<Value> {
        match &expr.kind {
            ExprKind::Str(s) => s.as_literal().map(Value::Str),
            ExprKind::Number(Number::Integer(i)) => Some(Value::Int(*i)),
            ExprKind::Boolean(b) => Some(Value::Bool(*b)),
            ExprKind::Paren(inner) => Self::literal(inner),
            _ => None,
        }
    }

    /// The choice point a tested condition is, and the branch that means
    /// "true": `$s == 'x'` and `$s != 'x'` share the equality choice of
    /// their subject; anything else is keyed by its text.
    fn condition_choice(&mut self, tested: &Expr, ctx: &Ctx) -> (u32, u16) {
        if let ExprKind::Binary { op: op @ (BinaryOp::Equal | BinaryOp::NotEqual), left, right } = &tested.kind {
            let pair = match (Self::literal(left), Self::literal(right)) {
                (None, Some(literal)) => Some((&**left, literal)),
                (Some(literal), None) => Some((&**right, literal)),
                _ => None,
            };
            if let Some((subject, literal)) = pair {
                if let Some(choice) = self.equality_choice(subject, &literal, ctx) {
                    return (choice, u16::from(*op == BinaryOp::Equal));
                }
            }
        }
        let choice = self.choice_for("if", &[tested], ctx);
        // `$x =~ /re/`, `$x in [...]`, `$x > 1` test the value `$x`.
        let tested_value = match &tested.kind {
            ExprKind::Binary { op, left, right }
                if !matches!(op, BinaryOp::And | BinaryOp::Or) && Self::is_constant(right) =>
            {
                &**left
            }
            _ => tested,
        };
        let subject = self.subject_id(tested_value, ctx);
        self.out.choice_subjects.insert(choice, subject);
        if let std::collections::hash_map::Entry::Vacant(arity) = self.choice_arity.entry(choice) {
            arity.insert(2);
            let text = self.source_text(tested, ctx.file);
            let place = self.place_of(&[tested], ctx);
            self.label(choice, 1, format!("`{text}`{place} is true"));
            self.label(choice, 0, format!("`{text}`{place} is false"));
        }
        (choice, 1)
    }

    /// What `defined(…)` tests inside a condition say when the condition
    /// has the truth value `holds`: `[(what, is it defined)]`.
    fn guards_of(&self, expr: &Expr, holds: bool, file: FileId) -> Vec<(Guarded, bool)> {
        match &expr.kind {
            ExprKind::Paren(inner) => self.guards_of(inner, holds, file),
            ExprKind::Unary { op: UnaryOp::Not, operand } => self.guards_of(operand, !holds, file),
            ExprKind::Call(call) if call.name == "defined" => {
                self.defined_targets.get(&(file, expr.span.start)).map(|g| (g.clone(), holds)).into_iter().collect()
            }
            // `a and b` true: both hold; `a or b` false: neither holds.
            ExprKind::Binary { op: BinaryOp::And, left, right } if holds => {
                let mut all = self.guards_of(left, true, file);
                all.extend(self.guards_of(right, true, file));
                all
            }
            ExprKind::Binary { op: BinaryOp::Or, left, right } if !holds => {
                let mut all = self.guards_of(left, false, file);
                all.extend(self.guards_of(right, false, file));
                all
            }
            _ => Vec::new(),
        }
    }

    fn add_guards(&mut self, condition: &Expr, choice: u32, true_branch: u16, file: FileId) {
        for (holds, branch) in [(true, true_branch), (false, 1 - true_branch)] {
            for (what, defined) in self.guards_of(condition, holds, file) {
                let exists = self
                    .out
                    .guards
                    .iter()
                    .any(|g| g.choice == choice && g.branch == branch && g.what == what && g.defined == defined);
                if !exists {
                    self.out.guards.push(Guard { choice, branch, what, defined });
                }
            }
        }
    }

    /// `if`/`elsif`/`else` and `unless`. A condition on an unknown value is a
    /// choice point; the branches after it run under its other branch.
    fn eval_if(&mut self, conditional: &If, negate_first: bool, ctx: &Ctx) -> Value {
        let mut rest = ctx.clone();
        let mut all_dead = true;
        let mut unknown = false;
        for (i, b) in conditional.branches.iter().enumerate() {
            let value = self.eval(&b.condition, &rest);
            // `!x` and `unless x` test the same condition as `if x`.
            let (tested, inverted) = strip_negation(&b.condition);
            let negate = (i == 0 && negate_first) != inverted;
            let value = if inverted { value.truthy().map_or(Value::Unknown, |t| Value::Bool(!t)) } else { value };
            let truth = match value.truthy() {
                Some(t) => Some(t != negate),
                None => {
                    let (choice, true_branch) = self.condition_choice(tested, &rest);
                    self.add_guards(tested, choice, true_branch, rest.file);
                    match Self::decided(&rest.path, choice) {
                        Some(branch) => Some((branch == true_branch) != negate),
                        None => {
                            unknown = true;
                            let (taken, not_taken) =
                                if negate { (1 - true_branch, true_branch) } else { (true_branch, 1 - true_branch) };
                            let body_ctx = Self::with_choice(&rest, choice, taken);
                            let (_, dead) = self.eval_branch(&b.body, &body_ctx);
                            all_dead &= dead;
                            rest = Self::with_choice(&rest, choice, not_taken);
                            continue;
                        }
                    }
                }
            };
            match truth {
                Some(false) | None => continue,
                Some(true) => {
                    let (value, dead) = self.eval_branch(&b.body, &rest);
                    self.dead = dead && all_dead;
                    return if unknown { Value::Unknown } else { value };
                }
            }
        }
        let (value, dead) = match &conditional.else_body {
            Some(body) => self.eval_branch(body, &rest),
            None => (Value::Undef, false),
        };
        // The code after the `if` runs unless every way through it failed.
        self.dead = dead && all_dead;
        if unknown {
            Value::Unknown
        } else {
            value
        }
    }

    /// The choices that the literal options of a `case` or selector on
    /// `subject` are, in order, each as (choice point, branch meaning
    /// "matches"); `None` for a matcher that is not a literal. `true` and
    /// `false` share the choice of `if subject`.
    fn option_choices(&mut self, subject: &Expr, options: &[Vec<&Expr>], ctx: &Ctx) -> Vec<Vec<Option<(u32, u16)>>> {
        options
            .iter()
            .map(|matchers| {
                matchers
                    .iter()
                    .map(|m| match Self::literal(m)? {
                        Value::Bool(b) => Some((self.condition_choice(subject, ctx).0, u16::from(b))),
                        literal => self.equality_choice(subject, &literal, ctx).map(|c| (c, 1)),
                    })
                    .collect()
            })
            .collect()
    }

    /// The path of option `i` on an unknown subject: the option's own
    /// branch (when it is one literal) and the literals of the options
    /// before it unmatched.
    fn option_path(base: &PathCond, choices: &[Vec<Option<(u32, u16)>>], i: usize) -> PathCond {
        let mut atoms: PathCond = Vec::new();
        if let Some([Some(own)]) = choices.get(i).map(Vec::as_slice) {
            atoms.push(*own);
        }
        for earlier in &choices[..i.min(choices.len())] {
            atoms.extend(earlier.iter().flatten().map(|(c, branch)| (*c, 1 - branch)));
        }
        join(base, &atoms)
    }

    /// `case`: options in order; `default` only when nothing else matches.
    /// On an unknown value each option is a branch of one choice point, and
    /// its literals are equality choices shared with `if` tests.
    fn eval_case(&mut self, case: &Case, ctx: &Ctx) -> Value {
        let value = self.eval(&case.value, ctx);
        let mut keyed: Vec<&Expr> = vec![&case.value];
        keyed.extend(case.options.iter().flat_map(|o| &o.matches));
        let choice = self.choice_for("case", &keyed, ctx);
        let has_default = case.options.iter().any(|o| o.matches.iter().any(|m| m.kind == ExprKind::Default));
        // Without `default`, "no option matches" is one more way through.
        self.choice_arity.insert(choice, case.options.len() as u16 + u16::from(!has_default));
        let subject = self.subject_id(&case.value, ctx);
        self.out.choice_subjects.insert(choice, subject);
        if !self.out.labels.contains_key(&(choice, 0)) {
            let subject_text = self.source_text(&case.value, ctx.file);
            for (i, option) in case.options.iter().enumerate() {
                let shown: Vec<String> = option.matches.iter().map(|m| self.source_text(m, ctx.file)).collect();
                self.label(choice, i as u16, format!("`{subject_text}` matches {}", shown.join(", ")));
            }
        }
        // Literal options, `default` excluded, for equality choices.
        let literal_options: Vec<Vec<&Expr>> = case
            .options
            .iter()
            .map(|o| {
                if o.matches.iter().any(|m| m.kind == ExprKind::Default) {
                    Vec::new()
                } else {
                    o.matches.iter().collect()
                }
            })
            .collect();
        let option_choices = if value == Value::Unknown {
            self.option_choices(&case.value, &literal_options, ctx)
        } else {
            vec![Vec::new(); case.options.len()]
        };
        let decided = Self::decided(&ctx.path, choice);
        let mut all_dead = true;
        let mut default = None;
        // Whether every option so far surely did not match.
        let mut all_known_false = true;
        for (i, option) in case.options.iter().enumerate() {
            let mut truth = Some(false);
            let is_default = option.matches.iter().any(|m| m.kind == ExprKind::Default);
            for matcher in &option.matches {
                if matcher.kind == ExprKind::Default {
                    default = Some((i, &option.body));
                    continue;
                }
                let pattern = self.eval(matcher, ctx);
                if is_default {
                    // `'x', default:` runs as the default option.
                    continue;
                }
                truth = match (truth, value.matches(&pattern)) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (None, _) | (_, None) => None,
                    _ => Some(false),
                };
            }
            if is_default {
                continue;
            }
            if let Some(branch) = decided {
                truth = Some(branch as usize == i);
            } else if truth.is_none() && option_choices[i].iter().all(Option::is_some) {
                // Earlier tests of the subject may have decided it.
                let known: Vec<Option<u16>> = option_choices[i]
                    .iter()
                    .flatten()
                    .map(|(c, matching)| Self::decided(&ctx.path, *c).map(|b| u16::from(b == *matching)))
                    .collect();
                if known.contains(&Some(1)) {
                    truth = Some(true);
                } else if !known.is_empty() && known.iter().all(|k| *k == Some(0)) {
                    truth = Some(false);
                }
            }
            // An option that surely matches a known value is no choice.
            let body_ctx = if value == Value::Unknown || truth.is_none() {
                let own = Self::option_path(&Vec::new(), &option_choices, i);
                self.implied.entry((choice, i as u16)).or_insert(own);
                let body_path = Self::option_path(&ctx.path, &option_choices, i);
                Ctx { path: join(&body_path, &vec![(choice, i as u16)]), ..ctx.clone() }
            } else {
                ctx.clone()
            };
            match truth {
                Some(false) => continue,
                Some(true) => {
                    let (_, dead) = self.eval_branch(&option.body, &body_ctx);
                    self.dead = dead && all_dead;
                    return Value::Unknown;
                }
                None => {
                    all_known_false = false;
                    let (_, dead) = self.eval_branch(&option.body, &body_ctx);
                    all_dead &= dead;
                }
            }
        }
        let dead = match default {
            Some((i, body)) if decided.is_none_or(|b| b as usize == i) => {
                let body_ctx = if value == Value::Unknown || !all_known_false {
                    let own = Self::option_path(&Vec::new(), &option_choices, option_choices.len());
                    self.implied.entry((choice, i as u16)).or_insert(own);
                    let body_path = Self::option_path(&ctx.path, &option_choices, option_choices.len());
                    Ctx { path: join(&body_path, &vec![(choice, i as u16)]), ..ctx.clone() }
                } else {
                    ctx.clone()
                };
                self.eval_branch(body, &body_ctx).1
            }
            Some(_) => true,
            None => false,
        };
        self.dead = dead && all_dead;
        Value::Unknown
    }

    /// A selector: the first matching key, `default` last wherever it is
    /// written. On an unknown subject whose keys are literals, each value
    /// is evaluated on its own branch (so `defined('$x') ? { true => $x }`
    /// reads `$x` only where it is defined), and the result is a choice
    /// between the values, each on the path that chose it.
    fn eval_selector(&mut self, subject: &Expr, entries: &[SelectorEntry], ctx: &Ctx) -> Value {
        let value = self.eval(subject, ctx);
        let patterns: Vec<Value> = entries.iter().map(|e| self.eval(&e.matcher, ctx)).collect();
        let literal_keys =
            entries.iter().all(|e| e.matcher.kind == ExprKind::Default || Self::literal(&e.matcher).is_some());
        if value.truthy().is_none() && literal_keys {
            let keys: Vec<Vec<&Expr>> =
                entries.iter().filter(|e| e.matcher.kind != ExprKind::Default).map(|e| vec![&e.matcher]).collect();
            let choices = self.option_choices(subject, &keys, ctx);
            if choices.iter().all(|c| c[0].is_some()) {
                if let Some((choice, _)) = choices
                    .iter()
                    .find_map(|c| c[0])
                    .filter(|_| keys.iter().any(|k| matches!(Self::literal(k[0]), Some(Value::Bool(_)))))
                {
                    self.add_guards(subject, choice, 1, ctx.file);
                }
                let mut alternatives = Vec::new();
                let mut default = None;
                let mut index = 0;
                let mut arms = ArmsDeath::new(self);
                for entry in entries {
                    if entry.matcher.kind == ExprKind::Default {
                        default.get_or_insert(entry);
                        continue;
                    }
                    let path = Self::option_path(&Vec::new(), &choices, index);
                    index += 1;
                    let branch = Ctx { path: join(&ctx.path, &path), ..ctx.clone() };
                    let outcome = self.eval(&entry.value, &branch);
                    arms.arm_done(self);
                    alternatives.push((path, outcome));
                }
                if let Some(entry) = default {
                    let path = Self::option_path(&Vec::new(), &choices, choices.len());
                    let branch = Ctx { path: join(&ctx.path, &path), ..ctx.clone() };
                    let outcome = self.eval(&entry.value, &branch);
                    arms.arm_done(self);
                    alternatives.push((path, outcome));
                }
                arms.finish(self);
                return Value::Choice(alternatives);
            }
        }
        // Puppet evaluates only the chosen value; when the choice is known,
        // so does this.
        let mut chosen = None;
        for (i, pattern) in patterns.iter().enumerate() {
            if *pattern == Value::Default {
                continue;
            }
            match value.matches(pattern) {
                Some(true) => {
                    chosen = Some(Some(i));
                    break;
                }
                None => {
                    chosen = Some(None);
                    break;
                }
                Some(false) => {}
            }
        }
        let chosen = chosen.unwrap_or_else(|| patterns.iter().position(|p| *p == Value::Default));
        if let Some(i) = chosen {
            return self.eval(&entries[i].value, ctx);
        }
        let mut arms = ArmsDeath::new(self);
        for entry in entries {
            self.eval(&entry.value, ctx);
            arms.arm_done(self);
        }
        arms.finish(self);
        Value::Unknown
    }

    fn eval_call(&mut self, call: &Call, at: Loc, ctx: &Ctx) -> Value {
        let reads_before = self.out.reads.len();
        let args = self.eval_all(&call.args, ctx);
        if FALLBACK_FUNCTIONS.contains(&call.name.as_str()) {
            // `pick_default($::appenv, 'dev')`: the author expects it unset.
            let direct: Vec<Loc> = call
                .args
                .iter()
                .filter(|a| matches!(a.kind, ExprKind::Variable(_)))
                .map(|a| loc(ctx.file, a))
                .collect();
            for read in &mut self.out.reads[reads_before..] {
                if direct.contains(&read.loc) {
                    read.with_fallback = true;
                }
            }
        }
        if let Some(lambda) = &call.lambda {
            self.eval_lambda(lambda, ctx);
        }
        if call.name == "fail" {
            self.dead = true;
            return Value::Unknown;
        }
        if call.name == "defined" {
            return self.eval_defined(call, &args, at, ctx);
        }
        let how = match call.name.as_str() {
            "include" => Some(DeclHow::Include),
            "require" => Some(DeclHow::Require),
            "contain" => Some(DeclHow::Contain),
            _ => None,
        };
        if let Some(how) = how {
            for (arg, expr) in args.iter().zip(&call.args) {
                for name in class_names(arg) {
                    self.declare_class(&name, how, None, loc(ctx.file, expr), ctx);
                }
            }
            return Value::Unknown;
        }
        if let Some(function) = self.include_functions.and_then(|f| f.get(&call.name)) {
            // The variables are set before the classes are declared.
            for variable in &function.sets {
                let name = variable.trim_start_matches('$').trim_start_matches("::");
                if self.local(self.top, name, &Vec::new()).is_none() {
                    self.bind_quietly(self.top, name, Value::Unknown, Some(at));
                }
            }
            for (arg, expr) in args.iter().zip(&call.args) {
                for name in class_names(arg) {
                    let class = function.class.replace("{}", name.trim_start_matches("::"));
                    self.declare_class(&class, DeclHow::Include, None, loc(ctx.file, expr), ctx);
                }
            }
            return Value::Unknown;
        }
        if ctx.owner == Owner::Node && !BUILT_IN_FUNCTIONS.contains(&call.name.as_str()) {
            self.out.events.push(Event::NodeCall { name: call.name.clone(), loc: at });
        }
        Value::Unknown
    }

    /// `defined(…)`: true when certain (a known class or type, a bound
    /// variable, a declared class), else unknown — remembering what it
    /// tests, so that the branches of a condition on it know.
    fn eval_defined(&mut self, call: &Call, args: &[Value], at: Loc, ctx: &Ctx) -> Value {
        let [arg] = args else { return Value::Unknown };
        let known_type = |this: &Self, name: &str| {
            let name = normalize_name(name);
            BUILT_IN_TYPES.contains(&name.as_str()) || this.index.find_type(&name, this.standalone).is_some()
        };
        let target = match arg {
            Value::Str(s) if s.starts_with('$') => {
                let variable = Variable { name: s[1..].into() };
                if matches!(self.resolve(ctx.scope, &variable, &ctx.path).1, ReadOutcome::Bound { .. }) {
                    return Value::Bool(true);
                }
                Guarded::Variable(variable.unanchored().to_string())
            }
            Value::Str(s) => {
                if known_type(self, s) {
                    return Value::Bool(true);
                }
                Guarded::Type(normalize_name(s))
            }
            Value::Type(t) => match t.split_once('[') {
                None if known_type(self, t) => return Value::Bool(true),
                None => Guarded::Type(normalize_name(t)),
                Some((type_name, rest)) => {
                    let title = rest.strip_suffix(']').map(|r| r.trim().trim_matches(['\'', '"']).to_string());
                    if type_name.eq_ignore_ascii_case("class") {
                        let Some(class) = title else { return Value::Unknown };
                        if self.out.classes.contains_key(&normalize_name(&class)) {
                            return Value::Bool(true);
                        }
                        // Not declared yet: false, as Puppet evaluates it now.
                        return Value::Bool(false);
                    } else {
                        Guarded::Resource { type_name: normalize_name(type_name), title }
                    }
                }
            },
            // `Package[$name]` with an unknown name.
            Value::Unknown => match call.args.first().map(|a| &a.kind) {
                Some(ExprKind::Access { object, .. }) => match &object.kind {
                    ExprKind::TypeRef(type_name) => {
                        Guarded::Resource { type_name: normalize_name(type_name), title: None }
                    }
                    _ => return Value::Unknown,
                },
                _ => return Value::Unknown,
            },
            _ => return Value::Unknown,
        };
        self.defined_targets.insert((at.file, at.start), target);
        Value::Unknown
    }

    fn eval_resource(&mut self, resource: &Resource, ctx: &Ctx) -> Value {
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
        for body in &resource.bodies {
            let title = self.eval(&body.title, ctx);
            let mut attributes = Vec::new();
            for attribute in &body.attributes {
                let value = self.eval(&attribute.value, ctx);
                attributes.push((attribute.name.clone(), value));
            }
            let Some(type_name) = &type_name else { continue };
            let titles = titles(&title);
            let body_loc = Loc::new(ctx.file, body.title.span);
            if type_name == "class" {
                for title in titles.into_iter().flatten() {
                    self.declare_class(&title, DeclHow::ResourceLike, Some(attributes.clone()), body_loc, ctx);
                }
                continue;
            }
            let is_define = self.index.find_define(type_name, self.standalone).is_some();
            for title in titles {
                let recorded = title.as_ref().map(|title| {
                    let key = uniqueness_key(type_name, title, &attributes);
                    self.out.resources.push(ResourceDecl {
                        type_name: type_name.clone(),
                        title: title.clone(),
                        key,
                        loc: body_loc,
                        owner: ctx.owner.clone(),
                        path: ctx.path.clone(),
                        instance: None,
                    });
                    self.out.resources.len() - 1
                });
                if is_define {
                    let before = self.out.instances.len();
                    self.declare_define(type_name, title, attributes.clone(), body_loc, ctx);
                    if let (Some(record), true) = (recorded, self.out.instances.len() > before) {
                        self.out.resources[record].instance = Some(before);
                    }
                }
            }
        }
        Value::Unknown
    }
}

/// Class names an `include`-like argument names.
fn class_names(value: &Value) -> Vec<String> {
    match value {
        Value::Str(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(class_names).collect(),
        Value::Type(t) => {
            let lower = t.to_ascii_lowercase();
            match lower.strip_prefix("class[").and_then(|r| r.strip_suffix(']')) {
                Some(inner) => vec![inner.trim_matches(['\'', '"']).to_string()],
                None => vec![t.clone()],
            }
        }
        _ => Vec::new(),
    }
}

/// The titles a title expression names; `None` for an unknown one.
fn titles(value: &Value) -> Vec<Option<String>> {
    match value {
        Value::Array(items) => items.iter().flat_map(titles).collect(),
        Value::Unknown => vec![None],
        // A `default:` body sets defaults for the other bodies.
        Value::Default => Vec::new(),
        other => vec![other.to_text()],
    }
}

/// A resource's identity beside its title: its namevar's value. Files
/// ignore trailing slashes; packages are unique per provider.
fn uniqueness_key(type_name: &str, title: &str, attributes: &[(String, Value)]) -> Option<String> {
    // Non-isomorphic types are unique by title alone (Puppet 7.23: two
    // execs with one command compile).
    if type_name == "exec" {
        return None;
    }
    let namevar = namevar(type_name);
    let mut key = match attributes.iter().find(|(n, _)| n == namevar) {
        // Set to something unknown: the resource's identity is unknown.
        Some((_, value)) => value.to_text()?,
        None => title.to_string(),
    };
    if type_name == "file" && key.len() > 1 {
        key = key.trim_end_matches('/').to_string();
    }
    if type_name == "package" {
        let provider = attributes.iter().find(|(n, _)| n == "provider").map(|(_, v)| v.to_text().unwrap_or_default());
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

/// `$x[1]`, `$h['k']`, `Class['x']` on known values.
fn access(object: &Value, keys: &[Value]) -> Value {
    match (object, keys) {
        (Value::Array(items), [Value::Int(i)]) => {
            let len = items.len() as i64;
            let index = if *i < 0 { len + i } else { *i };
            if (0..len).contains(&index) {
                items[index as usize].clone()
            } else {
                Value::Undef
            }
        }
        (Value::Hash(entries), [key]) => match entries.iter().find(|(k, _)| k.equals(key) == Some(true)) {
            Some((_, value)) => value.clone(),
            None if value::any_match(entries.iter().map(|(k, _)| k.equals(key))).is_none() => Value::Unknown,
            None => Value::Undef,
        },
        (Value::Type(t), keys) => {
            let inner: Option<Vec<String>> = keys
                .iter()
                .map(|k| match k {
                    Value::Str(s) => Some(format!("'{s}'")),
                    other => other.to_text(),
                })
                .collect();
            inner.map_or(Value::Unknown, |parts| Value::Type(format!("{t}[{}]", parts.join(", "))))
        }
        _ => Value::Unknown,
    }
}

/// Did at least one of the code paths `paths` run whenever `current` runs?
/// True when one is implied by `current`, or when together they cover every
/// branch of a choice point (merged repeatedly: `{Q+(c,0), Q+(c,1)}` → `Q`).
fn surely_ran(mut paths: Vec<PathCond>, current: &PathCond, arity: &HashMap<u32, u16>) -> bool {
    let implied = |p: &PathCond| p.iter().all(|c| current.contains(c));
    for _ in 0..64 {
        if paths.iter().any(implied) {
            return true;
        }
        let mut merged = None;
        'search: for p in &paths {
            for &(choice, _) in p {
                let rest: PathCond = p.iter().filter(|c| c.0 != choice).copied().collect();
                let branches: std::collections::BTreeSet<u16> = paths
                    .iter()
                    .filter(|q| q.iter().filter(|c| c.0 != choice).copied().collect::<PathCond>() == rest)
                    .filter_map(|q| q.iter().find(|c| c.0 == choice).map(|c| c.1))
                    .collect();
                if arity.get(&choice).is_some_and(|n| branches.len() >= *n as usize) {
                    merged = Some((choice, rest));
                    break 'search;
                }
            }
        }
        let Some((choice, rest)) = merged else { return false };
        paths.retain(|q| q.iter().filter(|c| c.0 != choice).copied().collect::<PathCond>() != rest);
        paths.push(rest);
    }
    false
}
