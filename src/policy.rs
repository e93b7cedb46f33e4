//! Policy constraints: what a team's Puppet code may and may not do, stated
//! in a policy file's `[[constraint]]` tables and checked over the values
//! the interpreter evaluated (through variables, parameters and includes).

use regex::Regex;
use serde::Deserialize;

use crate::rules::Level;

/// One constraint of a policy, checked on every resource (or resource-like
/// class declaration) of its type.
#[derive(Debug, Clone)]
pub struct Constraint {
    /// Stable id: findings carry it as their rule, suppressions name it.
    pub id: &'static str,
    pub level: Level,
    pub message: String,
    /// The policy that states it.
    pub policy: String,
    /// Lower-case resource type (`file`, `apache::vhost`), or `class` for
    /// class parameters given at a resource-like declaration.
    pub type_name: String,
    /// Only resources whose title matches.
    pub title: Option<Regex>,
    pub test: Test,
}

/// What a constraint requires of a resource.
#[derive(Debug, Clone)]
pub enum Test {
    /// An attribute's value, where it is known.
    Value {
        attribute: String,
        must_match: Option<Regex>,
        must_not_match: Option<Regex>,
        forbidden: Vec<String>,
        allowed: Vec<String>,
    },
    /// At least one of these attributes is set in the declaration.
    OneOf(Vec<String>),
}

impl PartialEq for Constraint {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.policy == other.policy
    }
}

/// A `[[constraint]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConstraintSpec {
    id: String,
    #[serde(default)]
    level: Option<String>,
    message: String,
    #[serde(rename = "type")]
    type_name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    attribute: Option<String>,
    #[serde(default)]
    must_match: Option<String>,
    #[serde(default)]
    must_not_match: Option<String>,
    #[serde(default)]
    forbidden: Vec<String>,
    #[serde(default)]
    allowed: Vec<String>,
    #[serde(default)]
    require_one_of: Vec<String>,
}

fn regex(field: &str, pattern: &Option<String>) -> Result<Option<Regex>, String> {
    pattern
        .as_deref()
        .map(|p| Regex::new(p).map_err(|e| format!("`{field}` is not a valid regular expression: {e}")))
        .transpose()
}

fn is_constraint_id(id: &str) -> bool {
    !id.is_empty()
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl ConstraintSpec {
    /// Checks the table and compiles its patterns.
    pub fn build(self, policy: &str) -> Result<Constraint, String> {
        if !is_constraint_id(&self.id) {
            return Err(format!("constraint id `{}` must be lower-case words joined by `-`", self.id));
        }
        if crate::rules::rule_info(&self.id).is_some() {
            return Err(format!("constraint id `{}` is the id of a rule", self.id));
        }
        let level = match self.level.as_deref().unwrap_or("error") {
            "note" => Level::Note,
            "warning" => Level::Warning,
            "error" => Level::Error,
            other => {
                return Err(format!(
                    "constraint `{}` has level `{other}`; expected \"note\", \"warning\" or \"error\"",
                    self.id
                ))
            }
        };
        let title = regex("title", &self.title)?;
        let checks_value = self.must_match.is_some()
            || self.must_not_match.is_some()
            || !self.forbidden.is_empty()
            || !self.allowed.is_empty();
        let test = match (&self.attribute, checks_value, self.require_one_of.is_empty()) {
            (Some(attribute), true, true) => Test::Value {
                attribute: attribute.clone(),
                must_match: regex("must-match", &self.must_match)?,
                must_not_match: regex("must-not-match", &self.must_not_match)?,
                forbidden: self.forbidden,
                allowed: self.allowed,
            },
            (None, false, false) => Test::OneOf(self.require_one_of),
            _ => {
                return Err(format!(
                    "constraint `{}` needs either `attribute` with `must-match`, `must-not-match`, `forbidden` or `allowed`, or `require-one-of` alone",
                    self.id
                ))
            }
        };
        // Ids live as long as the run: findings carry them as their rule.
        let id: &'static str = Box::leak(self.id.into_boxed_str());
        Ok(Constraint {
            id,
            level,
            message: self.message,
            policy: policy.to_string(),
            type_name: crate::model::index::normalize_name(&self.type_name),
            title,
            test,
        })
    }
}

impl Constraint {
    /// Why a known attribute value breaks the constraint, if it does.
    pub fn violation(&self, value: &str) -> Option<String> {
        let Test::Value { must_match, must_not_match, forbidden, allowed, .. } = &self.test else { return None };
        if forbidden.iter().any(|f| f == value) {
            return Some("a forbidden value".into());
        }
        if !allowed.is_empty() && !allowed.iter().any(|a| a == value) {
            return Some(format!(
                "not one of {}",
                allowed.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", ")
            ));
        }
        if let Some(re) = must_not_match {
            if re.is_match(value) {
                return Some(format!("it matches /{}/", re.as_str()));
            }
        }
        if let Some(re) = must_match {
            if !re.is_match(value) {
                return Some(format!("it does not match /{}/", re.as_str()));
            }
        }
        None
    }
}
