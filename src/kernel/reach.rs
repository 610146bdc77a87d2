//! What a kernel's goroutines reach: Go's garbage collector's view, for its goroutine
//! leak rule (`world::detect`). Each goroutine's roots are every scope it made that is
//! still alive (its frames, and the scopes its closures captured: more than its stack,
//! so more is reached and no leak is made up) and the function and arguments it was
//! started with. Globals and values in channels' buffers are roots too.

use super::value::{Callable, ChanImpl, Clock, Env, Key, SyncObj, Value, WeakEnv};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

/// One goroutine's roots.
#[derive(Default)]
pub struct Roots {
    envs: Vec<WeakEnv>,
    /// What it was started with (a `go` statement's function and arguments).
    boot: Vec<Value>,
    /// Scopes alive after the last sweep of `envs`.
    kept: usize,
}

/// Every goroutine's roots, by goroutine number.
#[derive(Default)]
pub struct Registry(Mutex<BTreeMap<usize, Roots>>);

impl Registry {
    fn with(&self, g: usize, f: impl FnOnce(&mut Roots)) {
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f(m.entry(g).or_default());
    }

    /// Goroutine `g` made scope `e`.
    pub fn scope(&self, g: usize, e: &Env) {
        self.with(g, |r| {
            r.envs.push(e.weak());
            // Loops make a scope per iteration: forget the dead now and then.
            if r.envs.len() >= 2 * r.kept.max(64) {
                r.envs.retain(|w| w.upgrade().is_some());
                r.kept = r.envs.len();
            }
        });
    }

    /// Goroutine `g` starts with these values.
    pub fn boot(&self, g: usize, vs: Vec<Value>) {
        self.with(g, |r| r.boot.extend(vs));
    }

    /// The objects reachable from `globals`, the values `extra` and the roots of the
    /// goroutines `gs`, with the goroutines of `gs` it knows; `None` if a value is
    /// being changed now (a cell held), which leaves nothing certain.
    pub fn reach(
        &self,
        globals: &Env,
        gs: &[usize],
        extra: &[&(dyn std::any::Any + Send)],
    ) -> Option<(Vec<usize>, Vec<usize>)> {
        let m = self.0.try_lock().ok()?;
        let mut w = Walk::default();
        w.envs.push(globals.clone());
        w.values.extend(
            extra
                .iter()
                .filter_map(|v| v.downcast_ref::<Value>())
                .cloned(),
        );
        let mut known = Vec::new();
        for g in gs {
            let Some(r) = m.get(g) else { continue };
            known.push(*g);
            w.envs.extend(r.envs.iter().filter_map(WeakEnv::upgrade));
            w.values.extend(r.boot.iter().cloned());
        }
        drop(m);
        w.run()?;
        Some((w.objects, known))
    }
}

/// A walk over values, iterative (values nest deeply and point back at themselves).
#[derive(Default)]
struct Walk {
    envs: Vec<Env>,
    values: Vec<Value>,
    seen: HashSet<usize>,
    objects: Vec<usize>,
}

impl Walk {
    /// First time at `addr`?
    fn first(&mut self, addr: usize) -> bool {
        self.seen.insert(addr)
    }

    fn run(&mut self) -> Option<()> {
        loop {
            if let Some(e) = self.envs.pop() {
                if !self.first(e.addr()) {
                    continue;
                }
                let vars = e.0.vars.try_lock().ok()?;
                for (_, c) in vars.iter() {
                    if self.first(Arc::as_ptr(c) as usize) {
                        self.values.push(c.try_lock().ok()?.clone());
                    }
                }
                drop(vars);
                self.envs.extend(e.0.parent.clone());
            } else if let Some(v) = self.values.pop() {
                self.value(&v)?;
            } else {
                return Some(());
            }
        }
    }

    fn cells(&mut self, cells: &[super::value::Cell]) -> Option<()> {
        for c in cells {
            if self.first(Arc::as_ptr(c) as usize) {
                self.values.push(c.try_lock().ok()?.clone());
            }
        }
        Some(())
    }

    fn key(&mut self, k: &Key) {
        match k {
            Key::Ref(r) => self.values.push(r.v.clone()),
            Key::Struct(_, _, ks) => ks.iter().for_each(|k| self.key(k)),
            Key::Int(_) | Key::Bool(_) | Key::Str(_) => {}
        }
    }

    fn value(&mut self, v: &Value) -> Option<()> {
        match v {
            Value::Nil
            | Value::Int(_)
            | Value::Bool(_)
            | Value::Str(_)
            | Value::Error(_)
            | Value::Rand
            | Value::Time(_) => {}
            Value::Struct(s) => {
                if self.first(Arc::as_ptr(s) as *const u8 as usize) {
                    self.cells(&s.fields)?;
                }
            }
            Value::Ptr(c) => self.cells(std::slice::from_ref(c))?,
            Value::ElemPtr(arr, _) => {
                if self.first(Arc::as_ptr(arr) as *const u8 as usize) {
                    self.values.extend(arr.try_lock().ok()?.iter().cloned());
                }
            }
            Value::Slice(s) => {
                if self.first(Arc::as_ptr(&s.arr) as *const u8 as usize) {
                    self.values.extend(s.arr.try_lock().ok()?.iter().cloned());
                }
            }
            Value::Map(m, _) => {
                if self.first(Arc::as_ptr(m) as *const u8 as usize) {
                    let m = m.try_lock().ok()?;
                    for (k, v) in m.iter() {
                        self.key(k);
                        self.values.push(v.clone());
                    }
                }
            }
            Value::Chan(k) => match &k.c {
                ChanImpl::Val(c) | ChanImpl::Nil(c) => self.objects.push(c.oid()),
                ChanImpl::Time(c) => self.objects.push(c.oid()),
            },
            Value::Func(f) => {
                if self.first(Arc::as_ptr(f) as *const u8 as usize) {
                    match &**f {
                        Callable::Go(_, env) => self.envs.extend(env.clone()),
                        Callable::Method(_, recv) => self.values.push(recv.clone()),
                        Callable::Lib(v, _) => self.values.push(v.clone()),
                        Callable::Cancel(ctx) => self.values.push(Value::Ctx(ctx.clone())),
                        Callable::Builtin(_) => {}
                    }
                }
            }
            Value::Sync(s) => {
                if self.first(Arc::as_ptr(s) as *const u8 as usize) {
                    self.sync(s)?;
                }
            }
            Value::Timer(t) => match &**t {
                Clock::Timer(t) => self.objects.push(t.c.oid()),
                Clock::Ticker(t) => self.objects.push(t.c.oid()),
            },
            Value::Ctx(ctx) => {
                if self.first(Arc::as_ptr(ctx) as *const u8 as usize) {
                    if let Some(d) = &ctx.done {
                        self.values.push(Value::Chan(d.clone()));
                    }
                    self.values.extend(ctx.err.try_lock().ok()?.clone());
                    let kids = ctx.children.try_lock().ok()?;
                    self.values
                        .extend(kids.iter().map(|c| Value::Ctx(c.clone())));
                }
            }
            Value::T(t) => {
                let cleanups = t.cleanups.try_lock().ok()?;
                self.values.extend(cleanups.iter().cloned());
            }
            Value::Tuple(vs) => self.values.extend(vs.iter().cloned()),
        }
        Some(())
    }

    fn sync(&mut self, s: &SyncObj) -> Option<()> {
        match s {
            SyncObj::Mutex(m) => self.objects.push(m.oid()),
            SyncObj::RwMutex(m) | SyncObj::RLocker(m) => self.objects.push(m.oid()),
            SyncObj::WaitGroup(w) => self.objects.push(w.oid()),
            SyncObj::Once(o) => self.objects.push(o.oid()),
            SyncObj::Cond(c, _) => {
                if let Some((cond, l)) = &*c.try_lock().ok()? {
                    self.objects.push(cond.oid());
                    self.values.push(l.clone());
                }
            }
            SyncObj::Atomic(a, _) => self.objects.push(a.oid()),
            SyncObj::Map(a, e) => {
                self.objects.push(a.oid());
                for (k, v) in e.try_lock().ok()?.values() {
                    self.values.push(k.clone());
                    self.values.push(v.clone());
                }
            }
            SyncObj::AtomicValue(a, v, _) => {
                self.objects.push(a.oid());
                self.values.push(v.try_lock().ok()?.clone());
            }
        }
        Some(())
    }
}
