//! Every scenario file under `scenarios/` (`long/` aside) is a test, named after its file: `cargo test --test
//! scenarios cacher_2015_buggy` runs one. Each engine of the scenario must give the
//! expected result. A violation must be the expected one, its report is pinned by an
//! insta snapshot, and replaying it must give the same report byte for byte. A pass
//! must say how much was explored.

use libtest_mimic::{Arguments, Failed, Trial};
use stalemate::report::Property;
use stalemate::runner::{self, Verdict};
use stalemate::scenario::{self, Expect, Scenario};
use std::path::Path;

fn check(s: &Scenario) -> Result<(), Failed> {
    for (i, r) in runner::run(s).into_iter().enumerate() {
        let engine = r.engine.describe();
        if let Some(e) = &r.error {
            return Err(format!("engine {} ({engine}) failed: {e}", i + 1).into());
        }
        if r.verdict != Verdict::Ok {
            let report = r.found.as_ref().map_or(String::new(), |f| f.report.clone());
            return Err(format!(
                "engine {} ({engine}): expected {}, found {} after {}\n{report}",
                i + 1,
                s.expect,
                r.found_key(),
                r.coverage()
            )
            .into());
        }
        match (&s.expect, &r.found) {
            (Expect::Pass, None) => {
                // A pass states what was explored; an unbounded loom pass is a proof.
                assert!(
                    r.explored.executions > 0,
                    "a pass must have explored something"
                );
                if r.engine.proves() && r.explored.stop != stalemate::Stop::Exhausted {
                    return Err(format!("{engine} did not finish: {}", r.coverage()).into());
                }
                println!("  {} / {engine}: pass, {}", s.name, r.coverage());
            }
            (Expect::Violation(key), Some(f)) => {
                assert_eq!(&f.property.key(), key);
                let last = f.report.lines().last().unwrap_or_default();
                assert_eq!(
                    last.trim(),
                    f.replay,
                    "the report must end with its replay command"
                );
                assert!(
                    f.replay
                        .starts_with(&format!("stalemate replay {} --", s.path))
                );
                if f.property == Property::Deadlock
                    && !f.report.contains("all goroutines are asleep")
                {
                    assert!(
                        f.report.contains("\nwait-for cycle\n"),
                        "a deadlock report shows its cycle"
                    );
                }
                let again =
                    runner::replay_found(s, i + 1, f).map_err(|e| format!("replay: {e}"))?;
                assert!(again.reproduced, "replay diverged:\n{}", again.report);
                assert_eq!(
                    again.report, f.report,
                    "replay must reproduce the report byte for byte"
                );
                insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
                    insta::assert_snapshot!(format!("{}-{}", s.name, i + 1), f.report);
                });
            }
            _ => unreachable!("verdict Ok covers only matching outcomes"),
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let files = scenario::files(&[dir]).expect("scenarios/ is readable");
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("cd to the crate");
    let trials = files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&p)
                .to_path_buf();
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            Trial::test(name, move || {
                let s = scenario::load(&rel).map_err(|e| e.full())?;
                check(&s)
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
