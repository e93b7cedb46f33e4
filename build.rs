// Compiles the committed, generated Puppet parser and its external scanner.
fn main() {
    let dir = std::path::Path::new("grammar/src");
    cc::Build::new()
        .include(dir)
        .file(dir.join("parser.c"))
        .file(dir.join("scanner.c"))
        // The generated parser is large and hot: optimise it even in debug builds.
        .opt_level(2)
        .flag_if_supported("-std=c11")
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-but-set-variable")
        .flag_if_supported("-Wno-trigraphs")
        .compile("tree-sitter-puppet");
    println!("cargo:rerun-if-changed=grammar/src/parser.c");
    println!("cargo:rerun-if-changed=grammar/src/scanner.c");
    syntax_version();
    analysis_version();
}

/// A digest of everything that decides what a file parses into (the grammar,
/// the lowering, the syntax tree's types): parse results cached by one build
/// are read back only by builds with the same digest.
fn syntax_version() {
    use std::hash::Hasher;
    let mut files: Vec<std::path::PathBuf> = vec!["grammar/src/parser.c".into(), "grammar/src/scanner.c".into()];
    let mut syntax: Vec<std::path::PathBuf> = std::fs::read_dir("src/syntax")
        .expect("src/syntax is readable")
        .map(|entry| entry.expect("src/syntax is readable").path())
        .collect();
    syntax.sort();
    files.extend(syntax);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        hasher.write(&std::fs::read(file).expect("syntax sources are readable"));
    }
    println!("cargo:rustc-env=MPLINT_SYNTAX_VERSION={:016x}", hasher.finish());
}

/// A digest of everything that decides what a run finds (every source file,
/// the rules' documentation, the grammar, the locked dependencies): results
/// kept by one build are read back only by builds with the same digest.
fn analysis_version() {
    use std::hash::Hasher;
    fn collect(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(read) = std::fs::read_dir(dir) else { return };
        for entry in read.flatten() {
            let path = entry.path();
            if path.is_dir() {
                collect(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in ["src", "rules"] {
        println!("cargo:rerun-if-changed={dir}");
        collect(std::path::Path::new(dir), &mut files);
    }
    files.sort();
    files.extend(["grammar/src/parser.c".into(), "grammar/src/scanner.c".into(), "Cargo.lock".into()]);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        hasher.write(file.to_string_lossy().as_bytes());
        hasher.write(&std::fs::read(file).unwrap_or_default());
    }
    println!("cargo:rustc-env=MPLINT_ANALYSIS_VERSION={:016x}", hasher.finish());
}
