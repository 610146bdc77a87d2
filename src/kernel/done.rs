//! Which of a kernel's channels are never sent on: made unbuffered, they are done
//! channels (`Go::done_chan`), as a context's `Done()` is. Go has no such type; a
//! stop or done channel that a kernel only receives from and closes is one in
//! practice, and under `dpor` a select waiting there beside buffered channels is
//! kept back (docs/dpor.md).
//!
//! The kernel has no static types here, so this follows where each `make(chan ...)`
//! can flow, by name: every variable, parameter and struct field of one name is one
//! slot, and the i-th results of every function and method of one name are one. A
//! channel is never sent on when no slot it can reach is the channel of a send, and
//! none is used where the walk loses track of it (stored in a map, a slice, a pointer's
//! target, sent, passed to a library call or to a function value). Merging slots by
//! name only adds uses, so every error errs toward "may be sent on". Should it err the
//! other way, the send panics the model ("a send on a done channel"): a false finding,
//! never a false proof, since dpor explores the send wherever an execution makes it.

use super::ast::*;
use std::collections::{BTreeMap, BTreeSet};

/// Where a value can be.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    /// Every variable, parameter and field of this name.
    Name(String),
    /// The i-th result of every function, method and immediately called literal of
    /// this name.
    Result(String, usize),
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

/// Results of a call whose count the walk does not know (`return f()`): up to this.
const RESULTS: usize = 8;

/// The places (line, column) of the `make(chan ...)` expressions whose channels are
/// never sent on.
pub fn never_sent(f: &File) -> BTreeSet<(u32, u32)> {
    let mut w = Walk::new(f);
    // An embedded field of a named channel type hands the channel to its methods'
    // receivers when they are called on the struct (promoted): not followed.
    for (n, t, _) in &f.types {
        if w.is_chan(t) {
            w.record(Slot::Name(n.clone()), Use::Lost);
        }
    }
    for ((names, _, vals), _) in f.vars.iter().zip(&f.var_pos) {
        let targets: Vec<Use> = names.iter().map(|n| w.name(n)).collect();
        w.values(&targets, vals);
    }
    for func in &f.funcs {
        w.func(func, Some(func.name.clone()));
    }
    for (_, name, func) in &f.methods {
        w.func(func, Some(name.clone()));
    }
    w.solve()
}

struct Walk<'a> {
    f: &'a File,
    /// Names a local variable, parameter or result has somewhere: a call of such a
    /// name may call a function value, not the declared function.
    locals: BTreeSet<String>,
    /// Functions and methods used as values (not called where named): their results
    /// reach callers the walk does not see.
    values: BTreeSet<String>,
    uses: BTreeMap<Slot, BTreeSet<Use>>,
    makes: Vec<Slot>,
    /// The result slots of the function the walk is in; `None` in a literal that is
    /// not called where it is written (its results go where the walk cannot follow).
    results: Option<String>,
}

impl<'a> Walk<'a> {
    fn new(f: &'a File) -> Self {
        let mut locals = BTreeSet::new();
        for func in f.funcs.iter().chain(f.methods.iter().map(|m| &m.2)) {
            declared(func, &mut locals);
        }
        Walk {
            f,
            locals,
            values: BTreeSet::new(),
            uses: BTreeMap::new(),
            makes: Vec::new(),
            results: None,
        }
    }

    fn name(&self, n: &str) -> Use {
        Use::Flow(vec![Slot::Name(n.to_string())])
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
                if let Slot::Result(n, _) = &s
                    && self.values.contains(n)
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
        // A bare `return` returns the named results.
        for (i, (n, _)) in func.named_results.iter().enumerate() {
            let u = self.result_use(i);
            self.record(Slot::Name(n.clone()), u);
        }
        self.stmts(&func.body);
        self.results = outer;
    }

    fn result_use(&self, i: usize) -> Use {
        match &self.results {
            Some(f) => Use::Flow(vec![Slot::Result(f.clone(), i)]),
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
                let targets: Vec<Use> = names.iter().map(|n| self.name(n)).collect();
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
                if let [v] = vals.as_slice()
                    && let Some(f) = self.callee(v)
                {
                    // `return f()`: as many results as f has, index by index.
                    for i in 0..RESULTS {
                        let u = self.result_use(i);
                        self.record(Slot::Result(f.clone(), i), u);
                    }
                }
                for (i, v) in vals.iter().enumerate() {
                    let u = self.result_use(i);
                    self.expr(v, u);
                }
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
            if let Some(f) = self.callee(v) {
                for (i, t) in targets.iter().enumerate() {
                    self.record(Slot::Result(f.clone(), i), t.clone());
                }
                self.expr(v, targets[0].clone());
            } else {
                // `v, ok := <-ch`, `v, ok := m[k]`, `v, ok := x.(T)`: the first is the value.
                self.expr(v, targets[0].clone());
            }
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
            E::Ident(n) => self.name(n),
            E::Sel(base, f) => {
                self.expr(base, Use::Safe);
                self.name(f)
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

    fn is_type(&self, n: &str) -> bool {
        self.f.types.iter().any(|t| t.0 == n) && !self.locals.contains(n)
    }

    fn is_import(&self, n: &str) -> bool {
        self.f.imports.iter().any(|i| i == n) && !self.locals.contains(n)
    }

    fn expr(&mut self, e: &Expr, u: Use) {
        match &e.kind {
            E::Ident(n) => {
                if self.f.funcs.iter().any(|f| f.name == *n) {
                    self.values.insert(n.clone());
                }
                self.record(Slot::Name(n.clone()), u);
            }
            E::Int(_) | E::Str(_) | E::Nil | E::Type(_) => {}
            E::Unary(op, x) => match *op {
                // `&x`: its target may be written through the pointer.
                "&" => self.expr(x, Use::Lost),
                _ => self.expr(x, Use::Safe),
            },
            E::Binary(_, a, b) => {
                self.expr(a, Use::Safe);
                self.expr(b, Use::Safe);
            }
            E::Call(f, args, spread) => self.call(e, f, args, *spread, u),
            E::Sel(base, m) => {
                // A method value: its results reach callers the walk does not see.
                self.values.insert(m.clone());
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
        // The parameters each argument goes to; `None`: where the walk cannot follow.
        let params: Option<Vec<Vec<Slot>>> = match &callee.kind {
            E::Ident(n) if n == "make" && !self.locals.contains(n) => {
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
            E::Ident(n)
                if matches!(n.as_str(), "close" | "len" | "cap") && !self.locals.contains(n) =>
            {
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
            E::Ident(n) if !self.locals.contains(n) => self
                .f
                .funcs
                .iter()
                .find(|x| x.name == *n)
                .map(|x| params(x, args.len())),
            E::Sel(base, m) => {
                // A library call, or a method expression (`T.m(recv, ...)`, its
                // arguments shifted by the receiver).
                if let E::Ident(p) = &base.kind
                    && (self.is_import(p) || self.is_type(p))
                {
                    None
                } else {
                    let recv = self.receivers(m);
                    self.expr(base, recv);
                    let ms: Vec<&Func> = self
                        .f
                        .methods
                        .iter()
                        .filter(|x| x.1 == *m)
                        .map(|x| x.2.as_ref())
                        .collect();
                    // A field of function type, or a library method: unknown.
                    let field = self.f.fields.iter().any(|x| x == m);
                    if ms.is_empty() || field {
                        None
                    } else {
                        let mut ps = vec![Vec::new(); args.len()];
                        for x in ms {
                            for (i, s) in params(x, args.len()).into_iter().enumerate() {
                                ps[i].extend(s);
                            }
                        }
                        Some(ps)
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
            self.record(Slot::Result(n, 0), u);
        }
        // `f(g())` spreading several results: lost, as `xs...` is.
        if let [a] = args
            && let Some(g) = self.callee(a)
        {
            for i in 1..RESULTS {
                self.record(Slot::Result(g.clone(), i), Use::Lost);
            }
        }
        for (i, a) in args.iter().enumerate() {
            let u = match &params {
                Some(ps) if !spread && !ps[i].is_empty() => Use::Flow(ps[i].clone()),
                _ => Use::Lost,
            };
            self.expr(a, u);
        }
    }

    fn is_chan(&self, t: &Type) -> bool {
        let mut t = t;
        for _ in 0..32 {
            match t {
                Type::Chan(_) => return true,
                Type::Name(n) => match self.f.types.iter().find(|x| x.0 == *n) {
                    Some(x) => t = &x.1,
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
                ) => self.name(f),
                (Some(fs), None) => fs.get(i).map_or(Use::Lost, |f| self.name(f)),
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
                Type::Name(n) | Type::Inst(n, _) => t = &self.f.types.iter().find(|x| x.0 == *n)?.1,
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

/// Every name a function declares inside it: parameters, results, variables.
fn declared(f: &Func, into: &mut BTreeSet<String>) {
    into.extend(f.params.iter().map(|p| p.0.clone()));
    into.extend(f.named_results.iter().map(|p| p.0.clone()));
    if let Some((r, _)) = &f.recv {
        into.insert(r.clone());
    }
    stmts(&f.body, into);
    fn stmts(ss: &[Stmt], into: &mut BTreeSet<String>) {
        ss.iter().for_each(|s| stmt(s, into));
    }
    fn stmt(s: &Stmt, into: &mut BTreeSet<String>) {
        match &s.kind {
            S::Define(ns, vs) | S::Var(ns, _, vs) => {
                into.extend(ns.iter().cloned());
                vs.iter().for_each(|v| expr(v, into));
            }
            S::Const(cs) => into.extend(cs.iter().map(|c| c.0.clone())),
            S::Expr(e) | S::Go(e, _) | S::Defer(e) | S::IncDec(e, _) => expr(e, into),
            S::Assign(ts, _, vs) => ts.iter().chain(vs).for_each(|v| expr(v, into)),
            S::Send(a, b) => [a, b].into_iter().for_each(|v| expr(v, into)),
            S::If(i, c, t, e) => {
                [i, e].into_iter().flatten().for_each(|s| stmt(s, into));
                expr(c, into);
                stmts(t, into);
            }
            S::For(i, c, p, b, _) => {
                [i, p].into_iter().flatten().for_each(|s| stmt(s, into));
                c.iter().for_each(|c| expr(c, into));
                stmts(b, into);
            }
            S::Range(k, v, define, x, b, _) => {
                if *define {
                    for t in [k, v].into_iter().flatten() {
                        if let E::Ident(n) = &t.kind {
                            into.insert(n.clone());
                        }
                    }
                }
                expr(x, into);
                stmts(b, into);
            }
            S::Switch(i, t, cs, _) => {
                i.iter().for_each(|s| stmt(s, into));
                t.iter().for_each(|t| expr(t, into));
                for c in cs {
                    c.values.iter().for_each(|v| expr(v, into));
                    stmts(&c.body, into);
                }
            }
            S::Select(cs, _) => {
                for c in cs {
                    if let Some(Comm::Recv(ts, true, _)) = &c.comm {
                        for t in ts {
                            if let E::Ident(n) = &t.kind {
                                into.insert(n.clone());
                            }
                        }
                    }
                    stmts(&c.body, into);
                }
            }
            S::Return(vs) => vs.iter().for_each(|v| expr(v, into)),
            S::Block(ss) => stmts(ss, into),
            S::Break(_) | S::Continue(_) | S::Empty => {}
        }
    }
    /// Function literals inside expressions declare names too.
    fn expr(e: &Expr, into: &mut BTreeSet<String>) {
        match &e.kind {
            E::Func(f) => declared(f, into),
            E::Unary(_, x) | E::Sel(x, _) | E::Assert(x, _) | E::Is(x, _) | E::Inst(x, _) => {
                expr(x, into)
            }
            E::Binary(_, a, b) | E::Index(a, b) => {
                expr(a, into);
                expr(b, into);
            }
            E::Call(f, args, _) => {
                expr(f, into);
                args.iter().for_each(|a| expr(a, into));
            }
            E::Slice(a, b, c) => {
                expr(a, into);
                [b, c].into_iter().flatten().for_each(|x| expr(x, into));
            }
            E::Composite(_, es) => {
                for (k, v) in es {
                    k.iter().for_each(|k| expr(k, into));
                    expr(v, into);
                }
            }
            E::Ident(_) | E::Int(_) | E::Str(_) | E::Nil | E::Type(_) => {}
        }
    }
}
