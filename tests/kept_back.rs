//! Programs against the races of a step kept back (docs/dpor.md, the rows on steps
//! kept back): each has a later step of the stretch in which a goroutine is kept back
//! (a failed try, a `len`, a send) that happens after the step that kept it back and
//! conflicts with its attempt, so that at the stretch's last level it hides that step
//! from the attempt's race. The attempt is raced at the stretch's first level too,
//! where that step is its front; none of these programs loses an outcome with either
//! level's race alone (a review's eleven probes). Each is compared with loom's census
//! and asserts that loom reaches the outcome at stake. Last, three fan programs whose
//! traces dpor missed with the first level's race alone, which fail without the last
//! level's, and a reversal that asks for a step where it is kept back, whose sequences
//! below go back to the level checked against the sleep set.

use stalemate::explore::ModelFn;
use stalemate::go::{Chan, Go};
use std::sync::Arc;
mod common;
mod reference;
use reference::*;

fn virtual_bounds() -> stalemate::explore::Bounds {
    bounds().time(stalemate::TimeMode::Virtual)
}

/// Receives from `c`, then tries to receive again, noting both as `name`.
fn recv_then_try(go: &Go, name: &str, c: &Chan<u8>) {
    let v = c.recv();
    let t = c.try_recv();
    go.note(format!("{name} got {v:?} try {t:?}"));
}

/// Two goroutines each receive from `c` (capacity 1, one value in), then try `c`, then
/// signal main, which closes `c` after the first signal. In the first execution `a`
/// takes the value and `b` is kept back at the empty buffer from `a`'s receive until
/// the close; `a`'s failed try (a write of `c`) is in the stretch and happens after
/// `a`'s receive, so at the last level it is the race front's only step and hides the
/// receive. Its reversal asks for `b` where it is kept back (a no-op); `b`'s step
/// after the close (it reads `c` closed, commuting with the close) meets the same
/// front. At the first level the front was `a`'s receive, and its reversal ran `b`'s
/// receive first. The outcome at stake: `b got Some(1)`.
#[test]
fn a_try_after_the_emptying_receive_hides_the_kept_receives_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let fin = go.chan::<()>("fin", 0);
        c.send(1);
        for name in ["a", "b"] {
            let (c, fin) = (c.clone(), fin.clone());
            go.go(name, move |go| {
                recv_then_try(&go, name, &c);
                fin.send(());
            });
        }
        fin.recv();
        c.close();
        fin.recv();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b got None try Closed"]
    ));
    assert!(reaches(
        &l,
        &["b got Some(1) try Empty", "a got None try Closed"]
    ));
}

/// The send side: two goroutines each send into `c` (capacity 1, empty), then read
/// `len(c)` (a write of `c`), then signal main, which receives a value after each
/// signal. The second sender is kept back at the full buffer from the first's send
/// until main's receive makes room; the first's `len` hides its send from the kept
/// attempt's front, and the kept sender's real send (it takes the room main's receive
/// left: a Release -> Acquire, walked back from the receive) stops at the `len` too.
/// The outcome at stake: `main got Some(2) Some(1)`.
#[test]
fn a_len_after_the_filling_send_hides_the_kept_sends_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let fin = go.chan::<()>("fin", 0);
        for (name, v) in [("a", 1u8), ("b", 2u8)] {
            let (c, fin) = (c.clone(), fin.clone());
            go.go(name, move |go| {
                c.send(v);
                let n = c.len();
                go.note(format!("{name} sent {v}, len {n}"));
                fin.send(());
            });
        }
        fin.recv();
        let x = c.recv();
        fin.recv();
        let y = c.recv();
        go.note(format!("main got {x:?} {y:?}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main got Some(1) Some(2)"]));
    assert!(reaches(&l, &["main got Some(2) Some(1)"]));
}

/// A select kept back at two buffers (`c0` emptied by `a`'s receive, `c1` empty), let
/// go by `a`'s own send into `c1`, after `a`'s failed try of `c1`. Every step of the
/// stretch is `a`'s, after its receive: the kept target's front is the try; the
/// enabler rule walks back from the send to the try; the rule for the step that
/// disabled it finds no step between that is not ordered after the receive. Only the
/// first level reversed the select with `a`'s receive. Main sleeps, then closes `c0`
/// (virtual time), so that `a` ends either way. The outcome at stake: `b case Some(0) got
/// Some(1)` with `a got None`.
#[test]
fn a_try_and_a_send_after_the_emptying_receive_hide_a_kept_selects_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 1);
        let c1 = go.chan::<u8>("c1", 1);
        c0.send(1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("a", move |go| {
            let v = a0.recv();
            let t = a1.try_recv();
            a1.send(2);
            go.note(format!("a got {v:?} try {t:?}"));
        });
        let (b0, b1) = (c0.clone(), c1.clone());
        go.go("b", move |go| {
            let mut f = go.select().recv(&b0).recv(&b1).wait();
            let i = f.index;
            go.note(format!("b case {i:?} got {:?}", f.take::<u8>()));
        });
        go.sleep(ms(1));
        c0.close();
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b case Some(1) got Some(2)"]
    ));
    assert!(reaches(
        &l,
        &["b case Some(0) got Some(1)", "a got None try Empty"]
    ));
}

/// The hiding step is a third goroutine's, ordered after the emptying receive only
/// through a hand-off: `a` receives from `c`, then signals `t` on the unbuffered
/// `sig`; `t` then tries `c`. `b` is kept back at `c` from `a`'s receive to the end
/// of its stretch; `t`'s try happens after `a`'s receive (never reversible with it:
/// the hand-off's halves are not reversed) and hides it from `b`'s front. Main sleeps,
/// then closes `c` (virtual time). The outcome at stake: `b got Some(1)`.
#[test]
fn a_signalled_try_after_the_emptying_receive_hides_the_kept_receives_race() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let sig = go.chan::<()>("sig", 0);
        c.send(1);
        let (a, s) = (c.clone(), sig.clone());
        go.go("a", move |go| {
            let v = a.recv();
            go.note(format!("a got {v:?}"));
            s.send(());
        });
        let b = c.clone();
        go.go("b", move |go| go.note(format!("b got {:?}", b.recv())));
        let (t, s) = (c.clone(), sig.clone());
        go.go("t", move |go| {
            s.recv();
            go.note(format!("t try {:?}", t.try_recv()));
        });
        go.sleep(ms(1));
        c.close();
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(&l, &["a got Some(1)", "b got None", "t try Empty"]));
    assert!(reaches(
        &l,
        &["b got Some(1)", "a got None", "t try Closed"]
    ));
}

/// A goroutine that sleeps after its receive and try (virtual time): once it sleeps,
/// every runnable goroutine is kept back and the other's attempt runs as a step (the
/// stretch ends before the clock's advance, which cannot fall inside it). That
/// attempt's front is the try; the enabler (the sleep) conflicts with nothing. Main
/// sleeps longer, then closes `c`. The outcome at stake: `b got Some(1)`.
#[test]
fn a_sleep_after_the_try_runs_the_kept_receives_attempt_behind_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        c.send(1);
        for name in ["a", "b"] {
            let c = c.clone();
            go.go(name, move |go| {
                let v = c.recv();
                let t = c.try_recv();
                go.sleep(ms(1));
                go.note(format!("{name} got {v:?} try {t:?}"));
            });
        }
        go.sleep(ms(5));
        c.close();
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b got None try Closed"]
    ));
    assert!(reaches(
        &l,
        &["b got Some(1) try Empty", "a got None try Closed"]
    ));
}

/// Control (expected to pass): the try is a third goroutine's and nothing but the
/// buffer orders it after `a`'s receive, so the two are a race; in its reversal `t`
/// takes the value, both receives are kept back, and `b`'s kept target then has `t`'s
/// try as its front, before which `b` can run. If this fails, the loss is not the
/// hiding alone.
#[test]
fn an_unordered_try_after_the_emptying_receive_is_reversed_with_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        c.send(1);
        for name in ["a", "b"] {
            let c = c.clone();
            go.go(name, move |go| {
                go.note(format!("{name} got {:?}", c.recv()))
            });
        }
        let t = c.clone();
        go.go("t", move |go| go.note(format!("t try {:?}", t.try_recv())));
        go.sleep(ms(1));
        c.close();
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(&l, &["b got Some(1)", "a got None", "t try Empty"]));
    assert!(reaches(&l, &["t try Value(1)", "a got None", "b got None"]));
}

/// A select kept back at a buffer beside a done channel (its attempt a write of
/// both): `a` empties the buffer, then tries it. The select's attempt runs as a step
/// once main sleeps (virtual time), and its front is the try; the close of `done`
/// completes it later. The outcome at stake: `b case Some(0) got Some(1)`.
#[test]
fn a_try_after_the_emptying_receive_hides_a_select_kept_beside_a_done_channel() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let done = go.done_chan::<()>("done");
        c.send(1);
        let a = c.clone();
        go.go("a", move |go| recv_then_try(&go, "a", &a));
        let (b, d) = (c.clone(), done.clone());
        go.go("b", move |go| {
            let mut f = go.select().recv(&b).recv(&d).wait();
            let i = f.index;
            go.note(format!("b case {i:?} got {:?}", first_value(&mut f)));
        });
        go.sleep(ms(1));
        done.close();
        c.close();
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b case Some(1) got None"]
    ));
    assert!(reaches(
        &l,
        &["b case Some(0) got Some(1)", "a got None try Closed"]
    ));
}

/// Go's cancellable send kept back at a full buffer: `a` fills the buffer, then reads
/// `len(c)`; `b`'s select (send into `c` or receive from `done`) is kept back from
/// `a`'s send until its attempt runs (main sleeping, virtual time). Its front is the
/// `len`; at the first level it was `a`'s send, before which `b`'s send finds room.
/// Main then receives, closes `done` and tries `c`. The outcome at stake: `main got Some(2)`.
#[test]
fn a_len_after_the_filling_send_hides_a_cancellable_send_kept_at_the_full_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let done = go.done_chan::<()>("done");
        let a = c.clone();
        go.go("a", move |go| {
            a.send(1);
            go.note(format!("a len {}", a.len()));
        });
        let (b, d) = (c.clone(), done.clone());
        go.go("b", move |go| {
            let f = go.select().send(&b, 2).recv(&d).wait();
            go.note(format!("b case {:?}", f.index));
        });
        go.sleep(ms(1));
        let x = c.recv();
        done.close();
        let y = c.try_recv();
        go.note(format!("main got {x:?} then {y:?}"));
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(
        &l,
        &["main got Some(1) then Value(2)", "b case Some(0)"]
    ));
    assert!(reaches(&l, &["main got Some(2)", "b case Some(0)"]));
}

/// A select kept back at a buffer and a `time.After` channel (any time: the tick is the
/// timer goroutine's step, at any point). The timer is made after `a` starts, so that
/// in the first execution `a` receives and tries before the tick lets `b` go. The tick
/// is a half whose place `b` takes (Release -> Acquire): the walk back from it stops
/// at `a`'s try (a write of `c`, which `b`'s select, a taker there, adds to), and the
/// kept target's front is the try. The outcome at stake: `b case Some(0) got Some(1)`.
#[test]
fn a_try_after_the_emptying_receive_hides_a_select_kept_beside_a_timer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let fin = go.chan::<()>("fin", 0);
        c.send(1);
        let a = c.clone();
        go.go("a", move |go| recv_then_try(&go, "a", &a));
        let timeout = go.after("timeout", ms(20));
        let (b, f1) = (c.clone(), fin.clone());
        go.go("b", move |go| {
            let mut f = go.select().recv(&b).recv(&timeout).wait();
            let i = f.index;
            go.note(format!("b case {i:?} got {:?}", first_value(&mut f)));
            f1.send(());
        });
        fin.recv();
        c.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b case Some(1) got None"]
    ));
    assert!(reaches(
        &l,
        &["b case Some(0) got Some(1)", "a got None try Closed"]
    ));
}

/// As `a_try_after_the_emptying_receive_hides_the_kept_receives_race`, the kept receive
/// let go by main's second send instead of a close: its receive takes that send's
/// slot (Release -> Acquire), and the walk back from the send stops at the try.
/// The outcome at stake: `b got Some(1)` with `a got Some(2)`.
#[test]
fn a_try_after_the_emptying_receive_hides_the_race_of_a_receive_a_send_lets_go() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c = go.chan::<u8>("c", 1);
        let fin = go.chan::<()>("fin", 0);
        c.send(1);
        for name in ["a", "b"] {
            let (c, fin) = (c.clone(), fin.clone());
            go.go(name, move |go| {
                recv_then_try(&go, name, &c);
                fin.send(());
            });
        }
        fin.recv();
        c.send(2);
        fin.recv();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b got Some(2) try Empty"]
    ));
    assert!(reaches(
        &l,
        &["b got Some(1) try Empty", "a got Some(2) try Empty"]
    ));
}

/// Control (expected to pass): as
/// `a_try_and_a_send_after_the_emptying_receive_hide_a_kept_selects_race`, but the
/// send that lets the select go is a third goroutine's, independent of `a`'s receive:
/// the rule for the step that disabled a select kept back at several objects reverses
/// that receive with the select, the send before it (it touches the select's other
/// channel and is not ordered after the receive), though the try hides the receive
/// from the kept target's front.
#[test]
fn a_select_let_go_by_an_independent_send_keeps_its_race_behind_a_try() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 1);
        let c1 = go.chan::<u8>("c1", 1);
        c0.send(1);
        let a = c0.clone();
        go.go("a", move |go| recv_then_try(&go, "a", &a));
        let (b0, b1) = (c0.clone(), c1.clone());
        go.go("b", move |go| {
            let mut f = go.select().recv(&b0).recv(&b1).wait();
            let i = f.index;
            go.note(format!("b case {i:?} got {:?}", f.take::<u8>()));
        });
        let e = c1.clone();
        go.go("e", move |_| e.send(2));
        go.sleep(ms(1));
        c0.close();
    });
    let (l, _) = same_as_loom_in(&virtual_bounds(), model);
    assert!(reaches(
        &l,
        &["a got Some(1) try Empty", "b case Some(1) got Some(2)"]
    ));
    assert!(reaches(
        &l,
        &["b case Some(0) got Some(1)", "a got None try Closed"]
    ));
}

// Three fan programs whose traces, as the trace check records them, dpor missed with
// the step kept back raced at its stretch's first level alone (the fan campaigns of
// seeds 20261214, 20261305 and 20261306; their outcomes and violations were loom's):
// raced at the last level too, the steps of the stretch are in the sequences its
// races insert, and each reaches every trace of the expanded search.

/// Channels `a` and `b` of capacity 1: main `<-b; <-a`; g1 `b <- 1`; g2 `a <- 2`, then
/// tries to send 3 on `a`; g3 `select { case a <- 4: case <-b: }`; g4 tries to send 5
/// on `a`. At the first level alone dpor missed 1 of its 34 traces (docs/dpor.md once
/// described the missed orders: both tries fail at the full `a`, g4's first, then the
/// select takes `b`'s value and main waits for ever; main, asleep with its receive from
/// `b`, covered the reversal).
#[test]
fn two_failed_tries_before_a_select_takes_mains_value_is_a_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let b1 = b.clone();
        go.go("g1", move |_| b1.send(1));
        let a2 = a.clone();
        go.go("g2", move |go| {
            a2.send(2);
            go.select().send(&a2, 3).default().wait();
        });
        let (a3, b3) = (a.clone(), b.clone());
        go.go("g3", move |go| {
            go.select().send(&a3, 4).recv(&b3).wait();
        });
        let a4 = a.clone();
        go.go("g4", move |go| {
            go.select().send(&a4, 5).default().wait();
        });
        b.recv();
        a.recv();
    });
    assert_eq!(every_trace(&bounds(), model), (47, 34));
}

/// Channel 0 of capacity 1, channel 1 a done channel: main `<-ch1`; g1 a select sending
/// and receiving at channel 0, then `close(ch1)`; g2 tries channel 1; g3 `<-ch1`; g4
/// `select { case ch0 <- v: case <-ch1: }`. 2 of 120 traces missed at the first level
/// alone.
#[test]
fn a_select_at_a_buffer_and_a_done_channel_beside_a_try_reaches_every_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let ch0 = go.chan::<u8>("ch0", 1);
        let ch1 = go.done_chan::<u8>("ch1");
        let (c0, c1) = (ch0.clone(), ch1.clone());
        go.go("g1", move |go| {
            go.select().send(&c0, 1).recv(&c0).wait();
            c1.close();
        });
        let c1 = ch1.clone();
        go.go("g2", move |go| {
            go.select().recv(&c1).default().wait();
        });
        let c1 = ch1.clone();
        go.go("g3", move |_| {
            c1.recv();
        });
        let (c0, c1) = (ch0.clone(), ch1.clone());
        go.go("g4", move |go| {
            go.select().send(&c0, 4).recv(&c1).wait();
        });
        ch1.recv();
    });
    assert_eq!(every_trace(&bounds(), model), (131, 120));
}

/// Both channels of capacity 1: main `<-ch1; <-ch0`; g1 `ch1 <- 1`, then tries to send
/// on channel 0; g2 `select { case ch0 <- 2: case <-ch1: }`; g3 tries to send on
/// channel 0; g4 `ch0 <- 4`. 2 of 66 traces missed at the first level alone.
#[test]
fn tries_at_a_full_buffer_beside_a_cancellable_send_reach_every_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let ch0 = go.chan::<u8>("ch0", 1);
        let ch1 = go.chan::<u8>("ch1", 1);
        let (c0, c1) = (ch0.clone(), ch1.clone());
        go.go("g1", move |go| {
            c1.send(1);
            go.select().send(&c0, 1).default().wait();
        });
        let (c0, c1) = (ch0.clone(), ch1.clone());
        go.go("g2", move |go| {
            go.select().send(&c0, 2).recv(&c1).wait();
        });
        let c0 = ch0.clone();
        go.go("g3", move |go| {
            go.select().send(&c0, 3).default().wait();
        });
        let c0 = ch0.clone();
        go.go("g4", move |_| c0.send(4));
        ch1.recv();
        ch0.recv();
    });
    assert_eq!(every_trace(&bounds(), model), (85, 66));
}

/// A wakeup sequence whose head is kept back where it runs ends there, and what was
/// inserted below that head is still to run from that level without it: each such
/// sequence is checked against the goroutines asleep there, as an insertion is. Here
/// main and g1 both close the done channel `c1` (the second close a fault that stops
/// the execution) while g2's select at `c1` and a `time.After` is kept back until one
/// of them closes it; each stopped execution's races insert, under g2's held select,
/// the other closer first, which sleeps there. Unchecked, the two came back in turn
/// for ever (past 1,000,000 executions where loom's census takes 2,569; found by the
/// `after` campaign of seed 20261808).
#[test]
fn a_held_head_brings_back_no_sequence_a_goroutine_asleep_covers() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = go.after("t", ms(20));
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.done_chan::<u8>("c1");
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |go| {
            a1.close();
            let f = go.select().send(&a0, 1).default().wait();
            go.note(format!("g1 case {:?}", f.index));
        });
        let (a0, a1, at) = (c0.clone(), c1.clone(), t.clone());
        go.go("g2", move |go| {
            a0.send(2);
            let f = go.select().recv(&a1).recv(&at).wait();
            go.note(format!("g2 case {:?}", f.index));
        });
        let f = go.select().recv(&c1).recv(&t).wait();
        go.note(format!("main case {:?}", f.index));
        go.note(format!("main got {:?}", c0.recv()));
        c1.close();
    });
    let b = bounds()
        .time(stalemate::TimeMode::Any)
        .max_executions(20_000);
    let (l, d) = same_as_loom_in(&b, model);
    assert!(l.violations.contains("fault:close-of-closed-channel"));
    assert_eq!(d.explored.executions, 125);
}
