//! Integer tuples need no heap block per node (issue 8, deliverable 1): a tuple of at most
//! `FLAT` integers is held inline, any other tuple is one block. So an operation allocates
//! exactly its answer's blocks: none for an answer of flat tuples, one per tuple that holds a
//! tuple or more than `FLAT` integers. Counted here by an allocator that counts this thread's
//! allocations, around the engine's call only (the arguments are made before).

use cute::eval::error::take_warnings;
use cute::eval::int_tuple::{IntTuple, FLAT};
use cute::eval::layout::Layout;
use cute::eval::value::Value;
use cute::interp::Interp;
use cute::parser::ast::{ExprKind, StmtKind};
use cute::registry;
use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the count is a
// thread-local cell (no allocation of its own).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: AllocLayout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: AllocLayout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: AllocLayout, n: usize) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static A: Counting = Counting;

fn allocs() -> usize {
    ALLOCS.with(|c| c.get())
}

/// The blocks a tuple owns: one for each tuple node that is not an inline one.
fn blocks(t: &IntTuple) -> usize {
    match t.kids() {
        Some(v) if t.flat().is_none() => 1 + v.iter().map(blocks).sum::<usize>(),
        _ => 0,
    }
}

fn layout_blocks(l: &Layout) -> usize {
    blocks(&l.shape) + blocks(&l.stride)
}

/// Each statement `f(args)` of `src`: its text, its answer, the allocations of the call alone,
/// and whether it warned (a warning's message is allocated).
fn counted(src: &str) -> Vec<(String, Value, usize, bool)> {
    let program = cute::parser::parse(src).expect("parses");
    let interp = Interp::new();
    let mut out = Vec::new();
    let mut lines = src.lines().filter(|l| !l.trim().is_empty());
    for s in &program.stmts {
        let StmtKind::Expr(e) = &s.kind else { panic!("a call") };
        let ExprKind::Call(c) = &e.kind else { panic!("a call") };
        let slot = registry::get(&c.name).expect("a built-in");
        let args: Vec<Value> = c.args.iter().map(|a| interp.eval(a).expect("an argument")).collect();
        let targs = c.targs.clone();
        let before = allocs();
        let r = registry::call_slot_values(slot, &targs, &args);
        let n = allocs() - before;
        let warned = !take_warnings().is_empty();
        out.push((lines.next().unwrap_or_default().to_string(), r.expect("an answer"), n, warned));
    }
    out
}

#[test]
fn flat_tuples_are_inline() {
    assert_eq!(FLAT, 2);
    // (the same size as a tuple that was a vector of elements: values are not larger to copy)
    assert_eq!(std::mem::size_of::<IntTuple>(), 24);
    assert_eq!(std::mem::size_of::<Layout>(), 48);
    let flat = IntTuple::T(vec![IntTuple::st(8), IntTuple::dy(4)]);
    assert!(flat.flat().is_some());
    assert_eq!(flat.to_string(), "(_8,4)");
    assert_eq!(blocks(&flat), 0);
    let nested = IntTuple::T(vec![flat.clone(), IntTuple::st(2)]);
    assert!(nested.flat().is_none());
    assert_eq!(nested.to_string(), "((_8,4),_2)");
    assert_eq!(blocks(&nested), 1);
    let long = IntTuple::T((1..=4).map(IntTuple::st).collect());
    assert_eq!((long.flat().is_some(), blocks(&long)), (false, 1));
    let with_under = IntTuple::T(vec![IntTuple::Under, IntTuple::st(2)]);
    assert_eq!((with_under.flat().is_some(), with_under.to_string()), (false, "(_,_2)".to_string()));
}

/// Answers whose tuples are all flat (most answers of the benchmark's files) allocate nothing.
#[test]
fn flat_answers_allocate_nothing() {
    let src = "\
coalesce((_2,_4):(_1,_2))
coalesce((_4,_3):(_3,_12))
complement((_4,_2):(_1,_16), _64)
complement(_4:_2, _32)
composition((_8,_16):(_1,_8), (_4,_2):(_1,_4))
composition((_16,_4):(_4,_2), (_4,_2):(_4,_16))
right_inverse((_4,_2):(_2,_1))
left_inverse((_4,_2):(_1,_8))
";
    for (text, r, n, _) in counted(src) {
        let Value::Layout(l) = &r else { panic!("{text}: {r}") };
        assert_eq!(layout_blocks(l), 0, "{text} = {l}: a flat answer");
        assert_eq!(n, 0, "{text} = {l}: {n} allocations");
    }
}

/// Any other answer allocates its own blocks and nothing else.
#[test]
fn nested_answers_allocate_their_blocks() {
    let src = "\
coalesce((_2,_3,_5):(_1,_4,_24))
composition((_4,_8):(_8,_1), (_2,_16):(_1,_2))
logical_divide((_8,_16):(_1,_8), _2:_4)
logical_divide((_4,_4):(_1,_8), _4:_1)
complement((_2,_2):(_1,_6), _48)
right_inverse((_2,_3,_5):(_15,_5,_1))
logical_product((_2,_2):(_1,_2), _3:_1)
";
    let mut nested = 0;
    for (text, r, n, _) in counted(src) {
        let Value::Layout(l) = &r else { panic!("{text}: {r}") };
        let b = layout_blocks(l);
        nested += usize::from(b > 0);
        assert_eq!(n, b, "{text} = {l}: {n} allocations for {b} blocks");
    }
    assert!(nested >= 4, "the cases exercise nested answers");
}

/// Every case of the benchmark's eight files (`../shared/bench`, 160,000 calls; skipped where
/// it is absent) allocates exactly its answer's blocks, except where it warns (the warning's
/// text). Prints the allocations per call, next to the answers' blocks.
#[test]
fn bench_cases_allocate_their_answers_blocks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let files = ["coalesce", "complement_r1", "complement_r2", "composition"];
    let more = ["left_inverse", "logical_divide", "logical_product", "right_inverse"];
    for f in files.iter().chain(&more) {
        let Ok(src) = std::fs::read_to_string(dir.join(format!("{f}.cute"))) else {
            eprintln!("{} absent: skipped", dir.display());
            return;
        };
        let src: String =
            src.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.to_string() + "\n").collect();
        let (mut allocs, mut blocks, mut calls, mut warned) = (0, 0, 0, 0);
        for (text, r, n, w) in counted(&src) {
            let b = match &r {
                Value::Layout(l) => layout_blocks(l),
                Value::Tuple(t) => self::blocks(t),
                other => panic!("{text} = {other}: not a layout or a tuple"),
            };
            if w {
                warned += 1;
            } else {
                assert_eq!(n, b, "{text} = {r}: {n} allocations for {b} blocks");
            }
            (allocs, blocks, calls) = (allocs + n, blocks + b, calls + 1);
        }
        assert!(calls >= 20_000, "{f}: {calls} calls");
        println!(
            "{f}: {:.2} allocations a call, answers' blocks {:.2} ({warned} calls warned)",
            allocs as f64 / calls as f64,
            blocks as f64 / calls as f64
        );
    }
}

/// A random tuple of depth at most 2, from integers, `_` and nested tuples, built by `T(..)`.
fn tree(seed: &[(u8, i64, bool)]) -> IntTuple {
    let leaf = |&(k, v, s): &(u8, i64, bool)| match k % 8 {
        0 => IntTuple::Under,
        _ => IntTuple::I(cute::eval::int::Int { v, s }),
    };
    let mut out = Vec::new();
    for chunk in seed.chunks(3) {
        if chunk[0].0 % 3 == 0 {
            out.push(IntTuple::T(chunk.iter().map(leaf).collect()));
        } else {
            out.extend(chunk.iter().map(leaf));
        }
    }
    IntTuple::T(out)
}

proptest::proptest! {
    /// Whatever builds a tuple, equal elements make equal tuples (the same form, text and hash),
    /// and a tuple's elements read back build it again.
    #[test]
    fn one_form_whatever_builds_it(seed in proptest::collection::vec((0u8..16, -5i64..1000, proptest::bool::ANY), 0..7)) {
        use std::hash::{BuildHasher, RandomState};
        let t = tree(&seed);
        let kids = t.kids().expect("a tuple").to_vec();
        let mut b = cute::eval::int_tuple::TupleBuilder::new();
        kids.iter().cloned().for_each(|e| b.push(e));
        let built = b.finish();
        let again = IntTuple::T(kids.clone());
        let h = RandomState::new();
        for u in [&built, &again, &t.clone().into_kids().map(IntTuple::T).expect("a tuple")] {
            proptest::prop_assert_eq!(u, &t);
            proptest::prop_assert_eq!(u.to_string(), t.to_string());
            proptest::prop_assert_eq!(h.hash_one(u), h.hash_one(&t));
            proptest::prop_assert_eq!(u.flat().is_some(), t.flat().is_some());
        }
        // inline exactly when at most FLAT integers
        let ints = kids.iter().all(|e| matches!(e, IntTuple::I(_)));
        proptest::prop_assert_eq!(t.flat().is_some(), ints && kids.len() <= FLAT);
        if ints {
            let v: Vec<_> = kids.iter().map(|e| e.as_int().unwrap()).collect();
            proptest::prop_assert_eq!(&IntTuple::of_ints(&v), &t);
            proptest::prop_assert_eq!(&IntTuple::of_int_iter(v.iter().copied()), &t);
        }
    }
}
