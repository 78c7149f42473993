#!/bin/sh
# TAP: the 'coll' lines of tests/mpi/test-list.txt, run through mpirun (see lib.sh).
. "$(dirname "$0")/lib.sh"
# When the tests themselves are checked against Debian's MPICH 4.0.2: its shared-memory
# Reduce with MPI_IN_PLACE at a root other than 0 crashes, and its pairwise in-place
# Reduce_scatter copies between overlapping ranges; steer it to its other algorithms.
if [ "$(mt_flavor)" = mpich ]; then
    MPIR_CVAR_DEVICE_COLLECTIVES=none
    MPIR_CVAR_REDUCE_SCATTER_INTRA_ALGORITHM=recursive_doubling
    export MPIR_CVAR_DEVICE_COLLECTIVES MPIR_CVAR_REDUCE_SCATTER_INTRA_ALGORITHM
fi
mt_run_suite coll
