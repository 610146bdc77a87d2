//! The model catalogue. Each model is a small port of a Go component's concurrency
//! skeleton; it knows the Go primitives and nothing of engines.

mod cache_sync_wait;
mod cacher_2015;
mod cacher_modern;
mod informer;
mod status_manager;

pub use crate::model::{Build, Model, Network, Param, Params, Variant};

pub static ALL: &[&Model] = &[
    &cacher_2015::MODEL,
    &informer::MODEL,
    &status_manager::MODEL,
    &cache_sync_wait::MODEL,
    &cacher_modern::MODEL,
];

/// Models a downstream crate added (`register`), after the catalogue's.
static REGISTERED: std::sync::Mutex<Vec<&'static Model>> = std::sync::Mutex::new(Vec::new());

/// Adds a model of the caller's own crate: scenario files may then name it, and the
/// CLI (`stalemate::cli::main`) lists it. A second model of the same name is refused.
pub fn register(m: &'static Model) -> Result<(), crate::Error> {
    let mut r = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    if ALL.iter().chain(r.iter()).any(|x| x.name == m.name) {
        if r.iter().any(|x| std::ptr::eq(*x, m)) {
            return Ok(());
        }
        return Err(crate::Error::DuplicateModel(format!(
            "a model named {} is registered already",
            m.name
        )));
    }
    r.push(m);
    Ok(())
}

/// The catalogue, then the registered models.
pub fn all() -> Vec<&'static Model> {
    let r = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    ALL.iter().copied().chain(r.iter().copied()).collect()
}

/// The catalogue's model of that name, or a registered one.
///
/// ```
/// let m = stalemate::models::find("cacher-2015").expect("in the catalogue");
/// assert!(m.variant("buggy").is_some() && m.variant("fixed").is_some());
/// let p = m.params(&[("watchers", 2)]);
/// assert_eq!(p.get("watchers"), 2);
/// assert!(stalemate::models::find("no-such-model").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Model> {
    all().into_iter().find(|m| m.name == name)
}

/// Model names, for error messages.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|m| m.name).collect()
}
