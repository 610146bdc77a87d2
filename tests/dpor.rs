//! stalemate's own DPOR (`dpor`): one execution per class of equivalent interleavings
//! where it can, measured against loom and against exhaustive DFS; each of its
//! reductions with a program that would break it if it were unsound.

use stalemate::Stop;
use stalemate::explore::{Bounds, Census, Engine, ModelFn, Traces, census, explore};
use stalemate::go::{Chan, Go, Var};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;
mod common;
mod reference;

use common::unwaited;
use reference::*;

/// n goroutines each `mu.Lock(); mu.Unlock()` (then `wg.Done()`), main `wg.Wait()`.
fn locks(n: usize, wg: bool) -> ModelFn {
    Arc::new(move |go: &Go| {
        let mu = go.mutex("mu");
        let w = go.waitgroup("wg");
        if wg {
            w.add(n as i64);
        }
        for i in 0..n {
            let (mu, w) = (mu.clone(), w.clone());
            go.go(&format!("g{i}"), move |_| {
                mu.lock();
                mu.unlock();
                if wg {
                    w.done();
                }
            });
        }
        if wg {
            w.wait();
        }
    })
}

/// The model `f` builds for each n: checked against DFS for n = 1..=`checked`
/// (`same_as_dfs`), and dpor's executions for n = 1..=`counted`.
fn checked_counts(checked: usize, counted: usize, f: impl Fn(usize) -> ModelFn) -> Vec<u64> {
    for n in 1..=checked {
        same_as_dfs(f(n));
    }
    (1..=counted)
        .map(|n| run(&Engine::Dpor, f(n)).explored.executions)
        .collect()
}

/// The executions that were new traces, and all of them.
/// dpor's distinct traces among its executions, named by `explore::traces` (each
/// execution's least linearisation), and its executions: equal when no trace is run
/// twice. dpor's own count (`traces`) cannot see a trace run twice.
fn distinct(b: &Bounds, model: ModelFn) -> (u64, u64) {
    let d = stalemate::explore::traces(b, model, false).expect("ran");
    assert_eq!(d.explored.stop, Stop::Exhausted);
    let all: BTreeSet<u128> = d.traces.union(&d.stopped).copied().collect();
    (all.len() as u64, d.explored.executions)
}

fn traces(c: &Census) -> (u64, u64) {
    (
        c.explored
            .traces
            .expect("an exhausted dpor run counts its traces"),
        c.explored.executions,
    )
}

/// Lock orders are the traces: n! executions for n goroutines, where loom needs 4, 63
/// and 4,087.
#[test]
fn lock_orders_are_explored_once_each() {
    let counts: Vec<(u64, u64)> = (2..=4)
        .map(|n| traces(&run(&Engine::Dpor, locks(n, false))))
        .collect();
    assert_eq!(counts, [(2, 2), (6, 6), (24, 24)]);
}

/// With a WaitGroup: the n! lock orders and nothing more, where loom needs 25, 1,545
/// and 504,522. Dones commute (Go's `Done` returns nothing and acquires nothing; which
/// one reaches zero no goroutine can tell), and main's `Wait` comes after them all.
#[test]
fn lock_orders_with_a_waitgroup() {
    let counts: Vec<(u64, u64)> = (2..=4)
        .map(|n| traces(&run(&Engine::Dpor, locks(n, true))))
        .collect();
    assert_eq!(counts, [(2, 2), (6, 6), (24, 24)]);
}

/// Eight goroutines' lock orders (8! = 40,320 traces) and twelve goroutines in all,
/// neither of which loom can run (8 threads at most).
#[test]
fn eight_lockers_and_twelve_goroutines() {
    let c = run(&Engine::Dpor, locks(8, false));
    assert_eq!(traces(&c), (40_320, 40_320));
    let fanout: ModelFn = Arc::new(|go: &Go| {
        let wg = go.waitgroup("wg");
        let results: Vec<_> = (0..11)
            .map(|i| go.chan::<u64>(&format!("r{i}"), 1))
            .collect();
        wg.add(11);
        for (i, r) in results.iter().enumerate() {
            let (wg, r) = (wg.clone(), r.clone());
            go.go(&format!("w{i}"), move |_| {
                r.send((i * i) as u64);
                wg.done();
            });
        }
        wg.wait();
        let sum: u64 = results.iter().map(|r| r.recv().unwrap_or(0)).sum();
        go.check("sum", sum == 385, || format!("sum {sum}"));
    });
    let c = run(&Engine::Dpor, fanout);
    assert!(c.violations.is_empty(), "{:?}", c.violations);
    // One trace: every worker's steps commute with every other's, and main's come
    // after their Dones.
    assert_eq!(traces(&c), (1, 1));
}

/// Eight lockers with a WaitGroup: the 8! lock orders, not 8! x 8! Done orders.
#[test]
fn eight_lockers_with_a_waitgroup() {
    let c = run(&Engine::Dpor, locks(8, true));
    assert_eq!(traces(&c), (40_320, 40_320));
}

/// An RWMutex's writers are locks as a Mutex's are: n! orders for n writers (each
/// behind another is kept back). A writer that finds readers in is an event, for new
/// readers wait for it: a reader that read-locks twice with a writer arriving in
/// between deadlocks (cockroach#52540's shape), and dpor reaches what DFS reaches.
#[test]
fn rwmutex_writers_are_locks() {
    let writers = |n: usize| -> ModelFn {
        Arc::new(move |go: &Go| {
            let rw = go.rwmutex("rw");
            for i in 0..n {
                let rw = rw.clone();
                go.go(&format!("w{i}"), move |_| {
                    rw.lock();
                    rw.unlock();
                });
            }
        })
    };
    let counts: Vec<(u64, u64)> = (2..=4)
        .map(|n| traces(&run(&Engine::Dpor, writers(n))))
        .collect();
    assert_eq!(counts, [(2, 2), (6, 6), (24, 24)]);
    let mixed: ModelFn = Arc::new(|go: &Go| {
        let rw = go.rwmutex("rw");
        let r = rw.clone();
        go.go("reader", move |_| {
            r.rlock();
            r.rlock();
            r.runlock();
            r.runlock();
        });
        for name in ["w1", "w2"] {
            let w = rw.clone();
            go.go(name, move |_| {
                w.lock();
                w.unlock();
            });
        }
    });
    let (dfs, dpor) = same_as_dfs(mixed);
    assert!(
        dpor.violations.contains("deadlock"),
        "{:?}",
        dpor.violations
    );
    assert!(
        dpor.explored.executions < dfs.explored.executions,
        "dpor {} dfs {}",
        dpor.explored.executions,
        dfs.explored.executions
    );
}

/// Read locks commute: n readers that each read-lock and give it back are one trace
/// (loom, DFS: every order of their steps). With a writer among them, what differs is
/// where each reader stands against the writer (before it, holding when it arrives and
/// making it wait, waiting for it, or after it), and dpor reaches what DFS reaches.
#[test]
fn read_locks_commute() {
    let model = |readers: usize, writer: bool| -> ModelFn {
        Arc::new(move |go: &Go| {
            let rw = go.rwmutex("rw");
            for i in 0..readers {
                let rw = rw.clone();
                go.go(&format!("r{i}"), move |_| {
                    rw.rlock();
                    rw.runlock();
                });
            }
            if writer {
                let rw = rw.clone();
                go.go("w", move |_| {
                    rw.lock();
                    rw.unlock();
                });
            }
        })
    };
    let alone: Vec<(u64, u64)> = (2..=4)
        .map(|n| traces(&run(&Engine::Dpor, model(n, false))))
        .collect();
    assert_eq!(alone, [(1, 1), (1, 1), (1, 1)]);
    let (dfs, dpor) = same_as_dfs(model(2, true));
    assert!(dpor.violations.is_empty(), "{:?}", dpor.violations);
    let t = traces(&dpor);
    assert!(t.1 <= 2 * t.0, "{t:?}, dfs {}", dfs.explored.executions);
    assert!(
        t.1 * 20 < dfs.explored.executions,
        "{t:?}, dfs {}",
        dfs.explored.executions
    );
}

/// Main's last step, once the others are done, touches nothing: it took the declaration
/// of main's last operation (here the lock main gave back), which made it race with the
/// goroutine that locks after main returned, and the reversal (main ending first) could
/// not run. Each execution is now a trace of its own: the two lock orders.
#[test]
fn mains_last_step_touches_nothing() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let m = go.mutex("m");
        let m2 = m.clone();
        go.go("g1", move |_| {
            m2.lock();
            m2.unlock();
        });
        m.lock();
        m.unlock();
    });
    let (_, dpor) = same_as_dfs(model);
    assert_eq!(traces(&dpor), (2, 2));
}

/// The outcome normaliser (`unwaited`) merges repeated rounds only in a goroutine that
/// polled: a receiver taking three values from two senders of two each tells
/// [10, 10, 20] from [10, 20, 20], so an engine that missed one of them would differ.
#[test]
fn the_normaliser_keeps_repeats_of_a_goroutine_that_does_not_poll() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 0);
        for v in [10u8, 20] {
            let c = c.clone();
            go.go("sender", move |_| {
                c.send(v);
                c.send(v);
            });
        }
        for _ in 0..4 {
            go.note(format!("got {:?}", c.recv()));
        }
    });
    let (dfs, _) = same_as_dfs(model);
    // Main's values in each outcome, as the normaliser leaves its steps.
    let got: BTreeSet<String> = unwaited(&dfs.outcomes)
        .iter()
        .flat_map(|o| {
            o.lines()
                .filter(|l| l.starts_with("main"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|l| {
            l.split(" / ")
                .filter_map(|s| s.strip_prefix("got Some("))
                .map(|v| v.trim_end_matches(')'))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let all = [
        "10,10,20,20",
        "10,20,10,20",
        "10,20,20,10",
        "20,10,10,20",
        "20,10,20,10",
        "20,20,10,10",
    ];
    assert_eq!(got, all.iter().map(|s| s.to_string()).collect());
}

/// A goroutine woken twice, by two goroutines: each wake-up orders the woken step after
/// its own waker only (one wake object per goroutine and wake-up; with one per
/// goroutine, a later waker and the step an earlier one woke looked dependent, and
/// their reversal, in which the later waker wakes nobody, ended with main asleep: the
/// modern Cacher's going-away consumer took 3,048 executions for 2,656 traces, then
/// 2,672). Here: what DFS reaches, one execution per trace.
#[test]
fn each_wake_up_orders_its_own_step() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (c1, c2) = (go.chan::<u8>("c1", 0), go.chan::<u8>("c2", 0));
        let a = c1.clone();
        go.go("g1", move |_| a.send(1));
        let b = c2.clone();
        go.go("g2", move |_| b.send(2));
        go.note(format!("got {:?}", c1.recv()));
        go.note(format!("got {:?}", c2.recv()));
    });
    same_as_dfs(model.clone());
    let (t, n) = distinct(&bounds(), model);
    assert_eq!(n, t, "{n} executions for {t} traces");
}

/// The virtual clock's advance is an event of its own that no race reversal moves: a
/// select that may time out, a sender that sleeps first or not, and a locker that may
/// block last (and used to carry the advance in its own step): dpor reaches what DFS
/// reaches, one execution per trace.
#[test]
fn the_clocks_advance_is_an_event_of_its_own() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 0);
        let mu = go.mutex("mu");
        let t = go.after("t", Duration::from_millis(20));
        let (c2, mu2) = (c.clone(), mu.clone());
        go.go("sender", move |go| {
            mu2.lock();
            go.sleep(Duration::from_millis(10));
            mu2.unlock();
            go.note(format!("sent {}", c2.try_send(1)));
        });
        let mu3 = mu.clone();
        go.go("locker", move |_| {
            mu3.lock();
            mu3.unlock();
        });
        let f = go.select().recv(&c).recv(&t).wait();
        go.note(format!("case {:?}", f.index));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (dfs, _) = same_as_dfs_in(&b, model.clone());
    assert!(dfs.outcomes.len() >= 2, "{:?}", dfs.outcomes);
    let (t, n) = distinct(&b, model);
    assert_eq!(n, t, "{n} executions for {t} traces");
}

/// A `Wait` above zero is attempted only when every runnable goroutine is kept back
/// (here, while one worker sleeps); the attempt commutes with the Dones, and the step
/// that takes its release is ordered after them all. The attempt used to be a write:
/// reversing it with a Done that came first asked for it where main is kept back, and
/// the explorer expanded that level (cache-sync-wait `isolated`: 70 executions for 32
/// traces, then 38; 30 for 16 since its selects beside a buffer wait as halves).
/// Here: what DFS reaches, one execution per trace, no race.
#[test]
fn a_wait_above_zero_commutes_with_the_dones() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (d1, d2) = (go.data("d1", 0u8), go.data("d2", 0u8));
        let mu = go.mutex("mu");
        let (w, x, m) = (wg.clone(), d1.clone(), mu.clone());
        go.go("sleeper", move |go| {
            m.lock();
            m.unlock();
            go.sleep(Duration::from_millis(10));
            x.set(1);
            w.done();
        });
        let (w, y, m) = (wg.clone(), d2.clone(), mu.clone());
        go.go("worker", move |_| {
            m.lock();
            y.set(2);
            m.unlock();
            w.done();
        });
        let w = wg.clone();
        go.go("quick", move |_| w.done());
        wg.wait();
        mu.lock();
        go.note(format!("d1 {} d2 {}", d1.get(), d2.get()));
        mu.unlock();
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, dpor) = same_as_dfs_in(&b, model.clone());
    assert!(dpor.violations.is_empty(), "{:?}", dpor.violations);
    let (t, n) = distinct(&b, model);
    assert_eq!(n, t, "{n} executions for {t} traces");
    // The model it was found on: a request for each cluster, main waiting for both.
    let m = stalemate::models::find("cache-sync-wait").expect("model");
    let model = m.build(
        "isolated",
        &m.params(&[("requests_a", 1), ("requests_b", 1)]),
    );
    let c = run_in(&Engine::Dpor, &b, model);
    assert!(c.violations.is_empty(), "{:?}", c.violations);
    assert_eq!(traces(&c), (16, 30));
}

/// Two waiters' attempts do not commute: the order they register is the order they
/// are released in, and each released waiter learns what the ones before it knew. A
/// review found that with both attempts commuting (as Dones do) dpor ran one order
/// only, in which the reader learns main's write, and missed the race DFS reaches in
/// the other.
#[test]
fn two_waiters_attempts_are_explored_in_both_orders() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let wg = go.waitgroup("wg");
        wg.add(1);
        let x = go.data("x", 0u8);
        let w = wg.clone();
        go.go("sleeper", move |go| {
            go.sleep(Duration::from_millis(10));
            w.done();
        });
        let (w, y) = (wg.clone(), x.clone());
        go.go("reader", move |go| {
            w.wait();
            go.note(format!("x {}", y.get()));
        });
        x.set(1);
        wg.wait();
    });
    races_as_dfs_does_in_virtual_time(model);
}

/// DFS finds a data race on `model` in virtual time, and dpor the same violations (a
/// racy program: of dpor, the race; its outcomes may be fewer, as DPOR's are).
fn races_as_dfs_does_in_virtual_time(model: ModelFn) {
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let dfs = run_in(&Engine::Dfs, &b, model.clone());
    let dpor = run_in(&Engine::Dpor, &b, model);
    assert!(
        dfs.violations.iter().any(|v| v.contains("data-race")),
        "{:?}",
        dfs.violations
    );
    assert_eq!(dfs.violations, dpor.violations);
}

/// A contended lock: dpor keeps the second locker back while the mutex is held (its
/// wait is no event), and still reaches both orders and everything they lead to.
#[test]
fn a_held_mutex_keeps_its_locker_back_and_loses_nothing() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (mu, x) = (go.mutex("mu"), go.var("x", 0u8));
        let (mu2, x2) = (mu.clone(), x.clone());
        go.go("g1", move |go| {
            mu2.lock();
            x2.set(1);
            mu2.unlock();
            go.note("g1 done");
        });
        mu.lock();
        let seen = x.get();
        mu.unlock();
        go.note(format!("main saw {seen}"));
    });
    let (dfs, dpor) = same_as_dfs(model);
    assert_eq!(traces(&dpor), (2, 2));
    assert!(dfs.explored.executions > dpor.explored.executions);
}

/// main takes m1 then waits on a Cond whose locker (m0) it does not hold: Go's fault.
/// If g1 takes m1 first and blocks holding it, main waits for m1 forever: a deadlock.
/// Both are reached (found by the 5,000-program campaign).
#[test]
fn an_unlock_of_an_unlocked_mutex_is_no_release() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (m0, m1) = (go.mutex("m0"), go.mutex("m1"));
        let cond = go.cond("cond", &m0);
        let c = go.chan::<u8>("c0", 0);
        let m1b = m1.clone();
        go.go("g1", move |_| {
            m1b.lock();
            c.send(1);
            m1b.unlock();
        });
        m1.lock();
        cond.wait();
        m1.unlock();
    });
    let (_, dpor) = same_as_dfs(model);
    assert!(
        dpor.violations.contains("deadlock"),
        "{:?}",
        dpor.violations
    );
    assert!(
        dpor.violations.contains("fault:unlock-of-unlocked-mutex"),
        "{:?}",
        dpor.violations
    );
}

/// An AB/BA deadlock behind held mutexes: found, as DFS finds it.
#[test]
fn a_lock_order_deadlock_is_reached() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (a, b) = (go.mutex("A"), go.mutex("B"));
        let (a2, b2) = (a.clone(), b.clone());
        go.go("t", move |_| {
            b2.lock();
            a2.lock();
            a2.unlock();
            b2.unlock();
        });
        a.lock();
        b.lock();
        b.unlock();
        a.unlock();
    });
    let (_, dpor) = same_as_dfs(model);
    assert!(
        dpor.violations.contains("deadlock"),
        "{:?}",
        dpor.violations
    );
}

/// Dones commute, which Done reaches zero is no behaviour, and what each goroutine did
/// before its Done happens before main's Wait returns: here the three writes before the
/// Dones race with each other (nothing orders them), and both engines say so.
#[test]
fn writes_before_commuting_dones_still_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let wg = go.waitgroup("wg");
        let last = go.data("last", 0u8);
        wg.add(3);
        for i in 1..=3u8 {
            let (wg, last) = (wg.clone(), last.clone());
            go.go(&format!("g{i}"), move |_| {
                last.set(i);
                wg.done();
            });
        }
        wg.wait();
        go.note(format!("main saw {}", last.get()));
    });
    let dfs = run(&Engine::Dfs, model.clone());
    let dpor = run(&Engine::Dpor, model);
    // The writes race (nothing orders them): both report the race, and dpor reaches
    // nothing DFS does not.
    assert!(dfs.violations.contains("data-race"));
    assert!(dpor.violations.contains("data-race"));
    assert!(dpor.violations.is_subset(&dfs.violations));
}

/// Dones commute, and the Wait is ordered after them all: a WaitGroup program's
/// outcomes are DFS's.
#[test]
fn a_waitgroup_program_reaches_what_dfs_reaches() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let wg = go.waitgroup("wg");
        let c = go.chan::<u8>("c", 3);
        wg.add(3);
        for i in 1..=3u8 {
            let (wg, c) = (wg.clone(), c.clone());
            go.go(&format!("g{i}"), move |_| {
                c.send(i);
                wg.done();
            });
        }
        wg.wait();
        let first = c.recv();
        go.note(format!("first {first:?}"));
    });
    same_as_dfs(model);
}

/// A goroutine started by a goroutine is ordered after the step that started it.
#[test]
fn goroutines_started_by_goroutines() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 0);
        let c2 = c.clone();
        go.go("parent", move |go| {
            let c3 = c2.clone();
            go.go("child", move |_| c3.send(2));
            c2.send(1);
        });
        let a = c.recv();
        let b = c.recv();
        go.note(format!("got {a:?} {b:?}"));
    });
    same_as_dfs(model);
}

/// loom against dpor on the same small proofs: dpor never explores more.
#[test]
fn dpor_explores_no_more_than_loom() {
    for (n, wg) in [(2, false), (3, false), (2, true), (3, true)] {
        let l = run(&loom(), locks(n, wg)).explored.executions;
        let d = run(&Engine::Dpor, locks(n, wg)).explored.executions;
        assert!(d <= l, "n {n} wg {wg}: dpor {d}, loom {l}");
    }
}

/// Goroutines that take their locks in turn, three of them the other way round: a
/// deadlock some orders reach, after many that pass.
fn crossed(n: usize) -> ModelFn {
    Arc::new(move |go: &Go| {
        let (a, b) = (go.mutex("A"), go.mutex("B"));
        let w = go.waitgroup("wg");
        w.add(n as i64);
        for i in 0..n {
            let (a, b, w) = (a.clone(), b.clone(), w.clone());
            go.go(&format!("g{i}"), move |_| {
                let (x, y) = if i + 3 >= n { (&b, &a) } else { (&a, &b) };
                x.lock();
                y.lock();
                y.unlock();
                x.unlock();
                w.done();
            });
        }
        w.wait();
    })
}

/// One exploration on two threads explores what it does on one: the same executions,
/// traces, outcomes and violations, uncut (subtrees given to an idle thread) and for a
/// shallow cut and a deep one.
#[test]
fn two_threads_explore_what_one_does() {
    for split in [0, 2, 8] {
        let b = bounds().split(split);
        let one = census(&Engine::Dpor, &b, locks(4, true)).unwrap();
        let two = census(&Engine::Dpor, &b.threads(2), locks(4, true)).unwrap();
        assert_eq!(traces(&one), traces(&two), "split {split}");
        assert_eq!(one.outcomes, two.outcomes);
        assert_eq!(one.violations, two.violations);
    }
}

/// Two parts of one tree, as two machines would run them: every unit is in exactly
/// one, so their executions and traces add up to the whole's, and what they reach
/// together is what the whole reaches.
#[test]
fn two_parts_cover_the_tree_once() {
    let b = bounds().split(8);
    let whole = census(&Engine::Dpor, &b, locks(4, true)).unwrap();
    let part = |k| {
        let c = census(&Engine::Dpor, &b.clone().part(k, 2), locks(4, true));
        c.unwrap()
    };
    let (p0, p1) = (part(0), part(1));
    let (t0, t1, t) = (traces(&p0), traces(&p1), traces(&whole));
    assert_eq!((t0.0 + t1.0, t0.1 + t1.1), t);
    assert!(t0.1 > 0 && t1.1 > 0, "{t0:?} {t1:?}");
    let units = whole.explored.part.map(|p| p.units);
    assert_eq!(units, None, "the whole is no part");
    let (u0, u1) = (p0.explored.part.unwrap(), p1.explored.part.unwrap());
    assert_eq!((u0.k, u0.n, u1.k, u1.n), (0, 2, 1, 2));
    assert!(u0.units == u1.units && u0.units > 2, "{u0:?} {u1:?}");
    assert_eq!(u0.own + u1.own, u0.units, "every unit in one part");
    let both: std::collections::BTreeSet<String> =
        p0.outcomes.union(&p1.outcomes).cloned().collect();
    assert_eq!(both, whole.outcomes);
}

/// A violation found on two threads is the one found on one: the first in the tree's
/// order, at the same execution, with the same schedule, whichever thread met it.
#[test]
fn a_finding_on_two_threads_is_the_finding_on_one() {
    for split in [2, 0, 8] {
        let b = bounds().split(split);
        let find = |threads| {
            let o = explore(&Engine::Dpor, &b.clone().threads(threads), crossed(5), None);
            let f = o.unwrap().finding.expect("the deadlock is found");
            (f.execution, f.violation().property.key(), f.schedule())
        };
        let one = find(1);
        assert_eq!(one.1, "deadlock");
        // Found at the 7th execution, after six lock orders that pass (it was past the
        // 100th before Dones commuted).
        assert_eq!(one.0, 7, "found after the orders that pass");
        for _ in 0..3 {
            assert_eq!(find(2), one, "split {split}");
        }
    }
}

/// The 3,000-program campaign's finding against the first cut, which kept the
/// goroutines asleep above a unit asleep in it: a timer that may fire at any time, a
/// hand-off on an unbuffered channel and two polls. Cut at the 3rd or 4th decision
/// point it lost the order where g2's send waits, g1 takes it, and g2 polls the timer
/// before it fires. Every cut reaches what DFS reaches.
#[test]
fn a_timer_and_a_hand_off_reach_what_dfs_reaches() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let t = go.after("t", Duration::from_millis(20));
        let wg = go.waitgroup("wg");
        wg.add(1);
        let c = c0.clone();
        go.go("g1", move |go| {
            if c.try_recv() == stalemate::go::TryRecv::Empty {
                let got = c.recv();
                go.note(format!("got {got:?}"));
            }
        });
        go.go("g2", move |_| {
            c0.send(20);
            if t.try_recv() == stalemate::go::TryRecv::Empty {
                wg.done();
            }
        });
    });
    let any = bounds().time(stalemate::TimeMode::Any);
    let dfs = census(&Engine::Dfs, &any, model.clone()).unwrap();
    for split in [0, 1, 2, 3, 4, 8] {
        let cut = any.clone().split(split);
        let d = census(&Engine::Dpor, &cut, model.clone()).unwrap();
        assert_eq!(
            unwaited(&d.outcomes),
            unwaited(&dfs.outcomes),
            "split {split}"
        );
        assert_eq!(d.violations, dfs.violations, "split {split}");
    }
}

/// Two senders, on two channels that main selects on, while main waits in the select:
/// either may complete main's select (and the other then fills its buffer). The sends
/// touch different channels, but each, by completing the select, takes main off the
/// other channel's queue; found by the differential campaign (3,000 programs).
#[test]
fn sends_that_complete_one_select_are_explored_in_both_orders() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (c0, c1) = (go.chan::<u8>("c0", 1), go.chan::<u8>("c1", 1));
        let (s0, s1) = (c0.clone(), c1.clone());
        go.go("g1", move |go| {
            go.go("g1.0", move |_| s0.send(0));
            go.go("g1.1", move |_| s1.send(1));
        });
        let f = go.select().recv(&c0).recv(&c1).wait();
        go.note(format!("case {:?}", f.index));
    });
    let (dfs, d) = same_as_dfs(model);
    assert!(dfs.outcomes.len() >= 4, "{:?}", dfs.outcomes);
    assert!(d.explored.executions <= dfs.explored.executions);
}

/// Two requests for a paused cluster, each timing out on the virtual clock
/// (cache-sync-wait with retries): the steps that take what a hand-off gave them follow
/// the step that woke them, so no race reversal asks for one before its waker, an
/// order no execution follows (8 executions for its 1 trace without that edge). And
/// the clock's advance is an event of its own (`explorer::CLOCK`), not part of the step
/// that blocked last: a reversal of two blocking steps no longer asks the one that is
/// not last to advance the clock (4 executions before). One execution; loom 2.
#[test]
fn a_woken_goroutines_step_follows_its_waker() {
    let m = stalemate::models::find("cache-sync-wait").expect("model");
    let model = m.build(
        "isolated",
        &m.params(&[("requests_a", 2), ("requests_b", 0)]),
    );
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let c = census(&Engine::Dpor, &b, model.clone()).expect("ran");
    assert_eq!(c.explored.stop, stalemate::Stop::Exhausted);
    assert!(c.violations.is_empty(), "{:?}", c.violations);
    let l = census(&loom(), &b, model).expect("ran");
    assert_eq!((traces(&c), l.explored.executions), ((1, 1), 2));
}

/// Found by review: a read lock given back by a goroutine that holds none (Go allows
/// it) drops another reader's, and which one depends on who is in. It is a write, and
/// readers are kept in goroutine order, so that read locks that get in still commute.
/// Here B and A read-lock; H, started by A, gives a read lock back; W takes mu and
/// waits to write-lock. If B is the reader left, W and B wait for each other (a
/// deadlock); if A is, W waits for a reader that is gone (a leak). dpor reaches both,
/// as DFS does.
#[test]
fn a_read_lock_given_back_by_another_goroutine_is_a_write() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (rw, mu) = (go.rwmutex("rw"), go.mutex("mu"));
        let (r, m) = (rw.clone(), mu.clone());
        go.go("B", move |_| {
            r.rlock();
            m.lock();
            m.unlock();
            r.runlock();
        });
        let (r, m) = (rw.clone(), mu.clone());
        go.go("A", move |go| {
            r.rlock();
            let r2 = r.clone();
            go.go("H", move |_| r2.runlock());
            let (r3, m3) = (r.clone(), m.clone());
            go.go("W", move |_| {
                m3.lock();
                r3.lock();
                r3.unlock();
                m3.unlock();
            });
        });
    });
    let (dfs, dpor) = same_as_dfs(model);
    assert!(dfs.violations.len() >= 2, "{:?}", dfs.violations);
    assert_eq!(dfs.violations, dpor.violations);
}

/// Found by the differential campaign of seed 20261201 (program 1,224; present before
/// this session's threads): main locks m1 and polls an unbuffered channel under it;
/// g2 locks m1 and sends on that channel. If g2 locks first, its send and main's lock
/// wait for each other (a deadlock); if main does, its poll can never end (a livelock).
/// main's polls that wait read everything, so they stand between the two locks in
/// every order dpor ran, and the race between the locks was never reversed: dpor
/// reported the livelock only. A goroutine kept at a held mutex at the end now races
/// its lock with the holder's.
#[test]
fn a_lock_held_through_a_poll_still_races() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let m1 = go.mutex("m1");
        let c0 = go.chan::<u8>("c0", 0);
        let x0 = go.var("x0", 0u8);
        go.go("g1", move |_| x0.set(10));
        let (m, c) = (m1.clone(), c0.clone());
        go.go("g2", move |_| {
            m.lock();
            c.send(20);
            m.unlock();
        });
        m1.lock();
        let mut poll = go.poll_loop();
        loop {
            poll.round(&());
            if c0.try_recv() != stalemate::go::TryRecv::Empty {
                break;
            }
        }
        m1.unlock();
        c0.send(1);
    });
    let b = bounds().time(stalemate::TimeMode::Any);
    let dfs = census(&Engine::Dfs, &b, model.clone()).unwrap();
    let d = census(&Engine::Dpor, &b, model).unwrap();
    let both = ["deadlock", "livelock"].map(String::from);
    assert_eq!(dfs.violations, both.clone().into());
    assert_eq!(d.violations, both.into());
    assert_eq!(d.explored.stop, stalemate::Stop::Exhausted);
    eprintln!(
        "dpor: {} executions (dfs {})",
        d.explored.executions, dfs.explored.executions
    );
}

/// How many idle rounds a polling loop went before it saw what it waited for is no
/// behaviour: DFS runs up to four before a close, where dpor's poller waits after
/// fewer (`World::poll`). The comparison counts a run of identical rounds as one also
/// where the loop never waited, its goroutine noting what it polled (found by the
/// general shape's campaign of seed 20261202 at its 1,000th program).
#[test]
fn a_polling_loops_idle_rounds_are_no_behaviour() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c = c0.clone();
        go.go("closer", move |_| c.close());
        go.go("poller", move |go| {
            let mut poll = go.poll_loop();
            loop {
                poll.round(&());
                if c0.try_recv() != stalemate::go::TryRecv::Empty {
                    go.note("polled closed".to_string());
                    break;
                }
            }
        });
    });
    same_as_dfs_in(&bounds().time(stalemate::TimeMode::Any), model);
}

/// A send into a buffered channel's free slot and a receive from its oldest one commute
/// (`Mode::Buffered`): a producer's two sends and a consumer's three receives from a
/// buffer of three that holds one value. Only a send and the receive of its own value
/// are ordered (the receive waits for it, or comes after), so dpor runs one execution
/// per such order. With every send and receive a write it ran 9, one per order of each
/// send with each receive; with the receive that waited at the empty buffer an event,
/// 4. Kept back there until a value is in (`held_at_chan`), and never reversed with
/// the send of its value (a `Release` of the slot, the receive an `Acquire`): 1.
#[test]
fn buffered_sends_and_receives_commute() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 3);
        c.send(0);
        let p = c.clone();
        go.go("producer", move |_| {
            p.send(1);
            p.send(2);
        });
        for _ in 0..3 {
            c.recv();
        }
    });
    let (dfs, dpor) = same_as_dfs(model);
    assert!(dfs.explored.executions > dpor.explored.executions);
    assert_eq!(traces(&dpor), (1, 1));
}

/// n workers, each sending its number on a channel of its own of capacity `cap`, and
/// main receiving them in order.
fn fan_in(n: usize, cap: usize) -> ModelFn {
    Arc::new(move |go: &Go| {
        let chans: Vec<Chan<usize>> = (0..n).map(|i| go.chan(&format!("ch{i}"), cap)).collect();
        for (i, c) in chans.iter().enumerate() {
            let c = c.clone();
            go.go(&format!("w{i}"), move |_| c.send(i));
        }
        let sum: usize = chans.iter().map(|c| c.recv().unwrap_or(0)).sum();
        go.note(format!("sum {sum}"));
    })
}

/// A receive at an empty buffer is kept back until a value is in
/// (`State::held_at_chan`), and the receive of a buffered value is never reversed with
/// its send (`Mode::Buffered`); at an unbuffered channel the two halves of a hand-off
/// are never reversed (`Mode::Hand`): a fan-in over channels of capacity 1 or 0 is
/// one execution for any number of workers, where it was 2^n (a receive that waited
/// and one that came late were two orders).
#[test]
fn a_fan_in_is_one_execution() {
    for cap in [0, 1] {
        assert_eq!(
            checked_counts(3, 12, |n| fan_in(n, cap)),
            [1; 12],
            "cap {cap}"
        );
    }
}

/// A fan-in over channels of capacity `cap` where one side of each is a select with no
/// default beside a channel never ready: the workers' sends (`select_sends`) or main's
/// receives.
fn fan_in_through_selects(n: usize, select_sends: bool, cap: usize) -> ModelFn {
    Arc::new(move |go: &Go| {
        let quit = go.chan::<usize>("quit", cap);
        let chans: Vec<Chan<usize>> = (0..n).map(|i| go.chan(&format!("ch{i}"), cap)).collect();
        for (i, c) in chans.iter().enumerate() {
            let c = c.clone();
            go.go(&format!("w{i}"), move |go| {
                if select_sends {
                    // Each its own: selects waiting at one channel are in line there.
                    let quit = go.chan::<usize>(&format!("quit{i}"), cap);
                    go.select().send(&c, i).recv(&quit).wait();
                } else {
                    c.send(i);
                }
            });
        }
        let mut sum = 0;
        for c in &chans {
            sum += if select_sends {
                c.recv().unwrap_or(0)
            } else {
                let mut f = go.select().recv(c).recv(&quit).wait();
                f.take::<usize>().unwrap_or(0)
            };
        }
        go.note(format!("sum {sum}"));
    })
}

/// A select with no default that waits, none of its cases ready, leaves its place at
/// each of its channels, which a plain operation that finds it first in line takes
/// (`Mode::Hand`). The two halves are never reversed, as between two plain
/// operations: main receiving in a select from workers that send plainly is one
/// execution for any number of workers, where it was 2^n (main's select waited, or the
/// worker did). A select that finds a plain operation waiting, one case ready, takes
/// its place too, and is reversed with its wait only where another goroutine's step
/// between touches its other channels: workers that send in selects to main's plain receives are one
/// execution too, where they were 2^n.
#[test]
fn a_fan_in_to_a_waiting_select_is_one_execution() {
    for select_sends in [true, false] {
        let counts = checked_counts(2, 10, |n| fan_in_through_selects(n, select_sends, 0));
        assert_eq!(counts, [1; 10], "select_sends {select_sends}");
    }
}

/// A select with cases at unbuffered channels and at buffered ones waits as a half at
/// the unbuffered ones and writes the buffered ones (`Mode::Hand`'s `buffered`): the
/// workers' sends take its place as they take a plain receive's. Main receiving from n
/// workers in selects beside a quit channel of capacity 1 is one execution, where it
/// was 2^n. Beside a timeout that may fire at any step (`time.After` or
/// `time.NewTimer`, `any` time) it is n + 1, its behaviours (the tick ends the loop at
/// one of the n selects, or comes after the last; DFS's outcomes for n = 1, loom's
/// for 2, 3), where it was 6, 18, 44, 98 for n = 1..4: the tick is a half of a hand-off
/// too (`State::tick_hand`). So is a plain send into the empty buffer of a quit
/// channel that a goroutine sends into (`Chan::placed`): n + 1 there too, where it was
/// 6, 18, 44, 98 with a select that finds the value ready a write.
#[test]
fn a_fan_in_to_selects_beside_a_buffer_is_one_execution() {
    // DFS checks n = 1 beside a timer (its n = 2 runs 207,131 executions), loom the rest.
    let counts = |beside: Beside, checked: usize, most: usize| {
        checked_counts(checked, most, |n| fan_in_beside_a_buffer(n, beside))
    };
    assert_eq!(counts(Beside::Quit, 2, 10), [1; 10]);
    let n_plus_1: Vec<u64> = (2..=11).collect();
    assert_eq!(counts(Beside::After, 1, 10), n_plus_1);
    assert_eq!(counts(Beside::NewTimer, 1, 10), n_plus_1);
    assert_eq!(counts(Beside::Sent, 2, 10), n_plus_1);
    for beside in [Beside::After, Beside::NewTimer, Beside::Sent] {
        for n in 2..=3 {
            let (_, d) = same_as_loom_in(&bounds(), fan_in_beside_a_buffer(n, beside));
            assert_eq!(unwaited(&d.outcomes).len(), n + 1);
        }
    }
}

/// `time.After`'s tick in `any` time is a half of a hand-off (`State::tick_hand`): what
/// else could tell whether a select waited for it, or came after it, still races with
/// it. Main waits for a worker or the timeout, beside: a second select at the same
/// timeout (which of the two takes the tick), a plain receive of the tick (kept back at
/// the empty buffer, it may stand first in line), a try of the tick, a try-send that
/// meets main only while it waits, and `len` of the timer's channel; and main's select
/// with a default; and each with a `time.NewTimer` that a goroutine stops. Each goroutine then takes what is left for it (main closes the
/// timer's channel if it took the tick before the plain receive), so that every
/// behaviour ends without a leak and is an outcome. Every outcome loom's census
/// reaches, in both orders of the goroutines' start.
#[test]
fn a_tick_taken_as_a_hand_off_loses_nothing() {
    type Other = fn(&Go, &Chan<()>, &Chan<u8>);
    // Receives from `c` until it gets `want`, noting each value.
    fn drain(go: &Go, who: &str, c: &Chan<u8>, mut got: Option<u8>, want: u8) {
        while got != Some(want) {
            got = c.recv();
            go.note(format!("{who} then got {got:?}"));
        }
    }
    let others: [(&str, Other); 5] = [
        ("a second select", |go, t, _| {
            let (t, c) = (t.clone(), go.chan::<u8>("c1", 0));
            let w = c.clone();
            go.go("w1", move |_| w.send(2));
            go.go("g", move |go| {
                let mut f = go.select().recv(&c).recv(&t).wait();
                let got = first_value(&mut f);
                go.note(format!("g case {:?}", f.index));
                drain(&go, "g", &c, got, 2);
            });
        }),
        ("a plain receive", |go, t, _| {
            let t = t.clone();
            go.go("g", move |go| {
                let got = t.recv();
                go.note(format!("g got {got:?}"));
            });
        }),
        ("a try", |go, t, _| {
            let t = t.clone();
            go.go("g", move |go| {
                let got = t.try_recv() != stalemate::go::TryRecv::Empty;
                go.note(format!("g tried: {got}"));
            });
        }),
        ("a try-send", |go, _, c| {
            let c = c.clone();
            go.go("g", move |go| {
                let sent = c.try_send(9);
                go.note(format!("g sent: {sent}"));
            });
        }),
        ("len", |go, t, _| {
            let t = t.clone();
            go.go("g", move |go| go.note(format!("g len {}", t.len())));
        }),
    ];
    let timers = [false, true].into_iter();
    let cases = others
        .into_iter()
        .enumerate()
        .flat_map(|b| timers.clone().map(move |t| (b, t)));
    for ((k, (what, other)), new_timer) in cases {
        for flip in [false, true] {
            for default in [false, true] {
                let model: ModelFn = Arc::new(move |go: &Go| {
                    let c = go.chan::<u8>("c0", 0);
                    let w = c.clone();
                    let worker = move |_: Go| w.send(1);
                    let timer = |go: &Go| {
                        if new_timer {
                            let t = Arc::new(go.timer("t", Duration::from_millis(5)));
                            let (c, s) = (t.c.clone(), t.clone());
                            go.go("stopper", move |go| {
                                go.note(format!("stopped {}", s.stop()))
                            });
                            c
                        } else {
                            go.after("t", Duration::from_millis(5))
                        }
                    };
                    let t = if flip {
                        go.go("w0", worker);
                        timer(go)
                    } else {
                        let t = timer(go);
                        go.go("w0", worker);
                        t
                    };
                    other(go, &t, &c);
                    let mut s = go.select().recv(&c).recv(&t);
                    if default {
                        s = s.default();
                    }
                    let mut f = s.wait();
                    let got = first_value(&mut f);
                    go.note(format!("main case {:?} got {got:?}", f.index));
                    if k == 1 && f.index == Some(1) {
                        t.close();
                    }
                    drain(go, "main", &c, got, 1);
                });
                eprintln!("{what}, NewTimer {new_timer}, flip {flip}, default {default}");
                let (_, d) = same_as_loom_in(&bounds(), model);
                assert!(unwaited(&d.outcomes).len() >= 2, "{:?}", d.outcomes);
            }
        }
    }
}

/// The tick's declaration depends on the timer's channel alone, not on who is kept
/// back there (`State::tick_hand`): with the tick a write wherever a plain receive or
/// a select was kept back at the channel, its mode flipped on state no step records,
/// and the differential campaign (`STALEMATE_DIFF_SHAPE=after`, seed 20261505) found
/// an outcome loom reaches and dpor missed once its tree was cut (`Bounds::split`;
/// here at depth 3, 13 of 14). Main serves a capacity-1 channel and a done channel in
/// two selects, stops the timer and closes the done channel; one goroutine selects at
/// the buffer and the timer, one sends twice into the buffer, one selects sending into
/// it or at the done channel. Uncut and cut at every depth to 8, loom's outcomes.
#[test]
fn a_tick_beside_goroutines_kept_back_loses_nothing_in_a_cut_tree() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = Arc::new(go.timer("t", Duration::from_millis(20)));
        let c0: Chan<u8> = go.chan("c0", 1);
        let c1: Chan<u8> = go.done_chan("c1");
        let (a0, tc) = (c0.clone(), t.c.clone());
        go.go("g1", move |go| {
            let mut f = go.select().recv(&a0).recv(&tc).wait();
            let got = first_value(&mut f);
            go.note(format!("g1 case {:?} got {got:?}", f.index));
        });
        let b0 = c0.clone();
        go.go("g2", move |_| {
            b0.send(20);
            b0.send(21);
        });
        let (d0, d1) = (c0.clone(), c1.clone());
        go.go("g3", move |go| {
            let f = go.select().send(&d0, 30).recv(&d1).wait();
            go.note(format!("g3 case {:?}", f.index));
        });
        serve(go, &c0, &c1);
        go.note(format!("stopped {}", t.stop()));
        c1.close();
    });
    let l = run_in(&loom(), &bounds(), model.clone());
    let lo = unwaited(&l.outcomes);
    assert!(lo.len() >= 10, "{lo:?}");
    for split in 0..=8 {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        assert_eq!(l.violations, d.violations, "cut at {split}");
        assert_eq!(lo, unwaited(&d.outcomes), "cut at {split}");
    }
}

/// The fan-in at capacity 1 beside an unbuffered quit channel: a done channel
/// (`Go::done_chan`) or a plain one, closed by a goroutine of its own when `closer`.
fn fan_in_beside_a_quit(n: usize, done: bool, closer: bool) -> ModelFn {
    fan_in_to_selects(n, 1, closer, move |go| {
        if done {
            go.done_chan::<()>("quit")
        } else {
            go.chan::<()>("quit", 0)
        }
    })
}

/// A select beside a done channel, which nobody sends on, is kept back there as at a
/// buffered channel (`State::held_at_select`): main receiving from n workers in
/// selects beside a quit channel is one execution for n = 1..12 where quit is a done
/// channel, and where it is a plain unbuffered channel nobody sends on (its wait is
/// a half at both channels, and each worker's send into the empty buffer takes its
/// place: `Chan::placed`; 2^n with its case at the buffer a write). With a goroutine
/// that closes quit at any point, 4, 10, 20, 35, 56, 84 for n = 1..6 (6, 18, 44, 98,
/// 208, 430 with a plain quit): once both are ready each select chooses.
#[test]
fn a_fan_in_to_selects_beside_a_done_channel_is_one_execution() {
    let counts = |done: bool, closer: bool, most: usize| {
        checked_counts(2, most, |n| fan_in_beside_a_quit(n, done, closer))
    };
    assert_eq!(counts(true, false, 12), [1; 12]);
    assert_eq!(counts(false, false, 12), [1; 12]);
    assert_eq!(counts(true, true, 6), [4, 10, 20, 35, 56, 84]);
    assert_eq!(counts(false, true, 6), [6, 18, 44, 98, 208, 430]);
}

/// A select kept back at a done channel and another channel is let go by whichever of
/// them is first to let it: the step that let it go races with it wherever a step
/// not ordered after that one touches the other (the race analysis reads the written
/// objects of a goroutine kept back at several, so such a select is a write of each,
/// `State::hand_cases`). Main selects at two done channels that two goroutines
/// close, or at a buffer one sends into and a done channel another closes, then
/// tries the other channel: every outcome DFS reaches, in both orders of the
/// goroutines' start (found by review: as a half at the done channel one of them was
/// lost).
#[test]
fn a_select_kept_back_at_a_done_channel_goes_on_by_whichever_lets_it_first() {
    for flip in [false, true] {
        let two_done: ModelFn = Arc::new(move |go: &Go| {
            let (d1, d2) = (go.done_chan::<u8>("d1"), go.done_chan::<u8>("d2"));
            let closers = [d1.clone(), d2.clone()];
            let order = if flip { [1, 0] } else { [0, 1] };
            for k in order {
                let d = closers[k].clone();
                go.go(&format!("close{k}"), move |_| d.close());
            }
            let f = go.select().recv(&d1).recv(&d2).wait();
            let (a, b) = (d1.try_recv(), d2.try_recv());
            go.note(format!("case {:?} d1 {a:?} d2 {b:?}", f.index));
        });
        let (_, d) = same_as_dfs(two_done);
        assert_eq!(unwaited(&d.outcomes).len(), 4, "{:?}", d.outcomes);
        let beside_a_buffer: ModelFn = Arc::new(move |go: &Go| {
            let (c, d) = (go.chan::<u8>("c", 1), go.done_chan::<u8>("d"));
            let (c1, d1) = (c.clone(), d.clone());
            let send = move |_: Go| c1.send(1);
            let close = move |_: Go| d1.close();
            if flip {
                go.go("closer", close);
                go.go("sender", send);
            } else {
                go.go("sender", send);
                go.go("closer", close);
            }
            let f = go.select().recv(&c).recv(&d).wait();
            go.note(format!("case {:?} then c {:?}", f.index, c.try_recv()));
        });
        let (_, d) = same_as_dfs(beside_a_buffer);
        assert_eq!(unwaited(&d.outcomes).len(), 3, "{:?}", d.outcomes);
    }
}

/// A done channel is only received from and closed: a send on it (plain, tried, or a
/// select's case) panics the model, since the reduction that keeps a select back
/// there rests on it.
#[test]
fn a_send_on_a_done_channel_is_a_crash() {
    for form in 0..3 {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let done = go.done_chan::<u8>("done");
            let d = done.clone();
            go.go("reader", move |_| {
                d.recv();
            });
            match form {
                0 => done.send(1),
                1 => {
                    done.try_send(1);
                }
                _ => {
                    let c = go.chan::<u8>("c", 1);
                    go.select().send(&done, 1).recv(&c).wait();
                }
            }
        });
        for engine in [Engine::Dpor, Engine::Dfs] {
            let o = explore(&engine, &bounds(), model.clone(), None).expect("ran");
            let f = o.finding.expect("a crash");
            assert_eq!(
                f.violation().property,
                stalemate::verdict::Property::Crash,
                "form {form}, {engine:?}"
            );
            assert!(
                f.violation()
                    .message
                    .contains("a send on done, a done channel (Go::done_chan)"),
                "{}",
                f.violation().message
            );
        }
    }
}

/// n workers each receiving in a select from a channel of its own beside a quit
/// channel (one each, or one `shared` by all), main sending to each in turn.
fn fan_out_to_selects(n: usize, shared: bool) -> ModelFn {
    Arc::new(move |go: &Go| {
        let quit = go.chan::<usize>("quit", 0);
        let chans: Vec<Chan<usize>> = (0..n).map(|i| go.chan(&format!("ch{i}"), 0)).collect();
        for (i, c) in chans.iter().enumerate() {
            let c = c.clone();
            let q = if shared {
                quit.clone()
            } else {
                go.chan::<usize>(&format!("quit{i}"), 0)
            };
            go.go(&format!("w{i}"), move |go| {
                let mut f = go.select().recv(&c).recv(&q).wait();
                go.note(format!("got {:?}", f.take::<usize>()));
            });
        }
        for (i, c) in chans.iter().enumerate() {
            c.send(i);
        }
    })
}

/// The other way round: main sends to workers that each receive in a select. Where
/// main waits first, the worker's select finds it, its one case ready, and takes its
/// place (never reversed with main's wait but past a step at the select's other
/// channel): one execution for n = 1..6 with a quit channel each, 2^n before. With
/// one shared quit channel, too: the selects' joins of its line commute (nobody
/// takes from it), where every order they joined in was explored (1, 5, 27, 198 for
/// n = 1..4).
#[test]
fn a_fan_out_to_waiting_selects_is_one_execution() {
    for shared in [false, true] {
        let counts = checked_counts(2, 6, |n| fan_out_to_selects(n, shared));
        assert_eq!(counts, [1; 6], "shared {shared}");
    }
}

/// Selects on both sides of a fan-in beside a done channel, Go's shape for work
/// that a context cancels: n workers each `select { case out <- i: case <-stop: }`,
/// main receiving n times in `select { case v := <-out: case <-stop: return }`, over
/// a channel of each worker's own or one shared, and a goroutine closing stop when
/// `closer`.
fn fan_in_both_sides(n: usize, shared: bool, closer: bool) -> ModelFn {
    Arc::new(move |go: &Go| {
        let stop = go.done_chan::<()>("stop");
        let one = go.chan::<usize>("out", 0);
        let outs: Vec<Chan<usize>> = (0..n)
            .map(|i| {
                if shared {
                    one.clone()
                } else {
                    go.chan(&format!("out{i}"), 0)
                }
            })
            .collect();
        for (i, c) in outs.iter().enumerate() {
            let (c, s) = (c.clone(), stop.clone());
            go.go(&format!("w{i}"), move |go| {
                let f = go.select().send(&c, i).recv(&s).wait();
                go.note(format!("case {:?}", f.index));
            });
        }
        if closer {
            let s = stop.clone();
            go.go("cancel", move |_| s.close());
        }
        let mut got = Vec::new();
        for c in &outs {
            let mut f = go.select().recv(c).recv(&stop).wait();
            match f.index {
                Some(0) => got.push(f.take::<usize>().unwrap_or(0)),
                _ => break,
            }
        }
        go.note(format!("got {got:?}"));
    })
}

/// A select that finds a select waiting, its one case ready, takes its place as a
/// half where its other cases are at done channels (`State::meets_select`): selects
/// on both sides of a fan-in beside a done channel are one execution for n = 1..8
/// with a channel each, where they were 2, 8, 48, 384, 3,840 (2^n n!: such a select
/// a write), and n! with one shared channel (which worker main meets, as plain sends
/// and receives: 1, 2, 6, 24, 120, 720), where they were 2, 10, 84, 1,008, 15,840,
/// 332,640. With a goroutine closing stop at any point, n + 1 executions, its
/// behaviours (2^n while each select after the close raced with it: `late.rs`), and
/// every outcome DFS (n = 1) and loom (n = 2..4; one shared channel, 3) reach.
#[test]
fn a_fan_in_with_selects_on_both_sides_is_one_execution() {
    // DFS checks n = 1, 2 without the closer; with it n = 1 (its n = 2 is the
    // slowest check of this file under DFS), and loom the rest.
    let counts = |shared, closer, checked, most| {
        checked_counts(checked, most, |n| fan_in_both_sides(n, shared, closer))
    };
    assert_eq!(counts(false, false, 2, 8), [1; 8]);
    assert_eq!(counts(true, false, 2, 6), [1, 2, 6, 24, 120, 720]);
    assert_eq!(counts(false, true, 1, 6), [2, 3, 4, 5, 6, 7]);
    for n in 2..=4 {
        same_as_loom_in(&bounds(), fan_in_both_sides(n, false, true));
    }
    same_as_loom_in(&bounds(), fan_in_both_sides(3, true, true));
}

/// Three selects at three unbuffered channels, each pair sharing one on opposite
/// sides: main receives at x or yw, t sends at x or receives at yt, o sends at yw or
/// yt. Where t and o pair at yt, main waits for ever. A select that finds another
/// select waiting, its one case ready, does not take its place as a half
/// (`Mode::Hand`): it is a write, raced with the wait as any step. As a half, never
/// reversed with that wait but past a step between at its other channels, it loses
/// the deadlock here: o that takes main's place at yw would, reversed, have waited
/// there and at yt, where t, coming after it, would have met it before main came.
/// And in the fan campaign's program (seed 20261210) the step that would have met the
/// taker at its other channel took the place of the taken select's next wait (where
/// both selects receive), so it was ordered after that select and after the taker.
#[test]
fn a_select_that_finds_a_select_waiting_is_a_write() {
    let triangle: ModelFn = Arc::new(|go: &Go| {
        let x: Chan<u8> = go.chan("x", 0);
        let yw: Chan<u8> = go.chan("yw", 0);
        let yt: Chan<u8> = go.chan("yt", 0);
        let (tx, tyt) = (x.clone(), yt.clone());
        go.go("t", move |go| {
            let f = go.select().send(&tx, 1).recv(&tyt).wait();
            go.note(format!("t {:?}", f.index));
        });
        let (oyw, oyt) = (yw.clone(), yt.clone());
        go.go("o", move |go| {
            let f = go.select().send(&oyw, 2).send(&oyt, 3).wait();
            go.note(format!("o {:?}", f.index));
        });
        let f = go.select().recv(&x).recv(&yw).wait();
        go.note(format!("main {:?}", f.index));
    });
    let (_, d) = same_as_dfs(triangle);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
    // main serves two rounds of a select at c0 and c1; two selects each send at c1 or
    // receive at c0; a plain send at c0. Where the plain send goes to one of the
    // selects and the other to main, main's second round waits for ever.
    let campaign: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<u8> = go.chan("c1", 0);
        for name in ["g1", "g3"] {
            let (a, b) = (c1.clone(), c0.clone());
            go.go(name, move |go| {
                let mut f = go.select().send(&a, 1).recv(&b).wait();
                let i = f.index;
                go.note(format!("{i:?} {:?}", f.take::<u8>()));
            });
        }
        let s = c0.clone();
        go.go("g2", move |_| s.send(2));
        for _ in 0..2 {
            let mut f = go.select().recv(&c0).recv(&c1).wait();
            let i = f.index;
            go.note(format!("main {i:?} {:?}", f.take::<u8>()));
        }
    });
    let (l, d) = same_as_loom_in(&bounds(), campaign);
    assert!(l.violations.contains("deadlock"), "{:?}", l.violations);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
}

/// n workers each waiting to receive from one stop channel (plainly, or in a select
/// beside a channel of its own), main closing it (then trying to receive from it, if
/// `tries`), then waiting for them.
fn broadcast_close(n: usize, select: bool, tries: bool) -> ModelFn {
    Arc::new(move |go: &Go| {
        let stop = go.chan::<u8>("stop", 0);
        let wg = go.waitgroup("wg");
        wg.add(n as i64);
        for i in 0..n {
            let (s, w) = (stop.clone(), wg.clone());
            let own = go.chan::<u8>(&format!("own{i}"), 0);
            go.go(&format!("w{i}"), move |go| {
                if select {
                    go.select().recv(&s).recv(&own).wait();
                } else {
                    s.recv();
                }
                w.done();
            });
        }
        stop.close();
        if tries {
            let f = go.select().recv(&stop).default().wait();
            go.note(format!("tried {:?}", f.index));
        }
        wg.wait();
    })
}

/// A close completes a receive waiting at its channel as it completes one that comes
/// after: the zero value, synced with the close (`Access::Close`: the close commutes
/// with a step that joins the channel's receive line); and receives that find the
/// channel closed commute with each other and with the joins (`Mode::Closed`, reads,
/// a try's too). A plain receive that finds it closed commutes with the close as well
/// (`Mode::Closed`'s `waits`): had it come first it would have waited there, seen by
/// nobody but a step at that channel, and the close would have completed it. Workers
/// waiting on `<-stop`, and main closing it (and then trying it): 1 execution for
/// n = 1..6 plainly, 2 where each waits in a select beside a channel of its own
/// (where they were (n + 1)!: every order of the joins and the close, and of the
/// receives after it; with the try 3, 10, 38, 168, 872, 5,296 while it was a write).
/// The select's second: a select after the close races with it (waiting, a select is
/// seen at its other channels, `a_receive_after_a_close_that_a_try_could_have_met_races_with_it`).
#[test]
fn a_close_completes_waiting_receives_as_it_would_late_ones() {
    for (select, tries) in [(false, false), (true, false), (false, true), (true, true)] {
        let counts = checked_counts(2, 6, |n| broadcast_close(n, select, tries));
        assert_eq!(counts, [1; 6], "select {select}, tries {tries}");
    }
}

/// Two selects at opposite sides of `out`, each beside a channel main closes
/// (`stop`, or `stop1` and `stop2` when `two`), and, when `third`, a goroutine that
/// tries to receive from `out`. Main closes first and waits for them, so the first
/// execution has every select late (`Access::Late`).
fn late_selects(two: bool, third: bool, done: bool) -> ModelFn {
    Arc::new(move |go: &Go| {
        let mk = |name: &str| {
            if done {
                go.done_chan::<()>(name)
            } else {
                go.chan::<()>(name, 0)
            }
        };
        let s1 = mk("stop1");
        let s2 = if two { mk("stop2") } else { s1.clone() };
        let out: Chan<u8> = go.chan("out", 0);
        let wg = go.waitgroup("wg");
        wg.add(if third { 3 } else { 2 });
        let (o, s, w) = (out.clone(), s1.clone(), wg.clone());
        go.go("a", move |go| {
            let f = go.select().send(&o, 1).recv(&s).wait();
            go.note(format!("a case {:?}", f.index));
            w.done();
        });
        let (o, s, w) = (out.clone(), s2.clone(), wg.clone());
        go.go("b", move |go| {
            let mut f = go.select().recv(&o).recv(&s).wait();
            let got = first_value(&mut f);
            go.note(format!("b case {:?} got {got:?}", f.index));
            w.done();
        });
        if third {
            let (o, w) = (out.clone(), wg.clone());
            go.go("t", move |go| {
                let mut f = go.select().recv(&o).default().wait();
                let got = first_value(&mut f);
                go.note(format!("t case {:?} got {got:?}", f.index));
                w.done();
            });
        }
        s1.close();
        if two {
            s2.close();
        }
        wg.wait();
    })
}

/// A select that finds its channel closed (a late select) is not raced with the
/// close where, waiting before it, it would have been seen by nobody else: the close
/// would have completed it with the same zero value (`late.rs`). What waiting there
/// could have met is raced with it instead: a step after the close at one of its
/// other channels (here the other select, or a try), inserted as the select waiting
/// before the close and that step meeting it. Without that insertion dpor loses
/// the hand-off between the two selects: main closes first, so every select of the
/// first execution is late. With one closed channel or two, a plain one or a done
/// channel, and a third goroutine's try: what loom reaches, the hand-off among it.
#[test]
fn late_selects_at_both_sides_of_a_channel_still_pair() {
    for two in [false, true] {
        for third in [false, true] {
            for done in [false, true] {
                let (_, d) = same_as_loom_in(&bounds(), late_selects(two, third, done));
                let got = unwaited(&d.outcomes);
                let what = format!("two {two}, third {third}, done {done}");
                assert!(
                    reaches(&d, &["a case Some(0)", "b case Some(0) got Some(1)"]),
                    "{what}: {got:?}"
                );
                if third {
                    assert!(
                        reaches(&d, &["t case Some(0) got Some(1)"]),
                        "{what}: {got:?}"
                    );
                }
            }
        }
    }
}

/// The same, the tree cut into units at every depth to 8 (`Bounds::split`): a late
/// select's pairs are found in the execution that has them, whichever unit runs it.
#[test]
fn late_selects_pair_in_a_cut_tree() {
    for (two, third) in [(false, true), (true, true)] {
        let model = late_selects(two, third, true);
        let l = run_in(&loom(), &bounds(), model.clone());
        let want = unwaited(&l.outcomes);
        for split in 0..=8 {
            let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
            assert_eq!(l.violations, d.violations, "two {two}, cut at {split}");
            assert_eq!(want, unwaited(&d.outcomes), "two {two}, cut at {split}");
        }
    }
}

/// A plain receive after a close commutes with it, but not with a step that would
/// have met it waiting: a try to send before the close (reversed with the receive, it
/// hands the receive its value). The receive reads its channel, which the try writes.
/// A worker receives from `c` (an unbuffered channel, or one of capacity 1); main
/// tries to send 7 on it and closes it, or waits for a goroutine that tries (a close
/// beside a send would be a data race). dpor reaches what DFS reaches, 7 received
/// among it.
#[test]
fn a_plain_receive_after_a_close_still_meets_a_try_before_it() {
    for cap in [0, 1] {
        for by_main in [true, false] {
            let model: ModelFn = Arc::new(move |go: &Go| {
                let c: Chan<u8> = go.chan("c", cap);
                let r = c.clone();
                go.go("r", move |go| {
                    let v = r.recv();
                    go.note(format!("r {v:?}"));
                });
                fn try_send(go: &Go, t: &Chan<u8>) {
                    let f = go.select().send(t, 7).default().wait();
                    go.note(format!("try {:?}", f.index));
                }
                if by_main {
                    try_send(go, &c);
                } else {
                    let (t, done) = (c.clone(), go.chan::<u8>("done", 0));
                    let d = done.clone();
                    go.go("t", move |go| {
                        try_send(&go, &t);
                        d.send(1);
                    });
                    done.recv();
                }
                c.close();
            });
            let b = bounds().time(stalemate::TimeMode::Virtual);
            let (_, d) = same_as_dfs_in(&b, model);
            let got = unwaited(&d.outcomes);
            assert!(
                reaches(&d, &["r Some(7)"]),
                "cap {cap}, by main {by_main}: {got:?}"
            );
        }
    }
}

/// A close that finds a sender waiting (it panics it) still races with a plain receive
/// after it: had the receive come first, it would have taken the sender's value, not
/// waited. Nothing else reverses them where the clock orders the sender's wait before
/// the receive (found in review): a sender waits at `c`; a receiver and main sleep,
/// then main closes `c` and the receiver receives. Lost with the close commuting with
/// the receive: the receiver takes 1, and the close races with the send (a data race).
#[test]
fn a_close_that_finds_a_sender_waiting_races_with_a_receive_after_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c: Chan<u8> = go.chan("c", 0);
        let s = c.clone();
        go.go("s", move |_| s.send(1));
        let r = c.clone();
        go.go("r", move |go| {
            go.sleep(Duration::from_millis(1));
            let v = r.recv();
            go.note(format!("r {v:?}"));
        });
        go.sleep(Duration::from_millis(1));
        c.close();
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (dfs, _) = same_as_dfs_in(&b, model);
    assert!(dfs.violations.contains("data-race"), "{:?}", dfs.violations);
}

/// A receive after a close still races with it, even where, had it come first, it
/// would have waited and the close completed it: waiting, a select is seen at its
/// other channels. Tried as commuting with the close (a select with no default that
/// finds its channel closed), dpor lost four of loom's outcomes here (the general
/// campaign of seed 20261218): main closes `c2`; `g1` serves two rounds of a select
/// at `c0` and `c2`; `g2` and `g3` each try to send on `c0`. Lost: the tries hand
/// their values to `g1`'s waiting select before the close.
#[test]
fn a_receive_after_a_close_that_a_try_could_have_met_races_with_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c2: Chan<u8> = go.chan("c2", 0);
        let (a0, a2) = (c0.clone(), c2.clone());
        go.go("g1", move |go| {
            for _ in 0..2 {
                let mut f = go.select().recv(&a0).recv(&a2).wait();
                let i = f.index;
                let v = f.take::<u8>();
                go.note(format!("served {i:?} got {v:?}"));
                if v.is_none() {
                    break;
                }
            }
        });
        for (name, v) in [("g2", 20), ("g3", 30)] {
            let b = c0.clone();
            go.go(name, move |go| {
                let f = go.select().send(&b, v).default().wait();
                go.note(format!("case {:?}", f.index));
            });
        }
        c2.close();
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_dfs_in(&b, model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["got Some(20)", "got Some(30)"]), "{got:?}");
}

/// A close still races with a select that took at another of its channels, finding
/// this one open: had the close come first, the select would have chosen between the
/// two. Lost with a close commuting with every step that saw its channel open.
#[test]
fn a_close_races_with_a_select_that_found_its_channel_open() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let x: Chan<u8> = go.chan("x", 0);
        let y: Chan<u8> = go.chan("y", 0);
        let yy = y.clone();
        go.go("s", move |_| yy.send(1));
        let (tx, ty) = (x.clone(), y.clone());
        go.go("t", move |go| {
            let mut f = go.select().recv(&tx).recv(&ty).wait();
            let i = f.index;
            go.note(format!("t {i:?} {:?}", f.take::<u8>()));
            if i == Some(0) {
                ty.recv();
            }
        });
        go.go("c", move |_| x.close());
    });
    let (_, d) = same_as_dfs(model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["t Some(0) None"]), "{got:?}");
    assert!(reaches(&d, &["t Some(1) Some(1)"]), "{got:?}");
}

/// A select with no default whose cases are all at buffered channels, none ready, is
/// kept back until one is (`State::held_at_select`), as a plain operation at a
/// buffered channel is: main receiving in selects from workers that send into
/// channels of capacity 1 is one execution for any number of workers, where it was
/// 2^n (main's select waited, or came after the send). Workers sending in selects
/// into empty buffers find room at once: one execution too.
#[test]
fn a_fan_in_to_a_select_at_buffered_channels_is_one_execution() {
    for select_sends in [true, false] {
        let counts = checked_counts(2, 10, |n| fan_in_through_selects(n, select_sends, 1));
        assert_eq!(counts, [1; 10], "select_sends {select_sends}");
    }
}

/// A select kept back at buffered channels, to send where the buffer is full, waits
/// only once every runnable goroutine is kept back, but in Go it came to wait when it
/// came to the select: ahead, in the channel's queue, of a select that began to wait
/// there since (one with a case at an unbuffered channel, which is not kept back). A
/// receive after `synctest.Wait` moves the first waiter's value into the buffer. Which
/// selects it came before is a choice of its wait (`go::chan::ahead`); without it
/// dpor reached only the other select's value second. The place is part of the
/// schedule: a replay puts it there again.
#[test]
fn a_select_kept_back_may_have_come_before_a_select_that_waits() {
    let model = |panics: bool| -> ModelFn {
        Arc::new(move |go: &Go| {
            let c = go.chan::<u8>("c", 1);
            let d = go.chan::<u8>("d", 1);
            let never = go.chan::<u8>("never", 0);
            c.send(0);
            let (k, kd) = (c.clone(), d.clone());
            go.go("kept", move |go| {
                go.select().send(&k, 1).recv(&kd).wait();
            });
            let t = c.clone();
            go.go("select", move |go| {
                go.select().send(&t, 2).recv(&never).wait();
            });
            go.settle();
            c.recv();
            let second = c.recv();
            if panics && second == Some(1) {
                panic!("the kept select came first");
            }
            go.note(format!("second {second:?}"));
            c.recv();
        })
    };
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_dfs_in(&b, model(false));
    assert_eq!(unwaited(&d.outcomes).len(), 2, "{:?}", d.outcomes);
    let o = explore(&Engine::Dpor, &b, model(true), None).expect("ran");
    let f = o
        .finding
        .expect("the order where the kept select came first");
    assert!(f.violation().message.contains("the kept select came first"));
    let again = stalemate::explore::replay(model(true), f.schedule(), &b).expect("ran");
    assert_eq!(again.violation(), f.violation());
}

/// dpor reaches every trace the expanded search runs, in `counts` (executions,
/// traces), and the outcomes and violations DFS reaches.
fn runs_every_trace_as_dfs(b: &Bounds, model: ModelFn, counts: (u64, usize)) {
    let (d, all) = traces_agree(b, model.clone());
    assert_eq!((d.explored.executions, all.traces.len()), counts);
    same_as_dfs(model);
}

/// A select kept back at two buffered channels goes on once either has a value: a
/// try-send on one lets it go, but a send on the other, independent of the try, could
/// have let it go first, and then the try comes after the select. The enabler rule
/// (the step that let a goroutine go is never reversed with it) would lose those
/// traces: the step that let it go races with it as any dependent step where another
/// step, not ordered after it, touches the select's other channel (found by the
/// differential test's fan shape: 5 of 18 traces lost).
#[test]
fn a_select_kept_back_goes_on_by_whichever_channel_lets_it_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 1);
        let c1: Chan<u8> = go.chan("c1", 1);
        let a = c0.clone();
        go.go("g1", move |_| a.send(1));
        let b = c1.clone();
        go.go("g2", move |go| {
            let f = go.select().send(&b, 2).default().wait();
            go.note(format!("tried {:?}", f.index));
        });
        let c = c0.clone();
        go.go("g3", move |_| c.send(3));
        serve_twice(go, &c0, &c1);
    });
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(1_000);
    runs_every_trace_as_dfs(&b, model, (20, 18));
}

/// A select kept back at two buffered channels can be disabled again: a receive takes
/// the value it could have taken, and a later send lets it go. The step that disabled
/// it races with its step, and where a step between, not ordered after that one,
/// touches the select's other channel (a try-receive there), the order of that step
/// and the select is another trace: the reversal keeps it before the select, as a
/// plain race's does. Without it dpor lost 2 of 12 traces (the differential test's
/// fan shape, seed 20261205, program 2,721): g2's try on c0 before main's first select
/// took g2's value, with g1's value left to the second select or to g3.
#[test]
fn a_select_kept_back_again_races_with_the_step_that_disabled_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 1);
        let c1: Chan<u8> = go.chan("c1", 1);
        let a = c1.clone();
        go.go("g1", move |_| a.send(1));
        let (b, b0) = (c1.clone(), c0.clone());
        go.go("g2", move |go| {
            b.send(2);
            let tried = b0.try_recv();
            go.note(format!("tried {tried:?}"));
        });
        let r = c1.clone();
        go.go("g3", move |go| {
            let got = r.recv();
            go.note(format!("g3 got {got:?}"));
        });
        serve_twice(go, &c0, &c1);
    });
    let b = Bounds::default().max_executions(1_000);
    runs_every_trace_as_dfs(&b, model, (17, 12));
}

/// A select kept back is raced as its attempt at the last level of the stretch it is
/// kept back too (had it waited as a step it could have come as late as where it was
/// let go), after a step that touches its other channel: the race with a step before the
/// stretch keeps such a step before the select. Here main's receive races with g1's
/// select, and g3's failed try-send on c0 comes before the select takes g2's value
/// from c1, main then waiting for ever. Raced at the first level of the stretch alone,
/// with no other rule, dpor lost 1 of 23 traces (the differential test's fan shape, seed
/// 20261207, program 596).
#[test]
fn a_select_kept_back_races_as_if_it_came_as_late_as_it_was_let_go() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 1);
        let c1: Chan<u8> = go.chan("c1", 1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |go| {
            let mut f = go.select().send(&a0, 1).recv(&a1).wait();
            let i = f.index;
            go.note(format!("g1 {i:?} got {:?}", f.take::<u8>()));
        });
        let (b0, b1) = (c0.clone(), c1.clone());
        go.go("g2", move |_| {
            b1.send(2);
            b0.send(2);
        });
        let t = c0.clone();
        go.go("g3", move |go| {
            let f = go.select().send(&t, 3).default().wait();
            go.note(format!("tried {:?}", f.index));
        });
        c1.recv();
        serve_twice(go, &c0, &c1);
    });
    let b = Bounds::default().max_executions(1_000);
    let (d, all) = traces_agree(&b, model.clone());
    assert_eq!((d.explored.executions, all.traces.len()), (28, 23));
    // Outcomes against loom's census: exhaustive DFS takes minutes here.
    same_as_loom_in(&bounds(), model);
}

/// A select that finds a plain operation waiting, one case ready, takes its place, but
/// reversed it would wait, and a step between would see it at its other cases. Here a
/// try-send on the select's other channel completes it while it waits, and main, whose
/// receive the select would have met, waits for ever: the select races with main's
/// wait because the try stands between them (lost without that race; found by the
/// fan campaign of seed 20261203, where the select named one channel on both sides and
/// a third goroutine's send took the place of the try, a select that is no half).
#[test]
fn a_select_that_finds_its_partner_could_have_waited() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let d: Chan<u8> = go.chan("d", 0);
        let (a, dd) = (c0.clone(), d.clone());
        go.go("s", move |go| {
            let mut f = go.select().send(&a, 5).recv(&dd).wait();
            let i = f.index;
            go.note(format!("s {i:?} {:?}", f.take::<u8>()));
        });
        go.go("t", move |go| {
            let ok = d.try_send(9);
            go.note(format!("t {ok}"));
        });
        let v = c0.recv();
        go.note(format!("main {v:?}"));
    });
    let (_, d) = same_as_dfs(model);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
    let campaign: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<u8> = go.chan("c1", 0);
        let a = c0.clone();
        go.go("g1", move |go| {
            go.select().send(&a, 5).recv(&a).wait();
        });
        go.go("g2", move |_| c1.send(6));
        let b = c0.clone();
        go.go("g3", move |_| b.send(7));
        c0.recv();
    });
    let b = bounds();
    let dfs = run_in(&Engine::Dfs, &b, campaign.clone());
    let d = run_in(&Engine::Dpor, &b, campaign);
    assert_eq!(d.violations, dfs.violations);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
}

/// Two senders that wait at one unbuffered channel, then main (after a sleep, so both
/// wait first) takes two values as `take` does, noting them.
fn two_senders_then(take: fn(&Chan<u8>) -> String) -> ModelFn {
    Arc::new(move |go: &Go| {
        let c: Chan<u8> = go.chan("c", 0);
        for (name, v) in [("g1", 1), ("g2", 2)] {
            let c = c.clone();
            go.go(name, move |_| c.send(v));
        }
        go.sleep(Duration::from_millis(1));
        let got = [take(&c), take(&c)];
        go.note(format!("main {got:?}"));
    })
}

/// dpor reaches what DFS reaches, main getting the values in both orders.
fn takes_both_orders(model: ModelFn) -> (Census, Census) {
    let b = Bounds::default().time(stalemate::TimeMode::Virtual);
    let (dfs, d) = same_as_dfs_in(&b, model);
    let got = unwaited(&d.outcomes);
    for order in [r#"main ["1", "2"]"#, r#"main ["2", "1"]"#] {
        assert!(reaches(&d, &[order]), "{order}: {got:?}");
    }
    (dfs, d)
}

/// Waits of one side at an unbuffered channel join its line, and joins commute: two
/// senders waiting there are one trace in either order, but the receive that takes
/// the first in line tells them apart. It races with the wait it took where the other
/// joined between them, so main receives the values in both orders (one is lost
/// without that race), in 2 executions.
#[test]
fn a_receive_takes_whichever_sender_joined_first() {
    let (dfs, d) = takes_both_orders(two_senders_then(|c| c.recv().unwrap().to_string()));
    assert_eq!(d.explored.executions, 2);
    assert!(dfs.explored.executions > 2, "{}", dfs.explored.executions);
}

/// As `a_receive_takes_whichever_sender_joined_first`, with tries for the receives:
/// a try writes the channel and takes whichever join is first in line, so every two
/// joins there race (one order of the values lost without that race: the clock's
/// advance stands between the joins and the tries, so the tries race with neither).
#[test]
fn a_try_takes_whichever_sender_joined_first() {
    let (_, d) = takes_both_orders(two_senders_then(|c| match c.try_recv() {
        stalemate::go::TryRecv::Value(v) => v.to_string(),
        _ => "nothing".to_string(),
    }));
    eprintln!("dpor {} executions", d.explored.executions);
}

/// A goroutine started after two senders joined the line takes the first in its
/// first operation, and main, which started it, joins the line after: the join it
/// took is the one whose place it acquires, and the two before it race. (A start is
/// a step of its own, so the taker's operation never acquires what the `go`
/// released; the race skips a start in any case, as review asked.)
#[test]
fn a_first_step_takes_whichever_sender_joined_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c: Chan<u8> = go.chan("c", 0);
        for (name, v) in [("g1", 1), ("g2", 2)] {
            let c = c.clone();
            go.go(name, move |_| c.send(v));
        }
        go.sleep(Duration::from_millis(1));
        let r = c.clone();
        go.go("r", move |go| {
            let v = r.recv();
            r.recv();
            r.recv();
            go.note(format!("r {v:?}"));
        });
        c.send(3);
    });
    let b = Bounds::default().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_dfs_in(&b, model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["r Some(1)"]), "{got:?}");
    assert!(reaches(&d, &["r Some(2)"]), "{got:?}");
}

/// A select that takes a plain receive's place at c0 would, reversed, have waited at
/// d too, where another select between could have paired with it: that one declares
/// d as a taker does (an `Add`, a read of the other side's line), which conflicts
/// with none of the taker's own accesses there, only with the join it would have
/// made. Raced against that join, main's deadlock is found (lost without; found in
/// review).
#[test]
fn a_select_that_takes_a_place_would_have_met_a_select_at_its_other_channel() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let d: Chan<u8> = go.chan("d", 0);
        let x: Chan<u8> = go.chan("x", 0);
        let r = x.clone();
        go.go("r", move |_| {
            r.recv();
        });
        let (ux, ud) = (x.clone(), d.clone());
        go.go("u", move |go| {
            let f = go.select().send(&ux, 1).send(&ud, 2).wait();
            go.note(format!("u {:?}", f.index));
        });
        let (sc, sd) = (c0.clone(), d.clone());
        go.go("s", move |go| {
            let mut f = go.select().send(&sc, 5).recv(&sd).wait();
            let i = f.index;
            go.note(format!("s {i:?} {:?}", f.take::<u8>()));
        });
        let v = c0.recv();
        go.note(format!("main {v:?}"));
    });
    let (_, d) = same_as_dfs(model);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
}

/// Three receivers join one line and a sender takes the first (the fan campaign of
/// seed 20261205): the races of the joins it tells apart, checked against sleeping
/// goroutines with the steps after them, were inserted again in each unit of a cut
/// tree, whose sleep sets see joins as conflicting, and the exploration never ended.
/// Checked by their start alone, it ends, cut or whole, with loom's outcomes.
#[test]
fn joins_told_apart_in_a_cut_tree_are_explored_once() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 1);
        let c1: Chan<u8> = go.chan("c1", 0);
        let a = c0.clone();
        go.go("g1", move |_| a.send(1));
        for name in ["g2", "g4"] {
            let b = c1.clone();
            go.go(name, move |go| {
                let v = b.recv();
                go.note(format!("{v:?}"));
            });
        }
        let b = c1.clone();
        go.go("g3", move |_| b.send(3));
        c1.recv();
    });
    for split in [0, 2] {
        let b = Bounds::default()
            .time(stalemate::TimeMode::Virtual)
            .max_executions(30_000)
            .split(split);
        let (_, d) = same_as_loom_in(&b, model.clone());
        assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
    }
}

/// A send that completes main's waiting select is never reversed with its wait, and
/// races instead with what used its channel before: main's try-receive, which gets
/// the value where the send waited first (then main's select waits for ever). A
/// try-send on the select's other channel stands between them; the send touches that
/// channel only by taking the select off it (`Access::Withdraw`), so it neither races
/// with that step nor counts it as standing between (found by review: the deadlock
/// was lost).
#[test]
fn a_hand_off_to_a_select_races_past_its_other_channels() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 0);
        let b = go.chan::<u8>("b", 0);
        let a2 = a.clone();
        go.go("g", move |_| a2.send(7));
        let got = a.try_recv();
        go.note(format!(
            "try got {:?}",
            got != stalemate::go::TryRecv::Empty
        ));
        b.try_send(0);
        let f = go.select().recv(&a).recv(&b).wait();
        go.note(format!("select {:?}", f.index));
    });
    let (_, d) = same_as_dfs(model);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
}

/// A select that names one channel twice on one side is no half of a hand-off: where
/// its partner came first, both its cases are ready and it chooses; where it waited,
/// the partner takes the first. So it is a write, reversed as any step (found by
/// review: case 2 was lost).
#[test]
fn a_select_naming_a_channel_twice_chooses_between_them() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 0);
        let a2 = a.clone();
        go.go("g", move |_| a2.send(1));
        let f = go.select().recv(&a).recv(&a).wait();
        go.note(format!("case {:?}", f.index));
    });
    let (_, d) = same_as_dfs(model);
    let cases: Vec<bool> = ["case Some(0)", "case Some(1)"]
        .iter()
        .map(|c| d.outcomes.iter().any(|o| o.contains(c)))
        .collect();
    assert_eq!(cases, [true, true]);
}

/// Nor is a select that names one channel on both sides: a third goroutine on the
/// side opposite the taker could pair with the select or with the taker, and that
/// pairing was never raced. Here main's select sends on `c0` and receives from it, `g`
/// receives and `h` sends: where `g` waits first and `h` hands it its value, main's
/// select waits for ever (found by review: dpor reported the leak only).
#[test]
fn a_select_naming_a_channel_on_both_sides_is_no_half() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let (g, h) = (c0.clone(), c0.clone());
        go.go("g", move |_| {
            g.recv();
        });
        go.go("h", move |_| h.send(2));
        go.select().recv(&c0).send(&c0, 10).wait();
    });
    let (_, d) = same_as_dfs(model);
    assert!(d.violations.contains("deadlock"), "{:?}", d.violations);
}

/// Selects kept back at buffered channels whose attempts run once every goroutine is
/// kept back (main asleep in virtual time) wait in the order of their attempts, which
/// race as any steps; like plain operations, they choose no place ahead of one
/// another, only ahead of a select that waited without being kept back. Three selects
/// over pairs of three channels, main sending on each after a sleep: one execution per
/// order of their attempts, 3! (48 when each also chose its place among the others,
/// with the same outcomes, found by review).
#[test]
fn selects_kept_back_wait_in_the_order_of_their_attempts() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let ch: Vec<Chan<u8>> = ["a", "b", "c"].iter().map(|n| go.chan(n, 1)).collect();
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            let (x, y) = (ch[i].clone(), ch[j].clone());
            go.go(&format!("s{i}{j}"), move |go| {
                let mut f = go.select().recv(&x).recv(&y).wait();
                let i = f.index;
                go.note(format!("case {i:?} got {:?}", f.take::<u8>()));
            });
        }
        go.sleep(Duration::from_millis(1));
        for (k, c) in ch.iter().enumerate() {
            c.send(k as u8 + 1);
        }
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_loom_in(&b, model);
    assert_eq!(d.explored.executions, 6);
}

/// A select with a case at a buffered channel waits as a half at its unbuffered ones,
/// and a plain operation that finds it there takes its place, never reversed with its
/// wait: of the two orders of one behaviour (the select waits and the taker comes, or
/// the taker waits and the select takes its place) the execution holds the first. A
/// third step raced with the select's wait at the buffer, moved after it, may leave the
/// buffer ready where the select comes: then whether the taker waits already is a
/// choice the select makes, and the other order is raced too. Without that race dpor
/// lost one of loom's outcomes here (the fan campaign of seed 20261205, about its
/// 2,094th program): `c0` has capacity 1, `c1` none; `g1` selects to send on `c1` or
/// receive from `c0`, then receives from `c1`; `g2` sends on `c1`, then tries to send
/// on `c0`; `g3` tries to send on `c0`, then receives from `c1`; main receives from
/// `c0`. The outcome lost: `g1`'s select finds both cases ready and sends to `g3`, the
/// order where `g3` waits first, main's receive (raced with the select's wait) after.
#[test]
fn a_select_with_a_case_at_a_buffer_races_in_its_takers_order() {
    for try_recv in [false, true] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let c0: Chan<u8> = go.chan("c0", 1);
            let c1: Chan<u8> = go.chan("c1", 0);
            let (a0, a1) = (c0.clone(), c1.clone());
            go.go("g1", move |go| {
                let f = go.select().send(&a1, 10).recv(&a0).wait();
                go.note(format!("case {:?}", f.index));
                let v = a1.recv();
                go.note(format!("got {v:?}"));
            });
            let (b0, b1) = (c0.clone(), c1.clone());
            go.go("g2", move |go| {
                b1.send(20);
                let f = go.select().send(&b0, 21).default().wait();
                go.note(format!("case {:?}", f.index));
            });
            let (d0, d1) = (c0.clone(), c1.clone());
            go.go("g3", move |go| {
                let f = go.select().send(&d0, 30).default().wait();
                go.note(format!("case {:?}", f.index));
                let v = d1.recv();
                go.note(format!("got {v:?}"));
            });
            if try_recv {
                let f = go.select().recv(&c0).default().wait();
                go.note(format!("main case {:?}", f.index));
            } else {
                let v = c0.recv();
                go.note(format!("got {v:?}"));
            }
        });
        let b = bounds().time(stalemate::TimeMode::Virtual);
        let (_, d) = same_as_loom_in(&b, model);
        assert_eq!(d.explored.executions, if try_recv { 79 } else { 35 });
    }
}

/// The other order of a hand-off is raced only where the taker can come before the
/// step it is raced with: not where that step is the taker's own (a receive at the
/// buffer, then the send that takes the select's place). Raced there, the sequence
/// was the execution's own order, inserted again after each run, and the census never
/// ended (the fan campaign of seed 20261215): main serves two rounds in a select over
/// `c0` (unbuffered) and `c1` (capacity 1); `g1` receives from `c0` then sends on
/// `c1`, `g2` sends on `c0`, `g3` receives from `c1` then sends on `c0`.
#[test]
fn a_takers_other_order_is_raced_only_where_it_can_come_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<u8> = go.chan("c1", 1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |_| {
            a0.recv();
            a1.send(1);
        });
        let b0 = c0.clone();
        go.go("g2", move |_| b0.send(2));
        let (d0, d1) = (c0.clone(), c1.clone());
        go.go("g3", move |_| {
            d1.recv();
            d0.send(3);
        });
        serve(go, &c0, &c1);
    });
    let b = bounds()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(10_000);
    let (_, d) = same_as_loom_in(&b, model);
    assert_eq!(d.explored.executions, 13);
}

/// A plain send that takes the place of a select waiting at a buffered channel goes
/// on, where at an unbuffered channel it would have waited for the select: in the
/// other order of the two halves (the value left in the buffer, the select coming
/// later) the sender's later steps may come first and make a second case of the
/// select ready, so there the two halves race as plain steps (`late::Put`). Without
/// that, dpor lost two of loom's outcomes on this program (the fan campaign of seed
/// 20261205, its 806th program, found it with an earlier form of the hand-off; `g3`'s
/// send on `c0` after its send on `c1`): main serves twice in a select over `c0`
/// (unbuffered) and `c1` (capacity 1); `g1` sends on `c0` then `c1`, `g2` receives
/// from `c0`, `g3` sends on `c1` then `c0`.
#[test]
fn a_send_that_takes_a_selects_place_at_a_buffer_goes_on() {
    same_as_loom_in(&bounds(), sends_around_a_server());
}

/// A send at a full buffer is kept back until there is room (`State::held_at_chan`),
/// and the send into the room a receive left is never reversed with that receive
/// (`Mode::Buffered`): workers that each send two values into a channel of capacity 1
/// of their own, main receiving both from each in turn, are one execution for any
/// number of workers. Without it a second send that waited at the full buffer and one
/// that came after main's first receive were two orders: 2^n.
#[test]
fn a_fan_in_of_two_values_each_is_one_execution() {
    let fan = |n: usize| -> ModelFn {
        Arc::new(move |go: &Go| {
            let chans: Vec<Chan<usize>> = (0..n).map(|i| go.chan(&format!("c{i}"), 1)).collect();
            for (i, c) in chans.iter().enumerate() {
                let c = c.clone();
                go.go(&format!("w{i}"), move |_| {
                    c.send(i);
                    c.send(i + 10);
                });
            }
            let mut sum = 0;
            for c in &chans {
                sum += c.recv().unwrap_or(0) + c.recv().unwrap_or(0);
            }
            go.note(format!("sum {sum}"));
        })
    };
    assert_eq!(checked_counts(2, 10, fan), [1; 10]);
}

/// Two sends kept back at a full buffer, a goroutine that tries to send, a receiver
/// and a close: every outcome DFS reaches (whose value the receiver gets, whether the
/// try finds room, which send panics at the close), and every trace a search expanding
/// every level runs: 6 to the end and 32 stopped at a send on the closed channel. dpor
/// runs 47 executions, more than the expanded search's 40: 5 are cut short asleep, and 6
/// reversals asked for a send where it is kept back (raced as its attempt would be, a
/// write of the channel, with steps that do not change whether it waits).
#[test]
fn sends_kept_back_at_a_full_buffer_lose_nothing() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        c.send(0);
        for (name, v) in [("s1", 1), ("s2", 2)] {
            let c = c.clone();
            go.go(name, move |_| c.send(v));
        }
        let t = c.clone();
        go.go("try", move |go| {
            let f = go.select().send(&t, 3).default().wait();
            go.note(format!("try {:?}", f.index));
        });
        go.note(format!("got {:?}", c.recv()));
        go.note(format!("got {:?}", c.recv()));
        c.close();
    });
    same_as_dfs(model.clone());
    let (d, all) = traces_agree(&bounds(), model);
    assert_eq!((all.traces.len(), all.stopped.len()), (6, 32));
    assert_eq!((d.explored.executions, d.counted, d.held), (47, 42, 6));
}

/// A plain send kept back at a full buffer waits only once every runnable goroutine is
/// kept back, but in Go it came to wait when it came to the send: ahead, in the
/// channel's first-in-first-out queue, of a select that began to wait there since. A
/// receive after `synctest.Wait` (which returns once every other goroutine waits) moves
/// the first waiter's value into the buffer: the plain send's or the select's, as DFS
/// finds. Which one it came before is a choice of its wait (`go::chan::ahead`); without
/// it dpor reached only the select's (found by review).
#[test]
fn a_send_kept_back_may_have_come_before_a_select_that_waits() {
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_dfs_in(&b, send_beside_a_select(false));
    assert_eq!(unwaited(&d.outcomes).len(), 2, "{:?}", d.outcomes);
}

/// A plain send kept back at a full buffer and a select that waits to send there, then
/// main's receives after `synctest.Wait`; it panics if the plain send's value comes
/// second, when `panics`.
fn send_beside_a_select(panics: bool) -> ModelFn {
    Arc::new(move |go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let never = go.chan::<u8>("never", 0);
        c.send(0);
        let p = c.clone();
        go.go("plain", move |_| p.send(1));
        let t = c.clone();
        go.go("select", move |go| {
            go.select().send(&t, 2).recv(&never).wait();
        });
        go.settle();
        c.recv();
        let second = c.recv();
        if panics && second == Some(1) {
            panic!("the plain send came first");
        }
        go.note(format!("second {second:?}"));
        c.recv();
    })
}

/// The place a kept-back goroutine chose in line is part of the schedule: a replay,
/// which keeps nothing back, puts it there again and meets the same panic (it put it
/// at the back, and diverged, before the replay read the recorded place).
#[test]
fn a_replay_puts_a_kept_back_goroutine_where_it_chose_in_line() {
    let model = send_beside_a_select(true);
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let o = explore(&Engine::Dpor, &b, model.clone(), None).expect("ran");
    let f = o
        .finding
        .expect("the order where the plain send came first");
    assert!(f.violation().message.contains("the plain send came first"));
    assert!(f.schedule().iter().any(|t| t.case == Some(1)));
    let again = stalemate::explore::replay(model, f.schedule(), &b).expect("ran");
    assert_eq!(again.violation(), f.violation());
}

/// The same at an empty buffer: a plain receive kept back there and a select that
/// waits to receive, then a send after `synctest.Wait` hands its value to the first
/// waiter, either one.
#[test]
fn a_receive_kept_back_may_have_come_before_a_select_that_waits() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let never = go.chan::<u8>("never", 0);
        let p = c.clone();
        go.go("plain", move |go| go.note(format!("plain {:?}", p.recv())));
        let t = c.clone();
        go.go("select", move |go| {
            go.select().recv(&t).recv(&never).wait();
        });
        go.settle();
        c.send(1);
        c.send(2);
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_dfs_in(&b, model);
    assert_eq!(unwaited(&d.outcomes).len(), 2, "{:?}", d.outcomes);
}

/// Receives kept back at an empty buffer, a sender, and a goroutine that tries to
/// receive: every outcome DFS reaches (which receiver gets the value, whether the try
/// gets it), and every trace a search expanding every level runs: 22 traces in 25
/// executions (3 cut short asleep); 4 reversals asked for a receive, or main's second
/// send, where it is kept back (the second send waits at the full buffer).
#[test]
fn receives_kept_back_at_an_empty_buffer_lose_nothing() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        for name in ["r1", "r2"] {
            let c = c.clone();
            go.go(name, move |go| go.note(format!("got {:?}", c.recv())));
        }
        let t = c.clone();
        go.go("try", move |go| {
            let got = !matches!(t.try_recv(), stalemate::go::TryRecv::Empty);
            go.note(format!("try {got}"));
        });
        c.send(1);
        c.send(2);
        c.close();
    });
    same_as_dfs(model.clone());
    let (d, all) = traces_agree(&bounds(), model);
    assert_eq!(all.traces.len(), 22);
    assert_eq!((d.explored.executions, d.counted, d.held), (25, 22, 4));
}

/// A server selecting over an unbuffered and a buffered channel, a receiver kept back
/// at the empty buffer for good (its attempt runs once nobody else can move), a
/// sender into the buffer, a receiver and a select on the unbuffered one: every trace
/// the expanded search runs. A reversal that asks for the receive where it is kept
/// back ends there, the execution going on with what can run: 84 executions for 54
/// traces (85 when such a reversal expanded its level; 91 with the kept receive's
/// attempt raced but the level expanded). Dropping them with their executions (the
/// receive could not go there) ran 54, but lost traces on a program of the fan
/// campaign.
#[test]
fn a_receive_kept_back_for_good_loses_no_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let a = c1.clone();
        go.go("g1", move |go| go.note(format!("g1 {:?}", a.recv())));
        let b = c1.clone();
        go.go("g2", move |_| b.send(20));
        let c = c0.clone();
        go.go("g3", move |go| go.note(format!("g3 {:?}", c.recv())));
        let d = c0.clone();
        go.go("g4", move |go| {
            let mut f = go.select().send(&d, 40).recv(&d).wait();
            let (i, g) = (f.index, f.take::<u8>());
            go.note(format!("g4 {i:?} {g:?}"));
        });
        for _ in 0..2 {
            let mut f = go.select().recv(&c0).recv(&c1).wait();
            let (i, g) = (f.index, f.take::<u8>());
            go.note(format!("served {i:?} got {g:?}"));
            if g.is_none() {
                break;
            }
        }
    });
    let (d, all) = traces_agree(&bounds(), model);
    assert_eq!((d.explored.executions, all.traces.len()), (84, 54));
}

/// Goroutines `a` and `b` each write a variable of their own (`xa`, `xb`), then send
/// on `c` (capacity 2).
fn two_writers_sending(go: &Go) -> (Chan<u8>, Var<u8>, Var<u8>) {
    let c = go.chan::<u8>("c", 2);
    let (xa, xb) = (go.var("xa", 0u8), go.var("xb", 0u8));
    for (name, x, v) in [("a", &xa, 1), ("b", &xb, 2)] {
        let (c, x) = (c.clone(), x.clone());
        go.go(name, move |_| {
            x.set(v);
            c.send(v);
        });
    }
    (c, xa, xb)
}

/// Two sends into one buffered channel do not commute even when the buffer has room
/// for both: the order decides which value the receiver takes, and so which sender's
/// write it is ordered after (each sync is with its value's slot). Without the send
/// cursor the two sends' slots looked like different objects and dpor ran one order.
#[test]
fn two_buffered_sends_are_explored_in_both_orders() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (c, xa, xb) = two_writers_sending(go);
        if c.recv() == Some(1) {
            xa.get();
        } else {
            xb.get();
        }
    });
    let (dfs, _) = same_as_dfs(model.clone());
    assert!(dfs.violations.is_empty(), "{:?}", dfs.violations);
    // Reading one writer's variable races only when the other's value came first.
    let racy: ModelFn = Arc::new(|go: &Go| {
        let (c, xa, _) = two_writers_sending(go);
        // After both sends (the clock's advance orders no memory).
        go.sleep(Duration::from_secs(1));
        c.recv();
        xa.get();
    });
    races_as_dfs_does_in_virtual_time(racy);
}

/// A tree cut into units explores each trace about once: a unit keeps the goroutines
/// asleep where it starts asleep, so it leaves the traces they begin to their earlier
/// branches' units. Eight lockers cut at the 2nd decision point ran 1,164,241
/// executions for their 40,320 traces while a unit started with no goroutine asleep;
/// now 52,139 (the levels above the cut are expanded, and some executions end with
/// only such goroutines left, asleep). Two parts of it run what it runs between them.
#[test]
fn a_cut_tree_explores_each_trace_about_once() {
    let b = bounds().split(2);
    let (t, n) = traces(&run_in(&Engine::Dpor, &b, locks(8, true)));
    assert_eq!(t, 40_320);
    assert!(2 * n <= 3 * t, "{n} executions for {t} traces");
    let part = |k| {
        traces(&run_in(
            &Engine::Dpor,
            &b.clone().part(k, 2),
            locks(8, true),
        ))
    };
    let (p0, p1) = (part(0), part(1));
    assert_eq!((p0.0 + p1.0, p0.1 + p1.1), (t, n));
}

/// The status manager's shape, cut down: a worker tries twice to send a status into a
/// channel with room for one, a ticker tries once to send a tick, main sends a tick once
/// the worker is done and closes stop, and a sync loop selects over the three. dpor
/// reached 271 of the 298 outcomes loom reaches: none where the worker's second try
/// fails and the sync loop then waits for the tick (on the status manager itself, 925
/// of 964 with two updates). The wakeup sequence that leads there, inserted where the
/// ticker and the worker branch, was dropped as covered by a branch that began like it
/// (the worker's start), and below that branch the race that leads there was not
/// reversed because the ticker was asleep (its own branch had made the insertion).
/// A branch that begins like an inserted sequence now carries the rest of it.
///
/// Main's send into the full tick buffer is written here as a select with a case never
/// ready, a wait that is an event, as the plain send was when the hole was found: a
/// plain send there is kept back now (`State::held_at_chan`), and the hole no longer
/// shows through it (with the rest of a sequence dropped at a leaf that begins like
/// it, the select form loses 15 outcomes and the plain form none). The plain form:
/// 797 traces in 795 executions (a select that finds the worker's status the buffer's
/// only value takes it as a hand-off's half: `Chan::placed`), 10 reversals asking for
/// the send where it is kept back (`Traces::held`).
#[test]
fn a_sequence_a_branch_begins_is_still_followed() {
    let model = |plain: bool| -> ModelFn {
        Arc::new(move |go: &Go| {
            let tick = go.chan::<u8>("tick", 1);
            let status = go.chan::<u8>("status", 1);
            let stop = go.chan::<u8>("stop", 0);
            let (synced, workers) = (go.waitgroup("synced"), go.waitgroup("workers"));
            synced.add(1);
            workers.add(1);
            let (t, s, st, sy) = (tick.clone(), status.clone(), stop.clone(), synced.clone());
            go.go("sync", move |go| {
                loop {
                    let f = go.select().recv(&s).recv(&t).recv(&st).wait();
                    go.note(format!("case {:?}", f.index));
                    if f.index == Some(2) {
                        break;
                    }
                }
                sy.done();
            });
            let t = tick.clone();
            go.go("ticker", move |go| {
                go.note(format!("tick {}", t.try_send(1)))
            });
            let (s, w) = (status.clone(), workers.clone());
            go.go("worker", move |go| {
                for _ in 0..2 {
                    go.note(format!("sent {}", s.try_send(1)));
                }
                w.done();
            });
            workers.wait();
            if plain {
                tick.send(1);
            } else {
                let never = go.chan::<u8>("never", 0);
                go.select().send(&tick, 1).recv(&never).wait();
            }
            stop.close();
            synced.wait();
        })
    };
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, d) = same_as_loom_in(&b, model(false));
    assert!(d.violations.is_empty() && l.violations.is_empty());
    assert_eq!(traces(&d), (901, 901), "one execution per trace");
    let (l, d) = same_as_loom_in(&b, model(true));
    assert!(d.violations.is_empty() && l.violations.is_empty());
    let plain = stalemate::explore::traces(&b, model(true), false).expect("ran");
    assert_eq!(
        (plain.traces.len(), d.explored.executions, plain.held),
        (797, 795, 10)
    );
}

/// The same hole, as the differential test's server shape found it with the fix taken
/// out (1,000 programs, 549 compared): a goroutine serves an unbuffered channel and a
/// channel with room for one for two rounds, one goroutine tries once to send into the
/// first, another does `Done` and tries twice to send into the second, and main waits.
/// Without the fix dpor loses an outcome (the first try handed over, the server then
/// taking one value from the second channel, whose second try fails).
#[test]
fn a_sequence_a_branch_begins_is_still_followed_when_served() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (a, b) = (go.chan::<u8>("a", 0), go.chan::<u8>("b", 1));
        let wg = go.waitgroup("wg");
        wg.add(1);
        let (sa, sb) = (a.clone(), b.clone());
        go.go("server", move |go| {
            for _ in 0..2 {
                let mut f = go.select().recv(&sa).recv(&sb).wait();
                let got = f.take::<u8>();
                go.note(format!("served {:?} got {got:?}", f.index));
            }
        });
        go.go("once", move |go| go.note(format!("a {}", a.try_send(1))));
        let w = wg.clone();
        go.go("twice", move |go| {
            w.done();
            for v in 0..2 {
                go.note(format!("b {}", b.try_send(v)));
            }
        });
        wg.wait();
    });
    // Loom is the reference: DFS agrees (10 outcomes) but takes 825,615 executions.
    same_as_loom_in(&bounds().time(stalemate::TimeMode::Virtual), model);
}

/// The modern Cacher's `source` with one consumer, as its proof scenarios run it.
fn cacher(consumer: &'static str, events: i64) -> ModelFn {
    let m = stalemate::models::find("cacher-modern").expect("a seeded model");
    let mut given = vec![("fast", 0), ("slow", 0), ("gone", 0)];
    given.retain(|g| g.0 != consumer);
    given.extend([(consumer, 1), ("events", events), ("bookmarks", 0)]);
    m.build("source", &m.params(&given))
}

/// On a real model dpor's executions are the model's traces: no two are one trace
/// (their names, least linearisations under the explorer's dependence, differ:
/// `explore::traces`), and every execution that ends asleep follows a reversal that
/// asked for a step kept back where it was to run (a select kept back beside the
/// watcher's `done` or the Cacher's `stopCh`, a send at a full buffer). With one
/// event: 137 / 161 / 523 executions for 120 / 152 / 432 traces (fast / slow / gone);
/// with two (`STALEMATE_TRACE_EVENTS=2`, in release) 2,170 / 390 / 3,790 for 1,920 /
/// 376 / 2,904. The proof being complete, what a proof of the modern Cacher costs is
/// what the model's behaviours are (docs/dpor.md, "Not done yet": the consumers'
/// traces multiply).
#[test]
fn the_modern_cachers_executions_are_its_traces() {
    let most = common::env_or("STALEMATE_TRACE_EVENTS", 1);
    for events in 1..=most {
        for consumer in ["fast", "slow", "gone"] {
            let b = Bounds::default()
                .time(stalemate::TimeMode::Virtual)
                .max_executions(1_000_000);
            let t = stalemate::explore::traces(&b, cacher(consumer, events), false)
                .expect("no engine error");
            let x = &t.explored;
            let n = t.traces.len() as u64;
            assert_eq!(x.stop, Stop::Exhausted, "{consumer}, {events} event(s)");
            assert_eq!(
                x.executions,
                t.counted + t.held,
                "{consumer}: one ended asleep but where a reversal asked for a step kept back"
            );
            assert!(t.stopped.is_empty(), "{consumer}: a violation");
            assert_eq!(n, t.counted, "{consumer}: two executions are one trace");
            eprintln!(
                "{consumer}, {events} event(s): {} executions, {n} traces",
                x.executions
            );
        }
    }
}

/// A violation stops the execution, and the stopping step is dependent with every
/// goroutine's next step (each could have gone first), but not with a step blocked
/// where the stopping step ran: that one could not go first.
/// Nor is the stopping step raced with an earlier step where its goroutine was
/// blocked, unless they conflict. Here main leaves two senders and a server behind,
/// and the server ends with a `Done` on a WaitGroup at zero (a panic) if it took two
/// rounds: where the execution ends in a deadlock instead, it ends as any last step
/// does (`a_deadlock_ends_the_execution_as_a_last_step_does`). Raced with main
/// waiting at its end for the others, with the senders parked at their channel, and
/// (the stopping step being a woken sender's) with steps taken while that sender was
/// parked, the stop asked for reversals none of them could run, each expanding its
/// level: without the `Done`, every execution stopped at a deadlock, 323 executions
/// for its 58 traces before these rules (237 ending asleep), 209 with them, 58 since
/// deadlocks end executions; with it, 300 for 108 traces, most of them stopped
/// prefixes (2026-11-27). The traces are still the expanded search's, and loom's
/// violations and outcomes are reached.
#[test]
fn a_stop_does_not_race_with_steps_blocked_across_it() {
    for panic in [false, true] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let (c0, c1): (Chan<u8>, Chan<u8>) = (go.chan("c0", 0), go.chan("c1", 0));
            let wg = go.waitgroup("wg");
            let (s0, s1) = (c0.clone(), c1.clone());
            go.go("server", move |go| {
                for _ in 0..2 {
                    let _ = go.select().recv(&s0).recv(&s1).wait();
                }
                if panic {
                    wg.done();
                }
            });
            for i in 0..2 {
                let c1 = c1.clone();
                go.go(&format!("sender{i}"), move |_| c1.send(1));
            }
            c0.send(0);
        });
        let b = Bounds::default()
            .time(stalemate::TimeMode::Virtual)
            .max_executions(100_000);
        let (d, all) = traces_agree(&b, model.clone());
        let n = all.traces.union(&all.stopped).count() as u64;
        let most = if panic { 300 } else { n };
        assert!(
            d.explored.executions <= most,
            "{} executions for {n} traces ({} counted)",
            d.explored.executions,
            d.counted
        );
        // Four goroutines are beyond DFS here: loom is the reference, as for the
        // differential test's server shape.
        let (_, dpor) = same_as_loom_in(&b.max_executions(2_000_000), model);
        let want = if panic {
            "fault:negative-waitgroup-counter"
        } else {
            "deadlock"
        };
        assert!(dpor.violations.contains(want), "{:?}", dpor.violations);
    }
}

/// A goroutine "server" taking two rounds from `a` or `b`, each noted, then `then`.
fn serve_two(go: &Go, a: Chan<u8>, b: Chan<u8>, then: impl FnOnce() + Send + 'static) {
    go.go("server", move |go| {
        for _ in 0..2 {
            let f = go.select().recv(&a).recv(&b).wait();
            go.note(format!("served {:?}", f.index));
        }
        then();
    });
}

/// dpor reaches every trace the search with every level expanded runs to its end
/// (`explore::traces`), and nothing beyond them: the traces of both, dpor's first.
fn traces_agree(b: &Bounds, model: ModelFn) -> (Traces, Traces) {
    let all = stalemate::explore::traces(b, model.clone(), true).expect("ran");
    let d = stalemate::explore::traces(b, model, false).expect("ran");
    assert_eq!(all.explored.stop, Stop::Exhausted);
    assert_eq!(d.explored.stop, Stop::Exhausted);
    let every = |t: &Traces| -> BTreeSet<u128> { t.traces.union(&t.stopped).copied().collect() };
    assert!(every(&d).is_subset(&every(&all)));
    assert!(
        all.traces.iter().all(|t| every(&d).contains(t)),
        "dpor misses a trace the expanded search runs to its end"
    );
    eprintln!(
        "dpor {} executions ({} counted) for {} traces; the expanded search {}",
        d.explored.executions,
        d.counted,
        every(&all).len(),
        all.explored.executions
    );
    (d, all)
}

/// A deadlock, a leak or a livelock is the state every goroutine is blocked in, which
/// the trace decides, whatever order of it ran: the step that blocked last ends the
/// execution as any last step does. Stopped there instead, as at a violation a step
/// makes, it was dependent with every step before it, and each of those races asked
/// for a reversal: main waiting forever, one goroutine parked at a nil channel under a
/// lock, another closing a channel, took 3 executions (2 ending asleep) for their one
/// trace with a timer beside them, and its channel's wake-ups, counted as the
/// stopping step's, raced with steps they had no part in. One execution now, and the
/// deadlock is reported.
#[test]
fn a_deadlock_ends_the_execution_as_a_last_step_does() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let m = go.mutex("m");
        let c: Chan<u8> = go.chan("c", 0);
        let nil: Chan<u8> = go.nil_chan("nil");
        let _tick = go.after("t", Duration::from_millis(20));
        go.go("locker", move |_| {
            m.lock();
            nil.recv();
        });
        go.go("closer", move |_| c.close());
        go.select().wait();
    });
    let b = Bounds::default().max_executions(1_000);
    let (d, all) = traces_agree(&b, model.clone());
    assert_eq!((d.explored.executions, all.traces.len()), (1, 1));
    let found = explore(&Engine::Dpor, &b, model, None).expect("ran");
    let f = found.finding.expect("the deadlock is found");
    assert_eq!(f.violation().property.key(), "deadlock");
}

/// A goroutine parked at the end of an execution (its last step blocked, and nothing
/// woke it since) has a retry as its next step, which is raced with nothing: every
/// step that touches what it waits on came after it parked, and putting the retry
/// before one needs it woken, which no step kept in the reversal does (they do what
/// they did, being independent of the step moved past). Raced, each reversal could not
/// run and expanded its level. Main receiving on an unbuffered channel no one sends
/// on, a server taking two rounds from it or a buffered one, a goroutine sending once
/// into the buffered one: 19 executions for 7 traces with the retry raced, 7 now,
/// each trace the expanded search's.
#[test]
fn a_parked_goroutines_retry_races_with_nothing() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (c1, c2): (Chan<u8>, Chan<u8>) = (go.chan("c1", 0), go.chan("c2", 2));
        let wg = go.waitgroup("wg");
        wg.add(1);
        let w = wg.clone();
        serve_two(go, c1.clone(), c2.clone(), move || w.done());
        let w = wg.clone();
        go.go("done", move |_| w.done());
        go.go("sender", move |_| c2.send(1));
        c1.recv();
        wg.wait();
    });
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(1_000);
    let (d, all) = traces_agree(&b, model);
    assert_eq!(
        d.explored.executions,
        (all.traces.len() + all.stopped.len()) as u64
    );
}

/// A branch whose label makes a pending sibling's very event (the sibling's choice
/// values name a case that is not ready here, or values past the choices the step
/// makes) takes the sibling's subtree into its own: the sibling would run the same
/// event again. A server taking two rounds from an unbuffered and a buffered
/// channel, a goroutine trying once to send into the unbuffered one, another sending
/// into the buffered one, main sending into the unbuffered one: 64 executions for 46
/// traces before, 46 now.
#[test]
fn a_branch_that_makes_its_siblings_event_takes_its_subtree() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (a, b): (Chan<u8>, Chan<u8>) = (go.chan("a", 0), go.chan("b", 1));
        serve_two(go, a.clone(), b.clone(), || {});
        let a2 = a.clone();
        go.go("tryer", move |go| {
            let f = go.select().send(&a2, 1).default().wait();
            go.note(format!("tried {:?}", f.index));
        });
        go.go("sender", move |_| b.send(2));
        a.send(3);
    });
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(1_000);
    let (d, all) = traces_agree(&b, model);
    assert_eq!((d.explored.executions, all.traces.len()), (46, 46));
}

/// A branch that took its siblings' subtrees must be one that is explored: where a
/// fresh choice finds every case already a pending sibling's, the branch is abandoned,
/// and the siblings stay. Found by the campaign of seed 20261232 (program 94, shrunk):
/// a goroutine locks a mutex and takes a timer's tick; another, on `rand.Intn(2)`,
/// sends into the timer's channel from a select with two cases for it. Its select,
/// moved before the tick by a race, had three labels at one level (no case, the
/// first, the second: the executions they came from had it blocked or choosing), the
/// one with no case chose afresh, found both cases pending and was abandoned, having
/// taken the first case's sibling: two of the 13 traces were lost. The taker is kept
/// back at the empty timer channel now (`held_at_chan`), and the select at the full one
/// (`held_at_select`): 7 traces.
#[test]
fn an_abandoned_branch_takes_no_siblings_subtree() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let m = go.mutex("m");
        let t = go.after("t", Duration::from_millis(20));
        let t2 = t.clone();
        go.go("taker", move |_| {
            m.lock();
            t2.recv();
            m.unlock();
        });
        go.go("sender", move |go| {
            if go.rand(2) == 1 {
                go.select().send(&t, ()).send(&t, ()).wait();
            }
        });
    });
    let b = Bounds::default().max_executions(1_000);
    let (_, all) = traces_agree(&b, model);
    assert_eq!(all.traces.len(), 7);
}

/// An execution a violation cuts short shows none of the steps the others would have
/// taken after it, so a goroutine asleep where a race's reversal would go covers the
/// reversal only if it runs in it first: absent from it and independent of it, it may
/// still conflict with a step the cut left out. Found by the differential campaign of
/// seed 20261229 (shrunk) once a parked goroutine's retry raced with nothing, which
/// had covered it: main and a goroutine each send on a channel no one receives from, a
/// server takes two rounds from an unbuffered and a buffered channel and then calls
/// `Done` on a WaitGroup at zero (a panic: the cut), a third tries twice to send into
/// the buffered one. The trace where the goroutine parks before main, the server
/// stuck in its second round, was missed.
#[test]
fn a_cut_execution_hides_what_a_sleeping_goroutine_meets() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let (c0, c1, c2): (Chan<u8>, Chan<u8>, Chan<u8>) =
            (go.chan("c0", 0), go.chan("c1", 1), go.chan("c2", 0));
        let wg = go.waitgroup("wg");
        serve_two(go, c0.clone(), c1.clone(), move || wg.done());
        let c = c2.clone();
        go.go("sender", move |_| c.send(1));
        go.go("tryer", move |go| {
            for _ in 0..2 {
                let f = go.select().send(&c1, 2).default().wait();
                go.note(format!("tried {:?}", f.index));
            }
        });
        c2.send(0);
    });
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(1_000);
    let (_, all) = traces_agree(&b, model);
    assert_eq!(all.traces.len(), 2);
}

/// A sleeping goroutine covers a reversal only if it is a weak initial of optimal
/// DPOR's whole wakeup sequence: every step after the race's earlier one that does not
/// happen after it, to the execution's end (`Cover::Whole`). Checked against the
/// sequence up to the race's later step alone, `poller` (a try-receive on `a`, asleep
/// where a sequence on `b` goes) was independent of all of it and covered it; but in
/// the execution that raced, `pusher`'s try-send on `a` came after the race, and every
/// trace that begins with `poller` has it receive nothing. The order where `pusher`
/// fills `a` first and `second` takes `first`'s value from `b` and sends its own
/// before `both` blocks was never run: 51 executions for 52 traces (a crowd of the
/// differential test, seed 20261234, about its 2,253rd program). A race found in a
/// prefix the last execution shared is inserted again where a goroutine sleeps, as it
/// meets other later steps there (`Explorer::found`).
///
/// The sends are written as selects with a case never ready, waits that are events,
/// as the plain sends were when the hole was found: a plain send at the full buffer is
/// kept back now (`State::held_at_chan`), and the hole no longer shows through it (with
/// the sequence checked up to the race's later step only, the select form misses a
/// trace and the plain form does not). The plain form: 35 traces, one execution each.
#[test]
fn a_sequence_is_checked_to_the_executions_end() {
    let model = |plain: bool| -> ModelFn {
        Arc::new(move |go: &Go| {
            let (a, b): (Chan<u8>, Chan<u8>) = (go.chan("a", 1), go.chan("b", 1));
            let never: Chan<u8> = go.chan("never", 0);
            let send = move |go: &Go, c: &Chan<u8>, v: u8| {
                if plain {
                    c.send(v);
                } else {
                    go.select().send(c, v).recv(&never).wait();
                }
            };
            let a1 = a.clone();
            go.go("poller", move |go| {
                go.select().recv(&a1).default().wait();
            });
            let (b1, s) = (b.clone(), send.clone());
            go.go("second", move |go| {
                go.select().recv(&b1).default().wait();
                s(&go, &b1, 2);
            });
            let (a2, b2, s) = (a.clone(), b.clone(), send.clone());
            go.go("both", move |go| {
                s(&go, &b2, 3);
                s(&go, &a2, 3);
            });
            go.go("pusher", move |go| {
                go.select().send(&a, 4).default().wait();
            });
            go.go("first", move |go| send(&go, &b, 5));
        })
    };
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(10_000);
    let (d, all) = traces_agree(&b, model(false));
    assert_eq!(all.traces.len(), 150);
    assert_eq!(d.explored.executions, 150, "one execution per trace");
    let (d, all) = traces_agree(&b, model(true));
    assert_eq!((all.traces.len(), d.explored.executions), (35, 35));
}

/// A goroutine asleep where a reversal's sequence goes covers it if it goes first in
/// the sequence dpor inserts, whatever optimal DPOR's whole sequence puts before it.
/// Two selects wait to send at `c0` (a half each) and into the full buffer `c1` (a
/// send case at a buffer is a write, so the two waits conflict); `g3`'s second send waits at `c0` after them, a join of the
/// same line: commuting with the selects' joins for the race analysis, it happens
/// after neither, and the whole sequence puts it before the reversed select, where it
/// conflicts with it as sleep sets check joins. Checked against the whole sequence
/// alone, the select asleep at the level (its branch explored) did not cover the
/// sequence that begins with it: each branch inserted the other again, for ever (the
/// fan campaigns of seeds 20261401 and 20261402; 30,000 executions and more where 4
/// now run every outcome loom reaches).
#[test]
fn a_sequence_that_begins_with_a_sleeping_step_is_covered() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<u8> = go.chan("c1", 1);
        c1.send(0);
        for (name, v) in [("s1", 1), ("s2", 2)] {
            let (a0, a1) = (c0.clone(), c1.clone());
            go.go(name, move |go| {
                let f = go.select().send(&a0, v).send(&a1, v).wait();
                go.note(format!("{name} {:?}", f.index));
            });
        }
        let c = c0.clone();
        go.go("g3", move |_| {
            c.send(3);
            c.send(4);
        });
        let v = c0.recv();
        go.note(format!("main {v:?}"));
    });
    // loom's census as the reference (exhaustive DFS takes over a minute here).
    let l = run_in(&loom(), &bounds(), model.clone());
    // Without the check, dpor never ends: a small bound fails fast.
    let d = run_in(&Engine::Dpor, &bounds().max_executions(1_000), model);
    assert_eq!(l.violations, d.violations);
    assert_eq!(unwaited(&l.outcomes), unwaited(&d.outcomes));
    assert_eq!(d.explored.executions, 4);
}

/// The fan campaign's program (seed 20261130) where dropping a reversal that asked for
/// a receive where it was kept back lost four traces: main receiving from an
/// unbuffered and then a capacity-1 channel, a sender on each, and two goroutines
/// trying to receive from the buffered one and to send on the unbuffered one. Such a
/// reversal's sequence now ends where the receive is kept back, the execution going
/// on (197 executions; 207 when it expanded the level).
#[test]
fn tries_beside_a_receive_kept_back_lose_no_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |go| {
            let f = go.select().recv(&a1).default().wait();
            go.note(format!("g1 {:?}", f.index));
            let f = go.select().send(&a0, 11).default().wait();
            go.note(format!("g1 {:?}", f.index));
        });
        let b = c0.clone();
        go.go("g2", move |_| b.send(20));
        let c = c1.clone();
        go.go("g3", move |_| c.send(30));
        let (d0, d1) = (c0.clone(), c1.clone());
        go.go("g4", move |go| {
            let f = go.select().send(&d0, 41).default().wait();
            go.note(format!("g4 {:?}", f.index));
            let f = go.select().recv(&d1).default().wait();
            go.note(format!("g4 {:?}", f.index));
        });
        go.note(format!("main {:?}", c0.recv()));
        go.note(format!("main {:?}", c1.recv()));
    });
    let (d, all) = traces_agree(&bounds(), model);
    assert_eq!((d.explored.executions, all.traces.len()), (197, 155));
}

/// A receive, a try-receive and two sends at one unbuffered channel: an execution
/// ends clean only where the try got a value (either, the other main's), which it
/// gets only where a send waited
/// before the receive came, an order no race between the two halves of a hand-off
/// asks for (`Mode::Hand` never reverses them). The send that finds the receive
/// waiting races instead with what used the channel before the receive waited (the
/// try), and reversed there it waits and the try takes its value: every outcome and
/// violation DFS reaches.
#[test]
fn a_hand_off_races_with_what_used_its_channel_before() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 0);
        let (c1, c2, c3) = (c.clone(), c.clone(), c.clone());
        go.go("g1", move |go| match c1.try_recv() {
            stalemate::go::TryRecv::Value(v) => go.note(format!("try got {v}")),
            _ => go.note("try got nothing"),
        });
        go.go("g2", move |_| c2.send(7));
        go.go("g3", move |_| c3.send(8));
        let v = c.recv();
        go.note(format!("main got {v:?}"));
    });
    let (dfs, dpor) = same_as_dfs(model);
    // Each pairing of the two values with the try and main, noted apart.
    assert_eq!(unwaited(&dpor.outcomes).len(), 2, "{:?}", dpor.outcomes);
    assert!(
        dpor.outcomes.iter().all(|o| !o.contains("try got nothing")),
        "{:?}",
        dpor.outcomes
    );
    assert!(dpor.violations.contains("leak"), "{:?}", dpor.violations);
    assert!(dpor.explored.executions < dfs.explored.executions);
    eprintln!(
        "dpor {} executions, DFS {}",
        dpor.explored.executions, dfs.explored.executions
    );
}

/// A receive kept back at an empty buffer until main closes it, beside two sends and a
/// receive at an unbuffered channel, found by the fan campaign (seed 20261201) above
/// its bound of two executions per trace. dpor reaches each of the six traces (the
/// orders of the three operations at the unbuffered channel), in 12 executions where
/// the trace check records them (the hand-off rule off; 15 when the one reversal that
/// asked for the kept-back receive expanded its level, docs/dpor.md "Not done yet"),
/// and in 4 with the rule on (8 with a receive after the close raced with it), with
/// loom's violations (a send is left waiting in every execution).
#[test]
fn a_receive_kept_back_beside_a_three_way_hand_off_reaches_every_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let a = c1.clone();
        go.go("g1", move |_| {
            a.recv();
        });
        for (name, v) in [("g2", 1), ("g3", 2)] {
            let b = c0.clone();
            go.go(name, move |_| b.send(v));
        }
        let b = c0.clone();
        go.go("g4", move |go| {
            let v = b.recv();
            go.note(format!("got {v:?}"));
        });
        c1.close();
    });
    let b = Bounds::default().time(stalemate::TimeMode::Virtual);
    let (d, all) = traces_agree(&b, model.clone());
    assert_eq!(all.traces.len() + all.stopped.len(), 6);
    assert_eq!((d.explored.executions, d.held), (12, 1));
    // Five goroutines are beyond DFS here: loom is the reference.
    let (_, on) = same_as_loom_in(&b.max_executions(2_000_000), model);
    assert_eq!(on.explored.executions, 4);
}

/// The fan campaign of seed 20261201 at its 4,345th program: main receives from a
/// buffer of one and from an unbuffered channel, then closes the buffer; a goroutine
/// tries to receive from the unbuffered channel, then receives from the buffer; two
/// send on the unbuffered channel, one into the buffer. With both receives kept back at
/// the empty buffer (`State::held_at_chan`), dpor reaches every outcome and violation
/// loom reaches, here.
#[test]
fn a_try_beside_two_receives_kept_back_reaches_every_outcome() {
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(2_000_000);
    same_as_loom_in(&b, try_beside_two_kept_back());
}

/// The same program's traces (the hand-off rule off, as the trace check records
/// them). dpor missed 3 of the 30: the try takes the first sender's value after the
/// second sender waited, the goroutine then takes the buffered value, main is kept
/// back at the buffer for good. Main's receive took that value in the executions run
/// first, while the goroutine was still before its try; the goroutine's receive,
/// kept back once it had tried, came to run only after main closed the buffer, and
/// nothing raced it with main's receive. Its attempt, had it run, would have raced
/// with it: a kept-back step is now raced where it was kept back (at the stretch's
/// first and last levels), as its attempt would be (docs/dpor.md). Fails without
/// that: 3 traces missed.
#[test]
fn a_try_beside_two_receives_kept_back_reaches_every_trace() {
    let b = Bounds::default()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(2_000_000);
    let (d, all) = traces_agree(&b, try_beside_two_kept_back());
    assert_eq!((all.traces.len(), all.stopped.len()), (30, 0));
    assert_eq!((d.explored.executions, d.counted, d.held), (40, 30, 10));
}

fn try_beside_two_kept_back() -> ModelFn {
    Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let a = c0.clone();
        go.go("g1", move |_| a.send(1));
        let (a, b) = (c0.clone(), c1.clone());
        go.go("g2", move |go| {
            let tried = matches!(a.try_recv(), stalemate::go::TryRecv::Value(_));
            let v = b.recv();
            go.note(format!("try {tried}, then {v:?}"));
        });
        let b = c1.clone();
        go.go("g3", move |_| b.send(3));
        let a = c0.clone();
        go.go("g4", move |_| a.send(4));
        let v = c1.recv();
        let w = c0.recv();
        go.note(format!("main got {v:?} {w:?}"));
        c1.close();
    })
}

/// A tree cut into units (`Bounds::split`) finds what the whole tree finds. Here g3's
/// send waits before main's receive, g1's try-receive takes its value, and main waits
/// for ever. The send and the receive are one hand-off, never reversed; the order
/// that matters is found through g1's try when it ran before the receive. Where the
/// cut makes that try's level a branch point above the units, its reversal is dropped,
/// and in the sibling unit g1 sleeps past the receive: the unit must reverse the two
/// halves itself (found by the fan campaign of seed 20261204; cuts 3 and 4 lost it).
#[test]
fn a_cut_tree_finds_what_a_try_sees_between_two_halves() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<u8> = go.chan("c1", 0);
        let (a, b, c) = (c1.clone(), c0.clone(), c1.clone());
        go.go("g1", move |_| {
            a.try_recv();
        });
        go.go("g2", move |_| b.send(1));
        go.go("g3", move |_| c.send(2));
        c0.recv();
        c1.recv();
        c0.close();
    });
    let dfs = run(&Engine::Dfs, model.clone());
    assert!(dfs.violations.contains("deadlock"), "{:?}", dfs.violations);
    for split in 0..=8 {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        assert_eq!(d.violations, dfs.violations, "split {split}");
        assert_eq!(
            unwaited(&d.outcomes),
            unwaited(&dfs.outcomes),
            "split {split}"
        );
    }
}

/// n workers at one nil channel (a field nobody made): each receives from it, or
/// waits in a select whose cases are all at it, or tries it in a select with a
/// default and then sends on it, or tries it beside a channel of its own.
fn at_a_nil_channel(n: usize, form: usize) -> ModelFn {
    Arc::new(move |go: &Go| {
        let nil = go.nil_chan::<u8>("stop");
        for i in 0..n {
            let (c, own) = (nil.clone(), go.chan::<u8>(&format!("own{i}"), 0));
            go.go(&format!("w{i}"), move |go| match form {
                0 => {
                    c.recv();
                }
                1 => {
                    go.select().recv(&c).send(&c, 1).wait();
                }
                2 => {
                    let f = go.select().recv(&c).default().wait();
                    go.note(format!("{:?}", f.index));
                    c.send(1);
                }
                _ => {
                    let f = go.select().recv(&c).recv(&own).default().wait();
                    go.note(format!("{:?}", f.index));
                }
            });
        }
    })
}

/// An operation at a nil channel waits for ever, and nothing sees it: Go's runtime
/// parks it at no object, and a select never looks at a nil case. So it touches
/// nothing (`Mode::Local`), nor does a select whose every case is nil, and a select's
/// nil cases are not declared: one execution for any number of workers, where every
/// order of their steps at the one nil object was explored (n!, and for a try then a
/// send 1, 6, 90, 2520 for n = 1..4).
#[test]
fn an_operation_at_a_nil_channel_is_no_event() {
    for form in 0..4 {
        let counts = checked_counts(2, 6, |n| at_a_nil_channel(n, form));
        assert_eq!(counts, [1; 6], "form {form}");
    }
    let leaks = run(&Engine::Dpor, at_a_nil_channel(3, 0)).violations;
    assert!(leaks.contains("leak"), "{leaks:?}");
}

/// A step that takes a waiting goroutine's place (`Mode::Hand`) is never reversed with
/// that wait: reversed, the taker would wait and the other find it. But a try between
/// them at that channel, on the waiter's side, would have met the taker had it waited
/// first; it is ordered after the wait, so it is no direct race of it, and reversed
/// with the taker alone the taker takes the wait again. So the taker races with the
/// wait too. The general campaign of seed 20261230 (its 782nd program) lost one of
/// loom's outcomes without it: `g3` fills `c2`, `g2`'s try finds it full, main takes
/// the value, `g1`'s select waits, `g3`'s try hands it 31, main's send the next value;
/// dpor only ran main's send waiting before the select, the try failing between them.
#[test]
fn a_try_between_a_wait_and_its_taker_would_have_met_the_taker() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c2 = go.chan::<u8>("c2", 1);
        let (a0, a2) = (c0.clone(), c2.clone());
        go.go("g1", move |go| serve_twice(&go, &a0, &a2));
        let b2 = c2.clone();
        go.go("g2", move |go| {
            let f = go.select().send(&b2, 20).default().wait();
            go.note(format!("case {:?}", f.index));
        });
        let (d0, d2) = (c0.clone(), c2.clone());
        go.go("g3", move |go| {
            let f = go.select().send(&d2, 30).default().wait();
            go.note(format!("case {:?}", f.index));
            let f = go.select().send(&d0, 31).default().wait();
            go.note(format!("case {:?}", f.index));
        });
        let v = c2.recv();
        go.note(format!("got {v:?}"));
        c0.send(1);
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_loom_in(&b, model);
    assert_eq!(d.explored.executions, 142);
}

/// A data race stops the execution at the step that meets it, and the race detector's
/// verdict there reads the clocks of earlier accesses that no step declares (a plain
/// load of an atomic's variable): so the stopping step is ordered against every earlier
/// step (`State::fail`), even one it was kept back across. The racy campaign of seed
/// 20261235 found dpor missing a clean trace without it: `g2`'s critical section
/// first, then `g1`'s plain load under the lock, then the atomic adds of `g1` and
/// main. Where main's add came before `g1`'s load the load raced with it and stopped
/// the execution; moved after it, nothing races, and only the stop's race with main's
/// add reaches that order (`g1`, kept back at the mutex at main's add, was not raced
/// with it, the step it does not touch).
#[test]
fn a_step_stopped_at_a_data_race_races_with_every_earlier_step() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.atomic("a", 0);
        let m = go.mutex("m");
        let (a1, m1) = (a.clone(), m.clone());
        go.go("g1", move |go| {
            m1.lock();
            go.note(format!("a reads {}", a1.plain_load()));
            m1.unlock();
            a1.add(1);
        });
        let (a2, m2) = (a.clone(), m.clone());
        go.go("g2", move |_| {
            m2.lock();
            a2.add(1);
            m2.unlock();
        });
        a.add(1);
    });
    let b = bounds().check_races(true);
    let all = stalemate::explore::traces(&b, model.clone(), true).expect("ran");
    let d = stalemate::explore::traces(&b, model, false).expect("ran");
    assert_eq!(all.traces.len(), 6);
    let missed = all
        .traces
        .iter()
        .filter(|t| !d.traces.contains(t) && !d.stopped.contains(t))
        .count();
    assert_eq!(
        missed, 0,
        "dpor missed clean traces the expanded search runs"
    );
}

/// A taker races with what used its channel before the wait it took (the Release ->
/// Acquire rule), walking back to the latest such step; past its own goroutine's
/// step, it still races with a step that does not happen before that one. Here the
/// own step is a close, which commutes with the wait it ends: `g1` closes `c1`, then
/// sends on `c0`; main serves two rounds of a select at `c0` and `c1`, then receives
/// from `c0`; `g2` sends on `c0`; `g3` sends on `c0` or receives from `c1`. Where main's
/// second select waits and the close ends it, `g1`'s send takes main's last receive,
/// and its walk back stopped at its own close, never reaching the select, which it
/// would have met first had it come before it (both ready, the select chooses it).
/// Lost, with the walk stopping at the own step (the fan campaign of seed 20261601,
/// on the code before too): the select takes 30 from `g3`, then 11 from `g1`, and the
/// receive 20 from `g2`.
#[test]
fn a_taker_walks_back_past_its_own_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<()> = go.done_chan("c1");
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |_| {
            a1.close();
            a0.send(11);
        });
        let b0 = c0.clone();
        go.go("g2", move |_| b0.send(20));
        let (d0, d1) = (c0.clone(), c1.clone());
        go.go("g3", move |go| {
            let f = go.select().send(&d0, 30).recv(&d1).wait();
            go.note(format!("g3 case {:?}", f.index));
        });
        for _ in 0..2 {
            let mut f = go.select().recv(&c0).recv(&c1).wait();
            let got = first_value(&mut f);
            go.note(format!("served {:?} got {got:?}", f.index));
            if got.is_none() {
                break;
            }
        }
        let v = c0.recv();
        go.note(format!("got {v:?}"));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_loom_in(&b, model);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(&d, &["got Some(30)", "got Some(11)", "got Some(20)"]),
        "{got:?}"
    );
}

/// A late select's partner may itself be late, to another close, and meet it after
/// that close, its two cases then ready: `Late::pair` inserts at the first select's
/// close and leaves the partner's close out of what the partner needs only. Main
/// closes `s2`, sends 7 into `g` (capacity 1), closes `s1`; `x` takes 7 and selects
/// `<-s1` or `o <- 1`; `y` selects `<-s2` or `<-o`. Main runs first, so both selects
/// are late; `x`'s past (the value main sent after closing `s2`) follows `y`'s close.
/// Lost while the pair went in at the earlier close (found by review): `y` takes 1.
#[test]
fn a_late_select_is_met_where_its_past_follows_the_other_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s1 = go.chan::<()>("s1", 0);
        let s2 = go.chan::<()>("s2", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let g: Chan<u8> = go.chan("g", 1);
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (a, b, c, w) = (s1.clone(), o.clone(), g.clone(), wg.clone());
        go.go("x", move |go| {
            let v = c.recv();
            let f = go.select().recv(&a).send(&b, 1).wait();
            go.note(format!("x g {v:?} case {:?}", f.index));
            w.done();
        });
        let (a, b, w) = (s2.clone(), o.clone(), wg.clone());
        go.go("y", move |go| {
            let mut f = go.select().recv(&a).recv(&b).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("y case {i:?} got {got:?}"));
            w.done();
        });
        s2.close();
        g.send(7);
        s1.close();
        wg.wait();
    });
    let (_, d) = same_as_dfs(model);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(
            &d,
            &["x g Some(7) case Some(1)", "y case Some(1) got Some(1)"]
        ),
        "{got:?}"
    );
}

/// The mirror: the meeting select's past (the value main sends after closing `s2`)
/// follows its own close. Lost while the pair went in at the earlier close.
#[test]
fn a_late_meeter_whose_past_follows_its_own_close_still_meets() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s1 = go.chan::<()>("s1", 0);
        let s2 = go.chan::<()>("s2", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let g: Chan<u8> = go.chan("g", 1);
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (a, b, w) = (s1.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            let f = go.select().recv(&a).send(&b, 1).wait();
            go.note(format!("x case {:?}", f.index));
            w.done();
        });
        let (a, b, c, w) = (s2.clone(), o.clone(), g.clone(), wg.clone());
        go.go("y", move |go| {
            let v = c.recv();
            let mut f = go.select().recv(&a).recv(&b).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("y g {v:?} case {i:?} got {got:?}"));
            w.done();
        });
        s2.close();
        g.send(7);
        s1.close();
        wg.wait();
    });
    let (_, d) = same_as_dfs(model);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(
            &d,
            &["x case Some(1)", "y g Some(7) case Some(1) got Some(1)"]
        ),
        "{got:?}"
    );
}

/// The same in everyday Go: a worker waits for `start`, then selects `<-quit` or
/// sending its result; a consumer selects `<-start` or the result; main closes
/// `start`, then `quit`. The worker's wait for `start` follows the consumer's close.
/// Lost while the pair went in at the earlier close: the consumer takes the result.
#[test]
fn a_worker_started_by_a_close_meets_a_consumer_late_to_it() {
    for done in [false, true] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let mk = |name: &str| {
                if done {
                    go.done_chan::<()>(name)
                } else {
                    go.chan::<()>(name, 0)
                }
            };
            let start = mk("start");
            let quit = mk("quit");
            let out: Chan<u8> = go.chan("out", 0);
            let wg = go.waitgroup("wg");
            wg.add(2);
            let (st, q, o, w) = (start.clone(), quit.clone(), out.clone(), wg.clone());
            go.go("worker", move |go| {
                let _ = st.recv();
                let f = go.select().recv(&q).send(&o, 1).wait();
                go.note(format!("worker case {:?}", f.index));
                w.done();
            });
            let (st, o, w) = (start.clone(), out.clone(), wg.clone());
            go.go("consumer", move |go| {
                let mut f = go.select().recv(&st).recv(&o).wait();
                let i = f.index;
                let got = if i == Some(1) { f.take::<u8>() } else { None };
                go.note(format!("consumer case {i:?} got {got:?}"));
                w.done();
            });
            start.close();
            quit.close();
            wg.wait();
        });
        let (_, d) = same_as_dfs(model);
        let got = unwaited(&d.outcomes);
        assert!(
            reaches(
                &d,
                &["worker case Some(1)", "consumer case Some(1) got Some(1)"]
            ),
            "done {done}: {got:?}"
        );
    }
}

/// As above, `start` closed by a goroutine of its own, so that the first execution
/// has the worker's close (`quit`) first.
/// Uncut, and cut at every depth to 8 (`late_cut_like_loom`).
#[test]
fn a_worker_started_by_a_goroutines_close_meets_a_consumer_late_to_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let start = go.chan::<()>("start", 0);
        let quit = go.chan::<()>("quit", 0);
        let out: Chan<u8> = go.chan("out", 0);
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (st, q, o, w) = (start.clone(), quit.clone(), out.clone(), wg.clone());
        go.go("worker", move |go| {
            let _ = st.recv();
            let f = go.select().recv(&q).send(&o, 1).wait();
            go.note(format!("worker case {:?}", f.index));
            w.done();
        });
        let (st, o, w) = (start.clone(), out.clone(), wg.clone());
        go.go("consumer", move |go| {
            let mut f = go.select().recv(&st).recv(&o).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("consumer case {i:?} got {got:?}"));
            w.done();
        });
        let (st, w) = (start.clone(), wg.clone());
        go.go("closer", move |_| {
            st.close();
            w.done();
        });
        quit.close();
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model.clone());
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(
            &d,
            &["worker case Some(1)", "consumer case Some(1) got Some(1)"]
        ),
        "{got:?}"
    );
    late_cut_like_loom(
        "worker",
        model,
        &["worker case Some(1)", "consumer case Some(1) got Some(1)"],
    );
}

/// The meeting step a try (a select with a default), whose past follows another
/// close: not late, so only the waiting select's close bounds the meeting.
#[test]
fn a_try_whose_past_follows_another_close_meets_a_late_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s1 = go.chan::<()>("s1", 0);
        let s2 = go.chan::<()>("s2", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let g: Chan<u8> = go.chan("g", 1);
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (a, b, w) = (s1.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            let f = go.select().recv(&a).send(&b, 1).wait();
            go.note(format!("x case {:?}", f.index));
            w.done();
        });
        let (b, c, w) = (o.clone(), g.clone(), wg.clone());
        go.go("y", move |go| {
            let v = c.recv();
            let mut f = go.select().recv(&b).default().wait();
            let got = first_value(&mut f);
            go.note(format!("y g {v:?} case {:?} got {got:?}", f.index));
            w.done();
        });
        s2.close();
        g.send(7);
        s1.close();
        wg.wait();
    });
    let (_, d) = same_as_dfs(model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["x case Some(1)", "got Some(1)"]), "{got:?}");
}

/// A chain of pairs: `x2`, late at the same close as `x`, is met by a try at `p`,
/// and its next step, a try at `o`, meets `x` waiting. The first pair's execution
/// has `x2`'s next step before the close, where the second pair applies.
/// Uncut, and cut at every depth to 8 (`late_cut_like_loom`).
#[test]
fn a_late_selects_partners_next_step_meets_another_late_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<()>("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let p: Chan<u8> = go.chan("p", 0);
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (a, b, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            let mut f = go.select().recv(&a).recv(&b).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("x case {i:?} got {got:?}"));
            w.done();
        });
        let (a, b, c, w) = (s.clone(), p.clone(), o.clone(), wg.clone());
        go.go("x2", move |go| {
            let f = go.select().recv(&a).recv(&b).wait();
            let t = go.select().send(&c, 1).default().wait();
            go.note(format!("x2 case {:?} tried {:?}", f.index, t.index));
            w.done();
        });
        let (b, w) = (p.clone(), wg.clone());
        go.go("p", move |go| {
            let f = go.select().send(&b, 2).default().wait();
            go.note(format!("p tried {:?}", f.index));
            w.done();
        });
        s.close();
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model.clone());
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(
            &d,
            &[
                "x case Some(1) got Some(1)",
                "x2 case Some(1) tried Some(0)"
            ]
        ),
        "{got:?}"
    );
    late_cut_like_loom(
        "chain",
        model,
        &[
            "x case Some(1) got Some(1)",
            "x2 case Some(1) tried Some(0)",
        ],
    );
}

/// A try before the close (main's, at `o`) that would have met the late select
/// waiting, ordered before it through the select's goroutine's own try at `o`: their
/// race comes first; then the try no longer happens before the select, which is not
/// quiet there, and its close's race with it stands.
#[test]
fn a_try_before_the_close_meets_a_late_select_past_its_own_goroutines_try() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<()>("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let wg = go.waitgroup("wg");
        wg.add(1);
        let (a, b, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            let mut t = go.select().recv(&b).default().wait();
            let early = first_value(&mut t);
            let mut f = go.select().recv(&a).recv(&b).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("x tried {early:?} case {i:?} got {got:?}"));
            w.done();
        });
        let f = go.select().send(&o, 1).default().wait();
        go.note(format!("main tried {:?}", f.index));
        s.close();
        wg.wait();
    });
    let (_, d) = same_as_dfs(model);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(
            &d,
            &[
                "x tried None case Some(1) got Some(1)",
                "main tried Some(0)"
            ]
        ),
        "{got:?}"
    );
}

/// A late select in a loop, met at `o` by two tries after the close: its second
/// round exists only in the executions its first pair made, and gets its own pair
/// there.
#[test]
fn a_late_select_in_a_loop_is_met_twice() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<()>("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (a, b, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            let mut seen = Vec::new();
            for _ in 0..2 {
                let mut f = go.select().recv(&a).recv(&b).wait();
                if f.index == Some(1) {
                    seen.push(f.take::<u8>());
                } else {
                    break;
                }
            }
            go.note(format!("x got {seen:?}"));
            w.done();
        });
        let (b, w) = (o.clone(), wg.clone());
        go.go("y", move |go| {
            let f1 = go.select().send(&b, 1).default().wait();
            let f2 = go.select().send(&b, 2).default().wait();
            go.note(format!("y tried {:?} {:?}", f1.index, f2.index));
            w.done();
        });
        s.close();
        wg.wait();
    });
    let (_, d) = same_as_dfs(model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["x got [Some(1), Some(2)]"]), "{got:?}");
}

/// A select after its own goroutine's close is no late select to pair: it could not
/// have come before the close. Paired, the sequence began with its goroutine, whose
/// step at the close's level is the close, and the search never ended (the fan
/// campaign of seed 20261601: 300,000 executions where loom's census took fewer).
/// `g3` tries to send on `c0`, closes `c1`, then selects sending on `c0` or receiving
/// from `c1`; `g1` and `g2` send on `c0`; main receives from it once.
#[test]
fn a_select_after_its_own_close_is_not_paired() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0: Chan<u8> = go.chan("c0", 0);
        let c1: Chan<()> = go.done_chan("c1");
        for (name, v) in [("g1", 11), ("g2", 12)] {
            let c = c0.clone();
            go.go(name, move |_| c.send(v));
        }
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g3", move |go| {
            let f = go.select().send(&a0, 30).default().wait();
            go.note(format!("try {:?}", f.index));
            a1.close();
            let f = go.select().send(&a0, 31).recv(&a1).wait();
            go.note(format!("g3 case {:?}", f.index));
        });
        let v = c0.recv();
        go.note(format!("got {v:?}"));
    });
    let b = bounds().max_executions(20_000);
    let (_, d) = same_as_loom_in(&b, model);
    assert!(d.explored.executions < 100, "{}", d.explored.executions);
}

/// The same with main closing and then selecting, a goroutine trying to send at the
/// select's other channel: one behaviour, and a search that ended only at its bound
/// with the select paired (the second review).
#[test]
fn a_select_after_its_own_close_is_not_paired_where_main_closes() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<()>("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let wg = go.waitgroup("wg");
        wg.add(1);
        let (b, w) = (o.clone(), wg.clone());
        go.go("y", move |go| {
            let f = go.select().send(&b, 1).default().wait();
            go.note(format!("y tried {:?}", f.index));
            w.done();
        });
        s.close();
        let mut f = go.select().recv(&s).recv(&o).wait();
        let i = f.index;
        let got = if i == Some(1) { f.take::<u8>() } else { None };
        go.note(format!("main case {i:?} got {got:?}"));
        wg.wait();
    });
    let b = bounds()
        .max_executions(5_000)
        .time_limit(Duration::from_secs(60));
    let d = census(&Engine::Dpor, &b, model.clone()).expect("ran");
    assert_eq!(
        d.explored.stop,
        Stop::Exhausted,
        "dpor did not end: {} executions",
        d.explored.executions
    );
    assert!(d.explored.executions <= 10, "{}", d.explored.executions);
    same_as_loom_in(&bounds(), model);
}

/// A select `z` that took a place at another channel before the close, with a send
/// case at the closed channel, depends on the late select (it found nobody at that
/// channel) and comes before the close, so the late select could have waited before
/// it: then `z` had two cases ready and could send to it. Such a step makes the
/// select not quiet (`Late::quiet`'s window), and the close's race with it stands.
/// Lost with the window counting only the steps that would have met it waiting, the
/// closed channel's line left out (the second review).
/// Uncut, and cut at every depth to 8 (`late_cut_like_loom`).
#[test]
fn a_select_that_took_a_place_before_the_close_keeps_the_late_selects_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s: Chan<u8> = go.chan("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let p: Chan<u8> = go.chan("p", 0);
        let (mz, mx) = (go.mutex("mz"), go.mutex("mx"));
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (zs, zp, w) = (s.clone(), p.clone(), wg.clone());
        go.go("z", move |go| {
            // A private first step: z's select is not its goroutine's first step.
            mz.lock();
            mz.unlock();
            let mut f = go.select().send(&zs, 1).recv(&zp).wait();
            let i = f.index;
            // Having sent on `s`, z still takes main's value, so main goes on.
            let got = if i == Some(1) {
                f.take::<u8>()
            } else {
                zp.recv()
            };
            go.note(format!("z case {i:?} got {got:?}"));
            w.done();
        });
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            // Without this private step, x's select would acquire its goroutine's
            // start, which main released before the close: the window would flag
            // the spawn, and x would not be quiet.
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let got = first_value(&mut f);
            go.note(format!("x case {:?} got {got:?}", f.index));
            w.done();
        });
        p.send(7);
        s.close();
        wg.wait();
    });
    let (l, d) = same_as_loom_in(&bounds(), model.clone());
    for (who, c) in [("loom", &l), ("dpor", &d)] {
        let got = unwaited(&c.outcomes);
        assert!(
            reaches(c, &["x case Some(0) got Some(1)"]),
            "{who}: {got:?}"
        );
    }
    late_cut_like_loom("window", model, &["x case Some(0) got Some(1)"]);
}

/// The same, the case by which `z` takes a place a send.
#[test]
fn a_select_that_took_a_receivers_place_before_the_close_keeps_the_late_selects_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s: Chan<u8> = go.chan("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let p: Chan<u8> = go.chan("p", 0);
        let (mz, mx) = (go.mutex("mz"), go.mutex("mx"));
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (zs, zp, w) = (s.clone(), p.clone(), wg.clone());
        go.go("z", move |go| {
            mz.lock();
            mz.unlock();
            let f = go.select().send(&zs, 1).send(&zp, 2).wait();
            if f.index == Some(0) {
                zp.send(2);
            }
            go.note(format!("z case {:?}", f.index));
            w.done();
        });
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let got = first_value(&mut f);
            go.note(format!("x case {:?} got {got:?}", f.index));
            w.done();
        });
        let v = p.recv();
        go.note(format!("main got {v:?}"));
        s.close();
        wg.wait();
    });
    let (l, d) = same_as_loom_in(&bounds(), model);
    for (who, c) in [("loom", &l), ("dpor", &d)] {
        let got = unwaited(&c.outcomes);
        assert!(
            reaches(c, &["x case Some(0) got Some(1)"]),
            "{who}: {got:?}"
        );
    }
}

/// The same, `z` taking a `time.After` tick's place in `any` time (`tick_hand`).
#[test]
fn a_select_that_took_a_tick_before_the_close_keeps_the_late_selects_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = go.after("t", Duration::from_millis(5));
        let s: Chan<u8> = go.chan("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let r: Chan<()> = go.chan("r", 0);
        let (mz, mx) = (go.mutex("mz"), go.mutex("mx"));
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (zs, zt, zr, w) = (s.clone(), t.clone(), r.clone(), wg.clone());
        go.go("z", move |go| {
            mz.lock();
            mz.unlock();
            let f = go.select().send(&zs, 1).recv(&zt).wait();
            go.note(format!("z case {:?}", f.index));
            zr.send(());
            w.done();
        });
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let got = first_value(&mut f);
            go.note(format!("x case {:?} got {got:?}", f.index));
            w.done();
        });
        let _ = r.recv();
        s.close();
        wg.wait();
    });
    let (l, d) = same_as_loom_in(&bounds(), model);
    for (who, c) in [("loom", &l), ("dpor", &d)] {
        let got = unwaited(&c.outcomes);
        assert!(
            reaches(c, &["x case Some(0) got Some(1)"]),
            "{who}: {got:?}"
        );
    }
}

/// The same, `z` itself a late select to another close: the two pair.
#[test]
fn a_late_select_with_a_send_case_at_another_closed_channel_meets_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s: Chan<u8> = go.chan("s", 0);
        let dd = go.chan::<()>("d", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let r: Chan<()> = go.chan("r", 0);
        let (mz, mx) = (go.mutex("mz"), go.mutex("mx"));
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (zs, zd, zr, w) = (s.clone(), dd.clone(), r.clone(), wg.clone());
        go.go("z", move |go| {
            mz.lock();
            mz.unlock();
            let f = go.select().send(&zs, 1).recv(&zd).wait();
            go.note(format!("z case {:?}", f.index));
            zr.send(());
            w.done();
        });
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let got = first_value(&mut f);
            go.note(format!("x case {:?} got {got:?}", f.index));
            w.done();
        });
        dd.close();
        let _ = r.recv();
        s.close();
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["x case Some(0) got Some(1)"]), "{got:?}");
}

/// A late partner whose goroutine first received from its own closed channel (a
/// receive that commutes with that close): loom's outcomes, the hand-off among them.
#[test]
fn a_late_partner_whose_goroutine_received_from_its_closed_channel_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<()>("s", 0);
        let sy = go.chan::<()>("sy", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("x case {i:?} got {got:?}"));
            w.done();
        });
        let (c2, w) = (sy.clone(), wg.clone());
        go.go("c2", move |_| {
            c2.close();
            w.done();
        });
        let (ys, yo, w) = (sy.clone(), o.clone(), wg.clone());
        go.go("y", move |go| {
            let _ = ys.recv();
            let f = go.select().recv(&ys).send(&yo, 1).wait();
            go.note(format!("y case {:?}", f.index));
            w.done();
        });
        s.close();
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(&d, &["x case Some(1) got Some(1)", "y case Some(1)"]),
        "{got:?}"
    );
}

/// A close that also woke a select at a channel the late select does not use: the
/// late select stays quiet, and its outcomes are loom's.
#[test]
fn a_close_that_woke_a_select_elsewhere_leaves_a_late_select_quiet() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<()>("s", 0);
        let o: Chan<u8> = go.chan("o", 0);
        let p: Chan<u8> = go.chan("p", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(4);
        let (ws, wp, w) = (s.clone(), p.clone(), wg.clone());
        go.go("w", move |go| {
            let mut f = go.select().recv(&ws).recv(&wp).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("w case {i:?} got {got:?}"));
            w.done();
        });
        let (cs, w) = (s.clone(), wg.clone());
        go.go("closer", move |_| {
            cs.close();
            w.done();
        });
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            go.note(format!("x case {i:?} got {got:?}"));
            w.done();
        });
        let (yo, yp, w) = (o.clone(), p.clone(), wg.clone());
        go.go("y", move |go| {
            let a = go.select().send(&yo, 1).default().wait();
            let b = go.select().send(&yp, 2).default().wait();
            go.note(format!("y tried {:?} {:?}", a.index, b.index));
            w.done();
        });
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["x case Some(1) got Some(1)"]), "{got:?}");
}

/// Compares dpor's outcomes with loom's, the tree cut at every depth to 8.
fn late_cut_like_loom(what: &str, model: ModelFn, must: &[&str]) {
    let l = run_in(&loom(), &bounds(), model.clone());
    let want = unwaited(&l.outcomes);
    for m in must {
        assert!(reaches(&l, &[m]), "{what}: loom lacks {m}: {want:?}");
    }
    for split in 0..=8 {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        let got = unwaited(&d.outcomes);
        for o in want.difference(&got) {
            eprintln!("{what}, cut at {split}, LOST:\n{o}");
        }
        assert_eq!(l.violations, d.violations, "{what}, cut at {split}");
        assert_eq!(want, got, "{what}, cut at {split}");
    }
}

/// A late select whose other channel is closed later, by a goroutine whose close
/// is ordered after the select through a step that is no partner: `w` selects `<-s`
/// or `<-p` (two cases ready after main's close of `s`: a write of `s`, dependent with
/// the late select but not at `o`), then closes `o`. So `o`'s close is no direct race
/// of `x` (`w`'s select stands between), and `w`'s select is no partner (it touches
/// `s` and `p` only). The outcome: `x` waits at both, `w` takes `p` before main's
/// close and closes `o`, which completes `x` on case 1; `x`'s try then finds `s` open.
/// Reached through `x`'s race with `w`'s select (which moves the
/// select before `x`, making `x` not quiet), that select's race with the close, and
/// then `o`'s close's direct race with `x` (two cases ready, a write, raced with main's
/// close as any step).
#[test]
fn a_close_of_a_late_selects_other_channel_ordered_through_a_write_completes_it_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<u8>("s", 0);
        let o = go.chan::<u8>("o", 0);
        let p = go.chan::<u8>("p", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let f = go.select().recv(&xs).recv(&xo).wait();
            let t = go.select().recv(&xs).default().wait();
            go.note(format!("x case {:?} then {:?}", f.index, t.index));
            w.done();
        });
        let (pp, w) = (p.clone(), wg.clone());
        go.go("pp", move |_| {
            pp.send(1);
            w.done();
        });
        let (ws, wp, wo, w) = (s.clone(), p.clone(), o.clone(), wg.clone());
        go.go("w", move |go| {
            let f = go.select().recv(&ws).recv(&wp).wait();
            go.note(format!("w case {:?}", f.index));
            wo.close();
            w.done();
        });
        s.close();
        wg.wait();
    });
    let (l, d) = same_as_loom_in(&bounds(), model);
    for (who, c) in [("loom", &l), ("dpor", &d)] {
        let got = unwaited(&c.outcomes);
        assert!(
            reaches(c, &["x case Some(1) then None", "w case Some(1)"]),
            "{who}: {got:?}"
        );
    }
}

/// Two closes of two channels that are both a receive case of one select: late to
/// `s1`'s close (`s2` still open), the select is quiet; `s2`'s close after it is a
/// close, so no partner, and races with it directly: reversed, the select finds two
/// cases ready (a write), whose race with `s1`'s close then puts it before that close,
/// late to `s2`'s. The outcome: `x` takes case 1 and its try at `s1` then finds it
/// open (completed by `s2`'s close before `s1`'s). Both closes in goroutines of their
/// own, started after `x`, so the first execution has both after `x`'s private step.
#[test]
fn a_select_at_two_channels_closed_apart_is_completed_by_the_later_close_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s1 = go.chan::<u8>("s1", 0);
        let s2 = go.chan::<u8>("s2", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (k1, w) = (s1.clone(), wg.clone());
        go.go("k1", move |_| {
            k1.close();
            w.done();
        });
        let (a1, a2, w) = (s1.clone(), s2.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let f = go.select().recv(&a1).recv(&a2).wait();
            let t = go.select().recv(&a1).default().wait();
            go.note(format!("x case {:?} then {:?}", f.index, t.index));
            w.done();
        });
        let (k2, w) = (s2.clone(), wg.clone());
        go.go("k2", move |_| {
            k2.close();
            w.done();
        });
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    assert!(reaches(&d, &["x case Some(1) then None"]), "{got:?}");
}

/// Three cases: a late select at `s1` (closed), `s2` (closed later by
/// `k2`) and `o`, met at `o` by a try of `y` after the first close. The pair (`x`
/// waiting, `y`'s try) and `s2`'s close's direct race must both be there; the outcome
/// `x` got 1 from the try with its own try at `s1` open needs the pair, `x` case 1
/// with `s1` open the write.
#[test]
fn a_late_select_at_three_channels_two_closed_apart_meets_a_try() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s1 = go.chan::<u8>("s1", 0);
        let s2 = go.chan::<u8>("s2", 0);
        let o = go.chan::<u8>("o", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (a1, a2, ao, w) = (s1.clone(), s2.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&a1).recv(&a2).recv(&ao).wait();
            let i = f.index;
            let got = if i == Some(2) { f.take::<u8>() } else { None };
            let t = go.select().recv(&a1).default().wait();
            go.note(format!("x case {i:?} got {got:?} then {:?}", t.index));
            w.done();
        });
        let (k2, w) = (s2.clone(), wg.clone());
        go.go("k2", move |_| {
            k2.close();
            w.done();
        });
        let (yo, w) = (o.clone(), wg.clone());
        go.go("y", move |go| {
            let f = go.select().send(&yo, 1).default().wait();
            go.note(format!("y tried {:?}", f.index));
            w.done();
        });
        s1.close();
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    for want in [
        "x case Some(2) got Some(1) then None",
        "x case Some(1) got None then None",
    ] {
        assert!(reaches(&d, &[want]), "{want}: {got:?}");
    }
}

/// A plain receive `r` parked at `o` before the close, a plain send `y` after the
/// close taking its place, and the select late after both: `r`'s join would be seen
/// by the select waiting (same side, a taker tells them apart), but `r` is in the
/// select's `pre` (the past of `y`, which depends on the select and is not ordered
/// before the close), so the window does not flag it and the select is quiet. Its pair
/// with `y` runs the select waiting behind `r`, where `y` takes `r` again; only the
/// joins' race that the taker finds in that execution puts the select first. Outcome:
/// `x` gets 1 from `y` before the close (its try finds `s` open) and `r` gets 2 from
/// `z`'s try.
#[test]
fn a_late_select_meets_the_sender_that_took_a_receiver_parked_before_the_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<u8>("s", 0);
        let o = go.chan::<u8>("o", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(5);
        let (ro, w) = (o.clone(), wg.clone());
        go.go("r", move |go| {
            let v = ro.recv();
            go.note(format!("r got {v:?}"));
            w.done();
        });
        let (ks, w) = (s.clone(), wg.clone());
        go.go("k", move |_| {
            ks.close();
            w.done();
        });
        let (yo, w) = (o.clone(), wg.clone());
        go.go("y", move |_| {
            yo.send(1);
            w.done();
        });
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            let t = go.select().recv(&xs).default().wait();
            go.note(format!("x case {i:?} got {got:?} then {:?}", t.index));
            w.done();
        });
        let (zo, w) = (o.clone(), wg.clone());
        go.go("z", move |go| {
            let f = go.select().send(&zo, 2).default().wait();
            go.note(format!("z tried {:?}", f.index));
            w.done();
        });
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(
            &d,
            &["x case Some(1) got Some(1) then None", "r got Some(2)"]
        ),
        "{got:?}"
    );
}

/// Wake edges right before the late select. `k` (started first, so the
/// default schedule runs it before `x`) waits for `y`'s start signal, then hands 9 to
/// `x`, parked at `q` (form 0: the hand-off names `x`'s wake-up, `Wake`), or releases
/// the WaitGroup `x` is kept back at (form 1), and then closes `s`: `x`'s woken step
/// lies between the close and the select, ordered
/// after `k`'s step before the close but not after the close, so the select is quiet,
/// and `y`'s try at `o` after it is a partner whose pair must hold that woken step.
/// Outcome: `x` gets 1 from `y` before the close (its try finds `s` open).
#[test]
fn a_late_select_woken_just_before_it_is_met_by_a_try() {
    for form in 0..2 {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let s = go.chan::<u8>("s", 0);
            let o = go.chan::<u8>("o", 0);
            let q = go.chan::<u8>("q", 0);
            let start = go.chan::<u8>("start", 0);
            let gate = go.waitgroup("gate");
            let wg = go.waitgroup("wg");
            gate.add(1);
            wg.add(3);
            let (ks, kq, kst, kg, w) = (
                s.clone(),
                q.clone(),
                start.clone(),
                gate.clone(),
                wg.clone(),
            );
            go.go("k", move |_| {
                let _ = kst.recv();
                if form == 0 {
                    kq.send(9);
                } else {
                    kg.done();
                }
                ks.close();
                w.done();
            });
            let (xs, xo, xq, xg, w) = (s.clone(), o.clone(), q.clone(), gate.clone(), wg.clone());
            go.go("x", move |go| {
                if form == 0 {
                    let _ = xq.recv();
                } else {
                    xg.wait();
                }
                let mut f = go.select().recv(&xs).recv(&xo).wait();
                let i = f.index;
                let got = if i == Some(1) { f.take::<u8>() } else { None };
                let t = go.select().recv(&xs).default().wait();
                go.note(format!("x case {i:?} got {got:?} then {:?}", t.index));
                w.done();
            });
            let (yst, yo, w) = (start.clone(), o.clone(), wg.clone());
            go.go("y", move |go| {
                yst.send(1);
                let f = go.select().send(&yo, 1).default().wait();
                go.note(format!("y tried {:?}", f.index));
                w.done();
            });
            wg.wait();
        });
        let (_, d) = same_as_loom_in(&bounds(), model);
        let got = unwaited(&d.outcomes);
        assert!(
            reaches(&d, &["x case Some(1) got Some(1) then None"]),
            "form {form}: {got:?}"
        );
    }
}

/// A late select beside a `time.After` in `any` time, the tick a goroutine's step
/// (`tick_hand`): after the close the tick is a half that waits (a join of the send
/// line the select reads: no partner, a direct race), and a try at the timer's channel
/// by `y` is a partner. Outcomes: `x` takes the tick before the close (its try finds
/// `s` open), and `y`'s try takes the tick while `x` takes `s`.
#[test]
fn a_late_select_beside_a_tick_in_any_time_reaches_what_loom_reaches() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = go.after("t", Duration::from_millis(5));
        let s = go.chan::<u8>("s", 0);
        let mx = go.mutex("mx");
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (ks, w) = (s.clone(), wg.clone());
        go.go("k", move |_| {
            ks.close();
            w.done();
        });
        let (xs, xt, w) = (s.clone(), t.clone(), wg.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let f = go.select().recv(&xs).recv(&xt).wait();
            let u = go.select().recv(&xs).default().wait();
            go.note(format!("x case {:?} then {:?}", f.index, u.index));
            w.done();
        });
        let (yt, w) = (t.clone(), wg.clone());
        go.go("y", move |go| {
            let f = go.select().recv(&yt).default().wait();
            go.note(format!("y tried {:?}", f.index));
            w.done();
        });
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    for want in ["x case Some(1) then None", "y tried Some(0)"] {
        assert!(reaches(&d, &[want]), "{want}: {got:?}");
    }
}

/// Three late selects pairwise at two channels, all at one closed channel:
/// `p1` sends at `a`, `p2` receives at `a` or sends at `b`, `p3` receives at `b`, each
/// beside `<-s`, main closing `s` first so that all three are late in the first
/// execution; each then tries `s`. The pairs must reach both hand-offs before the
/// close (and the tries finding `s` open).
#[test]
fn three_late_selects_in_a_chain_pair_before_the_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<u8>("s", 0);
        let a = go.chan::<u8>("a", 0);
        let b = go.chan::<u8>("b", 0);
        let wg = go.waitgroup("wg");
        wg.add(3);
        let (ps, pa, w) = (s.clone(), a.clone(), wg.clone());
        go.go("p1", move |go| {
            let f = go.select().recv(&ps).send(&pa, 1).wait();
            let t = go.select().recv(&ps).default().wait();
            go.note(format!("p1 case {:?} then {:?}", f.index, t.index));
            w.done();
        });
        let (ps, pa, pb, w) = (s.clone(), a.clone(), b.clone(), wg.clone());
        go.go("p2", move |go| {
            let mut f = go.select().recv(&ps).recv(&pa).send(&pb, 2).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            let t = go.select().recv(&ps).default().wait();
            go.note(format!("p2 case {i:?} got {got:?} then {:?}", t.index));
            w.done();
        });
        let (ps, pb, w) = (s.clone(), b.clone(), wg.clone());
        go.go("p3", move |go| {
            let mut f = go.select().recv(&ps).recv(&pb).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            let t = go.select().recv(&ps).default().wait();
            go.note(format!("p3 case {i:?} got {got:?} then {:?}", t.index));
            w.done();
        });
        s.close();
        wg.wait();
    });
    let (_, d) = same_as_loom_in(&bounds(), model);
    let got = unwaited(&d.outcomes);
    for want in [
        "p2 case Some(1) got Some(1) then None",
        "p3 case Some(1) got Some(2) then None",
    ] {
        assert!(reaches(&d, &[want]), "{want}: {got:?}");
    }
}

/// Main closes and returns at once (it then waits for the others, `Joining`); a
/// plain send at the select's other channel may wait for ever (a deadlock where the
/// select came late and took `s`). The send joins the line the select reads (no
/// partner, a direct race); the hand-off must still be reached, and with the select
/// completed before the close (its try finds `s` open).
#[test]
fn a_late_select_beside_a_sender_left_waiting_when_main_returns() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<u8>("s", 0);
        let o = go.chan::<u8>("o", 0);
        let mx = go.mutex("mx");
        let (xs, xo) = (s.clone(), o.clone());
        go.go("x", move |go| {
            mx.lock();
            mx.unlock();
            let mut f = go.select().recv(&xs).recv(&xo).wait();
            let i = f.index;
            let got = if i == Some(1) { f.take::<u8>() } else { None };
            let t = go.select().recv(&xs).default().wait();
            go.note(format!("x case {i:?} got {got:?} then {:?}", t.index));
        });
        let yo = o.clone();
        go.go("y", move |_| yo.send(1));
        s.close();
    });
    let (l, d) = same_as_loom_in(&bounds(), model);
    assert_eq!(l.violations, d.violations);
    let got = unwaited(&d.outcomes);
    assert!(
        reaches(&d, &["x case Some(1) got Some(1) then None"]),
        "{got:?}"
    );
}

/// A nil channel's case beside the closed one and the one a try meets (nil cases
/// are not declared, so `at` counts the declared cases only: `hand_into`'s `at` and
/// `Mode::Closed`'s must agree), and a select naming `o` twice (no half: a write, not
/// late). Loom's outcomes, the hand-off from the try among them.
#[test]
fn a_late_select_with_a_nil_case_or_a_channel_named_twice_meets_a_try() {
    for form in 0..2 {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let s = go.chan::<u8>("s", 0);
            let o = go.chan::<u8>("o", 0);
            let n = go.nil_chan::<u8>("n");
            let mx = go.mutex("mx");
            let wg = go.waitgroup("wg");
            wg.add(2);
            let (xs, xo, xn, w) = (s.clone(), o.clone(), n.clone(), wg.clone());
            go.go("x", move |go| {
                mx.lock();
                mx.unlock();
                let mut f = if form == 0 {
                    go.select().recv(&xn).recv(&xs).recv(&xo).wait()
                } else {
                    go.select().recv(&xs).recv(&xo).recv(&xo).wait()
                };
                let i = f.index;
                let got = f.take::<u8>();
                let t = go.select().recv(&xs).default().wait();
                go.note(format!("x case {i:?} got {got:?} then {:?}", t.index));
                w.done();
            });
            let (yo, w) = (o.clone(), wg.clone());
            go.go("y", move |go| {
                let f = go.select().send(&yo, 1).default().wait();
                go.note(format!("y tried {:?}", f.index));
                w.done();
            });
            s.close();
            wg.wait();
        });
        let (_, d) = same_as_loom_in(&bounds(), model);
        let got = unwaited(&d.outcomes);
        assert!(
            reaches(&d, &["got Some(1) then None", "y tried Some(0)"]),
            "form {form}: {got:?}"
        );
    }
}

/// A partner whose goroutine first receives from the closed channel (a
/// plain receive that commutes with the close: not ordered after it, so in the
/// partner's `need`, and run before the close the pair's sequence blocks there, an
/// infeasible head that expands the level), in a loop, against a late select in a
/// loop. Checks the search ends (bounded) and reaches loom's outcomes; a loss of
/// termination would show as a stop at the bound.
#[test]
fn infeasible_late_pairs_in_loops_end() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let s = go.chan::<u8>("s", 0);
        let o = go.chan::<u8>("o", 0);
        let wg = go.waitgroup("wg");
        wg.add(2);
        let (xs, xo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("x", move |go| {
            let mut seen = Vec::new();
            for _ in 0..2 {
                let mut f = go.select().recv(&xs).recv(&xo).wait();
                seen.push((f.index, f.take::<u8>()));
            }
            go.note(format!("x saw {seen:?}"));
            w.done();
        });
        let (ys, yo, w) = (s.clone(), o.clone(), wg.clone());
        go.go("y", move |go| {
            let mut tried = Vec::new();
            for v in 1..=2u8 {
                let _ = ys.recv();
                tried.push(go.select().send(&yo, v).default().wait().index);
            }
            go.note(format!("y tried {tried:?}"));
            w.done();
        });
        s.close();
        wg.wait();
    });
    let b = bounds()
        .max_executions(20_000)
        .time_limit(Duration::from_secs(120));
    let d = census(&Engine::Dpor, &b, model.clone()).expect("ran");
    assert_eq!(
        d.explored.stop,
        Stop::Exhausted,
        "dpor did not end: {} executions",
        d.explored.executions
    );
    same_as_loom_in(&bounds(), model);
}
