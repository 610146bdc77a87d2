//! What a model is: its name, variants, parameters and how its main is built. The
//! catalogue (`models`), Go kernels (`kernel`) and `check` all describe theirs with it.

use crate::explore::ModelFn;
use std::collections::BTreeMap;

/// An integer parameter (booleans are 0/1).
pub struct Param {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    pub doc: &'static str,
}

pub struct Variant {
    pub name: &'static str,
    pub doc: &'static str,
}

/// A model of the catalogue.
pub struct Model {
    pub name: &'static str,
    pub summary: &'static str,
    /// Where the Go original is public: the commit, PR or write-up it was ported from.
    pub origin: &'static str,
    pub variants: &'static [Variant],
    pub params: &'static [Param],
    /// Named properties the model can break, besides deadlock, leak and faults.
    pub properties: &'static [(&'static str, &'static str)],
    /// How main is built for a variant and parameters (both already validated).
    pub main: Build,
    /// The same logic as turmoil hosts, for `kind = "turmoil"` engines.
    pub network: Option<&'static Network>,
}

/// Where a model's main comes from.
pub enum Build {
    /// A Rust model: main for a variant and parameters.
    Rust(fn(&str, &Params) -> ModelFn),
    /// A Go kernel, interpreted (`crate::kernel`): main from the parameters.
    Kernel(Box<dyn Fn(&Params) -> ModelFn + Send + Sync>),
}

/// A model's network side: its hosts and how to build one simulation.
pub struct Network {
    /// Host software (restartable by `bounce`), each with what it does.
    pub hosts: &'static [(&'static str, &'static str)],
    /// Clients: the simulation ends when they have all finished.
    pub clients: &'static [(&'static str, &'static str)],
    /// What a fault plan drawn from a seed may crash and bounce, and cut or hold.
    pub drawn_hosts: &'static [&'static str],
    pub drawn_links: &'static [(&'static str, &'static str)],
    /// Where drawn faults land: the window in which the clients' requests are.
    pub drawn_window: std::time::Duration,
    pub build: fn(&str, &Params) -> crate::net::NetFn,
}

impl Network {
    pub fn host_names(&self) -> Vec<&'static str> {
        self.hosts.iter().chain(self.clients).map(|h| h.0).collect()
    }
}

/// Parameter values, every parameter present (defaults filled in).
#[derive(Clone, Debug, PartialEq)]
pub struct Params(pub BTreeMap<&'static str, i64>);

impl Params {
    pub fn get(&self, name: &str) -> i64 {
        *self
            .0
            .get(name)
            .unwrap_or_else(|| panic!("model asked for unknown parameter {name}"))
    }

    pub fn usize(&self, name: &str) -> usize {
        usize::try_from(self.get(name)).unwrap_or(0)
    }

    /// `name=value` for every parameter, in name order.
    pub fn describe(&self) -> Vec<String> {
        self.0.iter().map(|(k, v)| format!("{k}={v}")).collect()
    }
}

impl Model {
    /// main for a variant and parameters (both already validated).
    pub fn build(&self, variant: &str, params: &Params) -> ModelFn {
        match &self.main {
            Build::Rust(f) => f(variant, params),
            Build::Kernel(build) => build(params),
        }
    }

    /// The defaults, overridden by `given`.
    pub fn params(&self, given: &[(&'static str, i64)]) -> Params {
        let mut m: BTreeMap<&'static str, i64> =
            self.params.iter().map(|p| (p.name, p.default)).collect();
        for (k, v) in given {
            m.insert(k, *v);
        }
        Params(m)
    }

    pub fn variant(&self, name: &str) -> Option<&'static Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }
}
