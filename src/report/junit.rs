//! JUnit XML, which every CI system shows as test results: one test case
//! per checked file, failing with one `failure` per finding at or above the
//! `--fail-on` level. Findings below it are listed in the test case's
//! output; a path that could not be read is a test case with an `error`.

use std::collections::BTreeMap;

use super::{slash_path, xml_escape, xml_text, ReportOptions};
use crate::check::CheckOutcome;
use crate::rules::Finding;

/// A finding as one line of text, with its related places indented below.
fn describe(finding: &Finding) -> String {
    let mut text = format!(
        "{}:{}:{}: {} [{}]: {}\n",
        slash_path(&finding.path),
        finding.span.start_pos.line,
        finding.span.start_pos.column,
        finding.level.as_str(),
        finding.rule,
        finding.message
    );
    for place in &finding.related {
        text.push_str(&format!(
            "    {}:{}:{}: {}\n",
            slash_path(&place.path),
            place.span.start_pos.line,
            place.span.start_pos.column,
            place.message
        ));
    }
    text
}

#[derive(Default)]
struct Case<'a> {
    failures: Vec<&'a Finding>,
    below: Vec<&'a Finding>,
    error: Option<&'a str>,
}

pub fn render(outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    let mut cases: BTreeMap<String, Case<'_>> = BTreeMap::new();
    for file in &outcome.files[..outcome.checked] {
        cases.entry(slash_path(&file.source.path)).or_default();
    }
    for finding in outcome.findings.iter().filter(|f| f.suppressed_by.is_none()) {
        let case = cases.entry(slash_path(&finding.path)).or_default();
        if finding.level >= options.fail_on {
            case.failures.push(finding);
        } else {
            case.below.push(finding);
        }
    }
    for notice in outcome.notices.iter().filter(|n| !n.kind.is_layout_note()) {
        cases.entry(slash_path(&notice.path)).or_default().error = Some(&notice.message);
    }
    let failing = cases.values().filter(|c| !c.failures.is_empty() && c.error.is_none()).count();
    let errors = cases.values().filter(|c| c.error.is_some()).count();
    let counts = format!("tests=\"{}\" failures=\"{failing}\" errors=\"{errors}\"", cases.len());

    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!("<testsuites name=\"mplint\" {counts}>\n"));
    out.push_str(&format!("  <testsuite name=\"mplint\" {counts} skipped=\"0\">\n"));
    for (path, case) in &cases {
        let name = xml_escape(path);
        if case.failures.is_empty() && case.below.is_empty() && case.error.is_none() {
            out.push_str(&format!("    <testcase name=\"{name}\" classname=\"mplint\"/>\n"));
            continue;
        }
        out.push_str(&format!("    <testcase name=\"{name}\" classname=\"mplint\">\n"));
        if let Some(message) = case.error {
            out.push_str(&format!(
                "      <error type=\"unreadable\" message=\"{}\">{}</error>\n",
                xml_escape(message),
                xml_text(message)
            ));
        } else {
            for finding in &case.failures {
                out.push_str(&format!(
                    "      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                    finding.rule,
                    xml_escape(&finding.message),
                    xml_text(&describe(finding))
                ));
            }
        }
        if !case.below.is_empty() {
            let text: String = case.below.iter().map(|f| describe(f)).collect();
            out.push_str(&format!("      <system-out>{}</system-out>\n", xml_text(&text)));
        }
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out.into_bytes()
}
