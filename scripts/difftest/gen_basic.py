"""The first generators (`--gen algebra`: the core operations on random layouts; `--gen wide`:
tuples, coordinates, casts, swizzles, composed layouts, printing)."""
from common import num

VALS = [1, 2, 3, 4, 6, 8, 12, 16]
STRIDES = [0, 1, 2, 3, 4, 6, 8, 12, 16, 32]


class Gen:
    def __init__(self, rng):
        self.r = rng

    def static(self):
        return self.r.random() < self.p_static

    def num(self, v, s=None):
        return num(v, self.static() if s is None else s)

    def shape_tree(self, depth=0):
        r = self.r
        if depth < 2 and r.random() < (0.55 if depth == 0 else 0.25):
            return [self.shape_tree(depth + 1) for _ in range(r.randint(1, 3))]
        return r.choice(VALS[:6] if depth else VALS)

    def fmt(self, tree, leaf):
        if isinstance(tree, list):
            return "(" + ",".join(self.fmt(t, leaf) for t in tree) + ")"
        return leaf(tree)

    @staticmethod
    def leaves(tree):
        if isinstance(tree, list):
            return [x for t in tree for x in Gen.leaves(t)]
        return [tree]

    def layout(self, compact_prob=0.3, max_size=4096):
        r = self.r
        self.p_static = r.choice([0.0, 1.0, 1.0, 0.5])
        for _ in range(20):
            shape = self.shape_tree()
            size = 1
            for v in self.leaves(shape):
                size *= v
            if size <= max_size:
                break
        if r.random() < compact_prob:
            # compact strides (column-major) or a permutation of them
            lv = self.leaves(shape)
            strides, acc = [], 1
            for v in lv:
                strides.append(acc)
                acc *= v
            if r.random() < 0.5:
                r.shuffle(strides)
            it = iter(strides)
            stride = self.map(shape, lambda _: next(it))
        else:
            stride = self.map(shape, lambda _: r.choice(STRIDES))
        s = self.fmt(shape, lambda v: self.num(v))
        d = self.fmt(stride, lambda v: self.num(v))
        return f"{s}:{d}", shape

    def map(self, tree, f):
        if isinstance(tree, list):
            return [self.map(t, f) for t in tree]
        return f(tree)

    def tiler(self, shape):
        """A tiler for a layout of the given shape tree: a layout, a shape, or <...> per mode."""
        r = self.r
        modes = shape if isinstance(shape, list) else [shape]
        k = r.choice(["layout", "tile", "shape"])
        if k == "layout":
            return self.small_layout()
        items = []
        for m in modes[: r.randint(1, len(modes))]:
            sz = 1
            for v in self.leaves(m):
                sz *= v
            divs = [d for d in VALS if sz % d == 0] or [1]
            d = r.choice(divs)
            if k == "tile":
                c = r.random()
                if c < 0.2:
                    items.append("_")
                elif c < 0.6:
                    items.append(f"{self.num(d)}:{self.num(r.choice([1, 1, 2]))}")
                else:
                    items.append(self.num(d))
            else:
                items.append(self.num(d))
        if k == "tile":
            return "<" + ",".join(items) + ">"
        return "(" + ",".join(items) + ")" if len(items) > 1 else items[0]

    def small_layout(self):
        r = self.r
        n = r.randint(1, 2)
        sh = [r.choice([1, 2, 3, 4, 8]) for _ in range(n)]
        st = [r.choice([1, 2, 3, 4, 8]) for _ in range(n)]
        if n == 1:
            return f"{self.num(sh[0])}:{self.num(st[0])}"
        return "(" + ",".join(self.num(x) for x in sh) + "):(" + ",".join(self.num(x) for x in st) + ")"

    def case(self, ops=None):
        r = self.r
        L, shape = self.layout()
        op = r.choice(ops or OPS)
        return op(self, L, shape)


def idx_in(shape):
    size = 1
    for v in Gen.leaves(shape):
        size *= v
    return size


OPS = [
    lambda g, L, s: f"coalesce({L})",
    lambda g, L, s: f"coalesce({L}, {g.fmt(s if isinstance(s, list) else [s], lambda v: '_1')})",
    lambda g, L, s: f"composition({L}, {g.small_layout()})",
    lambda g, L, s: f"{L} o {g.tiler(s)}",
    lambda g, L, s: f"complement({L}, {g.num(g.r.choice([16, 24, 32, 64, 128, 256, 1024]))})",
    lambda g, L, s: f"complement({L})",
    lambda g, L, s: f"right_inverse({L})",
    lambda g, L, s: f"left_inverse({L})",
    lambda g, L, s: f"logical_divide({L}, {g.tiler(s)})",
    lambda g, L, s: f"zipped_divide({L}, {g.tiler(s)})",
    lambda g, L, s: f"tiled_divide({L}, {g.tiler(s)})",
    lambda g, L, s: f"flat_divide({L}, {g.tiler(s)})",
    lambda g, L, s: f"logical_product({L}, {g.small_layout()})",
    lambda g, L, s: f"blocked_product({L}, {g.small_layout()})",
    lambda g, L, s: f"raked_product({L}, {g.small_layout()})",
    lambda g, L, s: f"zipped_product({L}, {g.small_layout()})",
    lambda g, L, s: f"size({L})",
    lambda g, L, s: f"cosize({L})",
    lambda g, L, s: f"depth({L})",
    lambda g, L, s: f"flatten({L})",
    lambda g, L, s: f"filter({L})",
    lambda g, L, s: f"filter_zeros({L})",
    lambda g, L, s: f"max_common_vector({L}, {L})",
    lambda g, L, s: f"max_common_layout({L}, {L})",
    lambda g, L, s: f"nullspace({L})",
    lambda g, L, s: f"A = {L}; A({g.r.randrange(idx_in(s))})",
    lambda g, L, s: f"A = {L}; A({g.num(g.r.randrange(idx_in(s)))})",
    lambda g, L, s: f"idx2crd({g.r.randrange(idx_in(s))}, shape({L}))",
    lambda g, L, s: f"upcast<2>({L})",
    lambda g, L, s: f"downcast<2>({L})",
    lambda g, L, s: f"make_layout(shape({L}), LayoutRight)",
    lambda g, L, s: f"make_fragment_like({L})",
    lambda g, L, s: f"ceil_div(shape({L}), {g.num(g.r.choice([2, 3, 4]))})",
    lambda g, L, s: f"product_each(shape({L}))",
    lambda g, L, s: f"tile_to_shape({g.small_layout()}, {g.fmt([g.r.choice([8, 16, 24]), g.r.choice([8, 16])], lambda v: g.num(v))})",
    lambda g, L, s: f"Sw<{g.r.randint(1,3)},{g.r.randint(0,4)},{g.r.randint(3,4)}>({g.num(g.r.randrange(0, 2048))})",
    lambda g, L, s: f"S = Sw<3,3,3> o (_8,_64):(_64,_1); S({g.r.randrange(8)},{g.r.randrange(64)})",
    lambda g, L, s: f"print_layout({g.small_layout()})",
]


def rtuple(g, depth=0, vals=(1, 2, 3, 4, 6, 8)):
    """A random IntTuple (mixed static/dynamic)."""
    r = g.r
    if depth < 2 and r.random() < (0.6 if depth == 0 else 0.25):
        return "(" + ",".join(rtuple(g, depth + 1, vals) for _ in range(r.randint(1, 3))) + ")"
    return g.num(r.choice(vals))


def rswz(g):
    r = g.r
    b = r.randint(0, 3)
    m = r.randint(0, 4)
    s = r.choice([b, b + 1, b + 2, 3, 4, -b - 1, -3]) if b else r.choice([0, 1, 3])
    if abs(s) < b:
        s = b
    return f"Sw<{b},{m},{s}>"


def rcomposed(g):
    r = g.r
    rows, cols = r.choice([(8, 64), (8, 32), (4, 8), (8, 8), (16, 64), (4, 4)])
    st = r.random() < 0.8
    n = lambda v: g.num(v, st)
    lay = r.choice([f"({n(rows)},{n(cols)}):({n(cols)},{n(1)})", f"({n(rows)},{n(cols)}):({n(1)},{n(rows)})"])
    return f"{rswz(g)} o {lay}", rows, cols


WIDE_OPS = [
    lambda g, L, s: f"{g.r.choice(['ceil_div','shape_div','elem_scale','round_up','inner_product'])}({rtuple(g)}, {rtuple(g)})",
    lambda g, L, s: f"{g.r.choice(['congruent','weakly_congruent','compatible','weakly_compatible','evenly_divides','lex_less','colex_less','elem_less'])}({rtuple(g)}, {rtuple(g)})",
    lambda g, L, s: f"{g.r.choice(['sum','product','max','min','gcd','flatten','reverse','product_each','compact_col_major','compact_row_major','wrap','unwrap','front','back','size','rank','depth'])}({rtuple(g)})",
    lambda g, L, s: f"{g.r.choice(['get<0>','get<1>','layout<0>','layout<1>','select<1,0>','take<0,1>','take<0,2>','group<0,2>','size<0>','rank<1>','shape<0>','stride<1>','remove<0>'])}({L})",
    lambda g, L, s: f"append({L}, {g.small_layout()})",
    lambda g, L, s: f"prepend({L}, {g.small_layout()})",
    lambda g, L, s: f"zip({L})",
    lambda g, L, s: f"crd2idx({g.r.randrange(idx_in(s))}, shape({L}), stride({L}))",
    lambda g, L, s: f"get_hier_coord({L}, {g.r.randrange(idx_in(s))})",
    lambda g, L, s: f"get_flat_coord({L}, {g.r.randrange(idx_in(s))})",
    lambda g, L, s: f"A = {L}; A(_,{g.num(0)})" if isinstance(s, list) and len(s) >= 2 else f"A = {L}; A(_)",
    lambda g, L, s: f"A = {L}; A({g.r.randrange(2)},_)" if isinstance(s, list) and len(s) == 2 else f"slice(_, {L})",
    lambda g, L, s: f"composition({L}, {g.layout(max_size=64)[0]})",
    lambda g, L, s: f"composition({g.layout(max_size=256)[0]}, {L})",
    lambda g, L, s: f"complement({L}, {rtuple(g, 0, (4, 8, 16, 32, 64))})",
    lambda g, L, s: f"with_shape({L}, {rtuple(g, 1, (2, 4))})",
    lambda g, L, s: f"max_common_layout({L}, {g.layout()[0]})",
    lambda g, L, s: f"max_common_vector({L}, make_layout(shape({L})))",
    lambda g, L, s: f"right_inverse(coalesce({L}))",
    lambda g, L, s: f"left_inverse(make_layout(shape({L}), LayoutRight))",
    lambda g, L, s: f"upcast<{g.r.choice([2,4,8])}>({L})",
    lambda g, L, s: f"downcast<{g.r.choice([2,4])}>({L})",
    lambda g, L, s: f"recast_layout<{g.r.choice(['uint8_t','uint16_t','uint32_t','uint64_t'])},{g.r.choice(['uint8_t','uint16_t','uint32_t','uint64_t'])}>({L})",
    lambda g, L, s: f"max_alignment({L})",
    lambda g, L, s: f"domain_distribute({rtuple(g, 1, (2, 4, 8, 16))}, {g.num(g.r.choice([2,4,8,16]))})",
    lambda g, L, s: f"make_ordered_layout({rtuple(g, 1)}, {rtuple(g, 1, (0, 1, 2))})",
    lambda g, L, s: f"tile_to_shape({g.small_layout()}, {rtuple(g, 1, (8, 16, 24, 32))}, LayoutRight)",
    lambda g, L, s: f"logical_product({L}, {g.tiler(s)})",
    lambda g, L, s: f"tiled_product({L}, {g.small_layout()})",
    lambda g, L, s: f"flat_product({L}, {g.small_layout()})",
    lambda g, L, s: f"{rswz(g)}",
    lambda g, L, s: f"{rswz(g)}({g.num(g.r.randrange(-64, 4096))})",
    lambda g, L, s: f"{rswz(g)} o {rswz(g)}",
    lambda g, L, s: f"{rcomposed(g)[0]}",
    lambda g, L, s: (lambda c: f"S = {c[0]}; S({g.r.randrange(c[1])},{g.r.randrange(c[2])})")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"S = {c[0]}; S(_,{g.r.randrange(c[2])})")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"S = {c[0]}; S({g.r.randrange(c[1])},_)")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"{g.r.choice(['right_inverse','left_inverse','coalesce','size','cosize','shape','rank','upcast<2>','downcast<2>','max_alignment','get_nonswizzle_portion','get_swizzle_portion','complement','layout<0>','get<1>'])}({c[0]})")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"{g.r.choice(['logical_divide','zipped_divide','tiled_divide','flat_divide'])}({c[0]}, <{g.num(g.r.choice([2,4]))},{g.num(g.r.choice([2,4,8]))}>)")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"tile_to_shape({c[0]}, ({g.num(c[1]*2)},{g.num(c[2]*2)}))")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"({c[0]}) o {g.small_layout()}")(rcomposed(g)),
    lambda g, L, s: (lambda c: f"print_layout({c[0]})")(rcomposed(g)) if g.r.random() < 0.3 else f"print_layout({g.layout(max_size=64)[0]})",
    lambda g, L, s: f"print_latex({g.small_layout()})",
]


def generate(rng, n, wide=False):
    """n (category, expression) pairs."""
    g = Gen(rng)
    name, ops = ("wide", WIDE_OPS) if wide else ("algebra", OPS)
    return [(name, g.case(ops)) for _ in range(n)]
