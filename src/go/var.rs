//! A plain shared variable: Go code that reads or writes a field without a lock.
//! Each access is a scheduling point, and the race detector checks it: two accesses,
//! one a write, that no lock, channel, WaitGroup, Once or `go` statement orders, are a
//! `data-race` (what Go's race detector reports).
//!
//! `Data` is the model's guarded data (a map, a counter): the same check, but its
//! accesses are not scheduling points, so they cost no interleavings.

use super::{Go, Obj};
use crate::verdict::{Property, Violation};
use crate::world::say;
use crate::world::{Access, Attempt, ObjKind, State, VarState, World};
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

/// A plain variable holding `T`.
pub struct Var<T> {
    o: Arc<Obj>,
    v: Arc<Mutex<T>>,
}

impl<T> Clone for Var<T> {
    fn clone(&self) -> Self {
        Var {
            o: self.o.clone(),
            v: self.v.clone(),
        }
    }
}

impl Go {
    /// A plain shared variable, named as the Go field it models.
    pub fn var<T: Clone + Debug + Send + 'static>(&self, name: &str, init: T) -> Var<T> {
        Var {
            o: self.obj(name, ObjKind::Var(VarState::default())),
            v: Arc::new(Mutex::new(init)),
        }
    }
}

/// Plain data of the model (a map, a counter), guarded by the model's own Go locks
/// exactly as the Go code guards it. Accesses are not scheduling points, and loom
/// does not see them: the race detector checks each one instead, so two accesses (one
/// a write) that no Go operation orders are a `data-race`, as for `Var`. That check is
/// what lets loom treat model code between operations as the goroutine's own
/// (`World::run_root`).
pub struct Data<T> {
    w: Arc<World>,
    id: usize,
    v: Arc<Mutex<T>>,
}

impl<T> Clone for Data<T> {
    fn clone(&self) -> Self {
        Data {
            w: self.w.clone(),
            id: self.id,
            v: self.v.clone(),
        }
    }
}

impl Go {
    /// Model data, named as the Go field it models (`Cacher.watchers`).
    pub fn data<T: Send + 'static>(&self, name: &str, init: T) -> Data<T> {
        let id = self.w.add(name, ObjKind::Var(VarState::default()));
        Data {
            w: self.w.clone(),
            id,
            v: Arc::new(Mutex::new(init)),
        }
    }
}

impl<T> Data<T> {
    /// Reads and may write: a write for the race detector.
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        self.check(true);
        f(&mut self.v.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Reads only.
    pub fn read<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.check(false);
        f(&self.v.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub fn get(&self) -> T
    where
        T: Clone,
    {
        self.read(|v| v.clone())
    }

    pub fn set(&self, v: T) {
        self.with(|x| *x = v);
    }

    fn check(&self, writes: bool) {
        access(&self.w, self.id, writes);
    }
}

/// A plain memory location the model keeps itself (a Go kernel's variable, field,
/// slice element or map): no value here, only the race detector's history, checked
/// at each access as `Data`'s is. Accesses are not scheduling points.
#[derive(Clone)]
pub struct Plain {
    w: Arc<World>,
    id: usize,
}

impl Go {
    /// A plain memory location named `name` (`count`, `Server.conns`, `buf[2]`).
    pub fn plain(&self, name: &str) -> Plain {
        let id = self.w.add(name, ObjKind::Var(VarState::default()));
        Plain {
            w: self.w.clone(),
            id,
        }
    }

    /// Whether this execution reports data races (`Bounds::check_races`).
    pub fn checks_races(&self) -> bool {
        self.w.lock().check_races
    }
}

impl Plain {
    /// The location's object.
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// A read (`writes` false) or a write of the location, checked for a race.
    pub fn access(&self, writes: bool) {
        access(&self.w, self.id, writes);
    }
}

/// One access of a `Data` or `Plain` location: a data race fails the execution.
pub(super) fn access(w: &World, id: usize, writes: bool) {
    w.plain(|st, me| {
        check(st, me, id, Kind::plain(writes), true).map(|race| {
            let verb = if writes { "writes" } else { "reads" };
            (race, say!(st, "{verb} {}", st.oname(id)))
        })
    });
}

/// How an access uses its location.
#[derive(Clone, Copy)]
pub(crate) struct Kind {
    pub writes: bool,
    /// A `sync/atomic` operation (`Access::atomic`).
    pub atomic: bool,
}

impl Kind {
    pub(crate) fn plain(writes: bool) -> Kind {
        Kind {
            writes,
            atomic: false,
        }
    }
}

/// `between`: the access is no step of its own (`Data`) but code between two.
fn race(
    st: &State,
    name: &str,
    prior: &Access,
    now: &Access,
    (prior_writes, writes): (bool, bool),
    between: bool,
) -> Violation {
    let verb = |w: bool| if w { "wrote" } else { "read" };
    let how = |a: &Access| if a.atomic { " atomically" } else { "" };
    // An atomic access is a step of its own.
    let at = |a: &Access| {
        if between && !a.atomic {
            format!("after step {}", a.step)
        } else {
            format!("at step {}", a.step + 1)
        }
    };
    let place = crate::world::place;
    Violation::new(
        Property::DataRace,
        format!(
            "{} {} {name}{} {}{}; {} {} it{} {}{}; nothing orders the two",
            st.name(prior.gid),
            verb(prior_writes),
            how(prior),
            at(prior),
            place(prior),
            st.name(now.gid),
            verb(writes),
            how(now),
            at(now),
            place(now),
        ),
    )
}

/// Checks an access against the location's history and records it. Two accesses
/// race when nothing orders them, one writes, and not both are atomic.
pub(crate) fn check(
    st: &mut State,
    me: usize,
    id: usize,
    kind: Kind,
    between: bool,
) -> Option<Violation> {
    let Kind { writes, atomic } = kind;
    let mut now = st.access(me);
    now.atomic = atomic;
    let name = st.oname(id).to_string();
    if st.check_races {
        let v = st.var_ref(id);
        // Two atomic accesses never race.
        let both_atomic = |a: &Access| a.atomic && atomic;
        let races = |a: &Access| !(both_atomic(a) || st.happened_before(a, me));
        let mut writes_before = v.last_write.iter().chain(&v.concurrent);
        let prior = match writes_before.find(|w| races(w)) {
            Some(w) => Some((w, true)),
            None if writes => v.reads.iter().find(|r| races(r)).map(|r| (r, false)),
            None => None,
        };
        if let Some((a, prior_writes)) = prior {
            // A failing step changes nothing (see `World::fail_with`).
            return Some(race(st, &name, a, &now, (prior_writes, writes), between));
        }
    }
    // The goroutine reads the value (a write may read it too: `Data::with`); what it
    // writes comes from what it knows then, its history (see `world::print`).
    let read = st.var_ref(id).tag;
    st.observe(me, read);
    let h = st.gors[me].hist;
    st.puts += u64::from(writes);
    if writes {
        // Every earlier access happens before this one or raced with it, but for an
        // atomic one beside this atomic write: those are kept.
        let v = st.var_ref(id);
        let after = |a: &&Access| !st.happened_before(a, me);
        let prior = v.last_write.iter().chain(&v.concurrent);
        let concurrent: Vec<Access> = prior.filter(after).cloned().collect();
        let reads: Vec<Access> = v.reads.iter().filter(after).cloned().collect();
        let v = st.var(id);
        v.tag = h;
        v.last_write = Some(now);
        v.concurrent = concurrent;
        v.reads = reads;
    } else {
        let v = st.var(id);
        // A goroutine's later read covers its earlier one, but an atomic read does
        // not cover a plain one: a later atomic write races with the plain read only.
        v.reads.retain(|r| r.gid != me || (atomic && !r.atomic));
        v.reads.push(now);
    }
    None
}

impl<T: Clone + Debug + Send + 'static> Var<T> {
    pub fn get(&self) -> T {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let v = self.v.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let text = say!(st, "read {} ({v:?})", st.oname(o.id));
            match check(st, me, o.id, Kind::plain(false), false) {
                Some(race) => Attempt::Fail(race, text),
                None => Attempt::Done(v, text),
            }
        })
    }

    pub fn set(&self, v: T) {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let text = say!(st, "write {} = {v:?}", st.oname(o.id));
            match check(st, me, o.id, Kind::plain(true), false) {
                Some(race) => Attempt::Fail(race, text),
                None => {
                    *self.v.lock().unwrap_or_else(|e| e.into_inner()) = v.clone();
                    Attempt::Done((), text)
                }
            }
        })
    }
}
