//! The command line: bad input is a clear error with file:line:column and a non-zero
//! exit, never a panic; each outcome has its exit code; replay reproduces or says it
//! diverged.

mod common;

use common::{stalemate, text};
use std::process::Output;

/// Writes a scenario to a temporary file and runs it.
fn run_text(name: &str, body: &str) -> Output {
    let dir = std::env::temp_dir().join(format!("stalemate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    stalemate(&["run", "--quiet", p.to_str().unwrap()])
}

/// Each case (file name, body, `:line:col: message`, help text) exits 2 with that
/// message after the file name, and the help, and never panics.
fn expect_bad_input(cases: &[(&str, String, &str, &str)]) {
    for (name, body, msg, help) in cases {
        let o = run_text(&format!("{name}.toml"), body);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {t}");
        assert!(
            t.contains(&format!("{name}.toml{msg}")),
            "{name}: wanted `{msg}` in:\n{t}"
        );
        assert!(t.contains(help), "{name}: wanted help `{help}` in:\n{t}");
        assert!(!t.contains("panicked"), "{name}: {t}");
    }
}

#[test]
fn list_names_models_variants_parameters_and_properties() {
    let o = stalemate(&["list"]);
    assert!(o.status.success());
    let t = text(&o);
    // Each model cites its public origin, not files a clone does not have.
    assert!(!t.contains("shared/"), "{t}");
    assert!(t.contains("origin: kubernetes commit a12b7edc"), "{t}");
    for want in [
        "cacher-2015",
        "buggy",
        "fixed",
        "relists",
        "list_errors",
        "fault:send-on-closed-channel",
        "shuttle-pct",
    ] {
        assert!(t.contains(want), "missing {want} in:\n{t}");
    }
}

#[test]
fn a_buggy_scenario_exits_0_when_the_expected_deadlock_is_found() {
    let o = stalemate(&["run", "scenarios/cacher_2015_buggy.toml"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("wait-for cycle"), "{t}");
    assert!(
        t.contains("cacher_2015_buggy  shuttle-pct  deadlock  deadlock  ok"),
        "{t}"
    );
}

const BASE: &str = "model = \"cacher-2015\"\nvariant = \"buggy\"\n";

#[test]
fn an_unexpected_violation_exits_1_and_an_expectation_not_met_exits_3() {
    let engine = "\n[[engine]]\nkind = \"shuttle-pct\"\nseed = 1\niterations = 200\n";
    let o = run_text(
        "unexpected.toml",
        &format!("{BASE}expect = \"pass\"\n{engine}"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let o = run_text(
        "notfound.toml",
        &format!("model = \"cacher-2015\"\nvariant = \"fixed\"\nexpect = \"deadlock\"\n{engine}"),
    );
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let o = run_text("wrong.toml", &format!("{BASE}expect = \"leak\"\n{engine}"));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

/// Each bad file: the message, its line:column, and a help line naming what is allowed.
#[test]
fn bad_scenarios_say_file_line_column_and_what_is_allowed() {
    let engine = "[[engine]]\nkind = \"loom\"\n";
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "syntax",
            format!("{BASE}expect = \"deadlock\"\nx\n"),
            ":4:2: key with no value, expected `=`",
            "",
        ),
        (
            "model",
            format!("model = \"cacher\"\nvariant = \"buggy\"\nexpect = \"pass\"\n{engine}"),
            ":1:9: unknown model `cacher`",
            "known models: cacher-2015",
        ),
        (
            "variant",
            format!("model = \"cacher-2015\"\nvariant = \"bugy\"\nexpect = \"pass\"\n{engine}"),
            ":2:11: model cacher-2015 has no variant `bugy`",
            "variants of cacher-2015: buggy, fixed",
        ),
        (
            "param",
            format!("{BASE}expect = \"pass\"\n[params]\nrelist = 1\n{engine}"),
            ":5:1: model cacher-2015 has no parameter `relist`",
            "parameters of cacher-2015: relists",
        ),
        (
            "type",
            format!("{BASE}expect = \"pass\"\n[params]\nrelists = \"one\"\n{engine}"),
            ":5:11: parameter relists must be an integer, not string",
            "allowed",
        ),
        (
            "range",
            format!("{BASE}expect = \"pass\"\n[params]\nwatchers = 9\n{engine}"),
            ":5:12: parameter watchers = 9 is out of range",
            "allowed 1..=3",
        ),
        (
            "engine",
            format!("{BASE}expect = \"pass\"\n[[engine]]\nkind = \"tla\"\n"),
            ":5:8: unknown engine `tla`",
            "engines: dpor, loom, shuttle-random, shuttle-pct, shuttle-dfs, shuttle-stateful, turmoil",
        ),
        (
            "seed",
            format!("{BASE}expect = \"pass\"\n[[engine]]\nkind = \"shuttle-random\"\nseed = -4\n"),
            ":6:8: seed = -4 is out of range",
            "allowed: 0..",
        ),
        (
            "noseed",
            format!("{BASE}expect = \"pass\"\n[[engine]]\nkind = \"shuttle-pct\"\n"),
            ":4:1: engine shuttle-pct needs a `seed`",
            "same seed gives the same schedules",
        ),
        (
            "time",
            format!("{BASE}expect = \"pass\"\n[time]\nmode = \"real\"\n{engine}"),
            ":5:8: unknown time mode `real`",
            "allowed: any, virtual",
        ),
        (
            "expect",
            format!("{BASE}expect = \"starvation\"\n{engine}"),
            ":3:10: unknown expectation `starvation`",
            "allowed: pass, deadlock, leak, livelock, data-race, fault:",
        ),
        (
            "field",
            format!("{BASE}expect = \"pass\"\nmodle = 1\n{engine}"),
            ":4:1: unknown field `modle`",
            "",
        ),
        (
            "noengine",
            format!("{BASE}expect = \"pass\"\n"),
            ":1:1: the scenario names no engine",
            "add an [[engine]] table",
        ),
    ];
    expect_bad_input(cases);
}

const NET: &str = "model = \"cache-sync-wait\"\nvariant = \"isolated\"\nexpect = \"pass\"\n";
const TURMOIL: &str = "[[engine]]\nkind = \"turmoil\"\nduration = \"30s\"\n";

#[test]
fn bad_fault_plans_and_turmoil_engines_say_where_and_what_is_allowed() {
    let fault = |at: &str, kind: &str, target: &str| {
        format!("[[fault]]\nat = \"{at}\"\nkind = \"{kind}\"\n{target}\n")
    };
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "host",
            format!(
                "{NET}{}{TURMOIL}",
                fault("1s", "crash", "host = \"apiserver-c\"")
            ),
            ":7:8: unknown host `apiserver-c` in the fault plan",
            "hosts of cache-sync-wait: gateway, apiserver-a, apiserver-b",
        ),
        (
            "late",
            format!(
                "{NET}{}{TURMOIL}",
                fault("90s", "crash", "host = \"apiserver-a\"")
            ),
            ":5:6: fault at 90.000s is after the simulation's end (30.000s)",
            "up to the engine's duration",
        ),
        (
            "duration",
            format!(
                "{NET}{}{TURMOIL}",
                fault("5 sec", "crash", "host = \"apiserver-a\"")
            ),
            ":5:6: at = \"5 sec\" is not a duration",
            "250ms, 1.5s, 30s or 2m",
        ),
        (
            "kind",
            format!(
                "{NET}{}{TURMOIL}",
                fault("1s", "pause", "host = \"apiserver-a\"")
            ),
            ":6:8: unknown fault kind `pause`",
            "fault kinds: crash, bounce, partition, repair, hold, release, loss",
        ),
        (
            "target",
            format!(
                "{NET}{}{TURMOIL}",
                fault("1s", "partition", "host = \"apiserver-a\"")
            ),
            ":6:8: fault `partition` needs its target",
            "between = [",
        ),
        (
            "client",
            format!(
                "{NET}{}{TURMOIL}",
                fault("1s", "crash", "host = \"client-a\"")
            ),
            ":7:8: unknown host `client-a` in the fault plan",
            "gateway, apiserver-a, apiserver-b",
        ),
        (
            "lossrate",
            format!(
                "{NET}{}{TURMOIL}",
                fault("1s", "loss", "between = [\"gateway\", \"apiserver-b\"]")
            ),
            ":6:8: fault `loss` needs a rate",
            "rate = 0.0..=1.0",
        ),
        (
            "lossrange",
            format!(
                "{NET}{}{TURMOIL}",
                fault(
                    "1s",
                    "loss",
                    "between = [\"gateway\", \"apiserver-b\"]\nrate = 1.5"
                )
            ),
            ":8:8: rate = 1.5 is out of range",
            "allowed: 0.0..=1.0",
        ),
        (
            "engineduration",
            format!("{NET}[[engine]]\nkind = \"turmoil\"\nduration = \"thirty\"\n"),
            ":6:12: duration = \"thirty\" is not a duration",
            "whole milliseconds",
        ),
        (
            "nonet",
            format!("{BASE}expect = \"pass\"\n[[engine]]\nkind = \"turmoil\"\n"),
            ":5:8: model cacher-2015 has no network side for engine turmoil",
            "models with one: cache-sync-wait",
        ),
        (
            "threadfield",
            format!("{NET}[[engine]]\nkind = \"loom\"\nduration = \"1s\"\n"),
            ":6:12: `duration` does not apply to engine loom",
            "",
        ),
        (
            "source",
            format!("{NET}{TURMOIL}faults = \"random\"\n"),
            ":7:10: unknown fault source `random`",
            "\"given\"",
        ),
    ];
    expect_bad_input(cases);
}

#[test]
fn a_turmoil_finding_replays_by_seed_byte_for_byte() {
    let path = "scenarios/cache_sync_wait_timeout_net_isolation.toml";
    let o = stalemate(&["run", path]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    let cmd = t
        .lines()
        .find(|l| l.trim_start().starts_with("stalemate replay"))
        .expect("a replay line")
        .trim();
    assert!(
        cmd.starts_with(&format!("stalemate replay {path} --seed ")),
        "{cmd}"
    );
    let seed = cmd.rsplit(' ').next().unwrap();
    let r = stalemate(&["replay", path, "--seed", seed]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    let report = String::from_utf8_lossy(&r.stdout).trim_end().to_string();
    assert!(report.contains("wait-for chain at 1."), "{report}");
    assert!(
        t.contains(&report),
        "the replayed report must be the recorded one"
    );

    // A seed under which the property holds: the replay says it diverged.
    let r = stalemate(&[
        "replay",
        "scenarios/cache_sync_wait_isolated_net.toml",
        "--seed",
        "3",
    ]);
    assert_eq!(r.status.code(), Some(5), "{}", text(&r));
    assert!(text(&r).contains("ran to") && text(&r).contains("without breaking a property"));

    // A seed on a scenario with no turmoil engine, and an engine that is not turmoil.
    let r = stalemate(&[
        "replay",
        "scenarios/cache_sync_wait_buggy.toml",
        "--seed",
        "1",
    ]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
    assert!(text(&r).contains("has no turmoil engine"), "{}", text(&r));
    let r = stalemate(&["replay", path, "--engine", "2", "--seed", "1"]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
    assert!(text(&r).contains("engine 2 of"), "{}", text(&r));
    let r = stalemate(&["replay", path, "--seed", "x"]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
}

#[test]
fn list_shows_the_network_hosts_and_fault_kinds() {
    let t = text(&stalemate(&["list"]));
    for want in [
        "network (engine turmoil):",
        "host   apiserver-a",
        "client client-b",
        "fault kinds (turmoil): crash, bounce, partition, repair, hold, release, loss",
    ] {
        assert!(t.contains(want), "missing {want} in:\n{t}");
    }
}

#[test]
fn a_missing_path_is_bad_input() {
    let o = stalemate(&["run", "scenarios/nope.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("scenarios/nope.toml: no such file or directory"));
}

#[test]
fn replay_reproduces_the_report_and_detects_divergence() {
    let o = stalemate(&["run", "scenarios/cacher_2015_buggy.toml"]);
    let t = text(&o);
    let cmd = t
        .lines()
        .find(|l| l.contains("stalemate replay") && l.contains("--schedule 2-"))
        .expect("PCT replay line");
    let token = cmd.rsplit(' ').next().unwrap();
    let r = stalemate(&[
        "replay",
        "scenarios/cacher_2015_buggy.toml",
        "--schedule",
        token,
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    let report = String::from_utf8_lossy(&r.stdout).trim_end().to_string();
    assert!(
        t.contains(&report),
        "the replayed report must be the recorded one"
    );

    // A schedule that gives a step to a goroutine that cannot take it.
    let parts: Vec<&str> = token.split('-').collect();
    let bad = format!("{}-{}-0x2.2.{}-{}", parts[0], parts[1], parts[2], parts[3]);
    let r = stalemate(&[
        "replay",
        "scenarios/cacher_2015_buggy.toml",
        "--schedule",
        &bad,
    ]);
    assert_eq!(r.status.code(), Some(5), "{}", text(&r));
    assert!(text(&r).contains("diverged"), "{}", text(&r));

    // The same steps, but a model that changed (the check no longer matches).
    let changed = format!("{}-{}-{}-00000000", parts[0], parts[1], parts[2]);
    let r = stalemate(&[
        "replay",
        "scenarios/cacher_2015_buggy.toml",
        "--schedule",
        &changed,
    ]);
    assert_eq!(r.status.code(), Some(5), "{}", text(&r));
    assert!(
        text(&r).contains("they differ from the recorded ones"),
        "{}",
        text(&r)
    );

    // Not a token at all.
    let r = stalemate(&[
        "replay",
        "scenarios/cacher_2015_buggy.toml",
        "--schedule",
        "seed7",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r).contains("is not of the form <engine>-<execution>-<steps>-<check>"));
}

#[test]
fn the_same_seed_gives_a_byte_identical_report() {
    let a = stalemate(&["run", "scenarios/cacher_2015_buggy.toml"]);
    let b = stalemate(&["run", "scenarios/cacher_2015_buggy.toml"]);
    let strip = |o: &Output| {
        // The summary table carries times; the reports must not.
        let t = String::from_utf8_lossy(&o.stdout).to_string();
        t.split("\nscenario  ").next().unwrap().to_string()
    };
    assert_eq!(strip(&a), strip(&b));
}

/// Three quick scenarios (five runs) copied into a directory of their own.
fn quick_dir() -> String {
    let dir = std::env::temp_dir().join(format!("stalemate-quick-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in [
        "cacher_2015_buggy.toml",
        "cache_sync_wait_timeout_net_isolation.toml",
        "informer_buggy.toml",
    ] {
        std::fs::copy(format!("scenarios/{f}"), dir.join(f)).unwrap();
    }
    dir.to_str().unwrap().to_string()
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn json_gives_one_object_per_scenario_and_engine_with_stable_fields() {
    let o = stalemate(&[
        "run",
        "--format",
        "json",
        "scenarios/cacher_2015_buggy.toml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = json_lines(&o);
    assert_eq!(v.len(), 2, "two engines");
    for (i, r) in v.iter().enumerate() {
        assert_eq!(r["scenario"], "cacher_2015_buggy");
        assert_eq!(r["file"], "scenarios/cacher_2015_buggy.toml");
        assert_eq!(r["model"], "cacher-2015");
        assert_eq!(r["engine_no"], i + 1);
        assert_eq!(r["expected"], "deadlock");
        assert_eq!(r["found"], "deadlock");
        assert_eq!(r["verdict"], "ok");
        assert_eq!(r["stop"], "found");
        assert!(r["executions"].as_u64().unwrap() >= 1);
        let replay = r["replay"].as_str().unwrap();
        assert!(
            replay.starts_with("stalemate replay scenarios/cacher_2015_buggy.toml --schedule ")
        );
        assert!(r["report"].as_str().unwrap().ends_with(replay));
        assert!(r["time_secs"].is_number() && r["error"].is_null());
    }
}

#[test]
fn junit_has_a_test_case_per_run_and_the_report_as_the_failure() {
    let dir = std::env::temp_dir().join(format!("stalemate-junit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The buggy Cacher, expected to pass: an unexpected deadlock.
    let body = std::fs::read_to_string("scenarios/cacher_2015_buggy.toml")
        .unwrap()
        .replace("expect = \"deadlock\"", "expect = \"pass\"");
    let scenario = dir.join("wrong.toml");
    std::fs::write(&scenario, body).unwrap();
    let xml = dir.join("junit.xml");
    let o = stalemate(&[
        "run",
        "--quiet",
        "--junit",
        xml.to_str().unwrap(),
        scenario.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let x = std::fs::read_to_string(&xml).unwrap();
    assert!(x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"stalemate\" tests=\"2\" failures=\"2\" errors=\"0\""), "{x}");
    assert_eq!(x.matches("<testcase ").count(), 2, "{x}");
    assert!(
        x.contains("classname=\"wrong\" name=\"engine 1: loom\""),
        "{x}"
    );
    assert!(
        x.contains("<failure message=\"expected pass, found deadlock"),
        "{x}"
    );
    assert!(
        x.contains("type=\"unexpected\">stalemate: deadlock found\nscenario   wrong"),
        "{x}"
    );
    assert!(
        x.contains("wait-for cycle") && x.trim_end().ends_with("</testsuites>"),
        "{x}"
    );
}

/// A dpor proof on two and three threads (subtrees given to idle threads) prints what
/// it prints on one: the same executions and verdict, byte for byte but the time.
#[test]
fn a_dpor_proof_on_several_threads_prints_what_one_thread_does() {
    let dir = std::env::temp_dir().join(format!("stalemate-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("slow.toml");
    let src = std::fs::read_to_string("scenarios/cacher_modern_source_proof_slow.toml").unwrap();
    // Four events (986 executions): with two the stuck consumer's tree is 156
    // executions, with three 404, too few to share.
    let dpor_only = src
        .replace("[[engine]]\nkind = \"loom\"\niterations = 10000000\n", "")
        .replace("events = 2\n", "events = 4\n");
    assert_eq!(
        dpor_only.len() + "[[engine]]\nkind = \"loom\"\niterations = 10000000\n".len(),
        src.len(),
        "the scenario's loom engine is left out, its events raised to 4"
    );
    assert!(dpor_only.contains("events = 4\n"));
    std::fs::write(&file, dpor_only).unwrap();
    let file = file.to_str().unwrap();
    let run = |jobs: &str| {
        let o = stalemate(&["run", "--jobs", jobs, "--format", "json", file]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let mut v = json_lines(&o);
        assert_eq!(v.len(), 1);
        let execs = v[0]["executions"].as_u64().unwrap();
        v[0].as_object_mut()
            .unwrap()
            .retain(|k, _| !k.contains("time") && !k.contains("secs"));
        (v, execs)
    };
    let (one, execs) = run("1");
    assert!(execs > 900, "{execs} executions: a tree worth sharing");
    assert_eq!(run("2").0, one);
    assert_eq!(run("3").0, one);
}

#[test]
fn jobs_change_neither_the_order_nor_the_bytes_of_the_output() {
    let dir = quick_dir();
    // The table's last column is wall-clock time: drop it.
    let strip = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| {
                l.rsplit_once("  ")
                    .map_or(l, |(a, t)| if t.ends_with('s') { a } else { l })
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = stalemate(&["run", "--jobs", "1", &dir]);
    let three = stalemate(&["run", "--jobs", "3", &dir]);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one));
    assert_eq!(three.status.code(), Some(0), "{}", text(&three));
    assert!(strip(&one).contains("wait-for chain at 1.100s"));
    assert_eq!(strip(&one), strip(&three));
}

#[test]
fn shards_split_the_runs_into_disjoint_parts_that_cover_them_all() {
    let dir = quick_dir();
    let key = |r: &serde_json::Value| format!("{} {}", r["scenario"], r["engine_no"]);
    let all: Vec<String> = json_lines(&stalemate(&["run", "--format", "json", &dir]))
        .iter()
        .map(key)
        .collect();
    assert_eq!(all.len(), 5);
    let mut union = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let o = stalemate(&["run", "--format", "json", "--shard", &shard, &dir]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        union.extend(json_lines(&o).iter().map(key));
    }
    assert_eq!(union.len(), all.len(), "disjoint");
    union.sort();
    let mut all = all;
    all.sort();
    assert_eq!(union, all, "covering");
    let bad = stalemate(&["run", "--shard", "4/3", &dir]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad).contains("`4/3` is not a shard"),
        "{}",
        text(&bad)
    );
}

#[test]
fn seeds_print_schedules_to_the_violation_per_seed() {
    let o = stalemate(&["run", "--seeds", "1..4", "scenarios/cacher_2015_buggy.toml"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("engine 1: loom has no seed"), "{t}");
    // Seed 1 is the scenario's own: its PCT report is at execution 18.
    let line = t
        .lines()
        .find(|l| l.contains("shuttle-pct:"))
        .expect("a PCT line");
    assert!(line.contains("found by 3 of 3 seeds"), "{line}");
    assert!(line.contains("(seed:schedules 1:18 "), "{line}");
    let counts: Vec<u64> = line
        .rsplit("seed:schedules ")
        .next()
        .unwrap()
        .trim_end_matches(')')
        .split(' ')
        .map(|c| c.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(
        line.contains(&format!("min {lo}, ")) && line.contains(&format!("max {hi};")),
        "{line}"
    );
    let bad = stalemate(&["run", "--seeds", "5..5", "scenarios/cacher_2015_buggy.toml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad).contains("is not a seed range"));
}

/// The `seed:schedules` pairs of the PCT line of a `--seeds` run.
fn seed_pairs(args: &[&str]) -> Vec<String> {
    let o = stalemate(args);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    let line = t
        .lines()
        .find(|l| l.contains("shuttle-pct:"))
        .unwrap_or_else(|| panic!("no PCT line in {t}"));
    line.rsplit("seed:schedules ")
        .next()
        .unwrap()
        .trim_end_matches(')')
        .split(' ')
        .map(str::to_string)
        .collect()
}

#[test]
fn a_seed_range_splits_over_threads_and_shards_with_the_same_results() {
    let base = ["run", "scenarios/cacher_2015_buggy.toml", "--seeds", "1..7"];
    let with = |extra: &[&'static str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        seed_pairs(&a)
    };
    let one = with(&["--jobs", "1"]);
    assert_eq!(one.len(), 6);
    assert_eq!(with(&["--jobs", "2"]), one, "threads change nothing");
    let mut shards = with(&["--shard", "1/3"]);
    assert_eq!(
        shards.len(),
        2,
        "every third seed from the first: {shards:?}"
    );
    shards.extend(with(&["--shard", "2/3", "--jobs", "2"]));
    shards.extend(with(&["--shard", "3/3"]));
    let seed = |p: &String| p.split(':').next().unwrap().parse::<u64>().unwrap();
    shards.sort_by_key(seed);
    assert_eq!(
        shards, one,
        "the shards together are the whole range, seed by seed"
    );
}

/// One dpor proof split across three machines: every shard runs it on its part of the
/// tree (never called proven alone), and the parts' executions add up to the whole
/// tree's under the same cut.
#[test]
fn shards_split_a_dpor_tree_into_parts_that_add_up_to_it() {
    let dir = std::env::temp_dir().join(format!("stalemate-parts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cacher_parts.toml");
    std::fs::write(
        &file,
        "model = \"cacher-2015\"\nvariant = \"fixed\"\nexpect = \"pass\"\n\n[params]\nevents = 1\n\n[[engine]]\nkind = \"dpor\"\nsplit = 4\niterations = 1000000\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let whole = json_lines(&stalemate(&["run", "--format", "json", file]));
    assert_eq!(whole.len(), 1);
    assert!(whole[0]["coverage"].as_str().unwrap().contains("proven"));
    let mut sum = 0;
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let o = stalemate(&["run", "--format", "json", "--shard", &shard, file]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let lines = json_lines(&o);
        assert_eq!(lines.len(), 1, "every shard has the dpor run");
        let coverage = lines[0]["coverage"].as_str().unwrap();
        assert!(
            coverage.contains(&format!("part {k}/3 of the tree")),
            "{coverage}"
        );
        assert!(coverage.contains("once every part is"), "{coverage}");
        sum += lines[0]["executions"].as_u64().unwrap();
    }
    assert_eq!(sum, whole[0]["executions"].as_u64().unwrap());
}
