"""The broad random generator of `scripts/difftest --gen full`: every function of the
oracle README's lists except the MMA/copy ones, with mixed static/dynamic integers, nested
shapes up to depth 3, size-1 modes, zero and negative strides, bindings, evaluation and
slicing, nested compositions and compositions of results. About a fifth of the cases are ones
CuTe refuses (divisibility, rank and type conditions), so that refusing them is tested too.

Each generator returns an expression string; `CATEGORIES` maps a category name to its
generator and weight (the category is written next to each case so mismatches can be grouped).
"""
import random

from common import fmt

SHAPE_VALS = [1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64, 128]
SHAPE_W = [4, 7, 3, 7, 1, 2, 5, 1, 3, 1, 1, 0.5]
STRIDE_VALS = [0, 1, 2, 3, 4, 6, 8, 12, 16, 32, 64, -1, -2, -4]
STRIDE_W = [4, 6, 3, 2, 4, 2, 3, 1, 2, 2, 1, 1, 1, 1]
TYPES = ["uint1b_t", "uint4b_t", "uint8_t", "int8_t", "uint16_t", "half_t", "uint32_t", "float", "uint64_t",
         "double", "uint128_t"]


def leaves(t):
    if isinstance(t, list):
        return [x for e in t for x in leaves(e)]
    return [t]


def tmap(t, f):
    if isinstance(t, list):
        return [tmap(e, f) for e in t]
    return f(t)


def tsize(t):
    n = 1
    for v in leaves(t):
        n *= abs(v) if v else 1
    return n


def depth(t):
    if isinstance(t, list):
        return 1 + max([depth(e) for e in t] or [0])
    return 0


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0] if n > 0 else [1]


class Lit:
    """A literal value: a tree of (value, static) leaves, printed in the notation."""

    def __init__(self, tree):
        self.tree = tree  # nested lists of (v, s)

    def __str__(self):
        return fmt(self.tree)


class Full:
    def __init__(self, rng):
        self.r = rng

    # ---- integers ---------------------------------------------------------------------------
    def p(self, x):
        return self.r.random() < x

    def ch(self, xs, w=None):
        return self.r.choices(xs, weights=w)[0] if w else self.r.choice(xs)

    def n(self, v, s=None):
        """An integer, static with probability 0.6 unless s says."""
        s = self.p(0.6) if s is None else s
        return f"_{v}" if s else f"{v}"

    def policy(self):
        """How a layout's leaves are static: all, none, per leaf, shape-only, stride-only."""
        return self.ch(["S", "D", "M", "SD", "DS"], [40, 15, 25, 10, 10])

    def leafs(self, pol, role):
        if pol == "S":
            return True
        if pol == "D":
            return False
        if pol == "M":
            return self.p(0.5)
        if pol == "SD":
            return role == "shape"
        return role == "stride"

    # ---- shapes and layouts -------------------------------------------------------------------
    def shape_tree(self, d=0, maxd=3, vals=None):
        r = self.r
        probs = [0.78, 0.3, 0.15, 0.0]
        if d < maxd and r.random() < probs[d]:
            k = self.ch([1, 2, 2, 2, 3, 3, 4]) if d == 0 else self.ch([1, 2, 2, 3])
            return [self.shape_tree(d + 1, maxd, vals) for _ in range(k)]
        if vals:
            return self.ch(vals)
        return self.ch(SHAPE_VALS, SHAPE_W)

    def shape(self, max_size=4096, maxd=3, vals=None):
        for _ in range(30):
            t = self.shape_tree(0, maxd, vals)
            if tsize(t) <= max_size:
                return t
        return [2, 4]

    def stride_tree(self, shape):
        r = self.r
        k = self.ch(["col", "row", "perm", "rand", "pad"], [25, 15, 15, 35, 10])
        lv = leaves(shape)
        if k in ("col", "perm", "pad"):
            acc, st = 1, []
            for v in lv:
                st.append(acc)
                acc *= v * (self.ch([1, 2]) if k == "pad" else 1)
            if k == "perm":
                r.shuffle(st)
        elif k == "row":
            acc, st = 1, []
            for v in reversed(lv):
                st.append(acc)
                acc *= v
            st.reverse()
        else:
            st = [self.ch(STRIDE_VALS, STRIDE_W) for _ in lv]
        it = iter(st)
        return tmap(shape, lambda _: next(it))

    def lit(self, tree, pol, role):
        return fmt(tmap(tree, lambda v: v if v == "_" else (v, self.leafs(pol, role))))

    def layout(self, max_size=4096, maxd=3, shape=None, pol=None, stride=None):
        """(text, shape tree) of a random layout literal."""
        shape = self.shape(max_size, maxd) if shape is None else shape
        stride = self.stride_tree(shape) if stride is None else stride
        pol = self.policy() if pol is None else pol
        return f"{self.lit(shape, pol, 'shape')}:{self.lit(stride, pol, 'stride')}", shape

    def L(self, **kw):
        return self.layout(**kw)[0]

    def small(self, max_size=32, maxd=2):
        return self.layout(max_size=max_size, maxd=maxd)

    def compact(self, shape=None, pol=None):
        shape = self.shape(256, 2) if shape is None else shape
        acc, st = 1, []
        for v in leaves(shape):
            st.append(acc)
            acc *= v
        it = iter(st)
        return self.layout(shape=shape, stride=tmap(shape, lambda _: next(it)), pol=pol)

    def shape_lit(self, tree=None, pol=None, max_size=4096, maxd=3):
        tree = self.shape(max_size, maxd) if tree is None else tree
        pol = pol or self.ch(["S", "D", "M"], [5, 2, 3])
        return self.lit(tree, pol, "shape"), tree

    # ---- tuples -------------------------------------------------------------------------------
    def ituple_tree(self, d=0, maxd=3, vals=(1, 2, 3, 4, 6, 8), neg=0.0):
        if d < maxd and self.p([0.65, 0.3, 0.12, 0][d]):
            return [self.ituple_tree(d + 1, maxd, vals, neg) for _ in range(self.ch([0, 1, 2, 2, 3, 3, 4] if d == 0 else [1, 2, 2, 3]))]
        v = self.ch(vals)
        return -v if neg and self.p(neg) else v

    def itup(self, tree=None, pol=None, **kw):
        tree = self.ituple_tree(**kw) if tree is None else tree
        pol = pol or self.ch(["S", "D", "M"], [4, 2, 4])
        return self.lit(tree, pol, "shape"), tree

    def like(self, tree, vals=(1, 2, 3, 4, 6, 8), neg=0.0):
        """A tree congruent with `tree` (often), weakly congruent or different (sometimes)."""
        k = self.ch(["same", "int", "other"], [75, 12, 13])
        f = lambda _: (-1 if neg and self.p(neg) else 1) * self.ch(vals)
        if k == "same":
            return tmap(tree, f)
        if k == "int":
            return f(0)
        return self.ituple_tree(vals=vals)

    # ---- coordinates --------------------------------------------------------------------------
    def crd_tree(self, shape, under=0.0, oob=0.03, hier=0.6):
        """A natural coordinate of `shape`: per mode a 1-D index or a hierarchical one; `_` with
        probability `under`."""
        if under and self.p(under):
            return "_"
        if isinstance(shape, list):
            if not shape:
                return []
            if self.p(hier):
                return [self.crd_tree(e, under, oob, hier) for e in shape]
        n = tsize(shape)
        return self.r.randrange(n + (2 if self.p(oob) else 0)) if n > 0 else 0

    def crd(self, shape, under=0.0, s=None, oob=0.03, top_hier=True):
        t = self.crd_tree(shape, under, oob, 1.0 if top_hier else 0.5)
        pol = {True: "S", False: "D", None: self.ch(["S", "D", "M"], [3, 5, 2])}[s]
        return self.lit(t, pol, "shape") if t != "_" else "_", t

    def crd_args(self, shape, under=0.0, s=None):
        """Argument list for `A(...)`: one 1-D index, or the top modes as separate arguments."""
        if not isinstance(shape, list) or self.p(0.25):
            if under and isinstance(shape, list) and self.p(0.4):
                pass
            else:
                n = tsize(shape)
                v = self.r.randrange(max(n, 1))
                return self.n(v, s if s is not None else self.p(0.3))
        parts = []
        for e in shape:
            if under and self.p(under):
                parts.append("_")
            else:
                t = self.crd_tree(e, under * 0.7, 0.02, 0.5)
                pol = {True: "S", False: "D", None: self.ch(["S", "D", "M"], [3, 5, 2])}[s]
                parts.append(self.lit(t, pol, "shape") if t != "_" else "_")
        return ",".join(parts)

    # ---- tilers -------------------------------------------------------------------------------
    def tile_item(self, mode):
        sz = tsize(mode)
        d = self.ch(divisors(sz)[:8]) if self.p(0.85) else self.ch([2, 3, 4, 8])
        c = self.r.random()
        if isinstance(mode, list) and self.p(0.25):  # a nested tiler for a nested mode
            return "<" + ",".join(self.tile_item(m) for m in mode[: self.r.randint(1, len(mode))]) + ">"
        if c < 0.15:
            return "_"
        if c < 0.5:
            st = self.ch([1, 1, 1, 2, 2, 3, 4])
            if d * st > sz and self.p(0.6):
                st = 1
            s = self.p(0.7)
            return f"{self.n(d, s)}:{self.n(st, s)}"
        if c < 0.6 and isinstance(mode, list):
            if self.p(0.4):  # a nested tiler for a nested mode
                return "<" + ",".join(self.tile_item(m) for m in mode[: self.r.randint(1, len(mode))]) + ">"
            return fmt([(self.ch(divisors(tsize(m))[:4]), self.p(0.7)) for m in mode])
        if c < 0.65:
            l, _ = self.layout(max_size=sz, maxd=1, pol=self.ch(["S", "S", "D", "M"]))
            return l
        return self.n(d, self.p(0.7))

    def tiler(self, shape, kinds=("layout", "tile", "shape", "int")):
        modes = shape if isinstance(shape, list) else [shape]
        k = self.ch(list(kinds), [{"layout": 25, "tile": 45, "shape": 20, "int": 10}[x] for x in kinds])
        if k == "layout":
            sz = tsize(shape)
            lay, _ = self.layout(max_size=max(min(sz, 64), 2), maxd=2)
            if self.p(0.5):
                d = self.ch(divisors(sz)[:6])
                st = self.ch([1, 1, 2, 4])
                s = self.p(0.7)
                lay = f"{self.n(d, s)}:{self.n(st, s)}"
            return lay
        if k == "int":
            return self.n(self.ch(divisors(tsize(shape))[:6]), self.p(0.7))
        m = modes[: self.r.randint(1, len(modes))] if modes else [1]
        if k == "shape":
            items = [self.n(self.ch(divisors(tsize(x))[:6]), self.p(0.7)) for x in m]
            return "(" + ",".join(items) + ")"
        return "<" + ",".join(self.tile_item(x) for x in m) + ">"

    # ---- swizzles -----------------------------------------------------------------------------
    def swz(self, valid=0.93):
        b = self.ch([0, 1, 2, 3, 3, 2])
        m = self.ch([0, 1, 2, 3, 4])
        s = self.ch([3, 3, 4, b, b + 1, -3, -(b + 1)]) if b else self.ch([0, 1, 3, -1])
        if self.p(valid) and abs(s) < b:
            s = b
        return f"Sw<{b},{m},{s}>"

    def composed(self, offset=None):
        rows, cols = self.ch([(8, 64), (8, 32), (4, 8), (8, 8), (16, 64), (4, 4), (16, 16), (2, 16)])
        st = self.p(0.8)
        n = lambda v: self.n(v, st)
        lay, shape = self.ch([
            (f"({n(rows)},{n(cols)}):({n(cols)},{n(1)})", [rows, cols]),
            (f"({n(rows)},{n(cols)}):({n(1)},{n(rows)})", [rows, cols]),
            (f"{n(rows * cols)}:{n(1)}", rows * cols),
            (f"(({n(2)},{n(rows // 2 if rows > 2 else 1)}),{n(cols)}):(({n(cols)},{n(2 * cols)}),{n(1)})", [[2, max(rows // 2, 1)], cols]),
        ])
        sw = self.swz()
        off = offset if offset is not None else self.ch([None, None, None, 0, 8, 16, 32, 1, 64])
        if off is None:
            return f"{sw} o {lay}", shape
        return f"{sw} o {self.n(off, self.p(0.6))} o {lay}", shape

    # ---- expressions whose value is a layout ---------------------------------------------------
    def lexpr(self, d=0):
        """A layout-valued expression (literal or computed); shape tree or None when unknown."""
        if d >= 2 or self.p(0.55):
            return self.layout(max_size=512)
        L, s = self.layout(max_size=256)
        k = self.ch(["coalesce", "complement", "ldiv", "make", "rinv", "comp", "lprod", "filter", "right", "zdiv"])
        if k == "coalesce":
            return f"coalesce({L})", None
        if k == "complement":
            return f"complement({L}, {self.n(self.ch([16, 32, 64, 128]))})", None
        if k == "ldiv":
            return f"logical_divide({L}, {self.tiler(s)})", None
        if k == "zdiv":
            return f"zipped_divide({L}, {self.tiler(s, ('tile', 'shape'))})", None
        if k == "make":
            sh, t = self.shape_lit(max_size=256)
            return f"make_layout({sh}{self.ch(['', ', LayoutRight', ', LayoutLeft'])})", t
        if k == "rinv":
            return f"right_inverse({L})", None
        if k == "lprod":
            return f"logical_product({L}, {self.small(8)[0]})", None
        if k == "filter":
            return f"filter({L})", None
        if k == "right":
            sh, t = self.shape_lit(max_size=256)
            return f"make_layout({sh}, LayoutRight)", t
        B, bs = self.lexpr(d + 1)
        return f"{L} o {B}", bs


# ---- the categories -------------------------------------------------------------------------

def c_construct(g):
    r = g.r
    k = g.ch(["S", "SD", "tag", "cat", "int", "sw", "noncong", "one"], [15, 12, 22, 14, 8, 5, 4, 6])
    if k == "S":
        return f"make_layout({g.shape_lit()[0]})"
    if k == "SD":
        L, s = g.layout()
        sh, st = L.split(":", 1)
        return f"make_layout({sh}, {st})"
    if k == "tag":
        tag = g.ch(["LayoutLeft", "LayoutRight", "GenColMajor", "GenRowMajor"])
        sh = g.shape_lit()[0] if g.p(0.85) else g.n(g.ch([1, 4, 8]))
        return f"make_layout({sh}, {tag})"
    if k == "cat":
        return "make_layout(" + ", ".join(g.L(max_size=64, maxd=2) for _ in range(r.randint(1, 4))) + ")"
    if k == "int":
        return g.ch([f"make_layout({g.n(g.ch([1, 4, 8]))})", f"make_layout({g.n(8)}, {g.n(2)})",
                     f"make_layout({g.n(4)}, {g.shape_lit(maxd=1)[0]})"])
    if k == "sw":
        return f"make_layout({g.swz()})"
    if k == "noncong":
        a, b = g.shape_lit(maxd=2)[0], g.shape_lit(maxd=2)[0]
        return f"make_layout({a}, {b})"
    return f"make_layout({g.L(max_size=64)}, {g.shape_lit(maxd=1)[0]})"


def c_make_misc(g):
    k = g.ch(["tuple", "ordered", "ordered_L", "like", "frag", "fragS", "ident", "ident_eval", "ident_comp",
              "composed", "swizzle", "tile"], [8, 14, 4, 10, 12, 5, 8, 6, 5, 6, 3, 5])
    if k == "tuple":
        f = g.ch(["make_shape", "make_stride", "make_coord", "make_step", "make_tuple"])
        return f"{f}(" + ", ".join(g.itup(maxd=2)[0] for _ in range(g.r.randint(0, 3))) + ")"
    if k == "tile":
        items = [g.ch([g.L(max_size=16, maxd=1), g.n(4), "_", g.itup(maxd=1)[0]]) for _ in range(g.r.randint(1, 3))]
        return "make_tile(" + ", ".join(items) + ")"
    if k == "ordered":
        sh, t = g.shape_lit(maxd=2)
        if g.p(0.8) and isinstance(t, list):
            lv = leaves(t)
            perm = list(range(len(lv)))
            g.r.shuffle(perm)
            if g.p(0.2):
                perm = [g.r.randrange(len(lv) + 1) for _ in lv]
            it = iter(perm)
            o = tmap(t, lambda _: next(it))
            if g.p(0.15):
                o = [g.r.randrange(4) for _ in t]
        else:
            o = g.ituple_tree(vals=(0, 1, 2, 3))
        return f"make_ordered_layout({sh}, {g.itup(o)[0]})"
    if k == "ordered_L":
        return f"make_ordered_layout({g.L()})"
    if k == "like":
        return f"make_layout_like({g.L()})"
    if k == "frag":
        return f"make_fragment_like({g.L()})"
    if k == "fragS":
        return f"make_fragment_like({g.shape_lit()[0]})"
    if k == "ident":
        return f"make_identity_layout({g.shape_lit(max_size=256)[0]})"
    if k == "ident_eval":
        sh, t = g.shape_lit(max_size=256)
        return f"I = make_identity_layout({sh}); I({g.crd_args(t, under=0.1)})"
    if k == "ident_comp":
        sh, t = g.shape_lit(max_size=256)
        f = g.ch(["composition(I, {T})", "logical_divide(I, {T})", "zipped_divide(I, {T})", "coalesce(I)",
                  "size(I)", "cosize(I)", "coshape(I)", "coprofile(I)", "flatten(I)", "tiled_divide(I, {T})"])
        return f"I = make_identity_layout({sh}); " + f.format(T=g.tiler(t, ("tile", "shape", "layout")))
    if k == "composed":
        return f"make_composed_layout({g.swz()}, {g.n(g.ch([0, 0, 4, 16, 32]))}, {g.L(max_size=512)})"
    if g.p(0.3):
        return f"make_swizzle<{g.swz()[3:-1]}>()"
    y, z = g.r.randrange(1, 1024), g.r.randrange(1, 1024)
    if g.p(0.8):  # masks of a real swizzle: B bits at M+S and at M
        b, m, sh = g.r.randint(1, 3), g.r.randint(0, 4), g.r.randint(1, 4)
        sh = max(sh, b)
        z = ((1 << b) - 1) << m
        y = z << sh
        if g.p(0.2):
            y, z = z, y
    return f"make_swizzle<{y},{z}>()"


def c_coalesce(g):
    L, s = g.layout()
    k = g.ch(["plain", "profile", "shape", "result"], [45, 30, 10, 15])
    if k == "plain":
        return f"coalesce({L})"
    if k == "profile":
        if isinstance(s, list):
            prof = g.ch([tmap(s, lambda _: 1), [1] * len(s), [tmap(e, lambda _: 1) if g.p(0.5) else 1 for e in s],
                         [1] * max(1, len(s) - 1), [1] * (len(s) + 1)])
        else:
            prof = g.ch([1, [1]])
        return f"coalesce({L}, {g.itup(prof, pol=g.ch(['S', 'D']))[0]})"
    if k == "shape":
        return f"coalesce({g.shape_lit()[0]})"
    return f"coalesce({g.lexpr()[0]})"


def c_composition(g):
    k = g.ch(["AB", "tiler", "shape", "int", "ABC", "lexpr", "compound", "operator"], [25, 15, 8, 5, 12, 10, 15, 10])
    A, s = g.layout(max_size=1024)
    if k == "AB":
        B, _ = g.layout(max_size=min(tsize(s) * 2, 256), maxd=2)
        return f"composition({A}, {B})"
    if k == "tiler":
        return f"composition({A}, {g.tiler(s, ('tile',))})"
    if k == "shape":
        return f"composition({A}, {g.tiler(s, ('shape',))})"
    if k == "int":
        return f"composition({A}, {g.n(g.ch(divisors(tsize(s))[:6]))})"
    if k == "ABC":
        B, bs = g.layout(max_size=min(tsize(s), 128), maxd=2)
        C, _ = g.layout(max_size=min(tsize(bs), 32), maxd=1)
        return f"{A} o {B} o {C}"
    if k == "lexpr":
        X, _ = g.lexpr()
        B, _ = g.small(32)
        return f"composition({X}, {B})" if g.p(0.5) else f"({X}) o {B}"
    if k == "compound":
        f = g.ch(["complement({A})", "complement({A}, {n})", "logical_divide({A}, {T})", "right_inverse({A})",
                  "left_inverse({A})", "coalesce({A})", "make_layout({A}, complement({A}))", "filter({A})",
                  "logical_product({A}, {S})", "zipped_divide({A}, {T})"])
        X = f.format(A=A, n=g.n(g.ch([32, 64, 128])), T=g.tiler(s), S=g.small(8)[0])
        B, _ = g.small(32)
        return g.ch([f"{X} o {B}", f"composition({X}, {B})", f"{B} o {X}"])
    B, _ = g.small(64)
    return f"{A} o {B}"


def c_complement(g):
    L, s = g.layout(max_size=256)
    k = g.ch(["plain", "int", "tuple", "result", "layout_cotarget"], [30, 35, 15, 15, 5])
    if k == "plain":
        return f"complement({L})"
    if k == "int":
        return f"complement({L}, {g.n(g.ch([1, 2, 8, 16, 24, 32, 64, 128, 256, 1024]))})"
    if k == "tuple":
        return f"complement({L}, {g.itup(vals=(2, 4, 8, 16, 32))[0]})"
    if k == "result":
        return f"complement({g.lexpr()[0]}, {g.n(g.ch([64, 128, 256]))})"
    return f"complement({L}, {g.small(64)[0]})"


def c_inverse(g):
    f = g.ch(["right_inverse", "left_inverse"])
    k = g.ch(["lit", "compact", "result", "law"], [45, 25, 15, 15])
    if k == "lit":
        return f"{f}({g.L(max_size=512)})"
    if k == "compact":
        L, _ = g.compact()
        if g.p(0.5):
            sh, t = g.shape_lit(max_size=256)
            L = f"make_layout({sh}, LayoutRight)"
        return f"{f}({L})"
    if k == "result":
        return f"{f}({g.lexpr()[0]})"
    L = g.L(max_size=256)
    return g.ch([f"A = {L}; A o right_inverse(A)", f"A = {L}; left_inverse(A) o A",
                 f"A = {L}; right_inverse(A) o A", f"A = {L}; right_inverse(right_inverse(A))"])


def c_common(g):
    A, s = g.layout(max_size=1024)
    k = g.ch(["rand", "same_shape", "self", "compact"])
    if k == "rand":
        B = g.L(max_size=1024)
    elif k == "same_shape":
        B = g.layout(shape=s)[0]
    elif k == "self":
        B = A
    else:
        B = g.compact(shape=s)[0]
    f = g.ch(["max_common_layout", "max_common_vector"])
    return f"{f}({A}, {B})"


def c_misc_alg(g):
    k = g.ch(["nullspace", "dd", "align", "align_c", "upcast", "downcast", "recast"], [15, 15, 15, 5, 17, 17, 16])
    if k == "nullspace":
        return f"nullspace({g.L()})"
    if k == "dd":
        a = g.itup(vals=(1, 2, 3, 4, 6, 8, 16), maxd=2)[0]
        return f"domain_distribute({a}, {g.n(g.ch([1, 2, 4, 6, 8, 16, 32]), g.p(0.85))})"
    if k == "align":
        return f"max_alignment({g.L()})"
    if k == "align_c":
        return f"max_alignment({g.composed()[0]})"
    if k in ("upcast", "downcast"):
        X = g.L() if g.p(0.8) else g.composed()[0]
        return f"{k}<{g.ch([1, 2, 2, 3, 4, 8, 16])}>({X})"
    a, b = g.ch(TYPES), g.ch(TYPES)
    X = g.L() if g.p(0.8) else g.composed()[0]
    return f"recast_layout<{a},{b}>({X})"


def c_divide(g):
    A, s = g.layout(max_size=2048)
    f = g.ch(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "tile_unzip"])
    k = g.ch(["tiler", "result", "composed"], [80, 12, 8])
    if k == "composed":
        A, s = g.composed()
    T = g.tiler(s)
    if k == "result":
        X = g.ch([f"{f}({A}, {T}) o {g.small(16)[0]}", f"size({f}({A}, {T}))", f"layout<0>({f}({A}, {T}))",
                  f"coalesce({f}({A}, {T}))", f"rank({f}({A}, {T}))"])
        return X
    return f"{f}({A}, {T})"


def c_product(g):
    A, s = g.layout(max_size=64, maxd=2)
    f = g.ch(["logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
              "raked_product"])
    k = g.ch(["layout", "tile", "shape", "composed"], [60, 20, 12, 8])
    if k == "layout":
        B = g.small(16)[0]
    elif k == "tile":
        B = "<" + ",".join(g.ch([g.L(max_size=8, maxd=1), g.n(g.ch([1, 2, 3])), "_"]) for _ in range(g.r.randint(1, 3))) + ">"
    elif k == "shape":
        B = g.itup(vals=(1, 2, 3, 4), maxd=1)[0]
    else:
        A = g.composed()[0]
        B = g.small(8)[0]
    return f"{f}({A}, {B})"


def c_tile_to_shape(g):
    if g.p(0.2):
        blk, (rows, cols) = g.composed()[0], (8, 8)
        blk = g.ch([f"Sw<3,3,3> o (_8,_64):(_64,_1)", f"{g.swz()} o {g.n(0)} o (_8,_8):(_8,_1)", blk])
    else:
        blk = g.L(max_size=32, maxd=2)
    trg = g.itup(vals=(8, 16, 24, 32, 64, 128), maxd=2)[0]
    k = g.ch(["none", "ord", "tag"], [50, 30, 20])
    if k == "none":
        return f"tile_to_shape({blk}, {trg})"
    if k == "tag":
        return f"tile_to_shape({blk}, {trg}, {g.ch(['LayoutLeft', 'LayoutRight', 'GenColMajor', 'GenRowMajor'])})"
    o = g.itup(vals=(0, 1, 2), maxd=1)[0]
    return f"tile_to_shape({blk}, {trg}, {o})"


def c_zip(g):
    k = g.ch(["zip2_by", "tile_unzip", "zip", "zip2"])
    if k == "zip2_by":
        t = g.ch([[[2, 3], [4, 5]], [[2, 3], [[4, 6], [8, 1]], 7], [[1, 2], 3], [[2, 2], [2, 2], [2, 2]]])
        guide = g.ch([[1, 1], [1, [1, 1]], 1, [1], [1, 1, 1], [[1, 1], 1]])
        return f"zip2_by({g.itup(t)[0]}, {g.itup(guide, pol='S')[0]})"
    if k == "tile_unzip":
        A, s = g.layout(max_size=1024)
        return f"tile_unzip({A}, {g.tiler(s, ('tile', 'shape'))})"
    if k == "zip":
        return f"zip({g.ch([g.L(), g.itup()[0]])})"
    return f"zip({g.L(maxd=1)}, {g.L(maxd=1)})"


def c_structure(g):
    A, s = g.layout()
    r = len(s) if isinstance(s, list) else 1
    X = A if g.p(0.75) else g.itup(g.shape(maxd=3), pol=g.ch(["S", "D", "M"]))[0]
    k = g.ch(["filter", "filterp", "fz", "fzp", "flatten", "unflatten", "append", "prepend", "replace", "group",
              "take", "select", "get", "layout", "shape", "stride", "size", "rank", "depth", "cosize", "coshape",
              "coprofile"])
    i = lambda: g.r.randrange(r + (1 if g.p(0.1) else 0))
    if k == "filter":
        return f"filter({A})"
    if k == "filterp":
        prof = tmap(s, lambda _: 1) if g.p(0.5) else ([1] * r if isinstance(s, list) else 1)
        return f"filter({A}, {g.itup(prof, pol='S')[0]})"
    if k == "fz":
        return f"filter_zeros({A})"
    if k == "fzp":
        return f"filter_zeros({A}, {g.itup(tmap(s, lambda _: g.ch([0, 1])), pol=g.ch(['S', 'M']))[0]})"
    if k == "flatten":
        return f"flatten({X})"
    if k == "unflatten":
        flat = leaves(s)
        prof = g.ch([s, [0] * len(flat), tmap(s, lambda _: 0)])
        return f"unflatten(flatten({A}), {g.itup(prof, pol='S')[0]})"
    if k in ("append", "prepend"):
        y = g.ch([g.small(8)[0], g.small(8)[0], g.n(2), g.itup(maxd=1)[0]])
        if g.p(0.3):
            return f"{k}<{r + g.ch([0, 1, 2, -1])}>({X}, {y})"
        return f"{k}({X}, {y})" if g.p(0.8) else f"{k}({X})"
    if k == "replace":
        return f"replace<{i()}>({X}, {g.ch([g.small(8)[0], g.small(8)[0], g.n(3), g.itup(maxd=1)[0]])})"
    if k in ("group", "take"):
        b = g.r.randrange(r + 1)
        e = g.r.randrange(b, r + 2) if g.p(0.85) else g.r.randrange(0, r + 1)
        e = min(e, r) if g.p(0.85) else e
        return f"{k}<{b},{e}>({X})"
    if k == "select":
        idx = [g.r.randrange(r + (1 if g.p(0.05) else 0)) for _ in range(g.r.randint(1, 3))]
        return f"select<{','.join(map(str, idx))}>({X})"
    if k in ("get", "layout", "shape", "stride", "size", "rank", "depth", "cosize", "coshape", "coprofile"):
        path = []
        t = s
        while isinstance(t, list) and t and g.p(0.6 if not path else 0.4):
            j = g.r.randrange(len(t) + (1 if g.p(0.04) else 0))
            path.append(j)
            t = t[j] if j < len(t) else 1
        if k in ("cosize", "coshape", "coprofile", "layout", "stride"):
            X = A
        if not path and k in ("get", "layout"):
            path = [0]
        ta = f"<{','.join(map(str, path))}>" if path else ""
        return f"{k}{ta}({X})"
    return f"flatten({X})"


def c_coord(g):
    L, s = g.layout(max_size=1024)
    sh, st = L.split(":", 1)
    k = g.ch(["crd2idx", "crd2idx_s", "idx2crd", "idx2crd_d", "crd2crd", "slice", "dice", "sao", "doff",
              "sliceT", "diceT"], [12, 8, 12, 6, 8, 12, 10, 10, 10, 6, 6])
    if k == "crd2idx":
        c, _ = g.crd(s, s=None)
        if g.p(0.3):
            c = g.n(g.r.randrange(tsize(s)))
        return f"crd2idx({c}, {sh}, {st})"
    if k == "crd2idx_s":
        c, _ = g.crd(s, s=None)
        return f"crd2idx({c}, {sh})"
    if k == "idx2crd":
        i = g.n(g.r.randrange(tsize(s) + 2))
        if g.p(0.15):
            i = g.crd(s)[0]
        return f"idx2crd({i}, {sh})"
    if k == "idx2crd_d":
        i = g.n(g.r.randrange(tsize(s) + 2))
        return f"idx2crd({i}, {sh}, {st})"
    if k == "crd2crd":
        c, _ = g.crd(s)
        s2 = g.ch([[tsize(s)], leaves(s), s, [tsize(s)]]) if isinstance(s, list) else g.ch([s, [s]])
        return f"crd2crd({c}, {sh}, {g.itup(s2, pol=g.ch(['S', 'D']))[0]})"
    f = {"slice": "slice", "dice": "dice", "sao": "slice_and_offset", "doff": "domain_offset", "sliceT": "slice",
         "diceT": "dice"}[k]
    c, _ = g.crd(s, under=0.0 if k == "doff" else 0.35)
    if k in ("sliceT", "diceT"):
        return f"{f}({c}, {g.itup(s, pol=g.ch(['S', 'D', 'M']))[0]})"
    if g.p(0.1) and k != "dice":
        X, cs = g.composed()
        c, _ = g.crd(cs, under=0.0 if k == "doff" else 0.4)
        return f"{f}({c}, {X})"
    return f"{f}({c}, {L})"


def c_eval(g):
    L, s = g.layout(max_size=1024)
    k = g.ch(["idx", "natural", "slice", "result", "composed", "composed_slice", "swz"], [20, 20, 25, 10, 10, 10, 5])
    if k == "idx":
        return f"A = {L}; A({g.n(g.r.randrange(tsize(s) + (3 if g.p(0.05) else 0)), g.p(0.3))})"
    if k == "natural":
        return f"A = {L}; A({g.crd_args(s, s=None)})"
    if k == "slice":
        return f"A = {L}; A({g.crd_args(s, under=0.45, s=None)})"
    if k == "result":
        X, xs = g.lexpr()
        if xs is not None and g.p(0.5):
            return f"A = {X}; A({g.crd_args(xs, under=0.3)})"
        return f"A = {X}; A({g.n(g.r.randrange(16), g.p(0.3))})"
    X, xs = g.composed()
    if k == "composed":
        return f"S = {X}; S({g.crd_args(xs, s=None)})"
    if k == "composed_slice":
        return f"S = {X}; S({g.crd_args(xs, under=0.5, s=None)})"
    return f"{g.swz()}({g.n(g.r.randrange(-64, 4096), g.p(0.4))})"


def c_tuple_arith(g):
    neg = 0.15
    a, t = g.itup(vals=(1, 2, 3, 4, 6, 8, 12, 16), neg=neg)
    b = g.itup(g.like(t, vals=(1, 2, 3, 4, 8), neg=neg))[0]
    f = g.ch(["ceil_div", "shape_div", "round_up", "elem_scale", "inner_product", "max", "min", "gcd", "product",
              "product_each", "sum", "abs", "product_like", "max3", "min1", "gcd3"])
    if f in ("product", "product_each", "sum", "abs"):
        return f"{f}({a})"
    if f == "product_like":
        return f"product_like({a}, {g.itup(g.like(t))[0]})"
    if f == "max3":
        return f"max({a}, {b}, {g.itup(g.like(t, neg=neg))[0]})"
    if f == "gcd3":
        return f"gcd({g.n(g.ch([4, 6, 12, -8]))}, {g.n(g.ch([6, 8, 18]))}, {g.n(g.ch([2, 3, 9]))})"
    if f == "min1":
        return f"min({a})"
    if f in ("gcd",) and g.p(0.6):
        return f"gcd({g.n(g.ch([0, 4, 6, 12, -8, 7]))}, {g.n(g.ch([0, 6, 8, 18, -3]))})"
    if f in ("max", "min") and g.p(0.4):
        return f"{f}({g.n(g.ch([-3, 0, 4, 6]))}, {g.n(g.ch([-5, 2, 6, 7]))})"
    if f in ("ceil_div", "shape_div") and g.p(0.3):
        return f"{f}({g.n(g.ch([-8, -7, 0, 1, 4, 6, 12, 7]))}, {g.n(g.ch([-2, 1, 2, 3, 4, 8]))})"
    return f"{f}({a}, {b})"


def c_tuple_tests(g):
    a, t = g.itup(neg=0.1)
    b = g.itup(g.like(t, neg=0.1))[0]
    f = g.ch(["congruent", "weakly_congruent", "compatible", "evenly_divides", "lex_less", "colex_less", "elem_less"])
    if f in ("compatible", "evenly_divides") and g.p(0.5):
        if f == "compatible":
            b2 = g.itup(g.ch([tsize(t), [tsize(t)], t, [t, 1] if isinstance(t, list) else [t]]))[0]
            return f"compatible({b2}, {a})" if g.p(0.5) else f"compatible({a}, {b2})"
        b2 = g.itup(tmap(t, lambda v: g.ch(divisors(abs(v) or 1))))[0]
        return f"evenly_divides({a}, {b2})"
    return f"{f}({a}, {b})"


def c_tuple_struct(g):
    a, t = g.itup(neg=0.05)
    r = len(t) if isinstance(t, list) else 1
    f = g.ch(["reverse", "repeat", "repeat_like", "wrap", "unwrap", "front", "back", "remove", "insert",
              "ccm", "crm", "ccm2", "co", "flatten", "get", "take", "select", "append", "prepend", "group",
              "size", "rank", "depth", "shape"])
    if f in ("reverse", "wrap", "unwrap", "front", "back", "flatten", "size", "rank", "depth", "shape"):
        return f"{f}({a})"
    if f == "repeat":
        return f"repeat<{g.ch([0, 1, 2, 3])}>({g.ch([g.n(2), a])})"
    if f == "repeat_like":
        return f"repeat_like({a}, {g.ch([g.n(0), g.n(1), g.itup(maxd=1)[0]])})"
    if f == "remove":
        return f"remove<{g.r.randrange(r + 1)}>({a})"
    if f == "insert":
        return f"insert<{g.r.randrange(r + 2)}>({a}, {g.ch([g.n(7), g.itup(maxd=1)[0]])})"
    if f == "ccm":
        return f"compact_col_major({a})"
    if f == "crm":
        return f"compact_row_major({a})"
    if f == "ccm2":
        return f"{g.ch(['compact_col_major', 'compact_row_major'])}({a}, {g.n(g.ch([0, 1, 2, 3]))})"
    if f == "co":
        if isinstance(t, list) and g.p(0.7):
            lv = leaves(t)
            perm = list(range(len(lv)))
            g.r.shuffle(perm)
            it = iter(perm)
            o = tmap(t, lambda _: next(it))
        else:
            o = g.ituple_tree(vals=(0, 1, 2))
        return f"compact_order({a}, {g.itup(o)[0]})"
    if f == "get":
        return f"get<{g.r.randrange(r + (1 if g.p(0.05) else 0))}>({a})"
    if f == "take":
        b = g.r.randrange(r + 1)
        return f"take<{b},{g.r.randint(b, r)}>({a})"
    if f == "select":
        return f"select<{','.join(str(g.r.randrange(max(r, 1))) for _ in range(g.r.randint(1, 3)))}>({a})"
    if f == "group":
        b = g.r.randrange(r + 1)
        return f"group<{b},{g.r.randint(b, r)}>({a})"
    return f"{f}({a}, {g.itup(maxd=1)[0]})"


def c_swizzle(g):
    X, xs = g.composed()
    k = g.ch(["print", "fn", "comp", "div", "tts", "members", "slice", "product", "sw_apply", "sw_o_sw",
              "sw_o_L", "sao", "doff"], [8, 14, 10, 10, 6, 12, 8, 5, 5, 4, 6, 6, 6])
    if k == "print":
        return X
    if k == "fn":
        f = g.ch(["right_inverse", "left_inverse", "coalesce", "size", "cosize", "shape", "rank", "depth",
                  "upcast<2>", "downcast<2>", "max_alignment", "get_nonswizzle_portion", "get_swizzle_portion",
                  "complement", "layout<0>", "get<1>", "nullspace", "filter", "flatten", "make_fragment_like",
                  "coalesce", "stride", "cosize", "make_layout_like"])
        return f"{f}({X})"
    if k == "comp":
        return g.ch([f"composition({X}, {g.small(16)[0]})", f"({X}) o {g.tiler(xs, ('tile', 'shape'))}",
                     f"composition({g.swz()}, {g.L(max_size=256)})", f"{g.swz()} o {g.L(max_size=256)}",
                     f"{g.L(max_size=64)} o {g.swz()}", f"composition({X}, {g.tiler(xs, ('tile',))})"])
    if k == "div":
        f = g.ch(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
        return f"{f}({X}, {g.tiler(xs, ('tile', 'shape', 'layout'))})"
    if k == "tts":
        return f"tile_to_shape({X}, ({g.n(64)},{g.n(64)}))"
    if k == "members":
        m = g.ch(["layout_a", "layout_b", "offset", "with_shape", "compose", "tile", "get_hier_coord",
                  "get_flat_coord", "get_1d_coord"])
        if m in ("layout_a", "layout_b", "offset"):
            return f"{m}({X})"
        if m == "with_shape":
            return f"with_shape({X}, {g.itup(g.ch([[8, 8], [4, 16], [64], [2, 32]]))[0]})"
        if m in ("compose", "tile"):
            return f"{m}({X}, {g.tiler(xs, ('tile',))[1:-1]})"
        return f"{m}({X}, {g.n(g.r.randrange(tsize(xs)))})"
    if k == "slice":
        return f"S = {X}; S({g.crd_args(xs, under=0.5, s=None)})"
    if k == "product":
        return f"{g.ch(['logical_product', 'blocked_product', 'raked_product', 'zipped_product'])}({X}, {g.small(8)[0]})"
    if k == "sw_apply":
        return f"{g.swz()}({g.n(g.r.randrange(-100, 5000), g.p(0.5))})"
    if k == "sw_o_sw":
        return f"{g.swz()} o {g.swz()}"
    if k == "sw_o_L":
        return f"{g.swz()} o {g.n(g.ch([0, 4, 8]))} o {g.swz()} o {g.L(max_size=256, maxd=1)}"
    if k == "sao":
        return f"slice_and_offset({g.crd(xs, under=0.5)[0]}, {X})"
    return f"domain_offset({g.crd(xs)[0]}, {X})"


def c_members(g):
    A, s = g.layout(max_size=1024)
    k = g.ch(["with_shape", "with_shape_v", "with_shape_int", "compose", "tile", "hier", "flat", "1d"],
             [20, 10, 5, 15, 15, 12, 12, 11])
    if k == "with_shape":
        t = g.ch([divisors(tsize(s))[:4], g.shape(maxd=2)])
        t = g.ch([[tsize(s)], leaves(s), s, g.shape(tsize(s), 2)]) if g.p(0.6) else g.shape(maxd=2)
        return f"with_shape({A}, {g.itup(t if isinstance(t, list) else [t])[0]})"
    if k == "with_shape_v":
        return f"with_shape({A}, {', '.join(g.n(v) for v in g.ch([[2, 2], [4, 2], [tsize(s)], [2, tsize(s) // 2 or 1]]))})"
    if k == "with_shape_int":
        return f"with_shape({A}, {g.n(g.ch([4, tsize(s)]))})"
    if k in ("compose", "tile"):
        t = g.tiler(s, ("tile",))[1:-1]
        return f"{k}({A}, {t})"
    f = {"hier": "get_hier_coord", "flat": "get_flat_coord", "1d": "get_1d_coord"}[k]
    return f"{f}({A}, {g.n(g.r.randrange(tsize(s) + 1), g.p(0.3))})"


def c_print(g):
    k = g.ch(["layout", "latex", "composed", "result"], [55, 15, 15, 15])
    if k == "layout":
        shp = g.ch([[g.ch([1, 2, 3, 4, 8]), g.ch([1, 2, 4, 8])], g.ch([1, 4, 8, 16]),
                    [[2, 2], g.ch([2, 4])], [g.ch([2, 4]), [2, 2]], [4]])
        return f"print_layout({g.layout(shape=shp)[0]})"
    if k == "latex":
        shp = g.ch([[2, 2], [2, 4], 4, [[2, 2], 2]])
        return f"print_latex({g.layout(shape=shp)[0]})"
    if k == "composed":
        rows, cols = g.ch([(4, 8), (8, 8), (2, 4), (4, 4)])
        return f"print_layout({g.swz()} o {g.n(g.ch([0, 0, 4]))} o ({g.n(rows)},{g.n(cols)}):({g.n(cols)},{g.n(1)}))"
    A = g.L(max_size=32, maxd=2)
    f = g.ch(["print_layout(coalesce({A}))", "print_layout(make_layout({A}, complement({A}, _32)))",
              "print_layout(logical_divide({A}, _2))", "print_latex(coalesce({A}))",
              "print_layout(zipped_divide({A}, <_2>))", "print_layout(right_inverse({A}))"])
    return f.format(A=A)


def lay_tree(g, d=0):
    """A random layout-valued expression tree: functions of functions of small layouts."""
    if d >= 3 or g.p(0.35 + 0.2 * d):
        k = g.ch(["lit", "lit", "lit", "make", "right", "sw"], [30, 20, 10, 15, 10, 5])
        if k == "make":
            return f"make_layout({g.shape_lit(max_size=64, maxd=2)[0]})"
        if k == "right":
            return f"make_layout({g.shape_lit(max_size=64, maxd=2)[0]}, {g.ch(['LayoutRight', 'GenRowMajor'])})"
        if k == "sw":
            return f"({g.composed()[0]})"
        return g.L(max_size=g.ch([8, 16, 64, 256]), maxd=2)
    x = lambda: lay_tree(g, d + 1)
    f = g.ch(["coalesce", "comp", "comp_op", "complement", "rinv", "linv", "ldiv", "zdiv", "tdiv", "fdiv",
              "lprod", "bprod", "rprod", "zprod", "tprod", "fprod", "layout", "select", "take", "group", "flatten",
              "filter", "fz", "like", "frag", "upcast", "downcast", "tts", "with_shape", "mcl", "null", "append",
              "prepend", "zip", "cat", "ordered", "get"])
    n = lambda *v: g.n(g.ch(list(v)), g.p(0.8))
    T = lambda: g.ch([n(2, 4), f"<{n(2, 4)},{n(2, 1)}>", f"{n(2, 4)}:{n(1, 2)}", f"({n(2, 4)},{n(2)})", "<_,_2>"])
    return {
        "coalesce": lambda: f"coalesce({x()})",
        "comp": lambda: f"composition({x()}, {x()})",
        "comp_op": lambda: f"({x()}) o ({x()})" if g.p(0.5) else f"{x()} o {x()}",
        "complement": lambda: f"complement({x()}{g.ch(['', ', ' + n(32, 64, 128)])})",
        "rinv": lambda: f"right_inverse({x()})",
        "linv": lambda: f"left_inverse({x()})",
        "ldiv": lambda: f"logical_divide({x()}, {T()})",
        "zdiv": lambda: f"zipped_divide({x()}, {T()})",
        "tdiv": lambda: f"tiled_divide({x()}, {T()})",
        "fdiv": lambda: f"flat_divide({x()}, {T()})",
        "lprod": lambda: f"logical_product({x()}, {x()})",
        "bprod": lambda: f"blocked_product({x()}, {x()})",
        "rprod": lambda: f"raked_product({x()}, {x()})",
        "zprod": lambda: f"zipped_product({x()}, {x()})",
        "tprod": lambda: f"tiled_product({x()}, {x()})",
        "fprod": lambda: f"flat_product({x()}, {x()})",
        "layout": lambda: f"layout<{g.ch([0, 0, 1])}>({x()})",
        "get": lambda: f"get<{g.ch([0, 1])}>({x()})",
        "select": lambda: f"select<{g.ch(['0', '1,0', '0,0', '1'])}>({x()})",
        "take": lambda: f"take<{g.ch(['0,1', '0,2', '1,2'])}>({x()})",
        "group": lambda: f"group<{g.ch(['0,2', '1,2', '0,1'])}>({x()})",
        "flatten": lambda: f"flatten({x()})",
        "filter": lambda: f"filter({x()})",
        "fz": lambda: f"filter_zeros({x()})",
        "like": lambda: f"make_layout_like({x()})",
        "frag": lambda: f"make_fragment_like({x()})",
        "upcast": lambda: f"upcast<{g.ch([2, 4])}>({x()})",
        "downcast": lambda: f"downcast<{g.ch([2, 4])}>({x()})",
        "tts": lambda: f"tile_to_shape({x()}, ({n(16, 32, 64)},{n(16, 32, 64)}))",
        "with_shape": lambda: f"with_shape({x()}, ({n(2, 4)},{n(2, 4, 8)}))",
        "mcl": lambda: f"max_common_layout({x()}, {x()})",
        "null": lambda: f"nullspace({x()})",
        "append": lambda: f"append({x()}, {x()})",
        "prepend": lambda: f"prepend({x()}, {x()})",
        "zip": lambda: f"zip({x()})",
        "cat": lambda: f"make_layout({x()}, {x()})",
        "ordered": lambda: f"make_ordered_layout({x()})",
    }[f]()


def c_nest(g):
    X = lay_tree(g)
    k = g.ch(["value", "value", "value", "bind", "terminal", "print", "chain"], [40, 10, 10, 15, 20, 5, 10])
    if k == "chain":  # a = ...; b = f(a); c = g(a, b); ...
        a, b = lay_tree(g, 1), g.ch(["coalesce(a)", "right_inverse(a)", "complement(a, _64)", "logical_divide(a, _2)",
                                     "a o _2:_1", "make_layout(a, a)", "filter(a)", "zipped_divide(a, <_2>)"])
        c = g.ch(["composition(a, b)", "make_layout(a, b)", "logical_product(a, b)", "max_common_layout(a, b)",
                  "b o a", "append(a, b)", "zip(a, b)", "blocked_product(b, a)"])
        last = g.ch(["c", "size(c)", "coalesce(c)", "c(1)", "shape(c)", "rank(c)", "cosize(c)", "filter(c)"])
        return f"a = {a}; b = {b}; c = {c}; {last}"
    if k == "bind":
        name = g.ch(["a", "b", "L", "T1", "x2"])
        return f"{name} = {X}; {name}({g.n(g.r.randrange(8), g.p(0.3))})" if g.p(0.5) else f"{name} = {X}; {g.ch(['size', 'cosize', 'coalesce', 'rank', 'depth', 'shape'])}({name})"
    if k == "terminal":
        return f"{g.ch(['size', 'cosize', 'rank', 'depth', 'shape', 'stride', 'coshape', 'max_alignment', 'max_common_vector', 'coprofile'])}({X}{', ' + X if g.p(0.1) else ''})"
    if k == "print":
        return f"print_layout({X})"
    return X


TV_LAYOUTS = ["((_4,_8),(_2,_2)):((_32,_1),(_16,_8))", "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",
              "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", "(_32,_4):(_1,_32)", "((_8,_4),_8):((_8,_0),_1)",
              "(_32,(_2,_4)):(_2,(_1,_64))", "((_4,_32),_8):((_256,_1),_32)", "(_128,_16):(_1,_128)"]


def c_realistic(g):
    """GEMM-style layouts: power-of-two tiles, swizzled shared-memory atoms, thread-value layouts."""
    P = lambda *v: g.ch(list(v))
    st = g.p(0.75)
    n = lambda v: g.n(v, st if g.p(0.85) else not st)
    M, N, K = P(64, 128, 256), P(32, 64, 128), P(16, 32, 64)
    tile = f"<{n(P(8, 16, 32, 64))},{n(P(8, 16, 32))}>"
    gmem = P(f"({n(M)},{n(K)}):({n(K)},{n(1)})", f"({n(M)},{n(K)}):({n(1)},{n(M)})", f"make_layout(({n(M)},{n(N)}))",
             f"make_layout(({n(M)},{n(N)}), LayoutRight)", f"({n(M)},{n(N)}):({g.n(P(1024, 4096), False)},{n(1)})")
    atom = P("Sw<3,3,3> o (_8,_64):(_64,_1)", "Sw<2,3,3> o (_8,_32):(_32,_1)", "Sw<3,4,3> o (_8,_64):(_64,_1)",
             "Sw<1,3,3> o (_8,_16):(_16,_1)", "Sw<3,3,3> o (_64,_8):(_1,_64)", "Sw<2,4,3> o _0 o (_16,_64):(_64,_1)",
             "(_8,_64):(_64,_1)", "Sw<3,3,3> o _0 o (_8,(_8,_8)):(_64,(_1,_8))")
    tv = P(*TV_LAYOUTS)
    k = g.ch(["tts", "div", "tvcomp", "tvinv", "prod", "thr", "atomslice", "mnk", "recast", "misc"])
    if k == "tts":
        return f"tile_to_shape({atom}, ({n(M)},{n(K)}){P('', '', ', LayoutRight', ', (_1,_0)', ', GenColMajor')})"
    if k == "div":
        f = P("zipped_divide", "logical_divide", "tiled_divide", "flat_divide", "local_tile_like")
        if f == "local_tile_like":
            return f"zipped_divide({gmem}, {tile})({P('(_,_)', '(_,(0,1))', '((0,_),_)', '(_,1)', '(_,(1,_))')})" if False else f"A = zipped_divide({gmem}, {tile}); A({P('_,0', '_,(1,0)', '0,_', '(_,_),(1,1)', '_,(_,1)', '(1,_),_')})"
        return f"{f}({gmem}, {tile})"
    if k == "tvcomp":
        return P(f"composition({gmem}, {tv})", f"{tv} o {P('(_32,_32)', '<_16,_16>', '(_16,_8):(_1,_16)', '_64:_1')}",
                 f"zipped_divide({gmem}, {tile}) o ({tv}, _)" if False else f"composition(make_layout(({n(M)},{n(N)})), {tv})",
                 f"make_layout({tv}, {g.small(8)[0]})")
    if k == "tvinv":
        return P(f"right_inverse({tv})", f"left_inverse({tv})", f"coalesce({tv})", f"right_inverse({tv}) o {tv}",
                 f"{tv} o right_inverse({tv})", f"complement({tv}, {n(P(256, 512, 1024))})", f"filter({tv})",
                 f"make_layout({tv}, complement({tv}, {n(P(512, 1024))}))", f"max_common_vector({tv}, {tv})")
    if k == "prod":
        f = P("blocked_product", "raked_product", "logical_product", "zipped_product", "tiled_product")
        return f"{f}({P('(_2,_2):(_1,_2)', '(_4,_1):(_1,_0)', 'make_layout((_2,_4))', '(_32,_4):(_4,_1)', atom)}, {P('(_4,_8):(_8,_1)', 'make_layout((_2,_2,_1))', '(_1,_4):(_0,_1)', '(_2,_2):(_2,_1)')})"
    if k == "thr":
        thr = P("(_32,_4):(_4,_1)", "(_16,_8):(_8,_1)", "(_8,_16):(_1,_8)", "make_layout((_4,_8))")
        val = P("(_1,_8):(_8,_1)", "(_4,_1):(_1,_0)", "make_layout((_2,_2))", "(_1,_4)")
        return P(f"raked_product({thr}, {val})", f"right_inverse(raked_product({thr}, {val}))",
                 f"right_inverse(raked_product({thr}, {val})).with_shape(({n(128)},{n(8)}))" if False else
                 f"with_shape(right_inverse(raked_product({thr}, make_layout({val}))), ({n(P(128, 64))},_8))",
                 f"logical_divide(raked_product({thr}, {val}), <_16,_8>)")
    if k == "atomslice":
        return f"S = {atom}; S({P('_,0', '_,1', '3,_', '(_,_),_', '_,(_,1)', '1,2', '_,_3', '_1,_')})"
    if k == "mnk":
        return P(f"ceil_div(({g.n(M * 4, False)},{g.n(N * 4, False)}), (_{M},_{N}))", f"shape_div(({n(M)},{n(N)}), ({n(16)},{n(8)}))",
                 f"product_each(shape(zipped_divide({gmem}, {tile})))", f"size<1>(zipped_divide({gmem}, {tile}))",
                 f"shape(tiled_divide({gmem}, {tile}))", f"idx2crd({g.n(g.r.randrange(M * N), False)}, ({n(M)},{n(N)}))",
                 f"crd2idx(({g.n(g.r.randrange(M), False)},{g.n(g.r.randrange(N), False)}), ({n(M)},{n(N)}), ({n(1)},{n(M)}))")
    if k == "recast":
        return f"{P('upcast<2>', 'upcast<4>', 'downcast<2>', 'recast_layout<uint16_t,uint32_t>', 'recast_layout<uint32_t,uint16_t>', 'recast_layout<half_t,uint128_t>', 'recast_layout<uint8_t,uint128_t>')}({P(atom, gmem, tv)})"
    return P(f"max_alignment({gmem})", f"max_common_layout({gmem}, {gmem})", f"max_common_vector({atom}, {gmem})",
             f"coalesce(zipped_divide({gmem}, {tile}), (_1,_1))", f"get_nonswizzle_portion({atom})", f"cosize({atom})",
             f"print_layout({P('(_4,_8):(_8,_1)', tv if g.p(0.2) else 'Sw<1,1,2> o (_4,_8):(_8,_1)')})")


def c_hetero(g):
    """Generic tuple functions on heterogeneous values: tilers, swizzles, swizzled layouts and
    layouts inside tuples (CuTe's templates treat them as opaque elements or through `shape`)."""
    vals = [f"<{g.L(max_size=8, maxd=1)},{g.n(3)}>", f"<{g.n(2)},{g.L(max_size=16, maxd=1)}>", g.swz(1.0),
            g.composed(0)[0], g.L(max_size=16, maxd=1), g.itup(maxd=1)[0], f"<_,{g.n(2)}>"]
    x, y = g.ch(vals), g.ch(vals)
    f1 = ["size", "rank", "depth", "shape", "flatten", "get<0>", "get<1>", "take<0,1>", "select<1,0>", "reverse",
          "zip", "product_each", "wrap", "unwrap", "front", "back", "filter_zeros", "group<0,2>", "repeat<2>",
          "make_tile", "make_tuple", "size<1>", "rank<1>", "depth<1>", "shape<1>", "remove<0>", "get<1,0>"]
    f2 = ["append", "prepend", "congruent", "weakly_congruent", "compatible", "zip", "make_tuple", "insert<1>",
          "replace<0>", "replace<1>", "repeat_like", "slice", "dice", "crd2idx"]
    if g.p(0.5):
        return f"{g.ch(f1)}({x})"
    f = g.ch(f2)
    if f in ("slice", "dice", "crd2idx"):
        return f"{f}({g.ch(['_', '1', '(_,1)', '(1,_)', '_1'])}, {x})"
    return f"{f}({x}, {y})"


CATEGORIES = {
    "hetero": (c_hetero, 3),
    "realistic": (c_realistic, 12),
    "nest": (c_nest, 25),
    "construct": (c_construct, 6),
    "make_misc": (c_make_misc, 7),
    "coalesce": (c_coalesce, 4),
    "composition": (c_composition, 9),
    "complement": (c_complement, 5),
    "inverse": (c_inverse, 5),
    "common": (c_common, 3),
    "misc_alg": (c_misc_alg, 6),
    "divide": (c_divide, 8),
    "product": (c_product, 6),
    "tile_to_shape": (c_tile_to_shape, 3),
    "zip": (c_zip, 3),
    "structure": (c_structure, 7),
    "coord": (c_coord, 7),
    "eval": (c_eval, 7),
    "tuple_arith": (c_tuple_arith, 5),
    "tuple_tests": (c_tuple_tests, 3),
    "tuple_struct": (c_tuple_struct, 4),
    "swizzle": (c_swizzle, 7),
    "members": (c_members, 5),
    "print": (c_print, 3),
}


def generate(rng, n, categories=None, only=None):
    """n (category, expression) pairs from `categories` (default: this module's), optionally
    only the named ones."""
    categories = categories or CATEGORIES
    g = Full(rng)
    names = [c for c in categories if not only or c in only]
    weights = [categories[c][1] for c in names]
    out = []
    while len(out) < n:
        c = rng.choices(names, weights=weights)[0]
        try:
            e = categories[c][0](g)
        except (IndexError, ValueError):
            continue
        out.append((c, e))
    return out


# ---- mutation of CuTe's golden cases ---------------------------------------------------------

ATOM_NAMES = ("mma_", "make_tiled_mma", "partition_", "thrfrg_", "tile_shape", "UniversalFMA", "copy_",
              "make_tiled_copy", "retile_", "tidfrg_", "get_thr_layout", "_TV", "SM", "tiler_mn", "val_layout",
              "tiled_layout", "tile_size", "make_cotiled")


def golden_exprs(paths):
    import json
    out = []
    for p in paths:
        for line in open(p):
            if not line.strip():
                continue
            e = json.loads(line)["expr"]
            if not any(a in e for a in ATOM_NAMES):
                out.append(e)
    return out


def mutate(rng, e):
    """Toggle static-ness of integer literals, change some values; template arguments (after a
    name: `get<1>`, `Sw<3,3,3>`) are kept."""
    import re
    out, i = [], 0
    p_toggle = rng.choice([0.15, 0.3, 0.5])
    p_value = rng.choice([0.0, 0.1, 0.2])
    while i < len(e):
        m = re.match(r"[A-Za-z][A-Za-z0-9_]*<", e[i:])
        if m:  # a name with template arguments: copy to the matching '>'
            j = i + m.end()
            depth = 1
            while j < len(e) and depth:
                depth += {"<": 1, ">": -1}.get(e[j], 0)
                j += 1
            out.append(e[i:j])
            i = j
            continue
        m = re.match(r"[A-Za-z][A-Za-z0-9_]*", e[i:])
        if m:
            out.append(m.group())
            i += m.end()
            continue
        m = re.match(r"(_?)(-?\d+)", e[i:])
        if m:
            s, v = m.group(1) == "_", int(m.group(2))
            if rng.random() < p_value:
                v = rng.choice([0, 1, 1, 2, 2, 3, 4, 4, 6, 8, 8, 12, 16, 32, v * 2, max(v // 2, 1), -v])
            if rng.random() < p_toggle:
                s = not s
            out.append(f"_{v}" if s else f"{v}")
            i += m.end()
            continue
        out.append(e[i])
        i += 1
    return "".join(out)


def mutants(rng, n, paths):
    base = golden_exprs(paths)
    out = []
    while len(out) < n and base:
        e = rng.choice(base)
        m = mutate(rng, e)
        if m != e:
            out.append(("mutant", m))
    return out
