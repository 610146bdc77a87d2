//! The network world: one simulation's hosts on turmoil, HTTP/1.1 between them,
//! named async locks, fault plans, and the record a report is made from. The sibling
//! of `world/` (the thread world): models build hosts on a [`Setup`]; the turmoil
//! engine (`engine::turmoil_engine`) runs it, seed by seed, and applies the faults.

mod http;
mod lock;
mod plan;
mod record;

pub use http::{Reply, Request, get, serve};
pub use lock::{ReadGuard, RwLock, WriteGuard};
pub use plan::{Fault, FaultKind, FaultPlan, Faults, Settings, SplitMix, parse_duration, secs};
pub use record::{Broken, NetStep, Trace};

use std::future::Future;
use std::sync::Arc;

/// What a model gets to build one simulation: its hosts and clients, the shared
/// record, and the seed (for the model's own deterministic choices, such as jitter).
pub struct Setup<'s, 'a> {
    pub(crate) sim: &'s mut turmoil::Sim<'a>,
    pub trace: Trace,
    pub seed: u64,
}

impl<'a> Setup<'_, 'a> {
    /// A host: software that runs until the simulation ends, restarted by `bounce`.
    pub fn host<F, Fut>(&mut self, name: &str, software: F)
    where
        F: Fn() -> Fut + 'a,
        Fut: Future<Output = Result<(), Box<dyn std::error::Error>>> + 'static,
    {
        self.sim.host(name, software);
    }

    /// A client: runs once; the simulation ends when every client has finished.
    pub fn client<Fut>(&mut self, name: &str, work: Fut)
    where
        Fut: Future<Output = Result<(), Box<dyn std::error::Error>>> + 'static,
    {
        self.sim.client(name, work);
    }
}

/// A network model closed over its variant and parameters.
pub type NetFn = Arc<dyn Fn(&mut Setup) + Send + Sync>;
