//! Which of a kernel's channels are never sent on: made unbuffered, they are done
//! channels (`Go::done_chan`), as a context's `Done()` is. Go has no such type; a
//! stop or done channel that a kernel only receives from and closes is one in
//! practice, and under `dpor` a select waiting there beside buffered channels is
//! kept back (docs/dpor.md).
//!
//! The kernel has no static types here, so this follows where each `make(chan ...)`
//! can flow, by name: every variable, parameter and struct field of one name is one
//! slot, and the results of every function and method of one name are one. A channel
//! is never sent on when no slot it can reach is the channel of a send, and none is
//! used where the walk loses track of it (stored in a map, a slice, a pointer's
//! target, sent, passed to a library call or to a function value). Merging slots by
//! name only adds uses, so every error errs toward "may be sent on". Should it err the
//! other way, the send panics the model ("a send on a done channel"): a false finding,
//! never a false proof, since dpor explores the send wherever an execution makes it.

use super::ast::*;
use super::check::BUILTINS;
use super::library::LIB_MEMBERS;
use std::collections::{BTreeMap, BTreeSet};

/// Where a value can be.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    /// Every variable, parameter and field of this name.
    Name(String),
    /// Every result of every function, method and immediately called literal of this
    /// name (not told apart by position: `return f()`, `f(g())` and `a, b := f()`
    /// spread them).
    Result(String),
    /// A `make(chan ...)` at this place.
    Make(u32, u32),
}

/// What an expression's context does with its value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    /// Reads it where no alias is made: a receive, a close, `len`, a comparison.
    Safe,
    /// Stores it in these slots.
    Flow(Vec<Slot>),
    /// Sends on it.
    Sent,
    /// Puts it where the walk cannot follow.
    Lost,
}

/// The places (line, column) of the `make(chan ...)` expressions whose channels are
/// never sent on.
pub fn never_sent(f: &File) -> BTreeSet<(u32, u32)> {
    let mut w = Walk::new(f);
    // A method promoted from an embedded field gets the field's value as its
    // receiver: an interface's, a named channel's.
    let receivers: Vec<Slot> = f
        .methods
        .iter()
        .filter_map(|m| m.2.recv.as_ref().map(|r| Slot::Name(r.0.clone())))
        .collect();
    for e in w.promoting.clone() {
        w.record(Slot::Name(e), Use::Flow(receivers.clone()));
    }
    for (names, _, vals) in &f.vars {
        let targets: Vec<Use> = names.iter().map(|n| name(n)).collect();
        w.values(&targets, vals);
    }
    for func in &f.funcs {
        w.func(func, Some(func.name.clone()));
    }
    for (_, m, func) in &f.methods {
        w.func(func, Some(m.clone()));
    }
    w.solve()
}

fn name(n: &str) -> Use {
    Use::Flow(vec![Slot::Name(n.to_string())])
}

struct Walk<'a> {
    f: &'a File,
    /// Names that may stand for something other than a declared function or type
    /// where called: variables, parameters and results anywhere (a package's
    /// included), type parameters. A call of such a name may call a function value.
    locals: BTreeSet<String>,
    /// Functions and methods used as values (not called where named): their results
    /// reach callers the walk does not see.
    fn_values: BTreeSet<String>,
    uses: BTreeMap<Slot, BTreeSet<Use>>,
    makes: Vec<Slot>,
    /// The result slots of the function the walk is in; `None` in a literal that is
    /// not called where it is written (its results go where the walk cannot follow).
    results: Option<String>,
    /// That function's named results, which a `return` assigns before its deferred
    /// calls run.
    named: Vec<String>,
    /// Fields a method may be promoted through: those of an embedded field's name
    /// (a named field of that name too, which only adds flows).
    promoting: BTreeSet<String>,
}

impl<'a> Walk<'a> {
    fn new(f: &'a File) -> Self {
        let mut locals = BTreeSet::new();
        for func in f.funcs.iter().chain(f.methods.iter().map(|m| &m.2)) {
            declared(func, &mut locals);
        }
        for (names, _, vals) in &f.vars {
            locals.extend(names.iter().cloned());
            vals.iter().for_each(|v| declared_in(v, &mut locals));
        }
        for (_, ps) in &f.generic_types {
            locals.extend(ps.iter().cloned());
        }
        let promoting = f.embedded.iter().cloned().collect();
        Walk {
            f,
            locals,
            fn_values: BTreeSet::new(),
            uses: BTreeMap::new(),
            makes: Vec::new(),
            results: None,
            named: Vec::new(),
            promoting,
        }
    }

    fn record(&mut self, s: Slot, u: Use) {
        self.uses.entry(s).or_default().insert(u);
    }

    /// The makes whose every reachable slot is used safely.
    fn solve(self) -> BTreeSet<(u32, u32)> {
        let mut out = BTreeSet::new();
        'make: for m in &self.makes {
            let mut seen = BTreeSet::from([m.clone()]);
            let mut todo = vec![m.clone()];
            while let Some(s) = todo.pop() {
                if let Slot::Result(n) = &s
                    && self.fn_values.contains(n)
                {
                    continue 'make;
                }
                for u in self.uses.get(&s).into_iter().flatten() {
                    match u {
                        Use::Safe => {}
                        Use::Sent | Use::Lost => continue 'make,
                        Use::Flow(to) => {
                            for t in to {
                                if seen.insert(t.clone()) {
                                    todo.push(t.clone());
                                }
                            }
                        }
                    }
                }
            }
            if let Slot::Make(l, c) = m {
                out.insert((*l, *c));
            }
        }
        out
    }

    fn func(&mut self, func: &Func, results: Option<String>) {
        let outer = std::mem::replace(&mut self.results, results);
        let named = func.named_results.iter().map(|r| r.0.clone()).collect();
        let outer_named = std::mem::replace(&mut self.named, named);
        // A bare `return` returns the named results.
        for n in self.named.clone() {
            let u = self.result_use();
            self.record(Slot::Name(n), u);
        }
        self.stmts(&func.body);
        self.results = outer;
        self.named = outer_named;
    }

    fn result_use(&self) -> Use {
        match &self.results {
            Some(f) => Use::Flow(vec![Slot::Result(f.clone())]),
            None => Use::Lost,
        }
    }

    fn stmts(&mut self, ss: &[Stmt]) {
        for s in ss {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            S::Expr(e) => self.expr(e, Use::Safe),
            S::Define(names, vals) | S::Var(names, _, vals) => {
                let targets: Vec<Use> = names.iter().map(|n| name(n)).collect();
                self.values(&targets, vals);
            }
            S::Assign(targets, op, vals) => {
                let ts: Vec<Use> = targets.iter().map(|t| self.target(t)).collect();
                if op == "=" {
                    self.values(&ts, vals);
                } else {
                    vals.iter().for_each(|v| self.expr(v, Use::Safe));
                }
            }
            S::IncDec(e, _) => self.expr(e, Use::Safe),
            S::Const(cs) => cs.iter().for_each(|(_, e)| self.expr(e, Use::Safe)),
            S::Send(ch, v) => {
                self.expr(ch, Use::Sent);
                self.expr(v, Use::Lost);
            }
            S::Go(e, _) | S::Defer(e) => self.expr(e, Use::Safe),
            S::If(init, cond, then, els) => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                self.expr(cond, Use::Safe);
                self.stmts(then);
                if let Some(e) = els {
                    self.stmt(e);
                }
            }
            S::For(init, cond, post, body, _) => {
                for s in [init, post].into_iter().flatten() {
                    self.stmt(s);
                }
                if let Some(c) = cond {
                    self.expr(c, Use::Safe);
                }
                self.stmts(body);
            }
            S::Range(k, v, _, x, body, _) => {
                // The key and value are elements, received values or indices: never
                // a channel the walk has not lost already.
                for t in [k, v].into_iter().flatten() {
                    self.target(t);
                }
                self.expr(x, Use::Safe);
                self.stmts(body);
            }
            S::Switch(init, tag, cases, _) => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(t) = tag {
                    self.expr(t, Use::Safe);
                }
                for c in cases {
                    c.values.iter().for_each(|v| self.expr(v, Use::Safe));
                    self.stmts(&c.body);
                }
            }
            S::Select(cases, _) => {
                for c in cases {
                    match &c.comm {
                        Some(Comm::Send(ch, v)) => {
                            self.expr(ch, Use::Sent);
                            self.expr(v, Use::Lost);
                        }
                        Some(Comm::Recv(targets, _, ch)) => {
                            for t in targets {
                                self.target(t);
                            }
                            self.expr(ch, Use::Safe);
                        }
                        None => {}
                    }
                    self.stmts(&c.body);
                }
            }
            S::Return(vals) => {
                // The results, and the named results Go assigns them to.
                let mut to = Vec::new();
                if let Some(f) = &self.results {
                    to.push(Slot::Result(f.clone()));
                }
                to.extend(self.named.iter().map(|n| Slot::Name(n.clone())));
                let u = if self.results.is_some() {
                    Use::Flow(to)
                } else {
                    Use::Lost
                };
                vals.iter().for_each(|v| self.expr(v, u.clone()));
            }
            S::Block(ss) => self.stmts(ss),
            S::Break(_) | S::Continue(_) | S::Empty => {}
        }
    }

    /// Values assigned to targets: index by index, or a call's results spread.
    fn values(&mut self, targets: &[Use], vals: &[Expr]) {
        if targets.len() > 1
            && let [v] = vals
        {
            // `a, b := f()`, and `v, ok := <-ch`, `v, ok := m[k]`, `v, ok := x.(T)`,
            // whose first is the value (the second a bool).
            let all: Vec<Slot> = targets
                .iter()
                .flat_map(|t| match t {
                    Use::Flow(s) => s.clone(),
                    _ => Vec::new(),
                })
                .collect();
            let u = if targets.iter().all(|t| matches!(t, Use::Flow(_))) {
                Use::Flow(all)
            } else {
                Use::Lost
            };
            self.expr(v, u);
            return;
        }
        for (i, v) in vals.iter().enumerate() {
            let u = targets.get(i).cloned().unwrap_or(Use::Lost);
            self.expr(v, u);
        }
    }

    /// An assignment's target: walks its parts and says where a value stored in it goes.
    fn target(&mut self, t: &Expr) -> Use {
        match &t.kind {
            E::Ident(n) => name(n),
            E::Sel(base, f) => {
                self.expr(base, Use::Safe);
                name(f)
            }
            E::Index(base, key) => {
                self.expr(base, Use::Safe);
                // A map's key is stored in it.
                self.expr(key, Use::Lost);
                Use::Lost
            }
            _ => {
                self.expr(t, Use::Safe);
                Use::Lost
            }
        }
    }

    /// The name whose result slots a call reads, if the walk knows it.
    fn callee(&self, e: &Expr) -> Option<String> {
        let E::Call(f, ..) = &e.kind else {
            return None;
        };
        match &f.kind {
            E::Ident(n) | E::Sel(_, n) => Some(n.clone()),
            E::Inst(g, _) => match &g.kind {
                E::Ident(n) => Some(n.clone()),
                _ => None,
            },
            E::Func(lit) => Some(literal(lit)),
            _ => None,
        }
    }

    /// A declared type, where no type parameter or variable hides its name.
    fn declared_type(&self, n: &str) -> Option<&Type> {
        if self.locals.contains(n) {
            return None;
        }
        self.f.types.iter().find(|t| t.0 == n).map(|t| &t.1)
    }

    fn is_type(&self, n: &str) -> bool {
        self.declared_type(n).is_some()
    }

    /// An import's name, even where a variable somewhere has it too (then the call may
    /// be the library's: lost either way).
    fn is_import(&self, n: &str) -> bool {
        self.f.imports.iter().any(|i| i == n)
    }

    fn is_func(&self, n: &str) -> bool {
        self.f.funcs.iter().any(|f| f.name == n)
    }

    /// A builtin where called: no variable, parameter or function of its name.
    fn is_builtin(&self, n: &str) -> bool {
        !self.locals.contains(n) && !self.is_func(n) && !self.f.types.iter().any(|t| t.0 == n)
    }

    fn expr(&mut self, e: &Expr, u: Use) {
        match &e.kind {
            E::Ident(n) => {
                if self.is_func(n) {
                    self.fn_values.insert(n.clone());
                }
                self.record(Slot::Name(n.clone()), u);
            }
            E::Int(_) | E::Str(_) | E::Nil | E::Type(_) => {}
            E::Unary(op, x) => match *op {
                // `&x`: its target may be written through the pointer.
                "&" => self.expr(x, Use::Lost),
                // `*p`: the value is the target's, which only `&` made.
                "*" => self.expr(x, u),
                _ => self.expr(x, Use::Safe),
            },
            E::Binary(_, a, b) => {
                self.expr(a, Use::Safe);
                self.expr(b, Use::Safe);
            }
            E::Call(f, args, spread) => self.call(e, f, args, *spread, u),
            E::Sel(base, m) => {
                // A method value: its results reach callers the walk does not see.
                self.fn_values.insert(m.clone());
                let recv = self.receivers(m);
                self.expr(base, recv);
                self.record(Slot::Name(m.clone()), u);
            }
            E::Index(base, i) => {
                self.expr(base, Use::Safe);
                self.expr(i, Use::Safe);
            }
            E::Slice(base, a, b) => {
                self.expr(base, Use::Safe);
                for x in [a, b].into_iter().flatten() {
                    self.expr(x, Use::Safe);
                }
            }
            E::Composite(ty, elems) => self.composite(ty, elems),
            E::Func(lit) => self.func(lit, None),
            // A type assertion's value is its operand's.
            E::Assert(x, _) => self.expr(x, u),
            E::Is(x, _) => self.expr(x, Use::Safe),
            E::Inst(x, _) => self.expr(x, u),
        }
    }

    /// A method call's receiver goes to the receivers of every method of that name.
    fn receivers(&self, m: &str) -> Use {
        let rs: Vec<Slot> = self
            .f
            .methods
            .iter()
            .filter(|x| x.1 == m)
            .filter_map(|x| x.2.recv.as_ref().map(|r| Slot::Name(r.0.clone())))
            .collect();
        if rs.is_empty() {
            Use::Safe
        } else {
            Use::Flow(rs)
        }
    }

    fn call(&mut self, e: &Expr, f: &Expr, args: &[Expr], spread: bool, u: Use) {
        let callee = match &f.kind {
            E::Inst(g, _) => g.as_ref(),
            _ => f,
        };
        // The slots each argument goes to; `None`: where the walk cannot follow.
        let params: Option<Vec<Vec<Slot>>> = match &callee.kind {
            E::Ident(n) if n == "make" && self.is_builtin(n) => {
                if let Some(Expr {
                    kind: E::Type(t), ..
                }) = args.first()
                    && self.is_chan(t)
                {
                    let m = Slot::Make(e.pos.line, e.pos.col);
                    self.makes.push(m.clone());
                    self.record(m, u);
                }
                args.iter().skip(1).for_each(|a| self.expr(a, Use::Safe));
                return;
            }
            E::Ident(n) if matches!(n.as_str(), "close" | "len" | "cap") && self.is_builtin(n) => {
                args.iter().for_each(|a| self.expr(a, Use::Safe));
                return;
            }
            // A conversion: the value is its operand's.
            E::Ident(n) if self.is_type(n) => {
                args.iter().for_each(|a| self.expr(a, u.clone()));
                return;
            }
            E::Type(_) => {
                args.iter().for_each(|a| self.expr(a, u.clone()));
                return;
            }
            // A declared function named like a builtin: which of the two runs is the
            // interpreter's choice, so lost.
            E::Ident(n) if !self.locals.contains(n) && !BUILTINS.contains(&n.as_str()) => self
                .f
                .funcs
                .iter()
                .find(|x| x.name == *n)
                .map(|x| params(x, args.len())),
            E::Sel(base, m) => {
                // The base is the receiver of every method of that name, even where
                // its name is an import's (a variable may hide the import there).
                let recv = self.receivers(m);
                self.expr(base, recv);
                if let E::Ident(p) = &base.kind
                    && (self.is_import(p) || self.is_type(p))
                {
                    // A library call, or a method expression (`T.m(recv, ...)`, its
                    // arguments shifted by the receiver).
                    None
                } else {
                    // A field of function type (an embedded one too), or a library
                    // method of that name (`sync.Map`'s `Store` beside a declared
                    // `Store`): the walk cannot tell which is called.
                    let unknown = self.f.fields.iter().chain(&self.promoting).any(|x| x == m)
                        || LIB_MEMBERS.contains(&m.as_str());
                    let ms: Vec<Vec<Vec<Slot>>> = self
                        .f
                        .methods
                        .iter()
                        .filter(|x| x.1 == *m)
                        .map(|x| params(&x.2, args.len()))
                        .collect();
                    if ms.is_empty() || unknown {
                        None
                    } else {
                        // Each argument to the parameters of every method of that
                        // name; lost if one of them has none there (variadic).
                        let merged = (0..args.len())
                            .map(|i| {
                                if ms.iter().any(|p| p[i].is_empty()) {
                                    Vec::new()
                                } else {
                                    ms.iter().flat_map(|p| p[i].clone()).collect()
                                }
                            })
                            .collect();
                        Some(merged)
                    }
                }
            }
            E::Func(lit) => {
                let ps = params(lit, args.len());
                self.func(lit, Some(literal(lit)));
                Some(ps)
            }
            _ => {
                self.expr(callee, Use::Safe);
                None
            }
        };
        if let Some(n) = self.callee(e) {
            self.record(Slot::Result(n), u);
        }
        let arg_use = |i: usize| match &params {
            Some(ps) if !spread && !ps[i].is_empty() => Use::Flow(ps[i].clone()),
            _ => Use::Lost,
        };
        // `f(g())` may spread g's results over every parameter of f.
        if let [a] = args
            && let Some(g) = self.callee(a)
        {
            let every = match &params {
                Some(_) => {
                    let f = match &callee.kind {
                        E::Ident(n) => self.f.funcs.iter().find(|x| x.name == *n).cloned(),
                        _ => None,
                    };
                    match f {
                        Some(f) if !f.variadic => {
                            Use::Flow(f.params.iter().map(|p| Slot::Name(p.0.clone())).collect())
                        }
                        _ => Use::Lost,
                    }
                }
                None => Use::Lost,
            };
            self.record(Slot::Result(g), every);
        }
        for (i, a) in args.iter().enumerate() {
            let u = arg_use(i);
            self.expr(a, u);
        }
    }

    fn is_chan(&self, t: &Type) -> bool {
        let mut t = t;
        for _ in 0..32 {
            match t {
                Type::Chan(_) => return true,
                Type::Name(n) => match self.declared_type(n) {
                    Some(x) => t = x,
                    None => return false,
                },
                _ => return false,
            }
        }
        false
    }

    fn composite(&mut self, ty: &Type, elems: &[(Option<Expr>, Expr)]) {
        let fields = self.struct_fields(ty);
        for (i, (k, v)) in elems.iter().enumerate() {
            let u = match (&fields, k) {
                (
                    Some(_),
                    Some(Expr {
                        kind: E::Ident(f), ..
                    }),
                ) => name(f),
                (Some(fs), None) => fs.get(i).map_or(Use::Lost, |f| name(f)),
                (_, Some(k)) => {
                    // A map's key is stored in it.
                    self.expr(k, Use::Lost);
                    Use::Lost
                }
                _ => Use::Lost,
            };
            self.expr(v, u);
        }
    }

    /// A struct type's field names, for a composite literal of it.
    fn struct_fields(&self, t: &Type) -> Option<Vec<String>> {
        let mut t = t;
        for _ in 0..32 {
            match t {
                Type::Struct(fs) => return Some(fs.iter().map(|f| f.name.clone()).collect()),
                Type::Name(n) | Type::Inst(n, _) => t = self.declared_type(n)?,
                _ => return None,
            }
        }
        None
    }
}

/// The slots of a function's parameters, for a call with `n` arguments; the variadic
/// parameter's arguments are lost (they go into a slice).
fn params(f: &Func, n: usize) -> Vec<Vec<Slot>> {
    (0..n)
        .map(|i| {
            let last = f.variadic && i + 1 >= f.params.len();
            match f.params.get(i) {
                Some((p, _)) if !last => vec![Slot::Name(p.clone())],
                _ => Vec::new(),
            }
        })
        .collect()
}

/// An immediately called literal's result slots are its own.
fn literal(f: &Func) -> String {
    format!("func@{}:{}", f.pos.line, f.pos.col)
}

/// Every name a function declares inside it: parameters, results, type parameters,
/// variables, its literals' too.
fn declared(f: &Func, into: &mut BTreeSet<String>) {
    into.extend(f.params.iter().map(|p| p.0.clone()));
    into.extend(f.named_results.iter().map(|p| p.0.clone()));
    into.extend(f.tparams.iter().cloned());
    if let Some((r, _)) = &f.recv {
        into.insert(r.clone());
    }
    declared_stmts(&f.body, into);
}

fn declared_stmts(ss: &[Stmt], into: &mut BTreeSet<String>) {
    ss.iter().for_each(|s| declared_stmt(s, into));
}

fn declared_stmt(s: &Stmt, into: &mut BTreeSet<String>) {
    let e = declared_in;
    match &s.kind {
        S::Define(ns, vs) | S::Var(ns, _, vs) => {
            into.extend(ns.iter().cloned());
            vs.iter().for_each(|v| e(v, into));
        }
        S::Const(cs) => into.extend(cs.iter().map(|c| c.0.clone())),
        S::Expr(x) | S::Go(x, _) | S::Defer(x) | S::IncDec(x, _) => e(x, into),
        S::Assign(ts, _, vs) => ts.iter().chain(vs).for_each(|v| e(v, into)),
        S::Send(a, b) => [a, b].into_iter().for_each(|v| e(v, into)),
        S::If(i, c, t, els) => {
            [i, els]
                .into_iter()
                .flatten()
                .for_each(|s| declared_stmt(s, into));
            e(c, into);
            declared_stmts(t, into);
        }
        S::For(i, c, p, b, _) => {
            [i, p]
                .into_iter()
                .flatten()
                .for_each(|s| declared_stmt(s, into));
            c.iter().for_each(|c| e(c, into));
            declared_stmts(b, into);
        }
        S::Range(k, v, define, x, b, _) => {
            if *define {
                for t in [k, v].into_iter().flatten() {
                    if let E::Ident(n) = &t.kind {
                        into.insert(n.clone());
                    }
                }
            }
            e(x, into);
            declared_stmts(b, into);
        }
        S::Switch(i, t, cs, _) => {
            i.iter().for_each(|s| declared_stmt(s, into));
            t.iter().for_each(|t| e(t, into));
            for c in cs {
                c.values.iter().for_each(|v| e(v, into));
                declared_stmts(&c.body, into);
            }
        }
        S::Select(cs, _) => {
            for c in cs {
                match &c.comm {
                    Some(Comm::Recv(ts, define, ch)) => {
                        for t in ts {
                            match &t.kind {
                                E::Ident(n) if *define => {
                                    into.insert(n.clone());
                                }
                                _ => e(t, into),
                            }
                        }
                        e(ch, into);
                    }
                    Some(Comm::Send(a, b)) => [a, b].into_iter().for_each(|v| e(v, into)),
                    None => {}
                }
                declared_stmts(&c.body, into);
            }
        }
        S::Return(vs) => vs.iter().for_each(|v| e(v, into)),
        S::Block(ss) => declared_stmts(ss, into),
        S::Break(_) | S::Continue(_) | S::Empty => {}
    }
}

/// The names function literals inside an expression declare.
fn declared_in(e: &Expr, into: &mut BTreeSet<String>) {
    match &e.kind {
        E::Func(f) => declared(f, into),
        E::Unary(_, x) | E::Sel(x, _) | E::Assert(x, _) | E::Is(x, _) | E::Inst(x, _) => {
            declared_in(x, into)
        }
        E::Binary(_, a, b) | E::Index(a, b) => {
            declared_in(a, into);
            declared_in(b, into);
        }
        E::Call(f, args, _) => {
            declared_in(f, into);
            args.iter().for_each(|a| declared_in(a, into));
        }
        E::Slice(a, b, c) => {
            declared_in(a, into);
            [b, c]
                .into_iter()
                .flatten()
                .for_each(|x| declared_in(x, into));
        }
        E::Composite(_, es) => {
            for (k, v) in es {
                k.iter().for_each(|k| declared_in(k, into));
                declared_in(v, into);
            }
        }
        E::Ident(_) | E::Int(_) | E::Str(_) | E::Nil | E::Type(_) => {}
    }
}
