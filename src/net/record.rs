//! What one simulation did, as a report tells it: numbered steps with simulated time,
//! what each pending task waits for, who holds each named lock, and what the network
//! did. Every host of a simulation shares one `Trace` (turmoil runs them on one thread).

use super::plan::{Fault, FaultKind, secs};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

/// One line of the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetStep {
    pub at: Duration,
    pub who: String,
    pub text: String,
}

/// What a pending task waits for.
#[derive(Clone, Debug)]
enum Wait {
    Lock { name: String, mode: &'static str },
    Other(String),
}

#[derive(Clone, Debug)]
struct Holder {
    who: String,
    mode: &'static str,
    since: Duration,
}

/// A broken property, with the wait-for chain at the moment it broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    pub property: String,
    pub message: String,
    pub at: Duration,
    pub chain: Vec<String>,
}

#[derive(Default)]
struct Record {
    clock: Duration,
    steps: Vec<NetStep>,
    /// Pending tasks in the order they started waiting.
    waits: Vec<(String, Wait, Duration)>,
    holders: BTreeMap<String, Vec<Holder>>,
    /// Faults applied so far.
    faults: Vec<Fault>,
    broken: Option<Broken>,
}

/// A handle on one simulation's record; clones share it.
#[derive(Clone, Default)]
pub struct Trace(Rc<RefCell<Record>>);

impl Trace {
    /// The simulated time: the current host's clock inside the simulation, else the
    /// time the engine last set.
    pub fn now(&self) -> Duration {
        turmoil::sim_elapsed().unwrap_or(self.0.borrow().clock)
    }

    pub(crate) fn set_clock(&self, at: Duration) {
        self.0.borrow_mut().clock = at;
    }

    /// A timeline step.
    pub fn step(&self, who: &str, text: impl Into<String>) {
        let at = self.now();
        self.0.borrow_mut().steps.push(NetStep {
            at,
            who: who.to_string(),
            text: text.into(),
        });
    }

    /// `who` now waits for `what` (until `done`).
    pub fn waits(&self, who: &str, what: impl Into<String>) {
        self.set_wait(who, Wait::Other(what.into()));
    }

    pub(crate) fn waits_lock(&self, who: &str, name: &str, mode: &'static str) {
        self.set_wait(
            who,
            Wait::Lock {
                name: name.to_string(),
                mode,
            },
        );
    }

    fn set_wait(&self, who: &str, w: Wait) {
        let now = self.now();
        let mut r = self.0.borrow_mut();
        r.waits.retain(|(x, _, _)| x != who);
        r.waits.push((who.to_string(), w, now));
    }

    /// `who` waits for nothing any more.
    pub fn done(&self, who: &str) {
        self.0.borrow_mut().waits.retain(|(x, _, _)| x != who);
    }

    pub(crate) fn hold(&self, lock: &str, who: &str, mode: &'static str) {
        let since = self.now();
        let mut r = self.0.borrow_mut();
        r.holders.entry(lock.to_string()).or_default().push(Holder {
            who: who.to_string(),
            mode,
            since,
        });
    }

    pub(crate) fn unhold(&self, lock: &str, who: &str) {
        let mut r = self.0.borrow_mut();
        if let Some(h) = r.holders.get_mut(lock)
            && let Some(i) = h.iter().position(|x| x.who == who)
        {
            h.remove(i);
        }
    }

    /// Who holds `lock`, as `client-a's request (write) since 0.012s`.
    pub(crate) fn holders_of(&self, lock: &str) -> String {
        let r = self.0.borrow();
        let hs = r.holders.get(lock).map(Vec::as_slice).unwrap_or(&[]);
        if hs.is_empty() {
            return "nobody (being handed over)".into();
        }
        let v: Vec<String> = hs
            .iter()
            .map(|h| format!("{} ({}) since {}", h.who, h.mode, secs(h.since)))
            .collect();
        v.join(", ")
    }

    pub(crate) fn fault(&self, f: &Fault) {
        let clock = self.0.borrow().clock;
        self.set_clock(f.at.max(clock));
        self.step(
            "network",
            format!(
                "fault: {}",
                f.to_string().split_once(' ').map_or("", |x| x.1)
            ),
        );
        self.0.borrow_mut().faults.push(f.clone());
    }

    /// Whether `host` and `peer` could talk at every moment from `from` to now: `host`
    /// not crashed, the link neither partitioned nor held.
    pub fn reachable(&self, host: &str, peer: &str, from: Duration) -> bool {
        let r = self.0.borrow();
        let (mut down, mut cut, mut held, mut lossy) = (false, false, false, false);
        let link = |f: &Fault| {
            let b = f.b.as_deref().unwrap_or("");
            (f.a == host && b == peer) || (f.a == peer && b == host)
        };
        for f in &r.faults {
            // The state before `f` held from max(from, the previous fault) to f.at.
            if f.at > from && (down || cut || held || lossy) {
                return false;
            }
            match f.kind {
                FaultKind::Crash if f.a == host => down = true,
                FaultKind::Bounce if f.a == host => down = false,
                FaultKind::Partition if link(f) => cut = true,
                FaultKind::Repair if link(f) => cut = false,
                FaultKind::Hold if link(f) => held = true,
                FaultKind::Release if link(f) => held = false,
                FaultKind::Loss(p) if link(f) => lossy = p > 0,
                _ => {}
            }
        }
        !(down || cut || held || lossy)
    }

    /// What the network is doing to `host` now, for the chain.
    fn network_lines(&self) -> Vec<String> {
        let r = self.0.borrow();
        let mut down: BTreeMap<String, Duration> = BTreeMap::new();
        let mut cut: BTreeMap<(String, String, FaultKind), Duration> = BTreeMap::new();
        for f in &r.faults {
            let pair = || {
                let b = f.b.clone().unwrap_or_default();
                if f.a <= b {
                    (f.a.clone(), b)
                } else {
                    (b, f.a.clone())
                }
            };
            match f.kind {
                FaultKind::Crash => {
                    down.entry(f.a.clone()).or_insert(f.at);
                }
                FaultKind::Bounce => {
                    down.remove(&f.a);
                }
                FaultKind::Partition | FaultKind::Hold => {
                    let (x, y) = pair();
                    cut.entry((x, y, f.kind)).or_insert(f.at);
                }
                FaultKind::Repair => {
                    let (x, y) = pair();
                    cut.remove(&(x, y, FaultKind::Partition));
                }
                FaultKind::Release => {
                    let (x, y) = pair();
                    cut.remove(&(x, y, FaultKind::Hold));
                }
                FaultKind::Loss(p) => {
                    let (x, y) = pair();
                    cut.retain(|(a, b, k), _| {
                        !(*a == x && *b == y && matches!(k, FaultKind::Loss(_)))
                    });
                    if p > 0 {
                        cut.insert((x, y, f.kind), f.at);
                    }
                }
            }
        }
        let mut v: Vec<String> = down
            .iter()
            .map(|(h, t)| format!("{h} down since {} (crash)", secs(*t)))
            .collect();
        for ((a, b, k), t) in &cut {
            let what = match k {
                FaultKind::Hold => "held".to_string(),
                FaultKind::Loss(p) => format!("losing messages ({}.{}% of ticks)", p / 10, p % 10),
                _ => "partitioned".to_string(),
            };
            v.push(format!("{a} <-> {b} {what} since {}", secs(*t)));
        }
        v
    }

    /// The wait-for chain now: each pending task and what it waits for, then the
    /// network's state.
    fn chain(&self) -> Vec<String> {
        let waits = self.0.borrow().waits.clone();
        let mut v: Vec<String> = waits
            .iter()
            .map(|(who, w, since)| match w {
                Wait::Lock { name, mode } => format!(
                    "{who} waits since {} for lock {name} ({mode}), held by {}",
                    secs(*since),
                    self.holders_of(name)
                ),
                Wait::Other(what) => format!("{who} waits since {} for {what}", secs(*since)),
            })
            .collect();
        v.extend(
            self.network_lines()
                .into_iter()
                .map(|l| format!("network: {l}")),
        );
        v
    }

    /// Records the first broken property (later ones are consequences).
    pub fn broken(&self, property: &str, message: impl Into<String>) {
        if self.0.borrow().broken.is_some() {
            return;
        }
        let chain = self.chain();
        let at = self.now();
        let message = message.into();
        self.step("harness", format!("{property} broken"));
        self.0.borrow_mut().broken = Some(Broken {
            property: property.to_string(),
            message,
            at,
            chain,
        });
    }

    pub fn is_broken(&self) -> bool {
        self.0.borrow().broken.is_some()
    }

    /// The timeline and the broken property, if any.
    pub fn take(&self) -> (Vec<NetStep>, Option<Broken>) {
        let r = self.0.borrow();
        (r.steps.clone(), r.broken.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::FaultKind::*;

    fn at(ms: u64, kind: FaultKind, a: &str, b: Option<&str>) -> Fault {
        Fault {
            at: Duration::from_millis(ms),
            kind,
            a: a.into(),
            b: b.map(str::to_string),
        }
    }

    #[test]
    fn reachable_means_no_crash_partition_or_hold_from_then_to_now() {
        let t = Trace::default();
        let ms = Duration::from_millis;
        t.fault(&at(0, Partition, "gateway", Some("apiserver-b")));
        // A release undoes a hold, not a partition.
        t.fault(&at(500, Release, "gateway", Some("apiserver-b")));
        assert!(!t.reachable("apiserver-b", "gateway", ms(100)));
        t.fault(&at(900, Repair, "apiserver-b", Some("gateway")));
        // Cut over [100 ms, 900 ms), whole from 900 ms on.
        assert!(!t.reachable("apiserver-b", "gateway", ms(100)));
        assert!(t.reachable("apiserver-b", "gateway", ms(900)));
        t.fault(&at(1000, Crash, "apiserver-a", None));
        assert!(t.reachable("apiserver-b", "gateway", ms(900)));
        assert!(!t.reachable("apiserver-a", "gateway", ms(950)));
        t.fault(&at(2000, Bounce, "apiserver-a", None));
        assert!(t.reachable("apiserver-a", "gateway", ms(2000)));
        assert!(!t.reachable("apiserver-a", "gateway", ms(1500)));
        assert_eq!(t.network_lines(), Vec::<String>::new());
        t.fault(&at(2500, Loss(300), "gateway", Some("apiserver-b")));
        assert!(!t.reachable("apiserver-b", "gateway", ms(2000)));
        t.fault(&at(2600, Loss(0), "gateway", Some("apiserver-b")));
        assert!(t.reachable("apiserver-b", "gateway", ms(2600)));
        t.fault(&at(3000, Hold, "gateway", Some("apiserver-a")));
        assert_eq!(
            t.network_lines(),
            vec!["apiserver-a <-> gateway held since 3.000s".to_string()]
        );
    }
}
