//! Violations and the report a person reads.
//!
//! Reports are pure functions of the scenario, the engine settings and the trace: no
//! times, no addresses, no hash-map order. The same schedule gives the same bytes.

use crate::world::{Fault, Step};
use std::fmt::Write;

/// A named property, as scenario files, reports and tests spell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Property {
    /// Goroutines wait for each other forever (a cycle), or all of them, main too, are asleep.
    Deadlock,
    /// main has returned and some goroutine stays blocked forever (goleak).
    Leak,
    /// Goroutines poll forever: what they read can no longer change (Go hangs, with
    /// no runtime error).
    Livelock,
    /// A Go runtime fault.
    Fault(Fault),
    /// Two accesses to a plain variable, one a write, with no happens-before between them.
    DataRace,
    /// A property the model checks itself (`ordered-delivery`, `no-lost-events`, ...).
    Model(String),
    /// Model code panicked: a bug in the model, not a finding.
    Crash,
    /// An execution ran past the step bound.
    StepBound,
    /// A replay could not follow its schedule.
    Diverged,
}

impl Property {
    /// The name used in `expect` and in reports.
    pub fn key(&self) -> String {
        match self {
            Property::Deadlock => "deadlock".into(),
            Property::Leak => "leak".into(),
            Property::Livelock => "livelock".into(),
            Property::Fault(f) => format!("fault:{}", f.key()),
            Property::DataRace => "data-race".into(),
            Property::Model(p) => format!("violation:{p}"),
            Property::Crash => "crash".into(),
            Property::StepBound => "violation:step-bound".into(),
            Property::Diverged => "diverged".into(),
        }
    }

    /// One line on what the property means.
    pub fn meaning(&self) -> String {
        match self {
            Property::Deadlock => "goroutines wait forever for each other".into(),
            Property::Leak => {
                "a goroutine stays blocked forever after the rest have finished".into()
            }
            Property::Livelock => {
                "a goroutine polls forever: what it reads can no longer change".into()
            }
            Property::Fault(f) => {
                format!("the Go runtime would stop the program: {}", f.go_message())
            }
            Property::DataRace => {
                "two goroutines access a plain variable, one writing, with nothing ordering them (Go's race detector would report it)".into()
            }
            Property::Model(p) => format!("the model's property {p} does not hold"),
            Property::Crash => "the model itself panicked".into(),
            Property::StepBound => "an execution did not finish within the step bound".into(),
            Property::Diverged => "the model no longer follows the recorded schedule".into(),
        }
    }
}

/// A broken property, with what the world saw when it broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub property: Property,
    /// One line: what happened.
    pub message: String,
    /// For a deadlock: one line per goroutine of the wait-for cycle.
    pub cycle: Vec<String>,
    /// Every goroutine left waiting, with what it waits for.
    pub blocked: Vec<String>,
    /// The wait-for graph behind `cycle` and `blocked`, for a deadlock or a leak.
    pub graph: Option<Box<WaitGraph>>,
}

/// A wait-for graph: goroutines and the objects they wait on, in a fixed order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaitGraph {
    /// (id, label, is a goroutine).
    pub nodes: Vec<(String, String, bool)>,
    /// (from, to, label): goroutine → object "waits: ...", object → goroutine
    /// "held by ..." or its peer's role.
    pub edges: Vec<(String, String, String)>,
    /// Goroutine ids on the cycle, if there is one.
    pub cycle: Vec<String>,
}

impl WaitGraph {
    pub(crate) fn node(&mut self, id: String, label: String, goroutine: bool) {
        if !self.nodes.iter().any(|n| n.0 == id) {
            self.nodes.push((id, label, goroutine));
        }
    }

    pub(crate) fn edge(&mut self, from: String, to: String, label: String) {
        let e = (from, to, label);
        if !self.edges.contains(&e) {
            self.edges.push(e);
        }
    }

    /// Graphviz DOT: goroutines as boxes (bold on the cycle), objects as ellipses,
    /// edges labelled with the mode and the holder's function. Deterministic bytes.
    pub fn dot(&self, title: &str) -> String {
        let q = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut o = String::new();
        let _ = writeln!(o, "digraph \"{}\" {{", q(title));
        let _ = writeln!(o, "  rankdir=LR;");
        let _ = writeln!(o, "  node [fontname=\"monospace\"];");
        let _ = writeln!(o, "  edge [fontname=\"monospace\", fontsize=10];");
        for (id, label, g) in &self.nodes {
            let style = match (g, self.cycle.contains(id)) {
                (true, true) => "shape=box, style=bold, color=red",
                (true, false) => "shape=box",
                (false, _) => "shape=ellipse",
            };
            let _ = writeln!(o, "  \"{id}\" [{style}, label=\"{}\"];", q(label));
        }
        for (a, b, label) in &self.edges {
            let _ = writeln!(o, "  \"{a}\" -> \"{b}\" [label=\"{}\"];", q(label));
        }
        o.push_str("}\n");
        o
    }
}

impl Violation {
    pub(crate) fn new(property: Property, message: String) -> Violation {
        Violation {
            property,
            message,
            cycle: Vec::new(),
            blocked: Vec::new(),
            graph: None,
        }
    }

    pub(crate) fn fault(f: Fault, who: &str) -> Violation {
        Violation::new(Property::Fault(f), format!("{who}: {}", f.go_message()))
    }
}

/// Everything a report says besides the violation and trace.
pub struct Header {
    pub scenario: String,
    pub path: String,
    pub model: String,
    pub variant: String,
    /// The engine with every setting, and the execution that failed.
    pub engine: String,
    /// Every parameter, defaults included, `name=value`.
    pub params: Vec<String>,
    pub bounds: String,
}

/// The lines every report starts with: what was found, the header (with the fault plan
/// of a network run), and the broken property.
fn head(o: &mut String, h: &Header, faults: Option<&str>, v: &Violation) {
    let _ = writeln!(o, "stalemate: {} found", v.property.key());
    let _ = writeln!(o, "scenario   {} ({})", h.scenario, h.path);
    let _ = writeln!(o, "model      {}, variant {}", h.model, h.variant);
    let _ = writeln!(o, "engine     {}", h.engine);
    if let Some(f) = faults {
        let _ = writeln!(o, "faults     {f}");
    }
    let params = if h.params.is_empty() {
        "none".into()
    } else {
        h.params.join(" ")
    };
    let _ = writeln!(o, "params     {params}");
    let _ = writeln!(o, "bounds     {}", h.bounds);
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "property   {}: {}",
        v.property.key(),
        v.property.meaning()
    );
    let _ = writeln!(o, "           {}", v.message);
}

/// A titled, indented section; nothing when there are no lines.
fn section(o: &mut String, title: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(o);
    let _ = writeln!(o, "{title}");
    for l in lines {
        let _ = writeln!(o, "  {l}");
    }
}

/// The step lines, then the replay command as the report's last line.
fn tail(o: &mut String, steps: impl Iterator<Item = String>, replay: &str) {
    let _ = writeln!(o);
    let _ = writeln!(o, "steps");
    for (i, s) in steps.enumerate() {
        let line = format!("{:>5}  {s}", i + 1);
        let _ = writeln!(o, "{}", line.trim_end());
    }
    let _ = writeln!(o);
    let _ = writeln!(o, "replay");
    let _ = write!(o, "  {replay}");
}

/// Renders the report. Its last line is the command that replays it.
pub(crate) fn render(
    h: &Header,
    v: &Violation,
    steps: &[Step],
    names: &[String],
    replay: &str,
) -> String {
    let mut o = String::new();
    head(&mut o, h, None, v);
    section(&mut o, "wait-for cycle", &v.cycle);
    section(&mut o, "blocked goroutines", &v.blocked);
    let wn = steps.iter().map(|s| names[s.gid].len()).max().unwrap_or(0);
    let wf = steps.iter().map(|s| s.func.len()).max().unwrap_or(0);
    // Virtual time mode: each step's virtual time, as its own column.
    let at = |s: &Step| {
        s.at.map_or(String::new(), |t| {
            let t = if t.is_zero() {
                "0s".into()
            } else {
                format!("{t:?}")
            };
            format!("{t:>8}  ")
        })
    };
    let lines = steps.iter().map(|s| {
        format!(
            "{}{:<wn$}  {:<wf$}  {}",
            at(s),
            names[s.gid],
            s.func,
            s.text
        )
    });
    tail(&mut o, lines, replay);
    o
}

/// Renders a network report: the header with the seed's fault plan, the property,
/// the wait-for chain across locks and the network when it broke, the timeline with
/// simulated times, and last the replay command.
pub(crate) fn render_net(
    h: &Header,
    plan: &str,
    v: &Violation,
    at: std::time::Duration,
    chain: &[String],
    steps: &[crate::net::NetStep],
    replay: &str,
) -> String {
    let mut o = String::new();
    head(&mut o, h, Some(plan), v);
    let title = format!("wait-for chain at {}", crate::net::secs(at));
    section(&mut o, &title, chain);
    let wn = steps.iter().map(|s| s.who.len()).max().unwrap_or(0);
    let lines = steps
        .iter()
        .map(|s| format!("{:>8}  {:<wn$}  {}", crate::net::secs(s.at), s.who, s.text));
    tail(&mut o, lines, replay);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Property;
    use std::time::Duration;

    #[test]
    fn virtual_time_is_a_column_of_the_steps() {
        let h = Header {
            scenario: "s".into(),
            path: "s.toml".into(),
            model: "m".into(),
            variant: "v".into(),
            engine: "e".into(),
            params: Vec::new(),
            bounds: "b".into(),
        };
        let v = Violation::new(Property::Deadlock, "stuck".into());
        let step = |gid, text: &str, at| Step {
            gid,
            case: None,
            func: "",
            text: text.into(),
            at,
        };
        let steps = [
            step(0, "sleep 1s: until 1s", Some(Duration::ZERO)),
            step(0, "sleep 1s: wakes", Some(Duration::from_secs(1))),
        ];
        let r = render(&h, &v, &steps, &["main".into()], "replay");
        assert!(
            r.contains("    1        0s  main    sleep 1s: until 1s"),
            "{r}"
        );
        assert!(
            r.contains("    2        1s  main    sleep 1s: wakes"),
            "{r}"
        );
        // Without virtual time there is no column.
        let plain = [step(0, "lock mu", None)];
        let r = render(&h, &v, &plain, &["main".into()], "replay");
        assert!(r.contains("    1  main    lock mu"), "{r}");
    }
}
