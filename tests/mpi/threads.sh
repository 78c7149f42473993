#!/bin/sh
# TAP: the 'threads' lines of tests/mpi/test-list.txt (MPI_THREAD_MULTIPLE), run through
# mpirun (see lib.sh).
. "$(dirname "$0")/lib.sh"
mt_run_suite threads
