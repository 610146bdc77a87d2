//! The watchdog: an exploration stuck where no bound reaches, in a model's own code
//! between two operations, ends with an engine error within its time limit and the
//! grace. Its own test binary: the stuck thread is left behind until the process ends.

use stalemate::explore::{Bounds, Engine, GRACE, explore};
use stalemate::go::Go;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[test]
fn a_model_stuck_in_its_own_code_is_an_engine_error_within_the_limit() {
    for engine in [Engine::Dpor, Engine::Random { seed: 1 }] {
        let model = Arc::new(|go: &Go| {
            let m = go.mutex("mu");
            m.lock();
            m.unlock();
            go.go("stuck", |_| {
                // A wait of the model's own that nothing ends (its sender is kept).
                let (tx, rx) = std::sync::mpsc::channel::<()>();
                let _ = rx.recv();
                drop(tx);
            });
        });
        let limit = Duration::from_secs(1);
        let t = Instant::now();
        let r = explore(&engine, &Bounds::default().time_limit(limit), model, None);
        let took = t.elapsed();
        let e = r.err().expect("an engine error");
        let m = e.message();
        assert!(
            m.contains("the exploration did not end within its time limit (1 s) and 5 s of grace"),
            "{m}"
        );
        assert!(
            m.contains("goroutine stuck did not reach its next Go operation after its step"),
            "{m}"
        );
        // A hang bound, not a measure: it ends, and not long after limit and grace.
        assert!(took < limit + GRACE + Duration::from_secs(30), "{took:?}");
    }
}
