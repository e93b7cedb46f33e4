//! Expression evaluation: blocks, literals, strings, operators,
//! assignment and lambdas.

use super::conditions::strip_negation;
use super::{loc, Ctx, Interpreter};
use crate::model::index::{normalize_name, Loc};
use crate::model::record::*;
use crate::model::value::{self, Value};
use crate::syntax::ast::*;

impl<'m, 'a> Interpreter<'m, 'a> {
    pub(super) fn eval_block(&mut self, block: &Block, ctx: &Ctx) -> Value {
        let mut last = Value::Undef;
        // A path that died before the block (a certain `fail()`) runs none
        // of it.
        for statement in &block.statements {
            if self.dead {
                break;
            }
            last = self.eval(statement, ctx);
        }
        last
    }

    /// Runs one branch; returns whether it ended in `fail()`.
    pub(super) fn eval_branch(&mut self, block: &Block, ctx: &Ctx) -> (Value, bool) {
        let value = self.eval_block(block, ctx);
        let dead = std::mem::replace(&mut self.dead, false);
        (value, dead)
    }

    pub(super) fn eval_all(&mut self, exprs: &[Expr], ctx: &Ctx) -> Vec<Value> {
        exprs.iter().map(|e| self.eval(e, ctx)).collect()
    }

    pub(super) fn eval(&mut self, expr: &Expr, ctx: &Ctx) -> Value {
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
                let value = self.eval(object, ctx);
                let keys = self.eval_all(index, ctx);
                if let (ExprKind::Variable(variable), [Value::Str(key)]) = (&object.kind, keys.as_slice()) {
                    self.record_facts_key(variable, key, at, ctx);
                }
                access(&value, &keys)
            }
            ExprKind::Call(call) => self.eval_call(call, at, ctx),
            ExprKind::MethodCall(call) => {
                let object = self.eval(&call.object, ctx);
                let lambda_never_called = super::builtins::lambda_never_called(&call.method, Some(&object));
                let args = self.eval_all(&call.args, ctx);
                // Called once with known arguments (`with`, `each` over one
                // element): its parameters hold them.
                let only_call = call.lambda.as_ref().and_then(|lambda| {
                    let method = call.method.without_anchor();
                    super::calls::only_lambda_call(method, Some(&object), &args, lambda.params.len(), &ctx.path)
                });
                let judged = self.argument_types_judged(&call.method, call.lambda.as_ref());
                let known: Vec<Value> = if judged {
                    std::iter::once(object.clone()).chain(args.iter().cloned()).map(|a| a.on_path(&ctx.path)).collect()
                } else {
                    Vec::new()
                };
                let splat = call.args.iter().any(|a| matches!(a.kind, ExprKind::Unary { op: UnaryOp::Splat, .. }));
                let value = match &call.lambda {
                    None if !splat && super::calls::value_known_of(&call.method) => {
                        let given: Vec<Value> = std::iter::once(object.clone()).chain(args.iter().cloned()).collect();
                        self.built_in_value(&call.method, &given, ctx)
                    }
                    _ => Value::Unknown,
                };
                if !splat && Self::typed_built_in(&call.method) {
                    let given: Vec<&Value> = std::iter::once(&object).chain(&args).collect();
                    let at = Loc::new(ctx.file, call.method_span);
                    self.check_built_in_call(&call.method, &given, call.lambda.as_ref(), at);
                }
                self.note_declaring_call(&call.method);
                // `$x.f(y)` calls `f($x, y)`: a policy may forbid `f`.
                // Named only for a policy's constraints (most runs have none).
                let recorded = !self.constraints.is_empty() && {
                    let method = normalize_name(&call.method);
                    self.constraints.iter().any(|c| c.records_call(&method))
                };
                if recorded {
                    let args = std::iter::once(object).chain(args).map(|a| a.on_path(&ctx.path)).collect();
                    let at = Loc::new(ctx.file, call.method_span);
                    let owner = ctx.owner.clone();
                    self.out.calls.push(CallRecord {
                        name: call.method.clone(),
                        owner,
                        at,
                        args,
                        variables: Vec::new(),
                    });
                }
                if !splat && judged {
                    let at = Loc::new(ctx.file, call.method_span);
                    self.check_argument_types(&call.method, &known, call.lambda.as_ref(), at, ctx);
                }

                if let Some(lambda) = call.lambda.as_ref().filter(|_| !lambda_never_called) {
                    match &only_call {
                        Some(only) => self.eval_lambda_with(lambda, only, ctx),
                        None => self.eval_lambda(lambda, ctx),
                    }
                }
                value
            }
            ExprKind::Collector(collector) => {
                let type_name = match &collector.type_expr.kind {
                    ExprKind::Name(n) | ExprKind::TypeRef(n) => crate::model::index::normalize_name(n),
                    _ => "*".to_string(),
                };
                // Exported resources come from other nodes' catalogs.
                if collector.exported {
                    self.out.open_types.insert(type_name.clone());
                }
                self.out.collected_types.insert(type_name);
                self.eval(&collector.type_expr, ctx);
                if let Some(query) = &collector.query {
                    self.eval_query(query, ctx);
                }
                for attribute in &collector.overrides {
                    self.eval(&attribute.value, ctx);
                }
                if !collector.overrides.is_empty() {
                    self.out.collector_overrides.push(ctx.owner.clone());
                }
                Value::Unknown
            }
            ExprKind::If(conditional) => self.eval_if(conditional, false, ctx),
            ExprKind::Unless(conditional) => self.eval_if(conditional, true, ctx),
            ExprKind::Case(case) => self.eval_case(case, ctx),
            ExprKind::Assignment { op, target, value } => {
                let value_expr = value;
                // A selector's value stays tied to the conditions that chose it.
                let value = match &value.kind {
                    ExprKind::Selector { value: subject, entries } => self.eval_selector(subject, entries, ctx),
                    _ => self.eval(value, ctx),
                };
                self.assign(*op, target, value.clone(), ctx);
                if let (AssignOp::Assign, ExprKind::Variable(variable), Value::Unknown) = (op, &target.kind, &value) {
                    self.note_derived_test(variable, target, value_expr, ctx);
                    self.note_data_lookup(variable, target, value_expr, ctx);
                    self.note_variable_copy(variable, target, value_expr, ctx);
                }
                value
            }
            ExprKind::Relationship { left, right, op } => {
                // A chain's value is its last operand, recorded already. Beside
                // a collector, an operand is looked up only for what the
                // collector gathers, which may be nothing.
                let first = self.eval(left, ctx).on_path(&ctx.path);
                if !matches!(left.kind, ExprKind::Relationship { .. }) && !is_collector(right) {
                    self.record_references(&first, loc(ctx.file, left), RefVia::Chain, None, ctx);
                }
                let last = self.eval(right, ctx);
                let last_here = last.clone().on_path(&ctx.path);
                if !is_collector(last_operand(left)) {
                    self.record_references(&last_here, loc(ctx.file, right), RefVia::Chain, None, ctx);
                }
                let operands = if self.surely_runs(ctx) {
                    (
                        super::resources::referenced_resources(&first, false),
                        super::resources::referenced_resources(&last_here, false),
                    )
                } else {
                    (None, None)
                };
                if let (Some(lefts), Some(rights)) = operands {
                    let (arrow, left_first) = match op {
                        EdgeOp::Before => ("->", true),
                        EdgeOp::Notify => ("~>", true),
                        EdgeOp::Require => ("<-", false),
                        EdgeOp::Subscribe => ("<~", false),
                    };
                    for l in &lefts {
                        for r in &rights {
                            let (before, after) =
                                if left_first { (l.clone(), r.clone()) } else { (r.clone(), l.clone()) };
                            self.record_relationship(before, after, loc(ctx.file, right), arrow, ctx);
                        }
                    }
                }
                last
            }
            ExprKind::Resource(resource) => self.eval_resource(resource, ctx),
            ExprKind::ResourceDefaults(defaults) => {
                self.eval(&defaults.type_expr, ctx);
                let values: Vec<Value> = defaults.attributes.iter().map(|a| self.eval(&a.value, ctx)).collect();
                if let ExprKind::Name(n) | ExprKind::TypeRef(n) = &defaults.type_expr.kind {
                    let type_name = normalize_name(n);
                    for (attribute, value) in defaults.attributes.iter().zip(values) {
                        self.out.resource_defaults.push((type_name.clone(), attribute.name.clone()));
                        self.record_default_references(&type_name, attribute, value, ctx);
                    }
                }
                Value::Unknown
            }
            ExprKind::ResourceOverride(over) => self.eval_override(over, ctx),
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

    /// `$facts['name']`, where `$facts` is Puppet's own hash (no lambda
    /// parameter of that name hides it).
    fn record_facts_key(&mut self, variable: &Variable, key: &str, at: Loc, ctx: &Ctx) {
        if variable.unanchored() != "facts" {
            return;
        }
        if self.resolve(ctx.scope, variable, &ctx.path).1 == ReadOutcome::BuiltIn {
            self.out.fact_reads.push(FactRead { loc: at, name: key.into(), form: FactForm::FactsHash, template: None });
        }
    }

    fn eval_string(&mut self, string: &StringLit, ctx: &Ctx) -> Value {
        if let [StringPart::Text(t)] = string.parts.as_slice() {
            return Value::Str(t.clone());
        }
        let room = string
            .parts
            .iter()
            .map(|part| match part {
                StringPart::Text(t) => t.len(),
                StringPart::Interpolation(_) => 16,
            })
            .sum();
        let mut text = Some(String::with_capacity(room));
        for part in &string.parts {
            match part {
                StringPart::Text(t) => {
                    if let Some(text) = &mut text {
                        text.push_str(t);
                    }
                }
                StringPart::Interpolation(expr) => {
                    // Every interpolation runs (its reads are recorded), even
                    // once the text is unknown.
                    let value = self.eval(expr, ctx);
                    let Some(whole) = &mut text else { continue };
                    match &value {
                        Value::Str(piece) => whole.push_str(piece),
                        other => match other.to_text() {
                            Some(piece) => whole.push_str(&piece),
                            None => text = None,
                        },
                    }
                }
            }
        }
        text.map_or(Value::Unknown, Value::Str)
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
        if let Some(known) = self.number_against_string_fact(op, left, right, ctx) {
            return known;
        }
        if matches!(op, BinaryOp::Equal | BinaryOp::NotEqual) {
            // A short host name never holds a dot: `$trusted['hostname'] ==
            // 'web1.example.com'` is never true.
            let dotted = |v: &Value| matches!(v, Value::Str(s) if s.contains('.'));
            if (dotted(&r) && self.is_short_host_name(left, ctx)) || (dotted(&l) && self.is_short_host_name(right, ctx))
            {
                return Value::Bool(op == BinaryOp::NotEqual);
            }
        }
        value::binary(op, &l, &r)
    }

    /// A version fact Facter gives as a string compared with a number:
    /// `==` is surely false (`!=` true), as is `in` an array of numbers
    /// only; `<` and `>` fail in Puppet, and stay unknown here.
    fn number_against_string_fact(&mut self, op: BinaryOp, left: &Expr, right: &Expr, ctx: &Ctx) -> Option<Value> {
        let ordering = match op {
            BinaryOp::Less => Some("<"),
            BinaryOp::LessEqual => Some("<="),
            BinaryOp::Greater => Some(">"),
            BinaryOp::GreaterEqual => Some(">="),
            _ => None,
        };
        // `$::operatingsystemmajrelease =~ Integer` never holds: it is a
        // string, or undefined where the platform lacks it.
        if let (BinaryOp::Match | BinaryOp::NotMatch, ExprKind::TypeRef(type_name)) = (op, &unparenthesized(right).kind)
        {
            if !matches!(type_name.as_str(), "Integer" | "Float" | "Numeric") {
                return None;
            }
            self.string_fact_read(left, ctx)?;
            return Some(Value::Bool(op == BinaryOp::NotMatch));
        }
        if op == BinaryOp::In {
            let ExprKind::Array(items) = &unparenthesized(right).kind else { return None };
            let numbers: Vec<&Expr> = items.iter().filter(|item| is_number(item)).collect();
            if numbers.is_empty() {
                return None;
            }
            self.string_fact_read(left, ctx)?;
            self.note_number_against_string_fact(left, &numbers, NumberComparison::InArray, ctx);
            return items.iter().all(is_number).then_some(Value::Bool(false));
        }
        if !matches!(op, BinaryOp::Equal | BinaryOp::NotEqual) && ordering.is_none() {
            return None;
        }
        let fact_left = is_number(right);
        let (fact, number) = if fact_left {
            (left, right)
        } else if is_number(left) {
            (right, left)
        } else {
            return None;
        };
        self.string_fact_read(fact, ctx)?;
        let negated = op == BinaryOp::NotEqual;
        let how = match ordering {
            Some(op) => NumberComparison::Ordering { op, fact_left },
            None => NumberComparison::Equality { negated },
        };
        self.note_number_against_string_fact(fact, &[number], how, ctx);
        if ordering.is_some() {
            return None;
        }
        Some(Value::Bool(negated))
    }

    /// `$trusted['hostname']` or the `hostname` fact in any form: the
    /// certificate name or host name up to its first dot.
    fn is_short_host_name(&self, expr: &Expr, ctx: &Ctx) -> bool {
        if let ExprKind::Access { object, index } = &expr.kind {
            if let (ExprKind::Variable(variable), [key]) = (&object.kind, index.as_slice()) {
                if variable.unanchored() == "trusted"
                    && matches!(Self::literal(key), Some(Value::Str(k)) if k == "hostname")
                    && matches!(self.resolve(ctx.scope, variable, &ctx.path).1, ReadOutcome::BuiltIn)
                {
                    return true;
                }
            }
        }
        self.fact_read(expr, ctx).is_some_and(|name| name == "networking.hostname")
    }

    fn assign(&mut self, op: AssignOp, target: &Expr, value: Value, ctx: &Ctx) {
        let at = loc(ctx.file, target);
        match &target.kind {
            ExprKind::Variable(variable) if !variable.is_qualified() => {
                if op != AssignOp::Assign {
                    // Puppet refuses `+=` and `-=` when it parses them
                    // (illegal-assignment says so): the variable is left
                    // unknown, with nothing more reported about it.
                    self.bind_unchecked(ctx, &variable.name, Value::Unknown, Some(at));
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

    pub(super) fn eval_lambda(&mut self, lambda: &Lambda, ctx: &Ctx) {
        self.eval_lambda_with(lambda, &[], ctx);
    }

    /// A lambda whose parameters get the values given, in order (unknown
    /// past them).
    pub(super) fn eval_lambda_with(&mut self, lambda: &Lambda, given: &[Value], ctx: &Ctx) {
        let scope = self.new_scope(ScopeKind::Lambda, None, None, Some(ctx.scope));
        let inner = Ctx { scope, ..ctx.clone() };
        for (i, param) in lambda.params.iter().enumerate() {
            if let Some(default) = &param.default {
                self.eval(default, &inner);
            }
            let value = given.get(i).cloned().unwrap_or(Value::Unknown);
            self.bind_quietly(scope, &param.name, value, Some(Loc::new(ctx.file, param.name_span)));
        }
        // A failing lambda may never be called.
        self.eval_branch(&lambda.body, &inner);
    }
}

/// `$x[1]`, `$h['k']`, `Class['x']` on known values.
pub(super) fn access(object: &Value, keys: &[Value]) -> Value {
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
            // Written into one string: parameter types are read per declaration.
            let mut text = String::with_capacity(t.len() + 2 + keys.len() * 12);
            text.push_str(t);
            text.push('[');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                match key {
                    Value::Str(s) => {
                        text.push('\'');
                        text.push_str(s);
                        text.push('\'');
                    }
                    other => match other.to_text() {
                        Some(part) => text.push_str(&part),
                        None => return Value::Unknown,
                    },
                }
            }
            text.push(']');
            Value::Type(text)
        }
        _ => Value::Unknown,
    }
}

/// The operand of a chain that comes last (`c` of `a -> b -> c`).
fn last_operand(expr: &Expr) -> &Expr {
    match &expr.kind {
        ExprKind::Relationship { right, .. } => last_operand(right),
        _ => expr,
    }
}

/// A collector (`Package <| |>`), in parentheses or not.
fn is_collector(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Paren(inner) => is_collector(inner),
        ExprKind::Collector(_) => true,
        _ => false,
    }
}

/// A number written in the code: `7`, `6.5`, `(7)`.
pub(super) fn is_number(expr: &Expr) -> bool {
    matches!(unparenthesized(expr).kind, ExprKind::Number(Number::Integer(_) | Number::Float(_)))
}

fn unparenthesized(mut expr: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &expr.kind {
        expr = inner;
    }
    expr
}
