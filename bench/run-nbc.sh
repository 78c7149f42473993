#!/bin/bash
# run-nbc.sh: the latency of small blocking collectives, the latency of the nonblocking
# MPI_Iallreduce and MPI_Ibcast from 8 B to 1 MiB, and how much computation they let a
# rank overlap, for compi, Open MPI and MPICH side by side, with OSU Micro-Benchmarks 7.4.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. builds OSU 7.4 unmodified with each MPI's compilers (bench/osu.sh; shared with
#      run-osu.sh, in bench/build/osu/<mpi>/)
#   3. runs ROUNDS rounds; in each, for every rank count and benchmark, every MPI once,
#      their order rotating every round so drift of the machine falls on all of them:
#        osu_allreduce, osu_bcast  -m 8:8                 blocking 8 B latency
#        osu_barrier                                      blocking barrier latency
#        osu_iallreduce, osu_ibcast -m 8:MAX_SIZE -t 10   nonblocking latency and overlap
#      OSU's nonblocking benchmarks first time the collective alone ("Pure Comm."), then
#      start it, compute for as long as it took, split in 10 pieces with an MPI_Test after
#      each (-t 10), and wait: Overlap(%) = the share of the compute time that did not
#      add to the collective's ("Overall") time.  Each run under `timeout`.
#   4. writes bench/results/: nbc.csv (every round, every size), nbc-summary.txt
#      (machine, command; medians over rounds; compi's ratio to the best peer, and the
#      overlap of each) and nbc.png (nonblocking latency and overlap
#      against size)
#
# Usage: bench/run-nbc.sh [--quick] [--no-install] [--rebuild]
#   --quick       1 round, sizes to 64 KiB, fewer iterations: checks the pipeline only
#   --no-install  never call apt-get (fails if something is missing)
#   --rebuild     build OSU again even when bench/build/osu/<mpi>/ is up to date
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are: $COMPI_PREFIX/bin/ or $COMPI_PREFIX/
#                 (default: <repo>/_build, where scripts/build.sh builds)
#   MPIS          implementations (default "omp mpich omp5 mpich5 compi")
#   NPS           rank counts (default "2 4")
#   ROUNDS        rounds (default 5); ITERS, WARMUP: OSU's -i and -x (default 200, 20)
#   MAX_SIZE      the largest nonblocking message in bytes (default 1048576)
#   RUN_TIMEOUT   seconds per run (default 120)
#   OVERSUB_MPIS  the MPIs that also run with more ranks than cores (default "omp mpich
#                 compi"); MPICH busy-polls, and its osu_iallreduce at 4 ranks on 2 cores
#                 does not finish in RUN_TIMEOUT: OVERSUB_MPIS="omp compi" skips it there
#
# Binding as in run-coll.sh: launchers are told not to bind and bench/bind-rank.sh pins
# rank r to core r mod ncores.  With more ranks than cores the numbers mostly show how a
# library waits (MPICH busy-polls): the summary says so for those rank counts.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/osu

bench_script_args --with-rebuild "$@"

if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} MAX_SIZE=${MAX_SIZE:-65536} ITERS=${ITERS:-50} WARMUP=${WARMUP:-5}
fi
ROUNDS=${ROUNDS:-5}
ITERS=${ITERS:-200}
WARMUP=${WARMUP:-20}
MAX_SIZE=${MAX_SIZE:-1048576}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
NPS=${NPS:-2 4}
OVERSUB_MPIS=${OVERSUB_MPIS:-omp mpich compi}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$here/lib.sh"
. "$here/osu.sh"

mkdir -p "$build/raw-nbc" "$build/plot-nbc" "$results"
rm -f "$results/nbc.csv" "$results/nbc.png" "$results/nbc-summary.txt"
failures=()
bench_build "omp mpich omp5 mpich5 compi" build_osu
for why in "${skipped[@]}"; do failures+=("$why"); done

# benchmark -> "directory|arguments"
declare -A SPEC=(
    [osu_allreduce]="blocking|-m 8:8"
    [osu_bcast]="blocking|-m 8:8"
    [osu_barrier]="blocking|"
    [osu_iallreduce]="non_blocking|-m 8:$MAX_SIZE -t 10"
    [osu_ibcast]="non_blocking|-m 8:$MAX_SIZE -t 10"
)
BENCHES="osu_allreduce osu_bcast osu_barrier osu_iallreduce osu_ibcast"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/nbc.csv
echo "mpi,benchmark,np,round,size,avg_latency_us,overall_us,compute_us,pure_comm_us,overlap_pct" >"$csv"
nbc_run() { # round mpi np benchmark
    local r=$1 mpi=$2 np=$3 b=$4 dir extra prog raw=$build/raw-nbc/$2-$4-np$3-r$1
    dir=${SPEC[$b]%%|*}
    read -r -a extra <<<"${SPEC[$b]#*|}"
    if [ "$np" -gt "$ncores" ] && [[ " $OVERSUB_MPIS " != *" $mpi "* ]]; then
        return 0
    fi
    prog=$build/$mpi/$OSU/c/mpi/collective/$dir/$b
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "$mpi np $np $b round $r" $(launcher "$mpi" "$np") "$here/bind-rank.sh" \
        "$prog" -i "$ITERS" -x "$WARMUP" "${extra[@]}" || return 0
    # OSU's columns -> ours: drop the topology and validation, add the round
    parse "$mpi" "$b" "$np" - <"$raw.out" |
        awk -F, -v OFS=, -v r="$r" '{ print $1, $2, $3, r, $5, $6, $7, $8, $9, $10 }' >>"$csv"
    say "round $r/$ROUNDS: $mpi np $np $b"
}
bench_rounds active "$(for np in $NPS; do for b in $BENCHES; do echo "$np $b"; done; done)" nbc_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
title="OSU 7.4 on $(hostname) ($ncores cores), median over $ROUNDS round(s)"
stats=$(/usr/bin/python3 "$here/nbc-summary.py" "$csv" "$build/plot-nbc" \
    "$results/nbc.png" "$title")
if [ -s "$build/plot-nbc/nbc.gp" ]; then
    gnuplot "$build/plot-nbc/nbc.gp" || say "gnuplot failed; no nbc.png"
fi

{
    echo "Blocking and nonblocking collective latency and overlap, OSU 7.4 (bench/run-nbc.sh)"
    echo
    machine_section
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS NPS=\"$NPS\" ITERS=$ITERS WARMUP=$WARMUP MAX_SIZE=$MAX_SIZE" \
        "RUN_TIMEOUT=$RUN_TIMEOUT MPIS=\"$MPIS\" OVERSUB_MPIS=\"$OVERSUB_MPIS\"" \
        "COMPI_PREFIX=$COMPI_PREFIX"
    echo "  each run: timeout -k 10 $RUN_TIMEOUT LAUNCHER bench/bind-rank.sh PROGRAM" \
        "-i $ITERS -x $WARMUP ARGS"
    for b in $BENCHES; do echo "    $b: ARGS = ${SPEC[$b]#*|}"; done
    echo
    echo "Implementations (OSU unpacked from $OSU_TARBALL, unmodified, into bench/build/osu/<mpi>/)"
    for mpi in "${active[@]}"; do
        echo "  $(mpi_name "$mpi"): ./configure $(conf_args "$mpi") && make"
        for np in $NPS; do echo "    launcher: $(launcher "$mpi" "$np")"; done
    done
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    echo "  order:    rotated each round (round 1: ${active[*]})"
    for np in $NPS; do
        if [ "$np" -gt "$ncores" ]; then
            echo "  NOTE:     $np ranks on $ncores cores share cores: those runs measure how a"
            echo "            library waits (spinning or yielding) as much as its algorithms"
            for mpi in "${active[@]}"; do
                [[ " $OVERSUB_MPIS " == *" $mpi "* ]] ||
                    echo "            $(mpi_name "$mpi") not run at $np ranks (OVERSUB_MPIS)"
            done
        fi
    done
    echo
    echo "$stats"
    failures_section
    echo
    echo "Files: nbc.csv (every round and size), nbc.png; raw OSU output in bench/build/osu/raw-nbc/"
} >"$results/nbc-summary.txt"
cat "$results/nbc-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
