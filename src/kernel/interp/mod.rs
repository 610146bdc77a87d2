//! The tree-walking interpreter: one `I` per goroutine, every Go operation done by
//! stalemate's own primitives (`crate::go`), so the engines see a kernel exactly as
//! they see a Rust model.

mod expr;
mod helpers;
mod lib;
mod stmt;
mod text;

use super::Kernel;
use super::ast::*;
use super::value::*;
use lib::{DISCARD, STATEMENT_BUILTINS, cond_of, locker_of, ms_empty};

use crate::go::{AtomicOp, Go, Locker};
use std::collections::{BTreeMap, HashMap};
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
    /// `return`'s values; `None`: a bare `return`.
    Return(Option<Value>),
}

/// One execution's shared state: globals and the goroutine counter.
pub struct Rt {
    pub k: &'static Kernel,
    pub params: BTreeMap<String, i64>,
    pub globals: Env,
    pub next_g: AtomicUsize,
    /// `STATEMENTS_PER_STEP` times the step bound: each goroutine's.
    pub statement_bound: usize,
    pub canceled: Value,
    pub deadline: Value,
    /// `io.EOF`, `io.ErrClosedPipe` and `io.ErrUnexpectedEOF`: one value each,
    /// compared by identity as Go's.
    pub eof: Value,
    pub closed_pipe: Value,
    pub unexpected_eof: Value,
    /// The object every `sync/atomic` function on a plain variable goes through.
    pub atomics: Option<crate::go::Atomic>,
    /// The race detector's location of each variable, field, slice element and map
    /// accessed so far (`I::mem`), by address; `None` when races are not checked.
    pub mem: Option<Mutex<HashMap<Loc, (crate::go::Plain, Keep)>>>,
    /// The values compared by identity met as map keys (pointers, channels, ...).
    pub ids: Ids,
    /// What each goroutine reaches, for Go's goroutine leak rule.
    pub roots: crate::kernel::reach::Registry,
}

impl Value {
    /// The value a store puts in a new place (`Value::copy`), read whole by `i`'s
    /// goroutine as Go's copy reads it (`I::read_whole`). A `sync` value in memory
    /// other code can reach is copied as Go copies it, state and all (`I::sync_copy`):
    /// a value receiver's mutex is its own. A value no other shares (a literal, a copy
    /// just made) is moved as it is.
    pub(super) fn copy_by(&self, i: &I) -> Value {
        i.read_whole(self);
        let shared = match self {
            Value::Struct(s) => Arc::strong_count(s) > 1,
            Value::Slice(a) if a.array => Arc::strong_count(&a.arr) > 1,
            Value::Sync(s) => Arc::strong_count(s) > 1,
            _ => false,
        };
        if shared {
            self.copy_with(&|v| i.sync_copy(v))
        } else {
            self.copy()
        }
    }
}

/// A memory location by address: a cell (a variable or a field), an element of a
/// backing array, or a map (one location, as Go's race detector sees a map).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loc {
    Cell(usize),
    Elem(usize, usize),
    Map(usize),
}

/// What keeps a location's address from being reused while the table names it.
pub type Keep = Box<dyn std::any::Any + Send>;

pub struct I<'a> {
    pub rt: &'a Arc<Rt>,
    pub go: &'a Go,
    /// The goroutine's number in the world.
    gid: usize,
    /// The name a primitive made now takes (`ch := make(chan int)` names it `ch`).
    hint: std::cell::RefCell<Option<String>>,
    /// Nested calls now running in this goroutine.
    depth: std::cell::Cell<usize>,
    /// Statements it has run, against `Rt::statement_bound`.
    statements: std::cell::Cell<usize>,
}

/// Nested calls a goroutine may make: the engines' stacks are 1 MiB, and an
/// interpreted call takes a few KiB of it. Go's own bound is 1 GB of stack.
pub const MAX_DEPTH: usize = 200;

/// Statements an execution may run per step of its step bound: a loop with no Go
/// operation in it never reaches the step bound, and must not run forever.
pub const STATEMENTS_PER_STEP: usize = 100;

/// The largest slice `make` may build: kernels are skeletons, not workloads.
const MAX_MAKE: i64 = 1 << 16;

/// How deep members promoted through embedded fields are looked for (an embedded
/// pointer may point back at its struct).
const EMBED_DEPTH: usize = 32;

/// The longest string (in bytes) or slice (in elements) a kernel may grow: `s += s`
/// in a loop doubles past any machine's memory long before a bound on statements
/// stops it. Go would run out of memory, a fatal error; here it is a panic saying so.
pub(super) const MAX_LEN: usize = 1 << 20;

/// Go's fatal error where a value outgrows `MAX_LEN`.
pub(super) fn too_long(what: &str, n: usize) -> Panic {
    let unit = if what == "string" {
        "bytes"
    } else {
        "elements"
    };
    Panic(format!(
        "runtime: out of memory: a {what} of {n} {unit} is beyond stalemate's bound of {MAX_LEN}"
    ))
}

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
        Value::ElemPtr(a, i) => match lock(a).get(*i) {
            Some(Value::Struct(s)) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

impl I<'_> {
    /// The map key `v` is; Go refuses the others at compile time.
    pub(super) fn key_of(&self, v: &Value) -> R<Key> {
        v.key(&self.rt.ids)
            .ok_or_else(|| unsupported(format!("{} as a map key (not comparable)", v.show())))
    }
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
    /// A read or write of plain memory at `loc`, checked by the race detector as Go's
    /// `-race` checks it; `name` names the location the first time it is met.
    pub(super) fn mem(
        &self,
        loc: Loc,
        keep: impl FnOnce() -> Keep,
        name: impl FnOnce() -> String,
        writes: bool,
    ) {
        if let Some(plain) = self.location(loc, keep, name) {
            plain.access(writes);
        }
    }

    /// The race detector's location at `loc`, made the first time it is met; `None`
    /// when races are not checked.
    fn location(
        &self,
        loc: Loc,
        keep: impl FnOnce() -> Keep,
        name: impl FnOnce() -> String,
    ) -> Option<crate::go::Plain> {
        let mem = self.rt.mem.as_ref()?;
        let mut m = lock(mem);
        let entry = m.entry(loc);
        Some(
            entry
                .or_insert_with(|| (self.go.plain(&name()), keep()))
                .0
                .clone(),
        )
    }

    /// A variable's or a field's location (`location`), for an atomic access of it.
    pub(super) fn cell_location(
        &self,
        c: &Cell,
        name: impl FnOnce() -> String,
    ) -> Option<crate::go::Plain> {
        let keep = || -> Keep { Box::new(c.clone()) };
        self.location(Loc::Cell(Arc::as_ptr(c) as usize), keep, name)
    }

    /// A copy of a `sync` or `sync/atomic` value, as Go copies one: a new object in
    /// the original's state. A Cond stays shared (Go panics at the use of a copied
    /// Cond), and so does a Locker made by `RLocker` (it holds a pointer).
    pub(super) fn sync_copy(&self, v: &Value) -> Value {
        let Value::Sync(s) = v else {
            return v.clone();
        };
        let go = self.go;
        let copied = match &**s {
            SyncObj::Mutex(m) => SyncObj::Mutex(m.copied(go)),
            SyncObj::RwMutex(m) => SyncObj::RwMutex(m.copied(go)),
            SyncObj::WaitGroup(w) => SyncObj::WaitGroup(w.copied(go)),
            SyncObj::Once(o) => SyncObj::Once(o.copied(go)),
            SyncObj::Atomic(a, b) => SyncObj::Atomic(a.copied(go), *b),
            SyncObj::Map(a, e) => SyncObj::Map(a.copied(go), Mutex::new(lock(e).clone())),
            SyncObj::AtomicValue(a, stored, p) => {
                SyncObj::AtomicValue(a.copied(go), Mutex::new(lock(stored).clone()), *p)
            }
            SyncObj::Cond(..) | SyncObj::RLocker(_) => return v.clone(),
        };
        Value::Sync(Arc::new(copied))
    }

    /// A whole value read (a copy, a comparison): as Go's race detector sees it, a
    /// read of every field and element it holds. A struct or array no other value
    /// shares (a literal, a copy just made) is no memory another goroutine can reach.
    pub(super) fn read_whole(&self, v: &Value) {
        if self.rt.mem.is_some() {
            self.read_parts(v, None);
        }
    }

    /// `read_whole`; `shared`: the value is reachable from elsewhere (known from its
    /// container), `None` to judge by its own count.
    fn read_parts(&self, v: &Value, shared: Option<bool>) {
        match v {
            Value::Struct(s) => {
                let shared = shared.unwrap_or(Arc::strong_count(s) > 1);
                for (f, c) in s.layout.names.iter().zip(&s.fields) {
                    let here = shared || Arc::strong_count(c) > 1;
                    if here {
                        self.cell_access(c, || format!("{}.{f}", s.ty), false);
                    }
                    let inner = lock(c).clone();
                    self.read_parts(&inner, Some(here));
                }
            }
            Value::Slice(a) if a.array => {
                let shared = shared.unwrap_or(Arc::strong_count(&a.arr) > 1);
                for i in a.off..a.off + a.len {
                    if shared {
                        self.elem_access(&a.arr, i, || format!("[{i}]"), false);
                    }
                    let inner = lock(&a.arr)[i].clone();
                    self.read_parts(&inner, Some(shared));
                }
            }
            // A typed atomic copied with its struct: a plain read of its memory.
            Value::Sync(s) if shared == Some(true) => {
                if let SyncObj::Atomic(a, _) | SyncObj::AtomicValue(a, _, _) = &**s {
                    a.plain_access(false);
                }
            }
            _ => {}
        }
    }

    /// Stores `new` over `old` in the memory `old` is, where Go's memory stays the same
    /// (a struct over one of its type, an array over one of its length): every field
    /// and element written, each a write for the race detector, and pointers into it
    /// see the new value. Otherwise gives `new` back, for the caller to store whole.
    pub(super) fn assign_in_place(
        &self,
        old: &Value,
        new: Value,
        name: &dyn Fn() -> String,
    ) -> Option<Value> {
        match (old, &new) {
            (Value::Struct(o), Value::Struct(n))
                if o.ty == n.ty && o.fields.len() == n.fields.len() && !Arc::ptr_eq(o, n) =>
            {
                for ((f, oc), nc) in o.layout.names.iter().zip(&o.fields).zip(&n.fields) {
                    let (cur, nv) = (lock(oc).clone(), lock(nc).clone());
                    let field = || format!("{}.{f}", name());
                    // A typed atomic assigned over with its struct: a plain write.
                    if let Value::Sync(s) = &cur
                        && let SyncObj::Atomic(a, _) | SyncObj::AtomicValue(a, _, _) = &**s
                    {
                        a.plain_access(true);
                    }
                    if let Some(nv) = self.assign_in_place(&cur, nv, &field) {
                        self.cell_access(oc, field, true);
                        *lock(oc) = nv;
                    }
                }
                None
            }
            (Value::Slice(o), Value::Slice(n))
                if o.array && n.array && o.len == n.len && !Arc::ptr_eq(&o.arr, &n.arr) =>
            {
                for i in 0..o.len {
                    let cur = lock(&o.arr)[o.off + i].clone();
                    let nv = lock(&n.arr)[n.off + i].clone();
                    let elem = || format!("{}[{i}]", name());
                    if let Some(nv) = self.assign_in_place(&cur, nv, &elem) {
                        self.elem_access(&o.arr, o.off + i, elem, true);
                        lock(&o.arr)[o.off + i] = nv;
                    }
                }
                None
            }
            _ => Some(new),
        }
    }

    /// A variable's or a field's cell, read or written.
    pub(super) fn cell_access(&self, c: &Cell, name: impl FnOnce() -> String, writes: bool) {
        let keep = || -> Keep { Box::new(c.clone()) };
        self.mem(Loc::Cell(Arc::as_ptr(c) as usize), keep, name, writes);
    }

    /// An element of a backing array, read or written.
    pub(super) fn elem_access(
        &self,
        arr: &Arc<Mutex<Vec<Value>>>,
        i: usize,
        name: impl FnOnce() -> String,
        writes: bool,
    ) {
        let keep = || -> Keep { Box::new(arr.clone()) };
        self.mem(Loc::Elem(Arc::as_ptr(arr) as usize, i), keep, name, writes);
    }

    /// A map, read or written as a whole.
    pub(super) fn map_access(
        &self,
        m: &Arc<Mutex<BTreeMap<Key, Value>>>,
        name: impl FnOnce() -> String,
        writes: bool,
    ) {
        let keep = || -> Keep { Box::new(m.clone()) };
        self.mem(Loc::Map(Arc::as_ptr(m) as usize), keep, name, writes);
    }

    pub fn new(rt: &'a Arc<Rt>, go: &'a Go) -> I<'a> {
        let gid = go.w.me();
        rt.roots.boot(gid, Vec::new());
        I {
            rt,
            go,
            gid,
            hint: Default::default(),
            depth: Default::default(),
            statements: Default::default(),
        }
    }

    /// A new scope inside `parent`, known as this goroutine's (`kernel::reach`).
    pub(super) fn scope(&self, parent: &Env) -> Env {
        let e = Env::new(Some(parent));
        self.rt.roots.scope(self.gid, &e);
        e
    }

    /// Values this goroutine holds outside any scope (`kernel::reach`).
    pub(super) fn holds(&self, vs: Vec<Value>) {
        self.rt.roots.boot(self.gid, vs);
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
    /// Runs the functions `t.Cleanup` registered for test `t`, last first, as Go does
    /// when the test returns.
    pub fn cleanups(&self, t: &TestState) {
        let fs = std::mem::take(&mut *lock(&t.cleanups));
        for f in fs.into_iter().rev() {
            self.run(f, Vec::new());
        }
    }

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
                let env = self.scope(env.as_ref().unwrap_or(&self.rt.globals));
                self.invoke(func, env, args)
            }
            Callable::Method(func, recv) => {
                let env = self.scope(&self.rt.globals);
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

    /// The builtins Go allows as statements, and so as the call of `go` and `defer`, on
    /// their evaluated arguments.
    fn builtin_statement(&self, n: &str, args: &[Value]) -> R<Value> {
        match (n, args) {
            ("close", [c]) => self.close(c)?,
            ("delete", [m, k]) => {
                if let (Value::Map(m, _), Some(k)) = (m, k.key(&self.rt.ids)) {
                    self.map_access(m, || "map".into(), true);
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
            && !self.k().funcs.contains_key(n)
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

    /// A generic function given its type arguments: `NewPool[int]`.
    pub(super) fn generic_value(&self, f: Value, ts: &[Type]) -> R<Value> {
        match &f {
            Value::Func(c) => match &**c {
                Callable::Go(func, env) if func.tparams.len() >= ts.len() => {
                    let g = self.k().instantiate(func, ts, &func.name);
                    Ok(Value::Func(Arc::new(Callable::Go(g, env.clone()))))
                }
                _ => Err(unsupported(
                    "type arguments to a function that is not generic",
                )),
            },
            _ => Err(unsupported(
                "type arguments to a value that is not a function",
            )),
        }
    }

    fn invoke(&self, func: &Arc<Func>, env: Env, args: Vec<Value>) -> R<Value> {
        if !func.tparams.is_empty() {
            let g = self.k().infer(func, &args);
            return self.invoke(&g, env, args);
        }
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
            env.define(name, v.copy_by(self));
        }
        // A blank result has no variable (`define` skips `_`): its value is kept here.
        let mut blanks = Vec::new();
        for (name, ty) in &func.named_results {
            let z = self.zero(ty, Some(name.clone()), func.pos)?;
            blanks.push((name == "_").then(|| z.clone()));
            env.define(name, z);
        }
        let _guard = self.go.func(intern(&func.name));
        let mut fr = Frame { defers: Vec::new() };
        let mut result = self
            .block(&func.body, &env, &mut fr)
            .map(|flow| match flow {
                Flow::Return(v) => v,
                _ => None,
            });
        let named = !func.named_results.is_empty();
        // With named results, `return v` assigns them before the deferred calls run,
        // which may read and change them; the function returns them as they end.
        if named && let Ok(Some(v)) = &result {
            let vs = match v {
                Value::Tuple(vs) if func.named_results.len() > 1 => vs.clone(),
                v => vec![v.clone()],
            };
            result = Ok(None);
            for (i, ((n, _), v)) in func.named_results.iter().zip(vs).enumerate() {
                if blanks[i].is_some() {
                    blanks[i] = Some(v);
                } else if let Some(c) = env.lookup(n) {
                    let target = Expr {
                        kind: E::Ident(n.clone()),
                        pos: func.pos,
                    };
                    if let Err(p) = self.store(Place::Cell(c), v, &target) {
                        result = Err(p);
                    }
                }
            }
        }
        while let Some((f, args)) = fr.defers.pop() {
            if let Err(p) = self.call(&f, args) {
                result = Err(p);
            }
        }
        result.map(|v| match v {
            Some(v) => v,
            None if named => self.named(func, &env, &blanks),
            None => Value::Nil,
        })
    }

    /// The named results' values; a blank one's from `blanks`.
    fn named(&self, func: &Func, env: &Env, blanks: &[Option<Value>]) -> Value {
        let vs: Vec<Value> = func
            .named_results
            .iter()
            .zip(blanks)
            .map(|((n, _), b)| match b {
                Some(v) => v.clone(),
                None => env.lookup(n).map_or(Value::Nil, |c| lock(&c).clone()),
            })
            .collect();
        if vs.len() == 1 {
            vs.into_iter().next().unwrap_or(Value::Nil)
        } else {
            Value::Tuple(vs)
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
        E::Index(x, _) => format!("{}[...]", describe(x)),
        E::Unary("*", x) => format!("*{}", describe(x)),
        _ => String::new(),
    }
}

/// Element `i` of what `x` names: `buf[2]`.
fn elem_name(x: &Expr, i: usize) -> String {
    format!("{}[{i}]", describe(x))
}

/// The map an index expression assigns into: `m` of `m[k] = v`.
fn index_base(e: &Expr) -> String {
    match &e.kind {
        E::Index(x, _) => describe(x),
        _ => describe(e),
    }
}

pub(crate) fn is_basic(n: &str) -> bool {
    is_integer(n) || matches!(n, "string" | "bool")
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
        array: false,
    })
}

/// An array of `vs`: a value of its own.
pub fn array_of(vs: Vec<Value>) -> Value {
    match slice_of(vs) {
        Value::Slice(s) => Value::Slice(Slice { array: true, ..s }),
        _ => unreachable!("slice_of makes a slice"),
    }
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
            array: false,
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
        array: false,
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
        ("+", Str(x), Str(y)) if x.len() + y.len() > MAX_LEN => {
            return Err(too_long("string", x.len() + y.len()));
        }
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

/// An object's address (`uintptr(unsafe.Pointer(p))`, `%p`): numbered by the order
/// the execution first takes an object's address or uses it as a map key (the order
/// `Ids` numbers), 16 bytes apart from Go's heap's 0xc000010000: the same in every
/// execution that takes them in the same order, and in its replay. `None` for a value
/// that has none.
pub fn address(v: &Value, ids: &crate::kernel::value::Ids) -> Option<i64> {
    match v.key(ids) {
        Some(crate::kernel::value::Key::Ref(r)) => Some(0x00c0_0001_0000 + 16 * r.seq as i64),
        _ => None,
    }
}

/// `fmt.Sprintf`: %v %d %s %q %t %x %p %T and %%.
pub fn format_go(args: &[Value], ids: &crate::kernel::value::Ids) -> String {
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
            Some('p') => match rest.next() {
                Some(v) => match address(v, ids) {
                    Some(a) => out.push_str(&format!("0x{a:x}")),
                    None => out.push_str(&format!("%!p({})", v.show())),
                },
                None => out.push_str("%!p(MISSING)"),
            },
            Some('T') => match rest.next() {
                Some(v) => out.push_str(&type_name(v)),
                None => out.push_str("%!T(MISSING)"),
            },
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

/// `%T`: the type a value carries. Slices, maps, functions and values of named
/// non-struct types do not carry theirs here: those print that they are untracked.
fn type_name(v: &Value) -> String {
    match v {
        Value::Nil => "<nil>".into(),
        Value::Int(_) => "int".into(),
        Value::Str(_) => "string".into(),
        Value::Bool(_) => "bool".into(),
        Value::Error(_) => "*errors.errorString".into(),
        Value::Time(_) => "time.Time".into(),
        Value::Struct(s) => format!("main.{}", s.ty),
        Value::Ptr(c) => match &*lock(c) {
            Value::Struct(s) => format!("*main.{}", s.ty),
            v => format!("*{}", type_name(v)),
        },
        Value::Chan(c) => format!("chan {}", crate::kernel::generic::type_str(&c.elem)),
        _ => "%!T(a type stalemate does not track)".into(),
    }
}

/// `fmt.Sprint`: a space between operands when neither is a string.
pub fn sprint_go(args: &[Value]) -> String {
    let mut out = String::new();
    for (i, v) in args.iter().enumerate() {
        if i > 0 && !matches!(v, Value::Str(_)) && !matches!(args[i - 1], Value::Str(_)) {
            out.push(' ');
        }
        out.push_str(&v.show());
    }
    out
}

/// `fmt.Sprintln` (less its newline): a space between every two operands.
pub fn join_go(args: &[Value]) -> String {
    args.iter().map(Value::show).collect::<Vec<_>>().join(" ")
}
