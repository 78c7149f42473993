#!/bin/sh
# TAP: the 'io' lines of tests/mpi/test-list.txt (MPI-IO), run through mpirun (see lib.sh).
# Each program makes its files in a directory of its own under TMPDIR and removes it.
. "$(dirname "$0")/lib.sh"
mt_run_suite io
