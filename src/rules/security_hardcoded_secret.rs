//! `security-hardcoded-secret`

use super::security::{judged, literal_defaults, names_secret, slots, Reported};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::value::Value;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a password, secret, token or private key written in the code:
/// a setting named like one given a non-empty literal, wherever the value
/// comes from (a variable, a parameter's default, a class parameter given
/// at a declaration).
///
/// ## Why is this bad?
/// Everyone who can read the repository, and every catalog and report,
/// holds the secret; changing it means changing the code.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-hardcoded-secret",
    name: "SecurityHardcodedSecret",
    default_level: Level::Error,
    summary: "A password, secret, token or key is written in the code.",
    documentation: include_str!("../../rules/security-hardcoded-secret.md"),
};

/// Values that stand for no secret: an account locked in the shadow file,
/// a placeholder that means "not set", encrypted data.
fn stands_for_no_secret(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    lower.is_empty()
        || lower.chars().all(|c| c == '*' || c == '!')
        || lower == "*lk*"
        || matches!(
            lower.as_str(),
            "undef"
                | "undefined"
                | "unset"
                | "none"
                | "null"
                | "nil"
                | "absent"
                | "false"
                | "true"
                | "x"
                | "on"
                | "off"
                | "yes"
                | "no"
                | "enabled"
                | "disabled"
                | "ignored"
        )
        || ["dummy", "placeholder", "notasecret", "fake", "not-supplied", "not_supplied"]
            .iter()
            .any(|word| lower.contains(word))
        || lower.starts_with("enc[")
        || lower.contains("{{")
}

/// Values that name where a secret is rather than being one: a path, a
/// URL, a key file's name.
fn names_a_place(text: &str) -> bool {
    let text = text.trim();
    let file_name = text.rsplit('/').next().unwrap_or(text);
    text.starts_with('/')
        || text.starts_with("~/")
        || text.starts_with("./")
        || text.starts_with("puppet:")
        || text.starts_with("file:")
        || text.contains("://")
        || (!file_name.contains(' ')
            && [".pem", ".key", ".crt", ".p12", ".pfx", ".jks", ".keystore", ".gpg", ".asc"]
                .iter()
                .any(|ext| file_name.to_ascii_lowercase().ends_with(ext)))
}

fn message(what: &str, text: &str) -> String {
    format!(
        "{what} is a secret written in the code ({} characters); take it from Hiera (encrypted, such as with eyaml) or a secret store, typed `Sensitive`",
        text.chars().count()
    )
}

fn is_secret(text: &str) -> bool {
    !stands_for_no_secret(text) && !names_a_place(text)
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut reported = Reported::default();
    for slot in slots(compilation) {
        if !names_secret(slot.name) {
            continue;
        }
        if reported.covers(compilation, &slot, false) {
            reported.mark(compilation, &slot);
            continue;
        }
        let Value::Str(text) = slot.value else { continue };
        if !is_secret(text) {
            continue;
        }
        reported.mark(compilation, &slot);
        if judged(model, compilation, &slot) {
            sink.report(&RULE, slot.at, message(&slot.describe(), text), Vec::new());
        }
    }
}

/// Defaults written as literals, evaluated or not.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for default in literal_defaults(model) {
        if names_secret(default.param) && is_secret(&default.text) {
            let what = format!("the default of `${}` of `{}`", default.param, default.owner_name);
            sink.report(&RULE, default.at, message(&what, &default.text), Vec::new());
        }
    }
}
