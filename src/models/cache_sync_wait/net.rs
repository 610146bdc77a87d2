//! cache-sync-wait on the network: the gateway, one API server per cluster and two
//! clients, each a turmoil host speaking HTTP/1.1. Which cluster is paused is up to
//! the fault plan (`crash apiserver-a` at 0 s pauses cluster-a).
//!
//! - `apiserver-a`, `apiserver-b`: `GET /api/v1/pods` answers the cluster's pods.
//! - `gateway`: `GET /clusters/{name}/pods`; `ClientSets` behind one named RwLock;
//!   `GetClientManager` as in the seed; per manager an informer whose reflector lists
//!   over HTTP and retries with client-go's backoff; `WaitForCacheSync` polls every 100 ms.
//! - `client-a`, `client-b`: requests one after another, each with a deadline; they
//!   check the properties as answers arrive (or do not).

use super::super::{Network, Params};
use super::{P, V, settings};
use crate::net::{self, NetFn, Reply, Request, RwLock, Setup, SplitMix, Trace, secs};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

pub static NETWORK: Network = Network {
    hosts: &[
        (
            "gateway",
            "serves GET /clusters/{name}/pods from per-cluster informer caches",
        ),
        ("apiserver-a", "cluster-a's API server: GET /api/v1/pods"),
        ("apiserver-b", "cluster-b's API server: GET /api/v1/pods"),
    ],
    clients: &[
        (
            "client-a",
            "requests_a requests for cluster-a from 0 s, one after another",
        ),
        (
            "client-b",
            "requests_b requests for cluster-b from b_start_ms, one after another",
        ),
    ],
    drawn_hosts: &["apiserver-a", "apiserver-b"],
    drawn_links: &[("gateway", "apiserver-a"), ("gateway", "apiserver-b")],
    drawn_window: Duration::from_secs(2),
    build,
};

/// The reflector's own request timeout for a list.
const LIST_TIMEOUT: Duration = Duration::from_secs(1);
/// Watch as a periodic relist.
const RELIST: Duration = Duration::from_secs(5);
/// client-go's reflector backoff: 800 ms doubling to 30 s, jitter factor 1.0.
const BACKOFF_START: Duration = Duration::from_millis(800);
const BACKOFF_MAX: Duration = Duration::from_secs(30);
/// `WaitForCacheSync` polls `HasSynced` this often.
const POLL: Duration = Duration::from_millis(100);

fn build(variant: &str, params: &Params) -> NetFn {
    let (v, p) = settings(variant, params);
    Arc::new(move |s: &mut Setup| setup(s, v, p))
}

fn apiserver(cluster: &str) -> String {
    format!("apiserver-{}", cluster.trim_start_matches("cluster-"))
}

fn setup(s: &mut Setup, v: V, p: P) {
    for c in ["cluster-a", "cluster-b"] {
        let host = apiserver(c);
        let trace = s.trace.clone();
        s.host(&host.clone(), move || {
            let (trace, host) = (trace.clone(), host.clone());
            let pods: Vec<String> = (0..p.pods).map(|i| format!("{c}/pod-{i}")).collect();
            net::serve(80, move |_req: Request| {
                trace.step(&host, format!("list: {} pods", pods.len()));
                let body = pods.join("\n");
                async move { Reply::ok(body) }
            })
        });
    }
    let (trace, seed) = (s.trace.clone(), s.seed);
    s.host("gateway", move || {
        let gw = Rc::new(Gateway {
            v,
            p,
            trace: trace.clone(),
            sets: RwLock::new("ClientSets", BTreeMap::new(), &trace),
            jitter: RefCell::new(SplitMix(seed)),
        });
        net::serve(80, move |req| handle(gw.clone(), req))
    });
    for (x, n, start) in [
        ("a", p.requests[0], Duration::ZERO),
        ("b", p.requests[1], p.b_start),
    ] {
        let trace = s.trace.clone();
        s.client(&format!("client-{x}"), async move {
            client(&trace, p, x, n, start).await;
            Ok(())
        });
    }
}

/// KubeClientManager: the informer's store and its state.
struct Manager {
    cluster: String,
    pods: RefCell<Vec<String>>,
    synced: Cell<bool>,
    stopped: Cell<bool>,
}

/// isolated: one initialisation per cluster; later requests join it.
#[derive(Default)]
struct Init {
    done: tokio::sync::Notify,
    result: RefCell<Option<Result<Rc<Manager>, String>>>,
}

#[derive(Clone)]
enum Entry {
    Ready(Rc<Manager>),
    Pending(Rc<Init>),
}

struct Gateway {
    v: V,
    p: P,
    trace: Trace,
    sets: RwLock<BTreeMap<String, Entry>>,
    jitter: RefCell<SplitMix>,
}

async fn handle(gw: Rc<Gateway>, req: Request) -> Reply {
    let who = format!("gateway {}", req.id);
    let cluster = req
        .path
        .strip_prefix("/clusters/")
        .and_then(|r| r.strip_suffix("/pods"))
        .filter(|c| ["cluster-a", "cluster-b"].contains(c))
        .map(str::to_string);
    let Some(cluster) = cluster else {
        return Reply::error(404, "no such cluster");
    };
    gw.trace.step(&who, format!("GET {}", req.path));
    let reply = match gw.get_client_manager(&cluster, &who).await {
        Err(e) => Reply::error(503, e),
        Ok(m) => {
            // timeout: a manager whose cache never synced answers from its empty store.
            let pods = m.pods.borrow().clone();
            let state = if m.synced.get() {
                "synced"
            } else {
                "NOT synced"
            };
            gw.trace.step(
                &who,
                format!(
                    "reads {} pods from the {state} cache of {cluster}",
                    pods.len()
                ),
            );
            Reply::ok(pods.join("\n"))
        }
    };
    let text = if reply.status == 200 {
        String::new()
    } else {
        format!(": {}", reply.body)
    };
    gw.trace
        .step(&who, format!("answers {}{text}", reply.status));
    gw.trace.done(&who);
    reply
}

impl Gateway {
    /// GetClientManager: read-locked lookup, then the write lock and a double check.
    async fn get_client_manager(
        self: &Rc<Self>,
        c: &str,
        who: &str,
    ) -> Result<Rc<Manager>, String> {
        let found = self.sets.read(who).await.get(c).cloned();
        if let Some(e) = found {
            return self.use_entry(e, c, who).await;
        }
        let mut sets = self.sets.write(who).await;
        if let Some(e) = sets.get(c).cloned() {
            drop(sets);
            return self.use_entry(e, c, who).await;
        }
        let m = Rc::new(Manager {
            cluster: c.to_string(),
            pods: RefCell::new(Vec::new()),
            synced: Cell::new(false),
            stopped: Cell::new(false),
        });
        if self.v == V::Isolated {
            let init = Rc::new(Init::default());
            sets.insert(c.to_string(), Entry::Pending(init.clone()));
            drop(sets);
            return self.init_isolated(m, init, who).await;
        }
        // buggy, timeout: as the seed, the manager goes into the map before its cache
        // has synced, and the wait happens under the write lock.
        sets.insert(c.to_string(), Entry::Ready(m.clone()));
        self.start_informer(&m, who);
        let synced = self.wait_for_cache_sync(&m, who).await;
        drop(sets);
        if synced {
            Ok(m)
        } else {
            // timeout: the request fails, but the unsynced manager stays in the map.
            Err(format!("failed to sync the cache of {c}"))
        }
    }

    async fn use_entry(&self, e: Entry, c: &str, who: &str) -> Result<Rc<Manager>, String> {
        let init = match e {
            Entry::Ready(m) => return Ok(m),
            Entry::Pending(i) => i,
        };
        if let Some(r) = init.result.borrow().clone() {
            return r;
        }
        self.trace.waits(
            who,
            format!("the initialisation of {c} by an earlier request"),
        );
        let r = tokio::time::timeout(self.p.sync_timeout, init.done.notified()).await;
        self.trace.done(who);
        match (r, init.result.borrow().clone()) {
            (Ok(()), Some(r)) => r,
            _ => Err(format!("timed out waiting for the initialisation of {c}")),
        }
    }

    /// isolated: the wait holds no global lock; a failed manager is stopped and forgotten.
    async fn init_isolated(
        &self,
        m: Rc<Manager>,
        init: Rc<Init>,
        who: &str,
    ) -> Result<Rc<Manager>, String> {
        let c = m.cluster.clone();
        self.start_informer(&m, who);
        let synced = self.wait_for_cache_sync(&m, who).await;
        let mut sets = self.sets.write(who).await;
        let r = if synced {
            sets.insert(c.clone(), Entry::Ready(m.clone()));
            Ok(m)
        } else {
            sets.remove(&c);
            m.stopped.set(true);
            self.trace.step(
                who,
                format!("stops the informer of {c} and forgets its manager"),
            );
            Err(format!("failed to sync the cache of {c}"))
        };
        drop(sets);
        *init.result.borrow_mut() = Some(r.clone());
        init.done.notify_waiters();
        r
    }

    fn start_informer(&self, m: &Rc<Manager>, who: &str) {
        self.trace
            .step(who, format!("starts the informer of {}", m.cluster));
        let seed = self.jitter.borrow_mut().next_u64();
        tokio::task::spawn_local(reflector(m.clone(), self.trace.clone(), SplitMix(seed)));
    }

    /// client-go's WaitForCacheSync: poll `HasSynced` every 100 ms until synced or the
    /// stop channel closes. buggy: it never closes; otherwise a timer closes it.
    async fn wait_for_cache_sync(&self, m: &Manager, who: &str) -> bool {
        let stop = Rc::new(Cell::new(false));
        let how = if self.v == V::Buggy {
            "its stop channel never closes".to_string()
        } else {
            let (stop, t, trace) = (stop.clone(), self.p.sync_timeout, self.trace.clone());
            let w = format!("{who} timer");
            tokio::task::spawn_local(async move {
                tokio::time::sleep(t).await;
                stop.set(true);
                trace.step(&w, "timer: closes the wait's stop channel");
            });
            format!(
                "a timer closes its stop channel at {}",
                secs(self.trace.now() + t)
            )
        };
        let c = &m.cluster;
        self.trace.step(
            who,
            format!("WaitForCacheSync {c}: polls HasSynced every 100ms; {how}"),
        );
        self.trace
            .waits(who, format!("the cache sync of {c} ({how})"));
        let mut polls = 0;
        let synced = loop {
            if m.synced.get() {
                break true;
            }
            if stop.get() {
                break false;
            }
            tokio::time::sleep(POLL).await;
            polls += 1;
        };
        self.trace.done(who);
        let end = if synced {
            "synced"
        } else {
            "stop channel closed, gives up"
        };
        self.trace.step(
            who,
            format!("WaitForCacheSync {c}: {end} after {polls} polls"),
        );
        synced
    }
}

/// The reflector: list, Replace into the store, HasSynced after the first success;
/// on failure client-go's backoff with jitter; a relist every 5 s stands for the watch.
async fn reflector(m: Rc<Manager>, trace: Trace, mut rng: SplitMix) {
    let who = format!("informer {}", m.cluster);
    let server = apiserver(&m.cluster);
    let mut backoff = BACKOFF_START;
    while !m.stopped.get() {
        trace.waits(
            &who,
            format!(
                "an HTTP response from {server} (list, timeout {})",
                secs(LIST_TIMEOUT)
            ),
        );
        let r = net::get(&server, 80, "/api/v1/pods", &who, LIST_TIMEOUT).await;
        if m.stopped.get() {
            break;
        }
        match r {
            Ok(rep) if rep.status == 200 => {
                let pods: Vec<String> = rep.body.lines().map(str::to_string).collect();
                let n = pods.len();
                *m.pods.borrow_mut() = pods;
                let first = !m.synced.replace(true);
                let s = if first { ", HasSynced true" } else { "" };
                trace.step(&who, format!("list: {n} pods, Replace into the store{s}"));
                backoff = BACKOFF_START;
                trace.waits(
                    &who,
                    format!("the next relist at {}", secs(trace.now() + RELIST)),
                );
                tokio::time::sleep(RELIST).await;
            }
            other => {
                let e = match other {
                    Ok(rep) => format!("status {}", rep.status),
                    Err(e) => e,
                };
                let jitter = backoff.mul_f64(rng.below(1000) as f64 / 1000.0);
                let d = backoff + jitter;
                trace.step(&who, format!("list failed ({e}); retries in {}", secs(d)));
                trace.waits(
                    &who,
                    format!(
                        "its backoff until {} (list failed: {e})",
                        secs(trace.now() + d)
                    ),
                );
                tokio::time::sleep(d).await;
                backoff = (backoff * 2).min(BACKOFF_MAX);
            }
        }
    }
    trace.done(&who);
    trace.step(&who, "stopped");
}

/// A client: `n` requests for `cluster-{x}`, one after another, from `start`. It checks
/// the three properties as answers arrive or deadlines pass.
async fn client(trace: &Trace, p: P, x: &str, n: usize, start: Duration) {
    let me = format!("client-{x}");
    let cluster = format!("cluster-{x}");
    let server = apiserver(&cluster);
    let path = format!("/clusters/{cluster}/pods");
    if !start.is_zero() {
        tokio::time::sleep(start).await;
    }
    for i in 1..=n {
        let id = format!("{x}#{i}");
        let req = format!("request {id}");
        let sent = trace.now();
        trace.step(
            &me,
            format!(
                "GET {path} ({id}), deadline {}",
                secs(sent + p.request_deadline)
            ),
        );
        trace.waits(&req, format!("an HTTP response from gateway (GET {path})"));
        let fut = net::get("gateway", 80, &path, &id, p.request_deadline);
        tokio::pin!(fut);
        let r = match tokio::time::timeout(p.healthy_deadline, &mut fut).await {
            Ok(r) => r,
            Err(_) => {
                if trace.reachable(&server, "gateway", sent) {
                    trace.broken(
                        "healthy-cluster-isolated",
                        format!(
                            "request {id} for {cluster}, sent at {}, has no answer after {} although {server} has been reachable all along",
                            secs(sent),
                            secs(p.healthy_deadline)
                        ),
                    );
                }
                fut.await
            }
        };
        // The property is checked before the request stops waiting, so that a broken
        // liveness shows the request in the chain.
        match r {
            Err(e) if e.starts_with("timed out") => {
                trace.broken(
                    "request-liveness",
                    format!(
                        "request {id} for {cluster}, sent at {}, has no answer by its deadline {}",
                        secs(sent),
                        secs(sent + p.request_deadline)
                    ),
                );
            }
            Err(e) => trace.step(&me, format!("{id}: error: {e}")),
            Ok(rep) if rep.status != 200 => {
                trace.step(&me, format!("{id}: {} {}", rep.status, rep.body));
            }
            Ok(rep) => {
                trace.done(&req);
                let count = rep.body.lines().count();
                trace.step(&me, format!("{id}: 200 with {count} pods"));
                if count == 0 && p.pods > 0 {
                    trace.broken(
                        "no-unsynced-read",
                        format!(
                            "request {id} for {cluster} got 200 with an empty pod list at {} while {server} holds {} pods",
                            secs(trace.now()),
                            p.pods
                        ),
                    );
                }
            }
        }
        trace.done(&req);
    }
}
