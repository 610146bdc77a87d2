//! Running a model under an engine. A found bug is a value, not a crash.

use crate::engine::{self, Budget, Explored, Kind, Stop, loom_engine};
use crate::error::Error;
use crate::go::Go;
use crate::net;
use crate::world::{AtMaxSteps, Execution, Options, TimeMode, Turn, World};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A model closed over its variant and parameters: the body of main.
pub type ModelFn = Arc<dyn Fn(&Go) + Send + Sync>;

pub use crate::engine::{Engine, KINDS};

/// Bounds on one exploration. Every exploration is bounded in steps and in time.
///
/// Built from [`Bounds::default`] and the setters, one per field:
///
/// ```
/// use stalemate::explore::Bounds;
/// let b = Bounds::default().max_executions(5_000).time(stalemate::TimeMode::Any);
/// assert_eq!((b.max_executions, b.max_steps), (5_000, 10_000));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Bounds {
    /// Executions (schedules) at most.
    pub max_executions: u64,
    /// Steps (Go operations) per execution at most.
    pub max_steps: usize,
    /// What an execution that reaches `max_steps` becomes: cut, the search going on
    /// (a search that cut any is no proof), or a `violation:step-bound`.
    pub at_max_steps: AtMaxSteps,
    /// Wall-clock budget for the whole exploration; checked between executions.
    pub time_limit: Duration,
    /// Report unordered accesses to plain variables (`go.var`) as `data-race`.
    pub check_races: bool,
    /// Go on past a violation and report the first execution of each kind reached
    /// (`Outcome::also`), as Go's race detector goes on past a race.
    pub all: bool,
    /// How timers, tickers and sleeps are placed among the other steps.
    pub time: TimeMode,
    /// Threads one `dpor` exploration runs on. Its count, verdict and finding do not
    /// depend on them (`engine::dpor`'s units).
    pub threads: usize,
    /// Explore only part `k` (from 0) of `n` of the tree (`dpor`): with the other
    /// parts, run elsewhere, it is the whole exploration.
    pub part: Option<(u32, u32)>,
    /// `dpor`: the decision points above the units its tree is cut into, for threads
    /// and parts to share. The count depends on it (each level above the units
    /// explores every goroutine's step, most of them ending at once, asleep); the
    /// verdict does not. Deeper cuts share a tree whose work lies deep more evenly.
    pub split: u32,
}

impl Bounds {
    /// Sets [`Bounds::max_executions`].
    pub fn max_executions(mut self, n: u64) -> Bounds {
        self.max_executions = n;
        self
    }
    /// Sets [`Bounds::max_steps`].
    pub fn max_steps(mut self, n: usize) -> Bounds {
        self.max_steps = n;
        self
    }
    /// Sets [`Bounds::at_max_steps`].
    pub fn at_max_steps(mut self, at: AtMaxSteps) -> Bounds {
        self.at_max_steps = at;
        self
    }
    /// Sets [`Bounds::time_limit`].
    pub fn time_limit(mut self, d: Duration) -> Bounds {
        self.time_limit = d;
        self
    }
    /// Sets [`Bounds::all`].
    pub fn all(mut self, on: bool) -> Bounds {
        self.all = on;
        self
    }
    /// Sets [`Bounds::check_races`].
    pub fn check_races(mut self, on: bool) -> Bounds {
        self.check_races = on;
        self
    }
    /// Sets [`Bounds::time`].
    pub fn time(mut self, mode: TimeMode) -> Bounds {
        self.time = mode;
        self
    }
    /// Sets [`Bounds::threads`].
    pub fn threads(mut self, n: usize) -> Bounds {
        self.threads = n;
        self
    }
    /// Sets [`Bounds::part`]: part `k` (from 0) of `n`.
    pub fn part(mut self, k: u32, n: u32) -> Bounds {
        self.part = Some((k, n));
        self
    }
    /// Sets [`Bounds::split`].
    pub fn split(mut self, depth: u32) -> Bounds {
        self.split = depth;
        self
    }
}

impl Default for Bounds {
    /// 100,000 executions of at most 10,000 steps in 60 s, races reported, virtual
    /// time, one thread, the whole tree.
    fn default() -> Bounds {
        Bounds {
            max_executions: 100_000,
            max_steps: 10_000,
            at_max_steps: AtMaxSteps::Cut,
            time_limit: Duration::from_secs(60),
            check_races: true,
            all: false,
            time: TimeMode::default(),
            threads: 1,
            part: None,
            split: engine::DPOR_SPLIT,
        }
    }
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

    /// The goroutine (and chosen case) of each step: the schedule a replay follows.
    pub fn schedule(&self) -> Vec<Turn> {
        self.run
            .steps
            .iter()
            .map(|s| Turn {
                gid: s.gid,
                case: s.case,
            })
            .collect()
    }
}

/// What an exploration returns.
pub struct Outcome {
    pub explored: Explored,
    pub finding: Option<Finding>,
    /// Groups of objects that shared one loom point (see `engine::loom_engine::groups`).
    pub shared: Vec<Vec<String>>,
    /// Executions run by each loom exploration that was abandoned and started again
    /// with larger groups (see `engine::loom_engine::groups`); `explored` is the last one alone.
    pub regrouped: Vec<u64>,
    /// With [`Bounds::all`]: the first execution of each other kind of violation
    /// reached, in the order of their executions (`finding` is the first of all).
    pub also: Vec<Finding>,
}

/// Every execution of an exploration that does not stop at a violation: what the
/// differential test compares between engines.
#[derive(Debug)]
pub struct Census {
    pub explored: Explored,
    /// One entry per distinct clean execution's outcome: each goroutine's steps, in
    /// its own order (which every equivalent interleaving shares).
    pub outcomes: BTreeSet<String>,
    /// The property key of every violation reached.
    pub violations: BTreeSet<String>,
    /// Under shuttle, the fingerprint of each clean execution's last state
    /// (`world::print`): what the stateful search must reach too.
    pub ends: BTreeSet<u128>,
    pub shared: Vec<Vec<String>>,
    pub regrouped: Vec<u64>,
}

fn options(
    bounds: &Bounds,
    replay: Option<Vec<Turn>>,
    shared: Arc<BTreeMap<String, usize>>,
) -> Options {
    Options {
        max_steps: bounds.max_steps,
        at_max_steps: bounds.at_max_steps,
        go_on: bounds.all,
        check_races: bounds.check_races,
        replay,
        shared,
        record_joint: false,
        census: false,
        time: bounds.time,
        quiet: false,
    }
}

fn run_one(kind: Kind, model: &ModelFn, opts: Options) -> Execution {
    let w = World::new(kind, opts);
    let go = Go { w: w.clone() };
    w.run_root(|| model(&go))
}

/// Called with each execution that ran to its end (numbered from 1); true stops.
type OnRun = Arc<dyn Fn(u64, Execution) -> bool + Send + Sync>;

/// What `drive` did: the last exploration, its groups, the abandoned ones.
struct Drove {
    explored: Explored,
    shared: Vec<Vec<String>>,
    regrouped: Vec<u64>,
}

/// Runs one engine over the model, starting loom again whenever its groups must grow.
/// A census (going on past violations) gives `restart`, called before each new start
/// to forget what the abandoned one saw.
fn drive(
    engine: &Engine,
    bounds: &Bounds,
    model: ModelFn,
    progress: Option<Arc<AtomicU64>>,
    on_run: OnRun,
    restart: Option<&dyn Fn()>,
    quiet: bool,
) -> Result<Drove, String> {
    engine::init();
    let kind = engine.runtime().ok_or(engine::TURMOIL_THREADS)?;
    // Only loom's DPOR reads points as conflicts; shuttle's schedulers stay as they are.
    // Loom's first execution learns the groups: it records every operation that names
    // objects of different points instead of abandoning at the first, and if it met
    // one, the exploration starts again with the groups it found (as the pilot
    // execution under shuttle once did, at the price of a shuttle run per search).
    let mut joints = BTreeSet::new();
    let mut learn = kind == Kind::Loom;
    let deadline = Instant::now() + bounds.time_limit;
    let mut regrouped = Vec::new();
    let census = restart.is_some();
    loop {
        let shared = loom_engine::groups(&joints);
        let by_name: BTreeMap<String, usize> = shared
            .iter()
            .enumerate()
            .flat_map(|(i, g)| g.iter().map(move |n| (n.clone(), i)))
            .collect();
        let by_name = Arc::new(by_name);
        let split: Arc<Mutex<Option<BTreeSet<Vec<String>>>>> = Arc::default();
        let cuts = Arc::new(AtomicU64::new(0));
        let cut = cuts.clone();
        let (b, m, p, on, sp) = (
            bounds.clone(),
            model.clone(),
            progress.clone(),
            on_run.clone(),
            split.clone(),
        );
        let body: engine::Body = Arc::new(move |i| {
            if let Some(p) = &p {
                p.fetch_add(1, Relaxed);
            }
            let first = learn && i == 1;
            let opts = Options {
                census,
                quiet,
                record_joint: first,
                ..options(&b, None, by_name.clone())
            };
            let mut run = run_one(kind, &m, opts);
            if run.regroup || (first && !run.joint.is_empty()) {
                *sp.lock().unwrap() = Some(std::mem::take(&mut run.joint));
                return true;
            }
            if run.pruned {
                return false;
            }
            // dpor counts the executions it counts (`engine::cut_run`); the others
            // count every one.
            if run.cut && kind == Kind::Dpor {
                engine::cut_run();
            } else if run.cut {
                cut.fetch_add(1, Relaxed);
            }
            on(i, run)
        });
        let spent: u64 = regrouped.iter().sum();
        let budget = Budget {
            max_executions: bounds.max_executions.saturating_sub(spent),
            deadline,
        };
        let sharing = engine::Sharing {
            threads: bounds.threads,
            part: bounds.part,
            split: bounds.split,
        };
        let mut explored = engine.explore(sharing, &budget, body)?;
        explored.cut += cuts.load(Relaxed);
        let Some(new) = split.lock().unwrap().take() else {
            return Ok(Drove {
                explored,
                shared,
                regrouped,
            });
        };
        // A regroup that only the learning execution asked for is not a restart to
        // report: its groups are the first guess (`loom_engine::groups`).
        if !(learn && explored.executions == 1) {
            regrouped.push(explored.executions);
        }
        learn = false;
        joints.extend(new);
        // Groups only grow; a restart that would not grow them would run forever.
        let grown = loom_engine::groups(&joints);
        if grown == shared {
            return Err(format!(
                "loom's point groups do not settle: an operation spans objects that already share a group ({})",
                grown
                    .iter()
                    .map(|g| g.join(", "))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        if regrouped.len() > loom_engine::MAX_RESTARTS {
            return Err(format!(
                "loom's point groups did not settle after {} restarts; run this model under shuttle-dfs or dpor",
                loom_engine::MAX_RESTARTS
            ));
        }
        if let Some(r) = restart {
            r();
        }
    }
}

/// Joins, as one more thread, a `dpor` exploration under way in this process that
/// this thread has not joined yet (`joined` keeps those it has); false if there is
/// none. For a thread with nothing else to do: the exploration's result is the same.
pub fn help(joined: &mut Vec<u64>) -> bool {
    engine::dpor::help(joined)
}

pub use crate::engine::turmoil_engine::{NetOutcome, SimRun, difference};

/// Runs a model's network side under turmoil, one simulation per seed, until a
/// property breaks or the seeds or the time limit run out. `plan_of` gives each seed's
/// fault plan.
pub fn explore_net(
    s: &net::Settings,
    bounds: &Bounds,
    model: &net::NetFn,
    plan_of: &dyn Fn(u64) -> net::FaultPlan,
    progress: Option<Arc<AtomicU64>>,
) -> NetOutcome {
    engine::turmoil_engine::explore(
        s,
        bounds.max_executions,
        bounds.time_limit,
        model,
        plan_of,
        progress,
    )
}

/// One simulation: seed `seed` with `plan`.
pub fn simulate(s: &net::Settings, seed: u64, plan: &net::FaultPlan, model: &net::NetFn) -> SimRun {
    engine::turmoil_engine::simulate(s, seed, plan, model)
}

/// Explores the model with one engine until a violation, exhaustion or the bounds.
/// `progress`, if given, counts executions as they start (for a progress bar).
///
/// ```
/// use stalemate::explore::{explore, Bounds, Engine};
/// use stalemate::Stop;
/// use std::sync::Arc;
///
/// // Two goroutines take one lock each in turn: no violation in any interleaving.
/// let main = Arc::new(|go: &stalemate::go::Go| {
///     let (mu, wg) = (go.mutex("mu"), go.waitgroup("wg"));
///     for name in ["a", "b"] {
///         wg.add(1);
///         let (mu, wg) = (mu.clone(), wg.clone());
///         go.go(name, move |_| {
///             mu.lock();
///             mu.unlock();
///             wg.done();
///         });
///     }
///     wg.wait();
/// });
/// let o = explore(&Engine::Dpor, &Bounds::default(), main, None).unwrap();
/// assert!(o.finding.is_none());
/// assert_eq!(o.explored.stop, Stop::Exhausted); // every interleaving: a proof
/// assert!(o.explored.executions >= 2); // at least the two lock orders
/// ```
///
/// The executions run quietly (see `Options::quiet`); a finding gets its text from a
/// replay of its schedule. A violation that a replay cannot show (loom's thread limit:
/// replays run on shuttle) gets it from the same exploration run again with text.
pub fn explore(
    engine: &Engine,
    bounds: &Bounds,
    model: ModelFn,
    progress: Option<Arc<AtomicU64>>,
) -> Result<Outcome, Error> {
    let (e, b) = (engine.clone(), bounds.clone());
    watched(bounds.time_limit, move || {
        explore_now(&e, &b, model, progress)
    })
}

/// How long past its time limit an exploration may run before the watchdog gives up
/// on it: the limit is checked between executions, and one execution may be under way.
pub const GRACE: Duration = Duration::from_secs(5);

/// Runs `f`, an exploration, on a thread of its own, and waits for it until `limit`
/// and the grace have passed. An exploration past that is stuck where no bound reaches:
/// in a model's own code between two operations (a loop, a lock of its own taken
/// twice). Its thread is left behind, and the error names the goroutine.
fn watched<T: Send + 'static>(
    limit: Duration,
    f: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    let id = crate::world::watch::start();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("stalemate-explore".into())
        .stack_size(crate::world::watch::STACK)
        .spawn(move || {
            engine::watch_enter(id);
            let _ = tx.send(f());
        })
        .map_err(|e| Error::Engine(format!("no thread for the exploration: {e}")))?;
    let r = rx.recv_timeout(limit.saturating_add(GRACE));
    let stuck = crate::world::watch::stop(id);
    match r {
        Ok(r) => r,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(Error::Engine(format!(
            "the exploration did not end within its time limit ({} s) and {} s of grace: {} (its thread is left behind)",
            limit.as_secs(),
            GRACE.as_secs(),
            stuck.unwrap_or_else(|| "no goroutine is known to be running".into())
        ))),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            Err(Error::Engine("the exploration's thread panicked".into()))
        }
    }
}

fn explore_now(
    engine: &Engine,
    bounds: &Bounds,
    model: ModelFn,
    progress: Option<Arc<AtomicU64>>,
) -> Result<Outcome, Error> {
    if bounds.all {
        return explore_all(engine, bounds, model, progress).map_err(Error::Engine);
    }
    let o = explore_in(engine, bounds, model.clone(), progress, true).map_err(Error::Engine)?;
    let Some(quiet) = o.finding else {
        return Ok(o);
    };
    match retell(model.clone(), &quiet, bounds).map_err(Error::Engine)? {
        Some(f) => Ok(Outcome {
            finding: Some(f),
            ..o
        }),
        None => explore_in(engine, bounds, model, None, false).map_err(Error::Engine),
    }
}

fn explore_in(
    engine: &Engine,
    bounds: &Bounds,
    model: ModelFn,
    progress: Option<Arc<AtomicU64>>,
    quiet: bool,
) -> Result<Outcome, String> {
    // Threads of one exploration may each find one; the exploration says whose it is.
    let slot: Arc<Mutex<BTreeMap<u64, Finding>>> = Arc::default();
    let s = slot.clone();
    let on_run: OnRun = Arc::new(move |i, run| {
        let found = run.violation.is_some();
        if found {
            s.lock().unwrap().insert(i, Finding { execution: i, run });
        }
        found
    });
    let d = drive(engine, bounds, model, progress, on_run, None, quiet)?;
    let mut found = std::mem::take(&mut *slot.lock().unwrap());
    let finding = match d.explored.finding {
        Some(i) => found.remove(&i).map(|f| Finding {
            execution: d.explored.executions,
            ..f
        }),
        // A run stopped by its budget reports none, even if a thread of it met one in a
        // part the exploration never took in.
        None if d.explored.stop == Stop::Found => found.pop_last().map(|(_, f)| f),
        None => None,
    };
    debug_assert_eq!(finding.is_some(), d.explored.stop == Stop::Found);
    Ok(Outcome {
        explored: d.explored,
        finding,
        shared: d.shared,
        regrouped: d.regrouped,
        also: Vec::new(),
    })
}

/// `explore` with [`Bounds::all`]: a census that keeps the first execution of each
/// violation kind (with its text: the executions keep theirs), going on past each.
fn explore_all(
    engine: &Engine,
    bounds: &Bounds,
    model: ModelFn,
    progress: Option<Arc<AtomicU64>>,
) -> Result<Outcome, String> {
    let slot: Arc<Mutex<BTreeMap<String, Finding>>> = Arc::default();
    let s = slot.clone();
    let on_run: OnRun = Arc::new(move |i, mut run| {
        let mut m = s.lock().unwrap();
        // A race the execution went on past: its report is the steps that show it.
        if let Some((race, at)) = run.race.take()
            && m.get("data-race").is_none_or(|f| f.execution > i)
        {
            let shown = Execution {
                violation: Some(race),
                steps: run.steps[..at].to_vec(),
                names: run.names.clone(),
                joint: Default::default(),
                regroup: false,
                pruned: false,
                cut: false,
                race: None,
                end: None,
            };
            m.insert(
                "data-race".into(),
                Finding {
                    execution: i,
                    run: shown,
                },
            );
        }
        if let Some(v) = &run.violation {
            let key = v.property.key();
            if m.get(&key).is_none_or(|f| f.execution > i) {
                m.insert(key, Finding { execution: i, run });
            }
        }
        false
    });
    let s = slot.clone();
    let restart = move || s.lock().unwrap().clear();
    let d = drive(
        engine,
        bounds,
        model,
        progress,
        on_run,
        Some(&restart),
        false,
    )?;
    let mut found: Vec<Finding> = std::mem::take(&mut *slot.lock().unwrap())
        .into_values()
        .collect();
    found.sort_by_key(|f| f.execution);
    let mut found = found.into_iter();
    Ok(Outcome {
        explored: d.explored,
        finding: found.next(),
        also: found.collect(),
        shared: d.shared,
        regrouped: d.regrouped,
    })
}

/// A quiet execution's finding with its text: its schedule replayed with text. `None`
/// if the replay ends otherwise.
fn retell(model: ModelFn, quiet: &Finding, bounds: &Bounds) -> Result<Option<Finding>, String> {
    let loud = replay(model, quiet.schedule(), bounds).map_err(|e| e.to_string())?;
    let Some(l) = loud.run.violation.as_ref() else {
        return Ok(None);
    };
    let q = quiet.violation();
    if (q.property.key(), &q.message) != (l.property.key(), &l.message) {
        return Ok(None);
    }
    Ok(Some(Finding {
        execution: quiet.execution,
        run: loud.run,
    }))
}

/// Runs every execution the engine would try, violating ones included, and collects
/// what they reached. For small programs: nothing stops at the first violation.
///
/// ```
/// use stalemate::explore::{census, Bounds, Engine};
/// use std::sync::Arc;
///
/// // Two senders, each into a channel of its own with room for its value; main
/// // receives from both, before or after each send.
/// let main = Arc::new(|go: &stalemate::go::Go| {
///     let chans = [go.chan::<u8>("a", 1), go.chan::<u8>("b", 1)];
///     for (name, ch) in [("one", &chans[0]), ("two", &chans[1])] {
///         let ch = ch.clone();
///         go.go(name, move |_| ch.send(1));
///     }
///     chans[0].recv();
///     chans[1].recv();
/// });
/// let dfs = census(&Engine::Dfs, &Bounds::default(), main.clone()).unwrap();
/// let dpor = census(&Engine::Dpor, &Bounds::default(), main).unwrap();
/// // DFS runs main's receives waiting and coming late; dpor keeps a receive back
/// // until its value is in, which nobody can tell apart: one execution, one of DFS's
/// // outcomes (each goroutine's steps, as it saw them).
/// assert!(dfs.outcomes.len() > 1);
/// assert_eq!(dpor.explored.executions, 1);
/// assert!(dpor.outcomes.is_subset(&dfs.outcomes));
/// assert!(dpor.violations.is_empty());
/// ```
pub fn census(engine: &Engine, bounds: &Bounds, model: ModelFn) -> Result<Census, Error> {
    type Seen = (BTreeSet<String>, BTreeSet<String>, BTreeSet<u128>);
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let s = seen.clone();
    let on_run: OnRun = Arc::new(move |_, run| {
        let mut s = s.lock().unwrap();
        match &run.violation {
            Some(v) => s.1.insert(v.property.key()),
            None => {
                s.2.extend(run.end);
                s.0.insert(outcome(&run))
            }
        };
        false
    });
    let s = seen.clone();
    let restart = move || *s.lock().unwrap() = Seen::default();
    // A census compares what every execution did, step by step: it keeps text.
    let d =
        drive(engine, bounds, model, None, on_run, Some(&restart), false).map_err(Error::Engine)?;
    let (outcomes, violations, ends) = std::mem::take(&mut *seen.lock().unwrap());
    Ok(Census {
        explored: d.explored,
        outcomes,
        violations,
        ends,
        shared: d.shared,
        regrouped: d.regrouped,
    })
}

/// What [`traces`] found: how many executions `dpor` ran and counted, and the
/// Mazurkiewicz traces they were.
#[derive(Debug)]
pub struct Traces {
    pub explored: Explored,
    /// Executions that counted (not cut short asleep), those stopped at a violation
    /// included.
    pub counted: u64,
    /// Each counted execution's trace that ran to its end, named by a 128-bit hash
    /// of its least linearisation under dpor's dependence with the wake-ups left out:
    /// its events in an order every equivalent interleaving gives, each with its
    /// goroutine, choices and accesses, less the steps that touch nothing shared but a
    /// wake-up (a woken goroutine taking its result, main ending its wait). Names are
    /// for comparing within one process (the hash is std's, which may change).
    pub traces: BTreeSet<u128>,
    /// The same of each execution stopped at a violation, as far as it ran. Which
    /// steps of the others ran before the violation is no behaviour (nothing follows
    /// it), so `dpor` runs fewer of these than a search that expands every level.
    pub stopped: BTreeSet<u128>,
    /// Reversals that asked for a step the world keeps back where they put it (a lock
    /// at a held mutex, a receive at an empty buffer: `docs/dpor.md`), which the race
    /// analysis could not tell from the steps' footprints: each cost an execution
    /// that runs no new trace.
    pub held: u64,
}

/// Runs `dpor` over the model on one thread, going on past violations as a census
/// does, and names the trace of each execution it counts: for checking that its
/// executions are few against its traces (optimal DPOR runs one per trace), and, with
/// `expand`, for the traces themselves by a search that needs no race analysis:
/// every level expanded (every goroutine awake there a branch, with sleep sets, so
/// every trace is reached at least once, most of them many times). For a model
/// without polling loops (whose rounds are events the two searches run differently),
/// where both runs exhausted their trees (`explored.stop`), `dpor` traces that differ
/// from the expanded search's are a trace the race analysis missed, or one it made
/// up. Run it where no other thread calls [`help`] (the CLI's `--jobs` does): the
/// executions of a subtree another thread takes are not named.
///
/// ```
/// use stalemate::explore::{Bounds, ModelFn, traces};
/// use std::sync::Arc;
/// let main: ModelFn = Arc::new(|go| {
///     let m = go.mutex("m");
///     let m2 = m.clone();
///     go.go("t", move |_| { m2.lock(); m2.unlock(); });
///     m.lock();
///     m.unlock();
/// });
/// let dpor = traces(&Bounds::default(), main.clone(), false).unwrap();
/// let all = traces(&Bounds::default(), main, true).unwrap();
/// assert_eq!(dpor.traces, all.traces); // the two lock orders
/// assert_eq!((dpor.counted, dpor.traces.len()), (2, 2)); // one execution each
/// ```
pub fn traces(bounds: &Bounds, model: ModelFn, expand: bool) -> Result<Traces, Error> {
    let bounds = Bounds {
        threads: 1,
        part: None,
        split: if expand { u32::MAX } else { bounds.split },
        ..bounds.clone()
    };
    let on_run: OnRun = Arc::new(|_, _| false);
    /// Recording stops however the run ends.
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            engine::dpor::record::take();
        }
    }
    let _off = Off;
    engine::dpor::record::start();
    let d = drive(
        &Engine::Dpor,
        &bounds,
        model,
        None,
        on_run,
        Some(&|| ()),
        true,
    );
    let t = engine::dpor::record::take().unwrap_or_default();
    let d = d.map_err(Error::Engine)?;
    Ok(Traces {
        explored: d.explored,
        counted: t.counted,
        traces: t.distinct,
        stopped: t.stopped,
        held: t.held,
    })
}

/// A clean execution's outcome: each goroutine's steps in its own order.
fn outcome(run: &Execution) -> String {
    let mut per: Vec<Vec<&str>> = vec![Vec::new(); run.names.len()];
    for s in &run.steps {
        per[s.gid].push(&s.text);
    }
    let lines: Vec<String> = run
        .names
        .iter()
        .zip(per)
        .map(|(n, steps)| format!("{n}: {}", steps.join(" / ")))
        .collect();
    lines.join("\n")
}

/// Runs the model once, forcing the given schedule (one goroutine per step, and the
/// case of each select that chose among several). The
/// result is the same execution the schedule was recorded from, or a `diverged`
/// violation saying where the model stopped following it.
pub fn replay(model: ModelFn, schedule: Vec<Turn>, bounds: &Bounds) -> Result<Finding, Error> {
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
    Engine::Random { seed: 0 }
        .explore(engine::Sharing::ONE, &budget, body)
        .map_err(Error::Engine)?;
    let run = slot
        .lock()
        .unwrap()
        .take()
        .ok_or_else(|| Error::Engine("the replay did not run".into()))?;
    Ok(Finding { execution: 0, run })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds() -> Bounds {
        Bounds {
            max_executions: 1_000,
            max_steps: 200,
            time_limit: Duration::from_secs(60),
            check_races: true,
            time: TimeMode::Any,
            ..Bounds::default()
        }
    }

    /// Two goroutines take two locks in opposite orders.
    fn abba() -> ModelFn {
        Arc::new(|go: &Go| {
            let (a, b) = (go.mutex("A"), go.mutex("B"));
            let (a2, b2) = (a.clone(), b.clone());
            go.go("t", move |_| {
                b2.lock();
                a2.lock();
            });
            a.lock();
            b.lock();
        })
    }

    fn texts(f: &Finding) -> Vec<String> {
        let steps = f.run.steps.iter();
        steps.map(|s| format!("{} {}", s.gid, s.text)).collect()
    }

    #[test]
    fn a_quiet_exploration_reports_what_a_loud_one_does() {
        for engine in [
            Engine::Random { seed: 3 },
            Engine::Pct { seed: 3, depth: 3 },
        ] {
            let quiet = explore(&engine, &bounds(), abba(), None).unwrap();
            let loud = explore_in(&engine, &bounds(), abba(), None, false).unwrap();
            let (q, l) = (quiet.finding.unwrap(), loud.finding.unwrap());
            assert_eq!(q.execution, l.execution);
            assert_eq!(q.violation().message, l.violation().message);
            assert_eq!(q.run.names, ["main", "t"]);
            assert_eq!(texts(&q), texts(&l));
            assert!(
                texts(&q).iter().any(|t| t.ends_with("lock A")),
                "{:?}",
                texts(&q)
            );
        }
    }

    #[test]
    fn a_violation_no_replay_shows_is_explored_again_with_text() {
        // loom's thread limit: a shuttle replay runs every goroutine, so it diverges.
        let model: ModelFn = Arc::new(|go: &Go| {
            for i in 0..engine::LOOM_MAX_THREADS {
                go.go(&format!("g{i}"), |_| {});
            }
        });
        let engine = Engine::Loom {
            preemption_bound: None,
            max_branches: 1_000,
        };
        let f = explore(&engine, &bounds(), model, None)
            .unwrap()
            .finding
            .unwrap();
        assert_eq!(f.violation().property.key(), "crash");
        assert!(texts(&f).iter().any(|t| t == "0 go g0"), "{:?}", texts(&f));
    }
}
