//! Subtrees given away: an explorer hands the next branch of a level to a helper thread
//! (`steal`) or leaves it to another unit (`split`), and takes in what exploring it did.

use super::*;

impl Explorer {
    pub(super) fn cancel(&mut self, id: u64) {
        if let Some(h) = self.helpers.as_mut() {
            h.cancel(id);
        }
    }

    /// Forgets the branches given away at level `li` and below.
    pub(super) fn drop_given(&mut self, li: usize) {
        while self.given.len() > li {
            if let Some(g) = self.given.pop().flatten() {
                self.cancel(g.id);
            }
        }
    }

    /// Gives the next branch of the highest level that has one (the largest subtree
    /// left) to another thread, as this explorer will meet it.
    pub(super) fn give(&mut self) {
        let from = self.root.map_or(0, |r| r + 1);
        let Some(li) = (from..self.stack.len()).find(|&li| {
            let l = &self.stack[li];
            l.ev.is_some()
                && !l.expanded
                && !l.pending.is_empty()
                && self.given.get(li).is_none_or(Option::is_none)
        }) else {
            return;
        };
        let mut snap = self.stack[li].clone();
        if !advance(&mut snap) {
            return;
        }
        let mut unit = Explorer::new();
        unit.stack = self.stack[..li]
            .iter()
            .map(|l| Level {
                ev: l.ev.clone(),
                cur: l.cur.clone(),
                ..Level::default()
            })
            .collect();
        unit.stack.push(snap.clone());
        unit.root = Some(li);
        unit.unit = Some((0, 0));
        unit.clean = li;
        let id = self.helpers.as_mut().expect("helpers").give(unit);
        self.stats.gave += 1;
        if self.given.len() <= li {
            self.given.resize_with(li + 1, || None);
        }
        self.given[li] = Some(Given { id, snap });
    }

    /// Takes in the result of the subtree given away at level `li`, which `begin` has
    /// just reached, if it has finished and holds.
    pub(super) fn collect(&mut self, li: usize, g: Given) -> Collect {
        let Some(done) = self.helpers.as_mut().and_then(|h| h.take(g.id)) else {
            self.waiting = Some((li, g));
            return Collect::Wait;
        };
        if done.full.is_some() && g.snap != self.stack[li] {
            self.stats.redone += 1;
            return Collect::Explore;
        }
        if done.halt.is_some() {
            self.halted = Some(done);
            return Collect::Halt;
        }
        // Siblings inserted here after the branch was given away, whose labels make
        // its event: where the branch runs, its step merges them (`close_step`); the
        // subtree could not, so it is done here. One with a subtree of its own would
        // have been grafted below the branch: the branch is explored here then. A
        // subtree whose step chose among cases read more of the level (`full`), so
        // here the step made no choice: its goroutine's siblings make it.
        let made: Vec<usize> = match (&done.full, &done.ev) {
            (None, Some(ev)) => (0..self.stack[li].pending.len())
                .filter(|&i| makes(&self.stack[li].pending[i].ev, ev, &[]))
                .collect(),
            _ => Vec::new(),
        };
        if made
            .iter()
            .any(|&i| !self.stack[li].pending[i].children.is_empty())
        {
            self.stats.redone += 1;
            return Collect::Explore;
        }
        // (Never at this explorer's own root: it gives only below it.)
        if !made.is_empty() {
            for &i in made.iter().rev() {
                self.stack[li].pending.remove(i);
            }
            self.stats.merged += 1;
        }
        let d = done.stats;
        let s = &mut self.stats;
        s.adopted += 1 + d.adopted;
        s.gave += d.gave;
        s.redone += d.redone;
        s.executions += d.executions;
        s.complete += d.complete;
        s.sleep_blocked += d.sleep_blocked;
        s.abandoned += d.abandoned;
        s.infeasible += d.infeasible;
        s.merged += d.merged;
        s.races += d.races;
        s.insertions += d.insertions;
        s.choice_skips += d.choice_skips;
        s.nondeterminism += d.nondeterminism;
        s.max_depth = s.max_depth.max(d.max_depth);
        let full = done.full.is_some();
        let lvl = &mut self.stack[li];
        match done.full {
            Some(l) => *lvl = l,
            None => {
                lvl.ev = done.ev;
                lvl.carry.clear();
                for t in done.stoppers {
                    if !lvl.stoppers.contains(&t) {
                        lvl.stoppers.push(t);
                    }
                }
            }
        }
        for (l, v, cover) in done.ops {
            if full && l == li {
                continue;
            }
            self.record(l, v, cover);
        }
        self.clean = done.clean;
        self.hb_ok = self.hb_ok.min(li);
        Collect::Adopted
    }

    /// The result of this explorer's subtree (`Explorer::over`), for its giver.
    pub fn done(&mut self) -> Done {
        let r = self.root.expect("a given subtree");
        let lvl = &self.stack[r];
        if !self.over {
            // Its root level's branch was left before its subtree was done (a replay
            // that diverged cuts the stack): a result that holds nowhere, so the giver
            // explores the branch itself.
            return Done {
                full: Some(Level {
                    dec: u32::MAX,
                    ..Level::default()
                }),
                ..Done::default()
            };
        }
        self.last_op.clear();
        Done {
            ev: lvl.ev.clone(),
            stoppers: lvl.stoppers.clone(),
            ops: std::mem::take(&mut self.ops),
            full: self.full.then(|| lvl.clone()),
            clean: self.clean,
            stats: self.stats.clone(),
            halt: None,
            note: None,
        }
    }

    /// The result of an exploration stopped after `at` of its executions for the
    /// driver's reason `tag`: for a given subtree, with its root level if it read more
    /// of it than `Given` covers (the stop then holds only on that very level).
    pub fn stopped(&self, at: u64, tag: u64) -> Done {
        let full = self
            .root
            .filter(|_| self.full)
            .and_then(|r| self.stack.get(r).cloned());
        Done {
            full,
            stats: self.stats.clone(),
            halt: Some((at, tag)),
            ..Done::default()
        }
    }

    /// This explorer's driver.
    pub fn set_helpers(&mut self, h: Option<Box<dyn Helpers>>) {
        self.helpers = h;
    }

    /// The subtree given away that `begin` stopped to wait for.
    pub fn waits(&self) -> Option<u64> {
        self.waiting.as_ref().map(|w| w.1.id)
    }
}
