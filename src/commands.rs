//! The subcommands that describe mplint rather than check code: `rules`,
//! `rule ID`, `policies`, `init`, `completions SHELL` and `manpage`.

use std::io::Write;
use std::path::Path;

use crate::rules::{rule_info, similar_rule, ALL_RULES};

/// `mplint rules`: every rule with its default level and summary.
pub fn list_rules(out: &mut impl Write) -> std::io::Result<()> {
    let width = ALL_RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
    writeln!(out, "{:width$}  {:7}  reports", "rule", "level")?;
    for rule in ALL_RULES {
        let level = if crate::rules::on_by_default(rule.id) { rule.default_level.as_str() } else { "off" };
        writeln!(out, "{:width$}  {:7}  {}", rule.id, level, rule.summary)?;
    }
    writeln!(out)?;
    writeln!(out, "Levels are the defaults: a finding at `error` makes the exit status 1 (see --fail-on).")?;
    writeln!(out, "The security-* rules are off unless turned on; `--policy security` turns them all on.")?;
    writeln!(out, "So is top-scope-variable; `--policy deny-node-scope` turns it on.")?;
    writeln!(out, "`mplint rule ID` explains a rule. Change a level in .mplint.toml (`mplint init` writes one),")?;
    writeln!(out, "under [rules]: ID = \"off\" | \"note\" | \"warning\" | \"error\", or with --rule ID=LEVEL.")
}

/// `mplint policies`: the built-in policies and what each is for.
pub fn list_policies(out: &mut impl Write) -> std::io::Result<()> {
    let policies = crate::config::POLICIES;
    let width = policies.iter().map(|(name, _)| name.len()).max().unwrap_or(0).max("policy".len());
    writeln!(out, "{:width$}  what it does", "policy")?;
    for (name, text) in policies {
        let description = crate::config::policy_description(text).unwrap_or_default();
        writeln!(out, "{name:width$}  {description}")?;
    }
    writeln!(out)?;
    writeln!(out, "Apply one with --policy NAME, or list it under `policies` in .mplint.toml.")?;
    writeln!(out, "--policy FILE applies a policy file of your own (see policies/README.md).")
}

/// The message for a rule id mplint does not have, with the closest one.
pub fn unknown_rule(id: &str) -> String {
    match similar_rule(id) {
        Some(similar) => format!("unknown rule `{id}`; did you mean `{similar}`? (`mplint rules` lists them)"),
        None => format!("unknown rule `{id}` (`mplint rules` lists them)"),
    }
}

/// `mplint rule ID`: the rule's documentation, rendered for a terminal.
pub fn show_rule(id: &str, styled: bool, out: &mut impl Write) -> Result<(), String> {
    let rule = rule_info(id).ok_or_else(|| unknown_rule(id))?;
    let text = render_markdown(rule.documentation, styled);
    out.write_all(text.as_bytes()).map_err(|e| format!("cannot write: {e}"))
}

/// Markdown as plain terminal text: headings in bold (or underlined
/// without styles), code blocks indented, emphasis markers and link
/// targets dropped.
pub fn render_markdown(markdown: &str, styled: bool) -> String {
    let (bold, reset) = if styled { ("\x1b[1m", "\x1b[0m") } else { ("", "") };
    let mut out = String::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if let Some(title) = line.strip_prefix("# ") {
            out.push_str(&format!("{bold}{}{reset}\n", title.trim()));
            if !styled {
                out.push_str(&"=".repeat(title.trim().chars().count()));
                out.push('\n');
            }
        } else if let Some(heading) = line.trim_start_matches('#').strip_prefix(' ').filter(|_| line.starts_with("##"))
        {
            out.push_str(&format!("{bold}{}{reset}\n", heading.trim()));
            if !styled {
                out.push_str(&"-".repeat(heading.trim().chars().count()));
                out.push('\n');
            }
        } else {
            out.push_str(&inline(line, bold, reset));
            out.push('\n');
        }
    }
    out
}

/// `**strong**` in bold, `[text](target)` as its text.
fn inline(line: &str, bold: &str, reset: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    let mut strong = false;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("**") {
            out.push_str(if strong { reset } else { bold });
            strong = !strong;
            rest = after;
        } else if let Some(link) = rest.strip_prefix('[').and_then(|r| {
            let close = r.find("](")?;
            let end = r[close..].find(')')? + close;
            Some((&r[..close], &r[end + 1..]))
        }) {
            out.push_str(link.0);
            rest = link.1;
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if strong {
        out.push_str(reset);
    }
    out
}

/// The `.mplint.toml` that `mplint init` writes: every setting, commented.
pub fn initial_config() -> String {
    let mut text = String::from(
        "# mplint configuration. mplint reads this file from the checked directory or\n\
         # the nearest one above it. Uncomment what you need; `mplint rules` lists the\n\
         # rules and `mplint rule ID` explains one.\n\
         \n\
         # The lowest level that makes mplint exit with status 1: note, warning, error.\n\
         # fail-on = \"error\"\n\
         \n\
         # Files and directories not to check (a pattern without `/` matches a name\n\
         # anywhere).\n\
         # exclude = [\"spec/fixtures\", \"vendor\"]\n\
         \n\
         # Directories of modules installed from elsewhere (a Puppetfile's), relative\n\
         # to this file: their classes are known, their own findings not reported.\n\
         # modulepath = [\"../modules\"]\n\
         \n\
         # Presets: deny-node-scope (node-scope leaks and unqualified reads of\n\
         # top-scope variables are errors), strict (every finding fails the run),\n\
         # security (the security smells), roles-profiles (the roles and profiles\n\
         # pattern); `mplint policies` lists them.\n\
         # policies = [\"deny-node-scope\"]\n\
         \n\
         # Top-scope variables nodes get from outside the tree (external facts, an ENC).\n\
         # facts = [\"hosting_platform\"]\n\
         \n\
         # Rule levels: off, note, warning, error. The defaults:\n\
         [rules]\n",
    );
    for rule in ALL_RULES {
        let level = rule.default_level.as_str();
        if crate::rules::on_by_default(rule.id) {
            text.push_str(&format!("# {} = \"{level}\"\n", rule.id));
        } else {
            // Off unless a policy or this file turns it on.
            text.push_str(&format!("# {} = \"off\"  # \"{level}\" when turned on\n", rule.id));
        }
    }
    text.push_str(
        "\n\
         # A site function that declares classes, such as a `role(web)` that includes\n\
         # `role::web` and sets `$::_role`:\n\
         # [include-functions.role]\n\
         # class = \"role::{}\"\n\
         # sets = [\"_role\"]\n",
    );
    text
}

/// `mplint init [DIR]`: writes `DIR/.mplint.toml`, never over an existing
/// file.
pub fn init(dir: &Path) -> Result<std::path::PathBuf, String> {
    let file = dir.join(crate::config::FILE_NAME);
    let mut handle = std::fs::OpenOptions::new().write(true).create_new(true).open(&file).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            format!("{} already exists; not overwriting it", file.display())
        } else {
            format!("cannot create {}: {e}", file.display())
        }
    })?;
    handle.write_all(initial_config().as_bytes()).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_configuration_is_valid_and_names_every_rule() {
        let dir = tempfile::tempdir().unwrap();
        let file = init(dir.path()).unwrap();
        let settings = crate::config::load(Some(&file)).unwrap();
        assert_eq!(settings.levels, crate::config::Settings::default().levels);
        let text = std::fs::read_to_string(&file).unwrap();
        for rule in ALL_RULES {
            assert!(text.contains(&format!("# {} = ", rule.id)), "{}", rule.id);
        }
        // The levels listed are the defaults: uncommenting them changes none.
        let mut in_rules = false;
        let rules_uncommented: String = text
            .lines()
            .map(|l| {
                in_rules = (in_rules || l == "[rules]") && !l.is_empty();
                if in_rules {
                    l.strip_prefix("# ").unwrap_or(l)
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(&file, &rules_uncommented).unwrap();
        assert_eq!(crate::config::load(Some(&file)).unwrap().levels, crate::config::Settings::default().levels);
        // Uncommenting every line keeps it valid.
        let uncommented: String = text
            .lines()
            .map(|l| l.strip_prefix("# ").filter(|l| l.contains(" = ") || l.starts_with('[')).unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(&file, uncommented).unwrap();
        crate::config::load(Some(&file)).unwrap();
        assert!(init(dir.path()).unwrap_err().contains("already exists"));
    }

    #[test]
    fn markdown_for_a_terminal() {
        let text = render_markdown("# t\n\n## What\n\nA **b** [c](d.md).\n\n```puppet\n$x = 1\n```\n", false);
        assert_eq!(text, "t\n=\n\nWhat\n----\n\nA b c.\n\n    $x = 1\n");
        assert!(render_markdown("**b**", true).contains("\x1b[1mb\x1b[0m"));
    }

    #[test]
    fn unknown_rules_get_a_suggestion() {
        assert!(unknown_rule("node-scope-leek").contains("did you mean `node-scope-leak`?"));
        assert!(!unknown_rule("zzz").contains("did you mean"));
    }
}
