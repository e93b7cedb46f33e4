//! `if`/`unless`, `case` and selectors: each branch evaluated under its
//! own path condition.

use std::borrow::Cow;

use super::conditions::{strip_negation, KeyedTest};
use super::expressions::is_number;
use super::{loc, Ctx, Interpreter};
use crate::model::record::*;
use crate::model::value::Value;
use crate::syntax::ast::*;

/// Whether evaluation goes on after alternatives of which one runs: only
/// if at least one of them does not fail.
struct ArmsDeath {
    before: bool,
    all_dead: bool,
}

impl ArmsDeath {
    fn new(interp: &mut Interpreter<'_, '_>) -> Self {
        ArmsDeath { before: std::mem::replace(&mut interp.dead, false), all_dead: true }
    }

    fn arm_done(&mut self, interp: &mut Interpreter<'_, '_>) {
        self.all_dead &= std::mem::replace(&mut interp.dead, false);
    }

    fn finish(self, interp: &mut Interpreter<'_, '_>) {
        interp.dead = self.before || self.all_dead;
    }
}

impl<'m, 'a> Interpreter<'m, 'a> {
    /// The choices each operand of `a and b` (nested, negated) takes when
    /// the whole holds; `None` when the path already rules one out, so that
    /// the whole cannot hold. Empty for another condition.
    fn conjuncts(&mut self, tested: &Expr, ctx: &Ctx) -> Option<PathCond> {
        let mut leaves = Vec::new();
        collect_conjuncts(tested, true, &mut leaves);
        if leaves.len() < 2 {
            return Some(Vec::new());
        }
        let mut atoms: PathCond = Vec::new();
        for (leaf, holds) in leaves {
            match self.decided_membership(leaf, ctx) {
                Some(member) if member != holds => return None,
                Some(_) => continue,
                None => {}
            }
            let (choice, true_branch) = self.condition_choice(leaf, ctx);
            let branch = if holds { true_branch } else { 1 - true_branch };
            match Self::decided(&ctx.path, choice) {
                Some(decided) if decided != branch => return None,
                Some(_) => {}
                None if atoms.iter().any(|(c, b)| *c == choice && *b != branch) => return None,
                None => atoms.push((choice, branch)),
            }
        }
        Some(atoms)
    }

    /// `if`/`elsif`/`else` and `unless`. A condition on an unknown value is a
    /// choice point; the branches after it run under its other branch.
    pub(super) fn eval_if(&mut self, conditional: &If, negate_first: bool, ctx: &Ctx) -> Value {
        let mut rest = ctx.clone();
        let mut all_dead = true;
        let mut unknown = false;
        for (i, b) in conditional.branches.iter().enumerate() {
            let value = self.eval(&b.condition, &rest);
            // `!x` and `unless x` test the same condition as `if x`.
            let (tested, inverted) = strip_negation(&b.condition);
            let negate = (i == 0 && negate_first) != inverted;
            let value = if inverted { value.truthy().map_or(Value::Unknown, |t| Value::Bool(!t)) } else { value };
            // `$is_debian` bound to `$os == 'Debian'` tests that condition.
            let derived = if value.truthy().is_none() { self.derived_test(tested, &rest) } else { None };
            let (tested, negate) = match &derived {
                Some((test, negated)) => {
                    let (test, inverted) = strip_negation(test);
                    (test, negate != (inverted != *negated))
                }
                None => (tested, negate),
            };
            let keyed = self.keyed_test(tested, &rest);
            let never = matches!(keyed, Some(KeyedTest::Never));
            let (holds, fails) = match keyed {
                Some(KeyedTest::Atoms { holds, fails }) => (holds, fails),
                _ => (Vec::new(), Vec::new()),
            };
            // What the path already says of the value tested.
            let against =
                |atoms: &PathCond| atoms.iter().any(|(c, b)| Self::decided(&rest.path, *c).is_some_and(|d| d != *b));
            let known = match () {
                _ if never => Some(false),
                _ if against(&holds) => Some(false),
                _ if against(&fails) => Some(true),
                _ if self.surely_truthy(tested, &rest) => Some(true),
                _ => self.decided_membership(tested, &rest),
            };
            let truth = match value.truthy().or(known) {
                Some(t) => Some(t != negate),
                None => {
                    let (choice, true_branch) = self.condition_choice(tested, &rest);
                    self.add_guards(tested, choice, true_branch, rest.file);
                    match Self::decided(&rest.path, choice) {
                        Some(branch) => Some((branch == true_branch) != negate),
                        None => {
                            unknown = true;
                            let (taken, not_taken) =
                                if negate { (1 - true_branch, true_branch) } else { (true_branch, 1 - true_branch) };
                            let (body_atoms, rest_atoms) = if negate { (fails, holds) } else { (holds, fails) };
                            let body_ctx = Self::with_choice(&rest, choice, taken);
                            let body_ctx = Ctx { path: join(&body_ctx.path, &body_atoms), ..body_ctx };
                            // Under `if a and b`, a and b each hold.
                            let conjuncts = if negate { Some(Vec::new()) } else { self.conjuncts(tested, &rest) };
                            if let Some(conjuncts) = conjuncts {
                                if !conjuncts.is_empty() {
                                    self.implied.entry((choice, taken)).or_insert_with(|| conjuncts.clone());
                                    self.out.conjuncts.entry(choice).or_insert_with(|| conjuncts.clone());
                                }
                                let body_ctx = Ctx { path: join(&body_ctx.path, &conjuncts), ..body_ctx };
                                let (_, dead) = self.eval_branch(&b.body, &body_ctx);
                                all_dead &= dead;
                            }
                            rest = Self::with_choice(&rest, choice, not_taken);
                            rest.path = join(&rest.path, &rest_atoms);
                            continue;
                        }
                    }
                }
            };
            match truth {
                Some(false) | None => continue,
                Some(true) => {
                    let (value, dead) = self.eval_branch(&b.body, &rest);
                    self.dead = dead && all_dead;
                    return if unknown { Value::Unknown } else { value };
                }
            }
        }
        let (value, dead) = match &conditional.else_body {
            Some(body) => self.eval_branch(body, &rest),
            None => (Value::Undef, false),
        };
        // The code after the `if` runs unless every way through it failed.
        self.dead = dead && all_dead;
        if unknown {
            Value::Unknown
        } else {
            value
        }
    }

    /// `case`: options in order; `default` only when nothing else matches.
    /// On an unknown value each option is a branch of one choice point, and
    /// its literals are equality choices shared with `if` tests.
    pub(super) fn eval_case(&mut self, case: &Case, ctx: &Ctx) -> Value {
        let value = self.eval(&case.value, ctx);
        let mut keyed: Vec<&Expr> = vec![&case.value];
        keyed.extend(case.options.iter().flat_map(|o| &o.matches));
        // The same options grouped otherwise are another choice: branch `i`
        // of each runs for different values.
        let grouping: Vec<String> = case.options.iter().map(|o| o.matches.len().to_string()).collect();
        let choice = self.choice_for(&format!("case {}", grouping.join(",")), &keyed, ctx);
        let has_default = case.options.iter().any(|o| o.matches.iter().any(|m| m.kind == ExprKind::Default));
        // Without `default`, "no option matches" is one more way through.
        self.choice_arity.insert(choice, case.options.len() as u16 + u16::from(!has_default));
        let subject = self.subject_id(&case.value, ctx);
        self.out.choice_subjects.insert(choice, subject);
        let matchers: Vec<Vec<Cow<Expr>>> =
            case.options.iter().map(|o| o.matches.iter().map(|m| self.as_meant(m)).collect()).collect();
        // Literal options, `default` excluded, for equality choices.
        let literal_options: Vec<Vec<&Expr>> = matchers
            .iter()
            .map(|option| {
                if option.iter().any(|m| m.kind == ExprKind::Default) {
                    Vec::new()
                } else {
                    option.iter().map(|m| &**m).collect()
                }
            })
            .collect();
        let option_choices = if value == Value::Unknown {
            self.option_choices(&case.value, &literal_options, ctx)
        } else {
            vec![Vec::new(); case.options.len()]
        };
        // An option of several literals says the value is one of them.
        if value == Value::Unknown {
            for (i, option) in literal_options.iter().enumerate().filter(|(_, o)| o.len() > 1) {
                if self.out.option_sets.contains_key(&(choice, i as u16)) {
                    continue;
                }
                let keys: Option<Vec<String>> =
                    option.iter().map(|m| Self::literal(m).as_ref().and_then(Self::literal_key)).collect();
                if let Some(keys) = keys {
                    self.out.option_sets.entry((choice, i as u16)).or_insert(keys);
                }
            }
        }
        if !self.out.labels.contains_key(&choice) {
            let options = case.options.iter().map(|o| o.matches.iter().map(|m| loc(ctx.file, m)).collect()).collect();
            let is_default = |i: usize| case.options[i].matches.iter().any(|m| m.kind == ExprKind::Default);
            let literal = |m: &Cow<Expr>| Self::literal(m).is_some();
            let all_literal = |i: usize| is_default(i) || matchers[i].iter().all(literal);
            let by_equalities = (0..case.options.len())
                .map(|i| {
                    // `default` matches when no option does, those after it too.
                    let others = if is_default(i) { 0..case.options.len() } else { 0..i };
                    all_literal(i) && others.filter(|j| *j != i).all(all_literal)
                })
                .collect();
            let default = (0..case.options.len()).find(|i| is_default(*i)).map(|i| i as u16);
            let subject = loc(ctx.file, &case.value);
            self.label(choice, ChoiceLabel::Case { subject, options, by_equalities, default });
        }
        let decided = Self::decided(&ctx.path, choice);
        // A version fact that is a string never matches a number.
        let numeric_option = || case.options.iter().flat_map(|o| &o.matches).any(is_number);
        let string_fact =
            if value == Value::Unknown && numeric_option() { self.string_fact_read(&case.value, ctx) } else { None };
        if string_fact.is_some() {
            let numbers: Vec<&Expr> = matchers.iter().flatten().map(|m| &**m).filter(|m| is_number(m)).collect();
            self.note_number_against_string_fact(&case.value, &numbers, NumberComparison::CaseOptions, ctx);
        }
        let mut all_dead = true;
        let mut default = None;
        // Whether every option so far surely did not match.
        let mut all_known_false = true;
        for (i, option) in case.options.iter().enumerate() {
            let mut truth = Some(false);
            let is_default = option.matches.iter().any(|m| m.kind == ExprKind::Default);
            for matcher in &matchers[i] {
                if matcher.kind == ExprKind::Default {
                    default = Some((i, &option.body));
                    continue;
                }
                let pattern = self.eval(matcher, ctx);
                if is_default {
                    // `'x', default:` runs as the default option.
                    continue;
                }
                if string_fact.is_some() && is_number(matcher) {
                    continue;
                }
                truth = match (truth, value.matches(&pattern)) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (None, _) | (_, None) => None,
                    _ => Some(false),
                };
            }
            if is_default {
                continue;
            }
            let never = string_fact.is_some() && matchers[i].iter().all(|m| is_number(m));
            if never {
                truth = Some(false);
            } else if let Some(branch) = decided {
                truth = Some(branch as usize == i);
            } else if truth.is_none() && option_choices[i].iter().all(Option::is_some) {
                // Earlier tests of the subject may have decided it.
                let known: Vec<Option<u16>> = option_choices[i]
                    .iter()
                    .flatten()
                    .map(|(c, matching)| Self::decided(&ctx.path, *c).map(|b| u16::from(b == *matching)))
                    .collect();
                if known.contains(&Some(1)) {
                    truth = Some(true);
                } else if !known.is_empty() && known.iter().all(|k| *k == Some(0)) {
                    truth = Some(false);
                }
            }
            // An option that surely matches a known value is no choice,
            // unless an earlier option may have matched first.
            let body_ctx = if value == Value::Unknown || truth.is_none() || !all_known_false {
                let own = Self::option_path(&Vec::new(), &option_choices, i);
                self.implied.entry((choice, i as u16)).or_insert(own);
                let body_path = Self::option_path(&ctx.path, &option_choices, i);
                Ctx { path: join(&body_path, &[(choice, i as u16)]), ..ctx.clone() }
            } else {
                ctx.clone()
            };
            match truth {
                Some(false) => continue,
                Some(true) => {
                    let (_, dead) = self.eval_branch(&option.body, &body_ctx);
                    self.dead = dead && all_dead;
                    return Value::Unknown;
                }
                None => {
                    all_known_false = false;
                    let (_, dead) = self.eval_branch(&option.body, &body_ctx);
                    all_dead &= dead;
                }
            }
        }
        let dead = match default {
            Some((i, body)) if decided.is_none_or(|b| b as usize == i) => {
                let body_ctx = if value == Value::Unknown || !all_known_false {
                    let own = Self::option_path(&Vec::new(), &option_choices, option_choices.len());
                    self.implied.entry((choice, i as u16)).or_insert(own);
                    let body_path = Self::option_path(&ctx.path, &option_choices, option_choices.len());
                    Ctx { path: join(&body_path, &[(choice, i as u16)]), ..ctx.clone() }
                } else {
                    ctx.clone()
                };
                self.eval_branch(body, &body_ctx).1
            }
            Some(_) => true,
            None => false,
        };
        self.dead = dead && all_dead;
        Value::Unknown
    }

    /// A selector: the first matching key, `default` last wherever it is
    /// written. On an unknown subject whose keys are literals, each value
    /// is evaluated on its own branch (so `defined('$x') ? { true => $x }`
    /// reads `$x` only where it is defined), and the result is a choice
    /// between the values, each on the path that chose it.
    pub(super) fn eval_selector(&mut self, subject: &Expr, entries: &[SelectorEntry], ctx: &Ctx) -> Value {
        if entries.iter().any(|e| self.names_no_type(&e.matcher)) {
            let meant: Vec<SelectorEntry> = entries
                .iter()
                .map(|e| SelectorEntry { matcher: self.as_meant(&e.matcher).into_owned(), ..e.clone() })
                .collect();
            return self.eval_selector_keys(subject, &meant, ctx, false);
        }
        self.eval_selector_keys(subject, entries, ctx, true)
    }

    /// A selector's keys in order; `written` when they are as written (so
    /// that no key matching is Puppet's "No matching entry").
    fn eval_selector_keys(&mut self, subject: &Expr, entries: &[SelectorEntry], ctx: &Ctx, written: bool) -> Value {
        let value = self.eval(subject, ctx);
        let numeric_key = entries.iter().any(|e| is_number(&e.matcher));
        if value == Value::Unknown && numeric_key && self.string_fact_read(subject, ctx).is_some() {
            let numbers: Vec<&Expr> = entries.iter().map(|e| &e.matcher).filter(|m| is_number(m)).collect();
            self.note_number_against_string_fact(subject, &numbers, NumberComparison::SelectorKeys, ctx);
        }
        let patterns: Vec<Value> = entries.iter().map(|e| self.eval(&e.matcher, ctx)).collect();
        let literal_keys =
            entries.iter().all(|e| e.matcher.kind == ExprKind::Default || Self::literal(&e.matcher).is_some());
        if value.truthy().is_none() && literal_keys {
            let keys: Vec<Vec<&Expr>> =
                entries.iter().filter(|e| e.matcher.kind != ExprKind::Default).map(|e| vec![&e.matcher]).collect();
            let choices = self.option_choices(subject, &keys, ctx);
            if choices.iter().all(|c| c[0].is_some()) {
                if let Some((choice, _)) = choices
                    .iter()
                    .find_map(|c| c[0])
                    .filter(|_| keys.iter().any(|k| matches!(Self::literal(k[0]), Some(Value::Bool(_)))))
                {
                    self.add_guards(subject, choice, 1, ctx.file);
                }
                let mut alternatives = Vec::new();
                let mut default = None;
                let mut index = 0;
                let mut arms = ArmsDeath::new(self);
                for entry in entries {
                    if entry.matcher.kind == ExprKind::Default {
                        default.get_or_insert(entry);
                        continue;
                    }
                    let path = Self::option_path(&Vec::new(), &choices, index);
                    index += 1;
                    let branch = Ctx { path: join(&ctx.path, &path), ..ctx.clone() };
                    let outcome = self.eval(&entry.value, &branch);
                    arms.arm_done(self);
                    alternatives.push((path, outcome));
                }
                if let Some(entry) = default {
                    let path = Self::option_path(&Vec::new(), &choices, choices.len());
                    let branch = Ctx { path: join(&ctx.path, &path), ..ctx.clone() };
                    let outcome = self.eval(&entry.value, &branch);
                    arms.arm_done(self);
                    alternatives.push((path, outcome));
                }
                arms.finish(self);
                return Value::Choice(alternatives);
            }
        }
        // Puppet evaluates only the chosen value; when the choice is known,
        // so does this.
        let mut chosen = None;
        for (i, pattern) in patterns.iter().enumerate() {
            if *pattern == Value::Default {
                continue;
            }
            match value.matches(pattern) {
                Some(true) => {
                    chosen = Some(Some(i));
                    break;
                }
                None => {
                    chosen = Some(None);
                    break;
                }
                Some(false) => {}
            }
        }
        let chosen = chosen.unwrap_or_else(|| patterns.iter().position(|p| *p == Value::Default));
        if let Some(i) = chosen {
            return self.eval(&entries[i].value, ctx);
        }
        // Every case surely fails to match a known scalar and there is no
        // `default`: Puppet stops here.
        let scalar = matches!(value, Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_));
        if scalar
            && written
            && patterns.iter().all(|p| value.matches(p) == Some(false))
            && !self.reads_class_parameter(subject, ctx)
        {
            let shown = match &value {
                Value::Str(s) => format!("'{s}'"),
                other => other.to_text().unwrap_or_default(),
            };
            self.out.events.push(Event::SelectorWithoutMatch {
                value: shown,
                loc: loc(ctx.file, subject),
                by: ctx.owner.clone(),
            });
        }
        let mut arms = ArmsDeath::new(self);
        for entry in entries {
            self.eval(&entry.value, ctx);
            arms.arm_done(self);
        }
        arms.finish(self);
        Value::Unknown
    }

    /// Whether an expression reads a class parameter: its value may come
    /// from Hiera data the tree does not hold.
    fn reads_class_parameter(&self, expr: &Expr, ctx: &Ctx) -> bool {
        let mut reads = false;
        expr.walk(&mut |e| {
            let ExprKind::Variable(variable) = &e.kind else { return };
            let found = match variable.split_scope() {
                Some(("", _)) => None,
                Some((class, leaf)) => self
                    .classes
                    .get(&crate::model::index::normalize_name(class))
                    .and_then(|state| state.scope)
                    .map(|scope| (scope, leaf)),
                None => self
                    .find_binding(ctx.scope, variable.unanchored(), &ctx.path)
                    .map(|(scope, _)| (scope, variable.unanchored())),
            };
            if let Some((scope, name)) = found {
                if let ScopeKind::Class(class) = &self.scopes[scope].kind {
                    let params = self.index.find_class(class, self.standalone).map(|(c, _)| &c.params);
                    reads |= params.is_some_and(|params| params.iter().any(|p| p.name == name));
                }
            }
        });
        reads
    }
}

/// The operands of nested `and`s, each with whether it holds when the
/// whole does (`!x` holds as `x` not holding).
fn collect_conjuncts<'e>(expr: &'e Expr, holds: bool, leaves: &mut Vec<(&'e Expr, bool)>) {
    let (inner, inverted) = strip_negation(expr);
    match &inner.kind {
        ExprKind::Binary { op: BinaryOp::And, left, right } if !inverted => {
            collect_conjuncts(left, holds, leaves);
            collect_conjuncts(right, holds, leaves);
        }
        _ => leaves.push((inner, holds != inverted)),
    }
}
