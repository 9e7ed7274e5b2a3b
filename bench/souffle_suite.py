#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Soufflé's own test suite through `maelys-datalog run --souffle`.

    bench/souffle_suite.py [OPTIONS] TESTS

TESTS is a checkout or an export of the tests/ folder of souffle-lang/souffle
(its programs and expected outputs are data; nothing of Soufflé's code is
run or copied here).  Every program that Soufflé's CMake files register in
tests/evaluation, example, semantic, syntactic and provenance is run the way
Soufflé's driver runs it (cmake/SouffleTests.cmake): in an empty directory,
with `-F TEST/facts` (or the multi-test's facts folder) and `-D .` (`-D -`
for the OUTPUT_STDOUT tests), and judged the way its driver judges Soufflé.
A test's INCLUDE_DIRS are passed as the runner's -I (relative to the
test's folder, as Soufflé's driver passes them); -L (functor libraries)
has no counterpart in the runner: such a program is refused at its
`.functor`.


  valid programs (positive tests)
    pass       exit 0, the same .csv (and .json) files as the test's
               expected ones, each with the same lines once both are
               sorted, and the same stdout once sorted (the test's NAME.out;
               provenance tests excepted: their stdout is the `explain`
               transcript, which is not in scope);
    differ     exit 0 with other outputs: the worst outcome, a wrong answer;
    refused    exit 1 with the runner's error (an unsupported construct, a
               check of ours, a budget): the first construct the error
               names is tallied in the table of features;
    crash      killed by a signal, a sanitizer's report, an exit status
               other than 0 and 1;
    timeout    still running after --timeout seconds;
    unchecked  accepted, but its expected files are incomplete in this copy
               (--unchecked) or in a format we do not read (gzip, sqlite).
  invalid programs (negative tests: Soufflé rejects them)
    refused    exit 1 (the runner names the error; we do not compare its
               wording with Soufflé's NAME.err);
    accepted   exit 0: a program Soufflé rejects ran;
    crash, timeout as above.

The stderr of valid programs is not compared: Soufflé's NAME.err holds its
own warnings, in its own words.  Each run is bounded by --timeout and by
`ulimit -v` (--memory), and the runner's own budgets all start at their hard
maximum in a standalone run.

Prints the totals, a table per folder and the table of features (Markdown,
as bench/README.md shows them); --verbose adds a line per program.  Exit
status: 0 when no valid program differs and nothing crashes, times out or
is wrongly accepted, 1 otherwise, 2 for a usage error.

Python rather than sh: reading the CMake lists, comparing sorted outputs as
multisets of lines, running programs in parallel with a time limit and
mapping errors back to the source text they point at are each a few lines
here and a page of awk there.  Only the standard library is used, so the
system's /usr/bin/python3 runs it with nothing installed.
"""

import argparse
import collections
import concurrent.futures
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FOLDERS = ("evaluation", "example", "semantic", "syntactic", "provenance")

# Outcomes, worst first: a program run with several facts folders (a
# multi-test) gets the worst outcome of its runs.
VALID_ORDER = ("crash", "timeout", "differ", "refused", "unchecked", "pass")
INVALID_ORDER = ("crash", "timeout", "accepted", "refused")
BAD = {"crash", "timeout", "differ", "accepted"}

# Bounds on what is read back from a run: an output file larger than this
# is a difference of its own (the script never holds more in memory).
OUTPUT_READ_MAX = 512 << 20
STDERR_READ_MAX = 64 << 10


# ---------------------------------------------------------------------------
# Which programs the suite has: Soufflé's CMakeLists.txt of each folder.

class Test:
    """One registered program of the suite."""

    def __init__(self, folder, name):
        self.folder = folder
        self.name = name
        self.negative = False
        self.facts_dirs = []      # multi-tests: several; default ["facts"]
        self.multi = False        # expected files beside each facts folder
        self.output_stdout = False
        self.extra_data = None    # json, gzip, sqlite3
        self.include_dirs = []    # INCLUDE_DIRS: -I, relative to the test

    @property
    def key(self):
        return self.folder + "/" + self.name


def _cmake_commands(text):
    """(name, [args]) of each top-level command of a CMake file, with the
    lines inside function() ... endfunction() left out and if() blocks
    decided by _cmake_condition; comments removed."""
    text = re.sub(r"#[^\n]*", "", text)
    out = []
    in_function = 0
    stack = []  # one bool per open if(): are we inside a taken branch
    for m in re.finditer(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)", text):
        name, args = m.group(1).lower(), m.group(2).split()
        if name == "function":
            in_function += 1
            continue
        if name == "endfunction":
            in_function = max(0, in_function - 1)
            continue
        if in_function:
            continue
        if name == "if":
            stack.append(_cmake_condition(args))
            continue
        if name == "else" and stack:
            stack[-1] = not stack[-1]
            continue
        if name == "endif":
            if stack:
                stack.pop()
            continue
        if all(stack):
            out.append((name, args))
    return out


def _cmake_condition(args):
    """The value of an if() of Soufflé's test lists on a Linux build with
    Soufflé's default options (zlib and SQLite on, not MSVC)."""
    words = [a.strip('"') for a in args]
    negate = False
    while words and words[0] == "NOT":
        negate = not negate
        words = words[1:]
    cond = " ".join(words)
    if cond in ("FALSE", "OFF", "0", "MSVC", "WIN32", "APPLE"):
        value = False
    elif re.fullmatch(r"\$\{CMAKE_SYSTEM_NAME\} MATCHES Linux", cond):
        value = True
    else:  # TRUE, SOUFFLE_USE_ZLIB, SOUFFLE_USE_SQLITE, ...: on by default
        value = True
    return value != negate


_FLAGS = {"NEGATIVE", "POSITIVE", "COMPILED", "COMPILED_SPLITTED", "FUNCTORS",
          "MULTI_TEST", "NO_PREPROCESSOR", "OUTPUT_STDOUT", "DEBUG_REPORT"}
_SINGLE = {"TEST_NAME", "CATEGORY", "FACTS_DIR_NAME", "EXTRA_DATA"}
_MULTI = {"INCLUDE_DIRS", "FACTS_DIR_NAMES"}


def _keyword_args(args):
    """Soufflé's cmake_parse_arguments: flags, single and multi values."""
    flags, values, key = set(), {}, None
    for a in args:
        if a in _FLAGS:
            flags.add(a)
            key = None
        elif a in _SINGLE or a in _MULTI:
            key = a
            values.setdefault(a, [])
        elif key is not None:
            values[key].append(a)
            if key in _SINGLE:
                key = None
    return flags, values


def discover(tests_dir, folders):
    """The registered tests of `folders`, and the program folders that no
    CMakeLists.txt registers on Linux (commented out, in if (FALSE))."""
    tests = collections.OrderedDict()
    unregistered = []
    for folder in folders:
        cml = os.path.join(tests_dir, folder, "CMakeLists.txt")
        if not os.path.isfile(cml):
            raise FileNotFoundError("no %s (is %s Soufflé's tests/ folder?)"
                                    % (cml, tests_dir))
        with open(cml, encoding="utf-8", errors="replace") as f:
            commands = _cmake_commands(f.read())
        for name, args in commands:
            t = _register(folder, name, args)
            if t is None:
                continue
            old = tests.get(t.key)
            if old is None:
                tests[t.key] = t
            else:  # the same test again (another execution style)
                old.multi = old.multi or t.multi
                for d in t.facts_dirs:
                    if d not in old.facts_dirs:
                        old.facts_dirs.append(d)
        for entry in sorted(os.listdir(os.path.join(tests_dir, folder))):
            prog = os.path.join(tests_dir, folder, entry, entry + ".dl")
            if os.path.isfile(prog) and folder + "/" + entry not in tests:
                unregistered.append(folder + "/" + entry)
    for t in tests.values():
        if not t.facts_dirs:
            t.facts_dirs = ["facts"]
    return list(tests.values()), unregistered


def _register(folder, command, args):
    """The Test a command of a folder's CMakeLists.txt registers, or None."""
    if not args:
        return None
    if command in ("positive_test", "souffle_positive_test",
                   "souffle_provenance_test"):
        t = Test(folder, args[0])
    elif command == "positive_output_stdout_test":
        t = Test(folder, args[0])
        t.output_stdout = True
    elif command in ("negative_test", "souffle_negative_test"):
        t = Test(folder, args[0])
        t.negative = True
    elif command == "souffle_positive_functor_test":
        t = Test(folder, args[0])
    elif command in ("souffle_run_test", "souffle_run_test_helper",
                     "souffle_positive_multi_test"):
        flags, values = _keyword_args(args)
        if not values.get("TEST_NAME"):
            return None
        t = Test(folder, values["TEST_NAME"][0])
        t.negative = "NEGATIVE" in flags
        t.output_stdout = "OUTPUT_STDOUT" in flags
        extra = values.get("EXTRA_DATA", [])
        t.extra_data = extra[0] if extra else None
        t.facts_dirs = (values.get("FACTS_DIR_NAMES", []) +
                        values.get("FACTS_DIR_NAME", []))
        t.multi = (command == "souffle_positive_multi_test" or
                   "MULTI_TEST" in flags)
        t.include_dirs = values.get("INCLUDE_DIRS", [])
    else:
        return None
    return t


# ---------------------------------------------------------------------------
# Running one program.

class Run:
    """What one run of the runner did."""

    def __init__(self):
        self.status = None    # exit status, or -signal
        self.timed_out = False
        self.stdout_path = None
        self.stderr = ""
        self.work = None      # the run's current directory (-D .)


def run_program(runner, test, facts_name, tests_dir, scratch, timeout,
                memory_mib):
    """Runs `test` with the facts folder `facts_name` in a fresh directory
    under `scratch`; returns a Run."""
    r = Run()
    tdir = os.path.join(tests_dir, test.folder, test.name)
    base = tempfile.mkdtemp(prefix=test.name[:40] + ".", dir=scratch)
    r.work = os.path.join(base, "work")
    os.mkdir(r.work)
    r.stdout_path = os.path.join(base, "stdout")
    err_path = os.path.join(base, "stderr")
    argv = [runner, "run", "--souffle"]
    for d in test.include_dirs:
        argv += ["-I", os.path.join(tdir, d)]
    argv += ["-F", os.path.join(tdir, facts_name),
            "-D", "-" if test.output_stdout else ".",
            os.path.join(tdir, test.name + ".dl")]
    # ulimit -v bounds the address space of the run (the runner's own
    # memory budget bounds what the engine asks for; this bounds the rest);
    # no core files in the suite's folders.  --memory 0: no ulimit -v (a
    # sanitizer's shadow memory needs terabytes of address space).
    limit = "ulimit -v \"$1\" && " if memory_mib > 0 else ""
    wrapper = ["/bin/sh", "-c",
               limit + 'ulimit -c 0 && shift && exec "$@"', "sh",
               str(memory_mib * 1024)] + argv
    with open(r.stdout_path, "wb") as out, open(err_path, "wb") as err, \
            open(os.devnull, "rb") as devnull:
        proc = subprocess.Popen(wrapper, cwd=r.work, stdin=devnull,
                                stdout=out, stderr=err,
                                start_new_session=True)
        try:
            r.status = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            r.timed_out = True
            _kill_group(proc)
            r.status = proc.wait()
    with open(err_path, "rb") as f:
        r.stderr = f.read(STDERR_READ_MAX).decode("utf-8", "replace")
    return r


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


_SANITIZER = re.compile(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer|"
                        r"runtime error: |Segmentation fault|core dumped")


def crash_reason(r):
    """Why a run counts as a crash, or None."""
    if r.status is not None and r.status < 0:
        try:
            return "killed by " + signal.Signals(-r.status).name
        except ValueError:
            return "killed by signal %d" % -r.status
    m = _SANITIZER.search(r.stderr)
    if m:
        return "sanitizer: " + m.group(0).strip()
    if r.status not in (0, 1):
        return "exit status %d%s" % (
            r.status, " (usage error)" if r.status == 2 else "")
    return None


def _lines(path):
    """The lines of a file with their trailing blanks removed, as a
    multiset (what Soufflé's driver compares once both sides are sorted),
    or None when the file is larger than we read."""
    if os.path.getsize(path) > OUTPUT_READ_MAX:
        return None
    with open(path, "rb") as f:
        return collections.Counter(
            line.rstrip().decode("utf-8", "replace") for line in f)


def _describe(name, want, got):
    if want is None or got is None:
        return "%s: larger than %d MiB" % (name, OUTPUT_READ_MAX >> 20)
    missing = sum((want - got).values())
    extra = sum((got - want).values())
    return "%s: %d line(s) missing, %d extra" % (name, missing, extra)


def compare_outputs(test, facts_name, tests_dir, r):
    """None when the run's outputs are the expected ones, else why not."""
    tdir = os.path.join(tests_dir, test.folder, test.name)
    # a multi-test keeps its expected files beside its facts
    expect_dir = os.path.join(tdir, facts_name) if test.multi else tdir
    suffixes = [".csv"] + ([".json"] if test.extra_data == "json" else [])
    want = sorted(e for e in os.listdir(expect_dir)
                  if os.path.splitext(e)[1] in suffixes and
                  os.path.isfile(os.path.join(expect_dir, e)))
    got = sorted(e for e in os.listdir(r.work)
                 if os.path.splitext(e)[1] in suffixes)
    why = []
    for e in sorted(set(want) - set(got)):
        why.append(e + " not written")
    for e in sorted(set(got) - set(want)):
        why.append("unexpected output " + e)
    for e in sorted(set(want) & set(got)):
        a = _lines(os.path.join(expect_dir, e))
        b = _lines(os.path.join(r.work, e))
        if a is None or b is None or a != b:
            why.append(_describe(e, a, b))
    # provenance's stdout is the explain transcript: not in scope
    if test.folder != "provenance":
        out = os.path.join(expect_dir, test.name + ".out")
        a = _lines(out) if os.path.isfile(out) else collections.Counter()
        b = _lines(r.stdout_path)
        # blank lines carry no tuple and no size: not compared (Soufflé's
        # driver keeps them, but its sorted file of an empty stdout is one
        # blank line, and an .out file may or may not end with one)
        for c in (a, b):
            if c is not None:
                c.pop("", None)
        if a is None or b is None or a != b:
            why.append(_describe("stdout", a, b))
    return "; ".join(why) if why else None


# ---------------------------------------------------------------------------
# The construct a refusal names.

AGGREGATES = ("count", "sum", "min", "max", "mean")
STRING_FUNCTORS = ("cat", "strlen", "substr", "ord", "contains", "match")
CONVERSIONS = ("to_number", "to_string", "to_float", "to_unsigned", "itou",
               "itof", "utoi", "utof", "ftoi", "ftou")
INTRINSICS = ("range", "autoinc", "as", "min", "max")
BITWISE = ("band", "bor", "bxor", "bnot", "bshl", "bshr", "bshru", "land",
           "lor", "lxor", "lnot")
PLAN_QUALIFIERS = ("inline", "no_inline", "magic", "no_magic", "brie",
                   "btree", "btree_delete", "overridable", "override")

_ERROR = re.compile(r"^maelys-datalog: (?P<status>[a-z_]+): "
                    r"(?:(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): )?"
                    r"(?P<msg>.*)$", re.M)
_FACTS_ERROR = re.compile(r"^maelys-datalog: (?P<file>[^:\n]+?)(?::(?P<line>\d+))?: "
                          r"(?P<msg>.*)$", re.M)


def first_error(stderr):
    """(status, file, line, col, message) of the runner's first error, or
    None."""
    for line in stderr.splitlines():
        m = _ERROR.match(line)
        if m:
            return (m.group("status"), m.group("file"),
                    int(m.group("line") or 0), int(m.group("col") or 0),
                    m.group("msg"))
        m = _FACTS_ERROR.match(line)
        if m and ("/" in m.group("file") or "." in m.group("file")):
            return ("facts", m.group("file"), int(m.group("line") or 0), 0,
                    m.group("msg"))
        if line.startswith("maelys-datalog: "):
            return ("error", None, 0, 0, line[len("maelys-datalog: "):])
    return None


def _source_line(path, line):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    return text.rstrip("\n")
    except OSError:
        pass
    return ""


def _type_feature(path, type_name):
    """What kind of .type declaration `type_name` is in the program."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
    except OSError:
        src = ""
    m = re.search(r"\.type\s+%s\s*(=|<:)\s*(.{0,200})" %
                  re.escape(type_name), src, re.S)
    if m is None:
        return (".comp (component)" if ".comp" in src else
                "check: unknown type (declared nowhere)")
    return _type_rhs_feature(m.group(1), m.group(2))


def _enclosing_directive(path, line):
    """The directive statement (from its line starting with `.word` to the
    error's line and a few more) that the error's line belongs to."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return ""
    for start in range(line - 1, max(-1, line - 21), -1):
        if start >= len(lines):
            continue
        if re.match(r"\s*\.\w+", lines[start]):
            return "\n".join(lines[start:line + 4])
        if start < line - 1 and re.match(r".*[.)]\s*(//.*)?$",
                                          lines[start]):
            break  # the end of an earlier statement
    return ""


def _type_rhs_feature(op, rhs):
    rhs = rhs.strip()
    if op == "<:":
        return "subtype (<:)"
    if rhs.startswith("["):
        return "record"
    if "$" in rhs or re.search(r"[A-Za-z_]\w*\s*\{", rhs.split(".decl")[0]):
        return "algebraic data type"
    if "|" in rhs:
        return ".type union"
    return "type declared after its use"


def feature_of(stderr, tests_dir):
    """The construct the runner's first error names, by its message and by
    the source text it points at; 'other: ...' when no rule knows it."""
    e = first_error(stderr)
    if e is None:
        return "no error message"
    status, path, line, col, msg = e
    if path and not os.path.isabs(path):
        path = os.path.join(tests_dir, path)
    if status == "facts":
        if msg.startswith("cannot open the facts of"):
            return "missing .facts file (Soufflé reads an empty relation)"
        return "facts file: " + _normalise(msg)
    if status != "parse":
        return _status_feature(status, msg)
    text = _source_line(path, line) if path else ""
    before = text[:col - 1] if col > 0 else ""
    at = text[col - 1:] if col > 0 else ""
    for rule in (_message_rule, _source_rule):
        f = rule(msg, text, before, at, path, line)
        if f:
            return f
    return "other: " + _normalise(msg)


def _status_feature(status, msg):
    if status.startswith("budget_") or status in ("no_memory",
                                                  "regex_limit"):
        return "limit: " + status
    if status == "limit":
        return "limit: " + _normalise(msg)
    return "check: %s (%s)" % (status, _normalise(msg))


def _normalise(msg):
    """A message without the names of one program, so that equal reasons
    are tallied together."""
    msg = re.sub(r"'[^']*'", "'…'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    msg = re.sub(r" \(arithmetic, disjunction and other operators are not "
                 r"part of this dialect\)", "", msg)
    return msg[:100]


def _message_rule(msg, text, before, at, path, line):
    m = re.match(r"unsupported directive \.(\w+)", msg)
    if m:
        d = m.group(1)
        return {"comp": ".comp (component)", "init": ".comp (component)",
                "functor": ".functor (user-defined functor, out of scope)",
                "include": ".include", "pragma": ".pragma",
                "plan": ".plan"}.get(d, "directive ." + d)
    m = re.match(r"unsupported qualifier '(\w+)'", msg)
    if m:
        q = m.group(1)
        if q == "eqrel":
            return "eqrel"
        if q == "choice":
            return "choice-domain"
        if q in PLAN_QUALIFIERS:
            return "plan qualifier (inline, magic, brie, ...)"
        return "qualifier " + q
    m = re.match(r"unknown type '(\w+)'", msg)
    if m:
        name = m.group(1)
        if name in ("float", "unsigned"):
            return name + " type"
        # met inside a .type declaration: the kind of that declaration
        d = re.match(r"\s*\.type\s+\w+\s*(=|<:)\s*(.*)",
                     _enclosing_directive(path, line) if path else "", re.S)
        if d:
            return _type_rhs_feature(d.group(1), d.group(2))
        return _type_feature(path, name)
    if msg.startswith("expected a type name, found '['"):
        return "record"
    if msg.startswith("expected a declaration (union, record and ADT"):
        m = re.match(r"\s*\.type\s+\w+\s*(=|<:)\s*(.*)", text)
        return (_type_rhs_feature(m.group(1), m.group(2)) if m else
                ".type union, record or ADT")
    m = re.match(r"unsupported I/O parameter '(\w+)'", msg)
    if m:
        return "I/O option " + m.group(1)
    if msg.startswith("expected IO=file or IO=stdout, found 'sqlite'"):
        return "I/O sqlite (out of scope)"
    if msg.startswith("expected IO=file or IO=stdout, found a string"):
        return 'I/O option IO="file" (quoted)'
    if msg.startswith("expected IO=file or IO=stdout"):
        return "I/O option " + (re.search(r"found (.*)", msg).group(1)
                                if "found" in msg else "IO")
    if msg.startswith("the pattern of match must be a string constant"):
        return "match with a computed pattern"
    if "a clause has one head" in msg:
        return "several heads"
    return None


def _source_rule(msg, text, before, at, path, line):
    tok = re.match(r"\s*(0[xX][0-9a-fA-F]+|0[bB][01]+|\d+\.\d+(\.\d+)*|"
                   r"\d+[uU]?|[A-Za-z_]\w*|<=|>=|!=|\S)", at)
    tok = tok.group(1) if tok else ""
    prev = re.search(r"([A-Za-z_]\w*)\s*$", before)
    prev = prev.group(1) if prev else ""
    if tok.startswith("#"):
        return "C preprocessor (#include, #define)"
    if tok == "$":
        return "algebraic data type"
    if tok == "[":
        return "record"
    if tok == "@":
        return "user-defined functor call (@, out of scope)"
    if tok == ";":
        return "disjunction (;)"
    if tok == "<=" and "':-' or '.'" in msg:
        return "subsumption (<=)"
    if re.match(r"\s*\.decl\b", text) and tok == ",":
        return ".decl of several relations"
    # an aggregate keyword right before the error: `sum x : ...`
    if re.search(r"\b(%s)\s*$" % "|".join(AGGREGATES), before) and tok != "(":
        return "aggregate"
    if tok == "(" and prev:
        return _functor_feature(prev)
    # a functor call read as an atom, then a comparison: `ord(x) < ord(y)`
    call = re.search(r"([A-Za-z_]\w*)\s*\([^()]*\)\s*$", before)
    if call and tok in ("<", ">", "=", "!=", "<=", ">="):
        return _functor_feature(call.group(1))
    # a directive of Soufflé that is not ours
    m = re.match(r"\s*\.(\w+)", text)
    if m and msg.startswith("expected a clause or a directive") and \
            at.startswith("."):
        return "directive ." + m.group(1)
    if tok == "(":
        return "disjunction (;)" if ";" in text else "parenthesised body"
    if msg.startswith("a variable alone is not a literal"):
        nxt = re.match(r"\s*[A-Za-z_]\w*\s*(\S+)", at)
        nxt = nxt.group(1) if nxt else ""
        if nxt[:1] in "+-*/%^" or re.match(r"(%s)\b" % "|".join(BITWISE),
                                           nxt):
            return "arithmetic"
    if tok in ("+", "-", "*", "/", "%", "^") or tok in BITWISE:
        return "arithmetic"
    if msg.startswith("a number runs into a name") or tok[:1].isdigit():
        return _literal_feature(at)
    if tok == "." and re.search(r"\d$", before):
        return _literal_feature(re.search(r"\d+$", before).group(0) + at)
    return None


def _functor_feature(name):
    if name in ("count", "sum", "mean"):
        return "aggregate"
    if name in INTRINSICS:
        return "intrinsic functor (range, autoinc, as, min, max)"
    if name in STRING_FUNCTORS:
        return "string functor (cat, strlen, substr, ord, contains)"
    if name in CONVERSIONS:
        return "conversion functor (to_number, to_string, ...)"
    return "functor or record constructor"


def _literal_feature(at):
    at = at.lstrip()
    if re.match(r"0[xX]", at):
        return "hexadecimal literal"
    if re.match(r"0[bB]", at):
        return "binary literal"
    if re.match(r"\d+\.\d+\.\d+\.\d+", at):
        return "IPv4 literal"
    if re.match(r"\d+\.\d+", at):
        return "float literal"
    if re.match(r"\d+[uU]\b", at):
        return "unsigned literal (1u)"
    return "number literal"


# ---------------------------------------------------------------------------
# One program, all its facts folders.

class Result:
    def __init__(self, test, outcome, detail):
        self.test = test
        self.outcome = outcome
        self.detail = detail  # the feature (refused), or why (the others)


def judge(test, runner, tests_dir, scratch, args):
    order = INVALID_ORDER if test.negative else VALID_ORDER
    results = []
    for facts_name in test.facts_dirs:
        r = run_program(runner, test, facts_name, tests_dir, scratch,
                        args.timeout, args.memory)
        results.append(_judge_run(test, facts_name, tests_dir, r, args))
        shutil.rmtree(os.path.dirname(r.work), ignore_errors=True)
    outcome, detail = min(results, key=lambda x: order.index(x[0]))
    return Result(test, outcome, detail)


def _judge_run(test, facts_name, tests_dir, r, args):
    if r.timed_out:
        return "timeout", "more than %g s" % args.timeout
    why = crash_reason(r)
    if why:
        return "crash", why
    if r.status == 1:
        return "refused", feature_of(r.stderr, tests_dir)
    # exit 0
    if test.negative:
        return "accepted", "exit 0 (Soufflé rejects it)"
    if test.key in args.unchecked:
        return "unchecked", "expected files incomplete in this copy"
    if test.extra_data in ("gzip", "sqlite3"):
        return "unchecked", "outputs in %s, not compared" % test.extra_data
    if test.multi and not os.path.isdir(
            os.path.join(tests_dir, test.folder, test.name, facts_name)):
        return "unchecked", "no expected folder " + facts_name
    why = compare_outputs(test, facts_name, tests_dir, r)
    if why:
        return "differ", why
    return "pass", ""


# ---------------------------------------------------------------------------
# The report.

def report(results, unregistered, args, runner, out):
    valid = [r for r in results if not r.test.negative]
    invalid = [r for r in results if r.test.negative]
    vcount = collections.Counter(r.outcome for r in valid)
    icount = collections.Counter(r.outcome for r in invalid)
    w = out.write

    w("Soufflé's test suite: %s\n" % os.path.abspath(args.tests))
    w("runner: %s; each run at most %g s and %s\n\n"
      % (runner, args.timeout, "%d MiB (ulimit -v)" % args.memory
         if args.memory else "no memory limit"))
    pct = (100.0 * vcount["pass"] / len(valid)) if valid else 0.0
    w("valid programs: %d, pass %d (%.1f%%), differ %d, refused %d, "
      "crash %d, timeout %d, unchecked %d\n"
      % (len(valid), vcount["pass"], pct, vcount["differ"],
         vcount["refused"], vcount["crash"], vcount["timeout"],
         vcount["unchecked"]))
    w("invalid programs: %d, refused %d, accepted %d, crash %d, "
      "timeout %d\n" % (len(invalid), icount["refused"], icount["accepted"],
                        icount["crash"], icount["timeout"]))
    if unregistered:
        w("not run (no CMakeLists.txt registers them on Linux): %d: %s\n"
          % (len(unregistered), ", ".join(unregistered)))

    w("\n| folder | valid | pass | differ | refused | crash | timeout "
      "| unchecked | invalid | refused | accepted | crash | timeout |\n")
    w("|---|" + "---:|" * 12 + "\n")
    for folder in args.folders:
        v = collections.Counter(r.outcome for r in valid
                                if r.test.folder == folder)
        i = collections.Counter(r.outcome for r in invalid
                                if r.test.folder == folder)
        w("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d "
          "| %d |\n" % (folder, sum(v.values()), v["pass"], v["differ"],
                        v["refused"], v["crash"], v["timeout"],
                        v["unchecked"], sum(i.values()), i["refused"],
                        i["accepted"], i["crash"], i["timeout"]))

    _feature_table(w, "Refused valid programs by the first construct the "
                   "error names", [r for r in valid
                                   if r.outcome == "refused"], args)
    _feature_table(w, "Refused invalid programs by the first construct "
                   "the error names", [r for r in invalid
                                       if r.outcome == "refused"], args)

    bad = [r for r in results if r.outcome in BAD or
           r.outcome == "unchecked"]
    if bad:
        w("\nPrograms to look at:\n")
        for r in sorted(bad, key=lambda r: (r.outcome, r.test.key)):
            w("  %-9s %s: %s\n" % (r.outcome, r.test.key, r.detail))
    if args.verbose:
        w("\nEvery program:\n")
        for r in sorted(results, key=lambda r: r.test.key):
            w("%-9s %s%s%s\n" % (r.outcome, r.test.key,
                                 " (invalid)" if r.test.negative else "",
                                 "  [%s]" % r.detail if r.detail else ""))


def _feature_table(w, title, refused, args):
    if not refused:
        return
    by = collections.defaultdict(list)
    for r in refused:
        by[r.detail].append(r.test.key)
    w("\n%s (%d programs):\n\n" % (title, len(refused)))
    w("| construct | programs | examples |\n|---|---:|---|\n")
    for feature, keys in sorted(by.items(), key=lambda kv: (-len(kv[1]),
                                                            kv[0])):
        keys.sort()
        shown = ", ".join(keys[:args.examples])
        if len(keys) > args.examples:
            shown += ", ..."
        w("| %s | %d | %s |\n" % (feature.replace("|", "\\|"), len(keys),
                                  shown))


# ---------------------------------------------------------------------------

def default_runner():
    env = os.environ.get("MAELYS_DATALOG")
    if env:
        return env
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(root, "build", "datalog", "maelys-datalog")


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="souffle_suite.py",
        description="Runs Soufflé's test suite (the tests/ folder of a "
        "checkout of souffle-lang/souffle) through maelys-datalog run "
        "--souffle and classifies every program.")
    p.add_argument("tests", help="Soufflé's tests/ folder")
    p.add_argument("--runner", default=default_runner(),
                   help="maelys-datalog to run (default: $MAELYS_DATALOG, "
                   "else build/datalog/maelys-datalog of this checkout)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a run may take (default 60)")
    p.add_argument("--memory", type=int, default=4096,
                   help="MiB of address space of a run, ulimit -v "
                   "(default 4096; 0: no limit, for a sanitizer build)")
    p.add_argument("-j", "--jobs", type=int,
                   default=min(4, os.cpu_count() or 1),
                   help="runs at once (default: 4 or the CPUs, if fewer)")
    p.add_argument("--folders", default=",".join(FOLDERS),
                   help="comma-separated folders of TESTS (default: %s)"
                   % ",".join(FOLDERS))
    p.add_argument("--only", action="append", default=[],
                   metavar="PATTERN",
                   help="run only FOLDER/NAME matching PATTERN (fnmatch); "
                   "may be given more than once")
    p.add_argument("--unchecked", action="append", default=[],
                   metavar="FOLDER/NAME",
                   help="do not compare this program's outputs (its "
                   "expected files are incomplete in this copy)")
    p.add_argument("--examples", type=int, default=4,
                   help="programs named per feature (default 4)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="a line per program")
    args = p.parse_args(argv)
    args.folders = [f for f in args.folders.split(",") if f]
    args.unchecked = set(args.unchecked)
    if args.timeout <= 0 or args.memory < 0 or args.jobs <= 0 or \
            args.examples < 0:
        p.error("--timeout and --jobs must be positive, --memory and "
                "--examples not negative")
    return args


def main(argv):
    # the report names Soufflé and elides names with '…', whatever the
    # locale
    sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    sys.stderr.reconfigure(encoding="utf-8", errors="replace")
    args = parse_args(argv)
    runner = os.path.abspath(args.runner)
    if not os.access(runner, os.X_OK):
        print("souffle_suite: %s is not an executable (build it, or give "
              "--runner)" % runner, file=sys.stderr)
        return 2
    tests_dir = os.path.abspath(args.tests)
    try:
        tests, unregistered = discover(tests_dir, args.folders)
    except OSError as e:
        print("souffle_suite: %s" % e, file=sys.stderr)
        return 2
    if args.only:
        tests = [t for t in tests
                 if any(fnmatch.fnmatch(t.key, p) for p in args.only)]
        unregistered = []
    scratch = tempfile.mkdtemp(prefix="souffle_suite.")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(
                lambda t: judge(t, runner, tests_dir, scratch, args), tests))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report(results, unregistered, args, runner, sys.stdout)
    return 1 if any(r.outcome in BAD for r in results) else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
