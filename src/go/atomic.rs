//! `sync/atomic`: each access is one Go operation on its value's object, which orders
//! it with the value's other accesses (Go's memory model: atomics are sequentially
//! consistent, and one that observes another is synchronised after it). Atomic
//! accesses never race with each other; a plain access of the same variable races
//! with them as with any write, as Go's race detector has it (`var::check`).

use super::var::{self, Kind, Plain};
use super::{Go, Obj};
use crate::verdict::Violation;
use crate::world::say;
use crate::world::{Attempt, Hb, ObjKind, State, VarState};
use std::sync::Arc;

/// An atomic integer (`atomic.Int64`, `atomic.Int32`, ...; a bool is 0 or 1).
#[derive(Clone)]
pub struct Atomic {
    o: Arc<Obj>,
}

impl Go {
    /// A new atomic integer holding `init`.
    pub fn atomic(&self, name: &str, init: i64) -> Atomic {
        Atomic {
            o: self.obj(
                name,
                ObjKind::Atomic {
                    value: init,
                    var: VarState::default(),
                },
            ),
        }
    }
}

/// One `sync/atomic` operation, as its function or method of that name does it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Load,
    Store(i64),
    /// Returns the new value.
    Add(i64),
    /// Returns the old value.
    Swap(i64),
    /// (old, new): returns 1 if it swapped, else 0.
    CompareAndSwap(i64, i64),
}

impl Op {
    /// Applies the operation to `v`: what Go returns (0 for `Store`), and the step's text.
    pub fn apply(self, v: &mut i64) -> (i64, String) {
        match self {
            Op::Load => (*v, format!("load {v}")),
            Op::Store(x) => {
                *v = x;
                (0, format!("store {x}"))
            }
            Op::Add(d) => {
                *v = v.wrapping_add(d);
                (*v, format!("add {d} (now {v})"))
            }
            Op::Swap(x) => {
                let old = std::mem::replace(v, x);
                (old, format!("swap {x} (was {old})"))
            }
            Op::CompareAndSwap(old, new) if *v == old => {
                *v = new;
                (1, format!("compare-and-swap {old} -> {new}"))
            }
            Op::CompareAndSwap(old, new) => (
                0,
                format!("compare-and-swap {old} -> {new}: is {v}, no swap"),
            ),
        }
    }
}

impl Op {
    /// Whether the operation wrote, given what it returned: not a load, nor a
    /// compare-and-swap that did not swap.
    fn writes(self, r: i64) -> bool {
        match self {
            Op::Load => false,
            Op::CompareAndSwap(..) => r != 0,
            _ => true,
        }
    }

    /// How it orders its goroutine, as Go's race detector has it: a load (or a
    /// compare-and-swap that did not swap) acquires, a store releases, replacing what
    /// the variable's atomics released before, and a read-modify-write does both.
    fn hb(self, r: i64) -> Hb {
        match self {
            _ if !self.writes(r) => Hb::Acquire,
            Op::Store(_) => Hb::Store,
            _ => Hb::Sync,
        }
    }
}

/// The race detector's part of an atomic access of a location kept outside this
/// atomic (a kernel's variable): checked against the location's plain accesses, then
/// ordered through the location's own clock, not the shared object's (atomics on two
/// variables do not synchronise in Go).
fn on_location(st: &mut State, me: usize, at: Option<&Plain>, hb: Hb) -> Option<Violation> {
    let at = at?.id();
    st.hb = Hb::Unordered;
    let writes = hb != Hb::Acquire;
    let race = var::check(
        st,
        me,
        at,
        Kind {
            writes,
            atomic: true,
        },
        false,
    );
    if race.is_none() {
        st.order_any(me, at, hb);
    }
    race
}

impl Atomic {
    /// Its object's number in the world.
    pub(crate) fn oid(&self) -> usize {
        self.o.id
    }

    /// A copy of the atomic, as Go copies one (`Go::copy_object`).
    pub(crate) fn copied(&self, go: &Go) -> Atomic {
        Atomic {
            o: go.copy_object(&self.o).expect("an atomic"),
        }
    }

    /// One operation on the value this atomic holds.
    pub fn run(&self, op: Op) -> i64 {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let ObjKind::Atomic { value, .. } = &st.objs[o.id].kind else {
                unreachable!("an atomic's object")
            };
            let mut v = *value;
            let (r, what) = op.apply(&mut v);
            let name = st.label(o.id);
            let text = say!(st, "atomic {name}: {what}");
            let kind = Kind {
                writes: op.writes(r),
                atomic: true,
            };
            // A failing step changes nothing (see `World::fail_with`).
            if let Some(race) = var::check(st, me, o.id, kind, false) {
                return Attempt::Fail(race, text);
            }
            if let ObjKind::Atomic { value, .. } = &mut st.objs[o.id].kind {
                *value = v;
            }
            st.hb = op.hb(r);
            Attempt::Done(r, text)
        })
    }

    /// A plain read of the atomic's variable (Go code that reads `n` where others use
    /// `atomic.AddInt64(&n, 1)`): no step, checked by the race detector, which reports
    /// it against every atomic write that does not happen before it.
    pub fn plain_load(&self) -> i64 {
        let mut v = 0;
        let id = self.o.id;
        self.o.w.plain(|st, me| {
            if let ObjKind::Atomic { value, .. } = &st.objs[id].kind {
                v = *value;
            }
            let race = var::check(st, me, id, Kind::plain(false), true)?;
            Some((race, say!(st, "reads {}", st.oname(id))))
        });
        v
    }

    /// A plain access of the atomic's memory that leaves its value alone: a copy of
    /// the struct holding it reads it, an assignment to that struct writes it.
    pub(crate) fn plain_access(&self, writes: bool) {
        var::access(&self.o.w, self.o.id, writes);
    }

    /// A plain write of the atomic's variable (`n = 0` beside atomic accesses).
    pub fn plain_store(&self, x: i64) {
        let id = self.o.id;
        self.o.w.plain(|st, me| {
            if let Some(race) = var::check(st, me, id, Kind::plain(true), true) {
                return Some((race, say!(st, "writes {}", st.oname(id))));
            }
            if let ObjKind::Atomic { value, .. } = &mut st.objs[id].kind {
                *value = x;
            }
            None
        });
    }

    /// `Load()`.
    pub fn load(&self) -> i64 {
        self.run(Op::Load)
    }

    /// `Store(x)`.
    pub fn store(&self, x: i64) {
        self.run(Op::Store(x));
    }

    /// `Add(d)`: the new value.
    pub fn add(&self, d: i64) -> i64 {
        self.run(Op::Add(d))
    }

    /// `Swap(x)`: the old value.
    pub fn swap(&self, x: i64) -> i64 {
        self.run(Op::Swap(x))
    }

    /// `CompareAndSwap(old, new)`: whether it swapped.
    pub fn compare_and_swap(&self, old: i64, new: i64) -> bool {
        self.run(Op::CompareAndSwap(old, new)) == 1
    }

    /// One operation on a value of any type kept elsewhere (`atomic.Value`): `f` does it
    /// and says whether it changed the value, which then counts one more version here
    /// (so a goroutine polling `Load` sees the world change). `what` is the step's text.
    /// `at`: the plain location the value is kept in, if the race detector checks it
    /// (a kernel's `unsafe.Pointer` variable for `LoadPointer(&p)`). The operation is
    /// done before the check; a race ends the execution there. `store`: it only writes
    /// (a `Store`, not a `Swap`), and orders as an atomic store does (`Op::hb`).
    pub(crate) fn step<R>(
        &self,
        what: &str,
        at: Option<&Plain>,
        store: bool,
        mut f: impl FnMut() -> (R, bool),
    ) -> R {
        let o = &self.o;
        // Done once: an attempt that found a race is attempted again when races do
        // not stop the execution (`World::step`), and must not do it twice.
        let mut done: Option<(R, bool)> = None;
        o.w.op(&[o], |st, me| {
            let (r, changed) = done.take().unwrap_or_else(&mut f);
            let name = st.label(o.id);
            let text = say!(st, "atomic {name}: {what}");
            let hb = match (changed, store) {
                (false, _) => Hb::Acquire,
                (true, true) => Hb::Store,
                (true, false) => Hb::Sync,
            };
            st.hb = hb;
            if let Some(race) = on_location(st, me, at, hb) {
                done = Some((r, changed));
                return Attempt::Fail(race, text);
            }
            if changed && let ObjKind::Atomic { value, .. } = &mut st.objs[o.id].kind {
                *value = value.wrapping_add(1);
            }
            Attempt::Done(r, text)
        })
    }

    /// One operation on a value kept elsewhere (a kernel's plain variable, for
    /// `atomic.AddInt64(&n, 1)`), ordered through this atomic's object, which all such
    /// variables share: `read` gives the value, `write` takes the new one.
    pub(crate) fn run_on(
        &self,
        op: Op,
        what: &str,
        at: Option<&Plain>,
        read: impl Fn() -> i64,
        write: impl Fn(i64),
    ) -> i64 {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let mut v = read();
            let (r, _) = op.apply(&mut v);
            let name = st.label(o.id);
            let text = say!(st, "atomic {name}: {what}");
            if let Some(race) = on_location(st, me, at, op.hb(r)) {
                return Attempt::Fail(race, text);
            }
            if op.writes(r) {
                write(v);
            }
            Attempt::Done(r, text)
        })
    }
}
