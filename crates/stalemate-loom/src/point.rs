//! stalemate: a point, an object that only loom's DPOR sees (vendor/PATCHES.md).

use crate::rt;

/// An access point with no value: `read` conflicts with `write`, `write` with every
/// access, and each is a scheduling point. Nothing is synchronized through it.
#[derive(Debug)]
pub struct Point {
    object: rt::Point,
}

impl Point {
    /// A new point, in the running execution.
    pub fn new() -> Point {
        Point {
            object: rt::Point::new(),
        }
    }

    /// A read access.
    #[track_caller]
    pub fn read(&self) {
        self.object.read(location!());
    }

    /// A write access.
    #[track_caller]
    pub fn write(&self) {
        self.object.write(location!());
    }
}

impl Default for Point {
    fn default() -> Self {
        Self::new()
    }
}
