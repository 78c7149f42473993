#!/bin/sh
# TAP: the 'crash' lines of tests/mpi/test-list.txt, run through mpirun (see lib.sh).
. "$(dirname "$0")/lib.sh"
mt_run_suite crash
