#!/usr/bin/env bash
# Reproduce the peer-engine measurements of PEERS.md with public tools only
# (python3: wall clock around spawn..reap, peak RSS from wait4, medians).
#
#   bash bench/run_peers.sh [-n RUNS] [WORKLOAD ...]
#
# Workloads: tc_chain1000 tc_chain2000 tc_rand1000 sg_tree4096 policy tiny_l1
# sp_hops300 deg_hub20k (default: all; the last two use arithmetic and
# aggregates).  Every engine/workload pair gets 1 unmeasured warm-up run and
# RUNS measured runs (default 5); the table shows the MEDIAN wall time and the
# median peak RSS of the whole process (start-up, parse and load included), the
# count of the key relation each engine printed, and - where the engine can say
# it - the evaluation time it measured itself, without start-up and loading.
#
# Engines (each skipped when not installed):
#   gringo   Debian package gringo: `gringo --text` (prints the full model)
#   clingo   same package: grounder + solver in one process, prints only the
#            count; its eval time comes from a separate run with
#            engines/clingo_time.lp (python hook timing Control.ground)
#   swipl    Debian package swi-prolog-nox, tabling; eval = cputime of the
#            query after the facts are loaded.  swipl-left: left-recursive TC
#   souffle  Souffle interpreter: set SOUFFLE=/path/to/souffle (a build from
#            source; not packaged for Debian 12).  -j1.  Own eval = median wall
#            of the program minus median wall of load.souffle.dl (EDB only).
#   souffle-c  Souffle compiled (-o, C++ via g++), run of the binary only;
#            the one-off compile time is printed separately (SOUFFLE_COMPILED=0
#            skips it; each compile takes ~15-20 s of g++).
#   ours     maelys-datalog from PATH (or OURS='path/to/maelys-datalog'),
#            run as: $OURS run --souffle prog.souffle.dl -F DIR -D OUT -- the
#            same program file Souffle runs; `.printsize rel` prints "rel<TAB>N".
#            When the runner refuses a workload's program (exit 1: a construct
#            it does not read yet), the row says `refused` with the runner's
#            first line of error instead of figures, and the run goes on.
#   ours-before  OURS_BEFORE='path/to/maelys-datalog' (optional): another build
#            of ours, timed the same way in the same run (a change's before
#            and after beside the same peers).
# Machine noise: compare ratios taken in one run of this script, not across runs.
# shellcheck disable=SC2086 # $stats and $facts are split into words on purpose
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
RUNS=5
if [ "${1:-}" = "-n" ]; then RUNS="$2"; shift 2; fi
WLS=("$@")
[ ${#WLS[@]} -eq 0 ] && WLS=(tiny_l1 policy tc_chain1000 tc_rand1000 sg_tree4096 tc_chain2000 sp_hops300 deg_hub20k)
# generated workloads live outside the (possibly read-only) folder of this script
DATA="${BENCH_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/maelys-bench}"
# (generated again when a workload added since is missing)
missing_wl=0
for wl in "${WLS[@]}"; do [ -d "$DATA/$wl" ] || missing_wl=1; done
[ "$missing_wl" = 0 ] || python3 "$HERE/gen.py" "$DATA" >/dev/null
SOUFFLE="${SOUFFLE:-$(command -v souffle || true)}"
OURS="${OURS:-$(command -v maelys-datalog || true)}"
[ -z "$SOUFFLE" ] && [ -x /tmp/souffle/build/src/souffle ] && SOUFFLE=/tmp/souffle/build/src/souffle
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# measure NAME WORKLOAD EVAL_CMD -- CMD...   (EVAL_CMD: shell snippet run in the
# workload dir printing the engine's own eval seconds, or '')
measure() {
  local name="$1" wl="$2" evalcmd="$3"; shift 4
  local out="$TMP/out" stats
  stats="$(python3 "$HERE/engines/timecmd.py" "$RUNS" 1 "$out" -- "$@")"
  local count
  count="$(grep -aoE '(count\(|path\s|sg\s|allow\s|far\s|hub\s)[0-9]+' "$out" | grep -oE '[0-9]+' | tail -1)"
  [ -z "$count" ] && count="$(grep -aoE '[0-9]+' "$out" | tail -1)"
  local ev=""
  [ -n "$evalcmd" ] && ev="$(cd "$DATA/$wl" && eval "$evalcmd" 2>&1 | tail -1)"
  set -- $stats
  printf '| %-10s | %-13s | %9s | %8.3f | %.3f-%.3f | %7.1f | %s |\n' \
    "$name" "$wl" "${count:-?}" "$1" "$2" "$3" "$(echo "$4 / 1024" | bc -l)" "${ev:--}"
}

echo "| engine     | workload      |     count | wall s   | min-max       | RSS MiB | own eval s |"
echo "|------------|---------------|-----------|----------|---------------|---------|------------|"
for wl in "${WLS[@]}"; do
  d="$DATA/$wl"
  facts="$d/facts.lp"; [ "$wl" = tiny_l1 ] && facts=""
  if command -v gringo >/dev/null; then
    measure gringo "$wl" "" -- gringo --text "$d/prog.lp" $facts
    measure clingo "$wl" \
      "clingo $HERE/engines/clingo_time.lp prog.lp $( [ -n "$facts" ] && echo facts.lp ) 2>&1 >/dev/null | grep -o 'ground_seconds [0-9.]*' | cut -d' ' -f2" \
      -- clingo "$d/prog.lp" $facts
  fi
  if command -v swipl >/dev/null; then
    ev=""; [ "$wl" != tiny_l1 ] && ev="swipl prog.pl 2>&1 >/dev/null | grep -o 'eval_seconds [0-9.]*' | cut -d' ' -f2"
    measure swipl "$wl" "$ev" -- swipl "$d/prog.pl"
    if [ -f "$d/prog_left.pl" ]; then
      measure swipl-left "$wl" "swipl prog_left.pl 2>&1 >/dev/null | grep -o 'eval_seconds [0-9.]*' | cut -d' ' -f2" \
        -- swipl "$d/prog_left.pl"
    fi
  fi
  if [ -n "$SOUFFLE" ]; then
    # own eval: median wall of the full program minus that of load.souffle.dl
    # (same EDB, no rules); Souffle has no eval-only timer outside its profiler
    full="$(python3 "$HERE/engines/timecmd.py" "$RUNS" 1 /dev/null -- "$SOUFFLE" -j1 -F "$d" -D "$TMP" "$d/prog.souffle.dl" | cut -d' ' -f1)"
    load="$(python3 "$HERE/engines/timecmd.py" "$RUNS" 1 /dev/null -- "$SOUFFLE" -j1 -F "$d" -D "$TMP" "$d/load.souffle.dl" | cut -d' ' -f1)"
    measure souffle "$wl" "python3 -c 'print(\"%.4f (full-load)\" % ($full - $load))'" \
      -- "$SOUFFLE" -j1 -F "$d" -D "$TMP" "$d/prog.souffle.dl"
    if [ "${SOUFFLE_COMPILED:-1}" = 1 ] && [ "$wl" != tiny_l1 ]; then
      t0=$(date +%s.%N)
      if "$SOUFFLE" -j1 -o "$TMP/sc_$wl" "$d/prog.souffle.dl" > "$TMP/sc.log" 2>&1; then
        t1=$(date +%s.%N)
        measure souffle-c "$wl" "" -- "$TMP/sc_$wl" -j1 -F "$d" -D "$TMP"
        echo "|            | (souffle-c one-off compile of $wl: $(python3 -c "print('%.1f s' % ($t1-$t0))")) | | | | | |"
      else
        echo "| souffle-c  | $wl | compile failed: $(tail -1 "$TMP/sc.log") | | | | |"
      fi
    fi
  fi
  for pair in "ours-before:${OURS_BEFORE:-}" "ours:$OURS"; do
    name="${pair%%:*}" bin="${pair#*:}"
    [ -n "$bin" ] || continue
    # one run first: a program the runner refuses (exit 1) is reported, not
    # timed (a refusal's figures would be those of a parse error)
    "$bin" run --souffle "$d/prog.souffle.dl" -F "$d" -D "$TMP" >/dev/null 2>"$TMP/ours.err"
    rc=$?
    if [ "$rc" = 0 ]; then
      measure "$name" "$wl" "" -- "$bin" run --souffle "$d/prog.souffle.dl" -F "$d" -D "$TMP"
    else
      what="refused (not yet)"; [ "$rc" = 1 ] || what="FAILED (exit $rc)"
      printf '| %-10s | %-13s | %s: %s |\n' "$name" "$wl" "$what" \
        "$(head -1 "$TMP/ours.err" | tr '|' '/')"
    fi
  done
  echo "| expected   | $wl | $(cut -d' ' -f2 "$d/expected.txt") | | | | |"
done
measure true-floor "-" "" -- /bin/true
