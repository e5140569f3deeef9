"""The generator of `scripts/difftest --gen swizzle`: swizzles, composed (swizzled) layouts and
the printers on them: slices (with CuTe's decay of a sliced swizzled layout), inverses, casts,
compositions in both directions, divides and products of swizzled layouts.

Last runs (seeds 1, 7, 3, 99+77; 987 cases): all identical except 5 slices whose offset CuTe
prints as MixedBits (`Sw<3,2,3> o M_0|(0&12)=0 o ...`), since answered like CuTe.
"""


def sw(rng):
    b = rng.choice([0, 1, 2, 3, 3])
    m = rng.choice([0, 1, 2, 3, 4])
    s = rng.choice([b, b + 1, -b, -(b + 2), 3, 4])
    if abs(s) < b:
        s = b
    return f"Sw<{b},{m},{s}>"


LAYOUTS = ["(_8,_64):(_64,_1)", "(_64,_8):(_1,_64)", "(_16,_16):(_16,_1)", "(_4,_32):(_32,_1)",
           "((_8,_8),_8):((_8,_1),_64)", "(_8,(_8,_8)):(_8,(_1,_64))", "_512:_1", "(_32,_32):(_1,_32)",
           "(8,64):(64,1)", "(_8,_8,_8):(_64,_1,_8)", "((_4,_2),(_8,_4)):((_64,_8),(_1,_256))",
           "(_2,_16):(_16,_1)", "((_2,_4),_16):((_16,_32),_1)"]
FUNCS = ["S", "S(_,{i})", "S({i},_)", "S(_,_{i})", "S(_{i},_)", "S({i},{j})", "S({i})", "S(_{i})",
         "slice_and_offset((_,{i}), S)", "slice_and_offset(({i},_), S)", "S((_,{i}),_)", "S(({i},_),_)",
         "S(_,(_,{i}))", "domain_offset(({i},{j}), S)", "right_inverse(S)", "left_inverse(S)", "upcast<{p}>(S)",
         "downcast<{p}>(S)", "max_alignment(S)", "max_common_vector(S, {L})", "max_common_vector({L}, S)",
         "max_common_layout(S, {L})", "max_common_layout({L}, S)", "S o {L}", "{L} o S", "S o <_{p},_{p}>",
         "S o _{p}", "logical_product({L}, S)", "tile_to_shape(S, (_64,_64))", "zipped_divide(S, <_{p},_{p}>)",
         "tiled_divide(S, (_2,_2))", "flat_divide(S, (_2,_2))", "logical_divide(S, <_2,_4>)", "complement(S)",
         "coalesce(S)", "layout<1>(S)", "get<1>(S)", "get<0,0>(S)", "take<0,1>(S)", "size(S)", "shape(S)",
         "cosize(S)", "rank(S)", "depth(S)", "S o Sw<1,0,{p}>", "with_shape(S, _{p}, _{p})", "get_swizzle_portion(S)",
         "get_nonswizzle_portion(S)", "make_fragment_like(S)", "nullspace(S)", "recast_layout<uint8_t,half_t>(S)",
         "print_layout(S)", "print_latex(S)", "flatten(S)", "select<1,0>(S)"]
def generate(rng, N):
    """N + N/4 (category, expression) pairs."""
    out = []
    for _ in range(N):
        off = rng.choice(["", "", "_0 o ", "_16 o ", "_3 o ", "2 o ", "0 o ", "_-8 o "])
        S = f"S = {sw(rng)} o {off}{rng.choice(LAYOUTS)}; "
        if rng.random() < 0.1:
            S = f"S = {sw(rng)} o _0 o {sw(rng)} o _0 o {rng.choice(LAYOUTS)}; "
        if rng.random() < 0.1:
            S = f"S = {rng.choice(LAYOUTS)} o {sw(rng)}; "
        f = rng.choice(FUNCS).format(i=rng.choice([0, 1, 2, 3, 5, 7]), j=rng.choice([0, 1, 4, 9]),
                                     p=rng.choice([1, 2, 4, 8]), L=rng.choice(LAYOUTS))
        out.append(S + f)
    for _ in range(N // 4):
        s = sw(rng)
        x = rng.choice(["0", "1", "-1", "-100", "64", "_64", "_511", "1000", "_-7", "4095", "_0", "_"])
        out.append(rng.choice([f"{s}({x})", f"{s} o {sw(rng)}", f"make_layout({s})", f"{rng.choice(LAYOUTS)} o {s}",
                               f"upcast<2>({s})", f"downcast<4>({s})", f"max_alignment({s})", f"right_inverse({s})"]))
    return [("swizzle", e) for e in out]
