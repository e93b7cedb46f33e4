; Syntax highlighting for Puppet.

(comment) @comment

[
  "if" "elsif" "else" "unless" "case"
  "class" "define" "node" "function" "plan" "type" "inherits" "apply"
  "and" "or" "in"
] @keyword

(reserved_word) @keyword

(statement_call function: (name) @function.builtin)
(function_call function: (name) @function.call)
(function_call function: (type_name) @type)
(method_call method: (name) @function.method)

(class_definition name: (_) @type.definition)
(class_definition parent: (_) @type)
(define_definition name: (_) @type.definition)
(plan_definition name: (_) @type.definition)
(function_definition name: (_) @function)
(type_alias name: (_) @type.definition)
(type_definition name: (type_name) @type.definition)

(resource_declaration type: (_) @type)
(resource_defaults type: (type_name) @type)
(collector type: (type_name) @type)
(type_name) @type

(attribute name: (attribute_name) @property)
(attribute name: (splat_name) @operator)
(parameter name: (variable) @variable.parameter)

(variable) @variable
(interpolation ["${" "}"] @punctuation.special)

(string) @string
(heredoc_start) @string.special
(heredoc_body) @string
(heredoc_end) @string.special
(escape_sequence) @string.escape
(regex) @string.regexp
(hostname) @string.special

(number) @number
(boolean) @boolean
[(undef) (default)] @constant.builtin

[
  "=" "+=" "-=" "==" "!=" "<" "<=" ">" ">=" "=~" "!~" "+" "-" "*" "/" "%" "<<" ">>" "!"
  "->" "~>" "<-" "<~" "=>" "+>" "?" "@" "@@" "<|" "|>" "<<|" "|>>"
] @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ";" ":" "." "|"] @punctuation.delimiter
