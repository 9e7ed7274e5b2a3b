#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A reader of asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/),
independent of maelys-pty's writer: checks a recording and prints what a test
asserts on.

usage: asciicast_check.py FILE
Exit 0 when FILE is a well-formed asciicast v2 recording: a header object
with "version" 2 and integer "width" and "height", then one event a line,
each a JSON array [time, code, data] with time a non-negative number that
never decreases, code one of "o", "i", "r", "m", and data a string ("r":
"COLSxROWS").  Then prints, for the test: "output: " and every "o" data
joined (as JSON), "input: " and the "i" data joined, "markers: " and the
markers, "resizes: " and the sizes, one each a line.  Exit 1 with the reason
on stderr otherwise.
"""
import json
import re
import sys


def fail(why):
    print("asciicast_check: %s" % why, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        fail("usage: asciicast_check.py FILE")
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    lines = text.split("\n")
    if lines[-1] != "":
        fail("the last line has no newline")
    lines = lines[:-1]
    if not lines:
        fail("empty")
    header = json.loads(lines[0])
    if not isinstance(header, dict) or header.get("version") != 2:
        fail("header: not version 2: %r" % lines[0])
    for k in ("width", "height"):
        if type(header.get(k)) is not int or header[k] <= 0:
            fail("header: %s is not a positive integer" % k)
    if "timestamp" in header and type(header["timestamp"]) is not int:
        fail("header: timestamp is not an integer")
    last = 0.0
    out, inp, marks, sizes = [], [], [], []
    for n, line in enumerate(lines[1:], start=2):
        ev = json.loads(line)
        if not isinstance(ev, list) or len(ev) != 3:
            fail("line %d: not [time, code, data]" % n)
        t, code, data = ev
        if type(t) not in (int, float) or t < 0:
            fail("line %d: bad time %r" % (n, t))
        if t < last:
            fail("line %d: time goes back (%r after %r)" % (n, t, last))
        last = t
        if not isinstance(data, str):
            fail("line %d: data is not a string" % n)
        if code == "o":
            out.append(data)
        elif code == "i":
            inp.append(data)
        elif code == "m":
            marks.append(data)
        elif code == "r":
            if not re.fullmatch(r"[0-9]+x[0-9]+", data):
                fail("line %d: bad size %r" % (n, data))
            sizes.append(data)
        else:
            fail("line %d: unknown code %r" % (n, code))
    print("output: " + json.dumps("".join(out)))
    print("input: " + json.dumps("".join(inp)))
    print("markers: " + json.dumps(marks))
    print("resizes: " + json.dumps(sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
