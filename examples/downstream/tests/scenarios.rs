//! Every scenario file of this crate is a test, as in stalemate's own suite: each
//! engine must give the expected result, a violation's report is pinned by an insta
//! snapshot and replays byte for byte, a pass says what it explored.

use libtest_mimic::{Arguments, Trial};
use stalemate::scenario;
use stalemate::testing::{check_scenario, scenario_files};
use std::path::Path;

fn main() {
    stalemate::models::register(&downstream::MODEL).expect("a new model name");
    let args = Arguments::from_args();
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("cd to the crate");
    let trials = scenario_files(Path::new("scenarios"))
        .into_iter()
        .map(|(name, path)| {
            Trial::test(name, move || {
                let s = scenario::load(&path).map_err(|e| e.full())?;
                for (pin, report) in check_scenario(&s)? {
                    insta::assert_snapshot!(pin, report);
                }
                Ok(())
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
