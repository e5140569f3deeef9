//! The parser's public API as other modules use it (the detailed cases are unit tests in
//! src/parser/tests.rs: golden expressions, precedence, 1-tuples, errors, limits).
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
        matches!(p.stmts[2].kind, StmtKind::Expr(ref e) if matches!(e.kind, ExprKind::Call { ref name, .. } if name == "print_layout"))
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
