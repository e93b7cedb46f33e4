//! Puppet's built-ins the interpreter knows by name: metaparameters,
//! resource types and functions.

use crate::model::value::Value;
use crate::syntax::ast::NameText;

/// Attributes every resource type accepts (Puppet 7's metaparameters:
/// `consume` and `export` went with application orchestration).
pub const METAPARAMETERS: &[&str] =
    &["alias", "audit", "before", "loglevel", "noop", "notify", "require", "schedule", "stage", "subscribe", "tag"];

/// Built-in resource types, for `defined('file')` and `defined(File)`.
pub const BUILT_IN_TYPES: &[&str] = &[
    "augeas",
    "cron",
    "exec",
    "file",
    "filebucket",
    "group",
    "host",
    "mount",
    "notify",
    "package",
    "resources",
    "schedule",
    "service",
    "ssh_authorized_key",
    "sshkey",
    "stage",
    "tidy",
    "user",
    "yumrepo",
    "zfs",
    "zpool",
];

/// The attributes of Puppet's core resource types besides the
/// metaparameters (the same in Puppet 7 and 8; `name` stands for any
/// type's name attribute). Types that came out of core into modules
/// (`cron`, `host`, `mount`, …) are not here: their module says.
const BUILT_IN_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("component", &["name"]),
    (
        "exec",
        &[
            "command",
            "creates",
            "cwd",
            "environment",
            "group",
            "logoutput",
            "name",
            "onlyif",
            "path",
            "provider",
            "refresh",
            "refreshonly",
            "returns",
            "timeout",
            "tries",
            "try_sleep",
            "umask",
            "unless",
            "user",
        ],
    ),
    (
        "file",
        &[
            "backup",
            "checksum",
            "checksum_value",
            "content",
            "ctime",
            "ensure",
            "force",
            "group",
            "ignore",
            "links",
            "max_files",
            "mode",
            "mtime",
            "name",
            "owner",
            "path",
            "provider",
            "purge",
            "recurse",
            "recurselimit",
            "replace",
            "selinux_ignore_defaults",
            "selrange",
            "selrole",
            "seltype",
            "seluser",
            "show_diff",
            "source",
            "source_permissions",
            "sourceselect",
            "staging_location",
            "target",
            "type",
            "validate_cmd",
            "validate_replacement",
        ],
    ),
    ("filebucket", &["name", "path", "port", "server"]),
    (
        "group",
        &[
            "allowdupe",
            "attribute_membership",
            "attributes",
            "auth_membership",
            "ensure",
            "forcelocal",
            "gid",
            "ia_load_module",
            "members",
            "name",
            "provider",
            "system",
        ],
    ),
    ("notify", &["message", "name", "withpath"]),
    (
        "package",
        &[
            "adminfile",
            "allow_virtual",
            "allowcdrom",
            "category",
            "command",
            "configfiles",
            "description",
            "enable_only",
            "ensure",
            "flavor",
            "install_only",
            "install_options",
            "instance",
            "mark",
            "name",
            "package_settings",
            "platform",
            "provider",
            "reinstall_on_refresh",
            "responsefile",
            "root",
            "source",
            "status",
            "uninstall_options",
            "vendor",
        ],
    ),
    ("resources", &["name", "purge", "unless_system_user", "unless_uid"]),
    ("schedule", &["name", "period", "periodmatch", "range", "repeat", "weekday"]),
    (
        "service",
        &[
            "binary",
            "control",
            "enable",
            "ensure",
            "flags",
            "hasrestart",
            "hasstatus",
            "logonaccount",
            "logonpassword",
            "manifest",
            "name",
            "path",
            "pattern",
            "provider",
            "restart",
            "start",
            "status",
            "stop",
            "timeout",
        ],
    ),
    ("stage", &["name"]),
    ("tidy", &["age", "backup", "matches", "max_files", "name", "path", "recurse", "rmdirs", "size", "type"]),
    (
        "user",
        &[
            "allowdupe",
            "attribute_membership",
            "attributes",
            "auth_membership",
            "auths",
            "comment",
            "ensure",
            "expiry",
            "forcelocal",
            "gid",
            "groups",
            "home",
            "ia_load_module",
            "iterations",
            "key_membership",
            "keys",
            "loginclass",
            "managehome",
            "membership",
            "name",
            "password",
            "password_max_age",
            "password_min_age",
            "password_warn_days",
            "profile_membership",
            "profiles",
            "project",
            "provider",
            "purge_ssh_keys",
            "role_membership",
            "roles",
            "salt",
            "shell",
            "system",
            "uid",
        ],
    ),
    ("whit", &["name"]),
];

/// A core resource type's attributes, without the metaparameters.
pub fn built_in_attributes(type_name: &str) -> Option<&'static [&'static str]> {
    BUILT_IN_ATTRIBUTES.iter().find(|(name, _)| *name == type_name).map(|(_, attributes)| *attributes)
}

/// Functions that return their first argument that is not undef (stdlib's
/// `pick`, `pick_default`): a variable passed to them may be unset on purpose.
pub(super) const FALLBACK_FUNCTIONS: &[&str] = &["pick", "pick_default"];

/// Functions that call their lambda once per element of their first
/// argument (or a few times fewer, as `sort` does): never over an empty
/// array or hash.
const PER_ELEMENT_FUNCTIONS: &[&str] = &[
    "all",
    "any",
    "count",
    "each",
    "filter",
    "flat_map",
    "group_by",
    "index",
    "map",
    "max",
    "min",
    "partition",
    "reduce",
    "reverse_each",
    "slice",
    "sort",
    "step",
    "unique",
];

/// A call of `function` on `collection` surely never calls its lambda.
pub(super) fn lambda_never_called(function: &str, collection: Option<&Value>) -> bool {
    let empty = match collection {
        Some(Value::Array(items)) => items.is_empty(),
        Some(Value::Hash(entries)) => entries.is_empty(),
        _ => false,
    };
    empty && PER_ELEMENT_FUNCTIONS.contains(&function.without_anchor())
}

/// Whether a call is Puppet's own: a built-in function, or a data type
/// called to make a value of it (`Integer('3')`, `Deferred('f', [])`),
/// which declares nothing.
pub fn is_built_in_call(name: &str) -> bool {
    let name = name.without_anchor();
    BUILT_IN_FUNCTIONS.binary_search(&name).is_ok() || name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Functions of puppetlabs-stdlib that only compute a value (or declare
/// resources, never classes): a node calling one hides no class from its
/// compilation, whether or not the tree holds stdlib. Sorted.
const STDLIB_VALUE_FUNCTIONS: &[&str] = &[
    "any2array",
    "any2bool",
    "base64",
    "bool2num",
    "bool2str",
    "concat",
    "count",
    "deep_merge",
    "defined_with_params",
    "delete",
    "delete_at",
    "delete_regex",
    "delete_undef_values",
    "delete_values",
    "difference",
    "dig44",
    "dirname",
    "ensure_packages",
    "ensure_resource",
    "ensure_resources",
    "fqdn_rand_string",
    "fqdn_rotate",
    "getparam",
    "getvar",
    "grep",
    "has_interface_with",
    "has_ip_address",
    "has_key",
    "hash",
    "intersection",
    "is_array",
    "is_bool",
    "is_hash",
    "is_string",
    "join_keys_to_values",
    "load_module_metadata",
    "loadjson",
    "loadyaml",
    "member",
    "merge",
    "parsejson",
    "parseyaml",
    "pick",
    "pick_default",
    "prefix",
    "pw_hash",
    "range",
    "stdlib::deferrable_epp",
    "stdlib::ensure",
    "stdlib::merge",
    "str2bool",
    "suffix",
    "to_json",
    "to_json_pretty",
    "to_yaml",
    "union",
    "validate_absolute_path",
    "validate_array",
    "validate_bool",
    "validate_hash",
    "validate_re",
    "validate_string",
    "values_at",
    "zip",
];

/// Whether a call is to a function known to declare no class: Puppet's
/// own, or one of stdlib's that computes values.
pub fn declares_no_class(name: &str) -> bool {
    let name = name.without_anchor();
    // Puppet 3's `extlookup` only looked data up (`unknown-function`).
    is_built_in_call(name) || STDLIB_VALUE_FUNCTIONS.binary_search(&name).is_ok() || name == "extlookup"
}

/// Puppet's own functions (Puppet 7), which need no definition in the tree;
/// sorted, for binary search.
pub const BUILT_IN_FUNCTIONS: &[&str] = &[
    "abs",
    "alert",
    "all",
    "annotate",
    "any",
    "assert_type",
    "binary_file",
    "break",
    "call",
    "camelcase",
    "capitalize",
    "ceiling",
    "chomp",
    "chop",
    "compare",
    "contain",
    "convert_to",
    "create_resources",
    "crit",
    "debug",
    "defined",
    "dig",
    "digest",
    "downcase",
    "each",
    "emerg",
    "empty",
    "epp",
    "err",
    "eyaml_lookup_key",
    "fail",
    "file",
    "filter",
    "find_file",
    "find_template",
    "flatten",
    "floor",
    "fqdn_rand",
    "generate",
    "get",
    "getvar",
    "group_by",
    "hiera",
    "hiera_array",
    "hiera_hash",
    "hiera_include",
    "hocon_data",
    "import",
    "include",
    "index",
    "info",
    "inline_epp",
    "inline_template",
    "join",
    "json_data",
    "keys",
    "length",
    "lest",
    "lookup",
    "lstrip",
    "map",
    "match",
    "max",
    "md5",
    "min",
    "module_directory",
    "new",
    "next",
    "notice",
    "partition",
    "realize",
    "reduce",
    "regsubst",
    "require",
    "return",
    "reverse_each",
    "round",
    "rstrip",
    "scanf",
    "sha1",
    "sha256",
    "shellquote",
    "size",
    "slice",
    "sort",
    "split",
    "sprintf",
    "step",
    "strftime",
    "strip",
    "tag",
    "tagged",
    "template",
    "then",
    "tree_each",
    "type",
    "unique",
    "unwrap",
    "upcase",
    "values",
    "versioncmp",
    "warning",
    "with",
    "yaml_data",
];

/// Puppet's `versioncmp`: versions split into runs of digits, runs of other
/// characters, and the separators `-` and `.`, compared piece by piece.
pub fn versioncmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    fn pieces(version: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let bytes = version.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            let class = |b: u8| match b {
                b'-' | b'.' => 0,
                b'0'..=b'9' => 1,
                _ => 2,
            };
            let kind = class(bytes[i]);
            i += 1;
            if kind != 0 {
                while i < bytes.len() && class(bytes[i]) == kind {
                    i += 1;
                }
            }
            out.push(&version[start..i]);
        }
        out
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    for (x, y) in pieces(a).into_iter().zip(pieces(b)) {
        if x == y {
            continue;
        }
        for separator in ["-", "."] {
            if x == separator {
                return Ordering::Less;
            }
            if y == separator {
                return Ordering::Greater;
            }
        }
        if digits(x) && digits(y) && !x.starts_with('0') && !y.starts_with('0') {
            // Runs of digits compare as numbers: by length, then by digits.
            return x.len().cmp(&y.len()).then_with(|| x.cmp(y));
        }
        return x.to_uppercase().cmp(&y.to_uppercase());
    }
    a.cmp(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_functions_are_sorted_for_binary_search() {
        assert!(BUILT_IN_FUNCTIONS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_built_in_call("sprintf") && is_built_in_call("::abs") && !is_built_in_call("stdlib_thing"));
        assert!(STDLIB_VALUE_FUNCTIONS.windows(2).all(|w| w[0] < w[1]));
        assert!(declares_no_class("::deep_merge") && declares_no_class("stdlib::deferrable_epp"));
        assert!(!declares_no_class("role"));
    }

    #[test]
    fn compares_as_puppet_does() {
        // Each pair as Puppet 7's `versioncmp` orders it.
        use std::cmp::Ordering::*;
        let cases = [
            ("1.2.3", "1.2.10", Less),
            ("4.0.0", "5.0.0", Less),
            ("1.0", "1.0.0", Less),
            ("1.0-rc1", "1.0", Greater),
            ("1.01", "1.1", Less),
            ("2.0.0-beta", "2.0.0-alpha", Greater),
            ("10.0", "9.9", Greater),
            ("1.a", "1.B", Less),
            ("6.0.1", "4.0.0", Greater),
            ("3.1", "3.1", Equal),
        ];
        for (a, b, expected) in cases {
            assert_eq!(versioncmp(a, b), expected, "{a} vs {b}");
        }
    }
}
