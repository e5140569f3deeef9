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

/// `print_svg` of TiledMMAs and MMA atoms against CuTe 4.2's own output (answers from the
/// oracle, `tests/pictures_oracle.jsonl`), byte for byte.
#[test]
fn print_svg_of_mma_is_cute_s_own() {
    use cute::session::{Options, Session};
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pictures_oracle.jsonl")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let expr = cute::jsonl::field(line, "expr").expect("expr");
        let want = cute::jsonl::field(line, "cute").expect("cute");
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        s.run(&expr, "<oracle>", &mut out, &mut err);
        let got = String::from_utf8_lossy(&out);
        let got = got.trim_end_matches('\n');
        if got != want {
            let at = got.bytes().zip(want.bytes()).take_while(|(a, b)| a == b).count();
            panic!(
                "{expr}\nfirst difference at byte {at}:\n  got:  {:?}\n  want: {:?}\n{}",
                &got[at.saturating_sub(80)..(at + 80).min(got.len())],
                &want[at.saturating_sub(80)..(at + 80).min(want.len())],
                String::from_utf8_lossy(&err)
            );
        }
        // CuTe's picture is well-formed XML after its comment lines.
        check_svg(&got[got.find("<svg").expect("an <svg> element")..]);
        n += 1;
    }
    assert!(n >= 10, "{n} cases");
}

fn picture(src: &str) -> String {
    use cute::session::{Options, Session};
    let mut s = Session::new(Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    s.run(src, "<t>", &mut out, &mut err);
    assert!(err.is_empty(), "{src}: {}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
}

fn attr(doc: &roxmltree::Document, name: &str) -> i64 {
    doc.root_element().attribute(name).and_then(|v| v.parse().ok()).expect(name)
}

/// Our pictures: well-formed, deterministic, titled with the value inside the image, sized to the
/// content (every element inside the page).
#[test]
fn pictures_are_well_formed_titled_and_sized() {
    let tm = "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)))";
    let ldsm = format!("{tm}; C = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), T)");
    let cases = [
        ("print_svg((_16,_16):(_16,_1))".to_string(), "(_16,_16):(_16,_1)"),
        ("print_svg(Sw<3,3,3> o (_8,_64):(_64,_1))".to_string(), "Sw&lt;3,3,3&gt; o _0 o (_8,_64):(_64,_1)"),
        ("print_svg(mma_layout_C(SM80_16x8x16_F32F16F16F32_TN))".to_string(), "over the tile (16,8)"),
        ("print_svg(((_4,_8),(_2,_2)):((_32,_1),(_16,_8)), (_16,_8))".to_string(), "over the tile (_16,_8)"),
        (format!("{ldsm}; print_svg(C)"), "TiledCopy SM75_U32x4_LDSM_N (half_t)"),
        (format!("{ldsm}; bank_picture((_32,_32):(_32,_1), half_t, C)"), "(4-way)"),
        ("print_svg(make_layout((_128,_128)))".to_string(), "(_128,_128):(_1,_128)"),
    ];
    for (src, title) in cases {
        let a = picture(&src);
        assert_eq!(a, picture(&src), "{src}: not deterministic");
        let doc = check_svg(&a);
        assert!(a.contains(title), "{src}: no {title:?} in the picture");
        let (w, h) = (attr(&doc, "width"), attr(&doc, "height"));
        assert!(w > 0 && h > 0 && w < 20000 && h < 20000, "{src}: {w} x {h}");
        for n in doc.descendants().filter(|n| n.is_element()) {
            for (k, lim) in [("x", w), ("y", h), ("x2", w), ("y2", h)] {
                if let Some(v) = n.attribute(k).and_then(|v| v.parse::<i64>().ok()) {
                    assert!((0..=lim).contains(&v), "{src}: {k}={v} outside {w} x {h}");
                }
            }
        }
        // The title is visible text, not only the <title> element.
        assert!(doc
            .descendants()
            .any(|n| n.has_tag_name("text") && n.text().is_some_and(|t| title.contains("&") || t.contains(title))));
    }
}

/// A 128x128 tile stays readable at 1:1: cells at least 24 units, labels at least 9 units.
#[test]
fn big_tiles_stay_readable() {
    let a = picture("print_svg(make_layout((_128,_128)))");
    let doc = check_svg(&a);
    let cell = doc.descendants().filter(|n| n.has_tag_name("rect")).nth(1).expect("a cell");
    assert!(cell.attribute("width").unwrap().parse::<i64>().unwrap() >= 24);
    assert!(cell.attribute("height").unwrap().parse::<i64>().unwrap() >= 24);
    assert!(a.contains(">16383</text>"));
}

/// The bank picture's conflict marks against a count by hand: a 32x32 row-major half tile read
/// by ldmatrix x4 (8 threads per phase, each a 16-byte row; rows 64 bytes apart, so rows r and
/// r+2 share banks): 4-way, every accessed cell conflicting; the XOR-swizzled tile is
/// conflict-free.
#[test]
fn bank_picture_marks_conflicts() {
    let ldsm = "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))); \
                C = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), T)";
    let bad = picture(&format!("{ldsm}; bank_picture((_32,_32):(_32,_1), half_t, C)"));
    assert!(bad.contains("(4-way)"));
    // 32 threads x 8 values outlined, all red.
    assert_eq!(bad.matches("fill=\"none\" stroke=\"red\"").count(), 256);
    let ok = picture(&format!("{ldsm}; bank_picture(Sw<2,3,3> o (_32,_32):(_32,_1), half_t, C)"));
    assert!(ok.contains("(1-way)"), "{}", &ok[..600]);
    assert_eq!(ok.matches("fill=\"none\" stroke=\"red\"").count(), 0);
    assert_eq!(ok.matches("fill=\"none\" stroke=\"black\"").count(), 256);
}

#[test]
fn picture_errors_name_their_printer() {
    use cute::session::{Options, Session};
    for (src, msg) in [
        ("print_svg((_2,_2,_2):(_1,_2,_4))", "print_svg needs a layout of rank at most 2"),
        ("bank_picture((_2,_2,_2):(_1,_2,_4), 16)", "bank_picture needs a layout of rank at most 2"),
        ("bank_picture((_2,_2):(_1,_2), 12)", "element size"),
        ("print_svg(_4:_1, (_2,_2))", "(thread, value)"),
        ("print_svg(SM80_16x8x16_F32F16F16F32_TN)", "print_svg draws"),
    ] {
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        s.run(src, "<t>", &mut out, &mut err);
        let err = String::from_utf8_lossy(&err);
        assert!(err.contains(msg), "{src}: {err}");
        assert!(!err.contains("print_latex"), "{src}: {err}");
    }
}
