#!/bin/sh
# mpi4py built against compi, no test run (run.sh with no np): the first test of tier 2;
# np5.sh, np2.sh and np1.sh, later in the list, find it built (or build it themselves
# when run alone)
MPI4PY_NPS=
export MPI4PY_NPS
exec sh "$(dirname "$0")/run.sh"
