#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/decide.sh - decisions per second of `maelys-pty decide` through a
# pipe, against `maelys-pty --policy P -c LINE` once per line (what a
# program that runs commands for someone else would do without decide),
# the same lines, in the same run.
#
#   bench/decide.sh [-n RUNS] [BUILD]
#
# The lines are the line cases of policies/cases/level1.case (denied, and
# the allowed ones of harmless programs), decided with policies/level1.dl.  decide answers a
# stream of LINES requests; -c is run for each of the same lines, once
# (-c runs the allowed ones, as a session would: that is its cost).  Each
# of RUNS rounds times both; the medians and their ratio are printed.
set -eu
runs=5
[ "${1:-}" = "-n" ] && { runs=$2; shift 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
bin=$build/pty/maelys-pty
policy=$src/policies/level1.dl
[ -x "$bin" ] || { echo "decide.sh: $bin is not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# the line cases, as plain lines; -c runs what is allowed, so only the
# allowed lines of harmless programs are kept (no curl, no git push)
sed -n 's/^\(allow\|deny\|log\|confirm\|refuse\) \+//p' \
	"$src/policies/cases/level1.case" >cases
python3 -c 'import json,sys; [print(json.dumps({"line": l, "user": "alice", "cwd": "/tmp", "mode": "command"})) for l in open("cases").read().splitlines()]' |
	"$bin" decide --policy "$policy" >verdicts
python3 - <<'PY' >lines
import json
safe = {"ls", "cat", "echo", "true", "date", "id", "whoami", "pwd", "uname"}
for l, a in zip(open("cases").read().splitlines(), open("verdicts")):
    d = json.loads(a).get("decision")
    if d != "allow" and d != "log" or (l.split() or [""])[0] in safe:
        print(l)
PY
nlines=$(wc -l <lines)
# the stream: the lines again and again, 20,000 requests
python3 - "$nlines" <<'PY' >requests
import json, sys
lines = open("lines").read().splitlines()
for i in range(20000):
    print(json.dumps({"id": i, "line": lines[i % len(lines)],
                      "user": "alice", "cwd": "/tmp", "mode": "command"}))
PY
nreq=$(wc -l <requests)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

: >decide.rates
: >c.rates
for r in $(seq "$runs"); do
	t0=$(now)
	"$bin" decide --policy "$policy" <requests >answers
	t1=$(now)
	[ "$(wc -l <answers)" -eq "$nreq" ] || { echo "decide.sh: short answer" >&2; exit 1; }
	echo "$nreq / ($t1 - $t0)" | bc -l >>decide.rates
	t0=$(now)
	while IFS= read -r line; do
		"$bin" --policy "$policy" -c "$line" </dev/null >/dev/null 2>&1 || true
	done <lines
	t1=$(now)
	echo "$nlines / ($t1 - $t0)" | bc -l >>c.rates
	echo "round $r/$runs done" >&2
done
d=$(median <decide.rates)
c=$(median <c.rates)
printf 'decide, one pipe:      %10.0f decisions/s (median of %d, %d requests)\n' "$d" "$runs" "$nreq"
printf 'maelys-pty -c per line: %9.0f decisions/s (median of %d, %d lines)\n' "$c" "$runs" "$nlines"
printf 'ratio:                 %10.1fx\n' "$(echo "$d / $c" | bc -l)"
