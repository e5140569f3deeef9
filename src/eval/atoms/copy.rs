//! `Copy_Atom`, `TiledCopy` and `ThrCopy` of `cute/atom/copy_atom.hpp`, and the
//! `make_tiled_copy*` constructors, ported function by function.
//! May import: `atoms::copy_table`, `atoms::mma`, `atoms::tensor`, the algebra types, `eval::ops`.

use super::copy_table::CopyTraits;
use super::mma::{Operand, TiledMma};
use super::tensor::{repeat_under, Partition, Source};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, st, Int};
use crate::eval::int_tuple::IntTuple::{self, Under, I};
use crate::eval::int_tuple::T;
use crate::eval::layout::Layout;
use crate::eval::ops::algebra::Tiler;
use crate::eval::ops::{algebra as oa, coord as oc, divide as od, structure as os, tuple as ot};
use std::fmt;

/// `Copy_Atom<Op, ValType>`: the traits' bit layouts recast to units of the value type.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyAtom {
    pub op: CopyTraits,
    pub val_type: String,
    pub bits: i64,
    /// `ValLayoutSrc/Dst/Ref = recast_layout<uint1_t, ValType>(Bit layouts)`.
    pub src: Layout,
    pub dst: Layout,
    pub r#ref: Layout,
}

/// `Copy_Atom<Op, T>{}`: recast the bit layouts and check CuTe's three static_asserts.
pub fn make_copy_atom(op: CopyTraits, val_type: &str, bits: i64) -> R<CopyAtom> {
    let src = oa::recast_layout(&op.src, 1, bits)?;
    let dst = oa::recast_layout(&op.dst, 1, bits)?;
    let r = oa::recast_layout(&op.r#ref, 1, bits)?;
    let nthr = os::size(&op.thr_id)?;
    for (l, which) in [(&src, "Src"), (&dst, "Dst"), (&r, "Ref")] {
        let n = ot::product(&*l.shape.get(0)?)?;
        if n.v != nthr.v {
            return Err(EvalError::rule(
                format!("CopyOperation is not valid for {which} of ValType."),
                format!("{} threads of {} but {} in {which} layout {l} of {val_type}", nthr, op.name, n),
            ));
        }
    }
    Ok(CopyAtom { op, val_type: val_type.to_string(), bits, src, dst, r#ref: r })
}

impl fmt::Display for CopyAtom {
    /// `print(Copy_Atom)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Copy_Atom")?;
        writeln!(f, "  ThrID:        {}", self.op.thr_id)?;
        writeln!(f, "  ValLayoutSrc: {}", self.src)?;
        writeln!(f, "  ValLayoutDst: {}", self.dst)?;
        writeln!(f, "  ValLayoutRef: {}", self.r#ref)?;
        write!(f, "  ValueType:    {}b", self.bits)
    }
}

impl CopyAtom {
    fn num_thr(&self) -> R<Int> {
        ot::product(&*self.r#ref.shape.get(0)?)
    }
    fn num_val(&self) -> R<Int> {
        ot::product(&*self.r#ref.shape.get(1)?)
    }
    /// `NumValSrc = size<1>(ValLayoutSrc)`.
    fn num_val_src(&self) -> R<Int> {
        ot::product(&*self.src.shape.get(1)?)
    }
}

/// `TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>`.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledCopy {
    pub atom: CopyAtom,
    /// (tid, vid) -> coord in the tile
    pub layout_tv: Layout,
    pub tiler: Tiler,
}

impl fmt::Display for TiledCopy {
    /// `print(TiledCopy)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledCopy")?;
        writeln!(f, "  Tiler_MN:       {}", self.tiler)?;
        writeln!(f, "  TiledLayout_TV: {}", self.layout_tv)?;
        write!(f, "{}", self.atom)
    }
}

/// `make_tiled_copy_impl`: build the TiledCopy and check its two static_asserts.
pub fn make_tiled_copy_impl(atom: CopyAtom, layout_tv: Layout, tiler: Tiler) -> R<TiledCopy> {
    let tn = ot::product(&*layout_tv.shape.get(0)?)?;
    let tv = ot::product(&*layout_tv.shape.get(1)?)?;
    let (an, av) = (atom.num_thr()?, atom.num_val()?);
    if !(tn.s && tv.s) {
        // CUTE_STATIC_ASSERT_V(TiledNumThr{} % AtomNumThr{} == Int<0>{}) on a dynamic size
        return Err(EvalError::rule(
            "'value' is not a member of 'bool'",
            format!("a TiledCopy needs a static (thread, value) layout, got {layout_tv}"),
        ));
    }
    if tn.rem(an)?.v != 0 {
        return Err(EvalError::rule(
            "TiledCopy uses too few thrs for selected CopyAtom",
            format!("{tn} threads, the atom needs a multiple of {an}"),
        ));
    }
    if tv.rem(av)?.v != 0 {
        return Err(EvalError::rule(
            "TiledCopy uses too few vals for selected CopyAtom",
            format!("{tv} values, the atom needs a multiple of {av}"),
        ));
    }
    Ok(TiledCopy { atom, layout_tv, tiler })
}

/// `make_tiled_copy(atom, thr_layout, val_layout)`, its steps written to `steps` (for `explain`).
pub fn make_tiled_copy(
    atom: CopyAtom,
    thr: &Layout,
    val: Option<&Layout>,
    steps: Option<&mut Vec<String>>,
) -> R<TiledCopy> {
    let one = Layout::new(I(st(1)), I(st(0)));
    let val = val.unwrap_or(&one);
    let layout_mn = od::raked_product(thr, val)?;
    let shape = T(vec![I(os::size(thr)?), I(os::size(val)?)]);
    // right_inverse(layout_mn).with_shape(shape)
    let inv = oa::right_inverse(&layout_mn)?;
    let layout_tv = oa::composition_raw(&inv, &os::make_layout(&shape)?)?;
    let tiles = ot::product_each(&layout_mn.shape)?;
    if let Some(steps) = steps {
        steps.push(format!("  raked_product(thr_layout, val_layout) = {layout_mn}: (M,N) -> (thread, value) index"));
        steps.push(format!(
            "  right_inverse(that) = {inv}, with_shape({shape}) = {layout_tv}: (thread, value) -> (M,N) index"
        ));
        steps.push(format!("  product_each(shape(layout_mn)) = {tiles}: the tile the threads cover"));
    }
    let tiler = Tiler::from_shape(&tiles)?;
    make_tiled_copy_impl(atom, layout_tv, tiler)
}

/// `make_tiled_copy_A/B/C(atom, mma)`.
pub fn make_tiled_copy_mma(atom: CopyAtom, mma: &TiledMma, op: Operand) -> R<TiledCopy> {
    let tv = mma.get_layout_tv(op)?;
    let (r, c) = match op {
        Operand::A => (0, 2),
        Operand::B => (1, 2),
        Operand::C => (0, 1),
    };
    let tiler = Tiler::Tuple(vec![Tiler::Int(mma.tile_size(r)?), Tiler::Int(mma.tile_size(c)?)]);
    make_tiled_copy_impl(atom, tv, tiler)
}

/// `filter(composition(make_layout(shape, e_i), layout_tv))` for each mode i, the tiler of
/// `make_tiled_copy_C_atom` / `make_cotiled_copy`.
fn mode_tilers(shape: &[Int], layout_tv: &Layout) -> R<Vec<Layout>> {
    let mut out = Vec::new();
    for i in 0..shape.len() {
        let strides: Vec<IntTuple> = (0..shape.len()).map(|k| I(st(if k == i { 1 } else { 0 }))).collect();
        let proj = Layout::new(T(shape.iter().map(|s| I(*s)).collect()), T(strides));
        out.push(os::filter(&oa::composition_raw(&proj, layout_tv)?)?);
    }
    Ok(out)
}

/// `make_tiled_copy_C_atom(atom, mma)`.
pub fn make_tiled_copy_c_atom(atom: CopyAtom, mma: &TiledMma) -> R<TiledCopy> {
    let layout_c_tv = mma.get_layout_tv(Operand::C)?;
    let copy_v = atom.num_val_src()?;
    let n1 = ot::product(&*layout_c_tv.shape.get(1)?)?;
    if copy_v.v > n1.v {
        return Err(EvalError::rule(
            "static assertion failed",
            format!("the atom's {copy_v} values exceed the {n1} values per thread of the MMA's C"),
        ));
    }
    let n0 = ot::product(&*layout_c_tv.shape.get(0)?)?;
    let layout_tv = oa::composition_raw(&layout_c_tv, &os::make_layout(&T(vec![I(n0), I(copy_v)]))?)?;
    let mma_tiler = [mma.tile_size(0)?, mma.tile_size(1)?];
    let tiler = mode_tilers(&mma_tiler, &layout_tv)?;
    let tile2mma = oa::composition_tiler_raw(
        &os::make_layout(&T(mma_tiler.iter().map(|s| I(*s)).collect()))?,
        &Tiler::Tuple(tiler.iter().cloned().map(Tiler::Layout).collect()),
    )?;
    let layout_tv = oa::composition_raw(&oa::left_inverse(&tile2mma)?, &layout_tv)?;
    make_tiled_copy_impl(atom, layout_tv, Tiler::Tuple(tiler.into_iter().map(Tiler::Layout).collect()))
}

/// `layout<i>(L)`, with `IntTuple::get`'s range errors.
fn mode(l: &Layout, i: usize) -> R<Layout> {
    Ok(Layout::new(l.shape.get(i)?.into_owned(), l.stride.get(i)?.into_owned()))
}

/// `make_cotiled_copy(atom, atom_tv_layout, data_layout)`.
pub fn make_cotiled_copy(atom: CopyAtom, atom_tv: &Layout, data: &Layout) -> R<TiledCopy> {
    let is_static = |l: &Layout| l.shape.is_static() && l.stride.is_static();
    if !is_static(atom_tv) || !is_static(data) {
        return Err(EvalError::rule("static assertion failed", "make_cotiled_copy needs static layouts"));
    }
    let one = Layout::new(I(st(1)), I(st(0)));
    let inv_data = os::make_layout_cat(&[oa::left_inverse(data)?, one.clone()]);
    let layout_tv_data = oa::composition_raw(&inv_data, atom_tv)?;
    let lhs =
        oa::coalesce(&oa::composition_raw(&os::make_layout_cat(&[data.clone(), one]), &mode(&layout_tv_data, 1)?)?)?;
    let rhs = oa::coalesce(&mode(atom_tv, 1)?)?;
    if lhs != rhs {
        return Err(EvalError::rule(
            "The memory pointed to by AtomTVLayout does not exist in the DataLayout.",
            format!("{lhs} != {rhs}"),
        ));
    }
    let flat = ot::product_each(&data.shape)?;
    let flat_v: Vec<Int> = flat.modes().iter().map(|x| x.as_int()).collect::<R<_>>()?;
    let tiler = mode_tilers(&flat_v, &layout_tv_data)?;
    let tile2data = oa::composition_tiler_raw(
        &os::make_layout(&flat)?,
        &Tiler::Tuple(tiler.iter().cloned().map(Tiler::Layout).collect()),
    )?;
    let layout_tv = oa::composition_raw(&oa::left_inverse(&tile2data)?, &layout_tv_data)?;
    make_tiled_copy_impl(atom, layout_tv, Tiler::Tuple(tiler.into_iter().map(Tiler::Layout).collect()))
}

/// Src or Dst side of a TiledCopy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    S,
    D,
}

impl TiledCopy {
    /// `size(TiledCopy)` = TiledNumThr.
    pub fn num_thr(&self) -> R<Int> {
        ot::product(&*self.layout_tv.shape.get(0)?)
    }

    /// `tile_size<I...>(TiledCopy)`: the size of the tiler (or of one of its modes).
    pub fn tile_size(&self, mode: Option<usize>) -> R<Int> {
        // CuTe: `size<I...>(Tiler_MN{})`. Without a mode that is `product(Tiler_MN)`, which is
        // `void` (a compile error) when the tiler holds a layout (make_tiled_copy_C_atom);
        // with a mode, `size(get<I>(Tiler_MN))`: a layout's size, or the product of a tuple.
        match mode {
            None => tiler_product(&self.tiler),
            Some(i) => match &self.tiler {
                Tiler::Tuple(v) => match v.get(i).ok_or_else(|| {
                    EvalError::rule("Index out of range", format!("tile_size<{i}> of a tiler of rank {}", v.len()))
                })? {
                    Tiler::Layout(l) => os::size(l),
                    t => tiler_product(t),
                },
                Tiler::Layout(l) if i == 0 => os::size(l),
                t if i == 0 => tiler_product(t),
                _ => Err(EvalError::rule("Index out of range", format!("tile_size<{i}> of a rank-1 tiler"))),
            },
        }
    }

    /// `right_inverse(AtomLayoutRef).compose(AtomLayoutSrc/Dst)`.
    fn ref2trg(&self, side: Side) -> R<Layout> {
        let trg = match side {
            Side::S => &self.atom.src,
            Side::D => &self.atom.dst,
        };
        oa::composition_raw(&oa::right_inverse(&self.atom.r#ref)?, trg)
    }

    /// `tile2thrfrg(tensor, ref2trg)`.
    fn tile2thrfrg(&self, tensor: &Layout, ref2trg: &Layout) -> R<Layout> {
        let atom_shape = T(vec![I(self.atom.num_thr()?), I(self.atom.num_val()?)]);
        let atom_layout_tv = od::zipped_divide(&self.layout_tv, &Tiler::from_shape(&atom_shape)?)?;
        let trg_layout_tv = oa::composition_tiler_raw(
            &atom_layout_tv,
            &Tiler::Tuple(vec![Tiler::Layout(ref2trg.clone()), Tiler::Under]),
        )?;
        let profile = T(vec![I(st(1)), T(vec![I(st(1)), I(st(1))])]);
        let thrval2mn = oa::coalesce_profile(&os::zip(&trg_layout_tv)?, &profile)?;
        let tv_tensor = oa::composition_tiler_raw(tensor, &Tiler::Tuple(vec![Tiler::Layout(thrval2mn), Tiler::Under]))?;
        oc::slice(&T(vec![T(vec![Under, Under]), Under]), &tv_tensor)
    }

    /// `tidfrg_S/D(tensor)`: (Thr, (FrgV,FrgX), (RestM,RestN,...)).
    pub fn tidfrg(&self, side: Side, t: &Layout) -> R<Layout> {
        let tr = match &self.tiler {
            Tiler::Tuple(v) => v.len(),
            _ => 1,
        };
        if os::rank(t) < tr {
            return Err(EvalError::rule(
                "Rank of tensor to be partitioned too small.",
                format!("{t} has rank {}, the tiler {}", os::rank(t), tr),
            ));
        }
        let z = od::zipped_divide(t, &self.tiler)?;
        self.tile2thrfrg(&z, &self.ref2trg(side)?)
    }

    /// `get_layoutS_TV()` / `get_layoutD_TV()`: (thread, value) -> index in the tile.
    pub fn get_layout_tv(&self, side: Side) -> R<Layout> {
        self.get_layout_tv_traced(side, None)
    }

    /// [`TiledCopy::get_layout_tv`], its steps written to `steps` (for `explain`).
    pub fn get_layout_tv_traced(&self, side: Side, steps: Option<&mut Vec<String>>) -> R<Layout> {
        let ref_s = os::make_layout(&T(vec![self.tiler.shape()?, I(st(1))]))?;
        let r2t = self.ref2trg(side)?;
        let x = self.tile2thrfrg(&ref_s, &r2t)?;
        let r = oc::slice(&T(vec![Under, Under, I(st(0))]), &x)?;
        if let Some(steps) = steps {
            let (name, side) = if matches!(side, Side::S) { ("S", "source") } else { ("D", "destination") };
            steps.push(format!("  the tile (M,N) with a rest mode _1: its index layout {ref_s}"));
            steps.push(format!(
                "  right_inverse(ref) o {name} of the copy atom = {r2t}: the atom's ({side} thread, value) -> (reference thread, value)"
            ));
            steps.push(format!("  tile2thrfrg(that tile, that) = {x}: (Thr,(FrgV,FrgX),(RestM,RestN)) -> index"));
            steps.push(format!("  sliced at (_,_,_0): {r}: (thread index, value) -> index"));
        }
        Ok(r)
    }

    /// `get_slice(thr).partition_S/D(counting tensor)`.
    pub fn partition(&self, side: Side, thr: i64, src: &Source) -> R<Partition> {
        self.partition_traced(side, thr, src, None)
    }

    /// [`TiledCopy::partition`], its steps written to `steps` (for `explain`): the
    /// thread-value split of the source's layout and the coordinate it is sliced at.
    pub fn partition_traced(
        &self,
        side: Side,
        thr: i64,
        src: &Source,
        steps: Option<&mut Vec<String>>,
    ) -> R<Partition> {
        let r = os::rank(src.layout());
        let coord = T(vec![I(dy(thr)), Under, repeat_under(r)]);
        if let Some(steps) = steps {
            let name = if matches!(side, Side::S) { "S" } else { "D" };
            steps.push(format!(
                "  tidfrg_{name}(C, layout) = {}: (Thr,(FrgV,FrgX),(RestM,RestN,...)), the tile split into the copy's threads and values",
                self.tidfrg(side, src.layout())?
            ));
            steps.push(format!("  sliced at {coord}: thread {thr} fixed, its values and the rest kept"));
        }
        src.partition(|l| self.tidfrg(side, l), |_| Ok(coord.clone()))
    }

    /// `retile(tensor)`: the tensor's layout in the copy's value order.
    pub fn retile(&self, t: &Layout) -> R<Layout> {
        let (v_tensor, coord) = self.retile_unsliced(t)?;
        oc::slice(&coord, &v_tensor)
    }

    /// `retile` up to its last step: the layout `v_tensor` and the coordinate
    /// `(_, (_0, _, ...))` CuTe slices it at (a swizzled tensor slices its ComposedLayout).
    pub fn retile_unsliced(&self, t: &Layout) -> R<(Layout, IntTuple)> {
        let r = os::rank(t);
        let v = ot::product(&*t.shape.get(0)?)?;
        if !v.s {
            return Err(EvalError::rule(
                "static assertion failed",
                format!("retile needs a static first mode, got {}", t.shape.get(0)?),
            ));
        }
        let n = self.num_thr()?.mul(v)?;
        let tiler_shape = self.tiler.shape()?;
        // upcast<n>(right_inverse(layout_tv).with_shape(tiler_shape))
        let inv = oa::composition_raw(&oa::right_inverse(&self.layout_tv)?, &os::make_layout(&tiler_shape)?)?;
        let frg_layout_mn = oa::upcast(&inv, n.v)?;
        let frg_layout_v = od::zipped_divide(
            &od::logical_product_tiler(&os::make_layout(&I(v))?, &Tiler::Layout(oa::right_inverse(&frg_layout_mn)?))?,
            &Tiler::Layout(os::make_layout(&I(self.atom.num_val()?))?),
        )?;
        let mut tile = vec![I(v)];
        tile.extend(ot::product_each(&frg_layout_mn.shape)?.modes());
        let t_tensor = od::zipped_divide(t, &Tiler::from_shape(&T(tile))?)?;
        let v_tensor =
            oa::composition_tiler_raw(&t_tensor, &Tiler::Tuple(vec![Tiler::Layout(frg_layout_v), Tiler::Under]))?;
        let mut second = vec![I(st(0))];
        second.extend(std::iter::repeat_n(Under, r.saturating_sub(1)));
        let second = if r <= 1 { I(st(0)) } else { T(second) };
        Ok((v_tensor, T(vec![Under, second])))
    }
}

/// CuTe's `product` of a tiler: integers multiply; a layout inside gives `void` (refused).
fn tiler_product(t: &Tiler) -> R<Int> {
    match t {
        Tiler::Int(i) => Ok(*i),
        Tiler::Tuple(v) => v.iter().try_fold(st(1), |acc, x| acc.mul(tiler_product(x)?)),
        Tiler::Layout(_) | Tiler::Under => Err(EvalError::rule(
            "invalid use of void expression",
            "the size of a tiler that holds layouts (product of a layout is void in CuTe); use tile_size<I>(C)",
        )),
    }
}
