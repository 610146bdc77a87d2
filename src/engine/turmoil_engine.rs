//! Simulation with turmoil: one seed is one simulation (latencies, host order and the
//! model's own jitter all come from it), with a fault plan applied at its simulated
//! times. turmoil runs each host's tasks in FIFO order: it explores the network's
//! timing, not the interleavings inside a host (the thread engines cover those).

use super::{Explored, Stop};
use crate::net::{Broken, FaultKind, FaultPlan, NetFn, NetStep, Settings, Setup, Trace};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRun {
    pub seed: u64,
    pub plan: FaultPlan,
    pub steps: Vec<NetStep>,
    pub broken: Option<Broken>,
    /// A host's software failed (a model error, not a finding).
    pub error: Option<String>,
    /// Simulated time when it stopped.
    pub ended: Duration,
}

/// Runs seed `seed` with `plan` until every client has finished, a property broke,
/// or the simulated duration is over.
pub fn simulate(s: &Settings, seed: u64, plan: &FaultPlan, model: &NetFn) -> SimRun {
    let mut sim = turmoil::Builder::new()
        // The engine stops at `duration` itself; turmoil's own limit is only a backstop.
        .simulation_duration(s.duration + Duration::from_secs(1))
        .tick_duration(s.tick)
        .min_message_latency(s.min_latency)
        .max_message_latency(s.max_latency)
        .rng_seed(seed)
        .enable_random_order()
        .build();
    let trace = Trace::default();
    model(&mut Setup {
        sim: &mut sim,
        trace: trace.clone(),
        seed,
    });
    let mut next = 0;
    let mut error = None;
    loop {
        let now = sim.elapsed();
        trace.set_clock(now);
        while let Some(f) = plan.0.get(next).filter(|f| f.at <= now) {
            trace.fault(f);
            let b = f.b.as_deref().unwrap_or("");
            match f.kind {
                FaultKind::Crash => sim.crash(f.a.as_str()),
                FaultKind::Bounce => sim.bounce(f.a.as_str()),
                FaultKind::Partition => sim.partition(f.a.as_str(), b),
                FaultKind::Repair => sim.repair(f.a.as_str(), b),
                FaultKind::Hold => sim.hold(f.a.as_str(), b),
                FaultKind::Release => sim.release(f.a.as_str(), b),
                FaultKind::Loss(p) => {
                    sim.set_link_fail_rate(f.a.as_str(), b, f64::from(p) / 1000.0)
                }
            }
            next += 1;
        }
        if trace.is_broken() || now >= s.duration {
            break;
        }
        match sim.step() {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => {
                error = Some(e.to_string());
                break;
            }
        }
    }
    let (steps, broken) = trace.take();
    SimRun {
        seed,
        plan: plan.clone(),
        steps,
        broken,
        error,
        ended: sim.elapsed(),
    }
}

/// What a seed range gave.
pub struct NetOutcome {
    pub explored: Explored,
    /// The first seed that broke a property (or failed).
    pub finding: Option<SimRun>,
    /// The finding's second run differed from the first: where.
    pub nondeterministic: Option<String>,
}

/// Runs seeds `s.seed..s.seed + iterations` until one breaks a property. Every finding
/// is simulated twice and the two records compared (madsim's determinism check).
pub fn explore(
    s: &Settings,
    iterations: u64,
    time_limit: Duration,
    model: &NetFn,
    plan_of: &dyn Fn(u64) -> FaultPlan,
    progress: Option<Arc<AtomicU64>>,
) -> NetOutcome {
    let start = Instant::now();
    let mut n = 0;
    for seed in s.seed..s.seed.saturating_add(iterations) {
        if start.elapsed() > time_limit {
            return outcome(n, Stop::Time, None, None);
        }
        n += 1;
        if let Some(p) = &progress {
            p.store(n, Relaxed);
        }
        let plan = plan_of(seed);
        let run = simulate(s, seed, &plan, model);
        if run.broken.is_some() || run.error.is_some() {
            let again = simulate(s, seed, &plan, model);
            let diff = difference(&run, &again);
            return outcome(n, Stop::Found, Some(run), diff);
        }
    }
    outcome(n, Stop::Iterations, None, None)
}

fn outcome(n: u64, stop: Stop, finding: Option<SimRun>, nd: Option<String>) -> NetOutcome {
    NetOutcome {
        explored: Explored::new(n, stop),
        finding,
        nondeterministic: nd,
    }
}

/// Where two runs of one seed part, if they do.
pub fn difference(a: &SimRun, b: &SimRun) -> Option<String> {
    if a == b {
        return None;
    }
    let i = a
        .steps
        .iter()
        .zip(&b.steps)
        .position(|(x, y)| x != y)
        .unwrap_or(a.steps.len().min(b.steps.len()));
    let show = |r: &SimRun| {
        r.steps
            .get(i)
            .map_or("(no step)".to_string(), |s| format!("{} {}", s.who, s.text))
    };
    Some(format!(
        "two runs of seed {} differ at step {}: `{}` then `{}`",
        a.seed,
        i + 1,
        show(a),
        show(b)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_runs_that_part_are_reported_with_the_first_differing_step() {
        let step = |t: &str| NetStep {
            at: Duration::from_millis(5),
            who: "gateway a#1".into(),
            text: t.into(),
        };
        let a = SimRun {
            seed: 3,
            plan: FaultPlan::default(),
            steps: vec![step("lock ClientSets"), step("answers 200")],
            broken: None,
            error: None,
            ended: Duration::from_secs(1),
        };
        assert_eq!(difference(&a, &a.clone()), None);
        let mut b = a.clone();
        b.steps[1] = step("answers 503");
        assert_eq!(
            difference(&a, &b).as_deref(),
            Some(
                "two runs of seed 3 differ at step 2: `gateway a#1 answers 200` then `gateway a#1 answers 503`"
            )
        );
    }
}
