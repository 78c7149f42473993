#!/bin/sh
# mpi4py's test suite at np 1 (run.sh; make runs it after tests/mpi4py/build.sh)
MPI4PY_NPS=1
export MPI4PY_NPS
exec sh "$(dirname "$0")/run.sh"
