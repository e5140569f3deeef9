//! `MMA_Atom`, `TiledMMA` and `ThrMMA` of `cute/atom/mma_atom.hpp`: thrfrg_A/B/C,
//! get_layoutA/B/C_TV, partition_A/B/C, tile_size/tile_shape, ported function by function.
//! May import: `atoms::mma_table`, `atoms::tensor`, the algebra data types, `eval::ops`.

use super::mma_table::MmaTraits;
use super::tensor::{partition_coord, Partition, Source};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, st, Int};
use crate::eval::int_tuple::IntTuple::{self, I};
use crate::eval::int_tuple::T;
use crate::eval::layout::Layout;
use crate::eval::ops::algebra::Tiler;
use crate::eval::ops::{algebra as oa, coord as oc, divide as od, structure as os, tuple as ot};
use std::fmt;

/// `TiledMMA<MMA_Atom<Op>, AtomLayoutMNK, PermutationMNK>`.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledMma {
    pub atom: MmaTraits,
    /// `AtomLayoutMNK` as CuTe's type holds it (the atom layout appended to rank 3).
    pub atom_layout: Layout,
    /// `tiled_product(AtomThrID, AtomLayoutMNK)`: (ThrV, ThrM, ThrN, ThrK) -> thread index.
    pub thr_layout_vmnk: Layout,
    /// The three permutations (`_` where none was given).
    pub perm: [Tiler; 3],
}

/// `print(MMA_Atom)`.
pub fn fmt_atom(a: &MmaTraits, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    writeln!(f, "MMA_Atom")?;
    writeln!(f, "  ThrID:      {}", a.thr_id)?;
    writeln!(f, "  Shape_MNK:  {}", a.shape_mnk)?;
    writeln!(f, "  LayoutA_TV: {}", a.a)?;
    writeln!(f, "  LayoutB_TV: {}", a.b)?;
    write!(f, "  LayoutC_TV: {}", a.c)
}

impl fmt::Display for TiledMma {
    /// `print(TiledMMA)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledMMA")?;
        writeln!(f, "  ThrLayoutVMNK:  {}", self.thr_layout_vmnk)?;
        writeln!(f, "  PermutationMNK: {}", Tiler::Tuple(self.perm.to_vec()))?;
        fmt_atom(&self.atom, f)
    }
}

/// Which operand: selects the atom TV layout and the (row, column) modes of MNK.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    A,
    B,
    C,
}

impl Operand {
    /// The two MNK modes of the operand's tile: A (M,K), B (N,K), C (M,N).
    fn mnk(self) -> (usize, usize) {
        match self {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        }
    }
}

/// `make_tiled_mma(op, atom_layout, permutations)`. `atom_layout` must be a layout (a shape
/// is taken by CuTe as a tiler and refused); `perm` is a tiler of at most 3 modes.
pub fn make_tiled_mma(atom: MmaTraits, atom_layout: Option<&Layout>, perm: Option<Tiler>) -> R<TiledMma> {
    let default = Layout::new(T(vec![I(st(1)), I(st(1)), I(st(1))]), T(vec![I(st(0)), I(st(0)), I(st(0))]));
    let thr_layout_mnk = match atom_layout {
        Some(l) => {
            if os::rank(l) > 3 {
                return Err(EvalError::rule(
                    "TiledMMA requires rank-3 AtomLayoutMNK",
                    format!("{l} has rank {}", os::rank(l)),
                ));
            }
            os::append_n(l, 3, &Layout::new(I(st(1)), I(st(0))))?
        }
        None => default,
    };
    let p3 = static_permutation(perm)?;
    let thr_layout_vmnk = od::tiled_product(&atom.thr_id, &Tiler::Layout(thr_layout_mnk.clone()))?;
    Ok(TiledMma { atom, atom_layout: thr_layout_mnk, thr_layout_vmnk, perm: p3 })
}

/// The permutation of a TiledMMA as its class checks it (before anything is computed from the
/// atom layout): at most three independent modes, each static.
pub fn static_permutation(perm: Option<Tiler>) -> R<[Tiler; 3]> {
    let perm = match perm {
        None => vec![Tiler::Under, Tiler::Under, Tiler::Under],
        Some(Tiler::Tuple(v)) => v,
        Some(Tiler::Layout(l)) => {
            return Err(EvalError::rule(
                "TiledMMA requires independent permutations of MNK.",
                format!("the permutation {l} is one layout; write a tile <M,N,K>"),
            ))
        }
        Some(x) => vec![x],
    };
    if perm.len() > 3 {
        return Err(EvalError::rule("TiledMMA requires rank-3 PermutationMNK", format!("got {} modes", perm.len())));
    }
    let mut p3 = [Tiler::Under, Tiler::Under, Tiler::Under];
    for (k, x) in perm.into_iter().enumerate() {
        if !x.is_static() {
            return Err(dynamic_mode(&x));
        }
        p3[k] = x;
    }
    Ok(p3)
}

/// The permutation's modes are static, the first check of [`static_permutation`] alone (a
/// permutation given as one layout is left to it).
pub fn static_modes(perm: &Tiler) -> R<()> {
    let modes = match perm {
        Tiler::Tuple(v) => &v[..],
        Tiler::Layout(_) => return Ok(()),
        x => std::slice::from_ref(x),
    };
    match modes.iter().find(|x| !x.is_static()) {
        Some(x) => Err(dynamic_mode(x)),
        None => Ok(()),
    }
}

fn dynamic_mode(x: &Tiler) -> EvalError {
    EvalError::rule("TiledMMA requires static permutations of MNK.", format!("{x} is dynamic"))
}

/// A shape passed where make_tiled_mma expects the atom layout: CuTe reads it as a tiler of
/// `tiled_product` and refuses it.
pub fn shape_as_atom_layout_error() -> EvalError {
    EvalError::rule(
        "logical_product: Too many modes in tiler.",
        "the atom layout must be a layout, e.g. make_layout((_2,_2,_1)); a shape is taken as a tiler",
    )
}

impl TiledMma {
    fn vmnk_size(&self, i: usize) -> R<Int> {
        ot::product(&*self.thr_layout_vmnk.shape.get(i)?)
    }
    fn atom_size(&self, i: usize) -> R<Int> {
        ot::product(&*self.atom.shape_mnk.get(i)?)
    }

    /// `permutation_mnk<I>()`: the permutation, or `size<I>(AtomShape_MNK) * size<I+1>(ThrLayoutVMNK)`.
    pub fn permutation_mnk(&self, i: usize) -> R<Tiler> {
        match &self.perm[i] {
            Tiler::Under => Ok(Tiler::Int(self.atom_size(i)?.mul(self.vmnk_size(i + 1)?)?)),
            p => Ok(p.clone()),
        }
    }

    /// `tile_size_mnk<I>()`.
    pub fn tile_size(&self, i: usize) -> R<Int> {
        self.permutation_mnk(i)?.size()
    }

    /// `tile_shape(mma)`.
    pub fn tile_shape(&self) -> R<IntTuple> {
        Ok(T(vec![I(self.tile_size(0)?), I(self.tile_size(1)?), I(self.tile_size(2)?)]))
    }

    fn atom_tv(&self, op: Operand) -> &Layout {
        match op {
            Operand::A => &self.atom.a,
            Operand::B => &self.atom.b,
            Operand::C => &self.atom.c,
        }
    }

    /// `thrfrg_A/B/C(tensor)`: ((ThrV,(Thr_r,Thr_c)),(FrgV,(Rest_r,Rest_c))).
    pub fn thrfrg(&self, op: Operand, t: &Layout) -> R<Layout> {
        if os::rank(t) < 2 {
            return Err(EvalError::rule(
                "static assertion failed",
                format!("thrfrg needs a tensor of rank >= 2, got {t}"),
            ));
        }
        let (r, c) = op.mnk();
        let t_tile = Tiler::Tuple(vec![self.permutation_mnk(r)?, self.permutation_mnk(c)?]);
        let t_tensor = od::logical_divide_tiler(t, &t_tile)?;
        let a_tile = Tiler::Tuple(vec![
            Tiler::Layout(os::make_layout(&I(self.atom_size(r)?))?),
            Tiler::Layout(os::make_layout(&I(self.atom_size(c)?))?),
        ]);
        let a_tensor = od::zipped_divide(&t_tensor, &a_tile)?;
        let tv_tensor = oa::composition_tiler_raw(
            &a_tensor,
            &Tiler::Tuple(vec![Tiler::Layout(self.atom_tv(op).clone()), Tiler::Under]),
        )?;
        let thr_tile = Tiler::Tuple(vec![
            Tiler::Under,
            Tiler::Tuple(vec![
                Tiler::Layout(os::make_layout(&I(self.vmnk_size(r + 1)?))?),
                Tiler::Layout(os::make_layout(&I(self.vmnk_size(c + 1)?))?),
            ]),
        ]);
        od::zipped_divide(&tv_tensor, &thr_tile)
    }

    /// `thridx_2_thrid`: thread index -> thread id in ThrLayoutVMNK.
    fn thridx_2_thrid(&self) -> R<Layout> {
        let v = &self.thr_layout_vmnk;
        let n = os::size(v)?;
        let outer = Layout::new(T(vec![I(n), I(st(1))]), T(vec![I(st(1)), I(st(0))]));
        let inv = oa::right_inverse(&os::make_layout_cat(&[v.clone(), oa::complement_cosize(v)?]))?;
        oa::composition_raw(&outer, &inv)
    }

    /// `get_layoutA/B/C_TV()`: (thread index, value) -> index in the tile.
    pub fn get_layout_tv(&self, op: Operand) -> R<Layout> {
        self.get_layout_tv_traced(op, None)
    }

    /// [`TiledMma::get_layout_tv`], its steps written to `steps` (for `explain`).
    pub fn get_layout_tv_traced(&self, op: Operand, mut steps: Option<&mut Vec<String>>) -> R<Layout> {
        let (r, c) = op.mnk();
        let reference = os::make_layout(&T(vec![I(self.tile_size(r)?), I(self.tile_size(c)?)]))?;
        // (CuTe makes thridx_2_thrid before thrfrg: where both fail, its error is the first)
        let inv = self.thridx_2_thrid()?;
        let inv_line = steps.is_some().then(|| {
            format!(
                "  thridx_2_thrid = {inv}: thread index -> its place in get_thr_layout_vmnk(T) = {}",
                self.thr_layout_vmnk
            )
        });
        let t2t = Tiler::Tuple(vec![Tiler::Layout(inv), Tiler::Under]);
        let frg = self.thrfrg(op, &reference)?;
        // (the lines are formatted only when traced: the untraced call is the pictures' and analyses')
        let (rn, cn) = (["M", "N", "K"][r], ["M", "N", "K"][c]);
        macro_rules! step {
            ($($line:tt)*) => {
                if let Some(s) = steps.as_deref_mut() {
                    s.push(format!($($line)*));
                }
            };
        }
        step!("  the tile ({rn},{cn}) = {}: its index layout {reference}", reference.shape);
        step!("  thrfrg_{op:?}(T, that) = {frg}: ((ThrV,(Thr{rn},Thr{cn})),(FrgV,(Rest{rn},Rest{cn}))) -> index");
        if let (Some(s), Some(line)) = (steps.as_deref_mut(), inv_line) {
            s.push(line);
        }
        match op {
            Operand::C => {
                let r = oa::composition_tiler_raw(&frg, &t2t)?;
                step!("  composed with it in the thread mode: {r}: (thread index, value) -> index");
                Ok(r)
            }
            Operand::A | Operand::B => {
                let (s1, s2) = (self.vmnk_size(1)?, self.vmnk_size(2)?);
                let d = if op == Operand::A { (st(1), st(0)) } else { (st(0), st(1)) };
                let tile = Tiler::Tuple(vec![
                    Tiler::Under,
                    Tiler::Tuple(vec![
                        Tiler::Layout(Layout::new(T(vec![I(s1), I(s2)]), T(vec![I(d.0), I(d.1)]))),
                        Tiler::Under,
                    ]),
                ]);
                let x = oa::composition_tiler_raw(&frg, &Tiler::Tuple(vec![tile, Tiler::Under]))?;
                let other = if op == Operand::A { "N" } else { "M" };
                step!(
                    "  the thread mode widened to (ThrV,(ThrM,ThrN,ThrK)), stride 0 over Thr{other} (those threads hold the same {op:?}): {x}"
                );
                let r = oa::composition_tiler_raw(&x, &t2t)?;
                step!("  composed with thridx_2_thrid in the thread mode: {r}: (thread index, value) -> index");
                Ok(r)
            }
        }
    }

    /// `get_slice(thr).partition_A/B/C(counting tensor of L)`.
    pub fn partition(&self, op: Operand, thr: i64, src: &Source) -> R<Partition> {
        self.partition_traced(op, thr, src, None)
    }

    /// [`TiledMma::partition`], its steps written to `steps` (for `explain`): the thread's
    /// (V,M,N,K) coordinate, the thread-value split of the source's layout, the coordinate the
    /// split is sliced at.
    pub fn partition_traced(
        &self,
        op: Operand,
        thr: i64,
        src: &Source,
        steps: Option<&mut Vec<String>>,
    ) -> R<Partition> {
        let vmnk: Vec<Int> = oc::get_flat_coord(&self.thr_layout_vmnk, &I(dy(thr)))?
            .modes()
            .iter()
            .map(IntTuple::as_int)
            .collect::<R<_>>()?;
        let (r, c) = op.mnk();
        let at = |i: usize| {
            vmnk.get(i)
                .copied()
                .ok_or_else(|| EvalError::rule("mismatched ranks", format!("{} is not rank 4", self.thr_layout_vmnk)))
        };
        let thr_crd = T(vec![I(at(0)?), T(vec![I(at(r + 1)?), I(at(c + 1)?)])]);
        if let Some(steps) = steps {
            let name = format!("{op:?}");
            let (rn, cn) = (["M", "N", "K"][r], ["M", "N", "K"][c]);
            let frg = self.thrfrg(op, src.layout())?;
            steps.push(format!(
                "  get_thr_layout_vmnk(T) = {}: thread {thr} is at (V,M,N,K) = ({})",
                self.thr_layout_vmnk,
                vmnk.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",")
            ));
            steps.push(format!(
                "  thrfrg_{name}(T, layout) = {frg}: ((ThrV,(Thr{rn},Thr{cn})),(FrgV,(Rest{rn},Rest{cn}))), the tile split into threads and values"
            ));
            steps.push(format!(
                "  sliced at {}: the thread's (V,{rn},{cn}) fixed, its values kept",
                partition_coord(thr_crd.clone(), &frg)?
            ));
        }
        src.partition(|l| self.thrfrg(op, l), |t| partition_coord(thr_crd.clone(), t))
    }
}
