#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/souffle_suite.py, the yardstick of Soufflé's test suite, on fixture
# programs of our own in the layout of Soufflé's tests/ folder
# (tests/souffle_suite/: CMakeLists.txt lists, NAME/NAME.dl, facts/,
# expected .csv and .out), so that its classifier is tested without
# Soufflé's suite (no network in CI).
#
# With the real runner: a program whose outputs are right passes (its rows
# in another order), one whose expected file has a row more differs, one
# with a user-defined functor is refused and the table names .functor, an
# invalid program is refused, a multi-test passes with both facts folders,
# a program disabled in its list is reported as not run.  With a stand-in
# runner: a crash (SIGSEGV), a timeout, an invalid program accepted.
#
# Env: MAELYS_SOURCE_ROOT, MAELYS_BUILD_ROOT (tests/meson.build), or
# MAELYS_DATALOG=path/to/maelys-datalog; PYTHON3 (default python3).
set -eu

src=$(cd "${MAELYS_SOURCE_ROOT:-.}" && pwd)
build=${MAELYS_BUILD_ROOT:-$src/build}
bin=${MAELYS_DATALOG:-$build/datalog/maelys-datalog}
py=${PYTHON3:-python3}
suite=$src/bench/souffle_suite.py
fixture=$src/tests/souffle_suite
if [ ! -x "$bin" ]; then
	echo "souffle_suite: $bin is not built" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/souffle_suite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
failed=0

# expect_line FILE LINE: LINE is a whole line of FILE.
expect_line() {
	if grep -F -x -q -e "$2" "$1"; then
		echo "ok   $2"
	else
		echo "FAIL missing line: $2"
		failed=1
	fi
}

# expect_prefix FILE TEXT: a line of FILE starts with TEXT (the runner's
# own wording after it is its own tests' business).
expect_prefix() {
	if awk -v p="$2" 'index($0, p) == 1 { f = 1 } END { exit !f }' "$1"; then
		echo "ok   $2..."
	else
		echo "FAIL no line starts with: $2"
		failed=1
	fi
}

# expect_status GOT WANT WHAT
expect_status() {
	if [ "$1" = "$2" ]; then
		echo "ok   $3: exit status $1"
	else
		echo "FAIL $3: exit status $1, expected $2"
		failed=1
	fi
}

# ---- the real runner ------------------------------------------------------
st=0
# --memory 0: no ulimit -v, which a sanitizer build's shadow memory exceeds
"$py" "$suite" --verbose --runner "$bin" --timeout 60 --memory 0 \
	--folders evaluation,semantic,example "$fixture" \
	>"$tmp/real.out" 2>"$tmp/real.err" || st=$?
expect_status "$st" 1 "a program differs"
expect_line "$tmp/real.out" \
	'valid programs: 4, pass 2 (50.0%), differ 1, refused 1, crash 0, timeout 0, unchecked 0'
expect_line "$tmp/real.out" \
	'invalid programs: 1, refused 1, accepted 0, crash 0, timeout 0'
expect_line "$tmp/real.out" \
	'not run (no CMakeLists.txt registers them on Linux): 1: evaluation/disabled'
expect_line "$tmp/real.out" 'pass      evaluation/passing'
expect_line "$tmp/real.out" \
	'differ    evaluation/differing  [path.csv: 1 line(s) missing, 0 extra]'
expect_line "$tmp/real.out" \
	'refused   evaluation/refused_functor  [.functor (user-defined functor, out of scope)]'
expect_line "$tmp/real.out" 'pass      example/multi'
expect_prefix "$tmp/real.out" \
	'refused   semantic/invalid_undeclared (invalid)  [check: undeclared ('
expect_prefix "$tmp/real.out" \
	'| check: undeclared ('

expect_line "$tmp/real.out" \
	'| .functor (user-defined functor, out of scope) | 1 | evaluation/refused_functor |'
expect_line "$tmp/real.out" \
	'| evaluation | 3 | 1 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |'

# ---- a stand-in runner: crash, timeout, wrongly accepted ------------------
cat >"$tmp/runner" <<'RUNNER'
#!/bin/sh
for last; do :; done
case ${last##*/} in
crashing.dl) kill -SEGV $$ ;;
slow.dl) exec sleep 60 ;;
*) exit 0 ;;
esac
RUNNER
chmod +x "$tmp/runner"
st=0
"$py" "$suite" --verbose --runner "$tmp/runner" --timeout 1 \
	--folders syntactic "$fixture" >"$tmp/fake.out" 2>"$tmp/fake.err" ||
	st=$?
expect_status "$st" 1 "crash, timeout, accepted"
expect_line "$tmp/fake.out" \
	'valid programs: 2, pass 0 (0.0%), differ 0, refused 0, crash 1, timeout 1, unchecked 0'
expect_line "$tmp/fake.out" \
	'invalid programs: 1, refused 0, accepted 1, crash 0, timeout 0'
expect_line "$tmp/fake.out" 'crash     syntactic/crashing  [killed by SIGSEGV]'
expect_line "$tmp/fake.out" 'timeout   syntactic/slow  [more than 1 s]'
expect_line "$tmp/fake.out" \
	'accepted  syntactic/accepted_invalid (invalid)  [exit 0 (Soufflé rejects it)]'

# ---- a folder that is not Soufflé's tests/ -------------------------------
st=0
"$py" "$suite" --runner "$bin" "$tmp" >"$tmp/none.out" 2>"$tmp/none.err" ||
	st=$?
expect_status "$st" 2 "not a tests/ folder"
expect_line "$tmp/none.err" \
	"souffle_suite: no $tmp/evaluation/CMakeLists.txt (is $tmp Soufflé's tests/ folder?)"

if [ "$failed" != 0 ]; then
	echo "--- output of the real runner's run:"
	cat "$tmp/real.out" "$tmp/real.err"
	echo "--- output of the stand-in runner's run:"
	cat "$tmp/fake.out" "$tmp/fake.err"
fi
[ "$failed" = 0 ]
