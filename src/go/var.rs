//! A plain shared variable: Go code that reads or writes a field without a lock.
//! Each access is a scheduling point, and the race detector checks it: two accesses,
//! one a write, that no lock, channel, WaitGroup, Once or `go` statement orders, are a
//! `data-race` (what Go's race detector reports).

use super::{Go, Obj};
use crate::report::{Property, Violation};
use crate::world::say;
use crate::world::{Access, Attempt, ObjKind, State, VarState};
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

/// A plain variable holding `T`.
pub struct Var<T> {
    o: Arc<Obj>,
    v: Arc<Mutex<T>>,
}

impl<T> Clone for Var<T> {
    fn clone(&self) -> Self {
        Var {
            o: self.o.clone(),
            v: self.v.clone(),
        }
    }
}

impl Go {
    /// A plain shared variable, named as the Go field it models.
    pub fn var<T: Clone + Debug + Send + 'static>(&self, name: &str, init: T) -> Var<T> {
        Var {
            o: self.obj(name, ObjKind::Var(VarState::default())),
            v: Arc::new(Mutex::new(init)),
        }
    }
}

fn race(
    st: &State,
    name: &str,
    prior: &Access,
    now: &Access,
    prior_writes: bool,
    writes: bool,
) -> Violation {
    let verb = |w: bool| if w { "wrote" } else { "read" };
    let place = |a: &Access| {
        if a.func.is_empty() {
            String::new()
        } else {
            format!(" in {}", a.func)
        }
    };
    Violation::new(
        Property::DataRace,
        format!(
            "{} {} {name} at step {}{}; {} {} it at step {}{}; nothing orders the two",
            st.name(prior.gid),
            verb(prior_writes),
            prior.step + 1,
            place(prior),
            st.name(now.gid),
            verb(writes),
            now.step + 1,
            place(now),
        ),
    )
}

/// Checks an access against the variable's history and records it.
fn check(st: &mut State, me: usize, id: usize, writes: bool) -> Option<Violation> {
    let now = st.access(me);
    let name = st.oname(id).to_string();
    let ObjKind::Var(v) = &st.objs[id].kind else {
        unreachable!()
    };
    let mut found = None;
    if st.check_races {
        if let Some(w) = &v.last_write
            && !st.happened_before(w, me)
        {
            found = Some(race(st, &name, w, &now, true, writes));
        } else if writes && let Some(r) = v.reads.iter().find(|r| !st.happened_before(r, me)) {
            found = Some(race(st, &name, r, &now, false, true));
        }
    }
    if found.is_some() {
        // A failing step changes nothing (see `World::fail_with`).
        return found;
    }
    let ObjKind::Var(v) = &mut st.objs[id].kind else {
        unreachable!()
    };
    if writes {
        v.last_write = Some(now);
        v.reads.clear();
    } else {
        v.reads.retain(|r| r.gid != me);
        v.reads.push(now);
    }
    found
}

impl<T: Clone + Debug + Send + 'static> Var<T> {
    pub fn get(&self) -> T {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let v = self.v.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let text = say!(st, "read {} ({v:?})", st.oname(o.id));
            match check(st, me, o.id, false) {
                Some(race) => Attempt::Fail(race, text),
                None => Attempt::Done(v, text),
            }
        })
    }

    pub fn set(&self, v: T) {
        let o = &self.o;
        o.w.op(&[o], |st, me| {
            let text = say!(st, "write {} = {v:?}", st.oname(o.id));
            match check(st, me, o.id, true) {
                Some(race) => Attempt::Fail(race, text),
                None => {
                    *self.v.lock().unwrap_or_else(|e| e.into_inner()) = v.clone();
                    Attempt::Done((), text)
                }
            }
        })
    }
}
