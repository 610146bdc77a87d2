//! Levels and sleep sets: what a node of the exploration tree has explored and has
//! still to explore, and which goroutines sleep there because an explored order
//! already covers what they would start.

use super::*;

/// Skipping choice alternatives covered by a sleeping thread (treating them like race
/// reversals) lost traces in the random campaign, so it is off: every alternative of
/// every executed choice is scheduled (sound; can cost sleep-set-blocked executions).
pub(super) const SKIP_COVERED_ALTERNATIVES: bool = false;

/// Does the sleep entry cover w (is its thread a weak initial of w, with an explored
/// choice vector)? (Not `same_step` against its step in w: w's events carry the
/// accesses they had where they ran, not where w would run them, and asking for it
/// made `a_step_whose_use_changed_wakes_from_sleep` insert the same sequence forever.)
pub(super) fn sleep_covers(e: &SleepEntry, w: &[Event]) -> bool {
    match w.iter().position(|x| x.tid == e.0) {
        Some(k) => {
            !w[..k]
                .iter()
                .any(|x| conflict_strict(&x.accesses, &w[k].accesses))
                && match &e.2 {
                    None => true,
                    Some(list) => list
                        .iter()
                        .any(|c| choices_compatible(c, true, &w[k].choices, w[k].complete)),
                }
        }
        None => e.2.is_none() && !w.iter().any(|x| conflict_strict(&e.1, &x.accesses)),
    }
}

/// Does the sleep entry's step run in w before anything it conflicts with (so every
/// trace w leads to begins with it)? A goroutine asleep where a unit starts covers only
/// such w: its own unit's races never insert at the unit's levels (see `split`).
pub(super) fn goes_first(e: &SleepEntry, w: &[Event]) -> bool {
    w.iter()
        .position(|x| x.tid == e.0)
        .is_some_and(|k| sleep_covers(e, &w[..=k]))
}

impl Level {
    /// The default level, keeping its vectors' room.
    pub(super) fn empty(&mut self) {
        let Level {
            enabled,
            blocked,
            sleep,
            pending,
            cur,
            ev,
            carry,
            covered,
            expanded,
            dec,
            decision,
            stoppers,
            partial,
            foot,
        } = self;
        enabled.clear();
        blocked.clear();
        sleep.clear();
        pending.clear();
        *cur = None;
        *ev = None;
        carry.clear();
        covered.clear();
        *expanded = false;
        *dec = 0;
        *decision = false;
        stoppers.clear();
        partial.clear();
        foot.clear();
    }

    pub(super) fn asleep(&self, t: Tid) -> bool {
        self.sleep.iter().any(|s| s.0 == t)
    }
    pub(super) fn active_tid(&self) -> Option<Tid> {
        self.ev.as_ref().or(self.cur.as_ref()).map(|e| e.tid)
    }
    /// Is the choice prefix `q` of thread `t` already explored/scheduled here?
    pub(super) fn taken(&self, t: Tid, q: &[u32]) -> bool {
        self.covered
            .iter()
            .any(|(tt, c)| *tt == t && c.starts_with(q))
            || self.pending.iter().any(|p| {
                p.ev.tid == t
                    && (p.ev.choices.starts_with(q)
                        || (!p.ev.complete && q.starts_with(&p.ev.choices)))
            })
    }
}

/// Take the next pending child of a level as the child to explore.
/// Backtracks level `top` past its current child: the child joins the level's covered
/// branches (and its sleep set), and the next pending branch, if any, is taken.
pub(super) fn advance(top: &mut Level) -> bool {
    if let Some(ev) = top.ev.take() {
        top.cur = None;
        top.carry.clear();
        top.covered.push((ev.tid, ev.choices.clone()));
        let i = top
            .foot
            .iter()
            .position(|f| f.0 == ev.tid)
            .unwrap_or_else(|| {
                top.foot.push((ev.tid, Accesses::new()));
                top.foot.len() - 1
            });
        let foot = &mut top.foot[i].1;
        for a in &ev.accesses {
            if !foot.contains(a) {
                foot.push(*a);
            }
        }
        foot.sort_unstable();
        if !top.pending.iter().any(|p| p.ev.tid == ev.tid) && !top.asleep(ev.tid) {
            let acc = if top.stoppers.contains(&ev.tid) {
                Accesses::from_slice(&[(ANY, Access::Write)])
            } else {
                top.foot[i].1.clone()
            };
            let only = if top.partial.contains(&ev.tid) {
                Some(
                    top.covered
                        .iter()
                        .filter(|c| c.0 == ev.tid)
                        .map(|c| c.1.clone())
                        .collect(),
                )
            } else {
                None
            };
            top.sleep.push((ev.tid, acc, only));
        }
    } else {
        top.cur = None;
        top.carry.clear();
    }
    take_next(top)
}

pub(super) fn take_next(lvl: &mut Level) -> bool {
    if !lvl.pending.is_empty() {
        let (ev, children) = lvl.pending.remove(0).split();
        lvl.carry = children;
        lvl.cur = Some(ev);
        lvl.ev = None;
        return true;
    }
    false
}
