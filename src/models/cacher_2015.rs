//! cacher-2015: the apiserver Cacher at kubernetes d6431baf (August 2015), before and
//! after "Fix deadlock in Cacher on etcd error" (kubernetes commit a12b7edc, 2015).
//!
//! Goroutines: main (the apiserver: NewCacher, then Watch clients, then shutdown), the
//! reflector (`util.Until(startCaching)`), and one goroutine per Watch client.
//!
//! The lock order the Go code assumes is watchCache before Cacher.mu: the event path
//! (`WatchCache.Add` calls `processEvent` under the watchCache lock) and `Watch` both
//! take them in that order. The buggy `startCaching` takes Cacher.mu first and keeps it
//! across the relist, until `OnReplace` (called inside `WatchCache.Replace`, under the
//! watchCache lock) unlocks it: a relist racing a `Watch` is a lock-order inversion.
//!
//! Left out, because it touches none of these locks: the cacheWatcher's `process`
//! goroutine and the result channel (the watcher's buffered `input` stands for both).

use super::{Build, Model, Param, Params, Variant};
use crate::explore::ModelFn;
use crate::go::{Chan, Data, Go, Mutex, Once, RwMutex, TryRecv, WaitGroup};
use std::collections::BTreeMap;
use std::sync::Arc;

pub static MODEL: Model = Model {
    name: "cacher-2015",
    summary: "apiserver Cacher, 2015: startCaching holds the Cacher lock across a relist",
    origin: "kubernetes commit a12b7edc, \"Fix deadlock in Cacher on etcd error\" (2015-08-25, pkg/storage/cacher.go)",
    variants: &[
        Variant {
            name: "buggy",
            doc: "before the fix: Cacher.mu held from startCaching until OnReplace",
        },
        Variant {
            name: "fixed",
            doc: "after the fix: the separate `usable` RWMutex gates Watch",
        },
    ],
    params: &[
        Param {
            name: "relists",
            default: 1,
            min: 0,
            max: 2,
            doc: "times util.Until re-enters startCaching after the first list",
        },
        Param {
            name: "list_errors",
            default: 1,
            min: 0,
            max: 2,
            doc: "etcd errors on list at each relist, retried under the lock",
        },
        Param {
            name: "events",
            default: 1,
            min: 0,
            max: 3,
            doc: "watch events per watch window (WatchCache.Add → processEvent)",
        },
        Param {
            name: "watchers",
            default: 1,
            min: 1,
            max: 3,
            doc: "Watch clients (each: Watch, then Stop)",
        },
    ],
    properties: &[],
    main: Build::Rust(build),
    network: None,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum V {
    Buggy,
    Fixed,
}

#[derive(Clone, Copy)]
struct P {
    relists: usize,
    list_errors: usize,
    events: usize,
    watchers: usize,
}

fn build(variant: &str, p: &Params) -> ModelFn {
    let v = if variant == "buggy" {
        V::Buggy
    } else {
        V::Fixed
    };
    let p = P {
        relists: p.usize("relists"),
        list_errors: p.usize("list_errors"),
        events: p.usize("events"),
        watchers: p.usize("watchers"),
    };
    Arc::new(move |go: &Go| apiserver(go, v, p))
}

/// The apiserver: creates the Cacher, serves Watch clients, shuts down.
fn apiserver(go: &Go, v: V, p: P) {
    let c = Cacher::new(go, v, p);
    let clients = go.waitgroup("clients");
    clients.add(p.watchers as i64);
    for i in 0..p.watchers {
        let name = if p.watchers == 1 {
            "watch-client".to_string()
        } else {
            format!("watch-client-{}", i + 1)
        };
        let (c, wg) = (c.clone(), clients.clone());
        go.go(&name, move |_| {
            let (idx, w) = c.watch();
            c.stop_watcher(idx, &w);
            wg.done();
        });
    }
    clients.wait();
    let _f = go.func("shutdown");
    c.stop_ch.close();
}

#[derive(Clone)]
struct CacheWatcher {
    mu: Mutex,
    input: Chan<u64>,
    stopped: Data<bool>,
}

impl CacheWatcher {
    /// cacheWatcher.stop
    fn stop(&self, go: &Go) {
        let _f = go.func("cacheWatcher.stop");
        self.mu.lock();
        if !self.stopped.get() {
            self.stopped.set(true);
            self.input.close();
        }
        self.mu.unlock();
    }
}

#[derive(Clone)]
struct Cacher {
    go: Go,
    v: V,
    p: P,
    /// The Cacher's embedded sync.RWMutex; this code only calls Lock/Unlock on it.
    mu: Mutex,
    /// fixed only: "Each user-facing method ... has to read-lock on this mutex".
    usable: Option<RwMutex>,
    /// buggy only: NewCacher waits for the first OnReplace.
    initialized: Option<(WaitGroup, Once)>,
    /// WatchCache's own RWMutex.
    watch_cache: RwMutex,
    watchers: Data<BTreeMap<usize, CacheWatcher>>,
    watcher_idx: Data<usize>,
    stop_ch: Chan<()>,
}

impl Cacher {
    /// NewCacher
    fn new(go: &Go, v: V, p: P) -> Cacher {
        let _f = go.func("NewCacher");
        let c = Cacher {
            go: go.clone(),
            v,
            p,
            mu: go.mutex("Cacher.mu"),
            usable: (v == V::Fixed).then(|| go.rwmutex("Cacher.usable")),
            initialized: (v == V::Buggy).then(|| {
                (
                    go.waitgroup("Cacher.initialized"),
                    go.once("Cacher.initOnce"),
                )
            }),
            watch_cache: go.rwmutex("watchCache"),
            watchers: go.data("Cacher.watchers", BTreeMap::new()),
            watcher_idx: go.data("Cacher.watcherIdx", 0),
            stop_ch: go.chan("stopCh", 0),
        };
        match (&c.initialized, &c.usable) {
            // buggy: cacher.initialized.Add(1)
            (Some((wg, _)), _) => wg.add(1),
            // fixed: cacher.usable.Lock()
            (_, Some(u)) => u.lock(),
            _ => unreachable!(),
        }
        let r = c.clone();
        go.go("reflector", move |_| r.until());
        // buggy: cacher.initialized.Wait(); fixed: returns at once, Watch waits on usable.
        if let Some((wg, _)) = &c.initialized {
            wg.wait();
        }
        c
    }

    /// util.Until(func() { c.startCaching(stopCh) }, 0, stopCh)
    fn until(&self) {
        let _f = self.go.func("util.Until");
        for round in 0..=self.p.relists {
            if self.stop_ch.try_recv() != TryRecv::Empty {
                return;
            }
            self.start_caching(round);
        }
    }

    /// Cacher.startCaching
    fn start_caching(&self, round: usize) {
        let _f = self.go.func("Cacher.startCaching");
        if self.v == V::Buggy {
            // buggy: c.Lock(), kept on purpose until OnReplace unlocks it.
            self.mu.lock();
        }
        // fixed: `defer c.usable.Lock()` (run at the end of this function).
        self.terminate_all_watchers();
        // "since onReplace may be not called due to errors, we explicitly
        // need to retry it on errors under lock"
        let mut attempt = 0;
        while self.list_and_watch(round, attempt).is_err() {
            attempt += 1;
        }
        if let Some(u) = &self.usable {
            u.lock();
        }
    }

    /// Cacher.terminateAllWatchers
    fn terminate_all_watchers(&self) {
        let _f = self.go.func("Cacher.terminateAllWatchers");
        // buggy: the caller (startCaching) holds c's lock; fixed: it takes the lock itself.
        if self.v == V::Fixed {
            self.mu.lock();
        }
        let all = self.watchers.with(std::mem::take);
        for w in all.values() {
            w.stop(&self.go);
        }
        if self.v == V::Fixed {
            self.mu.unlock();
        }
    }

    /// Reflector.ListAndWatch, with the storage behind it.
    fn list_and_watch(&self, round: usize, attempt: usize) -> Result<(), ()> {
        let _f = self.go.func("Reflector.ListAndWatch");
        if round > 0 && attempt < self.p.list_errors {
            self.go.note("list: etcd error; startCaching retries");
            return Err(());
        }
        self.replace();
        for e in 0..self.p.events {
            self.add((round * 10 + e + 1) as u64);
        }
        if round == self.p.relists {
            // watchHandler returns once stopCh is closed (errorStopRequested).
            self.stop_ch.recv();
        } else {
            self.go
                .note("watch: window expired (resource version too old); relist");
        }
        Ok(())
    }

    /// WatchCache.Replace: under the watchCache lock, then the OnReplace hook.
    fn replace(&self) {
        let _f = self.go.func("WatchCache.Replace");
        self.watch_cache.lock();
        self.on_replace();
        self.watch_cache.unlock();
    }

    /// The OnReplace hook NewCacher installs.
    fn on_replace(&self) {
        let _f = self.go.func("Cacher.onReplace");
        match (&self.initialized, &self.usable) {
            // buggy: cacher.initOnce.Do(func() { cacher.initialized.Done() }); cacher.Unlock()
            (Some((wg, once)), _) => {
                once.run(|| wg.done());
                self.mu.unlock();
            }
            // fixed: cacher.usable.Unlock()
            (_, Some(u)) => u.unlock(),
            _ => unreachable!(),
        }
    }

    /// WatchCache.Add → processEvent: under the watchCache lock, calls the OnEvent hook.
    fn add(&self, rv: u64) {
        let _f = self.go.func("WatchCache.Add");
        self.watch_cache.lock();
        self.process_event(rv);
        self.watch_cache.unlock();
    }

    /// Cacher.processEvent
    fn process_event(&self, rv: u64) {
        let _f = self.go.func("Cacher.processEvent");
        self.mu.lock();
        let ws: Vec<CacheWatcher> = self.watchers.read(|m| m.values().cloned().collect());
        for w in ws {
            // cacheWatcher.add: `c.input <- event` (buffered, 10).
            w.input.send(rv);
        }
        self.mu.unlock();
    }

    /// Cacher.Watch
    fn watch(&self) -> (usize, CacheWatcher) {
        let _f = self.go.func("Cacher.Watch");
        // fixed: "Do NOT allow Watch to start when the underlying structures are not propagated."
        if let Some(u) = &self.usable {
            u.rlock();
        }
        // "We explicitly use thread unsafe version and do locking ourself..."
        self.watch_cache.rlock();
        self.mu.lock();
        let w = CacheWatcher {
            mu: self.go.mutex("cacheWatcher.mu"),
            input: self.go.chan("cacheWatcher.input", 10),
            stopped: self.go.data("cacheWatcher.stopped", false),
        };
        let idx = self.watcher_idx.with(|i| {
            *i += 1;
            *i
        });
        self.watchers.with(|m| m.insert(idx, w.clone()));
        self.mu.unlock();
        self.watch_cache.runlock();
        if let Some(u) = &self.usable {
            u.runlock();
        }
        (idx, w)
    }

    /// cacheWatcher.Stop: forgetWatcher(c, index)(true), then stop().
    fn stop_watcher(&self, idx: usize, w: &CacheWatcher) {
        let _f = self.go.func("cacheWatcher.Stop");
        self.mu.lock();
        self.watchers.with(|m| m.remove(&idx));
        self.mu.unlock();
        w.stop(&self.go);
    }
}
