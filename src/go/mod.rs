//! Go's concurrency primitives, with Go's semantics under every engine.
//!
//! A model receives a [`Go`] handle and uses it the way Go code uses the runtime:
//! `go.go("reflector", |go| ...)` starts a goroutine, `go.mutex("Cacher.mu")` makes a
//! named mutex. Every goroutine and primitive has a name; reports speak in those names.

mod chan;
mod sync;
mod time;
mod var;

pub use chan::{Chan, Fired, Select, TryRecv};
pub use sync::{Cond, Locker, Mutex, Once, RwMutex, WaitGroup};
pub use time::Ticker;
pub use var::{Data, Var};

use crate::world::World;
use std::sync::Arc;

/// The handle a model's goroutines use to reach the runtime.
#[derive(Clone)]
pub struct Go {
    pub(crate) w: Arc<World>,
}

pub(crate) use crate::world::Obj;

impl Go {
    pub(crate) fn obj(&self, name: &str, kind: crate::world::ObjKind) -> Arc<Obj> {
        let id = self.w.add(name, kind);
        Arc::new(Obj {
            w: self.w.clone(),
            id,
            point: self.w.point(name),
        })
    }

    /// This model shares memory that the race detector does not check (see
    /// `World::unchecked_memory`); call it before the first operation.
    pub(crate) fn unchecked_memory(&self) {
        self.w.unchecked_memory();
    }

    /// `go f()`: starts a named goroutine.
    pub fn go(&self, name: &str, f: impl FnOnce(Go) + Send + 'static) {
        let g = self.clone();
        self.w.go(name, Box::new(move || f(g)));
    }

    /// Marks the model function the goroutine is in until the guard drops; reports
    /// name it ("reflector in Cacher.startCaching > WatchCache.Replace").
    pub fn func(&self, name: &'static str) -> Func {
        self.w.enter(name);
        Func { w: self.w.clone() }
    }

    /// Moves the innermost function mark to `place` (a Go kernel's current line), so
    /// steps and wait-for edges cite it. Not a scheduling point.
    pub(crate) fn at(&self, place: &'static str) {
        self.w.relabel(place);
    }

    /// The execution's step bound (`[bounds] max_steps`).
    pub(crate) fn step_bound(&self) -> usize {
        self.w.lock().max_steps
    }

    /// Adds a line to the trace (an etcd error, a watch window expiring): something
    /// the model decided that is no Go operation. Not a scheduling point.
    pub fn note(&self, text: impl Into<String>) {
        let text = text.into();
        self.w
            .op(&[], |_, _| crate::world::Attempt::Done((), text.clone()));
    }

    /// Checks a named model property; a false `ok` fails the execution with `message`.
    pub fn check(&self, property: &str, ok: bool, message: impl FnOnce() -> String) {
        if !ok {
            self.w.violate(property, message());
        }
    }
}

/// Leaves a model function when dropped.
pub struct Func {
    w: Arc<World>,
}

impl Drop for Func {
    fn drop(&mut self) {
        self.w.leave();
    }
}
