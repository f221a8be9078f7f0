//! The repository's own files, for the tests that read the tree (`docs_links.rs`,
//! `code_map.rs`): one walker, skipping what is generated or installed.

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Directories never walked: build output, installed packages, fuzzing's inputs and outputs.
const GENERATED: [&str; 11] = [
    "target",
    "node_modules",
    "pkg",
    "dist",
    "public",
    "tmp",
    "out",
    "corpus",
    "artifacts",
    ".venv",
    "__pycache__",
];

/// Files under `dirs` (relative to the repository) that `keep` accepts by name, sorted.
pub fn walk(dirs: &[&str], keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|d| root().join(d)).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                if !GENERATED.contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if keep(&name) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
