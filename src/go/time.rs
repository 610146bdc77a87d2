//! Time: `time.Sleep`, `time.After`, `time.NewTimer`, `time.NewTicker`.
//!
//! In `any` time mode (the default) a timer firing is one more goroutine step, so the
//! engine decides when it fires among all the other steps, durations aside. In `virtual`
//! mode each has its duration, and the clock moves to the next deadline only when every
//! goroutine is blocked. Nothing ever sleeps on the wall clock.

use super::{Chan, Go};
use crate::world::say;
use crate::world::{Attempt, Gid, Pending, State, TimeMode, Wait};
use std::sync::Arc;
use std::time::Duration;

impl Go {
    /// `time.Since(start)`, start being the beginning of the execution: the virtual
    /// clock. Not a step: the clock moves only while every goroutine is blocked, so no
    /// running goroutine can see it move under it. In `any` mode it is zero, unless
    /// the program reads the clock (`use_clock`): then reading it is a step.
    pub fn now(&self) -> Duration {
        if let Some(c) = self.clock() {
            return self.w.op(&[&*c], |st, _| {
                st.hb = crate::world::Hb::Unordered;
                let now = st.now;
                st.observed = now.as_nanos();
                Attempt::Done(now, say!(st, "time.Now: {now:?}"))
            });
        }
        self.w.now()
    }

    /// In `any` time mode, gives the program a clock that is never behind a sleep
    /// that ended or a timer that fired (a timer's goroutine sleeps until it fires):
    /// each sleep moves it on by its duration when it ends, and reading it (`now`) is a
    /// step ordered against every sleep. Concurrent sleeps add up, which Go allows
    /// (time may pass at any rate); a clock behind one would not be. Call it before
    /// the first sleep or timer of a model that reads `now` in `any` mode (a kernel
    /// that reads the clock does); without it the clock stands still there, and
    /// sleeps and timers cost no order. Nothing in virtual time, whose clock is so.
    pub fn use_clock(&self) {
        if self.virtual_time() {
            return;
        }
        let c = self.obj("clock", crate::world::ObjKind::Clock);
        *self.w.clock.lock().unwrap_or_else(|e| e.into_inner()) = Some(c);
    }

    fn clock(&self) -> Option<Arc<crate::world::Obj>> {
        self.w
            .clock
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// `time.Sleep(d)`. In `any` mode it is a step that orders nothing (every order is
    /// explored anyway), which moves the program's clock on if it reads one; in
    /// `virtual` mode the goroutine blocks until the clock reaches now + d.
    pub fn sleep(&self, d: Duration) {
        if let Some(c) = self.clock() {
            return self.w.op(&[&*c], |st, _| {
                st.hb = crate::world::Hb::Unordered;
                st.now += d;
                let now = st.now;
                Attempt::Done((), say!(st, "sleep {d:?}: the clock is at {now:?}"))
            });
        }
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

    /// Whether this execution runs in virtual time (`TimeMode::Virtual`).
    pub(crate) fn virtual_time(&self) -> bool {
        self.w.lock().time == TimeMode::Virtual
    }

    /// `synctest.Wait()`, in virtual time: blocks until every other goroutine is
    /// blocked (Go's "durably blocked"), then returns with the clock where it was. It
    /// sleeps until the clock reaches now, which the clock grants only once no
    /// goroutine can run (`State::advance_clock`).
    pub fn settle(&self) {
        self.w.op(&[], |st, me| {
            if std::mem::take(&mut st.gors[me].granted) {
                return Attempt::Done(
                    (),
                    say!(st, "synctest.Wait: every other goroutine is blocked"),
                );
            }
            let now = st.now;
            let text = say!(
                st,
                "synctest.Wait: waits for every other goroutine to block"
            );
            Attempt::Block(Wait::Sleep(now), text)
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
        let g = self.go_id(&format!("timer {name}"), move |go| {
            go.sleep(d);
            fire.try_send(());
        });
        self.holds(g, vec![c.o.id]);
        self.w.lock().set_ticker(c.o.id, Some(g));
        c
    }

    /// `time.NewTimer(d)`: `c` receives one tick after `d`, unless `Stop` comes first.
    /// Firing and stopping are each one operation on the timer's channel, so `Stop`
    /// reports exactly whether it prevented the tick, as Go's does: `false` once the
    /// tick is in the channel or was received.
    pub fn timer(&self, name: &str, d: Duration) -> Timer {
        self.start_timer(name, d, None)
    }

    /// `time.AfterFunc(d, f)`: after `d`, `f` runs in a goroutine of its own, unless
    /// `Stop` comes first. In both time modes the timer is that goroutine, asleep until
    /// the deadline, then one operation that fires it if nothing stopped it.
    pub fn after_func(
        &self,
        name: &str,
        d: Duration,
        f: impl Fn(&Go) + Send + Sync + 'static,
    ) -> Timer {
        self.start_timer(name, d, Some(Arc::new(f)))
    }

    fn start_timer(&self, name: &str, d: Duration, func: Option<Callback>) -> Timer {
        let t = Timer {
            c: self.chan::<()>(name, 1),
            go: self.clone(),
            name: name.to_string(),
            func,
        };
        t.arm(d);
        t
    }

    /// `time.NewTicker(d)` that fires at most `fires` times. As in Go, the channel
    /// holds one tick; a tick that finds it full is dropped.
    pub fn ticker(&self, name: &str, d: Duration, fires: usize) -> Ticker {
        let c = self.chan::<()>(name, 1);
        let stop = self.ticking(name, &c, d, fires);
        Ticker {
            c,
            stop: std::sync::Mutex::new(Some(stop)),
            go: self.clone(),
            name: name.to_string(),
            fires,
        }
    }

    /// The goroutine that ticks on `c` every `d`, `fires` times at most, until the
    /// channel it returns is closed.
    fn ticking(&self, name: &str, c: &Chan<()>, d: Duration, fires: usize) -> Chan<()> {
        let stop = self.chan::<()>(&format!("{name}.stop"), 0);
        let (tick, halt) = (c.clone(), stop.clone());
        let held = vec![c.o.id, stop.o.id];
        let g = self.go_id(&format!("ticker {name}"), move |go| {
            for _ in 0..fires {
                go.sleep(d);
                let stopped = go.select().recv(&halt).default().wait();
                if stopped.index.is_some() {
                    return;
                }
                tick.try_send(());
            }
        });
        self.holds(g, held);
        stop
    }
}

/// A one-shot timer (`time.NewTimer`): receive from `c`.
///
/// Go before 1.23 (and with `GODEBUG=asynctimerchan=1`) gives a timer a channel of
/// capacity 1, and so does this: `Stop` returns false once the tick is in the channel,
/// received or not. Go 1.23's synchronous timer channels instead return true while the
/// tick is unreceived, and drop it. Either way `if !t.Stop() { <-t.C }` hangs when the
/// tick was received already, which is the bug this exists to find.
pub struct Timer {
    pub c: Chan<()>,
    go: Go,
    name: String,
    /// `time.AfterFunc`'s function: run when the timer fires, instead of a tick.
    func: Option<Callback>,
}

type Callback = Arc<dyn Fn(&Go) + Send + Sync>;

impl Timer {
    /// Schedules the tick after `d`: under virtual time a deadline the clock delivers;
    /// under `any` time a goroutine that fires it at a step the engine chooses.
    fn arm(&self, d: Duration) {
        let o = self.c.o.id;
        let name = self.name.clone();
        if self.func.is_none() && self.go.w.lock().time == TimeMode::Virtual {
            self.go.w.op(&[&*self.c.o], |st, _| {
                let at = st.now + d;
                st.timers.push((at, o));
                Attempt::Done((), say!(st, "timer {name}: fires at {at:?}"))
            });
            return;
        }
        let arming = self.go.w.op(&[&*self.c.o], |st, _| {
            let n = st.arm(o);
            Attempt::Done(n, say!(st, "timer {name}: armed"))
        });
        let (c, func) = (self.c.clone(), self.func.clone());
        let who = match func {
            Some(_) => format!("time.AfterFunc {}", self.name),
            None => format!("timer {}", self.name),
        };
        let timer = func.is_none();
        let g = self.go.go_id(&who, move |go| {
            go.sleep(d);
            let tick = func.is_none();
            // A tick is a try-send on the channel (`State::tick_hand`).
            let fire = |st: &mut State, me: Gid| {
                let label = st.label(o);
                if !st.take_armed(o, arming) {
                    return Attempt::Done(false, say!(st, "timer {label}: stopped, does not fire"));
                }
                if tick {
                    let steps = st.gors[me].steps;
                    st.fire_timer(o, Some((me, steps)));
                }
                Attempt::Done(true, say!(st, "timer {label}: fires"))
            };
            let fired = if tick {
                go.w.marked_select(&[&*c.o], Pending::Try, [(o, true)].into_iter(), fire)
            } else {
                go.w.op(&[&*c.o], fire)
            };
            if let (true, Some(f)) = (fired, func) {
                f(&go);
            }
        });
        // An `AfterFunc`'s function holds what the model gave it: unknown here.
        if timer {
            self.go.holds(g, vec![o]);
            self.go.w.lock().set_ticker(o, Some(g));
        }
    }

    /// Takes the timer off the schedule; true if it was on it (it had not fired).
    fn disarm(&self) -> bool {
        let o = self.c.o.id;
        self.go.w.op(&[&*self.c.o], |st, _| {
            let label = st.label(o);
            let was = st.disarm(o);
            let text = if was {
                say!(st, "stop timer {label}: stopped before it fired")
            } else {
                say!(st, "stop timer {label}: already fired or stopped")
            };
            Attempt::Done(was, text)
        })
    }

    /// `t.Stop()`: true if the call stopped the timer, false if it had already fired
    /// (its tick in the channel or received) or been stopped.
    pub fn stop(&self) -> bool {
        self.disarm()
    }

    /// `t.Reset(d)`: the timer fires after `d` from now; true if it had been active.
    /// As in Go before 1.23, a tick already in the channel stays there (hence Go's
    /// advice to stop and drain before a reset).
    pub fn reset(&self, d: Duration) -> bool {
        let was = self.disarm();
        self.arm(d);
        was
    }
}

/// A ticker: receive from `c`; `stop` ends it.
pub struct Ticker {
    pub c: Chan<()>,
    /// The running ticking goroutine's stop channel; `None` once stopped.
    stop: std::sync::Mutex<Option<Chan<()>>>,
    go: Go,
    name: String,
    fires: usize,
}

impl Ticker {
    /// `ticker.Stop()`: no more ticks (a tick already in `c` stays there, as in Go).
    pub fn stop(&self) {
        let stop = self.stop.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(s) = stop {
            s.close();
        }
    }

    /// `ticker.Reset(d)`: stops the ticker and starts it again with period `d`, its
    /// next tick `d` from now (on the same channel, with its own count of ticks).
    pub fn reset(&self, d: Duration) {
        self.stop();
        let next = self.go.ticking(&self.name, &self.c, d, self.fires);
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(next);
    }
}
