//! Well-formed `cute` programs from fuzzer bytes, for the `structured` and `laws` targets and
//! for `tests/fuzz_corpus.rs`, which replays the kept corpus on the stable toolchain (it
//! includes this file with `#[path]`, so it depends only on `arbitrary` and `cute`'s public
//! names: the registry, the atom tables, the tag names and the gemm option keys).
//!
//! Every program parses (the generator writes only the grammar of NOTATION.md); what it means
//! is up to the evaluator: most calls are refused (wrong kinds, CuTe's preconditions), which is
//! what the fuzzer is after (every refusal must be an error, never a panic or a hang).

use arbitrary::{Result, Unstructured};

/// Integers that matter to the algebra (0, 1, powers of two, odd sizes) and a few that test
/// the overflow checks.
const INTS: &[i64] = &[0, 1, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 8, 12, 16, 16, 24, 32, 64, 128, 256, 1024, 65536, -1, -2];
const HUGE: &[i64] = &[i64::MAX, i64::MIN + 1, 1 << 31, (1 << 31) - 1, 1 << 32, 1 << 40, 1 << 62];

/// Names the generator may bind (few, so that later statements use earlier bindings).
const VARS: &[&str] = &["A", "B", "L", "T", "x"];

pub struct Gen<'a, 'b> {
    pub u: &'b mut Unstructured<'a>,
    funcs: Vec<&'static str>,
    mma: Vec<String>,
    copy: Vec<&'static str>,
    /// Output grows at most this much (keeps each input cheap).
    budget: usize,
}

impl<'a, 'b> Gen<'a, 'b> {
    pub fn new(u: &'b mut Unstructured<'a>) -> Self {
        let funcs = cute::registry::names().into_iter().filter(|n| !n.starts_with("__")).collect();
        let mma = cute::eval::atoms::mma_table::all_names();
        let copy = cute::eval::atoms::copy_table::fixed_names();
        Gen { u, funcs, mma, copy, budget: 4000 }
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> Result<T> {
        Ok(*self.u.choose(v)?)
    }

    fn spend(&mut self, n: usize) -> bool {
        if self.budget < n {
            return false;
        }
        self.budget -= n;
        true
    }

    /// A small integer, static (`_4`) or dynamic (`4`), sometimes huge.
    pub fn int(&mut self) -> Result<String> {
        let v = if self.u.ratio(1, 20)? { self.pick(HUGE)? } else { self.pick(INTS)? };
        let stat = self.u.arbitrary::<bool>()?;
        Ok(if stat { format!("_{v}") } else { v.to_string() })
    }

    /// A positive small integer (shapes), static or dynamic.
    pub fn size_int(&mut self, stat: Option<bool>) -> Result<String> {
        let v = self.pick(&[1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16, 32])?;
        let stat = match stat {
            Some(s) => s,
            None => self.u.arbitrary::<bool>()?,
        };
        Ok(if stat { format!("_{v}") } else { v.to_string() })
    }

    /// A tuple profile: leaves are `None`, modes `Some(children)`.
    fn profile(&mut self, depth: u32) -> Result<Vec<Option<Vec<Option<()>>>>> {
        let rank = self.u.int_in_range(1..=3)?;
        let mut v = Vec::new();
        for _ in 0..rank {
            if depth > 0 && self.u.ratio(1, 4)? {
                let r = self.u.int_in_range(1..=3)?;
                v.push(Some(vec![None; r]));
            } else {
                v.push(None);
            }
        }
        Ok(v)
    }

    fn fill(
        &mut self,
        prof: &[Option<Vec<Option<()>>>],
        unwrap: bool,
        leaf: &mut dyn FnMut(&mut Self) -> Result<String>,
    ) -> Result<String> {
        let mut parts = Vec::new();
        for p in prof {
            match p {
                None => parts.push(leaf(self)?),
                Some(kids) => {
                    let mut k = Vec::new();
                    for _ in kids {
                        k.push(leaf(self)?);
                    }
                    parts.push(format!("({})", k.join(",")));
                }
            }
        }
        if parts.len() == 1 && unwrap {
            return Ok(parts.remove(0));
        }
        Ok(format!("({})", parts.join(",")))
    }

    /// An integer tuple (shape, stride or coordinate), possibly nested.
    pub fn tuple(&mut self, depth: u32) -> Result<String> {
        if depth == 0 || self.u.ratio(1, 3)? {
            return self.int();
        }
        let n = self.u.int_in_range(0..=3)?;
        let mut parts = Vec::new();
        for _ in 0..n {
            parts.push(self.tuple(depth - 1)?);
        }
        Ok(format!("({})", parts.join(",")))
    }

    /// A layout `S:D` (congruent most of the time), static, dynamic or mixed; small sizes.
    pub fn layout_parts(&mut self) -> Result<(String, String)> {
        let prof = self.profile(1)?;
        let mode = self.u.int_in_range(0..=2)?; // 0 static, 1 dynamic, 2 mixed
        let stat = |g: &mut Self| -> Result<Option<bool>> {
            Ok(match mode {
                0 => Some(true),
                1 => Some(false),
                _ => Some(g.u.arbitrary::<bool>()?),
            })
        };
        let mut sh = Vec::new();
        // Shape and stride are unwrapped alike, so that they stay congruent.
        let unwrap = self.u.arbitrary::<bool>()?;
        let shape = self.fill(&prof, unwrap, &mut |g| {
            let s = stat(g)?;
            let t = g.size_int(s)?;
            sh.push(t.trim_start_matches('_').parse::<i64>().unwrap_or(1));
            Ok(t)
        })?;
        // Strides: compact in a random order, with gaps or zeros, or random.
        let kind = self.u.int_in_range(0..=3)?;
        let mut order: Vec<usize> = (0..sh.len()).collect();
        if kind == 1 {
            for i in (1..order.len()).rev() {
                let j = self.u.int_in_range(0..=i)?;
                order.swap(i, j);
            }
        }
        let mut ds = vec![0i64; sh.len()];
        let mut acc = 1i64;
        for &i in &order {
            ds[i] = acc;
            let gap = if kind == 2 { self.pick(&[1, 1, 2, 3])? } else { 1 };
            acc = acc.saturating_mul(sh[i]).saturating_mul(gap);
        }
        if kind == 3 {
            for d in ds.iter_mut() {
                *d = self.pick(&[0, 1, 2, 3, 4, 8, 16, 64, -1])?;
            }
        }
        let mut k = 0;
        let stride = self.fill(&prof, unwrap, &mut |g| {
            let d = ds.get(k).copied().unwrap_or(1);
            k += 1;
            Ok(if stat(g)? == Some(true) { format!("_{d}") } else { d.to_string() })
        })?;
        Ok((shape, stride))
    }

    pub fn layout(&mut self) -> Result<String> {
        if self.u.ratio(1, 12)? {
            // not necessarily congruent
            let s = self.tuple(2)?;
            let d = self.tuple(2)?;
            return Ok(format!("{s}:{d}"));
        }
        let (s, d) = self.layout_parts()?;
        if self.u.ratio(1, 8)? {
            return Ok(s);
        }
        Ok(format!("{s}:{d}"))
    }

    pub fn swizzle(&mut self) -> Result<String> {
        let b = self.u.int_in_range(0..=4)?;
        let m = self.u.int_in_range(0..=4)?;
        let s = self.pick(&[-4, -3, -1, 0, 1, 2, 3, 4])?;
        Ok(format!("Sw<{b},{m},{s}>"))
    }

    pub fn composed(&mut self) -> Result<String> {
        let sw = self.swizzle()?;
        let l = self.layout()?;
        Ok(if self.u.arbitrary::<bool>()? {
            format!("{sw} o {l}")
        } else {
            format!("{sw} o _{} o {l}", self.pick(&[0, 1, 8, 32])?)
        })
    }

    pub fn tiler(&mut self) -> Result<String> {
        let n = self.u.int_in_range(0..=3)?;
        let mut parts = Vec::new();
        for _ in 0..n {
            parts.push(match self.u.int_in_range(0..=3)? {
                0 => "_".to_string(),
                1 => self.size_int(None)?,
                2 => self.layout()?,
                _ => self.tuple(1)?,
            });
        }
        Ok(format!("<{}>", parts.join(",")))
    }

    pub fn mma_op(&mut self) -> Result<String> {
        let n = self.u.choose(&self.mma)?.clone();
        if n.ends_with("_SS") || n.ends_with("_RS") {
            let a = self.pick(&["K", "MN"])?;
            let b = self.pick(&["K", "MN"])?;
            return Ok(format!("{n}<{a},{b}>"));
        }
        Ok(n)
    }

    pub fn copy_op(&mut self) -> Result<String> {
        let n = self.pick(&self.copy.clone())?;
        if n.starts_with("UniversalCopy") || n.starts_with("SM80_CP_ASYNC") {
            let t = self.pick(&["uint32_t", "uint128_t", "half_t", "float", "uint64_t"])?;
            return Ok(format!("{n}<{t}>"));
        }
        Ok(n.to_string())
    }

    pub fn type_name(&mut self) -> Result<String> {
        Ok(self.pick(cute::interp::TAG_NAMES)?.to_string())
    }

    /// An MMA or copy object: an operation, an atom, a tiled MMA or a tiled copy.
    pub fn atom(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=6)? {
            0 => self.mma_op()?,
            1 => format!("mma_atom({})", self.mma_op()?),
            2 => {
                let (op, l) = (self.mma_op()?, self.layout()?);
                format!("make_tiled_mma({op}, {l})")
            }
            3 => {
                let (op, l, t) = (self.mma_op()?, self.layout()?, self.tiler()?);
                format!("make_tiled_mma({op}, {l}, {t})")
            }
            4 => self.copy_op()?,
            5 => {
                let (op, t) = (self.copy_op()?, self.type_name()?);
                format!("copy_atom({op}, {t})")
            }
            _ => {
                let (op, t, a, b) = (self.copy_op()?, self.type_name()?, self.layout()?, self.layout()?);
                format!("make_tiled_copy(copy_atom({op}, {t}), {a}, {b})")
            }
        })
    }

    /// An argument of any kind.
    pub fn arg(&mut self, depth: u32) -> Result<String> {
        if !self.spend(8) {
            return self.int();
        }
        Ok(match self.u.int_in_range(0..=13)? {
            0 | 1 => self.int()?,
            2 => self.tuple(2)?,
            3..=5 => self.layout()?,
            6 => self.swizzle()?,
            7 => self.composed()?,
            8 => self.tiler()?,
            9 => "_".to_string(),
            10 => self.atom()?,
            11 => self.type_name()?,
            12 => self.pick(VARS)?.to_string(),
            _ if depth > 0 => self.expr(depth - 1)?,
            _ => self.layout()?,
        })
    }

    /// A call of a registry function, with template arguments where its signature has them.
    pub fn call(&mut self, depth: u32) -> Result<String> {
        let f = self.pick(&self.funcs.clone())?;
        let targs = if self.u.ratio(1, 4)? {
            let n = self.u.int_in_range(1..=3)?;
            let mut t = Vec::new();
            for _ in 0..n {
                t.push(match self.u.int_in_range(0..=4)? {
                    0 => self.type_name()?,
                    _ => self.pick(&[0, 1, 2, 3, 4, -1, 16])?.to_string(),
                });
            }
            format!("<{}>", t.join(","))
        } else {
            String::new()
        };
        let n = self.pick(&[0, 1, 1, 1, 2, 2, 2, 3, 3, 4])?;
        let mut args = Vec::new();
        for _ in 0..n {
            args.push(self.arg(depth)?);
        }
        Ok(format!("{f}{targs}({})", args.join(", ")))
    }

    /// An expression.
    pub fn expr(&mut self, depth: u32) -> Result<String> {
        if !self.spend(16) {
            return self.layout();
        }
        Ok(match self.u.int_in_range(0..=9)? {
            0..=3 => self.call(depth)?,
            4 => {
                let (a, b) = (self.arg(depth)?, self.arg(depth)?);
                format!("{a} o {b}")
            }
            5 => {
                // evaluate or slice
                let l = self.pick(VARS)?;
                let n = self.u.int_in_range(1..=3)?;
                let mut c = Vec::new();
                for _ in 0..n {
                    c.push(if self.u.ratio(1, 3)? { "_".to_string() } else { self.tuple(1)? });
                }
                format!("{l}({})", c.join(","))
            }
            6 => {
                let op = self.pick(&["+", "-", "*", "/"])?;
                // arithmetic binds tighter than `:`, so `_6:_3 / _6:_3` does not parse: a
                // layout operand is bracketed (a fuzz finding)
                let wrap = |x: String| if x.contains(':') { format!("({x})") } else { x };
                let (a, b) = (wrap(self.arg(0)?), wrap(self.arg(0)?));
                format!("{a} {op} {b}")
            }
            7 => self.layout()?,
            8 => format!("({})", self.arg(depth)?),
            _ => self.arg(depth)?,
        })
    }

    /// `emit gemm M N K key=value...` (never `run`: no GPU).
    pub fn emit_gemm(&mut self) -> Result<String> {
        let mut s = String::from("emit gemm");
        for _ in 0..3 {
            s.push(' ');
            s.push_str(self.pick(&["0", "1", "7", "64", "128", "1000", "4096", "(-1)", "_128"])?);
        }
        if self.u.arbitrary::<bool>()? {
            s.push_str(" tile=<64,64,32>");
        }
        let keys = &cute::runtime::config::keys();
        let n = self.u.int_in_range(0..=4)?;
        for _ in 0..n {
            let k = self.pick(keys)?;
            let v = match self.u.int_in_range(0..=7)? {
                0 => self.pick(&["f16", "bf16", "f32", "half_t", "NN", "NT", "TN", "TT", "int8_t"])?.to_string(),
                1 => format!(
                    "<{},{},{}>",
                    self.pick(&[16, 64, 128, 256])?,
                    self.pick(&[16, 64, 128, 256])?,
                    self.pick(&[8, 16, 32, 64])?
                ),
                2 => self.pick(&["1", "2", "3", "4", "8", "0"])?.to_string(),
                3 => self.mma_op()?,
                4 => self.composed()?,
                5 => self.layout()?,
                _ => self.arg(0)?,
            };
            s.push_str(&format!(" {k}={v}"));
        }
        Ok(s)
    }

    /// One statement.
    pub fn stmt(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=12)? {
            0..=2 => self.expr(2)?,
            3 | 4 => {
                let (n, e) = (self.pick(VARS)?, self.expr(2)?);
                format!("{n} = {e}")
            }
            5 => {
                let (a, b) = (self.expr(1)?, self.expr(1)?);
                format!("assert {a} == {b}")
            }
            6 => {
                let (f, a, b) = (self.pick(&["identical", "equivalent"])?, self.expr(1)?, self.expr(1)?);
                format!("assert {f}({a}, {b})")
            }
            7 => format!("explain {}", self.expr(2)?),
            8 => {
                let f = self.pick(&["print_layout", "print_latex", "print_svg"])?;
                let a = if self.u.arbitrary::<bool>()? { self.layout()? } else { self.arg(1)? };
                format!("{f}({a})")
            }
            // `emit gemm` checks every element of its shared-memory tiles (tens of thousands of
            // points): at 1 in 13 statements it took three quarters of the target's time, so it
            // is one in 39, half of them with a small tile
            9 if self.u.ratio(1, 3)? => self.emit_gemm()?,
            9 => self.expr(2)?,
            10 => format!("assert {}", self.expr(1)?),
            _ => {
                let (n, e) = (self.pick(VARS)?, self.pick(&[0u8, 1, 2, 3])?);
                let v = match e {
                    0 => self.atom()?,
                    1 => self.composed()?,
                    _ => self.layout()?,
                };
                format!("{n} = {v}")
            }
        })
    }

    /// A program of a few statements, one per line or `;`-separated.
    pub fn program(&mut self) -> Result<String> {
        let n = self.u.int_in_range(1..=6)?;
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push_str(if self.u.arbitrary::<bool>()? { "\n" } else { "; " });
            }
            s.push_str(&self.stmt()?);
        }
        s.push('\n');
        Ok(s)
    }
}

/// The program the `structured` target runs for these bytes.
pub fn program(data: &[u8]) -> String {
    let mut u = Unstructured::new(data);
    let mut g = Gen::new(&mut u);
    g.program().unwrap_or_else(|_| "_1\n".to_string())
}
