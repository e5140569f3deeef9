//! `explain EXPR`: the steps end in CuTe's value (from the golden data, not from our output),
//! the law lines hold, refusals stay refusals, and `explain` is still usable as a name.

use std::process::Command;

fn cute(src: &str) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_cute")).args(["-e", src]).env("NO_COLOR", "1").output().expect("run cute");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// CuTe's printed answer for `expr` in the golden files.
fn golden(expr: &str) -> String {
    for f in [
        "tests/oracle/golden.jsonl",
        "tests/oracle/golden_extra.jsonl",
        "tests/oracle/difftest_cases.jsonl",
        "tests/oracle/algebra_cases.jsonl",
        "tests/oracle/atoms_cases.jsonl",
    ] {
        let text = std::fs::read_to_string(f).expect("golden file");
        for line in text.lines() {
            if cute::jsonl::field(line, "expr").as_deref() == Some(expr) {
                if let Some(v) = cute::jsonl::field(line, "cute") {
                    return v;
                }
            }
        }
    }
    panic!("{expr} is not in the golden files")
}

#[test]
fn explanations_end_in_cutes_value_and_their_laws_hold() {
    for (expr, law) in [
        ("complement((_2,_2):(_1,_6), _24)", Some("check: its 5 points other than 0 miss L's image: disjoint")),
        ("(6,2):(8,2) o (4,3):(3,1)", Some("R(i) == A(B(i)) for all 12 points: holds")),
        ("logical_divide((_4,_2,_3):(_2,_1,_8), _4:_2)", None),
        ("logical_product((_2,_2):(_4,_1), _6:_1)", None),
        ("coalesce((_2,(_1,_6)):(_1,(_6,_2)))", Some("coalesce(L)(i) == L(i) for all 12 points: holds")),
        ("raked_product((_2,_2):(_2,_1), (_4,_4):(_1,_4))", Some("mode i gathers (B_i, A_i)")),
        // a product by a tiler, mode by mode (the modes' products are CuTe's, algebra_cases)
        (
            "zipped_product((_2,_5):(_5,_1), <_3:_5, _4:_6>)",
            Some("mode 0: logical_product(_2:_5, _3:_5) = (_2,_3):(_5,_10)"),
        ),
        (
            "zipped_product((_2,_5):(_5,_1), <_3:_5, _4:_6>)",
            Some("mode 1: logical_product(_5:_1, _4:_6) = (_5,_4):(_1,_30)"),
        ),
        // the full coordinates are CuTe's idx2crd (tests/oracle/algebra_cases.jsonl)
        ("crd2idx(16, (_3,(_2,_3)), (_3,(_12,_1)))", Some("16 -> coordinate in (_3,(_2,_3)): (1,(1,2))")),
        ("crd2idx((_1,5), (_3,(_2,_3)), (_3,(_12,_1)))", Some("(_1,5) -> coordinate in (_3,(_2,_3)): (_1,(1,2))")),
        ("crd2idx((_1,5), (_3,(_2,_3)), (_3,(_12,_1)))", Some("_1*_3 + 1*_12 + 2*_1")),
        // an empty mode: the point checks cannot run, the value is still CuTe's
        ("complement((4,()):(1,()))", Some("the steps cannot be shown here")),
    ] {
        let want = golden(expr);
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{expr}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.last().copied(), Some(format!("= {want}").as_str()), "{expr}:\n{out}");
        assert!(lines.len() > 2 || expr.contains("()"), "{expr}: no steps\n{out}");
        if let Some(l) = law {
            assert!(out.contains(l), "{expr}: no `{l}`\n{out}");
        }
    }
}

#[test]
fn coalesce_steps_name_the_merges_and_drops() {
    let (_, out, _) = cute("explain coalesce((_2,(_1,_6)):(_1,(_6,_2)))");
    assert!(out.contains("flatten(L) = (_2,_1,_6):(_1,_6,_2)"), "{out}");
    assert!(out.contains("_1:_6: size _1, dropped"), "{out}");
    assert!(out.contains("_2:_1 then _6:_2: _2 == _2*_1, merged into _12:_1"), "{out}");
    // dynamic modes are kept apart, as CuTe does (`(2,1,6):(1,6,2)` is CuTe's answer)
    let (_, out, _) = cute("explain coalesce((2,(1,6)):(1,(6,2)))");
    assert!(out.contains("kept (CuTe drops only a static _1)"), "{out}");
}

#[test]
fn inverses_and_evaluation() {
    let (_, out, _) = cute("explain right_inverse((_3,_8):(_8,_1))");
    assert!(out.contains("check: L(R(i)) == i for all 24 points: holds"), "{out}");
    let (_, out, _) = cute("explain left_inverse((_3,_8):(_1,_3))");
    assert!(out.contains("check: Linv(L(i)) == i for all 24 points: holds"), "{out}");
    // A(5) on (2,(3,4)):(1,(2,6)): coordinate (1,(2,0)), 1*1 + 2*2 + 0*6 = 5
    let (_, out, _) = cute("A = (2,(3,4)):(1,(2,6)); explain A(5)");
    assert!(out.contains("(1,(2,0))") && out.contains("1*1 + 2*2 + 0*6") && out.ends_with("= 5\n"), "{out}");
    // Sw<3,3,3>(100): bits 6..8 of 100 = 0b1100100 are 0b001, xored into bits 3..5: 100 ^ 8 = 108
    let (_, out, _) = cute("explain Sw<3,3,3>(100)");
    assert!(out.ends_with("= 108\n"), "{out}");
}

#[test]
fn refusals_stay_refusals_and_explain_is_still_a_name() {
    let (code, out, err) = cute("explain complement((2,2):(1,6), 24)");
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.starts_with("error: dynamic-stride complement"), "{err}");
    assert!(err.contains("-e:1:9"), "{err}");
    let (code, out, _) = cute("explain = 3; explain + 1");
    assert_eq!((code, out.as_str()), (0, "4\n"));
    let (_, out, _) = cute("explain size((2,3))");
    assert!(out.contains("no step-by-step explanation") && out.ends_with("= 6\n"), "{out}");
}

/// The tensor partitions explain the steps their functions took (the projection's `dice`, the
/// thread's place, the `zipped_divide`, the slice) and end in CuTe's value (hand-compiled CuTe
/// C++, `tests/oracle/tensor_partition_cases.jsonl`).
#[test]
fn tensor_partitions_show_their_steps_and_end_in_cutes_value() {
    let text = std::fs::read_to_string("tests/oracle/tensor_partition_cases.jsonl").expect("cases");
    let cutes = |expr: &str| {
        text.lines()
            .find(|l| cute::jsonl::field(l, "expr").as_deref() == Some(expr))
            .and_then(|l| cute::jsonl::field(l, "cute"))
            .unwrap_or_else(|| panic!("{expr} is not in the cases"))
    };
    for (expr, steps) in [
        (
            "local_tile(make_identity_tensor((_256,_64)), (_128,_128,_32), (1,0,_), (_1,_,_1))",
            &[
                "dice((_1,_,_1), tiler) = (_128,_32); dice((_1,_,_1), coord) = (1,_)",
                "zipped_divide(T, (_128,_32)) = ",
                "Z((_,_), (1,_))",
            ][..],
        ),
        (
            "local_partition(make_coord_tensor((_16,_64):(_64,_1)), (_2,_16):(_16,_1), 5)",
            &["product_each(shape(L)) = (_2,_16); thread 5 sits at L.get_flat_coord(5) = (0,5)", "Z((0,5), (_,_))"][..],
        ),
    ] {
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{err}");
        for s in steps {
            assert!(out.contains(s), "explain {expr} lacks `{s}`:\n{out}");
        }
        assert!(out.trim_end().ends_with(&format!("= {}", cutes(expr))), "{out}");
    }
}

/// `max_common_vector` / `max_common_layout`: each step shows CuTe's value of that step (the
/// right inverse, the composition, the coalesced layout: oracle answers in
/// `tests/oracle/algebra_cases.jsonl`), the answer is CuTe's, and the vector's law holds.
#[test]
fn common_vector_steps_are_cutes() {
    for (a, b, vector) in [
        ("(_8,_32):(_32,_1)", "(_8,_32):(_32,_1)", true),
        ("(_8,_32):(_32,_1)", "(_8,_32):(_1,_8)", false),
        ("(_4,(_2,_4)):(_2,(_1,_8))", "(_4,_8):(_8,_1)", true),
    ] {
        let r = format!("right_inverse({b})");
        let c = format!("composition({a}, {r})");
        let steps = [
            format!("right_inverse(B) = {}:", golden(&r)),
            format!("composition(A, that) = {}:", golden(&c)),
            format!("coalesce(that) = {}", golden(&format!("coalesce({c})"))),
        ];
        for f in ["max_common_vector", "max_common_layout"] {
            let expr = format!("{f}({a}, {b})");
            let want = golden(&expr);
            let (code, out, err) = cute(&format!("explain {expr}"));
            assert_eq!(code, 0, "{expr}: {err}");
            assert_eq!(out.lines().last(), Some(format!("= {want}").as_str()), "{expr}:\n{out}");
            for step in &steps {
                assert!(out.contains(step.as_str()), "{expr}: no `{step}`\n{out}");
            }
            if vector {
                assert!(out.contains("points: holds"), "{expr}: the law\n{out}");
            } else {
                let none = if f == "max_common_vector" { "_1" } else { "_1:_0" };
                assert!(
                    out.contains(&format!("is not a vector (its stride is _32, not 1): CuTe answers {none}")),
                    "{out}"
                );
            }
        }
    }
    // a run-time stride: right_inverse leaves it out, so there is no vector
    let (_, out, _) = cute("explain max_common_vector((8,32):(32,1), (8,32):(32,1))");
    assert!(out.contains("right_inverse follows only B's static strides"), "{out}");
    assert!(out.ends_with(&format!("= {}\n", golden("max_common_vector((8,32):(32,1), (8,32):(32,1))"))), "{out}");
}

/// `upcast<N>` / `downcast<N>`: each leaf mode of L is shown with the leaf of CuTe's answer in
/// its place (answers in `tests/oracle/algebra_cases.jsonl`: `(4,4):(8,_1)` and
/// `(_16,(_2,8)):(_1,(_0,16))`) and the rule that made it.
#[test]
fn cast_steps_go_mode_by_mode() {
    for (expr, lines) in [
        (
            "upcast<2>((4,8):(16,_1))",
            &["4:16 -> 4:8 (a run-time stride: 16/2)", "8:_1 -> 4:_1 (ceil_div(8, ceil_div(2, 1)) : ceil_div(1, 2))"][..],
        ),
        (
            "downcast<4>((_4,(_2,8)):(_1,(_0,4)))",
            &[
                "_4:_1 -> _16:_1 (stride _1: the shape times 4)",
                "_2:_0 -> _2:_0 (the stride times 4)",
                "8:4 -> 8:16 (the stride times 4)",
            ][..],
        ),
        ("upcast<2>((_4,_8):(_0,_-1))", &["_4:_0 -> _4:_0 (a _0 stride: kept)"][..]),
        // recast_layout: CuTe's answers (_8,_32):(_32,_1) and (_8,_64):(_64,_1), its cast by mode
        (
            "recast_layout<half_t, uint32_t>((_8,_64):(_64,_1))",
            &[
                "sizeof_bits ratio 32/16 = 2/1",
                "upcast<2>(L): 2 elements become one",
                "_64:_1 -> _32:_1 (ceil_div(_64, ceil_div(2, 1)) : ceil_div(1, 2))",
            ][..],
        ),
        (
            "recast_layout<uint32_t, half_t>((_8,_32):(_32,_1))",
            &[
                "sizeof_bits ratio 16/32 = 1/2",
                "_8:_32 -> _8:_64 (the stride times 2)",
                "_32:_1 -> _64:_1 (stride _1: the shape times 2)",
            ][..],
        ),
    ] {
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{expr}: {err}");
        assert_eq!(out.lines().last(), Some(format!("= {}", golden(expr)).as_str()), "{expr}:\n{out}");
        for l in lines {
            assert!(out.contains(l), "{expr}: no `{l}`\n{out}");
        }
    }
}

/// `tile_to_shape`: the padded block, the block counts, their layout and the blocked product are
/// CuTe's values of those steps (`tests/oracle/algebra_cases.jsonl`), and so is the answer; a
/// swizzled block is tiled inside its swizzle; a block that does not divide stays CuTe's refusal.
#[test]
fn tile_to_shape_steps_are_cutes() {
    let steps = |block: &str, counts: &str, tiling: &str, order: &str| {
        let padded = golden(&format!("append<3>({block})"));
        vec![
            format!("append<3>(B) = {padded}"),
            format!("ceil_div(S, block) = {} blocks", golden(counts)),
            format!("{order} = {}: where each block goes", golden(tiling)),
            format!("blocked_product(B, that) = {}", golden(&format!("blocked_product({padded}, {})", golden(tiling)))),
        ]
    };
    let expr = "tile_to_shape((_8,_64):(_64,_1), (_128,_64,_3), (_1,_0,_2))";
    let (code, out, err) = cute(&format!("explain {expr}"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some(format!("= {}", golden(expr)).as_str()), "{out}");
    for s in steps(
        "(_8,_64):(_64,_1)",
        "ceil_div((_128,_64,_3), (_8,_64,_1))",
        "make_ordered_layout((_16,_1,_3), (_1,_0,_2))",
        "make_ordered_layout(that, (_1,_0,_2))",
    ) {
        assert!(out.contains(&s), "no `{s}`\n{out}");
    }
    let expr = "tile_to_shape((_8,_8):(_8,_1), (_32,_32), LayoutRight)";
    let (_, out, _) = cute(&format!("explain {expr}"));
    assert_eq!(out.lines().last(), Some(format!("= {}", golden(expr)).as_str()), "{out}");
    assert!(
        out.contains(&format!("make_layout(that, LayoutRight) = {}", golden("make_layout((_4,_4), LayoutRight)"))),
        "{out}"
    );
    let expr = "tile_to_shape(Sw<3,4,3> o (_8,_64):(_64,_1), (_128,_64))";
    let (_, out, _) = cute(&format!("explain {expr}"));
    assert_eq!(out.lines().last(), Some(format!("= {}", golden(expr)).as_str()), "{out}");
    assert!(out.contains("B = (_8,_64):(_64,_1) is tiled, A o O stays outside"), "{out}");
    let (code, out, err) = cute("explain tile_to_shape((_8,_8):(_8,_1), (_12,_32))");
    assert!(code != 0 && out.is_empty() && err.contains("block shape does not divide the target shape"), "{out}{err}");
}

/// `partition_A/B/C`: the thread's (V,M,N,K) coordinate, the thread-value split and the answer
/// are CuTe's (`get_thr_layout_vmnk`, `get_flat_coord`, `thrfrg_C`/`thrfrg_A`, the partition:
/// oracle answers in `tests/oracle/atoms_cases.jsonl`); a TiledMMA argument is shown by its
/// first line.
#[test]
fn mma_partition_steps_are_cutes() {
    let t = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1)))";
    let vmnk = golden(&format!("get_thr_layout_vmnk({t})"));
    for (op, thr, l) in [("C", 37, "(_64,_32):(_1,_64)"), ("A", 5, "(_64,_32):(_32,_1)")] {
        let expr = format!("partition_{op}({t}, {thr}, {l})");
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with(&format!("partition_{op}(TiledMMA ..., {thr}, {l})\n")), "{out}");
        assert_eq!(out.lines().last(), Some(format!("= {}", golden(&expr)).as_str()), "{out}");
        let at = golden(&format!("get_flat_coord({vmnk}, {thr})"));
        for step in [
            format!("get_thr_layout_vmnk(T) = {vmnk}: thread {thr} is at (V,M,N,K) = {at}"),
            format!("thrfrg_{op}(T, layout) = {}:", golden(&format!("thrfrg_{op}({t}, {l})"))),
        ] {
            assert!(out.contains(&step), "no `{step}`\n{out}");
        }
    }
}

/// `partition_S/D` of a TiledCopy: the thread-value split (`tidfrg_S/D`) and the answer are
/// CuTe's (oracle answers in `tests/oracle/atoms_cases.jsonl`).
#[test]
fn copy_partition_steps_are_cutes() {
    let g = "make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8)))";
    for (side, thr, l) in [("S", 37, "(_128,_32):(256,_1)"), ("D", 5, "(_128,_32):(_32,_1)")] {
        let expr = format!("partition_{side}({g}, {thr}, {l})");
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().last(), Some(format!("= {}", golden(&expr)).as_str()), "{out}");
        let step = format!("tidfrg_{side}(C, layout) = {}:", golden(&format!("tidfrg_{side}({g}, {l})")));
        assert!(out.contains(&step), "no `{step}`\n{out}");
        assert!(out.contains(&format!("sliced at ({thr},_,(_,_)): thread {thr} fixed")), "{out}");
    }
}

/// `get_layoutA/C_TV`: the thread-value split of the tile, the thread-index map, A's thread mode
/// widened over N, and the answer are CuTe's (oracle answers in `tests/oracle/atoms_cases.jsonl`:
/// `thrfrg_X` of the tile's index layout, CuTe's `thridx_2_thrid` written out, the composition
/// with CuTe's `atile`, `get_layoutX_TV`).
#[test]
fn layout_tv_steps_are_cutes() {
    let t = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)))";
    let vmnk = golden(&format!("get_thr_layout_vmnk({t})"));
    let inv =
        golden(&format!("composition((_128,_1):(_1,_0), right_inverse(make_layout({vmnk}, complement({vmnk}))))"));
    for op in ["C", "A"] {
        let expr = format!("get_layout{op}_TV({t})");
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{err}");
        let want = golden(&expr);
        assert_eq!(out.lines().last(), Some(format!("= {want}").as_str()), "{out}");
        let frg = golden(&format!("thrfrg_{op}({t}, (_32,_16):(_1,_32))"));
        let mut steps = vec![
            format!("thrfrg_{op}(T, that) = {frg}:"),
            format!("thridx_2_thrid = {inv}: thread index -> its place in get_thr_layout_vmnk(T) = {vmnk}"),
            format!("thread mode: {want}: (thread index, value) -> index"),
        ];
        if op == "A" {
            let wide = golden(&format!("composition(thrfrg_A({t}, (_32,_16):(_1,_32)), <<_,<(_2,_2):(_1,_0),_>>,_>)"));
            steps.push(format!("stride 0 over ThrN (those threads hold the same A): {wide}"));
        }
        for step in steps {
            assert!(out.contains(&step), "no `{step}`\n{out}");
        }
    }
}

/// A counting tensor's coalesce/composition/divides are the same function of its layout with the
/// same iterator: their explanation is the layout's, after a line that says so.
#[test]
fn tensor_forms_explain_their_layouts() {
    for (tensor, layout, f, rest) in [
        ("make_identity_tensor((_4,_8))", "(_4,_8):(_1@0,_1@1)", "zipped_divide", ", <_2,_4>"),
        ("make_tensor(make_inttuple_iter(3), (_4,_8):(_1,_4))", "(_4,_8):(_1,_4)", "coalesce", ""),
    ] {
        let (code, out, err) = cute(&format!("explain {f}({tensor}{rest})"));
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], format!("  a tensor: {f} of its layout {layout}, with the same iterator"), "{out}");
        let (_, of_layout, _) = cute(&format!("explain {f}({layout}{rest})"));
        let want: Vec<&str> = of_layout.lines().collect();
        assert_eq!(lines[2..lines.len() - 1], want[1..want.len() - 1], "{out}\n{of_layout}");
    }
}

/// `get_layoutS/D_TV` of a TiledCopy: the atom's (thread, value) -> reference map and the answer
/// are CuTe's (oracle answers in `tests/oracle/atoms_cases.jsonl`).
#[test]
fn copy_layout_tv_steps_are_cutes() {
    let a = "copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t)";
    let b = "copy_atom(SM75_U32x4_LDSM_N, half_t)";
    for (atom, copy, side, val) in [
        (a, format!("make_tiled_copy({a}, (_32,_4):(_4,_1), make_layout((_1,_8)))"), "S", "src"),
        (
            b,
            format!("make_tiled_copy_A({b}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))))"),
            "D",
            "dst",
        ),
    ] {
        let expr = format!("get_layout{side}_TV({copy})");
        let (code, out, err) = cute(&format!("explain {expr}"));
        assert_eq!(code, 0, "{err}");
        let want = golden(&expr);
        assert_eq!(out.lines().last(), Some(format!("= {want}").as_str()), "{out}");
        let r2t = golden(&format!("composition(right_inverse(val_layout_ref({atom})), val_layout_{val}({atom}))"));
        for step in
            [format!("right_inverse(ref) o {side} of the copy atom = {r2t}:"), format!("sliced at (_,_,_0): {want}:")]
        {
            assert!(out.contains(&step), "no `{step}`\n{out}");
        }
    }
}

/// `make_tiled_mma`: the thread layout and the tile each mode spans are CuTe's
/// (`get_thr_layout_vmnk`, `tile_shape`: oracle answers in `tests/oracle/atoms_cases.jsonl`),
/// with or without a permutation.
#[test]
fn tiled_mma_steps_are_cutes() {
    for t in [
        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)))",
        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2)), <_32,(_8,_2,_2):(_1,_16,_8),_16>)",
    ] {
        let (code, out, err) = cute(&format!("explain {t}"));
        assert_eq!(code, 0, "{err}");
        let vmnk = golden(&format!("get_thr_layout_vmnk({t})"));
        assert!(out.contains(&format!("tiled_product(ThrID, AtomLayoutMNK) = {vmnk}:")), "{out}");
        let shape = golden(&format!("tile_shape({t})"));
        let sizes: Vec<&str> = shape.trim_matches(|c| c == '(' || c == ')').split(',').collect();
        for (m, size) in ["M", "N", "K"].iter().zip(sizes) {
            assert!(out.contains(&format!("  tile {m}: {size} (")), "tile {m} {size}\n{out}");
        }
    }
}

/// `make_tiled_copy`: the raked product, its inverse with the (threads, values) shape and the
/// tile are CuTe's (oracle answers in `tests/oracle/atoms_cases.jsonl`), and they are the
/// TiledCopy's `TiledLayout_TV` and `Tiler_MN`.
#[test]
fn tiled_copy_steps_are_cutes() {
    let (thr, val) = ("(_32,_4):(_4,_1)", "(_1,_8):(_0,_1)");
    let c = format!(
        "make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), {thr}, make_layout((_1,_8)))"
    );
    let (code, out, err) = cute(&format!("explain {c}"));
    assert_eq!(code, 0, "{err}");
    let mn = format!("raked_product({thr}, {val})");
    let tv = golden(&format!("tiled_layout_tv({c})"));
    assert_eq!(tv, golden(&format!("with_shape(right_inverse({mn}), (_128,_8))")));
    for step in [
        format!("raked_product(thr_layout, val_layout) = {}:", golden(&mn)),
        format!("right_inverse(that) = {}, with_shape((_128,_8)) = {tv}:", golden(&format!("right_inverse({mn})"))),
        format!("product_each(shape(layout_mn)) = {}:", golden(&format!("tiler_mn({c})"))),
        format!("  TiledLayout_TV: {tv}"),
    ] {
        assert!(out.contains(&step), "no `{step}`\n{out}");
    }
}

/// `EXPLAINED` (what `:help NAME` points to `explain` for) is what `explain` does: a listed
/// function shows steps for at least one of its registry examples, an unlisted one for none.
#[test]
fn the_explained_list_is_what_explain_does() {
    let mut wrong = Vec::new();
    for name in cute::registry::names() {
        let examples: Vec<String> = cute::registry::forms(name)
            .iter()
            .filter(|f| {
                let last = f.example.rsplit_once("; ").map_or(f.example, |(_, l)| l);
                last.starts_with(&format!("{name}(")) || last.starts_with(&format!("{name}<"))
            })
            .map(|f| f.example.to_string())
            .collect();
        if examples.is_empty() {
            continue;
        }
        let stepped = examples.iter().any(|e| {
            // the last statement, explained (earlier ones bind its arguments)
            let (before, last) = e.rsplit_once("; ").unwrap_or(("", e));
            let program =
                if before.is_empty() { format!("explain {last}") } else { format!("{before}; explain {last}") };
            let (code, out, _) = cute(&program);
            code == 0 && !out.contains("no step-by-step explanation")
        });
        if stepped != cute::eval::explain::EXPLAINED.contains(&name) {
            wrong.push(format!("{name}: steps {stepped}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}
