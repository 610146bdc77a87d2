//! The Go library surface a kernel may use: selectors and methods of library values,
//! package members, and the functions of sync, time, context, errors, fmt, io, log,
//! math/rand and sync/atomic. Which members exist is `library::PACKAGES`; this is what they do.

use super::*;

/// The type of `io.Discard`, which no kernel can declare (it is no Go identifier).
pub(super) const DISCARD: &str = "io.discard";

/// An interface type with no methods (`interface{}`, `any`), or not an interface.
pub(super) fn ms_empty(t: &Type) -> bool {
    !matches!(t, Type::Interface(ms) if !ms.is_empty())
}

/// What a pointer (`&x`, or `&s[i]`) points to; `None` for another value.
fn pointee(v: &Value) -> Option<Value> {
    match v {
        Value::Ptr(c) => Some(lock(c).clone()),
        Value::ElemPtr(a, i) => lock(a).get(*i).cloned(),
        _ => None,
    }
}

/// The `sync.Cond` a value is, or points to.
pub(super) fn cond_of(v: &Value) -> Option<Arc<SyncObj>> {
    let v = pointee(v).unwrap_or_else(|| v.clone());
    match v {
        Value::Sync(s) if matches!(&*s, SyncObj::Cond(..)) => Some(s),
        _ => None,
    }
}

/// A Cond's locker from what `sync.NewCond` or `c.L = ...` is given (a `*Mutex`, a
/// `*RWMutex`: its write lock, or `rw.RLocker()`), with the value `c.L` then reads.
pub(super) fn locker_of(v: &Value) -> R<(Locker, Value)> {
    let refuse = || unsupported("a Cond's locker is a *Mutex, a *RWMutex or an RLocker");
    match v {
        Value::Sync(s) => match &**s {
            SyncObj::RLocker(m) => Ok((Locker::RLocker(m.clone()), v.clone())),
            _ => Err(refuse()),
        },
        Value::Ptr(_) | Value::ElemPtr(..) => {
            let inner = pointee(v).unwrap_or(Value::Nil);
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

/// The `sync/atomic` operation a function or method names (`AddInt64`, `Add`, ...),
/// with its arguments (after the pointer, for a function).
pub(super) fn atomic_op(name: &str, args: &[Value]) -> R<AtomicOp> {
    let num = |i: usize| -> R<i64> {
        match args.get(i) {
            Some(Value::Bool(b)) => Ok(i64::from(*b)),
            Some(v) => int(v),
            None => Err(unsupported(format!(
                "atomic {name} needs {} argument(s)",
                i + 1
            ))),
        }
    };
    // CompareAndSwap first: every name starts with its operation.
    Ok(if name.starts_with("CompareAndSwap") {
        AtomicOp::CompareAndSwap(num(0)?, num(1)?)
    } else if name.starts_with("Add") {
        AtomicOp::Add(num(0)?)
    } else if name.starts_with("Load") {
        AtomicOp::Load
    } else if name.starts_with("Store") {
        AtomicOp::Store(num(0)?)
    } else if name.starts_with("Swap") {
        AtomicOp::Swap(num(0)?)
    } else {
        return Err(unsupported(format!("atomic {name} is outside the subset")));
    })
}

/// What an atomic operation gives back to Go code (`bool`: the value is an
/// `atomic.Bool`).
pub(super) fn atomic_result(op: AtomicOp, r: i64, bool: bool) -> Value {
    match op {
        AtomicOp::Store(_) => Value::Nil,
        AtomicOp::CompareAndSwap(..) => Value::Bool(r != 0),
        _ if bool => Value::Bool(r != 0),
        _ => Value::Int(r),
    }
}

/// `now - t` for a `time.Time` t, in nanoseconds (saturating for the zero time).
pub(super) fn since(now: i64, t: &Value) -> R<i64> {
    match t {
        Value::Time(t) => Ok(now.saturating_sub(*t)),
        o => Err(unsupported(format!("time.Since of {}", o.show()))),
    }
}

/// The methods of `time.Time` the subset has, on the virtual clock. `Unix` and
/// `UnixNano` count from a fixed instant (2023-11-14 22:13:20 UTC), so seeds made from
/// them are the same in every execution.
pub(super) fn time_method(t: i64, m: &str, args: &[Value]) -> R<Value> {
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
pub(super) const RAND_MAX: usize = 1 << 16;

/// The builtins that may be statements, and so the call of `go` and `defer`.
pub(super) const STATEMENT_BUILTINS: [&str; 5] = ["close", "delete", "panic", "print", "println"];
impl<'a> I<'a> {
    // ---- selectors and methods ----

    /// `x` names an imported package (and no variable shadows it).
    pub(super) fn package<'e>(&self, x: &'e Expr, env: &Env) -> Option<&'e str> {
        match &x.kind {
            E::Ident(pkg)
                if env.lookup(pkg).is_none() && self.k().file.imports.iter().any(|i| i == pkg) =>
            {
                Some(pkg)
            }
            _ => None,
        }
    }

    pub(super) fn select_expr(&self, x: &Expr, name: &str, env: &Env) -> R<Value> {
        if let Some(pkg) = self.package(x, env) {
            return self.package_member(pkg, name);
        }
        let base = self.eval(x, env)?;
        // A pointer method of a named non-struct type on a variable: Go takes its
        // address (`c.Inc()` is `(&c).Inc()`), so the method changes the variable.
        if !matches!(base, Value::Ptr(_))
            && let Some(m) = self.kind_method(&base, name)
            && matches!(m.recv, Some((_, true)))
            && let Ok(Place::Cell(c)) = self.place(x, env)
        {
            return Ok(Value::Func(Arc::new(Callable::Method(m, Value::Ptr(c)))));
        }
        self.member(&base, name)
    }

    /// The kind of a value whose methods are those of a named non-struct type.
    pub(super) fn kind_of(v: &Value) -> Option<&'static str> {
        Some(match v {
            Value::Int(_) => "int",
            Value::Str(_) => "string",
            Value::Bool(_) => "bool",
            Value::Func(_) => "func",
            Value::Chan(_) => "chan",
            Value::Slice(s) if s.array => "array",
            Value::Slice(_) => "slice",
            Value::Map(..) => "map",
            _ => return None,
        })
    }

    /// Method `name` of the named type that is not a struct whose values are of
    /// `v`'s kind (the checker allows one such type per kind and method name).
    pub(super) fn kind_method(&self, v: &Value, name: &str) -> Option<Arc<Func>> {
        let kind = Self::kind_of(v)?;
        let k = self.k();
        let lookup = |n: &str| k.named(n);
        k.methods
            .iter()
            .find(|((t, m), _)| {
                m == name
                    && k.named(t).is_some_and(|ty| {
                        !matches!(ty, Type::Struct(_)) && value_kind(&ty, &lookup) == Some(kind)
                    })
            })
            .map(|(_, f)| f.clone())
    }

    pub(super) fn member(&self, base: &Value, name: &str) -> R<Value> {
        if let Value::Nil = base {
            return Err(rt_err("invalid memory address or nil pointer dereference"));
        }
        // io.Discard's Write and a text buffer's methods: library methods
        // (`lib_method`).
        let st = struct_of(base);
        if let Some(s) = &st
            && helpers::lib_struct_method(&s.ty, name)
        {
            return Ok(Value::Func(Arc::new(Callable::Lib(
                Value::Struct(s.clone()),
                name.to_string(),
            ))));
        }
        // Methods the kernel declares, on the dynamic type.
        if let Some(s) = &st
            && let Some(m) = self.k().method(&s.ty, name)
        {
            let recv = match (&m.recv, base) {
                (Some((_, true)), Value::Struct(_)) => Value::Ptr(cell(base.clone())),
                (Some((_, false)), Value::Ptr(c)) => {
                    let v = lock(c).clone();
                    v.copy_by(self)
                }
                (Some((_, false)), Value::ElemPtr(a, i)) => {
                    let v = lock(a)[*i].clone();
                    v.copy_by(self)
                }
                (Some((_, false)), v) => v.copy_by(self),
                _ => base.clone(),
            };
            return Ok(Value::Func(Arc::new(Callable::Method(m.clone(), recv))));
        }
        // Its own field, else a field or method promoted from an embedded field: the
        // shallowest first, as Go's selectors find them.
        if let Some(s) = st {
            let field = |c: &Cell| {
                self.cell_access(c, || format!("{}.{name}", s.ty), false);
                lock(c).clone()
            };
            if let Some(i) = s.layout.names.iter().position(|n| n == name) {
                return Ok(field(&s.fields[i]));
            }
            let mut level = self.embedded_values(&s);
            for _ in 0..EMBED_DEPTH {
                let mut next = Vec::new();
                for inner in &level {
                    let Some(is) = struct_of(inner) else {
                        // A sync value, a named non-struct type's value.
                        if let Ok(v) = self.member(inner, name) {
                            return Ok(v);
                        }
                        continue;
                    };
                    if helpers::lib_struct_method(&is.ty, name)
                        || self.k().method(&is.ty, name).is_some()
                    {
                        return self.member(inner, name);
                    }
                    if let Some(i) = is.layout.names.iter().position(|n| n == name) {
                        return Ok(field(&is.fields[i]));
                    }
                    next.extend(self.embedded_values(&is));
                }
                if next.is_empty() {
                    break;
                }
                level = next;
            }
            return Err(unsupported(format!(
                "{} has no field or method {name}",
                s.ty
            )));
        }
        // A pointer to a library value (`new(sync.Mutex)`, `&sync.WaitGroup{}`, a
        // `*sync.Mutex` parameter): its members are the value's.
        // `&s.locks[i]` too: a pointer to an element, a mutex in an array of them.
        if let Some(inner) = pointee(base)
            && matches!(inner, Value::Sync(_) | Value::Timer(_) | Value::Ctx(_))
        {
            return self.member(&inner, name);
        }
        // A method of a named type that is not a struct, found by the value's kind.
        let (inner, ptr) = match base {
            Value::Ptr(c) => (lock(c).clone(), true),
            v => (v.clone(), false),
        };
        if let Some(m) = self.kind_method(&inner, name) {
            let recv = match (&m.recv, ptr) {
                (Some((_, true)), true) => base.clone(),
                (Some((_, true)), false) => Value::Ptr(cell(base.clone())),
                (_, true) => inner.copy_by(self),
                _ => base.copy_by(self),
            };
            return Ok(Value::Func(Arc::new(Callable::Method(m, recv))));
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

    pub(super) fn lib_method(&self, v: &Value, m: &str, args: Vec<Value>) -> R<Value> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        match v {
            // io.Discard.Write(p): all of p, no error.
            Value::Struct(s) if &*s.ty == DISCARD && m == "Write" => {
                let n = match arg(0) {
                    Value::Slice(s) => s.len as i64,
                    _ => 0,
                };
                return Ok(Value::Tuple(vec![Value::Int(n), Value::Nil]));
            }
            Value::Struct(s) if helpers::is_buffer(s) => return self.buffer_method(s, m, &args),
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
                (SyncObj::Map(a, e), _) => return self.sync_map(a, e, m, &args),
                (SyncObj::AtomicValue(a, stored, typed), _) => {
                    return self.atomic_value(a, stored, m, &args, None, *typed);
                }
                (SyncObj::Atomic(a, b), _) => {
                    let op = atomic_op(m, &args)?;
                    if *b && matches!(op, AtomicOp::Add(_)) {
                        return Err(unsupported("atomic.Bool has no Add"));
                    }
                    return Ok(atomic_result(op, a.run(op), *b));
                }
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
                (Clock::Ticker(t), "Reset") => {
                    t.reset(nanos(&arg(0))?);
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
                "Err" => return Ok(self.cancelled(c).unwrap_or(Value::Nil)),
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
            Value::T(t) => match m {
                // A subtest runs to its end before `Run` returns, as Go's does unless it
                // calls `t.Parallel` (refused below); a failure ends the execution, so a
                // `Run` that returns passed.
                "Run" => {
                    let name = args.first().map(Value::show).unwrap_or_default();
                    let sub = Arc::new(TestState::new(&format!("{}/{name}", t.name), true));
                    let f = args.get(1).cloned().unwrap_or(Value::Nil);
                    self.call(&f, vec![Value::T(sub.clone())])?;
                    self.cleanups(&sub);
                    return Ok(Value::Bool(true));
                }
                "Cleanup" => lock(&t.cleanups).push(args.first().cloned().unwrap_or(Value::Nil)),
                "Name" => return Ok(Value::str(&t.name)),
                "Parallel" if t.sub => {
                    return Err(unsupported(
                        "t.Parallel in a subtest: stalemate runs subtests one after another",
                    ));
                }
                "Fatal" | "Fatalf" | "Error" | "Errorf" => {
                    let msg = if m.ends_with('f') {
                        format_go(&args, &self.rt.ids)
                    } else {
                        join_go(&args)
                    };
                    self.go
                        .check("test-failed", false, || format!("t.{m}: {msg}"));
                }
                "Log" | "Logf" => {
                    let msg = if m.ends_with('f') {
                        format_go(&args, &self.rt.ids)
                    } else {
                        join_go(&args)
                    };
                    self.go.note(format!("t.{m}: {msg}"));
                }
                // A top-level test runs alone: `Parallel` has no other test to wait for.
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

    pub(super) fn package_member(&self, pkg: &str, name: &str) -> R<Value> {
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
            ("io", "ErrUnexpectedEOF") => Ok(self.rt.unexpected_eof.clone()),
            // A writer that takes everything: a struct of a type no kernel can name.
            ("io", "Discard") => Ok(Value::Struct(Arc::new(Struct {
                ty: Arc::from(DISCARD),
                layout: Arc::new(Layout {
                    names: Vec::new(),
                    embedded: Vec::new(),
                }),
                fields: Vec::new(),
            }))),
            ("context", "DeadlineExceeded") => Ok(self.rt.deadline.clone()),
            _ => Ok(Value::Func(Arc::new(Callable::Lib(
                Value::str(&format!("{pkg}.{name}")),
                String::new(),
            )))),
        }
    }

    /// `atomic.AddInt64(&n, d)` and the other functions of `sync/atomic` on a plain
    /// variable: one operation on the kernel's atomics object, the variable read and
    /// written inside it.
    pub(super) fn atomic_function(&self, f: &str, args: &[Value], target: String) -> R<Value> {
        let Some(Value::Ptr(cell)) = args.first() else {
            return Err(unsupported(format!(
                "atomic.{f} needs a pointer to a variable (&x)"
            )));
        };
        let Some(a) = &self.rt.atomics else {
            return Err(unsupported("sync/atomic without its import"));
        };
        // The variable's location: an atomic access races with its plain ones.
        let at = self.cell_location(cell, || target);
        // `LoadPointer(&p)` and its kin: an `unsafe.Pointer` variable, any value.
        if let Some(m) = f.strip_suffix("Pointer") {
            return self.atomic_value(a, cell, m, &args[1..], Some(at.as_ref()), false);
        }
        let op = atomic_op(f, &args[1..])?;
        let read = || match &*lock(cell) {
            Value::Int(v) => *v,
            _ => 0,
        };
        let write = |v: i64| *lock(cell) = Value::Int(v);
        let r = a.run_on(op, &format!("{f} on a variable"), at.as_ref(), read, write);
        Ok(atomic_result(op, r, false))
    }

    /// `rand.Intn(n)` and its kin: the engine's choice of `0..n`; Go panics for n ≤ 0.
    pub(super) fn rand(&self, f: &str, n: &Value) -> R<Value> {
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

    /// A method of `atomic.Value` (`stored` is its value), or with `pointer` the
    /// function of that name on an `unsafe.Pointer` variable (`LoadPointer`). Go panics
    /// on storing nil in a Value, and on storing a value of another type than the
    /// first (not checked here: a kernel has no types at run time).
    fn atomic_value(
        &self,
        a: &crate::go::Atomic,
        stored: &Mutex<Value>,
        m: &str,
        args: &[Value],
        pointer: Option<Option<&crate::go::Plain>>,
        typed: bool,
    ) -> R<Value> {
        // A function on an `unsafe.Pointer` variable (at its location, if races are
        // checked), or a method of an `atomic.Value` or (`typed`) `atomic.Pointer`,
        // which may hold nil.
        let (at, nil_ok) = (pointer.flatten(), pointer.is_some() || typed);
        let pointer = pointer.is_some();
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        let nil_store = || Err(Panic("sync/atomic: store of nil value into Value".into()));
        let what = |m: &str| {
            if pointer {
                format!("{m}Pointer")
            } else {
                m.to_string()
            }
        };
        match m {
            "Load" => Ok(a.step(&what(m), at, false, || (lock(stored).clone(), false))),
            "Store" | "Swap" if !nil_ok && matches!(arg(0), Value::Nil) => nil_store(),
            "Store" => {
                let v = arg(0).copy_by(self);
                a.step(&what(m), at, true, || {
                    *lock(stored) = v.clone();
                    ((), true)
                });
                Ok(Value::Nil)
            }
            "Swap" => {
                let v = arg(0).copy_by(self);
                Ok(a.step(&what(m), at, false, || {
                    (std::mem::replace(&mut *lock(stored), v.clone()), true)
                }))
            }
            "CompareAndSwap" if !nil_ok && matches!(arg(1), Value::Nil) => nil_store(),
            "CompareAndSwap" => {
                let (old, new) = (arg(0), arg(1).copy_by(self));
                let swapped = a.step(&what(m), at, false, || {
                    let mut s = lock(stored);
                    let same = s.equals(&old).unwrap_or(false);
                    if same {
                        *s = new.clone();
                    }
                    (same, same)
                });
                Ok(Value::Bool(swapped))
            }
            _ => Err(unsupported(format!("atomic.Value has no method {m}"))),
        }
    }

    /// Functions of the imported packages.
    pub(super) fn library(&self, pkg: &str, name: &str, args: Vec<Value>, p: Pos) -> R<Value> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        Ok(match (pkg, name) {
            ("time", "Sleep") => {
                self.go.sleep(nanos(&arg(0))?);
                Value::Nil
            }
            ("rand", "Intn" | "Int31n" | "Int63n") => self.rand(name, &arg(0))?,
            // A bubble is the execution's virtual clock (a kernel that imports
            // synctest runs in virtual time): `Test` runs f as a subtest of t there.
            ("synctest", "Test") => {
                let Value::T(t) = arg(0) else {
                    return Err(unsupported("synctest.Test needs the test's t"));
                };
                let bubble = Arc::new(TestState::new(&t.name, true));
                self.call(&arg(1), vec![Value::T(bubble.clone())])?;
                self.cleanups(&bubble);
                Value::Nil
            }
            ("synctest", "Run") => {
                self.call(&arg(0), Vec::new())?;
                Value::Nil
            }
            ("synctest", "Wait") => {
                if !self.go.virtual_time() {
                    return Err(unsupported("synctest.Wait outside virtual time"));
                }
                self.go.settle();
                Value::Nil
            }
            // No network: every dial is refused, as with nothing listening.
            ("net", "Dial" | "DialTimeout") => Value::Tuple(vec![
                Value::Nil,
                Value::Error(Arc::from(format!(
                    "dial {} {}: connect: connection refused",
                    arg(0).show(),
                    arg(1).show()
                ))),
            ]),
            ("strings", _) => super::text::strings(name, &args)?,
            ("io", "ReadFull") => self.read_full(&args)?,
            ("fmt", "Fprint" | "Fprintf" | "Fprintln") => self.fprint(name, &args)?,
            ("bytes", "NewBufferString") => {
                Value::Ptr(cell(helpers::buffer(helpers::BUFFER, &arg(0).show())))
            }
            ("strconv", _) => super::text::strconv(name, &args)?,
            ("time", "Now") => Value::Time(self.go.now().as_nanos() as i64),
            ("time", "Since") => Value::Int(since(self.go.now().as_nanos() as i64, &arg(0))?),
            ("time", "Until") => Value::Int(-since(self.go.now().as_nanos() as i64, &arg(0))?),
            ("rand", "Seed") => Value::Nil,
            // An opaque pointer: the value itself, compared by identity.
            ("unsafe", "Pointer") => arg(0),
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
            ("time", "AfterFunc") => {
                let name = self.name_for("time.AfterFunc", p);
                let (rt, f) = (self.rt.clone(), arg(1));
                let t = self.go.after_func(&name, nanos(&arg(0))?, move |g| {
                    I::new(&rt, g).run(f.clone(), Vec::new())
                });
                Value::Timer(Arc::new(Clock::Timer(t)))
            }
            // A ticker nothing can stop, as Go's: only its channel is returned.
            ("time", "Tick") => {
                let name = self.name_for("time.Tick", p);
                let t = self.go.ticker(&name, nanos(&arg(0))?, TICKS);
                Value::Chan(Arc::new(KChan {
                    c: ChanImpl::Time(t.c.clone()),
                    elem: Type::Name("int".into()),
                }))
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
            ("fmt", "Sprintf") => Value::str(&format_go(&args, &self.rt.ids)),
            ("fmt", "Sprint") => Value::str(&sprint_go(&args)),
            ("fmt", "Sprintln") => Value::str(&(join_go(&args) + "\n")),
            ("fmt", "Errorf") => Value::Error(Arc::from(format_go(&args, &self.rt.ids).as_str())),
            ("fmt", "Printf") | ("log", "Printf") => {
                self.go
                    .note(format_go(&args, &self.rt.ids).trim_end().to_string());
                Value::Nil
            }
            ("fmt", "Print") | ("log", "Print") => {
                self.go.note(sprint_go(&args));
                Value::Nil
            }
            ("fmt", "Println") | ("log", "Println") => {
                self.go.note(join_go(&args));
                Value::Nil
            }
            // Go prints, then os.Exit(1): the program ends there, its deferred calls
            // unrun; a finding of its own, not a panic.
            ("log", "Fatal" | "Fatalf" | "Fatalln") => {
                let msg = log_text(name, &args, &self.rt.ids);
                self.go.note(format!("log.{name}: {msg}"));
                self.go.check("exit", false, || {
                    format!("log.{name}: {msg} (the program exits with status 1)")
                });
                Value::Nil
            }
            // Go prints, then panics with the message: deferred calls run.
            ("log", "Panic" | "Panicf" | "Panicln") => {
                let msg = log_text(name, &args, &self.rt.ids);
                self.go.note(format!("log.{name}: {msg}"));
                return Err(Panic(msg));
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
                    i.holds(vec![Value::Ctx(c2.clone())]);
                    let after = g.after("context deadline", d);
                    let done = done_of(&c2).expect("a child context has a done channel");
                    let fired = g.select().recv(&after).recv(done).wait();
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

    pub(super) fn child_ctx(&self, parent: &Value, p: Pos) -> R<Arc<Ctx>> {
        let Value::Ctx(parent) = parent else {
            return Err(Panic("cannot create context from nil parent".into()));
        };
        let name = self.name_for("ctx.Done", p);
        let ctx = Arc::new(Ctx {
            done: Some(Arc::new(KChan {
                c: ChanImpl::Val(self.go.done_chan(&name)),
                elem: Type::Struct(Vec::new()),
            })),
            err: Mutex::new(None),
            children: Mutex::new(Vec::new()),
        });
        match self.cancelled(parent) {
            Some(e) => self.cancel(&ctx, e),
            None => lock(&parent.children).push(ctx.clone()),
        }
        Ok(ctx)
    }

    /// Go's cancel sets the error and closes `Done` under the context's mutex, so
    /// that a second cancel, `Err` and a child's creation see both or neither. Here
    /// the close is the step (`close_once`: a cancel that finds `Done` closed does
    /// nothing but sync), the error set at once after it, nothing running between;
    /// `Err` and a child's creation read `Done` by a step (`cancelled`).
    pub(super) fn cancel(&self, ctx: &Arc<Ctx>, err: Value) {
        let Some(done) = done_of(ctx) else { return };
        if !done.close_once() {
            return;
        }
        *lock(&ctx.err) = Some(err.clone());
        let children = std::mem::take(&mut *lock(&ctx.children));
        for c in children {
            self.cancel(&c, err.clone());
        }
    }

    /// The context's error, read by a step that tries its `Done` (a cancel sets it
    /// right after closing `Done`, so a closed `Done` means it is set): ordered with
    /// the cancel as Go's read under the context's mutex is.
    pub(super) fn cancelled(&self, ctx: &Arc<Ctx>) -> Option<Value> {
        let done = done_of(ctx)?;
        match done.try_recv() {
            crate::go::TryRecv::Closed => lock(&ctx.err).clone(),
            _ => None,
        }
    }
}

/// A context's `Done` channel; `None` for `Background`, which is never cancelled.
fn done_of(ctx: &Ctx) -> Option<&crate::go::Chan<Value>> {
    match &ctx.done.as_ref()?.c {
        ChanImpl::Val(c) => Some(c),
        _ => None,
    }
}

/// What `log.Fatalf`-style (formatting) and `log.Fatal`-style (joining) calls print.
fn log_text(name: &str, args: &[Value], ids: &crate::kernel::value::Ids) -> String {
    if name.ends_with('f') {
        format_go(args, ids).trim_end().to_string()
    } else if name.ends_with("ln") {
        join_go(args)
    } else {
        sprint_go(args)
    }
}
