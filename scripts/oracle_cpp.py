#!/usr/bin/env python3
"""Answers from CuTe C++ for functions `cute-oracle` does not know, written by hand.

    python3 scripts/oracle_cpp.py tests/oracle_cpp/NAME.txt > tests/oracle/NAME_cases.jsonl

Each line of the input is `EXPR|C++` (split at the last `|`: our notation may hold one, in a
`MixedBits` offset): our notation, then the C++ expression CuTe evaluates for
it (`using namespace cute;`, the oracle's prelude included, so `oracle::` helpers work too),
printed with `print`; or `EXPR|!C++`: a statement run for what it prints itself (`print_tensor`).
Each case is compiled alone with g++ against the CuTe headers and the precompiled prelude in the
oracle's cache (`$CUTE_ORACLE_CACHE`, else `$XDG_CACHE_HOME/cute-oracle`, else
`~/.cache/cute-oracle`; run `cute-oracle` once to fill it), run, and written as the oracle writes
its answers: `{"expr": ..., "cute": printed}` or `{"expr": ..., "error": "compile", "detail": ...}`.
About 5 s a case on 2 cores.
"""
import glob, json, os, signal, subprocess, sys, tempfile


def cache():
    c = os.environ.get("CUTE_ORACLE_CACHE")
    if c:
        return c
    return os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cute-oracle")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = cache()
    headers = sorted(glob.glob(os.path.join(root, "headers-*")))
    prelude = sorted(glob.glob(os.path.join(root, "prelude-*")))
    if not headers or not prelude:
        sys.exit(f"oracle_cpp: no CuTe headers or prelude under {root}: run cute-oracle once first")
    inc = [f"-I{prelude[-1]}"] + [f"-I{os.path.join(headers[-1], d)}" for d in
                                  ("cutlass_library/source/include", "nvidia/cuda_runtime/include",
                                   "nvidia/cuda_nvcc/include")]
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "case.cpp"), os.path.join(tmp, "case")
        for line in open(sys.argv[1]):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            expr, cpp = line.rsplit("|", 1)
            body = f"{cpp[1:]};" if cpp.startswith("!") else f"auto v = {cpp}; print(v);"
            with open(src, "w") as f:
                f.write('#include "oracle_prelude.hpp"\nusing namespace cute;\n'
                        f'int main() {{ {body} return 0; }}\n')
            r = subprocess.run(["g++", "-std=c++17", "-O0", "-w", *inc, src, "-o", exe],
                               capture_output=True, text=True)
            if r.returncode != 0:
                first = next((l for l in r.stderr.splitlines() if "error:" in l), "error: ?")
                out = {"expr": expr, "error": "compile", "detail": first.split("error:", 1)[1].strip()}
            else:
                run = subprocess.run([exe], capture_output=True, text=True)
                rc = run.returncode
                why = signal.Signals(-rc).name if rc < 0 else f"exit {rc}"  # SIGFPE, as the oracle says
                # (trailing newlines dropped, as `cute-oracle` drops them)
                out = {"expr": expr, "cute": run.stdout.rstrip("\n")} if rc == 0 else \
                      {"expr": expr, "error": "runtime", "detail": why}
            print(json.dumps(out, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
