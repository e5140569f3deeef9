//! The kernel's software pipeline, simulated on the CPU: every fragment load reads a stage that
//! holds the right k-tile, completely copied (cp.async group waited) and made visible (a
//! barrier after the wait); no copy overwrites a stage before a barrier separates it from the
//! last read, nor while its tile is still needed; every MMA consumes the fragments of its own
//! k-step. Checked for 2..6 stages, 1..4 k-steps per tile and 1..9 k-tiles.

mod gemm_common;

use cute::runtime::config;
use cute::runtime::kernel::{schedule, PipeOp, TileRef};
use gemm_common::{int, opt, tile, Value};

#[derive(Clone, Default)]
struct Stage {
    tile: Option<i64>,
    parts_done: Vec<usize>,
    parts_visible: Vec<usize>,
    last_read_epoch: i64,
}

fn simulate(stages: i64, bk: i64, kt_n: i64) -> Result<(), String> {
    let k = bk * kt_n;
    let cfg = config::parse(
        256,
        256,
        k,
        &[
            opt("tile", tile(128, 128, bk)),
            opt("stages", int(stages)),
            opt("mma", Value::Tuple(gemm_common::t(&[2, 2, 1]))),
        ],
    )
    .map_err(|e| e.to_string())?;
    let sch = schedule(&cfg);
    let kk_n = sch.ksteps as i64;
    let parts = sch.parts;
    let mut st: Vec<Stage> = vec![Stage { last_read_epoch: -1, ..Default::default() }; stages as usize];
    let mut open: Vec<(usize, usize)> = Vec::new(); // (stage, part) copied, not committed
    let mut groups: Vec<Vec<(usize, usize)>> = Vec::new(); // committed, not yet waited
    let (mut rd, mut wr) = (0usize, (stages - 1) as usize);
    let mut epoch = 0i64;
    let mut frag_loads = 0i64; // global k-step of the next fragment load
    let mut bufs: [i64; 2] = [-1, -1];
    let mut mmas = 0i64;
    let ctx = |what: &str| format!("stages {stages}, {kk_n} k-steps/tile, {kt_n} tiles: {what}");

    let mut run = |ops: &[PipeOp], kt: i64| -> Result<(), String> {
        for op in ops {
            match op {
                PipeOp::Copy { stage, tile, part } => {
                    let t = match tile {
                        TileRef::Fixed(q) => *q,
                        TileRef::Ahead(d) => kt + d,
                    };
                    if t >= kt_n {
                        continue;
                    }
                    let s = stage.map(|x| x as usize).unwrap_or(wr);
                    let slot = &mut st[s];
                    if slot.last_read_epoch >= epoch {
                        return Err(ctx(&format!(
                            "tile {t} written into stage {s} with no barrier after its last read"
                        )));
                    }
                    if let Some(old) = slot.tile {
                        if old != t && frag_loads < (old + 1) * kk_n {
                            return Err(ctx(&format!("stage {s} overwritten while tile {old} is still needed")));
                        }
                    }
                    if slot.tile != Some(t) {
                        *slot = Stage {
                            tile: Some(t),
                            parts_done: vec![],
                            parts_visible: vec![],
                            last_read_epoch: slot.last_read_epoch,
                        };
                    }
                    open.push((s, *part));
                }
                PipeOp::Commit { advance } => {
                    groups.push(std::mem::take(&mut open));
                    if *advance {
                        wr = (wr + 1) % stages as usize;
                    }
                }
                PipeOp::WaitSync { pending, advance } => {
                    let keep = (*pending as usize).min(groups.len());
                    let done: Vec<_> = groups.drain(..groups.len() - keep).collect();
                    for g in done {
                        for (s, p) in g {
                            st[s].parts_done.push(p);
                        }
                    }
                    epoch += 1;
                    for s in st.iter_mut() {
                        s.parts_visible = s.parts_done.clone();
                    }
                    if *advance {
                        rd = (rd + 1) % stages as usize;
                    }
                }
                PipeOp::Frags { buf, kstep } => {
                    let g = frag_loads;
                    frag_loads += 1;
                    if *kstep as i64 != g % kk_n {
                        return Err(ctx(&format!("fragment load {g} reads k-step {kstep}")));
                    }
                    bufs[*buf] = g;
                    if g / kk_n >= kt_n {
                        continue; // the harmless read past the last tile
                    }
                    let slot = &mut st[rd];
                    if slot.tile != Some(g / kk_n) {
                        return Err(ctx(&format!(
                            "k-step {g} reads stage {rd} holding tile {:?}, not {}",
                            slot.tile,
                            g / kk_n
                        )));
                    }
                    if (0..parts).any(|p| !slot.parts_visible.contains(&p)) {
                        return Err(ctx(&format!(
                            "k-step {g} reads stage {rd} before its copy is complete and visible"
                        )));
                    }
                    slot.last_read_epoch = epoch;
                }
                PipeOp::Mma { buf } => {
                    if bufs[*buf] != mmas {
                        return Err(ctx(&format!("MMA {mmas} uses the fragments of k-step {}", bufs[*buf])));
                    }
                    mmas += 1;
                }
                PipeOp::Step(_) => {}
            }
        }
        Ok(())
    };
    run(&sch.prologue, 0)?;
    let mut kt = 0;
    while kt < kt_n {
        run(&sch.bodies[0], kt)?;
        if sch.bodies.len() == 2 {
            if kt + 1 == kt_n {
                break;
            }
            run(&sch.bodies[1], kt + 1)?;
            kt += 2;
        } else {
            kt += 1;
        }
    }
    if mmas != kt_n * kk_n {
        return Err(ctx(&format!("{mmas} k-steps of MMAs, expected {}", kt_n * kk_n)));
    }
    Ok(())
}

#[test]
fn the_pipeline_reads_complete_stages_and_never_overwrites_live_ones() {
    let mut fails = Vec::new();
    for stages in 2..=6 {
        for bk in [16, 32, 48, 64] {
            for kt_n in 1..=9 {
                if let Err(e) = simulate(stages, bk, kt_n) {
                    fails.push(e);
                }
            }
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
