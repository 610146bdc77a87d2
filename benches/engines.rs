//! Detection speed, proof time and overhead. `cargo bench --bench engines`.
//!
//! - cacher-2015 buggy: time to the first deadlock under shuttle random and PCT, over
//!   a fixed set of seeds (the schedules each seed needs are printed once);
//! - cacher-2015 fixed: time for loom and for dpor to prove it (no preemption bound,
//!   events=0), with executions per second as the throughput;
//! - status-manager and informer-processor: the same for their deadlocks and fixes
//!   (status-manager: one update; informer: one listener, one event; all unbounded);
//! - cacher-modern: schedules to the first violation of two mutations (lock order,
//!   deferred stop), loom bounded to 2 preemptions;
//! - cache-sync-wait on turmoil: simulations per second (isolated, cluster-a paused,
//!   10 seeds), and for each variant the seeds to the first violation under fault
//!   plans drawn from each seed (printed once);
//! - dpor on one thread and on two: the status manager's fix with four updates and a
//!   tick (111,319 executions either way), executions per second;
//! - overhead: one small two-lock model written directly on shuttle's std-like types
//!   and the same through stalemate's Go primitives, schedules per second side by side;
//!   and the same model's whole loom search, on loom's own types and through stalemate.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stalemate::TimeMode;
use stalemate::explore::{Bounds, Engine, ModelFn, explore};
use stalemate::models;
use std::sync::Arc;
use std::time::Duration;

const SEEDS: [u64; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

fn bounds(n: u64) -> Bounds {
    bounds_in(n, TimeMode::Any)
}

fn bounds_in(n: u64, time: TimeMode) -> Bounds {
    Bounds::default()
        .check_races(true)
        .time(time)
        .max_executions(n)
        .max_steps(10_000)
        .time_limit(Duration::from_secs(600))
}

fn model(name: &str, variant: &str, params: &[(&'static str, i64)]) -> ModelFn {
    let m = models::find(name).expect("model");
    m.build(variant, &m.params(params))
}

/// Schedules until the first violation, or panics if none within 100,000.
fn first_violation(engine: &Engine, m: &ModelFn, time: TimeMode) -> u64 {
    let o = explore(engine, &bounds_in(100_000, time), m.clone(), None).expect("explore");
    assert!(o.finding.is_some(), "{} found nothing", engine.describe());
    o.explored.executions
}

/// Detection: time and schedules to the first violation, per engine, for each buggy
/// scenario's model (`name`, parameters).
pub fn detection(c: &mut Criterion, group: &str, m: ModelFn) {
    detection_in(c, group, m, TimeMode::Any, None)
}

/// `detection` in a time mode, with loom bounded to `bound` preemptions.
pub fn detection_in(
    c: &mut Criterion,
    group: &str,
    m: ModelFn,
    time: TimeMode,
    bound: Option<usize>,
) {
    type MakeEngine = fn(u64) -> Engine;
    let engines: [(&str, MakeEngine); 2] = [
        ("shuttle-random", |seed| Engine::Random { seed }),
        ("shuttle-pct", |seed| Engine::Pct { seed, depth: 3 }),
    ];
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    for (name, make) in engines {
        let counts: Vec<u64> = SEEDS
            .iter()
            .map(|&s| first_violation(&make(s), &m, time))
            .collect();
        eprintln!(
            "{group}/{name}: schedules to the first violation for seeds {SEEDS:?}: {counts:?}"
        );
        g.bench_function(
            format!("{name}/first-violation/{}-seeds", SEEDS.len()),
            |b| {
                b.iter(|| {
                    SEEDS
                        .iter()
                        .map(|&s| first_violation(&make(s), &m, time))
                        .sum::<u64>()
                })
            },
        );
    }
    let loom = Engine::Loom {
        preemption_bound: bound,
        max_branches: 10_000,
    };
    eprintln!(
        "{group}/loom (bound {bound:?}): executions to the first violation: {}",
        first_violation(&loom, &m, time)
    );
    g.bench_function("loom/first-violation", |b| {
        b.iter(|| first_violation(&loom, &m, time))
    });
    g.finish();
}

/// Proof: time for loom (within `bound` preemptions) and for dpor to explore every
/// interleaving, with each one's executions as the throughput: executions per second
/// side by side, the per-execution cost of each engine.
pub fn proof(c: &mut Criterion, group: &str, m: ModelFn, bound: Option<usize>) {
    let loom = Engine::Loom {
        preemption_bound: bound,
        max_branches: 10_000,
    };
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    for (name, engine) in [("loom/proof", loom), ("dpor/proof", Engine::Dpor)] {
        let o = explore(&engine, &bounds(10_000_000), m.clone(), None).expect("explore");
        assert!(o.finding.is_none() && o.explored.stop == stalemate::Stop::Exhausted);
        eprintln!(
            "{group}: {name} (loom bound {bound:?}) explores {} executions",
            o.explored.executions
        );
        g.throughput(Throughput::Elements(o.explored.executions));
        g.bench_function(name, |b| {
            b.iter(|| explore(&engine, &bounds(10_000_000), m.clone(), None).unwrap())
        });
    }
    g.finish();
}

/// One dpor proof of more than 10 s on one thread and on two: the same executions
/// (asserted), the time each takes.
fn threads(c: &mut Criterion) {
    let tick = [
        ("updates", 4),
        ("capacity", 1),
        ("deleting", 1),
        ("ticks", 1),
    ];
    let m = model("status-manager", "fixed", &tick);
    let mut g = c.benchmark_group("dpor-threads");
    g.sample_size(10).measurement_time(Duration::from_secs(160));
    let mut counts = Vec::new();
    for n in [1, 2] {
        let b = bounds(10_000_000).threads(n);
        let o = explore(&Engine::Dpor, &b, m.clone(), None).expect("explore");
        assert!(o.finding.is_none() && o.explored.stop == stalemate::Stop::Exhausted);
        counts.push(o.explored.executions);
        eprintln!(
            "dpor-threads: {n} thread(s) explore {} executions",
            o.explored.executions
        );
        g.throughput(Throughput::Elements(o.explored.executions));
        g.bench_function(format!("status-manager-tick/{n}"), |x| {
            x.iter(|| explore(&Engine::Dpor, &b, m.clone(), None).unwrap())
        });
    }
    assert_eq!(counts[0], counts[1], "threads change the count");
    g.finish();
}

fn cacher_2015(c: &mut Criterion) {
    detection(c, "cacher-2015-buggy", model("cacher-2015", "buggy", &[]));
    proof(
        c,
        "cacher-2015-fixed",
        model("cacher-2015", "fixed", &[("events", 0)]),
        None,
    );
}

fn status_manager(c: &mut Criterion) {
    let deadlock = [
        ("updates", 3),
        ("capacity", 1),
        ("deleting", 1),
        ("ticks", 0),
    ];
    detection(
        c,
        "status-manager-buggy",
        model("status-manager", "buggy", &deadlock),
    );
    let one = [
        ("updates", 1),
        ("capacity", 1),
        ("deleting", 1),
        ("ticks", 0),
    ];
    proof(
        c,
        "status-manager-fixed",
        model("status-manager", "fixed", &one),
        None,
    );
}

fn informer(c: &mut Criterion) {
    detection(
        c,
        "informer-buggy",
        model("informer-processor", "buggy", &[("events", 2)]),
    );
    proof(
        c,
        "informer-fixed",
        model("informer-processor", "fixed", &[("events", 1)]),
        None,
    );
}

const SCHEDULES: u64 = 2_000;

/// Two threads take A then B (no deadlock), directly on shuttle.
fn shuttle_direct() {
    use shuttle::sync::Mutex;
    let config = shuttle::Config::new();
    let sched = shuttle::scheduler::RandomScheduler::new_from_seed(1, SCHEDULES as usize);
    shuttle::Runner::new(sched, config).run(|| {
        let a = Arc::new(Mutex::new(0));
        let b = Arc::new(Mutex::new(0));
        let (a2, b2) = (a.clone(), b.clone());
        let t = shuttle::thread::spawn(move || {
            let _x = a2.lock().unwrap();
            let _y = b2.lock().unwrap();
        });
        {
            let _x = a.lock().unwrap();
            let _y = b.lock().unwrap();
        }
        t.join().unwrap();
    });
}

/// The same through stalemate's Go primitives.
fn through_stalemate() {
    let o = explore(
        &Engine::Random { seed: 1 },
        &bounds(SCHEDULES),
        two_locks(),
        None,
    )
    .unwrap();
    assert!(o.finding.is_none());
}

/// Two goroutines take A then B, on stalemate's Go primitives.
fn two_locks() -> ModelFn {
    Arc::new(|go: &stalemate::go::Go| {
        let (a, b) = (go.mutex("A"), go.mutex("B"));
        let (a2, b2) = (a.clone(), b.clone());
        go.go("t", move |_| {
            a2.lock();
            b2.lock();
            b2.unlock();
            a2.unlock();
        });
        a.lock();
        b.lock();
        b.unlock();
        a.unlock();
    })
}

/// Two threads take A then B, directly on loom's types: every interleaving, no bound.
/// Returns the executions loom ran.
fn loom_direct() -> u64 {
    use loom::sync::Mutex;
    let runs = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let r = runs.clone();
    let mut b = loom::model::Builder::new();
    b.preemption_bound = None;
    b.checkpoint_file = None;
    b.check(move || {
        r.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let a = loom::sync::Arc::new(Mutex::new(0));
        let b = loom::sync::Arc::new(Mutex::new(0));
        let (a2, b2) = (a.clone(), b.clone());
        let t = loom::thread::spawn(move || {
            let _x = a2.lock().unwrap();
            let _y = b2.lock().unwrap();
        });
        {
            let _x = a.lock().unwrap();
            let _y = b.lock().unwrap();
        }
        t.join().unwrap();
    });
    runs.load(std::sync::atomic::Ordering::Relaxed)
}

/// The same model through stalemate on loom: every interleaving, no bound.
fn loom_through_stalemate() -> u64 {
    let e = Engine::Loom {
        preemption_bound: None,
        max_branches: 10_000,
    };
    let o = explore(&e, &bounds(SCHEDULES), two_locks(), None).unwrap();
    assert!(o.finding.is_none());
    o.explored.executions
}

/// Per schedule: shuttle random over 2,000 schedules; per exploration: loom's whole
/// search, printed with its executions (the two count their executions differently:
/// stalemate's goroutine start and end are steps of their own).
fn overhead(c: &mut Criterion) {
    let mut g = c.benchmark_group("overhead-two-locks");
    g.sample_size(10);
    g.throughput(Throughput::Elements(SCHEDULES));
    g.bench_function("shuttle-direct", |b| b.iter(shuttle_direct));
    g.bench_function("stalemate", |b| b.iter(through_stalemate));
    g.finish();
    let (direct, through) = (loom_direct(), loom_through_stalemate());
    eprintln!(
        "overhead-two-locks-loom: loom explores {direct} executions directly, {through} through stalemate"
    );
    let mut g = c.benchmark_group("overhead-two-locks-loom");
    g.sample_size(10);
    g.bench_function("loom-direct", |b| b.iter(loom_direct));
    g.bench_function("stalemate", |b| b.iter(loom_through_stalemate));
    g.finish();
}

/// cacher-modern: the lock-order and deferred-stop mutations, at their scenarios'
/// parameters, in virtual time; loom with at most 2 preemptions, as in the scenarios.
fn cacher_modern(c: &mut Criterion) {
    let base = [
        ("fast", 0),
        ("slow", 0),
        ("gone", 1),
        ("events", 2),
        ("bookmarks", 0),
    ];
    let lock_first: Vec<_> = base.iter().copied().chain([("incoming", 0)]).collect();
    detection_in(
        c,
        "cacher-modern-cacher-lock-first",
        model("cacher-modern", "cacher-lock-first", &lock_first),
        TimeMode::Virtual,
        Some(2),
    );
    detection_in(
        c,
        "cacher-modern-no-deferred-stop",
        model("cacher-modern", "no-deferred-stop", &base),
        TimeMode::Virtual,
        Some(2),
    );
}

fn net_settings(faults: stalemate::net::Faults) -> stalemate::net::Settings {
    stalemate::net::Settings {
        seed: 0,
        duration: Duration::from_secs(30),
        tick: Duration::from_millis(1),
        min_latency: Duration::from_millis(1),
        max_latency: Duration::from_millis(20),
        faults,
    }
}

fn network(c: &mut Criterion) {
    use stalemate::net::{Fault, FaultKind, FaultPlan, Faults};
    let m = models::find("cache-sync-wait").expect("model");
    let n = m.network.expect("network side");
    let build = |v: &str| (n.build)(v, &m.params(&[]));
    // Seeds to the first violation, each seed with its own drawn plan.
    let drawn = net_settings(Faults::Drawn);
    for v in ["buggy", "timeout", "isolated"] {
        let model = build(v);
        let plan = |seed| drawn.plan(seed, n.drawn_hosts, n.drawn_links, n.drawn_window);
        let o = stalemate::explore::explore_net(&drawn, &bounds(1_000), &model, &plan, None);
        let found = o.finding.as_ref().map_or("nothing".to_string(), |r| {
            format!(
                "{} at seed {}",
                r.broken
                    .as_ref()
                    .map_or("a failure", |b| b.property.as_str()),
                r.seed
            )
        });
        eprintln!(
            "cache-sync-wait/turmoil/{v}: drawn plans, {} seeds to the first violation ({found})",
            o.explored.executions
        );
    }
    // Simulations per second: isolated, cluster-a paused for the whole run.
    let paused = FaultPlan::new(vec![Fault {
        at: Duration::ZERO,
        kind: FaultKind::Crash,
        a: "apiserver-a".into(),
        b: None,
    }]);
    let s = net_settings(Faults::Given(paused.clone()));
    let model = build("isolated");
    let mut g = c.benchmark_group("cache-sync-wait-turmoil");
    g.sample_size(10);
    g.throughput(Throughput::Elements(10));
    g.bench_function("isolated/cluster-a-paused/10-seeds", |b| {
        b.iter(|| {
            let o =
                stalemate::explore::explore_net(&s, &bounds(10), &model, &|_| paused.clone(), None);
            assert!(o.finding.is_none());
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    threads,
    cacher_2015,
    status_manager,
    informer,
    cacher_modern,
    network,
    overhead
);
criterion_main!(benches);
