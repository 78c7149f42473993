#!/bin/sh
# TAP: fortran/gen/ is what tools/mpigen/mpigen.py makes from the MPI standard's
# description: the generator runs into a temporary folder and its output must equal the
# committed one, file for file (1); so are abi/gen/ and the prototypes of
# include/mpi_abi.h, which tools/mpigen/abigen.py makes, the standard ABI layer (2); so
# is core/mpi/gen/, compi's C entry points, which tools/mpigen/cgen.py makes (3).  With
# --update (make mpigen) it regenerates them in place instead.
#
# The description is the Python package pympistandard (the MPI Forum's apis.json),
# fetched from PyPI once (pip download) into $top_builddir/mpigen/wheels and installed
# into a virtual environment there ($top_builddir/mpigen/venv); later runs need no
# network.  Without it (no network the first time) the check is skipped, and says why.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir/_build}"
version=0.2.0
dir="$top_builddir/mpigen"
venv="$dir/venv"
py="$venv/bin/python"
update=no
[ "${1:-}" = --update ] && update=yes

if [ "$update" = no ]; then
    echo "1..3"
fi
skip() {
    if [ "$update" = yes ]; then
        echo "mpigen: $1" >&2
        exit 1
    fi
    echo "ok 1 # SKIP $1"
    echo "ok 2 # SKIP $1"
    echo "ok 3 # SKIP $1"
    exit 0
}

mkdir -p "$dir" || skip "cannot create $dir"
exec 9>"$dir/.lock"
flock 9 || skip "cannot lock $dir/.lock"
if ! "$py" -c "import pympistandard" 2>/dev/null; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" >"$dir/setup.log" 2>&1 ||
        skip "cannot make a virtual environment (python3-venv)"
    if [ ! -f "$dir/wheels/.complete" ]; then
        "$py" -m pip download -q --no-deps -d "$dir/wheels" "pympistandard==$version" \
            >>"$dir/setup.log" 2>&1 && touch "$dir/wheels/.complete" ||
            skip "pip download pympistandard==$version failed (no network?): $dir/setup.log"
    fi
    "$py" -m pip install -q --no-index --find-links "$dir/wheels" \
        "pympistandard==$version" >>"$dir/setup.log" 2>&1 ||
        skip "pip install pympistandard failed: $dir/setup.log"
fi

if [ "$update" = yes ]; then
    "$py" "$top_srcdir/tools/mpigen/mpigen.py" --header "$top_srcdir/include/mpi.h" \
        --out "$top_srcdir/fortran/gen" || exit 1
    "$py" "$top_srcdir/tools/mpigen/abigen.py" --top "$top_srcdir" || exit 1
    exec "$py" "$top_srcdir/tools/mpigen/cgen.py" --top "$top_srcdir"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpigen.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
if ! "$py" "$top_srcdir/tools/mpigen/mpigen.py" --header "$top_srcdir/include/mpi.h" \
    --out "$tmp" >"$tmp.log" 2>&1; then
    echo "not ok 1 - tools/mpigen/mpigen.py failed"
    sed 's/^/# /' "$tmp.log"
    rm -f "$tmp.log"
    exit 1
fi
sed 's/^/# /' "$tmp.log"
rm -f "$tmp.log"
if diff -r "$top_srcdir/fortran/gen" "$tmp" >"$dir/diff.txt" 2>&1; then
    echo "ok 1 - fortran/gen is what tools/mpigen/mpigen.py makes from pympistandard $version and include/mpi.h"
else
    echo "not ok 1 - fortran/gen differs from what tools/mpigen/mpigen.py makes (make mpigen regenerates it)"
    head -n 40 "$dir/diff.txt" | sed 's/^/# /'
fi

# gen_check N GENERATOR WHAT PATH...: tools/mpigen/GENERATOR run into a temporary folder;
# test N passes when each PATH (from the top of the tree) is the same there
gen_check() {
    n=$1 gen=$2 what=$3
    shift 3
    mkdir "$tmp/$n"
    if ! "$py" "$top_srcdir/tools/mpigen/$gen" --top "$top_srcdir" --out "$tmp/$n" \
        >"$tmp/$n.log" 2>&1; then
        echo "not ok $n - tools/mpigen/$gen failed"
        sed 's/^/# /' "$tmp/$n.log"
        return
    fi
    sed 's/^/# /' "$tmp/$n.log"
    : >"$dir/diff-$n.txt"
    same=yes
    for p in "$@"; do
        diff -r "$top_srcdir/$p" "$tmp/$n/$p" >>"$dir/diff-$n.txt" 2>&1 || same=no
    done
    if [ "$same" = yes ]; then
        echo "ok $n - $what: what tools/mpigen/$gen makes from pympistandard $version"
    else
        echo "not ok $n - $what differ from what tools/mpigen/$gen makes (make mpigen regenerates them)"
        head -n 40 "$dir/diff-$n.txt" | sed 's/^/# /'
    fi
}

# the standard ABI layer, and the C entry points
gen_check 2 abigen.py "abi/gen and include/mpi_abi.h's prototypes" abi/gen include/mpi_abi.h
gen_check 3 cgen.py "core/mpi/gen, the C entry points" core/mpi/gen
