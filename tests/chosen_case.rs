//! Programs against a select's chosen case at a buffer (`Mode::Chosen`, docs/dpor.md):
//! a select with no default whose one ready case is a send into a buffer's free slot
//! or a receive of its oldest value, every other case at an open done channel, is
//! that buffered operation, and only looks at the done channels (a `Leave` of each,
//! which only a close conflicts with). Each program is compared with loom's census and
//! asserts that loom reaches the outcome it is about.

use stalemate::explore::ModelFn;
use stalemate::go::{Chan, Go};
use std::sync::Arc;
mod common;
mod reference;
use reference::*;

/// Go's cancellable send: `select { case c <- v: case <-done: }`, noting the case.
fn send_or_cancel(go: Go, name: &str, c: &Chan<u8>, v: u8, done: &Chan<()>) {
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
                    send_or_cancel(go, &format!("w{i}"), &c, i as u8, &d)
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
        assert!(loom_reaches(&l, &["w0 case Some(0)", "main got Some(0)"]));
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
            send_or_cancel(go, "w", &c1, 1, &d1);
            f1.send(());
        });
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        fin.recv();
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(loom_reaches(&l, &["w case Some(0)"]));
    assert!(loom_reaches(&l, &["w case Some(1)"]));
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
        go.go("w", move |go| send_or_cancel(go, "w", &c1, 1, &d1));
        go.note(format!("main got {:?}", c.recv()));
        done.close();
        go.note(format!("main len {}", c.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(loom_reaches(&l, &["w case Some(0)", "main len 1"]));
    assert!(loom_reaches(&l, &["w case Some(1)", "main len 0"]));
}

/// A select receives the value a cancellable send put in the buffer (no place left:
/// only a plain send's is), while g closes `done`: either side may take `done`.
#[test]
fn a_select_receives_what_a_cancellable_send_put() {
    let model: ModelFn = Arc::new(|go: &Go| {
        let done = go.done_chan::<()>("done");
        let c = go.chan::<u8>("c", 1);
        let (c1, d1) = (c.clone(), done.clone());
        go.go("w", move |go| send_or_cancel(go, "w", &c1, 1, &d1));
        let d2 = done.clone();
        go.go("g", move |_| d2.close());
        let mut f = go.select().recv(&c).recv(&done).wait();
        let i = f.index;
        go.note(format!("main case {i:?} got {:?}", first_value(&mut f)));
        go.note(format!("main len {}", c.len()));
    });
    let (l, _) = same_as_loom_in(&bounds(), model);
    assert!(loom_reaches(
        &l,
        &["w case Some(0)", "main case Some(0) got Some(1)"]
    ));
    assert!(loom_reaches(
        &l,
        &["w case Some(0)", "main case Some(1)", "main len 1"]
    ));
    assert!(loom_reaches(&l, &["w case Some(1)", "main case Some(1)"]));
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
        go.go("w", move |go| send_or_cancel(go, "w", &c1, 1, &d1));
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
    assert!(loom_reaches(
        &l,
        &["main case Some(1) got Some(2)", "main len 1"]
    ));
    assert!(loom_reaches(
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
        go.go("wa", move |go| send_or_cancel(go, "wa", &a1, 1, &d1));
        let (b2, d2) = (b.clone(), done.clone());
        go.go("wb", move |go| send_or_cancel(go, "wb", &b2, 2, &d2));
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
    assert!(loom_reaches(
        &l,
        &["main case Some(0)", "wb case Some(1)", "t case None"]
    ));
    assert!(loom_reaches(
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
    assert!(loom_reaches(
        &l,
        &["main case Some(0) got Some(2)", "main len 0"]
    ));
    assert!(loom_reaches(
        &l,
        &["main case Some(1) got None", "main len 2"]
    ));
}
