//! SARIF 2.1.0, the format GitHub code scanning reads.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, Message, MultiformatMessageString, Notification, PhysicalLocation,
    PropertyBag, Region, ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif,
    Tool, ToolComponent,
};

use super::ReportOptions;
use crate::check::CheckOutcome;
use crate::rules::{Level, Related, ALL_RULES};
use crate::syntax::source::Span;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SRCROOT: &str = "%SRCROOT%";
const INFORMATION_URI: &str = "https://github.com/mplint/mplint";

pub fn render(outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Vec<u8> {
    let sarif = build(outcome, options);
    let mut out = serde_json::to_vec_pretty(&sarif).expect("SARIF serialises");
    out.push(b'\n');
    out
}

fn level(level: Level) -> serde_json::Value {
    json!(level.as_str())
}

fn text(message: &str) -> Message {
    Message::builder().text(message).build()
}

fn rule_descriptor(rule: &crate::rules::RuleInfo) -> ReportingDescriptor {
    let full = rule_description(rule.documentation).unwrap_or(rule.summary);
    ReportingDescriptor::builder()
        .id(rule.id)
        .name(rule.name)
        .short_description(MultiformatMessageString::builder().text(rule.summary).build())
        .full_description(MultiformatMessageString::builder().text(full).build())
        .help(MultiformatMessageString::builder().text(rule.documentation).markdown(rule.documentation).build())
        .help_uri(format!("{INFORMATION_URI}/blob/main/rules/{}.md", rule.id))
        .default_configuration(ReportingConfiguration::builder().level(level(rule.default_level)).build())
        .properties(
            PropertyBag::builder()
                .additional_properties(BTreeMap::from([
                    ("tags".to_string(), json!(["puppet"])),
                    ("precision".to_string(), json!("very-high")),
                ]))
                .build(),
        )
        .build()
}

/// The first paragraph under "What it does" in a rule's documentation.
fn rule_description(documentation: &str) -> Option<&str> {
    let start = documentation.find("## What it does")? + "## What it does".len();
    let rest = documentation[start..].trim_start();
    let end = rest.find("\n\n").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn location(path: &Path, span: &Span, message: Option<&str>, base_dir: &Path) -> Location {
    let mut artifact = ArtifactLocation::builder().uri(uri(path, base_dir)).build();
    if !path.is_absolute() || path.starts_with(base_dir) {
        artifact.uri_base_id = Some(SRCROOT.into());
    }
    let region = Region::builder()
        .start_line(span.start_pos.line as i64)
        .start_column(span.start_pos.column as i64)
        .end_line(span.end_pos.line as i64)
        .end_column(span.end_pos.column as i64)
        .build();
    let physical = PhysicalLocation::builder().artifact_location(artifact).region(region).build();
    let mut location = Location::builder().physical_location(physical).build();
    location.message = message.map(text);
    location
}

/// A relative URI under the base directory, or an absolute `file://` URI.
fn uri(path: &Path, base_dir: &Path) -> String {
    if path.is_absolute() {
        match path.strip_prefix(base_dir) {
            Ok(relative) => percent_encode(&super::slash_path(relative)),
            Err(_) => format!("file://{}", percent_encode(&super::slash_path(path))),
        }
    } else {
        percent_encode(&super::slash_path(path))
    }
}

fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn directory_uri(dir: &Path) -> String {
    let mut uri = format!("file://{}", percent_encode(&super::slash_path(dir)));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

fn build(outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Sarif {
    let rules: Vec<ReportingDescriptor> = ALL_RULES.iter().map(|r| rule_descriptor(r)).collect();
    let driver = ToolComponent::builder()
        .name("mplint")
        .full_name(format!("mplint {}", env!("CARGO_PKG_VERSION")))
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .information_uri(INFORMATION_URI)
        .rules(rules)
        .build();

    let results: Vec<SarifResult> = outcome
        .findings
        .iter()
        .map(|finding| {
            let rule_index = ALL_RULES.iter().position(|r| r.id == finding.rule).map(|i| i as i64);
            let mut result = SarifResult::builder()
                .rule_id(finding.rule)
                .message(text(&finding.message))
                .locations(vec![location(&finding.path, &finding.span, None, options.base_dir)])
                .build();
            result.rule_index = rule_index;
            result.level = Some(match finding.level {
                Level::Error => ResultLevel::Error,
                Level::Warning => ResultLevel::Warning,
                Level::Note => ResultLevel::Note,
            });
            if !finding.related.is_empty() {
                result.related_locations = Some(
                    finding
                        .related
                        .iter()
                        .map(|Related { path, span, message }| location(path, span, Some(message), options.base_dir))
                        .collect(),
                );
            }
            result
        })
        .collect();

    let notifications: Vec<Notification> = outcome
        .notices
        .iter()
        .map(|notice| {
            let mut notification = Notification::builder().message(text(&notice.message)).build();
            notification.level = Some(json!("error"));
            notification.locations = Some(vec![Location::builder()
                .physical_location(
                    PhysicalLocation::builder()
                        .artifact_location(ArtifactLocation::builder().uri(uri(&notice.path, options.base_dir)).build())
                        .build(),
                )
                .build()]);
            notification
        })
        .collect();
    let mut invocation = Invocation::builder().execution_successful(outcome.notices.is_empty()).build();
    if !notifications.is_empty() {
        invocation.tool_execution_notifications = Some(notifications);
    }

    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .invocations(vec![invocation])
        .column_kind(json!("unicodeCodePoints"))
        .build();
    run.original_uri_base_ids = Some(BTreeMap::from([(
        SRCROOT.to_string(),
        ArtifactLocation::builder().uri(directory_uri(options.base_dir)).build(),
    )]));

    Sarif::builder().schema(SCHEMA_URI).version(json!("2.1.0")).runs(vec![run]).build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_to_the_base_and_encoded() {
        let base = Path::new("/repo");
        assert_eq!(uri(Path::new("/repo/a b/c.pp"), base), "a%20b/c.pp");
        assert_eq!(uri(Path::new("/elsewhere/c.pp"), base), "file:///elsewhere/c.pp");
        assert_eq!(uri(Path::new("site/x.pp"), base), "site/x.pp");
    }

    #[test]
    fn description_is_the_first_paragraph_of_what_it_does() {
        let doc = "# x\n\n## What it does\n\nReports things.\nOn two lines.\n\n## Why";
        assert_eq!(rule_description(doc), Some("Reports things.\nOn two lines."));
    }
}
