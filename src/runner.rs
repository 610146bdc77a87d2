//! Runs scenarios: every engine, compared with the expectation; renders reports;
//! replays schedules.

use crate::explore::{self, Bounds, Engine, Finding, ModelFn, SimRun};
use crate::model::Network;
use crate::net::{self, FaultPlan, NetFn};
use crate::report::{self, Header, Property};
use crate::scenario::{EngineSpec, Expect, Scenario};
use crate::schedule::{self, Token};
use crate::{Error, Explored, Stop};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

/// How one engine's run compares with the expectation. Each has its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// As expected.
    Ok,
    /// A violation the scenario did not expect (or another one than expected).
    Unexpected,
    /// The expected violation was not found within the bounds.
    NotFound,
    /// The model panicked, or the engine failed.
    Crash,
    /// The search completed no execution: nothing was checked, so nothing passed.
    Incomplete,
}

impl Verdict {
    /// The CLI's exit code for this verdict (bad input is 2).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Ok => 0,
            Verdict::Unexpected => 1,
            Verdict::NotFound => 3,
            Verdict::Crash => 4,
            Verdict::Incomplete => 6,
        }
    }
}

/// A violation with its report.
#[derive(Clone, Debug)]
pub struct Found {
    pub property: Property,
    /// The full report; its last line is the replay command.
    pub report: String,
    /// What replays it: a schedule token (thread engines) or a seed (turmoil).
    pub token: String,
    /// The replay command: the report's last line.
    pub replay: String,
    /// The wait-for graph as Graphviz DOT, for a deadlock or a leak.
    pub graph: Option<String>,
}

/// One engine's run of a scenario.
#[derive(Clone, Debug)]
pub struct EngineRun {
    pub engine: Engine,
    pub explored: Explored,
    pub found: Option<Found>,
    /// With `[checks] all` (`check --all`): each other kind of violation reached, in
    /// the order of their executions.
    pub also: Vec<Found>,
    /// The engine stopped on a failure of its own: no verdict, no coverage.
    pub error: Option<crate::Error>,
    pub elapsed: Duration,
    pub verdict: Verdict,
    /// Objects that shared one loom point (`explore::Outcome::shared`).
    pub shared: Vec<Vec<String>>,
    /// Executions of each abandoned loom exploration (`explore::Outcome::regrouped`).
    pub regrouped: Vec<u64>,
}

impl EngineRun {
    /// What was found, as the summary table says it.
    pub fn found_key(&self) -> String {
        match (&self.found, &self.error) {
            (Some(f), _) => std::iter::once(f)
                .chain(&self.also)
                .map(|f| f.property.key())
                .collect::<Vec<_>>()
                .join("+"),
            (None, Some(_)) => "error".into(),
            (None, None) if self.explored.executions == 0 => "incomplete".into(),
            (None, None) => "pass".into(),
        }
    }

    fn empty_part(&self) -> bool {
        self.error.is_none() && empty_part(&self.explored)
    }

    /// The run's pass is a proof: an exhaustive engine with no bound completed at least
    /// one execution and its whole tree, and nothing failed.
    pub fn proven(&self) -> bool {
        self.error.is_none()
            && self.found.is_none()
            && self.engine.proves()
            && self.explored.stop == Stop::Exhausted
            && self.explored.executions > 0
            && self.explored.part.is_none()
            && self.explored.cut == 0
    }

    /// How much was explored, and what that amounts to. An engine error and a search
    /// that completed no execution claim no coverage at all.
    pub fn coverage(&self) -> String {
        let runs = self.explored.executions;
        if self.error.is_some() {
            return "the engine failed: no coverage is claimed".into();
        }
        if runs == 0 && self.found.is_none() && !self.empty_part() {
            let why = match self.explored.stop {
                Stop::Time => "the time limit",
                _ => "the iteration budget",
            };
            return format!("0 executions completed before {why}: nothing was checked");
        }
        // The stateful search counts its states too.
        let n = match self.explored.states {
            Some(s) => format!("{runs} executions ({s} states)"),
            None => format!("{runs} executions"),
        };
        // Executions cut at the step bound: nothing past their cut was explored.
        let n = match self.explored.cut {
            0 => n,
            c => format!("{n}, {c} of them cut at the step bound"),
        };
        match (&self.explored.stop, &self.engine) {
            (Stop::Found, _) => format!("{n}, stopped at the violation"),
            (Stop::Exhausted, _) if self.explored.cut > 0 => format!(
                "{n}: the search ended, but nothing past a cut was explored: no proof (raise max_steps, or set at_max_steps = \"fail\" for a model whose executions must end)"
            ),
            (Stop::Exhausted, _) if let Some(p) = self.explored.part => format!(
                "{n}: every interleaving of part {}/{} of the tree ({} of its {} units, picked by a mix of their numbers; proven for these parameters once every part is)",
                p.k + 1,
                p.n,
                p.own,
                p.units,
            ),
            (Stop::Exhausted, _) if self.found.is_some() => format!(
                "{n}: the whole tree, past each violation ({} kinds found)",
                1 + self.also.len()
            ),
            (Stop::Exhausted, e) => format!("{n}: {}", e.exhausted()),
            (Stop::Iterations, Engine::Turmoil(_)) => {
                format!("{runs} seeds, each simulated until its clients finished")
            }
            (Stop::Iterations, _) => format!("{n} (the iteration budget)"),
            (Stop::Time, _) => format!("{n} (stopped by the time limit: incomplete)"),
        }
    }
}

/// Header lines of a report for `spec`, execution `execution`.
fn header(s: &Scenario, spec: &EngineSpec, execution: u64) -> Header {
    Header {
        scenario: s.name.clone(),
        path: s.path.clone(),
        model: s.model.name.to_string(),
        variant: s.variant.clone(),
        engine: format!("{}, execution {execution}", spec.engine.describe()),
        params: s.params.describe(),
        bounds: format!(
            "iterations {}, max_steps {}{}, time_limit_secs {}",
            spec.iterations,
            s.max_steps,
            match s.at_max_steps {
                crate::AtMaxSteps::Cut => "",
                crate::AtMaxSteps::Fail => " (at_max_steps fail)",
            },
            s.time_limit.as_secs()
        ),
    }
}

/// The report of a finding, with its replay command as the last line.
fn found(s: &Scenario, engine_no: usize, f: &Finding) -> Found {
    origin(s, engine_no).found(engine_no, f)
}

/// Where the reports of engine `engine_no` of scenario `s` come from.
fn origin(s: &Scenario, engine_no: usize) -> Origin<'_> {
    let spec = &s.engines[engine_no - 1];
    Origin {
        header: Box::new(move |execution| header(s, spec, execution)),
        replay: Box::new(|token| replay_command(s, token)),
        graph: format!("{} engine {engine_no}", s.name),
    }
}

/// Where a report comes from, for the scenario-free callers too (`check`): its header
/// for an execution, its replay command for a token, the title of its graph.
pub(crate) struct Origin<'a> {
    pub header: Box<dyn Fn(u64) -> Header + 'a>,
    pub replay: Box<dyn Fn(&str) -> String + 'a>,
    pub graph: String,
}

impl Origin<'_> {
    /// The report of a finding of engine `engine_no`, its replay command last.
    pub(crate) fn found(&self, engine_no: usize, f: &Finding) -> Found {
        let token = Token {
            engine: engine_no,
            execution: f.execution,
            steps: f.schedule(),
            check: schedule::check(&f.run.steps),
        }
        .encode();
        let cmd = (self.replay)(&token);
        let v = f.violation();
        let report = report::render(
            &(self.header)(f.execution),
            v,
            &f.run.steps,
            &f.run.names,
            &cmd,
        );
        Found {
            property: v.property.clone(),
            report,
            token,
            replay: cmd,
            graph: v.graph.as_ref().map(|g| g.dot(&self.graph)),
        }
    }

    /// Replays schedule token `t` of `model` under `bounds`: the report the recorded
    /// one was, if the model still follows it.
    pub(crate) fn replay(
        &self,
        model: ModelFn,
        t: &Token,
        bounds: &Bounds,
    ) -> Result<Replayed, Error> {
        let mut f = explore::replay(model, t.steps.clone(), bounds)?;
        f.execution = t.execution;
        if f.run.violation.is_none() {
            f.run.violation = Some(crate::report::Violation::new(
                Property::Diverged,
                format!(
                    "the replay ran to the end after {} steps without a violation",
                    f.run.steps.len()
                ),
            ));
        }
        let diverged = f.violation().property == Property::Diverged;
        let same = !diverged && schedule::check(&f.run.steps) == t.check;
        if !diverged && !same {
            let v = crate::report::Violation::new(
                Property::Diverged,
                format!(
                    "the replay followed all {} steps, but they differ from the recorded ones (check {:08x}, recorded {:08x}): the model changed",
                    f.run.steps.len(),
                    schedule::check(&f.run.steps),
                    t.check
                ),
            );
            f.run.violation = Some(v);
        }
        let report = report::render(
            &(self.header)(t.execution),
            f.violation(),
            &f.run.steps,
            &f.run.names,
            &(self.replay)(&t.encode()),
        );
        Ok(Replayed {
            report,
            reproduced: same,
        })
    }
}

/// A part of a cut tree that holds no unit: explored, with nothing in it.
fn empty_part(explored: &Explored) -> bool {
    explored.part.is_some() && explored.stop == Stop::Exhausted && explored.executions == 0
}

fn verdict(expect: &Expect, found: Option<&Found>, also: &[Found], explored: &Explored) -> Verdict {
    // Every finding reported (`all`): the expected one among them is as expected.
    if let (Expect::Violation(k), Some(_)) = (expect, found)
        && also.iter().any(|f| f.property.key() == *k)
    {
        return Verdict::Ok;
    }
    match (expect, found) {
        (_, None) if explored.executions == 0 && !empty_part(explored) => Verdict::Incomplete,
        (_, Some(f)) if f.property == Property::Crash => Verdict::Crash,
        (Expect::Pass, None) => Verdict::Ok,
        (Expect::Pass, Some(_)) => Verdict::Unexpected,
        (Expect::Violation(_), None) => Verdict::NotFound,
        (Expect::Violation(k), Some(f)) if f.property.key() == *k => Verdict::Ok,
        (Expect::Violation(_), Some(_)) => Verdict::Unexpected,
    }
}

/// Runs one engine (numbered from 1) of a scenario.
/// `progress` counts executions as they start.
pub fn run_engine(s: &Scenario, engine_no: usize, progress: Option<Arc<AtomicU64>>) -> EngineRun {
    let spec = &s.engines[engine_no - 1];
    if let Engine::Turmoil(settings) = &spec.engine {
        return run_net(s, engine_no, settings, progress);
    }
    let model = s.model.build(&s.variant, &s.params);
    let t = Instant::now();
    let r = explore::explore(&spec.engine, &s.bounds(spec), model, progress);
    let elapsed = t.elapsed();
    match r {
        Ok(o) => {
            let f = o.finding.as_ref().map(|f| found(s, engine_no, f));
            let also: Vec<Found> = o.also.iter().map(|f| found(s, engine_no, f)).collect();
            EngineRun {
                engine: spec.engine.clone(),
                verdict: verdict(&s.expect, f.as_ref(), &also, &o.explored),
                explored: o.explored,
                found: f,
                also,
                error: None,
                elapsed,
                shared: o.shared,
                regrouped: o.regrouped,
            }
        }
        Err(e) => EngineRun {
            engine: spec.engine.clone(),
            explored: Explored::new(0, Stop::Exhausted),
            found: None,
            also: Vec::new(),
            error: Some(e),
            elapsed,
            verdict: Verdict::Crash,
            shared: Vec::new(),
            regrouped: Vec::new(),
        },
    }
}

/// Runs every engine of a scenario, in order.
pub fn run(s: &Scenario) -> Vec<EngineRun> {
    (1..=s.engines.len())
        .map(|i| run_engine(s, i, None))
        .collect()
}

/// What a replay gave.
pub struct Replayed {
    /// The report, identical to the recorded one when `reproduced`.
    pub report: String,
    pub reproduced: bool,
}

/// The command that replays schedule `token` of scenario `s`.
fn replay_command(s: &Scenario, token: &str) -> String {
    format!(
        "stalemate replay {}{} --schedule {token}",
        s.path, s.replay_flags
    )
}

/// Replays what a finding of engine `engine_no` recorded: its schedule or its seed.
pub fn replay_found(s: &Scenario, engine_no: usize, f: &Found) -> Result<Replayed, Error> {
    match s.engines[engine_no - 1].engine {
        Engine::Turmoil(_) => {
            let seed = f
                .token
                .parse()
                .map_err(|_| Error::Token(format!("bad seed `{}`", f.token)))?;
            replay_seed(s, Some(engine_no), seed)
        }
        _ => replay(s, &f.token),
    }
}

/// Replays a token against a scenario. Errors are bad input (a token that does not
/// fit the scenario).
pub fn replay(s: &Scenario, token: &str) -> Result<Replayed, Error> {
    let t = Token::decode(token)?;
    if t.engine > s.engines.len() {
        return Err(Error::Token(format!(
            "schedule `{token}` names engine {} but {} has {} engine(s)",
            t.engine,
            s.path,
            s.engines.len()
        )));
    }
    let spec = &s.engines[t.engine - 1];
    origin(s, t.engine).replay(s.model.build(&s.variant, &s.params), &t, &s.bounds(spec))
}

/// A model's network side, built for the scenario's variant and parameters.
fn network(s: &Scenario) -> (&'static Network, NetFn) {
    let n = s
        .model
        .network
        .expect("the scenario checked that the model has a network side");
    (n, (n.build)(&s.variant, &s.params))
}

fn plan_of(n: &Network, settings: &net::Settings, seed: u64) -> FaultPlan {
    settings.plan(seed, n.drawn_hosts, n.drawn_links, n.drawn_window)
}

/// Runs a turmoil engine: one simulation per seed.
fn run_net(
    s: &Scenario,
    engine_no: usize,
    settings: &net::Settings,
    progress: Option<Arc<AtomicU64>>,
) -> EngineRun {
    let spec = &s.engines[engine_no - 1];
    let (n, model) = network(s);
    let t = Instant::now();
    let o = explore::explore_net(
        settings,
        &s.bounds(spec),
        &model,
        &|seed| plan_of(n, settings, seed),
        progress,
    );
    let f = o
        .finding
        .as_ref()
        .map(|run| net_found(s, engine_no, run, o.nondeterministic.clone()));
    EngineRun {
        engine: spec.engine.clone(),
        verdict: verdict(&s.expect, f.as_ref(), &[], &o.explored),
        explored: o.explored,
        found: f,
        also: Vec::new(),
        error: None,
        elapsed: t.elapsed(),
        shared: Vec::new(),
        regrouped: Vec::new(),
    }
}

/// The replay command of a turmoil finding: the engine is named only when it is not
/// the scenario's first turmoil engine.
fn seed_command(s: &Scenario, engine_no: usize, seed: u64) -> String {
    let first = s
        .engines
        .iter()
        .position(|e| matches!(e.engine, Engine::Turmoil(_)))
        .map_or(0, |i| i + 1);
    let engine = if first == engine_no {
        String::new()
    } else {
        format!(" --engine {engine_no}")
    };
    format!("stalemate replay {}{engine} --seed {seed}", s.path)
}

fn net_found(
    s: &Scenario,
    engine_no: usize,
    run: &SimRun,
    nondeterministic: Option<String>,
) -> Found {
    let spec = &s.engines[engine_no - 1];
    let (property, message, at, chain) = match (nondeterministic, &run.error, &run.broken) {
        (Some(d), _, _) => (Property::Diverged, d, run.ended, Vec::new()),
        (None, Some(e), _) => (
            Property::Crash,
            format!("a host failed: {e}"),
            run.ended,
            Vec::new(),
        ),
        (None, None, Some(b)) => (
            Property::Model(b.property.clone()),
            b.message.clone(),
            b.at,
            b.chain.clone(),
        ),
        (None, None, None) => (
            Property::Diverged,
            format!(
                "seed {} ran to {} without breaking a property",
                run.seed,
                net::secs(run.ended)
            ),
            run.ended,
            Vec::new(),
        ),
    };
    let cmd = seed_command(s, engine_no, run.seed);
    let h = Header {
        scenario: s.name.clone(),
        path: s.path.clone(),
        model: s.model.name.to_string(),
        variant: s.variant.clone(),
        engine: format!("{}, seed {}", spec.engine.describe(), run.seed),
        params: s.params.describe(),
        bounds: format!(
            "seeds {}, time_limit_secs {}",
            spec.iterations,
            s.time_limit.as_secs()
        ),
    };
    let v = crate::report::Violation::new(property.clone(), message);
    let report = report::render_net(&h, &run.plan.describe(), &v, at, &chain, &run.steps, &cmd);
    Found {
        property,
        report,
        token: run.seed.to_string(),
        replay: cmd,
        graph: None,
    }
}

/// Replays one seed of a turmoil engine (`engine`: its number, or the first turmoil
/// engine). The report is the one the run printed, byte for byte.
pub fn replay_seed(s: &Scenario, engine: Option<usize>, seed: u64) -> Result<Replayed, Error> {
    let turmoil: Vec<usize> = s
        .engines
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.engine, Engine::Turmoil(_)))
        .map(|(i, _)| i + 1)
        .collect();
    let no = match engine {
        None => *turmoil.first().ok_or_else(|| {
            Error::Token(format!(
                "{} has no turmoil engine to replay a seed on",
                s.path
            ))
        })?,
        Some(k) if turmoil.contains(&k) => k,
        Some(k) => {
            let list: Vec<String> = turmoil.iter().map(|i| i.to_string()).collect();
            return Err(Error::Token(format!(
                "engine {k} of {} is not a turmoil engine (turmoil engines: {})",
                s.path,
                if list.is_empty() {
                    "none".into()
                } else {
                    list.join(", ")
                }
            )));
        }
    };
    let Engine::Turmoil(settings) = &s.engines[no - 1].engine else {
        unreachable!("filtered above")
    };
    let (n, model) = network(s);
    let run = explore::simulate(settings, seed, &plan_of(n, settings, seed), &model);
    let f = net_found(s, no, &run, None);
    Ok(Replayed {
        reproduced: f.property != Property::Diverged,
        report: f.report,
    })
}

/// Schedules each seed of a range needed to find the expected violation.
pub struct SeedStats {
    pub engine: Engine,
    /// (seed, executions to the expected violation, or `None`: not found in the budget).
    pub counts: Vec<(u64, Option<u64>)>,
}

impl SeedStats {
    /// `shuttle-pct: found by 8 of 8 seeds; schedules min 6, median 16, max 53; nothing
    /// found for: none (seed:schedules 1:19 2:...)`.
    pub fn describe(&self) -> String {
        let mut found: Vec<u64> = self.counts.iter().filter_map(|c| c.1).collect();
        found.sort_unstable();
        let none: Vec<String> = self
            .counts
            .iter()
            .filter(|c| c.1.is_none())
            .map(|c| c.0.to_string())
            .collect();
        let spread = match (found.first(), found.last()) {
            (Some(lo), Some(hi)) => format!(
                "schedules min {lo}, median {}, max {hi}",
                found[(found.len() - 1) / 2]
            ),
            _ => "no schedules".into(),
        };
        let each: Vec<String> = self
            .counts
            .iter()
            .map(|(seed, n)| format!("{seed}:{}", n.map_or("-".into(), |n| n.to_string())))
            .collect();
        format!(
            "{}: found by {} of {} seeds; {spread}; nothing found for: {} (seed:schedules {})",
            self.engine.kind_name(),
            found.len(),
            self.counts.len(),
            if none.is_empty() {
                "none".into()
            } else {
                none.join(", ")
            },
            each.join(" ")
        )
    }
}

/// Runs engine `engine_no` of a scenario once per seed in `seeds`, on `jobs` threads;
/// `None` if that engine takes no seed. A seed counts as finding only the expected
/// violation. Each seed's exploration is its own, so the counts (in `seeds` order) are
/// the same for any `jobs`, and for any split of the seeds across machines.
pub fn seed_stats(s: &Scenario, engine_no: usize, seeds: &[u64], jobs: usize) -> Option<SeedStats> {
    let base = &s.engines[engine_no - 1].engine;
    base.reseeded(0)?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, seeds.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&seed) = seeds.get(i) else { break };
                    let mut one = s.clone();
                    one.engines[engine_no - 1].engine =
                        base.reseeded(seed).expect("checked: a seeded engine");
                    let r = run_engine(&one, engine_no, None);
                    let hit = r.found.is_some() && r.verdict == Verdict::Ok;
                    let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                    d.push((i, seed, hit.then_some(r.explored.executions)));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_unstable();
    Some(SeedStats {
        engine: base.clone(),
        counts: done.into_iter().map(|(_, seed, n)| (seed, n)).collect(),
    })
}
