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
