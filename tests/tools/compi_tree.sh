#!/bin/sh
# compi_tree.sh -- bin/compi-tree: golden outputs (tests/tools/golden/, text and DOT) for
# layouts x kinds x configs, the errors of bad layouts, options and configs (one line
# on stderr, exit 1), messages worded as the library words them (the same config through
# tests/scheme/bridge_probe, the trampolines' miss path), -o, --format svg.  TAP output;
# every run is under `timeout 30`, so a hang fails.
#
# The tool runs from the source tree with configs named relative to it, so the goldens
# hold the paths as a user would type them.  After a deliberate change of the output,
# COMPI_TREE_UPDATE_GOLDEN=1 rewrites the goldens (then read the diff before committing).

. "$(dirname "$0")/../scheme/lib.sh"
TOOL="$top_builddir/bin/compi-tree"
PROBE="$top_builddir/tests/scheme/bridge_probe"
GOLDEN="$top_srcdir/tests/tools/golden"
# the tool must not depend on the user's Guile set-up or configs, nor leave files behind
sandbox compi-tree
RUN_PROG=$TOOL RUN_TIMEOUT=30
cd "$top_srcdir" || exit 1

HIER=examples/configs/hierarchical.scm
MAGPIE=examples/configs/magpie.scm
THREE=a:4@10.1.0.0/24,b:4@10.2.0.0/24,c:4@10.3.0.0/24
SIX=a1:2@10.1.0.0/24,a2:2@10.1.0.0/24,b1:2@10.2.0.0/24,b2:2@10.2.0.0/24,c1:2@10.3.0.0/24,c2:2@10.3.0.0/24
UNEVEN=a:5@10.1.0.0/24,b:3@10.2.0.0/24,c:2@10.3.0.0/24

# same FILE GOLDEN: 0 when they are equal, else the difference as TAP comments
same() {
    if cmp -s "$1" "$2"; then
        return 0
    fi
    diff -u "$2" "$1" | head -40 | sed 's/^/# /'
    return 1
}
# golden NAME ARGS...: the tool succeeds, quietly, and prints tests/tools/golden/NAME
golden() {
    name=$1
    shift
    run "$@"
    if [ -n "$COMPI_TREE_UPDATE_GOLDEN" ] && [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ]; then
        cp "$TMP/out" "$GOLDEN/$name"
    fi
    if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] && [ -f "$GOLDEN/$name" ] &&
        same "$TMP/out" "$GOLDEN/$name"; then
        ok "golden $name"
    else
        not_ok "golden $name (compi-tree $*)"
        show 30 10
    fi
}
# error DESC TEXT ARGS...: exit 1, nothing on stdout, one line on stderr that starts
# with "compi-tree: " and contains TEXT
error() {
    desc=$1 text=$2
    shift 2
    run "$@"
    if [ "$rc" -eq 1 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -q '^compi-tree: ' "$TMP/err" && grep -qF -- "$text" "$TMP/err"; then
        ok "$desc"
    else
        not_ok "$desc (want: $text)"
        show 30 10
    fi
}
# like_library KIND CONFIG: the tool fails with the message the library's miss path
# gives for the same call (bridge_probe: 4 ranks, MPI_INT)
like_library() {
    run --config "$2" --op "$1" --layout a:4 --datatype MPI_INT
    timeout -k 5 30 "$PROBE" -b "$1" "$2" >/dev/null 2>"$TMP/lib" </dev/null
    sed 's/^compi-tree: //' "$TMP/err" >"$TMP/tool.msg"
    sed 's/^compi: //' "$TMP/lib" >"$TMP/lib.msg"
    if [ "$rc" -eq 1 ] && [ -s "$TMP/lib.msg" ] && same "$TMP/tool.msg" "$TMP/lib.msg"; then
        ok "$1: the library's message, word for word: $(head -c 90 "$TMP/lib.msg")..."
    else
        not_ok "$1: the library's message"
        show 30 10
        sed 's/^/# library: /' "$TMP/lib"
    fi
}

echo "1..68"

# ---- golden outputs --------------------------------------------------------------------
# the CoMPI paper's three clusters: across the WAN once per cluster, then inside
golden hier-bcast-three.txt --config $HIER --op bcast --layout $THREE
golden hier-bcast-six.txt --config $HIER --op bcast --layout $SIX
golden hier-bcast-six.dot --config $HIER --op bcast --layout $SIX --format dot
# the root (7, host b2) coordinates its cluster and its host
golden hier-reduce-root7.txt --config $HIER --op reduce --root 7 --layout $SIX
golden hier-gather-root7.dot --config $HIER --op gather --root 7 --layout $SIX --format dot
# MagPIe on clusters of unequal size, root in the middle one
golden magpie-bcast-uneven.txt --config $MAGPIE --op bcast --root 6 --layout $UNEVEN
golden magpie-bcast-uneven.dot --config $MAGPIE --op bcast --root 6 --layout $UNEVEN \
    --format dot
golden magpie-scatter.txt --config $MAGPIE --op scatter --bytes 65536 --layout $THREE
# ranks dealt round-robin to two hosts: the MagPIe tree does not combine in rank order,
# so a non-commutative allreduce goes to the defaults; a commutative one gets the tree
RR=a:1@10.1.0.0/24,b:1@10.2.0.0/24,a:1@10.1.0.0/24,b:1@10.2.0.0/24
golden magpie-allreduce-noncomm.txt --config $MAGPIE --op allreduce --non-commutative --layout $RR
golden magpie-allreduce-rr.txt --config $MAGPIE --op allreduce --layout $RR
# wrappers around the tree; the defaults' native algorithms; a Scheme closure
golden hier-profiled-allreduce.txt --config $HIER --config examples/configs/profile.scm \
    --op allreduce --layout $THREE
golden exchange-allreduce-three.txt --config examples/configs/exchange.scm --op allreduce \
    --layout $THREE
golden exchange-allreduce-three.dot --config examples/configs/exchange.scm --op allreduce \
    --layout $THREE --format dot
golden magpie-allgather.txt --config $MAGPIE --op allgather --layout $THREE
golden defaults-barrier.txt --op barrier --layout a:3,b:2
# collective file access: one aggregator per host by default, one per cluster with MagPIe's
golden defaults-file-write.txt --op file-write --layout a:3,b:2
golden magpie-file-read.txt --config $MAGPIE --op file-read --layout $THREE
golden scheme-allreduce.txt --config examples/allreduce.scm --op allreduce --layout a:4
golden scheme-allreduce.dot --config examples/allreduce.scm --op allreduce --layout a:4 \
    --format dot
# no subnets: groups and WAN edges by host
golden by-host-bcast.txt --config tests/tools/configs/by_host.scm --op bcast --layout a:3,b:3,c:2
golden by-host-bcast.dot --config tests/tools/configs/by_host.scm --op bcast --layout a:3,b:3,c:2 \
    --format dot

# ---- the comparison itself ---------------------------------------------------------------
# a golden changed by one character no longer matches (the comparison can fail)
run --config $HIER --op bcast --layout $THREE
sed '6s/10\.1\.0\.1/10.1.0.9/' "$GOLDEN/hier-bcast-three.txt" >"$TMP/changed"
if [ "$rc" -eq 0 ] && ! cmp -s "$GOLDEN/hier-bcast-three.txt" "$TMP/changed" &&
    ! same "$TMP/out" "$TMP/changed" >/dev/null; then
    ok "a changed golden fails the comparison"
else
    not_ok "a changed golden fails the comparison"
fi

# ---- bad layouts ---------------------------------------------------------------------------
error "missing count" "bad layout entry 'a@10.1.0.0/24': missing ':COUNT'" \
    --config $HIER --op bcast --layout a@10.1.0.0/24,b:4@10.2.0.0/24
error "bad CIDR (three octets)" "bad layout entry 'b:4@10.2.0/24': bad subnet '10.2.0/24'" \
    --config $HIER --op bcast --layout a:4@10.1.0.0/24,b:4@10.2.0/24
error "bad CIDR (prefix 33)" "bad subnet '10.1.0.0/33'" \
    --config $HIER --op bcast --layout a:4@10.1.0.0/33
error "bad CIDR (no prefix)" "bad subnet '10.1.0.0' (expected A.B.C.D/NN" \
    --config $HIER --op bcast --layout a:4@10.1.0.0
error "zero ranks" "bad layout entry 'c:0@10.3.0.0/24': zero ranks" \
    --config $HIER --op bcast --layout a:4@10.1.0.0/24,c:0@10.3.0.0/24
error "a count that is not a number" "rank count '4x' is not a number" --op bcast --layout a:4x
error "an empty entry" "bad layout: entry 2 is empty" --op bcast --layout a:2,,b:2
error "a host name with a space" "host name 'a b' may hold only" --op bcast --layout 'a b:2'
error "more ranks than a subnet holds" "300 ranks do not fit in 10.1.0.0/24 (254 addresses)" \
    --op bcast --layout a:300@10.1.0.0/24
error "a subnet continued by a second entry counts the first" \
    "4 ranks do not fit in 10.1.0.0/30 (2 addresses, 1 taken by earlier entries)" \
    --op bcast --layout a:1@10.1.0.0/30,b:4@10.1.0.0/30
error "overlapping subnets" "address 10.1.0.1 of rank 2 is already rank 0's" \
    --op bcast --layout a:2@10.1.0.0/16,b:2@10.1.0.0/24
error "root out of range" "--root 12 is not a rank of the layout (0..11)" \
    --config $HIER --op bcast --root 12 --layout $THREE
error "rank out of range" "--rank 4 is not a rank of the layout (0..3)" \
    --op bcast --rank 4 --layout a:4
error "a layout the config's topology does not fit names the rank" \
    "creator hierarchical (bcast, installed at $HIER:25:1) failed: in topology-groups: topology (nested (by-subnets \"10.1.0.0/24\" \"10.2.0.0/24\" \"10.3.0.0/24\") (by-host)), level (by-subnets \"10.1.0.0/24\" \"10.2.0.0/24\" \"10.3.0.0/24\"): rank 2 (host d, addresses 10.4.0.1/24) is in no group" \
    --config $HIER --op bcast --layout a:2@10.1.0.0/24,d:2@10.4.0.0/24

# ---- bad options -----------------------------------------------------------------------------
error "unknown kind" "--op 'broadcast' is not a collective kind" --op broadcast --layout a:2
# the list of kinds is the bridge's, first to last
error "the kinds an unknown --op lists are the bridge's" \
    "(barrier, bcast, reduce, allreduce, gather, gatherv, scatter, scatterv, allgather, allgatherv, alltoall, alltoallv, alltoallw, reduce-scatter, reduce-scatter-block, scan, exscan, neighbor-allgather, neighbor-allgatherv, neighbor-alltoall, neighbor-alltoallv, neighbor-alltoallw, file-write, file-read)" \
    --op bcst --layout a:2
error "--np and --layout together" "--np and --layout: give one" --op bcast --np 4 --layout a:4
error "a datatype that is not predefined" "--datatype 'MPI_NOPE' is not a predefined MPI datatype" \
    --op bcast --layout a:2 --datatype MPI_NOPE
error "root for a kind without one" "--root: allreduce has no root" \
    --op allreduce --root 1 --layout a:2
error "a reduction op for a kind that does not reduce" "--reduce-op: bcast is not a reduction" \
    --op bcast --reduce-op MPI_MAX --layout a:2
error "bad format" "--format 'png' is not one of text, dot, svg" --op bcast --layout a:2 \
    --format png
error "missing layout" "missing --layout" --op bcast

# ---- bad configs: the library's messages ---------------------------------------------------
error "config syntax error: file, line, column" \
    "config error: tests/tools/configs/syntax_error.scm:5:1: syntax error:" \
    --config tests/tools/configs/syntax_error.scm --op bcast --layout a:2
error "an unbalanced config: where the open form starts" \
    "config error: tests/tools/configs/unbalanced.scm:4:1: syntax error: this form is never closed" \
    --config $HIER --config tests/tools/configs/unbalanced.scm --op bcast --layout a:2
error "a config that does not exist" "config error: no/such.scm: cannot read" \
    --config no/such.scm --op bcast --layout a:2
like_library bcast tests/tools/configs/bad_trees.scm
like_library reduce tests/tools/configs/bad_trees.scm
like_library gather tests/tools/configs/bad_trees.scm
like_library alltoall tests/tools/configs/bad_trees.scm

# ---- configs in order, and a job's own list ------------------------------------------------
run --config examples/configs/profile.scm --config $HIER --op allreduce --layout $THREE
if [ "$rc" -eq 0 ] && grep -qx 'closure: tree allreduce' "$TMP/out"; then
    ok "configs load in order: the last one's creator answers first"
else
    not_ok "configs load in order"
    show 30 10
fi
run_env COMPI_COLL_CONFIG=$MAGPIE --op bcast --layout $THREE
if [ "$rc" -eq 0 ] && grep -qF "creator magpie (bcast, installed at $MAGPIE:23:1)" "$TMP/out"; then
    ok "with no --config, what a job would load (COMPI_COLL_CONFIG)"
else
    not_ok "with no --config, what a job would load (COMPI_COLL_CONFIG)"
    show 30 10
fi

# ---- the signature: what coll_verbose prints ------------------------------------------
run --config $HIER --op bcast --layout $THREE
if [ "$rc" -eq 0 ] &&
    grep -qx 'signature: [0-9a-f]\{16\} (bcast:tree(12 ranks,root 0,depth 3,#[0-9a-f]\{8\}))' "$TMP/out"; then
    ok "the closure's signature and C name, as coll_verbose prints them"
else
    not_ok "the closure's signature"
    show 30 10
fi
# --np N is the layout localhost:N
run --op bcast --np 4
sed 's/^layout: .*//' "$TMP/out" >"$TMP/np.out"
run --op bcast --layout localhost:4
sed 's/^layout: .*//' "$TMP/out" >"$TMP/lay.out"
if [ "$rc" -eq 0 ] && same "$TMP/np.out" "$TMP/lay.out"; then
    ok "--np 4 draws what --layout localhost:4 draws"
else
    not_ok "--np 4 draws what --layout localhost:4 draws"
fi

# ---- --check ---------------------------------------------------------------------------
LARGE=tests/tools/configs/large_only.scm
# one call of 8 bytes is fine (the defaults, on one host: the shared-memory bcast); --check
# finds the calls above 4000 bytes that fail
run --config $LARGE --op bcast --layout a:4
if [ "$rc" -eq 0 ] && grep -q '^closure: native bcast shm' "$TMP/out"; then
    ok "a config whose creator fails above 4000 bytes draws 8 bytes fine"
else
    not_ok "a config whose creator fails above 4000 bytes draws 8 bytes fine"
    show 30 10
fi
run --check --config $LARGE --layout a:4@10.1.0.0/24,b:4@10.2.0.0/24
if [ "$rc" -eq 1 ] && [ ! -s "$TMP/err" ] &&
    grep -q "^error: creator large-chain (bcast, installed at $LARGE:10:1) returned (tree-closure bcast TREE): invalid tree: " "$TMP/out" &&
    grep -q "^error: creator large-chain (bcast, installed at $LARGE:10:1) failed at $LARGE:9:28: in chain-tree" "$TMP/out" &&
    ! grep -q 'bytes=\(0\|8\|100\|4000\) ' "$TMP/out" && grep -q 'bytes=4096 ' "$TMP/out" &&
    tail -1 "$TMP/out" | grep -q '^compi-tree --check: [0-9]* calls of 1 kind on communicators of 1 to 8 ranks: [0-9]* failed, 3 distinct errors$'; then
    ok "--check: the creator failing above 4000 bytes, with its file:line, exit 1"
else
    not_ok "--check: the creator failing above 4000 bytes"
    show 30 10
fi
run --check --config tests/tools/configs/good.scm --np 12
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/out")" -eq 1 ] &&
    grep -q '^compi-tree --check: [0-9]* calls of 1 kind on communicators of 1 to 12 ranks: all built$' "$TMP/out"; then
    ok "--check: a good config passes, exit 0"
else
    not_ok "--check: a good config passes"
    show 30 10
fi
run --check --op all --config $HIER --layout $THREE
if [ "$rc" -eq 0 ] && grep -q '^compi-tree --check: [0-9]* calls of 24 kinds on communicators of 1 to 12 ranks: all built$' "$TMP/out"; then
    ok "--check --op all: every kind of the hierarchical config on its layout and smaller"
else
    not_ok "--check --op all"
    show 30 10
fi
run --check --config tests/tools/configs/bad_trees.scm --np 4 --bytes 8 -o "$TMP/check.txt"
if [ "$rc" -eq 1 ] && [ ! -s "$TMP/out" ] &&
    grep -q "^error: creator no-such-algorithm (gather, installed at tests/tools/configs/bad_trees.scm:20:1) returned (native gather no-such-algorithm): gather has no native algorithm no-such-algorithm" "$TMP/check.txt" &&
    grep -q "^error: creator alltoall-tree (alltoall, " "$TMP/check.txt" &&
    grep -q "calls of 4 kinds on communicators of 1 to 4 ranks: [0-9]* failed, [4-9] distinct errors$" "$TMP/check.txt"; then
    ok "--check: every kind the configs touch, invalid closures named, -o"
else
    not_ok "--check: every kind the configs touch"
    show 30 10
    sed 's/^/# /' "$TMP/check.txt" | head -20
fi

# a creator that builds by rank (rank 0 another tree than the others) builds on every rank:
# --check compares what the ranks of a call built, as a job's agreement at the miss does
WRAP=examples/configs/timing-wrapper.scm
run --check --config tests/mpi/configs/nondet.scm --np 4 --bytes 8
if [ "$rc" -eq 1 ] &&
    grep -q "^error: creator moody-bcast (bcast, installed at tests/mpi/configs/nondet.scm:13:1) builds by rank: rank 0 built bcast:tree(.*), rank [12] built bcast:tree(.*); in a job the agreement at the miss stops it" "$TMP/out" &&
    tail -1 "$TMP/out" | grep -q 'calls of 1 kind on communicators of 1 to 4 ranks: [1-9][0-9]* failed, 1 distinct error$'; then
    ok "--check: a creator that builds by rank, with its file:line, exit 1"
else
    not_ok "--check: a creator that builds by rank"
    show 30 10
fi
# ... and behind a Scheme wrapper (run-closure around (next call)): the wrapper's closures
# are named alike on every rank, their signatures differ
run --check --config tests/mpi/configs/nondet.scm --config $WRAP --op bcast --np 4 --bytes 8
if [ "$rc" -eq 1 ] &&
    grep -q "^error: creator timed (bcast, installed at $WRAP:[0-9]*:1) builds by rank: rank 0 built bcast:scheme(timed-run) over bcast:tree (signature [0-9a-f]*), rank [12] built bcast:scheme(timed-run) over bcast:tree (signature [0-9a-f]*), named alike" "$TMP/out" &&
    grep -q "^  [0-9]* calls like this one (numbers may differ), the first: blocking bcast " "$TMP/out" &&
    grep -q "^error: creator moody-bcast (bcast, installed at tests/mpi/configs/nondet.scm:13:1) builds by rank" "$TMP/out"; then
    ok "--check: a creator that builds by rank behind a Scheme wrapper, exit 1"
else
    not_ok "--check: a creator that builds by rank behind a Scheme wrapper"
    show 30 10
fi
# a Scheme wrapper over an invalid tree: what `next' gave it is built with it, so the
# blocking calls fail too, naming the creator of the tree and its file:line
run --check --config tests/mpi/configs/bad_tree.scm --config $WRAP --op bcast --np 3 --bytes 8
if [ "$rc" -eq 1 ] &&
    grep -q "^error: creator short-bcast (bcast, installed at tests/mpi/configs/bad_tree.scm:9:1) returned (tree-closure bcast TREE): invalid tree: tree built for 1 ranks, communicator has 2" "$TMP/out" &&
    tail -1 "$TMP/out" | sed -n 's/.*: \([0-9]*\) calls of 1 kind on .* ranks: \([0-9]*\) failed,.*/\1 \2/p' |
    awk '{ ok = $1 > 0 && $1 == $2 } END { exit !ok }'; then
    ok "--check: a Scheme wrapper over an invalid tree fails every call, blocking ones too, exit 1"
else
    not_ok "--check: a Scheme wrapper over an invalid tree"
    show 30 10
fi

# ---- -o, svg, --help, --version --------------------------------------------------------
run --config $HIER --op bcast --layout $SIX --format dot -o "$TMP/six.dot"
if [ "$rc" -eq 0 ] && [ ! -s "$TMP/out" ] && same "$TMP/six.dot" "$GOLDEN/hier-bcast-six.dot"; then
    ok "-o writes the output to a file"
else
    not_ok "-o writes the output to a file"
    show 30 10
fi
if command -v dot >/dev/null 2>&1; then
    run --config $HIER --op bcast --layout $SIX --format svg -o "$TMP/six.svg"
    if [ "$rc" -eq 0 ] && grep -q '<svg' "$TMP/six.svg" && grep -q '10\.3\.0\.0/24' "$TMP/six.svg" &&
        [ "$(grep -c 'stroke="red"' "$TMP/six.svg")" -ge 2 ]; then
        ok "--format svg: dot draws the clusters and the red WAN edges"
    else
        not_ok "--format svg"
        show 30 10
    fi
else
    ok "# SKIP --format svg: Graphviz's dot is not installed"
fi
# no dot in PATH (the tool itself needs no PATH)
run_env PATH=/nonexistent --op bcast --layout a:2 --format svg -o "$TMP/none.svg"
if [ "$rc" -eq 1 ] && grep -qF "needs Graphviz's dot program" "$TMP/err" && [ ! -e "$TMP/none.svg" ]; then
    ok "svg without dot in PATH: a clear error and no file"
else
    not_ok "svg without dot in PATH"
    show 30 10
fi
run --help
if [ "$rc" -eq 0 ] && grep -q '^usage: compi-tree --layout SPEC --op KIND' "$TMP/out" &&
    grep -q -- '--format F' "$TMP/out" && grep -q '^       compi-tree --check ' "$TMP/out" &&
    grep -q -- '^--check builds' "$TMP/out" && grep -q 'neighbor-alltoallw' "$TMP/out"; then
    ok "--help"
else
    not_ok "--help"
    show 30 10
fi
run --version
if [ "$rc" -eq 0 ] && grep -q '^compi-tree (compi) [0-9]' "$TMP/out"; then
    ok "--version"
else
    not_ok "--version"
    show 30 10
fi

[ "$failed" -eq 0 ]
