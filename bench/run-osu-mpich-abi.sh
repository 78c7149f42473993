#!/bin/sh
# run-osu-mpich-abi.sh: OSU Micro-Benchmarks 7.4 built for MPICH (configured with
# CC=mpicc.mpich, linked against libmpich.so.12) and run, not rebuilt, on compi's library:
# compi's ABI is MPICH's (README, "Programs built for MPICH").
#
#   1. unpacks /work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz (OSU_TARBALL) into
#      bench/build/osu-mpich-abi/ and builds osu_latency and osu_allreduce there with
#      MPICH's compilers (nothing of OSU is copied into the repository or changed)
#   2. runs them with compi's mpirun, LD_LIBRARY_PATH pointing at compi's library (where
#      libmpich.so.12 is compi's): osu_latency at 2 ranks, osu_allreduce with OSU's
#      validation (-c) at each rank count of NPS, each run under `timeout`
#
# Exit status: 0 when every run finished and every validated row says Pass; 1 otherwise.
# Environment: COMPI_BUILD (default <repo>/_build), NPS (default "2 4"), MAX_SIZE (OSU's
# -m, default 65536), RUN_TIMEOUT (seconds per run, default 120).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
compi_build=${COMPI_BUILD:-$top/_build}
tarball=${OSU_TARBALL:-/work/shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz}
osu=osu-micro-benchmarks-7.4
dir=$here/build/osu-mpich-abi
nps=${NPS:-2 4}
max=${MAX_SIZE:-65536}
tmo=${RUN_TIMEOUT:-120}

command -v mpicc.mpich >/dev/null || { echo "no mpicc.mpich (Debian's libmpich-dev)" >&2; exit 1; }
[ -x "$compi_build/bin/mpirun" ] || { echo "no compi build in $compi_build" >&2; exit 1; }
if [ ! -x "$dir/$osu/c/mpi/collective/blocking/osu_allreduce" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tar xzf "$tarball" -C "$dir"
    echo "== building osu_latency and osu_allreduce with mpicc.mpich (log: $dir/build.log)"
    (cd "$dir/$osu" && ./configure CC=mpicc.mpich CXX=mpicxx.mpich &&
        make -C c/mpi/pt2pt/standard osu_latency &&
        make -C c/mpi/collective/blocking osu_allreduce) >"$dir/build.log" 2>&1 ||
        { echo "the build failed (log: $dir/build.log)" >&2; exit 1; }
fi
b=$dir/$osu/c/mpi
status=0
run() { # np program args...
    np=$1 prog=$2
    shift 2
    echo "== mpirun -np $np $(basename "$prog") $*"
    rc=0
    out=$(LD_LIBRARY_PATH=$compi_build/lib/.libs timeout "$tmo" "$compi_build/bin/mpirun" \
        -np "$np" "$prog" "$@" 2>&1) || rc=$?
    if [ $rc -ne 0 ]; then
        echo "$out"
        echo "FAILED (exit $rc)"
        status=1
        return
    fi
    echo "$out"
    if echo "$out" | grep -q "Fail"; then
        echo "FAILED (a row failed OSU's validation)"
        status=1
    fi
}
echo "== the programs load: $(LD_LIBRARY_PATH=$compi_build/lib/.libs ldd \
    "$b/pt2pt/standard/osu_latency" | awk '/libmpich/ {print $1, $3}')"
run 2 "$b/pt2pt/standard/osu_latency" -m "$max"
for np in $nps; do
    run "$np" "$b/collective/blocking/osu_allreduce" -c -m "$max"
done
exit $status
