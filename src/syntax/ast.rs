//! The typed syntax tree of a Puppet manifest.
//!
//! Everything in Puppet is an expression, definitions included, so a
//! manifest is a list of [`Expr`]. Each node carries its [`Span`].

use super::source::Span;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub statements: Vec<Expr>,
    /// Every comment, `#` and `/* */`, in order.
    pub comments: Vec<Span>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Block {
    pub statements: Vec<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ExprKind {
    Variable(Variable),
    /// A bare word: `present`, `foo::bar`.
    Name(String),
    /// A capitalised type reference: `File`, `Apache::Vhost`.
    TypeRef(String),
    Number(Number),
    Boolean(bool),
    Undef,
    Default,
    Str(StringLit),
    /// The pattern between the slashes, with `\/` unescaped.
    Regex(String),
    Array(Vec<Expr>),
    Hash(Vec<Pair>),
    /// `attr` and `private`, reserved for future use.
    Reserved(String),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Selector {
        value: Box<Expr>,
        entries: Vec<SelectorEntry>,
    },
    Access {
        object: Box<Expr>,
        index: Vec<Expr>,
    },
    Call(Box<Call>),
    MethodCall(Box<MethodCall>),
    Collector(Box<Collector>),
    Paren(Box<Expr>),
    /// `key => value` given as an argument or array entry (an unfolded hash).
    Pair(Box<Pair>),
    If(Box<If>),
    /// `unless`: the first branch runs when its condition is false.
    Unless(Box<If>),
    Case(Box<Case>),
    Assignment {
        op: AssignOp,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    Relationship {
        op: EdgeOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Resource(Box<Resource>),
    /// `File { mode => '0644' }`.
    ResourceDefaults(Box<ResourceDefaults>),
    /// `File['x'] { mode => '0600' }`.
    ResourceOverride(Box<ResourceDefaults>),
    Apply(Box<Apply>),
    Class(Box<ClassDef>),
    Define(Box<DefineDef>),
    Node(Box<NodeDef>),
    Function(Box<FunctionDef>),
    Plan(Box<DefineDef>),
    TypeAlias(Box<TypeAlias>),
    TypeDefinition(Box<TypeDefinition>),
}

/// A variable reference, without its `$`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Variable {
    /// As written after `$`: `x`, `::x`, `a::b::x`, `0`. Shared: the model
    /// records every read of it.
    pub name: std::sync::Arc<str>,
}

/// `0` or a decimal without leading zero: the names of match variables.
pub fn is_decimal(name: &str) -> bool {
    name == "0" || (!name.starts_with('0') && !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
}

/// Why Puppet refuses a variable name, if it does.
pub fn variable_name_problem(name: &str) -> Option<&'static str> {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return (!is_decimal(name))
            .then_some("a name starting with a digit must be a decimal number without leading zeros");
    }
    let mut segments: Vec<&str> = name.split("::").collect();
    if segments.first() == Some(&"") {
        segments.remove(0);
    }
    let Some((last, namespaces)) = segments.split_last() else { return Some("it is empty") };
    let valid = |s: &str, first_ok: fn(char) -> bool| {
        s.chars().next().is_some_and(first_ok) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let namespaces_ok = namespaces.iter().all(|s| valid(s, |c| c.is_ascii_lowercase()));
    let last_ok = valid(last, |c| c.is_ascii_lowercase() || c == '_');
    (!(namespaces_ok && last_ok)).then_some(
        "names start with a lower-case letter (the last segment also with `_`) and hold letters, digits and `_`",
    )
}

impl Variable {
    /// `$::x` reads top scope only.
    pub fn is_top_scope(&self) -> bool {
        self.name.starts_with("::")
    }

    /// `$a::b::x` or `$::x`.
    pub fn is_qualified(&self) -> bool {
        self.name.is_qualified()
    }

    /// The name without a leading `::`.
    pub fn unanchored(&self) -> &str {
        self.name.without_anchor()
    }

    /// For `$a::b::x`: (`a::b`, `x`); for `$::x`: (``, `x`); unqualified: None.
    pub fn split_scope(&self) -> Option<(&str, &str)> {
        let name = self.unanchored();
        // A byte search: `rfind("::")` builds a substring searcher per call.
        match name.as_bytes().windows(2).rposition(|pair| pair == b"::") {
            Some(i) => Some((&name[..i], &name[i + 2..])),
            None if self.is_top_scope() => Some(("", name)),
            None => None,
        }
    }

    /// `$0` … `$n`: regex match results.
    pub fn is_match_variable(&self) -> bool {
        !self.name.is_empty() && self.name.bytes().all(|b| b.is_ascii_digit())
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Number {
    Integer(i64),
    Float(f64),
    /// Too large for Puppet's 64-bit integers; kept as written.
    Overflow(String),
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StringLit {
    pub parts: Vec<StringPart>,
    pub kind: StringKind,
}

impl StringLit {
    /// The text when nothing is interpolated.
    pub fn as_literal(&self) -> Option<String> {
        let mut text = String::new();
        for part in &self.parts {
            match part {
                StringPart::Text(t) => text.push_str(t),
                StringPart::Interpolation(_) => return None,
            }
        }
        Some(text)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum StringKind {
    SingleQuoted,
    DoubleQuoted,
    /// `@(TAG:syntax/escapes)`.
    Heredoc {
        syntax: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum StringPart {
    /// Text with escapes resolved.
    Text(String),
    /// `$x` or `${expr}`; `${x}` and `${x[1]}` read variables, as in Puppet.
    Interpolation(Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UnaryOp {
    Not,
    Negate,
    Splat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BinaryOp {
    Or,
    And,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    ShiftLeft,
    ShiftRight,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Match,
    NotMatch,
    In,
}

impl BinaryOp {
    /// The operator as written.
    pub fn token(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Or => "or",
            And => "and",
            Less => "<",
            LessEqual => "<=",
            Greater => ">",
            GreaterEqual => ">=",
            Equal => "==",
            NotEqual => "!=",
            ShiftLeft => "<<",
            ShiftRight => ">>",
            Add => "+",
            Subtract => "-",
            Multiply => "*",
            Divide => "/",
            Modulo => "%",
            Match => "=~",
            NotMatch => "!~",
            In => "in",
        }
    }

    pub fn from_token(token: &str) -> Option<Self> {
        use BinaryOp::*;
        Some(match token {
            "or" => Or,
            "and" => And,
            "<" => Less,
            "<=" => LessEqual,
            ">" => Greater,
            ">=" => GreaterEqual,
            "==" => Equal,
            "!=" => NotEqual,
            "<<" => ShiftLeft,
            ">>" => ShiftRight,
            "+" => Add,
            "-" => Subtract,
            "*" => Multiply,
            "/" => Divide,
            "%" => Modulo,
            "=~" => Match,
            "!~" => NotMatch,
            "in" => In,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AssignOp {
    Assign,
    Append,
    Delete,
}

/// Relationship arrows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EdgeOp {
    /// `->`
    Before,
    /// `~>`
    Notify,
    /// `<-`
    Require,
    /// `<~`
    Subscribe,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pair {
    pub key: Expr,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SelectorEntry {
    pub matcher: Expr,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Call {
    pub name: String,
    pub name_span: Span,
    pub args: Vec<Expr>,
    pub lambda: Option<Lambda>,
    /// False for statement calls such as `include a, b`.
    pub parenthesized: bool,
    /// `notify { message => 'x' }`: a resource without a title, which
    /// Puppet reads as a name and a hash, not as a call (unless the name
    /// is a statement function such as `notice`).
    pub untitled_resource: bool,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodCall {
    pub object: Expr,
    pub method: String,
    pub method_span: Span,
    pub args: Vec<Expr>,
    pub lambda: Option<Lambda>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Lambda {
    pub params: Vec<Parameter>,
    pub return_type: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

impl Lambda {
    /// How many arguments it takes: its parameters without a default, and
    /// all of them (`None` when the last captures the rest).
    pub fn arguments_taken(&self) -> (usize, Option<usize>) {
        let least = self.params.iter().filter(|p| p.default.is_none() && !p.captures_rest).count();
        let most = (!self.params.iter().any(|p| p.captures_rest)).then_some(self.params.len());
        (least, most)
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Collector {
    pub type_expr: Expr,
    /// `<<| |>>` collects exported resources; `<| |>` virtual ones.
    pub exported: bool,
    pub query: Option<Expr>,
    pub overrides: Vec<Attribute>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct If {
    /// `if`/`elsif` branches in order.
    pub branches: Vec<Branch>,
    pub else_body: Option<Block>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Branch {
    pub condition: Expr,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    pub value: Expr,
    pub options: Vec<CaseOption>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CaseOption {
    pub matches: Vec<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ResourceForm {
    Regular,
    /// `@type { … }`
    Virtual,
    /// `@@type { … }`
    Exported,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Resource {
    pub form: ResourceForm,
    /// A `Name` (`file`, `class`), a `TypeRef` (`Notify`) or an `Access`
    /// (`Resource['file']`).
    pub type_expr: Expr,
    pub bodies: Vec<ResourceBody>,
}

impl Resource {
    /// The resource type's name in lower case (`file`, `class`,
    /// `apache::vhost`), when it is written out.
    pub fn type_name(&self) -> Option<String> {
        match &self.type_expr.kind {
            ExprKind::Name(n) | ExprKind::TypeRef(n) => Some(n.without_anchor().to_ascii_lowercase()),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ResourceBody {
    pub title: Expr,
    pub attributes: Vec<Attribute>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ResourceDefaults {
    pub type_expr: Expr,
    pub attributes: Vec<Attribute>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Attribute {
    /// The attribute name; `*` for an attribute splat `* => $hash`.
    pub name: String,
    pub name_span: Span,
    pub op: AttributeOp,
    pub value: Expr,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AttributeOp {
    /// `=>`
    Set,
    /// `+>`
    Append,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Parameter {
    /// Without `$`.
    pub name: String,
    pub name_span: Span,
    pub type_expr: Option<Expr>,
    pub default: Option<Expr>,
    pub captures_rest: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClassDef {
    /// As written, without a leading `::`.
    pub name: String,
    pub name_span: Span,
    pub params: Vec<Parameter>,
    pub parent: Option<(String, Span)>,
    pub body: Block,
}

/// A defined type (`define`) or a plan (`plan`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DefineDef {
    pub name: String,
    pub name_span: Span,
    pub params: Vec<Parameter>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FunctionDef {
    pub name: String,
    pub name_span: Span,
    pub params: Vec<Parameter>,
    pub return_type: Option<Expr>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NodeDef {
    pub matchers: Vec<NodeMatcher>,
    pub parent: Option<NodeMatcher>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum NodeMatcher {
    /// A host name, quoted or not.
    Name(String, Span),
    Regex(String, Span),
    Default(Span),
    /// A double-quoted name with an interpolation, which Puppet refuses;
    /// `at` is the first interpolated expression.
    Interpolated {
        span: Span,
        at: Span,
    },
}

impl NodeMatcher {
    pub fn span(&self) -> Span {
        match self {
            NodeMatcher::Name(_, s)
            | NodeMatcher::Regex(_, s)
            | NodeMatcher::Default(s)
            | NodeMatcher::Interpolated { span: s, .. } => *s,
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TypeAlias {
    pub name: String,
    pub name_span: Span,
    /// `type Runtime[ruby, 'X'] = …` maps a runtime type: the index of the
    /// left side (empty for an ordinary alias).
    pub mapping: Vec<Expr>,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TypeDefinition {
    pub name: String,
    pub name_span: Span,
    pub parent: Option<(String, Span)>,
    pub body: Block,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Apply {
    pub args: Vec<Expr>,
    pub body: Block,
}

impl Expr {
    /// The lambda of a call or method call.
    pub fn lambda(&self) -> Option<&Lambda> {
        match &self.kind {
            ExprKind::Call(call) => call.lambda.as_ref(),
            ExprKind::MethodCall(call) => call.lambda.as_ref(),
            _ => None,
        }
    }

    /// The statement blocks this expression owns directly: the bodies of a
    /// definition, of each branch, of a lambda, in source order.
    pub fn blocks(&self) -> Vec<&Block> {
        fn lambda(l: &Option<Lambda>) -> Option<&Block> {
            l.as_ref().map(|l| &l.body)
        }
        match &self.kind {
            ExprKind::Call(call) => lambda(&call.lambda).into_iter().collect(),
            ExprKind::MethodCall(call) => lambda(&call.lambda).into_iter().collect(),
            ExprKind::If(i) | ExprKind::Unless(i) => {
                i.branches.iter().map(|b| &b.body).chain(i.else_body.as_ref()).collect()
            }
            ExprKind::Case(c) => c.options.iter().map(|o| &o.body).collect(),
            ExprKind::Apply(a) => vec![&a.body],
            ExprKind::Class(c) => vec![&c.body],
            ExprKind::Define(d) | ExprKind::Plan(d) => vec![&d.body],
            ExprKind::Function(f) => vec![&f.body],
            ExprKind::Node(n) => vec![&n.body],
            ExprKind::TypeDefinition(t) => vec![&t.body],
            _ => Vec::new(),
        }
    }

    /// Visits this expression and every expression inside it, in source
    /// order, definitions' bodies included.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        self.walk_dyn(f);
    }

    fn walk_dyn<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        let block = |b: &'a Block, f: &mut dyn FnMut(&'a Expr)| {
            for s in &b.statements {
                s.walk_dyn(f);
            }
        };
        let params = |ps: &'a [Parameter], f: &mut dyn FnMut(&'a Expr)| {
            for p in ps {
                if let Some(t) = &p.type_expr {
                    t.walk_dyn(f);
                }
                if let Some(d) = &p.default {
                    d.walk_dyn(f);
                }
            }
        };
        let lambda = |l: &'a Option<Lambda>, f: &mut dyn FnMut(&'a Expr)| {
            if let Some(l) = l {
                params(&l.params, f);
                block(&l.body, f);
            }
        };
        let attributes = |attrs: &'a [Attribute], f: &mut dyn FnMut(&'a Expr)| {
            for a in attrs {
                a.value.walk_dyn(f);
            }
        };
        match &self.kind {
            ExprKind::Variable(_)
            | ExprKind::Name(_)
            | ExprKind::TypeRef(_)
            | ExprKind::Number(_)
            | ExprKind::Boolean(_)
            | ExprKind::Undef
            | ExprKind::Default
            | ExprKind::Regex(_)
            | ExprKind::Reserved(_) => {}
            ExprKind::Str(s) => {
                for part in &s.parts {
                    if let StringPart::Interpolation(e) = part {
                        e.walk_dyn(f);
                    }
                }
            }
            ExprKind::Array(items) => items.iter().for_each(|e| e.walk_dyn(f)),
            ExprKind::Hash(pairs) => pairs.iter().for_each(|p| {
                p.key.walk_dyn(f);
                p.value.walk_dyn(f);
            }),
            ExprKind::Pair(p) => {
                p.key.walk_dyn(f);
                p.value.walk_dyn(f);
            }
            ExprKind::Unary { operand, .. } => operand.walk_dyn(f),
            ExprKind::Paren(inner) => inner.walk_dyn(f),
            ExprKind::Binary { left, right, .. }
            | ExprKind::Assignment { target: left, value: right, .. }
            | ExprKind::Relationship { left, right, .. } => {
                left.walk_dyn(f);
                right.walk_dyn(f);
            }
            ExprKind::Selector { value, entries } => {
                value.walk_dyn(f);
                for entry in entries {
                    entry.matcher.walk_dyn(f);
                    entry.value.walk_dyn(f);
                }
            }
            ExprKind::Access { object, index } => {
                object.walk_dyn(f);
                index.iter().for_each(|e| e.walk_dyn(f));
            }
            ExprKind::Call(call) => {
                call.args.iter().for_each(|e| e.walk_dyn(f));
                lambda(&call.lambda, f);
            }
            ExprKind::MethodCall(call) => {
                call.object.walk_dyn(f);
                call.args.iter().for_each(|e| e.walk_dyn(f));
                lambda(&call.lambda, f);
            }
            ExprKind::Collector(c) => {
                c.type_expr.walk_dyn(f);
                if let Some(q) = &c.query {
                    q.walk_dyn(f);
                }
                attributes(&c.overrides, f);
            }
            ExprKind::If(i) | ExprKind::Unless(i) => {
                for b in &i.branches {
                    b.condition.walk_dyn(f);
                    block(&b.body, f);
                }
                if let Some(e) = &i.else_body {
                    block(e, f);
                }
            }
            ExprKind::Case(c) => {
                c.value.walk_dyn(f);
                for o in &c.options {
                    o.matches.iter().for_each(|e| e.walk_dyn(f));
                    block(&o.body, f);
                }
            }
            ExprKind::Resource(r) => {
                r.type_expr.walk_dyn(f);
                for b in &r.bodies {
                    b.title.walk_dyn(f);
                    attributes(&b.attributes, f);
                }
            }
            ExprKind::ResourceDefaults(d) | ExprKind::ResourceOverride(d) => {
                d.type_expr.walk_dyn(f);
                attributes(&d.attributes, f);
            }
            ExprKind::Apply(a) => {
                a.args.iter().for_each(|e| e.walk_dyn(f));
                block(&a.body, f);
            }
            ExprKind::Class(c) => {
                params(&c.params, f);
                block(&c.body, f);
            }
            ExprKind::Define(d) | ExprKind::Plan(d) => {
                params(&d.params, f);
                block(&d.body, f);
            }
            ExprKind::Function(func) => {
                params(&func.params, f);
                block(&func.body, f);
            }
            ExprKind::Node(n) => block(&n.body, f),
            ExprKind::TypeAlias(t) => t.value.walk_dyn(f),
            ExprKind::TypeDefinition(t) => block(&t.body, f),
        }
    }
}

/// What names need asked of their text, written out: `trim_start_matches`
/// and `contains` with a `&str` pattern build a substring searcher per
/// call, and names are asked on every lookup.
pub trait NameText {
    /// The name without its leading `::` (`::apache` is `apache`).
    fn without_anchor(&self) -> &str;
    /// Whether the name holds `::` (`apache::mod`).
    fn is_qualified(&self) -> bool;
}

impl NameText for str {
    fn without_anchor(&self) -> &str {
        let mut name = self;
        while let Some(rest) = name.strip_prefix("::") {
            name = rest;
        }
        name
    }

    fn is_qualified(&self) -> bool {
        self.as_bytes().windows(2).any(|pair| pair == b"::")
    }
}
