//! Timers and tickers as events. A timer firing is one more goroutine step, so the
//! engine decides when it fires, among all the other steps; nothing ever sleeps.

use super::{Chan, Go};

impl Go {
    /// `time.After(d)`: a channel that receives once, at a moment the engine chooses.
    pub fn after(&self, name: &str) -> Chan<()> {
        let c = self.chan::<()>(name, 1);
        let fire = c.clone();
        self.go(&format!("timer {name}"), move |_| {
            fire.try_send(());
        });
        c
    }

    /// `time.NewTicker(d)` that fires at most `fires` times. As in Go, the channel
    /// holds one tick; a tick that finds it full is dropped.
    pub fn ticker(&self, name: &str, fires: usize) -> Ticker {
        let c = self.chan::<()>(name, 1);
        let stop = self.chan::<()>(&format!("{name}.stop"), 0);
        let (tick, halt) = (c.clone(), stop.clone());
        self.go(&format!("ticker {name}"), move |go| {
            for _ in 0..fires {
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
