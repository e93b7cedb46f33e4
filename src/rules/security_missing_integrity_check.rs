//! `security-missing-integrity-check`

use super::security::{in_example, runs_downloader, strings};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::value::Value;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports content downloaded from the network and used without checking
/// it is the one intended: an `archive` or `file` with an `http`, `https`
/// or `ftp` source and no checksum (`checksum`, `checksum_url`,
/// `checksum_value`), or with the check turned off (`checksum_verify =>
/// false`, `checksum_type => 'none'`); `archive::download` with `checksum
/// => false`; a `curl` or `wget` download piped into a shell.
///
/// ## Why is this bad?
/// Whoever controls the server, or a mirror, or (over plain HTTP) the
/// network, decides what the node installs and runs.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-missing-integrity-check",
    name: "SecurityMissingIntegrityCheck",
    default_level: Level::Warning,
    summary: "Downloaded content is used without an integrity check.",
    documentation: include_str!("../../rules/security-missing-integrity-check.md"),
};

/// Per type: the attribute naming the download, the attributes that
/// check it (any one will do), and settings that turn the check off.
struct Download {
    type_name: &'static str,
    source: &'static str,
    /// URL schemes that make it a download.
    schemes: &'static [&'static str],
    checks: &'static [&'static str],
    turned_off: &'static [(&'static str, &'static str)],
}

const DOWNLOADS: &[Download] = &[
    Download {
        type_name: "archive",
        source: "source",
        schemes: &["http://", "https://", "ftp://"],
        checks: &["checksum", "checksum_url"],
        turned_off: &[("checksum_verify", "false"), ("checksum_type", "none")],
    },
    // Over https a file comes from a server TLS authenticates, as Puppet's
    // own `puppet:///` files do: a configuration served by the site.
    Download {
        type_name: "file",
        source: "source",
        schemes: &["http://", "ftp://"],
        checks: &["checksum_value"],
        turned_off: &[],
    },
    // Checks `URL.md5` unless told not to.
    Download {
        type_name: "archive::download",
        source: "url",
        schemes: &["http://", "https://", "ftp://"],
        checks: &[],
        turned_off: &[("checksum", "false")],
    },
];

fn remote(text: &str, schemes: &[&str]) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    schemes.iter().any(|scheme| lower.starts_with(scheme))
}

/// `curl … | sh`, `wget -O- … | bash`.
fn pipes_download_into_shell(command: &str) -> bool {
    command.split("&&").flat_map(|c| c.split(';')).any(|part| {
        let mut stages = part.split('|').filter(|s| !s.is_empty());
        let Some(first) = stages.next() else { return false };
        runs_downloader(first)
            && stages.any(|stage| {
                let program = stage.split_whitespace().find(|w| *w != "sudo").unwrap_or("");
                matches!(program.rsplit('/').next(), Some("sh" | "bash" | "zsh" | "ksh" | "dash"))
            })
    })
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    for declared in &compilation.declared {
        if in_example(model, declared.loc) {
            continue;
        }
        let value = |name: &str| declared.attributes.iter().find(|(n, _, _)| n == name);
        if declared.type_name == "exec" {
            let Some((_, at, command)) = value("command") else { continue };
            if strings(command).into_iter().any(pipes_download_into_shell) {
                let message = "the `exec` runs a download straight in a shell, unchecked: download it, verify its checksum or signature, then run it".to_string();
                sink.report(&RULE, *at, message, Vec::new());
            }
            continue;
        }
        let Some(download) = DOWNLOADS.iter().find(|d| d.type_name == declared.type_name) else { continue };
        let Some(index) = declared.attributes.iter().position(|(n, _, _)| n == download.source) else { continue };
        let (_, at, source) = &declared.attributes[index];
        // In a usage example, a source the example passes in is for show.
        let passed_in = declared.reads.iter().any(|(i, r)| *i == index && r.passed);
        if passed_in && model.example_file(compilation).is_some() {
            continue;
        }
        let Some(url) = strings(source).into_iter().find(|s| remote(s, download.schemes)) else { continue };
        let off = download.turned_off.iter().find_map(|(name, off)| {
            let (_, _, v) = value(name)?;
            let text = match v {
                Value::Bool(b) => b.to_string(),
                Value::Str(s) => s.to_ascii_lowercase(),
                _ => return None,
            };
            (text == *off).then_some(*name)
        });
        let checked = download.checks.iter().any(|name| value(name).is_some());
        let what = super::security::describe(&declared.type_name, declared.title.as_deref());
        let message = match off {
            Some(name) => {
                format!("{what} downloads '{url}' with its integrity check turned off (`{name}`): give its checksum")
            }
            None if !checked && !download.checks.is_empty() => format!(
                "{what} downloads '{url}' without an integrity check: give its checksum ({})",
                download.checks.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" or ")
            ),
            None => continue,
        };
        sink.report(&RULE, *at, message, Vec::new());
    }
}

#[cfg(test)]
mod tests {
    use super::pipes_download_into_shell;

    #[test]
    fn shell_pipes() {
        assert!(pipes_download_into_shell("curl -sL https://get.example.com | sudo bash"));
        assert!(pipes_download_into_shell("cd /tmp && wget -qO- http://x/install.sh | /bin/sh -s"));
        assert!(!pipes_download_into_shell("curl -s https://x/key | apt-key add -"));
        assert!(!pipes_download_into_shell("echo hi | sh"));
    }
}
