//! A plain `#[test]` API, in the style of `loom::model` and `shuttle::check_random`:
//!
//! ```no_run
//! stalemate::check::check(stalemate::check::Config::default(), |go| {
//!     let (a, b) = (go.mutex("A"), go.mutex("B"));
//!     let (a2, b2) = (a.clone(), b.clone());
//!     go.go("worker", move |_| {
//!         a2.lock();
//!         b2.lock();
//!         b2.unlock();
//!         a2.unlock();
//!     });
//!     b.lock();
//!     a.lock();
//!     a.unlock();
//!     b.unlock();
//! });
//! ```
//!
//! A violation panics with the full report, whose last line is the `replay` call that
//! reproduces it; a pass prints and returns what was explored.

use crate::explore::{self, Bounds, Engine};
use crate::go::Go;
use crate::report::Header;
use crate::runner::{EngineRun, Origin, Verdict};
use crate::schedule::Token;
use crate::{Explored, TimeMode};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Everything `check` can be told. `Config::default()` is `dpor`, stalemate's own
/// exhaustive engine: a pass then is a proof, for the closure as written. loom stays
/// as a second, independent engine (`Engine::Loom { preemption_bound: None, .. }`).
///
/// ```
/// use stalemate::check::Config;
/// use stalemate::explore::Engine;
/// let cfg = Config::default().engine(Engine::Pct { seed: 7, depth: 3 }).iterations(2_000);
/// assert_eq!(cfg.iterations, 2_000);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// The engine and its settings (`Engine::Pct { seed, depth }` for big models).
    pub engine: Engine,
    /// Executions (schedules) at most.
    pub iterations: u64,
    /// Go operations per execution at most.
    pub max_steps: usize,
    /// Wall-clock budget for the exploration.
    pub time_limit: Duration,
    /// Report unordered accesses to `go.var` variables as `data-race`.
    pub check_races: bool,
    /// How timers and sleeps are placed among the other steps.
    pub time: TimeMode,
}

impl Config {
    /// Sets [`Config::engine`].
    pub fn engine(mut self, engine: Engine) -> Config {
        self.engine = engine;
        self
    }
    /// Sets [`Config::iterations`].
    pub fn iterations(mut self, n: u64) -> Config {
        self.iterations = n;
        self
    }
    /// Sets [`Config::max_steps`].
    pub fn max_steps(mut self, n: usize) -> Config {
        self.max_steps = n;
        self
    }
    /// Sets [`Config::time_limit`].
    pub fn time_limit(mut self, d: Duration) -> Config {
        self.time_limit = d;
        self
    }
    /// Sets [`Config::check_races`].
    pub fn check_races(mut self, on: bool) -> Config {
        self.check_races = on;
        self
    }
    /// Sets [`Config::time`].
    pub fn time(mut self, mode: TimeMode) -> Config {
        self.time = mode;
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            engine: Engine::Dpor,
            iterations: 1_000_000,
            max_steps: 10_000,
            time_limit: Duration::from_secs(600),
            check_races: true,
            time: TimeMode::Any,
        }
    }
}

impl Config {
    /// The explorer's bounds.
    fn bounds(&self) -> Bounds {
        Bounds::default()
            .max_executions(self.iterations)
            .max_steps(self.max_steps)
            .time_limit(self.time_limit)
            .check_races(self.check_races)
            .time(self.time)
    }

    /// Where a `check` report comes from; its replay line is the Rust call.
    fn origin(&self) -> Origin<'_> {
        Origin {
            header: Box::new(|execution| self.header(execution)),
            replay: Box::new(replay_call),
            graph: "check".into(),
        }
    }

    /// A report's header: a closure has no scenario, model or parameters of its own.
    fn header(&self, execution: u64) -> Header {
        Header {
            scenario: "check".into(),
            path: PATH.into(),
            model: "check".into(),
            variant: "main".into(),
            engine: format!("{}, execution {execution}", self.engine.describe()),
            params: Vec::new(),
            bounds: format!(
                "iterations {}, max_steps {}, time_limit_secs {}",
                self.iterations,
                self.max_steps,
                self.time_limit.as_secs()
            ),
        }
    }
}

/// Where a `check` report says it comes from.
const PATH: &str = "stalemate::check";

/// A `check` report's replay line: the Rust call that replays it.
fn replay_call(token: &str) -> String {
    format!("stalemate::check::replay(config, \"{token}\", main)")
}

/// Explores `main` under `cfg`. Panics with the full report if it finds a violation
/// (deadlock, leak, fault, race, a broken `go.check`) or if the engine fails;
/// otherwise prints and returns what was explored.
pub fn check(cfg: Config, main: impl Fn(&Go) + Send + Sync + 'static) -> Explored {
    let t = Instant::now();
    let o = explore::explore(&cfg.engine, &cfg.bounds(), Arc::new(main), None)
        .unwrap_or_else(|e| panic!("stalemate: {} failed: {e}", cfg.engine.describe()));
    if let Some(f) = &o.finding {
        panic!("{}", cfg.origin().found(1, f).report);
    }
    let run = EngineRun {
        engine: cfg.engine.clone(),
        explored: o.explored,
        found: None,
        also: Vec::new(),
        error: None,
        elapsed: t.elapsed(),
        verdict: Verdict::Ok,
        shared: o.shared,
        regrouped: o.regrouped,
    };
    if run.explored.executions == 0 {
        panic!("stalemate: {}: {}", cfg.engine.describe(), run.coverage());
    }
    println!("stalemate: pass, {}", run.coverage());
    run.explored
}

/// Replays the execution a `check` report names and returns its report; panics if
/// the closure no longer follows the schedule (it changed since).
pub fn replay(cfg: Config, token: &str, main: impl Fn(&Go) + Send + Sync + 'static) -> String {
    let t = Token::decode(token).unwrap_or_else(|e| panic!("stalemate: {e}"));
    if t.engine != 1 {
        panic!(
            "stalemate: schedule `{token}` names engine {} but {PATH} has 1 engine(s)",
            t.engine
        );
    }
    let r = cfg
        .origin()
        .replay(Arc::new(main), &t, &cfg.bounds())
        .unwrap_or_else(|e| panic!("stalemate: {e}"));
    assert!(r.reproduced, "the replay diverged:\n{}", r.report);
    r.report
}
