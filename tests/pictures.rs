//! Pictures: `svg(X, "f.svg")` / `latex(X, "f.tex")` write files (whole or not at all), the SVG
//! pictures are well-formed XML, deterministic and sized to their content.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn cute_in(dir: &std::path::Path, args: &[&str]) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR")
        .output()
        .expect("run cute");
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A fresh empty folder.
fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir =
        std::env::temp_dir().join(format!("cute-pictures-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    v.sort();
    v
}

/// Parse an SVG document with an XML parser; panics with the reason when it is not well-formed.
fn check_svg(text: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{text}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

#[test]
fn svg_and_latex_write_files_and_say_so() {
    let dir = temp_dir();
    let r = cute_in(&dir, &["-e", r#"L = (_4,_4):(_4,_1); svg(L, "a.svg"); latex(L, "b.tex"); print_svg(L)"#]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err, "wrote a.svg\nwrote b.tex\n");
    // The file holds exactly what print_svg prints (with its final newline).
    let svg = std::fs::read_to_string(dir.join("a.svg")).expect("a.svg");
    assert_eq!(svg, r.out);
    check_svg(&svg);
    let tex = std::fs::read_to_string(dir.join("b.tex")).expect("b.tex");
    let p = cute_in(&dir, &["-e", "print_latex((_4,_4):(_4,_1))"]);
    assert_eq!(tex, p.out);
    // No temporary file is left behind.
    assert_eq!(files_in(&dir), ["a.svg", "b.tex"]);
    // Writing again replaces the file.
    let r = cute_in(&dir, &["-e", r#"svg(_2:_1, "a.svg")"#]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(std::fs::read_to_string(dir.join("a.svg")).unwrap().contains("<title>(_2,_1):(_1,_0)</title>"));
    assert_eq!(files_in(&dir), ["a.svg", "b.tex"]);
}

#[test]
fn unwritable_paths_are_errors_with_the_reason_and_write_nothing() {
    let dir = temp_dir();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("old.svg"), "old").unwrap();
    let r = cute_in(&dir, &["-e", r#"svg(_2:_1, "nosuch/f.svg")"#]);
    assert_eq!(r.code, 1);
    assert!(r.err.starts_with("error: cannot write: \"nosuch/f.svg\": No such file or directory"), "{}", r.err);
    assert!(r.err.contains(" --> -e:1:12\n"), "{}", r.err);
    let r = cute_in(&dir, &["-e", r#"svg(_2:_1, "sub")"#]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("is a directory"), "{}", r.err);
    // A picture that cannot be drawn leaves the old file alone.
    let r = cute_in(&dir, &["-e", r#"svg((_2,_2,_2):(_1,_2,_4), "old.svg")"#]);
    assert_eq!(r.code, 1);
    assert_eq!(std::fs::read_to_string(dir.join("old.svg")).unwrap(), "old");
    assert_eq!(files_in(&dir), ["old.svg", "sub"]);
    assert_eq!(files_in(&dir.join("sub")), Vec::<String>::new());
    // The file name must be a non-empty string; the picture is a statement, not a value.
    for (src, msg) in [
        ("svg(_2:_1, 3)", "the file name must be a string"),
        (r#"svg(_2:_1, "")"#, "the file name is empty"),
        ("svg(_2:_1)", "print_svg(X) prints the picture"),
        (r#"x = svg(_2:_1, "f.svg")"#, "cannot be bound"),
        (r#"size(svg(_2:_1, "f.svg"))"#, "not a value"),
    ] {
        let r = cute_in(&dir, &["-e", src]);
        assert_eq!(r.code, 1, "{src}");
        assert!(r.err.contains(msg), "{src}: {}", r.err);
    }
    assert_eq!(files_in(&dir), ["old.svg", "sub"]);
}

#[test]
fn strings_print_as_literals() {
    let dir = temp_dir();
    let r = cute_in(&dir, &["-e", r#"t = "a \"b\" # (c"; t"#]);
    assert_eq!((r.code, r.out.as_str()), (0, "\"a \\\"b\\\" # (c\"\n"), "{}", r.err);
}
