//! Verdicts you can trust: a proof only from an exhaustive engine that finished at least
//! one execution and its whole tree; an engine error or an empty search is never a pass;
//! a correct polling loop is proven and a broken one is a `livelock`; a construct
//! outside the subset is refused before running, never reported as a finding.

use stalemate::explore::Engine;
use stalemate::runner::{EngineRun, Verdict};
use stalemate::{Explored, Stop};
use std::time::Duration;
mod common;

use common::{stalemate, text};

/// The line `stalemate run` prints for an engine's run (`cli::print_engine`).
fn run_line(r: &EngineRun) -> String {
    format!(
        "{} -> {} ({})",
        r.engine.describe(),
        r.found_key(),
        r.coverage()
    )
}

fn engine_run(engine: Engine, executions: u64, stop: Stop, error: Option<&str>) -> EngineRun {
    let explored = Explored::new(executions, stop);
    let verdict = match (error, executions) {
        (Some(_), _) => Verdict::Crash,
        (None, 0) => Verdict::Incomplete,
        _ => Verdict::Ok,
    };
    EngineRun {
        engine,
        explored,
        found: None,
        also: Vec::new(),
        error: error.map(|e| stalemate::Error::Engine(e.to_string())),
        elapsed: Duration::ZERO,
        verdict,
        shared: Vec::new(),
        regrouped: Vec::new(),
    }
}

/// No run line of any engine claims a proof, or coverage at all, when the engine
/// failed or completed no execution; none claims one when executions were cut at the
/// step bound; and only an unbounded exhaustive engine that finished claims one.
#[test]
fn no_line_claims_a_proof_from_an_error_or_an_empty_search() {
    let engines = [
        Engine::Loom {
            preemption_bound: None,
            max_branches: 10,
        },
        Engine::Loom {
            preemption_bound: Some(2),
            max_branches: 10,
        },
        Engine::Random { seed: 1 },
        Engine::Pct { seed: 1, depth: 3 },
        Engine::Dfs,
        Engine::Stateful,
    ];
    let stops = [Stop::Exhausted, Stop::Iterations, Stop::Time];
    let mut proofs = 0;
    for e in &engines {
        for stop in &stops {
            for (executions, cut) in [(0, 0), (1, 0), (7, 0), (7, 3)] {
                for error in [None, Some("Model exceeded maximum number of branches")] {
                    let mut r = engine_run(e.clone(), executions, stop.clone(), error);
                    r.explored.cut = cut;
                    let line = run_line(&r);
                    if cut > 0 {
                        assert!(!r.proven(), "{line}");
                        assert!(!line.contains("proven"), "{line}");
                        assert!(!line.contains("every interleaving"), "{line}");
                        if error.is_none() {
                            assert!(line.contains("3 of them cut at the step bound"), "{line}");
                        }
                    }
                    let claims = line.contains("proven") || line.contains("every interleaving");
                    let void = error.is_some() || executions == 0;
                    assert!(!(claims && void), "{line}");
                    assert!(
                        !(line.contains("proven")
                            && (line.contains("error")
                                || line.contains("crash")
                                || line.contains("0 executions"))),
                        "{line}"
                    );
                    if void {
                        assert!(
                            line.contains(" -> error (") || line.contains(" -> incomplete ("),
                            "{line}"
                        );
                        assert!(!r.proven(), "{line}");
                    }
                    if r.proven() {
                        proofs += 1;
                        assert!(line.contains("(proven for these parameters)"), "{line}");
                    }
                }
            }
        }
    }
    // Unbounded loom and the stateful search, exhausted, with 1 and with 7 executions.
    assert_eq!(proofs, 4);
}

#[test]
fn an_engine_error_is_an_error_with_no_coverage_and_exit_4() {
    // A loop of ten lock pairs has more than five branches: loom gives up.
    let file = scenario(
        "branches",
        "sync_literals.go",
        "[[engine]]\nkind = \"loom\"\nmax_branches = 5\n",
    );
    let o = stalemate(&["run", file.to_str().unwrap()]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(4), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("engine 1:"))
        .unwrap_or_default();
    assert_eq!(
        line,
        "   engine 1: loom (preemption bound none, max branches 5) -> error (the engine failed: no coverage is claimed)"
    );
    assert!(out.contains("   error: loom stopped: Model exceeded maximum number of branches"));
    assert!(!out.contains("proven for"), "{out}");
    assert!(!out.contains("every interleaving"), "{out}");
}

#[test]
fn a_search_that_completed_nothing_is_incomplete_not_a_pass() {
    let cfg = stalemate::check::Config::default()
        .engine(Engine::Dfs)
        .time_limit(Duration::ZERO);
    let r = std::panic::catch_unwind(|| {
        stalemate::check::check(cfg, |go| {
            let mu = go.mutex("mu");
            mu.lock();
            mu.unlock();
        })
    });
    let msg = r.expect_err("nothing explored is no pass");
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert_eq!(
        msg,
        "stalemate: shuttle-dfs: 0 executions completed before the time limit: nothing was checked"
    );
}

/// `stalemate run` on a scenario whose search completes nothing (`--time-limit 0`):
/// exit 6, and the verdict says incomplete, never pass.
#[test]
fn run_exits_6_when_a_search_completed_nothing() {
    let file = scenario("nothing", "semantics.go", "[[engine]]\nkind = \"dpor\"\n");
    let o = common::stalemate(&["run", "--time-limit", "0", file.to_str().unwrap()]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(6), "{out}");
    assert!(
        out.contains("engine 1: dpor (optimal DPOR) -> incomplete (0 executions"),
        "{out}"
    );
    assert!(!out.contains("-> pass"), "{out}");
}

/// A scenario file in a temporary directory, running `kernel` under `engines`.
fn scenario(name: &str, kernel: &str, engines: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("stalemate-verdicts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = std::fs::canonicalize(format!("tests/kernels/{kernel}")).unwrap();
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(
        &file,
        format!(
            "go = {:?}\nexpect = \"pass\"\n{engines}",
            kernel.display().to_string()
        ),
    )
    .unwrap();
    file
}

/// Two channels of one name selected together: loom's groups settle at once (they
/// used to grow forever, 100,000 restarts and no execution).
#[test]
fn restarts_end_for_objects_made_in_a_loop() {
    let file = scenario(
        "fresh",
        "fresh_channels.go",
        "[[engine]]\nkind = \"loom\"\n[[engine]]\nkind = \"dpor\"\n",
    );
    let o = stalemate(&["run", file.to_str().unwrap()]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[2],
        "   engine 1: loom (preemption bound none, max branches 10000) -> pass (1 executions: every interleaving (proven for these parameters))"
    );
    assert_eq!(
        lines[3],
        "   one loom point for every object named ch (selected together)"
    );
    assert_eq!(
        lines[4],
        "   engine 2: dpor (optimal DPOR) -> pass (1 executions: every interleaving (proven for these parameters))"
    );
    assert!(!out.contains("started again"), "{out}");
}

#[test]
fn a_correct_polling_loop_is_proven() {
    let o = stalemate(&["check", "tests/kernels/poll_ok.go"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let dpor = out.lines().nth(2).unwrap_or_default();
    assert!(
        dpor.starts_with("   engine 1: dpor (optimal DPOR) -> pass (")
            && dpor.ends_with(" executions: every interleaving (proven for these parameters))"),
        "{out}"
    );
    // loom, the second engine, proves it too.
    let file = scenario("poll_ok", "poll_ok.go", "[[engine]]\nkind = \"loom\"\n");
    let o = stalemate(&["run", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("every interleaving (proven for these parameters)"));
    let pct = out.lines().nth(3).unwrap_or_default();
    assert_eq!(
        pct,
        "   engine 2: shuttle-pct (seed 1, depth 3) -> pass (1000 executions (the iteration budget))"
    );
}

#[test]
fn a_polling_loop_nothing_can_end_is_a_livelock_naming_the_loop() {
    let o = stalemate(&["check", "tests/kernels/poll_stuck.go"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    for engine in ["dpor (optimal DPOR)", "shuttle-pct (seed 1, depth 3)"] {
        assert!(
            out.contains(&format!("{engine} -> livelock (")),
            "{engine}: {out}"
        );
    }
    let report = out
        .split("stalemate: livelock found")
        .nth(1)
        .expect("a livelock report");
    assert!(report.contains(
        "property   livelock: a goroutine polls forever: what it reads can no longer change\n           main polls forever: what it reads can no longer change, as every other goroutine is blocked"
    ), "{report}");
    assert!(report.contains(
        "  main in main at poll_stuck.go:20 waits for a change to what it polls in the loop at poll_stuck.go:16 (its last round read the same and changed nothing)"
    ), "{report}");
    assert!(report.contains("polls in the loop at poll_stuck.go:16: nothing changed in its last round, waits for another goroutine to move"), "{report}");
    // Its replay takes the same polls at the same steps: the same report, byte for byte.
    let replay = out
        .lines()
        .find(|l| l.trim_start().starts_with("stalemate replay "))
        .expect("a replay line")
        .trim()
        .to_string();
    let args: Vec<&str> = replay.split_whitespace().skip(1).collect();
    let again = stalemate(&args);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    // The whole replayed report is the recorded one, as `stalemate run` printed it.
    let replayed = String::from_utf8_lossy(&again.stdout)
        .trim_end()
        .to_string();
    assert!(replayed.contains("\nscenario   poll_stuck ("), "{replayed}");
    assert!(replayed.ends_with(&replay), "{replayed}");
    assert!(
        out.contains(&replayed),
        "the replayed report differs:\n{replayed}"
    );
}

/// Polls `flag` under `mu` until it is set: a model's polling loop, entered afresh at
/// each call.
fn poll_flag(go: &stalemate::go::Go, mu: &stalemate::go::Mutex, flag: &stalemate::go::Var<bool>) {
    let mut poll = go.poll_loop();
    loop {
        poll.round(&());
        mu.lock();
        let done = flag.get();
        mu.unlock();
        if done {
            break;
        }
    }
}

/// A model's polling loop, with `Go::poll_loop`: proven when the flag is set, a
/// livelock when the setter is stuck.
#[test]
fn a_models_polling_loop_is_fair() {
    let poll = |stuck: bool| {
        move |go: &stalemate::go::Go| {
            let (mu, flag) = (go.mutex("mu"), go.var("done", false));
            let never = go.chan::<()>("never", 0);
            let (mu2, flag2) = (mu.clone(), flag.clone());
            go.go("worker", move |_| {
                if stuck {
                    never.recv();
                }
                mu2.lock();
                flag2.set(true);
                mu2.unlock();
            });
            poll_flag(go, &mu, &flag);
        }
    };
    let explored = stalemate::check::check(Default::default(), poll(false));
    assert_eq!(explored.stop, Stop::Exhausted);
    assert!(explored.executions > 0);
    let r = std::panic::catch_unwind(|| stalemate::check::check(Default::default(), poll(true)));
    let report = r.expect_err("a livelock");
    let report = report.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(report.starts_with("stalemate: livelock found"), "{report}");
    assert!(report.contains("main polls forever"), "{report}");
}

/// A polling loop entered again is no repeat of its last round: a goroutine that polls
/// a flag already set three times over (an outer loop round a polling loop) sees it at
/// once each time. While rounds were compared across entries, the third entry's first
/// round looked like the second's again, the goroutine waited for another to move, and
/// every engine reported a `leak` once the only other goroutine had returned (the
/// differential campaign of seed 20261232, at its 4,350th program, where loom and DFS
/// disagreed on which orders leaked).
#[test]
fn a_polling_loop_entered_again_starts_afresh() {
    let model: stalemate::explore::ModelFn = std::sync::Arc::new(|go: &stalemate::go::Go| {
        let (mu, flag) = (go.mutex("mu"), go.var("flag", false));
        let (ch, once) = (go.chan::<u8>("ch", 1), go.once("once"));
        go.go("sender", move |_| ch.send(1));
        go.go("poller", move |go| {
            once.run(|| flag.set(true));
            for _ in 0..3 {
                poll_flag(&go, &mu, &flag);
            }
        });
    });
    let bounds = stalemate::explore::Bounds::default().time(stalemate::TimeMode::Any);
    for engine in [
        Engine::Dfs,
        Engine::Dpor,
        Engine::Loom {
            preemption_bound: None,
            max_branches: 10_000,
        },
    ] {
        let c = stalemate::explore::census(&engine, &bounds, model.clone()).unwrap();
        let name = engine.describe();
        assert_eq!(c.explored.stop, Stop::Exhausted, "{name}");
        assert!(c.violations.is_empty(), "{name}: {:?}", c.violations);
        assert_eq!(c.outcomes.len(), 1, "{name}: {:#?}", c.outcomes);
        assert!(
            c.outcomes.iter().all(|o| !o.contains("polls in the loop")),
            "{name}: {:#?}",
            c.outcomes
        );
    }
}

#[test]
fn constructs_outside_the_subset_are_refused_before_running() {
    for (kernel, at, what) in [
        (
            "unsupported_trylock.go",
            "unsupported_trylock.go:7:8:",
            "TryLock is neither a field or method this kernel declares nor a library method stalemate interprets",
        ),
        (
            "unsupported_defer_len.go",
            "unsupported_defer_len.go:6:9:",
            "defer len(...): Go discards the result of len, so it cannot be the call of defer",
        ),
        (
            "unsupported_parse_duration.go",
            "unsupported_parse_duration.go:7:2:",
            "time.ParseDuration is outside the Go subset stalemate interprets",
        ),
        (
            "unsupported_kind_methods.go",
            "unsupported_kind_methods.go:9:1:",
            "methods A.Name and B.Name on two named int types are outside the Go subset stalemate interprets",
        ),
        (
            "unsupported_recover.go",
            "unsupported_recover.go:4:17:",
            "the builtin recover is outside the Go subset stalemate interprets",
        ),
        (
            "unsupported_embed_struct.go",
            "unsupported_embed_struct.go:6:2:",
            "embedding T, which is not an interface",
        ),
    ] {
        let path = format!("tests/kernels/{kernel}");
        let o = stalemate(&["check", &path]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}");
        let first = out.lines().next().unwrap_or_default();
        assert_eq!(first, format!("error: tests/kernels/{at} {what}"), "{out}");
        assert!(!out.contains("engine 1"), "nothing runs: {out}");
    }
}

/// What the checker cannot see (B has no field f, but A has one) is the model's crash
/// at run time, exit 4: never a `panic` finding.
#[test]
fn what_the_interpreter_cannot_do_at_run_time_is_a_crash_not_a_finding() {
    let o = stalemate(&["check", "tests/kernels/wrong_field.go"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(4), "{out}");
    assert!(
        out.contains(
            "   engine 1: dpor (optimal DPOR) -> crash (1 executions, stopped at the violation)"
        ),
        "{out}"
    );
    assert!(out.contains("goroutine main crashed: outside the subset stalemate interprets: B has no field or method f (wrong_field.go:11)"), "{out}");
    assert!(!out.contains("violation:panic"), "{out}");
}

#[test]
fn sync_values_as_literals_with_new_and_by_pointer_behave_as_go() {
    let o = stalemate(&["check", "tests/kernels/sync_literals.go"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("every interleaving (proven for these parameters)"),
        "{out}"
    );
}
