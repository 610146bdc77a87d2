//! Statements: blocks, assignments, loops, switches, selects, and channel operations.

use super::*;

impl<'a> I<'a> {
    // ---- statements ----

    pub(super) fn block(&self, stmts: &[Stmt], env: &Env, fr: &mut Frame) -> R<Flow> {
        for s in stmts {
            match self.stmt(s, env, fr)? {
                Flow::Next => {}
                f => return Ok(f),
            }
        }
        Ok(Flow::Next)
    }

    pub(super) fn stmt(&self, s: &Stmt, env: &Env, fr: &mut Frame) -> R<Flow> {
        self.go.at(s.place);
        self.tick();
        self.stmt_inner(s, env, fr)
            .map_err(|e| self.with_pos(s.pos, e))
    }

    /// Counts a statement (or a loop iteration, which an empty body would not) against
    /// the goroutine's statement bound.
    pub(super) fn tick(&self) {
        let n = self.statements.get();
        self.statements.set(n + 1);
        let bound = self.rt.statement_bound;
        if n >= bound {
            self.go.past_bound(format!("the goroutine ran {bound} statements ({STATEMENTS_PER_STEP} per step of max_steps): a loop with no Go operation in it, or a bound too small"));
        }
    }

    pub(super) fn stmt_inner(&self, s: &Stmt, env: &Env, fr: &mut Frame) -> R<Flow> {
        match &s.kind {
            S::Empty => {}
            S::Expr(e) => {
                self.eval(e, env)?;
            }
            S::Define(names, vals) => {
                let vs = self.values(vals, env, names)?;
                for (n, v) in names.iter().zip(vs) {
                    // `a, err := ...` redefines nothing that this scope already has.
                    match env.own().iter().any(|(x, _)| x == n) {
                        true => {
                            if let Some(c) = env.lookup(n) {
                                *lock(&c) = v.copy_by(self);
                            }
                        }
                        false => {
                            env.define(n, v.copy_by(self));
                        }
                    }
                }
            }
            S::Var(names, ty, vals) => {
                if vals.is_empty() {
                    let Some(ty) = ty.as_ref() else {
                        return Err(unsupported("var without a type or a value"));
                    };
                    for n in names {
                        let z = self.zero(ty, Some(n.clone()), s.pos)?;
                        env.define(n, z);
                    }
                } else {
                    let vs = self.values(vals, env, names)?;
                    for (n, v) in names.iter().zip(vs) {
                        env.define(n, v.copy_by(self));
                    }
                }
            }
            S::Const(cs) => {
                for (n, e) in cs {
                    let v = self.eval(e, env)?;
                    env.define(n, v);
                }
            }
            S::Assign(lhs, op, rhs) => {
                if op == "=" {
                    let names: Vec<String> = lhs.iter().map(describe).collect();
                    let vs = self.values(rhs, env, &names)?;
                    // Every value is copied before any is stored (`a, b = b, a`).
                    let vs: Vec<Value> = vs.iter().map(|v| v.copy_by(self)).collect();
                    let places: Vec<Place> =
                        lhs.iter().map(|l| self.place(l, env)).collect::<R<_>>()?;
                    for ((p, v), l) in places.into_iter().zip(vs).zip(lhs) {
                        self.store(p, v, l)?;
                    }
                } else {
                    let bop = &op[..op.len() - 1];
                    let cur = self.eval(&lhs[0], env)?;
                    let r = self.eval(&rhs[0], env)?;
                    let v = binary(bop, cur, r)?;
                    let p = self.place(&lhs[0], env)?;
                    self.store(p, v, &lhs[0])?;
                }
            }
            S::IncDec(e, d) => {
                let v = int(&self.eval(e, env)?)?;
                let p = self.place(e, env)?;
                self.store(p, Value::Int(v.wrapping_add(*d)), e)?;
            }
            S::Send(c, v) => {
                let c = self.eval(c, env)?;
                let v = self.eval(v, env)?.copy_by(self);
                self.send(&c, v)?;
            }
            S::Go(call, name) => {
                let E::Call(f, args, spread) = &call.kind else {
                    return Err(unsupported("go needs a function call"));
                };
                let (fv, args) = self.deferred_call(f, args, *spread, env)?;
                let n = self.rt.next_g.fetch_add(1, Ordering::Relaxed);
                // Named as Go's tracebacks number goroutines, with the function it runs.
                let name = name.clone().unwrap_or_else(|| match &fv {
                    Value::Func(c) => match &**c {
                        Callable::Go(f, _) | Callable::Method(f, _) => format!("G{n} {}", f.name),
                        Callable::Lib(_, m) => format!("G{n} {m}"),
                        Callable::Cancel(_) => format!("G{n} context.CancelFunc"),
                        Callable::Builtin(b) => format!("G{n} {b}"),
                    },
                    _ => format!("G{n}"),
                });
                let rt = self.rt.clone();
                let boot: Vec<Value> = std::iter::once(fv.clone())
                    .chain(args.iter().cloned())
                    .collect();
                let g = self.go.go_id(&name, move |g| I::new(&rt, &g).run(fv, args));
                self.rt.roots.boot(g, boot);
            }
            S::Defer(call) => {
                let E::Call(f, args, spread) = &call.kind else {
                    return Err(unsupported("defer needs a function call"));
                };
                // `defer mu.Unlock()` binds the receiver now, as Go does.
                let (fv, args) = self.deferred_call(f, args, *spread, env)?;
                fr.defers.push((fv, args));
            }
            S::If(init, cond, then, els) => {
                let env = self.scope(env);
                if let Some(i) = init {
                    self.stmt(i, &env, fr)?;
                }
                if truth(&self.eval(cond, &env)?)? {
                    return self.block(then, &self.scope(&env), fr);
                } else if let Some(e) = els {
                    return self.stmt(e, &env, fr);
                }
            }
            S::Block(b) => return self.block(b, &self.scope(env), fr),
            S::For(init, cond, post, body, label) => {
                return self.for_loop(s.pos, init, cond, post, body, label, env, fr);
            }
            S::Range(k, v, define, e, body, label) => {
                return self.range(k.as_ref(), v.as_ref(), *define, e, body, label, env, fr);
            }
            S::Switch(init, tag, cases, label) => {
                let env = self.scope(env);
                if let Some(i) = init {
                    self.stmt(i, &env, fr)?;
                }
                let t = match tag {
                    Some(t) => Some(self.eval(t, &env)?),
                    None => None,
                };
                let mut chosen = None;
                'find: for (i, c) in cases.iter().enumerate() {
                    for v in &c.values {
                        let x = self.eval(v, &env)?;
                        let hit = match &t {
                            Some(t) => t.equals(&x).unwrap_or(false),
                            None => truth(&x)?,
                        };
                        if hit {
                            chosen = Some(i);
                            break 'find;
                        }
                    }
                }
                let chosen = chosen.or_else(|| cases.iter().position(|c| c.values.is_empty()));
                if let Some(mut i) = chosen {
                    loop {
                        let flow = self.block(&cases[i].body, &self.scope(&env), fr)?;
                        match flow {
                            Flow::Break(None) => break,
                            Flow::Break(l) if l == *label => break,
                            Flow::Next if cases[i].fallthrough && i + 1 < cases.len() => i += 1,
                            Flow::Next => break,
                            f => return Ok(f),
                        }
                    }
                }
            }
            S::Select(cases, label) => {
                return match self.select(cases, env, fr)? {
                    Flow::Break(None) => Ok(Flow::Next),
                    Flow::Break(l) if l == *label => Ok(Flow::Next),
                    f => Ok(f),
                };
            }
            S::Return(es) => {
                let v = match es.len() {
                    0 => None,
                    1 => Some(self.eval(&es[0], env)?.copy_by(self)),
                    _ => Some(Value::Tuple(
                        es.iter()
                            .map(|e| self.eval(e, env).map(|v| v.copy_by(self)))
                            .collect::<R<_>>()?,
                    )),
                };
                return Ok(Flow::Return(v));
            }
            S::Break(l) => return Ok(Flow::Break(l.clone())),
            S::Continue(l) => return Ok(Flow::Continue(l.clone())),
        }
        Ok(Flow::Next)
    }

    /// What a loop does with its body's flow: Some(flow) leaves the loop.
    pub(super) fn after_body(flow: Flow, label: &Option<String>) -> Option<Flow> {
        match flow {
            Flow::Next | Flow::Continue(None) => None,
            Flow::Continue(l) if l == *label => None,
            Flow::Break(None) => Some(Flow::Next),
            Flow::Break(l) if l == *label => Some(Flow::Next),
            f => Some(f),
        }
    }

    /// A `for` loop. Each head is a poll (`World::poll`): a round that saw nothing new
    /// and changed nothing waits for another goroutine to move, as Go's fair scheduler
    /// would let it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn for_loop(
        &self,
        pos: Pos,
        init: &Option<Box<Stmt>>,
        cond: &Option<Expr>,
        post: &Option<Box<Stmt>>,
        body: &[Stmt],
        label: &Option<String>,
        env: &Env,
        fr: &mut Frame,
    ) -> R<Flow> {
        let mut cur = self.scope(env);
        if let Some(i) = init {
            self.stmt(i, &cur, fr)?;
        }
        let site = u64::from(pos.line) << 32 | u64::from(pos.col);
        let mut fresh = true;
        loop {
            self.tick();
            let defers = fr.defers.len() as u64;
            self.go.poll(
                site,
                fresh,
                || crate::kernel::value::env_print(&cur, defers),
                || format!("{}:{}", self.k().file.short, pos.line),
            );
            fresh = false;
            if let Some(c) = cond
                && !truth(&self.eval(c, &cur)?)?
            {
                return Ok(Flow::Next);
            }
            let flow = self.block(body, &self.scope(&cur), fr)?;
            if let Some(f) = Self::after_body(flow, label) {
                return Ok(f);
            }
            // Go 1.22: each iteration has its own copy of the loop's variables; before,
            // one variable for all of them, which a closure started in the body shares.
            if !self.k().shared_loop_vars {
                let next = self.scope(env);
                for (n, v) in cur.own() {
                    next.define(&n, v.copy_by(self));
                }
                cur = next;
            }
            if let Some(p) = post {
                self.stmt(p, &cur, fr)?;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn range(
        &self,
        k: Option<&Expr>,
        v: Option<&Expr>,
        define: bool,
        e: &Expr,
        body: &[Stmt],
        label: &Option<String>,
        env: &Env,
        fr: &mut Frame,
    ) -> R<Flow> {
        let x = self.eval(e, env)?;
        // Before Go 1.22 the range variables are one pair for the whole loop: the first
        // iteration defines them, the others assign them.
        let shared = self.k().shared_loop_vars.then(|| self.scope(env));
        let mut defined = false;
        let mut iteration = || {
            let it = shared.clone().unwrap_or_else(|| self.scope(env));
            let define = define && !(shared.is_some() && defined);
            defined = true;
            (it, define)
        };
        let mut items: Box<dyn Iterator<Item = (Value, Value)>> = match &x {
            Value::Int(n) => Box::new((0..*n).map(|i| (Value::Int(i), Value::Nil))),
            Value::Slice(s) => {
                for i in 0..s.len {
                    self.elem_access(&s.arr, s.off + i, || elem_name(e, s.off + i), false);
                }
                let a = lock(&s.arr)[s.off..s.off + s.len].to_vec();
                Box::new(
                    a.into_iter()
                        .enumerate()
                        .map(|(i, v)| (Value::Int(i as i64), v)),
                )
            }
            Value::Str(s) => {
                let cs: Vec<(Value, Value)> = s
                    .char_indices()
                    .map(|(i, c)| (Value::Int(i as i64), Value::Int(c as i64)))
                    .collect();
                Box::new(cs.into_iter())
            }
            Value::Map(m, _) => {
                self.map_access(m, || describe(e), false);
                let kv: Vec<(Value, Value)> = lock(m)
                    .iter()
                    .map(|(k, v)| (k.value(), v.clone()))
                    .collect();
                Box::new(kv.into_iter())
            }
            Value::Nil => Box::new(std::iter::empty()),
            Value::Chan(_) => {
                // Receives until the channel is closed.
                loop {
                    let (val, ok) = self.recv(&x)?;
                    if !ok {
                        return Ok(Flow::Next);
                    }
                    let (it, define) = iteration();
                    self.bind(k, val, define, &it)?;
                    let flow = self.block(body, &self.scope(&it), fr)?;
                    if let Some(f) = Self::after_body(flow, label) {
                        return Ok(f);
                    }
                }
            }
            o => return Err(unsupported(format!("cannot range over {}", o.show()))),
        };
        for (a, b) in &mut items {
            self.tick();
            let (it, define) = iteration();
            self.bind(k, a, define, &it)?;
            self.bind(v, b, define, &it)?;
            let flow = self.block(body, &self.scope(&it), fr)?;
            if let Some(f) = Self::after_body(flow, label) {
                return Ok(f);
            }
        }
        Ok(Flow::Next)
    }

    pub(super) fn bind(&self, target: Option<&Expr>, v: Value, define: bool, env: &Env) -> R<()> {
        let Some(t) = target else { return Ok(()) };
        if define {
            if let E::Ident(n) = &t.kind {
                env.define(n, v.copy_by(self));
            }
            Ok(())
        } else {
            let p = self.place(t, env)?;
            self.store(p, v.copy_by(self), t)
        }
    }

    pub(super) fn select(&self, cases: &[SelectCase], env: &Env, fr: &mut Frame) -> R<Flow> {
        // Go evaluates every channel and every value to send first, in source order.
        let mut ready = Vec::new();
        for c in cases {
            ready.push(match &c.comm {
                None => None,
                Some(Comm::Send(ch, v)) => {
                    Some((self.eval(ch, env)?, Some(self.eval(v, env)?.copy_by(self))))
                }
                Some(Comm::Recv(_, _, ch)) => Some((self.eval(ch, env)?, None)),
            });
        }
        let chans: Vec<Option<(Arc<KChan>, Option<Value>)>> = ready
            .into_iter()
            .map(|r| {
                r.map(|(c, v)| {
                    let k = match c {
                        Value::Chan(k) => k,
                        _ => self.nil_chan(),
                    };
                    (k, v)
                })
            })
            .collect();
        let mut sel = self.go.select();
        let mut index = Vec::new();
        for (i, c) in chans.iter().enumerate() {
            match c {
                None => sel = sel.default(),
                Some((k, v)) => {
                    index.push(i);
                    sel = match (&k.c, v) {
                        (ChanImpl::Val(ch) | ChanImpl::Nil(ch), Some(v)) => sel.send(ch, v.clone()),
                        (ChanImpl::Val(ch) | ChanImpl::Nil(ch), None) => sel.recv(ch),
                        (ChanImpl::Time(ch), None) => sel.recv(ch),
                        (ChanImpl::Time(_), Some(_)) => {
                            return Err(unsupported("send on a receive-only timer channel"));
                        }
                    };
                }
            }
        }
        let mut fired = sel.wait();
        let case = match fired.index {
            Some(j) => index[j],
            None => chans.iter().position(|c| c.is_none()).unwrap_or(0),
        };
        let c = &cases[case];
        let scope = self.scope(env);
        if let (Some(Comm::Recv(targets, define, _)), Some((k, _))) = (&c.comm, &chans[case]) {
            let (val, ok) = match &k.c {
                ChanImpl::Time(_) => match fired.take::<()>() {
                    Some(()) => (Value::Int(self.go.now().as_nanos() as i64), true),
                    None => (Value::Int(0), false),
                },
                _ => match fired.take::<Value>() {
                    Some(v) => (v, true),
                    None => (self.zero(&k.elem, None, c.pos)?, false),
                },
            };
            self.bind(targets.first(), val, *define, &scope)?;
            self.bind(targets.get(1), Value::Bool(ok), *define, &scope)?;
        }
        self.block(&c.body, &scope, fr)
    }

    // ---- channels ----

    pub(super) fn nil_chan(&self) -> Arc<KChan> {
        Arc::new(KChan {
            c: ChanImpl::Nil(self.go.nil_chan("nil")),
            elem: Type::Name("int".into()),
        })
    }

    pub(super) fn chan_of(&self, c: &Value) -> R<Arc<KChan>> {
        match c {
            Value::Chan(k) => Ok(k.clone()),
            Value::Nil => Ok(self.nil_chan()),
            o => Err(unsupported(format!("not a channel: {}", o.show()))),
        }
    }

    pub(super) fn send(&self, c: &Value, v: Value) -> R<()> {
        match &self.chan_of(c)?.c {
            ChanImpl::Val(ch) | ChanImpl::Nil(ch) => ch.send(v),
            ChanImpl::Time(_) => return Err(unsupported("send on a receive-only timer channel")),
        }
        Ok(())
    }

    pub(super) fn recv(&self, c: &Value) -> R<(Value, bool)> {
        let k = self.chan_of(c)?;
        Ok(match &k.c {
            ChanImpl::Val(ch) | ChanImpl::Nil(ch) => match ch.recv() {
                Some(v) => (v, true),
                None => (self.zero(&k.elem, None, Pos::default())?, false),
            },
            ChanImpl::Time(ch) => match ch.recv() {
                Some(()) => (Value::Int(self.go.now().as_nanos() as i64), true),
                None => (Value::Int(0), false),
            },
        })
    }

    pub(super) fn close(&self, c: &Value) -> R<()> {
        match &self.chan_of(c)?.c {
            ChanImpl::Val(ch) | ChanImpl::Nil(ch) => ch.close(),
            ChanImpl::Time(ch) => ch.close(),
        }
        Ok(())
    }
}
