//! The kernel's runtime values. Every variable is a cell; a struct is a row of cells,
//! so reading a struct aliases it and only a store copies it (Go's value semantics).
//! Channels and sync types are stalemate's own primitives, shared by reference.

use super::ast::{Func, Type};
use crate::go::{self, Chan};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

/// The zero `time.Time` (Go's January 1, year 1), before every virtual instant.
pub const ZERO_TIME: i64 = i64::MIN;

/// What `time.NewTimer` and `time.NewTicker` return.
pub enum Clock {
    Timer(go::Timer),
    Ticker(go::Ticker),
}

impl Clock {
    /// The channel the ticks arrive on (`t.C`).
    pub fn c(&self) -> &Chan<()> {
        match self {
            Clock::Timer(t) => &t.c,
            Clock::Ticker(t) => &t.c,
        }
    }
}

pub type Cell = Arc<Mutex<Value>>;

pub fn cell(v: Value) -> Cell {
    Arc::new(Mutex::new(v))
}

/// Reads a cell. The world runs one goroutine at a time, so this mutex is never
/// contended; it only makes the value `Send`.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone)]
pub enum Value {
    Nil,
    Int(i64),
    Bool(bool),
    Str(Arc<str>),
    Struct(Arc<Struct>),
    Ptr(Cell),
    /// `&s[i]`: element `i` of a backing array.
    ElemPtr(Arc<Mutex<Vec<Value>>>, usize),
    Slice(Slice),
    /// A map and its element type, whose zero value a missing key reads.
    Map(Arc<Mutex<BTreeMap<Key, Value>>>, Arc<Type>),
    Chan(Arc<KChan>),
    Func(Arc<Callable>),
    Sync(Arc<SyncObj>),
    /// `*time.Timer` and `*time.Ticker`.
    Timer(Arc<Clock>),
    Ctx(Arc<Ctx>),
    Error(Arc<str>),
    /// `*testing.T`: a test's, or a subtest's (`t.Run`).
    T(Arc<TestState>),
    /// A `*rand.Rand` or a `rand.Source`: every draw is the engine's choice, so all
    /// sources are one.
    Rand,
    /// A `time.Time`: nanoseconds on the virtual clock since the execution began
    /// (`ZERO_TIME` for the zero value).
    Time(i64),
    /// Several results of one call.
    Tuple(Vec<Value>),
}

/// A test's state: its name, and the functions `t.Cleanup` registered, run last first
/// when the test (or subtest) returns.
pub struct TestState {
    pub name: String,
    /// A subtest, run by `t.Run`.
    pub sub: bool,
    pub cleanups: Mutex<Vec<Value>>,
}

impl TestState {
    pub fn new(name: &str, sub: bool) -> TestState {
        TestState {
            name: name.to_string(),
            sub,
            cleanups: Mutex::new(Vec::new()),
        }
    }
}

pub struct Struct {
    pub ty: Arc<str>,
    pub layout: Arc<Layout>,
    pub fields: Vec<Cell>,
}

/// A struct type's fields as its values carry them: one of each per type, shared.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
pub struct Layout {
    pub names: Vec<String>,
    /// Which fields are embedded: those a selector looks through.
    pub embedded: Vec<bool>,
}

#[derive(Clone)]
pub struct Slice {
    pub arr: Arc<Mutex<Vec<Value>>>,
    pub off: usize,
    pub len: usize,
    pub cap: usize,
    /// An array (`[n]T`): the whole of `arr`, copied by a store; slicing it gives a
    /// slice of the same elements.
    pub array: bool,
}

/// A map key: Go's comparable values (basic types, structs of them, and pointers,
/// channels and the like by identity). Maps iterate in key order (Go's order is
/// random: a kernel that depends on it is outside what stalemate explores).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    Int(i64),
    Bool(bool),
    Str(Arc<str>),
    /// A struct of comparable fields: its type, fields and each field's key.
    Struct(Arc<str>, Arc<Layout>, Vec<Key>),
    /// A pointer, a channel or another value compared by identity: the order this
    /// execution first used it as a key in (`Ids`), and the value.
    Ref(Ref),
}

/// A value compared by identity, ordered by when it was first a key (addresses are
/// no order: the same program would iterate differently from run to run).
#[derive(Clone)]
pub struct Ref {
    pub seq: u64,
    pub v: Value,
}

impl PartialEq for Ref {
    fn eq(&self, o: &Ref) -> bool {
        self.seq == o.seq
    }
}
impl Eq for Ref {}
impl PartialOrd for Ref {
    fn partial_cmp(&self, o: &Ref) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ref {
    fn cmp(&self, o: &Ref) -> std::cmp::Ordering {
        self.seq.cmp(&o.seq)
    }
}

/// Each identity-compared value met as a map key in one execution, numbered in the
/// order met. The table holds the value, so its address is not reused meanwhile.
#[derive(Default)]
pub struct Ids(Mutex<HashMap<(usize, usize), Ref>>);

impl Ids {
    fn of(&self, addr: usize, v: &Value) -> Key {
        self.at((addr, usize::MAX), v)
    }

    /// An element's identity: its array and index.
    fn at(&self, addr: (usize, usize), v: &Value) -> Key {
        let mut m = lock(&self.0);
        let seq = m.len() as u64;
        Key::Ref(
            m.entry(addr)
                .or_insert_with(|| Ref { seq, v: v.clone() })
                .clone(),
        )
    }
}

pub struct KChan {
    pub c: ChanImpl,
    pub elem: Type,
}

pub enum ChanImpl {
    Val(Chan<Value>),
    /// `time.After`, a timer's or ticker's `C`: carries the virtual time.
    Time(Chan<()>),
    /// A nil channel: blocks forever.
    Nil(Chan<Value>),
}

pub enum SyncObj {
    Mutex(go::Mutex),
    RwMutex(go::RwMutex),
    WaitGroup(go::WaitGroup),
    Once(go::Once),
    /// The Cond and its `L`, once it has one (`sync.NewCond(l)`, or a zero `sync.Cond`
    /// whose `L` was assigned), and its name.
    Cond(Mutex<Option<(go::Cond, Value)>>, String),
    /// `rw.RLocker()`: a Locker whose Lock and Unlock are the RWMutex's RLock and RUnlock.
    RLocker(go::RwMutex),
    /// `atomic.Int32`, `Int64`, `Uint32`, `Uint64`, and `atomic.Bool` (true: a bool).
    Atomic(go::Atomic, bool),
    /// `atomic.Value`, or `atomic.Pointer[T]` (true): the value stored (nil before the
    /// first Store), each access one operation on the atomic's object, which counts
    /// the stores.
    AtomicValue(go::Atomic, Mutex<Value>, bool),
    /// `sync.Map`: its entries, each operation one step on the atomic's object.
    Map(go::Atomic, Mutex<Entries>),
}

/// The entries of a `sync.Map`, by key: the key as given, and its value.
pub type Entries = BTreeMap<Key, (Value, Value)>;

pub enum Callable {
    /// A declared function or a literal, with the scope it captured.
    Go(Arc<Func>, Option<Env>),
    /// A method bound to its receiver.
    Method(Arc<Func>, Value),
    /// A library method bound to its value: `mu.Unlock`, `wg.Done`.
    Lib(Value, String),
    /// The `cancel` of `context.WithCancel`.
    Cancel(Arc<Ctx>),
    /// A builtin as the call of `go` or `defer` (`defer close(ch)`): its arguments
    /// are evaluated there, as Go does, and passed when it runs.
    Builtin(&'static str),
}

/// A `context.Context`: `done` is None for `Background`, whose Done is nil.
pub struct Ctx {
    pub done: Option<Arc<KChan>>,
    pub err: Mutex<Option<Value>>,
    pub children: Mutex<Vec<Arc<Ctx>>>,
}

/// A lexical scope.
#[derive(Clone)]
pub struct Env(pub(super) Arc<Scope>);

pub struct Scope {
    pub(super) vars: Mutex<Vec<(String, Cell)>>,
    pub(super) parent: Option<Env>,
}

/// A scope that does not keep it alive (`kernel::reach`).
pub struct WeakEnv(std::sync::Weak<Scope>);

impl WeakEnv {
    pub fn upgrade(&self) -> Option<Env> {
        self.0.upgrade().map(Env)
    }
}

impl Env {
    pub fn new(parent: Option<&Env>) -> Env {
        Env(Arc::new(Scope {
            vars: Mutex::new(Vec::new()),
            parent: parent.cloned(),
        }))
    }

    pub fn weak(&self) -> WeakEnv {
        WeakEnv(Arc::downgrade(&self.0))
    }

    /// Its address: one scope's identity.
    pub fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    pub fn define(&self, name: &str, v: Value) -> Cell {
        let c = cell(v);
        if name != "_" {
            lock(&self.0.vars).push((name.to_string(), c.clone()));
        }
        c
    }

    pub fn lookup(&self, name: &str) -> Option<Cell> {
        let mut e = Some(self);
        while let Some(s) = e {
            if let Some((_, c)) = lock(&s.0.vars).iter().rev().find(|(n, _)| n == name) {
                return Some(c.clone());
            }
            e = s.0.parent.as_ref();
        }
        None
    }

    /// The names defined in this scope itself, with their current values.
    pub fn own(&self) -> Vec<(String, Value)> {
        lock(&self.0.vars)
            .iter()
            .map(|(n, c)| (n.clone(), lock(c).clone()))
            .collect()
    }
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }

    /// The value a store puts in a new place: structs are copied, field by field, and
    /// arrays element by element.
    pub fn copy(&self) -> Value {
        self.copy_with(&|v| v.clone())
    }

    /// `copy`, with each `sync` value in it (a struct's mutex, an array's WaitGroups)
    /// given by `sync`.
    pub fn copy_with(&self, sync: &dyn Fn(&Value) -> Value) -> Value {
        match self {
            Value::Slice(s) if s.array => {
                let xs: Vec<Value> = lock(&s.arr).iter().map(|v| v.copy_with(sync)).collect();
                Value::Slice(Slice {
                    arr: Arc::new(Mutex::new(xs)),
                    ..s.clone()
                })
            }
            Value::Struct(s) => Value::Struct(Arc::new(Struct {
                ty: s.ty.clone(),
                layout: s.layout.clone(),
                fields: s
                    .fields
                    .iter()
                    .map(|c| {
                        let v = lock(c).clone();
                        cell(v.copy_with(sync))
                    })
                    .collect(),
            })),
            v @ Value::Sync(_) => sync(v),
            v => v.clone(),
        }
    }

    /// Go's `==`, for the values that are comparable.
    pub fn equals(&self, o: &Value) -> Option<bool> {
        use Value::*;
        Some(match (self, o) {
            (Nil, Nil) => true,
            (Int(a), Int(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Str(a), Str(b)) => a == b,
            (Ptr(a), Ptr(b)) => Arc::ptr_eq(a, b),
            (ElemPtr(a, i), ElemPtr(b, j)) => Arc::ptr_eq(a, b) && i == j,
            (Chan(a), Chan(b)) => Arc::ptr_eq(a, b),
            (Error(a), Error(b)) => Arc::ptr_eq(a, b),
            (Ctx(a), Ctx(b)) => Arc::ptr_eq(a, b),
            (Sync(a), Sync(b)) => Arc::ptr_eq(a, b),
            (Timer(a), Timer(b)) => Arc::ptr_eq(a, b),
            (T(a), T(b)) => Arc::ptr_eq(a, b),
            (Time(a), Time(b)) => a == b,
            (Struct(a), Struct(b)) => {
                if a.ty != b.ty {
                    return Some(false);
                }
                for (x, y) in a.fields.iter().zip(&b.fields) {
                    let (x, y) = (lock(x).clone(), lock(y).clone());
                    if !x.equals(&y)? {
                        return Some(false);
                    }
                }
                true
            }
            (Slice(a), Slice(b)) if a.array && b.array => {
                let (x, y) = (lock(&a.arr).clone(), lock(&b.arr).clone());
                if x.len() != y.len() {
                    return Some(false);
                }
                for (x, y) in x.iter().zip(&y) {
                    if !x.equals(y)? {
                        return Some(false);
                    }
                }
                true
            }
            (Nil, _) | (_, Nil) => false,
            (Map(..), _) | (Slice(_), _) | (Func(_), _) => return None,
            _ => false,
        })
    }

    /// The map key this value is, if it is comparable (`ids` numbers the values
    /// compared by identity).
    pub fn key(&self, ids: &Ids) -> Option<Key> {
        Some(match self {
            Value::Int(i) => Key::Int(*i),
            Value::Bool(b) => Key::Bool(*b),
            Value::Str(s) => Key::Str(s.clone()),
            Value::Struct(s) => {
                let mut fs = Vec::new();
                for c in &s.fields {
                    fs.push(lock(c).key(ids)?);
                }
                Key::Struct(s.ty.clone(), s.layout.clone(), fs)
            }
            Value::Ptr(c) => ids.of(Arc::as_ptr(c) as *const u8 as usize, self),
            Value::ElemPtr(a, i) => ids.at((Arc::as_ptr(a) as *const u8 as usize, *i), self),
            Value::Chan(c) => ids.of(Arc::as_ptr(c) as *const u8 as usize, self),
            Value::Sync(s) => ids.of(Arc::as_ptr(s) as *const u8 as usize, self),
            Value::Timer(t) => ids.of(Arc::as_ptr(t) as *const u8 as usize, self),
            Value::Ctx(c) => ids.of(Arc::as_ptr(c) as *const u8 as usize, self),
            Value::Error(e) => ids.of(Arc::as_ptr(e) as *const u8 as usize, self),
            _ => return None,
        })
    }

    /// `fmt`'s `%v`. As Go's, it follows a pointer at the top level only (`&{1 2}`);
    /// below it a pointer is no value to print (Go prints its address), so a value
    /// that refers to itself prints once. No lock is held while a part is printed.
    pub fn show(&self) -> String {
        self.show_at(0)
    }

    /// `show`, `depth` levels below the value printed.
    fn show_at(&self, depth: usize) -> String {
        // A map or slice that holds itself (through an interface) would recurse for
        // ever, as Go's own printer does; stalemate stops.
        if depth > MAX_SHOW_DEPTH {
            return "...".into();
        }
        let all =
            |vs: Vec<Value>| -> Vec<String> { vs.iter().map(|v| v.show_at(depth + 1)).collect() };
        match self {
            Value::Nil => "<nil>".into(),
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Str(s) => s.to_string(),
            Value::Error(e) => e.to_string(),
            Value::Struct(s) => {
                let vs = s.fields.iter().map(|c| lock(c).clone()).collect();
                format!("{{{}}}", all(vs).join(" "))
            }
            Value::Ptr(c) if depth == 0 => {
                let v = lock(c).clone();
                match v {
                    Value::Struct(_) => format!("&{}", v.show_at(depth + 1)),
                    _ => "(pointer)".into(),
                }
            }
            Value::Ptr(_) | Value::ElemPtr(..) => "(pointer)".into(),
            Value::Slice(s) => {
                let vs = lock(&s.arr)[s.off..s.off + s.len].to_vec();
                format!("[{}]", all(vs).join(" "))
            }
            Value::Map(m, _) => {
                let kvs: Vec<(Value, Value)> = lock(m)
                    .iter()
                    .map(|(k, v)| (k.value(), v.clone()))
                    .collect();
                let xs: Vec<String> = kvs
                    .iter()
                    .map(|(k, v)| format!("{}:{}", k.show_at(depth + 1), v.show_at(depth + 1)))
                    .collect();
                format!("map[{}]", xs.join(" "))
            }
            Value::Chan(_) => "(chan)".into(),
            Value::Func(_) => "(func)".into(),
            Value::Sync(_) => "(sync)".into(),
            Value::Timer(_) => "(timer)".into(),
            Value::Ctx(_) => "context".into(),
            Value::T(_) => "(*testing.T)".into(),
            Value::Rand => "(*rand.Rand)".into(),
            Value::Time(t) if *t == ZERO_TIME => "0001-01-01 00:00:00 +0000 UTC".into(),
            Value::Time(t) => format!(
                "(virtual time +{:?})",
                std::time::Duration::from_nanos(*t as u64)
            ),
            // Several results, each printed as a value of its own.
            Value::Tuple(vs) => vs
                .iter()
                .map(|v| v.show_at(depth))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// How deep `Value::show` goes into values inside values.
const MAX_SHOW_DEPTH: usize = 32;

impl Key {
    pub fn value(&self) -> Value {
        match self {
            Key::Int(i) => Value::Int(*i),
            Key::Bool(b) => Value::Bool(*b),
            Key::Str(s) => Value::Str(s.clone()),
            Key::Struct(ty, layout, fs) => Value::Struct(Arc::new(Struct {
                ty: ty.clone(),
                layout: layout.clone(),
                fields: fs.iter().map(|k| cell(k.value())).collect(),
            })),
            Key::Ref(r) => r.v.clone(),
        }
    }
}

/// What a goroutine's variables hold, as one number: every value reachable from `env`
/// (its scopes up to the globals), by content, and each shared thing (a pointer's cell,
/// a map, a slice's array, a channel, a closure's scope) by identity as well. Equal
/// numbers at two heads of a loop mean the round left the variables as they were
/// (`World::poll`). Identities are addresses: compared within one execution only,
/// never shown.
pub fn env_print(env: &Env, extra: u64) -> u128 {
    use std::hash::{Hash, Hasher};
    let mut p = Printer {
        h: std::hash::DefaultHasher::new(),
        seen: std::collections::HashSet::new(),
    };
    p.env(env);
    extra.hash(&mut p.h);
    u128::from(p.h.finish())
}

struct Printer {
    h: std::hash::DefaultHasher,
    /// Shared things already printed (by address): cycles end, and sharing shows.
    seen: std::collections::HashSet<usize>,
}

impl Printer {
    fn put(&mut self, x: impl std::hash::Hash) {
        x.hash(&mut self.h);
    }

    /// True the first time `addr` is met; its identity is printed either way.
    fn first(&mut self, addr: usize) -> bool {
        self.put(addr);
        self.seen.insert(addr)
    }

    fn env(&mut self, env: &Env) {
        let mut e = Some(env);
        while let Some(s) = e {
            // A scope by content only: a loop makes a new one each round.
            if !self.seen.insert(Arc::as_ptr(&s.0) as usize) {
                self.put(0xe0u8);
                return;
            }
            let vars: Vec<Cell> = lock(&s.0.vars).iter().map(|(_, c)| c.clone()).collect();
            self.put(vars.len());
            for c in vars {
                let v = lock(&c).clone();
                self.value(&v);
            }
            e = s.0.parent.as_ref();
        }
    }

    fn value(&mut self, v: &Value) {
        self.put(std::mem::discriminant(v));
        match v {
            Value::Nil | Value::T(_) | Value::Rand => {}
            Value::Time(t) => self.put(t),
            Value::Int(i) => self.put(i),
            Value::Bool(b) => self.put(b),
            Value::Str(s) | Value::Error(s) => self.put(&**s),
            Value::Struct(s) => {
                self.put(&*s.ty);
                for c in &s.fields {
                    let v = lock(c).clone();
                    self.value(&v);
                }
            }
            Value::Ptr(c) => {
                if self.first(Arc::as_ptr(c) as usize) {
                    let v = lock(c).clone();
                    self.value(&v);
                }
            }
            // The array is its slices' (below); the element's value is part of it.
            Value::ElemPtr(a, i) => {
                self.put(i);
                if self.first(Arc::as_ptr(a) as usize) {
                    let xs: Vec<Value> = lock(a).clone();
                    for x in &xs {
                        self.value(x);
                    }
                }
            }
            Value::Slice(s) => {
                self.put((s.off, s.len, s.cap));
                if self.first(Arc::as_ptr(&s.arr) as usize) {
                    let a: Vec<Value> = lock(&s.arr).clone();
                    for x in &a {
                        self.value(x);
                    }
                }
            }
            Value::Map(m, _) => {
                if self.first(Arc::as_ptr(m) as usize) {
                    let entries: Vec<(Key, Value)> = lock(m)
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    self.put(entries.len());
                    for (k, v) in &entries {
                        self.value(&k.value());
                        self.value(v);
                    }
                }
            }
            // The world's own state covers what these hold.
            Value::Chan(c) => self.put(Arc::as_ptr(c) as usize),
            Value::Sync(s) => self.put(Arc::as_ptr(s) as usize),
            Value::Timer(t) => self.put(Arc::as_ptr(t) as usize),
            Value::Ctx(c) => {
                if self.first(Arc::as_ptr(c) as usize) {
                    let err = lock(&c.err).clone();
                    self.value(&err.unwrap_or(Value::Nil));
                    self.put(lock(&c.children).len());
                }
            }
            Value::Func(f) => {
                if self.first(Arc::as_ptr(f) as usize) {
                    match &**f {
                        Callable::Go(func, scope) => {
                            self.put(Arc::as_ptr(func) as usize);
                            if let Some(e) = scope {
                                self.env(e);
                            }
                        }
                        Callable::Method(func, recv) => {
                            self.put(Arc::as_ptr(func) as usize);
                            self.value(recv);
                        }
                        Callable::Lib(recv, name) => {
                            self.value(recv);
                            self.put(name);
                        }
                        Callable::Cancel(c) => self.put(Arc::as_ptr(c) as usize),
                        Callable::Builtin(n) => self.put(n),
                    }
                }
            }
            Value::Tuple(vs) => {
                for x in vs {
                    self.value(x);
                }
            }
        }
    }
}
