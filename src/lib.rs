//! stalemate: a deterministic concurrency-testing harness for Go-style
//! (lock + channel + goroutine) designs, with faithful models of Kubernetes components.
//!
//! - [`go`]: Go's primitives (Mutex, RWMutex, channels, select, WaitGroup, Once, timers),
//!   identical under every engine.
//! - [`explore`]: runs a model under loom (exhaustive), shuttle (random, PCT, DFS) or a
//!   replayed schedule, and returns a value: a pass with statistics, or a violation.
//! - [`scenario`] and [`runner`]: scenario files, their expectations, the reports.
//! - [`net`]: the network world: turmoil hosts, HTTP, named async locks, fault plans.
//! - [`models`]: the catalogue.
//! - [`kernel`]: Go kernels: small Go programs, parsed and interpreted as models.

pub mod check;
pub mod cli;
mod engine;
pub mod error;
pub mod explore;
pub mod go;
pub mod kernel;
pub mod model;
pub mod models;
pub mod net;
pub mod output;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod schedule;
pub mod testing;
pub mod verdict;
mod world;

pub use check::check;
pub use engine::{Explored, Stop};
pub use error::Error;
pub use verdict::Fault;
pub use world::{AtMaxSteps, TimeMode, Turn};
