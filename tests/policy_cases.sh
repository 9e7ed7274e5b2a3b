#!/bin/sh
# SPDX-License-Identifier: MIT
# `maelys-pty test`, the built command, as a policy author runs it:
#   - every shipped case file (policies/cases/*.case) holds against the
#     policy of its name, found beside the cases/ directory: exit 0 and
#     "N passed, 0 failed";
#   - the policy's warnings are said; --werror makes them fail (exit 2);
#   - --coverage lists the rules no case made true and counts them;
#   - a failing case prints its file:line, the case, the verdict it got and
#     its reasons, and exits 1; -v prints every case and the policy used;
#   - a malformed case file exits 2 naming its file:line, and decides
#     nothing; a missing policy exits 2; so do bad options;
#   - --config: the policy the configuration names (root only: the
#     configuration and its policy must be root's).
# Env: MAELYS_SOURCE_ROOT, MAELYS_BUILD_ROOT (tests/meson.build sets them).
set -eu

src=$(cd "${MAELYS_SOURCE_ROOT:-.}" && pwd)
build=${MAELYS_BUILD_ROOT:-$src/build}
bin=$build/pty/maelys-pty
[ -x "$bin" ] || { echo "policy_cases: $bin is not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "policy_cases: $*" >&2
	for f in out err; do
		[ -f "$tmp/$f" ] && { echo "--- $f:"; head -n 40 "$tmp/$f"; } >&2
	done
	exit 1
}

# run EXPECTED_STATUS ARGS...: the command, its output in $tmp/out and
# $tmp/err
run() {
	want=$1
	shift
	set +e
	"$bin" test "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" = "$want" ] || fail "maelys-pty test $*: exit $got, not $want"
}

has() { grep -qxF -- "$2" "$tmp/$1" || fail "$1 lacks the line: $2"; }
lacks() { ! grep -qF -- "$2" "$tmp/$1" || fail "$1 has: $2"; }

# ---- the shipped cases, each against its policy
run 0 "$src"/policies/cases/*.case
tail -n 1 "$tmp/out" | grep -qx '[1-9][0-9]* passed, 0 failed' ||
	fail "the shipped cases: $(tail -n 1 "$tmp/out")"
[ "$(wc -l <"$tmp/out")" = 1 ] || fail "the shipped cases printed more"
[ ! -s "$tmp/err" ] || fail "the shipped cases wrote to stderr"
echo "shipped cases: $(cat "$tmp/out")"
run 0 --coverage "$src"/policies/cases/*.case
for f in "$src"/policies/cases/*.case; do
	name=$(basename "$f" .case)
	grep -q "^$src/policies/$name.dl: covered [0-9]* of [0-9]* rules\$" "$tmp/out" ||
		fail "no coverage of $name.dl"
done
grep "covered" "$tmp/out"
for f in "$src"/policies/cases/*.case; do
	name=$(basename "$f" .case)
	run 0 -v "$f"
	has out "$f: policy $src/policies/$name.dl"
done

# ---- a failing case, in a policy author's tree: DIR/cases/NAME.case
mkdir -p "$tmp/tree/cases"
cp "$src/policies/level1.dl" "$tmp/tree/level1.dl"
cat >"$tmp/tree/cases/level1.case" <<'EOF'
user alice
allow    curl example.com
allow    shutdown now
user bob
deny     curl example.com
because  trusted users
because  nothing like this
EOF
cd "$tmp/tree"
run 1 cases/level1.case
has out "cases/level1.case:3: allow shutdown now: got POLICY (deny(shutdown): command is forbidden by policy)"
has out "cases/level1.case:7: because nothing like this: got POLICY (deny(curl): curl is restricted to trusted users)"
has out "1 passed, 2 failed"
lacks out "cases/level1.case:2:"
[ ! -s "$tmp/err" ] || fail "a failing case wrote to stderr"
# -v: every case, and which policy
run 1 -v cases/level1.case
has out "cases/level1.case: policy level1.dl"
has out "cases/level1.case:2: allow curl example.com: ok ALLOW"
has out "cases/level1.case:3: allow shutdown now: got POLICY (deny(shutdown): command is forbidden by policy)"
# from inside cases/: the policy is ../level1.dl
(cd cases && "$bin" test -v level1.case >"$tmp/out" 2>&1) || true
has out "level1.case: policy ../level1.dl"
# --policy names another policy: walkthrough.dl has no curl rule for bob
run 1 --policy "$src/policies/walkthrough.dl" cases/level1.case
has out "1 passed, 2 failed"

# --coverage: the rules no case made true, at their file:line, and a count
# for the policy, before the count of the cases
run 1 --coverage cases/level1.case
grep -q '^level1\.dl:[0-9][0-9]*: not covered: allow_exec(' "$tmp/out" ||
	fail "--coverage lists no uncovered exec rule"
grep -qx 'level1\.dl: covered [1-9][0-9]* of [1-9][0-9]* rules' "$tmp/out" ||
	fail "--coverage gives no count"
tail -n 1 "$tmp/out" | grep -qx '1 passed, 2 failed' || fail "--coverage: last line"

# ---- a malformed case file: exit 2, its file:line, nothing decided
cat >"$tmp/tree/cases/level1.case" <<'EOF'
user alice
allow    ls
time 25:00
permit   ls
EOF
run 2 cases/level1.case
has err "cases/level1.case:3: time is HH:MM, 00:00 to 23:59"
has err "cases/level1.case:4: unknown keyword 'permit'"
has out "0 passed, 0 failed"

# ---- a missing policy: exit 2
printf 'allow ls\n' >"$tmp/tree/cases/nothere.case"
run 2 cases/nothere.case
grep -q "^maelys-pty: policy cases/../nothere.dl: \|^maelys-pty: policy nothere.dl: " "$tmp/err" ||
	fail "a missing policy is not named"
run 2 --policy "$tmp/none.dl" "$src/policies/cases/level1.case"
grep -q "^maelys-pty: policy $tmp/none.dl: " "$tmp/err" ||
	fail "a missing --policy is not named"
run 2 "$tmp/tree/level1.dl"
grep -q "not NAME.case" "$tmp/err" || fail "a file not NAME.case is taken"

# ---- the policy's warnings, before its cases; --werror fails them
printf 'allow(C) :- command(C), c = "ls".\nallow(C) :- command(C), C = "ls".\n' \
	>"$tmp/tree/warned.dl"
printf 'allow ls\n' >"$tmp/tree/cases/warned.case"
run 0 cases/warned.case
grep -q '^warned\.dl:1:25: warning: comparison of two constants' "$tmp/err" ||
	fail "the policy's warning is not said"
has out "1 passed, 0 failed"
run 2 --werror cases/warned.case
grep -q '^warned\.dl:1:25: warning: .*(--werror)$' "$tmp/err" ||
	fail "--werror does not say why"
grep -qx 'maelys-pty: warned\.dl: 1 warning, errors with --werror: its cases are not decided' "$tmp/err" ||
	fail "--werror does not say the cases were not decided"
has out "0 passed, 0 failed"
run 0 --werror "$src"/policies/cases/*.case
[ ! -s "$tmp/err" ] || fail "a shipped policy has warnings"

# ---- options
run 2
run 2 --policy
run 2 --frobnicate cases/level1.case
run 2 --policy "$tmp/tree/level1.dl" --config /etc/x.conf cases/level1.case
run 0 --help
grep -q '^usage: maelys-pty test' "$tmp/out" || fail "--help"

# ---- --config: the configured policy, opened as a session opens it
if [ "$(id -u)" = 0 ]; then
	conf=$(mktemp -d /tmp/maelys-policy-cases-XXXXXX)
	trap 'rm -rf "$tmp" "$conf"' EXIT
	chmod 755 "$conf"
	cp "$src/policies/level1.dl" "$conf/level1.dl"
	chmod 644 "$conf/level1.dl"
	printf 'policy = %s/level1.dl\n' "$conf" >"$conf/maelys-pty.conf"
	chmod 644 "$conf/maelys-pty.conf"
	run 0 -v --config "$conf/maelys-pty.conf" "$src/policies/cases/level1.case"
	has out "$src/policies/cases/level1.case: policy $conf/level1.dl"
	# loaded once for every file: one coverage for both
	run 0 --coverage --config "$conf/maelys-pty.conf" \
		"$src/policies/cases/level1.case" "$tmp/tree/cases/warned.case"
	[ "$(grep -c "^$conf/level1.dl: covered [0-9]* of [0-9]* rules\$" "$tmp/out")" = 1 ] ||
		fail "--config: the policy is not loaded once"
	# a policy anyone may rewrite is not the configured policy
	chmod 666 "$conf/level1.dl"
	run 2 --config "$conf/maelys-pty.conf" "$src/policies/cases/level1.case"
	grep -q "writable" "$tmp/err" || fail "--config took a writable policy"
else
	echo "policy_cases: --config not checked (needs root)"
fi
echo "policy_cases: ok"
