//! Abstract values: concrete where Puppet's result can be computed without
//! facts or functions, `Unknown` otherwise.

use crate::syntax::ast::BinaryOp;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Undef,
    Default,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Regex(String),
    Array(Vec<Value>),
    Hash(Vec<(Value, Value)>),
    /// A type or resource reference such as `File` or `File['/x']`.
    Type(String),
    Unknown,
    /// One of several values, each on the path that chose it (a selector
    /// on an unknown subject). Only variables hold it: reading one takes
    /// the value of the reader's path ([`Value::on_path`]).
    Choice(Vec<(crate::model::record::PathCond, Value)>),
}

impl Value {
    /// A JSON document as Puppet reads it (`load_module_metadata`).
    pub fn from_json(json: &serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::Undef,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => n.as_f64().map_or(Value::Unknown, Value::Float),
            },
            serde_json::Value::String(s) => Value::Str(s.clone()),
            serde_json::Value::Array(items) => Value::Array(items.iter().map(Value::from_json).collect()),
            serde_json::Value::Object(map) => {
                Value::Hash(map.iter().map(|(k, v)| (Value::Str(k.clone()), Value::from_json(v))).collect())
            }
        }
    }

    /// The value as code on `path` sees it: a choice narrowed to the
    /// alternatives that path allows, known when they agree.
    pub fn on_path(self, path: &crate::model::record::PathCond) -> Value {
        let Value::Choice(alternatives) = self else { return self };
        let mut possible = alternatives.into_iter().filter(|(p, _)| crate::model::record::compatible(p, path));
        let Some((_, first)) = possible.next() else { return Value::Unknown };
        if possible.all(|(_, v)| v == first) {
            first
        } else {
            Value::Unknown
        }
    }

    /// A string, integer, boolean or `undef`.
    pub fn is_scalar_or_undef(&self) -> bool {
        matches!(self, Value::Str(_) | Value::Int(_) | Value::Bool(_) | Value::Undef)
    }

    /// Puppet's truthiness: only `undef` and `false` are false.
    pub fn truthy(&self) -> Option<bool> {
        match self {
            Value::Unknown | Value::Choice(_) => None,
            Value::Undef | Value::Bool(false) => Some(false),
            _ => Some(true),
        }
    }

    /// The text Puppet interpolates for this value.
    pub fn to_text(&self) -> Option<String> {
        Some(match self {
            Value::Undef => String::new(),
            Value::Default => "default".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Str(s) => s.clone(),
            Value::Type(t) => t.clone(),
            Value::Array(items) => {
                let parts: Option<Vec<String>> = items.iter().map(|v| v.to_quoted_text()).collect();
                format!("[{}]", parts?.join(", "))
            }
            Value::Regex(_) | Value::Hash(_) | Value::Unknown | Value::Choice(_) => return None,
        })
    }

    fn to_quoted_text(&self) -> Option<String> {
        match self {
            Value::Str(s) => Some(format!("'{s}'")),
            other => other.to_text(),
        }
    }

    /// The value's type and, for a scalar, the value: `String '80'`,
    /// `Integer 70000`, `Array of 3 elements`, `Hash with keys 'a', 'b'`.
    pub fn described(&self) -> String {
        match self {
            Value::Undef => "Undef".into(),
            Value::Default => "Default".into(),
            Value::Bool(b) => format!("Boolean {b}"),
            Value::Int(i) => format!("Integer {i}"),
            Value::Float(f) => format!("Float {f}"),
            Value::Str(s) => format!("String '{s}'"),
            Value::Regex(r) => format!("Regexp /{r}/"),
            Value::Array(items) if items.is_empty() => "an empty Array".into(),
            Value::Array(items) if items.len() == 1 => format!("Array of one {}", items[0].type_word()),
            Value::Array(items) => format!("Array of {} elements", items.len()),
            Value::Hash(entries) if entries.is_empty() => "an empty Hash".into(),
            Value::Hash(entries) => {
                let keys: Vec<String> = entries.iter().take(4).filter_map(|(k, _)| k.to_quoted_text()).collect();
                if keys.len() < entries.len().min(4) {
                    let n = entries.len();
                    return format!("Hash of {n} entr{}", if n == 1 { "y" } else { "ies" });
                }
                let more = if entries.len() > 4 { ", …" } else { "" };
                format!("Hash with key{} {}{more}", if entries.len() == 1 { "" } else { "s" }, keys.join(", "))
            }
            Value::Type(t) => format!("Type {t}"),
            Value::Unknown | Value::Choice(_) => "a value".into(),
        }
    }

    /// The name of the value's type alone: `String`, `Hash`.
    fn type_word(&self) -> &'static str {
        match self {
            Value::Undef => "Undef",
            Value::Default => "Default",
            Value::Bool(_) => "Boolean",
            Value::Int(_) => "Integer",
            Value::Float(_) => "Float",
            Value::Str(_) => "String",
            Value::Regex(_) => "Regexp",
            Value::Array(_) => "Array",
            Value::Hash(_) => "Hash",
            Value::Type(_) => "Type",
            Value::Unknown | Value::Choice(_) => "value",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Puppet's `==`: strings compare case-insensitively.
    pub fn equals(&self, other: &Value) -> Option<bool> {
        Some(match (self, other) {
            (Value::Unknown | Value::Choice(_), _) | (_, Value::Unknown | Value::Choice(_)) => return None,
            (Value::Str(a), Value::Str(b)) => a.to_lowercase() == b.to_lowercase(),
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Int(a), Value::Float(b)) | (Value::Float(b), Value::Int(a)) => (*a as f64) == *b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => {
                if a.len() != b.len() {
                    return Some(false);
                }
                for (x, y) in a.iter().zip(b) {
                    if !x.equals(y)? {
                        return Some(false);
                    }
                }
                true
            }
            (Value::Hash(_), _) | (_, Value::Hash(_)) | (Value::Regex(_), _) | (_, Value::Regex(_)) => return None,
            (Value::Type(a), Value::Type(b)) => a.eq_ignore_ascii_case(b),
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b) && a == b,
        })
    }

    /// Is this value an instance of the type written `type_text`? Known for
    /// the core types when the value is known; a parameterised type is
    /// known only where its parameters are understood.
    pub fn instance_of(&self, type_text: &str) -> Option<bool> {
        self.instance_of_with(type_text, &|_| None)
    }

    /// As `instance_of`, with the type aliases `alias` gives the written
    /// type of (`Stdlib::Port` → `Integer[0, 65535]`).
    pub fn instance_of_with<'t>(&self, type_text: &str, alias: &'t dyn Fn(&str) -> Option<&'t str>) -> Option<bool> {
        TypeCheck { alias, memo: None, depth: 0 }.check(self, type_text)
    }

    /// As `instance_of_with`, keeping in `memo` what aliases say of scalars.
    pub fn instance_of_remembering<'t>(
        &self,
        type_text: &str,
        alias: &'t dyn Fn(&str) -> Option<&'t str>,
        memo: &'t dyn AliasMemo,
    ) -> Option<bool> {
        TypeCheck { alias, memo: Some(memo), depth: 0 }.check(self, type_text)
    }
    /// Does this value match a case option or selector key?
    pub fn matches(&self, pattern: &Value) -> Option<bool> {
        match pattern {
            Value::Default => Some(true),
            Value::Regex(re) => match self {
                Value::Str(s) => regex_match(re, s),
                Value::Unknown => None,
                _ => Some(false),
            },
            Value::Type(t) => self.instance_of(t),
            Value::Array(options) if !matches!(self, Value::Array(_)) => {
                any_match(options.iter().map(|option| self.matches(option)))
            }
            _ => self.equals(pattern),
        }
    }
}

/// Aliases are followed this deep at most: an alias may refer to itself.
const MAX_ALIAS_DEPTH: usize = 16;

/// What a type alias said of a scalar value, kept across checks: the same
/// few values (`present`, a host name) meet the same aliases very often.
pub trait AliasMemo {
    fn get(&self, alias: &str, value: &Value) -> Option<Option<bool>>;
    fn insert(&self, alias: &str, value: &Value, result: Option<bool>);
}

struct TypeCheck<'a> {
    alias: &'a dyn Fn(&str) -> Option<&'a str>,
    memo: Option<&'a dyn AliasMemo>,
    depth: usize,
}

impl TypeCheck<'_> {
    fn check(&mut self, value: &Value, type_text: &str) -> Option<bool> {
        if matches!(value, Value::Unknown | Value::Choice(_) | Value::Default) {
            return None;
        }
        let text = type_text.trim();
        let (head, params) = match text.split_once('[') {
            Some((head, rest)) => (head.trim(), Some(rest.strip_suffix(']')?.trim())),
            None => (text, None),
        };
        let kind = match head {
            "Any" => return Some(true),
            "Undef" => matches!(value, Value::Undef),
            "String" => matches!(value, Value::Str(_)),
            "Integer" => matches!(value, Value::Int(_)),
            "Float" => matches!(value, Value::Float(_)),
            "Numeric" => matches!(value, Value::Int(_) | Value::Float(_)),
            "Boolean" => matches!(value, Value::Bool(_)),
            "Array" | "Tuple" => matches!(value, Value::Array(_)),
            "Hash" | "Struct" => matches!(value, Value::Hash(_)),
            "Collection" => matches!(value, Value::Array(_) | Value::Hash(_)),
            "Regexp" => matches!(value, Value::Regex(_)),
            "Default" => matches!(value, Value::Default),
            "Scalar" => {
                matches!(value, Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Regex(_))
            }
            "Pattern" | "Enum" => {
                let Value::Str(text) = value else { return Some(false) };
                let options = type_params(params?);
                return any_match(options.iter().map(|option| {
                    if let Some(re) = option.strip_prefix('/').and_then(|o| o.strip_suffix('/')) {
                        regex_match(re, text)
                    } else if head == "Enum" {
                        string_literal(option).map(|literal| literal == *text)
                    } else {
                        None
                    }
                }));
            }
            "Iterable" => return self.check_iterable(value, params),
            // mplint's values are never iterators, binaries or objects; a
            // type value may be one (`Integer[1, 3]` is iterable).
            "Iterator" | "Binary" | "Object" | "Sensitive" => {
                return (!matches!(value, Value::Type(_))).then_some(false);
            }
            "Callable" | "Type" => return None,
            "Optional" => {
                if matches!(value, Value::Undef) {
                    return Some(true);
                }
                return params.and_then(|inner| self.check(value, inner));
            }
            "NotUndef" => {
                if matches!(value, Value::Undef) {
                    return Some(false);
                }
                return params.map_or(Some(true), |inner| self.check(value, inner));
            }
            "Variant" => {
                let options = type_params(params?);
                return any_match(options.iter().map(|option| self.check(value, option)));
            }
            _ => return self.check_alias(value, head, params),
        };
        match (kind, params) {
            (false, _) => Some(false),
            (true, None) => Some(true),
            (true, Some(params)) => self.check_parameters(value, head, params),
        }
    }

    /// `Iterable` and `Iterable[T]`: strings (by character), integers from
    /// 0 (counting up to them), arrays and hashes (by `[key, value]`).
    fn check_iterable(&mut self, value: &Value, params: Option<&str>) -> Option<bool> {
        let element = match params {
            None => {
                return match value {
                    Value::Str(_) | Value::Array(_) | Value::Hash(_) => Some(true),
                    Value::Int(i) => Some(*i >= 0),
                    Value::Type(_) => None,
                    _ => Some(false),
                };
            }
            Some(element) => element,
        };
        match value {
            Value::Str(text) => all_match(text.chars().map(|c| self.check(&Value::Str(c.to_string()), element))),
            Value::Array(items) => all_match(items.iter().map(|item| self.check(item, element))),
            Value::Hash(entries) => {
                all_match(entries.iter().map(|(k, v)| self.check(&Value::Array(vec![k.clone(), v.clone()]), element)))
            }
            Value::Int(_) | Value::Type(_) => None,
            _ => Some(false),
        }
    }

    /// A value of the type's kind against the type's parameters.
    fn check_parameters(&mut self, value: &Value, head: &str, params: &str) -> Option<bool> {
        let parts = type_params(params);
        match (value, head) {
            (Value::Array(items), "Array") => {
                let (element, bounds) = parts.split_first()?;
                if integer_bound(element).is_some() {
                    return None; // `Array[1, 5]`: sizes without an element type
                }
                let size = within(items.len(), bounds)?;
                let elements = all_match(items.iter().map(|item| self.check(item, element)));
                if !size {
                    return Some(false);
                }
                elements
            }
            (Value::Hash(entries), "Hash") => {
                let [key_type, value_type, bounds @ ..] = &parts[..] else { return None };
                let size = within(entries.len(), bounds)?;
                let members =
                    all_match(entries.iter().flat_map(|(k, v)| [self.check(k, key_type), self.check(v, value_type)]));
                if !size {
                    return Some(false);
                }
                members
            }
            (Value::Hash(entries), "Struct") => self.check_struct(entries, params),
            (Value::Str(text), "String") => within(text.chars().count(), &parts),
            (Value::Int(i), "Integer") => {
                let bounds: Vec<Option<i64>> = parts.iter().map(|b| integer_bound(b)).collect::<Option<_>>()?;
                let (min, max) = match bounds.as_slice() {
                    [min] => (*min, None),
                    [min, max] => (*min, *max),
                    _ => return None,
                };
                Some(min.is_none_or(|min| *i >= min) && max.is_none_or(|max| *i <= max))
            }
            _ => None,
        }
    }

    /// `Struct[{ 'name' => T, Optional['port'] => T }]`: only the keys it
    /// names; each one that may not be missing is there; every value is of
    /// its member's type.
    fn check_struct(&mut self, entries: &[(Value, Value)], params: &str) -> Option<bool> {
        let inner = params.trim().strip_prefix('{')?.strip_suffix('}')?;
        let mut members: Vec<(String, bool, String)> = Vec::new();
        for member in type_params(inner).iter() {
            let (key, member_type) = split_arrow(member)?;
            let (name, key_optional) = if let Some(k) = key.strip_prefix("Optional[").and_then(|k| k.strip_suffix(']'))
            {
                (string_literal(k)?, true)
            } else if let Some(k) = key.strip_prefix("NotUndef[").and_then(|k| k.strip_suffix(']')) {
                (string_literal(k)?, false)
            } else {
                (string_literal(key)?, self.check(&Value::Undef, member_type)?)
            };
            members.push((name.to_string(), key_optional, member_type.to_string()));
        }
        let mut results = Vec::new();
        for (key, value) in entries {
            let key = key.as_str()?;
            let Some((_, _, member_type)) = members.iter().find(|(name, _, _)| name == key) else {
                return Some(false);
            };
            results.push(self.check(value, member_type));
        }
        for (name, may_be_missing, _) in &members {
            if !may_be_missing && !entries.iter().any(|(key, _)| key.as_str() == Some(name)) {
                return Some(false);
            }
        }
        all_match(results)
    }

    /// A type alias of the tree: its value's type, followed a bounded depth.
    fn check_alias(&mut self, value: &Value, head: &str, params: Option<&str>) -> Option<bool> {
        if params.is_some() || self.depth >= MAX_ALIAS_DEPTH {
            return None;
        }
        // Only an outermost alias's answer is whole: deeper ones may stop
        // at the depth limit.
        let memo = self.memo.filter(|_| self.depth == 0 && value.is_scalar_or_undef());
        if let Some(known) = memo.and_then(|memo| memo.get(head, value)) {
            return known;
        }
        let written = (self.alias)(head)?;
        self.depth += 1;
        let result = self.check(value, written);
        self.depth -= 1;
        if let Some(memo) = memo {
            memo.insert(head, value, result);
        }
        result
    }
}

/// A quoted string in a type's parameters, without its quotes.
fn quoted(text: &str) -> Option<&str> {
    let text = text.trim();
    let single = text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'');
    let double = text.len() >= 2 && text.starts_with('"') && text.ends_with('"');
    let inner = if single || double { &text[1..text.len() - 1] } else { return None };
    // Escapes and interpolation would need evaluating.
    (!inner.contains(['\\', '$', '\'', '"'])).then_some(inner)
}

/// A string in a type's parameters: quoted, or a bare word (`Enum[present,
/// absent]`), which Puppet reads as a string unless it is a keyword.
fn string_literal(text: &str) -> Option<&str> {
    let text = text.trim();
    if let Some(inner) = quoted(text) {
        return Some(inner);
    }
    let word = text.strip_prefix("::").unwrap_or(text);
    let bare = !word.is_empty()
        && word.split("::").all(|segment| {
            segment.starts_with(|c: char| c.is_ascii_lowercase())
                && segment.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    // Puppet's keywords (`plan` in plans too) are no strings.
    (bare && !crate::syntax::KEYWORDS.contains(&text)).then_some(text)
}

/// A size or range bound: an integer, or `default` (none).
fn integer_bound(text: &str) -> Option<Option<i64>> {
    match text.trim() {
        "default" => Some(None),
        number => number.parse().ok().map(Some),
    }
}

/// Is `size` within the `[min, max]` bounds written (none, or one or two)?
fn within(size: usize, bounds: &[String]) -> Option<bool> {
    let bounds: Vec<Option<i64>> = bounds.iter().map(|b| integer_bound(b)).collect::<Option<_>>()?;
    let size = i64::try_from(size).ok()?;
    let (min, max) = match bounds.as_slice() {
        [] => (None, None),
        [min] => (*min, None),
        [min, max] => (*min, *max),
        _ => return None,
    };
    Some(min.is_none_or(|min| size >= min) && max.is_none_or(|max| size <= max))
}

/// `key => value` at the top level of a hash member.
fn split_arrow(member: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let mut quote = None;
    let bytes = member.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'[' | b'{' | b'(') => depth += 1,
            (None, b']' | b'}' | b')') => depth -= 1,
            (None, b'=') if depth == 0 && bytes.get(i + 1) == Some(&b'>') => {
                return Some((member[..i].trim(), member[i + 2..].trim()));
            }
            _ => {}
        }
    }
    None
}

/// [`split_type_params`], kept per thread: the same parameter types are
/// checked against value after value.
fn type_params(params: &str) -> std::rc::Rc<[String]> {
    thread_local! {
        static SPLIT: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, std::rc::Rc<[String]>>> =
            Default::default();
    }
    SPLIT.with(|split| {
        if let Some(parts) = split.borrow().get(params) {
            return parts.clone();
        }
        let parts: std::rc::Rc<[String]> = split_type_params(params).into();
        split.borrow_mut().insert(params.into(), parts.clone());
        parts
    })
}

/// The parameters of a type, split at top-level commas: `String, Array[Integer, 2]`.
/// Commas and brackets inside quotes, regular expressions and hashes do not split.
pub fn split_type_params(params: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in params.chars() {
        if let Some(q) = quote {
            current.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            // A regular expression starts a parameter: `Pattern[/a,b/]`.
            '/' if current.trim().is_empty() => quote = Some('/'),
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

/// False if any check is false; unknown if none is but some are unknown.
fn all_match(results: impl IntoIterator<Item = Option<bool>>) -> Option<bool> {
    any_match(results.into_iter().map(|r| r.map(|b| !b))).map(|b| !b)
}

/// True if any comparison is true; unknown if none is but some are unknown.
pub fn any_match(results: impl IntoIterator<Item = Option<bool>>) -> Option<bool> {
    let mut unknown = false;
    for result in results {
        match result {
            Some(true) => return Some(true),
            None => unknown = true,
            Some(false) => {}
        }
    }
    if unknown {
        None
    } else {
        Some(false)
    }
}

/// Matches a Puppet (Ruby) regular expression when the `regex` crate reads
/// it the same way; otherwise the answer is unknown.
pub fn regex_match(pattern: &str, text: &str) -> Option<bool> {
    // Ruby-only constructs make the result unknown rather than wrong.
    if pattern.contains("(?<")
        || pattern.contains("\\A")
        || pattern.contains("\\z")
        || pattern.contains("\\Z")
        || pattern.contains("\\h")
    {
        return None;
    }
    // Compiled once per thread: the same patterns are tested very often.
    thread_local! {
        static COMPILED: std::cell::RefCell<rustc_hash::FxHashMap<String, Option<regex::Regex>>> =
            std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    }
    COMPILED.with(|compiled| {
        let mut compiled = compiled.borrow_mut();
        if !compiled.contains_key(pattern) {
            compiled.insert(pattern.to_string(), regex::Regex::new(pattern).ok());
        }
        compiled.get(pattern)?.as_ref().map(|re| re.is_match(text))
    })
}

pub fn binary(op: BinaryOp, left: &Value, right: &Value) -> Value {
    use BinaryOp::*;
    let unknown = |v: &Value| matches!(v, Value::Unknown | Value::Choice(_));
    if unknown(left) || unknown(right) {
        // `false and x` and `true or x` are known whatever x is.
        return match (op, left.truthy(), right.truthy()) {
            (And, Some(false), _) | (And, _, Some(false)) => Value::Bool(false),
            (Or, Some(true), _) | (Or, _, Some(true)) => Value::Bool(true),
            _ => Value::Unknown,
        };
    }
    let bool_or_unknown = |b: Option<bool>| b.map_or(Value::Unknown, Value::Bool);
    match op {
        And => bool_or_unknown(Some(left.truthy().unwrap_or(false) && right.truthy().unwrap_or(false))),
        Or => bool_or_unknown(Some(left.truthy().unwrap_or(false) || right.truthy().unwrap_or(false))),
        Equal => bool_or_unknown(left.equals(right)),
        NotEqual => bool_or_unknown(left.equals(right).map(|b| !b)),
        Match | NotMatch => {
            let matched = match (left, right) {
                (Value::Str(s), Value::Regex(re)) | (Value::Str(s), Value::Str(re)) => regex_match(re, s),
                (value, Value::Type(t)) => value.instance_of(t),
                _ => None,
            };
            bool_or_unknown(if op == Match { matched } else { matched.map(|b| !b) })
        }
        In => match right {
            // Types and regular expressions in the array match as `=~` does.
            Value::Array(items) => bool_or_unknown(any_match(items.iter().map(|item| match (left, item) {
                (value, Value::Type(t)) => value.instance_of(t),
                (Value::Type(t), value) => value.instance_of(t),
                (Value::Str(s), Value::Regex(re)) => regex_match(re, s),
                (_, Value::Regex(_)) => Some(false),
                _ => left.equals(item),
            }))),
            Value::Hash(entries) => bool_or_unknown(any_match(entries.iter().map(|(key, _)| left.equals(key)))),
            Value::Str(haystack) => match left {
                Value::Str(needle) => Value::Bool(haystack.to_lowercase().contains(&needle.to_lowercase())),
                _ => Value::Unknown,
            },
            _ => Value::Unknown,
        },
        Less | LessEqual | Greater | GreaterEqual => {
            let ordering = match (left, right) {
                (Value::Int(a), Value::Int(b)) => Some(a.cmp(b)),
                (Value::Str(a), Value::Str(b)) => Some(a.to_lowercase().cmp(&b.to_lowercase())),
                (Value::Float(a), Value::Float(b)) => a.partial_cmp(b),
                (Value::Int(a), Value::Float(b)) => (*a as f64).partial_cmp(b),
                (Value::Float(a), Value::Int(b)) => a.partial_cmp(&(*b as f64)),
                _ => None,
            };
            bool_or_unknown(ordering.map(|o| match op {
                Less => o.is_lt(),
                LessEqual => o.is_le(),
                Greater => o.is_gt(),
                _ => o.is_ge(),
            }))
        }
        Add => match (left, right) {
            (Value::Int(a), Value::Int(b)) => a.checked_add(*b).map_or(Value::Unknown, Value::Int),
            (Value::Array(a), Value::Array(b)) => Value::Array(a.iter().chain(b).cloned().collect()),
            (Value::Array(a), other) => Value::Array(a.iter().cloned().chain([other.clone()]).collect()),
            (Value::Hash(a), Value::Hash(b)) => {
                let mut merged = a.clone();
                for (k, v) in b {
                    merged.retain(|(existing, _)| existing.equals(k) != Some(true));
                    merged.push((k.clone(), v.clone()));
                }
                Value::Hash(merged)
            }
            _ => Value::Unknown,
        },
        Subtract => match (left, right) {
            (Value::Int(a), Value::Int(b)) => a.checked_sub(*b).map_or(Value::Unknown, Value::Int),
            _ => Value::Unknown,
        },
        Multiply => match (left, right) {
            (Value::Int(a), Value::Int(b)) => a.checked_mul(*b).map_or(Value::Unknown, Value::Int),
            _ => Value::Unknown,
        },
        Divide => match (left, right) {
            (Value::Int(a), Value::Int(b)) if *b != 0 => a.checked_div(*b).map_or(Value::Unknown, Value::Int),
            _ => Value::Unknown,
        },
        Modulo => match (left, right) {
            (Value::Int(a), Value::Int(b)) if *b != 0 => a.checked_rem(*b).map_or(Value::Unknown, Value::Int),
            _ => Value::Unknown,
        },
        ShiftLeft | ShiftRight => match (left, right) {
            (Value::Int(a), Value::Int(b)) if (0..63).contains(b) => {
                Value::Int(if op == ShiftLeft { a.checked_shl(*b as u32).unwrap_or(0) } else { a >> b })
            }
            (Value::Array(a), other) if op == ShiftLeft => {
                Value::Array(a.iter().cloned().chain([other.clone()]).collect())
            }
            _ => Value::Unknown,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_are_described_by_size_or_keys() {
        let s = |t: &str| Value::Str(t.into());
        assert_eq!(Value::Array(vec![s("a"), Value::Int(1), s("b")]).described(), "Array of 3 elements");
        assert_eq!(Value::Array(vec![Value::Int(1)]).described(), "Array of one Integer");
        assert_eq!(Value::Array(vec![]).described(), "an empty Array");
        assert_eq!(Value::Hash(vec![(s("a"), Value::Int(1))]).described(), "Hash with key 'a'");
        let keys: Vec<(Value, Value)> = ["a", "b", "c", "d", "e"].iter().map(|k| (s(k), Value::Undef)).collect();
        assert_eq!(Value::Hash(keys).described(), "Hash with keys 'a', 'b', 'c', 'd', …");
        assert_eq!(Value::Hash(vec![(Value::Unknown, Value::Undef)]).described(), "Hash of 1 entry");
    }

    #[test]
    fn puppet_equality_ignores_case_for_strings() {
        assert_eq!(Value::Str("Debian".into()).equals(&Value::Str("debian".into())), Some(true));
        assert_eq!(Value::Int(1).equals(&Value::Str("1".into())), Some(false));
        assert_eq!(Value::Unknown.equals(&Value::Int(1)), None);
    }

    #[test]
    fn instances_of_variant_sized_struct_and_aliased_types() {
        let s = |t: &str| Value::Str(t.into());
        let hash = |pairs: &[(&str, Value)]| Value::Hash(pairs.iter().map(|(k, v)| (s(k), v.clone())).collect());
        assert_eq!(s("x").instance_of("Variant[Integer, Enum['auto']]"), Some(false));
        assert_eq!(s("auto").instance_of("Variant[Integer, Enum['auto']]"), Some(true));
        assert_eq!(s("x").instance_of("Variant[Integer, Data]"), None);
        assert_eq!(s("a,b").instance_of("Pattern[/^a,b$/]"), Some(true));
        assert_eq!(s("é").instance_of("String[2]"), Some(false));
        assert_eq!(s("ab").instance_of("String[2, default]"), Some(true));
        assert_eq!(Value::Array(vec![]).instance_of("Array[String, 1]"), Some(false));
        assert_eq!(Value::Array(vec![Value::Unknown]).instance_of("Array[String, 2]"), Some(false));
        assert_eq!(Value::Array(vec![Value::Unknown]).instance_of("Array[String, 1]"), None);
        assert_eq!(Value::Int(11).instance_of("Integer[default, 10]"), Some(false));
        let account = "Struct[{ 'user' => String, Optional['uid'] => Integer, 'shell' => Optional[String] }]";
        assert_eq!(hash(&[("user", s("app"))]).instance_of(account), Some(true));
        assert_eq!(hash(&[("uid", Value::Int(1))]).instance_of(account), Some(false));
        assert_eq!(hash(&[("user", s("app")), ("home", s("/"))]).instance_of(account), Some(false));
        assert_eq!(hash(&[("user", s("app")), ("uid", s("1"))]).instance_of(account), Some(false));
        assert_eq!(hash(&[("user", s("app")), ("uid", Value::Unknown)]).instance_of(account), None);
        let aliases = |name: &str| match name {
            "App::Port" => Some("Integer[1, 65535]"),
            "App::Loop" => Some("Variant[String, App::Loop]"),
            _ => None,
        };
        assert_eq!(Value::Int(0).instance_of_with("App::Port", &aliases), Some(false));
        assert_eq!(Value::Int(0).instance_of_with("Optional[App::Port]", &aliases), Some(false));
        assert_eq!(Value::Int(0).instance_of_with("App::Loop", &aliases), None);
        assert_eq!(s("x").instance_of_with("App::Loop", &aliases), Some(true));
        assert_eq!(Value::Int(0).instance_of_with("App::Other", &aliases), None);
    }

    #[test]
    fn instances_of_core_types() {
        assert_eq!(Value::Bool(true).instance_of("Array"), Some(false));
        assert_eq!(Value::Array(vec![]).instance_of("Array"), Some(true));
        assert_eq!(Value::Bool(true).instance_of("Array[String]"), Some(false));
        assert_eq!(Value::Array(vec![Value::Unknown]).instance_of("Array[String]"), None);
        assert_eq!(Value::Array(vec![Value::Int(1)]).instance_of("Array[String]"), Some(false));
        assert_eq!(Value::Int(1).instance_of("Integer[2, 3]"), Some(false));
        assert_eq!(Value::Int(2).instance_of("Integer[2]"), Some(true));
        assert_eq!(Value::Undef.instance_of("Optional[String]"), Some(true));
        assert_eq!(Value::Str("x".into()).instance_of("Stdlib::Port"), None);
        assert_eq!(Value::Str("12:g".into()).instance_of("Pattern[/\\A\\d+:[\\w-]+\\z/]"), None);
        assert_eq!(Value::Str("12:g".into()).instance_of("Pattern[/^\\d+:/]"), Some(true));
        assert_eq!(Value::Int(12).instance_of("Pattern[/^1/]"), Some(false));
        assert_eq!(Value::Str("b".into()).instance_of("Enum['a', 'b']"), Some(true));
        assert_eq!(Value::Str("c".into()).instance_of("Enum['a', 'b']"), Some(false));
        assert_eq!(Value::Float(3.1).instance_of("Iterable"), Some(false));
        assert_eq!(Value::Int(-1).instance_of("Iterable"), Some(false));
        assert_eq!(Value::Int(3).instance_of("Iterable"), Some(true));
        assert_eq!(Value::Str(String::new()).instance_of("Iterable"), Some(true));
        let nested = Value::Array(vec![Value::Int(1), Value::Array(vec![Value::Int(2)])]);
        assert_eq!(nested.instance_of("Iterable[Variant[String, Numeric]]"), Some(false));
        assert_eq!(Value::Str("ab".into()).instance_of("Iterable[String]"), Some(true));
        assert_eq!(Value::Str("ab".into()).instance_of("Variant[Iterator, Array, Hash, Object]"), Some(false));
        // Bare words are strings; keywords and type names are not.
        assert_eq!(Value::Str("present".into()).instance_of("Enum[present, absent]"), Some(true));
        assert_eq!(Value::Str("running".into()).instance_of("Enum[present, absent]"), Some(false));
        assert_eq!(Value::Str("c".into()).instance_of("Enum[Present]"), None);
        assert_eq!(Value::Str("c".into()).instance_of("Enum[undef]"), None);
        assert_eq!(Value::Str("c".into()).instance_of("Enum[foo-bar]"), None);
        let s = |text: &str| Value::Str(text.into());
        let hash = |key: &str| Value::Hash(vec![(s(key), Value::Int(1))]);
        assert_eq!(hash("b").instance_of("Struct[{b => Integer}]"), Some(true));
        assert_eq!(hash("c").instance_of("Struct[{b => Integer}]"), Some(false));
        assert_eq!(Value::Unknown.instance_of("String"), None);
        assert_eq!(binary(BinaryOp::Match, &Value::Bool(true), &Value::Type("Array".into())), Value::Bool(false));
    }

    #[test]
    fn truthiness() {
        assert_eq!(Value::Str(String::new()).truthy(), Some(true));
        assert_eq!(Value::Undef.truthy(), Some(false));
        assert_eq!(Value::Unknown.truthy(), None);
    }

    #[test]
    fn operators() {
        assert_eq!(binary(BinaryOp::Add, &Value::Int(2), &Value::Int(3)), Value::Int(5));
        assert_eq!(binary(BinaryOp::And, &Value::Bool(false), &Value::Unknown), Value::Bool(false));
        assert_eq!(
            binary(BinaryOp::Match, &Value::Str("web01".into()), &Value::Regex("^web".into())),
            Value::Bool(true)
        );
        assert_eq!(
            binary(BinaryOp::In, &Value::Str("A".into()), &Value::Array(vec![Value::Str("a".into())])),
            Value::Bool(true)
        );
        assert_eq!(binary(BinaryOp::Add, &Value::Int(i64::MAX), &Value::Int(1)), Value::Unknown);
    }
}
