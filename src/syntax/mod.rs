//! Syntax: decoding a file, parsing it with the Puppet grammar and lowering
//! the concrete tree into the typed tree of [`ast`].

pub mod ast;
pub mod cache;
pub mod lower;
pub mod source;

use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::time::Duration;

use tree_sitter::{Language, Node, Parser, Tree};

use self::ast::Manifest;
use self::source::{SourceFile, Span};

/// Puppet's keywords: no bare word, and a prefix ending in one opens a
/// construct.
pub const KEYWORDS: &[&str] = &[
    "and", "attr", "case", "class", "default", "define", "else", "elsif", "false", "function", "if", "in", "inherits",
    "node", "or", "plan", "private", "true", "type", "undef", "unless",
];

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

/// CPU time a file's parse may take: a fixed part plus a part per KB. Valid
/// code needs from a fiftieth (flat code) to a sixth (100,000 levels of
/// nested brackets) of it; only error recovery comes near it, as
/// tree-sitter's can take time quadratic in the text after an error. CPU
/// time of the parsing thread, so that a loaded machine does not change the
/// outcome.
pub const PARSE_BUDGET_BASE: Duration = Duration::from_millis(500);
pub const PARSE_BUDGET_PER_KB: Duration = Duration::from_millis(5);

/// The parse budget of a file of `len` bytes.
pub fn parse_budget(len: usize) -> Duration {
    PARSE_BUDGET_BASE + PARSE_BUDGET_PER_KB * u32::try_from(len / 1024).unwrap_or(u32::MAX)
}

thread_local! {
    /// When the parses for the file being read must stop: the file's own,
    /// and those that describe its first error.
    static DEADLINE: Cell<Option<Duration>> = const { Cell::new(None) };
}

/// Parses Puppet source text into a concrete syntax tree; `None` when the
/// parse of the file being read ran past its budget.
pub fn parse_tree(text: &str) -> Option<Tree> {
    parse_until(text, DEADLINE.get()).0
}

/// Parses `text`, stopping at `deadline`. With the tree (`None` when
/// stopped), where every version of the parser's stack was first in error.
fn parse_until(text: &str, deadline: Option<Duration>) -> (Option<Tree>, Option<usize>) {
    PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        let mut error_at = None;
        let mut calls: u32 = 0;
        let mut progress = |state: &tree_sitter::ParseState| {
            if state.has_error() && error_at.is_none() {
                error_at = Some(state.current_byte_offset());
            }
            // Reading the clock is a system call: every 16th time is often
            // enough (tree-sitter calls back every hundred steps or so).
            calls = calls.wrapping_add(1);
            calls.is_multiple_of(16) && deadline.is_some_and(|d| thread_cpu_time() >= d)
        };
        let bytes = text.as_bytes();
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        let tree = parser.parse_with_options(&mut |i, _| bytes.get(i..).unwrap_or_default(), None, Some(options));
        if tree.is_none() {
            // A stopped parse would otherwise resume on the next call.
            parser.reset();
        }
        (tree, error_at)
    })
}

/// CPU time the current thread has used.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Sets the parse deadline of the current thread until dropped.
struct DeadlineGuard(Option<Duration>);

impl DeadlineGuard {
    /// `budget` from now.
    fn set(budget: Duration) -> DeadlineGuard {
        let deadline = thread_cpu_time() + budget;
        DeadlineGuard(DEADLINE.replace(Some(deadline)))
    }
}

impl Drop for DeadlineGuard {
    fn drop(&mut self) {
        DEADLINE.set(self.0);
    }
}

/// Why a file could not be read as Puppet.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    parse_file_cached(path, bytes, None)
}

/// As [`parse_file`], reading the parse back from `cache` when an earlier
/// run kept one for the same text, and keeping it there otherwise.
pub fn parse_file_cached(
    path: impl Into<std::path::PathBuf>,
    bytes: Vec<u8>,
    cache: Option<&cache::ParseCache>,
) -> ParsedFile {
    let path = path.into();
    if bytes.len() > MAX_FILE_BYTES {
        let source = SourceFile::new(path, String::new());
        let span = source.span(0, 0);
        let message = format!("the file is too large to check (more than {MAX_FILE_BYTES} bytes)");
        return ParsedFile { source, manifest: None, problem: Some(SyntaxProblem { span, message }) };
    }
    let (text, decode_problem) = decode(bytes);
    let source = SourceFile::new(path, text);
    if let Some((offset, message)) = decode_problem {
        let span = source.span(offset, offset);
        return ParsedFile { source, manifest: None, problem: Some(SyntaxProblem { span, message }) };
    }
    if let Some((manifest, problem)) = cache.and_then(|cache| cache.load(&source.text)) {
        return ParsedFile { source, manifest, problem };
    }
    let budget = parse_budget(source.text.len());
    let _deadline = DeadlineGuard::set(budget);
    let (tree, error_at) = parse_until(&source.text, DEADLINE.get());
    // A parse cut short by its time budget is not kept: another run, given
    // more time, may get further.
    let Some(tree) = tree else {
        let problem = describe_stopped_parse(&source, error_at, budget);
        return ParsedFile { source, manifest: None, problem: Some(problem) };
    };
    let root = tree.root_node();
    let mut problem = None;
    let mut manifest = None;
    if root.has_error() {
        problem = Some(describe_error(root, &source, false));
    } else {
        match lower::lower(root, &source) {
            Ok(m) => manifest = Some(m),
            Err(e) => problem = Some(SyntaxProblem { span: e.span, message: e.message }),
        }
    }
    if let Some(cache) = cache {
        cache.store(&source.text, &manifest, &problem);
    }
    ParsedFile { source, manifest, problem }
}

/// The first error of a file whose parse ran out of time (in error
/// recovery, which grows with the text after the error): the first error of
/// a prefix of the file, once it lies well before the prefix's end, where
/// what follows cannot change it. Prefixes double from 1 KB, within a
/// budget of their own.
fn describe_stopped_parse(source: &SourceFile, error_at: Option<usize>, budget: Duration) -> SyntaxProblem {
    let text = &source.text;
    let _deadline = DeadlineGuard::set(budget);
    let mut cut = 1024;
    while cut < text.len() {
        let mut end = cut;
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let prefix = SourceFile::new(source.path.clone(), text[..end].to_string());
        let Some(tree) = parse_tree(&prefix.text) else { break };
        if tree.root_node().has_error() {
            let problem = describe_error(tree.root_node(), &prefix, true);
            // Where a prefix ends, strings, comments and statements are cut
            // short: only an error well before that is the file's.
            let settled = problem.span.start < end / 2
                && !problem.message.starts_with("unclosed")
                && !problem.message.contains("end of file")
                && error_at.is_none_or(|e| problem.span.start <= e);
            if settled {
                let message = format!(
                    "{} (found in the first {} KB: the parse of the whole file stopped after {:.1} s of error recovery)",
                    problem.message,
                    end / 1024,
                    budget.as_secs_f64()
                );
                return SyntaxProblem { message, ..problem };
            }
        }
        cut *= 2;
    }
    let at = error_at.unwrap_or(0).min(text.len());
    let mut at_char = at;
    while !text.is_char_boundary(at_char) {
        at_char -= 1;
    }
    SyntaxProblem {
        span: source.span(at_char, at_char),
        message: format!(
            "syntax error at or before this point; parsing stopped after {:.1} s of error recovery",
            budget.as_secs_f64()
        ),
    }
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
///
/// `truncated`: the text is a prefix of the file, which goes on; where the
/// tree ends is then no end of file.
fn describe_error(root: Node<'_>, source: &SourceFile, truncated: bool) -> SyntaxProblem {
    let Some(node) = first_error(root) else {
        return SyntaxProblem { span: source.span(0, 0), message: "syntax error".into() };
    };
    // What precedes the top-level statement holding the error is complete
    // statements: the checks below start there.
    let family = Family::new(root);
    let mut statement = node;
    while let Some(parent) = family.parent(statement).filter(|p| p.id() != root.id()) {
        statement = parent;
    }
    let base = statement.start_byte();
    let mut problem = describe_first_error(node, root, base, source, &family, truncated);
    // A keyword that opens the statement is rarely what is wrong: where the
    // recovery failed inside it (an unclosed `(` far below) says more.
    if node.is_error() && opens_with_keyword(node, problem.span.start, &source.text) {
        if let Some(inner) = first_error_within(node) {
            problem = describe_first_error(inner, root, base, source, &family, truncated);
        }
    }
    // Puppet's lexer refuses a name segment that is no word (`a::1b`) or a
    // number (`7d`, `09`) before its parser reaches a later token.
    let qualified = first_illegal_qualified_name(root, &source.text, problem.span.start);
    let number = first_invalid_number(root, &source.text, problem.span.start);
    match (qualified, number) {
        (Some(at), number) if number.as_ref().is_none_or(|n| at <= n.start) => {
            return SyntaxProblem { span: source.span(at, at), message: "Illegal fully qualified name".into() };
        }
        (_, Some(number)) => return number.into_problem(source),
        _ => {}
    }
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

/// Whether the string that `text` opens with quote `q` ends.
fn closes(text: &str, q: char) -> bool {
    let mut chars = text.chars().skip(1);
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            c if c == q => return true,
            _ => {}
        }
    }
    false
}

/// A number before `before` that Puppet's lexer refuses: its place and
/// Puppet's message.
struct InvalidNumber {
    start: usize,
    end: usize,
    message: String,
}

impl InvalidNumber {
    fn into_problem(self, source: &SourceFile) -> SyntaxProblem {
        SyntaxProblem { span: source.span(self.start, self.end), message: self.message }
    }
}

/// Where the first `::` not followed by a letter or `_` (before `before`)
/// leaves a qualified name unfinished: the byte after it.
fn first_illegal_qualified_name(root: Node<'_>, text: &str, before: usize) -> Option<usize> {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        // The name the parse broke at may be the one `::` goes on.
        let continues_name = |start: usize| {
            start > before && text[before..start].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':')
        };
        if node.start_byte() > before && !continues_name(node.start_byte()) {
            return None;
        }
        // The grammar may hold `::` as two `:` tokens.
        let start = node.start_byte();
        if matches!(node.kind(), "::" | ":")
            && node.child_count() == 0
            && !node.is_missing()
            && text[start..].starts_with("::")
            && !text[..start].ends_with(':')
        {
            let next = text[start + 2..].chars().next();
            if !next.is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
                return Some(start + 2);
            }
        }
        if node.end_byte() > node.start_byte() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}

fn first_invalid_number(root: Node<'_>, text: &str, before: usize) -> Option<InvalidNumber> {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.start_byte() > before {
            return None;
        }
        if node.kind() == "number" && node.child_count() == 0 {
            let glued = text[node.end_byte()..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
            let written = &text[node.start_byte()..node.end_byte() + glued];
            if let Some(message) = lower::invalid_number(written) {
                return Some(InvalidNumber { start: node.start_byte(), end: node.end_byte(), message });
            }
        }
        if node.end_byte() > node.start_byte() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}

fn describe_first_error<'t>(
    node: Node<'t>,
    root: Node<'t>,
    base: usize,
    source: &SourceFile,
    family: &Family<'t>,
    truncated: bool,
) -> SyntaxProblem {
    if node.is_missing() {
        let next = next_leaf(node, family).map(|n| n.byte_range());
        let (span, found) = culprit(next, root, source);
        return SyntaxProblem {
            span,
            message: format!("unexpected {found}; expected {}", describe_symbol(node.kind())),
        };
    }
    // Text a prefix cuts short (a string, a heredoc) is not unlexable.
    let unlexable = unlexable_text(node).filter(|u| !truncated || u.end_byte() < source.text.len());
    if let Some(unlexable) = unlexable {
        let span = source.span(unlexable.start_byte(), unlexable.start_byte());
        let text = &source.text[unlexable.byte_range()];
        let message = match text.chars().next() {
            // A string that closes (`['a' 'b']`: a comma missing before
            // it) is a token in the wrong place, told below.
            Some(q @ ('\'' | '"')) if !closes(&source.text[unlexable.start_byte()..], q) => {
                Some(format!("unclosed quote: the string starting with {q} has no end"))
            }
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
    let previous = previous_leaf(node, family);
    if !truncated && next_leaf(node, family).is_none() && is_unfinished(node) {
        // Nothing follows: the file ends inside an unfinished construct.
        let (span, found) = culprit(None, root, source);
        return SyntaxProblem { span, message: format!("unexpected {found}") };
    }
    let tokens = tokens(root, base, &source.text);
    let first = leaves(node).into_iter().next();
    // `${in + 1}`: Puppet's parser stops at a keyword that cannot start an
    // expression, although `${in` could go on as `${in}`.
    if let Some(keyword) =
        [previous, first].into_iter().flatten().find(|l| is_stray_keyword_in_interpolation(*l, source, family))
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
        (None, Some(first)) if continues_operand(first, previous, family) => {
            next_leaf(node, family).map(|n| n.byte_range())
        }
        (None, Some(first)) => Some(first.byte_range()),
        (None, None) => next_leaf(node, family).map(|n| n.byte_range()),
    };
    let unexpected = unexpected.and_then(|t| first_unacceptable(t, &tokens, base, &source.text));
    if let Some(token) = &unexpected {
        if let Some(problem) = missing_comma(root, &tokens, base, token, source, family) {
            return problem;
        }
    }
    let keyword = unexpected
        .as_ref()
        .and_then(|t| orchestration_block(&self::tokens(root, 0, &source.text), t.start, &source.text));
    let (span, found) = culprit(unexpected, root, source);
    let message = match keyword {
        Some(keyword) => format!("unexpected {found}: {}", lower::orchestration_message(keyword)),
        None => format!("unexpected {found}"),
    };
    SyntaxProblem { span, message }
}

/// The orchestration keyword of the block that byte `at` is in, when that
/// block is `site { … }` or `application NAME (…) { … }`: Puppet 6 removed
/// them, and their contents are no syntax mplint reads.
fn orchestration_block<'s>(tokens: &[Range<usize>], at: usize, text: &'s str) -> Option<&'s str> {
    let before: Vec<&str> = tokens.iter().filter(|t| t.end <= at).map(|t| &text[t.clone()]).collect();
    let mut depth = 0usize;
    let mut open = before.len();
    loop {
        open = open.checked_sub(1)?;
        match before[open] {
            "}" => depth += 1,
            "{" if depth == 0 => break,
            "{" => depth -= 1,
            _ => {}
        }
    }
    let mut i = open.checked_sub(1)?;
    if before[i] == ")" {
        // `application NAME (…)`: back over the parameter list.
        let mut parens = 0usize;
        loop {
            match before[i] {
                ")" => parens += 1,
                "(" => {
                    parens -= 1;
                    if parens == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i = i.checked_sub(1)?;
        }
        i = i.checked_sub(2)?;
        return (before[i] == "application").then_some(before[i]);
    }
    match before[i] {
        "site" => Some(before[i]),
        _ if i > 0 && before[i - 1] == "application" => Some(before[i - 1]),
        _ => None,
    }
}

/// Most tokens [`first_unacceptable`] looks past.
const MAX_ACCEPTED_TOKENS: usize = 8;

/// Most tokens [`earliest_unacceptable`] looks back over.
const MAX_STEPS_BACK: usize = 4;

/// Error recovery may drop a token a left-to-right parser accepts (`$a` in
/// `notice($a [0])`, the first comma of `'x':,,`); the error is at the first
/// token after which no text could complete the file. `None`: end of file.
fn first_unacceptable(token: Range<usize>, tokens: &[Range<usize>], base: usize, text: &str) -> Option<Range<usize>> {
    let mut token = token;
    for _ in 0..MAX_ACCEPTED_TOKENS {
        if token.start < base || !is_viable(&text[base..token.end], tokens, base) {
            return Some(earliest_unacceptable(token, tokens, base, text));
        }
        token = tokens.iter().find(|t| t.start >= token.end)?.clone();
    }
    Some(token)
}

/// Error recovery may also resume past the token that broke the parse (a
/// stray `'title':` line reported at the resource after it): of the
/// tokens just before `token`, the first after which no text could
/// complete the file, where the text up to the one before it is the start
/// of a valid manifest. Else `token` itself.
fn earliest_unacceptable(token: Range<usize>, tokens: &[Range<usize>], base: usize, text: &str) -> Range<usize> {
    let mut candidate = token.clone();
    for _ in 0..MAX_STEPS_BACK {
        let Some(before) = tokens.iter().rev().find(|t| t.end <= candidate.start && t.start >= base) else { break };
        // A prefix ending in a string's start, a keyword or a comma (which
        // Puppet's lists take where mplint's grammar does not) needs more
        // than a short completion: it tells nothing.
        let word = &text[before.clone()];
        let open_string = word.starts_with('@')
            || word.chars().next().is_some_and(|q| (q == '"' || q == '\'') && (word.len() < 2 || !word.ends_with(q)));
        let keyword = KEYWORDS.contains(&word) || lower::ORCHESTRATION_KEYWORDS.contains(&word);
        if open_string || word == "," || keyword {
            break;
        }
        if is_viable(&text[base..before.end], tokens, base) {
            return candidate;
        }
        candidate = before.clone();
    }
    token
}

/// Is `prefix` (the text from byte `base` on) the start of some valid
/// manifest? True when, with a short completion and its open brackets
/// closed, it parses with nothing missing within it. (False when that does
/// not tell, which keeps the error where it was found.)
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
    let closers: String = open.iter().rev().collect();
    // A short completion may finish the last construct (an operand, a
    // title's colon, an attribute's value); a closed parameter list needs
    // its body (`class foo($a = f('a')) {}`).
    let list_closed = closers.ends_with(')') || (closers.is_empty() && prefix.trim_end().ends_with(')'));
    COMPLETIONS.iter().any(|completion| {
        parses_whole(&format!("{prefix} {completion} {closers}"), prefix.len())
            || (list_closed && parses_whole(&format!("{prefix} {completion} {closers} {{}}"), prefix.len()))
    })
}

/// Text [`is_viable`] tries after a prefix, before closing its brackets.
const COMPLETIONS: [&str; 4] = ["", "x", ":", "=> x"];

/// Does `text` parse with nothing missing but tokens past its first
/// `prefix_len` bytes (which more text there could supply)?
fn parses_whole(text: &str, prefix_len: usize) -> bool {
    let Some(tree) = parse_tree(text) else { return false };
    let mut cursor = tree.walk();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || (node.is_missing() && node.start_byte() < prefix_len) {
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
fn missing_comma<'t>(
    root: Node<'t>,
    tokens: &[Range<usize>],
    base: usize,
    unexpected: &Range<usize>,
    source: &SourceFile,
    family: &Family<'t>,
) -> Option<SyntaxProblem> {
    let end = tokens.iter().rev().find(|t| t.end <= unexpected.start)?.end;
    let mut node = root.descendant_for_byte_range(end - 1, end)?;
    let what = loop {
        if node.end_byte() != end {
            return None;
        }
        match (node.kind(), family.parent(node).map(|p| p.kind())) {
            ("attribute", Some("attributes")) => break "attribute",
            ("pair", Some("hash")) => break "hash entry",
            (kind, Some("array")) if node.is_named() && kind != "comment" => break "array element",
            (kind, Some("arguments")) if node.is_named() && kind != "comment" => break "argument",
            _ => node = family.parent(node)?,
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
fn continues_operand<'t>(token: Node<'t>, previous: Option<Node<'t>>, family: &Family<'t>) -> bool {
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
    // The name a definition's header gives (`class a::b:c {`) is no
    // operand: Puppet's parser wants `(`, `inherits` or `{` after it.
    const DEFINITIONS: &[&str] = &["class_definition", "define_definition", "plan_definition", "function_definition"];
    let names_a_definition = |p: Node<'t>| family.parent(p).is_some_and(|parent| DEFINITIONS.contains(&parent.kind()));
    let ends_operand = previous.is_some_and(|p| {
        ENDS_OPERAND.contains(&p.kind()) && !is_keyword_in_interpolation(p, family) && !names_a_definition(p)
    });
    ends_operand && FOLLOWS_OPERAND.contains(&token.kind())
}

/// A keyword that starts no expression, first in `${…}` where it is no
/// variable: `in`, `and`, `or`, `inherits`, `else`, `elsif`.
fn is_stray_keyword_in_interpolation<'t>(leaf: Node<'t>, source: &SourceFile, family: &Family<'t>) -> bool {
    const STARTS_NOTHING: &[&str] = &["and", "or", "in", "inherits", "else", "elsif"];
    STARTS_NOTHING.contains(&&source.text[leaf.byte_range()])
        && leaf.grammar_name() != "_keyword_variable"
        && previous_leaf(leaf, family).is_some_and(|p| p.kind() == "${")
}

/// A keyword alone in `${…}` (`${case}`) shows as a name but is no operand
/// to Puppet's parser: in `${case + 1}` the `+` is the error.
fn is_keyword_in_interpolation<'t>(node: Node<'t>, family: &Family<'t>) -> bool {
    node.kind() == "name"
        && family.parent(node).is_some_and(|p| p.kind() == "interpolation")
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

fn next_leaf<'t>(node: Node<'t>, family: &Family<'t>) -> Option<Node<'t>> {
    let mut current = node;
    loop {
        if let Some(sibling) = family.next_sibling(current) {
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
        current = family.parent(current)?;
    }
}

/// Parent and siblings of every node, found in one walk: tree-sitter finds
/// a node's parent and siblings by descending from the root, which makes
/// moving about a deeply nested tree quadratic.
struct Family<'t> {
    links: rustc_hash::FxHashMap<usize, Links<'t>>,
}

#[derive(Clone, Copy)]
struct Links<'t> {
    parent: Node<'t>,
    previous: Option<Node<'t>>,
    next: Option<Node<'t>>,
}

impl<'t> Family<'t> {
    fn new(root: Node<'t>) -> Self {
        let mut links = rustc_hash::FxHashMap::default();
        let mut cursor = root.walk();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            let children: Vec<Node<'t>> = node.children(&mut cursor).collect();
            for (i, child) in children.iter().enumerate() {
                let previous = i.checked_sub(1).map(|j| children[j]);
                links.insert(child.id(), Links { parent: node, previous, next: children.get(i + 1).copied() });
            }
            stack.extend(children);
        }
        Family { links }
    }

    fn parent(&self, node: Node<'t>) -> Option<Node<'t>> {
        self.links.get(&node.id()).map(|l| l.parent)
    }

    fn next_sibling(&self, node: Node<'t>) -> Option<Node<'t>> {
        self.links.get(&node.id()).and_then(|l| l.next)
    }

    fn prev_sibling(&self, node: Node<'t>) -> Option<Node<'t>> {
        self.links.get(&node.id()).and_then(|l| l.previous)
    }
}

/// Whether the error found at byte `at` is the keyword that opens the
/// error node's first statement (a definition or a control statement).
fn opens_with_keyword(node: Node<'_>, at: usize, text: &str) -> bool {
    let mut first = node;
    loop {
        let mut cursor = first.walk();
        let Some(child) = first.children(&mut cursor).find(|c| !is_trivia(*c)) else { break };
        first = child;
    }
    let word = &text[first.start_byte()..first.end_byte().min(text.len())];
    first.start_byte() == at
        && ["define", "class", "node", "if", "unless", "case", "function", "plan", "type"].contains(&word)
}

/// The first error or missing node strictly inside an error node.
fn first_error_within(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    children.into_iter().find_map(|child| {
        if child.is_error() || child.is_missing() {
            Some(child)
        } else if child.has_error() {
            first_error(child)
        } else {
            None
        }
    })
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
    // A single-quoted string shows its own quotes.
    if shown.len() < first_line.len() && shown.starts_with('\'') {
        return format!("{shown}…'");
    }
    if shown.len() == first_line.len() && shown.len() >= 2 && shown.starts_with('\'') && shown.ends_with('\'') {
        return shown;
    }
    if shown.len() < first_line.len() {
        format!("'{shown}…'")
    } else {
        format!("'{shown}'")
    }
}

fn previous_leaf<'t>(node: Node<'t>, family: &Family<'t>) -> Option<Node<'t>> {
    let mut current = node;
    loop {
        if let Some(sibling) = family.prev_sibling(current) {
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
        current = family.parent(current)?;
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

#[cfg(test)]
mod tests {
    use super::describe_found;

    #[test]
    fn found_tokens_are_quoted_once() {
        assert_eq!(describe_found("'b'"), "'b'");
        assert_eq!(describe_found("ensure"), "'ensure'");
        let long = "'/Users/someone/code/Puppet-7-for-DevOps-Engineering/ch3'";
        assert_eq!(describe_found(long), "'/Users/someone/code/Puppet-7-for-DevOps…'");
        assert_eq!(describe_found(""), "end of file");
    }
}
