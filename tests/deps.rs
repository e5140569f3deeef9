//! The dependency rule of `src/lib.rs`, checked: every `crate::` path (and `cute::` in
//! `main.rs`, `super::` that climbs to the crate root) in every file under `src/` names a module
//! its own module may import. Test code inside `src/` obeys the same rule (test data and
//! evaluators that need the parser live in `tests/`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each top-level module imports directly (`parser::ast`: only the AST types).
const DIRECT: &[(&str, &[&str])] = &[
    ("main", &["repl", "session", "bench", "diagnostic", "decode", "heap", "source", "parser::ast"]),
    ("bench", &["session", "interp", "registry", "parser", "eval"]),
    ("repl", &["session", "interp", "registry", "diagnostic", "parser::ast"]),
    ("session", &["interp", "runtime", "parser", "diagnostic", "eval"]),
    ("interp", &["registry", "eval", "parser"]),
    ("registry", &["eval", "render", "decode"]),
    ("decode", &["eval"]),
    ("render", &["eval"]),
    ("runtime", &["eval"]),
    ("diagnostic", &["parser::ast"]),
    ("eval", &[]),
    ("parser", &["eval"]),
    ("jsonl", &[]),
    ("heap", &[]),
    ("source", &[]),
    (
        "lib",
        &[
            "bench",
            "decode",
            "diagnostic",
            "eval",
            "heap",
            "interp",
            "jsonl",
            "parser",
            "registry",
            "render",
            "repl",
            "runtime",
            "session",
            "source",
        ],
    ),
];

fn direct(m: &str) -> &'static [&'static str] {
    DIRECT.iter().find(|(n, _)| *n == m).unwrap_or_else(|| panic!("module `{m}` is not in the table")).1
}

/// Everything `m` may name: its direct imports and, transitively, theirs.
fn allowed(m: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![m.to_string()];
    while let Some(x) = todo.pop() {
        let top = x.split("::").next().unwrap().to_string();
        // Importing only `parser::ast` does not open the rest of the parser.
        let next: &[&str] = if x.contains("::") { &[] } else { direct(&top) };
        for n in next {
            if seen.insert(n.to_string()) {
                todo.push(n.to_string());
            }
        }
    }
    seen
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src/` (`src/eval/ops/tuple/mod.rs` → `eval::ops::tuple`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a line without its `//` comment (string literals are kept; none holds `//` before
/// a path here).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// The top-level module (and its first submodule) each path in `text` names, with its line number.
fn references(text: &str, depth: usize, is_main: bool) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut depth = depth;
    for (no, line) in text.lines().enumerate() {
        let c = code(line);
        // An inline `mod tests {` makes the rest of the file one level deeper for `super::`.
        if c.trim_start().starts_with("mod ") && c.trim_end().ends_with('{') {
            depth += 1;
        }
        let mut prefixes = vec!["crate::".to_string()];
        if is_main {
            prefixes.push("cute::".to_string());
        }
        if depth >= 1 {
            prefixes.push("super::".repeat(depth));
        }
        for p in &prefixes {
            let mut rest = c;
            while let Some(i) = rest.find(p.as_str()) {
                // `crate::` inside a longer identifier path (`a::crate::`) does not occur.
                let before = rest[..i].chars().last();
                let tail = &rest[i + p.len()..];
                rest = tail;
                if before.is_some_and(|ch| ch.is_alphanumeric() || ch == '_') {
                    continue;
                }
                if p.starts_with("super") && tail.starts_with("super::") {
                    continue;
                }
                let name: Vec<&str> = tail
                    .split("::")
                    .take(2)
                    .map(|s| s.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')).next().unwrap_or(""))
                    .collect();
                if name[0].is_empty() || name[0] == "self" {
                    continue;
                }
                let r = if name.len() > 1 && !name[1].is_empty() {
                    format!("{}::{}", name[0], name[1])
                } else {
                    name[0].to_string()
                };
                out.push((no + 1, r));
            }
        }
    }
    out
}

#[test]
fn dependencies_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    all.sort();
    let mut bad = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &all {
        let rel = f.strip_prefix(&src).unwrap();
        let path = module_path(rel);
        let module = path.first().cloned().unwrap_or_default();
        let text = std::fs::read_to_string(f).unwrap();
        let is_main = module == "main";
        let ok = allowed(&module);
        // `super::` repeated as often as the file is deep names the crate root.
        let depth = if matches!(module.as_str(), "lib" | "main") { 0 } else { path.len() };
        for (line, r) in references(&text, depth, is_main) {
            let top = r.split("::").next().unwrap().to_string();
            if top == module || top == "std" {
                continue;
            }
            edges.entry(module.clone()).or_default().insert(top.clone());
            if !(ok.contains(&top) || ok.contains(&r)) {
                bad.push(format!("src/{}:{line}: `{module}` uses `{r}`", rel.display()));
            }
        }
    }
    for b in &bad {
        eprintln!("{b}");
    }
    eprintln!("edges: {edges:?}");
    assert!(bad.is_empty(), "{} imports break the rule of src/lib.rs", bad.len());
}

#[test]
fn the_table_has_no_cycle() {
    for (m, _) in DIRECT {
        assert!(!allowed(m).contains(*m), "`{m}` reaches itself");
    }
}

#[test]
fn the_checker_sees_imports() {
    let refs = references("use crate::eval::value::Value;\nx = crate::parser::parse(s); // crate::repl\n", 0, false);
    assert_eq!(refs, vec![(1, "eval::value".to_string()), (2, "parser::parse".to_string())]);
    let refs = references("use super::super::session::Session;\n", 2, false);
    assert_eq!(refs, vec![(1, "session::Session".to_string())]);
}
