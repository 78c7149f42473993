#!/bin/sh
# TAP: tests/abi/symbols.sh against MPICH 5's libmpi.so.12: every MPI_ and PMPI_ symbol
# it exports is compi's, or listed in tests/abi/mpich5-only-symbols.txt.  MPICH 5 comes
# from its Python wheel (tests/abi/mpich5.sh); skipped without it.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
. "$top_srcdir/tests/abi/mpich5.sh"
mpich5_require
COMPI_MPICH_LIB=$mpich5_prefix/lib/libmpi.so.12
COMPI_MPICH_ONLY_SYMBOLS=$top_srcdir/tests/abi/mpich5-only-symbols.txt
export COMPI_MPICH_LIB COMPI_MPICH_ONLY_SYMBOLS top_srcdir top_builddir
exec sh "$top_srcdir/tests/abi/symbols.sh"
