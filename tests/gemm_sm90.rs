//! The Hopper kernel's index arithmetic against the layout algebra (CPU only), for every
//! configuration of `gemm_common::sm90_configurations`:
//! - each TMA box, written as the copy engine writes it (rows of `swizzle` bytes one after
//!   another from the box's place in the stage, the swizzle applied to the byte address), puts
//!   every element where the shared-memory layout value says;
//! - each wgmma descriptor (start address as the kernel composes it, leading/stride offsets,
//!   layout type), read as the tensor core reads a K-major canonical layout, finds every element
//!   of its 64x16 (A) or BNx16 (B) slice where the layout says, for every consumer, atom,
//!   k-step and stage;
//! - the epilogue's accumulator coordinates are the wgmma atom's C layout at every (thread, value).
//!
//! The layout values are evaluated by the algebra (`__apply`, what `L(i, j, k)` prints).

mod gemm_common;

use cute::eval::builtins;
use cute::eval::int_tuple::IntTuple;
use cute::eval::value::Value;
use cute::runtime::config::{self, Kernel, Major};
use cute::runtime::sm90::{self, Operand90, Sm90Config};

fn eval(v: &Value, crd: &[i64]) -> i64 {
    let mut args = vec![v.clone()];
    args.extend(crd.iter().map(|&c| Value::Tuple(IntTuple::dy(c))));
    match builtins::call("__apply", &[], &args) {
        Ok(Value::Tuple(IntTuple::I(i))) => i.v,
        other => panic!("{v} at {crd:?}: {other:?}"),
    }
}

fn configs() -> Vec<(String, Sm90Config)> {
    gemm_common::sm90_configurations()
        .into_iter()
        .map(|(d, (m, n, k, opts))| match config::parse_kernel(m, n, k, &opts, None) {
            Ok((Kernel::Sm90(c), _)) => (d, c),
            Ok(_) => panic!("{d}: not the sm90 kernel"),
            Err(e) => panic!("{d}: {e}"),
        })
        .collect()
}

/// The byte swizzle of a `swizzle`-byte GMMA layout: `Sw<B,4,3>` on byte addresses.
fn byte_swizzle(addr: i64, swizzle: i64) -> i64 {
    let b = match swizzle {
        128 => 3,
        64 => 2,
        _ => 1,
    };
    let mask = ((1i64 << b) - 1) << 7;
    addr ^ ((addr & mask) >> 3)
}

/// The element at (r, k, s) of the operand, as a byte address from the (1024-aligned) base.
fn layout_byte(o: &Operand90, r: i64, k: i64, s: i64) -> i64 {
    2 * eval(&o.smem, &[r, k, s])
}

#[test]
fn tma_boxes_write_the_shared_memory_layout() {
    for (d, cfg) in configs() {
        for o in [&cfg.a, &cfg.b] {
            assert_eq!(o.boxes.len() as i64, (o.tile_mn / o.box_rows) * (cfg.bk / o.box_k), "{d}");
            for s in 0..cfg.stages {
                for &(r0, k0, off) in &o.boxes {
                    let base = s * o.stage_bytes() + off;
                    for r in 0..o.box_rows {
                        for c in 0..o.box_k {
                            // the box's inner (contiguous) dimension: K, or the rows when MN-major
                            let lin = match o.major {
                                Major::K => r * o.swizzle_bytes + 2 * c,
                                Major::MN => c * o.swizzle_bytes + 2 * r,
                            };
                            let tma = byte_swizzle(base + lin, o.swizzle_bytes);
                            assert_eq!(
                                tma,
                                layout_byte(o, r0 + r, k0 + c, s),
                                "{d}: {} box ({r0},{k0}) ({r},{c}) stage {s}",
                                o.name
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The tensor core's view of a descriptor (PTX's canonical layouts, as CuTe's
/// `make_gmma_desc` comment states them in 16-byte units), W = the swizzle width in bytes:
/// - K-major: element (r, k) at `start*16 + (r/8)*SBO*16 + (r%8)*W + 2k`;
/// - MN-major: element (r, k) at `start*16 + (r/(W/2))*LBO*16 + 2(r%(W/2)) + (k/8)*SBO*16 + (k%8)*W`;
///
/// swizzled on the byte address.
fn desc_byte(o: &Operand90, start: i64, r: i64, k: i64) -> i64 {
    let (w, lbo, sbo) = (o.swizzle_bytes, o.desc.leading_off as i64, o.desc.stride_off as i64);
    let lin = match o.major {
        Major::K => (r / 8) * sbo * 16 + (r % 8) * w + 2 * k,
        Major::MN => (r / (w / 2)) * lbo * 16 + 2 * (r % (w / 2)) + (k / 8) * sbo * 16 + (k % 8) * w,
    };
    byte_swizzle(start * 16 + lin, w)
}

#[test]
fn wgmma_descriptors_read_the_shared_memory_layout() {
    for (d, cfg) in configs() {
        let (a, b) = (&cfg.a, &cfg.b);
        let lt = |o: &Operand90| match o.swizzle_bytes {
            128 => sm90::LayoutType::B128,
            64 => sm90::LayoutType::B64,
            _ => sm90::LayoutType::B32,
        };
        for o in [a, b] {
            assert_eq!(o.desc.layout_type, lt(o), "{d}");
            if o.major == Major::K {
                assert_eq!(o.desc.leading_off, 1, "{d}: swizzled K-major descriptors take LBO 1");
            }
            assert_eq!(o.desc.start_address, 0, "{d}");
        }
        for s in 0..cfg.stages {
            for kk in 0..cfg.bk / 16 {
                for c in 0..cfg.consumers {
                    for i in 0..cfg.mt {
                        let start = cfg.a_slice_start(c, i, kk, s).unwrap();
                        let row0 = 64 * (c * cfg.mt + i);
                        for r in 0..64 {
                            for k in 0..16 {
                                assert_eq!(
                                    desc_byte(a, start, r, k),
                                    layout_byte(a, row0 + r, 16 * kk + k, s),
                                    "{d}: A consumer {c} atom {i} k-step {kk} stage {s} at ({r},{k})"
                                );
                            }
                        }
                    }
                }
                let start = cfg.b_slice_start(kk, s).unwrap();
                for r in 0..cfg.bn {
                    for k in 0..16 {
                        assert_eq!(
                            desc_byte(b, start, r, k),
                            layout_byte(b, r, 16 * kk + k, s),
                            "{d}: B k-step {kk} stage {s} at ({r},{k})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn epilogue_coordinates_are_the_wgmma_c_layout() {
    for (d, cfg) in configs() {
        let p = sm90::plan(&cfg).unwrap();
        let c = Value::Layout(cfg.atom.c.clone());
        for t in 0..128i64 {
            let m0 = p.c_m.eval(&|_| t).unwrap();
            let n0 = p.c_n.eval(&|_| t).unwrap();
            for v in 0..cfg.bn / 2 {
                let idx = eval(&c, &[t, v]);
                let (dm, dn) = p.c_vals[v as usize];
                assert_eq!((m0 + dm, n0 + dn), (idx % 64, idx / 64), "{d}: thread {t} value {v}");
            }
        }
    }
}

#[test]
fn the_header_shows_layouts_boxes_and_descriptors() {
    let (d, cfg) = configs().remove(0);
    let src = sm90::generate(&cfg).unwrap();
    for want in [
        "Layout_K_SW128_Atom<half_t> = Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)",
        "TMA box {64 (K), 128 (rows)}, swizzle 128B",
        "TMA box {64 (K), 256 (rows)}, swizzle 128B",
        "descriptor: layout_type B128 (1), leading_off 1, stride_off 64",
        "SM90_64x256x16_F32F16F16_SS<K,K>",
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16",
        "setmaxnreg.inc.sync.aligned.u32 232",
    ] {
        assert!(src.contains(want), "{d}: the source lacks `{want}`:\n{}", &src[..src.len().min(4000)]);
    }
}

#[test]
fn mn_major_operands_take_mn_major_atoms_and_transposed_reads() {
    let cfgs = configs();
    let (d, cfg) =
        cfgs.iter().find(|(d, _)| d.starts_with("gemm 4096") && d.contains("layout=NT")).expect("an NT configuration");
    assert_eq!((cfg.a.major, cfg.b.major), (Major::MN, Major::MN), "{d}");
    let src = sm90::generate(cfg).unwrap();
    for want in [
        "A (4096x4096, MN-major) * B (4096x4096, MN-major)",
        "Layout_MN_SW128_Atom<half_t> = Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)",
        "TMA box {64 (rows), 64 (K)}, swizzle 128B",
        // CuTe's make_gmma_desc<MN> of ((_64,_4),(_8,_2)):((_1,_4096),(_64,_512)) (oracle: LBO 512, SBO 64)
        "descriptor: layout_type B128 (1), leading_off 512, stride_off 64",
        "p, 1, 1, 1, 1;",
    ] {
        assert!(src.contains(want), "{d}: the source lacks `{want}`:\n{}", &src[..src.len().min(4000)]);
    }
    let (d, cfg) = cfgs.iter().find(|(d, _)| d.contains("layout=TT")).expect("a TT configuration");
    assert_eq!((cfg.a.major, cfg.b.major), (Major::K, Major::MN), "{d}");
    assert!(sm90::generate(cfg).unwrap().contains("p, 1, 1, 0, 1;"), "{d}");
}

#[test]
fn mn_major_rows_must_be_16_byte_aligned_for_the_tma() {
    use gemm_common::{opt, tag};
    let opts = vec![opt("arch", tag("sm90")), opt("layout", tag("NT"))];
    let e = config::parse_kernel(1001, 1000, 1000, &opts, None).unwrap_err();
    assert!(e.to_string().contains("M = 1001: TMA needs 16-byte aligned rows of A"), "{e}");
}

/// The TMA-store epilogue: every accumulator (thread t, value v) of each consumer is written at
/// the byte of its box where a 128B-swizzled TMA store reads element (m, n) of C, and the
/// threads fill every element of every box exactly once.
#[test]
fn tma_store_boxes_hold_the_c_layout() {
    let mut seen_epi = 0;
    for (d, cfg) in configs() {
        let Some(e) = &cfg.epi else { continue };
        seen_epi += 1;
        let p = sm90::plan(&cfg).unwrap();
        let c = Value::Layout(cfg.atom.c.clone());
        let boxes = cfg.bn / e.cols;
        let mut filled = vec![0u8; (boxes * 64 * e.cols) as usize];
        for t in 0..128i64 {
            let (r0, n0) = (p.c_m.eval(&|_| t).unwrap(), p.c_n.eval(&|_| t).unwrap());
            for v in 0..cfg.bn / 2 {
                let idx = eval(&c, &[t, v]);
                let (m, n) = (idx % 64, idx / 64);
                let (dm, dn) = p.c_vals[v as usize];
                let j = dn / e.cols;
                // the kernel's address: swz128((r0 + dm) * 128 + (n0 + dn - j * cols) * bytes)
                let byte = e.smem_byte(r0 + dm, n0 + dn - j * e.cols);
                // TMA's read of the box: element (row, col) at swizzle(row * 128 + col * bytes)
                let want = byte_swizzle(m * 128 + (n % e.cols) * e.out_bytes, 128);
                assert_eq!((j, byte), (n / e.cols, want), "{d}: thread {t} value {v} -> C ({m},{n})");
                let slot = (j * 64 * e.cols + m * e.cols + n % e.cols) as usize;
                filled[slot] += 1;
            }
        }
        assert!(filled.iter().all(|&x| x == 1), "{d}: the boxes are not filled exactly once");
        let src = sm90::generate(&cfg).unwrap();
        assert!(src.contains("tma_store(&tma_c, box"), "{d}");
        assert!(src.contains(&format!("boxes of 64 rows x {} columns", e.cols)), "{d}");
    }
    assert!(seen_epi >= 3, "only {seen_epi} configurations with the TMA-store epilogue");
    let cfgs = configs();
    let (d, cfg) = cfgs.iter().find(|(d, _)| d.contains("tma_store=_0")).expect("a tma_store=0 configuration");
    assert!(cfg.epi.is_none(), "{d}");
    assert!(sm90::generate(cfg).unwrap().contains("st_pair(cp +"), "{d}");
    let (d, cfg) = cfgs.iter().find(|(d, _)| d.contains("out=f32") && d.starts_with("gemm 1000")).unwrap();
    assert_eq!(cfg.epi.as_ref().map(|e| e.cols), Some(32), "{d}");
}

/// 2-CTA clusters: B's boxes are split between the two CTAs and multicast to both; each
/// consumer gives a stage back to both producers; the tile loop (its TILE_COORDS macro, modelled
/// here from its definition) gives the pair two M tiles of one N tile and covers every tile once.
#[test]
fn clusters_split_b_and_cover_every_tile_once() {
    let mut seen = 0;
    for (d, cfg) in configs() {
        if cfg.cluster == 1 {
            continue;
        }
        seen += 1;
        let src = sm90::generate(&cfg).unwrap();
        assert!(src.contains("__cluster_dims__(2, 1, 1)"), "{d}");
        assert_eq!(src.matches("            tma_load_mc(").count(), cfg.b.boxes.len(), "{d}: B's boxes, once each");
        assert_eq!(src.matches("mbar_arrive_cta(empty + 8 * prev, 1)").count(), 2, "{d}");
        assert!(src.contains(&format!("mbar_init(empty + 8 * i, {})", 2 * cfg.consumers)), "{d}");
        assert_eq!(src.matches("  cluster_sync();").count(), 2, "{d}");
        // the tile walk: rasterised groups of `raster` cluster rows over (m_tiles / 2) x gn
        let gm = (cfg.m + cfg.bm - 1) / cfg.bm;
        let gn = (cfg.n + cfg.bn - 1) / cfg.bn;
        let gmc = (gm + 1) / 2;
        let r = cfg.raster.min(gmc);
        let coords = |pid: i64, rank: i64| {
            let first = pid / (r * gn) * r;
            let rows = (gmc - first).min(r);
            ((first + pid % (r * gn) % rows) * 2 + rank, pid % (r * gn) / rows)
        };
        let grid = if cfg.persistent { cfg.work().min(132 / 2) * 2 } else { cfg.work() * 2 };
        let mut count = vec![0; (gmc * 2 * gn) as usize];
        for block in (0..grid).step_by(2) {
            let mut tile = block / 2;
            while tile < cfg.work() {
                let (m0, n0) = coords(tile, 0);
                let (m1, n1) = coords(tile, 1);
                assert_eq!((n0, m1), (n1, m0 + 1), "{d}: the pair shares B's tile");
                count[(m0 * gn + n0) as usize] += 1;
                count[(m1 * gn + n1) as usize] += 1;
                tile += grid / 2;
            }
        }
        for bm in 0..gmc * 2 {
            for bn in 0..gn {
                assert_eq!(count[(bm * gn + bn) as usize], 1, "{d}: tile ({bm},{bn})");
            }
        }
    }
    assert!(seen >= 3, "{seen} cluster configurations");
}
