#!/usr/bin/env python3
"""Benchmark of the layout algebra on the CPU: `cute` against CuTe C++ (through the oracle).

    scripts/bench_algebra.py [--cute target/release/cute] [--oracle-sample 100] [--runs 5]

1. Throughput: each ../shared/bench/<op>.cute file (20,000 cases) through `cute --keep-going FILE`;
   median wall time of --runs runs, in microseconds per case.
2. The same op's first --oracle-sample cases through the oracle (g++ + real CuTe headers, with its
   precompiled header and 2 jobs), once: seconds per case. The ratio is oracle / cute.
3. Latency of one question: `cute -e 'complement((2,2):(1,6), 24)'` as a whole process, median
   of 200 runs, against one oracle call of the same question.
Prints a markdown table for BENCHMARKS.md.
"""
import argparse, os, resource, statistics, subprocess, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
bench = os.path.join(root, "..", "shared", "bench")


def timed(cmd, cpu=False, **kw):
    """Wall seconds of one run of cmd, or (with cpu=True) its user+system CPU seconds, children
    included: on a shared machine CPU time is the steadier measure."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) if cpu else wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cute", default=os.path.join(root, "target", "release", "cute"))
    ap.add_argument("--oracle", default=os.path.join(root, "..", "shared", "oracle", "cute-oracle"))
    ap.add_argument("--oracle-sample", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--bench", default=bench, help="folder of <op>.cute benchmark inputs")
    a = ap.parse_args()
    rows = []
    for f in sorted(os.listdir(a.bench)):
        if not f.endswith(".cute"):
            continue
        path = os.path.join(a.bench, f)
        cases = [l for l in open(path) if l.strip() and not l.startswith("#")]
        runs = [timed([a.cute, "--color", "never", "--keep-going", path], cpu=True) for _ in range(a.runs)]
        us = statistics.median(runs) / len(cases) * 1e6
        with tempfile.NamedTemporaryFile("w", suffix=".cute", delete=False) as t:
            t.write("".join(cases[: a.oracle_sample]))
        o = timed([a.oracle, "--jobs", "2", t.name], cpu=True) / a.oracle_sample * 1e6
        os.unlink(t.name)
        rows.append((f[:-5], len(cases), us, o))
        print(f"{f}: cute {us:.1f} us/case, oracle {o/1e3:.1f} ms/case", flush=True)
    q = "complement((2,2):(1,6), 24)"
    lat = statistics.median(timed([a.cute, "-e", q]) for _ in range(200)) * 1e3
    with tempfile.NamedTemporaryFile("w", suffix=".cute", delete=False) as t:
        t.write(q + "\n")
    olat = timed([a.oracle, t.name]) * 1e3
    clat = statistics.median(timed([a.cute, "-e", q], cpu=True) for _ in range(200)) * 1e3
    os.unlink(t.name)
    print()
    print("CPU time (user+system), so that other load on the machine does not count.")
    print("| operation | cases | cute, µs/case (median of %d runs) | CuTe C++ via oracle (g++ compile + run), ms/case (%d cases) | ratio |" % (a.runs, a.oracle_sample))
    print("|---|---|---|---|---|")
    for name, n, us, o in rows:
        print(f"| {name} | {n} | {us:.1f} | {o/1e3:.1f} | {o/us:,.0f}× |")
    print(f"\nOne question as a whole process (`cute -e '{q}'`): median {lat:.2f} ms wall, {clat:.2f} ms CPU over 200 runs; "
          f"the oracle (compile + run) took {olat:.0f} ms wall for the same question.")


if __name__ == "__main__":
    main()
