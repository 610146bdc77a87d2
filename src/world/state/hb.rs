//! Happens-before: each goroutine's and object's vector clocks, the orders Go's
//! operations make (the race detector's annotations), and the plain memory they guard.

use super::*;

/// `into` learns everything `from` knows: the pointwise maximum of two vector clocks.
pub(super) fn join(into: &mut Vec<u32>, from: &[u32]) {
    into.resize(into.len().max(from.len()), 0);
    for (i, x) in from.iter().enumerate() {
        into[i] = into[i].max(*x);
    }
}

/// Where an access was made, for a race's message: ` in f at x.go:12`, or nothing.
pub(crate) fn place(a: &Access) -> String {
    if a.func.is_empty() {
        String::new()
    } else {
        format!(" in {}", a.func)
    }
}

impl Access {
    /// An access made by a step, for a race's message: `at step 7 in f at x.go:12`.
    pub(crate) fn at_step(&self) -> String {
        format!("at step {}{}", self.step + 1, place(self))
    }
}

impl State {
    /// A completed operation on a synchronising object: the goroutine learns all the
    /// object's releases knew, the object learns all it knows (acquire and release;
    /// coarser than Go's memory model, so it may miss a race). Never invents one: every
    /// order Go's memory model gives is here, the one that runs against the flow of
    /// values (an unbuffered receive before its send completes) by `acquire_from`.
    /// `order_any`'s `Sync`.
    pub(super) fn sync(&mut self, g: Gid, o: Oid) {
        // After the release the object knows at least all the goroutine knows.
        self.release(g, o);
        self.gors[g].vc.clone_from(&self.objs[o].vc);
        self.gors[g].vc[g] += 1;
    }

    /// A completed operation on `o` orders goroutine `g` with it as `hb` says.
    /// A release starts a new epoch, which the object does not cover.
    pub(crate) fn order(&mut self, g: Gid, o: Oid, hb: Hb) {
        if matches!(self.objs[o].kind, ObjKind::Var(_)) {
            return;
        }
        self.order_any(g, o, hb);
    }

    /// `order`, on any object: a plain location's clock is its atomics' (`Obj::vc`),
    /// which an atomic operation on it orders through (`Acquire` a load, `Store` a
    /// store, `Sync` a read-modify-write); plain accesses never sync.
    pub(crate) fn order_any(&mut self, g: Gid, o: Oid, hb: Hb) {
        match hb {
            Hb::Sync => self.sync(g, o),
            Hb::Release => {
                self.release(g, o);
                self.gors[g].vc[g] += 1;
            }
            Hb::Acquire => join(&mut self.gors[g].vc, &self.objs[o].vc),
            Hb::ReaderRelease => {
                join(&mut self.objs[o].rvc, &self.gors[g].vc);
                self.gors[g].vc[g] += 1;
            }
            Hb::Writer => {
                join(&mut self.gors[g].vc, &self.objs[o].rvc);
                self.sync(g, o);
            }
            Hb::Store => {
                self.objs[o].vc.clone_from(&self.gors[g].vc);
                self.gors[g].vc[g] += 1;
            }
            Hb::Unordered => {}
        }
    }

    /// Goroutine `g` syncs with slot `i` of buffered channel `o` (Go's `racenotify`: a
    /// release and an acquire on the slot), and starts a new epoch.
    pub(crate) fn sync_slot(&mut self, g: Gid, o: Oid, i: usize) {
        let ObjKind::Chan(c) = &mut self.objs[o].kind else {
            unreachable!("not a channel")
        };
        let slot = &mut c.slots[i];
        join(slot, &self.gors[g].vc);
        self.gors[g].vc.clone_from(slot);
        self.gors[g].vc[g] += 1;
    }

    /// Completes goroutine `g`'s blocked operation on buffered channel `o` with a value
    /// through slot `i`: `g` syncs with the slot (after whoever passed the value did),
    /// and its hand-off orders nothing else.
    pub(crate) fn hand_off_through(&mut self, g: Gid, o: Oid, i: usize) {
        self.sync_slot(g, o, i);
        self.hand_off_as(g, o, Hb::Unordered);
    }

    /// Release only: a blocked sender's offer carries what it knows to its receiver.
    pub(crate) fn release(&mut self, g: Gid, o: Oid) {
        join(&mut self.objs[o].vc, &self.gors[g].vc);
    }

    /// Whether access `a` happens before goroutine `g`'s present.
    pub(crate) fn happened_before(&self, a: &Access, g: Gid) -> bool {
        a.gid == g || self.gors[g].vc.get(a.gid).copied().unwrap_or(0) >= a.epoch
    }

    pub(crate) fn access(&self, g: Gid) -> Access {
        Access {
            gid: g,
            epoch: self.gors[g].vc[g],
            step: self.trace.len(),
            func: self.gors[g].func(),
            atomic: false,
        }
    }

    /// The race detector's history of a plain location: a variable's, or an atomic's
    /// (for its plain accesses).
    pub(crate) fn var(&mut self, o: Oid) -> &mut VarState {
        match &mut self.objs[o].kind {
            ObjKind::Var(v) | ObjKind::Atomic { var: v, .. } => v,
            _ => unreachable!("not a variable"),
        }
    }

    /// Goroutine `g` copies the state of `sync` value `o` (a plain read): a race with
    /// every operation on it that does not happen before (`Obj::ops`).
    pub(crate) fn copied(&mut self, g: Gid, o: Oid) -> Option<Violation> {
        if !self.check_races {
            return None;
        }
        if let Some(op) = self.objs[o]
            .ops
            .iter()
            .find(|a| !self.happened_before(a, g))
        {
            return Some(Violation::new(
                Property::DataRace,
                format!(
                    "{} operated on {} {}; {} copied it (a plain read of its state){}; nothing orders the two",
                    self.name(op.gid),
                    self.oname(o),
                    op.at_step(),
                    self.name(g),
                    place(&self.access(g)),
                ),
            ));
        }
        let now = self.access(g);
        let copies = &mut self.objs[o].copies;
        copies.retain(|a| a.gid != g);
        copies.push(now);
        None
    }

    /// Records goroutine `g`'s completed operation on `o` where a copy of its state
    /// can happen (`Obj::ops`).
    pub(crate) fn operated(&mut self, g: Gid, o: Oid) {
        if !(self.check_races && self.unchecked) {
            return;
        }
        if !matches!(
            self.objs[o].kind,
            ObjKind::Mutex { .. }
                | ObjKind::RwMutex { .. }
                | ObjKind::WaitGroup { .. }
                | ObjKind::Once { .. }
        ) {
            return;
        }
        let now = self.access(g);
        let ops = &mut self.objs[o].ops;
        ops.retain(|a| a.gid != g);
        ops.push(now);
    }

    /// Goroutine `g`'s operation on `objs` against the copies of their state
    /// (`copied`): a race with a copy that does not happen before it.
    pub(crate) fn copy_races(&self, g: Gid, objs: &[Oid]) -> Option<Violation> {
        let (o, a) = objs.iter().find_map(|&o| {
            let a = self.objs[o]
                .copies
                .iter()
                .find(|a| !self.happened_before(a, g))?;
            Some((o, a))
        })?;
        Some(Violation::new(
            crate::verdict::Property::DataRace,
            format!(
                "{} copied {} (a plain read of its state) after step {}{}; {} operated on it at step {}{}; nothing orders the two",
                self.name(a.gid),
                self.oname(o),
                a.step,
                place(a),
                self.name(g),
                self.trace.len() + 1,
                place(&self.access(g)),
            ),
        ))
    }

    /// `var`, to read.
    pub(crate) fn var_ref(&self, o: Oid) -> &VarState {
        match &self.objs[o].kind {
            ObjKind::Var(v) | ObjKind::Atomic { var: v, .. } => v,
            _ => unreachable!("not a variable"),
        }
    }

    /// Completes a blocked goroutine's operation on `o` for it, as Go's runtime does
    /// (the caller has set its `fired`, `granted` or `fault`). The woken goroutine then
    /// touches nothing shared: its happens-before update with `o` is made when this
    /// step ends, at the step that changed `o`, which is where the engines see it.
    pub(crate) fn hand_off(&mut self, g: Gid, o: Oid) {
        self.hand_off_as(g, o, Hb::Sync);
    }

    /// `hand_off`, the woken goroutine ordered with `o` as `hb` says (a read lock
    /// granted acquires only).
    pub(crate) fn hand_off_as(&mut self, g: Gid, o: Oid, hb: Hb) {
        self.handoffs.push((g, o, hb));
        self.wake(g);
    }

    /// Makes the happens-before updates of the hand-offs made since the last call: each
    /// woken goroutine syncs with the object it was handed (after the step that handed
    /// it has synced with its own objects).
    pub(crate) fn sync_handoffs(&mut self) {
        for (g, o, hb) in std::mem::take(&mut self.handoffs) {
            self.order(g, o, hb);
        }
    }

    /// Completes every waiter's operation on `o` for it (see `Gor::granted`), each
    /// ordered with `o` as `hb` says.
    pub(crate) fn grant_all(&mut self, o: Oid, hb: Hb) {
        for g in std::mem::take(&mut self.objs[o].waiters) {
            self.gors[g].granted = true;
            self.hand_off_as(g, o, hb);
        }
    }

    /// Everything goroutine `from` has done so far happens before `g`'s present: a
    /// receive on an unbuffered channel happens before the send completes.
    pub(crate) fn acquire_from(&mut self, g: Gid, from: Gid) {
        let fv = self.gors[from].vc.clone();
        join(&mut self.gors[g].vc, &fv);
    }
}
