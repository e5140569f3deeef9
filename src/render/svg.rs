//! SVG pictures CuTe does not draw, in its visual language (CuTe's `SVGColor_TV` thread colours,
//! cells labelled `T#`/`V#`), each titled inside the image with the value it shows:
//! - a rank-2 layout: one cell per (m, n) holding its index, shaded like `print_latex`
//!   (index mod 8); a swizzled layout instead coloured by the offset bits its swizzle rewrites
//!   (the 2^M-element chunk the cell lands in), so the permutation shows;
//! - a thread-value layout over a tile (`print_svg(TV, (M,N))`, or a layout that is an MMA
//!   atom's A/B/C layout): each cell coloured by its first owning thread, warps outlined;
//! - a TiledCopy: source and destination tiles side by side (as `print_latex` places them);
//! - shared-memory banks (`bank_picture`): cells coloured by 4-byte bank for an element size,
//!   one warp's access outlined, conflicting cells outlined in red.
//!
//! Output is deterministic and sized to its content. May import: `eval`, `render::grid`.

use super::grid::{check_limit, Grid};
use super::latex::append2_value;
use super::mma_svg::tv_colour;
use crate::eval::atoms::AtomValue;
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Func, Layout, Swizzle};
use crate::eval::value::Value;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// CuTe's `TSVGColor_BWx8` greys (index mod 8).
const GREYS: [&str; 8] = [
    "255,255,255",
    "230,230,230",
    "205,205,205",
    "180,180,180",
    "155,155,155",
    "130,130,130",
    "105,105,105",
    "080,080,080",
];

/// Height of a cell; its width grows with the longest label.
const CELL_H: i64 = 24;
/// Width of one character of the 10-unit monospace font (a little generous).
const CHAR_W: i64 = 7;
/// Height of the title band.
const TITLE_H: i64 = 28;

fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    // Most labels are numbers and names: nothing to replace, nothing to allocate.
    if !s.contains(['&', '<', '>', '"']) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;"))
}

/// `v` in decimal at the end of `out` (the pictures write a few numbers per cell).
fn push_i64(out: &mut String, v: i64) {
    out.push_str(crate::eval::int::decimal(v, &mut [0; 20]));
}

/// An SVG document under construction: elements in drawing order, the size fixed at the end.
struct Canvas {
    body: String,
    budget: usize,
    width: i64,
    height: i64,
}

impl Canvas {
    fn new() -> Canvas {
        Canvas { body: String::new(), budget: super::grid::byte_budget(), width: 0, height: 0 }
    }
    /// Past the byte budget: stop writing (`finish` then refuses the picture).
    fn full(&self) -> bool {
        self.body.len() > self.budget
    }
    fn grow(&mut self, x: i64, y: i64) {
        self.width = self.width.max(x);
        self.height = self.height.max(y);
    }
    // The elements are written piece by piece rather than through `format!`: a picture can hold a
    // million cells.
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, fill: &str) {
        if self.full() {
            return;
        }
        let b = &mut self.body;
        b.push_str("<rect x=\"");
        push_i64(b, x);
        b.push_str("\" y=\"");
        push_i64(b, y);
        b.push_str("\" width=\"");
        push_i64(b, w);
        b.push_str("\" height=\"");
        push_i64(b, h);
        b.push_str("\" fill=\"rgb(");
        b.push_str(fill);
        b.push_str(")\" stroke=\"black\"/>\n");
        self.grow(x + w, y + h);
    }
    fn text(&mut self, x: i64, y: i64, size: i64, s: &str) {
        if self.full() {
            return;
        }
        self.text_open(x, y, size);
        let b = &mut self.body;
        b.push_str(&escape(s));
        b.push_str("</text>\n");
    }
    fn text_open(&mut self, x: i64, y: i64, size: i64) {
        let b = &mut self.body;
        b.push_str("<text x=\"");
        push_i64(b, x);
        b.push_str("\" y=\"");
        push_i64(b, y);
        b.push_str("\" font-size=\"");
        push_i64(b, size);
        b.push_str("\">");
    }
    /// A text element showing `prefix` (no markup in it) followed by the number `v`.
    fn text_num(&mut self, x: i64, y: i64, size: i64, prefix: &str, v: i64) {
        if self.full() {
            return;
        }
        self.text_open(x, y, size);
        let b = &mut self.body;
        b.push_str(prefix);
        push_i64(b, v);
        b.push_str("</text>\n");
    }
    fn line(&mut self, x1: i64, y1: i64, x2: i64, y2: i64, colour: &str, width: i64) {
        if self.full() {
            return;
        }
        let b = &mut self.body;
        b.push_str("<line x1=\"");
        push_i64(b, x1);
        b.push_str("\" y1=\"");
        push_i64(b, y1);
        b.push_str("\" x2=\"");
        push_i64(b, x2);
        b.push_str("\" y2=\"");
        push_i64(b, y2);
        b.push_str("\" stroke=\"");
        b.push_str(colour);
        b.push_str("\" stroke-width=\"");
        push_i64(b, width);
        b.push_str("\"/>\n");
    }
    /// Title lines at the top left (the first in bold), widening the page to fit them.
    fn title(&mut self, lines: &[String]) -> i64 {
        let mut y = 0;
        for (k, l) in lines.iter().enumerate() {
            let size = if k == 0 { 14 } else { 11 };
            y += if k == 0 { 20 } else { 16 };
            let weight = if k == 0 { " font-weight=\"bold\"" } else { "" };
            let _ = writeln!(
                self.body,
                "<text x=\"8\" y=\"{y}\" font-size=\"{size}\"{weight} text-anchor=\"start\">{}</text>",
                escape(l)
            );
            self.grow(16 + l.chars().count() as i64 * (size * 6 / 10 + 1), y);
        }
        y + TITLE_H - 16
    }
    fn finish(self, title: &str) -> R<String> {
        if self.body.len() > super::grid::byte_budget() {
            return Err(super::grid::too_many_bytes("print_svg"));
        }
        let (w, h) = (self.width + 8, self.height + 8);
        let head = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
             <title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
             <g font-family=\"monospace\" text-anchor=\"middle\" dominant-baseline=\"central\">\n",
            escape(title)
        );
        const TAIL: &str = "</g>\n</svg>";
        // The head goes in front of the body in its own buffer: a copy of a picture of hundreds of
        // megabytes would double the memory it needs.
        let mut doc = self.body;
        doc.reserve(head.len() + TAIL.len());
        doc.insert_str(0, &head);
        doc.push_str(TAIL);
        Ok(doc)
    }
}

/// The outermost swizzle of a composed layout (`Sw<B,M,S> o ... o L`), if any.
fn outer_swizzle(v: &Value) -> Option<Swizzle> {
    match v {
        Value::Composed(c) => match &c.outer {
            Func::Swizzle(sw) => Some(*sw),
            _ => None,
        },
        _ => None,
    }
}

/// The value on one line (multi-line prints keep their first line).
fn one_line(v: &Value) -> String {
    v.to_string().lines().next().unwrap_or("").to_string()
}

/// The picture of a rank <= 2 layout (plain, swizzled or composed).
fn layout_picture(v: &Value) -> R<String> {
    let layout = append2_value(v, "print_svg")?;
    let g = Grid::new(&layout)?;
    check_limit("print_svg", g.rows, g.cols)?;
    let sw = outer_swizzle(&layout);
    // a negative extent (CuTe does not refuse one) draws no cells
    let mut values = Vec::with_capacity((g.rows.max(0) * g.cols.max(0)) as usize);
    let mut widest = 1;
    for m in 0..g.rows {
        for n in 0..g.cols {
            let idx = g.at(m, n)?;
            widest = widest.max(idx.to_string().len() as i64);
            values.push(idx);
        }
    }
    let cw = (widest * CHAR_W + 10).max(CELL_H);
    let mut c = Canvas::new();
    let mut lines = vec![layout.to_string()];
    match sw {
        Some(s) => lines.push(format!(
            "colour: offset bits [{}, {}) = the 2^{}-element chunk each cell lands in (the bits {} rewrites)",
            s.m,
            s.m + s.b,
            s.m,
            s
        )),
        None => lines.push("shade: index mod 8 (as print_latex)".to_string()),
    }
    let top = c.title(&lines) + 16;
    let left = g.rows.saturating_sub(1).max(0).to_string().len() as i64 * CHAR_W + 16;
    for n in 0..g.cols {
        c.text(left + n * cw + cw / 2, top - 10, 10, &n.to_string());
    }
    for m in 0..g.rows {
        c.text(left / 2, top + m * CELL_H + CELL_H / 2, 10, &m.to_string());
        for n in 0..g.cols {
            let idx = values[(m * g.cols + n) as usize];
            let fill = match sw {
                Some(s) => tv_colour(((idx as i64) >> s.m) & ((1i64 << s.b) - 1)),
                None => GREYS[idx.rem_euclid(8) as usize],
            };
            let (x, y) = (left + n * cw, top + m * CELL_H);
            c.rect(x, y, cw, CELL_H, fill);
            c.text(x + cw / 2, y + CELL_H / 2, 10, &idx.to_string());
        }
    }
    c.finish(&layout.to_string())
}

/// (thread, value) -> (m, n) of a TV picture: `cells[(m, n)] = (tid, vid)` of its first owner.
pub struct TvTile {
    pub rows: i64,
    pub cols: i64,
    pub owner: CellOwners,
}

/// The first (thread, value) at each (m, n) (FNV: a picture looks up each cell three times).
pub type CellOwners = crate::eval::builtins::FnvMap<(i64, i64), (i64, i64)>;

/// A TV layout (plain: (t, v) -> index in the column-major (M, N) tile) over its tile.
fn tv_tile_from_index(what: &str, tv: &Layout, rows: i64, cols: i64) -> R<TvTile> {
    let g = Grid::new(&Value::Layout(tv.clone())).map_err(|e| {
        EvalError::rule("rank(TV) == 2", format!("a thread-value layout must be (thread, value): {}", e.detail))
    })?;
    check_limit(what, g.rows, g.cols)?;
    check_limit(what, rows, cols)?;
    let mut owner = CellOwners::default();
    g.each_first(what, &mut |t, v, idx| {
        if idx < 0 || idx >= rows.saturating_mul(cols) {
            return Err(EvalError::rule(
                "TV(t, v) inside the tile",
                format!("({t},{v}) maps to {idx}, outside the {rows} x {cols} tile"),
            ));
        }
        owner.entry((idx % rows, idx / rows)).or_insert((t, v));
        Ok(())
    })?;
    Ok(TvTile { rows, cols, owner })
}

/// A TV layout with scaled-basis strides ((t, v) -> (m, n) coordinates) over an (M, N) tile.
fn tv_tile_from_coords(what: &str, l: &Layout, rows: i64, cols: i64) -> R<TvTile> {
    let shape = l.shape.modes();
    let (nt, nv) = match shape.as_slice() {
        [t, v] => (size_of(t)?, size_of(v)?),
        _ => return Err(EvalError::rule("rank(TV) == 2", format!("`{l}` is not a (thread, value) layout"))),
    };
    check_limit(what, nt, nv)?;
    check_limit(what, rows, cols)?;
    let mut owner = CellOwners::default();
    if nt <= 0 || nv <= 0 {
        return Ok(TvTile { rows, cols, owner });
    }
    let ev = crate::eval::atoms::latex::TvEval::new(l)?;
    for t in 0..nt {
        for v in 0..nv {
            let mn = ev.at(t, v)?;
            owner.entry(mn).or_insert((t, v));
        }
    }
    Ok(TvTile { rows, cols, owner })
}

fn size_of(t: &IntTuple) -> R<i64> {
    match t.view() {
        V::I(i) => Ok(i.v),
        V::T(v) => v.iter().try_fold(1i64, |a, e| a.checked_mul(size_of(e)?).ok_or_else(too_big)),
        _ => Err(EvalError::type_err(format!("`{t}` is not a shape"))),
    }
}

fn too_big() -> EvalError {
    EvalError::limit("a picture too large to draw")
}

/// Draw one TV tile with its top-left cell at (x0, y0): cells `T#`/`V#` in the thread's colour,
/// thick lines where neighbouring cells belong to different warps.
fn draw_tv(c: &mut Canvas, t: &TvTile, x0: i64, y0: i64, cw: i64) {
    for n in 0..t.cols {
        c.text_num(x0 + n * cw + cw / 2, y0 - 10, 10, "", n);
    }
    for m in 0..t.rows {
        c.text_num(x0 - 14, y0 + m * CELL_H + CELL_H / 2, 10, "", m);
        for n in 0..t.cols {
            let (x, y) = (x0 + n * cw, y0 + m * CELL_H);
            match t.owner.get(&(m, n)) {
                Some(&(tid, vid)) => {
                    c.rect(x, y, cw, CELL_H, tv_colour(tid));
                    c.text_num(x + cw / 2, y + CELL_H / 4 + 1, 9, "T", tid);
                    c.text_num(x + cw / 2, y + 3 * CELL_H / 4, 9, "V", vid);
                }
                None => c.rect(x, y, cw, CELL_H, "255,255,255"),
            }
        }
    }
    // Warp boundaries.
    let warp = |m: i64, n: i64| t.owner.get(&(m, n)).map(|&(tid, _)| tid / 32);
    for m in 0..t.rows {
        for n in 0..t.cols {
            let (x, y) = (x0 + n * cw, y0 + m * CELL_H);
            if n + 1 < t.cols && warp(m, n) != warp(m, n + 1) {
                c.line(x + cw, y, x + cw, y + CELL_H, "black", 3);
            }
            if m + 1 < t.rows && warp(m, n) != warp(m + 1, n) {
                c.line(x, y + CELL_H, x + cw, y + CELL_H, "black", 3);
            }
        }
    }
}

fn label_width(t: &TvTile) -> i64 {
    let mut widest = 2;
    for &(tid, vid) in t.owner.values() {
        widest = widest.max(1 + tid.to_string().len() as i64).max(1 + vid.to_string().len() as i64);
    }
    (widest * 6 + 12).max(CELL_H)
}

fn tv_picture(title: Vec<String>, tiles: &[(&str, &TvTile)]) -> R<String> {
    let mut c = Canvas::new();
    let top = c.title(&title) + 16 + if tiles.iter().any(|(n, _)| !n.is_empty()) { 16 } else { 0 };
    let cw = tiles.iter().map(|(_, t)| label_width(t)).max().unwrap_or(CELL_H);
    let mut x0 = 16 + 4 * CHAR_W;
    for (name, t) in tiles {
        if !name.is_empty() {
            c.text(x0 + t.cols * cw / 2, top - 28, 12, name);
        }
        draw_tv(&mut c, t, x0, top, cw);
        x0 += t.cols * cw + 3 * cw;
    }
    let head = title.first().cloned().unwrap_or_default();
    c.finish(&head)
}

/// `print_svg(TV, (M,N))`: a (thread, value) -> index layout drawn over its M x N tile.
pub fn svg_tv(tv: &Value, tile: &Value) -> R<String> {
    let l = match tv {
        Value::Layout(l) => l,
        v => return Err(EvalError::type_err(format!("expected a (thread, value) layout, got {} `{v}`", v.kind()))),
    };
    let kids = match tile {
        Value::Tuple(t) => t.kids(),
        _ => None,
    };
    let dims = match kids {
        Some(d) if d.len() == 2 => (size_of(&d[0])?, size_of(&d[1])?),
        _ => {
            let v = tile;
            return Err(
                EvalError::type_err(format!("the tile must be a shape (M,N), got {} `{v}`", v.kind())).at_arg(1)
            );
        }
    };
    let t = tv_tile_from_index("print_svg", l, dims.0, dims.1)?;
    tv_picture(tv_title(l, &format!("{tile}"), None), &[("", &t)])
}

fn tv_title(l: &Layout, tile: &str, what: Option<&str>) -> Vec<String> {
    let mut v = vec![format!("{l} over the tile {tile}")];
    if let Some(w) = what {
        v.push(w.to_string());
    }
    v.push(
        "cell: T thread / V value of its first owner; colour: thread mod 8 (CuTe's); thick lines: warp borders".into(),
    );
    v
}

/// A layout's tile (rows, cols) and what it is; `None` where two atoms disagree on the tile.
type OperandTable = HashMap<String, Option<(i64, i64, String)>>;

/// ((m, n), (thread, value)) pairs of a TV layout.
type Owners = Vec<((i64, i64), (i64, i64))>;

/// Every MMA atom's A, B and C layouts with their tiles ((M,K), (N,K), (M,N)); a layout two
/// atoms draw over different tiles is left out.
fn mma_operand_layouts() -> &'static OperandTable {
    static TABLE: std::sync::OnceLock<OperandTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        use crate::eval::atoms::mma_table;
        use crate::eval::builtins::TArg;
        let mut m: OperandTable = HashMap::new();
        for name in mma_table::all_names() {
            let kk = [TArg::Name("K".into()), TArg::Name("K".into())];
            let traits = match mma_table::lookup(&name, &[]) {
                Some(Ok(t)) => t,
                _ => match mma_table::lookup(&name, &kk) {
                    Some(Ok(t)) => t,
                    _ => continue,
                },
            };
            let mnk: Vec<i64> = traits.shape_mnk.modes().iter().filter_map(|x| size_of(x).ok()).collect();
            let [mm, nn, k] = mnk[..] else { continue };
            for (l, r, c, op) in [(&traits.a, mm, k, "A"), (&traits.b, nn, k, "B"), (&traits.c, mm, nn, "C")] {
                let what = format!("a thread-value layout of MMA atoms, e.g. the {op} layout of {}", traits.name);
                match m.get(&l.to_string()) {
                    None => {
                        m.insert(l.to_string(), Some((r, c, what)));
                    }
                    Some(Some((r0, c0, _))) if (*r0, *c0) != (r, c) => {
                        m.insert(l.to_string(), None);
                    }
                    _ => {}
                }
            }
        }
        m
    })
}

/// `print_svg(TiledCopy)`: source and destination (thread, value) tiles side by side.
fn copy_picture(c: &crate::eval::atoms::copy::TiledCopy) -> R<String> {
    let (m, n, s, d) = crate::eval::atoms::latex::copy_tv(c)?;
    let ts = tv_tile_from_coords("print_svg", &s, m, n)?;
    let td = tv_tile_from_coords("print_svg", &d, m, n)?;
    let title = vec![
        format!("TiledCopy {} ({})", c.atom.op.name, c.atom.val_type),
        format!("Tiler_MN {}   TiledLayout_TV {}", c.tiler, c.layout_tv),
        "cell: T thread / V value of its first owner; colour: thread mod 8 (CuTe's); thick lines: warp borders"
            .to_string(),
    ];
    tv_picture(title, &[("source", &ts), ("destination", &td)])
}

/// The thread-value tiles of `X` (or of `TV` over `(M,N)`) that the text tables show, with a
/// title line each: a TiledMMA or MMA atom's C (M x N), A (M x K) and B (N x K), as CuTe's
/// pictures compute them (`get_layout*_TV` over `tile_shape`); a TiledCopy's source and
/// destination; a TV layout over its tile. `None` for a value that has no such tiles.
pub fn tv_tiles(args: &[Value]) -> R<Option<Vec<(String, TvTile)>>> {
    let call = |name: &str, args: &[Value]| crate::eval::builtins::call(name, &[], args);
    match args {
        [tv, tile] => {
            let l = match tv {
                Value::Layout(l) => l,
                v => {
                    return Err(EvalError::type_err(format!(
                        "expected a (thread, value) layout, got {} `{v}`",
                        v.kind()
                    ))
                    .at_arg(0))
                }
            };
            let kids = match tile {
                Value::Tuple(t) => t.kids(),
                _ => None,
            };
            let (r, c) = match kids {
                Some(d) if d.len() == 2 => (size_of(&d[0])?, size_of(&d[1])?),
                _ => {
                    let v = tile;
                    return Err(EvalError::type_err(format!("the tile must be a shape (M,N), got {} `{v}`", v.kind()))
                        .at_arg(1));
                }
            };
            let t = tv_tile_from_index("print_layout", l, r, c).map_err(|e| e.at_arg(0))?;
            Ok(Some(vec![(format!("{l} over the tile {tile}: cell T#V# = its first (thread, value)"), t)]))
        }
        [v @ Value::Atom(a)] => match &**a {
            AtomValue::TiledMma(_) | AtomValue::MmaAtom(_) => {
                let mma = match &**a {
                    AtomValue::MmaAtom(_) => call("make_tiled_mma", std::slice::from_ref(v))?,
                    _ => v.clone(),
                };
                let tile_v = call("tile_shape", std::slice::from_ref(&mma))?;
                let kids = match &tile_v {
                    Value::Tuple(t) => t.kids(),
                    _ => None,
                };
                let tile = match kids {
                    Some(t) if t.len() == 3 => t.iter().map(size_of).collect::<R<Vec<i64>>>()?,
                    _ => return Err(EvalError::type_err(format!("tile_shape is `{tile_v}`, not (M,N,K)"))),
                };
                let (m, n, k) = (tile[0], tile[1], tile[2]);
                let mut out = Vec::new();
                for (op, r, c) in [("C", m, n), ("A", m, k), ("B", n, k)] {
                    let tv = match call(&format!("get_layout{op}_TV"), std::slice::from_ref(&mma))? {
                        Value::Layout(l) => l,
                        x => return Err(EvalError::type_err(format!("get_layout{op}_TV is `{x}`, not a layout"))),
                    };
                    let t = tv_tile_from_index("print_layout", &tv, r, c)?;
                    out.push((format!("{op} ({r} x {c}): get_layout{op}_TV = {tv}"), t));
                }
                Ok(Some(out))
            }
            AtomValue::TiledCopy(c) => {
                let (m, n, s, d) = crate::eval::atoms::latex::copy_tv(c)?;
                Ok(Some(vec![
                    (
                        format!("source ({m} x {n}) of TiledCopy {}", c.atom.op.name),
                        tv_tile_from_coords("print_layout", &s, m, n)?,
                    ),
                    (format!("destination ({m} x {n})"), tv_tile_from_coords("print_layout", &d, m, n)?),
                ]))
            }
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// `print_svg(X)` for everything but a TiledMMA/MMA atom (which `mma_svg` draws as CuTe does).
pub fn svg(v: &Value) -> R<String> {
    match v {
        Value::Atom(a) => match &**a {
            AtomValue::TiledCopy(c) => copy_picture(c),
            AtomValue::CopyAtom(_) => Err(EvalError::type_err(
                "print_svg draws a TiledCopy: make one from the atom, e.g. make_tiled_copy(A, make_layout((_32,_1)))",
            )),
            _ => Err(EvalError::type_err(format!(
                "print_svg draws layouts, TiledMMAs, MMA atoms and TiledCopies, not `{}`",
                one_line(v)
            ))),
        },
        Value::Layout(l) => match mma_operand_layouts().get(&l.to_string()) {
            Some(Some((r, c, what))) => {
                let t = tv_tile_from_index("print_svg", l, *r, *c)?;
                tv_picture(tv_title(l, &format!("({r},{c})"), Some(what)), &[("", &t)])
            }
            _ => layout_picture(v),
        },
        _ => layout_picture(v),
    }
}

/// Bytes per element for `bank_picture`: a bit count (16) or a value type name (`half_t`).
fn element_bits(v: &Value) -> R<i64> {
    let bits = match v {
        Value::Tuple(IntTuple::I(i)) => i.v,
        Value::Tag(t) => crate::eval::atoms::types::value_type_bits(t)
            .ok_or_else(|| EvalError::type_err(format!("`{t}` is not a value type")))?,
        v => return Err(EvalError::type_err(format!("expected an element size in bits or a type, got `{v}`"))),
    };
    if bits < 8 || bits % 8 != 0 || bits > 128 {
        return Err(EvalError::rule("element size", format!("{bits} bits: banks are drawn for 8 to 128-bit elements")));
    }
    Ok(bits)
}

/// A distinct colour for each of the 32 banks (hue around the circle, two lightnesses).
fn bank_colour(bank: i64) -> String {
    let h = (bank * 360 / 32) as f64;
    let l = if bank % 2 == 0 { 0.80 } else { 0.68 };
    // HSL with saturation 0.65.
    let c = (1.0 - (2.0 * l - 1.0f64).abs()) * 0.65;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (h / 60.0) as i64 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let mm = l - c / 2.0;
    let to = |v: f64| ((v + mm) * 255.0).round().clamp(0.0, 255.0) as i64;
    format!("{},{},{}", to(r), to(g), to(b))
}

/// `bank_picture(S, T [, access])`: the shared-memory layout S ((m, n) -> element offset) with
/// each cell coloured by its 4-byte bank for elements of T; with `access` (a TiledCopy, read on
/// its source side, or a (thread, value) -> index TV layout over S's shape), warp 0's cells are
/// outlined with their thread, in red where another thread of the same phase uses the bank at a
/// different word.
pub fn svg_banks(smem: &Value, elem: &Value, access: Option<&Value>) -> R<String> {
    let bits = element_bits(elem).map_err(|e| e.at_arg(1))?;
    let bytes = bits / 8;
    let layout = append2_value(smem, "bank_picture")?;
    let g = Grid::new(&layout)?;
    check_limit("bank_picture", g.rows, g.cols)?;
    let addr = |m: i64, n: i64| -> R<i64> { Ok(g.at(m, n)? as i64 * bytes) };
    // Warp 0's accesses: thread -> its cells (in value order).
    let mut cells: Vec<Vec<(i64, i64)>> = vec![Vec::new(); 32];
    let mut name = String::new();
    if let Some(a) = access {
        let tile = match a {
            Value::Atom(x) => match &**x {
                AtomValue::TiledCopy(c) => {
                    let (m, n, s, _) = crate::eval::atoms::latex::copy_tv(c)?;
                    name = format!("warp 0 of TiledCopy {} ({})", c.atom.op.name, c.atom.val_type);
                    all_owners(&s, m, n)?
                }
                _ => return Err(EvalError::type_err("the access must be a TiledCopy or a TV layout").at_arg(2)),
            },
            Value::Layout(l) => {
                name = format!("warp 0 of {l}");
                index_owners(l, g.rows, g.cols)?
            }
            v => {
                return Err(
                    EvalError::type_err(format!("the access must be a TiledCopy or a TV layout, got `{v}`")).at_arg(2)
                )
            }
        };
        for ((m, n), (t, v)) in tile {
            if (0..32).contains(&t) && m < g.rows && n < g.cols {
                let _ = v; // value order: `tile` lists each thread's values in order
                cells[t as usize].push((m, n));
            }
        }
    }
    // Phases: a thread's contiguous bytes (at most 16) decide how many threads share a wavefront.
    let per_thread = cells.iter().map(|c| c.len() as i64).max().unwrap_or(0);
    let width = (per_thread * bytes).clamp(1, 16);
    let phase_threads = if width >= 16 {
        8
    } else if width >= 8 {
        16
    } else {
        32
    };
    let mut conflicting: HashSet<(i64, i64)> = HashSet::new();
    let mut worst = 1;
    for p in 0..(32 / phase_threads) {
        // bank -> distinct 4-byte words
        let mut words: HashMap<i64, HashSet<i64>> = HashMap::new();
        let mut at: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        for t in p * phase_threads..(p + 1) * phase_threads {
            for &(m, n) in &cells[t as usize] {
                let a = addr(m, n)?;
                for w in (a / 4)..=((a + bytes - 1) / 4) {
                    words.entry(w % 32).or_default().insert(w);
                    at.entry(w % 32).or_default().push((m, n));
                }
            }
        }
        for (bank, ws) in &words {
            worst = worst.max(ws.len());
            if ws.len() > 1 {
                conflicting.extend(at[bank].iter().copied());
            }
        }
    }
    let mut owner: HashMap<(i64, i64), i64> = HashMap::new();
    for (t, cs) in cells.iter().enumerate() {
        for &c in cs {
            owner.entry(c).or_insert(t as i64);
        }
    }
    // Draw.
    let mut widest = 1;
    for m in 0..g.rows {
        for n in 0..g.cols {
            widest = widest.max((addr(m, n)? / 4 % 32).to_string().len() as i64 + 1);
        }
    }
    let cw = (widest.max(4) * CHAR_W + 8).max(CELL_H + 8);
    let ch = CELL_H + 8;
    let mut c = Canvas::new();
    let mut lines = vec![
        format!("{layout}  ({bits}-bit elements)"),
        "cell: b = 4-byte bank of its first byte (32 banks), colour by bank".to_string(),
    ];
    if access.is_some() {
        lines.push(format!(
            "{name}: outlined cells with their thread; {phase_threads} threads per phase; \
             red outline = a bank another thread of its phase reads at another word ({worst}-way)"
        ));
    }
    let top = c.title(&lines) + 16;
    let left = g.rows.saturating_sub(1).max(0).to_string().len() as i64 * CHAR_W + 16;
    for n in 0..g.cols {
        c.text(left + n * cw + cw / 2, top - 10, 10, &n.to_string());
    }
    for m in 0..g.rows {
        c.text(left / 2, top + m * ch + ch / 2, 10, &m.to_string());
        for n in 0..g.cols {
            let (x, y) = (left + n * cw, top + m * ch);
            let bank = addr(m, n)? / 4 % 32;
            c.rect(x, y, cw, ch, &bank_colour(bank.rem_euclid(32)));
            c.text(x + cw / 2, y + ch / 4 + 1, 9, &format!("b{}", bank.rem_euclid(32)));
            if let Some(t) = owner.get(&(m, n)) {
                c.text(x + cw / 2, y + 3 * ch / 4, 9, &format!("T{t}"));
                let colour = if conflicting.contains(&(m, n)) { "red" } else { "black" };
                let _ = writeln!(
                    c.body,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\"/>",
                    x + 2,
                    y + 2,
                    cw - 4,
                    ch - 4
                );
            }
        }
    }
    c.finish(&lines[0])
}

/// ((m, n), (t, v)) for every owner of a coordinate TV layout (all owners, not only the first).
fn all_owners(l: &Layout, rows: i64, cols: i64) -> R<Owners> {
    let shape = l.shape.modes();
    let (nt, nv) = match shape.as_slice() {
        [t, v] => (size_of(t)?, size_of(v)?),
        _ => return Err(EvalError::rule("rank(TV) == 2", format!("`{l}` is not a (thread, value) layout"))),
    };
    check_limit("bank_picture", nt.min(32), nv)?;
    let _ = (rows, cols);
    let mut v = Vec::new();
    if nt <= 0 || nv <= 0 {
        return Ok(v);
    }
    let ev = crate::eval::atoms::latex::TvEval::new(l)?;
    for t in 0..nt.min(32) {
        for x in 0..nv {
            v.push((ev.at(t, x)?, (t, x)));
        }
    }
    Ok(v)
}

fn index_owners(l: &Layout, rows: i64, cols: i64) -> R<Owners> {
    let g = Grid::new(&Value::Layout(l.clone()))?;
    check_limit("bank_picture", g.rows.min(32), g.cols)?;
    let mut v = Vec::new();
    for t in 0..g.rows.min(32) {
        for x in 0..g.cols {
            let idx = g.at(t, x)? as i64;
            if rows > 0 && idx >= 0 && idx < rows * cols {
                v.push(((idx % rows, idx / rows), (t, x)));
            }
        }
    }
    Ok(v)
}
