//! dpor's runtime: each goroutine a coroutine on the exploring thread, run one at a time
//! in the order the explorer chooses. A goroutine runs until its next scheduling point
//! (the world's, between two operations), until it blocks (parks, or joins one not
//! finished) or until it returns; there the explorer decides who goes next
//! (`Dpor::decide`), on the goroutine's own stack, and only a change of goroutine
//! switches stacks.
//!
//! Why not shuttle's runtime, which dpor ran on before: the explorer needs none of what
//! shuttle keeps per task and per step (vector clocks, signatures, labels, names, spans),
//! and paid for it at every step; see docs/benchmarks.md, "The engines' own cost per execution". The points
//! where the explorer decides are the ones it decided at under shuttle, so every count
//! is what it was.

use super::{Dpor, RT, explorer::Explorer};
use crate::engine::{Body, Budget, Explored, Stop, panic_text};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

type Co = Coroutine<(), (), (), DefaultStack>;

/// A goroutine's function, run on its coroutine.
type Func = Box<dyn FnOnce()>;

/// The most scheduling points one execution may take: a backstop behind the world's
/// own step bound (`[bounds] max_steps`), which ends an execution long before.
const MAX_POINTS: u64 = 1_000_000;

std::thread_local! {
    /// The scheduler of the exploration running on this thread.
    static SCHED: RefCell<Option<Dpor>> = const { RefCell::new(None) };
    /// The goroutine running (its place in `Rt::gs`).
    static CURRENT: Cell<usize> = const { Cell::new(0) };
    /// The goroutine to run next, as decided by the one that switched away.
    static NEXT: Cell<Option<usize>> = const { Cell::new(None) };
    /// The running coroutine's handle for switching away.
    static YIELDER: Cell<*const Yielder<(), ()>> = const { Cell::new(std::ptr::null()) };
    /// Goroutines started and not yet given a coroutine.
    static FRESH: RefCell<Vec<(usize, Func)>> = const { RefCell::new(Vec::new()) };
    /// Stacks of finished coroutines, for the next ones (a stack is an `mmap`).
    static STACKS: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
    /// Scheduling points taken this execution.
    static POINTS: Cell<u64> = const { Cell::new(0) };
}

/// The running goroutine's place in `Rt::gs`.
pub(crate) fn current() -> usize {
    CURRENT.with(Cell::get)
}

/// Asks the scheduler who runs next; `current` has just reached a point (`between`:
/// the world's, between two operations) or blocked or returned.
fn decide(current: Option<usize>, between: bool) -> Option<usize> {
    let n = POINTS.with(|p| {
        p.set(p.get() + 1);
        p.get()
    });
    if n > MAX_POINTS {
        panic!(
            "dpor: more than {MAX_POINTS} scheduling points in one execution (the world's step bound should have ended it)"
        );
    }
    with_sched(|d| d.decide(current, between)).expect("a dpor exploration runs")
}

/// The running goroutine's scheduling point: it goes on, or another goroutine runs
/// until the explorer chooses this one again.
pub(crate) fn switch(between: bool) {
    let me = current();
    let next = decide(Some(me), between);
    if next == Some(me) {
        return;
    }
    NEXT.with(|n| n.set(next));
    let y = YIELDER.with(Cell::get);
    // SAFETY: `y` is the yielder of the coroutine running this code, set when it
    // started and restored after every switch (other coroutines set theirs).
    unsafe { (*y).suspend(()) };
    YIELDER.with(|c| c.set(y));
}

/// `f` on the scheduler of the exploration running on this thread, if one runs (asked
/// between scheduling points, never while it decides: `super::settle`).
pub(crate) fn with_sched<R>(f: impl FnOnce(&mut Dpor) -> R) -> Option<R> {
    SCHED.with(|s| s.borrow_mut().as_mut().map(f))
}

/// A choice among `n` alternatives, made by the explorer.
pub(crate) fn choose(n: usize) -> usize {
    with_sched(|d| d.choose(n)).unwrap_or(0)
}

/// Starts goroutine `f` as a child of the running one; returns its place.
pub(crate) fn spawn(f: Func) -> usize {
    let parent = current();
    let i = RT.with(|rt| rt.borrow_mut().start(Some(parent)));
    FRESH.with(|q| q.borrow_mut().push((i, f)));
    i
}

/// Blocks the running goroutine until `unpark` gives it a token (at once if it has
/// one); never spuriously.
pub(crate) fn park() {
    let me = current();
    let wait = RT.with(|rt| {
        let g = &mut rt.borrow_mut().gs[me];
        if g.tokens == 0 {
            g.waiting = true;
            g.run = false;
        }
        g.waiting
    });
    if wait {
        switch(true);
    }
    RT.with(|rt| rt.borrow_mut().gs[me].tokens -= 1);
}

/// Gives goroutine `t` a token, waking it if it is parked. No scheduling point: nothing
/// can see that it is runnable before the next one.
pub(crate) fn unpark(t: usize) {
    RT.with(|rt| {
        let g = &mut rt.borrow_mut().gs[t];
        g.tokens += 1;
        if std::mem::take(&mut g.waiting) {
            g.run = true;
        }
    });
}

/// Waits for goroutine `t` to return (it is known to be finishing).
pub(crate) fn join(t: usize) {
    let me = current();
    let wait = RT.with(|rt| {
        let rt = &mut *rt.borrow_mut();
        if rt.gs[t].done {
            return false;
        }
        rt.gs[t].joiner = Some(me);
        rt.gs[me].run = false;
        true
    });
    if wait {
        switch(false);
    }
}

/// The goroutine at `t` has returned: it runs no more, and whoever joins it goes on.
fn finished(t: usize) {
    RT.with(|rt| {
        let rt = &mut *rt.borrow_mut();
        let g = &mut rt.gs[t];
        g.done = true;
        g.run = false;
        g.next = None;
        g.taken = false;
        g.woken = false;
        if let Some(j) = g.joiner.take() {
            rt.gs[j].run = true;
        }
    });
}

/// A coroutine for goroutine `i`, on a stack from the pool.
fn coroutine(i: usize, f: Func) -> Result<Co, String> {
    let stack = match STACKS.with(|s| s.borrow_mut().pop()) {
        Some(s) => s,
        None => DefaultStack::new(crate::engine::STACK_BYTES)
            .map_err(|e| format!("dpor: no stack for a goroutine: {e}"))?,
    };
    Ok(Co::with_stack(stack, move |y: &Yielder<(), ()>, ()| {
        YIELDER.with(|c| c.set(y as *const _));
        f();
        finished(i);
    }))
}

/// The coroutines of the running execution. Those left suspended when it ends (an
/// engine error) are reset, not unwound: what is on their stacks is leaked, as shuttle
/// leaks a stopped execution's, and their stacks go back to the pool.
struct Cos(Vec<Option<Co>>);

impl Drop for Cos {
    fn drop(&mut self) {
        for mut co in self.0.drain(..).flatten() {
            if !co.done() {
                // SAFETY: the coroutine never runs again; nothing on its stack is
                // dropped (leaked), so nothing refers into it afterwards.
                unsafe { co.force_reset() };
            }
            STACKS.with(|s| s.borrow_mut().push(co.into_stack()));
        }
    }
}

/// Runs one execution: `body` as main, then whoever the explorer chooses, until no
/// goroutine can run.
fn execution(body: Func) -> Result<(), String> {
    POINTS.with(|p| p.set(0));
    FRESH.with(|q| q.borrow_mut().clear());
    let main = RT.with(|rt| rt.borrow_mut().start(None));
    let mut cos = Cos(vec![Some(coroutine(main, body)?)]);
    let mut next = decide(None, false);
    while let Some(t) = next {
        // Drained, not taken: the queue keeps its room.
        FRESH.with(|q| -> Result<(), String> {
            for (i, f) in q.borrow_mut().drain(..) {
                if cos.0.len() <= i {
                    cos.0.resize_with(i + 1, || None);
                }
                cos.0[i] = Some(coroutine(i, f)?);
            }
            Ok(())
        })?;
        CURRENT.with(|c| c.set(t));
        let co = cos.0[t]
            .as_mut()
            .expect("a goroutine chosen has a coroutine");
        match co.resume(()) {
            CoroutineResult::Yield(()) => next = NEXT.with(Cell::take),
            CoroutineResult::Return(()) => {
                let co = cos.0[t].take().expect("it ran");
                STACKS.with(|s| s.borrow_mut().push(co.into_stack()));
                next = decide(Some(t), false);
            }
        }
    }
    let left = RT.with(|rt| rt.borrow().gs.iter().filter(|g| !g.done).count());
    if left > 0 {
        return Err(format!(
            "dpor: deadlock, {left} goroutine(s) blocked with none runnable"
        ));
    }
    Ok(())
}

/// Runs `sched`'s exploration until a violation, exhaustion or the budget; `started`
/// counts executions across the threads that share the budget. The same contract as
/// `shuttle_engine::run`, which dpor ran on before; also gives back the explorer.
pub(crate) fn run(
    sched: Dpor,
    budget: &Budget,
    body: Body,
    started: Option<Arc<AtomicU64>>,
) -> (Result<Explored, String>, Explorer) {
    SCHED.with(|s| *s.borrow_mut() = Some(sched));
    let mut executions = 0u64;
    let r = catch_unwind(AssertUnwindSafe(|| -> Result<Stop, String> {
        loop {
            let started_now = started.as_ref().map_or(executions, |s| s.load(SeqCst));
            if started_now >= budget.max_executions {
                return Ok(Stop::Iterations);
            }
            if std::time::Instant::now() >= budget.deadline {
                return Ok(Stop::Time);
            }
            let go = with_sched(Dpor::new_execution).expect("set");
            if !go {
                return Ok(Stop::Exhausted);
            }
            executions += 1;
            if let Some(s) = &started {
                s.fetch_add(1, SeqCst);
            }
            let found = std::rc::Rc::new(Cell::new(false));
            let (f, b, i) = (found.clone(), body.clone(), executions);
            execution(Box::new(move || f.set(b(i))))?;
            if found.get() {
                return Ok(Stop::Found);
            }
        }
    }));
    let sched = SCHED.with(|s| s.borrow_mut().take()).expect("set");
    let r = match r {
        Ok(Ok(stop)) => Ok(Explored::new(executions, stop)),
        Ok(Err(e)) => Err(e),
        Err(p) => Err(format!("dpor stopped: {}", panic_text(&*p))),
    };
    (r, sched.into_explorer())
}

#[cfg(test)]
mod tests {
    use super::super::{Dpor, On};
    use super::Explorer;
    use crate::engine::{Body, Budget, Stop};
    use std::sync::{Arc, Mutex};

    fn explore(body: Body) -> Result<crate::engine::Explored, String> {
        let _on = On::new();
        let budget = Budget {
            max_executions: 1_000,
            deadline: std::time::Instant::now() + std::time::Duration::from_secs(60),
        };
        super::run(Dpor::new(Explorer::new()), &budget, body, None).0
    }

    #[test]
    fn a_join_waits_for_the_goroutine_and_an_unpark_wakes_it() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let l = log.clone();
        let r = explore(Arc::new(move |i| {
            let lc = l.clone();
            let child = super::spawn(Box::new(move || {
                super::park();
                lc.lock().unwrap().push((i, "child"));
            }));
            super::switch(true);
            super::unpark(child);
            super::join(child);
            l.lock().unwrap().push((i, "main"));
            false
        }))
        .expect("no engine error");
        assert_eq!(r.stop, Stop::Exhausted);
        assert!(r.executions >= 1);
        let log = log.lock().unwrap();
        // Every execution: the child's step, then main's after its join.
        let want: Vec<(u64, &str)> = (1..=r.executions)
            .flat_map(|i| [(i, "child"), (i, "main")])
            .collect();
        assert_eq!(*log, want);
    }

    #[test]
    fn a_goroutine_left_blocked_is_an_engine_error_and_the_runtime_goes_on() {
        let r = explore(Arc::new(|_| {
            super::spawn(Box::new(super::park));
            false
        }));
        assert_eq!(
            r.unwrap_err(),
            "dpor: deadlock, 1 goroutine(s) blocked with none runnable"
        );
        // The suspended goroutine's stack went back to the pool, reset: the next
        // exploration on this thread runs.
        let r = explore(Arc::new(|_| {
            let c = super::spawn(Box::new(|| {}));
            super::join(c);
            true
        }))
        .expect("no engine error");
        assert_eq!((r.executions, r.stop), (1, Stop::Found));
    }
}
