#!/bin/sh
# scheme_closures.sh -- Scheme closures at run time, through mpirun: the allreduce of
# examples/allreduce.scm (recursive doubling in Scheme) gives right results at np 1 to 8,
# powers of two or not, for SUM, MAX, in place and a non-commutative op on a derived
# datatype; a Scheme closure that fails takes the job down with one message naming the
# closure, its creator and the call, quickly.  TAP output; each run has a time limit.

. "$(dirname "$0")/lib.sh"
MPIRUN="$top_builddir/bin/mpirun"
PROG="$top_builddir/tests/scheme/scheme_allreduce"
CONF="$top_srcdir/tests/scheme/configs"
EXAMPLE="$top_srcdir/examples/allreduce.scm"
sandbox compi-scheme

# mpi NP CONFIG SECONDS: runs the program; rc, output in $TMP/out and $TMP/err
mpi() {
    COMPI_COLL_CONFIG=$2 timeout "$3" "$MPIRUN" -np "$1" --mca coll_verbose 1 "$PROG" \
        >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}

echo "1..10"

for np in 1 2 3 4 5 6 7 8; do
    mpi $np "$EXAMPLE" 120
    if [ "$rc" -eq 0 ] && grep -qx "ok" "$TMP/out" &&
        grep -q "allreduce:scheme(rd-allreduce) (Scheme closure" "$TMP/err"; then
        ok "examples/allreduce.scm: right results at np $np, through the Scheme closure"
    else
        not_ok "examples/allreduce.scm: right results at np $np, through the Scheme closure"
        show 10
    fi
done

start=$(date +%s)
mpi 2 "$CONF/closure_raises.scm" 20
want="Scheme closure allreduce:scheme(overrun) (creator overrunning-allreduce (allreduce, installed at $CONF/closure_raises.scm:5:1)"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ $(($(date +%s) - start)) -le 10 ] &&
    grep -qF "$want" "$TMP/err" &&
    grep -qF "failed: at $CONF/closure_raises.scm:3:3: in buffer-isend: elements 0..1 are outside the buffer (0 elements) (call: allreduce" "$TMP/err"; then
    ok "a failing Scheme closure takes the job down, naming the closure, creator, failing line and call"
else
    not_ok "a failing Scheme closure takes the job down, naming the closure, creator, failing line and call"
    show 10
fi
mpi 2 "$CONF/closure_leaves.scm" 20
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] &&
    grep -qF "failed: it returned with 1 request not waited for" "$TMP/err"; then
    ok "a Scheme closure that leaves a request behind is an error, not a hang"
else
    not_ok "a Scheme closure that leaves a request behind is an error, not a hang"
    show 10
fi

exit $((failed > 0))
