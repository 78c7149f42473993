#!/bin/sh
# The whole test suite, from a fresh clone: installs dependencies, builds in _build/,
# runs `make check` (unit tests, MPI tests, Scheme tests, checks of the tree), then
# `make distcheck` (the release tarball builds and passes the same tests from a
# read-only source tree), prints the logs of failures and ends with one line
# "N passed, M failed" (the distcheck counts as one test).
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
cd _build

# the logs of the failed tests under $1
show_failures() {
    for f in $(find "$1" -name '*.log' ! -name 'test-suite.log' ! -name 'config.log'); do
        if grep -q -e '^not ok' -e '^ERROR' -e '^FAIL' "$f" 2>/dev/null; then
            echo "===== $f"
            cat "$f"
        fi
    done
}
count() { sed -n "s/^# $1: *//p" "$2" 2>/dev/null | head -n 1; }

rc=0
make -j2 check || rc=$?
[ "$rc" -eq 0 ] || show_failures tests
pass=$(count PASS test-suite.log)
failed=$(count FAIL test-suite.log)
errors=$(count ERROR test-suite.log)
fail=$(( ${failed:-0} + ${errors:-0} ))

echo "== make distcheck"
if make -j2 distcheck >distcheck.log 2>&1; then
    pass=$(( ${pass:-0} + 1 ))
    echo "distcheck: ok ($(grep -o 'compi-[0-9.]*\.tar\.gz' distcheck.log | head -n 1))"
else
    rc=1
    fail=$((fail + 1))
    echo "distcheck: FAILED; the end of _build/distcheck.log:"
    tail -n 40 distcheck.log
    for d in compi-*/_build/sub; do [ -d "$d" ] && show_failures "$d/tests"; done
fi

echo "${pass:-0} passed, ${fail:-0} failed"
exit "$rc"
