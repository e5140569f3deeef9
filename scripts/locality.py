#!/usr/bin/env python3
"""Per-call engine speed of each whole bench file against its own 2,000-line pieces.

    python3 scripts/locality.py [--cute target/release/cute] [--bench ../shared/bench] [--rounds 5]
                                [--cpu N|none]

A piece holds the same calls as its part of the file, so the work per call is the same; what
differs is the memory the engine pass walks (the whole file keeps 10x the arguments and results
alive). For each file and round: `cute bench --reps 3` on each piece (the median of the pieces'
engine op/s) and on the whole file, in turn; the table gives the medians over the rounds and the
ratio whole / pieces (with its range over the rounds). A ratio well under 1 says the engine's
memory, not its instructions, costs time on the whole file. Every run is pinned to one CPU
(`--cpu`, see `pin.py`).
"""
import argparse, glob, os, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pin  # noqa: E402


def engine_ops(cute, path):
    out = subprocess.run([cute, "bench", "--reps", "3", path], capture_output=True, text=True, check=True).stdout
    return float(out.splitlines()[1].split()[2])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cute", default=os.path.join(here, "..", "target", "release", "cute"))
    ap.add_argument("--bench", default=os.path.join(here, "..", "..", "shared", "bench"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--piece", type=int, default=2000)
    pin.add_argument(ap)
    a = ap.parse_args()
    pin.pin(a.cpu)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(glob.glob(os.path.join(a.bench, "*.cute"))):
            name = os.path.basename(path)[:-5]
            lines = open(path).read().splitlines()
            head = [l for l in lines if l.startswith("#") or not l.strip()]
            body = [l for l in lines if l.strip() and not l.startswith("#")]
            pieces = []
            for k in range(0, len(body), a.piece):
                p = os.path.join(tmp, f"{name}.{k // a.piece}.cute")
                with open(p, "w") as f:
                    f.write("\n".join(head + body[k:k + a.piece]) + "\n")
                pieces.append(p)
            whole, parts, ratios = [], [], []
            for _ in range(a.rounds):
                pr = statistics.median(engine_ops(a.cute, p) for p in pieces)
                w = engine_ops(a.cute, path)
                parts.append(pr)
                whole.append(w)
                ratios.append(w / pr)
            rows.append((name, statistics.median(parts), statistics.median(whole), statistics.median(ratios),
                         min(ratios), max(ratios)))
            print(f"{name}: pieces {rows[-1][1] / 1e6:.2f} M/s, whole {rows[-1][2] / 1e6:.2f} M/s, "
                  f"whole/pieces {rows[-1][3]:.2f}", flush=True)
    print(f"\n| file | pieces of {a.piece:,} (engine op/s) | whole file | whole / pieces (range) |")
    print("|---|---|---|---|")
    for name, p, w, r, lo, hi in rows:
        print(f"| {name} | {p / 1e6:.2f} M | {w / 1e6:.2f} M | {r:.2f} ({lo:.2f}-{hi:.2f}) |")


if __name__ == "__main__":
    main()
