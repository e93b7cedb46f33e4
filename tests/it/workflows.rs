//! The repository's GitHub workflows and its action (`action.yml`) pass
//! actionlint and zizmor without a finding, and the minimum Rust version is
//! stated alike everywhere. `.ci/run` installs the linters in
//! `.ci/tools/venv`; elsewhere the lint test skips, saying so, unless
//! `MPLINT_REQUIRE_WORKFLOW_LINTERS` is set.

use std::path::PathBuf;
use std::process::Command;

use crate::support::repo;

fn tool(name: &str) -> Option<PathBuf> {
    let local = repo().join(".ci/tools/venv/bin").join(name);
    local.is_file().then_some(local)
}

#[test]
fn workflows_and_the_action_pass_actionlint_and_zizmor() {
    let (Some(actionlint), Some(zizmor)) = (tool("actionlint"), tool("zizmor")) else {
        assert!(
            std::env::var_os("MPLINT_REQUIRE_WORKFLOW_LINTERS").is_none(),
            "actionlint and zizmor are required but not installed (.ci/run installs them)"
        );
        eprintln!(
            "SKIPPED workflows_and_the_action_pass_actionlint_and_zizmor: no actionlint or zizmor (.ci/python-tools)"
        );
        return;
    };
    let text = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
    };
    // actionlint finds .github/workflows itself, and checks the local action
    // (`uses: ./`) that a workflow runs.
    let linted = Command::new(&actionlint).arg("-no-color").current_dir(repo()).output().expect("actionlint runs");
    assert!(linted.status.success(), "actionlint:\n{}", text(&linted));
    assert!(repo().join(".github/workflows/code-scanning.yml").is_file());

    // Offline: the audits that need GitHub's API would make the result depend on the network.
    let audited = Command::new(&zizmor)
        .args(["--offline", "--no-progress", "--color", "never", ".github/workflows", "action.yml"])
        .current_dir(repo())
        .output()
        .expect("zizmor runs");
    let said = text(&audited);
    assert!(audited.status.success() && said.contains("No findings to report"), "zizmor:\n{said}");
}

#[test]
fn the_minimum_rust_version_is_stated_alike() {
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml states a rust-version");
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(readme.contains(&format!("Rust {version} or newer")), "README does not state Rust {version}");
    // The CI job builds with the toolchain Cargo.toml names, read from it.
    let ci = std::fs::read_to_string(repo().join(".github/workflows/ci.yml")).unwrap();
    assert!(
        ci.contains("msrv:") && ci.contains("s/^rust-version = ") && ci.contains("cargo \"+$MSRV\" build --locked")
    );
}
