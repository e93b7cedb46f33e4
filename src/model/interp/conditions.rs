//! Choice points and path conditions: how a tested condition is keyed,
//! which branch a path has taken, and what `defined(…)` guards.

use rustc_hash::FxHashMap as HashMap;

use super::{loc, Ctx, Interpreter};
use crate::model::index::FileId;
use crate::model::record::*;
use crate::model::value::Value;
use crate::syntax::ast::*;

/// The condition a test is about, without `!` and parentheses, and whether
/// it was negated.
pub(super) fn strip_negation(expr: &Expr) -> (&Expr, bool) {
    match &expr.kind {
        ExprKind::Paren(inner) => strip_negation(inner),
        ExprKind::Unary { op: UnaryOp::Not, operand } => {
            let (inner, negated) = strip_negation(operand);
            (inner, !negated)
        }
        _ => (expr, false),
    }
}

impl<'m, 'a> Interpreter<'m, 'a> {
    /// The choice point for a condition: keyed by its text, and by the scope
    /// when it reads local variables (Puppet variables never change, so the
    /// same text in the same scope has the same value).
    pub(super) fn choice_for(&mut self, kind: &str, exprs: &[&Expr], ctx: &Ctx) -> u32 {
        let key = self.condition_key(kind, exprs, ctx);
        self.choice_for_key(key)
    }

    fn choice_for_key(&mut self, key: ConditionKey) -> u32 {
        let next = self.choices + 1;
        let id = *self.choice_keys.entry(key).or_insert(next);
        self.choices = self.choices.max(id);
        id
    }

    fn condition_key(&self, kind: &str, exprs: &[&Expr], ctx: &Ctx) -> ConditionKey {
        let conditions: smallvec::SmallVec<[std::rc::Rc<ConditionText>; 2]> =
            exprs.iter().map(|expr| self.condition_text(expr, ctx.file)).collect();
        let mut scopes = None;
        let mut written_out = Vec::new();
        if conditions.iter().any(|t| t.reads_local) {
            let text: &'a str = &self.files[ctx.file].source.text;
            let names = conditions.iter().flat_map(|t| t.names.iter().map(|&(start, end)| &text[start..end]));
            let mut deciding = smallvec::SmallVec::new();
            written_out = self.deciding_scopes(names, ctx, &mut deciding);
            scopes = Some(deciding);
        }
        let texts = exprs
            .iter()
            .zip(&conditions)
            .map(|(expr, condition)| {
                if written_out.is_empty() {
                    return condition.words;
                }
                let text = &self.files[ctx.file].source.text;
                let piece = &text[expr.span.start..expr.span.end.min(text.len())];
                let mut words = String::new();
                push_words(&mut words, &with_variables_written_out(piece, &written_out));
                self.condition_texts.borrow_mut().intern(&words)
            })
            .collect();
        ConditionKey { kind: self.condition_texts.borrow_mut().intern(kind), scopes, texts }
    }

    /// What the text of a condition's expression says for its key, found
    /// once per place in a compilation: defined types' conditions are
    /// tested once per instance.
    fn condition_text(&self, expr: &Expr, file: FileId) -> std::rc::Rc<ConditionText> {
        let place = (file, expr.span.start, expr.span.end);
        if let Some(found) = self.condition_texts.borrow().by_place.get(&place) {
            return found.clone();
        }
        let text = &self.files[file].source.text;
        let start = expr.span.start.min(text.len());
        let piece = &text[start..expr.span.end.min(text.len())];
        let offset = |name: &str| {
            let at = name.as_ptr() as usize - text.as_ptr() as usize;
            (at, at + name.len())
        };
        let mut words = String::with_capacity(piece.len() + 1);
        push_words(&mut words, piece);
        let mut texts = self.condition_texts.borrow_mut();
        let found = std::rc::Rc::new(ConditionText {
            reads_local: self.reads_local_variables(&[expr], file),
            names: self.unqualified_names(&[expr], file).map(offset).collect(),
            words: texts.intern(&words),
        });
        texts.by_place.insert(place, found.clone());
        found
    }

    /// The scopes whose variables a condition reads, so that the same text
    /// read from an inner lambda is the same condition: `$flag` tested in a
    /// class body and again in an `each` block inside it. Returned: the
    /// variables written out otherwise, as the same value is wherever it is
    /// read: one of a class's scope by its qualified name (`$v` in class
    /// `m` is `$m::v`), one bound to a data lookup by the call.
    fn deciding_scopes(
        &self,
        names: impl Iterator<Item = &'a str>,
        ctx: &Ctx,
        scopes: &mut smallvec::SmallVec<[u32; 4]>,
    ) -> Vec<(&'a str, String)> {
        let mut written_out = Vec::new();
        for name in names {
            let found = self.find_binding(ctx.scope, name, &ctx.path);
            if let Some(source) = found.and_then(|(scope, _)| self.variable_copy(scope, name)) {
                written_out.push((name, source.to_string()));
                continue;
            }
            if let Some(call) = found.and_then(|(scope, _)| self.data_lookup(scope, name)) {
                written_out.push((name, call.to_string()));
                scopes.push(DATA_LOOKUP);
                continue;
            }
            if let Some(ScopeKind::Class(class)) = found.map(|(scope, _)| &self.scopes[scope].kind) {
                written_out.push((name, format!("${class}::{name}")));
                continue;
            }
            // Bound nowhere: the value of the top or node scope the search
            // ends in (a fact, or nothing), the same for every class and
            // instance reading it there.
            let scope = found.map_or(self.base_of(ctx.scope), |(scope, _)| scope);
            scopes.push(u32::try_from(scope).expect("fewer scopes than u32::MAX"));
        }
        written_out
    }

    /// Remembers a variable bound to a data lookup of literal arguments.
    pub(super) fn note_data_lookup(&mut self, variable: &Variable, target: &Expr, value: &Expr, ctx: &Ctx) {
        let ExprKind::Call(call) = &value.kind else { return };
        let lookup = matches!(call.name.as_str(), "lookup" | "hiera" | "hiera_array" | "hiera_hash");
        if variable.is_qualified() || !lookup || call.lambda.is_some() || !call.args.iter().all(Self::is_constant) {
            return;
        }
        let text = &self.files[ctx.file].source.text;
        let written = &text[value.span.start..value.span.end.min(text.len())];
        let call_text = written.split_whitespace().collect::<Vec<_>>().join(" ");
        self.data_lookups.insert((ctx.scope, loc(ctx.file, target)), call_text);
    }

    /// Remembers a variable bound to a class's variable (`$role =
    /// $ipa::role`): one value with it in a compilation.
    pub(super) fn note_variable_copy(&mut self, variable: &Variable, target: &Expr, value: &Expr, ctx: &Ctx) {
        let ExprKind::Variable(source) = &value.kind else { return };
        if variable.is_qualified() {
            return;
        }
        let Some((class, name)) = source.split_scope().filter(|(class, _)| !class.is_empty()) else { return };
        let written = format!("${}::{name}", class.to_ascii_lowercase());
        self.variable_copies.insert((ctx.scope, loc(ctx.file, target)), written);
    }

    /// The class variable a variable of `scope` copies, when that is its
    /// only binding there.
    fn variable_copy(&self, scope: ScopeId, name: &str) -> Option<&str> {
        let [only] = self.scopes[scope].vars.get(name)?.as_slice() else { return None };
        self.variable_copies.get(&(scope, only.loc?)).map(String::as_str)
    }

    /// The data lookup a variable of `scope` is bound to, when that is its
    /// only binding there.
    fn data_lookup(&self, scope: ScopeId, name: &str) -> Option<&str> {
        let [only] = self.scopes[scope].vars.get(name)?.as_slice() else { return None };
        self.data_lookups.get(&(scope, only.loc?)).map(String::as_str)
    }

    /// The unqualified variables expressions read, as written.
    fn unqualified_names<'e>(&self, exprs: &'e [&Expr], file: FileId) -> impl Iterator<Item = &'a str> + 'e
    where
        'a: 'e,
    {
        let text: &'a str = &self.files[file].source.text;
        exprs.iter().flat_map(move |expr| {
            let piece = &text[expr.span.start..expr.span.end.min(text.len())];
            piece.match_indices('$').filter_map(move |(i, _)| {
                let rest = piece[i + 1..].trim_start_matches('{');
                let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
                let name = &rest[..end];
                (!name.is_empty() && !name.is_qualified()).then_some(name)
            })
        })
    }

    /// Whether expressions read variables other than top-scope ones
    /// (`$::x`, `$facts`, `$trusted`, `$server_facts`).
    fn reads_local_variables(&self, exprs: &[&Expr], file: FileId) -> bool {
        let text = &self.files[file].source.text;
        let global = |rest: &str| {
            rest.starts_with("::")
                || ["facts", "trusted", "server_facts"].iter().any(|name| {
                    rest.strip_prefix(name)
                        .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
                })
        };
        exprs.iter().any(|expr| {
            let piece = &text[expr.span.start..expr.span.end.min(text.len())];
            piece.match_indices('$').any(|(i, _)| !global(&piece[i + 1..]))
        })
    }

    /// Where a condition on local variables is tested, for messages: the
    /// same text in two scopes is two different values.
    fn place_of(&self, exprs: &[&Expr], ctx: &Ctx) -> Place {
        let conditions: smallvec::SmallVec<[std::rc::Rc<ConditionText>; 2]> =
            exprs.iter().map(|expr| self.condition_text(expr, ctx.file)).collect();
        let text = &self.files[ctx.file].source.text;
        let mut names = conditions.iter().flat_map(|t| t.names.iter().map(|&(start, end)| &text[start..end]));
        if !conditions.iter().any(|t| t.reads_local)
            || names.all(|name| self.find_binding(ctx.scope, name, &ctx.path).is_none())
        {
            return Place::Anywhere;
        }
        match &ctx.owner {
            Owner::Class(name) => Place::Class(name.clone()),
            Owner::Define(i) => Place::Define(*i),
            Owner::Node => Place::Node,
            Owner::Top => Place::Anywhere,
        }
    }

    /// A literal, a regular expression, a type, or an array of those.
    fn is_constant(expr: &Expr) -> bool {
        match &expr.kind {
            ExprKind::Regex(_)
            | ExprKind::TypeRef(_)
            | ExprKind::Number(_)
            | ExprKind::Boolean(_)
            | ExprKind::Undef
            | ExprKind::Name(_) => true,
            ExprKind::Str(s) => s.as_literal().is_some(),
            ExprKind::Array(items) => items.iter().all(Self::is_constant),
            ExprKind::Access { object, index } => Self::is_constant(object) && index.iter().all(Self::is_constant),
            ExprKind::Paren(inner) => Self::is_constant(inner),
            _ => false,
        }
    }

    /// Remembers a variable bound to a test whose outcome is unknown, so
    /// that `if $is_debian` and `if $os == 'Debian'` are one condition.
    pub(super) fn note_derived_test(&mut self, variable: &Variable, target: &Expr, value: &Expr, ctx: &Ctx) {
        if variable.is_qualified() || variable.is_match_variable() {
            return;
        }
        let (test, negation) = strip_negation(value);
        let is_test = match &test.kind {
            ExprKind::Binary { op, .. } => matches!(
                op,
                BinaryOp::Or
                    | BinaryOp::And
                    | BinaryOp::Less
                    | BinaryOp::LessEqual
                    | BinaryOp::Greater
                    | BinaryOp::GreaterEqual
                    | BinaryOp::Equal
                    | BinaryOp::NotEqual
                    | BinaryOp::Match
                    | BinaryOp::NotMatch
                    | BinaryOp::In
            ),
            _ => false,
        };
        // `$flag = !$is_debian`: the test `$is_debian` stands for, negated.
        let (test, negated) = match self.derived_test(test, ctx) {
            Some((derived, inverted)) => (derived, inverted != negation),
            None if is_test => (std::rc::Rc::new(value.clone()), false),
            None => return,
        };
        self.derived_tests.insert((ctx.scope, variable.name.clone()), (loc(ctx.file, target), test, negated));
    }

    /// The test a variable tested in its own scope was bound to, when that
    /// is its only binding there, and whether the variable is its negation.
    pub(super) fn derived_test(&self, tested: &Expr, ctx: &Ctx) -> Option<(std::rc::Rc<Expr>, bool)> {
        let ExprKind::Variable(variable) = &tested.kind else { return None };
        let (at, test, negated) = self.derived_tests.get(&(ctx.scope, variable.name.clone()))?;
        let bindings = self.scopes[ctx.scope].vars.get(&*variable.name)?;
        let only = bindings.len() == 1 && bindings[0].loc == Some(*at) && at.file() == ctx.file;
        only.then(|| (test.clone(), *negated))
    }

    pub(super) fn label(&mut self, choice: u32, label: ChoiceLabel) {
        self.out.labels.entry(choice).or_insert(label);
    }

    /// The unknown value an expression is, keyed like conditions: the same
    /// text in the same scope is the same value.
    pub(super) fn subject_id(&mut self, subject: &Expr, ctx: &Ctx) -> u32 {
        self.subject_id_keyed(subject, ctx, None)
    }

    /// As [`Self::subject_id`], given the key of a condition on the same
    /// expression when it is already known: only its kind differs.
    fn subject_id_keyed(&mut self, subject: &Expr, ctx: &Ctx, known: Option<ConditionKey>) -> u32 {
        let fact = self.fact_read(subject, ctx);
        let key = match (&fact, known) {
            (Some(fact), _) => SubjectKey::Fact(fact.clone()),
            (None, Some(mut known)) => {
                known.kind = self.condition_texts.borrow_mut().intern("subject");
                SubjectKey::Condition(known)
            }
            (None, None) => SubjectKey::Condition(self.condition_key("subject", &[subject], ctx)),
        };
        let next = self.subjects.len() as u32;
        let id = *self.subjects.entry(key).or_insert(next);
        if let Some(fact @ ("os.name" | "os.family")) = fact.as_deref() {
            self.os_subjects.insert(id, fact == "os.family");
        }
        id
    }

    /// The fact a subject reads, by its structured name: `$::osfamily`,
    /// `$facts['osfamily']`, `$os['family']` and `$facts['os']['family']`
    /// are one value, `os.family`, however the code reads it.
    pub(super) fn fact_read(&self, subject: &Expr, ctx: &Ctx) -> Option<String> {
        let mut keys: Vec<String> = Vec::new();
        let mut expr = subject;
        while let ExprKind::Access { object, index } = &expr.kind {
            let [key] = index.as_slice() else { return None };
            let Some(Value::Str(key)) = Self::literal(key) else { return None };
            keys.push(key);
            expr = object;
        }
        let ExprKind::Variable(variable) = &expr.kind else { return None };
        match self.resolve(ctx.scope, variable, &ctx.path).1 {
            ReadOutcome::BuiltIn if variable.unanchored() == "facts" => {}
            ReadOutcome::Fact if !variable.unanchored().is_qualified() => keys.push(variable.unanchored().to_string()),
            _ => return None,
        }
        let first = keys.pop()?;
        let mut name = crate::model::facts::structured_name(&first).map_or(first, str::to_string);
        for key in keys.iter().rev() {
            name.push('.');
            name.push_str(key);
        }
        Some(name)
    }

    /// A version fact Facter gives as a string (`$::operatingsystemmajrelease`,
    /// `$facts['os']['release']['major']`) that an expression reads, by its
    /// structured name; not where the tree ships a fact of that name.
    pub(super) fn string_fact_read(&self, expr: &Expr, ctx: &Ctx) -> Option<String> {
        let name = self.fact_read(expr, ctx)?;
        if !crate::model::facts::STRING_VERSION_FACTS.contains(&name.as_str()) {
            return None;
        }
        let own_name = match &expr.kind {
            ExprKind::Variable(variable) => variable.unanchored().to_string(),
            _ => name.clone(),
        };
        (!self.facts.is_shipped_custom(&own_name) && !self.facts.is_shipped_custom(&name)).then_some(name)
    }

    /// Records numbers compared with a string-valued fact, at the first;
    /// `how` says how the code compares them.
    pub(super) fn note_number_against_string_fact(
        &mut self,
        fact: &Expr,
        numbers: &[&Expr],
        how: NumberComparison,
        ctx: &Ctx,
    ) {
        let Some(first) = numbers.first() else { return };
        let text = &self.files[ctx.file].source.text;
        let mut shown: Vec<String> = numbers.iter().take(6).map(|n| flat_source(text, loc(ctx.file, n))).collect();
        if numbers.len() > 6 {
            shown[5] = "…".to_string();
        }
        self.out.events.push(Event::NumberAgainstStringFact {
            fact: flat_source(text, loc(ctx.file, fact)),
            numbers: shown,
            loc: loc(ctx.file, first),
            how,
            by: ctx.owner.clone(),
        });
    }

    /// The choice point "`subject` == `literal`" (branch 1: equal), shared
    /// by every `==`, `!=`, case option and selector key testing that
    /// subject against that literal; `None` past the encoding's limits.
    fn equality_choice(&mut self, subject: &Expr, literal: &Value, ctx: &Ctx) -> Option<u32> {
        let literal_key = Self::literal_key(literal)?;
        let subject_id = self.subject_id(subject, ctx);
        let next_literal = self.literal_counts.get(&subject_id).copied().unwrap_or(0) + 1;
        let literal_id = *self.literals.entry((subject_id, literal_key)).or_insert_with(|| {
            self.literal_counts.insert(subject_id, next_literal);
            next_literal
        });
        if subject_id >= 1 << (31 - LITERAL_BITS) || literal_id >= 1 << LITERAL_BITS {
            return None;
        }
        let choice = EQUALITY_CHOICE | (subject_id << LITERAL_BITS) | literal_id;
        if let std::collections::hash_map::Entry::Vacant(arity) = self.choice_arity.entry(choice) {
            arity.insert(2);
            let literal = match literal {
                Value::Str(s) => format!("'{s}'"),
                other => other.to_text().unwrap_or_default(),
            };
            let place = self.place_of(&[subject], ctx);
            self.label(choice, ChoiceLabel::Equality { at: loc(ctx.file, subject), place, literal });
        }
        if let (Some(&family), Value::Str(value)) = (self.os_subjects.get(&subject_id), literal) {
            self.out.os_equalities.entry(choice).or_insert_with(|| (family, vec![value.to_lowercase()]));
        }
        Some(choice)
    }

    /// A literal as equality compares it: strings without case.
    pub(super) fn literal_key(literal: &Value) -> Option<String> {
        Some(match literal {
            Value::Str(s) => format!("s:{}", s.to_lowercase()),
            Value::Int(i) => format!("n:{i}"),
            Value::Bool(b) => format!("b:{b}"),
            _ => return None,
        })
    }

    /// The literals of the equality choices on the subjects that a list
    /// of literals is tested against, so that records can tell which
    /// exclude each other (kept only where such a list is tested).
    pub(super) fn record_equality_literals(&mut self) {
        if self.out.literal_sets.is_empty() && self.out.option_sets.is_empty() {
            return;
        }
        let listed: std::collections::HashSet<u32> = (self.out.literal_sets.keys())
            .chain(self.out.option_sets.keys().map(|(c, _)| c))
            .filter_map(|c| self.out.choice_subjects.get(c).copied())
            .collect();
        for ((subject, key), literal) in &self.literals {
            if listed.contains(subject) && *subject < 1 << (31 - LITERAL_BITS) && *literal < 1 << LITERAL_BITS {
                let choice = EQUALITY_CHOICE | (subject << LITERAL_BITS) | literal;
                self.out.literal_sets.insert(choice, vec![key.clone()]);
            }
        }
    }

    /// The branch a path has already taken at a choice point: directly, or
    /// for an equality test, by having found its subject equal to another
    /// literal.
    pub(super) fn decided(path: &PathCond, choice: u32) -> Option<u16> {
        if let Some((_, branch)) = path.iter().find(|(c, _)| *c == choice) {
            return Some(*branch);
        }
        let subject = |c: u32| (c & EQUALITY_CHOICE != 0).then_some(c >> LITERAL_BITS);
        let mine = subject(choice)?;
        path.iter().any(|(c, b)| *b == 1 && subject(*c) == Some(mine)).then_some(0)
    }

    pub(super) fn with_choice(ctx: &Ctx, choice: u32, branch: u16) -> Ctx {
        Ctx { path: join(&ctx.path, &[(choice, branch)]), ..ctx.clone() }
    }

    /// A literal written in the code: a string without interpolation, a
    /// number, a boolean.
    pub(super) fn literal(expr: &Expr) -> Option<Value> {
        match &expr.kind {
            ExprKind::Str(s) => s.as_literal().map(Value::Str),
            // A bare word is a string: `$ensure == present`.
            ExprKind::Name(name) => Some(Value::Str(name.clone())),
            ExprKind::Number(Number::Integer(i)) => Some(Value::Int(*i)),
            ExprKind::Boolean(b) => Some(Value::Bool(*b)),
            ExprKind::Paren(inner) => Self::literal(inner),
            _ => None,
        }
    }

    /// `$id` bound to `false` on one side of a two-way choice and to a true
    /// value on the other: testing it tests that choice. The choice and
    /// the branch where it is true.
    fn branch_bound_test(&self, tested: &Expr, ctx: &Ctx) -> Option<(u32, u16)> {
        let ExprKind::Variable(variable) = &tested.kind else { return None };
        if variable.is_qualified() {
            return None;
        }
        let (scope, _) = self.find_binding(ctx.scope, &variable.name, &ctx.path)?;
        let bindings = self.scopes[scope].vars.get(&*variable.name)?;
        let mut seen: Vec<(&PathCond, bool)> = Vec::new();
        for binding in bindings.iter().filter(|b| compatible(&b.path, &ctx.path)) {
            seen.push((&binding.path, binding.value.truthy()?));
        }
        let (first, _) = seen.first()?;
        // An equality names its value in messages: tried first.
        let mut candidates: Vec<u32> =
            first.iter().map(|(c, _)| *c).filter(|c| self.choice_arity.get(c) == Some(&2)).collect();
        candidates.sort_by_key(|c| (c & EQUALITY_CHOICE == 0, *c));
        candidates.into_iter().find_map(|choice| {
            let (mut truthy, mut falsy) = (None, None);
            for (path, holds) in &seen {
                let (_, branch) = path.iter().find(|(c, _)| *c == choice)?;
                let side = if *holds { &mut truthy } else { &mut falsy };
                if *side.get_or_insert(*branch) != *branch {
                    return None;
                }
            }
            let (truthy, falsy) = (truthy?, falsy?);
            (truthy != falsy && !ctx.path.iter().any(|(c, _)| *c == choice)).then_some((choice, truthy))
        })
    }

    /// The one scalar a bare local variable holds here (`$name` in an
    /// instance titled `'annex1'`): a test against it is an equality with
    /// that literal, which excludes the same test of another instance.
    fn known_scalar(&self, operand: &Expr, ctx: &Ctx) -> Option<Value> {
        // `"${name}"` is the variable's value as a string.
        let (operand, as_string) = match &operand.kind {
            ExprKind::Str(s) => match s.parts.as_slice() {
                [StringPart::Interpolation(inner)] => (inner, true),
                _ => return None,
            },
            _ => (operand, false),
        };
        let ExprKind::Variable(variable) = &operand.kind else { return None };
        if variable.is_qualified() || variable.is_match_variable() {
            return None;
        }
        let (_, binding) = self.find_binding(ctx.scope, variable.unanchored(), &ctx.path)?;
        match &binding.value {
            value @ Value::Str(_) => Some(value.clone()),
            value @ (Value::Int(_) | Value::Bool(_)) if !as_string => Some(value.clone()),
            _ => None,
        }
    }

    /// The choice point a tested condition is, and the branch that means
    /// "true": `$s == 'x'` and `$s != 'x'` share the equality choice of
    /// their subject; anything else is keyed by its text.
    pub(super) fn condition_choice(&mut self, tested: &Expr, ctx: &Ctx) -> (u32, u16) {
        // `$is_debian` bound to `$os == 'Debian'` is that condition.
        if let Some((test, negated)) = self.derived_test(tested, ctx) {
            let (test, inverted) = strip_negation(&test);
            let (choice, true_branch) = self.condition_choice(test, ctx);
            return (choice, if inverted != negated { 1 - true_branch } else { true_branch });
        }
        if let Some(found) = self.branch_bound_test(tested, ctx) {
            return found;
        }
        if let ExprKind::Binary { op: op @ (BinaryOp::Equal | BinaryOp::NotEqual), left, right } = &tested.kind {
            let literal = |operand: &Expr| Self::literal(operand).or_else(|| self.known_scalar(operand, ctx));
            let pair = match (literal(left), literal(right)) {
                (None, Some(Value::Int(0))) => version_equality(left).or(Some((&**left, Value::Int(0)))),
                (Some(Value::Int(0)), None) => version_equality(right).or(Some((&**right, Value::Int(0)))),
                (None, Some(literal)) => Some((&**left, literal)),
                (Some(literal), None) => Some((&**right, literal)),
                _ => None,
            };
            if let Some((subject, literal)) = pair {
                if let Some(choice) = self.equality_choice(subject, &literal, ctx) {
                    return (choice, u16::from(*op == BinaryOp::Equal));
                }
            }
        }
        // `$x < 11` and `$x >= 11` (`>` and `<=`, `=~` and `!~`) are one
        // test, true on one side and false on the other.
        let mut whole_key = None;
        let (choice, true_branch) = match &tested.kind {
            ExprKind::Binary { op, left, right } => match op {
                BinaryOp::Less | BinaryOp::GreaterEqual => {
                    (self.choice_for("if <", &[left, right], ctx), u16::from(*op == BinaryOp::Less))
                }
                BinaryOp::Greater | BinaryOp::LessEqual => {
                    (self.choice_for("if >", &[left, right], ctx), u16::from(*op == BinaryOp::Greater))
                }
                BinaryOp::Match | BinaryOp::NotMatch => {
                    let choice = self.choice_for("if =~", &[left, right], ctx);
                    if let ExprKind::Regex(pattern) = &right.kind {
                        self.out.regex_tests.entry(choice).or_insert_with(|| pattern.clone());
                    }
                    (choice, u16::from(*op == BinaryOp::Match))
                }
                _ => self.plain_choice(tested, ctx, &mut whole_key),
            },
            _ => self.plain_choice(tested, ctx, &mut whole_key),
        };
        // `$x =~ /re/`, `$x in [...]`, `$x > 1` test the value `$x`.
        let tested_value = match &tested.kind {
            ExprKind::Binary { op, left, right }
                if !matches!(op, BinaryOp::And | BinaryOp::Or) && Self::is_constant(right) =>
            {
                &**left
            }
            _ => tested,
        };
        // `$x == 'a' or $x == 'b'` tests `$x` as `$x in ['a', 'b']` does.
        let disjuncts = self.or_of_equalities(tested, ctx);
        let subject = match &disjuncts {
            Some((subject, _)) => *subject,
            None if std::ptr::eq(tested_value, tested) => self.subject_id_keyed(tested_value, ctx, whole_key),
            None => self.subject_id(tested_value, ctx),
        };
        self.out.choice_subjects.insert(choice, subject);
        // `$x in ['a', 'b']`: true means `$x` equals one of them.
        let set: Option<Vec<Value>> = match (&tested.kind, disjuncts) {
            (_, Some((_, values))) => Some(values),
            (ExprKind::Binary { op: BinaryOp::In, right, .. }, None) => match &right.kind {
                ExprKind::Array(items) => items.iter().map(Self::literal).collect(),
                _ => None,
            },
            _ => None,
        };
        if let Some(values) = set.filter(|values| !values.is_empty()) {
            let keys: Option<Vec<String>> = values.iter().map(Self::literal_key).collect();
            if let Some(keys) = keys {
                self.out.literal_sets.entry(choice).or_insert(keys);
            }
            let names: Option<Vec<String>> = values
                .iter()
                .map(|v| match v {
                    Value::Str(s) => Some(s.to_lowercase()),
                    _ => None,
                })
                .collect();
            if let (Some(&family), Some(names)) = (self.os_subjects.get(&subject), names) {
                self.out.os_equalities.entry(choice).or_insert((family, names));
            }
        }
        if let std::collections::hash_map::Entry::Vacant(arity) = self.choice_arity.entry(choice) {
            arity.insert(2);
            let place = self.place_of(&[tested], ctx);
            let inverted = true_branch == 0;
            self.label(choice, ChoiceLabel::Condition { at: loc(ctx.file, tested), place, inverted });
        }
        (choice, true_branch)
    }

    /// The choice of a condition keyed by its whole text, whose key is
    /// kept: the condition's subject, when it is the whole expression, is
    /// keyed by the same.
    fn plain_choice(&mut self, tested: &Expr, ctx: &Ctx, key: &mut Option<ConditionKey>) -> (u32, u16) {
        let whole = self.condition_key("if", &[tested], ctx);
        *key = Some(whole.clone());
        (self.choice_for_key(whole), 1)
    }

    /// `$x == 'a' or $x == 'b' …`: the one subject every operand compares
    /// with a literal, and the literals.
    fn or_of_equalities(&mut self, tested: &Expr, ctx: &Ctx) -> Option<(u32, Vec<Value>)> {
        fn disjuncts<'e>(expr: &'e Expr, out: &mut Vec<&'e Expr>) {
            match &expr.kind {
                ExprKind::Paren(inner) => disjuncts(inner, out),
                ExprKind::Binary { op: BinaryOp::Or, left, right } => {
                    disjuncts(left, out);
                    disjuncts(right, out);
                }
                _ => out.push(expr),
            }
        }
        if !matches!(&tested.kind, ExprKind::Binary { op: BinaryOp::Or, .. }) {
            return None;
        }
        let mut operands = Vec::new();
        disjuncts(tested, &mut operands);
        let mut subject = None;
        let mut values = Vec::new();
        for operand in operands {
            let ExprKind::Binary { op: BinaryOp::Equal, left, right } = &operand.kind else { return None };
            let (tested_value, literal) = match (Self::literal(left), Self::literal(right)) {
                (None, Some(literal)) => (&**left, literal),
                (Some(literal), None) => (&**right, literal),
                _ => return None,
            };
            let id = self.subject_id(tested_value, ctx);
            if subject.is_some_and(|s| s != id) {
                return None;
            }
            subject = Some(id);
            values.push(literal);
        }
        subject.map(|s| (s, values))
    }

    /// What `defined(…)` tests inside a condition say when the condition
    /// has the truth value `holds`: `[(what, is it defined)]`.
    fn guards_of(&self, expr: &Expr, holds: bool, file: FileId) -> Vec<(Guarded, bool)> {
        match &expr.kind {
            ExprKind::Paren(inner) => self.guards_of(inner, holds, file),
            ExprKind::Unary { op: UnaryOp::Not, operand } => self.guards_of(operand, !holds, file),
            ExprKind::Call(call) if call.name == "defined" => {
                self.defined_targets.get(&(file, expr.span.start)).map(|g| (g.clone(), holds)).into_iter().collect()
            }
            // `a and b` true: both hold; `a or b` false: neither holds.
            ExprKind::Binary { op: BinaryOp::And, left, right } if holds => {
                let mut all = self.guards_of(left, true, file);
                all.extend(self.guards_of(right, true, file));
                all
            }
            ExprKind::Binary { op: BinaryOp::Or, left, right } if !holds => {
                let mut all = self.guards_of(left, false, file);
                all.extend(self.guards_of(right, false, file));
                all
            }
            // `if $x { … }`: an unbound `$x` is undef, so the body runs only
            // where it is bound.
            ExprKind::Variable(v) if holds && !v.is_match_variable() => {
                vec![(Guarded::Variable(v.unanchored().to_string()), true)]
            }
            // Where a fact is there (`'x' in $facts`, `has_key($facts, 'x')`,
            // `$facts['x']`, `$facts['x'] != undef`), `$::x` is bound.
            _ if holds => fact_tested_present(expr).map(|name| (Guarded::Variable(name), true)).into_iter().collect(),
            _ => Vec::new(),
        }
    }

    pub(super) fn add_guards(&mut self, condition: &Expr, choice: u32, true_branch: u16, file: FileId) {
        for (holds, branch) in [(true, true_branch), (false, 1 - true_branch)] {
            for (what, defined) in self.guards_of(condition, holds, file) {
                let same_branch = self.guards_by_branch.entry((choice, branch)).or_default();
                let guards = &self.out.guards;
                if !same_branch.iter().any(|&g| guards[g].what == what && guards[g].defined == defined) {
                    same_branch.push(guards.len());
                    self.out.guards.push(Guard { choice, branch, what, defined });
                }
            }
        }
    }

    /// The choices that the literal options of a `case` or selector on
    /// `subject` are, in order, each as (choice point, branch meaning
    /// "matches"); `None` for a matcher that is not a literal. `true` and
    /// `false` share the choice of `if subject`.
    pub(super) fn option_choices(
        &mut self,
        subject: &Expr,
        options: &[Vec<&Expr>],
        ctx: &Ctx,
    ) -> Vec<Vec<Option<(u32, u16)>>> {
        options
            .iter()
            .map(|matchers| {
                matchers
                    .iter()
                    .map(|m| match Self::literal(m)? {
                        Value::Bool(b) => {
                            let (choice, true_branch) = self.condition_choice(subject, ctx);
                            Some((choice, if b { true_branch } else { 1 - true_branch }))
                        }
                        literal => self.equality_choice(subject, &literal, ctx).map(|c| (c, 1)),
                    })
                    .collect()
            })
            .collect()
    }

    /// The path of option `i` on an unknown subject: the option's own
    /// branch (when it is one literal) and the literals of the options
    /// before it unmatched.
    pub(super) fn option_path(base: &PathCond, choices: &[Vec<Option<(u32, u16)>>], i: usize) -> PathCond {
        let mut atoms: PathCond = Vec::new();
        if let Some([Some(own)]) = choices.get(i).map(Vec::as_slice) {
            atoms.push(*own);
        }
        for earlier in &choices[..i.min(choices.len())] {
            atoms.extend(earlier.iter().flatten().map(|(c, branch)| (*c, 1 - branch)));
        }
        join(base, &atoms)
    }
}

/// What a test of `$hash[$key]…` says of `$key` when the hash and any other
/// keys are known: the path atoms that hold when the value is true and when
/// it is false.
pub(super) enum KeyedTest {
    /// No key of the hash gives a true value: the test is false.
    Never,
    Atoms {
        holds: PathCond,
        fails: PathCond,
    },
}

/// Hashes with more keys than this are not split by key.
const MAX_KEYED_ENTRIES: usize = 64;

impl<'m, 'a> Interpreter<'m, 'a> {
    /// A test of a known hash read with one unknown key (`if $cmds[$p]` or
    /// `if $cmds[$p][$v]` with `$cmds` and `$v` known): true exactly when
    /// `$p` is a key whose value is true, so it is a test of `$p` against
    /// those keys, shared with `$p == 'x'` and `case $p`.
    pub(super) fn keyed_test(&mut self, tested: &Expr, ctx: &Ctx) -> Option<KeyedTest> {
        let mut keys: Vec<&Expr> = Vec::new();
        let mut base = tested;
        while let ExprKind::Access { object, index } = &base.kind {
            let [key] = index.as_slice() else { return None };
            keys.push(key);
            base = object;
        }
        keys.reverse();
        if keys.is_empty() {
            return None;
        }
        // Read again without evaluating: the test itself was evaluated.
        let mut object = self.peek(base, ctx)?;
        let values: Vec<Value> = keys.iter().map(|k| self.peek(k, ctx)).collect::<Option<_>>()?;
        let unknown = values.iter().position(|v| *v == Value::Unknown)?;
        if values.iter().filter(|v| **v == Value::Unknown).count() > 1 {
            return None;
        }
        for key in &values[..unknown] {
            object = super::expressions::access(&object, std::slice::from_ref(key));
        }
        let Value::Hash(entries) = object else { return None };
        if entries.len() > MAX_KEYED_ENTRIES {
            return None;
        }
        let (mut truthy, mut falsy) = (Vec::new(), Vec::new());
        for (key, value) in &entries {
            if !matches!(key, Value::Str(_) | Value::Int(_)) {
                return None;
            }
            let mut value = value.clone();
            for later in &values[unknown + 1..] {
                // Reading into undef fails in Puppet: no branch runs there.
                value = match value {
                    Value::Undef => Value::Undef,
                    other => super::expressions::access(&other, std::slice::from_ref(later)),
                };
            }
            match value.truthy()? {
                true => truthy.push(key),
                false => falsy.push(key),
            }
        }
        // Keys equal as `==` compares them would share one choice.
        let mut literal_keys: Vec<String> = entries.iter().filter_map(|(k, _)| Self::literal_key(k)).collect();
        literal_keys.sort_unstable();
        literal_keys.dedup();
        if literal_keys.len() != entries.len() {
            return None;
        }
        if truthy.is_empty() {
            return Some(KeyedTest::Never);
        }
        let subject = keys[unknown];
        let choice_of = |this: &mut Self, key: &Value| this.equality_choice(subject, key, ctx);
        let mut holds: PathCond = Vec::new();
        if let [only] = truthy.as_slice() {
            holds.push((choice_of(self, only)?, 1));
        } else {
            for key in &falsy {
                holds.push((choice_of(self, key)?, 0));
            }
        }
        let mut fails: PathCond = Vec::new();
        for key in &truthy {
            fails.push((choice_of(self, key)?, 0));
        }
        Some(KeyedTest::Atoms { holds: join(&Vec::new(), &holds), fails: join(&Vec::new(), &fails) })
    }

    /// The value of a literal or of a local variable, read without
    /// recording the read; `None` for anything else.
    fn peek(&self, expr: &Expr, ctx: &Ctx) -> Option<Value> {
        match &expr.kind {
            ExprKind::Variable(variable) if variable.split_scope().is_none() => self
                .find_binding(ctx.scope, variable.unanchored(), &ctx.path)
                .map(|(_, binding)| binding.value.clone().on_path(&ctx.path)),
            _ => Self::literal(expr),
        }
    }

    /// Whether `tested` is a parameter of the class or defined type whose
    /// scope `ctx` runs in, of a type that holds no falsy value (`String`,
    /// `Stdlib::Absolutepath`): whatever its value, it is true. A binding
    /// of that name there is the parameter: it cannot be assigned again.
    pub(super) fn surely_truthy(&self, tested: &Expr, ctx: &Ctx) -> bool {
        let ExprKind::Variable(v) = &tested.kind else { return false };
        if v.split_scope().is_some() || !self.scopes[ctx.scope].vars.contains_key(&*v.name) {
            return false;
        }
        let (params, file) = match &self.scopes[ctx.scope].kind {
            ScopeKind::Class(name) => match self.index.find_class(name, self.standalone) {
                Some((class, def)) => (&class.params, def.file),
                None => return false,
            },
            ScopeKind::Define { type_name, .. } => match self.index.find_define(type_name, self.standalone) {
                Some((define, def)) => (&define.params, def.file),
                None => return false,
            },
            _ => return false,
        };
        params.iter().find(|p| *p.name == *v.name).is_some_and(|param| self.type_is_truthy(param, file))
    }

    /// `$x in ['a', 'b']` where the path has found `$x` equal to one of the
    /// literals (true) or unequal to each (false).
    pub(super) fn decided_membership(&mut self, tested: &Expr, ctx: &Ctx) -> Option<bool> {
        let ExprKind::Binary { op: BinaryOp::In, left, right } = &tested.kind else { return None };
        let ExprKind::Array(items) = &right.kind else { return None };
        if items.is_empty() || !matches!(left.kind, ExprKind::Variable(_)) {
            return None;
        }
        let mut all_unequal = true;
        for item in items {
            let literal = Self::literal(item)?;
            let choice = self.equality_choice(left, &literal, ctx)?;
            match Self::decided(&ctx.path, choice) {
                Some(1) => return Some(true),
                Some(_) => {}
                None => all_unequal = false,
            }
        }
        all_unequal.then_some(false)
    }
}

/// `versioncmp($v, '8.1')` is 0 exactly when `$v` is the string `8.1`, for
/// a version of digits, dots and dashes only: Puppet compares such parts
/// one by one, numbers without leading zeros by value, and the strings at
/// the end. The subject and the version, then.
fn version_equality(call: &Expr) -> Option<(&Expr, Value)> {
    let ExprKind::Call(call) = &call.kind else { return None };
    let [subject, version] = call.args.as_slice() else { return None };
    if call.name.without_anchor() != "versioncmp" || call.lambda.is_some() {
        return None;
    }
    let Some(Value::Str(version)) = Interpreter::literal(version) else { return None };
    let plain = !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    plain.then_some((subject, Value::Str(version)))
}

/// The fact a condition, when true, shows the node has.
fn fact_tested_present(expr: &Expr) -> Option<String> {
    let is_facts = |e: &Expr| matches!(&e.kind, ExprKind::Variable(v) if v.unanchored() == "facts");
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Str(s) => s.as_literal(),
        _ => None,
    };
    let fact_access = |e: &Expr| match &e.kind {
        ExprKind::Access { object, index } if is_facts(object) => match index.as_slice() {
            [key] => literal(key),
            _ => None,
        },
        _ => None,
    };
    let name = match &expr.kind {
        ExprKind::Binary { op: BinaryOp::In, left, right } if is_facts(right) => literal(left),
        ExprKind::Binary { op: BinaryOp::NotEqual, left, right } if matches!(right.kind, ExprKind::Undef) => {
            fact_access(left)
        }
        ExprKind::Call(call) if call.name == "has_key" => match call.args.as_slice() {
            [hash, key] if is_facts(hash) => literal(key),
            _ => None,
        },
        _ => fact_access(expr),
    }?;
    (!name.is_empty() && !name.is_qualified()).then_some(name)
}

/// Two tests of one condition have one key: the same words (variables
/// bound to a data lookup or a class's variable written out as those), of
/// the same kind, and for a condition on local variables, found in the same
/// scopes. Texts are numbered by [`ConditionTexts::intern`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct ConditionKey {
    kind: u32,
    scopes: Option<smallvec::SmallVec<[u32; 4]>>,
    texts: smallvec::SmallVec<[u32; 2]>,
}

/// In [`ConditionKey::scopes`]: the variable is bound to a data lookup.
const DATA_LOOKUP: u32 = u32::MAX;

/// An unknown value tested: a fact by its structured name, or as written.
#[derive(PartialEq, Eq, Hash)]
pub(super) enum SubjectKey {
    Fact(String),
    Condition(ConditionKey),
}

/// What a condition's key takes from the text of one expression.
pub(super) struct ConditionText {
    /// It reads variables other than top-scope ones.
    reads_local: bool,
    /// Where the unqualified variables it reads are named in the file.
    names: smallvec::SmallVec<[(usize, usize); 2]>,
    /// Its words, each followed by a space, numbered.
    words: u32,
}

/// The texts of a compilation's conditions, by place, and the numbers of
/// the words of those texts.
#[derive(Default)]
pub(super) struct ConditionTexts {
    by_place: HashMap<(FileId, usize, usize), std::rc::Rc<ConditionText>>,
    numbers: HashMap<Box<str>, u32>,
}

impl ConditionTexts {
    /// The number of a text: the same for the same text.
    fn intern(&mut self, text: &str) -> u32 {
        if let Some(&number) = self.numbers.get(text) {
            return number;
        }
        let number = self.numbers.len() as u32;
        self.numbers.insert(text.into(), number);
        number
    }
}

/// Each word of `text` followed by one space, as `split_whitespace` splits
/// it; ASCII text, most conditions, a byte at a time.
fn push_words(key: &mut String, text: &str) {
    if !text.is_ascii() {
        for word in text.split_whitespace() {
            key.push_str(word);
            key.push(' ');
        }
        return;
    }
    // The ASCII characters `char::is_whitespace` takes.
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let Some(word_start) = bytes[start..].iter().position(|b| !space(b)) else { break };
        let word_start = start + word_start;
        let word_end = bytes[word_start..].iter().position(space).map_or(bytes.len(), |n| word_start + n);
        key.push_str(&text[word_start..word_end]);
        key.push(' ');
        start = word_end;
    }
}

/// The text of a condition with variables replaced: `'mx' in $services`
/// and `'mx' in $s` are one condition where both are `hiera('services',
/// [])`, `$v` in class `m` and `$m::v` one where both are the class's.
fn with_variables_written_out(piece: &str, written_out: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(piece.len());
    let mut rest = piece;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        let braced = after.starts_with('{');
        let name_start = if braced { &after[1..] } else { after };
        let end = name_start.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(name_start.len());
        let name = &name_start[..end];
        match written_out.iter().find(|(variable, _)| *variable == name) {
            Some((_, replacement)) => {
                out.push_str(replacement);
                let consumed = end + usize::from(braced) + usize::from(braced && name_start[end..].starts_with('}'));
                rest = &after[consumed..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{push_words, with_variables_written_out};

    #[test]
    fn words_are_split_as_split_whitespace_splits_them() {
        for text in ["", "  ", "$a == 'b'", "\t$a\n  ==\x0b'b' ", "x\u{a0}y  z", "\u{3000}a b"] {
            let mut key = String::new();
            push_words(&mut key, text);
            let expected: String = text.split_whitespace().map(|w| format!("{w} ")).collect();
            assert_eq!(key, expected, "{text:?}");
        }
    }

    #[test]
    fn writes_out_only_the_variables_named() {
        let written_out = [("s", "hiera('s', [])".to_string())];
        assert_eq!(
            with_variables_written_out("'mx' in $s and \"${s}x\" == $sx and $::s", &written_out),
            "'mx' in hiera('s', []) and \"hiera('s', [])x\" == $sx and $::s"
        );
    }
}
