//! The window and the command line stay in small pieces: no struct of more than 12 fields
//! and no function of more than 80 lines under `src/app` and `src/cli` (the core's long
//! functions may stay where splitting would hurt the textbook reading).

use std::path::{Path, PathBuf};

const MAX_FIELDS: usize = 12;
const MAX_FUNCTION_LINES: usize = 80;

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The line where the item opened at line `start` (at `indent`) closes: the first later
/// line that is exactly the indentation and `}`.
fn closing_line(lines: &[&str], start: usize, indent: usize) -> Option<usize> {
    let close = format!("{}}}", " ".repeat(indent));
    (start + 1..lines.len()).find(|&j| lines[j].trim_end() == close)
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// What one file holds, by name.
struct Sizes {
    /// (name, lines) of every function with a body.
    functions: Vec<(String, usize)>,
    /// (name, fields) of every braced struct.
    structs: Vec<(String, usize)>,
}

fn measure(text: &str) -> Sizes {
    let lines: Vec<&str> = text.lines().collect();
    let (mut functions, mut structs) = (Vec::new(), Vec::new());
    for (i, line) in lines.iter().enumerate() {
        let item = line
            .trim_start()
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("async ");
        let name = |rest: &str| {
            rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")
                .to_string()
        };
        if let Some(rest) = item.strip_prefix("fn ") {
            // Declarations without a body (trait methods) end in `;`.
            if line.trim_end().ends_with(';') {
                continue;
            }
            if let Some(end) = closing_line(&lines, i, indentation(line)) {
                functions.push((name(rest), end - i + 1));
            }
        } else if let Some(rest) = item.strip_prefix("struct ") {
            if !line.trim_end().ends_with('{') {
                continue;
            }
            if let Some(end) = closing_line(&lines, i, indentation(line)) {
                let fields = lines[i + 1..end]
                    .iter()
                    .map(|l| l.trim_start())
                    .filter(|l| !l.starts_with("//") && !l.starts_with('#'))
                    .filter(|l| {
                        let l = l
                            .trim_start_matches("pub(crate) ")
                            .trim_start_matches("pub ");
                        l.split(':').next().is_some_and(|n| {
                            !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')
                        }) && l.contains(':')
                    })
                    .count();
                structs.push((name(rest), fields));
            }
        }
    }
    Sizes { functions, structs }
}

#[test]
fn no_long_function_and_no_wide_struct_in_the_window_or_the_command_line() {
    let mut problems = Vec::new();
    for dir in ["src/app", "src/cli"] {
        for file in rust_files(Path::new(dir)) {
            let Sizes { functions, structs } = measure(&std::fs::read_to_string(&file).unwrap());
            for (name, n) in functions {
                if n > MAX_FUNCTION_LINES {
                    problems.push(format!("{}: fn {name} has {n} lines", file.display()));
                }
            }
            for (name, n) in structs {
                if n > MAX_FIELDS {
                    problems.push(format!("{}: struct {name} has {n} fields", file.display()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_measure_counts_lines_and_fields() {
    let text = "pub struct S {\n    /// doc\n    pub a: u8,\n    b: Vec<u8>,\n}\n\nfn f() {\n    let x = 1;\n    if x > 0 {\n    }\n}\n\ntrait T {\n    fn g(&self);\n}\n";
    let Sizes { functions, structs } = measure(text);
    assert_eq!(functions, vec![("f".to_string(), 5)]);
    assert_eq!(structs, vec![("S".to_string(), 2)]);
}
