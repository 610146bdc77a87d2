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

/// The CLI: a kernel whose loop outlasts its time limit within one execution (a
/// statement bound of a billion, `max_steps` 10,000,000) is an engine error naming
/// the goroutine, exit 4; with `--jobs 2` the scenario beside it still runs and passes.
#[test]
fn run_reports_a_stuck_kernel_as_an_engine_error_and_finishes_the_others() {
    let dir = std::env::temp_dir().join(format!("stalemate-watchdog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let kernel = |k: &str| root.join("tests/kernels").join(k).display().to_string();
    let write = |name: &str, text: String| {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    let stuck = write(
        "a_stuck.toml",
        format!(
            "go = {:?}\nexpect = \"pass\"\n[bounds]\nmax_steps = 10000000\ntime_limit_secs = 1\n\
             [[engine]]\nkind = \"dpor\"\n",
            kernel("spin.go")
        ),
    );
    let fine = write(
        "b_fine.toml",
        format!(
            "go = {:?}\nexpect = \"pass\"\n[[engine]]\nkind = \"dpor\"\n",
            kernel("race_free.go")
        ),
    );
    // One thread: the stuck run names its goroutine. Two: the other scenario's thread,
    // once done, joins the stuck dpor run and is left behind with it, and the command
    // still ends (it used to wait for that thread).
    for jobs in ["1", "2"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_stalemate"))
            .args(["run", "--jobs", jobs, &stuck, &fine])
            .output()
            .unwrap();
        let out = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(4), "{out}");
        assert!(
            out.contains(
                "the exploration did not end within its time limit (1 s) and 5 s of grace"
            ),
            "{out}"
        );
        if jobs == "1" {
            assert!(
                out.contains("goroutine main did not reach its next Go operation"),
                "{out}"
            );
        }
        let row = out
            .lines()
            .find(|l| l.starts_with("b_fine ") && l.contains(" dpor "))
            .unwrap_or_else(|| panic!("no row for b_fine in {out}"));
        assert!(row.contains(" pass ") && row.contains(" ok "), "{row}");
    }
}
