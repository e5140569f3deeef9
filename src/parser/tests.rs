//! Unit tests of the parser (see also tests/parser.rs).
use super::ast::*;
use super::*;

/// A compact rendering of an expression tree, for tests.
pub(crate) fn sx(e: &Expr) -> String {
    let list = |v: &[Expr]| v.iter().map(sx).collect::<Vec<_>>().join(" ");
    let targs = |t: &[TArg]| t.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(",");
    match &e.kind {
        ExprKind::Int { value, is_static } => format!("{}{}", if *is_static { "_" } else { "" }, value),
        ExprKind::Basis { value, is_static, modes } => {
            let m: String = modes.iter().map(|m| format!("@{m}")).collect();
            format!("{}{}{m}", if *is_static { "_" } else { "" }, value)
        }
        ExprKind::Tuple(v) => format!("(tuple {})", list(v)),
        // a folded literal renders as the tree it was folded from
        ExprKind::Lit(v) => match v {
            crate::eval::value::Value::Tuple(t) => sx_lit(t),
            crate::eval::value::Value::Layout(l) => format!("(: {} {})", sx_lit(&l.shape), sx_lit(&l.stride)),
            v => format!("(lit {v})"),
        },
        ExprKind::Under => "_".into(),
        ExprKind::Str(t) => format!("{t:?}"),
        ExprKind::Layout(sd) => format!("(: {} {})", sx(&sd[0]), sx(&sd[1])),
        ExprKind::Tiler(v) => format!("(tiler {})", list(v)),
        ExprKind::Swizzle { b, m, s } => format!("Sw<{b},{m},{s}>"),
        ExprKind::Compose(a, b) => format!("(o {} {})", sx(a), sx(b)),
        ExprKind::ComposedLit { outer, offset, inner } => format!("(olit {} {} {})", sx(outer), sx(offset), sx(inner)),
        ExprKind::SmemPtr { bits } => format!("smem_ptr[{bits}b]"),
        ExprKind::MixedBits { s, d, f, v } => format!("M_{s}|({d}&{f})={v}"),
        ExprKind::Binary(op, a, b) => {
            let o = op.symbol();
            format!("({o} {} {})", sx(a), sx(b))
        }
        ExprKind::Not(a) => format!("(~ {})", sx(a)),
        ExprKind::Name(n) if n.targs.is_empty() => n.name.clone(),
        ExprKind::Name(n) => format!("{}<{}>", n.name, targs(&n.targs)),
        ExprKind::Call(c) if c.targs.is_empty() => format!("(call {} {})", c.name, list(&c.args)),
        ExprKind::Call(c) => format!("(call {}<{}> {})", c.name, targs(&c.targs), list(&c.args)),
        ExprKind::Apply(a) => format!("(apply {} {})", sx(&a.callee), list(&a.args)),
    }
}

fn sx_lit(t: &crate::eval::int_tuple::IntTuple) -> String {
    use crate::eval::int_tuple::V;
    match t.view() {
        V::I(i) => format!("{}{}", if i.s { "_" } else { "" }, i.v),
        V::Under => "_".into(),
        V::T(xs) => format!("(tuple {})", xs.iter().map(sx_lit).collect::<Vec<_>>().join(" ")),
        V::Basis(_) => format!("(lit {t})"),
    }
}

pub(crate) fn sstmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Expr(e) => sx(e),
        StmtKind::Bind { name, value, .. } => format!("(= {name} {})", sx(value)),
        StmtKind::Assert { lhs, rhs: None } => format!("(assert {})", sx(lhs)),
        StmtKind::Assert { lhs, rhs: Some(r) } => format!("(assert== {} {})", sx(lhs), sx(r)),
        StmtKind::Gemm(g) => format!(
            "({} {} {} {}{})",
            if g.emit { "emit" } else { "run" },
            sx(&g.m),
            sx(&g.n),
            sx(&g.k),
            g.args.iter().map(|a| format!(" {}={}", a.key, sx(&a.value))).collect::<String>()
        ),
        StmtKind::Explain(e) => format!("(explain {})", sx(e)),
    }
}

pub(crate) fn sprog(src: &str) -> String {
    match parse(src) {
        Ok(p) => p.stmts.iter().map(sstmt).collect::<Vec<_>>().join("; "),
        Err(e) => format!("ERR {}..{}: {}", e.span.start, e.span.end, e.message),
    }
}

/// The one expression of a one-statement program, rendered.
fn e(src: &str) -> String {
    sprog(src)
}

/// Asserts a parse error whose message contains `msg` and whose span is `start..end`.
fn err(src: &str, msg: &str, start: usize, end: usize) {
    match parse(src) {
        Ok(p) => panic!("{src:?} parsed: {:?}", p.stmts.iter().map(sstmt).collect::<Vec<_>>()),
        Err(e) => {
            assert!(e.message.contains(msg), "{src:?}: message {:?} lacks {msg:?}", e.message);
            assert_eq!((e.span.start, e.span.end), (start, end), "{src:?}: span of {:?}", e.message);
            assert!(!e.message.contains("Rule::") && !e.message.contains("int_lit"), "{}", e.message);
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Precedence and structure
// ------------------------------------------------------------------------------------------------

#[test]
fn precedence() {
    assert_eq!(e("(6,2):(8,2) o (4,3):(3,1)"), "(o (: (tuple 6 2) (tuple 8 2)) (: (tuple 4 3) (tuple 3 1)))");
    assert_eq!(e("(4,2):(1,4)(3)"), "(: (tuple 4 2) (apply (tuple 1 4) 3))");
    assert_eq!(e("A o B o C"), "(o (o A B) C)");
    assert_eq!(e("1 + 2 * 3 - 4 / 2"), "(- (+ 1 (* 2 3)) (/ 4 2))");
    assert_eq!(e("a:b+c o d"), "(o (: a (+ b c)) d)");
    assert_eq!(e("2*3:4"), "(: (* 2 3) 4)");
    assert_eq!(e("f(x)(y)"), "(apply (call f x) y)");
    assert_eq!(e("size(A) * 2"), "(* (call size A) 2)");
    assert_eq!(e("left_inverse(L) o L"), "(o (call left_inverse L) L)");
    assert_eq!(
        e("(_12,(_4,_8)):(_59,(_13,_1)) o <_3:_4, _8:_2>"),
        "(o (: (tuple _12 (tuple _4 _8)) (tuple _59 (tuple _13 _1))) (tiler (: _3 _4) (: _8 _2)))"
    );
    assert_eq!(e("(_4,_8):(_8,_1) o <_, _4:_2>"), "(o (: (tuple _4 _8) (tuple _8 _1)) (tiler _ (: _4 _2)))");
}

#[test]
fn bitwise_precedence_as_in_cpp() {
    assert_eq!(e("1 | 2 ^ 3 & 4 + 5 * 6"), "(| 1 (^ 2 (& 3 (+ 4 (* 5 6)))))");
    assert_eq!(e("a & b & c"), "(& (& a b) c)");
    assert_eq!(e("~a * ~~b"), "(* (~ a) (~ (~ b)))");
    assert_eq!(e("~A(1)"), "(~ (call A 1))");
    assert_eq!(e("a & b : c | d o e"), "(o (: (& a b) (| c d)) e)");
    assert_eq!(e("511 & 3"), "(& 511 3)");
    assert_eq!(e("~-3"), "(~ -3)");
}

#[test]
fn minus_literal_and_binary_minus() {
    assert_eq!(e("-3"), "-3");
    assert_eq!(e("_-3"), "_-3");
    assert_eq!(e("(4,-3)"), "(tuple 4 -3)");
    assert_eq!(e("a - 3"), "(- a 3)");
    assert_eq!(e("a-3"), "(- a 3)");
    assert_eq!(e("5 - -3"), "(- 5 -3)");
    assert_eq!(e("2*-3"), "(* 2 -3)");
    assert_eq!(e("(_4):(_-1) o (_4):(_1)"), "(o (: (tuple _4) (tuple _-1)) (: (tuple _4) (tuple _1)))");
    assert_eq!(e("-9223372036854775808"), "-9223372036854775808");
    assert_eq!(e("_9223372036854775807"), "_9223372036854775807");
}

#[test]
fn one_tuple_rule() {
    assert_eq!(e("(_4)"), "(tuple _4)");
    assert_eq!(e("(-3)"), "(tuple -3)");
    assert_eq!(e("((7))"), "(tuple (tuple 7))");
    assert_eq!(e("(_)"), "(tuple _)");
    assert_eq!(e("()"), "(tuple )");
    assert_eq!(e("(())"), "(tuple (tuple ))");
    assert_eq!(e("((4,2)):((2,1))"), "(: (tuple (tuple 4 2)) (tuple (tuple 2 1)))");
    assert_eq!(e("make_layout((_12))"), "(call make_layout (tuple _12))");
    // Grouping: a layout, a name, a call, a composition, arithmetic.
    assert_eq!(e("(_4:_1)"), "(: _4 _1)");
    assert_eq!(e("(A)"), "A");
    assert_eq!(e("(size(A))"), "(call size A)");
    assert_eq!(e("(1+2)"), "(+ 1 2)");
    assert_eq!(
        e("(Sw<2,0,3> o (_8,_8):(_8,_1)) o (_4,_4)"),
        "(o (o Sw<2,0,3> (: (tuple _8 _8) (tuple _8 _1))) (tuple _4 _4))"
    );
    // Grouping keeps the parentheses in the span.
    let p = parse("x = (A o B)").unwrap();
    let StmtKind::Bind { value, .. } = &p.stmts[0].kind else { panic!() };
    assert_eq!((value.span.start, value.span.end), (4, 11));
}

#[test]
fn composed_layout_literal() {
    assert_eq!(e("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"), "(olit Sw<3,3,3> _0 (: (tuple _8 _64) (tuple _64 _1)))");
    assert_eq!(e("Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o L"), "(olit Sw<2,0,3> _0 (olit Sw<2,0,3> _0 L))");
    // CuTe's print of a GMMA layout atom: the offset is the unset smem pointer flag
    assert_eq!(
        e("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"),
        "(olit Sw<3,4,3> smem_ptr[16b] (: (tuple _8 _64) (tuple _64 _1)))"
    );
    assert_eq!(e("A o smem_ptr[8b](unset) o B o C"), "(olit A smem_ptr[8b] (o B C))");
    assert_eq!(e("Swizzle<1,2,3> o 5 o L"), "(olit Sw<1,2,3> 5 L)");
    assert_eq!(e("(_4,_8):(_8,_1) o _6"), "(o (: (tuple _4 _8) (tuple _8 _1)) _6)");
    assert_eq!(e("A o B o _0 o C o D"), "(olit (o A B) _0 (o C D))");
    assert_eq!(e("A o -2 o C"), "(olit A -2 C)");
    assert_eq!(e("A o (_0) o C"), "(o (o A (tuple _0)) C)");
    // As the oracle reads it: the first operand of a chain is never an offset.
    assert_eq!(e("A o 0 o 1 o B"), "(olit A 0 (o 1 B))");
    assert_eq!(e("1 o 2 o 3"), "(olit 1 2 3)");
    assert_eq!(e("Sw<3,3,3> o 0"), "(o Sw<3,3,3> 0)");
}

#[test]
fn mixed_bits_offset_literal() {
    // CuTe's print of a swizzled layout sliced at a run-time coordinate: a MixedBits offset
    assert_eq!(
        e("Sw<3,3,3> o M_0|(144&400)=144 o (_2,_4):(_64,_1024)"),
        "(olit Sw<3,3,3> M_0|(144&400)=144 (: (tuple _2 _4) (tuple _64 _1024)))"
    );
    assert_eq!(e("It o Sw<3,4,3> o M_0|(0&8)=0 o L"), "(olit (o It Sw<3,4,3>) M_0|(0&8)=0 L)");
    assert_eq!(e("M_0|(64&64)=64"), "M_0|(64&64)=64");
    // without `=V`, or with spaces, it is what it was: the name M_0 or'ed with an integer
    assert_eq!(e("M_0|(64&64)"), "(| M_0 (& 64 64))");
    assert_eq!(sprog("assert M_0|(64&64)==64"), "(assert== (| M_0 (& 64 64)) 64)");
    err("M_0|(64&64)=64x", "found '='", 11, 12);
    err("Sw<3,3,3> o M_0|(64&64)= 64 o L", "found '='", 23, 24);
    err("Sw<3,3,3> o M_0|(1&99999999999)=1 o L", "32-bit unsigned", 12, 33);
}

#[test]
fn iterators_parse_as_names_calls_and_differences() {
    // `ArithTuple145`, `ArithTuple(_0,_0)`, `ArithTuple-128` are read by the interpreter (when
    // `ArithTuple...` is not a bound name); the parser sees what it always saw
    assert_eq!(e("ArithTuple145 o L"), "(o ArithTuple145 L)");
    assert_eq!(
        e("ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)"),
        "(o (call ArithTuple _0 _0) (: (tuple _4 _8) (tuple _1@0 _1@1)))"
    );
    assert_eq!(e("ArithTuple-128 o L"), "(o (- ArithTuple 128) L)");
    assert_eq!(e("ArithTuple_0 o Sw<1,1,1> o _0 o L"), "(olit (o ArithTuple_0 Sw<1,1,1>) _0 L)");
}

#[test]
fn swizzles_names_calls() {
    assert_eq!(e("Sw<3,3,3>"), "Sw<3,3,3>");
    assert_eq!(e("Swizzle<-1,2,-3>"), "Sw<-1,2,-3>");
    assert_eq!(e("Sw<3,3,3>(k)"), "(apply Sw<3,3,3> k)");
    assert_eq!(e("(A o B)(3)"), "(apply (o A B) 3)");
    assert_eq!(e("(A)(2)"), "(apply A 2)");
    assert_eq!(e("A(_,1)"), "(call A _ 1)");
    assert_eq!(e("A((1,2),3)"), "(call A (tuple 1 2) 3)");
    assert_eq!(e("get<2,0>(x)"), "(call get<2,0> x)");
    assert_eq!(e("upcast<_-2>(x)"), "(call upcast<-2> x)");
    assert_eq!(e("make_layout((2,3), LayoutRight)"), "(call make_layout (tuple 2 3) LayoutRight)");
    assert_eq!(e("SM90_64x64x16_F16F16F16_SS<K,K>"), "SM90_64x64x16_F16F16F16_SS<K,K>");
    assert_eq!(e("UniversalFMA<float,float,float,float>"), "UniversalFMA<float,float,float,float>");
    assert_eq!(
        e("copy_atom(SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t)"),
        "(call copy_atom SM80_CP_ASYNC_CACHEALWAYS<uint128_t> half_t)"
    );
    assert_eq!(e("print_layout(x)"), "(call print_layout x)");
    assert_eq!(e("f()"), "(call f )");
    assert_eq!(e("Sw<3,3,3> o (8,64):(64,1)"), "(o Sw<3,3,3> (: (tuple 8 64) (tuple 64 1)))");
    // `o` inside names is fine; `o` alone is the operator.
    assert_eq!(e("foo o oo"), "(o foo oo)");
    assert_eq!(e("(A)o(B)"), "(o A B)");
}

/// Where the pre-scan cuts statements, said plainly: at every `;` and new line of the cleaned
/// text outside string literals.
fn cuts_of(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let (mut cuts, mut start, mut i) = (Vec::new(), 0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] != b'\n' { 2 } else { 1 };
                }
            }
            b';' | b'\n' => {
                cuts.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    cuts.push((start, b.len()));
    cuts
}

/// The cuts the pre-scan records as it goes are those of its cleaned text.
#[test]
fn scan_cuts_statements() {
    for src in [
        "",
        "a",
        "a\n",
        "a;b\nc",
        ";;\n\n a ;\n",
        "a # c;d\nb",
        "x = (3,\n4) # c )\ny",
        "x = 3 \\\n + 4\ny",
        "print(\"a;b\\\"c\n\"); d",
        "f(1;2)\n<3,\n4>;",
        "t = <1,\n  # note\n  2>\n",
    ] {
        let scan = prescan::scan(src);
        if scan.error.is_none() {
            assert_eq!(scan.cuts, cuts_of(&scan.text), "{src:?}");
        }
    }
}

#[test]
fn statements() {
    assert_eq!(
        sprog("x = 3; assert x == 3\nassert identical(a, b)"),
        "(= x 3); (assert== x 3); (assert (call identical a b))"
    );
    assert_eq!(sprog(";;\n\n a ;\n"), "a");
    assert_eq!(sprog("a # comment (\nb"), "a; b");
    assert_eq!(sprog("x = 3 \\\n + 4"), "(= x (+ 3 4))");
    assert_eq!(sprog("x = 3 \\  # continue\r\n + 4\r\ny"), "(= x (+ 3 4)); y");
    assert_eq!(sprog("x = (3,\n4) # c )\ny"), "(= x (tuple 3 4)); y");
    assert_eq!(sprog("t = <1,\n  # note\n  2>"), "(= t (tiler 1 2))");
    assert_eq!(sprog("get<1>(\n(1,2))"), "(call get<1> (tuple 1 2))");
    assert_eq!(sprog("run = 3; run(2)"), "(= run 3); (call run 2)");
    assert_eq!(sprog(""), "");
    assert_eq!(sprog("# only a comment"), "");
    assert_eq!(sprog("run gemm 128 128 64 tile=<128,128,32> smem_a=Sw<3,3,3> o (8,64):(64,1) dtype=f16 stages=3"),
        "(run 128 128 64 tile=(tiler 128 128 32) smem_a=(o Sw<3,3,3> (: (tuple 8 64) (tuple 64 1))) dtype=f16 stages=3)");
    assert_eq!(sprog("emit gemm M N K"), "(emit M N K)");
    // `explain expr`; `explain` alone, bound or called is still a name
    assert_eq!(sprog("explain coalesce(A); explain A o B"), "(explain (call coalesce A)); (explain (o A B))");
    assert_eq!(sprog("explain (2,3):(1,2)"), "(explain (: (tuple 2 3) (tuple 1 2)))");
    // the empty tiler (CuTe: `make_tile()`)
    assert_eq!(sprog("logical_divide(A, <>)"), "(call logical_divide A (tiler ))");
    assert_eq!(sprog("explain = 3; explain; explainer"), "(= explain 3); explain; explainer");
    assert_eq!(sprog("explain(3); explain (3)"), "(call explain 3); (explain (tuple 3))");
    assert_eq!(
        sprog("sA = Sw<3,3,3> o (8,64):(64,1); run gemm 4096 4096 4096 smem_a=sA"),
        "(= sA (o Sw<3,3,3> (: (tuple 8 64) (tuple 64 1)))); (run 4096 4096 4096 smem_a=sA)"
    );
    let p = parse("emit gemm 1 2 3 mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((2,2,1)))").unwrap();
    let StmtKind::Gemm(g) = &p.stmts[0].kind else { panic!() };
    assert!(g.emit);
    let args = &g.args;
    assert_eq!(args[0].key, "mma");
    assert_eq!((args[0].key_span.start, args[0].key_span.end), (16, 19));
}

#[test]
fn spans() {
    // (`a` keeps the shape a tuple node: a literal one is folded whole, below)
    let src = "a = 1\n  L = (_4,a):(_1,_4); get<0>( L ); (_2, (_3,_1)) : _1";
    let p = parse(src).unwrap();
    let sp = |s: Span| &src[s.start..s.end];
    assert_eq!(sp(p.stmts[0].span), "a = 1");
    assert_eq!(sp(p.stmts[1].span), "L = (_4,a):(_1,_4)");
    let StmtKind::Bind { name_span, value, .. } = &p.stmts[1].kind else { panic!() };
    assert_eq!(sp(*name_span), "L");
    assert_eq!(sp(value.span), "(_4,a):(_1,_4)");
    let ExprKind::Layout(sd) = &value.kind else { panic!() };
    let [s, d] = &**sd;
    assert_eq!(sp(s.span), "(_4,a)");
    assert_eq!(sp(d.span), "(_1,_4)");
    let ExprKind::Tuple(items) = &s.kind else { panic!() };
    assert_eq!(sp(items[1].span), "a");
    assert!(matches!(d.kind, ExprKind::Lit(_)), "{d:?}");
    // A literal layout is one node spanning all of it.
    let StmtKind::Expr(l) = &p.stmts[3].kind else { panic!() };
    assert_eq!(sp(l.span), "(_2, (_3,_1)) : _1");
    let ExprKind::Lit(v) = &l.kind else { panic!("{l:?}") };
    assert_eq!(v.to_string(), "(_2,(_3,_1)):_1");
    let StmtKind::Expr(call) = &p.stmts[2].kind else { panic!() };
    assert_eq!(sp(call.span), "get<0>( L )");
    let ExprKind::Call(c) = &call.kind else { panic!() };
    let (name_span, args, targs) = (&c.name_span, &c.args, &c.targs);
    assert_eq!(sp(*name_span), "get");
    assert_eq!(sp(args[0].span), "L");
    assert_eq!(targs, &vec![TArg::Int(0)]);
    let src = "Sw<3,3,3> o _0 o L";
    let sp = |s: Span| &src[s.start..s.end];
    let p = parse(src).unwrap();
    let StmtKind::Expr(x) = &p.stmts[0].kind else { panic!() };
    let ExprKind::ComposedLit { outer, offset, inner } = &x.kind else { panic!() };
    assert_eq!((sp(x.span), sp(outer.span), sp(offset.span), sp(inner.span)), (src, "Sw<3,3,3>", "_0", "L"));
}

// ------------------------------------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------------------------------------

#[test]
fn error_messages() {
    err("(4,2):", "expected an integer, a tuple or a layout after ':'", 6, 6);
    err("x = (1,2) o", "after 'o'", 11, 11);
    err("(1 2)", "expected ',', ')'", 3, 4);
    err("1 2", "the end of the statement", 2, 3);
    err("f(1,)", "after ','", 4, 5);
    err("get<>(x)", "expected an integer or a name", 4, 5);
    err("get<a b>(x)", "expected ',' or '>'", 6, 7);
    err("f (x)", "without a space", 2, 3);
    err("get <1>(x)", "template arguments must follow the name directly", 4, 5);
    err("o = 3", "'o' is the composition operator", 0, 1);
    err("a == b", "assert a == b", 2, 4);
    err("(1,2):(3,4):(5,6)", "found ':'", 11, 12);
    err("a \\ b", "'\\'", 2, 3);
    err("x = é", "found 'é'", 4, 6);
    err("a = 1\n$", "expected a statement, found '$'", 6, 7);
    // REPL commands in a script: the error says they are the REPL's
    err("a = 1\n:help size", "found ':' (`:help`, `:vars` and the other ':' commands are the REPL's", 6, 7);
    err("help size", "found 'size' (`help NAME` is the REPL's", 5, 9);
    err("a = 1\n  help size", "`help NAME` is the REPL's", 13, 17);
    // (not for a ':' inside a statement)
    let inside = parse("(1,2):(3,4):(5,6)").err().map(|e| e.message).unwrap_or_default();
    assert!(inside.contains("found ':'") && !inside.contains("REPL"), "{inside}");
    err("assert", "expected an integer, a tuple or a layout", 6, 6);
    err("run gemm 1 2", "found end of input", 12, 12);
    err("Sw<3,3>", "a swizzle needs three integers", 0, 7);
    err("Sw(3)", "a swizzle needs three integers", 0, 2);
    err("Sw<a,3,3>", "a swizzle needs three integers", 0, 9);
    err("Sw = 1", "cannot be bound", 0, 2);
    err("12abc", "found '12abc'", 0, 5);
    err("L[1]", "with parentheses: L(1)", 1, 2);
}

#[test]
fn brackets() {
    err("(", "unbalanced '(': no matching ')'", 0, 1);
    err("f((1,2)", "unbalanced '('", 1, 2);
    err("<1,2", "unbalanced '<': no matching '>'", 0, 1);
    err("(1,2))", "unbalanced ')': no matching '('", 5, 6);
    err("a = 1; b = 2)", "unbalanced ')'", 12, 13);
    err(">", "unbalanced '>'", 0, 1);
    err("(1,2>", "mismatched '>'", 4, 5);
    err("<1,2)", "mismatched ')'", 4, 5);
    err("x = 3 \\", "line continuation", 6, 7);
    // A bracket in a comment does not count.
    assert_eq!(sprog("a # (\nb # >"), "a; b");
}

#[test]
fn huge_literals() {
    err("99999999999999999999", "does not fit in 64 bits", 0, 20);
    err("_99999999999999999999", "does not fit in 64 bits", 0, 21);
    err("(1, 9223372036854775808)", "does not fit in 64 bits", 4, 23);
    err("-9223372036854775809", "does not fit in 64 bits", 0, 20);
    err("get<99999999999999999999>(x)", "does not fit in 64 bits", 4, 24);
    err("Sw<99999999999999999999,1,1>", "does not fit in 64 bits", 3, 23);
}

fn timed_err(src: &str, msg: &str) {
    let t = std::time::Instant::now();
    let r = parse(src);
    let dt = t.elapsed();
    match r {
        Ok(_) => panic!("parsed {} bytes", src.len()),
        Err(e) => assert!(e.message.contains(msg), "{}", e.message),
    }
    // Generous: the machine running the tests may be busy; a hang would take far longer.
    assert!(dt.as_secs_f64() < 20.0, "took {dt:?}");
}

#[test]
fn deep_nesting() {
    // 256 is allowed (parsed on a large stack), whatever the bracket kind.
    for (open, close) in [("(", ")"), ("f(", ")"), ("<", ">"), ("(1,", ")"), ("(a:", ")"), ("(1+", ")"), ("A o (", ")")]
    {
        let s = format!("{}1{}", open.repeat(256), close.repeat(256));
        assert!(parse(&s).is_ok(), "{open} x 256: {:?}", parse(&s).err());
    }
    let s = format!("{}1{}", "(".repeat(257), ")".repeat(257));
    err(&s, "nesting too deep (limit 256)", 256, 257);
    for d in [1000usize, 100_000] {
        timed_err(&format!("{}1{}", "(".repeat(d), ")".repeat(d)), "nesting too deep (limit 256)");
        timed_err(&"(".repeat(d), "nesting too deep");
        timed_err(&format!("x = {}", "<(".repeat(d)), "nesting too deep");
        assert!(!is_incomplete(&"(".repeat(d)));
    }
}

#[test]
fn long_chains() {
    // Operator and postfix chains nest the tree without brackets: bounded too, and fast.
    // (Sizes kept moderate: pest in a debug build needs ~25 us per operand.)
    for d in [1000usize, 5_000, 100_000] {
        timed_err(&vec!["a"; d].join(" o "), "nested too deeply");
        timed_err(&vec!["1"; d].join("+"), "nested too deeply");
        timed_err(&vec!["A o _0"; d].join(" o "), "nested too deeply");
        timed_err(&format!("A{}", "(1)".repeat(d)), "nested too deeply");
        timed_err(&vec!["1"; d].join(" & "), "nested too deeply");
        timed_err(&vec!["1"; d].join("|"), "nested too deeply");
        timed_err(&format!("{}1", "~".repeat(d)), "nested too deeply");
    }
    assert!(parse(&vec!["~1 & 2 ^ 3"; 400].join(" | ")).is_ok());
    assert!(parse(&vec!["a"; 200].join(" o ")).is_ok());
    // The pre-scan rejects a chain longer than the limit at the operator past the limit, before
    // pest runs; anything shorter is left to the AST builder.
    let at = |src: &str| parse(src).err().map(|e| (e.message, e.span.start));
    let chain = vec!["a"; 514].join(" o ");
    let (m, pos) = at(&chain).unwrap();
    assert!(m.contains("nested too deeply (limit 512"), "{m}");
    assert_eq!(pos, chain.match_indices(" o ").nth(512).unwrap().0 + 1);
    assert!(at(&format!("{}1", "1 - ".repeat(600))).is_some());
    // Unary minus, commas, brackets and statements break chains.
    assert!(parse(&format!("({})", vec!["a o a"; 600].join(", "))).is_ok());
    assert!(parse(&vec!["1 - -1"; 300].join("; ")).is_ok());
    assert!(parse(&vec!["-1"; 400].join(" + ")).is_ok());
    assert!(parse(&vec!["(a o a o a)"; 400].join(" + ")).is_ok());
    assert!(parse(&vec!["a*a*a"; 400].join(" + ")).is_ok());
    assert!(parse(&vec!["a o a"; 400].join("\n")).is_ok());
    // Inputs larger than the limit are refused at once.
    let big = format!("x = 1 # {}", "é".repeat(crate::parser::MAX_SOURCE_BYTES / 2));
    let e = parse(&big).unwrap_err();
    assert!(e.message.starts_with("input too large"), "{}", e.message);
    assert!(big.is_char_boundary(e.span.start));
    // Many statements are fine.
    let many = "x = (1,2):(3,4)\n".repeat(5_000);
    let t = std::time::Instant::now();
    assert_eq!(parse(&many).unwrap().stmts.len(), 5_000);
    assert!(t.elapsed().as_secs_f64() < 20.0);
}

#[test]
fn incomplete() {
    assert!(is_incomplete("(1,2"));
    assert!(is_incomplete("x = <1,\n2"));
    assert!(is_incomplete("get<1>((1,2),"));
    assert!(is_incomplete("x = 3 \\"));
    assert!(is_incomplete("x = 3 \\  "));
    assert!(is_incomplete("x = 3 \\ # more"));
    assert!(!is_incomplete("(1,2)"));
    assert!(!is_incomplete("(1,2))"));
    assert!(!is_incomplete("(1,2>"));
    assert!(!is_incomplete("x = 3 # (("));
    assert!(!is_incomplete(""));
    assert!(!is_incomplete("(4,2):"));
}

/// A small deterministic generator (xorshift) for the no-panic check.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn never_panics_on_noise() {
    let pieces = [
        "(",
        ")",
        "<",
        ">",
        ",",
        ":",
        " o ",
        "o",
        "_",
        "-",
        "+",
        "*",
        "/",
        "=",
        "==",
        ";",
        "\n",
        "\\\n",
        "\\",
        "#",
        "1",
        "_3",
        "-2",
        "99999999999999999999",
        "a",
        "get",
        "Sw",
        "Sw<1,2,3>",
        "assert ",
        "run gemm ",
        "emit ",
        " ",
        "\t",
        "é",
        "\r",
        "x=",
        "f(",
        "<_,",
        "\u{0}",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let n = (rng.next() % 30) as usize;
        let s: String = (0..n).map(|_| pieces[(rng.next() % pieces.len() as u64) as usize]).collect();
        let _ = is_incomplete(&s);
        match parse(&s) {
            Ok(_) => {}
            Err(e) => {
                assert!(e.span.start <= e.span.end && e.span.end <= s.len(), "{s:?}: {e:?}");
                assert!(s.is_char_boundary(e.span.start) && s.is_char_boundary(e.span.end), "{s:?}: {e:?}");
                assert!(!e.message.is_empty());
            }
        }
    }
}

#[test]
fn string_literals() {
    assert_eq!(e(r#"svg(A, "f.svg")"#), r#"(call svg A "f.svg")"#);
    // `#`, brackets, `o`, `\` and `;` inside a string are text.
    assert_eq!(e(r#"x = "a # (b o <c; \\ \" \n\t""#), r#"(= x "a # (b o <c; \\ \" \n\t")"#);
    assert_eq!(e(r#"f("", "é")"#), r#"(call f "" "é")"#);
    assert_eq!(e("\"a\" # \"b"), r#""a""#);
    err(r#"x = "abc"#, "unterminated string", 4, 5);
    err("x = \"ab\nc\"", "unterminated string", 4, 5);
    err(r#"x = "a\q""#, "unknown escape", 6, 8);
    err(r#"x = "a\é""#, "unknown escape", 6, 9);
    // A string is an operand like any other: an operator must separate it from the next one.
    err(r#"f("a" "b")"#, "expected", 6, 7);
}

#[test]
fn scaled_bases_are_literals() {
    assert_eq!(e("_1@0"), "_1@0");
    assert_eq!(e("3@1@0"), "3@1@0");
    assert_eq!(e("(_1@0)"), "(tuple _1@0)");
    assert_eq!(e("(_4,_8):(_1@0,_2@1)"), "(: (tuple _4 _8) (tuple _1@0 _2@1))");
}

/// Files of the repository whose statements the fast-path test parses.
fn corpus_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cute" || x == "md") {
            out.push(p);
        }
    }
}

/// One random edit of `m`: a character deleted, inserted (from `alphabet`) or replaced.
fn mutate(m: &mut Vec<char>, alphabet: &[char], next: &mut impl FnMut(usize) -> usize) {
    let i = next(m.len() + 1);
    match next(3) {
        0 if !m.is_empty() => {
            m.remove(i.min(m.len() - 1));
        }
        1 => m.insert(i, alphabet[next(alphabet.len())]),
        _ if !m.is_empty() => {
            let at = i.min(m.len() - 1);
            m[at] = alphabet[next(alphabet.len())];
        }
        _ => {}
    }
}

/// The fast parser takes only statements that pest and the builder accept, and builds the same
/// statement, spans included: every statement of the repository's scripts and Markdown files,
/// and random mutations of them (deleted, inserted and replaced characters, cut ends).
#[test]
fn fast_path_builds_what_pest_builds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["tests", "examples", "docs"] {
        corpus_files(&root.join(d), &mut files);
    }
    files.push(root.join("README.md"));
    let mut base = std::collections::BTreeSet::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for line in text.lines() {
            let line = line.strip_prefix("cute> ").unwrap_or(line);
            let scan = prescan::scan(line);
            if scan.error.is_some() {
                continue;
            }
            for &(a, b) in &scan.cuts {
                let chunk = &scan.text[a..b];
                if !chunk.trim().is_empty() && chunk.len() < 400 {
                    base.insert(chunk.to_string());
                }
            }
        }
    }
    assert!(base.len() > 500, "only {} statements found", base.len());
    let alphabet: Vec<char> = "()<>,:_-+*/|^&~o =0123456789abcxyzSw\"\\.[]é\t".chars().collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let mut all: Vec<String> = base.iter().cloned().collect();
    for s in &base {
        let chars: Vec<char> = s.chars().collect();
        for _ in 0..6 {
            let mut m = chars.clone();
            mutate(&mut m, &alphabet, &mut next);
            all.push(m.into_iter().collect());
        }
        all.push(chars[..next(chars.len() + 1)].iter().collect());
    }
    let (mut fast_hits, mut base_hits) = (0, 0);
    let accepted = base.iter().filter(|c| parse_statement(c).map(build::stmt).is_ok_and(|r| r.is_ok())).count();
    for (k, chunk) in all.iter().enumerate() {
        let Some(fast) = fast::stmt(chunk) else {
            continue;
        };
        fast_hits += 1;
        if k < base.len() {
            base_hits += 1;
        }
        let slow = parse_statement(chunk).map(build::stmt);
        match slow {
            Ok(Ok(s)) => assert_eq!(s, fast, "{chunk:?}"),
            Ok(Err(e)) => panic!("{chunk:?}: the fast path took it, the builder says {e:?}"),
            Err(e) => panic!("{chunk:?}: the fast path took it, pest says {e}"),
        }
    }
    // Most statements that parse take the fast path (not `run gemm`, `explain`, `smem_ptr`).
    assert!(base_hits * 10 > accepted * 8, "{base_hits} of {accepted} statements");
    assert!(fast_hits > base_hits);
}

/// Fuzz findings of the `session` target's agreement check (fast path against pest).
#[test]
fn fast_path_agrees_on_fuzz_findings() {
    let mut bad = Vec::new();
    for src in [
        "ayoUt_SM(6,I1) o \r\r-444444444:\rK\r\r-\r\r\r\rt_\r\r\r\r",
        "A o (4):(K - t)\r\r",
        "A o (4):(K - t)  ",
        "(4):(K - t)\r",
        "(4):(K - t)  ",
        "(4):K\r",
        "(4):(2)\r",
        "(4):(2)  ",
        "x = (4):(2)\r",
        "A o (4):(2)\r",
        "4:K - t  ",
        "A o 4:K - t  ",
        "A o 4:K - t",
        "4:K - t\r",
        "A o 4:K\r",
        "A o 4:K  ",
        "A o 4:K*2  ",
        "A o B o 4:K*2  ",
        "x = A o 4:K*2  ",
        "A o 4*2:K  ",
        "A o 4:(K*2)  ",
        "assert A o 4:K*2  ",
        "assert A == A o 4:~K  ",
        "A o 4:K*2 \t",
        "Sw<1,2,3> o 0 o 4:K*2  ",
        "A o 4*2:K  ",
        "A o ~K:K  ",
        "A o (4,8):(K,2*K)  ",
        "f(A o 4:K*2  )",
        "<A o 4:K*2  >",
    ] {
        if let Err(e) = super::fast_path_agrees(src) {
            bad.push(format!("{src:?}: {}", &e[e.len().saturating_sub(60)..]));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Reading lazily gives the statements and errors of reading with the pre-pass: the
/// repository's scripts and Markdown files as wholes, their statements joined a few at a time
/// and mutated (characters deleted, inserted, replaced), and inputs made for the lazy reader's
/// edges (comments, blank lines, `\r`, continuations, brackets over lines, deep nesting after
/// simple lines, late bracket errors).
#[test]
fn lazy_reading_agrees() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["tests", "examples", "docs", "scripts"] {
        corpus_files(&root.join(d), &mut files);
    }
    files.push(root.join("README.md"));
    let mut inputs: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        if f.extension().is_some_and(|e| e == "cute") {
            inputs.push(text.clone());
        }
        lines.extend(text.lines().map(|l| l.strip_prefix("cute> ").unwrap_or(l).to_string()));
    }
    let deep = format!("size({}1{})", "(".repeat(40), ")".repeat(40));
    for edge in [
        "# c\n\n  \t\nsize(_4)   # c\nsize(_8)\n",
        "size(_4)\r\nsize(_8)\r\n",
        "size(_4)\nsize((1,\n 2))\nsize(_8)\n",
        "size(_4)\nsize(_4) \\\n+ 1\n",
        "size(_4)\nsize((1,2)\n",
        "size(_4)\nsize(1,2))\nsize(_8)",
        "size(_4)\nfoo bar\nsize((1,2)\n",
        "size(_4); size(_8)\nsize(_2)\n",
        "A = (2,2):(1,2)\nA o A\nA(1)(0)\n",
        "size(((((((((_1))))))))))\nsize((((((((_1))))))))\n",
        "size(\"a#b\")  # c\nsize(_4)\n",
        "x = 99999999999999999999\nsize(_4)\n",
        "",
        "\n\n",
        "size(_4)",
    ] {
        inputs.push(edge.to_string());
    }
    inputs.push(format!("size(_4)\n{deep}\nsize(_8)\n"));
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let alphabet: Vec<char> = "()<>,:_-+*/|^&~o =0123456789abcxyzSw\"\\.[]é\t\n#;\r".chars().collect();
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..1 + next(4) {
            text.push_str(&lines[next(lines.len())]);
            text.push('\n');
        }
        let mut m: Vec<char> = text.chars().collect();
        for _ in 0..next(3) {
            mutate(&mut m, &alphabet, &mut next);
        }
        inputs.push(m.into_iter().collect());
    }
    let mut bad = Vec::new();
    for (n, src) in inputs.iter().enumerate() {
        for k in [0, 1, usize::MAX] {
            if let Err(e) = super::lazy_agrees(src, k) {
                bad.push(format!("input {n} {src:?} (check_rest after {k}): {e}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad[..bad.len().min(5)].join("\n"));
}

/// Lazy reading does read lazily: simple lines are taken without the pre-pass (the reader is
/// still lazy after them), the first other line ends it, and deep nesting found then asks for
/// a restart.
#[test]
fn lazy_reading_takes_simple_lines_without_the_pre_pass() {
    let mut s = super::statements_lazy("# a comment\nsize(_4)\n\nx = (2,2):(1,2)\nA o A\n", 32).unwrap();
    for _ in 0..2 {
        assert!(matches!(s.next_stmt(), Some(Ok(_))));
        assert!(s.lazy.is_some(), "a simple line ended lazy reading");
    }
    assert!(matches!(s.next_stmt(), Some(Ok(_))));
    assert!(s.lazy.is_none(), "`A o A` was read without the pre-pass");
    assert!(s.next_stmt().is_none() && !s.restart());

    let deep = format!("size(_4)\nsize({}1{})\n", "(".repeat(40), ")".repeat(40));
    let mut s = super::statements_lazy(&deep, 32).unwrap();
    assert!(matches!(s.next_stmt(), Some(Ok(_))));
    assert!(s.next_stmt().is_none() && s.restart(), "deep nesting after a simple line asks for a restart");
}

#[test]
fn expr_is_small() {
    // The parser moves expressions by value (see `ast`): a literal value and a span at most.
    assert!(std::mem::size_of::<Expr>() <= 64, "{}", std::mem::size_of::<Expr>());
    // A statement is moved whole: within 128 bytes it is copied without a call to `memcpy`.
    assert!(std::mem::size_of::<Stmt>() <= 128, "{}", std::mem::size_of::<Stmt>());
}

/// The line search that reads a script's lines finds the first new line, as `memchr` does, at
/// every position of texts longer and shorter than a vector register.
#[test]
fn find_newline_is_memchr() {
    for len in 0..80 {
        for at in 0..=len {
            let mut b = vec![b'x'; len];
            if at < len {
                b[at] = b'\n';
                if at + 3 < len {
                    b[at + 3] = b'\n';
                }
            }
            assert_eq!(super::find_newline(&b), memchr::memchr(b'\n', &b), "len {len}, new line at {at}");
        }
    }
}
