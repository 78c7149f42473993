#!/bin/sh
# TAP: compi's include/mpi.h and MPICH's installed mpi.h agree, so a program compiled
# against MPICH's header calls compi's library correctly.  One probe program, compiled
# once against each header (compi's with the build's bin/mpicc), prints every upper-case MPI_/MPIX_ name the two headers
# share (handles, constants, error classes, limits, sentinels such as MPI_IN_PLACE),
# the size of each basic type and handle type, and MPI_Status's size and field offsets;
# the two outputs must be equal, by value.
#   1  every name both headers define has the same value (a name whose value is the
#      address of something in the library, MPI_UNWEIGHTED or MPI_COMM_DUP_FN, is only
#      required to be an address in both)
#   2  the types' sizes and MPI_Status's layout are equal
#   3  every MPI_ name of MPICH's header (and of its mpio.h) is in compi's, or listed in
#      tests/abi/mpich-only.txt (what compi does not have: MPI-IO, MPICH's extensions),
#      and that list names nothing else
# tests/abi/differ.txt lists the few names that differ on purpose (MPI_VERSION: the
# standard compi claims), with the reason.  Skipped when MPICH's header is not installed
# (COMPI_MPICH_H names another).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
mpich_h=${COMPI_MPICH_H:-/usr/include/x86_64-linux-gnu/mpich/mpi.h}
cc=${CC:-cc}
LC_ALL=C
export LC_ALL
if [ ! -f "$mpich_h" ]; then
    echo "1..0 # SKIP no MPICH header ($mpich_h)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
incdir_mpich=$(dirname "$mpich_h")

names_of() {
    cat "$@" | grep -o -E '\bMPIX?_[A-Z][A-Z0-9_]*\b' | sort -u
}
# MPICH's mpi.h includes mpio.h (MPI-IO's constants), which sits beside it
mpio_h=$(dirname "$mpich_h")/mpio.h
[ -f "$mpio_h" ] || mpio_h=
names_of "$mpich_h" $mpio_h >"$tmp/mpich.names"
names_of "$top_srcdir/include/mpi.h" >"$tmp/compi.names"
comm -12 "$tmp/mpich.names" "$tmp/compi.names" >"$tmp/both.names"

# the probe of a list of names: each prints "NAME value", "NAME address" or "NAME string"
gen_probe() {
    cat <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <mpi.h>
#define SHOW(n)                                                                            \
    _Generic((n), char *: printf("%s string %s\n", #n, (const char *)(uintptr_t)(n)),      \
             const char *: printf("%s string %s\n", #n, (const char *)(uintptr_t)(n)),     \
             default: (__builtin_constant_p((intptr_t)(n))                                 \
                           ? printf("%s %lld\n", #n, (long long)(intptr_t)(n))             \
                           : printf("%s address\n", #n)));
#define SIZE(t) printf("sizeof(%s) %zu\n", #t, sizeof(t));
#define OFF(f) printf("offsetof(MPI_Status, %s) %zu\n", #f, offsetof(MPI_Status, f));
int main(void)
{
EOF
    sed 's/.*/    SHOW(&)/' "$1"
    for t in MPI_Aint MPI_Offset MPI_Count MPI_Fint MPI_Comm MPI_Group MPI_Datatype MPI_Op \
        MPI_Request MPI_Errhandler MPI_Message MPI_Info MPI_Win MPI_File MPI_Status; do
        echo "    SIZE($t)"
    done
    for f in MPI_SOURCE MPI_TAG MPI_ERROR; do
        echo "    OFF($f)"
    done
    echo "    return 0;"
    echo "}"
}

# compiles and runs the probe against one header; names that header does not declare
# (a name of a comment, a struct field, a macro of an #if not taken) are dropped first
probe() {
    side=$1
    if [ "$side" = mpich ]; then
        set -- $cc -I"$incdir_mpich"
        lib=-lmpich
    else
        set -- "$top_builddir/bin/mpicc"
        lib=
    fi
    cp "$tmp/both.names" "$tmp/$side.try"
    gen_probe "$tmp/$side.try" >"$tmp/$side.c"
    if ! "$@" -O1 -w -c "$tmp/$side.c" -o "$tmp/$side.o" 2>"$tmp/$side.err"; then
        grep -o -E "'MPIX?_[A-Z0-9_]+' undeclared" "$tmp/$side.err" | tr -d "'" |
            sed 's/ undeclared//' | sort -u >"$tmp/$side.undecl"
        grep -v -x -F -f "$tmp/$side.undecl" "$tmp/both.names" >"$tmp/$side.try"
        gen_probe "$tmp/$side.try" >"$tmp/$side.c"
        "$@" -O1 -w -c "$tmp/$side.c" -o "$tmp/$side.o" 2>"$tmp/$side.err" || return 1
    fi
    # linked: MPICH's header names objects of its library (MPI_UNWEIGHTED)
    "$@" "$tmp/$side.o" -o "$tmp/$side.x" $lib 2>>"$tmp/$side.err" || return 1
    "$tmp/$side.x" >"$tmp/$side.out"
}

echo "1..3"
if ! probe mpich || ! probe compi; then
    for t in 1 2 3; do
        echo "not ok $t - the probe builds against both headers"
    done
    sed 's/^/#   /' "$tmp/mpich.err" "$tmp/compi.err" | head -40
    exit 0
fi

# names declared by one header only (of those both name) count as compi's missing ones
grep -v -x -F -f "$tmp/compi.try" "$tmp/mpich.try" >"$tmp/undecl-compi" || true
differ=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$top_srcdir/tests/abi/differ.txt" | grep .)
grep -v '^sizeof\|^offsetof' "$tmp/mpich.out" | sort >"$tmp/m.s"
grep -v '^sizeof\|^offsetof' "$tmp/compi.out" | sort >"$tmp/c.s"
values=$(join "$tmp/m.s" "$tmp/c.s")
bad=$(echo "$values" | awk '$2 != $3' |
        while read -r n m c; do
            echo "$differ" | grep -q -x -F "$n" || echo "$n: MPICH $m, compi $c"
        done)
if [ -z "$bad" ]; then
    echo "ok 1 - every name both headers define has MPICH's value ($(echo "$values" | wc -l) names)"
else
    echo "not ok 1 - every name both headers define has MPICH's value"
    echo "$bad" | sed 's/^/#   /'
fi

layout=$(grep '^sizeof\|^offsetof' "$tmp/mpich.out" >"$tmp/m.l"
    grep '^sizeof\|^offsetof' "$tmp/compi.out" >"$tmp/c.l"
    diff "$tmp/m.l" "$tmp/c.l" | grep '^[<>]')
if [ -z "$layout" ]; then
    echo "ok 2 - the types' sizes and MPI_Status's layout are MPICH's"
else
    echo "not ok 2 - the types' sizes and MPI_Status's layout are MPICH's (< MPICH, > compi)"
    echo "$layout" | sed 's/^/#   /'
fi

# MPICH's names compi lacks: those only MPICH's header has, and those both name but only
# MPICH's declares; of them the MPI_ ones that compile against MPICH's header
comm -23 "$tmp/mpich.names" "$tmp/compi.names" | grep '^MPI_' >"$tmp/only"
cat "$tmp/undecl-compi" >>"$tmp/only"
sort -u "$tmp/only" -o "$tmp/only"
gen_probe "$tmp/only" >"$tmp/only.c"
$cc -w -I"$incdir_mpich" -fsyntax-only "$tmp/only.c" 2>&1 |
    grep -o -E "'MPIX?_[A-Z0-9_]+' undeclared" | tr -d "'" | sed 's/ undeclared//' |
    sort -u >"$tmp/only.undecl"
grep -v -x -F -f "$tmp/only.undecl" "$tmp/only" >"$tmp/only.decl" || true
listed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$top_srcdir/tests/abi/mpich-only.txt" | grep . |
    sort -u)
missing=$(echo "$listed" | comm -13 - "$tmp/only.decl")
stale=$(echo "$listed" | comm -23 - "$tmp/only.decl")
if [ -z "$missing" ] && [ -z "$stale" ]; then
    echo "ok 3 - every MPI_ name of MPICH's header is compi's or listed in tests/abi/mpich-only.txt"
else
    echo "not ok 3 - every MPI_ name of MPICH's header is compi's or listed in tests/abi/mpich-only.txt"
    [ -z "$missing" ] || echo "$missing" | sed 's/^/#   missing: /'
    [ -z "$stale" ] || echo "$stale" | sed 's/^/#   listed, but compi has it (or MPICH has not): /'
fi
