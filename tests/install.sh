#!/bin/sh
# SPDX-License-Identifier: MIT
# The library as an embedder gets it: `meson install` into a scratch
# directory, then the Level 1 walkthrough's C code (unedited) and the
# example program compiled against the installed headers, linked with
# `pkg-config --libs maelys-datalog`, and run against the shipped policy.
set -eu

src="${MAELYS_SOURCE_ROOT:?}"
build="${MAELYS_BUILD_ROOT:?}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }

pc="$(find "$tmp/root" -name maelys-datalog.pc | head -n 1)"
[ -n "$pc" ] || { echo "install.sh: no maelys-datalog.pc installed"; exit 1; }
for h in datalog.h datalog_builders.h; do
	[ -n "$(find "$tmp/root" -path "*/include/maelys/$h")" ] ||
		{ echo "install.sh: header maelys/$h not installed"; exit 1; }
done

# The session's ssh (libexec/) and the client configuration it gives the
# real ssh (etc/ssh_config: root's, 0644, next to the guard's), and the
# default configuration's PATH that finds that ssh first.
wrapper="$(find "$tmp/root" -path '*/maelys-pty/bin/ssh' | head -n 1)"
[ -n "$wrapper" ] && [ -x "$wrapper" ] ||
	{ echo "install.sh: no executable \$libexecdir/maelys-pty/bin/ssh"; exit 1; }
sshconf="$(find "$tmp/root" -path '*/maelys-pty/ssh_config' | head -n 1)"
[ -n "$sshconf" ] || { echo "install.sh: no ssh_config installed"; exit 1; }
[ "$(stat -c %a "$sshconf")" = 644 ] ||
	{ echo "install.sh: $sshconf is not 0644"; exit 1; }
conf="$(dirname "$sshconf")/maelys-pty.conf"
bindir_in_path="${wrapper#"$tmp/root"}"
grep -q "^path = ${bindir_in_path%/ssh}:" "$conf" ||
	{ echo "install.sh: $conf's path does not start with ${bindir_in_path%/ssh}"; exit 1; }
strings "$wrapper" | grep -qx "${sshconf#"$tmp/root"}" ||
	{ echo "install.sh: the wrapper does not name ${sshconf#"$tmp/root"}"; exit 1; }

# The shipped policies' case files, installed next to them
# ($datadir/maelys-pty/policies/cases/), hold when the installed command
# runs them against the installed policies (bastion.case and bastion.dl
# both name where this installation put the ssh wrapper).
cases_dir="$(find "$tmp/root" -type d -path '*/maelys-pty/policies/cases' | head -n 1)"
[ -n "$cases_dir" ] || { echo "install.sh: no policies/cases/ installed"; exit 1; }
for c in "$src"/policies/cases/*.case; do
	[ -f "$cases_dir/$(basename "$c")" ] ||
		{ echo "install.sh: $(basename "$c") not installed"; exit 1; }
done
guard="$(find "$tmp/root" -type f -path '*/bin/maelys-pty' | head -n 1)"
[ -n "$guard" ] || { echo "install.sh: no bin/maelys-pty installed"; exit 1; }
"$guard" test "$cases_dir"/*.case >"$tmp/cases.out" 2>&1 ||
	{ cat "$tmp/cases.out"; echo "install.sh: the installed cases fail"; exit 1; }
grep -qx '[1-9][0-9]* passed, 0 failed' "$tmp/cases.out" ||
	{ cat "$tmp/cases.out"; echo "install.sh: the installed cases did not run"; exit 1; }
"$guard" test --coverage "$cases_dir"/*.case >"$tmp/coverage.out" 2>&1 ||
	{ cat "$tmp/coverage.out"; echo "install.sh: --coverage fails"; exit 1; }
grep -q ': covered [0-9]* of [0-9]* rules$' "$tmp/coverage.out" ||
	{ cat "$tmp/coverage.out"; echo "install.sh: --coverage says nothing"; exit 1; }

# The installed explain, on the installed default policy: a refused line
# names the rule and the deny that holds; an allowed one its rule.
policies_dir="$(dirname "$cases_dir")"
"$guard" explain --policy "$policies_dir/level1.dl" --user alice \
	'shutdown now' >"$tmp/explain.out" 2>&1 && {
	cat "$tmp/explain.out"; echo "install.sh: explain allowed shutdown"; exit 1; }
grep -q 'deny("shutdown", "command is forbidden by policy")  by .*level1.dl:' \
	"$tmp/explain.out" ||
	{ cat "$tmp/explain.out"; echo "install.sh: explain shows no deny"; exit 1; }
"$guard" explain --policy "$policies_dir/level1.dl" --user alice \
	'ls -l' >"$tmp/explain.out" 2>&1 ||
	{ cat "$tmp/explain.out"; echo "install.sh: explain refused ls"; exit 1; }
grep -q '^  allow("ls")  by .*level1.dl:' "$tmp/explain.out" ||
	{ cat "$tmp/explain.out"; echo "install.sh: explain shows no allow"; exit 1; }

# The walkthrough's policy, as printed and installed, runs a command: it
# decides lines only, which --policy (no configuration) accepts.
"$guard" --policy "$policies_dir/walkthrough.dl" -c 'echo installed-level1' \
	>"$tmp/level1.out" 2>&1 ||
	{ cat "$tmp/level1.out"; echo "install.sh: walkthrough.dl runs nothing"; exit 1; }
grep -qx 'installed-level1' "$tmp/level1.out" ||
	{ cat "$tmp/level1.out"; echo "install.sh: walkthrough.dl ran nothing"; exit 1; }

# pkg-config sees the installed tree through the sysroot prefix
PKG_CONFIG_PATH="$(dirname "$pc")"
PKG_CONFIG_SYSROOT_DIR="$tmp/root"
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
cflags="$(pkg-config --cflags maelys-datalog)"
libs="$(pkg-config --libs maelys-datalog)"
libdir="$(pkg-config --variable=libdir maelys-datalog)"

# A sanitizer build installs an instrumented library: programs linking it
# need the sanitizer runtimes too (ASan insists on coming first).
san=""
if nm -D "$build/datalog/libmaelys-datalog.so" | grep -q ' U __asan_'; then
	san="-fsanitize=address,undefined"
fi
cflags="$cflags $san"
libs="$libs $san"

# shellcheck disable=SC2086 # flags from pkg-config are word lists
cc -std=c11 -Wall -Wextra -Werror -pedantic $cflags \
	-I"$src/tests/walkthrough" "$src/tests/walkthrough/seed_main.c" \
	-o "$tmp/seed" $libs
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror -pedantic $cflags \
	"$src/examples/level1_walkthrough.c" -o "$tmp/example" $libs

# with a sysroot, pkg-config already prefixes libdir with it
LD_LIBRARY_PATH="$libdir"
export LD_LIBRARY_PATH
"$tmp/seed" "$src/policies/walkthrough.dl" >"$tmp/seed.out" ||
	{ cat "$tmp/seed.out"; echo "install.sh: walkthrough outcomes differ"; exit 1; }
cat "$tmp/seed.out"
"$tmp/example" "$src/policies/walkthrough.dl" >"$tmp/example.out"
grep -q "^maelys-pty: 'shutdown' denied by policy$" "$tmp/example.out"
grep -q '^-> allowed$' "$tmp/example.out"
echo "install.sh: ok"
