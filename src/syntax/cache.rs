//! A cache of parse results on disk, keyed by the text parsed: a file that
//! has not changed since the last run is read back instead of parsed.
//!
//! Each entry is one file, written under a temporary name and renamed into
//! place, so runs side by side never see half an entry. An entry holds a
//! checksum of its contents and the text it was parsed from: one that is
//! damaged, or that belongs to another text, is ignored and written again.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

use super::ast::Manifest;
use super::SyntaxProblem;

/// The first bytes of every entry.
const MAGIC: &[u8; 8] = b"mplint\x01\x00";

/// Where parse results are kept: one directory per version of mplint's
/// syntax, so that a build never reads what another build wrote.
#[derive(Debug, Clone)]
pub struct ParseCache {
    dir: PathBuf,
}

/// What one entry holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    text: String,
    manifest: Option<Manifest>,
    problem: Option<SyntaxProblem>,
}

/// The name of this build's directory: mplint's version and the digest of
/// its syntax.
fn version() -> String {
    format!("{}-{}", env!("CARGO_PKG_VERSION"), env!("MPLINT_SYNTAX_VERSION"))
}

/// Whether a directory name is one [`version`] gives.
fn is_version_name(name: &str) -> bool {
    let Some((release, digest)) = name.rsplit_once('-') else { return false };
    let release_ok = !release.is_empty() && release.chars().all(|c| c.is_ascii_digit() || c == '.');
    let digest_ok = digest.len() == 16 && digest.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c));
    release_ok && digest_ok
}

/// Removes what other builds of mplint wrote under `root`, which this one
/// never reads: only directories named as [`version`] names them.
fn prune_other_versions(root: &Path) {
    let current = version();
    prune_directories(root, |name| name != current && is_version_name(name));
}

impl ParseCache {
    /// The cache in `root` (`MPLINT_CACHE_DIR`, or else the user's cache
    /// directory): none when there is no such directory.
    pub fn in_user_cache() -> Option<ParseCache> {
        let root = match std::env::var_os("MPLINT_CACHE_DIR") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => dirs::cache_dir()?.join("mplint"),
        };
        let cache = ParseCache::at(&root);
        if !cache.dir.is_dir() {
            prune_other_versions(&root);
        }
        Some(cache)
    }

    /// The cache under `root`.
    pub fn at(root: &Path) -> ParseCache {
        ParseCache { dir: root.join(version()) }
    }

    /// The directory this cache and other builds' caches are kept in.
    pub fn root(&self) -> &Path {
        self.dir.parent().unwrap_or(&self.dir)
    }

    fn entry_path(&self, text: &str) -> PathBuf {
        let hash = format!("{:032x}", xxh3_128(text.as_bytes()));
        self.dir.join(&hash[..2]).join(&hash[2..])
    }

    /// The parse of `text` kept by an earlier run, if there is a sound one.
    pub fn load(&self, text: &str) -> Option<(Option<Manifest>, Option<SyntaxProblem>)> {
        let bytes = read_entry(&self.entry_path(text), MAGIC)?;
        let entry: Entry = postcard::from_bytes(&bytes).ok()?;
        (entry.text == text).then_some((entry.manifest, entry.problem))
    }

    /// Keeps the parse of `text`. A cache that cannot be written is no
    /// error: the next run parses again.
    pub fn store(&self, text: &str, manifest: &Option<Manifest>, problem: &Option<SyntaxProblem>) {
        #[derive(serde::Serialize)]
        struct EntryRef<'e> {
            text: &'e str,
            manifest: &'e Option<Manifest>,
            problem: &'e Option<SyntaxProblem>,
        }
        let Ok(payload) = postcard::to_stdvec(&EntryRef { text, manifest, problem }) else { return };
        write_entry(&self.entry_path(text), MAGIC, &payload);
    }
}

/// The payload of the entry at `path`, when it starts with `magic` and its
/// checksum holds.
pub fn read_entry(path: &Path, magic: &[u8]) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let payload = bytes.strip_prefix(magic)?;
    let (checksum, payload) = payload.split_first_chunk::<8>()?;
    (u64::from_le_bytes(*checksum) == xxh3_64(payload)).then(|| payload.to_vec())
}

/// Writes an entry at `path`: `magic`, the payload's checksum, the
/// payload; under a temporary name renamed into place. A cache that cannot
/// be written is no error: the next run works it out again.
pub fn write_entry(path: &Path, magic: &[u8], payload: &[u8]) {
    let mut bytes = Vec::with_capacity(magic.len() + 8 + payload.len());
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&xxh3_64(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    // A name no other writer uses, in the entry's own directory so that
    // the rename never crosses file systems.
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let temporary = dir.join(format!(".tmp-{}-{}", std::process::id(), WRITES.fetch_add(1, Ordering::Relaxed)));
    if std::fs::write(&temporary, &bytes).is_err() || std::fs::rename(&temporary, path).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

/// Removes the directories under `root` that `is_other` names: what other
/// builds of mplint wrote, which this one never reads.
pub fn prune_directories(root: &Path, is_other: impl Fn(&str) -> bool) {
    let Ok(read) = std::fs::read_dir(root) else { return };
    for entry in read.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if is_other(name) && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_version_directories_are_pruned() {
        assert!(is_version_name(&version()));
        assert!(is_version_name("0.1.0-0123456789abcdef"));
        for other in ["", "0.1.0", "projects", "my-notes", "0.1.0-XYZ", "0.1.0-0123456789abcdeff", "-0123456789abcdef"]
        {
            assert!(!is_version_name(other), "{other}");
        }
        let root = tempfile::tempdir().unwrap();
        for dir in ["0.0.9-0123456789abcdef", "keep-me", &version()] {
            std::fs::create_dir_all(root.path().join(dir).join("ab")).unwrap();
        }
        std::fs::write(root.path().join("0.0.8-0123456789abcdef"), "a file, not a directory").unwrap();
        prune_other_versions(root.path());
        let mut left: Vec<String> =
            std::fs::read_dir(root.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        let mut expected = vec!["0.0.8-0123456789abcdef".to_string(), "keep-me".to_string(), version()];
        expected.sort();
        assert_eq!(left, expected);
    }
}
