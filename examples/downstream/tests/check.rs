//! The same model through the plain `#[test]` API.

use stalemate::check::{Config, check};
use stalemate::explore::Engine;

fn main_of(variant: &str) -> impl Fn(&stalemate::go::Go) + Send + Sync + 'static {
    let m = downstream::MODEL.build(variant, &downstream::MODEL.params(&[]));
    move |go| m(go)
}

#[test]
fn the_fixed_dispatcher_is_proven() {
    let explored = check(Config::default(), main_of("fixed"));
    assert_eq!(explored.stop, stalemate::Stop::Exhausted);
}

#[test]
fn pct_finds_the_buggy_dispatcher_deadlock() {
    let cfg = Config::default()
        .engine(Engine::Pct { seed: 1, depth: 3 })
        .iterations(1000);
    let err = std::panic::catch_unwind(|| check(cfg, main_of("buggy"))).expect_err("found");
    let report = err.downcast_ref::<String>().expect("the report");
    assert!(
        report.starts_with("stalemate: deadlock found\n"),
        "{report}"
    );
    assert!(
        report.contains("worker in worker waits for lock queue.mu"),
        "{report}"
    );
}
