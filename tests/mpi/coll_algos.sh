#!/bin/sh
# TAP: the 'coll_algos' lines of tests/mpi/test-list.txt: harnesses that run every native
# algorithm and tree executor directly (no trampoline, no creators) against local
# references.  They link the library's internals, so they are compi-only.
. "$(dirname "$0")/lib.sh"
mt_skip_unless_compi "the algorithm harnesses link compi's internals"
mt_run_suite coll_algos
