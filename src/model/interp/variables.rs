//! Variables and scopes: binding, Puppet's lookup rules, and the record
//! of every read.

use rustc_hash::FxHashMap as HashMap;

use super::{Binding, Ctx, Interpreter};
use crate::model::facts::BUILT_IN_VARIABLES;
use crate::model::index::{normalize_name, Loc};
use crate::model::record::*;
use crate::model::value::Value;
use crate::syntax::ast::*;

impl<'m, 'a> Interpreter<'m, 'a> {
    pub(super) fn bind(&mut self, ctx: &Ctx, name: &str, value: Value, at: Option<Loc>) {
        let bound = self.scopes[ctx.scope].vars.get(name).map_or(&[][..], |b| b.as_slice());
        let earlier: Vec<&Binding> = bound.iter().filter(|b| compatible(&b.path, &ctx.path)).collect();
        if !earlier.is_empty() {
            // Reported only when some earlier assignment surely ran first.
            let paths: Vec<PathCond> = earlier.iter().map(|b| b.path.clone()).collect();
            let first = earlier[0].loc;
            if let Some(at) = at {
                let paths = paths.into_iter().map(|p| self.without_implied(p)).collect();
                if surely_ran(paths, &self.without_implied(ctx.path.clone()), &self.choice_arity) {
                    self.out.events.push(Event::Reassigned { name: name.to_string(), loc: at, first });
                    return;
                }
            }
        }
        self.bind_unchecked(ctx, name, value, at);
    }

    /// Binds `name` on the current path, whatever was bound before.
    pub(super) fn bind_unchecked(&mut self, ctx: &Ctx, name: &str, value: Value, at: Option<Loc>) {
        let binding = Binding { value, loc: at, path: ctx.path.clone() };
        match self.scopes[ctx.scope].vars.get_mut(name) {
            Some(bindings) => bindings.push(binding),
            None => {
                self.scopes[ctx.scope].vars.insert(name.to_string(), smallvec::smallvec![binding]);
            }
        }
    }

    /// A path without the atoms its `case` branches imply: what is left
    /// decides whether branches together cover every way through.
    pub(super) fn without_implied(&self, path: PathCond) -> PathCond {
        let implied: Vec<(u32, u16)> =
            path.iter().filter_map(|atom| self.implied.get(atom)).flatten().copied().collect();
        if implied.is_empty() {
            return path;
        }
        path.into_iter().filter(|atom| !implied.contains(atom)).collect()
    }

    /// Binds a parameter or built-in without the reassignment check.
    pub(super) fn bind_quietly(&mut self, scope: ScopeId, name: &str, value: Value, at: Option<Loc>) {
        self.scopes[scope]
            .vars
            .insert(name.to_string(), smallvec::smallvec![Binding { value, loc: at, path: Vec::new() }]);
    }

    pub(super) fn local(&self, scope: ScopeId, name: &str, path: &PathCond) -> Option<&Binding> {
        self.local_with_others(scope, name, path).map(|(_, binding)| binding)
    }

    /// As [`Self::local`], with every binding of the name in the scope.
    fn local_with_others(&self, scope: ScopeId, name: &str, path: &PathCond) -> Option<(&[Binding], &Binding)> {
        let bindings = self.scopes[scope].vars.get(name)?;
        Some((bindings, bindings.iter().rev().find(|b| compatible(&b.path, path))?))
    }

    /// The scopes an unqualified lookup from `start` searches, in order.
    fn searched_from(&self, start: ScopeId) -> Vec<ScopeKind> {
        let mut searched = Vec::new();
        let mut scope = Some(start);
        while let Some(s) = scope {
            if searched.len() > self.scopes.len() {
                break;
            }
            searched.push(self.scopes[s].kind.clone());
            scope = self.outer(s);
        }
        searched
    }

    /// Puppet's unqualified lookup: the scope, then the inherited class's
    /// scope or else the enclosing top or node scope; lambdas look outward.
    /// On a miss, [`Self::searched_from`] lists the scopes searched.
    pub(super) fn find_binding(&self, start: ScopeId, name: &str, path: &PathCond) -> Option<(ScopeId, &Binding)> {
        self.find_bindings(start, name, path).map(|(scope, _, binding)| (scope, binding))
    }

    /// As [`Self::find_binding`], with every binding of the name in the
    /// scope it is found in.
    fn find_bindings(&self, start: ScopeId, name: &str, path: &PathCond) -> Option<(ScopeId, &[Binding], &Binding)> {
        let mut scope = start;
        for _ in 0..self.scopes.len() + 1 {
            if let Some((others, binding)) = self.local_with_others(scope, name, path) {
                return Some((scope, others, binding));
            }
            scope = self.outer(scope)?;
        }
        None
    }

    /// The scope an unqualified lookup searches after `scope`.
    fn outer(&self, scope: ScopeId) -> Option<ScopeId> {
        let s = &self.scopes[scope];
        match s.kind {
            ScopeKind::Lambda => s.lexical,
            ScopeKind::Top => None,
            _ => s.inherited.or(s.enclosing),
        }
    }

    /// An assignment the lookup chain from `start` holds on any path.
    fn assigned_on_other_paths(&self, start: ScopeId, name: &str) -> Option<Loc> {
        let mut scope = start;
        for _ in 0..self.scopes.len() + 1 {
            let s = &self.scopes[scope];
            if let Some(loc) = s.vars.get(name).and_then(|bs| bs.iter().find_map(|b| b.loc)) {
                return Some(loc);
            }
            scope = match s.kind {
                ScopeKind::Lambda => s.lexical?,
                ScopeKind::Top => return None,
                _ => s.inherited.or(s.enclosing)?,
            };
        }
        None
    }

    /// `$a::b::x`: the scope of class `a::b` (it must be declared), then the
    /// classes it inherits from; `$::x` reads top scope.
    fn lookup_qualified(
        &self,
        class: &str,
        leaf: &str,
        path: &PathCond,
    ) -> Result<(ScopeId, &Binding), Vec<ScopeKind>> {
        if class.is_empty() {
            return self.local(self.top, leaf, path).map(|b| (self.top, b)).ok_or_else(|| vec![ScopeKind::Top]);
        }
        let Some(mut scope) = self.classes.get(&normalize_name(class)).and_then(|s| s.scope) else {
            return Err(vec![ScopeKind::Class(normalize_name(class).into())]);
        };
        let mut searched = Vec::new();
        for _ in 0..self.scopes.len() + 1 {
            if let Some(binding) = self.local(scope, leaf, &Vec::new()) {
                return Ok((scope, binding));
            }
            searched.push(self.scopes[scope].kind.clone());
            match self.scopes[scope].inherited {
                Some(parent) => scope = parent,
                None => break,
            }
        }
        Err(searched)
    }

    pub(super) fn resolve(&self, scope: ScopeId, variable: &Variable, path: &PathCond) -> (Value, ReadOutcome) {
        let name = variable.unanchored();
        if variable.is_match_variable() {
            return (Value::Unknown, ReadOutcome::BuiltIn);
        }
        let split = variable.split_scope();
        let found = match split {
            Some(("settings", _)) => return (Value::Unknown, ReadOutcome::BuiltIn),
            Some((class, leaf)) => self.lookup_qualified(class, leaf, path).map(|(scope, binding)| {
                let others = self.scopes[scope].vars.get(leaf).map_or(&[][..], |v| v.as_slice());
                (scope, others, binding)
            }),
            None => self.find_bindings(scope, name, path).ok_or_else(|| self.searched_from(scope)),
        };
        match found {
            Ok((scope, candidates, binding)) => {
                // Bound on several paths (the branches of an `if`): the value
                // is known only if every branch agrees.
                let agree = candidates
                    .iter()
                    .filter(|other| compatible(&other.path, path))
                    .all(|other| other.value == binding.value);
                let value = if agree { binding.value.clone() } else { Value::Unknown };
                (value, ReadOutcome::Bound { kind: self.scopes[scope].kind.clone(), binding: binding.loc })
            }
            Err(searched) => {
                let leaf = split.map_or(name, |(class, leaf)| if class.is_empty() { leaf } else { "" });
                if !leaf.is_empty() && self.facts.is_fact(leaf) {
                    (Value::Unknown, ReadOutcome::Fact)
                } else if !leaf.is_empty() && BUILT_IN_VARIABLES.contains(&leaf) {
                    (Value::Unknown, ReadOutcome::BuiltIn)
                } else {
                    let elsewhere = match split {
                        None => self.assigned_on_other_paths(scope, name),
                        Some(_) => None,
                    };
                    (Value::Unknown, ReadOutcome::Unbound { searched, elsewhere })
                }
            }
        }
    }

    pub(super) fn read(&mut self, variable: &Variable, at: Loc, ctx: &Ctx) -> Value {
        let (value, outcome) = self.resolve(ctx.scope, variable, &ctx.path);
        let value = value.on_path(&ctx.path);
        if outcome == ReadOutcome::Fact {
            let form = if variable.name.starts_with("::") { FactForm::TopScope } else { FactForm::Variable };
            self.out.fact_reads.push(FactRead { loc: at, name: variable.unanchored().into(), form, template: None });
        }
        // Only what the rules ask about is kept: reads found in node scope,
        // unqualified reads a class or defined type makes of top scope, and
        // reads that found nothing (perhaps bound later) where no
        // `defined('$x')` guards them.
        let queried = match &outcome {
            ReadOutcome::Bound { kind: ScopeKind::Node, .. } => true,
            ReadOutcome::Bound { kind: ScopeKind::Top, binding: Some(_) } => {
                matches!(ctx.owner, Owner::Class(_) | Owner::Define(_)) && !variable.name.is_qualified()
            }
            ReadOutcome::Unbound { .. } => {
                !self.out.guarded(&ctx.path, true, |g| matches!(g, Guarded::Variable(v) if v == variable.unanchored()))
            }
            _ => false,
        };
        // A name Puppet refuses fails the file at parse time, which
        // illegal-name reports; how it would resolve is moot.
        if queried && crate::syntax::ast::variable_name_problem(&variable.name).is_none() {
            self.out.reads.push(Read {
                loc: at,
                name: variable.name.clone(),
                reader: ctx.owner.clone(),
                scope: ctx.scope,
                path: ctx.path.clone(),
                outcome,
                in_parameter_default: ctx.in_default,
                default_replaced: false,
                with_fallback: false,
            });
        }
        value
    }

    /// Reads that found nothing are looked up again once the compilation is
    /// over: a binding found then came too late.
    pub(super) fn finish_reads(&mut self) {
        let mut reads = std::mem::take(&mut self.out.reads);
        for read in &mut reads {
            if !matches!(read.outcome, ReadOutcome::Unbound { .. }) {
                continue;
            }
            let variable = Variable { name: read.name.clone() };
            if let (_, ReadOutcome::Bound { kind, binding }) = self.resolve(read.scope, &variable, &read.path) {
                read.outcome = ReadOutcome::LaterBound { kind, binding };
            }
        }
        self.out.reads = reads;
    }
}

/// Did at least one of the code paths `paths` run whenever `current` runs?
/// True when one is implied by `current`, or when together they cover every
/// branch of a choice point (merged repeatedly: `{Q+(c,0), Q+(c,1)}` → `Q`).
pub(super) fn surely_ran(mut paths: Vec<PathCond>, current: &PathCond, arity: &HashMap<u32, u16>) -> bool {
    let implied = |p: &PathCond| p.iter().all(|c| current.contains(c));
    for _ in 0..64 {
        if paths.iter().any(implied) {
            return true;
        }
        let mut merged = None;
        'search: for p in &paths {
            for &(choice, _) in p {
                let rest: PathCond = p.iter().filter(|c| c.0 != choice).copied().collect();
                let branches: std::collections::BTreeSet<u16> = paths
                    .iter()
                    .filter(|q| q.iter().filter(|c| c.0 != choice).copied().collect::<PathCond>() == rest)
                    .filter_map(|q| q.iter().find(|c| c.0 == choice).map(|c| c.1))
                    .collect();
                if arity.get(&choice).is_some_and(|n| branches.len() >= *n as usize) {
                    merged = Some((choice, rest));
                    break 'search;
                }
            }
        }
        let Some((choice, rest)) = merged else { return false };
        paths.retain(|q| q.iter().filter(|c| c.0 != choice).copied().collect::<PathCond>() != rest);
        paths.push(rest);
    }
    false
}
