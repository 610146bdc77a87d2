//! Optimal DPOR core (Abdulla, Aronis, Jonsson, Sagonas: source sets, wakeup trees,
//! sleep sets), as a scheduler oracle driven by an external runtime.
//!
//! See DESIGN.md for the decisions taken (blocking, choices, early stops, memory,
//! splitting).  The core never runs code: the runtime reports at every scheduling
//! point which threads are enabled (and, for soundness with blocking, which are
//! blocked and on what), and the core answers which thread runs.

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
}

/// Object id a runtime may use to express thread creation: the spawning step
/// does `Release` on `thread_obj(child)`, the child's first step `Acquire`s it.
pub fn thread_obj(t: Tid) -> Obj {
    (1u64 << 63) | t
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

fn conflict(a: &[(Obj, Access)], b: &[(Obj, Access)]) -> bool {
    if a.iter().chain(b.iter()).any(|x| x.0 == ANY) {
        return true;
    }
    a.iter().any(|&(o1, k1)| {
        b.iter().any(|&(o2, k2)| {
            o1 == o2
                && !(k1 == Access::Read && k2 == Access::Read)
                && !(k1 == Access::Add && k2 == Access::Add)
        })
    })
}

/// Whether a sleep entry's step (accesses `slept`, as it ran) is still the step its
/// thread will take (accesses `now`): each object it names now, used the same way.
/// A step whose use changed with the state (a `Done` that would now take the counter
/// below zero) is another event, which the entry does not cover.
fn same_step(slept: &[(Obj, Access)], now: &[(Obj, Access)]) -> bool {
    now.iter().all(|a| slept.contains(a))
}

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

/// A step's objects as one word, for `analyze`'s many dependence tests: a bit per
/// object (its id's low six bits after a mix), or every bit if it touches `ANY`. Two
/// steps whose words share no bit touch no common object, so they conflict only if
/// they are one goroutine's; sharing a bit proves nothing (`conflict` decides).
fn signature(a: &[(Obj, Access)]) -> u64 {
    a.iter().fold(0, |s, &(o, _)| {
        if o == ANY {
            u64::MAX
        } else {
            s | 1 << (o.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)
        }
    })
}

/// Whether two events do not commute: one goroutine's, or conflicting (`signature`).
fn dependent_sig(a: &Event, sa: u64, b: &Event, sb: u64) -> bool {
    a.tid == b.tid || (sa & sb != 0 && conflict(&a.accesses, &b.accesses))
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

impl Index {
    fn fill(&mut self, evs: &[&Event], sigs: &[u64], words: usize) {
        let Index { bits, tids, .. } = self;
        bits.clear();
        bits.resize(64 * words, 0);
        // Emptied, not dropped: a goroutine's set is reused by whoever comes at its place.
        for t in tids.iter_mut() {
            t.0 = Tid::MAX;
            t.1.clear();
            t.1.resize(words, 0);
        }
        let mut used = 0;
        for (i, (e, &sig)) in evs.iter().zip(sigs).enumerate() {
            let (w, b) = (i / 64, 1u64 << (i % 64));
            for k in ones(&[sig]) {
                bits[k * words + w] |= b;
            }
            match tids[..used].iter_mut().find(|t| t.0 == e.tid) {
                Some(t) => t.1[w] |= b,
                None => {
                    if used == tids.len() {
                        tids.push((e.tid, vec![0u64; words]));
                    }
                    tids[used].0 = e.tid;
                    tids[used].1[w] |= b;
                    used += 1;
                }
            }
        }
        tids.truncate(used);
        self.words = words;
    }

    /// Into `out`: the events before `j` that may be dependent with a step of `tid`
    /// whose signature is `sig` (a superset: `dependent_sig` decides).
    fn candidates(&self, sig: u64, tid: Tid, j: usize, out: &mut [u64]) {
        out.fill(0);
        for k in ones(&[sig]) {
            for (o, b) in out.iter_mut().zip(&self.bits[k * self.words..]) {
                *o |= b;
            }
        }
        if let Some(t) = self.tids.iter().find(|t| t.0 == tid) {
            for (o, b) in out.iter_mut().zip(&t.1) {
                *o |= b;
            }
        }
        keep_below(out, j);
    }

    /// The latest event of goroutine `tid` before `j`.
    fn last(&self, tid: Tid, j: usize) -> Option<usize> {
        let t = self.tids.iter().find(|t| t.0 == tid)?;
        ones_rev_below(&t.1, j).next()
    }
}

/// Into `out`: every event before `j`.
fn all_before(j: usize, out: &mut [u64]) {
    out.fill(u64::MAX);
    keep_below(out, j);
}

/// Clears the bits at `j` and above.
fn keep_below(set: &mut [u64], j: usize) {
    for (w, x) in set.iter_mut().enumerate() {
        let lo = w * 64;
        if j <= lo {
            *x = 0;
        } else if j < lo + 64 {
            *x &= (1u64 << (j - lo)) - 1;
        }
    }
}

/// Visits the positions of `cand`'s ones that are not in `seen`, latest first, while
/// `visit` adds to `seen` (positions below the one it is given): a whole word of what
/// it added is skipped at once.
fn latest_first(cand: &[u64], seen: &mut [u64], mut visit: impl FnMut(usize, &mut [u64])) {
    for w in (0..cand.len()).rev() {
        let mut x = cand[w];
        loop {
            x &= !seen[w];
            if x == 0 {
                break;
            }
            let b = 63 - x.leading_zeros() as usize;
            x &= !(1 << b);
            visit(w * 64 + b, seen);
        }
    }
}

/// The positions of a bit set's ones below `j`, in decreasing order.
fn ones_rev_below(set: &[u64], j: usize) -> impl Iterator<Item = usize> + '_ {
    let top = j.div_ceil(64).min(set.len());
    set[..top]
        .iter()
        .enumerate()
        .rev()
        .flat_map(move |(w, &x)| {
            let lo = w * 64;
            let mut x = if j < lo + 64 {
                x & ((1u64 << (j - lo)) - 1)
            } else {
                x
            };
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = 63 - x.leading_zeros() as usize;
                    x &= !(1 << b);
                    lo + b
                })
            })
        })
}

/// The positions of a bit set's ones, in increasing order.
fn ones(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &x)| {
        let mut x = x;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                w * 64 + b
            })
        })
    })
}

fn choices_compatible(a: &[u32], a_complete: bool, b: &[u32], b_complete: bool) -> bool {
    match (a_complete, b_complete) {
        (true, true) => a == b,
        (false, true) => b.starts_with(a),
        (true, false) => a.starts_with(b),
        (false, false) => a.starts_with(b) || b.starts_with(a),
    }
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

impl WuNode {
    fn leaf(ev: Event) -> Self {
        WuNode {
            ev,
            children: Vec::new(),
        }
    }

    /// Its event and its children, taken out of it.
    fn split(mut self) -> (Event, Vec<WuNode>) {
        let children = std::mem::take(&mut self.children);
        let ev = std::mem::replace(
            &mut self.ev,
            Event {
                tid: 0,
                accesses: Accesses::new(),
                choices: Vec::new(),
                complete: false,
            },
        );
        (ev, children)
    }
}

impl Drop for WuNode {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut n) = stack.pop() {
            stack.append(&mut n.children);
        }
    }
}

impl Clone for WuNode {
    fn clone(&self) -> Self {
        enum Op<'a> {
            Visit(&'a WuNode),
            Build(&'a WuNode),
        }
        let mut ops = vec![Op::Visit(self)];
        let mut built: Vec<WuNode> = Vec::new();
        while let Some(op) = ops.pop() {
            match op {
                Op::Visit(n) => {
                    ops.push(Op::Build(n));
                    ops.extend(n.children.iter().rev().map(Op::Visit));
                }
                Op::Build(n) => {
                    let children = built.split_off(built.len() - n.children.len());
                    built.push(WuNode {
                        ev: n.ev.clone(),
                        children,
                    });
                }
            }
        }
        built.pop().expect("the root is built last")
    }
}

impl PartialEq for WuNode {
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.ev != b.ev || a.children.len() != b.children.len() {
                return false;
            }
            stack.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl std::fmt::Debug for WuNode {
    /// Its root-to-leaf sequences.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut paths = Vec::new();
        leaf_paths(self, &mut Vec::new(), &mut paths);
        f.debug_list().entries(paths.iter()).finish()
    }
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
}

/// Skipping choice alternatives covered by a sleeping thread (treating them like race
/// reversals) lost traces in the random campaign, so it is off: every alternative of
/// every executed choice is scheduled (sound; can cost sleep-set-blocked executions).
const SKIP_COVERED_ALTERNATIVES: bool = false;

type SleepEntry = (Tid, Accesses, Option<Vec<Vec<u32>>>);

/// Does the sleep entry cover w (is its thread a weak initial of w, with an explored
/// choice vector)? (Not `same_step` against its step in w: w's events carry the
/// accesses they had where they ran, not where w would run them, and asking for it
/// made `a_step_whose_use_changed_wakes_from_sleep` insert the same sequence forever.)
fn sleep_covers(e: &SleepEntry, w: &[Event]) -> bool {
    match w.iter().position(|x| x.tid == e.0) {
        Some(k) => {
            !w[..k].iter().any(|x| conflict(&x.accesses, &w[k].accesses))
                && match &e.2 {
                    None => true,
                    Some(list) => list
                        .iter()
                        .any(|c| choices_compatible(c, true, &w[k].choices, w[k].complete)),
                }
        }
        None => e.2.is_none() && !w.iter().any(|x| conflict(&e.1, &x.accesses)),
    }
}

/// Does the sleep entry's step run in w before anything it conflicts with (so every
/// trace w leads to begins with it)? A goroutine asleep where a unit starts covers only
/// such w: its own unit's races never insert at the unit's levels (see `split`).
fn goes_first(e: &SleepEntry, w: &[Event]) -> bool {
    w.iter()
        .position(|x| x.tid == e.0)
        .is_some_and(|k| sleep_covers(e, &w[..=k]))
}

impl Level {
    /// The default level, keeping its vectors' room.
    fn empty(&mut self) {
        let Level {
            enabled,
            blocked,
            sleep,
            pending,
            cur,
            ev,
            carry,
            covered,
            expanded,
            dec,
            decision,
            stoppers,
            partial,
        } = self;
        enabled.clear();
        blocked.clear();
        sleep.clear();
        pending.clear();
        *cur = None;
        *ev = None;
        carry.clear();
        covered.clear();
        *expanded = false;
        *dec = 0;
        *decision = false;
        stoppers.clear();
        partial.clear();
    }

    fn asleep(&self, t: Tid) -> bool {
        self.sleep.iter().any(|s| s.0 == t)
    }
    fn active_tid(&self) -> Option<Tid> {
        self.ev.as_ref().or(self.cur.as_ref()).map(|e| e.tid)
    }
    /// Is the choice prefix `q` of thread `t` already explored/scheduled here?
    fn taken(&self, t: Tid, q: &[u32]) -> bool {
        self.covered
            .iter()
            .any(|(tt, c)| *tt == t && c.starts_with(q))
            || self.pending.iter().any(|p| {
                p.ev.tid == t
                    && (p.ev.choices.starts_with(q)
                        || (!p.ev.complete && q.starts_with(&p.ev.choices)))
            })
    }
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
    /// Wakeup-sequence heads found not enabled at replay (treated by full expansion).
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

    fn cancel(&mut self, id: u64) {
        if let Some(h) = self.helpers.as_mut() {
            h.cancel(id);
        }
    }

    /// Forgets the branches given away at level `li` and below.
    fn drop_given(&mut self, li: usize) {
        while self.given.len() > li {
            if let Some(g) = self.given.pop().flatten() {
                self.cancel(g.id);
            }
        }
    }

    /// Gives the next branch of the highest level that has one (the largest subtree
    /// left) to another thread, as this explorer will meet it.
    fn give(&mut self) {
        let from = self.root.map_or(0, |r| r + 1);
        let Some(li) = (from..self.stack.len()).find(|&li| {
            let l = &self.stack[li];
            l.ev.is_some()
                && !l.expanded
                && !l.pending.is_empty()
                && self.given.get(li).is_none_or(Option::is_none)
        }) else {
            return;
        };
        let mut snap = self.stack[li].clone();
        if !advance(&mut snap) {
            return;
        }
        let mut unit = Explorer::new();
        unit.stack = self.stack[..li]
            .iter()
            .map(|l| Level {
                ev: l.ev.clone(),
                cur: l.cur.clone(),
                ..Level::default()
            })
            .collect();
        unit.stack.push(snap.clone());
        unit.root = Some(li);
        unit.unit = Some((0, 0));
        unit.clean = li;
        let id = self.helpers.as_mut().expect("helpers").give(unit);
        self.stats.gave += 1;
        if self.given.len() <= li {
            self.given.resize_with(li + 1, || None);
        }
        self.given[li] = Some(Given { id, snap });
    }

    /// Takes in the result of the subtree given away at level `li`, which `begin` has
    /// just reached, if it has finished and holds.
    fn collect(&mut self, li: usize, g: Given) -> Collect {
        let Some(done) = self.helpers.as_mut().and_then(|h| h.take(g.id)) else {
            self.waiting = Some((li, g));
            return Collect::Wait;
        };
        if done.full.is_some() && g.snap != self.stack[li] {
            self.stats.redone += 1;
            return Collect::Explore;
        }
        if done.halt.is_some() {
            self.halted = Some(done);
            return Collect::Halt;
        }
        let d = done.stats;
        let s = &mut self.stats;
        s.adopted += 1 + d.adopted;
        s.gave += d.gave;
        s.redone += d.redone;
        s.executions += d.executions;
        s.complete += d.complete;
        s.sleep_blocked += d.sleep_blocked;
        s.abandoned += d.abandoned;
        s.infeasible += d.infeasible;
        s.merged += d.merged;
        s.races += d.races;
        s.nondeterminism += d.nondeterminism;
        s.max_depth = s.max_depth.max(d.max_depth);
        let full = done.full.is_some();
        let lvl = &mut self.stack[li];
        match done.full {
            Some(l) => *lvl = l,
            None => {
                lvl.ev = done.ev;
                lvl.carry.clear();
                for t in done.stoppers {
                    if !lvl.stoppers.contains(&t) {
                        lvl.stoppers.push(t);
                    }
                }
            }
        }
        for (l, v, cover) in done.ops {
            if full && l == li {
                continue;
            }
            self.record(l, v, cover);
        }
        self.clean = done.clean;
        self.hb_ok = self.hb_ok.min(li);
        Collect::Adopted
    }

    /// The result of this explorer's subtree (`Explorer::over`), for its giver.
    pub fn done(&mut self) -> Done {
        let r = self.root.expect("a given subtree");
        let lvl = &self.stack[r];
        if !self.over {
            // Its root level's branch was left before its subtree was done (a replay
            // that diverged cuts the stack): a result that holds nowhere, so the giver
            // explores the branch itself.
            return Done {
                full: Some(Level {
                    dec: u32::MAX,
                    ..Level::default()
                }),
                ..Done::default()
            };
        }
        self.last_op.clear();
        Done {
            ev: lvl.ev.clone(),
            stoppers: lvl.stoppers.clone(),
            ops: std::mem::take(&mut self.ops),
            full: self.full.then(|| lvl.clone()),
            clean: self.clean,
            stats: self.stats.clone(),
            halt: None,
            note: None,
        }
    }

    /// The result of an exploration stopped after `at` of its executions for the
    /// driver's reason `tag`: for a given subtree, with its root level if it read more
    /// of it than `Given` covers (the stop then holds only on that very level).
    pub fn stopped(&self, at: u64, tag: u64) -> Done {
        let full = self
            .root
            .filter(|_| self.full)
            .and_then(|r| self.stack.get(r).cloned());
        Done {
            full,
            stats: self.stats.clone(),
            halt: Some((at, tag)),
            ..Done::default()
        }
    }

    /// This explorer's driver.
    pub fn set_helpers(&mut self, h: Option<Box<dyn Helpers>>) {
        self.helpers = h;
    }

    /// The subtree given away that `begin` stopped to wait for.
    pub fn waits(&self) -> Option<u64> {
        self.waiting.as_ref().map(|w| w.1.id)
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
                                && !conflict(a, &pev.accesses)
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
                    let pending = opts
                        .iter()
                        .map(|n| {
                            WuNode::leaf(Event {
                                tid: n.tid,
                                accesses: n.accesses.clone(),
                                choices: vec![],
                                complete: false,
                            })
                        })
                        .collect();
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
                lvl.cur = Some(Event {
                    tid: n.tid,
                    accesses: n.accesses,
                    choices: vec![],
                    complete: false,
                });
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
        let lvl = &mut self.stack[li];
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
        let (tid, arity) = (ev.tid, &self.arity);
        let same = |p: &WuNode| {
            p.ev.tid == tid
                && p.ev.choices.len() >= n
                && (0..n).all(|k| p.ev.choices[k].min(arity[k] - 1) == ev.choices[k])
        };
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

    /// Execute the label `cur` of level k (falls back to full expansion if it is infeasible).
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
            // Infeasible wakeup head: sound fallback = explore every enabled thread here.
            self.stats.infeasible += 1;
            if self.root == Some(k) {
                self.full = true;
            }
            lvl.cur = None;
            lvl.carry.clear();
            let mut en = lvl.enabled.clone();
            en.sort_by_key(|n| n.tid);
            for n in en {
                if lvl.asleep(n.tid)
                    || lvl.covered.iter().any(|c| c.0 == n.tid)
                    || lvl.pending.iter().any(|p| p.ev.tid == n.tid)
                {
                    continue;
                }
                lvl.pending.push(WuNode::leaf(Event {
                    tid: n.tid,
                    accesses: n.accesses.clone(),
                    choices: vec![],
                    complete: false,
                }));
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

    /// Race detection on the current execution, inserting reversals into wakeup trees:
    /// every race, each execution (a race in a prefix the last analysed execution
    /// shared is taken from `found`, and inserted again where a goroutine sleeps or
    /// the giver decides, to be checked against this execution's later steps:
    /// `Cover::Whole`).
    fn analyze(&mut self, stopped: bool) {
        let n = self.pos;
        let words = n.div_ceil(64).max(1);
        let has = |s: &[u64], i: usize| s[i / 64] >> (i % 64) & 1 == 1;
        // The stopping step disabled everything: dependent with every other step.
        let last_stop: Option<Event> = (stopped && n > 0).then(|| {
            let mut e = self.stack[n - 1].ev.clone().unwrap();
            e.accesses.push((ANY, Access::Write));
            e
        });
        let stack = &self.stack;
        let evs: Vec<&Event> = (0..n)
            .map(|k| match &last_stop {
                Some(e) if k + 1 == n => e,
                _ => stack[k].ev.as_ref().unwrap(),
            })
            .collect();
        let sigs: Vec<u64> = evs.iter().map(|e| signature(&e.accesses)).collect();
        let mut index = std::mem::take(&mut self.index);
        index.fill(&evs, &sigs, words);
        let mut cand = vec![0u64; words];
        // Happens-before rows: reuse those of the unchanged prefix.
        // Rows are kept allocated past the valid ones, for the next analysis.
        let valid = self.hb_ok.min(n);
        let hb = &mut self.hb;
        if hb.len() < n {
            hb.resize_with(n, Vec::new);
        }
        for row in hb.iter_mut().take(n) {
            row.resize(words, 0);
        }
        for j in valid..n {
            let (hb, rest) = hb.split_at_mut(j);
            let p = &mut rest[0];
            p.fill(0);
            if stopped && j + 1 == n {
                // A stopping step disabled everything: dependent with all other steps.
                all_before(j, &mut cand);
            } else {
                index.candidates(sigs[j], evs[j].tid, j, &mut cand);
            }
            // An event already ordered before one taken is skipped: its row is in
            // that one's.
            latest_first(&cand, p, |i, p| {
                if (stopped && j + 1 == n) || dependent_sig(evs[i], sigs[i], evs[j], sigs[j]) {
                    p[i / 64] |= 1 << (i % 64);
                    for (x, y) in p.iter_mut().zip(&hb[i]) {
                        *x |= y;
                    }
                }
            });
        }
        let pred = &self.hb[..n];
        let enabled_at = |k: usize, q: Tid| stack[k].enabled.iter().any(|x| x.tid == q);
        let blocked_at = |k: usize, q: Tid| stack[k].blocked.iter().any(|x| x.tid == q);
        // Targets: every event, and every pending step of the final state.
        let pending: Vec<Event> = stack[n]
            .enabled
            .iter()
            .chain(stack[n].blocked.iter())
            .map(|x| Event {
                tid: x.tid,
                accesses: x.accesses.clone(),
                choices: vec![],
                complete: false,
            })
            .collect();
        let parked = |q: Tid| stack[n].blocked.iter().any(|x| x.tid == q && x.parked);
        let targets = (0..n)
            .map(|j| (evs[j], j, true))
            .chain(pending.iter().map(|e| (e, n, false)));
        // A race between two steps of a prefix an analysed execution shared (below
        // `valid`) was found then (`found`), and its reversal inserted or found
        // covered: the sequence is the same, the tree it went into unchanged but for
        // what was inserted. Only a goroutine asleep there decides anew, on the steps
        // after the later one (`Cover::Whole`), which differ. So such a race is
        // inserted again only where a goroutine sleeps, or where the giver of this
        // subtree decides.
        let mut found = std::mem::take(&mut self.found);
        if found.len() < n {
            found.resize_with(n, Vec::new);
        }
        let mut sleepy = vec![0u64; words];
        for (k, l) in stack[..n].iter().enumerate() {
            if self.root.is_some_and(|r| k <= r) || (!l.expanded && !l.sleep.is_empty()) {
                sleepy[k / 64] |= 1 << (k % 64);
            }
        }
        // The steps of `r` that do not happen after i.
        let free = |i: usize, r: std::ops::Range<usize>| -> Vec<Event> {
            r.filter(|&l| !has(&pred[l], i))
                .map(|l| evs[l].clone())
                .collect()
        };
        let mut inserts: Vec<(usize, Vec<Event>, Vec<Event>)> = Vec::new();
        let mut front: Vec<usize> = Vec::new();
        let mut u = vec![0u64; words];
        for (tgt, j, real) in targets {
            let notdep = |i: usize| -> Vec<Event> {
                let mut v = free(i, i + 1..j);
                v.push(tgt.clone());
                v
            };
            // The steps after the target that do not happen after i (`Cover::Whole`).
            let later =
                |i: usize| -> Vec<Event> { if real { free(i, j + 1..n) } else { Vec::new() } };
            if real && j < valid {
                for &d in found[j].iter().filter(|&&d| has(&sleepy, d)) {
                    inserts.push((d, notdep(d), later(d)));
                }
                continue;
            }
            let start = inserts.len();
            let q = tgt.tid;
            // The event that made q's step enabled (if it was observed blocked or absent).
            let enabler: Option<(usize, bool)> = if enabled_at(j, q) {
                let mut k0 = j;
                while k0 > 0 && evs[k0 - 1].tid != q && enabled_at(k0 - 1, q) {
                    k0 -= 1;
                }
                if k0 == 0 || evs[k0 - 1].tid == q {
                    None
                } else {
                    Some((k0 - 1, !blocked_at(k0 - 1, q)))
                }
            } else {
                None
            };
            // A runtime stop disables every pending step: treat it as dependent with them.
            // Not a step blocked where the stopping step ran (main waiting at its end for
            // the others, a goroutine parked at a channel): the reversal would put it at
            // that level, where it cannot run, and expand the level for nothing. Its races
            // with earlier steps are looked for as in any execution.
            // Nor the stopping step against an earlier step where its goroutine was
            // blocked, unless they conflict (its waker races by the enabler rule): moved
            // before a step it does not touch, a violation the step itself decides ends
            // the execution the same way with fewer steps run, and a deadlock found after
            // it is the same trace.
            let st = signature(&tgt.accesses);
            let held = stopped && !real && n > 0 && blocked_at(n - 1, q);
            let stop_target = stopped && real && j + 1 == n;
            let dep_t = |i: usize| {
                if held && i + 1 == n {
                    return false;
                }
                if stop_target && evs[i].tid != q && !enabled_at(i, q) {
                    let s = stack[j].ev.as_ref().expect("executed");
                    return conflict(&evs[i].accesses, &s.accesses);
                }
                dependent_sig(evs[i], sigs[i], tgt, st)
                    || (stopped && (i + 1 == n || (real && j + 1 == n)))
            };
            if stopped && real && j + 1 == n {
                all_before(j, &mut cand);
            } else {
                index.candidates(st, q, j, &mut cand);
                if stopped && n > 0 && n - 1 < j {
                    cand[(n - 1) / 64] |= 1 << ((n - 1) % 64);
                }
            }
            // Of the target's own goroutine's events, the latest stands for all: the
            // others happen before it, and nothing below asks for them but through
            // its row.
            let last = index.last(q, j);
            let is_dep = |i: usize| (evs[i].tid != q || Some(i) == last) && dep_t(i);
            // The dependent events that happen before no other dependent one (`front`,
            // in order), and `u`, what happens before any dependent one: latest first,
            // an event in `u` already needs no test, its row being in `u` too.
            front.clear();
            u.fill(0);
            latest_first(&cand, &mut u, |i, u| {
                if is_dep(i) {
                    front.push(i);
                    for (x, y) in u.iter_mut().zip(&pred[i]) {
                        *x |= y;
                    }
                }
            });
            front.reverse();
            let u = &u;
            // Every dependent event, for the rarer questions that need them all.
            let all = std::cell::OnceCell::new();
            let deps = || -> &Vec<usize> {
                all.get_or_init(|| ones(&cand).filter(|&i| is_dep(i)).collect())
            };
            // Walk back from i to the latest earlier event d dependent with the target
            // (restricted to `filter`) and race the target with d, if the target can be
            // moved before d (d happens-before no other predecessor of it).
            let walk_back =
                |i: usize,
                 filter: &dyn Fn(&Event) -> bool,
                 out: &mut Vec<(usize, Vec<Event>, Vec<Event>)>| {
                    // The candidates hold every dependent event, and the clock's
                    // advances (which touch everything).
                    for d in ones_rev_below(&cand, i) {
                        if evs[d].tid == CLOCK {
                            break; // nothing moves across the clock's advance
                        }
                        if !dep_t(d) || !filter(evs[d]) {
                            continue;
                        }
                        if evs[d].tid != q
                            && !deps().iter().any(|&k| k != d && k != i && has(&pred[k], d))
                        {
                            out.push((d, notdep(d), later(d)));
                        }
                        break;
                    }
                };
            // A goroutine kept at a mutex another holds, at the end: race its lock with
            // the holder's, even where the holder's own later steps (a poll that reads
            // everything) stand between them, or its own attempts. The holder's steps
            // come after its lock, which waits once this goroutine holds the mutex; the
            // attempts are this lock. Without this, the only race left is with the
            // holder's last step, whose reversal cannot run.
            if !real && blocked_at(n, q) {
                for &(o, k) in tgt.accesses.iter() {
                    if k != Access::Acquire {
                        continue;
                    }
                    let holder = (0..n).rev().find(|&d| {
                        evs[d].tid != q && evs[d].accesses.contains(&(o, Access::Acquire))
                    });
                    if let Some(d) = holder
                        && !deps().iter().any(|&k| {
                            k != d
                                && evs[k].tid != evs[d].tid
                                && evs[k].tid != q
                                && has(&pred[k], d)
                        })
                        && !(d..n).any(|k| evs[k].tid == CLOCK)
                    {
                        inserts.push((d, notdep(d), later(d)));
                    }
                }
            }
            // A parked goroutine's retry: every step it races with came after the
            // step that parked it, and a reversal would need it woken, which only a
            // step that woke it here could do (the steps a reversal keeps are
            // independent of the one it moves past, so they do what they did).
            if !real && parked(q) {
                continue;
            }
            for &i in &front {
                if evs[i].tid == q || has(u, i) {
                    continue; // same thread, or not a direct race
                }
                if q == CLOCK || evs[i].tid == CLOCK {
                    continue; // never reversible (`CLOCK`)
                }
                // Release (or Add) -> Acquire: not reversible; race with the Acquire it
                // ended.
                let released: Vec<Obj> = tgt
                    .accesses
                    .iter()
                    .filter(|(o, k)| {
                        *k == Access::Acquire
                            && evs[i].accesses.iter().any(|(o2, k2)| {
                                o2 == o && matches!(k2, Access::Release | Access::Add)
                            })
                    })
                    .map(|(o, _)| *o)
                    .collect();
                if !released.is_empty() {
                    let acq = |e: &Event| {
                        e.accesses
                            .iter()
                            .any(|(o, k)| *k == Access::Acquire && released.contains(o))
                    };
                    walk_back(i, &acq, &mut inserts);
                    continue;
                }
                match enabler {
                    Some((en, spawnlike)) if en == i => {
                        if spawnlike {
                            continue; // q did not exist before i: causal, not a race
                        }
                        // i unblocked q (generic blocking): race with what q waited on.
                        walk_back(i, &|_| true, &mut inserts);
                    }
                    _ => {
                        let mut v = notdep(i);
                        if stopped && i + 1 == n && !real {
                            // Reversing the stop itself: the stop still comes after the
                            // pending step.
                            v.push(evs[i].clone());
                        }
                        inserts.push((i, v, later(i)))
                    }
                }
            }
            if real {
                found[j].clear();
                found[j].extend(inserts[start..].iter().map(|x| x.0));
            }
        }
        self.found = found;
        // The last event is not reused as it stands: a stopped execution's counts its
        // stop, and what a step also touched (`amend`) is added at the next scheduling
        // point, which the last one may not reach.
        self.hb_ok = n.saturating_sub(1);
        self.clean = n.saturating_sub(1);
        self.index = index;
        self.stats.races += inserts.len() as u64;
        // An execution that ended with every awake goroutine asleep is no more maximal
        // than one a violation cut short: its sequences get the same sleep check.
        let cut = stopped || self.sleep_blocked;
        for (lvl, v, later) in inserts {
            let cover = if cut {
                Cover::Cut
            } else {
                let mut w = v.clone();
                let last = w.pop();
                w.extend(later);
                w.extend(last);
                Cover::Whole(w)
            };
            self.record(lvl, v, cover);
        }
    }

    /// A wakeup insertion at level `li`, with what a sleeping goroutine must do to
    /// cover it (`insert`): one at this subtree's root level or above is also its giver's
    /// to make.
    fn record(&mut self, li: usize, v: Vec<Event>, cover: Cover) {
        if let Some(r) = self.root
            && li <= r
        {
            // An insertion equal to the last one recorded at its level is a no-op
            // where the giver replays them (nothing else changes that level between
            // the two); a subtree meets the same race above its root in each of its
            // executions, so kept, the list would grow with them.
            if self.last_op.len() <= li {
                self.last_op.resize(li + 1, None);
            }
            let again =
                self.last_op[li].is_some_and(|i| self.ops[i].1 == v && self.ops[i].2 == cover);
            if !again {
                self.last_op[li] = Some(self.ops.len());
                self.ops.push((li, v.clone(), cover.clone()));
            }
            if li < r {
                return;
            }
        }
        if self.insert(li, v, cover) {
            self.stats.insertions += 1;
            // A branch given away here may no longer be the one this level takes next.
            if let Some(g) = self.given.get(li).and_then(Option::as_ref) {
                let mut next = self.stack[li].clone();
                advance(&mut next);
                if (&next.sleep, &next.cur, &next.carry)
                    != (&g.snap.sleep, &g.snap.cur, &g.snap.carry)
                {
                    let id = g.id;
                    self.stats.redone += 1;
                    self.given[li] = None;
                    self.cancel(id);
                }
            }
        }
    }

    /// Whether the execution's trace is its unit's: no goroutine asleep where the unit
    /// starts could go first in the rest of it. Else an earlier branch above the units
    /// has it, and its unit reaches it too.
    fn owned(&self) -> bool {
        let Some((_, at)) = self.unit else {
            return true;
        };
        if self.unit_sleep.is_empty() || at >= self.pos {
            return true;
        }
        let rest: Vec<Event> = (at..self.pos)
            .map(|k| self.stack[k].ev.clone().expect("executed"))
            .collect();
        !self.unit_sleep.iter().any(|e| sleep_covers(e, &rest))
    }

    /// insert_[pre](v) into the wakeup tree of level `li`, unless a sleeping thread is a
    /// weak initial of v (one asleep since the unit's start, or any where v comes from
    /// an execution `cut` short, by a violation or with every awake goroutine asleep:
    /// goes first in v). A weak initial that is not in v covers v only if it stays
    /// independent of what would follow v, which a cut execution does not show: the
    /// steps it never ran may conflict with it.
    /// Returns whether the tree changed.
    fn insert(&mut self, li: usize, v: Vec<Event>, cover: Cover) -> bool {
        let unit_sleep = &self.unit_sleep;
        let lvl = &mut self.stack[li];
        if lvl.expanded {
            return false;
        }
        let covered = |e: &SleepEntry| match &cover {
            Cover::Whole(w) if !unit_sleep.contains(e) => sleep_covers(e, w),
            _ => goes_first(e, &v),
        };
        if lvl.sleep.iter().any(covered) {
            return false;
        }
        let active = lvl.active_tid();
        insert_list(&mut lvl.pending, v, active)
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

/// Take the next pending child of a level as the child to explore.
/// Backtracks level `top` past its current child: the child joins the level's covered
/// branches (and its sleep set), and the next pending branch, if any, is taken.
fn advance(top: &mut Level) -> bool {
    if let Some(ev) = top.ev.take() {
        top.cur = None;
        top.carry.clear();
        top.covered.push((ev.tid, ev.choices.clone()));
        if !top.pending.iter().any(|p| p.ev.tid == ev.tid) && !top.asleep(ev.tid) {
            let acc = if top.stoppers.contains(&ev.tid) {
                Accesses::from_slice(&[(ANY, Access::Write)])
            } else {
                ev.accesses.clone()
            };
            let only = if top.partial.contains(&ev.tid) {
                Some(
                    top.covered
                        .iter()
                        .filter(|c| c.0 == ev.tid)
                        .map(|c| c.1.clone())
                        .collect(),
                )
            } else {
                None
            };
            top.sleep.push((ev.tid, acc, only));
        }
    } else {
        top.cur = None;
        top.carry.clear();
    }
    take_next(top)
}

fn take_next(lvl: &mut Level) -> bool {
    if !lvl.pending.is_empty() {
        let (ev, children) = lvl.pending.remove(0).split();
        lvl.carry = children;
        lvl.cur = Some(ev);
        lvl.ev = None;
        return true;
    }
    false
}

/// Is thread `t` (whose next step has accesses `acc`, and, for a wakeup-tree label,
/// the given choice prefix) a weak initial of `w`?  Some(Some(k)): its first event in
/// w is w[k]; Some(None): t does not occur in w and is independent of all of it.
fn weak_initial(
    t: Tid,
    acc: &[(Obj, Access)],
    label: Option<(&[u32], bool)>,
    w: &[Event],
) -> Option<Option<usize>> {
    if let Some(k) = w.iter().position(|e| e.tid == t) {
        if w[..k].iter().any(|e| conflict(&e.accesses, &w[k].accesses)) {
            return None;
        }
        if let Some((ch, comp)) = label
            && !choices_compatible(ch, comp, &w[k].choices, w[k].complete)
        {
            return None;
        }
        Some(Some(k))
    } else if w.iter().any(|e| conflict(acc, &e.accesses)) {
        None
    } else {
        Some(None)
    }
}

/// Inserts every root-to-leaf sequence of the wakeup trees `from` into `into`.
fn graft(from: &[WuNode], into: &mut Vec<WuNode>) {
    let mut paths = Vec::new();
    for c in from {
        leaf_paths(c, &mut Vec::new(), &mut paths);
    }
    for w in paths {
        insert_list(into, w, None);
    }
}

/// Every root-to-leaf sequence of the wakeup subtree at `node`, each after `path`.
fn leaf_paths(node: &WuNode, path: &mut Vec<Event>, out: &mut Vec<Vec<Event>>) {
    let base = path.len();
    let mut stack = vec![(node, base)];
    while let Some((n, depth)) = stack.pop() {
        path.truncate(depth);
        path.push(n.ev.clone());
        if n.children.is_empty() {
            out.push(path.clone());
        }
        stack.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
    }
    path.truncate(base);
}

fn insert_list(mut list: &mut Vec<WuNode>, mut w: Vec<Event>, mut active: Option<Tid>) -> bool {
    loop {
        if w.is_empty() {
            return false;
        }
        let mut below = None;
        for (i, c) in list.iter_mut().enumerate() {
            if let Some(r) = weak_initial(
                c.ev.tid,
                &c.ev.accesses,
                Some((&c.ev.choices, c.ev.complete)),
                &w,
            ) {
                if let Some(k) = r {
                    if !c.ev.complete && (w[k].complete || w[k].choices.len() > c.ev.choices.len())
                    {
                        c.ev.choices = w[k].choices.clone();
                        c.ev.complete = w[k].complete;
                    }
                    w.remove(k);
                }
                below = Some(i);
                break;
            }
        }
        // The rest of w goes below c, a leaf too. Optimal DPOR drops w at a leaf that
        // begins like it (a weak prefix), counting on the leaf's exploration to reach
        // it; that failed where a goroutine asleep below the leaf had made this
        // insertion from its own branch, and each counted on the other
        // (`a_sequence_a_branch_begins_is_still_followed`).
        if let Some(i) = below {
            list = &mut list[i].children;
            active = None;
            continue;
        }
        // New branch: the chain w.
        let mut chain: Option<WuNode> = None;
        for e in w.into_iter().rev() {
            let mut node = WuNode::leaf(e);
            if let Some(c) = chain.take() {
                node.children.push(c);
            }
            chain = Some(node);
        }
        let chain = chain.expect("w is not empty");
        let t = chain.ev.tid;
        if active == Some(t) {
            list.insert(0, chain);
        } else if let Some(p) = list.iter().rposition(|c| c.ev.tid == t) {
            list.insert(p + 1, chain);
        } else {
            list.push(chain);
        }
        return true;
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

/// The trace of each execution counted on this thread, when asked (`start`): to check
/// on a real model that no two executions are one trace, and that dpor reaches the
/// traces a search with every level expanded reaches (`explore::traces`).
pub(crate) mod record {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// An operation of a generated program: a read or a write of an object, a lock or
    /// an unlock of a mutex (a lock waits while the mutex is held).
    #[derive(Clone, Copy, Debug)]
    enum Op {
        Read(Obj),
        Write(Obj),
        Lock(Obj),
        Unlock(Obj),
        /// A write that also chooses between two values: on 1 the thread skips its
        /// next operation.
        Pick(Obj),
    }

    impl Op {
        fn access(self) -> (Obj, Access) {
            match self {
                Op::Read(o) => (o, Access::Read),
                Op::Write(o) | Op::Pick(o) => (o, Access::Write),
                Op::Lock(m) => (m, Access::Acquire),
                Op::Unlock(m) => (m, Access::Release),
            }
        }
    }

    /// A program's state: each thread's next operation, and who holds each mutex.
    #[derive(Clone)]
    struct Run<'a> {
        threads: &'a [Vec<Op>],
        pc: Vec<usize>,
        held: Vec<(Obj, usize)>,
    }

    impl<'a> Run<'a> {
        fn new(threads: &'a [Vec<Op>]) -> Self {
            Run {
                threads,
                pc: vec![0; threads.len()],
                held: Vec::new(),
            }
        }
        /// Enabled and blocked threads' next steps.
        fn next(&self) -> (Vec<Next>, Vec<Next>) {
            let (mut enabled, mut blocked) = (Vec::new(), Vec::new());
            for (t, ops) in self.threads.iter().enumerate() {
                let Some(&op) = ops.get(self.pc[t]) else {
                    continue;
                };
                let n = Next::new(t as Tid, Accesses::from_slice(&[op.access()]));
                match op {
                    Op::Lock(m) if self.held.iter().any(|h| h.0 == m) => blocked.push(n),
                    _ => enabled.push(n),
                }
            }
            (enabled, blocked)
        }
        fn step(&mut self, t: usize) -> (Tid, Obj, Access) {
            let op = self.threads[t][self.pc[t]];
            self.pc[t] += 1;
            match op {
                Op::Lock(m) => self.held.push((m, t)),
                Op::Unlock(m) => self.held.retain(|h| h.0 != m),
                _ => {}
            }
            let (o, a) = op.access();
            (t as Tid, o, a)
        }
    }

    /// An execution's Mazurkiewicz trace, as its lexicographically least linearisation
    /// (by thread) under the explorer's own dependence: two steps of one thread, or two
    /// that conflict, keep their order.
    fn canonical(exec: &[(Tid, Obj, Access)]) -> Vec<Tid> {
        let dep = |a: &(Tid, Obj, Access), b: &(Tid, Obj, Access)| {
            a.0 == b.0 || conflict(&[(a.1, a.2)], &[(b.1, b.2)])
        };
        let mut left: Vec<usize> = (0..exec.len()).collect();
        let mut out = Vec::new();
        while !left.is_empty() {
            // The ready steps: no earlier step left that they depend on.
            let k = (0..left.len())
                .filter(|&k| (0..k).all(|j| !dep(&exec[left[j]], &exec[left[k]])))
                .min_by_key(|&k| exec[left[k]].0)
                .expect("a ready step");
            out.push(exec[left[k]].0);
            left.remove(k);
        }
        out
    }

    /// Every trace of a program, by brute force: every interleaving, canonicalised.
    fn all_traces(run: Run, exec: &mut Vec<(Tid, Obj, Access)>, out: &mut BTreeSet<Vec<Tid>>) {
        let (enabled, _) = run.next();
        if enabled.is_empty() {
            out.insert(canonical(exec));
            return;
        }
        for n in enabled {
            let mut r = run.clone();
            exec.push(r.step(n.tid as usize));
            all_traces(r, exec, out);
            exec.pop();
        }
    }

    /// The traces explorer `x` reaches on a program (each counted once, or it
    /// panics), how many executions counted, and how many ran.
    fn drive(mut x: Explorer, threads: &[Vec<Op>]) -> (BTreeSet<Vec<Tid>>, u64, u64) {
        let (mut seen, mut counted) = (BTreeSet::new(), 0);
        while x.begin() {
            let mut run = Run::new(threads);
            let mut exec = Vec::new();
            loop {
                let (enabled, blocked) = run.next();
                if enabled.is_empty() {
                    if x.end(Vec::new(), blocked) {
                        assert!(seen.insert(canonical(&exec)), "counted twice: {threads:?}");
                        counted += 1;
                    }
                    break;
                }
                let Some(t) = x.schedule(enabled, blocked) else {
                    x.end_here();
                    break;
                };
                exec.push(run.step(t as usize));
            }
        }
        (seen, counted, x.stats.executions)
    }

    /// `STALEMATE_OPT_CASES` programs (300 by default), each with its traces by brute
    /// force.
    fn generated(seed: u64) -> impl Iterator<Item = (Vec<Vec<Op>>, BTreeSet<Vec<Tid>>)> {
        let cases = std::env::var("STALEMATE_OPT_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(300);
        let mut rng = seed;
        (0..cases).map(move |_| {
            let threads = program(&mut rng);
            let mut all = BTreeSet::new();
            all_traces(Run::new(&threads), &mut Vec::new(), &mut all);
            (threads, all)
        })
    }

    /// `analyze`'s shortcuts against the definitions they stand for, on random
    /// executions of up to 150 events (three words of bits): the candidates hold every
    /// dependent event before the step, `last` is the goroutine's latest event before
    /// it, and the bit walks (`ones_rev_below`, `latest_first`) visit what they should,
    /// in order.
    #[test]
    fn the_index_finds_every_dependent_event() {
        let mut rng = 0x5eed_u64;
        let mut next = |n: u64| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) % n
        };
        let kinds = [Access::Read, Access::Write, Access::Add, Access::Acquire];
        let mut index = Index::default();
        for round in 0..200 {
            let n = 1 + next(150) as usize;
            let objs = 1 + next(90);
            let evs: Vec<Event> = (0..n)
                .map(|_| {
                    let k = 1 + next(3);
                    let accesses = (0..k)
                        .map(|_| {
                            let o = if next(40) == 0 {
                                ANY
                            } else {
                                next(objs) * 7919
                            };
                            (o, kinds[next(4) as usize])
                        })
                        .collect();
                    Event {
                        tid: next(6),
                        accesses,
                        choices: vec![],
                        complete: true,
                    }
                })
                .collect();
            let refs: Vec<&Event> = evs.iter().collect();
            let sigs: Vec<u64> = evs.iter().map(|e| signature(&e.accesses)).collect();
            let words = n.div_ceil(64);
            // Filled over the last round's room, as `analyze` does.
            index.fill(&refs, &sigs, words);
            let mut cand = vec![0u64; words];
            for j in 0..=n {
                let tgt = &evs[j.min(n - 1)];
                let st = sigs[j.min(n - 1)];
                index.candidates(st, tgt.tid, j, &mut cand);
                let set: Vec<usize> = ones(&cand).collect();
                assert!(
                    set.iter().all(|&i| i < j),
                    "round {round}: a candidate at or after {j}"
                );
                for i in 0..j {
                    let dep = evs[i].tid == tgt.tid || conflict(&evs[i].accesses, &tgt.accesses);
                    assert_eq!(
                        dependent_sig(&evs[i], sigs[i], tgt, st),
                        dep,
                        "round {round}: the signature changed a dependence"
                    );
                    assert!(
                        !dep || set.contains(&i),
                        "round {round}: {i} missed before {j}"
                    );
                }
                let last = (0..j).rev().find(|&i| evs[i].tid == tgt.tid);
                assert_eq!(
                    index.last(tgt.tid, j),
                    last,
                    "round {round}: last before {j}"
                );
                let below: Vec<usize> = ones_rev_below(&cand, j).collect();
                let mut want = set.clone();
                want.reverse();
                assert_eq!(below, want, "round {round}: the walk down from {j}");
                // Latest first: all of them while nothing is closed; only the first when
                // it closes everything below it.
                let mut seen = vec![0u64; words];
                let mut met = Vec::new();
                latest_first(&cand, &mut seen, |i, _| met.push(i));
                assert_eq!(met, want, "round {round}: latest first from {j}");
                met.clear();
                latest_first(&cand, &mut seen, |i, seen| {
                    met.push(i);
                    all_before(i, seen);
                });
                assert_eq!(met, want.first().copied().into_iter().collect::<Vec<_>>());
                let mut all = vec![0u64; words];
                all_before(j, &mut all);
                assert_eq!(ones(&all).collect::<Vec<_>>(), (0..j).collect::<Vec<_>>());
            }
        }
    }

    /// A generated program: 2 to 4 threads of 1 to 3 operations over two objects and a
    /// mutex (a lock, a write and the unlock, in one thread, are three), at most 10 in
    /// all.
    fn program(rng: &mut u64) -> Vec<Vec<Op>> {
        let mut next = |n: u64| {
            *rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*rng >> 33) % n
        };
        let threads = 2 + next(3) as usize;
        let mut total = 0;
        (0..threads)
            .map(|_| {
                let mut ops = Vec::new();
                let want = 1 + next(3) as usize;
                while ops.len() < want && total < 10 {
                    match next(5) {
                        0 | 1 => ops.push(Op::Read(1 + next(2))),
                        2 | 3 => ops.push(Op::Write(1 + next(2))),
                        _ if ops.len() + 3 <= 3 => {
                            ops.push(Op::Lock(9));
                            ops.push(Op::Write(1 + next(2)));
                            ops.push(Op::Unlock(9));
                        }
                        _ => ops.push(Op::Write(1 + next(2))),
                    }
                }
                total += ops.len();
                ops
            })
            .collect()
    }

    /// Optimality, measured: on generated programs of reads, writes and locks, the
    /// explorer reaches every trace that brute force finds (every interleaving,
    /// canonicalised) and runs one execution per trace (the issue allows 2x; docs/dpor.md
    /// gives the ratio).
    /// `STALEMATE_OPT_CASES=N` runs N programs (300 by default).
    #[test]
    fn one_execution_per_trace_on_generated_programs() {
        let (mut cases, mut traces, mut executions) = (0, 0, 0);
        for (threads, all) in generated(20261125) {
            cases += 1;
            let (seen, _, n) = drive(Explorer::new(), &threads);
            assert_eq!(seen, all, "{threads:?}");
            assert!(
                n <= 2 * all.len() as u64,
                "{n} for {} traces: {threads:?}",
                all.len()
            );
            traces += all.len() as u64;
            executions += n;
        }
        eprintln!("optimality: {cases} programs, {traces} traces, {executions} executions");
        assert_eq!(
            executions, traces,
            "{executions} executions for {traces} traces"
        );
    }

    /// A cut tree's units together reach every trace, each counted by one unit only,
    /// although a unit keeps the goroutines asleep where it starts asleep (so it does
    /// not explore the traces they begin, which are an earlier unit's).
    /// `STALEMATE_OPT_CASES=N` runs N programs (300 by default).
    #[test]
    fn units_count_every_trace_once_on_generated_programs() {
        let (mut cases, mut traces, mut executions) = (0, 0, 0);
        for (threads, all) in generated(20261127) {
            cases += 1;
            for depth in 1..=4 {
                let (seen, counted, n) = drive(Explorer::split(depth, None), &threads);
                let lost = all.difference(&seen).count();
                assert_eq!(lost, 0, "cut at {depth} lost traces: {threads:?}");
                assert!(seen.is_subset(&all));
                assert_eq!(counted, all.len() as u64);
                traces += all.len() as u64;
                executions += n;
            }
        }
        eprintln!("units: {cases} programs x 4 cuts, {traces} traces, {executions} executions");
    }

    /// Two threads each `Done` a counter that is at 1: whichever goes second takes it
    /// below zero (a fault, which stops the execution). Dones commute while the counter
    /// stays at zero or above (`Access::Add`), so after one thread's Done the other's,
    /// asleep with the Add it took in the first order, is now another step (a write):
    /// it must wake and run, or the second order's fault (the other thread's) is lost.
    #[test]
    fn a_step_whose_use_changed_wakes_from_sleep() {
        const WG: Obj = 1;
        let mut x = Explorer::new();
        let mut faulted = BTreeSet::new();
        while x.begin() {
            let mut counter = 1;
            let mut left: Vec<Tid> = vec![1, 2];
            loop {
                let how = if counter >= 1 {
                    Access::Add
                } else {
                    Access::Write
                };
                let enabled: Vec<Next> = left
                    .iter()
                    .map(|&t| Next::new(t, Accesses::from_slice(&[(WG, how)])))
                    .collect();
                if enabled.is_empty() {
                    x.end(Vec::new(), Vec::new());
                    break;
                }
                let Some(t) = x.schedule(enabled, Vec::new()) else {
                    x.end_here();
                    break;
                };
                left.retain(|&u| u != t);
                counter -= 1;
                if counter < 0 {
                    faulted.insert(t);
                    x.stop_after_last();
                    break;
                }
            }
        }
        assert_eq!(faulted, BTreeSet::from([1, 2]));
        assert_eq!(x.stats.executions, 2, "{:?}", x.stats);
    }

    /// A driver on one thread for `given_subtrees_explore_what_one_explorer_does`: it
    /// gives subtrees away whenever the rng says so and runs its explorers a few
    /// executions at a time, in an order the rng picks.
    #[derive(Default)]
    struct Desk {
        rng: u64,
        next: u64,
        ready: Vec<(Option<u64>, Explorer)>,
        parked: Vec<(u64, Option<u64>, Explorer)>,
        done: std::collections::BTreeMap<u64, Done>,
        cancelled: BTreeSet<u64>,
    }

    impl Desk {
        fn roll(&mut self, n: u64) -> u64 {
            self.rng = self
                .rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.rng >> 33) % n
        }
    }

    struct Hand(std::sync::Arc<std::sync::Mutex<Desk>>, Option<u64>);

    impl Helpers for Hand {
        fn hungry(&self) -> bool {
            self.0.lock().unwrap().roll(3) == 0
        }
        fn give(&mut self, unit: Explorer) -> u64 {
            let mut d = self.0.lock().unwrap();
            d.next += 1;
            let id = d.next;
            d.ready.push((Some(id), unit));
            id
        }
        fn take(&mut self, id: u64) -> Option<Done> {
            self.0.lock().unwrap().done.remove(&id)
        }
        fn cancel(&mut self, id: u64) {
            let mut d = self.0.lock().unwrap();
            d.cancelled.insert(id);
            d.done.remove(&id);
        }
        fn wanted(&self) -> bool {
            self.1
                .is_none_or(|id| !self.0.lock().unwrap().cancelled.contains(&id))
        }
    }

    /// Runs one execution of `threads` under `x`, which has begun it; returns the
    /// threads it ran, in order.
    fn one(x: &mut Explorer, threads: &[Vec<Op>]) -> Vec<Tid> {
        let mut run = Run::new(threads);
        let mut ran = Vec::new();
        loop {
            let (enabled, blocked) = run.next();
            if enabled.is_empty() {
                x.end(Vec::new(), blocked);
                return ran;
            }
            let Some(t) = x.schedule(enabled, blocked) else {
                x.end_here();
                return ran;
            };
            ran.push(t);
            let t = t as usize;
            let pick = matches!(threads[t][run.pc[t]], Op::Pick(_));
            run.step(t);
            if pick && x.choose(2) == 1 {
                run.pc[t] = (run.pc[t] + 1).min(threads[t].len());
            }
        }
    }

    /// The root explorer's figures when subtrees are given away and explored in the
    /// rng's order (`Desk`), and where it stopped: the first execution that runs the
    /// threads in the order `target` says (a violation, as the driver sees one).
    fn explored_given(threads: &[Vec<Op>], seed: u64, target: &[Tid]) -> (Stats, Option<u64>) {
        let desk = std::sync::Arc::new(std::sync::Mutex::new(Desk {
            rng: seed,
            ..Desk::default()
        }));
        desk.lock().unwrap().ready.push((None, Explorer::new()));
        loop {
            let (ticket, mut x) = {
                let mut d = desk.lock().unwrap();
                assert!(!d.ready.is_empty(), "every explorer waits");
                let n = d.ready.len() as u64;
                let k = d.roll(n) as usize;
                d.ready.swap_remove(k)
            };
            x.set_helpers(Some(Box::new(Hand(desk.clone(), ticket))));
            let slice = 1 + desk.lock().unwrap().roll(4);
            let (mut ran, mut begun, mut hit) = (0, false, None);
            while ran < slice {
                begun = x.begin();
                if !begun {
                    break;
                }
                if one(&mut x, threads) == target {
                    hit = Some(x.stats.executions);
                    break;
                }
                ran += 1;
            }
            let mut d = desk.lock().unwrap();
            if hit.is_none() && x.waits().is_none() {
                hit = x
                    .halted
                    .take()
                    .and_then(|h| h.halt)
                    .map(|h| x.stats.executions + h.0);
            }
            if let Some(at) = hit {
                match ticket {
                    None => return (x.stats, Some(at)),
                    Some(id) if !d.cancelled.contains(&id) => {
                        d.done.insert(id, x.stopped(at, 1));
                    }
                    Some(_) => {}
                }
            } else if begun {
                d.ready.push((ticket, x));
                continue;
            } else if let Some(id) = x.waits() {
                d.parked.push((id, ticket, x));
            } else if let Some(id) = ticket {
                if !d.cancelled.contains(&id) {
                    let done = x.done();
                    assert_no_repeats(&done);
                    d.done.insert(id, done);
                }
            } else {
                return (x.stats, None);
            }
            // Explorers whose subtree has finished (or was cancelled) go on.
            let parked = std::mem::take(&mut d.parked);
            for (id, t, x) in parked {
                if d.done.contains_key(&id) || d.cancelled.contains(&id) {
                    d.ready.push((t, x));
                } else {
                    d.parked.push((id, t, x));
                }
            }
        }
    }

    /// A subtree's insertions for its giver hold no insertion equal to the last one
    /// at its level (a no-op where the giver replays them; kept, they grew with the
    /// subtree's executions).
    fn assert_no_repeats(done: &Done) {
        let mut last: std::collections::BTreeMap<usize, &(usize, Vec<Event>, Cover)> =
            Default::default();
        for op in &done.ops {
            assert!(
                last.insert(op.0, op) != Some(op),
                "repeated at level {}",
                op.0
            );
        }
    }

    /// Subtrees given away to other explorers (`Explorer::give`), explored in any order
    /// and taken back where they still hold, make the same exploration as one explorer
    /// alone: the same executions and the same complete ones, on every generated
    /// program and for several orders; and the same first "violation" (an execution
    /// that runs the threads in a given order, picked among the lone explorer's), at
    /// the same execution number, which holds only if the executions come in the same
    /// order.
    #[test]
    fn given_subtrees_explore_what_one_explorer_does() {
        let mut rng = 20261201u64;
        let mut sums = (0, 0, 0);
        for case in 0..300 {
            let mut threads = program(&mut rng);
            // Half the programs choose too.
            if case % 2 == 0 {
                for ops in &mut threads {
                    if let Some(Op::Write(o)) = ops.first().copied() {
                        ops[0] = Op::Pick(o);
                    }
                }
            }
            let mut alone = Explorer::new();
            let mut orders = Vec::new();
            while alone.begin() {
                orders.push(one(&mut alone, &threads));
            }
            for seed in 0..4 {
                let (s, at) = explored_given(&threads, case * 10 + seed, &[Tid::MAX]);
                assert_eq!(at, None);
                assert_eq!(
                    (s.executions, s.complete),
                    (alone.stats.executions, alone.stats.complete),
                    "{threads:?} seed {seed}"
                );
                sums.0 += s.gave;
                sums.1 += s.adopted;
                sums.2 += s.redone;
                for t in 0..2u64 {
                    let pick = (case * 7 + seed * 13 + t * 31) as usize % orders.len();
                    let target = &orders[pick];
                    let first = orders.iter().position(|o| o == target).unwrap() as u64 + 1;
                    let (_, at) = explored_given(&threads, case * 100 + seed * 10 + t, target);
                    assert_eq!(at, Some(first), "{threads:?} seed {seed} target {target:?}");
                }
            }
        }
        eprintln!(
            "given away {}, taken back {}, in vain {}",
            sums.0, sums.1, sums.2
        );
        assert!(sums.1 > 1000 && sums.2 > 0, "{sums:?}");
    }
}
