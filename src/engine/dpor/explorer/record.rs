//! The trace of each execution counted on this thread, when asked (`start`): to check
//! on a real model that no two executions are one trace, and that dpor reaches the
//! traces a search with every level expanded reaches (`explore::traces`).

use super::{Access, Accesses, Event, Level, Tid, conflict};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};

/// Executions counted, and their traces by a 128-bit hash of each one's least
/// linearisation under the explorer's dependence (two traces share a hash with
/// odds of about 2^-128 per pair).
#[derive(Default)]
pub(crate) struct Traces {
    pub(crate) counted: u64,
    /// Executions that ran to their end.
    pub(crate) distinct: BTreeSet<u128>,
    /// Executions stopped at a violation, as far as they ran.
    pub(crate) stopped: BTreeSet<u128>,
    /// Wakeup sequences that asked for a step kept back where it was to run.
    pub(crate) held: u64,
}

std::thread_local! {
    static ON: RefCell<Option<Traces>> = const { RefCell::new(None) };
}

/// Records the executions counted on this thread from now on.
pub(crate) fn start() {
    ON.with(|o| *o.borrow_mut() = Some(Traces::default()));
}

/// What was recorded since `start`; recording stops.
pub(crate) fn take() -> Option<Traces> {
    ON.with(|o| o.borrow_mut().take())
}

/// Whether this thread records: the hand-off rule is off then (`Mode::Hand`).
pub(crate) fn on() -> bool {
    ON.with(|o| o.borrow().is_some())
}

/// A wakeup sequence asked for a step the world keeps back where it was to run.
pub(super) fn held() {
    ON.with(|o| {
        if let Some(t) = o.borrow_mut().as_mut() {
            t.held += 1;
        }
    });
}

pub(super) fn trace(levels: &[Level], stopped: bool) {
    ON.with(|o| {
        if let Some(t) = o.borrow_mut().as_mut() {
            let evs: Vec<&Event> = levels
                .iter()
                .map(|l| l.ev.as_ref().expect("an executed level has its event"))
                .collect();
            t.counted += 1;
            let set = if stopped {
                &mut t.stopped
            } else {
                &mut t.distinct
            };
            set.insert(name(&evs));
        }
    });
}

/// The trace's least linearisation (Kahn's order over the dependence graph, the
/// lowest goroutine id first among the ready events: one goroutine's events are a
/// chain, so the choice is unique), each event with its choices and accesses,
/// hashed twice with different seeds (the std hasher's keys are fixed).
fn name(evs: &[&Event]) -> u128 {
    // A step that touches nothing shared but its wake-up (a woken goroutine taking
    // its result, main ending its wait for the others) is no behaviour: whether
    // main waits at its end, and which goroutine's last step wakes it, depends on
    // the order of steps that commute. Two executions that differ only there are
    // one trace to the explorer's races, so the name leaves such steps out, and
    // wake-ups.
    let evs: Vec<&Event> = evs
        .iter()
        .copied()
        .filter(|e| !e.choices.is_empty() || e.accesses.iter().any(|a| a.1 != Access::Wake))
        .collect();
    let evs = &evs[..];
    let own: Vec<Accesses> = evs
        .iter()
        .map(|e| {
            e.accesses
                .iter()
                .filter(|a| a.1 != Access::Wake)
                .copied()
                .collect()
        })
        .collect();
    let n = evs.len();
    let mut preds = vec![0usize; n];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 0..n {
        for i in 0..j {
            if evs[i].tid == evs[j].tid || conflict(&own[i], &own[j]) {
                preds[j] += 1;
                succ[i].push(j);
            }
        }
    }
    let mut ready: BTreeSet<(Tid, usize)> = (0..n)
        .filter(|&j| preds[j] == 0)
        .map(|j| (evs[j].tid, j))
        .collect();
    let mut h = [
        std::collections::hash_map::DefaultHasher::new(),
        std::collections::hash_map::DefaultHasher::new(),
    ];
    h[1].write_u64(0x9e37_79b9_7f4a_7c15);
    while let Some((_, j)) = ready.pop_first() {
        let e = evs[j];
        for h in &mut h {
            (e.tid, &e.choices, &own[j][..]).hash(h);
        }
        for &k in &succ[j] {
            preds[k] -= 1;
            if preds[k] == 0 {
                ready.insert((evs[k].tid, k));
            }
        }
    }
    (h[0].finish() as u128) << 64 | h[1].finish() as u128
}
