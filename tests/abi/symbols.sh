#!/bin/sh
# TAP: the symbols of MPICH's library are compi's.  Every MPI_ and PMPI_ symbol that
# MPICH's libmpich.so.12 exports (nm -D), and MPIR_Dup_fn (its mpi.h names it for
# MPI_COMM_DUP_FN), is exported by compi's libmpi.so.12, or its MPI_ name is listed in
# tests/abi/mpich-only-symbols.txt (what compi does not implement: MPI-IO, MPI_T events,
# ...), so a program built for MPICH finds every function it calls; a listed name that
# compi exports fails too, so the list only shrinks.  Skipped without MPICH's library
# (COMPI_MPICH_LIB names another, COMPI_MPICH_ONLY_SYMBOLS its list: see
# tests/abi/mpich5_symbols.sh).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
mpich_lib=${COMPI_MPICH_LIB:-/usr/lib/x86_64-linux-gnu/libmpich.so.12}
only=${COMPI_MPICH_ONLY_SYMBOLS:-$top_srcdir/tests/abi/mpich-only-symbols.txt}
compi_lib=$top_builddir/lib/.libs/libmpi.so.12
if [ ! -f "$mpich_lib" ]; then
    echo "1..0 # SKIP no MPICH library ($mpich_lib)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

syms() {
    nm -D --defined-only "$1" | awk '{print $NF}' | grep -E '^(P?MPI_|MPIR_Dup_fn$)' | sort -u
}
echo "1..2"
if ! syms "$compi_lib" >"$tmp/compi" || [ ! -s "$tmp/compi" ]; then
    echo "not ok 1 - compi's library exports MPICH's symbols (no symbols in $compi_lib)"
    echo "not ok 2 - the list of MPICH's symbols compi lacks names none it has"
    exit 0
fi
syms "$mpich_lib" >"$tmp/mpich"
sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$only" |
    grep . | sort -u >"$tmp/listed"
# a PMPI_ name is covered by its MPI_ name
sed 's/^MPI_/PMPI_/' "$tmp/listed" | cat - "$tmp/listed" | sort -u >"$tmp/covered"
missing=$(comm -23 "$tmp/mpich" "$tmp/compi" | comm -23 - "$tmp/covered")
n=$(comm -12 "$tmp/mpich" "$tmp/compi" | wc -l)
if [ -z "$missing" ]; then
    echo "ok 1 - compi's library exports MPICH's symbols ($n of $(wc -l <"$tmp/mpich"); the rest listed)"
else
    echo "not ok 1 - compi's library exports MPICH's symbols"
    echo "$missing" | sed 's/^/#   missing: /'
fi
stale=$(comm -12 "$tmp/listed" "$tmp/compi")
gone=$(comm -23 "$tmp/listed" "$tmp/mpich")
if [ -z "$stale" ] && [ -z "$gone" ]; then
    echo "ok 2 - the list of MPICH's symbols compi lacks names none it has"
else
    echo "not ok 2 - the list of MPICH's symbols compi lacks names none it has"
    [ -z "$stale" ] || echo "$stale" | sed 's/^/#   listed, but compi exports it: /'
    [ -z "$gone" ] || echo "$gone" | sed 's/^/#   listed, but not in MPICH'"'"'s library: /'
fi
