//! Exhaustive exploration with loom.
//!
//! loom has no "stop" call, so the runner stops it by unwinding out of the main thread
//! at a point where no other thread exists any more: before the first spawn (budget
//! spent) or after every thread has been joined (violation found). Nothing is ever
//! blocked when that unwind happens, so loom never aborts the process.

use super::{Body, Budget, Explored, Stop, panic_text};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

/// loom's knobs, as the scenario gives them.
#[derive(Clone, Debug)]
pub(crate) struct LoomConfig {
    pub preemption_bound: Option<usize>,
    pub max_branches: usize,
}

struct Halt(Stop);

pub(crate) fn explore(cfg: &LoomConfig, budget: &Budget, body: Body) -> Result<Explored, String> {
    let count = Arc::new(AtomicU64::new(0));
    let mut builder = loom::model::Builder::new();
    builder.max_threads = super::LOOM_MAX_THREADS;
    builder.preemption_bound = cfg.preemption_bound;
    builder.max_branches = cfg.max_branches;
    builder.max_permutations = None;
    builder.max_duration = None;
    builder.checkpoint_file = None;
    let (c, b) = (count.clone(), budget.clone());
    let run = catch_unwind(AssertUnwindSafe(|| {
        builder.check(move || {
            let i = c.fetch_add(1, SeqCst) + 1;
            if i > b.max_executions {
                resume_unwind(Box::new(Halt(Stop::Iterations)));
            }
            if std::time::Instant::now() >= b.deadline {
                resume_unwind(Box::new(Halt(Stop::Time)));
            }
            if body(i) {
                resume_unwind(Box::new(Halt(Stop::Found)));
            }
        })
    }));
    let executions = count.load(SeqCst);
    match run {
        Ok(()) => Ok(Explored::new(executions, Stop::Exhausted)),
        Err(p) => match p.downcast::<Halt>() {
            Ok(h) => {
                let executions = if h.0 == Stop::Found {
                    executions
                } else {
                    executions - 1
                };
                Ok(Explored::new(executions, h.0))
            }
            Err(p) => Err(format!("loom stopped: {}", panic_text(&*p))),
        },
    }
}
