//! Time: `time.Sleep`, `time.After`, `time.NewTicker`.
//!
//! In `any` time mode (the default) a timer firing is one more goroutine step, so the
//! engine decides when it fires among all the other steps, durations aside. In `virtual`
//! mode each has its duration, and the clock moves to the next deadline only when every
//! goroutine is blocked. Nothing ever sleeps on the wall clock.

use super::{Chan, Go};
use crate::world::say;
use crate::world::{Attempt, TimeMode, Wait};
use std::time::Duration;

impl Go {
    /// `time.Since(start)`, start being the beginning of the execution: the virtual
    /// clock (always zero in `any` mode). Not a step: the clock moves only while every
    /// goroutine is blocked, so no running goroutine can see it move under it.
    pub fn now(&self) -> Duration {
        self.w.now()
    }

    /// `time.Sleep(d)`. In `any` mode it is a step that orders nothing (every order is
    /// explored anyway); in `virtual` mode the goroutine blocks until the clock reaches
    /// now + d.
    pub fn sleep(&self, d: Duration) {
        self.w.op(&[], |st, me| {
            if std::mem::take(&mut st.gors[me].granted) {
                return Attempt::Done((), say!(st, "sleep {d:?}: wakes"));
            }
            if st.time == TimeMode::Any || d.is_zero() {
                return Attempt::Done((), say!(st, "sleep {d:?}"));
            }
            let until = st.now + d;
            let text = say!(st, "sleep {d:?}: until {until:?}");
            Attempt::Block(Wait::Sleep(until), text)
        })
    }

    /// `time.After(d)`: a channel that receives once, after `d`. In `any` mode the tick
    /// is a goroutine's step, at a moment the engine chooses. In `virtual` mode it is
    /// no goroutine at all: the clock delivers it when it reaches the deadline (see
    /// `State::advance_clock`), so a timer costs no thread and no steps.
    pub fn after(&self, name: &str, d: Duration) -> Chan<()> {
        let c = self.chan::<()>(name, 1);
        if self.w.lock().time == TimeMode::Virtual {
            let o = c.o.id;
            // Timers due at the same instant fire in the order they were made, so
            // making one is an access to its channel: two made concurrently, whose
            // channels a select names together (one point), are explored in both orders.
            self.w.op(&[&*c.o], |st, _| {
                let at = st.now + d;
                st.timers.push((at, o));
                Attempt::Done((), say!(st, "timer {name}: fires at {at:?}"))
            });
            return c;
        }
        let fire = c.clone();
        self.go(&format!("timer {name}"), move |go| {
            go.sleep(d);
            fire.try_send(());
        });
        c
    }

    /// `time.NewTicker(d)` that fires at most `fires` times. As in Go, the channel
    /// holds one tick; a tick that finds it full is dropped.
    pub fn ticker(&self, name: &str, d: Duration, fires: usize) -> Ticker {
        let c = self.chan::<()>(name, 1);
        let stop = self.chan::<()>(&format!("{name}.stop"), 0);
        let (tick, halt) = (c.clone(), stop.clone());
        self.go(&format!("ticker {name}"), move |go| {
            for _ in 0..fires {
                go.sleep(d);
                let stopped = go.select().recv(&halt).default().wait();
                if stopped.index.is_some() {
                    return;
                }
                tick.try_send(());
            }
        });
        Ticker { c, stop }
    }
}

/// A ticker: receive from `c`; `stop` ends it.
pub struct Ticker {
    pub c: Chan<()>,
    stop: Chan<()>,
}

impl Ticker {
    /// `ticker.Stop()`.
    pub fn stop(&self) {
        self.stop.close();
    }
}
