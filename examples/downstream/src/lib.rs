//! A model of this crate's own, described exactly as stalemate's catalogue describes
//! its models: a work queue whose dispatcher sends jobs on an unbuffered channel, and
//! whose worker marks each job done under the queue lock.

use stalemate::explore::ModelFn;
use stalemate::go::Go;
use stalemate::models::{Build, Model, Param, Params, Variant};
use std::sync::Arc;

pub static MODEL: Model = Model {
    name: "work-queue",
    summary: "a dispatcher that sends jobs while holding the queue lock, and a worker that marks them done under it",
    origin: "examples/downstream: a toy of this crate's own",
    variants: &[
        Variant {
            name: "buggy",
            doc: "the dispatcher sends each job holding the queue lock",
        },
        Variant {
            name: "fixed",
            doc: "the dispatcher takes the job under the lock and sends it after unlocking",
        },
    ],
    params: &[Param {
        name: "jobs",
        default: 2,
        min: 1,
        max: 4,
        doc: "jobs dispatched",
    }],
    properties: &[("all-done", "every job dispatched is marked done")],
    main: Build::Rust(build),
    network: None,
};

fn build(variant: &str, p: &Params) -> ModelFn {
    let buggy = variant == "buggy";
    let jobs = p.usize("jobs");
    Arc::new(move |go: &Go| {
        let mu = go.mutex("queue.mu");
        let work = go.chan::<usize>("work", 0);
        let done = go.data("done", 0usize);
        let wg = go.waitgroup("workers");
        wg.add(1);
        let (mu2, work2, done2, wg2) = (mu.clone(), work.clone(), done.clone(), wg.clone());
        go.go("worker", move |go| {
            let _f = go.func("worker");
            while work2.recv().is_some() {
                mu2.lock();
                done2.with(|d| *d += 1);
                mu2.unlock();
            }
            wg2.done();
        });
        let _f = go.func("dispatch");
        for j in 0..jobs {
            mu.lock();
            if buggy {
                // A send under the lock: the worker needs the lock to finish the last job.
                work.send(j);
                mu.unlock();
            } else {
                mu.unlock();
                work.send(j);
            }
        }
        work.close();
        wg.wait();
        let n = done.get();
        go.check("all-done", n == jobs, || {
            format!("{n} of {jobs} jobs marked done")
        });
    })
}
