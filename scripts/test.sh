#!/bin/sh
# The whole test suite, from a fresh clone: installs dependencies, builds, runs
# `make check` (unit tests, MPI tests, Scheme tests), then the same tests of a build with
# the sanitizers in _build-san/ (see below), prints the logs of failures and ends with one
# line "N passed, M failed".
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
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
count() { sed -n "s/^# $1: *//p" "$2" 2>/dev/null | head -n 1; }
pass=$(count PASS test-suite.log)
fail=$(( $(count FAIL test-suite.log) + $(count ERROR test-suite.log) + 0 ))

# ---- the sanitized build ---------------------------------------------------------------
# compi built again with AddressSanitizer (and LeakSanitizer) and UndefinedBehaviorSanitizer
# (configure --enable-sanitizers) in _build-san/, outside the sources, and its unit, Scheme,
# tool and MPI tests run there with the options and suppressions of tests/sanitizers/
# (env.sh).  Not tests/wan (it needs root and network namespaces, and tests the WAN
# emulation, not compi's memory).  A re-run reuses the configured build.  It takes about
# 13 minutes on 2 cores (the MPI tests at every process count, with time limits doubled
# by env.sh).  Its results count in the line below.  COMPI_SANITIZERS=0 skips it.
if [ "${COMPI_SANITIZERS:-1}" != 0 ]; then
    san_rc=0
    if [ -f config.status ]; then
        # automake refuses a second build of sources that are configured in place
        echo "test.sh: the sources are configured in place (./config.status): cannot build" \
            "_build-san/ beside them; run 'make distclean' here first" >&2
        san_rc=1
    else
        mkdir -p _build-san
        rm -f _build-san/test-suite.log
        (
            cd _build-san &&
                { [ -f Makefile ] || ../configure --enable-sanitizers --enable-debug \
                    --prefix="${COMPI_PREFIX:-/usr/local}" >configure.out; } &&
                make -j2 >make.out &&
                san_tests=$(printf 'compi-print-tests:\n\t@echo $(TESTS)\n' |
                    make -s --no-print-directory -f Makefile -f - compi-print-tests | tr ' ' '\n' |
                    grep -v '^tests/wan/' | tr '\n' ' ') &&
                make -j2 check TESTS="$san_tests"
        ) || san_rc=$?
        if [ "$san_rc" -ne 0 ]; then
            for f in $(find _build-san/tests -name '*.log' ! -name 'test-suite.log'); do
                if grep -q -e '^not ok' -e '^ERROR' -e '^FAIL' "$f" 2>/dev/null; then
                    echo "===== $f (sanitized build)"
                    cat "$f"
                fi
            done
        fi
    fi
    san_pass=$(count PASS _build-san/test-suite.log)
    san_fail=$(( $(count FAIL _build-san/test-suite.log) + $(count ERROR _build-san/test-suite.log) + 0 ))
    # a build that failed before any test ran counts as one failure
    [ "$san_rc" -ne 0 ] && [ "$san_fail" -eq 0 ] && san_fail=1
    echo "sanitized build: ${san_pass:-0} passed, $san_fail failed"
    pass=$(( ${pass:-0} + ${san_pass:-0} ))
    fail=$(( fail + san_fail ))
    [ "$san_rc" -ne 0 ] && [ "$rc" -eq 0 ] && rc=$san_rc
fi

echo "${pass:-0} passed, $fail failed"
exit "$rc"
