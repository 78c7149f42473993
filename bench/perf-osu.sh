#!/bin/bash
# perf-osu.sh: where compi's time goes in one row of an OSU benchmark: runs the OSU
# program that run-osu-coll.sh built for compi at one message size under `perf record`
# (both ranks, pinned as in run-osu-coll.sh) and sorts the samples into what they were
# doing: copies in user space (memcpy), copies by the kernel for single copy
# (process_vm_readv/writev), the kernel's page pinning and system call work around them,
# reductions (the op loops), waiting (polling the transports or a shared-memory flag),
# the rest of compi, the OSU program itself, and other.
#
#   1. runs the benchmark once at that size to learn its latency L, then picks the
#      iteration count so the timed loop takes about a second and a half
#   2. runs it again under `perf record -F 5000` (cpu-clock) and prints OSU's line and
#      the table: per category the share of both ranks' samples and that share of NP
#      times the latency OSU printed under perf, in microseconds per call summed over the
#      ranks (osu_bw: per message, size / bandwidth; MPI_Init and the warm-up are in the
#      samples too, mostly under "other"; the loop dominates at the chosen count)
#
# Usage: bench/perf-osu.sh BENCHMARK SIZE        e.g. bench/perf-osu.sh osu_allgather 65536
#        bench/perf-osu.sh osu_latency 8
# Environment: COMPI_PREFIX (default <repo>/_build), NP (2), PERF_EVENT (cpu-clock), and any
# COMPI_MCA_<param>=value for compi (passed to the ranks).
# Needs OSU built for compi in bench/build/osu/compi/ (run bench/run-osu-coll.sh first) and
# perf (Debian: linux-perf).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
case ${1:-} in -h | --help | "")
    usage
    exit 0
    ;;
esac
[ $# = 2 ] || die "usage: perf-osu.sh BENCHMARK SIZE (try --help)"
bench=$1 size=$2
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
NP=${NP:-2}
PERF_EVENT=${PERF_EVENT:-cpu-clock}
find_compi
[ -n "$compi_bin" ] || die "no mpicc and mpirun under $COMPI_PREFIX"
command -v perf >/dev/null || die "perf not found (Debian: apt-get install linux-perf)"
case $bench in
osu_latency | osu_bw | osu_bibw) dir=pt2pt/standard ;;
*) dir=collective/blocking ;;
esac
prog=$here/build/osu/compi/osu-micro-benchmarks-7.4/c/mpi/$dir/$bench
[ -x "$prog" ] || die "no $prog: run bench/run-osu-coll.sh first"
margs=(-m "$size:$size")
[ "$bench" != osu_barrier ] || margs=()

work=$(mktemp -d "${TMPDIR:-/tmp}/perf-osu.XXXXXX")
trap 'rm -rf "$work"' EXIT
value() { awk '$1 ~ /^[0-9.]+$/ { v = (NF == 1) ? $1 : $2 } END { print v }'; }
# shellcheck disable=SC2046 # the launcher line is words
L=$($(launcher compi "$NP") "$here/bind-rank.sh" "$prog" "${margs[@]}" -i 1000 </dev/null | value)
[ -n "$L" ] || die "$bench at $size printed no result"
if [ "$bench" = osu_bw ]; then
    # OSU's bandwidth iteration is a window of 64 messages
    iters=$(awk -v bw="$L" -v s="$size" 'BEGIN { n = int(1.5e6 / (64 * s / bw)); print n < 20 ? 20 : n }')
else
    iters=$(awk -v l="$L" 'BEGIN { n = int(1.5e6 / l); print n < 1000 ? 1000 : (n > 2000000 ? 2000000 : n) }')
fi
say "$bench $size: $L $([ "$bench" = osu_bw ] && echo MB/s || echo us) without perf; perf over $iters iterations"
# shellcheck disable=SC2046
perf record -q -e "$PERF_EVENT" -F 5000 -o "$work/perf.data" -- $(launcher compi "$NP") \
    "$here/bind-rank.sh" "$prog" "${margs[@]}" -i "$iters" -x 200 >"$work/osu.out" </dev/null 2>&1
Lp=$(value <"$work/osu.out")
echo "OSU under perf: $bench $size bytes: $Lp ($([ "$bench" = osu_bw ] && echo MB/s || echo us))"
# the time per call of the run the samples come from
if [ "$bench" = osu_bw ]; then
    L=$(awk -v bw="$Lp" -v s="$size" 'BEGIN { print s / bw }')
else
    L=$Lp
fi
perf report -i "$work/perf.data" --stdio --sort dso,sym --percent-limit 0 2>/dev/null |
    awk -v L="$L" -v np="$NP" '
    /^#/ || NF < 3 { next }
    { pct = $1; sub(/%/, "", pct); dso = $2; sym = $NF
      if (sym ~ /memmove|memcpy|memset/) c = "copy, user (memcpy)"
      else if (sym ~ /^_?copy_(from|to)_iter|^copy_page_(from|to)_iter|^rep_movs|copy_user/) c = "copy, kernel (single copy)"
      else if (dso ~ /kernel/) c = "kernel: pinning, syscalls, scheduling"
      else if (sym ~ /^loop_|^op_|coll_op_apply|avx/) c = "reduction (op loops)"
      else if (sym ~ /progress|_wait|poll|yield|sched_/) c = "waiting (polling)"
      else if (dso ~ /^osu_/) c = "OSU program"
      else if (dso ~ /libmpi|btl_|libcompi|pmi/) c = "compi, other"
      else c = "other (launcher, libc, start-up)"
      share[c] += pct; tot += pct }
    END {
      printf "%-40s %8s %14s\n", "category", "samples", "us/call (all ranks)"
      n = 0; for (c in share) order[++n] = c
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
          if (share[order[j]] > share[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
      for (i = 1; i <= n; i++)
          printf "%-40s %7.1f%% %14.2f\n", order[i], share[order[i]], share[order[i]] / 100 * L * np
    }'
echo
echo "top symbols:"
perf report -i "$work/perf.data" --stdio --sort dso,sym 2>/dev/null | grep -v '^#' | grep . | head -15
