//! The state behind the world's lock: goroutines, objects, trace. Its children hold
//! happens-before (`hb`), the virtual clock (`clock`) and what a next step is (`open`).

mod clock;
mod hb;
mod open;

pub(crate) use hb::place;
use hb::*;

use super::Options;
use crate::engine::{Join, Thread, ThreadKey};
use crate::verdict::{Fault, Property, Violation};
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub(crate) type Gid = usize;
pub(crate) type Oid = usize;
/// A value in a channel or a hand-off, with the history of the goroutine that sent it
/// (`Gor::hist`): which value it is, for the stateful search, without knowing its type.
pub(crate) struct Val {
    pub v: Box<dyn Any + Send>,
    pub tag: u128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Running,
    /// Waiting on a primitive.
    Blocked,
    /// Replay: waiting for its step in the schedule.
    Turn,
    /// main, after returning: waiting for the other goroutines.
    Joining,
    Done,
}

/// How timers, tickers and sleeps relate to the other steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeMode {
    /// A timer may fire, and a sleep may end, at any step: every order is explored,
    /// including orders real durations rule out (a 5 s timeout before a 100 ms tick).
    #[default]
    Any,
    /// Durations count: a virtual clock advances to the next deadline only when every
    /// goroutine is blocked, as in Go's `testing/synctest`.
    Virtual,
}

impl TimeMode {
    pub const ALL: [TimeMode; 2] = [TimeMode::Any, TimeMode::Virtual];

    /// The mode of a scenario's `[time] mode` value.
    pub fn from_key(key: &str) -> Option<TimeMode> {
        TimeMode::ALL.into_iter().find(|m| m.key() == key)
    }

    /// The name used in scenario files.
    pub fn key(self) -> &'static str {
        match self {
            TimeMode::Any => "any",
            TimeMode::Virtual => "virtual",
        }
    }
}

/// Steps of one execution, in goroutines' step bounds: past it, the execution is cut
/// whatever its goroutines still have left.
pub const EXECUTION_BOUND: usize = 16;

/// What a goroutine that reaches `max_steps` becomes (shuttle's `MaxSteps`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AtMaxSteps {
    /// Cut: it takes no more steps, and once no goroutine can move the execution
    /// ends with no verdict, and the search goes on (`ContinueAfter`). A finding there
    /// needs evidence (`detect::at_cut`); a search that cut any execution is no proof.
    #[default]
    Cut,
    /// Fail with `violation:step-bound` (`FailAfter`): for a model whose executions
    /// must end.
    Fail,
}

impl AtMaxSteps {
    pub const ALL: [AtMaxSteps; 2] = [AtMaxSteps::Cut, AtMaxSteps::Fail];

    /// The name used in scenario files (`[bounds] at_max_steps`).
    pub fn key(self) -> &'static str {
        match self {
            AtMaxSteps::Cut => "cut",
            AtMaxSteps::Fail => "fail",
        }
    }

    pub fn from_key(key: &str) -> Option<AtMaxSteps> {
        AtMaxSteps::ALL.into_iter().find(|m| m.key() == key)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    Send,
    Recv,
}

/// What a blocked goroutine waits for.
#[derive(Clone, Debug)]
pub(crate) enum Wait {
    Lock(Oid),
    RLock(Oid),
    WLock(Oid),
    /// A channel operation or a select: (channel, direction) per case.
    Chan(Vec<(Oid, Dir)>),
    Group(Oid),
    Once(Oid),
    /// `sync.Cond.Wait`, parked until signalled.
    Cond(Oid),
    /// `time.Sleep` in virtual time: until the clock reaches this.
    Sleep(std::time::Duration),
    /// A polling loop that went round without changing or seeing anything new (see
    /// `World::poll`): until another goroutine moves. The text names the loop.
    Poll(String),
    /// Cut at its step bound (`AtMaxSteps::Cut`): it takes no more steps in this
    /// execution, though in Go it would run on.
    Bound,
}

impl Wait {
    pub(super) fn objects(&self) -> Vec<Oid> {
        match self {
            Wait::Lock(o)
            | Wait::RLock(o)
            | Wait::WLock(o)
            | Wait::Group(o)
            | Wait::Once(o)
            | Wait::Cond(o) => vec![*o],
            Wait::Sleep(_) | Wait::Poll(_) | Wait::Bound => Vec::new(),
            Wait::Chan(cases) => cases.iter().map(|c| c.0).collect(),
        }
    }
}

/// Who holds a lock, and since when.
#[derive(Clone, Debug)]
pub(crate) struct Holder {
    pub gid: Gid,
    pub step: usize,
    pub func: &'static str,
}

pub(crate) struct Chan {
    /// A nil channel (`var c chan T`): never ready, blocks forever.
    pub nil: bool,
    /// A done channel (`Go::done_chan`, a context's `Done()`): unbuffered, only
    /// received from and closed, never sent on.
    pub done: bool,
    pub cap: usize,
    pub buf: VecDeque<Val>,
    pub closed: bool,
    /// Blocked receivers and senders: (goroutine, select case).
    pub recvq: VecDeque<(Gid, usize)>,
    pub sendq: VecDeque<(Gid, usize)>,
    /// Goroutines that ever received from / sent on (or closed) it: the peers a
    /// blocked goroutine is waiting for, in the wait-for report.
    pub receivers: BTreeSet<Gid>,
    pub senders: BTreeSet<Gid>,
    /// A buffered channel's slots' clocks: as Go's race detector has it, each value
    /// sent or received through the buffer syncs its goroutine with its slot only, so
    /// the k-th send happens before the k-th receive, the k-th receive before the
    /// (k+cap)-th send completes, and two sends (or receives) in different slots are
    /// not ordered (`State::sync_slot`).
    pub slots: Vec<Vec<u32>>,
    /// The slot the next receive takes (Go's `recvx`); the next send's is `recvx` plus
    /// the buffer's length.
    pub recvx: usize,
    /// Each goroutine's last send on it (a send case of a select included), for the
    /// race detector: Go's runtime reads the channel at every send and writes it at
    /// `close`, so a send and a close that nothing orders race.
    pub sends: Vec<Access>,
    /// The goroutine that fires this timer channel's tick in `any` time (`Go::after`'s,
    /// or an armed `time.NewTimer`'s until it is stopped): its try-send there is the
    /// tick, and nobody else sends there.
    pub ticker: Option<Gid>,
    /// The tick's place (`dpor`'s `Mode::Hand`), while its value is the buffer's only
    /// one: the ticker and its count of completed steps when it sent.
    pub tick: Option<(Gid, usize)>,
    /// Likewise the place of a plain send's value, while it is the buffer's only one
    /// and was sent into the empty buffer (`dpor`'s `Mode::Buffered`'s `place`).
    pub placed: Option<(Gid, usize)>,
}

impl Chan {
    /// Whether a case on it (a send if `send`) can proceed now, as a select finds it (a
    /// send on a closed channel proceeds, to its fault; a nil channel never).
    pub(crate) fn ready(&self, send: bool) -> bool {
        if self.nil {
            return false;
        }
        if send {
            self.closed || !self.recvq.is_empty() || self.buf.len() < self.cap
        } else {
            !self.buf.is_empty() || !self.sendq.is_empty() || self.closed
        }
    }

    /// The slot the next send into the buffer takes (Go's `sendx`).
    pub fn send_slot(&self) -> usize {
        (self.recvx + self.buf.len()) % self.cap
    }

    /// The slot the next receive takes, and moves the receive cursor past it.
    pub fn take_slot(&mut self) -> usize {
        let i = self.recvx;
        self.recvx = (i + 1) % self.cap;
        i
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnceState {
    New,
    Running(Gid),
    Done,
}

pub(crate) enum ObjKind {
    Mutex {
        holder: Option<Holder>,
    },
    RwMutex {
        writer: Option<Holder>,
        pending: Option<Gid>,
        readers: Vec<Holder>,
    },
    Chan(Chan),
    WaitGroup {
        count: i64,
        /// What the race detector checks of its use (`WaitGroupUse`).
        uses: WaitGroupUse,
    },
    Once {
        state: OnceState,
    },
    /// `sync.Cond`: the goroutines that took a ticket in `Wait` and were not signalled
    /// yet, in ticket order; those signalled before they parked; who ever signalled.
    Cond {
        waiting: VecDeque<Gid>,
        signalled: BTreeSet<Gid>,
        signallers: BTreeSet<Gid>,
    },
    /// A plain shared variable: accesses are checked for data races.
    Var(VarState),
    /// A `sync/atomic` value: its operations do not race with each other; a plain
    /// access of the same variable (`Atomic::plain_load`) races with them.
    Atomic {
        value: i64,
        var: VarState,
    },
    /// The clock of `any` time mode, for a program that reads it (`Go::use_clock`):
    /// `State::now`, which each sleep moves on; an object so that the engines order
    /// every reading of it against every move.
    Clock,
}

/// One access to a plain variable: who, at which of its epochs, at which step, where.
#[derive(Clone, Debug)]
pub(crate) struct Access {
    pub gid: Gid,
    pub epoch: u32,
    pub step: usize,
    pub func: &'static str,
    /// A `sync/atomic` operation: it races with plain accesses only, never with
    /// another atomic one (Go's race detector, as ThreadSanitizer has it).
    pub atomic: bool,
}

/// A WaitGroup's use as Go annotates it for the race detector: an `Add` that takes
/// the counter up from zero reads the WaitGroup's semaphore, a `Wait` writes it, so
/// the two race unless one happens before the other (Go's rule: an `Add` from zero
/// happens before every `Wait` it is meant for, and after every `Wait` before it).
/// Go writes only in a `Wait` that blocks; stalemate checks every `Wait`, as any of
/// them blocks in the schedule that calls it right after the `Add` (docs/go-semantics.md).
#[derive(Clone, Debug, Default)]
pub(crate) struct WaitGroupUse {
    /// The `Add`s from zero so far, with the amount added.
    pub adds: Vec<(Access, i64)>,
    /// The `Wait` calls so far.
    pub waits: Vec<Access>,
}

#[derive(Default)]
pub(crate) struct VarState {
    pub last_write: Option<Access>,
    /// Atomic writes that the last write (atomic too) does not follow: two atomic
    /// accesses never race, so one need not happen before the other, and a later plain
    /// access must be checked against each. One per goroutine, its latest.
    pub concurrent: Vec<Access>,
    /// Reads since the last write, and atomic reads that it does not follow.
    pub reads: Vec<Access>,
    /// The history of the goroutine that wrote the value (`Gor::hist`), which made it;
    /// 0 for the initial value, which its maker's history decides.
    pub tag: u128,
}

pub(crate) struct Obj {
    pub name: String,
    /// Goroutines to wake when the object changes (all but channels).
    pub waiters: Vec<Gid>,
    pub kind: ObjKind,
    /// What its last releases knew (vector clock), for happens-before.
    pub vc: Vec<u32>,
    /// An RWMutex's: what its read locks given back knew (Go's race detector's
    /// `writerSem`), which only its writers learn (`Hb::Writer`).
    pub rvc: Vec<u32>,
    /// Plain copies of a `sync` value's state (a kernel's struct copied with its
    /// mutex): Go reads the state plainly, and its operations write it atomically, so
    /// a copy races with an operation that nothing orders with it (`State::copied`).
    /// One per goroutine, its latest.
    pub copies: Vec<Access>,
    /// Each goroutine's latest completed operation on it, kept where a plain copy of
    /// its state can happen (a kernel's `sync` values, with races checked).
    pub ops: Vec<Access>,
}

/// How a completed operation orders its goroutine with its objects (happens-before),
/// as Go's race detector annotates `sync`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Hb {
    /// Learns what the object's releases knew, and releases what it knows
    /// (`State::sync`): coarser than Go's memory model for most operations, so it may
    /// miss a race and never invents one.
    #[default]
    Sync,
    /// Releases only (`WaitGroup.Done`: Dones do not order each other).
    Release,
    /// Acquires only (a read lock taken: readers do not order each other).
    Acquire,
    /// Releases into what only writers learn (a read lock given back).
    ReaderRelease,
    /// `Sync`, and learns what every read lock given back knew (a write lock taken).
    Writer,
    /// Releases by replacing what the object knew with what the goroutine knows
    /// (ThreadSanitizer's `ReleaseStore`, Go's atomic store): a later load is ordered
    /// after this store, not after the stores it overwrote.
    Store,
    /// Orders nothing with the object: `WaitGroup.Add` above zero (Go's race detector
    /// only checks it against a `Wait`, as misuse), and a buffered channel's send or
    /// receive, which syncs with its slot instead (`State::sync_slot`).
    Unordered,
}

pub(crate) struct Gor {
    pub name: String,
    pub key: Option<ThreadKey>,
    pub thread: Option<Thread>,
    pub status: Status,
    pub funcs: Vec<&'static str>,
    pub wait: Option<Wait>,
    /// Hand-offs from other goroutines while blocked:
    /// the select case that fired, with the value received (None: closed channel).
    pub fired: Option<(usize, Option<Val>)>,
    /// The blocked operation was completed by the goroutine that released what it
    /// waited for, as Go's runtime does: a read lock admitted when the writer unlocked,
    /// a WaitGroup's counter reaching zero, a Once done.
    pub granted: bool,
    /// A fault delivered while blocked (a channel closed under a waiting sender).
    pub fault: Option<Fault>,
    /// Values offered by the send cases of a blocked send or select.
    pub offers: Vec<(usize, Val)>,
    /// The clock's advances (`State::advances`) when it last began to wait at a
    /// channel (`go::chan`, a kept-back operation's place in line).
    pub queued: u64,
    /// Whether that wait, a select's, was its attempt kept back
    /// (`State::held_at_select`).
    pub held: bool,
    /// The channels of its select under way and whether each case sends
    /// (`Pending::Select`, `Pending::Try`).
    pub cases: Vec<(Oid, bool)>,
    /// Vector clock: what this goroutine has seen of each goroutine's epochs.
    pub vc: Vec<u32>,
    /// Everything the goroutine has observed, folded (`super::print::mix`): each
    /// completed operation's result, each model datum read, each object it made. Its
    /// code is deterministic, so this stands for its whole local state.
    pub hist: u128,
    /// Its own moves (`State::moves`).
    pub moves: u64,
    /// Where its last polling-loop head was, and what it saw there (`World::poll`).
    pub poll: Option<PollMark>,
    /// What its operation under way is, where an engine that reduces may use it
    /// (`World::marked`).
    pub pending: Option<Pending>,
    /// Its completed operations so far, against the step bound (`State::completed`).
    pub steps: usize,
}

/// An operation whose footprint depends on the state it meets (`World::marked`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// `Mutex.Lock`, `RWMutex.Lock`: if the mutex is held (for an RWMutex, by a writer,
    /// or another writer is first in line), its attempt only waits (it registers to be
    /// woken; unlock wakes every waiter to try again), which changes nothing another
    /// goroutine sees.
    Lock(Oid),
    /// `Mutex.Unlock`, `RWMutex.Unlock`.
    Unlock(Oid),
    /// `RWMutex.RLock`: one that gets in commutes with every other read lock taken or
    /// given back (readers do not order each other: `Hb::Acquire`).
    RLock(Oid),
    /// `RWMutex.RUnlock` (`Hb::ReaderRelease`).
    RUnlock(Oid),
    /// `WaitGroup.Done`: while it leaves the counter at zero or above, it commutes with
    /// every other such `Done` (a decrement; Go's `Done` returns nothing).
    Done(Oid),
    /// Main has returned: it waits for the other goroutines, and its last step, once
    /// they are done, is no operation.
    End,
    /// `WaitGroup.Wait`: while the counter is above zero its attempt only waits to be
    /// released at zero. Go requires an `Add` from zero to happen before a `Wait`, so
    /// the counter cannot rise again before a waiter released at zero returns: waiting,
    /// and trying once it is zero, are the same.
    Wait(Oid),
    /// A send (a select of one send case and no default) on a channel.
    Send(Oid),
    /// A receive (a select of one receive case and no default) from a channel.
    Recv(Oid),
    /// A select with no default and other than one case: its cases are the goroutine's
    /// `cases`.
    Select,
    /// A select with a default (a try): its cases are the goroutine's `cases`.
    Try,
    /// `close(ch)`.
    Close(Oid),
}

/// What a goroutine saw at a polling loop's head: if it sees the same at the next
/// round, nothing it did or read changed, and nothing will until another goroutine
/// moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PollMark {
    /// Which loop.
    pub site: u64,
    /// Other goroutines' moves so far.
    pub others: u64,
    /// The world's shape (`State::shape`).
    pub shape: u128,
    /// The goroutine's own variables, if they were looked at.
    pub local: Option<u128>,
}

impl Gor {
    pub(crate) fn new(name: &str, vc: Vec<u32>, hist: u128) -> Gor {
        Gor {
            name: name.to_string(),
            key: None,
            thread: None,
            status: Status::Running,
            funcs: Vec::new(),
            wait: None,
            fired: None,
            granted: false,
            fault: None,
            offers: Vec::new(),
            queued: 0,
            held: false,
            cases: Vec::new(),
            vc,
            hist,
            moves: 0,
            poll: None,
            pending: None,
            steps: 0,
        }
    }

    /// Whether another goroutine has completed this one's blocked operation.
    pub(crate) fn handed(&self) -> bool {
        self.fired.is_some() || self.granted || self.fault.is_some()
    }

    pub(crate) fn func(&self) -> &'static str {
        self.funcs.last().copied().unwrap_or("")
    }
}

/// One step of a schedule: the goroutine that takes it and, when it was a select with
/// more than one ready case, the case it chose (from 0). What a replay follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub gid: usize,
    pub case: Option<usize>,
}

/// One line of the trace.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub gid: Gid,
    /// The case chosen among several ready ones.
    pub case: Option<usize>,
    pub func: &'static str,
    pub text: String,
    /// The virtual time of the step, in virtual time mode.
    pub at: Option<std::time::Duration>,
}

pub(crate) struct State {
    pub gors: Vec<Gor>,
    pub objs: Vec<Obj>,
    pub trace: Vec<Step>,
    pub violation: Option<Violation>,
    pub aborted: bool,
    pub max_steps: usize,
    pub at_max_steps: AtMaxSteps,
    /// The execution reached `max_steps` and was cut (`AtMaxSteps::Cut`).
    pub cut: bool,
    /// A data race does not stop the execution (`Options::go_on`): Go's race detector
    /// reports it and the program goes on.
    pub go_on: bool,
    /// With `go_on`: the first race, and the steps of the trace that show it.
    pub race: Option<(Violation, usize)>,
    pub check_races: bool,
    pub replay: Option<Vec<Turn>>,
    /// The case chosen by the step being taken, for `record`.
    pub chosen: Option<usize>,
    pub to_unpark: Vec<Thread>,
    pub joins: Vec<Join>,
    pub record_joint: bool,
    pub joint: std::collections::BTreeSet<Vec<String>>,
    /// Goroutines this step completed by a hand-off, with the object: they synchronise
    /// with it when the step ends (see `hand_off`).
    pub handoffs: Vec<(Gid, Oid, Hb)>,
    /// Objects the running step took a woken goroutine off, besides the one it
    /// operated on: a select waits on each of its channels, and whoever completes it
    /// withdraws it from all of them (see `World::withdrawn`); marked where the case
    /// is a receive at an open done channel (`dpor::Access::Leave`).
    pub withdrawn: Vec<(Oid, bool)>,
    /// How the operation being attempted orders its goroutine with its objects once
    /// it completes (`State::order`).
    pub hb: Hb,
    /// The one object among the operation's that `hb` applies to, if not all: the
    /// channel of the case a select took (Go syncs with that channel only).
    pub hb_only: Option<Oid>,
    /// A loom operation spanned objects of different points: the execution was
    /// abandoned, and the exploration must start again with larger groups.
    pub regroup: bool,
    /// loom's sleep sets found this execution equivalent to one explored already, and
    /// it was cut short (see `World::prune`).
    pub pruned: bool,
    pub time: TimeMode,
    /// The virtual clock (virtual time mode).
    pub now: std::time::Duration,
    /// How often the clock moved on with every goroutine waiting (a sleeper, a timer,
    /// `synctest.Wait`): what happened before an advance happened before what follows.
    pub advances: u64,
    /// Virtual time mode: timers not yet fired (deadline, channel), in creation order.
    pub timers: Vec<(std::time::Duration, Oid)>,
    /// Timers a goroutine fires (`go.timer` in `any` time mode, `go.after_func`) that
    /// it has not fired yet and no `Stop` has stopped: (channel, arming number).
    pub armed: Vec<(Oid, u64)>,
    /// Armings so far (`arm`).
    pub arms: u64,
    /// Steps get no text (see `Options::quiet`).
    pub quiet: bool,
    /// What the operation being attempted returns to its goroutine, beyond its being
    /// done (a received value's tag, a case): folded into its history when it is done.
    pub observed: u128,
    /// The model shares memory outside the world (`World::unchecked_memory`): its state
    /// has no fingerprint.
    pub unchecked: bool,
    /// Histories and value tags are kept (`World::prints`).
    pub prints: bool,
    /// Moves of every goroutine so far: a move is taking an operation's step (where the
    /// goroutine's plain writes since its last one are sure to be visible) or ending.
    pub moves: u64,
    /// Values that ever entered a channel or a variable: a poll's own writes.
    pub puts: u64,
    /// Goroutines blocked in a poll (`Wait::Poll`).
    pub polling: usize,
    /// What the model's goroutines reach (a kernel's interpreter knows): for leaks
    /// beside goroutines that run on (`detect::at_cut`).
    pub reach: Option<Reach>,
    /// The objects each of the library's own goroutines holds (a timer's, a ticker's
    /// channels): what they reach.
    pub holds: BTreeMap<Gid, Vec<Oid>>,
}

/// Given the goroutines that can still run and the values in channels' buffers, the
/// objects reachable from their stacks, from those values and from globals, and
/// which of the goroutines it knows the stacks of; `None` if it cannot tell now.
pub(crate) type Reach = std::sync::Arc<
    dyn Fn(&[Gid], &[&(dyn Any + Send)]) -> Option<(Vec<Oid>, Vec<Gid>)> + Send + Sync,
>;

impl State {
    pub(crate) fn new(opts: Options) -> State {
        let (gors, objs, trace) = super::buffers();
        State {
            gors,
            objs,
            trace,
            violation: None,
            aborted: false,
            max_steps: opts.max_steps,
            at_max_steps: opts.at_max_steps,
            cut: false,
            go_on: opts.go_on,
            race: None,
            check_races: opts.check_races,
            replay: opts.replay,
            chosen: None,
            to_unpark: Vec::new(),
            joins: Vec::new(),
            record_joint: opts.record_joint,
            joint: Default::default(),
            handoffs: Vec::new(),
            withdrawn: Vec::new(),
            hb: Hb::Sync,
            hb_only: None,
            regroup: false,
            pruned: false,
            time: opts.time,
            now: std::time::Duration::ZERO,
            advances: 0,
            timers: Vec::new(),
            armed: Vec::new(),
            arms: 0,
            // Whoever installs a tracing subscriber sees every step's text.
            quiet: opts.quiet && !tracing::enabled!(tracing::Level::TRACE),
            observed: 0,
            unchecked: false,
            prints: false,
            moves: 0,
            puts: 0,
            polling: 0,
            reach: None,
            holds: BTreeMap::new(),
        }
    }

    /// Goroutine `me` moves (see `moves`): every poll blocked on its moving wakes.
    pub(crate) fn moved(&mut self, me: Gid) {
        self.moves += 1;
        self.gors[me].moves += 1;
        self.wake_polls(Some(me));
    }

    /// Wakes every goroutine waiting in a poll but `mover`; true if it woke one.
    fn wake_polls(&mut self, mover: Option<Gid>) -> bool {
        if self.polling == 0 {
            return false;
        }
        let mut woke = false;
        for g in 0..self.gors.len() {
            if Some(g) != mover && matches!(self.gors[g].wait, Some(Wait::Poll(_))) {
                self.wake(g);
                woke = true;
            }
        }
        woke
    }

    /// A new object, made by goroutine `by`, which learns its identity.
    pub(crate) fn add(&mut self, by: Gid, name: &str, kind: ObjKind) -> Oid {
        self.objs.push(Obj {
            name: name.to_string(),
            waiters: Vec::new(),
            kind,
            vc: Vec::new(),
            rvc: Vec::new(),
            copies: Vec::new(),
            ops: Vec::new(),
        });
        let o = self.objs.len() - 1;
        self.observe(by, o as u128);
        o
    }

    /// Goroutine `g` learns `x` outside an operation (see `Gor::hist`).
    pub(crate) fn observe(&mut self, g: Gid, x: u128) {
        if !self.prints {
            return;
        }
        let h = &mut self.gors[g].hist;
        *h = super::print::mix(*h, x);
    }

    /// Starts goroutine `name` as a child of `parent` (none for main): the child has
    /// seen all its parent had; the parent moves to a new epoch.
    pub(crate) fn spawn(&mut self, name: &str, parent: Option<Gid>) -> Gid {
        let g = self.gors.len();
        let mut vc = parent.map(|p| self.gors[p].vc.clone()).unwrap_or_default();
        vc.resize(g + 1, 0);
        vc[g] = 1;
        // The child starts from what its parent knew when it started it (its closure).
        let hist = super::print::mix(parent.map_or(0, |p| self.gors[p].hist), g as u128);
        self.gors.push(Gor::new(name, vc, hist));
        if let Some(p) = parent {
            self.gors[p].vc[p] += 1;
        }
        g
    }

    pub(crate) fn name(&self, g: Gid) -> &str {
        &self.gors[g].name
    }

    pub(crate) fn oname(&self, o: Oid) -> &str {
        &self.objs[o].name
    }

    /// An object's name for a step's text: empty in a quiet execution (see `say!`).
    pub(crate) fn label(&self, o: Oid) -> String {
        if self.quiet {
            String::new()
        } else {
            self.objs[o].name.clone()
        }
    }

    /// A goroutine's name for a step's text: empty in a quiet execution.
    pub(crate) fn gname(&self, g: Gid) -> String {
        if self.quiet {
            String::new()
        } else {
            self.gors[g].name.clone()
        }
    }

    /// In a replay, the recorded turn of step `step` (from 0); `None` past the
    /// schedule's end or outside a replay.
    fn replayed(&self, step: usize) -> Option<Turn> {
        self.replay.as_ref().and_then(|r| r.get(step).copied())
    }

    /// In a replay, the case the step being taken recorded.
    pub(crate) fn replayed_case(&self) -> Option<usize> {
        self.replayed(self.trace.len()).and_then(|t| t.case)
    }

    /// Which of the `ready` cases (at least one) goroutine `g`'s select takes: the
    /// engine's choice, or in a replay the recorded one.
    pub(crate) fn choose(
        &mut self,
        kind: crate::engine::Kind,
        g: Gid,
        ready: &[usize],
    ) -> Result<usize, Violation> {
        if ready.len() == 1 {
            return Ok(ready[0]);
        }
        let c = match &self.replay {
            None => ready[crate::engine::choose(kind, ready.len())],
            Some(_) => {
                let step = self.trace.len();
                match self.replayed(step).and_then(|t| t.case) {
                    Some(c) if ready.contains(&c) => c,
                    want => {
                        let cases: Vec<String> =
                            ready.iter().map(|c| (c + 1).to_string()).collect();
                        let msg = format!(
                            "the replay diverged at step {}: {}'s select has cases {} ready, and the schedule gives {}",
                            step + 1,
                            self.name(g),
                            cases.join(", "),
                            want.map_or("no case".to_string(), |c| format!("case {}", c + 1)),
                        );
                        return Err(Violation::new(Property::Diverged, msg));
                    }
                }
            }
        };
        self.chosen = Some(c);
        Ok(c)
    }

    /// Appends a step to the trace; enforces the step bound; in replay, wakes the
    /// goroutine whose step is next.
    pub(crate) fn record(&mut self, gid: Gid, text: String) {
        let func = self.gors[gid].func();
        // Every step, for whoever installs a tracing subscriber (free otherwise).
        tracing::trace!(step = self.trace.len() + 1, goroutine = %self.gors[gid].name, func, "{text}");
        let at = (self.time == TimeMode::Virtual).then_some(self.now);
        let case = self.chosen.take();
        self.trace.push(Step {
            gid,
            case,
            func,
            text,
            at,
        });
        if self.aborted {
            return;
        }
        // Each goroutine's bound is its own (`completed`), so where a cut falls depends
        // on no order of the others' steps; this one, on every goroutine's steps, only
        // stops a program that starts goroutines without end.
        if self.trace.len() >= self.max_steps.saturating_mul(EXECUTION_BOUND) {
            let msg = format!(
                "the execution reached {} steps ({EXECUTION_BOUND} goroutines' step bounds)",
                self.trace.len()
            );
            self.at_bound(msg);
            return;
        }
        if let Some(g) = self.replayed(self.trace.len()).map(|t| t.gid)
            && self.gors.get(g).is_some_and(|x| x.status == Status::Turn)
        {
            self.wake(g);
        }
    }

    /// Goroutine `g` completed an operation: one more against its step bound. Only
    /// completed operations count, not attempts that waited: whether a goroutine
    /// waited or came late is no behaviour of its own (and `dpor` keeps a goroutine
    /// back rather than let it wait), so the same behaviour meets its bound at the
    /// same operation in every order of the others' steps.
    pub(crate) fn completed(&mut self, g: Gid) {
        self.gors[g].steps += 1;
        if self.gors[g].steps >= self.max_steps
            && self.at_max_steps == AtMaxSteps::Fail
            && !self.aborted
        {
            let msg = format!(
                "{} reached the step bound ({} operations): a livelock, or a bound too small for the model",
                self.gors[g].name, self.max_steps
            );
            self.fail(Violation::new(Property::StepBound, msg));
        }
    }

    /// A data race the step just recorded found, with `go_on`: kept, and the execution
    /// goes on unchecked. False if it must stop there instead.
    pub(crate) fn races_on(&mut self, v: &Violation) -> bool {
        if !self.go_on || v.property != Property::DataRace {
            return false;
        }
        // The first is the execution's: checking stops there, so that a replay of the
        // steps that show it ends where they do.
        self.race = Some((v.clone(), self.trace.len()));
        self.check_races = false;
        true
    }

    /// The execution reached its bound (`message` says which): fails it
    /// (`AtMaxSteps::Fail`), or cuts it, with a finding only where the state at the cut
    /// is evidence of one (`detect::at_cut`).
    pub(crate) fn at_bound(&mut self, message: String) {
        if self.aborted {
            return;
        }
        if self.at_max_steps == AtMaxSteps::Fail {
            self.fail(Violation::new(Property::StepBound, message));
            return;
        }
        self.cut_here();
    }

    /// Ends the execution as cut: with the finding the state shows whatever the
    /// goroutines still running would go on to do (`detect::at_cut`), if any.
    fn cut_here(&mut self) {
        match super::detect::at_cut(self) {
            Some(v) => self.fail(v),
            None => {
                self.cut = true;
                self.abort();
            }
        }
    }

    /// Makes a waiting goroutine runnable and withdraws it from every wait queue.
    pub(crate) fn wake(&mut self, g: Gid) {
        let st = self.gors[g].status;
        if !matches!(st, Status::Blocked | Status::Turn | Status::Joining) {
            return;
        }
        if let Some(w) = self.gors[g].wait.take() {
            if matches!(w, Wait::Poll(_)) {
                self.polling -= 1;
            }
            let objects = w.objects();
            if let Wait::Chan(cases) = &w
                && cases.len() > 1
            {
                for &(o, dir) in cases {
                    let quiet = dir == Dir::Recv
                        && matches!(&self.objs[o].kind, ObjKind::Chan(c) if c.done && !c.closed && !c.nil);
                    self.withdrawn.push((o, quiet));
                }
            } else if objects.len() > 1 {
                self.withdrawn.extend(objects.iter().map(|&o| (o, false)));
            }
            for o in objects {
                let obj = &mut self.objs[o];
                obj.waiters.retain(|&x| x != g);
                if let ObjKind::Chan(c) = &mut obj.kind {
                    c.recvq.retain(|&(x, _)| x != g);
                    c.sendq.retain(|&(x, _)| x != g);
                }
            }
        }
        self.gors[g].status = Status::Running;
        if let Some(t) = self.gors[g].thread.clone() {
            self.to_unpark.push(t);
        }
    }

    /// Wakes every goroutine waiting on an object (they retry).
    pub(crate) fn wake_all(&mut self, o: Oid) {
        let ws = std::mem::take(&mut self.objs[o].waiters);
        for g in ws {
            self.wake(g);
        }
    }

    /// Records the first violation and aborts the execution: everyone waiting wakes
    /// and unwinds; everyone running unwinds at its next operation.
    pub(crate) fn fail(&mut self, v: Violation) {
        if v.property == Property::DataRace {
            // The race detector's verdict reads the clocks of earlier accesses, which
            // no step declares (model data, a plain access of an atomic): the step
            // that stops at it depends on every earlier step.
            crate::engine::race_stop();
        }
        if self.violation.is_none() {
            self.violation = Some(v);
        }
        self.abort();
    }

    /// Aborts the execution: everyone waiting wakes and unwinds.
    pub(crate) fn abort(&mut self) {
        self.aborted = true;
        crate::engine::aborted();
        // These wake-ups only unwind: no select they take off was completed by the
        // step, which touched no more of its channels than it did.
        let withdrawn = self.withdrawn.len();
        for g in 0..self.gors.len() {
            self.wake(g);
        }
        self.withdrawn.truncate(withdrawn);
    }

    /// Called whenever a goroutine stops running. If no goroutine can run any more,
    /// the execution is over: normally (main joining, all done) or stuck.
    pub(crate) fn check_stuck(&mut self) {
        if self.aborted {
            return;
        }
        // Called at every block and every end: no allocation here.
        if self.gors.iter().any(|g| g.status == Status::Running) {
            return;
        }
        let mut live = (0..self.gors.len()).filter(|&g| self.gors[g].status != Status::Done);
        let Some(first) = live.next() else {
            return;
        };
        if live.next().is_none() && self.gors[first].status == Status::Joining {
            self.wake(first);
            return;
        }
        if self.advance_clock() {
            return;
        }
        if let Some(t) = (0..self.gors.len()).find(|&g| self.gors[g].status == Status::Turn) {
            let step = self.trace.len();
            let want = self.replayed(step).map(|t| t.gid);
            let who = want.map(|g| self.name(g).to_string()).unwrap_or_default();
            let msg = format!(
                "the replay diverged at step {}: the schedule gives it to {who}, which cannot take it (it is {}); {} and the others wait for their turn",
                step + 1,
                want.map(|g| self.describe_status(g)).unwrap_or_default(),
                self.name(t)
            );
            self.fail(Violation::new(Property::Diverged, msg));
            return;
        }
        crate::engine::stuck();
        if self
            .gors
            .iter()
            .any(|g| matches!(g.wait, Some(Wait::Bound)))
        {
            // Goroutines cut at their bound would run on: only what they cannot change
            // is a finding.
            self.cut_here();
            return;
        }
        let v = super::detect::analyze(self);
        self.fail(v);
    }

    fn describe_status(&self, g: Gid) -> &'static str {
        match self.gors[g].status {
            Status::Done => "finished",
            Status::Blocked => "blocked",
            Status::Joining => "waiting for the other goroutines",
            Status::Turn => "waiting for its turn",
            Status::Running => "running",
        }
    }
}
