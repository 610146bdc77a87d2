//! The house's layering: imports between `src/`'s top-level modules point one way. A
//! module's imports are the `crate::<module>` paths in its files (comments left out);
//! this test fails, naming the circle, when two modules reach each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ readable")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file belongs to (`src/world/state.rs` → `world`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src/");
    let first = rel.components().next().expect("a component");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

/// The modules named after `crate::` in `code`, including inside `crate::{a, b::c}`.
fn imports(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let body = &group[..group.find('}').unwrap_or(group.len())];
            // Each item of the group starts a path: `a`, `b::c`, `self`.
            for item in body.split(',') {
                let name = ident(item.trim());
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(&src, f))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(&src, f);
        if !modules.contains(&m) {
            continue;
        }
        let code = without_comments(&std::fs::read_to_string(f).expect("readable"));
        let deps = g.entry(m.clone()).or_default();
        for d in imports(&code) {
            if d != m && modules.contains(&d) {
                deps.insert(d);
            }
        }
    }
    g
}

/// A path from `from` to `to`, if there is one.
fn path(g: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![vec![from.to_string()]];
    while let Some(p) = stack.pop() {
        let last = p.last().expect("non-empty").clone();
        if last == to && p.len() > 1 {
            return Some(p);
        }
        if !seen.insert(last.clone()) {
            continue;
        }
        for n in g.get(&last).into_iter().flatten() {
            let mut q = p.clone();
            q.push(n.clone());
            stack.push(q);
        }
    }
    None
}

#[test]
fn no_module_imports_one_that_imports_it() {
    let g = graph();
    assert!(g.len() >= 15, "the scan found the modules: {g:?}");
    // The layering the layout promises, checked as facts first.
    for (low, high) in [
        ("world", "report"),
        ("verdict", "world"),
        ("model", "models"),
    ] {
        assert!(
            !g[low].contains(high),
            "{low} must not import {high}: {:?}",
            g[low]
        );
    }
    for m in g.keys() {
        if let Some(circle) = path(&g, m, m) {
            panic!("an import circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn the_scan_sees_grouped_imports() {
    let got = imports("use crate::{world::Step, report};\nlet x = crate::net::secs(1);");
    let want: BTreeSet<String> = ["world", "report", "net"].map(String::from).into();
    assert_eq!(got, want);
}

/// `world/` is Go semantics only: what differs between engines is asked of `engine/`
/// (`engine::max_threads`, `engine::retry_touches`, ...), never decided by naming one.
#[test]
fn world_names_no_engine() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/world");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 4, "{files:?}");
    for f in files {
        let code = without_comments(&std::fs::read_to_string(&f).expect("readable"));
        for name in [
            "Kind::Loom",
            "Kind::Shuttle",
            "loom::",
            "shuttle::",
            "dpor::",
        ] {
            assert!(
                !code.contains(name),
                "{} names an engine ({name}): ask engine/ instead",
                f.display()
            );
        }
    }
}

/// An engine is picked in one place, `Engine::explore` in `src/engine/`, and what
/// differs between engines is asked of `Engine` there: outside `engine/`, no match arm
/// or `matches!` names a thread engine (the scenario parser builds them; turmoil's
/// network pipeline is a sibling of the thread engines, so it may be told apart).
#[test]
fn engines_are_told_apart_only_in_engine() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut arms = 0;
    for f in files.iter().filter(|f| !f.starts_with(src.join("engine"))) {
        let code = without_comments(&std::fs::read_to_string(f).expect("readable"));
        let lines: Vec<&str> = code.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            for v in ["Loom", "Random", "Pct", "Dfs", "Stateful", "Dpor"] {
                let name = format!("Engine::{v}");
                let Some(at) = line.find(&name) else { continue };
                // A pattern: the name (with its `{ .. }`) is followed by `=>`, `|` or
                // a guard; `matches!` and `if let` test one.
                let rest: String = lines[i..lines.len().min(i + 6)].join(" ");
                let arm = is_pattern(&rest[at + name.len()..]);
                let tested = line.contains("matches!(") || line.contains("if let");
                assert!(
                    !(arm || tested),
                    "{}:{}: tells {name} apart: ask `Engine` (src/engine/mod.rs) instead",
                    f.display(),
                    i + 1
                );
                arms += 1;
            }
        }
    }
    // The scan looked at something: the parser and the defaults name engines.
    assert!(arms >= 5, "{arms}");
}

/// Whether the text after an enum variant's name makes it a match pattern.
fn is_pattern(after: &str) -> bool {
    let mut t = after.trim_start();
    if let Some(body) = t.strip_prefix('{') {
        let mut depth = 1;
        let end = body.char_indices().find(|&(_, c)| {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            depth == 0
        });
        let Some((k, _)) = end else { return false };
        t = body[k + 1..].trim_start();
    }
    t.starts_with("=>") || t.starts_with('|') || t.starts_with("if ")
}

#[test]
fn the_arm_scan_tells_patterns_from_values() {
    assert!(is_pattern(" { seed } => 1,"));
    assert!(is_pattern(" | Engine::Dfs => 2"));
    assert!(is_pattern(" => 3"));
    assert!(!is_pattern(" } \"shuttle-random\" => {"));
    assert!(!is_pattern(" { seed: 3 }, Engine::Dfs => x"));
    assert!(!is_pattern(",\n split: 0"));
}
