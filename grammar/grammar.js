/**
 * Tree-sitter grammar for the Puppet language (Puppet 4 to 8).
 *
 * Context-sensitive tokens (heredocs, string content, regex versus division,
 * `[` and `(` that depend on the preceding whitespace) come from the external
 * scanner in src/scanner.c.
 */

// Binding strength of expression operators, weakest first, following
// Puppet's own operator table.
const PREC = {
  or: 1,
  and: 2,
  select: 3,
  relational: 4, // < <= > >=
  equality: 5, // == !=
  shift: 6,
  additive: 7,
  multiplicative: 8,
  match: 9,
  in: 10,
  unary: 11, // unary minus, splat
  not: 12,
  collect: 13,
  postfix: 14, // access, call, method call
};

// Names that Puppet calls as functions when followed by arguments without
// parentheses (`include a, b`, `notice $x`).
const STATEMENT_FUNCTIONS = [
  'include', 'require', 'contain', 'realize', 'tag',
  'debug', 'info', 'notice', 'warning', 'err', 'fail', 'import',
  'break', 'next', 'return',
];

// Every keyword; all of them may name a resource attribute.
const KEYWORDS = [
  'and', 'apply', 'attr', 'case', 'class', 'default', 'define', 'else', 'elsif',
  'false', 'function', 'if', 'in', 'inherits', 'node', 'or', 'plan', 'private',
  'true', 'type', 'undef', 'unless',
];

// Keywords that form a complete expression by themselves.
const VALUE_KEYWORDS = ['attr', 'default', 'false', 'private', 'true', 'undef'];

// Whitespace as Puppet's lexer sees it: space, tab, carriage return, line
// feed and the Unicode space separators (no-break space, em space, ...).
// Form feed and vertical tab are not whitespace to Puppet.
const WHITESPACE = /[ \t\r\n\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)));
const commaSep = (rule) => optional(commaSep1(rule));
// `object.method(arguments) |params| { … }`, the arguments and lambda optional.
const methodCallOn = ($, object) => prec.right(PREC.postfix, seq(
  field('object', object),
  '.',
  field('method', choice($.name, alias('type', $.name))),
  optional(seq($._call_paren, field('arguments', $.arguments))),
  optional(field('lambda', $.lambda)),
));

module.exports = grammar({
  name: 'puppet',

  word: ($) => $.name,

  // Never a bare word, where a name would do either: a stray `else` is an
  // error at the `else`, as in Puppet.
  reserved: {
    global: (_) => ['else', 'elsif'],
  },

  extras: ($) => [WHITESPACE, $.comment, $.heredoc_body],

  externals: ($) => [
    $.heredoc_start,
    $._heredoc_body_start,
    $.heredoc_content,
    $.heredoc_end,
    $.string_content,
    $.escape_sequence,
    $.regex,
    '/',
    $._access_bracket,
    $._call_paren,
    $._error_sentinel,
    '${',
    $._keyword_variable,
  ],

  supertypes: ($) => [$._expression, $._statement],

  inline: ($) => [$._resource_type, $._evaluated_resource_type, $._block],

  rules: {
    manifest: ($) => repeat($._statement_item),

    _statement_item: ($) => choice($._statement, ';'),

    _statement: ($) => choice(
      $.class_definition,
      $.define_definition,
      $.node_definition,
      $.function_definition,
      $.plan_definition,
      $.type_alias,
      $.type_definition,
      $.statement_call,
      $._apply_result,
      $._assignment_level,
    ),

    _block: ($) => seq('{', repeat($._statement_item), '}'),

    block: ($) => $._block,

    // ---------------------------------------------------------------- definitions

    class_definition: ($) => seq(
      'class',
      field('name', $._class_name),
      optional(field('parameters', $.parameter_list)),
      optional(seq('inherits', field('parent', choice($._class_name, $.default)))),
      field('body', $.block),
    ),

    define_definition: ($) => seq(
      'define',
      field('name', $._class_name),
      optional(field('parameters', $.parameter_list)),
      field('body', $.block),
    ),

    plan_definition: ($) => seq(
      'plan',
      field('name', $._class_name),
      optional(field('parameters', $.parameter_list)),
      field('body', $.block),
    ),

    function_definition: ($) => seq(
      'function',
      field('name', $._class_name),
      optional(field('parameters', $.parameter_list)),
      optional(field('return_type', $.return_type)),
      field('body', $.block),
    ),

    apply_block: ($) => seq(
      'apply',
      $._call_paren,
      commaSep1($._argument),
      optional(','),
      ')',
      field('body', $.block),
    ),

    // A plan calls methods on the results of `apply(targets) { … }`.
    _apply_result: ($) => choice($.apply_block, alias($.apply_method_call, $.method_call)),

    apply_method_call: ($) => methodCallOn($, $._apply_result),

    return_type: ($) => seq('>>', $._type_expression),

    _class_name: ($) => choice($.name, $.type_name),

    node_definition: ($) => seq(
      'node',
      field('matchers', $.node_matchers),
      optional(seq('inherits', field('parent', $._node_matcher))),
      field('body', $.block),
    ),

    node_matchers: ($) => seq(commaSep1($._node_matcher), optional(',')),

    _node_matcher: ($) => choice($.hostname, $.string, $.regex, $.default),

    // Unquoted host names such as `web01.example.com` or `192.168.0.1`.
    hostname: ($) => prec.right(seq(
      choice($.name, $.number),
      repeat(seq(token.immediate('.'), alias($._hostname_part, $.name))),
    )),

    _hostname_part: (_) => token.immediate(/[a-zA-Z0-9_][a-zA-Z0-9_-]*/),

    type_alias: ($) => seq(
      'type',
      field('name', $._type_expression),
      '=',
      choice(
        field('value', $._expression),
        // `type T = Object { … }`: the type's body as a hash.
        prec(1, seq(field('value', $.type_name), field('body', $.hash))),
      ),
    ),

    type_definition: ($) => seq(
      'type',
      field('name', $.type_name),
      optional(seq('inherits', field('parent', $.type_name))),
      field('body', $.block),
    ),

    parameter_list: ($) => seq(
      '(',
      optional(seq(commaSep1($.parameter), optional(','))),
      ')',
    ),

    parameter: ($) => seq(
      optional(field('type', $._type_expression)),
      optional(field('captures_rest', '*')),
      field('name', $.variable),
      optional(seq('=', field('default', $._expression))),
    ),

    _type_expression: ($) => choice($.type_name, alias($.type_access, $.access)),

    type_access: ($) => seq(
      field('object', $.type_name),
      $._access_bracket,
      field('index', $.access_arguments),
      ']',
    ),

    // ---------------------------------------------------------------- statements

    statement_call: ($) => prec.right(seq(
      field('function', alias(choice(...STATEMENT_FUNCTIONS), $.name)),
      optional(field('arguments', alias($._bare_arguments, $.arguments))),
    )),

    _bare_arguments: ($) => commaSep1($._argument),

    _assignment_level: ($) => choice($.assignment, $._relationship_level),

    assignment: ($) => prec.right(seq(
      field('left', $._relationship_level),
      field('operator', choice('=', '+=', '-=')),
      // A plan keeps the results of `apply(targets) { … }`.
      field('right', choice($._assignment_level, $._apply_result)),
    )),

    _relationship_level: ($) => choice($.relationship, $._resource_level),

    relationship: ($) => prec.left(seq(
      field('left', $._relationship_level),
      field('operator', choice('->', '~>', '<-', '<~')),
      field('right', $._resource_level),
    )),

    _resource_level: ($) => choice(
      $.resource_declaration,
      $.resource_defaults,
      $._expression,
    ),

    // `file { 'a': ... ; 'b': ... }`, `class { 'x': }`, `@user { ... }`.
    resource_declaration: ($) => prec(1, seq(
      optional(field('form', choice('@', '@@'))),
      // `fail { 'x': }` declares a resource of type `fail`: Puppet reads
      // a statement function's name before `{` as a resource type.
      field('type', choice($._resource_type, $._evaluated_resource_type, alias(choice(...STATEMENT_FUNCTIONS), $.name))),
      '{',
      $.resource_body,
      repeat(seq(';', $.resource_body)),
      optional(';'),
      '}',
    )),

    _resource_type: ($) => choice(
      $.name,
      alias('class', $.name),
      $.type_name,
      $.access,
    ),

    // Types Puppet parses but never accepts: evaluating a titled resource
    // fails (`illegal-resource-type`), defaults are a parse error (lowering).
    _evaluated_resource_type: ($) => choice($.variable, $.string, $.parenthesized),

    resource_body: ($) => seq(
      field('title', $._expression),
      ':',
      optional($.attributes),
    ),

    // `File { mode => '0644' }` (defaults) and `File['x'] { mode => '0600' }`
    // (override): a resource expression without a title.
    resource_defaults: ($) => prec(1, seq(
      field('type', choice($._resource_type, $._evaluated_resource_type)),
      '{',
      optional($.attributes),
      '}',
    )),

    // Puppet's list of attributes may be empty before its first comma:
    // `notify { 'x':, message => 'y' }` and `File { , }` are valid.
    attributes: ($) => choice(
      ',',
      seq(optional(','), commaSep1($.attribute), optional(',')),
    ),

    attribute: ($) => seq(
      field('name', choice($.attribute_name, alias('*', $.splat_name))),
      field('operator', choice('=>', '+>')),
      field('value', $._expression),
    ),

    attribute_name: ($) => choice($.name, ...KEYWORDS, ...STATEMENT_FUNCTIONS),

    // ---------------------------------------------------------------- expressions

    _expression: ($) => choice(
      $.binary,
      $.unary,
      $.selector,
      $.access,
      $.function_call,
      $.method_call,
      $.collector,
      $._primary,
    ),

    _primary: ($) => choice(
      $.variable,
      $.name,
      $.type_name,
      $.number,
      $.boolean,
      $.undef,
      $.default,
      $.string,
      $.heredoc,
      $.regex,
      $.array,
      $.hash,
      $.parenthesized,
      $.if,
      $.unless,
      $.case,
      alias(choice('attr', 'private'), $.reserved_word),
      // `in` in `${in['x']}`: the scanner finds the keywords that Puppet's
      // lexer reads as variables, as the names are.
      alias($._keyword_variable, $.name),
      // `tag == 'x'` in a query, `require => ...` as a hash key.
      prec(-1, alias(choice(...STATEMENT_FUNCTIONS), $.name)),
    ),

    binary: ($) => {
      const table = [
        [PREC.or, 'or'],
        [PREC.and, 'and'],
        [PREC.relational, choice('<', '<=', '>', '>=')],
        [PREC.equality, choice('==', '!=')],
        [PREC.shift, choice('<<', '>>')],
        [PREC.additive, choice('+', '-')],
        [PREC.multiplicative, choice('*', '/', '%')],
        [PREC.match, choice('=~', '!~')],
        [PREC.in, 'in'],
      ];
      return choice(...table.map(([p, op]) => prec.left(p, seq(
        field('left', $._expression),
        field('operator', op),
        field('right', $._expression),
      ))));
    },

    unary: ($) => choice(
      prec(PREC.not, seq(field('operator', '!'), field('operand', $._expression))),
      prec(PREC.unary, seq(field('operator', choice('-', '*')), field('operand', $._expression))),
    ),

    selector: ($) => prec.left(PREC.select, seq(
      field('value', $._expression),
      '?',
      choice(
        seq('{', optional(seq(commaSep1($.selector_entry), optional(','))), '}'),
        $.selector_entry,
      ),
    )),

    // A `{` after `?` always opens the braced form, as in Puppet.
    selector_entry: ($) => prec.left(1, seq(
      field('match', $._expression),
      '=>',
      field('value', $._expression),
    )),

    access: ($) => prec(PREC.postfix, seq(
      field('object', $._expression),
      $._access_bracket,
      field('index', $.access_arguments),
      ']',
    )),

    access_arguments: ($) => seq(commaSep1(choice($._expression, $.pair)), optional(',')),

    function_call: ($) => prec.right(PREC.postfix, seq(
      field('function', choice(
        $.name,
        $.type_name,
        // `Integer[0, 9]('5')`: a type called to make a value.
        $.access,
        alias(choice('type', ...STATEMENT_FUNCTIONS), $.name),
      )),
      $._call_paren,
      field('arguments', $.arguments),
      optional(field('lambda', $.lambda)),
    )),

    arguments: ($) => seq(
      optional(seq(commaSep1($._argument), optional(','))),
      ')',
    ),

    // A plan returns or passes on the results of `apply(targets) { … }`.
    _argument: ($) => choice($._assignment_level, $.pair, $._apply_result),

    method_call: ($) => methodCallOn($, $._expression),

    lambda: ($) => seq(
      '|',
      optional(seq(commaSep1($.parameter), optional(','))),
      '|',
      optional(field('return_type', $.return_type)),
      field('body', $.block),
    ),

    collector: ($) => prec.right(PREC.collect, seq(
      field('type', $._expression),
      choice(
        seq(field('kind', '<|'), optional(field('query', $._expression)), '|>'),
        seq(field('kind', '<<|'), optional(field('query', $._expression)), '|>>'),
      ),
      optional(seq('{', optional(field('attributes', $.attributes)), '}')),
    )),

    parenthesized: ($) => seq('(', $._assignment_level, ')'),

    if: ($) => seq(
      'if',
      field('condition', $._expression),
      field('consequence', $.block),
      repeat(field('alternative', $.elsif)),
      optional(field('alternative', $.else)),
    ),

    elsif: ($) => seq(
      'elsif',
      field('condition', $._expression),
      field('consequence', $.block),
    ),

    else: ($) => seq('else', field('body', $.block)),

    // Puppet's `unless` takes an `else` but no `elsif`.
    unless: ($) => seq(
      'unless',
      field('condition', $._expression),
      field('consequence', $.block),
      optional(field('alternative', $.else)),
    ),

    case: ($) => seq(
      'case',
      field('value', $._expression),
      '{',
      repeat($.case_option),
      '}',
    ),

    case_option: ($) => seq(
      field('matches', $.case_matches),
      ':',
      field('body', $.block),
    ),

    case_matches: ($) => seq(commaSep1($._expression), optional(',')),

    array: ($) => seq(
      '[',
      optional(seq(commaSep1($._argument), optional(','))),
      ']',
    ),

    hash: ($) => seq(
      '{',
      optional(seq(commaSep1($.pair), optional(','))),
      '}',
    ),

    pair: ($) => seq(
      field('key', choice($._expression, alias(choice('type', 'function'), $.name))),
      '=>',
      field('value', $._expression),
    ),

    // ---------------------------------------------------------------- literals

    variable: (_) => token(seq('$', /(::)?([a-zA-Z0-9_]+::)*[a-zA-Z0-9_]+/)),

    // Bare words: `present`, `foo::bar`, `my-word`.
    name: (_) => token(/(::)?[a-z_]([a-zA-Z0-9_-]*[a-zA-Z0-9_])?(::[a-z_]([a-zA-Z0-9_-]*[a-zA-Z0-9_])?)*/),

    // Capitalised references: `File`, `Apache::Vhost`, `::Foo`.
    type_name: (_) => token(/(::)?[A-Z][a-zA-Z0-9_]*(::[A-Z][a-zA-Z0-9_]*)*/),

    number: (_) => token(/0[xX][0-9a-fA-F]+|[0-9]+(\.[0-9]+)?([eE]-?[0-9]+)?/),

    boolean: (_) => choice('true', 'false'),

    undef: (_) => 'undef',

    default: (_) => 'default',

    string: ($) => choice($._single_quoted, $._double_quoted),

    _single_quoted: (_) => token(seq("'", /([^'\\]|\\(.|\n))*/, "'")),

    _double_quoted: ($) => seq(
      '"',
      repeat(choice($.string_content, $.escape_sequence, $.interpolation, $.variable)),
      '"',
    ),

    // Puppet's lexer turns the first token of an interpolation into a
    // variable when it is a name, number or keyword followed by `[` or `.`,
    // or alone: `${x}`, `${x['a'].m + 1}` and `${in['a']}` read `$x` and
    // `$in`. Names and numbers parse as themselves (lowering makes them
    // variables); a keyword comes from the scanner as `_keyword_variable`.
    // Keywords are valid here only so that they lex as keywords when they
    // are not variables: `${in + 1}` is an error. `${true}` stays a value.
    // `plan` and `apply` are names to Puppet, so they are left out.
    interpolation: ($) => seq(
      '${',
      choice($._assignment_level, $._keyword_name),
      '}',
    ),

    _keyword_name: ($) => alias(choice(...KEYWORDS.filter(
      (k) => !VALUE_KEYWORDS.includes(k) && k !== 'plan' && k !== 'apply',
    )), $.name),

    heredoc: ($) => $.heredoc_start,

    heredoc_body: ($) => seq(
      $._heredoc_body_start,
      repeat(choice($.heredoc_content, $.escape_sequence, $.interpolation, $.variable)),
      $.heredoc_end,
    ),

    comment: (_) => token(choice(
      seq('#', /[^\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),
  },
});
