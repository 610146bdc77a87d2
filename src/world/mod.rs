//! The world of one execution: goroutines, primitives, the trace.
//!
//! Every Go primitive is a small state machine kept here, behind a plain std mutex the
//! engines never see (all threads of an execution run on one OS thread and switch only
//! inside engine calls, so that mutex is never contended). What the engines do see is
//! the point each operation touches first, and park/unpark when a goroutine blocks.
//! That keeps one implementation of Go's semantics for every engine.

mod detect;
pub(crate) mod print;
mod state;
pub(crate) mod watch;

pub use crate::verdict::Fault;
pub(crate) use state::*;
pub use state::{AtMaxSteps, TimeMode, Turn};

use crate::engine::{self, Kind, Point};
use crate::verdict::{Property, Violation};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Mutex, MutexGuard};

/// Unwinds a goroutine out of an aborted execution. Never reaches the panic hook.
pub(crate) struct Abort;

fn unwind() -> ! {
    resume_unwind(Box::new(Abort))
}

/// What a primitive's attempt decided.
pub(crate) enum Attempt<R> {
    /// Done; the text is the trace line.
    Done(R, String),
    /// The goroutine must wait; it has registered itself with the objects it waits on.
    Block(Wait, String),
    /// A Go runtime fault.
    Fault(Fault, String),
    /// Another violation the step found (a data race).
    Fail(Violation, String),
}

pub(crate) struct Options {
    pub max_steps: usize,
    pub at_max_steps: AtMaxSteps,
    /// A data race does not stop the execution (`explore::Bounds::all`).
    pub go_on: bool,
    /// Report unordered accesses to plain variables as `data-race`.
    pub check_races: bool,
    /// Replay: the goroutine that takes each step, in order, and the cases it chose.
    pub replay: Option<Vec<Turn>>,
    /// Objects (by name) that share one engine point: see `loom_engine::groups`.
    pub shared: Arc<BTreeMap<String, usize>>,
    /// Record `Execution::joint` and go on past an operation spanning two points
    /// (loom's first execution only: see `explore::drive`).
    pub record_joint: bool,
    /// The exploration goes on past violations (`explore::census`): make each one
    /// visible to loom (see `World::fail_with`).
    pub census: bool,
    pub time: TimeMode,
    /// Build no step texts and no names: an exploration needs only each execution's
    /// schedule and verdict, and rebuilds a finding's text by replaying it (measured:
    /// most of stalemate's own cost per schedule was building text nobody read).
    pub quiet: bool,
}

/// A step's text, built only when the execution keeps text (see `Options::quiet`).
macro_rules! say {
    ($st:expr, $($arg:tt)*) => {
        if $st.quiet { String::new() } else { format!($($arg)*) }
    };
}
pub(crate) use say;

/// What one execution produced.
pub(crate) struct Execution {
    pub violation: Option<Violation>,
    pub steps: Vec<Step>,
    pub names: Vec<String>,
    /// The names of the objects of each operation that spanned loom points (`touch`).
    pub joint: BTreeSet<Vec<String>>,
    /// Abandoned: an operation spanned two loom points (see `World::touch`).
    pub regroup: bool,
    /// Cut short: equivalent to an execution explored already (see `World::prune`).
    pub pruned: bool,
    /// Cut at the step bound with no finding (`AtMaxSteps::Cut`).
    pub cut: bool,
    /// With `Options::go_on`: the first data race, and how many steps show it.
    pub race: Option<(Violation, usize)>,
    /// A census's clean execution: the fingerprint of its last state (`print`).
    pub end: Option<u128>,
}

type Pool<T> = std::cell::RefCell<Vec<Vec<T>>>;

std::thread_local! {
    /// Buffers of finished executions, for the next ones: an exploration runs its
    /// executions one after another on one OS thread, and fresh buffers for each were
    /// a small model's largest allocations.
    static SPARE_STEPS: Pool<Step> = const { Pool::new(Vec::new()) };
    static SPARE_GORS: Pool<Gor> = const { Pool::new(Vec::new()) };
    static SPARE_OBJS: Pool<state::Obj> = const { Pool::new(Vec::new()) };
}

/// A spare buffer from `pool`, or a new one.
fn reuse<T>(pool: &'static std::thread::LocalKey<Pool<T>>) -> Vec<T> {
    pool.try_with(|p| p.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Keeps `v`'s buffer for a later `reuse` (a few per thread).
fn spare<T>(pool: &'static std::thread::LocalKey<Pool<T>>, mut v: Vec<T>) {
    if v.capacity() == 0 {
        return;
    }
    v.clear();
    // try_with: a thread's last execution may drop after its locals.
    let _ = pool.try_with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < 4 {
            p.push(v);
        }
    });
}

/// A state's buffers: spare ones where there are.
pub(crate) fn buffers() -> (Vec<Gor>, Vec<state::Obj>, Vec<Step>) {
    let mut steps = reuse(&SPARE_STEPS);
    if steps.capacity() == 0 {
        // Room for a small model's steps without growing.
        steps.reserve(64);
    }
    (reuse(&SPARE_GORS), reuse(&SPARE_OBJS), steps)
}

impl Drop for Execution {
    fn drop(&mut self) {
        spare(&SPARE_STEPS, std::mem::take(&mut self.steps));
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let st = self.st.get_mut().unwrap_or_else(|e| e.into_inner());
        spare(&SPARE_GORS, std::mem::take(&mut st.gors));
        spare(&SPARE_OBJS, std::mem::take(&mut st.objs));
        spare(&SPARE_STEPS, std::mem::take(&mut st.trace));
    }
}

/// A primitive's identity: its world, its object, its engine point.
pub(crate) struct Obj {
    pub(crate) w: Arc<World>,
    pub(crate) id: Oid,
    pub(crate) point: Arc<Point>,
}

pub(crate) struct World {
    pub(crate) kind: Kind,
    st: Mutex<State>,
    shared: Arc<BTreeMap<String, usize>>,
    /// The execution follows a schedule (`Options::replay`).
    replaying: bool,
    /// This execution's point of each group of `shared`, made on first use.
    group_points: Mutex<BTreeMap<usize, Arc<Point>>>,
    /// Each object's point, by object id.
    points: Mutex<Vec<Arc<Point>>>,
    /// The process, in a census under loom: a violation ends it for every goroutine
    /// (see `fail_with`).
    fate: Option<Point>,
    /// A census: a clean execution reports its last state (`Execution::end`).
    census: bool,
    /// States get fingerprints (`print`): for the stateful search, and for a census
    /// under shuttle. Otherwise no history is kept.
    pub(crate) prints: bool,
    /// The stateful search runs this execution (`engine::stateful`).
    stateful: bool,
    /// The clock of `any` time mode, if the program reads it (`Go::use_clock`); let go
    /// when main's execution ends (it points back at this world).
    pub(crate) clock: Mutex<Option<Arc<Obj>>>,
}

impl World {
    pub(crate) fn new(kind: Kind, opts: Options) -> Arc<World> {
        let fate = opts.census.then(|| Point::fate(kind)).flatten();
        let census = opts.census;
        let stateful = engine::wants_states(kind);
        let prints = stateful || (census && engine::census_prints(kind));
        let (replaying, shared) = (opts.replay.is_some(), opts.shared.clone());
        let mut st = State::new(opts);
        st.prints = prints;
        let w = Arc::new(World {
            kind,
            replaying,
            shared,
            st: Mutex::new(st),
            group_points: Mutex::new(BTreeMap::new()),
            points: Mutex::new(Vec::new()),
            fate,
            census,
            prints,
            stateful,
            clock: Mutex::new(None),
        });
        watch::register(&w);
        w
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.st.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Unparks the goroutines earlier steps woke. Called before every engine call, never
    /// when a step ends: an unpark is a scheduling point, and the code a goroutine runs
    /// between two steps must run right after the first of them, or it would see other
    /// goroutines' later steps in one run and not in its replay.
    fn flush(&self) {
        self.flush_reading(|_| ());
    }

    /// `flush`, returning what `read` reads of the state under the same lock.
    fn flush_reading<T>(&self, read: impl FnOnce(&mut State) -> T) -> T {
        let (seen, mut wake) = {
            let mut st = self.lock();
            let seen = read(&mut st);
            if st.to_unpark.is_empty() {
                return seen;
            }
            (seen, std::mem::take(&mut st.to_unpark))
        };
        for t in wake.drain(..) {
            t.unpark();
        }
        // Keep the buffer: one allocation per execution instead of one per wake-up.
        let mut st = self.lock();
        if st.to_unpark.is_empty() {
            st.to_unpark = wake;
        }
        seen
    }

    /// A new object and its engine point.
    pub(crate) fn add_object(&self, name: &str, kind: ObjKind) -> (Oid, Arc<Point>) {
        let id = self.add(name, kind);
        let p = self.point(name);
        let mut ps = self.points.lock().unwrap_or_else(|e| e.into_inner());
        if ps.len() <= id {
            ps.resize(id + 1, p.clone());
        }
        ps[id] = p.clone();
        (id, p)
    }

    /// Tells the engine that the step just taken also touched the objects it took a
    /// woken select off (`State::withdrawn`): a step that completes a select changes
    /// every channel the select waited on, so it conflicts with their other operations.
    fn withdrawn(&self, objects: Vec<(Oid, bool)>) {
        if objects.is_empty() {
            return;
        }
        let ps = self.points.lock().unwrap_or_else(|e| e.into_inner());
        engine::also_touched(
            self.kind,
            (objects.iter()).filter_map(|&(o, quiet)| ps.get(o).map(|p| (&**p, quiet))),
        );
    }

    /// The engine point of a new object: its group's, if it has one.
    fn point(&self, name: &str) -> Arc<Point> {
        match self.shared.get(name) {
            Some(&g) => {
                let mut ps = self.group_points.lock().unwrap_or_else(|e| e.into_inner());
                ps.entry(g)
                    .or_insert_with(|| Arc::new(Point::new(self.kind)))
                    .clone()
            }
            None => Arc::new(Point::new(self.kind)),
        }
    }

    /// The goroutine running now.
    pub(crate) fn me(&self) -> Gid {
        let key = engine::key(self.kind);
        let st = self.lock();
        st.gors
            .iter()
            .position(|g| g.key == Some(key))
            .expect("a stalemate primitive was used from a thread not started with Go::go")
    }

    /// Runs one operation: wait for the turn (replay), touch the points, then attempt
    /// until done, blocking between attempts.
    /// A completed operation synchronises the goroutine with each object it names
    /// (happens-before, for the race detector).
    pub(crate) fn op<R>(
        &self,
        objs: &[&Obj],
        attempt: impl FnMut(&mut State, Gid) -> Attempt<R>,
    ) -> R {
        let me = self.me();
        self.step(me, true, None, objs, attempt)
    }

    /// `op`, saying what it is (`Pending`) while it is under way, so that an engine
    /// that reduces can ask (`engine::show_steps`) whether it can go on without a wait
    /// that is no event, and whether it commutes with others like it.
    pub(crate) fn marked<R>(
        &self,
        objs: &[&Obj],
        pending: Pending,
        attempt: impl FnMut(&mut State, Gid) -> Attempt<R>,
    ) -> R {
        let me = self.me();
        self.step(me, true, Some(pending), objs, attempt)
    }

    /// `marked` for a select with no default and other than one case
    /// (`Pending::Select`) or with a default (`Pending::Try`), `cases` its channels and
    /// whether each case sends.
    pub(crate) fn marked_select<R>(
        &self,
        objs: &[&Obj],
        pending: Pending,
        cases: impl Iterator<Item = (Oid, bool)>,
        attempt: impl FnMut(&mut State, Gid) -> Attempt<R>,
    ) -> R {
        let me = self.me();
        // The goroutine's list is reused: a select is a hot path. Under an engine that
        // reduces, a case at a nil channel is none: Go's runtime never looks at it (a
        // nil channel is no object), so the step neither declares nor lists it. A
        // select whose every case is nil keeps them, as its scheduling point, and
        // touches nothing (`State::mode`).
        let nil = self.flush_reading(|st| {
            let list = &mut st.gors[me].cases;
            list.clear();
            list.extend(cases);
            let n = list.len();
            if !engine::keeps_back(self.kind) || n > 64 {
                return 0;
            }
            let nil = (st.gors[me].cases.iter().enumerate())
                .filter(|(_, c)| st.nil(c.0))
                .fold(0u64, |m, (k, _)| m | 1 << k);
            if nil == 0 || nil.count_ones() as usize == n {
                return 0;
            }
            let mut k = 0;
            st.gors[me].cases.retain(|_| {
                let keep = nil >> k & 1 == 0;
                k += 1;
                keep
            });
            nil
        });
        if nil == 0 {
            return self.step(me, true, Some(pending), objs, attempt);
        }
        let live: Vec<&Obj> = (objs.iter().enumerate())
            .filter(|&(k, _)| nil >> k & 1 == 0)
            .map(|(_, o)| *o)
            .collect();
        self.step(me, true, Some(pending), &live, attempt)
    }

    /// `op`; `moves`: taking it is a move (see `State::moves`), as every operation
    /// but a poll's own wait is; `pending`: what it is while under way (`marked`).
    fn step<R>(
        &self,
        me: Gid,
        mut moves: bool,
        pending: Option<Pending>,
        objs: &[&Obj],
        mut attempt: impl FnMut(&mut State, Gid) -> Attempt<R>,
    ) -> R {
        let mut woken = false;
        loop {
            // A goroutine completed by a hand-off (a value received, a read lock granted, a
            // channel closed under it) only takes what was handed to it: the goroutine that
            // changed the shared state touched the object then, and made this one's
            // happens-before update (`State::hand_off`). Its step reads and writes only its
            // own fields, so it touches no object.
            // A goroutine past its step bound parks for good instead (below): a step
            // that touches nothing and changes nothing shared.
            let (handed, bound) = self.flush_reading(|st| {
                let bound = st.gors[me].steps >= st.max_steps;
                // Said before the scheduling point, where an engine asks.
                st.gors[me].pending = if bound { None } else { pending };
                (st.gors[me].handed(), bound)
            });
            let switched = woken && !engine::retry_touches(self.kind);
            if !handed && !switched && !bound {
                self.touch(objs);
            }
            if let Some(f) = &self.fate {
                // Every step reads whether the process still runs (see `fail_with`),
                // before it reads the world's own abort flag, which loom cannot see.
                f.read();
            }
            self.prune();
            if !self.await_turn(me) {
                unwind();
            }
            let mut st = self.lock();
            if st.aborted {
                drop(st);
                unwind();
            }
            // Taking a step is a move: what the goroutine wrote since its last one may be
            // what a poll waits for. Counted here, where the step is taken (a replay
            // takes it at the same place), not where the goroutine reached it.
            if std::mem::take(&mut moves) {
                st.moved(me);
            }
            // An operation writes a `sync` value's state (atomically, in Go): it races
            // with a plain copy of that state that nothing orders before it.
            if st.check_races && objs.iter().any(|o| !st.objs[o.id].copies.is_empty()) {
                let ids: Vec<usize> = objs.iter().map(|o| o.id).collect();
                if let Some(v) = st.copy_races(me, &ids) {
                    let text = say!(st, "operates on a copied value");
                    st = self.failed(st, me, v, text);
                }
            }
            st.observed = 0;
            st.hb = state::Hb::Sync;
            st.hb_only = None;
            // Parking for good is a step of its own, so that a replay parks it where
            // the execution did.
            let mut tried = if bound {
                let text = say!(st, "is cut at its step bound ({} steps)", st.max_steps);
                Attempt::Block(Wait::Bound, text)
            } else {
                attempt(&mut st, me)
            };
            // A race the attempt found, where races do not stop the execution: it is
            // kept, and the operation is attempted again, unchecked from now on (an
            // attempt that fails changes nothing), as Go's race detector lets it go on.
            let tried = loop {
                match tried {
                    Attempt::Fail(v, text) => {
                        st = self.failed(st, me, v, text);
                        tried = attempt(&mut st, me);
                    }
                    t => break t,
                }
            };
            match tried {
                Attempt::Done(r, text) => {
                    st.gors[me].pending = None;
                    let seen = std::mem::take(&mut st.observed);
                    // Every completed operation moves the goroutine on, even one that
                    // returns nothing: its history counts it.
                    st.observe(me, seen);
                    for o in objs {
                        st.operated(me, o.id);
                    }
                    let hb = std::mem::take(&mut st.hb);
                    let only = st.hb_only.take();
                    if !handed {
                        for o in objs.iter().filter(|o| only.is_none_or(|x| x == o.id)) {
                            st.order(me, o.id, hb);
                        }
                    }
                    st.sync_handoffs();
                    st.record(me, text);
                    st.completed(me);
                    let aborted = st.aborted;
                    let withdrawn = std::mem::take(&mut st.withdrawn);
                    drop(st);
                    self.withdrawn(withdrawn);
                    if aborted {
                        unwind();
                    }
                    return r;
                }
                Attempt::Block(wait, text) => {
                    st.record(me, text);
                    if st.aborted {
                        drop(st);
                        unwind();
                    }
                    st.gors[me].status = Status::Blocked;
                    st.gors[me].wait = Some(wait);
                    st.check_stuck();
                    let withdrawn = std::mem::take(&mut st.withdrawn);
                    drop(st);
                    self.withdrawn(withdrawn);
                    self.sleep(me);
                    woken = true;
                }
                Attempt::Fault(fault, text) => {
                    let v = Violation::fault(fault, &st.gors[me].name);
                    st.record(me, text);
                    drop(st);
                    self.fail_with(v);
                }
                Attempt::Fail(..) => unreachable!("a failed attempt stops the execution above"),
            }
        }
    }

    /// A violation the step being taken found (`text`, its trace line): the execution
    /// fails, unless it is a data race and races do not stop it (`State::races_on`);
    /// then the state is handed back.
    fn failed<'a>(
        &'a self,
        mut st: MutexGuard<'a, State>,
        me: Gid,
        v: Violation,
        text: String,
    ) -> MutexGuard<'a, State> {
        st.record(me, text);
        if !st.races_on(&v) {
            drop(st);
            self.fail_with(v);
        }
        if st.aborted {
            drop(st);
            unwind();
        }
        st
    }

    /// The head of a polling loop (a kernel's `for`, a model's `PollLoop::round`), at
    /// `site` (`fresh`: the loop's first round starts here).
    ///
    /// Go's scheduler is fair: a goroutine spinning in a loop never keeps the others
    /// from running. So a round that saw nothing new and changed nothing (no other
    /// goroutine moved since the last head, the world's shape is what it was, and so
    /// are the goroutine's own variables, `local`) would repeat exactly until another
    /// goroutine moves, up to the choices it made (a `select` among ready cases,
    /// `rand.Intn`), whose other values the engine runs as branches of their own; the
    /// goroutine waits for that instead (`Wait::Poll`). Every
    /// engine then gives the others their turn, and a loop that nothing can ever end is
    /// a `livelock` (or a `leak`, once main has returned), not a step bound.
    pub(crate) fn poll(
        &self,
        site: u64,
        fresh: bool,
        local: impl FnOnce() -> u128,
        name: impl FnOnce() -> String,
    ) {
        let me = self.me();
        let (idle, others) = {
            let mut st = self.lock();
            if st.aborted {
                return;
            }
            let others = st.moves - st.gors[me].moves;
            let shape = st.shape();
            let prev = st.gors[me].poll.filter(|p| !fresh && p.site == site);
            // The goroutine's variables are looked at only when nothing else differs.
            let same = prev.filter(|p| p.others == others && p.shape == shape);
            let local = same.map(|_| local());
            st.gors[me].poll = Some(PollMark {
                site,
                others,
                shape,
                local,
            });
            (
                same.is_some_and(|p| p.local.is_some() && p.local == local),
                others,
            )
        };
        if !idle {
            return;
        }
        // Idle was decided from every other goroutine's moves and the world's shape.
        engine::observed_all(self.kind);
        let site = name();
        let mut waited = false;
        self.step(me, false, None, &[], |st, _| {
            // A goroutine that moved between the decision and this step (loom can
            // switch at a census's `fate`) would find no poll to wake: it ends the wait.
            let moved = st.moves - st.gors[me].moves != others;
            if std::mem::replace(&mut waited, true) || moved {
                return Attempt::Done((), say!(st, "polls again in the loop at {site}: another goroutine moved"));
            }
            st.polling += 1;
            let text = say!(st, "polls in the loop at {site}: nothing changed in its last round, waits for another goroutine to move");
            Attempt::Block(Wait::Poll(site.clone()), text)
        });
    }

    /// Model code touching `Data` between two steps: no step and no scheduling point.
    /// `check` returns the race it found, if any, with the text of the step that
    /// reports it. After an abort the goroutine is on its way out: nothing is checked.
    pub(crate) fn plain(&self, check: impl FnOnce(&mut State, Gid) -> Option<(Violation, String)>) {
        let me = self.me();
        let mut st = self.lock();
        if st.aborted {
            return;
        }
        if let Some((v, text)) = check(&mut st, me) {
            drop(self.failed(st, me, v, text));
        }
    }

    /// Touches the engine point of every object of an operation, once per point.
    ///
    /// Under loom an operation must be one access: it reads and changes every object
    /// it names after its last touch (a select takes a case, or parks on every
    /// channel; its wake-up takes it off every queue), and loom would take those
    /// changes to be independent of the earlier points' other accesses. So an
    /// operation whose objects have different points abandons the execution and asks
    /// for an exploration with those objects in one group (`loom_engine::groups`).
    fn touch(&self, objs: &[&Obj]) {
        // Each point once: the first object that has it touches it.
        let firsts = || {
            objs.iter()
                .enumerate()
                .filter(|(i, o)| !objs[..*i].iter().any(|p| Arc::ptr_eq(&p.point, &o.point)))
                .map(|(_, o)| &o.point)
        };
        if engine::one_point_per_step(self.kind) && firsts().nth(1).is_some() {
            let mut st = self.lock();
            let names = objs.iter().map(|o| st.oname(o.id).to_string()).collect();
            st.joint.insert(names);
            // The learning execution goes on: it is run again whatever it finds.
            if !st.record_joint {
                st.regroup = true;
                st.abort();
                drop(st);
                unwind();
            }
        }
        engine::touch(self.kind, firsts().map(|p| &**p));
    }

    /// Ends the execution once the engine has found it equivalent to one it explored
    /// already (loom's sleep sets, dpor, the stateful search's visited states): nothing
    /// after that point is explored, so running on would only cost time (and could find
    /// nothing the equivalent execution does not). Ended like an abort, with no verdict.
    fn prune(&self) {
        if engine::cuts(self.kind) && engine::redundant(self.kind) {
            let mut st = self.lock();
            if !st.aborted {
                st.pruned = true;
                st.abort();
            }
            drop(st);
            unwind();
        }
    }

    /// Fails the execution from inside a goroutine (a model property broke).
    pub(crate) fn violate(&self, property: &str, message: String) -> ! {
        let me = self.me();
        let mut st = self.lock();
        st.record(me, format!("property {property} broken: {message}"));
        drop(st);
        self.fail_with(Violation::new(
            Property::Model(property.to_string()),
            message,
        ));
    }

    /// The running goroutine ran past a bound between two steps (a kernel's statement
    /// count): it fails the execution (`AtMaxSteps::Fail`), or parks for good as at
    /// its step bound.
    pub(crate) fn past_bound(&self, message: String) -> ! {
        if self.lock().at_max_steps == AtMaxSteps::Fail {
            self.fail_with(Violation::new(Property::StepBound, message));
        }
        loop {
            self.op(&[], |st, _| {
                Attempt::<()>::Block(Wait::Bound, say!(st, "is cut at its bound: {message}"))
            });
        }
    }

    /// Fails the execution as a crash of the model (not a finding).
    pub(crate) fn crash(&self, message: String) -> ! {
        let me = self.me();
        let mut st = self.lock();
        let text = say!(st, "crashes: {message}");
        st.record(me, text);
        let v = Violation::new(
            Property::Crash,
            format!("goroutine {} crashed: {message}", st.gors[me].name),
        );
        drop(st);
        self.fail_with(v);
    }

    /// Fails the execution with a violation found by the step just recorded.
    ///
    /// An abort changes what every other goroutine does next, through a flag loom
    /// cannot see. That is sound while the exploration stops at its first violation: no
    /// choice loom makes ever depends on what follows an abort. A census goes on, so
    /// there the violation takes effect at a touch of `fate`, which every step reads:
    /// two violations in independent steps then conflict, and loom explores each of
    /// them first, as a process that dies at its first fault can. (A failing step
    /// changes nothing shared before this, so steps that run in between see the state
    /// as it was.)
    pub(crate) fn fail_with(&self, v: Violation) -> ! {
        if let Some(f) = &self.fate {
            self.flush();
            f.touch();
        }
        let mut st = self.lock();
        st.fail(v);
        drop(st);
        unwind();
    }

    /// Replay only: parks until the schedule says it is this goroutine's step.
    /// Returns false if the execution was aborted meanwhile.
    fn await_turn(&self, me: Gid) -> bool {
        if !self.replaying {
            return true;
        }
        loop {
            let mut st = self.lock();
            if st.aborted {
                return false;
            }
            let step = st.trace.len();
            let Some(want) = st.replay.as_ref().map(|s| s.get(step).map(|t| t.gid)) else {
                return true;
            };
            match want {
                Some(g) if g == me => return true,
                Some(_) => {
                    st.gors[me].status = Status::Turn;
                    st.check_stuck();
                    drop(st);
                    self.sleep(me);
                }
                None => {
                    // A race's schedule ends where it shows the race (`go_on`).
                    let v = match st.race.as_ref().filter(|r| r.1 == step) {
                        Some((race, _)) => race.clone(),
                        None => Violation::new(
                            Property::Diverged,
                            format!(
                                "the schedule ends after step {step}, but {} took another step",
                                st.gors[me].name
                            ),
                        ),
                    };
                    st.fail(v);
                    drop(st);
                    return false;
                }
            }
        }
    }

    /// Parks until another goroutine (or the abort) wakes this one.
    fn sleep(&self, me: Gid) {
        loop {
            let st = self.lock();
            if st.gors[me].status == Status::Running {
                return;
            }
            let t = st.gors[me]
                .thread
                .clone()
                .expect("a goroutine parks after register");
            drop(st);
            self.flush();
            t.park();
        }
    }

    /// Declares that this model shares memory the race detector does not check (a Go
    /// kernel's plain variables): loom then keeps a goroutine whose step has no
    /// operation pending out of sleep sets, as that step may touch such memory.
    pub(crate) fn unchecked_memory(&self) {
        engine::assume_local_steps(self.kind, false);
        self.raced_memory();
    }

    /// Declares that this model keeps memory outside the world that the race detector
    /// checks (a Go kernel's variables with `check_races`): loom may keep a step out
    /// of sleep sets as for `Data`, but no state fingerprint can see that memory.
    pub(crate) fn raced_memory(&self) {
        self.lock().unchecked = true;
    }

    /// The running goroutine, for what it learns outside an operation. Only a history
    /// (`prints`) needs it, and looking it up costs a lock: otherwise 0, never read.
    fn observer(&self) -> Gid {
        if self.prints { self.me() } else { 0 }
    }

    /// A new object, made by the running goroutine.
    pub(crate) fn add(&self, name: &str, kind: ObjKind) -> Oid {
        let me = self.observer();
        self.lock().add(me, name, kind)
    }

    /// The virtual clock, as the running goroutine reads it.
    pub(crate) fn now(&self) -> std::time::Duration {
        let me = self.observer();
        let mut st = self.lock();
        let now = st.now;
        st.observe(me, now.as_nanos());
        now
    }

    /// Starts a goroutine.
    pub(crate) fn go(self: &Arc<Self>, name: &str, f: Box<dyn FnOnce() + Send>) -> Gid {
        let max = engine::max_threads(self.kind);
        if let Some(max) = max.filter(|&m| self.lock().gors.len() >= m) {
            let msg = format!(
                "loom runs at most {max} threads per execution, main included, and this model starts another ({name}); run it with fewer goroutines under loom, or under shuttle"
            );
            self.fail_with(Violation::new(Property::Crash, msg));
        }
        let child = self.op(&[], |st, me| {
            let g = st.spawn(name, Some(me));
            st.observed = g as u128;
            Attempt::Done(g, say!(st, "go {name}"))
        });
        let w = self.clone();
        self.flush();
        let join = engine::spawn(self.kind, move || w.run_goroutine(child, f));
        self.lock().joins.push(join);
        child
    }

    fn register(&self, me: Gid) {
        let (key, thread) = engine::register(self.kind);
        let mut st = self.lock();
        st.gors[me].key = Some(key);
        st.gors[me].thread = Some(thread);
    }

    fn run_goroutine(self: Arc<Self>, me: Gid, f: Box<dyn FnOnce() + Send>) {
        self.register(me);
        // Starting is a step: the code before the goroutine's first operation then runs
        // at a fixed place in the step order, in a run and in its replay alike.
        let clean = self.guard(me, || {
            self.op(&[], |st, _| Attempt::Done((), say!(st, "starts")));
            f()
        });
        self.finish(me, clean);
    }

    /// Runs goroutine code; a model panic becomes a `crash` violation.
    fn guard(&self, me: Gid, f: impl FnOnce()) -> bool {
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(()) => true,
            Err(p) if p.is::<Abort>() => false,
            Err(p) => {
                let mut st = self.lock();
                let msg = engine::panic_text(&*p);
                st.record(me, format!("panics: {msg}"));
                let v = Violation::new(
                    Property::Crash,
                    format!("goroutine {} panicked: {msg}", st.gors[me].name),
                );
                st.fail(v);
                drop(st);
                false
            }
        }
    }

    fn finish(&self, me: Gid, clean: bool) {
        let clean = clean && self.await_turn(me);
        let mut st = self.lock();
        st.moved(me);
        if clean && !st.aborted {
            let text = say!(st, "returns");
            st.record(me, text);
        }
        st.gors[me].status = Status::Done;
        st.check_stuck();
        drop(st);
        self.flush();
    }

    /// Runs the model's main goroutine, then waits for every other goroutine (goleak's
    /// notion: a goroutine still blocked once the rest have finished is a leak).
    pub(crate) fn run_root(self: &Arc<Self>, f: impl FnOnce()) -> Execution {
        {
            let mut st = self.lock();
            st.spawn("main", None);
            // Model code between operations touches `Data` and `Var`, whose accesses the
            // race detector checks: with it on, that code is thread-local for loom's
            // purposes unless a race is reported (see `unchecked_memory`).
            engine::assume_local_steps(self.kind, st.check_races);
        }
        if self.stateful {
            let w = Arc::downgrade(self);
            engine::show_states(Some(Box::new(move || {
                let w = w.upgrade()?;
                let st = w.st.try_lock().ok()?;
                st.fingerprint()
            })));
        }
        let w = Arc::downgrade(self);
        engine::show_steps(
            self.kind,
            Box::new(move |each| {
                let Some(w) = w.upgrade() else { return };
                let Ok(st) = w.st.try_lock() else { return };
                for (g, gor) in st.gors.iter().enumerate() {
                    if let Some(key) = gor.key {
                        each(key, st.open(g), st.mode(g));
                    }
                }
            }),
        );
        self.register(0);
        let clean = self.guard(0, f);
        let clean = clean && self.await_turn(0);
        let mut st = self.lock();
        st.moved(0);
        if clean && !st.aborted {
            let text = say!(st, "returns; waits for the other goroutines");
            st.record(0, text);
        }
        if st.aborted {
            // Everyone is unwinding already: nothing to wait for but the joins.
            st.gors[0].status = Status::Running;
            drop(st);
        } else {
            st.gors[0].status = Status::Joining;
            // Woken when the others are done, it is running again, and its last step
            // still touches nothing (`State::mode`).
            st.gors[0].pending = Some(Pending::End);
            st.check_stuck();
            drop(st);
            self.sleep(0);
        }
        self.flush();
        let joins = std::mem::take(&mut self.lock().joins);
        // Every goroutine has finished its steps; its thread only has to return. loom
        // runs every thread to its end without a join, and a join is one more operation
        // for its DPOR to order against each thread's end, with main asleep until then,
        // which loom answers by exploring every thread there: 5x more executions for
        // nothing. shuttle too runs them to their end, and its join would only be one more
        // scheduling point with nothing left to order. An aborted execution still joins:
        // the loom engine unwinds out of main to stop, and must find no other thread left.
        let join = self.lock().aborted;
        if join {
            for j in joins {
                j.join();
            }
        }
        engine::show_states(None);
        self.clock.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut st = self.lock();
        let end = (self.census && self.prints && !st.aborted)
            .then(|| st.fingerprint())
            .flatten();
        let cut = st.cut && st.violation.is_none();
        Execution {
            end,
            violation: st.violation.take(),
            steps: std::mem::take(&mut st.trace),
            names: if st.quiet {
                Vec::new()
            } else {
                st.gors.iter().map(|g| g.name.clone()).collect()
            },
            joint: std::mem::take(&mut st.joint),
            regroup: st.regroup,
            pruned: st.pruned,
            cut,
            race: st.race.take(),
        }
    }

    /// Enters a model function for the trace and the wait-for report.
    pub(crate) fn enter(&self, func: &'static str) {
        let me = self.me();
        self.lock().gors[me].funcs.push(func);
    }

    /// Replaces the innermost function mark (see `Go::at`).
    pub(crate) fn relabel(&self, func: &'static str) {
        let me = self.me();
        if let Some(f) = self.lock().gors[me].funcs.last_mut() {
            *f = func;
        }
    }

    pub(crate) fn leave(&self) {
        let me = self.me();
        self.lock().gors[me].funcs.pop();
    }
}
