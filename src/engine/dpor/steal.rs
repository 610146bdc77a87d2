//! One `dpor` proof on several threads, exploring what one thread explores.
//!
//! A thread with nothing to do makes the explorers at work hungry: at its next
//! execution's start, one gives away the next branch of its highest level that has
//! one (`Explorer::give`), with a copy of its path, as the level will be once its
//! current branch is done. The subtree is explored on the idle thread as a job of its
//! own, which may give away subtrees in turn. When the giver gets to that branch it
//! takes the job's result in if the level is still what it gave (else it explores the
//! branch itself), waiting for it if need be; a job whose result is never taken is
//! told to stop. So the executions counted, the verdict and the finding are one
//! thread's, for any number of threads; only executions run in vain differ.

use super::explorer::{Done, Explorer, Helpers};
use crate::engine::{Body, Budget, Explored, Stop};
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// `Done::halt`'s tags for a spent budget and an engine error (`Done::note` says
/// which); any other tag is a finding's body number.
const TIME: u64 = u64::MAX;
const ITERATIONS: u64 = u64::MAX - 1;
const FAILED: u64 = u64::MAX - 2;

/// An explorer to run, and the subtree it explores (`None`: the whole tree).
struct Job {
    x: Explorer,
    ticket: Option<u64>,
}

enum Ticket {
    Running {
        /// The subtree of the job that gave this one away.
        parent: Option<u64>,
        cancelled: bool,
        /// The giver, waiting for this result.
        waiter: Option<Box<Job>>,
    },
    Finished(Box<Done>),
}

#[derive(Default)]
struct Desk {
    ready: VecDeque<Job>,
    tickets: HashMap<u64, Ticket>,
    result: Option<Result<Explored, String>>,
}

struct Pool {
    id: u64,
    desk: Mutex<Desk>,
    wake: Condvar,
    /// Threads waiting for a job, and jobs waiting for a thread.
    idle: AtomicUsize,
    queued: AtomicUsize,
    over: AtomicBool,
    next: AtomicU64,
    /// Body numbers, unique across threads.
    bodies: Arc<AtomicU64>,
    /// Executions cut at the step bound, a cancelled subtree's included (so a cut
    /// may be counted that the exploration's count leaves out: never a proof lost
    /// to one, at worst one more search said to be cut).
    cuts: Arc<AtomicU64>,
    budget: Budget,
    body: Body,
    started: Arc<AtomicU64>,
    /// Threads that joined (`help`) and have not left.
    helpers: Mutex<usize>,
    left: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

std::thread_local! {
    /// The body number of the last execution on this thread that found a violation.
    static FOUND: Cell<Option<u64>> = const { Cell::new(None) };
}

/// A job's side of the pool.
struct Hand {
    pool: Arc<Pool>,
    me: Option<u64>,
}

impl Helpers for Hand {
    fn hungry(&self) -> bool {
        self.pool.idle.load(SeqCst) > self.pool.queued.load(SeqCst)
    }

    fn give(&mut self, unit: Explorer) -> u64 {
        let id = self.pool.next.fetch_add(1, SeqCst);
        let mut d = lock(&self.pool.desk);
        d.tickets.insert(
            id,
            Ticket::Running {
                parent: self.me,
                cancelled: false,
                waiter: None,
            },
        );
        d.ready.push_back(Job {
            x: unit,
            ticket: Some(id),
        });
        self.pool.queued.fetch_add(1, SeqCst);
        self.pool.wake.notify_one();
        id
    }

    fn take(&mut self, id: u64) -> Option<Done> {
        let mut d = lock(&self.pool.desk);
        match d.tickets.remove(&id) {
            Some(Ticket::Finished(done)) => Some(*done),
            Some(t) => {
                d.tickets.insert(id, t);
                None
            }
            None => None,
        }
    }

    fn cancel(&mut self, id: u64) {
        let mut d = lock(&self.pool.desk);
        match d.tickets.get_mut(&id) {
            Some(Ticket::Running { cancelled, .. }) => *cancelled = true,
            Some(Ticket::Finished(_)) => {
                d.tickets.remove(&id);
            }
            None => {}
        }
    }

    fn wanted(&self) -> bool {
        wanted(&self.pool, self.me)
    }
}

static OPEN: Mutex<Vec<Arc<Pool>>> = Mutex::new(Vec::new());
static IDS: AtomicU64 = AtomicU64::new(0);

/// Explores the whole tree on `jobs` threads.
pub(crate) fn explore(jobs: usize, budget: &Budget, body: Body) -> Result<Explored, String> {
    let pool = Arc::new(Pool {
        id: IDS.fetch_add(1, SeqCst) | 1 << 63,
        desk: Mutex::new(Desk::default()),
        wake: Condvar::new(),
        idle: AtomicUsize::new(0),
        queued: AtomicUsize::new(1),
        over: AtomicBool::new(false),
        next: AtomicU64::new(0),
        bodies: Arc::default(),
        cuts: Arc::default(),
        budget: budget.clone(),
        body,
        started: Arc::new(AtomicU64::new(0)),
        helpers: Mutex::new(0),
        left: Condvar::new(),
    });
    lock(&pool.desk).ready.push_back(Job {
        x: Explorer::new(),
        ticket: None,
    });
    lock(&OPEN).push(pool.clone());
    if jobs <= 1 {
        work(&pool);
    } else {
        let watched = crate::engine::watch_current();
        std::thread::scope(|s| {
            for j in 0..jobs {
                let pool = &pool;
                std::thread::Builder::new()
                    .name(format!("dpor-{j}"))
                    .spawn_scoped(s, move || {
                        crate::engine::watch_enter(watched);
                        work(pool)
                    })
                    .expect("a thread for dpor");
            }
        });
    }
    lock(&OPEN).retain(|p| p.id != pool.id);
    let mut h = lock(&pool.helpers);
    while *h > 0 {
        h = pool.left.wait(h).unwrap_or_else(|p| p.into_inner());
    }
    drop(h);
    let mut r = lock(&pool.desk)
        .result
        .take()
        .unwrap_or_else(|| Err("a dpor thread panicked".into()));
    if let Ok(e) = &mut r {
        e.cut = pool.cuts.load(SeqCst).min(e.executions);
    }
    r
}

/// Joins an exploration under way that this thread has not joined yet (`joined`
/// keeps the ones it has), as one more thread; false if there is none.
pub(crate) fn help(joined: &mut Vec<u64>) -> bool {
    let pool = {
        let list = lock(&OPEN);
        let Some(p) = list.iter().find(|p| !joined.contains(&p.id)).cloned() else {
            return false;
        };
        *lock(&p.helpers) += 1;
        p
    };
    joined.push(pool.id);
    work(&pool);
    *lock(&pool.helpers) -= 1;
    pool.left.notify_all();
    true
}

/// One thread's share: the jobs it takes, until the tree is explored.
fn work(pool: &Arc<Pool>) {
    let _on = super::On::new();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        loop {
            let job = {
                let mut d = lock(&pool.desk);
                loop {
                    if pool.over.load(SeqCst) {
                        return;
                    }
                    if let Some(j) = d.ready.pop_front() {
                        pool.queued.fetch_sub(1, SeqCst);
                        break j;
                    }
                    pool.idle.fetch_add(1, SeqCst);
                    d = pool.wake.wait(d).unwrap_or_else(|p| p.into_inner());
                    pool.idle.fetch_sub(1, SeqCst);
                }
            };
            let mut next = Some(job);
            while let Some(j) = next {
                next = run(pool, j);
            }
        }
    }));
    if r.is_err() {
        end(pool, Err("a dpor thread panicked".into()));
    }
}

/// Ends the exploration with `r`.
fn end(pool: &Pool, r: Result<Explored, String>) {
    let mut d = lock(&pool.desk);
    if d.result.is_none() {
        d.result = Some(r);
    }
    pool.over.store(true, SeqCst);
    pool.wake.notify_all();
}

/// Runs a job until its subtree is explored, it stops, or it waits for a subtree it
/// gave away; returns a job to run next on this thread (a giver its result wakes).
fn run(pool: &Arc<Pool>, job: Job) -> Option<Job> {
    let Job { mut x, ticket } = job;
    x.set_helpers(Some(Box::new(Hand {
        pool: pool.clone(),
        me: ticket,
    })));
    let (body, bodies, cuts) = (pool.body.clone(), pool.bodies.clone(), pool.cuts.clone());
    let counted: Body = Arc::new(move |_| {
        let i = bodies.fetch_add(1, SeqCst) + 1;
        let found = body(i);
        if crate::engine::take_cut_run() {
            cuts.fetch_add(1, SeqCst);
        }
        if found {
            FOUND.with(|f| f.set(Some(i)));
        }
        found
    });
    let (r, mut x) = super::tasks::run(
        super::Dpor::new(x),
        &pool.budget,
        counted,
        Some(pool.started.clone()),
    );
    x.set_helpers(None);
    let runs = x.stats.executions;
    // An engine error in a subtree is the exploration's only if its giver takes the
    // subtree in, as a violation is.
    let mut note = None;
    let halt = match r.map(|e| e.stop) {
        Err(e) => {
            note = Some(e);
            Some((runs, FAILED))
        }
        Ok(Stop::Found) => Some((runs, FOUND.with(Cell::take).unwrap_or(0))),
        Ok(Stop::Time) => Some((runs, TIME)),
        Ok(Stop::Iterations) => Some((runs, ITERATIONS)),
        Ok(Stop::Exhausted) => x.halted.take().and_then(|d| {
            note = d.note;
            d.halt.map(|(at, t)| (runs + at, t))
        }),
    };
    if let Some((at, tag)) = halt {
        let mut done = x.stopped(at, tag);
        done.note = note;
        return finish(pool, ticket, done);
    }
    if let Some(id) = x.waits() {
        let mut d = lock(&pool.desk);
        match d.tickets.get_mut(&id) {
            Some(Ticket::Running { waiter, .. }) => {
                *waiter = Some(Box::new(Job { x, ticket }));
                return None;
            }
            // Finished meanwhile: `begin` takes it now.
            Some(Ticket::Finished(_)) => return Some(Job { x, ticket }),
            // Only an unwanted subtree's ticket goes before its giver takes it, and
            // then the giver is unwanted too.
            None => {}
        }
    }
    if !wanted(pool, ticket) {
        if let Some(id) = ticket {
            lock(&pool.desk).tickets.remove(&id);
        }
        return None;
    }
    match ticket {
        Some(_) => {
            let done = x.done();
            finish(pool, ticket, done)
        }
        None => {
            let mut done = Done::default();
            done.stats = x.stats.clone();
            finish(pool, None, done)
        }
    }
}

/// Whether the job of subtree `me` is still wanted: the exploration goes on, and
/// neither it nor a subtree it is part of was cancelled.
fn wanted(pool: &Pool, me: Option<u64>) -> bool {
    if pool.over.load(SeqCst) {
        return false;
    }
    let d = lock(&pool.desk);
    let mut at = me;
    while let Some(id) = at {
        match d.tickets.get(&id) {
            Some(Ticket::Running {
                cancelled: false,
                parent,
                ..
            }) => at = *parent,
            _ => return false,
        }
    }
    true
}

/// A job's subtree is explored (or stopped the exploration): its result goes to its
/// giver, who runs next if it waits for it.
fn finish(pool: &Pool, ticket: Option<u64>, done: Done) -> Option<Job> {
    let Some(id) = ticket else {
        let (at, tag) = done.halt.unwrap_or((done.stats.executions, 0));
        let mut e = Explored::new(at, Stop::Exhausted);
        match done.halt.map(|h| h.1) {
            None => e.traces = Some(done.stats.complete),
            Some(FAILED) => {
                end(pool, Err(done.note.unwrap_or_default()));
                return None;
            }
            Some(TIME) => e.stop = Stop::Time,
            Some(ITERATIONS) => e.stop = Stop::Iterations,
            Some(_) => {
                e.stop = Stop::Found;
                e.finding = Some(tag);
            }
        }
        end(pool, Ok(e));
        return None;
    };
    let mut d = lock(&pool.desk);
    match d.tickets.remove(&id) {
        Some(Ticket::Running {
            cancelled: false,
            waiter,
            ..
        }) => {
            d.tickets.insert(id, Ticket::Finished(Box::new(done)));
            waiter.map(|w| *w)
        }
        _ => None,
    }
}
