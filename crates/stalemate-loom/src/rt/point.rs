//! stalemate: a point, an object that only DPOR sees (vendor/PATCHES.md, the seventh
//! change). A read conflicts with writes, a write with every access, as an atomic's
//! load and read-modify-write do; but a point holds no value and transfers no
//! causality, so it keeps no store history and no coherence state.

use crate::rt::atomic::Action;
use crate::rt::object;
use crate::rt::{self, Access, Location, VersionVec};

#[derive(Debug, Copy, Clone)]
pub(crate) struct Point {
    state: object::Ref<State>,
}

#[derive(Debug)]
pub(super) struct State {
    last_access: Option<Access>,
    last_write: Option<Access>,
}

impl Point {
    pub(crate) fn new() -> Point {
        rt::execution(|execution| Point {
            state: execution.objects.insert(State {
                last_access: None,
                last_write: None,
            }),
        })
    }

    pub(crate) fn read(self, location: Location) {
        self.state.branch_action(Action::Load, location);
    }

    pub(crate) fn write(self, location: Location) {
        self.state.branch_action(Action::Rmw, location);
    }
}

impl State {
    pub(super) fn last_dependent_access(&self, action: Action) -> Option<&Access> {
        match action {
            Action::Load => self.last_write.as_ref(),
            _ => self.last_access.as_ref(),
        }
    }

    pub(super) fn set_last_access(&mut self, action: Action, path_id: usize, version: &VersionVec) {
        Access::set_or_create(&mut self.last_access, path_id, version);
        if action != Action::Load {
            Access::set_or_create(&mut self.last_write, path_id, version);
        }
    }
}
