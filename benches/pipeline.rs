//! Parse, model build and rules on a fixed fixture set that ships with the
//! repository: the demo site, the rule fixtures and the oracle manifests.
//!
//!     cargo bench --features bench --bench pipeline

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use mplint::model::workspace::Workspace;
use mplint::model::Model;
use mplint::syntax::{parse_file, ParsedFile};

fn fixture_roots() -> Vec<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["examples/demo-site", "tests/fixtures", "tests/oracle/cases"].iter().map(|p| repo.join(p)).collect()
}

fn manifests(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            manifests(&path, found);
        } else if path.extension().is_some_and(|e| e == "pp") {
            found.push(path);
        }
    }
}

fn sources() -> Vec<(PathBuf, Vec<u8>)> {
    let mut paths = Vec::new();
    for root in fixture_roots() {
        manifests(&root, &mut paths);
    }
    paths.into_iter().map(|p| (p.clone(), std::fs::read(&p).expect("fixture readable"))).collect()
}

fn parse_all(sources: &[(PathBuf, Vec<u8>)]) -> Vec<ParsedFile> {
    sources.iter().map(|(path, bytes)| parse_file(path.clone(), bytes.clone())).collect()
}

fn pipeline(c: &mut Criterion) {
    let sources = sources();
    let roots = fixture_roots();
    c.bench_function("parse", |b| b.iter(|| parse_all(&sources)));

    let files = parse_all(&sources);
    let reported = vec![true; files.len()];
    let workspace = Workspace::discover(&roots, &[]);
    c.bench_function("model build", |b| {
        b.iter(|| Model::build(&files, reported.clone(), workspace.clone()).compilations.len())
    });

    let model = Model::build(&files, reported.clone(), workspace.clone());
    c.bench_function("rules", |b| b.iter(|| mplint::rules::check_model(&model).len()));
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
