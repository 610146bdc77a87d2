//! The vocabulary of verdicts: the properties a run can break, a violation with what the
//! world saw, the wait-for graph, and Go's runtime faults. The world produces them and the
//! report renders them; both import this module, which imports neither.

use std::fmt::Write;

/// A named property, as scenario files, reports and tests spell it.
///
/// ```
/// use stalemate::verdict::Property;
/// use stalemate::Fault;
/// assert_eq!(Property::Deadlock.key(), "deadlock");
/// let closed = Property::Fault(Fault::CloseOfClosedChannel);
/// assert_eq!(closed.key(), "fault:close-of-closed-channel");
/// assert!(closed.meaning().ends_with("panic: close of closed channel"));
/// ```
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
    ///
    /// ```
    /// let mut g = stalemate::verdict::WaitGraph::default();
    /// g.nodes.push(("g1".into(), "worker".into(), true));
    /// g.nodes.push(("o1".into(), "mutex mu".into(), false));
    /// g.edges.push(("g1".into(), "o1".into(), "waits: Lock".into()));
    /// let dot = g.dot("example");
    /// assert!(dot.starts_with("digraph \"example\" {"));
    /// assert!(dot.contains("\"g1\" -> \"o1\" [label=\"waits: Lock\"];"));
    /// ```
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

/// Go runtime faults the harness reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    UnlockOfUnlockedMutex,
    UnlockOfUnlockedRwMutex,
    RUnlockOfUnlockedRwMutex,
    SendOnClosedChannel,
    CloseOfClosedChannel,
    CloseOfNilChannel,
    NegativeWaitGroupCounter,
}

impl Fault {
    pub const ALL: [Fault; 7] = [
        Fault::UnlockOfUnlockedMutex,
        Fault::UnlockOfUnlockedRwMutex,
        Fault::RUnlockOfUnlockedRwMutex,
        Fault::SendOnClosedChannel,
        Fault::CloseOfClosedChannel,
        Fault::CloseOfNilChannel,
        Fault::NegativeWaitGroupCounter,
    ];

    /// The name used in scenario files: `fault:<key>`.
    pub fn key(self) -> &'static str {
        match self {
            Fault::UnlockOfUnlockedMutex => "unlock-of-unlocked-mutex",
            Fault::UnlockOfUnlockedRwMutex => "unlock-of-unlocked-rwmutex",
            Fault::RUnlockOfUnlockedRwMutex => "runlock-of-unlocked-rwmutex",
            Fault::SendOnClosedChannel => "send-on-closed-channel",
            Fault::CloseOfClosedChannel => "close-of-closed-channel",
            Fault::CloseOfNilChannel => "close-of-nil-channel",
            Fault::NegativeWaitGroupCounter => "negative-waitgroup-counter",
        }
    }

    /// What Go's runtime prints.
    pub fn go_message(self) -> &'static str {
        match self {
            Fault::UnlockOfUnlockedMutex => "fatal error: sync: unlock of unlocked mutex",
            Fault::UnlockOfUnlockedRwMutex => "fatal error: sync: Unlock of unlocked RWMutex",
            Fault::RUnlockOfUnlockedRwMutex => "fatal error: sync: RUnlock of unlocked RWMutex",
            Fault::SendOnClosedChannel => "panic: send on closed channel",
            Fault::CloseOfClosedChannel => "panic: close of closed channel",
            Fault::CloseOfNilChannel => "panic: close of nil channel",
            Fault::NegativeWaitGroupCounter => "panic: sync: negative WaitGroup counter",
        }
    }
}
