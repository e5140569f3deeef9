//! `local_tile` and `local_partition` of counting tensors against what they mean, on random
//! layouts (CuTe's own answers for fixed cases are in `tests/oracle/tensor_partition_cases.jsonl`):
//!
//! - the tile at `(c0,c1)` of a tensor tiled by `(t0,t1)` holds, at `(x,y)`, the tensor's element
//!   at `(c0*t0 + x, c1*t1 + y)`;
//! - thread `i` of threads laid out by `(a,b):(s0,s1)` over each tile holds, at `(x,y)`, the
//!   element at `(x*a + r0, y*b + r1)`, where `(r0,r1)` is the coordinate the thread layout maps
//!   to `i`.
//!
//! Each case is a script of `assert`s whose right sides evaluate the layout itself at the global
//! coordinate, so the tensor functions (zipped_divide, then a slice) are checked against plain
//! layout evaluation.

use cute::session::{Options, Outcome, Session};
use proptest::prelude::*;

/// Run `script`; every assert must pass.
fn holds(script: &str) -> Result<(), TestCaseError> {
    let mut s = Session::new(Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = s.run(script, "law", &mut out, &mut err);
    prop_assert!(
        matches!(outcome, Outcome::Ok),
        "{script}\n{}{}",
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&err)
    );
    Ok(())
}

/// A layout of shape `(m,n)` with the given stride order and padding, as text (`_` for static).
fn layout(m: i64, n: i64, row_major: bool, pad: i64, stat: bool) -> String {
    let u = if stat { "_" } else { "" };
    let (d0, d1) = if row_major { (n + pad, 1) } else { (1, m + pad) };
    format!("({u}{m},{u}{n}):({u}{d0},{u}{d1})")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn a_tile_holds_the_elements_at_its_place(
        t0 in prop::sample::select(vec![1i64, 2, 4]), t1 in prop::sample::select(vec![1i64, 2, 4, 8]),
        k0 in 1i64..4, k1 in 1i64..4, row_major: bool, pad in 0i64..3, stat: bool,
        c in (0i64..16, 0i64..16),
    ) {
        let (m, n) = (t0 * k0, t1 * k1);
        let (c0, c1) = (c.0 % k0, c.1 % k1);
        let l = layout(m, n, row_major, pad, stat);
        let mut s = format!("L = {l}\nX = local_tile(make_coord_tensor(L), (_{t0},_{t1}), ({c0},{c1}))\n");
        for x in 0..t0 {
            for y in 0..t1 {
                s.push_str(&format!("assert X({x},{y}) == L({},{})\n", c0 * t0 + x, c1 * t1 + y));
            }
        }
        holds(&s)?;
    }

    #[test]
    fn a_thread_holds_the_elements_of_its_place_in_each_tile(
        a in prop::sample::select(vec![1i64, 2, 4]), b in prop::sample::select(vec![1i64, 2, 4]),
        k0 in 1i64..4, k1 in 1i64..4, row_major: bool, pad in 0i64..3, stat: bool,
        thread_row_major: bool, i in 0i64..64,
    ) {
        let (m, n) = (a * k0, b * k1);
        let l = layout(m, n, row_major, pad, stat);
        // the thread layout (a,b), compact, and the coordinate (r0,r1) it maps to i
        let i = i % (a * b);
        let (thr, r0, r1) = if thread_row_major {
            (format!("(_{a},_{b}):(_{b},_1)"), i / b, i % b)
        } else {
            (format!("(_{a},_{b}):(_1,_{a})"), i % a, i / a)
        };
        let mut s = format!("L = {l}\nP = local_partition(make_coord_tensor(L), {thr}, {i})\n");
        for x in 0..k0 {
            for y in 0..k1 {
                s.push_str(&format!("assert P({x},{y}) == L({},{})\n", x * a + r0, y * b + r1));
            }
        }
        holds(&s)?;
    }
}

/// The printed answer of `script`'s last statement.
fn printed(script: &str) -> Result<String, TestCaseError> {
    let mut s = Session::new(Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = s.run(script, "print", &mut out, &mut err);
    prop_assert!(matches!(outcome, Outcome::Ok), "{script}\n{}", String::from_utf8_lossy(&err));
    Ok(String::from_utf8_lossy(&out).trim_end_matches('\n').to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// `print_tensor` of `make_tensor(make_inttuple_iter(o), (m,n,k):(d0,d1,d2))` lists, after
    /// the tensor's own line, `o + x*d0 + y*d1 + z*d2` for row x, column y, slice z (CuTe's
    /// `%5d`), the slices (rank 3) between lines of `5*n` dashes: the listing computed here by
    /// hand, against the layout's own evaluation.
    #[test]
    fn print_tensor_lists_each_element_at_its_place(
        m in 1i64..5, n in 1i64..5, k in 0i64..4, d in (-9i64..40, -9i64..40, -9i64..40),
        o in -20i64..100000, stat: bool,
    ) {
        let u = if stat { "_" } else { "" };
        let l = if k == 0 {
            format!("({u}{m},{u}{n}):({u}{},{u}{})", d.0, d.1)
        } else {
            format!("({u}{m},{u}{n},{u}{k}):({u}{},{u}{},{u}{})", d.0, d.1, d.2)
        };
        let text = printed(&format!("print_tensor(make_tensor(make_inttuple_iter({o}), {l}))"))?;
        let mut want = String::new();
        for z in 0..k.max(1) {
            if z > 0 {
                want.push_str(&"-".repeat(5 * n as usize));
                want.push('\n');
            }
            for x in 0..m {
                for y in 0..n {
                    want.push_str(&format!("{:5}", o + x * d.0 + y * d.1 + z * d.2));
                }
                want.push('\n');
            }
        }
        let (head, body) = text.split_once('\n').unwrap_or((&text, ""));
        prop_assert_eq!(head, format!("ArithTuple{o} o {l}:"));
        prop_assert_eq!(body, want.trim_end_matches('\n'));
    }
}
