#!/bin/bash
# run-coll.sh: collective latency of compi, Open MPI and MPICH on this machine, and the
# trampoline micro-benchmark.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. builds bench/coll.c three times, with each MPI's mpicc, into bench/build/coll/
#   3. runs it at 2 and 4 ranks, several rounds, the order of the MPIs rotating every
#      round so that drift of the machine falls on all of them; each MPI uses its own
#      default collective selection
#   4. writes bench/results/: coll.csv (every round), coll-median.csv (folded over
#      rounds), coll.png (one panel per collective) and coll-summary.txt (machine,
#      command, the latency goals at 2 ranks: compi against the best of the others)
#   5. runs bench/run-tramp.sh (trampoline hit and miss cost, MPI_Init and Guile start-up
#      time: bench/results/tramp.txt) unless --no-tramp is given
#
# Usage: bench/run-coll.sh [--quick] [--no-install] [--no-tramp]
#   --quick       1 round, 2 trials, a tenth of the iterations: checks the pipeline only
#   --no-install  never call apt-get (fails if something is missing)
#   --no-tramp    skip step 5
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are: $COMPI_PREFIX/bin/ or $COMPI_PREFIX/
#                 (default: <repo>/_build, where scripts/build.sh builds)
#   MPIS          implementations to run (default "omp mpich omp5 mpich5 compi"; add "base" for compi
#                 at an earlier revision, COMPI_BASE_PREFIX=$(bench/build-base.sh REV))
#   NPS           rank counts (default "2 4")
#   ROUNDS        rounds (default 3); TRIALS: trials per run (default 5)
#   ITER_SCALE    iteration multiplier (default 1); RUN_TIMEOUT: seconds per run (240)
#
# Binding is the only setting imposed on every MPI, as in run-p2p.sh: launchers are told
# not to bind and bench/bind-rank.sh pins rank r to core r mod ncores.  With more ranks
# than cores, Open MPI also needs --oversubscribe to start at all.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/coll

quick=0
install=1
tramp=1
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --no-install) install=0 ;;
    --no-tramp) tramp=0 ;;
    -h | --help)
        usage
        exit 0
        ;;
    *) bad_arg "$arg" ;;
    esac
done

if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} TRIALS=${TRIALS:-2} ITER_SCALE=${ITER_SCALE:-0.1}
fi
ROUNDS=${ROUNDS:-3}
TRIALS=${TRIALS:-5}
ITER_SCALE=${ITER_SCALE:-1}
RUN_TIMEOUT=${RUN_TIMEOUT:-240}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
NPS=${NPS:-2 4}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$(dirname "$0")/lib.sh"

rm -rf "$build"
mkdir -p "$build/raw" "$build/plot" "$results"
# A failed run must not leave the previous run's plot or summary looking current.
rm -f "$results/coll.csv" "$results/coll-median.csv" "$results/coll.png" \
    "$results/coll-summary.txt"
bench_build "omp mpich omp5 mpich5 compi base" bench_programs coll

# --- 3. run ---------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)

csv=$results/coll.csv
echo "mpi,np,collective,bytes,median_usec,min_usec,max_usec,iters,round" >"$csv"
failures=()
coll_run() { # round mpi np
    local r=$1 mpi=$2 np=$3 raw=$build/raw/$2-np$3-r$1
    say "round $r/$ROUNDS: $mpi at $np ranks"
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "$mpi np $np round $r" $(launcher "$mpi" "$np") "$here/bind-rank.sh" \
        "$build/$mpi/coll" -t "$TRIALS" -i "$ITER_SCALE" || return 0
    # program: collective,np,bytes,...  csv: mpi,np,collective,bytes,...,round
    grep -E '^(barrier|bcast|reduce|allreduce|allgather|alltoall),' "$raw.out" |
        awk -F, -v OFS=, -v m="$mpi" -v r="$r" \
            '{ c = $1; $1 = $2; $2 = c; print m, $0, r }' >>"$csv" ||
        failures+=("$mpi np $np round $r: no data lines")
}
bench_rounds active "$(printf '%s\n' $NPS)" coll_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
title="collective latency on $(hostname) ($ncores cores), median over $ROUNDS round(s)"
title+=" of $TRIALS trials; solid: 2 ranks, dashed: 4 ranks"
stats=$(/usr/bin/python3 "$here/coll-summary.py" "$csv" "$results/coll-median.csv" \
    "$build/plot" "$results/coll.png" "$title")
if [ -s "$build/plot/coll.gp" ]; then
    gnuplot "$build/plot/coll.gp" || say "gnuplot failed; no coll.png"
else
    say "no complete data to plot"
fi

lib_of() { sed -n 's/^# library: //p' "$build/raw/$1"-np*-r1.out 2>/dev/null | head -1; }
{
    echo "compi collective comparison (bench/run-coll.sh)"
    echo
    machine_section \
        "the benchmark's own busy ranks add 2 to 4; more means other work" \
        "shared the cores and the numbers are noisier than they should be"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS TRIALS=$TRIALS ITER_SCALE=$ITER_SCALE RUN_TIMEOUT=$RUN_TIMEOUT" \
        "NPS=\"$NPS\" MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo
    echo "Implementations (each run as:" \
        "LAUNCHER bench/bind-rank.sh coll -t $TRIALS -i $ITER_SCALE)"
    for mpi in "${active[@]}"; do
        echo "  $(mpi_name "$mpi"):"
        echo "    library:  $(lib_of "$mpi")"
        echo "    compiler: ${CC[$mpi]} -O2"
        for np in $NPS; do
            echo "    launcher: $(launcher "$mpi" "$np")"
        done
        echo "    colls:    the library's default selection (nothing set)"
    done
    implementations_end
    for np in $NPS; do
        if [ "$np" -gt "$ncores" ]; then
            echo "  NOTE:     $np ranks on $ncores cores share cores: those runs measure how a"
            echo "            library waits (spinning or yielding) as much as its algorithms;"
            echo "            a library that spins loses a scheduler slice (ms) per message"
        fi
    done
    echo
    echo "Method"
    echo "  each run: latency = max over ranks of the per-rank average over back-to-back"
    echo "  calls; median over $TRIALS trials.  Sizes: 8 B to 1 MiB (per rank for allgather,"
    echo "  per pair for alltoall); reduce and allreduce sum MPI_FLOATs; roots are rank 0."
    echo "  below: median over the $ROUNDS rounds of those per-run medians"
    echo
    echo "$stats"
    failures_section
    echo
    echo "Files: coll.csv (every round), coll-median.csv (over rounds), coll.png (plot)"
} >"$results/coll-summary.txt"

cat "$results/coll-summary.txt"

# --- 5. trampoline micro-benchmark ------------------------------------------------------
if [ $tramp = 1 ]; then
    if [[ " ${active[*]} " == *" compi "* ]]; then
        say "trampoline micro-benchmark (bench/run-tramp.sh)"
        tramp_args=()
        [ $quick = 0 ] || tramp_args+=(--quick)
        [ $install = 1 ] || tramp_args+=(--no-install)
        "$here/run-tramp.sh" "${tramp_args[@]}" || failures+=("run-tramp.sh")
    else
        say "no compi build: trampoline micro-benchmark skipped"
    fi
fi
[ ${#failures[@]} = 0 ] || exit 1
