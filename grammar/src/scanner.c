// External scanner for the Puppet grammar.
//
// Handles what a context-free lexer cannot:
//  - heredocs: `@(TAG)` opens a text whose body starts on the next line, after
//    the rest of the current line has been parsed, and several may be pending;
//  - the content of double-quoted strings and heredoc bodies, which stops at
//    `$var`, `${` and escapes;
//  - `/`: a regular expression where an operand is expected, else division;
//  - `[` directly after an expression is access, after whitespace an array;
//  - `(` first on its line never calls the expression before it;
//  - a keyword that starts an interpolation is a variable when Puppet's lexer
//    makes it one: `${in}`, `${in['x']}`, `${in.m}`.

#include "tree_sitter/alloc.h"
#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum TokenType {
  HEREDOC_START,
  HEREDOC_BODY_START,
  HEREDOC_CONTENT,
  HEREDOC_END,
  STRING_CONTENT,
  ESCAPE_SEQUENCE,
  REGEX,
  DIVIDE,
  ACCESS_BRACKET,
  CALL_PAREN,
  ERROR_SENTINEL,
  INTERPOLATION_START,
  KEYWORD_VARIABLE,
};

// Heredoc flags: interpolation and the escapes enabled after `/`.
enum {
  HD_INTERPOLATE = 1 << 0,
  HD_ESC_T = 1 << 1,
  HD_ESC_R = 1 << 2,
  HD_ESC_N = 1 << 3,
  HD_ESC_S = 1 << 4,
  HD_ESC_U = 1 << 5,
  HD_ESC_DOLLAR = 1 << 6,
  HD_ESC_L = 1 << 7,
};
#define HD_ESCAPES (HD_ESC_T | HD_ESC_R | HD_ESC_N | HD_ESC_S | HD_ESC_U | HD_ESC_DOLLAR | HD_ESC_L)

// Bounded so that the whole state fits the serialization buffer.
#define MAX_TAG 96
#define MAX_PENDING 8
#define MAX_HEADER 256

typedef struct {
  uint8_t flags;
  uint8_t tag_len;
  char tag[MAX_TAG];
} Heredoc;

typedef struct {
  Heredoc pending[MAX_PENDING];
  uint8_t count;
  bool in_body;
  // Set by the `${` that a keyword variable follows; the next token clears it.
  bool keyword_variable_next;
} Scanner;

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static inline bool is_word_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static inline bool is_hex(int32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// The Unicode space separators, which Puppet's lexer skips like spaces.
static inline bool is_unicode_space(int32_t c) {
  return c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// Blanks within a line, as Puppet's `[[:blank:]]`.
static inline bool is_blank(int32_t c) { return c == ' ' || c == '\t' || is_unicode_space(c); }

// Whitespace between tokens, as Puppet's lexer skips it (not `\f` or `\v`).
static inline bool is_space(int32_t c) { return is_blank(c) || c == '\n' || c == '\r'; }

// After a `$` has been consumed: does an interpolated variable or `${` follow?
// Consumes at most `::`; the caller has marked the end before the `$`.
static bool interpolation_follows(TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  if (c == '{' || is_word_char(c)) return true;
  if (c != ':') return false;
  advance(lexer);
  if (lexer->lookahead != ':') return false;
  advance(lexer);
  return is_word_char(lexer->lookahead);
}

// After a `\u` has been consumed: consumes `XXXX` or `{X...}` if well formed.
static bool scan_unicode_digits(TSLexer *lexer) {
  if (lexer->lookahead == '{') {
    advance(lexer);
    int digits = 0;
    while (is_hex(lexer->lookahead) && digits < 6) {
      advance(lexer);
      digits++;
    }
    if (digits == 0 || lexer->lookahead != '}') return false;
    advance(lexer);
    return true;
  }
  for (int i = 0; i < 4; i++) {
    if (!is_hex(lexer->lookahead)) return false;
    advance(lexer);
  }
  return true;
}

// Scans the escape after a consumed `\`, if `escape_char` says the character
// that follows is one. Returns whether an escape sequence was consumed.
static bool scan_escape_tail(TSLexer *lexer, bool allow_unicode, bool allow_newline) {
  int32_t c = lexer->lookahead;
  if (c == 'u') {
    if (!allow_unicode) return false;
    advance(lexer);
    return scan_unicode_digits(lexer);
  }
  if (c == '\n') {
    if (!allow_newline) return false;
    advance(lexer);
    return true;
  }
  if (c == '\r') {
    if (!allow_newline) return false;
    advance(lexer);
    if (lexer->lookahead != '\n') return false;
    advance(lexer);
    return true;
  }
  advance(lexer);
  return true;
}

// Is `c` (after a backslash) an escape in a double-quoted string?
static bool dq_escape_char(int32_t c) {
  switch (c) {
    case '\\': case '$': case '\'': case '"': case 'r': case 'n': case 't': case 's':
    case 'u': case '\n': case '\r':
      return true;
    default:
      return false;
  }
}

static bool heredoc_escape_char(uint8_t flags, int32_t c) {
  switch (c) {
    case '\\': return true;
    case 't': return flags & HD_ESC_T;
    case 'r': return flags & HD_ESC_R;
    case 'n': return flags & HD_ESC_N;
    case 's': return flags & HD_ESC_S;
    case 'u': return flags & HD_ESC_U;
    case '$': return flags & HD_ESC_DOLLAR;
    case '\n': case '\r': return flags & HD_ESC_L;
    default: return false;
  }
}

// Keywords of Puppet's lexer that it turns into a variable at the head of an
// interpolation. `true` and `false` are left out: Puppet fails on `${true}`.
static const char *const INTERPOLATED_KEYWORDS[] = {
    "and", "attr", "case", "class", "default", "define", "else", "elsif", "function",
    "if", "in", "inherits", "node", "or", "private", "type", "undef", "unless",
};

#define MAX_KEYWORD 8

static inline bool is_name_start(int32_t c) { return (c >= 'a' && c <= 'z') || c == '_'; }

// Consumes a bare word, `[a-z_]` then word characters and `-`; true if it is
// a whole keyword of INTERPOLATED_KEYWORDS (a word such as `in-x` or `in::x`
// is a name, which the grammar reads without help).
static bool scan_keyword(TSLexer *lexer) {
  char word[MAX_KEYWORD + 1];
  int len = 0;
  bool too_long = false;
  bool trailing_dash = false;
  if (!is_name_start(lexer->lookahead)) return false;
  while (is_word_char(lexer->lookahead) || lexer->lookahead == '-') {
    if (len < MAX_KEYWORD) {
      word[len++] = (char)lexer->lookahead;
    } else {
      too_long = true;
    }
    trailing_dash = lexer->lookahead == '-';
    advance(lexer);
  }
  if (too_long || trailing_dash || lexer->lookahead == ':') return false;
  word[len] = 0;
  for (size_t i = 0; i < sizeof(INTERPOLATED_KEYWORDS) / sizeof(INTERPOLATED_KEYWORDS[0]); i++) {
    if (strcmp(word, INTERPOLATED_KEYWORDS[i]) == 0) return true;
  }
  return false;
}

// Skips whitespace and comments; false on an unterminated comment.
static bool skip_space_and_comments(TSLexer *lexer) {
  for (;;) {
    int32_t c = lexer->lookahead;
    if (is_space(c)) {
      advance(lexer);
    } else if (c == '#') {
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
    } else if (c == '/') {
      advance(lexer);
      if (lexer->lookahead != '*') return false;
      advance(lexer);
      for (;;) {
        if (lexer->eof(lexer)) return false;
        int32_t d = lexer->lookahead;
        advance(lexer);
        if (d == '*' && lexer->lookahead == '/') {
          advance(lexer);
          break;
        }
      }
    } else {
      return true;
    }
  }
}

// After `${` (its end marked): does Puppet's lexer turn the first token of the
// interpolation into a variable, a keyword being that token? It does when the
// keyword is the only token, or when `.` or `[` follows it (`[` right after the
// word, as Puppet's lexer tells an access from an array). Names and numbers
// are turned the same way, but they need no help from the scanner.
static bool keyword_variable_follows(TSLexer *lexer) {
  if (!skip_space_and_comments(lexer)) return false;
  if (!scan_keyword(lexer)) return false;
  if (lexer->lookahead == '[') return true;
  if (!skip_space_and_comments(lexer)) return false;
  return lexer->lookahead == '.' || lexer->lookahead == '}';
}

// After the `$` of `${` at the token's start: consumes `${` as a token of its
// own when a keyword variable follows (`keyword_variable_next` tells the next
// scan). Otherwise the grammar's own `${` is lexed.
static bool scan_interpolation_start(Scanner *s, TSLexer *lexer) {
  advance(lexer);
  lexer->mark_end(lexer);
  if (!keyword_variable_follows(lexer)) return false;
  s->keyword_variable_next = true;
  lexer->result_symbol = INTERPOLATION_START;
  return true;
}

// Content of a double-quoted string up to `"`, an interpolation or an escape.
static bool scan_string_content(Scanner *s, TSLexer *lexer, const bool *valid) {
  bool has_content = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer) || c == '"') {
      lexer->mark_end(lexer);
      lexer->result_symbol = STRING_CONTENT;
      return has_content;
    }
    if (c == '$') {
      lexer->mark_end(lexer);
      advance(lexer);
      if (lexer->lookahead == '{' && !has_content && valid[INTERPOLATION_START]) {
        return scan_interpolation_start(s, lexer);
      }
      if (interpolation_follows(lexer)) {
        lexer->result_symbol = STRING_CONTENT;
        return has_content;
      }
      has_content = true;
      continue;
    }
    if (c == '\\') {
      lexer->mark_end(lexer);
      advance(lexer);
      if (dq_escape_char(lexer->lookahead)) {
        if (has_content) {
          lexer->result_symbol = STRING_CONTENT;
          return true;
        }
        if (valid[ESCAPE_SEQUENCE] && scan_escape_tail(lexer, true, true)) {
          lexer->mark_end(lexer);
          lexer->result_symbol = ESCAPE_SEQUENCE;
          return true;
        }
      }
      // Not an escape: the backslash is literal text.
      has_content = true;
      continue;
    }
    advance(lexer);
    has_content = true;
  }
}

// Consumes an end-tag line's prefix and tag; true if the line is the end line.
// Otherwise `consumed` says whether it consumed anything.
static bool match_end_tag(const Heredoc *h, TSLexer *lexer, bool *consumed) {
  int32_t first = lexer->lookahead;
  *consumed = is_blank(first) || first == '|' || first == '-' ||
              (h->tag_len > 0 && first == (unsigned char)h->tag[0]);
  while (is_blank(lexer->lookahead)) advance(lexer);
  if (lexer->lookahead == '|') {
    advance(lexer);
    while (is_blank(lexer->lookahead)) advance(lexer);
  }
  if (lexer->lookahead == '-') {
    advance(lexer);
    while (is_blank(lexer->lookahead)) advance(lexer);
  }
  for (int i = 0; i < h->tag_len; i++) {
    if (lexer->lookahead != (unsigned char)h->tag[i]) return false;
    advance(lexer);
  }
  while (is_blank(lexer->lookahead)) advance(lexer);
  if (lexer->lookahead == '\r') advance(lexer);
  return lexer->lookahead == '\n' || lexer->eof(lexer);
}

static void pop_heredoc(Scanner *s) {
  if (s->count == 0) return;
  memmove(&s->pending[0], &s->pending[1], sizeof(Heredoc) * (s->count - 1));
  s->count--;
  s->in_body = false;
}

// Inside a heredoc body: text, escapes and interpolations up to the end line.
static bool scan_heredoc_body(Scanner *s, TSLexer *lexer, const bool *valid) {
  const Heredoc *h = &s->pending[0];
  bool has_content = false;
  bool at_line_start = lexer->get_column(lexer) == 0;
  for (;;) {
    if (lexer->eof(lexer)) {
      lexer->mark_end(lexer);
      lexer->result_symbol = HEREDOC_CONTENT;
      return has_content;
    }
    if (at_line_start) {
      at_line_start = false;
      lexer->mark_end(lexer);
      bool consumed;
      if (match_end_tag(h, lexer, &consumed)) {
        if (has_content) {
          lexer->result_symbol = HEREDOC_CONTENT;
          return true;
        }
        lexer->mark_end(lexer);
        lexer->result_symbol = HEREDOC_END;
        pop_heredoc(s);
        return true;
      }
      // A line that starts with an interpolation or escape has no text
      // before it: no empty content token, which would never advance.
      if (consumed) has_content = true;
      continue;
    }
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      advance(lexer);
      has_content = true;
      at_line_start = true;
      continue;
    }
    if (c == '$' && (h->flags & HD_INTERPOLATE)) {
      lexer->mark_end(lexer);
      advance(lexer);
      if (lexer->lookahead == '{' && !has_content && valid[INTERPOLATION_START]) {
        return scan_interpolation_start(s, lexer);
      }
      if (interpolation_follows(lexer)) {
        lexer->result_symbol = HEREDOC_CONTENT;
        return has_content;
      }
      has_content = true;
      continue;
    }
    if (c == '\\' && (h->flags & HD_ESCAPES)) {
      lexer->mark_end(lexer);
      advance(lexer);
      if (heredoc_escape_char(h->flags, lexer->lookahead)) {
        if (has_content) {
          lexer->result_symbol = HEREDOC_CONTENT;
          return true;
        }
        if (valid[ESCAPE_SEQUENCE] &&
            scan_escape_tail(lexer, h->flags & HD_ESC_U, h->flags & HD_ESC_L)) {
          lexer->mark_end(lexer);
          lexer->result_symbol = ESCAPE_SEQUENCE;
          return true;
        }
      }
      has_content = true;
      continue;
    }
    advance(lexer);
    has_content = true;
  }
}

// The header is ASCII (checked while reading it).
static inline bool is_ascii_blank(char c) { return c == ' ' || c == '\t'; }

static void trim(const char **start, const char **end) {
  while (*start < *end && is_ascii_blank(**start)) (*start)++;
  while (*end > *start && is_ascii_blank(*(*end - 1))) (*end)--;
}

// After `@(` has been consumed: the header up to `)`, as in
// `@("TAG":syntax/escapes)`.
static bool scan_heredoc_header(Scanner *s, TSLexer *lexer) {
  char header[MAX_HEADER];
  int len = 0;
  while (lexer->lookahead != ')') {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer) || c == '\n' || c == '\r' || len >= MAX_HEADER - 1 || c > 0x7f) return false;
    header[len++] = (char)c;
    advance(lexer);
  }
  advance(lexer);
  header[len] = 0;

  const char *tag_start = header;
  const char *tag_end = header;
  while (*tag_end && *tag_end != ':' && *tag_end != '/') tag_end++;
  const char *rest = tag_end;

  uint8_t flags = 0;
  if (*rest == ':') {
    rest++;
    const char *syntax_start = rest;
    while (*rest && *rest != '/') rest++;
    const char *syntax_end = rest;
    trim(&syntax_start, &syntax_end);
    if (syntax_start == syntax_end || !(*syntax_start >= 'a' && *syntax_start <= 'z')) return false;
  }
  if (*rest == '/') {
    rest++;
    const char *escapes = rest;
    const char *escapes_end = rest + strlen(rest);
    trim(&escapes, &escapes_end);
    if (escapes == escapes_end) flags |= HD_ESCAPES;
    for (const char *e = escapes; e < escapes_end; e++) {
      uint8_t bit;
      switch (*e) {
        case 't': bit = HD_ESC_T; break;
        case 'r': bit = HD_ESC_R; break;
        case 'n': bit = HD_ESC_N; break;
        case 's': bit = HD_ESC_S; break;
        case 'u': bit = HD_ESC_U; break;
        case '$': bit = HD_ESC_DOLLAR; break;
        case 'L': bit = HD_ESC_L; break;
        default: return false;
      }
      if (flags & bit) return false;
      flags |= bit;
    }
  }

  trim(&tag_start, &tag_end);
  if (tag_end - tag_start >= 2 && *tag_start == '"' && *(tag_end - 1) == '"') {
    flags |= HD_INTERPOLATE;
    tag_start++;
    tag_end--;
    trim(&tag_start, &tag_end);
  }
  int tag_len = (int)(tag_end - tag_start);
  if (tag_len < 1 || tag_len > MAX_TAG || s->count >= MAX_PENDING) return false;

  Heredoc *h = &s->pending[s->count++];
  h->flags = flags;
  h->tag_len = (uint8_t)tag_len;
  memcpy(h->tag, tag_start, (size_t)tag_len);
  lexer->mark_end(lexer);
  lexer->result_symbol = HEREDOC_START;
  return true;
}

// After a `/` that starts a regex has been consumed.
static bool scan_regex(TSLexer *lexer) {
  for (;;) {
    if (lexer->eof(lexer)) return false;
    int32_t c = lexer->lookahead;
    advance(lexer);
    if (c == '\\') {
      if (lexer->eof(lexer)) return false;
      advance(lexer);
    } else if (c == '/') {
      lexer->mark_end(lexer);
      lexer->result_symbol = REGEX;
      return true;
    }
  }
}

static bool scan(Scanner *s, TSLexer *lexer, const bool *valid) {
  bool recovering = valid[ERROR_SENTINEL];
  // Only the token right after that `${` may be a keyword variable.
  bool keyword_variable_next = s->keyword_variable_next;
  s->keyword_variable_next = false;

  if (s->in_body && s->count > 0 && (valid[HEREDOC_CONTENT] || valid[HEREDOC_END])) {
    return scan_heredoc_body(s, lexer, valid);
  }
  if (valid[STRING_CONTENT] && !recovering) {
    return scan_string_content(s, lexer, valid);
  }

  bool saw_space = false;
  bool saw_newline = false;
  while (is_space(lexer->lookahead)) {
    if (lexer->lookahead == '\n' && s->count > 0 && !s->in_body && valid[HEREDOC_BODY_START]) {
      advance(lexer);
      lexer->mark_end(lexer);
      s->in_body = true;
      lexer->result_symbol = HEREDOC_BODY_START;
      return true;
    }
    if (lexer->lookahead == '\n') saw_newline = true;
    saw_space = true;
    skip(lexer);
  }

  if (keyword_variable_next && valid[KEYWORD_VARIABLE] && !recovering && is_name_start(lexer->lookahead)) {
    if (!scan_keyword(lexer)) return false;
    lexer->mark_end(lexer);
    lexer->result_symbol = KEYWORD_VARIABLE;
    return true;
  }

  switch (lexer->lookahead) {
    case '@':
      if (!valid[HEREDOC_START]) return false;
      advance(lexer);
      if (lexer->lookahead != '(') return false;
      advance(lexer);
      return scan_heredoc_header(s, lexer);

    case '/':
      if (recovering || !(valid[DIVIDE] || valid[REGEX])) return false;
      advance(lexer);
      if (lexer->lookahead == '*') return false;
      // After an operand `/` divides, as Puppet's lexer decides.
      if (valid[DIVIDE]) {
        lexer->mark_end(lexer);
        lexer->result_symbol = DIVIDE;
        return true;
      }
      return scan_regex(lexer);

    case '[':
      if (recovering || !valid[ACCESS_BRACKET] || saw_space) return false;
      advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = ACCESS_BRACKET;
      return true;

    case '(':
      if (recovering || !valid[CALL_PAREN] || saw_newline) return false;
      advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = CALL_PAREN;
      return true;

    default:
      return false;
  }
}

void *tree_sitter_puppet_external_scanner_create(void) {
  Scanner *s = ts_calloc(1, sizeof(Scanner));
  return s;
}

void tree_sitter_puppet_external_scanner_destroy(void *payload) { ts_free(payload); }

unsigned tree_sitter_puppet_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = payload;
  unsigned n = 0;
  buffer[n++] = (char)s->count;
  buffer[n++] = (char)s->in_body;
  buffer[n++] = (char)s->keyword_variable_next;
  for (int i = 0; i < s->count; i++) {
    const Heredoc *h = &s->pending[i];
    if (n + 2 + h->tag_len > TREE_SITTER_SERIALIZATION_BUFFER_SIZE) break;
    buffer[n++] = (char)h->flags;
    buffer[n++] = (char)h->tag_len;
    memcpy(buffer + n, h->tag, h->tag_len);
    n += h->tag_len;
  }
  return n;
}

void tree_sitter_puppet_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  Scanner *s = payload;
  s->count = 0;
  s->in_body = false;
  s->keyword_variable_next = false;
  if (length < 3) return;
  unsigned n = 0;
  uint8_t count = (uint8_t)buffer[n++];
  s->in_body = buffer[n++] != 0;
  s->keyword_variable_next = buffer[n++] != 0;
  for (int i = 0; i < count && i < MAX_PENDING && n + 2 <= length; i++) {
    Heredoc *h = &s->pending[i];
    h->flags = (uint8_t)buffer[n++];
    h->tag_len = (uint8_t)buffer[n++];
    if (h->tag_len > MAX_TAG || n + h->tag_len > length) break;
    memcpy(h->tag, buffer + n, h->tag_len);
    n += h->tag_len;
    s->count++;
  }
}

bool tree_sitter_puppet_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  return scan((Scanner *)payload, lexer, valid_symbols);
}
