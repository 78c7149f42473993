#!/bin/sh
# TAP: the 'rma' lines of tests/mpi/test-list.txt (one-sided communication), run through
# mpirun (see lib.sh).
. "$(dirname "$0")/lib.sh"
mt_run_suite rma
