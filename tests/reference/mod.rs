//! What the dpor test crates share: their bounds, the reference engines' censuses and
//! the comparisons against them, and the select servers their models use.

#![allow(dead_code)] // each test crate compiles this module; not every one uses all

use crate::common::unwaited;
use stalemate::explore::{Bounds, Census, Engine, ModelFn, census};
use stalemate::go::{Chan, Go};
use std::sync::Arc;
use std::time::Duration;

pub fn bounds() -> Bounds {
    Bounds::default()
        .check_races(true)
        .time(Default::default())
        .max_executions(2_000_000)
        .max_steps(400)
        .time_limit(Duration::from_secs(300))
}

/// `n` milliseconds: a timer's or a sleep's duration.
pub fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// The value a select received in its first case, `None` for any other case.
pub fn first_value(f: &mut stalemate::go::Fired) -> Option<u8> {
    if f.index == Some(0) {
        f.take::<u8>()
    } else {
        None
    }
}

/// Main's server: two rounds of `select { case v := <-c0: case v := <-c1: }`, noting
/// each, stopping at a zero value (a closed channel).
pub fn serve(go: &Go, c0: &Chan<u8>, c1: &Chan<u8>) {
    for _ in 0..2 {
        let mut f = go.select().recv(c0).recv(c1).wait();
        let got = f.take::<u8>();
        go.note(format!("served {:?} got {got:?}", f.index));
        if got.is_none() {
            break;
        }
    }
}

pub fn loom() -> Engine {
    Engine::Loom {
        preemption_bound: None,
        max_branches: 10_000,
    }
}

pub fn run(engine: &Engine, model: ModelFn) -> Census {
    run_in(engine, &bounds(), model)
}

/// `run` under bounds `b`.
pub fn run_in(engine: &Engine, b: &Bounds, model: ModelFn) -> Census {
    let c = census(engine, b, model).expect("ran");
    assert_eq!(c.explored.stop, stalemate::Stop::Exhausted, "{engine:?}");
    c
}

/// What DFS reaches on `model`, as a goroutine can tell outcomes apart (`unwaited`).
pub fn same_as_dfs(model: ModelFn) -> (Census, Census) {
    same_as_dfs_in(&bounds(), model)
}

/// `same_as_dfs` under bounds `b` (virtual time, say).
pub fn same_as_dfs_in(b: &Bounds, model: ModelFn) -> (Census, Census) {
    let dfs = run_in(&Engine::Dfs, b, model.clone());
    let dpor = run_in(&Engine::Dpor, b, model);
    assert_eq!(dfs.violations, dpor.violations);
    assert_eq!(unwaited(&dfs.outcomes), unwaited(&dpor.outcomes));
    (dfs, dpor)
}

/// `same_as_dfs_in` with loom as the reference, for models DFS takes too long on:
/// the same violations, no outcome of loom's lost, and the same outcomes.
pub fn same_as_loom_in(b: &Bounds, model: ModelFn) -> (Census, Census) {
    let l = run_in(&loom(), b, model.clone());
    let d = run_in(&Engine::Dpor, b, model);
    assert_eq!(l.violations, d.violations);
    let (lo, dp) = (unwaited(&l.outcomes), unwaited(&d.outcomes));
    for o in lo.difference(&dp) {
        eprintln!("LOST:\n{o}");
    }
    let lost = lo.difference(&dp).count();
    assert_eq!(lost, 0, "dpor lost outcomes loom reaches");
    assert_eq!(lo, dp);
    eprintln!(
        "{} outcomes; dpor {} executions, loom {}",
        dp.len(),
        d.explored.executions,
        l.explored.executions
    );
    (l, d)
}

/// Main serving twice in a select over `c0` and `c1`, noting what it got.
pub fn serve_twice(go: &Go, c0: &Chan<u8>, c1: &Chan<u8>) {
    for _ in 0..2 {
        let mut f = go.select().recv(c0).recv(c1).wait();
        let i = f.index;
        go.note(format!("served {i:?} got {:?}", f.take::<u8>()));
    }
}

/// Whether some outcome of census `c` (as goroutines tell them apart) contains every
/// one of `needles`.
pub fn reaches(c: &stalemate::explore::Census, needles: &[&str]) -> bool {
    unwaited(&c.outcomes)
        .iter()
        .any(|o| needles.iter().all(|n| o.contains(n)))
}

/// Main serving twice in a select over `c0` (unbuffered) and `c1` (capacity 1); `g1`
/// sends on `c0` then `c1`, `g2` receives from `c0`, `g3` sends on `c1` then `c0`: the
/// program on which a plain send taken as a half at a buffer lost two of loom's
/// outcomes (the fan campaign of seed 20261205).
pub fn sends_around_a_server() -> ModelFn {
    Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |_| {
            a0.send(10);
            a1.send(11);
        });
        let b0 = c0.clone();
        go.go("g2", move |go| {
            let v = b0.recv();
            go.note(format!("got {v:?}"));
        });
        let (d0, d1) = (c0.clone(), c1.clone());
        go.go("g3", move |_| {
            d1.send(30);
            d0.send(31);
        });
        serve_twice(go, &c0, &c1);
    })
}

/// What a fan-in's selects wait beside (`fan_in_beside_a_buffer`).
#[derive(Clone, Copy)]
pub enum Beside {
    /// A quit channel of capacity 1 nobody sends on.
    Quit,
    /// A `time.After` made before the loop, which may fire at any step.
    After,
    /// A `time.NewTimer`'s channel, likewise.
    NewTimer,
    /// A quit channel of capacity 1 a goroutine of its own sends on.
    Sent,
}

/// A fan-in to main's selects, each with a case at an unbuffered channel of a worker's
/// and one at a buffered channel (`beside`).
pub fn fan_in_beside_a_buffer(n: usize, beside: Beside) -> ModelFn {
    fan_in_to_selects(n, 0, false, move |go| match beside {
        Beside::Quit => go.chan::<()>("quit", 1),
        Beside::After => go.after("timeout", Duration::from_millis(20)),
        Beside::NewTimer => go.timer("timeout", Duration::from_millis(20)).c.clone(),
        Beside::Sent => {
            let q = go.chan::<()>("quit", 1);
            let s = q.clone();
            go.go("quitter", move |_| s.send(()));
            q
        }
    })
}

/// Main receiving from n workers, each sending into a channel of capacity `cap` of
/// its own, in selects beside `quit`, until one takes quit's case (then, unbuffered,
/// from the rest plainly); a goroutine of its own closes quit when `closer`.
pub fn fan_in_to_selects(
    n: usize,
    cap: usize,
    closer: bool,
    quit: impl Fn(&Go) -> Chan<()> + Send + Sync + 'static,
) -> ModelFn {
    Arc::new(move |go: &Go| {
        let quit = quit(go);
        let chans: Vec<Chan<usize>> = (0..n).map(|i| go.chan(&format!("ch{i}"), cap)).collect();
        for (i, c) in chans.iter().enumerate() {
            let c = c.clone();
            go.go(&format!("w{i}"), move |_| c.send(i));
        }
        if closer {
            let q = quit.clone();
            go.go("cancel", move |_| q.close());
        }
        let mut got = Vec::new();
        for c in &chans {
            let mut f = go.select().recv(c).recv(&quit).wait();
            match f.index {
                Some(0) => got.push(f.take::<usize>().unwrap_or(0)),
                _ => break,
            }
        }
        go.note(format!("got {got:?}"));
        // Unbuffered, the workers main left behind would leak: it takes their values,
        // so that each behaviour is an outcome of its own.
        if cap == 0 {
            for c in &chans[got.len()..] {
                c.recv();
            }
        }
    })
}

/// Dpor's executions and the expanded search's traces under `b`, asserting that dpor
/// misses none of the traces the expanded search runs to their end, nor runs one it
/// does not.
pub fn every_trace(b: &Bounds, model: ModelFn) -> (u64, usize) {
    let all = stalemate::explore::traces(b, model.clone(), true).expect("ran");
    let d = stalemate::explore::traces(b, model, false).expect("ran");
    assert_eq!(all.explored.stop, stalemate::Stop::Exhausted);
    assert_eq!(d.explored.stop, stalemate::Stop::Exhausted);
    let missed = |a: &stalemate::explore::Traces, b: &stalemate::explore::Traces| {
        (a.traces.iter())
            .filter(|t| !b.traces.contains(t) && !b.stopped.contains(t))
            .count()
    };
    assert_eq!(
        missed(&all, &d),
        0,
        "a trace of the expanded search's missed"
    );
    assert_eq!(
        missed(&d, &all),
        0,
        "a trace the expanded search does not run"
    );
    (d.explored.executions, all.traces.len())
}
