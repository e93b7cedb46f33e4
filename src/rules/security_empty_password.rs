//! `security-empty-password`

use super::security::{judged, names_password, slots, Reported, Setting};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::value::Value;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a password setting given the empty string at a declaration,
/// wherever the value comes from.
///
/// ## Why is this bad?
/// An empty password lets anyone log in, or leaves an account or a key
/// store without protection.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-empty-password",
    name: "SecurityEmptyPassword",
    default_level: Level::Error,
    summary: "A password is set to the empty string.",
    documentation: include_str!("../../rules/security-empty-password.md"),
};

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut reported = Reported::default();
    for slot in slots(compilation) {
        // A default of '' often means "not set": what matters is where the
        // empty value arrives.
        let Setting::Attribute(declared) = slot.setting else { continue };
        // A collector may give an exported resource its password; a Unix
        // socket connection authenticates without one.
        let over_socket = declared.attributes.iter().any(|(name, _, value)| {
            super::security::words(name).iter().any(|w| w == "socket") && value.as_str().is_some_and(|s| !s.is_empty())
        });
        if declared.exported || over_socket {
            continue;
        }
        if !names_password(slot.name) {
            continue;
        }
        if reported.covers(compilation, &slot, true) {
            reported.mark(compilation, &slot);
            continue;
        }
        if !matches!(slot.value, Value::Str(text) if text.is_empty()) {
            continue;
        }
        reported.mark(compilation, &slot);
        let message = format!("{} is the empty string: no password at all", slot.describe());
        if judged(model, compilation, &slot) {
            sink.report(&RULE, slot.at, message, Vec::new());
        }
    }
}
