//! The typed syntax tree: what lowering makes of each construct.

use mplint::syntax::ast::*;
use mplint::syntax::parse_file;

fn parse(text: &str) -> Manifest {
    let parsed = parse_file("t.pp", text.as_bytes().to_vec());
    assert!(parsed.problem.is_none(), "{text}: {:?}", parsed.problem);
    parsed.manifest.expect("lowered")
}

fn only(text: &str) -> Expr {
    let mut manifest = parse(text);
    assert_eq!(manifest.statements.len(), 1, "{text}: {:?}", manifest.statements);
    manifest.statements.remove(0)
}

fn assigned_value(text: &str) -> Expr {
    match only(text).kind {
        ExprKind::Assignment { value, .. } => *value,
        other => panic!("not an assignment: {other:?}"),
    }
}

fn string_parts(expr: &Expr) -> &[StringPart] {
    match &expr.kind {
        ExprKind::Str(s) => &s.parts,
        other => panic!("not a string: {other:?}"),
    }
}

fn var(name: &str) -> ExprKind {
    ExprKind::Variable(Variable { name: name.into() })
}

#[test]
fn interpolated_names_are_variables_as_in_puppet() {
    let value = assigned_value("$s = \"a $x b ${y} ${z['k']} ${::fqdn} ${w.upcase} ${1} ${type}\"\n");
    let interpolated: Vec<&ExprKind> = string_parts(&value)
        .iter()
        .filter_map(|p| match p {
            StringPart::Interpolation(e) => Some(&e.kind),
            StringPart::Text(_) => None,
        })
        .collect();
    assert_eq!(interpolated[0], &var("x"));
    assert_eq!(interpolated[1], &var("y"));
    match interpolated[2] {
        ExprKind::Access { object, .. } => assert_eq!(object.kind, var("z")),
        other => panic!("{other:?}"),
    }
    assert_eq!(interpolated[3], &var("::fqdn"));
    match interpolated[4] {
        ExprKind::MethodCall(call) => assert_eq!(call.object.kind, var("w")),
        other => panic!("{other:?}"),
    }
    assert_eq!(interpolated[5], &var("1"));
    assert_eq!(interpolated[6], &var("type"));
}

#[test]
fn interpolated_keywords_are_variables_as_in_puppet() {
    let value = assigned_value(
        "$s = \"${in['name']} ${in['p'].upcase()} ${if.size + 1} ${default} ${x['a'] == 'b'} ${y + 1} ${default == 1}\"\n",
    );
    let interpolated: Vec<&ExprKind> = string_parts(&value)
        .iter()
        .filter_map(|p| match p {
            StringPart::Interpolation(e) => Some(&e.kind),
            StringPart::Text(_) => None,
        })
        .collect();
    match interpolated[0] {
        ExprKind::Access { object, .. } => assert_eq!(object.kind, var("in")),
        other => panic!("{other:?}"),
    }
    match interpolated[1] {
        ExprKind::MethodCall(call) => match &call.object.kind {
            ExprKind::Access { object, .. } => assert_eq!(object.kind, var("in")),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    match interpolated[2] {
        ExprKind::Binary { left, .. } => match &left.kind {
            ExprKind::MethodCall(call) => assert_eq!(call.object.kind, var("if")),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    assert_eq!(interpolated[3], &var("default"));
    match interpolated[4] {
        ExprKind::Binary { left, .. } => match &left.kind {
            ExprKind::Access { object, .. } => assert_eq!(object.kind, var("x")),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    // Followed by an operator, the head stays what it is.
    match interpolated[5] {
        ExprKind::Binary { left, .. } => assert_eq!(left.kind, ExprKind::Name("y".into())),
        other => panic!("{other:?}"),
    }
    match interpolated[6] {
        ExprKind::Binary { left, .. } => assert_eq!(left.kind, ExprKind::Default),
        other => panic!("{other:?}"),
    }
}

#[test]
fn string_escapes_are_decoded() {
    let value = assigned_value(r#"$s = "tab\there \$x \"q\" \u{263A} \d""#);
    assert_eq!(string_parts(&value), &[StringPart::Text("tab\there $x \"q\" \u{263A} \\d".into())]);
    let single = assigned_value(r"$s = 'it\'s \\ \n'");
    assert_eq!(string_parts(&single), &[StringPart::Text(r"it's \ \n".into())]);
}

#[test]
fn heredoc_margin_trim_and_interpolation() {
    let value = assigned_value("$x = @(\"END\")\n    Hello ${name},\n      indented\n    | - END\n");
    let parts = string_parts(&value);
    assert_eq!(parts[0], StringPart::Text("Hello ".into()));
    assert!(matches!(&parts[1], StringPart::Interpolation(e) if e.kind == var("name")));
    assert_eq!(parts[2], StringPart::Text(",\n  indented".into()));

    let plain = assigned_value("$x = @(END)\n  $not_a_var\n  END\n");
    assert_eq!(string_parts(&plain), &[StringPart::Text("  $not_a_var\n".into())]);
}

#[test]
fn two_heredocs_on_one_line_get_their_own_bodies() {
    match only("foo(@(A), @(B))\nfirst\nA\nsecond\nB\n").kind {
        ExprKind::Call(call) => {
            assert_eq!(string_parts(&call.args[0]), &[StringPart::Text("first\n".into())]);
            assert_eq!(string_parts(&call.args[1]), &[StringPart::Text("second\n".into())]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn statement_calls_and_function_calls() {
    let manifest = parse("include a, b::c\nnotice($x)\n");
    match &manifest.statements[0].kind {
        ExprKind::Call(call) => {
            assert_eq!(call.name, "include");
            assert!(!call.parenthesized);
            assert_eq!(call.args.len(), 2);
            assert_eq!(call.args[1].kind, ExprKind::Name("b::c".into()));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&manifest.statements[1].kind, ExprKind::Call(c) if c.parenthesized && c.name == "notice"));
}

#[test]
fn resources_defaults_overrides_and_collectors() {
    let manifest = parse(
        "@@file { ['/a', '/b']: mode => '0644'; '/c': * => $h }\nFile { owner => root }\nFile['/a'] { mode +> '1' }\nUser <| tag == 'x' |>\n",
    );
    match &manifest.statements[0].kind {
        ExprKind::Resource(r) => {
            assert_eq!(r.form, ResourceForm::Exported);
            assert_eq!(r.type_name().as_deref(), Some("file"));
            assert_eq!(r.bodies.len(), 2);
            assert_eq!(r.bodies[1].attributes[0].name, "*");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&manifest.statements[1].kind, ExprKind::ResourceDefaults(_)));
    match &manifest.statements[2].kind {
        ExprKind::ResourceOverride(o) => assert_eq!(o.attributes[0].op, AttributeOp::Append),
        other => panic!("{other:?}"),
    }
    assert!(matches!(&manifest.statements[3].kind, ExprKind::Collector(c) if !c.exported && c.query.is_some()));
}

#[test]
fn a_comma_may_open_the_attributes() {
    match only("notify { 'x':, message => 'y'; 'z':, }\n").kind {
        ExprKind::Resource(r) => {
            assert_eq!(r.bodies[0].attributes.len(), 1);
            assert_eq!(r.bodies[0].attributes[0].name, "message");
            assert!(r.bodies[1].attributes.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn any_expression_parses_as_a_resource_type() {
    match only("@$type { 'x': * => $h }\n").kind {
        ExprKind::Resource(r) => {
            assert_eq!(r.form, ResourceForm::Virtual);
            assert_eq!(r.type_expr.kind, var("type"));
            assert_eq!(r.type_name(), None);
        }
        other => panic!("{other:?}"),
    }
    // Without a title Puppet's parser rejects it, at the type.
    let parsed = parse_file("t.pp", b"$x = 1\n  $type { mode => '0644' }\n".to_vec());
    let problem = parsed.problem.expect("a syntax problem");
    assert_eq!((problem.span.start_pos.line, problem.span.start_pos.column), (2, 3));
    assert!(problem.message.starts_with("Expression is not valid as a resource"), "{}", problem.message);
}

#[test]
fn definitions_carry_names_parameters_and_parents() {
    let manifest = parse(
        "class ::a::b (String $x = 'd', $y) inherits a { }\ndefine d::e ($p) { }\nnode 'x.example.com', /^web/, default { }\nnode db01.example.com { }\n",
    );
    match &manifest.statements[0].kind {
        ExprKind::Class(c) => {
            assert_eq!(c.name, "a::b");
            assert_eq!(c.params.len(), 2);
            assert_eq!(c.params[0].name, "x");
            assert!(c.params[0].type_expr.is_some() && c.params[0].default.is_some());
            assert_eq!(c.parent.as_ref().map(|p| p.0.as_str()), Some("a"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&manifest.statements[1].kind, ExprKind::Define(d) if d.name == "d::e"));
    match &manifest.statements[2].kind {
        ExprKind::Node(n) => {
            assert!(matches!(&n.matchers[0], NodeMatcher::Name(name, _) if name == "x.example.com"));
            assert!(matches!(&n.matchers[1], NodeMatcher::Regex(re, _) if re == "^web"));
            assert!(matches!(&n.matchers[2], NodeMatcher::Default(_)));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&manifest.statements[3].kind, ExprKind::Node(n) if matches!(&n.matchers[0], NodeMatcher::Name(name, _) if name == "db01.example.com"))
    );
}

#[test]
fn conditionals_flatten_elsif() {
    match only("if $a { } elsif $b { } elsif $c { } else { $x = 1 }\n").kind {
        ExprKind::If(i) => {
            assert_eq!(i.branches.len(), 3);
            assert_eq!(i.else_body.as_ref().unwrap().statements.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    match only("case $x { 'a', 'b': { } default: { } }\n").kind {
        ExprKind::Case(c) => {
            assert_eq!(c.options.len(), 2);
            assert_eq!(c.options[0].matches.len(), 2);
            assert_eq!(c.options[1].matches[0].kind, ExprKind::Default);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn spans_are_one_based_lines_and_character_columns() {
    let manifest = parse("# héllo\n  $x = 'é'\n");
    let span = manifest.statements[0].span;
    assert_eq!((span.start_pos.line, span.start_pos.column), (2, 3));
    assert_eq!((span.end_pos.line, span.end_pos.column), (2, 11));
    assert_eq!(manifest.comments.len(), 1);
}

#[test]
fn lowercase_resource_without_title_is_a_call_with_a_hash() {
    match only("ensure_packages { ensure => present }\n").kind {
        ExprKind::Call(call) => {
            assert_eq!(call.name, "ensure_packages");
            assert!(matches!(&call.args[0].kind, ExprKind::Hash(pairs) if pairs.len() == 1));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn removed_orchestration_syntax_is_a_clear_error() {
    let parsed = parse_file("t.pp", b"application lamp() { }\n".to_vec());
    let problem = parsed.problem.expect("rejected");
    assert!(problem.message.contains("application orchestration"), "{}", problem.message);
    // Blocks with statements: the first statement is where Puppet stops too
    // (`$e = 1` at 2:6, `notify` at 4:3); the message names the construct.
    for (text, keyword, line) in [
        ("site {\n  $e = 1\n  notify { 'x': }\n}\n", "'site'", 2),
        ("application app (\n  $n = 1\n) {\n  notify { 'x': }\n}\n", "'application'", 4),
        ("application app {\n  notify { 'x': }\n}\n", "'application'", 2),
    ] {
        let problem = parse_file("t.pp", text.as_bytes().to_vec()).problem.expect("rejected");
        assert!(problem.message.contains(&format!("{keyword} belongs to application orchestration")), "{problem:?}");
        assert_eq!(problem.span.start_pos.line, line, "{problem:?}");
    }
    // Other blocks are not taken for one.
    let problem = parse_file("t.pp", b"class a {\n  $y = 1 $$\n}\n".to_vec()).problem.expect("rejected");
    assert_eq!(problem.message, "unexpected '$$'");
}

/// Values as Puppet 7.23 computes them (`../shared/oracle/puppet-compile.rb`):
/// `"Hello World,\n  indented \\t World"` and `"  a\tb $name2\n"`.
#[test]
fn heredoc_escapes_only_where_enabled() {
    let value = assigned_value("$x = @(\"END\")\n    Hello ${n},\n      indented \\t $n\n    | - END\n");
    let texts: Vec<&str> = string_parts(&value)
        .iter()
        .filter_map(|p| match p {
            StringPart::Text(t) => Some(t.as_str()),
            StringPart::Interpolation(_) => None,
        })
        .collect();
    assert_eq!(texts, ["Hello ", ",\n  indented \\t "]);

    let value = assigned_value("$y = @(END/t)\n  a\\tb $n\n  END\n");
    assert_eq!(string_parts(&value), &[StringPart::Text("  a\tb $n\n".into())]);
}

#[test]
fn an_unclosed_parenthesis_in_a_condition_is_placed_at_its_line_not_at_the_definition() {
    // Puppet stops at the `}` closing the branch (9:3); the statement's
    // opening keyword (1:1, hundreds of lines up in real files) is not
    // where the fault is: the condition's line is.
    let text = "define foo (\n  $ensure = 'running',\n) {\n  if $ensure == 'running' {\n    notice('run')\n  }\n  elsif ($ensure in ['present', 'absent'] {\n    notice('stop')\n  }\n}\nfoo { 'a': }\n";
    let problem = parse_file("t.pp", text.as_bytes().to_vec()).problem.expect("rejected");
    assert_eq!((problem.span.start_pos.line, problem.span.start_pos.column), (7, 21), "{problem:?}");
    let problem =
        parse_file("t.pp", b"$e = 1\nif ($e in [1, 2] {\n  notice(1)\n}\n".to_vec()).problem.expect("rejected");
    assert_eq!(problem.span.start_pos.line, 2, "{problem:?}");
}
