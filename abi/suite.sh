#!/bin/sh
# compi's own MPI test programs through the standard ABI layer: every program of
# tests/mpi/test-list.txt that runs without arguments and must end "ok" is built with
# mpicc_abi (against mpi_abi.h, linked to libmpi_abi.so.1) and run at each NP given
# (default 2 and 4).  Prints a line per failure and a count; exits non-zero on any.
# Programs that do not compile against mpi_abi.h (they use compi's MPIX_ calls or the
# native header's Fortran types and includes) are counted apart.  init_basics is left
# out: it checks MPI_Get_version against MPI_VERSION, which is 5 in mpi_abi.h, while the
# library reports the standard it implements.  A minute or two; not part of make check.
#   sh abi/suite.sh [BUILDDIR] [NP...]
top=$(cd "$(dirname "$0")/.." && pwd)
b=${1:-$top/_build}
[ $# -gt 0 ] && shift
nps=${*:-2 4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
progs=$(grep -v '^#' "$top/tests/mpi/test-list.txt" | awk 'NF >= 6 && $3 == "-" && $5 == "ok" {print $2}' |
    sort -u | grep -v -x init_basics)
built=0 nobuild=0 runs=0 failed=0
for p in $progs; do
    [ -f "$top/tests/mpi/$p.c" ] || continue
    if ! "$b/bin/mpicc_abi" -I"$top" -O1 -w -o "$tmp/$p" "$top/tests/mpi/$p.c" -lm 2>/dev/null; then
        nobuild=$((nobuild + 1))
        continue
    fi
    built=$((built + 1))
    for np in $nps; do
        runs=$((runs + 1))
        out=$(timeout 120 "$b/bin/mpirun" --timeout 100 -np "$np" "$tmp/$p" 2>&1)
        rc=$?
        if [ $rc -ne 0 ] || ! echo "$out" | grep -q "^ok: $p np=$np"; then
            failed=$((failed + 1))
            echo "FAIL $p np=$np (exit $rc): $(echo "$out" | grep -v '^ok' | head -3 | tr '\n' '|')"
        fi
    done
done
echo "$built programs built with mpicc_abi ($nobuild do not compile against mpi_abi.h), $runs runs, $failed failed"
[ $failed -eq 0 ]
