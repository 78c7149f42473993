#!/bin/bash
# run-osu-rma.sh: OSU Micro-Benchmarks 7.4's one-sided (RMA) benchmarks, built unmodified
# as a user would build them, for compi, Open MPI and MPICH side by side at 2 ranks, with
# every synchronization mode each benchmark offers.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. builds OSU with each MPI's compilers into bench/build/osu/<mpi>/ (bench/osu.sh,
#      shared with run-osu.sh and run-osu-coll.sh)
#   3. runs, ROUNDS times with the order of the MPIs rotating every round, each benchmark
#      in BENCHES with each synchronization in SYNCS that it accepts (`-s`; osu_put_bibw
#      takes only fence and pscw) and each window creation (`-w`) of its list: WINDOWS for
#      osu_put_latency and osu_get_latency, OTHER_WINDOWS for the rest; OSU's own
#      iteration counts, sizes 1 B to MAX_SIZE (osu_acc_latency and osu_get_acc_latency
#      to ACC_MAX_SIZE; osu_fop_latency and osu_cas_latency time one element and take no
#      size), every run under `timeout` at NP ranks, rank r pinned to core r mod ncores
#      (bench/bind-rank.sh; launchers are told not to bind)
#   4. writes bench/results/: osu-rma.csv (every round and size; a failed run is a row
#      without size and value), osu-rma-median.csv (median over rounds, compi against the
#      best peer and whether the target is met), osu-rma.png (one
#      log-log panel per benchmark and synchronization) and osu-rma-summary.txt (machine,
#      command, every row, the rows that miss the target, the failed runs)
#
# Target, medians: every row at or below the best peer's (compi's time / the best
# peer's <= 1.0; for bandwidth the peer's bandwidth / compi's).  A missed target is
# reported, not failed.  A run of Open MPI or MPICH that fails (a synchronization mode it
# does not support, a timeout) is reported too.  Exit status: 1 when a run of compi failed
# or timed out, 0 otherwise.
#
# Usage: bench/run-osu-rma.sh [--quick] [--no-install] [--rebuild]
#   --quick       1 round, sizes up to 4 KiB, a tenth of OSU's iterations: checks the pipeline
#   --no-install  never call apt-get (fails if something is missing)
#   --rebuild     build OSU again even when bench/build/osu/<mpi>/ is up to date
# Environment:
#   COMPI_PREFIX   where compi's mpicc and mpirun are: $COMPI_PREFIX/bin/ or $COMPI_PREFIX/
#                  (default: <repo>/_build, where scripts/build.sh builds)
#   MPIS           implementations (default "omp mpich omp5 mpich5 compi")
#   NP             rank count (default 2; OSU's one-sided benchmarks need exactly 2)
#   ROUNDS         rounds (default 3)
#   MAX_SIZE       OSU's -m, the largest message (1048576)
#   ACC_MAX_SIZE   the largest of osu_acc_latency and osu_get_acc_latency (65536: MPICH
#                  takes about 30 s a run for their sizes from 128 KiB to 1 MiB)
#   BENCHES        benchmark names (default: the nine below)
#   SYNCS          synchronizations (default "lock flush flush_local lock_all pscw fence")
#   WINDOWS        window creations of osu_put_latency and osu_get_latency (default
#                  "create allocate"; OSU also has dynamic)
#   OTHER_WINDOWS  window creations of the other benchmarks (default "allocate", OSU's)
#   RUN_TIMEOUT    seconds per run (default 120)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/osu

bench_script_args --with-rebuild "$@"

iter_args=()
if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} MAX_SIZE=${MAX_SIZE:-4096} ACC_MAX_SIZE=${ACC_MAX_SIZE:-4096}
    iter_args=(-i 100 -x 10)
fi
ROUNDS=${ROUNDS:-3}
MAX_SIZE=${MAX_SIZE:-1048576}
ACC_MAX_SIZE=${ACC_MAX_SIZE:-65536}
NP=${NP:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
BENCHES=${BENCHES:-osu_put_latency osu_get_latency osu_put_bw osu_get_bw osu_put_bibw
 osu_acc_latency osu_fop_latency osu_cas_latency osu_get_acc_latency}
SYNCS=${SYNCS:-lock flush flush_local lock_all pscw fence}
WINDOWS=${WINDOWS:-create allocate}
OTHER_WINDOWS=${OTHER_WINDOWS:-allocate}

. "$here/lib.sh"
. "$here/osu.sh"

# the synchronizations of SYNCS a benchmark accepts (its -h): osu_put_bibw is
# active-target only
bench_syncs() {
    local s
    for s in $SYNCS; do
        case $1 in
        osu_put_bibw) case $s in pscw | fence) echo "$s" ;; esac ;;
        *) echo "$s" ;;
        esac
    done
}
bench_windows() {
    case $1 in
    osu_put_latency | osu_get_latency) echo "$WINDOWS" ;;
    *) echo "$OTHER_WINDOWS" ;;
    esac
}
# OSU's -m: the atomics (fop, cas) time one element and take none
bench_args() {
    case $1 in
    osu_fop_latency | osu_cas_latency) ;;
    osu_acc_latency | osu_get_acc_latency) echo "-m 1:$ACC_MAX_SIZE" ;;
    *) echo "-m 1:$MAX_SIZE" ;;
    esac
}
bench_unit() { case $1 in *_bw | *_bibw) echo MB/s ;; *) echo us ;; esac; }

mkdir -p "$build/raw" "$results"
rm -f "$results/osu-rma.csv" "$results/osu-rma-median.csv" "$results/osu-rma.png" \
    "$results/osu-rma-summary.txt"

# --- 2. build OSU with each MPI (bench/osu.sh) ------------------------------------
bench_build "omp mpich omp5 mpich5 compi" build_osu
for b in $BENCHES; do
    [ -x "$build/${active[0]}/$OSU/c/mpi/one-sided/$b" ] ||
        die "BENCHES: no OSU program '$b' in c/mpi/one-sided"
done
for s in $SYNCS; do
    case $s in lock | flush | flush_local | lock_all | pscw | fence) ;;
    *) die "unknown synchronization '$s' in SYNCS" ;; esac
done
for w in $WINDOWS $OTHER_WINDOWS; do
    case $w in create | allocate | dynamic) ;;
    *) die "unknown window creation '$w' (create, allocate, dynamic)" ;; esac
done

# --- 3. run ---------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/osu-rma.csv
echo "mpi,benchmark,sync,window,np,size,value,unit,round" >"$csv"
failures=()
compi_failed=0
rma_run() { # round mpi benchmark sync window
    local r=$1 mpi=$2 b=$3 s=$4 w=$5 rc=0 raw=$build/raw/rma-$2-$3-$4-$5-np$NP-r$1
    # shellcheck disable=SC2046 # OSU's -m is words
    osu_run "$mpi" "$raw" "one-sided/$b" -s "$s" -w "$w" $(bench_args "$b") "${iter_args[@]}" ||
        rc=$?
    osu_rows <"$raw.out" | sed "s|^|$mpi,$b,$s,$w,$NP,|; s|\$|,$(bench_unit "$b"),$r|" >"$raw.csv"
    if ! osu_result "$raw" "$rc" "$mpi $b -s $s -w $w" "$r"; then
        echo "$mpi,$b,$s,$w,$NP,,,failed (exit $rc),$r" >>"$raw.csv"
        [ "$mpi" != compi ] || compi_failed=1
    fi
    cat "$raw.csv" >>"$csv"
}
rma_cells() {
    local b s w
    for b in $BENCHES; do
        for s in $(bench_syncs "$b"); do
            for w in $(bench_windows "$b"); do echo "$b $s $w"; done
        done
    done
}
bench_rounds active "$(rma_cells)" rma_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
mkdir -p "$build/plot-rma"
rm -f "$build/plot-rma/"*.dat
title="OSU 7.4 one-sided at np $NP on $(hostname) ($ncores cores), median of $ROUNDS round(s)"
stats=$(/usr/bin/python3 "$here/osu-rma-summary.py" "$csv" "$results/osu-rma-median.csv" \
    "$build/plot-rma" "$results/osu-rma.png" "$title")
if [ -s "$build/plot-rma/osu-rma.gp" ]; then
    gnuplot "$build/plot-rma/osu-rma.gp" || say "gnuplot failed; no osu-rma.png"
fi

{
    echo "OSU Micro-Benchmarks 7.4: one-sided communication (bench/run-osu-rma.sh)"
    echo
    osu_machine
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with NP=$NP ROUNDS=$ROUNDS MAX_SIZE=$MAX_SIZE ACC_MAX_SIZE=$ACC_MAX_SIZE" \
        "RUN_TIMEOUT=$RUN_TIMEOUT MPIS=\"$MPIS\""
    echo "       COMPI_PREFIX=$COMPI_PREFIX"
    echo "       SYNCS=\"$SYNCS\" WINDOWS=\"$WINDOWS\" OTHER_WINDOWS=\"$OTHER_WINDOWS\""
    echo "  each run: timeout -k 5 $RUN_TIMEOUT LAUNCHER bench/bind-rank.sh PROGRAM -s SYNC" \
        "-w WINDOW -m 1:$MAX_SIZE ${iter_args[*]}"
    echo "            (osu_acc_latency, osu_get_acc_latency -m 1:$ACC_MAX_SIZE;" \
        "osu_fop_latency, osu_cas_latency no -m)"
    echo "  order:    rotated each round (round 1: ${active[*]})"
    echo
    osu_implementations
    echo
    echo "$stats"
    if [ ${#failures[@]} -gt 0 ]; then
        echo
        echo "Failed runs, with the last line of their stderr"
        for f in "${failures[@]}"; do echo "  $f"; done
    fi
    echo
    echo "Files: osu-rma.csv (every round), osu-rma-median.csv (medians, ratios, target),"
    echo "osu-rma.png; raw OSU output in bench/build/osu/raw/rma-*"
} >"$results/osu-rma-summary.txt"
cat "$results/osu-rma-summary.txt"
[ $compi_failed = 0 ] || exit 1
