//! The variables that modules' templates read, for the templates code
//! renders by a literal name (`template('ntp/ntp.conf.erb')`,
//! `epp('ntp/ntp.conf.epp')`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use regex::Regex;

use super::record::FactForm;
use rustc_hash::FxHashMap as HashMap;

use super::index::FileId;
use crate::syntax::ast::{Expr, ExprKind, NameText, StringPart};
use crate::syntax::ParsedFile;

/// One variable a template reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateRead {
    pub name: String,
    pub form: FactForm,
    /// As the template writes it: `@osfamily`, `scope['::fqdn']`.
    pub written: String,
    pub line: u32,
}

/// A template and what it reads.
#[derive(Debug)]
pub struct Template {
    /// The name code renders it by: `ntp/ntp.conf.erb`.
    pub name: String,
    pub path: PathBuf,
    /// An EPP template: `epp()` evaluates it in top scope.
    pub epp: bool,
    pub reads: Vec<TemplateRead>,
}

/// The templates code renders by literal names, by those names.
#[derive(Debug, Default)]
pub struct Templates {
    templates: BTreeMap<String, Arc<Template>>,
    /// Names written `"${module_name}/x.erb"` in a module's file, by the
    /// file and the place of the name.
    in_own_module: HashMap<(FileId, usize), String>,
}

impl Templates {
    /// A text that changes whenever what these templates say changes.
    pub fn digest(&self) -> String {
        let mut in_own_module: Vec<_> = self.in_own_module.iter().collect();
        in_own_module.sort();
        format!("{:?}{:?}", self.templates, in_own_module)
    }

    /// Reads the templates that `template()` and `epp()` calls of `files`
    /// name literally, from the modules' `templates/` directories.
    /// Only reads of names `is_fact` accepts (and of `$facts`) are kept:
    /// no other variable can reach a fact.
    pub fn discover(
        files: &[ParsedFile],
        modules: &BTreeMap<String, PathBuf>,
        is_fact: impl Fn(&str) -> bool + Sync,
    ) -> Templates {
        use rayon::prelude::*;
        // Each file's names, in parallel; merged in file order.
        type Found = (BTreeSet<String>, Vec<((FileId, usize), String)>);
        let found: Vec<Found> = files
            .par_iter()
            .enumerate()
            .map(|(file_id, file)| {
                let mut names = BTreeSet::new();
                let mut in_own_module = Vec::new();
                let Some(manifest) = &file.manifest else { return (names, in_own_module) };
                // `$module_name` in a module's code is the module's name;
                // looked up only for a file that writes it.
                let mut module: Option<Option<&String>> = None;
                for statement in &manifest.statements {
                    statement.walk(&mut |e: &Expr| {
                        let ExprKind::Call(call) = &e.kind else { return };
                        let function = call.name.without_anchor();
                        let args = match function {
                            "template" => &call.args[..],
                            "epp" => &call.args[..call.args.len().min(1)],
                            _ => return,
                        };
                        for arg in args {
                            if let Some(name) = literal_text(arg) {
                                names.insert(epp_name(function, name));
                                continue;
                            }
                            let Some(rest) = own_module_name(arg) else { continue };
                            let module = *module.get_or_insert_with(|| {
                                modules.iter().find(|(_, dir)| file.source.path.starts_with(dir)).map(|(name, _)| name)
                            });
                            let Some(module) = module else { continue };
                            let name = epp_name(function, format!("{module}{rest}"));
                            in_own_module.push(((file_id, arg.span.start), name.clone()));
                            names.insert(name);
                        }
                    });
                }
                (names, in_own_module)
            })
            .collect();
        let mut names = BTreeSet::new();
        let mut in_own_module = HashMap::default();
        for (file_names, own) in found {
            names.extend(file_names);
            in_own_module.extend(own);
        }
        let templates: BTreeMap<String, Arc<Template>> = names
            .into_par_iter()
            .filter_map(|name| {
                let (module, rest) = name.split_once('/')?;
                let dir = modules.get(module)?;
                let path = dir.join("templates").join(rest);
                let text = std::fs::read_to_string(&path).ok()?;
                let epp = Path::new(rest).extension().is_some_and(|e| e == "epp");
                let mut reads = if epp { epp_reads(&text) } else { erb_reads(&text) };
                reads.retain(|read| read.form == FactForm::FactsHash || is_fact(&read.name));
                Some((name.clone(), Arc::new(Template { name, path, epp, reads })))
            })
            .collect();
        Templates { templates, in_own_module }
    }

    pub fn get(&self, name: &str) -> Option<&Arc<Template>> {
        self.templates.get(name)
    }

    /// The name a `"${module_name}/x.erb"` at `at` in `file` stands for.
    pub fn in_own_module(&self, file: FileId, at: usize) -> Option<&str> {
        self.in_own_module.get(&(file, at)).map(String::as_str)
    }
}

/// Puppet finds `epp('m/t')` as `m/t.epp`.
fn epp_name(function: &str, name: String) -> String {
    if function == "epp" && !name.ends_with(".epp") {
        format!("{name}.epp")
    } else {
        name
    }
}

/// The rest of a name written `"${module_name}/rest"`: `/rest`.
fn own_module_name(expr: &Expr) -> Option<String> {
    let ExprKind::Str(s) = &expr.kind else { return None };
    let [StringPart::Interpolation(first), StringPart::Text(rest)] = s.parts.as_slice() else { return None };
    let ExprKind::Variable(variable) = &first.kind else { return None };
    (&*variable.name == "module_name" && rest.starts_with('/')).then(|| rest.clone())
}

fn literal_text(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Str(s) => s.as_literal().map(|t| t.to_string()),
        _ => None,
    }
}

/// The code of a template's tags (`<% … %>`, `<%= … %>`), each with the
/// offset it starts at; comment tags and literal `<%%` left out.
fn tag_code(text: &str) -> Vec<(usize, &str)> {
    let mut code = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find("<%").map(|at| rest + at) {
        let after = &text[open + 2..];
        if after.starts_with('%') {
            rest = open + 3;
            continue;
        }
        let Some(close) = after.find("%>") else { break };
        if !after.starts_with('#') {
            code.push((open + 2, &after[..close]));
        }
        rest = open + 2 + close + 2;
    }
    code
}

fn line_at(text: &str, offset: usize) -> u32 {
    text[..offset].bytes().filter(|b| *b == b'\n').count() as u32 + 1
}

/// Ruby code without its comments (`#` up to the line's end, but not the
/// `#{` of an interpolation).
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|line| {
            let mut end = line.len();
            let bytes = line.as_bytes();
            for (i, b) in bytes.iter().enumerate() {
                if *b == b'#' && bytes.get(i + 1) != Some(&b'{') {
                    end = i;
                    break;
                }
            }
            // Keeps offsets: a comment becomes spaces.
            format!("{}{}", &line[..end], " ".repeat(line.len() - end))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Ruby code as its instance-variable reads are found in: comments and
/// the text of string literals blanked, interpolations kept (`#{@x}`, and
/// `#@x` as `@x`). Offsets are kept.
fn ruby_code_only(code: &str) -> String {
    enum State {
        /// Code, and how many braces it has open (inside an interpolation).
        Code(u32),
        Single,
        Double,
    }
    let bytes = code.as_bytes();
    let mut out = bytes.to_vec();
    let mut states = vec![State::Code(0)];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        match states.last_mut().expect("code is the bottom state") {
            State::Code(depth) => match c {
                // `%q(…)`, `%w[…]` and the like: text, blanked whole.
                b'%' if matches!(next, Some(b'q' | b'Q' | b'w' | b'W' | b'i' | b'I'))
                    && bytes.get(i + 2).is_some_and(|d| b"([{<|!/".contains(d)) =>
                {
                    let open = bytes[i + 2];
                    let close = match open {
                        b'(' => b')',
                        b'[' => b']',
                        b'{' => b'}',
                        b'<' => b'>',
                        other => other,
                    };
                    let mut nesting = 0;
                    let mut j = i + 3;
                    while j < bytes.len() {
                        if bytes[j] == close && nesting == 0 {
                            break;
                        }
                        if open != close && bytes[j] == open {
                            nesting += 1;
                        } else if bytes[j] == close {
                            nesting -= 1;
                        }
                        out[j] = b' ';
                        j += 1;
                    }
                    i = j + 1;
                    continue;
                }
                b'\'' => states.push(State::Single),
                b'"' => states.push(State::Double),
                b'{' => *depth += 1,
                b'}' if *depth > 0 => *depth -= 1,
                b'}' if states.len() > 1 => {
                    states.pop();
                }
                b'#' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        out[i] = b' ';
                        i += 1;
                    }
                    continue;
                }
                _ => {}
            },
            State::Single => match c {
                b'\\' => {
                    out[i] = b' ';
                    if i + 1 < bytes.len() {
                        out[i + 1] = b' ';
                    }
                    i += 2;
                    continue;
                }
                b'\'' => {
                    states.pop();
                }
                _ => out[i] = b' ',
            },
            State::Double => match (c, next) {
                (b'\\', _) => {
                    out[i] = b' ';
                    if i + 1 < bytes.len() {
                        out[i + 1] = b' ';
                    }
                    i += 2;
                    continue;
                }
                (b'"', _) => {
                    states.pop();
                }
                (b'#', Some(b'{')) => {
                    out[i] = b' ';
                    states.push(State::Code(0));
                    i += 2;
                    continue;
                }
                (b'#', Some(b'@')) => {
                    // `#@x` interpolates `@x`: keep the name.
                    out[i] = b' ';
                    i += 2;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                        i += 1;
                    }
                    continue;
                }
                _ => out[i] = b' ',
            },
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_default()
}

static ERB_INSTANCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[^A-Za-z0-9_@])@([a-z_][A-Za-z0-9_]*)").expect("a valid pattern"));
static ERB_ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^A-Za-z0-9_@])@([a-z_][A-Za-z0-9_]*)\s*(?:\|\|=|&&=|[-+*/]?=[^=~>])").expect("a valid pattern")
});
/// `for @x in …` (and `for @k, @v in …`) assigns the loop variables.
static ERB_FOR_ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bfor\s+(@[a-z_][A-Za-z0-9_]*(?:\s*,\s*@[a-z_][A-Za-z0-9_]*)*)\s+in\b").expect("a valid pattern")
});
static ERB_SCOPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"scope(?:\.lookupvar\(\s*|\[\s*)['"](::)?([a-z_][A-Za-z0-9_]*)['"]\s*[\])]"#).expect("a valid pattern")
});
static ERB_FACTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(@facts|scope\[\s*['"](?:::)?facts['"]\s*\])\s*\[\s*['"]([a-z_][A-Za-z0-9_]*)['"]\s*\]"#)
        .expect("a valid pattern")
});

/// What an ERB template reads: `@name` and `scope['name']` in the calling
/// scope, `scope['::name']` in top scope, `@facts['name']`.
fn erb_reads(text: &str) -> Vec<TemplateRead> {
    // Instance variables the template sets itself (`@hostname = …`) are
    // its own, wherever they are read.
    let assigned: BTreeSet<String> = tag_code(text)
        .iter()
        .flat_map(|(_, code)| {
            let code = ruby_code_only(code);
            let mut names: Vec<String> = ERB_ASSIGNED.captures_iter(&code).map(|c| c[1].to_string()).collect();
            for loop_variables in ERB_FOR_ASSIGNED.captures_iter(&code) {
                names.extend(loop_variables[1].split(',').map(|v| v.trim().trim_start_matches('@').to_string()));
            }
            names
        })
        .collect();
    let mut reads = Vec::new();
    for (start, code) in tag_code(text) {
        let instances = ruby_code_only(code);
        let code = without_comments(code);
        for found in ERB_FACTS.captures_iter(&code) {
            let at = start + found.get(0).map_or(0, |m| m.start());
            reads.push(TemplateRead {
                name: found[2].to_string(),
                form: FactForm::FactsHash,
                written: format!("{}['{}']", &found[1], &found[2]),
                line: line_at(text, at),
            });
        }
        for found in ERB_SCOPE.captures_iter(&code) {
            let at = start + found.get(0).map_or(0, |m| m.start());
            let top = found.get(1).is_some();
            let name = found[2].to_string();
            if name == "facts" {
                continue;
            }
            reads.push(TemplateRead {
                written: found[0].to_string(),
                form: if top { FactForm::TopScope } else { FactForm::Variable },
                name,
                line: line_at(text, at),
            });
        }
        for found in ERB_INSTANCE.captures_iter(&instances) {
            let name = found.get(1).expect("the pattern has a name");
            if name.as_str() == "facts" || assigned.contains(name.as_str()) {
                continue;
            }
            reads.push(TemplateRead {
                name: name.as_str().to_string(),
                form: FactForm::Variable,
                written: format!("@{}", name.as_str()),
                line: line_at(text, start + name.start()),
            });
        }
    }
    reads.sort_by_key(|r| r.line);
    reads
}

static EPP_PARAMETERS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*<%-?\s*\|([^|]*)\|").expect("a valid pattern"));
static EPP_VARIABLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$(::)?([a-z_][A-Za-z0-9_]*)\b(\s*=[^=~>])?").expect("a valid pattern"));
static EPP_LAMBDA: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\|([^|]*)\|").expect("a valid pattern"));
static EPP_FACTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\$(?:::)?facts\s*\[\s*['"]([a-z_][A-Za-z0-9_]*)['"]\s*\]"#).expect("a valid pattern")
});

/// What an EPP template reads from top scope: unqualified variables that
/// are neither its parameters nor assigned in it, `$::name`, and
/// `$facts['name']`.
fn epp_reads(text: &str) -> Vec<TemplateRead> {
    let mut local: BTreeSet<String> = BTreeSet::new();
    if let Some(parameters) = EPP_PARAMETERS.captures(text) {
        local.extend(EPP_VARIABLE.captures_iter(&parameters[1]).map(|c| c[2].to_string()));
    }
    let header_end = EPP_PARAMETERS.find(text).map_or(0, |m| m.end());
    let tags: Vec<(usize, &str)> = tag_code(text).into_iter().filter(|(start, _)| *start >= header_end).collect();
    for (_, code) in &tags {
        // A lambda's parameters (`|$server|`) are its own.
        for parameters in EPP_LAMBDA.captures_iter(code) {
            local.extend(EPP_VARIABLE.captures_iter(&parameters[1]).map(|c| c[2].to_string()));
        }
        for found in EPP_VARIABLE.captures_iter(code) {
            if found.get(3).is_some() {
                local.insert(found[2].to_string());
            }
        }
    }
    let mut reads = Vec::new();
    for (start, code) in tags {
        let code = without_comments(code);
        for found in EPP_FACTS.captures_iter(&code) {
            let at = start + found.get(0).map_or(0, |m| m.start());
            reads.push(TemplateRead {
                name: found[1].to_string(),
                form: FactForm::FactsHash,
                written: format!("$facts['{}']", &found[1]),
                line: line_at(text, at),
            });
        }
        for found in EPP_VARIABLE.captures_iter(&code) {
            let name = found[2].to_string();
            let top = found.get(1).is_some();
            let after = &code[found.get(0).map_or(0, |m| m.end())..];
            if name == "facts" || after.starts_with("::") || (!top && local.contains(&name)) {
                continue;
            }
            let at = start + found.get(0).map_or(0, |m| m.start());
            reads.push(TemplateRead {
                written: format!("${}{name}", if top { "::" } else { "" }),
                form: if top { FactForm::TopScope } else { FactForm::Variable },
                name,
                line: line_at(text, at),
            });
        }
    }
    reads.sort_by_key(|r| r.line);
    reads
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(reads: &[TemplateRead]) -> Vec<(String, u32)> {
        reads.iter().map(|r| (r.written.clone(), r.line)).collect()
    }

    #[test]
    fn erb_reads_in_tags_only() {
        let text = "server <%= @fqdn %>\nmail root@example.com\n<% if @osfamily == 'Debian' -%>\n\
                    <%= scope['::ipaddress'] %> <%= scope.lookupvar('domain') %> <%= @facts['hostname'] %>\n\
                    <%# @kernel %><%%= @architecture %>\n<% x = \"a@b\" # @memorysize\n%><%= \"#{@hostname}\" %>\n";
        assert_eq!(
            shown(&erb_reads(text)),
            [
                ("@fqdn".to_string(), 1),
                ("@osfamily".to_string(), 3),
                ("scope['::ipaddress']".to_string(), 4),
                ("scope.lookupvar('domain')".to_string(), 4),
                ("@facts['hostname']".to_string(), 4),
                ("@hostname".to_string(), 7),
            ]
        );
    }

    #[test]
    fn erb_string_literals_are_text_but_their_interpolations_code() {
        let text = "mail=<%= @admin + '@domain.invalid' %>\nx=<%= \"@operatingsystem\" %> y=<%= 'it''s @kernel' %> \
                    <%= %q(@hostname (@domain)) % 2 %>\n\
                    z=<%= \"#@fqdn and #{@hostname.upcase} \\\" @memorysize\" %>\n";
        assert_eq!(
            shown(&erb_reads(text)),
            [("@admin".to_string(), 1), ("@fqdn".to_string(), 3), ("@hostname".to_string(), 3)]
        );
    }

    #[test]
    fn erb_instance_variables_the_template_sets_are_its_own() {
        let text = "<% @hostname = 'web' -%><%= @hostname %> <% @domain ||= 'x' %><%= @domain %>\n\
                    <% if @fqdn == 'a' %><%= @fqdn %><% end %>\n";
        assert_eq!(shown(&erb_reads(text)), [("@fqdn".to_string(), 2), ("@fqdn".to_string(), 2)]);
        // A `for` loop's variables (Puppet renders this with `domain` a fact).
        let text = "<% for @domain in @domains -%>\nsearch <%= @domain %>\n<% end -%>\n<% for @k, @v in @h %><%= @k %><% end %>\n";
        assert_eq!(shown(&erb_reads(text)), [("@domains".to_string(), 1), ("@h".to_string(), 4)]);
    }

    #[test]
    fn epp_reads_leave_out_parameters_and_locals() {
        let text = "<%- | String $port, $osfamily = 'x' | -%>\nport <%= $port %> <%= $osfamily %>\n\
                    <% $kernel = 'k' -%><%= $kernel %> <%= $fqdn %> <%= $::domain %> <%= $facts['hostname'] %>\n\
                    <%= $ntp::servers %>\n";
        assert_eq!(
            shown(&epp_reads(text)),
            [("$fqdn".to_string(), 3), ("$::domain".to_string(), 3), ("$facts['hostname']".to_string(), 3)]
        );
    }
}
