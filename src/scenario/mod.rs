//! Scenario files: what to run, under which engines and bounds, and what must be found.
//!
//! ```toml
//! name = "cacher_2015_buggy"          # optional; defaults to the file name
//! description = "..."
//! model = "cacher-2015"
//! variant = "buggy"
//! expect = "deadlock"                 # pass | deadlock | leak | fault:<kind> | violation:<property>
//!
//! [params]                            # optional; defaults from `stalemate list`
//! relists = 1
//!
//! [bounds]                            # optional
//! max_steps = 10000                   # per execution
//! at_max_steps = "cut"                # cut: the execution ends there, the search goes on; fail: violation:step-bound
//! time_limit_secs = 600               # per engine
//!
//! [checks]                            # optional
//! data_race = true                    # races on plain variables (`go.var`) are violations
//! all = false                         # true: go on past a violation, reporting each kind reached
//!
//! [time]                              # optional
//! mode = "any"                        # any: timers fire at any step; virtual: durations count
//!
//! [[engine]]
//! kind = "loom"                       # loom | shuttle-random | shuttle-pct | shuttle-dfs | shuttle-stateful
//! preemption_bound = 2                # loom; omit for no bound (a proof)
//! iterations = 1000000                # executions at most
//! ```
//!
//! The format grows by new keys and tables (a later `[[goroutine]]` list will describe a
//! model inline); unknown keys are errors today, so nothing is silently ignored.

mod kernel;

use kernel::kernel_error;
pub use kernel::{KernelCheck, kernel_check, kernel_checks};

use crate::explore::{Bounds, Engine};
use crate::models::{self, Model, Params};
use crate::net::{self, FaultPlan};
use crate::world::{AtMaxSteps, TimeMode};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::time::Duration;
use toml::Spanned;

/// What a scenario expects its engines to find.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Pass,
    /// A property key: `deadlock`, `leak`, `fault:<kind>`, `violation:<property>`.
    Violation(String),
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::Pass => write!(f, "pass"),
            Expect::Violation(k) => write!(f, "{k}"),
        }
    }
}

/// One `[[engine]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub engine: Engine,
    pub iterations: u64,
    /// `dpor`: decision points above the units its tree is cut into (`split`).
    pub split: u32,
}

#[derive(Clone)]
pub struct Scenario {
    pub path: String,
    pub name: String,
    pub description: String,
    pub model: &'static Model,
    pub variant: String,
    pub params: Params,
    pub expect: Expect,
    pub engines: Vec<EngineSpec>,
    pub max_steps: usize,
    /// `[bounds] at_max_steps`: cut (the default) or fail.
    pub at_max_steps: AtMaxSteps,
    pub time_limit: Duration,
    /// `[checks] data_race`: report races on plain variables (default true).
    pub check_races: bool,
    /// `[checks] all`: go on past a violation, reporting each kind reached.
    pub all: bool,
    /// `[time] mode`.
    pub time: TimeMode,
    /// Threads one `dpor` run may use (set by the command line, not the file).
    pub threads: usize,
    /// Only part `k` (from 0) of `n` of each `dpor` tree (the command line's `--shard`).
    pub part: Option<(u32, u32)>,
    /// What a replay command must repeat after the path: the options `stalemate check`
    /// was given that change an execution (` --time virtual`, ` --entry TestX`).
    pub replay_flags: String,
}

impl Scenario {
    pub fn bounds(&self, spec: &EngineSpec) -> Bounds {
        Bounds {
            check_races: self.check_races,
            all: self.all,
            time: self.time,
            max_executions: spec.iterations,
            max_steps: self.max_steps,
            at_max_steps: self.at_max_steps,
            time_limit: self.time_limit,
            threads: self.threads,
            part: self.part.filter(|_| spec.engine.splits()),
            // A part needs units to be one: a run with no cut is cut for it.
            split: match self.part {
                Some(_) if spec.split == 0 => crate::engine::DPOR_PART_SPLIT,
                _ => spec.split,
            },
        }
    }
}

/// A bad scenario file: where, what, and what would be accepted.
#[derive(Debug, Clone)]
pub struct ScenarioError {
    pub path: String,
    /// 1-based; 0 when the file could not be read at all.
    pub line: usize,
    pub col: usize,
    pub message: String,
    pub help: Option<String>,
    src: Box<miette::NamedSource<String>>,
    span: Range<usize>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path, self.message)?;
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.path, self.line, self.col, self.message
            )?;
        }
        Ok(())
    }
}

impl ScenarioError {
    /// The message and, on a second line, what would be accepted.
    pub fn full(&self) -> String {
        match &self.help {
            Some(h) => format!("{self}\n  help: {h}"),
            None => self.to_string(),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl miette::Diagnostic for ScenarioError {
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        (self.line > 0).then_some(&*self.src as &dyn miette::SourceCode)
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        None
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if self.line == 0 {
            return None;
        }
        let len = self.span.end.saturating_sub(self.span.start).max(1);
        Some(Box::new(std::iter::once(miette::LabeledSpan::at(
            self.span.start..self.span.start + len,
            "here",
        ))))
    }
}

struct Ctx<'a> {
    path: &'a str,
    src: &'a str,
}

impl Ctx<'_> {
    fn err(
        &self,
        span: Range<usize>,
        message: impl Into<String>,
        help: Option<String>,
    ) -> ScenarioError {
        let start = span.start.min(self.src.len());
        let before = &self.src[..start];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ScenarioError {
            path: self.path.to_string(),
            line,
            col,
            message: message.into(),
            help,
            src: Box::new(miette::NamedSource::new(self.path, self.src.to_string())),
            span,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Option<String>,
    description: Option<String>,
    model: Option<Spanned<String>>,
    variant: Option<Spanned<String>>,
    /// A Go kernel instead of a model: its path, relative to the scenario file.
    go: Option<Spanned<String>>,
    /// The kernel's entry: `main` (default) or a `TestX(t *testing.T)`.
    entry: Option<Spanned<String>>,
    /// The Go version the kernel is written for (`1.21`); default: its go.mod's.
    go_version: Option<Spanned<String>>,
    expect: Spanned<String>,
    #[serde(default)]
    params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    bounds: Option<RawBounds>,
    checks: Option<RawChecks>,
    time: Option<RawTime>,
    fault: Option<Vec<Spanned<RawFault>>>,
    engine: Option<Spanned<Vec<Spanned<RawEngine>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFault {
    at: Spanned<String>,
    kind: Spanned<String>,
    host: Option<Spanned<String>>,
    between: Option<Spanned<Vec<Spanned<String>>>>,
    /// `loss` only: the share of ticks in which the link fails.
    rate: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBounds {
    max_steps: Option<Spanned<i64>>,
    at_max_steps: Option<Spanned<String>>,
    time_limit_secs: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChecks {
    data_race: Option<bool>,
    all: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTime {
    mode: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEngine {
    kind: Spanned<String>,
    seed: Option<Spanned<i64>>,
    depth: Option<Spanned<i64>>,
    preemption_bound: Option<Spanned<i64>>,
    max_branches: Option<Spanned<i64>>,
    split: Option<Spanned<i64>>,
    iterations: Option<Spanned<i64>>,
    duration: Option<Spanned<String>>,
    tick: Option<Spanned<String>>,
    min_latency: Option<Spanned<String>>,
    max_latency: Option<Spanned<String>>,
    faults: Option<Spanned<String>>,
}

/// The scenario files under `paths`, each directory's sorted by path. A directory is
/// searched with its subdirectories (`goker/`), except one named `long`: the
/// hour-long explorations run only when named.
pub fn files(paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>, crate::Error> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), crate::Error> {
        let rd = std::fs::read_dir(dir).map_err(|e| {
            crate::Error::Path(format!("{}: cannot read directory: {e}", dir.display()))
        })?;
        let mut v: Vec<std::path::PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        for p in v {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "long") {
                    walk(&p, out)?;
                }
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(crate::Error::Path(format!(
                "{}: no such file or directory",
                p.display()
            )));
        }
    }
    Ok(out)
}

/// Reads and checks a scenario file.
pub fn load(path: &std::path::Path) -> Result<Scenario, ScenarioError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
        path: shown.clone(),
        line: 0,
        col: 0,
        message: format!("cannot read the scenario file: {e}"),
        help: None,
        src: Box::new(miette::NamedSource::new(&shown, String::new())),
        span: 0..0,
    })?;
    if path.extension().is_some_and(|x| x == "go") {
        return kernel_check(path, &KernelCheck::default());
    }
    parse(&shown, &text)
}

fn ranged(
    cx: &Ctx,
    v: &Spanned<i64>,
    what: &str,
    min: i64,
    max: i64,
) -> Result<i64, ScenarioError> {
    let x = *v.get_ref();
    if x < min || x > max {
        return Err(cx.err(
            v.span(),
            format!("{what} = {x} is out of range"),
            Some(format!("allowed: {min}..={max}")),
        ));
    }
    Ok(x)
}

/// Parses scenario text; `path` is only used in messages.
///
/// ```
/// let s = stalemate::scenario::parse("fixed.toml", r#"
/// model = "cacher-2015"
/// variant = "fixed"
/// expect = "pass"
///
/// [[engine]]
/// kind = "dpor"
/// "#).unwrap();
/// assert_eq!((s.model.name, s.engines.len()), ("cacher-2015", 1));
///
/// // A mistake is named with its line and column, and what would be accepted.
/// let typo = "model = \"cacher-2051\"\nvariant = \"fixed\"\nexpect = \"pass\"\n";
/// let Err(e) = stalemate::scenario::parse("typo.toml", typo) else {
///     panic!("no such model")
/// };
/// assert!(e.full().contains("typo.toml:1:9"), "{}", e.full());
/// assert!(e.full().contains("cacher-2015"), "{}", e.full());
/// ```
pub fn parse(path: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let cx = Ctx { path, src: text };
    let raw: RawScenario = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        cx.err(span, e.message().trim().to_string(), None)
    })?;

    let (model, variant, needs) = subject(&cx, &raw)?;
    let mut given = Vec::new();
    for (k, v) in &raw.params {
        let Some(p) = model.param(k.get_ref()) else {
            let ps: Vec<&str> = model.params.iter().map(|p| p.name).collect();
            return Err(cx.err(
                k.span(),
                format!("model {} has no parameter `{}`", model.name, k.get_ref()),
                Some(format!("parameters of {}: {}", model.name, ps.join(", "))),
            ));
        };
        let x = match v.get_ref() {
            toml::Value::Integer(i) => *i,
            toml::Value::Boolean(b) => i64::from(*b),
            other => {
                return Err(cx.err(
                    v.span(),
                    format!(
                        "parameter {} must be an integer, not {}",
                        p.name,
                        other.type_str()
                    ),
                    Some(format!(
                        "{}: {} (allowed {}..={})",
                        p.name, p.doc, p.min, p.max
                    )),
                ));
            }
        };
        if x < p.min || x > p.max {
            return Err(cx.err(
                v.span(),
                format!("parameter {} = {x} is out of range", p.name),
                Some(format!(
                    "{}: {} (allowed {}..={})",
                    p.name, p.doc, p.min, p.max
                )),
            ));
        }
        given.push((p.name, x));
    }
    let params = model.params(&given);

    let expect = parse_expect(&cx, model, &raw.expect)?;

    let mut max_steps = 10_000usize;
    let mut time_limit = Duration::from_secs(600);
    let mut at_max_steps = AtMaxSteps::Cut;
    if let Some(b) = &raw.bounds {
        if let Some(a) = &b.at_max_steps {
            at_max_steps = AtMaxSteps::from_key(a.get_ref()).ok_or_else(|| {
                cx.err(
                    a.span(),
                    format!("unknown at_max_steps `{}`", a.get_ref()),
                    Some("allowed: cut, fail".into()),
                )
            })?;
        }
        if let Some(s) = &b.max_steps {
            max_steps = ranged(&cx, s, "max_steps", 10, 10_000_000)? as usize;
        }
        if let Some(t) = &b.time_limit_secs {
            time_limit = Duration::from_secs(ranged(&cx, t, "time_limit_secs", 1, 86_400)? as u64);
        }
    }

    let time = match raw.time.as_ref().and_then(|t| t.mode.as_ref()) {
        None => needs.unwrap_or(TimeMode::Any),
        Some(m) => TimeMode::from_key(m.get_ref()).ok_or_else(|| {
            let allowed: Vec<&str> = TimeMode::ALL.iter().map(|t| t.key()).collect();
            cx.err(
                m.span(),
                format!("unknown time mode `{}`", m.get_ref()),
                Some(format!("allowed: {}", allowed.join(", "))),
            )
        })?,
    };
    if let Some(need) = needs.filter(|&n| n != time) {
        let span = raw
            .time
            .as_ref()
            .and_then(|t| t.mode.as_ref())
            .map_or(0..0, |m| m.span());
        return Err(cx.err(
            span,
            format!(
                "a kernel that imports testing/synctest runs in {} time (its bubble's clock)",
                need.key()
            ),
            Some(format!("mode = {:?}, or leave the mode out", need.key())),
        ));
    }

    let Some(engines_raw) = &raw.engine else {
        return Err(cx.err(
            0..0,
            "the scenario names no engine",
            Some(format!(
                "add an [[engine]] table with kind = one of {}",
                crate::explore::KINDS.join(", ")
            )),
        ));
    };
    if engines_raw.get_ref().is_empty() {
        return Err(cx.err(engines_raw.span(), "the scenario names no engine", None));
    }
    let plan = parse_faults(&cx, model, raw.fault.as_deref().unwrap_or(&[]))?;
    let mut engines = Vec::new();
    for e in engines_raw.get_ref() {
        engines.push(parse_engine(&cx, model, &plan, e)?);
    }

    let name = raw.name.unwrap_or_else(|| {
        std::path::Path::new(path)
            .file_stem()
            .map_or("scenario".into(), |s| s.to_string_lossy().into_owned())
    });
    Ok(Scenario {
        path: path.to_string(),
        name,
        description: raw.description.unwrap_or_default(),
        model,
        variant,
        params,
        expect,
        engines,
        max_steps,
        at_max_steps,
        time_limit,
        check_races: raw
            .checks
            .as_ref()
            .and_then(|c| c.data_race)
            .unwrap_or(true),
        all: raw.checks.as_ref().and_then(|c| c.all).unwrap_or(false),
        time,
        threads: 1,
        part: None,
        replay_flags: String::new(),
    })
}

/// The model and variant a scenario names, or the model its Go kernel becomes, with
/// the time mode it needs, if any: a kernel that imports `testing/synctest` runs in
/// virtual time, its bubble's clock.
fn subject(
    cx: &Ctx,
    raw: &RawScenario,
) -> Result<(&'static Model, String, Option<TimeMode>), ScenarioError> {
    if let (Some(v), None) = (&raw.go_version, &raw.go) {
        return Err(cx.err(
            v.span(),
            "`go_version` is for Go kernels",
            Some("add go = \"path/to/kernel.go\", or remove go_version".into()),
        ));
    }
    if let (Some(e), None) = (&raw.entry, &raw.go) {
        return Err(cx.err(
            e.span(),
            "`entry` is for Go kernels",
            Some("add go = \"path/to/kernel.go\", or remove entry".into()),
        ));
    }
    let model = match (&raw.model, &raw.go) {
        (Some(_), Some(g)) => {
            return Err(cx.err(
                g.span(),
                "a scenario names a model or a Go kernel, not both",
                Some("remove model (and variant), or go".into()),
            ));
        }
        (None, None) => {
            return Err(cx.err(
                0..0,
                "the scenario names neither a model nor a Go kernel",
                Some(format!(
                    "add model = one of {}, or go = \"path/to/kernel.go\"",
                    models::names().join(", ")
                )),
            ));
        }
        (None, Some(g)) => {
            let entry = raw.entry.as_ref().map(|e| e.get_ref().as_str());
            let dir = std::path::Path::new(cx.path)
                .parent()
                .unwrap_or(std::path::Path::new(""));
            let file = dir.join(g.get_ref());
            let shown = file.display().to_string();
            let text = std::fs::read_to_string(&file).map_err(|e| {
                cx.err(
                    g.span(),
                    format!("cannot read the Go kernel {shown}: {e}"),
                    None,
                )
            })?;
            let mut k =
                crate::kernel::parse(&shown, &text, entry).map_err(|e| kernel_error(&e, &text))?;
            let minor = match &raw.go_version {
                Some(v) => Some(crate::kernel::go_minor(v.get_ref()).ok_or_else(|| {
                    cx.err(
                        v.span(),
                        format!("`{}` is not a Go version", v.get_ref()),
                        Some("1.N, e.g. \"1.21\"".into()),
                    )
                })?),
                None => crate::kernel::go_mod_minor(&file),
            };
            k.go_minor(minor);
            let time = k.imports("synctest").then_some(TimeMode::Virtual);
            let stem = file
                .file_stem()
                .map_or("kernel".into(), |s| s.to_string_lossy().into_owned());
            let model = k.into_model(&format!("go:{stem}"));
            let variant = raw
                .variant
                .as_ref()
                .map_or("kernel".to_string(), |v| v.get_ref().clone());
            if variant != "kernel" {
                let span = raw.variant.as_ref().map_or(0..0, |v| v.span());
                return Err(cx.err(
                    span,
                    format!("a Go kernel has no variant `{variant}`"),
                    Some("a kernel's only variant is `kernel` (or leave variant out)".into()),
                ));
            }
            return Ok((model, variant, time));
        }
        (Some(m), None) => models::find(m.get_ref()).ok_or_else(|| {
            cx.err(
                m.span(),
                format!("unknown model `{}`", m.get_ref()),
                Some(format!("known models: {}", models::names().join(", "))),
            )
        })?,
    };
    let vs: Vec<&str> = model.variants.iter().map(|v| v.name).collect();
    let help = || Some(format!("variants of {}: {}", model.name, vs.join(", ")));
    let Some(v) = &raw.variant else {
        return Err(cx.err(0..0, "missing field `variant`", help()));
    };
    let variant = v.get_ref().clone();
    if model.variant(&variant).is_none() {
        return Err(cx.err(
            v.span(),
            format!("model {} has no variant `{variant}`", model.name),
            help(),
        ));
    }
    Ok((model, variant, None))
}

/// Every `expect` value a model accepts.
pub fn expect_values(model: &Model) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "pass".into(),
        "deadlock".into(),
        "leak".into(),
        "livelock".into(),
        "data-race".into(),
    ];
    v.extend(
        crate::world::Fault::ALL
            .iter()
            .map(|f| format!("fault:{}", f.key())),
    );
    v.extend(
        model
            .properties
            .iter()
            .map(|(p, _)| format!("violation:{p}")),
    );
    v.push("violation:step-bound".into());
    v
}

fn parse_expect(cx: &Ctx, model: &Model, e: &Spanned<String>) -> Result<Expect, ScenarioError> {
    let s = e.get_ref().as_str();
    let ok = expect_values(model);
    if !ok.iter().any(|x| x == s) {
        return Err(cx.err(
            e.span(),
            format!("unknown expectation `{s}` for model {}", model.name),
            Some(format!("allowed: {}", ok.join(", "))),
        ));
    }
    Ok(if s == "pass" {
        Expect::Pass
    } else {
        Expect::Violation(s.to_string())
    })
}

const DURATION_HELP: &str = "a duration such as 250ms, 1.5s, 30s or 2m";

fn duration(cx: &Ctx, v: &Spanned<String>, what: &str) -> Result<Duration, ScenarioError> {
    net::parse_duration(v.get_ref()).ok_or_else(|| {
        cx.err(
            v.span(),
            format!("{what} = \"{}\" is not a duration", v.get_ref()),
            Some(format!("{DURATION_HELP} (whole milliseconds, at most 24h)")),
        )
    })
}

/// The `[[fault]]` list: timed faults on the model's hosts and links.
fn parse_faults(
    cx: &Ctx,
    model: &Model,
    raw: &[Spanned<RawFault>],
) -> Result<Vec<(net::Fault, Range<usize>)>, ScenarioError> {
    if raw.is_empty() {
        return Ok(Vec::new());
    }
    let Some(network) = model.network else {
        return Err(cx.err(
            raw[0].span(),
            format!("model {} has no network side for a fault plan", model.name),
            Some(format!("models with one: {}", network_models())),
        ));
    };
    let hosts: Vec<&str> = network.hosts.iter().map(|h| h.0).collect();
    let all = network.host_names();
    let known = |h: &Spanned<String>, allowed: &[&str], what: &str| {
        if allowed.contains(&h.get_ref().as_str()) {
            Ok(h.get_ref().clone())
        } else {
            Err(cx.err(
                h.span(),
                format!("unknown {what} `{}` in the fault plan", h.get_ref()),
                Some(format!("{what}s of {}: {}", model.name, allowed.join(", "))),
            ))
        }
    };
    let mut out = Vec::new();
    for sf in raw {
        let f = sf.get_ref();
        let at = duration(cx, &f.at, "at")?;
        let kind = match (f.kind.get_ref().as_str(), &f.rate) {
            ("loss", Some(r)) => {
                let x = *r.get_ref();
                if !(0.0..=1.0).contains(&x) {
                    return Err(cx.err(
                        r.span(),
                        format!("rate = {x} is out of range"),
                        Some(
                            "allowed: 0.0..=1.0 (the share of ticks in which the link fails)"
                                .into(),
                        ),
                    ));
                }
                net::FaultKind::Loss((x * 1000.0).round() as u16)
            }
            ("loss", None) => {
                return Err(cx.err(
                    f.kind.span(),
                    "fault `loss` needs a rate",
                    Some("rate = 0.0..=1.0, the share of ticks in which the link fails".into()),
                ));
            }
            (_, Some(r)) => {
                return Err(cx.err(r.span(), "`rate` applies only to a loss fault", None));
            }
            (k, None) => net::FaultKind::from_key(k).ok_or_else(|| {
                cx.err(
                    f.kind.span(),
                    format!("unknown fault kind `{k}`"),
                    Some(format!(
                        "fault kinds: {}",
                        net::FaultKind::keys().join(", ")
                    )),
                )
            })?,
        };
        let (a, b) = match (kind.on_link(), &f.host, &f.between) {
            (false, Some(h), None) => (known(h, &hosts, "host")?, None),
            (true, None, Some(pair)) if pair.get_ref().len() == 2 => {
                let (x, y) = (&pair.get_ref()[0], &pair.get_ref()[1]);
                let (x, y) = (known(x, &all, "host")?, known(y, &all, "host")?);
                if x == y {
                    return Err(cx.err(pair.span(), "a link joins two different hosts", None));
                }
                (x, Some(y))
            }
            _ => {
                let help = if kind.on_link() {
                    format!(
                        "{} acts on a link: between = [\"gateway\", \"apiserver-a\"]",
                        kind.key()
                    )
                } else {
                    format!(
                        "{} acts on one host: host = one of {}",
                        kind.key(),
                        hosts.join(", ")
                    )
                };
                return Err(cx.err(
                    f.kind.span(),
                    format!("fault `{}` needs its target", kind.key()),
                    Some(help),
                ));
            }
        };
        out.push((net::Fault { at, kind, a, b }, f.at.span()));
    }
    Ok(out)
}

fn network_models() -> String {
    let v: Vec<&str> = models::all()
        .iter()
        .filter(|m| m.network.is_some())
        .map(|m| m.name)
        .collect();
    v.join(", ")
}

fn parse_engine(
    cx: &Ctx,
    model: &Model,
    plan: &[(net::Fault, Range<usize>)],
    se: &Spanned<RawEngine>,
) -> Result<EngineSpec, ScenarioError> {
    let e = se.get_ref();
    let kind = e.kind.get_ref().as_str();
    fn not_for_any<T>(
        cx: &Ctx,
        kind: &str,
        field: &Option<Spanned<T>>,
        name: &str,
    ) -> Result<(), ScenarioError> {
        match field {
            Some(v) => Err(cx.err(
                v.span(),
                format!("`{name}` does not apply to engine {kind}"),
                None,
            )),
            None => Ok(()),
        }
    }
    let not_for = |field: &Option<Spanned<i64>>, name: &str| not_for_any(cx, kind, field, name);
    if kind != "turmoil" {
        not_for_any(cx, kind, &e.duration, "duration")?;
        not_for_any(cx, kind, &e.tick, "tick")?;
        not_for_any(cx, kind, &e.min_latency, "min_latency")?;
        not_for_any(cx, kind, &e.max_latency, "max_latency")?;
        not_for_any(cx, kind, &e.faults, "faults")?;
    }
    let seed = |required: bool| -> Result<u64, ScenarioError> {
        match &e.seed {
            Some(s) => Ok(ranged(cx, s, "seed", 0, i64::MAX)? as u64),
            None if required => Err(cx.err(
                se.span(),
                format!("engine {kind} needs a `seed`"),
                Some("any integer ≥ 0; the same seed gives the same schedules".into()),
            )),
            None => Ok(0),
        }
    };
    if kind != "dpor" {
        not_for(&e.split, "split")?;
    }
    let split = match &e.split {
        Some(s) => ranged(cx, s, "split", 0, 64)? as u32,
        None => crate::engine::DPOR_SPLIT,
    };
    let iterations = match &e.iterations {
        Some(i) => ranged(cx, i, "iterations", 1, 1_000_000_000)? as u64,
        None => match kind {
            "loom" => 1_000_000,
            "turmoil" => 10,
            _ => 1_000,
        },
    };
    let engine = match kind {
        "loom" => {
            not_for(&e.seed, "seed")?;
            not_for(&e.depth, "depth")?;
            let preemption_bound = match &e.preemption_bound {
                Some(b) => Some(ranged(cx, b, "preemption_bound", 0, 100)? as usize),
                None => None,
            };
            let max_branches = match &e.max_branches {
                Some(b) => ranged(cx, b, "max_branches", 1, 1_000_000)? as usize,
                None => 10_000,
            };
            Engine::Loom {
                preemption_bound,
                max_branches,
            }
        }
        "dpor" => {
            not_for(&e.seed, "seed")?;
            not_for(&e.depth, "depth")?;
            not_for(&e.preemption_bound, "preemption_bound")?;
            not_for(&e.max_branches, "max_branches")?;
            Engine::Dpor
        }
        "shuttle-random" | "shuttle-pct" | "shuttle-dfs" | "shuttle-stateful" => {
            not_for(&e.preemption_bound, "preemption_bound")?;
            not_for(&e.max_branches, "max_branches")?;
            match kind {
                "shuttle-random" => {
                    not_for(&e.depth, "depth")?;
                    Engine::Random { seed: seed(true)? }
                }
                "shuttle-pct" => {
                    let depth = match &e.depth {
                        Some(d) => ranged(cx, d, "depth", 1, 100)? as usize,
                        None => 3,
                    };
                    Engine::Pct {
                        seed: seed(true)?,
                        depth,
                    }
                }
                _ => {
                    not_for(&e.seed, "seed")?;
                    not_for(&e.depth, "depth")?;
                    if kind == "shuttle-dfs" {
                        Engine::Dfs
                    } else {
                        Engine::Stateful
                    }
                }
            }
        }
        "turmoil" => {
            not_for(&e.preemption_bound, "preemption_bound")?;
            not_for(&e.max_branches, "max_branches")?;
            not_for(&e.depth, "depth")?;
            turmoil(cx, model, plan, e, seed(false)?)?
        }
        other => {
            return Err(cx.err(
                e.kind.span(),
                format!("unknown engine `{other}`"),
                Some(format!("engines: {}", crate::explore::KINDS.join(", "))),
            ));
        }
    };
    Ok(EngineSpec {
        engine,
        iterations,
        split,
    })
}

/// A `kind = "turmoil"` engine: simulated time, latency and where its faults come from.
fn turmoil(
    cx: &Ctx,
    model: &Model,
    plan: &[(net::Fault, Range<usize>)],
    e: &RawEngine,
    seed: u64,
) -> Result<Engine, ScenarioError> {
    if model.network.is_none() {
        return Err(cx.err(
            e.kind.span(),
            format!(
                "model {} has no network side for engine turmoil",
                model.name
            ),
            Some(format!("models with one: {}", network_models())),
        ));
    }
    let get = |v: &Option<Spanned<String>>, what: &str, default: u64| match v {
        Some(v) => duration(cx, v, what).map(|d| (d, v.span())),
        None => Ok((Duration::from_millis(default), e.kind.span())),
    };
    let (duration, dspan) = get(&e.duration, "duration", 60_000)?;
    let (tick, tspan) = get(&e.tick, "tick", 1)?;
    let (min_latency, _) = get(&e.min_latency, "min_latency", 1)?;
    let (max_latency, lspan) = get(&e.max_latency, "max_latency", 20)?;
    if tick.is_zero() || tick > duration {
        return Err(cx.err(
            tspan,
            "tick must be above zero and at most the duration",
            Some("e.g. tick = \"1ms\"".into()),
        ));
    }
    if duration > Duration::from_secs(3600) {
        return Err(cx.err(
            dspan,
            "duration is above 1h",
            Some("at most 1h of simulated time".into()),
        ));
    }
    if min_latency > max_latency {
        return Err(cx.err(lspan, "max_latency is below min_latency", None));
    }
    let faults = match e.faults.as_ref().map(|f| f.get_ref().as_str()) {
        None | Some("given") => {
            for (f, span) in plan {
                if f.at > duration {
                    return Err(cx.err(
                        span.clone(),
                        format!(
                            "fault at {} is after the simulation's end ({})",
                            net::secs(f.at),
                            net::secs(duration)
                        ),
                        Some(format!(
                            "at = a duration up to the engine's duration ({})",
                            net::secs(duration)
                        )),
                    ));
                }
            }
            net::Faults::Given(FaultPlan::new(plan.iter().map(|p| p.0.clone()).collect()))
        }
        Some("seed") => {
            if let Some((_, span)) = plan.first() {
                return Err(cx.err(
                    span.clone(),
                    "this engine draws its faults from each seed; the [[fault]] list would be ignored",
                    Some("remove faults = \"seed\" or the [[fault]] list".into()),
                ));
            }
            net::Faults::Drawn
        }
        Some(other) => {
            let span = e.faults.as_ref().map_or(0..0, |f| f.span());
            return Err(cx.err(
                span,
                format!("unknown fault source `{other}`"),
                Some("faults = \"given\" (the [[fault]] list, the default) or \"seed\" (drawn from each seed)".into()),
            ));
        }
    };
    Ok(Engine::Turmoil(net::Settings {
        seed,
        duration,
        tick,
        min_latency,
        max_latency,
        faults,
    }))
}
