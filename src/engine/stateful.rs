//! Depth-first search with a set of visited states (SPIN's search, on shuttle).
//!
//! `dfs` explores every schedule; many of them are one state reached by different
//! orders (two critical sections that touch different data, taken in either order).
//! Here each new scheduling point asks the world for its state's fingerprint
//! (`world::print`); a state met before has had every one of its futures explored, so
//! the execution stops there (as loom's sleep sets stop a redundant one, through
//! `redundant`) and the search backtracks. Sound for everything a state decides:
//! deadlocks, leaks, faults, races, model properties. The search replays each path
//! from the start, as `dfs` does, and asks for fingerprints only past the replayed part.

use super::dfs::Dfs;
use super::{Body, Budget, Explored};
use shuttle::scheduler::{Schedule, Scheduler, Task, TaskId};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// `shuttle-stateful`: `dfs` that stops wherever it meets a state it has explored.
pub(crate) fn explore(budget: &Budget, body: Body) -> Result<Explored, String> {
    let states = Arc::new(AtomicU64::new(0));
    let _on = On::new();
    let mut e =
        super::shuttle_engine::run(Stateful::new(states.clone()), true, budget, body, None)?;
    e.states = Some(states.load(Relaxed));
    Ok(e)
}

/// The set's keys are fingerprints already: hashing them again is wasted work.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    fn write_u128(&mut self, x: u128) {
        self.0 = x as u64;
    }
}

pub(crate) struct Stateful {
    dfs: Dfs,
    seen: HashSet<u128, BuildHasherDefault<Spread>>,
    /// The running execution met a visited state: it only winds down from here.
    cut: bool,
    /// `seen.len()`, for the report.
    states: Arc<AtomicU64>,
}

impl Stateful {
    pub(crate) fn new(states: Arc<AtomicU64>) -> Stateful {
        Stateful {
            dfs: Dfs::default(),
            seen: HashSet::default(),
            cut: false,
            states,
        }
    }

    fn set_cut(&mut self, cut: bool) {
        self.cut = cut;
        super::CUT.with(|c| c.set(cut));
        super::BETWEEN.with(|b| b.set(false));
    }
}

impl Scheduler for Stateful {
    fn new_execution(&mut self) -> Option<Schedule> {
        self.set_cut(false);
        self.dfs.new_execution()
    }

    fn next_task(
        &mut self,
        runnable: &[&Task],
        current: Option<TaskId>,
        yielding: bool,
    ) -> Option<TaskId> {
        if self.cut {
            // Nothing past a cut is a decision: the first goroutine to run unwinds.
            return Some(runnable[0].id());
        }
        let between = super::BETWEEN.with(|b| b.replace(false));
        if between
            && self.dfs.fresh()
            && let Some(s) = super::state()
        {
            if !self.seen.insert(s) {
                self.set_cut(true);
                return Some(runnable[0].id());
            }
            self.states.store(self.seen.len() as u64, Relaxed);
        }
        self.dfs.next_task(runnable, current, yielding)
    }

    fn next_u64(&mut self) -> u64 {
        if self.cut {
            return 0;
        }
        self.dfs.next_u64()
    }
}

/// Marks the running thread's explorations as stateful while it lives.
pub(crate) struct On;

impl On {
    pub(crate) fn new() -> On {
        super::STATEFUL.with(|s| s.set(true));
        On
    }
}

impl Drop for On {
    fn drop(&mut self) {
        super::STATEFUL.with(|s| s.set(false));
        super::CUT.with(|c| c.set(false));
    }
}
