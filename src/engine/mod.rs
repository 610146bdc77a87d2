//! The engines: dpor and loom (exhaustive), shuttle's random, PCT, DFS and stateful
//! searches, turmoil for the network side; and replay.
//!
//! This layer knows nothing of Go or of any model. It offers the handful of things the
//! world needs from a scheduler: spawn and join a thread, park and unpark one, and a
//! *point*: one engine-visible object per primitive that every operation on that
//! primitive touches, so the engine sees exactly which operations conflict.

pub(crate) mod dfs;
pub(crate) mod dpor;
pub(crate) mod loom_engine;
pub(crate) mod shuttle_engine;
pub(crate) mod stateful;
pub(crate) mod turmoil_engine;

use crate::net;
use std::sync::atomic::Ordering::SeqCst;

/// `dpor`'s default cut: none, one unit (the whole tree, explored by one thread).
/// A cut lets threads and parts share a tree at the cost of executions explored in
/// more than one unit (`engine::dpor`'s `split`).
pub const DPOR_SPLIT: u32 = 0;

/// The cut of a dpor run split into parts (`--shard`) whose scenario sets none: deep
/// enough for a hundred units or so on a real proof, which spreads the work evenly
/// over a few parts (docs/dpor.md, "Machines"); a shallow cut has too few units.
pub const DPOR_PART_SPLIT: u32 = 8;

/// loom's limit on threads per execution, main included (`loom::MAX_THREADS`).
pub(crate) const LOOM_MAX_THREADS: usize = loom::MAX_THREADS;

/// An engine with its settings: the one description of an engine, from the scenario
/// file to the report. `Engine::explore` is the one place an engine is picked; each
/// engine's policy is in its own file beside this one.
#[derive(Clone, Debug, PartialEq)]
pub enum Engine {
    /// Exhaustive (DPOR). `preemption_bound: None` explores every interleaving.
    Loom {
        preemption_bound: Option<usize>,
        max_branches: usize,
    },
    /// Uniformly random schedules from a seed.
    Random { seed: u64 },
    /// Probabilistic concurrency testing from a seed, bug depth `depth`.
    Pct { seed: u64, depth: usize },
    /// Depth-first search on shuttle over every schedule and every select choice (no
    /// partial-order reduction): `engine::dfs`.
    Dfs,
    /// `Dfs` that stops wherever it meets a state it has explored (`engine::stateful`):
    /// exhaustive, as a proof needs, over states instead of schedules.
    Stateful,
    /// stalemate's own optimal DPOR (`engine::dpor`): exhaustive, one execution per
    /// class of equivalent interleavings.
    Dpor,
    /// turmoil simulations of a model's network side, one per seed
    /// (`engine::turmoil_engine`); see [`crate::explore::explore_net`].
    Turmoil(net::Settings),
}

/// Every engine's name in scenario files and on the command line.
pub const KINDS: [&str; 7] = [
    "dpor",
    "loom",
    "shuttle-random",
    "shuttle-pct",
    "shuttle-dfs",
    "shuttle-stateful",
    "turmoil",
];

/// How one exploration is shared among threads and machines (`dpor` only; the other
/// engines run on one thread, the whole tree).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sharing {
    /// Threads exploring the tree together.
    pub threads: usize,
    /// Part `k` of `n`, or the whole tree.
    pub part: Option<(u32, u32)>,
    /// The depth of the cut that makes units (`dpor::split`).
    pub split: u32,
}

impl Sharing {
    /// One thread, the whole tree, no cut.
    pub(crate) const ONE: Sharing = Sharing {
        threads: 1,
        part: None,
        split: DPOR_SPLIT,
    };
}

impl Engine {
    /// The name used in scenario files (one of [`KINDS`]).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Engine::Loom { .. } => "loom",
            Engine::Random { .. } => "shuttle-random",
            Engine::Pct { .. } => "shuttle-pct",
            Engine::Dfs => "shuttle-dfs",
            Engine::Stateful => "shuttle-stateful",
            Engine::Dpor => "dpor",
            Engine::Turmoil(_) => "turmoil",
        }
    }

    /// Every setting, for reports and summaries.
    pub fn describe(&self) -> String {
        match self {
            Engine::Loom {
                preemption_bound,
                max_branches,
            } => {
                let b = preemption_bound.map_or("none".to_string(), |b| b.to_string());
                format!("loom (preemption bound {b}, max branches {max_branches})")
            }
            Engine::Random { seed } => format!("shuttle-random (seed {seed})"),
            Engine::Pct { seed, depth } => format!("shuttle-pct (seed {seed}, depth {depth})"),
            Engine::Dfs => "shuttle-dfs".to_string(),
            Engine::Stateful => "shuttle-stateful (visited states)".to_string(),
            Engine::Dpor => "dpor (optimal DPOR)".to_string(),
            Engine::Turmoil(s) => s.describe(),
        }
    }

    /// Only an exhaustive engine with no bound can call a pass a proof.
    pub fn proves(&self) -> bool {
        matches!(
            self,
            Engine::Loom {
                preemption_bound: None,
                ..
            } | Engine::Stateful
                | Engine::Dpor
        )
    }

    /// The runtime whose threads run an execution's goroutines: loom's, dpor's own, or
    /// shuttle's (every other thread engine schedules shuttle's tasks). `None`: turmoil
    /// runs a model's network side, not its goroutines.
    pub(crate) fn runtime(&self) -> Option<Kind> {
        match self {
            Engine::Loom { .. } => Some(Kind::Loom),
            Engine::Turmoil(_) => None,
            Engine::Dpor => Some(Kind::Dpor),
            _ => Some(Kind::Shuttle),
        }
    }

    /// What an exhausted search covered: a proof's words only for the engines that
    /// prove ([`Engine::proves`]).
    pub(crate) fn exhausted(&self) -> String {
        match self {
            Engine::Loom {
                preemption_bound: Some(b),
                ..
            } => format!("every interleaving with at most {b} preemptions"),
            Engine::Loom { .. } | Engine::Dpor => {
                "every interleaving (proven for these parameters)".into()
            }
            Engine::Stateful => "every reachable state (proven for these parameters)".into(),
            _ => "the search space is exhausted".into(),
        }
    }

    /// Whether one exploration's tree can be cut into parts, for threads and shards.
    pub(crate) fn splits(&self) -> bool {
        *self == Engine::Dpor
    }

    /// The same engine from another seed; `None` for the engines that take none.
    pub(crate) fn reseeded(&self, seed: u64) -> Option<Engine> {
        match self {
            Engine::Random { .. } => Some(Engine::Random { seed }),
            Engine::Pct { depth, .. } => Some(Engine::Pct {
                seed,
                depth: *depth,
            }),
            _ => None,
        }
    }

    /// Runs `body` once per execution the engine chooses, within `budget`, until one
    /// finds a violation, the tree is done or the budget is spent.
    pub(crate) fn explore(
        &self,
        sharing: Sharing,
        budget: &Budget,
        body: Body,
    ) -> Result<Explored, String> {
        match self {
            Engine::Loom {
                preemption_bound,
                max_branches,
            } => loom_engine::explore(*preemption_bound, *max_branches, budget, body),
            Engine::Random { seed } => shuttle_engine::random(*seed, budget, body),
            Engine::Pct { seed, depth } => shuttle_engine::pct(*seed, *depth, budget, body),
            Engine::Dfs => dfs::explore(budget, body),
            Engine::Stateful => stateful::explore(budget, body),
            Engine::Dpor => {
                let (k, n) = sharing.part.unwrap_or((0, 1));
                let part = Part {
                    k,
                    n,
                    ..Part::WHOLE
                };
                dpor::explore(sharing.threads, part, sharing.split, budget, body)
            }
            Engine::Turmoil(_) => Err(TURMOIL_THREADS.into()),
        }
    }
}

/// Why turmoil cannot run a model's goroutines.
pub(crate) const TURMOIL_THREADS: &str =
    "turmoil runs a model's network side (explore_net), not its goroutines";

/// The runtime that runs the current execution's threads ([`Engine::runtime`]): what
/// the world's primitives are built on. Policy belongs to the engine, not to this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Loom,
    Shuttle,
    /// `dpor`'s own runtime (`dpor::tasks`).
    Dpor,
}

/// One engine-visible object. Touching it is a scheduling point that conflicts with
/// every other access of the same point (a write), and with nothing else. Under loom
/// it is `loom::point::Point` from stalemate-loom: DPOR sees it, and it keeps no value.
/// shuttle's schedulers see no objects, only scheduling points: there a touch is
/// shuttle's `switch`, the scheduling point of each of its own primitives, without
/// the clocks and signature an atomic would keep.
///
/// Under `dpor` a point is an object the explorer knows by the same id in every
/// execution: a touch declares the goroutine's next step's access to it.
pub(crate) enum Point {
    Loom(loom::point::Point),
    Shuttle,
    Dpor(u64),
}

impl Point {
    pub(crate) fn new(kind: Kind) -> Point {
        match kind {
            Kind::Loom => Point::Loom(loom::point::Point::new()),
            Kind::Dpor => Point::Dpor(dpor::object()),
            Kind::Shuttle => Point::Shuttle,
        }
    }

    /// The point every step of a census reads and a violation writes (see
    /// `World::fail_with`): loom's. `dpor` needs none: it stops an execution at its
    /// violation (`dpor::aborted`).
    pub(crate) fn fate(kind: Kind) -> Option<Point> {
        match Point::new(kind) {
            Point::Loom(p) => Some(Point::Loom(p)),
            _ => None,
        }
    }

    /// A read of the point: conflicts only with touches.
    pub(crate) fn read(&self) {
        match self {
            Point::Loom(p) => p.read(),
            Point::Shuttle => switch_between(),
            // Only a census's fate is read, and dpor has none (`Point::fate`).
            Point::Dpor(_) => {}
        }
    }

    pub(crate) fn touch(&self) {
        match self {
            Point::Loom(p) => p.write(),
            Point::Shuttle => switch_between(),
            Point::Dpor(o) => {
                dpor::declare(*o, dpor::Access::Write);
                dpor::switch(true);
            }
        }
    }
}

/// The scheduling point of an operation on the objects of `points` (each point once).
/// loom sees an access to each; under `dpor` the one step declares them all; the
/// stateful search takes one switch per operation (a second would meet the state the
/// first did, and be cut as explored); random and PCT keep a switch per point, as their
/// seeds' schedules always had.
pub(crate) fn touch<'a>(kind: Kind, points: impl Iterator<Item = &'a Point>) {
    if kind == Kind::Dpor {
        let mut any = false;
        for p in points {
            if let Point::Dpor(o) = p {
                dpor::declare(*o, dpor::Access::Write);
            }
            any = true;
        }
        if any {
            dpor::switch(true);
        }
        return;
    }
    if kind == Kind::Shuttle && STATEFUL.with(|s| s.get()) {
        if points.count() > 0 {
            switch_between();
        }
        return;
    }
    for p in points {
        p.touch();
    }
}

/// The running goroutine's step has decided something from the whole world's state
/// (a poll that found nothing changed since its last round): an engine that reduces
/// must order it against every other step.
pub(crate) fn observed_all(kind: Kind) {
    if kind == Kind::Dpor {
        dpor::observed_all();
    }
}

/// The step being executed stops the execution at a verdict that read every earlier
/// step's doing (a data race: the clocks of the accesses it checks): under `dpor` it is
/// ordered against every one of them, even one its goroutine was kept back across.
pub(crate) fn race_stop() {
    dpor::race_stop();
}

/// The virtual clock has advanced, every goroutine being blocked, and woken some.
/// Returns whether the engine takes the advance as an event of its own (dpor: a step
/// after every step before it and before every step after it, whoever blocked last),
/// so that what it did (the selects its ticks completed) is no part of the step that
/// blocked last.
pub(crate) fn clock_advanced() -> bool {
    let own = dpor::active();
    if own {
        dpor::clock_advanced();
    }
    own
}

/// No goroutine can run (the violation about to be reported is the final state's).
pub(crate) fn stuck() {
    dpor::stuck();
}

/// The execution is aborted (a violation): an engine that reduces explores nothing
/// after it.
pub(crate) fn aborted() {
    dpor::aborted();
}

std::thread_local! {
    /// The exploration this thread works for, for the watchdog (0: none watched).
    static WATCH: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The execution the body just ran was cut at the step bound (`dpor`, whose
    /// wrappers know whether it counts).
    static CUT_RUN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// This thread works for exploration `id` (`world::watch`); the threads an engine
/// starts for it say so too, with `watch_current()`.
pub(crate) fn watch_enter(id: u64) {
    WATCH.with(|w| w.set(id));
}

/// The exploration this thread works for.
pub(crate) fn watch_current() -> u64 {
    WATCH.with(std::cell::Cell::get)
}

/// Says that the execution the body just ran was cut at the step bound (`dpor`).
pub(crate) fn cut_run() {
    CUT_RUN.with(|c| c.set(true));
}

/// Whether the execution the body just ran was cut; clears it.
pub(crate) fn take_cut_run() -> bool {
    CUT_RUN.with(|c| c.replace(false))
}

/// Whether the engine cuts executions short (`redundant`): loom's sleep sets, the
/// stateful search's visited states, dpor's redundant branches.
pub(crate) fn cuts(kind: Kind) -> bool {
    kind == Kind::Loom || kind == Kind::Dpor || STATEFUL.with(|s| s.get())
}

std::thread_local! {
    /// The number of alternatives of the choice being made, for a shuttle scheduler's
    /// `next_u64` (which takes no argument): shuttle runs every task of an execution on
    /// the thread that runs its scheduler.
    static ARITY: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One of `0..n`, chosen by the engine: loom explores every one, shuttle's random and
/// PCT schedulers draw it from their seeded generator, and `dfs` explores every one.
pub(crate) fn choose(kind: Kind, n: usize) -> usize {
    match kind {
        Kind::Loom => loom::choose(n),
        Kind::Dpor => dpor::choose(n),
        Kind::Shuttle => {
            use shuttle::rand::RngCore;
            ARITY.with(|a| a.set(n));
            let v = shuttle::rand::thread_rng().next_u64();
            ARITY.with(|a| a.set(0));
            (v % n as u64) as usize
        }
    }
}

/// The running execution's state fingerprint, as the world computes it.
type Fingerprint = Box<dyn Fn() -> Option<u128>>;

std::thread_local! {
    /// The stateful search runs (see `stateful`): the world shows it its states.
    static STATEFUL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The running execution's fingerprint, for the stateful scheduler: shuttle calls
    /// its scheduler on the thread that runs the execution.
    static STATE: std::cell::RefCell<Option<Fingerprint>> = const { std::cell::RefCell::new(None) };
    /// The stateful search has met a state it explored already.
    static CUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The scheduling point being taken is the world's, between two steps, where the
    /// world's state is all there is (shuttle has points of its own, in `spawn` say,
    /// where its tasks are half made).
    static BETWEEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// shuttle's scheduling point, at a state between two steps.
fn switch_between() {
    if STATEFUL.with(|s| s.get()) {
        BETWEEN.with(|b| b.set(true));
    }
    ::shuttle_engine::runtime::thread::switch();
}

/// The step just taken also touched `points` (found while it ran). Only `dpor` adds
/// them to the step: loom's points of objects selected together are one already
/// (`loom_engine::groups`), and shuttle's schedulers see no objects.
/// A point marked `quiet` is a select's receive case at an open done channel
/// (`dpor::Access::Leave`).
pub(crate) fn also_touched<'a>(kind: Kind, points: impl Iterator<Item = (&'a Point, bool)>) {
    if kind == Kind::Dpor {
        for (p, quiet) in points {
            if let Point::Dpor(o) = p {
                let how = if quiet {
                    dpor::Access::Leave
                } else {
                    dpor::Access::Withdraw
                };
                dpor::also(*o, how);
            }
        }
    }
}

/// The most threads (goroutines and `any`-mode timers, main included) one execution
/// may run: loom's fixed arrays hold 8; shuttle and dpor have no limit.
pub(crate) fn max_threads(kind: Kind) -> Option<usize> {
    (kind == Kind::Loom).then_some(LOOM_MAX_THREADS)
}

/// Whether an operation on several objects must find them sharing one point: loom's
/// DPOR sees one access per step, so objects a select names together are learnt as
/// groups, the learning execution aborting (see `loom_engine::groups`). shuttle's
/// schedulers and dpor see the whole step.
pub(crate) fn one_point_per_step(kind: Kind) -> bool {
    kind == Kind::Loom
}

/// Whether the engine keeps a goroutine back while its wait would be no event
/// (`State::open`): dpor's runtime. Its attempt runs only once every runnable
/// goroutine is kept back.
pub(crate) fn keeps_back(kind: Kind) -> bool {
    kind == Kind::Dpor
}

/// Whether a woken goroutine's retry touches its objects again. Under shuttle a touch
/// is only a scheduling point, and the retry has just had one (the switch that ran it);
/// loom's DPOR needs the access.
pub(crate) fn retry_touches(kind: Kind) -> bool {
    kind == Kind::Loom
}

/// Whether a census's clean executions give their last state's fingerprint: under
/// shuttle, whose exhaustive DFS is what the stateful search must reach.
pub(crate) fn census_prints(kind: Kind) -> bool {
    kind != Kind::Loom
}

/// Whether the engine running `kind` wants the world's state fingerprints.
pub(crate) fn wants_states(kind: Kind) -> bool {
    kind == Kind::Shuttle && STATEFUL.with(|s| s.get())
}

/// Installs (or with `None` removes) the running execution's fingerprint.
pub(crate) fn show_states(f: Option<Fingerprint>) {
    STATE.with(|s| *s.borrow_mut() = f);
}

/// Which operation found its channel closed (`Mode::Closed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClosedBy {
    /// A plain receive, which commutes with the close too: had it come first it would
    /// have waited, seen by nobody but a step at its channel, and the close would
    /// have completed it.
    Receive,
    /// A select with no default, which had it come first would have waited at all
    /// its channels, seen there: the race analysis's late select (`late.rs`).
    Select,
    /// A select with a default, which would not have waited.
    Try,
}

/// How a step uses the objects it touches, for an engine that reduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Any change: conflicts with every other step on the object.
    Write,
    /// Commutes with every other `Add` to the object, and only an `Acquire` reads it:
    /// a `WaitGroup.Done` that leaves the counter at zero or above (Go's `Done` returns
    /// nothing, and which one reaches zero nobody can tell).
    Add,
    /// Commutes with every other `Read` of the object, and races with the rest: a read
    /// lock that gets in, or is given back.
    Read,
    /// Takes a mutex: ordered after the unlock it waited for, and raced only against
    /// the mutex's other locks.
    Acquire,
    /// Releases a mutex.
    Release,
    /// A `WaitGroup.Wait`'s attempt above zero: it registers the waiter, which every
    /// order of the Dones releases, so it commutes with them (an `Add`); two waiters'
    /// attempts do not commute (the order they register is the order they are released
    /// in, which the happens-before of their release follows).
    Registers,
    /// A `WaitGroup.Wait` released at zero takes its result (as `Local`, after the
    /// step that released it) and is ordered after every `Done`, as a `Wait` that found
    /// the counter at zero is (an `Acquire` of the WaitGroup).
    Released,
    /// A send into a buffered channel's free slot or a receive from its oldest one,
    /// nobody waiting on the channel: an `Add` of the channel (every other use of it
    /// conflicts), a write of its send or receive cursor (sends conflict with sends,
    /// receives with receives) and slot `slot` (a send and a receive conflict only
    /// when they use one slot: the receive of the value the send put in, and the send
    /// into the room a receive left). The send releases the slot and the receive
    /// acquires it; the receive releases the slot's room and the next send into the
    /// slot acquires it. As a lock after the unlock it waited for, neither is reversed
    /// with the step it follows, before which it is kept back, at the empty buffer or
    /// the full one (`State::held_at_chan`).
    ///
    /// `place`: a send into the empty buffer, nobody waiting, that leaves its value
    /// with its place as well (`Chan::tick`), which a select whose only ready case it
    /// is takes as a hand-off's second half (`Hand`); a receive there joins nothing
    /// but reads the channel's receive line, so it is ordered against a select's wait.
    Buffered {
        recv: bool,
        slot: usize,
        place: Option<u64>,
    },
    /// A select with no default whose one ready case, `at`, is at a buffered channel
    /// with nobody waiting there (a send into a free slot, a receive of the oldest
    /// value: `Buffered`'s step there, no place left), every other case a receive at
    /// an open done channel or at a nil one. Had it come before the case was ready it
    /// would have been kept back (`State::held_at_select`), as a plain operation there
    /// is, so it is the plain operation's step at that channel; at each done channel
    /// it only finds the channel open, which nothing but a close changes, and what its
    /// presence there is no one's to see: a `Leave` of it, as a select woken from such
    /// a line leaves it (`dpor::Access::Leave`).
    Chosen { recv: bool, slot: usize, at: u32 },
    /// Half of a hand-off at an unbuffered channel (a plain operation, or a select with
    /// no default at unbuffered channels): the first half joins the line of its side
    /// and releases the place `place` it leaves there (`take: false`: a send or receive
    /// that waits, nobody of the other side waiting); the second writes the channel and
    /// acquires that place (`take: true`: the receive or send that finds it waiting,
    /// first in line; see `dpor::hand_into`). As a lock after the unlock it waited for, the second
    /// half is never reversed with the first: reversed, the two would meet the other
    /// way round, the second waiting and the first finding it, one behaviour; what the
    /// second half races with instead is what used the channel before the first
    /// (`race.rs`, "Release -> Acquire").
    ///
    /// `sends` has bit k set where the step's k-th channel (a select's k-th case) is
    /// a send, `at` is the case that takes (`take`), so that each channel is declared
    /// by its side. `buffered` has bit k set where a select's k-th case is at a
    /// buffered channel: there it neither waits as a half nor takes, and the step
    /// writes the channel (`dpor::hand_into`).
    Hand {
        take: bool,
        place: u64,
        sends: u64,
        at: u32,
        buffered: u64,
    },
    /// A close of an open channel, empty, no sender waiting: a write of the channel,
    /// but for a receive that waits there, which it completes as it would complete one
    /// that came after, and a plain receive after it, which would have waited had it
    /// come before (`Access::Close`).
    Close,
    /// A receive that finds its channel closed and empty, plain or a select's one ready
    /// case (`at`, `sends` as for `Hand`) among unbuffered channels: it reads the
    /// channel, so such receives commute (each takes the zero value and syncs with the
    /// close); at a select's other channels it finds nobody of the other side, as a
    /// taker does (`dpor::hand_into`). `by`: which operation found it so.
    Closed { sends: u64, at: u32, by: ClosedBy },
    /// Touches nothing shared: a goroutine whose blocked operation another completed
    /// (a hand-off) only takes its result (see `State::hand_off`; a released `Wait`
    /// is `Released`); one that ends a wait that is no operation (main waiting for the
    /// others, a poll).
    Local,
    /// Waits for ever at a nil channel (a send, a receive, or a select whose every
    /// case is at one): Go's runtime parks it at no object, and no step can complete
    /// it or see it but a poll, which reads every goroutine's moves. A write of an
    /// object of its goroutine's own, which only such a poll (`ANY`) conflicts with.
    Nil,
}

/// What the world says of its goroutines' next steps, each given to the callback with
/// its thread: whether it can go on without a wait that is no event, and how it uses
/// its objects (a goroutine not given: nothing known). See `World::marked`.
pub(crate) type Steps = Box<dyn Fn(&mut dyn FnMut(ThreadKey, bool, Mode))>;

/// Installs the running execution's `Steps`. Only `dpor` asks.
pub(crate) fn show_steps(kind: Kind, f: Steps) {
    if kind == Kind::Dpor {
        dpor::show_steps(f);
    }
}

/// The running execution's state now, if it has a fingerprint.
fn state() -> Option<u128> {
    STATE.with(|s| s.borrow().as_ref().and_then(|f| f()))
}

/// True once the running execution is known to be redundant: loom's sleep sets found
/// it equivalent to one explored already, or the stateful search met a state it has
/// explored. Nothing after this point is explored, so it may stop here.
pub(crate) fn redundant(kind: Kind) -> bool {
    match kind {
        Kind::Loom => loom::redundant(),
        Kind::Shuttle | Kind::Dpor => CUT.with(|c| c.get()),
    }
}

/// Tells loom whether model code between two Go operations touches only memory that
/// the race detector checks (see `World::unchecked_memory`): if so, a goroutine's step
/// with no operation pending (just started or woken) commutes with every other, and
/// sleep sets may keep it asleep. Shuttle's schedulers do not reduce.
pub(crate) fn assume_local_steps(kind: Kind, local: bool) {
    if kind == Kind::Loom {
        loom::assume_local_steps(local);
    }
}

/// The arity of the choice a shuttle scheduler's `next_u64` is asked for (0: none).
pub(crate) fn arity() -> usize {
    ARITY.with(|a| a.get())
}

/// A handle to unpark a thread.
#[derive(Clone)]
pub(crate) enum Thread {
    Loom(loom::thread::Thread),
    Shuttle(std::sync::Arc<Parker>),
    Dpor(usize),
}

impl Thread {
    pub(crate) fn unpark(&self) {
        match self {
            Thread::Loom(t) => t.unpark(),
            Thread::Shuttle(p) => p.unpark(),
            Thread::Dpor(t) => dpor::unpark(*t),
        }
    }

    /// Blocks the thread this handle belongs to (which must be the running one) until
    /// unparked, never spuriously.
    pub(crate) fn park(&self) {
        match self {
            Thread::Loom(_) => loom::thread::park(),
            Thread::Shuttle(p) => p.park(),
            Thread::Dpor(_) => dpor::park(),
        }
    }
}

/// A shuttle task's park token, on shuttle's engine directly.
///
/// shuttle's `park` may wake spuriously, and its DFS explores every spurious wake-up
/// (forever). This never wakes without a token. Neither call is a scheduling point of
/// its own: a park follows the blocked operation's touch, which was one, and blocks
/// (switching away); an unpark only makes a task runnable, which nothing can observe
/// before the next scheduling point (measured in `benches/engines.rs`, overhead).
pub(crate) struct Parker {
    task: ::shuttle_engine::runtime::task::TaskId,
    /// Unparks not yet consumed by a park.
    tokens: std::sync::atomic::AtomicUsize,
    /// The task is blocked in `park`.
    waiting: std::sync::atomic::AtomicBool,
}

impl Parker {
    fn park(&self) {
        use ::shuttle_engine::runtime::execution::ExecutionState;
        if self.tokens.load(SeqCst) == 0 {
            self.waiting.store(true, SeqCst);
            ExecutionState::with(|s| s.current_mut().block(false));
            switch_between();
        }
        self.tokens.fetch_sub(1, SeqCst);
    }

    fn unpark(&self) {
        use ::shuttle_engine::runtime::execution::ExecutionState;
        self.tokens.fetch_add(1, SeqCst);
        if self.waiting.swap(false, SeqCst) {
            ExecutionState::with(|s| s.get_mut(self.task).unblock());
        }
    }
}

/// Identifies the engine thread that is running.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThreadKey {
    Loom(loom::thread::ThreadId),
    Shuttle(::shuttle_engine::runtime::task::TaskId),
    Dpor(usize),
}

pub(crate) fn key(kind: Kind) -> ThreadKey {
    match kind {
        Kind::Loom => ThreadKey::Loom(loom::thread::current().id()),
        Kind::Shuttle => {
            ThreadKey::Shuttle(::shuttle_engine::runtime::execution::ExecutionState::me())
        }
        Kind::Dpor => ThreadKey::Dpor(dpor::current()),
    }
}

/// The running thread's key, and the handle that parks and unparks it.
pub(crate) fn register(kind: Kind) -> (ThreadKey, Thread) {
    match kind {
        Kind::Loom => {
            let t = loom::thread::current();
            (ThreadKey::Loom(t.id()), Thread::Loom(t))
        }
        Kind::Shuttle => {
            let task = ::shuttle_engine::runtime::execution::ExecutionState::me();
            let p = Parker {
                task,
                tokens: Default::default(),
                waiting: Default::default(),
            };
            (
                ThreadKey::Shuttle(task),
                Thread::Shuttle(std::sync::Arc::new(p)),
            )
        }
        Kind::Dpor => {
            let t = dpor::current();
            (ThreadKey::Dpor(t), Thread::Dpor(t))
        }
    }
}

pub(crate) enum Join {
    Loom(loom::thread::JoinHandle<()>),
    Shuttle(shuttle::thread::JoinHandle<()>),
    Dpor(usize),
}

impl Join {
    /// Waits for a thread that is known to be finishing (never for a blocked one).
    pub(crate) fn join(self) {
        // The threads catch every panic themselves, so join cannot fail.
        let _ = match self {
            Join::Loom(h) => h.join(),
            Join::Shuttle(h) => h.join(),
            Join::Dpor(t) => {
                dpor::join(t);
                Ok(())
            }
        };
    }
}

pub(crate) fn spawn(kind: Kind, f: impl FnOnce() + Send + 'static) -> Join {
    match kind {
        Kind::Loom => Join::Loom(loom::thread::spawn(f)),
        Kind::Dpor => Join::Dpor(dpor::spawn(Box::new(f))),
        Kind::Shuttle => Join::Shuttle(shuttle::thread::spawn(f)),
    }
}

/// Installs the engines' panic hooks in the one order that keeps runs quiet, once per
/// process. loom's threads end with a `generator` "done" panic that generator's own
/// hook filters out; shuttle's hook reports every panic it sees. Shuttle's must be
/// installed first, so that generator's filter wraps it and sees those panics first.
/// Each goroutine's stack under shuttle and dpor, as under stalemate-loom (the loom fork):
/// 1 MiB, room for an interpreted Go kernel's calls (see `kernel::interp::MAX_DEPTH`).
pub(crate) const STACK_BYTES: usize = 1 << 20;

pub(crate) fn init() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let mut config = shuttle::Config::new();
        config.stack_size = STACK_BYTES;
        config.failure_persistence = shuttle::FailurePersistence::None;
        shuttle::Runner::new(shuttle::scheduler::RoundRobinScheduler::new(1), config).run(|| {});
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(0);
        b.checkpoint_file = None;
        b.check(|| {
            loom::thread::spawn(|| {}).join().unwrap();
        });
    });
}

/// Why an exploration stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every execution the engine would try was tried.
    Exhausted,
    /// An execution found a violation; exploration stopped there.
    Found,
    /// The iteration budget ran out before the engine was done.
    Iterations,
    /// The time budget ran out.
    Time,
}

/// What an exploration did.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Explored {
    /// Executions (schedules) run, the violating one included.
    pub executions: u64,
    pub stop: Stop,
    /// Distinct states met, for the stateful search (`None` for the other engines).
    pub states: Option<u64>,
    /// The part of the tree explored, when it was one part of several (`dpor`).
    pub part: Option<Part>,
    /// Of the executions, those that were a new trace (`dpor`, once its tree is
    /// explored): the others ended with every goroutine asleep, their orders covered.
    pub traces: Option<u64>,
    /// Of the executions, those cut at the step bound (`AtMaxSteps::Cut`): what lies
    /// past their cut was not explored, so a search with any is no proof.
    pub cut: u64,
    /// The body number of the execution whose finding is the exploration's, when
    /// that is not the last one run (threads of one `dpor` exploration).
    pub(crate) finding: Option<u64>,
}

impl Explored {
    pub fn new(executions: u64, stop: Stop) -> Explored {
        Explored {
            executions,
            stop,
            states: None,
            part: None,
            traces: None,
            cut: 0,
            finding: None,
        }
    }
}

/// Part `k` (from 0) of `n` of a tree cut into `units` units (`dpor`): the units a mix
/// of whose number is `k` modulo `n`, `own` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub k: u32,
    pub n: u32,
    pub units: u64,
    pub own: u64,
}

impl Part {
    /// The whole tree.
    pub const WHOLE: Part = Part {
        k: 0,
        n: 1,
        units: 0,
        own: 0,
    };
}

/// Budget shared by all engines.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    pub max_executions: u64,
    pub deadline: std::time::Instant,
}

/// A body runs one execution (numbered from 1) and says whether it found a violation.
pub(crate) type Body = std::sync::Arc<dyn Fn(u64) -> bool + Send + Sync>;

/// Turns a panic payload into text.
pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}
