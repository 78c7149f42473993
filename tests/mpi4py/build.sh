#!/bin/sh
# mpi4py built against compi (run.sh with no np): the runs of each np (np1.sh, np2.sh,
# np5.sh) are tests of their own, which make starts once this one has built it
MPI4PY_NPS=
export MPI4PY_NPS
exec sh "$(dirname "$0")/run.sh"
