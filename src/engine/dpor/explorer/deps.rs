//! Which steps commute: the dependence relation on accesses, and the bit sets over an
//! execution's positions that `analyze` finds a step's dependent events with.

use super::*;

/// Whether two steps conflict, for the race analysis: joins of one line commute.
pub(super) fn conflict(a: &[(Obj, Access)], b: &[(Obj, Access)]) -> bool {
    conflict_in(a, b, true)
}

/// Whether two steps conflict, for sleep sets and wakeup trees: joins of one line do
/// too (`Access::Join`).
pub(super) fn conflict_strict(a: &[(Obj, Access)], b: &[(Obj, Access)]) -> bool {
    conflict_in(a, b, false)
}

fn conflict_in(a: &[(Obj, Access)], b: &[(Obj, Access)], joins: bool) -> bool {
    if a.iter().chain(b.iter()).any(|x| x.0 == ANY) {
        return true;
    }
    // Marks (`Tag`, `Late`, `Buffer`) conflict with nothing.
    let mark = |k: Access| matches!(k, Access::Tag | Access::Late | Access::Buffer);
    let commute = |k1: Access, k2: Access| {
        mark(k1)
            || mark(k2)
            || (k1 == Access::Read && k2 == Access::Read)
            || (matches!(k1, Access::Add | Access::Leave)
                && matches!(k2, Access::Add | Access::Leave))
            || (joins && k1 == Access::Join && k2 == Access::Join)
    };
    let by_objects = a
        .iter()
        .any(|&(o1, k1)| b.iter().any(|&(o2, k2)| o1 == o2 && !commute(k1, k2)));
    // Asked only of steps that conflict by their objects: the race analysis asks this
    // of most pairs of an execution's steps.
    by_objects && !(joins && (closes_on(a, b) || closes_on(b, a)))
}

/// Whether step `a` closes a channel whose receive line step `b` joins (a receive, or
/// a select with a receive case there, that waits: `dpor::hand_into`), or reads it
/// closed (`Mode::Closed`: a channel with a line is read by nothing else). They
/// commute (`Access::Close`): had `b` come after the close, it would have found the
/// channel closed and taken that case at once, as the close completes it; the close
/// takes it off its other channels (`Access::Withdraw`), where it never came had it
/// come after; and a receive that reads the channel closed came after the close, so
/// after every join. Also whether `a` closes a channel that `b`, a plain receive,
/// found closed (it reads the channel and its receive line: `ClosedBy::Receive`):
/// had it come first it would have waited there, and the close completed
/// it, for the close found nobody it could have met (`Mode::Close`: no sender
/// waiting, no value in the buffer); a step that could have met it between writes
/// the channel, which it reads.
fn closes_on(a: &[(Obj, Access)], b: &[(Obj, Access)]) -> bool {
    a.iter().any(|&(o, k)| {
        (k == Access::Read || k == Access::Close && wakes(a, b))
            && b.contains(&(line(o, false), Access::Join))
            || k == Access::Close
                && b.contains(&(o, Access::Read))
                && b.contains(&(line(o, false), Access::Read))
    })
}

/// Whether step `a` woke the goroutine whose wait step `b` is (`Access::Tag`). A close
/// that did not had found it gone from the line: a step between them (another close,
/// a sender at another of a select's channels) had completed it, and had the joiner
/// come after the close it would have found the channel closed, another behaviour.
fn wakes(a: &[(Obj, Access)], b: &[(Obj, Access)]) -> bool {
    b.iter()
        .any(|&(t, k)| k == Access::Tag && a.contains(&(t, Access::Wake)))
}

/// Whether a sleep entry's step (accesses `slept`, as it ran) is still the step its
/// thread will take (accesses `now`): each object it names now, used the same way.
/// A step whose use changed with the state (a `Done` that would now take the counter
/// below zero) is another event, which the entry does not cover.
pub(super) fn same_step(slept: &[(Obj, Access)], now: &[(Obj, Access)]) -> bool {
    now.iter().all(|a| slept.contains(a))
}

/// A step's objects as one word, for `analyze`'s many dependence tests: a bit per
/// object (its id's low six bits after a mix), or every bit if it touches `ANY`. Two
/// steps whose words share no bit touch no common object, so they conflict only if
/// they are one goroutine's; sharing a bit proves nothing (`conflict` decides).
pub(super) fn signature(a: &[(Obj, Access)]) -> u64 {
    a.iter().fold(0, |s, &(o, k)| {
        if matches!(k, Access::Tag | Access::Late | Access::Buffer) {
            s
        } else if o == ANY {
            u64::MAX
        } else {
            s | 1 << (o.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)
        }
    })
}

/// Whether two events do not commute: one goroutine's, or conflicting (`signature`).
pub(super) fn dependent_sig(a: &Event, sa: u64, b: &Event, sb: u64) -> bool {
    a.tid == b.tid || (sa & sb != 0 && conflict(&a.accesses, &b.accesses))
}

impl Index {
    pub(super) fn fill(&mut self, evs: &[&Event], sigs: &[u64], words: usize) {
        let Index { bits, tids, .. } = self;
        bits.clear();
        bits.resize(64 * words, 0);
        // Emptied, not dropped: a goroutine's set is reused by whoever comes at its place.
        for t in tids.iter_mut() {
            t.0 = Tid::MAX;
            t.1.clear();
            t.1.resize(words, 0);
        }
        let mut used = 0;
        for (i, (e, &sig)) in evs.iter().zip(sigs).enumerate() {
            let (w, b) = (i / 64, 1u64 << (i % 64));
            for k in ones(&[sig]) {
                bits[k * words + w] |= b;
            }
            match tids[..used].iter_mut().find(|t| t.0 == e.tid) {
                Some(t) => t.1[w] |= b,
                None => {
                    if used == tids.len() {
                        tids.push((e.tid, vec![0u64; words]));
                    }
                    tids[used].0 = e.tid;
                    tids[used].1[w] |= b;
                    used += 1;
                }
            }
        }
        tids.truncate(used);
        self.words = words;
    }

    /// Into `out`: the events before `j` that may be dependent with a step of `tid`
    /// whose signature is `sig` (a superset: `dependent_sig` decides).
    pub(super) fn candidates(&self, sig: u64, tid: Tid, j: usize, out: &mut [u64]) {
        out.fill(0);
        for k in ones(&[sig]) {
            for (o, b) in out.iter_mut().zip(&self.bits[k * self.words..]) {
                *o |= b;
            }
        }
        if let Some(t) = self.tids.iter().find(|t| t.0 == tid) {
            for (o, b) in out.iter_mut().zip(&t.1) {
                *o |= b;
            }
        }
        keep_below(out, j);
    }

    /// The latest event of goroutine `tid` before `j`.
    pub(super) fn last(&self, tid: Tid, j: usize) -> Option<usize> {
        let t = self.tids.iter().find(|t| t.0 == tid)?;
        ones_rev_below(&t.1, j).next()
    }
}

/// Whether position `i` is in bit set `set`.
pub(super) fn has(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

/// Adds position `m` and its happens-before row `row` (what it happens after) to `set`.
pub(super) fn add_past(set: &mut [u64], row: &[u64], m: usize) {
    for (x, y) in set.iter_mut().zip(row) {
        *x |= y;
    }
    set[m / 64] |= 1 << (m % 64);
}

/// Into `out`: every event before `j`.
pub(super) fn all_before(j: usize, out: &mut [u64]) {
    out.fill(u64::MAX);
    keep_below(out, j);
}

/// Clears the bits at `j` and above.
pub(super) fn keep_below(set: &mut [u64], j: usize) {
    for (w, x) in set.iter_mut().enumerate() {
        let lo = w * 64;
        if j <= lo {
            *x = 0;
        } else if j < lo + 64 {
            *x &= (1u64 << (j - lo)) - 1;
        }
    }
}

/// Visits the positions of `cand`'s ones that are not in `seen`, latest first, while
/// `visit` adds to `seen` (positions below the one it is given): a whole word of what
/// it added is skipped at once.
pub(super) fn latest_first(
    cand: &[u64],
    seen: &mut [u64],
    mut visit: impl FnMut(usize, &mut [u64]),
) {
    for w in (0..cand.len()).rev() {
        let mut x = cand[w];
        loop {
            x &= !seen[w];
            if x == 0 {
                break;
            }
            let b = 63 - x.leading_zeros() as usize;
            x &= !(1 << b);
            visit(w * 64 + b, seen);
        }
    }
}

/// The positions of a bit set's ones below `j`, in decreasing order.
pub(super) fn ones_rev_below(set: &[u64], j: usize) -> impl Iterator<Item = usize> + '_ {
    let top = j.div_ceil(64).min(set.len());
    set[..top]
        .iter()
        .enumerate()
        .rev()
        .flat_map(move |(w, &x)| {
            let lo = w * 64;
            let mut x = if j < lo + 64 {
                x & ((1u64 << (j - lo)) - 1)
            } else {
                x
            };
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = 63 - x.leading_zeros() as usize;
                    x &= !(1 << b);
                    lo + b
                })
            })
        })
}

/// The positions of a bit set's ones, in increasing order.
pub(super) fn ones(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &x)| {
        let mut x = x;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                w * 64 + b
            })
        })
    })
}

pub(super) fn choices_compatible(a: &[u32], a_complete: bool, b: &[u32], b_complete: bool) -> bool {
    match (a_complete, b_complete) {
        (true, true) => a == b,
        (false, true) => b.starts_with(a),
        (true, false) => a.starts_with(b),
        (false, false) => a.starts_with(b) || b.starts_with(a),
    }
}
