#!/bin/sh
# The whole test suite, from a fresh clone: installs dependencies, builds in _build/,
# runs `make check` (unit tests, MPI tests, Scheme tests, source checks), prints the logs
# of failures and ends with one line "N passed, M failed".
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
cd _build
rc=0
make -j2 check || rc=$?
if [ "$rc" -ne 0 ]; then
    for f in $(find tests -name '*.log' ! -name 'test-suite.log'); do
        if grep -q -e '^not ok' -e '^ERROR' -e '^FAIL' "$f" 2>/dev/null; then
            echo "===== $f"
            cat "$f"
        fi
    done
fi
count() { sed -n "s/^# $1: *//p" test-suite.log 2>/dev/null | head -n 1; }
pass=$(count PASS)
fail=$(count FAIL)
err=$(count ERROR)
echo "${pass:-0} passed, $(( ${fail:-0} + ${err:-0} )) failed"
exit "$rc"
