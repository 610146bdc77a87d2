//! The documentation's sample outputs are the program's. Each `text` block of the README
//! or of a page under docs/ that shows a report or a part of one must appear, byte for
//! byte, in a pinned snapshot (and the scenario
//! tests check every snapshot against what the program prints); the bad-input sample
//! must be what the command prints; the figures quoted around the first sample must be
//! the ones its snapshots carry; the sample kernel must be the one in scenarios/goker.

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The README's ```text blocks, with the line each starts on.
fn text_blocks(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(usize, Vec<&str>)> = None;
    for (i, l) in md.lines().enumerate() {
        match (&mut cur, l.trim_end()) {
            (None, "```text") => cur = Some((i + 2, Vec::new())),
            (Some(_), "```") => {
                let (n, lines) = cur.take().unwrap();
                out.push((n, lines.join("\n")));
            }
            (Some((_, lines)), _) => lines.push(l),
            _ => {}
        }
    }
    out
}

/// Every snapshot's body (after insta's header).
fn snapshots() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "snap"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let body = text.splitn(3, "---\n").nth(2).unwrap_or("").to_string();
            (p.file_stem().unwrap().to_string_lossy().into_owned(), body)
        })
        .collect();
    v.sort();
    v
}

/// The README and every page under docs/, by path.
fn pages() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![("README.md".to_string(), readme())];
    let mut dirs = vec![root.join("docs")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                let name = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.push((name, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_sample_report_in_the_documentation_is_in_a_pinned_snapshot() {
    let snaps = snapshots();
    let mut checked = 0;
    for (page, md) in pages() {
        for (line, block) in text_blocks(&md) {
            if block.starts_with("error:") {
                continue;
            }
            checked += 1;
            assert!(
                snaps.iter().any(|(_, body)| body.contains(&block)),
                "{page} line {line}: this sample is in no snapshot, so not what the program prints:\n{block}"
            );
        }
    }
    assert!(checked >= 4, "only {checked} samples found");
}

#[test]
fn the_bad_input_sample_is_what_the_command_prints() {
    let md = readme();
    let (_, sample) = text_blocks(&md)
        .into_iter()
        .find(|(_, b)| b.starts_with("error:"))
        .expect("an error sample");
    let dir = std::env::temp_dir().join(format!("stalemate-readme-{}", std::process::id()));
    let scenarios = dir.join("scenarios");
    std::fs::create_dir_all(&scenarios).unwrap();
    std::fs::write(
        scenarios.join("x.toml"),
        "model = \"cacher-2015\"\nvariant = \"bugy\"\nexpect = \"deadlock\"\n[[engine]]\nkind = \"loom\"\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_stalemate"))
        .args(["run", "scenarios/x.toml"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end(), sample.trim_end());
}

#[test]
fn the_figures_around_the_first_sample_are_its_snapshots() {
    let md = readme();
    let snaps = snapshots();
    let body = |name: &str| &snaps.iter().find(|(n, _)| n == name).unwrap().1;
    let execution = |name: &str| -> u64 {
        let l = body(name)
            .lines()
            .find(|l| l.starts_with("engine "))
            .unwrap();
        l.rsplit("execution ")
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let ordinal = |n: u64| {
        let s = n.to_string();
        let grouped: Vec<String> = s
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        let suffix = match (n % 10, n % 100) {
            (1, x) if x != 11 => "st",
            (2, x) if x != 12 => "nd",
            (3, x) if x != 13 => "rd",
            _ => "th",
        };
        format!("{}{suffix}", grouped.join(","))
    };
    let loom = execution("cacher_2015_buggy-1");
    let pct = execution("cacher_2015_buggy-2");
    let claim = format!(
        "loom finds it at its {}\nexecution, and shuttle's PCT scheduler at its {} schedule",
        ordinal(loom),
        ordinal(pct)
    );
    assert!(
        md.contains(&claim),
        "README's first figures must be loom {loom} and PCT {pct}:\n{claim}"
    );
}

#[test]
fn the_sample_kernel_is_the_one_in_scenarios() {
    let md = readme();
    let start = md
        .find("```go\npackage main")
        .expect("the README shows a kernel")
        + 6;
    let end = start + md[start..].find("```").unwrap();
    let kernel = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/goker/kubernetes_62464.go"),
    )
    .unwrap();
    assert!(
        kernel.ends_with(&md[start..end]),
        "the README's kernel differs from scenarios/goker/kubernetes_62464.go"
    );
    // Its scenario file, as shown.
    let toml = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/goker/kubernetes_62464_buggy.toml"),
    )
    .unwrap();
    assert!(
        md.contains(&format!("```toml\n{toml}```")),
        "the README's scenario file differs from scenarios/goker/kubernetes_62464_buggy.toml"
    );
    // The figure quoted before its report.
    assert!(md.contains("loom finds the deadlock at its 7th execution"));
    let snap = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/kubernetes_62464_buggy-1.snap"),
    )
    .unwrap();
    assert!(
        snap.contains("execution 7\n"),
        "the snapshot no longer says execution 7"
    );
}

#[test]
fn the_readme_cites_public_origins_not_files_a_clone_lacks() {
    let md = readme();
    assert!(
        !md.contains("shared/seeds"),
        "the README points at shared/seeds"
    );
    assert!(!md.contains("MODELS.md"), "the README points at MODELS.md");
}
