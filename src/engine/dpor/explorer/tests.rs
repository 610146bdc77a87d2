//! The explorer against brute force: generated programs of reads, writes, locks and
//! choices, each explored by DPOR and by every interleaving.

use super::*;
use std::collections::BTreeSet;

/// An operation of a generated program: a read or a write of an object, a lock or
/// an unlock of a mutex (a lock waits while the mutex is held).
#[derive(Clone, Copy, Debug)]
enum Op {
    Read(Obj),
    Write(Obj),
    Lock(Obj),
    Unlock(Obj),
    /// A write that also chooses between two values: on 1 the thread skips its
    /// next operation.
    Pick(Obj),
}

impl Op {
    fn access(self) -> (Obj, Access) {
        match self {
            Op::Read(o) => (o, Access::Read),
            Op::Write(o) | Op::Pick(o) => (o, Access::Write),
            Op::Lock(m) => (m, Access::Acquire),
            Op::Unlock(m) => (m, Access::Release),
        }
    }
}

/// A program's state: each thread's next operation, and who holds each mutex.
#[derive(Clone)]
struct Run<'a> {
    threads: &'a [Vec<Op>],
    pc: Vec<usize>,
    held: Vec<(Obj, usize)>,
    /// Objects written so far (a pick chooses only at one of them, `one`).
    written: Vec<Obj>,
}

impl<'a> Run<'a> {
    fn new(threads: &'a [Vec<Op>]) -> Self {
        Run {
            threads,
            pc: vec![0; threads.len()],
            held: Vec::new(),
            written: Vec::new(),
        }
    }
    /// Enabled and blocked threads' next steps.
    fn next(&self) -> (Vec<Next>, Vec<Next>) {
        let (mut enabled, mut blocked) = (Vec::new(), Vec::new());
        for (t, ops) in self.threads.iter().enumerate() {
            let Some(&op) = ops.get(self.pc[t]) else {
                continue;
            };
            let n = Next::new(t as Tid, Accesses::from_slice(&[op.access()]));
            match op {
                Op::Lock(m) if self.held.iter().any(|h| h.0 == m) => blocked.push(n),
                _ => enabled.push(n),
            }
        }
        (enabled, blocked)
    }
    fn step(&mut self, t: usize) -> (Tid, Obj, Access) {
        let op = self.threads[t][self.pc[t]];
        self.pc[t] += 1;
        match op {
            Op::Lock(m) => self.held.push((m, t)),
            Op::Unlock(m) => self.held.retain(|h| h.0 != m),
            Op::Write(o) | Op::Pick(o) => self.written.push(o),
            _ => {}
        }
        let (o, a) = op.access();
        (t as Tid, o, a)
    }
}

/// An execution's Mazurkiewicz trace, as its lexicographically least linearisation
/// (by thread) under the explorer's own dependence: two steps of one thread, or two
/// that conflict, keep their order.
fn canonical(exec: &[(Tid, Obj, Access)]) -> Vec<Tid> {
    let dep = |a: &(Tid, Obj, Access), b: &(Tid, Obj, Access)| {
        a.0 == b.0 || conflict(&[(a.1, a.2)], &[(b.1, b.2)])
    };
    let mut left: Vec<usize> = (0..exec.len()).collect();
    let mut out = Vec::new();
    while !left.is_empty() {
        // The ready steps: no earlier step left that they depend on.
        let k = (0..left.len())
            .filter(|&k| (0..k).all(|j| !dep(&exec[left[j]], &exec[left[k]])))
            .min_by_key(|&k| exec[left[k]].0)
            .expect("a ready step");
        out.push(exec[left[k]].0);
        left.remove(k);
    }
    out
}

/// Every trace of a program, by brute force: every interleaving, canonicalised.
fn all_traces(run: Run, exec: &mut Vec<(Tid, Obj, Access)>, out: &mut BTreeSet<Vec<Tid>>) {
    let (enabled, _) = run.next();
    if enabled.is_empty() {
        out.insert(canonical(exec));
        return;
    }
    for n in enabled {
        let mut r = run.clone();
        exec.push(r.step(n.tid as usize));
        all_traces(r, exec, out);
        exec.pop();
    }
}

/// The traces explorer `x` reaches on a program (each counted once, or it
/// panics), how many executions counted, and how many ran.
fn drive(mut x: Explorer, threads: &[Vec<Op>]) -> (BTreeSet<Vec<Tid>>, u64, u64) {
    let (mut seen, mut counted) = (BTreeSet::new(), 0);
    while x.begin() {
        let mut run = Run::new(threads);
        let mut exec = Vec::new();
        loop {
            let (enabled, blocked) = run.next();
            if enabled.is_empty() {
                if x.end(Vec::new(), blocked) {
                    assert!(seen.insert(canonical(&exec)), "counted twice: {threads:?}");
                    counted += 1;
                }
                break;
            }
            let Some(t) = x.schedule(enabled, blocked) else {
                x.end_here();
                break;
            };
            exec.push(run.step(t as usize));
        }
    }
    (seen, counted, x.stats.executions)
}

/// `STALEMATE_OPT_CASES` programs (300 by default), each with its traces by brute
/// force.
fn generated(seed: u64) -> impl Iterator<Item = (Vec<Vec<Op>>, BTreeSet<Vec<Tid>>)> {
    let cases = std::env::var("STALEMATE_OPT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let mut rng = seed;
    (0..cases).map(move |_| {
        let threads = program(&mut rng);
        let mut all = BTreeSet::new();
        all_traces(Run::new(&threads), &mut Vec::new(), &mut all);
        (threads, all)
    })
}

/// `analyze`'s shortcuts against the definitions they stand for, on random
/// executions of up to 150 events (three words of bits): the candidates hold every
/// dependent event before the step, `last` is the goroutine's latest event before
/// it, and the bit walks (`ones_rev_below`, `latest_first`) visit what they should,
/// in order.
#[test]
fn the_index_finds_every_dependent_event() {
    let mut rng = 0x5eed_u64;
    let mut next = |n: u64| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) % n
    };
    let kinds = [Access::Read, Access::Write, Access::Add, Access::Acquire];
    let mut index = Index::default();
    for round in 0..200 {
        let n = 1 + next(150) as usize;
        let objs = 1 + next(90);
        let evs: Vec<Event> = (0..n)
            .map(|_| {
                let k = 1 + next(3);
                let accesses = (0..k)
                    .map(|_| {
                        let o = if next(40) == 0 {
                            ANY
                        } else {
                            next(objs) * 7919
                        };
                        (o, kinds[next(4) as usize])
                    })
                    .collect();
                Event {
                    tid: next(6),
                    accesses,
                    choices: vec![],
                    complete: true,
                }
            })
            .collect();
        let refs: Vec<&Event> = evs.iter().collect();
        let sigs: Vec<u64> = evs.iter().map(|e| signature(&e.accesses)).collect();
        let words = n.div_ceil(64);
        // Filled over the last round's room, as `analyze` does.
        index.fill(&refs, &sigs, words);
        let mut cand = vec![0u64; words];
        for j in 0..=n {
            let tgt = &evs[j.min(n - 1)];
            let st = sigs[j.min(n - 1)];
            index.candidates(st, tgt.tid, j, &mut cand);
            let set: Vec<usize> = ones(&cand).collect();
            assert!(
                set.iter().all(|&i| i < j),
                "round {round}: a candidate at or after {j}"
            );
            for i in 0..j {
                let dep = evs[i].tid == tgt.tid || conflict(&evs[i].accesses, &tgt.accesses);
                assert_eq!(
                    dependent_sig(&evs[i], sigs[i], tgt, st),
                    dep,
                    "round {round}: the signature changed a dependence"
                );
                assert!(
                    !dep || set.contains(&i),
                    "round {round}: {i} missed before {j}"
                );
            }
            let last = (0..j).rev().find(|&i| evs[i].tid == tgt.tid);
            assert_eq!(
                index.last(tgt.tid, j),
                last,
                "round {round}: last before {j}"
            );
            let below: Vec<usize> = ones_rev_below(&cand, j).collect();
            let mut want = set.clone();
            want.reverse();
            assert_eq!(below, want, "round {round}: the walk down from {j}");
            // Latest first: all of them while nothing is closed; only the first when
            // it closes everything below it.
            let mut seen = vec![0u64; words];
            let mut met = Vec::new();
            latest_first(&cand, &mut seen, |i, _| met.push(i));
            assert_eq!(met, want, "round {round}: latest first from {j}");
            met.clear();
            latest_first(&cand, &mut seen, |i, seen| {
                met.push(i);
                all_before(i, seen);
            });
            assert_eq!(met, want.first().copied().into_iter().collect::<Vec<_>>());
            let mut all = vec![0u64; words];
            all_before(j, &mut all);
            assert_eq!(ones(&all).collect::<Vec<_>>(), (0..j).collect::<Vec<_>>());
        }
    }
}

/// A generated program: 2 to 4 threads of 1 to 3 operations over two objects and a
/// mutex (a lock, a write and the unlock, in one thread, are three), at most 10 in
/// all.
fn program(rng: &mut u64) -> Vec<Vec<Op>> {
    let mut next = |n: u64| {
        *rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*rng >> 33) % n
    };
    let threads = 2 + next(3) as usize;
    let mut total = 0;
    (0..threads)
        .map(|_| {
            let mut ops = Vec::new();
            let want = 1 + next(3) as usize;
            while ops.len() < want && total < 10 {
                match next(5) {
                    0 | 1 => ops.push(Op::Read(1 + next(2))),
                    2 | 3 => ops.push(Op::Write(1 + next(2))),
                    _ if ops.len() + 3 <= 3 => {
                        ops.push(Op::Lock(9));
                        ops.push(Op::Write(1 + next(2)));
                        ops.push(Op::Unlock(9));
                    }
                    _ => ops.push(Op::Write(1 + next(2))),
                }
            }
            total += ops.len();
            ops
        })
        .collect()
}

/// Optimality, measured: on generated programs of reads, writes and locks, the
/// explorer reaches every trace that brute force finds (every interleaving,
/// canonicalised) and runs one execution per trace (at most 2x is allowed;
/// docs/benchmarks.md, "Executions per trace on generated programs", gives the ratio).
/// `STALEMATE_OPT_CASES=N` runs N programs (300 by default).
#[test]
fn one_execution_per_trace_on_generated_programs() {
    let (mut cases, mut traces, mut executions) = (0, 0, 0);
    for (threads, all) in generated(20261125) {
        cases += 1;
        let (seen, _, n) = drive(Explorer::new(), &threads);
        assert_eq!(seen, all, "{threads:?}");
        assert!(
            n <= 2 * all.len() as u64,
            "{n} for {} traces: {threads:?}",
            all.len()
        );
        traces += all.len() as u64;
        executions += n;
    }
    eprintln!("optimality: {cases} programs, {traces} traces, {executions} executions");
    assert_eq!(
        executions, traces,
        "{executions} executions for {traces} traces"
    );
}

/// A cut tree's units together reach every trace, each counted by one unit only,
/// although a unit keeps the goroutines asleep where it starts asleep (so it does
/// not explore the traces they begin, which are an earlier unit's).
/// `STALEMATE_OPT_CASES=N` runs N programs (300 by default).
#[test]
fn units_count_every_trace_once_on_generated_programs() {
    let (mut cases, mut traces, mut executions) = (0, 0, 0);
    for (threads, all) in generated(20261127) {
        cases += 1;
        for depth in 1..=4 {
            let (seen, counted, n) = drive(Explorer::split(depth, None), &threads);
            let lost = all.difference(&seen).count();
            assert_eq!(lost, 0, "cut at {depth} lost traces: {threads:?}");
            assert!(seen.is_subset(&all));
            assert_eq!(counted, all.len() as u64);
            traces += all.len() as u64;
            executions += n;
        }
    }
    eprintln!("units: {cases} programs x 4 cuts, {traces} traces, {executions} executions");
}

/// Two threads each `Done` a counter that is at 1: whichever goes second takes it
/// below zero (a fault, which stops the execution). Dones commute while the counter
/// stays at zero or above (`Access::Add`), so after one thread's Done the other's,
/// asleep with the Add it took in the first order, is now another step (a write):
/// it must wake and run, or the second order's fault (the other thread's) is lost.
#[test]
fn a_step_whose_use_changed_wakes_from_sleep() {
    const WG: Obj = 1;
    let mut x = Explorer::new();
    let mut faulted = BTreeSet::new();
    while x.begin() {
        let mut counter = 1;
        let mut left: Vec<Tid> = vec![1, 2];
        loop {
            let how = if counter >= 1 {
                Access::Add
            } else {
                Access::Write
            };
            let enabled: Vec<Next> = left
                .iter()
                .map(|&t| Next::new(t, Accesses::from_slice(&[(WG, how)])))
                .collect();
            if enabled.is_empty() {
                x.end(Vec::new(), Vec::new());
                break;
            }
            let Some(t) = x.schedule(enabled, Vec::new()) else {
                x.end_here();
                break;
            };
            left.retain(|&u| u != t);
            counter -= 1;
            if counter < 0 {
                faulted.insert(t);
                x.stop_after_last();
                break;
            }
        }
    }
    assert_eq!(faulted, BTreeSet::from([1, 2]));
    assert_eq!(x.stats.executions, 2, "{:?}", x.stats);
}

/// A driver on one thread for `given_subtrees_explore_what_one_explorer_does`: it
/// gives subtrees away whenever the rng says so and runs its explorers a few
/// executions at a time, in an order the rng picks.
#[derive(Default)]
struct Desk {
    rng: u64,
    next: u64,
    ready: Vec<(Option<u64>, Explorer)>,
    parked: Vec<(u64, Option<u64>, Explorer)>,
    done: std::collections::BTreeMap<u64, Done>,
    cancelled: BTreeSet<u64>,
}

impl Desk {
    fn roll(&mut self, n: u64) -> u64 {
        self.rng = self
            .rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.rng >> 33) % n
    }
}

struct Hand(std::sync::Arc<std::sync::Mutex<Desk>>, Option<u64>);

impl Helpers for Hand {
    fn hungry(&self) -> bool {
        self.0.lock().unwrap().roll(3) == 0
    }
    fn give(&mut self, unit: Explorer) -> u64 {
        let mut d = self.0.lock().unwrap();
        d.next += 1;
        let id = d.next;
        d.ready.push((Some(id), unit));
        id
    }
    fn take(&mut self, id: u64) -> Option<Done> {
        self.0.lock().unwrap().done.remove(&id)
    }
    fn cancel(&mut self, id: u64) {
        let mut d = self.0.lock().unwrap();
        d.cancelled.insert(id);
        d.done.remove(&id);
    }
    fn wanted(&self) -> bool {
        self.1
            .is_none_or(|id| !self.0.lock().unwrap().cancelled.contains(&id))
    }
}

/// Runs one execution of `threads` under `x`, which has begun it; returns the
/// threads it ran, in order.
fn one(x: &mut Explorer, threads: &[Vec<Op>]) -> Vec<Tid> {
    let mut run = Run::new(threads);
    let mut ran = Vec::new();
    loop {
        let (enabled, blocked) = run.next();
        if enabled.is_empty() {
            x.end(Vec::new(), blocked);
            return ran;
        }
        let Some(t) = x.schedule(enabled, blocked) else {
            x.end_here();
            return ran;
        };
        ran.push(t);
        let t = t as usize;
        // A pick's cases depend on the state, as a select's ready cases do: two
        // where its object was written before, else one (no choice).
        let cases = match threads[t][run.pc[t]] {
            Op::Pick(o) if run.written.contains(&o) => 2,
            _ => 1,
        };
        run.step(t);
        if x.choose(cases) == 1 {
            run.pc[t] = (run.pc[t] + 1).min(threads[t].len());
        }
    }
}

/// The root explorer's figures when subtrees are given away and explored in the
/// rng's order (`Desk`), and where it stopped: the first execution that runs the
/// threads in the order `target` says (a violation, as the driver sees one).
fn explored_given(threads: &[Vec<Op>], seed: u64, target: &[Tid]) -> (Stats, Option<u64>) {
    let desk = std::sync::Arc::new(std::sync::Mutex::new(Desk {
        rng: seed,
        ..Desk::default()
    }));
    desk.lock().unwrap().ready.push((None, Explorer::new()));
    loop {
        let (ticket, mut x) = {
            let mut d = desk.lock().unwrap();
            assert!(!d.ready.is_empty(), "every explorer waits");
            let n = d.ready.len() as u64;
            let k = d.roll(n) as usize;
            d.ready.swap_remove(k)
        };
        x.set_helpers(Some(Box::new(Hand(desk.clone(), ticket))));
        let slice = 1 + desk.lock().unwrap().roll(4);
        let (mut ran, mut begun, mut hit) = (0, false, None);
        while ran < slice {
            begun = x.begin();
            if !begun {
                break;
            }
            if one(&mut x, threads) == target {
                hit = Some(x.stats.executions);
                break;
            }
            ran += 1;
        }
        let mut d = desk.lock().unwrap();
        if hit.is_none() && x.waits().is_none() {
            hit = x
                .halted
                .take()
                .and_then(|h| h.halt)
                .map(|h| x.stats.executions + h.0);
        }
        if let Some(at) = hit {
            match ticket {
                None => return (x.stats, Some(at)),
                Some(id) if !d.cancelled.contains(&id) => {
                    d.done.insert(id, x.stopped(at, 1));
                }
                Some(_) => {}
            }
        } else if begun {
            d.ready.push((ticket, x));
            continue;
        } else if let Some(id) = x.waits() {
            d.parked.push((id, ticket, x));
        } else if let Some(id) = ticket {
            if !d.cancelled.contains(&id) {
                let done = x.done();
                assert_no_repeats(&done);
                d.done.insert(id, done);
            }
        } else {
            return (x.stats, None);
        }
        // Explorers whose subtree has finished (or was cancelled) go on.
        let parked = std::mem::take(&mut d.parked);
        for (id, t, x) in parked {
            if d.done.contains_key(&id) || d.cancelled.contains(&id) {
                d.ready.push((t, x));
            } else {
                d.parked.push((id, t, x));
            }
        }
    }
}

/// A subtree's insertions for its giver hold no insertion equal to the last one
/// at its level (a no-op where the giver replays them; kept, they grew with the
/// subtree's executions).
fn assert_no_repeats(done: &Done) {
    let mut last: std::collections::BTreeMap<usize, &(usize, Vec<Event>, Cover)> =
        Default::default();
    for op in &done.ops {
        assert!(
            last.insert(op.0, op) != Some(op),
            "repeated at level {}",
            op.0
        );
    }
}

/// Subtrees given away to other explorers (`Explorer::give`), explored in any order
/// and taken back where they still hold, make the same exploration as one explorer
/// alone: the same executions and the same complete ones, on every generated
/// program and for several orders; and the same first "violation" (an execution
/// that runs the threads in a given order, picked among the lone explorer's), at
/// the same execution number, which holds only if the executions come in the same
/// order.
#[test]
fn given_subtrees_explore_what_one_explorer_does() {
    let mut rng = 20261201u64;
    let mut sums = (0, 0, 0);
    for case in 0..300 {
        let mut threads = program(&mut rng);
        // Half the programs choose too.
        if case % 2 == 0 {
            for ops in &mut threads {
                if let Some(Op::Write(o)) = ops.first().copied() {
                    ops[0] = Op::Pick(o);
                }
            }
        }
        let mut alone = Explorer::new();
        let mut orders = Vec::new();
        while alone.begin() {
            orders.push(one(&mut alone, &threads));
        }
        for seed in 0..4 {
            let (s, at) = explored_given(&threads, case * 10 + seed, &[Tid::MAX]);
            assert_eq!(at, None);
            assert_eq!(
                (s.executions, s.complete),
                (alone.stats.executions, alone.stats.complete),
                "{threads:?} seed {seed}"
            );
            sums.0 += s.gave;
            sums.1 += s.adopted;
            sums.2 += s.redone;
            for t in 0..2u64 {
                let pick = (case * 7 + seed * 13 + t * 31) as usize % orders.len();
                let target = &orders[pick];
                let first = orders.iter().position(|o| o == target).unwrap() as u64 + 1;
                let (_, at) = explored_given(&threads, case * 100 + seed * 10 + t, target);
                assert_eq!(at, Some(first), "{threads:?} seed {seed} target {target:?}");
            }
        }
    }
    eprintln!(
        "given away {}, taken back {}, in vain {}",
        sums.0, sums.1, sums.2
    );
    assert!(sums.1 > 1000 && sums.2 > 0, "{sums:?}");
}
