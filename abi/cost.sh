#!/bin/sh
# What the standard ABI layer costs: abi/cost.c built with mpicc and with mpicc_abi, run
# at np 2 RUNS times each (alternating), medians of the ping-pong's half round trip and
# of one MPI_Allreduce, in microseconds, and of one MPI_Comm_rank, in nanoseconds.
#   sh abi/cost.sh [BUILDDIR] [RUNS] [ITERATIONS]
top=$(cd "$(dirname "$0")/.." && pwd)
b=${1:-$top/_build}
runs=${2:-7}
iters=${3:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$b/bin/mpicc" -O2 -o "$tmp/native" "$top/abi/cost.c" || exit 1
"$b/bin/mpicc_abi" -O2 -o "$tmp/abi" "$top/abi/cost.c" || exit 1
i=0
while [ $i -lt "$runs" ]; do
    for v in native abi; do
        "$b/bin/mpirun" -np 2 "$tmp/$v" "$iters" >>"$tmp/$v.out"
    done
    i=$((i + 1))
done
median() {
    awk -v f="$2" '{print $f}' "$1" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
printf '%-8s %12s %14s %9s\n' build pingpong_us allreduce_us rank_ns
for v in native abi; do
    printf '%-8s %12s %14s %9s\n' "$v" "$(median "$tmp/$v.out" 2)" "$(median "$tmp/$v.out" 4)" \
        "$(median "$tmp/$v.out" 6)"
done
