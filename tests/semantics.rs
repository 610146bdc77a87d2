//! Go's semantics, pinned under every engine. Each case is a tiny Go program and the
//! property every engine must report for it (or `pass`).

use stalemate::explore::{Bounds, Engine, ModelFn, explore};
use stalemate::go::{Go, TryRecv};
use std::sync::Arc;
use std::time::Duration;

fn engines() -> Vec<Engine> {
    vec![
        Engine::Loom {
            preemption_bound: None,
            max_branches: 10_000,
        },
        Engine::Random { seed: 7 },
        Engine::Pct { seed: 7, depth: 3 },
        Engine::Dfs,
        Engine::Dpor,
    ]
}

fn bounds() -> Bounds {
    Bounds::default()
        .check_races(true)
        .time(Default::default())
        .max_executions(20_000)
        .max_steps(200)
        .time_limit(Duration::from_secs(60))
}

/// Runs `model` under every engine; each must report `want` (a property key or "pass").
/// Returns the first report's violation message, for further checks.
fn expect(want: &str, model: impl Fn(&Go) + Send + Sync + 'static) -> String {
    expect_on(engines(), want, model)
}

/// `expect` with a chosen set of engines.
fn expect_on(
    engines: Vec<Engine>,
    want: &str,
    model: impl Fn(&Go) + Send + Sync + 'static,
) -> String {
    expect_in(engines, &bounds(), want, model)
}

/// `expect_on` under bounds `b` (virtual time, say).
fn expect_in(
    engines: Vec<Engine>,
    b: &Bounds,
    want: &str,
    model: impl Fn(&Go) + Send + Sync + 'static,
) -> String {
    let model: ModelFn = Arc::new(model);
    let mut msg = String::new();
    for e in engines {
        let o = explore(&e, b, model.clone(), None).unwrap();
        let got = o
            .finding
            .as_ref()
            .map_or("pass".to_string(), |f| f.violation().property.key());
        assert_eq!(got, want, "engine {}", e.describe());
        if let Some(f) = &o.finding {
            if msg.is_empty() {
                let v = f.violation();
                msg = format!(
                    "{}\n{}\n{}",
                    v.message,
                    v.cycle.join("\n"),
                    v.blocked.join("\n")
                );
            }
        } else {
            assert!(o.explored.executions > 0);
        }
    }
    msg
}

#[test]
fn rendezvous_send_blocks_until_a_receiver_arrives() {
    // Nobody receives: main blocks forever in the send.
    let m = expect("deadlock", |go| go.chan::<u8>("c", 0).send(1));
    assert!(
        m.contains("main waits for send on channel c (unbuffered)"),
        "{m}"
    );
    // A receiver arrives: the send completes, the value is handed over.
    expect("pass", |go| {
        let c = go.chan::<u8>("c", 0);
        let got = go.chan::<u8>("got", 1);
        let (c2, g2) = (c.clone(), got.clone());
        go.go("receiver", move |_| g2.send(c2.recv().unwrap()));
        c.send(42);
        let v = got.recv();
        go.check("value", v == Some(42), || format!("received {v:?}"));
    });
}

#[test]
fn a_buffered_channel_blocks_only_when_full() {
    expect("pass", |go| {
        let c = go.chan::<u8>("c", 2);
        c.send(1);
        c.send(2);
    });
    let m = expect("deadlock", |go| {
        let c = go.chan::<u8>("c", 2);
        c.send(1);
        c.send(2);
        c.send(3);
    });
    assert!(m.contains("send on channel c (full, 2/2)"), "{m}");
}

#[test]
fn receive_from_a_closed_channel_returns_at_once() {
    expect("pass", |go| {
        let c = go.chan::<u8>("c", 1);
        c.send(1);
        c.close();
        let a = c.recv();
        let b = c.recv();
        go.check("drain-then-closed", a == Some(1) && b.is_none(), || {
            format!("{a:?} {b:?}")
        });
    });
    // A receiver blocked before the close is released by it.
    expect("pass", |go| {
        let c = go.chan::<u8>("c", 0);
        let c2 = c.clone();
        go.go("closer", move |_| c2.close());
        let v = c.recv();
        go.check("closed", v.is_none(), || format!("{v:?}"));
    });
}

#[test]
fn send_on_and_close_of_a_closed_channel_are_faults() {
    let m = expect("fault:send-on-closed-channel", |go| {
        let c = go.chan::<u8>("c", 1);
        c.close();
        c.send(1);
    });
    assert!(m.contains("panic: send on closed channel"), "{m}");
    expect("fault:close-of-closed-channel", |go| {
        let c = go.chan::<u8>("c", 1);
        c.close();
        c.close();
    });
    // A sender blocked when the channel is closed under it faults too.
    expect("fault:send-on-closed-channel", |go| {
        let c = go.chan::<u8>("c", 0);
        let c2 = c.clone();
        go.go("closer", move |_| c2.close());
        c.send(1);
    });
}

#[test]
fn unlock_of_an_unlocked_mutex_is_a_fault() {
    let m = expect("fault:unlock-of-unlocked-mutex", |go| {
        go.mutex("m").unlock()
    });
    assert!(
        m.contains("fatal error: sync: unlock of unlocked mutex"),
        "{m}"
    );
    expect("fault:unlock-of-unlocked-rwmutex", |go| {
        go.rwmutex("rw").unlock()
    });
    expect("fault:runlock-of-unlocked-rwmutex", |go| {
        go.rwmutex("rw").runlock()
    });
}

#[test]
fn another_goroutine_may_unlock_as_in_go() {
    expect("pass", |go| {
        let m = go.mutex("m");
        m.lock();
        let m2 = m.clone();
        let wg = go.waitgroup("wg");
        wg.add(1);
        let w2 = wg.clone();
        go.go("unlocker", move |_| {
            m2.unlock();
            w2.done();
        });
        wg.wait();
        m.lock();
        m.unlock();
    });
}

#[test]
fn lock_order_inversion_is_a_deadlock_with_its_cycle() {
    let m = expect("deadlock", |go| {
        let (a, b) = (go.mutex("A"), go.mutex("B"));
        let (a2, b2) = (a.clone(), b.clone());
        go.go("t1", move |go| {
            let _f = go.func("t1.body");
            a2.lock();
            b2.lock();
            b2.unlock();
            a2.unlock();
        });
        b.lock();
        a.lock();
        a.unlock();
        b.unlock();
    });
    assert!(m.contains("main, t1 wait for each other in a cycle"), "{m}");
    assert!(
        m.contains("t1 in t1.body waits for lock B, held by main"),
        "{m}"
    );
    assert!(m.contains("main waits for lock A, held by t1"), "{m}");
}

#[test]
fn a_waiting_writer_blocks_new_readers_so_a_recursive_read_lock_deadlocks() {
    let m = expect("deadlock", |go| {
        let rw = go.rwmutex("rw");
        let r2 = rw.clone();
        let started = go.chan::<()>("started", 0);
        let s2 = started.clone();
        go.go("writer", move |_| {
            s2.recv();
            r2.lock();
            r2.unlock();
        });
        rw.rlock();
        started.send(());
        // The writer may now be waiting: Go lets no new reader in, this one included.
        rw.rlock();
        rw.runlock();
        rw.runlock();
    });
    assert!(
        m.contains("writer waits for lock rw (write), held by main (took it for reading"),
        "{m}"
    );
    assert!(
        m.contains("main waits for lock rw (read), held by writer (a writer waiting for it"),
        "{m}"
    );
    // Without the second read lock there is no deadlock.
    expect("pass", |go| {
        let rw = go.rwmutex("rw");
        let r2 = rw.clone();
        go.go("writer", move |_| {
            r2.lock();
            r2.unlock();
        });
        rw.rlock();
        rw.runlock();
    });
}

#[test]
fn readers_share_and_exclude_writers() {
    expect("pass", |go| {
        let rw = go.rwmutex("rw");
        // Who is inside: one flag per reader (readers never write each other's, as
        // writes under a read lock would race) and one for the writer.
        let readers: Vec<_> = (0..2)
            .map(|i| go.data(&format!("reader{i}.inside"), false))
            .collect();
        let writer = go.data("writer.inside", false);
        for (i, me) in readers.iter().enumerate() {
            let (rw, me, writer, g) = (rw.clone(), me.clone(), writer.clone(), go.clone());
            go.go(&format!("reader{i}"), move |_| {
                rw.rlock();
                me.set(true);
                let w = writer.get();
                g.check("exclusion", !w, || "a reader inside with a writer".into());
                me.set(false);
                rw.runlock();
            });
        }
        rw.lock();
        writer.set(true);
        let r = readers.iter().filter(|r| r.get()).count();
        go.check("exclusion", r == 0, || {
            format!("{r} readers inside with the writer")
        });
        writer.set(false);
        rw.unlock();
    });
}

#[test]
fn waitgroup_and_once() {
    expect("pass", |go| {
        let wg = go.waitgroup("wg");
        let once = go.once("once");
        let runs = go.data("runs", 0);
        wg.add(2);
        for i in 0..2 {
            let (wg, once, runs) = (wg.clone(), once.clone(), runs.clone());
            go.go(&format!("w{i}"), move |_| {
                once.run(|| runs.with(|r| *r += 1));
                wg.done();
            });
        }
        wg.wait();
        let n = runs.get();
        go.check("once", n == 1, || format!("ran {n} times"));
    });
    expect("fault:negative-waitgroup-counter", |go| {
        go.waitgroup("wg").done()
    });
}

#[test]
fn select_takes_a_ready_case_or_the_default() {
    expect("pass", |go| {
        let (a, b) = (go.chan::<u8>("a", 1), go.chan::<u8>("b", 1));
        let mut f = go.select().recv(&a).recv(&b).default().wait();
        go.check("default", f.index.is_none(), || {
            "a case fired on empty channels".into()
        });
        b.send(9);
        f = go.select().recv(&a).recv(&b).wait();
        let v = f.take::<u8>();
        go.check("ready", f.index == Some(1) && v == Some(9), || {
            format!("{:?} {v:?}", f.index)
        });
        go.check(
            "try",
            a.try_recv() == TryRecv::Empty && a.try_send(1) && !a.try_send(2),
            || "try".into(),
        );
    });
    // A blocked select is completed by whichever channel gets a value.
    expect("pass", |go| {
        let (a, b) = (go.chan::<u8>("a", 0), go.chan::<u8>("b", 0));
        let b2 = b.clone();
        go.go("sender", move |_| b2.send(5));
        let mut f = go.select().recv(&a).recv(&b).wait();
        let v = f.take::<u8>();
        go.check("b fired", f.index == Some(1) && v == Some(5), || {
            format!("{:?} {v:?}", f.index)
        });
    });
}

/// Both channels hold a value; if the select takes `b`, the second receive from `b`
/// blocks forever. Go picks either case, so Go can deadlock here.
fn second_ready_case(go: &Go) {
    let (a, b) = (go.chan::<u8>("a", 1), go.chan::<u8>("b", 1));
    a.send(1);
    b.send(2);
    let f = go.select().recv(&a).recv(&b).wait();
    if f.index == Some(1) {
        b.recv();
    }
}

#[test]
fn select_chooses_among_ready_cases_as_go_does() {
    let msg = expect("deadlock", second_ready_case);
    assert!(
        msg.contains("main waits for receive from channel b (empty)"),
        "{msg}"
    );
    // loom explores both choices: the first execution takes case 1 and passes, the
    // second takes case 2; a DFS does the same.
    for e in [engines()[0].clone(), Engine::Dfs] {
        let o = explore(&e, &bounds(), Arc::new(second_ready_case), None).unwrap();
        assert_eq!(o.explored.executions, 2, "{}", e.describe());
        let f = o.finding.unwrap();
        let chosen: Vec<_> = f.schedule().iter().filter_map(|t| t.case).collect();
        assert_eq!(chosen, [1], "{}", e.describe());
    }
    // The choice is part of the schedule: a replay takes the same case.
    let model: ModelFn = Arc::new(second_ready_case);
    let o = explore(&Engine::Random { seed: 1 }, &bounds(), model.clone(), None).unwrap();
    let f = o.finding.unwrap();
    let again = stalemate::explore::replay(model.clone(), f.schedule(), &bounds()).unwrap();
    assert_eq!(again.violation(), f.violation());
    // A schedule whose recorded case is not ready diverges, with a clear message.
    let mut wrong = f.schedule();
    let t = wrong.iter_mut().find(|t| t.case.is_some()).unwrap();
    t.case = Some(5);
    let off = stalemate::explore::replay(model, wrong, &bounds()).unwrap();
    assert_eq!(off.violation().property.key(), "diverged");
    assert!(
        off.violation()
            .message
            .contains("select has cases 1, 2 ready, and the schedule gives case 6"),
        "{}",
        off.violation().message
    );
    // With only one ready case there is no choice and nothing to explore.
    let one = explore(
        &engines()[0],
        &bounds(),
        Arc::new(|go: &Go| {
            let (a, b) = (go.chan::<u8>("a", 1), go.chan::<u8>("b", 1));
            a.send(1);
            go.select().recv(&a).recv(&b).wait();
        }),
        None,
    )
    .unwrap();
    assert_eq!(one.explored.executions, 1);
}

#[test]
fn timers_fire_as_scheduling_choices() {
    expect("pass", |go| {
        let t = go.after("timeout", Duration::from_secs(5));
        t.recv();
    });
    // A ticker's ticks are dropped when nobody takes them, as in Go, so a receiver
    // that waits for more ticks than can arrive is stuck.
    let m = expect("leak", |go| {
        let t = go.ticker("tick", Duration::from_millis(100), 1);
        let c = t.c.clone();
        go.go("consumer", move |_| {
            c.recv();
            c.recv();
        });
    });
    assert!(
        m.contains("consumer waits for receive from channel tick (empty)"),
        "{m}"
    );
}

#[test]
fn a_goroutine_blocked_after_main_returns_is_a_leak_not_a_deadlock() {
    let m = expect("leak", |go| {
        let c = go.chan::<u8>("never", 0);
        go.go("stuck", move |_| {
            c.recv();
        });
    });
    assert!(
        m.contains("main has returned, and stuck stay blocked forever"),
        "{m}"
    );
}

#[test]
fn a_model_panic_is_a_crash() {
    let m = expect("crash", |_| panic!("model bug"));
    assert!(m.contains("goroutine main panicked: model bug"), "{m}");
}

/// A goroutine that never stops: its executions are cut at the step bound.
fn busy(go: &Go) {
    let c = go.chan::<u8>("c", 1);
    loop {
        c.try_send(1);
        c.try_recv();
    }
}

#[test]
fn a_busy_loop_is_cut_at_the_step_bound_and_fails_there_on_request() {
    for e in engines() {
        let o = explore(&e, &bounds(), Arc::new(busy), None).unwrap();
        let d = e.describe();
        assert!(o.finding.is_none(), "{d}");
        assert!(o.explored.executions > 0, "{d}");
        assert_eq!(o.explored.cut, o.explored.executions, "{d}");
    }
    let fail = bounds().at_max_steps(stalemate::AtMaxSteps::Fail);
    let m = expect_in(engines(), &fail, "violation:step-bound", busy);
    assert!(
        m.contains("main reached the step bound (200 operations)"),
        "{m}"
    );
}

/// Two goroutines take locks A and B while a third loops forever: `t` takes them in
/// the opposite order to main's (`inverted`), or in the same order.
fn locks_beside_a_loop(go: &Go, inverted: bool) {
    let (a, b) = (go.mutex("A"), go.mutex("B"));
    go.go("looper", move |go| busy(&go));
    let (first, second) = match inverted {
        true => (b.clone(), a.clone()),
        false => (a.clone(), b.clone()),
    };
    go.go("t", move |_| {
        first.lock();
        second.lock();
        second.unlock();
        first.unlock();
    });
    a.lock();
    b.lock();
    b.unlock();
    a.unlock();
}

#[test]
fn a_lock_cycle_beside_a_goroutine_that_runs_on_is_a_deadlock_at_the_cut() {
    // DFS, which does not reduce, spends its budget on the loop's orders first.
    let reducing: Vec<Engine> = engines()
        .into_iter()
        .filter(|e| *e != Engine::Dfs)
        .collect();
    let m = expect_on(reducing, "deadlock", |go| locks_beside_a_loop(go, true));
    assert!(
        m.contains(
            "main, t wait for each other in a cycle of locks, while other goroutines run on"
        ),
        "{m}"
    );
    // The same locks taken in one order: nothing to find, every execution cut.
    for e in engines() {
        let main: ModelFn = Arc::new(|go: &Go| locks_beside_a_loop(go, false));
        let o = explore(&e, &bounds().max_steps(40), main, None).unwrap();
        assert!(o.finding.is_none(), "{}", e.describe());
        assert!(o.explored.cut > 0, "{}", e.describe());
    }
}

#[test]
fn unordered_accesses_to_a_plain_variable_are_a_data_race() {
    let m = expect("data-race", |go| {
        let v = go.var("started", false);
        let v2 = v.clone();
        go.go("writer", move |go| {
            let _f = go.func("run");
            v2.set(true);
        });
        let _f = go.func("distribute");
        v.get();
    });
    assert!(m.contains("nothing orders the two"), "{m}");
    assert!(m.contains("in run") && m.contains("in distribute"), "{m}");
}

/// `Data` accesses are no steps, so loom never reorders them: the race detector checks
/// each instead, which is what lets loom treat the code between two operations as the
/// goroutine's own (`loom::assume_local_steps`).
#[test]
fn model_data_is_race_checked_between_steps() {
    let m = expect("data-race", |go| {
        let d = go.data("cache", 0);
        let d2 = d.clone();
        go.go("writer", move |go| {
            let _f = go.func("fill");
            d2.set(1);
        });
        let _f = go.func("serve");
        d.get();
    });
    assert!(m.contains("nothing orders the two"), "{m}");
    assert!(m.contains("in fill") && m.contains("in serve"), "{m}");
    assert!(m.contains("cache after step"), "{m}");
    // Reads alone never race; writes under one mutex are ordered by it.
    expect("pass", |go| {
        let (d, mu) = (go.data("cache", 0), go.mutex("mu"));
        let n = go.data("n", 0);
        for i in 0..2 {
            let (d, mu, n) = (d.clone(), mu.clone(), n.clone());
            go.go(&format!("w{i}"), move |_| {
                d.get();
                mu.lock();
                n.with(|n| *n += 1);
                mu.unlock();
            });
        }
        d.get();
    });
}

#[test]
fn locks_channels_go_statements_and_waitgroups_order_accesses() {
    // Under the same mutex.
    expect("pass", |go| {
        let (v, mu) = (go.var("x", 0), go.mutex("mu"));
        let (v2, mu2) = (v.clone(), mu.clone());
        go.go("w", move |_| {
            mu2.lock();
            v2.set(1);
            mu2.unlock();
        });
        mu.lock();
        v.get();
        mu.unlock();
    });
    // Written before a send, read after the receive.
    expect("pass", |go| {
        let (v, c) = (go.var("x", 0), go.chan::<()>("c", 0));
        let (v2, c2) = (v.clone(), c.clone());
        go.go("w", move |_| {
            v2.set(1);
            c2.send(());
        });
        c.recv();
        v.get();
    });
    // Written before `go`, read by the new goroutine; written by a goroutine before
    // Done, read after Wait.
    expect("pass", |go| {
        let v = go.var("x", 0);
        v.set(1);
        let wg = go.waitgroup("wg");
        wg.add(1);
        let (v2, wg2) = (v.clone(), wg.clone());
        go.go("r", move |_| {
            v2.get();
            v2.set(2);
            wg2.done();
        });
        wg.wait();
        v.get();
    });
}

#[test]
fn race_checking_can_be_turned_off() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let v = go.var("x", 0);
        let v2 = v.clone();
        go.go("w", move |_| v2.set(1));
        v.get();
    });
    let b = bounds().check_races(false).time(Default::default());
    for e in engines() {
        assert!(
            explore(&e, &b, model.clone(), None)
                .unwrap()
                .finding
                .is_none()
        );
    }
}

#[test]
fn too_many_goroutines_for_loom_is_a_clear_error() {
    let model: ModelFn = Arc::new(|go: &Go| {
        for i in 0..8 {
            go.go(&format!("g{i}"), |_| {});
        }
    });
    let e = Engine::Loom {
        preemption_bound: None,
        max_branches: 10_000,
    };
    let o = explore(&e, &bounds(), model, None).unwrap();
    let v = o.finding.expect("a crash").violation().clone();
    assert_eq!(v.property.key(), "crash");
    assert!(
        v.message
            .contains("loom runs at most 8 threads per execution, main included"),
        "{}",
        v.message
    );
}

#[test]
fn a_three_way_lock_cycle_is_reported_whole() {
    // Four threads: the cycle needs three preemptions, which unbounded loom's and
    // shuttle-dfs's depth-first orders reach late; loom bounded to 3 reaches it at once.
    let mut engs = engines();
    engs[0] = Engine::Loom {
        preemption_bound: Some(3),
        max_branches: 10_000,
    };
    engs.retain(|e| *e != Engine::Dfs);
    let m = expect_on(engs, "deadlock", |go| {
        let locks = [go.mutex("A"), go.mutex("B"), go.mutex("C")];
        let wg = go.waitgroup("wg");
        wg.add(3);
        for i in 0..3 {
            let (first, second, wg) = (locks[i].clone(), locks[(i + 1) % 3].clone(), wg.clone());
            go.go(&format!("g{i}"), move |_| {
                first.lock();
                second.lock();
                second.unlock();
                first.unlock();
                wg.done();
            });
        }
        wg.wait();
    });
    assert!(
        m.contains("g0, g1, g2 wait for each other in a cycle"),
        "{m}"
    );
    for edge in [
        "g0 waits for lock B, held by g1",
        "g1 waits for lock C, held by g2",
        "g2 waits for lock A, held by g0",
    ] {
        assert!(m.contains(edge), "missing `{edge}` in {m}");
    }
}

#[test]
fn channels_selected_together_share_one_loom_point_and_stay_ordered() {
    // Which send the select sees first is a real choice; loom must still make it when
    // both channels share one point.
    let model: ModelFn = Arc::new(|go: &Go| {
        let (a, b) = (go.chan::<u8>("a", 1), go.chan::<u8>("b", 1));
        let (a2, b2) = (a.clone(), b.clone());
        go.go("sender-a", move |_| a2.send(1));
        go.go("sender-b", move |_| b2.send(2));
        let f = go.select().recv(&a).recv(&b).wait();
        go.check("a-first", f.index == Some(0), || "b came first".to_string());
        let other = if f.index == Some(0) { &b } else { &a };
        other.recv();
    });
    let loom = Engine::Loom {
        preemption_bound: None,
        max_branches: 10_000,
    };
    let o = explore(&loom, &bounds(), model.clone(), None).unwrap();
    assert_eq!(o.shared, vec![vec!["a".to_string(), "b".to_string()]]);
    let f = o
        .finding
        .expect("loom must find the order where b comes first");
    assert_eq!(f.violation().property.key(), "violation:a-first");
    // Shuttle's schedulers keep one point per object.
    let o = explore(&Engine::Random { seed: 7 }, &bounds(), model, None).unwrap();
    assert!(o.shared.is_empty());
}

/// `mu.Lock(); for !ready { cond.Wait() }; mu.Unlock()` against a goroutine that sets
/// `ready` and signals (or broadcasts) under the lock.
fn cond_handshake(go: &Go, waiters: usize, broadcast: bool) {
    let mu = go.mutex("mu");
    let cond = go.cond("queue.cond", &mu);
    let ready = go.data("ready", false);
    let wg = go.waitgroup("wg");
    wg.add(waiters as i64);
    for i in 0..waiters {
        let (mu, cond, ready, wg) = (mu.clone(), cond.clone(), ready.clone(), wg.clone());
        go.go(&format!("waiter{}", i + 1), move |_| {
            mu.lock();
            while !ready.get() {
                cond.wait();
            }
            mu.unlock();
            wg.done();
        });
    }
    mu.lock();
    ready.set(true);
    if broadcast {
        cond.broadcast();
    } else {
        cond.signal();
    }
    mu.unlock();
    wg.wait();
}

#[test]
fn cond_wait_unlocks_parks_and_relocks() {
    expect("pass", |go| cond_handshake(go, 1, false));
    expect("pass", |go| cond_handshake(go, 2, true));
    // Signal wakes one waiter only: with two, the other waits forever. (DFS meets it
    // only after more schedules than this suite's budget; the others find it.)
    let searches = engines()
        .into_iter()
        .filter(|e| *e != Engine::Dfs)
        .collect();
    let m = expect_on(searches, "deadlock", |go| cond_handshake(go, 2, false));
    assert!(
        m.contains("waits on Cond queue.cond, main (signals it)"),
        "{m}"
    );
}

#[test]
fn a_signal_with_nobody_waiting_is_lost() {
    // No predicate loop: a Signal that comes before the Wait is lost, as in Go.
    let m = expect("deadlock", |go| {
        let mu = go.mutex("mu");
        let cond = go.cond("queue.cond", &mu);
        let c = cond.clone();
        go.go("signaller", move |_| c.signal());
        mu.lock();
        cond.wait();
        mu.unlock();
    });
    assert!(
        m.contains("main waits on Cond queue.cond (signalled by nobody)"),
        "{m}"
    );
    // Wait without holding the lock unlocks an unlocked mutex: Go's fatal error.
    expect("fault:unlock-of-unlocked-mutex", |go| {
        let mu = go.mutex("mu");
        go.cond("c", &mu).wait();
    });
}

#[test]
fn nil_channels_block_forever_and_are_never_ready_in_a_select() {
    let m = expect("deadlock", |go| {
        go.nil_chan::<u8>("c").recv();
    });
    assert!(
        m.contains("main waits for receive from nil channel c (blocks forever)"),
        "{m}"
    );
    // A nil case never fires; the ready one does.
    expect("pass", |go| {
        let (n, a) = (go.nil_chan::<u8>("n"), go.chan::<u8>("a", 1));
        a.send(1);
        let f = go.select().send(&n, 7).recv(&n).recv(&a).wait();
        go.check("took a", f.index == Some(2), || format!("{:?}", f.index));
        let d = go.select().recv(&n).default().wait();
        go.check("default", d.index.is_none(), || format!("{:?}", d.index));
    });
    expect("fault:close-of-nil-channel", |go| {
        go.nil_chan::<u8>("c").close()
    });
}

#[test]
fn an_empty_select_blocks_forever() {
    let m = expect("leak", |go| {
        go.go("idle", |go| {
            go.select().wait();
        });
    });
    assert!(
        m.contains("idle waits for select {} (blocks forever)"),
        "{m}"
    );
}

/// A 5 s timeout against the first tick of a 100 ms ticker: with time mode `any` the
/// timeout may fire first; in `virtual` time it never does.
fn tick_or_timeout(go: &Go) {
    let tick = go.ticker("tick", Duration::from_millis(100), 1);
    let timeout = go.after("timeout", Duration::from_secs(5));
    let f = go.select().recv(&tick.c).recv(&timeout).wait();
    go.check("tick-first", f.index == Some(0), || {
        "the 5s timeout fired before the 100ms tick".into()
    });
}

fn with_time(time: stalemate::TimeMode) -> Bounds {
    bounds().time(time)
}

#[test]
fn virtual_time_orders_timers_by_their_durations() {
    let model: ModelFn = Arc::new(tick_or_timeout);
    for e in engines() {
        let any = explore(
            &e,
            &with_time(stalemate::TimeMode::Any),
            model.clone(),
            None,
        )
        .unwrap();
        let key = any.finding.map(|f| f.violation().property.key());
        assert_eq!(
            key.as_deref(),
            Some("violation:tick-first"),
            "{}",
            e.describe()
        );
        let virt = explore(
            &e,
            &with_time(stalemate::TimeMode::Virtual),
            model.clone(),
            None,
        )
        .unwrap();
        assert!(virt.finding.is_none(), "{}", e.describe());
        if matches!(e, Engine::Loom { .. } | Engine::Dfs | Engine::Dpor) {
            assert_eq!(
                virt.explored.stop,
                stalemate::Stop::Exhausted,
                "{}",
                e.describe()
            );
        }
    }
}

/// In virtual time a timer is no goroutine: the clock delivers its tick. Ten timers fit
/// loom's eight threads, fire in deadline order,
/// and a tick nobody is waiting for stays in its channel while the clock moves on.
#[test]
fn virtual_timers_cost_no_goroutine_and_fire_in_deadline_order() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let timers: Vec<_> = (0..10u64)
            .map(|i| go.after(&format!("t{i}"), Duration::from_millis(100 * (10 - i))))
            .collect();
        // t9 (100 ms) first; by the time t0 (1 s) has fired, every other one has too.
        timers[0].recv();
        go.check("clock", go.now() == Duration::from_secs(1), || {
            format!("now {:?}", go.now())
        });
        let ready = timers[1..]
            .iter()
            .filter(|t| t.try_recv() == TryRecv::Value(()))
            .count();
        go.check("ticks kept", ready == 9, || format!("{ready} of 9 ticks"));
    });
    for e in engines() {
        let o = explore(
            &e,
            &with_time(stalemate::TimeMode::Virtual),
            model.clone(),
            None,
        )
        .unwrap();
        assert!(o.finding.is_none(), "{}", e.describe());
    }
}

#[test]
fn sleep_in_virtual_time_wakes_in_deadline_order_and_replays() {
    // Sleeps order the steps by time, but not memory: Go's race detector still reports
    // the unsynchronised write and read, and so does stalemate.
    let model: ModelFn = Arc::new(|go: &Go| {
        let x = go.var("x", 0u8);
        let x1 = x.clone();
        go.go("writer", move |go| {
            go.sleep(Duration::from_secs(1));
            x1.set(1);
        });
        go.sleep(Duration::from_secs(2));
        x.get();
    });
    let b = with_time(stalemate::TimeMode::Virtual);
    let o = explore(&Engine::Dfs, &b, model.clone(), None).unwrap();
    let f = o.finding.expect("a race");
    let v = f.violation();
    // Replaying the schedule gives the same execution, clock included.
    let again = stalemate::explore::replay(model, f.schedule(), &b).unwrap();
    assert_eq!(again.violation(), v);
    assert_eq!(v.property.key(), "data-race");
    // writer wrote at virtual 1s, main read at 2s: the order time forced.
    assert!(
        v.message.contains("writer wrote x") && v.message.contains("main read it"),
        "{}",
        v.message
    );
}

/// Go's race detector has `WaitGroup.Wait` acquire only (what the Dones published) and
/// `Add` above zero order nothing: two goroutines past one `Wait` learn nothing of
/// each other, so a write before one's `Wait` and a read after the other's race. The
/// sleeps fix the order in virtual time (first waiter first) without ordering memory.
#[test]
fn waiters_of_one_waitgroup_are_not_ordered_with_each_other() {
    let b = with_time(stalemate::TimeMode::Virtual);
    for blocked in [false, true] {
        let model = move |go: &Go| {
            let (x, wg) = (go.var("x", 0u8), go.waitgroup("wg"));
            if blocked {
                wg.add(1);
                let w = wg.clone();
                go.go("done", move |go| {
                    go.sleep(Duration::from_secs(1));
                    w.done();
                });
            }
            let (x1, w1) = (x.clone(), wg.clone());
            go.go("first", move |_| {
                x1.set(1);
                w1.wait();
            });
            go.sleep(Duration::from_millis(500));
            wg.wait();
            if blocked {
                go.sleep(Duration::from_secs(2));
            }
            x.get();
        };
        expect_in(engines(), &b, "data-race", model);
    }
    // A Done publishes what its goroutine wrote to the waiter, not to a later `Add`.
    expect_in(engines(), &b, "data-race", |go| {
        let (x, wg) = (go.var("x", 0u8), go.waitgroup("wg"));
        wg.add(1);
        let (x1, w1) = (x.clone(), wg.clone());
        go.go("w", move |_| {
            x1.set(1);
            w1.done();
        });
        go.sleep(Duration::from_secs(1));
        wg.add(1);
        x.get();
        wg.done();
    });
}

/// A buffered channel orders as Go's race detector has it, through its slots: the k-th
/// send before the k-th receive, the k-th receive before the (k+cap)-th send completes,
/// and nothing between two sends in different slots (the sleeps fix the order in
/// virtual time without ordering memory).
#[test]
fn a_buffered_channel_orders_through_its_slots() {
    let b = with_time(stalemate::TimeMode::Virtual);
    // Two sends in two slots: the second sender learns nothing of the first.
    expect_in(engines(), &b, "data-race", |go| {
        let (x, c) = (go.var("x", 0u8), go.chan::<u8>("c", 2));
        let (x1, c1) = (x.clone(), c.clone());
        go.go("first", move |_| {
            x1.set(1);
            c1.send(1);
        });
        go.sleep(Duration::from_secs(1));
        c.send(2);
        x.get();
    });
    // The receive of a value happens after its send, whichever slot; the receive of
    // the first value happens before the send that refills its slot completes,
    // whether that send waited (blocked on the full buffer) or came after.
    for wait in [false, true] {
        expect_in(engines(), &b, "pass", move |go| {
            let (x, c) = (go.var("x", 0u8), go.chan::<u8>("c", 1));
            let (x1, c1) = (x.clone(), c.clone());
            c.send(0);
            go.go("taker", move |go| {
                x1.set(1);
                if wait {
                    go.sleep(Duration::from_secs(1));
                }
                c1.recv();
                go.sleep(Duration::from_secs(5));
                x1.get();
            });
            if !wait {
                go.sleep(Duration::from_secs(2));
            }
            c.send(1);
            x.get();
        });
    }
}

/// A timer's tick is ordered after the timer's arming, as Go's race detector has it
/// (`Reset` releases, the timer's run acquires it and sends through the slot): a write
/// before `Reset` and a read after the tick do not race, whether the tick is handed to
/// a waiting receiver or left in the buffer. (A review found the slot left out of it.)
/// In virtual time, so that the first arming's tick cannot come before the `Stop`
/// (with it, the read would race, in Go too).
#[test]
fn a_tick_is_ordered_after_the_reset_that_armed_it() {
    let b = with_time(stalemate::TimeMode::Virtual);
    for late in [false, true] {
        expect_in(engines(), &b, "pass", move |go| {
            let x = go.var("x", 0u8);
            let t = Arc::new(go.timer("t", Duration::from_secs(60)));
            t.stop();
            let done = go.chan::<()>("done", 0);
            let (t2, x2, d2) = (t.clone(), x.clone(), done.clone());
            go.go("waiter", move |go| {
                if late {
                    // The tick waits in the buffer.
                    go.sleep(Duration::from_secs(1));
                }
                t2.c.recv();
                x2.get();
                d2.send(());
            });
            x.set(1);
            t.reset(Duration::from_millis(1));
            done.recv();
        });
    }
}

#[test]
fn in_any_time_mode_a_clock_in_use_is_never_behind_a_sleep_or_a_fired_timer() {
    let ms = Duration::from_millis;
    expect("pass", move |go| {
        go.use_clock();
        let t = go.after("t", ms(30));
        go.sleep(ms(10));
        let now = go.now();
        go.check("after-sleep", now >= ms(10), || format!("{now:?}"));
        t.recv();
        let now = go.now();
        go.check("after-timer", now >= ms(30), || format!("{now:?}"));
    });
    // Without it the clock stands still in `any` mode.
    expect("pass", move |go| {
        go.sleep(ms(10));
        let now = go.now();
        go.check("still", now.is_zero(), || format!("{now:?}"));
    });
}
