//! The analysis functions and the bitwise operators, through the public session.
//! Expected values: CuTe itself (tests/analysis/bitwise.cpp compiled with g++ against the CuTe 4.2
//! headers, its output in bitwise.out; the oracle for layouts), or hand counts written out in the
//! comments — never our own output.

use cute::session::{Options, Session};

/// Runs `src` in a fresh session: (ok, stdout, stderr).
fn run(src: &str) -> (bool, String, String) {
    let mut s = Session::new(Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let o = s.run(src, "<test>", &mut out, &mut err);
    (
        o.exit_code() == 0,
        String::from_utf8_lossy(&out).trim_end().to_string(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

/// The printed value of `src`.
fn ev(src: &str) -> String {
    let (ok, out, err) = run(src);
    assert!(ok, "{src}: {err}");
    out
}

/// The C++ expression of bitwise.cpp written in our notation (`Int<5>{}` → `_5`).
fn notation(cpp: &str) -> String {
    let mut s = cpp.to_string();
    while let Some(i) = s.find("Int<") {
        let j = i + s[i..].find(">{}").expect("Int<..>{}");
        s = format!("{}_{}{}", &s[..i], &s[i + 4..j], &s[j + 3..]);
    }
    s
}

#[test]
fn bitwise_operators_follow_cute() {
    let text = std::fs::read_to_string("tests/analysis/bitwise.out").expect("bitwise.out");
    let mut n = 0;
    for line in text.lines() {
        let (cpp, want) = line.split_once(" => ").expect("EXPR => VALUE");
        let expr = notation(cpp);
        assert_eq!(ev(&expr), want, "{cpp} as {expr}");
        n += 1;
    }
    assert!(n >= 25);
}

#[test]
fn bitwise_precedence_is_cs() {
    // C++: `~` binds tightest, then `*`, `+`, `&`, `^`, `|`; all of them tighter than `:` and `o`.
    // 7 + 1 = 8; 3 & 8 = 0; 2 ^ 0 = 2; 1 | 2 = 3.
    assert_eq!(ev("_1 | _2 ^ _3 & _7 + _1"), "_3");
    // ~1 + 1 = -2 + 1.
    assert_eq!(ev("~_1 + _1"), "_-1");
    assert_eq!(ev("~ ~5"), "5");
    assert_eq!(ev("_12 & _6 : _1 | _2"), "_4:_3");
    assert_eq!(ev("511 & 3"), "3");
    // `^` is xor, as in C++, not a power.
    assert_eq!(ev("2^63"), "61");
    assert_eq!(ev("A = (_8,_64):(_64,_1); A(3,5) & _7"), "5");
}

#[test]
fn bitwise_refusals_are_errors() {
    for (src, msg) in [
        ("~(1,2)", "`~` works on integers"),
        ("(4,2):(1,4) & 1", "`&` works on integers"),
        ("shiftl(_3, 4)", "ambiguous in CuTe"),
        ("shiftl(1, 64)", "does not fit in 64 bits"),
        ("shiftl(3, 62)", "does not fit in 64 bits"),
        ("5 &", "expected"),
    ] {
        let (ok, _, err) = run(src);
        assert!(!ok && err.contains(msg), "{src}: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// Bank conflicts and coalescing: hand counts, and a brute-force simulation sharing no code with
// src/eval/analysis (it only evaluates layouts through the session and counts here).
// ---------------------------------------------------------------------------------------------

/// A session with bindings, evaluating integer expressions one by one.
struct Sim {
    s: Session,
}

impl Sim {
    fn new(binds: &str) -> Sim {
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(s.run(binds, "<binds>", &mut out, &mut err).exit_code(), 0, "{}", String::from_utf8_lossy(&err));
        Sim { s }
    }
    fn int(&mut self, expr: &str) -> i64 {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let o = self.s.run(expr, "<sim>", &mut out, &mut err);
        assert_eq!(o.exit_code(), 0, "{expr}: {}", String::from_utf8_lossy(&err));
        let t = String::from_utf8_lossy(&out);
        t.trim().trim_start_matches('_').parse().unwrap_or_else(|_| panic!("{expr} gave {t}"))
    }
}

/// Wavefronts of one group of byte ranges: the most distinct 4-byte words in one of 32 banks.
fn wavefronts(ranges: &[(i64, i64)]) -> (i64, i64) {
    let mut per_bank: std::collections::HashMap<i64, std::collections::HashSet<i64>> = Default::default();
    let mut all = std::collections::HashSet::new();
    for &(a, n) in ranges {
        for b in a..a + n {
            let w = b.div_euclid(4);
            per_bank.entry(w.rem_euclid(32)).or_default().insert(w);
            all.insert(w);
        }
    }
    let wf = per_bank.values().map(|s| s.len() as i64).max().unwrap_or(0);
    (wf, (all.len() as i64 + 31) / 32)
}

/// Degree = ceil(total wavefronts / total ideal) over groups.
fn degree(groups: &[Vec<(i64, i64)>]) -> i64 {
    let (mut w, mut i) = (0, 0);
    for g in groups {
        let (a, b) = wavefronts(g);
        w += a;
        i += b;
    }
    if i == 0 {
        1
    } else {
        (w + i - 1) / i
    }
}

/// Simulated degree of a (thread, value) layout TV of `elem`-byte accesses over smem S: request
/// v is value v of every thread; 4-byte-or-less accesses are served per warp, 8-byte per half
/// warp, 16-byte per quarter warp.
fn sim_tv(binds: &str, threads: i64, values: i64, elem: i64) -> i64 {
    let mut sim = Sim::new(binds);
    let per = match elem {
        ..=4 => 32,
        8 => 16,
        _ => 8,
    };
    let mut groups = Vec::new();
    for w in 0..(threads + 31) / 32 {
        for v in 0..values {
            for g in (32 * w..(32 * w + 32).min(threads)).step_by(per as usize) {
                let mut r = Vec::new();
                for t in g..(g + per).min(threads) {
                    r.push((sim.int(&format!("S(TV({}))", t + threads * v)) * elem, elem));
                }
                groups.push(r);
            }
        }
    }
    degree(&groups)
}

/// Simulated ldmatrix x4 of 16-bit elements over a TiledCopy C (binds C and S): per warp and per
/// access of 8 values, 4 phases of 8 threads, each thread reading its 8 values' bytes.
fn sim_ldsm_tiled(binds: &str) -> i64 {
    let mut sim = Sim::new(binds);
    let threads = sim.int("size<0>(get_layoutS_TV(C))");
    let values = sim.int("size<1>(get_layoutS_TV(C))");
    let m = sim.int("tile_size<0>(C)");
    let mut groups = Vec::new();
    for w in 0..threads / 32 {
        for k in 0..values / 8 {
            for p in 0..4 {
                let mut r = Vec::new();
                for t in 32 * w + 8 * p..32 * w + 8 * p + 8 {
                    for a in 0..8 {
                        let idx = sim.int(&format!("get_layoutS_TV(C)({})", t + threads * (a + 8 * k)));
                        r.push((sim.int(&format!("S({}, {})", idx % m, idx / m)) * 2, 2));
                    }
                }
                groups.push(r);
            }
        }
    }
    degree(&groups)
}

/// Simulated bare ldmatrix x4 of 16-bit elements over S (rows in mode 0), as the README defines
/// it: matrix j holds rows 8*(j%2).. of columns 8*(j/2)..; S tiled to 16 x 16 where smaller.
fn sim_ldsm_bare(binds: &str) -> i64 {
    let mut sim = Sim::new(binds);
    let mut groups = Vec::new();
    for j in 0..4 {
        let mut r = Vec::new();
        for i in 0..8 {
            for e in 0..8 {
                let (row, col) = (i + 8 * (j % 2), 8 * (j / 2) + e);
                r.push((sim.int(&format!("T({row}, {col})")) * 2, 2));
            }
        }
        groups.push(r);
    }
    degree(&groups)
}

#[test]
fn bank_conflicts_hand_counted_and_simulated() {
    // A warp reads column v of a 32x32 f32 row-major tile: thread t at byte 128t + 4v, all in
    // bank v: 32-way.
    let tv = "TV = (_32,_32):(_1,_32)";
    let plain = format!("{tv}; S = (_32,_32):(_32,_1)");
    assert_eq!(ev(&format!("{plain}; bank_conflicts(TV, S)")), "_32");
    assert_eq!(ev(&format!("{plain}; bank_conflicts(TV, S, float)")), "_32");
    assert_eq!(sim_tv(&plain, 32, 32, 4), 32);
    // XOR the row into the column (Sw<5,0,5>: offset 32r + (c ^ r)): thread t in bank v ^ t.
    let swz = format!("{tv}; S = Sw<5,0,5> o (_32,_32):(_32,_1)");
    assert_eq!(ev(&format!("{swz}; bank_conflicts(TV, S)")), "_1");
    assert_eq!(sim_tv(&swz, 32, 32, 4), 1);
    // Row-wise reads are conflict-free either way.
    let rows = "TV = (_32,_32):(_32,_1); S = (_32,_32):(_32,_1)";
    assert_eq!(ev(&format!("{rows}; bank_conflicts(TV, S)")), "_1");
    assert_eq!(sim_tv(rows, 32, 32, 4), 1);
    // 64-bit accesses at a 16-byte stride: a half warp spans 256 bytes, threads t and t+8 share
    // banks: 2-way. At an 8-byte stride: conflict-free.
    let s2 = "TV = (_32,_1):(_2,_0); S = _64:_1";
    assert_eq!(ev(&format!("{s2}; bank_conflicts(TV, S, 8)")), "_2");
    assert_eq!(sim_tv(s2, 32, 1, 8), 2);
    let s1 = "TV = (_32,_1):(_1,_0); S = _64:_1";
    assert_eq!(ev(&format!("{s1}; bank_conflicts(TV, S, double)")), "_1");
    assert_eq!(sim_tv(s1, 32, 1, 8), 1);
    // 128-bit accesses, 4 floats per thread contiguous: quarter warps of 128 bytes: conflict-free;
    // with rows of 32 floats one per thread (stride 128 bytes): 8-way.
    let q = "TV = (_32,_1):(_1,_0); S = _32:_1";
    assert_eq!(ev(&format!("{q}; bank_conflicts(TV, S, uint128_t)")), "_1");
    assert_eq!(sim_tv(q, 32, 1, 16), 1);
    let q8 = "TV = (_32,_1):(_8,_0); S = _256:_1";
    assert_eq!(ev(&format!("{q8}; bank_conflicts(TV, S, 16)")), "_8");
    assert_eq!(sim_tv(q8, 32, 1, 16), 8);
}

#[test]
fn ldmatrix_hand_counted_and_simulated() {
    // (_8,_64):(_64,_1) half: rows are 128 bytes apart, so the 8 row addresses of a phase all
    // start in bank 0: 8-way. Sw<3,3,3> xors the row into the 16-byte chunk: conflict-free.
    for (smem, want) in [("(_8,_64):(_64,_1)", 8), ("Sw<3,3,3> o (_8,_64):(_64,_1)", 1)] {
        let w = format!("_{want}");
        assert_eq!(ev(&format!("bank_conflicts(SM75_U32x4_LDSM_N, {smem}, half_t)")), w, "{smem}");
        assert_eq!(ev(&format!("bank_conflicts(copy_atom(SM75_U32x4_LDSM_N, half_t), {smem})")), w, "{smem}");
        assert_eq!(sim_ldsm_bare(&format!("T = tile_to_shape({smem}, (_16,_64))")), want, "{smem}");
        // The same through CuTe's TiledCopy for an SM80 16x8x16 MMA (2,2,1): a 32x16 tile of A.
        let c = "C = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), \
                 make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))))";
        let binds = format!("{c}; S = tile_to_shape({smem}, (_32,_64))");
        assert_eq!(ev(&format!("{binds}; bank_conflicts(C, S)")), w, "{smem}");
        assert_eq!(ev(&format!("{c}; bank_conflicts(C, {smem})")), w, "{smem} (tiled implicitly)");
        assert_eq!(sim_ldsm_tiled(&binds), want, "{smem}");
    }
    // explain names the phases and the colliding bank.
    let (ok, out, err) = run("explain bank_conflicts(SM75_U32x4_LDSM_N, (_8,_64):(_64,_1), half_t)");
    assert!(ok, "{err}");
    assert!(out.contains("phase 0: matrix 0, threads 0..8: 8 wavefronts (ideal 1); bank 0 holds 8 words"), "{out}");
    assert!(out.contains("total: 32 wavefronts against an ideal of 4: degree 8 (8-way)"), "{out}");
    assert!(out.ends_with("= _8"), "{out}");
}

#[test]
fn cp_async_stores_simulated() {
    // 128 threads, 8 halves (16 bytes) each, into a 32x32 half tile.
    for smem in ["(_32,_32):(_32,_1)", "(_32,_32):(_1,_32)", "Sw<2,3,3> o (_32,_32):(_32,_1)"] {
        let binds = format!(
            "C = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); S = {smem}"
        );
        let got = ev(&format!("{binds}; bank_conflicts(C, S)"));
        let mut sim = Sim::new(&binds);
        let threads = sim.int("size<0>(get_layoutD_TV(C))");
        let m = sim.int("tile_size<0>(C)");
        let mut groups = Vec::new();
        for w in 0..threads / 32 {
            for g in 0..4 {
                let mut r = Vec::new();
                for t in 32 * w + 8 * g..32 * w + 8 * g + 8 {
                    for a in 0..8 {
                        let idx = sim.int(&format!("get_layoutD_TV(C)({})", t + threads * a));
                        r.push((sim.int(&format!("S({}, {})", idx % m, idx / m)) * 2, 2));
                    }
                }
                groups.push(r);
            }
        }
        assert_eq!(got, format!("_{}", degree(&groups)), "{smem}");
    }
    // Row-major: each quarter warp writes 128 contiguous bytes: conflict-free (hand count).
    assert_eq!(
        ev("bank_conflicts(make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))), (_32,_32):(_32,_1))"),
        "_1"
    );
}

/// Simulated coalescing: per request (value v of every thread of a warp), distinct 32-byte
/// sectors against ceil(distinct bytes / 32).
fn sim_coalescing(binds: &str, threads: i64, values: i64, elem: i64) -> i64 {
    let mut sim = Sim::new(binds);
    let (mut sectors, mut minimum) = (0, 0);
    for w in 0..(threads + 31) / 32 {
        for v in 0..values {
            let mut bytes = std::collections::HashSet::new();
            for t in 32 * w..(32 * w + 32).min(threads) {
                let a = sim.int(&format!("G(TV({}))", t + threads * v)) * elem;
                bytes.extend(a..a + elem);
            }
            let s: std::collections::HashSet<i64> = bytes.iter().map(|b| b.div_euclid(32)).collect();
            sectors += s.len() as i64;
            minimum += (bytes.len() as i64 + 31) / 32;
        }
    }
    (sectors + minimum - 1) / minimum
}

#[test]
fn coalescing_hand_counted_and_simulated() {
    // Thread t reads float 4t + v: a request spans 512 bytes in 16 sectors for 128 bytes: 4.
    let strided = "TV = (_32,_4):(_4,_1); G = _128:_1";
    assert_eq!(ev(&format!("{strided}; coalescing(TV, G)")), "_4");
    assert_eq!(sim_coalescing(strided, 32, 4, 4), 4);
    // Thread t reads float t + 32v: 128 contiguous bytes, 4 sectors: coalesced.
    let good = "TV = (_32,_4):(_1,_32); G = _128:_1";
    assert_eq!(ev(&format!("{good}; coalescing(TV, G)")), "_1");
    assert_eq!(sim_coalescing(good, 32, 4, 4), 1);
    // A column of a row-major 32x32 f32 matrix: 32 sectors for 128 bytes: 8.
    let col = "TV = (_32,_32):(_1,_32); G = (_32,_32):(_32,_1)";
    assert_eq!(ev(&format!("{col}; coalescing(TV, G)")), "_8");
    assert_eq!(sim_coalescing(col, 32, 32, 4), 8);
    let (ok, out, _) = run("explain coalescing((_32,_4):(_4,_1), _128:_1)");
    assert!(ok && out.contains("128 bytes in 16 sectors (minimum 4)"), "{out}");
}

#[test]
fn injectivity() {
    assert_eq!(ev("is_injective((_4,_2):(_2,_1))"), "_1");
    assert_eq!(ev("is_injective((_4,_2):(_1,_1))"), "_0");
    assert_eq!(ev("is_injective((4,2):(2,1))"), "1");
    assert_eq!(ev("is_injective(Sw<3,3,3> o (_8,_64):(_64,_1))"), "_1");
    assert_eq!(ev("is_surjective((_4,_2):(_2,_1), _8)"), "_1");
    assert_eq!(ev("is_surjective((_4,_2):(_4,_1), _8)"), "_0");
    assert_eq!(ev("is_surjective((_4,_2):(_0,_1), _2)"), "_1");
    assert_eq!(ev("is_bijective((_4,_2):(_2,_1), _8)"), "_1");
    assert_eq!(ev("is_bijective((_4,_2):(_2,_1), _4)"), "_0");
    assert_eq!(ev("is_bijective(Sw<3,3,3> o (_8,_64):(_64,_1), _512)"), "_1");
    let (ok, out, _) = run("explain is_injective((_4,_2):(_1,_1))");
    assert!(ok && out.contains("not injective: L(1) == L(4) == 1"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// swizzle_slice: CuTe's own slices (the oracle, tests/analysis/swizzle_slices.jsonl)
// ---------------------------------------------------------------------------------------------

fn field(line: &str, key: &str) -> Option<String> {
    cute::jsonl::field(line, key)
}

#[test]
fn swizzle_slice_agrees_with_cute_and_folds_exactly() {
    let text = std::fs::read_to_string("tests/analysis/swizzle_slices.jsonl").expect("swizzle_slices.jsonl");
    let mut offsets = std::collections::HashMap::new();
    let mut slices = Vec::new();
    for line in text.lines() {
        let expr = field(line, "expr").expect("expr");
        let (binds, call) = expr.rsplit_once("; ").expect("S = ...; S(c)");
        if let Some(c) = call.strip_prefix("slice_and_offset(") {
            let coord = c.strip_suffix(", S)").expect("slice_and_offset(c, S)");
            offsets.insert((binds.to_string(), coord.to_string()), field(line, "cute"));
        } else {
            let coord = call.strip_prefix('S').expect("S(c)");
            slices.push((binds.to_string(), coord.to_string(), field(line, "cute")));
        }
    }
    let (mut folded, mut kept, mut refused) = (0, 0, 0);
    for (binds, coord, want) in slices {
        let src = format!("{binds}; swizzle_slice(S, {coord})");
        let Some(want) = want else {
            // CuTe refuses (a dynamic swizzled layout cannot be sliced): so do we.
            assert!(!run(&src).0, "{src} should be refused");
            refused += 1;
            continue;
        };
        assert_eq!(ev(&src), want, "{src}");
        let (ok, out, err) = run(&format!("{binds}; explain swizzle_slice(S, {coord})"));
        assert!(ok, "{src}: {err}");
        for l in ["A           = ", "sw(A)       = ", "A & ~sw(A)  = "] {
            assert!(out.contains(l), "{src}: no `{l}` in\n{out}");
        }
        if want.contains(" o ") {
            // CuTe kept it composed: we name colliding pairs (or say why CuTe did not try).
            assert!(out.contains("colliding pairs") || out.contains("every mode is sliced"), "{src}:\n{out}");
            kept += 1;
        } else {
            assert!(!out.contains("colliding pairs"), "{src}:\n{out}");
            if out.contains("A is dynamic") {
                // CuTe decays a dynamic slice without testing: the point check says whether that
                // was right (here `(_64,_8):(8,_1)` at (_,3) it is not: S(9,3) is 67, the decay 83).
                assert!(out.contains("check: slice(i) + offset"), "{src}:\n{out}");
                kept += 1;
                continue;
            }
            // Folded: the plain layout plus CuTe's offset equals S at every full coordinate.
            let off = offsets.get(&(binds.clone(), coord.clone())).cloned().flatten().expect("offset case");
            let off: i64 =
                off.rsplit_once(',').unwrap().1.trim_end_matches(')').trim_start_matches('_').parse().unwrap();
            let mut sim = Sim::new(&format!("{binds}; P = swizzle_slice(S, {coord})"));
            let n = sim.int("size(P)");
            let under = coord.matches('_').count();
            for i in 0..n {
                // The underscores of `coord` filled with the coordinate of point i of P.
                let mut full = coord.clone();
                for k in 0..under {
                    let sub = if under == 1 {
                        format!("{i}")
                    } else {
                        // the mode's own 1-D index (the fold may have split the mode)
                        format!("crd2idx(get<{k}>(idx2crd({i}, shape(P))), get<{k}>(shape(P)))")
                    };
                    let sub = format!("{}", sim.int(&sub));
                    full = full.replacen('_', &sub, 1);
                }
                let want_at = sim.int(&format!("S{full}"));
                let got = sim.int(&format!("P({i})")) + off;
                assert_eq!(got, want_at, "{src} at point {i} = S{full}");
            }
            folded += 1;
        }
    }
    assert!(folded >= 30 && kept >= 8, "folded {folded}, kept {kept}, refused {refused}");
}

// ---------------------------------------------------------------------------------------------
// Refusals on dynamic integers carry CuTe's static answer as a note; GEMM headers count banks
// ---------------------------------------------------------------------------------------------

#[test]
fn dynamic_refusals_note_the_static_answer() {
    // The refusals and the static answers are the oracle's (tests/conformance/golden.jsonl).
    for (src, note) in [
        (
            "complement((2,2):(1,6), 24)",
            "note: with static integers CuTe gives complement((_2,_2):(_1,_6), _24) = (_3,_2):(_2,_12)",
        ),
        (
            "left_inverse((2,4):(4,1))",
            "note: with static integers CuTe gives left_inverse((_2,_4):(_4,_1)) = (_4,_2):(_2,_1)",
        ),
    ] {
        let (ok, _, err) = run(src);
        assert!(!ok, "{src}");
        let lines: Vec<&str> = err.lines().collect();
        assert!(lines[0].starts_with("error: "), "{err}");
        assert!(lines.iter().any(|l| l.trim_start().trim_start_matches("= ") == note), "{src}:\n{err}");
    }
}

#[test]
fn gemm_header_states_bank_conflicts() {
    // Rows of (_8,_64):(_64,_1) half are 128 bytes apart: ldmatrix phases are 8-way; each
    // quarter warp of 16-byte cp.async stores fills one 128-byte row: conflict-free.
    let (ok, out, err) = run("emit gemm 4096 4096 4096 smem_a=(_8,_64):(_64,_1)");
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.contains("bank conflicts")).expect("bank conflicts line");
    assert!(line.contains("cp.async store of A conflict-free") && line.contains("ldmatrix load of A 8-way"), "{line}");
    assert!(err.starts_with("warning: smem_a: the ldmatrix load of A is 8-way bank-conflicted"), "{err}");
    // The default swizzled atoms: conflict-free, no warning.
    let (ok, out, err) = run("emit gemm 4096 4096 4096");
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.contains("bank conflicts")).expect("bank conflicts line");
    assert!(
        line.contains("ldmatrix load of A conflict-free") && line.contains("ldmatrix load of B conflict-free"),
        "{line}"
    );
    assert!(!err.contains("warning"), "{err}");
}

/// The sm90 header's degrees, simulated: each operand's smem layout (as the header prints it) is
/// evaluated through the session; one request is a swizzled row of a TMA box (`box_k` elements
/// of one row for a K-major operand, `box_rows` rows of one k for an MN-major one) or an 8 x 8
/// block of 16-bit elements (8 rows x 16 bytes either way: what a wgmma core matrix is).
fn sim_sm90(smem: &str, rows: i64, bk: i64, box_rows: i64, box_k: i64, k_major: bool) -> (i64, i64) {
    let mut sim = Sim::new(&format!("S = {smem}"));
    let mut addr = std::collections::HashMap::new();
    let mut at = |r: i64, k: i64| *addr.entry((r, k)).or_insert_with(|| 2 * sim.int(&format!("S({r},{k},0)")));
    let mut tma = Vec::new();
    if k_major {
        for k0 in (0..bk).step_by(box_k as usize) {
            for r in 0..rows {
                tma.push((k0..k0 + box_k).map(|k| (at(r, k), 2)).collect::<Vec<_>>());
            }
        }
    } else {
        for r0 in (0..rows).step_by(box_rows as usize) {
            for k in 0..bk {
                tma.push((r0..r0 + box_rows).map(|r| (at(r, k), 2)).collect::<Vec<_>>());
            }
        }
    }
    let mut core = Vec::new();
    for r0 in (0..rows).step_by(8) {
        for k0 in (0..bk).step_by(8) {
            core.push(
                (r0..r0 + 8).flat_map(|r| (k0..k0 + 8).map(move |k| (r, k))).map(|(r, k)| (at(r, k), 2)).collect(),
            );
        }
    }
    (degree(&tma), degree(&core))
}

#[test]
fn sm90_header_states_bank_conflicts() {
    // The GMMA atoms (128-, 64- and 32-byte swizzles, K- and MN-major) put the 8 rows of a core
    // matrix in 8 different 16-byte bank groups: conflict-free by hand (row r's chunk c lands in
    // chunk c ^ (r mod 8) of a 128-byte line for Sw<3,3,3>).
    for (opts, rows_a, rows_b, bk) in [
        ("", 128, 256, 64),
        (" tile=<128,128,64> smem_a=Sw<2,3,3> o (_8,_32):(_32,_1) smem_b=Sw<1,3,3> o (_8,_16):(_16,_1)", 128, 128, 64),
        (" consumers=1 tile=<64,256,64>", 64, 256, 64),
        (" layout=NN", 128, 256, 64),
        (" layout=TT tile=<128,128,64>", 128, 128, 64),
    ] {
        let src = format!("emit gemm 2048 2048 2048 arch=sm90{opts}");
        let (ok, out, err) = run(&src);
        assert!(ok, "{src}: {err}");
        assert!(!err.contains("warning"), "{src}: {err}");
        let line = out.lines().find(|l| l.contains("bank conflicts")).expect("bank conflicts line");
        let mut majors = Vec::new();
        for (op, rows) in [('a', rows_a), ('b', rows_b)] {
            let up = op.to_ascii_uppercase();
            let head = format!("//   smem_{op}: ");
            let at = out.lines().position(|l| l.starts_with(&head)).expect("smem line");
            let k_major = out.lines().nth(at).unwrap().contains("Layout_K_");
            majors.push(k_major);
            let tiled = out.lines().nth(at + 1).unwrap();
            let smem = tiled.rsplit(" = ").next().unwrap();
            // `TMA box {64 (K), 128 (rows)}` or `{64 (rows), 64 (K)}`
            let tma = out.lines().nth(at + 2).unwrap();
            let inner = tma.split("TMA box {").nth(1).unwrap().split('}').next().unwrap();
            let (mut box_rows, mut box_k) = (0, 0);
            for part in inner.split(", ") {
                let (n, what) = part.split_once(' ').unwrap();
                let n: i64 = n.parse().unwrap();
                if what == "(K)" {
                    box_k = n;
                } else {
                    box_rows = n;
                }
            }
            let (t, c) = sim_sm90(smem, rows, bk, box_rows, box_k, k_major);
            assert_eq!((t, c), (1, 1), "{src}: {smem}");
            for (what, d) in [("TMA write", t), ("wgmma read", c)] {
                let want = if d == 1 { "conflict-free".to_string() } else { format!("{d}-way") };
                assert!(line.contains(&format!("{what} of {up} {want}")), "{src}: {line}");
            }
        }
        if opts.contains("NN") || opts.contains("TT") {
            assert!(majors.contains(&false), "{src}: an MN-major operand expected");
        }
    }
}

#[test]
fn sm90_counts_see_an_unswizzled_atom() {
    // Without the swizzle the 8 rows of a core matrix are 128 bytes apart: all in the same four
    // banks, 8-way (hand count); a TMA row is still 128 contiguous bytes: conflict-free.
    use cute::eval::analysis::gemm::{sm90_degrees, Sm90Traffic};
    let src = "tile_to_shape((_8,_64):(_64,_1), (_64,_64,_2))";
    let smem = {
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(s.run(&format!("X = {src}"), "<t>", &mut out, &mut err).exit_code(), 0);
        let x = s.interp().bindings().find(|(n, _)| *n == "X").unwrap().1.clone();
        x
    };
    let t =
        Sm90Traffic { operand: 'a', k_major: true, smem: &smem, rows: 64, bk: 64, box_rows: 64, box_k: 64, elem: 2 };
    let got = sm90_degrees(&t).unwrap();
    assert_eq!(got, vec![("TMA write of A".to_string(), 1), ("wgmma read of A".to_string(), 8)]);
    assert_eq!(sim_sm90(&ev(src), 64, 64, 64, 64, true), (1, 8));
}

/// The sm90 TMA-store epilogue, simulated: warp w's threads store accumulator v (with v + 1 when
/// the kernel stores pairs, `sts_pair`: two adjacent columns in one store) at
/// Sw<3,4,3>(128 m + bytes * (n - first column of the box)), (m, n) from the C layout the header
/// prints, both evaluated by the session.
fn sim_epilogue(c: &str, bn: i64, cols: i64, out_bytes: i64, paired: bool) -> i64 {
    let mut sim = Sim::new(&format!("C = {c}"));
    let values = sim.int("size<1>(C)");
    let step: usize = if paired { 2 } else { 1 };
    let mut groups = Vec::new();
    for w in 0..4 {
        for j in 0..bn / cols {
            for v in (0..values).step_by(step) {
                let mut g = Vec::new();
                for t in 32 * w..32 * w + 32 {
                    let idx = sim.int(&format!("C({t},{v})"));
                    let (m, n) = (idx % 64, idx / 64);
                    if n / cols == j {
                        let a = sim.int(&format!("Sw<3,4,3>({})", 128 * m + out_bytes * (n - j * cols)));
                        g.push((a, out_bytes * step as i64));
                    }
                }
                if !g.is_empty() {
                    groups.push(g);
                }
            }
        }
    }
    degree(&groups)
}

#[test]
fn sm90_epilogue_stores_are_counted() {
    // By hand (C layout of SM90 64xN: thread t0 + 4 t1 + 32 w holds rows t1 + 16 w (+ 8), columns
    // 2 t0 (+ 1, + 8k)): a warp's 4-byte f32 stores of one value would be 2-way (chunk c ^ t1 takes
    // every chunk twice at one word); the kernel stores column pairs (8 bytes): conflict-free.
    for (opts, bn) in [("", 256), (" out=f32", 256), (" tile=<128,128,64> out=f32", 128)] {
        let src = format!("emit gemm 2048 2048 2048 arch=sm90{opts}");
        let (ok, out, err) = run(&src);
        assert!(ok, "{src}: {err}");
        let Some(epi) = out.lines().find(|l| l.starts_with("// epilogue: per consumer, boxes of 64 rows x ")) else {
            panic!("{src}: no TMA-store epilogue");
        };
        let cols: i64 = epi.split(" rows x ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let c = out.lines().find(|l| l.contains(": C layout (thread, value) -> m + 64n: ")).unwrap();
        let c = c.rsplit(": ").next().unwrap();
        let paired = out.contains("sts_pair(box");
        assert!(paired || out.contains("sts_one(box"), "{src}: no epilogue stores");
        let d = sim_epilogue(c, bn, cols, 128 / cols, paired);
        let line = out.lines().find(|l| l.contains("bank conflicts")).unwrap();
        let want = if d == 1 { "conflict-free".to_string() } else { format!("{d}-way") };
        assert!(line.contains(&format!("epilogue store of C {want}")), "{src}: {d}: {line}");
    }
}

/// Byte addresses past 64 bits are an overflow error, never a panic nor a wrapped address (a
/// `structured` fuzz finding: an offset of i64::MAX times 4 bytes panicked in `bank_conflicts`
/// with overflow checks on; without them, element 2^62 of 4 bytes wrapped to address 0 and
/// both functions answered 1).
#[test]
fn addresses_past_64_bits_are_overflow_errors() {
    for src in [
        "bank_conflicts((1,_8,(_4,_1,4)):(1,1,(8,32,_32)), 9223372036854775807:9223372036854775807)",
        "bank_conflicts((_2,_1):(_1,_0), 2:4611686018427387904)",
        "coalescing((_2,_1):(_1,_0), 2:4611686018427387904)",
    ] {
        let (ok, _, err) = run(src);
        assert!(!ok && err.contains("error: integer overflow"), "{src}: {err}");
    }
}

/// A thread-value layout of 2^63 - 1 threads and no values makes no accesses: the same answer
/// as 32 threads of no values, at once (a `structured` fuzz finding: `threads + 31` overflowed
/// with overflow checks on; without them the warp loop ran 2^58 empty rounds). (The finding's
/// memory argument was the integer 2^63 - 1, refused since as not a layout: here the layout of
/// that size.)
#[test]
fn no_values_means_no_accesses_for_any_thread_count() {
    let t = std::time::Instant::now();
    let huge = ev("bank_conflicts((_9223372036854775807,(0,9223372036854775807),9223372036854775807):9223372036854775807, 9223372036854775807:1)");
    let small = ev("bank_conflicts((_32,0):(_1,_1), _64:_1)");
    assert_eq!(huge, small);
    assert!(t.elapsed().as_secs() < 2, "took {:?}", t.elapsed());
}

/// The first repeated value and the first missed one, brute force: every point evaluated as
/// `L(i)` by the session, the first repeat found by comparing each point with every earlier
/// one (no table, no sort). `explain` must name the same points as the walk over the domain.
#[test]
fn injectivity_explain_agrees_with_a_point_by_point_search() {
    let cases = [
        "(_4,_2):(_1,_1)",
        "(_2,(_3,_2)):(_3,(_1,_2))",
        "(_6,_4):(_5,_7)",
        "Sw<1,0,1> o (_4,_2):(_1,_2)",
        "Sw<2,1,2> o _3 o (_4,_4):(_4,_1)",
        "Sw<1,1,1> o (_8,_2):(_1,_1)",
        "(_3,_3):(_-2,_3)",
        "(_4,_4):(_1000000,_1)",
        "((_2,_2),_3):((_7,_0),_1)",
        "Sw<2,0,-2> o (_4,_4):(_1,_8)",
    ];
    for l in cases {
        let n: usize = ev(&format!("size({l})")).trim_start_matches('_').parse().unwrap();
        let vals: Vec<i64> =
            (0..n).map(|i| ev(&format!("L = {l}; L({i})")).trim_start_matches('_').parse().unwrap()).collect();
        let mut repeat = None;
        'outer: for i in 0..n {
            for j in 0..i {
                if vals[j] == vals[i] {
                    repeat = Some((j, i, vals[i]));
                    break 'outer;
                }
            }
        }
        let (ok, out, err) = run(&format!("explain is_injective({l})"));
        assert!(ok, "{l}: {err}");
        match repeat {
            Some((j, i, v)) => assert!(out.contains(&format!("not injective: L({j}) == L({i}) == {v}")), "{l}: {out}"),
            None => assert!(out.contains(&format!("injective: {n} distinct values")), "{l}: {out}"),
        }
        let want = if repeat.is_none() { "_1" } else { "_0" };
        assert_eq!(ev(&format!("is_injective({l})")), want, "{l}");
        // Surjective onto [0, m) for m = the largest value + 1: every value below it hit.
        let m = vals.iter().copied().max().unwrap() + 1;
        let missing = (0..m).find(|x| !vals.contains(x));
        let (ok, out, err) = run(&format!("explain is_surjective({l}, {m})"));
        assert!(ok, "{l}: {err}");
        match missing {
            Some(x) => assert!(out.contains(&format!("{x} is never hit")), "{l}: {out}"),
            None => assert!(out.contains("every value is hit"), "{l}: {out}"),
        }
    }
}

/// A swizzled layout of 4,194,304 points (the analyses' limit) is judged within a second or
/// two: a `structured` fuzz finding took 3.5 s evaluating each point through `__apply`. The
/// answer by hand: a row-major 2048 x 2048 layout is a bijection onto [0, 2^22), and the
/// swizzle permutes within aligned blocks of 2^(B+M+S) = 2^10, so it stays one.
#[test]
fn injectivity_of_four_million_points_is_quick() {
    let t = std::time::Instant::now();
    assert_eq!(ev("is_injective(Sw<3,4,3> o (_2048,_2048):(_2048,_1))"), "_1");
    assert_eq!(ev("is_bijective(Sw<3,4,3> o (_2048,_2048):(_2048,_1), _4194304)"), "_1");
    // A second mode of stride 0: point 2048, coordinate (0,1), is the first to repeat a value
    // (point 0's, offset 0, which the swizzle keeps).
    let (ok, out, _) = run("explain is_injective(Sw<3,4,3> o (_2048,_2048):(_1,_0))");
    assert!(ok && out.contains("not injective: L(0) == L(2048) == 0"), "{out}");
    assert!(t.elapsed().as_secs() < 3, "took {:?}", t.elapsed());
}

/// A memory argument that is not a layout, a swizzled layout or a tensor is refused in the
/// function's own words, pointing at argument 2 (it was refused inside, as `__apply does not
/// accept (an integer, an integer)`); the kinds it takes still answer.
#[test]
fn analysis_names_a_bad_memory_argument() {
    for f in ["bank_conflicts", "coalescing"] {
        for mem in ["5", "(2,_3)", "<_4,_2>", "half_t", "SM75_U32x4_LDSM_N"] {
            let src = format!("{f}((_4,_2):(_1,_4), {mem})");
            let (ok, _, err) = run(&src);
            assert!(!ok, "{src} answered");
            assert!(err.contains(&format!("{f}: the memory layout (argument 2)")), "{src}: {err}");
            assert!(!err.contains("__apply"), "{src}: {err}");
            // the caret is under the memory argument
            let col = src.find(mem).unwrap();
            let caret = err.lines().find(|l| l.trim_start().starts_with('|') && l.contains('^')).unwrap_or("");
            assert_eq!(caret.find('^'), caret.find('|').map(|b| b + 2 + col), "{src}: {err}");
        }
        for mem in ["(_8,_64):(_64,_1)", "Sw<3,3,3> o (_8,_64):(_64,_1)", "Sw<3,3,3>"] {
            let (ok, _, err) = run(&format!("{f}((_4,_2):(_1,_4), {mem})"));
            assert!(ok, "{f} on {mem}: {err}");
        }
    }
}
