"""The generator of `scripts/difftest --gen gmma`: Hopper shared memory (issue 13): the eight GMMA
layout atoms for every element type, tile_to_shape of them, their casts (upcast, downcast,
recast_layout), compositions, divides and slices of flagged layouts, `make_gmma_desc<K|MN>` in
both forms over the wgmma N (8..256) and CuTe's refusals (categories: `--only atom,tile,...`).

The cases are drawn from per-category pools, so each seed rerolls the tile shapes, strides and
types; `--n` is spread over the categories by their weights.
"""

# sizeof_bits of every type the oracle's template arguments accept
BITS = {"int8_t": 8, "uint8_t": 8, "int16_t": 16, "uint16_t": 16, "int32_t": 32, "uint32_t": 32,
        "int64_t": 64, "uint64_t": 64, "float": 32, "double": 64, "bool": 8, "half_t": 16,
        "bfloat16_t": 16, "tfloat32_t": 32, "float_e4m3_t": 8, "float_e5m2_t": 8, "int4b_t": 4,
        "uint4b_t": 4, "uint1b_t": 1, "uint128_t": 128}
# the wgmma operand types (what kernels use), drawn more often than the rest
WGMMA = ["half_t", "bfloat16_t", "tfloat32_t", "float", "float_e4m3_t", "float_e5m2_t", "int8_t", "uint8_t"]
TYPES = list(BITS)
SW = {"INTER": 0, "SW32": 1, "SW64": 2, "SW128": 3}
MAJORS = ["K", "MN"]
N_WGMMA = list(range(8, 257, 8))


def atom(major, sw, t):
    return f"Layout_{major}_{sw}_Atom({t})"


def elems(t):
    """Elements of t per 16 bytes (0 when wider)."""
    return 128 // BITS[t]


def atom_shape(major, sw, t):
    """(MN, K) of the atom in elements."""
    w = (1 << SW[sw]) * 128 // BITS[t]
    return (8, w) if major == "K" else (w, 8)


def wtype(rng):
    return rng.choice(WGMMA) if rng.random() < 0.75 else rng.choice(TYPES)


def gen_atom(rng):
    return atom(rng.choice(MAJORS), rng.choice(list(SW)), rng.choice(TYPES))


def gen_tile(rng):
    major, sw, t = rng.choice(MAJORS), rng.choice(list(SW)), wtype(rng)
    mn, k = atom_shape(major, sw, t)
    # mostly multiples of the atom (accepted), some not (CuTe's "does not divide" refusal)
    if rng.random() < 0.9:
        shape = (mn * rng.choice([1, 2, 3, 4, 8]), k * rng.choice([1, 2, 3, 4]))
    else:
        shape = (mn * rng.choice([1, 2]) + rng.choice([8, 4]), k)
    order = rng.choice(["", "", "", ", (_2,_1)", ", (_1,_2)"])
    if rng.random() < 0.15:  # a third mode (stages)
        return f"tile_to_shape({atom(major, sw, t)}, (_{shape[0]},_{shape[1]},_{rng.choice([2, 3, 4])}){order.replace(')', ',_3)')})"
    return f"tile_to_shape({atom(major, sw, t)}, (_{shape[0]},_{shape[1]}){order})"


def gen_cast(rng):
    major, sw, t = rng.choice(MAJORS), rng.choice(list(SW)), wtype(rng)
    a = atom(major, sw, t)
    if rng.random() < 0.3:
        mn, k = atom_shape(major, sw, t)
        a = f"tile_to_shape({a}, (_{mn * rng.choice([1, 2])},_{k * rng.choice([1, 2])}))"
    n = rng.choice([1, 2, 4, 8, 16])
    f = rng.choice(["up", "down", "recast", "recast"])
    if f == "up":
        return f"upcast<{n}>({a})"
    if f == "down":
        return f"downcast<{n}>({a})"
    u = rng.choice(TYPES)
    return f"recast_layout<{t},{u}>({a})"


def gen_compose(rng):
    major, sw, t = rng.choice(MAJORS), rng.choice(list(SW)), wtype(rng)
    mn, k = atom_shape(major, sw, t)
    f = rng.choice(["c", "c", "tiler", "div", "slice", "slice", "call", "struct"])
    if rng.random() < 0.4:
        mn, k = mn * rng.choice([1, 2]), k * rng.choice([1, 2])
        a = f"tile_to_shape({atom(major, sw, t)}, (_{mn},_{k}))"
    else:
        a = atom(major, sw, t)
    if f == "c":
        r = rng.choice([2, 4, 8, mn])
        c = rng.choice([2, 4, 8, k])
        lay = rng.choice([f"(_{r},_{c}):(_1,_{r})", f"(_{r},_{c}):(_{c},_1)", f"_{r * c}:_1", f"(_{r},_{c}):(_1,_{mn})"])
        return f"composition({a}, {lay})"
    if f == "tiler":
        return f"composition({a}, <_{rng.choice([8, mn])}:_1,_{rng.choice([2, 4, k])}:_1>)"
    if f == "div":
        d = rng.choice(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
        return f"{d}({a}, <_{rng.choice([8, mn])},_{rng.choice([k, max(k // 2, 1)])}>)"
    if f == "slice":
        i, j = rng.randrange(mn), rng.randrange(k)
        return rng.choice([f"A = {a}; A(_,{j})", f"A = {a}; A({i},_)", f"A = {a}; A({i},{j})",
                           f"A = {a}; A(_,_{j})", f"A = {a}; A({i * k + j})"])
    if f == "call":
        return f"A = {a}; A({rng.randrange(mn * k)})"
    g = rng.choice(["size", "shape", "rank", "depth", "cosize", "coalesce", "layout<0>", "get<1>",
                    "get_nonswizzle_portion", "get_swizzle_portion", "filter", "flatten", "make_fragment_like",
                    "max_alignment", "stride", "right_inverse", "left_inverse", "complement"])
    return f"{g}({a})"


def k_tile(rng, t):
    """The K extent of one wgmma operand in elements: 32 bytes dense (64 sparse B: 4 units)."""
    return (256 if rng.random() < 0.85 else 512) // BITS[t]


def gen_desc_atom(rng):
    """make_gmma_desc<M>(L, T) of a tiled atom, sliced to one wgmma K step where the atom is wider."""
    major, sw, t = rng.choice(MAJORS), rng.choice(list(SW)), rng.choice(WGMMA)
    n = rng.choice(N_WGMMA)
    mn, k = atom_shape(major, sw, t)
    kt = k_tile(rng, t)
    if major == "MN":
        if n % mn:
            n = mn * max(1, n // mn)
        tile = f"tile_to_shape({atom(major, sw, t)}, (_{n},_{max(kt, k)}))"
        if kt < k or rng.random() < 0.3:  # the wgmma's K step out of a deeper tile
            return f"make_gmma_desc<MN>(composition({tile}, <_,_{kt}:_1>), {t})"
        return f"make_gmma_desc<MN>({tile}, {t})"
    if n % 8:
        n = 8
    kk = max(kt, k) * rng.choice([1, 1, 2])
    tile = f"tile_to_shape({atom(major, sw, t)}, (_{n},_{kk}))"
    if kk == kt and rng.random() < 0.5:
        return f"make_gmma_desc<K>({tile}, {t})"
    return f"make_gmma_desc<K>(composition({tile}, <_,_{kt}:_1>), {t})"


def gen_desc_sw(rng):
    """make_gmma_desc<M>(Sw, L, T): the canonical forms of mma_sm90_desc.hpp with random m, SBO, LBO."""
    major, sw, t = rng.choice(MAJORS), rng.choice(list(SW)), rng.choice(WGMMA)
    b = SW[sw]
    w = 1 << b
    T = elems(t)
    n = rng.choice(N_WGMMA)
    m = max(n // 8, 1)
    if major == "K":
        kk = 2 if rng.random() < 0.85 else 4
        if rng.random() < 0.5 and b > 0:
            # the row-major (N, K) slice of a K-major tile whose rows are W units wide
            lay = f"(_{n},_{kk * T}):(_{w * T},_1)"
        else:
            sbo = rng.choice([8 * w, 8 * w * 2, 8 * w * 4, 16, 64, 128, 256, 1024])
            lbo = T if b > 0 else rng.choice([8 * m, 64, 128, 8, 16]) * T
            kmode = f"(_{T},_{kk})" if T > 1 else f"_{kk}"
            kstr = f"(_1,_{lbo})" if T > 1 else f"_{lbo // T}"
            lay = f"((_8,_{m}),{kmode}):((_{w * T},_{sbo * T}),{kstr})"
        return f"make_gmma_desc<K>(Sw<{b},4,3>, {lay}, {t})"
    kk = 256 // BITS[t]
    k8 = max(kk // 8, 1)
    mm = max(n // (w * T), 1)
    lbo = rng.choice([w * 8, 64, 128, 256, 512, 16 * m])
    sbo = rng.choice([w * 8 * mm, 64, 128, 256, 1024])
    if b == 0:
        lay = f"((_{T},_{m}),(_8,_{k8})):((_1,_{sbo * T}),(_{T},_{lbo * T}))"
    else:
        lay = f"((_{T},_{w},_{mm}),(_8,_{k8})):((_1,_{T},_{lbo * T}),(_{w * T},_{sbo * T}))"
    return f"make_gmma_desc<MN>(Sw<{b},4,3>, {lay}, {t})"


def gen_refuse(rng):
    """Layouts CuTe refuses (and a few near misses it accepts)."""
    t = rng.choice(WGMMA)
    T = elems(t)
    major = rng.choice(MAJORS)
    b = rng.choice([0, 1, 2, 3])
    w = 1 << b
    choice = rng.randrange(12)
    if choice == 0:  # K-size not 2/4 units
        return f"make_gmma_desc<K>(Sw<{b},4,3>, (_64,_{T * rng.choice([1, 3, 8])}):(_{w * T},_1), {t})"
    if choice == 1:  # MN-size not a multiple of 8
        return f"make_gmma_desc<K>(Sw<{b},4,3>, (_{rng.choice([4, 12, 60, 100])},_{2 * T}):(_{w * T},_1), {t})"
    if choice == 2:  # wrong swizzle
        return f"make_gmma_desc<{major}>(Sw<{rng.choice([1, 2, 3])},{rng.choice([3, 5])},3>, (_64,_{2 * T}):(_{w * T},_1), {t})"
    if choice == 3:  # wrong row stride
        return f"make_gmma_desc<K>(Sw<{b},4,3>, (_64,_{2 * T}):(_{w * T * rng.choice([2, 3])},_1), {t})"
    if choice == 4:  # MN K-size wrong
        return f"make_gmma_desc<MN>(Sw<{b},4,3>, (_{64 * T},_{rng.choice([8, 24, 64])}):(_1,_{64 * T}), {t})"
    if choice == 5:  # atom of another type
        u = rng.choice([x for x in WGMMA if BITS[x] != BITS[t]])
        return f"make_gmma_desc<{major}>({atom(major, rng.choice(list(SW)), u)}, {t})"
    if choice == 6:  # rank 1 or 3
        return rng.choice([f"make_gmma_desc<{major}>(_{64 * T}:_1, {t})",
                           f"make_gmma_desc<{major}>(tile_to_shape({atom(major, 'SW128', t)}, (_64,_64,_2)), {t})"])
    if choice == 7:  # the atom of the other major
        other = "MN" if major == "K" else "K"
        mn, k = atom_shape(other, "SW128", t)
        return f"make_gmma_desc<{major}>(tile_to_shape({atom(other, rng.choice(list(SW)), t)}, (_{max(mn, 64)},_{max(k, 256 // BITS[t])})), {t})"
    if choice == 8:  # dynamic shapes or strides
        kk = 2 * T
        return rng.choice([f"make_gmma_desc<{major}>(Sw<{b},4,3>, (64,_{kk}):(_{w * T},_1), {t})",
                           f"make_gmma_desc<{major}>(Sw<{b},4,3>, (_64,{kk}):(_{w * T},_1), {t})",
                           f"make_gmma_desc<{major}>(Sw<{b},4,3>, (_64,_{kk}):({w * T},_1), {t})",
                           f"make_gmma_desc<{major}>(Sw<{b},4,3>, (_64,_{kk}):(_{w * T},1), {t})",
                           f"make_gmma_desc<MN>(Sw<{b},4,3>, ({64 * T},_{kk}):(_1,_{64 * T}), {t})",
                           f"make_gmma_desc<MN>(Sw<{b},4,3>, (_{64 * T},{kk}):(_1,_{64 * T}), {t})",
                           f"make_gmma_desc<MN>(Sw<{b},4,3>, (_{64 * T},_{kk}):(1,_{64 * T}), {t})"])
    if choice == 9:  # negative and huge strides
        s = rng.choice([-w * T, -64 * T, 1 << 18, 1 << 20])
        return rng.choice([f"make_gmma_desc<K>(Sw<{b},4,3>, ((_8,_2),_{2 * T}):((_{w * T},_{s}),_1), {t})",
                           f"make_gmma_desc<MN>(Sw<{b},4,3>, ((_{w * T},_2),_{256 // BITS[t]}):((_1,_{s}),_{w * T}), {t})"])
    if choice == 10:  # a swizzled element layout (no smem flag), a plain-offset composed layout
        return f"make_gmma_desc<{major}>(Sw<{b},{rng.choice([3, 4])},3> o _0 o (_64,_{2 * T}):(_{w * T},_1), {t})"
    # K-major with the wrong K-stride of the two halves
    return f"make_gmma_desc<K>(Sw<{b},4,3>, ((_8,_8),(_{T},_2)):((_{w * T},_{8 * w * T}),(_1,_{rng.choice([2, 3]) * T})), {t})"


def gen_unverified(rng):
    """What last session's notes left unverified: inverses of a flagged atom, MN-major dynamic
    sizes, negative strides (start address), base_offset."""
    t = rng.choice(WGMMA)
    T = elems(t)
    a = atom(rng.choice(MAJORS), rng.choice(list(SW)), t)
    return rng.choice([
        f"right_inverse({a})", f"left_inverse({a})",
        f"make_gmma_desc<MN>(Sw<3,4,3>, ({8 * T},_{256 // BITS[t]}):(_1,_{8 * T}), {t})",
        f"make_gmma_desc<MN>(Sw<3,4,3>, (_{8 * T},{256 // BITS[t]}):(_1,_{8 * T}), {t})",
        f"make_gmma_desc<K>(Sw<0,4,3>, (_{rng.choice([8, 64])},_{2 * T}):(_-{T},_1), {t})",
        f"make_gmma_desc<K>(Sw<0,4,3>, ((_8,_2),(_{T},_2)):((_{T},_-{8 * T}),(_1,_{16 * T})), {t})",
        f"make_gmma_desc<MN>(Sw<0,4,3>, ((_{T},_2),(_8,_2)):((_1,_-{8 * T}),(_{T},_{16 * T})), {t})",
        f"make_gmma_desc<K>(Sw<0,4,3>, ((_8,_2),(_{T},_2)):((_{T},_{8 * T}),(_1,_-{16 * T})), {t})",
    ])


CATS = {"atom": (gen_atom, 0.18), "tile": (gen_tile, 0.14), "cast": (gen_cast, 0.12),
        "compose": (gen_compose, 0.14), "desc_atom": (gen_desc_atom, 0.16), "desc_sw": (gen_desc_sw, 0.14),
        "refuse": (gen_refuse, 0.08), "unverified": (gen_unverified, 0.04)}


def all_atoms():
    """Every atom for every type, once."""
    return [atom(m, s, t) for m in MAJORS for s in SW for t in TYPES]


def generate(rng, n, only=None):
    """About n distinct (category, expression) pairs; the first time (`--only atom`) every atom
    is there."""
    cats = [c for c in CATS if not only or c in only]
    total = sum(CATS[c][1] for c in cats)
    out, seen = [], set()
    for c in cats:
        f, w = CATS[c]
        want = max(1, round(n * w / total))
        tries = 0
        got = 0
        while got < want and tries < want * 20:
            tries += 1
            e = f(rng)
            if e not in seen:
                seen.add(e)
                out.append((c, e))
                got += 1
    rng.shuffle(out)
    return out
