"""What every part of the difftest tool shares: where things are, the one oracle client, the one
way to run `cute`, and the one way to write integers and tuples.

No path here is machine-specific: the oracle is `$CUTE_ORACLE`, else `../shared/oracle/cute-oracle`
beside the repository; `cute` is `--cute`, else `target/release/cute` of the repository.
"""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE = os.environ.get("CUTE_ORACLE", os.path.join(ROOT, "..", "shared", "oracle", "cute-oracle"))
CUTE = os.path.join(ROOT, "target", "release", "cute")
GOLDEN = [os.path.join(ROOT, "tests", "oracle", f) for f in ("golden.jsonl", "golden_extra.jsonl")]


def num(v, static):
    """An integer as the notation writes it: `_v` static, `v` dynamic."""
    return f"_{v}" if static else f"{v}"


def fmt(t):
    """A tuple tree: a list of trees, a string (written as is) or a leaf (value, static)."""
    if isinstance(t, list):
        return "(" + ",".join(fmt(e) for e in t) + ")"
    if isinstance(t, str):
        return t
    v, s = t
    return num(v, s)


def run_oracle(oracle, cases, jobs=1, batch=None):
    """CuTe's answers (one record per case) for the `.cute` file `cases`."""
    cmd = [oracle, "--jobs", str(jobs)] + (["--batch", str(batch)] if batch else []) + [cases]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def run_cute(cute, expr, timeout=30):
    """`cute -e expr`: (stdout, None), or (None, the error; PANIC/TIMEOUT marked)."""
    try:
        p = subprocess.run([cute, "--color", "never", "-e", expr], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"TIMEOUT ({timeout} s)"
    if p.returncode != 0:
        err = p.stderr.strip()
        if "panicked" in err:
            err = "PANIC " + err
        return None, err
    return p.stdout.rstrip("\n"), None


def read_jsonl(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def write_jsonl(path, recs):
    with open(path, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in recs))
