//! The repository stands on its own: every reference to the documentation in the code, the
//! scripts, the README, ARCHITECTURE.md and the documentation itself names a page that exists and an anchor on
//! it; every Kafka 3.x difference label (D1–D12) the code uses is defined; nothing points at the
//! team's notes outside the repository.

#![allow(clippy::unwrap_used)]
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[path = "repo_files/mod.rs"]
mod repo_files;
use repo_files::root;

/// Text files under the repository's own directories.
fn files() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let exts = [
        ".rs", ".ts", ".md", ".mjs", ".sh", ".py", ".html", ".css", ".json", ".toml",
    ];
    out.extend(repo_files::walk(
        &[
            "crates", "web/src", "e2e", "bench", "scripts", "compare", "docs", ".ci",
        ],
        |name| exts.iter().any(|x| name.ends_with(x)) || name == "run",
    ));
    out
}

/// The anchors of a page: `<a id="…">` and its headings' slugs.
fn anchors(page: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in page.lines() {
        let mut rest = line;
        while let Some(i) = rest.find("<a id=\"") {
            let tail = &rest[i + 7..];
            let end = tail.find('"').unwrap();
            out.insert(tail[..end].to_string());
            rest = &tail[end..];
        }
        if let Some(h) = line.strip_prefix('#') {
            let title = h.trim_start_matches('#').trim().to_lowercase();
            let slug: String = title
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            out.insert(slug);
        }
    }
    out
}

/// `docs/src/<page>.md#<anchor>` in any file, and `(<relative page>.md#<anchor>)` links inside the
/// documentation.
fn references(path: &Path, text: &str) -> Vec<(PathBuf, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("docs/src/") {
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || "/._-#".contains(c)))
            .unwrap_or(tail.len());
        let target = tail[..end].trim_end_matches('.');
        if let Some((page, anchor)) = target.split_once('#') {
            out.push((root().join(page), Some(anchor.to_string())));
        } else if target.ends_with(".md") {
            out.push((root().join(target), None));
        }
        rest = &tail[end..];
    }
    if path.starts_with(root().join("docs")) {
        let mut rest = text;
        while let Some(i) = rest.find("](") {
            let tail = &rest[i + 2..];
            let end = tail.find(')').unwrap_or(tail.len());
            let link = &tail[..end];
            rest = &tail[end..];
            // rustdoc's pages are built beside the book, not written in it (the browser test
            // opens them).
            if link.contains("://") || link.starts_with("docs/") || link.contains("rustdoc/") {
                continue;
            }
            let (page, anchor) = match link.split_once('#') {
                Some((p, a)) => (p, Some(a.to_string())),
                None => (link, None),
            };
            // A page's query (`index.html?lang=zh`) is not part of its path.
            let page = page.split_once('?').map_or(page, |(p, _)| p);
            let page = if page.is_empty() {
                path.to_path_buf()
            } else if page.ends_with(".html")
                || page.ends_with(".json")
                || (page.ends_with(".png") && page.starts_with("../"))
            {
                // A link between the English and Chinese books, written as built pages (or to
                // a file the English book carries, such as the scenario schema or an image the
                // Chinese book shows from it).
                match source_of(&built(path).parent().unwrap().join(page)) {
                    Some(source) => source,
                    None => continue,
                }
            } else {
                path.parent().unwrap().join(page)
            };
            out.push((page, anchor));
        }
    }
    out
}

/// Where mdBook writes a source page: `docs/src/<page>.md` to `book/<page>.html`, `docs/zh/src/<page>.md` to
/// `book/zh/<page>.html`.
fn built(source: &Path) -> PathBuf {
    let docs = root().join("docs");
    let rel = source.strip_prefix(&docs).unwrap();
    let (book, page) = match rel.strip_prefix("zh/src") {
        Ok(page) => (PathBuf::from("book/zh"), page),
        Err(_) => (PathBuf::from("book"), rel.strip_prefix("src").unwrap()),
    };
    book.join(page).with_extension("html")
}

/// The source page of a built one (the inverse of [`built`]), if it is one of the books'.
fn source_of(built: &Path) -> Option<PathBuf> {
    let mut parts: Vec<String> = Vec::new();
    for c in built.components() {
        match c {
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            std::path::Component::Normal(s) => parts.push(s.to_string_lossy().to_string()),
            _ => {}
        }
    }
    let path = parts.join("/");
    let page = path.strip_prefix("book/")?;
    let source = match page.strip_prefix("zh/") {
        Some(zh) => root().join("docs/zh/src").join(zh),
        None => root().join("docs/src").join(page),
    };
    if page.ends_with(".html") {
        Some(source.with_extension("md"))
    } else {
        Some(source)
    }
}

#[test]
fn every_documentation_reference_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for path in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (page, anchor) in references(&path, &text) {
            checked += 1;
            let shown = format!(
                "{} -> {}#{}",
                path.display(),
                page.display(),
                anchor.clone().unwrap_or_default()
            );
            if !page.is_file() {
                broken.push(format!("{shown}: no such page"));
                continue;
            }
            if let Some(a) = anchor
                && !std::fs::read_to_string(&page).is_ok_and(|target| anchors(&target).contains(&a))
            {
                broken.push(format!("{shown}: no such anchor"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} references found: is the scan looking in the right place?"
    );
    assert!(
        broken.is_empty(),
        "{} broken references:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn nothing_points_outside_the_repository() {
    let mut found = Vec::new();
    for path in files() {
        if path.ends_with("docs_links.rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if line.contains("spec §") || line.contains("../shared") || line.contains("shared/spec")
            {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "references to notes outside the repository:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_kafka_3x_difference_label_is_defined() {
    let page =
        std::fs::read_to_string(root().join("docs/src/reference/kafka-3x-and-4.md")).unwrap();
    let defined = anchors(&page);
    for path in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            if let Some(n) = word.strip_prefix('D')
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
                && n.parse::<u32>().is_ok_and(|n| (1..=12).contains(&n))
            {
                assert!(
                    defined.contains(&format!("d{n}")),
                    "{}: {word} is not on the Kafka 3.x page",
                    path.display()
                );
            }
        }
    }
}
