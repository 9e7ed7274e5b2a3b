# SPDX-License-Identifier: MIT
"""examples/level1_walkthrough.py decides every line as the C example does:
both run on the walkthrough's five lines and then on the same lines typed
in -i mode, and their outputs must be equal byte for byte."""

import os
import subprocess
import sys

ROOT = os.environ.get("MAELYS_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
C_EXAMPLE = os.environ.get("MAELYS_LEVEL1_WALKTHROUGH_C")

LINES = [
    "ls -l", "shutdown -h now", "reboot", "curl http://x", "echo a > b",
    "cat < f", "a `b`", "echo $HOME", "a & b", "a\\b", "x 'y'", "",
    "   \t  ", "rm -rf /", "git\tstatus", "x\x0by", "x\x0cy",
    " ".join(["w"] * 63), " ".join(["w"] * 64), "é ü", "a" * 4095, "a" * 4096,
    "a" * 5000, "poweroff",
]


def run(cmd, user):
    stdin = "\n".join(LINES).encode() + b"\nlast line without newline"
    p = subprocess.run(cmd + ["--user", user, "-i",
                              os.path.join(ROOT, "policies", "walkthrough.dl")],
                       input=stdin, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_python_example_decides_as_the_c_example():
    assert C_EXAMPLE, "MAELYS_LEVEL1_WALKTHROUGH_C names the C example (meson test sets it)"
    py = [sys.executable, os.path.join(ROOT, "examples", "level1_walkthrough.py")]
    for user in ("alice", "root", "bob"):
        c_out = run([C_EXAMPLE], user)
        py_out = run(py, user)
        assert py_out == c_out
        assert b"-> allowed" in c_out and b"denied by policy" in c_out
