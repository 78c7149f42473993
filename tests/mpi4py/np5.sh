#!/bin/sh
# mpi4py's test suite at np 5 (run.sh; make runs it after tests/mpi4py/build.sh)
MPI4PY_NPS=5
export MPI4PY_NPS
exec sh "$(dirname "$0")/run.sh"
