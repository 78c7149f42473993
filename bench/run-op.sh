#!/bin/bash
# run-op.sh: the reduction engines of compi, Open MPI and MPICH alone (MPI_Reduce_local
# on one rank, bench/op_bench.c) against memcpy of the same bytes, 64 B to 16 MiB.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. builds bench/op_bench.c with each MPI's mpicc into bench/build/op/
#   3. runs it on one rank pinned to core 0 (bench/bind-rank.sh), several rounds, the
#      order of the MPIs rotating every round; compi also with its reduction loops held
#      to AVX2 and to the build's baseline (runtime parameter op_simd), to show what the
#      instruction set brings
#   4. writes bench/results/: op.csv (every round), op-median.csv (folded over rounds),
#      op.png (GB/s against size, one panel per op and type, memcpy in each) and
#      op-summary.txt (machine, command, GB/s at a few sizes, compi against the others)
#
# Usage: bench/run-op.sh [--quick] [--no-install]
#   --quick       1 round, 2 trials, a tenth of the time per measurement
#   --no-install  never call apt-get (fails if something is missing)
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are (default: <repo>/_build)
#   MPIS          implementations (default "omp mpich omp5 mpich5 compi compi-avx2 compi-sse2";
#                 compi-avx2 and compi-sse2 are compi run with op_simd=avx2 and =base)
#   ROUNDS        rounds (default 3); TRIALS: trials per run (default 5)
#   ITER_SCALE    time per measurement multiplier (default 1); MAX_BYTES (16 MiB)
#   RUN_TIMEOUT   seconds per run (default 300)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/op

bench_script_args "$@"
if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} TRIALS=${TRIALS:-2} ITER_SCALE=${ITER_SCALE:-0.1}
fi
ROUNDS=${ROUNDS:-3}
TRIALS=${TRIALS:-5}
ITER_SCALE=${ITER_SCALE:-1}
MAX_BYTES=${MAX_BYTES:-16777216}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi compi-avx2 compi-sse2}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$here/lib.sh"

# compi-X: compi's program and launcher, with the op_simd setting X stands for
simd_of() { case $1 in compi-avx2) echo avx2 ;; compi-sse2) echo base ;; *) echo "" ;; esac; }
build_of() { case $1 in compi-*) echo compi ;; *) echo "$1" ;; esac; }

rm -rf "$build"
mkdir -p "$build/raw" "$build/plot" "$results"
rm -f "$results/op.csv" "$results/op-median.csv" "$results/op.png" "$results/op-summary.txt"
bench_build "omp mpich omp5 mpich5 compi compi-avx2 compi-sse2" bench_programs op_bench

# --- 3. run ---------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/op.csv
echo "mpi,op,type,bytes,median_usec,min_usec,gbps,max_gbps,iters,round" >"$csv"
failures=()
op_run() { # round mpi
    local r=$1 mpi=$2 p simd raw=$build/raw/$2-r$1
    p=$(build_of "$mpi")
    simd=$(simd_of "$mpi")
    say "round $r/$ROUNDS: $mpi"
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "$mpi round $r" env ${simd:+COMPI_MCA_op_simd=$simd} $(launcher "$p" 1) \
        "$here/bind-rank.sh" "$build/$p/op_bench" -t "$TRIALS" -i "$ITER_SCALE" \
        -m "$MAX_BYTES" || return 0
    grep -E '^[a-z]+,[a-z0-9]+,[0-9]+,' "$raw.out" |
        awk -v m="$mpi" -v r="$r" '{ print m "," $0 "," r }' >>"$csv" ||
        failures+=("$mpi round $r: no data lines")
}
bench_rounds active "" op_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
title="MPI_Reduce_local on $(hostname), one rank: GB/s of the vector (median over $ROUNDS"
title+=" round(s) of $TRIALS trials); dashed: memcpy of the same bytes"
stats=$(/usr/bin/python3 "$here/op-summary.py" "$csv" "$results/op-median.csv" \
    "$build/plot" "$results/op.png" "$title")
if [ -s "$build/plot/op.gp" ]; then
    gnuplot "$build/plot/op.gp" || say "gnuplot failed; no op.png"
else
    say "no complete data to plot"
fi

names() {
    case $1 in
    omp | mpich | omp5 | mpich5) mpi_name "$1" ;;
    compi-avx2) echo "compi, op_simd=avx2" ;;
    compi-sse2) echo "compi, op_simd=base (SSE2)" ;;
    *) echo "compi, op_simd=auto" ;;
    esac
}
lib_of() { sed -n 's/^# library: //p' "$build/raw/$1"-r*.out 2>/dev/null | head -1; }
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(sse4_2|avx|avx2|avx512(f|bw|dq|vl))$' |
    tr '\n' ' ' || true)
{
    echo "Reduction engine alone: MPI_Reduce_local against memcpy (bench/run-op.sh)"
    echo
    machine_section "the benchmark keeps one core busy, more means other work shared the" \
        "machine"
    echo "  flags:    ${flags:-none of sse4_2 avx avx2 avx512f/bw/dq/vl}"
    echo "  compiler: $(gcc --version | head -1)"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS TRIALS=$TRIALS ITER_SCALE=$ITER_SCALE MAX_BYTES=$MAX_BYTES" \
        "MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo
    echo "Implementations (each: LAUNCHER -np 1 bench/bind-rank.sh op_bench" \
        "-t $TRIALS -i $ITER_SCALE -m $MAX_BYTES, pinned to core 0)"
    for mpi in "${active[@]}"; do
        p=$(build_of "$mpi")
        simd=$(simd_of "$mpi")
        echo "  $(names "$mpi"):"
        echo "    library:  $(lib_of "$mpi")"
        echo "    compiler: ${CC[$p]} -O2"
        echo "    launcher: ${simd:+COMPI_MCA_op_simd=$simd }$(launcher "$p" 1)"
    done
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    echo "  order:    rotated each round (round 1: ${active[*]})"
    echo
    echo "Method"
    echo "  GB/s = bytes of one vector / time of one MPI_Reduce_local (10^9 B/s); the call"
    echo "  reads 2 x bytes and writes bytes, memcpy reads and writes bytes once.  Each run:"
    echo "  median over $TRIALS trials of ~2 ms of back-to-back calls on the same buffers (so a"
    echo "  size that fits a cache measures it); below: median over the rounds.  The first"
    echo "  trial checks every element of every case against a reference."
    echo
    echo "$stats"
    failures_section
    echo
    echo "Files: op.csv (every round), op-median.csv (over rounds), op.png (plot)"
} >"$results/op-summary.txt"
cat "$results/op-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
