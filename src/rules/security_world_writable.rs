//! `security-world-writable`

use super::security::{judged, slots, texts, Reported};
use super::{RuleInfo, Sink};
use crate::model::record::Compilation;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a file or directory that every user may write: a `file` (or
/// `concat`) whose `mode` gives others the write bit (`0777`, `0666`,
/// `o+w`, `a=rwx`). A directory with the sticky bit (`1777`, as `/tmp`)
/// is not reported.
///
/// ## Why is this bad?
/// Any local user or compromised service can then change the file: a
/// configuration, a script that root runs, a web page.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-world-writable",
    name: "SecurityWorldWritable",
    default_level: Level::Error,
    summary: "A file is writable by every user.",
    documentation: include_str!("../../rules/security-world-writable.md"),
};

const MODED: &[&str] = &["file", "concat"];

/// Whether a mode gives others write access without the sticky bit.
pub fn world_writable(mode: &str) -> bool {
    let mode = mode.trim();
    if !mode.is_empty() && mode.len() <= 5 && mode.chars().all(|c| c.is_digit(8)) {
        let digits: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        let others = digits[digits.len() - 1];
        let special = if digits.len() == 4 || digits.len() == 5 { digits[digits.len() - 4] } else { 0 };
        return digits.len() >= 3 && others & 2 != 0 && special & 1 == 0;
    }
    // Symbolic: `u=rwx,go+w`; no `who` means everyone.
    let mut writable = false;
    for clause in mode.split(',') {
        let Some(op) = clause.find(['+', '=']) else {
            if clause.contains('-') {
                continue;
            }
            return false;
        };
        let (who, perms) = clause.split_at(op);
        if !who.chars().all(|c| "ugoa".contains(c)) {
            return false;
        }
        if perms.contains('t') {
            return false;
        }
        if (who.is_empty() || who.contains(['o', 'a'])) && perms.contains('w') {
            writable = true;
        }
    }
    writable
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    let mut reported = Reported::default();
    for slot in slots(compilation) {
        let Some(type_name) = slot.type_name() else { continue };
        if slot.name != "mode" || !MODED.contains(&type_name) {
            continue;
        }
        if reported.covers(compilation, &slot, true) {
            reported.mark(compilation, &slot);
            continue;
        }
        let Some(mode) = texts(slot.value).into_iter().find(|m| world_writable(m)) else { continue };
        reported.mark(compilation, &slot);
        let message =
            format!("{} is '{mode}': every user may write it; remove the write bit for others", slot.describe());
        if judged(model, compilation, &slot) {
            sink.report(&RULE, slot.at, message, Vec::new());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::world_writable;

    #[test]
    fn modes() {
        for yes in ["0777", "777", "0666", "0646", "0663", "2777", "o+w", "a+w", "a=rwx", "u=rw,go=rw", "+w", "ugo+rw"]
        {
            assert!(world_writable(yes), "{yes}");
        }
        for no in
            ["0755", "0644", "1777", "01777", "0640", "g+w", "o-w", "u+w", "a+rwt", "o=r", "0774", "", "rw", "4755"]
        {
            assert!(!world_writable(no), "{no}");
        }
    }
}
