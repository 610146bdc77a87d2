//! Every scenario file under `scenarios/` (`long/` aside) is a test, named after its file: `cargo test --test
//! scenarios cacher_2015_buggy` runs one. Each engine of the scenario must give the
//! expected result. A violation must be the expected one, its report is pinned by an
//! insta snapshot, and replaying it must give the same report byte for byte. A pass
//! must say how much was explored.

use libtest_mimic::{Arguments, Trial};
use stalemate::scenario;
use stalemate::testing::{check_scenario, scenario_files};
use std::path::Path;

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("cd to the crate");
    let trials = scenario_files(&dir)
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
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
