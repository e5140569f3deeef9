#!/usr/bin/env bash
# Instructions per statement (callgrind), the load-independent measure BENCHMARKS.md uses for
# each change: for the first N cases of each file of ../shared/bench/, the whole process
# (`cute --keep-going FILE`) and the engine's calls alone (`cute bench --reps 1`, counted inside
# its engine pass, `bench::engine_pass`, law checks included). With two binaries, both and their
# ratio. (Until 2026-12-04 it was counted inside `builtins::call_slot`: that counted one of
# the bench's two passes over the calls, the other's `call_slot` being inlined.)
#
#   scripts/instructions.sh [-n N] [--bench DIR] CUTE [CUTE_NEW]
#
# Needs valgrind. Both runs are deterministic: the same binary and input give the same counts.
set -euo pipefail
n=2000
bench="$(dirname "$0")/../../shared/bench"
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { sed -n '2,9p' "$0"; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The first N cases of each file (its comment lines kept).
for f in "$bench"/*.cute; do
  awk -v n="$n" '/^#/ || NF == 0 { print; next } { if (k++ < n) print }' "$f" > "$tmp/$(basename "$f")"
done

# Instructions of one run, from callgrind's summary line.
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

row() { # binary file -> "process engine" per statement
  local p e
  p=$(count "$1" --keep-going "$2")
  e=$(count --toggle-collect='cute::bench::engine_pass' "$1" bench --reps 1 "$2")
  echo "$((p / n)) $((e / n))"
}

if [ $# -eq 1 ]; then
  echo "| file | process | engine |"
  echo "|---|---|---|"
  for f in "$tmp"/*.cute; do
    read -r p e < <(row "$1" "$f")
    echo "| $(basename "$f" .cute) | $p | $e |"
  done
else
  echo "| file | process A | process B | B/A | engine A | engine B | B/A |"
  echo "|---|---|---|---|---|---|---|"
  for f in "$tmp"/*.cute; do
    read -r pa ea < <(row "$1" "$f")
    read -r pb eb < <(row "$2" "$f")
    awk -v f="$(basename "$f" .cute)" -v pa="$pa" -v pb="$pb" -v ea="$ea" -v eb="$eb" \
      'BEGIN { printf "| %s | %d | %d | %.2f | %d | %d | %.2f |\n", f, pa, pb, pb / pa, ea, eb, eb / ea }'
  done
fi
