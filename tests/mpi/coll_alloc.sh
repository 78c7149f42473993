#!/bin/sh
# TAP: the 'coll_alloc' lines of tests/mpi/test-list.txt: programs run with the
# allocation counter (tests/mpi/alloc_count.c, built as tests/mpi/.libs/alloc_count.so)
# preloaded into every rank, to show that cached collectives allocate nothing.  compi
# only: no other MPI promises it.
#
# A line's argument FILE.scm runs the program under that collective configuration.
#
# The sanitized build (tests/sanitizers/env.sh sets COMPI_SANITIZED=1) cannot count:
# AddressSanitizer replaces malloc and must come first in LD_PRELOAD, and a counter after
# it would never be called.  There the programs run without the counter and only check
# their results (they say so).  Elsewhere COMPI_ALLOC_COUNT_REQUIRED=1 makes a counter
# that did not load a failure.
. "$(dirname "$0")/lib.sh"
mt_skip_unless_compi "counting allocations of cached collectives is a promise of compi's"
if [ -z "$COMPI_SANITIZED" ]; then
    counter="$top_builddir/tests/mpi/.libs/alloc_count.so"
    if [ ! -f "$counter" ]; then
        echo "1..1"
        echo "not ok 1 - the allocation counter $counter is missing (not built?)"
        exit 0
    fi
    # the launcher passes its environment on to the ranks; in mpirun itself and the
    # tools around it the counter only forwards
    LD_PRELOAD="$counter${LD_PRELOAD:+:$LD_PRELOAD}"
    COMPI_ALLOC_COUNT_REQUIRED=1
    export LD_PRELOAD COMPI_ALLOC_COUNT_REQUIRED
fi
# one line per run, as lib.sh's mt_run_suite, but an argument FILE.scm is the collective
# configuration tests/mpi/configs/FILE.scm (mpirun --coll-config), as in coll_config.sh
mt_stamp
lines=$(mt_lines coll_alloc)
if [ -z "$lines" ]; then
    echo "1..0 # SKIP no tests for 'coll_alloc' in test-list.txt (MT_FILTER='$MT_FILTER')"
    exit 0
fi
plan=0
for np in $(echo "$lines" | awk '{ print $4 }' | tr , ' '); do
    plan=$((plan + 1))
done
echo "1..$plan"
echo "# MPIRUN=$MPIRUN flavor=compi"
if [ -n "$COMPI_SANITIZED" ]; then
    echo "# sanitized build: allocations are not counted (AddressSanitizer owns malloc); the results are checked"
fi
base_args=$MPIRUN_ARGS
echo "$lines" | while read -r script prog args nps expect lim desc; do
    launch=$base_args
    pargs=
    for a in $(echo "$args" | tr , ' '); do
        case $a in
        -) ;;
        *.scm) launch="$launch --coll-config $MT_SRCDIR/configs/$a" ;;
        *) pargs="${pargs:+$pargs,}$a" ;;
        esac
    done
    MPIRUN_ARGS=$launch
    for np in $(echo "$nps" | tr , ' '); do
        name=$desc
        [ "$args" != - ] && name="$desc [$args]"
        mt_run_one "$prog" "${pargs:--}" "$np" "$expect" "$lim" "$name" </dev/null
    done
done
