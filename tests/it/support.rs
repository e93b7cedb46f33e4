//! Helpers the test modules share.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root directory.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `mplint` binary, with a parse cache of the tests' own rather than the
/// user's.
pub fn mplint_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mplint"));
    command.env("MPLINT_CACHE_DIR", test_cache_dir());
    command
}

/// Where the tests' runs of `mplint` keep their parse cache.
pub fn test_cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("mplint-cache")
}

/// Runs the `mplint` binary with `args` in `dir`.
pub fn mplint(args: &[&str], dir: &Path) -> Output {
    mplint_command().args(args).current_dir(dir).output().expect("mplint runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard output as JSON.
pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)))
}

/// Writes `content` to `dir/name`, creating the directories on the way.
pub fn write(dir: &Path, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, content).unwrap();
    path
}

/// The `*.pp` files directly in `dir`, sorted.
pub fn manifests_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    found.sort();
    found
}
