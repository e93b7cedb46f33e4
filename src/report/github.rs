//! GitHub Actions workflow commands: one `::error`/`::warning`/`::notice`
//! line per finding, which Actions shows as annotations on the pull request.

use crate::check::CheckOutcome;
use crate::rules::Level;

/// Escapes a message for a workflow command.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a property value (`file=…`, `title=…`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(outcome: &CheckOutcome) -> Vec<u8> {
    let mut out = String::new();
    for finding in outcome.findings.iter().filter(|f| f.suppressed_by.is_none()) {
        let command = match finding.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "notice",
        };
        let (start, end) = (finding.span.start_pos, finding.span.end_pos);
        let mut message = finding.message.clone();
        for related in &finding.related {
            message.push_str(&format!(
                "\n{}:{}:{}: {}",
                super::slash_path(&related.path),
                related.span.start_pos.line,
                related.span.start_pos.column,
                related.message
            ));
        }
        out.push_str(&format!(
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape_property(&super::slash_path(&finding.path)),
            start.line,
            start.column,
            end.line,
            end.column,
            escape_property(&format!("mplint {}", finding.rule)),
            escape_data(&message)
        ));
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
