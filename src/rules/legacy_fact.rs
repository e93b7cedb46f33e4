//! `legacy-fact`

use super::{Finding, RuleInfo, Sink};
use std::collections::BTreeMap;

use crate::model::facts::LEGACY_REPLACEMENTS as LEGACY;
use crate::model::index::Loc;
use crate::model::record::{Compilation, FactForm, FactRead};
use crate::model::templates::Template;
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::NameText;

/// ## What it does
/// Reports each read of one of Facter's legacy flat facts (`$osfamily`,
/// `$::ipaddress`, `$facts['operatingsystemmajrelease']`,
/// `$::macaddress_eth0`) with the structured fact that replaces it; also in
/// the templates code renders by a literal name (`@osfamily`,
/// `scope['::fqdn']`, `@facts['hostname']` in ERB, `$fqdn` in EPP), where
/// the variable finds no variable of the scope that renders it.
///
/// ## Why is this bad?
/// Puppet 8 asks Facter for its facts without the legacy ones: the read
/// fails under strict variables (Puppet 8's default) or gives undef.
pub const RULE: RuleInfo = RuleInfo {
    id: "legacy-fact",
    name: "LegacyFact",
    default_level: Level::Warning,
    summary: "A legacy fact is read, which Puppet 8 no longer provides.",
    documentation: include_str!("../../rules/legacy-fact.md"),
};

/// Per-interface legacy facts (`ipaddress_eth0`): the key each has under
/// `networking.interfaces.<interface>`.
const PER_INTERFACE: &[(&str, &str)] = &[
    ("ipaddress6_", "ip6"),
    ("ipaddress_", "ip"),
    ("macaddress_", "mac"),
    ("mtu_", "mtu"),
    ("netmask6_", "netmask6"),
    ("netmask_", "netmask"),
    ("network6_", "network6"),
    ("network_", "network"),
    ("scope6_", "scope6"),
];

/// Per-zone legacy facts (`zone_<name>_<key>`): their keys under
/// `solaris_zones.zones.<name>`.
const PER_ZONE: &[&str] = &["brand", "iptype", "name", "uuid", "id", "path", "status"];

/// SSH key algorithms Facter names facts after.
const SSH_ALGORITHMS: &[&str] = &["dsa", "ecdsa", "ed25519", "rsa"];

/// `$facts['a']['b']` for the path `a.b`.
fn facts_access(path: &str) -> String {
    let keys: String = path.split('.').map(|key| format!("['{key}']")).collect();
    format!("$facts{keys}")
}

/// What replaces a legacy fact, and what differs in its value. Names of a
/// per-interface family need a suffix that looks like an interface:
/// `$network_manager` is more likely a variable of the code, and
/// `$::network_location` a site's own fact, than the fact of an interface
/// named `manager` or `location`.
pub fn replacement(name: &str) -> Option<(String, &'static str)> {
    if let Some((_, path, caveat)) = LEGACY.iter().find(|(legacy, _, _)| *legacy == name) {
        return Some((facts_access(path), caveat));
    }
    let well_formed = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    for (prefix, key) in PER_INTERFACE {
        let Some(interface) = name.strip_prefix(prefix).filter(|i| well_formed(i)) else { continue };
        let looks_like_interface = interface == "lo" || interface.chars().any(|c| c.is_ascii_digit());
        if !looks_like_interface {
            return None;
        }
        return Some((format!("$facts['networking']['interfaces']['{interface}']['{key}']"), ""));
    }
    if let Some(number) = name.strip_prefix("processor").filter(|n| !n.is_empty()) {
        let index: usize = number.parse().ok().filter(|_| number.chars().all(|c| c.is_ascii_digit()))?;
        return Some((format!("$facts['processors']['models'][{index}]"), ""));
    }
    if let Some(rest) = name.strip_prefix("sshfp_") {
        return SSH_ALGORITHMS
            .contains(&rest)
            .then(|| (format!("$facts['ssh']['{rest}']['fingerprints']"), "a hash of `sha1` and `sha256`"));
    }
    if let Some(algorithm) = name.strip_prefix("ssh").and_then(|rest| rest.strip_suffix("key")) {
        return SSH_ALGORITHMS.contains(&algorithm).then(|| (format!("$facts['ssh']['{algorithm}']['key']"), ""));
    }
    if let Some(device) = name.strip_prefix("blockdevice_") {
        for (suffix, key) in [("_size", "size_bytes"), ("_model", "model"), ("_vendor", "vendor")] {
            if let Some(device) = device.strip_suffix(suffix).filter(|d| well_formed(d)) {
                return Some((format!("$facts['disks']['{device}']['{key}']"), ""));
            }
        }
        return None;
    }
    if let Some(zone) = name.strip_prefix("zone_") {
        for key in PER_ZONE {
            if let Some(zone) = zone.strip_suffix(&format!("_{key}")).filter(|z| well_formed(z)) {
                return Some((format!("$facts['solaris_zones']['zones']['{zone}']['{key}']"), ""));
            }
        }
    }
    None
}

/// How a read is written, for messages.
pub fn written(read: &FactRead) -> String {
    match read.form {
        FactForm::Variable => format!("`${}`", read.name),
        FactForm::TopScope => format!("`$::{}`", read.name),
        FactForm::FactsHash => format!("`$facts['{}']`", read.name),
    }
}

/// Whether a variable read of a fact's name might find a variable in
/// another compilation: a compilation checked on its own does not know
/// its node, and a module's example does not see the site's top scope or
/// what the site's own functions set.
pub fn maybe_bound_elsewhere(model: &Model<'_>, compilation: &Compilation, read: &FactRead) -> bool {
    if read.form == FactForm::FactsHash {
        return false;
    }
    let name = &*read.name;
    set_by_include_function(model, name)
        || model.site_provides(compilation, name)
        || (read.form == FactForm::Variable && compilation.hypothetical() && model.node_variables.contains(name))
}

/// Whether one of the site's include functions sets a top-scope variable
/// of that name (`.mplint.toml`'s `sets`).
fn set_by_include_function(model: &Model<'_>, name: &str) -> bool {
    model.workspace.include_functions.values().any(|f| f.sets.iter().any(|v| v.trim_start_matches(['$', ':']) == name))
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    // A template's legacy facts, by the place that renders it.
    // Each read as written, with its advice and its lines.
    type Reads = Vec<(String, String, Vec<u32>)>;
    let mut in_templates: BTreeMap<Loc, (&Template, Reads)> = BTreeMap::new();
    for read in &compilation.fact_reads {
        if sink.already_reported(&RULE, read.loc) {
            continue;
        }
        // A custom fact of that name is what the nodes get.
        let custom = model.facts.is_shipped_custom(&read.name) || model.facts.is_declared(&read.name);
        if custom || maybe_bound_elsewhere(model, compilation, read) {
            continue;
        }
        let Some((replacement, caveat)) = replacement(&read.name) else { continue };
        let caveat = if caveat.is_empty() { String::new() } else { format!("; {caveat}") };
        if let Some((template, i)) = &read.template {
            let place = &template.reads[*i];
            // An ERB template names the facts hash `@facts`.
            let replacement = if template.epp { replacement } else { replacement.replacen("$facts", "@facts", 1) };
            let advice = format!("use `{replacement}`{caveat}");
            let entry = in_templates.entry(read.loc).or_insert_with(|| (template, Vec::new()));
            match entry.1.iter_mut().find(|(written, ..)| *written == place.written) {
                Some((_, _, lines)) if !lines.contains(&place.line) => lines.push(place.line),
                Some(_) => {}
                None => entry.1.push((place.written.clone(), advice, vec![place.line])),
            }
            continue;
        }
        let caveat = if caveat.is_empty() { caveat } else { format!(" ({})", &caveat[2..]) };
        let message = format!(
            "{} reads the legacy fact `{}`, which Puppet 8 no longer provides: use `{replacement}`{caveat}",
            written(read),
            read.name
        );
        sink.report(&RULE, read.loc, message, Vec::new());
    }
    for (loc, (template, reads)) in in_templates {
        let facts = if reads.len() == 1 { "a legacy fact" } else { "legacy facts" };
        let items: Vec<String> = reads
            .into_iter()
            .map(|(written, advice, lines)| {
                let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
                let word = if lines.len() == 1 { "line" } else { "lines" };
                format!("`{written}` ({word} {}: {advice})", lines.join(", "))
            })
            .collect();
        let message = format!(
            "template `{}`, rendered here, reads {facts} that Puppet 8 no longer provides: {}",
            template.name,
            items.join(", ")
        );
        sink.report(&RULE, loc, message, Vec::new());
    }
}

/// A fact's replacement in Hiera's dotted form: `$facts['os']['family']`
/// becomes `facts.os.family`.
fn hiera_form(replacement: &str) -> String {
    let keys = replacement.trim_start_matches("$facts").trim_start_matches('[').trim_end_matches(']');
    let keys: Vec<&str> = keys.split("][").map(|key| key.trim_matches('\'')).collect();
    format!("facts.{}", keys.join("."))
}

/// The fact a Hiera interpolation reads by its top-level name, and how:
/// `::osfamily` and `scope('osfamily')` are top-scope variables,
/// `facts.osfamily` a key of `$facts`. Other function calls (`lookup`,
/// `alias`, …), `trusted` and `server_facts` read no fact.
fn hiera_fact(inner: &str) -> Option<(&str, FactForm)> {
    let (name, form) = if let Some(argument) = inner.strip_prefix("scope(").and_then(|a| a.strip_suffix(')')) {
        let argument = argument.trim();
        let unquoted = argument
            .strip_prefix('\'')
            .and_then(|a| a.strip_suffix('\''))
            .or_else(|| argument.strip_prefix('"').and_then(|a| a.strip_suffix('"')))?;
        (unquoted.without_anchor(), FactForm::TopScope)
    } else if inner.contains(['(', '\'', '"']) {
        return None;
    } else {
        let top = inner.starts_with("::");
        let mut keys = inner.without_anchor().split('.');
        match keys.next()? {
            "facts" => (keys.next()?, FactForm::FactsHash),
            "trusted" | "server_facts" => return None,
            name if top => (name, FactForm::TopScope),
            name => (name, FactForm::Variable),
        }
    };
    let well_formed = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    well_formed.then_some((name, form))
}

/// Legacy facts that the Hiera configurations and data of the checked
/// directories interpolate (`%{::osfamily}`, `%{facts.fqdn}`,
/// `%{scope('hostname')}`). Puppet 8 fails a lookup through a variable
/// that is not there (strict variables) and interpolates a missing key
/// of `facts` as an empty string.
pub fn check_hiera(model: &Model<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    for interpolation in &model.facts.hiera_interpolations {
        let Some((name, form)) = hiera_fact(&interpolation.inner) else { continue };
        let custom = model.facts.is_shipped_custom(name) || model.facts.is_declared(name);
        let set_by_site = form != FactForm::FactsHash
            && (model.site_variables.contains(name) || set_by_include_function(model, name));
        if custom || set_by_site {
            continue;
        }
        let Some((replacement, caveat)) = replacement(name) else { continue };
        let caveat = if caveat.is_empty() { String::new() } else { format!(" ({caveat})") };
        let message = format!(
            "`%{{{}}}` interpolates the legacy fact `{name}`, which Puppet 8 no longer provides: use `%{{{}}}`{caveat}",
            interpolation.inner,
            hiera_form(&replacement)
        );
        findings.push(Finding {
            rule: RULE.id,
            level: RULE.default_level,
            path: interpolation.path.clone(),
            span: interpolation.span,
            message,
            related: Vec::new(),
            flow: Vec::new(),
            suppressed_by: None,
        });
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replaced(name: &str) -> Option<String> {
        replacement(name).map(|(r, _)| r)
    }

    #[test]
    fn flat_and_per_interface_names() {
        assert_eq!(replaced("osfamily").unwrap(), "$facts['os']['family']");
        assert_eq!(replaced("lsbdistcodename").unwrap(), "$facts['os']['distro']['codename']");
        assert_eq!(replaced("macaddress_eth0").unwrap(), "$facts['networking']['interfaces']['eth0']['mac']");
        assert_eq!(replaced("ipaddress6_bond0").unwrap(), "$facts['networking']['interfaces']['bond0']['ip6']");
        assert_eq!(replaced("processor0").unwrap(), "$facts['processors']['models'][0]");
        assert_eq!(replaced("sshrsakey").unwrap(), "$facts['ssh']['rsa']['key']");
        assert_eq!(replaced("sshfp_ed25519").unwrap(), "$facts['ssh']['ed25519']['fingerprints']");
        assert_eq!(replaced("blockdevice_sda_size").unwrap(), "$facts['disks']['sda']['size_bytes']");
        assert_eq!(replaced("zone_web_status").unwrap(), "$facts['solaris_zones']['zones']['web']['status']");
    }

    #[test]
    fn hiera_interpolations_of_facts() {
        assert_eq!(hiera_fact("::osfamily"), Some(("osfamily", FactForm::TopScope)));
        assert_eq!(hiera_fact("facts.lsbdistcodename"), Some(("lsbdistcodename", FactForm::FactsHash)));
        assert_eq!(hiera_fact("::facts.fqdn"), Some(("fqdn", FactForm::FactsHash)));
        assert_eq!(hiera_fact("scope('::hostname')"), Some(("hostname", FactForm::TopScope)));
        assert_eq!(hiera_fact("fqdn"), Some(("fqdn", FactForm::Variable)));
        assert_eq!(hiera_fact("trusted.certname"), None);
        assert_eq!(hiera_fact("lookup('x')"), None);
        assert_eq!(hiera_fact("alias('x')"), None);
        assert_eq!(hiera_fact(""), None);
        assert_eq!(hiera_form("$facts['os']['family']"), "facts.os.family");
        assert_eq!(hiera_form("$facts['processors']['models'][0]"), "facts.processors.models.0");
    }

    #[test]
    fn modern_and_look_alike_names_are_not_legacy() {
        for name in [
            "os",
            "networking",
            "kernel",
            "processors",
            "virtual",
            "is_virtual",
            "processor_type",
            "ssh_authorized_key",
            "sshkey",
        ] {
            assert_eq!(replaced(name), None, "{name}");
        }
        // Named like an interface fact of no plausible interface: a variable
        // of the code, or a site's own fact, in every form.
        assert_eq!(replaced("network_manager"), None);
        assert_eq!(replaced("network_location"), None);
        assert_eq!(replaced("macaddress_vendor"), None);
        assert!(replaced("network_lo").is_some());
        assert!(replaced("mtu_enp0s3").is_some());
    }
}
