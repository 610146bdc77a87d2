//! A scenario made from a Go kernel alone, as `stalemate check` runs one: the kernel's
//! file and the command line's options, checked as a scenario file's are.

use super::*;

/// What `stalemate check` may be told besides the kernel (its options).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct KernelCheck {
    /// One engine kind (`dpor`, `loom`, `shuttle-random`, `shuttle-pct`, `shuttle-dfs`,
    /// `shuttle-stateful`); none: `dpor`, then `shuttle-pct`.
    pub engine: Option<String>,
    /// Executions at most; none: 1,000,000 for an exhaustive engine, 1,000 otherwise.
    pub iterations: Option<u64>,
    /// `any` or `virtual`; none: `any`.
    pub time: Option<TimeMode>,
    /// The entry: `main` or a `TestX(t *testing.T)`; none: `main`, else the first test
    /// (`kernel_checks` runs each in turn).
    pub entry: Option<String>,
    /// The seed of `shuttle-random` and `shuttle-pct`; none: 1.
    pub seed: Option<u64>,
    /// Kernel parameters given a value, in the order given.
    pub params: Vec<(String, i64)>,
    /// `--go 1.21`: the Go version the kernel is written for.
    pub go_version: Option<String>,
    /// `--all`: every kind of violation reached, not only the first.
    pub all: bool,
}

impl KernelCheck {
    /// The options a replay must be given too: those that change an execution.
    fn replay_flags(&self) -> String {
        let mut f = String::new();
        if let Some(m) = self.time {
            f += &format!(" --time {}", m.key());
        }
        if let Some(e) = &self.entry {
            f += &format!(" --entry {e}");
        }
        for (n, v) in &self.params {
            f += &format!(" --param {n}={v}");
        }
        if let Some(v) = &self.go_version {
            f += &format!(" --go {v}");
        }
        // Races do not stop its executions: a replay must go on past them too.
        if self.all {
            f += " --all";
        }
        f
    }

    /// The scenario text these options stand for. Engine kinds and numbers are checked
    /// by the caller (the command line's value parsers), so the text always parses;
    /// an unknown entry is the kernel's error, at its file.
    fn text(&self, go: &str) -> String {
        let mut t = format!(
            "description = \"stalemate check: the kernel under the {} engines\"\n\
             go = {go:?}\nexpect = \"pass\"\n",
            if self.engine.is_some() {
                "chosen"
            } else {
                "default"
            }
        );
        if let Some(e) = &self.entry {
            t += &format!("entry = {e:?}\n");
        }
        if let Some(v) = &self.go_version {
            t += &format!("go_version = {v:?}\n");
        }
        if let Some(m) = self.time {
            t += &format!("[time]\nmode = {:?}\n", m.key());
        }
        if self.all {
            t += "[checks]\nall = true\n";
        }
        if !self.params.is_empty() {
            // A name given twice takes its last value, as a repeated flag does.
            let ps: BTreeMap<&str, i64> =
                self.params.iter().map(|(n, v)| (n.as_str(), *v)).collect();
            t += "[params]\n";
            for (n, v) in ps {
                t += &format!("{n} = {v}\n");
            }
        }
        let kinds: Vec<&str> = match &self.engine {
            Some(k) => vec![k.as_str()],
            None => vec!["dpor", "shuttle-pct"],
        };
        for kind in kinds {
            let exhaustive = matches!(kind, "dpor" | "loom" | "shuttle-dfs" | "shuttle-stateful");
            let n = self
                .iterations
                .unwrap_or(if exhaustive { 1_000_000 } else { 1_000 });
            t += &format!("[[engine]]\nkind = {kind:?}\niterations = {n}\n");
            if matches!(kind, "shuttle-random" | "shuttle-pct") {
                t += &format!("seed = {}\n", self.seed.unwrap_or(1));
            }
        }
        t
    }
}

/// `stalemate check kernel.go` (or a `.go` file given to `run` or `replay`): the
/// kernel's `main` (or its first test) under the default engines, or those `opts`
/// name, expecting a pass.
pub fn kernel_check(path: &std::path::Path, opts: &KernelCheck) -> Result<Scenario, ScenarioError> {
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let text = opts.text(&name);
    let mut s = parse(&path.display().to_string(), &text).map_err(|mut e| {
        // The text is ours, not the user's: an error in its `[params]` is a --param's,
        // with no place in a file to show.
        let params = text.lines().position(|l| l == "[params]");
        let line = text.lines().nth(e.line.saturating_sub(1)).unwrap_or("");
        if params.is_some_and(|p| e.line > p) && !line.starts_with('[') {
            e.message = format!("--param: {}", e.message);
            e.line = 0;
            e.col = 0;
        } else if line.starts_with("mode = ") {
            e.message = format!("--time: {}", e.message);
            e.line = 0;
            e.col = 0;
        }
        e
    })?;
    s.replay_flags = opts.replay_flags();
    Ok(s)
}

/// `kernel_check`, once per test when no entry is given and the kernel has tests to
/// run rather than a `main` (`kernel::default_tests`): each a scenario of its own,
/// named `file/TestX`, whose replay says `--entry TestX`.
pub fn kernel_checks(
    path: &std::path::Path,
    opts: &KernelCheck,
) -> Result<Vec<Scenario>, ScenarioError> {
    let tests = match (&opts.entry, std::fs::read_to_string(path)) {
        (None, Ok(text)) => crate::kernel::default_tests(&path.display().to_string(), &text),
        _ => Vec::new(),
    };
    if tests.len() < 2 {
        return Ok(vec![kernel_check(path, opts)?]);
    }
    tests
        .iter()
        .map(|t| {
            let one = KernelCheck {
                entry: Some(t.clone()),
                ..opts.clone()
            };
            let mut s = kernel_check(path, &one)?;
            s.name = format!("{}/{t}", s.name);
            Ok(s)
        })
        .collect()
}

/// A kernel's error, as an error in the kernel file.
pub(super) fn kernel_error(e: &crate::kernel::KernelError, text: &str) -> ScenarioError {
    let start: usize = text
        .split_inclusive('\n')
        .take(e.line.saturating_sub(1) as usize)
        .map(str::len)
        .sum::<usize>()
        + e.col.saturating_sub(1) as usize;
    let start = start.min(text.len());
    let end = text[start..]
        .find('\n')
        .map_or(text.len(), |i| start + i.max(1));
    ScenarioError {
        path: e.path.clone(),
        line: e.line as usize,
        col: e.col as usize,
        message: e.message.clone(),
        help: e.help.clone(),
        src: Box::new(miette::NamedSource::new(&e.path, text.to_string())),
        span: start..end,
    }
}
