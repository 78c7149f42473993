#!/bin/sh
# mpi4py's binary wheel from PyPI (pip install mpi4py, nothing built: its MPICH flavor,
# linked against libmpi.so.12) on compi: mpi4py's suite at np 2 (np 1 by hand:
# MPI4PY_NPS="1 2" sh tests/mpi4py/wheel.sh; it adds the local-only modules) with the
# exclusions of the source build and those of tests/mpi4py/excluded-wheel.txt (MPICH's
# datatypes compi lacks); at each np every test the source build's last run passed
# (logs-mpicc/, when there is one) must pass, but those left out.  run.sh with
# MPI4PY_WHEEL=1.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir/_build}"
MPI4PY_WHEEL=1
MPI4PY_NPS=${MPI4PY_NPS:-2}
MPI4PY_COMPARE=$top_builddir/mpi4py/logs-mpicc
MPI4PY_EXCLUDE_EXTRA=$top_srcdir/tests/mpi4py/excluded-wheel.txt
export MPI4PY_WHEEL MPI4PY_NPS MPI4PY_COMPARE MPI4PY_EXCLUDE_EXTRA top_srcdir top_builddir
exec sh "$top_srcdir/tests/mpi4py/run.sh"
