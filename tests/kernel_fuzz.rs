//! Mutated kernels (truncated, lines deleted, swapped or duplicated, calls renamed to
//! unknown ones, and code grafted in that builds cyclic values and prints them,
//! recurses without end, loops forever or grows a value past any memory) are refused
//! with a file:line:column error or run within their bounds: never a panic of
//! stalemate's own, never a hang. (A mutant only a type checker would refuse stops as
//! the interpreter's named crash, "outside the subset".)
//!
//! `STALEMATE_FUZZ_CASES=N` sets the number of mutants (256 by default) and
//! `STALEMATE_FUZZ_SEED=S` picks other ones: docs/testing.md gives the campaign.

use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError, TestRunner};
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
    /// Grafts `GRAFTS[i]` in: its declarations at the end, its call first in the entry.
    Graft(usize),
}

/// Code that stresses the interpreter, each with its declarations and its call.
const GRAFTS: &[(&str, &str)] = &[
    // A value that points to itself, printed, copied and used as a map key.
    (
        "type fuzzRing struct {\n\tnext  *fuzzRing\n\tpeers map[string]*fuzzRing\n\tv     int\n}\n\n\
         func fuzzCycle() {\n\tr := &fuzzRing{v: 1, peers: map[string]*fuzzRing{}}\n\tr.next = r\n\t\
         r.peers[\"self\"] = r\n\t_ = fmt.Sprintf(\"%v %+v %v %p %T\", r, *r, r.peers, r, r)\n\t\
         c := *r\n\tseen := map[*fuzzRing]bool{r: true, r.next: true}\n\t_ = len(seen) + c.v\n}\n",
        "fuzzCycle()",
    ),
    // Recursion without end: Go's stack overflow, a fatal error.
    (
        "func fuzzDeep(n int) int {\n\tif n < 0 {\n\t\treturn 0\n\t}\n\treturn fuzzDeep(n+1) + 1\n}\n",
        "_ = fuzzDeep(0)",
    ),
    // A goroutine that loops for ever with no Go operation in its loop.
    (
        "func fuzzSpin() {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n",
        "go fuzzSpin()",
    ),
    // The same on the entry's own goroutine.
    ("func fuzzBusy() {\n\tfor {\n\t}\n}\n", "fuzzBusy()"),
    // A string and a slice that double past any memory.
    (
        "func fuzzHuge() {\n\ts := \"ab\"\n\txs := []int{1}\n\tfor i := 0; i < 64; i++ {\n\t\t\
         xs = append(xs, xs...)\n\t\ts += s\n\t}\n\tprintln(len(s), len(xs))\n}\n",
        "fuzzHuge()",
    ),
    // Output without end.
    (
        "func fuzzChatter() {\n\tfor i := 0; ; i++ {\n\t\tfmt.Println(\"line\", i, strings.Repeat(\"x\", 64))\n\t}\n}\n",
        "go fuzzChatter()",
    ),
    // A generic type that holds itself, instantiated and printed.
    (
        "type fuzzList[T any] struct {\n\tv    T\n\tnext *fuzzList[T]\n}\n\n\
         func fuzzGeneric[T any](v T) *fuzzList[T] {\n\tl := &fuzzList[T]{v: v}\n\tl.next = l\n\t\
         _ = fmt.Sprint(l, *l)\n\treturn l\n}\n",
        "_ = fuzzGeneric(1).next.next.v",
    ),
];

/// `text` with `GRAFTS[i]` in it, and the imports its code uses.
fn graft(text: &str, i: usize) -> String {
    let (decls, call) = GRAFTS[i % GRAFTS.len()];
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let entry = lines.iter().position(|l| {
        l.starts_with("func main() {") || (l.starts_with("func Test") && l.ends_with('{'))
    });
    if let Some(at) = entry {
        lines.insert(at + 1, format!("\t{call}"));
    }
    if let Some(pkg) = lines.iter().position(|l| l.starts_with("package ")) {
        for imp in ["fmt", "strings"] {
            let quoted = format!("\"{imp}\"");
            if decls.contains(&format!("{imp}.")) && !text.contains(&quoted) {
                lines.insert(pkg + 1, format!("import {quoted}"));
            }
        }
    }
    lines.push(String::new());
    lines.push(decls.to_string());
    lines.join("\n")
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines.len().max(1);
    // A line mutation of an empty text (a truncated one) leaves it empty.
    if lines.is_empty() && !matches!(m, Mutation::Truncate(_) | Mutation::Graft(_)) {
        return text.to_string();
    }
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
        Mutation::Graft(i) => return graft(text, *i),
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
        any::<usize>().prop_map(Mutation::Graft),
    ]
}

/// One mutation, or two in a row (a graft, then a line deleted or swapped in it).
fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..=2)
}

/// How a mutant ended (refused, or the run's finding: `pass` for none), and the
/// finding's report.
fn run_mutant(text: &str, what: &str) -> Result<(String, String), TestCaseError> {
    // A directory per mutant: the tests run on threads of one process.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("stalemate-fuzz-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    struct Gone(PathBuf);
    impl Drop for Gone {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let _gone = Gone(dir.clone());
    let file = dir.join("mutant.go");
    std::fs::write(&file, text).unwrap();
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
            Ok(("refused".into(), e.full()))
        }
        Ok(s) => {
            let mut out = "pass".to_string();
            let mut report = String::new();
            for r in runner::run(&s) {
                prop_assert!(
                    r.error.is_none(),
                    "{what}: engine error {:?}\n{text}",
                    r.error
                );
                if let Some(f) = &r.found {
                    // A kernel Go's compiler would refuse (a field its type lacks) may
                    // stop as the interpreter's named crash; anything else is a bug.
                    let refused = f
                        .report
                        .contains("crashed: outside the subset stalemate interprets: ");
                    prop_assert!(
                        f.property != Property::Crash || refused,
                        "{what}: stalemate itself panicked:\n{}\n{text}",
                        f.report
                    );
                    out = if refused {
                        "crash (outside the subset)".into()
                    } else {
                        r.found_key()
                    };
                    report = f.report.clone();
                } else if r.explored.cut > 0 {
                    out = "pass, cut at the step bound".into();
                }
            }
            Ok((out, report))
        }
    }
}

/// Each graft alone, on a kernel that is otherwise quiet, ends as Go would (or at
/// stalemate's bound, where Go would run out of stack or memory, or run for ever).
#[test]
fn each_graft_ends_within_its_bounds() {
    let base = "package main\n\nfunc main() {\n}\n";
    let want = [
        ("pass", ""),
        (
            "violation:panic",
            "stack overflow: more than 200 nested calls",
        ),
        ("pass, cut at the step bound", ""),
        // A loop that changes nothing, with no other goroutine: a poll without end.
        ("livelock", "main polls forever"),
        (
            "violation:panic",
            "runtime: out of memory: a string of 2097152 bytes",
        ),
        ("pass, cut at the step bound", ""),
        ("pass", ""),
    ];
    assert_eq!(want.len(), GRAFTS.len());
    for (i, (key, says)) in want.iter().enumerate() {
        let text = graft(base, i);
        let (got, report) = run_mutant(&text, &format!("graft {i}")).unwrap();
        assert_eq!(&got, key, "graft {i}:\n{text}\n{report}");
        assert!(
            report.contains(says),
            "graft {i}: wanted `{says}` in\n{report}"
        );
    }
}

#[test]
fn a_mutated_kernel_is_an_error_or_a_bounded_run() {
    // A fixed seed: the same mutants in every run (STALEMATE_FUZZ_SEED picks others).
    let config = ProptestConfig {
        cases: common::env_or("STALEMATE_FUZZ_CASES", 256),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(common::env_or("STALEMATE_FUZZ_SEED", 0x6b65_726e)),
        ..ProptestConfig::default()
    };
    let census = std::cell::RefCell::new(std::collections::BTreeMap::<String, usize>::new());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&(0usize..1024, mutations()), |(k, m)| {
        let all = kernels();
        let src = &all[k % all.len()];
        let mut text = std::fs::read_to_string(src).unwrap();
        for one in &m {
            text = mutate(&text, one);
        }
        let (end, _) = run_mutant(&text, &format!("{} {m:?}", src.display()))?;
        *census.borrow_mut().entry(end).or_default() += 1;
        Ok(())
    });
    // The census: how the mutants ended (`--nocapture` shows it).
    for (end, n) in census.borrow().iter() {
        println!("{n:>6}  {end}");
    }
    if let Err(e) = result {
        panic!("{e}");
    }
}
