//! Facts: Facter's core facts, which Puppet sets as top-scope variables, and
//! custom facts that modules ship in `lib/facter/*.rb`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::workspace::Workspace;
use crate::syntax::ast::NameText;

/// Facter's core facts that Facter 4 reports by default: the structured
/// ones and the few flat ones it keeps.
pub const MODERN_FACTS: &[&str] = &[
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
];

/// Facter's legacy flat facts, which Facter 4 leaves out unless asked to
/// (Puppet 8 no longer asks).
const LEGACY_FACTS: &[&str] = &[
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
];

/// Legacy facts by name: the structured fact that replaces each (a path of
/// keys under `$facts`) and what differs in its value, if anything.
pub const LEGACY_REPLACEMENTS: &[(&str, &str, &str)] = &[
    ("architecture", "os.architecture", ""),
    ("augeasversion", "augeas.version", ""),
    ("blockdevices", "disks", "a hash by device name, not a comma-separated list"),
    ("bios_release_date", "dmi.bios.release_date", ""),
    ("bios_vendor", "dmi.bios.vendor", ""),
    ("bios_version", "dmi.bios.version", ""),
    ("boardassettag", "dmi.board.asset_tag", ""),
    ("boardmanufacturer", "dmi.board.manufacturer", ""),
    ("boardproductname", "dmi.board.product", ""),
    ("boardserialnumber", "dmi.board.serial_number", ""),
    ("chassisassettag", "dmi.chassis.asset_tag", ""),
    ("chassistype", "dmi.chassis.type", ""),
    ("dhcp_servers", "networking.dhcp", "the primary interface's server; each interface has its own `dhcp`"),
    ("domain", "networking.domain", ""),
    ("fqdn", "networking.fqdn", ""),
    ("gid", "identity.group", ""),
    ("hardwareisa", "processors.isa", ""),
    ("hardwaremodel", "os.hardware", ""),
    ("hostname", "networking.hostname", ""),
    ("id", "identity.user", ""),
    ("interfaces", "networking.interfaces", "a hash by interface name, not a comma-separated list"),
    ("ipaddress", "networking.ip", ""),
    ("ipaddress6", "networking.ip6", ""),
    ("ldom_domainchassis", "ldom.domainchassis", ""),
    ("ldom_domaincontrol", "ldom.domaincontrol", ""),
    ("ldom_domainname", "ldom.domainname", ""),
    ("ldom_domainrole_control", "ldom.domainrole.control", ""),
    ("ldom_domainrole_impl", "ldom.domainrole.impl", ""),
    ("ldom_domainrole_io", "ldom.domainrole.io", ""),
    ("ldom_domainrole_root", "ldom.domainrole.root", ""),
    ("ldom_domainrole_service", "ldom.domainrole.service", ""),
    ("ldom_domainuuid", "ldom.domainuuid", ""),
    ("lsbdistcodename", "os.distro.codename", ""),
    ("lsbdistdescription", "os.distro.description", ""),
    ("lsbdistid", "os.distro.id", ""),
    ("lsbdistrelease", "os.distro.release.full", ""),
    ("lsbmajdistrelease", "os.distro.release.major", ""),
    ("lsbminordistrelease", "os.distro.release.minor", ""),
    ("lsbrelease", "os.distro.specification", ""),
    ("macaddress", "networking.mac", ""),
    ("macosx_buildversion", "os.macosx.build", ""),
    ("macosx_productname", "os.macosx.product", ""),
    ("macosx_productversion", "os.macosx.version.full", ""),
    ("macosx_productversion_major", "os.macosx.version.major", ""),
    ("macosx_productversion_minor", "os.macosx.version.minor", ""),
    ("macosx_productversion_patch", "os.macosx.version.patch", ""),
    ("manufacturer", "dmi.manufacturer", ""),
    ("memoryfree", "memory.system.available", ""),
    ("memoryfree_mb", "memory.system.available_bytes", "in bytes, not MiB"),
    ("memorysize", "memory.system.total", ""),
    ("memorysize_mb", "memory.system.total_bytes", "in bytes, not MiB"),
    ("netmask", "networking.netmask", ""),
    ("netmask6", "networking.netmask6", ""),
    ("network", "networking.network", ""),
    ("network6", "networking.network6", ""),
    ("operatingsystem", "os.name", ""),
    ("operatingsystemmajrelease", "os.release.major", ""),
    ("operatingsystemrelease", "os.release.full", ""),
    ("osfamily", "os.family", ""),
    ("physicalprocessorcount", "processors.physicalcount", ""),
    ("processorcount", "processors.count", ""),
    ("productname", "dmi.product.name", ""),
    ("rubyplatform", "ruby.platform", ""),
    ("rubysitedir", "ruby.sitedir", ""),
    ("rubyversion", "ruby.version", ""),
    ("scope6", "networking.scope6", ""),
    ("selinux", "os.selinux.enabled", ""),
    ("selinux_config_mode", "os.selinux.config_mode", ""),
    ("selinux_config_policy", "os.selinux.config_policy", ""),
    ("selinux_current_mode", "os.selinux.current_mode", ""),
    ("selinux_enforced", "os.selinux.enforced", ""),
    ("selinux_policyversion", "os.selinux.policy_version", ""),
    ("serialnumber", "dmi.product.serial_number", ""),
    ("sp_boot_mode", "system_profiler.boot_mode", ""),
    ("sp_boot_rom_version", "system_profiler.boot_rom_version", ""),
    ("sp_boot_volume", "system_profiler.boot_volume", ""),
    ("sp_cpu_type", "system_profiler.processor_name", ""),
    ("sp_current_processor_speed", "system_profiler.processor_speed", ""),
    ("sp_kernel_version", "system_profiler.kernel_version", ""),
    ("sp_l2_cache_core", "system_profiler.l2_cache_per_core", ""),
    ("sp_l3_cache", "system_profiler.l3_cache", ""),
    ("sp_local_host_name", "system_profiler.computer_name", ""),
    ("sp_machine_model", "system_profiler.model_identifier", ""),
    ("sp_machine_name", "system_profiler.model_name", ""),
    ("sp_number_processors", "system_profiler.cores", ""),
    ("sp_os_version", "system_profiler.system_version", ""),
    ("sp_packages", "system_profiler.processors", ""),
    ("sp_physical_memory", "system_profiler.memory", ""),
    ("sp_platform_uuid", "system_profiler.hardware_uuid", ""),
    ("sp_secure_vm", "system_profiler.secure_virtual_memory", ""),
    ("sp_serial_number", "system_profiler.serial_number", ""),
    ("sp_smc_version_system", "system_profiler.smc_version", ""),
    ("sp_uptime", "system_profiler.uptime", ""),
    ("sp_user_name", "system_profiler.username", ""),
    ("swapencrypted", "memory.swap.encrypted", ""),
    ("swapfree", "memory.swap.available", ""),
    ("swapfree_mb", "memory.swap.available_bytes", "in bytes, not MiB"),
    ("swapsize", "memory.swap.total", ""),
    ("swapsize_mb", "memory.swap.total_bytes", "in bytes, not MiB"),
    ("system32", "os.windows.system32", ""),
    ("uptime", "system_uptime.uptime", ""),
    ("uptime_days", "system_uptime.days", ""),
    ("uptime_hours", "system_uptime.hours", ""),
    ("uptime_seconds", "system_uptime.seconds", ""),
    ("uuid", "dmi.product.uuid", ""),
    ("windows_display_version", "os.windows.display_version", ""),
    ("windows_edition_id", "os.windows.edition_id", ""),
    ("windows_installation_type", "os.windows.installation_type", ""),
    ("windows_product_name", "os.windows.product_name", ""),
    ("windows_release_id", "os.windows.release_id", ""),
    ("xendomains", "xen.domains", "an array, not a comma-separated list"),
    ("zonename", "solaris_zones.current", ""),
    ("zones", "solaris_zones.zones", "a hash by zone name, not a count"),
];

/// The structured fact a legacy fact is (`os.family` for `osfamily`), when
/// its value is the same.
pub fn structured_name(legacy: &str) -> Option<&'static str> {
    LEGACY_REPLACEMENTS.iter().find(|(name, _, caveat)| *name == legacy && caveat.is_empty()).map(|(_, path, _)| *path)
}

/// Facts every agent sends, whatever its platform and Puppet version: of
/// [`MODERN_FACTS`] and [`PUPPET_FACTS`], those no platform or setup
/// leaves out.
pub const FACTS_EVERY_AGENT_SENDS: &[&str] = &[
    "clientcert",
    "clientversion",
    "facterversion",
    "identity",
    "is_virtual",
    "kernel",
    "kernelmajversion",
    "kernelrelease",
    "kernelversion",
    "memory",
    "networking",
    "os",
    "path",
    "processors",
    "puppetversion",
    "ruby",
    "system_uptime",
    "timezone",
    "virtual",
];

/// Facts Puppet itself adds for every agent.
pub const PUPPET_FACTS: &[&str] =
    &["clientcert", "clientversion", "clientnoop", "agent_specified_environment", "puppetversion"];

/// Version facts Facter always gives as strings (`'7'`, `'12.04'`), by
/// their structured names: since Puppet 4 such a string never equals a
/// number, and comparing it with `<` or `>` fails.
pub const STRING_VERSION_FACTS: &[&str] = &[
    "augeas.version",
    "clientversion",
    "dmi.bios.version",
    "facterversion",
    "kernelmajversion",
    "kernelrelease",
    "kernelversion",
    "os.distro.release.full",
    "os.distro.release.major",
    "os.distro.release.minor",
    "os.macosx.version.full",
    "os.macosx.version.major",
    "os.macosx.version.minor",
    "os.macosx.version.patch",
    "os.release.full",
    "os.release.major",
    "os.release.minor",
    "os.selinux.policy_version",
    "os.windows.release_id",
    "puppetversion",
    "ruby.version",
];

/// Server facts, set as top-scope variables on the server (and in
/// `$server_facts`, not `$facts`).
pub const SERVER_FACTS: &[&str] = &["servername", "serverip", "serverversion"];

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
    /// Starts of custom facts' names computed in Ruby (`"has" + path`).
    custom_prefixes: Vec<String>,
    /// The custom facts the tree ships (`lib/facter`, `facts.d`): those,
    /// not Facter's, are what nodes get under their names.
    shipped: BTreeSet<String>,
    /// The names the configuration declares as facts (or ENC parameters).
    declared: BTreeSet<String>,
    /// Names known only because a Hiera hierarchy interpolates them: the
    /// site may set them itself, at top scope.
    interpolated_only: BTreeSet<String>,
    /// Keys the tree's Hiera data sets (`ntp::servers`): Puppet's automatic
    /// parameter lookup gives those class parameters their value.
    data_keys: BTreeSet<String>,
    /// Whether Facter's core facts are known (they are, but for tests that
    /// mirror a compiler given only a few facts).
    core: bool,
    /// Where all the Hiera data a compilation can see is known.
    data_known: DataKnown,
    /// The `%{…}` interpolations of the Hiera configurations and data files
    /// under the checked directories, in path order.
    pub hiera_interpolations: Vec<Interpolation>,
}

/// `%{…}` in a Hiera configuration or data file.
#[derive(Debug, Clone)]
pub struct Interpolation {
    pub path: PathBuf,
    /// From `%` to `}`.
    pub span: crate::syntax::source::Span,
    /// What the braces hold, trimmed.
    pub inner: String,
}

/// Where the tree holds all the Hiera data that class parameters can get.
#[derive(Debug, Clone, Default)]
enum DataKnown {
    /// Nowhere: data may come from outside the tree.
    #[default]
    Nowhere,
    /// In these environments, except for the classes of modules whose own
    /// data layer is not understood.
    Environments { closed: BTreeSet<PathBuf>, open_modules: BTreeSet<String> },
    /// Everywhere: there is no Hiera data at all (a compiler without any).
    NoDataAnywhere,
}

impl Default for Facts {
    fn default() -> Self {
        Facts {
            custom: BTreeSet::new(),
            custom_prefixes: Vec::new(),
            shipped: BTreeSet::new(),
            declared: BTreeSet::new(),
            interpolated_only: BTreeSet::new(),
            data_keys: BTreeSet::new(),
            core: true,
            data_known: DataKnown::Nowhere,
            hiera_interpolations: Vec::new(),
        }
    }
}

impl Facts {
    /// The facts a workspace's nodes have beyond Facter's own: modules'
    /// custom facts (`lib/facter/*.rb`) and external facts (`facts.d/`),
    /// the variables Hiera hierarchies of the tree interpolate, and those
    /// the configuration declares.
    ///
    /// `module_copies` are module directories off the module path whose
    /// files are checked: wherever such a module is loadable, its facts
    /// are synced with it, and where it is not, its code does not run.
    pub fn discover(workspace: &Workspace, module_copies: &[PathBuf]) -> Facts {
        use rayon::prelude::*;
        let declared: BTreeSet<String> = workspace.declared_facts.iter().cloned().collect();
        let modules = workspace.modules();
        // Each module's facts: those it surely sets, those it may set.
        let module_dirs: Vec<&PathBuf> = modules.values().chain(module_copies).collect();
        let per_module: Vec<(BTreeSet<String>, BTreeSet<String>)> =
            module_dirs.par_iter().map(|dir| module_facts(dir)).collect();
        let mut custom = BTreeSet::new();
        let mut possible = BTreeSet::new();
        for (set, may_set) in per_module {
            custom.extend(set);
            possible.extend(may_set);
        }
        let custom_prefixes: Vec<String> =
            custom.iter().chain(&possible).filter_map(|name| name.strip_suffix('*')).map(str::to_string).collect();
        custom.retain(|name| !name.ends_with('*'));
        let shipped = custom.clone();
        // Names an executable may print are facts to read, not facts that
        // surely replace Facter's.
        custom.extend(possible.into_iter().filter(|name| !name.ends_with('*')));
        custom.extend(declared.iter().cloned());
        custom.extend(workspace.tool_facts.iter().cloned());
        let under_roots = |path: &Path| workspace.roots.iter().any(|root| path.starts_with(root));
        // Hiera configurations: environments' and modules' own, and copies
        // a module deploys from `files/`.
        let config_dirs: Vec<PathBuf> = workspace
            .environments
            .iter()
            .cloned()
            .chain(modules.values().flat_map(|dir| [dir.clone(), dir.join("files")]))
            .collect();
        let per_dir: Vec<(BTreeSet<String>, Vec<Interpolation>)> = config_dirs
            .par_iter()
            .map(|dir| {
                let mut interpolated = BTreeSet::new();
                let mut interpolations = Vec::new();
                for path in files_in(dir) {
                    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                    if name.starts_with("hiera") && (name.ends_with(".yaml") || name.ends_with(".yml")) {
                        if let Ok(text) = std::fs::read_to_string(&path) {
                            interpolated.extend(interpolated_variables(&text));
                            // A copy under `files/` configures some other Hiera.
                            if !dir.ends_with("files") && under_roots(&path) {
                                interpolations.extend(interpolations_in(&path, &text));
                            }
                        }
                    }
                }
                (interpolated, interpolations)
            })
            .collect();
        let (interpolated, mut interpolations) = merged(per_dir);
        let interpolated_only: BTreeSet<String> =
            interpolated.into_iter().filter(|name| !custom.contains(name) && !is_core_fact(name)).collect();
        custom.extend(interpolated_only.iter().cloned());
        // Hiera data: modules' `data/`, environments' `data/`, `hieradata/`
        // and `hiera/` (a configuration with its data beside it, installed
        // where the site's Hiera reads it).
        let data_dirs = workspace
            .environments
            .iter()
            .flat_map(|env| [(env, "data"), (env, "hieradata"), (env, "hiera")])
            .chain(modules.values().map(|dir| (dir, "data")));
        // An environment that is also a module has one `data/`.
        let mut read_dirs = BTreeSet::new();
        let data_dirs: Vec<(&PathBuf, &str, PathBuf)> = data_dirs
            .map(|(owner, name)| (owner, name, owner.join(name)))
            .filter(|(_, _, dir)| read_dirs.insert(dir.clone()))
            .collect();
        let per_dir: Vec<(BTreeSet<String>, Vec<Interpolation>)> = data_dirs
            .par_iter()
            .map(|(owner, name, dir)| {
                if *name == "hiera" {
                    // Keys only: which of its files a Hiera configuration
                    // reads is not known, so what they interpolate is not
                    // judged.
                    return data_keys_in(dir, 0, false, None);
                }
                // The files the owner's `hiera.yaml` reads, when it reads
                // this directory and mplint reads the configuration.
                let config = std::fs::read_to_string(owner.join("hiera.yaml"))
                    .ok()
                    .and_then(|text| HieraConfig::read(&text).or_else(|| HieraConfig::read_version_3(&text)))
                    .filter(|config| config.datadirs_or_default().iter().any(|d| d == name));
                data_keys_in(dir, 0, under_roots(dir), config.as_ref().map(|c| (dir.as_path(), c)))
            })
            .collect();
        let (data_keys, found) = merged(per_dir);
        interpolations.extend(found);
        let closed = workspace.environments.iter().filter(|env| environment_data_in_tree(env)).cloned().collect();
        let open_modules =
            modules.iter().filter(|(_, dir)| !module_data_understood(dir)).map(|(name, _)| name.clone()).collect();
        Facts {
            custom,
            custom_prefixes,
            shipped,
            declared,
            interpolated_only,
            data_keys,
            core: true,
            data_known: DataKnown::Environments { closed, open_modules },
            hiera_interpolations: interpolations,
        }
    }

    /// Whether the tree's Hiera data sets `key` (`class::param`).
    pub fn has_data_for(&self, key: &str) -> bool {
        self.data_keys.contains(key)
    }

    /// Whether the tree holds all the Hiera data that a parameter of a class
    /// of `module` can get in a compilation of `environment` (`None`: a
    /// file applied on its own): the environment's `hiera.yaml` reads only
    /// files of the tree, and so does the module's. The global layer is
    /// taken to hold no class data when the environment has data of its own.
    pub fn all_data_known(&self, environment: Option<&Path>, module: &str) -> bool {
        match &self.data_known {
            DataKnown::Nowhere => false,
            DataKnown::NoDataAnywhere => true,
            DataKnown::Environments { closed, open_modules } => {
                environment.is_some_and(|env| closed.contains(env)) && !open_modules.contains(module)
            }
        }
    }

    /// As a compiler without any Hiera data sees it.
    pub fn without_hiera_data(mut self) -> Facts {
        self.data_keys.clear();
        self.data_known = DataKnown::NoDataAnywhere;
        self
    }

    pub fn with_custom(names: impl IntoIterator<Item = String>) -> Facts {
        let custom: BTreeSet<String> = names.into_iter().collect();
        Facts { shipped: custom.clone(), custom, ..Facts::default() }
    }

    /// Exactly these facts and no others: Facter's where they are
    /// Facter's names.
    pub fn only(names: impl IntoIterator<Item = String>) -> Facts {
        let custom: BTreeSet<String> = names.into_iter().collect();
        let shipped = custom.iter().filter(|name| !is_core_fact(name)).cloned().collect();
        Facts { custom, shipped, core: false, ..Facts::default() }
    }

    /// Whether the tree ships a custom fact of this name (a module's
    /// `lib/facter`, a `facts.d` file).
    pub fn is_shipped_custom(&self, name: &str) -> bool {
        self.shipped.contains(name.without_anchor())
    }

    /// Whether the configuration declares the name as a fact the nodes get
    /// from outside the tree.
    pub fn is_declared(&self, name: &str) -> bool {
        self.declared.contains(name.without_anchor())
    }

    /// Is `name` a fact, readable as a top-scope variable?
    pub fn is_fact(&self, name: &str) -> bool {
        let name = name.without_anchor();
        self.custom.contains(name)
            || (self.core && is_core_fact(name))
            || (self.custom_prefixes.iter().any(|prefix| name.starts_with(prefix.as_str()))
                && !BUILT_IN_VARIABLES.contains(&name))
    }

    /// Is `name` a fact by name: Facter's, a custom fact of the tree or one
    /// the configuration declares? Not a name only a Hiera hierarchy
    /// interpolates, which the site may set at top scope itself.
    pub fn is_named_fact(&self, name: &str) -> bool {
        self.is_fact(name) && !self.interpolated_only.contains(name.without_anchor())
    }
}

/// The data directories mplint reads keys from, as a `hiera.yaml` names them.
const READ_DATADIRS: &[&str] = &["data", "hieradata"];

/// Whether an environment's Hiera data is all in the tree: its
/// `hiera.yaml` is version 5, reads YAML, JSON or eyaml files only, from a
/// data directory mplint reads, and every file it names by a fixed path is
/// there (a secrets file deployed apart is not).
fn environment_data_in_tree(env: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(env.join("hiera.yaml")) else { return false };
    let Some(config) = HieraConfig::read(&text) else { return false };
    config.datadirs.iter().all(|dir| READ_DATADIRS.contains(&dir.as_str()))
        && config
            .fixed_paths
            .iter()
            .all(|path| config.datadirs_or_default().iter().any(|dir| env.join(dir).join(path).is_file()))
}

/// Whether a module's own data layer is one mplint reads: none, or a
/// version 5 `hiera.yaml` reading YAML, JSON or eyaml files from `data/`;
/// not a data function (`data_provider` in `metadata.json`).
fn module_data_understood(dir: &Path) -> bool {
    if let Ok(metadata) = std::fs::read_to_string(dir.join("metadata.json")) {
        let provider = serde_json::from_str::<serde_json::Value>(&metadata)
            .ok()
            .and_then(|json| json.get("data_provider").and_then(|p| p.as_str().map(str::to_string)));
        if provider.is_some_and(|p| p != "none" && p != "hiera") {
            return false;
        }
    }
    let Ok(text) = std::fs::read_to_string(dir.join("hiera.yaml")) else { return true };
    HieraConfig::read(&text).is_some_and(|config| config.datadirs.iter().all(|d| d == "data"))
}

/// What a Hiera 5 configuration says about where its data comes from.
#[derive(Debug, Default, PartialEq)]
struct HieraConfig {
    /// Data directories named (relative, normalised); empty: the default `data`.
    datadirs: Vec<String>,
    /// Data file paths without interpolation.
    fixed_paths: Vec<String>,
    /// Every data file path or glob a level names, interpolations and all.
    patterns: Vec<String>,
    /// A level maps paths from a variable (`mapped_paths`): which files it
    /// reads is not known.
    mapped: bool,
}

impl HieraConfig {
    /// Reads a version 5 configuration whose levels all read data files
    /// (`yaml_data`, `json_data`, `eyaml_lookup_key`) under relative data
    /// directories; `None` for anything else (other backends or versions,
    /// absolute or interpolated data directories, URIs).
    fn read(text: &str) -> Option<HieraConfig> {
        let mut config = HieraConfig::default();
        let mut version_5 = false;
        let mut list_of: Option<String> = None;
        for raw in text.lines() {
            let line = raw.split(" #").next().unwrap_or(raw);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed == "---" {
                continue;
            }
            // Flow mappings are not read: a level in braces may name any backend.
            if trimmed.replace("%{", "").contains('{') {
                return None;
            }
            let unquote = |v: &str| v.trim().trim_matches(['"', '\'']).to_string();
            if let Some(item) = trimmed.strip_prefix("- ") {
                let item = item.trim();
                // `- name: …` opens a hierarchy level; a bare item belongs
                // to the list key above it.
                if yaml_key(item).is_none() || item.starts_with(['"', '\'']) {
                    if let Some(key) = &list_of {
                        config.note(key, &unquote(item))?;
                    }
                    continue;
                }
                list_of = None;
                let (key, value) = item.split_at(yaml_key(item)?.len());
                config.entry(key.trim(), value[1..].trim(), &mut version_5, &mut list_of)?;
                continue;
            }
            let Some(key) = yaml_key(trimmed) else { continue };
            let value = trimmed[key.len() + 1..].trim();
            config.entry(key.trim(), value, &mut version_5, &mut list_of)?;
        }
        version_5.then_some(config)
    }

    /// Reads a version 3 configuration (`:hierarchy:`, `:backends:`,
    /// `:datadir:` under a backend) for the files it reads only: each
    /// level's name with its backends' extensions, under the last
    /// directory of `:datadir:`. `None` for a backend other than YAML,
    /// JSON or eyaml, a data directory whose last part is interpolated or
    /// that backends name differently, or no hierarchy.
    fn read_version_3(text: &str) -> Option<HieraConfig> {
        let mut levels: Vec<String> = Vec::new();
        let mut backends: Vec<String> = Vec::new();
        let mut datadirs: Vec<String> = Vec::new();
        let mut list_of: Option<&str> = None;
        let unquote = |v: &str| v.trim().trim_matches(['"', '\'']).to_string();
        for raw in text.lines() {
            let line = raw.split(" #").next().unwrap_or(raw);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed == "---" {
                continue;
            }
            if let Some(item) = trimmed.strip_prefix("- ") {
                match list_of {
                    Some(":hierarchy") => levels.push(unquote(item)),
                    Some(":backends") => backends.push(unquote(item)),
                    _ => {}
                }
                continue;
            }
            let (key, value) = trimmed.split_once(':')?;
            // Keys are written with a leading colon (`:hierarchy:`).
            let (key, value) = if key.is_empty() {
                let (k, v) = value.split_once(':')?;
                (format!(":{}", k.trim()), v.trim())
            } else {
                (key.trim().to_string(), value.trim())
            };
            list_of = None;
            match key.as_str() {
                ":hierarchy" | ":backends" => {
                    let items = value.strip_prefix('[').and_then(|v| v.strip_suffix(']'));
                    let target = if key == ":hierarchy" { &mut levels } else { &mut backends };
                    match items {
                        Some(items) => target.extend(items.split(',').map(unquote).filter(|i| !i.is_empty())),
                        None if value.is_empty() => {
                            list_of = Some(if key == ":hierarchy" { ":hierarchy" } else { ":backends" })
                        }
                        None => target.push(unquote(value)),
                    }
                }
                ":datadir" => datadirs.push(unquote(value)),
                _ => {}
            }
        }
        if backends.is_empty() {
            backends.push("yaml".to_string());
        }
        let extensions: Vec<&str> = backends
            .iter()
            .map(|backend| match backend.as_str() {
                "yaml" => Some("yaml"),
                "json" => Some("json"),
                "eyaml" => Some("eyaml"),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let last_parts: BTreeSet<&str> =
            datadirs.iter().map(|dir| dir.trim_end_matches('/').rsplit('/').next().unwrap_or_default()).collect();
        let [datadir] = last_parts.into_iter().collect::<Vec<_>>()[..] else { return None };
        if levels.is_empty() || datadir.is_empty() || datadir.contains("%{") {
            return None;
        }
        let patterns = levels
            .iter()
            .flat_map(|level| extensions.iter().map(move |extension| format!("{level}.{extension}")))
            .collect();
        Some(HieraConfig { datadirs: vec![datadir.to_string()], fixed_paths: Vec::new(), patterns, mapped: false })
    }

    fn entry(&mut self, key: &str, value: &str, version_5: &mut bool, list_of: &mut Option<String>) -> Option<()> {
        let unquoted = value.trim_matches(['"', '\'']);
        match key {
            "version" => *version_5 = unquoted == "5",
            "data_hash" if !["yaml_data", "json_data"].contains(&unquoted) => return None,
            "lookup_key" if unquoted != "eyaml_lookup_key" => return None,
            "data_dig" | "hiera3_backend" | "uri" | "uris" | "backends" | ":backends" => return None,
            "path" | "paths" | "glob" | "globs" | "datadir" | "mapped_paths" => {
                *list_of = Some(key.to_string());
                if let Some(items) = unquoted.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                    for item in items.split(',') {
                        self.note(key, item.trim().trim_matches(['"', '\'']))?;
                    }
                } else if !unquoted.is_empty() {
                    self.note(key, unquoted)?;
                }
                return Some(());
            }
            _ => {}
        }
        *list_of = None;
        Some(())
    }

    /// A data directory or data file path the configuration names.
    fn note(&mut self, key: &str, value: &str) -> Option<()> {
        if value.starts_with('/') || value.contains("..") {
            return None;
        }
        match key {
            "datadir" => {
                if value.contains("%{") {
                    return None;
                }
                let dir = value.trim_start_matches("./").trim_end_matches('/').to_string();
                if !self.datadirs.contains(&dir) {
                    self.datadirs.push(dir);
                }
            }
            "path" | "paths" | "glob" | "globs" => {
                if (key == "path" || key == "paths") && !value.contains("%{") {
                    self.fixed_paths.push(value.to_string());
                }
                self.patterns.push(value.to_string());
            }
            "mapped_paths" => self.mapped = true,
            _ => {}
        }
        Some(())
    }

    /// Whether a file of a data directory (its path relative to it) is one
    /// a level may read: `%{…}` stands for any text, `*` for a file name's.
    fn may_read(&self, relative: &str) -> bool {
        self.mapped
            || self.patterns.iter().any(|pattern| {
                let mut regex = String::from("^");
                let mut rest = pattern.as_str();
                while !rest.is_empty() {
                    if let Some(after) = rest.strip_prefix("%{") {
                        rest = after.split_once('}').map_or("", |(_, tail)| tail);
                        regex.push_str(".*");
                    } else if let Some(after) = rest.strip_prefix("**") {
                        rest = after;
                        regex.push_str(".*");
                    } else if let Some(after) = rest.strip_prefix('*') {
                        rest = after;
                        regex.push_str("[^/]*");
                    } else {
                        let c = rest.chars().next().expect("not empty");
                        regex.push_str(&regex::escape(&c.to_string()));
                        rest = &rest[c.len_utf8()..];
                    }
                }
                regex.push('$');
                regex::Regex::new(&regex).is_ok_and(|re| re.is_match(relative))
            })
    }

    fn datadirs_or_default(&self) -> Vec<String> {
        if self.datadirs.is_empty() {
            vec!["data".to_string()]
        } else {
            self.datadirs.clone()
        }
    }
}

/// Is `name` one of Facter's or Puppet's own facts (or a name of their
/// per-interface and per-device families)?
fn is_core_fact(name: &str) -> bool {
    // Asked for every variable no scope binds: the lists are hashed once.
    static NAMES: std::sync::LazyLock<rustc_hash::FxHashSet<&'static str>> = std::sync::LazyLock::new(|| {
        [MODERN_FACTS, LEGACY_FACTS, PUPPET_FACTS, SERVER_FACTS].iter().flat_map(|list| list.iter().copied()).collect()
    });
    NAMES.contains(name) || FACT_PREFIXES.iter().any(|p| name.len() > p.len() && name.starts_with(p))
}

/// The facts that a module's Ruby helpers under `dir` add (`Facter.add`
/// in `lib/puppet/jenkins/facts.rb`, which `lib/facter/jenkins.rb` loads).
fn helper_fact_names(dir: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((current, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() && depth < 4 {
                stack.push((path, depth + 1));
            } else if path.extension().is_some_and(|e| e == "rb") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    names.extend(custom_fact_names(&text));
                }
            }
        }
    }
    names
}

/// The files directly in a directory, sorted; none if it cannot be read.
/// The facts a module's files set: its custom facts (`lib/facter/*.rb`)
/// and external facts (`facts.d/`), and the names its executable external
/// facts may print.
fn module_facts(dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut custom = BTreeSet::new();
    let mut possible = BTreeSet::new();
    for path in files_in(&dir.join("lib/facter")) {
        if path.extension().is_some_and(|e| e == "rb") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                custom.extend(custom_fact_names(&text));
                // A file that adds its fact through a helper of the
                // module's: Facter looks for a fact in the file named
                // after it.
                if !text.contains("Facter.add") {
                    custom.extend(path.file_stem().and_then(|s| s.to_str()).map(str::to_lowercase));
                    custom.extend(helper_fact_names(&dir.join("lib/puppet")));
                }
            }
        }
    }
    for path in files_in(&dir.join("facts.d")) {
        if let Ok(text) = std::fs::read_to_string(&path) {
            let (set, may_set) = external_fact_names(&path, &text);
            custom.extend(set);
            possible.extend(may_set);
        }
    }
    (custom, possible)
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

/// The qualified top-level keys (`ntp::servers`) of the YAML and JSON
/// files under a Hiera data directory, and with `want_interpolations`
/// their `%{…}` too, in the order of their paths.
fn data_keys_in(
    dir: &Path,
    depth: usize,
    want_interpolations: bool,
    read_by: Option<(&Path, &HieraConfig)>,
) -> (BTreeSet<String>, Vec<Interpolation>) {
    use rayon::prelude::*;
    let Ok(entries) = std::fs::read_dir(dir) else { return Default::default() };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    let per_path: Vec<(BTreeSet<String>, Vec<Interpolation>)> = paths
        .par_iter()
        .map(|path| {
            if path.is_dir() {
                // Bounded: a link cycle must not recurse forever.
                return if depth < 16 {
                    data_keys_in(path, depth + 1, want_interpolations, read_by)
                } else {
                    Default::default()
                };
            }
            let Ok(text) = std::fs::read_to_string(path) else { return Default::default() };
            // A file no level reads (a tool's own YAML under `data/`) is no
            // Hiera data: what it interpolates is not Hiera's.
            let read_by_hiera = read_by.is_none_or(|(root, config)| {
                path.strip_prefix(root).is_ok_and(|relative| config.may_read(&relative.to_string_lossy()))
            });
            let extension = path.extension().and_then(|e| e.to_str());
            let interpolations =
                if want_interpolations && read_by_hiera && matches!(extension, Some("yaml" | "yml" | "json")) {
                    interpolations_in(path, &text)
                } else {
                    Vec::new()
                };
            let found: BTreeSet<String> = match extension {
                // eyaml files are YAML whose values may be encrypted.
                Some("yaml" | "yml" | "eyaml") => yaml_root_lines(&text)
                    .filter_map(yaml_key)
                    .map(|key| key.trim().trim_matches(['"', '\'']).without_anchor().to_lowercase())
                    .filter(|key| key.is_qualified())
                    .collect(),
                Some("json") => match serde_json::from_str::<serde_json::Value>(&text) {
                    Ok(serde_json::Value::Object(map)) => {
                        map.keys().map(|k| k.without_anchor().to_lowercase()).filter(|key| key.is_qualified()).collect()
                    }
                    _ => BTreeSet::new(),
                },
                _ => BTreeSet::new(),
            };
            (found, interpolations)
        })
        .collect();
    merged(per_path)
}

/// Names and interpolations found in parts, in the parts' order.
fn merged(parts: Vec<(BTreeSet<String>, Vec<Interpolation>)>) -> (BTreeSet<String>, Vec<Interpolation>) {
    let mut names = BTreeSet::new();
    let mut interpolations = Vec::new();
    for (found, more) in parts {
        names.extend(found);
        interpolations.extend(more);
    }
    (names, interpolations)
}

/// The lines of a YAML document's root mapping, unindented. The root may
/// be indented as a whole (`---` then `  key: value`): its first key sets
/// the indentation, and deeper lines belong to values.
fn yaml_root_lines(text: &str) -> impl Iterator<Item = &str> {
    let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let is_content = |line: &str| {
        let rest = line.trim_start_matches(' ');
        !(rest.is_empty() || rest.starts_with(['#', '%']) || rest.starts_with("---") || rest.starts_with("..."))
    };
    let root = text.lines().find(|line| is_content(line)).map_or(0, indent);
    text.lines()
        .filter(move |line| is_content(line) && indent(line) == root)
        .map(move |line| &line[root..])
        .filter(|line| !line.starts_with(['\t', '-']))
}

/// The key of a YAML mapping line: the text before the first colon that is
/// not part of a `::` (`apt::keys: {}` → `apt::keys`).
fn yaml_key(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':' {
            if bytes.get(i + 1) == Some(&b':') {
                i += 2;
                continue;
            }
            return Some(&line[..i]);
        }
        i += 1;
    }
    None
}

/// The facts an external fact file sets, and those it may set: top-level
/// keys of YAML or JSON, `key=value` lines of text; for an executable, see
/// [`executable_fact_names`].
fn external_fact_names(path: &Path, text: &str) -> (Vec<String>, Vec<String>) {
    let is_name = |name: &str| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let set = match path.extension().and_then(|e| e.to_str()) {
        Some("yaml" | "yml") => yaml_root_lines(text)
            .filter_map(|line| line.split_once(':'))
            .map(|(key, _)| key.trim().trim_matches(['"', '\'']).to_string())
            .filter(|key| is_name(key))
            .collect(),
        Some("json") => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(map)) => map.keys().filter(|k| is_name(k)).cloned().collect(),
            _ => Vec::new(),
        },
        Some("txt") => text
            .lines()
            .filter_map(|line| line.split_once('='))
            .map(|(key, _)| key.trim().to_string())
            .filter(|key| is_name(key))
            .collect(),
        _ => return executable_fact_names(text),
    };
    (set, Vec::new())
}

/// The facts an executable of `facts.d` prints, read from its text: the
/// `key=` it prints (`echo "rack=…"`, `echo "$FACT=…"` with `FACT=rack`);
/// and those it may print: the quoted names and `key =` lines that may be
/// keys of JSON or YAML it prints (more names than it sets is safe), or
/// `*` (any name) when no name is found at all.
fn executable_fact_names(text: &str) -> (Vec<String>, Vec<String>) {
    let pattern = |p: &str| regex::Regex::new(p).expect("a valid pattern");
    let printed =
        pattern(r#"(?:["']|\b(?:echo|printf|print|puts|Write-Output|Write-Host)\s+)([A-Za-z_][A-Za-z0-9_]*)="#);
    let printed_variable = pattern(r#"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?="#);
    let quoted = pattern(r#"["']([A-Za-z_][A-Za-z0-9_]*)["']"#);
    let key_line = pattern(r"(?m)^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=");
    let mut set: BTreeSet<String> = BTreeSet::new();
    set.extend(printed.captures_iter(text).map(|c| c[1].to_string()));
    for variable in printed_variable.captures_iter(text) {
        let assigned =
            pattern(&format!(r#"(?m)^\s*(?:export\s+|local\s+)?{}=["']?([A-Za-z_][A-Za-z0-9_]*)"#, &variable[1]));
        set.extend(assigned.captures_iter(text).map(|c| c[1].to_string()));
    }
    let mut may_set: BTreeSet<String> = BTreeSet::new();
    // A key built at run time (`"camera_%s=" % key`, `"timesync_${n}="`,
    // `"rack_" + key + "="`): any name that starts as it does, `prefix*`.
    let formatted = pattern(
        r#"["']([A-Za-z0-9_]*)(?:%[sdr]|\{[^}"'\n]*\}|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|#\{[^}"'\n]*\})[A-Za-z0-9_]*="#,
    );
    let concatenated = pattern(r#"["']([A-Za-z_][A-Za-z0-9_]*)["']\s*[+.]\s*[^\n]*?["']="#);
    for prefix in formatted.captures_iter(text).chain(concatenated.captures_iter(text)) {
        may_set.insert(format!("{}*", &prefix[1]));
    }
    may_set.extend(quoted.captures_iter(text).map(|c| c[1].to_string()));
    may_set.extend(key_line.captures_iter(text).map(|c| c[1].to_string()));
    if set.is_empty() && may_set.is_empty() {
        may_set.insert("*".into());
    }
    let may_set = may_set.into_iter().filter(|name| !set.contains(name)).collect();
    (set.into_iter().collect(), may_set)
}

/// The variables a Hiera configuration interpolates (`%{::role}`,
/// `%{facts.tier}`): the hierarchy is keyed by them, so nodes have them.
/// Function calls (`%{lookup('x')}`) and `trusted` are left out.
fn interpolated_variables(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("%{") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find('}') else { break };
        let inner = rest[..end].trim().without_anchor();
        rest = &rest[end..];
        if inner.contains(['(', '\'', '"']) {
            continue;
        }
        let mut parts = inner.split('.');
        let name = match parts.next() {
            Some("facts") => parts.next(),
            Some("trusted" | "server_facts") => None,
            first => first,
        };
        if let Some(name) = name.filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')) {
            names.push(name.to_string());
        }
    }
    names
}

/// The `%{…}` of a Hiera file, leaving out those in YAML comments.
fn interpolations_in(path: &Path, text: &str) -> Vec<Interpolation> {
    let mut found = Vec::new();
    let mut lines = None;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut from = 0;
        while let Some(at) = line[from..].find("%{").map(|i| i + from) {
            let Some(end) = line[at..].find('}').map(|i| i + at) else { break };
            from = end + 1;
            if in_yaml_comment(&line[..at]) {
                break;
            }
            let index = lines.get_or_insert_with(|| crate::syntax::source::LineIndex::new(text));
            found.push(Interpolation {
                path: path.to_path_buf(),
                span: index.span(text, line_start + at, line_start + end + 1),
                inner: line[at + 2..end].trim().to_string(),
            });
        }
        line_start += line.len();
    }
    found
}

/// Whether a YAML line's text up to some point has opened a comment: a `#`
/// that starts the line or follows a blank, outside quoted scalars (a
/// quote opens one only where a scalar starts: `it's` is plain text).
fn in_yaml_comment(before: &str) -> bool {
    let mut quote = None;
    let mut previous = ' ';
    for c in before.chars() {
        let scalar_starts = previous.is_whitespace() || matches!(previous, ':' | '[' | '{' | ',' | '-');
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == '\'' || c == '"') && scalar_starts => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return true,
            None => {}
        }
        previous = c;
    }
    false
}

fn custom_fact_names(ruby: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = ruby;
    while let Some(at) = rest.find("Facter.add") {
        let before = &ruby[..ruby.len() - rest.len() + at];
        rest = &rest[at + "Facter.add".len()..];
        let args = rest.trim_start().trim_start_matches('(').trim_start();
        let name: String = match args.chars().next() {
            Some(':') => args[1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect(),
            Some('\'' | '"') => name_written(args),
            // `Facter.add(name)`: what the last `name = …` before it sets,
            // or each name of a literal list a block iterates over.
            Some(c) if c.is_ascii_lowercase() || c == '_' => {
                let variable: String = args.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                match assigned_before(before, &variable) {
                    // `name = versions[i]`: an element of a literal list.
                    Some(value) if !value.starts_with(['\'', '"']) => {
                        let list: String =
                            value.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                        names.extend(literal_list(before, &list));
                        String::new()
                    }
                    Some(value) => name_written(value),
                    None => {
                        names.extend(iterated_names(before, &variable));
                        String::new()
                    }
                }
            }
            _ => String::new(),
        };
        if !name.is_empty() && name != "*" {
            names.push(name);
        }
    }
    names
}

/// The names of the literal list that the block binding `variable` (the
/// last `… do |variable` before) iterates over: `[:a, 'b'].each do |name|`,
/// `%w{a b}.each_with_index do |name, i|`.
fn iterated_names(before: &str, variable: &str) -> Vec<String> {
    let binds = |line: &str| {
        line.find('|')
            .is_some_and(|at| line[at + 1..].split(['|', ',']).next().is_some_and(|first| first.trim() == variable))
    };
    let Some(line) = before.lines().rev().find(|line| binds(line)) else { return Vec::new() };
    let Some(list_end) = line.find(".each") else { return Vec::new() };
    literal_list(before, line[..list_end].trim())
}

/// The names a literal list holds: written out (`[:a, 'b']`, `%w{a b}`),
/// or assigned to the variable `list` before (over several lines).
fn literal_list(before: &str, list: &str) -> Vec<String> {
    let is_variable = !list.is_empty() && list.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let assigned;
    let list = if is_variable {
        let Some(at) = before.rfind(&format!("{list} =")) else { return Vec::new() };
        let value = before[at + list.len() + 2..].trim_start();
        let end = value.find([']', '}', ')']).map_or(value.len(), |end| end + 1);
        assigned = value[..end].replace('\n', " ");
        assigned.as_str()
    } else {
        list
    };
    let items: Vec<&str> = if let Some(words) =
        ["%w{", "%w[", "%w(", "%i{", "%i[", "%i("].iter().find_map(|open| list.find(open).map(|at| &list[at + 3..]))
    {
        words.trim_end_matches(['}', ']', ')']).split_whitespace().collect()
    } else if let Some(at) = list.rfind('[') {
        list[at + 1..].trim_end_matches(']').split(',').collect()
    } else {
        return Vec::new();
    };
    let name_like = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    items
        .into_iter()
        .map(|item| item.trim().trim_start_matches(':').trim_matches(['\'', '"']).to_string())
        .filter(|name| name_like(name))
        .collect()
}

/// A fact's name as a quoted string starts `written`: the string, or for
/// a name computed from it (`"has" + path.gsub(…)`, `"nic_#{n}"`), the
/// known start and `*`.
fn name_written(written: &str) -> String {
    let Some(q @ ('\'' | '"')) = written.chars().next() else { return String::new() };
    let quoted: String = written[1..].chars().take_while(|c| *c != q).collect();
    let after = written[1 + quoted.len()..].trim_start_matches(q).trim_start();
    match quoted.find("#{").filter(|_| q == '"') {
        Some(at) => format!("{}*", &quoted[..at]),
        None if after.starts_with('+') => format!("{quoted}*"),
        None => quoted,
    }
}

/// What the last assignment `variable = …` in `before` assigns, as written.
fn assigned_before<'t>(before: &'t str, variable: &str) -> Option<&'t str> {
    before.lines().rev().find_map(|line| {
        let rest = line.trim_start().strip_prefix(variable)?;
        let value = rest.trim_start().strip_prefix('=')?;
        (!value.starts_with(['=', '~'])).then(|| value.trim_start())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facts_every_agent_sends_are_core_or_puppets_own() {
        for name in FACTS_EVERY_AGENT_SENDS {
            assert!(MODERN_FACTS.contains(name) || PUPPET_FACTS.contains(name), "{name}");
        }
    }

    #[test]
    fn custom_fact_names_computed_in_ruby() {
        let ruby = "n = 'my_' + x + '_b'\nFacter.add(n) do\nend\nFacter.add(:plain) do\nend\nFacter.add(\"nic_#{i}\")\nFacter.add(unknown)\n";
        assert_eq!(custom_fact_names(ruby), ["my_*", "plain", "nic_*"]);
    }

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
        let ruby = "%w{/srv /tmp}.each do |path|\n  Facter.add(\"has\" + path.gsub('/', '_')) do\n  end\nend\nFacter.add(\"nic_#{n}\")\nFacter.add(\"#{x}\")\nFacter.add('a#{b}')";
        assert_eq!(custom_fact_names(ruby), ["has*", "nic_*", "a#{b}"]);
        let ruby = "[:major_version, 'minor_version'].each_with_index do |fact_name, index|\n  Facter.add(fact_name) do\n  end\nend\n%w{a_x b_y}.each { |n| Facter.add(n) { setcode { 1 } } }\nFacter.add(other)\n";
        assert_eq!(custom_fact_names(ruby), ["major_version", "minor_version", "a_x", "b_y"]);
        let ruby = "versions = [\n  :major_v,\n  :minor_v\n]\nversions.each_index do |i|\n  name = versions[i]\n  Facter.add(name) do\n  end\nend\nkinds = %w{k_a k_b}\nkinds.each do |kind|\n  Facter.add(kind)\nend\n";
        assert_eq!(custom_fact_names(ruby), ["major_v", "minor_v", "k_a", "k_b"]);
    }

    #[test]
    fn hiera_hierarchies_name_facts() {
        let hiera = "hierarchy:\n  - \"roles/%{::puppet_role}\"\n  - \"tier/%{facts.tier}/%{facts.os.family}\"\n  - \"nodes/%{trusted.certname}\"\n  - \"%{lookup('x')}\"\n  - \"%{ environment }\"\n";
        assert_eq!(interpolated_variables(hiera), ["puppet_role", "tier", "os", "environment"]);
    }

    #[test]
    fn interpolations_outside_comments() {
        let text = "---\n# \"%{::osfamily}\" was here\nhierarchy:\n  - path: \"os/%{ facts.os.family }/%{::fqdn}.yaml\" # %{x}\n  - 'a#%{y}'\nmotd: it's %{z} # not %{w}\n";
        let found = interpolations_in(Path::new("hiera.yaml"), text);
        let inner: Vec<(&str, u32, u32)> =
            found.iter().map(|i| (i.inner.as_str(), i.span.start_pos.line, i.span.start_pos.column)).collect();
        assert_eq!(inner, [("facts.os.family", 4, 15), ("::fqdn", 4, 36), ("y", 5, 8), ("z", 6, 12)]);
        assert_eq!(&text[found[1].span.start..found[1].span.end], "%{::fqdn}");
    }

    #[test]
    fn hiera_data_keys() {
        assert_eq!(yaml_key("apt::keys: {}"), Some("apt::keys"));
        assert_eq!(yaml_key("'::ntp::servers':"), Some("'::ntp::servers'"));
        assert_eq!(yaml_key("rabbitmq::repo_url: 'https://x/y'"), Some("rabbitmq::repo_url"));
        assert_eq!(yaml_key("no key here"), None);
    }

    #[test]
    fn the_files_a_hierarchy_reads() {
        let text = "---\nversion: 5\nhierarchy:\n  - name: nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: groups\n    glob: \"groups/*.yaml\"\n  - name: common\n    path: common.yaml\n";
        let config = HieraConfig::read(text).unwrap();
        assert!(config.may_read("nodes/web01.example.com.yaml"));
        assert!(config.may_read("groups/db.yaml"));
        assert!(config.may_read("common.yaml"));
        assert!(!config.may_read("groups/db/extra.yaml"));
        assert!(!config.may_read("activemq/hiera.yaml"));
    }

    #[test]
    fn the_files_a_version_3_hierarchy_reads() {
        let text = "---\n:backends:\n  - yaml\n  - eyaml\n:hierarchy:\n  - \"node/%{::clientcert}\"\n  - common\n:yaml:\n  :datadir: /etc/puppet/environments/%{environment}/hieradata\n:eyaml:\n  :datadir: '/etc/puppet/environments/%{environment}/hieradata/'\n";
        let config = HieraConfig::read_version_3(text).unwrap();
        assert_eq!(config.datadirs, ["hieradata"]);
        assert!(config.may_read("node/web01.example.com.yaml"));
        assert!(config.may_read("common.eyaml"));
        assert!(!config.may_read("example.yaml"));
        let inline = ":backends: [yaml]\n:hierarchy: [common]\n:yaml:\n  :datadir: hieradata\n";
        assert!(HieraConfig::read_version_3(inline).unwrap().may_read("common.yaml"));
        // Another backend, a data directory of its own per backend, none given.
        assert_eq!(
            HieraConfig::read_version_3(
                ":backends: [yaml, vault]\n:hierarchy: [common]\n:yaml:\n  :datadir: hieradata\n"
            ),
            None
        );
        assert_eq!(HieraConfig::read_version_3(":backends: [yaml, json]\n:hierarchy: [common]\n:yaml:\n  :datadir: hieradata\n:json:\n  :datadir: jsondata\n"), None);
        assert_eq!(HieraConfig::read_version_3(":hierarchy: [common]\n"), None);
    }

    #[test]
    fn an_indented_root_mapping_has_its_keys_at_its_own_indentation() {
        let text = "---\n# data\n  p::a: 1\n  p::b:\n    nested: 2\n    - item\n  p::c: |\n    p::text: 3\n";
        assert_eq!(yaml_root_lines(text).collect::<Vec<_>>(), ["p::a: 1", "p::b:", "p::c: |"]);
        let text = "---\np::a:\n  p::inner: 1\n- item\n";
        assert_eq!(yaml_root_lines(text).collect::<Vec<_>>(), ["p::a:"]);
    }

    #[test]
    fn hiera_configurations_whose_data_is_in_the_tree() {
        let plain = "---\nversion: 5\ndefaults:\n  datadir: \"data\"\n  data_hash: yaml_data\nhierarchy:\n  - name: \"Yaml\"\n    paths:\n      - \"nodes/%{trusted.certname}.yaml\"\n      - \"common.yaml\"\n";
        let config = HieraConfig::read(plain).unwrap();
        assert_eq!(config.datadirs, ["data"]);
        assert_eq!(config.fixed_paths, ["common.yaml"]);
        let eyaml = "version: 5\nhierarchy:\n  - name: 'Secure'\n    lookup_key: eyaml_lookup_key\n    path: 'secrets.yaml'\n    options:\n      pkcs7_private_key: /etc/keys/private_key.pkcs7.pem\n";
        assert_eq!(HieraConfig::read(eyaml).unwrap().fixed_paths, ["secrets.yaml"]);
        let outside =
            "version: 5\nhierarchy:\n  - name: 'Local'\n    paths:\n      - '/etc/puppetlabs/puppet/local.yaml'\n";
        assert_eq!(HieraConfig::read(outside), None);
        let function = "version: 5\nhierarchy:\n  - name: cmdb\n    data_hash: cmdb::data\n";
        assert_eq!(HieraConfig::read(function), None);
        let vault = "version: 5\nhierarchy:\n  - name: vault\n    lookup_key: hiera_vault\n    uris: [a, b]\n";
        assert_eq!(HieraConfig::read(vault), None);
        let hiera3 = ":backends:\n  - yaml\n:yaml:\n  :datadir: /etc/puppet/hieradata\n";
        assert_eq!(HieraConfig::read(hiera3), None);
        let flow = "version: 5\ndefaults: { datadir: data }\nhierarchy:\n  - { name: common, paths: [\"common.yaml\", \"%{x}.yaml\"] }\n";
        assert_eq!(HieraConfig::read(flow), None);
    }

    #[test]
    fn external_facts_by_format() {
        let set = |path: &str, text: &str| external_fact_names(Path::new(path), text).0;
        let may_set = |path: &str, text: &str| external_fact_names(Path::new(path), text).1;
        assert_eq!(set("a.yaml", "---\nrack: r1\n# c\nzone:\n  - a\n"), ["rack", "zone"]);
        assert_eq!(set("a.json", "{\"rack\": 1}"), ["rack"]);
        assert_eq!(set("a.txt", "rack=r1\nbad line\n"), ["rack"]);
        assert_eq!(set("a.sh", "#!/bin/sh\necho rack=r1\n"), ["rack"]);
        assert_eq!(set("a.py", "print \"dropbox_presence=\"+str(p())"), ["dropbox_presence"]);
        assert_eq!(set("a.sh", "FACT=\"priv_drop\"\necho \"$FACT=true\"\n"), ["priv_drop"]);
        assert_eq!(may_set("a.py", "print(json.dumps({'vms': v}))"), ["vms"]);
        assert!(set("a.py", "print(json.dumps({'vms': v}))").is_empty());
        assert_eq!(may_set("a", "#!/bin/sh\nexec /opt/facts\n"), ["*"]);
        let camera = "for key, val in found.items():\n    print(\"camera_%s=%s\" % (key, val))\n";
        assert_eq!(may_set("c.py", camera), ["camera_*"]);
        assert_eq!(may_set("t.sh", "for n in a b; do echo \"timesync_${n}=yes\"; done\n"), ["timesync_*"]);
        assert_eq!(may_set("f.py", "print(f\"net_{name}={v}\")\n"), ["net_*"]);
        assert!(may_set("r.py", "print('rack_' + key + '=' + v)\n").contains(&"rack_*".to_string()));
        // A key computed whole: any name.
        assert!(may_set("k.py", "print('%s=%s' % (k, v))\n").contains(&"*".to_string()));
        // A known key beside: still set for certain.
        assert_eq!(set("m.sh", "echo \"model=$m\"\necho \"cam_$c=1\"\n"), ["model"]);
    }
}
