"""Extra categories for `scripts/difftest --gen extra`: the corners `--gen full` reaches
rarely or not at all.

- x_print: print_layout / print_latex of varied layouts (static/dynamic, nested, 1-D and 2-D,
  zero and negative strides, swizzled and composed layouts, results of functions);
- x_composed: composed layouts `Sw<..> o _k o L` (varied inner layouts, dynamic offsets, layouts
  as the outer function, composed inner layouts) through every function that takes one;
- x_tiler: tilers `<...>` mixing layouts, integers, shapes, nested tilers and `_` in every divide
  and product;
- x_big: big but legal values (near 2^31, 2^40, 2^62), sizes that overflow;
- x_deep: nesting of depth 4 and 5;
- x_mixed: one algebra function on a layout whose static-ness is toggled leaf by leaf;
- x_tuple: IntTuple arithmetic and predicates on mixed int/tuple, static/dynamic, zero/negative;
- x_make: make_layout with tags, make_ordered_layout, make_identity_layout and their results;
- x_members: the member-function forms on layouts and composed layouts.
"""
import random

from common import fmt
from gen_full import divisors, leaves, tmap, tsize
from gen_full import generate as full_generate


def mixlit(g, tree, p_static):
    return fmt(tmap(tree, lambda v: v if v == "_" else (v, g.p(p_static))))


def any_layout(g, max_size=256, maxd=3):
    pol = g.ch(["S", "D", "M", "SD", "DS"])
    return g.layout(max_size=max_size, maxd=maxd, pol=pol)


def inner_layout(g):
    """A layout to swizzle: 2-D row/col-major, 1-D, nested, dynamic, padded, odd sizes."""
    k = g.ch(["rowcol", "one", "nested", "rand", "three"], [35, 15, 20, 20, 10])
    st = g.p(0.7)
    n = lambda v: g.n(v, st if g.p(0.9) else not st)
    if k == "rowcol":
        r, c = g.ch([(8, 64), (8, 8), (4, 8), (16, 16), (2, 32), (8, 32), (32, 8), (4, 4)])
        return g.ch([(f"({n(r)},{n(c)}):({n(c)},{n(1)})", [r, c]), (f"({n(r)},{n(c)}):({n(1)},{n(r)})", [r, c])])
    if k == "one":
        v = g.ch([8, 16, 32, 64, 128, 256, 512])
        return f"{n(v)}:{n(g.ch([1, 1, 1, 2]))}", v
    if k == "nested":
        return g.ch([
            (f"({n(8)},({n(8)},{n(8)})):({n(8)},({n(1)},{n(64)}))", [8, [8, 8]]),
            (f"(({n(4)},{n(2)}),{n(16)}):(({n(16)},{n(64)}),{n(1)})", [[4, 2], 16]),
            (f"(({n(2)},{n(4)}),({n(2)},{n(4)})):(({n(1)},{n(4)}),({n(2)},{n(16)}))", [[2, 4], [2, 4]]),
            (f"({n(16)},({n(2)},{n(4)})):({n(4)},({n(1)},{n(64)}))", [16, [2, 4]]),
        ])
    if k == "three":
        return f"({n(4)},{n(4)},{n(4)}):({n(16)},{n(1)},{n(4)})", [4, 4, 4]
    return any_layout(g, max_size=512, maxd=2)


def composed_x(g):
    """(text, inner shape tree) of a composed layout with a varied inner layout."""
    L, s = inner_layout(g)
    k = g.ch(["sw", "sw_off", "sw_doff", "lay", "nested", "sw0"], [30, 25, 10, 12, 13, 10])
    sw = g.swz()
    if k == "sw":
        return f"{sw} o {L}", s
    if k == "sw_off":
        return f"{sw} o {g.n(g.ch([0, 0, 1, 4, 8, 16, 32, 64]), True)} o {L}", s
    if k == "sw_doff":
        return f"{sw} o {g.n(g.ch([0, 3, 8, 32]), False)} o {L}", s
    if k == "sw0":
        return f"Sw<0,{g.ch([0, 3, 4])},{g.ch([0, 3])}> o {g.ch(['', '_0 o '])}{L}", s
    if k == "lay":
        outer = g.ch(["(_4,_8):(_8,_1)", "_64:_2", "(8,8):(1,8)", "(_2,_32):(_32,_1)", "_128:_1", "(_4,(_2,_8)):(_2,(_1,_8))"])
        return f"{outer} o {g.n(g.ch([0, 0, 2, 4]))} o {L}", s
    return f"{sw} o {g.n(0, True)} o {g.swz()} o {g.n(g.ch([0, 0, 8]), True)} o {L}", s


def x_composed(g):
    X, s = composed_x(g)
    f = g.ch(["unary", "slice", "eval", "comp_r", "comp_l", "divide", "cast", "inverse", "with_shape", "tile",
              "coord", "product", "tts", "complement", "bind_chain", "print", "structure", "sao"],
             [14, 10, 8, 8, 5, 10, 8, 5, 6, 5, 6, 4, 3, 2, 4, 2, 6, 4])
    if f == "unary":
        u = g.ch(["size", "cosize", "shape", "stride", "rank", "depth", "coalesce", "filter", "flatten",
                  "make_fragment_like", "make_layout_like", "get_nonswizzle_portion", "get_swizzle_portion",
                  "max_alignment", "layout_a", "layout_b", "offset", "size<0>", "size<1>", "shape<0>", "rank<1>",
                  "layout<0>", "layout<1>", "get<0>", "coshape", "coprofile", "nullspace", "filter_zeros",
                  "make_ordered_layout", "domain_distribute"])
        if u == "domain_distribute":
            return f"coalesce({X}, {g.ch(['_1', '(_1,_1)', '(_1)'])})"
        return f"{u}({X})"
    if f == "slice":
        return f"S = {X}; S({g.crd_args(s, under=0.5, s=None)})"
    if f == "eval":
        return f"S = {X}; S({g.crd_args(s, s=None)})"
    if f == "comp_r":
        B = g.ch([g.tiler(s, ("tile", "shape", "layout", "int")), g.small(16)[0], g.L(max_size=64, maxd=2)])
        return g.ch([f"composition({X}, {B})", f"({X}) o {B}"])
    if f == "comp_l":
        A = g.ch(["(_4,_8):(_8,_1)", "_64:_1", "(8,8):(8,1)", g.L(max_size=512, maxd=1)])
        return g.ch([f"composition({A}, {X})", f"({A}) o ({X})", f"composition({g.swz()}, {X})"])
    if f == "divide":
        d = g.ch(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
        return f"{d}({X}, {g.tiler(s)})"
    if f == "cast":
        c = g.ch([f"upcast<{g.ch([1, 2, 4, 8])}>", f"downcast<{g.ch([1, 2, 4])}>",
                  f"recast_layout<{g.ch(['uint8_t', 'half_t', 'uint32_t', 'uint64_t'])},{g.ch(['uint8_t', 'uint16_t', 'float', 'uint128_t'])}>"])
        return f"{c}({X})"
    if f == "inverse":
        return f"{g.ch(['right_inverse', 'left_inverse'])}({X})"
    if f == "with_shape":
        n = tsize(s)
        t = g.ch([[n], [2, n // 2], [n // 4 or 1, 4], [[2, 2], n // 4 or 1], [n // 8 or 1, 2, 4]])
        return f"with_shape({X}, {g.itup(t)[0]})" if g.p(0.7) else f"with_shape({X}, {', '.join(g.n(v) for v in leaves(t))})"
    if f == "tile":
        return f"{g.ch(['tile', 'compose'])}({X}, {g.tiler(s, ('tile',))[1:-1]})"
    if f == "coord":
        m = g.ch(["get_hier_coord", "get_flat_coord", "get_1d_coord"])
        if m == "get_1d_coord":
            return f"{m}({X}, {g.crd(s, s=None)[0]})"
        return f"{m}({X}, {g.n(g.r.randrange(tsize(s)), g.p(0.4))})"
    if f == "product":
        p = g.ch(["logical_product", "blocked_product", "raked_product", "zipped_product", "tiled_product",
                  "flat_product"])
        return f"{p}({X}, {g.ch([g.small(8)[0], '(_2,_2)', '<_2,_1>', '_2:_1'])})"
    if f == "tts":
        n = tsize(s) if not isinstance(s, list) else tsize(s[0])
        return f"tile_to_shape({X}, ({g.n(64)},{g.n(64)}){g.ch(['', ', LayoutRight', ', (_1,_0)'])})"
    if f == "complement":
        return f"complement({X}{g.ch(['', ', _1024', ', 4096'])})"
    if f == "bind_chain":
        return f"S = {X}; T = {g.ch(['S(_,0)', 'logical_divide(S, <_2,_2>)', 'coalesce(S)', 'upcast<2>(S)', 'S o _8:_1'])}; {g.ch(['T', 'size(T)', 'T(1)', 'cosize(T)'])}"
    if f == "print":
        if isinstance(s, list) and len(s) == 2 and tsize(s) <= 256:
            return f"{g.ch(['print_layout', 'print_latex'])}({X})"
        return f"print_layout({X})"
    if f == "structure":
        t = g.ch(["select<1,0>", "take<0,1>", "group<0,2>", "append", "prepend", "replace<0>", "zip", "flatten",
                  "unflatten", "make_layout"])
        if t in ("append", "prepend", "make_layout"):
            return f"{t}({X}, {g.small(4)[0]})"
        if t == "replace<0>":
            return f"{t}({X}, {g.small(4)[0]})"
        if t == "unflatten":
            return f"unflatten({X}, (_1,_1))"
        return f"{t}({X})"
    return f"{g.ch(['slice_and_offset', 'domain_offset', 'slice', 'dice'])}({g.crd(s, under=0.4)[0]}, {X})"


def x_print(g):
    k = g.ch(["lay", "lay1", "lay3", "nested", "neg", "dyn", "composed", "result", "latex", "latex_c", "ident",
              "tile"], [15, 8, 4, 10, 8, 8, 10, 12, 12, 5, 4, 4])
    if k == "lay":
        shp = [g.ch([1, 2, 3, 4, 5, 8]), g.ch([1, 2, 3, 4, 6, 8])]
        return f"print_layout({g.layout(shape=shp)[0]})"
    if k == "lay1":
        return f"print_layout({g.layout(shape=g.ch([1, 4, 8, 16, [8], [[2, 4]], [[2, 2, 2]]]))[0]})"
    if k == "lay3":
        return f"print_layout({g.layout(shape=[2, 2, 2])[0]})"
    if k == "nested":
        shp = g.ch([[[2, 2], [2, 2]], [[2, 3], 4], [4, [2, 3]], [[2, [2, 2]], 2], [[2, 2], [[2, 2], 2]]])
        return f"print_layout({g.layout(shape=shp)[0]})"
    if k == "neg":
        shp = g.ch([[2, 4], [4, 4], [[2, 2], 3]])
        st = tmap(shp, lambda _: g.ch([-1, -2, -4, 0, 1, 8, -8, 3]))
        return f"print_layout({g.layout(shape=shp, stride=st)[0]})"
    if k == "dyn":
        shp = g.ch([[4, 8], [8, 4], [[2, 2], [2, 4]]])
        return f"print_layout({g.layout(shape=shp, pol=g.ch(['D', 'M', 'SD', 'DS']))[0]})"
    if k == "composed":
        X, s = composed_x(g)
        while not (isinstance(s, list) and len(s) == 2 and tsize(s) <= 256):
            X, s = composed_x(g)
        return f"print_layout({X})"
    if k == "result":
        A = g.L(max_size=32, maxd=2)
        f = g.ch(["coalesce({A})", "make_layout({A}, complement({A}, _32))", "logical_divide({A}, _2)",
                  "zipped_divide({A}, <_2,_2>)", "right_inverse({A})", "left_inverse({A})", "blocked_product({A}, (_2,_2):(_1,_2))",
                  "raked_product({A}, make_layout((_2,_2)))", "make_layout(shape({A}), LayoutRight)",
                  "tile_to_shape({A}, (_8,_8))", "logical_product({A}, _2:_1)", "select<0,0>({A})",
                  "upcast<2>({A})", "downcast<2>({A})", "filter({A})", "flatten({A})", "make_fragment_like({A})",
                  "with_shape({A}, (_2,_4))"])
        return f"print_layout({f.format(A=A)})"
    if k == "latex":
        shp = g.ch([[2, 2], [2, 4], 4, [[2, 2], 2], [3, 2], [4, [2, 2]], [1, 4], [8, 1], [2]])
        return f"print_latex({g.layout(shape=shp, pol=g.ch(['S', 'D', 'M']))[0]})"
    if k == "latex_c":
        X, s = composed_x(g)
        while not (isinstance(s, list) and len(s) == 2 and tsize(s) <= 64):
            X, s = composed_x(g)
        return f"print_latex({X})"
    if k == "ident":
        return f"{g.ch(['print_layout', 'print_latex'])}(make_identity_layout(({g.n(2)},{g.n(4)})))"
    return f"print_layout(make_layout(({g.n(g.ch([2, 4]))},{g.n(g.ch([2, 4]))}){g.ch(['', ', LayoutRight', ', LayoutLeft'])}))"


def tiler_mixed(g, shape, depth=0):
    """A tiler <...> whose items mix layouts, integers, shapes, nested tilers and `_`."""
    modes = shape if isinstance(shape, list) else [shape]
    k = g.r.randint(1, len(modes) + (1 if g.p(0.08) else 0))
    items = []
    for i in range(k):
        m = modes[i] if i < len(modes) else 2
        sz = tsize(m)
        c = g.ch(["under", "int", "lay", "laystr", "shape", "nest", "dynlay"], [15, 20, 20, 12, 12, 12 if depth < 2 else 0, 9])
        d = g.ch(divisors(sz)[:8]) if g.p(0.9) else g.ch([2, 3, 5])
        if c == "under":
            items.append("_")
        elif c == "int":
            items.append(g.n(d))
        elif c == "lay":
            items.append(f"{g.n(d)}:{g.n(g.ch([1, 1, 2]))}")
        elif c == "laystr":
            l, _ = g.layout(max_size=max(sz, 2), maxd=1, pol=g.ch(["S", "S", "D", "M"]))
            items.append(l)
        elif c == "dynlay":
            items.append(f"{d}:{g.ch([1, 2])}")
        elif c == "shape" and isinstance(m, list):
            items.append(fmt([(g.ch(divisors(tsize(e))[:4]), g.p(0.7)) for e in m]))
        elif c == "nest" and isinstance(m, list):
            items.append(tiler_mixed(g, m, depth + 1))
        else:
            items.append(g.n(d))
    return "<" + ",".join(items) + ">"


def x_tiler(g):
    A, s = g.layout(max_size=2048)
    if g.p(0.15):
        A, s = composed_x(g)
    f = g.ch(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "tile_unzip", "composition",
              "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product",
              "tile", "compose", "coalesce_div"], [12, 12, 10, 10, 5, 10, 8, 6, 5, 5, 6, 6, 4, 4, 3])
    if f in ("logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product"):
        A, s = g.layout(max_size=64, maxd=2)
        T = tiler_mixed(g, g.ch([s, [2, 2], [2, 3, 2], [4]]))
        return f"{f}({A}, {T})"
    T = tiler_mixed(g, s)
    if f in ("tile", "compose"):
        return f"{f}({A}, {T[1:-1]})"
    if f == "coalesce_div":
        return f"{g.ch(['coalesce', 'size', 'shape', 'rank'])}(zipped_divide({A}, {T}))"
    return f"{f}({A}, {T})"


# CuTe's static integers are `Int<int>` and dynamic literals that fit are `int`: results beyond
# 32 bits wrap in CuTe (cute computes in 64 bits and reports overflow only beyond 64), so the
# values here keep every result inside `int`, or use dynamic literals beyond 2^31 (C++ `long`)
# whose results stay inside 64 bits.
BIG = [1 << 14, 1 << 15, 1 << 16, 1 << 20, 3 << 20, 1 << 24, 1 << 26, 1000003]
LONG = [1 << 31, 1 << 32, 3 << 33, 1 << 40, 1 << 50, 5 << 55]


def x_big(g):
    b = g.ch(BIG)
    q = (1 << 30) // b  # b * q <= 2^30
    small = lambda: g.ch([v for v in (1, 2, 4, 8, 16, 64, 3, 5) if v <= q] or [1])
    n = lambda v: g.n(v, g.p(0.4))
    k = g.ch(["size", "lay", "eval", "tuple", "comp", "div", "coalesce", "cosize", "idx2crd", "crd2idx", "ceil",
              "make", "compl", "long", "long_lay", "rinv", "print"])
    if k == "size":
        return f"{g.ch(['size', 'product', 'cosize'])}(({n(b)},{n(small())}))"
    if k == "lay":
        return f"({n(b)},{n(small())}):({n(1)},{n(b)})"
    if k == "eval":
        c = small()
        return f"A = ({n(b)},{n(c)}):({n(1)},{n(b)}); A({n(g.ch([b - 1, 3, 1]))},{n(g.r.randrange(c))})"
    if k == "tuple":
        f = g.ch(["product", "sum", "ceil_div", "shape_div", "elem_scale", "inner_product", "max", "gcd", "round_up",
                  "compact_col_major", "compact_row_major", "product_each", "evenly_divides", "weakly_congruent"])
        a = f"({n(b)},{n(small())})"
        if f in ("product", "sum", "compact_col_major", "compact_row_major", "product_each"):
            return f"{f}({a})"
        return f"{f}({a}, ({n(g.ch([2, 4, b]) if f not in ('elem_scale', 'inner_product') else small())},{n(g.ch([1, 3, 7]))}))"
    if k == "comp":
        return f"composition(({n(b)},{n(4)}):({n(4)},{n(1)}), {n(g.ch([2, 4, 1024]))}:{n(g.ch([1, 2]))})"
    if k == "div":
        return f"{g.ch(['logical_divide', 'zipped_divide', 'tiled_divide'])}({n(b)}:{n(1)}, {n(g.ch([2, 1024, 16384]))})"
    if k == "coalesce":
        c = small()
        return f"coalesce(({n(b)},{n(c)},{n(2)}):({n(1)},{n(b)},{n(b * c)}))"
    if k == "cosize":
        return f"cosize(({n(b)},{n(2)}):({n(1)},{n(b)}))"
    if k == "idx2crd":
        return f"idx2crd({n(b - 1)}, ({n(g.ch([1024, 16384]))},{n(b)}))"
    if k == "crd2idx":
        return f"crd2idx(({n(b - 1)},{n(1)}), ({n(b)},{n(small())}))"
    if k == "ceil":
        return f"{g.ch(['ceil_div', 'shape_div', 'round_up'])}({n(b)}, {n(g.ch([3, 7, b - 1 or 1, 2 * b]))})"
    if k == "make":
        return f"make_layout(({n(b)},{n(small())}){g.ch(['', ', LayoutRight'])})"
    if k == "compl":
        return f"complement({n(g.ch([4, 1024]))}:{n(1)}, {n(b)})"
    if k == "rinv":
        return f"{g.ch(['right_inverse', 'left_inverse', 'coalesce'])}(({n(b)},{n(small())}):({n(small())},{n(b)}))"
    if k == "print":
        return f"print_layout(({n(2)},{n(2)}):({n(b)},{n(1)}))"
    L = g.ch(LONG)
    if k == "long":
        return f"{g.ch(['size', 'product', 'sum'])}(({L},{g.ch([1, 2, 3])}))"
    return g.ch([f"A = ({L},4):(1,{L}); A(5,3)", f"coalesce(({L},2):(1,{L}))", f"crd2idx(({L - 1},1), ({L},2))",
                 f"idx2crd({L + 3}, ({L},4))", f"ceil_div({L}, 3)", f"make_layout(({L},2), LayoutRight)"])


def deep_shape(g, d=0, maxd=5):
    if d < maxd and g.p([0.95, 0.85, 0.75, 0.65, 0.5][d]):
        return [deep_shape(g, d + 1, maxd) for _ in range(g.ch([1, 2, 2, 1] if d > 1 else [1, 2, 2, 3]))]
    return g.ch([1, 2, 2, 2, 3, 4])


def x_deep(g):
    for _ in range(30):
        s = deep_shape(g)
        if tsize(s) <= 4096 and 4 <= depth_of(s) <= 5:
            break
    A, _ = g.layout(shape=s)
    sh, st = A.split(":", 1)
    k = g.ch(["coalesce", "comp", "compcoal", "ldiv", "zdiv", "prod", "flatten", "depth", "crd", "idx2crd",
              "slice", "rinv", "linv", "compl", "filter", "get", "tuple", "cprof", "mcl", "with_shape", "print"])
    if k == "coalesce":
        return f"coalesce({A})"
    if k == "comp":
        return f"composition({A}, {g.small(16)[0]})"
    if k == "compcoal":
        return f"composition({g.L(max_size=4096, maxd=1)}, {A})"
    if k == "ldiv":
        return f"logical_divide({A}, {tiler_mixed(g, s)})"
    if k == "zdiv":
        return f"zipped_divide({A}, {g.tiler(s)})"
    if k == "prod":
        return f"{g.ch(['logical_product', 'blocked_product', 'raked_product'])}({A}, {g.small(4)[0]})"
    if k == "flatten":
        return f"{g.ch(['flatten', 'filter_zeros', 'make_fragment_like', 'make_layout_like', 'make_ordered_layout'])}({A})"
    if k == "depth":
        return f"{g.ch(['depth', 'rank', 'size', 'cosize', 'shape', 'coshape', 'depth<0>', 'rank<0>', 'shape<0,0>', 'get<0,0,0>'])}({A})"
    if k == "crd":
        c, _ = g.crd(s, s=None)
        return f"crd2idx({c}, {sh}, {st})"
    if k == "idx2crd":
        return f"idx2crd({g.n(g.r.randrange(tsize(s)))}, {sh})"
    if k == "slice":
        return f"A = {A}; A({g.crd_args(s, under=0.5, s=None)})"
    if k == "rinv":
        return f"right_inverse({A})"
    if k == "linv":
        return f"left_inverse({A})"
    if k == "compl":
        return f"complement({A}{g.ch(['', ', _4096', ', 8192'])})"
    if k == "filter":
        return f"filter({A})"
    if k == "get":
        return f"get_hier_coord({A}, {g.n(g.r.randrange(tsize(s)))})"
    if k == "tuple":
        f = g.ch(["congruent", "weakly_congruent", "compatible", "ceil_div", "shape_div", "elem_scale", "product_each",
                  "zip", "unflatten", "flatten", "compact_col_major", "compact_row_major", "inner_product"])
        o = g.itup(tmap(s, lambda _: g.ch([1, 2, 4])))[0]
        if f == "product_each":
            return f"product_each({sh})"
        if f == "unflatten":
            return f"unflatten(flatten({sh}), {fmt(tmap(s, lambda _: (0, True)))})"
        if f in ("flatten", "compact_col_major", "compact_row_major"):
            return f"{f}({sh})"
        if f == "zip":
            return f"zip({sh})"
        return f"{f}({sh}, {o})"
    if k == "cprof":
        return f"coalesce({A}, {fmt(tmap(s if g.p(0.5) else s[:1], lambda _: (1, True)))})"
    if k == "mcl":
        return f"{g.ch(['max_common_layout', 'max_common_vector'])}({A}, make_layout({sh}))"
    if k == "with_shape":
        return f"with_shape({A}, ({g.n(2)},{g.n(tsize(s) // 2 or 1)}))"
    return f"print_layout(flatten(coalesce({A})))" if g.p(0.5) else f"print_layout(({A}, _))" if False else f"print_layout(group<0,{min(2, len(s))}>({A}))"


def depth_of(t):
    if isinstance(t, list):
        return 1 + max([depth_of(e) for e in t] or [0])
    return 0


def x_mixed(g):
    A, s = g.layout(max_size=512, maxd=3, pol="M")
    f = g.ch(["coalesce", "composition", "composition2", "complement", "right_inverse", "left_inverse",
              "logical_divide", "zipped_divide", "logical_product", "blocked_product", "raked_product", "filter",
              "max_common_layout", "max_common_vector", "upcast<2>", "downcast<2>", "make_layout_like",
              "make_fragment_like", "make_ordered_layout", "tile_to_shape", "nullspace", "cosize", "size", "with_shape",
              "eval", "slice", "flat_product", "tiled_divide"])
    if f in ("coalesce", "right_inverse", "left_inverse", "filter", "upcast<2>", "downcast<2>", "make_layout_like",
             "make_fragment_like", "make_ordered_layout", "nullspace", "cosize", "size"):
        return f"{f}({A})"
    if f == "composition":
        B, _ = g.layout(max_size=min(tsize(s), 64), maxd=2, pol="M")
        return f"composition({A}, {B})"
    if f == "composition2":
        B, _ = g.layout(max_size=256, maxd=2, pol="M")
        return f"composition({B}, {A})"
    if f == "complement":
        return f"complement({A}{g.ch(['', ', ' + g.n(g.ch([64, 256, 1024]))])})"
    if f in ("logical_divide", "zipped_divide", "tiled_divide"):
        return f"{f}({A}, {g.tiler(s)})"
    if f in ("logical_product", "blocked_product", "raked_product", "flat_product"):
        A, s = g.layout(max_size=64, maxd=2, pol="M")
        return f"{f}({A}, {g.layout(max_size=8, maxd=1, pol='M')[0]})"
    if f in ("max_common_layout", "max_common_vector"):
        return f"{f}({A}, {g.layout(shape=s, pol='M')[0]})"
    if f == "tile_to_shape":
        B, _ = g.layout(max_size=16, maxd=1, pol="M")
        return f"tile_to_shape({B}, ({g.n(32)},{g.n(32)}))"
    if f == "with_shape":
        return f"with_shape({A}, ({g.n(2)},{g.n(tsize(s) // 2 or 1)}))"
    if f == "eval":
        return f"A = {A}; A({g.crd_args(s, s=None)})"
    return f"A = {A}; A({g.crd_args(s, under=0.5, s=None)})"


def x_tuple(g):
    def tup():
        k = g.ch(["int", "flat", "nest"], [30, 40, 30])
        vals = (0, 1, 2, 3, 4, 6, 8, 16, -2, -3)
        if k == "int":
            return g.n(g.ch(vals)), g.ch(vals)
        if k == "flat":
            t = [g.ch(vals) for _ in range(g.ch([1, 2, 2, 3]))]
        else:
            t = g.ituple_tree(vals=vals)
        return mixlit(g, t, g.ch([0.0, 0.5, 1.0])), t

    def like(t):
        k = g.ch(["same", "int", "other", "prefix"], [50, 20, 15, 15])
        vals = (1, 2, 3, 4, 8, 0, -2)
        if k == "same":
            return mixlit(g, tmap(t, lambda _: g.ch(vals)), g.ch([0.0, 0.5, 1.0]))
        if k == "int":
            return g.n(g.ch(vals))
        if k == "prefix" and isinstance(t, list) and t:
            return mixlit(g, tmap(t[: max(1, len(t) - 1)], lambda _: g.ch(vals)), 0.5)
        return tup()[0]

    a, t = tup()
    b = like(t)
    f = g.ch(["shape_div", "ceil_div", "elem_scale", "round_up", "inner_product", "max", "min", "gcd",
              "congruent", "weakly_congruent", "compatible", "evenly_divides", "lex_less",
              "colex_less", "elem_less", "product_like", "product", "sum", "size", "product_each", "abs",
              "compact_col_major", "compact_row_major", "crd2idx", "idx2crd", "repeat_like", "zip2", "append",
              "prepend", "flatten", "unwrap", "wrap", "reverse"])
    if f in ("product", "sum", "size", "product_each", "abs", "compact_col_major", "compact_row_major", "flatten",
             "unwrap", "wrap", "reverse"):
        return f"{f}({a})"
    if f == "zip2":
        return f"zip({a}, {b})"
    if f in ("crd2idx", "idx2crd"):
        return f"{f}({b}, {a})"
    return f"{f}({a}, {b})"


def x_make(g):
    k = g.ch(["tag", "tag_int", "tag_nest", "ordered", "ordered_L", "ordered_int", "ident", "ident_f", "cat",
              "shape_stride", "layout_int_stride", "gen", "like_frag"], [12, 5, 10, 14, 5, 5, 8, 12, 8, 6, 5, 4, 6])
    tag = lambda: g.ch(["LayoutLeft", "LayoutRight", "GenColMajor", "GenRowMajor"])
    if k == "tag":
        sh, t = g.shape_lit(maxd=2, max_size=1024)
        return f"make_layout({mixlit(g, tmap(t, lambda v: v), g.ch([0.0, 0.5, 1.0]))}, {tag()})"
    if k == "tag_int":
        return f"make_layout({g.n(g.ch([1, 4, 7, 16]))}, {tag()})"
    if k == "tag_nest":
        t = g.ch([[[2, 1], [1, 4]], [1, [2, [1, 3]]], [[1]], [1, 1], [[2, 2], 1, [3]], [4, [1, 1], 2]])
        return f"make_layout({mixlit(g, t, g.ch([0.0, 0.5, 1.0]))}, {tag()})"
    if k == "ordered":
        t = g.shape(maxd=2, max_size=1024)
        lv = leaves(t)
        k2 = g.ch(["perm", "dup", "int", "nest", "neg"])
        if k2 == "perm":
            p = list(range(len(lv)))
            g.r.shuffle(p)
        elif k2 == "dup":
            p = [g.r.randrange(3) for _ in lv]
        elif k2 == "neg":
            p = [g.ch([-1, 0, 1, 5]) for _ in lv]
        else:
            p = None
        if p is None:
            o = g.r.randrange(3) if k2 == "int" else g.ituple_tree(vals=(0, 1, 2))
        else:
            it = iter(p)
            o = tmap(t, lambda _: next(it))
        return f"make_ordered_layout({mixlit(g, t, g.ch([0.0, 0.5, 1.0]))}, {mixlit(g, o, g.ch([0.0, 1.0, 0.5]))})"
    if k == "ordered_L":
        return f"make_ordered_layout({any_layout(g, 1024)[0]})"
    if k == "ordered_int":
        return f"make_ordered_layout({g.n(g.ch([4, 8]))}, {g.n(g.ch([0, 1]))})"
    if k == "ident":
        t = g.shape(maxd=g.ch([1, 2, 3]), max_size=1024)
        return f"make_identity_layout({mixlit(g, t, g.ch([0.0, 0.5, 1.0]))})"
    if k == "ident_f":
        t = g.shape(maxd=2, max_size=256)
        sh = mixlit(g, t, g.ch([0.0, 0.5, 1.0]))
        f = g.ch(["I({c})", "size(I)", "coalesce(I)", "composition(I, {T})", "logical_divide(I, {T})",
                  "zipped_divide(I, {T})", "I(_,0)" if isinstance(t, list) and len(t) == 2 else "I(_)", "flatten(I)",
                  "get<0>(I)", "layout<0>(I)", "stride(I)", "shape(I)", "cosize(I)", "coshape(I)",
                  "filter(I)", "select<0>(I)", "make_fragment_like(I)", "append(I, _2:_1)", "I o {T}",
                  "get_hier_coord(I, {i})", "crd2idx({c}, shape(I), stride(I))", "blocked_product(I, (_2,_1):(_1,_0))" if False else "size<0>(I)",
                  "depth(I)", "rank(I)", "make_layout(I, I)", "tiled_divide(I, {T})", "flat_divide(I, {T})"])
        return f"I = make_identity_layout({sh}); " + f.format(c=g.crd_args(t) if "I(" in f else g.crd(t)[0],
                                                               T=g.tiler(t, ("tile", "shape", "layout")),
                                                               i=g.n(g.r.randrange(tsize(t))))
    if k == "cat":
        return "make_layout(" + ", ".join(g.ch([g.L(max_size=16, maxd=2), f"make_layout({g.n(4)})",
                                                 f"make_layout(({g.n(2)},{g.n(2)}), LayoutRight)", g.composed()[0] if False else g.L(max_size=8)])
                                       for _ in range(g.r.randint(1, 5))) + ")"
    if k == "shape_stride":
        a = g.shape(maxd=2, max_size=256)
        b = g.ch([tmap(a, lambda _: g.ch([0, 1, 2, 4])), g.ch([0, 1, 2]), g.ituple_tree(vals=(0, 1, 4))])
        return f"make_layout({mixlit(g, a, 0.5)}, {mixlit(g, b, 0.5)})"
    if k == "layout_int_stride":
        return f"make_layout({g.n(g.ch([1, 4, 8]))}, {g.n(g.ch([0, 1, 2, -1]))})"
    if k == "gen":
        return f"{g.ch(['compact_col_major', 'compact_row_major'])}({mixlit(g, g.shape(maxd=2, max_size=256), 0.5)}{g.ch(['', ', ' + g.n(g.ch([0, 1, 3]))])})"
    return f"{g.ch(['make_layout_like', 'make_fragment_like'])}({any_layout(g, 512)[0]})"


def x_members(g):
    if g.p(0.3):
        A, s = composed_x(g)
    else:
        A, s = any_layout(g, 1024)
    k = g.ch(["with_shape", "with_shape_v", "compose", "tile", "hier", "flat", "1d", "offs"], [18, 12, 15, 15, 12, 12, 12, 4])
    n = tsize(s)
    if k == "with_shape":
        t = g.ch([[n], leaves(s), s, [2, n // 2 or 1], [[2, 2], n // 4 or 1], [n // 2 or 1, [2]], 8, [4, 4, 4]])
        return f"with_shape({A}, {mixlit(g, t, g.ch([0.0, 0.5, 1.0])) if isinstance(t, list) else g.n(t)})"
    if k == "with_shape_v":
        return f"with_shape({A}, {', '.join(g.n(v) for v in g.ch([[2, n // 2 or 1], [n], [n // 4 or 1, 2, 2], [1, n]]))})"
    if k in ("compose", "tile"):
        modes = s if isinstance(s, list) else [s]
        items = [g.ch(["_", g.n(g.ch(divisors(tsize(m))[:5])), f"{g.n(g.ch(divisors(tsize(m))[:4]))}:{g.n(g.ch([1, 2]))}"])
                 for m in modes[: g.r.randint(1, len(modes))]]
        return f"{k}({A}, {', '.join(items)})"
    if k == "hier":
        return f"get_hier_coord({A}, {g.n(g.r.randrange(n + 1), g.p(0.4))})"
    if k == "flat":
        return f"get_flat_coord({A}, {g.n(g.r.randrange(n + 1), g.p(0.4))})"
    if k == "1d":
        return f"get_1d_coord({A}, {g.crd(s, s=None)[0]})"
    return f"{g.ch(['layout_a', 'layout_b', 'offset'])}({A})"


def wrap_tree(g, t, p_wrap=0.2, p_empty=0.08):
    """Structural mutation of a shape tree: wrap leaves/modes in 1-tuples, insert empty modes."""
    if isinstance(t, list):
        out = [wrap_tree(g, e, p_wrap, p_empty) for e in t]
        if g.p(p_empty):
            out.insert(g.r.randrange(len(out) + 1), [])
        t = out
    if g.p(p_wrap):
        return [t]
    return t


def x_wrap(g):
    """Layouts with 1-tuple wrappers and empty modes through the algebra."""
    s = wrap_tree(g, g.shape(max_size=512, maxd=2))
    A, _ = g.layout(shape=s)
    f = g.ch(["coalesce", "composition", "composition_r", "complement", "right_inverse", "left_inverse",
              "logical_divide", "zipped_divide", "logical_product", "blocked_product", "filter", "flatten", "size",
              "cosize", "rank", "depth", "eval", "slice", "max_common_vector", "upcast<2>", "downcast<2>",
              "make_fragment_like", "make_ordered_layout", "with_shape", "get_hier_coord", "print_layout",
              "crd2idx", "idx2crd", "coalesce_p", "filter_zeros", "make_layout_like"])
    n = tsize(s)
    if f in ("coalesce", "right_inverse", "left_inverse", "filter", "flatten", "size", "cosize", "rank", "depth",
             "upcast<2>", "downcast<2>", "make_fragment_like", "make_ordered_layout", "filter_zeros",
             "make_layout_like", "complement"):
        return f"{f}({A})"
    if f == "composition":
        return f"composition({A}, {g.layout(shape=wrap_tree(g, g.shape(max_size=min(n, 32), maxd=1)))[0]})"
    if f == "composition_r":
        return f"composition({g.L(max_size=1024, maxd=1)}, {A})"
    if f in ("logical_divide", "zipped_divide"):
        return f"{f}({A}, {g.tiler(s)})"
    if f in ("logical_product", "blocked_product"):
        return f"{f}({A}, {g.layout(shape=wrap_tree(g, g.shape(max_size=8, maxd=1)))[0]})"
    if f == "eval":
        return f"A = {A}; A({g.crd_args(s, s=None)})"
    if f == "slice":
        return f"A = {A}; A({g.crd_args(s, under=0.5, s=None)})"
    if f == "max_common_vector":
        return f"max_common_vector({A}, make_layout(shape({A})))"
    if f == "with_shape":
        return f"with_shape({A}, {g.itup(wrap_tree(g, [2, n // 2 or 1]))[0]})"
    if f == "get_hier_coord":
        return f"get_hier_coord({A}, {g.n(g.r.randrange(max(n, 1)))})"
    if f == "print_layout":
        return f"print_layout({A})"
    if f == "crd2idx":
        return f"crd2idx({g.crd(s)[0]}, shape({A}), stride({A}))"
    if f == "idx2crd":
        return f"idx2crd({g.n(g.r.randrange(max(n, 1)))}, shape({A}))"
    return f"coalesce({A}, {fmt(tmap(s, lambda _: (1, True)))})"


def x_hslice(g):
    """Evaluation and slicing of computed layouts with hierarchical coordinates and `_` at any
    level, wrong-rank coordinates, static and dynamic coordinates."""
    X, xs = g.ch([lambda: g.layout(max_size=1024), lambda: composed_x(g)])()
    k = g.ch(["deep", "wrong", "res", "doff", "sao"], [45, 10, 25, 10, 10])
    if k == "deep":
        return f"A = {X}; A({g.crd_args(xs, under=g.ch([0.2, 0.5, 0.8]), s=None)})"
    if k == "wrong":
        extra = g.ch(["0", "_", "(0,0)", "1,1"])
        return f"A = {X}; A({g.crd_args(xs, under=0.3, s=None)},{extra})"
    if k == "res":
        Y, ys = g.layout(max_size=256)
        f = g.ch([f"zipped_divide({Y}, {g.tiler(ys, ('tile', 'shape'))})", f"logical_product({Y}, {g.small(8)[0]})",
                  f"blocked_product({Y}, {g.small(8)[0]})", f"tiled_divide({Y}, {g.tiler(ys, ('tile', 'shape'))})"])
        c = g.ch(["_,0", "0,_", "_,_", "(_,0),_", "_,(0,_)", "(0,_),(_,0)", "_,1", "1", "_", "(1,1),0", "_,_,0"])
        return f"A = {f}; A({c})"
    c, _ = g.crd(xs, under=0.3 if k == "sao" else 0.0)
    return f"{'domain_offset' if k == 'doff' else 'slice_and_offset'}({c}, {X})"


CATEGORIES = {
    "x_print": (x_print, 12),
    "x_composed": (x_composed, 22),
    "x_tiler": (x_tiler, 14),
    "x_big": (x_big, 5),
    "x_deep": (x_deep, 10),
    "x_mixed": (x_mixed, 10),
    "x_tuple": (x_tuple, 10),
    "x_make": (x_make, 9),
    "x_members": (x_members, 8),
    "x_wrap": (x_wrap, 12),
    "x_hslice": (x_hslice, 10),
}


def generate(rng, n, only=None):
    return full_generate(rng, n, CATEGORIES, only)

