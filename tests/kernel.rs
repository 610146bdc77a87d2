//! Go kernels: the interpreter keeps Go's semantics (checked by kernels that panic on a
//! wrong result), runtime errors and failed tests are reported with their line, every
//! construct outside the subset is a file:line:column error, and `stalemate check`
//! runs a kernel with no scenario file, its report ending in a replay that reproduces.

use stalemate::runner::{self, Verdict};
use stalemate::scenario::{self, Scenario};
mod common;

use common::{stalemate, text};

/// A scenario for `tests/kernels/<kernel>` (with `extra` TOML), under loom and 200
/// random schedules.
fn scenario_with(kernel: &str, expect: &str, extra: &str) -> Scenario {
    let text = format!(
        "go = \"kernels/{kernel}\"\nexpect = \"{expect}\"\n{extra}\n\
         [[engine]]\nkind = \"loom\"\n\
         [[engine]]\nkind = \"shuttle-random\"\nseed = 1\niterations = 200\n"
    );
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    scenario::parse("tests/kernel_test.toml", &text).unwrap_or_else(|e| panic!("{}", e.full()))
}

/// Runs every engine; each must give the expected result. Returns the reports found.
fn expect(kernel: &str, key: &str) -> Vec<String> {
    expect_with(kernel, key, "")
}

/// `expect`, and every report says each of `texts`.
fn expect_saying(kernel: &str, key: &str, texts: &[&str]) {
    for r in expect(kernel, key) {
        for t in texts {
            assert!(r.contains(t), "wanted `{t}` in {r}");
        }
    }
}

fn expect_with(kernel: &str, key: &str, extra: &str) -> Vec<String> {
    let s = scenario_with(kernel, key, extra);
    let mut reports = Vec::new();
    for r in runner::run(&s) {
        let d = r.engine.describe();
        assert!(r.error.is_none(), "{kernel} / {d}: {:?}", r.error);
        let report = r
            .found
            .as_ref()
            .map(|f| f.report.clone())
            .unwrap_or_default();
        assert_eq!(
            r.verdict,
            Verdict::Ok,
            "{kernel} / {d}: found {}\n{report}",
            r.found_key()
        );
        if key == "pass" {
            assert!(r.explored.executions > 0);
            if r.engine.proves() {
                assert_eq!(
                    r.explored.stop,
                    stalemate::Stop::Exhausted,
                    "{kernel}: {}",
                    r.coverage()
                );
            }
        } else {
            reports.push(report);
        }
    }
    reports
}

/// The kernel at `path` as a model, with `params` (its constants) set.
fn kernel_model(
    path: &str,
    name: &str,
    params: &[(&'static str, i64)],
) -> stalemate::explore::ModelFn {
    let src = std::fs::read_to_string(path).expect("kernel");
    stalemate::kernel::parse(path, &src, None)
        .expect("parses")
        .into_model(name)
        .build(
            "kernel",
            &stalemate::model::Params(params.iter().copied().collect()),
        )
}

/// A kernel whose goroutines run for the life of the program, under dpor and PCT,
/// each goroutine bounded to 200 steps, in time mode `time`.
fn looping(kernel: &str, expect: &str, time: &str) -> Vec<runner::EngineRun> {
    let text = format!(
        "go = \"kernels/{kernel}\"\nexpect = \"{expect}\"\n\
         [bounds]\nmax_steps = 200\n[time]\nmode = \"{time}\"\n\
         [[engine]]\nkind = \"dpor\"\niterations = 5000\n\
         [[engine]]\nkind = \"shuttle-pct\"\nseed = 1\ndepth = 3\niterations = 300\n"
    );
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let s =
        scenario::parse("tests/kernel_test.toml", &text).unwrap_or_else(|e| panic!("{}", e.full()));
    runner::run(&s)
}

#[test]
fn a_leak_beside_a_poller_that_never_stops_is_found_at_the_cut() {
    for r in looping("poller_leak.go", "leak", "any") {
        let d = r.engine.describe();
        assert_eq!(r.verdict, Verdict::Ok, "{d}: {}", r.found_key());
        let report = &r.found.as_ref().unwrap().report;
        assert!(
            report.contains("G3 fetch.func1 stays blocked forever: no goroutine that can still run reaches what it waits on"),
            "{d}: {report}"
        );
        assert!(
            report.contains("waits for send on channel ch (unbuffered)"),
            "{d}: {report}"
        );
    }
    // Fixed: nothing to find, and every execution is cut, so no proof.
    for r in looping("poller_leak_fixed.go", "pass", "any") {
        let d = r.engine.describe();
        assert_eq!(r.verdict, Verdict::Ok, "{d}: {}", r.found_key());
        assert!(r.explored.cut > 0 && !r.proven(), "{d}: {}", r.coverage());
        if r.engine.proves() {
            assert_eq!(r.explored.stop, stalemate::Stop::Exhausted, "{d}");
            assert_eq!(r.explored.cut, r.explored.executions, "{d}");
        }
    }
}

#[test]
fn a_lock_order_deadlock_beside_a_producer_that_never_stops_is_found() {
    let runs = looping("producer_lock_order.go", "deadlock", "virtual");
    let dpor = &runs[0];
    assert_eq!(dpor.engine.kind_name(), "dpor");
    for r in &runs {
        let d = r.engine.describe();
        assert_eq!(r.verdict, Verdict::Ok, "{d}: {}", r.found_key());
        let report = &r.found.as_ref().unwrap().report;
        assert!(
            report
                .contains("wait for each other in a cycle of locks, while other goroutines run on"),
            "{d}: {report}"
        );
    }
    for r in looping("producer_lock_order_fixed.go", "pass", "virtual") {
        let d = r.engine.describe();
        assert_eq!(r.verdict, Verdict::Ok, "{d}: {}", r.found_key());
        assert!(r.explored.cut > 0 && !r.proven(), "{d}: {}", r.coverage());
    }
}

#[test]
fn a_loop_variable_capture_races_only_before_go_1_22() {
    // Go 1.22 and later (no go.mod above tests/kernels): one variable per iteration.
    // Proven by dpor (loom's proof of these four goroutines runs half a million
    // executions).
    proven(&["tests/kernels/loopvar_capture.go", "--engine", "dpor"]);
    // Go 1.21, by the scenario's go_version (the CLI's --go): one for the whole loop.
    for r in expect_with("loopvar_capture.go", "data-race", "go_version = \"1.21\"") {
        assert!(r.contains("main wrote i after step"), "{r}");
    }
    // By the go.mod of the kernel's module (`go 1.20`).
    expect("go120/loopvar_capture.go", "data-race");
    // `stalemate check --go 1.21` repeats the flag in its replay line.
    let o = stalemate(&[
        "check",
        "tests/kernels/loopvar_capture.go",
        "--go",
        "1.21",
        "--engine",
        "dpor",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("stalemate replay tests/kernels/loopvar_capture.go --go 1.21 --schedule "),
        "{out}"
    );
    let o = stalemate(&["check", "tests/kernels/loopvar_capture.go", "--go", "2.0"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("`2.0` is not a Go version: give 1.N, e.g. 1.21"),
        "{}",
        text(&o)
    );
}

#[test]
fn all_reports_a_race_and_a_deadlock_in_one_kernel() {
    // Without it, the first violation ends the search.
    let o = stalemate(&[
        "check",
        "tests/kernels/race_and_deadlock.go",
        "--engine",
        "dpor",
    ]);
    let out = text(&o);
    assert_eq!(out.matches("\nreplay\n").count(), 1, "{out}");
    // With it, each kind is reported with its own replay line, and each replays.
    let o = stalemate(&[
        "check",
        "tests/kernels/race_and_deadlock.go",
        "--engine",
        "dpor",
        "--all",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("-> data-race+deadlock ("), "{out}");
    assert!(out.contains("2 kinds found"), "{out}");
    let replays: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("stalemate replay "))
        .collect();
    assert_eq!(replays.len(), 2, "{out}");
    for (r, want) in replays.iter().zip(["data-race", "deadlock"]) {
        let args: Vec<&str> = std::iter::once("replay").chain(r.split(' ')).collect();
        let o = stalemate(&args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(
            text(&o).contains(&format!("property   {want}")),
            "{}",
            text(&o)
        );
    }
}

#[test]
fn a_deadline_loop_ends_in_any_time_mode_and_its_late_sender_leaks() {
    // The clock moves on with the timers that fired: the loop ends, main returns, and
    // the late sender stays blocked.
    let o = stalemate(&[
        "check",
        "tests/kernels/deadline_loop.go",
        "--engine",
        "dpor",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("-> leak (2 executions"), "{out}");
    assert!(
        out.contains("main has returned, and G2 main.func1 stay blocked forever"),
        "{out}"
    );
    assert!(out.contains("time.Now: 210ms"), "{out}");
    // Fixed: every execution ends, and the search finishes.
    let o = stalemate(&[
        "check",
        "tests/kernels/deadline_loop_fixed.go",
        "--engine",
        "dpor",
    ]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("every interleaving (proven for these parameters)"),
        "{out}"
    );
}

#[test]
fn lock_striping_by_address_is_proven_and_its_misuse_races() {
    expect("lock_striping.go", "pass");
    expect_saying(
        "lock_striping_race.go",
        "data-race",
        &["wrote total", "nothing orders the two"],
    );
}

#[test]
fn generic_functions_types_and_methods_run_as_go_runs_them() {
    // Stack[T], Pair[K, V], Node[T], Map[T, U], Sum[T Number], explicit and inferred
    // type arguments, zero values of T, %T, and atomic.Pointer[T]: a wrong one panics.
    expect("generics.go", "pass");
}

#[test]
fn a_generic_worker_pools_leak_is_found_at_its_go_line() {
    expect_saying(
        "generic_pool.go",
        "leak",
        &[
            "(*Pool).Run.func1 at generic_pool.go:30 waits for send on channel Pool[int].results (unbuffered)",
            "stay blocked forever",
        ],
    );
}

#[test]
fn buffers_readfull_sync_map_and_function_fields_give_gos_results() {
    expect("library_helpers.go", "pass");
    // A bytes.Buffer is plain memory: two writers without a lock race.
    expect_saying(
        "buffer_race.go",
        "data-race",
        &[
            "wrote bytes.Buffer.buf",
            "buffer_race.go:18",
            "nothing orders the two",
        ],
    );
    // A sync.Map orders a Store before the Load that sees it: no race.
    expect("sync_map_publish.go", "pass");
}

#[test]
fn strings_and_strconv_give_gos_results() {
    expect("strings_strconv.go", "pass");
}

#[test]
fn an_interface_may_embed_sync_locker_and_a_dial_is_refused() {
    expect("locker_dial.go", "pass");
}

#[test]
fn semantics_hold_in_every_schedule() {
    expect("semantics.go", "pass");
}

#[test]
fn context_cancel_reaches_children_and_timeouts_expire() {
    expect("ctx.go", "pass");
}

/// Go's cancel sets the error and closes `Done` under the context's mutex: a second
/// cancel returns with both done, and `Err` and a child's creation see both or
/// neither, ordered with the cancel (each was read outside any step before: a false
/// finding, and two violations no engine reached).
#[test]
fn a_cancel_is_one_step_that_err_and_children_are_ordered_with() {
    expect("context_cancel_twice.go", "pass");
    proven(&["--engine", "dpor", "tests/kernels/context_cancel_twice.go"]);
    for (k, says) in [
        (
            "context_child_after_cancel.go",
            "the child was made after the cancel",
        ),
        ("context_err_after_cancel.go", "Err saw the cancel"),
    ] {
        expect_saying(k, "violation:panic", &[says]);
        found_by(&["dpor"], k, "violation:panic", says);
    }
}

#[test]
fn a_nil_map_write_is_a_panic_at_its_line() {
    expect_saying(
        "nil_map.go",
        "violation:panic",
        &["panic: assignment to entry in nil map (nil_map.go:9)"],
    );
}

#[test]
fn an_index_out_of_range_is_reported_as_go_does() {
    expect_saying(
        "index.go",
        "violation:panic",
        &["panic: runtime error: index out of range [5] with length 3 (index.go:6)"],
    );
}

#[test]
fn a_lost_cond_signal_is_a_deadlock_naming_the_cond() {
    expect_saying(
        "cond.go",
        "deadlock",
        &["waits on Cond q.cond", "consumer in main.func1 at cond.go:"],
    );
}

#[test]
fn a_test_entry_reports_its_fatalf() {
    expect_saying(
        "testfail.go",
        "violation:test-failed",
        &["t.Fatalf: lost update: n = 1"],
    );
}

#[test]
fn check_runs_a_kernel_without_a_scenario_and_its_replay_reproduces() {
    let o = stalemate(&["check", "tests/kernels/semantics.go"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("every interleaving"), "{}", text(&o));

    let o = stalemate(&["check", "tests/kernels/cond.go"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "an unexpected deadlock: {t}");
    let replay = t
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("stalemate replay tests/kernels/cond.go --schedule ")
        })
        .unwrap_or_else(|| panic!("no replay line in:\n{t}"))
        .trim()
        .to_string();
    let args: Vec<&str> = replay.split(' ').skip(1).collect();
    let again = stalemate(&args);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    assert!(
        text(&again).contains("waits on Cond q.cond"),
        "{}",
        text(&again)
    );
}

/// Each kernel (body, `:line:col: message`, help) is refused with exit 2 by `check`.
#[test]
fn constructs_outside_the_subset_are_errors_at_their_place() {
    let dir = std::env::temp_dir().join(format!("stalemate-kernel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "syntax",
            "package main\n\nfunc main() {\n\tx := \n}\n",
            ":4:",
            "syntax error",
        ),
        (
            "import",
            "package main\n\nimport \"net/http\"\n\nfunc main() {}\n",
            ":3:8: import \"net/http\" is outside the subset",
            "a kernel may import: sync, time, context, errors, bytes, strings, strconv, io, net, unsafe, log, sync/atomic, math/rand, fmt, testing",
        ),
        (
            "member",
            "package main\n\nimport \"time\"\n\nfunc main() {\n\t_ = time.ParseDuration(\"1s\")\n}\n",
            ":6:6: time.ParseDuration is outside the Go subset",
            "from time, a kernel may use: Sleep, After",
        ),
        (
            "array",
            "package main\n\nfunc main() {\n\tvar a [len(\"ab\")]int\n\t_ = a\n}\n",
            ":4:9: an array length other than an integer or a declared constant is outside the Go subset",
            "docs/kernels.md, section \"The subset\"",
        ),
        (
            "goto",
            "package main\n\nfunc main() {\nl:\n\tgoto l\n}\n",
            ":5:2: a goto statement is outside the Go subset",
            "docs/kernels.md, section \"The subset\"",
        ),
        (
            "generic",
            "package main\n\ntype Pair[K comparable, V any] struct {\n\tk K\n\tv V\n}\n\nfunc main() {\n\tvar p Pair[int]\n\t_ = p\n}\n",
            ":9:2: Pair takes 2 type arguments, given 1",
            "Pair is declared with [K, V]",
        ),
        (
            "float",
            "package main\n\nfunc main() {\n\t_ = 1.5\n}\n",
            ":4:6: a floating-point number is outside the Go subset",
            "docs/kernels.md, section \"The subset\"",
        ),
        (
            "undefined",
            "package main\n\nfunc main() {\n\tgo func() {\n\t\tcount++\n\t}()\n}\n",
            ":5:3: undefined: count",
            "a name must be declared in the kernel",
        ),
        (
            "undeftype",
            "package main\n\ntype T struct {\n\tx Event\n}\n\nfunc main() {}\n",
            ":3:6: undefined: Event",
            "a name must be declared in the kernel",
        ),
        (
            "noentry",
            "package main\n\nfunc helper() {}\n",
            ":1:1: no entry `main`",
            "entries of this kernel:",
        ),
        (
            "pkg",
            "package cache\n\nfunc main() {}\n",
            ":3:1: no entry `main`: an entry is `func TestX(t *testing.T)` (this is a test file",
            "entries of this kernel:",
        ),
    ];
    for (name, body, msg, help) in cases {
        let p = dir.join(format!("{name}.go"));
        std::fs::write(&p, body).unwrap();
        let o = stalemate(&["check", p.to_str().unwrap()]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {t}");
        assert!(
            t.contains(&format!("{name}.go{msg}")),
            "{name}: wanted `{msg}` in:\n{t}"
        );
        assert!(t.contains(help), "{name}: wanted help `{help}` in:\n{t}");
        assert!(!t.contains("panicked"), "{name}: {t}");
    }
}

#[test]
fn scenario_errors_for_kernels_name_what_is_accepted() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let base = "expect = \"pass\"\n[[engine]]\nkind = \"loom\"\n";
    let cases: &[(&str, &str, &str)] = &[
        (
            "go = \"kernels/semantics.go\"\nvariant = \"buggy\"\n",
            "a Go kernel has no variant `buggy`",
            "a kernel's only variant is `kernel`",
        ),
        (
            "go = \"kernels/semantics.go\"\nmodel = \"cacher-2015\"\nvariant = \"buggy\"\n",
            "a scenario names a model or a Go kernel, not both",
            "remove model",
        ),
        (
            "go = \"kernels/semantics.go\"\n[params]\nwatchers = 2\n",
            "has no parameter `watchers`",
            "parameters of go:semantics",
        ),
        (
            "go = \"kernels/nope.go\"\n",
            "cannot read the Go kernel tests/kernels/nope.go",
            "",
        ),
        (
            "model = \"cacher-2015\"\nvariant = \"buggy\"\nentry = \"TestX\"\n",
            "`entry` is for Go kernels",
            "add go =",
        ),
    ];
    for (head, msg, help) in cases {
        // [params] must come after the top-level keys.
        let text = match head.split_once("[params]") {
            Some((a, b)) => format!("{a}{base}[params]{b}"),
            None => format!("{head}{base}"),
        };
        let e = match scenario::parse("tests/kernel_test.toml", &text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.full(),
        };
        assert!(e.contains(msg), "wanted `{msg}` in {e}");
        assert!(e.contains(help), "wanted `{help}` in {e}");
    }
}

#[test]
fn a_loop_without_go_operations_is_cut_at_the_statement_bound() {
    // Cut: no finding without evidence, the search goes on, and its pass is no proof.
    let s = scenario_with("spin.go", "pass", "[bounds]\nmax_steps = 100");
    for r in runner::run(&s) {
        let d = r.engine.describe();
        assert_eq!(r.verdict, Verdict::Ok, "{d}: {}", r.found_key());
        assert!(r.explored.executions > 0, "{d}");
        assert_eq!(r.explored.cut, r.explored.executions, "{d}");
        assert!(!r.proven(), "{d}: {}", r.coverage());
        assert!(
            r.coverage().contains("cut at the step bound"),
            "{d}: {}",
            r.coverage()
        );
    }
    // On request, the bound is a violation.
    let extra = "[bounds]\nmax_steps = 100\nat_max_steps = \"fail\"";
    for r in expect_with("spin.go", "violation:step-bound", extra) {
        assert!(r.contains("the goroutine ran 10000 statements"), "{r}");
        assert!(r.contains("max_steps 100 (at_max_steps fail)"), "{r}");
    }
}

#[test]
fn deep_recursion_is_a_panic_at_the_call_bound() {
    expect_saying(
        "deep.go",
        "violation:panic",
        &["panic: stack overflow: more than 200 nested calls"],
    );
}

#[test]
fn kernel_timers_follow_the_time_mode() {
    expect_saying(
        "timeout.go",
        "violation:panic",
        &["the 5s timeout fired before"],
    );
    expect_with("timeout.go", "pass", "[time]\nmode = \"virtual\"");
}

#[test]
fn an_empty_select_blocks_forever() {
    expect_saying(
        "select_forever.go",
        "leak",
        &["parked in main.func1 at select_forever.go:6 waits for select {} (blocks forever)"],
    );
}

#[test]
fn a_nil_dereference_is_reported_as_go_does() {
    expect_saying(
        "nil_deref.go",
        "violation:panic",
        &[
            "panic: runtime error: invalid memory address or nil pointer dereference (nil_deref.go:11)",
        ],
    );
}

/// `stalemate check ARGS`: exit 0 and a proof. Returns the output.
fn proven(args: &[&str]) -> String {
    let o = stalemate(&[&["check"][..], args].concat());
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {t}");
    assert!(
        t.contains("every interleaving (proven for these parameters)"),
        "{args:?}: {t}"
    );
    t
}

/// `stalemate check ARGS`: exit 1 with `key` found, its report saying each of `says`.
/// Returns the output.
fn found(args: &[&str], key: &str, says: &[&str]) -> String {
    let o = stalemate(&[&["check"][..], args].concat());
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {t}");
    assert!(
        t.contains(&format!("stalemate: {key} found")),
        "{args:?}: {t}"
    );
    for s in says {
        assert!(t.contains(s), "{args:?}: wanted `{s}` in {t}");
    }
    t
}

/// `found` under each of `engines`, on kernel `k` of `tests/kernels/`.
fn found_by(engines: &[&str], k: &str, key: &str, says: &str) {
    let path = format!("tests/kernels/{k}");
    for engine in engines {
        found(&["--engine", engine, &path], key, &[says]);
    }
}

/// The replay line of a report, run: it reproduces (exit 0). Returns its output.
fn replayed(report: &str, starts: &str) -> String {
    let line = report
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(starts))
        .unwrap_or_else(|| panic!("no `{starts}` line in:\n{report}"));
    let args: Vec<&str> = line.split(' ').skip(1).collect();
    let again = stalemate(&args);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    text(&again)
}

/// `Timer.Stop` and `Timer.Reset` return what Go documents: under virtual time every
/// case by its deadline; under `any` time, in every order of firing and stopping, Stop's
/// result agrees with the channel. Both kernels panic on a wrong result.
#[test]
fn timer_stop_and_reset_return_what_go_documents() {
    proven(&["--time", "virtual", "tests/kernels/timer_virtual.go"]);
    proven(&["--time", "any", "tests/kernels/timer_any.go"]);
}

/// `if !t.Stop() { <-t.C }` after a select that took the tick: Stop returns false and
/// the drain waits forever, in both time modes; the replay command carries `--time`
/// and reproduces the report. With a drain that does not wait, proven.
#[test]
fn stop_then_drain_after_the_tick_was_taken_hangs_and_is_found() {
    for time in ["any", "virtual"] {
        let t = found(
            &["--time", time, "tests/kernels/timer_drain.go"],
            "deadlock",
            &[
                "already fired or stopped",
                "waits for receive from channel t (empty)",
            ],
        );
        let cmd =
            format!("stalemate replay tests/kernels/timer_drain.go --time {time} --schedule ");
        replayed(&t, &cmd);
        proven(&["--time", time, "tests/kernels/timer_drain_fixed.go"]);
    }
}

/// `stalemate check` takes the options a user reaches for: one engine, its budget and
/// seed, the time mode and the entry; a bad one is refused before anything runs.
#[test]
fn check_takes_engine_iterations_time_entry_and_seed() {
    let o = stalemate(&[
        "check",
        "--engine",
        "shuttle-random",
        "--seed",
        "7",
        "--iterations",
        "40",
        "tests/kernels/semantics.go",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("shuttle-random (seed 7"), "{t}");
    assert!(t.contains("40 executions"), "{t}");
    assert!(!t.contains("dpor"), "one engine only: {t}");

    found(
        &["--entry", "TestCounter", "tests/kernels/testfail.go"],
        "violation:test-failed",
        &[],
    );

    for (args, says) in [
        (
            vec!["--engine", "turmoil"],
            "invalid value 'turmoil' for '--engine",
        ),
        (
            vec!["--iterations", "0"],
            "invalid value '0' for '--iterations",
        ),
        (vec!["--time", "real"], "invalid value 'real' for '--time"),
        (vec!["--entry", "TestNope"], "no entry `TestNope`"),
    ] {
        let mut all = vec!["check"];
        all.extend(args);
        all.push("tests/kernels/semantics.go");
        let o = stalemate(&all);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {t}");
        assert!(t.contains(says), "{all:?}: {t}");
        assert!(!t.contains("executions"), "nothing runs: {t}");
    }
}

/// `defer close(ch)`, `defer delete(m, k)`, `go close(ch)`, `defer println(...)`: the
/// builtins Go allows as statements are the call of `go` and `defer`, their arguments
/// evaluated at the statement (a self-checking kernel, proven); a `go close(ch)` that
/// races with a send is found as Go's panic.
#[test]
fn builtins_as_the_call_of_go_and_defer() {
    proven(&["tests/kernels/builtins_deferred.go"]);
    // The close is a goroutine of its own: where main's send completes first, Go's
    // race detector reports the send against the close (its runtime reads the channel
    // at a send and writes it at a close); where the close comes first, the send
    // panics. dpor's first execution is the first order, seed 6's first random one
    // the second.
    found(
        &["tests/kernels/go_close_send.go"],
        "data-race",
        &[
            "main sent on channel ch at step 2 in main at go_close_send.go:7; G2 close closed it at step 5; nothing orders the two (a close must happen after every send)",
        ],
    );
    let random = ["--engine", "shuttle-random", "--seed", "6"];
    found(
        &[&random[..], &["tests/kernels/go_close_send.go"]].concat(),
        "fault:send-on-closed-channel",
        &["main: panic: send on closed channel", "G2 close"],
    );
}

/// `math/rand`: every value of `rand.Intn(n)` is a branch the engines explore (3 × 2
/// values: six executions, each proven), `rand.New(rand.NewSource(s))` draws the same
/// way; a deadlock on a rare random path is found with the value in its report, and its
/// replay reproduces it; `rand.Intn(0)` panics as Go's does.
#[test]
fn math_rand_values_are_branches_the_engines_explore() {
    let t = proven(&["--engine", "dpor", "tests/kernels/rand_semantics.go"]);
    assert!(t.contains("pass (6 executions: every interleaving"), "{t}");
    let t = found(
        &["tests/kernels/rand_lock_order.go"],
        "deadlock",
        &["rand.Intn(4) = 3"],
    );
    let again = replayed(
        &t,
        "stalemate replay tests/kernels/rand_lock_order.go --schedule",
    );
    assert!(again.contains("rand.Intn(4) = 3"), "{again}");
    found(
        &["tests/kernels/rand_zero.go"],
        "violation:panic",
        &["panic: invalid argument to Intn (rand_zero.go:7)"],
    );
}

/// `iota` as Go defines it (a self-checking kernel, proven), and `// G1` comments name
/// the goroutines they mark: a worker that never sends the phase its reader waits for
/// is a deadlock whose report names it `G1`.
#[test]
fn iota_and_numbered_goroutine_comments() {
    proven(&["tests/kernels/iota.go"]);
    found(
        &["tests/kernels/iota_phases.go"],
        "deadlock",
        &["go G1", "G1  "],
    );
}

/// `time.Now`, `Since`, `Until` and `time.Time`'s methods on the virtual clock (a
/// self-checking kernel, proven); a retry loop that gives up by `time.Since` before its
/// result comes leaves the sender blocked: a leak, found with the clock in the report;
/// with room for the late result, proven.
#[test]
fn time_now_and_since_follow_the_virtual_clock() {
    proven(&["--time", "virtual", "tests/kernels/time_now.go"]);
    found(
        &["--time", "virtual", "tests/kernels/time_deadline.go"],
        "leak",
        &["waits for send on channel results", "   900ms  main"],
    );
    proven(&["--time", "virtual", "tests/kernels/time_deadline_fixed.go"]);
}

/// `sync/atomic`: the functions on a plain variable and the typed values (`Int32`,
/// `Bool`) as Go documents them, concurrent increments never lost (a self-checking
/// kernel, proven); a started flag loaded and stored in two steps lets two goroutines
/// close one channel, found; with `CompareAndSwapInt32`, proven.
#[test]
fn sync_atomic_accesses_are_operations() {
    proven(&["tests/kernels/atomics.go"]);
    found(
        &["tests/kernels/atomic_flag.go"],
        "fault:close-of-closed-channel",
        &["atomic sync/atomic: StoreInt32 on a variable"],
    );
    proven(&["tests/kernels/atomic_flag_fixed.go"]);
}

/// `rw.RLocker()`: its Lock is RLock (two holders at once), a Cond on it waits holding
/// only a read lock (proven); a reader that takes the write lock while holding the read
/// lock through RLocker waits for itself, found.
#[test]
fn rlocker_is_the_read_lock() {
    proven(&["tests/kernels/rlocker.go"]);
    found(
        &["tests/kernels/rlocker_upgrade.go"],
        "deadlock",
        &["waits for lock rw (write), held by main (took it for reading"],
    );
}

/// A zero `sync.Cond` whose `L` is set by hand (`q.cond.L = &q.mu`): waits and signals
/// as `sync.NewCond`'s does (proven), a signal before an unchecked `Wait` is lost and
/// found; `Wait` with no `L` is Go's nil dereference, and a `Signal` then is lost.
#[test]
fn a_zero_cond_with_l_set_by_hand() {
    proven(&["tests/kernels/cond_zero.go"]);
    found(
        &["tests/kernels/cond_zero_lost.go"],
        "deadlock",
        &["waits on Cond queue.cond"],
    );
    found(
        &["tests/kernels/cond_zero_nil.go"],
        "violation:panic",
        &[
            "panic: runtime error: invalid memory address or nil pointer dereference (cond_zero_nil.go:8)",
        ],
    );
}

/// Type switches: a case per type (pointer, struct, int, string, error, a declared
/// interface), several types in one case, `nil` and `default` (a self-checking kernel,
/// proven); an event loop whose stop case forgets its acknowledgement, found.
#[test]
fn type_switches_dispatch_as_go_does() {
    proven(&["tests/kernels/type_switch.go"]);
    found(
        &["tests/kernels/type_switch_stop.go"],
        "deadlock",
        &["main in main at type_switch_stop.go:28 waits for receive from channel d"],
    );
}

/// `io.EOF` is one value compared by identity, `io.Reader` an interface a kernel type
/// implements, `log.Printf` prints to the trace (a self-checking kernel, proven); a
/// forwarder that returns at `io.EOF` without closing its channel, found.
#[test]
fn io_eof_readers_and_log() {
    proven(&["tests/kernels/io_log.go"]);
    found(
        &["tests/kernels/io_forward.go"],
        "deadlock",
        &["main in main at io_forward.go:34 waits for receive from channel out"],
    );
}

/// `time.AfterFunc`: f runs in its own goroutine after d unless `Stop` comes first, and
/// `Stop` says whether it did (a self-checking kernel, proven under virtual time); a
/// reply path that closes what the timeout closes, ignoring `Stop`'s result, is found
/// in both time modes; using the result, proven in both.
#[test]
fn after_func_runs_unless_stopped_and_stop_says_so() {
    proven(&["--time", "virtual", "tests/kernels/afterfunc.go"]);
    for time in ["virtual", "any"] {
        found(
            &["--time", time, "tests/kernels/afterfunc_timeout.go"],
            "fault:close-of-closed-channel",
            &["go time.AfterFunc t", "close done: already closed"],
        );
        proven(&["--time", time, "tests/kernels/afterfunc_timeout_fixed.go"]);
    }
}

/// `log.Fatal` prints and ends the program with status 1 (a finding of its own,
/// `violation:exit`, and main's deferred call does not run); `log.Panic` prints and
/// panics with its message after the deferred calls.
#[test]
fn log_fatal_exits_and_log_panic_panics() {
    let t = found(
        &["tests/kernels/log_fatal.go"],
        "violation:exit",
        &[
            "log.Fatalf: no reply before the deadline (1 goroutines waited) (the program exits with status 1)",
            "close deadline",
        ],
    );
    assert!(!t.contains("deferred in main"), "{t}");
    replayed(&t, "stalemate replay");
    let t = found(
        &["tests/kernels/log_panic.go"],
        "violation:panic",
        &["panic: bad state 7", "deferred call ran"],
    );
    // The deferred call runs before the panic ends the program.
    let (ran, broke) = (t.find("deferred call ran"), t.find("property panic broken"));
    assert!(ran.is_some() && ran < broke, "{t}");
}

/// An interface embedding interfaces (declared ones, and io's) has the union of their
/// methods: calls, assertions and type switches see it (a self-checking kernel,
/// proven); a Service that embeds Starter and Stopper, whose Stop waits for a loop
/// that returned, is found.
#[test]
fn interfaces_embedding_interfaces_have_every_method() {
    proven(&["tests/kernels/embedded_interface.go"]);
    found(
        &["tests/kernels/embedded_interface_stop.go"],
        "deadlock",
        &[
            "main in main at embedded_interface_stop.go:40 > (*server).Stop at embedded_interface_stop.go:33 waits for send on channel server.stop (unbuffered)",
        ],
    );
}

/// Arrays are values (a store and an argument copy one, a slice of one shares its
/// elements, `==` compares elements, keyed literals, `[...]T`, `_ [64]byte` padding,
/// an array of mutexes each its own): a self-checking kernel, proven. Workers that
/// each lock their own fork of an array of locks first are found in their cycle.
#[test]
fn arrays_are_values_and_their_elements_are_objects_of_their_own() {
    proven(&["tests/kernels/arrays.go"]);
    found(
        &["tests/kernels/arrays_philosophers.go"],
        "deadlock",
        &[
            "philosopher in main.func1 at arrays_philosophers.go:18 waits for lock forks[1], held by philosopher",
            "philosopher in main.func1 at arrays_philosophers.go:18 waits for lock forks[0], held by philosopher",
        ],
    );
}

/// Plain memory in kernels is race-checked as `go test -race` checks it: variables,
/// fields, slice elements and maps that Go operations order are race-free (proven);
/// an unlocked counter and a map filled without its lock are `data-race` findings
/// naming both accesses, and the report replays.
#[test]
fn data_races_on_kernel_memory_are_reported_as_go_race_detector_would() {
    proven(&["tests/kernels/race_free.go"]);
    let t = found(
        &["tests/kernels/race_counter.go"],
        "data-race",
        &[
            "a wrote count after step 4 in main.func1 at race_counter.go:13; b read it after step 7 in main.func2 at race_counter.go:18; nothing orders the two",
        ],
    );
    replayed(&t, "stalemate replay");
    found(
        &["tests/kernels/race_map.go"],
        "data-race",
        &[
            "filler wrote c.items after step 4 in (*cache).put at race_map.go:15; refresher wrote it after step 7 in (*cache).put at race_map.go:15",
        ],
    );
}

/// An atomic access and a plain one of the same variable race, as `go test -race`
/// reports them (an atomic never races with an atomic): a counter added to with
/// `atomic.AddInt64` and read, or reset, plainly; atomics on both sides, proven.
/// Atomics order only through their own variable: a flag loaded from another
/// variable than the one stored publishes nothing (in virtual time the reader comes
/// after the writer in every schedule; stalemate used to order every kernel atomic
/// with every other, and proved that form clean).
#[test]
fn an_atomic_and_a_plain_access_of_one_variable_race() {
    let t = found(
        &["--param", "form=0", "tests/kernels/race_atomic.go"],
        "data-race",
        &[
            "counter wrote hits atomically at step 5 in main.func1 at race_atomic.go:20; reporter read it after step 8 in main.func2 at race_atomic.go:27; nothing orders the two",
        ],
    );
    replayed(&t, "stalemate replay");
    found(
        &["--param", "form=1", "tests/kernels/race_atomic.go"],
        "data-race",
        &[
            "counter wrote hits atomically at step 5 in main.func1 at race_atomic.go:20; reporter wrote it after step 8 in main.func2 at race_atomic.go:32; nothing orders the two",
        ],
    );
    proven(&["--param", "form=2", "tests/kernels/race_atomic.go"]);
    let virtual_time = ["--time", "virtual"];
    let other = ["--param", "same=0", "tests/kernels/atomic_publish.go"];
    found(
        &[&virtual_time[..], &other].concat(),
        "data-race",
        &[
            "writer wrote data after step 4 in main.func1 at atomic_publish.go:28; reader read it after step 13 in main.func2 at atomic_publish.go:41; nothing orders the two",
        ],
    );
    proven(&[&virtual_time[..], &["tests/kernels/atomic_publish.go"]].concat());
    proven(&["tests/kernels/atomic_publish.go"]);
}

/// A whole struct copied (returned or passed by value, `v := *p`), compared (`==`) or
/// assigned reads, or writes, every field, as Go's race detector sees it: each form
/// without the lock races with a field written under it, naming the field and both
/// lines; each form under the lock, proven.
#[test]
fn a_whole_struct_copy_reads_every_field() {
    let lines = ["27", "45", "48", "52", "54"];
    for (form, line) in lines.iter().enumerate() {
        let form = format!("form={form}");
        let (verb, func) = match *line {
            "27" => ("read", "(*cache).Stats"),
            "54" => ("wrote", "(*cache).peek"),
            _ => ("read", "(*cache).peek"),
        };
        found(
            &["--param", &form, "tests/kernels/race_struct_copy.go"],
            "data-race",
            &[&format!(
                "writer wrote stats.writes after step 5 in (*cache).put at race_struct_copy.go:33; reader {verb} it after step 9 in {func} at race_struct_copy.go:{line}; nothing orders the two"
            )],
        );
        proven(&[
            "--param",
            &form,
            "--param",
            "locked=1",
            "tests/kernels/race_struct_copy.go",
        ]);
    }
}

/// `WaitGroup.Add` from zero against a `Wait`, as Go's `sync` annotates them for the
/// race detector: a goroutine that takes the counter up from zero again while main
/// waits, unordered with main's Wait, is a race naming both calls; adding for both
/// goroutines before they start, proven.
#[test]
fn an_add_from_zero_unordered_with_a_wait_is_a_race() {
    let t = found(
        &["tests/kernels/race_waitgroup.go"],
        "data-race",
        &[
            "main waited on WaitGroup wg at step 7 in main at race_waitgroup.go:30; starter added 1 to it from zero at step 10 in main.func2 at race_waitgroup.go:24; nothing orders the two (an Add from zero must happen before a Wait, or after it returns)",
        ],
    );
    replayed(&t, "stalemate replay");
    proven(&["--param", "fixed=1", "tests/kernels/race_waitgroup.go"]);
}

/// A copy of a sync value is a new one in the same state, as in Go (`go vet`'s
/// copylocks): a value receiver locks its own copy of the mutex, so the counter it
/// should guard is raced; a WaitGroup passed by value takes the worker's `Done`, and
/// main waits forever. Both were proven clean while a copy shared the original.
/// Pointers instead: proven. A copy made while a worker may lock the mutex reads the
/// state the lock writes: a race naming the copy and the operation.
#[test]
fn a_copy_of_a_sync_value_is_a_value_of_its_own() {
    found(
        &["--param", "form=0", "tests/kernels/copylocks.go"],
        "data-race",
        &[
            "worker wrote *c.n after step 5 in counter.incCopy at copylocks.go:22; worker read it after step 10 in counter.incCopy at copylocks.go:22; nothing orders the two",
        ],
    );
    found(
        &["--param", "form=1", "tests/kernels/copylocks.go"],
        "deadlock",
        &["main in main at copylocks.go:70 waits for WaitGroup wg (counter 2)"],
    );
    proven(&["--param", "form=2", "tests/kernels/copylocks.go"]);
    found(
        &["--param", "form=3", "tests/kernels/copylocks.go"],
        "data-race",
        &[
            "main copied counter.mu (a plain read of its state) after step 3 in main at copylocks.go:52; worker operated on it at step 6 in (*counter).inc at copylocks.go:27; nothing orders the two",
        ],
    );
}

/// A Go test file runs as written: `package cache` (not `main`), each test in turn
/// (a row each, the replay naming its `--entry`), subtests run by `t.Run` (each named
/// `TestCache/get`), cleanups run last first when a test or subtest returns. The second subtest's lock-order deadlock is
/// found with both goroutines in its cycle; one lock order, proven. `package cache`
/// used to be refused (`a kernel is package main`).
#[test]
fn a_go_test_file_runs_as_written() {
    let t = found(
        &["tests/kernels/cache_test.go"],
        "deadlock",
        &[
            "getter in TestCache.func6 at cache_test.go:76 > (*cache).get at cache_test.go:25 waits for lock cache.statsMu, held by resetter",
            "resetter in TestCache.func7 at cache_test.go:80 > (*cache).reset at cache_test.go:41 waits for lock cache.mu, held by getter",
            // With no --entry, each test in turn, a row each; the replay names its test.
            "cache_test/TestCache  dpor         pass      deadlock  unexpected",
            "cache_test/TestGet    dpor         pass      pass      ok",
            "stalemate replay tests/kernels/cache_test.go --entry TestCache --schedule",
        ],
    );
    replayed(
        &t,
        "stalemate replay tests/kernels/cache_test.go --entry TestCache",
    );
    let one = ["--entry", "TestCache", "--param", "fixed=1"];
    proven(&[&one[..], &["tests/kernels/cache_test.go"]].concat());
}

/// A test with `testing/synctest`, as written: the kernel runs in virtual time (the
/// bubble's clock), `synctest.Test` runs its function as a subtest, `synctest.Wait`
/// returns once every other goroutine is blocked and leaves the clock where it was.
/// A bubble that returns with its worker blocked is the finding (a leak naming the
/// worker); taking the worker's report, proven. `--time any` with such a kernel is
/// bad input (exit 2). `import "testing/synctest"` used to be refused.
#[test]
fn a_synctest_bubble_runs_in_virtual_time() {
    found(
        &["tests/kernels/synctest_test.go"],
        "leak",
        &[
            "worker in TestReportsAfterASecond.func2 at synctest_test.go:23 waits for send on channel done (unbuffered)",
        ],
    );
    proven(&["--param", "fixed=1", "tests/kernels/synctest_test.go"]);
    let o = stalemate(&["check", "--time", "any", "tests/kernels/synctest_test.go"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains(
            "synctest_test.go: --time: a kernel that imports testing/synctest runs in virtual time"
        ),
        "{t}"
    );
}

/// Go 1.21's `min`, `max` and `clear`, the builtin `copy`, and a pointer to a mutex in
/// an array of them (`l := &s.locks[i]; l.Lock()`): a self-checking kernel, proven.
/// The builtins used to be refused, and the pointer's `Lock` a crash (`(pointer) has
/// no method Lock`).
#[test]
fn builtins_of_go_1_21_and_striped_locks() {
    proven(&["tests/kernels/builtins_121.go"]);
}

/// A value that refers to itself prints once, as Go's `%v` follows a pointer at the
/// top level only: the ring and the self-loop print and the kernel is proven (the
/// printer used to take the lock of the node it was already printing, and hang).
#[test]
fn a_value_that_refers_to_itself_prints_once() {
    proven(&["tests/kernels/print_cycle.go"]);
}

/// `time.Tick` is a ticker's channel that nothing stops: a heartbeat main never stops
/// is a leak in both time modes; stopped (`--param stopped=1`, which the replay line
/// repeats), proven. A `--param` the kernel does not declare, or not an integer, is
/// bad input before anything runs.
#[test]
fn time_tick_and_params_on_the_command_line() {
    for time in ["virtual", "any"] {
        let t = found(
            &["--time", time, "tests/kernels/tick_heartbeat.go"],
            "leak",
            &[
                "heartbeat in main.func1 at tick_heartbeat.go:14 waits for select { receive from channel tick (empty) | receive from channel stop (empty) }",
            ],
        );
        replayed(&t, "stalemate replay");
        proven(&[
            "--time",
            time,
            "--param",
            "stopped=1",
            "tests/kernels/tick_heartbeat.go",
        ]);
    }
    let t = found(
        &[
            "--param",
            "capacity=0",
            "--param",
            "frames=1",
            "scenarios/goker/kubernetes_6632.go",
        ],
        "deadlock",
        &[],
    );
    assert!(
        t.contains("--param capacity=0 --param frames=1 --schedule"),
        "{t}"
    );
    replayed(&t, "stalemate replay");
    for (arg, says) in [
        (
            "nope=1",
            "tick_heartbeat.go: --param: model go:tick_heartbeat has no parameter `nope`",
        ),
        ("stopped=x", "`x` is not an integer"),
    ] {
        let o = stalemate(&["check", "--param", arg, "tests/kernels/tick_heartbeat.go"]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(says), "{}", text(&o));
        assert!(!text(&o).contains("engine 1"), "{}", text(&o));
    }
}

/// Map keys of every comparable kind (structs by value, pointers and channels by
/// identity, iterated in the order first used), and a missing key reads the element
/// type's zero value: a self-checking kernel, proven. A broadcaster that sends to its
/// `map[*watcher]bool` under the lock a stopping watcher waits for, found.
#[test]
fn maps_keyed_by_structs_pointers_and_channels() {
    proven(&["tests/kernels/map_keys.go"]);
    found(
        &["tests/kernels/map_keys_watchers.go"],
        "deadlock",
        &[
            "main in main at map_keys_watchers.go:42 > (*broadcaster).stop at map_keys_watchers.go:28 waits for lock broadcaster.mu, held by broadcaster",
            "broadcaster in main.func1 at map_keys_watchers.go:39 > (*broadcaster).send at map_keys_watchers.go:23 waits for send on channel watcher.events (unbuffered)",
        ],
    );
}

/// `net.Conn`, `net.Error`, `net.Listener` and `net.Addr` are interfaces a kernel's
/// types implement (a self-checking kernel, proven); a reader loop that retries
/// timeouts and returns on other errors without answering is found.
#[test]
fn net_interfaces_are_method_sets() {
    proven(&["tests/kernels/net_types.go"]);
    found(
        &["tests/kernels/net_timeout_retry.go"],
        "deadlock",
        &["main in main at net_timeout_retry.go:38 waits for receive from channel result (empty)"],
    );
}

/// `atomic.Value`: Load, Store, Swap and CompareAndSwap as Go documents them, each an
/// operation on its own object, and a `Load` poll sees a `Store` (a self-checking
/// kernel, proven); storing nil panics with Go's message; a hot reload that releases
/// only the new config's waiters is found.
#[test]
fn atomic_value_loads_what_was_stored() {
    proven(&["tests/kernels/atomic_value.go"]);
    found(
        &["tests/kernels/atomic_value_nil.go"],
        "violation:panic",
        &["panic: sync/atomic: store of nil value into Value (atomic_value_nil.go:9)"],
    );
    found(
        &["tests/kernels/atomic_value_reload.go"],
        "deadlock",
        &[
            "waiter in main.func1 at atomic_value_reload.go:18 waits for receive from channel config.ready (empty)",
        ],
    );
}

/// `unsafe.Pointer` as an opaque pointer (conversions keep the value, `(*T)(p)`
/// included) with `sync/atomic`'s Pointer functions, each one Go operation (a
/// self-checking kernel, proven); a buffer swap that fills the fresh buffer while a
/// reader holds the old one is found.
#[test]
fn unsafe_pointer_is_an_opaque_pointer() {
    proven(&["tests/kernels/unsafe_pointer.go"]);
    found(
        &["tests/kernels/unsafe_pointer_swap.go"],
        "deadlock",
        &[
            "consumer in main.func1 at unsafe_pointer_swap.go:22 waits for receive from channel buffer.full (empty)",
        ],
    );
}

/// `Ticker.Reset` restarts a ticker with its new period on the same channel, and a
/// second `Stop` is no error (a self-checking kernel, proven under virtual time); a
/// heartbeat loop that resets its ticker and waits for `C` to close, which `Stop`
/// never does, leaks.
#[test]
fn ticker_reset_restarts_the_period() {
    proven(&["--time", "virtual", "tests/kernels/ticker_reset.go"]);
    found(
        &["--time", "virtual", "tests/kernels/ticker_reset_leak.go"],
        "leak",
        &["heartbeat in main.func1 at ticker_reset_leak.go:13 waits for select"],
    );
}

/// Methods on named types that are not structs (an int enumeration with `String`, a
/// func type, a channel type, a map type, a pointer method on a named int), seen by
/// interfaces and type switches: a self-checking kernel, proven. A stop channel type
/// whose `Stop` is called by both the shutdown and the error path double-closes.
#[test]
fn methods_on_named_non_struct_types() {
    proven(&["tests/kernels/named_types.go"]);
    found(
        &["tests/kernels/named_types_stop_twice.go"],
        "fault:close-of-closed-channel",
        &["stopCh.Stop at named_types_stop_twice.go:9  close stop: already closed"],
    );
}

/// `io.Discard` is an `io.Writer` that takes every byte and never fails (a
/// self-checking kernel, proven); a shipper that closes its done channel only on a
/// failed write, configured with `io.Discard`, leaves the flusher waiting.
#[test]
fn io_discard_writes_everything() {
    proven(&["tests/kernels/io_discard.go"]);
    found(
        &["tests/kernels/io_discard_drain.go"],
        "deadlock",
        &["main in main at io_discard_drain.go:24 waits for receive from channel done (empty)"],
    );
}

/// `&s[i]` points at an element of the backing array: stores through it, struct
/// elements' fields and pointer methods, equality of two pointers to one element,
/// array elements; `&s.f` at a field, `sync/atomic` included (self-checking kernels,
/// proven); workers counting through
/// pointers to one shared shard race, and the race names the element.
#[test]
fn the_address_of_an_element() {
    proven(&["tests/kernels/elem_address.go"]);
    proven(&["tests/kernels/field_address.go"]);
    found(
        &["tests/kernels/elem_address_race.go"],
        "data-race",
        &[
            "worker wrote *c after step 5 in main.func1 at elem_address_race.go:18; worker read it after step 8",
        ],
    );
}

/// A send at a full buffer waits though dpor keeps it back, taking no step for it
/// (docs/dpor.md, "Reductions"): main takes the first of three results from a channel
/// with room for one and returns, and the worker left at the full buffer is the leak,
/// named at its send, its replay reproducing it. The fix, draining every result, is
/// proven in 24 executions (loom, with no bound: 6,690).
#[test]
fn a_worker_left_at_a_full_buffer_leaks() {
    let t = found(
        &["--engine", "dpor", "tests/kernels/first_result_leak.go"],
        "leak",
        &[
            "G4 main.func1 in main.func1 at first_result_leak.go:9 waits for send on channel results (full, 1/1)",
        ],
    );
    replayed(&t, "stalemate replay");
    let t = proven(&["--engine", "dpor", "tests/kernels/first_result_fixed.go"]);
    assert!(t.contains("pass (24 executions"), "{t}");
}

/// A plain operation that completes a waiting select takes it off its other channels
/// too, a change of each (`World::withdrawn`). That change is the select's wait
/// undone, not the taker's own use: the taker is never reversed with the select's
/// wait (`Mode::Hand`), and it does not race through those channels with what came
/// before the wait (`Access::Withdraw`), where the reversal would only find the
/// behaviour again, every awake goroutine asleep. etcd#7443's fixed kernel, whose
/// update loop waits to send to the watcher or to see the balancer stop: its proof
/// runs no more executions than its traces (five more, ended asleep, without it).
#[test]
fn a_hand_off_that_completes_a_select_runs_no_execution_in_vain() {
    use stalemate::explore::{Bounds, Engine};
    let model = kernel_model("scenarios/goker/etcd_7443.go", "etcd_7443", &[("fixed", 1)]);
    let b = Bounds::default().check_races(true);
    let run = stalemate::explore::explore(&Engine::Dpor, &b, model.clone(), None).expect("ran");
    assert!(run.finding.is_none());
    let t = stalemate::explore::traces(&b, model, false).expect("ran");
    assert!(t.stopped.is_empty());
    assert!(
        run.explored.executions <= t.traces.len() as u64,
        "{} executions for {} traces",
        run.explored.executions,
        t.traces.len()
    );
}

/// `len(ch)` and `cap(ch)` give Go's values (the kernel panics on a wrong one; a
/// timer's channel has capacity 1, as before Go 1.23). `len` is a step of its own that sends
/// and receives are reversed with: two producers that check for room before sending
/// both see room for one value, and the second blocks forever; a select with a default
/// decides and sends in one step, and is proven. Both trees reach every trace of the
/// search without reduction.
#[test]
fn len_of_a_channel_is_a_step_and_a_check_before_a_send_leaks() {
    expect("chan_len.go", "pass");
    found(
        &["--engine", "dpor", "tests/kernels/len_send.go"],
        "deadlock",
        &[
            "len events: 0",
            "G3 main.func1 in main.func1 at len_send.go:11 waits for send on channel events (full, 1/1)",
        ],
    );
    proven(&["--engine", "dpor", "tests/kernels/len_send_fixed.go"]);
    use stalemate::explore::traces;
    for k in ["len_send", "len_send_fixed"] {
        let model = kernel_model(&format!("tests/kernels/{k}.go"), k, &[]);
        let b = stalemate::explore::Bounds::default();
        let dpor = traces(&b, model.clone(), false).expect("ran");
        let all = traces(&b, model, true).expect("ran");
        assert!(all.stopped.is_empty(), "{k}");
        assert_eq!(dpor.traces, all.traces, "{k}");
    }
}

/// A wakeup sequence inserted below a step the world keeps back (main's wait at a
/// WaitGroup never done, independent of the sequence) is explored from that level when
/// the kept step cannot run there, not dropped with it: the tree reaches every trace
/// of the search without reduction (two were lost before).
#[test]
fn a_sequence_below_a_kept_step_is_still_explored() {
    use stalemate::explore::traces;
    let model = kernel_model("tests/kernels/held_head.go", "held_head", &[]);
    let b = stalemate::explore::Bounds::default();
    let dpor = traces(&b, model.clone(), false).expect("ran");
    let all = traces(&b, model, true).expect("ran");
    assert!(all.stopped.is_empty() && dpor.stopped.is_empty());
    assert_eq!(all.traces.len(), 77);
    assert_eq!(dpor.traces, all.traces);
    assert_eq!(dpor.explored.executions, 78);
}

/// A kernel's channel that no send can reach (`kernel::done`: by where each
/// `make(chan ...)` can flow, by name) is made a done channel when unbuffered, as a
/// context's `Done()` is: under dpor a select waiting there beside buffered channels
/// is kept back. main's selects receiving from n workers through channels of capacity
/// 1, beside a `done` channel it closes: one execution for every n, and so with a
/// send on `done` written (never run), where the selects wait as halves and each
/// worker's send takes their place (`Chan::placed`). Where the workers send in selects
/// beside `done` too (Go's cancellable send), one execution as well: each worker's
/// select is its buffered send, and only looks at `done` (`Mode::Chosen`; it was 1, 4,
/// 19, 125 for n = 1..4). With the send written, where `done` is a plain channel and
/// each select's case there an event, 2, 8, 48, 384.
#[test]
fn a_channel_a_kernel_never_sends_on_is_a_done_channel() {
    let fan = |workers: i64, sendable: bool, cancellable: bool| {
        let work = if cancellable {
            "select { case c <- v: case <-done: }"
        } else {
            "c <- v"
        };
        let send = if sendable {
            "\tif workers < 0 {\n\t\tdone <- struct{}{}\n\t}\n"
        } else {
            ""
        };
        let src = format!(
            "package main\n\nconst workers = {workers}\n\nfunc main() {{\n\
             \tdone := make(chan struct{{}})\n\tcs := make([]chan int, workers)\n\
             \tfor i := range cs {{\n\t\tcs[i] = make(chan int, 1)\n\
             \t\tgo func(c chan int, v int) {{ {work} }}(cs[i], i)\n\t}}\n\
             \tfor _, c := range cs {{\n\t\tselect {{\n\t\tcase <-c:\n\t\tcase <-done:\n\
             \t\t\treturn\n\t\t}}\n\t}}\n\tclose(done)\n{send}}}\n"
        );
        let model = stalemate::kernel::parse("fan.go", &src, None)
            .expect("parses")
            .into_model("fan")
            .build("kernel", &stalemate::model::Params(Default::default()));
        let b = stalemate::explore::Bounds::default();
        let o = stalemate::explore::explore(&stalemate::explore::Engine::Dpor, &b, model, None)
            .expect("ran");
        assert!(o.finding.is_none(), "{workers} {sendable}");
        assert_eq!(o.explored.stop, stalemate::Stop::Exhausted);
        o.explored.executions
    };
    for n in [1, 2, 3, 4, 6] {
        assert_eq!(fan(n, false, false), 1, "{n} workers");
        assert_eq!(fan(n, true, false), 1, "{n} workers, done sendable");
    }
    for n in [1, 2, 3, 4, 6, 8] {
        assert_eq!(fan(n, false, true), 1, "{n} cancellable workers");
    }
    let counts = (1..=4).map(|n| fan(n, true, true)).collect::<Vec<_>>();
    assert_eq!(counts, [2, 8, 48, 384]);
}

/// Every way a kernel's channel can be sent on under another name (a parameter, a
/// field, a result, a receiver, a struct sent through a channel, a map, a slice, a
/// pointer, a function or method value, a variadic argument, a select's send, a channel
/// of channels, a local function hiding a declared one, `append`; and in
/// `done_escapes/`, found by reviews: a pointer receiver, a promoted method of an
/// embedded interface, an embedded function field, a library method's name, names
/// hidden by package variables and type parameters, a type parameter named as a
/// struct type, a variable named like an import, fields named after a type or
/// `Mutex`, a type named `close`, a variadic method, a ninth result, a named result a
/// deferred call sends on) keeps it a plain channel: as a done channel each send would
/// panic the model.
#[test]
fn a_channel_sent_on_under_another_name_is_no_done_channel() {
    // Eighteen goroutines, main included: more than loom runs.
    proven(&["--engine", "dpor", "tests/kernels/done_escapes.go"]);
    let o = stalemate(&[
        "check",
        "--engine",
        "shuttle-random",
        "tests/kernels/done_escapes.go",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // And the ways a review found (each a false panic before): one kernel each.
    let mut more: Vec<_> = std::fs::read_dir("tests/kernels/done_escapes")
        .expect("the folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    more.sort();
    assert_eq!(more.len(), 17);
    for k in &more {
        proven(&["--engine", "dpor", &k.display().to_string()]);
    }
}

/// The goker kernels whose selects wait beside channels they only close reach, under
/// dpor with those done channels, every outcome and violation loom reaches (a
/// search of its own, with no such reduction), in a handful of executions.
#[test]
fn kernels_with_done_channels_reach_what_loom_reaches() {
    for (k, params, loom_runs, dpor_runs) in [
        ("grpc_1460", &[("fixed", 0)][..], 12_632, 49),
        ("grpc_1460", &[("fixed", 1)][..], 30_272, 38),
        (
            "kubernetes_10182",
            &[("fixed", 1), ("pods", 2)][..],
            118,
            13,
        ),
        ("kubernetes_71277", &[("fixed", 1)][..], 27, 4),
        // A select late to a close whose goroutine's own step before the close
        // (the run loop's take at `stop`) would have met it waiting (`late.rs`).
        ("etcd_6857", &[("fixed", 0)][..], 491, 22),
        ("etcd_6857", &[("fixed", 1)][..], 463, 38),
        (
            "kubernetes_6632",
            &[("fixed", 1), ("capacity", 0), ("frames", 1)][..],
            113,
            6,
        ),
    ] {
        let model = kernel_model(&format!("scenarios/goker/{k}.go"), k, params);
        let b = stalemate::explore::Bounds::default().check_races(true);
        let (l, d) = looms_census_reached(&b, model, &format!("{k} {params:?}"));
        assert_eq!(
            (l.explored.executions, d.explored.executions),
            (loom_runs, dpor_runs),
            "{k} {params:?}"
        );
    }
}

/// Loom's census (no preemption bound) and dpor's of `model` under `b`, each
/// exhausted, with the same violations and the same outcomes as a goroutine tells them
/// apart; `what` names the kernel in a failure.
fn looms_census_reached(
    b: &stalemate::explore::Bounds,
    model: stalemate::explore::ModelFn,
    what: &str,
) -> (stalemate::explore::Census, stalemate::explore::Census) {
    use stalemate::explore::{Engine, census};
    let loom = Engine::Loom {
        preemption_bound: None,
        max_branches: 10_000,
    };
    let l = census(&loom, b, model.clone()).expect("loom ran");
    let d = census(&Engine::Dpor, b, model).expect("dpor ran");
    assert_eq!(l.explored.stop, stalemate::Stop::Exhausted, "{what}");
    assert_eq!(d.explored.stop, stalemate::Stop::Exhausted, "{what}");
    assert_eq!(d.violations, l.violations, "{what}");
    assert_eq!(
        common::unwaited(&d.outcomes),
        common::unwaited(&l.outcomes),
        "{what}"
    );
    (l, d)
}

/// Named results as Go has them: `return v` assigns them before the deferred calls
/// run (which see and may change them), and `return nil` returns nil (it returned the
/// named result's value, as a bare `return` does).
#[test]
fn return_assigns_named_results_before_deferred_calls() {
    expect("named_results.go", "pass");
}

/// A package's function named like a builtin (`func close(c chan int)`) hides the
/// builtin in calls, `go` and `defer`, as Go's scopes have it (the builtin ran).
#[test]
fn a_function_named_like_a_builtin_hides_it() {
    expect("builtin_shadowed.go", "pass");
}

/// A struct converted to another named struct type has that type's methods (it kept
/// its own: `A(b).m()` called B's), and `x.(chan T)` asserts to a channel type (a
/// false "interface conversion" panic).
#[test]
fn conversions_and_assertions_take_the_named_type() {
    expect("conversions_and_assertions.go", "pass");
}

/// Members promoted through embedded fields are the shallowest ones, as Go's selectors
/// find them: a method or field two levels down no longer beats one a level down
/// because its field comes first (a pass where Go deadlocks).
#[test]
fn promoted_members_are_the_shallowest() {
    expect("promotion_depth.go", "pass");
}

/// A field named after a type (or after `sync.Mutex`) is not embedded: nothing is
/// promoted through it (it was, and `s.which()` ran the named field's method).
#[test]
fn nothing_is_promoted_through_a_named_field() {
    expect("named_field_not_embedded.go", "pass");
}

/// A close commutes with a select's wait at its channel only where it ends that wait:
/// here another close had completed the select, and in Go the select may come after
/// both closes and take either (a false proof of dpor's, found by review).
#[test]
fn a_close_commutes_only_with_a_wait_it_ends() {
    found_by(
        &["dpor", "loom", "shuttle-dfs"],
        "close_after_withdrawal.go",
        "violation:panic",
        "w1 took a",
    );
}

/// A select that found nobody of a taker's side at a channel, before a hand-off's
/// wait there, would have met the taker had the taker waited first (a false proof of
/// dpor's, found by review).
#[test]
fn a_select_before_a_hand_off_would_have_met_its_taker_waiting() {
    found_by(
        &["dpor", "loom", "shuttle-dfs"],
        "select_before_a_hand_off.go",
        "deadlock",
        "deadlock",
    );
}

/// Go's cancellable hand-off as a kernel, `ctx.Done()` beside each select: dpor proves
/// it in one execution per behaviour, 1 with a channel each, n! on one shared channel
/// (2, 8, 48, 384, 3,840 and 2, 10, 84, 1,008, 15,840 for n = 1..5 with a select that
/// meets a select a write).
#[test]
fn gos_cancellable_hand_off_is_one_execution_per_behaviour() {
    for (shared, counts) in [(0, [1, 1, 1, 1, 1]), (1, [1, 2, 6, 24, 120])] {
        for (n, count) in (1..=5).zip(counts) {
            let (n, s) = (format!("n={n}"), format!("shared={shared}"));
            let k = "tests/kernels/cancellable_fan_in.go";
            let t = proven(&["--engine", "dpor", "--param", &n, "--param", &s, k]);
            assert!(
                t.contains(&format!("pass ({count} executions")),
                "{n} {s}: {t}"
            );
        }
    }
}

/// Go's cancellable hand-off, beside a select that a close completed at one done
/// channel before another was closed: the rules that make the hand-off one execution
/// (a select meeting a select beside done channels, `State::meets_select`; a
/// withdrawal from a done channel's line, `Access::Leave`) keep the order where that
/// select comes after both closes (each lost it, found by review, before a close
/// commuted only with a wait it ends).
#[test]
fn the_cancellable_hand_off_keeps_a_select_after_both_closes() {
    for (k, says) in [
        ("cancellable_meets_cancellable.go", "w1 took d0"),
        ("cancellable_leaves_done_lines.go", "w1 took d0"),
        (
            "cancels_after_cancellable_hand_off.go",
            "w1 saw ctxA cancelled",
        ),
    ] {
        found_by(&["dpor", "loom"], k, "violation:panic", says);
    }
}

/// A select between a wait and the step that took its place, which found nobody at
/// the channel, would have met the taker had the taker waited first: dpor races the
/// taker with the wait past it (it proved this kernel before; found by review).
#[test]
fn a_select_between_a_wait_and_its_taker_would_have_met_the_taker() {
    found_by(
        &["dpor", "loom"],
        "taker_past_a_select.go",
        "deadlock",
        "deadlock",
    );
}

/// The goker kernels whose selects wait beside a `time.After` (the timeout idiom: a
/// handler's result or the timeout), buggy and fixed, in `any` time: dpor, where the
/// tick is a half of a hand-off (`State::tick_hand`), reaches loom's census (the same
/// violations and outcomes), in fewer executions.
#[test]
fn the_timeout_kernels_reach_looms_census() {
    let b = stalemate::explore::Bounds::default()
        .check_races(true)
        .max_executions(100_000);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/goker");
    let mut kernels: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "go"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("time.After("))
        .collect();
    kernels.sort();
    assert!(kernels.len() >= 7, "{kernels:?}");
    for k in &kernels {
        for fixed in [0, 1] {
            let m = kernel_model(k.to_str().unwrap(), "kernel", &[("fixed", fixed)]);
            let (l, d) = looms_census_reached(&b, m, &format!("{k:?} fixed={fixed}"));
            assert!(d.explored.executions < l.explored.executions, "{k:?}");
        }
    }
}
