//! Optimal DPOR core (Abdulla, Aronis, Jonsson, Sagonas: source sets, wakeup trees,
//! sleep sets), as a scheduler oracle driven by an external runtime.
//!
//! The core never runs code: the runtime reports at every scheduling point which
//! threads are enabled (and, for soundness with blocking, which are blocked and on
//! what), and the core answers which thread runs. This file holds the exploration
//! loop (a level per step, `begin`, `schedule`, `choose`, `end`); its children hold
//! one concept each, and docs/dpor.md describes the whole.

mod deps;
mod give;
mod late;
mod race;
pub(crate) mod record;
mod sleep;
#[cfg(test)]
mod tests;
mod wakeup;

use deps::*;
use late::{Late, Put};
use sleep::*;
use wakeup::*;

pub type Tid = u64;
pub type Obj = u64;

/// What a step touches, and how: one to three objects nearly always, kept inline so
/// that copying a step's description (at every scheduling point) allocates nothing.
pub type Accesses = smallvec::SmallVec<[(Obj, Access); 3]>;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Access {
    /// Reads the object.
    Read,
    /// Changes the object in a way that commutes with every other `Add` to it, and that
    /// nobody reads but an `Acquire` (a `WaitGroup.Done`: a decrement that returns
    /// nothing; a `Wait`'s attempt above zero, which registers a waiter). Counts as a
    /// write against everything else. Like a Release, an Add -> Acquire edge is never
    /// reversed: the Acquire could not go first.
    Add,
    /// Modifies the object.
    Write,
    /// Takes the object (mutex lock, semaphore down, a child's first step on its
    /// thread object): may block until the object is released.  Counts as a write.
    Acquire,
    /// Releases the object (mutex unlock, spawning a child): may unblock an Acquire.
    /// Counts as a write.  A Release -> Acquire edge is never reversed; the Acquire
    /// races instead with the Acquire that the Release ended.
    Release,
    /// Orders a step after the step that woke its goroutine (both name the woken
    /// goroutine's wake object). Counts as a write; unlike a Release -> Acquire edge,
    /// the woken step then races, as any step of a goroutine that was blocked, with
    /// what it waited on (the enabler rule in `analyze`).
    Wake,
    /// Takes a woken select off each channel it waited on (`World::withdrawn`), by the
    /// step that completed it. Counts as a write; it is the select's wait undone, not
    /// the step's own use, so a taker never reversed with that wait does not race
    /// through it with what came before the wait (`analyze`).
    Withdraw,
    /// A `Withdraw` of a select's receive case at an open done channel: commutes with
    /// every `Add` and `Leave` of it. Only a close meets that line (a send on a done
    /// channel panics) and it wakes the whole line, so the order in which goroutines
    /// join and leave it is no one's to see; it is the same set either way. Against
    /// everything else (a close, a try, a receive that finds it closed) a write.
    Leave,
    /// Joins a line of goroutines waiting at an unbuffered channel (`line`): commutes
    /// with the other joins of that line in the race analysis, which races two joins
    /// itself where a later step takes from the line, the first joiner's place
    /// (`analyze`). Counts as a write against everything else, and against other
    /// joins in sleep sets and wakeup trees (`conflict_strict`): a goroutine asleep
    /// with its join is no cover for a join that a later step tells apart.
    Join,
    /// Closes a channel (`Mode::Close`): counts as a write, but in the race analysis
    /// commutes with a receive's join at it (an `Add` of the channel by a step that
    /// joins its receive line). A receive that waited there is woken with the zero
    /// value and syncs with the close, as one that came after the close gets the zero
    /// value and syncs with it; which of them waited no goroutine can tell. Strict in
    /// sleep sets and wakeup trees, as joins are.
    Close,
    /// Names the wake-up that will end a join's wait (the object its waker and its
    /// next step will name, `Wake`): conflicts with nothing. A close commutes with a
    /// join only where it names that object, for only a close that wakes the joiner
    /// completes it as it would have completed a late arrival (`deps::closes_on`).
    Tag,
    /// Marks a select with no default that found its channel closed (the receive
    /// line of that channel): conflicts with nothing. The race analysis reads it to
    /// treat the select as one that came late to a close (`late.rs`).
    Late,
    /// Marks a half at a buffered channel (the channel): a select's wait to receive
    /// there, or a send that took such a wait's place. Conflicts with nothing. The
    /// send goes on, where at an unbuffered channel it would have waited for the
    /// select, so its later steps may come before the select in the other order of
    /// the two halves (`late::Put`).
    Buffer,
}

/// What a thread will do at its next step, known before it is scheduled.
/// `accesses` empty: touches nothing shared (independent of every other thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Next {
    pub tid: Tid,
    pub accesses: Accesses,
    /// A blocked thread's step is a retry: its last step blocked it, and nothing has
    /// woken it since (else it is held back from a step it has not tried).
    pub parked: bool,
}

impl Next {
    pub fn new(tid: Tid, accesses: Accesses) -> Self {
        Next {
            tid,
            accesses,
            parked: false,
        }
    }

    /// The step as a label: its goroutine and accesses, no choice made yet.
    fn label(&self) -> Event {
        Event {
            tid: self.tid,
            accesses: self.accesses.clone(),
            choices: vec![],
            complete: false,
        }
    }
}

/// Object id a runtime may use to express thread creation: the spawning step
/// does `Release` on `thread_obj(child)`, the child's first step `Acquire`s it.
pub fn thread_obj(t: Tid) -> Obj {
    (1u64 << 63) | t
}

/// The line of goroutines waiting to send (`send`) or receive at unbuffered channel
/// `o`, an object of its own: a wait joins its side's line and reads the other's
/// (`dpor::hand_into`), which the race analysis knows a wait by.
pub fn line(o: Obj, send: bool) -> Obj {
    mix(o ^ if send {
        0x6c69_6e65_7300
    } else {
        0x6c69_6e65_7200
    }) >> 1
}

/// splitmix64's finaliser.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Pseudo object of a sleep-set entry for a step that stopped the execution: it
/// disabled every other thread, so it is dependent with every step.
/// An object every access conflicts with.
pub const ANY: Obj = u64::MAX - 1;

/// The virtual clock's advance, when every goroutine is blocked: a step of no
/// goroutine's (goroutines' ids stay below 2^63), which touches `ANY`. Nothing can run
/// before it that ran after it, nor the other way round (it happens only when all are
/// blocked, and it alone wakes them), so no race with it is reversed.
pub const CLOCK: Tid = u64::MAX;

/// One executed (or wakeup-sequence) event: a step of `tid` with its access set and
/// the values of the choices made during it.  `complete == false` means only a
/// prefix of the choice values is known (pending steps, fresh alternatives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub tid: Tid,
    pub accesses: Accesses,
    pub choices: Vec<u32>,
    pub complete: bool,
}

/// One execution's events by signature bit and by goroutine, as bit sets over their
/// positions: the events that may be dependent with a step, without testing each.
/// Kept by the explorer between analyses, for its room.
#[derive(Default)]
struct Index {
    words: usize,
    /// Per signature bit, the events whose signature has it (`words` words each).
    bits: Vec<u64>,
    /// Per goroutine, its events.
    tids: Vec<(Tid, Vec<u64>)>,
}

/// A node of a wakeup tree: the event it stands for, and its ordered children.
///
/// A wakeup sequence is a chain as long as the execution it came from (thousands of
/// events when one is cut at its step bound): every walk over nodes (drop, clone,
/// compare, insert) is a loop, never a recursion that the chain's length could
/// overflow the stack with.
struct WuNode {
    ev: Event,
    children: Vec<WuNode>,
}

/// The DFS state at one node of the exploration tree (after `k` events).
#[derive(Clone, Debug, Default, PartialEq)]
struct Level {
    enabled: Vec<Next>,
    blocked: Vec<Next>,
    /// Sleep set: threads whose next step (with these accesses) need not be explored here.
    /// The third component is None when every choice alternative of that step was
    /// explored here, else the choice vectors that were (the others were skipped).
    sleep: Vec<SleepEntry>,
    /// Wakeup tree below this node, minus the child being explored (ordered).
    pending: Vec<WuNode>,
    /// The child being explored (label, possibly with forced choice prefix).
    cur: Option<Event>,
    /// The event actually executed for `cur` (full choice vector).
    ev: Option<Event>,
    /// Wakeup subtree below `cur`, handed to the next level when it is created.
    carry: Vec<WuNode>,
    /// (tid, choice vector) of children explored here or owned by another explorer;
    /// used to generate each choice alternative exactly once.
    covered: Vec<(Tid, Vec<u32>)>,
    /// Every enabled thread is (or was) a branch here: race insertions are not needed.
    expanded: bool,
    /// Decision points above this level (levels with two branches or more).
    dec: u32,
    /// This level, expanded, had two branches or more.
    decision: bool,
    /// Threads whose step here stopped an execution (runtime `stop`).
    stoppers: Vec<Tid>,
    /// Threads some of whose choice alternatives were skipped here.
    partial: Vec<Tid>,
    /// Per thread, the union of the accesses of its events explored here: the
    /// footprint it sleeps with once every branch of it is explored (`sleep::advance`).
    /// A step's choices differ in what they touch (a select's case that completes a
    /// waiting select withdraws it from that one's other channels), and a thread
    /// asleep with its last choice's alone was not woken by a step that conflicts
    /// with an earlier one's.
    foot: Vec<(Tid, Accesses)>,
}

type SleepEntry = (Tid, Accesses, Option<Vec<Vec<u32>>>);

/// Whether label `label` makes event `ev`, a step whose choices had `arity` cases
/// each: its goroutine's, its values clamped to those cases (values past the step's
/// choices were never asked for). Such a sibling would run the branch again.
fn makes(label: &Event, ev: &Event, arity: &[u32]) -> bool {
    let n = arity.len();
    label.tid == ev.tid
        && label.choices.len() >= n
        && ev.choices.len() >= n
        && (0..n).all(|k| label.choices[k].min(arity[k] - 1) == ev.choices[k])
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// `begin()` calls that returned true.
    pub executions: u64,
    /// Executions that reached a terminal state, or were stopped by the runtime.
    pub complete: u64,
    /// Executions cut short because every enabled thread was in the sleep set (redundant).
    pub sleep_blocked: u64,
    /// Executions abandoned (a unit that is not this explorer's, or runtime
    /// nondeterminism).
    pub abandoned: u64,
    /// Wakeup-sequence heads found not enabled at replay (one kept back ends its
    /// sequence, its subtree going back to the level; any other expands the level).
    pub infeasible: u64,
    /// Steps whose run made a pending sibling's event, which was merged into it.
    pub merged: u64,
    /// Races pushed for insertion (reversible ones; a race of a shared prefix only
    /// where it is inserted again) and wakeup insertions that changed a tree.
    pub races: u64,
    pub insertions: u64,
    /// Replayed prefix diverged from what was recorded (runtime nondeterminism).
    pub nondeterminism: u64,
    /// Deepest stack seen.
    pub max_depth: usize,
    /// Choice alternatives not scheduled because a sleeping thread covers them.
    pub choice_skips: u64,
    /// Units of the split met (`Explorer::split`), this explorer's or not.
    pub units: u64,
    /// Executions whose trace is another unit's (`owned`).
    pub unowned: u64,
    /// Subtrees given away (`Explorer::give`), taken back, and given away in vain (the
    /// level changed before it took the branch, or the result was not wanted).
    pub gave: u64,
    pub adopted: u64,
    pub redone: u64,
}

/// What a split exploration's unit is to one explorer (`Units::claim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Its to explore.
    Mine,
    /// Another explorer's (another thread's, or another shard's).
    Other,
    /// Neither this unit nor any after it is wanted (a unit before it has a violation).
    Past,
}

/// Which units of a split exploration an explorer explores. Units are numbered in
/// the order of the tree's depth-first traversal, the same in every explorer of it.
pub trait Units: Send {
    fn claim(&mut self, unit: u64) -> Claim;
    /// Whether the unit being explored is still wanted.
    fn wanted(&self, unit: u64) -> bool;
}

/// What an explorer asks of whoever runs the subtrees it gives away (`Explorer::give`):
/// the driver of one exploration on several threads.
pub trait Helpers: Send {
    /// Another explorer would take a subtree now.
    fn hungry(&self) -> bool;
    /// Hands a subtree's explorer to another thread; returns its number.
    fn give(&mut self, unit: Explorer) -> u64;
    /// The subtree's result, taken out, once it has finished.
    fn take(&mut self, id: u64) -> Option<Done>;
    /// The subtree will not be wanted.
    fn cancel(&mut self, id: u64);
    /// Whether this explorer's own work is still wanted.
    fn wanted(&self) -> bool;
}

/// A subtree given away, as its giver will meet it: the level's state once its
/// current branch is done and the next one taken. The subtree's exploration depends
/// on nothing else of the giver's (its path's events aside), unless it reads more of
/// the level (`Done::full`).
#[derive(Debug)]
struct Given {
    id: u64,
    snap: Level,
}

/// What exploring a given subtree did that its giver would have done itself.
#[derive(Debug, Default)]
pub struct Done {
    /// The branch's event as executed at the subtree's level.
    ev: Option<Event>,
    stoppers: Vec<Tid>,
    /// Wakeup insertions at the subtree's level and above, in their order.
    ops: Vec<(usize, Vec<Event>, Cover)>,
    /// The level as the subtree left it, when the subtree read more of it than its
    /// sleep set and branch (a choice made afresh there, a fallback): the result then
    /// holds only where the giver's level is the very one it was given.
    full: Option<Level>,
    clean: usize,
    pub stats: Stats,
    /// The subtree stopped early, after `at` of its executions, for the driver's
    /// reason `tag` (a violation, a budget, an error), and the driver's note on it.
    pub halt: Option<(u64, u64)>,
    pub note: Option<String>,
}

/// Where `begin` stands with a given subtree it has reached.
enum Collect {
    /// Not finished yet: this explorer waits.
    Wait,
    /// It stopped the exploration (`Explorer::halted`).
    Halt,
    /// Not valid here: the branch is explored here.
    Explore,
    /// Its result is taken in; go on backtracking.
    Adopted,
}

pub struct Explorer {
    stack: Vec<Level>,
    /// Events executed so far in the current execution.
    pos: usize,
    /// choose() calls so far in the current step, and how many values are forced.
    nchoice: usize,
    /// How many cases each of the current step's choices had (a first run's).
    arity: Vec<u32>,
    forced_len: usize,
    replaying_step: bool,
    started: bool,
    in_exec: bool,
    abandoned: bool,
    sleep_blocked: bool,
    /// The execution being concluded stopped at a data race (`stop_after_race`).
    race_stop: bool,
    /// Levels above the `split`-th decision point are expanded (see `split`).
    split: u32,
    units: Option<Box<dyn Units>>,
    next_unit: u64,
    /// The unit the current path is in, and the level it starts at.
    unit: Option<(u64, usize)>,
    /// Executions of that unit so far.
    unit_runs: u64,
    /// The goroutines asleep where the unit starts: its executions where one of them
    /// could go first are another unit's traces (`owned`).
    unit_sleep: Vec<SleepEntry>,
    /// This execution's unit and its number within it, if it is this explorer's.
    counted: Option<(u64, u64)>,
    /// This execution has met its unit (its start, or its end before one).
    met: bool,
    /// The runtime has said the execution's steps are over (`settle`).
    settled: bool,
    /// No unit from here on is this explorer's.
    done: bool,
    /// Levels below this one hold the same events as in the last execution that was
    /// analysed (a given subtree's result holds only where this is its root's level).
    clean: usize,
    /// Each event's happens-before predecessors (a bit per earlier level), valid for
    /// the first `hb_ok` levels: an event's row depends only on the events before it.
    hb: Vec<Vec<u64>>,
    hb_ok: usize,
    /// Per event valid as `hb` is, the levels its races' reversals were pushed for
    /// (`analyze`).
    found: Vec<Vec<usize>>,
    /// Levels cut off the stack, emptied, for new levels to reuse their vectors.
    spare: Vec<Level>,
    /// `analyze`'s index of the execution's events, kept for its room.
    index: Index,
    pub stats: Stats,
    /// This explorer explores the subtree of the branch taken at this level, and stops
    /// when that level would take its next branch (`Explorer::give`).
    root: Option<usize>,
    helpers: Option<Box<dyn Helpers>>,
    /// Per level, the next branch given away.
    given: Vec<Option<Given>>,
    /// The given subtree `begin` waits for, at its level.
    waiting: Option<(usize, Given)>,
    /// A given subtree's result that stopped the exploration.
    pub halted: Option<Done>,
    /// Insertions at the root level and above (a given subtree's, for its giver).
    ops: Vec<(usize, Vec<Event>, Cover)>,
    /// Per level, the index in `ops` of the last insertion recorded there.
    last_op: Vec<Option<usize>>,
    /// The root level was read beyond its sleep set and branch (`Done::full`).
    full: bool,
    /// The subtree is explored.
    pub over: bool,
}

impl Default for Explorer {
    fn default() -> Self {
        Self::new()
    }
}

impl Explorer {
    pub fn new() -> Self {
        Explorer {
            stack: Vec::new(),
            pos: 0,
            nchoice: 0,
            arity: Vec::new(),
            forced_len: 0,
            replaying_step: false,
            started: false,
            in_exec: false,
            abandoned: false,
            sleep_blocked: false,
            race_stop: false,
            split: 0,
            units: None,
            next_unit: 0,
            unit: None,
            unit_runs: 0,
            unit_sleep: Vec::new(),
            counted: None,
            met: false,
            settled: false,
            clean: 0,
            hb: Vec::new(),
            hb_ok: 0,
            found: Vec::new(),
            spare: Vec::new(),
            index: Index::default(),
            done: false,
            stats: Stats::default(),
            root: None,
            helpers: None,
            given: Vec::new(),
            waiting: None,
            halted: None,
            ops: Vec::new(),
            last_op: Vec::new(),
            full: false,
            over: false,
        }
    }

    /// An explorer of a tree cut into units, for one proof on several threads or
    /// machines. The levels above the `depth`-th decision point of each path are
    /// expanded: every enabled thread is a branch there, each with the ones before it
    /// asleep, and no race needs to add one. That is sound with sleep sets alone
    /// (every trace has a first thread among the enabled; the earlier branches cover
    /// the traces any of them begins), and it makes what happens below a level depend
    /// on nothing explored beside it. So a unit, the subtree at the `depth`-th decision
    /// point (or an execution that ends before one), is explored the same whoever
    /// explores it, and `units` says which are this explorer's. Every explorer walks
    /// the expanded levels itself, running each unit it leaves to others up to its
    /// start only.
    pub fn split(depth: u32, units: Option<Box<dyn Units>>) -> Self {
        let mut e = Self::new();
        e.split = depth;
        e.units = units;
        e
    }

    /// The current execution's unit and its number within the unit (from 1), if it
    /// is this explorer's; known once the execution has met its unit or `settle`d.
    pub fn counted(&self) -> Option<(u64, u64)> {
        self.counted
    }

    /// The runtime's steps of this execution are over (what runs after only returns):
    /// an execution that ended above every unit is a unit of its own.
    pub fn settle(&mut self) {
        if !self.in_exec || self.settled {
            return;
        }
        self.settled = true;
        if !self.met && !self.abandoned {
            self.met = true;
            self.enter(self.pos);
        }
    }

    /// A unit starts at level `at`: numbers it and asks whose it is.
    fn enter(&mut self, at: usize) -> bool {
        let u = self.next_unit;
        self.next_unit += 1;
        self.stats.units += 1;
        let claim = match self.units.as_mut() {
            None => Claim::Mine,
            Some(x) => x.claim(u),
        };
        match claim {
            Claim::Mine => {
                self.unit = Some((u, at));
                self.unit_sleep.clear();
                self.unit_runs = 1;
                self.counted = Some((u, 1));
                true
            }
            Claim::Other => false,
            Claim::Past => {
                self.done = true;
                false
            }
        }
    }

    /// Starts the next execution; false when the whole tree is explored.
    pub fn begin(&mut self) -> bool {
        assert!(
            !self.in_exec,
            "begin() inside an execution: call end() first"
        );
        if self.done {
            return false;
        }
        if !self.started {
            self.started = true;
            return self.start_exec();
        }
        if let (Some((u, _)), Some(x)) = (self.unit, self.units.as_ref())
            && !x.wanted(u)
        {
            self.done = true;
            return false;
        }
        if self.helpers.as_ref().is_some_and(|h| !h.wanted()) {
            self.done = true;
            self.waiting = None;
            return false;
        }
        if let Some((li, g)) = self.waiting.take() {
            match self.collect(li, g) {
                Collect::Wait | Collect::Halt => return false,
                Collect::Explore => return self.start_exec(),
                Collect::Adopted => {}
            }
        }
        if self.helpers.as_ref().is_some_and(|h| h.hungry()) {
            self.give();
        }
        loop {
            let li = match self.stack.len() {
                0 => return false,
                n => n - 1,
            };
            if self.root == Some(li) {
                self.over = true;
                return false;
            }
            if advance(&mut self.stack[li]) {
                if let Some(g) = self.given.get_mut(li).and_then(Option::take) {
                    let now = &self.stack[li];
                    let holds = self.clean >= li
                        && (g.snap.sleep == now.sleep
                            && g.snap.cur == now.cur
                            && g.snap.carry == now.carry);
                    if !holds {
                        self.stats.redone += 1;
                        self.cancel(g.id);
                        return self.start_exec();
                    }
                    match self.collect(li, g) {
                        Collect::Wait | Collect::Halt => return false,
                        Collect::Explore => return self.start_exec(),
                        Collect::Adopted => continue,
                    }
                }
                return self.start_exec();
            }
            self.drop_given(li);
            self.shorten(li);
        }
    }

    fn start_exec(&mut self) -> bool {
        // Backtracking above a unit's first level leaves the unit.
        let depth = self.stack.len();
        // The levels above the one that takes a new branch replay the last execution.
        let fresh = depth.saturating_sub(1);
        self.clean = self.clean.min(fresh);
        self.hb_ok = self.hb_ok.min(fresh);
        if self.unit.is_some_and(|(_, at)| at >= depth) {
            self.unit = None;
        }
        self.counted = None;
        self.met = false;
        if let Some((u, _)) = self.unit {
            self.unit_runs += 1;
            self.counted = Some((u, self.unit_runs));
            self.met = true;
        }
        self.settled = false;
        self.pos = 0;
        self.in_exec = true;
        self.abandoned = false;
        self.sleep_blocked = false;
        self.stats.executions += 1;
        true
    }

    /// At a scheduling point: `enabled` lists every thread that can take a step now
    /// with its next step; `blocked` lists live threads that cannot, with the step they
    /// are blocked on (needed for soundness when steps can block; may be empty if the
    /// program never blocks).  Returns the thread to run, or None when the execution
    /// must end here (nothing enabled, or the rest is redundant); then call `end`.
    pub fn schedule(&mut self, mut enabled: Vec<Next>, mut blocked: Vec<Next>) -> Option<Tid> {
        self.schedule_in(&mut enabled, &mut blocked)
    }

    /// `schedule`, with the steps taken out of `enabled` and `blocked`, which get
    /// back vectors to reuse (at every scheduling point, allocating none).
    pub fn schedule_in(&mut self, enabled: &mut Vec<Next>, blocked: &mut Vec<Next>) -> Option<Tid> {
        assert!(self.in_exec, "schedule() outside begin()/end()");
        self.close_step();
        if self.abandoned || self.sleep_blocked {
            // Kept for `end_here`.
            self.keep_in(enabled, blocked);
            return None;
        }
        let k = self.pos;
        if k < self.stack.len() {
            let lvl = &mut self.stack[k];
            std::mem::swap(&mut lvl.enabled, enabled);
            std::mem::swap(&mut lvl.blocked, blocked);
            if let Some(ev) = &lvl.ev {
                // Replay of the prefix.
                let tid = ev.tid;
                if !lvl.enabled.iter().any(|n| n.tid == tid) {
                    self.stats.nondeterminism += 1;
                    self.abandoned = true;
                    return None;
                }
                self.forced_len = ev.choices.len();
                self.replaying_step = true;
                self.nchoice = 0;
                self.pos += 1;
                return Some(tid);
            }
            if lvl.cur.is_none() && !take_next(lvl) {
                // Terminal level of a previous run reached again: nothing to do.
                return self.pick_fresh(k);
            }
        } else {
            let mut lvl = self.spare.pop().unwrap_or_default();
            std::mem::swap(&mut lvl.enabled, enabled);
            std::mem::swap(&mut lvl.blocked, blocked);
            if let Some(parent) = self.stack.last_mut() {
                let pev = parent.ev.as_ref().expect("parent executed");
                let enabled = &lvl.enabled;
                lvl.sleep.extend(
                    parent
                        .sleep
                        .iter()
                        .filter(|(t, a, _)| {
                            *t != pev.tid
                                && !conflict_strict(a, &pev.accesses)
                                && enabled
                                    .iter()
                                    .find(|n| n.tid == *t)
                                    .is_none_or(|n| same_step(a, &n.accesses))
                        })
                        .cloned(),
                );
                // The child's tree is the parent's carry; the parent keeps the room.
                std::mem::swap(&mut lvl.pending, &mut parent.carry);
                lvl.dec = parent.dec + u32::from(parent.decision);
            }
            let none = lvl.enabled.is_empty();
            self.stack.push(lvl);
            self.stats.max_depth = self.stats.max_depth.max(self.stack.len());
            if none {
                return None;
            }
            if !self.met && !self.settled {
                let lvl = self.stack.last_mut().unwrap();
                if lvl.dec >= self.split {
                    // A unit starts here, with the goroutines asleep here kept asleep
                    // for what they begin (`unit_sleep`, `goes_first`; see `split`).
                    self.met = true;
                    if !self.enter(k) {
                        self.abandoned = true;
                        return None;
                    }
                    self.unit_sleep = self.stack[k].sleep.clone();
                } else {
                    // Above the units: every thread that is awake is a branch.
                    let mut opts: Vec<&Next> =
                        lvl.enabled.iter().filter(|n| !lvl.asleep(n.tid)).collect();
                    opts.sort_by_key(|n| n.tid);
                    let pending = opts.iter().map(|n| WuNode::leaf(n.label())).collect();
                    let decision = opts.len() >= 2;
                    lvl.pending = pending;
                    lvl.expanded = true;
                    lvl.decision = decision;
                    if !take_next(lvl) {
                        self.sleep_blocked = true;
                        return None;
                    }
                    return self.run_cur(k);
                }
            }
            let lvl = self.stack.last_mut().unwrap();
            if !take_next(lvl) {
                return self.pick_fresh(k);
            }
        }
        self.run_cur(k)
    }

    fn pick_fresh(&mut self, k: usize) -> Option<Tid> {
        let lvl = &mut self.stack[k];
        if lvl.expanded {
            // Every branch here is handled already: nothing new to do.
            self.abandoned = true;
            return None;
        }
        let pick = lvl
            .enabled
            .iter()
            .filter(|n| !lvl.asleep(n.tid))
            .min_by_key(|n| n.tid)
            .cloned();
        match pick {
            Some(n) => {
                lvl.cur = Some(n.label());
                self.run_cur(k)
            }
            None => {
                if !lvl.enabled.is_empty() {
                    self.sleep_blocked = true;
                }
                None
            }
        }
    }

    /// The step just run made the choices it made: a label's choice values beyond them
    /// (a wakeup sequence's, from an execution where the step had more cases ready)
    /// were never asked for, so the event as executed has none of them. Kept, they
    /// named the event by a choice it did not make: the level counted that choice as
    /// explored and not the one it did make, and ran it again.
    fn close_step(&mut self) {
        if self.replaying_step || self.pos == 0 {
            return;
        }
        let n = self.nchoice;
        let li = self.pos - 1;
        let (arity, lvl) = (&self.arity, &mut self.stack[li]);
        let Some(ev) = lvl.ev.as_mut() else {
            return;
        };
        if ev.choices.len() > n {
            ev.choices.truncate(n);
        }
        // A sibling whose label makes this very event (its values clamped to the
        // cases each choice had, its values past the step's choices never asked
        // for) would run it again: its subtree is this branch's. Not where the
        // branch was abandoned (a fresh choice found every case taken by siblings):
        // its subtree is never explored.
        if self.abandoned {
            return;
        }
        let same = |p: &WuNode| makes(&p.ev, ev, arity);
        if !lvl.pending.iter().any(same) {
            return;
        }
        let mut moved = Vec::new();
        let mut i = 0;
        while i < lvl.pending.len() {
            if same(&lvl.pending[i]) {
                moved.push(lvl.pending.remove(i));
            } else {
                i += 1;
            }
        }
        for node in moved {
            graft(&node.children, &mut lvl.carry);
        }
        self.stats.merged += 1;
        if self.root == Some(li) {
            self.full = true;
        }
    }

    /// Execute the label `cur` of level k (if it is infeasible: the next pending one where
    /// the world keeps it back, else full expansion).
    fn run_cur(&mut self, k: usize) -> Option<Tid> {
        loop {
            let lvl = &mut self.stack[k];
            let cur = lvl.cur.clone().expect("cur");
            if let Some(n) = lvl.enabled.iter().find(|n| n.tid == cur.tid) {
                lvl.ev = Some(Event {
                    tid: cur.tid,
                    accesses: n.accesses.clone(),
                    choices: cur.choices.clone(),
                    complete: true,
                });
                self.forced_len = cur.choices.len();
                self.replaying_step = false;
                self.nchoice = 0;
                self.arity.clear();
                self.pos += 1;
                return Some(cur.tid);
            }
            // Infeasible wakeup head. A step the world keeps back here (a lock at a held
            // mutex, a receive at an empty buffer) waits, and a wait is no event: the
            // sequence ends here as any does, the execution going on with what can run
            // (its races, and those the kept step's attempt would have had, analysed at
            // its end). What was inserted below it (sequences it was a weak initial of:
            // independent of all of them, as a wait at a WaitGroup, or with its own step
            // in them taken out) is still to run from here, without it. Else (a head not
            // there, or parked): every enabled thread is a branch.
            self.stats.infeasible += 1;
            let held = lvl.blocked.iter().any(|x| x.tid == cur.tid && !x.parked);
            if self.root == Some(k) {
                self.full = true;
            }
            lvl.cur = None;
            let carry = std::mem::take(&mut lvl.carry);
            if held {
                record::held();
                // Each is checked against the goroutines asleep here as an insertion
                // is (`insert`: one that goes first in it covers it). Unchecked, a
                // sequence a sibling explored ran again, and two executions stopped
                // by a violation inserted each other's mirror under a held head for
                // ever (`a_held_head_brings_back_no_sequence_a_goroutine_asleep_covers`).
                let sleep = &lvl.sleep;
                graft_if(&carry, &mut lvl.pending, |w| {
                    !sleep.iter().any(|e| goes_first(e, w))
                });
                if take_next(lvl) {
                    continue;
                }
                return self.pick_fresh(k);
            }
            let mut en = lvl.enabled.clone();
            en.sort_by_key(|n| n.tid);
            for n in en {
                if lvl.asleep(n.tid)
                    || lvl.covered.iter().any(|c| c.0 == n.tid)
                    || lvl.pending.iter().any(|p| p.ev.tid == n.tid)
                {
                    continue;
                }
                lvl.pending.push(WuNode::leaf(n.label()));
            }
            if !take_next(lvl) {
                if !lvl.enabled.is_empty() {
                    self.sleep_blocked = true;
                }
                return None;
            }
        }
    }

    /// The thread that just got scheduled makes a nondeterministic choice among `n`
    /// alternatives; every alternative is explored.  Must be called during its step.
    pub fn choose(&mut self, n: usize) -> usize {
        assert!(self.in_exec && self.pos > 0, "choose() outside a step");
        if n <= 1 || self.abandoned {
            return 0;
        }
        let li = self.pos - 1;
        let ci = self.nchoice;
        self.nchoice += 1;
        let lvl = &mut self.stack[li];
        let ev = lvl.ev.as_mut().expect("step being executed");
        if self.replaying_step {
            let v = ev.choices.get(ci).copied().unwrap_or(0) as usize;
            if v >= n || ci >= ev.choices.len() {
                self.stats.nondeterminism += 1;
            }
            return v.min(n - 1);
        }
        if self.root == Some(li) {
            self.full = true;
        }
        self.arity.push(n as u32);
        let prefix: Vec<u32> = ev.choices[..ci.min(ev.choices.len())].to_vec();
        let tid = ev.tid;
        let acc = ev.accesses.clone();
        let value: u32;
        if ci < self.forced_len {
            // A label's value from an execution where more cases were ready names the
            // last one here: the event records the choice it makes (`close_step`).
            value = (ev.choices[ci] as usize).min(n - 1) as u32;
            ev.choices[ci] = value;
        } else {
            let mut pick = None;
            for a in 0..n as u32 {
                let mut q = prefix.clone();
                q.push(a);
                if !lvl.taken(tid, &q) {
                    pick = Some(a);
                    break;
                }
            }
            let ev = lvl.ev.as_mut().unwrap();
            match pick {
                Some(a) => {
                    ev.choices.push(a);
                    value = a;
                }
                None => {
                    // Every case is a sibling's, pending or explored (a label that
                    // fixed no value, beside labels that fixed each): abandon the
                    // branch, its subtree going below a sibling that makes one of
                    // those cases.
                    ev.choices.push(0);
                    self.abandoned = true;
                    let carry = std::mem::take(&mut lvl.carry);
                    if !carry.is_empty() {
                        let at = lvl
                            .pending
                            .iter()
                            .position(|p| p.ev.tid == tid && p.ev.choices.starts_with(&prefix));
                        let at = at.unwrap_or_else(|| {
                            // Every case explored already: one runs again, for this.
                            let mut q = prefix.clone();
                            q.push(0);
                            lvl.pending.push(WuNode::leaf(Event {
                                tid,
                                accesses: acc.clone(),
                                choices: q,
                                complete: false,
                            }));
                            lvl.pending.len() - 1
                        });
                        graft(&carry, &mut lvl.pending[at].children);
                    }
                    return 0;
                }
            }
        }
        // Alternatives of this choice, explored right after the current child.
        let mut ins = 0;
        let lvl = &mut self.stack[li];
        // Above the units, a choice is a decision point like a scheduling one.
        lvl.decision |= lvl.expanded;
        for a in 0..n as u32 {
            if a == value {
                continue;
            }
            let mut q = prefix.clone();
            q.push(a);
            if lvl.taken(tid, &q) {
                continue;
            }
            let q2 = q.clone();
            let alt = Event {
                tid,
                accesses: acc.clone(),
                choices: q,
                complete: false,
            };
            if lvl.expanded || !SKIP_COVERED_ALTERNATIVES {
                // Exhaustive here (no race insertions arrive at expanded levels).
                lvl.pending.insert(ins, WuNode::leaf(alt));
                ins += 1;
                continue;
            }
            // Like any wakeup sequence: if a sleeping thread is a weak initial of
            // <t chooses q>, the executions it leads to are reached by race reversals
            // (which carry choice values) from the sleeping thread's subtree.
            let w = [alt];
            let mut placed = false;
            if !lvl.sleep.iter().any(|e| sleep_covers(e, &w)) {
                let [alt] = w;
                insert_list(&mut lvl.pending, vec![alt], Some(tid));
                placed = lvl
                    .pending
                    .iter()
                    .any(|p| p.ev.tid == tid && p.ev.choices.starts_with(&q2));
            }
            if !placed {
                self.stats.choice_skips += 1;
                if !lvl.partial.contains(&tid) {
                    lvl.partial.push(tid);
                }
            }
        }
        value as usize
    }

    /// The execution ended: `enabled`/`blocked` describe the final state (both empty
    /// after a normal end; non-empty after a deadlock or an early stop by the runtime).
    /// Returns true when the execution counts (not redundant/abandoned).
    pub fn end(&mut self, enabled: Vec<Next>, blocked: Vec<Next>) -> bool {
        self.finish(enabled, blocked, false)
    }

    /// `end` where `schedule` has just said the execution ends, with the steps it was
    /// given there (every way `schedule` returns keeps them at the current level).
    pub fn end_here(&mut self) -> bool {
        self.conclude(false)
    }

    /// The runtime stopped the execution early, right after the step just taken (at a
    /// violation), the others' next steps being what they were when it was chosen.
    /// The step is treated as dependent with every pending step (it disabled them),
    /// so every way of running pending steps before the stop is explored.
    pub fn stop_after_last(&mut self) -> bool {
        self.after_last(true)
    }

    /// `stop_after_last` at a data race: the race detector's verdict read the clocks of
    /// earlier accesses no step declares (model data, a plain access of an atomic), so
    /// the stopping step is dependent with every earlier step, even one its goroutine
    /// was kept back across (`analyze`).
    pub fn stop_after_race(&mut self) -> bool {
        self.race_stop = true;
        let counted = self.after_last(true);
        self.race_stop = false;
        counted
    }

    /// `end` right after the step just taken, which left no goroutine able to run:
    /// the others' next steps, all blocked, are what they were when it was chosen.
    pub fn end_after_last(&mut self) -> bool {
        self.after_last(false)
    }

    fn after_last(&mut self, stopped: bool) -> bool {
        let (enabled, blocked) = match self.pos.checked_sub(1).map(|k| &self.stack[k]) {
            Some(l) => {
                let me = l.ev.as_ref().map(|e| e.tid);
                let others = |v: &[Next]| -> Vec<Next> {
                    v.iter().filter(|n| Some(n.tid) != me).cloned().collect()
                };
                (others(&l.enabled), others(&l.blocked))
            }
            None => (Vec::new(), Vec::new()),
        };
        self.finish(enabled, blocked, stopped)
    }

    fn finish(&mut self, enabled: Vec<Next>, blocked: Vec<Next>, stopped: bool) -> bool {
        self.close_step();
        self.keep(enabled, blocked);
        self.conclude(stopped)
    }

    /// Keeps the live threads' next steps at the current level.
    fn keep(&mut self, mut enabled: Vec<Next>, mut blocked: Vec<Next>) {
        self.keep_in(&mut enabled, &mut blocked);
    }

    fn keep_in(&mut self, enabled: &mut Vec<Next>, blocked: &mut Vec<Next>) {
        let n = self.pos;
        if self.stack.len() == n {
            let l = self.spare.pop().unwrap_or_default();
            self.stack.push(l);
        }
        let t = &mut self.stack[n];
        std::mem::swap(&mut t.enabled, enabled);
        std::mem::swap(&mut t.blocked, blocked);
    }

    /// Ends the execution whose final steps `keep` holds: analyses it, and says whether
    /// it counts.
    fn conclude(&mut self, stopped: bool) -> bool {
        assert!(self.in_exec, "end() outside an execution");
        self.settle();
        self.in_exec = false;
        let n = self.pos;
        // The stack keeps levels 0..=n, the last kept by `keep`; drop anything deeper
        // (a level the last execution reached and this one did not).
        self.shorten(n + 1);
        self.drop_given(n + 1);
        if self.abandoned || self.counted.is_none() {
            self.stats.abandoned += 1;
            return false;
        }
        if stopped && n > 0 {
            let l = &mut self.stack[n - 1];
            let t = l.ev.as_ref().unwrap().tid;
            if !l.stoppers.contains(&t) {
                l.stoppers.push(t);
            }
        }
        self.analyze(stopped);
        if self.sleep_blocked {
            self.stats.sleep_blocked += 1;
            false
        } else if !self.owned() {
            self.stats.unowned += 1;
            false
        } else {
            self.stats.complete += 1;
            record::trace(&self.stack[..n], stopped);
            true
        }
    }

    /// Cuts the stack to `len` levels, keeping the levels cut off, emptied, in `spare`.
    fn shorten(&mut self, len: usize) {
        while self.stack.len() > len {
            let mut l = self.stack.pop().expect("longer than len");
            l.empty();
            if self.spare.len() < 4096 {
                self.spare.push(l);
            }
        }
    }

    /// The step being executed also makes `extra` (found while it ran: a thread it
    /// started). Races are analysed at the end, so the step is seen whole.
    pub fn amend(&mut self, extra: &[(Obj, Access)]) {
        if !self.in_exec || self.pos == 0 {
            return;
        }
        if let Some(ev) = self.stack[self.pos - 1].ev.as_mut() {
            for a in extra {
                if !ev.accesses.contains(a) {
                    ev.accesses.push(*a);
                }
            }
        }
    }
}

/// What a goroutine asleep where a wakeup sequence goes must do to cover it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cover {
    /// The sequence comes from an execution cut short (by a violation, or with every
    /// awake goroutine asleep): the goroutine covers it only by going first in it,
    /// whatever would have followed (`goes_first`).
    Cut,
    /// Optimal DPOR's check, a weak initial (`sleep_covers`), of the paper's wakeup
    /// sequence: the inserted one with the execution's steps after the race's later
    /// step that do not happen after its earlier one, before that later step. The
    /// inserted sequence stops at the later step; checked alone, a goroutine that is
    /// independent of it but not of a step after it covered it, and an order was lost
    /// (`a_sequence_is_checked_to_the_executions_end` in `tests/dpor.rs`).
    Whole(Vec<Event>),
}
