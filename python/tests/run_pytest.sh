#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the Python package's tests: run_pytest.sh PYTHON TESTS_DIR.
# MAELYS_ASAN (set by tests/meson.build in a -Db_sanitize=address build):
# the sanitizer runtime to preload into the uninstrumented interpreter, or
# "missing" when the compiler did not say where it is (then skip, loudly).
set -eu
python="$1"
tests="$2"
if ! "$python" -c 'import pytest' 2>/dev/null; then
	echo "run_pytest.sh: pytest is missing for $python (Debian: python3-pytest; ./bootstrap installs it)" >&2
	exit 1
fi
case "${MAELYS_ASAN:-}" in
"") ;;
missing)
	echo "SKIP: the extension is built with AddressSanitizer and the compiler" \
		"does not name its runtime to preload into $python" >&2
	exit 77
	;;
*)
	# LeakSanitizer is off here: the interpreter keeps memory to its
	# exit by design, which would be reported as leaks that are not the
	# binding's (the engine's own leak checks are the C suites').
	export LD_PRELOAD="$MAELYS_ASAN"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	;;
esac
exec "$python" -m pytest -q -p no:cacheprovider "$tests"
