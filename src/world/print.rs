//! A state's fingerprint, for the stateful search (`engine::stateful`).
//!
//! Two states with one fingerprint must have the same futures. A goroutine's code is
//! deterministic, so its local state is its history (`Gor::hist`: every result it
//! got, every datum it read, every object and goroutine it made); a value is named by
//! the history of the goroutine that made it (`Val::tag`, `VarState::tag`), which says
//! which value it is without knowing its type. The rest is the world's own state:
//! statuses, waits, hand-offs, every object, the clock. Text (names, step numbers) is
//! left out: it changes reports, not what can happen.
//!
//! The race detector's state is in too, as much of it as decides a future race: for
//! each recorded access (a variable's last write, its reads since), which goroutines'
//! and which objects' clocks cover it. Later clocks only join those, so the future
//! verdicts depend on nothing else; without them, two orders of critical sections that
//! end in one state would share a future that races in one order only.

use super::state::{Access, ObjKind, OnceState, State, Status, VarState, Wait};

/// SplitMix64's finaliser.
fn scramble(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Folds `x` into the 128-bit history `h`: two 64-bit chains, the second fed by the
/// first, so histories collide only when both halves do.
pub(crate) fn mix(h: u128, x: u128) -> u128 {
    let (lo, hi) = (h as u64, (h >> 64) as u64);
    let (xl, xh) = (x as u64, (x >> 64) as u64);
    let lo = scramble(lo ^ scramble(xl ^ 0x9e37_79b9_7f4a_7c15) ^ xh.rotate_left(29));
    let hi = scramble(hi.rotate_left(17) ^ lo ^ scramble(xh ^ xl.rotate_left(41)));
    (hi as u128) << 64 | lo as u128
}

/// Accumulates a fingerprint.
struct Print(u128);

impl Print {
    fn put(&mut self, x: impl Into<u128>) {
        self.0 = mix(self.0, x.into());
    }

    fn opt(&mut self, x: Option<usize>) {
        self.put(x.map_or(0u64, |x| x as u64 + 1));
    }

    fn list(&mut self, xs: impl IntoIterator<Item = usize>) {
        let mut n = 0u64;
        for x in xs {
            self.put(x as u64);
            n += 1;
        }
        self.put(n);
    }
}

impl State {
    /// The fingerprint of this state, between steps; `None` when the model shares
    /// memory the world does not see (a Go kernel's variables), and once a violation
    /// has aborted the execution: its goroutines unwind from there, and the states
    /// they pass on the way out are no states of the program's, though their
    /// fingerprints may be ones a later execution meets (the search then cut it short).
    pub(crate) fn fingerprint(&self) -> Option<u128> {
        if self.unchecked || self.aborted {
            return None;
        }
        Some(self.print(true))
    }

    /// What a polling goroutine's next round depends on in the world, as far as it can
    /// change only by its own steps (`World::poll`): the fingerprint without histories,
    /// value tags, clocks or the race detector (which its repeated reads and lock pairs
    /// change without changing what it can see), with a count of the values ever put
    /// in a channel or a variable instead of their tags.
    pub(crate) fn shape(&self) -> u128 {
        let mut p = Print(self.print(false));
        p.put(self.puts);
        p.0
    }

    fn print(&self, full: bool) -> u128 {
        let mut p = Print(0);
        for g in &self.gors {
            p.put(match g.status {
                Status::Running => 1u64,
                Status::Blocked => 2,
                Status::Turn => 3,
                Status::Joining => 4,
                Status::Done => 5,
            });
            if full {
                p.put(g.hist);
                // What its next polling-loop head will compare with (`World::poll`).
                match &g.poll {
                    None => p.put(0u64),
                    Some(m) => {
                        p.put(m.site);
                        p.put(m.shape);
                        p.put(m.local.map_or(0, |l| mix(l, 1)));
                        p.put(u64::from(self.moves - g.moves != m.others));
                    }
                }
            }
            match &g.wait {
                None => p.put(0u64),
                Some(w) => self.wait(&mut p, w),
            }
            match &g.fired {
                None => p.put(0u64),
                Some((case, v)) => {
                    p.put(*case as u64 + 1);
                    p.put(
                        v.as_ref()
                            .map_or(0, |v| if full { mix(v.tag, 1) } else { 1 }),
                    );
                }
            }
            p.put(u64::from(g.granted));
            p.opt(g.fault.map(|f| f as usize));
            for (case, v) in &g.offers {
                p.put(*case as u64);
                if full {
                    p.put(v.tag);
                }
            }
            p.put(g.offers.len() as u64);
        }
        for (o, obj) in self.objs.iter().enumerate() {
            // A variable's shape is nothing: `puts` counts its writes, and one made
            // and only read (a kernel's loop-local variable) changes nothing.
            if !full && matches!(obj.kind, ObjKind::Var(_)) {
                continue;
            }
            // A kernel's sync values: their copies and operations, for the race detector.
            for list in [&obj.copies, &obj.ops] {
                if self.check_races && !list.is_empty() {
                    let mut accesses: Vec<&Access> = list.iter().collect();
                    accesses.sort_by_key(|a| a.gid);
                    for a in &accesses {
                        self.cover(&mut p, a, o);
                    }
                    p.put(accesses.len() as u64);
                }
            }
            p.list(obj.waiters.iter().copied());
            match &obj.kind {
                ObjKind::Mutex { holder } => p.opt(holder.as_ref().map(|h| h.gid)),
                ObjKind::RwMutex {
                    writer,
                    pending,
                    readers,
                } => {
                    p.opt(writer.as_ref().map(|h| h.gid));
                    p.opt(*pending);
                    p.list(readers.iter().map(|h| h.gid));
                }
                ObjKind::Chan(c) => {
                    p.put(u64::from(c.nil) | u64::from(c.closed) << 1);
                    p.put(c.cap as u64);
                    if full {
                        for v in &c.buf {
                            p.put(v.tag);
                        }
                    }
                    p.put(c.buf.len() as u64);
                    p.put(c.recvx as u64);
                    p.list(c.recvq.iter().flat_map(|&(g, k)| [g, k]));
                    p.list(c.sendq.iter().flat_map(|&(g, k)| [g, k]));
                    // Who ever used it: the wait-for report's peers.
                    p.list(c.receivers.iter().copied());
                    p.list(c.senders.iter().copied());
                    if self.check_races {
                        let mut sends: Vec<&Access> = c.sends.iter().collect();
                        sends.sort_by_key(|a| a.gid);
                        for a in &sends {
                            self.cover(&mut p, a, o);
                        }
                        p.put(sends.len() as u64);
                    }
                }
                ObjKind::WaitGroup { count, uses } => {
                    p.put(*count as u64);
                    if self.check_races {
                        for (a, n) in &uses.adds {
                            self.cover(&mut p, a, o);
                            p.put(*n as u64);
                        }
                        p.put(uses.adds.len() as u64);
                        for a in &uses.waits {
                            self.cover(&mut p, a, o);
                        }
                        p.put(uses.waits.len() as u64);
                    }
                }
                ObjKind::Atomic { value, var } => {
                    p.put(*value as u64);
                    self.history(&mut p, var, o);
                }
                ObjKind::Clock => p.put(self.now.as_nanos() as u64),
                ObjKind::Once { state } => p.put(match state {
                    OnceState::New => 0u64,
                    OnceState::Running(g) => *g as u64 + 2,
                    OnceState::Done => 1,
                }),
                ObjKind::Cond {
                    waiting,
                    signalled,
                    signallers,
                } => {
                    p.list(waiting.iter().copied());
                    p.list(signalled.iter().copied());
                    p.list(signallers.iter().copied());
                }
                ObjKind::Var(v) => {
                    p.put(v.tag);
                    self.history(&mut p, v, o);
                }
            }
        }
        p.put(self.now.as_nanos());
        for &(at, o) in &self.timers {
            p.put(at.as_nanos());
            p.put(o as u64);
        }
        p.put(self.timers.len() as u64);
        for &(o, n) in &self.armed {
            p.put(o as u64);
            p.put(n);
        }
        p.put(self.armed.len() as u64);
        p.0
    }

    fn wait(&self, p: &mut Print, w: &Wait) {
        match w {
            Wait::Lock(o) => p.put(mix(1, *o as u128)),
            Wait::RLock(o) => p.put(mix(2, *o as u128)),
            Wait::WLock(o) => p.put(mix(3, *o as u128)),
            Wait::Group(o) => p.put(mix(4, *o as u128)),
            Wait::Once(o) => p.put(mix(5, *o as u128)),
            Wait::Cond(o) => p.put(mix(6, *o as u128)),
            Wait::Sleep(d) => p.put(mix(7, d.as_nanos())),
            Wait::Bound => p.put(10u64),
            Wait::Poll(site) => {
                p.put(9u64);
                for b in site.bytes() {
                    p.put(u64::from(b));
                }
            }
            Wait::Chan(cases) => {
                p.put(8u64);
                p.list(cases.iter().flat_map(|&(o, d)| [o, d as usize]));
            }
        }
    }

    /// A location's race-detector history (with races checked).
    fn history(&self, p: &mut Print, v: &VarState, o: usize) {
        if !self.check_races {
            return;
        }
        p.put(u64::from(v.last_write.is_some()));
        if let Some(a) = &v.last_write {
            self.cover(p, a, o);
        }
        let mut concurrent: Vec<&Access> = v.concurrent.iter().collect();
        concurrent.sort_by_key(|a| a.gid);
        for a in &concurrent {
            self.cover(p, a, o);
        }
        p.put(concurrent.len() as u64);
        // Which read a race names first changes its message only.
        let mut reads: Vec<&Access> = v.reads.iter().collect();
        reads.sort_by_key(|a| (a.gid, a.atomic));
        for a in &reads {
            self.cover(p, a, o);
        }
        p.put(reads.len() as u64);
    }

    /// Which clocks cover access `a` of variable `var`: goroutines', then objects'
    /// (a variable's own clock is its atomics', `State::order_any`).
    fn cover(&self, p: &mut Print, a: &Access, var: usize) {
        p.put(mix(a.gid as u128, var as u128));
        p.put(u64::from(a.atomic));
        let by_gor = (0..self.gors.len()).filter(|&g| self.happened_before(a, g));
        p.list(by_gor);
        let covers = |vc: &[u32]| vc.get(a.gid).copied().unwrap_or(0) >= a.epoch;
        let by_obj = self.objs.iter().enumerate().filter(|(_, o)| covers(&o.vc));
        p.list(by_obj.map(|(i, _)| i));
        // What an RWMutex's writers alone learn (`Obj::rvc`).
        let by_readers = self.objs.iter().enumerate().filter(|(_, o)| covers(&o.rvc));
        p.list(by_readers.map(|(i, _)| i));
        // A buffered channel's slots (`Chan::slots`).
        let by_slot = self.objs.iter().enumerate().flat_map(|(i, o)| {
            let slots: &[Vec<u32>] = match &o.kind {
                ObjKind::Chan(c) => &c.slots,
                _ => &[],
            };
            let covered = slots.iter().enumerate().filter(|(_, v)| covers(v));
            covered.flat_map(move |(k, _)| [i, k])
        });
        p.list(by_slot);
    }
}
