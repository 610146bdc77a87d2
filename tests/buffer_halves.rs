//! Programs against the buffered hand-off (docs/dpor.md, its row): a select's wait to
//! receive at a buffered channel and a plain send into the empty buffer are a
//! hand-off's two halves, never reversed, as a timer's tick is, and `late::Put` races
//! them as plain steps where the sender goes on to meet the select. Each program is
//! compared with loom's census and asserts that loom reaches the outcome it is about.
//! Those whose doc says "lost before" lost that outcome on an earlier form of the
//! reduction: the programs of two reviews and of the fan campaigns that found losses.

use stalemate::Stop;
use stalemate::explore::{Engine, ModelFn, census};
use stalemate::go::{Chan, Go};
use std::sync::Arc;
use std::time::Duration;
mod common;
mod reference;
use common::unwaited;
use reference::*;

// The first review's programs.

/// Lost before: g1 `a <- 1; b <- 2` both before main's select, main choosing b. Exec 1:
/// main waits, g1's send on a takes its place (Put), g1's send on b goes on;
/// `Put::goes_on` inserts g1's send on a before main's wait; exec 2: main takes a's
/// placed value as a taker (Write a, Acquire place; b: Add + Read of b's send line),
/// then g1's plain send into b, which commutes with that taker: never reversed.
#[test]
fn a_taker_beside_a_second_buffer_meets_a_later_send_there() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let u = go.chan::<u8>("u", 0);
        let (a1, b1) = (a.clone(), b.clone());
        go.go("g1", move |_| {
            a1.send(1);
            b1.send(2);
        });
        let mut f = go.select().recv(&a).recv(&b).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1) got Some(2)"]));
}

/// Same flaw with no Put at all: main's select is ordered after g1's send on a (through
/// x), so it never waits; it takes a's placed value as a taker, and g1's later plain
/// send on b commutes with it. Lost before: main choosing b.
#[test]
fn a_taker_after_a_signal_meets_a_later_send_at_its_other_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let x = go.chan::<u8>("x", 1);
        let u = go.chan::<u8>("u", 0);
        let (a1, b1, x1) = (a.clone(), b.clone(), x.clone());
        go.go("g1", move |_| {
            a1.send(1);
            x1.send(0);
            b1.send(2);
        });
        x.recv();
        let mut f = go.select().recv(&a).recv(&b).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1) got Some(2)"]));
}

/// Same flaw through a third goroutine released by the sender: g1 `a <- 1; x <- 0`, g2
/// `<-x; b <- 2`. Lost before: main's select after both sends, choosing b.
#[test]
fn a_taker_meets_a_send_by_a_goroutine_the_sender_released() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let x = go.chan::<u8>("x", 1);
        let u = go.chan::<u8>("u", 0);
        let (a1, x1) = (a.clone(), x.clone());
        go.go("g1", move |_| {
            a1.send(1);
            x1.send(0);
        });
        let (b2, x2) = (b.clone(), x.clone());
        go.go("g2", move |_| {
            x2.recv();
            b2.send(2);
        });
        let mut f = go.select().recv(&a).recv(&b).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1) got Some(2)"]));
}

/// The first at capacity 2, with the select and the sender both goroutines (main idle):
/// g1 `<-x; select { <-a, <-b, <-u }`, g2 `a <- 1; x <- 0; b <- 2`. g1 (the lower id)
/// runs as soon as x holds a value, so its select comes before g2's send on b and takes
/// a's placed value as a taker; g2's send on b commutes with it. Lost before: g1
/// choosing b.
#[test]
fn a_taker_at_capacity_two_meets_a_later_send_at_its_other_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 2);
        let b = go.chan::<u8>("b", 2);
        let x = go.chan::<u8>("x", 1);
        let u = go.chan::<u8>("u", 0);
        let (a1, b1, x1, u1) = (a.clone(), b.clone(), x.clone(), u.clone());
        go.go("g1", move |go| {
            x1.recv();
            let mut f = go.select().recv(&a1).recv(&b1).recv(&u1).wait();
            let got = f.take::<u8>();
            go.note(format!("g1 case {:?} got {got:?}", f.index));
        });
        let (a2, b2, x2) = (a.clone(), b.clone(), x.clone());
        go.go("g2", move |_| {
            a2.send(1);
            x2.send(0);
            b2.send(2);
        });
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["g1 case Some(1) got Some(2)"]));
}

/// Lost before: q's `len(o)` = 1 (q's send and len before main's select). Exec 1: main
/// waits, q's send takes its place, q's len reads 0; the len touches only o, is q's own
/// step after the Put, and main's wait is before the Put: no race, no Put.
#[test]
fn a_senders_len_after_a_put_may_see_its_value() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q len {}", q.len()));
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["q len 1"]));
}

/// Lost before: q's try takes its own value back before main's select comes (then q
/// hands main a value on u, so nobody leaks). Same reason as
/// `a_senders_len_after_a_put_may_see_its_value`.
#[test]
fn a_senders_try_after_a_put_may_take_its_value_back() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            let back = q.try_recv();
            go.note(format!("q try {back:?}"));
            if back != stalemate::go::TryRecv::Empty {
                qu.send(2);
            }
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["q try Value(1)", "main case Some(1) got Some(2)"]
    ));
}

/// A receive kept back at the empty buffer, standing before main's select in Go's line:
/// r `y <- 0; <-o` (so r is kept back at o before main's select waits: main first
/// receives from y), q `o <- 1; o <- 2`. Must reach: r gets 1, main gets 2. Exec 1:
/// main waits, q's first send takes its place (Put), q's second goes into the buffer, r
/// takes it. q's second send and r's receive touch only o (no `Put::goes_on`), r's
/// receive is ordered after main's wait through the Put, the walk back from q's second
/// send (slot Release -> Acquire) asks for r at the Put's level, where r is kept back,
/// and r's kept target stands at a level before main's wait. With the old declaration
/// (the send a Write) q's send raced with main's wait directly.
/// (`a_receive_kept_back_after_a_waiting_select_gets_the_first_value` is this without
/// y: there r's kept target comes after main's wait and reaches it.)
#[test]
fn a_receive_kept_back_before_a_waiting_select_gets_the_first_value() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let y = go.chan::<u8>("y", 1);
        let u = go.chan::<u8>("u", 0);
        let (r, ry) = (o.clone(), y.clone());
        go.go("r", move |go| {
            ry.send(0);
            go.note(format!("r got {:?}", r.recv()));
        });
        let q = o.clone();
        go.go("q", move |_| {
            q.send(1);
            q.send(2);
        });
        y.recv();
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(0) got Some(2)"]
    ));
}

/// As `a_receive_kept_back_before_a_waiting_select_gets_the_first_value` with a close
/// for q's second step: q `o <- 1; close(o)`. Must reach: r gets 1 and main's select
/// finds o closed (zero value). The close touches only o (no Put), r's receive after
/// the close commutes with it and with main's wait (`ClosedBy::Receive`, `closes_on`),
/// and its race with the Put asks for r where it is kept back.
#[test]
fn a_receive_kept_back_gets_the_value_before_the_senders_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let y = go.chan::<u8>("y", 1);
        let u = go.chan::<u8>("u", 0);
        let (r, ry) = (o.clone(), y.clone());
        go.go("r", move |go| {
            ry.send(0);
            go.note(format!("r got {:?}", r.recv()));
        });
        let q = o.clone();
        go.go("q", move |_| {
            q.send(1);
            q.close();
        });
        y.recv();
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(0) got None"]
    ));
}

/// A third goroutine released by the sender reads `len(o)`: q `o <- 1; x <- 0`, g3
/// `<-x; len(o)`. Lost before: len 1. g3's len happens after q's later step, but
/// touches only o, which `Put`'s `others` leaves out; its direct race with the Put is
/// hidden behind q's send on x (the Put happens before it).
#[test]
fn a_goroutine_the_sender_released_may_see_the_value_in_the_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let x = go.chan::<u8>("x", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qx) = (o.clone(), x.clone());
        go.go("q", move |_| {
            q.send(1);
            qx.send(0);
        });
        let (g, gx) = (o.clone(), x.clone());
        go.go("g3", move |go| {
            gx.recv();
            go.note(format!("g3 len {}", g.len()));
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["g3 len 1"]));
}

/// `a_receive_kept_back_before_a_waiting_select_gets_the_first_value` with the second
/// value from another goroutine released by the first sender, whose send may be kept
/// back at the full buffer: q1 `o <- 1; x <- 0`, q2 `<-x; o <- 2`. Must reach: r gets
/// 1, main gets 2.
#[test]
fn a_receive_kept_back_and_a_send_kept_back_beside_a_put() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let x = go.chan::<u8>("x", 1);
        let y = go.chan::<u8>("y", 1);
        let u = go.chan::<u8>("u", 0);
        let (r, ry) = (o.clone(), y.clone());
        go.go("r", move |go| {
            ry.send(0);
            go.note(format!("r got {:?}", r.recv()));
        });
        let (q1, x1) = (o.clone(), x.clone());
        go.go("q1", move |_| {
            q1.send(1);
            x1.send(0);
        });
        let (q2, x2) = (o.clone(), x.clone());
        go.go("q2", move |_| {
            x2.recv();
            q2.send(2);
        });
        y.recv();
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(0) got Some(2)"]
    ));
}

/// The select in a goroutine, main the sender of two values, a plain receive kept back
/// (`a_receive_kept_back_before_a_waiting_select_gets_the_first_value` turned round, no
/// `settle`): r may stand before s in Go's line.
#[test]
fn a_sender_main_beside_a_receive_kept_back_and_a_waiting_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let r = o.clone();
        go.go("r", move |go| go.note(format!("r got {:?}", r.recv())));
        let (s, su) = (o.clone(), u.clone());
        go.go("s", move |go| {
            let mut f = go.select().recv(&s).recv(&su).wait();
            let got = f.take::<u8>();
            go.note(format!("s case {:?} got {got:?}", f.index));
        });
        o.send(1);
        o.send(2);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(2)", "s case Some(0) got Some(1)"]
    ));
}

/// Two selects at one buffer, each with its own unbuffered channel, and a sender that
/// goes on to try both of those and close them: which select the send's value goes to,
/// and what the tries meet, in every order (`Put` picks the select whose place was
/// taken; the other may have come first as a taker of the placed value).
#[test]
fn two_selects_at_one_buffer_and_a_sender_that_goes_on() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let w = go.chan::<u8>("w", 0);
        let (o2, w2) = (o.clone(), w.clone());
        go.go("s2", move |go| {
            let mut f = go.select().recv(&o2).recv(&w2).wait();
            let got = f.take::<u8>();
            go.note(format!("s2 case {:?} got {got:?}", f.index));
        });
        let (q, qu, qw) = (o.clone(), u.clone(), w.clone());
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q u {}", qu.try_send(2)));
            go.note(format!("q w {}", qw.try_send(3)));
            qu.close();
            qw.close();
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    same_as_loom_in(&bounds(), model);
}

/// A select with a send case at a full buffer beside its receive at another: main
/// `select { <-o, d <- 5, <-u }` (d holds 0), q `o <- 1; <-d`. Main may send into d
/// only where q's receive came first: the Put rule (d is a Write of the wait) and the
/// taker's Write of d must order them.
#[test]
fn a_select_with_a_send_case_at_a_full_buffer_beside_a_put() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let d = go.chan::<u8>("d", 1);
        let u = go.chan::<u8>("u", 0);
        d.send(0);
        let (q, qd) = (o.clone(), d.clone());
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q got {:?}", qd.recv()));
        });
        let mut f = go.select().recv(&o).send(&d, 5).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1) got None"]));
}

/// Selects in a loop beside a sender of two values (the second kept back at the full
/// buffer) and a try-send at the unbuffered channel, which meets main only while it
/// waits.
#[test]
fn selects_in_a_loop_beside_a_sender_of_two_values_and_a_try() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| {
            q.send(1);
            q.send(2);
        });
        let t = u.clone();
        go.go("t", move |go| go.note(format!("t sent {}", t.try_send(3))));
        serve_twice(go, &o, &u);
    });
    same_as_loom_in(&bounds(), model);
}

/// A placed value taken by a try or by a second select while the first waits or comes
/// late, the sender going on to try main's unbuffered channel.
#[test]
fn a_placed_value_taken_by_a_try_or_a_second_select() {
    for second_select in [false, true] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let o = go.chan::<u8>("o", 1);
            let u = go.chan::<u8>("u", 0);
            let v = go.chan::<u8>("v", 0);
            let (g, gv) = (o.clone(), v.clone());
            go.go("g", move |go| {
                if second_select {
                    let mut f = go.select().recv(&g).recv(&gv).wait();
                    let got = f.take::<u8>();
                    go.note(format!("g case {:?} got {got:?}", f.index));
                } else {
                    go.note(format!("g try {:?}", g.try_recv()));
                }
            });
            let (q, qu, qv) = (o.clone(), u.clone(), v.clone());
            go.go("q", move |go| {
                q.send(1);
                go.note(format!("q u {}", qu.try_send(2)));
                go.note(format!("q v {}", qv.try_send(3)));
                qu.close();
                qv.close();
            });
            let mut f = go.select().recv(&o).recv(&u).wait();
            let got = f.take::<u8>();
            go.note(format!("main case {:?} got {got:?}", f.index));
        });
        same_as_loom_in(&bounds(), model);
    }
}

/// `a_select_with_a_case_at_a_buffer_races_in_its_takers_order` with g3's try-send made
/// a plain send (a placed value, so g1's select is a taker there, not a Write), and
/// with g2's too. Since the change a select's receive case at a buffer is a join, so
/// the "taker's order" race (`at_buffer`, which looks for a Write of the buffer in the
/// wait) no longer applies to it.
#[test]
fn the_takers_order_race_with_plain_sends_into_the_buffer() {
    for (g2_plain, g3_plain) in [(false, true), (true, true)] {
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
                if g2_plain {
                    b0.send(21);
                } else {
                    let f = go.select().send(&b0, 21).default().wait();
                    go.note(format!("case {:?}", f.index));
                }
            });
            let (d0, d1) = (c0.clone(), c1.clone());
            go.go("g3", move |go| {
                if g3_plain {
                    d0.send(30);
                } else {
                    let f = go.select().send(&d0, 30).default().wait();
                    go.note(format!("case {:?}", f.index));
                }
                let v = d1.recv();
                go.note(format!("got {v:?}"));
            });
            let v = c0.recv();
            go.note(format!("got {v:?}"));
        });
        let b = bounds().time(stalemate::TimeMode::Virtual);
        same_as_loom_in(&b, model);
    }
}

/// Cut trees: the Put rule's reversal goes to `observed` (Cover::Cut) and is not kept
/// in `found`, so it is not inserted again where a goroutine sleeps in a later
/// execution that shares the prefix; expanded levels above a cut take none. The
/// program of `sends_around_a_server` and the fan-in beside a sent quit, cut at 0..=8.
#[test]
fn the_put_rule_in_cut_trees() {
    for model in [
        sends_around_a_server(),
        fan_in_beside_a_buffer(2, Beside::Sent),
    ] {
        let l = run_in(&loom(), &bounds(), model.clone());
        let lo = unwaited(&l.outcomes);
        for split in 0..=8 {
            let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
            assert_eq!(l.violations, d.violations, "cut at {split}");
            assert_eq!(lo, unwaited(&d.outcomes), "cut at {split}");
        }
    }
}

/// The goal's shape with a quitter that goes on: main's selects over unbuffered worker
/// channels beside a capacity-1 quit; the quitter sends quit, then tries to send on
/// worker 0's channel (main's other channel: the Put rule's case) and closes quit.
/// Workers try-send so nobody leaks.
#[test]
fn a_quitter_that_goes_on_to_main_s_other_channel() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let quit = go.chan::<()>("quit", 1);
        let chans: Vec<Chan<u8>> = (0..2).map(|i| go.chan(&format!("ch{i}"), 0)).collect();
        for (i, c) in chans.iter().enumerate() {
            let c = c.clone();
            go.go(&format!("w{i}"), move |go| {
                go.note(format!("w{i} sent {}", c.try_send(i as u8)));
            });
        }
        let (q, c0) = (quit.clone(), chans[0].clone());
        go.go("quitter", move |go| {
            q.send(());
            go.note(format!("quitter sent {}", c0.try_send(9)));
        });
        let mut got = Vec::new();
        for c in &chans {
            let mut f = go.select().recv(c).recv(&quit).wait();
            match f.index {
                Some(0) => got.push(f.take::<u8>()),
                _ => break,
            }
        }
        go.note(format!("got {got:?}"));
    });
    same_as_loom_in(&bounds(), model);
}

/// `a_receive_kept_back_before_a_waiting_select_gets_the_first_value` without the
/// signal on y: r's first step comes after main's wait (main runs first), so r's kept
/// target (a Write of o) races with main's wait and its reversal (r kept back there,
/// then q's send into the buffer, main a taker) leads, through the slot walk back from
/// q's second send, to r taking 1.
#[test]
fn a_receive_kept_back_after_a_waiting_select_gets_the_first_value() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let r = o.clone();
        go.go("r", move |go| go.note(format!("r got {:?}", r.recv())));
        let q = o.clone();
        go.go("q", move |_| {
            q.send(1);
            q.send(2);
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(0) got Some(2)"]
    ));
}

/// The taker's order of a select's wait (`race.rs`, "A select's wait whose place a
/// later step took") is not raced where the taker is a send that took the wait at a
/// buffer: made for it, this search never ended (the fan campaign of seed 20261702).
/// Before the step it was raced with, such a send does not wait but fills the buffer
/// or is kept back there, and each of two executions inserted the other. c0 unbuffered, c1 of capacity 1; main
/// serves twice in a select over both; g1 tries to send on c1, then selects to send on
/// c0 or receive from c1; g2 and g3 send on c1. 65 executions, loom's outcomes.
#[test]
fn a_send_at_a_buffer_and_two_selects_serving_end() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |go| {
            let f = go.select().send(&a1, 11).default().wait();
            go.note(format!("g1 try {:?}", f.index));
            let mut f = go.select().send(&a0, 12).recv(&a1).wait();
            let got = first_value(&mut f);
            go.note(format!("g1 case {:?} got {got:?}", f.index));
        });
        for (name, v) in [("g2", 2), ("g3", 3)] {
            let c = c1.clone();
            go.go(name, move |_| c.send(v));
        }
        serve_twice(go, &c0, &c1);
    });
    let b = bounds()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(5_000);
    let (_, d) = same_as_loom_in(&b, model);
    assert_eq!(d.explored.executions, 65);
}

// The second review's programs: none lost an outcome on the form then; the first three
// led it to count a goroutine the sender starts in the send's step as the sender's.

/// A goroutine the sender starts right after its send (a `go` is no step: its start is
/// released by the send's own step) counts as the sender's for `late::Put`: q `o <- 1;
/// go g4 { p <- 0; len(o) }`, main (or a goroutine) `select { <-o, <-u }`. Loom's outcome
/// where g4's `len` sees 1.
#[test]
fn a_goroutine_started_in_the_sends_step_sees_the_value() {
    for main_selects in [true, false] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let o = go.chan::<u8>("o", 1);
            let u = go.chan::<u8>("u", 0);
            let p = go.chan::<u8>("p", 1);
            let select = |go: &Go, o: &Chan<u8>, u: &Chan<u8>, who: &str| {
                let mut f = go.select().recv(o).recv(u).wait();
                let got = f.take::<u8>();
                go.note(format!("{who} case {:?} got {got:?}", f.index));
            };
            if !main_selects {
                // The select in a goroutine started before the sender (a lower id: it
                // runs first), main only starts them.
                let (xo, xu) = (o.clone(), u.clone());
                go.go("x", move |go| select(&go, &xo, &xu, "x"));
            }
            let q = o.clone();
            go.go("q", move |go| {
                q.send(1);
                let g = q.clone();
                go.go("g4", move |go| {
                    p.send(0);
                    go.note(format!("g4 len {}", g.len()));
                });
            });
            if main_selects {
                select(go, &o, &u, "main");
            }
        });
        let (l, _) = same_as_loom_in(&bounds(), model);
        assert!(reaches(&l, &["g4 len 1"]), "main_selects {main_selects}");
    }
}

/// As above, g4 making a second case of main's select ready: main `select { <-o, d <- 5,
/// <-u }` with d full, q `o <- 1; go g4 { p <- 0; <-d }`. Loom's outcome where main takes
/// o's value after g4 emptied d.
#[test]
fn a_goroutine_started_in_the_sends_step_makes_a_second_case_ready() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let d = go.chan::<u8>("d", 1);
        let u = go.chan::<u8>("u", 0);
        let p = go.chan::<u8>("p", 1);
        d.send(0);
        let (q, qd) = (o.clone(), d.clone());
        go.go("q", move |go| {
            q.send(1);
            go.go("g4", move |go| {
                p.send(0);
                go.note(format!("g4 got {:?}", qd.recv()));
            });
        });
        let mut f = go.select().recv(&o).send(&d, 5).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["main case Some(1) got None", "g4 got Some(0)"]
    ));
}

/// As above, g4 trying to take the value back, the sender going on after the `go` with
/// a step that touches nothing of the select's; uncut and cut at 1, 2, 4.
#[test]
fn a_goroutine_started_in_the_sends_step_takes_the_value_back() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let p = go.chan::<u8>("p", 1);
        let r = go.chan::<u8>("r", 1);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            let g = q.clone();
            go.go("g4", move |go| {
                p.send(0);
                go.note(format!("g4 try {:?}", g.try_recv()));
                qu.close();
            });
            r.send(0);
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let l = run_in(&loom(), &bounds(), model.clone());
    assert!(reaches(
        &l,
        &["g4 try Value(1)", "main case Some(1) got None"]
    ));
    let lo = unwaited(&l.outcomes);
    for split in [0, 1, 2, 4] {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        assert_eq!(l.violations, d.violations, "cut at {split}");
        assert_eq!(lo, unwaited(&d.outcomes), "cut at {split}");
    }
}

/// Two selects waiting at one buffer, and the sender's `len` after its send: two `Put`
/// races in turn (the first hands the value to the second select); cut at 0..=6.
#[test]
fn two_selects_waiting_at_one_buffer_and_the_senders_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let v = go.chan::<u8>("v", 0);
        for (name, w) in [("x", u.clone()), ("y", v.clone())] {
            let xo = o.clone();
            go.go(name, move |go| {
                let mut f = go.select().recv(&xo).recv(&w).wait();
                let got = f.take::<u8>();
                go.note(format!("{name} case {:?} got {got:?}", f.index));
            });
        }
        let q = o.clone();
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q len {}", q.len()));
            u.close();
            v.close();
        });
    });
    let l = run_in(&loom(), &bounds(), model.clone());
    assert!(reaches(&l, &["q len 1"]));
    let lo = unwaited(&l.outcomes);
    for split in 0..=6 {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        assert_eq!(l.violations, d.violations, "cut at {split}");
        assert_eq!(lo, unwaited(&d.outcomes), "cut at {split}");
    }
}

/// Two selects each waiting at two buffers, and a sender of both that reads both
/// lengths: the outcome where each select takes the other's value, and the lengths 1 1.
#[test]
fn two_selects_each_at_two_buffers_and_a_sender_of_both() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let u = go.chan::<u8>("u", 0);
        let v = go.chan::<u8>("v", 0);
        for (name, w) in [("x", u.clone()), ("y", v.clone())] {
            let (xa, xb) = (a.clone(), b.clone());
            go.go(name, move |go| {
                let mut f = go.select().recv(&xa).recv(&xb).recv(&w).wait();
                let got = f.take::<u8>();
                go.note(format!("{name} case {:?} got {got:?}", f.index));
            });
        }
        let (qa, qb) = (a.clone(), b.clone());
        go.go("q", move |go| {
            qa.send(1);
            qb.send(2);
            go.note(format!("q lens {} {}", qa.len(), qb.len()));
            u.close();
            v.close();
        });
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["q lens 1 1"]));
    assert!(reaches(
        &l,
        &["x case Some(1) got Some(2)", "y case Some(0) got Some(1)"]
    ));
}

/// A goroutine the sender signals takes the value back and then meets the select at its
/// unbuffered channel.
#[test]
fn a_goroutine_the_sender_signals_empties_the_buffer_and_meets_the_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let s = go.chan::<u8>("s", 0);
        let (q, qs) = (o.clone(), s.clone());
        go.go("q", move |_| {
            q.send(1);
            qs.send(0);
        });
        let (g, gu) = (o.clone(), u.clone());
        go.go("g3", move |go| {
            s.recv();
            go.note(format!("g3 got {:?}", g.try_recv()));
            go.note(format!("g3 sent {}", gu.try_send(2)));
        });
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &[
            "g3 got Value(1)",
            "g3 sent true",
            "main case Some(1) got Some(2)"
        ]
    ));
}

/// Capacity 2, two senders and a receive: whether the second value is the buffer's only
/// one (`Chan::placed`) depends on the order of two steps that commute, so a select is
/// declared differently in two orders of one trace; loom's census uncut and cut at 0..=6.
#[test]
fn a_placed_value_whose_place_depends_on_commuting_steps() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 2);
        let u = go.chan::<u8>("u", 0);
        for (name, v) in [("q1", 1u8), ("q2", 2)] {
            let c = o.clone();
            go.go(name, move |_| c.send(v));
        }
        let r = o.clone();
        go.go("r", move |go| go.note(format!("r got {:?}", r.recv())));
        let t = u.clone();
        go.go("t", move |go| go.note(format!("t sent {}", t.try_send(9))));
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let l = run_in(&loom(), &bounds(), model.clone());
    let lo = unwaited(&l.outcomes);
    assert!(reaches(
        &l,
        &["t sent true", "main case Some(1) got Some(9)"]
    ));
    for split in 0..=6 {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        assert_eq!(l.violations, d.violations, "cut at {split}");
        assert_eq!(lo, unwaited(&d.outcomes), "cut at {split}");
    }
}

/// Selects in a loop, capacity 2, and a sender of two values that reads `len`: the first
/// `Put` race opens only once the second send is a plain one; the outcome with `len` 2.
#[test]
fn selects_in_a_loop_and_a_sender_of_two_values_that_reads_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 2);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            q.send(2);
            go.note(format!("q len {}", q.len()));
            qu.close();
        });
        serve_twice(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["q len 2"]));
}

/// The sender's receive after its send meets the select's send case: main `select {
/// <-o, u <- 5 }`, q `o <- 1; <-u`; the outcome where main takes o's value and q gets 5
/// from elsewhere is loom's.
#[test]
fn the_senders_receive_meets_the_selects_send_case() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q got {:?}", qu.recv()));
        });
        let mut f = go.select().recv(&o).send(&u, 5).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["main case Some(1) got None", "q got Some(5)"]
    ));
}

/// Two receives kept back at the empty buffer, both before a waiting select in Go's
/// line: r1 gets 1, r2 gets 2, main gets 3.
#[test]
fn two_receives_kept_back_before_a_waiting_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let y = go.chan::<u8>("y", 2);
        let u = go.chan::<u8>("u", 0);
        for name in ["r1", "r2"] {
            let (r, ry) = (o.clone(), y.clone());
            go.go(name, move |go| {
                ry.send(0);
                go.note(format!("{name} got {:?}", r.recv()));
            });
        }
        let q = o.clone();
        go.go("q", move |_| {
            for v in 1..=3u8 {
                q.send(v);
            }
        });
        y.recv();
        y.recv();
        let mut f = go.select().recv(&o).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &[
            "r1 got Some(1)",
            "r2 got Some(2)",
            "main case Some(0) got Some(3)"
        ]
    ));
}

/// A select kept back beside a done channel, at buffered channels, takes a placed value
/// as a half once let go; a `len` by the sender before it.
#[test]
fn a_select_kept_back_at_a_done_channel_takes_a_placed_value() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let d = go.done_chan::<u8>("d");
        let (xo, xd) = (o.clone(), d.clone());
        go.go("x", move |go| {
            let mut f = go.select().recv(&xo).recv(&xd).wait();
            let got = f.take::<u8>();
            go.note(format!("x case {:?} got {got:?}", f.index));
            go.note(format!("x len {}", xo.len()));
        });
        let q = o.clone();
        go.go("q", move |_| {
            q.send(1);
            d.close();
        });
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["x case Some(1) got None", "x len 1"]));
}

/// Virtual time: a select kept back at buffered channels whose attempt waits, a select
/// waiting as a half at the same buffer, and plain sends from main that go on: loom's
/// census.
#[test]
fn a_send_meets_a_kept_back_select_that_waited_or_a_half_behind_it() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let u = go.chan::<u8>("u", 0);
        let (xa, xb) = (a.clone(), b.clone());
        go.go("x", move |go| {
            let mut f = go.select().recv(&xa).recv(&xb).wait();
            let got = f.take::<u8>();
            go.note(format!("x case {:?} got {got:?}", f.index));
        });
        let (ya, yu) = (a.clone(), u.clone());
        go.go("y", move |go| {
            let mut f = go.select().recv(&ya).recv(&yu).wait();
            let got = f.take::<u8>();
            go.note(format!("y case {:?} got {got:?}", f.index));
        });
        go.sleep(Duration::from_millis(1));
        a.send(1);
        go.note(format!("main len {}", a.len()));
        a.send(2);
        go.note(format!("main tried u {}", u.try_send(3)));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    same_as_loom_in(&b, model);
}

/// A placed value beside a timer's tick in one select: the sender's `len` sees 1 and
/// main then takes it, or main takes the tick while the buffer still holds it.
#[test]
fn a_placed_value_beside_a_tick() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let t = go.after("t", Duration::from_millis(20));
        let q = o.clone();
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q len {}", q.len()));
        });
        let mut f = go.select().recv(&o).recv(&t).recv(&u).wait();
        let got = if f.index == Some(0) {
            f.take::<u8>()
        } else {
            None
        };
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["q len 1", "main case Some(0) got Some(1)"]));
    assert!(reaches(&l, &["q len 1", "main case Some(1)"]));
}

/// A select loop and a second select at one buffer, against a sender that tries a send
/// between its sends: the search ends (capped at 20,000) and reaches loom's census.
#[test]
fn puts_in_loops_end() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let v = go.chan::<u8>("v", 0);
        let (yo, yv) = (o.clone(), v.clone());
        go.go("y", move |go| {
            let mut f = go.select().recv(&yo).recv(&yv).wait();
            let got = f.take::<u8>();
            go.note(format!("y case {:?} got {got:?}", f.index));
        });
        let (q, qu, qv) = (o.clone(), u.clone(), v.clone());
        go.go("q", move |go| {
            let mut tried = Vec::new();
            for k in 1..=2u8 {
                q.send(k);
                tried.push(qu.try_send(10 + k));
            }
            go.note(format!("q tried {tried:?}"));
            qu.close();
            qv.close();
        });
        serve_twice(go, &o, &u);
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

/// `the_takers_order_is_not_raced_for_a_send_at_a_buffer` with g1's try made a plain
/// send: the search ends (capped at 5,000) and reaches loom's outcomes.
#[test]
fn a_put_race_with_a_plain_send_before_the_select_ends() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 0);
        let c1 = go.chan::<u8>("c1", 1);
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |go| {
            a1.send(11);
            let mut f = go.select().send(&a0, 12).recv(&a1).wait();
            let got = first_value(&mut f);
            go.note(format!("g1 case {:?} got {got:?}", f.index));
            go.note(format!("g1 len {}", a1.len()));
        });
        let c = c1.clone();
        go.go("g2", move |_| c.send(2));
        serve_twice(go, &c0, &c1);
    });
    let b = bounds()
        .time(stalemate::TimeMode::Virtual)
        .max_executions(5_000);
    let (_, d) = same_as_loom_in(&b, model);
    assert!(d.explored.executions < 5_000);
}

/// The fan campaign of seed 20261703 (its program about 1,663) lost an outcome: c0 of
/// capacity 1, c1 unbuffered; main serves twice in a select over both; g1 sends on c0;
/// g2 sends on c0, then on c1; g3 tries to receive from c0, then sends on c1. Lost:
/// g3's try takes g1's value, g2's stays in the buffer, and both of main's selects
/// choose c1 over it (lost before: `Put` left out a step of the sender's that came
/// after the select's next step, here g2's send on c1 that takes main's second wait,
/// which in the other order would wait at c1 before main's first select came).
#[test]
fn both_selects_choose_the_unbuffered_case_over_a_buffer_left_full() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 1);
        let c1 = go.chan::<u8>("c1", 0);
        let a0 = c0.clone();
        go.go("g1", move |_| a0.send(10));
        let (b0, b1) = (c0.clone(), c1.clone());
        go.go("g2", move |_| {
            b0.send(20);
            b1.send(21);
        });
        let (d0, d1) = (c0.clone(), c1.clone());
        go.go("g3", move |go| {
            let mut f = go.select().recv(&d0).default().wait();
            let i = f.index;
            go.note(format!("g3 case {i:?} got {:?}", f.take::<u8>()));
            d1.send(31);
        });
        serve_twice(go, &c0, &c1);
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, _) = same_as_loom_in(&b, model);
    assert!(reaches(
        &l,
        &[
            "g3 case Some(0) got Some(10)",
            "got Some(21)",
            "got Some(31)"
        ]
    ));
}

// A third review's twenty programs: nine lost an outcome where `Put` followed the
// sender by the race analysis's order, which lets a receive that finds a channel
// closed commute with the close; with `Put::follows` none does.

/// dpor cut at each of `splits` against loom's census (uncut included by the caller).
fn like_loom_cut(model: ModelFn, splits: &[u32]) {
    let l = run_in(&loom(), &bounds(), model.clone());
    let lo = unwaited(&l.outcomes);
    for &split in splits {
        let d = run_in(&Engine::Dpor, &bounds().split(split), model.clone());
        assert_eq!(l.violations, d.violations, "cut at {split}");
        let dp = unwaited(&d.outcomes);
        for o in lo.difference(&dp) {
            eprintln!("LOST (cut at {split}):\n{o}");
        }
        assert_eq!(lo, dp, "cut at {split}");
    }
}

/// main's `select { <-o, <-u }` (o of capacity 1, u unbuffered), noted.
fn main_select(go: &Go, o: &Chan<u8>, u: &Chan<u8>) -> Option<usize> {
    let mut f = go.select().recv(o).recv(u).wait();
    let got = f.take::<u8>();
    go.note(format!("main case {:?} got {got:?}", f.index));
    f.index
}

// Put's chain broken by a close that commutes with the receive it lets go.

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "y len 1": q `o <- 1;
/// close(done)` (cap 1), y `<-done; len(o)`; y's receive (kept back, then
/// `ClosedBy::Receive`) commutes with the close, so `Put::goes_on(y's len)` is false;
/// its race with the send asks for y where it is kept.
#[test]
fn a_receive_of_the_senders_close_sees_the_value() {
    let (l, _) = same_as_loom_in(&bounds(), close_then_len(1));
    assert!(reaches(&l, &["y len 1"]));
}

/// q `o <- 1; close(done)` (`done` of capacity `cap`), y `<-done; len(o)`, main
/// `select { <-o, <-u }`.
fn close_then_len(cap: usize) -> ModelFn {
    Arc::new(move |go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", cap);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (y, yd) = (o.clone(), done.clone());
        go.go("y", move |go| {
            let _ = yd.recv();
            go.note(format!("y len {}", y.len()));
        });
        main_select(go, &o, &u);
    })
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): as the first of these, y takes
/// the value back with a try and closes u, so main's select takes u's case: "y try
/// Value(1)" with "main case Some(1) got None".
#[test]
fn a_receive_of_the_senders_close_takes_the_value() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 1);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (y, yd, yu) = (o.clone(), done.clone(), u.clone());
        go.go("y", move |go| {
            let _ = yd.recv();
            let t = y.try_recv();
            go.note(format!("y try {t:?}"));
            yu.close();
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["y try Value(1)", "main case Some(1) got None"]
    ));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "y len 1": the first of these
/// with done unbuffered (q started first, so y's receive comes after the close in the
/// first execution and commutes with it).
#[test]
fn a_receive_of_the_senders_unbuffered_close_sees_the_value() {
    let (l, _) = same_as_loom_in(&bounds(), close_then_len(0));
    assert!(reaches(&l, &["y len 1"]));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "main case Some(1) got
/// Some(5)": after the close chain y sends on u, making main's unbuffered case ready
/// beside o's value (main drains u otherwise).
#[test]
fn the_close_chain_makes_the_unbuffered_case_ready() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 1);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (yd, yu) = (done.clone(), u.clone());
        go.go("y", move |_| {
            let _ = yd.recv();
            yu.send(5);
        });
        if main_select(go, &o, &u) == Some(0) {
            go.note(format!("main then got {:?}", u.recv()));
        }
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1) got Some(5)"]));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "main case Some(1) got
/// Some(5)": after the close chain y sends into c2 (capacity 1), a second buffered case
/// of main's select.
#[test]
fn the_close_chain_makes_a_second_buffer_ready() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let c2 = go.chan::<u8>("c2", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 1);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (yd, yc) = (done.clone(), c2.clone());
        go.go("y", move |_| {
            let _ = yd.recv();
            yc.send(5);
        });
        let mut f = go.select().recv(&o).recv(&c2).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1) got Some(5)"]));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "w len 1": the close chain two
/// hops on, y `<-done; x <- 0` (x of capacity 1), w `<-x; len(o)`.
#[test]
fn the_close_chain_two_hops_on() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 1);
        let x = go.chan::<u8>("x", 1);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (yd, yx) = (done.clone(), x.clone());
        go.go("y", move |_| {
            let _ = yd.recv();
            yx.send(0);
        });
        let (w, wx) = (o.clone(), x.clone());
        go.go("w", move |go| {
            let _ = wx.recv();
            go.note(format!("w len {}", w.len()));
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["w len 1"]));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "y len 1": the first of these
/// in virtual time, main, q and y all sleeping 1ms first (one advance wakes them; y
/// then kept back at done while the others run, so its receive again comes after the
/// close and commutes with it).
#[test]
fn the_close_chain_in_virtual_time() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 1);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |go| {
            go.sleep(Duration::from_millis(1));
            q.send(1);
            qd.close();
        });
        let (y, yd) = (o.clone(), done.clone());
        go.go("y", move |go| {
            go.sleep(Duration::from_millis(1));
            let _ = yd.recv();
            go.note(format!("y len {}", y.len()));
        });
        go.sleep(Duration::from_millis(1));
        main_select(go, &o, &u);
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, _) = same_as_loom_in(&b, model);
    assert!(reaches(&l, &["y len 1"]));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "y len 1" with "main case
/// Some(0) got Some(1)": the close chain beside a `time.After` case in main's select
/// (the tick may take the select's wait first).
#[test]
fn the_close_chain_beside_a_time_after() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = go.after("timeout", Duration::from_millis(20));
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 1);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (y, yd) = (o.clone(), done.clone());
        go.go("y", move |go| {
            let _ = yd.recv();
            go.note(format!("y len {}", y.len()));
        });
        let mut f = go.select().recv(&o).recv(&t).recv(&u).wait();
        let got = first_value(&mut f);
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["y len 1", "main case Some(0) got Some(1)"]));
}

// A receive (or select) kept back ahead of a waiting select, the sender with no later
// step: the kept target's reversal ends at the kept step, and a step at the select's
// other channel (lower id than the sender) wakes main before the sender's send.

/// A review suspected a loss here, none found: "r got Some(1)" with "main case Some(1)
/// got None": r `<-o; close(u)` kept back, t `try_recv(u)`, q `o <- 1` (started r, t,
/// q); main sends 0 to r if it took o.
#[test]
fn a_receive_kept_ahead_of_a_select_beside_a_try_at_its_other_channel() {
    let t = |go: &Go, _: &Chan<u8>, u: &Chan<u8>| go.note(format!("t try {:?}", u.try_recv()));
    let (l, _) = same_as_loom_in(&bounds(), kept_ahead(t));
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(1) got None"]
    ));
}

/// r `<-o; close(u)` kept back, t's step `t` (given o and u), q `o <- 1` (started r, t,
/// q); main `select { <-o, <-u }`, then sends 0 to r if it took o.
fn kept_ahead(t: fn(&Go, &Chan<u8>, &Chan<u8>)) -> ModelFn {
    Arc::new(move |go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (r, ru) = (o.clone(), u.clone());
        go.go("r", move |go| {
            go.note(format!("r got {:?}", r.recv()));
            ru.close();
        });
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| t(&go, &to, &tu));
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        if main_select(go, &o, &u) == Some(0) {
            o.send(0);
        }
    })
}

/// As `a_receive_kept_ahead_of_a_select_beside_a_try_at_its_other_channel`, the step at
/// u the sender's own before its send: q `try_recv(u); o <- 1` (started r, q).
#[test]
fn a_receive_kept_ahead_of_a_select_the_sender_tried_its_other_channel() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (r, ru) = (o.clone(), u.clone());
        go.go("r", move |go| {
            go.note(format!("r got {:?}", r.recv()));
            ru.close();
        });
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            go.note(format!("q try {:?}", qu.try_recv()));
            q.send(1);
        });
        if main_select(go, &o, &u) == Some(0) {
            o.send(0);
        }
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(1) got None"]
    ));
}

/// As `a_receive_kept_ahead_of_a_select_beside_a_try_at_its_other_channel` with r a
/// select kept back at two buffers (`select { <-o, <-o2 }`, o2 never sent on): "r case
/// Some(0) got Some(1)", "main case Some(1) got None".
#[test]
fn a_select_kept_ahead_of_a_waiting_select_beside_a_try() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let o2 = go.chan::<u8>("o2", 1);
        let u = go.chan::<u8>("u", 0);
        let (ro, ro2, ru) = (o.clone(), o2.clone(), u.clone());
        go.go("r", move |go| {
            let mut f = go.select().recv(&ro).recv(&ro2).wait();
            let got = f.take::<u8>();
            go.note(format!("r case {:?} got {got:?}", f.index));
            ru.close();
        });
        let tu = u.clone();
        go.go("t", move |go| go.note(format!("t try {:?}", tu.try_recv())));
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        if main_select(go, &o, &u) == Some(0) {
            o.send(0);
        }
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r case Some(0) got Some(1)", "main case Some(1) got None"]
    ));
}

// Contrasts and coverage.

/// Against the kept receive's programs above: t's step is `len(o)`, which the send's
/// walk back and `wait_taken` meet, so the send comes before main's wait.
#[test]
fn a_receive_kept_ahead_of_a_select_beside_a_len() {
    let t = |go: &Go, o: &Chan<u8>, _: &Chan<u8>| go.note(format!("t len {}", o.len()));
    let (l, _) = same_as_loom_in(&bounds(), kept_ahead(t));
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(1) got None"]
    ));
}

/// Against the close chain: the chain through a WaitGroup (q's Done, y's Wait kept back
/// until it: Add -> Acquire is in `pred`); uncut and cut at 0..=4.
#[test]
fn the_chain_through_a_waitgroup() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let wg = go.waitgroup("wg");
        wg.add(1);
        let (q, qw) = (o.clone(), wg.clone());
        go.go("q", move |_| {
            q.send(1);
            qw.done();
        });
        let (y, yw) = (o.clone(), wg.clone());
        go.go("y", move |go| {
            yw.wait();
            go.note(format!("y len {}", y.len()));
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model.clone());
    assert!(reaches(&l, &["y len 1"]));
    like_loom_cut(model, &[0, 1, 2, 3, 4]);
}

/// Against the close chain: y's receive of the closed channel is a select (`select {
/// <-done, <-w }`, late or woken: a Read of done, ordered after the close).
#[test]
fn the_chain_through_a_late_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let done = go.chan::<u8>("done", 0);
        let w = go.chan::<u8>("w", 0);
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (y, yd) = (o.clone(), done.clone());
        go.go("y", move |go| {
            let f = go.select().recv(&yd).recv(&w).wait();
            go.note(format!("y case {:?} len {}", f.index, y.len()));
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["len 1"]));
}

/// The chain through an unbuffered hand-off (q `o <- 1; x <- 0`, y `<-x; len(o)`),
/// whichever side waits.
#[test]
fn the_chain_through_an_unbuffered_hand_off() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let x = go.chan::<u8>("x", 0);
        let (q, qx) = (o.clone(), x.clone());
        go.go("q", move |_| {
            q.send(1);
            qx.send(0);
        });
        let (y, yx) = (o.clone(), x.clone());
        go.go("y", move |go| {
            let _ = yx.recv();
            go.note(format!("y len {}", y.len()));
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["y len 1"]));
}

/// A violation: the sender closes the channel of main's send case after its send; only
/// with the send first can main choose that case and panic.
#[test]
fn the_sender_closes_the_selects_send_case_channel() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let c = go.chan::<u8>("c", 0);
        let (q, qc) = (o.clone(), c.clone());
        go.go("q", move |_| {
            q.send(1);
            qc.close();
        });
        let mut f = go.select().recv(&o).send(&c, 5).wait();
        let got = first_value(&mut f);
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(
        !l.violations.is_empty(),
        "loom finds the send on a closed channel"
    );
}

/// A goroutine the sender starts in a later step (after a note), not the send's, reads
/// `len(o)`: "g len 1".
#[test]
fn a_goroutine_started_in_a_later_step_of_the_sender() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |go| {
            q.send(1);
            go.note("q sent");
            let g = q.clone();
            go.go("g", move |go| go.note(format!("g len {}", g.len())));
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["g len 1"]));
}

/// A `time.NewTimer` in main's select that the sender stops after its send (`Stop`
/// writes the timer's channel, one of the select's: a `Put` race).
#[test]
fn a_timer_the_sender_stops_beside_a_put() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let tm = Arc::new(go.timer("tm", Duration::from_millis(20)));
        let (tc, s) = (tm.c.clone(), tm.clone());
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |go| {
            q.send(1);
            go.note(format!("q stopped {}", s.stop()));
        });
        let mut f = go.select().recv(&o).recv(&tc).recv(&u).wait();
        let got = first_value(&mut f);
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["q stopped true", "main case Some(0) got Some(1)"]
    ));
}

/// A third goroutine's try-send at main's other channel, then `len(o)`: "t sent false",
/// "t len 1", main takes o (the send first, t between).
#[test]
fn a_third_goroutines_try_send_then_len_beside_a_put() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| {
            go.note(format!("t sent {}", tu.try_send(9)));
            go.note(format!("t len {}", to.len()));
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["t sent false", "t len 1", "main case Some(0) got Some(1)"]
    ));
}

/// Lost before (`Put` followed the sender by the race analysis's order, where a receive
/// that finds a channel closed commutes with the close): "y len 1": the close chain
/// with two selects waiting at o (main's beside u, g's beside v); y closes u and v
/// after its `len` so neither waits for ever.
#[test]
fn the_close_chain_beside_two_selects_at_one_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let v = go.chan::<u8>("v", 0);
        let done = go.chan::<u8>("done", 1);
        let (gon, gv) = (o.clone(), v.clone());
        go.go("g", move |go| {
            let mut f = go.select().recv(&gon).recv(&gv).wait();
            let got = f.take::<u8>();
            go.note(format!("g case {:?} got {got:?}", f.index));
        });
        let (q, qd) = (o.clone(), done.clone());
        go.go("q", move |_| {
            q.send(1);
            qd.close();
        });
        let (y, yd, yu, yv) = (o.clone(), done.clone(), u.clone(), v.clone());
        go.go("y", move |go| {
            let _ = yd.recv();
            go.note(format!("y len {}", y.len()));
            yu.close();
            yv.close();
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["y len 1"]));
}

// A fourth review's twenty programs, on `Put::follows`: observers that are not the
// sender's (a third goroutine's try, `len` or close at the buffer), senders with no
// later step, a taker pending at the end, cut trees and virtual time. None lost an
// outcome.

// Models shared by an uncut probe and the cut probe.

/// q `o <- 1` (no later step); t `try_recv(o); close(u)`; main `select { <-o, <-u }`.
fn silent_sender_try_then_close() -> ModelFn {
    Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| {
            go.note(format!("t try {:?}", to.try_recv()));
            tu.close();
        });
        main_select(go, &o, &u);
    })
}

/// q `o <- 1; v := <-o; if v == 1 { u <- 7 }`; main `select { <-o, <-u }`, then `o <-
/// 0` if it took o.
fn sender_takes_its_value_back() -> ModelFn {
    Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            let v = q.recv();
            go.note(format!("q got {v:?}"));
            if v == Some(1) {
                qu.send(7);
            }
        });
        if main_select(go, &o, &u) == Some(0) {
            o.send(0);
        }
    })
}

/// q `o <- 1; go g { <-o; u <- 7 }` (g started in the send's step); main `select { <-o,
/// <-u }`. Where main takes o, g stays kept back at o to the end (a leak).
fn started_in_the_send_step_takes_it_back() -> ModelFn {
    Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            go.go("g", move |go| {
                let v = q.recv();
                go.note(format!("g got {v:?}"));
                qu.send(7);
            });
        });
        main_select(go, &o, &u);
    })
}

/// : a silent sender, a third goroutine's try after the Put (not causally after the
/// sender); P–try race puts the try between W and P, then `wait_taken` inserts P before
/// W, then the taker–try race.
#[test]
fn silent_sender_a_third_try_takes_the_value_then_closes_u() {
    let (l, _) = same_as_loom_in(&bounds(), silent_sender_try_then_close());
    assert!(reaches(
        &l,
        &["t try Value(1)", "main case Some(1) got None"]
    ));
}

/// : t's select with a default at both of main's channels (take o, send on u): between
/// W and P it completes main at u (P is then no taker, no `wait_taken`); reached
/// through the W–try race and then P's walk back from W.
#[test]
fn silent_sender_a_try_select_at_both_channels_of_the_waiting_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| {
            let mut f = go.select().recv(&to).send(&tu, 9).default().wait();
            let got = first_value(&mut f);
            go.note(format!("t case {:?} got {got:?}", f.index));
            if f.index == Some(0) {
                tu.close();
            }
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["t case Some(0) got Some(1)", "main case Some(1) got None"]
    ));
}

/// The sender's own receive after its send takes its value back (only
/// with P before W): Put from q's receive, then the kept target's race with the taker
/// that disabled it.
#[test]
fn the_sender_takes_its_value_back_and_hands_another() {
    let (l, _) = same_as_loom_in(&bounds(), sender_takes_its_value_back());
    assert!(reaches(
        &l,
        &["q got Some(1)", "main case Some(1) got Some(7)"]
    ));
}

/// `Put` found from a step pending at the end: the only trigger of Put in the first
/// execution is g's receive pending (kept) at the end.
#[test]
fn a_goroutine_started_in_the_send_step_takes_the_value_back_pending() {
    let (l, _) = same_as_loom_in(&bounds(), started_in_the_send_step_takes_it_back());
    assert!(reaches(
        &l,
        &["g got Some(1)", "main case Some(1) got Some(7)"]
    ));
}

/// As `a_goroutine_started_in_the_send_step_takes_the_value_back_pending`, g started in a later step of the sender's (after a note): the pending
/// trigger is marked only through the note's `Release` of g's start in `foot`.
#[test]
fn a_goroutine_started_in_a_later_step_takes_the_value_back_pending() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            q.send(1);
            go.note("q sent");
            go.go("g", move |go| {
                let v = q.recv();
                go.note(format!("g got {v:?}"));
                qu.send(7);
            });
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["g got Some(1)", "main case Some(1) got Some(7)"]
    ));
}

/// `wait_taken` barred: the sender's own step before its send (`try_recv(u)`) happens
/// after W through u, so the third goroutine's `len` between W and P gets no reversal
/// until q's try is raced before W; a second-order path.
#[test]
fn the_senders_earlier_step_at_the_other_channel_bars_wait_taken() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let (q, qu) = (o.clone(), u.clone());
        go.go("q", move |go| {
            go.note(format!("q tried u {:?}", qu.try_recv()));
            q.send(1);
        });
        let to = o.clone();
        go.go("t", move |go| go.note(format!("t len {}", to.len())));
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["t len 1", "main case Some(0) got Some(1)"]));
}

/// A close of o by a third goroutine after its `len`: "t len 1" with main taking the
/// value from the closed, non-empty buffer (only with P before W); the close between W
/// and P commutes with W (it wakes it) and P panics.
#[test]
fn a_third_goroutines_len_then_close_of_o() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let to = o.clone();
        go.go("t", move |go| {
            go.note(format!("t len {}", to.len()));
            to.close();
        });
        main_select(go, &o, &u);
    });
    same_as_loom_in(&bounds(), model);
}

/// Two buffered receive cases and an unbuffered one: a silent sender into o, a third
/// goroutine's try-send into o2 then `len(o)`; main takes o with both ready (its select
/// then a `Write`, not a taker).
#[test]
fn two_buffered_cases_a_try_send_at_the_second_then_len_of_the_first() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let o2 = go.chan::<u8>("o2", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, to2) = (o.clone(), o2.clone());
        go.go("t", move |go| {
            go.note(format!("t sent {}", to2.try_send(2)));
            go.note(format!("t len {}", to.len()));
        });
        let mut f = go.select().recv(&o).recv(&o2).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["t sent true", "t len 1", "main case Some(0) got Some(1)"]
    ));
}

/// Two selects waiting at o (main beside u, y beside v), a silent sender, a third
/// goroutine's `len` then closes of u and v: "t len 1" with y taking the value.
#[test]
fn two_selects_at_o_a_silent_sender_and_a_third_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let v = go.chan::<u8>("v", 0);
        let (yo, yv) = (o.clone(), v.clone());
        go.go("y", move |go| {
            let mut f = go.select().recv(&yo).recv(&yv).wait();
            let got = f.take::<u8>();
            go.note(format!("y case {:?} got {got:?}", f.index));
        });
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, tu, tv) = (o.clone(), u.clone(), v.clone());
        go.go("t", move |go| {
            go.note(format!("t len {}", to.len()));
            tu.close();
            tv.close();
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["t len 1", "y case Some(0) got Some(1)"]));
}

/// A select waiting at o beside a plain receive kept back there, a sender of two values
/// (one goroutine), a third goroutine's `len`: each of the two gets either value with
/// "t len 1".
#[test]
fn a_select_beside_a_kept_receive_a_sender_of_two_and_a_third_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let r = o.clone();
        go.go("r", move |go| go.note(format!("r got {:?}", r.recv())));
        let q = o.clone();
        go.go("q", move |_| {
            q.send(1);
            q.send(2);
        });
        let to = o.clone();
        go.go("t", move |go| go.note(format!("t len {}", to.len())));
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["r got Some(1)", "main case Some(0) got Some(2)", "t len 1"]
    ));
    assert!(reaches(
        &l,
        &["r got Some(2)", "main case Some(0) got Some(1)", "t len 1"]
    ));
}

/// Main's selects in a loop, a silent sender, a third goroutine's try of o then a plain
/// send on u, a fourth's send on u. Census only; .
#[test]
fn main_loops_a_silent_sender_a_try_then_sends_on_u() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| {
            go.note(format!("t try {:?}", to.try_recv()));
            tu.send(9);
        });
        let wu = u.clone();
        go.go("w", move |_| wu.send(8));
        serve_twice(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["t try Value(1)"]));
}

/// The same goroutine sending twice into o (Put from its second send) against two
/// silent senders (no Put: `wait_taken` only), a third goroutine's try between: "t try
/// Value(1)" with main getting 2.
#[test]
fn one_sender_twice_or_two_silent_senders_and_a_third_try() {
    for two_senders in [false, true] {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let o = go.chan::<u8>("o", 1);
            let u = go.chan::<u8>("u", 0);
            if two_senders {
                for (name, v) in [("q1", 1u8), ("q2", 2)] {
                    let c = o.clone();
                    go.go(name, move |_| c.send(v));
                }
            } else {
                let q = o.clone();
                go.go("q", move |_| {
                    q.send(1);
                    q.send(2);
                });
            }
            let to = o.clone();
            go.go("t", move |go| go.note(format!("t try {:?}", to.try_recv())));
            main_select(go, &o, &u);
        });
        let (l, _) = same_as_loom_in(&bounds(), model);
        assert!(
            reaches(&l, &["t try Value(1)", "main case Some(0) got Some(2)"]),
            "two senders {two_senders}"
        );
    }
}

/// `follows` through a handed step: t's read lock waits while q holds the write lock
/// around its send, q's unlock wakes it (t's next step `Local`, ordered only by
/// `Wake`), then t's `len`.
#[test]
fn the_chain_through_a_read_lock_the_senders_unlock_hands() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let rw = go.rwmutex("rw");
        let (q, qrw) = (o.clone(), rw.clone());
        go.go("q", move |_| {
            qrw.lock();
            q.send(1);
            qrw.unlock();
        });
        let (to, trw) = (o.clone(), rw.clone());
        go.go("t", move |go| {
            trw.rlock();
            go.note(format!("t len {}", to.len()));
            trw.runlock();
        });
        main_select(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["t len 1", "main case Some(0) got Some(1)"]));
}

/// The select's send case at an unbuffered channel: main `select { <-o, s <- 5 }`, a
/// silent sender, t `len(o); <-s`: "t len 1" with t getting 5 (main chose s while o
/// held the value).
#[test]
fn a_send_case_met_by_a_third_goroutine_after_its_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let s = go.chan::<u8>("s", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, ts) = (o.clone(), s.clone());
        go.go("t", move |go| {
            go.note(format!("t len {}", to.len()));
            go.note(format!("t got {:?}", ts.recv()));
        });
        let mut f = go.select().recv(&o).send(&s, 5).wait();
        let got = first_value(&mut f);
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["t len 1", "t got Some(5)", "main case Some(1) got None"]
    ));
}

/// Cut trees 0..=6: the silent sender with a third try (`wait_taken` only), the sender
/// taking its value back, and the pending receive of a goroutine started in the send's
/// step (`observed`, never in `found`).
#[test]
fn cut_trees_beside_silent_senders_and_pending_takers() {
    for model in [
        silent_sender_try_then_close(),
        sender_takes_its_value_back(),
        started_in_the_send_step_takes_it_back(),
    ] {
        like_loom_cut(model, &[0, 1, 2, 3, 4, 5, 6]);
    }
}

/// Virtual time: `silent_sender_a_third_try_takes_the_value_then_closes_u` with main, q and t sleeping 1ms first (one advance wakes all
/// three).
#[test]
fn virtual_time_a_silent_sender_and_a_third_try() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |go| {
            go.sleep(ms(1));
            q.send(1);
        });
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| {
            go.sleep(ms(1));
            go.note(format!("t try {:?}", to.try_recv()));
            tu.close();
        });
        go.sleep(ms(1));
        main_select(go, &o, &u);
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, _) = same_as_loom_in(&b, model);
    assert!(reaches(
        &l,
        &["t try Value(1)", "main case Some(1) got None"]
    ));
}

/// Virtual time: main's select beside a `time.After(5ms)`; q and r sleep 5ms, then q
/// sends and r reads `len(o)`: the tick, the send and the `len` at one instant. Census
/// only; .
#[test]
fn virtual_time_a_send_and_a_len_at_the_after_deadline() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = go.after("timeout", ms(5));
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |go| {
            go.sleep(ms(5));
            q.send(1);
        });
        let ro = o.clone();
        go.go("r", move |go| {
            go.sleep(ms(5));
            go.note(format!("r len {}", ro.len()));
        });
        let mut f = go.select().recv(&o).recv(&t).recv(&u).wait();
        let got = first_value(&mut f);
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    same_as_loom_in(&b, model);
}

/// `go.after` in any time beside a silent sender (the tick's goroutine may take main's
/// wait instead of q): r's `len` 1 with main taking o.
#[test]
fn a_silent_sender_beside_a_time_after_and_a_third_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let t = go.after("timeout", ms(20));
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let ro = o.clone();
        go.go("r", move |go| go.note(format!("r len {}", ro.len())));
        let mut f = go.select().recv(&o).recv(&t).recv(&u).wait();
        let got = first_value(&mut f);
        go.note(format!("main case {:?} got {got:?}", f.index));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["r len 1", "main case Some(0) got Some(1)"]));
}

/// Virtual time, a clock advance between W and P: main waits at 0, q sleeps 1ms then
/// sends and reads `len`, t sleeps 1ms then tries o. The send cannot come before the
/// wait, so it is no `Put`: 3 executions, 4 with `Put` past the clock's advance (the
/// inserted send asleep in time, W's level expanded).
#[test]
fn virtual_time_a_clock_advance_between_the_wait_and_the_send() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |go| {
            go.sleep(ms(1));
            q.send(1);
            go.note(format!("q len {}", q.len()));
        });
        let to = o.clone();
        go.go("t", move |go| {
            go.sleep(ms(1));
            go.note(format!("t try {:?}", to.try_recv()));
        });
        main_select(go, &o, &u);
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (_, d) = same_as_loom_in(&b, model);
    assert_eq!(d.explored.executions, 3);
}

/// A third goroutine's `len(o)` then try-send at u (the reverse of
/// `a_third_goroutines_try_send_then_len_beside_a_put`), main serving twice: "t len 1"
/// and "t sent true" need P before main's first select, and main's second waiting at u.
#[test]
fn a_third_len_then_try_send_at_u_against_two_selects() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let o = go.chan::<u8>("o", 1);
        let u = go.chan::<u8>("u", 0);
        let q = o.clone();
        go.go("q", move |_| q.send(1));
        let (to, tu) = (o.clone(), u.clone());
        go.go("t", move |go| {
            go.note(format!("t len {}", to.len()));
            go.note(format!("t sent {}", tu.try_send(9)));
        });
        serve_twice(go, &o, &u);
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &[
            "t len 1",
            "t sent true",
            "served Some(0) got Some(1)",
            "served Some(1) got Some(9)"
        ]
    ));
}
