//! Differential tests against real Puppet. Each `tests/oracle/cases/*.pp`
//! has Puppet 7.23's verdict for the node names it lists, recorded by
//! `tests/oracle/record.sh` in `*.verdict.json`. mplint must agree:
//!
//! - Puppet compiles every node → no error-level finding;
//! - "Unknown variable" at line L → `use-before-assign` or
//!   `undefined-variable` at L;
//! - "Duplicate declaration … cannot redeclare (line: L)" →
//!   `duplicate-resource` or `duplicate-class-declaration` at L;
//! - "Cannot alias T[b] to … at (line: L)" → `duplicate-resource` at L;
//! - "stack level too deep" → `inheritance-cycle`;
//! - "Cannot reassign variable" at L → `variable-reassigned` at L;
//! - "Attempt to assign to a reserved variable name" at L →
//!   `illegal-assignment` at L; "Cannot reassign built in … variable" at L
//!   → `illegal-assignment` (top-level or node code) or
//!   `variable-reassigned` (a class or defined type) at L;
//! - "already defined" / "Attempt to redefine" → `duplicate-definition`;
//! - "Could not find class" or "Could not find declared class" at L →
//!   `unknown-class` at L, or `missing-module`
//!   there when no class of that module exists; "Cannot use empty string
//!   as a class name" at L → `unknown-class` at L;
//! - "Illegal Resource Type expression" at L → `illegal-resource-type` at L;
//! - "has no parameter named" at L (when Puppet gives a line) →
//!   `unknown-parameter` at L or at an attribute of the declaration at L;
//! - "Unknown resource type" at L → `unknown-resource-type` at L;
//!   "Resource type not found" at L → `unknown-type-reference` at L;
//! - "Unknown function" at L → `unknown-function` at L; "Use of 'import'
//!   has been discontinued" at L → `unknown-function` at L;
//! - "parameter 'x' expects …, got …" at L → `type-mismatch` at L or at
//!   an attribute of the declaration at L;
//! - "block parameter 'x' expects …, got …" or "'f' parameter 'x'
//!   expects …, got …" at L (a lambda's or a Puppet function's) →
//!   `type-mismatch` at L;
//! - "No matching entry for selector parameter" at L →
//!   `selector-without-match` at L;
//! - "no parameter named" at L (a core type's resource) → `unknown-attribute`
//!   at an attribute of the resource declared at L;
//! - "expects a value for parameter" at L → `missing-parameter` there;
//! - "Only subclasses can override parameters" at L, or "Parameter 'x' is
//!   already set on … cannot redefine" at L → `illegal-override` at L;
//! - "The attribute 'x' has already been set" → `duplicate-entry`;
//! - "Somehow looped more than 1000 times" → `recursive-defined-type`;
//! - "Illegal title type", "Missing title", "Empty string title", "The
//!   title 'a' has already been used in this resource expression" at L →
//!   `illegal-title` at L;
//! - "break() from context where this is illegal" at L →
//!   `illegal-control-flow` at L;
//! - "'step' expects 2 arguments, got 3", "'each' expects a block" at L →
//!   `function-arity` at L;
//! - "Could not find resource 'X' in parameter 'require'" at L →
//!   `missing-relationship-target` at L; "… for relationship" (no line) →
//!   `missing-relationship-target`; so do "Failed to realize virtual
//!   resources" and "Could not find resource(s) … for overriding";
//! - "Failed to parse template … Undefined variable" at L, or an EPP
//!   template's "Unknown variable" → `legacy-fact` where the template is
//!   rendered (at L), naming the template's line (environments);
//! - "Classes cannot be collected" at L → `illegal-resource-type` at L;
//! - "Type alias 'X' cannot be resolved to a real type" →
//!   `type-alias-cycle` (at the aliases);
//! - "Found N dependency cycle(s)" (a `# graph: cycles` case, whose verdict
//!   is the agent's relationship graph, `tests/oracle/graph.rb`) →
//!   `dependency-cycle`.
//!
//! `# expect: RULE@LINE` lines add findings Puppet cannot show (node-scope
//! leaks in manifests Puppet compiles thanks to node scope, a cycle nobody
//! declares yet). mplint runs with the oracle's facts only, and knows that
//! there is no Hiera data.

use std::path::PathBuf;

use mplint::check::analyse_with_facts;
use mplint::model::facts::Facts;
use mplint::model::workspace::Workspace;
use mplint::rules::{Finding, Level};
use mplint::syntax::parse_file;

use crate::support::{manifests_in, repo};

struct Expectation {
    rules: &'static [&'static str],
    line: Option<u32>,
    why: String,
}

fn number_after(text: &str, marker: &str) -> Option<u32> {
    let at = text.find(marker)? + marker.len();
    text[at..].chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().ok()
}

/// What Puppet's error requires mplint to report; `None` for errors no rule
/// covers yet.
fn expectation(error: &str, case: &str) -> Option<Expectation> {
    let why = error.to_string();
    if error.contains("Unknown variable") {
        let at = error.find("Unknown variable")?;
        return Some(Expectation {
            rules: &["use-before-assign", "undefined-variable"],
            line: number_after(&error[at..], "(line: "),
            why,
        });
    }
    // A template reading a variable no scope has: a fact Puppet 8 dropped.
    if error.contains("Failed to parse template") && error.contains("Undefined variable") {
        return Some(Expectation { rules: &["legacy-fact"], line: number_after(error, "line: "), why });
    }
    // Hiera interpolating a variable no scope has: a fact Puppet 8 dropped.
    if error.contains("LookupError: Undefined variable") {
        return Some(Expectation { rules: &["legacy-fact"], line: number_after(error, "line: "), why });
    }
    if error.contains("Duplicate declaration") {
        // A clash that needs independent unknowns to line up is a note; the
        // case says so with `# expect: possible-duplicate-resource@L`.
        let possible = case.contains("# expect: possible-duplicate-resource@");
        return Some(Expectation {
            rules: if possible {
                &["duplicate-resource", "duplicate-class-declaration", "possible-duplicate-resource"]
            } else {
                &["duplicate-resource", "duplicate-class-declaration"]
            },
            line: number_after(error, "cannot redeclare (line: "),
            why,
        });
    }
    // A second resource whose namevar's value is the first one's:
    // "Cannot alias T[b] to ["x"] at (line: L); … already declared".
    if error.contains("Cannot alias") {
        let at = error.find(" at ")?;
        return Some(Expectation { rules: &["duplicate-resource"], line: number_after(&error[at..], "line: "), why });
    }
    if error.contains("stack level too deep") {
        return Some(Expectation { rules: &["inheritance-cycle"], line: None, why });
    }
    if error.contains("Attempt to assign to a reserved variable name") {
        return Some(Expectation { rules: &["illegal-assignment"], line: number_after(error, "(line: "), why });
    }
    if error.contains("Cannot reassign built in") {
        return Some(Expectation {
            rules: &["illegal-assignment", "variable-reassigned"],
            line: number_after(error, "(line: "),
            why,
        });
    }
    if error.contains("Cannot reassign variable") {
        return Some(Expectation { rules: &["variable-reassigned"], line: number_after(error, "(line: "), why });
    }
    if error.contains("already defined") || error.contains("Attempt to redefine") {
        return Some(Expectation { rules: &["duplicate-definition"], line: None, why });
    }
    if error.contains("Illegal Resource Type expression") {
        return Some(Expectation { rules: &["illegal-resource-type"], line: number_after(error, "(line: "), why });
    }
    if error.contains("has no parameter named") {
        return Some(Expectation { rules: &["unknown-parameter"], line: number_after(error, "(line: "), why });
    }
    // A Struct's missing or unknown key is said without ", got".
    let struct_keys = error.contains(" expects a value for key '") || error.contains(" unrecognized key '");
    // A lambda's (`block parameter 'x'`) or a function's (`'f' parameter 'x'`).
    let argument = error.contains("block parameter '") || error.contains("' parameter '");
    if (error.contains(": parameter '") || argument)
        && ((error.contains(" expects ") && error.contains(", got ")) || struct_keys)
    {
        return Some(Expectation { rules: &["type-mismatch"], line: number_after(error, "(line: "), why });
    }
    if error.contains("No matching entry for selector parameter") {
        return Some(Expectation { rules: &["selector-without-match"], line: number_after(error, "(line: "), why });
    }
    if error.contains("Unknown function") {
        return Some(Expectation { rules: &["unknown-function"], line: number_after(error, "line: "), why });
    }
    if error.contains("Resource type not found") {
        return Some(Expectation { rules: &["unknown-type-reference"], line: number_after(error, "line: "), why });
    }
    if error.contains("Unknown resource type") {
        return Some(Expectation { rules: &["unknown-resource-type"], line: number_after(error, "line: "), why });
    }
    if error.contains("no parameter named") {
        return Some(Expectation { rules: &["unknown-attribute"], line: number_after(error, "(line: "), why });
    }
    if error.contains("expects a value for parameter") {
        return Some(Expectation { rules: &["missing-parameter"], line: number_after(error, "(line: "), why });
    }
    if error.contains("Only subclasses can override parameters") {
        let at = error.find("Only subclasses")?;
        let line = number_after(&error[at..], "line: ");
        return Some(Expectation { rules: &["illegal-override"], line, why });
    }
    if error.contains("is already set on") && error.contains("cannot redefine") {
        let at = error.find("cannot redefine")?;
        let line = number_after(&error[at..], "line: ");
        return Some(Expectation { rules: &["illegal-override"], line, why });
    }
    if error.contains("The attribute '") && error.contains("' has already been set") {
        // Puppet places it at the resource, mplint at the second attribute.
        return Some(Expectation { rules: &["duplicate-entry"], line: None, why });
    }
    if error.contains("Somehow looped more than") {
        return Some(Expectation { rules: &["recursive-defined-type"], line: None, why });
    }
    if [
        "Illegal title type",
        "Missing title",
        "Empty string title",
        "has already been used in this resource expression",
    ]
    .iter()
    .any(|m| error.contains(m))
    {
        return Some(Expectation { rules: &["illegal-title"], line: number_after(error, "(line: "), why });
    }
    if error.contains("from context where this is illegal") || error.contains("PuppetStopIteration") {
        return Some(Expectation { rules: &["illegal-control-flow"], line: number_after(error, "line: "), why });
    }
    let arity = [" arguments, got ", " argument, got ", "expects a block", "does not expect a block"];
    let lambda_unfilled = error.contains("is required but no value was given");
    if (arity.iter().any(|m| error.contains(m)) && !error.contains("block parameter")) || lambda_unfilled {
        return Some(Expectation { rules: &["function-arity"], line: number_after(error, "line: "), why });
    }
    if error.contains("Failed to realize virtual resources") || error.contains("for overriding") {
        return Some(Expectation { rules: &["missing-relationship-target"], line: None, why });
    }
    // A metaparameter's error gives its line; a chaining arrow's none.
    if error.contains("Could not find resource '")
        && (error.contains("' in parameter '") || error.contains("for relationship"))
    {
        return Some(Expectation {
            rules: &["missing-relationship-target"],
            line: number_after(error, "(line: "),
            why,
        });
    }
    if error.contains(" dependency cycle") {
        return Some(Expectation { rules: &["dependency-cycle"], line: None, why });
    }
    if error.contains("Classes cannot be collected") {
        return Some(Expectation { rules: &["illegal-resource-type"], line: number_after(error, "(line: "), why });
    }
    // Puppet names the use; the cycle is reported at the aliases.
    if error.contains("cannot be resolved to a real type") {
        return Some(Expectation { rules: &["type-alias-cycle"], line: None, why });
    }
    if error.contains("Use of 'import' has been discontinued") {
        return Some(Expectation { rules: &["unknown-function"], line: number_after(error, "(line: "), why });
    }
    if error.contains("Cannot use empty string as a class name") {
        return Some(Expectation { rules: &["unknown-class"], line: number_after(error, "(line: "), why });
    }
    if error.contains("Could not find class") || error.contains("Could not find declared class") {
        return Some(Expectation {
            rules: &["unknown-class", "missing-module"],
            line: number_after(error, "(line: "),
            why,
        });
    }
    None
}

fn check(text: &str) -> Vec<Finding> {
    let text = text.to_string();
    mplint::run_with_large_stack(move || {
        let files = vec![parse_file("case.pp", text.into_bytes())];
        // The facts the oracle gives Puppet, and no others.
        let facts = || Facts::only(["osfamily", "os", "hostname", "fqdn"].map(String::from)).without_hiera_data();
        let shared = analyse_with_facts(&files, vec![true], Workspace::default(), facts());
        // Nodes sharing a compilation give the findings of compiling each.
        let every_node = Workspace { compile_every_node: true, ..Workspace::default() };
        let unshared = analyse_with_facts(&files, vec![true], every_node, facts());
        assert!(shared == unshared, "sharing node compilations changed the findings");
        shared
    })
}

fn cases() -> Vec<PathBuf> {
    manifests_in(&repo().join("tests/oracle/cases"))
}

fn describe(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("  {}@{}: {}", f.rule, f.span.start_pos.line, f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn mplint_agrees_with_puppet() {
    let cases = cases();
    assert!(cases.len() >= 60, "only {} oracle cases", cases.len());
    let mut failures = Vec::new();
    let mut uncovered = Vec::new();
    for case in &cases {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(case).unwrap();
        let verdict_path = case.with_extension("verdict.json");
        let verdicts: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&verdict_path)
                .unwrap_or_else(|_| panic!("{name}: no recorded verdict; run tests/oracle/record.sh")),
        )
        .unwrap();
        let findings = check(&text);
        let errors: Vec<Finding> = findings.iter().filter(|f| f.level == Level::Error).cloned().collect();
        let mut all_ok = true;
        for (node, verdict) in verdicts.as_object().unwrap() {
            if verdict["ok"].as_bool() == Some(true) {
                continue;
            }
            all_ok = false;
            let error = verdict["error"].as_str().unwrap_or_default();
            match expectation(error, &text) {
                Some(expected) => {
                    // Puppet places a parameter's error at the declaration,
                    // mplint at the attribute: the flow ends at the declaration.
                    let at_line = |f: &Finding, l: u32| {
                        f.span.start_pos.line == l
                            || (matches!(f.rule, "unknown-parameter" | "type-mismatch")
                                && f.flow.iter().any(|step| step.span.start_pos.line == l))
                            || (f.rule == "unknown-attribute" && f.related.iter().any(|r| r.span.start_pos.line == l))
                    };
                    let found = findings
                        .iter()
                        .any(|f| expected.rules.contains(&f.rule) && expected.line.is_none_or(|l| at_line(f, l)));
                    if !found {
                        failures.push(format!(
                            "{name} ({node}): Puppet says {}\n  expected {:?} at line {:?}; mplint found:\n{}",
                            expected.why,
                            expected.rules,
                            expected.line,
                            describe(&findings)
                        ));
                    }
                }
                None => uncovered.push(format!("{name}: {error}")),
            }
        }
        let expected_here: Vec<(String, u32)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# expect: "))
            .filter_map(|e| e.split_once('@'))
            .map(|(rule, at)| (rule.to_string(), at.parse().unwrap()))
            .collect();
        // Errors the case expects on purpose (a latent bug Puppet compiles).
        let unexpected: Vec<Finding> = errors
            .into_iter()
            .filter(|f| !expected_here.iter().any(|(rule, at)| rule == f.rule && *at == f.span.start_pos.line))
            .collect();
        if all_ok && !unexpected.is_empty() {
            failures.push(format!(
                "{name}: Puppet compiles every node, but mplint reports errors:\n{}",
                describe(&unexpected)
            ));
        }
        for line in text.lines() {
            let Some(expect) = line.strip_prefix("# expect: ") else { continue };
            if expect == "none" {
                continue;
            }
            let (rule, at) = expect.split_once('@').expect("# expect: RULE@LINE");
            let at: u32 = at.parse().unwrap();
            if !findings.iter().any(|f| f.rule == rule && f.span.start_pos.line == at) {
                failures.push(format!("{name}: expected {rule} at line {at}; mplint found:\n{}", describe(&findings)));
            }
        }
    }
    eprintln!("oracle: {} cases; Puppet errors no rule covers yet: {uncovered:#?}", cases.len());
    assert!(failures.is_empty(), "{} disagreements with Puppet:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Each `tests/oracle/trees/NAME/` is an environment (site manifest,
/// modules, Hiera layers) with Puppet's verdict for web01.example.com,
/// recorded by `tests/oracle/record-trees.sh`. mplint checks the tree as
/// it checks any environment, discovering its Hiera data itself. Puppet's
/// errors name a file and a line there; `# expect: none` in the site
/// manifest marks an error mplint leaves unreported on purpose (data may
/// come from outside the tree).
#[test]
fn mplint_agrees_with_puppet_on_environments() {
    let root = repo().join("tests/oracle/trees");
    let mut trees: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    trees.sort();
    assert!(trees.len() >= 9, "only {} environment cases", trees.len());
    let mut failures = Vec::new();
    for tree in &trees {
        let name = tree.file_name().unwrap().to_string_lossy().into_owned();
        let site = std::fs::read_to_string(tree.join("manifests/site.pp")).unwrap();
        let verdict: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(tree.join("verdict.json")).unwrap()).unwrap();
        let verdict = &verdict["web01.example.com"];
        let options = mplint::check::CheckOptions::default();
        let dir = tree.clone();
        let findings = mplint::run_with_large_stack(move || mplint::check::check(&[dir], &options).unwrap().findings);
        let errors: Vec<&Finding> = findings.iter().filter(|f| f.level == Level::Error).collect();
        let silent = site.lines().any(|l| l == "# expect: none");
        if verdict["ok"].as_bool() == Some(true) || silent {
            if !errors.is_empty() {
                failures.push(format!("{name}: mplint reports errors Puppet does not:\n{}", describe(&findings)));
            }
            continue;
        }
        let error = verdict["error"].as_str().unwrap_or_default();
        let Some(expected) = expectation(error, "") else {
            failures.push(format!("{name}: no rule covers {error}"));
            continue;
        };
        let file = error.split("(file: ").nth(1).and_then(|rest| rest.split(',').next()).unwrap_or_default();
        // An EPP template's unknown variable: mplint reports the fact it
        // reads where the template is rendered, naming the template's line.
        if let Some(template) = file.strip_prefix("modules/").filter(|f| f.ends_with(".epp")) {
            let name = template.replacen("/templates/", "/", 1);
            let line = expected.line.or_else(|| number_after(error, ", line: ")).unwrap_or_default();
            let named = |f: &&Finding| {
                f.message.contains(&format!("template `{name}`")) && f.message.contains(&format!("(line {line}:"))
            };
            if !findings.iter().filter(|f| f.rule == "legacy-fact").any(|f| named(&f)) {
                failures.push(format!("{name}: Puppet says {error}\n  mplint found:\n{}", describe(&findings)));
            }
            continue;
        }
        let found = findings.iter().any(|f| {
            expected.rules.contains(&f.rule)
                && f.path.ends_with(file)
                && expected.line.is_none_or(|l| {
                    f.span.start_pos.line == l
                        || (matches!(f.rule, "unknown-parameter" | "type-mismatch")
                            && f.flow.iter().any(|s| s.span.start_pos.line == l))
                        || (f.rule == "unknown-attribute" && f.related.iter().any(|r| r.span.start_pos.line == l))
                })
        });
        if !found {
            failures.push(format!(
                "{name}: Puppet says {error}\n  expected {:?} in {file} at line {:?}; mplint found:\n{}",
                expected.rules,
                expected.line,
                describe(&findings)
            ));
        }
    }
    assert!(failures.is_empty(), "{} disagreements with Puppet:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The values of the facts the oracle gives Puppet for a node.
fn fact_values(node: &str) -> [String; 4] {
    let host = node.split('.').next().unwrap_or(node);
    ["\"Debian\"".into(), "{\"family\"=>\"Debian\"}".into(), format!("\"{host}\""), format!("\"{node}\"")]
}

/// Whether a value Puppet read (as the catalog shows a `notify`'s
/// message) is of the kind a rule is about: a fact's for the fact rules,
/// a top-scope variable's (`'top …'`) for `top-scope-variable`, a node
/// scope's (`'node …'`) for `node-scope-leak`.
fn read_of_its_kind(rule: &str, node: &str, message: &str) -> bool {
    match rule {
        "top-scope-variable" => message.starts_with("\"top "),
        "node-scope-leak" => message.starts_with("\"node "),
        _ => fact_values(node).iter().any(|v| v == message),
    }
}

/// Cases with `# checks: RULE, …` list every finding of those rules as
/// `# expect:` lines, and show each read in a `notify { 'line L': message
/// => <read> }`: Puppet's catalog then tells what value the read at line L
/// got. An expected finding must be a read where some node's Puppet got a
/// value of the kind its rule is about (a fact, a top-scope or a node-scope
/// variable, see [`read_of_its_kind`]); a read that got another value (a
/// parameter, a local of the same name) cannot be expected.
#[test]
fn read_rules_agree_with_puppet() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases() {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&case).unwrap();
        let Some(rules) = text.lines().find_map(|l| l.strip_prefix("# checks: ")) else { continue };
        checked += 1;
        let rules: Vec<&str> = rules.split(',').map(str::trim).collect();
        let mut expected: Vec<(String, u32)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# expect: "))
            .filter_map(|e| e.split_once('@'))
            .filter(|(rule, _)| rules.contains(rule))
            .map(|(rule, at)| (rule.to_string(), at.parse().unwrap()))
            .collect();
        expected.sort();
        let mut found: Vec<(String, u32)> = check(&text)
            .iter()
            .filter(|f| rules.contains(&f.rule))
            .map(|f| (f.rule.to_string(), f.span.start_pos.line))
            .collect();
        found.sort();
        found.dedup();
        if found != expected {
            failures.push(format!("{name}: expected {expected:?}, mplint found {found:?}"));
        }
        let verdicts: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.with_extension("verdict.json")).unwrap()).unwrap();
        // Per line, what each node's Puppet read there.
        let mut read_at: std::collections::BTreeMap<u32, Vec<(String, String)>> = Default::default();
        for (node, verdict) in verdicts.as_object().unwrap() {
            for resource in verdict["resources"].as_array().into_iter().flatten() {
                let Some(line) = resource["title"].as_str().and_then(|t| t.strip_prefix("line ")) else { continue };
                let message = resource["params"]["message"].as_str().unwrap_or_default().to_string();
                read_at.entry(line.parse().unwrap()).or_default().push((node.clone(), message));
            }
        }
        for (rule, line) in &expected {
            let reads = read_at.get(line).map_or(&[][..], Vec::as_slice);
            if !reads.iter().any(|(node, message)| read_of_its_kind(rule, node, message)) {
                failures.push(format!("{name}: {rule}@{line} expected, but Puppet read {reads:?} there"));
            }
        }
    }
    assert!(checked >= 6, "only {checked} cases check the read rules");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Templates rendered by literal names: a legacy fact read where no
/// variable of the rendering scope (an ERB template's) or of top scope (an
/// EPP template's) answers is reported; reads that find the class's
/// variables, the template's parameters or `$facts` are not. Puppet's
/// verdicts are the trees' (facts as Puppet 8 gives them).
#[test]
fn templates_report_the_legacy_facts_puppet_does_not_find() {
    let root = repo().join("tests/oracle/trees");
    let expected: [(&str, &[&str]); 5] = [
        ("18_erb_template_reads_a_legacy_fact", &["`scope['::operatingsystem']` (line 3:"]),
        ("19_epp_template_reads_a_legacy_fact", &["`$ipaddress` (line 5:"]),
        ("20_templates_read_what_puppet_8_keeps", &[]),
        ("21_epp_arguments_and_node_scope_bind_template_variables", &[]),
        ("22_template_named_after_its_module", &["`scope['::lsbdistcodename']` (line 2:"]),
    ];
    for (tree, reads) in expected {
        let dir = root.join(tree);
        let options = mplint::check::CheckOptions::default();
        let findings = mplint::run_with_large_stack(move || mplint::check::check(&[dir], &options).unwrap().findings);
        let legacy: Vec<&Finding> = findings.iter().filter(|f| f.rule == "legacy-fact").collect();
        assert_eq!(legacy.len(), reads.len().min(1), "{tree}: {}", describe(&findings));
        for read in reads {
            assert!(legacy.iter().any(|f| f.message.contains(read)), "{tree}: {read} in {}", describe(&findings));
        }
    }
}
