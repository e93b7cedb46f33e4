//! The cache of parse results: what a run reads back is what it would
//! have parsed, whatever state the cache is in.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::repo;

fn mplint_with_cache(args: &[&str], cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mplint"))
        .args(args)
        .env("MPLINT_CACHE_DIR", cache)
        .current_dir(repo())
        .output()
        .expect("mplint runs")
}

/// Every entry file under `dir`.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else { continue };
        for entry in read {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Many small files, with findings of most rules and a syntax error.
const TARGET: &str = "tests/oracle/cases";

#[test]
fn cached_parses_give_the_same_report() {
    let cache = tempfile::tempdir().unwrap();
    let args = ["--format", "json", TARGET];
    let uncached = mplint_with_cache(&["--no-cache", "--format", "json", TARGET], cache.path());
    assert!(entries(cache.path()).is_empty(), "--no-cache wrote to the cache");
    let first = mplint_with_cache(&args, cache.path());
    let written = entries(cache.path());
    assert!(written.len() > 50, "only {} entries written", written.len());
    let second = mplint_with_cache(&args, cache.path());
    for run in [&first, &second] {
        assert_eq!(run.status.code(), uncached.status.code());
        assert_eq!(String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&uncached.stdout));
    }
    assert_eq!(entries(cache.path()), written, "a second run wrote new entries");
}

#[test]
fn damaged_or_foreign_entries_are_parsed_again() {
    let cache = tempfile::tempdir().unwrap();
    let args = ["--format", "json", TARGET];
    let expected = mplint_with_cache(&["--no-cache", "--format", "json", TARGET], cache.path());
    mplint_with_cache(&args, cache.path());
    let written = entries(cache.path());
    let first_entry = std::fs::read(&written[0]).unwrap();
    for (i, entry) in written.iter().enumerate() {
        let mut bytes = std::fs::read(entry).unwrap();
        match i % 5 {
            // Cut short, as by a full disk.
            0 => bytes.truncate(bytes.len() / 2),
            // One byte changed.
            1 => {
                let last = bytes.len() - 1;
                bytes[last] ^= 0x40;
            }
            // Not an entry at all.
            2 => bytes = b"garbage".to_vec(),
            // Empty.
            3 => bytes.clear(),
            // A sound entry, of another text.
            _ => bytes = first_entry.clone(),
        }
        std::fs::write(entry, bytes).unwrap();
    }
    let damaged = mplint_with_cache(&args, cache.path());
    assert_eq!(damaged.status.code(), expected.status.code());
    assert_eq!(String::from_utf8_lossy(&damaged.stdout), String::from_utf8_lossy(&expected.stdout));
    // The run wrote sound entries again: a further run reads them.
    let again = mplint_with_cache(&args, cache.path());
    assert_eq!(String::from_utf8_lossy(&again.stdout), String::from_utf8_lossy(&expected.stdout));
    let sound = written.iter().filter(|e| std::fs::read(e).unwrap().starts_with(b"mplint")).count();
    assert!(sound * 5 >= written.len() * 4, "{sound} of {} entries sound again", written.len());
}

#[test]
fn an_unwritable_cache_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the cache directory should be.
    let blocked = dir.path().join("cache");
    std::fs::write(&blocked, "not a directory").unwrap();
    let expected = mplint_with_cache(&["--no-cache", "--format", "json", TARGET], &blocked);
    let run = mplint_with_cache(&["--format", "json", TARGET], &blocked);
    assert_eq!(run.status.code(), expected.status.code());
    assert_eq!(String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&expected.stdout));
    assert!(String::from_utf8_lossy(&run.stderr).is_empty() == String::from_utf8_lossy(&expected.stderr).is_empty());
}

/// Writes `text` at `path` under `root`, making its directories.
fn write_in(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn mplint_in(dir: &Path, args: &[&str], cache: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_mplint"))
        .args(args)
        .env("MPLINT_CACHE_DIR", cache)
        .current_dir(dir)
        .output()
        .expect("mplint runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The kept results of entry points, each with its inode: an entry written
/// again gets a new one.
#[cfg(unix)]
fn kept_results(cache: &Path) -> std::collections::BTreeMap<PathBuf, u64> {
    use std::os::unix::fs::MetadataExt;
    entries(cache)
        .into_iter()
        .filter(|e| e.components().any(|c| c.as_os_str().to_string_lossy().starts_with("results-")))
        .map(|e| {
            let inode = std::fs::metadata(&e).unwrap().ino();
            (e, inode)
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn kept_results_are_taken_until_what_they_depend_on_changes() {
    let tree = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = tree.path();
    let write = |path: &str, text: &str| write_in(root, path, text);
    // Node `c` calls a function mplint cannot see into: it is compiled on
    // every run, first, and its result is not kept.
    write(
        "manifests/site.pp",
        "node 'a.example.com' {\n  include role::a\n}\nnode 'b.example.com' {\n  include role::b\n}\nnode 'c.example.com' {\n  classify('c')\n}\n",
    );
    write("modules/role/manifests/a.pp", "class role::a {\n  include profile::web\n}\n");
    write("modules/role/manifests/b.pp", "class role::b {\n  include profile::db\n}\n");
    write("modules/profile/manifests/web.pp", "class profile::web {\n  notify { 'web': }\n}\n");
    write("modules/profile/manifests/db.pp", "class profile::db {\n  notify { 'db': }\n}\n");
    let db = "modules/profile/manifests/db.pp";
    let same_as_uncached = |args: &[&str]| {
        let uncached: Vec<&str> = ["--no-cache"].iter().chain(args).copied().collect();
        let expected = mplint_in(root, &uncached, cache.path());
        assert_eq!(mplint_in(root, args, cache.path()), expected, "{args:?}");
        expected
    };

    same_as_uncached(&["--format", "json", "."]);
    let first = kept_results(cache.path());
    assert_eq!(first.len(), 2, "one result per node: {first:#?}");
    same_as_uncached(&["--format", "json", "."]);
    assert_eq!(kept_results(cache.path()), first, "an unchanged tree wrote results again");

    // A class one node reaches changes: that node's result alone is new.
    write(db, "class profile::db {\n  notify { 'db': message => $nowhere }\n}\n");
    let report = same_as_uncached(&["--format", "json", "."]);
    assert!(report.contains("undefined-variable"), "{report}");
    let after = kept_results(cache.path());
    let rewritten = first.iter().filter(|(entry, inode)| after.get(*entry) != Some(*inode)).count();
    assert_eq!(rewritten, 1, "{first:#?} {after:#?}");
    same_as_uncached(&["--format", "json", db]);

    // A comment above the class moves it: still only that node's result.
    write(db, "# The database.\nclass profile::db {\n  notify { 'db': message => $nowhere }\n}\n");
    same_as_uncached(&["--format", "json", "."]);
    let moved = kept_results(cache.path());
    assert_eq!(after.iter().filter(|(entry, inode)| moved.get(*entry) != Some(*inode)).count(), 1);

    // A new class the other node's role declares.
    write("modules/role/manifests/a.pp", "class role::a {\n  include profile::web\n  include profile::cache\n}\n");
    same_as_uncached(&["--format", "json", "."]);
    write("modules/profile/manifests/cache.pp", "class profile::cache {\n  notify { 'db': }\n}\n");
    same_as_uncached(&["--format", "json", "."]);
    std::fs::remove_file(root.join("modules/profile/manifests/cache.pp")).unwrap();
    same_as_uncached(&["--format", "json", "."]);
    same_as_uncached(&["--format", "json", "modules/role/manifests/a.pp"]);
}

#[test]
fn kept_results_follow_what_the_tree_holds_besides_manifests() {
    let tree = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = tree.path();
    let write = |path: &str, text: &str| write_in(root, path, text);
    write("manifests/site.pp", "node default {\n  include app\n}\nclass dep::params {\n}\n");
    write(
        "modules/app/manifests/init.pp",
        "class app (\n  $port,\n) {\n  file { '/etc/app.conf': content => template('app/app.conf.erb') }\n  notify { \"${::rack} ${port}\": }\n  include dep::thing\n}\n",
    );
    write("modules/app/templates/app.conf.erb", "port=<%= @port %>\n");
    // Each step changes one input that is not a manifest; the cached run
    // must say what an uncached one says.
    let steps: Vec<Box<dyn Fn()>> = vec![
        Box::new(|| {
            write(
                ".gitmodules",
                "[submodule \"modules/dep\"]\n\tpath = modules/dep\n\turl = https://example.com/dep.git\n",
            )
        }),
        Box::new(|| write("modules/app/templates/app.conf.erb", "host=<%= @fqdn %>\n")),
        Box::new(|| write("modules/app/lib/facter/rack.rb", "Facter.add(:rack) do\n  setcode { 'r1' }\nend\n")),
        Box::new(|| {
            write("hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n");
            write("data/common.yaml", "---\napp::port: 8080\n");
        }),
        Box::new(|| {
            write("modules/app/metadata.json", "{\"name\": \"me-app\", \"dependencies\": [{\"name\": \"me/dep\"}]}\n")
        }),
        Box::new(|| write("Puppetfile", "mod 'me/dep', '1.0.0'\n")),
        Box::new(|| write(".mplint.toml", "[rules]\nlegacy-fact = \"off\"\n")),
        Box::new(|| std::fs::remove_file(root.join("modules/app/lib/facter/rack.rb")).unwrap()),
    ];
    let mut reports = std::collections::BTreeSet::new();
    for step in std::iter::once(&(Box::new(|| ()) as Box<dyn Fn()>)).chain(&steps) {
        step();
        let expected = mplint_in(root, &["--no-cache", "--format", "json", "."], cache.path());
        for _ in 0..2 {
            assert_eq!(mplint_in(root, &["--format", "json", "."], cache.path()), expected);
        }
        reports.insert(expected);
    }
    assert!(reports.len() >= 5, "the steps changed too little: {reports:#?}");
}
