#!/bin/sh
# TAP: programs of the MPI-5 standard ABI run on compi's libmpi_abi.so.1.
# tests/abi/abi_app.c is built with compi's mpicc_abi and with MPICH 5's (its own
# mpi_abi.h, linked against its libmpi_abi.so.1, RUNPATH its library folder:
# tests/abi/mpich5.sh fetches it), and both are run with compi's mpirun at np 1 to 4;
# mpirun puts compi's library folder first for the ranks, so MPICH's program loads
# compi's libmpi_abi.so.1.  Each run must end with the program's "ok" line, and the
# library it names must be compi.  Every function mpi_abi.h declares is in the library.  compi_info --abi says so of MPICH's program, and of
# one linked with an old-style RPATH to MPICH's folder, that it does not load compi's.  The MPICH
# half is skipped without MPICH 5's wheel (no network the first time).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
. "$top_srcdir/tests/abi/mpich5.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libdir=$top_builddir/lib/.libs

echo "1..15"
n=0
run_side() {
    side=$1
    cc=$2
    n=$((n + 1))
    if [ -z "$cc" ]; then
        echo "ok $n # SKIP $side: $mpich5_skip"
        for np in 1 2 3 4; do
            n=$((n + 1))
            echo "ok $n # SKIP $side: $mpich5_skip"
        done
        return
    fi
    if "$cc" -O1 -o "$tmp/app-$side" "$top_srcdir/tests/abi/abi_app.c" 2>"$tmp/cc.err"; then
        echo "ok $n - abi_app.c builds with $side's mpicc_abi"
    else
        echo "not ok $n - abi_app.c builds with $side's mpicc_abi"
        sed 's/^/#   /' "$tmp/cc.err"
    fi
    for np in 1 2 3 4; do
        n=$((n + 1))
        out=$(env -u LD_LIBRARY_PATH timeout -k 5 60 "$top_builddir/bin/mpirun" --timeout 50 \
            -np "$np" "$tmp/app-$side" 2>&1)
        rc=$?
        if [ $rc -eq 0 ] && echo "$out" | grep -q "^ok - np $np: every check passed" &&
            echo "$out" | grep -q "^# library: compi " && ! echo "$out" | grep -q "^not ok"; then
            echo "ok $n - np $np: the program built with $side's mpicc_abi passes on compi"
        else
            echo "not ok $n - np $np: the program built with $side's mpicc_abi passes on compi (exit $rc)"
            echo "$out" | tail -20 | sed 's/^/#   /'
        fi
    done
}
run_side compi "$top_builddir/bin/mpicc_abi"
mpich5_find
run_side mpich "${mpich5_prefix:+$mpich5_prefix/bin/mpicc_abi}"

# the library each program loads under mpirun's environment: compi's
n=$((n + 1))
if [ -n "$mpich5_prefix" ]; then
    lib=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/app-mpich" 2>/dev/null |
        awk '/libmpi_abi\.so\.1/ {print $3}')
    if [ -n "$lib" ] && [ "$(readlink -f "$lib")" = "$(readlink -f "$libdir/libmpi_abi.so.1")" ]; then
        echo "ok $n - with compi's library folder first, MPICH's program loads compi's libmpi_abi.so.1"
    else
        echo "not ok $n - with compi's library folder first, MPICH's program loads compi's libmpi_abi.so.1 (it loads: ${lib:-none})"
    fi
else
    echo "ok $n # SKIP mpich: $mpich5_skip"
fi
n=$((n + 1))
lib=$(env -u LD_LIBRARY_PATH ldd "$tmp/app-compi" 2>/dev/null | awk '/libmpi_abi\.so\.1/ {print $3}')
if [ -n "$lib" ] && [ "$(readlink -f "$lib")" = "$(readlink -f "$libdir/libmpi_abi.so.1")" ]; then
    echo "ok $n - the program of compi's mpicc_abi loads compi's libmpi_abi.so.1 by its RUNPATH"
else
    echo "not ok $n - the program of compi's mpicc_abi loads compi's libmpi_abi.so.1 (it loads: ${lib:-none})"
fi

# compi_info --abi: MPICH's program runs on compi; pinned by an RPATH, it does not
n=$((n + 1))
if [ -n "$mpich5_prefix" ]; then
    out=$(env -u LD_LIBRARY_PATH "$top_builddir/bin/compi_info" --abi "$tmp/app-mpich")
    if [ $? -eq 0 ] && echo "$out" | grep -q "runs on compi under its mpirun"; then
        echo "ok $n - compi_info --abi: MPICH's program runs on compi under its mpirun"
    else
        echo "not ok $n - compi_info --abi: MPICH's program runs on compi under its mpirun"
        echo "$out" | sed 's/^/#   /'
    fi
else
    echo "ok $n # SKIP mpich: $mpich5_skip"
fi
n=$((n + 1))
# (MPICH's compiler, then a link of our own: mpicc_abi asks for a RUNPATH last)
if [ -n "$mpich5_prefix" ] &&
    "$mpich5_prefix/bin/mpicc_abi" -c -o "$tmp/app.o" "$top_srcdir/tests/abi/abi_app.c" \
        2>"$tmp/cc.err" &&
    ${CC:-cc} -o "$tmp/app-rpath" "$tmp/app.o" -L"$mpich5_prefix/lib" \
        -Wl,-rpath,"$mpich5_prefix/lib" -Wl,--disable-new-dtags -lmpi_abi 2>>"$tmp/cc.err"; then
    out=$(env -u LD_LIBRARY_PATH "$top_builddir/bin/compi_info" --abi "$tmp/app-rpath")
    if [ $? -ne 0 ] && echo "$out" | grep -q "(not compi's)" && echo "$out" | grep -q "RPATH"; then
        echo "ok $n - compi_info --abi: an RPATH to MPICH's folder pins MPICH's library"
    else
        echo "not ok $n - compi_info --abi: an RPATH to MPICH's folder pins MPICH's library"
        echo "$out" | sed 's/^/#   /'
    fi
else
    echo "ok $n # SKIP mpich: ${mpich5_skip:-the RPATH build failed}"
fi

# every function compi's mpi_abi.h declares, MPI_ and PMPI_, is in libmpi_abi.so.1
n=$((n + 1))
grep -E '^[A-Za-z]' "$top_srcdir/include/mpi_abi.h" | grep -v '^typedef' |
    grep -o -E '\bP?MPI_[A-Za-z0-9_]+\(' | tr -d '(' | sort -u >"$tmp/declared"
nm -D --defined-only "$libdir/libmpi_abi.so.1" | awk '{print $3}' | sort -u >"$tmp/defined"
absent=$(comm -23 "$tmp/declared" "$tmp/defined")
if [ -s "$tmp/declared" ] && [ -z "$absent" ]; then
    echo "ok $n - the $(wc -l <"$tmp/declared") functions mpi_abi.h declares are in libmpi_abi.so.1"
else
    echo "not ok $n - the functions mpi_abi.h declares are in libmpi_abi.so.1"
    echo "$absent" | sed 's/^/#   missing: /'
fi
