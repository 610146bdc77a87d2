//! Channels and select, with Go's semantics: capacity 0 is a rendezvous, a receive
//! from a closed channel returns at once, a send on or close of a closed channel is a
//! fault. A blocked send or receive is completed by the goroutine that matches it
//! (Go's direct hand-off), so a rendezvous sender blocks until a receiver has the value.

use super::{Go, Obj};
use crate::verdict::{Property, Violation};
use crate::world::say;
use crate::world::{
    Attempt, Chan as ChanState, Dir, Fault, Gid, Hb, ObjKind, Oid, Pending, State, Val, Wait, World,
};
use std::collections::{BTreeSet, VecDeque};
use std::marker::PhantomData;
use std::sync::Arc;

/// A Go channel carrying `T`.
pub struct Chan<T> {
    pub(super) o: Arc<Obj>,
    /// Made by `Go::done_chan`: never sent on.
    done: bool,
    _t: PhantomData<fn(T) -> T>,
}

impl<T> Chan<T> {
    /// Its object's number in the world.
    pub(crate) fn oid(&self) -> usize {
        self.o.id
    }
}

impl<T> Clone for Chan<T> {
    fn clone(&self) -> Self {
        Chan {
            o: self.o.clone(),
            done: self.done,
            _t: PhantomData,
        }
    }
}

/// The result of a non-blocking receive.
#[derive(Debug, PartialEq, Eq)]
pub enum TryRecv<T> {
    Value(T),
    Closed,
    Empty,
}

impl Go {
    /// `make(chan T, cap)`.
    pub fn chan<T: Send + 'static>(&self, name: &str, cap: usize) -> Chan<T> {
        self.make_chan(name, cap, false, false)
    }

    /// `make(chan struct{})` used as a done channel, as a context's `Done()` is: only
    /// received from (plainly or in selects) and closed, never sent on; a send on it
    /// panics the model. Under `dpor` a select waiting there beside buffered channels
    /// is kept back as one whose cases are all buffered is (nobody can meet it there
    /// but a close): use it for every channel a program only closes.
    pub fn done_chan<T: Send + 'static>(&self, name: &str) -> Chan<T> {
        self.make_chan(name, 0, false, true)
    }

    /// `var c chan T`: a nil channel. Sending or receiving blocks forever, a select
    /// never picks its case, and closing it is a fault.
    pub fn nil_chan<T: Send + 'static>(&self, name: &str) -> Chan<T> {
        self.make_chan(name, 0, true, false)
    }

    fn make_chan<T: Send + 'static>(
        &self,
        name: &str,
        cap: usize,
        nil: bool,
        done: bool,
    ) -> Chan<T> {
        let c = ChanState {
            nil,
            done,
            cap,
            buf: VecDeque::new(),
            closed: false,
            recvq: VecDeque::new(),
            sendq: VecDeque::new(),
            receivers: BTreeSet::new(),
            senders: BTreeSet::new(),
            slots: vec![Vec::new(); cap],
            recvx: 0,
            sends: Vec::new(),
            ticker: None,
            tick: None,
            placed: None,
        };
        Chan {
            o: self.obj(name, ObjKind::Chan(c)),
            done,
            _t: PhantomData,
        }
    }

    /// A `select` statement: add cases, then `wait`. With no case and no default it is
    /// `select {}`, which blocks forever.
    pub fn select(&self) -> Select<'_> {
        Select {
            go: self,
            cases: Vec::new(),
            default: false,
        }
    }
}

impl<T: Send + 'static> Chan<T> {
    /// `ch <- v`
    pub fn send(&self, v: T) {
        let f = run(&self.o.w, &[Case::send(self, v)], false);
        debug_assert_eq!(f.index, Some(0));
    }

    /// `v, ok := <-ch`: `None` once the channel is closed and drained.
    pub fn recv(&self) -> Option<T> {
        run(&self.o.w, &[Case::recv(self)], false).take()
    }

    /// `select { case ch <- v: return true; default: return false }`
    pub fn try_send(&self, v: T) -> bool {
        run(&self.o.w, &[Case::send(self, v)], true).index.is_some()
    }

    /// `select { case v, ok := <-ch: ...; default: ... }`
    pub fn try_recv(&self) -> TryRecv<T> {
        let mut f = run(&self.o.w, &[Case::recv(self)], true);
        match (f.index, f.take::<T>()) {
            (None, _) => TryRecv::Empty,
            (Some(_), Some(v)) => TryRecv::Value(v),
            (Some(_), None) => TryRecv::Closed,
        }
    }

    /// `len(ch)`: the values in its buffer. At a buffered channel, one step that every
    /// send, receive and close of the channel depends on, since each may change what it
    /// reads; it orders nothing
    /// (Go's memory model gives `len` no edge, and the race detector does not see it).
    #[allow(clippy::len_without_is_empty)] // Go has `len`, not `is_empty`
    pub fn len(&self) -> usize {
        // An unbuffered channel's buffer is always empty: nothing to read.
        if self.cap() == 0 {
            return 0;
        }
        let o = &self.o;
        o.w.op(&[o], |st, _| {
            let name = st.label(o.id);
            let n = chan(st, o.id).buf.len();
            st.observed = n as u128;
            st.hb = Hb::Unordered;
            Attempt::Done(n, say!(st, "len {name}: {n}"))
        })
    }

    /// `cap(ch)`: fixed when the channel was made, so reading it is no step.
    pub fn cap(&self) -> usize {
        chan(&mut self.o.w.lock(), self.o.id).cap
    }

    /// `close(ch)`
    pub fn close(&self) {
        self.close_as(false);
    }

    /// Closes the channel unless it is closed already, as a context's cancel closes
    /// its `Done`: Go sets the error and closes `Done` under the context's mutex, so a
    /// later cancel waits for both and finds them done (here it syncs with the
    /// channel, as that lock would with the first cancel's unlock). Returns whether
    /// it closed it.
    pub(crate) fn close_once(&self) -> bool {
        self.close_as(true)
    }

    fn close_as(&self, once: bool) -> bool {
        let o = &self.o;
        o.w.marked(&[o], Pending::Close(o.id), |st, me| {
            let name = st.label(o.id);
            let c = chan(st, o.id);
            if c.nil {
                return Attempt::Fault(Fault::CloseOfNilChannel, say!(st, "close {name}: nil"));
            }
            if c.closed && once {
                st.hb = Hb::Sync;
                return Attempt::Done(false, say!(st, "close {name}: closed already"));
            }
            if c.closed {
                return Attempt::Fault(
                    Fault::CloseOfClosedChannel,
                    say!(st, "close {name}: already closed"),
                );
            }
            // Go's `closechan` writes the channel, every send read it: a send that
            // nothing orders before the close races with it. A sender still blocked
            // here gets the panic instead (below), as in Go, where it follows.
            if let Some(race) = close_races(st, me, o.id) {
                return Attempt::Fail(race, say!(st, "close {name}"));
            }
            let c = chan(st, o.id);
            c.closed = true;
            c.senders.insert(me);
            let recvs: Vec<_> = c.recvq.drain(..).collect();
            let sends: Vec<_> = c.sendq.drain(..).collect();
            // Go's `closechan` releases, and every receive that finds the channel
            // closed acquires.
            st.hb = Hb::Release;
            for (r, case) in recvs {
                st.gors[r].fired = Some((case, None));
                st.hand_off_as(r, o.id, Hb::Acquire);
            }
            for (s, _) in sends {
                st.gors[s].fault = Some(Fault::SendOnClosedChannel);
                st.hand_off(s, o.id);
            }
            Attempt::Done(true, say!(st, "close {name}"))
        })
    }
}

/// A close of channel `o` by `me` against the sends before it: the first send that
/// does not happen before the close and whose goroutine no longer waits on it races.
fn close_races(st: &State, me: Gid, o: Oid) -> Option<Violation> {
    if !st.check_races {
        return None;
    }
    let ObjKind::Chan(c) = &st.objs[o].kind else {
        unreachable!("not a channel")
    };
    let waiting = |g: Gid| c.sendq.iter().any(|&(s, _)| s == g);
    let send = c
        .sends
        .iter()
        .find(|a| !waiting(a.gid) && !st.happened_before(a, me))?;
    let now = st.access(me);
    Some(Violation::new(
        Property::DataRace,
        format!(
            "{} sent on channel {} {}; {} closed it {}; nothing orders the two (a close must happen after every send)",
            st.name(send.gid),
            st.oname(o),
            send.at_step(),
            st.name(me),
            now.at_step(),
        ),
    ))
}

/// A value not yet in the world: a send case's.
type Raw = Box<dyn std::any::Any + Send>;

/// One case of a select.
pub struct Case<'a> {
    o: &'a Obj,
    send: Option<std::sync::Mutex<Option<Raw>>>,
    /// At a done channel (`Go::done_chan`).
    done: bool,
}

impl<'a> Case<'a> {
    fn send<T: Send + 'static>(c: &'a Chan<T>, v: T) -> Case<'a> {
        Case {
            o: &c.o,
            send: Some(std::sync::Mutex::new(Some(Box::new(v)))),
            done: c.done,
        }
    }

    fn recv<T>(c: &'a Chan<T>) -> Case<'a> {
        Case {
            o: &c.o,
            send: None,
            done: c.done,
        }
    }

    fn dir(&self) -> Dir {
        if self.send.is_some() {
            Dir::Send
        } else {
            Dir::Recv
        }
    }
}

/// A select under construction.
pub struct Select<'a> {
    go: &'a Go,
    cases: Vec<Case<'a>>,
    default: bool,
}

impl<'a> Select<'a> {
    /// `case v, ok := <-ch:`
    pub fn recv<T>(mut self, c: &'a Chan<T>) -> Self {
        self.cases.push(Case::recv(c));
        self
    }

    /// `case ch <- v:`
    pub fn send<T: Send + 'static>(mut self, c: &'a Chan<T>, v: T) -> Self {
        self.cases.push(Case::send(c, v));
        self
    }

    /// `default:`
    pub fn default(mut self) -> Self {
        self.default = true;
        self
    }

    /// Runs the select. Of several ready cases one fires, as Go picks it (at random):
    /// the engine chooses, and loom and DFS explore every choice.
    pub fn wait(self) -> Fired {
        run(&self.go.w, &self.cases, self.default)
    }
}

/// Which case of a select fired (`None`: the default), and what it received.
pub struct Fired {
    pub index: Option<usize>,
    value: Option<Raw>,
}

impl Fired {
    /// The received value; `None` for a send case, the default, or a closed channel.
    pub fn take<T: 'static>(&mut self) -> Option<T> {
        self.value.take().map(|v| {
            *v.downcast::<T>()
                .expect("select case received a value of another type")
        })
    }
}

fn chan(st: &mut State, o: Oid) -> &mut ChanState {
    match &mut st.objs[o].kind {
        ObjKind::Chan(c) => c,
        _ => unreachable!("not a channel"),
    }
}

/// Takes the value a blocked sender offered for its case `case`.
fn take_offer(st: &mut State, g: Gid, case: usize) -> Val {
    let offers = &mut st.gors[g].offers;
    let i = offers
        .iter()
        .position(|(c, _)| *c == case)
        .expect("blocked sender without its value");
    offers.remove(i).1
}

fn describe(st: &State, cases: &[Case<'_>], default: bool) -> String {
    if st.quiet {
        return String::new();
    }
    let parts: Vec<String> = cases
        .iter()
        .map(|c| {
            let nil = match &st.objs[c.o.id].kind {
                ObjKind::Chan(ch) if ch.nil => " (nil)",
                _ => "",
            };
            match c.dir() {
                Dir::Send => format!("send on {}{nil}", st.oname(c.o.id)),
                Dir::Recv => format!("receive from {}{nil}", st.oname(c.o.id)),
            }
        })
        .collect();
    if cases.is_empty() && !default {
        return "select {}".to_string();
    }
    if cases.len() == 1 && !default {
        parts[0].clone()
    } else {
        let d = if default { " | default" } else { "" };
        format!("select {{ {}{d} }}", parts.join(" | "))
    }
}

/// A send case's value, entering the world: tagged with its sender's history, which
/// made it (see `world::print`).
fn tagged(st: &State, me: Gid, case: &Case<'_>) -> Option<Val> {
    let v = case.send.as_ref()?.lock().unwrap().take()?;
    Some(Val {
        v,
        tag: st.gors[me].hist,
    })
}

/// Completes ready case `i` of a select.
fn fire(
    st: &mut State,
    me: Gid,
    i: usize,
    case: &Case<'_>,
    tag: String,
) -> Attempt<(Option<usize>, Option<Val>)> {
    let id = case.o.id;
    let name = st.label(id);
    // Go syncs a select with the channel of the case it took, not with the others.
    st.hb_only = Some(id);
    match &case.send {
        Some(_) => {
            let c = chan(st, id);
            if c.closed {
                return Attempt::Fault(
                    Fault::SendOnClosedChannel,
                    say!(st, "{tag}send on {name}: closed"),
                );
            }
            if let Some((r, rc)) = c.recvq.pop_front() {
                if c.cap == 0 {
                    // Go: the receive happens before this send completes.
                    st.acquire_from(me, r);
                    st.hand_off(r, id);
                } else {
                    // Go: the value passes through the slot the receive takes (an
                    // empty buffer's), each goroutine synced with it, sender first.
                    let i = c.take_slot();
                    st.hb = Hb::Unordered;
                    st.sync_slot(me, id, i);
                    st.hand_off_through(r, id, i);
                }
                let v = tagged(st, me, case);
                st.gors[r].fired = Some((rc, v));
                let rn = st.gname(r);
                return Attempt::Done(
                    (Some(i), None),
                    say!(st, "{tag}send on {name}: handed to {rn}"),
                );
            }
            let v = tagged(st, me, case).expect("send value");
            st.puts += 1;
            let steps = st.gors[me].steps;
            let c = chan(st, id);
            let slot = c.send_slot();
            c.buf.push_back(v);
            let plain = st.gors[me].pending == Some(Pending::Send(id));
            let c = chan(st, id);
            c.tick = (c.ticker == Some(me) && c.buf.len() == 1).then_some((me, steps));
            c.placed = (plain && c.buf.len() == 1).then_some((me, steps));
            st.hb = Hb::Unordered;
            st.sync_slot(me, id, slot);
            let c = chan(st, id);
            let (len, cap) = (c.buf.len(), c.cap);
            let t = say!(st, "{tag}send on {name} (buffer {len}/{cap})");
            Attempt::Done((Some(i), None), t)
        }
        None => {
            let c = chan(st, id);
            if let Some(v) = c.buf.pop_front() {
                c.tick = None;
                c.placed = None;
                let slot = c.take_slot();
                let blocked = c.sendq.pop_front();
                st.hb = Hb::Unordered;
                st.sync_slot(me, id, slot);
                // A blocked sender's value moves into the freed slot (the buffer was
                // full, so the next send's slot is this one), synced after the receiver.
                if let Some((s, sc)) = blocked {
                    let sv = take_offer(st, s, sc);
                    st.puts += 1;
                    chan(st, id).buf.push_back(sv);
                    st.gors[s].fired = Some((sc, None));
                    st.hand_off_through(s, id, slot);
                }
                let c = chan(st, id);
                let (len, cap) = (c.buf.len(), c.cap);
                let t = say!(st, "{tag}receive from {name} (buffer {len}/{cap})");
                return Attempt::Done((Some(i), Some(v)), t);
            }
            if let Some((s, sc)) = c.sendq.pop_front() {
                let sv = take_offer(st, s, sc);
                st.gors[s].fired = Some((sc, None));
                // Go's `racesync`: the receiver learns what the parked sender knew
                // (its clock is as it was when it parked), and the sender what the
                // receiver knew, at this step.
                st.acquire_from(me, s);
                st.hand_off(s, id);
                let sn = st.gname(s);
                return Attempt::Done(
                    (Some(i), Some(sv)),
                    say!(st, "{tag}receive from {name}: from {sn}"),
                );
            }
            // Go: a receive from a closed channel acquires what the close released.
            st.hb = Hb::Acquire;
            Attempt::Done(
                (Some(i), None),
                say!(st, "{tag}receive from {name}: closed"),
            )
        }
    }
}

fn run(w: &World, cases: &[Case<'_>], default: bool) -> Fired {
    let kind = w.kind;
    // A done channel is never sent on: the reduction that keeps a select back there
    // rests on it (`State::held_at_select`).
    if let Some(c) = cases.iter().find(|c| c.done && c.dir() == Dir::Send) {
        let name = w.lock().oname(c.o.id).to_string();
        panic!(
            "a send on {name}, a done channel (Go::done_chan): a done channel is only received from and closed (in a kernel, one where kernel::done found no send: an error of stalemate's)"
        );
    }
    let objs: Vec<&Obj> = cases.iter().map(|c| c.o).collect();
    let step = |st: &mut State, me| {
        let a = attempt(st, me, kind, cases, default);
        if let Attempt::Done((i, v), _) = &a {
            // What the goroutine learns: which case, and which value.
            let case = i.map_or(0, |i| i as u128 + 1);
            st.observed = crate::world::print::mix(case, v.as_ref().map_or(0, |v| v.tag));
        }
        a
    };
    // A plain send or receive says so, for an engine that reduces (`Pending::Send`).
    let (index, value) = match cases {
        [c] if !default => {
            let p = match c.dir() {
                Dir::Send => Pending::Send(c.o.id),
                Dir::Recv => Pending::Recv(c.o.id),
            };
            w.marked(&objs, p, step)
        }
        _ => {
            let list = cases.iter().map(|c| (c.o.id, c.dir() == Dir::Send));
            let p = if default {
                Pending::Try
            } else {
                Pending::Select
            };
            w.marked_select(&objs, p, list, step)
        }
    };
    Fired {
        index,
        value: value.map(|v| v.v),
    }
}

/// One attempt at a select (a send and a receive are selects of one case).
fn attempt(
    st: &mut State,
    me: Gid,
    kind: crate::engine::Kind,
    cases: &[Case<'_>],
    default: bool,
) -> Attempt<(Option<usize>, Option<Val>)> {
    let what = describe(st, cases, default);
    if let Some(f) = st.gors[me].fault.take() {
        return Attempt::Fault(
            f,
            say!(st, "{what}: the channel was closed while it waited"),
        );
    }
    if let Some((i, v)) = st.gors[me].fired.take() {
        st.gors[me].offers.clear();
        let how = if v.is_some() || cases[i].dir() == Dir::Send {
            "completed"
        } else {
            "channel closed"
        };
        return Attempt::Done(
            (Some(i), v),
            say!(st, "{what}: case {} {how} by another goroutine", i + 1),
        );
    }
    // Values offered by an earlier, blocked attempt come back to their cases.
    for (i, v) in std::mem::take(&mut st.gors[me].offers) {
        *cases[i].send.as_ref().unwrap().lock().unwrap() = Some(v.v);
    }
    for case in cases {
        let now = st.check_races.then(|| st.access(me));
        let c = chan(st, case.o.id);
        if !c.nil {
            match case.dir() {
                Dir::Send => {
                    // Go's runtime reads the channel for the race detector at every
                    // send, and at every send case a select looks at (`close_races`).
                    if let Some(now) = now {
                        c.sends.retain(|a| a.gid != me);
                        c.sends.push(now);
                    }
                    c.senders.insert(me)
                }
                Dir::Recv => c.receivers.insert(me),
            };
        }
    }
    // Go picks one of the ready cases uniformly at random: the engine chooses (loom
    // and DFS explore every one).
    let ready: Vec<usize> = (0..cases.len())
        .filter(|&i| chan(st, cases[i].o.id).ready(cases[i].dir() == Dir::Send))
        .collect();
    if !ready.is_empty() {
        let i = match st.choose(kind, me, &ready) {
            Ok(i) => i,
            Err(v) => return Attempt::Fail(v, say!(st, "{what}: diverged")),
        };
        let tag = if cases.len() > 1 {
            say!(st, "{what}: case {} ", i + 1)
        } else {
            String::new()
        };
        return fire(st, me, i, &cases[i], tag);
    }
    if default {
        // Go: a select that takes its default syncs with nothing.
        st.hb = Hb::Unordered;
        return Attempt::Done((None, None), say!(st, "{what}: nothing ready, default"));
    }
    // Whether it was kept back, for the places of those that wait after it (`ahead`).
    st.gors[me].held = st.held_at_select(me);
    // A replay takes the place its schedule recorded, whichever engine found it.
    let before = if crate::engine::keeps_back(kind) || st.replay.is_some() {
        match ahead(st, me, kind, cases) {
            Ok(d) => d,
            Err(v) => return Attempt::Fail(v, say!(st, "{what}: diverged")),
        }
    } else {
        Vec::new()
    };
    st.gors[me].queued = st.advances;
    let mut waits = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let id = case.o.id;
        waits.push((id, case.dir()));
        if chan(st, id).nil {
            continue;
        }
        match &case.send {
            Some(_) => {
                let q = &mut chan(st, id).sendq;
                let entries = q.iter().filter(|e| before.contains(&e.0)).count();
                q.insert(q.len() - entries, (me, i));
                let v = tagged(st, me, case).expect("send value");
                st.gors[me].offers.push((i, v));
            }
            None => {
                let q = &mut chan(st, id).recvq;
                let entries = q.iter().filter(|e| before.contains(&e.0)).count();
                q.insert(q.len() - entries, (me, i));
            }
        }
    }
    let text = match before.len() {
        0 => say!(st, "{what}: waits"),
        k => say!(st, "{what}, ahead of {k} that came after it: waits"),
    };
    Attempt::Block(Wait::Chan(waits), text)
}

/// The selects waiting at its channels that an operation about to wait there goes
/// ahead of, under an engine that keeps it back: a plain operation at a buffered
/// channel (`State::held_at_chan`), or a select whose cases are all at buffered
/// or done channels (`State::held_at_select`). Kept back, it waits only once every runnable
/// goroutine is kept back; in Go it may have come before any select that began to
/// wait there since the clock last moved on (the clock does not move while it is kept
/// back, and a select's wait is seen by nobody but the clock until it completes). Go's
/// queues are first in, first out, and once every goroutine waits the clock lets a
/// receive, a send or a tick serve them from the front. Which of those selects it came
/// before is a choice. It came to all its channels at once, so the choice is a set
/// closed under "came later" (a select behind one it came before is one too); a plain
/// operation among them, or a select that came before the clock moved, bars itself
/// and every select before it in line (their order is the race between their
/// attempts, or fixed). The options, fewest first (for one channel: how many of the
/// last selects), rest on the queues and the clock's count alone, the same in every
/// order of independent steps.
fn ahead(
    st: &mut State,
    me: Gid,
    kind: crate::engine::Kind,
    cases: &[Case<'_>],
) -> Result<Vec<Gid>, Violation> {
    // Each queue of its buffered channels front to back, nil channels left out: it
    // waits at none of them. At a done channel nobody serves a line: a close wakes
    // every goroutine in it.
    let held = st.gors[me].held;
    let mut queues: Vec<Vec<Gid>> = Vec::new();
    for c in cases {
        let ObjKind::Chan(ch) = &st.objs[c.o.id].kind else {
            unreachable!("not a channel")
        };
        if ch.nil || ch.done && held {
            continue;
        }
        if ch.cap == 0 || ch.closed {
            // Not kept back: it came where it waits.
            return Ok(Vec::new());
        }
        let q = match c.dir() {
            Dir::Send => &ch.sendq,
            Dir::Recv => &ch.recvq,
        };
        queues.push(q.iter().map(|e| e.0).collect());
    }
    // Once every goroutine waits, only the clock (a sleeper, `synctest.Wait`, a timer)
    // or a poll that the wait wakes serves a queue again: without one the
    // execution ends with every goroutine waiting, whatever the order.
    let served = !st.timers.is_empty()
        || st
            .gors
            .iter()
            .any(|g| matches!(g.wait, Some(Wait::Sleep(_) | Wait::Poll(_))));
    if !served {
        return Ok(Vec::new());
    }
    // A select kept back before it waited (`State::held_at_select`), as a plain
    // operation is: its attempt's order against this one is the race between the two,
    // not a place to choose.
    let recent = |g: Gid| {
        st.gors[g].queued == st.advances
            && match st.gors[g].pending {
                None => true,
                Some(Pending::Select) => !st.gors[g].held,
                _ => false,
            }
    };
    // Candidates: the recent selects at the back of a queue. Barred: everything else
    // in a queue, and whatever is before a barred one in some queue.
    let mut cand: BTreeSet<Gid> = BTreeSet::new();
    let mut barred: BTreeSet<Gid> = BTreeSet::new();
    for q in &queues {
        let back = q.iter().rev().take_while(|&&g| recent(g)).count();
        cand.extend(&q[q.len() - back..]);
        barred.extend(&q[..q.len() - back]);
    }
    loop {
        let more: Vec<Gid> = queues
            .iter()
            .flat_map(|q| {
                let last = q.iter().rposition(|g| barred.contains(g));
                q[..last.unwrap_or(0)].iter().copied()
            })
            .filter(|g| !barred.contains(g))
            .collect();
        if more.is_empty() {
            break;
        }
        barred.extend(more);
    }
    let cand: Vec<Gid> = cand.difference(&barred).copied().collect();
    if cand.is_empty() {
        return Ok(Vec::new());
    }
    let options: Vec<Vec<Gid>> = match &queues[..] {
        // One queue (a plain operation): the suffixes of the line that hold every entry
        // of their selects, fewest first; as few as the selects, so no limit.
        [q] => {
            let mut options = vec![Vec::new()];
            for at in (0..q.len()).rev() {
                if !cand.contains(&q[at]) {
                    break;
                }
                let set: BTreeSet<Gid> = q[at..].iter().copied().collect();
                if q[..at].iter().any(|g| set.contains(g)) {
                    continue;
                }
                let set: Vec<Gid> = set.into_iter().collect();
                if options.last() != Some(&set) {
                    options.push(set);
                }
            }
            options
        }
        _ => {
            // More than a few recent selects at a select's channels: its sets would be
            // too many to explore (docs/dpor.md says so). It waits behind them.
            const MOST: usize = 12;
            if cand.len() > MOST {
                return Ok(Vec::new());
            }
            // A set is an option if, with any select, it holds every one behind it in
            // line at each channel.
            let bit = |g: Gid| 1u32 << cand.iter().position(|&c| c == g).expect("a candidate");
            let closed = |set: u32| {
                queues.iter().all(|q| {
                    let mut seen = false;
                    q.iter().filter(|g| cand.contains(g)).all(|&g| {
                        let inside = set & bit(g) != 0;
                        let ok = inside || !seen;
                        seen |= inside;
                        ok
                    })
                })
            };
            let mut sets: Vec<u32> = (0..1u32 << cand.len()).filter(|&s| closed(s)).collect();
            sets.sort_by_key(|s| (s.count_ones(), *s));
            sets.iter()
                .map(|&set| {
                    cand.iter()
                        .copied()
                        .filter(|&g| set & bit(g) != 0)
                        .collect()
                })
                .collect()
        }
    };
    // A schedule found where the goroutine was not kept back (shuttle's) recorded no
    // place: it waited at the back.
    let k = if st.replay.is_some() && st.replayed_case().is_none() {
        0
    } else {
        let list: Vec<usize> = (0..options.len()).collect();
        st.choose(kind, me, &list)?
    };
    Ok(options.into_iter().nth(k).expect("a chosen option"))
}
