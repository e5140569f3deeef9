"""The generator of `scripts/difftest --gen layout`: random layouts (`--wide`: deeper and wider
shapes) through the layout algebra (coalesce, composition, complement, inverses, divides,
products, casts, ...)."""
from common import num

VALS = [1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16]


class Gen:
    def __init__(self, rng, wide=False):
        self.r = rng
        self.wide = wide

    def staticness(self):
        x = self.r.random()
        return "static" if x < 0.6 else ("dynamic" if x < 0.8 else "mixed")

    def st(self, mode):
        if mode == "static":
            return True
        if mode == "dynamic":
            return False
        return self.r.random() < 0.5

    def shape_tree(self, depth=2, rank=None):
        """Nested list of ints."""
        r = rank if rank is not None else self.r.choice([1, 1, 2, 2, 2, 3])
        out = []
        for _ in range(r):
            if depth > 0 and self.r.random() < 0.2:
                out.append(self.shape_tree(depth - 1, self.r.choice([1, 2, 2])))
            else:
                out.append(self.r.choice(VALS))
        if r == 1 and not isinstance(out[0], list) and self.r.random() < 0.7:
            return out[0]
        return out

    def leaves(self, t):
        if isinstance(t, list):
            res = []
            for e in t:
                res += self.leaves(e)
            return res
        return [t]

    def like(self, t, it):
        if isinstance(t, list):
            return [self.like(e, it) for e in t]
        return next(it)

    def strides_for(self, shape):
        flat = self.leaves(shape)
        kind = self.r.random()
        if kind < 0.55:  # compact in a random order
            order = list(range(len(flat)))
            if self.r.random() < 0.5:
                self.r.shuffle(order)
            d = [0] * len(flat)
            cur = 1
            gap = self.r.random() < 0.2
            for k in order:
                d[k] = cur
                cur *= flat[k] * (self.r.choice([1, 2]) if gap else 1)
            if self.r.random() < 0.1:
                d[self.r.randrange(len(d))] = 0
        else:
            d = [self.r.choice([0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 32]) for _ in flat]
            if self.r.random() < 0.05:
                d[0] = -d[0]
        return self.like(shape, iter(d))

    def fmt(self, t, mode):
        if isinstance(t, list):
            return "(" + ",".join(self.fmt(e, mode) for e in t) + ")"
        return num(t, self.st(mode))

    def wide_tree(self, depth=0):
        """Deeper, wider shapes (up to 3 modes per level, depth 2, values up to 16)."""
        r = self.r
        if depth < 2 and r.random() < (0.55 if depth == 0 else 0.25):
            return [self.wide_tree(depth + 1) for _ in range(r.randint(1, 3))]
        return r.choice([1, 2, 3, 4, 6, 8] if depth else [1, 2, 3, 4, 6, 8, 12, 16])

    def layout(self, mode=None, shape=None, max_rank=None):
        mode = mode or self.staticness()
        if shape is not None:
            s = shape
        elif self.wide and max_rank is None:
            for _ in range(20):
                s = self.wide_tree()
                n = 1
                for v in self.leaves(s):
                    n *= v
                if n <= 4096:
                    break
        else:
            s = self.shape_tree(rank=max_rank and self.r.randint(1, max_rank))
        d = self.strides_for(s)
        return self.fmt(s, mode) + ":" + self.fmt(d, mode), s

    def divisor_tiler(self, shape, mode):
        """<...> or a shape whose entries divide the modes of `shape` (mostly admissible)."""
        r = self.r
        modes = shape if isinstance(shape, list) else [shape]
        items = []
        shape_only = r.random() < 0.4
        for m in modes[: r.randint(1, len(modes))]:
            n = 1
            for v in self.leaves(m):
                n *= v
            d = r.choice([x for x in [1, 2, 3, 4, 6, 8, 12, 16] if n % x == 0] or [1])
            c = r.random()
            if not shape_only and c < 0.2:
                items.append("_")
            elif not shape_only and c < 0.6:
                items.append(f"{num(d, self.st(mode))}:{num(r.choice([1, 1, 2]), self.st(mode))}")
            else:
                items.append(num(d, self.st(mode)))
        if shape_only:
            return "(" + ",".join(items) + ")" if len(items) > 1 else items[0]
        return "<" + ",".join(items) + ">"

    def tiler_elem(self, mode):
        x = self.r.random()
        if x < 0.35:
            return num(self.r.choice([1, 2, 2, 3, 4, 4, 8]), self.st(mode))
        if x < 0.45:
            return "_"
        l, _ = self.layout(mode, max_rank=2)
        return l

    def tiler(self, mode, rank, shape=None):
        if shape is not None and self.r.random() < 0.5:
            return self.divisor_tiler(shape, mode)
        x = self.r.random()
        if x < 0.25:
            l, _ = self.layout(mode)
            return l
        if x < 0.35:
            return num(self.r.choice([2, 3, 4, 8]), self.st(mode))
        n = self.r.randint(1, max(1, rank))
        return "<" + ", ".join(self.tiler_elem(mode) for _ in range(n)) + ">"

    def case(self):
        mode = self.staticness()
        A, sa = self.layout(mode)
        rank = len(sa) if isinstance(sa, list) else 1
        op = self.r.choice([
            "coalesce", "coalesce_p", "compose", "compose", "compose_t", "complement", "complement_n",
            "right_inverse", "left_inverse", "logical_divide", "zipped_divide", "tiled_divide",
            "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product",
            "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast",
            "max_common_vector", "max_common_layout", "nullspace", "max_alignment", "with_shape",
            "recast",
        ])
        r = self.r
        if op == "coalesce":
            return f"coalesce({A})"
        if op == "coalesce_p":
            return f"coalesce({A}, (" + ",".join(["_1"] * r.randint(1, rank)) + "))"
        if op == "compose":
            B, _ = self.layout(mode if r.random() < 0.7 else None)
            return f"{A} o {B}"
        if op == "compose_t":
            return f"{A} o {self.tiler(mode, rank, sa)}"
        if op == "complement":
            return f"complement({A})"
        if op == "complement_n":
            return f"complement({A}, {num(r.choice([8, 16, 24, 32, 48, 64, 96, 128, 7, 50]), self.st(mode))})"
        if op in ("right_inverse", "left_inverse", "nullspace", "max_alignment"):
            return f"{op}({A})"
        if op.endswith("divide") or op in ("logical_product", "zipped_product", "tiled_product", "flat_product"):
            return f"{op}({A}, {self.tiler(mode, rank, sa)})"
        if op in ("blocked_product", "raked_product"):
            B, _ = self.layout(mode, max_rank=3)
            return f"{op}({A}, {B})"
        if op == "tile_to_shape":
            s = self.shape_tree(depth=0, rank=r.randint(rank, 3) if rank <= 3 else rank)
            s = [x * r.choice([1, 2, 4]) for x in (s if isinstance(s, list) else [s])]
            tgt = "(" + ",".join(num(x, self.st(mode)) for x in s) + ")"
            extra = r.choice(["", "", ", LayoutRight", ", (" + ",".join(f"_{i}" for i in r.sample(range(len(s)), len(s))) + ")"])
            return f"tile_to_shape({A}, {tgt}{extra})"
        if op == "upcast":
            return f"upcast<{r.choice([2, 4, 8])}>({A})"
        if op == "downcast":
            return f"downcast<{r.choice([2, 4])}>({A})"
        if op == "recast":
            t = ["uint8_t", "half_t", "float", "double", "int4b_t"]
            return f"recast_layout<{r.choice(t)},{r.choice(t)}>({A})"
        if op in ("max_common_vector", "max_common_layout"):
            B, _ = self.layout(mode, shape=sa if r.random() < 0.7 else None)
            return f"{op}({A}, {B})"
        if op == "with_shape":
            n = 1
            for v in self.leaves(sa):
                n *= v
            parts = []
            for f in (2, 3, 4):
                if n % f == 0 and r.random() < 0.5:
                    parts.append(f)
                    n //= f
            parts.append(n)
            return f"with_shape({A}, (" + ",".join(num(p, self.st(mode)) for p in parts) + "))"
        return f"coalesce({A})"


def generate(rng, n, wide=False):
    """n distinct (category, expression) pairs."""
    g = Gen(rng, wide)
    out, seen = [], set()
    while len(out) < n:
        c = g.case()
        if c not in seen:
            seen.add(c)
            out.append(("layout", c))
    return out
