#!/bin/sh
# TAP: OSU Micro-Benchmarks 7.4 built for MPICH run on compi, their results validated.
# A handful of OSU's programs (point-to-point latency and bandwidth, blocking and
# nonblocking collectives) are compiled with Debian's MPICH 4 mpicc (mpicc.mpich, with
# OSU's utility files; no configure) into $top_builddir/osu-mpich, once per tarball and
# compiler, and each is run with compi's mpirun at np 2 with -c: OSU fills the buffers
# with known values and checks what arrives, printing Pass or Fail per size.  Small
# sizes and iteration counts keep the whole run to a few seconds.  The tarball is
# OSU_TARBALL, else ../shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz beside the
# source tree; skipped without it or without MPICH's compiler (COMPI_MPICH_CC names
# another).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/_build}
mpich_cc=${COMPI_MPICH_CC:-mpicc.mpich}
tarball=${OSU_TARBALL:-$top_srcdir/../shared/thirdparty/osu-micro-benchmarks-7.4.tar.gz}
osu=osu-micro-benchmarks-7.4
# program (its folder under c/mpi) and its arguments besides -c
progs="pt2pt/standard/osu_latency:-m 1:8192 -i 200 -x 20
pt2pt/standard/osu_bw:-m 1:8192 -i 20 -x 2 -W 16
collective/blocking/osu_allreduce:-m 4:8192 -i 50 -x 5
collective/blocking/osu_bcast:-m 1:8192 -i 50 -x 5
collective/blocking/osu_alltoall:-m 1:8192 -i 50 -x 5
collective/non_blocking/osu_ibcast:-m 1:4096 -i 20 -x 2
collective/non_blocking/osu_iallreduce:-m 4:4096 -i 20 -x 2"
if [ ! -r "$tarball" ]; then
    echo "1..0 # SKIP no OSU tarball ($tarball; OSU_TARBALL names another)"
    exit 0
fi
if ! command -v "$mpich_cc" >/dev/null 2>&1; then
    echo "1..0 # SKIP no MPICH compiler ($mpich_cc)"
    exit 0
fi
nprog=$(echo "$progs" | wc -l)
echo "1..$((nprog + 1))"

# the build, redone when the tarball or the compiler's command line changes
mkdir -p "$top_builddir/osu-mpich"
dir=$(cd "$top_builddir/osu-mpich" && pwd)
exec 8>"$dir/.lock"
flock 8
stamp="$(md5sum <"$tarball" | cut -d' ' -f1) $("$mpich_cc" -show 2>/dev/null | tr '\n' ' ')"
built=1
if [ ! -f "$dir/stamp" ] || [ "$(cat "$dir/stamp")" != "$stamp" ]; then
    rm -rf "${dir:?}/$osu" "$dir/bin" "$dir/stamp"
    mkdir -p "$dir/bin"
    c=$dir/$osu/c
    if tar xzf "$tarball" -C "$dir" "$osu/c" && (
        cd "$dir/bin" &&
            for f in osu_util osu_util_mpi osu_util_validation osu_util_graph osu_util_papi; do
                "$mpich_cc" -O2 -w -I"$c/util" -c "$c/util/$f.c" || exit 1
            done &&
            echo "$progs" | while IFS=: read -r prog args; do
                "$mpich_cc" -O2 -w -I"$c/util" -o "${prog##*/}" "$c/mpi/$prog.c" osu_util*.o -lm ||
                    exit 1
            done
    ) >"$dir/build.log" 2>&1; then
        echo "$stamp" >"$dir/stamp"
    else
        built=0
    fi
fi
exec 8>&-
if [ $built = 1 ]; then
    echo "ok 1 - OSU's programs build with $mpich_cc"
else
    echo "not ok 1 - OSU's programs build with $mpich_cc"
    tail -20 "$dir/build.log" | sed 's/^/#   /'
fi

n=1
echo "$progs" | while IFS=: read -r prog args; do
    n=$((n + 1))
    name=${prog##*/}
    # shellcheck disable=SC2086 # the arguments are words
    out=$(timeout -k 5 60 "$top_builddir/bin/mpirun" --timeout 50 -np 2 "$dir/bin/$name" -c $args 2>&1)
    rc=$?
    # the table's rows: a size, numbers, and Pass or Fail last
    rows=$(echo "$out" | grep -E '^[0-9]+ ' | grep -c .)
    passed=$(echo "$out" | grep -E '^[0-9]+ .* Pass$' | grep -c .)
    if [ $rc -eq 0 ] && [ "$rows" -gt 0 ] && [ "$rows" -eq "$passed" ]; then
        echo "ok $n - $name -c $args: $rows sizes validated on compi"
    else
        echo "not ok $n - $name -c $args: every size validated on compi (exit $rc, $passed of $rows)"
        echo "$out" | tail -20 | sed 's/^/#   /'
    fi
done
