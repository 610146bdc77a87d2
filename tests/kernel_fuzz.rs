//! Mutated kernels (truncated, lines deleted, swapped or duplicated, calls renamed to
//! unknown ones) are refused with a file:line:column error or run within their bounds:
//! never a panic of stalemate's own, never a hang. (A mutant only a type checker would
//! refuse stops as the interpreter's named crash, "outside the subset".)

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use stalemate::report::Property;
use stalemate::{runner, scenario};
use std::path::{Path, PathBuf};
mod common;

fn kernels() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in ["scenarios/goker", "tests/kernels"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "go") {
                v.push(e.path());
            }
        }
    }
    v.sort();
    v
}

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Delete(usize),
    Swap(usize, usize),
    Duplicate(usize),
    /// Renames the n-th call `name(` to one no package or kernel has.
    Rename(usize, &'static str),
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines.len().max(1);
    match m {
        Mutation::Truncate(at) => {
            let mut i = at % (text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            return text[..i].to_string();
        }
        Mutation::Delete(i) => {
            lines.remove(i % n);
        }
        Mutation::Swap(i, j) => lines.swap(i % n, j % n),
        Mutation::Duplicate(i) => {
            let l = lines[i % n];
            lines.insert(i % n, l);
        }
        Mutation::Rename(k, to) => {
            let calls: Vec<usize> = text
                .match_indices('(')
                .map(|(i, _)| i)
                .filter(|&i| i > 0 && text.as_bytes()[i - 1].is_ascii_alphanumeric())
                .collect();
            if calls.is_empty() {
                return text.to_string();
            }
            let at = calls[k % calls.len()];
            let start = text[..at]
                .rfind(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .map_or(0, |i| i + 1);
            return format!("{}{to}{}", &text[..start], &text[at..]);
        }
    }
    lines.join("\n")
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        any::<usize>().prop_map(Mutation::Duplicate),
        (
            any::<usize>(),
            prop_oneof![Just("frobnicate"), Just("Lock"), Just("close")]
        )
            .prop_map(|(k, to)| Mutation::Rename(k, to)),
    ]
}

proptest! {
    // A fixed seed: the same mutants in every run (STALEMATE_FUZZ_SEED picks others).
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(
            common::env_or("STALEMATE_FUZZ_SEED", 0x6b65_726e),
        ),
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_mutated_kernel_is_an_error_or_a_bounded_run(k in 0usize..64, m in mutation()) {
        let all = kernels();
        let src = &all[k % all.len()];
        let text = mutate(&std::fs::read_to_string(src).unwrap(), &m);
        let dir = std::env::temp_dir().join(format!("stalemate-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mutant.go");
        std::fs::write(&file, &text).unwrap();
        let toml = format!(
            "go = {:?}\nexpect = \"pass\"\n[bounds]\nmax_steps = 300\ntime_limit_secs = 20\n\
             [[engine]]\nkind = \"shuttle-random\"\nseed = 1\niterations = 3\n",
            file.display().to_string()
        );
        match scenario::parse(&dir.join("fuzz.toml").display().to_string(), &toml) {
            Err(e) => {
                // A refusal names the kernel file, a line and a column.
                prop_assert!(e.path.ends_with("mutant.go"), "{}", e.full());
                prop_assert!(e.line >= 1 && e.col >= 1, "{}", e.full());
            }
            Ok(s) => {
                for r in runner::run(&s) {
                    prop_assert!(r.error.is_none(), "{m:?}: engine error {:?}\n{text}", r.error);
                    if let Some(f) = &r.found {
                        // A kernel Go's compiler would refuse (a field its type lacks) may
                        // stop as the interpreter's named crash; anything else is a bug.
                        let refused = f.report.contains("crashed: outside the subset stalemate interprets: ");
                        prop_assert!(f.property != Property::Crash || refused, "{m:?}: stalemate itself panicked:\n{}\n{text}", f.report);
                    }
                }
            }
        }
    }
}
