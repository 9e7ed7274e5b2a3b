#!/bin/sh
# SPDX-License-Identifier: MIT
# Each public header compiles alone: as strict C11 with -pedantic, and as
# C++ (the extern "C" wrapper), so an embedder can include it first and in
# any order (libevdev's test-compile-pedantic).
set -eu

src="${MAELYS_SOURCE_ROOT:?}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for h in datalog.h datalog_builders.h; do
	printf '#include <maelys/%s>\n' "$h" >"$tmp/t.c"
	cc -std=c11 -Wall -Wextra -Werror -pedantic -Wstrict-prototypes \
		-I"$src/datalog/include" -fsyntax-only "$tmp/t.c"
	if command -v c++ >/dev/null 2>&1; then
		cp "$tmp/t.c" "$tmp/t.cc"
		c++ -std=c++11 -Wall -Wextra -Werror -pedantic \
			-I"$src/datalog/include" -fsyntax-only "$tmp/t.cc"
	fi
	echo "headers.sh: $h ok"
done
