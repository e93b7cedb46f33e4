//! `security-admin-by-default`

use super::security::{in_example, literal_defaults, names_password, names_user, strings, words};
use super::{RuleInfo, Sink};
use crate::model::index::{DefBody, Loc};
use crate::model::record::Compilation;
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports a login account that defaults to an administrator: a class or
/// defined-type parameter named like a user (`user`, `db_user`,
/// `admin_username`) whose default is `admin`, `administrator` or `root`,
/// where the same definition takes that account's password (`password`,
/// `db_password`). The default may come through a variable or a
/// `::params` class.
///
/// ## Why is this bad?
/// Unless told otherwise, the service is then reached with its most
/// powerful account. Accounts that merely own files or run commands
/// (`owner => 'root'`, an `exec`'s `user`) are not login credentials and
/// are not reported.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-admin-by-default",
    name: "SecurityAdminByDefault",
    default_level: Level::Warning,
    summary: "A login account defaults to an administrator account.",
    documentation: include_str!("../../rules/security-admin-by-default.md"),
};

const ADMINISTRATORS: &[&str] = &["admin", "administrator", "root"];

/// The message for an account parameter's default, when it is an
/// administrator with a password beside it.
fn judge(model: &Model<'_>, owner_name: &str, param: &str, at: Loc, value: &str) -> Option<String> {
    let prefix = names_user(param)?;
    if !ADMINISTRATORS.iter().any(|a| a.eq_ignore_ascii_case(value.trim())) {
        return None;
    }
    let params = model.index.types.get(owner_name).into_iter().flatten().find_map(|def| {
        let params = match def.body {
            DefBody::Class(class) => &class.params,
            DefBody::Define(define) => &define.params,
            _ => return None,
        };
        (def.file == at.file()).then_some(params)
    })?;
    // The account's password beside it: `db_user` with `db_password`.
    let password = params.iter().find(|p| {
        let mut w = words(&p.name);
        w.pop();
        names_password(&p.name) && w.join("_") == prefix
    })?;
    Some(format!(
        "`${param}` of `{owner_name}` defaults to the administrator account '{}' (with `${}`): give it an account with only the rights it needs",
        value.trim(),
        password.name
    ))
}

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    for default in &compilation.defaults {
        for value in strings(&default.value) {
            if let Some(message) = judge(model, &default.owner_name, &default.param, default.at, value) {
                if !in_example(model, default.at) {
                    sink.report(&RULE, default.at, message, Vec::new());
                }
                break;
            }
        }
    }
}

/// Defaults written as literals, evaluated or not.
pub fn finish(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for default in literal_defaults(model) {
        let owner_name = crate::model::index::normalize_name(default.owner_name);
        if let Some(message) = judge(model, &owner_name, default.param, default.at, &default.text) {
            sink.report(&RULE, default.at, message, Vec::new());
        }
    }
}
