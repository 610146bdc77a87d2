//! `sync/atomic`: each access is one Go operation on its value's object, which orders
//! it with the value's other accesses (Go's memory model: atomics are sequentially
//! consistent, and one that observes another is synchronised after it). No access to an
//! atomic is a data race.

use super::{Go, Obj};
use crate::world::say;
use crate::world::{Attempt, ObjKind};
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
            o: self.obj(name, ObjKind::Atomic { value: init }),
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

impl Atomic {
    /// One operation on the value this atomic holds.
    pub fn run(&self, op: Op) -> i64 {
        let o = &self.o;
        o.w.op(&[o], |st, _| {
            let ObjKind::Atomic { value } = &mut st.objs[o.id].kind else {
                unreachable!("an atomic's object")
            };
            let (r, what) = op.apply(value);
            let name = st.label(o.id);
            Attempt::Done(r, say!(st, "atomic {name}: {what}"))
        })
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
    pub(crate) fn step<R>(&self, what: &str, mut f: impl FnMut() -> (R, bool)) -> R {
        let o = &self.o;
        o.w.op(&[o], |st, _| {
            let (r, changed) = f();
            if changed && let ObjKind::Atomic { value } = &mut st.objs[o.id].kind {
                *value = value.wrapping_add(1);
            }
            let name = st.label(o.id);
            Attempt::Done(r, say!(st, "atomic {name}: {what}"))
        })
    }

    /// One operation on a value kept elsewhere (a kernel's plain variable, for
    /// `atomic.AddInt64(&n, 1)`), ordered through this atomic's object, which all such
    /// variables share: `read` gives the value, `write` takes the new one.
    pub(crate) fn run_on(
        &self,
        op: Op,
        what: &str,
        read: impl Fn() -> i64,
        write: impl Fn(i64),
    ) -> i64 {
        let o = &self.o;
        o.w.op(&[o], |st, _| {
            let mut v = read();
            let (r, _) = op.apply(&mut v);
            // Writes as the operation does: not a load, nor a swap that did not happen.
            let failed_swap = matches!(op, Op::CompareAndSwap(..)) && r == 0;
            if op != Op::Load && !failed_swap {
                write(v);
            }
            let name = st.label(o.id);
            Attempt::Done(r, say!(st, "atomic {name}: {what}"))
        })
    }
}
