//! The rules ARCHITECTURE.md's code map states, checked on the tree: which modules may name
//! which (in the coordinator, the simulator and the page), how large a file may grow, and that the README stays a front door. A failure names
//! the file and the line that breaks the rule.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

#[path = "repo_files/mod.rs"]
mod repo_files;
use repo_files::root;

/// Files under `dir` (relative to the repository) whose names end with one of `exts`.
fn walk(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    repo_files::walk(&[dir], |name| exts.iter().any(|x| name.ends_with(x)))
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Lines of `path` (1-based) that contain any of `needles`, outside `//` comments.
fn offending(path: &Path, needles: &[String]) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| needles.iter().any(|n| line.contains(n.as_str())))
        .map(|(i, line)| format!("{}:{}: {}", shown(path), i + 1, line.trim()))
        .collect()
}

#[test]
fn the_coordinators_shared_modules_name_nothing_of_the_classic_group() {
    let src = "crates/coordinator/src";
    let mut files = walk(&format!("{src}/consumer_group"), &[".rs"]);
    for f in [
        "group_type.rs",
        "invariants.rs",
        "timer.rs",
        "classic_rpc.rs",
    ] {
        files.push(root().join(src).join(f));
    }
    assert!(files.len() > 10, "the consumer group's files were found");
    let needles = ["crate::classic::", "crate::classic;", "super::classic::"].map(String::from);
    let broken: Vec<String> = files.iter().flat_map(|f| offending(f, &needles)).collect();
    assert!(
        broken.is_empty(),
        "classic/ holds the classic group only; what both group types need lives beside it:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_simulators_engine_names_nothing_of_what_the_page_shows() {
    let src = "crates/simulator/src";
    let views = [
        "player",
        "step_list",
        "frame",
        "index",
        "timeline",
        "assignments",
        "ownership",
        "moments",
        "upcoming",
        "narration",
        "vocabulary",
        "live",
        "consumer_row",
    ];
    let mut engine = Vec::new();
    for dir in ["simulation", "consumer", "scenario", "import"] {
        engine.extend(walk(&format!("{src}/{dir}"), &[".rs"]));
    }
    for f in [
        "world.rs",
        "event_queue.rs",
        "by_correlation.rs",
        "ledger.rs",
        "trace.rs",
        "trace_store.rs",
        "trace_store/bodies.rs",
        "trace_store/weight.rs",
        "chunked.rs",
        "refusal.rs",
        "world_view.rs",
        "config.rs",
        "builtin.rs",
        "action_reader.rs",
        "action_log.rs",
    ] {
        engine.push(root().join(src).join(f));
    }
    // Every module of the crate is on one side or the other.
    let lib = std::fs::read_to_string(root().join(src).join("lib.rs")).unwrap();
    for line in lib.lines() {
        let module = line
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|m| m.strip_suffix(';'));
        if let Some(m) = module {
            let in_engine = engine.iter().any(|f| {
                f.file_stem().is_some_and(|s| s == m)
                    || f.parent()
                        .and_then(|p| p.file_name())
                        .is_some_and(|d| d == m)
            });
            assert!(
                in_engine || views.contains(&m),
                "module {m} is neither the engine's nor the views': say which in this test and in ARCHITECTURE.md"
            );
        }
    }
    let needles: Vec<String> = views
        .iter()
        .flat_map(|v| [format!("crate::{v}::"), format!("crate::{v};")])
        .collect();
    let broken: Vec<String> = engine.iter().flat_map(|f| offending(f, &needles)).collect();
    assert!(
        broken.is_empty(),
        "the engine imports nothing of the view layer:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_pages_modes_import_nothing_from_each_other() {
    let modes = ["playground", "console", "assign"];
    let mut broken = Vec::new();
    for mode in modes {
        let files = walk(&format!("web/src/{mode}"), &[".ts"]);
        assert!(!files.is_empty(), "web/src/{mode} was found");
        let others: Vec<String> = modes
            .iter()
            .filter(|m| **m != mode)
            .flat_map(|m| [format!("'../{m}/"), format!("'../../{m}/")])
            .collect();
        for f in &files {
            broken.extend(
                offending(f, &others)
                    .into_iter()
                    .filter(|line| line.contains("import") || line.contains("from ")),
            );
        }
    }
    assert!(
        broken.is_empty(),
        "what the modes share belongs in web/src/common/:\n{}",
        broken.join("\n")
    );
}

/// A test file: under a `tests` or `test` folder, a `tests.rs` module, the browser tests, or
/// the real clients' cases.
fn is_test(path: &Path) -> bool {
    let rel = shown(path);
    rel.starts_with("e2e/")
        || rel.starts_with("live/")
        || rel.ends_with("/tests.rs")
        || path
            .components()
            .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "test")
}

#[test]
fn no_source_file_is_over_900_lines_and_no_test_file_over_800() {
    let exts = [".rs", ".ts", ".mjs", ".js", ".py", ".css", ".sh", ".html"];
    let mut files = Vec::new();
    for dir in [
        "crates", "web/src", "web/test", "e2e", "live", "scripts", "bench", "compare", "npm",
        "fuzz",
    ] {
        files.extend(walk(dir, &exts));
    }
    assert!(
        files.len() > 200,
        "the tree was found ({} files)",
        files.len()
    );
    let too_long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).ok()?;
            // A generated file (the TypeScript declarations) is read, not edited: no limit.
            if text.starts_with("// Generated") {
                return None;
            }
            let lines = text.lines().count();
            let limit = if is_test(f) { 800 } else { 900 };
            (lines > limit).then(|| format!("{}: {lines} lines (at most {limit})", shown(f)))
        })
        .collect();
    assert!(
        too_long.is_empty(),
        "split these by concept:\n{}",
        too_long.join("\n")
    );
}

#[test]
fn the_readme_is_a_front_door_and_the_code_map_exists() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 150,
        "README.md is {lines} lines: the details belong in the book, bench/README.md or ARCHITECTURE.md"
    );
    for must in [
        "bash scripts/start.sh",
        "bash scripts/test.sh",
        "ARCHITECTURE.md",
    ] {
        assert!(readme.contains(must), "README.md names {must}");
    }
    let map = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    for section in ["## Code map", "## Invariants", "## Boundaries", "## Tests"] {
        assert!(map.contains(section), "ARCHITECTURE.md has {section}");
    }
}
