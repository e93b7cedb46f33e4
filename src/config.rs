//! Configuration: `.mplint.toml` (found upward from the first checked path,
//! or named with `--config`), policies (presets in `policies/`), and the
//! command line, each overriding the one before.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::rules::{rule_info, Level};

pub const FILE_NAME: &str = ".mplint.toml";

/// A rule's configured level: one of the levels, or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    On(Level),
}

pub fn parse_rule_level(text: &str) -> Option<RuleLevel> {
    Some(match text {
        "off" => RuleLevel::Off,
        "note" => RuleLevel::On(Level::Note),
        "warning" => RuleLevel::On(Level::Warning),
        "error" => RuleLevel::On(Level::Error),
        _ => return None,
    })
}

fn parse_level(text: &str) -> Option<Level> {
    match parse_rule_level(text)? {
        RuleLevel::On(level) => Some(level),
        RuleLevel::Off => None,
    }
}

/// The built-in policies.
pub const POLICIES: &[(&str, &str)] = &[
    ("deny-node-scope", include_str!("../policies/deny-node-scope.toml")),
    ("strict", include_str!("../policies/strict.toml")),
    ("security", include_str!("../policies/security.toml")),
    ("roles-profiles", include_str!("../policies/roles-profiles.toml")),
];

/// The settings a run uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub levels: BTreeMap<&'static str, RuleLevel>,
    pub fail_on: Level,
    pub excludes: Vec<String>,
    pub module_path: Vec<PathBuf>,
    pub policies: Vec<String>,
    /// The configuration file that was read, if any.
    pub file: Option<PathBuf>,
    /// The site's own functions that declare classes, by name.
    pub include_functions: BTreeMap<String, IncludeFunction>,
    /// Top-scope variables the site's nodes get from outside the tree:
    /// external facts (`facts.d` on the agents), an ENC's parameters.
    pub facts: Vec<String>,
    /// The constraints of the policies applied, in order.
    pub constraints: Vec<crate::policy::Constraint>,
    /// Rule levels for some paths (`[[override]]`), in the order applied.
    pub overrides: Vec<Override>,
    /// Rules whose level the command line set: no override changes it.
    pub pinned: std::collections::BTreeSet<&'static str>,
}

/// Rule levels for the files some globs match.
#[derive(Debug, Clone)]
pub struct Override {
    /// The globs as written.
    pub patterns: Vec<String>,
    pub paths: crate::policy::PathGlobs,
    /// `"*"`: the level of every rule on where the override applies.
    pub all: Option<RuleLevel>,
    pub levels: BTreeMap<&'static str, RuleLevel>,
}

impl PartialEq for Override {
    fn eq(&self, other: &Self) -> bool {
        self.patterns == other.patterns && self.all == other.all && self.levels == other.levels
    }
}

/// An `[[override]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OverrideSpec {
    paths: Spanned<Vec<String>>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// A function of the site that declares classes as `include` does, such as
/// a `role(x)` that includes `role::x`: `[include-functions.role]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct IncludeFunction {
    /// The class each argument names, `{}` standing for the argument:
    /// `"role::{}"`.
    pub class: String,
    /// Top-scope variables the function sets (their values are unknown).
    #[serde(default)]
    pub sets: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            levels: crate::rules::ALL_RULES
                .iter()
                .map(|r| {
                    let level =
                        if crate::rules::on_by_default(r.id) { RuleLevel::On(r.default_level) } else { RuleLevel::Off };
                    (r.id, level)
                })
                .collect(),
            fail_on: Level::Error,
            excludes: Vec::new(),
            module_path: Vec::new(),
            policies: Vec::new(),
            file: None,
            include_functions: BTreeMap::new(),
            facts: Vec::new(),
            constraints: Vec::new(),
            overrides: Vec::new(),
            pinned: std::collections::BTreeSet::new(),
        }
    }
}

impl Settings {
    /// The level a rule's findings get, or `None` when the rule is off.
    pub fn level(&self, rule: &str) -> Option<Level> {
        match self.levels.get(rule) {
            Some(RuleLevel::On(level)) => Some(*level),
            Some(RuleLevel::Off) => None,
            None => rule_info(rule)
                .filter(|r| crate::rules::on_by_default(r.id))
                .map(|r| r.default_level)
                .or_else(|| self.constraints.iter().find(|c| c.id == rule).map(|c| c.level)),
        }
    }
}

impl Settings {
    /// The level of a rule's findings in a file at `relative` (its path
    /// from the checked directory): the overrides whose `paths` match, in
    /// order, on top of the rule's level, unless the command line set it.
    pub fn level_at(&self, rule: &str, relative: &Path) -> Option<Level> {
        let mut level = match self.level(rule) {
            Some(level) => RuleLevel::On(level),
            None => RuleLevel::Off,
        };
        if !self.pinned.contains(rule) {
            for o in self.overrides.iter().filter(|o| o.paths.is_match(relative)) {
                if let Some(named) = o.levels.get(rule) {
                    level = *named;
                } else if let (Some(all), RuleLevel::On(_)) = (o.all, level) {
                    level = all;
                }
            }
        }
        match level {
            RuleLevel::On(level) => Some(level),
            RuleLevel::Off => None,
        }
    }

    /// Whether a rule is on in some file: globally, or by an override.
    pub fn on_somewhere(&self, rule: &str) -> bool {
        self.level(rule).is_some()
            || (!self.pinned.contains(rule)
                && self.overrides.iter().any(|o| matches!(o.levels.get(rule), Some(RuleLevel::On(_)))))
    }

    /// Whether a rule is on in every file: on globally and turned off by no
    /// override.
    pub fn on_everywhere(&self, rule: &str) -> bool {
        self.level(rule).is_some()
            && (self.pinned.contains(rule)
                || !self.overrides.iter().any(|o| {
                    matches!(o.levels.get(rule), Some(RuleLevel::Off))
                        || (!o.levels.contains_key(rule) && o.all == Some(RuleLevel::Off))
                }))
    }
}

/// What a configuration file or policy may say.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileConfig {
    fail_on: Option<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    modulepath: Vec<String>,
    #[serde(default)]
    policies: Vec<Spanned<String>>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    include_functions: BTreeMap<String, IncludeFunction>,
    #[serde(default)]
    facts: Vec<String>,
    /// A policy file's own name and what it is for.
    name: Option<String>,
    description: Option<String>,
    /// Policies (built-in names or files) this one builds on.
    #[serde(default)]
    extends: Vec<Spanned<String>>,
    #[serde(default)]
    constraint: Vec<Spanned<crate::policy::ConstraintSpec>>,
    /// Rule levels for some paths.
    #[serde(default, rename = "override")]
    overrides: Vec<Spanned<OverrideSpec>>,
}

/// A configuration mistake, with where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.column, self.message)
    }
}

impl std::error::Error for ConfigError {}

fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

struct Source<'t> {
    file: &'t Path,
    text: &'t str,
}

impl Source<'_> {
    /// A rule level as `[rules]` and `[[override]]` write it.
    fn rule_level(&self, what: &str, level: &Spanned<String>) -> Result<RuleLevel, ConfigError> {
        parse_rule_level(level.get_ref()).ok_or_else(|| {
            self.error(
                level.span(),
                format!("{what} has level `{}`; expected \"off\", \"note\", \"warning\" or \"error\"", level.get_ref()),
            )
        })
    }

    fn error(&self, span: std::ops::Range<usize>, message: String) -> ConfigError {
        let (line, column) = position(self.text, span.start);
        ConfigError { file: self.file.to_path_buf(), line, column, message }
    }
}

fn parse(file: &Path, text: &str) -> Result<FileConfig, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| position(text, s.start));
        ConfigError { file: file.to_path_buf(), line, column, message: e.message().to_string() }
    })
}

/// Applies one file's or policy's settings on top of `settings`. Relative
/// module paths are taken from the file's directory.
fn apply(settings: &mut Settings, config: FileConfig, source: &Source<'_>, base: &Path) -> Result<(), ConfigError> {
    for policy in config.extends.iter().chain(&config.policies) {
        apply_policy_from(settings, policy.get_ref(), base).map_err(|m| source.error(policy.span(), m))?;
    }
    let policy_name = config.name.clone().unwrap_or_else(|| source.file.display().to_string());
    for spec in config.constraint {
        let span = spec.span();
        let constraint = spec.into_inner().build(&policy_name).map_err(|m| source.error(span.clone(), m))?;
        if settings.constraints.iter().any(|c| c.id == constraint.id) {
            return Err(source.error(span, format!("constraint id `{}` is already used", constraint.id)));
        }
        settings.constraints.push(constraint);
    }
    if let Some(fail_on) = &config.fail_on {
        settings.fail_on = parse_level(fail_on.get_ref()).ok_or_else(|| {
            source.error(
                fail_on.span(),
                format!("`fail-on` is `{}`; expected \"note\", \"warning\" or \"error\"", fail_on.get_ref()),
            )
        })?;
    }
    settings.excludes.extend(config.exclude);
    settings.include_functions.extend(config.include_functions);
    settings.facts.extend(config.facts.into_iter().map(|f| f.trim_start_matches(['$', ':']).to_string()));
    settings.module_path.extend(config.modulepath.iter().map(|p| base.join(p)));
    // `"*"` sorts first: every rule gets its level, then the rules named.
    for (rule, level) in &config.rules {
        if rule.get_ref() == "*" {
            let parsed = source.rule_level("`*`", level)?;
            // Rules off by default (the security smells, conventions) are
            // turned on by name or by their policy only.
            let ids = crate::rules::ALL_RULES
                .iter()
                .map(|r| r.id)
                .filter(|id| crate::rules::on_by_default(id))
                .chain(settings.constraints.iter().map(|c| c.id));
            let all: Vec<&'static str> = ids.collect();
            for id in all {
                settings.levels.insert(id, parsed);
            }
            continue;
        }
        let constraint = settings.constraints.iter().find(|c| c.id == rule.get_ref()).map(|c| c.id);
        let Some(id) = rule_info(rule.get_ref()).map(|info| info.id).or(constraint) else {
            let hint = crate::rules::similar_rule(rule.get_ref())
                .map_or(String::new(), |id| format!("; did you mean `{id}`?"));
            return Err(source.error(rule.span(), format!("unknown rule `{}` in [rules]{hint}", rule.get_ref())));
        };
        let parsed = source.rule_level(&format!("rule `{}`", rule.get_ref()), level)?;
        settings.levels.insert(id, parsed);
    }
    for spec in config.overrides {
        let spec = spec.into_inner();
        let paths = crate::policy::PathGlobs::new("paths", spec.paths.get_ref())
            .map_err(|m| source.error(spec.paths.span(), m))?;
        if spec.paths.get_ref().is_empty() {
            return Err(source.error(spec.paths.span(), "`paths` of an [[override]] is empty".to_string()));
        }
        let mut o = Override { patterns: spec.paths.get_ref().clone(), paths, all: None, levels: BTreeMap::new() };
        for (rule, level) in &spec.rules {
            let parsed = source.rule_level(&format!("rule `{}`", rule.get_ref()), level)?;
            if rule.get_ref() == "*" {
                o.all = Some(parsed);
                continue;
            }
            let constraint = settings.constraints.iter().find(|c| c.id == rule.get_ref()).map(|c| c.id);
            let Some(id) = rule_info(rule.get_ref()).map(|info| info.id).or(constraint) else {
                let hint = crate::rules::similar_rule(rule.get_ref())
                    .map_or(String::new(), |id| format!("; did you mean `{id}`?"));
                return Err(
                    source.error(rule.span(), format!("unknown rule `{}` in [[override]] rules{hint}", rule.get_ref()))
                );
            };
            o.levels.insert(id, parsed);
        }
        settings.overrides.push(o);
    }
    Ok(())
}

/// What a built-in policy is for (its `description`).
pub fn policy_description(text: &str) -> Option<String> {
    parse(Path::new("policy.toml"), text).ok()?.description
}

/// Applies a policy: a built-in one by name, or a policy file by path.
pub fn apply_policy(settings: &mut Settings, name: &str) -> Result<(), String> {
    apply_policy_from(settings, name, Path::new("."))
}

/// Deepest chain of policies extending policies.
const MAX_EXTENDS: usize = 16;

/// As [`apply_policy`], a relative file path taken from `base`.
fn apply_policy_from(settings: &mut Settings, name: &str, base: &Path) -> Result<(), String> {
    if settings.policies.iter().filter(|p| p.as_str() == name).count() > 0 {
        return Ok(()); // applied already, by another policy it extends
    }
    if settings.policies.len() > MAX_EXTENDS * 4 {
        return Err(format!("policy `{name}`: too many policies extend one another"));
    }
    settings.policies.push(name.to_string());
    if let Some((_, text)) = POLICIES.iter().find(|(n, _)| *n == name) {
        let file = PathBuf::from(format!("policies/{name}.toml"));
        let config = parse(&file, text).map_err(|e| e.to_string())?;
        return apply(settings, config, &Source { file: &file, text }, Path::new(".")).map_err(|e| e.to_string());
    }
    let looks_like_file = name.ends_with(".toml") || name.contains('/');
    if !looks_like_file {
        let known: Vec<&str> = POLICIES.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "unknown policy `{name}`; the policies are {} (or the path of a policy file ending in .toml)",
            known.join(", ")
        ));
    }
    let file = base.join(name);
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read the policy {}: {e}", file.display()))?;
    let config = parse(&file, &text).map_err(|e| e.to_string())?;
    let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
    apply(settings, config, &Source { file: &file, text: &text }, &dir).map_err(|e| e.to_string())
}

/// `.mplint.toml` in `start` or the nearest directory above it.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = if start.is_dir() { start.to_path_buf() } else { start.parent()?.to_path_buf() };
    let start = if start.as_os_str().is_empty() { PathBuf::from(".") } else { start };
    let absolute = std::path::absolute(&start).ok()?;
    absolute.ancestors().map(|dir| dir.join(FILE_NAME)).find(|candidate| candidate.is_file())
}

/// Settings from a configuration file (or none) on top of the defaults.
pub fn load(file: Option<&Path>) -> Result<Settings, ConfigError> {
    let mut settings = Settings::default();
    if let Some(file) = file {
        let text = std::fs::read_to_string(file).map_err(|e| ConfigError {
            file: file.to_path_buf(),
            line: 1,
            column: 1,
            message: format!("cannot read the configuration: {e}"),
        })?;
        let config = parse(file, &text)?;
        let base = file.parent().unwrap_or(Path::new("."));
        apply(&mut settings, config, &Source { file, text: &text }, base)?;
        settings.file = Some(file.to_path_buf());
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Settings, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        std::fs::write(&file, text).unwrap();
        load(Some(&file)).map(|mut s| {
            s.file = None;
            s.module_path = s.module_path.iter().map(|p| p.strip_prefix(dir.path()).unwrap().to_path_buf()).collect();
            s
        })
    }

    #[test]
    fn levels_fail_on_excludes_and_policies() {
        let settings = load_text(
            "fail-on = \"warning\"\nexclude = [\"vendor\"]\nmodulepath = [\"ext\"]\npolicies = [\"deny-node-scope\"]\n[rules]\nunknown-class = \"off\"\n",
        )
        .unwrap();
        assert_eq!(settings.fail_on, Level::Warning);
        assert_eq!(settings.excludes, ["vendor"]);
        assert_eq!(settings.module_path, [PathBuf::from("ext")]);
        assert_eq!(settings.level("node-scope-leak"), Some(Level::Error));
        assert_eq!(settings.level("unknown-class"), None);
        assert_eq!(settings.level("syntax-error"), Some(Level::Error));
    }

    #[test]
    fn the_security_rules_are_off_until_the_security_policy() {
        let mut settings = Settings::default();
        assert_eq!(settings.level("security-hardcoded-secret"), None);
        assert_eq!(settings.level("node-scope-leak"), Some(Level::Warning));
        apply_policy(&mut settings, "security").unwrap();
        assert_eq!(settings.level("security-hardcoded-secret"), Some(Level::Error));
        assert_eq!(settings.level("security-secret-not-sensitive"), Some(Level::Note));
        for rule in crate::rules::SECURITY_RULES {
            assert!(settings.level(rule.id).is_some(), "{} is not in the security policy", rule.id);
        }
    }

    #[test]
    fn the_file_overrides_its_policies() {
        let settings = load_text("policies = [\"deny-node-scope\"]\n[rules]\nnode-scope-leak = \"note\"\n").unwrap();
        assert_eq!(settings.level("node-scope-leak"), Some(Level::Note));
    }

    #[test]
    fn mistakes_name_the_line_and_key() {
        let err = load_text("fail-on = \"error\"\n[rules]\nnode-scope-leek = \"error\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 1));
        assert!(err.message.contains("unknown rule `node-scope-leek`"), "{}", err.message);

        let err = load_text("[rules]\nnode-scope-leak = \"loud\"\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("level `loud`"), "{}", err.message);

        let err = load_text("fail_on = \"error\"\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.message.contains("unknown field `fail_on`"), "{}", err.message);

        let err = load_text("policies = [\"lenient\"]\n").unwrap_err();
        assert!(err.message.contains("unknown policy `lenient`"), "{}", err.message);

        let err = load_text("exclude = \"vendor\"\n").unwrap_err();
        assert_eq!(err.line, 1);

        let err = load_text("[rules\n").unwrap_err();
        assert_eq!(err.line, 1);
    }
}
