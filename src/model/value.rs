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
    /// `Integer 70000`, `Array`.
    pub fn described(&self) -> String {
        match self {
            Value::Undef => "Undef".into(),
            Value::Default => "Default".into(),
            Value::Bool(b) => format!("Boolean {b}"),
            Value::Int(i) => format!("Integer {i}"),
            Value::Float(f) => format!("Float {f}"),
            Value::Str(s) => format!("String '{s}'"),
            Value::Regex(r) => format!("Regexp /{r}/"),
            Value::Array(_) => "Array".into(),
            Value::Hash(_) => "Hash".into(),
            Value::Type(t) => format!("Type {t}"),
            Value::Unknown | Value::Choice(_) => "a value".into(),
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
    /// known only to exclude values of another kind.
    pub fn instance_of(&self, type_text: &str) -> Option<bool> {
        if matches!(self, Value::Unknown | Value::Choice(_) | Value::Default) {
            return None;
        }
        let text = type_text.trim();
        let (head, params) = match text.split_once('[') {
            Some((head, rest)) => (head.trim(), Some(rest.strip_suffix(']')?.trim())),
            None => (text, None),
        };
        let kind = match head {
            "Any" => return Some(true),
            "Undef" => matches!(self, Value::Undef),
            "String" => matches!(self, Value::Str(_)),
            "Integer" => matches!(self, Value::Int(_)),
            "Float" => matches!(self, Value::Float(_)),
            "Numeric" => matches!(self, Value::Int(_) | Value::Float(_)),
            "Boolean" => matches!(self, Value::Bool(_)),
            "Array" | "Tuple" => matches!(self, Value::Array(_)),
            "Hash" | "Struct" => matches!(self, Value::Hash(_)),
            "Collection" => matches!(self, Value::Array(_) | Value::Hash(_)),
            "Regexp" => matches!(self, Value::Regex(_)),
            "Scalar" => {
                matches!(self, Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Regex(_))
            }
            "Pattern" | "Enum" => {
                let Value::Str(text) = self else { return Some(false) };
                let options = split_type_params(params?);
                return any_match(options.iter().map(|option| {
                    if let Some(re) = option.strip_prefix('/').and_then(|o| o.strip_suffix('/')) {
                        regex_match(re, text)
                    } else if head == "Enum"
                        && option.len() >= 2
                        && (option.starts_with('\'') || option.starts_with('"'))
                    {
                        let literal = option.trim_matches(['\'', '"']);
                        Some(literal == text)
                    } else {
                        None
                    }
                }));
            }
            "Optional" => {
                if matches!(self, Value::Undef) {
                    return Some(true);
                }
                return params.and_then(|inner| self.instance_of(inner));
            }
            _ => return None,
        };
        match (kind, params) {
            (false, _) => Some(false),
            (true, None) => Some(true),
            (true, Some(params)) => match (self, head) {
                (Value::Array(items), "Array") => {
                    let element = split_type_params(params).into_iter().next()?;
                    if split_type_params(params).len() > 1 {
                        return None; // size bounds
                    }
                    all_match(items.iter().map(|item| item.instance_of(&element)))
                }
                (Value::Hash(entries), "Hash") => {
                    let parts = split_type_params(params);
                    let [key_type, value_type] = parts.as_slice() else { return None };
                    all_match(entries.iter().flat_map(|(k, v)| [k.instance_of(key_type), v.instance_of(value_type)]))
                }
                (Value::Int(i), "Integer") => {
                    let bounds: Vec<Option<i64>> = params.split(',').map(|b| b.trim().parse().ok()).collect();
                    match bounds.as_slice() {
                        [Some(min)] => Some(i >= min),
                        [Some(min), Some(max)] => Some(i >= min && i <= max),
                        _ => None,
                    }
                }
                _ => None,
            },
        }
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

/// The parameters of a type, split at top-level commas: `String, Array[Integer, 2]`.
fn split_type_params(params: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in params.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
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
    fn puppet_equality_ignores_case_for_strings() {
        assert_eq!(Value::Str("Debian".into()).equals(&Value::Str("debian".into())), Some(true));
        assert_eq!(Value::Int(1).equals(&Value::Str("1".into())), Some(false));
        assert_eq!(Value::Unknown.equals(&Value::Int(1)), None);
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
