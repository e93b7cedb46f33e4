//! Differential tests of the parser against Puppet's. Each
//! `tests/parser_oracle/cases/*.pp` has what `puppet parser validate`
//! (Puppet 7.23) said about it in `*.verdict.json`, recorded by
//! `tests/parser_oracle/record.sh`. mplint's parse must agree:
//!
//! - Puppet accepts → no syntax problem;
//! - Puppet's checker rejects a manifest that parses (an assignment to a
//!   literal, say) → no syntax problem either: that is not a parse error;
//!   unless mplint's grammar refuses the construct itself, on a line where
//!   Puppet's checker reports it (`@File { … }`);
//! - Puppet's lexer or grammar rejects it at line L, column C → a syntax
//!   problem at L:C, except where mplint points somewhere more useful on
//!   purpose:
//!   - an unclosed string: at its opening quote. Puppet reports the column
//!     after the quote, or after the string's last interpolation;
//!   - a missing comma: "expected `,`" right after the attribute or hash
//!     entry that lacks it; Puppet reports the token that follows.
//!
//! And the single-file rules agree with Puppet's checker: every error and
//! warning it reports where the file parses, mplint reports at the same
//! line, column and level, and nothing else.

use std::path::{Path, PathBuf};

use std::collections::BTreeSet;

use mplint::rules::{self, Level};
use mplint::syntax::{parse_file, ParsedFile};

use crate::support::{manifests_in, repo};

#[derive(Debug)]
struct Verdict {
    status: i64,
    message: String,
    line: u32,
    column: u32,
    /// Every error and warning: level, message, line, column.
    diagnostics: Vec<(Level, String, u32, u32)>,
}

fn verdict(case: &Path) -> Verdict {
    let path = case.with_extension("verdict.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{}: no recorded verdict; run tests/parser_oracle/record.sh", case.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let number = |key: &str| json[key].as_u64().unwrap_or(0) as u32;
    Verdict {
        status: json["status"].as_i64().expect("status"),
        message: json["message"].as_str().unwrap_or_default().to_string(),
        line: number("line"),
        column: number("column"),
        diagnostics: json["diagnostics"]
            .as_array()
            .unwrap_or_else(|| panic!("{}: no diagnostics; run tests/parser_oracle/record.sh", path.display()))
            .iter()
            .map(|d| {
                let level = if d["level"] == "warning" { Level::Warning } else { Level::Error };
                let number = |key: &str| d[key].as_u64().unwrap_or(0) as u32;
                (level, d["message"].as_str().unwrap_or_default().to_string(), number("line"), number("column"))
            })
            .collect(),
    }
}

/// Errors of Puppet's lexer and grammar, as opposed to its checker's.
fn is_parse_error(message: &str) -> bool {
    const PARSE_ERRORS: &[&str] = &[
        "Syntax error at",
        "Unclosed quote",
        "Expression is not valid as a resource, resource-default, or resource-override",
    ];
    PARSE_ERRORS.iter().any(|p| message.starts_with(p)) || is_lexer_error(message)
}

/// Errors of Puppet's lexer about one token, whose message mplint gives too.
fn is_lexer_error(message: &str) -> bool {
    const LEXER_ERRORS: &[&str] =
        &["Illegal fully qualified name", "Illegal number", "Not a valid hex number", "Not a valid octal number"];
    LEXER_ERRORS.iter().any(|p| message.starts_with(p))
}

fn cases() -> Vec<PathBuf> {
    manifests_in(&repo().join("tests/parser_oracle/cases"))
}

use mplint::rules::next_token;

/// Why mplint's parse of `parsed` disagrees with Puppet's `verdict`, if it does.
fn disagreement(parsed: &ParsedFile, verdict: &Verdict) -> Option<String> {
    let problem = parsed.problem.as_ref();
    let found = problem.map(|p| {
        let at = p.span.start_pos;
        format!("{}:{} {}", at.line, at.column, p.message)
    });
    if verdict.status == 0 || !is_parse_error(&verdict.message) {
        let checker_line = |line: u32| {
            verdict
                .diagnostics
                .iter()
                .any(|(level, message, l, _)| *level == Level::Error && !is_parse_error(message) && *l == line)
        };
        return match problem {
            Some(p) if checker_line(p.span.start_pos.line) => None,
            _ => found.map(|f| format!("Puppet parses it, mplint reports {f}")),
        };
    }
    let puppet = (verdict.line, verdict.column);
    let Some(problem) = problem else {
        return Some(format!("Puppet says {} at {puppet:?}, mplint reports nothing", verdict.message));
    };
    let text = &parsed.source.text;
    let at = problem.span.start_pos;
    let agrees = if problem.message.starts_with("unclosed quote") {
        let on_quote = text[problem.span.start..].starts_with(['\'', '"']);
        if verdict.message.starts_with("Unclosed quote after '\"'")
            || verdict.message.starts_with("Unclosed quote after \"'\"")
        {
            // Puppet reports the column after the quote.
            on_quote && (at.line, at.column + 1) == puppet
        } else {
            // Puppet reports the end of the string's last interpolation.
            verdict.message.starts_with("Unclosed quote") && on_quote && (at.line, at.column) < puppet
        }
    } else if problem.message.starts_with("expected `,`") {
        let next = parsed.source.position(next_token(text, problem.span.start));
        (next.line, next.column) == puppet
    } else if is_lexer_error(&verdict.message) {
        (at.line, at.column) == puppet && problem.message == verdict.message
    } else {
        (at.line, at.column) == puppet
    };
    (!agrees).then(|| format!("Puppet says {} at {puppet:?}, mplint reports {}", verdict.message, found.unwrap()))
}

#[test]
fn the_parser_agrees_with_puppet() {
    let cases = cases();
    assert!(cases.len() >= 30, "only {} parser oracle cases", cases.len());
    let mut failures = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for case in &cases {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let verdict = verdict(case);
        if verdict.status == 0 {
            accepted += 1;
        } else {
            rejected += 1;
        }
        let parsed = parse_file(case.clone(), std::fs::read(case).unwrap());
        if let Some(why) = disagreement(&parsed, &verdict) {
            failures.push(format!("{name}: {why}"));
        }
    }
    eprintln!("parser oracle: {} cases, {accepted} accepted and {rejected} rejected by Puppet", cases.len());
    assert!(failures.is_empty(), "{} disagreements with Puppet:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_case_has_a_verdict() {
    for case in cases() {
        assert!(case.with_extension("verdict.json").is_file(), "{}: run tests/parser_oracle/record.sh", case.display());
    }
}

/// The rules that stand for Puppet's checker: the single-file rules but
/// the syntax (which the test above compares), `illegal-resource-type`,
/// `illegal-title` and `illegal-control-flow` (errors of evaluation, which
/// `puppet parser validate` does not see).
fn checker_rules() -> BTreeSet<&'static str> {
    rules::FILE_RULES
        .iter()
        .map(|(rule, _)| rule.id)
        .filter(|id| {
            ![
                rules::syntax_error::RULE.id,
                rules::illegal_resource_type::RULE.id,
                rules::illegal_title::RULE.id,
                rules::illegal_control_flow::RULE.id,
            ]
            .contains(id)
        })
        .collect()
}

#[test]
fn the_single_file_rules_agree_with_puppets_checker() {
    let checker = checker_rules();
    let mut failures = Vec::new();
    let (mut compared, mut diagnostics) = (0, 0);
    for case in &cases() {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let verdict = verdict(case);
        let parsed = parse_file(case.clone(), std::fs::read(case).unwrap());
        if parsed.problem.is_some() {
            continue;
        }
        compared += 1;
        let puppet: BTreeSet<(u32, u32, Level)> = verdict
            .diagnostics
            .iter()
            .filter(|(_, message, _, _)| !is_parse_error(message))
            .map(|(level, _, line, column)| (*line, *column, *level))
            .collect();
        diagnostics += puppet.len();
        let mplint: BTreeSet<(u32, u32, Level)> = rules::check_file(&parsed)
            .iter()
            .filter(|f| checker.contains(f.rule))
            .map(|f| (f.span.start_pos.line, f.span.start_pos.column, f.level))
            .collect();
        for missed in puppet.difference(&mplint) {
            let message = verdict.diagnostics.iter().find(|d| (d.2, d.3) == (missed.0, missed.1)).unwrap();
            failures.push(format!(
                "{name}: Puppet reports {:?} {} at {}:{}, mplint does not",
                message.0, message.1, missed.0, missed.1
            ));
        }
        for extra in mplint.difference(&puppet) {
            failures.push(format!("{name}: mplint reports {:?} at {}:{}, Puppet does not", extra.2, extra.0, extra.1));
        }
    }
    eprintln!("checker oracle: {compared} cases, {diagnostics} diagnostics of Puppet's checker");
    assert!(diagnostics >= 100, "only {diagnostics} checker diagnostics");
    assert!(failures.is_empty(), "{} disagreements with Puppet's checker:\n{}", failures.len(), failures.join("\n"));
}

/// The manifests of `tests/parser_oracle/modulepath/modules`, recorded with
/// that directory as Puppet's module path.
fn module_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(module_files(&path));
        } else if path.extension().is_some_and(|e| e == "pp") {
            found.push(path);
        }
    }
    found.sort();
    found
}

#[test]
fn module_files_agree_with_puppets_location_checks() {
    let root = repo().join("tests/parser_oracle/modulepath");
    let options = mplint::check::CheckOptions::default();
    // Checked as Puppet's module path: a directory of modules.
    let checked = root.join("modules");
    let outcome = mplint::run_with_large_stack(move || mplint::check::check(&[checked], &options).unwrap());
    let mut compared = checker_rules();
    compared.insert(rules::definition_location::RULE.id);
    let mut failures = Vec::new();
    let files = module_files(&root.join("modules"));
    assert!(files.len() >= 5, "only {} module files", files.len());
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap();
        let verdict = verdict(file);
        let puppet: BTreeSet<(u32, u32, Level)> =
            verdict.diagnostics.iter().map(|(level, _, line, column)| (*line, *column, *level)).collect();
        let mplint: BTreeSet<(u32, u32, Level)> = outcome
            .findings
            .iter()
            .filter(|f| compared.contains(f.rule) && f.path.ends_with(relative))
            .map(|f| (f.span.start_pos.line, f.span.start_pos.column, f.level))
            .collect();
        if puppet != mplint {
            failures.push(format!("{}: Puppet {puppet:?}, mplint {mplint:?}", relative.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
