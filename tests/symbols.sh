#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's symbol hygiene: it exports only
# maelys_datalog_* names, and holds no writable file-scope data except the
# domain registry (libratbag's symbols-leak-test).
set -eu

build="${MAELYS_BUILD_ROOT:?}"
so="$build/datalog/libmaelys-datalog.so"
a="$build/datalog/libmaelys-datalog.a"

bad="$(nm -D --defined-only "$so" | awk '$2 ~ /[A-Z]/ && $3 !~ /^maelys_datalog_/ {print $3}')"
if [ -n "$bad" ]; then
	echo "symbols.sh: exported names without the maelys_datalog_ prefix:"
	echo "$bad"
	exit 1
fi

# Objects in writable sections (.data, .bss, common, thread-local, and
# .data.rel which is writable, unlike .data.rel.ro where const tables of
# pointers live in a PIC build)
writable="$(objdump -t "$a" |
	grep -E ' O (\.bss|\.data|\*COM\*|\.tbss|\.tdata|\.data\.rel|\.data\.rel\.local)[[:space:]]' |
	awk '{print $NF}' | grep -v -E '^dl_registry_(lock|head|once)$' || true)"
if [ -n "$writable" ]; then
	echo "symbols.sh: writable data outside the domain registry:"
	echo "$writable"
	exit 1
fi
registry="$(objdump -t "$a" | grep -c -E ' O \.bss[[:space:]].*dl_registry_' || true)"
if [ "$registry" -ne 3 ]; then
	echo "symbols.sh: expected the registry's three objects, found $registry"
	exit 1
fi
echo "symbols.sh: ok ($(nm -D --defined-only "$so" | grep -c ' T maelys_datalog_') functions exported)"
