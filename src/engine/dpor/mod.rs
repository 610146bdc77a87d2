//! `dpor`: stalemate's own exhaustive engine, optimal dynamic partial-order reduction
//! (source sets and wakeup trees: Abdulla, Aronis, Jonsson and Sagonas, "Source Sets: A
//! Foundation for Optimal Dynamic Partial Order Reduction", JACM 2017) over the world's
//! Go operations, on a runtime of its own (`tasks`).
//!
//! `explorer` is the algorithm: a scheduler oracle that knows nothing of Go; `tasks`
//! runs the goroutines. This file is what stands between them (`Dpor`). An event is
//! one step of one goroutine, from a scheduling point of the world to the next; what
//! it touches is declared at the scheduling point before it (`declare`: every object
//! the operation names; how it uses each, the world says: `super::Mode`), so the
//! explorer sees each goroutine's next step before it chooses. A step that breaks a
//! property stops the execution there (`Explorer::stop`). Goroutines and objects get
//! ids that are the same in every execution: a goroutine is (its parent, which of its
//! parent's children), an object is (its maker, which of its maker's objects). A
//! goroutine's start is ordered after the step that started it
//! (`explorer::thread_obj`). A select's choice, and every other choice, is a branch the
//! explorer takes each way.

mod explorer;
mod split;
mod steal;
mod tasks;

pub(crate) use explorer::Access;
use explorer::Accesses;
pub(crate) use explorer::record;
use explorer::{Explorer, Next, Obj, Tid};
pub(crate) use tasks::{choose, current, join, park, spawn, switch, unpark};

/// Explores part `part` of the model's tree on `jobs` threads: the whole tree without
/// a cut by giving subtrees to idle threads (`steal`: threads with nothing else to do
/// may join it, `help`), else by the cut's units (`split`).
pub(crate) fn explore(
    jobs: usize,
    part: crate::engine::Part,
    split: u32,
    budget: &crate::engine::Budget,
    body: crate::engine::Body,
) -> Result<crate::engine::Explored, String> {
    if part.n == 1 && split == 0 {
        steal::explore(jobs, budget, body)
    } else {
        split::explore(jobs, part, split, budget, body)
    }
}

/// Joins, as one more thread, an exploration under way that this thread has not
/// joined yet; false if there is none.
pub(crate) fn help(joined: &mut Vec<u64>) -> bool {
    split::help(joined) || steal::help(joined)
}
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

std::thread_local! {
    /// A `dpor` exploration runs on this thread (`tasks`: every goroutine of an
    /// execution runs on the thread that explores).
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static RT: RefCell<Rt> = RefCell::new(Rt::default());
}

/// The execution running on this thread. Goroutines are few: they are kept in a list,
/// cleared (not freed) between executions.
#[derive(Default)]
struct Rt {
    /// Each goroutine of this execution, in the order started (main first): a
    /// goroutine is known by its place here (`tasks`).
    gs: Vec<G>,
    /// Stable ids across executions: (parent, child number) to id and the bits of
    /// it the path takes (`child_id`); main is 0.
    ids: BTreeMap<(Tid, u32), (Tid, u32)>,
    /// Accesses the step being executed makes beyond its declaration (a goroutine it
    /// started).
    extra: Vec<(Obj, Access)>,
    /// The step being executed broke a property: the execution stops there.
    aborted: bool,
    /// ... by leaving no goroutine able to run (`stuck`).
    stuck: bool,
    /// ... at a data race, whose verdict read every earlier step's doing (`race_stop`).
    race: bool,
    /// Goroutines parked at the last scheduling point, in order (`wake`).
    parked: Vec<Tid>,
    /// The step being executed advanced the virtual clock (`clock_advanced`).
    clock: bool,
    /// The enabled goroutines' next steps and the blocked ones' (`Dpor::picture`),
    /// vectors the explorer swaps for ones it is done with.
    enabled: Vec<Next>,
    blocked: Vec<Next>,
}

/// One goroutine of the running execution.
struct G {
    tid: Tid,
    /// The bits its id's path takes (`child_id`).
    bits: u32,
    /// Children started, objects made.
    children: u32,
    made: u32,
    /// What its next step touches, as declared at its scheduling point; `None` once it
    /// has returned. A goroutine that blocked keeps its declaration: its retry, once
    /// woken, touches what its attempt did.
    next: Option<Accesses>,
    /// Its declared step has been taken: its next declaration starts afresh.
    taken: bool,
    /// Woken with its operation done for it, and the next step (taking its result)
    /// not taken yet (`wake`).
    woken: bool,
    /// Steps taken this execution (`wake_obj`).
    steps: u32,
    /// Runnable: neither blocked (`tasks::park`, `tasks::join`) nor returned.
    run: bool,
    /// Returned.
    done: bool,
    /// Unparks not yet consumed by a park; parked waiting for one.
    tokens: u32,
    waiting: bool,
    /// The goroutine waiting for this one to return (`tasks::join`).
    joiner: Option<usize>,
    /// What the world says of its next step at the scheduling point being decided
    /// (`look_all`).
    open: bool,
    mode: super::Mode,
}

impl Rt {
    /// A goroutine started by the one at `parent` (main if `None`): its id, and its
    /// place in `gs`.
    fn start(&mut self, parent: Option<usize>) -> usize {
        let (t, bits, next) = match parent {
            None => (0, 0, None),
            Some(pi) => {
                let g = &mut self.gs[pi];
                let p = g.tid;
                g.children += 1;
                let k = g.children;
                let used = g.bits;
                let (t, bits) = *self.ids.entry((p, k)).or_insert_with(|| {
                    child_id(p, used, k).unwrap_or_else(|| {
                        panic!("dpor names a goroutine by its path in the tree of goroutines that started it, in 63 bits, and this one's path is longer: nest fewer goroutines, or start fewer from one")
                    })
                });
                // The parent's step started it: the child's first step comes after.
                self.extra.push((explorer::thread_obj(t), Access::Release));
                let first = Accesses::from_slice(&[(explorer::thread_obj(t), Access::Acquire)]);
                (t, bits, Some(first))
            }
        };
        self.gs.push(G {
            tid: t,
            bits,
            children: 0,
            made: 0,
            next,
            taken: false,
            woken: false,
            steps: 0,
            run: true,
            done: false,
            tokens: 0,
            waiting: false,
            joiner: None,
            open: true,
            mode: super::Mode::Write,
        });
        self.gs.len() - 1
    }

    /// Empties every vector for the next execution, keeping its room, and `ids`, which
    /// holds across executions.
    fn reset(&mut self) {
        let Rt {
            gs,
            ids: _,
            extra,
            aborted,
            stuck,
            race,
            parked,
            clock,
            enabled,
            blocked,
        } = self;
        gs.clear();
        extra.clear();
        *aborted = false;
        *stuck = false;
        *race = false;
        parked.clear();
        *clock = false;
        enabled.clear();
        blocked.clear();
    }
}

impl G {
    /// Its step's declaration, its objects used as `mode` says, into `a` (empty).
    fn step_into(&self, mode: super::Mode, a: &mut Accesses) {
        if mode == super::Mode::Nil {
            a.push((nil_obj(self), Access::Write));
            return;
        }
        // `Hand`, `Closed` and `Chosen` are declared by `hand_into` and
        // `buffered_into` but where traces are recorded: there, as a wait, a close is
        // a write too.
        let how = match mode {
            super::Mode::Write
            | super::Mode::Local
            | super::Mode::Nil
            | super::Mode::Hand { .. }
            | super::Mode::Closed { .. }
            | super::Mode::Chosen { .. } => Access::Write,
            super::Mode::Add | super::Mode::Registers | super::Mode::Buffered { .. } => Access::Add,
            super::Mode::Read => Access::Read,
            super::Mode::Acquire | super::Mode::Released => Access::Acquire,
            super::Mode::Release => Access::Release,
            super::Mode::Close if explorer::record::on() => Access::Write,
            super::Mode::Close => Access::Close,
        };
        let Some(next) = &self.next else { return };
        match mode {
            _ if explorer::record::on() => {}
            super::Mode::Hand {
                take,
                place,
                sends,
                at,
                buffered,
            } => {
                hand_into(next, Some((take, place)), (sends, buffered), at, a);
                // A wait names the wake-up that will end it: the one its next step,
                // this step taken, will name (`wake_obj`).
                if !take {
                    a.push((wake_tag(self), Access::Tag));
                    a.sort_unstable();
                }
                return;
            }
            // A plain receive that found its channel closed also reads its receive
            // line: the mark by which the close commutes with it (`deps::closes_on`).
            // A select marks that line `Late` (`late.rs`: the close's race with it).
            super::Mode::Closed { sends, at, by } => {
                hand_into(next, None, (sends, 0), at, a);
                let how = match by {
                    super::ClosedBy::Receive => Access::Read,
                    super::ClosedBy::Select => Access::Late,
                    super::ClosedBy::Try => return,
                };
                let closed = next
                    .iter()
                    .filter(|x| x.1 == Access::Write)
                    .nth(at as usize);
                if let Some(&(o, _)) = closed {
                    a.push((explorer::line(o, false), how));
                    a.sort_unstable();
                }
                return;
            }
            // The buffered operation at the chosen case's channel; at each other one
            // (an open done channel) it only looks.
            super::Mode::Chosen { recv, slot, at } => {
                let mut case = 0u32;
                for &(o, k) in next.as_slice() {
                    if k != Access::Write {
                        a.push((o, k));
                        continue;
                    }
                    if case == at {
                        buffered_into(o, (recv, slot), None, true, a);
                    } else {
                        a.push((o, Access::Leave));
                    }
                    case += 1;
                }
                a.sort_unstable();
                a.dedup();
                return;
            }
            _ => {}
        }
        for &(o, k) in next.as_slice() {
            // A hand-off's taker touches none of what its wait named.
            if mode != super::Mode::Local || k != Access::Write {
                a.push((o, if k == Access::Write { how } else { k }));
            }
            // A waiter registering writes the WaitGroup's waiter list, which Dones
            // leave alone.
            if mode == super::Mode::Registers && k == Access::Write {
                a.push((waiters(o), Access::Write));
            }
            if k != Access::Write {
                continue;
            }
            // What a value passes through, released by the step that leaves it and
            // acquired by the one that takes it: a buffered slot, or a hand-off's place
            // (not where traces are recorded: that rule leaves out traces that are one
            // behaviour with those it runs, which only outcomes tell, `explore::traces`).
            if let super::Mode::Buffered { recv, slot, place } = mode {
                a.pop();
                buffered_into(o, (recv, slot), place, place.is_some(), a);
            }
        }
        if a.len() > 1 {
            a.sort_unstable();
            a.dedup();
        }
    }
}

/// A buffered send's or receive's declaration at channel `o` (`Mode::Buffered`), into
/// `a`: an `Add` of the channel, a write of its cursor, and what a value passes
/// through, released by the step that leaves it and acquired by the one that takes
/// it (its slot; the room a receive leaves, which the next send into the slot takes;
/// a send's place, `place`). Not where traces are recorded: that rule leaves out
/// traces that are one behaviour with those it runs, which only outcomes tell
/// (`explore::traces`). A receive, and a send that may find the buffer empty
/// (`line`: one with a place, or a select's, `Mode::Chosen`), read the receive line,
/// so they are ordered against a select's wait there.
fn buffered_into(
    o: Obj,
    (recv, slot): (bool, usize),
    place: Option<u64>,
    line: bool,
    a: &mut Accesses,
) {
    a.push((o, Access::Add));
    a.push((cursor(o, recv), Access::Write));
    if recv || line {
        a.push((explorer::line(o, false), Access::Read));
    }
    if let Some(place) = place {
        a.push((place_obj(o, place), Access::Release));
    }
    let (room, value) = if recv {
        (Access::Release, Access::Acquire)
    } else {
        (Access::Acquire, Access::Release)
    };
    a.push((room_obj(o, slot), room));
    a.push((slot_obj(o, slot), value));
}

/// A hand-off half's declaration (`Mode::Hand`), the k-th channel it writes its k-th
/// case, into `a` (empty). A wait joins its side's line at each channel: an `Add` of
/// the channel and a `Join` of that line, so joins of one side commute (which of them
/// came first only a step that takes from the line can tell, and `race.rs` races them
/// where one does), and a `Read` of the other side's
/// line, so that the two sides conflict (whichever waits first makes the other a
/// taker); it releases its place. A taker writes the channel it takes at and
/// acquires the place; at a select's other channels it only finds nobody of the
/// other side waiting (an `Add` of the channel and a `Read` of that side's line):
/// steps that see it there are those that would see it had it waited, the race
/// analysis's test for reversing it with the wait it took.
/// `half` is `None` for a receive that finds its channel closed (`Mode::Closed`):
/// a read of that channel, its other channels as a taker's.
/// A select's case at a buffered channel (bit k of `cases.1`) is a write of it,
/// waiting or not: there a select waits in a queue that a plain send or receive
/// kept back may stand before, and a step that finds the buffer as it is (a buffered
/// send, a try) would have met it had it waited, so every use conflicts.
fn hand_into(
    next: &Accesses,
    half: Option<(bool, u64)>,
    (sends, buffered): (u64, u64),
    at: u32,
    a: &mut Accesses,
) {
    let mut case = 0u32;
    for &(o, k) in next.as_slice() {
        if k != Access::Write {
            a.push((o, k));
            continue;
        }
        let send = case < 64 && sends >> case & 1 == 1;
        let buffer = case < 64 && buffered >> case & 1 == 1;
        match half {
            // A select's wait at a buffered channel, receiving: a half's, marked so.
            Some((false, place)) if !(buffer && send) => {
                a.push((o, Access::Add));
                a.push((explorer::line(o, send), Access::Join));
                a.push((explorer::line(o, !send), Access::Read));
                a.push((place_obj(o, place), Access::Release));
                if buffer {
                    a.push((o, Access::Buffer));
                }
            }
            // A send that takes a select's wait at a buffered channel goes on: marked.
            Some((true, place)) if case == at => {
                a.push((o, Access::Write));
                a.push((place_obj(o, place), Access::Acquire));
                if buffer && send {
                    a.push((o, Access::Buffer));
                }
            }
            None if case == at => a.push((o, Access::Read)),
            _ if buffer => a.push((o, Access::Write)),
            _ => {
                a.push((o, Access::Add));
                a.push((explorer::line(o, !send), Access::Read));
            }
        }
        case += 1;
    }
    if a.len() > 1 {
        a.sort_unstable();
        a.dedup();
    }
}

pub(super) use explorer::mix;

std::thread_local! {
    /// What the world says of each goroutine's next step (`super::show_steps`).
    static STEPS: RefCell<Option<super::Steps>> = const { RefCell::new(None) };
}

pub(crate) fn show_steps(f: super::Steps) {
    STEPS.with(|g| *g.borrow_mut() = Some(f));
}

/// A goroutine's id from its place in the tree of goroutines, the same in every
/// execution and on every thread: main is 0; child `k` (from 1) of a goroutine whose
/// path takes `used` bits appends a one, then `k` in a prefix code that keeps order,
/// reading from the top of 63 bits. So ids sort as the tree does: a parent before its
/// children, siblings (and all they start) in the order they were started. Returns
/// the id and the bits its path takes; `None` if they would pass 63.
fn child_id(parent: Tid, used: u32, k: u32) -> Option<(Tid, u32)> {
    let b = 32 - k.leading_zeros();
    let len = 2 * b;
    if k == 0 || used + len > 63 {
        return None;
    }
    // b ones (the leading one, and k's length in unary), a zero, k's low b - 1 bits.
    let code = (((1u64 << b) - 1) << b) | (u64::from(k) & ((1u64 << (b - 1)) - 1));
    Some((parent | (code << (63 - used - len)), used + len))
}

/// Whether goroutine `t`, whose next step only takes what was handed to it (or ends a
/// wait for nothing), was woken by another step and has not taken that step since:
/// by the step just taken if it was parked at the last scheduling point (that step
/// then names `wake_obj(t)`, added to `woke`). Its next step names that object too: it
/// happens after its waker. It touches nothing its waker touched, so without this
/// edge a race reversal could move it before the step that woke it, a sequence no
/// execution can follow (the explorer then expands the level fully, which is sound
/// and costs executions that end with everyone asleep).
fn wake(parked: &[Tid], g: &mut G, woke: &mut Accesses) -> bool {
    if parked.binary_search(&g.tid).is_ok() && !g.woken {
        g.woken = true;
        woke.push((wake_obj(g), Access::Wake));
    }
    g.woken
}

/// The object a goroutine's step at a nil channel writes (`Mode::Nil`): its own, which
/// no other step names, so that only a step that touches everything (`ANY`: a poll's
/// decision) is ordered against it.
fn nil_obj(g: &G) -> Obj {
    mix(g.tid ^ mix(0x006e_696c)) >> 1
}

/// The object a goroutine's waker and its next step both name (`Access::Wake`): one per
/// goroutine and wake-up, an id as objects' are. A wake-up is known by the steps the
/// goroutine had taken (the same in every order of the others' steps): a later waker
/// names another object, so it is not ordered against the step an earlier one woke.
fn wake_obj(g: &G) -> Obj {
    wake_at(g.tid, g.steps)
}

/// The wake object of the wake-up that ends the wait `g`'s next step would begin
/// (`Access::Tag`): its steps then count this one.
fn wake_tag(g: &G) -> Obj {
    wake_at(g.tid, g.steps + 1)
}

fn wake_at(tid: Tid, steps: u32) -> Obj {
    mix(tid ^ mix(0x7761_6b65 ^ u64::from(steps))) >> 1
}

/// Asks the world, once per scheduling point, whether each goroutine's next step can
/// go on without a wait that is no event, and how it uses its objects (`G::open`,
/// `G::mode`); of a goroutine the world does not say, a step that may write.
fn look_all(rt: &mut Rt) {
    for g in &mut rt.gs {
        g.open = true;
        g.mode = super::Mode::Write;
    }
    STEPS.with(|f| {
        if let Some(f) = f.borrow().as_ref() {
            f(&mut |key, open, mode| {
                if let super::ThreadKey::Dpor(i) = key
                    && let Some(g) = rt.gs.get_mut(i)
                {
                    g.open = open;
                    g.mode = mode;
                }
            });
        }
    });
}

/// Whether the running thread explores with `dpor`.
pub(crate) fn active() -> bool {
    ACTIVE.with(|a| a.get())
}

/// A new object, made by the running goroutine: its id in every execution.
pub(crate) fn object() -> Obj {
    RT.with(|rt| {
        let mut rt = rt.borrow_mut();
        let g = &mut rt.gs[tasks::current()];
        g.made += 1;
        let (t, k) = (g.tid, g.made);
        // Equal ids are one object to the explorer; 64 bits of a mix make a clash of
        // two of a program's objects a chance of about n² in 2^64. The top bit is
        // goroutines' (`explorer::thread_obj`).
        mix(t ^ mix(u64::from(k))) >> 1
    })
}

/// The waiter list of WaitGroup `o`, an object of its own (`Mode::Registers`).
fn waiters(o: Obj) -> Obj {
    mix(o ^ 0x0077_6169_7465_7273) >> 1
}

/// Channel `o`'s receive cursor (`recv`) or send cursor, an object of its own
/// (`Mode::Buffered`).
fn cursor(o: Obj, recv: bool) -> Obj {
    mix(o ^ if recv {
        0x0072_6563_7678
    } else {
        0x0073_656e_6478
    }) >> 1
}

/// Slot `i` of buffered channel `o`, an object of its own (`Mode::Buffered`).
fn slot_obj(o: Obj, i: usize) -> Obj {
    mix(mix(o ^ 0x0000_736c_6f74) ^ i as u64) >> 1
}

/// The room in slot `i` of buffered channel `o` that a receive leaves, an object of
/// its own (`Mode::Buffered`).
fn room_obj(o: Obj, i: usize) -> Obj {
    mix(mix(o ^ 0x726f_6f6d) ^ i as u64) >> 1
}

/// The place a plain operation that waits at unbuffered channel `o` leaves there, an
/// object of its own (`Mode::Hand`).
fn place_obj(o: Obj, place: u64) -> Obj {
    mix(mix(o ^ 0x0070_6c61_6365) ^ place) >> 1
}

/// The running execution's steps are over: says whether it counts for this thread's
/// explorer, as (its unit, its number in the unit).
pub(crate) fn settle() -> Option<(u64, u64)> {
    tasks::with_sched(|d| {
        d.explorer.settle();
        d.explorer.counted()
    })
    .flatten()
}

/// The running goroutine's next step touches `o`.
pub(crate) fn declare(o: Obj, a: Access) {
    RT.with(|rt| {
        let mut rt = rt.borrow_mut();
        let g = &mut rt.gs[tasks::current()];
        let fresh = std::mem::take(&mut g.taken);
        let next = g.next.get_or_insert_default();
        if fresh {
            next.clear();
        }
        if !next.contains(&(o, a)) {
            next.push((o, a));
        }
    });
}

/// The step just taken also touched `o` (found while it ran).
pub(crate) fn also(o: Obj, a: Access) {
    RT.with(|rt| {
        let mut rt = rt.borrow_mut();
        if !rt.extra.contains(&(o, a)) {
            rt.extra.push((o, a));
        }
    });
}

/// The running goroutine's step has looked at the whole world (a poll that found
/// nothing changed, and waits: `World::poll`): it conflicts with every other step.
pub(crate) fn observed_all() {
    RT.with(|rt| rt.borrow_mut().extra.push((explorer::ANY, Access::Read)));
}

/// The step being executed blocked last and advanced the virtual clock: the advance is
/// an event of its own (`explorer::CLOCK`), taken right after it.
pub(crate) fn clock_advanced() {
    RT.with(|rt| rt.borrow_mut().clock = true);
}

/// The step being executed left no goroutine able to run: the execution is maximal,
/// its violation (a deadlock, a leak, a livelock) a property of its final state.
pub(crate) fn stuck() {
    if active() {
        RT.with(|rt| rt.borrow_mut().stuck = true);
    }
}

/// The step being executed stops at a data race (`Explorer::stop_after_race`).
pub(crate) fn race_stop() {
    if active() {
        RT.with(|rt| rt.borrow_mut().race = true);
    }
}

/// The step being executed aborted the execution (a violation).
pub(crate) fn aborted() {
    if active() {
        RT.with(|rt| rt.borrow_mut().aborted = true);
    }
}

/// Marks the running thread's explorations as `dpor` while it lives.
pub(crate) struct On;

impl On {
    pub(crate) fn new() -> On {
        ACTIVE.with(|a| a.set(true));
        On
    }
}

impl Drop for On {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(false));
        RT.with(|rt| *rt.borrow_mut() = Rt::default());
        STEPS.with(|g| *g.borrow_mut() = None);
        super::CUT.with(|c| c.set(false));
    }
}

/// The scheduler that asks the explorer, at each of the runtime's points (`tasks`).
pub(crate) struct Dpor {
    explorer: Explorer,
    /// The running execution has ended for the explorer (cut short, or aborted).
    over: bool,
    started: bool,
}

impl Dpor {
    /// The scheduler of this thread's exploration.
    fn new(explorer: Explorer) -> Dpor {
        Dpor {
            explorer,
            over: false,
            started: false,
        }
    }

    /// The enabled goroutines' next steps, and the blocked ones'. A goroutine held at
    /// a gate (a mutex held by another) is blocked, unless every runnable one is: then
    /// their waits are events, and the world sees who waits for whom.
    ///
    /// Also returns what the step just taken did beyond its declaration: it woke the
    /// goroutines `wake` names.
    fn picture(&self, rt: &mut Rt) -> Accesses {
        look_all(rt);
        let none_open = !rt.gs.iter().any(|g| g.run && g.open);
        let mut woke = Accesses::new();
        let Rt {
            gs,
            parked,
            enabled,
            blocked,
            ..
        } = &mut *rt;
        enabled.clear();
        blocked.clear();
        for g in gs.iter_mut() {
            let (run, open, mode) = (g.run, g.open, g.mode);
            // Parked goroutines: their retry touches what their attempt did, unless
            // the world says it touches nothing.
            if !run && g.next.is_none() {
                continue;
            }
            // Built in place: a step is copied nowhere at a scheduling point.
            let list = if run && (open || none_open) {
                &mut *enabled
            } else {
                &mut *blocked
            };
            let mut next = Next::new(g.tid, Accesses::new());
            next.parked = !run;
            list.push(next);
            let a = &mut list.last_mut().expect("pushed").accesses;
            g.step_into(mode, a);
            let takes = matches!(mode, super::Mode::Local | super::Mode::Released);
            if run && takes && wake(parked, g, &mut woke) {
                a.push((wake_obj(g), Access::Wake));
            }
        }
        enabled.sort_by_key(|n| n.tid);
        blocked.sort_by_key(|n| n.tid);
        // Reused: this runs at every scheduling point.
        parked.clear();
        parked.extend(blocked.iter().map(|n| n.tid));
        woke
    }

    /// Ends the running execution for the explorer, once, by `end` (with what is left
    /// to run).
    fn finish(&mut self, end: impl FnOnce(&mut Explorer) -> bool) {
        if self.over {
            return;
        }
        self.over = true;
        end(&mut self.explorer);
    }

    /// The explorer, once its exploration has run (`tasks::run`).
    fn into_explorer(self) -> Explorer {
        self.explorer
    }

    fn cut(&mut self) {
        self.finish(Explorer::end_here);
        super::CUT.with(|c| c.set(true));
    }

    /// Starts an execution (ending the one before for the explorer); false when the
    /// exploration is over.
    fn new_execution(&mut self) -> bool {
        if self.started {
            // The execution before ran to its end: every goroutine returned or unwound.
            self.finish(|x| x.end(Vec::new(), Vec::new()));
        }
        self.started = true;
        RT.with(|rt| {
            // Cleared, not freed: the next execution fills them again.
            rt.borrow_mut().reset();
        });
        super::CUT.with(|c| c.set(false));
        if !self.explorer.begin() {
            return false;
        }
        self.over = false;
        true
    }

    /// Who runs next, at a scheduling point of the goroutine at `current` (`None`: the
    /// execution's start): one the explorer chooses, or, once the execution is over for
    /// it, the first that can run, so that every goroutine unwinds. `between`: the
    /// world's point, between two operations (else `current` blocked or returned).
    /// `None` if no goroutine can run.
    fn decide(&mut self, current: Option<usize>, between: bool) -> Option<usize> {
        // One look at the runtime: who can run, and what the step just taken did
        // beyond its declaration, broke, or advanced.
        let (first, aborted, stuck, clock, race) = RT.with(|rt| {
            let rt = &mut *rt.borrow_mut();
            let first = rt.gs.iter().position(|g| g.run)?;
            // Cleared, not taken: its room serves the next step.
            if !rt.extra.is_empty() {
                if !self.over {
                    self.explorer.amend(&rt.extra);
                }
                rt.extra.clear();
            }
            Some((
                first,
                rt.aborted,
                rt.stuck,
                std::mem::take(&mut rt.clock),
                rt.race,
            ))
        })?;
        if self.over {
            // Nothing past the end is a decision: the goroutines unwind.
            return Some(first);
        }
        debug_assert!(
            current.is_none()
                || between
                || RT.with(|rt| current.is_some_and(|c| !rt.borrow().gs[c].run)),
            "the runtime asks at the world's points, and where the running goroutine stops"
        );
        if aborted && stuck {
            // Nothing could run after the step just taken: the execution ends there
            // as any maximal one does, its violation a property of the state its
            // trace reaches, whatever order of that trace ran.
            self.finish(Explorer::end_after_last);
            return Some(first);
        }
        if aborted {
            // The step just taken broke a property: the execution stops after it, with
            // the others' next steps as they were (the explorer then explores every
            // order of them before it: another violation first, in a census).
            self.finish(if race {
                Explorer::stop_after_race
            } else {
                Explorer::stop_after_last
            });
            return Some(first);
        }
        if clock {
            // The clock's advance, an event the explorer orders after every step before
            // it and before every step after it; nothing runs for it (the world made it
            // as the last blocker's step ended). Its wake-ups are its own (below).
            let clock = Next::new(
                explorer::CLOCK,
                Accesses::from_slice(&[(explorer::ANY, Access::Write)]),
            );
            if self.explorer.schedule(vec![clock], Vec::new()).is_none() {
                self.cut();
                return Some(first);
            }
        }
        let next = RT.with(|rt| {
            let rt = &mut *rt.borrow_mut();
            let woke = self.picture(rt);
            let x = &mut self.explorer;
            if !woke.is_empty() {
                x.amend(&woke);
            }
            x.schedule_in(&mut rt.enabled, &mut rt.blocked)
        });
        match next {
            Some(t) => {
                // The step is taken: the next one declares afresh.
                RT.with(|rt| {
                    let mut rt = rt.borrow_mut();
                    let i = rt
                        .gs
                        .iter()
                        .position(|g| g.tid == t)
                        .expect("the explorer chose a goroutine met");
                    let g = &mut rt.gs[i];
                    debug_assert!(g.run, "the explorer chose a goroutine that can run");
                    g.taken = true;
                    g.steps += 1;
                    g.woken = false;
                    Some(i)
                })
            }
            None => {
                // Redundant from here (or another shard's): the world unwinds.
                self.cut();
                Some(first)
            }
        }
    }

    /// One of `n` alternatives of the running step's choice, as the explorer decides.
    fn choose(&mut self, n: usize) -> usize {
        if n <= 1 || self.over {
            0
        } else {
            self.explorer.choose(n)
        }
    }
}
