//! Checkstyle XML, the report format reviewdog, Jenkins (Warnings Next
//! Generation) and many editors read: every checked file, with an `error`
//! element per unsuppressed finding.

use std::collections::BTreeMap;

use super::{slash_path, xml_escape};
use crate::check::CheckOutcome;
use crate::rules::{Finding, Level};

pub fn render(outcome: &CheckOutcome) -> Vec<u8> {
    let mut by_file: BTreeMap<String, Vec<&Finding>> = BTreeMap::new();
    for file in &outcome.files[..outcome.checked] {
        by_file.entry(slash_path(&file.source.path)).or_default();
    }
    for finding in outcome.findings.iter().filter(|f| f.suppressed_by.is_none()) {
        by_file.entry(slash_path(&finding.path)).or_default().push(finding);
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n");
    for (path, findings) in &by_file {
        if findings.is_empty() {
            out.push_str(&format!("  <file name=\"{}\"/>\n", xml_escape(path)));
            continue;
        }
        out.push_str(&format!("  <file name=\"{}\">\n", xml_escape(path)));
        for finding in findings {
            let severity = match finding.level {
                Level::Error => "error",
                Level::Warning => "warning",
                Level::Note => "info",
            };
            out.push_str(&format!(
                "    <error line=\"{}\" column=\"{}\" severity=\"{severity}\" message=\"{}\" source=\"mplint.{}\"/>\n",
                finding.span.start_pos.line,
                finding.span.start_pos.column,
                xml_escape(&finding.message),
                finding.rule
            ));
        }
        out.push_str("  </file>\n");
    }
    out.push_str("</checkstyle>\n");
    out.into_bytes()
}
