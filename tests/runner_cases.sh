#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden cases of the standalone runner maelys-datalog (datalog/tools/).
#
# Each directory tests/runner_cases/NAME/ is one run:
#   prog.dl                    the program
#   *.facts, other files       inputs; the directory is copied into a fresh
#                              work directory, which is the current directory
#                              of the run (so -F and -D default to it)
#   args                       optional: the arguments after maelys-datalog,
#                              split on blanks (default: "run prog.dl")
#   expected/FILE              FILE must be produced with exactly these bytes;
#                              every *.csv produced must be expected
#   expected_stdout            stdout, byte for byte (default: empty)
#   expected_status            exit status (default 0)
#   expected_stderr_contains   lines that must each appear in stderr (default:
#                              stderr empty when the expected status is 0)
# The expected files were computed by hand or with an independent python
# re-implementation of each program (runner_cases/compute_expected.py),
# never by running maelys-datalog.  A few cases whose inputs are better
# generated than stored (a line at the length limit, CRLF line ends, a join
# of 27 million rows) are built below in the same layout.
#
# Env: MAELYS_SOURCE_ROOT, MAELYS_BUILD_ROOT (set by tests/meson.build), or
# MAELYS_DATALOG=path/to/maelys-datalog.  Prints one line per case, exits 1
# if any fails.
set -eu

src=$(cd "${MAELYS_SOURCE_ROOT:-.}" && pwd)
build=${MAELYS_BUILD_ROOT:-$src/build}
bin=${MAELYS_DATALOG:-$build/datalog/maelys-datalog}
case $bin in
/*) ;;
*) bin=$(pwd)/$bin ;;
esac
if [ ! -x "$bin" ]; then
	echo "runner_cases: $bin is not built" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/runner_cases.XXXXXX")
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
failed=0
total=0

# fail WHAT: records why the current case fails (printed under its line).
fail() {
	echo "  $*" >>"$why"
	bad=1
}

# run_case DIR: runs the case in DIR, prints ok/FAIL.
run_case() {
	dir=$1
	name=${dir##*/}
	work=$tmp/work/$name
	out=$tmp/$name.stdout
	err=$tmp/$name.stderr
	why=$tmp/$name.why
	bad=0
	: >"$why"
	total=$((total + 1))
	mkdir -p "$work"
	for f in "$dir"/* "$dir"/.[!.]*; do
		[ -e "$f" ] || continue
		case ${f##*/} in
		expected | expected_* | args) ;;
		*) cp -R "$f" "$work/" ;;
		esac
	done
	args="run prog.dl"
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	want_status=0
	if [ -f "$dir/expected_status" ]; then
		want_status=$(cat "$dir/expected_status")
	fi

	status=0
	set -f # the words of args are arguments, never patterns
	# shellcheck disable=SC2086
	(cd "$work" && exec "$bin" $args) >"$out" 2>"$err" || status=$?
	set +f

	if [ "$status" != "$want_status" ]; then
		fail "exit status $status, expected $want_status"
	fi
	if [ -f "$dir/expected_stdout" ]; then
		if ! cmp -s "$dir/expected_stdout" "$out"; then
			fail "stdout differs"
			diff "$dir/expected_stdout" "$out" | head -20 \
				>>"$why" || true
		fi
	elif [ -s "$out" ]; then
		fail "unexpected stdout:"
		head -5 "$out" >>"$why"
	fi
	if [ -f "$dir/expected_stderr_contains" ]; then
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			if ! grep -F -q -e "$line" "$err"; then
				fail "stderr lacks: $line"
			fi
		done <"$dir/expected_stderr_contains"
	elif [ "$want_status" = 0 ] && [ -s "$err" ]; then
		fail "unexpected stderr"
	fi
	if [ -d "$dir/expected" ]; then
		for e in $(cd "$dir/expected" && find . -type f | sort); do
			if [ ! -f "$work/$e" ]; then
				fail "${e#./} was not written"
			elif ! cmp -s "$dir/expected/$e" "$work/$e"; then
				fail "${e#./} differs"
				diff "$dir/expected/$e" "$work/$e" | head -20 \
					>>"$why" || true
			fi
		done
	fi
	for p in $(cd "$work" && find . -type f -name '*.csv' | sort); do
		if [ ! -f "$dir/expected/$p" ]; then
			fail "unexpected output ${p#./}"
		fi
	done
	if [ "$bad" != 0 ]; then
		failed=$((failed + 1))
		echo "FAIL $name"
		cat "$why"
		sed 's/^/  stderr: /' "$err" | head -5
	else
		echo "ok   $name"
	fi
}

for dir in "$src"/tests/runner_cases/*/; do
	run_case "${dir%/}"
done

# ---- generated cases ------------------------------------------------------
gen=$tmp/generated
mkdir -p "$gen"

# A line of exactly 65,535 bytes is read; one byte more is an error with
# its file and line, not a crash or a silent cut.
long_prog='.decl s(x:symbol)
.input s
.printsize s'
mkdir -p "$gen/line_at_limit" "$gen/line_over_limit"
printf '%s\n' "$long_prog" >"$gen/line_at_limit/prog.dl"
printf '%s\n' "$long_prog" >"$gen/line_over_limit/prog.dl"
awk 'BEGIN { s = "x"; while (length(s) < 65535) s = s s;
	print "short"; print substr(s, 1, 65535);
	printf "%s", substr(s, 1, 7) }' \
	>"$gen/line_at_limit/s.facts"
printf 's\t3\n' >"$gen/line_at_limit/expected_stdout"
awk 'BEGIN { s = "x"; while (length(s) < 65536) s = s s;
	print "short"; print substr(s, 1, 65536); print "after" }' \
	>"$gen/line_over_limit/s.facts"
echo 1 >"$gen/line_over_limit/expected_status"
echo 's.facts:2: line longer than 65535 bytes' \
	>"$gen/line_over_limit/expected_stderr_contains"

# gzip-compressed facts of several members (gzip concatenated) are read
# whole; one cut short is an error naming the file (and zlib's reason, not
# its "<fd:N>" name of the stream), not a silent half.
mkdir -p "$gen/gzip_members/expected" "$gen/err_gzip_truncated"
gz_prog='.decl e(a:number, b:symbol)
.input e
.output e'
printf '%s\n' "$gz_prog" >"$gen/gzip_members/prog.dl"
printf '%s\n' "$gz_prog" >"$gen/err_gzip_truncated/prog.dl"
{ printf '2\tb\n' | gzip -c; printf '1\ta\n' | gzip -c; } \
	>"$gen/gzip_members/e.facts"
printf '1\ta\n2\tb\n' >"$gen/gzip_members/expected/e.csv"
awk 'BEGIN { for (i = 1; i <= 20000; i++) print i "\tx" i }' | gzip -c |
	head -c 2000 >"$gen/err_gzip_truncated/e.facts"
echo 1 >"$gen/err_gzip_truncated/expected_status"
echo 'the gzip-compressed facts of .input e are corrupt or cut short (unexpected end of file)' \
	>"$gen/err_gzip_truncated/expected_stderr_contains"

# CRLF line ends are stripped and the last line may lack its newline.
mkdir -p "$gen/crlf_no_final_newline/expected"
printf '.decl e(a:number, b:symbol)\n.input e\n.output e\n' \
	>"$gen/crlf_no_final_newline/prog.dl"
printf '2\tb\r\n1\ta\r\n3\tc' >"$gen/crlf_no_final_newline/e.facts"
printf '1\ta\n2\tb\n3\tc\n' >"$gen/crlf_no_final_newline/expected/e.csv"

# A standalone run starts every budget at its hard maximum, the join-steps
# budget too: this join visits 300 x 300 x 300 rows, above the 20,000,000
# join steps a session starts with, which the runner once left in place (the
# run stopped with budget_steps).  c holds every x of a.
mkdir -p "$gen/budget_steps_at_max"
awk 'BEGIN { for (i = 1; i <= 300; i++) print i }' \
	>"$gen/budget_steps_at_max/a.facts"
printf '%s\n' '.decl a(x:number)' '.input a' '.decl c(x:number)' \
	'.printsize c' 'c(x) :- a(x), a(y), a(z), y != z.' \
	>"$gen/budget_steps_at_max/prog.dl"
printf 'c\t300\n' >"$gen/budget_steps_at_max/expected_stdout"

# --version names the library version of datalog.h.
mkdir -p "$gen/version"
: >"$gen/version/prog.dl"
echo '--version' >"$gen/version/args"
awk '/#define MAELYS_DATALOG_VERSION_(MAJOR|MINOR|PATCH) / {
		sub("MAELYS_DATALOG_VERSION_", "", $2); v[$2] = $3 }
	END { printf "maelys-datalog %s.%s.%s\n", v["MAJOR"], v["MINOR"],
		v["PATCH"] }' \
	"$src/datalog/include/maelys/datalog.h" >"$gen/version/expected_stdout"

# With --souffle a program with a C preprocessor line goes through cpp, as
# Souffle's does: #define, #include (relative to -I too), #if; an error
# after it names the file and line cpp's line markers give.  Only where
# cpp is installed (the runner refuses such a program clearly otherwise).
if command -v cpp >/dev/null 2>&1; then
	mkdir -p "$gen/cpp_souffle/inc" "$gen/cpp_souffle/expected" \
		"$gen/cpp_souffle_error"
	printf '%s\n' '#include "sizes.h"' '#define TWICE(x) (2 * (x))' \
		'.decl n(x:number)' '.output n' 'n(SIZE).' '#if SIZE > 3' \
		'n(TWICE(SIZE)).' '#else' 'n(0).' '#endif' \
		>"$gen/cpp_souffle/prog.dl"
	printf '#define SIZE 5\n' >"$gen/cpp_souffle/inc/sizes.h"
	echo 'run --souffle -I inc -D . prog.dl' >"$gen/cpp_souffle/args"
	printf '5\n10\n' >"$gen/cpp_souffle/expected/n.csv"
	printf '#define ONE 1\n.decl n(x:number)\n\nn(ONE) :- m(ONE).\n' \
		>"$gen/cpp_souffle_error/prog.dl"
	echo 'run --souffle prog.dl' >"$gen/cpp_souffle_error/args"
	echo 1 >"$gen/cpp_souffle_error/expected_status"
	echo "undeclared: prog.dl:4:" \
		>"$gen/cpp_souffle_error/expected_stderr_contains"
fi

for dir in "$gen"/*/; do
	run_case "${dir%/}"
done

echo "runner_cases: $((total - failed)) of $total passed"
[ "$failed" = 0 ]
