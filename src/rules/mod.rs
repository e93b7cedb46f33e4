//! Rules: each a small query over what the lower layers found — the parse
//! of each file, and the semantic model's index and compilation record —
//! that turns it into [`Finding`]s. One file per rule, with its
//! documentation in `rules/<id>.md`.

pub mod definition_location;
pub mod dependency_cycle;
pub mod duplicate_class_declaration;
pub mod duplicate_definition;
pub mod duplicate_entry;
pub mod duplicate_key;
pub mod duplicate_resource;
pub mod function_arity;
pub mod illegal_assignment;
pub mod illegal_control_flow;
pub mod illegal_expression;
pub mod illegal_name;
pub mod illegal_override;
pub mod illegal_placement;
pub mod illegal_resource_type;
pub mod illegal_title;
pub mod incomplete_node;
pub mod inheritance_cycle;
pub mod legacy_fact;
pub mod missing_module;
pub mod missing_parameter;
pub mod missing_relationship_target;
pub mod node_scope_leak;
pub mod policy_constraint;
pub mod policy_construct;
pub mod policy_declaration;
pub mod possible_duplicate_resource;
pub mod recursive_defined_type;
pub mod security;
pub mod security_admin_by_default;
pub mod security_bind_all_interfaces;
pub mod security_empty_password;
pub mod security_hardcoded_secret;
pub mod security_insecure_http;
pub mod security_missing_integrity_check;
pub mod security_secret_not_sensitive;
pub mod security_weak_hash;
pub mod security_world_writable;
pub mod selector_without_match;
pub mod statement_without_effect;
pub mod syntax_error;
pub mod top_scope_fact;
pub mod top_scope_variable;
pub mod type_alias_cycle;
pub mod type_mismatch;
pub mod undefined_variable;
pub mod unknown_attribute;
pub mod unknown_class;
pub mod unknown_function;
pub mod unknown_parameter;
pub mod unknown_resource_type;
pub mod unknown_type_reference;
pub mod use_before_assign;
pub mod useless_suppression;
pub mod variable_reassigned;
pub mod version_fact_compared_with_number;

use std::collections::BTreeMap;
use std::path::PathBuf;

use rayon::prelude::*;
use serde::Serialize;

use crate::model::index::Loc;
use crate::model::record::{ChainStep, Compilation, DeclHow};
use crate::model::{CompilationSink, Model};
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::source::Span;
use crate::syntax::ParsedFile;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Note,
    Warning,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// A place that helps explain a finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Related {
    pub path: PathBuf,
    pub span: Span,
    pub message: String,
}

/// One problem found in one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub level: Level,
    pub path: PathBuf,
    pub span: Span,
    pub message: String,
    pub related: Vec<Related>,
    /// How evaluation reached the finding, outermost step first (an include
    /// chain from the node to the class, say); empty when there is no chain.
    pub flow: Vec<Related>,
    /// The comment that suppresses this finding, if one does.
    pub suppressed_by: Option<Span>,
}

impl Finding {
    /// The order findings are reported in: path, line, column, rule.
    pub fn sort_key(&self) -> (&PathBuf, u32, u32, &'static str, &str) {
        (&self.path, self.span.start_pos.line, self.span.start_pos.column, self.rule, &self.message)
    }
}

/// What a rule is, for reports and documentation.
#[derive(Debug, Clone, Copy)]
pub struct RuleInfo {
    /// Stable kebab-case id, used in suppressions and configuration.
    pub id: &'static str,
    /// PascalCase name, as SARIF wants it.
    pub name: &'static str,
    pub default_level: Level,
    /// One sentence: what the rule reports.
    pub summary: &'static str,
    /// The rule's documentation (`rules/<id>.md`).
    pub documentation: &'static str,
}

impl Finding {
    /// A finding about one file alone, with no related places.
    pub fn in_file(rule: &RuleInfo, level: Level, file: &ParsedFile, span: Span, message: String) -> Finding {
        Finding {
            rule: rule.id,
            level,
            path: file.source.path.clone(),
            span,
            message,
            related: Vec::new(),
            flow: Vec::new(),
            suppressed_by: None,
        }
    }
}

/// The offset of the first token at or after `offset`, past blanks and comments.
pub fn next_token(text: &str, mut offset: usize) -> usize {
    loop {
        let rest = &text[offset..];
        let trimmed = rest.trim_start();
        offset += rest.len() - trimmed.len();
        if trimmed.starts_with('#') {
            offset += trimmed.find('\n').unwrap_or(trimmed.len());
        } else if trimmed.starts_with("/*") {
            offset += trimmed.find("*/").map_or(trimmed.len(), |e| e + 2);
        } else {
            return offset;
        }
    }
}

/// A type's name as a reference writes it: `Apache::Vhost`.
pub fn type_reference(type_name: &str) -> String {
    let parts: Vec<String> = type_name
        .split("::")
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
        })
        .collect();
    parts.join("::")
}

/// Where Puppet places an expression in its messages: an operator
/// expression at its operator, anything else at its start.
pub fn puppet_span(file: &ParsedFile, expr: &Expr) -> Span {
    let text = &file.source.text;
    let operator = |after: &Expr, len: usize| {
        let start = next_token(text, after.span.end);
        file.source.span(start, (start + len).min(text.len()))
    };
    match &expr.kind {
        ExprKind::Binary { op, left, .. } => operator(left, op.token().len()),
        ExprKind::Assignment { target, op, .. } => {
            operator(target, if *op == crate::syntax::ast::AssignOp::Assign { 1 } else { 2 })
        }
        _ => expr.span,
    }
}

/// Whether Puppet reads a parenthesized statement as the argument list of
/// a call on what precedes it: `$f (1)` calls `$f`, unless the `(` opens
/// its line.
pub fn paren_calls_previous(file: &ParsedFile, statement: &Expr) -> bool {
    if !matches!(statement.kind, ExprKind::Paren(_)) {
        return false;
    }
    let text = &file.source.text;
    let line_start = text[..statement.span.start].rfind('\n').map_or(0, |i| i + 1);
    !text[line_start..statement.span.start].trim().is_empty()
}

/// Every rule mplint has, in id order.
pub const ALL_RULES: &[&RuleInfo] = &[
    &definition_location::RULE,
    &dependency_cycle::RULE,
    &duplicate_class_declaration::RULE,
    &duplicate_definition::RULE,
    &duplicate_entry::RULE,
    &duplicate_key::RULE,
    &duplicate_resource::RULE,
    &function_arity::RULE,
    &illegal_assignment::RULE,
    &illegal_control_flow::RULE,
    &illegal_expression::RULE,
    &illegal_name::RULE,
    &illegal_override::RULE,
    &illegal_placement::RULE,
    &illegal_resource_type::RULE,
    &illegal_title::RULE,
    &incomplete_node::RULE,
    &inheritance_cycle::RULE,
    &legacy_fact::RULE,
    &missing_module::RULE,
    &missing_parameter::RULE,
    &missing_relationship_target::RULE,
    &node_scope_leak::RULE,
    &possible_duplicate_resource::RULE,
    &recursive_defined_type::RULE,
    &security_admin_by_default::RULE,
    &security_bind_all_interfaces::RULE,
    &security_empty_password::RULE,
    &security_hardcoded_secret::RULE,
    &security_insecure_http::RULE,
    &security_missing_integrity_check::RULE,
    &security_secret_not_sensitive::RULE,
    &security_weak_hash::RULE,
    &security_world_writable::RULE,
    &selector_without_match::RULE,
    &statement_without_effect::RULE,
    &syntax_error::RULE,
    &top_scope_fact::RULE,
    &top_scope_variable::RULE,
    &type_alias_cycle::RULE,
    &type_mismatch::RULE,
    &undefined_variable::RULE,
    &unknown_attribute::RULE,
    &unknown_class::RULE,
    &unknown_function::RULE,
    &unknown_parameter::RULE,
    &unknown_resource_type::RULE,
    &unknown_type_reference::RULE,
    &use_before_assign::RULE,
    &useless_suppression::RULE,
    &variable_reassigned::RULE,
    &version_fact_compared_with_number::RULE,
];

pub fn rule_info(id: &str) -> Option<&'static RuleInfo> {
    ALL_RULES.iter().copied().find(|r| r.id == id)
}

/// The known rule id closest to a mistyped one, if one is close enough to
/// be what was meant.
pub fn similar_rule(id: &str) -> Option<&'static str> {
    closest(id, ALL_RULES.iter().map(|r| r.id))
}

/// The candidate closest to a misspelt name, when one is close enough to
/// suggest.
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(name, candidate), candidate))
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

/// How much a rule's findings matter to security, on the 0–10 scale GitHub
/// ranks code-scanning alerts by (4.0–6.9 is medium), for the rules whose
/// mistakes Puppet compiles without error (without `strict_variables`, the
/// default before Puppet 8): the catalog then silently gets an
/// undefined value where the code meant a setting — an empty list of
/// allowed hosts, an unset password, a firewall rule without its source.
/// Rules whose findings stop compilation do not change what a node runs.
///
/// The security smells rank by what an attacker gains: a secret in the
/// code or an open account is high (7.0–8.9), exposure or tampering on
/// the way is medium, a value left visible in reports is low.
pub fn security_severity(id: &str) -> Option<f32> {
    match id {
        "node-scope-leak" | "undefined-variable" | "use-before-assign" => Some(5.0),
        "security-hardcoded-secret" | "security-empty-password" => Some(7.5),
        "security-world-writable" => Some(7.0),
        "security-missing-integrity-check" | "security-insecure-http" => Some(6.0),
        "security-admin-by-default" | "security-bind-all-interfaces" | "security-weak-hash" => Some(5.0),
        "security-secret-not-sensitive" => Some(3.0),
        _ => None,
    }
}

/// The rules about the security smells of infrastructure code: off unless
/// turned on (the `security` policy turns them all on). They look at the
/// values the interpreter recorded.
pub const SECURITY_RULES: &[&RuleInfo] = &[
    &security_admin_by_default::RULE,
    &security_bind_all_interfaces::RULE,
    &security_empty_password::RULE,
    &security_hardcoded_secret::RULE,
    &security_insecure_http::RULE,
    &security_missing_integrity_check::RULE,
    &security_secret_not_sensitive::RULE,
    &security_weak_hash::RULE,
    &security_world_writable::RULE,
];

/// Rules that judge a site's conventions rather than mistakes: off unless
/// turned on by name or by a policy (`deny-node-scope`).
pub const CONVENTION_RULES: &[&RuleInfo] = &[&top_scope_variable::RULE];

/// Whether a rule runs unless the configuration turns it off.
pub fn on_by_default(id: &str) -> bool {
    !SECURITY_RULES.iter().chain(CONVENTION_RULES).any(|r| r.id == id)
}

/// A rule's check of one file.
pub type FileCheck = fn(&ParsedFile, &mut Vec<Finding>);

/// The rules about a single file, which need nothing but its syntax:
/// what `puppet parser validate` reports.
pub const FILE_RULES: &[(&RuleInfo, FileCheck)] = &[
    (&syntax_error::RULE, syntax_error::check),
    (&illegal_resource_type::RULE, illegal_resource_type::check),
    (&illegal_title::RULE, illegal_title::check),
    (&illegal_control_flow::RULE, illegal_control_flow::check),
    (&illegal_assignment::RULE, illegal_assignment::check),
    (&illegal_name::RULE, illegal_name::check),
    (&duplicate_key::RULE, duplicate_key::check),
    (&duplicate_entry::RULE, duplicate_entry::check),
    (&statement_without_effect::RULE, statement_without_effect::check),
    (&illegal_placement::RULE, illegal_placement::check),
    (&illegal_expression::RULE, illegal_expression::check),
    (&missing_relationship_target::RULE, missing_relationship_target::check_literal_references),
];

/// Findings about a single file.
pub fn check_file(file: &ParsedFile) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (_, check) in FILE_RULES {
        check(file, &mut findings);
    }
    findings
}

/// Findings over the semantic model, merged so that one place has one
/// finding per rule whichever compilations saw it.
pub fn check_model(model: &Model<'_>) -> Vec<Finding> {
    let mut checker = ModelChecker::new(model);
    for compilation in &model.compilations {
        checker.compilation(compilation);
    }
    checker.finish()
}

/// The rules that look at one compilation at a time. Each compilation is
/// checked on its own, so compilations can be checked in parallel; a
/// [`ModelChecker`] merges what they find in compilation order.
pub struct CompilationRules<'m, 'a> {
    model: &'m Model<'a>,
}

/// What the rules found in some compilations.
#[derive(Clone)]
pub struct CompilationFindings<'m, 'a> {
    sink: Sink<'m, 'a>,
    node_calls: incomplete_node::NodeCalls,
    missing: missing_module::MissingUses,
}

impl<'m, 'a> CompilationFindings<'m, 'a> {
    fn new(model: &'m Model<'a>) -> Self {
        CompilationFindings { sink: Sink::new(model), node_calls: Default::default(), missing: Default::default() }
    }

    /// Adds what later compilations found: the same as reporting it here.
    fn append(&mut self, later: CompilationFindings<'m, 'a>) {
        self.sink.merge(later.sink);
        self.node_calls.merge(later.node_calls);
        self.missing.merge(later.missing);
    }
}

impl<'m, 'a> CompilationRules<'m, 'a> {
    pub fn new(model: &'m Model<'a>) -> Self {
        CompilationRules { model }
    }

    /// The model these rules check.
    pub fn model(&self) -> &'m Model<'a> {
        self.model
    }

    /// A sink for [`Model::compile_into`] that checks each compilation.
    pub fn sink(&self) -> Checked<'_, 'm, 'a> {
        Checked { rules: self, found: CompilationFindings::new(self.model) }
    }

    fn check(&self, compilation: &Compilation, found: &mut CompilationFindings<'m, 'a>) {
        type Check = fn(&Model<'_>, &Compilation, &mut Sink<'_, '_>);
        let checks: [Check; 19] = [
            node_scope_leak::check,
            use_before_assign::check,
            undefined_variable::check,
            duplicate_resource::check,
            duplicate_class_declaration::check,
            variable_reassigned::check,
            unknown_class::check,
            unknown_parameter::check,
            policy_constraint::check,
            legacy_fact::check,
            top_scope_fact::check,
            top_scope_variable::check,
            selector_without_match::check,
            version_fact_compared_with_number::check,
            type_mismatch::check,
            illegal_override::check,
            recursive_defined_type::check,
            missing_relationship_target::check,
            dependency_cycle::check,
        ];
        let model = self.model;
        let sink = &mut found.sink;
        for check in checks {
            check(model, compilation, sink);
            // Each rule says for itself which compilation it reports from.
            sink.example = None;
        }
        if model.workspace.record_values {
            let security: [Check; 8] = [
                security_hardcoded_secret::check,
                security_empty_password::check,
                security_admin_by_default::check,
                security_bind_all_interfaces::check,
                security_insecure_http::check,
                security_weak_hash::check,
                security_world_writable::check,
                security_missing_integrity_check::check,
            ];
            for check in security {
                check(model, compilation, sink);
                sink.example = None;
            }
        }
        let set_elsewhere = &model.set_elsewhere;
        missing_parameter::check(model, compilation, set_elsewhere, sink);
        sink.example = None;
        type_mismatch::check_defaults(model, compilation, set_elsewhere, sink);
        sink.example = None;
        missing_module::collect(model, compilation, &mut found.missing);
        incomplete_node::collect(model, compilation, &mut found.node_calls);
    }
}

/// Checks the compilations it is given, for [`Model::compile_into`].
#[derive(Clone)]
pub struct Checked<'r, 'm, 'a> {
    rules: &'r CompilationRules<'m, 'a>,
    found: CompilationFindings<'m, 'a>,
}

impl CompilationSink for Checked<'_, '_, '_> {
    fn add(&mut self, compilation: Compilation) {
        self.rules.check(&compilation, &mut self.found);
    }

    fn append(&mut self, later: Self) {
        self.found.append(later.found);
    }
}

/// A finding as [`Sink`] holds it, its rule named by id.
type StoredFinding = (String, Loc, Level, String, Vec<(Loc, String)>, Vec<(Loc, String)>);

/// What [`Checked`] took from some compilations, in a form kept on disk.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct StoredFindings {
    findings: Vec<StoredFinding>,
    conditional: bool,
    node_calls: Vec<(String, Vec<Loc>)>,
    missing: Vec<(String, Vec<(Loc, String)>)>,
}

impl StoredFindings {
    /// Every place the findings name.
    pub fn places(&self) -> impl Iterator<Item = Loc> + '_ {
        let findings = self.findings.iter().flat_map(|(_, loc, _, _, related, flow)| {
            std::iter::once(*loc).chain(related.iter().chain(flow).map(|(loc, _)| *loc))
        });
        let calls = self.node_calls.iter().flat_map(|(_, places)| places.iter().copied());
        let uses = self.missing.iter().flat_map(|(_, uses)| uses.iter().map(|(loc, _)| *loc));
        findings.chain(calls).chain(uses)
    }
}

impl<'r, 'm, 'a> Checked<'r, 'm, 'a> {
    /// What these compilations found, to keep.
    pub fn to_stored(&self) -> StoredFindings {
        let sink = &self.found.sink;
        StoredFindings {
            findings: sink
                .findings
                .iter()
                .map(|((rule, loc), (level, message, related, flow))| {
                    (rule.to_string(), *loc, *level, message.clone(), related.clone(), flow.clone())
                })
                .collect(),
            conditional: sink.conditional,
            node_calls: self.found.node_calls.to_stored(),
            missing: self.found.missing.to_stored(),
        }
    }

    /// What [`Checked::to_stored`] kept, checked by `rules`; none when it
    /// names a rule this run does not have.
    pub fn from_stored(rules: &'r CompilationRules<'m, 'a>, stored: StoredFindings) -> Option<Self> {
        let model = rules.model;
        let ids: Vec<&'static str> =
            ALL_RULES.iter().map(|r| r.id).chain(model.workspace.constraints.iter().map(|c| c.id)).collect();
        let mut sink = Sink::new(model);
        sink.conditional = stored.conditional;
        for (rule, loc, level, message, related, flow) in stored.findings {
            let rule = *ids.iter().find(|id| **id == rule)?;
            sink.findings.insert((rule, loc), (level, message, related, flow));
        }
        let found = CompilationFindings {
            sink,
            node_calls: incomplete_node::NodeCalls::from_stored(stored.node_calls),
            missing: missing_module::MissingUses::from_stored(stored.missing),
        };
        Some(Checked { rules, found })
    }
}

/// The findings of compilations, then what the index alone shows.
pub struct ModelChecker<'m, 'a> {
    model: &'m Model<'a>,
    found: CompilationFindings<'m, 'a>,
    rules: CompilationRules<'m, 'a>,
}

impl<'m, 'a> ModelChecker<'m, 'a> {
    pub fn new(model: &'m Model<'a>) -> Self {
        ModelChecker { model, found: CompilationFindings::new(model), rules: CompilationRules::new(model) }
    }

    /// Takes the findings of every compilation, checked by [`Model::compile_into`].
    pub fn with_compilations(model: &'m Model<'a>, checked: Checked<'_, 'm, 'a>) -> Self {
        ModelChecker { model, found: checked.found, rules: CompilationRules::new(model) }
    }

    /// Checks one more compilation.
    pub fn compilation(&mut self, compilation: &Compilation) {
        self.rules.check(compilation, &mut self.found);
    }

    /// The findings of every compilation seen and of the index.
    pub fn finish(self) -> Vec<Finding> {
        let index_found = index_findings(self.model);
        self.finish_with(index_found)
    }

    /// As [`ModelChecker::finish`], with what [`index_findings`] gave for
    /// the same model.
    pub fn finish_with(self, index_found: Vec<Sink<'m, 'a>>) -> Vec<Finding> {
        let model = self.model;
        let CompilationFindings { mut sink, node_calls, missing } = self.found;
        for own in index_found {
            sink.merge(own);
        }
        unknown_class::finish(model, &mut sink);
        variable_reassigned::finish(model, &mut sink);
        missing_module::check(model, missing, &mut sink);
        incomplete_node::check(model, node_calls, &mut sink);
        policy_constraint::finish(model, &mut sink);
        top_scope_variable::finish(&mut sink);
        if model.workspace.record_values {
            security_secret_not_sensitive::check(model, &mut sink);
            security_hardcoded_secret::finish(model, &mut sink);
            security_admin_by_default::finish(model, &mut sink);
            security_bind_all_interfaces::finish(model, &mut sink);
            security_weak_hash::finish(model, &mut sink);
        }
        let mut findings = sink.finish();
        findings.extend(legacy_fact::check_hiera(model));
        findings
    }
}

/// What the checks that read the index alone find, each into a sink of its
/// own, in a fixed order: they run side by side, and once for a model
/// however many times its compilations are checked.
pub fn index_findings<'m, 'a>(model: &'m Model<'a>) -> Vec<Sink<'m, 'a>> {
    type IndexCheck = fn(&Model<'_>, &mut Sink<'_, '_>);
    let index_checks: [IndexCheck; 9] = [
        definition_location::check,
        inheritance_cycle::check,
        type_alias_cycle::check,
        duplicate_definition::check,
        unknown_attribute::check,
        unknown_resource_type::check,
        unknown_type_reference::check,
        unknown_function::check,
        function_arity::check,
    ];
    index_checks
        .par_iter()
        .map(|check| {
            let mut own = Sink::new(model);
            check(model, &mut own);
            own
        })
        .collect()
}

/// Most related locations one finding lists.
pub const MAX_RELATED: usize = 12;

/// A finding before its places are turned into paths and spans: level,
/// message, related places, flow.
type Pending = (Level, String, Vec<(Loc, String)>, Vec<(Loc, String)>);

/// Collects findings keyed by rule and place, merging what several
/// compilations say about the same place.
#[derive(Clone)]
pub struct Sink<'m, 'a> {
    model: &'m Model<'a>,
    findings: BTreeMap<(&'static str, Loc), Pending>,
    /// The example file whose compilation is being reported on, if any.
    example: Option<(crate::model::index::FileId, Vec<Loc>)>,
    /// The findings being reported hold only on some paths through the
    /// compilation: an example need not lead to them.
    conditional: bool,
}

impl<'m, 'a> Sink<'m, 'a> {
    fn new(model: &'m Model<'a>) -> Self {
        Sink { model, findings: BTreeMap::new(), example: None, conditional: false }
    }

    /// Says which compilation the next findings come from. In a module's
    /// usage example, findings in module code move to the example's line
    /// that leads there: the example is what needs fixing, not the module.
    pub fn compilation(&mut self, compilation: &Compilation) {
        self.example = self.model.example_file(compilation).map(|file| {
            let mut roots: Vec<Loc> = compilation
                .classes
                .values()
                .map(|c| c.loc)
                .chain(compilation.instances.iter().map(|i| i.loc))
                .filter(|loc| loc.file() == file)
                .collect();
            roots.sort();
            (file, roots)
        });
    }

    /// Says whether the next findings hold only on some paths through the
    /// compilation (a read under `if $facts[…]`): in a module's usage
    /// example, such a finding in module code stays at its own place, since
    /// the example may never run that code.
    pub fn set_conditional(&mut self, conditional: bool) {
        self.conditional = conditional;
    }

    /// Whether a report for `rule` at `loc` without related places would
    /// change nothing: one is kept there already, and no example moves it.
    /// Lets a rule skip building a message it would lose.
    pub fn already_reported(&self, rule: &RuleInfo, loc: Loc) -> bool {
        self.example.is_none() && self.findings.contains_key(&(rule.id, loc))
    }

    /// Records a finding at `loc` (only in reported files); a second report
    /// for the same rule and place adds its related locations.
    pub fn report(&mut self, rule: &RuleInfo, loc: Loc, message: String, related: Vec<(Loc, String)>) {
        self.report_with_flow(rule, loc, message, related, Vec::new());
    }

    /// As [`Sink::report`], with the steps that led to the finding (kept
    /// from the first compilation that reports it).
    pub fn report_with_flow(
        &mut self,
        rule: &RuleInfo,
        loc: Loc,
        message: String,
        related: Vec<(Loc, String)>,
        flow: Vec<(Loc, String)>,
    ) {
        self.report_at_level(rule, rule.default_level, loc, message, related, flow);
    }

    /// As [`Sink::report_with_flow`], for a finding less certain than the
    /// rule's usual ones: at a lower level than the rule's default.
    pub fn report_at_level(
        &mut self,
        rule: &RuleInfo,
        level: Level,
        loc: Loc,
        message: String,
        related: Vec<(Loc, String)>,
        flow: Vec<(Loc, String)>,
    ) {
        self.report_for(rule.id, level, loc, message, related, flow);
    }

    /// As [`Sink::report_at_level`], for a rule known by its id alone (a
    /// policy's constraint).
    pub fn report_for(
        &mut self,
        rule: &'static str,
        level: Level,
        loc: Loc,
        message: String,
        related: Vec<(Loc, String)>,
        flow: Vec<(Loc, String)>,
    ) {
        let (loc, related, flow, message) = match &self.example {
            Some((file, roots)) if loc.file() != *file && !self.conditional => {
                let from_example = flow
                    .iter()
                    .chain(&related)
                    .map(|(l, _)| *l)
                    .find(|l| l.file() == *file)
                    .or_else(|| roots.first().copied());
                let Some(at) = from_example else { return };
                let mut related = related;
                related.insert(0, (loc, format!("where the example leads: {message}")));
                let message = format!("this example makes module code fail: {message}");
                (at, related, flow, message)
            }
            _ => (loc, related, flow, message),
        };
        if !self.model.is_reported(loc) {
            return;
        }
        let entry = self.findings.entry((rule, loc)).or_insert_with(|| (level, message, Vec::new(), flow));
        for item in related {
            if entry.2.len() < MAX_RELATED && !entry.2.contains(&item) {
                entry.2.push(item);
            }
        }
    }

    /// Takes in what another sink collected, as if it had been reported
    /// here after everything reported so far.
    fn merge(&mut self, other: Sink<'m, 'a>) {
        for (key, (level, message, related, flow)) in other.findings {
            let entry = self.findings.entry(key).or_insert_with(|| (level, message, Vec::new(), flow));
            for item in related {
                if entry.2.len() < MAX_RELATED && !entry.2.contains(&item) {
                    entry.2.push(item);
                }
            }
        }
    }

    /// The findings, one per rule, line and message: the same mistake
    /// read twice on one line is one finding, its related places merged.
    fn finish(self) -> Vec<Finding> {
        let model = self.model;
        let mut findings: Vec<Finding> = Vec::new();
        let mut by_line: std::collections::HashMap<(&'static str, usize, u32, String), usize> =
            std::collections::HashMap::new();
        for ((rule, loc), (level, message, related, flow)) in self.findings {
            let place = |(loc, message): (Loc, String)| Related {
                path: model.path(loc.file()).to_path_buf(),
                span: model.span(loc),
                message,
            };
            let span = model.span(loc);
            let key = (rule, loc.file(), span.start_pos.line, message.clone());
            if let Some(&earlier) = by_line.get(&key) {
                let merged = &mut findings[earlier];
                for item in related.into_iter().map(place) {
                    if merged.related.len() < MAX_RELATED && !merged.related.contains(&item) {
                        merged.related.push(item);
                    }
                }
                continue;
            }
            by_line.insert(key, findings.len());
            findings.push(Finding {
                rule,
                level,
                path: model.path(loc.file()).to_path_buf(),
                span,
                message,
                related: related.into_iter().map(place).collect(),
                flow: flow.into_iter().map(place).collect(),
                suppressed_by: None,
            });
        }
        findings
    }
}

/// A type or class name as Puppet writes it in references: `file` →
/// `File`, `apache::vhost` → `Apache::Vhost`.
pub fn reference_type(name: &str) -> String {
    name.split("::")
        .map(|segment| {
            let mut chars = segment.chars();
            chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
        })
        .collect::<Vec<_>>()
        .join("::")
}

/// Related locations for an include chain: each declaration on the way.
pub fn chain_related(chain: &[ChainStep], compilation: &Compilation, model: &Model<'_>) -> Vec<(Loc, String)> {
    let origin = model.describe_entry(compilation);
    // Beside a class or defined type checked on its own, the site's
    // top-level code runs: what it declares, it declares.
    let site_origin = match &compilation.entry {
        crate::model::record::Entry::Unreached { name, site: Some(site) } => {
            let code = match model.index.sites[*site].standalone {
                Some(_) => format!(
                    "the top-level code of {}",
                    model.workspace.display.show(&model.index.sites[*site].path).display()
                ),
                None => "the site manifest's top-level code".to_string(),
            };
            Some((name.as_str(), code))
        }
        _ => None,
    };
    chain
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let by = match &site_origin {
                Some((entry, code))
                    if i == 0 && step.what != *entry && !step.what.starts_with(&format!("{entry}[")) =>
                {
                    code.clone()
                }
                _ if i == 0 => origin.clone(),
                _ => format!("`{}`", chain[i - 1].what),
            };
            let message = match step.how {
                DeclHow::Entry => format!("`{}` checked on its own, declared from top scope", step.what),
                DeclHow::Inherited => format!("`{}` declared first because a class inherits it", step.what),
                how => format!("`{}` {} by {by}", step.what, how.verb()),
            };
            (step.loc, message)
        })
        .collect()
}
