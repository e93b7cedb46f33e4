//! What the interpreter records: how every variable read resolved, every
//! class and defined-type declaration, every resource, and the events Puppet
//! would fail on. Rules are queries over these records.

use std::collections::BTreeMap;

use super::index::Loc;
use crate::syntax::ParsedFile;

pub type ScopeId = usize;

/// The choices (choice point, branch) a piece of code ran under. Two paths
/// that took different branches of one choice point never both run.
pub type PathCond = Vec<(u32, u16)>;

/// Choice points that test `subject == literal` carry this bit; the bits
/// below it number the subject and, in the low [`LITERAL_BITS`], the
/// literal. Two such tests of one subject with different literals cannot
/// both be true.
pub const EQUALITY_CHOICE: u32 = 1 << 31;
pub const LITERAL_BITS: u32 = 12;

/// The subject of an equality choice point, if it is one.
fn equality_subject(choice: u32) -> Option<u32> {
    (choice & EQUALITY_CHOICE != 0).then_some((choice & !EQUALITY_CHOICE) >> LITERAL_BITS)
}

/// Does a path say that one subject equals two different literals?
fn equal_to_two_literals(atoms: impl Iterator<Item = (u32, u16)> + Clone) -> bool {
    let equal = atoms.filter(|(c, branch)| *branch == 1 && equality_subject(*c).is_some());
    for (i, (a, _)) in equal.clone().enumerate() {
        if equal.clone().skip(i + 1).any(|(b, _)| b != a && equality_subject(a) == equality_subject(b)) {
            return true;
        }
    }
    false
}

/// The family Facter gives an operating system, by its name in lower case,
/// for the systems whose family is certain.
fn os_family(name: &str) -> Option<&'static str> {
    Some(match name {
        "debian" | "ubuntu" | "linuxmint" | "raspbian" | "kali" | "devuan" => "debian",
        "redhat" | "centos" | "fedora" | "scientific" | "oraclelinux" | "amazon" | "cloudlinux" | "rocky"
        | "almalinux" => "redhat",
        "sles" | "sled" | "opensuse" => "suse",
        "gentoo" => "gentoo",
        "archlinux" => "archlinux",
        "freebsd" => "freebsd",
        "darwin" => "darwin",
        "windows" => "windows",
        _ => return None,
    })
}

/// Can both paths run in one compilation?
pub fn compatible(a: &PathCond, b: &PathCond) -> bool {
    if !same_branches(a, b) {
        return false;
    }
    let has_equality = |p: &PathCond| p.last().is_some_and(|(c, _)| c & EQUALITY_CHOICE != 0);
    !(has_equality(a) && has_equality(b) && equal_to_two_literals(a.iter().chain(b.iter()).copied()))
}

/// No choice point taken both ways on one path (code of a defined type
/// declared where `$v` is false, under its own test of `$v`).
pub fn possible(path: &PathCond) -> bool {
    path.windows(2).all(|pair| pair[0].0 != pair[1].0 || pair[0].1 == pair[1].1)
}

/// No choice point taken both ways.
fn same_branches(a: &PathCond, b: &PathCond) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if a[i].1 != b[j].1 {
                    return false;
                }
                i += 1;
                j += 1;
            }
        }
    }
    true
}

/// Both paths' choices together.
pub fn join(a: &[(u32, u16)], b: &[(u32, u16)]) -> PathCond {
    // Most joins add a path to the empty one.
    let in_order = |p: &[(u32, u16)]| p.windows(2).all(|pair| pair[0] < pair[1]);
    if b.is_empty() && in_order(a) {
        return a.to_vec();
    }
    if a.is_empty() && in_order(b) {
        return b.to_vec();
    }
    let mut out: PathCond = a.iter().chain(b).copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The choices both paths share: what is left when code runs on either.
pub fn meet(a: &PathCond, b: &PathCond) -> PathCond {
    a.iter().filter(|c| b.contains(c)).copied().collect()
}

/// A class name, shared by every record that mentions it.
pub type ClassName = std::sync::Arc<str>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeKind {
    Top,
    Node,
    Class(ClassName),
    Define { type_name: ClassName, instance: usize },
    Lambda,
}

/// Whose code is running: what declared a class, resource or instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    Top,
    Node,
    Class(ClassName),
    /// An instance of a defined type, by its number in the compilation.
    Define(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclHow {
    Include,
    Require,
    Contain,
    /// `class { 'x': }`
    ResourceLike,
    /// Declared first because a class inherits from it.
    Inherited,
    /// Evaluated as an entry point of its own.
    Entry,
}

impl DeclHow {
    pub fn verb(self) -> &'static str {
        match self {
            DeclHow::Include => "included",
            DeclHow::Require => "required",
            DeclHow::Contain => "contained",
            DeclHow::ResourceLike => "declared",
            DeclHow::Inherited => "declared as the parent of a derived class",
            DeclHow::Entry => "checked on its own",
        }
    }
}

/// The first declaration of a class in a compilation.
#[derive(Debug, Clone)]
pub struct ClassDecl {
    pub how: DeclHow,
    pub loc: Loc,
    pub by: Owner,
    /// The path the class's code runs under: what every declaration's
    /// path shares.
    pub path: PathCond,
    /// Each declaration's own path, when there are few: the code runs
    /// under one of them. `None` past [`MAX_CLASS_PATHS`].
    pub declared_under: Option<Vec<PathCond>>,
    /// Some declaration surely runs whenever `path` holds: there is one,
    /// or they cover every branch `path` leaves open (`if $x { include a }
    /// else { include a }`), not `if $x { include a } if $y { include a }`.
    pub covers_path: bool,
    /// Declared resource-like on one path and again on a path that excludes
    /// it: its code ran once, with the first declaration's values, which
    /// the other path does not give it, so it never covers its path.
    pub values_vary: bool,
}

/// A class declared on more distinct paths than this keeps only what they
/// share.
pub const MAX_CLASS_PATHS: usize = 16;

/// A class declaration as the code makes it: every `include`, `require`,
/// `contain`, `class { … }` and include function, whether or not the class
/// was declared before.
#[derive(Debug, Clone)]
pub struct Declaration {
    /// The class named, as the index names it; `None` when the name is
    /// not known (`include $role` with an unknown `$role`).
    pub class: Option<String>,
    pub how: DeclHow,
    /// The class name or argument, or the resource-like body's title.
    pub loc: Loc,
    pub by: Owner,
    pub path: PathCond,
}

/// An instance of a defined type.
#[derive(Debug, Clone)]
pub struct DefineInstance {
    /// Declared as an entry point: its parameters come from anyone.
    pub entry: bool,
    /// How many instances declared this one, one inside another.
    pub depth: u32,
    pub type_name: String,
    pub title: Option<String>,
    pub loc: Loc,
    pub by: Owner,
    pub path: PathCond,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ReadOutcome {
    /// Found in a scope of this kind; `binding` is where it was assigned
    /// (none for parameters passed from elsewhere or built-ins).
    Bound {
        kind: ScopeKind,
        binding: Option<Loc>,
    },
    Fact,
    BuiltIn,
    /// Not bound when read, but bound later in a scope the read searches.
    LaterBound {
        kind: ScopeKind,
        binding: Option<Loc>,
    },
    /// Bound nowhere the read could see, even at the end. `elsewhere`: an
    /// assignment in a searched scope on a path that excludes this read.
    Unbound {
        searched: Vec<ScopeKind>,
        elsewhere: Option<Loc>,
    },
}

#[derive(Debug, Clone)]
pub struct Read {
    pub loc: Loc,
    /// As written, without `$`.
    pub name: std::sync::Arc<str>,
    /// Whose code read it.
    pub reader: Owner,
    pub scope: ScopeId,
    pub path: PathCond,
    pub outcome: ReadOutcome,
    /// Read while evaluating a parameter's default value.
    pub in_parameter_default: bool,
    /// In a class parameter's default that the tree's Hiera data replaces:
    /// Puppet may never evaluate it.
    pub default_replaced: bool,
    /// Passed straight to a function that picks a fallback for undef
    /// (`pick_default($::appenv, 'dev')`).
    pub with_fallback: bool,
}

/// How code names a fact it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FactForm {
    /// `$osfamily`: an unqualified variable no scope binds.
    Variable,
    /// `$::osfamily`: a top-scope variable.
    TopScope,
    /// `$facts['osfamily']`.
    FactsHash,
}

/// A read that reached a fact by its top-level name: a variable no scope
/// binds that names a fact, or a literal key of `$facts`.
#[derive(Debug, Clone)]
pub struct FactRead {
    pub loc: Loc,
    /// The fact's name (the key, or the variable without `$` and `::`).
    pub name: std::sync::Arc<str>,
    pub form: FactForm,
    /// A read of a template that code at `loc` renders: the template and
    /// the index of the read among its reads.
    pub template: Option<(std::sync::Arc<super::templates::Template>, usize)>,
}

#[derive(Debug, Clone)]
pub struct ResourceDecl {
    /// Lower-case type name: `file`, `apache::vhost`.
    pub type_name: String,
    pub title: String,
    /// The uniqueness key beside the title (the namevar's value), when the
    /// namevar is set explicitly to something else.
    pub key: Option<String>,
    /// Other names it is known by (`alias => …`).
    pub aliases: Vec<String>,
    pub loc: Loc,
    pub owner: Owner,
    /// Path relative to the owner's own path.
    pub path: PathCond,
    /// The defined-type instance this declaration made, if it made one.
    pub instance: Option<usize>,
    /// The attributes it sets, by name (those of a `default:` body and of
    /// splats with known keys included); `*` for a splat whose keys are
    /// unknown.
    pub attributes: Vec<String>,
    /// Declared for this node's catalog: neither virtual nor exported.
    pub applied: bool,
}

/// A relationship metaparameter of a resource default (`Service { require
/// => Package['x'] }`), which the resources of the type that the same code
/// declares after it take, unless they set it themselves.
#[derive(Debug, Clone)]
pub struct DefaultReference {
    /// Lower-case type name the default is for.
    pub type_name: String,
    pub metaparam: &'static str,
    /// Type and title of each resource it names.
    pub targets: Vec<(String, String)>,
    /// The metaparameter's value.
    pub loc: Loc,
    pub by: Owner,
    /// Path relative to the owner's own path.
    pub path: PathCond,
    /// How many resources the compilation had declared before it.
    pub resources_before: usize,
}

/// An order between two resources that code states: a relationship
/// metaparameter (`require => Package['x']`) or a chaining arrow. Classes
/// are resources of type `class`.
#[derive(Debug, Clone)]
pub struct Relationship {
    /// Type (lower case) and title of the resource applied first.
    pub before: (String, String),
    /// Type and title of the resource applied after it.
    pub after: (String, String),
    /// The metaparameter's value, or the arrow's right operand.
    pub loc: Loc,
    /// `require`, `before`, `notify`, `subscribe`, or the arrow.
    pub via: &'static str,
    pub by: Owner,
    /// Path relative to the owner's own path.
    pub path: PathCond,
}

/// A resource that code needs in the catalog: named by a relationship
/// metaparameter of a resource that is not virtual (`require =>
/// Package['x']`), by an operand of a chaining arrow (`File['x'] ->
/// Service['y']`), by `realize`, or by an override (`File['x'] { … }`).
/// Puppet fails the compilation when no resource of the catalog answers.
#[derive(Debug, Clone)]
pub struct ResourceRef {
    /// Lower-case type name: `package`, `class`, `apache::vhost`.
    pub type_name: String,
    pub title: String,
    /// The reference: the metaparameter's value, the arrow's operand, the
    /// argument of `realize`, the override's reference.
    pub loc: Loc,
    pub by: Owner,
    /// Path relative to the owner's own path.
    pub path: PathCond,
    pub via: RefVia,
    /// For a metaparameter of a virtual resource: its type and titles. The
    /// relationship holds only once one of them is realized.
    pub of_virtual: Option<(String, Vec<String>)>,
}

/// What names a resource that must be in the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefVia {
    /// A relationship metaparameter: `require`, `before`, `notify`, `subscribe`.
    Metaparam(&'static str),
    /// An operand of a chaining arrow.
    Chain,
    /// An argument of `realize`.
    Realize,
    /// `Type['title'] { … }`.
    Override,
}

/// `Type['title'] { … }`: attributes set on a resource declared elsewhere,
/// once it is declared.
#[derive(Debug, Clone)]
pub struct ResourceOverride {
    /// Lower-case type name: `file`, `apache::vhost`.
    pub type_name: String,
    pub title: String,
    /// The attributes it sets, at their names; `*` for a splat.
    pub attributes: Vec<(String, Loc)>,
    /// The reference, `File['title']`.
    pub loc: Loc,
    pub owner: Owner,
    /// Path relative to the owner's own path.
    pub path: PathCond,
}

/// The code Puppet counts as a resource's or an override's origin: the
/// class or defined type (whichever instance), the node, or top scope.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    Main,
    Node,
    Class(ClassName),
    Define(String),
}

#[derive(Debug, Clone)]
pub enum Event {
    /// `$x = …` where `$x` is already bound in the same scope.
    Reassigned {
        name: String,
        loc: Loc,
        first: Option<Loc>,
    },
    /// `class { 'x': }` when `x` is already declared.
    DuplicateClass {
        class: String,
        loc: Loc,
        earlier: Loc,
        /// The conditions only one of the two declarations runs under;
        /// none when both run together whenever either does.
        unshared: PathCond,
    },
    UnknownClass {
        name: String,
        loc: Loc,
    },
    /// A class reached itself through `inherits` while being declared.
    InheritanceLoop {
        class: String,
        loc: Loc,
    },
    /// A node's own code calls a function that is not Puppet's: it may
    /// declare classes the compilation does not see.
    NodeCall {
        name: String,
        loc: Loc,
    },
    /// A selector whose known value matches none of its cases, without a
    /// `default` (at the selector's subject).
    SelectorWithoutMatch {
        value: String,
        loc: Loc,
        /// Whose code holds the selector, for its include chain.
        by: Owner,
    },
    /// A number compared with a version fact Facter gives as a string (at
    /// the number): never equal since Puppet 4; `<` and `>` fail.
    NumberAgainstStringFact {
        /// The fact as the code reads it.
        fact: String,
        /// The numbers as written (the first six), the first at `loc`.
        numbers: Vec<String>,
        loc: Loc,
        how: NumberComparison,
        /// Whose code compares them, for its include chain.
        by: Owner,
    },
    /// Evaluation stopped at a limit (recursive defines, runaway loops).
    Limit {
        what: String,
        loc: Loc,
    },
    /// Defined types that declare each other without end: every step of
    /// the cycle is a statement of its definition's body that runs
    /// whenever the body does, titled by one string.
    EndlessRecursion {
        /// Each step: the type declared and where (a resource body's title),
        /// in the order they declare each other.
        cycle: Vec<(String, Loc)>,
        /// The outermost instance of the recursion, for its include chain.
        outermost: usize,
    },
    /// A class or defined type declared with attributes its definition
    /// has no parameter for, or without one it requires.
    Parameters {
        /// The class or defined type, as the index names it.
        type_name: String,
        class: bool,
        /// The definition the declaration resolved to, at its name.
        definition: Loc,
        /// The declaration: a resource body's title, an `include`'s
        /// argument, the declaration of a class a declared class inherits.
        loc: Loc,
        /// What was declared, for its include chain.
        declared: Owner,
        how: DeclHow,
        /// Given attributes that are not parameters, `name` or a
        /// metaparameter, with the place of their names.
        unknown: Vec<(String, Loc)>,
        /// Parameters without a default that were given no value.
        missing: Vec<String>,
        /// Some attributes come from a splat (`* => $h`) whose keys are
        /// unknown: they may set anything.
        open_splat: bool,
        /// Given values that are not of their parameter's type.
        mismatched: Vec<TypeMismatch>,
    },
    /// A value a call surely gives a parameter of a function of the tree
    /// written in Puppet, or of the call's lambda, that the parameter's
    /// type refuses (a lambda's default included).
    ArgumentMismatch {
        /// `'f'`, or `block` for the lambda, as Puppet names it.
        callee: String,
        /// Where the function is defined.
        definition: Option<Loc>,
        mismatch: TypeMismatch,
    },
    /// A call of one of Puppet's functions whose known arguments no
    /// signature of the function takes (by the types of its parameters).
    BuiltInRefused {
        function: String,
        loc: Loc,
        /// For each signature the call's count of arguments fits, the
        /// first argument its type refuses.
        refusals: Vec<Refusal>,
        /// Each argument, described.
        got: Vec<String>,
    },
}

/// The first argument a signature of a function refuses.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// The argument, by its place (a method call's receiver is 0).
    pub arg: usize,
    pub param: String,
    pub expected: String,
    /// The signature, as Puppet's types and parameter names.
    pub signature: &'static str,
}

/// A value given for a parameter that its declared type refuses.
#[derive(Debug, Clone)]
pub struct TypeMismatch {
    pub param: String,
    /// The parameter's type as written, on one line.
    pub expected: String,
    /// The value, as Puppet describes it (`String '80'`).
    pub got: String,
    /// Where the attribute is given; for a default, where the type is
    /// declared.
    pub loc: Loc,
    /// Where the default is written, when the value refused is the
    /// parameter's default: no value was given for it.
    pub default: Option<Loc>,
}

/// A declaration of a type some policy constrains (or any declaration,
/// when values are recorded), with the values its attributes evaluated to.
#[derive(Debug, Clone)]
pub struct Declared {
    pub type_name: String,
    /// `None` when the title is unknown.
    pub title: Option<String>,
    pub loc: Loc,
    /// Name, place of the value, value.
    pub attributes: Vec<(String, Loc, crate::model::value::Value)>,
    /// Whose code declares it.
    pub owner: Owner,
    /// Exported (`@@type`): the collector may add or replace attributes.
    pub exported: bool,
    /// For attributes (by index) whose value reads a parameter of the
    /// enclosing class or defined type: that parameter (recorded with
    /// values only).
    pub reads: Vec<(usize, ParamRead)>,
}

/// A parameter of the enclosing class or defined type that a value reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamRead {
    pub name: String,
    /// Given at the declaration, rather than taken from its default.
    pub passed: bool,
}

/// A parameter's default value, as evaluated where the default applied
/// (recorded with values only).
#[derive(Debug, Clone)]
pub struct DefaultValue {
    /// The class or defined-type instance whose parameter it is.
    pub owner: Owner,
    /// The class or defined type.
    pub owner_name: String,
    pub param: String,
    /// The default's expression.
    pub at: Loc,
    /// Known even where Hiera data or an unknown declarer may replace it.
    pub value: crate::model::value::Value,
    /// Other parameters of the same definition the default reads.
    pub reads: Vec<ParamRead>,
    /// How many declarations were recorded before it: defaults and
    /// declarations in evaluation order.
    pub order: usize,
}

/// A function call and the values of its arguments (recorded with values,
/// or when a policy constraint asks for calls of the function).
#[derive(Debug, Clone)]
pub struct CallRecord {
    pub name: String,
    /// Whose code calls it.
    pub owner: Owner,
    pub at: Loc,
    pub args: Vec<crate::model::value::Value>,
    /// Variables the arguments read, by name as written (without `$`).
    pub variables: Vec<String>,
}

/// What a `defined(…)` test is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guarded {
    /// `defined(File['/x'])`; `None` when the title is unknown.
    Resource { type_name: String, title: Option<String> },
    /// `defined('x')`, `defined(Class['x'])`: a class or type by name.
    Type(String),
    /// `defined('$x')`.
    Variable(String),
}

/// On a path holding `(choice, branch)`, `what` is defined (or not).
#[derive(Debug, Clone)]
pub struct Guard {
    pub choice: u32,
    pub branch: u16,
    pub what: Guarded,
    pub defined: bool,
}

/// Why this compilation was run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Entry {
    /// A node definition of an environment's site (plus its top-level code).
    Node { site: usize, node: usize },
    /// A site or standalone file without nodes: its top-level code.
    TopLevel { site: usize },
    /// A class or defined type no node reaches, declared from top scope.
    Unreached { name: String, site: Option<usize> },
}

#[derive(Debug, Clone)]
pub struct Compilation {
    pub entry: Entry,
    /// Whether the node scope is known: a node compilation, or a site's
    /// top-level code with no nodes at all.
    pub node_in_view: bool,
    pub scopes: Vec<ScopeKind>,
    /// The reads rules query: those found in node scope, unqualified reads
    /// of top scope by classes and defined types, and those that found
    /// nothing when they ran (`Unbound`, `LaterBound`).
    pub reads: Vec<Read>,
    /// Reads that reached a fact.
    pub fact_reads: Vec<FactRead>,
    pub classes: BTreeMap<String, ClassDecl>,
    /// Every class declaration evaluated, in order.
    pub declarations: Vec<Declaration>,
    pub instances: Vec<DefineInstance>,
    pub resources: Vec<ResourceDecl>,
    /// Overrides of resources' attributes, in evaluation order.
    pub overrides: Vec<ResourceOverride>,
    /// Resources named by relationships.
    pub references: Vec<ResourceRef>,
    /// Resources `realize` names in code that surely runs: type and title.
    pub surely_realized: Vec<(String, String)>,
    /// Code that may not run whatever its path says: a class or defined
    /// type that has called `return()`, `next()` or `break()`, a virtual or
    /// exported instance, and what those or a lambda declared.
    pub may_not_run: std::collections::BTreeSet<Owner>,
    /// Instances of defined types declared virtual or exported: their code
    /// runs only where a collector or `realize` brings them in.
    pub virtual_instances: std::collections::BTreeSet<usize>,
    /// The types that collectors (`Type <| |>`, `Type <<| |>>`) collect;
    /// `*` for a type not written as a name.
    pub collected_types: std::collections::BTreeSet<String>,
    /// Orders stated between resources whose titles are known, by code
    /// that surely runs.
    pub relationships: Vec<Relationship>,
    /// Relationship metaparameters of resource defaults.
    pub default_references: Vec<DefaultReference>,
    /// Types some resources of which this record cannot name: declared
    /// with an unknown title, identity or alias, or collected from other
    /// nodes; `*` when the compilation may declare resources of any type
    /// unseen (an unknown type, a function that declares resources).
    pub open_types: std::collections::BTreeSet<String>,
    /// Resource defaults evaluated (`File { mode => … }`): type and attribute.
    pub resource_defaults: Vec<(String, String)>,
    /// Whose code collects with overrides (`File <| |> { … }`): Puppet then
    /// lets that code's origin override any resource.
    pub collector_overrides: Vec<Owner>,
    /// Declarations of the types policies constrain; every declaration
    /// when values are recorded.
    pub declared: Vec<Declared>,
    /// Parameter defaults evaluated, when values are recorded.
    pub defaults: Vec<DefaultValue>,
    /// Function calls evaluated, when values are recorded.
    pub calls: Vec<CallRecord>,
    pub events: Vec<Event>,
    /// What `defined(…)` tests tell about the paths through them.
    pub guards: Vec<Guard>,
    /// What each choice point tests, to describe its branches in messages
    /// (rendered only for the findings that name them).
    pub labels: std::collections::HashMap<u32, ChoiceLabel>,
    /// The unknown value a choice point tests, where it tests one (an `if`
    /// on it, a `case` on it); equality choices carry theirs in their id.
    pub choice_subjects: std::collections::HashMap<u32, u32>,
    /// For a choice that tests its subject against a list of literals
    /// (`$x in ['a', 'b']`), and for the equality choices on such a subject
    /// (`$x == 'c'`): the literals, normalised, that branch 1 means it
    /// equals one of.
    pub literal_sets: std::collections::HashMap<u32, Vec<String>>,
    /// For a `case` on an unknown value, the options of two literals or
    /// more: the literals, normalised, that taking the option (the branch)
    /// means the value equals one of.
    pub option_sets: std::collections::HashMap<(u32, u16), Vec<String>>,
    /// For a condition `a and b` that holds on a path, the choices its
    /// operands take there: messages name those rather than the whole.
    pub conjuncts: std::collections::HashMap<u32, PathCond>,
    /// Choices that test the OS name or family fact against literals (`==`,
    /// `in [...]`, an `or` of `==`): whether the subject is the family, and
    /// the literals, lower case, branch 1 meaning "one of them".
    pub os_equalities: std::collections::HashMap<u32, (bool, Vec<String>)>,
    /// Choice points testing an unknown value against a regular
    /// expression (`$x =~ /re/`; branch 1: it matches), with the pattern.
    pub regex_tests: std::collections::HashMap<u32, String>,
}

/// What a choice point tests, kept as places in the source.
#[derive(Debug, Clone)]
pub enum ChoiceLabel {
    /// A condition: branch 1 is "true", branch 0 "false".
    /// `inverted`: branch 1 means the condition written at `at` is false
    /// (`$x >= 11` labelling the choice `$x < 11` is true).
    Condition { at: Loc, place: Place, inverted: bool },
    /// `subject == literal`: branch 1 is "equal".
    Equality { at: Loc, place: Place, literal: String },
    /// A `case`: branch `i` is option `i`, which matches any of its values.
    /// `by_equalities[i]`: option `i` and those it follows unmatched hold
    /// literals only, which equality choices on the same value name; not
    /// so past a regex or a variable. `default`: its `default` option.
    Case { subject: Loc, options: Vec<Vec<Loc>>, by_equalities: Vec<bool>, default: Option<u16> },
}

/// Where a condition on local variables is tested: the same text in two
/// scopes is two different values.
#[derive(Debug, Clone)]
pub enum Place {
    /// Reads only top-scope values: the same wherever it is tested.
    Anywhere,
    Class(ClassName),
    /// A defined-type instance, by its number in the compilation.
    Define(usize),
    Node,
}

/// How code compares a string-valued fact with a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberComparison {
    /// `==` or `!=` (the flag): never equal, whatever the fact's value.
    Equality { negated: bool },
    /// `in [7, 8]`: a number in the array never matches.
    InArray,
    /// `case` options that never match.
    CaseOptions,
    /// Selector keys that never match.
    SelectorKeys,
    /// `<`, `<=`, `>` or `>=`, and whether the fact is on its left: Puppet
    /// fails the comparison.
    Ordering { op: &'static str, fact_left: bool },
}

/// Source text on one line, shortened, for messages.
pub fn flat_source(text: &str, at: Loc) -> String {
    let piece = text.get(at.start()..at.end().min(text.len())).unwrap_or("");
    let mut flat = piece.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 60 {
        flat = flat.chars().take(57).collect::<String>() + "...";
    }
    flat
}

/// One step of an include chain: `what` was declared at `loc`.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainStep {
    pub what: String,
    pub how: DeclHow,
    pub loc: Loc,
}

impl Compilation {
    /// Visits every place the record holds.
    pub fn locs_mut(&mut self, f: &mut impl FnMut(&mut Loc)) {
        for read in &mut self.reads {
            f(&mut read.loc);
            match &mut read.outcome {
                ReadOutcome::Bound { binding, .. } | ReadOutcome::LaterBound { binding, .. } => {
                    binding.iter_mut().for_each(&mut *f)
                }
                ReadOutcome::Unbound { elsewhere, .. } => elsewhere.iter_mut().for_each(&mut *f),
                ReadOutcome::Fact | ReadOutcome::BuiltIn => {}
            }
        }
        for read in &mut self.fact_reads {
            f(&mut read.loc);
        }
        for class in self.classes.values_mut() {
            f(&mut class.loc);
        }
        for declaration in &mut self.declarations {
            f(&mut declaration.loc);
        }
        for instance in &mut self.instances {
            f(&mut instance.loc);
        }
        for resource in &mut self.resources {
            f(&mut resource.loc);
        }
        for reference in &mut self.references {
            f(&mut reference.loc);
        }
        for relationship in &mut self.relationships {
            f(&mut relationship.loc);
        }
        for reference in &mut self.default_references {
            f(&mut reference.loc);
        }
        for over in &mut self.overrides {
            f(&mut over.loc);
            over.attributes.iter_mut().for_each(|(_, at)| f(at));
        }
        for declared in &mut self.declared {
            f(&mut declared.loc);
            declared.attributes.iter_mut().for_each(|(_, at, _)| f(at));
        }
        for default in &mut self.defaults {
            f(&mut default.at);
        }
        for call in &mut self.calls {
            f(&mut call.at);
        }
        for event in &mut self.events {
            match event {
                Event::Reassigned { loc, first, .. } => {
                    f(loc);
                    first.iter_mut().for_each(&mut *f);
                }
                Event::DuplicateClass { loc, earlier, .. } => {
                    f(loc);
                    f(earlier);
                }
                Event::UnknownClass { loc, .. }
                | Event::InheritanceLoop { loc, .. }
                | Event::NodeCall { loc, .. }
                | Event::Limit { loc, .. }
                | Event::SelectorWithoutMatch { loc, .. }
                | Event::NumberAgainstStringFact { loc, .. }
                | Event::BuiltInRefused { loc, .. } => f(loc),
                Event::EndlessRecursion { cycle, .. } => cycle.iter_mut().for_each(|(_, at)| f(at)),
                Event::Parameters { definition, loc, unknown, mismatched, .. } => {
                    f(definition);
                    f(loc);
                    unknown.iter_mut().for_each(|(_, at)| f(at));
                    mismatched.iter_mut().for_each(|m| f(&mut m.loc));
                }
                Event::ArgumentMismatch { definition, mismatch, .. } => {
                    definition.iter_mut().for_each(&mut *f);
                    f(&mut mismatch.loc);
                    mismatch.default.iter_mut().for_each(&mut *f);
                }
            }
        }
        for label in self.labels.values_mut() {
            match label {
                ChoiceLabel::Condition { at, .. } | ChoiceLabel::Equality { at, .. } => f(at),
                ChoiceLabel::Case { subject, options, .. } => {
                    f(subject);
                    options.iter_mut().flatten().for_each(&mut *f);
                }
            }
        }
    }

    /// The record of another node whose body is the same text as this
    /// one's: places in `from` (this node's body) move to `to`.
    pub fn moved_to(&self, entry: Entry, from: Loc, to: Loc) -> Compilation {
        self.clone().moved_into(entry, from, to)
    }

    /// [`Compilation::moved_to`], reusing this record.
    pub fn moved_into(self, entry: Entry, from: Loc, to: Loc) -> Compilation {
        let mut moved = self;
        moved.entry = entry;
        moved.locs_mut(&mut |loc| {
            if loc.file() == from.file() && loc.start() >= from.start() && loc.end() <= from.end() {
                *loc =
                    Loc::at(to.file(), loc.start() - from.start() + to.start(), loc.end() - from.start() + to.start());
            }
        });
        moved
    }

    /// Whether two paths need one value to equal literals of two disjoint
    /// sets (`$x in ['6', '7']` and `$x in ['8', '9']`, or `$x == '8'`):
    /// then they never both run. Two equalities alone are [`compatible`]'s.
    pub fn literals_exclude(&self, a: &PathCond, b: &PathCond) -> bool {
        if self.os_facts_exclude(a, b) || self.regex_excludes(a, b) {
            return true;
        }
        let tests_a_set = |p: &PathCond| {
            p.iter().any(|(c, b)| {
                equality_subject(*c).is_none()
                    && (self.literal_sets.contains_key(c) || self.option_sets.contains_key(&(*c, *b)))
            })
        };
        if !tests_a_set(a) && !tests_a_set(b) {
            return false;
        }
        // By subject: the literals it may equal (none said: any), and those
        // it does not equal.
        type Said<'s> = (Option<Vec<&'s str>>, Vec<&'s str>);
        let mut said: BTreeMap<u32, Said<'_>> = BTreeMap::new();
        for (choice, branch) in a.iter().chain(b) {
            // A `case` option taken: the value is one of its literals.
            if let (Some(literals), Some(subject)) =
                (self.option_sets.get(&(*choice, *branch)), self.choice_subjects.get(choice))
            {
                let (may_equal, _) = said.entry(*subject).or_default();
                let mut kept: Vec<&str> = literals.iter().map(String::as_str).collect();
                if let Some(earlier) = may_equal {
                    kept.retain(|l| earlier.contains(l));
                }
                *may_equal = Some(kept);
                continue;
            }
            let Some(literals) = self.literal_sets.get(choice) else { continue };
            let Some(subject) = equality_subject(*choice).or_else(|| self.choice_subjects.get(choice).copied()) else {
                continue;
            };
            let (may_equal, unequal) = said.entry(subject).or_default();
            if *branch == 1 {
                let mut kept: Vec<&str> = literals.iter().map(String::as_str).collect();
                if let Some(earlier) = may_equal {
                    kept.retain(|l| earlier.contains(l));
                }
                *may_equal = Some(kept);
            } else {
                unequal.extend(literals.iter().map(String::as_str));
            }
        }
        said.values()
            .any(|(may_equal, unequal)| may_equal.as_ref().is_some_and(|m| m.iter().all(|l| unequal.contains(l))))
    }

    /// Whether two paths need a value to equal a literal and to match (or
    /// not match) a regular expression that the literal does not (or does):
    /// `$family == 'Gentoo'` with `$family !~ /^(FreeBSD|Gentoo)/`. The
    /// literal is taken as written: values such tests compare, facts above
    /// all, come in one spelling.
    fn regex_excludes(&self, a: &PathCond, b: &PathCond) -> bool {
        if self.regex_tests.is_empty() {
            return false;
        }
        let atoms = || a.iter().chain(b);
        let equal_to = |subject: u32| {
            atoms().filter(move |(c, branch)| *branch == 1 && equality_subject(*c) == Some(subject)).filter_map(
                |(c, _)| match self.labels.get(c) {
                    Some(ChoiceLabel::Equality { literal, .. }) => {
                        Some(literal.strip_prefix('\'').and_then(|l| l.strip_suffix('\'')).unwrap_or(literal))
                    }
                    _ => None,
                },
            )
        };
        atoms().any(|(choice, branch)| {
            let (Some(pattern), Some(subject)) = (self.regex_tests.get(choice), self.choice_subjects.get(choice))
            else {
                return false;
            };
            equal_to(*subject).any(|literal| super::value::regex_match(pattern, literal) == Some(*branch != 1))
        })
    }

    /// Whether two paths need an operating system whose name and family
    /// never go together (`os.name` 'Debian' with `os.family` 'RedHat' or
    /// not 'Debian').
    fn os_facts_exclude(&self, a: &PathCond, b: &PathCond) -> bool {
        if self.os_equalities.is_empty() {
            return false;
        }
        let atoms = || a.iter().chain(b).filter_map(|(c, branch)| Some((self.os_equalities.get(c)?, *branch)));
        // For each test that the name is one of some names: the families
        // those names have (when each name's is certain).
        let families_of_names: Vec<Vec<&str>> = atoms()
            .filter(|((family, _), branch)| !family && *branch == 1)
            .filter_map(|((_, names), _)| names.iter().map(|name| os_family(name)).collect())
            .collect();
        atoms().filter(|((family, _), _)| *family).any(|((_, families), branch)| {
            families_of_names.iter().any(|of_names| {
                let tested = |f: &&str| families.iter().any(|family| family == f);
                if branch == 1 {
                    // The family is one of these, and no name has one.
                    !of_names.iter().any(tested)
                } else {
                    // The family is none of these, and every name has one.
                    of_names.iter().all(tested)
                }
            })
        })
    }

    /// Whether a path holds a guard saying `what` is (`defined`) or is not
    /// defined there.
    pub fn guarded(&self, path: &PathCond, defined: bool, what: impl Fn(&Guarded) -> bool) -> bool {
        // A guard holds on a path that took its branch.
        !path.is_empty()
            && self.guards.iter().any(|g| g.defined == defined && path.contains(&(g.choice, g.branch)) && what(&g.what))
    }

    /// The unknown values a path's choices depend on: two choices on one
    /// value (`$x == 'a'`, `case $x`) count once.
    pub fn subjects(&self, path: &PathCond) -> std::collections::BTreeSet<(bool, u32)> {
        path.iter()
            .map(|(choice, _)| match equality_subject(*choice) {
                Some(subject) => (true, subject),
                None => match self.choice_subjects.get(choice) {
                    Some(subject) => (true, *subject),
                    None => (false, *choice),
                },
            })
            .collect()
    }

    /// The conditions a path runs under, for messages; a `case` option is
    /// left out where an equality on the same value says more.
    pub fn describe_path(&self, path: &PathCond, files: &[ParsedFile]) -> Vec<String> {
        let mut described: Vec<String> = self
            .atoms_to_name(path)
            .into_iter()
            .filter_map(|(choice, branch)| self.describe_branch(choice, branch, files))
            .collect();
        described.dedup();
        described
    }

    /// Whether some condition of a path that messages name has no words.
    pub fn names_partly(&self, path: &PathCond, files: &[ParsedFile]) -> bool {
        self.atoms_to_name(path)
            .into_iter()
            .any(|(choice, branch)| self.describe_branch(choice, branch, files).is_none())
    }

    /// The choices of a path that a message names: not those another says
    /// (a `case` option beside an equality on its value, a value's
    /// inequality to one literal beside its equality to another, a
    /// condition `a and b` beside its operands).
    fn atoms_to_name(&self, path: &PathCond) -> Vec<(u32, u16)> {
        let equalities: Vec<u32> = path.iter().filter_map(|(c, _)| equality_subject(*c)).collect();
        let equal: Vec<u32> = path.iter().filter(|(_, b)| *b == 1).filter_map(|(c, _)| equality_subject(*c)).collect();
        // A `case` option whose meaning the equalities do not say in full
        // (`/^(Debian|Ubuntu)$/`, or `default` past one) keeps its words.
        // Nor does an option of several literals: it is one of them.
        let said_by_equalities = |c: &u32, b: &u16| match self.labels.get(c) {
            Some(ChoiceLabel::Case { by_equalities, options, .. }) => {
                by_equalities.get(usize::from(*b)) == Some(&true)
                    && options.get(usize::from(*b)).is_none_or(|values| values.len() < 2)
            }
            _ => true,
        };
        // Its `default` says every other option unmatched: the inequalities
        // to their literals go without saying.
        let matching_none: Vec<u32> = path
            .iter()
            .filter(|(c, b)| !said_by_equalities(c, b))
            .filter(|(c, b)| matches!(self.labels.get(c), Some(ChoiceLabel::Case { default: Some(d), .. }) if d == b))
            .filter_map(|(c, _)| self.choice_subjects.get(c).copied())
            .collect();
        // The lists a value is said to be in (a `case` option of several
        // literals, `in [...]` true): its inequality to a literal outside
        // goes without saying.
        let listed: Vec<(u32, &Vec<String>)> = path
            .iter()
            .filter(|(c, _)| equality_subject(*c).is_none())
            .filter_map(|(c, b)| {
                let set = self
                    .option_sets
                    .get(&(*c, *b))
                    .or_else(|| (*b == 1).then(|| self.literal_sets.get(c)).flatten())?;
                Some((*self.choice_subjects.get(c)?, set))
            })
            .collect();
        let outside_a_list = |c: u32, subject: u32| {
            let Some([key]) = self.literal_sets.get(&c).map(Vec::as_slice) else { return false };
            listed.iter().any(|(s, set)| *s == subject && !set.contains(key))
        };
        path.iter()
            .filter(|(c, b)| match equality_subject(*c) {
                Some(subject) if *b == 0 && outside_a_list(*c, subject) => false,
                Some(subject) => *b == 1 || !(equal.contains(&subject) || matching_none.contains(&subject)),
                // A regular expression's or a list's test is said only by
                // the value's equality to a literal, not by its inequality
                // to others.
                None if self.regex_tests.contains_key(c) || self.literal_sets.contains_key(c) => {
                    self.choice_subjects.get(c).is_none_or(|subject| !equal.contains(subject))
                }
                None => {
                    self.choice_subjects.get(c).is_none_or(|subject| !equalities.contains(subject))
                        || !said_by_equalities(c, b)
                }
            })
            .filter(|atom| !self.named_by_conjuncts(atom, path))
            .copied()
            .collect()
    }

    /// Whether `a and b` holding is said on `path` by its operands.
    pub fn named_by_conjuncts(&self, &(choice, branch): &(u32, u16), path: &PathCond) -> bool {
        branch == 1 && self.conjuncts.get(&choice).is_some_and(|parts| parts.iter().all(|p| path.contains(p)))
    }

    /// What taking `branch` at `choice` means.
    fn describe_branch(&self, choice: u32, branch: u16, files: &[ParsedFile]) -> Option<String> {
        let text = |at: Loc| flat_source(&files[at.file()].source.text, at);
        Some(match self.labels.get(&choice)? {
            ChoiceLabel::Condition { at, place, inverted } => {
                let truth = if (branch == 1) != *inverted { "true" } else { "false" };
                format!("`{}`{} is {truth}", text(*at), self.describe_place(place))
            }
            ChoiceLabel::Equality { at, place, literal } => {
                let is = if branch == 1 { "is" } else { "is not" };
                format!("`{}`{} {is} {literal}", text(*at), self.describe_place(place))
            }
            ChoiceLabel::Case { subject, options, .. } => {
                let shown: Vec<String> = options.get(usize::from(branch))?.iter().map(|m| text(*m)).collect();
                if shown.iter().all(|m| m == "default") {
                    // `default:` is taken when no other option matches.
                    let others: Vec<String> =
                        options.iter().flatten().map(|m| text(*m)).filter(|m| m != "default").collect();
                    format!("`{}` matches none of {}", text(*subject), others.join(", "))
                } else {
                    format!("`{}` matches {}", text(*subject), shown.join(", "))
                }
            }
        })
    }

    fn describe_place(&self, place: &Place) -> String {
        match place {
            Place::Anywhere => String::new(),
            Place::Class(name) => format!(" in class `{name}`"),
            Place::Define(i) => match self.instances.get(*i) {
                Some(DefineInstance { type_name, title: Some(title), .. }) => format!(" in {type_name}['{title}']"),
                Some(instance) => format!(" in `{}`", instance.type_name),
                None => String::new(),
            },
            Place::Node => " in the node".to_string(),
        }
    }

    /// An entry point checked on its own: who really declares it, and with
    /// which parameters, is unknown, so only what holds whatever the
    /// declarer does is reported from it.
    pub fn hypothetical(&self) -> bool {
        matches!(self.entry, Entry::Unreached { .. })
    }

    /// Whether `owner` is the class or defined type checked on its own.
    pub fn is_entry_owner(&self, owner: &Owner) -> bool {
        match (&self.entry, owner) {
            (Entry::Unreached { name, .. }, Owner::Class(class)) => **class == **name,
            (Entry::Unreached { .. }, Owner::Define(i)) => self.instances.get(*i).is_some_and(|d| d.entry),
            _ => false,
        }
    }

    /// Whether the compilation may have declared classes mplint cannot
    /// name: `include $c` or `class { $c: }` with `$c` unknown, or a call
    /// of a function that may declare anything (`create_resources`, a
    /// site's own Ruby function).
    pub fn may_declare_unnamed_classes(&self) -> bool {
        self.declarations.iter().any(|d| d.class.is_none())
            || self.open_types.contains("class")
            || self.open_types.contains("*")
    }

    /// The origin Puppet gives what an owner's code declares.
    pub fn source(&self, owner: &Owner) -> Option<Source> {
        Some(match owner {
            Owner::Top => Source::Main,
            Owner::Node => Source::Node,
            Owner::Class(name) => Source::Class(name.clone()),
            Owner::Define(i) => Source::Define(self.instances.get(*i)?.type_name.clone()),
        })
    }

    /// The path an owner's code runs under.
    /// Whether an owner's code surely runs whenever its path holds: each
    /// class on the way to it covers its path.
    pub fn runs_on_its_path(&self, owner: &Owner) -> bool {
        let mut current = owner;
        // Bounded: each class is declared once, each instance by an earlier one.
        for _ in 0..(self.classes.len() + self.instances.len() + 1) {
            current = match current {
                Owner::Top | Owner::Node => return true,
                Owner::Class(name) => match self.classes.get(&**name) {
                    Some(decl) if decl.covers_path => &decl.by,
                    Some(_) => return false,
                    None => return true,
                },
                Owner::Define(i) => match self.instances.get(*i) {
                    Some(instance) => &instance.by,
                    None => return true,
                },
            };
        }
        true
    }

    /// The virtual or exported instance whose code holds an owner's, if
    /// one does (the outermost).
    pub fn within_virtual_instance(&self, owner: &Owner) -> Option<usize> {
        if self.virtual_instances.is_empty() {
            return None;
        }
        let mut found = None;
        let mut current = owner;
        for _ in 0..(self.classes.len() + self.instances.len() + 1) {
            current = match current {
                Owner::Top | Owner::Node => break,
                Owner::Class(name) => match self.classes.get(&**name) {
                    Some(decl) => &decl.by,
                    None => break,
                },
                Owner::Define(i) => {
                    if self.virtual_instances.contains(i) {
                        found = Some(*i);
                    }
                    match self.instances.get(*i) {
                        Some(instance) => &instance.by,
                        None => break,
                    }
                }
            };
        }
        found
    }

    /// Whether an owner's code runs because the unreached class or
    /// defined type this compilation checks was declared.
    pub fn within_entry(&self, owner: &Owner) -> bool {
        let mut current = owner;
        for _ in 0..(self.classes.len() + self.instances.len() + 1) {
            if self.is_entry_owner(current) {
                return true;
            }
            current = match current {
                Owner::Top | Owner::Node => return false,
                Owner::Class(name) => match self.classes.get(&**name) {
                    Some(decl) => &decl.by,
                    None => return false,
                },
                Owner::Define(i) => match self.instances.get(*i) {
                    Some(instance) => &instance.by,
                    None => return false,
                },
            };
        }
        false
    }

    /// Whether some collector or `realize` may bring in a virtual or
    /// exported instance.
    pub fn may_realize(&self, instance: usize) -> bool {
        let Some(type_name) = self.instances.get(instance).map(|i| &i.type_name) else { return true };
        self.collected_types.contains("*")
            || self.collected_types.contains(type_name)
            || self.references.iter().any(|r| matches!(r.via, RefVia::Realize) && r.type_name == *type_name)
    }

    pub fn owner_path(&self, owner: &Owner) -> PathCond {
        self.owner_path_ref(owner).to_vec()
    }

    /// As [`Compilation::owner_path`], without a copy.
    pub fn owner_path_ref(&self, owner: &Owner) -> &[(u32, u16)] {
        match owner {
            Owner::Top | Owner::Node => &[],
            Owner::Class(name) => self.classes.get(&**name).map_or(&[], |c| c.path.as_slice()),
            Owner::Define(i) => self.instances.get(*i).map_or(&[], |d| d.path.as_slice()),
        }
    }

    /// How the compilation reached an owner's code, outermost first.
    pub fn chain(&self, owner: &Owner) -> Vec<ChainStep> {
        let mut steps = Vec::new();
        let mut current = owner.clone();
        // Bounded: each class is declared once, so a chain cannot revisit one.
        for _ in 0..(self.classes.len() + self.instances.len() + 1) {
            let (step, by) = match &current {
                Owner::Class(name) => match self.classes.get(&**name) {
                    Some(decl) => (ChainStep { what: name.to_string(), how: decl.how, loc: decl.loc }, decl.by.clone()),
                    None => break,
                },
                Owner::Define(i) => match self.instances.get(*i) {
                    Some(inst) => {
                        let what = match &inst.title {
                            Some(t) => format!("{}['{t}']", inst.type_name),
                            None => inst.type_name.clone(),
                        };
                        (ChainStep { what, how: DeclHow::ResourceLike, loc: inst.loc }, inst.by.clone())
                    }
                    None => break,
                },
                Owner::Top | Owner::Node => break,
            };
            steps.push(step);
            current = by;
        }
        steps.reverse();
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        let a = vec![(1, 0), (3, 1)];
        let b = vec![(1, 0), (2, 0)];
        let c = vec![(1, 1)];
        assert!(compatible(&a, &b));
        assert!(!compatible(&a, &c));
        assert!(compatible(&a, &Vec::new()));
        // A path taking one choice both ways never runs.
        assert!(!possible(&join(&b, &c)) && possible(&a));
        assert_eq!(join(&a, &b), vec![(1, 0), (2, 0), (3, 1)]);
        assert_eq!(meet(&a, &b), vec![(1, 0)]);
    }

    #[test]
    fn one_subject_equals_one_literal_at_a_time() {
        let debian = EQUALITY_CHOICE | (7 << LITERAL_BITS) | 1;
        let redhat = EQUALITY_CHOICE | (7 << LITERAL_BITS) | 2;
        let other_subject = EQUALITY_CHOICE | (8 << LITERAL_BITS) | 1;
        assert!(!compatible(&vec![(debian, 1)], &vec![(redhat, 1)]));
        assert!(compatible(&vec![(debian, 1)], &vec![(redhat, 0)]));
        assert!(compatible(&vec![(debian, 0)], &vec![(redhat, 0)]));
        assert!(!compatible(&vec![(debian, 1)], &vec![(debian, 0)]));
        assert!(compatible(&vec![(debian, 1)], &vec![(other_subject, 1)]));
        assert!(!compatible(&vec![(3, 1), (debian, 1)], &vec![(2, 0), (redhat, 1)]));
    }
}
