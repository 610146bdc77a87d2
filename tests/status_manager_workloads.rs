//! Generated workloads for the status manager: the fixed variant must hold every
//! property under shuttle for each one; proptest shrinks any failure to the smallest
//! workload (and records it in proptest-regressions/).

use proptest::prelude::*;
use proptest::test_runner::{
    Config, RngAlgorithm, RngSeed, TestCaseError, TestError, TestRng, TestRunner,
};
use stalemate::explore::{Bounds, Engine, explore};
use stalemate::models;
use std::time::Duration;

/// A workload: the model's parameters.
fn workload() -> impl Strategy<Value = Vec<(&'static str, i64)>> {
    (
        (1i64..=2, 1i64..=3, 0i64..=1, 1i64..=3, 0i64..=1, 0i64..=2),
        (0i64..=2, 0i64..=2, 0i64..=2, 0i64..=1, 0i64..=2),
    )
        .prop_map(
            |(
                (pods, updates, terminate, capacity, deleting, api_pod),
                (ge, ue, de, probes, ticks),
            )| {
                vec![
                    ("pods", pods),
                    ("updates", updates),
                    ("terminate", terminate),
                    ("capacity", capacity),
                    ("deleting", deleting),
                    ("api_pod", api_pod),
                    ("get_errors", ge),
                    ("update_errors", ue),
                    ("delete_errors", de),
                    ("probes", probes),
                    ("ticks", ticks),
                ]
            },
        )
}

/// Explores one workload under shuttle-random; the property broken, if any.
fn check(variant: &str, w: &[(&'static str, i64)], schedules: u64) -> Option<String> {
    let m = models::find("status-manager").unwrap();
    let b = Bounds::default()
        .check_races(true)
        .time(Default::default())
        .max_executions(schedules)
        .max_steps(5_000)
        .time_limit(Duration::from_secs(60));
    let o = explore(
        &Engine::Random { seed: 1 },
        &b,
        m.build(variant, &m.params(w)),
        None,
    )
    .unwrap();
    o.finding.map(|f| {
        format!(
            "{}: {}",
            f.violation().property.key(),
            f.violation().message
        )
    })
}

proptest! {
    // Fixed seeds: the same workloads in every run (determinism is the product).
    #![proptest_config(ProptestConfig { cases: 48, rng_seed: RngSeed::Fixed(0x5347_4d31), ..ProptestConfig::default() })]

    #[test]
    fn the_fixed_manager_holds_every_property_on_any_workload(w in workload()) {
        if let Some(v) = check("fixed", &w, 300) {
            prop_assert!(false, "workload {:?} broke {}", w, v);
        }
    }
}

/// The same strategy against the buggy manager: proptest must find a failing workload
/// and shrink it to a small one.
#[test]
fn proptest_shrinks_a_buggy_workload_to_a_small_one() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 64,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let r = runner.run(&workload(), |w| match check("buggy", &w, 100) {
        Some(v) => Err(TestCaseError::fail(v)),
        None => Ok(()),
    });
    let Err(TestError::Fail(why, minimal)) = r else {
        panic!("the buggy manager passed every workload: {r:?}")
    };
    let get = |k: &str| minimal.iter().find(|(n, _)| *n == k).unwrap().1;
    assert_eq!(get("pods"), 1, "shrunk to one pod: {minimal:?} ({why})");
    assert!(
        get("updates") <= 2,
        "shrunk to few updates: {minimal:?} ({why})"
    );
}
