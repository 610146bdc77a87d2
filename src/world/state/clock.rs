//! The virtual clock: it moves on only when every goroutine is blocked, to the next
//! timer or sleep, which it fires.

use super::*;

impl State {
    /// Virtual time, when no goroutine can run: the clock moves to the earliest
    /// deadline; the timers due then fire, and the goroutines sleeping until then wake
    /// (in goroutine order). The clock goes on to later deadlines until one wakes.
    /// Whoever blocks last calls this; "everyone blocked" stays true until it acts, so
    /// every interleaving that gets here advances the same way.
    pub(super) fn advance_clock(&mut self) -> bool {
        // A replayed goroutine waiting for its turn could run in the recorded execution.
        if self.gors.iter().any(|g| g.status == Status::Turn) {
            return false;
        }
        let sleeping = |g: &Gor| match (g.status, &g.wait) {
            (Status::Blocked, Some(Wait::Sleep(d))) => Some(*d),
            _ => None,
        };
        let withdrawn = self.withdrawn.len();
        loop {
            let sleeper = self.gors.iter().filter_map(sleeping).min();
            let timer = self.timers.iter().map(|t| t.0).min();
            let Some(next) = sleeper.into_iter().chain(timer).min() else {
                return false;
            };
            self.now = self.now.max(next);
            let mut woke = false;
            // Timers first, in the order they were made; a timer that wakes nobody
            // leaves its tick in the channel, and the clock moves on.
            let (due, later) = std::mem::take(&mut self.timers)
                .into_iter()
                .partition::<Vec<_>, _>(|t| t.0 == next);
            self.timers = later;
            for (_, o) in due {
                woke |= self.fire_timer(o, None);
            }
            // No step is under way to make the ticks' hand-offs: made here.
            self.sync_handoffs();
            // A timer firing is a move that a poll may be waiting for.
            woke |= self.wake_polls(None);
            for g in 0..self.gors.len() {
                if sleeping(&self.gors[g]) == Some(next) {
                    self.gors[g].granted = true;
                    self.wake(g);
                    woke = true;
                }
            }
            if woke {
                self.advances += 1;
                if crate::engine::clock_advanced() {
                    // The advance is the engine's event, not the last blocker's.
                    self.withdrawn.truncate(withdrawn);
                }
                return true;
            }
        }
    }

    /// Arms timer `o` for a goroutine to fire: the arming's number, which that
    /// goroutine fires by (`take_armed`), so that after a `Reset` an earlier arming's
    /// goroutine finds its own gone.
    pub(crate) fn arm(&mut self, o: Oid) -> u64 {
        self.arms += 1;
        self.armed.push((o, self.arms));
        self.arms
    }

    /// Names `g` as the goroutine whose try-send at timer channel `o` is its tick
    /// (`Chan::ticker`), or nobody.
    pub(crate) fn set_ticker(&mut self, o: Oid, g: Option<Gid>) {
        if let ObjKind::Chan(c) = &mut self.objs[o].kind {
            c.ticker = g;
        }
    }

    /// Takes arming `n` of timer `o` off the schedule; true if it was on it.
    pub(crate) fn take_armed(&mut self, o: Oid, n: u64) -> bool {
        let i = self.armed.iter().position(|&x| x == (o, n));
        i.map(|i| self.armed.remove(i)).is_some()
    }

    /// Takes timer `o` off the schedule (the clock's deadlines, or its arming for a
    /// goroutine); true if it was on it.
    pub(crate) fn disarm(&mut self, o: Oid) -> bool {
        if let Some(i) = self.timers.iter().position(|t| t.1 == o) {
            self.timers.remove(i);
        } else if let Some(i) = self.armed.iter().position(|x| x.0 == o) {
            self.armed.remove(i);
            // Its goroutine no longer fires it.
            self.set_ticker(o, None);
        } else {
            return false;
        }
        true
    }

    /// A timer's channel (capacity 1) receives its tick: handed to the first goroutine
    /// waiting on it, else kept in the buffer. True if it woke a goroutine.
    ///
    /// A hand-off like any other: the receiver syncs with the slot, as from the buffer
    /// (`hand_off_through`), and so starts a new epoch. A bare wake left it in the epoch
    /// its select's send offers had released into their channels: their clocks covered
    /// its later accesses (ordering them before those channels' later receivers), which
    /// the state's fingerprint (`world::print`) rightly assumes no other clock does.
    /// `by`: the goroutine that fires it and its count of steps, whose place the tick
    /// keeps in the buffer (`Chan::tick`); `None` for the clock.
    pub(crate) fn fire_timer(&mut self, o: Oid, by: Option<(Gid, usize)>) -> bool {
        let Obj { kind, vc, .. } = &mut self.objs[o];
        let ObjKind::Chan(c) = kind else {
            unreachable!("a timer's object is a channel")
        };
        let tick = || Val {
            v: Box::new(()),
            tag: 0,
        };
        // The tick goes through a slot, as any buffered send. As Go's race detector has
        // it, the timer's run first acquires what arming it released (`NewTimer`,
        // `Reset`: operations on its channel), so that goes into the slot too.
        if let Some((r, case)) = c.recvq.pop_front() {
            let i = c.take_slot();
            join(&mut c.slots[i], vc);
            let tick = tick();
            self.gors[r].fired = Some((case, Some(tick)));
            self.hand_off_through(r, o, i);
            return true;
        }
        if c.buf.len() < c.cap {
            let i = c.send_slot();
            join(&mut c.slots[i], vc);
            c.buf.push_back(tick());
            c.tick = by.filter(|_| c.buf.len() == 1);
            self.puts += 1;
        }
        false
    }
}
