#!/usr/bin/python3
"""coll-summary.py: folds the per-round rows of coll.csv into one value per
(implementation, ranks, collective, size) and writes what run-coll.sh needs from them.

Usage: coll-summary.py coll.csv median.csv plotdir out.png title > stats.txt

  median.csv   mpi,np,collective,bytes,rounds,median_usec,min_usec: the median over
               rounds of each round's median, and the best value seen in any round
  plotdir/     <mpi>-np<np>-<collective>.dat (bytes median_usec min_usec) for gnuplot,
               <mpi>-barrier.dat (np median_usec min_usec), and coll.gp, the gnuplot
               script that draws out.png: one log-log panel per collective
  stdout       compi's latency goals (8 B allreduce, bcast and barrier at 2 ranks: compi
               against the best peer: bench/peers.py), then compi's ratio to the best
               of the others at a few sizes for every collective and rank count

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

# "base": compi built at an earlier revision (bench/build-base.sh), shown beside compi
# and never counted among "the others"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import COLORS, NAMES, ORDER, peer_names  # noqa: E402
COLLS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall"]
TARGETS = [("allreduce", 8), ("bcast", 8), ("barrier", 0)]
SHOWN = [8, 1024, 65536, 1 << 20]


def load(path):
    rows = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["mpi"], int(r["np"]), r["collective"], int(r["bytes"]))
            rows[key].append(r)
    return rows


def fold(rows):
    return {key: {"rounds": len(rs),
                  "median_usec": statistics.median(float(r["median_usec"]) for r in rs),
                  "min_usec": min(float(r["min_usec"]) for r in rs)}
            for key, rs in rows.items()}


def sort_key(k):
    return (ORDER.index(k[0]) if k[0] in ORDER else 99, k[1], COLLS.index(k[2])
            if k[2] in COLLS else 99, k[3])


def write_median(agg, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mpi", "np", "collective", "bytes", "rounds", "median_usec", "min_usec"])
        for k in sorted(agg, key=sort_key):
            a = agg[k]
            w.writerow(list(k) + [a["rounds"], "%.3f" % a["median_usec"],
                                  "%.3f" % a["min_usec"]])


def write_plot(agg, plotdir, png, title):
    os.makedirs(plotdir, exist_ok=True)
    series = defaultdict(list)
    for (mpi, np, coll, size), a in agg.items():
        if coll == "barrier":
            series[(mpi, None, coll)].append((np, a))
        else:
            series[(mpi, np, coll)].append((size, a))
    files = {}
    for (mpi, np, coll), pts in series.items():
        name = "%s-barrier.dat" % mpi if np is None else "%s-np%d-%s.dat" % (mpi, np, coll)
        path = os.path.join(plotdir, name)
        with open(path, "w") as f:
            f.write("# %s median_usec min_usec\n" % ("np" if np is None else "bytes"))
            for x, a in sorted(pts, key=lambda p: p[0]):
                f.write("%d %.4f %.4f\n" % (x, a["median_usec"], a["min_usec"]))
        files[(mpi, np, coll)] = path
    if not files:
        return
    mpis = [m for m in ORDER if any(k[0] == m for k in files)]
    nps = sorted({k[1] for k in files if k[1] is not None})
    gp = ['set terminal pngcairo size 1500,900 font ",9"',
          'set output "%s"' % png,
          'set multiplot layout 2,3 title "%s"' % title.replace('"', "'"),
          "set grid", 'set key top left font ",8"', "set logscale y 10",
          'set ylabel "latency (usec, lower is better)"']
    for coll in COLLS:
        lines = []
        if coll == "barrier":
            gp += ["unset logscale x", 'set xlabel "ranks"', "set xtics (%s)" %
                   ", ".join("\"%d\" %d" % (p, p) for p in nps),
                   "set xrange [%g:%g]" % (min(nps) - 0.5, max(nps) + 0.5) if nps else ""]
            for m in mpis:
                if (m, None, "barrier") in files:
                    lines.append('"%s" using 1:2 with linespoints lw 2 lc rgb "%s" title "%s"'
                                 % (files[(m, None, "barrier")], COLORS[m], NAMES[m]))
        else:
            gp += ["set logscale x 2", "set autoscale x", 'set xlabel "bytes%s"' %
                   (" per rank" if coll == "allgather" else
                    " per pair" if coll == "alltoall" else ""),
                   'set xtics ("8" 8, "64" 64, "512" 512, "4K" 4096, "32K" 32768, '
                   '"256K" 262144, "1M" 1048576)']
            for m in mpis:
                for i, np in enumerate(nps):
                    if (m, np, coll) in files:
                        lines.append('"%s" using 1:2 with linespoints lw 2 dt %d lc rgb "%s" '
                                     'title "%s, %d ranks"' % (files[(m, np, coll)], 1 + i,
                                                               COLORS[m], NAMES[m], np))
        gp.append('set title "%s"' % coll)
        gp.append("plot " + ", ".join(lines) if lines else "set multiplot next")
    gp.append("unset multiplot")
    with open(os.path.join(plotdir, "coll.gp"), "w") as f:
        f.write("\n".join(g for g in gp if g) + "\n")


def human(size):
    if size >= 1 << 20:
        return "%d MiB" % (size >> 20)
    if size >= 1024:
        return "%d KiB" % (size >> 10)
    return "%d B" % size


def med(agg, mpi, np, coll, size):
    return agg.get((mpi, np, coll, size), {}).get("median_usec")


def fmt(v, spec):
    return "n/a" if v is None else spec % v


def targets(agg, mpis):
    others = [m for m in mpis if m not in ("compi", "base")]
    print("Goals: at 2 ranks, 8 B allreduce, bcast and barrier no slower than the")
    print("best peer.  Medians over rounds, usec; ratio > 1: compi slower")
    print("%-14s" % "" + "".join("%11s" % NAMES[m] for m in mpis) + "%12s%10s  %s" %
          ("best", "ratio", "goal"))
    for coll, size in TARGETS:
        vals = {m: med(agg, m, 2, coll, size) for m in mpis}
        have = [(vals[m], m) for m in others if vals[m] is not None]
        best = min(have) if have else None
        line = "%-14s" % ("%s %s" % (coll, "" if coll == "barrier" else human(size)))
        line += "".join("%11s" % fmt(vals[m], "%.3f") for m in mpis)
        c = vals.get("compi")
        if best is not None and c is not None:
            ratio = c / best[0]
            line += "%12s%10s  %s" % (NAMES[best[1]], "%.2fx" % ratio,
                                      "met" if ratio <= 1.0 else "MISSED")
        else:
            line += "%12s%10s  %s" % ("n/a", "n/a", "n/a")
        b = vals.get("base")
        if b is not None and c is not None:
            line += "   compi/base %.2fx" % (c / b)
        print(line)


def overview(agg, mpis):
    others = [m for m in mpis if m not in ("compi", "base")]
    nps = sorted({k[1] for k in agg})
    if "compi" not in mpis or not others:
        return
    print("compi / best of %s, median over rounds (< 1: compi faster)" % peer_names(others))
    head = "%-10s%4s" % ("collective", "np")
    head += "".join("%10s" % human(s) for s in SHOWN)
    print(head)
    for coll in COLLS:
        for np in nps:
            sizes = [0] if coll == "barrier" else SHOWN
            cells = []
            for s in sizes:
                c = med(agg, "compi", np, coll, s)
                have = [v for v in (med(agg, m, np, coll, s) for m in others) if v is not None]
                cells.append("%.2fx" % (c / min(have)) if c is not None and have and min(have)
                             else "n/a")
            print("%-10s%4d" % (coll, np) + "".join("%10s" % x for x in cells))


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    agg = fold(load(sys.argv[1]))
    write_median(agg, sys.argv[2])
    write_plot(agg, sys.argv[3], sys.argv[4], sys.argv[5])
    present = {k[0] for k in agg}
    mpis = [m for m in ORDER if m in present]
    if not mpis:
        print("no results")
        return
    targets(agg, mpis)
    print()
    overview(agg, mpis)


if __name__ == "__main__":
    main()
