//! A named, instrumented async RwLock: tokio's, recording who holds it and who waits,
//! so a report can say `waits for lock ClientSets (read), held by ... (write) since
//! 0.012s`. One implementation for every async model.

use super::record::Trace;
use std::ops::{Deref, DerefMut};

pub struct RwLock<T> {
    name: String,
    inner: tokio::sync::RwLock<T>,
    trace: Trace,
}

/// A held lock; dropping it records the release.
pub struct Guard<'a, G> {
    g: G,
    name: &'a str,
    who: String,
    mode: &'static str,
    trace: &'a Trace,
}

pub type ReadGuard<'a, T> = Guard<'a, tokio::sync::RwLockReadGuard<'a, T>>;
pub type WriteGuard<'a, T> = Guard<'a, tokio::sync::RwLockWriteGuard<'a, T>>;

impl<T> RwLock<T> {
    pub fn new(name: &str, value: T, trace: &Trace) -> RwLock<T> {
        RwLock {
            name: name.to_string(),
            inner: tokio::sync::RwLock::new(value),
            trace: trace.clone(),
        }
    }

    pub async fn read(&self, who: &str) -> ReadGuard<'_, T> {
        let g = match self.inner.try_read() {
            Ok(g) => g,
            Err(_) => {
                self.waits(who, "read");
                let g = self.inner.read().await;
                self.trace.done(who);
                g
            }
        };
        self.took(g, who, "read")
    }

    pub async fn write(&self, who: &str) -> WriteGuard<'_, T> {
        let g = match self.inner.try_write() {
            Ok(g) => g,
            Err(_) => {
                self.waits(who, "write");
                let g = self.inner.write().await;
                self.trace.done(who);
                g
            }
        };
        self.took(g, who, "write")
    }

    fn waits(&self, who: &str, mode: &'static str) {
        let held = self.trace.holders_of(&self.name);
        self.trace.step(
            who,
            format!("{} {}: held by {held}, waits", verb(mode), self.name),
        );
        self.trace.waits_lock(who, &self.name, mode);
    }

    fn took<G>(&self, g: G, who: &str, mode: &'static str) -> Guard<'_, G> {
        self.trace
            .step(who, format!("{} {}", verb(mode), self.name));
        self.trace.hold(&self.name, who, mode);
        Guard {
            g,
            name: &self.name,
            who: who.to_string(),
            mode,
            trace: &self.trace,
        }
    }
}

fn verb(mode: &str) -> &'static str {
    if mode == "read" { "rlock" } else { "lock" }
}

impl<G> Drop for Guard<'_, G> {
    fn drop(&mut self) {
        let v = if self.mode == "read" {
            "runlock"
        } else {
            "unlock"
        };
        self.trace.step(&self.who, format!("{v} {}", self.name));
        self.trace.unhold(self.name, &self.who);
    }
}

impl<G: Deref> Deref for Guard<'_, G> {
    type Target = G::Target;
    fn deref(&self) -> &G::Target {
        &self.g
    }
}

impl<G: DerefMut> DerefMut for Guard<'_, G> {
    fn deref_mut(&mut self) -> &mut G::Target {
        &mut self.g
    }
}
