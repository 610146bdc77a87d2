//! status-manager: the kubelet's status.Manager at kubernetes 9a2089ad (October 2015),
//! before and after "Concurrency fixes in status.Manager"
//! (kubernetes PR #16223).
//!
//! Goroutines: main (the kubelet: starts the manager, the workers and the prober; at
//! the end lets the API recover, asks for one more batch, stops the manager and checks),
//! one pod worker per pod (`SetPodStatus`, then optionally `TerminatePods`), the prober
//! (`GetPodStatus`), the sync goroutine, and in the fixed variant the sync ticker.
//!
//! The fake API server records every status write with the version it carries. A
//! status's version is its place in the manager's cache: the fixed code numbers them
//! (`versionedPodStatus`); for the buggy code, which has no numbers, the model numbers
//! the statuses `SetPodStatus` caches the same way, and a status `TerminatePods` sends
//! straight from the pod object carries the version the pod object was built from (0).

use super::{Build, Model, Param, Params, Variant};
use crate::explore::ModelFn;
use crate::go::{Chan, Data, Go, Mutex, RwMutex, TryRecv};
use std::collections::BTreeMap;
use std::sync::Arc;

pub static MODEL: Model = Model {
    name: "status-manager",
    summary: "kubelet status.Manager, 2015: a blocking send under the statuses lock",
    origin: "kubernetes commit 9a2089ad, \"Concurrency fixes in status.Manager\" (PR #16223, 2015)",
    variants: &[
        Variant {
            name: "buggy",
            doc: "before the fix: blocking send under the lock; DeletePodStatus called synchronously from the sync goroutine",
        },
        Variant {
            name: "fixed",
            doc: "after the fix: non-blocking send, periodic syncBatch, versioned statuses, needsUpdate",
        },
    ],
    params: &[
        Param {
            name: "pods",
            default: 1,
            min: 1,
            max: 3,
            doc: "pods, each with its own pod worker",
        },
        Param {
            name: "updates",
            default: 2,
            min: 1,
            max: 6,
            doc: "SetPodStatus calls per pod worker",
        },
        Param {
            name: "terminate",
            default: 0,
            min: 0,
            max: 1,
            doc: "1: each worker ends with TerminatePods",
        },
        Param {
            name: "capacity",
            default: 1,
            min: 1,
            max: 1000,
            doc: "podStatusChannel capacity (the original is 1000)",
        },
        Param {
            name: "deleting",
            default: 0,
            min: 0,
            max: 1,
            doc: "1: the pods carry a deletion timestamp and all their containers are terminated (the path that deletes them)",
        },
        Param {
            name: "api_pod",
            default: 0,
            min: 0,
            max: 2,
            doc: "what the API server holds for each pod: 0 the pod, 1 nothing (not found), 2 a pod recreated with another UID",
        },
        Param {
            name: "get_errors",
            default: 0,
            min: 0,
            max: 3,
            doc: "the first N pod gets fail",
        },
        Param {
            name: "update_errors",
            default: 0,
            min: 0,
            max: 3,
            doc: "the first N status updates fail",
        },
        Param {
            name: "delete_errors",
            default: 0,
            min: 0,
            max: 3,
            doc: "the first N pod deletes fail",
        },
        Param {
            name: "probes",
            default: 0,
            min: 0,
            max: 3,
            doc: "GetPodStatus calls by the prober, per pod",
        },
        Param {
            name: "ticks",
            default: 1,
            min: 0,
            max: 3,
            doc: "fixed: times the sync ticker fires during the run",
        },
    ],
    properties: &[
        (
            "no-stale-update",
            "the API server never receives an older version of a pod's status after a newer one",
        ),
        (
            "cache-kept-on-failure",
            "while the API server still has the pod, the prober reads the status the workers set",
        ),
        (
            "eventually-synced",
            "once the workers are done and the API is healthy, the API holds each pod's latest status after the next batch",
        ),
    ],
    main: Build::Rust(build),
    network: None,
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum V {
    Buggy,
    Fixed,
}

#[derive(Clone, Copy, Debug)]
struct P {
    pods: usize,
    updates: u64,
    terminate: bool,
    capacity: usize,
    deleting: bool,
    api_pod: i64,
    get_errors: i64,
    update_errors: i64,
    delete_errors: i64,
    probes: usize,
    ticks: usize,
}

fn build(variant: &str, p: &Params) -> ModelFn {
    let v = if variant == "buggy" {
        V::Buggy
    } else {
        V::Fixed
    };
    let p = P {
        pods: p.usize("pods"),
        updates: p.get("updates") as u64,
        terminate: p.get("terminate") == 1,
        capacity: p.usize("capacity"),
        deleting: p.get("deleting") == 1,
        api_pod: p.get("api_pod"),
        get_errors: p.get("get_errors"),
        update_errors: p.get("update_errors"),
        delete_errors: p.get("delete_errors"),
        probes: p.usize("probes"),
        ticks: p.usize("ticks"),
    };
    Arc::new(move |go: &Go| kubelet(go, v, p))
}

/// A pod status: the version it carries, and whether its containers are terminated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Status {
    version: u64,
    terminated: bool,
}

/// The pod object a worker holds.
#[derive(Clone, Debug)]
struct Pod {
    name: String,
    uid: String,
    deletion_timestamp: bool,
    /// pod.Status as the pod object carries it.
    status: Status,
}

struct SyncRequest {
    uid: String,
    name: String,
    deletion_timestamp: bool,
    status: Status,
}

/// What the fake API server holds for one pod.
#[derive(Clone, Debug)]
struct ApiPod {
    uid: String,
    deletion_timestamp: bool,
    /// Versions of every status write, in order.
    writes: Vec<u64>,
    terminated: bool,
}

enum ApiError {
    NotFound,
    Failed,
}

/// The fake API server: its pods, and how many of the next calls fail.
#[derive(Default)]
struct Api {
    pods: BTreeMap<String, ApiPod>,
    get_errors: i64,
    update_errors: i64,
    delete_errors: i64,
}

#[derive(Clone)]
struct Manager {
    go: Go,
    v: V,
    /// podStatuses, guarded by podStatusesLock.
    pod_statuses: Data<BTreeMap<String, Status>>,
    pod_statuses_lock: RwMutex,
    pod_status_channel: Chan<SyncRequest>,
    /// fixed: apiStatusVersions, only touched by the sync goroutine.
    api_status_versions: Data<BTreeMap<String, u64>>,
    /// Model bookkeeping: the newest version the cache has held for each pod (numbers
    /// the buggy code's statuses; the target of eventually-synced).
    latest: Data<BTreeMap<String, u64>>,
    /// The fake API server, guarded by `api_lock`.
    api: Data<Api>,
    api_lock: Mutex,
}

impl Manager {
    /// SetPodStatus
    fn set_pod_status(&self, pod: &Pod, terminated: bool) {
        let _f = self.go.func("manager.SetPodStatus");
        self.pod_statuses_lock.lock();
        match self.v {
            V::Buggy => {
                let version = self.latest.with(|n| {
                    let e = n.entry(pod.uid.clone()).or_insert(0);
                    *e += 1;
                    *e
                });
                let status = Status {
                    version,
                    terminated,
                };
                self.pod_statuses
                    .with(|m| m.insert(pod.uid.clone(), status));
                // buggy: "m.podStatusChannel <- podStatusSyncRequest{pod, status}", a
                // blocking send with podStatusesLock held.
                self.pod_status_channel.send(self.request(pod, status));
            }
            V::Fixed => {
                if let Some(s) = self.update_status_internal(pod, terminated) {
                    // fixed: "We can't block, since we hold the mutex lock."
                    if !self.pod_status_channel.try_send(self.request(pod, s)) {
                        self.go
                            .note("channel full: the periodic syncBatch will send it");
                    }
                }
            }
        }
        self.pod_statuses_lock.unlock();
    }

    fn request(&self, pod: &Pod, status: Status) -> SyncRequest {
        SyncRequest {
            uid: pod.uid.clone(),
            name: pod.name.clone(),
            deletion_timestamp: pod.deletion_timestamp,
            status,
        }
    }

    /// fixed: updateStatusInternal (the caller holds the lock).
    fn update_status_internal(&self, pod: &Pod, terminated: bool) -> Option<Status> {
        let _f = self.go.func("manager.updateStatusInternal");
        let old = self.pod_statuses.read(|m| m.get(&pod.uid).copied());
        let status = Status {
            version: old.map_or(0, |o| o.version) + 1,
            terminated,
        };
        self.pod_statuses
            .with(|m| m.insert(pod.uid.clone(), status));
        self.latest
            .with(|l| l.insert(pod.uid.clone(), status.version));
        Some(status)
    }

    /// TerminatePods
    fn terminate_pods(&self, pods: &[Pod]) -> bool {
        let _f = self.go.func("manager.TerminatePods");
        let mut sent = true;
        self.pod_statuses_lock.lock();
        for pod in pods {
            let req = match self.v {
                // buggy: sends pod.Status (marked terminated) straight from the pod
                // object: not the cached status, and not recorded in the cache.
                V::Buggy => Some(self.request(
                    pod,
                    Status {
                        terminated: true,
                        ..pod.status
                    },
                )),
                // fixed: through updateStatusInternal, as a new version.
                V::Fixed => self
                    .update_status_internal(pod, true)
                    .map(|s| self.request(pod, s)),
            };
            match req {
                Some(r) => {
                    if !self.pod_status_channel.try_send(r) {
                        sent = false;
                        self.go
                            .note("termination notice dropped: the status channel is full");
                    }
                }
                None => sent = false,
            }
        }
        self.pod_statuses_lock.unlock();
        sent
    }

    /// GetPodStatus; with it, under the same lock, whether a worker has set a status
    /// for the pod (model bookkeeping, for the prober's check).
    fn get_pod_status(&self, uid: &str) -> (Option<Status>, bool) {
        let _f = self.go.func("manager.GetPodStatus");
        self.pod_statuses_lock.rlock();
        let s = self.pod_statuses.read(|m| m.get(uid).copied());
        let set = self.latest.read(|l| l.contains_key(uid));
        self.pod_statuses_lock.runlock();
        (s, set)
    }

    /// DeletePodStatus (buggy) / deletePodStatus (fixed)
    fn delete_pod_status(&self, uid: &str) {
        let _f = self.go.func("manager.DeletePodStatus");
        self.pod_statuses_lock.lock();
        self.pod_statuses.with(|m| m.remove(uid));
        self.pod_statuses_lock.unlock();
    }

    // ---- the fake API server: the sync goroutine's calls; main and the prober use `api` too ----

    /// One request to the fake API server, under its lock (client-go's fake clientset
    /// guards its object tracker with a mutex the same way).
    fn api<R>(&self, f: impl FnOnce(&mut Api) -> R) -> R {
        self.api_lock.lock();
        let r = self.api.with(f);
        self.api_lock.unlock();
        r
    }

    fn api_get(&self, name: &str) -> Result<ApiPod, ApiError> {
        let r = self.api(|a| {
            if a.get_errors > 0 {
                a.get_errors -= 1;
                return Err(ApiError::Failed);
            }
            a.pods.get(name).cloned().ok_or(ApiError::NotFound)
        });
        self.go.note(match &r {
            Ok(p) => format!(
                "API get {name}: uid {}{}",
                p.uid,
                if p.deletion_timestamp {
                    ", being deleted"
                } else {
                    ""
                }
            ),
            Err(ApiError::NotFound) => format!("API get {name}: not found"),
            Err(ApiError::Failed) => format!("API get {name}: error"),
        });
        r
    }

    fn api_update(&self, name: &str, s: Status) -> Result<ApiPod, ApiError> {
        let r = self.api(|a| {
            if a.update_errors > 0 {
                a.update_errors -= 1;
                return Err((ApiError::Failed, None));
            }
            let pod = a.pods.get_mut(name).ok_or((ApiError::NotFound, None))?;
            let newest = pod.writes.iter().copied().max();
            pod.writes.push(s.version);
            pod.terminated = s.terminated;
            match newest {
                Some(n) if n > s.version => Err((ApiError::Failed, Some(n))),
                _ => Ok(pod.clone()),
            }
        });
        match r {
            Ok(p) => {
                self.go
                    .note(format!("API update {name}: status version {}", s.version));
                Ok(p)
            }
            Err((_, Some(newest))) => {
                self.go.check("no-stale-update", false, || {
                    format!("the API server received version {} of {name}'s status after version {newest}", s.version)
                });
                unreachable!()
            }
            Err((e, None)) => {
                self.go
                    .note(format!("API update {name} (version {}): error", s.version));
                Err(e)
            }
        }
    }

    fn api_delete(&self, name: &str) -> Result<(), ApiError> {
        let r = self.api(|a| {
            if a.delete_errors > 0 {
                a.delete_errors -= 1;
                return Err(ApiError::Failed);
            }
            a.pods.remove(name).map(|_| ()).ok_or(ApiError::NotFound)
        });
        self.go.note(format!(
            "API delete {name}: {}",
            if r.is_ok() { "deleted" } else { "error" }
        ));
        r
    }

    // ---- the sync goroutine ----

    /// buggy: syncBatch, after its blocking receive.
    fn sync_batch_buggy(&self, req: SyncRequest) {
        let _f = self.go.func("manager.syncBatch");
        match self.api_get(&req.name) {
            Err(ApiError::NotFound) => return,
            Ok(pod) => {
                if pod.uid != req.uid {
                    // "Pod was deleted and then recreated, skipping status update"
                    return;
                }
                if let Ok(pod) = self.api_update(&req.name, req.status) {
                    if !req.deletion_timestamp || !pod.terminated {
                        return;
                    }
                    if self.api_delete(&req.name).is_ok() {
                        // buggy: m.DeletePodStatus(pod.UID), synchronously: it waits for
                        // the lock a worker may hold while blocked on the full channel.
                        self.delete_pod_status(&req.uid);
                        return;
                    }
                }
            }
            Err(ApiError::Failed) => {}
        }
        // buggy: "We failed to update status. In order to make sure we retry next
        // time we delete cached value." go m.DeletePodStatus(pod.UID)
        let (m, uid) = (self.clone(), req.uid.clone());
        self.go
            .go("delete-pod-status", move |_| m.delete_pod_status(&uid));
    }

    /// fixed: needsUpdate
    fn needs_update(&self, uid: &str, s: Status) -> bool {
        self.api_status_versions
            .read(|v| v.get(uid).is_none_or(|&latest| latest < s.version))
    }

    /// fixed: syncPod
    fn sync_pod(&self, uid: &str, name: &str, deletion_timestamp: bool, s: Status) {
        let _f = self.go.func("manager.syncPod");
        if !self.needs_update(uid, s) {
            self.go.note(format!(
                "status version {} of {name} is up to date: skipped",
                s.version
            ));
            return;
        }
        match self.api_get(name) {
            Err(ApiError::NotFound) => self.delete_pod_status(uid),
            Ok(pod) if pod.uid != uid => self.delete_pod_status(uid),
            Ok(_) => {
                if let Ok(pod) = self.api_update(name, s) {
                    self.api_status_versions
                        .with(|v| v.insert(uid.to_string(), s.version));
                    if !deletion_timestamp || !pod.terminated {
                        return;
                    }
                    if self.api_delete(name).is_ok() {
                        self.delete_pod_status(uid);
                    }
                }
                // fixed: "We failed to update status, wait for periodic sync to retry."
            }
            Err(ApiError::Failed) => {}
        }
    }

    /// fixed: syncBatch
    fn sync_batch(&self, pods: &BTreeMap<String, (String, bool)>) {
        let _f = self.go.func("manager.syncBatch");
        self.pod_statuses_lock.rlock();
        let statuses = self.pod_statuses.get();
        self.api_status_versions
            .with(|v| v.retain(|uid, _| statuses.contains_key(uid)));
        let updates: Vec<(String, Status)> = statuses
            .into_iter()
            .filter(|(uid, s)| self.needs_update(uid, *s))
            .collect();
        self.pod_statuses_lock.runlock();
        for (uid, s) in updates {
            let (name, deleting) = pods[&uid].clone();
            self.sync_pod(&uid, &name, deleting, s);
        }
    }
}

/// The kubelet: the manager, its goroutines, the workers, the prober; then the checks.
fn kubelet(go: &Go, v: V, p: P) {
    let pods: Vec<Pod> = (1..=p.pods)
        .map(|i| Pod {
            name: format!("pod-{i}"),
            uid: format!("uid-{i}"),
            deletion_timestamp: p.deleting,
            status: Status {
                version: 0,
                terminated: false,
            },
        })
        .collect();
    let mut api = Api {
        get_errors: p.get_errors,
        update_errors: p.update_errors,
        delete_errors: p.delete_errors,
        ..Api::default()
    };
    for pod in &pods {
        let uid = match p.api_pod {
            1 => continue,
            2 => format!("{}-recreated", pod.uid),
            _ => pod.uid.clone(),
        };
        api.pods.insert(
            pod.name.clone(),
            ApiPod {
                uid,
                deletion_timestamp: pod.deletion_timestamp,
                writes: Vec::new(),
                terminated: false,
            },
        );
    }
    let m = Manager {
        go: go.clone(),
        v,
        pod_statuses: go.data("podStatuses", BTreeMap::new()),
        pod_statuses_lock: go.rwmutex("podStatusesLock"),
        pod_status_channel: go.chan("podStatusChannel", p.capacity),
        api_status_versions: go.data("apiStatusVersions", BTreeMap::new()),
        latest: go.data("latest", BTreeMap::new()),
        api: go.data("apiserver", api),
        api_lock: go.mutex("apiserver.lock"),
    };
    let by_uid: BTreeMap<String, (String, bool)> = pods
        .iter()
        .map(|pd| (pd.uid.clone(), (pd.name.clone(), pd.deletion_timestamp)))
        .collect();

    // manager.Start
    let stop = go.chan::<()>("stopCh", 0);
    let synced = go.waitgroup("syncLoop");
    let flush = (v == V::Fixed).then(|| go.chan::<()>("syncTicker", 1));
    synced.add(1);
    {
        let _f = go.func("manager.Start");
        let (m2, stop2, synced2, flush2, by_uid2) = (
            m.clone(),
            stop.clone(),
            synced.clone(),
            flush.clone(),
            by_uid.clone(),
        );
        go.go("sync", move |go| {
            sync_loop(&go, &m2, &stop2, flush2.as_ref(), &by_uid2);
            synced2.done();
        });
        if let Some(t) = &flush
            && p.ticks > 0
        {
            let tick = t.clone();
            go.go("sync-ticker", move |_| {
                for _ in 0..p.ticks {
                    // time.Tick: a tick that finds the channel full is dropped.
                    tick.try_send(());
                }
            });
        }
    }

    let workers = go.waitgroup("workers");
    workers.add((p.pods + usize::from(p.probes > 0)) as i64);
    for pod in &pods {
        let (m2, pod2, wg) = (m.clone(), pod.clone(), workers.clone());
        go.go(&format!("pod-worker-{}", &pod.name[4..]), move |go| {
            let _f = go.func("podWorker");
            for _ in 0..p.updates {
                m2.set_pod_status(&pod2, pod2.deletion_timestamp);
            }
            if p.terminate {
                m2.terminate_pods(std::slice::from_ref(&pod2));
            }
            wg.done();
        });
    }
    if p.probes > 0 {
        let (m2, pods2, wg) = (m.clone(), pods.clone(), workers.clone());
        go.go("prober", move |go| {
            let _f = go.func("prober.worker");
            for _ in 0..p.probes {
                for pod in &pods2 {
                    probe(&go, &m2, pod);
                }
            }
            wg.done();
        });
    }
    workers.wait();

    // The API recovers; one more batch (fixed: a tick of the sync ticker); stop.
    let _f = go.func("kubelet.shutdown");
    m.api(|a| {
        a.get_errors = 0;
        a.update_errors = 0;
        a.delete_errors = 0;
    });
    if let Some(t) = &flush {
        t.send(());
    }
    stop.close();
    synced.wait();
    check_synced(go, &m, &pods);
}

/// The sync goroutine's loop. Go loops forever; the model adds a stop case so the
/// goroutine ends when the kubelet stops. A loop that runs forever handles whatever is
/// pending, so the stop case does too before it returns: Go picks among ready cases at
/// random, and a stop taken over a pending request would end the loop early, which
/// the real loop never does.
fn sync_loop(
    go: &Go,
    m: &Manager,
    stop: &Chan<()>,
    tick: Option<&Chan<()>>,
    pods: &BTreeMap<String, (String, bool)>,
) {
    let _f = go.func("manager.syncLoop");
    loop {
        match tick {
            // buggy: util.Until(syncBatch): "syncBatch blocks when no updates are
            // available" (a blocking receive).
            None => {
                let mut f = go.select().recv(&m.pod_status_channel).recv(stop).wait();
                match (f.index, f.take::<SyncRequest>()) {
                    (Some(0), Some(req)) => m.sync_batch_buggy(req),
                    _ => {
                        // Stopping: what is still in the channel first.
                        while let TryRecv::Value(req) = m.pod_status_channel.try_recv() {
                            m.sync_batch_buggy(req);
                        }
                        return;
                    }
                }
            }
            // fixed: select over the status channel and the ticker.
            Some(t) => {
                let mut f = go
                    .select()
                    .recv(&m.pod_status_channel)
                    .recv(t)
                    .recv(stop)
                    .wait();
                match f.index {
                    Some(0) => {
                        let r = f
                            .take::<SyncRequest>()
                            .expect("the status channel is never closed");
                        m.sync_pod(&r.uid, &r.name, r.deletion_timestamp, r.status)
                    }
                    Some(1) => m.sync_batch(pods),
                    _ => {
                        // Stopping: what is still pending first.
                        loop {
                            let mut f = go
                                .select()
                                .recv(&m.pod_status_channel)
                                .recv(t)
                                .default()
                                .wait();
                            match f.index {
                                Some(0) => {
                                    let r = f.take::<SyncRequest>().expect("never closed");
                                    m.sync_pod(&r.uid, &r.name, r.deletion_timestamp, r.status)
                                }
                                Some(_) => m.sync_batch(pods),
                                None => return,
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The prober reads the status. While the API server still has the pod (same UID) and
/// a worker has set a status, the cache must have one. (The API server only ever loses
/// the pod, so reading it after the locked read is sound.)
fn probe(go: &Go, m: &Manager, pod: &Pod) {
    let (got, set) = m.get_pod_status(&pod.uid);
    let on_api = m.api(|a| a.pods.get(&pod.name).is_some_and(|x| x.uid == pod.uid));
    go.note(format!(
        "probe {}: {}",
        pod.name,
        got.map_or("no status".into(), |s| format!(
            "status version {}",
            s.version
        ))
    ));
    go.check("cache-kept-on-failure", got.is_some() || !set || !on_api, || {
        format!(
            "the prober found no status for {} although a worker set one and the API server still has the pod",
            pod.name
        )
    });
}

/// eventually-synced: each pod still on the API server holds the latest status.
fn check_synced(go: &Go, m: &Manager, pods: &[Pod]) {
    for pod in pods {
        let api = m.api(|a| a.pods.get(&pod.name).cloned());
        let Some(api) = api else { continue };
        if api.uid != pod.uid {
            continue;
        }
        let latest = m.latest.read(|l| l.get(&pod.uid).copied());
        let Some(latest) = latest else { continue };
        let have = api.writes.last().copied();
        go.check("eventually-synced", have == Some(latest), || {
            format!(
                "after the workers finished and the API recovered, the API server holds version {} of {}'s status; the kubelet's latest is {latest}",
                have.map_or("none".to_string(), |h| h.to_string()),
                pod.name
            )
        });
    }
}
