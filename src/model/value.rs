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
}

impl Value {
    /// Puppet's truthiness: only `undef` and `false` are false.
    pub fn truthy(&self) -> Option<bool> {
        match self {
            Value::Unknown => None,
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
            Value::Regex(_) | Value::Hash(_) | Value::Unknown => return None,
        })
    }

    fn to_quoted_text(&self) -> Option<String> {
        match self {
            Value::Str(s) => Some(format!("'{s}'")),
            other => other.to_text(),
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
            (Value::Unknown, _) | (_, Value::Unknown) => return None,
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

    /// Does this value match a case option or selector key?
    pub fn matches(&self, pattern: &Value) -> Option<bool> {
        match pattern {
            Value::Default => Some(true),
            Value::Regex(re) => match self {
                Value::Str(s) => regex_match(re, s),
                Value::Unknown => None,
                _ => Some(false),
            },
            Value::Type(_) => None,
            Value::Array(options) if !matches!(self, Value::Array(_)) => {
                any_match(options.iter().map(|option| self.matches(option)))
            }
            _ => self.equals(pattern),
        }
    }
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
    let re = regex::Regex::new(pattern).ok()?;
    Some(re.is_match(text))
}

pub fn binary(op: BinaryOp, left: &Value, right: &Value) -> Value {
    use BinaryOp::*;
    if matches!(left, Value::Unknown) || matches!(right, Value::Unknown) {
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
                _ => None,
            };
            bool_or_unknown(if op == Match { matched } else { matched.map(|b| !b) })
        }
        In => match right {
            Value::Array(items) => bool_or_unknown(any_match(items.iter().map(|item| left.equals(item)))),
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
