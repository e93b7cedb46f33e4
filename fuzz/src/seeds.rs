//! Seed inputs: the grammar's test corpus, the manifests under `tests/`,
//! and any other directories of manifests (Debian's packaged modules).

use std::path::{Path, PathBuf};

/// Largest seed kept: bigger files slow every iteration down without
/// reaching more of the code.
const MAX_SEED_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct Seed {
    /// Where it came from, relative to its root (`apache/manifests/init.pp`),
    /// so that a generated tree can keep a module layout.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Every seed under `roots`, in a stable order: `*.pp` files, and the code of
/// each case of tree-sitter corpus files (`*.txt` under a `corpus` directory).
pub fn load(roots: &[PathBuf]) -> Vec<Seed> {
    let mut seeds = Vec::new();
    for root in roots {
        let mut files = Vec::new();
        walk(root, &mut files);
        files.sort();
        for file in files {
            let Ok(bytes) = std::fs::read(&file) else { continue };
            let name = file.strip_prefix(root).unwrap_or(&file).to_string_lossy().into_owned();
            let is_corpus = file.extension().is_some_and(|e| e == "txt")
                && file.parent().and_then(Path::file_name).is_some_and(|n| n == "corpus");
            if is_corpus {
                for (i, case) in corpus_cases(&String::from_utf8_lossy(&bytes)).into_iter().enumerate() {
                    seeds.push(Seed { name: format!("{name}#{i}"), bytes: case.into_bytes() });
                }
            } else if file.extension().is_some_and(|e| e == "pp") && bytes.len() <= MAX_SEED_BYTES {
                seeds.push(Seed { name, bytes });
            }
        }
    }
    seeds
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        if dir.is_file() {
            out.push(dir.to_path_buf());
        }
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        // Follows links, as Debian's module directories are links.
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == ".git" || n == "target") {
                continue;
            }
            walk(&path, out);
        } else if path.is_file() {
            out.push(path);
        }
    }
}

/// The source of each case of a tree-sitter corpus file: the text between
/// the closing `===` line of its header and its `---` line.
fn corpus_cases(text: &str) -> Vec<String> {
    let mut cases = Vec::new();
    let mut rules = 0;
    let mut code: Option<String> = None;
    for line in text.lines() {
        let is_rule = |c: char| line.len() >= 3 && line.chars().all(|x| x == c);
        if is_rule('=') {
            rules += 1;
            if rules % 2 == 0 {
                code = Some(String::new());
            }
        } else if is_rule('-') {
            if let Some(done) = code.take() {
                cases.push(done);
            }
        } else if let Some(code) = &mut code {
            code.push_str(line);
            code.push('\n');
        }
    }
    cases
}
