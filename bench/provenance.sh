#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/provenance.sh - what provenance costs (bench_provenance.c).
#
#   bench/provenance.sh [-n ROUNDS] [-s SOLVES] BUILD DATA [WORKLOAD ...]
#
# BUILD is a release build directory (meson setup BUILD -Dbuildtype=release),
# DATA the directory bench/peers/gen.py wrote (python3 bench/peers/gen.py
# DATA).  For each workload (default: tc_chain1000 tc_rand1000 sg_tree4096
# policy) and each of ROUNDS rounds (default 5), runs in turn
#   peer  bench_provenance_peer off: the engine built with -DDL_NO_PROVENANCE
#   off   bench_provenance off: the library, a session without the flag
#   on    bench_provenance on: the library, a PROVENANCE session
# each the median of SOLVES solves (default 5), then prints per workload the
# median over the rounds of each, off/peer (what the flag costs a session
# that does not set it: 1.00 is nothing) and on/off.  Rounds interleave the
# three so that the machine's drift touches them alike.
set -eu
ROUNDS=5
SOLVES=5
while getopts 'n:s:' opt; do
	case "$opt" in
	n) ROUNDS=$OPTARG ;;
	s) SOLVES=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n 4,5p "$0" >&2; exit 2; }
build=$1
data=$2
shift 2
wls=${*:-tc_chain1000 tc_rand1000 sg_tree4096 policy}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/provbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf '%-14s %10s %10s %10s %9s %8s\n' workload peer_us off_us on_us off/peer on/off
for wl in $wls; do
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		"$build/bench/bench_provenance_peer" off "$SOLVES" "$data/$wl" |
			cut -d' ' -f2 >>"$tmp/$wl.peer"
		"$build/bench/bench_provenance" off "$SOLVES" "$data/$wl" |
			cut -d' ' -f2 >>"$tmp/$wl.off"
		"$build/bench/bench_provenance" on "$SOLVES" "$data/$wl" |
			cut -d' ' -f2 >>"$tmp/$wl.on"
		r=$((r + 1))
	done
	peer=$(median <"$tmp/$wl.peer")
	off=$(median <"$tmp/$wl.off")
	on=$(median <"$tmp/$wl.on")
	printf '%-14s %10s %10s %10s %9.3f %8.2f\n' "$wl" "$peer" "$off" "$on" \
		"$(echo "$off / $peer" | bc -l)" "$(echo "$on / $off" | bc -l)"
done
