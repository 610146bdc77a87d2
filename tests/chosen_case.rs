//! Programs against a select's chosen case at a buffer (`Mode::Chosen`, docs/dpor.md):
//! a select with no default whose one ready case is a send into a buffer's free slot
//! or a receive of its oldest value, every other case at an open done channel, is
//! that buffered operation, and only looks at the done channels (a `Leave` of each,
//! which only a close conflicts with). Each program is compared with loom's census
//! (one, a campaign's, with DFS's and with the expanded search's traces) and asserts
//! that the reference reaches the outcome it is about.

use stalemate::explore::ModelFn;
use stalemate::go::{Chan, Go};
use std::sync::Arc;
mod common;
mod reference;
use reference::*;

/// Go's cancellable send: `select { case c <- v: case <-done: }`, noting the case.
fn send_or_cancel(go: &Go, name: &str, c: &Chan<u8>, v: u8, done: &Chan<()>) {
    let f = go.select().send(c, v).recv(done).wait();
    go.note(format!("{name} case {:?}", f.index));
}

/// n workers each sending into a capacity-1 channel of its own in a cancellable send,
/// main receiving in order in selects beside `done`, then closing it: one execution
/// for every n (each worker's select is its buffered send), and loom's outcome.
#[test]
fn a_fan_of_cancellable_sends_is_one_execution() {
    for n in 1..=3 {
        let model: ModelFn = Arc::new(move |go: &Go| {
            let done = go.done_chan::<()>("done");
            let cs: Vec<Chan<u8>> = (0..n).map(|i| go.chan(&format!("c{i}"), 1)).collect();
            for (i, c) in cs.iter().enumerate() {
                let (c, d) = (c.clone(), done.clone());
                go.go(&format!("w{i}"), move |go| {
                    send_or_cancel(&go, &format!("w{i}"), &c, i as u8, &d)
                });
            }
            for c in &cs {
                let mut f = go.select().recv(c).recv(&done).wait();
                go.note(format!("main got {:?}", first_value(&mut f)));
            }
            done.close();
        });
        let (l, d) = same_as_loom_in(&bounds(), model);
        assert_eq!(d.explored.executions, 1, "{n} workers");
        assert!(reaches(&l, &["w0 case Some(0)", "main got Some(0)"]));
    }
}

/// The close of `done` races the cancellable send: before it the worker sends; after
/// it both cases are ready and it may choose either. Only the close and the select's
/// look at `done` tell the two orders apart: nothing else touches c.
#[test]
fn a_cancellable_send_races_the_close_of_done() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let fin = go.chan::<()>("fin", 0);
        let (c1, d1, f1) = (c.clone(), done.clone(), fin.clone());
        go.go("w", move |go| {
            send_or_cancel(&go, "w", &c1, 1, &d1);
            f1.send(());
        });
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        fin.recv();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["w case Some(0)"]));
    assert!(reaches(&l, &["w case Some(1)"]));
}

/// At a full buffer the cancellable send is kept back until main's receive makes room
/// or a close readies `done`: main receives, then closes, then reads `len(c)`.
#[test]
fn a_cancellable_send_at_a_full_buffer_waits_for_room_or_the_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        c.send(0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        go.note(format!("main got {:?}", c.recv()));
        done.close();
        go.note(format!("main len {}", c.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["w case Some(0)", "main len 1"]));
    assert!(reaches(&l, &["w case Some(1)", "main len 0"]));
}

/// A select receives the value a cancellable send put in the buffer (no place left:
/// only a plain send's is), while g closes `done`: either side may take `done`.
#[test]
fn a_select_receives_what_a_cancellable_send_put() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        let mut f = go.select().recv(&c).recv(&done).wait();
        let i = f.index;
        go.note(format!("main case {i:?} got {:?}", first_value(&mut f)));
        go.note(format!("main len {}", c.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["w case Some(0)", "main case Some(0) got Some(1)"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(0)", "main case Some(1)", "main len 1"]
    ));
    assert!(reaches(&l, &["w case Some(1)", "main case Some(1)"]));
}

/// Main's select waits at c (buffered) and u (unbuffered) as a half; the cancellable
/// send may come before it (main then finds c ready, and u's sender maybe waiting) or
/// after (it finds main waiting and hands its value over): its receive line orders it
/// with main's wait.
#[test]
fn a_cancellable_send_beside_a_select_waiting_at_the_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let u = go.chan::<u8>("u", 0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let (u2, d2) = (u.clone(), done.clone());
        go.go("g", move |go| {
            let f = go.select().send(&u2, 2).recv(&d2).wait();
            go.note(format!("g case {:?}", f.index));
        });
        let mut f = go.select().recv(&c).recv(&u).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
        go.note(format!("main len {}", c.len()));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["main case Some(1) got Some(2)", "main len 1"]
    ));
    assert!(reaches(
        &l,
        &["main case Some(0) got Some(1)", "g case Some(1)"]
    ));
}

/// A third goroutine tries `done` (a select with a default) beside two cancellable
/// sends, and main closes `done` after the first value: each worker may be cancelled
/// or not, and the try may see it open or closed.
#[test]
fn cancellable_sends_beside_a_try_of_done() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let a = go.chan::<u8>("a", 1);
        let b = go.chan::<u8>("b", 1);
        let (a1, d1) = (a.clone(), done.clone());
        go.go("wa", move |go| send_or_cancel(&go, "wa", &a1, 1, &d1));
        let (b2, d2) = (b.clone(), done.clone());
        go.go("wb", move |go| send_or_cancel(&go, "wb", &b2, 2, &d2));
        let d3 = done.clone();
        go.go("t", move |go| {
            let f = go.select().recv(&d3).default().wait();
            go.note(format!("t case {:?}", f.index));
        });
        let mut f = go.select().recv(&a).recv(&b).wait();
        let got = f.take::<u8>();
        go.note(format!("main case {:?} got {got:?}", f.index));
        done.close();
        go.note(format!("main lens {} {}", a.len(), b.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["main case Some(0)", "wb case Some(1)", "t case None"]
    ));
    assert!(reaches(
        &l,
        &["main case Some(1)", "wa case Some(0)", "t case Some(0)"]
    ));
}

/// The receive side: main takes two values from a capacity-2 buffer in selects beside
/// `done` (a value not alone in the buffer has no place), while g closes `done`.
#[test]
fn a_select_receives_from_a_buffer_of_two_beside_a_close() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 2);
        let c1 = c.clone();
        go.go("s", move |_| {
            c1.send(1);
            c1.send(2);
        });
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        for _ in 0..2 {
            let mut f = go.select().recv(&c).recv(&done).wait();
            let i = f.index;
            go.note(format!("main case {i:?} got {:?}", first_value(&mut f)));
        }
        go.note(format!("main len {}", c.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["main case Some(0) got Some(2)", "main len 0"]
    ));
    assert!(reaches(&l, &["main case Some(1) got None", "main len 2"]));
}

/// The fan campaign of seed 20261801 (on a form of the buffered hand-off that did not
/// land) reported one program whose traces alone differed: g2's cancellable send into
/// c0 beside the done channel c1, which g1 closes after its own send into c0, g3 trying
/// c1 then receiving from it, main receiving from it. The outcomes are DFS's, and dpor
/// runs the expanded search's 42 traces. With a step kept back raced at the first
/// level it is kept back (g2's select, after g1 filled c0), not the last, it missed 3
/// of them (1 of 9 with main idle), with or without `Mode::Chosen`: g3's wait at c1
/// before g2's select sends into c0 (a write of c1 where traces are recorded), g1
/// then kept back at the buffer g2 filled. The sequence of that race held none of
/// g3's steps, and the races that would have put them first were covered by g1
/// asleep with its send into the empty buffer.
#[test]
fn the_trace_only_program_of_seed_20261801_reaches_every_trace() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let c0 = go.chan::<u8>("c0", 1);
        let c1 = go.done_chan::<u8>("c1");
        let (a0, a1) = (c0.clone(), c1.clone());
        go.go("g1", move |_| {
            a0.send(10);
            a1.close();
        });
        let (b0, b1) = (c0.clone(), c1.clone());
        go.go("g2", move |go| {
            let mut f = go.select().send(&b0, 20).recv(&b1).wait();
            let got = f.take::<u8>();
            go.note(format!("g2 case {:?} got {got:?}", f.index));
        });
        let d1 = c1.clone();
        go.go("g3", move |go| {
            let f = go.select().recv(&d1).default().wait();
            go.note(format!("g3 case {:?}", f.index));
            go.note(format!("g3 got {:?}", d1.recv()));
        });
        go.note(format!("main got {:?}", c1.recv()));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (dfs, _) = same_as_dfs_in(&b, model.clone());
    assert!(reaches(&dfs, &["g2 case Some(1)", "g3 case Some(0)"]));
    let (_, n) = every_trace(&b, model);
    assert_eq!(n, 42);
}

// The programs of the first review (helper 41, all passing when written).

/// The close races the Chosen send while main tries c and then `done`: the close
/// before or after the select, and before or after each try.
#[test]
fn close_and_tries_of_c_and_done_beside_a_cancellable_send() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        let t = c.try_recv();
        let u = done.try_recv();
        go.note(format!("main try c {t:?} done {u:?}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["w case Some(1)", "main try c Empty done Closed"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(0)", "main try c Empty done Closed"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(0)", "main try c Value(1) done Empty"]
    ));
}

/// A try of `done` right after the receive that makes room stands between the
/// Chosen send (w's first step, so never a kept target) and that receive: it is the
/// only step of the Chosen step's race front (it conflicts only at `done`), which
/// hides the enabler's walk back to a's send. The order w-before-a must still come
/// (through the reversal with the try, then the walk back in the next execution).
#[test]
fn a_try_of_done_after_the_room_hides_the_chosen_sends_enabler() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let a = c.clone();
        go.go("a", move |go| {
            a.send(5);
            go.note("a sent");
        });
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let v = c.recv();
        let t = done.try_recv();
        let v2 = c.recv();
        go.note(format!("main got {v:?} {v2:?} try {t:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main got Some(5) Some(1) try Empty"]));
    assert!(reaches(&l, &["main got Some(1) Some(5) try Empty"]));
}

/// `a_try_of_done_after_the_room_hides_the_chosen_sends_enabler` with w's select not
/// its first step (a note first: its wait at the full buffer is a kept target) and the
/// try of `done` by another goroutine, ordered after main's receive through a signal
/// on s.
#[test]
fn a_signalled_try_of_done_between_the_room_and_a_chosen_send() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let s = go.chan::<u8>("s", 1);
        let a = c.clone();
        go.go("a", move |_| a.send(5));
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| {
            go.note("w start");
            send_or_cancel(&go, "w", &c1, 1, &d1);
        });
        let (s3, d3) = (s.clone(), done.clone());
        go.go("h", move |go| {
            s3.recv();
            let t = d3.try_recv();
            go.note(format!("h try {t:?}"));
        });
        let v = c.recv();
        s.send(0);
        let v2 = c.recv();
        go.note(format!("main got {v:?} {v2:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main got Some(5) Some(1)"]));
    assert!(reaches(&l, &["main got Some(1) Some(5)", "h try Empty"]));
    assert!(reaches(&l, &["main got Some(1) Some(5)", "h try Closed"]));
}

/// Kept back at a full buffer, then Chosen once main's receive makes room (the
/// Chosen step acquires the room, so its enabler is walked back from and the enabler
/// rule's select-at-several-objects races are skipped), with g's close racing both and
/// main's try of `done` and `len` observing.
#[test]
fn kept_back_at_a_full_buffer_then_chosen_or_cancelled_by_another_closer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        c.send(0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        let v = c.recv();
        let t = done.try_recv();
        let n = c.len();
        go.note(format!("main got {v:?} try {t:?} len {n}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["w case Some(1)", "main got Some(0) try Empty len 0"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(0)", "main got Some(0) try Closed len 0"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(0)", "main got Some(0) try Empty len 1"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(1)", "main got Some(0) try Closed len 0"]
    ));
}

/// Two done channels in one select, each closed by a goroutine of its own: a Leave
/// of each, each close racing the Chosen send.
#[test]
fn two_done_channels_closed_by_two_goroutines() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let d1 = go.done_chan::<()>("d1");
        let d2 = go.done_chan::<()>("d2");
        let c = go.chan::<u8>("c", 1);
        let (c0, e1, e2) = (c.clone(), d1.clone(), d2.clone());
        go.go("w", move |go| {
            let f = go.select().send(&c0, 1).recv(&e1).recv(&e2).wait();
            go.note(format!("w case {:?}", f.index));
        });
        let x1 = d1.clone();
        go.go("g1", move |_| x1.close());
        let x2 = d2.clone();
        go.go("g2", move |_| x2.close());
        let t = c.try_recv();
        go.note(format!("main try {t:?}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["w case Some(2)", "main try Empty"]));
    assert!(reaches(&l, &["w case Some(1)", "main try Empty"]));
    assert!(reaches(&l, &["w case Some(0)", "main try Value(1)"]));
}

/// A select waiting at `done` as a half (beside unbuffered u): its wait is an Add of
/// `done`, which commutes with the Chosen select's Leave there; main's try-send at u
/// tells whether q waited; the close wakes q (Withdraw of u and `done`).
#[test]
fn a_half_waiting_at_done_and_u_beside_a_chosen_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let u = go.chan::<u8>("u", 0);
        let c = go.chan::<u8>("c", 1);
        let (u1, d1) = (u.clone(), done.clone());
        go.go("q", move |go| {
            let f = go.select().recv(&u1).recv(&d1).wait();
            go.note(format!("q case {:?}", f.index));
        });
        let (c2, d2) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c2, 1, &d2));
        let ok = u.try_send(7);
        go.note(format!("main sent {ok}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["q case Some(0)", "main sent true", "w case Some(1)"]
    ));
    assert!(reaches(
        &l,
        &["q case Some(1)", "main sent false", "w case Some(0)"]
    ));
}

/// A sender completes a select waiting at u and `done` (its step a Leave of `done`,
/// as the Chosen select's look is): the two commute; the close races the Chosen send.
#[test]
fn a_sender_completes_a_select_at_done_while_a_chosen_select_looks_there() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let u = go.chan::<u8>("u", 0);
        let c = go.chan::<u8>("c", 1);
        let (u1, d1) = (u.clone(), done.clone());
        go.go("q", move |go| {
            let f = go.select().recv(&u1).recv(&d1).wait();
            go.note(format!("q case {:?}", f.index));
        });
        let u2 = u.clone();
        go.go("s", move |go| {
            let ok = u2.try_send(7);
            go.note(format!("s sent {ok}"));
        });
        let (c3, d3) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c3, 1, &d3));
        let t = c.try_recv();
        go.note(format!("main try {t:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &[
            "q case Some(0)",
            "s sent true",
            "w case Some(1)",
            "main try Empty"
        ]
    ));
    assert!(reaches(
        &l,
        &[
            "q case Some(1)",
            "s sent false",
            "w case Some(0)",
            "main try Value(1)"
        ]
    ));
}

/// A late select (it finds s closed) beside `done`, and the Chosen send beside the
/// same `done`: `Late::quiet`'s window and `Late::pair` must not count the Chosen
/// select's look as meeting the late select's wait at `done`.
#[test]
fn a_late_select_at_a_closed_channel_beside_done_and_a_chosen_select() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let s = go.chan::<u8>("s", 0);
        let c = go.chan::<u8>("c", 1);
        let (s1, d1) = (s.clone(), done.clone());
        go.go("x", move |go| {
            let f = go.select().recv(&s1).recv(&d1).wait();
            go.note(format!("x case {:?}", f.index));
        });
        let (c2, d2) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c2, 1, &d2));
        s.close();
        let t = c.try_recv();
        done.close();
        go.note(format!("main try {t:?}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["x case Some(1)", "w case Some(1)", "main try Empty"]
    ));
    assert!(reaches(
        &l,
        &["x case Some(0)", "w case Some(0)", "main try Value(1)"]
    ));
}

/// The Chosen send beside main's select waiting to receive at the buffer as a half
/// (c and unbuffered u): the send reads c's receive line, so it is ordered with main's
/// join; p's try-send at u tells whether main waited.
#[test]
fn a_chosen_send_and_a_half_waiting_to_receive_at_the_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let u = go.chan::<u8>("u", 0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let u2 = u.clone();
        go.go("p", move |go| {
            let ok = u2.try_send(2);
            go.note(format!("p sent {ok}"));
        });
        let mut f = go.select().recv(&c).recv(&u).wait();
        let i = f.index;
        let got = f.take::<u8>();
        go.note(format!("main case {i:?} got {got:?}"));
        go.note(format!("main len {}", c.len()));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &[
            "main case Some(1) got Some(2)",
            "p sent true",
            "main len 1",
            "w case Some(0)"
        ]
    ));
    assert!(reaches(
        &l,
        &[
            "main case Some(1) got Some(2)",
            "main len 0",
            "w case Some(1)"
        ]
    ));
    assert!(reaches(
        &l,
        &["main case Some(0) got Some(1)", "p sent false"]
    ));
}

/// `Chan::placed`: s's first plain send into the empty buffer leaves its place (a
/// select then takes the value as a hand-off's second half), its second clears it (the
/// select is then Chosen, receiving the oldest value); main's try and close race w.
#[test]
fn a_second_plain_send_clears_the_place_then_a_chosen_receive() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 2);
        let c1 = c.clone();
        go.go("s", move |go| {
            c1.send(1);
            c1.send(2);
            go.note("s sent both");
        });
        let (c2, d2) = (c.clone(), done.clone());
        go.go("w", move |go| {
            let mut f = go.select().recv(&c2).recv(&d2).wait();
            let v = f.take::<u8>();
            go.note(format!("w case {:?} got {v:?}", f.index));
        });
        let t = c.try_recv();
        go.note(format!("main try {t:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["w case Some(0) got Some(2)", "main try Value(1)"]
    ));
    assert!(reaches(
        &l,
        &["w case Some(0) got Some(1)", "main try Value(2)"]
    ));
    assert!(reaches(&l, &["w case Some(1)", "main try Empty"]));
}

/// In a buffer of two the Chosen send and r's plain receive use different slots
/// and commute; main's `len` orders both.
#[test]
fn a_chosen_send_into_a_buffer_of_two_commutes_with_a_receive_seen_by_len() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 2);
        c.send(0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let c2 = c.clone();
        go.go("r", move |go| {
            let v = c2.recv();
            go.note(format!("r got {v:?}"));
        });
        go.note(format!("main len {}", c.len()));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["main len 2", "r got Some(0)", "w case Some(0)"]
    ));
    assert!(reaches(&l, &["main len 1", "w case Some(0)"]));
    assert!(reaches(&l, &["main len 0", "w case Some(1)"]));
}

/// A try-send (a write of c, no slot released) takes the room before or after the
/// Chosen send; main's receive and close decide the rest.
#[test]
fn a_try_send_takes_the_room_before_a_chosen_send() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let c2 = c.clone();
        go.go("t", move |go| {
            let ok = c2.try_send(2);
            go.note(format!("t sent {ok}"));
        });
        let v = c.recv();
        go.note(format!("main got {v:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(
        &l,
        &["t sent true", "main got Some(2)", "w case Some(1)"]
    ));
    assert!(reaches(
        &l,
        &["t sent true", "main got Some(2)", "w case Some(0)"]
    ));
    assert!(reaches(
        &l,
        &["t sent false", "main got Some(1)", "w case Some(0)"]
    ));
    assert!(reaches(&l, &["t sent true", "main got Some(1)"]));
}

/// Virtual time: the clock's tick lies in `time.After`'s buffer with no tick mark
/// (`fire_timer(_, None)` leaves `Chan::tick` unset), so a select at it and `done`
/// that comes after the advance is Chosen (a buffered receive of slot 0, which no step
/// released: the clock's advance, an `ANY`, put it there); g's close races it.
#[test]
fn virtual_a_clock_tick_in_the_buffer_is_a_chosen_receive() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let t = go.after("t", ms(1));
        let (t1, d1) = (t.clone(), done.clone());
        go.go("w", move |go| {
            go.sleep(ms(1));
            let f = go.select().recv(&t1).recv(&d1).wait();
            go.note(format!("w case {:?}", f.index));
        });
        let d2 = done.clone();
        go.go("g", move |go| {
            go.sleep(ms(1));
            d2.close();
        });
        go.sleep(ms(2));
        let r = t.try_recv();
        go.note(format!("main try {r:?}"));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, _) = same_as_loom_in(&b, model);
    assert!(reaches(&l, &["w case Some(0)", "main try Empty"]));
    assert!(reaches(&l, &["w case Some(1)", "main try Value(())"]));
}

/// Virtual time: kept back at a full buffer while main and g sleep, the select's
/// attempt waits before the clock moves (it is never Chosen): main's receive then
/// completes it with c (len 1), or g's close wakes it with `done` (len 0); never
/// "w case Some(0)" with len 0.
#[test]
fn virtual_a_select_kept_back_at_a_full_buffer_waits_before_the_clock() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        c.send(0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let d2 = done.clone();
        go.go("g", move |go| {
            go.sleep(ms(1));
            d2.close();
        });
        go.sleep(ms(1));
        let v = c.recv();
        let n = c.len();
        go.note(format!("main got {v:?} len {n}"));
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, _) = same_as_loom_in(&b, model);
    assert!(reaches(&l, &["w case Some(0)", "main got Some(0) len 1"]));
    assert!(reaches(&l, &["w case Some(1)", "main got Some(0) len 0"]));
}

/// Virtual time: two cancellable sends kept back at a full buffer wait in the order
/// of their attempts before the clock moves (`ahead`, `held`); main's two receives
/// after the advance move the first in line's value in, then the second's.
#[test]
fn virtual_two_cancellable_sends_queue_at_a_full_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        c.send(0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w1", move |go| send_or_cancel(&go, "w1", &c1, 1, &d1));
        let (c2, d2) = (c.clone(), done.clone());
        go.go("w2", move |go| send_or_cancel(&go, "w2", &c2, 2, &d2));
        go.sleep(ms(1));
        let a = c.recv();
        let b = c.recv();
        go.note(format!("main got {a:?} {b:?}"));
        done.close();
    });
    let b = bounds().time(stalemate::TimeMode::Virtual);
    let (l, _) = same_as_loom_in(&b, model);
    assert!(reaches(
        &l,
        &[
            "main got Some(0) Some(1)",
            "w1 case Some(0)",
            "w2 case Some(0)"
        ]
    ));
    assert!(reaches(
        &l,
        &[
            "main got Some(0) Some(2)",
            "w1 case Some(0)",
            "w2 case Some(0)"
        ]
    ));
}

/// A nil case first: the world drops it from the select's cases and objects, so
/// the Chosen case's index among the declared channels (`at`) is 0 while the select's
/// own index is 1; g's close races it.
#[test]
fn a_nil_case_beside_a_chosen_send_and_done() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let n: Chan<u8> = go.nil_chan("n");
        let c = go.chan::<u8>("c", 1);
        let (n1, c1, d1) = (n.clone(), c.clone(), done.clone());
        go.go("w", move |go| {
            let f = go.select().recv(&n1).send(&c1, 1).recv(&d1).wait();
            go.note(format!("w case {:?}", f.index));
        });
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        let t = c.try_recv();
        go.note(format!("main try {t:?}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["w case Some(1)", "main try Value(1)"]));
    assert!(reaches(&l, &["w case Some(2)", "main try Empty"]));
    assert!(reaches(&l, &["w case Some(1)", "main try Empty"]));
}

/// A data race only where main's select took `done` after w's Chosen send had put
/// its value in (main then reads x, which w wrote before its select, ordered only by
/// `len`, which gives no edge): needs w's Chosen step before main's `len` and g's close
/// before main's select, which then chooses `done` among two ready cases.
#[test]
fn a_data_race_only_where_the_select_took_done_beside_a_full_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let x = go.plain("x");
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let (x1, c1, d1) = (x.clone(), c.clone(), done.clone());
        go.go("w", move |go| {
            x1.access(true);
            send_or_cancel(&go, "w", &c1, 1, &d1);
        });
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        let f = go.select().recv(&c).recv(&done).wait();
        let i = f.index;
        let n = c.len();
        if i == Some(1) && n == 1 {
            x.access(false);
        }
        go.note(format!("main case {i:?} len {n}"));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(l.violations.contains("data-race"));
    assert!(reaches(&l, &["main case Some(1) len 0"]));
    assert!(reaches(&l, &["main case Some(0) len 0"]));
}

/// A leak only where the Chosen send takes the room main's receive left (p's plain
/// send then waits for ever at the full buffer); where p takes it, w is cancelled.
#[test]
fn a_leak_where_the_chosen_send_takes_the_room_a_plain_send_wanted() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        c.send(0);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let c2 = c.clone();
        go.go("p", move |go| {
            c2.send(2);
            go.note("p sent");
        });
        let v = c.recv();
        go.note(format!("main got {v:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(l.violations.contains("leak"));
    assert!(reaches(
        &l,
        &["main got Some(0)", "p sent", "w case Some(1)"]
    ));
}

/// The Chosen receive beside a plain sender kept back at the full buffer (not in
/// the send queue, so the select is Chosen): the sender's value goes in after it; a
/// select cancelled by g's close leaves p waiting for ever (a leak).
#[test]
fn a_chosen_receive_beside_a_plain_sender_kept_back_at_a_full_buffer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 2);
        c.send(0);
        c.send(9);
        let c1 = c.clone();
        go.go("p", move |go| {
            c1.send(2);
            go.note("p sent");
        });
        let (c2, d2) = (c.clone(), done.clone());
        go.go("w", move |go| {
            let mut f = go.select().recv(&c2).recv(&d2).wait();
            let v = f.take::<u8>();
            go.note(format!("w case {:?} got {v:?}", f.index));
        });
        let d3 = done.clone();
        go.go("g", move |_| d3.close());
        go.note(format!("main len {}", c.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(l.violations.contains("leak"));
    assert!(reaches(&l, &["w case Some(0) got Some(0)", "main len 1"]));
    assert!(reaches(&l, &["w case Some(0) got Some(0)", "main len 2"]));
}

/// Any time: main's select at c and a `time.After` channel (both buffered: kept
/// back until one is ready; the tick a hand-off's half), w's Chosen send into c, and
/// main's close after its select.
#[test]
fn any_time_a_cancellable_send_beside_a_select_at_the_buffer_and_a_timer() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let t = go.after("t", ms(1));
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(&go, "w", &c1, 1, &d1));
        let mut f = go.select().recv(&c).recv(&t).wait();
        let i = f.index;
        let got = if i == Some(0) { f.take::<u8>() } else { None };
        go.note(format!("main case {i:?} got {got:?}"));
        done.close();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(reaches(&l, &["main case Some(1)", "w case Some(1)"]));
    assert!(reaches(&l, &["main case Some(1)", "w case Some(0)"]));
    assert!(reaches(
        &l,
        &["main case Some(0) got Some(1)", "w case Some(0)"]
    ));
}
