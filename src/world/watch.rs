//! The watchdog's view of the executions under way: which goroutine of an exploration
//! is running, for the error that names it when the exploration outlives its time
//! limit (`explore::watched`).

use super::World;
use super::state::Status;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// The stack of an exploration's thread (virtual memory: only what is used is paid).
pub(crate) const STACK: usize = 64 << 20;

static NEXT: AtomicU64 = AtomicU64::new(1);

/// The worlds made so far, with their exploration; dead ones are swept now and then.
static LIVE: Mutex<Vec<(u64, Weak<World>)>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<(u64, Weak<World>)>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new exploration to watch (the threads that work for it say so with
/// `engine::watch_enter`).
pub(crate) fn start() -> u64 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A world made for the exploration this thread works for.
pub(super) fn register(w: &Arc<World>) {
    let id = crate::engine::watch_current();
    if id == 0 {
        return;
    }
    let mut l = live();
    if l.len() >= 256 {
        l.retain(|(_, w)| w.strong_count() > 0);
    }
    l.push((id, Arc::downgrade(w)));
}

/// Stops watching exploration `id`; says which of its goroutines is running, if one
/// of its executions is still under way.
pub(crate) fn stop(id: u64) -> Option<String> {
    let worlds: Vec<Arc<World>> = {
        let mut l = live();
        let mine = l
            .iter()
            .filter(|(i, _)| *i == id)
            .filter_map(|(_, w)| w.upgrade())
            .collect();
        l.retain(|(i, _)| *i != id);
        mine
    };
    worlds.iter().find_map(|w| {
        // A goroutine stuck in a loop may take the state's lock at every statement (a
        // plain access checked for races); one stuck holding it never lets go, so the
        // lock is tried, not waited for, a bounded number of times.
        let st = (0..500).find_map(|_| match w.st.try_lock() {
            Ok(st) => Some(st),
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(1));
                None
            }
        })?;
        let g = (0..st.gors.len()).find(|&g| st.gors[g].status == Status::Running)?;
        let last = st.trace.iter().rposition(|s| s.gid == g);
        let func = st.gors[g].func();
        Some(format!(
            "goroutine {} did not reach its next Go operation{}{}",
            st.gors[g].name,
            match last {
                Some(n) => format!(" after its step {}", n + 1),
                None => " after it started".into(),
            },
            if func.is_empty() {
                String::new()
            } else {
                format!(", in {func}")
            }
        ))
    })
}
