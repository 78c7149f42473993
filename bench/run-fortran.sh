#!/bin/bash
# run-fortran.sh: what a Fortran program pays on compi: the same ping-pong and allreduce
# loops through C (bench/lang_c.c) and through Fortran's `use mpi_f08` (bench/lang_f08.f90),
# built with compi's mpicc and mpifort, run with compi's mpirun in the same run.
#
#   1. builds both programs into bench/build/fortran/ (needs gfortran and a compi built
#      with Fortran: configure says whether it found gfortran)
#   2. runs them ROUNDS times at NP ranks, the order alternating every round, each run
#      under `timeout', rank r pinned to core r mod ncores (bench/bind-rank.sh)
#   3. writes bench/results/: fortran.csv (every round: lang,bench,bytes,usec,round),
#      fortran-summary.txt (machine, command, medians over rounds, Fortran over C) and
#      fortran.png
#
# Each program prints, per size (8 B to 64 KiB by powers of 4), the median over 7 trials
# of 2000 repetitions; the table's value is the median of that over the rounds.
#
# Usage: bench/run-fortran.sh [--quick] [--no-install]
#   --quick       1 round: checks the pipeline
#   --no-install  never call apt-get (fails if something is missing)
# Environment:
#   COMPI_PREFIX  where compi's mpicc, mpifort and mpirun are (default <repo>/_build)
#   NP            rank count (default 2); ROUNDS (default 5); RUN_TIMEOUT (default 120 s)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"
bench_script_args "$@"
[ $quick = 0 ] || ROUNDS=${ROUNDS:-1}
ROUNDS=${ROUNDS:-5}
NP=${NP:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
COMPI_PREFIX=${COMPI_PREFIX:-$repo/_build}
MPIS=compi
. "$here/lib.sh"
[ -n "$compi_bin" ] || die "no compi build under $COMPI_PREFIX (build it first)"
[ -x "$compi_bin/mpifort" ] && command -v gfortran >/dev/null ||
    die "no mpifort in $compi_bin or no gfortran (apt-get install gfortran, then configure compi again)"

build=$here/build/fortran
mkdir -p "$build" "$results"
"$compi_bin/mpicc" -O2 -o "$build/lang_c" "$here/lang_c.c"
"$compi_bin/mpifort" -O2 -o "$build/lang_f08" "$here/lang_f08.f90"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -Is)
csv=$results/fortran.csv
echo "lang,bench,bytes,usec,round" >"$csv"
failures=()
langs=(c f08)
step() { # round lang
    local raw=$build/raw-$2-r$1
    # shellcheck disable=SC2046 # the launcher line is words
    if bench_run "$raw" "round $1 $2" $(launcher compi "$NP") "$here/bind-rank.sh" \
        "$build/lang_$2"; then
        sed "s/\$/,$1/" "$raw.out" >>"$csv"
        say "round $1/$ROUNDS $2: $(wc -l <"$raw.out") rows"
    fi
}
bench_rounds langs "" step
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

stats=$(/usr/bin/python3 - "$csv" "$build" "$results/fortran.png" <<'PY'
import csv, statistics, sys
from collections import defaultdict
rows, plotdir, png = sys.argv[1:4]
v = defaultdict(list)
for r in csv.DictReader(open(rows)):
    v[(r["bench"], int(r["bytes"]), r["lang"])].append(float(r["usec"]))
med = {k: statistics.median(x) for k, x in v.items()}
print("%-10s %8s %10s %10s %9s" % ("benchmark", "bytes", "C us", "f08 us", "f08 / C"))
gp = ['set terminal pngcairo noenhanced size 1000,400 font ",9"', 'set output "%s"' % png,
      'set multiplot layout 1,2 title "compi: use mpi_f08 against C (medians)"',
      "set grid", "set logscale xy", 'set xlabel "bytes"', 'set ylabel "usec"']
for b in ("pingpong", "allreduce"):
    sizes = sorted({k[1] for k in med if k[0] == b})
    lines = []
    for lang in ("c", "f08"):
        dat = "%s/%s-%s.dat" % (plotdir, b, lang)
        with open(dat, "w") as f:
            f.writelines("%d %g\n" % (s, med[(b, s, lang)]) for s in sizes if (b, s, lang) in med)
        lines.append('"%s" using 1:2 with linespoints title "%s"' % (dat, lang))
    for s in sizes:
        c, f = med.get((b, s, "c")), med.get((b, s, "f08"))
        print("%-10s %8d %10s %10s %9s" % (b, s, "%.3f" % c if c else "-", "%.3f" % f if f else "-",
                                         "%.2f" % (f / c) if c and f else "-"))
    gp += ['set title "%s"' % b, "plot " + ", ".join(lines)]
gp.append("unset multiplot")
open(plotdir + "/fortran.gp", "w").write("\n".join(gp) + "\n")
PY
)
gnuplot "$build/fortran.gp" || say "gnuplot failed; no fortran.png"
{
    echo "compi from Fortran (use mpi_f08) against C (bench/run-fortran.sh)"
    echo
    machine_section "the runs keep $NP cores busy, more means other work shared the machine"
    echo
    echo "Command"
    echo "  $invocation"
    echo "  with NP=$NP ROUNDS=$ROUNDS COMPI_PREFIX=$COMPI_PREFIX"
    echo "  programs: $compi_bin/mpicc -O2 bench/lang_c.c; $compi_bin/mpifort -O2 bench/lang_f08.f90"
    echo "  each run: timeout -k 10 $RUN_TIMEOUT $(launcher compi "$NP") bench/bind-rank.sh PROGRAM"
    echo
    echo "Medians over rounds (each run: median of 7 trials of 2000 repetitions; usec)"
    echo "$stats"
    failures_section
} >"$results/fortran-summary.txt"
cat "$results/fortran-summary.txt"
[ ${#failures[@]} = 0 ] || exit 1
