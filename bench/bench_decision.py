#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_decision.py - one Level 1 decision from Python, beside the same in C.

    bench_decision.py [-n DECISIONS] [-w WARMUP] BENCH_DECISION_C POLICY.dl

Decides the lines bench_decision.c decides, in its rotation (the
walkthrough's five lines as tokens, then `ls -l` of a path never seen and
`curl` by a user never seen), through maelys_datalog: InputEdb, add_facts,
Session.solve, Result.query("allow"), close.  Each decision is timed alone
with perf_counter_ns and every answer is checked.  Then it runs the C
benchmark (bench_decision, same policy, same counts) in the same run and
prints both and the ratio of the medians: the binding's cost per decision.
"""

import subprocess
import sys
import time

import maelys_datalog as md

DOMAIN = md.Domain("bench_python", [
    ("command", 1, md.Role.EDB), ("arg", 1, md.Role.EDB), ("user", 1, md.Role.EDB),
    ("cwd", 1, md.Role.EDB), ("time_of_day", 1, md.Role.EDB),
    ("shell_metachar", 1, md.Role.EDB), ("forbidden_cmd", 1, md.Role.POLICY_FACT),
    ("trusted_user", 1, md.Role.POLICY_FACT), ("deny_any", 1, md.Role.IDB | md.Role.QUERY),
    ("allow", 1, md.Role.IDB | md.Role.QUERY), ("deny", 2, md.Role.IDB | md.Role.QUERY),
], atoms=["shutdown", "reboot", "poweroff", "alice", "root", "__line__",
          "shell metacharacter in line", "command is forbidden by policy", "curl",
          "curl is restricted to trusted users"])

# (command, args, metachars, user, allowed): bench_decision.c's lines
WALK = [
    ("shutdown", ["now"], [], "alice", False),
    ("echo", ["hello", "|", "grep", "hello"], ["pipe"], "alice", False),
    ("git", ["commit", "-m", '"feat:', 'solver"'], [], "alice", True),
    ("CMD=rm;", ["$CMD", "/"], ["semicolon", "var_expand"], "alice", False),
    ("git", ["push", "origin", "feature/x"], [], "alice", True),
]
ROTATE = len(WALK) + 2


def line_for(i):
    k = i % ROTATE
    if k < len(WALK):
        return WALK[k]
    if k == len(WALK):
        return ("ls", ["-l", "/tmp/f%d" % i], [], "alice", True)
    return ("curl", [], [], "u%d" % i, False)


def decide(session, command, args, meta, user):
    with md.InputEdb() as edb:
        edb.add_facts([("command", command), ("user", user)])
        edb.add_facts(("arg", a) for a in args)
        edb.add_facts(("shell_metachar", m) for m in meta)
        with session.solve(edb) as result:
            return result.query("allow", command)


def run(session, start, n, times):
    clock = time.perf_counter_ns
    for i in range(start, start + n):
        command, args, meta, user, allowed = line_for(i)
        t0 = clock()
        got = decide(session, command, args, meta, user)
        t1 = clock()
        if got != allowed:
            sys.exit("bench_decision.py: decision %d: %r for %s, expected %r"
                     % (i, got, command, allowed))
        if times is not None:
            times.append(t1 - t0)


def quantile_us(sorted_ns, q):
    return sorted_ns[min(len(sorted_ns) - 1, int(q * len(sorted_ns)))] / 1000.0


def main(argv):
    n, warm = 100000, 10000
    while argv and argv[0] in ("-n", "-w"):
        if argv[0] == "-n":
            n = int(argv[1])
        else:
            warm = int(argv[1])
        argv = argv[2:]
    if len(argv) != 2 or n < 1:
        sys.exit("usage: bench_decision.py [-n DECISIONS] [-w WARMUP] BENCH_DECISION_C POLICY.dl")
    c_bench, policy_path = argv
    DOMAIN.register()
    with md.Policy.load_file(policy_path, domain=DOMAIN.name) as policy:
        session = md.Session(policy)
    times = []
    with session:
        run(session, 0, warm, None)
        run(session, warm, n, times)
    times.sort()
    py_med, py_p99 = quantile_us(times, 0.5), quantile_us(times, 0.99)
    c = subprocess.run([c_bench, "-n", str(n), "-w", str(warm), policy_path],
                       capture_output=True, text=True, check=True).stdout
    c_line = next(l for l in c.splitlines() if l.startswith("per decision"))
    fields = c_line.split()
    c_med = float(fields[fields.index("median") + 1])
    c_p99 = float(fields[fields.index("p99") + 1])
    print("bench_decision.py: %s, %d decisions after %d warm-up, each answer checked"
          % (policy_path, n, warm))
    print("per decision (us)      median    p99")
    print("  Python (maelys_datalog) %7.2f %7.2f" % (py_med, py_p99))
    print("  C (bench_decision)      %7.2f %7.2f" % (c_med, c_p99))
    print("Python / C: median x%.1f, p99 x%.1f" % (py_med / c_med, py_p99 / c_p99))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
