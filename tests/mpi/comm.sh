#!/bin/sh
# TAP: the 'comm' lines of tests/mpi/test-list.txt, run through mpirun (see lib.sh).
. "$(dirname "$0")/lib.sh"
mt_run_suite comm
