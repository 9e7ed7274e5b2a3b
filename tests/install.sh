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
