#!/bin/sh
# TAP: a program built for MPICH runs on compi unchanged.  tests/abi/mpich_app.c is
# compiled with MPICH's mpicc (MPICH's mpi.h, linked against libmpich.so.12) and run
# with compi's mpirun, LD_LIBRARY_PATH pointing at the build's lib/.libs, where
# libmpich.so.12 is compi's library, at np 1 to 4.  The program checks point-to-point
# and its statuses, collectives with MPI_IN_PLACE, derived datatypes, a user op,
# attributes (MPI_COMM_DUP_FN, MPICH's MPIR_Dup_fn), MPI_UNWEIGHTED and error classes
# under MPI_ERRORS_RETURN; each run must end with its "ok" line.  Skipped without MPICH's
# mpicc (COMPI_MPICH_CC names another).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
mpich_cc=${COMPI_MPICH_CC:-mpicc.mpich}
if ! command -v "$mpich_cc" >/dev/null 2>&1; then
    echo "1..0 # SKIP no MPICH compiler ($mpich_cc)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libdir=$top_builddir/lib/.libs

echo "1..6"
if "$mpich_cc" -O1 -o "$tmp/app" "$top_srcdir/tests/abi/mpich_app.c" 2>"$tmp/cc.err"; then
    echo "ok 1 - mpich_app.c builds with $mpich_cc"
else
    echo "not ok 1 - mpich_app.c builds with $mpich_cc"
    sed 's/^/#   /' "$tmp/cc.err"
fi
# the library the program loads is compi's, under MPICH's name
lib=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/app" 2>/dev/null | awk '/libmpich\.so\.12/ {print $3}')
if [ -n "$lib" ] && [ "$(readlink -f "$lib")" = "$(readlink -f "$libdir/libmpi.so.12")" ]; then
    echo "ok 2 - the program loads compi's library as libmpich.so.12"
else
    echo "not ok 2 - the program loads compi's library as libmpich.so.12 (it loads: ${lib:-none})"
fi
for np in 1 2 3 4; do
    n=$((np + 2))
    out=$(LD_LIBRARY_PATH=$libdir timeout 60 "$top_builddir/bin/mpirun" --timeout 50 -np "$np" \
        "$tmp/app" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q "^ok - np $np: every check passed" &&
        ! echo "$out" | grep -q "^not ok"; then
        echo "ok $n - np $np: the MPICH-built program's checks pass on compi"
    else
        echo "not ok $n - np $np: the MPICH-built program's checks pass on compi (exit $rc)"
        echo "$out" | tail -20 | sed 's/^/#   /'
    fi
done
