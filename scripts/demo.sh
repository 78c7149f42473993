#!/bin/sh
# The main job: sets everything up (packages, build in _build/) and runs example MPI
# programs on 4 ranks, the second with a Scheme config that profiles every collective.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
echo "== _build/bin/mpirun -np 4 _build/examples/ring"
_build/bin/mpirun -np 4 --timeout 60 _build/examples/ring
echo "== _build/bin/mpirun -np 4 --coll-config examples/configs/profile.scm _build/examples/collectives"
_build/bin/mpirun -np 4 --timeout 60 --coll-config examples/configs/profile.scm \
    _build/examples/collectives
