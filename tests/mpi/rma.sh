#!/bin/sh
# TAP: the 'rma' lines of tests/mpi/test-list.txt (one-sided communication), run through
# mpirun (see lib.sh).  The lines whose args column says osc_transport=am run the programs
# again over the active-message transport (mpirun --mca osc_transport am), which a window
# takes when its ranks are on several hosts.  Other MPIs get those lines as plain repeats
# (the programs ignore the argument).
. "$(dirname "$0")/lib.sh"
case $(mt_flavor) in
compi) mt_run_config_suite rma ;;
*) mt_run_suite rma ;;
esac
