#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How the expected outputs of tests/runner_cases were computed.

Each case's program is re-implemented here in plain python (fixpoints by
hand, python's re for the regular expressions), reading the same .facts
files, so the expected files do not come from maelys-datalog itself.  It
writes expected/*.csv and expected_stdout of the cases that produce data;
the error cases' expected_status and expected_stderr_contains were written
by hand.  Usage: python3 tests/runner_cases/compute_expected.py [CASES_DIR]
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.abspath(__file__))

def rd(case, name, delim="\t"):
    data = open(os.path.join(ROOT, case, name), "rb").read().decode("utf-8")
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [tuple(l.split(delim)) for l in lines]

def num(s):
    assert re.fullmatch(r"-?[0-9]+", s), s
    return int(s)

def anyv(s):
    # canonical decimal int64 -> int, else symbol
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", s) and s != "-0":
        v = int(s)
        if -2**63 <= v < 2**63:
            return v
    return s

def key(row):
    return tuple((0, v, b"") if isinstance(v, int) else (1, 0, v.encode("utf-8")) for v in row)

def fmt(rows, delim="\t"):
    out = []
    for r in sorted(set(rows), key=key):
        if len(r) == 0:
            out.append("()\n")
        else:
            out.append(delim.join(str(v) for v in r) + "\n")
    return "".join(out)

def put(case, rel, text):
    d = os.path.join(ROOT, case, "expected")
    os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
    with open(os.path.join(d, rel), "wb") as f:
        f.write(text.encode("utf-8"))

def put_file(case, name, text):
    with open(os.path.join(ROOT, case, name), "wb") as f:
        f.write(text.encode("utf-8"))

def closure(edges):
    path = set(edges)
    while True:
        new = {(a, c) for (a, b) in path for (b2, c) in edges if b == b2} - path
        if not new:
            return path
        path |= new

def frame(rel, text):
    return "---------------\n%s\n===============\n%s===============\n" % (rel, text)

# tc_souffle
edge = [(num(a), num(b)) for a, b in rd("tc_souffle", "edge.facts")]
path = closure(set(edge))
put("tc_souffle", "path.csv", fmt(path))
put_file("tc_souffle", "expected_stdout", "path\t%d\nedge\t%d\n" % (len(path), len(set(edge))))

# same_generation
par = set(rd("same_generation", "par.facts"))
sg = {(x, y) for (x, p) in par for (y, q) in par if p == q}
while True:
    new = {(x, y) for (x, a) in par for (a2, b) in sg if a == a2 for (y, b2) in par if b2 == b} - sg
    if not new:
        break
    sg |= new
put("same_generation", "sg.csv", fmt(sg))
put_file("same_generation", "expected_stdout", "sg\t%d\n" % len(sg))

# negation_stratified
node = {anyv(a) for (a,) in rd("negation_stratified", "node.facts")}
edge = {(anyv(a), anyv(b)) for a, b in rd("negation_stratified", "edge.facts")}
start = {anyv(a) for (a,) in rd("negation_stratified", "start.facts")}
reach = set(start)
while True:
    new = {m for (n, m) in edge if n in reach} - reach
    if not new:
        break
    reach |= new
unreached = {n for n in node if n not in reach}
touches = {n for (n, m) in edge if m in reach}
stranded = {n for n in unreached if n not in touches}
put("negation_stratified", "unreached.csv", fmt((n,) for n in unreached))
put("negation_stratified", "stranded.csv", fmt((n,) for n in stranded))
put_file("negation_stratified", "expected_stdout", "reach\t%d\n" % len(reach))

# symbols_unicode
lives = set(rd("symbols_unicode", "lives.facts"))
put("symbols_unicode", "city.csv", fmt((c,) for (_, c) in lives))
put("symbols_unicode", "neighbours.csv",
    fmt((a, b) for (a, c) in lives for (b, d) in lives if c == d and a != b))
put("symbols_unicode", "in_paris.csv",
    fmt((p,) for (p, c) in lives if c in ("Paris", "Île-de-France")))

# native_mixed
item = {(anyv(a), anyv(b)) for a, b in rd("native_mixed", "item.facts")}
known = {3, "x", "x_sym"}
put("native_mixed", "item.csv", fmt(item))
put("native_mixed", "swapped.csv", fmt((b, a) for a, b in item))
put("native_mixed", "matched.csv", fmt((k, v) for k, v in item if k in known))

# type_aliases
emp = [(num(i), n, num(b)) for i, n, b in rd("type_aliases", "emp.facts")]
above = {(e, b) for e, _, b in emp if e != b}
above = closure(above)
name = {i: n for i, n, _ in emp}
put("type_aliases", "reports.csv", fmt((name[x], name[y]) for x, y in above))
put_file("type_aliases", "expected_stdout", "above\t%d\n" % len(above))

# souffle_builtins
f = [(p, num(s)) for p, s in rd("souffle_builtins", "file.facts")]
c = "souffle_builtins"
put(c, "big.csv", fmt((p,) for p, s in f if s > 1000))
put(c, "small_or_equal.csv", fmt((p, q) for p, s in f for q, t in f if s <= t and s >= 100 and p != q))
put(c, "exactly.csv", fmt((p,) for p, s in f if s == 42))
put(c, "not_empty.csv", fmt((p,) for p, s in f if s != 0 and s < 100))
put(c, "after_m.csv", fmt((p,) for p, s in f if p.encode() >= b"m"))
put(c, "c_source.csv", fmt((p,) for p, s in f if re.fullmatch(r".*\.c", p)))
put(c, "has_test.csv", fmt((p,) for p, s in f if "test" in p))
put(c, "not_log.csv", fmt((p,) for p, s in f if not re.fullmatch(r".*log", p)))

# native_builtins
c = "native_builtins"
cmd = [l for (l,) in rd(c, "cmd.facts")]
for l in cmd:
    assert not isinstance(anyv(l), int)
put(c, "uses_sudo.csv", fmt((l,) for l in cmd if re.search(r"(^|\s)sudo\s", l)))
put(c, "git_cmd.csv", fmt((l,) for l in cmd if l.startswith("git ")))
put(c, "not_git.csv", fmt((l,) for l in cmd if not l.startswith("git")))
put(c, "ends_with_slash.csv", fmt((l,) for l in cmd if l.endswith("/")))
put(c, "has_pipe.csv", fmt((l,) for l in cmd if " | " in l))
put(c, "digits.csv", fmt((l,) for l in cmd if re.search(r"[0-9]{3}", l)))
put(c, "anchored.csv", fmt((l,) for l in cmd if re.search(r"^ls", l) and not re.search(r"-la?$", l)))

# io_params
c = "io_params"
edge = {(num(a), num(b)) for a, b in rd(c, "data/edges.txt", ",")}
label = [(num(n), s) for n, s in rd(c, "data/labels.tsv")]
path = closure(edge)
put(c, "path.out", fmt(path, " -> "))
put(c, "path.csv", fmt(path))
put(c, "named.csv", fmt(((x, y) for a, b in path for n1, x in label if n1 == a for n2, y in label if n2 == b), ";"))

# io_stdout
c = "io_stdout"
likes = set(rd(c, "likes.facts"))
shared = {(a, b, w) for a, w in likes for b, w2 in likes if w == w2 and a.encode() < b.encode()}
fans = {(w,) for _, w in likes}
put(c, "fans.csv", fmt(fans))
put_file(c, "expected_stdout", "likes\t%d\n" % len(likes) + frame("shared", fmt(shared)) + "fans\t%d\n" % len(fans))

# dash_d_stdout
c = "dash_d_stdout"
succ = {(num(a), num(b)) for a, b in rd(c, "succ.facts")}
even, odd = {0}, set()
while True:
    o2 = {y for x in even for a, y in succ if a == x}
    e2 = {0} | {y for x in odd for a, y in succ if a == x}
    if o2 == odd and e2 == even:
        break
    odd, even = o2, e2
pairs = {(x, y) for x, y in succ if x in even and y in odd}
some_big = [()] if any(x > 6 for x in even) else []
none_huge = [()] if any(x > 100 for x in odd) else []
put_file(c, "expected_stdout",
         frame("odd", fmt((x,) for x in odd)) + "even\t%d\n" % len(even)
         + frame("pairs", fmt(pairs, ",")) + frame("some_big", fmt(some_big))
         + frame("none_huge", fmt(none_huge)))

# nullary_io
c = "nullary_io"
raining = len(rd(c, "raining.facts")) > 0
sunny = len(rd(c, "sunny.facts")) > 0
wet = raining
dry = sunny and not raining
put(c, "wet.csv", fmt([()] if wet else []))
put(c, "dry.csv", fmt([()] if dry else []))
put(c, "umbrella.csv", fmt([("ann",)] if wet else []))
