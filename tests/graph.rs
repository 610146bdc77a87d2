//! Wait-for graphs as Graphviz DOT: the cacher-2015 deadlock's graph parses as DOT (with
//! dot-parser, which follows the grammar strictly), has the cycle's goroutines and
//! locks with the right edges, and is pinned byte for byte.

mod common;

use stalemate::runner;
use stalemate::scenario;
use std::path::Path;

#[test]
fn the_cacher_deadlock_graph_is_valid_dot_with_its_cycle() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let s = scenario::load(Path::new("scenarios/cacher_2015_buggy.toml")).unwrap();
    // Engine 2: shuttle-pct, the report in the README.
    let r = runner::run_engine(&s, 2, None);
    let dot = r.found.unwrap().graph.expect("a deadlock has a graph");
    let ast = dot_parser::ast::Graph::try_from(dot.as_str())
        .unwrap_or_else(|e| panic!("not DOT: {e}\n{dot}"));
    let g = dot_parser::canonical::Graph::from(ast);
    let mut nodes: Vec<&String> = g.nodes.set.keys().collect();
    nodes.sort();
    // main → clients; the cycle: reflector → watchCache → watch-client → Cacher.mu → reflector.
    assert_eq!(g.edges.set.len(), 5, "{dot}");
    assert_eq!(
        nodes,
        ["\"g0\"", "\"g1\"", "\"g2\"", "\"o0\"", "\"o3\"", "\"o7\""],
        "{dot}"
    );
    for want in [
        "\"g1\" -> \"o3\" [label=\"waits: lock (write)\"]",
        "\"g0\" -> \"o7\" [label=\"waits: WaitGroup.Wait\"]",
        "label=\"held by watch-client (took it for reading at step 22 in Cacher.Watch)\"",
        "label=\"held by reflector (took it at step 26 in Cacher.startCaching)\"",
        "style=bold, color=red",
    ] {
        assert!(dot.contains(want), "missing {want} in\n{dot}");
    }
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("cacher_2015_buggy-2-graph", dot);
    });
}

#[test]
fn run_writes_one_dot_file_per_deadlock_found() {
    let dir = std::env::temp_dir().join(format!("stalemate-graph-{}", std::process::id()));
    let o = common::stalemate(&[
        "run",
        "--quiet",
        "--graph",
        dir.to_str().unwrap(),
        "scenarios/cacher_2015_buggy.toml",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["cacher_2015_buggy-1.dot", "cacher_2015_buggy-2.dot"]
    );
    let two = std::fs::read_to_string(dir.join("cacher_2015_buggy-2.dot")).unwrap();
    assert!(
        two.starts_with("digraph \"cacher_2015_buggy engine 2\" {"),
        "{two}"
    );
}

/// Graphviz's escaping of SVG text.
fn svg_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('-', "&#45;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[test]
fn the_readme_svg_is_the_pinned_graph_rendered() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let snap = std::fs::read_to_string(root.join("tests/snapshots/cacher_2015_buggy-2-graph.snap"))
        .unwrap();
    let svg = std::fs::read_to_string(root.join("docs/cacher_2015_buggy-2.svg")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/cacher_2015_buggy-2.svg)"),
        "the README shows the SVG"
    );
    let labels: Vec<&str> = snap
        .split("label=\"")
        .skip(1)
        .map(|l| l.split('"').next().unwrap())
        .collect();
    assert_eq!(labels.len(), 11, "six nodes and five edges");
    for l in labels {
        assert!(
            svg.contains(&format!(">{}<", svg_text(l))),
            "the SVG lacks `{l}`: render the pinned DOT again (dot -Tsvg)"
        );
    }
}
