//! informer-processor: the start-up deadlock of a Go operator SDK's informerProcessor
//! (grafana/grafana-app-sdk PR #359), the fix, and what each half of it trades.
//!
//! Goroutines: main (CustomCacheInformer's start-up: it starts `informerProcessor.run`
//! in a goroutine, then runs the controller, which calls `distribute` for each event),
//! the processor, and per listener its `run` and `pop` goroutines.
//!
//! `distribute` holds `listenersMux` for reading while it pushes into each listener's
//! channel (unbuffered in the original). Nobody pops before `run` has started the
//! listeners, and `run` needs `listenersMux` for writing to start them: a controller
//! that gets there first blocks the processor forever.

use super::{Build, Model, Param, Params, Variant};
use crate::explore::ModelFn;
use crate::go::{Chan, Data, Go, RwMutex, Var, WaitGroup};
use std::sync::Arc;

pub static MODEL: Model = Model {
    name: "informer-processor",
    summary: "informerProcessor: distribute holds listenersMux while pushing to listeners nobody pops yet",
    origin: "grafana/grafana-app-sdk PR #359, \"[CustomCacheInformer] Fix startup race condition between controller and processor\" (2024)",
    variants: &[
        Variant {
            name: "buggy",
            doc: "before the fix: no start-up ordering, no dropping",
        },
        Variant {
            name: "fixed",
            doc: "startedCh ordering, and distribute drops events that arrive before `started`",
        },
        Variant {
            name: "started-signal-only",
            doc: "only the startedCh ordering",
        },
        Variant {
            name: "drop-only",
            doc: "only the dropping (with its warning, counted)",
        },
        Variant {
            name: "unbounded-buffer",
            doc: "each listener queues without bound, so distribute never blocks under the lock",
        },
    ],
    params: &[
        Param {
            name: "listeners",
            default: 1,
            min: 1,
            max: 3,
            doc: "listeners (ResourceWatchers); each has a run and a pop goroutine",
        },
        Param {
            name: "capacity",
            default: 0,
            min: 0,
            max: 2,
            doc: "capacity of each listener's channel (the original is unbuffered)",
        },
        Param {
            name: "events",
            default: 2,
            min: 1,
            max: 4,
            doc: "events the controller distributes",
        },
        Param {
            name: "controller_may_start_first",
            default: 1,
            min: 0,
            max: 1,
            doc: "1: start-up gives no ordering (as in the seed); 0: the controller starts after the processor",
        },
    ],
    properties: &[(
        "no-lost-events",
        "every event the controller distributes reaches every listener exactly once, in order",
    )],
    main: Build::Rust(build),
    network: None,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum V {
    Buggy,
    Fixed,
    SignalOnly,
    DropOnly,
    Unbounded,
}

impl V {
    fn signals(self) -> bool {
        matches!(self, V::Fixed | V::SignalOnly)
    }

    fn drops(self) -> bool {
        matches!(self, V::Fixed | V::DropOnly)
    }
}

#[derive(Clone, Copy)]
struct P {
    listeners: usize,
    capacity: usize,
    events: usize,
    controller_first: bool,
}

fn build(variant: &str, p: &Params) -> ModelFn {
    let v = match variant {
        "buggy" => V::Buggy,
        "fixed" => V::Fixed,
        "started-signal-only" => V::SignalOnly,
        "drop-only" => V::DropOnly,
        _ => V::Unbounded,
    };
    let p = P {
        listeners: p.usize("listeners"),
        capacity: p.usize("capacity"),
        events: p.usize("events"),
        controller_first: p.get("controller_may_start_first") == 1,
    };
    Arc::new(move |go: &Go| informer_run(go, v, p))
}

#[derive(Clone)]
struct Listener {
    name: String,
    add_ch: Chan<u64>,
    next_ch: Chan<u64>,
    /// What the listener's handler (the ResourceWatcher) received.
    got: Data<Vec<u64>>,
}

impl Listener {
    /// informerProcessorListener.push
    fn push(&self, go: &Go, e: u64) {
        let _f = go.func("informerProcessorListener.push");
        self.add_ch.send(e);
    }

    /// informerProcessorListener.pop: from the channel distribute pushes into, to run.
    fn pop(&self, go: &Go) {
        let _f = go.func("informerProcessorListener.pop");
        while let Some(e) = self.add_ch.recv() {
            self.next_ch.send(e);
        }
        self.next_ch.close();
    }

    /// informerProcessorListener.run: hands each event to the ResourceWatcher.
    fn run(&self, go: &Go) {
        let _f = go.func("informerProcessorListener.run");
        while let Some(e) = self.next_ch.recv() {
            self.got.with(|g| g.push(e));
        }
    }
}

#[derive(Clone)]
struct Processor {
    go: Go,
    listeners_mux: RwMutex,
    listeners: Vec<Listener>,
    /// fix: set by run once the listeners are started; read by distribute without the lock.
    started: Option<Var<bool>>,
    /// fix: "an optional field startedCh, which, if non-nil, it will send an empty struct
    /// to when run has completed its startup process".
    started_ch: Option<Chan<()>>,
    /// fix: the warnings distribute logs for dropped events.
    dropped: Data<u64>,
}

impl Processor {
    fn new(go: &Go, v: V, p: P) -> Processor {
        // unbounded-buffer: a queue that never fills for this workload.
        let cap = if v == V::Unbounded {
            p.events
        } else {
            p.capacity
        };
        let listeners = (1..=p.listeners)
            .map(|i| {
                let name = if p.listeners == 1 {
                    "listener".to_string()
                } else {
                    format!("listener-{i}")
                };
                Listener {
                    add_ch: go.chan(&format!("{name}.addCh"), cap),
                    next_ch: go.chan(&format!("{name}.nextCh"), 0),
                    got: go.data(&format!("{name}.got"), Vec::new()),
                    name,
                }
            })
            .collect();
        Processor {
            go: go.clone(),
            listeners_mux: go.rwmutex("listenersMux"),
            listeners,
            started: v
                .drops()
                .then(|| go.var("informerProcessor.started", false)),
            started_ch: (v.signals() || !p.controller_first).then(|| go.chan("startedCh", 0)),
            dropped: go.data("dropped", 0),
        }
    }

    /// informerProcessor.run; `handlers` counts the listeners' run goroutines.
    fn run(&self, stop_ch: &Chan<()>, handlers: &WaitGroup) {
        let go = &self.go;
        let _f = go.func("informerProcessor.run");
        self.listeners_mux.lock();
        for l in &self.listeners {
            let (a, b, h) = (l.clone(), l.clone(), handlers.clone());
            go.go(&format!("{}.run", l.name), move |go| {
                a.run(&go);
                h.done();
            });
            go.go(&format!("{}.pop", l.name), move |go| b.pop(&go));
        }
        if let Some(s) = &self.started {
            s.set(true);
        }
        self.listeners_mux.unlock();
        // fix: "if non-nil, it will send an empty struct to when run has completed its startup".
        if let Some(c) = &self.started_ch {
            c.send(());
        }
        stop_ch.recv();
        // On stop: close every listener's channel; pop and run drain and return.
        self.listeners_mux.rlock();
        for l in &self.listeners {
            l.add_ch.close();
        }
        self.listeners_mux.runlock();
    }

    /// informerProcessor.distribute
    fn distribute(&self, e: u64) {
        let go = &self.go;
        let _f = go.func("informerProcessor.distribute");
        // fix: drop events that arrive before `started` (read without the lock).
        if let Some(s) = &self.started
            && !s.get()
        {
            go.note(format!(
                "warning: dropping event {e}: the informer processor has not started"
            ));
            self.dropped.with(|d| *d += 1);
            return;
        }
        // buggy: holds listenersMux for reading while pushing into listener channels
        // that nobody pops before run has started the listeners.
        self.listeners_mux.rlock();
        for l in &self.listeners {
            l.push(go, e);
        }
        self.listeners_mux.runlock();
    }
}

/// CustomCacheInformer's start-up: the processor in its own goroutine, then the
/// controller on this one (as client-go's sharedIndexInformer.Run does); then shutdown
/// and the check.
fn informer_run(go: &Go, v: V, p: P) {
    let processor = Processor::new(go, v, p);
    let stop_ch = go.chan::<()>("stopCh", 0);
    let handlers = go.waitgroup("handlers");
    handlers.add(p.listeners as i64);
    {
        let _f = go.func("CustomCacheInformer.Run");
        let (pr, stop, h) = (processor.clone(), stop_ch.clone(), handlers.clone());
        // "the startup of CustomCacheInformer is done in a goroutine, so there are no
        // sequential guarantees"
        go.go("processor", move |_| pr.run(&stop, &h));
        // fix: the controller runs only once the processor has started.
        if let Some(c) = &processor.started_ch {
            c.recv();
        }
        let _c = go.func("controller.Run");
        for e in 1..=p.events as u64 {
            processor.distribute(e);
        }
    }
    // Shutdown: stop the processor; its listeners drain and return.
    {
        let _f = go.func("shutdown");
        stop_ch.close();
        handlers.wait();
    }
    let want: Vec<u64> = (1..=p.events as u64).collect();
    let dropped = processor.dropped.get();
    for l in &processor.listeners {
        let got = l.got.get();
        go.check("no-lost-events", got == want, || {
            format!(
                "{} received {got:?} of {want:?}; distribute dropped {dropped} event(s) that arrived before the processor started",
                l.name
            )
        });
    }
}
