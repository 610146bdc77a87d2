//! Running a model under an engine. A found bug is a value, not a crash.

use crate::engine::{self, Budget, Explored, Kind, Stop};
use crate::go::Go;
use crate::world::{Execution, Gid, Options, World};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A model closed over its variant and parameters: the body of main.
pub type ModelFn = Arc<dyn Fn(&Go) + Send + Sync>;

/// An engine with its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Engine {
    /// Exhaustive (DPOR). `preemption_bound: None` explores every interleaving.
    Loom {
        preemption_bound: Option<usize>,
        max_branches: usize,
    },
    /// Uniformly random schedules from a seed.
    Random { seed: u64 },
    /// Probabilistic concurrency testing from a seed, bug depth `depth`.
    Pct { seed: u64, depth: usize },
    /// Shuttle's depth-first search (no partial-order reduction).
    Dfs,
}

impl Engine {
    /// The name used in scenario files.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Engine::Loom { .. } => "loom",
            Engine::Random { .. } => "shuttle-random",
            Engine::Pct { .. } => "shuttle-pct",
            Engine::Dfs => "shuttle-dfs",
        }
    }

    /// Every setting, for reports and summaries.
    pub fn describe(&self) -> String {
        match self {
            Engine::Loom {
                preemption_bound,
                max_branches,
            } => {
                let b = preemption_bound.map_or("none".to_string(), |b| b.to_string());
                format!("loom (preemption bound {b}, max branches {max_branches})")
            }
            Engine::Random { seed } => format!("shuttle-random (seed {seed})"),
            Engine::Pct { seed, depth } => format!("shuttle-pct (seed {seed}, depth {depth})"),
            Engine::Dfs => "shuttle-dfs".to_string(),
        }
    }

    /// Only an exhaustive engine with no bound can call a pass a proof.
    pub fn proves(&self) -> bool {
        matches!(
            self,
            Engine::Loom {
                preemption_bound: None,
                ..
            }
        )
    }
}

/// Bounds on one exploration. Every exploration is bounded in steps and in time.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    /// Executions (schedules) at most.
    pub max_executions: u64,
    /// Steps (Go operations) per execution at most.
    pub max_steps: usize,
    /// Wall-clock budget for the whole exploration; checked between executions.
    pub time_limit: Duration,
    /// Report unordered accesses to plain variables (`go.var`) as `data-race`.
    pub check_races: bool,
}

/// A violating execution.
pub struct Finding {
    /// Which execution (from 1) found it.
    pub execution: u64,
    pub(crate) run: Execution,
}

impl Finding {
    pub fn violation(&self) -> &crate::report::Violation {
        self.run
            .violation
            .as_ref()
            .expect("a finding has a violation")
    }

    /// The goroutine of each step: the schedule a replay follows.
    pub fn schedule(&self) -> Vec<Gid> {
        self.run.steps.iter().map(|s| s.gid).collect()
    }
}

/// What an exploration returns.
pub struct Outcome {
    pub explored: Explored,
    pub finding: Option<Finding>,
    /// Groups of objects that shared one loom point (see `shared_points`).
    pub shared: Vec<Vec<String>>,
}

/// Which objects share one loom point, from one pilot execution.
///
/// A select touches the point of every channel it names, and each touch is a loom
/// scheduling point; nothing happens between them, but loom's DPOR still orders the
/// other goroutines' steps against each one. Channels that a select names together get
/// one point instead: one scheduling point per select, at the cost of ordering their
/// other operations against each other too (measured: the status-manager proof at the
/// deadlock's parameters went from over 8 million executions, unfinished, to 552,195).
/// This only decides which operations loom may treat as independent, never what they
/// do; an operation on objects of different groups touches each group's point, so any
/// grouping is sound and the pilot only has to be a good guess.
fn shared_points(model: &ModelFn, bounds: &Bounds) -> Result<Vec<Vec<String>>, String> {
    let joint: Arc<Mutex<BTreeSet<Vec<String>>>> = Arc::default();
    let (j, model, b) = (joint.clone(), model.clone(), bounds.clone());
    let body: engine::Body = Arc::new(move |_| {
        let opts = Options {
            record_joint: true,
            ..options(&b, None, Arc::default())
        };
        let run = run_one(Kind::Shuttle, &model, opts);
        *j.lock().unwrap() = run.joint;
        false
    });
    let budget = Budget {
        max_executions: 1,
        deadline: Instant::now() + bounds.time_limit,
    };
    let pilot = engine::shuttle_engine::Strategy::Random { seed: 0 };
    engine::shuttle_engine::explore(&pilot, &budget, body)?;
    // Union-find over names; each group is listed in name order.
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn root(p: &BTreeMap<String, String>, mut n: String) -> String {
        while let Some(q) = p.get(&n).filter(|q| **q != n) {
            n = q.clone();
        }
        n
    }
    for names in joint.lock().unwrap().iter() {
        for n in names {
            parent.entry(n.clone()).or_insert_with(|| n.clone());
        }
        let r0 = root(&parent, names[0].clone());
        for n in &names[1..] {
            let r = root(&parent, n.clone());
            if r != r0 {
                parent.insert(r, r0.clone());
            }
        }
    }
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for n in parent.keys() {
        groups
            .entry(root(&parent, n.clone()))
            .or_default()
            .push(n.clone());
    }
    Ok(groups.into_values().filter(|g| g.len() > 1).collect())
}

fn options(
    bounds: &Bounds,
    replay: Option<Vec<Gid>>,
    shared: Arc<BTreeMap<String, usize>>,
) -> Options {
    Options {
        max_steps: bounds.max_steps,
        check_races: bounds.check_races,
        replay,
        shared,
        record_joint: false,
    }
}

fn run_one(kind: Kind, model: &ModelFn, opts: Options) -> Execution {
    let w = World::new(kind, opts);
    let go = Go { w: w.clone() };
    w.run_root(|| model(&go))
}

/// Explores the model with one engine until a violation, exhaustion or the bounds.
/// `progress`, if given, counts executions as they start (for a progress bar).
pub fn explore(
    engine: &Engine,
    bounds: &Bounds,
    model: ModelFn,
    progress: Option<Arc<AtomicU64>>,
) -> Result<Outcome, String> {
    engine::init();
    let slot: Arc<Mutex<Option<Finding>>> = Arc::new(Mutex::new(None));
    let kind = match engine {
        Engine::Loom { .. } => Kind::Loom,
        _ => Kind::Shuttle,
    };
    // Only loom's DPOR reads points as conflicts; shuttle's schedulers stay as they are.
    let shared = match kind {
        Kind::Loom => shared_points(&model, bounds)?,
        Kind::Shuttle => Vec::new(),
    };
    let by_name: BTreeMap<String, usize> = shared
        .iter()
        .enumerate()
        .flat_map(|(i, g)| g.iter().map(move |n| (n.clone(), i)))
        .collect();
    let by_name = Arc::new(by_name);
    let (s, b) = (slot.clone(), bounds.clone());
    let body: engine::Body = Arc::new(move |i| {
        if let Some(p) = &progress {
            p.fetch_add(1, Relaxed);
        }
        let run = run_one(kind, &model, options(&b, None, by_name.clone()));
        let found = run.violation.is_some();
        if found {
            *s.lock().unwrap() = Some(Finding { execution: i, run });
        }
        found
    });
    let budget = Budget {
        max_executions: bounds.max_executions,
        deadline: Instant::now() + bounds.time_limit,
    };
    let explored = match engine {
        Engine::Loom {
            preemption_bound,
            max_branches,
        } => {
            let cfg = engine::loom_engine::LoomConfig {
                preemption_bound: *preemption_bound,
                max_branches: *max_branches,
            };
            engine::loom_engine::explore(&cfg, &budget, body)?
        }
        Engine::Random { seed } => engine::shuttle_engine::explore(
            &engine::shuttle_engine::Strategy::Random { seed: *seed },
            &budget,
            body,
        )?,
        Engine::Pct { seed, depth } => engine::shuttle_engine::explore(
            &engine::shuttle_engine::Strategy::Pct {
                seed: *seed,
                depth: *depth,
            },
            &budget,
            body,
        )?,
        Engine::Dfs => {
            engine::shuttle_engine::explore(&engine::shuttle_engine::Strategy::Dfs, &budget, body)?
        }
    };
    let finding = slot.lock().unwrap().take();
    debug_assert_eq!(finding.is_some(), explored.stop == Stop::Found);
    Ok(Outcome {
        explored,
        finding,
        shared,
    })
}

/// Runs the model once, forcing the given schedule (one goroutine per step). The
/// result is the same execution the schedule was recorded from, or a `diverged`
/// violation saying where the model stopped following it.
pub fn replay(model: ModelFn, schedule: Vec<Gid>, bounds: &Bounds) -> Result<Finding, String> {
    let b = bounds.clone();
    engine::init();
    let slot: Arc<Mutex<Option<Execution>>> = Arc::new(Mutex::new(None));
    let s = slot.clone();
    let body: engine::Body = Arc::new(move |_| {
        let run = run_one(
            Kind::Shuttle,
            &model,
            options(&b, Some(schedule.clone()), Arc::default()),
        );
        *s.lock().unwrap() = Some(run);
        true
    });
    let budget = Budget {
        max_executions: 1,
        deadline: Instant::now() + Duration::from_secs(3600),
    };
    engine::shuttle_engine::explore(
        &engine::shuttle_engine::Strategy::Random { seed: 0 },
        &budget,
        body,
    )?;
    let run = slot
        .lock()
        .unwrap()
        .take()
        .ok_or("the replay did not run")?;
    Ok(Finding { execution: 0, run })
}
