//! The abstract interpreter: evaluates one compilation the way Puppet's
//! compiler does — top scope, node scope, class scopes fixed at first
//! declaration, inheritance, lazy defined types — over abstract values, and
//! records how every lookup and declaration resolved.
//!
//! A condition on an unknown value runs every branch, each under its own
//! path condition. Recursion follows the syntax tree only (bounded by the
//! parser's nesting limit); declarations are bounded by explicit limits.

mod branching;
mod builtins;
mod calls;
mod conditions;
mod declarations;
mod expressions;
mod resources;
mod variables;

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::FxHashMap as HashMap;

use super::facts::Facts;
use super::index::{FileId, Index, Loc};
use super::record::*;
use super::value::Value;
use crate::syntax::ast::*;
use crate::syntax::ParsedFile;

pub use self::builtins::{built_in_attributes, is_built_in_call, BUILT_IN_FUNCTIONS, BUILT_IN_TYPES, METAPARAMETERS};
pub use self::declarations::TypeChecks;
pub use self::resources::{namevar, RELATIONSHIP_METAPARAMS};

/// Most defined-type instances one compilation evaluates.
pub const MAX_DEFINE_INSTANCES: usize = 10_000;
/// Deepest chain of defined-type instances declaring instances.
pub const MAX_DEFINE_DEPTH: u32 = 100;

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
    /// Most variables have one binding: it is kept inline.
    vars: HashMap<String, smallvec::SmallVec<[Binding; 1]>>,
}

struct ClassState {
    /// Set once the class's code runs.
    scope: Option<ScopeId>,
    /// Top or node scope of its first declaration.
    enclosing: ScopeId,
    evaluated: bool,
}

/// Where a variable is bound to a test, the test, and whether the variable
/// is its negation.
type DerivedTest = (Loc, std::rc::Rc<Expr>, bool);

/// An attribute given to a declaration: its name, its value and where its
/// name is written.
type Given = (String, Value, Loc);

struct PendingDefine<'a> {
    define: &'a DefineDef,
    file: FileId,
    instance: usize,
    enclosing: ScopeId,
    params: Vec<(String, Value)>,
    /// A splat with unknown keys was passed.
    open_splat: bool,
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
    choice_keys: HashMap<conditions::ConditionKey, u32>,
    /// How many branches each choice point has.
    choice_arity: HashMap<u32, u16>,
    /// Subjects of `==` tests by key, and their literals by subject.
    subjects: HashMap<conditions::SubjectKey, u32>,
    literals: HashMap<(u32, String), u32>,
    literal_counts: HashMap<u32, u32>,
    /// The subjects that are the operating system's name (false) or family
    /// (true) fact.
    os_subjects: HashMap<u32, bool>,
    /// Atoms a `case` option's branch implies (its literal equal, earlier
    /// literals unequal), so that they can be dropped where it is present.
    implied: HashMap<(u32, u16), PathCond>,
    /// The guards recorded, by the branch they hold on.
    guards_by_branch: HashMap<(u32, u16), smallvec::SmallVec<[usize; 2]>>,
    /// What each `defined(…)` call evaluated tests, by the call's place.
    defined_targets: HashMap<(FileId, usize), Guarded>,
    /// What parameter types say of scalar values, shared by a run.
    type_checks: &'m TypeChecks,
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
    /// The constraints whose types' attribute values are recorded.
    constraints: &'m [crate::policy::Constraint],
    /// Record every class declaration, not only each class's first: some
    /// constraint judges declarations.
    record_declarations: bool,
    /// Record every declaration's attribute values, parameter defaults and
    /// function calls.
    record_values: bool,
    /// The templates code renders by literal names.
    templates: Option<&'m super::templates::Templates>,
    /// Types whose attributes resource defaults, overrides or collectors
    /// may set: their defined types' defaults may be replaced.
    set_elsewhere: Option<&'m super::set_elsewhere::SetElsewhere>,
    /// The types the tree knows: a case option or selector key naming none
    /// fails where Puppet compares with it.
    type_names: Option<super::type_names::TypeNames<'m>>,
    /// Parameters bound in each class or define scope: whether given at
    /// the declaration (kept when values are recorded).
    parameters: HashMap<(ScopeId, String), bool>,
    /// Variables bound to a test of unknown outcome (`$is_debian = $os ==
    /// 'Debian'`), by scope and name, with where they are bound: testing
    /// the variable is testing that condition (negated when the flag is set).
    derived_tests: HashMap<(ScopeId, std::sync::Arc<str>), DerivedTest>,
    /// The call's text for variables bound to a data lookup of literal
    /// arguments (`$s = hiera('services', [])`), by scope and where they
    /// are bound: one compilation looks the same key up to the same value,
    /// wherever the variable is.
    data_lookups: HashMap<(ScopeId, Loc), String>,
    /// Variables bound to a class's variable (`$role = $ipa::role`), as
    /// `$ipa::role`, by scope and where they are bound.
    variable_copies: HashMap<(ScopeId, Loc), String>,
    /// What conditions' texts say for their keys, by place.
    condition_texts: std::cell::RefCell<conditions::ConditionTexts>,
    out: Compilation,
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
            os_subjects: HashMap::default(),
            implied: HashMap::default(),
            guards_by_branch: HashMap::default(),
            defined_targets: HashMap::default(),
            type_checks: TypeChecks::NONE,
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
            constraints: &[],
            record_declarations: false,
            record_values: false,
            parameters: HashMap::default(),
            derived_tests: HashMap::default(),
            data_lookups: HashMap::default(),
            variable_copies: HashMap::default(),
            condition_texts: Default::default(),
            templates: None,
            set_elsewhere: None,
            type_names: None,
            out: Compilation {
                entry,
                node_in_view,
                scopes: Vec::new(),
                reads: Vec::new(),
                fact_reads: Vec::new(),
                classes: BTreeMap::new(),
                declarations: Vec::new(),
                instances: Vec::new(),
                resources: Vec::new(),
                overrides: Vec::new(),
                references: Vec::new(),
                surely_realized: Vec::new(),
                virtual_instances: Default::default(),
                collected_types: Default::default(),
                may_not_run: std::collections::BTreeSet::new(),
                relationships: Vec::new(),
                default_references: Vec::new(),
                open_types: std::collections::BTreeSet::new(),
                resource_defaults: Vec::new(),
                collector_overrides: Vec::new(),
                declared: Vec::new(),
                defaults: Vec::new(),
                calls: Vec::new(),
                events: Vec::new(),
                guards: Vec::new(),
                labels: std::collections::HashMap::new(),
                choice_subjects: std::collections::HashMap::new(),
                literal_sets: std::collections::HashMap::new(),
                option_sets: std::collections::HashMap::new(),
                regex_tests: std::collections::HashMap::new(),
                conjuncts: std::collections::HashMap::new(),
                os_equalities: std::collections::HashMap::new(),
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

    /// Shares what parameter types say of values with other compilations.
    pub fn with_type_checks(mut self, checks: &'m TypeChecks) -> Self {
        self.type_checks = checks;
        self
    }

    /// Records the attribute values of the types these constraints name.
    pub fn with_constraints(mut self, constraints: &'m [crate::policy::Constraint]) -> Self {
        use crate::policy::Test;
        self.constraints = constraints;
        self.record_declarations = constraints.iter().any(|c| {
            matches!(
                c.test,
                Test::Declares { .. } | Test::ExactlyOne(_) | Test::ResourceLike { .. } | Test::NoParameters(_)
            )
        });
        self
    }

    /// Knows what the templates that code renders read.
    pub fn with_templates(mut self, templates: &'m super::templates::Templates) -> Self {
        self.templates = Some(templates);
        self
    }

    /// Knows which types' attributes code elsewhere may set.
    pub fn with_set_elsewhere(mut self, set_elsewhere: &'m super::set_elsewhere::SetElsewhere) -> Self {
        self.set_elsewhere = Some(set_elsewhere);
        self
    }

    /// Knows the types the tree defines and Puppet ships.
    pub fn with_type_names(mut self, type_names: super::type_names::TypeNames<'m>) -> Self {
        self.type_names = Some(type_names);
        self
    }

    /// Whether a `case` option or selector key is a capitalised word that
    /// surely names no type.
    fn names_no_type(&self, matcher: &Expr) -> bool {
        match (&matcher.kind, &self.type_names) {
            (ExprKind::TypeRef(name), Some(type_names)) => type_names.names_no_type(name),
            _ => false,
        }
    }

    /// A `case` option or selector key as its author meant it: a
    /// capitalised word naming no type is the string Puppet 3 took it for.
    /// Puppet 4 and later fail there (`unknown-type-reference` says so);
    /// the rest of the code is checked as if it were written as a string.
    fn as_meant<'e>(&self, matcher: &'e Expr) -> std::borrow::Cow<'e, Expr> {
        match &matcher.kind {
            ExprKind::TypeRef(name) if self.names_no_type(matcher) => {
                std::borrow::Cow::Owned(Expr { kind: ExprKind::Name(name.clone()), span: matcher.span })
            }
            _ => std::borrow::Cow::Borrowed(matcher),
        }
    }

    /// Records the values of every declaration's attributes, of parameter
    /// defaults and of function arguments.
    pub fn with_recorded_values(mut self, record: bool) -> Self {
        self.record_values = record;
        self
    }

    /// Parameters of the class or defined type whose scope `ctx` runs in
    /// that an expression reads.
    fn parameters_read(&self, expr: &Expr, ctx: &Ctx) -> Vec<ParamRead> {
        let mut reads: Vec<ParamRead> = Vec::new();
        expr.walk(&mut |e| {
            if let ExprKind::Variable(v) = &e.kind {
                if let Some(passed) = self.parameters.get(&(ctx.scope, v.name.to_string())) {
                    if !reads.iter().any(|r| *r.name == *v.name) {
                        reads.push(ParamRead { name: v.name.to_string(), passed: *passed });
                    }
                }
            }
        });
        reads
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
                // `node a inherits b` is refused since Puppet 4 (reported
                // apart); evaluated as Puppet 3 did, so that what `b` sets is
                // not reported again as unbound in `a`.
                let mut inherited = None;
                for parent in self.parent_nodes(site, node) {
                    let parent_entry = self.index.sites[site].nodes[parent];
                    let scope = self.new_scope(ScopeKind::Node, inherited, Some(self.top), None);
                    let ctx =
                        Ctx { scope, path: Vec::new(), file: parent_entry.file, owner: Owner::Node, in_default: false };
                    self.eval_block(&parent_entry.node.body, &ctx);
                    inherited = Some(scope);
                }
                let scope = self.new_scope(ScopeKind::Node, inherited, Some(self.top), None);
                let ctx = Ctx { scope, path: Vec::new(), file: entry.file, owner: Owner::Node, in_default: false };
                self.eval_block(&entry.node.body, &ctx);
            }
            Entry::TopLevel { .. } => {}
            Entry::Unreached { name, .. } => {
                if let Some(def) = self.index.find_type(&name, self.standalone) {
                    let def_loc = def.loc();
                    let ctx = Ctx { file: def.file, ..top_ctx.clone() };
                    if self.index.find_define(&name, self.standalone).is_some() {
                        self.declare_define(&name, None, Vec::new(), def_loc, &ctx, true);
                    } else {
                        self.declare_class(&name, DeclHow::Entry, None, def_loc, &ctx);
                    }
                }
            }
        }
        // A certain `fail()` stops the compilation: no instance runs.
        if !self.dead {
            self.evaluate_pending_defines();
        }
        self.finish_reads();
        self.record_equality_literals();
        self.out.scopes = self.scopes.iter().map(|s| s.kind.clone()).collect();
        self.out
    }

    /// The nodes a node inherits, outermost first (none in a cycle).
    fn parent_nodes(&self, site: usize, node: usize) -> Vec<usize> {
        let nodes = &self.index.sites[site].nodes;
        let mut chain = Vec::new();
        let mut current = node;
        while let Some(parent) = &nodes[current].node.parent {
            let matches = |n: &super::index::NodeEntry<'_>| {
                n.node.matchers.iter().any(|m| match (m, parent) {
                    (NodeMatcher::Name(a, _), NodeMatcher::Name(b, _)) => a.eq_ignore_ascii_case(b),
                    (NodeMatcher::Default(_), NodeMatcher::Default(_)) => true,
                    _ => false,
                })
            };
            // A parent of the same file first (several files may each define it).
            let file = nodes[current].file;
            let found =
                (nodes.iter().position(|n| n.file == file && matches(n))).or_else(|| nodes.iter().position(matches));
            match found {
                Some(p) if p != node && !chain.contains(&p) => {
                    chain.push(p);
                    current = p;
                }
                _ => return Vec::new(),
            }
        }
        chain.reverse();
        chain
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
}
