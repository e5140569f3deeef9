#!/usr/bin/env python3
"""`emit gemm` planning speed: N generated `emit gemm` statements as one script, timed.

    scripts/bench_emit.py [--cute target/release/cute] [--baseline OTHER_CUTE] [--n 600]
                          [--seed 1] [--runs 5] [--keep FILE]

The statements (seeded, so the same for every binary) vary the problem size, operand majors,
tile, stages, input type, architecture and shared-memory layouts, the options a user changes;
each one plans the kernel (shared-memory layouts tiled and checked at every element, bank
conflicts of the copies) and prints its CUDA source (no GPU needed). Every binary runs the
script `--runs` times with `--keep-going`; the table gives the median wall and CPU (user+system)
seconds and, with `--baseline`, the ratio and whether stdout, stderr and the exit code were
byte-identical.
"""
import argparse, os, random, resource, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

SIZES = ["1000", "1024", "2048", "4096", "8192", "1000 2000 300"]
LAYOUTS = ["TN", "NN", "NT", "TT"]
TILES = ["<128,256,64>", "<128,128,32>", "<128,128,64>", "<64,64,32>", "<256,128,32>"]
# K-major shared-memory atoms by BK (swizzled and plain); used with layout=TN (both K-major)
SMEM = {"64": ["Sw<3,3,3> o (_8,_64):(_64,_1)", "(_8,_64):(_64,_1)"],
        "32": ["Sw<2,3,3> o (_8,_32):(_32,_1)", "(_8,_32):(_32,_1)"]}


def statements(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        size = rng.choice(SIZES)
        mnk = size if size.count(" ") == 2 else f"{size} {size} {size}"
        layout = rng.choice(LAYOUTS)
        opts = [f"layout={layout}", f"dtype={rng.choice(['f16', 'bf16'])}"]
        if rng.random() < 0.25:
            opts.append("arch=sm90")
        else:
            tile = rng.choice(TILES)
            opts.append(f"tile={tile}")
            opts.append(f"stages={rng.choice([2, 3, 4])}")
            bk = tile.strip("<>").split(",")[2]
            for side in ("smem_a", "smem_b"):
                if layout == "TN" and rng.random() < 0.5:
                    opts.append(f"{side}={rng.choice(SMEM[bk])}")
        out.append(f"emit gemm {mnk} " + " ".join(opts))
    return "\n".join(out) + "\n"


def run(binary, script):
    """(wall s, cpu s, stdout, stderr, code) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([binary, "--keep-going", script], capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout, p.stderr, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cute", default=os.path.join(root, "target", "release", "cute"))
    ap.add_argument("--baseline", help="another cute binary, timed alternately in the same run")
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", help="also write the script here")
    a = ap.parse_args()
    text = statements(a.n, a.seed)
    if a.keep:
        with open(a.keep, "w") as f:
            f.write(text)
    with tempfile.NamedTemporaryFile("w", suffix=".cute", delete=False) as f:
        f.write(text)
        script = f.name
    bins = [("cute", a.cute)] + ([("baseline", a.baseline)] if a.baseline else [])
    times = {name: [] for name, _ in bins}
    outputs = {}
    try:
        for _ in range(a.runs):
            for name, b in bins:  # alternating, so that load changes hit both alike
                wall, cpu, out, err, code = run(b, script)
                times[name].append((wall, cpu))
                outputs[name] = (out, err, code)
    finally:
        os.unlink(script)
    print(f"{a.n} `emit gemm` statements (seed {a.seed}), {a.runs} runs each, medians\n")
    print("| binary | wall s | CPU s | statements/s (CPU) | exit |")
    print("|---|---|---|---|---|")
    med = {}
    for name, b in bins:
        w = statistics.median(t[0] for t in times[name])
        c = statistics.median(t[1] for t in times[name])
        med[name] = c
        print(f"| {name} (`{b}`) | {w:.3f} | {c:.3f} | {a.n / max(c, 1e-9):,.0f} | {outputs[name][2]} |")
    if a.baseline:
        same = outputs["cute"] == outputs["baseline"]
        print(f"\nbaseline CPU / cute CPU: {med['baseline'] / max(med['cute'], 1e-9):.2f}x; "
              f"stdout, stderr and exit code identical: {'yes' if same else 'NO'}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
