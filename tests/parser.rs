//! The parser's public API as other modules use it, and every golden expression (the detailed
//! cases are unit tests in src/parser/tests.rs: precedence, 1-tuples, errors, limits).
use cute::parser::ast::{ExprKind, StmtKind};
use cute::parser::{is_incomplete, parse, ParseError};

#[test]
fn parses_a_small_script() {
    let src = "# a script\nA = (_4,_2):(_1,_4)\nassert A(1) == 1; print_layout(A)\nSw<3,3,3> o _0 o A\n";
    let p = parse(src).expect("parses");
    assert_eq!(p.stmts.len(), 4);
    assert!(matches!(p.stmts[0].kind, StmtKind::Bind { ref name, .. } if name == "A"));
    assert!(matches!(p.stmts[1].kind, StmtKind::Assert { rhs: Some(_), .. }));
    assert!(
        matches!(p.stmts[2].kind, StmtKind::Expr(ref e) if matches!(e.kind, ExprKind::Call(ref c) if c.name == "print_layout"))
    );
    assert!(matches!(p.stmts[3].kind, StmtKind::Expr(ref e) if matches!(e.kind, ExprKind::ComposedLit { .. })));
    assert_eq!(&src[p.stmts[1].span.start..p.stmts[1].span.end], "assert A(1) == 1");
}

#[test]
fn errors_are_words_with_spans() {
    let ParseError { message, span } = parse("x = (4,2):").unwrap_err();
    assert_eq!(message, "expected an integer, a tuple or a layout after ':', found end of input");
    assert_eq!((span.start, span.end), (10, 10));
    let e = parse("x = (1,\n2").unwrap_err();
    assert_eq!(e.message, "unbalanced '(': no matching ')'");
    assert_eq!((e.span.start, e.span.end), (4, 5));
    assert!(is_incomplete("x = (1,\n2"));
    assert!(!is_incomplete("x = (1,\n2)"));
}

#[test]
fn every_script_parses() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let Ok(entries) = std::fs::read_dir(&dir) else { return };
    let mut n = 0;
    for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if p.extension().is_some_and(|x| x == "cute") {
            let text = std::fs::read_to_string(&p).unwrap();
            if let Err(e) = parse(&text) {
                let line = text[..e.span.start].matches('\n').count() + 1;
                panic!("{}:{line}: {}", p.display(), e.message);
            }
            n += 1;
        }
    }
    assert!(n > 0 || !dir.exists());
}

// ------------------------------------------------------------------------------------------------
// Golden data: every expression CuTe printed an answer (or a compile/runtime error) for parses.
// ------------------------------------------------------------------------------------------------

fn golden_dir() -> Option<std::path::PathBuf> {
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    local.join("golden.jsonl").exists().then_some(local)
}

use cute::jsonl::field as json_str;

/// The `.jsonl` files of a folder, sorted.
fn jsonl_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|f| f.ok().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn golden_expressions_parse() {
    let Some(dir) = golden_dir() else {
        eprintln!("no golden data found; skipped");
        return;
    };
    let files = jsonl_files(&dir);
    let (mut ok, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            let Some(src) = json_str(line, "expr") else { continue };
            let parse_err = json_str(line, "error").as_deref() == Some("parse");
            let detail = json_str(line, "detail").unwrap_or_default();
            // The oracle also calls an unknown name or a wrong argument kind a "parse" error; for
            // `cute` those are evaluation errors (the syntax is fine).
            let semantic = detail.starts_with("unknown name") || detail.starts_with("expected a value type");
            match (parse(&src), parse_err && !semantic) {
                (Ok(_), false) => ok += 1,
                (Err(_), true) => rejected += 1,
                (Ok(_), true) => failures.push(format!("{src}: parsed, but the oracle says {detail}")),
                (Err(e), false) => failures.push(format!("{src}: {} at {:?}", e.message, e.span)),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(ok > 700, "only {ok} golden expressions found in {dir:?}");
    assert!(rejected >= 1);
}

/// Scaled bases are notation as CuTe prints them: every oracle answer with `@` in it that is a
/// single value (identity layouts and what the algebra makes of them), typed back in, prints
/// exactly as CuTe printed it.
#[test]
fn scaled_bases_read_back_as_cute_prints_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    let mut checked = 0;
    for f in ["golden.jsonl", "golden_extra.jsonl", "algebra_cases.jsonl", "coord_cases.jsonl"] {
        let Ok(text) = std::fs::read_to_string(dir.join(f)) else { continue };
        for line in text.lines() {
            let Some(i) = line.find("\"cute\": \"") else { continue };
            let rest = &line[i + 9..];
            let Some(j) = rest.find('"') else { continue };
            let want = &rest[..j];
            // one value on one line: a layout or tuple with scaled-basis strides
            if !want.contains('@') || want.contains(' ') || want.contains('\\') || want.contains("ArithTuple") {
                continue;
            }
            let mut s = cute::session::Session::new(cute::session::Options::default());
            let (mut out, mut err) = (Vec::new(), Vec::new());
            s.run(want, "<oracle>", &mut out, &mut err);
            assert_eq!(
                String::from_utf8_lossy(&out).trim_end(),
                want,
                "{f}: CuTe's `{want}` typed back in: {}",
                String::from_utf8_lossy(&err)
            );
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} oracle answers with scaled bases");
}

/// Counting tensors and MixedBits offsets are notation as CuTe prints them: every oracle answer
/// that is one tensor (`ArithTuple145 o L`, `ArithTuple(_0,_0) o L`, `ArithTuple-128 o L`,
/// `ArithTuple1 o Sw<3,3,3> o M_0|(144&400)=144 o L`) or one composed layout with a MixedBits
/// offset, typed back in, prints exactly as CuTe printed it.
#[test]
fn counting_tensors_and_mixed_bits_read_back_as_cute_prints_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    let files = jsonl_files(&dir);
    let (mut tensors, mut mixed) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for f in &files {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            let Some(want) = json_str(line, "cute") else { continue };
            // (not `print_tensor`'s listing of an empty tensor: its line ends in `:`)
            let one_tensor = want.starts_with("ArithTuple") && !want.contains('\n') && !want.ends_with(':');
            let one_mixed = want.starts_with("Sw<") && want.contains(" o M_") && !want.contains('\n');
            if !(one_tensor || one_mixed) || !seen.insert(want.clone()) {
                continue;
            }
            let mut s = cute::session::Session::new(cute::session::Options::default());
            let (mut out, mut err) = (Vec::new(), Vec::new());
            s.run(&want, "<oracle>", &mut out, &mut err);
            let got = String::from_utf8_lossy(&out).trim_end().to_string();
            if got != want {
                failures.push(format!("{want}\n  read back: {got}{}", String::from_utf8_lossy(&err)));
            }
            tensors += usize::from(one_tensor);
            mixed += usize::from(want.contains(" o M_"));
        }
    }
    assert!(failures.is_empty(), "{} of CuTe's prints do not read back:\n{}", failures.len(), failures.join("\n"));
    eprintln!("read back: {tensors} distinct counting tensors, {mixed} with a MixedBits offset");
    assert!(
        tensors >= 300 && mixed >= 20,
        "only {tensors} tensors and {mixed} MixedBits offsets in the oracle answers"
    );
}

/// A statement that is one call of literal arguments is read without a tree and run from its
/// values (what the session does with most lines of a script): it must be the call the tree
/// holds and run to the same outcome, or be given back and run as the tree. Every script of the
/// repository, random calls (errors, warnings, printouts, unknown names, iterators among them)
/// and random mutations of them.
#[test]
fn literal_calls_run_as_their_trees() {
    fn scripts(dir: &std::path::Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if p.is_dir() && !p.ends_with("target") {
                scripts(&p, out);
            } else if p.extension().is_some_and(|x| x == "cute") {
                out.extend(std::fs::read_to_string(&p).ok());
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    for d in ["scripts", "examples", "tests", "docs"] {
        scripts(&root.join(d), &mut inputs);
    }
    assert!(inputs.len() >= 10, "the repository's scripts were not found");
    // a layout whose shape is an integer (read once, as an integer and then the layout's shape)
    inputs.push(
        "complement(_8 : _4, _32)\ncomplement(_8:  (_4), 32)\nsize(_8 :_4 )\ncoalesce(_ :_1)\n\
         coalesce(-1:_2)\ncoalesce(_8:_4:_2)\ncoalesce(8:x)\ncoalesce(8:(1,2))\nsize(_8:_4*2)\n\
         coalesce(99999999999999999999:_1)\ncoalesce(_8:_4 o _2:_1)\nsize(_8:_4,)\nsize(3:)\n"
            .to_string(),
    );
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let names = [
        "coalesce",
        "complement",
        "composition",
        "left_inverse",
        "right_inverse",
        "logical_divide",
        "logical_product",
        "zipped_divide",
        "blocked_product",
        "size",
        "rank",
        "shape",
        "cosize",
        "flatten",
        "filter",
        "get",
        "select",
        "make_layout",
        "ceil_div",
        "shape_div",
        "upcast",
        "with_shape",
        "print_layout",
        "print",
        "crd2idx",
        "idx2crd",
        "max_common_vector",
        "make_identity_layout",
        "nosuch",
        "ArithTuple",
        "run",
        "explain",
        "Sw",
        "is_injective",
    ];
    let ints = ["_1", "_2", "_4", "_8", "3", "_0", "_-1", "12", "_16", "99999999999999999999", "_", "x"];
    for _ in 0..400 {
        let mut text = String::new();
        for _ in 0..1 + next(6) {
            let int = |next: &mut dyn FnMut(usize) -> usize| ints[next(ints.len())].to_string();
            let tuple = |next: &mut dyn FnMut(usize) -> usize| match next(3) {
                0 => int(next),
                _ => format!("({},{})", int(next), int(next)),
            };
            let arg = |next: &mut dyn FnMut(usize) -> usize| match next(4) {
                0 => int(next),
                1 => tuple(next),
                _ => format!("{}:{}", tuple(next), tuple(next)),
            };
            let args: Vec<String> = (0..next(4)).map(|_| arg(&mut next)).collect();
            let blank = [" ", "", "\t", "  "];
            text.push_str(&format!(
                "{}{}({}){}\n",
                blank[next(4)],
                names[next(names.len())],
                args.join(blank[next(4)]).replace(' ', ", "),
                blank[next(4)]
            ));
            if next(8) == 0 {
                text.push_str(["# a comment\n", "\n", "x = (2,2):(1,2)\n", "coalesce(x)\n", "A o A\n"][next(5)]);
            }
        }
        inputs.push(text);
    }
    let alphabet: Vec<char> = "()<>,:_-+*/|^&~o =0123456789abcxyzSw\"\\.[]#\t\n".chars().collect();
    for k in 0..1000 {
        let mut m: Vec<char> = inputs[k % inputs.len()].chars().take(400).collect();
        for _ in 0..1 + next(3) {
            if !m.is_empty() {
                let at = next(m.len());
                m[at] = alphabet[next(alphabet.len())];
            }
        }
        inputs.push(m.into_iter().collect());
    }
    let (mut bad, mut by_values) = (Vec::new(), 0);
    for src in &inputs {
        match cute::interp::literal_calls_agree(src) {
            Ok(n) => by_values += n,
            Err(e) => bad.push(format!("{src:?}: {e}")),
        }
    }
    assert!(bad.is_empty(), "{}", bad[..bad.len().min(3)].join("\n"));
    // (the comparison is not empty: the random scripts alone hold hundreds of calls a value comes of)
    assert!(by_values >= 300, "only {by_values} calls ran from their values");
}
