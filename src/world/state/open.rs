//! What a goroutine's next step is, asked before it runs: can it go on without a wait
//! that is no event (`open`), and how does it use its objects (`mode`).

use super::*;
use crate::engine::ClosedBy;

impl State {
    /// A WaitGroup's counter.
    pub(super) fn counter(&self, o: Oid) -> i64 {
        match self.objs[o].kind {
            ObjKind::WaitGroup { count, .. } => count,
            _ => unreachable!("not a WaitGroup"),
        }
    }

    /// An RWMutex's readers (none for any other object).
    pub(super) fn readers(&self, o: Oid) -> &[Holder] {
        match &self.objs[o].kind {
            ObjKind::RwMutex { readers, .. } => readers,
            _ => &[],
        }
    }

    /// Whether goroutine `g`'s next step can go on without a wait that is no event
    /// (`Pending::Lock`, `Pending::Wait`, `Pending::Recv`, `Pending::Send`).
    pub(crate) fn open(&self, g: Gid) -> bool {
        match self.gors[g].pending {
            Some(Pending::Lock(o)) => match &self.objs[o].kind {
                ObjKind::Mutex { holder } => holder.is_none(),
                // A writer behind another writer (holding, or first in line for the
                // readers to leave) only waits to try again: it tells no reader to
                // wait, so its attempt is no event either.
                ObjKind::RwMutex {
                    writer, pending, ..
                } => writer.is_none() && pending.is_none_or(|p| p == g),
                _ => true,
            },
            Some(Pending::Wait(o)) => self.counter(o) <= 0,
            Some(Pending::Recv(_) | Pending::Send(_)) => self.held_at_chan(g).is_none(),
            Some(Pending::Select) => !self.held_at_select(g),
            _ => true,
        }
    }

    /// The channel goroutine `g`'s plain receive or send would wait at where its
    /// waiting is no event, so it is kept back there until it can go on: a buffered
    /// channel, open, empty for a receive (no sender waiting), full for a send.
    /// Waiting there, the goroutine is seen by nobody, since every other operation
    /// sees the buffer only. A send finds room whether a receiver waits or not, and the
    /// receiver gets the value the send puts in, as it gets it handed. A receive takes
    /// the oldest value whether a sender waits or not, and the sender's value goes in
    /// after the others, as Go's runtime moves it in. A try, a select's case and `len`
    /// find the buffer the waiting goroutine would leave as it is (Go's goroutine may
    /// come late). A close gives a waiting receive the zero value, as it gives a later
    /// one, and panics a waiting send, as a later one (docs/dpor.md, "Reductions").
    pub(crate) fn held_at_chan(&self, g: Gid) -> Option<Oid> {
        let (o, send) = match self.gors[g].pending {
            Some(Pending::Recv(o)) => (o, false),
            Some(Pending::Send(o)) => (o, true),
            _ => return None,
        };
        let ObjKind::Chan(c) = &self.objs[o].kind else {
            return None;
        };
        let waits = if send {
            c.buf.len() >= c.cap && c.recvq.is_empty()
        } else {
            c.buf.is_empty() && c.sendq.is_empty()
        };
        let held = !self.gors[g].handed() && !c.nil && !c.closed && c.cap > 0 && waits;
        held.then_some(o)
    }

    /// Whether goroutine `g`'s select with no default would wait where its waiting is
    /// no event, so it is kept back until a case is ready: every case at a buffered
    /// channel or at a done channel (`Chan::done`), open, none ready (a nil channel's
    /// case never is, and is left out). Waiting there, it is seen by nobody but the
    /// clock, as a plain operation at a buffered channel is (`held_at_chan`): every
    /// other operation sees the buffers only, and at a done channel, which nobody sends
    /// on, only a close meets it, which completes a waiting select as it completes a
    /// late one. Once a case is ready it chooses among the cases ready then, as Go's
    /// does had it come late; one that waited would have been completed by the first,
    /// which it may also choose. Its place in line at its buffered channels, which the
    /// clock can see, is a choice when it waits (`go::chan::ahead`).
    pub(crate) fn held_at_select(&self, g: Gid) -> bool {
        let me = &self.gors[g];
        if me.pending != Some(Pending::Select) || me.handed() {
            return false;
        }
        let mut any = false;
        for &(o, send) in &me.cases {
            let ObjKind::Chan(c) = &self.objs[o].kind else {
                return false;
            };
            if c.nil {
                continue;
            }
            if c.cap == 0 && !c.done || c.closed || c.ready(send) {
                return false;
            }
            any = true;
        }
        any
    }

    /// How goroutine `g`'s next step uses its objects (see `Pending`).
    pub(crate) fn mode(&self, g: Gid) -> crate::engine::Mode {
        use crate::engine::Mode;
        let me = &self.gors[g];
        // Its next step takes what was handed to it, or only ends a wait that is no
        // operation (main waiting for the others, a poll): nothing shared.
        let waits_for_nothing = me.status == Status::Joining
            || matches!(me.wait, Some(Wait::Poll(_)))
            || me.pending == Some(Pending::End);
        if me.handed() || waits_for_nothing {
            return match me.pending {
                Some(Pending::Wait(_)) if me.granted => Mode::Released,
                _ => Mode::Local,
            };
        }
        match me.pending {
            // A writer that finds readers in becomes first in line, and new readers
            // wait for it: a change others see.
            Some(Pending::Lock(o)) if !self.readers(o).is_empty() => Mode::Write,
            Some(Pending::Lock(_)) => Mode::Acquire,
            // An unlock releases the lock someone took; an unlock of an unlocked mutex
            // is a fault that releases nothing, so no lock is ordered after it.
            Some(Pending::Unlock(o))
                if matches!(
                    self.objs[o].kind,
                    ObjKind::Mutex { holder: Some(_) }
                        | ObjKind::RwMutex {
                            writer: Some(_),
                            ..
                        }
                ) =>
            {
                Mode::Release
            }
            // Every Done that leaves the counter at zero or above commutes with the
            // others: it returns nothing, releases only (`Hb::Release`), and
            // which one reaches zero no goroutine can tell. A Wait at zero is ordered
            // after them all, as a lock after an unlock. One that would go below zero
            // is a fault: a write.
            Some(Pending::Done(o)) if self.counter(o) >= 1 => Mode::Add,
            Some(Pending::Wait(o)) if self.counter(o) == 0 => Mode::Acquire,
            // A Wait above zero, attempted only when every runnable goroutine is kept
            // back, registers to be released at zero: it commutes with the Dones, not
            // with another waiter's attempt (`Mode::Registers`); the step that takes its
            // release is ordered after every Done (`Mode::Released`).
            Some(Pending::Wait(o)) if self.counter(o) > 0 => Mode::Registers,
            // A read lock that gets in (no writer holds it or is first in line), and one
            // given back while some are held: they commute with each other. One that
            // waits registers to be let in when the writer unlocks (an event); one given
            // back when none is held is a fault.
            Some(Pending::RLock(o))
                if matches!(
                    &self.objs[o].kind,
                    ObjKind::RwMutex {
                        writer: None,
                        pending: None,
                        ..
                    }
                ) =>
            {
                Mode::Read
            }
            // A read lock given back by a goroutine that holds none drops another's:
            // which one depends on who is in, so it is a write.
            Some(Pending::RUnlock(o)) if self.readers(o).iter().any(|h| h.gid == g) => Mode::Read,
            // An operation at a nil channel waits for ever, and no step sees it but a
            // poll: Go's runtime parks it at no object, no step can complete it, no
            // select looks at it, nor does the race detector. So does a select whose
            // every case is nil, and a try of them takes its default in every order
            // (its nil cases are none when some are not, `World::marked_select`).
            Some(Pending::Send(o) | Pending::Recv(o)) if self.nil(o) => Mode::Nil,
            Some(Pending::Select | Pending::Try)
                if !me.cases.is_empty() && me.cases.iter().all(|c| self.nil(c.0)) =>
            {
                Mode::Nil
            }
            // A send into a buffered channel's free slot, and a receive from its
            // oldest one, with nobody waiting on it: each moves its own cursor and
            // syncs with its own slot (`Chan::slots`), which are different slots
            // whenever both can go without waiting (the buffer neither empty nor full).
            // Its place, which a select that finds its value the buffer's only one
            // takes (`Chan::placed`), is declared whether or not the buffer is empty:
            // the step is one label in every order.
            Some(Pending::Send(o)) => match &self.objs[o].kind {
                ObjKind::Chan(c)
                    if !c.nil && !c.closed && c.recvq.is_empty() && c.buf.len() < c.cap =>
                {
                    Mode::Buffered {
                        recv: false,
                        slot: c.send_slot(),
                        place: Some(place(g, self.gors[g].steps)),
                    }
                }
                // A select waiting first in line at a buffered channel: the send takes
                // its place, and goes on (`Access::Put`).
                ObjKind::Chan(c)
                    if c.cap > 0
                        && !c.nil
                        && !c.closed
                        && let Some(p) = self.select_first(c) =>
                {
                    Mode::Hand {
                        take: true,
                        place: p,
                        sends: 1,
                        at: 0,
                        buffered: 1,
                    }
                }
                ObjKind::Chan(c) if c.cap == 0 && !c.nil && !c.closed => self.hand(g, o, c, true),
                _ => Mode::Write,
            },
            Some(Pending::Recv(o)) => match &self.objs[o].kind {
                // A tick is taken as a hand-off's place is (`tick_hand`), not as a
                // slot: a write, so it races with the tick and with a select's take.
                ObjKind::Chan(c) if c.tick.is_some() => Mode::Write,
                ObjKind::Chan(c)
                    if !c.nil && !c.closed && !c.buf.is_empty() && c.sendq.is_empty() =>
                {
                    Mode::Buffered {
                        recv: true,
                        slot: c.recvx,
                        place: None,
                    }
                }
                ObjKind::Chan(c) if c.cap == 0 && !c.nil && !c.closed => self.hand(g, o, c, false),
                // Every receive that finds the channel closed and empty gets the zero
                // value and syncs with the close: they commute, and with the close
                // (`ClosedBy::Receive`).
                ObjKind::Chan(c) if c.closed && c.buf.is_empty() => Mode::Closed {
                    sends: 0,
                    at: 0,
                    by: ClosedBy::Receive,
                },
                _ => Mode::Write,
            },
            // A close that finds the channel open, empty, no sender waiting: a receive
            // waiting there is woken with what it would get had it come after, and one
            // after it would have waited had it come before (`Mode::Close`). Not where
            // a sender waits (the close panics it): a receive before the close would
            // have taken its value, and the clock may order the sender's wait before
            // the receive, so that only this race reverses them
            // (`a_close_that_finds_a_sender_waiting_races_with_a_receive_after_it`);
            // nor where the buffer holds values, which a receive before it would take.
            Some(Pending::Close(o)) => match &self.objs[o].kind {
                ObjKind::Chan(c)
                    if !c.nil && !c.closed && c.sendq.is_empty() && c.buf.is_empty() =>
                {
                    Mode::Close
                }
                _ => Mode::Write,
            },
            // A select that waits (no case ready) leaves its place at each of its
            // channels, which a plain operation that finds it there takes.
            Some(Pending::Select) => self.select_hand(g),
            Some(Pending::Try) => self.try_mode(g),
            _ => Mode::Write,
        }
    }

    /// A plain send (`sends`) or receive at open unbuffered channel `o`, `c`
    /// (`Mode::Hand`):
    /// nobody of the other side waiting there, it waits, leaving its place;
    /// a plain operation or a select with no default first in line, it takes that
    /// one's place (released unless the select is a write, `select_hand`).
    fn hand(&self, me: Gid, o: Oid, c: &Chan, sends: bool) -> crate::engine::Mode {
        use crate::engine::Mode;
        let other = if sends { &c.recvq } else { &c.sendq };
        match other.front() {
            None => Mode::Hand {
                take: false,
                place: place(me, self.gors[me].steps),
                sends: u64::from(sends),
                at: 0,
                buffered: 0,
            },
            Some(&(g, _))
                if self.plain_at(g, o) || self.gors[g].pending == Some(Pending::Select) =>
            {
                Mode::Hand {
                    take: true,
                    place: place(g, self.gors[g].steps),
                    sends: u64::from(sends),
                    at: 0,
                    buffered: 0,
                }
            }
            Some(_) => Mode::Write,
        }
    }

    /// Whether goroutine `g` waits at channel `o` in a plain send or receive.
    fn plain_at(&self, g: Gid, o: Oid) -> bool {
        matches!(self.gors[g].pending, Some(Pending::Send(p) | Pending::Recv(p)) if p == o)
    }
}

impl State {
    /// A select with no default (`Mode::Hand`): none of its cases ready, it waits,
    /// leaving its place at each of its channels, which a plain operation that finds
    /// it first in line takes. Its one case ready at a plain operation first in line,
    /// it takes that one's place; reversed it would wait, seen at its other channels by
    /// the steps between (a try there would complete it), which the race analysis
    /// checks. Else a write (several cases ready, or a select first in line). Nor is
    /// a select that names one channel twice: on one side, reversed, its partner would
    /// make two cases ready, and it would choose; on both, a third goroutine on the
    /// taker's other side could pair with the select or with the taker. At a
    /// buffered channel a select is neither half: there it stands in a line where a
    /// plain operation kept back (`held_at_chan`) may have come before it, so a step
    /// that hands it a value may have handed it to that one; its cases there are
    /// writes of their channels (`dpor::hand_into`), so every such step is ordered
    /// with its wait, and it takes only at an unbuffered channel. A timer's channel
    /// beside unbuffered ones (`select { case v := <-ch: case <-time.After(d): }`) is
    /// such a case.
    fn select_hand(&self, g: Gid) -> crate::engine::Mode {
        use crate::engine::Mode;
        let me = &self.gors[g];
        // Kept back (beside done channels too), its attempt is a write of each of its
        // channels: the race analysis lets it go by whichever of them is first to let
        // it (`race.rs`, the written objects of a goroutine kept back at several),
        // which a half's declaration at a done channel would hide.
        if self.held_at_select(g) {
            return Mode::Write;
        }
        if let Some(m) = self.chosen(g) {
            return m;
        }
        let Some((sends, buffered)) = self.hand_cases(g) else {
            return Mode::Write;
        };
        let mut ready = me
            .cases
            .iter()
            .enumerate()
            .filter(|&(_, &(o, send))| self.ready(o, send));
        match (ready.next(), ready.next()) {
            (None, _) => Mode::Hand {
                take: false,
                place: place(g, me.steps),
                sends,
                at: 0,
                buffered,
            },
            (Some((at, &(o, false))), None) if buffered == 0 && self.closed(o) => Mode::Closed {
                sends,
                at: at as u32,
                by: ClosedBy::Select,
            },
            // One case ready, the tick alone in its timer's channel: it takes the
            // tick's place, as it would take a waiting sender's (`tick_hand`).
            (Some((at, &(o, false))), None) if let Some((t, n)) = self.tick_at(o) => Mode::Hand {
                take: true,
                place: place(t, n),
                sends,
                at: at as u32,
                buffered,
            },
            // One case ready, a plain operation waiting there first in line: it takes
            // that one's place (the race analysis reverses the two where a step
            // between touches its other channels).
            (Some((at, &(o, send))), None) if buffered >> at & 1 == 0 => {
                let first = match &self.objs[o].kind {
                    ObjKind::Chan(c) if !c.closed && !c.nil => {
                        if send {
                            c.recvq.front()
                        } else {
                            c.sendq.front()
                        }
                    }
                    _ => None,
                };
                match first {
                    Some(&(p, _)) if self.plain_at(p, o) || self.meets_select(g, at, p) => {
                        Mode::Hand {
                            take: true,
                            place: place(p, self.gors[p].steps),
                            sends,
                            at: at as u32,
                            buffered,
                        }
                    }
                    _ => Mode::Write,
                }
            }
            _ => Mode::Write,
        }
    }

    /// `Mode::Chosen` for select `g` if it is one: its one ready case at a buffered
    /// channel, nobody waiting there, neither a tick nor a plain send's value alone in
    /// the buffer (taken as a hand-off's second half, `tick_hand`), and every other
    /// case a receive at an open done channel or a case at a nil one, no channel
    /// named twice (the explorer declares the k-th channel as the k-th case).
    fn chosen(&self, g: Gid) -> Option<crate::engine::Mode> {
        let cases = &self.gors[g].cases;
        if names_twice(cases) {
            return None;
        }
        let mut chosen = None;
        for (k, &(o, send)) in cases.iter().enumerate() {
            let ObjKind::Chan(c) = &self.objs[o].kind else {
                return None;
            };
            if c.nil || c.done && !c.closed && !send {
                continue;
            }
            let free = if send {
                c.recvq.is_empty() && c.buf.len() < c.cap
            } else {
                c.sendq.is_empty() && !c.buf.is_empty() && self.tick_at(o).is_none()
            };
            if chosen.is_some() || c.cap == 0 || c.closed || c.tick.is_some() || !free {
                return None;
            }
            let slot = if send { c.send_slot() } else { c.recvx };
            chosen = Some(crate::engine::Mode::Chosen {
                recv: !send,
                slot,
                at: k as u32,
            });
        }
        chosen
    }

    /// Whether select `g`, its case `at` ready, takes the place of select `p` waiting
    /// first in line there: where every other case of `g`'s is at an open done channel
    /// (or a nil one) and `p` has none at a buffered channel. Reversed, `g` would wait,
    /// and only a close could meet it at a done channel (a send there panics); a close
    /// conflicts with it as taker (its other channels an `Add` each), so the race
    /// analysis orders the two. With a case at a channel others send on, a step after
    /// it could have met it there before `p` came, which no race reaches
    /// (`a_select_that_finds_a_select_waiting_is_a_write`).
    fn meets_select(&self, g: Gid, at: usize, p: Gid) -> bool {
        let done =
            |o: Oid| matches!(&self.objs[o].kind, ObjKind::Chan(c) if c.nil || c.done && !c.closed);
        self.gors[p].pending == Some(Pending::Select)
            && self
                .hand_cases(p)
                .is_some_and(|(_, buffered)| buffered == 0)
            && (self.gors[g].cases.iter().enumerate()).all(|(k, &(o, _))| k == at || done(o))
    }

    /// A select with a default (`Pending::Try`) whose one ready case is a receive at a
    /// closed channel, every case at an unbuffered channel: it reads that channel, as
    /// a plain receive there does, and finds nobody of the other side at the others
    /// (`Mode::Closed`). Else a write: it sees what is ready, or that nothing is.
    /// Those are the conditions under which `select_hand` gives `Closed`.
    fn try_mode(&self, g: Gid) -> crate::engine::Mode {
        use crate::engine::Mode;
        if let Some(m) = self.tick_hand(g) {
            return m;
        }
        match self.select_hand(g) {
            Mode::Closed { sends, at, .. } => Mode::Closed {
                sends,
                at,
                by: ClosedBy::Try,
            },
            _ => Mode::Write,
        }
    }

    /// For a select with at most 64 cases, none named twice, and one at a non-nil
    /// unbuffered channel if any is at a buffered one: case k sends where bit k of the
    /// first word is set (the explorer declares each case by its side), and is at a
    /// buffered channel where bit k of the second is. `None` for any other select
    /// (`select_hand`): one whose cases are all buffered is kept back
    /// (`held_at_select`) or takes from a buffer.
    fn hand_cases(&self, g: Gid) -> Option<(u64, u64)> {
        let cases = &self.gors[g].cases;
        let buffered = |o: Oid| matches!(&self.objs[o].kind, ObjKind::Chan(c) if c.cap > 0);
        if cases.len() > 64 || names_twice(cases) {
            return None;
        }
        let bits = |f: &dyn Fn(&(Oid, bool)) -> bool| {
            cases
                .iter()
                .enumerate()
                .fold(0u64, |s, (k, c)| s | u64::from(f(c)) << k)
        };
        let on_buffer = bits(&|c| buffered(c.0) && (c.1 || !self.ticked(c.0)));
        let unbuffered = cases.iter().any(|&(o, _)| !buffered(o) && !self.nil(o));
        if on_buffer != 0 && !unbuffered {
            return None;
        }
        Some((bits(&|c| c.1), on_buffer))
    }

    /// A timer's tick in `any` time (`Chan::ticker`: the try-send of `time.After`'s
    /// goroutine, or of an armed `time.NewTimer`'s) as a half of a hand-off
    /// (`Mode::Hand`), as a plain send at an unbuffered channel is: nobody waiting
    /// there and the buffer empty, it leaves its value with its place, which the one
    /// receive that takes it acquires (a select whose only ready case it is,
    /// `select_hand`; a plain receive is a write); a select waiting first in line
    /// there, it takes that select's place. A select's receive at such a channel is a
    /// half's case (`hand_cases`), not a buffered one: ticks are the only sends there
    /// and never wait. Either way the select takes the tick and goes on, and whether
    /// it waited only a step that meets it at its other channels, or sees the timer's
    /// channel, can tell; each of those conflicts with the halves. Who is kept back at
    /// the channel does not change the declaration, which depends on the channel's
    /// own state only (docs/dpor.md, the tick row). `None` for any other step.
    fn tick_hand(&self, g: Gid) -> Option<crate::engine::Mode> {
        use crate::engine::Mode;
        let me = &self.gors[g];
        let &[(o, true)] = me.cases.as_slice() else {
            return None;
        };
        let ObjKind::Chan(c) = &self.objs[o].kind else {
            return None;
        };
        if c.ticker != Some(g) || c.nil || c.closed {
            return None;
        }
        let half = |take, place| Mode::Hand {
            take,
            place,
            sends: 1,
            at: 0,
            buffered: 0,
        };
        match self.select_first(c) {
            Some(p) => Some(half(true, p)),
            None if c.recvq.is_empty() && c.buf.is_empty() && c.cap > 0 => {
                Some(half(false, place(g, me.steps)))
            }
            None => None,
        }
    }

    /// The place of the select first in line to receive at buffered channel `c`, where
    /// that case of its is a half's (`hand_cases`): a send there takes it.
    fn select_first(&self, c: &Chan) -> Option<u64> {
        let &(s, k) = c.recvq.front()?;
        let half = self.gors[s].pending == Some(Pending::Select)
            && self
                .hand_cases(s)
                .is_some_and(|(sends, _)| sends >> k & 1 == 0);
        half.then(|| place(s, self.gors[s].steps))
    }

    /// Whether `o` is a timer's channel whose goroutine will tick it (`Chan::ticker`).
    fn ticked(&self, o: Oid) -> bool {
        matches!(&self.objs[o].kind, ObjKind::Chan(c) if c.ticker.is_some())
    }

    /// The tick's place where it is the only value in `o`'s buffer (`tick_hand`).
    fn tick_at(&self, o: Oid) -> Option<(Gid, usize)> {
        match &self.objs[o].kind {
            ObjKind::Chan(c) if !c.closed && c.buf.len() == 1 => c.tick.or(c.placed),
            _ => None,
        }
    }

    /// Whether `o` is a nil channel.
    pub(crate) fn nil(&self, o: Oid) -> bool {
        matches!(&self.objs[o].kind, ObjKind::Chan(c) if c.nil)
    }

    /// Whether channel `o` is closed (a receive there takes the zero value once its
    /// buffer is empty).
    fn closed(&self, o: Oid) -> bool {
        matches!(&self.objs[o].kind, ObjKind::Chan(c) if c.closed)
    }

    /// Whether a case on channel `o` (a send if `send`) could go on now (`Chan::ready`).
    fn ready(&self, o: Oid, send: bool) -> bool {
        match &self.objs[o].kind {
            ObjKind::Chan(c) => c.ready(send),
            _ => true,
        }
    }
}

/// The place goroutine `g` leaves where it waits at an unbuffered channel
/// (`Mode::Hand`): its own, at its count of steps, which waiting does not change.
fn place(g: Gid, steps: usize) -> u64 {
    (g as u64) << 32 | steps as u64
}

/// Whether a select's cases name one channel twice (the explorer declares the k-th
/// channel it touches as the k-th case, so such a select is declared otherwise).
fn names_twice(cases: &[(Oid, bool)]) -> bool {
    (0..cases.len()).any(|k| cases[..k].iter().any(|c| c.0 == cases[k].0))
}
