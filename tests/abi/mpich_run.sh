#!/bin/sh
# TAP: a program built for MPICH runs on compi unchanged.  tests/abi/mpich_app.c is
# compiled with Debian's MPICH 4 mpicc (mpicc.mpich: its mpi.h, linked against
# libmpich.so.12) and with MPICH 5's mpicc (its mpi.h, linked against libmpi.so.12,
# RUNPATH its own folder; the Python wheel tests/abi/mpich5.sh fetches), and each is run
# with compi's mpirun at np 1 to 4, LD_LIBRARY_PATH pointing at the build's lib/.libs,
# where libmpi.so.12 and libmpich.so.12 are compi's library.  The program checks
# point-to-point and its statuses, persistent requests, collectives blocking,
# nonblocking and persistent (MPI_IN_PLACE among them), derived datatypes, a user op,
# one-sided communication, attributes with their callbacks (MPI_COMM_DUP_FN: MPICH's
# MPIR_Dup_fn), MPI_UNWEIGHTED and error classes under MPI_ERRORS_RETURN; each run must
# end with its "ok" line.  A half is skipped without its compiler (COMPI_MPICH_CC names
# another MPICH 4 one).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
. "$top_srcdir/tests/abi/mpich5.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libdir=$top_builddir/lib/.libs

echo "1..12"
n=0
# run_side NAME COMPILER SONAME SKIP-REASON
run_side() {
    side=$1
    cc=$2
    soname=$3
    if [ -z "$cc" ]; then
        for t in 1 2 3 4 5 6; do
            n=$((n + 1))
            echo "ok $n # SKIP $side: $4"
        done
        return
    fi
    n=$((n + 1))
    if "$cc" -O1 -o "$tmp/app-${side#MPICH }" "$top_srcdir/tests/abi/mpich_app.c" 2>"$tmp/cc.err"; then
        echo "ok $n - mpich_app.c builds with $side's mpicc"
    else
        echo "not ok $n - mpich_app.c builds with $side's mpicc"
        sed 's/^/#   /' "$tmp/cc.err"
    fi
    # the library the program loads is compi's, under the name MPICH gave it
    n=$((n + 1))
    lib=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/app-${side#MPICH }" 2>/dev/null |
        awk -v so="$soname" '$1 == so {print $3}')
    if [ -n "$lib" ] && [ "$(readlink -f "$lib")" = "$(readlink -f "$libdir/libmpi.so.12")" ]; then
        echo "ok $n - $side's program loads compi's library as $soname"
    else
        echo "not ok $n - $side's program loads compi's library as $soname (it loads: ${lib:-none})"
    fi
    for np in 1 2 3 4; do
        n=$((n + 1))
        out=$(LD_LIBRARY_PATH=$libdir timeout -k 5 60 "$top_builddir/bin/mpirun" --timeout 50 \
            -np "$np" "$tmp/app-${side#MPICH }" 2>&1)
        rc=$?
        if [ $rc -eq 0 ] && echo "$out" | grep -q "^ok - np $np: every check passed" &&
            ! echo "$out" | grep -q "^not ok"; then
            echo "ok $n - np $np: the program built with $side's mpicc passes on compi"
        else
            echo "not ok $n - np $np: the program built with $side's mpicc passes on compi (exit $rc)"
            echo "$out" | tail -20 | sed 's/^/#   /'
        fi
    done
}
mpich_cc=${COMPI_MPICH_CC:-mpicc.mpich}
if command -v "$mpich_cc" >/dev/null 2>&1; then
    run_side "MPICH 4" "$mpich_cc" libmpich.so.12
else
    run_side "MPICH 4" "" libmpich.so.12 "no MPICH compiler ($mpich_cc)"
fi
mpich5_find
run_side "MPICH 5" "${mpich5_prefix:+$mpich5_prefix/bin/mpicc}" libmpi.so.12 "$mpich5_skip"
