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
note=
if [ -n "$COMPI_SANITIZED" ]; then
    note="sanitized build: allocations are not counted (AddressSanitizer owns malloc); the results of each miss and three hits are checked"
fi
mt_run_config_suite coll_alloc "$note"
