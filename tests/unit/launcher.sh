#!/bin/sh
# launcher.sh -- mpirun as a user sees it: exit statuses, failed ranks taking the job down
# with a clear message, --timeout, --tag-output, stdin, environment, PMI for our client and
# for MPICH's (under our mpirun and under Hydra).  TAP output; every mpirun runs under
# `timeout -k 5 20` so a hang fails a test instead of stalling the suite (KILL after TERM:
# a process that ignores or swallows TERM cannot hold the suite either).

top_builddir=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
MPIRUN="$top_builddir/bin/mpirun"
MPIEXEC="$top_builddir/bin/mpiexec"
PROBE="$top_builddir/tests/unit/pmi_client_probe"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/compi-launcher.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# check DESCRIPTION CONDITION...: evaluates the condition, shows the outputs when it fails
check() {
    desc=$1
    shift
    if "$@"; then
        ok "$desc"
    else
        not_ok "$desc"
        echo "# rc=$rc elapsed=${elapsed}ms"
        sed 's/^/# stdout: /' "$TMP/out" | head -20
        sed 's/^/# stderr: /' "$TMP/err" | head -20
    fi
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# run CMD...: runs it under timeout -k 5 20, stdin from /dev/null unless redirected by the
# caller through run_in; sets rc and elapsed (ms), output in $TMP/out and $TMP/err
run() {
    t0=$(now_ms)
    timeout -k 5 20 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
    elapsed=$(($(now_ms) - t0))
}
run_in() {
    input=$1
    shift
    t0=$(now_ms)
    timeout -k 5 20 "$@" >"$TMP/out" 2>"$TMP/err" <"$input"
    rc=$?
    elapsed=$(($(now_ms) - t0))
}
err_has() { grep -q -- "$1" "$TMP/err"; }
out_lines() { grep -c -- "$1" "$TMP/out"; }

if [ ! -x "$MPIRUN" ] || [ ! -x "$PROBE" ]; then
    echo "1..0 # SKIP mpirun or the probe is not built"
    exit 0
fi

# --- PMI: our client under our mpirun, np 1..8 ------------------------------------------
for np in 1 2 3 4 5 6 7 8; do
    run "$MPIRUN" -np $np "$PROBE"
    check "put/barrier/get of every rank's key at np $np" \
        test $rc -eq 0 -a "$(out_lines '^ok rank')" -eq $np
done

# --- PMI: our client under MPICH's Hydra -------------------------------------------------
if command -v mpiexec.hydra >/dev/null 2>&1; then
    run mpiexec.hydra -n 4 "$PROBE"
    check "our PMI client under mpiexec.hydra -n 4" \
        test $rc -eq 0 -a "$(out_lines '^ok rank')" -eq 4
    run mpiexec.hydra -n 3 "$PROBE" abort 6 "probe gives up"
    check "our abort under mpiexec.hydra ends the job with the code" test $rc -eq 6
else
    skip "our PMI client under mpiexec.hydra" "mpiexec.hydra not installed"
    skip "our abort under mpiexec.hydra" "mpiexec.hydra not installed"
fi

# --- PMI: an MPICH-built program under our mpirun ----------------------------------------
# on MPICH's own library (--keep-lib-path; by default mpirun puts compi's library first,
# tests/abi/mpich_run.sh runs such programs on it): MPICH's PMI client against ours
if command -v mpicc.mpich >/dev/null 2>&1; then
    cat >"$TMP/mh.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int r, s, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    x = r;
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", r, s, x);
    if (r == 0) {
        char v[MPI_MAX_LIBRARY_VERSION_STRING];
        int n;
        MPI_Get_library_version(v, &n);
        printf("library %.20s\n", v);
    }
    fflush(stdout);
    if (argc > 1 && r == atoi(argv[1]))
        MPI_Abort(MPI_COMM_WORLD, 7);
    MPI_Finalize();
    return 0;
}
EOF
    if mpicc.mpich -o "$TMP/mh" "$TMP/mh.c" 2>"$TMP/err"; then
        run "$MPIRUN" --keep-lib-path -np 3 "$TMP/mh"
        check "MPICH-built program runs under our mpirun" \
            test $rc -eq 0 -a "$(out_lines '^rank [0-2] of 3 sum 3$')" -eq 3 \
            -a "$(out_lines '^library MPICH')" -eq 1
        run "$MPIRUN" --keep-lib-path -np 3 "$TMP/mh" 1
        check "MPICH-built program's MPI_Abort ends the job with its code" \
            test $rc -eq 7 -a $elapsed -lt 5000
    else
        skip "MPICH-built program under our mpirun" "mpicc.mpich failed"
        skip "MPICH-built program's MPI_Abort" "mpicc.mpich failed"
    fi
else
    skip "MPICH-built program under our mpirun" "mpicc.mpich not installed"
    skip "MPICH-built program's MPI_Abort" "mpicc.mpich not installed"
fi

# --- exit statuses ----------------------------------------------------------------------
run "$MPIRUN" -np 3 "$PROBE" exit 3
check "a rank's non-zero exit status is mpirun's" test $rc -eq 3
run "$MPIRUN" -np 2 true
check "ranks that never speak PMI and exit 0: status 0" test $rc -eq 0
run "$MPIRUN" -np 2 sh -c 'exit 4'
check "ranks that never speak PMI are judged by exit status" test $rc -eq 4
run "$MPIEXEC" -n 2 "$PROBE" exit 0
check "mpiexec -n works" test $rc -eq 0
run "$MPIRUN" --np 2 "$PROBE" exit 0
check "--np works" test $rc -eq 0

# --- failed ranks take the job down -----------------------------------------------------
run "$MPIRUN" -np 4 "$PROBE" crash 2 9
check "rank killed by SIGKILL: status 137, job down within 3 s" \
    test $rc -eq 137 -a $elapsed -lt 3000
check "rank killed by SIGKILL: message names rank and signal" \
    err_has "rank 2 (pid [0-9]*) was killed by signal 9 (Killed); terminating the job"
run "$MPIRUN" -np 4 "$PROBE" crash 0 11
check "rank killed by SIGSEGV: status 139" test $rc -eq 139 -a $elapsed -lt 3000
run "$MPIRUN" -np 3 "$PROBE" nofinalize 0
check "rank exiting 0 without finalize: non-zero, job down within 3 s" \
    test $rc -ne 0 -a $rc -ne 124 -a $elapsed -lt 3000
check "rank exiting without finalize: message" \
    err_has "exited with status 0 without calling MPI_Finalize; terminating the job"
run "$MPIRUN" -np 3 "$PROBE" abort 5 "bad input file"
check "abort: status is the error code, job down within 3 s" \
    test $rc -eq 5 -a $elapsed -lt 3000
check "abort: message with rank, code and text" \
    err_has "rank 1 aborted the job with error code 5: bad input file"
# a rank that ignores SIGTERM still goes: SIGKILL follows
run "$MPIRUN" -np 2 sh -c 'trap "" TERM; if [ "$PMI_RANK" = 1 ]; then exit 9; fi; sleep 30'
check "a rank ignoring SIGTERM is killed, status of the failed rank" \
    test $rc -eq 9 -a $elapsed -lt 4000

# --- timeout and signals ----------------------------------------------------------------
run "$MPIRUN" --timeout 1 -np 3 "$PROBE" sleep 30
check "--timeout: status 124 after about 1 s" test $rc -eq 124 -a $elapsed -lt 4000
check "--timeout: message" err_has "job timed out after 1 s; killing 3 ranks"
t0=$(now_ms)
timeout -k 5 20 "$MPIRUN" -np 2 "$PROBE" sleep 30 >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
elapsed=$(($(now_ms) - t0))
check "SIGINT to mpirun: job killed, status 130" test $rc -eq 130 -a $elapsed -lt 5000

# --- output and input -------------------------------------------------------------------
run "$MPIRUN" --tag-output -np 3 "$PROBE" lines 500
check "--tag-output: every stdout line tagged, none lost (incl. last partial line)" \
    test $rc -eq 0 -a "$(out_lines '^\[1,[0-2]\]<stdout>:out [0-9]* from rank [0-2]$')" -eq 1500 \
    -a "$(out_lines '^\[1,[0-2]\]<stdout>:partial from rank [0-2]$')" -eq 3 \
    -a "$(wc -l <"$TMP/out")" -eq 1503
check "--tag-output: stderr lines tagged <stderr>" \
    test "$(grep -c '^\[1,[0-2]\]<stderr>:err [0-9]* from rank [0-2]$' "$TMP/err")" -eq 1500
run "$MPIRUN" --tag-output -np 2 "$PROBE" env PMI_RANK
check "--tag-output: prefix carries the rank" \
    test "$(out_lines '^\[1,1\]<stdout>:rank 1 PMI_RANK=1$')" -eq 1
printf 'line one\nline two\n' >"$TMP/in"
run_in "$TMP/in" "$MPIRUN" -np 3 "$PROBE" echo-stdin
check "stdin reaches rank 0 (once)" \
    test $rc -eq 0 -a "$(out_lines '^line one$')" -eq 1 -a "$(out_lines '^line two$')" -eq 1
run_in "$TMP/in" "$MPIRUN" -np 2 sh -c '[ "$PMI_RANK" = 0 ] || cat'
check "other ranks read /dev/null" test $rc -eq 0 -a ! -s "$TMP/out"

# --- environment ------------------------------------------------------------------------
export COMPI_TEST_X=from-mpirun
run "$MPIRUN" -np 2 -x COMPI_TEST_X "$PROBE" env COMPI_TEST_X
check "-x VAR exports it" test "$(out_lines 'COMPI_TEST_X=from-mpirun$')" -eq 2
run "$MPIRUN" -np 1 -x COMPI_TEST_Y=given "$PROBE" env COMPI_TEST_Y
check "-x VAR=value sets it" test "$(out_lines 'COMPI_TEST_Y=given$')" -eq 1
run "$MPIRUN" -np 1 --mca pml_verbose 5 "$PROBE" env COMPI_MCA_pml_verbose
check "--mca NAME VALUE sets COMPI_MCA_NAME" test "$(out_lines 'COMPI_MCA_pml_verbose=5$')" -eq 1
COMPI_COLL_CONFIG=/a.scm
export COMPI_COLL_CONFIG
run "$MPIRUN" -np 1 --coll-config /b.scm --coll-config /c.scm "$PROBE" env COMPI_COLL_CONFIG
unset COMPI_COLL_CONFIG
check "--coll-config appends to COMPI_COLL_CONFIG" \
    test "$(out_lines 'COMPI_COLL_CONFIG=/a.scm:/b.scm:/c.scm$')" -eq 1
cores=$(nproc)
run "$MPIRUN" -np $((cores + 1)) --oversubscribe "$PROBE" env COMPI_OVERSUBSCRIBED
check "more ranks than cores: COMPI_OVERSUBSCRIBED=1" \
    test $rc -eq 0 -a "$(out_lines 'COMPI_OVERSUBSCRIBED=1$')" -eq $((cores + 1))
run "$MPIRUN" -np 2 "$PROBE" env COMPI_JOBID
check "COMPI_JOBID is set, the same on every rank" \
    test "$(grep -o 'COMPI_JOBID=compi\.[0-9]*\.[0-9a-f]*$' "$TMP/out" | sort -u | wc -l)" -eq 1
run "$MPIRUN" -np 1 sh -c 'touch "/dev/shm/$COMPI_JOBID.test"; echo "$COMPI_JOBID"; kill -9 $$'
jobid=$(cat "$TMP/out")
check "/dev/shm/<jobid>* files are removed after a crash" \
    test -n "$jobid" -a ! -e "/dev/shm/$jobid.test"

# --- usage errors -----------------------------------------------------------------------
run "$MPIRUN" -np 2 "$TMP/no-such-program"
check "missing program: non-zero status" test $rc -ne 0 -a $rc -ne 124
check "missing program: message names it and the reason" \
    err_has "cannot execute '$TMP/no-such-program': No such file or directory"
check "missing program: said once" test "$(grep -c 'cannot execute' "$TMP/err")" -eq 1
bad_option_ok() {
    test $rc -eq 1 && err_has "unknown option '--no-such-option'" && err_has "--help"
}
status_and_out() { test $rc -eq 0 && grep -q -- "$1" "$TMP/out"; }
run "$MPIRUN" --no-such-option -np 1 true
check "unknown option: status 1 and a usage hint" bad_option_ok
run "$MPIRUN" --help
check "--help prints usage" status_and_out '^Usage:'
run "$MPIRUN" --version
check "--version" status_and_out 'compi'

echo "1..$n"
[ $failed -eq 0 ]
