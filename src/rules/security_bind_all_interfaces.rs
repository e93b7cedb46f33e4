//! `security-bind-all-interfaces`

use super::security::{judged, literal_defaults, names_listener, slots, strings, Reported};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a service told to listen on every network interface: a
/// setting named like `bind`, `listen`, `bind_address` or `address` given
/// `0.0.0.0` or `::` (with or without a port).
///
/// ## Why is this bad?
/// The service then accepts connections from every network the machine
/// is on, not only the one it is meant to serve.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-bind-all-interfaces",
    name: "SecurityBindAllInterfaces",
    default_level: Level::Warning,
    summary: "A service listens on every network interface.",
    documentation: include_str!("../../rules/security-bind-all-interfaces.md"),
};

/// `0.0.0.0`, `::`, `[::]`, with a port or a scheme.
fn all_interfaces(text: &str) -> bool {
    let text = text.trim();
    let text = text.split_once("://").map_or(text, |(_, rest)| rest);
    let text = text.strip_suffix('/').unwrap_or(text);
    let host = if let Some(rest) = text.strip_prefix("[::]") {
        return rest.is_empty() || rest.strip_prefix(':').is_some_and(is_port);
    } else if let Some(port) = text.strip_prefix(":::") {
        return is_port(port);
    } else {
        text.rsplit_once(':').filter(|(_, port)| is_port(port)).map_or(text, |(host, _)| host)
    };
    host == "0.0.0.0" || host == "::" || text == "::"
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.chars().all(|c| c.is_ascii_digit())
}

fn message(what: &str, address: &str) -> String {
    format!("{what} is '{address}': the service listens on every network interface; bind it to the address it serves")
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut reported = Reported::default();
    for slot in slots(compilation) {
        if !names_listener(slot.name) {
            continue;
        }
        if reported.covers(compilation, &slot, false) {
            reported.mark(compilation, &slot);
            continue;
        }
        let Some(address) = strings(slot.value).into_iter().find(|s| all_interfaces(s)) else { continue };
        reported.mark(compilation, &slot);
        if judged(model, compilation, &slot) {
            sink.report(&RULE, slot.at, message(&slot.describe(), address), Vec::new());
        }
    }
}

/// Defaults written as literals, evaluated or not.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for default in literal_defaults(model) {
        if names_listener(default.param) && all_interfaces(&default.text) {
            let what = format!("the default of `${}` of `{}`", default.param, default.owner_name);
            sink.report(&RULE, default.at, message(&what, &default.text), Vec::new());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::all_interfaces;

    #[test]
    fn addresses() {
        for yes in ["0.0.0.0", "::", "[::]", "0.0.0.0:80", "[::]:443", ":::80", "tcp://0.0.0.0:2375"] {
            assert!(all_interfaces(yes), "{yes}");
        }
        for no in ["0.0.0.0/0", "127.0.0.1", "::1", "10.0.0.1:80", "*:80", "", "fe80::1"] {
            assert!(!all_interfaces(no), "{no}");
        }
    }
}
