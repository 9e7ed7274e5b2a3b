#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/run.sh - the one command that runs every benchmark of the engine.
#
#   bench/run.sh [-n RUNS] [WORKLOAD ...]
#
# Builds a release build (build-release/ at the top of the repository, or
# $BUILD; configured with -Dbuildtype=release when missing), then runs:
#   decision      bench_decision: one Level 1 decision inside one process,
#                 100,000 times (median/p90/p99/max in us, VmRSS growth)
#   pty           bench_pty: the guard's decision latency (scan, facts,
#                 solve, forward), cat of 256 MiB through the guard against
#                 `script -q -c` and no pty, the guard's peak memory (as
#                 root also with a configuration and an audit log), a
#                 decision concluded with its audit record (tmpfs, disk;
#                 the audit writer process against in-process), a line over
#                 bash's socket pair against a pipe, and the session's end
#   audit channel session_end
#                 each of those last three parts of bench_pty alone
#   exec          bench_exec: what the exec supervisor adds to each program a
#                 session runs - fork+exec+wait of /bin/true directly, under
#                 a bare seccomp-notify supervisor (the floor), inside
#                 `maelys-pty --policy P -c` (as root also with an audit log
#                 on tmpfs), under `strace -f -e trace=execve` (and with
#                 --seccomp-bpf); median/p90/p99 in us, 10,000 each, lockstep
#   exec_checks   bench_exec -W checks: the per-exec checks - a deep path
#                 with a link, a #! script, ld.so PROG - each against its
#                 direct way and against /bin/true, 5,000 each; as root,
#                 then again as nobody (root skips the writability checks)
#   exec_walk     bench_exec walk: the path resolution alone, in process,
#                 the old openat2 against the walk (+name, +expand), ns per
#                 call; as root, then as nobody
#   provenance    provenance.sh: solves with and without
#                 MAELYS_DATALOG_SESSION_PROVENANCE, and without the flag
#                 against a peer build with the provenance code left out
#   mayrun        bench_mayrun: the list of what may run (help, --list, Tab)
#                 for a PATH of 2,000 executables, against 2,000 pty_decide
#   audit_key     bench_audit: the forward-secure log's evolving key per
#                 record beside the v1 HMAC frame; appends on tmpfs and disk
#   decide        decide.sh: decisions per second of `maelys-pty decide`
#                 through a pipe, against `maelys-pty -c LINE` per line
#   tiny_l1 policy tc_chain1000 tc_rand1000 sg_tree4096 tc_chain2000
#   sp_hops300 deg_hub20k (arithmetic and aggregates)
#                 peers/run_peers.sh: the same workload files through gringo,
#                 clingo, SWI-Prolog tabling and ours (the standalone runner
#                 build-release/datalog/maelys-datalog), whole processes,
#                 median wall of RUNS runs (default 5) after a warm-up
# and prints, per peer workload, ours/gringo and ours/swipl (ratios of median
# wall times; below 1 means ours is faster) and our peak RSS, against the
# targets of README.md.  With no WORKLOAD, all of them.
#
# Peers come from Debian (gringo, swi-prolog-nox; GNU time and bc for the
# measuring): missing ones are installed with apt-get when run as root,
# otherwise their rows are skipped with a message.  Workload files are
# generated once into $BENCH_DATA (default ~/.cache/maelys-bench).
# The machine is noisy: compare the ratios of one run, not figures across
# runs.
set -eu

usage() {
	sed -n '4,5p' "$0" | sed 's/^# //' >&2
	exit "$1"
}

RUNS=5
while getopts 'n:h' opt; do
	case "$opt" in
	n) RUNS="$OPTARG" ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
case "$RUNS" in
'' | *[!0-9]* | 0)
	echo "run.sh: -n wants a count of runs, not '$RUNS'" >&2
	exit 2
	;;
esac

PEER_WORKLOADS="tiny_l1 policy tc_chain1000 tc_rand1000 sg_tree4096 tc_chain2000 sp_hops300 deg_hub20k"
OWN_WORKLOADS="decision pty audit channel session_end exec exec_checks exec_walk provenance mayrun audit_key decide"
run_decision=0
run_provenance=0
run_mayrun=0
run_audit_key=0
run_decide=0
run_pty=0
run_exec=0
run_exec_checks=0
run_exec_walk=0
pty_parts=()
peer_wls=()
if [ $# -eq 0 ]; then
	run_decision=1
	run_pty=1
	run_exec=1
	run_exec_checks=1
	run_exec_walk=1
	run_provenance=1
	run_mayrun=1
	run_audit_key=1
	run_decide=1
	read -r -a peer_wls <<<"$PEER_WORKLOADS"
fi
for wl in "$@"; do
	case " $OWN_WORKLOADS $PEER_WORKLOADS " in
	*" $wl "*) ;;
	*)
		echo "run.sh: unknown workload '$wl' ($OWN_WORKLOADS $PEER_WORKLOADS)" >&2
		exit 2
		;;
	esac
	case "$wl" in
	decision) run_decision=1 ;;
	pty) run_pty=1 ;;
	audit) pty_parts+=(audit) ;;
	channel) pty_parts+=(channel) ;;
	session_end) pty_parts+=(end) ;;
	exec) run_exec=1 ;;
	exec_checks) run_exec_checks=1 ;;
	exec_walk) run_exec_walk=1 ;;
	provenance) run_provenance=1 ;;
	mayrun) run_mayrun=1 ;;
	audit_key) run_audit_key=1 ;;
	decide) run_decide=1 ;;
	*) peer_wls+=("$wl") ;;
	esac
done
# the user the exec benchmarks run as besides root (root's walk checks no
# writability: a user's does)
BENCH_USER="${BENCH_USER:-nobody}"
as_user=0
if [ "$(id -u)" = 0 ] && id "$BENCH_USER" >/dev/null 2>&1; then
	as_user=1
fi

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BUILD="${BUILD:-$ROOT/build-release}"

# --- the release build -------------------------------------------------
echo "== build: $BUILD"
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" "$ROOT" -Dbuildtype=release -Dtests=disabled
fi
ninja -C "$BUILD" >/dev/null
buildtype="$(meson introspect --buildoptions "$BUILD" |
	python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))')"
echo "buildtype: $buildtype; $(uname -m), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
if [ "$buildtype" != release ]; then
	echo "run.sh: warning: $BUILD is a '$buildtype' build, not release" >&2
fi

# --- one decision in one process --------------------------------------
if [ "$run_decision" = 1 ]; then
	echo
	echo "== decision: Level 1 policy, one decision per solve_edb"
	"$BUILD/bench/bench_decision" "$ROOT/policies/walkthrough.dl"
fi

# --- the guarded shell ------------------------------------------------
if [ "$run_pty" = 1 ]; then
	echo
	echo "== pty: the guard's decision latency, output throughput, memory"
	if command -v script >/dev/null; then
		"$BUILD/bench/bench_pty" "$BUILD/pty/maelys-pty" \
			"$ROOT/policies/level1.dl" 256 3
	else
		echo "run.sh: no script(1) (util-linux): pty benchmark skipped" >&2
	fi
fi

# --- parts of the guarded shell alone ---------------------------------
if [ ${#pty_parts[@]} -gt 0 ] && [ "$run_pty" = 0 ]; then
	echo
	echo "== ${pty_parts[*]}: parts of bench_pty"
	"$BUILD/bench/bench_pty" -p "$(
		IFS=,
		echo "${pty_parts[*]}"
	)" "$BUILD/pty/maelys-pty" "$ROOT/policies/level1.dl"
fi

# --- the exec supervisor ----------------------------------------------
# bench_exec skips the strace rows itself when there is no strace, and the
# audit-log row when not root (the configuration must be root's).
if [ "$run_exec" = 1 ]; then
	echo
	echo "== exec: what the exec supervisor adds to each fork+exec+wait"
	"$BUILD/bench/bench_exec" -g "$BUILD/pty/maelys-pty"
fi
# the per-exec checks: the ways need root (a tree the user cannot change);
# as root, then as $BENCH_USER, whose walk checks every folder's
# writability (without the audit ways: their key is root's)
if [ "$run_exec_checks" = 1 ]; then
	echo
	echo "== exec_checks: the per-exec checks (deep path, #! script, ld.so), as $(id -un)"
	"$BUILD/bench/bench_exec" -g "$BUILD/pty/maelys-pty" -n 5000 -W checks
	if [ "$as_user" = 1 ]; then
		echo
		echo "== exec_checks: the same as $BENCH_USER"
		"$BUILD/bench/bench_exec" -g "$BUILD/pty/maelys-pty" -n 5000 \
			-u "$BENCH_USER" -W direct,supervised,direct-deep,supervised-deep,direct-script,supervised-script,direct-loader,supervised-loader
	fi
fi
if [ "$run_exec_walk" = 1 ]; then
	echo
	echo "== exec_walk: an exec's path resolution alone, in process"
	"$BUILD/bench/bench_exec" walk
	if [ "$as_user" = 1 ]; then
		echo
		"$BUILD/bench/bench_exec" walk -u "$BENCH_USER"
	fi
fi
if [ "$run_provenance" = 1 ]; then
	echo
	echo "== provenance: what recording derivations costs, and what it costs when off"
	data="${BENCH_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/maelys-bench}"
	[ -d "$data/tiny_l1" ] || python3 "$HERE/peers/gen.py" "$data" >/dev/null
	sh "$HERE/provenance.sh" -n "$RUNS" "$BUILD" "$data"
fi
if [ "$run_mayrun" = 1 ]; then
	echo
	echo "== mayrun: the list of what may run, against the decisions alone"
	"$BUILD/bench/bench_mayrun" "$ROOT/policies/level1.dl" \
		"$ROOT/policies/bastion.dl"
fi
if [ "$run_audit_key" = 1 ]; then
	echo
	echo "== audit_key: the evolving key's cost per record, beside the v1 HMAC frame"
	"$BUILD/bench/bench_audit"
fi
if [ "$run_decide" = 1 ]; then
	echo
	echo "== decide: decisions per second through a pipe, against -c per line"
	bash "$HERE/decide.sh" -n "$RUNS" "$BUILD"
fi
[ ${#peer_wls[@]} -eq 0 ] && exit 0

# --- peers ------------------------------------------------------------
echo
echo "== peers: ${peer_wls[*]} ($RUNS runs each)"
missing=()
command -v gringo >/dev/null || missing+=(gringo)
command -v swipl >/dev/null || missing+=(swi-prolog-nox)
[ -x /usr/bin/time ] || missing+=(time)
command -v bc >/dev/null || missing+=(bc)
if [ ${#missing[@]} -gt 0 ]; then
	if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
		echo "installing ${missing[*]} with apt-get"
		export DEBIAN_FRONTEND=noninteractive
		if ! apt-get install -y -q "${missing[@]}" >/dev/null; then
			apt-get update -q >/dev/null || true
			apt-get install -y -q "${missing[@]}" >/dev/null ||
				echo "run.sh: apt-get could not install ${missing[*]}" >&2
		fi
	else
		echo "run.sh: apt-get unavailable (or not root): ${missing[*]} not installed; those peers are skipped" >&2
	fi
fi
if [ ! -x /usr/bin/time ] || ! command -v bc >/dev/null ||
	! command -v python3 >/dev/null; then
	echo "run.sh: peers skipped: run_peers.sh needs /usr/bin/time (GNU time), bc and python3" >&2
	exit 0
fi
OURS=""
if [ -x "$BUILD/datalog/maelys-datalog" ]; then
	OURS="$BUILD/datalog/maelys-datalog"
else
	echo "run.sh: no $BUILD/datalog/maelys-datalog (datalog/tools/ not written yet): ours is skipped" >&2
fi

table="$(mktemp)"
trap 'rm -f "$table"' EXIT
OURS="$OURS" bash "$HERE/peers/run_peers.sh" -n "$RUNS" "${peer_wls[@]}" |
	tee "$table"

# --- ratios -----------------------------------------------------------
# Ratios of median wall times (whole processes) from the table above; the
# targets are README.md's: tc/sg at least 6x faster than gringo and than
# SWI-Prolog (the faster of its two programs, swipl and swipl-left) with
# peak RSS under 40 MiB, the 200-rule policy faster than gringo.
echo
echo "== ours against the peers (median wall, this run; < 1 means ours is faster)"
awk -F'|' -v wls="${peer_wls[*]}" '
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function ratio(a, b) {
	if (a == "" || b == "" || b + 0 == 0) return "-"
	return sprintf("%.3f (%.1fx)", a / b, b / a)
}
# a workload the runner refuses: a row with its reason, no figures
NF < 8 && trim($4) ~ /^(refused|FAILED)/ {
	why[trim($2), trim($3)] = trim($4)
}
NF >= 8 {
	e = trim($2); w = trim($3)
	cnt[e, w] = trim($4); wall[e, w] = trim($5); rss[e, w] = trim($7)
}
END {
	printf "| %-13s | %-7s | %-7s | %-7s | %-10s | %-14s | %-14s | %-15s | %-7s | %-10s | %s\n", \
	    "workload", "ours s", "gringo", "swipl", "swipl-left", "ours/gringo", \
	    "ours/swipl", "ours/swipl-left", "RSS MiB", "count", "target"
	n = split(wls, list, " ")
	for (i = 1; i <= n; i++) {
		w = list[i]
		o = wall["ours", w]; g = wall["gringo", w]
		s = wall["swipl", w]; l = wall["swipl-left", w]
		# fields are strings after trim(): +0 makes the tests numeric;
		# the target is judged against the faster SWI-Prolog program
		on = o + 0; gn = g + 0; bn = s + 0
		if (l != "" && (s == "" || l + 0 < bn)) bn = l + 0
		want = cnt["expected", w]; got = cnt["ours", w]
		check = ((y = why["ours", w]) != "") ? \
		    (y ~ /^refused/ ? "refused (not yet)" : "FAILED") : \
		    (got == "") ? "-" : (want == "" || want == "?" || \
		    got == want) ? got " ok" : got " WRONG (want " want ")"
		target = "-"
		if (o != "" && (w == "tc_chain1000" || w == "tc_rand1000" || \
		    w == "sg_tree4096")) {
			ok = g != "" && on * 6 <= gn && bn > 0 && on * 6 <= bn \
			    && rss["ours", w] + 0 < 40
			target = (ok ? "met" : "MISSED") \
			    " (>= 6x gringo and best swipl, < 40 MiB)"
		} else if (o != "" && w == "policy") {
			target = (g != "" && on < gn ? "met" : "MISSED") \
			    " (faster than gringo)"
		}
		printf "| %-13s | %-7s | %-7s | %-7s | %-10s | %-14s | %-14s | %-15s | %-7s | %-10s | %s\n", \
		    w, (o == "" ? "-" : o), (g == "" ? "-" : g), \
		    (s == "" ? "-" : s), (l == "" ? "-" : l), ratio(o, g), \
		    ratio(o, s), ratio(o, l), \
		    (o == "" ? "-" : rss["ours", w]), check, target
	}
}' "$table"
echo "(Nx: ours is N times faster; RSS: our peak RSS; whole processes)"
