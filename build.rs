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
