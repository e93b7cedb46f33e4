//! Structure-aware mutations of Puppet source: tokens of the language,
//! nesting, splicing between files, invalid UTF-8, line endings, truncation.

use crate::rng::Rng;

/// Largest input a mutation produces.
pub const MAX_INPUT_BYTES: usize = 128 * 1024;

/// Pieces of Puppet, whole or half: keywords, operators, brackets, string,
/// heredoc and regex openers, variables, numbers, types, comments and
/// whitespace of every kind the lexer knows.
const TOKENS: &[&str] = &[
    "class",
    "define",
    "node",
    "inherits",
    "include",
    "contain",
    "require",
    "if",
    "elsif",
    "else",
    "unless",
    "case",
    "default",
    "and",
    "or",
    "in",
    "function",
    "type",
    "plan",
    "apply",
    "site",
    "application",
    "private",
    "attr",
    "true",
    "false",
    "undef",
    "=",
    "==",
    "!=",
    "=~",
    "!~",
    "=>",
    "+>",
    "->",
    "~>",
    "<-",
    "<~",
    "<<",
    ">>",
    "<",
    ">",
    "<=",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "?",
    ":",
    "::",
    ",",
    ";",
    ".",
    "|",
    "@",
    "@@",
    "<|",
    "|>",
    "<<|",
    "|>>",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "${",
    "'",
    "\"",
    "'x'",
    "\"x\"",
    "\"${x}\"",
    "\"${",
    "\"$x",
    "\\",
    "\\$",
    "\\\"",
    "\\u{1F600}",
    "\\u",
    "@(E)",
    "@(\"E\")",
    "@(E:json)",
    "@(\"E\":n)",
    "@(E/ntsLu$)",
    "@(E/)",
    "@(",
    "|-E",
    "| E",
    "E",
    "-E",
    "/x/",
    "/",
    "/[a-z]+/",
    "$x",
    "$::x",
    "$a::b",
    "$0",
    "$_x",
    "$facts['os']",
    "$",
    "0",
    "0x1F",
    "1e10",
    "1.5",
    "0777",
    "99999999999999999999999",
    "String",
    "Integer[1,2]",
    "Hash[String, Any]",
    "File['/x']",
    "Class['a']",
    "Resource[file]",
    "notice(",
    "include a",
    "lookup('x')",
    "defined(File['/x'])",
    "fail('x')",
    "file { 'x': }",
    "a::b { 'x': }",
    "class { 'a': }",
    "node default {}",
    "class a {}",
    "define d {}",
    "class a inherits b {}",
    "{ |$k, $v| }",
    "each",
    "map",
    "$x = 1",
    "# c\n",
    "/* c */",
    "/*",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "\u{00A0}",
    "\u{2028}",
    "\u{FEFF}",
    "é",
    "日本",
    "\0",
];

/// Brackets and blocks to nest a stretch of text in.
const NESTINGS: &[(&str, &str)] = &[
    ("[", "]"),
    ("{", "}"),
    ("(", ")"),
    ("\"${", "}\""),
    ("${", "}"),
    ("if $x {", "}"),
    ("class a {", "}"),
    ("node n {", "}"),
    ("case $x { 'a': {", "} }"),
    ("$x ? { 'a' => ", "}"),
    ("@(E)\n", "\nE\n"),
    ("[1, ", "]"),
    ("{ 'k' => ", "}"),
    ("f(", ")"),
    ("-", ""),
    ("!", ""),
];

/// Bytes that are not UTF-8, or characters that make text binary.
const INVALID: &[&[u8]] =
    &[b"\x80", b"\xC0", b"\xFF", b"\xED\xA0\x80", b"\xF4\x90\x80\x80", b"\xE2\x82", b"\x00", b"\xC3"];

/// Applies a few mutations to `input`; `donors` lend text to splice in.
pub fn mutate(rng: &mut Rng, input: &mut Vec<u8>, donors: &dyn Fn(&mut Rng) -> Vec<u8>) {
    let count = rng.size(8);
    for _ in 0..count {
        mutate_once(rng, input, donors);
        if input.len() > MAX_INPUT_BYTES {
            input.truncate(MAX_INPUT_BYTES);
        }
    }
}

fn mutate_once(rng: &mut Rng, input: &mut Vec<u8>, donors: &dyn Fn(&mut Rng) -> Vec<u8>) {
    match rng.below(16) {
        0..=2 => {
            let at = boundary(rng, input);
            insert(input, at, rng.pick(TOKENS).as_bytes());
        }
        3 | 4 => {
            if let Some((start, end)) = token(rng, input) {
                input.splice(start..end, rng.pick(TOKENS).bytes());
            }
        }
        5 | 6 => {
            let (start, end) = range(rng, input);
            input.drain(start..end);
        }
        7 => {
            // Repeat a stretch: long lines, long lists, many statements.
            let (start, end) = range(rng, input);
            let piece = input[start..end].to_vec();
            let times = if rng.one_in(8) { rng.size(4096) } else { rng.size(16) };
            let repeated: Vec<u8> = piece.iter().copied().cycle().take(piece.len() * times).collect();
            input.splice(end..end, repeated.into_iter().take(MAX_INPUT_BYTES));
        }
        8 | 9 => {
            // Text from another file: a stretch of it, or all of it.
            let donor = donors(rng);
            let (start, end) = if rng.one_in(4) { (0, donor.len()) } else { range(rng, &donor) };
            let at = boundary(rng, input);
            if rng.one_in(2) {
                let (cut_start, cut_end) = range(rng, input);
                input.splice(cut_start..cut_end, donor[start..end].iter().copied());
            } else {
                insert(input, at, &donor[start..end]);
            }
        }
        10 => {
            let (open, close) = *rng.pick(NESTINGS);
            let depth = if rng.one_in(8) { rng.size(8192) } else { rng.size(8) };
            let (start, end) = range(rng, input);
            let closed = !rng.one_in(4);
            let mut out = input[..start].to_vec();
            out.extend(open.as_bytes().repeat(depth));
            out.extend_from_slice(&input[start..end]);
            if closed {
                out.extend(close.as_bytes().repeat(depth));
            }
            out.extend_from_slice(&input[end..]);
            *input = out;
        }
        11 => {
            let at = rng.below(input.len() + 1);
            let bytes: &[u8] = INVALID[rng.below(INVALID.len())];
            insert(input, at, bytes);
        }
        12 => {
            let ending: &[u8] = if rng.one_in(2) { b"\r\n" } else { b"\r" };
            let mut out = Vec::with_capacity(input.len());
            let all = rng.one_in(2);
            for &b in input.iter() {
                if b == b'\n' && (all || rng.one_in(4)) {
                    out.extend_from_slice(ending);
                } else {
                    out.push(b);
                }
            }
            *input = out;
        }
        13 => {
            let at = rng.below(input.len() + 1);
            input.truncate(at);
        }
        14 => {
            if !input.is_empty() {
                let at = rng.below(input.len());
                input[at] = match rng.below(3) {
                    0 => b"{}[]()\"'$@|\\/:,;=\n#"[rng.below(19)],
                    1 => input[at] ^ (1 << rng.below(8)),
                    _ => (rng.below(95) as u8) + 32,
                };
            }
        }
        _ => {
            // Move a line elsewhere.
            let (start, end) = line(rng, input);
            let piece: Vec<u8> = input.drain(start..end).collect();
            let at = boundary(rng, input);
            insert(input, at, &piece);
        }
    }
}

fn insert(input: &mut Vec<u8>, at: usize, piece: &[u8]) {
    input.splice(at..at, piece.iter().copied());
}

/// A position, usually between two tokens.
fn boundary(rng: &mut Rng, input: &[u8]) -> usize {
    let at = rng.below(input.len() + 1);
    if rng.one_in(4) {
        return at;
    }
    (at..input.len()).find(|&i| !is_word(input[i]) || i == 0 || !is_word(input[i - 1])).unwrap_or(input.len())
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b':' || b == b'$' || b >= 0x80
}

/// The byte range of a word or punctuation character.
fn token(rng: &mut Rng, input: &[u8]) -> Option<(usize, usize)> {
    if input.is_empty() {
        return None;
    }
    let mut start = rng.below(input.len());
    if !is_word(input[start]) {
        return Some((start, start + 1));
    }
    while start > 0 && is_word(input[start - 1]) {
        start -= 1;
    }
    let mut end = start;
    while end < input.len() && is_word(input[end]) {
        end += 1;
    }
    Some((start, end))
}

/// A stretch of text: a token, a line, or any range, mostly short.
fn range(rng: &mut Rng, input: &[u8]) -> (usize, usize) {
    match rng.below(3) {
        0 => token(rng, input).unwrap_or((0, 0)),
        1 => line(rng, input),
        _ => {
            let start = rng.below(input.len() + 1);
            let len = rng.size(input.len() - start + 1) - 1;
            (start, start + len)
        }
    }
}

fn line(rng: &mut Rng, input: &[u8]) -> (usize, usize) {
    let at = rng.below(input.len() + 1);
    let start = input[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = input[at..].iter().position(|&b| b == b'\n').map_or(input.len(), |i| at + i + 1);
    (start, end)
}
