//! sync.Mutex, sync.RWMutex, sync.WaitGroup, sync.Once, sync.Cond.

use super::{Go, Obj};
use crate::verdict::{Property, Violation};
use crate::world::say;
use crate::world::{
    Access, Attempt, Fault, Gid, Gor, Hb, Holder, ObjKind, Oid, OnceState, Pending, State, Wait,
    WaitGroupUse,
};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

fn holder(st: &State, me: Gid) -> Holder {
    Holder {
        gid: me,
        step: st.trace.len(),
        func: st.gors[me].func(),
    }
}

/// Why an RWMutex keeps a goroutine out: its writer, or the writer waiting for it.
fn blocker(gors: &[Gor], writer: &Option<Holder>, pending: &Option<Gid>, waiting: &str) -> String {
    match (writer, pending) {
        (Some(w), _) => format!("held by {}", gors[w.gid].name),
        (None, Some(p)) => format!("writer {} {waiting}", gors[*p].name),
        (None, None) => unreachable!("blocked on a free RWMutex"),
    }
}

fn names(st: &State, hs: &[Holder]) -> String {
    // Sorted: the order readers got in is no behaviour (read locks commute).
    let mut v: Vec<&str> = hs.iter().map(|h| st.name(h.gid)).collect();
    v.sort_unstable();
    v.join(", ")
}

impl Go {
    /// A copy of a `sync` or `sync/atomic` value's object, as Go copies the value
    /// (`s2 := s1`, a value receiver): a new object in the state the original is in,
    /// with nobody waiting on it and no race history. `None` for another object.
    pub(crate) fn copy_object(&self, o: &Obj) -> Option<Arc<Obj>> {
        // Go reads the state plainly; the race detector checks that read against the
        // value's operations (an atomic's own accesses check it: `Atomic::plain_access`).
        self.w.plain(|st, me| {
            if matches!(st.objs[o.id].kind, ObjKind::Atomic { .. }) {
                return None;
            }
            let race = st.copied(me, o.id)?;
            Some((race, say!(st, "copies {}", st.oname(o.id))))
        });
        let (name, kind) = {
            let st = self.w.lock();
            let obj = &st.objs[o.id];
            let kind = match &obj.kind {
                ObjKind::Mutex { holder } => ObjKind::Mutex {
                    holder: holder.clone(),
                },
                ObjKind::RwMutex {
                    writer, readers, ..
                } => ObjKind::RwMutex {
                    writer: writer.clone(),
                    pending: None,
                    readers: readers.clone(),
                },
                ObjKind::WaitGroup { count, .. } => ObjKind::WaitGroup {
                    count: *count,
                    uses: Default::default(),
                },
                ObjKind::Once { state } => ObjKind::Once { state: *state },
                ObjKind::Atomic { value, .. } => ObjKind::Atomic {
                    value: *value,
                    var: Default::default(),
                },
                _ => return None,
            };
            (format!("{} (a copy)", obj.name), kind)
        };
        Some(self.obj(&name, kind))
    }
}

impl Mutex {
    /// A copy of the mutex, as Go copies one (`Go::copy_object`).
    pub(crate) fn copied(&self, go: &Go) -> Mutex {
        Mutex(go.copy_object(&self.0).expect("a mutex"))
    }
    /// Its object's number in the world (what a goroutine reaches: `State::reach`).
    pub(crate) fn oid(&self) -> usize {
        self.0.id
    }
}

impl RwMutex {
    /// A copy of the RWMutex, as Go copies one (`Go::copy_object`).
    pub(crate) fn copied(&self, go: &Go) -> RwMutex {
        RwMutex(go.copy_object(&self.0).expect("an RWMutex"))
    }
    /// Its object's number in the world (what a goroutine reaches: `State::reach`).
    pub(crate) fn oid(&self) -> usize {
        self.0.id
    }
}

impl WaitGroup {
    /// A copy of the WaitGroup, as Go copies one (`Go::copy_object`).
    pub(crate) fn copied(&self, go: &Go) -> WaitGroup {
        WaitGroup(go.copy_object(&self.0).expect("a WaitGroup"))
    }
    /// Its object's number in the world (what a goroutine reaches: `State::reach`).
    pub(crate) fn oid(&self) -> usize {
        self.0.id
    }
}

impl Once {
    /// A copy of the Once, as Go copies one (`Go::copy_object`).
    pub(crate) fn copied(&self, go: &Go) -> Once {
        Once(go.copy_object(&self.0).expect("a Once"))
    }
    /// Its object's number in the world (what a goroutine reaches: `State::reach`).
    pub(crate) fn oid(&self) -> usize {
        self.0.id
    }
}

/// Go's `sync.Mutex`. Lock and unlock are separate calls, and any goroutine may
/// unlock, as in Go; unlocking an unlocked mutex is a fault.
#[derive(Clone)]
pub struct Mutex(Arc<Obj>);

impl Go {
    pub fn mutex(&self, name: &str) -> Mutex {
        Mutex(self.obj(name, ObjKind::Mutex { holder: None }))
    }
}

impl Mutex {
    pub fn lock(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::Lock(o.id), |st, me| {
            let h = holder(st, me);
            let name = st.label(o.id);
            let obj = &mut st.objs[o.id];
            let ObjKind::Mutex { holder } = &mut obj.kind else {
                unreachable!()
            };
            match holder {
                None => {
                    *holder = Some(h);
                    Attempt::Done((), say!(st, "lock {name}"))
                }
                Some(cur) => {
                    let who = cur.gid;
                    obj.waiters.push(me);
                    let text = say!(st, "lock {name}: held by {}, waits", st.name(who));
                    Attempt::Block(Wait::Lock(o.id), text)
                }
            }
        })
    }

    pub fn unlock(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::Unlock(o.id), |st, _| {
            let name = st.label(o.id);
            let ObjKind::Mutex { holder } = &mut st.objs[o.id].kind else {
                unreachable!()
            };
            if holder.take().is_none() {
                return Attempt::Fault(
                    Fault::UnlockOfUnlockedMutex,
                    say!(st, "unlock {name}: not locked"),
                );
            }
            st.wake_all(o.id);
            Attempt::Done((), say!(st, "unlock {name}"))
        })
    }
}

/// Go's `sync.RWMutex`, writer preference included: once a writer waits, new readers
/// block, so a goroutine that read-locks twice can deadlock with a writer.
#[derive(Clone)]
pub struct RwMutex(Arc<Obj>);

impl Go {
    pub fn rwmutex(&self, name: &str) -> RwMutex {
        RwMutex(self.obj(
            name,
            ObjKind::RwMutex {
                writer: None,
                pending: None,
                readers: Vec::new(),
            },
        ))
    }
}

impl RwMutex {
    pub fn rlock(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::RLock(o.id), |st, me| {
            let name = st.label(o.id);
            if std::mem::take(&mut st.gors[me].granted) {
                return Attempt::Done(
                    (),
                    say!(st, "rlock {name} (let in when the writer unlocked)"),
                );
            }
            let h = holder(st, me);
            let obj = &mut st.objs[o.id];
            let ObjKind::RwMutex {
                writer,
                pending,
                readers,
            } = &mut obj.kind
            else {
                unreachable!()
            };
            if writer.is_none() && pending.is_none() {
                // Kept in goroutine order, not arrival order: two read locks that get
                // in leave the same readers whichever goes first (they commute).
                let at = readers.partition_point(|x| x.gid <= me);
                readers.insert(at, h);
                st.hb = Hb::Acquire;
                return Attempt::Done((), say!(st, "rlock {name}"));
            }
            let why = blocker(&st.gors, writer, pending, "waits for it");
            obj.waiters.push(me);
            Attempt::Block(Wait::RLock(o.id), say!(st, "rlock {name}: {why}, waits"))
        })
    }

    pub fn runlock(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::RUnlock(o.id), |st, me| {
            let name = st.label(o.id);
            let ObjKind::RwMutex {
                pending, readers, ..
            } = &mut st.objs[o.id].kind
            else {
                unreachable!()
            };
            if readers.is_empty() {
                return Attempt::Fault(
                    Fault::RUnlockOfUnlockedRwMutex,
                    say!(st, "runlock {name}: not read-locked"),
                );
            }
            // Go lets any goroutine release a read lock; drop the caller's latest if it
            // has one (a recursive read lock keeps the one taken first).
            let i = readers.iter().rposition(|h| h.gid == me).unwrap_or(0);
            readers.remove(i);
            // The pending writer retries rather than being handed the lock: its retry
            // is an operation on the lock, which tells loom's DPOR that what it does next
            // follows this unlock (measured: half the executions of the cacher proof).
            if let Some(p) = pending.filter(|_| readers.is_empty()) {
                st.wake(p);
            }
            st.hb = Hb::ReaderRelease;
            Attempt::Done((), say!(st, "runlock {name}"))
        })
    }

    pub fn lock(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::Lock(o.id), |st, me| {
            let name = st.label(o.id);
            let h = holder(st, me);
            let obj = &mut st.objs[o.id];
            let ObjKind::RwMutex {
                writer,
                pending,
                readers,
            } = &mut obj.kind
            else {
                unreachable!()
            };
            let mine = *pending == Some(me);
            if writer.is_none() && (pending.is_none() || mine) {
                if readers.is_empty() {
                    *pending = None;
                    *writer = Some(h);
                    st.hb = Hb::Writer;
                    return Attempt::Done((), say!(st, "lock {name}"));
                }
                *pending = Some(me);
                let rs = names(
                    st,
                    match &st.objs[o.id].kind {
                        ObjKind::RwMutex { readers, .. } => readers,
                        _ => unreachable!(),
                    },
                );
                st.objs[o.id].waiters.push(me);
                let text = say!(
                    st,
                    "lock {name}: read-locked by {rs}, waits (new readers now wait too)"
                );
                return Attempt::Block(Wait::WLock(o.id), text);
            }
            let why = blocker(&st.gors, writer, pending, "is first in line");
            obj.waiters.push(me);
            Attempt::Block(Wait::WLock(o.id), say!(st, "lock {name}: {why}, waits"))
        })
    }

    pub fn unlock(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::Unlock(o.id), |st, _| {
            let name = st.label(o.id);
            let step = st.trace.len();
            let ObjKind::RwMutex { writer, .. } = &mut st.objs[o.id].kind else {
                unreachable!()
            };
            if writer.take().is_none() {
                return Attempt::Fault(
                    Fault::UnlockOfUnlockedRwMutex,
                    say!(st, "unlock {name}: not write-locked"),
                );
            }
            // Go admits the readers that queued behind the writer before any next writer.
            let waiting = std::mem::take(&mut st.objs[o.id].waiters);
            let mut admitted = Vec::new();
            for g in waiting {
                if matches!(st.gors[g].wait, Some(Wait::RLock(_))) {
                    admitted.push(Holder {
                        gid: g,
                        step,
                        func: st.gors[g].func(),
                    });
                    st.gors[g].granted = true;
                    st.hand_off_as(g, o.id, Hb::Acquire);
                } else {
                    st.wake(g);
                }
            }
            let ObjKind::RwMutex { readers, .. } = &mut st.objs[o.id].kind else {
                unreachable!()
            };
            readers.extend(admitted);
            readers.sort_by_key(|h| h.gid);
            Attempt::Done((), say!(st, "unlock {name}"))
        })
    }
}

/// Go's `sync.WaitGroup`.
#[derive(Clone)]
pub struct WaitGroup(Arc<Obj>);

impl Go {
    pub fn waitgroup(&self, name: &str) -> WaitGroup {
        WaitGroup(self.obj(
            name,
            ObjKind::WaitGroup {
                count: 0,
                uses: Default::default(),
            },
        ))
    }
}

impl WaitGroup {
    pub fn add(&self, n: i64) {
        let o = &self.0;
        o.w.op(&[o], |st, me| add(st, me, o.id, n))
    }

    pub fn done(&self) {
        let o = &self.0;
        // As Go's race detector has it: a Done publishes, and acquires nothing (`add`).
        o.w.marked(&[o], Pending::Done(o.id), |st, me| add(st, me, o.id, -1))
    }

    pub fn wait(&self) {
        let o = &self.0;
        o.w.marked(&[o], Pending::Wait(o.id), |st, me| {
            let name = st.label(o.id);
            if std::mem::take(&mut st.gors[me].granted) {
                return Attempt::Done((), say!(st, "wait {name} (released at zero)"));
            }
            // The call, checked against the Adds from zero (`WaitGroupUse`).
            if let Some(race) = wait_use(st, me, o.id) {
                let text = say!(st, "wait {name}");
                return Attempt::Fail(race, text);
            }
            let obj = &mut st.objs[o.id];
            let ObjKind::WaitGroup { count, .. } = &obj.kind else {
                unreachable!()
            };
            if *count == 0 {
                // As Go's race detector has it: a Wait acquires what the Dones
                // published, and publishes nothing (waiters do not order each other).
                st.hb = Hb::Acquire;
                return Attempt::Done((), say!(st, "wait {name}"));
            }
            let text = say!(st, "wait {name}: counter {count}, waits");
            obj.waiters.push(me);
            Attempt::Block(Wait::Group(o.id), text)
        })
    }
}

fn add(st: &mut State, me: Gid, o: Oid, n: i64) -> Attempt<()> {
    let name = st.label(o);
    let ObjKind::WaitGroup { count, .. } = &st.objs[o].kind else {
        unreachable!()
    };
    let (was, c) = (*count, *count + n);
    if c < 0 {
        return Attempt::Fault(
            Fault::NegativeWaitGroupCounter,
            say!(st, "add {n} to {name}: counter {c}"),
        );
    }
    if was == 0
        && n > 0
        && let Some(race) = add_use(st, me, o, n)
    {
        return Attempt::Fail(race, say!(st, "add {n} to {name}: counter {c}"));
    }
    let ObjKind::WaitGroup { count, .. } = &mut st.objs[o].kind else {
        unreachable!()
    };
    *count = c;
    // Go's race detector: a decrement publishes (`Done`), an increment orders nothing.
    st.hb = if n < 0 { Hb::Release } else { Hb::Unordered };
    if c == 0 {
        // The waiters released at zero acquire only, as a Wait at zero does.
        st.grant_all(o, Hb::Acquire);
    }
    let verb = if n == -1 {
        "done".to_string()
    } else {
        format!("add {n} to")
    };
    Attempt::Done((), say!(st, "{verb} {name} (counter {c})"))
}

/// The uses of WaitGroup `o` recorded for the race detector.
fn uses_of(st: &mut State, o: Oid) -> &mut WaitGroupUse {
    match &mut st.objs[o].kind {
        ObjKind::WaitGroup { uses, .. } => uses,
        _ => unreachable!("not a WaitGroup"),
    }
}

/// An `Add` of `n` from zero by `me`: a read of the WaitGroup for the race detector,
/// which races with every `Wait` that does not happen before it.
fn add_use(st: &mut State, me: Gid, o: Oid, n: i64) -> Option<Violation> {
    if !st.check_races {
        return None;
    }
    let now = st.access(me);
    let ObjKind::WaitGroup { uses, .. } = &st.objs[o].kind else {
        unreachable!()
    };
    if let Some(w) = uses.waits.iter().find(|w| !st.happened_before(w, me)) {
        return Some(reused(st, o, (&now, n), w, false));
    }
    let adds = &mut uses_of(st, o).adds;
    adds.retain(|(a, _)| a.gid != me);
    adds.push((now, n));
    None
}

/// A `Wait` called by `me`: a write of the WaitGroup for the race detector, which
/// races with every `Add` from zero that does not happen before it.
fn wait_use(st: &mut State, me: Gid, o: Oid) -> Option<Violation> {
    if !st.check_races {
        return None;
    }
    let now = st.access(me);
    let ObjKind::WaitGroup { uses, .. } = &st.objs[o].kind else {
        unreachable!()
    };
    if let Some((a, n)) = uses.adds.iter().find(|(a, _)| !st.happened_before(a, me)) {
        return Some(reused(st, o, (a, *n), &now, true));
    }
    let waits = &mut uses_of(st, o).waits;
    waits.retain(|w| w.gid != me);
    waits.push(now);
    None
}

/// The data race of an `Add` from zero and a `Wait` that nothing orders; `wait_last`:
/// the `Wait` is the access that found it.
fn reused(
    st: &State,
    o: Oid,
    (add, n): (&Access, i64),
    wait: &Access,
    wait_last: bool,
) -> Violation {
    let at = Access::at_step;
    let (name, wg) = (st.name(add.gid), st.oname(o));
    let added = format!("{name} added {n} to WaitGroup {wg} from zero {}", at(add));
    let waited = format!("{} waited on it {}", st.name(wait.gid), at(wait));
    let (first, second) = if wait_last {
        (added, waited)
    } else {
        (
            format!(
                "{} waited on WaitGroup {wg} {}",
                st.name(wait.gid),
                at(wait)
            ),
            format!("{name} added {n} to it from zero {}", at(add)),
        )
    };
    Violation::new(
        Property::DataRace,
        format!(
            "{first}; {second}; nothing orders the two (an Add from zero must happen before a Wait, or after it returns)"
        ),
    )
}

/// Go's `sync.Once`.
#[derive(Clone)]
pub struct Once(Arc<Obj>);

impl Go {
    pub fn once(&self, name: &str) -> Once {
        Once(self.obj(
            name,
            ObjKind::Once {
                state: OnceState::New,
            },
        ))
    }
}

impl Once {
    pub fn run(&self, f: impl FnOnce()) {
        let o = &self.0;
        let first = o.w.op(&[o], |st, me| {
            let name = st.label(o.id);
            if std::mem::take(&mut st.gors[me].granted) {
                return Attempt::Done(false, say!(st, "once {name}: done by another goroutine"));
            }
            let obj = &mut st.objs[o.id];
            let ObjKind::Once { state } = &mut obj.kind else {
                unreachable!()
            };
            match *state {
                OnceState::New => {
                    *state = OnceState::Running(me);
                    st.observed = 1;
                    Attempt::Done(true, say!(st, "once {name}: runs it"))
                }
                OnceState::Done => {
                    // Go's fast path: an atomic load of `done`, which acquires only.
                    st.hb = Hb::Acquire;
                    Attempt::Done(false, say!(st, "once {name}: already done"))
                }
                OnceState::Running(g) => {
                    obj.waiters.push(me);
                    let text = say!(st, "once {name}: {} runs it, waits", st.name(g));
                    Attempt::Block(Wait::Once(o.id), text)
                }
            }
        });
        if first {
            f();
            o.w.op(&[o], |st, _| {
                let name = st.label(o.id);
                let ObjKind::Once { state } = &mut st.objs[o.id].kind else {
                    unreachable!()
                };
                *state = OnceState::Done;
                st.grant_all(o.id, Hb::Sync);
                Attempt::Done((), say!(st, "once {name}: done"))
            });
        }
    }
}

/// What a [`Cond`] locks around `Wait`: Go's `sync.Locker`.
#[derive(Clone)]
pub enum Locker {
    Mutex(Mutex),
    /// The write lock of an RWMutex.
    RwMutex(RwMutex),
    /// The read lock of an RWMutex (`rw.RLocker()`).
    RLocker(RwMutex),
}

impl From<&Mutex> for Locker {
    fn from(m: &Mutex) -> Locker {
        Locker::Mutex(m.clone())
    }
}

impl From<&RwMutex> for Locker {
    fn from(m: &RwMutex) -> Locker {
        Locker::RwMutex(m.clone())
    }
}

impl Locker {
    pub fn lock(&self) {
        match self {
            Locker::Mutex(m) => m.lock(),
            Locker::RwMutex(m) => m.lock(),
            Locker::RLocker(m) => m.rlock(),
        }
    }

    pub fn unlock(&self) {
        match self {
            Locker::Mutex(m) => m.unlock(),
            Locker::RwMutex(m) => m.unlock(),
            Locker::RLocker(m) => m.runlock(),
        }
    }
}

/// Go's `sync.Cond` (`sync.NewCond(l)`). `Wait` takes its place in line, unlocks `l`,
/// parks until signalled and locks `l` again, as Go's does; a `Signal` with nobody in
/// line is lost. As for Go's race detector, a Cond orders nothing (`sync.Cond` and the
/// runtime's notify list make no annotation): a waiter is ordered after a signaller
/// only through `l`.
#[derive(Clone)]
pub struct Cond {
    o: Arc<Obj>,
    l: Locker,
}

impl Go {
    pub fn cond(&self, name: &str, l: impl Into<Locker>) -> Cond {
        let kind = ObjKind::Cond {
            waiting: Default::default(),
            signalled: Default::default(),
            signallers: Default::default(),
        };
        Cond {
            o: self.obj(name, kind),
            l: l.into(),
        }
    }
}

fn cond_state(st: &mut State, o: usize) -> (&mut VecDeque<Gid>, &mut BTreeSet<Gid>) {
    match &mut st.objs[o].kind {
        ObjKind::Cond {
            waiting, signalled, ..
        } => (waiting, signalled),
        _ => unreachable!("not a Cond"),
    }
}

impl Cond {
    /// Its object's number in the world.
    pub(crate) fn oid(&self) -> usize {
        self.o.id
    }

    /// `c.L`: the locker.
    pub fn locker(&self) -> &Locker {
        &self.l
    }

    /// `c.Wait()`. As in Go, the caller must hold `c.L`.
    pub fn wait(&self) {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let name = st.label(o.id);
            st.hb = Hb::Unordered;
            cond_state(st, o.id).0.push_back(me);
            Attempt::Done((), say!(st, "wait {name}: in line; unlocks its locker"))
        });
        self.l.unlock();
        o.w.op(&[o], |st, me| {
            let name = st.label(o.id);
            st.hb = Hb::Unordered;
            if std::mem::take(&mut st.gors[me].granted) {
                return Attempt::Done((), say!(st, "wait {name}: signalled"));
            }
            if cond_state(st, o.id).1.remove(&me) {
                return Attempt::Done((), say!(st, "wait {name}: signalled before it parked"));
            }
            Attempt::Block(Wait::Cond(o.id), say!(st, "wait {name}: parks"))
        });
        self.l.lock();
    }

    /// `c.Signal()`: wakes the first goroutine in line, if any.
    pub fn signal(&self) {
        self.notify(false)
    }

    /// `c.Broadcast()`: wakes every goroutine in line.
    pub fn broadcast(&self) {
        self.notify(true)
    }

    fn notify(&self, all: bool) {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let name = st.label(o.id);
            let verb = if all { "broadcast" } else { "signal" };
            st.hb = Hb::Unordered;
            if let ObjKind::Cond { signallers, .. } = &mut st.objs[o.id].kind {
                signallers.insert(me);
            }
            let (waiting, _) = cond_state(st, o.id);
            let n = if all {
                waiting.len()
            } else {
                waiting.len().min(1)
            };
            let woken: Vec<Gid> = waiting.drain(..n).collect();
            if woken.is_empty() {
                return Attempt::Done((), say!(st, "{verb} {name}: nobody waits (lost)"));
            }
            for &g in &woken {
                // A goroutine already parked is handed its wake-up; one between its
                // place in line and its park finds it when it gets there.
                if matches!(st.gors[g].wait, Some(Wait::Cond(c)) if c == o.id) {
                    st.gors[g].granted = true;
                    st.hand_off_as(g, o.id, Hb::Unordered);
                } else {
                    cond_state(st, o.id).1.insert(g);
                }
            }
            let names: Vec<&str> = woken.iter().map(|&g| st.name(g)).collect();
            Attempt::Done((), say!(st, "{verb} {name}: wakes {}", names.join(", ")))
        })
    }
}
