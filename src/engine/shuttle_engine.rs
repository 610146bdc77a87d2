//! shuttle's runtime under a scheduler of ours: random and PCT here, `dfs` and
//! `stateful` beside this file.
//!
//! The runner wraps the chosen scheduler so that it can stop the run without a panic:
//! once an execution has found a violation, or the budget is spent, `new_execution`
//! answers `None` and shuttle returns.

use super::{Body, Budget, Explored, Stop, panic_text};
use shuttle::scheduler::{PctScheduler, RandomScheduler, Schedule, Scheduler, Task, TaskId};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

#[derive(Default)]
struct Progress {
    executions: u64,
    stop: Option<Stop>,
    /// Most tasks ever runnable at once: a program that never has two has one schedule
    /// (and PCT refuses to run it twice).
    most_runnable: usize,
    /// Most alternatives of any choice (a select's ready cases).
    most_choices: usize,
}

struct Bounded<S> {
    /// Never dropped: shuttle's RandomScheduler prints a "failing seed" banner from its
    /// Drop whenever a run stops early, which is how every run that finds a bug stops
    /// here; our report already ends with the replay command. Leaks a few bytes a run.
    inner: std::mem::ManuallyDrop<S>,
    budget: Budget,
    progress: Arc<Mutex<Progress>>,
    /// The scheduler enumerates choices itself (DFS): it also says when it is done.
    explores_data: bool,
    /// Executions started by every runner sharing the budget (threads of one
    /// exploration), if not only this one.
    started: Option<Arc<AtomicU64>>,
}

impl<S: Scheduler> Scheduler for Bounded<S> {
    fn new_execution(&mut self) -> Option<Schedule> {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if p.stop.is_some() {
            return None;
        }
        // A DFS knows when it is done; the others are told here.
        let data_only = p.executions > 0 && p.most_runnable < 2 && !self.explores_data;
        if data_only && p.most_choices < 2 {
            p.stop = Some(Stop::Exhausted);
            return None;
        }
        let started = self
            .started
            .as_ref()
            .map_or(p.executions, |s| s.load(SeqCst));
        if started >= self.budget.max_executions {
            p.stop = Some(Stop::Iterations);
            return None;
        }
        if std::time::Instant::now() >= self.budget.deadline {
            p.stop = Some(Stop::Time);
            return None;
        }
        if data_only {
            // One schedule, several choices: only the data varies, and it comes from
            // the scheduler's seeded generator, which goes on from where it was.
            p.executions += 1;
            return Some(Schedule::new(0));
        }
        match self.inner.new_execution() {
            Some(s) => {
                p.executions += 1;
                if let Some(s) = &self.started {
                    s.fetch_add(1, SeqCst);
                }
                Some(s)
            }
            None => {
                p.stop = Some(Stop::Exhausted);
                None
            }
        }
    }

    fn next_task(
        &mut self,
        runnable: &[&Task],
        current: Option<TaskId>,
        yielding: bool,
    ) -> Option<TaskId> {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        p.most_runnable = p.most_runnable.max(runnable.len());
        drop(p);
        self.inner.next_task(runnable, current, yielding)
    }

    fn next_u64(&mut self) -> u64 {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        p.most_choices = p.most_choices.max(super::arity());
        drop(p);
        self.inner.next_u64()
    }
}

/// The inner scheduler gets one iteration more than the budget so that "budget
/// spent" and "scheduler exhausted" stay distinguishable.
fn schedules(budget: &Budget) -> usize {
    usize::try_from(budget.max_executions.saturating_add(1)).unwrap_or(usize::MAX)
}

/// `shuttle-random`: uniformly random schedules and choices from `seed`.
pub(crate) fn random(seed: u64, budget: &Budget, body: Body) -> Result<Explored, String> {
    let sched = RandomScheduler::new_from_seed(seed, schedules(budget));
    run(sched, false, budget, body, None)
}

/// `shuttle-pct`: probabilistic concurrency testing from `seed`, bug depth `depth`.
pub(crate) fn pct(
    seed: u64,
    depth: usize,
    budget: &Budget,
    body: Body,
) -> Result<Explored, String> {
    let sched = PctScheduler::new_from_seed(seed, depth, schedules(budget));
    run(sched, false, budget, body, None)
}

/// Runs `inner` under shuttle until a violation, exhaustion or the budget; `started`
/// counts executions across the runners that share the budget.
pub(crate) fn run<S: Scheduler + 'static>(
    inner: S,
    explores_data: bool,
    budget: &Budget,
    body: Body,
    started: Option<Arc<AtomicU64>>,
) -> Result<Explored, String> {
    let progress = Arc::new(Mutex::new(Progress::default()));
    let sched = Bounded {
        inner: std::mem::ManuallyDrop::new(inner),
        budget: budget.clone(),
        progress: progress.clone(),
        explores_data,
        started,
    };
    let mut config = shuttle::Config::new();
    config.stack_size = super::STACK_BYTES;
    config.failure_persistence = shuttle::FailurePersistence::None;
    config.silence_warnings = true;
    config.max_steps = shuttle::MaxSteps::FailAfter(1_000_000);
    let p = progress.clone();
    let runner = shuttle::Runner::new(sched, config);
    let r = catch_unwind(AssertUnwindSafe(move || {
        runner.run(move || {
            let i = p.lock().unwrap().executions;
            if body(i) {
                p.lock().unwrap().stop = Some(Stop::Found);
            }
        })
    }));
    let p = progress.lock().unwrap_or_else(|e| e.into_inner());
    match r {
        Ok(_) => Ok(Explored::new(
            p.executions,
            p.stop.clone().unwrap_or(Stop::Exhausted),
        )),
        Err(e) => Err(format!("shuttle stopped: {}", panic_text(&*e))),
    }
}
