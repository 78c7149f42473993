#!/bin/sh
# The whole test suite, from a fresh clone: installs dependencies, builds in _build/ and
# runs `make check` there (unit tests, MPI tests, Scheme tests, checks of the tree); then
# builds again with AddressSanitizer and UndefinedBehaviorSanitizer in _build/sanitized/
# and runs the tests there; with ThreadSanitizer in _build/tsan/ for the threaded tests;
# then `make distcheck` (the release tarball builds and passes
# the tests from a read-only source tree).  Prints the logs of failures and ends with one
# line "N passed, M failed" (the distcheck counts as one test).
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
sh scripts/build.sh

# the logs of the failed tests under $1
show_failures() {
    for f in $(find "$1" -name '*.log' ! -name 'test-suite.log' 2>/dev/null); do
        if grep -q -e '^not ok' -e '^ERROR' -e '^FAIL' "$f" 2>/dev/null; then
            echo "===== $f"
            cat "$f"
        fi
    done
}
# count PASS|FAIL|ERROR LOG: the number automake's summary gives, 0 when none
count() {
    n=$(sed -n "s/^# $1: *//p" "$2" 2>/dev/null | head -n 1)
    echo "${n:-0}"
}

# ---- the build in _build/ ---------------------------------------------------------------
rc=0
(cd _build && make -j2 check) || rc=$?
[ "$rc" -eq 0 ] || show_failures _build/tests
pass=$(count PASS _build/test-suite.log)
fail=$(( $(count FAIL _build/test-suite.log) + $(count ERROR _build/test-suite.log) ))

# ---- the sanitized build ------------------------------------------------------------------
# compi built again with AddressSanitizer (and LeakSanitizer) and UndefinedBehaviorSanitizer
# (configure --enable-sanitizers) in _build/sanitized/, and its unit, Scheme, tool and
# MPI tests run there with the options and suppressions of tests/sanitizers/ (env.sh).  Not
# tests/wan (it needs root and network namespaces, and tests the WAN emulation, not
# compi's memory), nor tests/mpi4py (Python under the sanitizers' runtime; it runs once,
# in _build/).  A re-run reuses the configured build.  Its results count in the last
# line.  COMPI_SANITIZERS=0 skips it.
if [ "${COMPI_SANITIZERS:-1}" != 0 ]; then
    san_rc=0
    mkdir -p _build/sanitized
    rm -f _build/sanitized/test-suite.log
    (
        cd _build/sanitized &&
            { [ -f Makefile ] || "$top/configure" --enable-sanitizers --enable-debug \
                --prefix="${COMPI_PREFIX:-/usr/local}" >configure.out; } &&
            make -j2 >make.out &&
            san_tests=$(printf 'compi-print-tests:\n\t@echo $(TESTS)\n' |
                make -s --no-print-directory -f Makefile -f - compi-print-tests | tr ' ' '\n' |
                grep -v -e '^tests/wan/' -e '^tests/mpi4py/' | tr '\n' ' ') &&
            make -j2 check TESTS="$san_tests"
    ) || san_rc=$?
    [ "$san_rc" -eq 0 ] || show_failures _build/sanitized/tests
    san_pass=$(count PASS _build/sanitized/test-suite.log)
    san_log=_build/sanitized/test-suite.log
    san_fail=$(( $(count FAIL $san_log) + $(count ERROR $san_log) ))
    # a build that failed before any test ran counts as one failure
    [ "$san_rc" -ne 0 ] && [ "$san_fail" -eq 0 ] && san_fail=1
    echo "sanitized build: $san_pass passed, $san_fail failed"
    pass=$((pass + san_pass))
    fail=$((fail + san_fail))
    [ "$san_rc" -eq 0 ] || rc=$san_rc
fi

# ---- the ThreadSanitizer build -------------------------------------------------------------
# compi built again with ThreadSanitizer (configure --enable-sanitizers=thread) in
# _build/tsan/, where the MPI_THREAD_MULTIPLE stress test (tests/mpi/threads.sh) and a few
# point-to-point tests run with tests/sanitizers/tsan-env.sh (a report fails the test).
# Its results count in the last line.  COMPI_TSAN=0 skips it.
if [ "${COMPI_TSAN:-1}" != 0 ]; then
    tsan_rc=0
    mkdir -p _build/tsan
    rm -f _build/tsan/test-suite.log
    (
        cd _build/tsan &&
            { [ -f Makefile ] || "$top/configure" --enable-sanitizers=thread \
                --prefix="${COMPI_PREFIX:-/usr/local}" >configure.out; } &&
            make -j2 >make.out &&
            MT_FILTER='^(threads|ring|anysrc|probe|persistent|p2p_modes)$' \
                make -j2 check TESTS="tests/mpi/threads.sh tests/mpi/p2p.sh"
    ) || tsan_rc=$?
    [ "$tsan_rc" -eq 0 ] || show_failures _build/tsan/tests
    tsan_log=_build/tsan/test-suite.log
    tsan_pass=$(count PASS $tsan_log)
    tsan_fail=$(( $(count FAIL $tsan_log) + $(count ERROR $tsan_log) ))
    [ "$tsan_rc" -ne 0 ] && [ "$tsan_fail" -eq 0 ] && tsan_fail=1
    echo "ThreadSanitizer build: $tsan_pass passed, $tsan_fail failed"
    pass=$((pass + tsan_pass))
    fail=$((fail + tsan_fail))
    [ "$tsan_rc" -eq 0 ] || rc=$tsan_rc
fi

# ---- the release tarball ------------------------------------------------------------------
echo "== make distcheck (log: _build/distcheck.log)"
# (without tests/mpi4py: it ran in _build/, and builds mpi4py, minutes, each time)
if (cd _build && COMPI_MPI4PY=0 make -j2 distcheck >distcheck.log 2>&1); then
    pass=$((pass + 1))
    echo "distcheck: ok"
else
    rc=1
    fail=$((fail + 1))
    echo "distcheck: FAILED; the end of _build/distcheck.log:"
    tail -n 40 _build/distcheck.log
    for d in _build/compi-*/_build/sub; do show_failures "$d/tests"; done
fi

echo "$pass passed, $fail failed"
exit "$rc"
