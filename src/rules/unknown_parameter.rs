//! `unknown-parameter`

use super::{chain_related, closest, RuleInfo, Sink};
use crate::model::index::{Loc, Visibility};
use crate::model::record::{Compilation, Entry, Event, Owner};
use crate::model::Model;
use crate::rules::Level;

/// ## What it does
/// Reports an attribute given to a defined type (`mymod::thing { 't':
/// bogus => 1 }`) or to a resource-like class declaration (`class { 'x':
/// bogus => 1 }`) that the definition does not declare as a parameter and
/// that is neither `name` nor a metaparameter (`require`, `notify`, `tag`,
/// …). It is reported for every compilation that runs the declaration,
/// virtual and exported ones included, with the include chain that leads
/// there. Attributes passed through a splat (`* => $h`) count when the
/// hash's keys are known; when they are not, nothing is reported.
///
/// ## Why is this bad?
/// Puppet fails the catalog: "Mymod::Thing[t]: has no parameter named
/// 'bogus'". Often a typo, or a parameter the definition renamed or
/// dropped.
///
/// ## Example
/// ```puppet
/// define mymod::thing(String $ensure = 'present') { }
/// mymod::thing { 't': ensur => 'absent' }
/// ```
/// Use instead:
/// ```puppet
/// define mymod::thing(String $ensure = 'present') { }
/// mymod::thing { 't': ensure => 'absent' }
/// ```
pub const RULE: RuleInfo = RuleInfo {
    id: "unknown-parameter",
    name: "UnknownParameter",
    default_level: Level::Error,
    summary: "A class or defined type is given an attribute it has no parameter for.",
    documentation: include_str!("../../rules/unknown-parameter.md"),
};

/// Most parameters a message names.
const MOST_PARAMETERS_LISTED: usize = 8;

pub fn check(model: &Model<'_>, compilation: &Compilation, sink: &mut Sink<'_, '_>) {
    sink.compilation(compilation);
    for event in &compilation.events {
        let Event::Parameters { type_name, class, definition, declared, unknown, open_splat, .. } = event else {
            continue;
        };
        if unknown.is_empty() || *open_splat || !definition_certain(model, type_name, *definition) {
            continue;
        }
        let what = reference(model, compilation, *class, type_name, declared);
        let parameters = parameter_names(model, type_name, *definition);
        let kind = if *class { "class" } else { "defined type" };
        // A long list would bury the message: its length is enough.
        let takes = if parameters.is_empty() {
            "takes no parameters".to_string()
        } else if parameters.len() > MOST_PARAMETERS_LISTED {
            format!("takes {} parameters", parameters.len())
        } else {
            format!("takes {}", parameters.iter().map(|p| format!("`${p}`")).collect::<Vec<_>>().join(", "))
        };
        for (name, at) in unknown {
            let suggestion = closest(name, parameters.iter().map(String::as_str))
                .map(|p| format!("; did you mean '{p}'?"))
                .unwrap_or_default();
            let message = format!("{what}: has no parameter named '{name}' ({kind} `{type_name}` {takes}){suggestion}");
            let related = vec![(*definition, format!("{kind} `{type_name}` defined here"))];
            let mut flow = chain_related(&compilation.chain(declared), compilation, model);
            flow.push((*at, format!("'{name}' given here")));
            sink.report_with_flow(&RULE, *at, message, related, flow);
        }
    }
}

/// Whether the declaration certainly resolved to the definition Puppet
/// loads: the only one of its name that the compilation sees, in a file
/// Puppet's autoloader reads for that name, and no file at its autoload
/// path failed to parse (it may hold the real one).
pub(super) fn definition_certain(model: &Model<'_>, type_name: &str, definition: Loc) -> bool {
    let Some(candidates) = model.index.types.get(type_name) else { return false };
    let Some(found) = candidates.iter().find(|d| d.loc() == definition) else { return false };
    let rivals = candidates.iter().filter(|d| d.visibility == found.visibility).count();
    rivals == 1
        && model.autoloader_may_find(type_name, found.file)
        && (matches!(found.visibility, Visibility::File(_)) || !model.autoload_file_unparsed(type_name))
}

/// The declared parameters of the definition at `definition`.
pub(super) fn parameter_names(model: &Model<'_>, type_name: &str, definition: Loc) -> Vec<String> {
    use crate::model::index::DefBody;
    let Some(found) = model.index.types.get(type_name).and_then(|c| c.iter().find(|d| d.loc() == definition)) else {
        return Vec::new();
    };
    let params = match found.body {
        DefBody::Class(class) => &class.params,
        DefBody::Define(define) => &define.params,
        _ => return Vec::new(),
    };
    params.iter().map(|p| p.name.clone()).collect()
}

/// How Puppet names the declared resource: `Class[Apache::Vhost]`,
/// `Apache::Vhost[default]`; a title mplint cannot know is shown as written
/// (`Apache::Vhost[$fqdn]`).
pub(super) fn reference(
    model: &Model<'_>,
    compilation: &Compilation,
    class: bool,
    type_name: &str,
    declared: &Owner,
) -> String {
    let capitalized = type_name
        .split("::")
        .map(|segment| {
            let mut chars = segment.chars();
            chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
        })
        .collect::<Vec<_>>()
        .join("::");
    if class {
        return format!("Class[{capitalized}]");
    }
    let written = |loc: Loc| {
        let text = model.files.get(loc.file())?.source.text.get(loc.start()..loc.end())?;
        (text.len() <= 60 && !text.contains('\n') && !text.starts_with('[')).then(|| text.to_string())
    };
    let title = match declared {
        Owner::Define(i) => compilation.instances.get(*i).and_then(|d| match &d.title {
            Some(title) => Some(title.clone()),
            None if !d.entry => written(d.loc),
            None => None,
        }),
        _ => None,
    };
    match title {
        Some(title) => format!("{capitalized}[{title}]"),
        None => capitalized,
    }
}

/// The environment a compilation runs in; `None` for a file applied on its own.
pub(super) fn environment<'m>(model: &'m Model<'_>, compilation: &Compilation) -> Option<&'m std::path::Path> {
    let site = match &compilation.entry {
        Entry::Node { site, .. } | Entry::TopLevel { site } | Entry::Unreached { site: Some(site), .. } => *site,
        Entry::Unreached { site: None, .. } => return None,
    };
    let site = &model.index.sites[site];
    site.standalone.is_none().then_some(site.path.as_path())
}
