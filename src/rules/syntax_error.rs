//! `syntax-error`

use super::{Finding, Level, RuleInfo};
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a file that is not valid Puppet: the first token the parser
/// could not accept, an unclosed string or bracket, text that is not UTF-8.
///
/// ## Why is this bad?
/// Puppet refuses to compile a catalog from a manifest that does not parse,
/// so one broken file stops every node that uses it. mplint cannot analyse
/// the file either, so its other findings are missing until it parses.
///
/// ## Example
/// ```puppet
/// class profile::web {
///   $port = 80 +
/// }
/// ```
///
/// Use instead:
/// ```puppet
/// class profile::web {
///   $port = 80 + 8000
/// }
/// ```
pub const RULE: RuleInfo = RuleInfo {
    id: "syntax-error",
    name: "SyntaxError",
    default_level: Level::Error,
    summary: "The file is not valid Puppet syntax.",
    documentation: include_str!("../../rules/syntax-error.md"),
};

pub fn check(file: &ParsedFile, findings: &mut Vec<Finding>) {
    if let Some(problem) = &file.problem {
        let mut message = problem.message.clone();
        if looks_like_yaml(&file.source.text) {
            message.push_str(" (the file is YAML, which starts with `---`: Hiera data belongs in a .yaml file)");
        }
        findings.push(Finding {
            rule: RULE.id,
            level: RULE.default_level,
            path: file.source.path.clone(),
            span: problem.span,
            message,
            related: Vec::new(),
            flow: Vec::new(),
            suppressed_by: None,
        });
    }
}

/// A YAML document named as a manifest (Hiera data in a `.pp` file): its
/// first line is the document marker, which no Puppet code begins with.
fn looks_like_yaml(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().next().is_some_and(|first| first.trim_end() == "---")
}
