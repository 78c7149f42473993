#!/bin/sh
# TAP: tests/abi/consts.sh against MPICH 5's mpi.h (its ABI is MPICH 4's, libmpi.so.12,
# with the names MPI 5 added): every name both headers define has the same value, the
# same type sizes and MPI_Status layout; the MPI_ names compi lacks are listed in
# tests/abi/mpich5-only.txt.  MPICH 5 comes from its Python wheel (tests/abi/mpich5.sh);
# skipped without it.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
. "$top_srcdir/tests/abi/mpich5.sh"
mpich5_require
COMPI_MPICH_H=$mpich5_prefix/include/mpi.h
COMPI_MPICH_LIBS="-L$mpich5_prefix/lib -Wl,-rpath,$mpich5_prefix/lib -lmpi"
COMPI_MPICH_ONLY=$top_srcdir/tests/abi/mpich5-only.txt
export COMPI_MPICH_H COMPI_MPICH_LIBS COMPI_MPICH_ONLY top_srcdir top_builddir
exec sh "$top_srcdir/tests/abi/consts.sh"
