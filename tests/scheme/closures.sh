#!/bin/sh
# closures.sh -- the trampolines' miss path (bridge_build_closure) through the helper
# program bridge_probe, on hand-made calls: the default creators answer every kind with an
# algorithm that can serve the call; descriptions become closures with the right names;
# every bad description is one message naming the config file and line, the creator and
# the call.  TAP output; every probe runs under `timeout 20` so a hang fails.

. "$(dirname "$0")/lib.sh"
PROBE="$top_builddir/tests/scheme/bridge_probe"
CONF="$top_srcdir/tests/scheme/configs"
sandbox compi-scheme
RUN_PROG=$PROBE RUN_TIMEOUT=20

KINDS="barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv
alltoall alltoallv alltoallw reduce-scatter reduce-scatter-block scan exscan
neighbor-allgather neighbor-allgatherv neighbor-alltoall neighbor-alltoallv neighbor-alltoallw
file-write file-read"
REDUCTIONS="reduce allreduce reduce-scatter reduce-scatter-block scan exscan"

# expect_closure DESC TEXT ARGS...: the probe succeeds and prints TEXT
expect_closure() {
    desc=$1 want=$2
    shift 2
    run "$@"
    if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] && grep -qxF -- "$want" "$TMP/out"; then
        ok "$desc"
    else
        not_ok "$desc (want: $want)"
        show
    fi
}
# expect_error DESC TEXT ARGS...: the probe fails with one stderr line containing TEXT
expect_error() {
    desc=$1 want=$2
    shift 2
    run "$@"
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF -- "$want" "$TMP/err"; then
        ok "$desc"
    else
        not_ok "$desc (want: $want)"
        show
    fi
}

echo "1..52"

# ---- the defaults ----------------------------------------------------------------------
# every kind, communicator sizes 1 to 17 (powers of two and not), 0 B to 4 MiB, both kinds
# of op: each call gets a closure
args=""
for k in $KINDS; do
    for size in 1 2 3 4 5 8 13 16 17; do
        for bytes in 0 8 1000 20000 300000 4194304; do
            args="$args -b $k,size=$size,bytes=$bytes"
        done
    done
done
run $args
if [ "$rc" -eq 0 ] && [ "$(grep -c '^closure: ' "$TMP/out")" -eq $((24 * 9 * 6)) ]; then
    ok "the defaults answer every kind, size and message size"
else
    not_ok "the defaults answer every kind, size and message size"
    show
fi
args=""
for k in $REDUCTIONS; do
    for size in 1 2 3 4 5 8 13 16 17; do
        for bytes in 8 20000 300000 4194304; do
            args="$args -b $k,size=$size,bytes=$bytes,op=noncommutative"
        done
    done
done
run $args
if [ "$rc" -eq 0 ] && [ "$(grep -c '^closure: ' "$TMP/out")" -eq $((6 * 9 * 4)) ]; then
    ok "the defaults answer non-commutative reductions with algorithms that keep rank order"
else
    not_ok "the defaults answer non-commutative reductions with algorithms that keep rank order"
    show
fi
run -c
if [ "$rc" -eq 0 ] && [ "$(grep -c '^  default-' "$TMP/out")" -eq 24 ]; then
    ok "one default creator per kind, installed with no config"
else
    not_ok "one default creator per kind, installed with no config"
    show
fi
# at 2 ranks and 8 bytes: one message or one exchange
expect_closure "np 2, 8 B allreduce: recursive doubling (one exchange)" \
    "closure: allreduce:recursive-doubling" -b allreduce,size=2,bytes=8
expect_closure "np 2, 8 B bcast: binomial (one message)" \
    "closure: bcast:binomial" -b bcast,size=2,bytes=8
expect_closure "np 2 barrier: recursive doubling (one exchange)" \
    "closure: barrier:recursive-doubling" -b barrier,size=2
expect_closure "np 2, 1 MiB commutative allreduce: the segmented ring (each rank combines half)" \
    "closure: allreduce:segmented-ring(segsize=262144)" -b allreduce,size=2,bytes=1048576
expect_closure "np 2, 1 MiB non-commutative allreduce: recursive doubling" \
    "closure: allreduce:recursive-doubling" -b allreduce,size=2,bytes=1048576,op=noncommutative
expect_closure "np 2, 64 KiB commutative reduce: linear (one transfer)" \
    "closure: reduce:linear" -b reduce,size=2,bytes=65536
expect_closure "large commutative allreduce at 4 ranks: the segmented ring" \
    "closure: allreduce:segmented-ring(segsize=262144)" -b allreduce,size=4,bytes=4194304
expect_closure "large commutative allreduce at 8 ranks: the ring" \
    "closure: allreduce:ring" -b allreduce,size=8,bytes=4194304
expect_closure "large non-commutative allreduce: reduce + bcast in rank order" \
    "closure: allreduce:reduce-bcast" -b allreduce,size=4,bytes=4194304,op=noncommutative
expect_closure "large non-commutative reduce: the in-order binomial tree" \
    "closure: reduce:in-order-binomial" -b reduce,size=16,bytes=4194304,op=noncommutative
# nonblocking and persistent allreduce: the blocking choice, run as a schedule
expect_closure "MPI_Iallreduce, small: recursive doubling" \
    "closure: allreduce:recursive-doubling" -b allreduce,size=4,bytes=8,mode=nonblocking
expect_closure "MPI_Iallreduce, 64 KiB at np 2: Rabenseifner (blocking: recursive doubling)" \
    "closure: allreduce:rabenseifner" -b allreduce,size=2,bytes=65536,mode=nonblocking
expect_closure "MPI_Iallreduce, 64 KiB at np 4: Rabenseifner" \
    "closure: allreduce:rabenseifner" -b allreduce,size=4,bytes=65536,mode=nonblocking
expect_closure "MPI_Allreduce_init, 1 MiB at np 4: the segmented ring" \
    "closure: allreduce:segmented-ring(segsize=262144)" -b allreduce,size=4,bytes=1048576,mode=persistent
expect_closure "MPI_Iallreduce, large non-commutative: reduce + bcast" \
    "closure: allreduce:reduce-bcast" -b allreduce,size=4,bytes=1048576,op=noncommutative,mode=nonblocking

# ---- descriptions that build ------------------------------------------------------------
expect_closure "a native description names its parameters" \
    "closure: bcast:kary(fanout=4,segsize=8192)" -b bcast "$CONF/closures.scm"
expect_closure "a tree description becomes a tree closure" \
    "closure: reduce:tree(4 ranks,root 0,depth 2,#89f78b4e)" -b reduce "$CONF/closures.scm"
expect_closure "a profiling creator wraps what next builds" \
    "closure: profile(gather:linear)" -b gather "$CONF/closures.scm"
expect_closure "tracing wraps a native description" \
    "closure: trace(scatter:binomial)" -b scatter "$CONF/closures.scm"
expect_closure "a procedure of one argument becomes a Scheme closure" \
    "closure: barrier:scheme(do-nothing) (scheme)" -b barrier "$CONF/closures.scm"
expect_closure "a wrapper may wrap a Scheme closure" \
    "closure: profile(scan:scheme(anonymous)) (scheme)" -b scan "$CONF/closures.scm"
expect_closure "a size-based creator answers small calls itself" \
    "closure: allgather:bruck" -b allgather,size=5,bytes=8 "$CONF/closures.scm"
expect_closure "and passes large ones on to the defaults" \
    "closure: allgather:ring" -b allgather,size=5,bytes=100000 "$CONF/closures.scm"
expect_closure "creators see the communicator's topology (dist-graph: profiled)" \
    "closure: profile(neighbor-alltoall:linear)" -b neighbor-alltoall,topo=dist-graph \
    "$CONF/closures.scm"
expect_closure "creators see the communicator's topology (cart: passed on)" \
    "closure: neighbor-alltoall:linear" -b neighbor-alltoall,topo=cart "$CONF/closures.scm"
expect_closure "examples/allreduce.scm installs a Scheme closure" \
    "closure: allreduce:scheme(rd-allreduce) (scheme)" -b allreduce \
    "$top_srcdir/examples/allreduce.scm"

# ---- descriptions that do not ------------------------------------------------------------
B="$CONF/bad_closures.scm"
expect_error "an unknown algorithm lists the kind's algorithms" \
    "creator magic-bcast (bcast, installed at $B:3:1) returned (native bcast magic): bcast has no native algorithm magic (bcast algorithms: linear binomial" \
    -b bcast,size=8 "$B"
expect_closure "a creator that returns #f declines: the one installed before it answers" \
    "closure: barrier:recursive-doubling" -b barrier,size=2 "$B"
expect_error "a quoted list is a list, not a description: the call that makes one is shown" \
    "creator quoted (allgather, installed at $B:24:1) returned the list (native allgather ring), not a description: call (native 'allgather 'ring) (call: allgather" \
    -b allgather "$B"
expect_error "another value names itself and the call" \
    "creator answers-42 (scatterv, installed at $B:26:1) returned 42, which is not a closure (call: scatterv" \
    -b scatterv "$B"
expect_error "a description for another kind is refused" \
    "creator reduce-for-bcast (reduce, installed at $B:7:1) returned (native bcast linear), a closure for bcast, not for reduce (call: reduce root=0" \
    -b reduce "$B"
expect_error "an algorithm that cannot serve the call says why" \
    "creator always-ring (allreduce, installed at $B:9:1) returned (native allreduce ring): allreduce:ring cannot serve this call: the op user is not commutative" \
    -b allreduce,op=noncommutative "$B"
expect_error "a tree with a cycle is named, with the creator" \
    "creator cyclic (gather, installed at $B:11:1) returned (tree-closure gather TREE): invalid tree: ranks 1, 2 and 3 form a cycle (call: gather root=0" \
    -b gather "$B"
expect_error "a tree with the wrong root" \
    "creator rooted-at-1 (scatter, installed at $B:13:1) returned (tree-closure scatter TREE): invalid tree: the tree has root 1 but the call's root is 0" \
    -b scatter "$B"
expect_error "a tree of the wrong size; the creator that returned it is named" \
    "creator half-tree (bcast, installed at $B:20:1) returned (tree-closure bcast TREE): invalid tree: tree built for 3 ranks, communicator has 4" \
    -b bcast "$B"
expect_error "a bad parameter is a creator error, at the call that passed it" \
    "creator anonymous (scan, installed at $B:15:1) failed at $B:15:45: in native: #:segsize must be a non-negative integer, got: -5" \
    -b scan "$B"
expect_error "a Scheme error in a creator names the creator, the line that failed and the call" \
    "creator fails (exscan, installed at $B:17:1) failed at $B:16:27: in vector-ref: Argument 2 out of range: 0 (call: exscan bytes=8" \
    -b exscan "$B"
expect_error "a neighbourhood algorithm refuses a communicator without a topology" \
    "returned (native neighbor-allgather linear): neighbor-allgather:linear cannot serve this call" \
    -b neighbor-allgather,topo=none
expect_error "a procedure that does not take one argument is not a closure" \
    "creator takes-two (alltoall, installed at $B:22:1) returned a procedure of 2 arguments, which is not a closure" \
    -b alltoall "$B"

# ---- exchange closures: groups and trees checked by the bridge, once -------------------
X="$CONF/bad_exchange.scm"
XC="creator bad-exchange (allreduce, installed at $X:18:1) returned (exchange-closure allreduce 2 groups)"
run -b allreduce,size=4,comm=good "$X"
if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] &&
    grep -q "^closure: allreduce:exchange(4 ranks,2 groups," "$TMP/out"; then
    ok "an exchange closure whose groups and trees fit is built"
else
    not_ok "an exchange closure whose groups and trees fit is built"
    show
fi
expect_error "a rank in two groups" "$XC: rank 1 is in groups 0 and 1 (call: allreduce" \
    -b allreduce,size=3,comm=twice "$X"
expect_error "a rank in no group" "$XC: rank 4 is in no group" -b allreduce,size=5,comm=missing "$X"
expect_error "a rank outside the communicator" "$XC: group 1 holds 7, not a rank of 0..2" \
    -b allreduce,size=3,comm=outside "$X"
expect_error "fewer trees than groups" "$XC: 1 trees for 2 groups" \
    -b allreduce,size=4,comm=fewer "$X"
expect_error "a tree of the wrong size for its group" \
    "$XC: the tree of group 1 (2 3): tree built for 3 ranks" -b allreduce,size=4,comm=size "$X"
expect_error "a tree with a cycle, in its group's positions" \
    "$XC: the tree of group 1 (2 3 4): ranks 1 and 2 form a cycle" \
    -b allreduce,size=5,comm=cycle "$X"
expect_error "not a tree" \
    "returned (exchange-closure allreduce 1 group): the tree of group 0 (0 1): 42 is not a tree of (compi trees)" \
    -b allreduce,size=2,comm=not-a-tree "$X"
expect_error "interleaved groups refuse a non-commutative op, in coll_exchange_validate's words" \
    "$XC: invalid groups: allreduce with the non-commutative op" \
    -b allreduce,size=4,comm=interleaved,op=noncommutative "$X"
expect_error "an exchange closure cannot run nonblocking" \
    "$XC: an exchange closure cannot run nonblocking yet" \
    -b allreduce,size=4,comm=good,mode=nonblocking "$X"

exit $((failed > 0))
