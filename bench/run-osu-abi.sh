#!/bin/bash
# run-osu-abi.sh: OSU Micro-Benchmarks 7.4 built three ways and every build run on compi:
# with compi's mpicc (compi's own programs), with Debian MPICH's mpicc.mpich (a binary made
# for MPICH: compi's native ABI is MPICH's) and with compi's mpicc_abi (the MPI-5 standard
# ABI: mpi_abi.h and libmpi_abi.so.1, a layer over the native library).  What a program
# built for another MPI, or for the standard ABI, pays on compi.
#
#   1. installs Debian's Open MPI, MPICH, gnuplot and python3 if any is missing (lib.sh)
#   2. builds OSU into bench/build/osu/<build>/ (bench/osu.sh): compi with compi's mpicc,
#      compi-mpich with mpicc.mpich, compi-abi with compi's mpicc_abi (nothing of OSU is
#      copied into the repository or changed)
#   3. runs, ROUNDS times with the order of the builds rotating every round, each benchmark
#      of BENCHES at NP ranks with compi's mpirun (which puts compi's library folder first
#      in the ranks' library path: the MPICH-built programs load compi's libmpi.so.12),
#      every run under `timeout`, rank r pinned to core r mod ncores (bind-rank.sh)
#   4. writes bench/results/: osu-abi.csv (every round and size), osu-abi-median.csv
#      (medians over rounds and each build's ratio to compi's own build: time / native
#      time, for osu_bw native bandwidth / bandwidth), osu-abi.png and
#      osu-abi-summary.txt (machine, command, every row)
#
# Exit status: 1 when a run failed or timed out, 0 otherwise.
#
# Usage: bench/run-osu-abi.sh [--quick] [--no-install] [--rebuild]
#   --quick       1 round, sizes up to 4 KiB: checks the pipeline
#   --no-install  never call apt-get (fails if something is missing)
#   --rebuild     build OSU again even when bench/build/osu/<build>/ is up to date
# Environment:
#   COMPI_PREFIX  where compi's mpicc, mpicc_abi and mpirun are (default <repo>/_build)
#   MPIS          builds (default "compi compi-mpich compi-abi")
#   NP            rank count (default 2)
#   ROUNDS        rounds (default 5)
#   MAX_SIZE      OSU's -m, the largest message (default 1048576)
#   BENCHES       benchmark names (default "osu_latency osu_bw osu_allreduce")
#   RUN_TIMEOUT   seconds per run (default 120)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
build=$here/build/osu

bench_script_args --with-rebuild "$@"
[ $quick = 0 ] || { ROUNDS=${ROUNDS:-1} MAX_SIZE=${MAX_SIZE:-4096}; }
ROUNDS=${ROUNDS:-5}
MAX_SIZE=${MAX_SIZE:-1048576}
NP=${NP:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
MPIS=${MPIS:-compi compi-mpich compi-abi}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
BENCHES=${BENCHES:-osu_latency osu_bw osu_allreduce}

. "$here/lib.sh"
. "$here/osu.sh"
[ -x "$compi_bin/mpicc_abi" ] || die "no mpicc_abi in $compi_bin (compi built without the standard ABI?)"
# the two foreign builds: their compilers; compi's mpirun launches every build
CC[compi-mpich]=mpicc.mpich
CXX[compi-mpich]=mpicxx.mpich
CC[compi-abi]=$compi_bin/mpicc_abi
# OSU links its programs with the C++ compiler (its utilities are C++): compi has no
# mpicxx_abi, so mpicc_abi runs g++ (COMPI_CC), through a wrapper written here
mkdir -p "$build"
printf '#!/bin/sh\nCOMPI_CC=${COMPI_CXX:-g++} exec "%s" "$@"\n' "$compi_bin/mpicc_abi" \
    >"$build/mpicxx_abi"
chmod +x "$build/mpicxx_abi"
CXX[compi-abi]=$build/mpicxx_abi
bench_dir() { # benchmark -> its folder under c/mpi
    case $1 in
    osu_latency | osu_bw | osu_bibw) echo pt2pt/standard ;;
    *) echo collective/blocking ;;
    esac
}
bench_unit() { case $1 in *_bw | *_bibw) echo MB/s ;; *) echo us ;; esac; }

mkdir -p "$build/raw" "$results"
rm -f "$results"/osu-abi*.csv "$results/osu-abi.png" "$results/osu-abi-summary.txt"

# --- 2. build -----------------------------------------------------------------------------
bench_build "compi compi-mpich compi-abi" build_osu

# --- 3. run -------------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/osu-abi.csv
echo "build,benchmark,np,size,value,unit,round" >"$csv"
failures=()
abi_run() { # round build benchmark
    local r=$1 b=$2 x=$3 rc=0 raw=$build/raw/abi-$2-$3-np$NP-r$1
    timeout -k 5 "$RUN_TIMEOUT" "$compi_bin/mpirun" -np "$NP" $compi_nobind \
        "$here/bind-rank.sh" "$build/$b/$OSU/c/mpi/$(bench_dir "$x")/$x" -m "1:$MAX_SIZE" \
        >"$raw.out" 2>"$raw.err" </dev/null || rc=$?
    osu_rows <"$raw.out" | sed "s|^|$b,$x,$NP,|; s|\$|,$(bench_unit "$x"),$r|" >"$raw.csv"
    osu_result "$raw" "$rc" "$b $x" "$r" || echo "$b,$x,$NP,,,failed (exit $rc),$r" >>"$raw.csv"
    cat "$raw.csv" >>"$csv"
}
bench_rounds active "$(printf '%s\n' $BENCHES)" abi_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 4. results -----------------------------------------------------------------------
mkdir -p "$build/plot-abi"
stats=$(/usr/bin/python3 - "$csv" "$results/osu-abi-median.csv" "$build/plot-abi" <<'EOF'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["value"]]
vals = {}
for r in rows:
    vals.setdefault((r["benchmark"], int(r["size"]), r["build"]), []).append(float(r["value"]))
med = {k: statistics.median(v) for k, v in vals.items()}
builds = ["compi", "compi-mpich", "compi-abi"]
out = csv.writer(open(sys.argv[2], "w"))
out.writerow(["benchmark", "size", "build", "median", "unit", "rounds", "ratio_to_compi"])
lines = []
for b in sorted({k[0] for k in med}):
    unit = "MB/s" if b.endswith("_bw") else "us"
    sizes = sorted({k[1] for k in med if k[0] == b})
    lines += ["", "%s (%s, median; ratio: the build's time over compi's own build's%s)"
              % (b, unit, ", bandwidth inverted" if unit == "MB/s" else ""),
              "  %8s %12s %12s %12s %8s %8s" % ("size", *builds, "mpich/c", "abi/c")]
    dat = open("%s/%s.dat" % (sys.argv[3], b), "w")
    allr = []  # the foreign builds' ratios, every size
    for s in sizes:
        m = [med.get((b, s, x)) for x in builds]
        ratio = []
        for x, v in zip(builds, m):
            r = None
            if v is not None and m[0]:
                r = (m[0] / v) if unit == "MB/s" else (v / m[0])
            ratio.append(r)
            if v is not None:
                out.writerow([b, s, x, "%.3f" % v, unit, len(vals[(b, s, x)]),
                              "" if r is None else "%.3f" % r])
        allr += [r for r in ratio[1:] if r is not None]
        f = lambda v: "-" if v is None else "%.2f" % v
        lines.append("  %8d %12s %12s %12s %8s %8s" % (s, *map(f, m), f(ratio[1]), f(ratio[2])))
        dat.write("%d %s %s\n" % (max(s, 1), f(ratio[1]).replace("-", "nan"),
                                  f(ratio[2]).replace("-", "nan")))
    if allr:
        lines.append("  ratios over all sizes and both foreign builds: median %.2f, %.2f to %.2f"
                     % (statistics.median(allr), min(allr), max(allr)))
print("\n".join(lines))
EOF
)
{
    echo "set terminal pngcairo size 1200,400 font ',9'"
    echo "set output '$results/osu-abi.png'"
    echo "set multiplot layout 1,$(echo $BENCHES | wc -w) title 'OSU 7.4 on compi at np $NP: the build over compi-built ($ROUNDS rounds, medians)'"
    echo "set logscale x 2; set xlabel 'bytes'; set ylabel 'ratio to compi-built'; set key top left"
    for x in $BENCHES; do
        echo "set title '$x'; plot '$build/plot-abi/$x.dat' u 1:2 w lp t 'built by mpicc.mpich', '' u 1:3 w lp t 'built by mpicc\\_abi', 1 w l lc 'gray' notitle"
    done
    echo "unset multiplot"
} >"$build/plot-abi/osu-abi.gp"
gnuplot "$build/plot-abi/osu-abi.gp" || say "gnuplot failed; no osu-abi.png"

{
    echo "OSU Micro-Benchmarks 7.4 built for compi, for MPICH and for the MPI-5 ABI, run on compi (bench/run-osu-abi.sh)"
    echo
    osu_machine
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with NP=$NP ROUNDS=$ROUNDS MAX_SIZE=$MAX_SIZE RUN_TIMEOUT=$RUN_TIMEOUT MPIS=\"$MPIS\""
    echo "       BENCHES=\"$BENCHES\" COMPI_PREFIX=$COMPI_PREFIX"
    echo "  each run: timeout -k 5 $RUN_TIMEOUT $compi_bin/mpirun -np $NP bench/bind-rank.sh PROGRAM -m 1:$MAX_SIZE"
    echo "  order:    rotated each round (round 1: ${active[*]})"
    echo
    echo "Builds (OSU unpacked from $OSU_TARBALL, unmodified, into bench/build/osu/<build>/)"
    for b in "${active[@]}"; do
        echo "  $b: ./configure $(conf_args "$b") && make; loads" \
            "$(LD_LIBRARY_PATH=$compi_bin/../lib/.libs ldd "$build/$b/$OSU/c/mpi/pt2pt/standard/osu_latency" |
                awk '/libmpi/ {print $1; exit}')"
    done
    echo "$stats"
    failures_section
    echo
    echo "Files: osu-abi.csv (every round), osu-abi-median.csv (medians, ratios), osu-abi.png;"
    echo "raw OSU output in bench/build/osu/raw/abi-*"
} >"$results/osu-abi-summary.txt"
cat "$results/osu-abi-summary.txt"
[ ${#failures[@]} = 0 ]
