#!/bin/sh
# The main job: sets everything up and runs an example MPI program on 4 ranks.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
make -s examples/ring
echo "== bin/mpirun -np 4 examples/ring"
bin/mpirun -np 4 --timeout 60 examples/ring
