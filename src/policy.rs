//! Policy constraints: what a team's Puppet code may and may not do, stated
//! in a policy file's `[[constraint]]` tables and checked over the values
//! the interpreter evaluated (through variables, parameters and includes).

use regex::Regex;
use serde::Deserialize;

use crate::rules::Level;

/// One constraint of a policy.
#[derive(Debug, Clone)]
pub struct Constraint {
    /// Stable id: findings carry it as their rule, suppressions name it.
    pub id: &'static str,
    pub level: Level,
    pub message: String,
    /// The policy that states it.
    pub policy: String,
    /// For the constraints on resources: the lower-case resource type
    /// (`file`, `apache::vhost`), or `class` for class parameters given at
    /// a resource-like declaration.
    pub type_name: Option<String>,
    /// Only resources whose title matches.
    pub title: Option<Regex>,
    /// Only code in files whose path matches (relative to the checked
    /// directory); everywhere when `None`.
    pub paths: Option<PathGlobs>,
    pub test: Test,
}

/// What a constraint requires.
#[derive(Debug, Clone)]
pub enum Test {
    /// An attribute's value, where it is known.
    Value {
        attribute: String,
        must_match: Option<Regex>,
        must_not_match: Option<Regex>,
        forbidden: Vec<String>,
        allowed: Vec<String>,
        /// A file mode sets no permission bit beyond these.
        mode_at_most: Option<u32>,
    },
    /// At least one of these attributes is set in the declaration.
    OneOf(Vec<String>),
    /// No resource of these types is declared.
    ForbidTypes(NameGlobs),
    /// None of these functions is called.
    ForbidFunctions(NameGlobs),
    /// The code of some classes, defined types or nodes declares only some
    /// classes.
    Declares { declaring: Declarers, forbid: Option<NameGlobs>, allow: Option<NameGlobs> },
    /// Each node declares exactly one of these classes.
    ExactlyOne(NameGlobs),
    /// Classes declared resource-like (`class { 'x': }`): anywhere, or
    /// outside their own module; `None` for every class.
    ResourceLike { classes: Option<NameGlobs>, anywhere: bool },
    /// These classes have no parameters.
    NoParameters(NameGlobs),
    /// None of these constructs is written.
    ForbidConstructs(Vec<Construct>),
}

/// A construct `forbid-construct` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Construct {
    /// `File { mode => '0644' }`.
    ResourceDefaults,
    /// A collector that selects by anything but the title, or selects all.
    CollectorNotByTitle,
    /// A class or defined type defined inside a class or defined type.
    NestedDefinition,
    /// `inherits` from a class that is not a `::params` class.
    InheritsNotParams,
    /// A node definition outside a site's `manifests/`.
    NodeOutsideManifests,
}

impl Construct {
    pub const ALL: [Construct; 5] = [
        Construct::ResourceDefaults,
        Construct::CollectorNotByTitle,
        Construct::NestedDefinition,
        Construct::InheritsNotParams,
        Construct::NodeOutsideManifests,
    ];

    /// The name `forbid-construct` gives it.
    pub fn key(self) -> &'static str {
        match self {
            Construct::ResourceDefaults => "resource-defaults",
            Construct::CollectorNotByTitle => "collector-not-by-title",
            Construct::NestedDefinition => "nested-definition",
            Construct::InheritsNotParams => "inherits-not-params",
            Construct::NodeOutsideManifests => "node-outside-manifests",
        }
    }
}

/// Whose code a declaration constraint looks at.
#[derive(Debug, Clone)]
pub struct Declarers {
    /// Node definitions (`node` in `declaring`).
    pub nodes: bool,
    /// Classes and defined types by name.
    pub names: Option<NameGlobs>,
    pub except: Option<NameGlobs>,
}

impl Declarers {
    /// Whether the code of this class or defined type is looked at.
    pub fn class(&self, name: &str) -> bool {
        self.names.as_ref().is_some_and(|n| n.matching(name).is_some())
            && self.except.as_ref().is_none_or(|e| e.matching(name).is_none())
    }
}

/// Globs over Puppet names (`exec`, `apache::*`), without case; `*` spans
/// `::`.
#[derive(Debug, Clone)]
pub struct NameGlobs {
    patterns: Vec<(String, globset::GlobMatcher)>,
}

impl NameGlobs {
    fn new(field: &str, patterns: &[String]) -> Result<NameGlobs, String> {
        let patterns = patterns
            .iter()
            .map(|p| {
                let name = crate::model::index::normalize_name(p);
                let glob = globset::Glob::new(&name)
                    .map_err(|e| format!("`{field}` has a pattern that is not a valid glob: {e}"))?;
                Ok((name, glob.compile_matcher()))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(NameGlobs { patterns })
    }

    /// The patterns, for messages: `` `profile::*` `` or
    /// `` `a`, `b` or `c` ``.
    pub fn describe(&self) -> String {
        let quoted: Vec<String> = self.patterns.iter().map(|(p, _)| format!("`{p}`")).collect();
        match quoted.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => quoted.join(""),
        }
    }

    /// The pattern a name matches, if one does (names as Puppet writes
    /// them, any case, `::` in front or not).
    pub fn matching(&self, name: &str) -> Option<&str> {
        let name = crate::model::index::normalize_name(name);
        self.patterns.iter().find(|(_, glob)| glob.is_match(&name)).map(|(pattern, _)| pattern.as_str())
    }
}

/// Globs over file paths relative to the checked directory: `*` stays
/// within a directory, `**` spans any; a pattern naming a directory
/// covers what is under it.
#[derive(Debug, Clone)]
pub struct PathGlobs {
    set: globset::GlobSet,
}

impl PathGlobs {
    pub fn new(field: &str, patterns: &[String]) -> Result<PathGlobs, String> {
        let mut builder = globset::GlobSetBuilder::new();
        let glob = |pattern: &str| {
            globset::GlobBuilder::new(pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("`{field}` has a pattern that is not a valid glob: {e}"))
        };
        for pattern in patterns {
            let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
            builder.add(glob(pattern)?);
            builder.add(glob(&format!("{pattern}/**"))?);
        }
        let set = builder.build().map_err(|e| format!("`{field}`: {e}"))?;
        Ok(PathGlobs { set })
    }

    pub fn is_match(&self, relative: &std::path::Path) -> bool {
        self.set.is_match(relative)
    }
}

/// Functions that declare resources of the type their first argument
/// names.
pub const RESOURCE_FUNCTIONS: &[&str] = &["create_resources", "ensure_resource", "ensure_resources"];

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
    #[serde(rename = "type", default)]
    type_name: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    paths: Option<Vec<String>>,
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
    mode_at_most: Option<String>,
    #[serde(default)]
    require_one_of: Vec<String>,
    #[serde(default)]
    forbid_type: Vec<String>,
    #[serde(default)]
    forbid_function: Vec<String>,
    #[serde(default)]
    declaring: Vec<String>,
    #[serde(default)]
    except: Vec<String>,
    #[serde(default)]
    forbid_class: Vec<String>,
    #[serde(default)]
    allow_class: Vec<String>,
    #[serde(default)]
    exactly_one_class: Vec<String>,
    #[serde(default)]
    forbid_resource_like: Option<String>,
    #[serde(default)]
    classes: Vec<String>,
    #[serde(default)]
    forbid_parameters: bool,
    #[serde(default)]
    forbid_construct: Vec<String>,
}

fn regex(field: &str, pattern: &Option<String>) -> Result<Option<Regex>, String> {
    pattern
        .as_deref()
        .map(|p| Regex::new(p).map_err(|e| format!("`{field}` is not a valid regular expression: {e}")))
        .transpose()
}

/// `"0755"`: an octal mode of one to four digits.
fn parse_mode_limit(id: &str, text: &str) -> Result<u32, String> {
    let valid = !text.is_empty() && text.len() <= 5 && text.chars().all(|c| ('0'..='7').contains(&c));
    match u32::from_str_radix(text, 8) {
        Ok(mode) if valid && mode <= 0o7777 => Ok(mode),
        _ => Err(format!("constraint `{id}` has `mode-at-most = \"{text}\"`; expected an octal mode such as \"0755\"")),
    }
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
        let paths = match &self.paths {
            Some(paths) if paths.is_empty() => {
                return Err(format!("constraint `{}` has empty `paths`; leave it out to apply everywhere", self.id))
            }
            Some(paths) => Some(PathGlobs::new("paths", paths)?),
            None => None,
        };
        let checks_value = self.must_match.is_some()
            || self.must_not_match.is_some()
            || !self.forbidden.is_empty()
            || !self.allowed.is_empty()
            || self.mode_at_most.is_some();
        let declares = !self.forbid_class.is_empty() || !self.allow_class.is_empty();
        let kinds = [
            self.attribute.is_some() || checks_value,
            !self.require_one_of.is_empty(),
            !self.forbid_type.is_empty(),
            !self.forbid_function.is_empty(),
            declares,
            !self.exactly_one_class.is_empty(),
            self.forbid_resource_like.is_some(),
            self.forbid_parameters,
            !self.forbid_construct.is_empty(),
        ];
        let needs_type = kinds[0] || kinds[1];
        let globs = |field: &str, patterns: &[String]| -> Result<Option<NameGlobs>, String> {
            (!patterns.is_empty()).then(|| NameGlobs::new(field, patterns)).transpose()
        };
        let declaring = Declarers {
            nodes: self.declaring.iter().any(|d| d == "node"),
            names: globs("declaring", &self.declaring.iter().filter(|d| *d != "node").cloned().collect::<Vec<_>>())?,
            except: globs("except", &self.except)?,
        };
        let unknown_kind = || {
            format!(
                "constraint `{}` needs one of: `attribute` with `must-match`, `must-not-match`, `forbidden`, `allowed` or `mode-at-most`; `require-one-of`; `forbid-type`; `forbid-function`; `forbid-class` or `allow-class`; `exactly-one-class`; `forbid-resource-like`; `forbid-parameters`; `forbid-construct`",
                self.id
            )
        };
        if kinds.iter().filter(|k| **k).count() != 1 {
            return Err(unknown_kind());
        }
        let uses_declaring = declares || !self.exactly_one_class.is_empty();
        let has_declaring = !self.declaring.is_empty() || !self.except.is_empty();
        if has_declaring && !uses_declaring {
            return Err(format!(
                "constraint `{}` has `declaring` or `except`, which only `forbid-class`, `allow-class` and `exactly-one-class` take",
                self.id
            ));
        }
        if uses_declaring && self.declaring.is_empty() {
            return Err(format!(
                "constraint `{}` needs `declaring`: the classes, defined types or `node` whose code it looks at",
                self.id
            ));
        }
        let takes_classes = self.forbid_resource_like.is_some() || self.forbid_parameters;
        if !takes_classes && !self.classes.is_empty() {
            return Err(format!(
                "constraint `{}` has `classes`, which only `forbid-resource-like` and `forbid-parameters` take",
                self.id
            ));
        }
        let test = if kinds[0] {
            let Some(attribute) = self.attribute.clone().filter(|_| checks_value) else { return Err(unknown_kind()) };
            Test::Value {
                attribute,
                must_match: regex("must-match", &self.must_match)?,
                must_not_match: regex("must-not-match", &self.must_not_match)?,
                forbidden: self.forbidden,
                allowed: self.allowed,
                mode_at_most: self.mode_at_most.as_deref().map(|m| parse_mode_limit(&self.id, m)).transpose()?,
            }
        } else if kinds[1] {
            Test::OneOf(self.require_one_of)
        } else if kinds[2] {
            Test::ForbidTypes(NameGlobs::new("forbid-type", &self.forbid_type)?)
        } else if kinds[3] {
            Test::ForbidFunctions(NameGlobs::new("forbid-function", &self.forbid_function)?)
        } else if declares {
            Test::Declares {
                declaring,
                forbid: globs("forbid-class", &self.forbid_class)?,
                allow: globs("allow-class", &self.allow_class)?,
            }
        } else if kinds[5] {
            if declaring.names.is_some() || !declaring.nodes {
                return Err(format!(
                    "constraint `{}`: `exactly-one-class` applies to nodes only (`declaring = [\"node\"]`)",
                    self.id
                ));
            }
            Test::ExactlyOne(NameGlobs::new("exactly-one-class", &self.exactly_one_class)?)
        } else if let Some(where_) = &self.forbid_resource_like {
            let anywhere = match where_.as_str() {
                "everywhere" => true,
                "outside-module" => false,
                other => {
                    return Err(format!(
                        "constraint `{}` has `forbid-resource-like = \"{other}\"`; expected \"outside-module\" or \"everywhere\"",
                        self.id
                    ))
                }
            };
            Test::ResourceLike { classes: globs("classes", &self.classes)?, anywhere }
        } else if kinds[8] {
            let constructs = self
                .forbid_construct
                .iter()
                .map(|name| {
                    Construct::ALL.into_iter().find(|c| c.key() == name).ok_or_else(|| {
                        let known: Vec<&str> = Construct::ALL.iter().map(|c| c.key()).collect();
                        format!(
                            "constraint `{}` has unknown construct `{name}` in `forbid-construct`; the constructs are {}",
                            self.id,
                            known.join(", ")
                        )
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Test::ForbidConstructs(constructs)
        } else {
            if self.classes.is_empty() {
                return Err(format!("constraint `{}` needs `classes`: the classes that take no parameters", self.id));
            }
            Test::NoParameters(NameGlobs::new("classes", &self.classes)?)
        };
        match (&self.type_name, needs_type) {
            (None, true) => {
                return Err(format!("constraint `{}` needs `type`: the resource type it applies to", self.id))
            }
            (Some(_), false) => {
                return Err(format!(
                    "constraint `{}` has `type`, which only `attribute` and `require-one-of` constraints take",
                    self.id
                ))
            }
            _ => {}
        }
        if title.is_some() && !needs_type {
            return Err(format!(
                "constraint `{}` has `title`, which only `attribute` and `require-one-of` constraints take",
                self.id
            ));
        }
        // Ids live as long as the run: findings carry them as their rule.
        let id: &'static str = Box::leak(self.id.into_boxed_str());
        Ok(Constraint {
            id,
            level,
            message: self.message,
            policy: policy.to_string(),
            type_name: self.type_name.as_deref().map(crate::model::index::normalize_name),
            title,
            paths,
            test,
        })
    }
}

impl Constraint {
    /// Whether declarations of a resource type are recorded with their
    /// attributes for this constraint.
    pub fn records_type(&self, type_name: &str) -> bool {
        match &self.test {
            Test::ForbidTypes(types) => types.matching(type_name).is_some(),
            _ => self.type_name.as_deref() == Some(type_name),
        }
    }

    /// Whether calls of a function are recorded for this constraint: the
    /// functions it forbids, those that call a function by name (`call`,
    /// `Deferred`, `new(Deferred, …)`), and those that declare resources
    /// of a type given by name.
    pub fn records_call(&self, function: &str) -> bool {
        match &self.test {
            Test::ForbidFunctions(functions) => {
                matches!(function, "call" | "deferred" | "new") || functions.matching(function).is_some()
            }
            Test::ForbidTypes(_) => RESOURCE_FUNCTIONS.contains(&function),
            _ => false,
        }
    }

    /// Whether the constraint applies to code in a file at this path
    /// (relative to the checked directory).
    pub fn applies_in(&self, relative: &std::path::Path) -> bool {
        self.paths.as_ref().is_none_or(|paths| paths.is_match(relative))
    }

    /// Why a known attribute value breaks the constraint, if it does.
    pub fn violation(&self, value: &str) -> Option<String> {
        let Test::Value { must_match, must_not_match, forbidden, allowed, mode_at_most, .. } = &self.test else {
            return None;
        };
        if let Some(limit) = mode_at_most {
            if let Some(set) = certain_mode_bits(value) {
                let beyond = set & !limit;
                if beyond != 0 {
                    return Some(format!("which sets bits beyond {limit:04o}: {}", describe_mode_bits(beyond)));
                }
            }
        }
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

/// The permission bits a file mode certainly sets, whatever the file's
/// mode before: all of a numeric mode's (`"0644"`), those a symbolic mode
/// (`"u=rwx,go+r"`, `"o-w"`) sets for sure (`+` and `=` set bits, `-`
/// clears them, `X` and copies of bits that may or may not be set are not
/// certain). `None` for what is not a mode Puppet accepts.
pub fn certain_mode_bits(mode: &str) -> Option<u32> {
    if !mode.is_empty() && mode.len() <= 5 && mode.chars().all(|c| ('0'..='7').contains(&c)) {
        return u32::from_str_radix(mode, 8).ok().filter(|m| *m <= 0o7777);
    }
    // Per class (special bits, user, group, others): bits certainly set,
    // bits possibly set.
    let mut must = [0u32; 4];
    let mut may = [0o7u32; 4];
    let class = |c: char| match c {
        'u' => Some(1),
        'g' => Some(2),
        'o' => Some(3),
        _ => None,
    };
    for part in mode.split(',') {
        let part = part.trim();
        let split = part.find(['+', '-', '='])?;
        let (who, actions) = part.split_at(split);
        if !who.chars().all(|c| "ugoa".contains(c)) {
            return None;
        }
        let who: Vec<usize> = if who.is_empty() || who.contains('a') {
            vec![1, 2, 3]
        } else {
            let mut w: Vec<usize> = who.chars().filter_map(class).collect();
            w.dedup();
            w
        };
        let (snap_must, snap_may) = (must, may);
        for &target in &who {
            let (mut value_must, mut value_may) = (snap_must[target], snap_may[target]);
            let mut action = None;
            for op in actions.chars() {
                let bits = |c: char| match c {
                    'r' => Some((4, 4)),
                    'w' => Some((2, 2)),
                    'x' => Some((1, 1)),
                    'u' | 'g' | 'o' => class(c).map(|i| (snap_must[i], snap_may[i])),
                    _ => None,
                };
                match op {
                    '+' | '-' | '=' => {
                        action = Some(op);
                        if op == '=' {
                            (value_must, value_may) = (0, 0);
                        }
                    }
                    'X' if action == Some('+') => value_may |= 1,
                    's' | 't' => {
                        let bit = match (op, target) {
                            ('s', 1) => 4,
                            ('s', 2) => 2,
                            _ => 1,
                        };
                        match action? {
                            '-' => {
                                must[0] &= !bit;
                                may[0] &= !bit;
                            }
                            _ => {
                                must[0] |= bit;
                                may[0] |= bit;
                            }
                        }
                    }
                    c => {
                        let (b_must, b_may) = bits(c)?;
                        match action? {
                            '-' => {
                                value_must &= !b_may;
                                value_may &= !b_must;
                            }
                            _ => {
                                value_must |= b_must;
                                value_may |= b_may;
                            }
                        }
                    }
                }
            }
            action?;
            must[target] = value_must;
            may[target] = value_may;
        }
    }
    Some(must[0] << 9 | must[1] << 6 | must[2] << 3 | must[3])
}

/// `write for others`, `setuid`: the bits named, for messages.
fn describe_mode_bits(bits: u32) -> String {
    let names = [
        (0o4000, "setuid"),
        (0o2000, "setgid"),
        (0o1000, "sticky"),
        (0o400, "read for the owner"),
        (0o200, "write for the owner"),
        (0o100, "execute for the owner"),
        (0o040, "read for the group"),
        (0o020, "write for the group"),
        (0o010, "execute for the group"),
        (0o004, "read for others"),
        (0o002, "write for others"),
        (0o001, "execute for others"),
    ];
    let named: Vec<&str> = names.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| *n).collect();
    named.join(", ")
}

#[cfg(test)]
mod tests {
    use super::certain_mode_bits;

    #[test]
    fn modes_set_these_bits_for_sure() {
        assert_eq!(certain_mode_bits("0644"), Some(0o644));
        assert_eq!(certain_mode_bits("755"), Some(0o755));
        assert_eq!(certain_mode_bits("2775"), Some(0o2775));
        assert_eq!(certain_mode_bits("u=rwx,go=rx"), Some(0o755));
        assert_eq!(certain_mode_bits("a=rwx"), Some(0o777));
        assert_eq!(certain_mode_bits("=rw"), Some(0o666));
        assert_eq!(certain_mode_bits("o+w"), Some(0o002));
        assert_eq!(certain_mode_bits("ug+rw,o-rwx"), Some(0o660));
        // Removing bits, or `X`, sets none for sure.
        assert_eq!(certain_mode_bits("go-w"), Some(0));
        assert_eq!(certain_mode_bits("a+X"), Some(0));
        // Copies: `g=u` after `u=rw` copies what is known.
        assert_eq!(certain_mode_bits("u=rw,g=u"), Some(0o660));
        assert_eq!(certain_mode_bits("o=u"), Some(0));
        assert_eq!(certain_mode_bits("u+s,g+s,+t"), Some(0o7000));
        // The bits Puppet 7's file type sets whatever the mode before (for
        // files and directories alike).
        for (mode, bits) in [
            ("0644", 0o0644),
            ("755", 0o0755),
            ("2775", 0o2775),
            ("u=rwx,go=rx", 0o0755),
            ("a=rwx", 0o0777),
            ("=rw", 0o0666),
            ("o+w", 0o0002),
            ("ug+rw,o-rwx", 0o0660),
            ("go-w", 0o0000),
            ("a+X", 0o0000),
            ("u=rw,g=u", 0o0660),
            ("o=u", 0o0000),
            ("u+s,g+s,+t", 0o7000),
            ("u=rwx,g=u,o=g", 0o0777),
            ("u+rw,g=u-w", 0o0640),
            ("o=rwx,o-u", 0o0000),
            ("ug=rw,o=u", 0o0666),
            ("u=rws,g=rxs,o=t", 0o7650),
            ("a=r,u+w,g+u", 0o0664),
            ("u=rwx,go=u-w", 0o0755),
        ] {
            assert_eq!(certain_mode_bits(mode), Some(bits), "{mode}");
        }
        assert_eq!(certain_mode_bits("rw"), None);
        assert_eq!(certain_mode_bits("0999"), None);
        assert_eq!(certain_mode_bits("u=rwz"), None);
    }
}
