//! `security-weak-hash`

use super::security::{in_example, judged, literal_defaults, names_password, slots, strings, words, Reported};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports MD5 or SHA-1 where they protect something: a checksum or digest
/// setting (`checksum`, `checksum_type`, `digest_type`) set to `md5`,
/// `md5lite` or `sha1`; `pw_hash()` hashing a password with MD5; `md5()`
/// or `sha1()` applied to a password.
///
/// ## Why is this bad?
/// Collisions can be made for both: a checksum in MD5 or SHA-1 does not
/// show that a download is the one intended, and passwords hashed with
/// them are quickly cracked.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-weak-hash",
    name: "SecurityWeakHash",
    default_level: Level::Warning,
    summary: "MD5 or SHA-1 checks content or hashes a password.",
    documentation: include_str!("../../rules/security-weak-hash.md"),
};

/// `checksum`, `checksum_type`, `digest_type`, `hash_algorithm`.
fn names_digest_algorithm(name: &str) -> bool {
    match words(name).as_slice() {
        [first] => first == "checksum" || first == "digest",
        [first, second] => {
            matches!(first.as_str(), "checksum" | "digest" | "hash")
                && matches!(second.as_str(), "type" | "algorithm" | "algo")
        }
        _ => false,
    }
}

fn weak_algorithm(text: &str) -> bool {
    matches!(text.trim().to_ascii_lowercase().as_str(), "md5" | "md5lite" | "sha1" | "sha-1")
}

fn message(what: &str, algorithm: &str) -> String {
    format!("{what} is '{algorithm}', a broken hash: use sha256 or stronger so that the content is the one intended")
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut reported = Reported::default();
    for slot in slots(compilation) {
        if !names_digest_algorithm(slot.name) {
            continue;
        }
        if reported.covers(compilation, &slot, false) {
            reported.mark(compilation, &slot);
            continue;
        }
        let Some(algorithm) = strings(slot.value).into_iter().find(|s| weak_algorithm(s)) else { continue };
        reported.mark(compilation, &slot);
        if judged(model, compilation, &slot) {
            sink.report(&RULE, slot.at, message(&slot.describe(), algorithm), Vec::new());
        }
    }
    for call in &compilation.calls {
        let message = match call.name.as_str() {
            "pw_hash" => match call.args.get(1).and_then(|a| a.as_str()) {
                Some(algorithm) if algorithm.eq_ignore_ascii_case("md5") => {
                    "`pw_hash()` with MD5: the password hash is quickly cracked; use 'SHA-512'".to_string()
                }
                _ => continue,
            },
            "md5" | "sha1" => {
                let Some(variable) = call.variables.iter().find(|v| names_password(v.rsplit("::").next().unwrap_or(v)))
                else {
                    continue;
                };
                format!(
                    "`{}()` of `${variable}`: a password hashed with a broken hash is quickly cracked; use `pw_hash()` with 'SHA-512'",
                    call.name
                )
            }
            _ => continue,
        };
        if !in_example(model, call.at) {
            sink.report(&RULE, call.at, message, Vec::new());
        }
    }
}

/// Defaults written as literals, evaluated or not.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for default in literal_defaults(model) {
        if names_digest_algorithm(default.param) && weak_algorithm(&default.text) {
            let what = format!("the default of `${}` of `{}`", default.param, default.owner_name);
            sink.report(&RULE, default.at, message(&what, &default.text), Vec::new());
        }
    }
}
