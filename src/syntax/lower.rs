//! Lowering of the concrete tree-sitter tree into the typed syntax tree.
//!
//! Runs only on trees without syntax errors. Recursion follows the tree's
//! depth, bounded by [`MAX_NESTING`].

use std::collections::HashMap;

use tree_sitter::Node;

use super::ast::*;
use super::source::{Position, SourceFile, Span};
use super::MAX_NESTING;

/// Deepest nesting of class definitions analysed: a nested class's name
/// holds every outer one's, so names grow with the square of the depth.
const MAX_CLASS_NESTING: usize = 100;

/// The grammar's field ids by name: finding a field by its name scans
/// every field name of the grammar.
static FIELD_IDS: std::sync::LazyLock<rustc_hash::FxHashMap<&'static str, u16>> = std::sync::LazyLock::new(|| {
    let language = super::language();
    (1..=language.field_count() as u16).filter_map(|id| language.field_name_for_id(id).map(|name| (name, id))).collect()
});

/// The grammar's node kinds by id: `Node::kind` measures and checks the
/// name's bytes on every call, and lowering asks it of every node.
static KIND_NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let language = super::language();
    (0..language.node_kind_count() as u16).map(|id| language.node_kind_for_id(id).unwrap_or("")).collect()
});

/// The node's kind, as `Node::kind` names it.
fn kind_of(node: Node<'_>) -> &'static str {
    KIND_NAMES.get(usize::from(node.kind_id())).copied().unwrap_or("")
}

/// The child in the field `name`, as `Node::child_by_field_name` finds it.
fn child_by_field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_id(*FIELD_IDS.get(name)?)
}

/// A construct the grammar accepts but Puppet's parser rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct LowerError {
    pub span: Span,
    pub message: String,
}

type Result<T> = std::result::Result<T, LowerError>;

pub fn lower(root: Node<'_>, source: &SourceFile) -> Result<Manifest> {
    let lowerer = Lowerer::new(root, source)?;
    let statements = lowerer.block_statements(root)?;
    Ok(Manifest { statements, comments: lowerer.comments })
}

struct Lowerer<'t, 's> {
    source: &'s SourceFile,
    /// Heredoc bodies by the id of the `heredoc_start` token they belong to.
    heredoc_bodies: HashMap<usize, Node<'t>>,
    comments: Vec<Span>,
}

/// The comments in the tree, in order. A subtree whose text has no `#`
/// and no `/` holds none: the walk does not enter it.
fn comments_of(root: Node<'_>, source: &SourceFile) -> Vec<Span> {
    let text = source.text.as_bytes();
    let may_hold_comment = |node: Node<'_>| memchr::memchr2(b'#', b'/', &text[node.byte_range()]).is_some();
    let mut comments = Vec::new();
    if !may_hold_comment(root) {
        return comments;
    }
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if kind_of(node) == "comment" {
            comments.push(source.span(node.start_byte(), node.end_byte()));
        }
        if may_hold_comment(node) && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    comments
}

/// Named children that are not comments or heredoc bodies.
fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| !c.is_extra()).collect()
}

impl<'t, 's> Lowerer<'t, 's> {
    /// One iterative walk over the tree: pairs heredocs with their bodies and
    /// refuses trees deeper than [`MAX_NESTING`] before anything recurses.
    fn new(root: Node<'t>, source: &'s SourceFile) -> Result<Self> {
        let has_heredocs = source.text.contains("@(");
        // Most files can hold neither a tree too deep (it has fewer nodes
        // than the limit) nor classes nested too deep (fewer `class` words),
        // nor heredocs: their comments are all the walk looks for.
        let shallow = root.descendant_count() <= MAX_NESTING
            && memchr::memmem::find_iter(source.text.as_bytes(), b"class").nth(MAX_CLASS_NESTING).is_none();
        if shallow && !has_heredocs {
            return Ok(Lowerer { source, heredoc_bodies: HashMap::new(), comments: comments_of(root, source) });
        }
        let mut starts = Vec::new();
        let mut bodies = Vec::new();
        let mut cursor = root.walk();
        let mut depth = 0usize;
        let mut deepest = 0usize;
        let mut first_too_deep = None;
        let mut comments = Vec::new();
        // The depths of the class definitions around the node: each nested
        // class's name holds its outer ones' (`a::b::c`).
        let mut classes: Vec<usize> = Vec::new();
        let mut first_class_too_deep = None;
        'walk: loop {
            let node = cursor.node();
            if kind_of(node) == "class_definition" {
                classes.push(depth);
                if classes.len() > MAX_CLASS_NESTING && first_class_too_deep.is_none() {
                    first_class_too_deep = Some(node);
                }
            }
            if kind_of(node) == "comment" {
                comments.push(source.span(node.start_byte(), node.end_byte()));
            }
            if has_heredocs {
                match kind_of(node) {
                    "heredoc_start" => starts.push(node),
                    "heredoc_body" => bodies.push(node),
                    _ => {}
                }
            }
            deepest = deepest.max(depth);
            if depth > MAX_NESTING && first_too_deep.is_none() {
                first_too_deep = Some(node);
            }
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                // Leaving the node: it no longer encloses what comes next.
                while classes.last().is_some_and(|&d| d >= depth) {
                    classes.pop();
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
                depth -= 1;
            }
        }
        if let Some(node) = first_class_too_deep {
            return Err(LowerError {
                span: source.span(node.start_byte(), node.end_byte()),
                message: format!(
                    "class definitions nest more than {MAX_CLASS_NESTING} deep here; the file was parsed but not analysed"
                ),
            });
        }
        if let Some(node) = first_too_deep {
            return Err(LowerError {
                span: source.span(node.start_byte(), node.end_byte()),
                message: format!(
                    "the code nests {deepest} levels deep, more than the {MAX_NESTING} mplint analyses; the file was parsed but not analysed"
                ),
            });
        }
        let heredoc_bodies = starts.iter().map(|s| s.id()).zip(bodies).collect();
        Ok(Lowerer { source, heredoc_bodies, comments })
    }

    fn text(&self, node: Node<'_>) -> &'s str {
        &self.source.text[node.byte_range()]
    }

    fn span(&self, node: Node<'_>) -> Span {
        // Where every character is a byte, the parser's rows and byte
        // columns are the positions: no search of the line index.
        if self.source.lines.is_ascii() {
            let position =
                |point: tree_sitter::Point| Position { line: point.row as u32 + 1, column: point.column as u32 + 1 };
            return Span {
                start: node.start_byte(),
                end: node.end_byte(),
                start_pos: position(node.start_position()),
                end_pos: position(node.end_position()),
            };
        }
        self.source.span(node.start_byte(), node.end_byte())
    }

    fn error<T>(&self, node: Node<'_>, message: impl Into<String>) -> Result<T> {
        Err(LowerError { span: self.span(node), message: message.into() })
    }

    fn field(&self, node: Node<'t>, name: &str) -> Result<Node<'t>> {
        match child_by_field(node, name) {
            Some(child) => Ok(child),
            None => self.error(node, format!("malformed {}: no {name}", kind_of(node))),
        }
    }

    /// A type alias's value; `Object { … }` (a type followed by a hash)
    /// stands for `Object[{ … }]`.
    fn type_alias_value(&self, node: Node<'t>) -> Result<Expr> {
        let value = self.expr_field(node, "value")?;
        let Some(body) = child_by_field(node, "body") else { return Ok(value) };
        let body = self.expr(body)?;
        let span = value.span.to(body.span);
        Ok(Expr { kind: ExprKind::Access { object: Box::new(value), index: vec![body] }, span })
    }

    fn expr_field(&self, node: Node<'t>, name: &str) -> Result<Expr> {
        self.expr(self.field(node, name)?)
    }

    /// Expressions of a list (arguments, array items, an access's keys).
    fn statements(&self, node: Node<'t>) -> Result<Vec<Expr>> {
        children(node).into_iter().map(|c| self.expr(c)).collect()
    }

    /// The statements of a manifest or a block: a bare orchestration
    /// keyword there is what is left of an orchestration statement.
    /// Elsewhere it is a plain word (`Enum[site]`, `notice(site)`).
    fn block_statements(&self, node: Node<'t>) -> Result<Vec<Expr>> {
        children(node)
            .into_iter()
            .map(|c| {
                let expr = self.expr(c)?;
                match &expr.kind {
                    ExprKind::Name(name) if ORCHESTRATION_KEYWORDS.contains(&name.as_str()) => {
                        self.error(c, orchestration_message(name))
                    }
                    _ => Ok(expr),
                }
            })
            .collect()
    }

    fn block(&self, node: Node<'t>) -> Result<Block> {
        Ok(Block { statements: self.block_statements(node)?, span: self.span(node) })
    }

    fn boxed(&self, node: Node<'t>) -> Result<Box<Expr>> {
        Ok(Box::new(self.expr(node)?))
    }

    fn expr(&self, node: Node<'t>) -> Result<Expr> {
        let span = self.span(node);
        let kind = match kind_of(node) {
            "variable" => ExprKind::Variable(Variable { name: self.text(node)[1..].into() }),
            "name" | "hostname" => ExprKind::Name(self.text(node).to_string()),
            "type_name" => ExprKind::TypeRef(self.text(node).to_string()),
            "number" => {
                // Puppet's lexer wants a number to end at a word boundary:
                // `7d` is one illegal number, not `7` and a name.
                let rest = &self.source.text[node.end_byte()..];
                let glued = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
                let written = &self.source.text[node.start_byte()..node.end_byte() + glued];
                if let Some(message) = invalid_number(written) {
                    return self.error(node, message);
                }
                ExprKind::Number(parse_number(self.text(node)))
            }
            "boolean" => ExprKind::Boolean(self.text(node) == "true"),
            "undef" => ExprKind::Undef,
            "default" => ExprKind::Default,
            "reserved_word" => ExprKind::Reserved(self.text(node).to_string()),
            "regex" => ExprKind::Regex(regex_pattern(self.text(node))),
            "string" => ExprKind::Str(self.string(node)?),
            "heredoc" => ExprKind::Str(self.heredoc(node)?),
            // `[a => 1, b => 2]` holds one hash, as call arguments do.
            "array" => ExprKind::Array(fold_pairs(self.statements(node)?)),
            "hash" => ExprKind::Hash(children(node).into_iter().map(|p| self.pair(p)).collect::<Result<_>>()?),
            "pair" => ExprKind::Pair(Box::new(self.pair(node)?)),
            "parenthesized" => match children(node).first() {
                Some(inner) => ExprKind::Paren(self.boxed(*inner)?),
                None => return self.error(node, "empty parentheses"),
            },
            "unary" => {
                let op = match self.text(self.field(node, "operator")?) {
                    "!" => UnaryOp::Not,
                    "-" => UnaryOp::Negate,
                    _ => UnaryOp::Splat,
                };
                ExprKind::Unary { op, operand: Box::new(self.expr_field(node, "operand")?) }
            }
            "binary" => {
                let operator = self.field(node, "operator")?;
                let Some(op) = BinaryOp::from_token(self.text(operator)) else {
                    return self.error(operator, "unknown operator");
                };
                ExprKind::Binary {
                    op,
                    left: Box::new(self.expr_field(node, "left")?),
                    right: Box::new(self.expr_field(node, "right")?),
                }
            }
            "selector" => {
                let entries = children(node)
                    .into_iter()
                    .filter(|c| kind_of(*c) == "selector_entry")
                    .map(|e| {
                        Ok(SelectorEntry { matcher: self.expr_field(e, "match")?, value: self.expr_field(e, "value")? })
                    })
                    .collect::<Result<_>>()?;
                ExprKind::Selector { value: Box::new(self.expr_field(node, "value")?), entries }
            }
            "access" => ExprKind::Access {
                object: Box::new(self.expr_field(node, "object")?),
                index: self.statements(self.field(node, "index")?)?,
            },
            "function_call" => {
                let function = self.field(node, "function")?;
                let mut args = fold_pairs(self.statements(self.field(node, "arguments")?)?);
                // `Integer[0, 9]('5')` calls `new` with the type first.
                let name = if kind_of(function) == "access" {
                    args.insert(0, self.expr(function)?);
                    "new".to_string()
                } else {
                    self.text(function).to_string()
                };
                ExprKind::Call(Box::new(Call {
                    name,
                    name_span: self.span(function),
                    args,
                    lambda: self.optional_lambda(node)?,
                    parenthesized: true,
                    untitled_resource: false,
                }))
            }
            "statement_call" => {
                let function = self.field(node, "function")?;
                let args = match child_by_field(node, "arguments") {
                    Some(args) => fold_pairs(self.statements(args)?),
                    None => Vec::new(),
                };
                ExprKind::Call(Box::new(Call {
                    name: self.text(function).to_string(),
                    name_span: self.span(function),
                    args,
                    lambda: None,
                    parenthesized: false,
                    untitled_resource: false,
                }))
            }
            "method_call" => {
                let method = self.field(node, "method")?;
                let args = match child_by_field(node, "arguments") {
                    Some(args) => fold_pairs(self.statements(args)?),
                    None => Vec::new(),
                };
                ExprKind::MethodCall(Box::new(MethodCall {
                    object: self.expr_field(node, "object")?,
                    method: self.text(method).to_string(),
                    method_span: self.span(method),
                    args,
                    lambda: self.optional_lambda(node)?,
                }))
            }
            "collector" => {
                let kind = self.field(node, "kind")?;
                let query = match child_by_field(node, "query") {
                    Some(q) => Some(self.expr(q)?),
                    None => None,
                };
                let overrides = match child_by_field(node, "attributes") {
                    Some(a) => self.attributes(a)?,
                    None => Vec::new(),
                };
                ExprKind::Collector(Box::new(Collector {
                    type_expr: self.expr_field(node, "type")?,
                    exported: self.text(kind) == "<<|",
                    query,
                    overrides,
                }))
            }
            "if" => ExprKind::If(Box::new(self.conditional(node)?)),
            "unless" => ExprKind::Unless(Box::new(self.conditional(node)?)),
            "case" => {
                let options = children(node)
                    .into_iter()
                    .filter(|c| kind_of(*c) == "case_option")
                    .map(|o| {
                        Ok(CaseOption {
                            matches: self.statements(self.field(o, "matches")?)?,
                            body: self.block(self.field(o, "body")?)?,
                            span: self.span(o),
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                if options.is_empty() {
                    // Puppet's grammar wants an option before the `}`.
                    let close = node.child(node.child_count().saturating_sub(1) as _).unwrap_or(node);
                    return self.error(close, "unexpected '}': a `case` needs at least one option");
                }
                ExprKind::Case(Box::new(Case { value: self.expr_field(node, "value")?, options }))
            }
            "assignment" => {
                let op = match self.text(self.field(node, "operator")?) {
                    "=" => AssignOp::Assign,
                    "+=" => AssignOp::Append,
                    _ => AssignOp::Delete,
                };
                ExprKind::Assignment {
                    op,
                    target: Box::new(self.expr_field(node, "left")?),
                    value: Box::new(self.expr_field(node, "right")?),
                }
            }
            "relationship" => {
                let op = match self.text(self.field(node, "operator")?) {
                    "->" => EdgeOp::Before,
                    "~>" => EdgeOp::Notify,
                    "<-" => EdgeOp::Require,
                    _ => EdgeOp::Subscribe,
                };
                ExprKind::Relationship {
                    op,
                    left: Box::new(self.expr_field(node, "left")?),
                    right: Box::new(self.expr_field(node, "right")?),
                }
            }
            "resource_declaration" => ExprKind::Resource(Box::new(self.resource(node)?)),
            "resource_defaults" => return self.resource_without_title(node),
            "apply_block" => {
                let body = self.field(node, "body")?;
                let args = children(node)
                    .into_iter()
                    .filter(|c| c.id() != body.id())
                    .map(|c| self.expr(c))
                    .collect::<Result<_>>()?;
                ExprKind::Apply(Box::new(Apply { args, body: self.block(body)? }))
            }
            "class_definition" => {
                let name = self.field(node, "name")?;
                let parent = child_by_field(node, "parent").map(|p| (self.class_name(p), self.span(p)));
                ExprKind::Class(Box::new(ClassDef {
                    name: self.class_name(name),
                    name_span: self.span(name),
                    params: self.parameters(node)?,
                    parent,
                    body: self.block(self.field(node, "body")?)?,
                }))
            }
            "define_definition" | "plan_definition" => {
                let name = self.field(node, "name")?;
                let def = Box::new(DefineDef {
                    name: self.class_name(name),
                    name_span: self.span(name),
                    params: self.parameters(node)?,
                    body: self.block(self.field(node, "body")?)?,
                });
                if kind_of(node) == "plan_definition" {
                    ExprKind::Plan(def)
                } else {
                    ExprKind::Define(def)
                }
            }
            "function_definition" => {
                let name = self.field(node, "name")?;
                let return_type = match child_by_field(node, "return_type") {
                    Some(r) => Some(self.return_type(r)?),
                    None => None,
                };
                ExprKind::Function(Box::new(FunctionDef {
                    name: self.class_name(name),
                    name_span: self.span(name),
                    params: self.parameters(node)?,
                    return_type,
                    body: self.block(self.field(node, "body")?)?,
                }))
            }
            "node_definition" => {
                let matchers = children(self.field(node, "matchers")?)
                    .into_iter()
                    .map(|m| self.node_matcher(m))
                    .collect::<Result<_>>()?;
                let parent = match child_by_field(node, "parent") {
                    Some(p) => Some(self.node_matcher(p)?),
                    None => None,
                };
                ExprKind::Node(Box::new(NodeDef { matchers, parent, body: self.block(self.field(node, "body")?)? }))
            }
            "type_alias" => {
                let name = self.field(node, "name")?;
                let (name_node, mapping) = if kind_of(name) == "access" {
                    (self.field(name, "object")?, self.statements(self.field(name, "index")?)?)
                } else {
                    (name, Vec::new())
                };
                ExprKind::TypeAlias(Box::new(TypeAlias {
                    name: self.class_name(name_node),
                    name_span: self.span(name_node),
                    mapping,
                    value: self.type_alias_value(node)?,
                }))
            }
            "type_definition" => {
                let name = self.field(node, "name")?;
                let parent = child_by_field(node, "parent").map(|p| (self.class_name(p), self.span(p)));
                ExprKind::TypeDefinition(Box::new(TypeDefinition {
                    name: self.class_name(name),
                    name_span: self.span(name),
                    parent,
                    body: self.block(self.field(node, "body")?)?,
                }))
            }
            other => return self.error(node, format!("unexpected {other}")),
        };
        Ok(Expr { kind, span })
    }

    fn class_name(&self, node: Node<'_>) -> String {
        self.text(node).without_anchor().to_string()
    }

    fn pair(&self, node: Node<'t>) -> Result<Pair> {
        Ok(Pair { key: self.expr_field(node, "key")?, value: self.expr_field(node, "value")? })
    }

    fn optional_lambda(&self, node: Node<'t>) -> Result<Option<Lambda>> {
        let Some(lambda) = child_by_field(node, "lambda") else {
            return Ok(None);
        };
        let return_type = match child_by_field(lambda, "return_type") {
            Some(r) => Some(self.return_type(r)?),
            None => None,
        };
        Ok(Some(Lambda {
            params: self.parameter_nodes(lambda)?,
            return_type,
            body: self.block(self.field(lambda, "body")?)?,
            span: self.span(lambda),
        }))
    }

    fn return_type(&self, node: Node<'t>) -> Result<Expr> {
        match children(node).first() {
            Some(t) => self.expr(*t),
            None => self.error(node, "missing return type"),
        }
    }

    fn parameters(&self, definition: Node<'t>) -> Result<Vec<Parameter>> {
        match child_by_field(definition, "parameters") {
            Some(list) => self.parameter_nodes(list),
            None => Ok(Vec::new()),
        }
    }

    fn parameter_nodes(&self, list: Node<'t>) -> Result<Vec<Parameter>> {
        children(list)
            .into_iter()
            .filter(|c| kind_of(*c) == "parameter")
            .map(|p| {
                let name = self.field(p, "name")?;
                let type_expr = match child_by_field(p, "type") {
                    Some(t) => Some(self.expr(t)?),
                    None => None,
                };
                let default = match child_by_field(p, "default") {
                    Some(d) => Some(self.expr(d)?),
                    None => None,
                };
                Ok(Parameter {
                    name: self.text(name)[1..].to_string(),
                    name_span: self.span(name),
                    type_expr,
                    default,
                    captures_rest: child_by_field(p, "captures_rest").is_some(),
                    span: self.span(p),
                })
            })
            .collect()
    }

    fn conditional(&self, node: Node<'t>) -> Result<If> {
        let mut branches = vec![Branch {
            condition: self.expr_field(node, "condition")?,
            body: self.block(self.field(node, "consequence")?)?,
        }];
        let mut else_body = None;
        let mut cursor = node.walk();
        for alternative in node.children_by_field_name("alternative", &mut cursor) {
            if kind_of(alternative) == "elsif" {
                branches.push(Branch {
                    condition: self.expr_field(alternative, "condition")?,
                    body: self.block(self.field(alternative, "consequence")?)?,
                });
            } else {
                else_body = Some(self.block(self.field(alternative, "body")?)?);
            }
        }
        Ok(If { branches, else_body })
    }

    fn resource(&self, node: Node<'t>) -> Result<Resource> {
        let form = match child_by_field(node, "form").map(|f| self.text(f)) {
            Some("@") => ResourceForm::Virtual,
            Some("@@") => ResourceForm::Exported,
            _ => ResourceForm::Regular,
        };
        let bodies = children(node)
            .into_iter()
            .filter(|c| kind_of(*c) == "resource_body")
            .map(|b| {
                let attributes = match children(b).into_iter().find(|c| kind_of(*c) == "attributes") {
                    Some(a) => self.attributes(a)?,
                    None => Vec::new(),
                };
                Ok(ResourceBody { title: self.expr_field(b, "title")?, attributes, span: self.span(b) })
            })
            .collect::<Result<_>>()?;
        Ok(Resource { form, type_expr: self.expr_field(node, "type")?, bodies })
    }

    /// `Type { … }` sets defaults, `Type[title] { … }` overrides; a lower-case
    /// name with a hash is, as in Puppet, a call of that function.
    fn resource_without_title(&self, node: Node<'t>) -> Result<Expr> {
        let span = self.span(node);
        let type_node = self.field(node, "type")?;
        let type_expr = self.expr(type_node)?;
        let attributes = match children(node).into_iter().find(|c| kind_of(*c) == "attributes") {
            Some(a) => self.attributes(a)?,
            None => Vec::new(),
        };
        let kind = match &type_expr.kind {
            ExprKind::TypeRef(_) => ExprKind::ResourceDefaults(Box::new(ResourceDefaults { type_expr, attributes })),
            ExprKind::Access { .. } => ExprKind::ResourceOverride(Box::new(ResourceDefaults { type_expr, attributes })),
            ExprKind::Name(name) if ORCHESTRATION_KEYWORDS.contains(&name.as_str()) => {
                return self.error(type_node, orchestration_message(name));
            }
            ExprKind::Name(name) if name != "class" && attributes.iter().all(|a| a.op == AttributeOp::Set) => {
                let entries = attributes
                    .into_iter()
                    .map(|a| Pair {
                        key: Expr {
                            kind: ExprKind::Str(StringLit {
                                parts: vec![StringPart::Text(a.name)],
                                kind: StringKind::SingleQuoted,
                            }),
                            span: a.name_span,
                        },
                        value: a.value,
                    })
                    .collect();
                let hash_span = span;
                ExprKind::Call(Box::new(Call {
                    name: name.clone(),
                    name_span: type_expr.span,
                    args: vec![Expr { kind: ExprKind::Hash(entries), span: hash_span }],
                    lambda: None,
                    parenthesized: false,
                    untitled_resource: !STATEMENT_FUNCTIONS.contains(&name.as_str()),
                }))
            }
            ExprKind::Name(_) => return self.error(node, "resource body without a title"),
            // `$type { mode => '0644' }`: Puppet's parser rejects it.
            _ => {
                return self
                    .error(type_node, "Expression is not valid as a resource, resource-default, or resource-override")
            }
        };
        Ok(Expr { kind, span })
    }

    fn attributes(&self, node: Node<'t>) -> Result<Vec<Attribute>> {
        children(node)
            .into_iter()
            .filter(|c| kind_of(*c) == "attribute")
            .map(|a| {
                let name = self.field(a, "name")?;
                let op = match self.text(self.field(a, "operator")?) {
                    "+>" => AttributeOp::Append,
                    _ => AttributeOp::Set,
                };
                Ok(Attribute {
                    name: self.text(name).to_string(),
                    name_span: self.span(name),
                    op,
                    value: self.expr_field(a, "value")?,
                    span: self.span(a),
                })
            })
            .collect()
    }

    fn node_matcher(&self, node: Node<'t>) -> Result<NodeMatcher> {
        let span = self.span(node);
        Ok(match kind_of(node) {
            "default" => NodeMatcher::Default(span),
            "regex" => NodeMatcher::Regex(regex_pattern(self.text(node)), span),
            "string" => {
                let string = self.string(node)?;
                match string.as_literal() {
                    Some(text) => NodeMatcher::Name(text, span),
                    None => {
                        let at = string.parts.iter().find_map(|p| match p {
                            StringPart::Interpolation(e) => Some(e.span),
                            StringPart::Text(_) => None,
                        });
                        NodeMatcher::Interpolated { span, at: at.unwrap_or(span) }
                    }
                }
            }
            _ => NodeMatcher::Name(self.text(node).to_string(), span),
        })
    }

    fn string(&self, node: Node<'t>) -> Result<StringLit> {
        let text = self.text(node);
        if text.starts_with('\'') {
            return Ok(StringLit {
                parts: vec![StringPart::Text(unescape_single_quoted(&text[1..text.len() - 1]))],
                kind: StringKind::SingleQuoted,
            });
        }
        let mut parts = Parts::default();
        for child in children(node) {
            match kind_of(child) {
                "string_content" => parts.push_text(self.text(child)),
                "escape_sequence" => parts.push_text(&unescape(self.text(child))),
                _ => parts.push_interpolation(self.interpolated(child)?),
            }
        }
        Ok(StringLit { parts: parts.finish(), kind: StringKind::DoubleQuoted })
    }

    /// `$x` or `${…}` inside a string or heredoc.
    fn interpolated(&self, node: Node<'t>) -> Result<Expr> {
        if kind_of(node) == "variable" {
            return self.expr(node);
        }
        match children(node).first() {
            Some(inner) => Ok(interpolate(self.expr(*inner)?)),
            None => self.error(node, "empty interpolation"),
        }
    }

    fn heredoc(&self, node: Node<'t>) -> Result<StringLit> {
        let Some(start) = children(node).into_iter().find(|c| kind_of(*c) == "heredoc_start") else {
            return self.error(node, "malformed heredoc");
        };
        let header = HeredocHeader::parse(self.text(start));
        let Some(body) = self.heredoc_bodies.get(&start.id()).copied() else {
            return self.error(start, "heredoc has no text: its body must start on the next line");
        };
        let body_children = children(body);
        let end = body_children.iter().find(|c| kind_of(**c) == "heredoc_end");
        let end_text = end.map_or("", |e| self.text(*e));
        let (margin, trim) = end_line_markers(end_text);

        let mut parts = Parts::default();
        let mut at_line_start = true;
        for child in &body_children {
            match kind_of(*child) {
                "heredoc_content" => {
                    let raw = self.text(*child);
                    parts.push_text(&strip_margin(raw, margin, at_line_start));
                    at_line_start = raw.ends_with('\n');
                }
                "escape_sequence" => {
                    let raw = self.text(*child);
                    parts.push_text(&unescape(raw));
                    at_line_start = raw.ends_with('\n');
                }
                "heredoc_end" => {}
                _ => {
                    parts.push_interpolation(self.interpolated(*child)?);
                    at_line_start = false;
                }
            }
        }
        let mut parts = parts.finish();
        if trim {
            if let Some(StringPart::Text(last)) = parts.last_mut() {
                if last.ends_with("\r\n") {
                    last.truncate(last.len() - 2);
                } else if last.ends_with('\n') {
                    last.truncate(last.len() - 1);
                }
            }
            if parts.len() > 1 && parts.last() == Some(&StringPart::Text(String::new())) {
                parts.pop();
            }
        }
        Ok(StringLit { parts, kind: StringKind::Heredoc { syntax: header.syntax } })
    }
}

/// Names Puppet calls as functions when arguments follow without
/// parentheses (`notice { … }` is a call with a hash, `notify { … }` is not).
const STATEMENT_FUNCTIONS: &[&str] = &[
    "include", "require", "contain", "realize", "tag", "debug", "info", "notice", "warning", "err", "fail", "import",
    "break", "next", "return",
];

/// Keywords of the application orchestration language that Puppet 6 removed.
pub(crate) const ORCHESTRATION_KEYWORDS: &[&str] = &["application", "site", "consumes", "produces"];

pub(super) fn orchestration_message(keyword: &str) -> String {
    format!("'{keyword}' belongs to application orchestration, which Puppet 6 removed; mplint does not support it")
}

/// Accumulates string parts, merging adjacent text.
#[derive(Default)]
struct Parts {
    parts: Vec<StringPart>,
}

impl Parts {
    fn push_text(&mut self, text: &str) {
        if let Some(StringPart::Text(last)) = self.parts.last_mut() {
            last.push_str(text);
        } else {
            self.parts.push(StringPart::Text(text.to_string()));
        }
    }

    fn push_interpolation(&mut self, expr: Expr) {
        self.parts.push(StringPart::Interpolation(expr));
    }

    fn finish(self) -> Vec<StringPart> {
        if self.parts.is_empty() {
            vec![StringPart::Text(String::new())]
        } else {
            self.parts
        }
    }
}

/// Puppet reads `${x}`, `${x[1]}` and `${x.m}` as `$x`, `$x[1]`, `$x.m`: a
/// name or number at the head of the interpolation is a variable, alone or
/// followed by `[` or `.`. The grammar gives a keyword there (`${in['a']}`)
/// as a name too.
fn interpolate(expr: Expr) -> Expr {
    let span = expr.span;
    let kind = match expr.kind {
        ExprKind::Name(name) => ExprKind::Variable(Variable { name: name.into() }),
        ExprKind::Number(Number::Integer(_)) | ExprKind::Number(Number::Overflow(_)) => {
            return number_as_variable(expr);
        }
        kind => return leading_chain_as_variable(Expr { kind, span }),
    };
    Expr { kind, span }
}

/// The head of the access or method call that starts `expr` as a variable,
/// as in `${x['a'] + 1}` or `${x.m ? { … }}`; a head followed by anything else
/// (`${x + 1}`) stays a bare word, as Puppet reads it.
fn leading_chain_as_variable(expr: Expr) -> Expr {
    let span = expr.span;
    let kind = match expr.kind {
        ExprKind::Access { object, index } if is_rewritable_head(&object) => {
            ExprKind::Access { object: Box::new(interpolate(*object)), index }
        }
        ExprKind::MethodCall(mut call) if is_rewritable_head(&call.object) => {
            call.object = interpolate(call.object);
            ExprKind::MethodCall(call)
        }
        ExprKind::Binary { op, left, right } => {
            ExprKind::Binary { op, left: Box::new(leading_chain_as_variable(*left)), right }
        }
        ExprKind::Selector { value, entries } => {
            ExprKind::Selector { value: Box::new(leading_chain_as_variable(*value)), entries }
        }
        ExprKind::Relationship { op, left, right } => {
            ExprKind::Relationship { op, left: Box::new(leading_chain_as_variable(*left)), right }
        }
        kind => kind,
    };
    Expr { kind, span }
}

fn is_rewritable_head(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Name(_) | ExprKind::Number(_) => true,
        ExprKind::Access { object, .. } => is_rewritable_head(object),
        ExprKind::MethodCall(call) => is_rewritable_head(&call.object),
        _ => false,
    }
}

fn number_as_variable(expr: Expr) -> Expr {
    let name = match &expr.kind {
        ExprKind::Number(Number::Integer(n)) => n.to_string(),
        ExprKind::Number(Number::Overflow(text)) => text.clone(),
        _ => return expr,
    };
    Expr { kind: ExprKind::Variable(Variable { name: name.into() }), span: expr.span }
}

/// Parses a number as Puppet does: `0x1F` hex, `0755` octal, decimals and floats.
/// What Puppet's lexer says of a number as written up to the next word
/// boundary, when it refuses it: a bad hex or octal number, or letters
/// glued to digits.
pub(super) fn invalid_number(written: &str) -> Option<String> {
    let bytes = written.as_bytes();
    if written.starts_with("0x") || written.starts_with("0X") {
        let digits = &written[2..];
        return (digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| format!("Not a valid hex number {written}"));
    }
    if bytes.len() > 1 && bytes[0] == b'0' && bytes[1] != b'.' {
        return (!written[1..].bytes().all(|b| (b'0'..=b'7').contains(&b)))
            .then(|| format!("Not a valid octal number {written}"));
    }
    let decimal = written.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-'));
    (!decimal).then(|| format!("Illegal number '{written}'"))
}

pub fn parse_number(text: &str) -> Number {
    let overflow = || Number::Overflow(text.to_string());
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).map_or_else(|_| overflow(), Number::Integer);
    }
    if text.contains(['.', 'e', 'E']) {
        return text.parse::<f64>().map_or_else(|_| overflow(), Number::Float);
    }
    if text.len() > 1 && text.starts_with('0') {
        return i64::from_str_radix(&text[1..], 8).map_or_else(|_| overflow(), Number::Integer);
    }
    text.parse::<i64>().map_or_else(|_| overflow(), Number::Integer)
}

fn regex_pattern(text: &str) -> String {
    let inner = text.strip_prefix('/').and_then(|t| t.strip_suffix('/')).unwrap_or(text);
    inner.replace("\\/", "/")
}

/// In single quotes only `\\` and `\'` are escapes.
fn unescape_single_quoted(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next) = chars.peek() {
                if next == '\\' || next == '\'' {
                    out.push(next);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// Decodes one escape sequence token (`\n`, `\u{1F600}`, `\` + newline, …).
fn unescape(raw: &str) -> String {
    let body = &raw[1..];
    match body {
        "n" => "\n".into(),
        "t" => "\t".into(),
        "r" => "\r".into(),
        "s" => " ".into(),
        "\n" | "\r\n" => String::new(),
        _ if body.starts_with('u') => {
            let digits = body[1..].trim_start_matches('{').trim_end_matches('}');
            u32::from_str_radix(digits, 16)
                .ok()
                .and_then(char::from_u32)
                .map_or_else(|| raw.to_string(), |c| c.to_string())
        }
        _ => body.to_string(),
    }
}

struct HeredocHeader {
    syntax: Option<String>,
}

impl HeredocHeader {
    fn parse(text: &str) -> Self {
        let inner = text.trim_start_matches("@(").trim_end_matches(')');
        let syntax = inner.split_once(':').map(|(_, rest)| {
            let syntax = rest.split('/').next().unwrap_or("");
            syntax.trim().to_string()
        });
        HeredocHeader { syntax }
    }
}

/// The margin before `|` and whether `-` trims the last line break, from
/// the end line `   | - END`.
fn end_line_markers(end: &str) -> (Option<&str>, bool) {
    let leading_len = end.len() - end.trim_start_matches(is_blank).len();
    let rest = &end[leading_len..];
    let (margin, rest) = match rest.strip_prefix('|') {
        Some(after) => (Some(&end[..leading_len]), after.trim_start_matches(is_blank)),
        None => (None, rest),
    };
    (margin.filter(|m| !m.is_empty()), rest.starts_with('-'))
}

/// A blank as Puppet's `[[:blank:]]`: tab and the Unicode space separators.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

/// Removes the margin from every line of a heredoc text segment.
fn strip_margin(raw: &str, margin: Option<&str>, starts_line: bool) -> String {
    let Some(margin) = margin else {
        return raw.to_string();
    };
    let mut out = String::with_capacity(raw.len());
    for (i, line) in raw.split_inclusive('\n').enumerate() {
        if i > 0 || starts_line {
            out.push_str(line.strip_prefix(margin).unwrap_or(line));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Arguments as Puppet reads them: `key => value` pairs written one after
/// another without braces are one hash (`epp('t.epp', a => 1, b => 2)`
/// passes two arguments).
fn fold_pairs(args: Vec<Expr>) -> Vec<Expr> {
    let mut folded: Vec<Expr> = Vec::with_capacity(args.len());
    let mut unfolded_hash = false;
    for arg in args {
        match arg.kind {
            ExprKind::Pair(pair) => {
                if let (true, Some(Expr { kind: ExprKind::Hash(pairs), span })) = (unfolded_hash, folded.last_mut()) {
                    span.end = arg.span.end;
                    pairs.push(*pair);
                } else {
                    folded.push(Expr { kind: ExprKind::Hash(vec![*pair]), span: arg.span });
                }
                unfolded_hash = true;
            }
            kind => {
                folded.push(Expr { kind, span: arg.span });
                unfolded_hash = false;
            }
        }
    }
    folded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_found_where_the_walk_enters() {
        let text = "# top\nclass a ( $x = 1 /* p */ ) {\n  file { '/x': # t\n    mode => '0644', # m\n  }\n  $y = [1, # e\n    2]\n}\nnotice('#not') # end\n";
        let source = SourceFile::new("t.pp", text.to_string());
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&super::super::language()).unwrap();
        let tree = parser.parse(text, None).unwrap();
        let found: Vec<&str> = comments_of(tree.root_node(), &source).iter().map(|s| &text[s.start..s.end]).collect();
        assert_eq!(found, ["# top", "/* p */", "# t", "# m", "# e", "# end"]);
        let plain = "class b { notice('x') }\n";
        let tree = parser.parse(plain, None).unwrap();
        assert!(comments_of(tree.root_node(), &SourceFile::new("b.pp", plain.to_string())).is_empty());
    }

    #[test]
    fn spans_of_one_byte_text_are_the_line_index_positions() {
        // Tabs, CRLF line ends and a heredoc: the parser's points and the
        // line index agree on every node.
        let text = "class a {\r\n\tfile { '/x':\r\n\t\tcontent => @(E),\r\n  body\r\n  | E\r\n\t}\r\n}\r\n";
        let source = SourceFile::new("t.pp", text.to_string());
        assert!(source.lines.is_ascii());
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&super::super::language()).unwrap();
        let tree = parser.parse(text, None).unwrap();
        let lowerer = Lowerer::new(tree.root_node(), &source).unwrap();
        let mut cursor = tree.walk();
        let mut seen = 0;
        'walk: loop {
            let node = cursor.node();
            assert_eq!(lowerer.span(node), source.span(node.start_byte(), node.end_byte()), "{}", node.kind());
            seen += 1;
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        assert!(seen > 20);
    }

    #[test]
    fn numbers_follow_puppet_radix_rules() {
        assert_eq!(parse_number("42"), Number::Integer(42));
        assert_eq!(parse_number("0x1F"), Number::Integer(31));
        assert_eq!(parse_number("0755"), Number::Integer(0o755));
        assert_eq!(parse_number("0"), Number::Integer(0));
        assert_eq!(parse_number("1.5e3"), Number::Float(1500.0));
        assert!(matches!(parse_number("99999999999999999999"), Number::Overflow(_)));
    }

    #[test]
    fn escapes_decode() {
        assert_eq!(unescape("\\n"), "\n");
        assert_eq!(unescape("\\s"), " ");
        assert_eq!(unescape("\\$"), "$");
        assert_eq!(unescape("\\u{1F600}"), "\u{1F600}");
        assert_eq!(unescape("\\u00e9"), "é");
        assert_eq!(unescape("\\\n"), "");
        assert_eq!(unescape_single_quoted(r"a\'b\\c\n"), r"a'b\c\n");
    }

    #[test]
    fn heredoc_end_line_markers() {
        assert_eq!(end_line_markers("    | - END"), (Some("    "), true));
        assert_eq!(end_line_markers("|END"), (None, false));
        assert_eq!(end_line_markers("  -END"), (None, true));
        assert_eq!(end_line_markers("\u{A0}\u{A0}| END"), (Some("\u{A0}\u{A0}"), false));
        assert_eq!(strip_margin("    a\n  b\n    c\n", Some("    "), true), "a\n  b\nc\n");
    }
}
