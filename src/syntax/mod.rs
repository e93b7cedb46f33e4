//! Syntax: decoding a file, parsing it with the Puppet grammar and lowering
//! the concrete tree into the typed tree of [`ast`].

pub mod ast;
pub mod lower;
pub mod source;

use std::cell::RefCell;
use std::ops::Range;

use tree_sitter::{Language, Node, Parser, Tree};

use self::ast::Manifest;
use self::source::{SourceFile, Span};

/// Deepest syntax tree that is analysed. Deeper files are reported, not
/// analysed, so that no input can exhaust the stack of the worker threads
/// (see [`crate::WORKER_STACK_SIZE`]).
pub const MAX_NESTING: usize = 25_000;

/// Largest file that is parsed: places in the model are 32-bit offsets.
pub const MAX_FILE_BYTES: usize = u32::MAX as usize;

extern "C" {
    fn tree_sitter_puppet() -> *const ();
}

/// The Puppet grammar compiled into this binary.
pub fn language() -> Language {
    // SAFETY: the generated parser exposes a function of exactly this signature.
    let language_fn = unsafe { tree_sitter_language::LanguageFn::from_raw(tree_sitter_puppet) };
    language_fn.into()
}

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new({
        let mut parser = Parser::new();
        parser
            .set_language(&language())
            .expect("the bundled grammar matches the tree-sitter runtime");
        parser
    });
}

/// Parses Puppet source text into a concrete syntax tree.
pub fn parse_tree(text: &str) -> Option<Tree> {
    PARSER.with(|parser| parser.borrow_mut().parse(text, None))
}

/// Why a file could not be read as Puppet.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxProblem {
    pub span: Span,
    pub message: String,
}

/// A checked file with its typed tree, when it could be read.
#[derive(Debug)]
pub struct ParsedFile {
    pub source: SourceFile,
    pub manifest: Option<Manifest>,
    pub problem: Option<SyntaxProblem>,
}

/// Decodes, parses and lowers one file's bytes.
pub fn parse_file(path: impl Into<std::path::PathBuf>, bytes: Vec<u8>) -> ParsedFile {
    let path = path.into();
    if bytes.len() > MAX_FILE_BYTES {
        let size = bytes.len();
        let source = SourceFile::new(path, String::new());
        let span = source.span(0, 0);
        let message = format!("the file is too large to check ({size} bytes; the limit is {MAX_FILE_BYTES})");
        return ParsedFile { source, manifest: None, problem: Some(SyntaxProblem { span, message }) };
    }
    let (text, decode_problem) = decode(bytes);
    let source = SourceFile::new(path, text);
    if let Some((offset, message)) = decode_problem {
        let span = source.span(offset, offset);
        return ParsedFile { source, manifest: None, problem: Some(SyntaxProblem { span, message }) };
    }
    let Some(tree) = parse_tree(&source.text) else {
        let span = source.span(0, 0);
        return ParsedFile {
            source,
            manifest: None,
            problem: Some(SyntaxProblem { span, message: "the parser gave up on this file".into() }),
        };
    };
    let root = tree.root_node();
    let mut problem = None;
    let mut manifest = None;
    if root.has_error() {
        problem = Some(describe_error(root, &source));
    } else {
        match lower::lower(root, &source) {
            Ok(m) => manifest = Some(m),
            Err(e) => problem = Some(SyntaxProblem { span: e.span, message: e.message }),
        }
    }
    ParsedFile { source, manifest, problem }
}

/// Text of a file, or the offset and description of why it is not Puppet source.
fn decode(bytes: Vec<u8>) -> (String, Option<(usize, String)>) {
    let nul = bytes.iter().position(|b| *b == 0);
    match String::from_utf8(bytes) {
        Ok(text) => {
            if let Some(offset) = nul {
                return (text, Some((offset, "binary content: the file contains a NUL byte".into())));
            }
            if text.starts_with('\u{FEFF}') {
                return (text, Some((0, "a UTF-8 byte order mark is not allowed at the start of a manifest".into())));
            }
            (text, None)
        }
        Err(err) => {
            let offset = err.utf8_error().valid_up_to();
            let bytes = err.into_bytes();
            let message = match nul {
                Some(_) => "binary content: the file is not UTF-8 text".to_string(),
                None => format!(
                    "the file is not valid UTF-8: byte 0x{:02X} cannot start or continue a character",
                    bytes[offset]
                ),
            };
            let offset = nul.map_or(offset, |n| n.min(offset));
            // Invalid bytes become U+FFFD of three bytes each: take offsets in
            // the valid prefix only, where both texts agree.
            let text = String::from_utf8_lossy(&bytes).into_owned();
            (text, Some((offset, message)))
        }
    }
}

/// Describes the first error or missing node in document order, pointing at
/// the token where a left-to-right parser stops, as Puppet's does.
fn describe_error(root: Node<'_>, source: &SourceFile) -> SyntaxProblem {
    let Some(node) = first_error(root) else {
        return SyntaxProblem { span: source.span(0, 0), message: "syntax error".into() };
    };
    // What precedes the top-level statement holding the error is complete
    // statements: the checks below start there.
    let mut statement = node;
    while let Some(parent) = statement.parent().filter(|p| p.id() != root.id()) {
        statement = parent;
    }
    let base = statement.start_byte();
    let problem = describe_first_error(node, root, base, source);
    // A double-quoted string that never closes runs to the end of the file,
    // where the parse then fails; the place to fix is its opening quote.
    if let Some(quote) = unclosed_double_quote(root, base) {
        if quote.start_byte() <= problem.span.start {
            let span = source.span(quote.start_byte(), quote.start_byte());
            return SyntaxProblem { span, message: "unclosed quote: the string starting with \" has no end".into() };
        }
    }
    problem
}

fn describe_first_error(node: Node<'_>, root: Node<'_>, base: usize, source: &SourceFile) -> SyntaxProblem {
    if node.is_missing() {
        let next = next_leaf(node).map(|n| n.byte_range());
        let (span, found) = culprit(next, root, source);
        return SyntaxProblem {
            span,
            message: format!("unexpected {found}; expected {}", describe_symbol(node.kind())),
        };
    }
    if let Some(unlexable) = unlexable_text(node) {
        let span = source.span(unlexable.start_byte(), unlexable.start_byte());
        let text = &source.text[unlexable.byte_range()];
        let message = match text.chars().next() {
            Some(q @ ('\'' | '"')) => Some(format!("unclosed quote: the string starting with {q} has no end")),
            Some('@') if text.starts_with("@(") => {
                Some("malformed heredoc: expected @(TAG), @(\"TAG\"), @(TAG:syntax) or @(TAG/escapes)".to_string())
            }
            Some('/') => Some("unclosed regular expression".to_string()),
            Some(c) if !c.is_ascii_punctuation() => Some(format!("unexpected character {c:?}")),
            _ => None,
        };
        if let Some(message) = message {
            return SyntaxProblem { span, message };
        }
    }
    let previous = previous_leaf(node);
    if next_leaf(node).is_none() && is_unfinished(node) {
        // Nothing follows: the file ends inside an unfinished construct.
        let (span, found) = culprit(None, root, source);
        return SyntaxProblem { span, message: format!("unexpected {found}") };
    }
    let tokens = tokens(root, base, &source.text);
    let first = leaves(node).into_iter().next();
    // `${in + 1}`: Puppet's parser stops at a keyword that cannot start an
    // expression, although `${in` could go on as `${in}`.
    if let Some(keyword) =
        [previous, first].into_iter().flatten().find(|l| is_stray_keyword_in_interpolation(*l, source))
    {
        let (span, found) = culprit(Some(keyword.byte_range()), root, source);
        return SyntaxProblem { span, message: format!("unexpected {found}") };
    }
    // A token the tree does not show (a single-quoted string in an error)
    // may open the error node.
    let hidden_first = tokens
        .iter()
        .find(|t| t.start >= node.start_byte())
        .filter(|t| t.end <= node.end_byte() && first.is_none_or(|f| t.end <= f.start_byte()))
        .cloned();
    let unexpected = match (hidden_first, first) {
        (Some(hidden), _) => Some(hidden),
        // An operator or closing bracket right after an operand was fine;
        // the parse broke at the token after the error.
        (None, Some(first)) if continues_operand(first, previous) => next_leaf(node).map(|n| n.byte_range()),
        (None, Some(first)) => Some(first.byte_range()),
        (None, None) => next_leaf(node).map(|n| n.byte_range()),
    };
    let unexpected = unexpected.and_then(|t| first_unacceptable(t, &tokens, base, &source.text));
    if let Some(token) = &unexpected {
        if let Some(problem) = missing_comma(root, &tokens, base, token, source) {
            return problem;
        }
    }
    let (span, found) = culprit(unexpected, root, source);
    SyntaxProblem { span, message: format!("unexpected {found}") }
}

/// Most tokens [`first_unacceptable`] looks past.
const MAX_ACCEPTED_TOKENS: usize = 4;

/// Error recovery may drop a token a left-to-right parser accepts (`$a` in
/// `notice($a [0])`, the first comma of `'x':,,`); the error is at the first
/// token after which no text could complete the file. `None`: end of file.
fn first_unacceptable(token: Range<usize>, tokens: &[Range<usize>], base: usize, text: &str) -> Option<Range<usize>> {
    let mut token = token;
    for _ in 0..MAX_ACCEPTED_TOKENS {
        if token.start < base || !is_viable(&text[base..token.end], tokens, base) {
            return Some(token);
        }
        token = tokens.iter().find(|t| t.start >= token.end)?.clone();
    }
    Some(token)
}

/// Is `prefix` (the text from byte `base` on) the start of some valid
/// manifest? True when, with its open brackets closed, it parses with
/// nothing missing but tokens at its very end. (False when that does not
/// tell, which keeps the error where it was found.)
fn is_viable(prefix: &str, tokens: &[Range<usize>], base: usize) -> bool {
    let mut open = Vec::new();
    for token in tokens.iter().skip_while(|t| t.start < base).take_while(|t| t.end <= base + prefix.len()) {
        let word = &prefix[token.start - base..token.end - base];
        if !word.chars().all(|c| "([{)]}$".contains(c)) {
            continue;
        }
        for c in word.chars() {
            match c {
                '(' => open.push(')'),
                '[' => open.push(']'),
                '{' => open.push('}'),
                ')' | ']' | '}' => {
                    open.pop();
                }
                _ => {}
            }
        }
    }
    let completed = format!("{prefix} {}", open.iter().rev().collect::<String>());
    let Some(tree) = parse_tree(&completed) else { return false };
    let mut cursor = tree.walk();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || (node.is_missing() && node.start_byte() < completed.len()) {
            return false;
        }
        if node.has_error() {
            stack.extend(node.children(&mut cursor));
        }
    }
    true
}

/// "expected `,`" at the end of an attribute or hash entry that another
/// follows without a comma, when a comma there lets the parse go on.
fn missing_comma(
    root: Node<'_>,
    tokens: &[Range<usize>],
    base: usize,
    unexpected: &Range<usize>,
    source: &SourceFile,
) -> Option<SyntaxProblem> {
    let end = tokens.iter().rev().find(|t| t.end <= unexpected.start)?.end;
    let mut node = root.descendant_for_byte_range(end - 1, end)?;
    let what = loop {
        if node.end_byte() != end {
            return None;
        }
        match (node.kind(), node.parent().map(|p| p.kind())) {
            ("attribute", Some("attributes")) => break "attribute",
            ("pair", Some("hash")) => break "hash entry",
            _ => node = node.parent()?,
        }
    };
    if node.has_error() || end < base {
        return None;
    }
    // Up to the end of the top-level statement holding the unexpected token.
    let statement_end = (0..root.child_count())
        .filter_map(|i| root.child(i))
        .find(|c| c.end_byte() >= unexpected.end)
        .map_or(source.text.len(), |c| c.end_byte());
    let text = &source.text;
    let fixed = format!("{},{}", &text[base..end], &text[end..statement_end]);
    let tree = parse_tree(&fixed)?;
    // The comma must carry the parse past the token it stopped at.
    if first_error(tree.root_node()).is_some_and(|e| base + e.start_byte() <= unexpected.end) {
        return None;
    }
    let (_, found) = culprit(Some(unexpected.clone()), root, source);
    Some(SyntaxProblem {
        span: source.span(end, end),
        message: format!("expected `,` after this {what}; found {found}"),
    })
}

/// The opening quote of the first double-quoted string that never closes.
fn unclosed_double_quote(root: Node<'_>, base: usize) -> Option<Node<'_>> {
    // Quotes and the braces of interpolations, which may hold strings.
    let mut open: Vec<(bool, Node<'_>)> = Vec::new();
    for leaf in top_level_from(root, base).into_iter().flat_map(leaves) {
        if leaf.is_missing() {
            continue;
        }
        match leaf.kind() {
            "\"" if open.last().is_some_and(|(quote, _)| *quote) => {
                open.pop();
            }
            "\"" => open.push((true, leaf)),
            "${" | "{" => open.push((false, leaf)),
            "}" if open.last().is_some_and(|(quote, _)| !*quote) => {
                open.pop();
            }
            _ => {}
        }
    }
    open.into_iter().find(|(quote, _)| *quote).map(|(_, node)| node)
}

/// The file's tokens from byte `base` (where a top-level node starts) on,
/// in order: the tree's leaves (without comments and heredoc bodies) and
/// words of text no leaf shows.
fn tokens(root: Node<'_>, base: usize, text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = base;
    let words = |from: usize, to: usize, out: &mut Vec<Range<usize>>| {
        let mut start = None;
        for (i, c) in text[from..to].char_indices().chain([(to - from, ' ')]) {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    out.push(from + s..from + i);
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
    };
    let mut cursor = root.walk();
    let mut stack = top_level_from(root, base);
    stack.reverse();
    while let Some(node) = stack.pop() {
        if node.child_count() > 0 && !is_trivia(node) {
            let children: Vec<_> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
            continue;
        }
        if node.start_byte() > at {
            words(at, node.start_byte(), &mut out);
        }
        if !is_trivia(node) && !node.is_missing() {
            out.push(node.byte_range());
        }
        at = at.max(node.end_byte());
    }
    if text.len() > at {
        words(at, text.len(), &mut out);
    }
    out
}

/// The top-level nodes from the one starting at `base` on.
fn top_level_from(root: Node<'_>, base: usize) -> Vec<Node<'_>> {
    let mut cursor = root.walk();
    root.children(&mut cursor).filter(|c| c.start_byte() >= base).collect()
}

/// Does the error node hold a construct that more input would complete: an
/// unclosed bracket, or a trailing operator or keyword?
fn is_unfinished(error: Node<'_>) -> bool {
    const NEEDS_MORE: &[&str] = &[
        "+", "-", "*", "/", "%", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "=~", "!~", "and", "or", "in", "?", "!",
        "=", "+=", "-=", "=>", "+>", ",", ".", "->", "~>", "<-", "<~", ":", "@", "@@", "|", "if", "elsif", "else",
        "unless", "case", "class", "define", "node", "function", "plan", "type", "inherits",
    ];
    let tokens = leaves(error);
    let mut depth = 0i64;
    for token in &tokens {
        match token.kind() {
            "(" | "[" | "{" | "${" | "<|" | "<<|" | "_call_paren" | "_access_bracket" => depth += 1,
            ")" | "]" | "}" | "|>" | "|>>" => depth -= 1,
            _ => {}
        }
    }
    depth > 0 || tokens.last().is_some_and(|t| NEEDS_MORE.contains(&t.kind()))
}

/// Does `token` (an operator or closing bracket) validly follow `previous`,
/// the end of an operand?
fn continues_operand(token: Node<'_>, previous: Option<Node<'_>>) -> bool {
    const FOLLOWS_OPERAND: &[&str] = &[
        "+", "-", "*", "/", "%", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "=~", "!~", "and", "or", "in", "?", "=",
        "+=", "-=", "=>", "+>", ",", ".", "->", "~>", "<-", "<~", ")", "]", "}", ":", ";",
    ];
    const ENDS_OPERAND: &[&str] = &[
        "name",
        "variable",
        "number",
        "string",
        "type_name",
        "regex",
        "boolean",
        "undef",
        "default",
        "heredoc_start",
        ")",
        "]",
        "'",
        "\"",
    ];
    let ends_operand = previous.is_some_and(|p| ENDS_OPERAND.contains(&p.kind()) && !is_keyword_in_interpolation(p));
    ends_operand && FOLLOWS_OPERAND.contains(&token.kind())
}

/// A keyword that starts no expression, first in `${…}` where it is no
/// variable: `in`, `and`, `or`, `inherits`, `else`, `elsif`.
fn is_stray_keyword_in_interpolation(leaf: Node<'_>, source: &SourceFile) -> bool {
    const STARTS_NOTHING: &[&str] = &["and", "or", "in", "inherits", "else", "elsif"];
    STARTS_NOTHING.contains(&&source.text[leaf.byte_range()])
        && leaf.grammar_name() != "_keyword_variable"
        && previous_leaf(leaf).is_some_and(|p| p.kind() == "${")
}

/// A keyword alone in `${…}` (`${case}`) shows as a name but is no operand
/// to Puppet's parser: in `${case + 1}` the `+` is the error.
fn is_keyword_in_interpolation(node: Node<'_>) -> bool {
    node.kind() == "name"
        && node.parent().is_some_and(|p| p.kind() == "interpolation")
        && node.grammar_name().chars().all(|c| c.is_ascii_lowercase())
        && node.grammar_name() != "name"
}

/// The span and description of the offending token; `None` is the end of file.
fn culprit(token: Option<Range<usize>>, root: Node<'_>, source: &SourceFile) -> (Span, String) {
    match token {
        Some(token) => (source.span(token.start, token.end), describe_found(&source.text[token])),
        None => {
            let end = last_token_end(root);
            (source.span(end, end), "end of file".into())
        }
    }
}

fn last_token_end(root: Node<'_>) -> usize {
    let mut node = root;
    while let Some(child) = (0..node.child_count()).rev().filter_map(|i| node.child(i)).find(|c| !is_trivia(*c)) {
        node = child;
    }
    node.end_byte()
}

/// Comments and heredoc bodies sit between tokens without being part of the parse.
fn is_trivia(node: Node<'_>) -> bool {
    matches!(node.kind(), "comment" | "heredoc_body")
}

/// Text no token matches: an ERROR node without children.
fn unlexable_text(error: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = error.walk();
    let mut stack = vec![error];
    while let Some(node) = stack.pop() {
        if node.is_error() && node.child_count() == 0 {
            return Some(node);
        }
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    None
}

/// Tokens under `node`, in order, without comments.
fn leaves(node: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if is_trivia(n) {
            continue;
        }
        if n.child_count() == 0 {
            out.push(n);
            continue;
        }
        let children: Vec<_> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

fn next_leaf(node: Node<'_>) -> Option<Node<'_>> {
    let mut current = node;
    loop {
        if let Some(sibling) = current.next_sibling() {
            if is_trivia(sibling) {
                current = sibling;
                continue;
            }
            let mut leaf = sibling;
            while let Some(child) = (0..leaf.child_count()).filter_map(|i| leaf.child(i)).find(|c| !is_trivia(*c)) {
                leaf = child;
            }
            if leaf.child_count() > 0 || is_trivia(leaf) {
                current = sibling;
                continue;
            }
            return Some(leaf);
        }
        current = current.parent()?;
    }
}

fn first_error(root: Node<'_>) -> Option<Node<'_>> {
    let mut node = root;
    'descend: loop {
        if node.is_error() || node.is_missing() {
            return Some(node);
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.is_error() || child.is_missing() || child.has_error() {
                node = child;
                continue 'descend;
            }
        }
        return None;
    }
}

fn describe_found(text: &str) -> String {
    if text.is_empty() {
        return "end of file".into();
    }
    let first_line = text.lines().next().unwrap_or("");
    let shown: String = first_line.chars().take(40).collect();
    if shown.len() < first_line.len() {
        format!("'{shown}…'")
    } else {
        format!("'{shown}'")
    }
}

fn previous_leaf(node: Node<'_>) -> Option<Node<'_>> {
    let mut current = node;
    loop {
        if let Some(sibling) = current.prev_sibling() {
            if is_trivia(sibling) {
                current = sibling;
                continue;
            }
            let mut leaf = sibling;
            while let Some(child) = (0..leaf.child_count()).rev().filter_map(|i| leaf.child(i)).find(|c| !is_trivia(*c))
            {
                leaf = child;
            }
            if leaf.child_count() > 0 {
                current = sibling;
                continue;
            }
            return Some(leaf);
        }
        current = current.parent()?;
    }
}

fn describe_symbol(name: &str) -> String {
    match name {
        "name" => "a name".into(),
        "variable" => "a variable".into(),
        "type_name" => "a type name".into(),
        "string" | "string_content" => "a string".into(),
        "number" => "a number".into(),
        "regex" => "a regular expression".into(),
        "heredoc_start" => "a heredoc".into(),
        "heredoc_end" => "the heredoc's end tag".into(),
        other if other.chars().all(|c| c.is_ascii_punctuation()) || other.chars().all(|c| c.is_ascii_lowercase()) => {
            format!("'{other}'")
        }
        other => other.replace('_', " "),
    }
}
