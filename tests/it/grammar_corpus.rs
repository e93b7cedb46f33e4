//! Runs the grammar's test corpus (`grammar/test/corpus/*.txt`, tree-sitter's
//! test format) against the parser compiled into mplint.

use std::path::Path;

use crate::support::repo;

struct Case {
    file: String,
    title: String,
    input: String,
    expected: String,
}

fn is_rule(line: &str, ch: char) -> bool {
    line.len() >= 3 && line.chars().all(|c| c == ch)
}

fn parse_corpus_file(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_rule(lines[i], '=') {
            i += 1;
            continue;
        }
        let title = lines[i + 1].trim().to_string();
        assert!(is_rule(lines[i + 2], '='), "{}: malformed header at line {}", path.display(), i + 1);
        i += 3;
        let start = i;
        while !is_rule(lines[i], '-') {
            i += 1;
        }
        let input = lines[start..i].join("\n");
        i += 1;
        let start = i;
        while i < lines.len() && !is_rule(lines[i], '=') {
            i += 1;
        }
        cases.push(Case {
            file: path.file_name().unwrap().to_string_lossy().into_owned(),
            title,
            // tree-sitter trims the blank lines around the input.
            input: input.trim_matches('\n').to_string() + "\n",
            expected: lines[start..i].join("\n"),
        });
    }
    cases
}

/// S-expression with field names removed and whitespace normalised, as
/// tree-sitter compares when the expected tree names no fields.
fn normalise(sexp: &str, keep_fields: bool) -> String {
    let mut out = String::new();
    for token in sexp.replace('(', " ( ").replace(')', " ) ").split_whitespace() {
        if !keep_fields && token.ends_with(':') {
            continue;
        }
        out.push_str(token);
        out.push(' ');
    }
    out.replace("( ", "(").replace(" )", ")").trim().to_string()
}

#[test]
fn grammar_corpus_trees_match() {
    let dir = repo().join("grammar/test/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in files {
        for case in parse_corpus_file(&file) {
            count += 1;
            let tree = mplint::syntax::parse_tree(&case.input).expect("parses");
            let keep_fields = case.expected.contains(": (");
            let actual = normalise(&tree.root_node().to_sexp(), keep_fields);
            let expected = normalise(&case.expected, keep_fields);
            if actual != expected {
                failures.push(format!("{} / {}:\n  expected {expected}\n  actual   {actual}", case.file, case.title));
            }
        }
    }
    assert!(count >= 70, "only {count} grammar test cases found");
    assert!(failures.is_empty(), "{} of {count} grammar cases differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_named_node_kind_is_exercised_by_the_corpus() {
    // A construct the corpus never shows is a construct nobody checked.
    let node_types: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("grammar/src/node-types.json")).unwrap()).unwrap();
    let corpus: String = std::fs::read_dir(repo().join("grammar/test/corpus"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let missing: Vec<String> = node_types
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["named"].as_bool() == Some(true) && t.get("subtypes").is_none())
        .map(|t| t["type"].as_str().unwrap().to_string())
        .filter(|kind| !corpus.contains(&format!("({kind}")) && !corpus.contains(&format!("({kind})")))
        .collect();
    assert!(missing.is_empty(), "node kinds never shown in grammar/test/corpus: {missing:?}");
}

#[test]
fn highlight_query_compiles_and_captures() {
    use tree_sitter::{Query, QueryCursor, StreamingIterator};
    let language = mplint::syntax::language();
    let source = std::fs::read_to_string(repo().join("grammar/queries/highlights.scm")).unwrap();
    let query = Query::new(&language, &source).expect("highlights.scm compiles against the grammar");
    let text = "class a($x = 1) { file { \"/tmp/${x}\": ensure => present } } # done\n";
    let tree = mplint::syntax::parse_tree(text).unwrap();
    let mut cursor = QueryCursor::new();
    let mut captured = std::collections::BTreeMap::new();
    let mut captures = cursor.captures(&query, tree.root_node(), text.as_bytes());
    while let Some((m, index)) = captures.next() {
        let capture = m.captures[*index];
        let name = query.capture_names()[capture.index as usize];
        captured.entry(name).or_insert_with(|| capture.node.utf8_text(text.as_bytes()).unwrap().to_string());
    }
    assert_eq!(captured["keyword"], "class");
    assert_eq!(captured["type.definition"], "a");
    assert_eq!(captured["variable.parameter"], "$x");
    assert_eq!(captured["type"], "file");
    assert_eq!(captured["property"], "ensure");
    assert_eq!(captured["comment"], "# done");
    assert!(captured.contains_key("string") && captured.contains_key("number"));
}
