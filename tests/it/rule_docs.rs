//! Every rule has `rules/<id>.md`, and its examples are executed: each
//! ```` ```puppet bad ```` block must draw the rule, each ```` ```puppet good ````
//! block must not.

use mplint::check::findings;
use mplint::config::{RuleLevel, Settings};
use mplint::model::workspace::Workspace;
use mplint::rules::{Finding, Level, ALL_RULES};
use mplint::syntax::parse_file;

use crate::support::repo;

/// Everything mplint reports for one manifest checked on its own; an
/// example that starts with `# In <module>/<path>.pp` is checked at that
/// place in a directory of modules.
fn check_example(rule: &str, text: &str) -> Vec<Finding> {
    // Rules that are off by default are judged turned on.
    let mut settings = Settings::default();
    settings.levels.insert(mplint::rules::rule_info(rule).unwrap().id, RuleLevel::On(Level::Note));
    if let Some(place) = text.lines().next().and_then(|l| l.strip_prefix("# In ")) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(place.trim());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let root = dir.path().to_path_buf();
        let options = mplint::check::CheckOptions { settings, ..Default::default() };
        return mplint::run_with_large_stack(move || mplint::check::check(&[root], &options).unwrap().findings);
    }
    let text = text.to_string();
    mplint::run_with_large_stack(move || {
        let files = vec![parse_file("example.pp", text.into_bytes())];
        findings(&files, vec![true], Workspace::default(), &settings)
    })
}

fn examples<'a>(doc: &'a str, kind: &str) -> Vec<&'a str> {
    let fence = format!("```puppet {kind}\n");
    doc.match_indices(&fence)
        .map(|(start, _)| {
            let body = &doc[start + fence.len()..];
            &body[..body.find("```").expect("closed code block")]
        })
        .collect()
}

#[test]
fn every_rule_has_documentation_with_examples_that_hold() {
    for rule in ALL_RULES {
        let path = repo().join(format!("rules/{}.md", rule.id));
        let doc = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{} has no {}", rule.id, path.display()));
        assert_eq!(doc, rule.documentation, "{}: embedded documentation is stale", rule.id);
        for section in ["## What it does", "## Why it matters", "## Example", "## Use instead"] {
            assert!(doc.contains(section), "{} lacks '{section}'", rule.id);
        }
        let bad = examples(&doc, "bad");
        let good = examples(&doc, "good");
        assert!(!bad.is_empty() && !good.is_empty(), "{} needs bad and good examples", rule.id);
        for example in bad {
            let findings = check_example(rule.id, example);
            assert!(
                findings.iter().any(|f| f.rule == rule.id),
                "{}: no finding for\n{example}\n{findings:#?}",
                rule.id
            );
        }
        for example in good {
            let findings = check_example(rule.id, example);
            assert!(findings.iter().all(|f| f.rule != rule.id), "{}: finding for\n{example}\n{findings:#?}", rule.id);
        }
    }
}

#[test]
fn rule_ids_and_names_follow_the_conventions() {
    for rule in ALL_RULES {
        assert!(rule.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{} is not kebab-case", rule.id);
        let pascal: String = rule.id.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect();
        assert_eq!(rule.name, pascal, "SARIF name of {}", rule.id);
    }
}
