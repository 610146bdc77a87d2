//! Polling loops: a goroutine that waits by looking, as Go's fair scheduler runs it.

use super::Go;
use std::hash::{Hash, Hasher};
use std::panic::Location;

/// A polling loop: one per entry into the loop, its [`round`](PollLoop::round) called
/// at the top of each round (`Go::poll_loop`).
///
/// Rounds are compared only within one entry: the round after a loop is left and
/// entered again (an inner loop in an outer one, a helper called twice) is no repeat
/// of the last, whatever it sees, since what the code around the loop carries (the
/// outer loop's counter) is not in `local`.
pub struct PollLoop<'a> {
    go: &'a Go,
    at: &'static Location<'static>,
    fresh: bool,
}

impl Go {
    /// Enters a loop that waits for another goroutine by looking (a flag under a lock,
    /// a `select` with a `default`): call [`PollLoop::round`] at the top of each round.
    /// Go's scheduler is fair, so such a loop never keeps the others from running;
    /// without this an engine may run the loop alone until the step bound.
    ///
    /// ```
    /// # let model = |go: &stalemate::go::Go| {
    /// # let (mu, done) = (go.mutex("mu"), go.var("done", false));
    /// let mut poll = go.poll_loop();
    /// loop {
    ///     poll.round(&()); // nothing carried from one round to the next
    ///     mu.lock();
    ///     let d = done.get();
    ///     mu.unlock();
    ///     if d {
    ///         break;
    ///     }
    /// }
    /// # };
    /// ```
    #[track_caller]
    pub fn poll_loop(&self) -> PollLoop<'_> {
        PollLoop {
            go: self,
            at: Location::caller(),
            fresh: true,
        }
    }
}

impl PollLoop<'_> {
    /// The head of a round, with everything the loop carries from one round to the
    /// next as `local` (`&()` if nothing). A round that saw nothing new and changed
    /// nothing (no other goroutine moved since the last head, the world is as it was,
    /// and so is `local`) would repeat exactly: the goroutine waits for another to
    /// move instead, and a loop nothing can end is reported as a `livelock` (or a
    /// `leak` once main has returned). Not a scheduling point.
    pub fn round(&mut self, local: &impl Hash) {
        let at = self.at;
        let mut h = std::hash::DefaultHasher::new();
        (at.file(), at.line(), at.column()).hash(&mut h);
        let fresh = std::mem::replace(&mut self.fresh, false);
        self.go.poll(
            h.finish(),
            fresh,
            || {
                let mut h = std::hash::DefaultHasher::new();
                local.hash(&mut h);
                u128::from(h.finish())
            },
            || format!("{}:{}", at.file(), at.line()),
        );
    }
}
