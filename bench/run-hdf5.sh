#!/bin/bash
# run-hdf5.sh: parallel HDF5 built with compi's mpicc, and HDF5's own parallel tests
# (testpar) run with compi's mpirun, as a user of HDF5 on compi would.
#
#   1. fetches the source of Debian's HDF5 (the .orig tarball of the version Debian 12
#      ships, from the Debian archive) into bench/build/hdf5/, once
#   2. configures it with CC=compi's mpicc --enable-parallel (C only) and builds the
#      library and the testpar programs
#   3. runs each testpar program at NPROCS ranks under a time limit, in a scratch folder,
#      and writes bench/results/hdf5-summary.txt: each program's result, time and the end
#      of its output
#
# Usage: bench/run-hdf5.sh [--rebuild] [--no-install]
#   --rebuild     configure and build again even when the build is there
#   --no-install  never call apt-get (fails if something is missing)
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are (default: <repo>/_build)
#   NPROCS        ranks of each test (default 4, HDF5's tests need an even count for some
#                 cases and at least 2); RUN_TIMEOUT: seconds per program (default 900)
#   HDF5_VERSION  Debian's source version (default 1.10.8+repack1)
#   TESTS         the programs to run (default: the testpar list of HDF5's Makefile.am)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/hdf5

rebuild=0
install=1
for arg in "$@"; do
    case $arg in
    --rebuild) rebuild=1 ;;
    --no-install) install=0 ;;
    -h | --help)
        usage
        exit 0
        ;;
    *) bad_arg "$arg" ;;
    esac
done
NPROCS=${NPROCS:-4}
RUN_TIMEOUT=${RUN_TIMEOUT:-900}
HDF5_VERSION=${HDF5_VERSION:-1.10.8+repack1}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
find_compi
[ -n "$compi_bin" ] || die "no compi build under $COMPI_PREFIX (run scripts/build.sh)"

need=()
for p in zlib1g-dev make gcc curl; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} != 0 ]; then
    [ $install = 1 ] || die "missing packages: ${need[*]} (and --no-install given)"
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
fi

mkdir -p "$build" "$results"
tarball=$build/hdf5_$HDF5_VERSION.orig.tar.gz
if [ ! -s "$tarball" ]; then
    say "fetching HDF5 $HDF5_VERSION from the Debian archive"
    curl -sfL -o "$tarball.part" \
        "http://deb.debian.org/debian/pool/main/h/hdf5/hdf5_$HDF5_VERSION.orig.tar.gz" ||
        die "cannot fetch hdf5_$HDF5_VERSION.orig.tar.gz from deb.debian.org"
    mv "$tarball.part" "$tarball"
fi
src=$build/hdf5-$HDF5_VERSION
if [ $rebuild = 1 ] || [ ! -f "$src/.built" ]; then
    rm -rf "$src"
    tar xzf "$tarball" -C "$build"
    cd "$src"
    say "configuring HDF5 with $compi_bin/mpicc (log: $src/configure.log)"
    CC=$compi_bin/mpicc ./configure --enable-parallel --disable-fortran --disable-cxx \
        --disable-hl --disable-tools --enable-build-mode=production \
        RUNPARALLEL="$compi_bin/mpirun -np \$\${NPROCS:=$NPROCS}" >configure.log 2>&1 ||
        { tail -20 configure.log; die "configure failed"; }
    say "building the library and testpar (log: $src/build.log)"
    # shellcheck disable=SC2046 # the program list is words
    { make -j"$(nproc)" -C src && make -j"$(nproc)" -C test libh5test.la &&
        make -j"$(nproc)" -C testpar $(sed -n 's/^TEST_PROG_PARA=//p' testpar/Makefile.am) \
            t_pflush1 t_pflush2; } >build.log 2>&1 || { tail -20 build.log; die "build failed"; }
    touch .built
fi
cd "$src"
TESTS=${TESTS:-$(sed -n 's/^TEST_PROG_PARA=//p' testpar/Makefile.am)}

scratch=$(mktemp -d "$build/run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
started=$(date -Is)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A result took
pass=0 fail=0
for t in $TESTS; do
    say "$t at $NPROCS ranks"
    t0=$(date +%s.%N)
    rc=0
    # from testpar/, as HDF5's make check runs them (t_cache_image starts itself again
    # from there), their files in the scratch folder (t_prestart reopens t_pshutdown's)
    (cd "$src/testpar" && HDF5_PARAPREFIX=$scratch timeout -k 10 "$RUN_TIMEOUT" \
        "$compi_bin/mpirun" -np "$NPROCS" "$src/testpar/$t" \
        >"$build/$t.out" 2>&1) || rc=$?
    [ -x "$src/testpar/$t" ] || rc=127
    took[$t]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc = 0 ]; then
        result[$t]=PASSED
        pass=$((pass + 1))
    else
        result[$t]="FAILED (exit $rc; 124 = time limit)"
        fail=$((fail + 1))
    fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "Parallel HDF5 $HDF5_VERSION on compi (bench/run-hdf5.sh)"
    echo
    machine_section
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with NPROCS=$NPROCS RUN_TIMEOUT=$RUN_TIMEOUT COMPI_PREFIX=$COMPI_PREFIX"
    echo "  HDF5 configured: CC=compi mpicc --enable-parallel --disable-fortran --disable-cxx" \
        "--disable-hl --disable-tools --enable-build-mode=production"
    echo "  library: $("$compi_bin/../bin/compi_info" 2>/dev/null | head -1 || true)"
    echo
    echo "Results: $pass passed, $fail failed of $(echo $TESTS | wc -w) testpar programs"
    for t in $TESTS; do
        printf '  %-20s %-36s %8ss\n' "$t" "${result[$t]}" "${took[$t]}"
    done
    for t in $TESTS; do
        [ "${result[$t]}" = PASSED ] && continue
        echo
        echo "--- end of $t's output"
        tail -15 "$build/$t.out" | sed 's/^/  /'
    done
} >"$results/hdf5-summary.txt"
cat "$results/hdf5-summary.txt"
[ $fail = 0 ]
