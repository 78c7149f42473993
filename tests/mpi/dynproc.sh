#!/bin/sh
# TAP: the 'dynproc' lines of tests/mpi/test-list.txt (MPI_Comm_spawn, ports, join), run
# through mpirun (see lib.sh).  They need compi's mpirun, which serves dynamic processes.
. "$(dirname "$0")/lib.sh"
mt_skip_unless_compi "dynamic processes under compi's mpirun"
mt_run_suite dynproc
