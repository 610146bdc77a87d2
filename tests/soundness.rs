//! Regressions for unsound proofs and invented races: each program once made loom pass
//! what an exhaustive search fails, or made every engine report a race Go orders.
//! Every engine must now agree with exhaustive DFS; for a racy program, in DPOR's sense:
//! a race reported, and nothing DFS does not reach.

use stalemate::explore::{Bounds, Engine, ModelFn, census, explore};
use stalemate::go::{Go, TryRecv};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

fn loom() -> Engine {
    Engine::Loom {
        preemption_bound: None,
        max_branches: 10_000,
    }
}

fn engines() -> Vec<Engine> {
    vec![
        loom(),
        Engine::Dpor,
        Engine::Dfs,
        Engine::Stateful,
        Engine::Random { seed: 7 },
        Engine::Pct { seed: 7, depth: 3 },
    ]
}

fn bounds() -> Bounds {
    Bounds::default()
        .check_races(true)
        .time(Default::default())
        .max_executions(100_000)
        .max_steps(200)
        .time_limit(Duration::from_secs(120))
}

/// Every engine reports `want` (a property key, or "pass" after an exhausted search).
fn expect(want: &str, model: impl Fn(&Go) + Send + Sync + 'static) {
    expect_within(&bounds(), want, Arc::new(model));
}

/// `expect` within other bounds.
fn expect_within(bounds: &Bounds, want: &str, model: ModelFn) {
    for e in engines() {
        let o = explore(&e, bounds, model.clone(), None).unwrap();
        let got = o
            .finding
            .as_ref()
            .map_or("pass".to_string(), |f| f.violation().property.key());
        assert_eq!(got, want, "engine {}", e.describe());
        if got == "pass"
            && matches!(
                e,
                Engine::Loom { .. } | Engine::Dpor | Engine::Dfs | Engine::Stateful
            )
        {
            assert_eq!(
                o.explored.stop,
                stalemate::Stop::Exhausted,
                "{}",
                e.describe()
            );
        }
    }
}

/// A select that the execution which learns the groups (loom's first) never reaches
/// (the gate is full by then) must still be one loom access: loom used to pass this
/// in 15 executions.
#[test]
fn a_select_the_first_execution_never_reaches_is_still_one_access() {
    expect("violation:select-took-c1", gated_select);
    // loom met the select over two points, abandoned that exploration and started
    // again with c0 and c1 on one point.
    let o = explore(&loom(), &bounds(), Arc::new(gated_select), None).unwrap();
    assert_eq!(o.regrouped.len(), 1, "{:?}", o.regrouped);
    assert_eq!(o.shared, vec![vec!["c0".to_string(), "c1".to_string()]]);
}

fn gated_select(go: &Go) {
    {
        let (c0, c1, gate) = (
            go.chan::<u8>("c0", 1),
            go.chan::<u8>("c1", 1),
            go.chan::<u8>("gate", 1),
        );
        let c = c0.clone();
        go.go("g1", move |_| c.send(2));
        let (a, b, g) = (c0.clone(), c1.clone(), gate.clone());
        go.go("g2", move |go| {
            if g.try_recv() == TryRecv::Empty {
                let f = go.select().recv(&b).recv(&a).wait();
                go.check("select-took-c1", f.index == Some(0), || {
                    "the select took c0".into()
                });
            }
        });
        c1.send(1);
        gate.send(7);
    }
}

/// The same shape with a timer: the select is reached only when the gate is empty.
#[test]
fn a_timer_select_the_first_execution_never_reaches_is_still_one_access() {
    expect("deadlock", |go| {
        let t = go.after("t", Duration::from_millis(10));
        let (c0, gate) = (go.chan::<u8>("c0", 0), go.chan::<u8>("gate", 1));
        let (c, g) = (c0.clone(), gate.clone());
        go.go("g1", move |go| {
            if g.try_recv() == TryRecv::Empty {
                go.select().recv(&c).recv(&t).wait();
            }
        });
        gate.send(7);
        c0.send(1);
    });
}

/// A woken receiver's step touches nothing: the hander makes its happens-before
/// update. loom used to pass this in 9 executions while every other engine reported a
/// race; that race was the invented one below (main never learnt g1's write). In Go
/// the write is ordered before g2's read, and every engine agrees.
#[test]
fn a_hand_off_orders_at_the_handers_step() {
    expect("pass", |go| {
        let (c0, c1) = (go.chan::<u8>("c0", 0), go.chan::<u8>("c1", 0));
        let x = go.var("x", 0u8);
        let (a, x1) = (c0.clone(), x.clone());
        go.go("g1", move |_| {
            x1.set(1);
            a.recv();
        });
        let (a, b) = (c0.clone(), c1.clone());
        go.go("g2", move |go| {
            b.recv();
            go.select().recv(&a).default().wait();
            x.get();
        });
        c0.send(5);
        c1.send(6);
    });
}

/// `g1: x = 1; <-c0` and `main: c0 <- 5; read x`, with `c0` of capacity `cap`.
fn write_receive_send_read(cap: usize) -> impl Fn(&Go) + Send + Sync + 'static {
    move |go| {
        let c0 = go.chan::<u8>("c0", cap);
        let x = go.var("x", 0u8);
        let (a, x1) = (c0.clone(), x.clone());
        go.go("g1", move |_| {
            x1.set(1);
            a.recv();
        });
        c0.send(5);
        x.get();
    }
}

/// Go's memory model: a receive on an unbuffered channel happens before the send
/// completes, so the write is ordered before main's read. Every engine used to report
/// a race here.
#[test]
fn an_unbuffered_receive_happens_before_its_send_completes() {
    expect("pass", write_receive_send_read(0));
}

/// The buffered case is not ordered that way in Go: the race is still reported.
#[test]
fn a_buffered_receive_does_not_order_the_send() {
    expect("data-race", write_receive_send_read(1));
}

/// Once found missing under the patched loom: loom and DFS must reach the same
/// violations, every one of them.
#[test]
fn loom_reaches_every_violation_dfs_reaches() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let m0 = go.mutex("m0");
        let c0 = go.chan::<u8>("c0", 1);
        let (c, m) = (c0.clone(), m0.clone());
        go.go("g1", move |_| {
            c.close();
            m.lock();
            m.unlock();
        });
        let (c, m) = (c0.clone(), m0.clone());
        go.go("g2", move |_| {
            m.unlock();
            c.send(1);
            c.recv();
            c.recv();
        });
        c0.recv();
        c0.send(2);
    });
    let b = bounds();
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let loom = census(&loom(), &b, model).unwrap();
    assert_eq!(dfs.explored.stop, stalemate::Stop::Exhausted);
    assert_eq!(loom.explored.stop, stalemate::Stop::Exhausted);
    assert!(
        dfs.violations.contains("fault:unlock-of-unlocked-mutex"),
        "{:?}",
        dfs.violations
    );
    assert_eq!(loom.violations, dfs.violations);
    assert_eq!(loom.outcomes, dfs.outcomes);
}

/// Found by the differential test (shrunk): a goroutine woken by a close can run
/// ahead of the closer's fault, and hand main a value first. The woken goroutine's
/// step must read the fate point, or loom never sees it race with the fault.
#[test]
fn a_woken_goroutine_can_run_before_its_wakers_fault() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (c0, c1) = (go.chan::<u8>("c0", 0), go.chan::<u8>("c1", 0));
        let (a, b) = (c0.clone(), c1.clone());
        go.go("g1", move |_| {
            a.recv();
            b.send(1);
        });
        c0.close();
        if c1.try_recv() == TryRecv::Empty {
            c0.send(2);
        }
    });
    let b = bounds();
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let loom = census(&loom(), &b, model).unwrap();
    assert_eq!(loom.violations, dfs.violations);
    assert_eq!(
        loom.outcomes, dfs.outcomes,
        "dfs {} executions, loom {}",
        dfs.explored.executions, loom.explored.executions
    );
}

/// Found by the 1,500-program differential campaign (shrunk), and the limit of what a
/// racy program gets. g1 holds m0 while it sends on c0 and writes model data; g2 reads
/// the data, then fills c0 if it is empty. DFS reaches the race and a leak (g2 fills
/// c0 first, g1 blocks holding m0). Loom does not see model data, and every execution
/// in which g1 sends before g2's try-receive races at g1's write and stops there, so
/// loom never learns that the two channel operations conflict and never runs the leak.
/// What it guarantees, as DPOR does, is a race reported: fix the race, and the
/// program's remaining violations are reached exactly.
#[test]
fn a_racy_program_gets_a_race_not_every_violation() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let m0 = go.mutex("m0");
        let c0 = go.chan::<u8>("c0", 1);
        let d1 = go.data("d1", 0u8);
        let (c, m, d) = (c0.clone(), m0.clone(), d1.clone());
        go.go("g1", move |_| {
            m.lock();
            c.send(10);
            d.set(11);
            m.unlock();
        });
        let (c, d) = (c0.clone(), d1.clone());
        go.go("g2", move |go| {
            let v = d.get();
            go.note(format!("d1 is {v}"));
            if c.try_recv() == TryRecv::Empty {
                c.send(21);
            }
        });
    });
    let b = bounds();
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let loom_census = census(&loom(), &b, model.clone()).unwrap();
    let both: BTreeSet<String> = ["data-race", "leak"].map(String::from).into();
    assert_eq!(dfs.violations, both);
    assert_eq!(loom_census.explored.stop, stalemate::Stop::Exhausted);
    assert!(loom_census.violations.contains("data-race"));
    assert!(loom_census.violations.is_subset(&dfs.violations));
    // The exploration that ships stops at a race.
    let o = explore(&loom(), &b, model, None).unwrap();
    let found = o.finding.map(|f| f.violation().property.key());
    assert_eq!(found.as_deref(), Some("data-race"));
}

/// Found by the differential campaign of seed 20261212 (program 1,531, shrunk): loom
/// missed an order that needs a goroutine started by a goroutine to go first. main
/// takes c0 from g1.0 (started by g1), then the tick of a timer that may fire at any
/// time. loom found main's receive from t racing with the timer's send; main was
/// asleep at the timer's step (its receive on c0, explored earlier, commutes with the
/// timer), and loom's rule, add the racing thread where the race began, added nothing.
/// But main's racing step was not its next one there: the reversal has to start with
/// g1 (whose g1.0 fills c0 first), so g1.0's send waiting for main, then main waiting
/// for the tick, went unexplored. A racing thread asleep where the race began, which
/// took steps since, now has every awake thread explored there.
#[test]
fn a_reversal_that_must_start_with_another_goroutine_is_explored() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let t = go.after("t", Duration::from_millis(20));
        let c = c0.clone();
        go.go("g1", move |go| {
            go.go("g1.0", move |_| c.send(110));
        });
        let v = c0.recv();
        go.note(format!("got {v:?}"));
        t.recv();
    });
    let b = bounds().time(stalemate::TimeMode::Any);
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let l = census(&loom(), &b, model).unwrap();
    assert_eq!(l.explored.stop, stalemate::Stop::Exhausted);
    let both_wait = dfs
        .outcomes
        .iter()
        .filter(|o| o.contains("send on c0: waits") && o.contains("receive from t: waits"))
        .count();
    assert_eq!(both_wait, 1, "the order loom missed");
    assert_eq!(dfs.outcomes.len(), 4);
    assert_eq!(l.outcomes, dfs.outcomes);
    assert_eq!(l.violations, dfs.violations);
}

/// A timer's tick handed to a blocked select is a hand-off like any other: the select
/// syncs with the tick's slot, as it does taking the tick from the buffer. It used
/// not to, and stayed in the epoch its send offer (on c0) had released into c0's clock,
/// so c0 covered main's later write: the state after the select, equal by its
/// fingerprint whichever way the tick came, had futures that differed in a clock, and
/// the stateful search, cutting the second one, missed a last state DFS reaches.
#[test]
fn a_tick_handed_to_a_select_starts_a_new_epoch() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = Arc::new(go.timer("t", Duration::from_millis(20)));
        let c0 = go.chan::<u8>("c0", 0);
        let rw = go.rwmutex("rw");
        let x0 = go.var("x0", 0u8);
        let (t2, rw2) = (t.clone(), rw.clone());
        go.go("g1", move |go| {
            rw2.rlock();
            go.note(format!("stop: {}", t2.stop()));
            rw2.runlock();
        });
        let mut f = go.select().recv(&t.c).send(&c0, 1).wait();
        go.note(format!("case {:?}", f.index));
        let _ = f.take::<()>();
        x0.set(1);
    });
    let b = bounds();
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let stateful = census(&Engine::Stateful, &b, model).unwrap();
    assert_eq!(stateful.explored.stop, stalemate::Stop::Exhausted);
    assert!(!dfs.ends.is_empty());
    assert_eq!(stateful.violations, dfs.violations);
    assert_eq!(stateful.ends, dfs.ends);
}

/// Go's `WaitGroup.Done` publishes what its goroutine did and learns nothing (its race
/// detector's `ReleaseMerge`): a write before one goroutine's Done and a read after
/// another's are unordered whichever Done runs first, a race Go reports. Every
/// operation used to acquire as well, which ordered them when the writer's Done came
/// first; dpor, whose Dones commute, may run that order only.
#[test]
fn a_done_orders_nothing_after_it() {
    expect("data-race", |go| {
        let wg = go.waitgroup("wg");
        wg.add(2);
        let d = go.data("d", 0u8);
        let (w, x) = (wg.clone(), d.clone());
        go.go("g1", move |_| {
            x.set(1);
            w.done();
        });
        let (w, x) = (wg.clone(), d.clone());
        go.go("g2", move |go| {
            w.done();
            go.note(format!("d is {}", x.get()));
        });
        wg.wait();
    });
}

/// ... and every Done happens before the Wait it ends returns, whichever reached zero.
#[test]
fn every_done_happens_before_the_wait() {
    expect("pass", |go| {
        let wg = go.waitgroup("wg");
        wg.add(2);
        let d = go.data("d", 0u8);
        let e = go.data("e", 0u8);
        let (w, x) = (wg.clone(), d.clone());
        go.go("g1", move |_| {
            x.set(1);
            w.done();
        });
        let (w, y) = (wg.clone(), e.clone());
        go.go("g2", move |_| {
            y.set(2);
            w.done();
        });
        wg.wait();
        go.note(format!("d {} e {}", d.get(), e.get()));
    });
}

/// Readers do not order each other (Go's race detector: a read lock acquires what the
/// last writer released, a read lock given back releases into what only writers learn):
/// a write under one read lock and a read under another race, whichever reader went
/// first. Every operation used to acquire and release, which ordered the second reader
/// after the first; dpor, whose read locks commute, may run one order only.
#[test]
fn readers_do_not_order_each_other() {
    expect("data-race", |go| {
        let rw = go.rwmutex("rw");
        let d = go.data("d", 0u8);
        let (r, x) = (rw.clone(), d.clone());
        go.go("r1", move |_| {
            r.rlock();
            x.set(1);
            r.runlock();
        });
        let (r, x) = (rw.clone(), d.clone());
        go.go("r2", move |go| {
            r.rlock();
            go.note(format!("d is {}", x.get()));
            r.runlock();
        });
    });
}

/// ... while a writer is ordered after every reader before it, and every reader after
/// the writer before it, also one let in by the writer's unlock.
#[test]
fn writers_and_readers_order_each_other() {
    expect("pass", |go| {
        let rw = go.rwmutex("rw");
        let d = go.data("d", 0u8);
        let (r, x) = (rw.clone(), d.clone());
        go.go("r", move |go| {
            r.rlock();
            go.note(format!("d is {}", x.get()));
            r.runlock();
        });
        let (r, x) = (rw.clone(), d.clone());
        go.go("w", move |_| {
            r.lock();
            x.set(x.get() + 1);
            r.unlock();
        });
    });
}

/// Found by the differential campaign from seed 20261127 (the stateful search, not
/// dpor): main closes a nil channel (a fault) while g1 starts g2 and both close c0.
/// The states met after main's fault, as the goroutines unwound, went into the stateful
/// search's visited set; one had the fingerprint of a state a later execution met
/// before anyone faulted, which it then cut short, and the double close was lost.
#[test]
fn states_met_while_unwinding_are_no_states() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let nil = go.nil_chan::<u8>("nil");
        let c = c0.clone();
        go.go("g1", move |go| {
            let c2 = c.clone();
            go.go("g2", move |_| c2.close());
            c.close();
        });
        nil.close();
    });
    let b = bounds();
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let stateful = census(&Engine::Stateful, &b, model).unwrap();
    let both: BTreeSet<String> = [
        "fault:close-of-closed-channel",
        "fault:close-of-nil-channel",
    ]
    .map(String::from)
    .into();
    assert_eq!(dfs.violations, both);
    assert_eq!(stateful.violations, both);
}

/// `sync/atomic` beside plain accesses of one variable (Go's race detector: an atomic
/// access races with a plain one that nothing orders, never with another atomic
/// one): a counter added to atomically and read plainly is a race under every
/// engine; read atomically, proven. `Atomic::run` used to order every access and
/// check none, so the racy form was proven clean in one execution.
#[test]
fn an_atomic_races_with_a_plain_access_of_its_variable() {
    for plain in [true, false] {
        expect(if plain { "data-race" } else { "pass" }, move |go| {
            let hits = go.atomic("hits", 0);
            let wg = go.waitgroup("wg");
            wg.add(2);
            let (w, h) = (wg.clone(), hits.clone());
            go.go("counter", move |_| {
                h.add(1);
                w.done();
            });
            let (w, h) = (wg.clone(), hits.clone());
            go.go("reporter", move |go| {
                let n = if plain { h.plain_load() } else { h.load() };
                go.note(format!("hits {n}"));
                w.done();
            });
            wg.wait();
            // After the Wait, a plain access is ordered after both.
            hits.plain_store(0);
        });
    }
}

/// An atomic store publishes what its goroutine did before it to a load that sees it
/// (Go's memory model), and a plain access ordered so is no race: main's plain read
/// of the flag itself after its load saw 1 included.
#[test]
fn an_atomic_store_publishes_to_the_load_that_sees_it() {
    expect("pass", |go| {
        let ready = go.atomic("ready", 0);
        let d = go.data("d", 0u8);
        let (r, x) = (ready.clone(), d.clone());
        go.go("writer", move |_| {
            x.set(1);
            r.store(1);
        });
        if ready.load() == 1 {
            go.note(format!("d {} ready {}", d.get(), ready.plain_load()));
        }
    });
}

/// `WaitGroup.Add` from zero against a `Wait` (Go annotates the first as a read of
/// the WaitGroup and the second as a write): a goroutine that takes the counter up
/// from zero again while main waits, with nothing ordering the two, is a race under
/// every engine, dpor's held-back `Wait` included; adding for both goroutines before
/// they start, proven.
#[test]
fn an_add_from_zero_races_with_a_wait_nothing_orders_it_with() {
    for reused in [true, false] {
        expect(if reused { "data-race" } else { "pass" }, move |go| {
            let wg = go.waitgroup("wg");
            wg.add(if reused { 1 } else { 2 });
            let w = wg.clone();
            go.go("first", move |_| w.done());
            let w = wg.clone();
            go.go("starter", move |go| {
                if reused {
                    w.add(1);
                }
                go.go("second", move |_| w.done());
            });
            wg.wait();
        });
    }
}

/// A close against a send that nothing orders before it (Go's runtime reads the
/// channel at every send, a select's send cases included, and writes it at close):
/// where the send completed first, a race; where the close came first, the send's
/// panic. Every exhaustive engine reaches both. Closed after the value was received,
/// the close is ordered after the send (a buffered channel's slot): proven.
#[test]
fn a_close_races_with_a_send_nothing_orders_before_it() {
    for select in [false, true] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let ch = go.chan::<u8>("ch", 1);
            let c = ch.clone();
            go.go("sender", move |go| {
                if select {
                    let other = go.nil_chan::<u8>("never");
                    go.select().send(&c, 1).recv(&other).wait();
                } else {
                    c.send(1);
                }
            });
            ch.close();
        });
        for e in [loom(), Engine::Dpor, Engine::Dfs, Engine::Stateful] {
            let c = census(&e, &bounds(), model.clone()).unwrap();
            let both: BTreeSet<String> = ["data-race", "fault:send-on-closed-channel"]
                .map(String::from)
                .into();
            assert_eq!(c.violations, both, "{} (select {select})", e.describe());
        }
    }
    expect("pass", |go| {
        let ch = go.chan::<u8>("ch", 1);
        let c = ch.clone();
        go.go("sender", move |_| c.send(1));
        ch.recv();
        ch.close();
    });
}

/// A Cond orders nothing for Go's race detector (`sync.Cond` makes no annotation; a
/// waiter is ordered after a signaller through the Cond's locker only): a write
/// before a signal made without the lock, read by the woken waiter, is a race under
/// every exhaustive engine (beside the lost wake-up when the signal comes first).
/// The same write and signal under the lock: proven.
#[test]
fn a_cond_orders_nothing_but_through_its_locker() {
    let model = |locked: bool| -> ModelFn {
        Arc::new(move |go: &Go| {
            let m = go.mutex("m");
            let c = go.cond("c", &m);
            let d = go.data("d", 0u8);
            m.lock();
            let (m2, c2, d2) = (m.clone(), c.clone(), d.clone());
            go.go("signaller", move |_| {
                if locked {
                    m2.lock();
                }
                d2.set(1);
                c2.signal();
                if locked {
                    m2.unlock();
                }
            });
            c.wait();
            go.note(format!("d {}", d.get()));
            m.unlock();
        })
    };
    for e in [loom(), Engine::Dpor, Engine::Dfs, Engine::Stateful] {
        let c = census(&e, &bounds(), model(false)).unwrap();
        assert!(
            c.violations.contains("data-race"),
            "{}: {:?}",
            e.describe(),
            c.violations
        );
    }
    let locked = model(true);
    expect("pass", move |go| locked(go));
}

/// Orders stalemate used to give that Go's race detector does not, each hiding a
/// race Go reports. In virtual time a sleep puts the reader after the writer in every
/// schedule without ordering their memory (Go's sleep orders nothing), so each form
/// was proven clean; each is now a race under every engine:
/// - a select syncs only with the channel of the case it took (it used to sync with
///   every channel it named), and one that takes its default with none;
/// - a close releases only (it used to acquire what the channel's handshakes knew);
/// - a `Once.Do` that finds the function done acquires only (it used to release);
/// - an atomic load acquires only.
#[test]
fn orders_go_does_not_give_hide_no_race() {
    let virtual_time = || bounds().time(stalemate::TimeMode::Virtual);
    let later = Duration::from_millis(10);
    let forms: Vec<(&str, ModelFn)> = vec![
        (
            "select",
            Arc::new(move |go: &Go| {
                let (c1, c2) = (go.chan::<u8>("c1", 0), go.chan::<u8>("c2", 0));
                let d = go.data("d", 0u8);
                let (x, a, b) = (d.clone(), c1.clone(), c2.clone());
                go.go("writer", move |go| {
                    x.set(1);
                    go.select().send(&a, 1).send(&b, 2).wait();
                });
                let (x, b) = (d.clone(), c2.clone());
                go.go("reader", move |go| {
                    go.sleep(later);
                    go.select().recv(&b).default().wait();
                    go.note(format!("d {}", x.get()));
                });
                c1.recv();
            }),
        ),
        (
            "close",
            Arc::new(move |go: &Go| {
                let ch = go.chan::<u8>("ch", 0);
                let d = go.data("d", 0u8);
                let (x, c) = (d.clone(), ch.clone());
                go.go("writer", move |_| {
                    x.set(1);
                    c.send(1);
                });
                let (x, c) = (d.clone(), ch.clone());
                go.go("closer", move |go| {
                    go.sleep(later);
                    c.close();
                    go.note(format!("d {}", x.get()));
                });
                ch.recv();
            }),
        ),
        (
            "once",
            Arc::new(move |go: &Go| {
                let once = go.once("once");
                once.run(|| {});
                let d = go.data("d", 0u8);
                let (x, o) = (d.clone(), once.clone());
                go.go("writer", move |_| {
                    x.set(1);
                    o.run(|| {});
                });
                let (x, o) = (d.clone(), once.clone());
                go.go("reader", move |go| {
                    go.sleep(later);
                    o.run(|| {});
                    go.note(format!("d {}", x.get()));
                });
            }),
        ),
        (
            "atomic load",
            Arc::new(move |go: &Go| {
                let a = go.atomic("a", 0);
                let d = go.data("d", 0u8);
                let (x, l) = (d.clone(), a.clone());
                go.go("writer", move |_| {
                    x.set(1);
                    l.load();
                });
                let (x, l) = (d.clone(), a.clone());
                go.go("reader", move |go| {
                    go.sleep(later);
                    l.load();
                    go.note(format!("d {}", x.get()));
                });
            }),
        ),
    ];
    for (form, model) in forms {
        println!("{form}");
        expect_within(&virtual_time(), "data-race", model);
    }
}

/// Two atomic stores need not be ordered (atomics never race with each other), so a
/// plain read ordered after the second (its load saw it) but not after the first
/// races with the first. The race detector kept one last write, which the second
/// store replaced, and in virtual time (the reader last in every schedule) this was
/// proven clean.
#[test]
fn a_plain_read_is_checked_against_every_atomic_store_it_does_not_follow() {
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.atomic("a", 0);
        for v in [1, 2] {
            let s = a.clone();
            go.go(&format!("storer{v}"), move |_| s.store(v));
        }
        go.sleep(Duration::from_millis(10));
        if a.load() == 2 {
            go.note(format!("a {}", a.plain_load()));
        }
    });
    expect_within(&b, "data-race", model);
}
