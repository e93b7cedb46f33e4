//! Microsoft's SARIF validator (npm `@microsoft/sarif-multitool`) must find
//! no error and no warning, with GitHub's rules included, in mplint's SARIF
//! for the demo site, every test fixture and the Debian corpus. `.ci/run`
//! installs the validator in `.ci/tools`; elsewhere the test skips, saying so,
//! unless `MPLINT_REQUIRE_SARIF_VALIDATOR` is set.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{mplint_command, repo};

fn validator() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("MPLINT_SARIF_VALIDATOR") {
        return Some(PathBuf::from(path));
    }
    let local = repo().join(".ci/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    local.is_file().then_some(local)
}

#[test]
fn sarif_passes_microsofts_validator() {
    let Some(validator) = validator() else {
        assert!(
            std::env::var_os("MPLINT_REQUIRE_SARIF_VALIDATOR").is_none(),
            "the SARIF validator is required but not installed (.ci/run installs it)"
        );
        eprintln!("SKIPPED sarif_passes_microsofts_validator: no validator (npm install @microsoft/sarif-multitool)");
        return;
    };
    let root = repo();
    let mut targets: Vec<PathBuf> =
        vec![root.join("examples/demo-site"), root.join("tests/oracle/cases"), root.join("tests/fixtures/every-rule")];
    let corpus = Path::new("/usr/share/puppet/modules");
    if corpus.is_dir() {
        targets.push(corpus.to_path_buf());
    }
    let out = tempfile::tempdir().unwrap();
    // The demo site again under a policy: its constraints are rules too.
    let policy = out.path().join("policy.toml");
    std::fs::write(
        &policy,
        "name = \"demo\"\n[[constraint]]\nid = \"files-have-modes\"\nmessage = \"files say their mode\"\n\
         type = \"file\"\nrequire-one-of = [\"mode\"]\n",
    )
    .unwrap();
    let mut runs: Vec<(PathBuf, Vec<String>)> = targets.into_iter().map(|t| (t, Vec::new())).collect();
    let policy_args = vec!["--policy".to_string(), policy.to_str().unwrap().to_string()];
    runs.push((root.join("examples/demo-site"), policy_args));
    let mut reports = Vec::new();
    for (i, (target, args)) in runs.iter().enumerate() {
        let sarif = out.path().join(format!("{i}.sarif"));
        let status = mplint_command()
            .args(["--format", "sarif", "--output"])
            .arg(&sarif)
            .args(args)
            .arg(target)
            .current_dir(root)
            .status()
            .unwrap();
        assert!(status.code().is_some_and(|c| c <= 1), "mplint failed on {}", target.display());
        reports.push((target, sarif));
    }
    // One run of the validator for every report: it takes seconds to start.
    let output = Command::new(&validator)
        .arg("validate")
        .args(reports.iter().map(|(_, sarif)| sarif))
        .args(["--level", "Error;Warning", "--rule-kind", "Sarif;Gh"])
        .output()
        .expect("the validator runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let reported: Vec<&str> = text.lines().filter(|l| l.contains(": error ") || l.contains(": warning ")).collect();
    for (target, sarif) in &reports {
        let name = sarif.to_string_lossy();
        let own = reported.iter().filter(|l| l.starts_with(name.as_ref())).count();
        eprintln!("{}: {own} validator errors and warnings", target.display());
    }
    let scanned = format!("{} files scanned", reports.len());
    assert!(
        output.status.success()
            && reported.is_empty()
            && text.contains(&scanned)
            && text.contains("Analysis completed successfully"),
        "{text}"
    );
}
