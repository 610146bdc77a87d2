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
    /// A read (`writes` false) or a write of the location, checked for a race.
    pub fn access(&self, writes: bool) {
        access(&self.w, self.id, writes);
    }
}

/// One access of a `Data` or `Plain` location: a data race fails the execution.
fn access(w: &World, id: usize, writes: bool) {
    w.plain(|st, me| {
        check(st, me, id, writes, true).map(|race| {
            let verb = if writes { "writes" } else { "reads" };
            (race, say!(st, "{verb} {}", st.oname(id)))
        })
    });
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
    let at = |a: &Access| {
        if between {
            format!("after step {}", a.step)
        } else {
            format!("at step {}", a.step + 1)
        }
    };
    let place = |a: &Access| {
        if a.func.is_empty() {
            String::new()
        } else {
            format!(" in {}", a.func)
        }
    };
    Violation::new(
        Property::DataRace,
        format!(
            "{} {} {name} {}{}; {} {} it {}{}; nothing orders the two",
            st.name(prior.gid),
            verb(prior_writes),
            at(prior),
            place(prior),
            st.name(now.gid),
            verb(writes),
            at(now),
            place(now),
        ),
    )
}

/// Checks an access against the variable's history and records it.
fn check(st: &mut State, me: usize, id: usize, writes: bool, between: bool) -> Option<Violation> {
    let now = st.access(me);
    let name = st.oname(id).to_string();
    let ObjKind::Var(v) = &st.objs[id].kind else {
        unreachable!()
    };
    let mut found = None;
    if st.check_races {
        if let Some(w) = &v.last_write
            && !st.happened_before(w, me)
        {
            found = Some(race(st, &name, w, &now, (true, writes), between));
        } else if writes && let Some(r) = v.reads.iter().find(|r| !st.happened_before(r, me)) {
            found = Some(race(st, &name, r, &now, (false, true), between));
        }
    }
    if found.is_some() {
        // A failing step changes nothing (see `World::fail_with`).
        return found;
    }
    // The goroutine reads the value (a write may read it too: `Data::with`); what it
    // writes comes from what it knows then, its history (see `world::print`).
    let ObjKind::Var(v) = &st.objs[id].kind else {
        unreachable!()
    };
    let read = v.tag;
    st.observe(me, read);
    let h = st.gors[me].hist;
    st.puts += u64::from(writes);
    let ObjKind::Var(v) = &mut st.objs[id].kind else {
        unreachable!()
    };
    if writes {
        v.tag = h;
        v.last_write = Some(now);
        v.reads.clear();
    } else {
        v.reads.retain(|r| r.gid != me);
        v.reads.push(now);
    }
    found
}

impl<T: Clone + Debug + Send + 'static> Var<T> {
    pub fn get(&self) -> T {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let v = self.v.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let text = say!(st, "read {} ({v:?})", st.oname(o.id));
            match check(st, me, o.id, false, false) {
                Some(race) => Attempt::Fail(race, text),
                None => Attempt::Done(v, text),
            }
        })
    }

    pub fn set(&self, v: T) {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let text = say!(st, "write {} = {v:?}", st.oname(o.id));
            match check(st, me, o.id, true, false) {
                Some(race) => Attempt::Fail(race, text),
                None => {
                    *self.v.lock().unwrap_or_else(|e| e.into_inner()) = v.clone();
                    Attempt::Done((), text)
                }
            }
        })
    }
}
