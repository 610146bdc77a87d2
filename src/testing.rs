//! Scenario files as tests, for stalemate's own suite and a downstream crate's alike:
//! [`check_scenario`] runs every engine of a scenario and checks everything a scenario
//! test checks except the snapshot, which it returns for the caller's `insta`.

use crate::report::Property;
use crate::runner::{self, Verdict};
use crate::scenario::{Expect, Scenario};
use crate::{Stop, scenario};
use std::path::{Path, PathBuf};

/// Every scenario file under `dir` (`long/` aside), with the test name of each: its
/// file stem.
pub fn scenario_files(dir: &Path) -> Vec<(String, PathBuf)> {
    scenario::files(&[dir.to_path_buf()])
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|p| {
            let name = p
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            (name, p)
        })
        .collect()
}

/// Checks one scenario: each engine gives the expected result; a violation is the
/// expected one, its report ends with its replay command, and replaying it gives the
/// same report byte for byte; a pass says what it explored, and a pass of an engine
/// that proves (`Engine::proves`) must have exhausted its tree. Returns the reports to
/// pin, named `<scenario>-<engine number>`.
pub fn check_scenario(s: &Scenario) -> Result<Vec<(String, String)>, crate::Error> {
    check(s).map_err(crate::Error::Check)
}

fn check(s: &Scenario) -> Result<Vec<(String, String)>, String> {
    let mut pins = Vec::new();
    for (i, r) in runner::run(s).into_iter().enumerate() {
        let engine = r.engine.describe();
        if let Some(e) = &r.error {
            return Err(format!("engine {} ({engine}) failed: {e}", i + 1));
        }
        if r.verdict != Verdict::Ok {
            let report = r.found.as_ref().map_or(String::new(), |f| f.report.clone());
            return Err(format!(
                "engine {} ({engine}): expected {}, found {} after {}\n{report}",
                i + 1,
                s.expect,
                r.found_key(),
                r.coverage()
            ));
        }
        match (&s.expect, &r.found) {
            (Expect::Pass, None) => {
                if r.explored.executions == 0 {
                    return Err(format!("{engine}: a pass must have explored something"));
                }
                if r.engine.proves() && r.explored.stop != Stop::Exhausted {
                    return Err(format!("{engine} did not finish: {}", r.coverage()));
                }
                println!("  {} / {engine}: pass, {}", s.name, r.coverage());
            }
            (Expect::Violation(key), Some(f)) => {
                if f.property.key() != *key {
                    return Err(format!("found {}, expected {key}", f.property.key()));
                }
                let last = f.report.lines().last().unwrap_or_default();
                if last.trim() != f.replay {
                    return Err("the report must end with its replay command".into());
                }
                if !f
                    .replay
                    .starts_with(&format!("stalemate replay {} --", s.path))
                {
                    return Err(format!(
                        "the replay command names another file: {}",
                        f.replay
                    ));
                }
                if f.property == Property::Deadlock
                    && !f.report.contains("all goroutines are asleep")
                    && !f.report.contains("\nwait-for cycle\n")
                {
                    return Err("a deadlock report shows its cycle".into());
                }
                let again =
                    runner::replay_found(s, i + 1, f).map_err(|e| format!("replay: {e}"))?;
                if !again.reproduced {
                    return Err(format!("replay diverged:\n{}", again.report));
                }
                if again.report != f.report {
                    return Err(format!(
                        "replay must reproduce the report byte for byte; it printed:\n{}",
                        again.report
                    ));
                }
                pins.push((format!("{}-{}", s.name, i + 1), f.report.clone()));
            }
            _ => return Err("a verdict of Ok covers only matching outcomes".into()),
        }
    }
    Ok(pins)
}
