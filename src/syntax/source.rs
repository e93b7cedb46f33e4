//! Source text and the mapping from byte offsets to lines and columns.

use std::path::{Path, PathBuf};

/// A 1-based line and column. Columns count characters, not bytes, as
/// Puppet's own error messages do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// A region of a source file: a byte range with the positions of both ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub start_pos: Position,
    pub end_pos: Position,
}

impl Span {
    /// Whether `other` lies within this span.
    pub fn contains(&self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        let (start, start_pos) =
            if self.start <= other.start { (self.start, self.start_pos) } else { (other.start, other.start_pos) };
        let (end, end_pos) = if self.end >= other.end { (self.end, self.end_pos) } else { (other.end, other.end_pos) };
        Span { start, end, start_pos, end_pos }
    }
}

/// Byte offsets of line starts, for turning offsets into positions.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// Offsets of UTF-8 continuation bytes, which add no column: counting
    /// them by binary search keeps positions on long lines cheap.
    continuation_bytes: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        let mut continuation_bytes = Vec::new();
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            } else if b & 0xC0 == 0x80 {
                continuation_bytes.push(i);
            }
        }
        LineIndex { line_starts, continuation_bytes }
    }

    /// The position of a byte offset in `text` (the text this index was built from).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let line_start = self.line_starts[line];
        let inside = |at: usize| self.continuation_bytes.partition_point(|&c| c < at);
        let column = (offset - line_start) - (inside(offset) - inside(line_start));
        Position { line: line as u32 + 1, column: column as u32 + 1 }
    }

    pub fn span(&self, text: &str, start: usize, end: usize) -> Span {
        Span { start, end, start_pos: self.position(text, start), end_pos: self.position(text, end) }
    }

    /// The byte range of a 1-based line, without its line break.
    pub fn line_range(&self, text: &str, line: u32) -> Option<(usize, usize)> {
        let index = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(index)?;
        let mut end = self.line_starts.get(index + 1).map_or(text.len(), |next| next - 1);
        if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some((start, end))
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Whether every character is one byte: then a column is a byte count.
    pub fn is_ascii(&self) -> bool {
        self.continuation_bytes.is_empty()
    }
}

/// A checked file: its path as the user named it and its text.
#[derive(Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    pub lines: LineIndex,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        let lines = LineIndex::new(&text);
        SourceFile { path: path.into(), text, lines }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn span(&self, start: usize, end: usize) -> Span {
        self.lines.span(&self.text, start, end)
    }

    pub fn position(&self, offset: usize) -> Position {
        self.lines.position(&self.text, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_from_one() {
        let text = "ab\nçd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), Position { line: 1, column: 1 });
        assert_eq!(index.position(text, 3), Position { line: 2, column: 1 });
        // 'd' follows the two-byte 'ç'.
        assert_eq!(index.position(text, 5), Position { line: 2, column: 2 });
        assert_eq!(index.position(text, 7), Position { line: 3, column: 1 });
    }

    #[test]
    fn positions_after_multibyte_characters_on_later_lines() {
        let text = "é\nxç€y\n";
        let index = LineIndex::new(text);
        // Line 2 starts at byte 3: 'x' 3, 'ç' 4–5, '€' 6–8, 'y' 9.
        assert_eq!(index.position(text, 9), Position { line: 2, column: 4 });
        // An offset inside a character counts that character once.
        assert_eq!(index.position(text, 7), Position { line: 2, column: 4 });
        assert_eq!(index.position(text, 10), Position { line: 2, column: 5 });
    }

    #[test]
    fn line_range_excludes_line_break() {
        let text = "one\r\ntwo";
        let index = LineIndex::new(text);
        assert_eq!(index.line_range(text, 1), Some((0, 3)));
        assert_eq!(index.line_range(text, 2), Some((5, 8)));
        assert_eq!(index.line_range(text, 3), None);
    }
}
