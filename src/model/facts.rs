//! Facts: Facter's core facts, which Puppet sets as top-scope variables, and
//! custom facts that modules ship in `lib/facter/*.rb`.

use std::collections::BTreeSet;
use std::path::Path;

/// Facter's core facts: the structured ones and the legacy flat names.
const CORE_FACTS: &[&str] = &[
    // Structured facts.
    "aio_agent_version",
    "augeas",
    "az_metadata",
    "cloud",
    "disks",
    "dmi",
    "ec2_metadata",
    "ec2_userdata",
    "env_windows_installdir",
    "facterversion",
    "filesystems",
    "fips_enabled",
    "gce",
    "hypervisors",
    "identity",
    "is_virtual",
    "kernel",
    "kernelmajversion",
    "kernelrelease",
    "kernelversion",
    "ldom",
    "load_averages",
    "memory",
    "mountpoints",
    "networking",
    "os",
    "partitions",
    "path",
    "processors",
    "ruby",
    "solaris_zones",
    "ssh",
    "system_profiler",
    "system_uptime",
    "timezone",
    "virtual",
    "xen",
    "zfs_featurenumbers",
    "zfs_version",
    "zpool_featurenumbers",
    "zpool_version",
    "nim_type",
    // Legacy flat facts.
    "architecture",
    "augeasversion",
    "blockdevices",
    "bios_release_date",
    "bios_vendor",
    "bios_version",
    "boardassettag",
    "boardmanufacturer",
    "boardproductname",
    "boardserialnumber",
    "chassisassettag",
    "chassistype",
    "dhcp_servers",
    "domain",
    "fqdn",
    "gid",
    "hardwareisa",
    "hardwaremodel",
    "hostname",
    "id",
    "interfaces",
    "ipaddress",
    "ipaddress6",
    "lsbdistcodename",
    "lsbdistdescription",
    "lsbdistid",
    "lsbdistrelease",
    "lsbmajdistrelease",
    "lsbminordistrelease",
    "lsbrelease",
    "macaddress",
    "macosx_buildversion",
    "macosx_productname",
    "macosx_productversion",
    "macosx_productversion_major",
    "macosx_productversion_minor",
    "manufacturer",
    "memoryfree",
    "memoryfree_mb",
    "memorysize",
    "memorysize_mb",
    "mtu",
    "netmask",
    "netmask6",
    "network",
    "network6",
    "operatingsystem",
    "operatingsystemmajrelease",
    "operatingsystemrelease",
    "osfamily",
    "physicalprocessorcount",
    "processor",
    "processorcount",
    "productname",
    "rubyplatform",
    "rubysitedir",
    "rubyversion",
    "scope6",
    "selinux",
    "selinux_config_mode",
    "selinux_config_policy",
    "selinux_current_mode",
    "selinux_enforced",
    "selinux_policyversion",
    "serialnumber",
    "sshdsakey",
    "sshecdsakey",
    "sshed25519key",
    "sshfp_dsa",
    "sshfp_ecdsa",
    "sshfp_ed25519",
    "sshfp_rsa",
    "sshrsakey",
    "swapencrypted",
    "swapfree",
    "swapfree_mb",
    "swapsize",
    "swapsize_mb",
    "system32",
    "uptime",
    "uptime_days",
    "uptime_hours",
    "uptime_seconds",
    "uuid",
    "windows_edition_id",
    "windows_installation_type",
    "windows_product_name",
    "windows_release_id",
    "windows_system32",
    "zonename",
    "zones",
    // Set by Puppet itself for every agent.
    "clientcert",
    "clientversion",
    "clientnoop",
    "agent_specified_environment",
    "puppetversion",
    // Server facts, set as top-scope variables on the server.
    "servername",
    "serverip",
    "serverversion",
];

/// Per-interface and per-device facts such as `ipaddress_eth0`.
const FACT_PREFIXES: &[&str] = &[
    "ipaddress_",
    "ipaddress6_",
    "macaddress_",
    "netmask_",
    "netmask6_",
    "network_",
    "network6_",
    "mtu_",
    "scope6_",
    "dhcp_servers_",
    "blockdevice_",
    "processor",
    "sp_",
    "zone_",
    "ldom_",
    "ssh",
];

/// Variables every scope can read.
pub const BUILT_IN_VARIABLES: &[&str] =
    &["facts", "trusted", "server_facts", "environment", "module_name", "caller_module_name", "title", "name"];

/// The facts known in a workspace: Facter's and the modules' own.
#[derive(Debug, Clone)]
pub struct Facts {
    custom: BTreeSet<String>,
    /// Whether Facter's core facts are known (they are, but for tests that
    /// mirror a compiler given only a few facts).
    core: bool,
}

impl Default for Facts {
    fn default() -> Self {
        Facts { custom: BTreeSet::new(), core: true }
    }
}

impl Facts {
    /// Finds `Facter.add(:name)` / `Facter.add('name')` in each module's
    /// `lib/facter/*.rb`.
    pub fn discover<'a>(module_dirs: impl IntoIterator<Item = &'a Path>) -> Facts {
        let mut custom = BTreeSet::new();
        for dir in module_dirs {
            let Ok(entries) = std::fs::read_dir(dir.join("lib/facter")) else {
                continue;
            };
            for entry in entries.flatten() {
                if entry.path().extension().is_some_and(|e| e == "rb") {
                    if let Ok(text) = std::fs::read_to_string(entry.path()) {
                        custom.extend(custom_fact_names(&text));
                    }
                }
            }
        }
        Facts { custom, core: true }
    }

    pub fn with_custom(names: impl IntoIterator<Item = String>) -> Facts {
        Facts { custom: names.into_iter().collect(), core: true }
    }

    /// Exactly these facts and no others.
    pub fn only(names: impl IntoIterator<Item = String>) -> Facts {
        Facts { custom: names.into_iter().collect(), core: false }
    }

    /// Is `name` a fact, readable as a top-scope variable?
    pub fn is_fact(&self, name: &str) -> bool {
        let name = name.trim_start_matches("::");
        self.custom.contains(name)
            || (self.core
                && (CORE_FACTS.contains(&name)
                    || FACT_PREFIXES.iter().any(|p| name.len() > p.len() && name.starts_with(p))))
    }
}

fn custom_fact_names(ruby: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = ruby;
    while let Some(at) = rest.find("Facter.add") {
        rest = &rest[at + "Facter.add".len()..];
        let args = rest.trim_start().trim_start_matches('(').trim_start();
        let name: String = match args.chars().next() {
            Some(':') => args[1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect(),
            Some(q @ ('\'' | '"')) => args[1..].chars().take_while(|c| *c != q).collect(),
            _ => String::new(),
        };
        if !name.is_empty() {
            names.push(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_and_interface_facts() {
        let facts = Facts::default();
        assert!(facts.is_fact("osfamily"));
        assert!(facts.is_fact("::fqdn"));
        assert!(facts.is_fact("ipaddress_eth0"));
        assert!(!facts.is_fact("role"));
    }

    #[test]
    fn custom_facts_from_ruby() {
        let ruby = "Facter.add(:datacenter) do\n setcode { 'x' }\nend\nFacter.add('rack_id') do\nend\nFacter.add(\"row\", :type => :aggregate)";
        assert_eq!(custom_fact_names(ruby), ["datacenter", "rack_id", "row"]);
        assert!(Facts::with_custom(custom_fact_names(ruby)).is_fact("rack_id"));
    }
}
