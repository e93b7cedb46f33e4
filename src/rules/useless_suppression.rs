//! `useless-suppression`, and the in-source suppressions it checks:
//! `# mplint:ignore:<id>[,<id>]` at the end of a line or alone on the line
//! before it, and blocks `# mplint:disable:<id>` … `# mplint:enable:<id>`.

use std::collections::BTreeSet;

use super::{rule_info, Finding, Level, RuleInfo};
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// ## What it does
/// Reports a suppression comment that names a rule mplint does not have, or
/// that suppresses nothing.
///
/// ## Why is this bad?
/// A misspelt rule id silences nothing; a suppression that outlived its
/// finding hides the next real problem on that line.
pub const RULE: RuleInfo = RuleInfo {
    id: "useless-suppression",
    name: "UselessSuppression",
    default_level: Level::Note,
    summary: "A suppression comment names an unknown rule or suppresses nothing.",
    documentation: include_str!("../../rules/useless-suppression.md"),
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ignore,
    Disable,
    Enable,
}

#[derive(Debug)]
struct Directive {
    kind: Kind,
    rules: Vec<String>,
    span: Span,
    /// Lines (1-based, inclusive) the directive covers.
    first_line: u32,
    last_line: u32,
}

/// Finds `mplint:ignore:…`, `mplint:disable:…` and `mplint:enable:…` in one
/// comment.
fn parse_comment(text: &str) -> Option<(Kind, Vec<String>)> {
    let at = text.find("mplint:")?;
    let rest = &text[at + "mplint:".len()..];
    let (kind, rest) = if let Some(r) = rest.strip_prefix("ignore:") {
        (Kind::Ignore, r)
    } else if let Some(r) = rest.strip_prefix("disable:") {
        (Kind::Disable, r)
    } else if let Some(r) = rest.strip_prefix("enable:") {
        (Kind::Enable, r)
    } else {
        return None;
    };
    // `id, id` up to the first word that is not an id: the rest is a reason.
    let mut rules = Vec::new();
    for item in rest.split(',') {
        let item = item.trim();
        let id: String = item.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')).collect();
        if !id.is_empty() {
            rules.push(id.trim_end_matches('-').to_string());
        }
        if id.len() < item.len() {
            break;
        }
    }
    (!rules.is_empty()).then_some((kind, rules))
}

fn directives(file: &ParsedFile) -> Vec<Directive> {
    let Some(manifest) = &file.manifest else { return Vec::new() };
    let source = &file.source;
    let mut out = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    let last_line = source.lines.line_count() as u32;
    for span in &manifest.comments {
        let text = &source.text[span.start..span.end];
        let Some((kind, rules)) = parse_comment(text) else { continue };
        let line = span.start_pos.line;
        let line_start = source.lines.line_range(&source.text, line).map_or(span.start, |(s, _)| s);
        let alone = source.text[line_start..span.start].trim().is_empty();
        match kind {
            Kind::Ignore => {
                let target = if alone { span.end_pos.line + 1 } else { line };
                out.push(Directive { kind, rules, span: *span, first_line: target, last_line: target });
            }
            Kind::Disable => {
                for rule in &rules {
                    open.push((rule.clone(), out.len()));
                }
                out.push(Directive { kind, rules, span: *span, first_line: line, last_line });
            }
            Kind::Enable => {
                for rule in &rules {
                    if let Some(pos) = open.iter().rposition(|(r, _)| r == rule) {
                        let (_, index) = open.remove(pos);
                        let directive: &mut Directive = &mut out[index];
                        directive.last_line = directive.last_line.min(line);
                    }
                }
                out.push(Directive { kind, rules, span: *span, first_line: line, last_line: line });
            }
        }
    }
    out
}

/// Marks suppressed findings and adds `useless-suppression` notes for the
/// checked files. `enabled` lists the rules that run: a suppression of a rule
/// turned off is not called useless. `constraints` are the ids of the
/// policies' constraints, which are rules too.
pub fn apply(
    files: &[ParsedFile],
    reported: &[bool],
    enabled: &BTreeSet<&str>,
    constraints: &BTreeSet<&str>,
    findings: &mut Vec<Finding>,
) {
    let mut notes = Vec::new();
    for (file, _) in files.iter().zip(reported).filter(|(_, r)| **r) {
        let directives = directives(file);
        if directives.is_empty() {
            continue;
        }
        let mut used = vec![false; directives.len()];
        for finding in findings.iter_mut().filter(|f| f.path == file.source.path && f.rule != RULE.id) {
            let line = finding.span.start_pos.line;
            if let Some(i) = directives.iter().position(|d| {
                d.kind != Kind::Enable
                    && d.rules.iter().any(|r| r == finding.rule)
                    && (d.first_line..=d.last_line).contains(&line)
            }) {
                finding.suppressed_by = Some(directives[i].span);
                used[i] = true;
            }
        }
        for (directive, used) in directives.iter().zip(used) {
            let unknown: Vec<&String> = directive
                .rules
                .iter()
                .filter(|r| rule_info(r).is_none() && !constraints.contains(r.as_str()))
                .collect();
            let message = if !unknown.is_empty() {
                let names: Vec<String> = unknown.iter().map(|r| format!("`{r}`")).collect();
                let hints: Vec<String> = unknown
                    .iter()
                    .filter_map(|r| super::similar_rule(r).map(|similar| format!("`{similar}` for `{r}`")))
                    .collect();
                let hint =
                    if hints.is_empty() { String::new() } else { format!("; did you mean {}?", hints.join(", ")) };
                format!("this suppression names {}, which mplint does not have{hint}", names.join(", "))
            } else if directive.kind != Kind::Enable
                && !used
                && directive.rules.iter().all(|r| enabled.contains(r.as_str()))
            {
                format!("this suppression of `{}` suppresses nothing", directive.rules.join("`, `"))
            } else {
                continue;
            };
            notes.push(Finding {
                rule: RULE.id,
                level: RULE.default_level,
                path: file.source.path.clone(),
                span: directive.span,
                message,
                related: Vec::new(),
                flow: Vec::new(),
                suppressed_by: None,
            });
        }
    }
    findings.extend(notes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_forms() {
        assert_eq!(
            parse_comment("# mplint:ignore:node-scope-leak"),
            Some((Kind::Ignore, vec!["node-scope-leak".into()]))
        );
        assert_eq!(
            parse_comment("# mplint:disable:a-b, c-d -- reason"),
            Some((Kind::Disable, vec!["a-b".into(), "c-d".into()]))
        );
        assert_eq!(parse_comment("/* mplint:enable:x */"), Some((Kind::Enable, vec!["x".into()])));
        assert_eq!(parse_comment("# just a comment"), None);
        assert_eq!(parse_comment("# mplint:ignore:"), None);
    }
}
