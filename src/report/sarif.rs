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
/// `partialFingerprints` key; bump the version when the recipe changes.
const FINGERPRINT_KEY: &str = "mplintFingerprint/v1";
/// `automationDetails.id`: the analysis category GitHub groups runs by.
const AUTOMATION_ID: &str = "mplint/";

/// Builds a SARIF object from its JSON form.
fn from_json<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).expect("well-formed SARIF object")
}

/// A git remote as the absolute URI SARIF wants: URLs stay, `git@host:path`
/// becomes `ssh://host/path`, a local path a `file://` URI. A user name or
/// password in the remote (a token in `https://user:token@host/…`) is
/// never copied into the report.
fn repository_uri(remote: &str, root: &Path) -> String {
    let scp_like = || {
        // `[user[:password]@]host:path`: whatever comes before the `@` goes.
        let rest = match remote.find('@') {
            Some(at) if remote[at..].contains(':') => &remote[at + 1..],
            _ => remote,
        };
        let (host, path) = rest.split_once(':')?;
        (!host.contains('/') && !path.starts_with("//") && !Path::new(remote).exists())
            .then(|| format!("ssh://{host}/{}", path.trim_start_matches('/')))
    };
    let candidate = if remote.contains("://") { Some(remote.to_string()) } else { scp_like() };
    if let Some(mut url) = candidate.and_then(|c| url::Url::parse(&c).ok()) {
        // Neither fails for the URLs that have an authority, which are the
        // only ones that can carry credentials.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        return url.to_string();
    }
    if remote.contains("://") {
        // Not a URL the parser understands: nothing of it is safe to copy.
        return directory_uri(root);
    }
    let path = Path::new(remote);
    let absolute = if path.is_absolute() { path.to_path_buf() } else { root.join(path) };
    directory_uri(&absolute)
}

/// The git revision checked, when the base directory is in a checkout.
fn version_control(base_dir: &Path) -> Option<serde_sarif::sarif::VersionControlDetails> {
    let git = |args: &[&str]| -> Option<String> {
        let output = std::process::Command::new("git").args(args).current_dir(base_dir).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?.trim().to_string();
        (output.status.success() && !text.is_empty()).then_some(text)
    };
    let revision = git(&["rev-parse", "HEAD"])?;
    let root = git(&["rev-parse", "--show-toplevel"])?;
    let repository = match git(&["config", "--get", "remote.origin.url"]) {
        Some(remote) => repository_uri(&remote, Path::new(&root)),
        None => directory_uri(Path::new(&root)),
    };
    let mut details = json!({ "repositoryUri": repository, "revisionId": revision });
    if let Some(branch) = git(&["symbolic-ref", "--short", "-q", "HEAD"]) {
        details["branch"] = json!(branch);
    }
    if Path::new(&root) == base_dir {
        details["mappedTo"] = json!({ "uriBaseId": SRCROOT });
    }
    Some(from_json(details))
}

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
        .default_configuration(
            ReportingConfiguration::builder()
                .level(level(rule.default_level))
                .enabled(crate::rules::on_by_default(rule.id))
                .build(),
        )
        .properties(PropertyBag::builder().additional_properties(rule_properties(rule)).build())
        .build()
}

/// A policy constraint as a rule: its message describes it, and its
/// `properties` name the policy that states it.
fn constraint_descriptor(constraint: &crate::policy::Constraint) -> ReportingDescriptor {
    let properties = BTreeMap::from([
        ("tags".to_string(), json!(["puppet", "policy"])),
        ("policy".to_string(), json!(constraint.policy)),
    ]);
    let full = format!("A constraint of the policy `{}`: {}.", constraint.policy, constraint.message);
    let help = format!(
        "{full} Its level can be changed under `[rules]` in `.mplint.toml` (`{id} = \"off\"`), and a finding suppressed with `# mplint:ignore:{id}`.",
        id = constraint.id
    );
    ReportingDescriptor::builder()
        .id(constraint.id)
        .short_description(MultiformatMessageString::builder().text(&constraint.message).build())
        .full_description(MultiformatMessageString::builder().text(&full).build())
        .help(MultiformatMessageString::builder().text(&help).markdown(&help).build())
        .default_configuration(ReportingConfiguration::builder().level(level(constraint.level)).build())
        .properties(PropertyBag::builder().additional_properties(properties).build())
        .build()
}

/// A rule's `properties`: its tags and precision, and for the rules that
/// matter to security the `security` tag and the `security-severity` GitHub
/// ranks code-scanning alerts by.
fn rule_properties(rule: &crate::rules::RuleInfo) -> BTreeMap<String, serde_json::Value> {
    let mut properties = BTreeMap::from([("precision".to_string(), json!("very-high"))]);
    match crate::rules::security_severity(rule.id) {
        Some(severity) => {
            properties.insert("tags".into(), json!(["puppet", "security"]));
            properties.insert("security-severity".into(), json!(format!("{severity:.1}")));
        }
        None => {
            properties.insert("tags".into(), json!(["puppet"]));
        }
    }
    properties
}

/// The first paragraph under "What it does" in a rule's documentation.
fn rule_description(documentation: &str) -> Option<&str> {
    let start = documentation.find("## What it does")? + "## What it does".len();
    let rest = documentation[start..].trim_start();
    let end = rest.find("\n\n").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Where report paths are resolved: relative ones against the working
/// directory, and all written relative to `%SRCROOT%` when under it.
struct Places<'p> {
    cwd: &'p Path,
    root: &'p Path,
}

impl Places<'_> {
    fn absolute(&self, path: &Path) -> std::path::PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        }
    }

    fn artifact(&self, path: &Path) -> ArtifactLocation {
        let absolute = self.absolute(path);
        match absolute.strip_prefix(self.root) {
            Ok(relative) => {
                let mut artifact =
                    ArtifactLocation::builder().uri(percent_encode(&super::slash_path(relative))).build();
                artifact.uri_base_id = Some(SRCROOT.into());
                artifact
            }
            Err(_) => ArtifactLocation::builder()
                .uri(format!("file://{}", percent_encode(&super::slash_path(&absolute))))
                .build(),
        }
    }

    fn location(&self, path: &Path, span: &Span, message: Option<&str>) -> Location {
        let region = Region::builder()
            .start_line(span.start_pos.line as i64)
            .start_column(span.start_pos.column as i64)
            .end_line(span.end_pos.line as i64)
            .end_column(span.end_pos.column as i64)
            .build();
        let physical = PhysicalLocation::builder().artifact_location(self.artifact(path)).region(region).build();
        let mut location = Location::builder().physical_location(physical).build();
        location.message = message.map(text);
        location
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

/// The directory `%SRCROOT%` stands for: the working directory when it holds
/// every reported file, else the deepest directory that does.
fn source_root(outcome: &CheckOutcome, cwd: &Path) -> std::path::PathBuf {
    let absolute = |p: &Path| if p.is_absolute() { p.to_path_buf() } else { cwd.join(p) };
    let mut paths = outcome.findings.iter().flat_map(|f| {
        std::iter::once(&f.path).chain(f.related.iter().map(|r| &r.path)).chain(f.flow.iter().map(|r| &r.path))
    });
    let mut root = cwd.to_path_buf();
    if paths.clone().all(|p| absolute(p).starts_with(cwd)) {
        return root;
    }
    if let Some(first) = paths.next() {
        root = absolute(first).parent().map(Path::to_path_buf).unwrap_or_default();
        for path in paths {
            let path = absolute(path);
            while !path.starts_with(&root) {
                if !root.pop() {
                    break;
                }
            }
        }
    }
    root
}

fn build(outcome: &CheckOutcome, options: &ReportOptions<'_>) -> Sarif {
    let root = source_root(outcome, options.base_dir);
    let places = Places { cwd: options.base_dir, root: &root };
    let mut rules: Vec<ReportingDescriptor> = ALL_RULES.iter().map(|r| rule_descriptor(r)).collect();
    rules.extend(options.constraints.iter().map(constraint_descriptor));
    let driver = ToolComponent::builder()
        .name("mplint")
        .full_name(format!("mplint {}", env!("CARGO_PKG_VERSION")))
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .information_uri(INFORMATION_URI)
        .rules(rules)
        .build();

    let fingerprints = super::fingerprints(outcome);
    let results: Vec<SarifResult> = outcome
        .findings
        .iter()
        .zip(fingerprints)
        .map(|(finding, fingerprint)| {
            let constraint = options.constraints.iter().position(|c| c.id == finding.rule);
            let rule_index = ALL_RULES
                .iter()
                .position(|r| r.id == finding.rule)
                .or(constraint.map(|i| ALL_RULES.len() + i))
                .map(|i| i as i64);
            let mut result = SarifResult::builder()
                .rule_id(finding.rule)
                .message(text(&finding.message))
                .locations(vec![places.location(&finding.path, &finding.span, None)])
                .build();
            result.rule_index = rule_index;
            result.level = Some(match finding.level {
                Level::Error => ResultLevel::Error,
                Level::Warning => ResultLevel::Warning,
                Level::Note => ResultLevel::Note,
            });
            result.partial_fingerprints = Some(BTreeMap::from([(FINGERPRINT_KEY.to_string(), fingerprint)]));
            if let Some(i) = constraint {
                let policy = BTreeMap::from([("policy".to_string(), json!(options.constraints[i].policy))]);
                result.properties = Some(PropertyBag::builder().additional_properties(policy).build());
            }
            if let Some(comment) = finding.suppressed_by {
                result.suppressions = Some(vec![from_json(json!({
                    "kind": "inSource",
                    "location": places.location(&finding.path, &comment, None),
                }))]);
            }
            if !finding.flow.is_empty() {
                let steps: Vec<serde_json::Value> = finding
                    .flow
                    .iter()
                    .enumerate()
                    .map(|(i, step)| {
                        json!({
                            "location": places.location(&step.path, &step.span, Some(&step.message)),
                            "nestingLevel": i,
                            "executionOrder": i + 1,
                        })
                    })
                    .collect();
                result.code_flows = Some(vec![from_json(json!({
                    "message": { "text": "how evaluation reaches this finding" },
                    "threadFlows": [ { "locations": steps } ],
                }))]);
            }
            if !finding.related.is_empty() {
                result.related_locations = Some(
                    finding
                        .related
                        .iter()
                        .enumerate()
                        .map(|(i, Related { path, span, message })| {
                            let mut related = places.location(path, span, Some(message));
                            related.id = Some(i as i64 + 1);
                            related
                        })
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
            let level = if notice.kind.is_layout_note() { "note" } else { "error" };
            notification.level = Some(json!(level));
            notification.locations = Some(vec![Location::builder()
                .physical_location(PhysicalLocation::builder().artifact_location(places.artifact(&notice.path)).build())
                .build()]);
            notification
        })
        .collect();
    let mut invocation =
        Invocation::builder().execution_successful(outcome.notices.iter().all(|n| n.kind.is_layout_note())).build();
    if !notifications.is_empty() {
        invocation.tool_execution_notifications = Some(notifications);
    }

    let mut run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .invocations(vec![invocation])
        .column_kind(json!("unicodeCodePoints"))
        .build();
    run.automation_details = Some(from_json(json!({ "id": AUTOMATION_ID })));
    run.version_control_provenance = version_control(&root).map(|v| vec![v]);
    run.original_uri_base_ids =
        Some(BTreeMap::from([(SRCROOT.to_string(), ArtifactLocation::builder().uri(directory_uri(&root)).build())]));

    Sarif::builder().schema(SCHEMA_URI).version(json!("2.1.0")).runs(vec![run]).build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_to_the_root_and_encoded() {
        let places = Places { cwd: Path::new("/repo"), root: Path::new("/repo") };
        let uri = |p: &str| places.artifact(Path::new(p)).uri.unwrap();
        assert_eq!(uri("/repo/a b/c.pp"), "a%20b/c.pp");
        assert_eq!(uri("/elsewhere/c.pp"), "file:///elsewhere/c.pp");
        assert_eq!(uri("site/x.pp"), "site/x.pp");
        assert_eq!(places.artifact(Path::new("site/x.pp")).uri_base_id.as_deref(), Some(SRCROOT));
    }

    #[test]
    fn repository_uris_are_absolute() {
        let root = Path::new("/src/repo");
        assert_eq!(repository_uri("https://github.com/a/b.git", root), "https://github.com/a/b.git");
        assert_eq!(repository_uri("git@github.com:a/b.git", root), "ssh://github.com/a/b.git");
        assert_eq!(repository_uri("https://user:token@host/x.git", root), "https://host/x.git");
        assert_eq!(repository_uri("https://token@host:8443/x.git", root), "https://host:8443/x.git");
        assert_eq!(repository_uri("ssh://git@host/x.git", root), "ssh://host/x.git");
        assert_eq!(repository_uri("user:pass@host:x.git", root), "ssh://host/x.git");
        assert_eq!(repository_uri("/work/main", root), "file:///work/main/");
        assert_eq!(repository_uri("../upstream", root), "file:///src/repo/../upstream/");
    }

    #[test]
    fn description_is_the_first_paragraph_of_what_it_does() {
        let doc = "# x\n\n## What it does\n\nReports things.\nOn two lines.\n\n## Why";
        assert_eq!(rule_description(doc), Some("Reports things.\nOn two lines."));
    }
}
