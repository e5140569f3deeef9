#!/usr/bin/env python3
"""Check (or fill) the asserts of a .cute script against the real CuTe (cute-oracle).

  oracle_check.py check FILE.cute   verify every assert and that every printed statement is accepted
  oracle_check.py fill FILE.cute    replace `?` placeholders (second argument of identical(...) or rhs
                                 of ==) with the oracle's answer, in place
  oracle_check.py expect FILE.cute  print the oracle's output for every printed statement (expected stdout)
Statements: one per line or `;`-separated; `#` comments. Bindings must use distinct names.
"""
import json, re, subprocess, sys, tempfile, os

ORACLE = os.environ.get("CUTE_ORACLE", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "oracle", "cute-oracle"))

def split_top(s, seps):
    """Split s at top-level occurrences of any separator string (outside brackets)."""
    out, depth, i, start = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if c in "(<": depth += 1
        elif c in ")>": depth -= 1
        if depth == 0:
            for sep in seps:
                if s.startswith(sep, i):
                    out.append(s[start:i]); i += len(sep); start = i; break
            else:
                i += 1; continue
            continue
        i += 1
    out.append(s[start:])
    return out

def statements(text):
    res = []
    for ln, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        for st in split_top(code, [";"]):
            st = st.strip()
            if st:
                res.append((ln, st))
    return res

def call_args(s, name):
    m = re.match(r"^%s\((.*)\)$" % name, s)
    if not m: return None
    parts = split_top(m.group(1), [","])
    return [p.strip() for p in parts] if len(parts) == 2 else None

def oracle(cases):
    uniq = list(dict.fromkeys(cases))
    with tempfile.NamedTemporaryFile("w", suffix=".cute", delete=False) as f:
        f.write("\n".join(uniq) + "\n")
        name = f.name
    out = subprocess.run([ORACLE, "--jobs", "1", name], capture_output=True, text=True).stdout
    os.unlink(name)
    ans = {}
    for line in out.splitlines():
        r = json.loads(line)
        ans[r["expr"]] = r.get("cute", "ERROR " + r.get("error", "?") + ": " + r.get("detail", ""))
    return ans

def destatic(s):
    return re.sub(r"_(-?\d)", r"\1", s)

def plan(stmts):
    """For each statement: (line, kind, exprs, ctx)."""
    binds, names, items = [], set(), []
    for ln, st in stmts:
        m = re.match(r"^([A-Za-z][A-Za-z0-9_]*)\s*=(?!=)\s*(.*)$", st)
        ctx = "; ".join(binds)
        pre = (ctx + "; ") if ctx else ""
        if m and not st.startswith("assert"):
            if m.group(1) in names:
                sys.exit(f"line {ln}: {m.group(1)} bound twice (the oracle cannot rebind)")
            names.add(m.group(1)); binds.append(st)
            items.append((ln, st, "bind", [pre + m.group(2)] if False else []))
            continue
        if st.startswith("assert "):
            body = st[len("assert "):].strip()
            for kind in ("identical", "equivalent"):
                a = call_args(body, kind)
                if a:
                    if kind == "equivalent":
                        items.append((ln, st, kind, [pre + f"coalesce({a[0]})", pre + f"coalesce({a[1]})"], a))
                    else:
                        items.append((ln, st, kind, [pre + a[0], pre + a[1]], a))
                    break
            else:
                parts = split_top(body, ["=="])
                if len(parts) == 2:
                    a = [p.strip() for p in parts]
                    items.append((ln, st, "==", [pre + a[0], pre + a[1]], a))
                else:
                    items.append((ln, st, "truth", [pre + body], [body]))
            continue
        items.append((ln, st, "print", [pre + st], [st]))
    return items

def main():
    mode, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    items = plan(statements(text))
    cases = [c for it in items if it[2] != "bind" for c in it[3] if not c.endswith("?")]
    ans = oracle(cases)
    bad = 0
    if mode == "fill":
        lines = text.splitlines()
        for it in items:
            ln, st, kind = it[0], it[1], it[2]
            if kind in ("identical", "==") and it[4][1] == "?":
                v = ans.get(it[3][0], "MISSING")
                if v.startswith("ERROR") or "\n" in v:
                    print(f"line {ln}: cannot fill: {v}"); bad += 1; continue
                lines[ln - 1] = lines[ln - 1].replace("?", v, 1)
        open(path, "w").write("\n".join(lines) + "\n")
        print(f"filled; {bad} problems")
        return
    for it in items:
        ln, st, kind = it[0], it[1], it[2]
        if kind == "bind": continue
        vals = [ans.get(c, "MISSING") for c in it[3]]
        if mode == "expect":
            if kind == "print": print(vals[0])
            continue
        ok = True
        if any(v.startswith("ERROR") or v == "MISSING" for v in vals): ok = kind == "print" and False
        elif kind == "identical": ok = vals[0] == vals[1]
        elif kind in ("==", "equivalent"): ok = destatic(vals[0]) == destatic(vals[1])
        elif kind == "truth": ok = vals[0] in ("_1", "1", "true")
        elif kind == "print": ok = True
        if not ok:
            bad += 1
            print(f"{path}:{ln}: {st}\n    oracle: {vals}")
    if mode == "check":
        print(f"{path}: {len([i for i in items if i[2] not in ('bind','print')])} asserts, "
              f"{len([i for i in items if i[2]=='print'])} printed, {bad} problems")
        sys.exit(1 if bad else 0)

main()
