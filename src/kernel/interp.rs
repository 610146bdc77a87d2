//! The tree-walking interpreter: one `I` per goroutine, every Go operation done by
//! stalemate's own primitives (`crate::go`), so the engines see a kernel exactly as
//! they see a Rust model.

use super::Kernel;
use super::ast::*;
use super::value::*;

/// An interface type with no methods (`interface{}`, `any`), or not an interface.
fn ms_empty(t: &Type) -> bool {
    !matches!(t, Type::Interface(ms) if !ms.is_empty())
}

/// The `sync.Cond` a value is, or points to.
fn cond_of(v: &Value) -> Option<Arc<SyncObj>> {
    let v = match v {
        Value::Ptr(c) => lock(c).clone(),
        v => v.clone(),
    };
    match v {
        Value::Sync(s) if matches!(&*s, SyncObj::Cond(..)) => Some(s),
        _ => None,
    }
}

/// A Cond's locker from what `sync.NewCond` or `c.L = ...` is given (a `*Mutex`, a
/// `*RWMutex`: its write lock, or `rw.RLocker()`), with the value `c.L` then reads.
fn locker_of(v: &Value) -> R<(Locker, Value)> {
    let refuse = || unsupported("a Cond's locker is a *Mutex, a *RWMutex or an RLocker");
    match v {
        Value::Sync(s) => match &**s {
            SyncObj::RLocker(m) => Ok((Locker::RLocker(m.clone()), v.clone())),
            _ => Err(refuse()),
        },
        Value::Ptr(c) => {
            let inner = lock(c).clone();
            match &inner {
                Value::Sync(s) => match &**s {
                    SyncObj::Mutex(m) => Ok((Locker::from(m), inner.clone())),
                    SyncObj::RwMutex(m) => Ok((Locker::from(m), inner.clone())),
                    _ => Err(refuse()),
                },
                _ => Err(refuse()),
            }
        }
        _ => Err(refuse()),
    }
}

/// The methods of `atomic.Int32` and its kin (`bool`: an `atomic.Bool`).
fn atomic_method(a: &crate::go::Atomic, bool: bool, m: &str, args: &[Value]) -> R<Value> {
    let num = |i: usize| -> R<i64> {
        match args.get(i) {
            Some(Value::Bool(b)) => Ok(i64::from(*b)),
            Some(v) => int(v),
            None => Err(unsupported(format!(
                "atomic {m} needs {} argument(s)",
                i + 1
            ))),
        }
    };
    let out = |v: i64| {
        if bool {
            Value::Bool(v != 0)
        } else {
            Value::Int(v)
        }
    };
    Ok(match m {
        "Load" => out(a.load()),
        "Store" => {
            a.store(num(0)?);
            Value::Nil
        }
        "Add" if !bool => Value::Int(a.add(num(0)?)),
        "Swap" => out(a.swap(num(0)?)),
        "CompareAndSwap" => Value::Bool(a.compare_and_swap(num(0)?, num(1)?)),
        _ => {
            return Err(unsupported(format!(
                "atomic method {m} is outside the subset"
            )));
        }
    })
}

/// `now - t` for a `time.Time` t, in nanoseconds (saturating for the zero time).
fn since(now: i64, t: &Value) -> R<i64> {
    match t {
        Value::Time(t) => Ok(now.saturating_sub(*t)),
        o => Err(unsupported(format!("time.Since of {}", o.show()))),
    }
}

/// The methods of `time.Time` the subset has, on the virtual clock. `Unix` and
/// `UnixNano` count from a fixed instant (2023-11-14 22:13:20 UTC), so seeds made from
/// them are the same in every execution.
fn time_method(t: i64, m: &str, args: &[Value]) -> R<Value> {
    const EPOCH: i64 = 1_700_000_000_000_000_000;
    let other = || match args.first() {
        Some(Value::Time(u)) => Ok(*u),
        _ => Err(unsupported(format!("time.Time.{m} needs a time.Time"))),
    };
    Ok(match m {
        "Add" => Value::Time(t.saturating_add(int(args.first().unwrap_or(&Value::Int(0)))?)),
        "Sub" => Value::Int(t.saturating_sub(other()?)),
        "Before" => Value::Bool(t < other()?),
        "After" => Value::Bool(t > other()?),
        "Equal" => Value::Bool(t == other()?),
        "IsZero" => Value::Bool(t == ZERO_TIME),
        "UnixNano" => Value::Int(EPOCH.saturating_add(t)),
        "Unix" => Value::Int(EPOCH.saturating_add(t) / 1_000_000_000),
        _ => {
            return Err(unsupported(format!(
                "time.Time method {m} is outside the subset"
            )));
        }
    })
}

/// The most values one `rand.Intn(n)` may have: every one is explored.
const RAND_MAX: usize = 1 << 16;

/// The builtins that may be statements, and so the call of `go` and `defer`.
const STATEMENT_BUILTINS: [&str; 5] = ["close", "delete", "panic", "print", "println"];
use crate::go::{Go, Locker};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// A Go panic (or runtime error) unwinding the kernel's frames.
pub struct Panic(pub String);

type R<T> = Result<T, Panic>;

/// How a statement ended.
pub enum Flow {
    Next,
    Break(Option<String>),
    Continue(Option<String>),
    Return(Value),
}

/// One execution's shared state: globals and the goroutine counter.
pub struct Rt {
    pub k: &'static Kernel,
    pub params: BTreeMap<String, i64>,
    pub globals: Env,
    pub next_g: AtomicUsize,
    /// Statements run in this execution, against `statement_bound`.
    pub statements: AtomicUsize,
    /// `STATEMENTS_PER_STEP` times the execution's step bound.
    pub statement_bound: usize,
    pub canceled: Value,
    pub deadline: Value,
    /// `io.EOF` and `io.ErrClosedPipe`: one value each, compared by identity as Go's.
    pub eof: Value,
    pub closed_pipe: Value,
    /// The object every `sync/atomic` function on a plain variable goes through.
    pub atomics: Option<crate::go::Atomic>,
}

pub struct I<'a> {
    pub rt: &'a Arc<Rt>,
    pub go: &'a Go,
    /// The name a primitive made now takes (`ch := make(chan int)` names it `ch`).
    hint: std::cell::RefCell<Option<String>>,
    /// Nested calls now running in this goroutine.
    depth: std::cell::Cell<usize>,
}

/// Nested calls a goroutine may make: the engines' stacks are 1 MiB, and an
/// interpreted call takes a few KiB of it. Go's own bound is 1 GB of stack.
pub const MAX_DEPTH: usize = 200;

/// Statements an execution may run per step of its step bound: a loop with no Go
/// operation in it never reaches the step bound, and must not run forever.
pub const STATEMENTS_PER_STEP: usize = 100;

/// The largest slice `make` may build: kernels are skeletons, not workloads.
const MAX_MAKE: i64 = 1 << 16;

/// A call's deferred calls, run last first when it returns or panics.
struct Frame {
    defers: Vec<(Value, Vec<Value>)>,
}

/// What a message of `unsupported` starts with.
const OUTSIDE: &str = "outside the subset stalemate interprets: ";

/// Something the kernel does that the interpreter cannot (a construct the checker let
/// through, or one Go's compiler would reject): a crash of the model, never a finding.
fn unsupported(msg: impl std::fmt::Display) -> Panic {
    Panic(format!("{OUTSIDE}{msg}"))
}

fn rt_err(msg: impl std::fmt::Display) -> Panic {
    Panic(format!("runtime error: {msg}"))
}

fn int(v: &Value) -> R<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        o => Err(unsupported(format!("not an integer: {}", o.show()))),
    }
}

fn truth(v: &Value) -> R<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        o => Err(unsupported(format!("not a bool: {}", o.show()))),
    }
}

/// The struct a value is, or points to.
fn struct_of(v: &Value) -> Option<Arc<Struct>> {
    match v {
        Value::Struct(s) => Some(s.clone()),
        Value::Ptr(c) => match &*lock(c) {
            Value::Struct(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn key_of(v: &Value) -> R<Key> {
    v.key().ok_or_else(|| unsupported("unhashable map key"))
}

/// The backing-array position of element `i` of `s`, bounds checked as Go does.
fn slot(s: &Slice, i: &Value) -> R<usize> {
    let i = int(i)?;
    if i < 0 || i as usize >= s.len {
        return Err(rt_err(format!(
            "index out of range [{i}] with length {}",
            s.len
        )));
    }
    Ok(s.off + i as usize)
}

fn nanos(v: &Value) -> R<Duration> {
    Ok(Duration::from_nanos(int(v)?.max(0) as u64))
}

impl<'a> I<'a> {
    pub fn new(rt: &'a Arc<Rt>, go: &'a Go) -> I<'a> {
        I {
            rt,
            go,
            hint: Default::default(),
            depth: Default::default(),
        }
    }

    fn k(&self) -> &'static Kernel {
        self.rt.k
    }

    fn with_pos(&self, p: Pos, e: Panic) -> Panic {
        if e.0.ends_with(')') && e.0.contains(".go:") {
            return e;
        }
        Panic(format!("{} ({}:{})", e.0, self.k().file.short, p.line))
    }

    /// A name for a primitive made at `p`: the hint, else the place.
    fn name_for(&self, what: &str, p: Pos) -> String {
        self.hint
            .borrow_mut()
            .take()
            .unwrap_or_else(|| format!("{what}@{}:{}", self.k().file.short, p.line))
    }

    fn hinted<T>(&self, name: Option<String>, f: impl FnOnce() -> T) -> T {
        *self.hint.borrow_mut() = name;
        let r = f();
        *self.hint.borrow_mut() = None;
        r
    }

    // ---- calls ----

    /// Runs a goroutine's function to its end; a Go panic fails the execution.
    pub fn run(&self, f: Value, args: Vec<Value>) {
        if let Err(p) = self.call(&f, args) {
            if p.0.starts_with(OUTSIDE) {
                // The model's crash (exit 4), not a finding.
                self.go.crash(p.0);
            }
            self.go.check("panic", false, || format!("panic: {}", p.0));
        }
    }

    pub fn call(&self, f: &Value, args: Vec<Value>) -> R<Value> {
        let Value::Func(c) = f else {
            return Err(rt_err("call of nil function"));
        };
        match &**c {
            Callable::Go(func, env) => {
                let env = Env::new(Some(env.as_ref().unwrap_or(&self.rt.globals)));
                self.invoke(func, env, args)
            }
            Callable::Method(func, recv) => {
                let env = Env::new(Some(&self.rt.globals));
                if let Some((var, _)) = &func.recv {
                    env.define(var, recv.clone());
                }
                self.invoke(func, env, args)
            }
            Callable::Lib(v, m) => self.lib_method(v, m, args),
            Callable::Cancel(ctx) => {
                self.cancel(ctx, self.rt.canceled.clone());
                Ok(Value::Nil)
            }
            Callable::Builtin(n) => self.builtin_statement(n, &args),
        }
    }

    /// `atomic.AddInt64(&n, d)` and the other functions of `sync/atomic` on a plain
    /// variable: one operation on the kernel's atomics object, the variable read and
    /// written inside it.
    fn atomic_function(&self, f: &str, args: &[Value]) -> R<Value> {
        let Some(Value::Ptr(cell)) = args.first() else {
            return Err(unsupported(format!(
                "atomic.{f} needs a pointer to a variable (&x)"
            )));
        };
        let Some(a) = &self.rt.atomics else {
            return Err(unsupported("sync/atomic without its import"));
        };
        let num = |i: usize| args.get(i).map_or(Ok(0), int);
        let (d, e) = (num(1)?, num(2)?);
        let kind = ["CompareAndSwap", "Add", "Load", "Store", "Swap"]
            .into_iter()
            .find(|k| f.starts_with(k))
            .ok_or_else(|| unsupported(format!("atomic.{f} is outside the subset")))?;
        let r = a.with(&format!("{f} on a variable"), || {
            let mut c = lock(cell);
            let v = match &*c {
                Value::Int(v) => *v,
                _ => 0,
            };
            match kind {
                "Add" => {
                    *c = Value::Int(v.wrapping_add(d));
                    Value::Int(v.wrapping_add(d))
                }
                "Load" => Value::Int(v),
                "Store" => {
                    *c = Value::Int(d);
                    Value::Nil
                }
                "Swap" => {
                    *c = Value::Int(d);
                    Value::Int(v)
                }
                _ => {
                    let swap = v == d;
                    if swap {
                        *c = Value::Int(e);
                    }
                    Value::Bool(swap)
                }
            }
        });
        Ok(r)
    }

    /// `rand.Intn(n)` and its kin: the engine's choice of `0..n`; Go panics for n ≤ 0.
    fn rand(&self, f: &str, n: &Value) -> R<Value> {
        let n = int(n)?;
        if n <= 0 {
            return Err(Panic(format!("invalid argument to {f}")));
        }
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= RAND_MAX)
            .ok_or_else(|| {
                unsupported(format!(
                    "{f}({n}): stalemate explores every value, at most {RAND_MAX}"
                ))
            })?;
        Ok(Value::Int(self.go.rand(n) as i64))
    }

    /// The builtins Go allows as statements, and so as the call of `go` and `defer`, on
    /// their evaluated arguments.
    fn builtin_statement(&self, n: &str, args: &[Value]) -> R<Value> {
        match (n, args) {
            ("close", [c]) => self.close(c)?,
            ("delete", [m, k]) => {
                if let (Value::Map(m), Some(k)) = (m, k.key()) {
                    lock(m).remove(&k);
                }
            }
            ("panic", [v]) => return Err(Panic(v.show())),
            ("print" | "println", vs) => self.go.note(join_go(vs)),
            _ => {
                return Err(unsupported(format!(
                    "{n} with {} argument(s) as a statement",
                    args.len()
                )));
            }
        }
        Ok(Value::Nil)
    }

    /// The function value and arguments of the call in `go` or `defer`, evaluated now:
    /// a builtin (not shadowed) becomes `Callable::Builtin`.
    fn deferred_call(
        &self,
        f: &Expr,
        args: &[Expr],
        spread: bool,
        env: &Env,
    ) -> R<(Value, Vec<Value>)> {
        if let E::Ident(n) = &f.kind
            && env.lookup(n).is_none()
            && let Some(b) = STATEMENT_BUILTINS.iter().find(|b| **b == n.as_str())
        {
            let args = args
                .iter()
                .map(|a| self.eval(a, env))
                .collect::<R<Vec<_>>>()?;
            return Ok((Value::Func(Arc::new(Callable::Builtin(b))), args));
        }
        Ok((self.eval(f, env)?, self.args(args, spread, env)?))
    }

    fn invoke(&self, func: &Arc<Func>, env: Env, args: Vec<Value>) -> R<Value> {
        if self.depth.get() >= MAX_DEPTH {
            return Err(Panic(format!(
                "stack overflow: more than {MAX_DEPTH} nested calls (stalemate's bound; Go's is 1 GB of stack)"
            )));
        }
        self.depth.set(self.depth.get() + 1);
        let r = self.invoke_inner(func, env, args);
        self.depth.set(self.depth.get() - 1);
        r
    }

    fn invoke_inner(&self, func: &Arc<Func>, env: Env, mut args: Vec<Value>) -> R<Value> {
        let n = func.params.len();
        if func.variadic && args.len() >= n.saturating_sub(1) {
            let rest = args.split_off(n - 1);
            args.push(slice_of(rest));
        }
        for ((name, _), v) in func.params.iter().zip(args) {
            env.define(name, v.copy());
        }
        for (name, ty) in &func.named_results {
            let z = self.zero(ty, Some(name.clone()), func.pos)?;
            env.define(name, z);
        }
        let _guard = self.go.func(intern(&func.name));
        let mut fr = Frame { defers: Vec::new() };
        let mut result = self
            .block(&func.body, &env, &mut fr)
            .map(|flow| match flow {
                Flow::Return(v) => v,
                _ => Value::Nil,
            });
        // A bare return with named results returns them.
        if let Ok(Value::Nil) = &result
            && !func.named_results.is_empty()
        {
            result = Ok(self.named(func, &env));
        }
        while let Some((f, args)) = fr.defers.pop() {
            if let Err(p) = self.call(&f, args) {
                result = Err(p);
            }
        }
        if !func.named_results.is_empty()
            && let Ok(v) = &result
            && matches!(v, Value::Nil)
        {
            result = Ok(self.named(func, &env));
        }
        result
    }

    fn named(&self, func: &Func, env: &Env) -> Value {
        let vs: Vec<Value> = func
            .named_results
            .iter()
            .map(|(n, _)| env.lookup(n).map_or(Value::Nil, |c| lock(&c).clone()))
            .collect();
        if vs.len() == 1 {
            vs.into_iter().next().unwrap_or(Value::Nil)
        } else {
            Value::Tuple(vs)
        }
    }

    // ---- statements ----

    fn block(&self, stmts: &[Stmt], env: &Env, fr: &mut Frame) -> R<Flow> {
        for s in stmts {
            match self.stmt(s, env, fr)? {
                Flow::Next => {}
                f => return Ok(f),
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&self, s: &Stmt, env: &Env, fr: &mut Frame) -> R<Flow> {
        self.go.at(s.place);
        self.tick();
        self.stmt_inner(s, env, fr)
            .map_err(|e| self.with_pos(s.pos, e))
    }

    /// Counts a statement (or a loop iteration, which an empty body would not) against
    /// the execution's statement bound.
    fn tick(&self) {
        let n = self.rt.statements.fetch_add(1, Ordering::Relaxed);
        let bound = self.rt.statement_bound;
        if n >= bound {
            self.go.check("step-bound", false, || {
                format!("the kernel ran {bound} statements in one execution ({STATEMENTS_PER_STEP} per step of max_steps): a loop with no Go operation in it, or a bound too small")
            });
        }
    }

    fn stmt_inner(&self, s: &Stmt, env: &Env, fr: &mut Frame) -> R<Flow> {
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
                                *lock(&c) = v.copy();
                            }
                        }
                        false => {
                            env.define(n, v.copy());
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
                        env.define(n, v.copy());
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
                    let places: Vec<Place> =
                        lhs.iter().map(|l| self.place(l, env)).collect::<R<_>>()?;
                    for (p, v) in places.into_iter().zip(vs) {
                        self.store(p, v.copy())?;
                    }
                } else {
                    let bop = &op[..op.len() - 1];
                    let cur = self.eval(&lhs[0], env)?;
                    let r = self.eval(&rhs[0], env)?;
                    let v = binary(bop, cur, r)?;
                    let p = self.place(&lhs[0], env)?;
                    self.store(p, v)?;
                }
            }
            S::IncDec(e, d) => {
                let v = int(&self.eval(e, env)?)?;
                let p = self.place(e, env)?;
                self.store(p, Value::Int(v.wrapping_add(*d)))?;
            }
            S::Send(c, v) => {
                let c = self.eval(c, env)?;
                let v = self.eval(v, env)?.copy();
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
                self.go.go(&name, move |g| I::new(&rt, &g).run(fv, args));
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
                let env = Env::new(Some(env));
                if let Some(i) = init {
                    self.stmt(i, &env, fr)?;
                }
                if truth(&self.eval(cond, &env)?)? {
                    return self.block(then, &Env::new(Some(&env)), fr);
                } else if let Some(e) = els {
                    return self.stmt(e, &env, fr);
                }
            }
            S::Block(b) => return self.block(b, &Env::new(Some(env)), fr),
            S::For(init, cond, post, body, label) => {
                return self.for_loop(s.pos, init, cond, post, body, label, env, fr);
            }
            S::Range(k, v, define, e, body, label) => {
                return self.range(k.as_ref(), v.as_ref(), *define, e, body, label, env, fr);
            }
            S::Switch(init, tag, cases, label) => {
                let env = Env::new(Some(env));
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
                        let flow = self.block(&cases[i].body, &Env::new(Some(&env)), fr)?;
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
                    0 => Value::Nil,
                    1 => self.eval(&es[0], env)?.copy(),
                    _ => Value::Tuple(
                        es.iter()
                            .map(|e| self.eval(e, env).map(|v| v.copy()))
                            .collect::<R<_>>()?,
                    ),
                };
                return Ok(Flow::Return(v));
            }
            S::Break(l) => return Ok(Flow::Break(l.clone())),
            S::Continue(l) => return Ok(Flow::Continue(l.clone())),
        }
        Ok(Flow::Next)
    }

    /// What a loop does with its body's flow: Some(flow) leaves the loop.
    fn after_body(flow: Flow, label: &Option<String>) -> Option<Flow> {
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
    fn for_loop(
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
        // Go 1.22: each iteration has its own copy of the loop's variables.
        let mut cur = Env::new(Some(env));
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
                || super::value::env_print(&cur, defers),
                || format!("{}:{}", self.k().file.short, pos.line),
            );
            fresh = false;
            if let Some(c) = cond
                && !truth(&self.eval(c, &cur)?)?
            {
                return Ok(Flow::Next);
            }
            let flow = self.block(body, &Env::new(Some(&cur)), fr)?;
            if let Some(f) = Self::after_body(flow, label) {
                return Ok(f);
            }
            let next = Env::new(Some(env));
            for (n, v) in cur.own() {
                next.define(&n, v.copy());
            }
            cur = next;
            if let Some(p) = post {
                self.stmt(p, &cur, fr)?;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn range(
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
        let mut items: Box<dyn Iterator<Item = (Value, Value)>> = match &x {
            Value::Int(n) => Box::new((0..*n).map(|i| (Value::Int(i), Value::Nil))),
            Value::Slice(s) => {
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
            Value::Map(m) => {
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
                    let it = Env::new(Some(env));
                    self.bind(k, val, define, &it)?;
                    let flow = self.block(body, &Env::new(Some(&it)), fr)?;
                    if let Some(f) = Self::after_body(flow, label) {
                        return Ok(f);
                    }
                }
            }
            o => return Err(unsupported(format!("cannot range over {}", o.show()))),
        };
        for (a, b) in &mut items {
            self.tick();
            let it = Env::new(Some(env));
            self.bind(k, a, define, &it)?;
            self.bind(v, b, define, &it)?;
            let flow = self.block(body, &Env::new(Some(&it)), fr)?;
            if let Some(f) = Self::after_body(flow, label) {
                return Ok(f);
            }
        }
        Ok(Flow::Next)
    }

    fn bind(&self, target: Option<&Expr>, v: Value, define: bool, env: &Env) -> R<()> {
        let Some(t) = target else { return Ok(()) };
        if define {
            if let E::Ident(n) = &t.kind {
                env.define(n, v.copy());
            }
            Ok(())
        } else {
            let p = self.place(t, env)?;
            self.store(p, v.copy())
        }
    }

    fn select(&self, cases: &[SelectCase], env: &Env, fr: &mut Frame) -> R<Flow> {
        // Go evaluates every channel and every value to send first, in source order.
        let mut ready = Vec::new();
        for c in cases {
            ready.push(match &c.comm {
                None => None,
                Some(Comm::Send(ch, v)) => {
                    Some((self.eval(ch, env)?, Some(self.eval(v, env)?.copy())))
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
        let scope = Env::new(Some(env));
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

    fn nil_chan(&self) -> Arc<KChan> {
        Arc::new(KChan {
            c: ChanImpl::Nil(self.go.nil_chan("nil")),
            elem: Type::Name("int".into()),
        })
    }

    fn chan_of(&self, c: &Value) -> R<Arc<KChan>> {
        match c {
            Value::Chan(k) => Ok(k.clone()),
            Value::Nil => Ok(self.nil_chan()),
            o => Err(unsupported(format!("not a channel: {}", o.show()))),
        }
    }

    fn send(&self, c: &Value, v: Value) -> R<()> {
        match &self.chan_of(c)?.c {
            ChanImpl::Val(ch) | ChanImpl::Nil(ch) => ch.send(v),
            ChanImpl::Time(_) => return Err(unsupported("send on a receive-only timer channel")),
        }
        Ok(())
    }

    fn recv(&self, c: &Value) -> R<(Value, bool)> {
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

    fn close(&self, c: &Value) -> R<()> {
        match &self.chan_of(c)?.c {
            ChanImpl::Val(ch) | ChanImpl::Nil(ch) => ch.close(),
            ChanImpl::Time(ch) => ch.close(),
        }
        Ok(())
    }

    // ---- expressions ----

    /// Values for `n` targets: one call returning a tuple, or one value each.
    fn values(&self, es: &[Expr], env: &Env, names: &[String]) -> R<Vec<Value>> {
        if es.len() == 1 && names.len() > 1 {
            return match self.eval_multi(&es[0], env)? {
                Value::Tuple(vs) => Ok(vs),
                v => Ok(vec![v]),
            };
        }
        es.iter()
            .enumerate()
            .map(|(i, e)| self.hinted(names.get(i).cloned(), || self.eval(e, env)))
            .collect()
    }

    /// Like `eval`, but `v, ok := <-ch`, `v, ok := m[k]` and `x, ok := y.(T)` give two.
    fn eval_multi(&self, e: &Expr, env: &Env) -> R<Value> {
        match &e.kind {
            E::Unary("<-", c) => {
                let c = self.eval(c, env)?;
                let (v, ok) = self.recv(&c)?;
                Ok(Value::Tuple(vec![v, Value::Bool(ok)]))
            }
            E::Index(m, k) => {
                let m = self.eval(m, env)?;
                let k = self.eval(k, env)?;
                match &m {
                    Value::Map(map) => {
                        let key = key_of(&k)?;
                        let got = lock(map).get(&key).cloned();
                        Ok(match got {
                            Some(v) => Value::Tuple(vec![v, Value::Bool(true)]),
                            None => Value::Tuple(vec![Value::Nil, Value::Bool(false)]),
                        })
                    }
                    Value::Nil => Ok(Value::Tuple(vec![Value::Nil, Value::Bool(false)])),
                    _ => self.eval(e, env),
                }
            }
            E::Assert(x, t) => {
                let v = self.eval(x, env)?;
                let ok = self.has_type(&v, t);
                Ok(Value::Tuple(vec![
                    if ok { v } else { Value::Nil },
                    Value::Bool(ok),
                ]))
            }
            _ => self.eval(e, env),
        }
    }

    fn args(&self, es: &[Expr], spread: bool, env: &Env) -> R<Vec<Value>> {
        let mut out: Vec<Value> = Vec::new();
        if es.len() == 1
            && let E::Call(..) = es[0].kind
        {
            // f(g()) passes every result of g.
            return Ok(match self.eval(&es[0], env)? {
                Value::Tuple(vs) => vs,
                v => vec![v],
            });
        }
        for e in es {
            out.push(self.eval(e, env)?.copy());
        }
        if spread && let Some(Value::Slice(s)) = out.pop() {
            out.extend(lock(&s.arr)[s.off..s.off + s.len].iter().cloned());
        }
        Ok(out)
    }

    pub fn eval(&self, e: &Expr, env: &Env) -> R<Value> {
        match &e.kind {
            E::Int(i) => Ok(Value::Int(*i)),
            E::Str(s) => Ok(Value::str(s)),
            E::Nil => Ok(Value::Nil),
            E::Ident(n) => self.ident(n, env),
            E::Unary(op, x) => self.unary(op, x, env),
            E::Binary(op, a, b) => {
                let a = self.eval(a, env)?;
                match (op.as_str(), &a) {
                    ("&&", Value::Bool(false)) => return Ok(a),
                    ("||", Value::Bool(true)) => return Ok(a),
                    _ => {}
                }
                let b = self.eval(b, env)?;
                binary(op, a, b)
            }
            E::Call(f, args, spread) => self.call_expr(f, args, *spread, env, e.pos),
            E::Sel(x, name) => self.select_expr(x, name, env),
            E::Index(x, i) => {
                let x = self.eval(x, env)?;
                let i = self.eval(i, env)?;
                match &x {
                    Value::Slice(s) => Ok(lock(&s.arr)[slot(s, &i)?].clone()),
                    Value::Map(m) => {
                        let key = key_of(&i)?;
                        Ok(lock(m).get(&key).cloned().unwrap_or(Value::Nil))
                    }
                    Value::Nil => Ok(Value::Nil),
                    Value::Str(s) => {
                        let i = int(&i)?;
                        s.as_bytes()
                            .get(i as usize)
                            .map(|b| Value::Int(*b as i64))
                            .ok_or_else(|| {
                                rt_err(format!("index out of range [{i}] with length {}", s.len()))
                            })
                    }
                    o => Err(unsupported(format!("cannot index {}", o.show()))),
                }
            }
            E::Slice(x, lo, hi) => {
                let x = self.eval(x, env)?;
                let lo = match lo {
                    Some(l) => int(&self.eval(l, env)?)? as usize,
                    None => 0,
                };
                match x {
                    Value::Slice(s) => {
                        let hi = match hi {
                            Some(h) => int(&self.eval(h, env)?)? as usize,
                            None => s.len,
                        };
                        if lo > hi || hi > s.cap {
                            return Err(rt_err(format!(
                                "slice bounds out of range [{lo}:{hi}] with capacity {}",
                                s.cap
                            )));
                        }
                        Ok(Value::Slice(Slice {
                            arr: s.arr,
                            off: s.off + lo,
                            len: hi - lo,
                            cap: s.cap - lo,
                        }))
                    }
                    Value::Nil => Ok(Value::Nil),
                    Value::Str(s) => {
                        let hi = match hi {
                            Some(h) => int(&self.eval(h, env)?)? as usize,
                            None => s.len(),
                        };
                        s.get(lo..hi)
                            .map(Value::str)
                            .ok_or_else(|| rt_err(format!("slice bounds out of range [{lo}:{hi}]")))
                    }
                    o => Err(unsupported(format!("cannot slice {}", o.show()))),
                }
            }
            E::Composite(ty, elems) => self.composite(ty, elems, env, e.pos),
            E::Func(f) => Ok(Value::Func(Arc::new(Callable::Go(
                f.clone(),
                Some(env.clone()),
            )))),
            E::Type(_) => Err(unsupported("a type is not a value")),
            E::Is(x, t) => {
                let v = self.eval(x, env)?;
                Ok(Value::Bool(self.has_type(&v, t)))
            }
            E::Assert(x, t) => {
                let v = self.eval(x, env)?;
                if self.has_type(&v, t) {
                    Ok(v)
                } else {
                    Err(Panic(format!(
                        "interface conversion: {} is not {t:?}",
                        v.show()
                    )))
                }
            }
        }
    }

    fn ident(&self, n: &str, env: &Env) -> R<Value> {
        if let Some(c) = env.lookup(n) {
            return Ok(lock(&c).clone());
        }
        match n {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            _ => {}
        }
        if let Some(f) = self.k().funcs.get(n) {
            return Ok(Value::Func(Arc::new(Callable::Go(f.clone(), None))));
        }
        Err(unsupported(format!("undefined: {n}")))
    }

    fn unary(&self, op: &str, x: &Expr, env: &Env) -> R<Value> {
        match op {
            "<-" => {
                let c = self.eval(x, env)?;
                Ok(self.recv(&c)?.0)
            }
            "&" => match &x.kind {
                E::Composite(..) => Ok(Value::Ptr(cell(self.eval(x, env)?))),
                _ => match self.place(x, env)? {
                    Place::Cell(c) => Ok(Value::Ptr(c)),
                    _ => Err(unsupported("cannot take this address")),
                },
            },
            "*" => match self.eval(x, env)? {
                Value::Ptr(c) => Ok(lock(&c).clone()),
                Value::Nil => Err(rt_err("invalid memory address or nil pointer dereference")),
                o => Err(unsupported(format!("cannot dereference {}", o.show()))),
            },
            "-" => Ok(Value::Int(int(&self.eval(x, env)?)?.wrapping_neg())),
            "+" => self.eval(x, env),
            "!" => Ok(Value::Bool(!truth(&self.eval(x, env)?)?)),
            _ => Err(unsupported(format!("operator {op}"))),
        }
    }

    fn composite(&self, ty: &Type, elems: &[(Option<Expr>, Expr)], env: &Env, p: Pos) -> R<Value> {
        // `sync.Mutex{}`, `&sync.WaitGroup{}`: the zero value (the checker refuses
        // library literals with elements).
        if let Type::Pkg(..) = ty
            && elems.is_empty()
        {
            return self.zero(ty, None, p);
        }
        match self.underlying(ty) {
            Type::Struct(fields) => {
                let tname = match ty {
                    Type::Name(n) => n.clone(),
                    _ => "struct".into(),
                };
                let mut vals: Vec<Option<Value>> = vec![None; fields.len()];
                for (i, (k, v)) in elems.iter().enumerate() {
                    let idx = match k {
                        Some(Expr {
                            kind: E::Ident(n), ..
                        }) => fields.iter().position(|f| f.name == *n).ok_or_else(|| {
                            unsupported(format!("unknown field {n} in struct literal"))
                        })?,
                        _ => i,
                    };
                    let Some(field) = fields.get(idx) else {
                        return Err(unsupported(format!("too many values in {tname} literal")));
                    };
                    let name = format!("{tname}.{}", field.name);
                    vals[idx] = Some(self.hinted(Some(name), || self.eval(v, env))?.copy());
                }
                let mut cells = Vec::new();
                for (f, v) in fields.iter().zip(vals) {
                    let v = match v {
                        Some(v) => v,
                        None => self.zero(&f.ty, Some(format!("{tname}.{}", f.name)), p)?,
                    };
                    cells.push(cell(v));
                }
                Ok(Value::Struct(Arc::new(Struct {
                    ty: Arc::from(tname.as_str()),
                    names: Arc::new(fields.iter().map(|f| f.name.clone()).collect()),
                    fields: cells,
                })))
            }
            Type::Slice(_) => {
                let vs: Vec<Value> = elems
                    .iter()
                    .map(|(_, v)| self.eval(v, env).map(|v| v.copy()))
                    .collect::<R<_>>()?;
                Ok(slice_of(vs))
            }
            Type::Map(..) => {
                let mut m = BTreeMap::new();
                for (k, v) in elems {
                    let k = match k {
                        Some(k) => self.eval(k, env)?,
                        None => return Err(unsupported("map literal element without a key")),
                    };
                    let key = key_of(&k)?;
                    m.insert(key, self.eval(v, env)?.copy());
                }
                Ok(Value::Map(Arc::new(Mutex::new(m))))
            }
            t => Err(unsupported(format!("composite literal of {t:?}"))),
        }
    }

    /// The type a named type stands for.
    fn underlying(&self, t: &Type) -> Type {
        let mut t = t.clone();
        for _ in 0..32 {
            match &t {
                Type::Name(n) => match self.k().types.get(n) {
                    Some(u) => t = u.clone(),
                    None => return t,
                },
                _ => return t,
            }
        }
        t
    }

    fn has_type(&self, v: &Value, t: &Type) -> bool {
        // A declared interface: the value has every one of its methods.
        if let Type::Name(n) = t
            && let Some(Type::Interface(ms)) = self.k().types.get(n)
        {
            return self.has_type(v, &Type::Interface(ms.clone()));
        }
        if let (Type::Interface(ms), false) = (t, ms_empty(t)) {
            let ty = match v {
                Value::Struct(s) => Some(s.ty.clone()),
                Value::Ptr(c) => match &*lock(c) {
                    Value::Struct(s) => Some(s.ty.clone()),
                    _ => None,
                },
                Value::Error(_) => return ms.iter().all(|m| m == "Error"),
                _ => None,
            };
            return ty.is_some_and(|ty| {
                ms.iter()
                    .all(|m| self.k().methods.contains_key(&(ty.to_string(), m.clone())))
            });
        }
        match (v, t) {
            (Value::Ptr(c), Type::Ptr(inner)) => match (&*lock(c), &**inner) {
                (Value::Struct(s), Type::Name(n)) => *s.ty == **n,
                _ => false,
            },
            (Value::Struct(s), Type::Name(n)) => *s.ty == **n,
            (Value::Int(_), Type::Name(n)) => matches!(
                n.as_str(),
                "int"
                    | "int8"
                    | "int16"
                    | "int32"
                    | "int64"
                    | "uint"
                    | "uint8"
                    | "uint16"
                    | "uint32"
                    | "uint64"
                    | "byte"
                    | "rune"
                    | "uintptr"
            ),
            (Value::Str(_), Type::Name(n)) => n == "string",
            (Value::Bool(_), Type::Name(n)) => n == "bool",
            (Value::Error(_), Type::Name(n)) => n == "error",
            (Value::Nil, _) => false,
            (_, Type::Interface(ms)) => ms.is_empty(),
            _ => false,
        }
    }

    /// The zero value of a type; sync types are made here, named by `name`.
    pub fn zero(&self, t: &Type, name: Option<String>, p: Pos) -> R<Value> {
        let name = || name.clone().unwrap_or_else(|| self.name_for("var", p));
        Ok(match t {
            Type::Name(n) => match n.as_str() {
                "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16"
                | "uint32" | "uint64" | "byte" | "rune" | "uintptr" => Value::Int(0),
                "bool" => Value::Bool(false),
                "string" => Value::str(""),
                "error" | "any" => Value::Nil,
                _ => match self.k().types.get(n) {
                    Some(Type::Struct(_)) => self.composite(t, &[], &self.rt.globals, p)?,
                    Some(u) => {
                        let u = u.clone();
                        self.zero(&u, Some(name()), p)?
                    }
                    None => return Err(unsupported(format!("undefined type {n}"))),
                },
            },
            Type::Pkg(pkg, n) => match (pkg.as_str(), n.as_str()) {
                ("sync", "Mutex") => Value::Sync(Arc::new(SyncObj::Mutex(self.go.mutex(&name())))),
                ("sync", "RWMutex") => {
                    Value::Sync(Arc::new(SyncObj::RwMutex(self.go.rwmutex(&name()))))
                }
                ("sync", "WaitGroup") => {
                    Value::Sync(Arc::new(SyncObj::WaitGroup(self.go.waitgroup(&name()))))
                }
                ("sync", "Once") => Value::Sync(Arc::new(SyncObj::Once(self.go.once(&name())))),
                ("time", "Duration") => Value::Int(0),
                ("time", "Time") => Value::Time(ZERO_TIME),
                // A zero Cond: its L is assigned by hand (`c.L = &mu`) before use.
                ("sync", "Cond") => Value::Sync(Arc::new(SyncObj::Cond(Mutex::new(None), name()))),
                ("atomic", "Int32" | "Int64" | "Uint32" | "Uint64" | "Bool") => Value::Sync(
                    Arc::new(SyncObj::Atomic(self.go.atomic(&name(), 0), n == "Bool")),
                ),
                _ => Value::Nil,
            },
            Type::Struct(_) => self.composite(t, &[], &self.rt.globals, p)?,
            _ => Value::Nil,
        })
    }

    // ---- places ----

    fn place(&self, e: &Expr, env: &Env) -> R<Place> {
        match &e.kind {
            E::Ident(n) if n == "_" => Ok(Place::Blank),
            E::Ident(n) => env
                .lookup(n)
                .map(Place::Cell)
                .ok_or_else(|| unsupported(format!("undefined: {n}"))),
            E::Unary("*", x) => match self.eval(x, env)? {
                Value::Ptr(c) => Ok(Place::Cell(c)),
                _ => Err(rt_err("invalid memory address or nil pointer dereference")),
            },
            E::Sel(x, f) => {
                let base = self.eval(x, env)?;
                if let Value::Nil = base {
                    return Err(rt_err("invalid memory address or nil pointer dereference"));
                }
                if f == "L"
                    && let Some(s) = cond_of(&base)
                {
                    return Ok(Place::CondL(s));
                }
                self.field_cell(&base, f)
                    .map(Place::Cell)
                    .ok_or_else(|| unsupported(format!("no field {f} in {}", base.show())))
            }
            E::Index(x, i) => {
                let base = self.eval(x, env)?;
                let i = self.eval(i, env)?;
                match base {
                    Value::Map(m) => Ok(Place::Map(m, key_of(&i)?)),
                    Value::Slice(s) => {
                        let at = slot(&s, &i)?;
                        Ok(Place::Elem(s.arr, at))
                    }
                    Value::Nil => Err(Panic("assignment to entry in nil map".into())),
                    o => Err(unsupported(format!("cannot index {}", o.show()))),
                }
            }
            _ => Err(unsupported("cannot assign to this expression")),
        }
    }

    fn store(&self, p: Place, v: Value) -> R<()> {
        match p {
            Place::Blank => {}
            Place::Cell(c) => *lock(&c) = v,
            Place::Map(m, k) => {
                lock(&m).insert(k, v);
            }
            Place::Elem(a, i) => lock(&a)[i] = v,
            Place::CondL(s) => {
                let SyncObj::Cond(slot, name) = &*s else {
                    unreachable!("cond_of gives a Cond")
                };
                let (locker, l) = locker_of(&v)?;
                let mut slot = lock(slot);
                if slot.is_some() {
                    return Err(unsupported("assigning L of a Cond that has one"));
                }
                *slot = Some((self.go.cond(name, locker), l));
            }
        }
        Ok(())
    }

    /// The cell of field `f` of a struct or a pointer to one, embedded fields included.
    fn field_cell(&self, base: &Value, f: &str) -> Option<Cell> {
        let s = struct_of(base)?;
        if let Some(i) = s.names.iter().position(|n| n == f) {
            return Some(s.fields[i].clone());
        }
        for (n, c) in s.names.iter().zip(&s.fields) {
            if self.embeddable(n) {
                let inner = lock(c).clone();
                if let Some(x) = self.field_cell(&inner, f) {
                    return Some(x);
                }
            }
        }
        None
    }

    /// A field named after a type: an embedded one.
    fn embeddable(&self, n: &str) -> bool {
        self.k().types.contains_key(n) || matches!(n, "Mutex" | "RWMutex" | "WaitGroup" | "Once")
    }

    // ---- selectors and methods ----

    /// `x` names an imported package (and no variable shadows it).
    fn package<'e>(&self, x: &'e Expr, env: &Env) -> Option<&'e str> {
        match &x.kind {
            E::Ident(pkg)
                if env.lookup(pkg).is_none() && self.k().file.imports.iter().any(|i| i == pkg) =>
            {
                Some(pkg)
            }
            _ => None,
        }
    }

    fn select_expr(&self, x: &Expr, name: &str, env: &Env) -> R<Value> {
        if let Some(pkg) = self.package(x, env) {
            return self.package_member(pkg, name);
        }
        let base = self.eval(x, env)?;
        self.member(&base, name)
    }

    fn member(&self, base: &Value, name: &str) -> R<Value> {
        if let Value::Nil = base {
            return Err(rt_err("invalid memory address or nil pointer dereference"));
        }
        // Methods the kernel declares, on the dynamic type.
        let st = struct_of(base);
        if let Some(s) = &st
            && let Some(m) = self.k().methods.get(&(s.ty.to_string(), name.to_string()))
        {
            let recv = match (&m.recv, base) {
                (Some((_, true)), Value::Struct(_)) => Value::Ptr(cell(base.clone())),
                (Some((_, false)), Value::Ptr(c)) => lock(c).copy(),
                (Some((_, false)), v) => v.copy(),
                _ => base.clone(),
            };
            return Ok(Value::Func(Arc::new(Callable::Method(m.clone(), recv))));
        }
        if let Some(c) = self.field_cell(base, name) {
            return Ok(lock(&c).clone());
        }
        // Methods promoted from embedded fields.
        if let Some(s) = st {
            for (n, c) in s.names.iter().zip(&s.fields) {
                if self.embeddable(n) {
                    let inner = lock(c).clone();
                    if let Ok(v) = self.member(&inner, name) {
                        return Ok(v);
                    }
                }
            }
            return Err(unsupported(format!(
                "{} has no field or method {name}",
                s.ty
            )));
        }
        // A pointer to a library value (`new(sync.Mutex)`, `&sync.WaitGroup{}`, a
        // `*sync.Mutex` parameter): its members are the value's.
        if let Value::Ptr(c) = base {
            let inner = lock(c).clone();
            if matches!(inner, Value::Sync(_) | Value::Timer(_) | Value::Ctx(_)) {
                return self.member(&inner, name);
            }
        }
        match (base, name) {
            (Value::Timer(t), "C") => Ok(Value::Chan(Arc::new(KChan {
                c: ChanImpl::Time(t.c().clone()),
                elem: Type::Name("int".into()),
            }))),
            (Value::Sync(s), "L") => match &**s {
                SyncObj::Cond(slot, _) => {
                    Ok(lock(slot).as_ref().map_or(Value::Nil, |x| x.1.clone()))
                }
                _ => Err(unsupported("no field L")),
            },
            _ => Ok(Value::Func(Arc::new(Callable::Lib(
                base.clone(),
                name.to_string(),
            )))),
        }
    }

    fn lib_method(&self, v: &Value, m: &str, args: Vec<Value>) -> R<Value> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        match v {
            Value::Time(t) => return time_method(*t, m, &args),
            Value::Rand => match m {
                "Intn" | "Int31n" | "Int63n" => return self.rand(m, &arg(0)),
                "Seed" => return Ok(Value::Nil),
                _ => {
                    return Err(unsupported(format!(
                        "rand method {m} is outside the subset"
                    )));
                }
            },
            Value::Sync(s) => match (&**s, m) {
                (SyncObj::Mutex(x), "Lock") => x.lock(),
                (SyncObj::Mutex(x), "Unlock") => x.unlock(),
                (SyncObj::RwMutex(x), "Lock") => x.lock(),
                (SyncObj::RwMutex(x), "Unlock") => x.unlock(),
                (SyncObj::RwMutex(x), "RLock") => x.rlock(),
                (SyncObj::RwMutex(x), "RUnlock") => x.runlock(),
                (SyncObj::RwMutex(x), "RLocker") => {
                    return Ok(Value::Sync(Arc::new(SyncObj::RLocker(x.clone()))));
                }
                (SyncObj::RLocker(x), "Lock") => x.rlock(),
                (SyncObj::RLocker(x), "Unlock") => x.runlock(),
                (SyncObj::WaitGroup(x), "Add") => x.add(int(&arg(0))?),
                (SyncObj::WaitGroup(x), "Done") => x.done(),
                (SyncObj::WaitGroup(x), "Wait") => x.wait(),
                (SyncObj::Once(x), "Do") => {
                    let mut out = Ok(Value::Nil);
                    x.run(|| out = self.call(&arg(0), Vec::new()));
                    out?;
                }
                (SyncObj::Atomic(a, b), _) => return atomic_method(a, *b, m, &args),
                (SyncObj::Cond(slot, _), "Wait") => {
                    let c = lock(slot).as_ref().map(|x| x.0.clone());
                    // Go's Wait unlocks c.L first: nil without one.
                    c.ok_or_else(|| rt_err("invalid memory address or nil pointer dereference"))?
                        .wait()
                }
                // With no L yet, nobody can be waiting: a Signal is lost, as in Go.
                (SyncObj::Cond(slot, _), "Signal") => {
                    let c = lock(slot).as_ref().map(|x| x.0.clone());
                    if let Some(c) = c {
                        c.signal();
                    }
                }
                (SyncObj::Cond(slot, _), "Broadcast") => {
                    let c = lock(slot).as_ref().map(|x| x.0.clone());
                    if let Some(c) = c {
                        c.broadcast();
                    }
                }
                _ => {
                    return Err(unsupported(format!(
                        "sync method {m} is outside the subset"
                    )));
                }
            },
            Value::Timer(t) => match (&**t, m) {
                // Go: true if the call stopped the timer, false if it had fired.
                (Clock::Timer(t), "Stop") => return Ok(Value::Bool(t.stop())),
                (Clock::Timer(t), "Reset") => return Ok(Value::Bool(t.reset(nanos(&arg(0))?))),
                (Clock::Ticker(t), "Stop") => {
                    t.stop();
                    return Ok(Value::Nil);
                }
                _ => {
                    return Err(unsupported(format!(
                        "time method {m} is outside the subset"
                    )));
                }
            },
            Value::Ctx(c) => match m {
                "Done" => {
                    return Ok(match &c.done {
                        Some(k) => Value::Chan(k.clone()),
                        None => Value::Nil,
                    });
                }
                "Err" => return Ok(lock(&c.err).clone().unwrap_or(Value::Nil)),
                _ => {
                    return Err(unsupported(format!(
                        "context method {m} is outside the subset"
                    )));
                }
            },
            Value::Error(e) => match m {
                "Error" => return Ok(Value::Str(e.clone())),
                _ => return Err(unsupported(format!("error has no method {m}"))),
            },
            Value::T => match m {
                "Fatal" | "Fatalf" | "Error" | "Errorf" => {
                    let msg = if m.ends_with('f') {
                        format_go(&args)
                    } else {
                        join_go(&args)
                    };
                    self.go
                        .check("test-failed", false, || format!("t.{m}: {msg}"));
                }
                "Log" | "Logf" => {
                    let msg = if m.ends_with('f') {
                        format_go(&args)
                    } else {
                        join_go(&args)
                    };
                    self.go.note(format!("t.{m}: {msg}"));
                }
                "Helper" | "Parallel" => {}
                _ => {
                    return Err(unsupported(format!(
                        "testing method {m} is outside the subset"
                    )));
                }
            },
            o => return Err(unsupported(format!("{} has no method {m}", o.show()))),
        }
        Ok(Value::Nil)
    }

    fn package_member(&self, pkg: &str, name: &str) -> R<Value> {
        let d = |n: i64| Ok(Value::Int(n));
        match (pkg, name) {
            ("time", "Nanosecond") => d(1),
            ("time", "Microsecond") => d(1_000),
            ("time", "Millisecond") => d(1_000_000),
            ("time", "Second") => d(1_000_000_000),
            ("time", "Minute") => d(60_000_000_000),
            ("time", "Hour") => d(3_600_000_000_000),
            ("context", "Canceled") => Ok(self.rt.canceled.clone()),
            ("io", "EOF") => Ok(self.rt.eof.clone()),
            ("io", "ErrClosedPipe") => Ok(self.rt.closed_pipe.clone()),
            ("context", "DeadlineExceeded") => Ok(self.rt.deadline.clone()),
            _ => Ok(Value::Func(Arc::new(Callable::Lib(
                Value::str(&format!("{pkg}.{name}")),
                String::new(),
            )))),
        }
    }

    // ---- calls by expression ----

    fn call_expr(&self, f: &Expr, args: &[Expr], spread: bool, env: &Env, p: Pos) -> R<Value> {
        // Builtins and conversions first: their arguments may be types.
        match &f.kind {
            E::Ident(n) if env.lookup(n).is_none() => {
                if let Some(v) = self.builtin(n, args, spread, env, p)? {
                    return Ok(v);
                }
                if self.k().types.contains_key(n) || is_basic(n) {
                    return self.convert(args, env);
                }
            }
            E::Type(_) => return self.convert(args, env),
            E::Sel(x, name) => {
                if let Some(pkg) = self.package(x, env) {
                    let vs = self.args(args, spread, env)?;
                    return self.library(pkg, name, vs, p);
                }
            }
            _ => {}
        }
        let fv = self.eval(f, env)?;
        let vs = self.args(args, spread, env)?;
        self.call(&fv, vs)
    }

    /// `T(x)`: every conversion the subset has keeps the value.
    fn convert(&self, args: &[Expr], env: &Env) -> R<Value> {
        match args {
            [x] => self.eval(x, env),
            _ => Err(unsupported("a conversion takes exactly one argument")),
        }
    }

    fn builtin(&self, n: &str, args: &[Expr], spread: bool, env: &Env, p: Pos) -> R<Option<Value>> {
        let least = match n {
            "len" | "cap" | "append" | "close" | "panic" | "new" | "make" => 1,
            "delete" => 2,
            "print" | "println" => 0,
            _ => return Ok(None),
        };
        if args.len() < least {
            return Err(unsupported(format!("not enough arguments in call to {n}")));
        }
        let ev = |i: usize| self.eval(&args[i], env);
        Ok(Some(match n {
            "len" | "cap" => match ev(0)? {
                Value::Slice(s) => Value::Int(if n == "len" { s.len } else { s.cap } as i64),
                Value::Str(s) => Value::Int(s.len() as i64),
                Value::Map(m) => Value::Int(lock(&m).len() as i64),
                Value::Nil => Value::Int(0),
                o => return Err(unsupported(format!("len of {}", o.show()))),
            },
            "append" => {
                let base = ev(0)?;
                let mut more = Vec::new();
                for a in &args[1..] {
                    more.push(self.eval(a, env)?.copy());
                }
                if spread && let Some(Value::Slice(s)) = more.pop() {
                    more.extend(lock(&s.arr)[s.off..s.off + s.len].iter().cloned());
                }
                append(base, more)
            }
            "close" | "delete" | "panic" | "print" | "println" => {
                let vs: Vec<Value> = (0..args.len()).map(ev).collect::<R<_>>()?;
                self.builtin_statement(n, &vs)?
            }
            "new" => {
                let t = self.type_arg(&args[0])?;
                Value::Ptr(cell(self.zero(&t, None, p)?))
            }
            "make" => {
                let t = self.type_arg(&args[0])?;
                let n = match args.get(1) {
                    Some(a) => int(&self.eval(a, env)?)?,
                    None => 0,
                };
                match self.underlying(&t) {
                    Type::Chan(elem) => {
                        if n < 0 {
                            return Err(rt_err("makechan: size out of range"));
                        }
                        let name = self.name_for("chan", p);
                        Value::Chan(Arc::new(KChan {
                            c: ChanImpl::Val(self.go.chan(&name, n as usize)),
                            elem: *elem,
                        }))
                    }
                    Type::Map(..) => Value::Map(Arc::new(Mutex::new(BTreeMap::new()))),
                    Type::Slice(elem) => {
                        let cap = match args.get(2) {
                            Some(a) => int(&self.eval(a, env)?)?,
                            None => n,
                        };
                        let mut vs = Vec::new();
                        if n < 0 || cap < n || cap > MAX_MAKE {
                            return Err(rt_err("makeslice: len out of range"));
                        }
                        for _ in 0..cap {
                            vs.push(self.zero(&elem, None, p)?);
                        }
                        let mut s = match slice_of(vs) {
                            Value::Slice(s) => s,
                            _ => unreachable!("slice_of makes a slice"),
                        };
                        s.len = n.max(0) as usize;
                        Value::Slice(s)
                    }
                    t => return Err(unsupported(format!("cannot make {t:?}"))),
                }
            }
            _ => return Ok(None),
        }))
    }

    fn type_arg(&self, e: &Expr) -> R<Type> {
        Ok(match &e.kind {
            E::Type(t) => t.clone(),
            E::Ident(n) => Type::Name(n.clone()),
            E::Sel(p, n) => match &p.kind {
                E::Ident(p) => Type::Pkg(p.clone(), n.clone()),
                _ => return Err(unsupported("not a type")),
            },
            _ => return Err(unsupported("not a type")),
        })
    }

    /// Functions of the imported packages.
    fn library(&self, pkg: &str, name: &str, args: Vec<Value>, p: Pos) -> R<Value> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        Ok(match (pkg, name) {
            ("time", "Sleep") => {
                self.go.sleep(nanos(&arg(0))?);
                Value::Nil
            }
            ("rand", "Intn" | "Int31n" | "Int63n") => self.rand(name, &arg(0))?,
            ("atomic", f) => self.atomic_function(f, &args)?,
            ("time", "Now") => Value::Time(self.go.now().as_nanos() as i64),
            ("time", "Since") => Value::Int(since(self.go.now().as_nanos() as i64, &arg(0))?),
            ("time", "Until") => Value::Int(-since(self.go.now().as_nanos() as i64, &arg(0))?),
            ("rand", "Seed") => Value::Nil,
            ("rand", "NewSource" | "New") => Value::Rand,
            ("time", "After") => {
                let name = self.name_for("time.After", p);
                Value::Chan(Arc::new(KChan {
                    c: ChanImpl::Time(self.go.after(&name, nanos(&arg(0))?)),
                    elem: Type::Name("int".into()),
                }))
            }
            ("time", "NewTimer") => {
                let name = self.name_for("timer", p);
                Value::Timer(Arc::new(Clock::Timer(
                    self.go.timer(&name, nanos(&arg(0))?),
                )))
            }
            ("time", "NewTicker") => {
                let name = self.name_for("ticker", p);
                Value::Timer(Arc::new(Clock::Ticker(self.go.ticker(
                    &name,
                    nanos(&arg(0))?,
                    TICKS,
                ))))
            }
            ("time", "Duration") => arg(0),
            ("sync", "NewCond") => {
                let (locker, l) = locker_of(&arg(0))?;
                let name = self.name_for("cond", p);
                let c = self.go.cond(&name, locker);
                Value::Sync(Arc::new(SyncObj::Cond(Mutex::new(Some((c, l))), name)))
            }
            ("errors", "New") => Value::Error(Arc::from(arg(0).show().as_str())),
            ("errors", "Is") => Value::Bool(arg(0).equals(&arg(1)).unwrap_or(false)),
            ("fmt", "Sprintf") => Value::str(&format_go(&args)),
            ("fmt", "Sprint") | ("fmt", "Sprintln") => Value::str(&join_go(&args)),
            ("fmt", "Errorf") => Value::Error(Arc::from(format_go(&args).as_str())),
            ("fmt", "Printf") | ("log", "Printf") => {
                self.go.note(format_go(&args).trim_end().to_string());
                Value::Nil
            }
            ("fmt", "Println") | ("fmt", "Print") | ("log", "Println") | ("log", "Print") => {
                self.go.note(join_go(&args));
                Value::Nil
            }
            ("context", "Background") | ("context", "TODO") => Value::Ctx(Arc::new(Ctx {
                done: None,
                err: Mutex::new(None),
                children: Mutex::new(Vec::new()),
            })),
            ("context", "WithCancel") => {
                let ctx = self.child_ctx(&arg(0), p)?;
                Value::Tuple(vec![
                    Value::Ctx(ctx.clone()),
                    Value::Func(Arc::new(Callable::Cancel(ctx))),
                ])
            }
            ("context", "WithTimeout") => {
                let ctx = self.child_ctx(&arg(0), p)?;
                let d = nanos(&arg(1))?;
                // Go's runtime cancels it from a timer; here a goroutine waits for the
                // deadline or the cancel, whichever comes first.
                let rt = self.rt.clone();
                let c2 = ctx.clone();
                self.go.go("context.WithTimeout timer", move |g| {
                    let i = I::new(&rt, &g);
                    let after = g.after("context deadline", d);
                    let done = match &c2.done {
                        Some(k) => match &k.c {
                            ChanImpl::Val(c) => c.clone(),
                            _ => unreachable!("a context's done channel carries values"),
                        },
                        None => unreachable!("a child context has a done channel"),
                    };
                    let fired = g.select().recv(&after).recv(&done).wait();
                    if fired.index == Some(0) {
                        i.cancel(&c2, rt.deadline.clone());
                    }
                });
                Value::Tuple(vec![
                    Value::Ctx(ctx.clone()),
                    Value::Func(Arc::new(Callable::Cancel(ctx))),
                ])
            }
            _ => {
                return Err(unsupported(format!(
                    "{pkg}.{name} is outside the subset stalemate interprets"
                )));
            }
        })
    }

    fn child_ctx(&self, parent: &Value, p: Pos) -> R<Arc<Ctx>> {
        let Value::Ctx(parent) = parent else {
            return Err(Panic("cannot create context from nil parent".into()));
        };
        let name = self.name_for("ctx.Done", p);
        let ctx = Arc::new(Ctx {
            done: Some(Arc::new(KChan {
                c: ChanImpl::Val(self.go.chan(&name, 0)),
                elem: Type::Struct(Vec::new()),
            })),
            err: Mutex::new(None),
            children: Mutex::new(Vec::new()),
        });
        let gone = lock(&parent.err).clone();
        match gone {
            Some(e) => self.cancel(&ctx, e),
            None => lock(&parent.children).push(ctx.clone()),
        }
        Ok(ctx)
    }

    fn cancel(&self, ctx: &Arc<Ctx>, err: Value) {
        {
            let mut e = lock(&ctx.err);
            if e.is_some() {
                return;
            }
            *e = Some(err.clone());
        }
        if let Some(k) = &ctx.done
            && let ChanImpl::Val(c) = &k.c
        {
            c.close();
        }
        let children = std::mem::take(&mut *lock(&ctx.children));
        for c in children {
            self.cancel(&c, err.clone());
        }
    }
}

/// A ticker's ticks: every exploration is bounded, so a ticker stops after this many.
pub const TICKS: usize = 3;

pub enum Place {
    Blank,
    /// `c.L` of a `sync.Cond`.
    CondL(Arc<SyncObj>),
    Cell(Cell),
    Map(Arc<Mutex<BTreeMap<Key, Value>>>, Key),
    Elem(Arc<Mutex<Vec<Value>>>, usize),
}

fn describe(e: &Expr) -> String {
    match &e.kind {
        E::Ident(n) => n.clone(),
        E::Sel(x, f) => format!("{}.{f}", describe(x)),
        _ => String::new(),
    }
}

fn is_basic(n: &str) -> bool {
    matches!(
        n,
        "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "byte"
            | "rune"
            | "string"
            | "bool"
            | "uintptr"
    )
}

pub fn intern(s: &str) -> &'static str {
    static TABLE: OnceLock<Mutex<std::collections::BTreeSet<&'static str>>> = OnceLock::new();
    let mut t = lock(TABLE.get_or_init(Default::default));
    if let Some(x) = t.get(s) {
        return x;
    }
    let x: &'static str = Box::leak(s.to_string().into_boxed_str());
    t.insert(x);
    x
}

pub fn slice_of(vs: Vec<Value>) -> Value {
    let n = vs.len();
    Value::Slice(Slice {
        arr: Arc::new(Mutex::new(vs)),
        off: 0,
        len: n,
        cap: n,
    })
}

fn append(base: Value, more: Vec<Value>) -> Value {
    let s = match base {
        Value::Slice(s) => s,
        _ => return slice_of(more),
    };
    if s.len + more.len() <= s.cap {
        let mut a = lock(&s.arr);
        for (i, v) in more.iter().enumerate() {
            a[s.off + s.len + i] = v.clone();
        }
        drop(a);
        return Value::Slice(Slice {
            len: s.len + more.len(),
            ..s
        });
    }
    let mut vs = lock(&s.arr)[s.off..s.off + s.len].to_vec();
    vs.extend(more);
    let n = vs.len();
    let cap = (s.cap * 2).max(n);
    vs.resize(cap, Value::Nil);
    Value::Slice(Slice {
        arr: Arc::new(Mutex::new(vs)),
        off: 0,
        len: n,
        cap,
    })
}

pub fn binary(op: &str, a: Value, b: Value) -> R<Value> {
    use Value::*;
    Ok(match (op, &a, &b) {
        ("==", _, _) => Bool(
            a.equals(&b)
                .ok_or_else(|| Panic("comparing uncomparable values".into()))?,
        ),
        ("!=", _, _) => Bool(
            !a.equals(&b)
                .ok_or_else(|| Panic("comparing uncomparable values".into()))?,
        ),
        ("&&", Bool(x), Bool(y)) => Bool(*x && *y),
        ("||", Bool(x), Bool(y)) => Bool(*x || *y),
        ("+", Str(x), Str(y)) => Value::str(&format!("{x}{y}")),
        ("<", Str(x), Str(y)) => Bool(x < y),
        (">", Str(x), Str(y)) => Bool(x > y),
        (_, Int(x), Int(y)) => {
            let (x, y) = (*x, *y);
            match op {
                "+" => Int(x.wrapping_add(y)),
                "-" => Int(x.wrapping_sub(y)),
                "*" => Int(x.wrapping_mul(y)),
                "/" | "%" if y == 0 => return Err(rt_err("integer divide by zero")),
                "/" => Int(x.wrapping_div(y)),
                "%" => Int(x.wrapping_rem(y)),
                "<" => Bool(x < y),
                "<=" => Bool(x <= y),
                ">" => Bool(x > y),
                ">=" => Bool(x >= y),
                "&" => Int(x & y),
                "|" => Int(x | y),
                "^" => Int(x ^ y),
                "&^" => Int(x & !y),
                "<<" => Int(x.wrapping_shl(y as u32)),
                ">>" => Int(x.wrapping_shr(y as u32)),
                _ => return Err(unsupported(format!("operator {op} on integers"))),
            }
        }
        _ => {
            return Err(unsupported(format!(
                "operator {op} on {} and {}",
                a.show(),
                b.show()
            )));
        }
    })
}

/// `fmt.Sprintf`: %v %d %s %q %t %x and %%.
pub fn format_go(args: &[Value]) -> String {
    let Some(Value::Str(f)) = args.first() else {
        return join_go(args);
    };
    let mut out = String::new();
    let mut rest = args[1..].iter();
    let mut it = f.chars().peekable();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // Flags and widths are read and ignored.
        while let Some(&d) = it.peek() {
            if d.is_ascii_digit() || d == '+' || d == '-' || d == '#' || d == '.' {
                it.next();
            } else {
                break;
            }
        }
        match it.next() {
            Some('%') => out.push('%'),
            Some('q') => out.push_str(&format!(
                "{:?}",
                rest.next().map(Value::show).unwrap_or_default()
            )),
            Some('x') => match rest.next() {
                Some(Value::Int(i)) => out.push_str(&format!("{i:x}")),
                Some(v) => out.push_str(&v.show()),
                None => out.push_str("%!x(MISSING)"),
            },
            Some(_) => match rest.next() {
                Some(v) => out.push_str(&v.show()),
                None => out.push_str("%!v(MISSING)"),
            },
            None => out.push('%'),
        }
    }
    out
}

pub fn join_go(args: &[Value]) -> String {
    args.iter().map(Value::show).collect::<Vec<_>>().join(" ")
}
