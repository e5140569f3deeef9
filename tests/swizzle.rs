//! Laws of swizzled layouts (their golden records and oracle cases are replayed by
//! `tests/oracle.rs`).

mod common;

/// Law of `slice_and_offset`: for a coordinate with `_` in mode 0 or 1,
/// `S(i, j) == slice(i) + offset` (the slice decays to a plain layout with the swizzle folded
/// into its strides, or stays swizzled; either way the offset it drops makes up the rest).
#[test]
fn slice_and_offset_law() {
    use cute::eval::value::Value;
    use cute::registry::call;
    let layouts =
        ["(_8,_64):(_64,_1)", "(_64,_8):(_1,_64)", "(_16,_16):(_16,_1)", "(_4,_32):(_32,_1)", "(_32,_32):(_1,_32)"];
    let swizzles = [(3, 3, 3), (2, 3, 3), (1, 2, 4), (3, 0, -3), (2, 2, -3), (1, 0, 1), (3, 4, 3)];
    // CuTe's decay assumes the offset adds no carries into the swizzled bits (with `_8 o` it
    // prints a slice that differs from S at some points, and so do we): offsets 0 only.
    let offsets = ["", "_0 o ", "0 o "];
    let mut checked = 0;
    for l in layouts {
        for (b, m, s) in swizzles {
            for o in offsets {
                let src = format!("Sw<{b},{m},{s}> o {o}{l}");
                let Ok(sv) = common::eval_value(&src) else { continue };
                let shape = call("shape", &[], std::slice::from_ref(&sv)).unwrap();
                let (rows, cols) = match shape.elems().as_slice() {
                    [Value::Tuple(r), Value::Tuple(c)] => (r.as_int().unwrap().v, c.as_int().unwrap().v),
                    _ => panic!("rank-2 shape expected"),
                };
                for (fixed_row, k) in [(true, 3), (false, 5), (true, 0), (false, 1)] {
                    let coord = if fixed_row { format!("({k},_)") } else { format!("(_,{k})") };
                    let Ok(r) = common::eval_value(&format!("S = {src}; slice_and_offset({coord}, S)")) else {
                        continue;
                    };
                    let parts = r.elems();
                    let off = parts[1].as_int().unwrap().v;
                    let n = if fixed_row { cols } else { rows };
                    for i in 0..n {
                        let (x, y) = if fixed_row { (k, i) } else { (i, k) };
                        let whole = call(
                            "__apply",
                            &[],
                            &[sv.clone(), Value::from(cute::eval::int::dy(x)), Value::from(cute::eval::int::dy(y))],
                        )
                        .unwrap();
                        let part =
                            call("__apply", &[], &[parts[0].clone(), Value::from(cute::eval::int::dy(i))]).unwrap();
                        assert_eq!(
                            whole.as_int().unwrap().v,
                            part.as_int().unwrap().v + off,
                            "{src} at ({x},{y}) via {coord}: {r}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
