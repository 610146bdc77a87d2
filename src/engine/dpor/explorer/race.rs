//! Race analysis: at an execution's end, each pair of dependent steps that could be
//! reordered adds a wakeup sequence at the level where the earlier one ran.

use super::*;

impl Explorer {
    /// Race detection on the current execution, inserting reversals into wakeup trees:
    /// every race, each execution (a race in a prefix the last analysed execution
    /// shared is taken from `found`, and inserted again where a goroutine sleeps or
    /// the giver decides, to be checked against this execution's later steps:
    /// `Cover::Whole`).
    pub(super) fn analyze(&mut self, stopped: bool) {
        let n = self.pos;
        let race_stop = self.race_stop;
        let words = n.div_ceil(64).max(1);
        // The stopping step disabled everything: dependent with every other step.
        let last_stop: Option<Event> = (stopped && n > 0).then(|| {
            let mut e = self.stack[n - 1].ev.clone().unwrap();
            e.accesses.push((ANY, Access::Write));
            e
        });
        let stack = &self.stack;
        let (unit_root, unit_sleep) = (self.unit.map(|u| u.1), &self.unit_sleep);
        let evs: Vec<&Event> = (0..n)
            .map(|k| match &last_stop {
                Some(e) if k + 1 == n => e,
                _ => stack[k].ev.as_ref().unwrap(),
            })
            .collect();
        let sigs: Vec<u64> = evs.iter().map(|e| signature(&e.accesses)).collect();
        let mut index = std::mem::take(&mut self.index);
        index.fill(&evs, &sigs, words);
        let mut cand = vec![0u64; words];
        // Happens-before rows: reuse those of the unchanged prefix.
        // Rows are kept allocated past the valid ones, for the next analysis.
        let valid = self.hb_ok.min(n);
        let hb = &mut self.hb;
        if hb.len() < n {
            hb.resize_with(n, Vec::new);
        }
        for row in hb.iter_mut().take(n) {
            row.resize(words, 0);
        }
        for j in valid..n {
            let (hb, rest) = hb.split_at_mut(j);
            let p = &mut rest[0];
            p.fill(0);
            if stopped && j + 1 == n {
                // A stopping step disabled everything: dependent with all other steps.
                all_before(j, &mut cand);
            } else {
                index.candidates(sigs[j], evs[j].tid, j, &mut cand);
            }
            // An event already ordered before one taken is skipped: its row is in
            // that one's.
            latest_first(&cand, p, |i, p| {
                if (stopped && j + 1 == n) || dependent_sig(evs[i], sigs[i], evs[j], sigs[j]) {
                    add_past(p, &hb[i], i);
                }
            });
        }
        let pred = &self.hb[..n];
        let lates: Vec<Late> = (0..n)
            .filter_map(|x| Late::quiet(&evs, &sigs, pred, x))
            .collect();
        let puts: Vec<Put> = (0..n).filter_map(|j| Put::new(&evs, j)).collect();
        let enabled_at = |k: usize, q: Tid| stack[k].enabled.iter().any(|x| x.tid == q);
        let blocked_at = |k: usize, q: Tid| stack[k].blocked.iter().any(|x| x.tid == q);
        // Targets: every event, and every pending step of the final state.
        let pending: Vec<Event> = stack[n]
            .enabled
            .iter()
            .chain(stack[n].blocked.iter())
            .map(Next::label)
            .collect();
        let parked = |q: Tid| stack[n].blocked.iter().any(|x| x.tid == q && x.parked);
        // The objects goroutine q is kept back at (blocked, not parked) at level k.
        let kept_objs = |k: usize, q: Tid| -> Vec<Obj> {
            stack[k]
                .blocked
                .iter()
                .filter(|x| x.tid == q && !x.parked)
                .flat_map(|x| x.accesses.iter().map(|a| a.0))
                .collect()
        };
        // Whether event e touches one of `objs`.
        let touches = |e: &Event, objs: &[Obj]| e.accesses.iter().any(|a| objs.contains(&a.0));
        // A goroutine kept back (blocked, not parked) with one step over a run of
        // levels: that step, raced as its attempt would be had it run there
        // (docs/dpor.md), at the run's first level and at its last. At the first, the
        // step that kept it back is in the race's front; at the last, a later step of
        // the run ordered after that one and conflicting with the attempt hides it
        // (tests/kept_back.rs: none of its programs loses without this race, but
        // nothing argues that none can, and it adds races only). At the last,
        // the steps that came while it was kept back are in the sequence the race
        // inserts, as for a step pending at the end; at the first alone, an order
        // where they came first could be left to a goroutine asleep whose step was
        // kept back in that order
        // (`the_trace_only_program_of_seed_20261801_reaches_every_trace`). A run
        // that goes on to the end is raced there as pending. Not a lock: it goes on
        // only by acquiring what an unlock released, and the Release -> Acquire rule
        // races it with the steps before that touched the mutex, past its own. A
        // level of the shared prefix was raced when that was analysed.
        let kept_at = |x: &&Next| !x.parked && !x.accesses.iter().any(|a| a.1 == Access::Acquire);
        let same_at = |l: usize, x: &Next| {
            stack[l]
                .blocked
                .iter()
                .filter(kept_at)
                .any(|y| y.tid == x.tid && y.accesses == x.accesses)
        };
        let mut kept: Vec<(Event, usize)> = Vec::new();
        let from = valid.saturating_sub(1).min(n);
        for (k, l) in stack.iter().enumerate().take(n).skip(from) {
            for x in l.blocked.iter().filter(kept_at) {
                let first = k >= valid && (k == 0 || !same_at(k - 1, x));
                if first || !same_at(k + 1, x) {
                    kept.push((x.label(), k));
                }
            }
        }
        let targets = (0..n)
            .map(|j| (evs[j], j, true))
            .chain(pending.iter().map(|e| (e, n, false)))
            .chain(kept.iter().map(|(e, k)| (e, *k, false)));
        // A race between two steps of a prefix an analysed execution shared (below
        // `valid`) was found then (`found`), and its reversal inserted or found
        // covered: the sequence is the same, the tree it went into unchanged but for
        // what was inserted. Only a goroutine asleep there decides anew, on the steps
        // after the later one (`Cover::Whole`), which differ. So such a race is
        // inserted again only where a goroutine sleeps, or where the giver of this
        // subtree decides.
        let mut found = std::mem::take(&mut self.found);
        if found.len() < n {
            found.resize_with(n, Vec::new);
        }
        let mut sleepy = vec![0u64; words];
        for (k, l) in stack[..n].iter().enumerate() {
            if self.root.is_some_and(|r| k <= r) || (!l.expanded && !l.sleep.is_empty()) {
                sleepy[k / 64] |= 1 << (k % 64);
            }
        }
        // The steps of `r` that do not happen after i.
        let free = |i: usize, r: std::ops::Range<usize>| -> Vec<Event> {
            r.filter(|&l| !has(&pred[l], i))
                .map(|l| evs[l].clone())
                .collect()
        };
        // The step that took the place event j left waiting (a half: it joins a
        // line, `dpor::hand_into`).
        let taken_later = |j: usize| -> Option<usize> {
            let e = evs[j];
            if !e.accesses.iter().any(|a| a.1 == Access::Join) {
                return None;
            }
            let places: Vec<Obj> = e
                .accesses
                .iter()
                .filter(|a| a.1 == Access::Release)
                .map(|a| a.0)
                .collect();
            (j + 1..n).find(|&k| {
                evs[k].tid != e.tid
                    && evs[k]
                        .accesses
                        .iter()
                        .any(|a| a.1 == Access::Acquire && places.contains(&a.0))
            })
        };
        let mut inserts: Vec<(usize, Vec<Event>, Vec<Event>)> = Vec::new();
        // Races of two joins that a later step tells apart: checked against sleeping
        // goroutines by their start alone (`Cover::Cut`), for the steps after them are
        // ordered by the joins' relation, which a sleeping join's is not.
        let mut observed: Vec<(usize, Vec<Event>)> = Vec::new();
        // Every join's position and line, for the races of joins a later step tells
        // apart.
        let joins: Vec<(usize, Obj)> = (0..n)
            .flat_map(|k| {
                evs[k]
                    .accesses
                    .iter()
                    .filter(|a| a.1 == Access::Join)
                    .map(move |a| (k, a.0))
            })
            .collect();
        let mut front: Vec<usize> = Vec::new();
        let mut u = vec![0u64; words];
        for (tgt, j, real) in targets {
            let notdep = |i: usize| -> Vec<Event> {
                let mut v = free(i, i + 1..j);
                v.push(tgt.clone());
                v
            };
            // The steps after the target that do not happen after i (`Cover::Whole`):
            // for a step kept back, those that ran while it was kept.
            let later = |i: usize| -> Vec<Event> { free(i, j + 1..n) };
            if real && j < valid {
                for &d in found[j].iter().filter(|&&d| has(&sleepy, d)) {
                    inserts.push((d, notdep(d), later(d)));
                }
                continue;
            }
            let start = inserts.len();
            let q = tgt.tid;
            // A step that takes from a line of joins (`dpor::hand_into`): joins of
            // one line commute, but the step tells them apart. A hand-off's taker
            // takes the place of one join: each join of that line not ordered after it
            // that came between them races with it, as writes would (had it come
            // first, it would have been taken). Any other step that writes the
            // channel (a try, a select that is a write, a close) may take whichever
            // join is first in line: every two joins of a line there not ordered
            // with each other race. Found from the taker, which may run in a later
            // execution than the joins.
            if real && !joins.is_empty() {
                // Not through its start, which its first step acquires too.
                let took = |e: &Event| {
                    tgt.accesses.iter().any(|a| {
                        a.1 == Access::Acquire
                            && a.0 != thread_obj(q)
                            && e.accesses.contains(&(a.0, Access::Release))
                    })
                };
                for &(x, _) in tgt.accesses.iter().filter(|a| a.1 == Access::Write) {
                    let lines = [line(x, false), line(x, true)];
                    let at: Vec<usize> = joins
                        .iter()
                        .filter(|&&(k, l)| k < j && lines.contains(&l))
                        .map(|&(k, _)| k)
                        .collect();
                    let taken = at.iter().rev().copied().find(|&i| took(evs[i]));
                    // Not a taker: the joins after the last step before it that wrote
                    // the channel (two before that one were its to race; one before and
                    // one after are ordered through it) or closed it (it completed
                    // them all alike).
                    let firsts: Vec<usize> = match taken {
                        Some(i) => vec![i],
                        None => {
                            let w = (0..j).rev().find(|&k| {
                                evs[k].accesses.iter().any(|&(o, a)| {
                                    o == x && matches!(a, Access::Write | Access::Close)
                                })
                            });
                            at.iter()
                                .copied()
                                .filter(|&i| w.is_none_or(|w| i > w))
                                .collect()
                        }
                    };
                    for &i in &firsts {
                        let l = lines
                            .iter()
                            .copied()
                            .find(|&l| evs[i].accesses.contains(&(l, Access::Join)));
                        for &k in at.iter().filter(|&&k| k > i) {
                            let e = evs[k];
                            if e.tid != evs[i].tid
                                && !has(&pred[k], i)
                                && l.is_some_and(|l| e.accesses.contains(&(l, Access::Join)))
                            {
                                let mut v = free(i, i + 1..k);
                                v.push(e.clone());
                                observed.push((i, v));
                            }
                        }
                    }
                }
            }
            // The event that made q's step enabled (if it was observed blocked or absent).
            let enabler: Option<(usize, bool)> = if enabled_at(j, q) {
                let mut k0 = j;
                while k0 > 0 && evs[k0 - 1].tid != q && enabled_at(k0 - 1, q) {
                    k0 -= 1;
                }
                if k0 == 0 || evs[k0 - 1].tid == q {
                    None
                } else {
                    Some((k0 - 1, !blocked_at(k0 - 1, q)))
                }
            } else {
                None
            };
            // A runtime stop disables every pending step: treat it as dependent with them.
            // Not a step blocked where the stopping step ran (main waiting at its end for
            // the others, a goroutine parked at a channel): the reversal would put it at
            // that level, where it cannot run, and expand the level for nothing. Its races
            // with earlier steps are looked for as in any execution.
            // Nor the stopping step against an earlier step where its goroutine was
            // blocked, unless they conflict (its waker races by the enabler rule): moved
            // before a step it does not touch, a violation the step itself decides ends
            // the execution the same way with fewer steps run, and a deadlock found after
            // it is the same trace.
            let st = signature(&tgt.accesses);
            let held = stopped && !real && j == n && n > 0 && blocked_at(n - 1, q);
            let stop_target = stopped && real && j + 1 == n;
            let dep_t = |i: usize| {
                if held && i + 1 == n {
                    return false;
                }
                if stop_target && !race_stop && evs[i].tid != q && !enabled_at(i, q) {
                    let s = stack[j].ev.as_ref().expect("executed");
                    return conflict(&evs[i].accesses, &s.accesses);
                }
                dependent_sig(evs[i], sigs[i], tgt, st)
                    || (stopped && (i + 1 == n || (real && j + 1 == n)))
            };
            if stopped && real && j + 1 == n {
                all_before(j, &mut cand);
            } else {
                index.candidates(st, q, j, &mut cand);
                if stopped && n > 0 && n - 1 < j {
                    cand[(n - 1) / 64] |= 1 << ((n - 1) % 64);
                }
            }
            // Of the target's own goroutine's events, the latest stands for all: the
            // others happen before it, and nothing below asks for them but through
            // its row.
            let last = index.last(q, j);
            let is_dep = |i: usize| (evs[i].tid != q || Some(i) == last) && dep_t(i);
            // The dependent events that happen before no other dependent one (`front`,
            // in order), and `u`, what happens before any dependent one: latest first,
            // an event in `u` already needs no test, its row being in `u` too.
            front.clear();
            u.fill(0);
            latest_first(&cand, &mut u, |i, u| {
                if is_dep(i) {
                    front.push(i);
                    for (x, y) in u.iter_mut().zip(&pred[i]) {
                        *x |= y;
                    }
                }
            });
            front.reverse();
            let u = &u;
            // Every dependent event, for the rarer questions that need them all.
            let all = std::cell::OnceCell::new();
            let deps = || -> &Vec<usize> {
                all.get_or_init(|| ones(&cand).filter(|&i| is_dep(i)).collect())
            };
            // Walk back from i to the latest earlier event d dependent with the target
            // (restricted to `filter`) and race the target with d, if the target can be
            // moved before d (d happens-before no other predecessor of it).
            // A step the target conflicts with only through the channels of a select
            // it takes off them (`Access::Withdraw`): no dependence of the target moved,
            // as a taker never reversed with that select's wait, before the wait,
            // where it touches none of them.
            let off = |k: Access| matches!(k, Access::Withdraw | Access::Leave);
            let withdraws = tgt.accesses.iter().any(|a| off(a.1));
            let own: Accesses = if withdraws {
                tgt.accesses.iter().filter(|a| !off(a.1)).copied().collect()
            } else {
                tgt.accesses.clone()
            };
            let withdrawn_only =
                |k: usize| withdraws && evs[k].tid != q && !conflict(&evs[k].accesses, &own);
            let walk_back =
                |i: usize,
                 filter: &dyn Fn(&Event) -> bool,
                 taker: bool,
                 out: &mut Vec<(usize, Vec<Event>, Vec<Event>)>| {
                    // The candidates hold every dependent event, and the clock's
                    // advances (which touch everything). Past the target's own step,
                    // what does not happen before that step: a step it commutes with
                    // (a close and a wait it ends) may still conflict with the target.
                    let mut mine: Option<usize> = None;
                    for d in ones_rev_below(&cand, i) {
                        if evs[d].tid == CLOCK {
                            break; // nothing moves across the clock's advance
                        }
                        if !dep_t(d) || !filter(evs[d]) || mine.is_some_and(|m| has(&pred[m], d)) {
                            continue;
                        }
                        if evs[d].tid == q {
                            mine = Some(d);
                            continue;
                        }
                        if !deps().iter().any(|&k| {
                            k != d && k != i && !(taker && withdrawn_only(k)) && has(&pred[k], d)
                        }) {
                            out.push((d, notdep(d), later(d)));
                        }
                        break;
                    }
                };
            // The wait the target took the place of (`Mode::Hand`), before i, where i
            // writes the channel it took at and every dependent step between the wait
            // and the target that happens after the wait is another goroutine's and
            // touches that channel, or a select's other channels only (the target,
            // waiting first, would have come before them all).
            // The channels the target writes where step k waited (`dpor::hand_into`: a
            // wait adds to its channel, the step that takes its place writes it).
            let taken_at = |k: usize| {
                let e = evs[k];
                own.iter().filter(move |a| {
                    a.1 == Access::Write && e.accesses.contains(&(a.0, Access::Add))
                })
            };
            let places: Vec<Obj> = own
                .iter()
                .filter(|a| a.1 == Access::Acquire && a.0 != thread_obj(q))
                .map(|a| a.0)
                .collect();
            // Whether step k is another goroutine's wait whose place the target took.
            let took_wait = |k: usize| {
                evs[k].tid != q
                    && evs[k]
                        .accesses
                        .iter()
                        .any(|a| a.1 == Access::Release && places.contains(&a.0))
            };
            // The joins the target would have made at wait k's channels, waiting first:
            // the lines of the other side, which the wait reads.
            let joins_at = |k: usize| -> Vec<(Obj, Access)> {
                let mut at = Vec::new();
                for a in taken_at(k) {
                    for send in [false, true] {
                        let l = line(a.0, send);
                        if evs[k].accesses.contains(&(l, Access::Read)) {
                            at.push((l, Access::Join));
                        }
                    }
                }
                at
            };
            let wait_taken = |i: usize| -> Option<usize> {
                if places.is_empty() {
                    return None;
                }
                let k = (0..i).rev().find(|&k| took_wait(k))?;
                // And the channel and the join the target would have made there (a
                // select between that found nobody there would have met the target).
                let mut at: Vec<(Obj, Access)> = taken_at(k).map(|a| (a.0, Access::Add)).collect();
                at.extend(joins_at(k));
                let touches_at = |m: usize| conflict(&evs[m].accesses, &at);
                (!at.is_empty()
                    && touches_at(i)
                    && !(k..j).any(|m| evs[m].tid == CLOCK)
                    && !deps().iter().any(|&m| {
                        m != k
                            && has(&pred[m], k)
                            && (evs[m].tid == q || !touches_at(m) && !withdrawn_only(m))
                    }))
                .then_some(k)
            };
            // The wait the target took the place of, after i, where i met the line the
            // target would have joined had it waited first (a select that found nobody
            // of the target's side there): the target, waiting before i, would have
            // been met by it. Nothing else but the wait and what comes after it may
            // order the target after i.
            let wait_after = |i: usize| -> Option<usize> {
                if places.is_empty() || evs[i].tid == q {
                    return None;
                }
                let k = (i + 1..j).find(|&k| took_wait(k))?;
                (conflict(&evs[i].accesses, &joins_at(k))
                    && !(i..j).any(|m| evs[m].tid == CLOCK)
                    && !deps()
                        .iter()
                        .any(|&m| m != i && m != k && has(&pred[m], i) && !has(&pred[m], k)))
                .then_some(k)
            };
            // A goroutine kept at a mutex another holds, at the end: race its lock with
            // the holder's, even where the holder's own later steps (a poll that reads
            // everything) stand between them, or its own attempts. The holder's steps
            // come after its lock, which waits once this goroutine holds the mutex; the
            // attempts are this lock. Without this, the only race left is with the
            // holder's last step, whose reversal cannot run.
            if !real && j == n && blocked_at(n, q) {
                for &(o, k) in tgt.accesses.iter() {
                    if k != Access::Acquire {
                        continue;
                    }
                    let holder = (0..n).rev().find(|&d| {
                        evs[d].tid != q && evs[d].accesses.contains(&(o, Access::Acquire))
                    });
                    if let Some(d) = holder
                        && !deps().iter().any(|&k| {
                            k != d
                                && evs[k].tid != evs[d].tid
                                && evs[k].tid != q
                                && has(&pred[k], d)
                        })
                        && !(d..n).any(|k| evs[k].tid == CLOCK)
                    {
                        inserts.push((d, notdep(d), later(d)));
                    }
                }
            }
            // A parked goroutine's retry: every step it races with came after the
            // step that parked it, and a reversal would need it woken, which only a
            // step that woke it here could do (the steps a reversal keeps are
            // independent of the one it moves past, so they do what they did).
            if !real && j == n && parked(q) {
                continue;
            }
            for &i in &front {
                if evs[i].tid == q || has(u, i) {
                    continue; // same thread, or not a direct race
                }
                if q == CLOCK || evs[i].tid == CLOCK {
                    continue; // never reversible (`CLOCK`)
                }
                // Release (or Add) -> Acquire: not reversible; race with the Acquire it
                // ended.
                let released: Vec<Obj> = tgt
                    .accesses
                    .iter()
                    .filter(|(o, k)| {
                        *k == Access::Acquire
                            && evs[i].accesses.iter().any(|(o2, k2)| {
                                o2 == o && matches!(k2, Access::Release | Access::Add)
                            })
                    })
                    .map(|(o, _)| *o)
                    .collect();
                if !released.is_empty() {
                    // Or with a step that the target conflicts with through another
                    // object: a buffered receive races with what used its channel
                    // before the send of its value (`Mode::Buffered`).
                    let rest: Vec<(Obj, Access)> = own
                        .iter()
                        .filter(|(o, _)| !released.contains(o))
                        .copied()
                        .collect();
                    let acq_of = |a: &[(Obj, Access)]| {
                        a.iter()
                            .any(|(o, k)| *k == Access::Acquire && released.contains(o))
                            || conflict(a, &rest)
                    };
                    let acq = |e: &Event| acq_of(&e.accesses);
                    walk_back(i, &acq, true, &mut inserts);
                    // A select that took the place of a plain operation waiting at one
                    // of its channels (it writes one that i writes, and others): had
                    // it come first it would have waited there, seen at its other
                    // channels by the steps between. Where another goroutine's step
                    // between touches one, it races with i as a plain step does.
                    // (Not where i started q: the select cannot come before that.)
                    // The cheap tests first: a lock, a buffered receive or a goroutine's
                    // first step fails them, and this runs for every such target.
                    let by_i = |o: Obj, k: Option<Access>| {
                        evs[i]
                            .accesses
                            .iter()
                            .any(|b| b.0 == o && k.is_none_or(|k| b.1 == k))
                    };
                    // i waited where the target takes.
                    let took_a_wait = taken_at(i).next().is_some();
                    if took_a_wait && !released.contains(&thread_obj(q)) {
                        // What it would have declared there had it waited: its
                        // other channels' accesses (a write where a case is at a
                        // buffered channel), and a join of its own side's line (the
                        // other side's it reads). Joins of that line conflict here:
                        // one between would have stood behind it.
                        let mut others: Vec<(Obj, Access)> = own
                            .iter()
                            .filter(|a| matches!(a.1, Access::Add | Access::Read | Access::Write))
                            .filter(|a| !by_i(a.0, None))
                            .copied()
                            .collect();
                        let own_side: Vec<(Obj, Access)> = others
                            .iter()
                            .filter(|a| a.1 == Access::Add)
                            .flat_map(|a| [(a.0, false), (a.0, true)])
                            .filter(|&(x, send)| others.contains(&(line(x, !send), Access::Read)))
                            .map(|(x, send)| (line(x, send), Access::Join))
                            .collect();
                        others.extend(own_side);
                        // Not across the clock's advance, before which the target,
                        // blocked then, cannot come.
                        if !others.is_empty()
                            && !(i + 1..j).any(|k| evs[k].tid == CLOCK)
                            && (i + 1..j).any(|k| {
                                evs[k].tid != q && conflict_strict(&evs[k].accesses, &others)
                            })
                        {
                            inserts.push((i, notdep(i), later(i)));
                        }
                    }
                    // In a unit, a goroutine asleep since the unit's root whose step the
                    // walk back would have met, had it run before i: the branch where it
                    // ran first is a sibling above the units, whose reversal at that step
                    // was dropped (`split`), and here it never runs before i. Reverse the
                    // two halves directly, as if they were plain writes.
                    if unit_root.is_some_and(|at| i >= at)
                        && stack[i]
                            .sleep
                            .iter()
                            .any(|s| s.0 != q && unit_sleep.contains(s) && acq_of(&s.1))
                    {
                        inserts.push((i, notdep(i), later(i)));
                    }
                    continue;
                }
                match enabler {
                    Some((en, spawnlike)) if en == i => {
                        if spawnlike {
                            continue; // q did not exist before i: causal, not a race
                        }
                        // i unblocked q (generic blocking): race with what q waited on.
                        walk_back(i, &|_| true, false, &mut inserts);
                        // Kept back (not parked) at several objects (a select kept
                        // back at buffered and done channels, its attempt a write of
                        // each: `State::select_hand`), q
                        // goes on once any of them lets it: where a step that does not
                        // happen after i touches one that i does not, that step could
                        // have let q go before i, so i races with q as any dependent
                        // step.
                        let others: Vec<Obj> = stack[i]
                            .blocked
                            .iter()
                            .filter(|x| x.tid == q && !x.parked)
                            .flat_map(|x| x.accesses.iter())
                            .filter(|a| a.1 == Access::Write)
                            .map(|a| a.0)
                            .collect();
                        let v = notdep(i);
                        let other = |o: &Obj| !evs[i].accesses.iter().any(|a| a.0 == *o);
                        if others.len() >= 2
                            && v[..v.len() - 1].iter().any(|e| {
                                e.accesses
                                    .iter()
                                    .any(|a| others.contains(&a.0) && other(&a.0))
                            })
                        {
                            inserts.push((i, v, later(i)));
                        }
                        // The step d that disabled q: q could go at d, was kept back
                        // after it until i let it go. The kept target (q's attempt
                        // right after d) reverses the two with nothing between; where
                        // a step between that does not happen after d conflicts with
                        // q (at a select's other channel), its order against q is
                        // another trace: d races with q's step as a plain step does.
                        let mut b = i;
                        while b > 0 && blocked_at(b - 1, q) {
                            b -= 1;
                        }
                        if b > 0 && evs[b - 1].tid != q && enabled_at(b - 1, q) {
                            let d = b - 1;
                            let kept = kept_objs(b, q);
                            let v = notdep(d);
                            if kept.len() >= 2
                                && dep_t(d)
                                && v[..v.len() - 1].iter().any(|e| touches(e, &kept))
                            {
                                inserts.push((d, v, later(d)));
                            }
                        }
                    }
                    // A quiet late select and its close: one behaviour either way
                    // round (`late.rs`), raced instead with what would have met it.
                    _ if real && lates.iter().any(|l| l.x == j && l.c == i) => {}
                    _ => {
                        let mut v = notdep(i);
                        if stopped && i + 1 == n && !real {
                            // Reversing the stop itself: the stop still comes after the
                            // pending step.
                            v.push(evs[i].clone());
                        }
                        inserts.push((i, v, later(i)));
                        // A taker that took a wait (`Mode::Hand`), and a step i between
                        // them that writes the channel it took at (a try, a select that
                        // saw it, a close): i is ordered after the wait, so it is no
                        // direct race of it, and reversed with i the taker takes the
                        // wait again. Had the taker come before the wait it would
                        // have waited there, and i would have met it: race it with
                        // the wait too, where nothing else orders it after the wait.
                        if real && let Some(k) = wait_taken(i) {
                            inserts.push((k, notdep(k), later(k)));
                        }
                        // A taker whose wait came after i, where i would have met it
                        // had it waited first: the target waits before i, the wait
                        // and what happens after it later.
                        if real && let Some(k) = wait_after(i) {
                            let mut w: Vec<Event> = (i + 1..j)
                                .filter(|&m| m != k && !has(&pred[m], i) && !has(&pred[m], k))
                                .map(|m| evs[m].clone())
                                .collect();
                            w.push(tgt.clone());
                            inserts.push((i, w, later(i)));
                        }
                        // A select's wait whose place a later step took, raced with
                        // a step i at one of its buffered channels (a half writes
                        // only those: `dpor::hand_into`): the two halves
                        // are one behaviour with the taker waiting first and the
                        // select taking its place, and the execution holds only the
                        // first. Moved before i, the select may find that case ready
                        // (i had emptied or filled the buffer), and then whether the
                        // taker waits already is another choice: race i with that
                        // order too (the taker's wait, then the select).
                        let at_buffer = || {
                            evs[i].accesses.iter().any(|&(o, _)| {
                                tgt.accesses.contains(&(o, Access::Write))
                                    || tgt.accesses.contains(&(o, Access::Buffer))
                            })
                        };
                        if real
                            && at_buffer()
                            && let Some(k) = taken_later(j)
                        {
                            let y = evs[k].tid;
                            // The taker must be able to come before i (not i's own
                            // goroutine: the sequence would be the execution's own
                            // order, inserted again after each run), and nothing
                            // moves across the clock's advance. Nor a send that took
                            // the wait at a buffer: before i it does not wait but
                            // fills the buffer or is kept back at it (its other order
                            // is `late::Put`'s).
                            let at_a_buffer = evs[k].accesses.iter().any(|a| a.1 == Access::Buffer);
                            if y != evs[i].tid
                                && !at_a_buffer
                                && !(i + 1..k).any(|m| {
                                    evs[m].tid == CLOCK || (evs[m].tid == y && has(&pred[m], i))
                                })
                            {
                                // Only what the taker's own steps and the select came
                                // after: the rest may come later (another wait in the
                                // taker's line would be its partner instead).
                                let past = (i + 1..k).rev().find(|&m| evs[m].tid == y);
                                let mut w: Vec<Event> = (i + 1..k)
                                    .filter(|&m| {
                                        !has(&pred[m], i)
                                            && (has(&pred[j], m)
                                                || past.is_some_and(|p| m == p || has(&pred[p], m)))
                                    })
                                    .map(|m| evs[m].clone())
                                    .collect();
                                w.push(evs[k].clone());
                                w.push(tgt.clone());
                                inserts.push((i, w, free(i, k + 1..n)));
                            }
                        }
                    }
                }
            }
            // A send that took a select's wait at a buffered channel and went on,
            // and a later step (or one pending at the end) that could have come
            // before the select had the send come first (`Put::goes_on`): found from
            // that step.
            for p in puts
                .iter()
                .filter(|p| p.j < j && p.goes_on(&evs, j, tgt, real))
            {
                let mut v = free(p.i, p.i + 1..p.j);
                v.push(evs[p.j].clone());
                observed.push((p.i, v));
            }
            if real {
                // A quiet late select, waiting before its close, and a step after the
                // close that would have met it there: found from the later of the two.
                for l in &lates {
                    if l.x < j {
                        observed.extend(l.pair(&evs, &sigs, pred, j));
                    } else if l.x == j {
                        for y in l.c + 1..j {
                            observed.extend(l.pair(&evs, &sigs, pred, y));
                        }
                    }
                }
                found[j].clear();
                found[j].extend(inserts[start..].iter().map(|x| x.0));
            }
        }
        self.found = found;
        // The last event is not reused as it stands: a stopped execution's counts its
        // stop, and what a step also touched (`amend`) is added at the next scheduling
        // point, which the last one may not reach.
        self.hb_ok = n.saturating_sub(1);
        self.clean = n.saturating_sub(1);
        self.index = index;
        self.stats.races += inserts.len() as u64;
        // An execution that ended with every awake goroutine asleep is no more maximal
        // than one a violation cut short: its sequences get the same sleep check.
        let cut = stopped || self.sleep_blocked;
        self.stats.races += observed.len() as u64;
        for (lvl, v) in observed {
            self.record(lvl, v, Cover::Cut);
        }
        for (lvl, v, later) in inserts {
            let cover = if cut {
                Cover::Cut
            } else {
                let mut w = v.clone();
                let last = w.pop();
                w.extend(later);
                w.extend(last);
                Cover::Whole(w)
            };
            self.record(lvl, v, cover);
        }
    }

    /// A wakeup insertion at level `li`, with what a sleeping goroutine must do to
    /// cover it (`insert`): one at this subtree's root level or above is also its giver's
    /// to make.
    pub(super) fn record(&mut self, li: usize, v: Vec<Event>, cover: Cover) {
        if let Some(r) = self.root
            && li <= r
        {
            // An insertion equal to the last one recorded at its level is a no-op
            // where the giver replays them (nothing else changes that level between
            // the two); a subtree meets the same race above its root in each of its
            // executions, so kept, the list would grow with them.
            if self.last_op.len() <= li {
                self.last_op.resize(li + 1, None);
            }
            let again =
                self.last_op[li].is_some_and(|i| self.ops[i].1 == v && self.ops[i].2 == cover);
            if !again {
                self.last_op[li] = Some(self.ops.len());
                self.ops.push((li, v.clone(), cover.clone()));
            }
            if li < r {
                return;
            }
        }
        if self.insert(li, v, cover) {
            self.stats.insertions += 1;
            // A branch given away here may no longer be the one this level takes next.
            if let Some(g) = self.given.get(li).and_then(Option::as_ref) {
                let mut next = self.stack[li].clone();
                advance(&mut next);
                if (&next.sleep, &next.cur, &next.carry)
                    != (&g.snap.sleep, &g.snap.cur, &g.snap.carry)
                {
                    let id = g.id;
                    self.stats.redone += 1;
                    self.given[li] = None;
                    self.cancel(id);
                }
            }
        }
    }

    /// Whether the execution's trace is its unit's: no goroutine asleep where the unit
    /// starts could go first in the rest of it. Else an earlier branch above the units
    /// has it, and its unit reaches it too.
    pub(super) fn owned(&self) -> bool {
        let Some((_, at)) = self.unit else {
            return true;
        };
        if self.unit_sleep.is_empty() || at >= self.pos {
            return true;
        }
        let rest: Vec<Event> = (at..self.pos)
            .map(|k| self.stack[k].ev.clone().expect("executed"))
            .collect();
        !self.unit_sleep.iter().any(|e| sleep_covers(e, &rest))
    }

    /// insert_[pre](v) into the wakeup tree of level `li`, unless a sleeping thread
    /// covers it: one that goes first in v (every branch v leads to begins with its
    /// step, explored from here), or, where v comes from a whole execution and the
    /// thread is not asleep since the unit's start, a weak initial of optimal DPOR's
    /// whole sequence (`Cover::Whole`). A weak initial that is not in v covers v only
    /// if it stays independent of what would follow v, which a cut execution does not
    /// show: the steps it never ran may conflict with it. The whole sequence may put a
    /// later step before v's last that conflicts with a thread going first in v (a join
    /// of the line it joins): checked against it alone, two such siblings inserted each
    /// other for ever.
    /// Returns whether the tree changed.
    pub(super) fn insert(&mut self, li: usize, v: Vec<Event>, cover: Cover) -> bool {
        let unit_sleep = &self.unit_sleep;
        let lvl = &mut self.stack[li];
        if lvl.expanded {
            return false;
        }
        let covered = |e: &SleepEntry| {
            goes_first(e, &v)
                || matches!(&cover, Cover::Whole(w) if !unit_sleep.contains(e) && sleep_covers(e, w))
        };
        if lvl.sleep.iter().any(covered) {
            return false;
        }
        let active = lvl.active_tid();
        insert_list(&mut lvl.pending, v, active)
    }
}
