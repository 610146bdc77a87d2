//! Go's concurrency primitives, with Go's semantics under every engine.
//!
//! A model receives a [`Go`] handle and uses it the way Go code uses the runtime:
//! `go.go("reflector", |go| ...)` starts a goroutine, `go.mutex("Cacher.mu")` makes a
//! named mutex. Every goroutine and primitive has a name; reports speak in those names.
//!
//! ```
//! use stalemate::explore::{explore, Bounds, Engine};
//! use stalemate::verdict::Property;
//! use std::sync::Arc;
//!
//! // A worker sends on an unbuffered channel nobody receives from, then main waits.
//! let main = Arc::new(|go: &stalemate::go::Go| {
//!     let (ch, wg) = (go.chan::<u32>("results", 0), go.waitgroup("wg"));
//!     wg.add(1);
//!     let (ch2, wg2) = (ch.clone(), wg.clone());
//!     go.go("worker", move |_| {
//!         ch2.send(1); // buggy: main never receives
//!         wg2.done();
//!     });
//!     wg.wait();
//! });
//! let o = explore(&Engine::Dpor, &Bounds::default(), main, None).unwrap();
//! let found = o.finding.expect("the deadlock");
//! assert_eq!(found.violation().property, Property::Deadlock);
//! ```

mod atomic;
mod chan;
mod poll;
mod sync;
mod time;
mod var;

pub use atomic::{Atomic, Op as AtomicOp};
pub use chan::{Chan, Fired, Select, TryRecv};
pub use poll::PollLoop;
pub use sync::{Cond, Locker, Mutex, Once, RwMutex, WaitGroup};
pub use time::{Ticker, Timer};
pub use var::{Data, Plain, Var};

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
        let (id, point) = self.w.add_object(name, kind);
        Arc::new(Obj {
            w: self.w.clone(),
            id,
            point,
        })
    }

    /// This model shares memory that the race detector does not check (see
    /// `World::unchecked_memory`); call it before the first operation.
    pub(crate) fn unchecked_memory(&self) {
        self.w.unchecked_memory();
    }

    /// See `World::raced_memory`.
    pub(crate) fn raced_memory(&self) {
        self.w.raced_memory();
    }

    /// `go f()`: starts a named goroutine.
    pub fn go(&self, name: &str, f: impl FnOnce(Go) + Send + 'static) {
        self.go_id(name, f);
    }

    /// `go`, returning the new goroutine's number.
    pub(crate) fn go_id(&self, name: &str, f: impl FnOnce(Go) + Send + 'static) -> usize {
        let g = self.clone();
        self.w.go(name, Box::new(move || f(g)))
    }

    /// A goroutine of the library's own holds these objects (and nothing else the
    /// model made): what it reaches, for the leak rule (`State::holds`).
    pub(crate) fn holds(&self, g: usize, objs: Vec<usize>) {
        self.w.lock().holds.insert(g, objs);
    }

    /// Tells the world what the model's goroutines reach (`State::reach`).
    pub(crate) fn set_reach(&self, r: crate::world::Reach) {
        self.w.lock().reach = Some(r);
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

    /// `rand.Intn(n)`: one of `0..n`, chosen by the engine as a select's case is: every
    /// value under an exhaustive engine, drawn from the seed under random and PCT, the
    /// recorded one in a replay. It is a step of its own that touches no object, so it
    /// commutes with every other goroutine's steps. Panics if `n` is 0 (as Go's does).
    pub fn rand(&self, n: usize) -> usize {
        assert!(n > 0, "invalid argument to Intn");
        let kind = self.w.kind;
        let all: Vec<usize> = (0..n).collect();
        self.w.op(&[], |st, me| match st.choose(kind, me, &all) {
            Ok(v) => {
                st.observe(me, v as u128);
                crate::world::Attempt::Done(v, crate::world::say!(st, "rand.Intn({n}) = {v}"))
            }
            Err(d) => {
                crate::world::Attempt::Fail(d, crate::world::say!(st, "rand.Intn({n}): diverged"))
            }
        })
    }

    /// Adds a line to the trace (an etcd error, a watch window expiring): something
    /// the model decided that is no Go operation. Not a scheduling point.
    pub fn note(&self, text: impl Into<String>) {
        let text = text.into();
        self.w
            .op(&[], |_, _| crate::world::Attempt::Done((), text.clone()));
    }

    /// A polling loop's head (see `World::poll`): `fresh` on its first round.
    pub(crate) fn poll(
        &self,
        site: u64,
        fresh: bool,
        local: impl FnOnce() -> u128,
        name: impl FnOnce() -> String,
    ) {
        self.w.poll(site, fresh, local, name);
    }

    /// The model cannot go on (a Go kernel met what the interpreter cannot do): a
    /// `crash`, never a finding.
    /// The execution ran past a bound of its own (a kernel's statement count):
    /// handled as the step bound is (`AtMaxSteps`).
    pub(crate) fn past_bound(&self, message: String) -> ! {
        self.w.past_bound(message)
    }

    pub(crate) fn crash(&self, message: String) -> ! {
        self.w.crash(message)
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
