#!/bin/sh
# TAP: compi's include/mpi_abi.h and MPICH 5's agree on the MPI-5 standard ABI, by value.
# A probe program, compiled against each header alone (no library), prints every
# upper-case MPI_/MPIX_ name both headers define (handles, constants, error classes,
# limits, sentinels), the size of each integer and handle type, and MPI_Status's size and
# field offsets; the outputs must be equal.
#   1  every name both headers define has the same value
#   2  the types' sizes and MPI_Status's layout are equal
#   3  every MPI_ name of MPICH's mpi_abi.h is in compi's, or listed in
#      tests/abi/abi-mpich-only.txt (the tool interface's, MPI-IO's, MPICH's additions),
#      and that list names nothing else
# Skipped without MPICH 5's wheel (tests/abi/mpich5.sh; no network the first time).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
cc=${CC:-cc}
LC_ALL=C
export LC_ALL
. "$top_srcdir/tests/abi/mpich5.sh"
if ! mpich5_find; then
    echo "1..0 # SKIP $mpich5_skip"
    exit 0
fi
theirs=$(cd "$mpich5_prefix/include" && pwd)/mpi_abi.h
ours=$(cd "$top_srcdir/include" && pwd)/mpi_abi.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the names a header defines: #define NAME, and NAME = in an enum
defined() {
    { grep -o -E '^#define[[:space:]]+MPIX?_[A-Z][A-Z0-9_]*([[:space:]]|$)' "$1" |
          awk '{print $2}'
      grep -o -E '^[[:space:]]+MPIX?_[A-Z][A-Z0-9_]*[[:space:]]*=' "$1" | tr -d ' =\t'; } |
        grep -v -E '_H_ABI$|_H_INCLUDED$' | sort -u
}
defined "$theirs" >"$tmp/theirs.names"
defined "$ours" >"$tmp/ours.names"
comm -12 "$tmp/theirs.names" "$tmp/ours.names" >"$tmp/both.names"

probe() {
    {
        echo '#include <stddef.h>'
        echo '#include <stdint.h>'
        echo '#include <stdio.h>'
        echo "#include \"$1\""
        echo 'int main(void)'
        echo '{'
        sed 's/.*/    printf("%s %lld\\n", "&", (long long)(intptr_t)(&));/' "$tmp/both.names"
        for t in MPI_Aint MPI_Offset MPI_Count MPI_Comm MPI_Group MPI_Datatype MPI_Op \
            MPI_Request MPI_Errhandler MPI_Message MPI_Info MPI_Win MPI_File MPI_Session \
            MPI_Status; do
            printf '    printf("sizeof(%%s) %%zu\\n", "%s", sizeof(%s));\n' "$t" "$t"
        done
        for f in MPI_SOURCE MPI_TAG MPI_ERROR MPI_internal; do
            printf '    printf("offsetof(MPI_Status, %%s) %%zu\\n", "%s", offsetof(MPI_Status, %s));\n' "$f" "$f"
        done
        echo '    return 0;'
        echo '}'
    } >"$tmp/$2.c"
    $cc -w -o "$tmp/$2" "$tmp/$2.c" 2>"$tmp/$2.err" && "$tmp/$2" >"$tmp/$2.out"
}

echo "1..3"
if ! probe "$theirs" theirs || ! probe "$ours" ours; then
    for t in 1 2 3; do
        echo "not ok $t - the probe builds against both headers"
    done
    cat "$tmp"/*.err | sed 's/^/#   /' | head -40
    exit 0
fi
grep -v '^sizeof\|^offsetof' "$tmp/theirs.out" >"$tmp/t.v"
grep -v '^sizeof\|^offsetof' "$tmp/ours.out" >"$tmp/o.v"
bad=$(join "$tmp/t.v" "$tmp/o.v" | awk '$2 != $3 {print $1 ": MPICH " $2 ", compi " $3}')
if [ -z "$bad" ]; then
    echo "ok 1 - every name both headers define has the same value ($(wc -l <"$tmp/t.v") names)"
else
    echo "not ok 1 - every name both headers define has the same value"
    echo "$bad" | sed 's/^/#   /'
fi
layout=$(grep '^sizeof\|^offsetof' "$tmp/theirs.out" >"$tmp/t.l"
    grep '^sizeof\|^offsetof' "$tmp/ours.out" >"$tmp/o.l"
    diff "$tmp/t.l" "$tmp/o.l" | grep '^[<>]')
if [ -z "$layout" ]; then
    echo "ok 2 - the types' sizes and MPI_Status's layout are equal"
else
    echo "not ok 2 - the types' sizes and MPI_Status's layout are equal (< MPICH, > compi)"
    echo "$layout" | sed 's/^/#   /'
fi
comm -23 "$tmp/theirs.names" "$tmp/ours.names" >"$tmp/only"
listed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$top_srcdir/tests/abi/abi-mpich-only.txt" |
    grep . | sort -u)
missing=$(echo "$listed" | comm -13 - "$tmp/only")
stale=$(echo "$listed" | comm -23 - "$tmp/only")
if [ -z "$missing" ] && [ -z "$stale" ]; then
    echo "ok 3 - every name of MPICH's mpi_abi.h is compi's or listed in tests/abi/abi-mpich-only.txt"
else
    echo "not ok 3 - every name of MPICH's mpi_abi.h is compi's or listed in tests/abi/abi-mpich-only.txt"
    [ -z "$missing" ] || echo "$missing" | sed 's/^/#   missing: /'
    [ -z "$stale" ] || echo "$stale" | sed 's/^/#   listed, but compi has it (or MPICH has not): /'
fi
