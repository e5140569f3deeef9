#!/usr/bin/env python3
"""cute against pycute on the same cases, in the same run: the ratio table of BENCHMARKS.md.

    scripts/bench_vs_pycute.py [--cute target/release/cute [--cute OTHER ...]]
                               [--bench ../shared/bench] [--runs 5] [--limit N]
                               [--cpu N|none] [FILE.cute ...]

0. Pins itself, and so pycute and every cute it starts, to one CPU (`--cpu`, default the first
   it may use; `--cpu none` leaves placement to the system). On the 2-core machine of
   BENCHMARKS.md one CPU at a time runs this work up to 1.8x slower than the other (cute's
   engine; pycute 1.5x), and which one changes from minute to minute: unpinned, the two sides
   of a round could run on different CPUs, and a ratio then measured the CPUs, not the programs
   (since 2026-12-06; the twenty-sixth session's section there).

1. Installs pycute from the `nvidia-cutlass==4.2.0.0` wheel into a temporary folder
   (`pip download --no-deps`, then the wheel's `pycute/` package is unpacked; nothing else of
   the wheel is used and nothing is installed system-wide).
2. For each benchmark file (one call per line, static integers): builds pycute's arguments once,
   makes one untimed pass over them (as `cute bench` makes untimed warm-up passes: since
   2026-12-06; before, cute's median of 3 was mostly its second, still warming, pass),
   then, --runs rounds in turn, times pycute's calls only (compute-only), the whole process
   `cute --keep-going FILE` (its wall time; its peak memory from another run under GNU time,
   which is not inside the wall time: until 2026-12-04 both came from one run under GNU time,
   whose own start and wait, 1-3 ms, counted as cute's) and `cute bench --reps 3 FILE`
   (engine-only and in-process session figures), one after the other. Each ratio is the median
   of the rounds' ratios: the two sides of a ratio ran seconds apart, so a change in the
   machine's speed between rounds (this machine's swings by 2x) touches both alike. The rates
   shown are the medians of the rounds. With several `--cute` binaries (two builds to
   compare), each round times each of them after the same pycute run (a different one first
   in each round), and the table has a row per file and binary.
3. Checks that every answer agrees with cute's (same text once CuTe's `_` marks are dropped, or
   else the same function: equal size and equal offsets at every index; for left_inverse, which
   is not unique, else both results satisfy R(L(i)) == i). Disagreements are counted, never
   hidden.
4. Prints a Markdown table: ops/s of each side and the ratios, plus `cute -e` latency and the
   wall time of starting `/bin/true` the same way (the floor under every process time).
"""
import argparse, glob, io, os, re, statistics, subprocess, sys, tempfile, time, zipfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, here)
import pin  # noqa: E402


def install_pycute(tmp):
    """The pycute package of the nvidia-cutlass 4.2.0.0 wheel, unpacked into tmp."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", tmp,
                    "nvidia-cutlass==4.2.0.0"], check=True)
    whl = glob.glob(os.path.join(tmp, "nvidia_cutlass-4.2.0.0-*.whl"))[0]
    with zipfile.ZipFile(whl) as z:
        for n in z.namelist():
            if n.startswith("pycute/"):
                z.extract(n, tmp)
    sys.path.insert(0, tmp)
    import pycute
    return pycute


# --- the case language: `op(arg, ...)` with args `_N`, `(..)` tuples and `S:D` layouts -----------

def parse_args(text, pycute):
    """`composition((_16,_4):(_4,_2), (_4,_2):(_4,_16))` -> ('composition', [Layout, Layout])."""
    m = re.fullmatch(r"\s*(\w+)\((.*)\)\s*", text)
    if not m:
        return None
    name, body = m.group(1), m.group(2)
    pos = 0

    def ws():
        nonlocal pos
        while pos < len(body) and body[pos] == " ":
            pos += 1

    def atom():
        nonlocal pos
        ws()
        if body[pos] == "(":
            pos += 1
            items = []
            while True:
                ws()
                if body[pos] == ")":
                    pos += 1
                    break
                items.append(atom())
                ws()
                if body[pos] == ",":
                    pos += 1
            return tuple(items)
        m2 = re.compile(r"_?(-?\d+)").match(body, pos)
        if not m2:
            raise ValueError(f"cannot read {body!r} at {pos}")
        pos = m2.end()
        return int(m2.group(1))

    def arg():
        nonlocal pos
        a = atom()
        ws()
        if pos < len(body) and body[pos] == ":":
            pos += 1
            return pycute.Layout(a, atom())
        return a

    args = []
    while True:
        ws()
        if pos >= len(body):
            break
        args.append(arg())
        ws()
        if pos < len(body) and body[pos] == ",":
            pos += 1
    return name, args


def norm(s):
    """Text of a layout/tuple without CuTe's static marks and Python's spaces and 1-tuple commas."""
    s = str(s).replace(" ", "").replace(",)", ")")
    return re.sub(r"(?<![\w])_(-?\d)", r"\1", s)


def offsets(layout_text, pycute):
    """A layout printed by either side, as pycute values (for the functional comparison)."""
    _, args = parse_args(f"f({layout_text})", pycute)
    return args[0]


def same_function(a, b):
    try:
        sa, sb = a.size(), b.size()
        return sa == sb and all(a(i) == b(i) for i in range(sa))
    except Exception:
        return False


def both_left_inverses(a, b, l):
    """Left inverses are not unique (CuTe and pycute pick different ones): both satisfy
    R(L(i)) == i for every i < size(L)."""
    try:
        return all(a(l(i)) == i and b(l(i)) == i for i in range(l.size()))
    except Exception:
        return False


def run(cmd, rss=True):
    """(wall seconds, peak RSS in KiB, stdout) of one process. The peak comes from GNU time
    when there is one: a child's own ru_maxrss also counts the copy of this Python process it
    was forked from (about 20 MB), which hides a small process's real peak."""
    gnu_time = "/usr/bin/time"
    with tempfile.NamedTemporaryFile("r") as peak_file:
        wrapped = [gnu_time, "-f", "%M", "-o", peak_file.name] + cmd if rss and os.path.exists(gnu_time) else cmd
        t = time.perf_counter()
        p = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = p.stdout.read()
        _, _, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        peak = ru.ru_maxrss
        if wrapped is not cmd:
            try:
                peak = int(peak_file.read().split()[-1])
            except (ValueError, IndexError):
                pass
    return wall, peak, out.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cute", action="append",
                    help="a cute binary (repeat to compare builds; default target/release/cute)")
    ap.add_argument("--bench", default=os.path.join(root, "..", "shared", "bench"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--limit", type=int, default=0, help="use only the first N cases of each file")
    pin.add_argument(ap)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    cpu = pin.pin(a.cpu)
    bins = a.cute or [os.path.join(root, "target", "release", "cute")]
    files = a.files or sorted(glob.glob(os.path.join(a.bench, "*.cute")))
    if not files:
        sys.exit(f"no benchmark files: none given and no *.cute in {a.bench} (use --bench DIR)")
    tmp = tempfile.mkdtemp(prefix="pycute-")
    pycute = install_pycute(tmp)
    ops = {"composition": pycute.composition, "complement": pycute.complement,
           "logical_divide": pycute.logical_divide, "logical_product": pycute.logical_product,
           "coalesce": pycute.coalesce, "right_inverse": pycute.right_inverse,
           "left_inverse": pycute.left_inverse}
    rows = []
    for path in files:
        lines = [l.strip() for l in open(path) if l.strip() and not l.lstrip().startswith("#")]
        if a.limit:
            lines = lines[: a.limit]
        src = path
        if a.limit:
            fd, src = tempfile.mkstemp(suffix=".cute", dir=tmp)
            with os.fdopen(fd, "w") as f:
                f.write("\n".join(lines) + "\n")
        cases = [parse_args(l, pycute) for l in lines]
        calls = [(ops[n], args) for n, args in cases]
        # The rounds: pycute, then for each binary the whole process and the engine, in turn (see
        # the module's comment).
        times, answers = [], None
        # One untimed pass first: pycute's rounds are then all warm, as cute's engine passes are
        # (`cute bench` times its passes after untimed warm-up passes).
        [f(*args) for f, args in calls]
        per = {b: dict(walls=[], rss=[], out="", benches=[]) for b in bins}
        for k in range(a.runs):
            t = time.perf_counter()
            res = [f(*args) for f, args in calls]
            times.append(time.perf_counter() - t)
            answers = res
            # (each binary goes first in turn: the first after pycute may find colder caches)
            for b in bins[k % len(bins):] + bins[: k % len(bins)]:
                m = per[b]
                # Wall time of cute alone; the peak memory from a second run under GNU time, whose
                # own start and wait (1-3 ms here) would otherwise count as cute's.
                w, _, m["out"] = run([b, "--color", "never", "--keep-going", src], rss=False)
                m["walls"].append(w)
                m["rss"].append(run([b, "--color", "never", "--keep-going", src])[1])
                r = subprocess.run([b, "bench", "--reps", "3", src], capture_output=True, text=True, check=True)
                m["benches"].append(list(map(float, r.stdout.splitlines()[1].split()[2:7])))
        n = len(calls)
        py_ops = statistics.median(n / t for t in times)
        for b in bins:
            walls, rss, out, benches = (per[b][k] for k in ("walls", "rss", "out", "benches"))
            proc_ops = statistics.median(n / w for w in walls)
            engine_ops, session_ops, parse_ns, print_ns, interp_ns = (statistics.median(c) for c in zip(*benches))
            engine_rounds = [e[0] * t / n for e, t in zip(benches, times)]
            engine_ratio = statistics.median(engine_rounds)
            proc_ratio = statistics.median(t / w for t, w in zip(times, walls))
            ours = [l for l in out.splitlines() if not re.fullmatch(r"\d+ passed, \d+ failed", l)]
            text_same = func_same = law_same = 0
            for o, p, (op, args) in zip(ours, answers, cases):
                if norm(o) == norm(p):
                    text_same += 1
                elif same_function(offsets(o, pycute), p):
                    func_same += 1
                elif op == "left_inverse" and both_left_inverses(offsets(o, pycute), p, args[0]):
                    law_same += 1
            differ = len(calls) - text_same - func_same - law_same
            rows.append(dict(name=os.path.basename(path)[:-5], bin=b, n=len(calls), py=py_ops, engine=engine_ops,
                             session=session_ops, proc=proc_ops, wall=statistics.median(walls) * 1e3,
                             engine_ratio=engine_ratio, engine_range=(min(engine_rounds), max(engine_rounds)),
                             proc_ratio=proc_ratio,
                             rss=max(rss) / 1024, parse=parse_ns, print=print_ns, interp=interp_ns,
                             text=text_same, func=func_same, law=law_same, differ=differ))
            r = rows[-1]
            label = f" [{b}]" if len(bins) > 1 else ""
            lo, hi = r["engine_range"]
            print(f"{r['name']}{label}: pycute {py_ops:,.0f}/s, engine {engine_ops:,.0f}/s ({engine_ratio:.1f}x, "
                  f"rounds {lo:.1f}-{hi:.1f}x), "
                  f"process {proc_ops:,.0f}/s ({proc_ratio:.2f}x), {r['wall']:.0f} ms, {r['rss']:.0f} MB; "
                  f"answers: {text_same} same text, {func_same} same function, {law_same} both left inverses, "
                  f"{differ} differ", file=sys.stderr, flush=True)
    # `cute -e`, the binaries in turn
    expr = "composition((_16,_4):(_4,_2), (_4,_2):(_4,_16))"
    lat = {b: [] for b in bins}
    # (and the floor under every process time here: starting a program that does nothing, the
    # same way, in the same rounds)
    floor = []
    true = "/bin/true" if os.path.exists("/bin/true") else None
    for _ in range(max(50, a.runs * 20)):
        for b in bins:
            lat[b].append(run([b, "-e", expr], rss=False)[0] * 1e3)
        if true:
            floor.append(run([true], rss=False)[0] * 1e3)
    col = "| cute " if len(bins) > 1 else ""
    print(col + "| file | cases | pycute op/s | cute engine op/s | engine / pycute | its rounds | cute process op/s "
          "| process / pycute "
          "| process wall ms | peak RSS MB | parse ns/stmt | print ns/stmt | interp ns/stmt | answers agree |")
    print(("|---" if len(bins) > 1 else "") + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        agree = f"{r['text'] + r['func'] + r['law']}/{r['n']}"
        if r["func"]:
            agree += f" ({r['func']} as functions)"
        if r["law"]:
            agree += f" ({r['law']} other left inverses)"
        print((f"| {r['bin']} " if len(bins) > 1 else "") + f"| {r['name']} | {r['n']} | {r['py']:,.0f} | {r['engine']:,.0f} | {r['engine_ratio']:.1f}x | "
              f"{r['engine_range'][0]:.1f}-{r['engine_range'][1]:.1f}x | "
              f"{r['proc']:,.0f} | {r['proc_ratio']:.2f}x | {r['wall']:.0f} | {r['rss']:.0f} | {r['parse']:.0f} | "
              f"{r['print']:.0f} | {r['interp']:.0f} | {agree} |")
    print(f"\nRates: medians of {a.runs} rounds; ratios: medians of the rounds' ratios (each round times pycute, "
          "then, for each binary, the cute process, then the cute engine); its rounds: the lowest and highest "
          "of the engine's. " + (f"Every timed program ran on CPU {cpu}." if cpu is not None else "Unpinned (`--cpu none`)."))
    for b in bins:
        label = f" [{b}]" if len(bins) > 1 else ""
        print(f"\n`cute -e '{expr}'`{label}: median {statistics.median(lat[b]):.2f} ms wall over {len(lat[b])} runs.")
    if floor:
        print(f"\n`/bin/true` started and waited for the same way: median {statistics.median(floor):.2f} ms wall over "
              f"{len(floor)} runs (part of every process time above).")


if __name__ == "__main__":
    main()
