//! The `security` policy: each smell found through the values the
//! interpreter evaluated (a variable, a parameter's default, a class
//! parameter given at a declaration, an include chain), look-alikes left
//! alone, and the rules off in a default run.

use crate::support::{json, mplint, stdout, write};

/// (rule, file name, line) of each finding of the security rules.
fn security_findings(dir: &std::path::Path, args: &[&str]) -> Vec<(String, String, u64)> {
    let output = mplint(&[args, &["--format", "json", "."]].concat(), dir);
    assert!(!output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    json(&output)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"].as_str().unwrap().starts_with("security-"))
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().rsplit('/').next().unwrap().to_string(),
                f["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A site whose node includes `role::app`, which includes the given
/// profile classes; then the module files.
fn site(files: &[(&str, &str)], profiles: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "manifests/site.pp", "node default {\n  include role::app\n}\n");
    let includes: String = profiles.iter().map(|p| format!("  include {p}\n")).collect();
    write(root, "modules/role/manifests/app.pp", format!("class role::app {{\n{includes}}}\n"));
    for (path, text) in files {
        write(root, path, text);
    }
    dir
}

fn expect(rule: &str, found: &[(String, String, u64)], expected: &[(&str, u64)]) {
    let mut found: Vec<(String, u64)> =
        found.iter().filter(|(r, _, _)| r == rule).map(|(_, file, line)| (file.clone(), *line)).collect();
    found.sort();
    let mut expected: Vec<(String, u64)> = expected.iter().map(|(f, l)| (f.to_string(), *l)).collect();
    expected.sort();
    assert_eq!(found, expected, "{rule}");
}

#[test]
fn hard_coded_secrets_through_variables_defaults_declarations_and_includes() {
    let dir = site(
        &[
            // Through a variable.
            ("modules/profile/manifests/variable.pp", "class profile::variable {\n  $p = 'hunter22'\n  user { 'bob':\n    password => $p,\n  }\n}\n"),
            // A parameter's default, written and from a params class.
            ("modules/app/manifests/params.pp", "class app::params {\n  $token = 'tok-from-params'\n}\n"),
            (
                "modules/app/manifests/init.pp",
                "class app (\n  String $api_token = $app::params::token,\n  String $db_password = 'changeme',\n) inherits app::params {\n  file { '/etc/app.conf':\n    content => \"${api_token} ${db_password}\",\n  }\n}\n",
            ),
            // A class parameter given at a declaration, an include chain away;
            // the resources of the class that use it are not reported again.
            (
                "modules/profile/manifests/db.pp",
                "class profile::db {\n  $root = 's3cr3t-root'\n  class { 'db':\n    root_password => $root,\n  }\n}\n",
            ),
            (
                "modules/db/manifests/init.pp",
                "class db (String $root_password) {\n  db::user { 'root':\n    password => $root_password,\n  }\n}\n",
            ),
            ("modules/db/manifests/user.pp", "define db::user (String $password) {\n  exec { \"set ${title}\":\n    command => '/bin/true',\n    environment => [\"PASSWORD=${password}\"],\n  }\n  mysql_user { $title:\n    password_hash => $password,\n  }\n}\n"),
            // Look-alikes: unknown values, Sensitive, lookups, locked
            // accounts, paths, switches and names that hold no secret.
            (
                "modules/profile/manifests/fine.pp",
                "class profile::fine (String $password) {\n  user { 'a': password => $password }\n  user { 'b': password => Sensitive('x') }\n  user { 'c': password => lookup('c') }\n  user { 'd': password => '!' }\n  user { 'e': password => $facts['pw'] }\n  file { '/k': content => 'x', mode => '0600' }\n  class { 'tls': private_key => '/etc/ssl/private/site.key', password_file => '/etc/pw', manage_password => 'yes' }\n  mount { '/srv': pass => '2' }\n}\n",
            ),
            ("modules/tls/manifests/init.pp", "class tls ($private_key, $password_file, $manage_password) {\n}\n"),
            // Values that say they are no secret, switches, key names.
            (
                "modules/profile/manifests/placeholders.pp",
                "class profile::placeholders (\n  $krb_method_k5passwd = 'on',\n  $path_to_private_key = '~/.ssh/id_rsa',\n) {\n  class { 'svc':\n    private_key => '~/.ssh/id_rsa',\n    db_pass => 'FAKEFAKEFAKE',\n    auth_pass => 'ignored',\n    client_password => 'a dummy password',\n    bot_token => 'bot-token-not-supplied',\n    default_auth_key => 'default_auth',\n  }\n}\n",
            ),
            (
                "modules/svc/manifests/init.pp",
                "class svc ($private_key, $db_pass, $auth_pass, $client_password, $bot_token, $default_auth_key) {\n}\n",
            ),
        ],
        &["profile::variable", "app", "profile::db", "profile::fine", "profile::placeholders"],
    );
    let found = security_findings(dir.path(), &["--policy", "security"]);
    expect("security-hardcoded-secret", &found, &[("variable.pp", 4), ("init.pp", 2), ("init.pp", 3), ("db.pp", 4)]);
    // Parameters named like secrets and not typed Sensitive.
    let mut not_sensitive: Vec<_> = found
        .iter()
        .filter(|(r, _, _)| r == "security-secret-not-sensitive")
        .map(|(_, f, l)| (f.as_str(), *l))
        .collect();
    not_sensitive.sort();
    assert!(not_sensitive.contains(&("fine.pp", 1)) && not_sensitive.contains(&("user.pp", 1)), "{not_sensitive:?}");

    // The message never shows the secret.
    let output = mplint(&["--policy", "security", "--format", "json", "."], dir.path());
    let text = stdout(&output);
    assert!(!text.contains("hunter22") && !text.contains("s3cr3t-root"), "{text}");
    assert_eq!(output.status.code(), Some(1), "secrets are errors in the policy");

    // Without the policy, no security rule runs.
    assert!(security_findings(dir.path(), &[]).is_empty());
}

#[test]
fn empty_passwords_admin_defaults_and_open_bindings() {
    let dir = site(
        &[
            // An empty password through a variable, and a default of '' that
            // arrives at a resource; a default alone is not reported.
            (
                "modules/profile/manifests/empty.pp",
                "class profile::empty (String $unused_password = '') {\n  $none = ''\n  user { 'x': password => $none }\n  class { 'cache': }\n}\n",
            ),
            (
                "modules/cache/manifests/init.pp",
                "class cache (\n  String $admin_password = '',\n  String $bind_address = $cache::defaults::bind,\n  String $admin_user = 'admin',\n  String $user = 'root',\n  String $password = 'x',\n) inherits cache::defaults {\n  cache::account { 'admin': password => $admin_password }\n  service { 'cache': }\n}\n",
            ),
            ("modules/cache/manifests/defaults.pp", "class cache::defaults {\n  $bind = '0.0.0.0'\n}\n"),
            ("modules/cache/manifests/account.pp", "define cache::account (String $password) {\n  rabbitmq_user { $title:\n    password => $password,\n  }\n}\n"),
            // Exported resources and socket connections are not reported.
            (
                "modules/profile/manifests/exported.pp",
                "class profile::exported {\n  @@rabbitmq_user { 'y': password => '' }\n  mysql_exporter { 'z': client_password => '', client_socket => '/run/mysqld.sock' }\n}\n",
            ),
            // A listener given at a declaration an include chain away, and
            // look-alikes: other machines, networks, loopback.
            (
                "modules/profile/manifests/listen.pp",
                "class profile::listen {\n  $all = '::'\n  class { 'web':\n    listen => \"[${all}]:8080\",\n  }\n  firewall { '100 in': source_address => '0.0.0.0', network => '0.0.0.0/0' }\n  class { 'web2': bind_address => '127.0.0.1' }\n}\n",
            ),
            ("modules/web/manifests/init.pp", "class web (String $listen) {\n  file { '/etc/web.conf': content => $listen }\n}\n"),
            ("modules/web2/manifests/init.pp", "class web2 (String $bind_address) {\n}\n"),
            // An account that runs a command is not a login.
            ("modules/profile/manifests/owner.pp", "class profile::owner (String $run_user = 'root') {\n  file { '/x': owner => 'root' }\n  exec { '/bin/true': user => $run_user }\n}\n"),
        ],
        &["profile::empty", "profile::exported", "profile::listen", "profile::owner"],
    );
    let found = security_findings(dir.path(), &["--policy", "security"]);
    expect("security-empty-password", &found, &[("empty.pp", 3), ("init.pp", 8)]);
    expect("security-admin-by-default", &found, &[("init.pp", 4)]);
    expect("security-bind-all-interfaces", &found, &[("init.pp", 3), ("listen.pp", 4)]);
}

#[test]
fn downloads_hashes_and_modes() {
    let dir = site(
        &[
            (
                "modules/profile/manifests/fetch.pp",
                "class profile::fetch {\n  $mirror = 'http://mirror.example.com'\n  class { 'repo': url => \"${mirror}/el9\" }\n  exec { 'install':\n    command => 'curl -s https://get.example.com/install.sh | sudo bash',\n  }\n  exec { 'health': command => 'curl -s http://localhost:8080/health' }\n  archive { '/opt/a.tgz': source => 'https://example.com/a.tgz', checksum => 'abc', checksum_type => 'sha256' }\n  archive { '/opt/b.tgz': source => 'https://example.com/b.tgz' }\n  archive { '/opt/c.tgz': source => 'https://example.com/c.tgz', checksum => 'abc', checksum_type => 'md5' }\n  file { '/opt/d': source => 'puppet:///modules/profile/d' }\n}\n",
            ),
            ("modules/repo/manifests/init.pp", "class repo (String $url) {\n  yumrepo { 'site':\n    baseurl => $url,\n    gpgkey  => 'https://example.com/key',\n  }\n}\n"),
            (
                "modules/profile/manifests/hashes.pp",
                "class profile::hashes (String $password, String $digest_type = 'sha1') {\n  user { 'u': password => pw_hash($password, 'MD5', 'salt') }\n  user { 'v': password => pw_hash($password, 'SHA-512', 'salt') }\n  $seed = md5($facts['networking']['fqdn'])\n  $stored = md5(\"${password}u\")\n  notify { \"${seed} ${stored} ${digest_type}\": }\n}\n",
            ),
            (
                "modules/profile/manifests/modes.pp",
                "class profile::modes {\n  $open = '0777'\n  file { '/srv/a': mode => $open }\n  site_file { '/srv/b': }\n  file { '/tmp/shared': mode => '1777' }\n  file { '/srv/c': mode => 'o+w' }\n  file { '/srv/d': mode => '0644' }\n  file { '/srv/e': mode => 'g+w' }\n}\n",
            ),
            ("modules/site_file/manifests/init.pp", "define site_file (String $mode = '0666') {\n  file { $title: mode => $mode }\n}\n"),
            // Over https a file comes from a server TLS authenticates.
            ("modules/profile/manifests/config.pp", "class profile::config {\n  file { '/etc/site.yaml': source => 'https://config.example.com/site.yaml' }\n  file { '/etc/ca.pem': source => 'http://pki.example.com/ca.pem' }\n}\n"),
            // A module's example passes 0777: the module is not at fault; its
            // own literal, reached only from the example, is.
            ("modules/share/manifests/init.pp", "define share (String $mode = '1770') {\n  file { $title: mode => $mode }\n  file { \"${title}/log\": mode => '0666' }\n}\n"),
            ("modules/share/examples/init.pp", "share { '/srv/public': mode => '0777', }\nfile { '/srv/demo': mode => '0777' }\n"),
        ],
        &["profile::fetch", "profile::hashes", "profile::modes", "profile::config"],
    );
    let found = security_findings(dir.path(), &["--policy", "security"]);
    expect("security-insecure-http", &found, &[("init.pp", 3), ("config.pp", 3)]);
    expect("security-missing-integrity-check", &found, &[("fetch.pp", 5), ("fetch.pp", 9), ("config.pp", 3)]);
    expect("security-weak-hash", &found, &[("hashes.pp", 1), ("hashes.pp", 2), ("hashes.pp", 5), ("fetch.pp", 10)]);
    expect("security-world-writable", &found, &[("modes.pp", 3), ("init.pp", 2), ("modes.pp", 6), ("init.pp", 3)]);
}

#[test]
fn the_rules_are_listed_off_and_tagged_for_code_scanning() {
    let dir = tempfile::tempdir().unwrap();
    let listing = stdout(&mplint(&["rules"], dir.path()));
    let line = listing.lines().find(|l| l.starts_with("security-hardcoded-secret")).unwrap();
    assert!(line.contains(" off "), "{line}");

    write(dir.path(), "a.pp", "user { 'x': password => 'hunter22' }\n");
    let sarif = json(&mplint(&["--policy", "security", "--format", "sarif", "a.pp"], dir.path()));
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    let rule = rules.iter().find(|r| r["id"] == "security-hardcoded-secret").unwrap();
    assert_eq!(rule["properties"]["tags"], serde_json::json!(["puppet", "security"]));
    assert_eq!(rule["properties"]["security-severity"], "7.5");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "security-hardcoded-secret");

    // A rule can be turned on alone.
    let report =
        json(&mplint(&["--rule", "security-hardcoded-secret=warning", "--format", "json", "a.pp"], dir.path()));
    assert_eq!(report["findings"][0]["level"], "warning");
}
