#!/usr/bin/env bash
# The fastest `cute`: a profile-guided build (PGO), as CPython's `--enable-optimizations` and
# rustc's own release builds are made. Prints the binary's path: target/pgo/fast/cute.
#
#   scripts/pgo.sh
#
# 1. builds `cute` instrumented (profile `fast`: the release profile linked as one unit, fat LTO),
# 2. runs it on a training workload: every expression of tests/oracle/*.jsonl (about 31,000
#    statements of some 150 functions, errors included; never the benchmark files of
#    ../shared/bench, which the benchmarks time) and the scripts of scripts/ but the GPU's,
#    each as a script and through `cute bench`,
# 3. merges the counts (llvm-profdata, from rustup's llvm-tools, added if missing) and builds
#    again with them,
# 4. checks that the new binary prints byte for byte what target/release/cute prints on the same
#    workload (standard output, standard error and exit status), and that `cute --version`
#    says `(profile-guided build)`.
#
# Needs rustup, python3 and a few minutes (two builds with link-time optimisation).
# BENCHMARKS.md gives the gain; `cargo build --release` stays the ordinary build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  rustup component add llvm-tools >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The workload: the oracle's expressions, 500 lines a script (a script is at most 1 MiB, and a
# line that does not parse stops only its own script), and the repository's scripts.
mkdir -p "$work/train"
python3 - "$work/train" tests/oracle/*.jsonl <<'EOF'
import json, sys
out, files = sys.argv[1], sys.argv[2:]
lines = []
for f in files:
    for line in open(f):
        try:
            e = json.loads(line).get("expr")
        except ValueError:
            continue
        if isinstance(e, str) and "\n" not in e:
            lines.append(e)
for k in range(0, len(lines), 500):
    with open(f"{out}/oracle_{k // 500:03d}.cute", "w") as w:
        w.write("\n".join(lines[k:k + 500]) + "\n")
EOF
# (not the GPU's: `run gemm` prints timings, which differ run to run)
for f in scripts/*.cute; do
  grep -q 'run gemm' "$f" || cp "$f" "$work/train/"
done

# Run BIN over the workload (in the workload's folder: scripts that write files write there).
train() {
  local bin=$1 f
  (
    cd "$work/train"
    for f in *.cute; do
      "$bin" --keep-going "$f" || true
      "$bin" bench --reps 1 "$f" >/dev/null 2>&1 || true
    done
    "$bin" -e 'composition((_16,_4):(_4,_2), (_4,_2):(_4,_16))' || true
  )
}

echo "pgo: instrumented build" >&2
# (`CUTE_PGO`: `cute --version` names the build)
export CUTE_PGO=1
RUSTFLAGS="-Cprofile-generate=$work/counts" cargo build --quiet --profile fast --target-dir target/pgo-gen
echo "pgo: training" >&2
train "$root/target/pgo-gen/fast/cute" >/dev/null 2>&1
"$profdata" merge -o "$work/cute.profdata" "$work/counts"
echo "pgo: optimised build" >&2
RUSTFLAGS="-Cprofile-use=$work/cute.profdata" cargo build --quiet --profile fast --target-dir target/pgo

# The same answers as the ordinary build, statement for statement.
echo "pgo: checking against target/release/cute" >&2
env -u CUTE_PGO cargo build --quiet --release
"$root/target/pgo/fast/cute" --version | grep -q "profile-guided" || {
  echo "pgo: the optimised binary does not say what it is (cute --version)" >&2
  exit 1
}
check() { # binary -> its output, errors and exit statuses on every script of the workload
  local bin=$1 f
  (
    cd "$work/train"
    for f in *.cute; do
      echo "== $f"
      "$bin" --keep-going "$f" 2>&1 && echo "rc 0" || echo "rc $?"
    done
  )
}
if ! cmp -s <(check "$root/target/release/cute") <(check "$root/target/pgo/fast/cute"); then
  echo "pgo: the optimised binary's output differs from target/release/cute's" >&2
  exit 1
fi
echo "$root/target/pgo/fast/cute"
