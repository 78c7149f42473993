#!/bin/sh
# mpi4py's binary wheel from PyPI (pip install mpi4py, nothing built: its MPICH flavor,
# linked against libmpi.so.12) on compi: mpi4py's suite at np 1 and 2 with the
# exclusions of the source build, each np passing as many tests as the source build's
# last run at that np (logs-mpicc/, when there is one).  run.sh with MPI4PY_WHEEL=1.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir/_build}"
MPI4PY_WHEEL=1
MPI4PY_NPS="1 2"
MPI4PY_COMPARE=$top_builddir/mpi4py/logs-mpicc
export MPI4PY_WHEEL MPI4PY_NPS MPI4PY_COMPARE top_srcdir top_builddir
exec sh "$top_srcdir/tests/mpi4py/run.sh"
