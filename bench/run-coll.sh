#!/bin/bash
# run-coll.sh: collective latency of compi, Open MPI and MPICH on this machine, and the
# trampoline micro-benchmark.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing
#   2. builds bench/coll.c three times, with each MPI's mpicc, into bench/build/coll/
#   3. runs it at 2 and 4 ranks, several rounds, the order of the MPIs rotating every
#      round so that drift of the machine falls on all of them; each MPI uses its own
#      default collective selection
#   4. writes bench/results/: coll.csv (every round), coll-median.csv (folded over
#      rounds), coll.png (one panel per collective) and coll-summary.txt (machine,
#      command, the latency goals at 2 ranks: compi against the better of the others)
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
#   MPIS          implementations to run (default "omp mpich compi"; add "base" for compi
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
repo=$(dirname "$here")
. "$here/common.sh"
build=$here/build/coll
results=$here/results
invocation="$0 $*"

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
MPIS=${MPIS:-omp mpich compi}
NPS=${NPS:-2 4}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$(dirname "$0")/lib.sh"

rm -rf "$build"
mkdir -p "$build/raw" "$build/plot" "$results"
# A failed run must not leave the previous run's plot or summary looking current.
rm -f "$results/coll.csv" "$results/coll-median.csv" "$results/coll.png" \
    "$results/coll-summary.txt"
active=()
skipped=()
for mpi in $MPIS; do
    case $mpi in
    omp | mpich | compi) ;;
    base) [ -n "$base_bin" ] || die "MPIS names base but COMPI_BASE_PREFIX is not set" ;;
    *) die "unknown implementation '$mpi' in MPIS (omp, mpich, compi, base)" ;;
    esac
    if [ "$mpi" = compi ] && [ -z "$compi_bin" ]; then
        say "compi: SKIPPED, no mpicc and mpirun in $COMPI_PREFIX/bin or $COMPI_PREFIX" \
            "(build compi first, or set COMPI_PREFIX)"
        skipped+=("compi (no mpicc/mpirun under $COMPI_PREFIX)")
        continue
    fi
    mkdir -p "$build/$mpi"
    if ! ${CC[$mpi]} -O2 -o "$build/$mpi/coll" "$here/coll.c" "$here/bench_common.c" \
        >>"$build/$mpi/build.log" 2>&1; then
        [ "$mpi" = compi ] || die "$mpi: build failed, see $build/$mpi/build.log"
        say "compi: SKIPPED, build failed (see $build/compi/build.log):"
        tail -5 "$build/compi/build.log" >&2
        skipped+=("compi (build failed)")
        continue
    fi
    say "$mpi: built with ${CC[$mpi]}"
    active+=("$mpi")
done
[ ${#active[@]} -gt 0 ] || die "nothing to run"

# --- 3. run ---------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)

csv=$results/coll.csv
echo "mpi,np,collective,bytes,median_usec,min_usec,max_usec,iters,round" >"$csv"
failures=()
n=${#active[@]}
for ((r = 1; r <= ROUNDS; r++)); do
    for np in $NPS; do
        for ((k = 0; k < n; k++)); do
            mpi=${active[$(((k + r - 1) % n))]}
            raw=$build/raw/$mpi-np$np-r$r
            say "round $r/$ROUNDS: $mpi at $np ranks"
            rc=0
            timeout -k 10 "$RUN_TIMEOUT" $(launcher "$mpi" "$np") "$here/bind-rank.sh" \
                "$build/$mpi/coll" -t "$TRIALS" -i "$ITER_SCALE" >"$raw.out" 2>"$raw.err" \
                </dev/null || rc=$?
            if [ $rc != 0 ]; then
                say "$mpi np $np round $r FAILED (exit $rc; 124 = timeout), see $raw.err"
                tail -3 "$raw.err" >&2 || true
                failures+=("$mpi np $np round $r: exit $rc")
                continue
            fi
            # program: collective,np,bytes,...  csv: mpi,np,collective,bytes,...,round
            grep -E '^(barrier|bcast|reduce|allreduce|allgather|alltoall),' "$raw.out" |
                awk -F, -v OFS=, -v m="$mpi" -v r="$r" \
                    '{ c = $1; $1 = $2; $2 = c; print m, $0, r }' >>"$csv" ||
                failures+=("$mpi np $np round $r: no data lines")
        done
    done
done
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

names() { case $1 in omp) echo "Open MPI" ;; mpich) echo MPICH ;; base) echo "compi-base ($COMPI_BASE_PREFIX)" ;; *) echo compi ;; esac; }
lib_of() { sed -n 's/^# library: //p' "$build/raw/$1"-np*-r1.out 2>/dev/null | head -1; }
{
    echo "compi collective comparison (bench/run-coll.sh)"
    echo
    echo "Machine"
    echo "  cpu:      $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
    echo "  cores:    $ncores online ($(lscpu | sed -n 's/^Core(s) per socket: *//p') per" \
        "socket, $(lscpu | sed -n 's/^Socket(s): *//p') socket(s)," \
        "$(lscpu | sed -n 's/^Thread(s) per core: *//p') thread(s) per core)"
    echo "  kernel:   $(uname -srm)"
    echo "  host:     $(hostname)"
    echo "  started:  $started"
    echo "  finished: $(date -Is)"
    echo "  load avg: $load_before before, $load_after after (1, 5, 15 min)"
    echo "            the benchmark's own busy ranks add 2 to 4; more means other work"
    echo "            shared the cores and the numbers are noisier than they should be"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS TRIALS=$TRIALS ITER_SCALE=$ITER_SCALE RUN_TIMEOUT=$RUN_TIMEOUT" \
        "NPS=\"$NPS\" MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo
    echo "Implementations (each run as:" \
        "LAUNCHER bench/bind-rank.sh coll -t $TRIALS -i $ITER_SCALE)"
    for mpi in "${active[@]}"; do
        echo "  $(names "$mpi"):"
        echo "    library:  $(lib_of "$mpi")"
        echo "    compiler: ${CC[$mpi]} -O2"
        for np in $NPS; do
            echo "    launcher: $(launcher "$mpi" "$np")"
        done
        echo "    colls:    the library's default selection (nothing set)"
    done
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    echo "  binding:  launchers' binding off; bind-rank.sh pins rank r to core r mod $ncores" \
        "(taskset) for every MPI"
    echo "  order:    rotated each round (round 1: ${active[*]})"
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
    if [ ${#failures[@]} -gt 0 ]; then
        echo
        echo "Failed runs"
        for f in "${failures[@]}"; do echo "  $f"; done
    fi
    echo
    echo "Files: coll.csv (every round), coll-median.csv (over rounds), coll.png (plot)"
} >"$results/coll-summary.txt"

cat "$results/coll-summary.txt"

# --- 5. trampoline micro-benchmark ------------------------------------------------------
if [ $tramp = 1 ]; then
    if [[ " ${active[*]} " == *" compi "* ]]; then
        say "trampoline micro-benchmark (bench/run-tramp.sh)"
        quick_arg=()
        [ $quick = 0 ] || quick_arg=(--quick)
        "$here/run-tramp.sh" "${quick_arg[@]}" || failures+=("run-tramp.sh")
    else
        say "no compi build: trampoline micro-benchmark skipped"
    fi
fi
[ ${#failures[@]} = 0 ] || exit 1
