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
}
