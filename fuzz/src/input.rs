//! What one iteration runs: a file, or a small tree of files, and how it
//! travels to the worker process and onto disk.

use std::io::{self, Read, Write};
use std::path::Path;

use crate::mutate;
use crate::rng::Rng;
use crate::seeds::Seed;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Decode, parse and lower one file, and run the single-file rules.
    Parse,
    /// Check a small tree of files (site, modules, data, configuration)
    /// with the whole analysis and render every report format.
    Check,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Parse => "parse",
            Target::Check => "check",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "parse" => Some(Target::Parse),
            "check" => Some(Target::Check),
            _ => None,
        }
    }
}

/// Files by relative path; the parse target has exactly one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub files: Vec<(String, Vec<u8>)>,
}

impl Input {
    pub fn size(&self) -> usize {
        self.files.iter().map(|(_, bytes)| bytes.len()).sum()
    }

    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(&(self.files.len() as u32).to_le_bytes())?;
        for (path, bytes) in &self.files {
            out.write_all(&(path.len() as u32).to_le_bytes())?;
            out.write_all(path.as_bytes())?;
            out.write_all(&(bytes.len() as u32).to_le_bytes())?;
            out.write_all(bytes)?;
        }
        out.flush()
    }

    /// `None` at the end of the stream.
    pub fn read_from(input: &mut impl Read) -> io::Result<Option<Input>> {
        let mut word = [0u8; 4];
        match input.read_exact(&mut word) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            other => other?,
        }
        let count = u32::from_le_bytes(word);
        let mut files = Vec::new();
        for _ in 0..count {
            let path = String::from_utf8_lossy(&read_chunk(input)?).into_owned();
            files.push((path, read_chunk(input)?));
        }
        Ok(Some(Input { files }))
    }

    /// Writes the files under `dir` (which is emptied first).
    pub fn materialise(&self, dir: &Path) -> io::Result<()> {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::create_dir_all(dir)?;
        for (path, bytes) in &self.files {
            let file = dir.join(path);
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(file, bytes)?;
        }
        Ok(())
    }
}

fn read_chunk(input: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut word = [0u8; 4];
    input.read_exact(&mut word)?;
    let mut bytes = vec![0u8; u32::from_le_bytes(word) as usize];
    input.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// Configuration and data files a tree may hold besides manifests.
const EXTRAS: &[(&str, &str)] = &[
    (".mplint.toml", "fail-on = \"note\"\nfacts = [\"role\"]\n[rules]\nunknown-class = \"off\"\n"),
    (".mplint.toml", "policies = [\"strict\"]\n[include-functions.role]\nclass = \"role::{}\"\nsets = [\"_role\"]\n"),
    ("environment.conf", "modulepath = modules:site:$basemodulepath\n"),
    ("hiera.yaml", "---\nversion: 5\nhierarchy:\n  - name: roles\n    path: \"roles/%{::role}.yaml\"\n  - name: tiers\n    path: \"%{facts.tier}.yaml\"\n"),
    ("data/common.yaml", "---\nm1::port: 80\nm2::x: 1\n"),
    ("modules/m1/lib/facter/role.rb", "Facter.add(:role) do\n  setcode { 'web' }\nend\n"),
    ("modules/m1/facts.d/tier.txt", "tier=web\nzone=a\n"),
    ("modules/m1/facts.d/more.yaml", "---\ndc: x\n"),
    ("modules/m1/metadata.json", "{\"name\":\"x-m1\",\"dependencies\":[{\"name\":\"puppetlabs/stdlib\"}]}\n"),
    ("Puppetfile", "mod 'puppetlabs/stdlib'\n# mod 'puppetlabs/apache'\nmod 'x', :git => 'y'\n"),
    ("modules/m1/examples/init.pp", "include m1\n"),
];

/// A single-file input from a seed.
pub fn file_from(seed: &Seed) -> Input {
    Input { files: vec![("input.pp".to_string(), seed.bytes.clone())] }
}

/// A small tree: a few seeds in a module layout, a site manifest whose
/// node declares the classes they define, sometimes configuration and data.
pub fn tree_from(rng: &mut Rng, seeds: &[Seed]) -> Input {
    let mut files = Vec::new();
    let mut classes = Vec::new();
    for k in 0..1 + rng.below(4) {
        let seed = rng.pick(seeds);
        let path = match seed.name.split_once("/manifests/") {
            Some((module, rest)) if !module.contains('/') && !module.is_empty() => {
                format!("modules/{module}/manifests/{rest}")
            }
            _ if rng.one_in(3) => format!("manifests/{k}.pp"),
            _ => format!("modules/m{k}/manifests/init.pp"),
        };
        classes.extend(defined_names(&seed.bytes));
        files.push((path, seed.bytes.clone()));
    }
    let mut site = String::from("node default {\n");
    for class in classes.iter().take(8) {
        site.push_str(&format!("  include {class}\n"));
    }
    site.push_str("}\nnode 'web01' { $role = 'web' include m1 }\n");
    files.push(("manifests/site.pp".to_string(), site.into_bytes()));
    while rng.one_in(3) {
        let (path, text) = rng.pick(EXTRAS);
        files.push((path.to_string(), text.as_bytes().to_vec()));
    }
    dedup_paths(&mut files);
    Input { files }
}

/// Mutates one file of a tree, or the tree's shape.
pub fn mutate_tree(rng: &mut Rng, input: &mut Input, seeds: &[Seed]) {
    let donors = |rng: &mut Rng| rng.pick(seeds).bytes.clone();
    match rng.below(10) {
        0 => {
            let seed = rng.pick(seeds);
            let module = ["m1", "m2", "a", "b"][rng.below(4)];
            input.files.push((format!("modules/{module}/manifests/init.pp"), seed.bytes.clone()));
        }
        1 if input.files.len() > 1 => {
            let at = rng.below(input.files.len());
            input.files.remove(at);
        }
        2 => {
            // The same definitions twice, or a file moved to another module.
            let (path, bytes) = rng.pick(&input.files).clone();
            let moved = path.replacen("modules/", &format!("modules/c{}", rng.below(3)), 1);
            if rng.one_in(2) {
                input.files.push((moved, bytes));
            } else {
                let at = rng.below(input.files.len());
                input.files[at].0 = moved;
            }
        }
        _ => {
            let at = rng.below(input.files.len());
            mutate::mutate(rng, &mut input.files[at].1, &donors);
        }
    }
    dedup_paths(&mut input.files);
    let mut total = 0;
    input.files.retain(|(_, bytes)| {
        total += bytes.len();
        total <= mutate::MAX_INPUT_BYTES
    });
}

fn dedup_paths(files: &mut Vec<(String, Vec<u8>)>) {
    let mut seen = std::collections::HashSet::new();
    files.retain(|(path, _)| seen.insert(path.clone()));
}

/// Names of the classes and defined types a manifest defines.
fn defined_names(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut names = Vec::new();
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == '(' || c == '{').collect();
    for pair in words.windows(2) {
        if pair[0] == "class" {
            let name = pair[1];
            if !name.is_empty()
                && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == ':')
            {
                names.push(name.to_string());
            }
        }
    }
    names
}
