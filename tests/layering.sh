#!/bin/sh
# TAP: the layers of docs/architecture.md hold in the sources.
#   1. every quoted #include in the library, the tools and the tests names a file by its
#      path from the top of the tree (or is <mpi.h> / config.h / compi_paths.h, made by
#      make in the build tree);
#   2. no layer includes a header of a layer above it: for each directory, the
#      directories it may include from are listed below;
#   3. only scheme/ includes libguile;
#   4. MPI's types stay in the API layer: core/pml, core/btl, core/runtime and
#      core/coll/sched do not include mpi.h (they speak compi's status and request types,
#      so that a change of MPI ABI touches core/mpi alone);
#   5. nor does their code name anything MPI_ (comments and strings aside), which the
#      headers of the layers they may include could still bring them.
# Runs on the sources alone (grep and sed); needs no build.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top_srcdir" || exit 1

# layer: the directories (besides its own) that its files may include
allowed() {
    case "$1" in
    core/include) echo "" ;;
    core/runtime) echo "core/include" ;;
    core/runtime/launcher) echo "core/include core/runtime" ;;
    core/dt | core/btl | topologies) echo "core/include core/runtime" ;;
    core/btl/*) echo "core/include core/runtime core/btl" ;;
    core/op) echo "core/include core/runtime core/dt" ;;
    core/pml) echo "core/include core/runtime core/dt core/btl core/comm" ;;
    core/comm) echo "core/include core/runtime core/dt core/pml" ;;
    core/coll*) echo "core/include core/runtime core/dt core/pml core/comm core/op topologies core/coll" ;;
    core/osc) echo "core/include core/runtime core/dt core/pml core/comm core/op" ;;
    core/io) echo "core/include core/runtime core/dt core/pml core/comm core/op topologies core/coll scheme trampolines" ;;
    scheme) echo "core/include core/runtime core/dt core/pml core/comm core/op topologies core/coll" ;;
    trampolines) echo "core/include core/runtime core/dt core/pml core/comm core/op topologies core/coll scheme" ;;
    core/mpi | core/mpi/gen | tools) echo "*" ;;
    *) echo "?" ;;
    esac
}

# the layer of a file or header path: its directory, with core/btl/* and core/coll/*
# subfolders kept (allowed() matches them)
layer_of() {
    d=$(dirname "$1")
    case "$d" in
    core/runtime/launcher*) echo core/runtime/launcher ;;
    core/coll*) echo core/coll ;;
    *) echo "$d" ;;
    esac
}

sources=$(find core scheme trampolines topologies tools tests examples -name '*.[ch]' | sort)
out=$(mktemp "${TMPDIR:-/tmp}/compi-layering.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT INT TERM

echo "1..5"

# 1. paths from the top
for f in $sources; do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while read -r h; do
            case "$h" in mpi.h | config.h | compi_paths.h) continue ;; esac
            [ -f "$h" ] || echo "$f: #include \"$h\" is not a path from the top of the tree"
        done
done >"$out"
if [ -s "$out" ]; then
    echo "not ok 1 - includes name their file by its path from the top"
    sed 's/^/#   /' "$out"
else
    echo "ok 1 - includes name their file by its path from the top"
fi

# 2. no upward include
: >"$out"
for f in $sources; do
    case "$f" in tests/* | examples/*) continue ;; esac
    me=$(layer_of "$f")
    ok=$(allowed "$me")
    [ "$ok" = "*" ] && continue
    if [ "$ok" = "?" ]; then
        echo "$f: directory $me has no place in the layers (add it to tests/layering.sh)"
        continue
    fi
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while read -r h; do
            case "$h" in mpi.h | config.h | compi_paths.h) continue ;; esac
            them=$(layer_of "$h")
            [ "$them" = "$me" ] && continue
            hit=0
            for a in $ok; do
                case "$them" in "$a" | "$a"/*) hit=1 ;; esac
            done
            [ $hit = 1 ] || echo "$f ($me) includes $h ($them), a layer it must not see"
        done
done >>"$out"
if [ -s "$out" ]; then
    echo "not ok 2 - no layer includes a layer above it"
    sed 's/^/#   /' "$out"
else
    echo "ok 2 - no layer includes a layer above it"
fi

# 3. libguile only in scheme/
grep -l '#[[:space:]]*include[[:space:]]*<libguile' $sources | grep -v '^scheme/' >"$out"
if [ -s "$out" ]; then
    echo "not ok 3 - only scheme/ includes libguile"
    sed 's/^/#   includes libguile: /' "$out"
else
    echo "ok 3 - only scheme/ includes libguile"
fi

# 4. no mpi.h below the API layer
for f in $sources; do
    case "$f" in core/pml/* | core/btl/* | core/runtime/* | core/coll/sched/*) ;; *) continue ;; esac
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]mpi\.h[>"]' "$f" | sed "s|^|$f:|"
done >"$out"
if [ -s "$out" ]; then
    echo "not ok 4 - core/pml, core/btl, core/runtime and core/coll/sched do not include mpi.h"
    sed 's/^/#   /' "$out"
else
    echo "ok 4 - core/pml, core/btl, core/runtime and core/coll/sched do not include mpi.h"
fi

# 5. no MPI_ name in their code: comments (also across lines) and strings taken out first
strip_comments='{
    line = $0; out = ""
    while (length(line) > 0) {
        if (inc) {
            i = index(line, "*/")
            if (i) { inc = 0; line = substr(line, i + 2) } else { line = "" }
        } else {
            i = index(line, "/*")
            if (i) { out = out substr(line, 1, i - 1); inc = 1; line = substr(line, i + 2) }
            else { out = out line; line = "" }
        }
    }
    print out
}'
for f in $sources; do
    case "$f" in core/pml/* | core/btl/* | core/runtime/* | core/coll/sched/*) ;; *) continue ;; esac
    awk "$strip_comments" "$f" | sed -e 's/"\([^"\\]\|\\.\)*"//g' -e 's|//.*||' |
        grep -nE '(^|[^A-Za-z0-9_])P?MPIX?_[A-Za-z]' | sed "s|^|$f:|"
done >"$out"
if [ -s "$out" ]; then
    echo "not ok 5 - no MPI_ names in the code of core/pml, core/btl, core/runtime, core/coll/sched"
    sed 's/^/#   /' "$out"
else
    echo "ok 5 - no MPI_ names in the code of core/pml, core/btl, core/runtime, core/coll/sched"
fi
