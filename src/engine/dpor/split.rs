//! One `dpor` exploration on several threads, or in parts on several machines.
//!
//! The tree is cut into units (`Explorer::split`): the subtrees at the `split`-th
//! decision point of each path, and the executions that end above one. Units are
//! numbered in the order of the tree's depth-first walk, and what a unit explores does
//! not depend on who explores it. Every thread walks the levels above the units itself
//! and takes the next unit no thread has taken; part `k` of `n` takes only the units
//! a mix of whose number is `k` modulo `n` (`part_of`). So the count and the verdict
//! are the same for any number of threads, and so is the finding: the first in the
//! walk's order, numbered by the executions of the units before it. A thread with
//! nothing else to do may join an exploration under way (`help`) on the same terms.

use super::explorer::{Claim, Explorer, Stats, Units};
use crate::engine::{Body, Budget, Explored, Part, Stop};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};

#[derive(Default)]
struct Shared {
    /// Units of this part taken so far, by any thread.
    taken: AtomicU64,
    /// The first unit with a violation (`u64::MAX`: none yet).
    best: AtomicU64,
    /// Per unit, the executions run in it.
    runs: Mutex<BTreeMap<u64, u64>>,
    /// Per unit, its first violation: its number in the unit and the body's number.
    found: Mutex<BTreeMap<u64, (u64, u64)>>,
    /// Body numbers, unique across threads.
    bodies: AtomicU64,
    /// Counted executions cut at the step bound.
    cuts: AtomicU64,
    /// Executions started, for the budget.
    started: Arc<AtomicU64>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A thread's share: the next unit of its part that nobody took.
struct Taker {
    shared: Arc<Shared>,
    part: Part,
    /// Units of this part met so far, in the walk's order.
    met: u64,
}

/// The part of `n` unit `unit` belongs to: by a mix of its number, not the number
/// modulo `n`, for a tree's large units often come at a fixed stride in the walk's
/// order (the first branch below each branch above the cut), and a stride that is a
/// multiple of `n` would put them all in one part.
fn part_of(unit: u64, n: u64) -> u64 {
    super::mix(unit) % n
}

impl Units for Taker {
    fn claim(&mut self, unit: u64) -> Claim {
        if unit > self.shared.best.load(SeqCst) {
            return Claim::Past;
        }
        let (k, n) = (u64::from(self.part.k), u64::from(self.part.n));
        if part_of(unit, n) != k {
            return Claim::Other;
        }
        // Every thread meets the units in one order, so the part's units before this
        // one are taken: it is ours if the count is still at it.
        let j = self.met;
        self.met += 1;
        match self.shared.taken.compare_exchange(j, j + 1, SeqCst, SeqCst) {
            Ok(_) => Claim::Mine,
            Err(_) => Claim::Other,
        }
    }

    fn wanted(&self, unit: u64) -> bool {
        unit <= self.shared.best.load(SeqCst)
    }
}

/// What one thread's walk explored, and its explorer's figures.
type Walked = Result<(Explored, Stats), String>;

/// An exploration that other threads may join.
struct Open {
    id: u64,
    shared: Arc<Shared>,
    part: Part,
    split: u32,
    budget: Budget,
    body: Body,
    /// The joined threads' results, and how many are still at work.
    helped: Mutex<(Vec<Walked>, usize)>,
    done: Condvar,
}

static OPEN: Mutex<Vec<Arc<Open>>> = Mutex::new(Vec::new());
static IDS: AtomicU64 = AtomicU64::new(0);

/// Joins an exploration under way that this thread has not joined yet (`joined`
/// keeps the ones it has), as one more thread; false if there is none.
pub(crate) fn help(joined: &mut Vec<u64>) -> bool {
    let open = {
        let list = lock(&OPEN);
        let Some(o) = list.iter().find(|o| !joined.contains(&o.id)).cloned() else {
            return false;
        };
        lock(&o.helped).1 += 1;
        o
    };
    joined.push(open.id);
    let r = worker(
        &open.shared,
        open.part,
        open.split,
        &open.budget,
        open.body.clone(),
    );
    let mut h = lock(&open.helped);
    h.0.push(r);
    h.1 -= 1;
    open.done.notify_all();
    true
}

/// Explores part `part` of the model's tree (the whole of it: part 0 of 1) on `jobs`
/// threads.
pub(crate) fn explore(
    jobs: usize,
    part: Part,
    split: u32,
    budget: &Budget,
    body: Body,
) -> Result<Explored, String> {
    let shared = Arc::new(Shared {
        best: AtomicU64::new(u64::MAX),
        ..Shared::default()
    });
    let open = Arc::new(Open {
        id: IDS.fetch_add(1, SeqCst),
        shared: shared.clone(),
        part,
        split,
        budget: budget.clone(),
        body: body.clone(),
        helped: Mutex::new((Vec::new(), 0)),
        done: Condvar::new(),
    });
    lock(&OPEN).push(open.clone());
    let work = |_: usize| worker(&shared, part, split, budget, body.clone());
    let mut results: Vec<Walked> = if jobs <= 1 {
        vec![work(0)]
    } else {
        let watched = crate::engine::watch_current();
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..jobs)
                .map(|j| {
                    let work = &work;
                    std::thread::Builder::new()
                        .name(format!("dpor-{j}"))
                        .spawn_scoped(s, move || {
                            crate::engine::watch_enter(watched);
                            work(j)
                        })
                        .expect("a thread for dpor")
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a dpor thread panicked".into()))
                })
                .collect()
        })
    };
    // No one joins from here on; wait for those who did.
    lock(&OPEN).retain(|o| o.id != open.id);
    let mut h = lock(&open.helped);
    while h.1 > 0 {
        h = open.done.wait(h).unwrap_or_else(|p| p.into_inner());
    }
    results.append(&mut h.0);
    drop(h);
    let mut stops = Vec::new();
    let (mut units, mut traces) = (0, 0);
    for r in results {
        let (e, stats) = r?;
        stops.push(e.stop);
        units = units.max(stats.units);
        traces += stats.complete;
    }
    let runs = lock(&shared.runs);
    let best = shared.best.load(SeqCst);
    let mut explored = Explored::new(runs.values().sum(), Stop::Exhausted);
    explored.cut = shared.cuts.load(SeqCst);
    if let Some(&(at, body_no)) = lock(&shared.found).get(&best) {
        explored.executions = runs.range(..best).map(|(_, n)| n).sum::<u64>() + at;
        explored.stop = Stop::Found;
        explored.finding = Some(body_no);
    } else if let Some(s) = [Stop::Time, Stop::Iterations]
        .into_iter()
        .find(|s| stops.contains(s))
    {
        explored.stop = s;
    } else {
        explored.traces = Some(traces);
    }
    if part.n > 1 {
        let own = shared.taken.load(SeqCst);
        explored.part = Some(Part { units, own, ..part });
    }
    Ok(explored)
}

/// One thread's walk: the units it takes, explored.
fn worker(shared: &Arc<Shared>, part: Part, split: u32, budget: &Budget, body: Body) -> Walked {
    let _on = super::On::new();
    let taker = Taker {
        shared: shared.clone(),
        part,
        met: 0,
    };
    let explorer = Explorer::split(split, Some(Box::new(taker)));
    let sh = shared.clone();
    let counted: Body = Arc::new(move |_| {
        let i = sh.bodies.fetch_add(1, SeqCst) + 1;
        let found = body(i);
        let cut = crate::engine::take_cut_run();
        // A unit left to another thread is run up to its start only; one that ended
        // above every unit is run whole, and its finding is its taker's to report.
        let Some((unit, at)) = super::settle() else {
            return false;
        };
        if cut {
            sh.cuts.fetch_add(1, SeqCst);
        }
        let mut runs = lock(&sh.runs);
        let n = runs.entry(unit).or_insert(0);
        *n = (*n).max(at);
        drop(runs);
        if found {
            lock(&sh.found).entry(unit).or_insert((at, i));
            sh.best.fetch_min(unit, SeqCst);
        }
        found
    });
    let (explored, explorer) = super::tasks::run(
        super::Dpor::new(explorer),
        budget,
        counted,
        Some(shared.started.clone()),
    );
    Ok((explored?, explorer.stats))
}
