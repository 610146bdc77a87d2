//! cache-sync-wait, the lock logic (the write-up "Kubernetes Informer WaitForCacheSync 引起的死锁"): a gateway
//! keeps one client manager per cluster in `ClientSets` behind one RWMutex and creates
//! them lazily in `GetClientManager`, which starts the cluster's informer and waits for
//! its cache to sync while holding the write lock. A paused cluster never syncs.
//!
//! Goroutines: main (the gateway's lifetime), one client per cluster sending list
//! requests one after another, one informer per client manager, and the timers of the
//! bounded waits. Run it in `virtual` time mode: the properties read the clock.
//!
//! Against the Go code: `WaitForCacheSync` polls `HasSynced` every 100 ms; here it waits
//! on a channel the informer closes once synced (the same outcome without the polls).
//! The informer of a paused cluster retries its list until its stop channel closes; here
//! it waits for that channel (its retries change nothing the gateway sees).

mod net;

use super::{Build, Model, Param, Params, Variant};
use crate::explore::ModelFn;
use crate::go::{Chan, Data, Go, RwMutex};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

pub static MODEL: Model = Model {
    name: "cache-sync-wait",
    summary: "GetClientManager waits for an informer's cache sync under the ClientSets write lock",
    origin: "the write-up \"Kubernetes Informer WaitForCacheSync 引起的死锁\" (a deadlock caused by WaitForCacheSync, in a vcluster gateway)",
    variants: &[
        Variant {
            name: "buggy",
            doc: "the seed: the wait's stop channel never closes",
        },
        Variant {
            name: "timeout",
            doc: "the seed's fix: the wait ends after sync_timeout_ms; the manager stays in the map",
        },
        Variant {
            name: "isolated",
            doc: "no global lock across the wait (per-cluster initialisation), a bounded wait, a failed manager not kept",
        },
    ],
    params: &[
        Param {
            name: "requests_a",
            default: 2,
            min: 0,
            max: 3,
            doc: "list requests for cluster-a (paused: its API server is down), one after another",
        },
        Param {
            name: "requests_b",
            default: 1,
            min: 0,
            max: 2,
            doc: "list requests for cluster-b (healthy), one after another",
        },
        Param {
            name: "pods",
            default: 2,
            min: 0,
            max: 5,
            doc: "pods each cluster's API server holds",
        },
        Param {
            name: "sync_timeout_ms",
            default: 5000,
            min: 1,
            max: 60_000,
            doc: "timeout and isolated: how long a request waits for a cache sync",
        },
        Param {
            name: "healthy_deadline_ms",
            default: 1000,
            min: 1,
            max: 60_000,
            doc: "healthy-cluster-isolated: a request for a healthy cluster answers within this",
        },
        Param {
            name: "request_deadline_ms",
            default: 10_000,
            min: 1,
            max: 600_000,
            doc: "request-liveness: every request completes (answer or error) within this",
        },
        Param {
            name: "b_start_ms",
            default: 100,
            min: 0,
            max: 60_000,
            doc: "turmoil only: when client-b sends its first request (client-a starts at 0)",
        },
    ],
    properties: &[
        (
            "request-liveness",
            "every request completes (answer or error) within request_deadline_ms",
        ),
        (
            "healthy-cluster-isolated",
            "a request for a cluster whose API server is up answers within healthy_deadline_ms",
        ),
        (
            "no-unsynced-read",
            "the gateway never answers a list from a cache that has not synced",
        ),
    ],
    main: Build::Rust(build),
    network: Some(&net::NETWORK),
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    Buggy,
    Timeout,
    Isolated,
}

#[derive(Clone, Copy, Debug)]
struct P {
    requests: [usize; 2],
    pods: usize,
    sync_timeout: Duration,
    healthy_deadline: Duration,
    request_deadline: Duration,
    /// turmoil only.
    b_start: Duration,
}

fn build(variant: &str, p: &Params) -> ModelFn {
    let (v, p) = settings(variant, p);
    Arc::new(move |go: &Go| gateway_run(go, v, p))
}

/// The variant and parameters both worlds read.
fn settings(variant: &str, p: &Params) -> (V, P) {
    let v = match variant {
        "buggy" => V::Buggy,
        "timeout" => V::Timeout,
        _ => V::Isolated,
    };
    let ms = |n: &str| Duration::from_millis(p.get(n) as u64);
    let p = P {
        requests: [p.usize("requests_a"), p.usize("requests_b")],
        pods: p.usize("pods"),
        sync_timeout: ms("sync_timeout_ms"),
        healthy_deadline: ms("healthy_deadline_ms"),
        request_deadline: ms("request_deadline_ms"),
        b_start: ms("b_start_ms"),
    };
    (v, p)
}

/// The clusters: cluster-a is paused (its API server is down), cluster-b is healthy.
const CLUSTERS: [(&str, bool); 2] = [("cluster-a", false), ("cluster-b", true)];

/// KubeClientManager: a client set and a started informer factory.
struct Manager {
    id: String,
    /// Closed by the informer once its first list has succeeded (`HasSynced`).
    synced: Chan<()>,
    /// The informer's store.
    store: Data<Option<Vec<String>>>,
    /// The informer factory's stop channel.
    stop: Chan<()>,
}

#[derive(Clone)]
struct Gateway {
    go: Go,
    v: V,
    p: P,
    /// KubernetesDataSource's embedded RWMutex.
    lock: RwMutex,
    /// `ClientSets map[ClusterName]*KubeClientManager`
    sets: Data<BTreeMap<&'static str, Arc<Manager>>>,
    /// isolated: clusters being initialised, each with the channel closed when it ends.
    inflight: Data<BTreeMap<&'static str, Chan<()>>>,
    /// Every manager ever created, per cluster, for the gateway's shutdown (model
    /// bookkeeping). Only the request that initialises a cluster adds to its list (under
    /// the write lock, or as the one in flight), so requests for two clusters never
    /// touch the same list.
    started: BTreeMap<&'static str, Data<Vec<Arc<Manager>>>>,
}

impl Gateway {
    /// newVClusterKubeClientManager + InformerFactory.Start: the informer runs in its own
    /// goroutine.
    fn start_manager(&self, cluster: &'static str, up: bool) -> Arc<Manager> {
        let go = &self.go;
        // The first manager of a cluster is `cluster-a`, the next `cluster-a#2`.
        let n = self.started[cluster].read(|s| s.len()) + 1;
        let id = if n == 1 {
            cluster.to_string()
        } else {
            format!("{cluster}#{n}")
        };
        let m = Arc::new(Manager {
            id: id.clone(),
            synced: go.chan(&format!("{id}.synced"), 0),
            store: go.data(&format!("{id}.store"), None),
            stop: go.chan(&format!("{id}.stopCh"), 0),
        });
        self.started[cluster].with(|s| s.push(m.clone()));
        let (m2, pods) = (m.clone(), self.p.pods);
        go.go(&format!("informer {id}"), move |go| {
            let _f = go.func("sharedIndexInformer.Run");
            if up {
                // The first list succeeds: Replace into the store, HasSynced is true.
                m2.store
                    .with(|s| *s = Some((1..=pods).map(|i| format!("pod-{i}")).collect()));
                m2.synced.close();
            } else {
                go.note(
                    "list: the API server does not answer; the reflector retries until stopped",
                );
            }
            m2.stop.recv();
        });
        m
    }

    /// WaitForCacheSync(stopCh, HasSynced): true once synced, false once stopped. The
    /// bounded variants stop it with a timer.
    fn wait_for_cache_sync(&self, m: &Manager) -> bool {
        let go = &self.go;
        let _f = go.func("cache.WaitForCacheSync");
        match self.v {
            // buggy: `vcStopCh := make(chan struct{})`, never closed.
            V::Buggy => go.select().recv(&m.synced).recv(&m.stop).wait().index == Some(0),
            // timeout (the seed's fix): a goroutine closes curStopCh when a 5 s context
            // ends; waiting on the timer's channel is that wait with one goroutine less.
            V::Timeout | V::Isolated => {
                let timer = go.after(&format!("{}.timeout", m.id), self.p.sync_timeout);
                go.select().recv(&m.synced).recv(&timer).wait().index == Some(0)
            }
        }
    }

    /// The cluster's manager, if `ClientSets` has one (under the read lock).
    fn lookup(&self, cluster: &str) -> Option<Arc<Manager>> {
        self.lock.rlock();
        let found = self.sets.read(|s| s.get(cluster).cloned());
        self.lock.runlock();
        found
    }

    /// GetClientManager: the read-locked lookup, then under the write lock the double
    /// check, then each variant's initialisation.
    fn get_client_manager(&self, cluster: &'static str, up: bool) -> Result<Arc<Manager>, String> {
        let _f = self.go.func("GetClientManager");
        if let Some(m) = self.lookup(cluster) {
            return Ok(m);
        }
        self.lock.lock();
        // Double-check if another goroutine has already created the clientManager.
        if let Some(m) = self.sets.read(|s| s.get(cluster).cloned()) {
            self.lock.unlock();
            return Ok(m);
        }
        if self.v == V::Isolated {
            return self.init_isolated(cluster, up);
        }
        let m = self.start_manager(cluster, up);
        // buggy and timeout: inserted before its cache has synced, and kept if it never does.
        self.sets.with(|s| s.insert(cluster, m.clone()));
        let synced = self.wait_for_cache_sync(&m);
        self.lock.unlock();
        if synced {
            Ok(m)
        } else {
            Err(format!("{cluster}: timed out waiting for caches to sync"))
        }
    }

    /// isolated, called with the write lock held: the lock guards only the maps; one
    /// request per cluster initialises it, and waits for the sync with no lock held; a
    /// manager that never synced is stopped and forgotten, so the next request tries
    /// again.
    fn init_isolated(&self, cluster: &'static str, up: bool) -> Result<Arc<Manager>, String> {
        let go = &self.go;
        if let Some(done) = self.inflight.read(|f| f.get(cluster).cloned()) {
            // Another request is initialising it: wait for that, bounded.
            self.lock.unlock();
            let timer = go.after(&format!("{cluster}.init-timeout"), self.p.sync_timeout);
            go.select().recv(&done).recv(&timer).wait();
            return self
                .lookup(cluster)
                .ok_or_else(|| format!("{cluster}: not available"));
        }
        let done = go.chan::<()>(&format!("{cluster}.init"), 0);
        self.inflight.with(|f| f.insert(cluster, done.clone()));
        self.lock.unlock();
        let m = self.start_manager(cluster, up);
        let synced = self.wait_for_cache_sync(&m);
        self.lock.lock();
        self.inflight.with(|f| f.remove(cluster));
        if synced {
            self.sets.with(|s| s.insert(cluster, m.clone()));
        }
        self.lock.unlock();
        done.close();
        if synced {
            Ok(m)
        } else {
            m.stop.close();
            Err(format!("{cluster}: timed out waiting for caches to sync"))
        }
    }

    /// GET /clusters/{name}/pods: the pods in the cluster's informer cache.
    fn list_pods(&self, cluster: &'static str, up: bool) -> Result<Vec<String>, String> {
        let m = self.get_client_manager(cluster, up)?;
        let go = &self.go;
        let _f = go.func("listPods");
        let cached = m.store.get();
        let pods = self.p.pods;
        go.check("no-unsynced-read", cached.is_some() || pods == 0, || {
            format!(
                "the gateway answered {cluster}'s pod list from a cache that never synced: an empty list, while its API server holds {pods} pod(s)"
            )
        });
        Ok(cached.unwrap_or_default())
    }
}

fn gateway_run(go: &Go, v: V, p: P) {
    let gw = Gateway {
        go: go.clone(),
        v,
        p,
        lock: go.rwmutex("ClientSets"),
        sets: go.data("ClientSets.sets", BTreeMap::new()),
        inflight: go.data("ClientSets.inflight", BTreeMap::new()),
        started: CLUSTERS
            .iter()
            .map(|&(c, _)| (c, go.data(&format!("{c}.managers"), Vec::new())))
            .collect(),
    };
    let clients = go.waitgroup("clients");
    for (i, &(cluster, up)) in CLUSTERS.iter().enumerate() {
        if p.requests[i] == 0 {
            continue;
        }
        clients.add(1);
        let (gw, wg) = (gw.clone(), clients.clone());
        go.go(&format!("client-{}", &cluster[8..]), move |go| {
            for _ in 0..p.requests[i] {
                let t0 = go.now();
                let r = gw.list_pods(cluster, up);
                let took = go.now() - t0;
                go.note(match &r {
                    Ok(pods) => format!("GET /clusters/{cluster}/pods: {} pod(s) after {took:?}", pods.len()),
                    Err(e) => format!("GET /clusters/{cluster}/pods: error after {took:?}: {e}"),
                });
                go.check("request-liveness", took <= p.request_deadline, || {
                    format!("the request for {cluster} took {took:?}, past its deadline of {:?}", p.request_deadline)
                });
                go.check("healthy-cluster-isolated", !up || took <= p.healthy_deadline, || {
                    format!(
                        "the request for {cluster}, whose API server is up, took {took:?} (allowed: {:?})",
                        p.healthy_deadline
                    )
                });
            }
            wg.done();
        });
    }
    clients.wait();
    // The gateway stops: every informer factory still running is stopped.
    let _f = go.func("shutdown");
    for m in gw.started.values().flat_map(|s| s.get()) {
        let stopped = go.select().recv(&m.stop).default().wait().index.is_some();
        if !stopped {
            m.stop.close();
        }
    }
}
