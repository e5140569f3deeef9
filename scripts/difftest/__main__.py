"""Differential testing: random `.cute` expressions through the real CuTe C++ (the oracle) and
through `cute`, compared byte for byte (or refusal against refusal).

    python3 scripts/difftest [--gen NAME] [--n 600] [--seed 1] [--cute target/release/cute]
                             [--oracle PATH] [--out DIR] [--jobs 2] [--batch N] [--chunk N]
                             [--cases FILE.cute | --answers OLD/oracle.jsonl] [--prefilter]
                             [--cats mma_info,...] [--only CATEGORY,...] [--wide]

Generators (one module each, `gen_*.py`, each with `generate(rng, n, ...)`):
  algebra  the core operations on random layouts (gen_basic)
  wide     tuples, coordinates, casts, swizzles, composed layouts, printing (gen_basic)
  full     every function of the oracle README but MMA/copy, mixed static/dynamic (gen_full)
  extra    printing, composed layouts everywhere, mixed tilers, big values, deep nesting,
           tuple predicates, make_*, members, 1-tuple wrappers, slices (gen_extra)
  mutate   CuTe's golden cases with literals toggled static/dynamic and values changed (gen_full)
  all      a mix: algebra and wide 15% each, full the rest
  atoms    MMA/copy atoms, tiled MMAs and copies, partitions, retiles (gen_atoms; --cats)
  layout   random layouts through the layout algebra (gen_layout; --wide)
  swizzle  swizzles, composed layouts and the printers on them (gen_swizzle)
  gmma     GMMA layout atoms, their tilings, casts, slices; make_gmma_desc<K|MN> and its
           refusals (gen_gmma; --only atom,tile,cast,compose,desc_atom,desc_sw,refuse,unverified)

Writes OUT/cases.cute, OUT/oracle.jsonl (the oracle's answers, with a "category" field; copy its
lines into tests/oracle/*.jsonl to keep them as regression cases) and OUT/mismatches.txt; prints
the agreement rate per category. `--answers` rechecks `cute` against answers the oracle gave
before (no compiling). Needs g++ and minutes (the oracle compiles C++), so it is not part of CI.
"""
import argparse
import json
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import gen_atoms  # noqa: E402
import gen_basic  # noqa: E402
import gen_extra  # noqa: E402
import gen_full  # noqa: E402
import gen_gmma  # noqa: E402
import gen_layout  # noqa: E402
import gen_swizzle  # noqa: E402

GENS = ["algebra", "wide", "full", "extra", "mutate", "all", "atoms", "layout", "swizzle", "gmma"]


def generate(a):
    """(category, expression) pairs for the command line `a`."""
    rng = random.Random(a.seed)
    only = a.only.split(",") if a.only else None
    if a.gen in ("algebra", "wide"):
        return gen_basic.generate(rng, a.n, wide=a.gen == "wide")
    if a.gen == "full":
        return gen_full.generate(rng, a.n, only=only)
    if a.gen == "extra":
        return gen_extra.generate(rng, a.n, only=only)
    if a.gen == "mutate":
        return gen_full.mutants(rng, a.n, common.GOLDEN)
    if a.gen == "atoms":
        return gen_atoms.generate(rng, a.n, a.cats.split(","))
    if a.gen == "layout":
        return gen_layout.generate(rng, a.n, wide=a.wide)
    if a.gen == "swizzle":
        return gen_swizzle.generate(rng, a.n)
    if a.gen == "gmma":
        return gen_gmma.generate(rng, a.n, only=only)
    # all: a sixth and more each from the first generators, the rest from the full one
    g = gen_basic.Gen(rng)
    full = iter(gen_full.generate(random.Random(a.seed * 7919 + 1), a.n))
    out = []
    for _ in range(a.n):
        x = rng.random()
        if x < 0.15:
            out.append(("algebra", g.case(gen_basic.OPS)))
        elif x < 0.3:
            out.append(("wide", g.case(gen_basic.WIDE_OPS)))
        else:
            out.append(next(full))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gen", choices=GENS, default="all")
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cute", default=common.CUTE)
    ap.add_argument("--oracle", default=common.ORACLE)
    ap.add_argument("--out", default=os.path.join(common.ROOT, "target", "difftest"))
    ap.add_argument("--cases", help="use this .cute file of cases instead of generating")
    ap.add_argument("--answers", help="reuse these oracle answers (JSONL) instead of running the oracle")
    ap.add_argument("--jobs", type=int, default=2, help="parallel oracle compiles and cute runs")
    ap.add_argument("--batch", type=int, help="cases per oracle compile (the oracle's --batch)")
    ap.add_argument("--chunk", type=int,
                    help="cases per oracle call; each call's answers are appended to OUT/oracle.jsonl as it ends")
    ap.add_argument("--prefilter", action="store_true",
                    help="keep the cases cute answers and a tenth of those it refuses (the oracle compiles "
                         "each refused case alone: slow)")
    ap.add_argument("--cats", default=",".join(gen_atoms.CATS), help="atoms: the categories")
    ap.add_argument("--only", help="full/extra/gmma: only these categories")
    ap.add_argument("--wide", action="store_true", help="layout: deeper and wider shapes")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    answers = os.path.join(a.out, "oracle.jsonl")
    if a.answers:
        recs = common.read_jsonl(a.answers)
    else:
        if a.cases:
            exprs = [line.split("#")[0].strip() for line in open(a.cases)]
            pairs = [("file", e) for e in exprs if e]
        else:
            wanted = a.n
            if a.prefilter:
                a.n *= 3
            pairs = generate(a)
            if a.prefilter:
                with ThreadPoolExecutor(max_workers=max(a.jobs, 1)) as ex:
                    ok = list(ex.map(lambda p: common.run_cute(a.cute, p[1])[0] is not None, pairs))
                keep = random.Random(a.seed + 1)
                pairs = [p for p, k in zip(pairs, ok) if k or keep.random() < 0.1][:wanted]
        cats = {e: c for c, e in pairs}
        cases = os.path.join(a.out, "cases.cute")
        with open(cases, "w") as f:
            f.write("\n".join(e for _, e in pairs) + "\n")
        if a.chunk:
            # the oracle answers nothing until a call ends: small calls, each appended as it ends
            recs = []
            open(answers, "w").close()
            for i in range(0, len(pairs), a.chunk):
                part = os.path.join(a.out, "chunk.cute")
                with open(part, "w") as f:
                    f.write("\n".join(e for _, e in pairs[i:i + a.chunk]) + "\n")
                got = common.run_oracle(a.oracle, part, a.jobs, a.batch)
                for r in got:
                    r["category"] = cats.get(r["expr"], "?")
                with open(answers, "a") as f:
                    f.write("".join(json.dumps(r) + "\n" for r in got))
                recs += got
                print(f"oracle: {len(recs)}/{len(pairs)} answered", file=sys.stderr, flush=True)
        else:
            recs = common.run_oracle(a.oracle, cases, a.jobs, a.batch)
            for r in recs:
                r["category"] = cats.get(r["expr"], "?")
            common.write_jsonl(answers, recs)
    parse = [r for r in recs if r.get("error") == "parse"]
    recs = [r for r in recs if r.get("error") != "parse"]
    with ThreadPoolExecutor(max_workers=max(a.jobs, 1)) as ex:
        ours = list(ex.map(lambda r: common.run_cute(a.cute, r["expr"]), recs))
    same, diff, refused, per_cat = 0, [], 0, {}
    for r, (got, err) in zip(recs, ours):
        want = r.get("cute")
        if "error" in r:
            refused += 1
            ok = got is None and not (err or "").startswith(("PANIC", "TIMEOUT"))
        else:
            ok = got == want
        c = r.get("category", "?")
        t = per_cat.setdefault(c, [0, 0])
        t[0] += ok
        t[1] += 1
        if ok:
            same += 1
        else:
            diff.append(f"[{c}] {r['expr']}\n  cute C++: {want if want is not None else 'ERROR ' + r.get('detail', '')}\n"
                        f"  ours:     {got if got is not None else (err or '')[:600]}\n")
    with open(os.path.join(a.out, "mismatches.txt"), "w") as f:
        f.write("\n".join(diff))
    n = len(recs)
    print(f"{same}/{n} identical ({100.0 * same / max(n, 1):.2f}%), {len(diff)} different; "
          f"CuTe refused {refused} ({100.0 * refused / max(n, 1):.1f}%); {len(parse)} oracle parse errors skipped; "
          f"see {a.out}/mismatches.txt")
    for c in sorted(per_cat):
        ok, tot = per_cat[c]
        print(f"  {c:16} {ok}/{tot}")
    return 0 if not diff else 1


if __name__ == "__main__":
    sys.exit(main())
