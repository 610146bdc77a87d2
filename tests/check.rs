//! `stalemate::check`: the plain `#[test]` API finds a deadlock (panicking with the full
//! report, which ends in the Rust call that replays it), and proves a fixed order.

use stalemate::check::{Config, replay};
use stalemate::go::Go;
use stalemate::{Stop, check};

/// Two goroutines taking two locks; `same_order` is the fix.
fn locks(same_order: bool) -> impl Fn(&Go) + Send + Sync + 'static {
    move |go: &Go| {
        let (a, b) = (go.mutex("A"), go.mutex("B"));
        let (a2, b2) = (a.clone(), b.clone());
        go.go("worker", move |go| {
            let _f = go.func("worker.run");
            a2.lock();
            b2.lock();
            b2.unlock();
            a2.unlock();
        });
        let (first, second) = if same_order { (&a, &b) } else { (&b, &a) };
        first.lock();
        second.lock();
        second.unlock();
        first.unlock();
    }
}

#[test]
fn a_deadlock_panics_with_the_report_and_its_replay_call() {
    let err = std::panic::catch_unwind(|| check(Config::default(), locks(false)))
        .expect_err("the lock-order inversion is found");
    let report = err
        .downcast_ref::<String>()
        .expect("the panic carries the report")
        .clone();
    assert!(
        report.starts_with("stalemate: deadlock found\n"),
        "{report}"
    );
    assert!(report.contains("\nwait-for cycle\n"), "{report}");
    assert!(
        report.contains("worker in worker.run waits for lock B"),
        "{report}"
    );
    let last = report.lines().last().unwrap().trim();
    let token = last
        .strip_prefix("stalemate::check::replay(config, \"")
        .and_then(|t| t.strip_suffix("\", main)"))
        .unwrap_or_else(|| panic!("the last line is the replay call: {last}"));
    assert_eq!(replay(Config::default(), token, locks(false)), report);
}

#[test]
fn the_fixed_order_is_proven_and_says_what_it_explored() {
    let explored = check(Config::default(), locks(true));
    assert_eq!(explored.stop, Stop::Exhausted);
    assert!(explored.executions > 1, "{explored:?}");
}
