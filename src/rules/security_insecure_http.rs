//! `security-insecure-http`

use super::security::{judged, plain_http_url, runs_downloader, slots, strings, Reported};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports content fetched over plain `http://` from another machine: a
/// file's, archive's or package's `source`, a package repository's URL
/// (`yumrepo`, `zypprepo`, `apt::source`, `apt::key`), a download
/// (`wget::fetch`, `archive::download`, `staging::file`), an `exec` command
/// that runs `curl` or `wget`.
///
/// ## Why is this bad?
/// Without TLS, anyone on the way can read or replace what the node
/// installs and runs. (APT and Yum check repository signatures, which
/// limits, but does not remove, the risk: a replaced key or an unsigned
/// repository is then trusted.)
pub const RULE: RuleInfo = RuleInfo {
    id: "security-insecure-http",
    name: "SecurityInsecureHttp",
    default_level: Level::Warning,
    summary: "Content is fetched over plain HTTP.",
    documentation: include_str!("../../rules/security-insecure-http.md"),
};

/// Types and the attributes whose value says where content comes from.
const FETCHED_FROM: &[(&str, &[&str])] = &[
    ("file", &["source"]),
    ("archive", &["source"]),
    ("package", &["source"]),
    ("yumrepo", &["baseurl", "mirrorlist", "metalink", "gpgkey"]),
    ("zypprepo", &["baseurl", "gpgkey"]),
    ("apt::source", &["location"]),
    ("apt::key", &["source", "key_source"]),
    ("wget::fetch", &["source"]),
    ("archive::download", &["url"]),
    ("staging::file", &["source"]),
    ("staging::deploy", &["source"]),
    ("remote_file", &["source"]),
    ("exec", &["command"]),
];

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut reported = Reported::default();
    for slot in slots(compilation) {
        let Some(type_name) = slot.type_name() else { continue };
        let Some((_, attributes)) = FETCHED_FROM.iter().find(|(t, _)| *t == type_name) else { continue };
        if !attributes.contains(&slot.name) {
            continue;
        }
        if reported.covers(compilation, &slot, true) {
            reported.mark(compilation, &slot);
            continue;
        }
        let url = strings(slot.value).into_iter().find_map(|text| {
            if type_name == "exec" && !runs_downloader(text) {
                return None;
            }
            plain_http_url(text)
        });
        let Some(url) = url else { continue };
        reported.mark(compilation, &slot);
        let message = format!(
            "{} fetches '{url}' over plain HTTP: use https:// so that it cannot be read or replaced on the way",
            slot.describe()
        );
        if judged(model, compilation, &slot) {
            sink.report(&RULE, slot.at, message, Vec::new());
        }
    }
}
