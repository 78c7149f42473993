#!/bin/bash
# run-io.sh: MPI-IO comparison of compi, Open MPI (OMPIO) and MPICH (ROMIO), IOR style.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing, and
#      the newest Open MPI and MPICH wheels from PyPI into bench/build/peers/ (lib.sh)
#   2. builds bench/io_bench.c with each MPI's mpicc into bench/build/io/
#   3. measures the file systems' own bandwidth with dd (write with fsync, read) in each
#      directory, then runs io_bench at 2 and 4 ranks on a tmpfs and on the disk, several
#      rounds, the order of the MPIs rotating every round
#   4. writes bench/results/: io.csv (every round), io-median.csv, io.png and
#      io-summary.txt (medians over rounds, compi's ratio to the best peer)
#
# io_bench: every rank writes then reads BYTES (default 64 MiB) of one shared file in
# records of 1 KiB to 4 MiB, contiguous (a block per rank) and strided (records of all
# ranks interleaved), collectively (write_all/read_all) and independently, through a
# file view; bandwidth = file bytes / (slowest rank's open..close), MB = 10^6 B.
#
# Usage: bench/run-io.sh [--quick] [--no-install]
#   --quick       1 round, 1 trial, 8 MiB per rank: checks the pipeline only
#   --no-install  never call apt-get (fails if something is missing)
# Environment:
#   COMPI_PREFIX  where compi's mpicc and mpirun are (default: <repo>/_build)
#   MPIS          implementations (default "omp mpich omp5 mpich5 compi")
#   ROUNDS        rounds (default 3); TRIALS: trials per run (default 3)
#   BYTES         bytes per rank (default 67108864); NPS: rank counts (default "2 4")
#   DISK_DIR      the disk directory (default bench/build/io/disk, on the checkout's disk)
#   RUN_TIMEOUT   seconds per run (default 900)
#
# The tmpfs is mounted by the script (root) in bench/build/io/tmpfs and unmounted at the
# end; without root, /dev/shm/compi-io-bench is used and removed. Every MPI runs with its
# defaults: ROMIO's and OMPIO's own choice of aggregators and buffers, compi's default
# creators.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/io

bench_script_args "$@"
if [ $quick = 1 ]; then
    ROUNDS=${ROUNDS:-1} TRIALS=${TRIALS:-1} BYTES=${BYTES:-8388608}
fi
ROUNDS=${ROUNDS:-3}
TRIALS=${TRIALS:-3}
BYTES=${BYTES:-67108864}
NPS=${NPS:-2 4}
RUN_TIMEOUT=${RUN_TIMEOUT:-900}
MPIS=${MPIS:-omp mpich omp5 mpich5 compi}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}

. "$here/lib.sh"

rm -rf "$build/raw" "$build/omp" "$build/mpich" "$build/omp5" "$build/mpich5" "$build/compi"
mkdir -p "$build/raw" "$build/plot" "$results"
rm -f "$results/io.csv" "$results/io-median.csv" "$results/io.png" "$results/io-summary.txt"

# --- the two directories ---------------------------------------------------------------
disk_dir=${DISK_DIR:-$build/disk}
mkdir -p "$disk_dir"
tmpfs_dir=$build/tmpfs
mounted=0
cleanup() {
    rm -f "$disk_dir"/io_bench.* "$tmpfs_dir"/io_bench.* 2>/dev/null || true
    if [ $mounted = 1 ]; then
        umount "$tmpfs_dir" || true
    elif [ "$tmpfs_dir" = /dev/shm/compi-io-bench ]; then
        rm -rf "$tmpfs_dir"
    fi
}
trap cleanup EXIT
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$tmpfs_dir"
    mount -t tmpfs -o size=2g compi-io-bench "$tmpfs_dir" && mounted=1
fi
if [ $mounted = 0 ]; then
    tmpfs_dir=/dev/shm/compi-io-bench
    mkdir -p "$tmpfs_dir"
fi
declare -A DIR=([tmpfs]=$tmpfs_dir [disk]=$disk_dir)

# The file system alone: dd of as many bytes as one run's file at the largest rank count
dd_mbps() { # dir -> "write_MBps read_MBps"
    local f=$1/dd.dat mb n w r
    n=$((BYTES * ${NPS##* } / 4194304))
    [ $n -ge 1 ] || n=1
    w=$(dd if=/dev/zero of="$f" bs=4M count=$n conv=fsync 2>&1 | sed -n 's/.*, \([0-9.]*\) s, .*/\1/p')
    r=$(dd if="$f" of=/dev/null bs=4M 2>&1 | sed -n 's/.*, \([0-9.]*\) s, .*/\1/p')
    rm -f "$f"
    mb=$(awk -v n=$n 'BEGIN { print n * 4194304 / 1e6 }')
    awk -v mb="$mb" -v w="$w" -v r="$r" 'BEGIN { printf "%.0f %.0f", mb / w, mb / r }'
}

bench_build "omp mpich omp5 mpich5 compi" bench_programs io_bench

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/io.csv
echo "mpi,fs,np,layout,mode,op,record_bytes,total_bytes,median_mbps,max_mbps,trials,round" >"$csv"
ddcsv=$build/dd.csv
echo "fs,round,write_mbps,read_mbps" >"$ddcsv"
failures=()
cells=""
for fs in tmpfs disk; do
    for np in $NPS; do cells+="$fs $np"$'\n'; done
done
cells=${cells%$'\n'}
last_dd_round=0
io_run() { # round mpi fs np
    local r=$1 mpi=$2 fs=$3 np=$4 raw
    if [ "$r" != "$last_dd_round" ]; then
        for f in tmpfs disk; do echo "$f,$r,$(dd_mbps "${DIR[$f]}" | tr ' ' ,)" >>"$ddcsv"; done
        last_dd_round=$r
    fi
    raw=$build/raw/$mpi-$fs-$np-r$r
    say "round $r/$ROUNDS: $mpi $fs np $np"
    # shellcheck disable=SC2046 # the launcher line is words
    bench_run "$raw" "$mpi $fs np $np round $r" $(launcher "$mpi" "$np") \
        "$build/$mpi/io_bench" -d "${DIR[$fs]}" -b "$BYTES" -t "$TRIALS" || return 0
    grep -v '^#' "$raw.out" | tail -n +2 | sed "s/^/$mpi,$fs,$np,/; s/\$/,$r/" >>"$csv"
}
bench_rounds active "$cells" io_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

stats=$(/usr/bin/python3 "$here/io-summary.py" "$csv" "$ddcsv" "$results/io-median.csv" \
    "$build/plot")

# plot: strided layout, collective, write and read, one panel per (fs, op) at the largest np
np_top=${NPS##* }
plot_panel() { # fs op
    local sep="" mpi mode
    for mpi in "${active[@]}"; do
        for mode in collective independent; do
            f=$build/plot/$mpi-$1-$np_top-strided-$mode-$2.dat
            [ -s "$f" ] || continue
            printf '%s"%s" using 1:2 with linespoints title "%s %s"' "$sep" "$f" "$mpi" "$mode"
            sep=", "
        done
    done
}
{
    echo 'set terminal pngcairo size 1400,1000 font ",10"'
    echo "set output \"$results/io.png\""
    echo "set multiplot layout 2,2 title \"strided records, $np_top ranks, one file, $(hostname): median of $ROUNDS rounds\""
    echo 'set logscale x 2; set grid; set key top left'
    echo 'set xtics ("1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304)'
    echo 'set xlabel "record size"; set ylabel "MB/s (10^6 B)"'
    for fs in tmpfs disk; do
        for op in write read; do
            p=$(plot_panel $fs $op)
            echo "set title \"$op, $fs\""
            [ -n "$p" ] && echo "plot $p" || echo 'plot 0 notitle'
        done
    done
    echo 'unset multiplot'
} | gnuplot || say "plot failed"

{
    echo "compi MPI-IO comparison (bench/run-io.sh)"
    echo
    machine_section "the benchmark's own ranks add about the rank count; more means other work"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with ROUNDS=$ROUNDS TRIALS=$TRIALS BYTES=$BYTES NPS=\"$NPS\" MPIS=\"$MPIS\"" \
        "COMPI_PREFIX=$COMPI_PREFIX"
    echo "  directories: tmpfs $tmpfs_dir, disk $disk_dir ($(df -T "$disk_dir" | awk 'NR==2 {print $2}'))"
    echo
    echo "Implementations (each: LAUNCHER io_bench -d DIR -b $BYTES -t $TRIALS)"
    for mpi in "${active[@]}"; do
        echo "  $mpi: $(sed -n 's/^# library: //p' "$build/raw/$mpi-tmpfs-${NPS%% *}-r1.out" 2>/dev/null | head -1)"
        echo "    launcher: $(launcher "$mpi" "${NPS%% *}") (at ${NPS%% *} ranks)"
    done
    echo
    echo "$stats"
    if [ ${#failures[@]} != 0 ]; then
        echo
        echo "Failures"
        printf '  %s\n' "${failures[@]}"
    fi
    echo
    echo "Files: io.csv (every round), io-median.csv, io.png (strided, largest rank count)"
} >"$results/io-summary.txt"
cat "$results/io-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
