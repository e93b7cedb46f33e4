//! `security-secret-not-sensitive`

use super::security::names_secret;
use super::{RuleInfo, Sink};
use crate::model::index::{DefBody, Loc};
use crate::model::Model;
use crate::rules::Level;
use crate::syntax::ast::ExprKind;

/// ## What it does
/// Reports a class or defined-type parameter named like a password,
/// secret, token or private key that is not typed `Sensitive`
/// (`Sensitive[String]`, `Optional[Sensitive[String]]`, a `Variant` with
/// a `Sensitive` member).
///
/// ## Why is this bad?
/// Puppet shows a plain value wherever it shows values: in the catalog,
/// in reports sent to PuppetDB, in `--noop` and `--debug` output, in the
/// diff of a file's content. A `Sensitive` value is redacted from all of
/// them.
pub const RULE: RuleInfo = RuleInfo {
    id: "security-secret-not-sensitive",
    name: "SecuritySecretNotSensitive",
    default_level: Level::Note,
    summary: "A password-like parameter is not typed `Sensitive`.",
    documentation: include_str!("../../rules/security-secret-not-sensitive.md"),
};

/// Types that cannot hold a secret's text: a switch, a number, a path.
const NOT_TEXT: &[&str] = &[
    "Boolean",
    "Integer",
    "Numeric",
    "Float",
    "Enum",
    "Stdlib::Absolutepath",
    "Stdlib::Unixpath",
    "Stdlib::Windowspath",
    "Stdlib::Filesource",
    "Stdlib::Filemode",
    "Stdlib::Port",
    "Stdlib::HTTPUrl",
    "Stdlib::HTTPSUrl",
];

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    for definitions in model.index.types.values() {
        for def in definitions {
            let (kind, name, params) = match def.body {
                DefBody::Class(class) => ("class", &class.name, &class.params),
                DefBody::Define(define) => ("defined type", &define.name, &define.params),
                _ => continue,
            };
            if !model.reported.get(def.file).copied().unwrap_or(false) {
                continue;
            }
            let text = &model.files[def.file].source.text;
            for param in params {
                if !names_secret(&param.name) {
                    continue;
                }
                let type_text = param.type_expr.as_ref().map(|t| text[t.span.start..t.span.end].to_string());
                if let Some(type_text) = &type_text {
                    let inner = type_text.trim_start_matches("Optional[").trim_start_matches("NotUndef[");
                    if type_text.contains("Sensitive") || NOT_TEXT.iter().any(|t| inner.starts_with(t)) {
                        continue;
                    }
                }
                // Untyped, but a switch or a number by its default.
                if type_text.is_none()
                    && param
                        .default
                        .as_ref()
                        .is_some_and(|d| matches!(d.kind, ExprKind::Boolean(_) | ExprKind::Number(_)))
                {
                    continue;
                }
                let how = match &type_text {
                    Some(t) => format!("typed `{t}`"),
                    None => "untyped".to_string(),
                };
                let message = format!(
                    "`${}` of {kind} `{name}` holds a secret but is {how}: type it `Sensitive[String]` so that Puppet redacts it from catalogs, reports and logs",
                    param.name
                );
                sink.report(&RULE, Loc::new(def.file, param.name_span), message, Vec::new());
            }
        }
    }
}
