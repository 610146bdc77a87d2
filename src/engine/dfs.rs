//! Depth-first search over every schedule and every choice.
//!
//! shuttle's own `DfsScheduler` enumerates schedules but not data: its `next_u64` gives
//! the same fixed values in every execution. Here a choice (a select among ready cases)
//! is one more level of the search, with as many branches as it has alternatives, so
//! the search is exhaustive over both.

use super::{Body, Budget, Explored};
use shuttle::scheduler::{Schedule, Scheduler, Task, TaskId};

/// `shuttle-dfs`: every schedule and every choice, with no reduction.
pub(crate) fn explore(budget: &Budget, body: Body) -> Result<Explored, String> {
    super::shuttle_engine::run(Dfs::default(), true, budget, body, None)
}

#[derive(Debug, Default)]
pub(crate) struct Dfs {
    /// One entry per decision of the current path: (alternative taken, alternatives).
    levels: Vec<(usize, usize)>,
    /// The decision the current execution is at.
    depth: usize,
    started: bool,
}

impl Dfs {
    /// The next decision is past the path being replayed: a new one.
    pub(crate) fn fresh(&self) -> bool {
        self.depth >= self.levels.len()
    }

    /// The next decision: the path's own while it is being replayed, else the first
    /// alternative of a new level.
    fn decide(&mut self, options: usize) -> usize {
        let d = self.depth;
        self.depth += 1;
        if d < self.levels.len() {
            let (taken, n) = self.levels[d];
            assert_eq!(n, options, "the model is not deterministic");
            taken
        } else {
            self.levels.push((0, options));
            0
        }
    }
}

impl Scheduler for Dfs {
    fn new_execution(&mut self) -> Option<Schedule> {
        if self.started {
            // Advance the deepest level that has an alternative left; drop those below.
            while let Some((taken, n)) = self.levels.last_mut() {
                if *taken + 1 < *n {
                    *taken += 1;
                    break;
                }
                self.levels.pop();
            }
            if self.levels.is_empty() {
                return None;
            }
        }
        self.started = true;
        self.depth = 0;
        Some(Schedule::new(0))
    }

    fn next_task(
        &mut self,
        runnable: &[&Task],
        _current: Option<TaskId>,
        _yielding: bool,
    ) -> Option<TaskId> {
        let i = self.decide(runnable.len());
        Some(runnable[i].id())
    }

    fn next_u64(&mut self) -> u64 {
        match super::arity() {
            0 => 0,
            n => self.decide(n) as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two binary decisions then a ternary one give 2 × 2 × 3 paths, in order.
    #[test]
    fn enumerates_every_path_once() {
        let mut d = Dfs::default();
        let mut seen = Vec::new();
        while d.new_execution().is_some() {
            let a = d.decide(2);
            let b = d.decide(2);
            let c = d.decide(3);
            seen.push((a, b, c));
        }
        assert_eq!(seen.len(), 12);
        assert_eq!(seen[0], (0, 0, 0));
        assert_eq!(seen[11], (1, 1, 2));
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, seen);
    }
}
