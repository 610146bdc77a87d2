//! Exhaustive exploration with loom.
//!
//! loom has no "stop" call, so the runner stops it by unwinding out of the main thread
//! at a point where no other thread exists any more: before the first spawn (budget
//! spent) or after every thread has been joined (violation found). Nothing is ever
//! blocked when that unwind happens, so loom never aborts the process.

use super::{Body, Budget, Explored, Stop, panic_text};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

struct Halt(Stop);

pub(crate) fn explore(
    preemption_bound: Option<usize>,
    max_branches: usize,
    budget: &Budget,
    body: Body,
) -> Result<Explored, String> {
    let count = Arc::new(AtomicU64::new(0));
    let mut builder = loom::model::Builder::new();
    builder.max_threads = super::LOOM_MAX_THREADS;
    builder.preemption_bound = preemption_bound;
    builder.max_branches = max_branches;
    builder.max_permutations = None;
    builder.max_duration = None;
    builder.checkpoint_file = None;
    let (c, b) = (count.clone(), budget.clone());
    let run = catch_unwind(AssertUnwindSafe(|| {
        builder.check(move || {
            let i = c.fetch_add(1, SeqCst) + 1;
            if i > b.max_executions {
                resume_unwind(Box::new(Halt(Stop::Iterations)));
            }
            if std::time::Instant::now() >= b.deadline {
                resume_unwind(Box::new(Halt(Stop::Time)));
            }
            if body(i) {
                resume_unwind(Box::new(Halt(Stop::Found)));
            }
        })
    }));
    let executions = count.load(SeqCst);
    match run {
        Ok(()) => Ok(Explored::new(executions, Stop::Exhausted)),
        Err(p) => match p.downcast::<Halt>() {
            Ok(h) => {
                let executions = if h.0 == Stop::Found {
                    executions
                } else {
                    executions - 1
                };
                Ok(Explored::new(executions, h.0))
            }
            Err(p) => Err(format!("loom stopped: {}", panic_text(&*p))),
        },
    }
}

/// Which objects share one loom point.
///
/// A select touches the point of every channel it names, and each touch is a loom
/// scheduling point. Channels that a select names together get one point instead: one
/// scheduling point per select, at the cost of ordering their other operations against
/// each other too (measured: the status-manager proof at the deadlock's parameters went
/// from over 8 million executions, unfinished, to 552,195, before select choices).
///
/// It is also what makes loom sound here: an operation must be one loom access (see
/// `World::touch`). The groups are the connected components of the operations seen so
/// far; an execution that meets an operation spanning two groups is abandoned, and the
/// exploration starts again with the components joined. Groups only grow, so this ends.
/// An exploration that finishes without meeting one is sound for its groups: up to the
/// first spanning operation, loom sees every access, so DPOR would have reached one.
///
/// A group is a set of names, and every object of one of its names takes its point: two
/// objects of one name (a channel made in a loop, selected with the one made before it)
/// are a group of one name.
pub(crate) fn groups(joints: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    // Union-find over names; each group is listed in name order.
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn root(p: &BTreeMap<String, String>, mut n: String) -> String {
        while let Some(q) = p.get(&n).filter(|q| **q != n) {
            n = q.clone();
        }
        n
    }
    for names in joints {
        for n in names {
            parent.entry(n.clone()).or_insert_with(|| n.clone());
        }
        let r0 = root(&parent, names[0].clone());
        for n in &names[1..] {
            let r = root(&parent, n.clone());
            if r != r0 {
                parent.insert(r, r0.clone());
            }
        }
    }
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for n in parent.keys() {
        groups
            .entry(root(&parent, n.clone()))
            .or_default()
            .push(n.clone());
    }
    groups.into_values().collect()
}

/// Restarts with larger groups, at most: each one joins at least two groups of names
/// the model has, so a model with more names than this is refused rather than run on.
pub(crate) const MAX_RESTARTS: usize = 64;
