#!/bin/bash
# run-osu.sh: OSU Micro-Benchmarks 7.4, built unmodified as a user would build them,
# validating compi's nonblocking and neighbourhood collectives (OSU's -c), side by side
# with Open MPI and MPICH (Debian's, and the newest from PyPI: bench/lib.sh).
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. unpacks /work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz (OSU_TARBALL) into
#      bench/build/osu/<mpi>/ and runs `./configure CC=<mpicc> CXX=<mpicxx> && make` there
#      with each MPI's compilers.  Nothing of OSU is copied into the repository, and OSU's
#      files are not changed.
#   3. runs, with OSU's validation -c and each run under `timeout`, at every rank count in
#      NPS: the nonblocking collectives (c/mpi/collective/non_blocking; osu_ibarrier has
#      no -c and is timed only) and the neighbourhood collectives, blocking and
#      nonblocking (c/mpi/collective/neighborhood), on OSU's default topology (a periodic
#      1-D Cartesian ring, radius 1: OSU refuses it below 3 ranks) and on a distributed
#      graph read from a file this script writes (each rank to its left and right
#      neighbour: `-N graph:FILE`)
#   4. writes bench/results/: osu-nbc.csv (one row per message size, OSU's columns and
#      its Pass/Fail), osu-nbc-runs.csv (one row per run: exit status and verdict),
#      osu-nbc-summary.txt (machine, command, the pass/fail table, latencies of compi
#      against the others) and osu-nbc.png (overall latency against size for a few
#      benchmarks)
#
# Exit status: 0 when every run finished and every validated row says Pass, for every
# MPI; 1 otherwise (a Fail, a crash, a timeout, a build that failed).
#
# Usage: bench/run-osu.sh [--quick] [--no-install] [--rebuild]
#   --quick       sizes up to 4 KiB only (MAX_SIZE=4096): checks the pipeline
#   --no-install  never call apt-get (fails if something is missing)
#   --rebuild     build OSU again even when bench/build/osu/<mpi>/ is up to date
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are: $COMPI_PREFIX/bin/ or $COMPI_PREFIX/
#                 (default: <repo>/_build, where scripts/build.sh builds)
#   MPIS          implementations (default "omp mpich omp5 mpich5 compi")
#   NPS           rank counts (default "2 3 4")
#   ITERS, WARMUP OSU's -i and -x (default 20 and 5)
#   MAX_SIZE      OSU's -m, the largest message in bytes (default 65536; at most 1048576
#                 is sensible here: 1 MiB takes about 3 minutes per MPI at 3 ranks on 2 cores)
#   RUN_TIMEOUT   seconds per run (default 60); BENCHES: the benchmark names to run
#                 (default: all of both directories)
#   OVERSUB_MPIS  the MPIs that also run with more ranks than cores (default "omp compi"):
#                 MPICH busy-polls, and at 3 ranks on 2 cores a single run of
#                 osu_iallreduce already passes 60 s; its runs there are listed SKIPPED
#
# Binding as in run-coll.sh: launchers are told not to bind and bench/bind-rank.sh pins
# rank r to core r mod ncores.  With more ranks than cores the numbers mostly show how a
# library waits; they are here for the validation, not for a comparison.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/osu

bench_script_args --with-rebuild "$@"

[ $quick = 0 ] || MAX_SIZE=${MAX_SIZE:-4096}
MAX_SIZE=${MAX_SIZE:-65536}
ITERS=${ITERS:-20}
WARMUP=${WARMUP:-5}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
NPS=${NPS:-2 3 4}
OVERSUB_MPIS=${OVERSUB_MPIS:-omp compi}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
NBC="osu_iallreduce osu_ibcast osu_ibarrier osu_ireduce osu_igather osu_igatherv
 osu_iscatter osu_iscatterv osu_iallgather osu_iallgatherv osu_ialltoall osu_ialltoallv
 osu_ialltoallw osu_ireduce_scatter osu_ireduce_scatter_block"
NHBR="osu_neighbor_allgather osu_neighbor_allgatherv osu_neighbor_alltoall
 osu_neighbor_alltoallv osu_neighbor_alltoallw osu_ineighbor_allgather
 osu_ineighbor_allgatherv osu_ineighbor_alltoall osu_ineighbor_alltoallv
 osu_ineighbor_alltoallw"
BENCHES=${BENCHES:-$(echo $NBC $NHBR)}

. "$here/lib.sh"
. "$here/osu.sh"

mkdir -p "$build" "$results"
rm -f "$results/osu-nbc.csv" "$results/osu-nbc-runs.csv" "$results/osu-nbc.png" \
    "$results/osu-nbc-summary.txt"
failures=()

# --- 2. build OSU with each MPI (bench/osu.sh) ------------------------------------
bench_build "omp mpich omp5 mpich5 compi" build_osu
for why in "${skipped[@]}"; do failures+=("$why"); done

# --- 3. run ---------------------------------------------------------------------------
# A ring as a distributed graph for -N graph: (OSU's format: "source, destination").
graph_file() {
    local np=$1 f=$build/ring-$1.adj i
    {
        echo "# bench/run-osu.sh: each rank to its right and left neighbour on a ring"
        for ((i = 0; i < np; i++)); do
            echo "$i, $(((i + 1) % np))"
            [ "$np" -le 2 ] || echo "$i, $(((i + np - 1) % np))"
        done
    } >"$f"
    echo "$f"
}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/osu-nbc.csv
runs=$results/osu-nbc-runs.csv
echo "mpi,benchmark,np,topology,size,avg_latency_us,overall_us,compute_us,pure_comm_us,overlap_pct,validation" >"$csv"
echo "mpi,benchmark,np,topology,exit,rows,pass,fail,result,note" >"$runs"
mkdir -p "$build/raw"
for np in $NPS; do
    gfile=$(graph_file "$np")
    for b in $BENCHES; do
        case $b in
        osu_*neighbor_*) dir=neighborhood topos="cart graph" ;;
        osu_i*) dir=non_blocking topos="-" ;;
        *) die "BENCHES: '$b' is not a nonblocking or neighbourhood benchmark" ;;
        esac
        for topo in $topos; do
            args=(-i "$ITERS" -x "$WARMUP")
            [ "$b" = osu_ibarrier ] || args+=(-c -m "$MAX_SIZE")
            case $topo in
            cart)
                # OSU's default, -N cart:1:1; it refuses radius 1 on fewer than 3 ranks
                [ "$np" -ge 3 ] || continue
                topo=cart:1:1
                ;;
            graph)
                args+=(-N "graph:$gfile")
                topo=graph:ring
                ;;
            esac
            for mpi in "${active[@]}"; do
                if [ "$np" -gt "$ncores" ] && [[ " $OVERSUB_MPIS " != *" $mpi "* ]]; then
                    echo "$mpi,$b,$np,$topo,,0,0,0,SKIPPED,more ranks than cores" >>"$runs"
                    continue
                fi
                prog=$build/$mpi/$OSU/c/mpi/collective/$dir/$b
                raw=$build/raw/$mpi-$b-np$np-${topo%%:*}
                rc=0
                timeout -k 5 "$RUN_TIMEOUT" $(launcher "$mpi" "$np") "$here/bind-rank.sh" \
                    "$prog" "${args[@]}" >"$raw.out" 2>"$raw.err" </dev/null || rc=$?
                parse "$mpi" "$b" "$np" "$topo" <"$raw.out" >"$raw.csv" || true
                cat "$raw.csv" >>"$csv"
                nrows=$(wc -l <"$raw.csv")
                npass=$(grep -c ',Pass$' "$raw.csv" || true)
                nfail=$(grep -c ',Fail$' "$raw.csv" || true)
                note=""
                if [ $rc = 124 ] || [ $rc = 137 ]; then
                    result=TIMEOUT note="no end after ${RUN_TIMEOUT}s; last size $(tail -1 "$raw.csv" | cut -d, -f5)"
                elif [ "$nfail" -gt 0 ]; then
                    # OSU stops at the first size that fails and exits 1
                    result=FAIL
                    note="size $(grep ',Fail$' "$raw.csv" | head -1 | cut -d, -f5) failed validation"
                elif [ $rc != 0 ]; then
                    result=ERROR
                    # the first line that says what went wrong: OSU's own, then anything
                    # that looks like an error
                    note=$({ grep -h 'VALIDATION ERROR' "$raw.out" "$raw.err" ||
                        grep -hiE 'error|abort|fault|signal|fail|killed' "$raw.err" "$raw.out"; } |
                        head -1 | tr ',\n' '; ' | cut -c1-200 || true)
                elif [ "$nrows" = 0 ]; then
                    result=ERROR note="no results printed"
                elif [ "$npass" = 0 ]; then
                    result=TIMED note="no validation (OSU has no -c for $b)"
                else
                    result=PASS
                fi
                note=${note//,/;}
                echo "$mpi,$b,$np,$topo,$rc,$nrows,$npass,$nfail,$result,$note" >>"$runs"
                lbl=$b; [ "$topo" = - ] || lbl+=" $topo"
                say "$mpi np $np $lbl: $result${note:+ ($note)}"
                case $result in PASS | TIMED) ;; *) failures+=("$mpi np $np $b $topo: $result $note") ;; esac
            done
        done
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
mkdir -p "$build/plot"
title="OSU 7.4 nonblocking / neighbourhood collectives on $(hostname) ($ncores cores), -i $ITERS -x $WARMUP"
stats=$(/usr/bin/python3 "$here/osu-summary.py" "$csv" "$runs" "$build/plot" \
    "$results/osu-nbc.png" "$title")
if [ -s "$build/plot/osu.gp" ]; then
    gnuplot "$build/plot/osu.gp" || say "gnuplot failed; no osu-nbc.png"
fi

{
    echo "OSU Micro-Benchmarks 7.4: nonblocking and neighbourhood collectives (bench/run-osu.sh)"
    echo
    machine_section
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with NPS=\"$NPS\" OVERSUB_MPIS=\"$OVERSUB_MPIS\" ITERS=$ITERS WARMUP=$WARMUP MAX_SIZE=$MAX_SIZE" \
        "RUN_TIMEOUT=$RUN_TIMEOUT MPIS=\"$MPIS\" COMPI_PREFIX=$COMPI_PREFIX"
    echo "  each run: timeout -k 5 $RUN_TIMEOUT LAUNCHER bench/bind-rank.sh PROGRAM" \
        "-i $ITERS -x $WARMUP -c -m $MAX_SIZE [-N graph:FILE]   (osu_ibarrier: no -c, no -m)"
    echo
    echo "Implementations (OSU unpacked from $OSU_TARBALL, unmodified, into bench/build/osu/<mpi>/)"
    for mpi in "${active[@]}"; do
        echo "  $(mpi_name "$mpi"):"
        echo "    build:    ./configure $(conf_args "$mpi") && make"
        for np in $NPS; do echo "    launcher: $(launcher "$mpi" "$np")"; done
    done
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    echo "  topologies: neighbourhood benchmarks on OSU's default periodic 1-D Cartesian ring"
    echo "            (cart:1:1, 3 ranks and up) and on a ring given as a distributed graph"
    echo "            (graph:ring, bench/build/osu/ring-<np>.adj)"
    echo
    echo "$stats"
    if [ ${#failures[@]} -gt 0 ]; then
        echo
        echo "Failed (validation Fail, crash, timeout or build)"
        for f in "${failures[@]}"; do echo "  $f"; done
    fi
    echo
    echo "Files: osu-nbc.csv (every size), osu-nbc-runs.csv (every run), osu-nbc.png;"
    echo "raw OSU output in bench/build/osu/raw/"
} >"$results/osu-nbc-summary.txt"
cat "$results/osu-nbc-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
