//! The `stalemate` command: list the catalogue, run scenarios, replay a failure. A
//! library module, so a downstream crate's binary gets the same CLI for its own models:
//! `fn main() -> ExitCode { crate::cli::main(&[&MY_MODEL]) }`.

use crate::explore;
use crate::model::Model;
use crate::runner::{self, EngineRun, Verdict};
use crate::scenario::{self, Scenario, ScenarioError};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Exit code for bad input: a malformed scenario, an unknown model, a bad schedule.
/// `--time`: a time mode by its scenario name (`any`, `virtual`).
fn time_mode() -> impl clap::builder::TypedValueParser<Value = crate::TimeMode> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(crate::TimeMode::ALL.map(crate::TimeMode::key))
        .map(|k| crate::TimeMode::from_key(&k).expect("one of the possible values"))
}

/// `--go`: a Go version as go.mod writes it, `1.N` or `1.N.P`.
fn go_version(s: &str) -> Result<String, String> {
    crate::kernel::go_minor(s)
        .map(|_| s.to_string())
        .ok_or_else(|| format!("`{s}` is not a Go version: give 1.N, e.g. 1.21"))
}

const BAD_INPUT: u8 = 2;
/// Exit code for a replay that no longer follows its schedule.
const DIVERGED: u8 = 5;

#[derive(Parser)]
#[command(
    name = "stalemate",
    version,
    about = "Deterministic concurrency testing for Go-style designs"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Models, variants, parameters, properties, engines.
    List,
    /// Runs scenario files (default: scenarios/) and checks their expectations.
    ///
    /// Exit codes: 0 all as expected; 1 an unexpected violation; 3 an expected
    /// violation not found; 4 a model crash or engine error; 6 a search that completed
    /// no execution; 2 bad input.
    Run {
        /// Scenario files or directories of them.
        paths: Vec<PathBuf>,
        /// Print only the summary table, not the reports.
        #[arg(long)]
        quiet: bool,
        /// text (reports and a table, for people) or json (one object per scenario ×
        /// engine per line, for machines; see the README for the fields).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also write JUnit XML to FILE: one test case per scenario × engine.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Also write the wait-for graph of each deadlock or leak found to
        /// DIR/<scenario>-<engine>.dot (Graphviz).
        #[arg(long, value_name = "DIR")]
        graph: Option<PathBuf>,
        /// Threads (default: the machine's cores): scenario × engine runs in parallel,
        /// and when there are fewer runs than threads, a dpor run on several. The
        /// output's order and bytes do not depend on it.
        #[arg(long)]
        jobs: Option<usize>,
        /// Run only shard K of N (1-based): the runs whose position in the sorted list
        /// of scenario × engine runs is K modulo N, and part K of N of every dpor run's
        /// tree (every shard runs each dpor run, on its own part). Every run, and every
        /// part of a dpor tree, is in exactly one shard.
        #[arg(long, value_name = "K/N", value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
        /// Every engine's time limit, in seconds, instead of each scenario's own
        /// `time_limit_secs` (a cap for a quick CI job). 0 runs nothing: every search
        /// is incomplete (exit 6).
        #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(0..=86_400))]
        time_limit: Option<u64>,
        /// Instead of the scenarios' own seeds, run each seeded engine (shuttle-random,
        /// shuttle-pct) once per seed in A..B and print how many schedules each seed
        /// needed to find the violation: min / median / max, and the seeds that found
        /// nothing. For choosing an engine and a budget. The seeds run on --jobs
        /// threads; with --shard K/N only every Nth seed from the Kth, so N machines
        /// split one range, each seed giving what it gives alone.
        #[arg(long, value_name = "A..B", value_parser = parse_seeds, conflicts_with_all = ["junit"])]
        seeds: Option<std::ops::Range<u64>>,
    },
    /// Runs a Go kernel without a scenario file: its main (or each test in turn) under dpor
    /// (1,000,000 executions at most) and PCT (1,000 schedules), expecting a pass.
    /// Exit codes as for run.
    Check {
        /// The kernel: a .go file.
        kernel: PathBuf,
        /// One engine instead of dpor then shuttle-pct: any but turmoil, which runs
        /// network models.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(
            explore::KINDS.iter().filter(|k| **k != "turmoil")
        ))]
        engine: Option<String>,
        /// Executions at most (default 1,000,000 for an exhaustive engine, else 1,000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
        iterations: Option<u64>,
        /// How timers and sleeps fire: at any step (any, the default), or when every
        /// goroutine is blocked, in deadline order (virtual: durations count).
        #[arg(long, value_parser = time_mode())]
        time: Option<crate::TimeMode>,
        /// The function to run: main, or a TestX(t *testing.T) (default: main, else each
        /// test in turn).
        #[arg(long)]
        entry: Option<String>,
        /// The seed of shuttle-random and shuttle-pct (default 1).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
        seed: Option<u64>,
        /// The Go version the kernel is written for, as go.mod says it (`1.21`): before
        /// 1.22 a loop's variables are one for all its iterations (default: the
        /// go.mod beside the kernel or above it, else per iteration, as Go 1.22).
        #[arg(long = "go", value_name = "1.N", value_parser = go_version)]
        go_version: Option<String>,
        /// Go on past a violation: report the first execution of each kind reached (a
        /// race, then a deadlock), each with its replay line.
        #[arg(long)]
        all: bool,
        /// A kernel parameter (a top-level integer constant) as NAME=VALUE, instead
        /// of the value the kernel declares; repeatable.
        #[arg(long = "param", value_name = "NAME=VALUE", value_parser = param)]
        params: Vec<(String, i64)>,
    },
    /// Replays a schedule (thread engines) or a seed (turmoil) from a report,
    /// printing the same report again.
    ///
    /// Exit codes: 0 reproduced; 5 diverged (the model changed); 2 bad input.
    Replay {
        scenario: PathBuf,
        /// The schedule token of a thread engine's report.
        #[arg(long, required_unless_present = "seed", conflicts_with = "seed")]
        schedule: Option<String>,
        /// The seed of a turmoil engine's report.
        #[arg(long)]
        seed: Option<u64>,
        /// For a Go kernel: the --time its `stalemate check` was given.
        #[arg(long, value_parser = time_mode())]
        time: Option<crate::TimeMode>,
        /// For a Go kernel: the --entry its `stalemate check` was given.
        #[arg(long)]
        entry: Option<String>,
        /// For a Go kernel: each --param its `stalemate check` was given.
        #[arg(long = "param", value_name = "NAME=VALUE", value_parser = param)]
        params: Vec<(String, i64)>,
        /// For a Go kernel: the --go its `stalemate check` was given.
        #[arg(long = "go", value_name = "1.N", value_parser = go_version)]
        go_version: Option<String>,
        /// For a Go kernel: the --all its `stalemate check` was given.
        #[arg(long)]
        all: bool,
        /// With --seed: which engine (numbered from 1); default the first turmoil one.
        #[arg(long, requires = "seed")]
        engine: Option<usize>,
    },
}

/// `NAME=VALUE` with an integer value, for `--param`.
fn param(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(format!("`{name}` is not a parameter name"));
    }
    let value = value.parse().map_err(|_| {
        format!("`{value}` is not an integer (a kernel parameter is an integer constant)")
    })?;
    Ok((name.to_string(), value))
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

struct RunOpts {
    quiet: bool,
    format: Format,
    junit: Option<PathBuf>,
    graph: Option<PathBuf>,
    jobs: usize,
    shard: Option<(usize, usize)>,
    /// `--time-limit`: every scenario's, if given.
    time_limit: Option<std::time::Duration>,
}

/// `A..B` with A < B and at most 100,000 seeds.
fn parse_seeds(s: &str) -> Result<std::ops::Range<u64>, String> {
    let bad = || format!("`{s}` is not a seed range: give A..B with A < B, e.g. 1..101");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let (a, b): (u64, u64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b || b - a > 100_000 {
        return Err(bad());
    }
    Ok(a..b)
}

/// The machine's cores: the default for `--jobs`.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--seeds A..B`: schedules to the first violation per seed, per seeded engine; with
/// a shard, only the seeds at positions K-1, K-1+N, ... of the range.
fn seed_stats(
    paths: Vec<PathBuf>,
    seeds: std::ops::Range<u64>,
    jobs: usize,
    shard: Option<(usize, usize)>,
) -> ExitCode {
    let scenarios = match load_all(paths) {
        Ok(s) => s,
        Err(code) => return ExitCode::from(code),
    };
    let (k, n) = shard.unwrap_or((1, 1));
    let mine: Vec<u64> = seeds.clone().skip(k - 1).step_by(n).collect();
    let which = match shard {
        Some((k, n)) => format!(", shard {k}/{n}: {} of them", mine.len()),
        None => String::new(),
    };
    for s in &scenarios {
        println!(
            "== {} ({}): expect {}, seeds {}..{}{which}",
            s.name, s.path, s.expect, seeds.start, seeds.end
        );
        for (i, spec) in s.engines.iter().enumerate() {
            let Some(stats) = runner::seed_stats(s, i + 1, &mine, jobs) else {
                println!(
                    "   engine {}: {} has no seed",
                    i + 1,
                    spec.engine.kind_name()
                );
                continue;
            };
            println!("   engine {}: {}", i + 1, stats.describe());
        }
    }
    ExitCode::SUCCESS
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}` is not a shard: give K/N with 1 <= K <= N, e.g. 2/4");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Runs the command line with the catalogue and `models` (a downstream crate's own).
pub fn main(models: &[&'static Model]) -> ExitCode {
    for m in models {
        if let Err(e) = crate::models::register(m) {
            eprintln!("error: {e}");
            return ExitCode::from(BAD_INPUT);
        }
    }
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::List => {
            print!("{}", list());
            ExitCode::SUCCESS
        }
        Cmd::Run {
            paths,
            seeds: Some(seeds),
            jobs,
            shard,
            ..
        } => seed_stats(paths, seeds, jobs.unwrap_or_else(cores), shard),
        Cmd::Run {
            paths,
            quiet,
            format,
            junit,
            jobs,
            shard,
            graph,
            time_limit,
            seeds: None,
        } => run(
            paths,
            &RunOpts {
                quiet,
                format,
                junit,
                graph,
                jobs: jobs.unwrap_or_else(cores),
                shard,
                time_limit: time_limit.map(std::time::Duration::from_secs),
            },
        ),
        Cmd::Check {
            kernel,
            engine,
            iterations,
            time,
            entry,
            seed,
            params,
            go_version,
            all,
        } => {
            let opts = scenario::KernelCheck {
                engine,
                iterations,
                time,
                entry,
                seed,
                params,
                go_version,
                all,
            };
            let s = match scenario::kernel_checks(&kernel, &opts) {
                Ok(s) => s,
                Err(e) => {
                    show_error(&e);
                    return ExitCode::from(BAD_INPUT);
                }
            };
            run_loaded(
                s,
                &RunOpts {
                    quiet: false,
                    format: Format::Text,
                    junit: None,
                    graph: None,
                    jobs: cores(),
                    shard: None,
                    time_limit: None,
                },
            )
        }
        Cmd::Replay {
            scenario,
            schedule,
            seed,
            time,
            entry,
            params,
            engine,
            go_version,
            all,
        } => {
            let opts = scenario::KernelCheck {
                time,
                entry,
                params,
                go_version,
                all,
                ..Default::default()
            };
            replay(&scenario, &opts, schedule.as_deref(), seed, engine)
        }
    }
}

fn list() -> String {
    use std::fmt::Write;
    let mut o = String::new();
    for m in crate::models::all() {
        let _ = writeln!(o, "{}: {}", m.name, m.summary);
        let _ = writeln!(o, "  origin: {}", m.origin);
        let _ = writeln!(o, "  variants:");
        for v in m.variants {
            let _ = writeln!(o, "    {:<22} {}", v.name, v.doc);
        }
        let _ = writeln!(o, "  parameters:");
        for p in m.params {
            let _ = writeln!(
                o,
                "    {:<22} default {}, {}..={}: {}",
                p.name, p.default, p.min, p.max, p.doc
            );
        }
        let _ = writeln!(o, "  properties: deadlock, leak, data-race, fault:<kind>");
        for (p, d) in m.properties {
            let _ = writeln!(o, "    {p:<22} {d}");
        }
        let _ = writeln!(
            o,
            "  expect values: {}",
            scenario::expect_values(m).join(", ")
        );
        if let Some(n) = m.network {
            let _ = writeln!(o, "  network (engine turmoil):");
            for (h, d) in n.hosts {
                let _ = writeln!(o, "    host   {h:<15} {d}");
            }
            for (h, d) in n.clients {
                let _ = writeln!(o, "    client {h:<15} {d}");
            }
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o, "engines: {}", explore::KINDS.join(", "));
    let _ = writeln!(
        o,
        "fault kinds (turmoil): {} (crash and bounce take host = ..., the others between = [a, b]; loss also rate = 0.0..=1.0)",
        crate::net::FaultKind::keys().join(", ")
    );
    o
}

fn show_error(e: &ScenarioError) {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    let mut s = String::new();
    if e.line > 0 && handler.render_report(&mut s, e).is_ok() {
        eprintln!("error: {}", s.trim_end().trim_start_matches(['×', ' ']));
    } else {
        eprintln!("error: {}", e.full());
    }
}

/// Every scenario under `paths` (default `scenarios/`), or the exit code of bad input.
fn load_all(paths: Vec<PathBuf>) -> Result<Vec<Scenario>, u8> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("scenarios")]
    } else {
        paths
    };
    let fs = scenario::files(&paths).map_err(|e| {
        eprintln!("error: {e}");
        BAD_INPUT
    })?;
    if fs.is_empty() {
        eprintln!("error: no scenario files (*.toml) under {paths:?}");
        return Err(BAD_INPUT);
    }
    let mut ok = Vec::new();
    let mut bad = false;
    for f in fs {
        match scenario::load(&f) {
            Ok(s) => ok.push(s),
            Err(e) => {
                show_error(&e);
                bad = true;
            }
        }
    }
    if bad { Err(BAD_INPUT) } else { Ok(ok) }
}

/// Runs one engine with a progress bar on stderr (hidden when stderr is no terminal).
fn run_with_progress(s: &Scenario, i: usize) -> EngineRun {
    let spec = &s.engines[i - 1];
    let count = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let bar = ProgressBar::new(spec.iterations);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} executions, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(format!("{} {}", s.name, spec.engine.kind_name()));
    let (c, d, b) = (count.clone(), done.clone(), bar.clone());
    let ticker = std::thread::spawn(move || {
        while !d.load(Relaxed) {
            b.set_position(c.load(Relaxed));
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let r = runner::run_engine(s, i, Some(count));
    done.store(true, Relaxed);
    let _ = ticker.join();
    bar.finish_and_clear();
    r
}

/// The scenario × engine runs of this shard, in order: (scenario index, engine number).
/// Every shard has every dpor run: those are split by their trees (`Scenario::part`).
fn plan_runs(scenarios: &[Scenario], shard: Option<(usize, usize)>) -> Vec<(usize, usize)> {
    let all = scenarios
        .iter()
        .enumerate()
        .flat_map(|(si, s)| (1..=s.engines.len()).map(move |e| (si, e)));
    let Some((k, n)) = shard else {
        return all.collect();
    };
    let dpor = |&(si, e): &(usize, usize)| scenarios[si].engines[e - 1].engine.splits();
    let mut others = 0;
    all.filter(|r| {
        dpor(r) || {
            others += 1;
            (others - 1) % n == k - 1
        }
    })
    .collect()
}

/// Runs `runs` on `jobs` threads and hands each result to `emit` in the order of
/// `runs`, as soon as it and all before it are done. The threads are not joined: one
/// that helps a dpor run stuck in a model's own code (which the watchdog has reported
/// as an engine error) is left behind, as the run's own thread is, and the command
/// ends with the others.
fn execute(
    scenarios: &[Scenario],
    runs: &[(usize, usize)],
    jobs: usize,
    mut emit: impl FnMut(usize, EngineRun),
) {
    if jobs <= 1 {
        for (i, &(si, e)) in runs.iter().enumerate() {
            emit(i, run_with_progress(&scenarios[si], e));
        }
        return;
    }
    let next = Arc::new(AtomicU64::new(0));
    let shared = Arc::new((scenarios.to_vec(), runs.to_vec()));
    let (tx, rx) = std::sync::mpsc::channel();
    for _ in 0..jobs.min(runs.len()) {
        let (tx, next, shared) = (tx.clone(), next.clone(), shared.clone());
        std::thread::spawn(move || {
            let (scenarios, runs) = &*shared;
            loop {
                let i = next.fetch_add(1, Relaxed) as usize;
                let Some(&(si, e)) = runs.get(i) else { break };
                let r = runner::run_engine(&scenarios[si], e, None);
                if tx.send((i, r)).is_err() {
                    break;
                }
            }
            // No run left to start: join a dpor run still going (its result does not
            // depend on who explores it). Its results are sent: the command need not
            // wait for this thread.
            drop(tx);
            let mut joined = Vec::new();
            while explore::help(&mut joined) {}
        });
    }
    drop(tx);
    let mut pending = std::collections::BTreeMap::new();
    let mut printed = 0;
    for (i, r) in rx {
        pending.insert(i, r);
        while let Some(r) = pending.remove(&printed) {
            emit(printed, r);
            printed += 1;
        }
    }
}

fn run(paths: Vec<PathBuf>, opts: &RunOpts) -> ExitCode {
    match load_all(paths) {
        Ok(s) => run_loaded(s, opts),
        Err(code) => ExitCode::from(code),
    }
}

fn run_loaded(mut scenarios: Vec<Scenario>, opts: &RunOpts) -> ExitCode {
    let runs = plan_runs(&scenarios, opts.shard);
    // Threads the runs leave idle go to each dpor run.
    let threads = (opts.jobs / opts.jobs.min(runs.len()).max(1)).max(1);
    for s in &mut scenarios {
        s.threads = threads;
        s.part = opts.shard.map(|(k, n)| (k as u32 - 1, n as u32));
        if let Some(t) = opts.time_limit {
            s.time_limit = t;
        }
    }
    let text = opts.format == Format::Text;
    if let Some((k, n)) = opts.shard
        && text
    {
        println!(
            "shard {k}/{n}: {} of the scenario × engine runs, each dpor run on part {k}/{n} of its tree",
            runs.len()
        );
    }
    let mut done: Vec<(usize, usize, EngineRun)> = Vec::new();
    let mut worst = Verdict::Ok;
    let mut last_scenario = None;
    execute(&scenarios, &runs, opts.jobs, |i, r| {
        let (si, e) = runs[i];
        let s = &scenarios[si];
        if text {
            if last_scenario != Some(si) {
                println!(
                    "== {} ({}): {} / {}, expect {}",
                    s.name, s.path, s.model.name, s.variant, s.expect
                );
                println!("   params {}", s.params.describe().join(" "));
                last_scenario = Some(si);
            }
            print_engine(e, &r, opts.quiet);
        } else {
            println!("{}", crate::output::json_line(s, e, &r));
        }
        worst = worse(worst, r.verdict);
        done.push((si, e, r));
    });
    if text {
        let rows: Vec<(String, String, &EngineRun)> = done
            .iter()
            .map(|(si, _, r)| {
                (
                    scenarios[*si].name.clone(),
                    scenarios[*si].expect.to_string(),
                    r,
                )
            })
            .collect();
        print!("{}", table(&rows));
    }
    if let Some(dir) = &opts.graph {
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            for (si, e, r) in &done {
                if let Some(dot) = r.found.as_ref().and_then(|f| f.graph.as_ref()) {
                    std::fs::write(dir.join(format!("{}-{e}.dot", scenarios[*si].name)), dot)?;
                }
            }
            Ok(())
        };
        if let Err(err) = write() {
            eprintln!("error: cannot write graphs to {}: {err}", dir.display());
            return ExitCode::from(BAD_INPUT);
        }
    }
    if let Some(path) = &opts.junit {
        let rows: Vec<_> = done
            .iter()
            .map(|(si, e, r)| (&scenarios[*si], *e, r))
            .collect();
        if let Err(err) = std::fs::write(path, crate::output::junit(&rows)) {
            eprintln!("error: cannot write {}: {err}", path.display());
            return ExitCode::from(BAD_INPUT);
        }
    }
    ExitCode::from(worst.exit_code() as u8)
}

fn print_engine(i: usize, r: &EngineRun, quiet: bool) {
    println!(
        "   engine {i}: {} -> {} ({})",
        r.engine.describe(),
        r.found_key(),
        r.coverage()
    );
    for g in &r.shared {
        match g.as_slice() {
            [one] => println!("   one loom point for every object named {one} (selected together)"),
            _ => println!("   one loom point for {} (selected together)", g.join(", ")),
        }
    }
    if let Some(line) = restarts(&r.regrouped) {
        println!("   {line}");
    }
    if let Some(e) = &r.error {
        println!("   error: {e}");
    }
    if !quiet {
        for f in r.found.iter().chain(&r.also) {
            println!();
            println!("{}", f.report);
            println!();
        }
    }
}

/// One short line on loom's restarts with larger groups, however many there were.
fn restarts(runs: &[u64]) -> Option<String> {
    let (lo, hi) = (runs.iter().min()?, runs.iter().max()?);
    let total: u64 = runs.iter().sum();
    let each = if runs.len() <= 4 {
        let list: Vec<String> = runs.iter().map(|n| n.to_string()).collect();
        format!("after {} executions", list.join(", "))
    } else {
        format!("after {lo} to {hi} executions each, {total} in all")
    };
    Some(format!(
        "loom started again {} time(s) with larger groups ({each})",
        runs.len()
    ))
}

/// Crash outranks an unexpected violation, which outranks a violation not found.
fn worse(a: Verdict, b: Verdict) -> Verdict {
    let rank = |v: Verdict| match v {
        Verdict::Ok => 0,
        Verdict::NotFound => 1,
        Verdict::Incomplete => 2,
        Verdict::Unexpected => 3,
        Verdict::Crash => 4,
    };
    if rank(b) > rank(a) { b } else { a }
}

fn table(rows: &[(String, String, &EngineRun)]) -> String {
    let head = [
        "scenario",
        "engine",
        "expected",
        "found",
        "verdict",
        "executions",
        "time",
    ];
    let mut cells: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for (name, expect, r) in rows {
        cells.push(vec![
            name.clone(),
            r.engine.kind_name().to_string(),
            expect.clone(),
            r.found_key(),
            format!("{:?}", r.verdict).to_lowercase(),
            r.explored.executions.to_string(),
            format!("{:.2}s", r.elapsed.as_secs_f64()),
        ]);
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|c| cells.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let mut o = String::from("\n");
    for r in &cells {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        o.push_str(line.join("  ").trim_end());
        o.push('\n');
    }
    o
}

fn replay(
    path: &Path,
    opts: &scenario::KernelCheck,
    token: Option<&str>,
    seed: Option<u64>,
    engine: Option<usize>,
) -> ExitCode {
    let go = path.extension().is_some_and(|x| x == "go");
    if !go && *opts != scenario::KernelCheck::default() {
        eprintln!(
            "error: {}: --time, --entry, --param and --go are for a Go kernel (a .go file); a scenario file says them itself",
            path.display()
        );
        return ExitCode::from(BAD_INPUT);
    }
    let loaded = if go {
        scenario::kernel_check(path, opts)
    } else {
        scenario::load(path)
    };
    let s = match loaded {
        Ok(s) => s,
        Err(e) => {
            show_error(&e);
            return ExitCode::from(BAD_INPUT);
        }
    };
    let r = match (token, seed) {
        (Some(t), _) => runner::replay(&s, t),
        (None, Some(seed)) => runner::replay_seed(&s, engine, seed),
        (None, None) => Err(crate::Error::Token(
            "give --schedule TOKEN or --seed N".into(),
        )),
    };
    match r {
        Ok(r) => {
            println!("{}", r.report);
            if r.reproduced {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(DIVERGED)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(BAD_INPUT)
        }
    }
}
