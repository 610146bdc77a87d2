//! cacher-modern: the apiserver Cacher as of 2022 (kubernetes staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go),
//! its concurrency skeleton: `dispatchEvents`, `Watch`, the `cacheWatcher` goroutines,
//! `forgetWatcher`, `Stop` and the `ready` gate. `source` is the seed; every other
//! variant takes out one guard, and the harness finds what that guard prevents.
//!
//! Goroutines: main (the watchCache side: `ready.set`, then each event appended under
//! the watchCache lock and handed to `processEvent`; then `Stop` and, as the caching
//! goroutine's deferred call, `terminateAllWatchers`), the dispatcher, and per watch a
//! client and the watcher's `processInterval` goroutine. Run in `virtual` time: the
//! dispatch timer, the bookmark timer and the consumers' deadlines are durations.
//!
//! Left out: trigger indexes (every watcher is in `allWatchers`), filters and object
//! conversion, contexts (no watch is cancelled), the budget's periodic refill (a
//! dispatch takes what is left and returns what it did not use).

use super::{Build, Model, Param, Params, Variant};
use crate::explore::ModelFn;
use crate::go::{Chan, Cond, Data, Go, Mutex, RwMutex, WaitGroup};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

pub static MODEL: Model = Model {
    name: "cacher-modern",
    summary: "apiserver Cacher, 2022: each guard of dispatchEvents, Watch and cacheWatcher, shown by taking it out",
    origin: "kubernetes staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go as of 2022; the ready gate's stop: kubernetes PR #108414",
    variants: &[
        Variant {
            name: "source",
            doc: "the seed as given",
        },
        Variant {
            name: "no-deferred-stop",
            doc: "stopWatcherLocked stops a watcher at once during dispatch instead of queueing it in watchersToStop",
        },
        Variant {
            name: "blocking-add",
            doc: "add blocks until the watcher takes the event: no timer, no budget",
        },
        Variant {
            name: "add-under-lock",
            doc: "dispatchEvent calls add while holding the Cacher lock",
        },
        Variant {
            name: "cacher-lock-first",
            doc: "Watch takes the Cacher lock before the watchCache lock",
        },
        Variant {
            name: "no-rv-filter",
            doc: "processInterval sends every input event, even those its initial interval already sent",
        },
        Variant {
            name: "no-ready-stop",
            doc: "Stop does not call ready.stop(): a Watch waiting for readiness is never released",
        },
    ],
    params: &[
        Param {
            name: "events",
            default: 2,
            min: 1,
            max: 4,
            doc: "events the watchCache hands to processEvent",
        },
        Param {
            name: "fast",
            default: 1,
            min: 0,
            max: 1,
            doc: "a watch whose consumer reads every event",
        },
        Param {
            name: "slow",
            default: 1,
            min: 0,
            max: 1,
            doc: "a watch whose consumer is stuck: it never reads",
        },
        Param {
            name: "gone",
            default: 1,
            min: 0,
            max: 1,
            doc: "a watch whose client goes away: it stops the watch as soon as Watch returns (a stop during dispatch)",
        },
        Param {
            name: "buffer",
            default: 0,
            min: 0,
            max: 2,
            doc: "capacity of each watcher's input and result channels",
        },
        Param {
            name: "incoming",
            default: 1,
            min: 0,
            max: 4,
            doc: "capacity of the Cacher's incoming channel",
        },
        Param {
            name: "ready",
            default: 1,
            min: 0,
            max: 1,
            doc: "1: the cache is ready before any Watch arrives; 0: it never becomes ready, and Stop comes first",
        },
        Param {
            name: "bookmarks",
            default: 1,
            min: 0,
            max: 2,
            doc: "times the dispatcher's bookmark timer fires (each re-arms it)",
        },
        Param {
            name: "watch_first",
            default: 0,
            min: 0,
            max: 1,
            doc: "1: every Watch is registered before the first event; 0: the Watches race the events",
        },
        Param {
            name: "budget_ms",
            default: 100,
            min: 0,
            max: 10_000,
            doc: "dispatchTimeoutBudget: how long add may wait for blocked watchers, shared",
        },
        Param {
            name: "deadline_ms",
            default: 1000,
            min: 1,
            max: 60_000,
            doc: "slow-watcher-isolated and ready-gate: how long a consumer or Stop's caller waits",
        },
    ],
    properties: &[
        (
            "ordered-delivery",
            "each watcher's consumer sees events in resourceVersion order, none twice, none skipped unless terminated",
        ),
        (
            "slow-watcher-isolated",
            "the fast consumer receives each event within deadline_ms while another consumer is stuck",
        ),
        (
            "ready-gate",
            "no Watch is served before the cache is ready; after Stop, a Watch waiting for readiness returns an error",
        ),
    ],
    main: Build::Rust(build),
    network: None,
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    Source,
    NoDeferredStop,
    BlockingAdd,
    AddUnderLock,
    CacherLockFirst,
    NoRvFilter,
    NoReadyStop,
}

#[derive(Clone, Copy, Debug)]
struct P {
    events: u64,
    fast: bool,
    slow: bool,
    gone: bool,
    buffer: usize,
    incoming: usize,
    ready: bool,
    bookmarks: usize,
    watch_first: bool,
    budget: Duration,
    deadline: Duration,
}

fn build(variant: &str, p: &Params) -> ModelFn {
    let v = match variant {
        "no-deferred-stop" => V::NoDeferredStop,
        "blocking-add" => V::BlockingAdd,
        "add-under-lock" => V::AddUnderLock,
        "cacher-lock-first" => V::CacherLockFirst,
        "no-rv-filter" => V::NoRvFilter,
        "no-ready-stop" => V::NoReadyStop,
        _ => V::Source,
    };
    let ms = |n: &str| Duration::from_millis(p.get(n) as u64);
    let p = P {
        events: p.get("events") as u64,
        fast: p.get("fast") == 1,
        slow: p.get("slow") == 1,
        gone: p.get("gone") == 1,
        buffer: p.usize("buffer"),
        incoming: p.usize("incoming"),
        ready: p.get("ready") == 1,
        bookmarks: p.usize("bookmarks"),
        watch_first: p.get("watch_first") == 1,
        budget: ms("budget_ms"),
        deadline: ms("deadline_ms"),
    };
    Arc::new(move |go: &Go| apiserver(go, v, p))
}

/// An event is its resourceVersion.
type Ev = u64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Readiness {
    Pending,
    Ready,
    Stopped,
}

/// `ready`: a state behind a Cond (`wait`, `set`, `stop`).
#[derive(Clone)]
struct Ready {
    c: Cond,
    state: Data<Readiness>,
}

impl Ready {
    /// Blocks until the cache is ready or stopped; false once stopped.
    fn wait(&self) -> bool {
        self.c.locker().lock();
        while self.state.get() == Readiness::Pending {
            self.c.wait();
        }
        let ok = self.state.get() == Readiness::Ready;
        self.c.locker().unlock();
        ok
    }

    fn set(&self) {
        self.c.locker().lock();
        if self.state.get() != Readiness::Stopped {
            self.state.set(Readiness::Ready);
        }
        self.c.broadcast();
        self.c.locker().unlock();
    }

    fn stop(&self) {
        self.c.locker().lock();
        self.state.set(Readiness::Stopped);
        self.c.broadcast();
        self.c.locker().unlock();
    }
}

/// cacheWatcher: `input` from the dispatcher, `result` to the consumer, `done`.
struct Watcher {
    idx: usize,
    name: String,
    input: Chan<Ev>,
    result: Chan<Ev>,
    done: Chan<()>,
    /// Guarded by the Cacher lock, as in Go.
    st: Data<WState>,
}

#[derive(Default)]
struct WState {
    stopped: bool,
    drain: bool,
    done_closed: bool,
}

impl Watcher {
    /// cacheWatcher.stopLocked (the Cacher lock is held).
    fn stop_locked(&self, go: &Go) {
        let _f = go.func("cacheWatcher.stopLocked");
        let (first, drain) = self.st.with(|s| {
            let first = !s.stopped;
            s.stopped = true;
            (first, s.drain)
        });
        if first {
            if !drain {
                self.close_done();
            }
            self.input.close();
        }
        if !drain && !self.st.read(|s| s.done_closed) {
            self.close_done();
        }
    }

    fn close_done(&self) {
        self.st.with(|s| s.done_closed = true);
        self.done.close();
    }

    /// nonblockingAdd: `select { case input <- ev: default: }`.
    fn nonblocking_add(&self, go: &Go, ev: Ev) -> bool {
        go.select()
            .send(&self.input, ev)
            .default()
            .wait()
            .index
            .is_some()
    }

    /// sendWatchCacheEvent: never past a closed `done`, never out of order.
    fn send_event(&self, go: &Go, ev: Ev) {
        if go
            .select()
            .recv(&self.done)
            .default()
            .wait()
            .index
            .is_some()
        {
            return;
        }
        go.select().send(&self.result, ev).recv(&self.done).wait();
    }
}

#[derive(Default)]
struct CState {
    watchers: BTreeMap<usize, Arc<Watcher>>,
    next_idx: usize,
    dispatching: bool,
    to_stop: Vec<Arc<Watcher>>,
}

#[derive(Clone)]
struct Cacher {
    v: V,
    p: P,
    mu: Mutex,
    /// The watchCache's RWMutex: `processEvent` runs under its write lock.
    wc: RwMutex,
    /// The watchCache's events so far (its store, for `getAllEventsSinceLocked`).
    cache: Data<Vec<Ev>>,
    stop_lock: RwMutex,
    incoming: Chan<Ev>,
    stop_ch: Chan<()>,
    ready: Ready,
    /// Guarded by the Cacher lock, as in Go.
    s: Data<CState>,
    /// `watchersBuffer`: the dispatcher goroutine's own, as in Go.
    buffer: Data<Vec<Arc<Watcher>>>,
    /// `stopped`, guarded by stopLock.
    stopped: Data<bool>,
    budget: Data<Duration>,
    stop_wg: WaitGroup,
}

impl Cacher {
    fn new(go: &Go, v: V, p: P) -> Cacher {
        let rmu = go.mutex("ready.lock");
        Cacher {
            v,
            p,
            mu: go.mutex("Cacher"),
            wc: go.rwmutex("watchCache"),
            cache: go.data("watchCache.store", Vec::new()),
            stop_lock: go.rwmutex("stopLock"),
            incoming: go.chan("incoming", p.incoming),
            // Go only closes stopCh (Stop): a done channel.
            stop_ch: go.done_chan("stopCh"),
            ready: Ready {
                c: go.cond("ready.c", &rmu),
                state: go.data("ready.state", Readiness::Pending),
            },
            s: go.data("Cacher.state", CState::default()),
            buffer: go.data("Cacher.watchersBuffer", Vec::new()),
            stopped: go.data("Cacher.stopped", false),
            budget: go.data("dispatchTimeoutBudget", p.budget),
            stop_wg: go.waitgroup("stopWg"),
        }
    }

    /// processEvent: called by the watchCache under its write lock.
    fn process_event(&self, go: &Go, ev: Ev) {
        let _f = go.func("Cacher.processEvent");
        self.incoming.send(ev);
    }

    /// dispatchEvents: the select over incoming, the bookmark timer and stopCh.
    fn dispatch_events(&self, go: &Go) {
        let _f = go.func("Cacher.dispatchEvents");
        let mut bookmarks_left = self.p.bookmarks;
        let arm = |left: usize| {
            if left > 0 {
                go.after("bookmarkTimer", Duration::from_secs(1))
            } else {
                go.nil_chan("bookmarkTimer (spent)")
            }
        };
        let mut bookmark = arm(bookmarks_left);
        let mut last_rv = 0;
        loop {
            let mut f = go
                .select()
                .recv(&self.incoming)
                .recv(&bookmark)
                .recv(&self.stop_ch)
                .wait();
            match f.index {
                Some(0) => match f.take::<Ev>() {
                    Some(ev) => {
                        self.dispatch_event(go, Some(ev));
                        last_rv = ev;
                    }
                    None => return,
                },
                Some(1) => {
                    bookmarks_left -= 1;
                    bookmark = arm(bookmarks_left);
                    if last_rv != 0 {
                        self.dispatch_event(go, None);
                    }
                }
                _ => return,
            }
        }
    }

    /// dispatchEvent; `None` is a bookmark (non-blocking adds to expired bookmark
    /// watchers only: none here, as no watch asks for bookmarks).
    fn dispatch_event(&self, go: &Go, ev: Option<Ev>) {
        let _f = go.func("Cacher.dispatchEvent");
        self.start_dispatching(go, ev.is_none());
        if let Some(ev) = ev {
            let buffer = self.buffer.get();
            let blocked: Vec<Arc<Watcher>> = buffer
                .into_iter()
                .filter(|w| !w.nonblocking_add(go, ev))
                .collect();
            if !blocked.is_empty() {
                // add-under-lock: add runs with the Cacher lock held.
                let locked = self.v == V::AddUnderLock;
                if locked {
                    self.mu.lock();
                }
                self.add_blocked(go, ev, &blocked);
                if locked {
                    self.mu.unlock();
                }
            }
        }
        self.finish_dispatching(go);
    }

    /// The blocked watchers, under the shared budget (take / return unused).
    fn add_blocked(&self, go: &Go, ev: Ev, blocked: &[Arc<Watcher>]) {
        if self.v == V::BlockingAdd {
            // blocking-add: no timer, no budget; waits as long as the watcher does.
            for w in blocked {
                w.input.send(ev);
            }
            return;
        }
        let start = go.now();
        let timeout = self.budget.with(std::mem::take);
        let timer = go.after("dispatch timer", timeout);
        let mut live = Some(&timer);
        for w in blocked {
            if !self.add(go, w, ev, live) {
                // The timer fired: the next blocked watchers get no wait.
                live = None;
            }
        }
        if live.is_some() {
            // timer.Stop() lost to a firing: drain it.
            let _ = timer.try_recv();
        }
        let used = go.now().saturating_sub(start);
        let max = self.p.budget;
        self.budget
            .with(|b| *b = (*b + timeout.saturating_sub(used)).min(max));
    }

    /// cacheWatcher.add: block until the timer fires, then forget the watcher.
    fn add(&self, go: &Go, w: &Arc<Watcher>, ev: Ev, timer: Option<&Chan<()>>) -> bool {
        let _f = go.func("cacheWatcher.add");
        if w.nonblocking_add(go, ev) {
            return true;
        }
        let Some(t) = timer else {
            self.forget(go, w);
            return false;
        };
        match go.select().send(&w.input, ev).recv(t).wait().index {
            Some(0) => true,
            _ => {
                go.note(format!(
                    "{} does not take the event in time: terminated",
                    w.name
                ));
                self.forget(go, w);
                false
            }
        }
    }

    fn start_dispatching(&self, go: &Go, bookmark: bool) {
        let _f = go.func("Cacher.startDispatching");
        self.mu.lock();
        let buffer = self.s.with(|s| {
            s.dispatching = true;
            if bookmark {
                Vec::new()
            } else {
                s.watchers.values().cloned().collect()
            }
        });
        self.buffer.set(buffer);
        self.mu.unlock();
    }

    fn finish_dispatching(&self, go: &Go) {
        let _f = go.func("Cacher.finishDispatching");
        self.mu.lock();
        let to_stop = self.s.with(|s| {
            s.dispatching = false;
            std::mem::take(&mut s.to_stop)
        });
        for w in to_stop {
            w.stop_locked(go);
        }
        self.mu.unlock();
    }

    /// stopWatcherLocked: during a dispatch, deferred to finishDispatching, since add
    /// may still be writing to the watcher's input.
    fn stop_watcher_locked(&self, go: &Go, w: &Arc<Watcher>) {
        // no-deferred-stop: stops at once even while dispatching.
        if self.s.read(|s| s.dispatching) && self.v != V::NoDeferredStop {
            self.s.with(|s| s.to_stop.push(w.clone()));
        } else {
            w.stop_locked(go);
        }
    }

    /// forgetWatcher(c, w, ...)(false): cacheWatcher.Stop and add's terminations.
    fn forget(&self, go: &Go, w: &Arc<Watcher>) {
        let _f = go.func("forgetWatcher");
        self.mu.lock();
        w.st.with(|s| s.drain = false);
        if self.s.with(|s| s.watchers.remove(&w.idx)).is_some() {
            self.stop_watcher_locked(go, w);
        }
        self.mu.unlock();
    }

    /// Watch: the ready gate, then the watchCache read lock before the Cacher lock
    /// (the event path takes them in that order); registration; the watcher's goroutine.
    fn watch(&self, go: &Go, name: &str) -> Option<Arc<Watcher>> {
        let _f = go.func("Cacher.Watch");
        if !self.ready.wait() {
            go.note(format!(
                "{name}: Watch returns an error: the cacher is stopped"
            ));
            return None;
        }
        go.check(
            "ready-gate",
            self.ready.state.get() == Readiness::Ready,
            || format!("{name}'s Watch was served before the cache was ready"),
        );
        // Created before the locks, as in Go (allocation outside the lock).
        let input = go.chan(&format!("{name}.input"), self.p.buffer);
        let result = go.chan(&format!("{name}.result"), self.p.buffer);
        // Go only closes the watcher's done (stopLocked): a done channel.
        let done = go.done_chan(&format!("{name}.done"));
        let wst = go.data(&format!("{name}.state"), WState::default());
        // cacher-lock-first: the Cacher lock first, against the comment in Watch.
        let first = self.v == V::CacherLockFirst;
        if first {
            self.mu.lock();
        }
        self.wc.rlock();
        let interval = self.cache.get();
        if !first {
            self.mu.lock();
        }
        let w = self.s.with(|s| {
            let w = Arc::new(Watcher {
                idx: s.next_idx,
                name: name.to_string(),
                input,
                result,
                done,
                st: wst,
            });
            s.watchers.insert(s.next_idx, w.clone());
            s.next_idx += 1;
            w
        });
        self.mu.unlock();
        self.wc.runlock();
        let (c, w2) = (self.clone(), w.clone());
        go.go(&format!("{name} processInterval"), move |go| {
            c.process_interval(&go, &w2, interval);
        });
        Some(w)
    }

    /// processInterval, then process: the events since the watch's start, then the
    /// input; on return, Stop (forget) and close(result), as the defers do.
    fn process_interval(&self, go: &Go, w: &Arc<Watcher>, interval: Vec<Ev>) {
        let _f = go.func("cacheWatcher.processInterval");
        let mut rv = 0;
        for ev in interval {
            w.send_event(go, ev);
            rv = ev;
        }
        while let Some(ev) = w.input.recv() {
            // Go: `if event.ResourceVersion > resourceVersion`: an event the watchCache
            // held when Watch read the interval may also be dispatched to this watcher,
            // registered before the dispatcher reached it.
            // buggy (no-rv-filter): the check is gone, and that event is sent twice.
            if ev > rv || self.v == V::NoRvFilter {
                w.send_event(go, ev);
            }
        }
        self.forget(go, w);
        w.result.close();
    }

    /// Stop: stopLock, `ready.stop()`, close(stopCh), wait for the goroutines.
    fn stop(&self, go: &Go) {
        let _f = go.func("Cacher.Stop");
        self.stop_lock.lock();
        self.stopped.set(true);
        // no-ready-stop: the waiters of `ready` are left waiting.
        if self.v != V::NoReadyStop {
            self.ready.stop();
        }
        self.stop_lock.unlock();
        self.stop_ch.close();
        self.stop_wg.wait();
    }

    /// terminateAllWatchers: the caching goroutine's deferred call.
    fn terminate_all(&self, go: &Go) {
        let _f = go.func("Cacher.terminateAllWatchers");
        self.mu.lock();
        let all: Vec<Arc<Watcher>> = self
            .s
            .with(|s| std::mem::take(&mut s.watchers).into_values().collect());
        for w in all {
            self.stop_watcher_locked(go, &w);
        }
        self.mu.unlock();
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Consumer {
    Fast,
    Slow,
    Gone,
}

/// A watch client: Watch, say so on `registered` (when the test waits for that), then
/// consume as its kind does.
fn client(go: &Go, c: &Cacher, kind: Consumer, name: &str, registered: Option<&WaitGroup>) {
    let w = c.watch(go, name);
    if let Some(r) = registered {
        r.done();
    }
    let Some(w) = w else {
        return;
    };
    let mut last = 0;
    let ordered = |go: &Go, last: &mut Ev, rv: Ev| {
        let prev = *last;
        go.check("ordered-delivery", rv == prev + 1, || {
            format!("{name} received resourceVersion {rv} after {prev}")
        });
        *last = rv;
    };
    match kind {
        // Stuck: never reads.
        Consumer::Slow => {}
        Consumer::Gone => {
            let _f = go.func("cacheWatcher.Stop");
            c.forget(go, &w);
        }
        Consumer::Fast => {
            while last < c.p.events {
                let t = go.after(&format!("{name} deadline"), c.p.deadline);
                let mut f = go.select().recv(&w.result).recv(&t).wait();
                match f.index {
                    Some(0) => match f.take::<Ev>() {
                        Some(rv) => ordered(go, &mut last, rv),
                        None => {
                            go.note(format!(
                                "{name}: the watch was terminated after {last} events"
                            ));
                            return;
                        }
                    },
                    _ => {
                        go.check("slow-watcher-isolated", false, || {
                            format!(
                                "{name} has received {last} of {} events and waited {:?} for the next one",
                                c.p.events, c.p.deadline
                            )
                        });
                        return;
                    }
                }
            }
        }
    }
}

fn apiserver(go: &Go, v: V, p: P) {
    let c = Cacher::new(go, v, p);
    c.stop_wg.add(1);
    let d = c.clone();
    go.go("dispatcher", move |go| {
        d.dispatch_events(&go);
        d.stop_wg.done();
    });
    if p.ready {
        // startCaching: the first list ends with OnReplace → ready.set(true).
        c.ready.set();
    }
    // The test's own waits for its clients (not the Cacher's code) are WaitGroups:
    // their Dones commute, where sends into one channel make each order in which the
    // clients register and finish an interleaving of its own (a send before the
    // receive waits, or after, another; dpor: 2x the executions with one client,
    // 13-16x with two). Only the shutdown check, which waits with a deadline, needs a
    // channel.
    let registered = p.watch_first.then(|| go.waitgroup("registered"));
    let finished = if p.ready {
        Finished::Group(go.waitgroup("finished"))
    } else {
        Finished::Chan(go.chan("finished", 3))
    };
    let kinds = [
        (p.fast, Consumer::Fast, "fast"),
        (p.slow, Consumer::Slow, "slow"),
        (p.gone, Consumer::Gone, "gone"),
    ];
    let clients = kinds.iter().filter(|k| k.0).count();
    if let Some(r) = &registered {
        r.add(clients as i64);
    }
    if let Finished::Group(wg) = &finished {
        wg.add(clients as i64);
    }
    for (on, kind, name) in kinds {
        if !on {
            continue;
        }
        let (c, fin, reg) = (c.clone(), finished.clone(), registered.clone());
        go.go(name, move |go| {
            client(&go, &c, kind, name, reg.as_ref());
            match fin {
                Finished::Group(wg) => wg.done(),
                Finished::Chan(ch) => ch.send(()),
            }
        });
    }
    match &finished {
        Finished::Group(wg) => {
            if let Some(r) = &registered {
                r.wait();
            }
            for rv in 1..=p.events {
                let _f = go.func("watchCache.Add");
                c.wc.lock();
                c.cache.with(|e| e.push(rv));
                c.process_event(go, rv);
                c.wc.unlock();
            }
            wg.wait();
            c.stop(go);
        }
        Finished::Chan(finished) => {
            // The cache never becomes ready; the apiserver shuts down. Each Watch waiting
            // for readiness must return within the deadline.
            c.stop(go);
            for _ in 0..clients {
                let t = go.after("ready-gate deadline", p.deadline);
                let f = go.select().recv(finished).recv(&t).wait();
                go.check("ready-gate", f.index == Some(0), || {
                    format!(
                        "a Watch still waits for readiness {:?} after Stop",
                        p.deadline
                    )
                });
            }
        }
    }
    c.terminate_all(go);
}

/// How the test learns that its clients are done.
#[derive(Clone)]
enum Finished {
    Group(WaitGroup),
    /// When the cache never becomes ready: the test waits for each with a deadline.
    Chan(Chan<()>),
}
