//! `unknown-function`

use super::{closest, RuleInfo, Sink};
use crate::model::index::{normalize_name, Loc};
use crate::model::workspace::FileRole;
use crate::model::{module_of, Model};
use crate::rules::Level;
use crate::syntax::ast::{Expr, ExprKind};

/// ## What it does
/// Reports a call of a module's function (`app::port_of($x)`) that the
/// module, which is in the tree, does not define: no Puppet-language
/// function of that name (`functions/port_of.pp`) and no Ruby one
/// (`lib/puppet/functions/app/port_of.rb`). A module that is absent is not
/// judged, nor a function without a namespace, which any module's Ruby
/// code may define. Puppet 3's `import` and `extlookup()`, which Puppet 4
/// dropped, are reported too.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Unknown function: 'app::port_of'". Often a
/// typo, or a function the module renamed or dropped.
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-function",
    name: "UnknownFunction",
    default_level: Level::Warning,
    summary: "A module's function is called that the module does not define.",
    documentation: include_str!("../../rules/unknown-function.md"),
};

pub fn check(model: &Model<'_>, sink: &mut Sink<'_, '_>) {
    let ruby = model.workspace.ruby_functions();
    model.walk_reported(|file, e: &Expr| {
        let ExprKind::Call(call) = &e.kind else { return };
        let name = normalize_name(&call.name);
        if name == "import" {
            // At the top of a manifest Puppet applies, it always runs.
            let applied = !matches!(model.index.roles[file], FileRole::Module { .. })
                && model.files[file].manifest.as_ref().is_some_and(|m| m.statements.iter().any(|s| std::ptr::eq(s, e)));
            sink.report_at_level(
                &RULE,
                if applied { Level::Error } else { RULE.default_level },
                Loc::new(file, call.name_span),
                "`import` was discontinued in Puppet 4: Puppet fails wherever it evaluates it (\"Use of 'import' has been discontinued in favor of a manifest directory\"); every file of the manifests directory is read instead".into(),
                vec![],
                vec![],
            );
            return;
        }
        // Puppet 3's own `extlookup`, which Puppet 4 dropped.
        if name == "extlookup" && !model.index.functions.contains_key(&name) && !ruby.contains(&name) {
            sink.report(
                &RULE,
                Loc::new(file, call.name_span),
                "`extlookup()` was removed in Puppet 4: Puppet fails with \"Unknown function: 'extlookup'\" (look the key up in Hiera with `lookup()`)".into(),
                vec![],
            );
            return;
        }
        let Some((_, leaf)) = name.rsplit_once("::") else { return };
        // `Stdlib::Port(…)` converts to a data type.
        if call.name.rsplit("::").next().is_some_and(|l| l.starts_with(|c: char| c.is_ascii_uppercase())) {
            return;
        }
        let module = module_of(&name);
        if !model.module_dir_present(module)
            || model.index.functions.contains_key(&name)
            || ruby.contains(&name)
            || function_file_unparsed(model, module, leaf)
        {
            return;
        }
        // Names are compared without the module's prefix, which every
        // candidate shares; a function of Puppet's own by that name is the
        // likeliest meaning (a module's copy that Puppet later shipped).
        let known = model.index.functions.keys().chain(&ruby).map(String::as_str);
        let prefix = format!("{module}::");
        let unprefixed = known.filter_map(|known| known.strip_prefix(prefix.as_str()));
        let suggestion = if crate::model::interp::BUILT_IN_FUNCTIONS.binary_search(&leaf).is_ok() {
            format!("; Puppet's own function is `{leaf}()`")
        } else {
            closest(name.strip_prefix(prefix.as_str()).unwrap_or(leaf), unprefixed)
                .map(|known| format!("; did you mean '{prefix}{known}'?"))
                .unwrap_or_default()
        };
        sink.report(
            &RULE,
            Loc::new(file, call.name_span),
            format!(
                "Unknown function: '{name}': module `{module}` defines no such function (neither {module}/functions/{leaf}.pp nor {module}/lib/puppet/functions/{module}/{leaf}.rb){suggestion}"
            ),
            vec![],
        );
    });
}

/// Whether the module's file for a Puppet-language function is in the tree
/// but did not parse: its definition is unknown, not absent.
fn function_file_unparsed(model: &Model<'_>, module: &str, leaf: &str) -> bool {
    let Some(dir) = model.modules.get(module) else { return false };
    let expected = dir.join("functions").join(format!("{leaf}.pp"));
    model.files.iter().any(|f| f.manifest.is_none() && f.source.path == expected)
}
