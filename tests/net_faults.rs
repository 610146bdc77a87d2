//! Generated fault plans and request schedules for cache-sync-wait on turmoil: the
//! isolated gateway must hold every property under each one; against the seed's code
//! (buggy) and its fix (timeout), proptest must find a plan that breaks
//! healthy-cluster-isolated and shrink it to the smallest one. Failures are recorded in proptest-regressions/.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use stalemate::explore::simulate;
use stalemate::models;
use stalemate::net::{Fault, FaultKind, FaultPlan, Faults, Settings};
use std::time::Duration;

const SERVERS: [&str; 2] = ["apiserver-a", "apiserver-b"];

/// A fault on an API server or on its link to the gateway, on a 100 ms boundary in
/// the first 3 s. Everything shrinks towards `0.000s crash apiserver-a`.
fn fault() -> impl Strategy<Value = Fault> {
    (0u64..30, 0usize..6, 0usize..2).prop_map(|(t, k, h)| {
        let kind = FaultKind::ALL[k];
        let (a, b) = if kind.on_link() {
            ("gateway".to_string(), Some(SERVERS[h].to_string()))
        } else {
            (SERVERS[h].to_string(), None)
        };
        Fault {
            at: Duration::from_millis(100 * t),
            kind,
            a,
            b,
        }
    })
}

fn plan() -> impl Strategy<Value = FaultPlan> {
    prop::collection::vec(fault(), 0..4).prop_map(FaultPlan::new)
}

/// Requests: how many per cluster, and when client-b starts.
fn requests() -> impl Strategy<Value = Vec<(&'static str, i64)>> {
    (0i64..=3, 0i64..=2, 0i64..=20).prop_map(|(a, b, start)| {
        vec![
            ("requests_a", a),
            ("requests_b", b),
            ("b_start_ms", 100 * start),
        ]
    })
}

fn settings(seed: u64) -> Settings {
    Settings {
        seed,
        duration: Duration::from_secs(30),
        tick: Duration::from_millis(1),
        min_latency: Duration::from_millis(1),
        max_latency: Duration::from_millis(20),
        faults: Faults::Drawn,
    }
}

/// One simulation; the property broken, if any, with its message.
fn check(
    variant: &str,
    plan: &FaultPlan,
    req: &[(&'static str, i64)],
    seed: u64,
) -> Option<String> {
    let m = models::find("cache-sync-wait").unwrap();
    let net = (m.network.unwrap().build)(variant, &m.params(req));
    let run = simulate(&settings(seed), seed, plan, &net);
    assert_eq!(run.error, None, "a host failed");
    run.broken.map(|b| format!("{}: {}", b.property, b.message))
}

proptest! {
    // A fixed seed: the same plans in every run.
    #![proptest_config(ProptestConfig { cases: 32, rng_seed: proptest::test_runner::RngSeed::Fixed(0x4e45_5431), ..ProptestConfig::default() })]

    #[test]
    fn the_isolated_gateway_holds_every_property_under_any_fault_plan(
        p in plan(),
        req in requests(),
        seed in 0u64..1000,
    ) {
        if let Some(v) = check("isolated", &p, &req, seed) {
            prop_assert!(false, "plan `{}`, requests {:?}, seed {} broke {}", p.describe(), req, seed, v);
        }
    }
}

/// The seed's fix breaks isolation under some plan; shrinking gives the smallest plan.
#[test]
fn proptest_shrinks_a_plan_that_breaks_the_timeout_fix_to_one_fault_on_cluster_a() {
    shrinks_to_one_fault_on_cluster_a("timeout");
}

/// The seed's code too.
#[test]
fn proptest_shrinks_a_plan_that_breaks_the_buggy_gateway_to_one_fault_on_cluster_a() {
    shrinks_to_one_fault_on_cluster_a("buggy");
}

fn shrinks_to_one_fault_on_cluster_a(variant: &str) {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 64,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let default = [("requests_a", 2), ("requests_b", 1)];
    let r = runner.run(&plan(), |p| match check(variant, &p, &default, 0) {
        Some(v) if v.starts_with("healthy-cluster-isolated") => Err(TestCaseError::fail(v)),
        _ => Ok(()),
    });
    let Err(TestError::Fail(why, minimal)) = r else {
        panic!("{variant} held under every plan: {r:?}")
    };
    // One fault at 0 s that cuts cluster-a off: a crash of its API server, or a
    // partition or hold of its link (shrinking finds a local minimum, not always the
    // first kind).
    let cut_a = [
        "0.000s crash apiserver-a",
        "0.000s partition gateway apiserver-a",
        "0.000s hold gateway apiserver-a",
    ];
    assert!(
        cut_a.contains(&minimal.describe().as_str()),
        "the smallest plan that breaks isolation: `{}` ({why})",
        minimal.describe()
    );
    // The plan the report header shows is the one that was run.
    assert!(why.message().contains("request b#1 for cluster-b"), "{why}");
}
