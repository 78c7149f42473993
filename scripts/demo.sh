#!/bin/sh
# The main job: sets everything up (packages, build) and runs example MPI programs on
# 4 ranks, the second with a Scheme config that profiles every collective.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
echo "== bin/mpirun -np 4 examples/ring"
bin/mpirun -np 4 --timeout 60 examples/ring
echo "== bin/mpirun -np 4 --coll-config examples/configs/profile.scm examples/collectives"
bin/mpirun -np 4 --timeout 60 --coll-config examples/configs/profile.scm examples/collectives
