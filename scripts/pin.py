"""Pinning a benchmark, and every process it starts, to one CPU (`--cpu` of the benchmark scripts).

On the 2-core machine of BENCHMARKS.md one CPU at a time runs cute's engine up to 1.8x slower
than the other (pycute's interpreter 1.5x), and which one changes from minute to minute: two
measurements to be compared must then run on the same CPU, or their ratio measures the CPUs.
"""
import os, sys


def add_argument(ap):
    ap.add_argument("--cpu", default="first",
                    help="the CPU every timed program runs on (default: the first this process may use; "
                         "none: left to the system)")


def pin(choice):
    """Pins this process (children inherit it) to the CPU `choice` names; returns it, or None."""
    if choice == "none":
        return None
    allowed = sorted(os.sched_getaffinity(0))
    cpu = allowed[0] if choice == "first" else int(choice) if choice.isdigit() else -1
    if cpu not in allowed:
        sys.exit(f"--cpu {choice}: this process may run on CPUs {allowed} only")
    os.sched_setaffinity(0, {cpu})
    print(f"pinned to CPU {cpu} (every timed program alike)", file=sys.stderr, flush=True)
    return cpu
