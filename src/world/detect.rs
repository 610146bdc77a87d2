//! What to say when no goroutine can run: the wait-for graph, its cycle, the verdict.
//!
//! - a cycle among blocked goroutines: `deadlock`, reported as that cycle;
//! - no cycle, but main itself is blocked: `deadlock` (Go's "all goroutines are asleep");
//! - no cycle and main has returned: `leak` (what goleak reports).
//!
//! And when an execution is cut at its step bound with goroutines still running
//! (`at_cut`): only what no running goroutine can change is a finding.

use super::state::*;
use crate::verdict::{Property, Violation, WaitGraph};

/// The live goroutines other than `g` that have used channel `o` the other way:
/// the ones that could complete `g`'s send or receive, with their role.
fn chan_peers(st: &State, g: Gid, o: Oid, dir: Dir) -> Vec<(Gid, &'static str)> {
    let ObjKind::Chan(c) = &st.objs[o].kind else {
        return Vec::new();
    };
    let (peers, role) = match dir {
        Dir::Send => (&c.receivers, "its receiver"),
        Dir::Recv => (&c.senders, "its sender"),
    };
    peers
        .iter()
        .filter(|&&p| p != g && st.gors[p].status != Status::Done)
        .map(|&p| (p, role))
        .collect()
}

/// The goroutines that could end `g`'s wait, each with what it has to do with it.
fn edges(st: &State, g: Gid) -> Vec<(Gid, String)> {
    match &st.gors[g].wait {
        Some(w) => edges_of(st, g, w),
        None => Vec::new(),
    }
}

/// The goroutines that could end `g`'s wait `wait`.
fn edges_of(st: &State, g: Gid, wait: &Wait) -> Vec<(Gid, String)> {
    let mut out = Vec::new();
    let held = |h: &Holder, how: &str| {
        let place = if h.func.is_empty() {
            String::new()
        } else {
            format!(" in {}", h.func)
        };
        (
            h.gid,
            format!(
                "{} (took it{how} at step {}{place})",
                st.name(h.gid),
                h.step + 1
            ),
        )
    };
    match wait {
        Wait::Lock(o) => {
            if let ObjKind::Mutex { holder: Some(h) } = &st.objs[*o].kind {
                out.push(held(h, ""));
            }
        }
        Wait::RLock(o) | Wait::WLock(o) => {
            if let ObjKind::RwMutex {
                writer,
                pending,
                readers,
            } = &st.objs[*o].kind
            {
                if let Some(h) = writer {
                    out.push(held(h, " for writing"));
                }
                if let Some(p) = pending
                    && *p != g
                {
                    out.push((
                        *p,
                        format!(
                            "{} (a writer waiting for it: Go lets no new reader in)",
                            st.name(*p)
                        ),
                    ));
                }
                if matches!(wait, Wait::WLock(_)) {
                    for h in readers {
                        out.push(held(h, " for reading"));
                    }
                }
            }
        }
        Wait::Once(o) => {
            if let ObjKind::Once {
                state: OnceState::Running(r),
            } = &st.objs[*o].kind
            {
                out.push((*r, format!("{} (running the Once's function)", st.name(*r))));
            }
        }
        Wait::Group(_) | Wait::Sleep(_) | Wait::Poll(_) | Wait::Bound => {}
        Wait::Cond(o) => {
            if let ObjKind::Cond { signallers, .. } = &st.objs[*o].kind {
                for &p in signallers {
                    if p != g && st.gors[p].status != Status::Done {
                        out.push((p, format!("{} (signals it)", st.name(p))));
                    }
                }
            }
        }
        Wait::Chan(cases) => {
            for (o, dir) in cases {
                for (p, role) in chan_peers(st, g, *o, *dir) {
                    out.push((p, format!("{} ({role})", st.name(p))));
                }
            }
        }
    }
    out.sort_by_key(|e| e.0);
    out.dedup_by_key(|e| e.0);
    out
}

/// "waits for lock watchCache (write)".
fn what(st: &State, w: &Wait) -> String {
    match w {
        Wait::Lock(o) => format!("lock {}", st.oname(*o)),
        Wait::RLock(o) => format!("lock {} (read)", st.oname(*o)),
        Wait::WLock(o) => format!("lock {} (write)", st.oname(*o)),
        Wait::Group(o) => {
            let n = match &st.objs[*o].kind {
                ObjKind::WaitGroup { count, .. } => *count,
                _ => 0,
            };
            format!("WaitGroup {} (counter {n})", st.oname(*o))
        }
        Wait::Once(o) => format!("Once {}", st.oname(*o)),
        Wait::Cond(o) => format!("Cond {}", st.oname(*o)),
        Wait::Sleep(d) => format!("the clock to reach {d:?}"),
        Wait::Bound => "nothing: it was cut at its step bound, and would run on".to_string(),
        Wait::Poll(site) => format!(
            "a change to what it polls in the loop at {site} (its last round read the same and changed nothing)"
        ),
        Wait::Chan(cases) if cases.is_empty() => "select {} (blocks forever)".to_string(),
        Wait::Chan(cases) => {
            let one = |(o, d): &(Oid, Dir)| {
                let c = match &st.objs[*o].kind {
                    ObjKind::Chan(c) => c,
                    _ => unreachable!("channel wait on a non-channel"),
                };
                match d {
                    Dir::Send if c.nil => {
                        format!("send on nil channel {} (blocks forever)", st.oname(*o))
                    }
                    Dir::Recv if c.nil => {
                        format!("receive from nil channel {} (blocks forever)", st.oname(*o))
                    }
                    Dir::Send if c.cap == 0 => {
                        format!("send on channel {} (unbuffered)", st.oname(*o))
                    }
                    Dir::Send => format!(
                        "send on channel {} (full, {}/{})",
                        st.oname(*o),
                        c.buf.len(),
                        c.cap
                    ),
                    Dir::Recv => format!("receive from channel {} (empty)", st.oname(*o)),
                }
            };
            if cases.len() == 1 {
                one(&cases[0])
            } else {
                let parts: Vec<String> = cases.iter().map(one).collect();
                format!("select {{ {} }}", parts.join(" | "))
            }
        }
    }
}

fn whose(st: &State, g: Gid) -> String {
    let funcs = &st.gors[g].funcs;
    if funcs.is_empty() {
        st.name(g).to_string()
    } else {
        format!("{} in {}", st.name(g), funcs.join(" > "))
    }
}

/// One line: who waits, in which function, for what, held by whom.
fn line(st: &State, g: Gid) -> String {
    match (&st.gors[g].status, &st.gors[g].wait) {
        (Status::Joining, _) => format!(
            "{} has returned and waits for the other goroutines",
            st.name(g)
        ),
        (_, Some(w)) => {
            let es = edges(st, g);
            let forever = |cases: &[(Oid, Dir)]| {
                cases
                    .iter()
                    .all(|(o, _)| matches!(&st.objs[*o].kind, ObjKind::Chan(c) if c.nil))
            };
            let by = if es.is_empty() {
                match w {
                    Wait::Cond(_) => " (signalled by nobody)".to_string(),
                    Wait::Chan(cases) if forever(cases) => String::new(),
                    Wait::Chan(cases) => {
                        let sends = cases.iter().all(|c| c.1 == Dir::Send);
                        let peer = if sends { "received from" } else { "sent on" };
                        format!(", and no live goroutine has ever {peer} it")
                    }
                    _ => String::new(),
                }
            } else {
                let names: Vec<&str> = es.iter().map(|e| e.1.as_str()).collect();
                let verb = if matches!(w, Wait::Chan(_) | Wait::Cond(_)) {
                    ""
                } else {
                    "held by "
                };
                format!(", {verb}{}", names.join(", "))
            };
            let on = if matches!(w, Wait::Cond(_)) {
                "on"
            } else {
                "for"
            };
            format!("{} waits {on} {}{by}", whose(st, g), what(st, w))
        }
        _ => format!("{} is {:?}", st.name(g), st.gors[g].status),
    }
}

/// The first cycle among blocked goroutines, scanning goroutines in order.
fn cycle(st: &State) -> Option<Vec<Gid>> {
    let blocked = |g: Gid| st.gors[g].status == Status::Blocked;
    first_cycle(st.gors.len(), blocked, |g| edges(st, g))
}

/// The first cycle of `n` goroutines' waits, scanning them in order: among those
/// `waits` picks, each edge (`next`) to one that can end the wait.
fn first_cycle(
    n: usize,
    waits: impl Fn(Gid) -> bool,
    next: impl Fn(Gid) -> Vec<(Gid, String)>,
) -> Option<Vec<Gid>> {
    for start in (0..n).filter(|&g| waits(g)) {
        // Follow edges depth-first from `start`, looking for a path back to it.
        let mut path = vec![start];
        let mut iters = vec![next(start).into_iter()];
        while let Some(it) = iters.last_mut() {
            match it.next() {
                Some((g, _)) if g == start => return Some(path),
                Some((g, _)) if waits(g) && g > start && !path.contains(&g) => {
                    path.push(g);
                    iters.push(next(g).into_iter());
                }
                Some(_) => {}
                None => {
                    iters.pop();
                    path.pop();
                }
            }
        }
    }
    None
}

/// The lock (or `Once`) `g` waits for, if it waits for one: blocked on it, or kept
/// back from trying it while it is held (`State::open`, dpor's rule). The goroutines
/// `edges_of` gives are then the only ones that can end its wait, as the holders (Go
/// lets any goroutine unlock a mutex; stalemate counts on the one that locked it, as
/// programs do in practice).
fn lock_wait(st: &State, g: Gid) -> Option<Wait> {
    let gor = &st.gors[g];
    match (gor.status, &gor.wait, gor.pending) {
        (
            Status::Blocked,
            Some(w @ (Wait::Lock(_) | Wait::RLock(_) | Wait::WLock(_) | Wait::Once(_))),
            _,
        ) => Some(w.clone()),
        (Status::Running | Status::Turn, None, Some(Pending::Lock(o))) if !st.open(g) => {
            Some(match st.objs[o].kind {
                ObjKind::RwMutex { .. } => Wait::WLock(o),
                _ => Wait::Lock(o),
            })
        }
        _ => None,
    }
}

/// The first cycle of goroutines each waiting for a lock the next one holds.
fn lock_cycle(st: &State) -> Option<Vec<(Gid, Wait)>> {
    let mut waits: Vec<Option<Wait>> = (0..st.gors.len()).map(|g| lock_wait(st, g)).collect();
    let c = first_cycle(
        waits.len(),
        |g| waits[g].is_some(),
        |g| waits[g].as_ref().map_or(Vec::new(), |w| edges_of(st, g, w)),
    )?;
    Some(
        c.into_iter()
            .filter_map(|g| Some((g, waits[g].take()?)))
            .collect(),
    )
}

/// The finding an execution cut at its step bound shows, if any, whatever the
/// goroutines still running go on to do: goroutines that wait in a cycle of locks
/// (each for one the next holds) are a `deadlock`, although Go's runtime, seeing
/// others run, says nothing and hangs them; goroutines blocked on what nothing that
/// can run reaches are a `leak` (`leaked`).
pub(super) fn at_cut(st: &mut State) -> Option<Violation> {
    if let Some(v) = lock_deadlock(st) {
        return Some(v);
    }
    let leaked = leaked(st)?;
    let stuck: Vec<Gid> = (0..st.gors.len())
        .filter(|&g| matches!(st.gors[g].status, Status::Blocked | Status::Joining))
        .collect();
    let names: Vec<&str> = leaked.iter().map(|&g| st.name(g)).collect();
    let mut v = Violation::new(
        Property::Leak,
        format!(
            "{} {} blocked forever: no goroutine that can still run reaches what {} on (the execution was cut at its step bound, {} steps, with others running on)",
            names.join(", "),
            if names.len() == 1 { "stays" } else { "stay" },
            if names.len() == 1 {
                "it waits"
            } else {
                "they wait"
            },
            st.max_steps
        ),
    );
    v.blocked = leaked.iter().map(|&g| line(st, g)).collect();
    v.graph = Some(Box::new(graph(st, &stuck, &[])));
    Some(v)
}

/// The objects a blocked goroutine waits on, for `leaked`: `None` if its wait ends
/// by itself (a sleep, a poll, a timer's channel: the clock goes on). A nil channel
/// is never ready: no one reaches it.
fn waits_on(st: &State, g: Gid) -> Option<Vec<Oid>> {
    let w = st.gors[g].wait.as_ref()?;
    if matches!(w, Wait::Sleep(_) | Wait::Poll(_) | Wait::Bound) {
        return None;
    }
    let objs = w.objects();
    match objs.iter().any(|&o| on_clock(st, o)) {
        true => None,
        false => Some(objs.into_iter().filter(|&o| !nil(st, o)).collect()),
    }
}

/// Whether the clock will send on channel `o` (a timer's or a ticker's).
fn on_clock(st: &State, o: Oid) -> bool {
    st.timers.iter().any(|t| t.1 == o) || st.armed.iter().any(|t| t.0 == o)
}

/// Whether `o` is a nil channel.
fn nil(st: &State, o: Oid) -> bool {
    matches!(&st.objs[o].kind, ObjKind::Chan(c) if c.nil)
}

/// Go's goroutine leak rule (Go 1.26's `goroutineleak` profile), at a cut: a goroutine
/// blocked on a primitive that no goroutine that can still run reaches is leaked. The
/// goroutines that can run are the roots; one blocked on what they reach may be woken,
/// so it is one too, until nothing changes. Needs what the model's code reaches
/// (`State::reach`, a kernel's); `None` without it, or if a goroutine that runs is one
/// neither it nor the library knows (an `AfterFunc` not yet fired).
fn leaked(st: &State) -> Option<Vec<Gid>> {
    let reach = st.reach.clone()?;
    let mut waiting: Vec<(Gid, Vec<Oid>)> = Vec::new();
    let mut roots: Vec<Gid> = Vec::new();
    for g in 0..st.gors.len() {
        match st.gors[g].status {
            // Main has returned (or is the one taking this step and running): its
            // stack holds nothing past its return.
            Status::Done | Status::Joining => {}
            Status::Blocked => match waits_on(st, g) {
                Some(objs) => waiting.push((g, objs)),
                None => roots.push(g),
            },
            // Kept back at a mutex, or at a channel (`State::held_at_chan`): it waits
            // there.
            Status::Running | Status::Turn => match (lock_wait(st, g), st.held_at_chan(g)) {
                (Some(Wait::Lock(o) | Wait::WLock(o)), _) | (_, Some(o)) => {
                    waiting.push((g, vec![o]))
                }
                // Kept back at a select (`State::held_at_select`): at its channels,
                // unless the clock will serve one.
                _ if st.held_at_select(g) => {
                    let objs: Vec<Oid> = st.gors[g].cases.iter().map(|c| c.0).collect();
                    match objs.iter().any(|&o| on_clock(st, o)) {
                        true => roots.push(g),
                        false => {
                            waiting.push((g, objs.into_iter().filter(|&o| !nil(st, o)).collect()))
                        }
                    }
                }
                _ => roots.push(g),
            },
        }
    }
    if waiting.is_empty() {
        return None;
    }
    let bufs: Vec<&(dyn std::any::Any + Send)> = st
        .objs
        .iter()
        .filter_map(|o| match &o.kind {
            ObjKind::Chan(c) => Some(c.buf.iter().map(|v| &*v.v)),
            _ => None,
        })
        .flatten()
        .collect();
    loop {
        let (mut seen, known) = reach(&roots, &bufs)?;
        for &g in &roots {
            match st.holds.get(&g) {
                Some(h) => seen.extend(h),
                None if known.contains(&g) => {}
                None => return None,
            }
        }
        let seen: std::collections::BTreeSet<Oid> = seen.into_iter().collect();
        let before = waiting.len();
        waiting.retain(|(g, objs)| {
            let woken = objs.iter().any(|o| seen.contains(o));
            if woken {
                roots.push(*g);
            }
            !woken
        });
        if waiting.is_empty() {
            return None;
        }
        if waiting.len() == before {
            return Some(waiting.into_iter().map(|w| w.0).collect());
        }
    }
}

/// Goroutines waiting in a cycle of locks.
fn lock_deadlock(st: &mut State) -> Option<Violation> {
    let c = lock_cycle(st)?;
    // The goroutines kept back wait as if they had tried: the report says so.
    for (g, w) in &c {
        if st.gors[*g].status != Status::Blocked {
            st.gors[*g].status = Status::Blocked;
            st.gors[*g].wait = Some(w.clone());
        }
    }
    let c: Vec<Gid> = c.into_iter().map(|(g, _)| g).collect();
    let stuck: Vec<Gid> = (0..st.gors.len())
        .filter(|&g| matches!(st.gors[g].status, Status::Blocked | Status::Joining))
        .collect();
    let names: Vec<&str> = c.iter().map(|&g| st.name(g)).collect();
    let detail = match names.as_slice() {
        [one] => format!("{one} waits for a lock it holds itself"),
        _ => format!(
            "{} wait for each other in a cycle of locks",
            names.join(", ")
        ),
    };
    let mut v = Violation::new(
        Property::Deadlock,
        format!(
            "{detail}, while other goroutines run on (the execution was cut at its step bound, {} steps)",
            st.max_steps
        ),
    );
    v.cycle = c.iter().map(|&g| line(st, g)).collect();
    v.blocked = stuck.iter().map(|&g| line(st, g)).collect();
    v.graph = Some(Box::new(graph(st, &stuck, &c)));
    Some(v)
}

/// The wait-for graph of the stuck goroutines: each goroutine → the objects it waits
/// on, each object → the goroutines that could release it.
fn graph(st: &State, stuck: &[Gid], cyc: &[Gid]) -> WaitGraph {
    let mut gr = WaitGraph::default();
    let gid = |g: Gid| format!("g{g}");
    let oid = |o: Oid| format!("o{o}");
    for &g in stuck {
        gr.node(gid(g), whose(st, g), true);
    }
    for &g in stuck {
        let Some(w) = &st.gors[g].wait else { continue };
        let objs: Vec<(Oid, &str)> = match w {
            Wait::Lock(o) => vec![(*o, "lock")],
            Wait::RLock(o) => vec![(*o, "lock (read)")],
            Wait::WLock(o) => vec![(*o, "lock (write)")],
            Wait::Group(o) => vec![(*o, "WaitGroup.Wait")],
            Wait::Once(o) => vec![(*o, "Once.Do")],
            Wait::Cond(o) => vec![(*o, "Cond.Wait")],
            Wait::Sleep(_) | Wait::Poll(_) | Wait::Bound => Vec::new(),
            Wait::Chan(cases) => cases
                .iter()
                .map(|(o, d)| (*o, if *d == Dir::Send { "send" } else { "receive" }))
                .collect(),
        };
        for (o, how) in &objs {
            gr.node(oid(*o), st.oname(*o).to_string(), false);
            gr.edge(gid(g), oid(*o), format!("waits: {how}"));
        }
        if let Wait::Chan(cases) = w {
            for (o, dir) in cases {
                for (p, role) in chan_peers(st, g, *o, *dir) {
                    gr.node(gid(p), whose(st, p), true);
                    gr.edge(oid(*o), gid(p), role.to_string());
                }
            }
        } else if let Some((o, _)) = objs.first() {
            let verb = if matches!(w, Wait::Cond(_)) {
                ""
            } else {
                "held by "
            };
            for (h, text) in edges(st, g) {
                gr.node(gid(h), whose(st, h), true);
                gr.edge(oid(*o), gid(h), format!("{verb}{text}"));
            }
        }
    }
    gr.cycle = cyc.iter().map(|&g| gid(g)).collect();
    gr
}

pub(super) fn analyze(st: &State) -> Violation {
    let stuck: Vec<Gid> = (0..st.gors.len())
        .filter(|&g| matches!(st.gors[g].status, Status::Blocked | Status::Joining))
        .collect();
    let all: Vec<String> = stuck.iter().map(|&g| line(st, g)).collect();
    let found = cycle(st);
    let gr = graph(st, &stuck, found.as_deref().unwrap_or(&[]));
    if let Some(c) = found {
        let names: Vec<&str> = c.iter().map(|&g| st.name(g)).collect();
        let detail = match names.as_slice() {
            [one] => format!("{one} waits for itself"),
            _ => format!("{} wait for each other in a cycle", names.join(", ")),
        };
        let mut v = Violation::new(Property::Deadlock, detail);
        v.cycle = c.iter().map(|&g| line(st, g)).collect();
        v.blocked = all;
        v.graph = Some(Box::new(gr));
        return v;
    }
    let main_blocked = st.gors[0].status == Status::Blocked;
    let polls: Vec<&str> = stuck
        .iter()
        .filter(|&&g| matches!(st.gors[g].wait, Some(Wait::Poll(_))))
        .map(|&g| st.name(g))
        .collect();
    let mut v = if main_blocked && !polls.is_empty() {
        // Go would run the polling goroutines forever: no runtime error, a hang.
        Violation::new(
            Property::Livelock,
            format!(
                "{} {} forever: what {} can no longer change, as every other goroutine is blocked{}",
                polls.join(", "),
                if polls.len() == 1 { "polls" } else { "poll" },
                if polls.len() == 1 {
                    "it reads"
                } else {
                    "they read"
                },
                if st.gors.iter().any(|g| g.status == Status::Done) {
                    " or done"
                } else {
                    ""
                }
            ),
        )
    } else if main_blocked {
        Violation::new(
            Property::Deadlock,
            "all goroutines are asleep, main among them, with no cycle (Go: fatal error: all goroutines are asleep - deadlock!)".into(),
        )
    } else {
        let names: Vec<&str> = stuck
            .iter()
            .filter(|&&g| g != 0)
            .map(|&g| st.name(g))
            .collect();
        Violation::new(
            Property::Leak,
            format!(
                "main has returned, and {} stay blocked forever",
                names.join(", ")
            ),
        )
    };
    v.blocked = all;
    v.graph = Some(Box::new(gr));
    v
}
