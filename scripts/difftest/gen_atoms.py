"""The generator of `scripts/difftest --gen atoms`: the thread-value (atoms) functions: MMA/copy
operations, tiled MMAs and copies, their TV layouts, partitions and retiles (categories:
`--cats mma_info,tiled_mma,...`).
"""
import common


# ------------------------------------------------------------------------------------------
# Operations
# ------------------------------------------------------------------------------------------

SM80_TYPES_16x8 = ["F16F16F16F16", "F32F16F16F32", "F32BF16BF16F32"]
INT_TYPES = ["S32S8S8S32", "S32S8U8S32", "S32U8S8S32", "S32U8U8S32"]
INT4_TYPES = ["S32S4S4S32", "S32S4U4S32", "S32U4S4S32", "S32U4U4S32"]
FP8 = ["E4M3E4M3", "E4M3E5M2", "E5M2E4M3", "E5M2E5M2"]


def plain_mma_ops():
    ops = ["SM61_DP4A", "SM61_DP2A"]
    for t in ["F16F16F16F16", "F32F16F16F32"]:
        for m in ["TN", "NT", "NN", "TT"]:
            ops.append(f"SM70_8x8x4_{t}_{m}")
    ops += ["SM75_16x8x8_F32F16F16F32_TN", "SM75_8x8x16_S32S8S8S32_TN"]
    for t in SM80_TYPES_16x8:
        ops += [f"SM80_16x8x8_{t}_TN", f"SM80_16x8x16_{t}_TN"]
    ops += ["SM80_16x8x4_F32TF32TF32F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
            "SM80_8x8x4_F64F64F64F64_TN", "SM80_8x8x4_C64C64C64C64_TN", "SM80_8x8x4_GC64C64C64GC64_TN"]
    for t in INT_TYPES:
        for s in ["", "_SATURATE"]:
            ops += [f"SM80_8x8x16_{t}_TN{s}", f"SM80_16x8x16_{t}_TN{s}", f"SM80_16x8x32_{t}_TN{s}"]
    for t in INT4_TYPES:
        for s in ["", "_SATURATE"]:
            ops += [f"SM80_8x8x32_{t}_TN{s}", f"SM80_16x8x32_{t}_TN{s}", f"SM80_16x8x64_{t}_TN{s}"]
    ops += ["SM80_8x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_XORPOPC",
            "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM80_16x8x256_S32U1U1S32_TN_ANDPOPC",
            "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC", "SM80_8x8x128_S32U1U1S32_TN_ANDPOPC"]
    for d in ["F32", "F16"]:
        for f in FP8:
            ops.append(f"SM89_16x8x32_{d}{f}{d}_TN")
    for k in [4, 8, 16]:
        ops += [f"SM90_16x8x{k}_F64F64F64F64_TN", f"SM90_16x8x{k}_C64C64C64C64_TN"]
    ops += ["UniversalFMA<float,float,float,float>", "UniversalFMA<half_t,half_t,half_t,half_t>",
            "UniversalFMA<double,double,double,double>", "UniversalFMA<int32_t,int8_t,int8_t,int32_t>",
            "UniversalFMA<float,half_t,half_t,float>", "UniversalFMA<float>",
            "SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>", "SM120_16x8x32_TN<float_e5m2_t,float_e4m3_t,half_t>"]
    return ops


GMMA_N = [8, 16, 24, 32, 48, 64, 80, 96, 128, 192, 256]  # 24, 48, 80: extended shapes, refused
MAJ = ["<K,K>", "<K,MN>", "<MN,K>", "<MN,MN>"]


def gmma_op(r, n=None):
    n = n or r.choice(GMMA_N if r.random() < 0.2 else [8, 16, 32, 64, 96, 128, 192, 256])
    fam = r.random()
    if fam < 0.5:
        t = r.choice(["F16F16F16", "F32F16F16", "F32BF16BF16"])
        v = r.choice(["SS", "RS"])
        m = r.choice(MAJ) if r.random() < 0.8 else r.choice(["", "<K>", "<K,K,K>"])
        if v == "RS" and r.random() < 0.7:
            m = r.choice(["<K,K>", "<K,MN>"])
        return f"SM90_64x{n}x16_{t}_{v}{m}"
    if fam < 0.65:
        return f"SM90_64x{n}x8_F32TF32TF32_{r.choice(['SS', 'RS'])}_TN" + ("" if r.random() < 0.9 else "<K,K>")
    if fam < 0.85:
        return f"SM90_64x{n}x32_{r.choice(['F16', 'F32'])}{r.choice(FP8)}_{r.choice(['SS', 'RS'])}_TN"
    return f"SM90_64x{n}x32_{r.choice(['S32S8S8', 'S32S8U8', 'S32U8S8', 'S32U8U8'])}_{r.choice(['SS', 'RS'])}_TN{r.choice(['', '_SATURATE'])}"


def mma_op(r, gmma_p=0.3):
    if r.random() < gmma_p:
        return gmma_op(r)
    return r.choice(plain_mma_ops())


VALUE_TYPES = ["int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
               "float", "double", "bool", "half_t", "bfloat16_t", "tfloat32_t", "float_e4m3_t",
               "float_e5m2_t", "int4b_t", "uint4b_t", "uint1b_t", "uint128_t"]
COMMON_TYPES = ["half_t", "half_t", "half_t", "bfloat16_t", "float", "uint8_t", "int8_t", "double", "uint16_t", "uint32_t", "tfloat32_t"]

LDSM = ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x2_LDSM_T",
        "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T", "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N",
        "SM90_U32x4_STSM_N", "SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T",
        "SM75_U32x1_MOVM_T", "SM100_U8x8_LDSM_T", "SM100_U8x16_LDSM_T", "SM100_U8x4_STSM_T", "SM100_U8x8_STSM_T",
        "SM100_U8x16_STSM_T", "SM100_SU4_DU8x16_x2_LDSM_N", "SM100_SU6_DU8x16_x4_LDSM_N"]
OTHER_COPY = ["SM50_Shuffle_U32_2x2Trans_XOR1", "SM50_Shuffle_U32_2x2Trans_XOR4", "AutoVectorizingCopy",
              "DefaultCopy", "AutoVectorizingCopyWithAssumedAlignment<64>",
              "AutoVectorizingCopyWithAssumedAlignment<128>", "AutoVectorizingCopyWithAssumedAlignment<8>",
              "AutoVectorizingCopyWithAssumedAlignment<24>", "SM100_LOAD_256bit_CACHE_NOALLOCATION",
              "SM100_STORE_256bit_CACHE_NOALLOCATION"]
CPA_T = ["uint128_t", "uint128_t", "uint128_t", "uint64_t", "uint32_t", "uint32_t", "uint16_t"]


def copy_op(r):
    x = r.random()
    if x < 0.4:
        return r.choice(LDSM)
    if x < 0.65:
        base = r.choice(["SM80_CP_ASYNC_CACHEALWAYS", "SM80_CP_ASYNC_CACHEGLOBAL",
                         "SM80_CP_ASYNC_CACHEALWAYS_ZFILL", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL"])
        return f"{base}<{r.choice(CPA_T)}>"
    if x < 0.9:
        t = r.choice(["uint128_t", "uint64_t", "uint32_t", "uint16_t", "uint8_t", "half_t", "float", "double",
                      "int32_t", "uint1b_t", "int4b_t", "bfloat16_t"])
        if r.random() < 0.15:
            return f"UniversalCopy<{t},{r.choice(['uint32_t', 'uint64_t', 'half_t', 'uint128_t'])}>"
        return f"UniversalCopy<{t}>"
    return r.choice(OTHER_COPY)


def copy_atom_expr(r, op=None, ty=None):
    op = op or copy_op(r)
    if ty is None:
        if "LDSM" in op or "STSM" in op or "MOVM" in op:
            ty = r.choice(["half_t", "half_t", "bfloat16_t", "uint16_t", "float", "uint8_t", "int8_t", "double", "uint32_t"])
        else:
            ty = r.choice(COMMON_TYPES if r.random() < 0.8 else VALUE_TYPES)
    return f"copy_atom({op}, {ty})"


# ------------------------------------------------------------------------------------------
# Layouts
# ------------------------------------------------------------------------------------------

def num(r, v, p_static=0.85):
    return common.num(v, r.random() < p_static)


def atom_layout(r):
    x = r.random()
    a, b, c = r.choice([(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (1, 4, 1), (2, 1, 2), (4, 2, 1),
                        (2, 4, 1), (1, 1, 2), (2, 2, 2), (8, 1, 1), (3, 1, 1), (1, 3, 1)])
    if x < 0.45:
        return f"make_layout((_{a},_{b},_{c}))"
    if x < 0.6:
        return f"make_layout((_{a},_{b},_{c}), LayoutRight)"
    if x < 0.62:
        return f"make_layout(({a},{b},{c}))"
    if x < 0.9:
        return r.choice(["(_2,_2,_1):(_2,_1,_0)", "(_2,_2,_1):(_1,_2,_0)", "(_2,_2,_1):(_1,_4,_0)",
                         "(_4,_2,_1):(_2,_1,_0)", "(_2,_4,_1):(_4,_1,_0)", "(_2,_2,_2):(_1,_4,_2)",
                         "(_2,_1,_2):(_2,_0,_1)", "((_2,_2),_2,_1):((_1,_4),_2,_0)", "(_2,(_2,_2),_1):(_4,(_1,_2),_0)",
                         "(_2,_2):(_2,_1)", "(_2,_2):(_1,_2)", "(_4,_2):(_1,_4)", "_4:_1", "(_2,_2,_1,_1):(_1,_2,_0,_0)",
                         "(_2,_2,_1):(_1,_2,_1)", "(_2,_2,_1):(_2,_2,_0)", "(2,2,1):(1,2,0)", "(_2,_2,_1):(_1,_3,_0)"])
    return r.choice(["make_layout((_2,_2))", "make_layout(_4)", "make_layout((_2,_2,_1,_1))", "make_layout((_1,_1,_1))",
                     "(_4,_1,_1)", "make_layout((_2,_2,_1)), _", "make_layout((_1,_1,_4))"])


def perm_entry(r, base):
    x = r.random()
    if x < 0.25:
        return "_"
    if x < 0.5:
        return f"_{base * r.choice([1, 1, 2, 4])}"
    if x < 0.53:
        return f"{base * r.choice([1, 2])}"
    if x < 0.75 and base % 4 == 0 and base >= 8:
        return r.choice([f"(_{base // 4},_2,_2):(_1,_{base // 2},_{base // 4})",
                         f"(_{base // 2},_2):(_2,_1)", f"(_2,_{base // 2}):(_{base // 2},_1)"])
    if x < 0.85:
        return f"_{base}:_1"
    return f"(_{base // 2 if base > 1 else 1},_2):(_1,_{base // 2 if base > 1 else 1})" if base > 1 else "_1:_0"


def permutation(r, mnk, lay):
    if r.random() < 0.45:
        return None
    sizes = [mnk[i] * lay[i] for i in range(3)]
    n = 3 if r.random() < 0.85 else r.choice([1, 2, 4])
    ents = [perm_entry(r, sizes[i] if i < 3 else 1) for i in range(n)]
    if r.random() < 0.35 and all(e.startswith("_") and ":" not in e for e in ents):
        return "(" + ",".join(e if e != "_" else "_1" for e in ents) + ")"
    return "<" + ",".join(ents) + ">"


MNK = {}


def mnk_of(op):
    import re
    m = re.match(r"SM\d+_(\d+)x(\d+)x(\d+)_", op)
    if m:
        return [int(m.group(i)) for i in (1, 2, 3)]
    if op.startswith("SM61"):
        return [1, 1, 4]
    return [1, 1, 1]


def lay_sizes(al):
    import re
    m = re.search(r"\((_?\d+),(_?\d+),(_?\d+)", al)
    if m:
        return [int(m.group(i).lstrip("_")) for i in (1, 2, 3)]
    return [2, 2, 1]


def tensor_layout(r, m, n, allow_sw=True):
    """A layout (or swizzled layout) of an m x n tile or a multiple of it."""
    fm, fn = r.choice([1, 1, 2, 2, 4]), r.choice([1, 1, 2, 2, 4])
    if r.random() < 0.08:
        fm, fn = r.choice([1, 3]), r.choice([1, 3])
    M, N = m * fm, n * fn
    x = r.random()
    s = lambda v: num(r, v, 0.8)
    if x < 0.3:
        return f"make_layout(({s(M)},{s(N)}))"
    if x < 0.45:
        return f"make_layout(({s(M)},{s(N)}), LayoutRight)"
    if x < 0.55:
        return f"({s(M)},{s(N)}):({s(1)},{s(M + r.choice([0, 0, 8]))})"
    if x < 0.62:
        return f"({s(M)},{s(N)}):({s(N)},{s(1)})"
    if x < 0.7 and M % 2 == 0:
        return f"((_2,_{M // 2}),_{N}):((_1,_{2 * N}),_2)"
    if x < 0.78:
        return f"make_identity_layout(({s(M)},{s(N)}))"
    if x < 0.92 and allow_sw:
        if M % 8 == 0 and N % 8 == 0:
            sw = r.choice(["Sw<3,3,3>", "Sw<2,3,3>", "Sw<3,4,3>", "Sw<1,3,3>", "Sw<2,4,3>"])
            return r.choice([f"{sw} o (_{M},_{N}):(_{N},_1)", f"{sw} o (_{M},_{N}):(_1,_{M})",
                             f"tile_to_shape({sw} o (_8,_{min(N, 64)}):(_{min(N, 64)},_1), (_{M},_{N}))",
                             f"{sw} o _0 o (_{M},_{N}):(_{N},_1)"])
        return f"Sw<1,2,2> o (_{M},_{N}):(_1,_{M})"
    return f"(_{M},_{N}):(_1,_{M})" if r.random() < 0.5 else f"make_layout(({M},{N}), LayoutRight)"


# ------------------------------------------------------------------------------------------
# Categories
# ------------------------------------------------------------------------------------------

WRAP = ["coalesce", "size", "shape", "stride", "rank", "depth", "cosize", "layout", "filter", "flatten",
        "make_fragment_like", "make_layout_like", "right_inverse", "left_inverse", "get<0>", "get<1>", "size<0>",
        "size<1>", "shape<0>", "layout<0>", "layout<1>", "coshape", "product_each", "filter_zeros"]


def wrapped(r, e, tensor=False):
    if r.random() < 0.75:
        return e
    f = r.choice(WRAP)
    if tensor and (r.random() < 0.5 or f in ("coalesce", "make_fragment_like")):
        return f"{f}(layout({e}))"
    if f in ("product_each",):
        return f"product_each(shape({e}))"
    return f"{f}({e})"


def g_mma_info(r):
    op = r.choice(plain_mma_ops()) if r.random() < 0.55 else gmma_op(r)
    f = r.choice(["mma_layout_A", "mma_layout_B", "mma_layout_C", "mma_thr_id", "mma_shape_mnk", "mma_atom", "mma_atom"])
    e = f"{f}({op})"
    if r.random() < 0.12:
        e = f"{r.choice(['size', 'coalesce', 'cosize', 'right_inverse', 'left_inverse', 'shape'])}({e})"
    return e


def tiled_mma(r):
    op = mma_op(r, 0.25)
    al = atom_layout(r)
    if "GMMA" in op or op.startswith("SM90_64"):
        if r.random() < 0.7:
            al = r.choice(["make_layout((_1,_1,_1))", "make_layout((_2,_1,_1))", "make_layout((_1,_2,_1))"])
    mnk, lay = mnk_of(op), lay_sizes(al)
    p = permutation(r, mnk, lay)
    t = f"T = make_tiled_mma({op}, {al}" + (f", {p})" if p else ")")
    return t, op, mnk, lay


def g_tiled_mma(r):
    t, op, mnk, lay = tiled_mma(r)
    M, N, K = (mnk[i] * lay[i] for i in range(3))
    x = r.choice(["print", "tile_shape", "tile_size", "tile_size<0>", "tile_size<1>", "tile_size<2>", "size",
                  "get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV", "get_thr_layout_vmnk",
                  "thrfrg_A", "thrfrg_B", "thrfrg_C", "print_latex"])
    if x == "print":
        return f"{t}; T"
    if x in ("thrfrg_A", "thrfrg_B", "thrfrg_C"):
        dims = {"thrfrg_A": (M, K), "thrfrg_B": (N, K), "thrfrg_C": (M, N)}[x]
        return f"{t}; {wrapped(r, f'{x}(T, {tensor_layout(r, *dims, allow_sw=False)})')}"
    if x == "print_latex":
        if M * N > 256 or M * K > 512:
            x = "get_layoutC_TV"
        else:
            return f"{t}; print_latex(T)"
    if x == "size":
        return f"{t}; size(T)"
    return f"{t}; {wrapped(r, f'{x}(T)')}"


def g_partition_mma(r):
    t, op, mnk, lay = tiled_mma(r)
    M, N, K = (mnk[i] * lay[i] for i in range(3))
    w = r.choice("ABC")
    dims = {"A": (M, K), "B": (N, K), "C": (M, N)}[w]
    thr = r.choice([0, 1, 3, 5, 17, 31, 32, 37, 63, 64, 127, 128, 200])
    e = f"partition_{w}(T, {thr}, {tensor_layout(r, *dims)})"
    if r.random() < 0.15:
        L = tensor_layout(r, *dims, allow_sw=False)
        return (f"{t}; C = layout(partition_C(T, {thr}, {tensor_layout(r, M, N, allow_sw=False)})); "
                f"A = layout(partition_A(T, {thr}, {tensor_layout(r, M, K, allow_sw=False)})); "
                f"{r.choice(['left_inverse(C) o A', 'coalesce(C)', 'make_fragment_like(A)', 'right_inverse(A)'])}")
    return f"{t}; {wrapped(r, e, tensor=True)}"


def g_copy_info(r):
    x = r.random()
    if x < 0.55:
        e = copy_atom_expr(r)
        return wrapped(r, e) if r.random() < 0.3 else r.choice([e, e, f"val_layout_src({e})", f"val_layout_dst({e})", f"val_layout_ref({e})"])
    op = copy_op(r)
    return f"{r.choice(['copy_layout_src', 'copy_layout_dst', 'copy_layout_ref', 'copy_thr_id'])}({op})"


TBITS = {"int8_t": 8, "uint8_t": 8, "int16_t": 16, "uint16_t": 16, "int32_t": 32, "uint32_t": 32, "int64_t": 64,
         "uint64_t": 64, "float": 32, "double": 64, "bool": 1, "half_t": 16, "bfloat16_t": 16, "tfloat32_t": 32,
         "float_e4m3_t": 8, "float_e5m2_t": 8, "int4b_t": 4, "uint4b_t": 4, "uint1b_t": 1, "uint128_t": 128}


def atom_vals(atom):
    """Values per thread of copy_atom(OP, T) (its ValLayoutRef), or None if unknown."""
    import re
    m = re.match(r"copy_atom\((.*), (\w+)\)$", atom)
    if not m:
        return None
    op, ty = m.group(1), m.group(2)
    tb = TBITS.get(ty)
    if not tb:
        return None
    m2 = re.match(r"SM\d+_U(32|16|8)x(\d+)_(LDSM|STSM)", op)
    if m2:
        bits = int(m2.group(1)) * int(m2.group(2))
    elif "MOVM" in op:
        bits = 32
    elif "Shuffle" in op:
        bits = 64
    elif "<" in op and not op.startswith("AutoVec"):
        bits = TBITS.get(op[op.index("<") + 1:].split(",")[0].rstrip(">"), 0)
    else:
        return 1
    return max(1, bits // tb)


def thr_val(r, atom):
    x = r.random()
    tl = r.choice(["(_32,_4):(_4,_1)", "(_16,_8):(_8,_1)", "(_8,_16):(_16,_1)", "make_layout((_32,_1))",
                   "make_layout((_1,_32))", "make_layout((_4,_8))", "make_layout((_8,_4))", "(_4,_8):(_8,_1)",
                   "make_layout(_32)", "make_layout((_16,_8))", "(_32,_8):(_8,_1)", "make_layout((_64,_2))",
                   "make_layout((_2,_2))", "make_layout((_1,_1))", "(_8,(_2,_2)):(_2,(_1,_16))",
                   "(_16,_2):(_1,_16)", "make_layout((_32,_2))", "make_layout((_128,_1))", "(_4,_4):(_4,_1)"])
    if "LDSM" in atom or "STSM" in atom or "Shuffle" in atom or "MOVM" in atom:
        tl = r.choice(["make_layout((_32,_1))", "make_layout((_4,_8))", "(_4,_8):(_8,_1)", "make_layout((_8,_4))",
                       "(_16,_2):(_2,_1)", "make_layout((_32,_2))", "(_32,_4):(_4,_1)", "make_layout((_16,_4))",
                       "make_layout((_16,_2))", "make_layout((_2,_16))"])
    vl = r.choice([None, "make_layout((_1,_8))", "make_layout((_1,_4))", "make_layout((_4,_1))", "make_layout((_8,_1))",
                   "make_layout((_2,_2))", "make_layout((_1,_2))", "make_layout((_2,_1))", "make_layout((_1,_1))",
                   "(_2,_4):(_4,_1)", "make_layout((_1,_16))", "make_layout(_8)", "(_4,_2):(_1,_8)",
                   "make_layout((_2,_8))", "make_layout((_8,_2))"])
    v = atom_vals(atom)
    if v and r.random() < 0.8:
        k = r.choice([1, 1, 2])
        vl = r.choice([f"make_layout((_1,_{v * k}))", f"make_layout((_{v * k},_1))", f"make_layout(_{v * k})",
                       f"(_{v},_{k}):(_{k},_1)" if k > 1 else f"make_layout((_1,_{v}))"])
    return tl, vl


def tiled_copy(r):
    x = r.random()
    if x < 0.45:
        a = copy_atom_expr(r)
        tl, vl = thr_val(r, a)
        return f"G = make_tiled_copy({a}, {tl}" + (f", {vl})" if vl else ")"), None
    if x < 0.85:
        t, op, mnk, lay = tiled_mma(r)
        f = r.choice(["make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_C_atom"])
        a = copy_atom_expr(r)
        return f"{t}; G = {f}({a}, T)", (mnk, lay)
    if x < 0.93:
        a = copy_atom_expr(r, ty=r.choice(["half_t", "float", "uint8_t"]))
        return (f"G = make_cotiled_copy({a}, {r.choice(['(_64,_2):(_2,_1)', '(_32,_4):(_4,_1)', '(_32,_8):(_8,_1)', '(_128,_1):(_1,_0)', '((_8,_4),_2):((_2,_16),_1)'])}, "
                f"{r.choice(['(_8,_16):(_1,_8)', '(_16,_16):(_16,_1)', '(_32,_8):(_1,_32)', '(_64,_4):(_1,_64)', '(_8,_32):(_32,_1)'])})"), None
    a0 = copy_atom_expr(r)
    tl, vl = thr_val(r, a0)
    a = copy_atom_expr(r)
    return (f"G0 = make_tiled_copy({a0}, {tl}" + (f", {vl})" if vl else ")") +
            f"; G = {r.choice(['make_tiled_copy_S', 'make_tiled_copy_D'])}({a}, G0)"), None


def g_tiled_copy(r):
    t, _ = tiled_copy(r)
    x = r.choice(["print", "tiler_mn", "tiled_layout_tv", "tile_size", "tile_size<0>", "tile_size<1>", "size",
                  "get_layoutS_TV", "get_layoutD_TV", "val_layout_src", "val_layout_dst", "val_layout_ref", "tidfrg",
                  "print_latex"])
    if x == "print_latex":
        return f"{t}; print_latex(G)" if t.startswith("G = make_tiled_copy(") and "_32" not in t.split("),", 1)[-1] else f"{t}; G"
    if x == "print":
        return f"{t}; G"
    if x == "size":
        return f"{t}; size(G)"
    if x == "tidfrg":
        tf = r.choice(['tidfrg_S', 'tidfrg_D'])
        L = tensor_layout(r, r.choice([32, 64, 128]), r.choice([16, 32, 64]), allow_sw=False)
        return f"{t}; {wrapped(r, tf + '(G, ' + L + ')')}"
    return f"{t}; {wrapped(r, f'{x}(G)')}"


def g_partition_copy(r):
    t, mm = tiled_copy(r)
    if mm:
        mnk, lay = mm
        M, N, K = (mnk[i] * lay[i] for i in range(3))
        dims = r.choice([(M, K), (N, K), (M, N)])
    else:
        dims = (r.choice([16, 32, 64, 128]), r.choice([8, 16, 32, 64]))
    thr = r.choice([0, 1, 5, 13, 31, 33, 64, 100, 127])
    f = r.choice(["partition_S", "partition_D", "partition_S", "partition_D", "retile_S", "retile_D"])
    if f.startswith("retile"):
        L = r.choice([f"make_layout((_{r.choice([2, 4, 8])},_{r.choice([1, 2, 4])},_{r.choice([1, 2, 4])}))",
                      "((_2,_2),_2,_4):((_1,_2),_4,_8)", "make_layout(((_2,_2),_4,_2))", "((_8,_1),_4,_1):((_1,_0),_8,_0)",
                      f"make_fragment_like(layout(partition_{r.choice('SD')}(G, {thr}, {tensor_layout(r, *dims, allow_sw=False)})))"])
        if mm and r.random() < 0.5:
            w = r.choice("ABC")
            dd = {"A": (M, K), "B": (N, K), "C": (M, N)}[w]
            L = f"make_fragment_like(layout(partition_{w}(T, {thr}, {tensor_layout(r, *dd, allow_sw=False)})))"
        return f"{t}; {wrapped(r, f'{f}(G, {thr}, {L})', tensor=True)}"
    return f"{t}; {wrapped(r, f'{f}(G, {thr}, {tensor_layout(r, *dims)})', tensor=True)}"


TFN = ["take<0,2>", "take<1,3>", "flatten", "filter", "filter_zeros", "layout<0>", "layout<1>", "size<0>", "size<1>",
       "shape<0>", "stride<1>", "rank", "depth", "size", "shape", "stride", "layout<0,0>", "size<0,0>"]


def g_tensor_fn(r):
    if r.random() < 0.5:
        t, op, mnk, lay = tiled_mma(r)
        M, N, K = (mnk[i] * lay[i] for i in range(3))
        w = r.choice("ABC")
        dims = {"A": (M, K), "B": (N, K), "C": (M, N)}[w]
        p = f"partition_{w}(T, {r.choice([0, 3, 37, 64, 101])}, {tensor_layout(r, *dims)})"
    else:
        t, mm = tiled_copy(r)
        if mm:
            mnk, lay = mm
            dims = (mnk[0] * lay[0], mnk[1] * lay[1])
        else:
            dims = (r.choice([32, 64, 128]), r.choice([16, 32, 64]))
        p = f"{r.choice(['partition_S', 'partition_D'])}(G, {r.choice([0, 5, 33, 100])}, {tensor_layout(r, *dims)})"
    x = r.random()
    if x < 0.6:
        return f"{t}; {r.choice(TFN)}({p})"
    if x < 0.8:
        return f"{t}; P = {p}; P({r.choice(['0', '1', '3', '_,0,_', '_,1,_', '(0,1),_,_', '_,_,1', '0,0,0', '_,_,_'])})"
    return f"{t}; P = {p}; {r.choice(TFN)}(P({r.choice(['_,0,_', '_,1,_', '_,_,1'])}))"


CATS = {"tensor_fn": g_tensor_fn, "mma_info": g_mma_info, "tiled_mma": g_tiled_mma, "partition_mma": g_partition_mma,
        "copy_info": g_copy_info, "tiled_copy": g_tiled_copy, "partition_copy": g_partition_copy}
WEIGHTS = {"tensor_fn": 1.0, "mma_info": 1.0, "tiled_mma": 1.5, "partition_mma": 1.5, "copy_info": 1.0, "tiled_copy": 1.5, "partition_copy": 1.5}


def generate(rng, n, cats):
    out, seen = [], set()
    names = [c for c in cats]
    w = [WEIGHTS[c] for c in names]
    tries = 0
    while len(out) < n and tries < n * 20:
        tries += 1
        c = rng.choices(names, w)[0]
        e = CATS[c](rng)
        if e in seen:
            continue
        seen.add(e)
        out.append((c, e))
    return out
