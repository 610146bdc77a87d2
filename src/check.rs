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

use crate::explore::{Engine, ModelFn};
use crate::go::Go;
use crate::model::{Build, Model, Params, Variant};
use crate::runner;
use crate::scenario::{EngineSpec, Expect, Scenario};
use crate::{Explored, TimeMode};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

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

fn scenario(cfg: &Config, f: ModelFn) -> Scenario {
    let model: &'static Model = Box::leak(Box::new(Model {
        name: "check",
        summary: "a closure given to stalemate::check",
        origin: "a closure given to stalemate::check",
        variants: &[Variant {
            name: "main",
            doc: "the closure",
        }],
        params: &[],
        properties: &[],
        main: Build::Func(f),
        network: None,
    }));
    Scenario {
        path: "stalemate::check".into(),
        name: "check".into(),
        description: String::new(),
        model,
        variant: "main".into(),
        params: Params(BTreeMap::new()),
        expect: Expect::Pass,
        engines: vec![EngineSpec {
            engine: cfg.engine.clone(),
            iterations: cfg.iterations,
            split: crate::engine::DPOR_SPLIT,
        }],
        max_steps: cfg.max_steps,
        time_limit: cfg.time_limit,
        check_races: cfg.check_races,
        time: cfg.time,
        threads: 1,
        part: None,
        replay_flags: String::new(),
    }
}

/// The report with its last line made the Rust call that replays it.
fn with_replay_call(report: &str, token: &str) -> String {
    let body = report.rsplit_once('\n').map_or(report, |(b, _)| b);
    format!("{body}\n  stalemate::check::replay(config, \"{token}\", main)")
}

/// Explores `main` under `cfg`. Panics with the full report if it finds a violation
/// (deadlock, leak, fault, race, a broken `go.check`) or if the engine fails;
/// otherwise prints and returns what was explored.
pub fn check(cfg: Config, main: impl Fn(&Go) + Send + Sync + 'static) -> Explored {
    let s = scenario(&cfg, Arc::new(main));
    let r = runner::run_engine(&s, 1, None);
    if let Some(e) = r.error {
        panic!("stalemate: {} failed: {e}", cfg.engine.describe());
    }
    if let Some(f) = &r.found {
        panic!("{}", with_replay_call(&f.report, &f.token));
    }
    if r.verdict == runner::Verdict::Incomplete {
        panic!("stalemate: {}: {}", cfg.engine.describe(), r.coverage());
    }
    println!("stalemate: pass, {}", r.coverage());
    r.explored
}

/// Replays the execution a `check` report names and returns its report; panics if
/// the closure no longer follows the schedule (it changed since).
pub fn replay(cfg: Config, token: &str, main: impl Fn(&Go) + Send + Sync + 'static) -> String {
    let s = scenario(&cfg, Arc::new(main));
    let r = runner::replay(&s, token).unwrap_or_else(|e| panic!("stalemate: {e}"));
    let report = with_replay_call(&r.report, token);
    assert!(r.reproduced, "the replay diverged:\n{report}");
    report
}
