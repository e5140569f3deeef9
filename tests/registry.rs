//! The registry: one entry per function name, every extra form belongs to an entry, and a probe
//! of every name with many argument kinds (what `eval::overloads` chooses between) that never
//! panics. `dispatch_dump` (ignored) writes the full answer of each probe call to `$DIFF_OUT`,
//! so a change to the dispatch can be compared before/after with `diff`.
mod common;
use cute::eval::builtins::{Arity, MANY};
use cute::eval::error::{take_warnings, ErrorKind};
use cute::registry::{self, TArg};
use cute::session::{Options, Session};
use std::collections::HashSet;

#[test]
fn one_entry_per_name() {
    let mut seen = HashSet::new();
    let dup: Vec<&str> = registry::registry().iter().map(|b| b.name).filter(|n| !seen.insert(*n)).collect();
    assert!(dup.is_empty(), "names with more than one registry entry: {dup:?}");
}

#[test]
fn every_form_has_its_entry() {
    for f in registry::documented() {
        assert!(registry::exists(f.name), "form `{}` has no entry", f.sig);
        assert!(registry::forms(f.name).iter().any(|g| g.sig == f.sig), "form `{}` is not in help", f.sig);
    }
}

/// Values of every kind the functions tell apart: integers, tuples, layouts, swizzles,
/// composed layouts, tilers, tags, strings, MMA/copy objects, tensors, printed text.
const POOL: &[&str] = &[
    "5",
    "_4",
    "_0",
    "(2,_3)",
    "((2,3),4)",
    "(_,2)",
    "(_4,_2):(_1,_4)",
    "(_8,_64):(_64,_1)",
    "((_2,_2),_4):((_1,_8),_2)",
    "Sw<3,3,3>",
    "Sw<3,3,3> o (_8,_64):(_64,_1)",
    "Sw<2,0,2> o _2 o (_4,_4):(_4,_1)",
    "make_composed_layout(_16:_2, _0, (_4,_4):(_1,_4))",
    "<_4,_2>",
    "<_2:_2,_4>",
    "LayoutLeft",
    "half_t",
    "\"s\"",
    "SM80_16x8x16_F16F16F16F16_TN",
    "mma_atom(SM80_16x8x16_F16F16F16F16_TN)",
    "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1)))",
    "SM75_U32x4_LDSM_N",
    "copy_atom(SM75_U32x4_LDSM_N, half_t)",
    "make_tiled_copy(copy_atom(UniversalCopy<uint128_t>, half_t), (_16,_8):(_1,_16), make_layout((_8,_1)))",
    "partition_C(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))), 37, make_layout((_64,_32)))",
    "partition_C(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))), 37, Sw<3,3,3> o (_64,_32):(_32,_1))",
    "print_layout((_2,_2):(_1,_2))",
];

/// Every name × every template-argument set × every list of 0..2 pool values (and 3 values of a
/// smaller pool): one line per call with its value or its whole error, and its warnings.
fn probe(names: &[&str], full: bool) -> String {
    let pool: Vec<_> = POOL.iter().map(|s| common::eval_value(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))).collect();
    let small = [0usize, 3, 6, 10, 19, 21, 24];
    let targsets: Vec<Vec<TArg>> = vec![
        vec![],
        vec![TArg::Int(1)],
        vec![TArg::Int(0), TArg::Int(1)],
        vec![TArg::Name("half_t".into()), TArg::Name("uint32_t".into())],
    ];
    let mut lists: Vec<Vec<usize>> = vec![vec![]];
    lists.extend((0..pool.len()).map(|i| vec![i]));
    if full {
        for i in 0..pool.len() {
            lists.extend((0..pool.len()).map(|j| vec![i, j]));
        }
    }
    let mut triples: Vec<Vec<usize>> = Vec::new();
    for &i in &small {
        for &j in &small {
            for &k in &small {
                triples.push(vec![i, j, k]);
            }
        }
    }
    let mut out = String::new();
    for n in names {
        for (ti, t) in targsets.iter().enumerate() {
            let extra: &[Vec<usize>] = if full && ti <= 1 { &triples } else { &[] };
            for l in lists.iter().chain(extra) {
                let args: Vec<_> = l.iter().map(|&i| pool[i].clone()).collect();
                let _ = take_warnings();
                let r = registry::call(n, t, &args);
                let w = take_warnings();
                let shown = match &r {
                    Ok(v) => {
                        let s = v.to_string();
                        if s.len() > 300 {
                            format!("OK {}..{}", &s[..s.char_indices().nth(150).map_or(s.len(), |c| c.0)], s.len())
                        } else {
                            format!("OK {s}")
                        }
                    }
                    Err(e) => format!("ERR {e:?}"),
                };
                out += &format!("{n}<{ti}>{l:?} {shown} {w:?}\n");
            }
        }
    }
    out
}

/// Bad argument kinds are errors, never panics (one and no arguments of every kind).
#[test]
fn every_name_answers_every_kind() {
    let names = registry::names();
    let out = probe(&names, false);
    assert!(out.lines().count() > 10_000);
}

/// A refusal of the arguments names the function called, with its arguments' kinds: not a
/// function its implementation called on values of its own (`tile(S, Sw)` once answered
/// `tiled_divide does not accept (a layout, a swizzle)`). Every name on every pair of values.
#[test]
fn refusals_name_the_function_called() {
    let out = probe(&registry::names(), true);
    assert!(out.lines().count() > 500_000);
    for line in out.lines() {
        let called = line.split('<').next().unwrap_or("");
        if let Some((before, _)) = line.split_once(" does not accept (") {
            let named = before.rsplit(['"', ' ']).next().unwrap_or("");
            assert_eq!(named, called, "{line}");
        }
    }
}

/// `DIFF_OUT=/tmp/before.txt cargo test --release --test registry -- --ignored dispatch_dump`,
/// then the same after a change to `DIFF_OUT=/tmp/after.txt`, then `diff` the two.
#[test]
#[ignore]
fn dispatch_dump() {
    let path = std::env::var("DIFF_OUT").unwrap_or_else(|_| "registry_dispatch.txt".into());
    std::fs::write(path, probe(&registry::names(), true)).unwrap();
}

/// The entries that still count their own arguments (`Arity::Own`), and why: the count or its
/// wording depends on the argument kinds, or a wrong count is refused by kind (`does not
/// accept`) rather than counted. The list may shrink, never grow: a new function declares its
/// arity in its registry entry.
const OWN_ARITY: &[&str] = &[
    // count depends on the kinds: make_layout(shape [, stride]) or make_layout(L0, L1, ...)
    "make_layout",
    // a swizzled argument words its own count (`get<I...>(S) takes template indices and one argument`)
    "get",
    "select",
    "append",
    "prepend",
    "replace",
    // the missing coordinate is worded by the callee's kind (layout, swizzle, tensor)
    "__apply",
    // `banks` words the count for `bank_picture` and `banks` (the error points at argument 1)
    "bank_picture",
    // no count of their own: any other count is refused by kind
    "filter_zeros",
    "get_swizzle_portion",
    "get_nonswizzle_portion",
    "swizzle_bytes",
    "swizzle_elems",
    "tma_swizzle",
    "as_position_independent_swizzle_layout",
];

#[test]
fn own_arity_cannot_grow() {
    let own: Vec<&str> = registry::registry().iter().filter(|b| b.arity == Arity::Own).map(|b| b.name).collect();
    let new: Vec<&&str> = own.iter().filter(|n| !OWN_ARITY.contains(n)).collect();
    assert!(new.is_empty(), "entries without a declared arity (declare it in the entry): {new:?}");
    assert!(own.len() <= OWN_ARITY.len(), "{} entries count their own arguments: {own:?}", own.len());
}

/// An arity error's usage line shows the function called (`mma_layout_B(x, y)` once answered
/// `usage: mma_layout_A(OP)`: the entries of a family shared one wrapper's wording).
#[test]
fn usage_names_its_function() {
    let mut n = 0;
    for b in registry::registry() {
        if let Arity::Usage(_, _, usage) = b.arity {
            let rest = usage.strip_prefix(b.name).unwrap_or_else(|| panic!("{}: usage `{usage}`", b.name));
            assert!(rest.starts_with('(') || rest.starts_with('<'), "{}: usage `{usage}`", b.name);
            n += 1;
        }
    }
    assert!(n > 40, "only {n} usage lines");
}

/// Every declared arity refuses one argument too few and one too many, before the function
/// runs, with the declared wording: through the registry (an arity error) and through the
/// session (`error: wrong number of arguments: ...`).
#[test]
fn declared_arity_rejects_neighbours() {
    let mut checked = 0;
    for b in registry::registry() {
        let Some((lo, hi)) = b.arity.range() else { continue };
        let mut counts = Vec::new();
        if lo > 0 {
            counts.push(lo - 1);
        }
        if hi != MANY {
            counts.push(hi + 1);
        }
        for n in counts {
            let want = b.arity.check(b.name, n).expect_err("outside the range");
            let arg = common::eval_value("_4").unwrap();
            let args = vec![arg; n];
            let e = registry::call(b.name, &[], &args).expect_err(b.name);
            assert_eq!(e.kind, ErrorKind::Arity, "{}({n} arguments): {e:?}", b.name);
            assert_eq!(e.to_string(), want.to_string(), "{}({n} arguments)", b.name);
            let src = format!("{}({})", b.name, vec!["_4"; n].join(", "));
            let mut s = Session::new(Options::default());
            let (mut out, mut err) = (Vec::new(), Vec::new());
            s.run(&src, "<test>", &mut out, &mut err);
            let err = String::from_utf8_lossy(&err);
            assert!(err.starts_with("error:"), "`{src}` printed {err:?}");
            assert!(err.contains(&want.to_string()), "`{src}` printed {err:?}, not `{want}`");
            checked += 1;
        }
        // and the counts it declares get past the check
        assert!(b.arity.check(b.name, lo).is_ok() && b.arity.check(b.name, hi.min(lo + 3)).is_ok());
    }
    assert!(checked > 200, "only {checked} calls checked");
}

#[test]
fn every_name_is_found_and_only_names_are() {
    // The name table compares a name's length and first and last eight bytes, and the middle of
    // a longer one: each name finds its own entry, and near misses find nothing.
    let names = registry::names();
    assert!(names.len() > 100);
    for &n in &names {
        assert_eq!(registry::lookup(n).map(|b| b.name), Some(n), "{n}");
        assert!(registry::get(n).is_some_and(|s| s.entry.name == n));
        let mut near = vec![format!("{n}_"), format!("_{n}"), n[..n.len() - 1].to_string(), n[1..].to_string()];
        // the same length, first and last bytes, another middle
        if n.len() > 2 {
            let mut b = n.as_bytes().to_vec();
            let mid = b.len() / 2;
            b[mid] = if b[mid] == b'q' { b'z' } else { b'q' };
            near.push(String::from_utf8(b).unwrap());
        }
        for m in near {
            if !names.contains(&m.as_str()) {
                assert!(registry::get(&m).is_none(), "{m} was found as a name");
            }
        }
    }
    for m in ["", "x", "zz", "coalescE", "coalesce ", "composition_", "logical_divide\0"] {
        assert!(registry::get(m).is_none(), "{m:?}");
    }
}
