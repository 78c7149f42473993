#!/bin/bash
# run-p2p.sh: point-to-point comparison of compi, Open MPI and MPICH on this machine.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. builds pingpong and bandwidth with each MPI's mpicc, into bench/build/p2p/
#   3. runs them at 2 ranks, several rounds, the order of the MPIs rotating every round so
#      that drift of the machine (other load, thermal, frequency) falls on all of them
#   4. writes bench/results/: p2p.csv (every round), p2p-median.csv (folded over rounds),
#      p2p.png (latency and bandwidth against size) and p2p-summary.txt
#
# Usage: bench/run-p2p.sh [--quick] [--no-install]
#   --quick       1 round, 3 trials, a tenth of the iterations: checks the pipeline only
#   --no-install  never call apt-get (fails if something is missing)
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are: $COMPI_PREFIX/bin/ or $COMPI_PREFIX/
#                 (default: <repo>/_build, where scripts/build.sh builds)
#   MPIS          implementations to run (default "omp mpich omp5 mpich5 compi")
#   ROUNDS        rounds (default 5); TRIALS: trials per run (default 7)
#   ITER_SCALE    iteration multiplier (default 1); RUN_TIMEOUT: seconds per run (300)
#
# Binding is the only setting imposed on every MPI: launchers are told not to bind and
# bench/bind-rank.sh pins rank r to core r, identically for all three.  Everything else
# is each implementation's default (Open MPI: --mca btl self,vader, which is what it picks
# on one node anyway).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
# its own folder: bench/build/ also holds the other scripts' builds and the PyPI peers
build=$here/build/p2p

bench_script_args "$@"

if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} TRIALS=${TRIALS:-3} ITER_SCALE=${ITER_SCALE:-0.1}
fi
ROUNDS=${ROUNDS:-5}
TRIALS=${TRIALS:-7}
ITER_SCALE=${ITER_SCALE:-1}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$(dirname "$0")/lib.sh"

declare -A LAUNCH
for mpi in $MPIS; do LAUNCH[$mpi]=$(launcher "$mpi" 2); done

rm -rf "$build"
mkdir -p "$build/raw" "$build/plot" "$results"
# A failed run must not leave the previous run's plot or summary looking current.
rm -f "$results/p2p.csv" "$results/p2p-median.csv" "$results/p2p.png" "$results/p2p-summary.txt"
bench_build "omp mpich omp5 mpich5 compi" bench_programs pingpong bandwidth

# --- 3. run ---------------------------------------------------------------------------
# Facts about the machine are taken before the runs, load averages on both sides of them:
# a high load means other work shared the cores and the numbers are suspect.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)

# Which PML/BTL Open MPI really uses (it may prefer UCX where a NIC is present).
omp_pml=""
if [[ " ${active[*]} " == *" omp "* ]]; then
    omp_pml=$(${LAUNCH[omp]} --mca pml_base_verbose 10 "$here/bind-rank.sh" \
        "$build/omp/pingpong" -t 1 -m 1 -i 0.001 2>&1 | grep -o 'selected [a-z0-9]* ' |
        head -1 || true)
fi

csv=$results/p2p.csv
echo "mpi,benchmark,bytes,median_usec,min_usec,mbps,max_mbps,iters,round" >"$csv"
failures=()
p2p_run() { # round mpi
    local r=$1 mpi=$2 prog raw
    for prog in pingpong bandwidth; do
        raw=$build/raw/$mpi-$prog-r$r
        say "round $r/$ROUNDS: $mpi $prog"
        # shellcheck disable=SC2086 # the launcher line is words
        bench_run "$raw" "$mpi $prog round $r" ${LAUNCH[$mpi]} "$here/bind-rank.sh" \
            "$build/$mpi/$prog" -t "$TRIALS" -i "$ITER_SCALE" || continue
        grep "^$prog," "$raw.out" | sed "s/^/$mpi,/; s/\$/,$r/" >>"$csv" ||
            failures+=("$mpi $prog round $r: no data lines")
    done
}
bench_rounds active "" p2p_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
stats=$(/usr/bin/python3 "$here/p2p-summary.py" "$csv" "$results/p2p-median.csv" \
    "$build/plot")

plot_lines() { # $1: benchmark, $2: column
    local sep="" mpi
    for mpi in "${active[@]}"; do
        [ -s "$build/plot/$mpi-$1.dat" ] || continue
        printf '%s"%s" using 1:%s with linespoints title "%s"' "$sep" \
            "$build/plot/$mpi-$1.dat" "$2" "$(mpi_name "$mpi")"
        sep=", "
    done
}
pp=$(plot_lines pingpong 2)
bw=$(plot_lines bandwidth 4)
if [ -n "$pp" ] && [ -n "$bw" ]; then
    gnuplot <<EOF
set terminal pngcairo size 1400,560 font ",10"
set output "$results/p2p.png"
set multiplot layout 1,2 title \
    "point-to-point, 2 ranks on $(hostname), median over $ROUNDS round(s) of $TRIALS trials"
set logscale xy 2
set logscale y 10
set grid
set key top left
set xtics ("1 B" 1, "16 B" 16, "256 B" 256, "4 KiB" 4096, "64 KiB" 65536, \
    "1 MiB" 1048576, "4 MiB" 4194304)
set xlabel "message size (bytes)"
set ylabel "one-way latency (usec)"
set title "ping-pong latency (lower is better)"
plot $pp
set ylabel "bandwidth (MB/s, MB = 10^6 B)"
set title "streaming bandwidth, window of 64 (higher is better)"
plot $bw
unset multiplot
EOF
else
    say "no complete data to plot"
fi

lib_of() { sed -n 's/^# library: //p' "$build/raw/$1-pingpong-r1.out" 2>/dev/null | head -1; }
{
    echo "compi point-to-point comparison (bench/run-p2p.sh)"
    echo
    machine_section \
        "the benchmark's own 2 busy ranks add about 2; more means other work" \
        "shared the 2 cores and the numbers are noisier than they should be"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS TRIALS=$TRIALS ITER_SCALE=$ITER_SCALE RUN_TIMEOUT=$RUN_TIMEOUT" \
        "MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo
    echo "Implementations (each run as:" \
        "LAUNCHER bench/bind-rank.sh PROGRAM -t $TRIALS -i $ITER_SCALE)"
    for mpi in "${active[@]}"; do
        echo "  $(mpi_name "$mpi"):"
        echo "    library:  $(lib_of "$mpi")"
        echo "    compiler: ${CC[$mpi]} -O2"
        echo "    launcher: ${LAUNCH[$mpi]}"
        if [ "$mpi" = omp ] && [ -n "$omp_pml" ]; then
            echo "    pml:      $omp_pml(observed with --mca pml_base_verbose 10)"
        fi
    done
    implementations_end
    echo
    echo "Method"
    echo "  pingpong: one-way latency = round trip / 2, ranks 0 and 1; each run reports the"
    echo "            median over $TRIALS trials of the per-trial average"
    echo "  bandwidth: windows of 64 MPI_Isend + one ack (OSU style); median over trials"
    echo "  below: median over the $ROUNDS rounds of those per-run medians"
    echo
    echo "$stats"
    failures_section
    echo
    echo "Files: p2p.csv (every round), p2p-median.csv (over rounds), p2p.png (plot)"
} >"$results/p2p-summary.txt"

cat "$results/p2p-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
