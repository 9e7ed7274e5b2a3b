#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""level1_walkthrough.py - the Level 1 walkthrough's evaluate_line in Python.

The same program as examples/level1_walkthrough.c, line for line in what it
prints: register the host's vocabulary (a domain), load the Level 1 policy
once, and for each line scan the raw text for shell metacharacters before
tokenising, turn the line into input facts, solve, and act only on an
explicit allow(Cmd).  Every refusal names its reasons, read back from
deny(Op, Reason).

    python3 examples/level1_walkthrough.py [--user NAME] [-i] [POLICY.dl]

Without -i it decides the walkthrough's five lines; with -i it then decides
lines read from standard input.  Needs the package (README.md, "Python").
"""

from __future__ import annotations

import os
import sys

import maelys_datalog as md

DEFAULT_POLICY = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              os.pardir, "policies", "walkthrough.dl")

# The host's predicates and their roles: what it supplies per line (EDB),
# what the policy may state as facts (POLICY_FACT), what it derives and what
# the host may read back (IDB | QUERY).
LEVEL1_DOMAIN = md.Domain(
    "level1_example_py",
    [
        ("command", 1, md.Role.EDB),
        ("arg", 1, md.Role.EDB),
        ("user", 1, md.Role.EDB),
        ("cwd", 1, md.Role.EDB),
        ("time_of_day", 1, md.Role.EDB),
        ("shell_metachar", 1, md.Role.EDB),
        ("forbidden_cmd", 1, md.Role.POLICY_FACT),
        ("trusted_user", 1, md.Role.POLICY_FACT),
        ("deny_any", 1, md.Role.IDB | md.Role.QUERY),
        ("allow", 1, md.Role.IDB | md.Role.QUERY),
        ("deny", 2, md.Role.IDB | md.Role.QUERY),
    ],
    # The policy's own constants: a typo in the policy ("shutdwon") is then
    # a load error instead of a rule that silently never matches.
    atoms=[
        "shutdown", "reboot", "poweroff", "alice", "root", "__line__",
        "shell metacharacter in line", "command is forbidden by policy",
        "curl", "curl is restricted to trusted users",
    ],
)

LINE_MAX_BYTES = 4096
TOKENS_MAX = 63

# The metacharacters of the walkthrough's restricted grammar, each with the
# name the policy sees in shell_metachar(M), in the order the facts are added.
METACHARS = [(b"|", "pipe"), (b">", "redirect"), (b"<", "redirect"),
             (b";", "semicolon"), (b"`", "backtick"), (b"$", "var_expand")]


def scan_line(line: bytes) -> tuple[str | None, list[str]]:
    """Scans the raw line before it is split: (refusal, metachar classes)."""
    for c in line:
        ch = bytes([c])
        if ch in (b'"', b"'"):
            return "quoted syntax is unsupported in this demo", []
        if ch in (b"\\", b"&", b"\0", b"\n", b"\r"):
            return "this syntax is unsupported in this demo", []
    return None, [name for ch, name in METACHARS if ch in line]


def tokenise(line: bytes) -> list[bytes] | None:
    """Splits on blanks; None when there are too many words."""
    # blanks only, as the C example's tokenise: not split()'s other whitespace
    tokens = [t for t in line.replace(b"\t", b" ").split(b" ") if t]
    return None if len(tokens) > TOKENS_MAX else tokens


def text(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def decide(session: md.Session, user: str, line: bytes) -> bool:
    """Decides one line and prints the outcome; True only on allow(Cmd)."""
    out = sys.stdout
    if len(line) >= LINE_MAX_BYTES:
        out.write("maelys-pty: denied before solving - line too long\n")
        return False
    refusal, found = scan_line(line)
    if refusal is not None:
        out.write(f"maelys-pty: denied before solving - {refusal}\n")
        return False
    tokens = tokenise(line)
    if tokens is None:
        out.write("maelys-pty: denied before solving - too many words\n")
        return False
    if not tokens:
        return False  # an empty line is no command
    command = text(tokens[0])
    try:
        with md.InputEdb() as edb:
            edb.add_facts([("command", command), ("user", user)])
            edb.add_facts(("arg", text(t)) for t in tokens[1:])
            edb.add_facts(("shell_metachar", m) for m in found)
            with session.solve(edb) as result:
                if result.query("allow", command):
                    out.write("-> allowed\n")
                    return True
                try:
                    line_denied = result.query("deny_any", "__line__")
                except md.Error:
                    line_denied = False
                out.write("maelys-pty: '%s' denied by policy\n"
                          % ("__line__" if line_denied else command))
                try:
                    rows = result.rows("deny", 2)
                except md.Error as e:
                    sys.stderr.write(f"level1_walkthrough: reading deny reasons: {e.status}: {e}\n")
                    rows = []
                for op, reason in rows:
                    out.write(f"  deny({op}): {reason}\n")
                return False
    except md.Error as e:
        # fail closed: an error decides nothing, so the line is denied
        sys.stderr.write(f"level1_walkthrough: deciding the line: {e.status}: {e.message}\n")
        out.write(f"maelys-pty: '{command}' denied: the policy could not be evaluated\n")
        return False


WALKTHROUGH_LINES = [
    "shutdown now",
    "echo hello | grep hello",
    'git commit -m "feat: solver"',
    "CMD=rm; $CMD /",
    "git push origin feature/x",
]


def main(argv: list[str]) -> int:
    policy_path, user, interactive = DEFAULT_POLICY, "alice", False
    a = 0
    while a < len(argv):
        if argv[a] == "--user" and a + 1 < len(argv):
            a += 1
            user = argv[a]
        elif argv[a] == "-i":
            interactive = True
        elif argv[a].startswith("-"):
            sys.stderr.write("usage: level1_walkthrough.py [--user NAME] [-i] [POLICY.dl]\n")
            return 2
        else:
            policy_path = argv[a]
        a += 1
    try:
        LEVEL1_DOMAIN.register()  # once per process
        with md.Policy.load_file(policy_path, domain=LEVEL1_DOMAIN.name) as policy:
            session = md.Session(policy)
        # the session keeps its own reference: the policy is closed now
        session.prepare()
    except md.Error as e:
        sys.stderr.write(f"level1_walkthrough: loading the policy: {e.status}: {e.message}\n")
        return 1
    with session:
        for line in WALKTHROUGH_LINES:
            print(f"{user}@host:~$ {line}")
            decide(session, user, line.encode())
            print()
        if interactive:
            print("Type a line to decide it (Ctrl-D to end).")
            stdin = sys.stdin.buffer
            while True:
                sys.stdout.write(f"{user}@host:~$ ")
                sys.stdout.flush()
                raw = stdin.readline(LINE_MAX_BYTES + 1)
                if not raw:
                    break
                if raw.endswith(b"\n"):
                    raw = raw[:-1]
                elif len(raw) > LINE_MAX_BYTES:
                    # an overlong line is refused whole, never decided in pieces
                    while (rest := stdin.readline(LINE_MAX_BYTES)) and not rest.endswith(b"\n"):
                        pass
                    sys.stdout.write("maelys-pty: denied before solving - line too long\n")
                    continue
                decide(session, user, raw)
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
