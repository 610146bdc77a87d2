//! Late selects: a select with no default that found its channel closed
//! (`Access::Late`). Had it come before the close it would have waited at every
//! channel, and the close would have completed it with the same zero value: one
//! behaviour. So the close's race with it is not reversed where the wait would have
//! been seen by nobody else (`Late::quiet`); what waiting there could have met, a
//! step after the close at one of its other channels, is raced with it directly
//! (`Late::pair`). Soundness: docs/dpor.md, the late-select row of the reductions.

use super::*;

/// A quiet late select at `x`, whose close is at `c`.
pub(super) struct Late {
    pub x: usize,
    pub c: usize,
    /// Its accesses had it waited (`dpor::hand_into`'s wait, no place, no tag).
    pub wait: Accesses,
    /// What a step that meets it waiting at another channel conflicts with: that
    /// channel and its own side's line.
    pub meet: Accesses,
}

/// The position of the close of the channel event `e` found closed, if `e` is a late
/// select, and that channel.
fn closed_by(evs: &[&Event], x: usize) -> Option<(usize, Obj)> {
    let e = evs[x];
    let mark = e.accesses.iter().find(|a| a.1 == Access::Late)?.0;
    let s = e
        .accesses
        .iter()
        .find(|a| a.1 == Access::Read && line(a.0, false) == mark)?
        .0;
    let c = (0..x)
        .rev()
        .find(|&k| evs[k].accesses.contains(&(s, Access::Close)))?;
    Some((c, s))
}

impl Late {
    /// Event `x` as a quiet late select: its close `c`, another goroutine's,
    /// conflicts with it at the closed channel only (it woke no select at its other
    /// channels), is a direct race of it with no clock advance between, and no step
    /// before the close that it is not ordered after would have met it waiting
    /// (`window`). Else the close's race with it is reversed as any race.
    pub(super) fn quiet(evs: &[&Event], sigs: &[u64], pred: &[Vec<u64>], x: usize) -> Option<Late> {
        let (c, s) = closed_by(evs, x)?;
        let e = evs[x];
        // Its own goroutine's close: it could not have come first.
        if evs[c].tid == e.tid {
            return None;
        }
        let off: Accesses = evs[c]
            .accesses
            .iter()
            .filter(|a| a.0 != s)
            .copied()
            .collect();
        if conflict(&off, &e.accesses) {
            return None;
        }
        let dep = |m: usize| dependent_sig(evs[m], sigs[m], e, sigs[x]);
        if (c + 1..x).any(|m| evs[m].tid == CLOCK || (dep(m) && has(&pred[m], c))) {
            return None;
        }
        let mut wait = Accesses::new();
        let mut meet = Accesses::new();
        for &(o, k) in &e.accesses {
            match k {
                Access::Late => {}
                Access::Read if o == s => {
                    wait.push((o, Access::Add));
                    wait.push((line(o, false), Access::Join));
                    wait.push((line(o, true), Access::Read));
                }
                Access::Add => {
                    wait.push((o, k));
                    for t in [false, true] {
                        if e.accesses.contains(&(line(o, t), Access::Read)) {
                            wait.push((line(o, !t), Access::Join));
                            meet.push((o, Access::Add));
                            meet.push((line(o, !t), Access::Join));
                        }
                    }
                }
                _ => wait.push((o, k)),
            }
        }
        wait.sort_unstable();
        wait.dedup();
        // What the select happens after but through its close: the steps it depends
        // on, with what they happen after, but those before the close (reversed with
        // the close, it could have come before them, and waited there).
        let mut pre = vec![0u64; pred[x].len()];
        for m in (0..x).filter(|&m| m != c && dep(m) && !has(&pred[c], m)) {
            add_past(&mut pre, &pred[m], m);
        }
        // The close completes every receive waiting at its line alike: a join there
        // does not see it. A step that reads that line does (a select that took
        // elsewhere and found no receiver for its send case there: with this one
        // waiting, it had two cases ready).
        let mine = line(s, false);
        let seen: Accesses = wait
            .iter()
            .filter(|&&a| a != (mine, Access::Join))
            .copied()
            .collect();
        let window = (0..c).any(|d| {
            evs[d].tid != e.tid
                && !has(&pre, d)
                && (conflict_strict(&evs[d].accesses, &seen)
                    || evs[d].accesses.contains(&(mine, Access::Read)))
        });
        (!window).then_some(Late { x, c, wait, meet })
    }

    /// The sequence, inserted at its close, in which this select waits there and step
    /// `y` meets it at another of its channels: a hand-off, a try that takes it, a
    /// select that chooses it (a late select after its own close, which then has two
    /// cases ready). None where `y` cannot meet it so: `y` is this select's own
    /// goroutine's or the closer's, came before the close, conflicts with nothing it
    /// would wait at, joins the other side's line there or closes it (those race with
    /// it directly, and reversed make a second case ready), or needs a step after the
    /// close, the clock, or either of the two.
    pub(super) fn pair(
        &self,
        evs: &[&Event],
        sigs: &[u64],
        pred: &[Vec<u64>],
        y: usize,
    ) -> Option<(usize, Vec<Event>)> {
        let (x, c) = (self.x, self.c);
        let (ex, ey) = (evs[x], evs[y]);
        if y <= c
            || y == x
            || ey.tid == ex.tid
            || ey.tid == evs[c].tid
            || !conflict(&ey.accesses, &self.meet)
        {
            return None;
        }
        let other_join = ey
            .accesses
            .iter()
            .any(|&(o, k)| k == Access::Join && ex.accesses.contains(&(o, Access::Read)));
        if other_join || ey.accesses.iter().any(|a| a.1 == Access::Close) {
            return None;
        }
        // What the two need: the select's past, and `y`'s but through its own close
        // if it is a late select (it may come before that close, or after it and
        // choose), with what they happen after.
        let cy = match ey.accesses.iter().any(|a| a.1 == Access::Late) {
            true => closed_by(evs, y)?.0,
            false => c,
        };
        let mut need = pred[x].clone();
        for m in (0..y).filter(|&m| m != cy && dependent_sig(evs[m], sigs[m], ey, sigs[y])) {
            add_past(&mut need, &pred[m], m);
        }
        let mut seq = Vec::new();
        for m in c + 1..x.max(y) {
            if m == x || m == y {
                continue;
            }
            if evs[m].tid == CLOCK {
                return None;
            }
            if !has(&need, m) {
                continue;
            }
            if [c, x, y].iter().any(|&k| has(&pred[m], k)) {
                return None;
            }
            seq.push(evs[m].clone());
        }
        seq.push(Event {
            accesses: self.wait.clone(),
            ..ex.clone()
        });
        seq.push(ey.clone());
        Some((c, seq))
    }
}

/// A send at `j` that took the place of a select waiting at `i` at a buffered channel
/// (`Access::Buffer`). At an unbuffered channel the other order of the two halves (the
/// send waiting, the select coming later and taking its place) holds the send's
/// goroutine until the select comes; at a buffer the send leaves its value and goes
/// on, so its later steps may come before the select and make a second case of it
/// ready.
pub(super) struct Put {
    pub i: usize,
    pub j: usize,
    /// The select's wait at its channels.
    others: Accesses,
    /// The goroutines that go on after the send: the sender, and those whose steps
    /// after it depend on one of theirs.
    tids: Vec<Tid>,
    /// What the send released: a goroutine it started in its step (a `go` is no step
    /// of its own: its start is released by the step before it) goes on too.
    started: Vec<Obj>,
    /// What the steps of those goroutines after the send touched.
    foot: Vec<(Obj, Access)>,
    /// Per position after the send, whether the step is one of theirs.
    after: Vec<bool>,
    /// The first advance of the clock after the select's wait, if any.
    clock: usize,
}

impl Put {
    pub(super) fn new(evs: &[&Event], j: usize) -> Option<Put> {
        let e = evs[j];
        let &(o, _) = e.accesses.iter().find(|a| a.1 == Access::Buffer)?;
        if !e.accesses.contains(&(o, Access::Write)) {
            return None; // a wait, not a taker
        }
        let places: Vec<Obj> = (e.accesses.iter())
            .filter(|a| a.1 == Access::Acquire)
            .map(|a| a.0)
            .collect();
        let i = (0..j).rev().find(|&i| {
            evs[i].tid != e.tid
                && evs[i].accesses.contains(&(o, Access::Add))
                && (evs[i].accesses.iter()).any(|a| a.1 == Access::Release && places.contains(&a.0))
        })?;
        // Its channel too: there a step after the send could find the value in the
        // buffer (`len`, a try, a receive, a close) before the select came.
        let others = (evs[i].accesses.iter())
            .filter(|a| {
                matches!(
                    a.1,
                    Access::Add | Access::Join | Access::Read | Access::Write
                )
            })
            .copied()
            .collect();
        // Nothing moves across the clock's advance, which comes only when every
        // goroutine waits: past one the select had come (its case ready had the
        // send come first), and the send cannot come before it.
        let clock = (i + 1..evs.len())
            .find(|&k| evs[k].tid == CLOCK)
            .unwrap_or(usize::MAX);
        if clock < j {
            return None;
        }
        let started = (e.accesses.iter())
            .filter(|a| a.1 == Access::Release)
            .map(|a| a.0)
            .collect();
        let mut put = Put {
            i,
            j,
            others,
            tids: vec![e.tid],
            started,
            clock,
            foot: Vec::new(),
            after: vec![false; evs.len()],
        };
        let end = evs.len().min(clock);
        for (k, ev) in evs.iter().enumerate().take(end).skip(j + 1) {
            if put.follows(ev.tid, &ev.accesses) {
                put.after[k] = true;
                if !put.tids.contains(&ev.tid) {
                    put.tids.push(ev.tid);
                }
                for a in ev.accesses.iter() {
                    if !put.foot.contains(a) {
                        put.foot.push(*a);
                    }
                }
            }
        }
        Some(put)
    }

    /// Whether a step of goroutine `t` touching `a`, after the send, comes after one
    /// of the steps that went on after it: by its goroutine, or by conflicting with
    /// one, strictly. Not the race analysis's happens-before, which lets a receive
    /// that found a channel closed commute with the close, though it came after it
    /// (`a_receive_of_the_senders_close_sees_the_value`).
    fn follows(&self, t: Tid, a: &[(Obj, Access)]) -> bool {
        self.tids.contains(&t)
            || self.started.contains(&thread_obj(t))
            || conflict_strict(a, &self.foot)
    }

    /// Whether step `z` (`ev`; not `real`: a step pending at the end, or kept back
    /// at `z`), after the send and before the clock's next advance, could have come
    /// before the select had the send come first and meets the select's wait: one
    /// that went on after the send (`follows`). Not bounded by the select's own next
    /// steps: `z` may follow them only through a wait of theirs whose place it took,
    /// and in the other order it would have waited there itself before the select came
    /// (`both_selects_choose_the_unbuffered_case_over_a_buffer_left_full`).
    pub(super) fn goes_on(&self, evs: &[&Event], z: usize, ev: &Event, real: bool) -> bool {
        let on = match self.after.get(z) {
            Some(&on) if real => on,
            _ => self.follows(ev.tid, &ev.accesses),
        };
        z < self.clock
            && ev.tid != evs[self.i].tid
            && on
            && conflict_strict(&ev.accesses, &self.others)
    }
}
