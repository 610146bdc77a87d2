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

impl Atomic {
    /// One operation on the value: `f` gets it to read and change, and says the step.
    fn op<R>(&self, f: impl Fn(&mut i64) -> (R, String)) -> R {
        let o = &self.o;
        o.w.op(&[o], |st, _| {
            let ObjKind::Atomic { value } = &mut st.objs[o.id].kind else {
                unreachable!("an atomic's object")
            };
            let (r, what) = f(value);
            let name = st.label(o.id);
            Attempt::Done(r, say!(st, "atomic {name}: {what}"))
        })
    }

    /// `Load()`.
    pub fn load(&self) -> i64 {
        self.op(|v| (*v, format!("load {v}")))
    }

    /// `Store(x)`.
    pub fn store(&self, x: i64) {
        self.op(|v| {
            *v = x;
            ((), format!("store {x}"))
        })
    }

    /// `Add(d)`: the new value.
    pub fn add(&self, d: i64) -> i64 {
        self.op(|v| {
            *v = v.wrapping_add(d);
            (*v, format!("add {d} (now {v})"))
        })
    }

    /// `Swap(x)`: the old value.
    pub fn swap(&self, x: i64) -> i64 {
        self.op(|v| {
            let old = std::mem::replace(v, x);
            (old, format!("swap {x} (was {old})"))
        })
    }

    /// `CompareAndSwap(old, new)`: whether it swapped.
    pub fn compare_and_swap(&self, old: i64, new: i64) -> bool {
        self.op(|v| {
            if *v == old {
                *v = new;
                (true, format!("compare-and-swap {old} -> {new}"))
            } else {
                (
                    false,
                    format!("compare-and-swap {old} -> {new}: is {v}, no swap"),
                )
            }
        })
    }

    /// Runs `f` as one operation on this atomic's object: the functions of `sync/atomic`
    /// on a plain variable (`atomic.AddInt64(&n, 1)`) keep the value where it is and
    /// order their accesses through one object shared by all such variables.
    pub(crate) fn with<R>(&self, what: &str, f: impl Fn() -> R) -> R {
        self.op(|_| (f(), what.to_string()))
    }
}
