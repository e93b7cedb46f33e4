//! Function calls: `include`-like declarations, the site's include
//! functions, `fail()`, `defined()` and fallbacks such as `pick()`.

use super::builtins::{declares_no_class, is_built_in_call, lambda_never_called, BUILT_IN_TYPES, FALLBACK_FUNCTIONS};
use super::{loc, Ctx, Interpreter};
use crate::model::index::{normalize_name, DefBody, FileId, Loc, Visibility};
use crate::model::record::*;
use crate::model::value::Value;
use crate::syntax::ast::*;

impl<'m, 'a> Interpreter<'m, 'a> {
    pub(super) fn eval_call(&mut self, call: &Call, at: Loc, ctx: &Ctx) -> Value {
        let reads_before = self.out.reads.len();
        let args = self.eval_all(&call.args, ctx);
        if self.record_values || self.constraints.iter().any(|c| c.records_call(&normalize_name(&call.name))) {
            let mut variables = Vec::new();
            for arg in &call.args {
                arg.walk(&mut |e| {
                    if let ExprKind::Variable(v) = &e.kind {
                        variables.push(v.name.to_string());
                    }
                });
            }
            let args = args.iter().map(|a| a.clone().on_path(&ctx.path)).collect();
            self.out.calls.push(CallRecord { name: call.name.clone(), owner: ctx.owner.clone(), at, args, variables });
        }
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
        if let Some(lambda) = call.lambda.as_ref().filter(|_| !lambda_never_called(&call.name, args.first())) {
            // Called once with known arguments (`with`, `each` over one
            // element): its parameters hold them.
            let (first, rest) = match args.split_first() {
                Some((first, rest)) => (Some(first), rest),
                None => (None, &args[..]),
            };
            match only_lambda_call(call.name.without_anchor(), first, rest, lambda.params.len(), &ctx.path) {
                Some(only) => self.eval_lambda_with(lambda, &only, ctx),
                None => self.eval_lambda(lambda, ctx),
            }
        }
        if call.name == "fail" {
            self.dead = true;
            return Value::Unknown;
        }
        // What follows in the same class or defined type may not run.
        if matches!(call.name.as_str(), "return" | "next" | "break") {
            self.out.may_not_run.insert(ctx.owner.clone());
        }
        if call.name == "defined" {
            return self.eval_defined(call, &args, at, ctx);
        }
        let splat = call.args.iter().any(|a| matches!(a.kind, ExprKind::Unary { op: UnaryOp::Splat, .. }));
        if !splat && Self::typed_built_in(&call.name) {
            let given: Vec<&Value> = args.iter().collect();
            self.check_built_in_call(&call.name, &given, call.lambda.as_ref(), at);
        }
        if !splat && self.argument_types_judged(&call.name, call.lambda.as_ref()) {
            let known: Vec<Value> = args.iter().map(|a| a.clone().on_path(&ctx.path)).collect();
            self.check_argument_types(&call.name, &known, call.lambda.as_ref(), at, ctx);
        }
        match (call.name.without_anchor(), args.as_slice(), call.args.as_slice()) {
            ("template", _, _) => {
                for (arg, expr) in args.iter().zip(&call.args) {
                    if let Some(name) = self.template_name(arg, expr, ctx) {
                        self.read_template(&name, None, loc(ctx.file, expr), ctx);
                    }
                }
            }
            ("epp", [first, rest @ ..], [expr, ..]) => {
                if let Some(name) = self.template_name(first, expr, ctx) {
                    // Puppet finds `m/t` as `m/t.epp`.
                    let name = if name.ends_with(".epp") { name } else { format!("{name}.epp") };
                    let arguments = rest.first().cloned().unwrap_or(Value::Hash(Vec::new()));
                    self.read_template(&name, Some(&arguments), loc(ctx.file, expr), ctx);
                }
            }
            _ => {}
        }
        if call.name == "realize" {
            for (arg, expr) in args.iter().zip(&call.args) {
                let arg = arg.clone().on_path(&ctx.path);
                self.record_references(&arg, loc(ctx.file, expr), RefVia::Realize, None, ctx);
                if self.surely_runs(ctx) {
                    self.out
                        .surely_realized
                        .extend(super::resources::referenced_resources(&arg, false).unwrap_or_default());
                }
            }
        }
        let how = match call.name.as_str() {
            "include" => Some(DeclHow::Include),
            "require" => Some(DeclHow::Require),
            "contain" => Some(DeclHow::Contain),
            _ => None,
        };
        if let Some(how) = how {
            for (arg, expr) in args.iter().zip(&call.args) {
                self.unknown_class_name(arg, how, loc(ctx.file, expr), ctx);
                for name in class_names(arg) {
                    self.declare_class(&name, how, None, loc(ctx.file, expr), ctx);
                }
            }
            return Value::Unknown;
        }
        if let Some(function) = self.include_functions.and_then(|f| f.get(&call.name)) {
            // The variables are set before the classes are declared.
            for variable in &function.sets {
                let name = variable.trim_start_matches('$').without_anchor();
                if self.local(self.top, name, &Vec::new()).is_none() {
                    self.bind_quietly(self.top, name, Value::Unknown, Some(at));
                }
            }
            for (arg, expr) in args.iter().zip(&call.args) {
                self.unknown_class_name(arg, DeclHow::Include, loc(ctx.file, expr), ctx);
                for name in class_names(arg) {
                    let class = function.class.replace("{}", name.without_anchor());
                    self.declare_class(&class, DeclHow::Include, None, loc(ctx.file, expr), ctx);
                }
            }
            return Value::Unknown;
        }
        if ctx.owner == Owner::Node && !declares_no_class(&call.name) {
            self.out.events.push(Event::NodeCall { name: call.name.clone(), loc: at });
        }
        self.note_declaring_call(&call.name);
        // A splatted argument is several, or none: not the value written.
        if splat {
            return Value::Unknown;
        }
        self.built_in_value(&call.name, &args, ctx)
    }

    /// What one of Puppet's functions surely returns: a module's metadata
    /// (from the tree's `metadata.json`) and version comparisons, so that
    /// code for another version of a module is not run; `empty`, so that
    /// code guarded by `!empty($x)` does not run with `$x` undef.
    pub(super) fn built_in_value(&self, function: &str, args: &[Value], ctx: &Ctx) -> Value {
        let plain = function.without_anchor();
        if !value_known_of(plain) || self.index.has_function(plain) {
            return Value::Unknown;
        }
        let args: Vec<Value> = args.iter().map(|a| a.clone().on_path(&ctx.path)).collect();
        match (plain, args.as_slice()) {
            ("load_module_metadata", [Value::Str(module), ..]) => {
                self.index.module_metadata.get(module.as_str()).cloned().unwrap_or(Value::Unknown)
            }
            ("versioncmp", [Value::Str(a), Value::Str(b)] | [Value::Str(a), Value::Str(b), Value::Bool(false)]) => {
                Value::Int(match super::builtins::versioncmp(a, b) {
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                })
            }
            // Puppet's own `empty`: undef is empty, a number is not.
            ("empty", [value]) => match value {
                Value::Undef => Value::Bool(true),
                Value::Str(s) => Value::Bool(s.is_empty()),
                Value::Array(items) => Value::Bool(items.is_empty()),
                Value::Hash(entries) => Value::Bool(entries.is_empty()),
                Value::Int(_) | Value::Float(_) => Value::Bool(false),
                _ => Value::Unknown,
            },
            // stdlib's `pick`: the first argument neither undef nor empty
            // (none: it fails); `pick_default`: else its last argument.
            ("pick", [_, ..]) => picked(&args, false),
            ("pick_default", [_, ..]) => picked(&args, true),
            // Type tests (stdlib's and Puppet's `is_a`) on a known value.
            ("is_array", [value]) => is_of_type(value, "Array"),
            ("is_hash", [value]) => is_of_type(value, "Hash"),
            ("is_a", [value, Value::Type(written)]) => is_of_type(value, written),
            _ => Value::Unknown,
        }
    }

    /// Whether a call's arguments may meet parameter types: it has a
    /// lambda with a typed parameter, or calls a function of the tree.
    pub(super) fn argument_types_judged(&self, function: &str, lambda: Option<&Lambda>) -> bool {
        if lambda.is_some_and(|l| l.params.iter().any(|p| p.type_expr.is_some())) {
            return true;
        }
        if self.index.functions.is_empty() {
            return false;
        }
        let plain = function.without_anchor();
        if plain.bytes().any(|b| b.is_ascii_uppercase()) {
            self.index.has_function(&normalize_name(plain))
        } else {
            self.index.has_function(plain)
        }
    }

    /// Whether a function may be one of Puppet's whose parameter types
    /// mplint knows (`new` of a type among them).
    pub(super) fn typed_built_in(function: &str) -> bool {
        let plain = function.without_anchor();
        plain == "new" || crate::model::signatures::typed_dispatches(plain).is_some()
    }

    /// Known arguments that every signature of one of Puppet's functions
    /// refuses, unless the tree defines a function of that name.
    /// `args` are the call's arguments (a method call's receiver first).
    pub(super) fn check_built_in_call(&mut self, function: &str, args: &[&Value], lambda: Option<&Lambda>, at: Loc) {
        if args.iter().all(|a| matches!(a, Value::Unknown)) {
            return;
        }
        let name = normalize_name(function);
        if self.index.has_function(&name) {
            return;
        }
        // `Integer.new(x)` and `Integer(x)` convert with the type's `new`.
        match (function.without_anchor(), args.split_first()) {
            ("new", Some((Value::Type(type_name), rest))) => self.check_built_in_types(type_name, rest, lambda, at),
            ("Integer" | "Boolean", _) => self.check_built_in_types(function, args, lambda, at),
            _ => self.check_built_in_types(&name, args, lambda, at),
        }
    }

    /// Values a call surely gives the parameters of a function of the
    /// tree written in Puppet, or of its lambda, that their types refuse.
    /// `args` are the call's arguments (a method call's receiver first).
    pub(super) fn check_argument_types(
        &mut self,
        function: &str,
        args: &[Value],
        lambda: Option<&Lambda>,
        at: Loc,
        ctx: &Ctx,
    ) {
        let name = normalize_name(function);
        if let Some([def]) = self.index.functions.get(&name).map(Vec::as_slice) {
            let visible = match def.visibility {
                Visibility::Global => true,
                Visibility::File(file) => self.standalone == Some(file),
            };
            if let (true, DefBody::Function(f)) = (visible, def.body) {
                let callee = format!("'{name}'");
                self.check_parameter_types(&callee, Some(def.loc()), &f.params, args, def.file, at);
            }
        }
        let Some(lambda) = lambda else { return };
        for given in lambda_arguments(name.as_str(), args, lambda.params.len()) {
            self.check_parameter_types("block", None, &lambda.params, &given, ctx.file, at);
        }
    }

    /// Records a call of one of Puppet's functions that every signature
    /// its count of arguments fits refuses, by a known argument's type.
    fn check_built_in_types(&mut self, name: &str, args: &[&Value], lambda: Option<&Lambda>, at: Loc) {
        let Some(dispatches) = crate::model::signatures::typed_dispatches(name) else { return };
        let lambda_range = lambda.map(Lambda::arguments_taken);
        let mut refusals = Vec::new();
        for (dispatch, signature) in dispatches {
            let Some(params) = dispatch.fit(args.len(), lambda_range) else { continue };
            // Puppet's own types: the tree's aliases do not enter them.
            let refused = params
                .iter()
                .zip(args)
                .position(|(param, value)| value.instance_of_with(&param.type_text, &|_| None) == Some(false));
            // Otherwise every argument is, or may be, of its type.
            let Some(i) = refused else { return };
            refusals.push(Refusal {
                arg: i,
                param: params[i].name.clone(),
                expected: params[i].type_text.clone(),
                signature,
            });
        }
        if refusals.is_empty() {
            return;
        }
        let got = args.iter().map(|a| a.described()).collect();
        // A type's conversion is its `new`.
        let function =
            if name.starts_with(|c: char| c.is_ascii_uppercase()) { format!("{name}.new") } else { name.to_string() };
        self.out.events.push(Event::BuiltInRefused { function, loc: at, refusals, got });
    }

    /// Records each known value of `given`, in order, that its parameter's
    /// type refuses, and each literal default taken that its type refuses.
    fn check_parameter_types(
        &mut self,
        callee: &str,
        definition: Option<Loc>,
        params: &[Parameter],
        given: &[Value],
        file: FileId,
        at: Loc,
    ) {
        let text = &self.files[file].source.text;
        let mut checked: Vec<(&Parameter, Value, Option<Loc>)> = Vec::new();
        for (i, param) in params.iter().enumerate() {
            let default = || {
                let default = param.default.as_ref()?;
                Some((Self::literal(default)?, Some(Loc::new(file, default.span))))
            };
            if param.captures_rest {
                // The type of each value the rest holds, unless it is an
                // array's type (then it constrains them all at once).
                let array_type = param.type_expr.as_ref().is_some_and(|t| {
                    text.get(t.span.start..t.span.end).is_some_and(|w| w.trim_start().starts_with("Array"))
                });
                if array_type {
                    break;
                }
                match given.get(i..).filter(|rest| !rest.is_empty()) {
                    Some(rest) => checked.extend(rest.iter().map(|v| (param, v.clone(), None))),
                    None => checked.extend(default().map(|(v, at)| (param, v, at))),
                }
                break;
            }
            match given.get(i) {
                Some(value) => checked.push((param, value.clone(), None)),
                None => match default() {
                    Some((value, at)) => checked.push((param, value, at)),
                    None if param.default.is_some() => continue,
                    None => break,
                },
            }
        }
        for (param, value, default) in checked {
            if matches!(value, Value::Unknown | Value::Choice(_)) {
                continue;
            }
            let Some(type_expr) = &param.type_expr else { continue };
            let Some(written) = text.get(type_expr.span.start..type_expr.span.end) else { continue };
            if super::declarations::has_comment(written) {
                continue;
            }
            if self.instance_of_type(&value, written, Loc::new(file, type_expr.span)) == Some(false) {
                let mismatch = TypeMismatch {
                    param: param.name.clone(),
                    expected: written.split_whitespace().collect::<Vec<_>>().join(" "),
                    got: value.described(),
                    loc: at,
                    default,
                };
                let callee = callee.to_string();
                self.out.events.push(Event::ArgumentMismatch { callee, definition, mismatch });
            }
        }
    }

    /// The name of the template an argument renders: a known string, or
    /// `"${module_name}/x.erb"` in a module's code.
    fn template_name(&self, value: &Value, expr: &Expr, ctx: &Ctx) -> Option<String> {
        match value {
            Value::Str(name) => Some(name.clone()),
            _ => Some(self.templates?.in_own_module(ctx.file, expr.span.start)?.to_string()),
        }
    }

    /// The facts a template rendered here reads: an ERB template's
    /// variables are looked up in the calling scope, an EPP template's
    /// (`epp()`, given `arguments`) in node or top scope, after the
    /// arguments, which bind its parameters or, without a parameter list,
    /// variables of their keys' names.
    fn read_template(&mut self, name: &str, arguments: Option<&Value>, at: Loc, ctx: &Ctx) {
        let Some(template) = self.templates.and_then(|t| t.get(name)).cloned() else { return };
        let scope = if template.epp { self.base_of(ctx.scope) } else { ctx.scope };
        let passed: Option<Vec<&str>> = match arguments {
            None => Some(Vec::new()),
            Some(Value::Hash(entries)) => entries.iter().map(|(key, _)| key.as_str()).collect(),
            Some(_) => None,
        };
        for (i, read) in template.reads.iter().enumerate() {
            let fact = match read.form {
                FactForm::FactsHash => true,
                // Unknown arguments may bind any name.
                FactForm::Variable if template.epp && passed.as_ref().is_none_or(|p| p.contains(&&*read.name)) => false,
                FactForm::TopScope => {
                    let variable = Variable { name: format!("::{}", read.name).into() };
                    self.resolve(scope, &variable, &ctx.path).1 == ReadOutcome::Fact
                }
                FactForm::Variable => {
                    let variable = Variable { name: read.name.as_str().into() };
                    self.resolve(scope, &variable, &ctx.path).1 == ReadOutcome::Fact
                }
            };
            if fact {
                let (name, form, template) = (read.name.as_str().into(), read.form, Some((template.clone(), i)));
                self.out.fact_reads.push(FactRead { loc: at, name, form, template });
            }
        }
    }

    /// A function that is not Puppet's, or one of Puppet's that declares
    /// what the record cannot see, may declare resources of any type.
    pub(super) fn note_declaring_call(&mut self, name: &str) {
        let name = name.without_anchor();
        if !self.out.open_types.contains("*") && (!is_built_in_call(name) || DECLARING_FUNCTIONS.contains(&name)) {
            self.out.open_types.insert("*".to_string());
        }
    }

    /// Records a declaration whose class name is not known, if `arg`
    /// (or an item of it) is unknown.
    fn unknown_class_name(&mut self, arg: &Value, how: DeclHow, at: Loc, ctx: &Ctx) {
        let known = |v: &Value| matches!(v, Value::Str(_) | Value::Type(_));
        let unknown = match arg {
            Value::Array(items) => !items.iter().all(known),
            other => !known(other),
        };
        if unknown {
            let path = self.absolute_path(ctx);
            self.out.declarations.push(Declaration { class: None, how, loc: at, by: ctx.owner.clone(), path });
        }
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
                if self.index.surely_undefined(s, self.standalone) {
                    return Value::Bool(false);
                }
                Guarded::Type(normalize_name(s))
            }
            Value::Type(t) => match t.split_once('[') {
                None if known_type(self, t) => return Value::Bool(true),
                None if self.index.surely_undefined(t, self.standalone) => return Value::Bool(false),
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
        self.defined_targets.insert((at.file(), at.start()), target);
        Value::Unknown
    }
}

/// Puppet's functions that declare classes or resources themselves (as
/// methods, `include` and its kin are not followed either).
const DECLARING_FUNCTIONS: [&str; 5] = ["create_resources", "hiera_include", "include", "require", "contain"];

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

/// The arguments an iterating function surely passes its lambda, call by
/// call, when they are known: `with` its own arguments; `each`, `map`,
/// `filter`, `any` and `all` each element of an array (with its index, to
/// two parameters) or each entry of a hash (a pair, or key and value).
fn lambda_arguments(function: &str, args: &[Value], params: usize) -> Vec<Vec<Value>> {
    match (function, args) {
        ("with", _) => vec![args.to_vec()],
        ("each" | "map" | "filter" | "any" | "all", [Value::Array(items)]) => match params {
            1 => items.iter().map(|item| vec![item.clone()]).collect(),
            2 => items.iter().enumerate().map(|(i, item)| vec![Value::Int(i as i64), item.clone()]).collect(),
            _ => Vec::new(),
        },
        ("each" | "map" | "filter" | "any" | "all", [Value::Hash(entries)]) => match params {
            1 => entries.iter().map(|(k, v)| vec![Value::Array(vec![k.clone(), v.clone()])]).collect(),
            2 => entries.iter().map(|(k, v)| vec![k.clone(), v.clone()]).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The arguments of the one call an iterating function makes of its lambda
/// (`with`, or over one element), when known.
pub(super) fn only_lambda_call(
    function: &str,
    first: Option<&Value>,
    rest: &[Value],
    params: usize,
    path: &PathCond,
) -> Option<Vec<Value>> {
    let one_entry = |v: &Value| match v {
        Value::Array(items) => items.len() == 1,
        Value::Hash(entries) => entries.len() == 1,
        Value::Choice(_) => true,
        _ => false,
    };
    if function != "with" && !first.is_some_and(one_entry) {
        return None;
    }
    let known: Vec<Value> = first.into_iter().chain(rest).map(|a| a.clone().on_path(path)).collect();
    match lambda_arguments(function, &known, params).as_mut_slice() {
        [only] => Some(std::mem::take(only)),
        _ => None,
    }
}

/// The functions whose value [`Interpreter::built_in_value`] may know.
pub(super) fn value_known_of(function: &str) -> bool {
    matches!(
        function.without_anchor(),
        "load_module_metadata" | "versioncmp" | "empty" | "is_array" | "is_hash" | "is_a" | "pick" | "pick_default"
    )
}

/// What `pick` (or, `or_last`, `pick_default`) gives for known arguments:
/// unknown from the first unknown one on.
fn picked(args: &[Value], or_last: bool) -> Value {
    for arg in args {
        match arg {
            Value::Undef => {}
            Value::Str(s) if s.is_empty() => {}
            Value::Unknown | Value::Choice(_) => return Value::Unknown,
            given => return given.clone(),
        }
    }
    match args.last() {
        Some(last) if or_last => last.clone(),
        _ => Value::Unknown,
    }
}

/// Whether a known value is an instance of one of the plain data types;
/// unknown for any other value or type.
fn is_of_type(value: &Value, written: &str) -> Value {
    let holds = match value {
        Value::Str(_) => written == "String",
        Value::Int(_) => matches!(written, "Integer" | "Numeric"),
        Value::Float(_) => matches!(written, "Float" | "Numeric"),
        Value::Bool(_) => written == "Boolean",
        Value::Array(_) => written == "Array",
        Value::Hash(_) => written == "Hash",
        Value::Undef => written == "Undef",
        _ => return Value::Unknown,
    };
    let plain = ["String", "Integer", "Numeric", "Float", "Boolean", "Array", "Hash", "Undef"];
    if plain.contains(&written) {
        Value::Bool(holds)
    } else {
        Value::Unknown
    }
}
