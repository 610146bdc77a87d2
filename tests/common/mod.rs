//! What the command-line tests share: running the binary from the crate's root.

use std::collections::BTreeSet;
use std::process::{Command, Output};

/// The environment variable `name` parsed, or `default` if it is unset or does not
/// parse: how campaigns change a test's seed or size.
#[allow(dead_code)] // not every test crate reads one
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `stalemate` with `args` in the crate's root.
#[allow(dead_code)] // not every test crate runs the binary
pub fn stalemate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stalemate"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run stalemate")
}

/// stdout, then stderr.
#[allow(dead_code)] // each test crate compiles this module; not every one reads text
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Outcomes as a goroutine can tell them apart, each goroutine's steps by its name:
/// without the steps of an attempt that
/// waited for a mutex or a WaitGroup (`lock m0: held by g1, waits`, `wait wg: counter
/// 2, waits`), with a released Wait as any Wait, and without the counter a `Done`
/// left (Go's `Done` returns nothing; reports print it), nor how full a buffer was at
/// a send or receive (`send on c (buffer 1/2)`). dpor keeps a lock attempt back
/// until the mutex is free (`Pending::Lock`) and lets Dones commute
/// (`Pending::Done`) and buffered sends and receives commute (`Mode::Buffered`), so it
/// never takes some of those steps in some orders. Likewise a plain send or receive
/// reads as the operation alone, whichever side waited: dpor never reverses the two
/// halves of a hand-off at an unbuffered channel (`Mode::Hand`), and keeps a receive
/// at an empty buffer back until a value is there (`held_at_chan`); the value the
/// receiver gets is noted apart.
#[allow(dead_code)] // not every test crate compares outcomes
pub fn unwaited(outcomes: &BTreeSet<String>) -> BTreeSet<String> {
    outcomes
        .iter()
        .map(|o| {
            o.lines()
                .map(|l| {
                    let (who, steps) = l.split_once(": ").unwrap_or((l, ""));
                    let kept: Vec<String> = steps
                        .split(" / ")
                        .filter(|s| {
                            !(s.ends_with(", waits")
                                && (s.starts_with("lock ") || s.starts_with("wait ")))
                                && !(chan_op(s) && s.ends_with(": waits"))
                                && !(s.starts_with("select { ")
                                    && (s.ends_with(" }: waits")
                                        || s.ends_with(" that came after it: waits")))
                        })
                        .map(|s| {
                            let s = plain_chan_op(&select_op(s));
                            // A send, a select's send case included, handed to a
                            // waiting receive: at a buffered channel the receive is
                            // kept back (`held_at_chan`) and comes after the value is
                            // in the buffer; at an unbuffered one the send could have
                            // waited instead (`Mode::Hand`). It gets the same value.
                            let s = match s.rsplit_once(": handed to ") {
                                Some((op, who)) if !who.contains(':') => op.to_string(),
                                _ => s,
                            };
                            let s = s.replace(" (released at zero)", "");
                            // How full a buffer was at a send or receive that did not
                            // wait: no goroutine sees it but through `len`, which
                            // orders it (`Mode::Buffered`).
                            let s = match s.find(" (buffer ") {
                                Some(i) if s.ends_with(')') => s[..i].to_string(),
                                _ => s,
                            };
                            match s.find(" (counter ") {
                                Some(i) if s.starts_with("done ") => s[..i].to_string(),
                                _ => s,
                            }
                        })
                        .collect();
                    format!("{who}: {}", one_round(kept).join(" / "))
                })
                // By name: goroutines started by different goroutines are numbered in
                // the order they started, which is no behaviour.
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// A select's step that was completed while it waited, read as the step that found
/// the case ready: which case, and whether it found the channel closed, not who was
/// there. Whether a select waited no goroutine can tell, as for a plain operation
/// (`Mode::Hand`); what another goroutine's try saw of it is in that one's steps.
fn select_op(s: &str) -> String {
    let Some((cases, how)) = s
        .strip_prefix("select { ")
        .and_then(|r| r.split_once(" }: "))
    else {
        return s.to_string();
    };
    let list: Vec<&str> = cases.split(" | ").collect();
    let op = |i: &str| {
        i.parse::<usize>().ok().and_then(|i| {
            list.get(i.wrapping_sub(1))
                .map(|op| format!("case {i} {op}"))
        })
    };
    let how = if let Some(h) = how.strip_suffix(" completed by another goroutine") {
        h.strip_prefix("case ").and_then(op)
    } else if let Some(h) = how.strip_suffix(" channel closed by another goroutine") {
        h.strip_prefix("case ")
            .and_then(op)
            .map(|o| format!("{o}: closed"))
    } else {
        match how.rsplit_once(": from ") {
            Some((h, who)) if !who.contains(':') => Some(h.to_string()),
            _ => None,
        }
    };
    match how {
        Some(how) => format!("select {{ {cases} }}: {how}"),
        None => s.to_string(),
    }
}

/// A generated polling loop that never waited: its identical failed rounds right
/// before the one that saw something, the round before its note, as one. A round is
/// a channel's try (`polled ...`) or a variable's lock, read and unlock (`xN became
/// ...`). DFS may run more of them than an engine whose poller waits after fewer.
fn never_waited(mut steps: Vec<String>) -> Vec<String> {
    let round = |s: &String| {
        if s.starts_with("polled ") {
            Some(1)
        } else if s.starts_with('x') && s.contains(" became ") {
            Some(3)
        } else {
            None
        }
    };
    let mut end = steps.len();
    while let Some(q) = steps[..end].iter().rposition(|s| round(s).is_some()) {
        let len = round(&steps[q]).expect("a note");
        end = q;
        // The round before the one that saw something: a variable's begins and ends
        // with the same lock and unlock.
        let failed = |last: usize| {
            len == 1 || (steps[last] == steps[q - len] && steps[last + len - 1] == steps[q - 1])
        };
        if q >= 2 * len && failed(q - 2 * len) {
            let last = q - 2 * len;
            let mut first = last;
            while first >= len && steps[first - len..first] == steps[last..last + len] {
                first -= len;
            }
            steps.drain(first..last);
            // An earlier poll's note may end the round kept: look from its end.
            end = first + len;
        }
    }
    steps
}

/// Whether step `s` is a plain send or receive (not a select's case).
fn chan_op(s: &str) -> bool {
    s.starts_with("send on ") || s.starts_with("receive from ")
}

/// A plain send or receive that waited and was completed, or that found its partner
/// waiting: the operation alone (or that it found the channel closed). A send handed
/// to a waiting receive is `unwaited`'s, for select cases too.
fn plain_chan_op(s: &str) -> String {
    if !chan_op(s) {
        return s.to_string();
    }
    let Some((op, how)) = s.split_once(": ") else {
        return s.to_string();
    };
    match how {
        "case 1 completed by another goroutine" => op.to_string(),
        "case 1 channel closed by another goroutine" => format!("{op}: closed"),
        _ if how.starts_with("from ") && !how.contains(':') => op.to_string(),
        _ => s.to_string(),
    }
}

/// A goroutine's steps with each run of identical polling rounds (up to four steps
/// each, and a poll's own wait) as one round: how many times a polling loop went round
/// before it saw what it waited for is no behaviour (Go's scheduler decides it), and
/// each engine stops a round that saw nothing new at a different count
/// (`World::poll`). Only a goroutine that polled has rounds: its steps name a poll's
/// wait. Any other goroutine's steps are kept as they are, so two receives of one
/// value in a row stay two, but for a generated polling loop that never waited
/// (`never_waited`).
#[allow(dead_code)]
fn one_round(steps: Vec<String>) -> Vec<String> {
    let is_poll = |s: &String| {
        s.starts_with("polls in the loop at ") || s.starts_with("polls again in the loop at ")
    };
    if !steps.iter().any(is_poll) {
        return never_waited(steps);
    }
    let mut steps: Vec<String> = steps.into_iter().filter(|s| !is_poll(s)).collect();
    for len in 1..=4 {
        let mut i = 0;
        while i + 2 * len <= steps.len() {
            if steps[i..i + len] == steps[i + len..i + 2 * len] {
                steps.drain(i + len..i + 2 * len);
            } else {
                i += 1;
            }
        }
    }
    steps
}
