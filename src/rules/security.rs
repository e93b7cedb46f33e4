//! What the security rules share: how they read the names of settings and
//! their values, and the places where code gives a setting a value.
//!
//! A value is judged where the interpreter evaluated it: a literal, a
//! variable, a parameter's default, a value given at a declaration an
//! include chain away. A value mplint cannot know (a fact, a lookup, a
//! `Sensitive(...)` or template call, a parameter Hiera may set) is never
//! reported.
//!
//! A setting whose value is a parameter another setting passed on is not
//! reported again: `class { 'db': password => 'x' }` is reported at the
//! declaration, not at each resource of `db` that uses `$password`.

use std::collections::HashSet;

use crate::model::index::{DefBody, Loc};
use crate::model::record::{Compilation, Declared, DefaultValue, Owner, ParamRead};
use crate::model::value::Value;
use crate::model::workspace::FileRole;
use crate::model::Model;
use crate::syntax::ast::ExprKind;
use crate::syntax::ast::NameText;

/// Lower-case words of a name: `db_root_password` → `db`, `root`, `password`.
pub fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(|w| w.to_ascii_lowercase()).collect()
}

/// First words that make a name a switch or a count about a secret
/// (`manage_password`, `use_token`), not the secret itself.
const NOT_A_SECRET_FIRST: &[&str] = &[
    "allow", "auto", "change", "check", "disable", "empty", "enable", "force", "generate", "has", "hide", "is",
    "manage", "no", "purge", "random", "require", "reset", "set", "show", "store", "update", "use", "validate", "with",
    "without",
];

/// Words that make a name about where a secret is, or about its shape.
const NOT_A_SECRET_ANYWHERE: &[&str] =
    &["path", "file", "filename", "dir", "directory", "url", "uri", "length", "size", "ttl", "expiry", "expiration"];

fn is_password_word(word: &str) -> bool {
    word.ends_with("password")
        || word.ends_with("passwd")
        || matches!(word, "pass" | "pw" | "pwd" | "rootpw" | "passphrase" | "passwort")
}

/// The words of a name without a last `hash`: a password hash is a
/// password as far as the code is concerned.
fn secret_words(name: &str) -> Option<Vec<String>> {
    let mut words = words(name);
    if words.first().is_some_and(|w| NOT_A_SECRET_FIRST.contains(&w.as_str()))
        || words.iter().any(|w| NOT_A_SECRET_ANYWHERE.contains(&w.as_str()))
        // `pass` alone is a count as often as a password (fstab's pass).
        || words == ["pass"]
    {
        return None;
    }
    if words.len() > 1 && words.last().is_some_and(|w| w == "hash") {
        words.pop();
    }
    Some(words)
}

/// A setting that holds a password: `password`, `db_pass`, `root_pw`,
/// `admin_password_hash`; not `password_file` or `manage_password`.
pub fn names_password(name: &str) -> bool {
    secret_words(name).is_some_and(|w| w.last().is_some_and(|last| is_password_word(last)))
}

/// A setting that holds a secret: a password, a secret, a token, an API,
/// private or secret key, a pre-shared key.
pub fn names_secret(name: &str) -> bool {
    let Some(words) = secret_words(name) else { return false };
    let Some(last) = words.last() else { return false };
    if is_password_word(last)
        || last.ends_with("secret")
        || last.ends_with("token")
        || matches!(last.as_str(), "psk" | "apikey" | "privkey" | "privatekey" | "secretkey")
    {
        return true;
    }
    let before = words.len().checked_sub(2).map(|i| words[i].as_str());
    last == "key" && matches!(before, Some("api" | "private" | "secret" | "encryption" | "master"))
}

/// For a setting naming a login account (`user`, `db_user`,
/// `admin_username`), the words before the account word: `db`.
pub fn names_user(name: &str) -> Option<String> {
    let words = words(name);
    let (last, before) = words.split_last()?;
    // `$user` alone is as often the system account a thing runs as.
    let account = matches!(last.as_str(), "username" | "login") || (last == "user" && !before.is_empty());
    account.then(|| before.join("_"))
}

/// Words that make an address setting about somewhere else than where a
/// service listens.
const NOT_A_LISTENER: &[&str] = &[
    "allow",
    "allowed",
    "client",
    "deny",
    "dest",
    "destination",
    "dns",
    "from",
    "gateway",
    "nameserver",
    "netmask",
    "network",
    "peer",
    "proxy",
    "relay",
    "remote",
    "route",
    "source",
    "src",
    "target",
    "upstream",
];

/// A setting that says where a service listens: `bind`, `listen`,
/// `bind_address`, `listen_ip`, `address`, `host`.
pub fn names_listener(name: &str) -> bool {
    let words = words(name);
    if words.iter().any(|w| NOT_A_LISTENER.contains(&w.as_str())) {
        return false;
    }
    words.iter().any(|w| w.starts_with("bind") || w.starts_with("listen"))
        || words.last().is_some_and(|w| matches!(w.as_str(), "address" | "addr" | "ip" | "host"))
}

/// The texts of a known value: a scalar, or each item of an array of
/// scalars. Unknown values, hashes and undef give none.
pub fn texts(value: &Value) -> Vec<String> {
    match value {
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => value.to_text().into_iter().collect(),
        Value::Array(items) => items.iter().flat_map(texts).collect(),
        _ => Vec::new(),
    }
}

/// The strings of a known value: itself, or each string item of an array.
pub fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::Str(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

/// `File['/etc/x']`, `Class['apache']`.
pub fn describe(type_name: &str, title: Option<&str>) -> String {
    let type_name = super::type_reference(type_name);
    match title {
        Some(title) => format!("`{type_name}['{title}']`"),
        None => format!("`{type_name}`"),
    }
}

/// Whether a place is in a module's usage example (`examples/`, `tests/`):
/// demonstration values, never deployed, are not reported.
pub fn in_example(model: &Model<'_>, at: Loc) -> bool {
    matches!(model.index.roles.get(at.file()), Some(FileRole::Example { .. }))
}

/// Whether a slot is judged: in a module's usage example's compilation,
/// values the example passes into the module are for show.
pub fn judged(model: &Model<'_>, compilation: &Compilation, slot: &Slot<'_>) -> bool {
    let passed_in = model.example_file(compilation).is_some() && slot.reads.iter().any(|r| r.passed);
    !in_example(model, slot.at) && !passed_in
}

/// A parameter whose default is a string literal, in a reported file.
pub struct LiteralDefault<'a> {
    pub owner_name: &'a str,
    pub param: &'a str,
    pub at: Loc,
    pub text: String,
}

/// Every class and defined-type parameter whose default is a string
/// literal: the defaults no compilation evaluated (every declaration
/// passes a value) are in the code all the same.
pub fn literal_defaults<'a>(model: &'a Model<'_>) -> Vec<LiteralDefault<'a>> {
    let mut found = Vec::new();
    for definitions in model.index.types.values() {
        for def in definitions {
            let (owner_name, params) = match def.body {
                DefBody::Class(class) => (class.name.as_str(), &class.params),
                DefBody::Define(define) => (define.name.as_str(), &define.params),
                _ => continue,
            };
            if !model.reported.get(def.file).copied().unwrap_or(false)
                || in_example(model, Loc::new(def.file, def.name_span))
            {
                continue;
            }
            for param in params {
                let Some(default) = &param.default else { continue };
                let ExprKind::Str(s) = &default.kind else { continue };
                let Some(text) = s.as_literal() else { continue };
                let owner_name = owner_name.without_anchor();
                found.push(LiteralDefault {
                    owner_name,
                    param: &param.name,
                    at: Loc::new(def.file, default.span),
                    text,
                });
            }
        }
    }
    found
}

/// Where a setting gets its value.
pub enum Setting<'c> {
    /// An attribute of a declaration (a resource, a defined-type
    /// instance, a resource-like class declaration).
    Attribute(&'c Declared),
    /// A parameter's default.
    Default(&'c DefaultValue),
}

/// A named setting given a value.
pub struct Slot<'c> {
    pub name: &'c str,
    pub at: Loc,
    pub value: &'c Value,
    pub setting: Setting<'c>,
    /// Parameters of the enclosing class or defined type the value reads.
    pub reads: Vec<&'c ParamRead>,
}

impl Slot<'_> {
    /// `` `password` of `User['x']` ``, `` the default of `$password` of `db` ``.
    pub fn describe(&self) -> String {
        match &self.setting {
            Setting::Attribute(declared) => {
                format!("`{}` of {}", self.name, describe(&declared.type_name, declared.title.as_deref()))
            }
            Setting::Default(default) => format!("the default of `${}` of `{}`", self.name, default.owner_name),
        }
    }

    /// The declared type, for an attribute.
    pub fn type_name(&self) -> Option<&str> {
        match &self.setting {
            Setting::Attribute(declared) => Some(&declared.type_name),
            Setting::Default(_) => None,
        }
    }

    fn owner(&self) -> &Owner {
        match &self.setting {
            Setting::Attribute(declared) => &declared.owner,
            Setting::Default(default) => &default.owner,
        }
    }
}

/// Every setting the compilation gave a value, in evaluation order:
/// declarations' attributes and parameters' defaults.
pub fn slots(compilation: &Compilation) -> Vec<Slot<'_>> {
    fn default_slot(default: &DefaultValue) -> Slot<'_> {
        Slot {
            name: &default.param,
            at: default.at,
            value: &default.value,
            setting: Setting::Default(default),
            reads: default.reads.iter().collect(),
        }
    }
    let mut slots = Vec::new();
    let mut defaults = compilation.defaults.iter().peekable();
    for (i, declared) in compilation.declared.iter().enumerate() {
        while let Some(default) = defaults.next_if(|d| d.order <= i) {
            slots.push(default_slot(default));
        }
        for (index, (name, at, value)) in declared.attributes.iter().enumerate() {
            let reads = declared.reads.iter().filter(|(j, _)| *j == index).map(|(_, r)| r).collect();
            slots.push(Slot { name, at: *at, value, setting: Setting::Attribute(declared), reads });
        }
    }
    slots.extend(defaults.map(default_slot));
    slots
}

/// Parameters (of a class or defined-type instance, by where it was
/// declared) whose value a rule has reported or passed on: uses of them
/// further in are not reported again.
#[derive(Default)]
pub struct Reported(HashSet<(Loc, String)>);

fn declared_at(compilation: &Compilation, owner: &Owner) -> Option<Loc> {
    match owner {
        Owner::Class(name) => compilation.classes.get(&**name).map(|c| c.loc),
        Owner::Define(i) => compilation.instances.get(*i).map(|d| d.loc),
        Owner::Top | Owner::Node => None,
    }
}

impl Reported {
    /// Whether the slot's value reads a parameter already reported (only
    /// those given at the declaration, with `passed_only`).
    pub fn covers(&self, compilation: &Compilation, slot: &Slot<'_>, passed_only: bool) -> bool {
        let Some(at) = declared_at(compilation, slot.owner()) else { return false };
        slot.reads.iter().any(|r| (r.passed || !passed_only) && self.0.contains(&(at, r.name.clone())))
    }

    /// Marks the parameter the slot sets as reported.
    pub fn mark(&mut self, compilation: &Compilation, slot: &Slot<'_>) {
        let at = match &slot.setting {
            Setting::Attribute(declared) => Some(declared.loc),
            Setting::Default(default) => declared_at(compilation, &default.owner),
        };
        if let Some(at) = at {
            self.0.insert((at, slot.name.to_string()));
        }
    }
}

/// The host of an `http://` URL, lower-case.
fn http_host(url: &str) -> Option<String> {
    let rest = url.get(..7).filter(|scheme| scheme.eq_ignore_ascii_case("http://")).map(|_| &url[7..])?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]")).unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or("").to_string()
    };
    Some(host.to_ascii_lowercase())
}

/// Whether a host is this machine: a URL to it crosses no network.
fn is_local_host(host: &str) -> bool {
    host == "localhost" || host.ends_with(".localhost") || host.starts_with("127.") || host == "[::1]"
}

/// The first `http://` URL to another machine in a text, if any.
pub fn plain_http_url(text: &str) -> Option<&str> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find("http://") {
        let start = from + found;
        let end = text[start..]
            .find(|c: char| c.is_whitespace() || "'\"`;|)<>".contains(c))
            .map_or(text.len(), |e| start + e);
        let url = &text[start..end];
        if http_host(url).is_some_and(|h| !h.is_empty() && !is_local_host(&h)) {
            return Some(url);
        }
        from = start + 7;
    }
    None
}

/// Whether a shell command runs `curl` or `wget`.
pub fn runs_downloader(command: &str) -> bool {
    command
        .split(|c: char| c.is_whitespace() || ";|&()`".contains(c))
        .any(|word| matches!(word.rsplit('/').next(), Some("curl" | "wget")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for name in [
            "password",
            "db_password",
            "root_pw",
            "rootpw",
            "db_pass",
            "admin_password_hash",
            "secret",
            "client_secret",
            "api_key",
            "private_key",
            "auth_token",
            "token",
            "passphrase",
            "keystore_password",
        ] {
            assert!(names_secret(name), "{name}");
        }
        for name in [
            "password_file",
            "manage_password",
            "password_length",
            "token_ttl",
            "key",
            "public_key",
            "passenger_root",
            "bypass",
            "secret_key_file",
            "tokens",
            "key_id",
            "pass",
            "path_to_private_key",
            "default_auth_key",
        ] {
            assert!(!names_secret(name), "{name}");
        }
        assert!(names_password("db_password") && !names_password("api_key") && !names_password("secret"));
    }

    #[test]
    fn user_and_listener_names() {
        assert_eq!(names_user("db_user").as_deref(), Some("db"));
        assert_eq!(names_user("username").as_deref(), Some(""));
        assert_eq!(names_user("user"), None);
        assert_eq!(names_user("owner"), None);
        assert_eq!(names_user("user_home"), None);
        for name in ["bind", "bind_address", "listen", "listen_ip", "address", "host", "bindaddress"] {
            assert!(names_listener(name), "{name}");
        }
        for name in ["source_address", "remote_host", "allow_from", "netmask", "port", "hostname", "server"] {
            assert!(!names_listener(name), "{name}");
        }
    }

    #[test]
    fn urls_and_commands() {
        assert_eq!(plain_http_url("http://example.com/x.tar.gz"), Some("http://example.com/x.tar.gz"));
        assert_eq!(plain_http_url("curl -s 'HTTP://mirror:80/key' | apt-key add -"), Some("HTTP://mirror:80/key"));
        assert_eq!(plain_http_url("https://example.com/x"), None);
        assert_eq!(plain_http_url("curl http://localhost:8080/health"), None);
        assert_eq!(plain_http_url("curl http://127.0.0.1/ && curl http://[::1]/"), None);
        assert_eq!(plain_http_url("http://user:pw@repo.example/"), Some("http://user:pw@repo.example/"));
        assert!(runs_downloader("/usr/bin/wget -O /tmp/x http://a/b"));
        assert!(runs_downloader("cd /tmp && curl -LO http://a/b"));
        assert!(!runs_downloader("echo curling"));
    }
}
