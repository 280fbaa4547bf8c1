//! The import rule, checked on the source text: no file under `src/` imports a file that
//! imports it back (directly or through a chain), no two top-level modules import each
//! other, and `cli` and `app` do not import each other at all (`main.rs` wires them).
//!
//! An import is a `use` of a path into the crate (`crate::`, `super::`, `self::` or a child
//! module) or such a path written inline in code. Comments are skipped, and so is each
//! file's `#[cfg(test)]` module: tests may reach across layers. A path resolves to the file
//! of the longest module prefix it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every module of the library and its file (the crate roots `lib.rs`/`main.rs` excluded).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap();
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            if parts == ["lib"] || parts == ["main"] {
                continue;
            }
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The code of a file without comments and without its test module.
fn code(text: &str) -> String {
    let production = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    production
        .lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string literal is rare in this code base; paths after one
            // would only add edges, never hide them.
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn split_top(list: &str) -> Vec<&str> {
        let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
        for (i, c) in list.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&list[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&list[start..]);
        parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
    }
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            let leaf = squeeze(tree.split(" as ").next().unwrap_or(tree));
            vec![leaf.split("::").map(str::to_string).collect()]
        }
        Some(open) => {
            let prefix: Vec<String> = squeeze(&tree[..open])
                .trim_end_matches("::")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap()];
            split_top(inner)
                .into_iter()
                .flat_map(expand_use)
                .map(|rest| {
                    let mut p = prefix.clone();
                    p.extend(rest.into_iter().filter(|s| s != "self"));
                    p
                })
                .collect()
        }
    }
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.chars().next().unwrap().is_ascii_digit()
}

/// Every path into the crate written in `code`: from `use` items and inline.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code.to_string();
    // `use` items (including `pub use`, `pub(crate) use`).
    while let Some(i) = find_use(&rest) {
        let end = rest[i..].find(';').map_or(rest.len(), |e| i + e);
        out.extend(expand_use(&rest[i + 4..end]));
        rest.replace_range(i..end, "");
    }
    // Inline paths: identifier chains joined by `::`.
    let bytes: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts = (bytes[i].is_ascii_alphabetic() || bytes[i] == '_')
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == '_'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        let mut chain = Vec::new();
        loop {
            let s = j;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == '_') {
                j += 1;
            }
            chain.push(bytes[s..j].iter().collect::<String>());
            if j + 2 < bytes.len() && bytes[j] == ':' && bytes[j + 1] == ':' && {
                let c = bytes[j + 2];
                c.is_ascii_alphabetic() || c == '_'
            } {
                j += 2;
            } else {
                break;
            }
        }
        if chain.len() > 1 {
            out.push(chain);
        }
        i = j.max(i + 1);
    }
    out
}

fn find_use(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = text[from..].find("use ") {
        let i = from + k;
        let before = text[..i].chars().last();
        if before.is_none_or(|c| c.is_whitespace() || c == ')' || c == '{' || c == ';') {
            return Some(i);
        }
        from = i + 4;
    }
    None
}

/// The module a path names, relative to module `here`, if it is in the crate.
fn resolve(here: &Module, path: &[String], modules: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let mut base: Module;
    let mut rest = path;
    match path.first()?.as_str() {
        "crate" => {
            base = Vec::new();
            rest = &path[1..];
        }
        "self" => {
            base = here.clone();
            rest = &path[1..];
        }
        "super" => {
            base = here.clone();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        first => {
            let mut child = here.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            base = here.clone();
        }
    }
    let mut found = None;
    for seg in rest {
        if !is_ident(seg) {
            break;
        }
        base.push(seg.clone());
        if modules.contains_key(&base) {
            found = Some(base.clone());
        } else {
            break;
        }
    }
    found
}

/// File-level import edges: module -> modules it imports.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules(src);
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let text = code(&std::fs::read_to_string(file).unwrap());
        let targets: BTreeSet<Module> = paths(&text)
            .iter()
            .filter_map(|p| resolve(module, p, &modules))
            .filter(|t| t != module)
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// Every cycle's members (strongly connected components with more than one node).
fn cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    let reach = |from: &N| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<N, BTreeSet<N>> = edges.keys().map(|n| (n.clone(), reach(n))).collect();
    let mut out: Vec<Vec<N>> = Vec::new();
    for n in edges.keys() {
        if !reaches[n].contains(n) || out.iter().any(|c| c.contains(n)) {
            continue;
        }
        let members = edges
            .keys()
            .filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n))
            .cloned()
            .collect();
        out.push(members);
    }
    out
}

fn name(m: &Module) -> String {
    m.join("::")
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let edges = graph(Path::new("src"));
    let found: Vec<String> = cycles(&edges)
        .iter()
        .map(|c| c.iter().map(name).collect::<Vec<_>>().join(" <-> "))
        .collect();
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn top_level_modules_import_one_way_and_cli_and_app_not_at_all() {
    let edges = graph(Path::new("src"));
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in &edges {
        let entry = top.entry(from[0].clone()).or_default();
        for t in targets {
            if t[0] != from[0] {
                entry.insert(t[0].clone());
            }
        }
    }
    let found = cycles(&top);
    assert!(found.is_empty(), "top-level cycles: {found:?} in {top:?}");
    assert!(!top["cli"].contains("app"), "cli imports app: {top:?}");
    assert!(!top["app"].contains("cli"), "app imports cli: {top:?}");
    for below in ["geom", "query", "scene", "trace"] {
        assert!(!top[below].contains("app"), "{below} imports app");
        assert!(!top[below].contains("cli"), "{below} imports cli");
    }
    // Every layer formats numbers and wraps words through `text`, so it imports nothing.
    assert!(top["text"].is_empty(), "text imports {:?}", top["text"]);
    for user in ["query", "scene", "cli", "app"] {
        assert!(top[user].contains("text"), "{user} formats numbers itself");
    }
}

#[test]
fn the_model_imports_no_drawing_code() {
    let edges = graph(Path::new("src"));
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let drawing = [
        m("app::draw"),
        m("app::canvas"),
        m("app::labs"),
        m("app::ui"),
    ];
    for model in [
        "app::session",
        "app::overlays",
        "app::timeline",
        "app::analysis",
    ] {
        for target in &edges[&m(model)] {
            assert!(
                !drawing.iter().any(|d| target.starts_with(d)),
                "{model} imports {}",
                name(target)
            );
        }
    }
}

#[test]
fn no_panel_holds_the_whole_window() {
    // A panel gets the parts it edits (`app::parts`) and returns `app::action` values; the
    // window's state (`App` in `shell`), the frame loop and the canvas input stay out of
    // reach.
    let edges = graph(Path::new("src"));
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let whole = [m("app::shell"), m("app::window"), m("app::input")];
    let panels: Vec<&Module> = edges
        .keys()
        .filter(|k| k.starts_with(&m("app::ui")))
        .collect();
    assert!(panels.len() >= 9, "the panels were not found: {panels:?}");
    for panel in panels {
        for target in &edges[panel] {
            assert!(
                !whole.contains(target),
                "{} imports {}",
                name(panel),
                name(target)
            );
        }
    }
}

#[test]
fn the_window_holds_its_workspace_by_the_trait() {
    // The window's state, its frame loop and its panels reach the workspace through
    // `Workspace` (and `plane()` for what only the plane has); the kind is chosen in one
    // place, `workspaces::for_document`, so another kind plugs in there.
    let mut files = vec![
        PathBuf::from("src/app/shell.rs"),
        PathBuf::from("src/app/parts.rs"),
        PathBuf::from("src/app/window.rs"),
    ];
    for entry in std::fs::read_dir("src/app/ui").unwrap() {
        files.push(entry.unwrap().path());
    }
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        assert!(
            !text.contains("Workspace2d"),
            "{} names the 2D workspace",
            file.display()
        );
    }
    let shell = code(&std::fs::read_to_string("src/app/shell.rs").unwrap());
    assert!(shell.contains("workspace: Box<dyn Workspace>"));
    assert!(shell.contains("workspaces::for_document("));
}

#[test]
fn the_parser_sees_use_trees_inline_paths_and_child_modules() {
    let edges = graph(Path::new("src"));
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let has = |from: &str, to: &str| edges[&m(from)].contains(&m(to));
    // `use super::{...}` groups, `crate::` paths, and a child module named inline.
    assert!(has("app::workspace", "app::session"));
    assert!(has("app::workspace", "app::panels"));
    assert!(has("query::pair", "query::gjk"));
    assert!(has("app::labs", "app::labs::minkowski"));
    assert!(has("app::labs::gjk", "app::labs::lab"));
    assert!(has("scene::model", "query::pair"), "an inline crate:: path");
    // Comments and test modules are not imports.
    assert!(!has("app::session", "app::examples"));
}

#[test]
fn cycles_are_found_in_a_small_graph() {
    let g: BTreeMap<u8, BTreeSet<u8>> = [
        (1, [2].into()),
        (2, [3].into()),
        (3, [1].into()),
        (4, [1].into()),
        (5, [5].into()),
    ]
    .into();
    assert_eq!(cycles(&g), vec![vec![1, 2, 3], vec![5]]);
    assert_eq!(
        expand_use("super::{a, b::{self, c}, d as e}"),
        vec![
            vec!["super", "a"],
            vec!["super", "b"],
            vec!["super", "b", "c"],
            vec!["super", "d"],
        ]
    );
}
