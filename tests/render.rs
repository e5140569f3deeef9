//! `print_layout`, `print_latex` and `print_svg` (`render`): corner cases beside the golden records.

mod common;
use common::eval;

// ---- table ----
#[test]
fn rank_must_be_two() {
    assert!(eval("print_layout(_8:_1)").is_err());
    assert!(eval("print_layout((_2,_2,_2):(_1,_2,_4))").is_err());
    assert!(eval("print_layout(Sw<3,3,3>)").is_err());
}

#[test]
fn table_like_cute() {
    // From the oracle: int truncation of the values, width from num_digits(int(cosize)).
    assert_eq!(
        eval("print_layout((2,(_3,_2)):(1000000000000,(1,3)))").unwrap(),
        "(2,(_3,_2)):(1000000000000,(1,3))\n      0   1   2   3   4   5 \n    +---+---+---+---+---+---+\n 0  | 0 | 1 | 2 | 3 | 4 | 5 |\n    +---+---+---+---+---+---+\n 1  | -727379968 | -727379967 | -727379966 | -727379965 | -727379964 | -727379963 |\n    +---+---+---+---+---+---+"
    );
    assert_eq!(
        eval("print_layout(Sw<1,1,2> o _0 o (_4,_8):(_8,_1) o (_2,_2):(_1,_2))").unwrap(),
        "Sw<1,1,2> o _0 o (_2,_2):(_8,_16)\n       0    1 \n    +----+----+\n 0  |  0 | 16 |\n    +----+----+\n 1  | 10 | 26 |\n    +----+----+"
    );
}

#[test]
fn huge_is_refused_quickly() {
    let e = eval("print_layout((1048576,1048576):(1,1048576))").unwrap_err();
    assert!(e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
}

/// CuTe's `print_svg` of a TiledMMA draws every (thread, value) of its operands, which can be
/// several times the tile's cells: this one (a `structured` fuzz finding) was 589 MB of text,
/// 1.2 GB of memory and 20 s, within the cell limit. The text is bounded too (256 bytes per cell of
/// the limit), with the same way to raise it.
#[test]
fn huge_tiled_mma_picture_is_refused_by_its_size() {
    let t = std::time::Instant::now();
    let e =
        eval("print_svg(make_tiled_mma(SM90_64x96x32_S32U8S8_RS_TN_SATURATE, ((_6),(_6),(_8)):((_48),(_8),(_1)), <>))")
            .unwrap_err();
    assert!(e.detail.contains("larger than 268435456 bytes") && e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
    assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
    // a picture within the budget is drawn as before
    assert!(eval("print_svg(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))").unwrap().starts_with("<!--  Tile:"));
}

/// A GMMA operand in shared memory belongs to all 128 threads of a warpgroup, so six atoms of
/// this MMA have 402,653,184 (thread, value) points for B alone (a `structured` fuzz finding: 28 s
/// before the picture skipped the points that reach cells already drawn). Every cell of C
/// (384 x 256), A (384 x 32) and B (256 x 32) is drawn once: 118,784 rects.
#[test]
fn tiled_gmma_picture_draws_each_cell_once_in_time() {
    let t = std::time::Instant::now();
    let svg = eval("print_svg(make_tiled_mma(SM90_64x256x32_F16E4M3E5M2_RS_TN, (_6):(_64), <>))").unwrap();
    assert!(svg.starts_with("<!--  Tile: (_384,_256,_32)  -->"), "{}", &svg[..100]);
    assert_eq!(svg.matches("<rect ").count(), 384 * 256 + 384 * 32 + 256 * 32);
    assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
}

/// 663,552 atoms over a (256,16,16) tile: B's TV layout is `(_84934656, ...):(_0, ...)`, 85 million
/// threads holding the same values (a `structured` fuzz finding: the picture ran into the 10 s
/// statement limit; points along stride-0 leaves are never enumerated now).
#[test]
fn tiled_mma_with_far_more_atoms_than_its_tile_is_drawn() {
    let svg = eval(
        "print_svg(make_tiled_mma(SM90_64x256x32_F32E4M3E4M3_SS_TN, ((_6,_6,_4),_8,(_6,_16,_6)):((_1,_6,_36),_144,(_1152,_6912,_110592)), <_256,_16,_16>))",
    )
    .unwrap();
    assert!(svg.starts_with("<!--  Tile: (_256,_16,_16)  -->"), "{}", &svg[..100]);
}

/// `print_latex` of a TiledMMA is bounded by the cell limit like the other pictures (a
/// `structured` fuzz finding: a tile of 2^31 rows wrote row labels until 24 GB of memory).
#[test]
fn latex_of_a_huge_tile_is_refused() {
    let e = eval("print_latex(make_tiled_mma(SM61_DP4A, (_2147483648,1):2, <>))").unwrap_err();
    assert!(e.detail.contains("print_latex") && e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
}

/// A TiledMMA picture visits at most 16 points per cell of the print limit: 2^31 atoms along M
/// over a (256,1,2) tile give C 2^36 distinct thread parts (a `structured` fuzz finding: it ran
/// into the 10 s statement limit), refused at once by the limit, which names how to raise it.
#[test]
fn tiled_mma_picture_with_too_many_points_is_refused() {
    let t = std::time::Instant::now();
    let e =
        eval("print_svg(make_tiled_mma(SM90_64x128x32_F32E5M2E5M2_SS_TN, 2147483647:_256, <_256,_1,_2>))").unwrap_err();
    assert!(e.detail.contains("points to visit") && e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
    assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
}

/// A tile extent near i64::MAX is refused by the cell limit, not added past 64 bits (a
/// `structured` fuzz finding: `k + n` overflowed).
#[test]
fn tiled_mma_picture_of_a_huge_tile_is_refused() {
    let e = eval("print_svg(make_tiled_mma(SM90_64x32x32_S32S8U8_SS_TN, _6:_3, <_256,_9223372036854775807,_256>))")
        .unwrap_err();
    assert!(e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
}

/// A TiledMMA whose tile has no columns (`N = _-1`) and 2^41 rows of B's and C's grids: the
/// picture draws A's 2 x 1 cells (threads 0 and 2^40, the second M atom's stride) and nothing
/// of B and C (a `structured` fuzz finding: the walk over the empty grid's rows spun for
/// minutes, outside the statement clock).
#[test]
fn tiled_mma_picture_with_an_empty_tile_is_quick() {
    let t = std::time::Instant::now();
    let svg = eval("print_svg(make_tiled_mma(SM61_DP2A, 2:_1099511627776, <_,_-1,()>))").unwrap();
    assert!(svg.starts_with("<!--  Tile: (2,_-1,_1)  -->"), "{}", &svg[..100]);
    assert_eq!(svg.matches("<rect ").count(), 2);
    assert!(svg.contains(">T1099511627776</text>"));
    assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
}

/// A thread-value picture of 1,048,576 cells (the default cell limit: a 1 x 1,048,576 tile) is
/// drawn within a second: every cell gets its rectangle, besides the white background (a
/// `structured` fuzz finding: 1.1 s, most of it formatting each element through `format!`,
/// four `replace`s per label and a SipHash map looked up three times per cell).
#[test]
fn tv_picture_of_a_million_cells_is_quick() {
    let t = std::time::Instant::now();
    let svg = eval("print_svg(((16,3,4),4):((4,3,8),0), <(),(_16,_256,_256)>)").unwrap();
    assert_eq!(svg.matches("<rect ").count(), 1 + 1_048_576);
    assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
}

// ---- latex ----
#[test]
fn rank_one_is_padded() {
    let t = eval("print_latex(_8:_1)").unwrap();
    assert!(t.starts_with("% Layout: (_8,_1):(_1,_0)\n"), "{t}");
    assert!(t.contains("grid (8,1);"));
}

#[test]
fn negative_colours() {
    // color_map[-1] is a null pointer on the reference platform: CuTe prints (null).
    let t = eval("print_latex((_2,_2):(_-1,_2))").unwrap();
    assert!(t.contains("\\node[fill=(null)] at (1,0) {-1};"), "{t}");
    // color_map[-3] is arbitrary memory: refused.
    assert!(eval("print_latex((_1,_8):(_1,_-1))").is_err());
    assert!(eval("print_latex((_2,_2,_2):(_1,_2,_4))").is_err());
}

// ---- svg ----
#[test]
fn picture() {
    let t = eval("print_svg(Sw<1,0,1> o (_2,_2):(_2,_1))").unwrap();
    assert!(t.starts_with("<svg "), "{t}");
    assert!(t.ends_with("</svg>"));
    assert!(t.contains("<title>Sw&lt;1,0,1&gt; o _0 o (_2,_2):(_2,_1)</title>"), "{t}");
    let e = eval("print_svg((_2,_2,_2):(_1,_2,_4))").unwrap_err();
    assert!(e.detail.contains("print_svg") && !e.detail.contains("print_latex"), "{e}");
}

// ---- terminal: colour and bands (issue 9 item 4) ----
use cute::render::term::{self, Terminal};

/// The text without ANSI colour sequences.
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The rows of a table's cells: `(row, [(background "r;g;b", text)])` for each ` m  | ... |` line.
fn cells(table: &str) -> Vec<Vec<(String, String)>> {
    let mut rows = Vec::new();
    for line in table.lines().filter(|l| l.contains('|')) {
        let mut row = Vec::new();
        for part in line.split('|').skip(1) {
            if part.is_empty() {
                continue;
            }
            let bg = part.split("48;2;").nth(1).map(|r| r.split('m').next().unwrap().to_string()).unwrap_or_default();
            row.push((bg, strip_ansi(part).trim().to_string()));
        }
        rows.push(row);
    }
    rows
}

/// CuTe's SVGColor_TV (cute/util/print_svg.hpp), as "r;g;b".
const TV: [&str; 8] = [
    "175;175;255",
    "175;255;175",
    "255;255;175",
    "255;175;175",
    "210;210;255",
    "210;255;210",
    "255;255;210",
    "255;210;210",
];

#[test]
fn plain_unless_a_terminal_says_otherwise() {
    // Off by default (pipes, files, tests): CuTe's bytes, however wide.
    let l = "print_layout(Sw<3,3,3> o (_8,_64):(_64,_1))";
    let plain = eval(l).unwrap();
    assert!(!plain.contains('\x1b'));
    assert_eq!(plain.lines().nth(1).unwrap().len(), 4 + 64 * 6);
    // Colour only: the same text once the colour is taken out.
    term::set(Terminal { colour: true, width: None, truecolor: true });
    let coloured = eval(l).unwrap();
    assert!(coloured.contains("\x1b[30;48;2;"));
    assert_eq!(strip_ansi(&coloured), plain);
    term::set(Terminal::default());
}

#[test]
fn a_swizzle_shows_in_colour_and_fits_160_columns() {
    // Sw<3,3,3> o (_8,_64):(_64,_1) at (r, c) is 64r + 8((c/8) ^ r) + c%8 (by hand): the 8-element
    // chunk (offset bits 3..6) of the cell is (c/8) ^ r, its colour TV[(c/8) ^ r].
    term::set(Terminal { colour: true, width: Some(160), truecolor: true });
    let t = eval("print_layout(Sw<3,3,3> o (_8,_64):(_64,_1))").unwrap();
    term::set(Terminal::default());
    assert!(t.lines().all(|l| strip_ansi(l).len() <= 160), "{}", strip_ansi(&t));
    // bands of 24 columns (25 fit; a multiple of 8): 0..24, 24..48, 48..64, 8 rows each
    let rows = cells(&t);
    assert_eq!(rows.len(), 3 * 8);
    for (i, row) in rows.iter().enumerate() {
        let (band, r) = (i / 8, (i % 8) as i64);
        let first = 24 * band as i64;
        assert_eq!(row.len() as i64, if band < 2 { 24 } else { 16 });
        for (j, (bg, text)) in row.iter().enumerate() {
            let c = first + j as i64;
            let chunk = (c / 8) ^ r;
            assert_eq!(text, &(64 * r + 8 * chunk + c % 8).to_string(), "({r},{c})");
            assert_eq!(bg, TV[chunk as usize], "({r},{c})");
        }
    }
}

#[test]
fn thread_value_tables() {
    // SM80 16x8x16 (PTX's mma.m16n8k16 fragment layout, by hand): C(m, n) belongs to thread
    // 4 (m % 8) + n / 2, value n % 2 + 2 (m / 8).
    term::set(Terminal { colour: true, width: None, truecolor: true });
    let t = eval("print_layout(mma_atom(SM80_16x8x16_F32F16F16F32_TN))").unwrap();
    term::set(Terminal::default());
    let c = t.split("\n\n").next().unwrap();
    assert!(c.starts_with("C (16 x 8): get_layoutC_TV = "), "{c}");
    let rows = cells(c);
    assert_eq!(rows.len(), 16);
    for (m, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 8);
        for (n, (bg, text)) in row.iter().enumerate() {
            let (tid, vid) = (4 * (m % 8) + n / 2, n % 2 + 2 * (m / 8));
            assert_eq!(text, &format!("T{tid}V{vid}"), "({m},{n})");
            assert_eq!(bg, TV[tid % 8]);
        }
    }
    // A (16 x 16) and B (8 x 16) follow.
    assert!(t.contains("\n\nA (16 x 16): ") && t.contains("\n\nB (8 x 16): "), "{t}");
    // A TV layout over its tile: (_2,_2):(_2,_1) over (2,2) puts T0V1 at index 1 = (1, 0).
    let t = eval("print_layout((_2,_2):(_2,_1), (_2,_2))").unwrap();
    let rows = cells(&t);
    assert_eq!(rows[0].iter().map(|c| c.1.as_str()).collect::<Vec<_>>(), ["T0V0", "T1V0"]);
    assert_eq!(rows[1].iter().map(|c| c.1.as_str()).collect::<Vec<_>>(), ["T0V1", "T1V1"]);
    assert!(!t.contains('\x1b'));
}

/// `print_latex` of 256 MMA atoms (tile (256,256,128), 589,824 nodes, 54 MB): the layouts are
/// read once, not at each of the millions of (thread, value) points (a `structured` fuzz
/// finding: 2 s, over the fuzzers' 1 s; the drawing itself is CuTe's, see the oracle cases of
/// `tests/oracle/atoms_cases.jsonl`).
#[test]
fn latex_of_many_atoms_in_time() {
    let t = std::time::Instant::now();
    let tex = eval("print_latex(make_tiled_mma(SM80_8x8x16_S32U8U8S32_TN_SATURATE, (_32,_32,_8):(_256,_1,_32), <_>))")
        .unwrap();
    assert!(tex.starts_with("% LayoutC: ArithTuple(_0,_0) o "), "{}", &tex[..100]);
    assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
}

// ---- the first points of a picture ----

/// A mode of 1-3 leaves (sometimes nested) with extents 1-4 and strides in -3..4, zero often.
fn random_mode(seed: &mut u64) -> (cute::eval::int_tuple::IntTuple, cute::eval::int_tuple::IntTuple) {
    use cute::eval::int_tuple::IntTuple;
    let mut next = |n: u64| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed % n
    };
    let leaves = 1 + next(3) as usize;
    let mut s = Vec::new();
    let mut d = Vec::new();
    for _ in 0..leaves {
        s.push(IntTuple::st(1 + next(4) as i64));
        d.push(IntTuple::st(if next(3) == 0 { 0 } else { next(7) as i64 - 3 }));
    }
    if leaves == 1 && next(2) == 0 {
        return (s.remove(0), d.remove(0));
    }
    if leaves == 3 && next(2) == 0 {
        // ((a,b),c)
        let (s2, d2) = (s.split_off(2), d.split_off(2));
        return (IntTuple::T(vec![IntTuple::T(s), s2[0].clone()]), IntTuple::T(vec![IntTuple::T(d), d2[0].clone()]));
    }
    (IntTuple::T(s), IntTuple::T(d))
}

proptest::proptest! {
    /// `Grid::each_first` (which enumerates only each part's first points) visits exactly the
    /// points a brute-force walk over every (m, n) finds first for their value, in order.
    #[test]
    fn each_first_is_the_first_point_of_each_value(seed in 1u64..u64::MAX) {
        use cute::eval::int_tuple::IntTuple;
        use cute::eval::layout::Layout;
        use cute::eval::value::Value;
        let mut seed = seed;
        let (s0, d0) = random_mode(&mut seed);
        let (s1, d1) = random_mode(&mut seed);
        let l = Layout::new(IntTuple::T(vec![s0, s1]), IntTuple::T(vec![d0, d1]));
        let g = cute::render::grid::Grid::new(&Value::Layout(l.clone())).unwrap();
        let mut got = Vec::new();
        g.each_first("test", &mut |m, n, idx| {
            got.push((m, n, idx));
            Ok(())
        })
        .unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut want = Vec::new();
        for m in 0..g.rows {
            for n in 0..g.cols {
                let idx = g.at(m, n).unwrap() as i64;
                if seen.insert(idx) {
                    want.push((m, n, idx));
                }
            }
        }
        let got_first: Vec<_> = {
            let mut seen = std::collections::HashSet::new();
            got.iter().copied().filter(|p| seen.insert(p.2)).collect()
        };
        // each value's first point is visited, in order, with the value `at` gives
        proptest::prop_assert_eq!(&got_first, &want, "{}", l);
        for &(m, n, idx) in &got {
            proptest::prop_assert_eq!(idx, g.at(m, n).unwrap() as i64, "{} at ({},{})", l, m, n);
        }
        proptest::prop_assert!(got.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)), "{}: not in order", l);
    }
}
