#!/bin/sh
# TAP: after the whole suite, nothing of ours is left in /dev/shm or /tmp.
#
# Under `make check` its log waits for the logs of every other test of the run
# (tests/mpi/Makefile.inc), which passes their .trs files in MT_AFTER; the first check is
# that they are all there.  Then it
#   1. proves its detector works by planting a fake leftover and finding it;
#   2. runs a crash job of its own (a rank killed by SIGKILL) and checks that job's
#      leftovers right after it;
#   3. looks for any compi* entry in /dev/shm and /tmp, newer than the suite's start,
#      that no live process holds: a leak of one of the runs.
# Set MT_NO_WAIT=1 to run it by hand without the rest of the suite.
. "$(dirname "$0")/lib.sh"

stamp="$top_builddir/tests/mpi/mpitest-start.stamp"
echo "1..4"
echo "# MPIRUN=$MPIRUN flavor=$(mt_flavor)"

# --- 0: the rest of the suite has run --------------------------------------------------
mt_rc=0
mt_elapsed=0
if [ "$MT_NO_WAIT" = 1 ]; then
    mt_ok "# SKIP the other tests (MT_NO_WAIT=1)"
elif [ -z "$MT_AFTER" ]; then
    mt_ok "# SKIP no other test in this run"
else
    missing=
    n=0
    for t in $MT_AFTER; do
        n=$((n + 1))
        [ -e "$top_builddir/$t" ] || missing="$missing $t"
    done
    if [ -z "$missing" ] && [ -e "$stamp" ]; then
        mt_ok "the $n other tests of this run finished before"
    else
        mt_why="no result from:$missing"
        [ -e "$stamp" ] || mt_why="$mt_why (and no suite start stamp)"
        mt_cmd="look for the results of MT_AFTER"
        mt_not_ok "the other tests of this run finished before"
    fi
fi

# --- 1: the detector finds a planted leftover --------------------------------------------
: >"$MT_TMP/empty"
fake=/dev/shm/compi-mpitest-selftest.$$
[ -d /dev/shm ] || fake=/tmp/compi-mpitest-selftest.$$
: >"$fake"
found=$(mt_orphans "$MT_TMP/empty" | grep -cxF "$fake")
rm -f "$fake"
mt_cmd="plant $fake"
mt_rc=0
mt_elapsed=0
if [ "$found" = 1 ]; then
    mt_ok "the leftover detector finds a planted $fake"
else
    mt_why="a planted file was not reported: the leftover checks of this suite are blind"
    mt_not_ok "the leftover detector finds a planted $fake"
fi

# --- 2: a crash job of our own, then its leftovers ----------------------------------------
mt_run_one crash kill 4 crash 30 "crash job run by leftovers.sh, then its leftovers"

# --- 3: anything left by any run of the suite ---------------------------------------------
mt_cmd="scan $MT_LEFTOVER_GLOBS"
mt_rc=0
mt_elapsed=0
: >"$MT_TMP/out"
left=
for f in $(mt_orphans "$MT_TMP/empty"); do
    # only what appeared since the suite started: older files are not this run's doing
    if [ ! -e "$stamp" ] || [ "$f" -nt "$stamp" ]; then
        left="$left $f"
        ls -ld "$f" >>"$MT_TMP/out" 2>&1
    fi
done
if [ -z "$left" ]; then
    mt_ok "no compi* files left in /dev/shm or /tmp by the suite"
else
    mt_why="left behind:$left"
    mt_not_ok "no compi* files left in /dev/shm or /tmp by the suite"
fi
rm -f "$stamp"
exit 0
