#!/bin/sh
# The whole test suite, every tier (README.md, "Tests"), from a fresh clone: installs
# dependencies, builds in _build/ (scripts/build.sh) and runs there
#   1. `make check COMPI_TIER=2`: tiers 0, 1 and 2, every run of tests/mpi/test-list.txt
#      once, mpi4py's suite (its source distribution downloaded once into _build/mpi4py/
#      and built from there), the unit, Scheme and tool tests, the checks of the tree;
# then builds again, with the same ccache, and runs
#   2. with AddressSanitizer and UndefinedBehaviorSanitizer in _build/sanitized/: the
#      unit, Scheme and tool tests and the MPI tests of tiers 0 and 1 that exercise memory
#      (`make check COMPI_TIER=memory`, Makefile.am);
#   3. with ThreadSanitizer in _build/tsan/: the MPI_THREAD_MULTIPLE stress test and a few
#      point-to-point tests at every np;
#   4. `make distcheck`: the release tarball builds, and passes tier 0 from a read-only
#      source tree.
# Prints the logs of failures, the time of each stage, the slowest tests, and ends with
# one line "N passed, M failed" (TAP results, an unexpected pass of a known failure
# counted as failed, as make check does; the distcheck counts as one).  Its exit
# status is non-zero when anything failed.  COMPI_SANITIZERS=0 and COMPI_TSAN=0 skip
# stages 2 and 3, COMPI_DISTCHECK=0 stage 4.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
t_begin=$(date +%s)
sh scripts/build.sh
# the sanitizer builds and distcheck compile through ccache as build.sh does
. scripts/ccache-env.sh

# the logs of the failed tests under $1 (automake's .trs files name each result: a
# failure, an error, or an unexpected pass of a test marked as a known failure)
show_failures() {
    for f in $(find "$1" -name '*.trs' 2>/dev/null); do
        if grep -q -E '^:test-result: (FAIL|ERROR|XPASS)' "$f" 2>/dev/null; then
            echo "===== ${f%.trs}.log"
            grep -E '^:test-result: (FAIL|ERROR|XPASS)' "$f"
            cat "${f%.trs}.log"
        fi
    done
}
# count PASS|FAIL|ERROR LOG: the number automake's summary gives, 0 when none
count() {
    n=$(sed -n "s/^# $1: *//p" "$2" 2>/dev/null | head -n 1)
    echo "${n:-0}"
}
# the failures automake's summary in LOG counts: FAIL, ERROR and XPASS (an unexpected pass
# of a test marked as a known failure)
count_failed() {
    echo $(($(count FAIL "$1") + $(count ERROR "$1") + $(count XPASS "$1")))
}
# the value of make variable $2 in the build directory $1
make_var() {
    printf 'compi-print-var:\n\t@echo $(%s)\n' "$2" |
        (cd "$1" && make -s --no-print-directory -f Makefile -f - compi-print-var)
}
stages=
t_stage=$t_begin
# stage_done NAME: the time since the last stage ended, for the summary at the end
stage_done() {
    now=$(date +%s)
    line=$(printf '%-34s %3d:%02d' "$1" $(((now - t_stage) / 60)) $(((now - t_stage) % 60)))
    echo "== done: $line"
    stages="$stages$line
"
    t_stage=$now
}
stage_done "build (_build)"

# ---- 1. every tier in _build/ -------------------------------------------------------------
rc=0
rm -f _build/test-suite.log
(cd _build && make -j2 check COMPI_TIER=2) || rc=$?
[ "$rc" -eq 0 ] || show_failures _build/tests
pass=$(count PASS _build/test-suite.log)
fail=$(count_failed _build/test-suite.log)
stage_done "tiers 0-2 (_build)"

# build_in DIR CONFIGURE-ARGS...: configure (once) and build compi in DIR
build_in() {
    b_dir=$1
    shift
    mkdir -p "$b_dir"
    (
        cd "$b_dir" &&
            { [ -f Makefile ] || "$top/configure" CC="$cc" "$@" \
                --prefix="${COMPI_PREFIX:-/usr/local}" >configure.out; } &&
            make -j2 >make.out 2>&1
    )
}
# add_results NAME DIR RC: the counts of DIR's test-suite.log into the totals (a build
# that failed before any test ran counts as one failure)
add_results() {
    a_log=$2/test-suite.log
    a_pass=$(count PASS "$a_log")
    a_fail=$(count_failed "$a_log")
    [ "$3" -ne 0 ] && [ "$a_fail" -eq 0 ] && a_fail=1
    echo "$1: $a_pass passed, $a_fail failed"
    pass=$((pass + a_pass))
    fail=$((fail + a_fail))
    [ "$3" -eq 0 ] || rc=$3
}

# ---- 2. the sanitized build --------------------------------------------------------------
# compi built again with AddressSanitizer (and LeakSanitizer) and UndefinedBehaviorSanitizer
# (configure --enable-sanitizers) in _build/sanitized/, and its unit, Scheme and tool
# tests and the MPI tests that exercise memory (COMPI_TIER=memory, Makefile.am) run there
# with the options and suppressions of tests/sanitizers/ (env.sh).  Not tests/wan nor
# tests/mpi4py (tiers 1 and 2: the WAN emulation and Python, not compi's memory).  A
# re-run reuses the configured build.
if [ "${COMPI_SANITIZERS:-1}" != 0 ]; then
    san_rc=0
    rm -f _build/sanitized/test-suite.log
    { build_in _build/sanitized --enable-sanitizers --enable-debug &&
        (cd _build/sanitized && make -j2 check COMPI_TIER=memory); } || san_rc=$?
    [ "$san_rc" -eq 0 ] || show_failures _build/sanitized/tests
    add_results "sanitized build" _build/sanitized "$san_rc"
    stage_done "sanitized build and tests"
fi

# ---- 3. the ThreadSanitizer build --------------------------------------------------------
# compi built again with ThreadSanitizer (configure --enable-sanitizers=thread) in
# _build/tsan/, where the MPI_THREAD_MULTIPLE stress test (threads) and the point-to-point
# tests ring, anysrc, probe, persistent and p2p_modes run at each of their np, with
# tests/sanitizers/tsan-env.sh (a report fails the test).  Only their programs are built
# (check_PROGRAMS: a run tests/mpi/run/SCRIPT-PROGRAM[-N]-tT.sh runs tests/mpi/PROGRAM),
# and leftovers.sh's crash, not the hundred others the stage does not run.
if [ "${COMPI_TSAN:-1}" != 0 ]; then
    tsan_rc=0
    rm -f _build/tsan/test-suite.log
    { build_in _build/tsan --enable-sanitizers=thread &&
        tsan_tests=$(make_var _build/tsan compi_thread_tests) &&
        tsan_programs=$(echo $tsan_tests | tr ' ' '\n' |
            sed -n 's|^tests/mpi/run/[a-z0-9_]*-\([a-z0-9_]*\)\(-[0-9]*\)\{0,1\}-t[0-9]\.sh$|tests/mpi/\1|p' |
            sort -u | tr '\n' ' ')tests/mpi/crash &&
        (cd _build/tsan && make -j2 check check_PROGRAMS="$tsan_programs" \
            TESTS="$tsan_tests tests/mpi/leftovers.sh"); } ||
        tsan_rc=$?
    [ "$tsan_rc" -eq 0 ] || show_failures _build/tsan/tests
    add_results "ThreadSanitizer build" _build/tsan "$tsan_rc"
    stage_done "ThreadSanitizer build and tests"
fi

# ---- 4. the release tarball --------------------------------------------------------------
# (its `make check` is tier 0; the configure of the tarball's build compiles through
# ccache too)
if [ "${COMPI_DISTCHECK:-1}" != 0 ]; then
    echo "== make distcheck (log: _build/distcheck.log)"
    if (cd _build && make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS="CC='$cc'" \
        >distcheck.log 2>&1); then
        pass=$((pass + 1))
        echo "distcheck: ok"
    else
        rc=1
        fail=$((fail + 1))
        echo "distcheck: FAILED; the end of _build/distcheck.log:"
        tail -n 40 _build/distcheck.log
        for d in _build/compi-*/_build/sub; do show_failures "$d/tests"; done
    fi
    stage_done "distcheck (tier 0)"
fi

# ---- the times ----------------------------------------------------------------------------
t_all=$(($(date +%s) - t_begin))
echo "== time per stage (total $((t_all / 60)):$(printf %02d $((t_all % 60))))"
printf '%s' "$stages"
echo "== the 10 slowest tests (wall time, seconds)"
for d in _build _build/sanitized _build/tsan; do
    [ -d "$d/tests" ] || continue
    find "$d/tests" -name '*.log' ! -name 'test-suite.log' -exec grep -H '^compi-test-seconds:' {} + \
        2>/dev/null
done | sed 's/\.log:compi-test-seconds://' | awk '{ printf "%8.1f  %s\n", $2, $1 }' |
    sort -rn | head -n 10

echo "$pass passed, $fail failed"
exit "$rc"
