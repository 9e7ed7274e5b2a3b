#!/bin/sh
# SPDX-License-Identifier: MIT
# The embedder's example (examples/level1_walkthrough.c) decides the Level 1
# walkthrough's five lines with the walkthrough's outcomes, word for word as
# its transcript shows them, and decides typed lines with -i.
set -eu

src="${MAELYS_SOURCE_ROOT:?}"
build="${MAELYS_BUILD_ROOT:?}"
exe="$build/examples/level1_walkthrough"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$exe" "$src/policies/walkthrough.dl" >"$tmp/out"
cat >"$tmp/expected" <<'OUT'
alice@host:~$ shutdown now
maelys-pty: 'shutdown' denied by policy
  deny(shutdown): command is forbidden by policy

alice@host:~$ echo hello | grep hello
maelys-pty: '__line__' denied by policy
  deny(__line__): shell metacharacter in line

alice@host:~$ git commit -m "feat: solver"
maelys-pty: denied before solving - quoted syntax is unsupported in this demo

alice@host:~$ CMD=rm; $CMD /
maelys-pty: '__line__' denied by policy
  deny(__line__): shell metacharacter in line

alice@host:~$ git push origin feature/x
-> allowed

OUT
diff -u "$tmp/expected" "$tmp/out"

# typed lines: curl is for trusted users only; alice is one, bob is not
printf 'curl example.com\n' | "$exe" -i --user bob "$src/policies/walkthrough.dl" >"$tmp/bob"
grep -q "maelys-pty: 'curl' denied by policy" "$tmp/bob"
grep -q 'deny(curl): curl is restricted to trusted users' "$tmp/bob"
printf 'curl example.com\n' | "$exe" -i --user alice "$src/policies/walkthrough.dl" >"$tmp/alice"
[ "$(grep -c -- '-> allowed' "$tmp/alice")" -eq 2 ]

# a policy that does not load stops the program with the diagnostic
printf 'forbidden_cmd("shutdwon").\n' >"$tmp/bad.dl"
if "$exe" "$tmp/bad.dl" >"$tmp/bad.out" 2>"$tmp/bad.err"; then
	echo "example_level1.sh: a policy with an unknown constant loaded"
	exit 1
fi
grep -q 'vocabulary' "$tmp/bad.err"
grep -q 'bad.dl:1:15' "$tmp/bad.err"
echo "example_level1.sh: ok"
