//! Every scenario file under `scenarios/` (`long/` aside) is a test, named after its file: `cargo test --test
//! scenarios cacher_2015_buggy` runs one. Each engine of the scenario must give the
//! expected result. A violation must be the expected one, its report is pinned by an
//! insta snapshot, and replaying it must give the same report byte for byte. A pass
//! must say how much was explored.

use libtest_mimic::{Arguments, Trial};
use stalemate::explore::Engine;
use stalemate::scenario;
use stalemate::testing::{check_scenario, scenario_files};
use std::path::Path;

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("cd to the crate");
    let trials: Vec<Trial> = scenario_files(&dir)
        .into_iter()
        .map(|(name, p)| {
            let rel = p
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&p)
                .to_path_buf();
            Trial::test(name, move || {
                let s = scenario::load(&rel).map_err(|e| e.full())?;
                for (pin, report) in check_scenario(&s)? {
                    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
                        insta::assert_snapshot!(pin, report);
                    });
                }
                Ok(())
            })
        })
        .chain([Trial::test("long_files_are_proofs_that_load", long_files)])
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// `scenarios/long/` is outside the suite (each file runs for minutes), so nothing runs
/// its files; this checks that each still loads (model, variant, parameters), expects a
/// pass from exhaustive engines only, and names the command that runs it.
fn long_files() -> Result<(), libtest_mimic::Failed> {
    let dir = Path::new("scenarios/long");
    let mut names: Vec<_> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    names.sort();
    let mut seen = 0;
    for p in names
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
    {
        let s = scenario::load(p).map_err(|e| e.full())?;
        let shown = p.display();
        if s.expect != scenario::Expect::Pass {
            return Err(format!("{shown}: a long file is a proof, it expects {}", s.expect).into());
        }
        for e in &s.engines {
            let exhaustive = match &e.engine {
                Engine::Dpor | Engine::Dfs | Engine::Stateful => true,
                Engine::Loom {
                    preemption_bound, ..
                } => preemption_bound.is_none(),
                _ => false,
            };
            if !exhaustive {
                return Err(format!("{shown}: {} cannot prove", e.engine.describe()).into());
            }
        }
        let run = format!("cargo run --release -- run {shown}");
        if !s.description.contains(&run) {
            return Err(format!("{shown}: its description does not say `{run}`").into());
        }
        seen += 1;
    }
    if seen == 0 {
        return Err("no file under scenarios/long".into());
    }
    Ok(())
}
