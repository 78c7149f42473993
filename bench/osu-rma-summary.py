#!/usr/bin/python3
"""osu-rma-summary.py: medians, ratios, the target and the plot of bench/run-osu-rma.sh.

Usage: osu-rma-summary.py osu-rma.csv osu-rma-median.csv plotdir out.png title > stats.txt

  osu-rma.csv         input: mpi,benchmark,sync,window,np,size,value,unit,round (one OSU
                      row each; a failed run is a row with no size and value and the unit
                      "failed (exit N)")
  osu-rma-median.csv  output: benchmark,sync,window,np,size,unit, the median of each MPI
                      over the rounds, best_peer (the best of the peers: bench/peers.py),
                      ratio, met
  stdout              every row of the median table, the rows that miss the target
  plotdir/            the .dat files and osu-rma.gp, the gnuplot script for out.png

ratio is always compi's time over the best peer's, so below 1 is faster: for latency
rows (us) compi / min(peers), for bandwidth rows (MB/s) max(peers) / compi.  The target
of every row: ratio <= 1.0, compi at or below the best peer's median.

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import COLORS, NAMES, ORDER, best_peer  # noqa: E402
TARGET = 1.0


def main():
    rows_csv, median_csv, plotdir, png, title = sys.argv[1:6]
    vals = defaultdict(list)
    units, groups = {}, []
    with open(rows_csv, newline="") as f:
        for r in csv.DictReader(f):
            g = (r["benchmark"], r["sync"], r["window"], int(r["np"]))
            if r["value"] == "":
                continue  # a failed run: run-osu-rma.sh lists those
            vals[g + (int(r["size"]), r["mpi"])].append(float(r["value"]))
            units[r["benchmark"]] = r["unit"]
            if g not in groups:
                groups.append(g)
    mpis = [m for m in ORDER if any(k[5] == m for k in vals)]
    med = {k: statistics.median(v) for k, v in vals.items()}
    sizes = defaultdict(set)
    for k in vals:
        sizes[k[:4]].add(k[4])

    out, table, missed = [], [], []
    nmet = 0
    ratios = defaultdict(list)  # group -> [(ratio, size)]
    hdr = "%8s" % "bytes" + "".join("%11s" % NAMES[m] for m in mpis) + "%9s %5s" % (
        "ratio", "met")
    for g in groups:
        b, sync, win, np_ = g
        bw = units[b] == "MB/s"
        out += ["", "%s -s %s -w %s, np %d (%s, median of %d round(s))" % (
            b, sync, win, np_, "MB/s, higher is better" if bw else "usec, lower is better",
            max(len(vals[k]) for k in vals if k[:4] == g)), hdr]
        for size in sorted(sizes[g]):
            v = {m: med.get(g + (size, m)) for m in mpis}
            best = best_peer(v, bw)
            ratio = None
            c = v.get("compi")
            if best is not None and c:
                ratio = best / c if bw else c / best
            ok = ""
            if ratio is not None:
                ratios[g].append((ratio, size))
                ok = "yes" if ratio <= TARGET else "no"
                if ok == "yes":
                    nmet += 1
                else:
                    missed.append("%s -s %s -w %s %d B: %.2f" % (b, sync, win, size, ratio))
            out.append("%8d" % size + "".join(
                "%11s" % ("%.2f" % v[m] if v[m] is not None else "-") for m in mpis) +
                "%9s %5s" % ("%.2f" % ratio if ratio is not None else "-", ok or "-"))
            table.append([b, sync, win, np_, size, units[b]] +
                         ["%g" % v[m] if v[m] is not None else "" for m in mpis] +
                         ["%g" % best if best is not None else "",
                          "%.3f" % ratio if ratio is not None else "", ok])
    with open(median_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "sync", "window", "np", "size", "unit"] + mpis +
                   ["best_peer", "ratio", "met"])
        w.writerows(table)

    over = ["Overview: compi's ratio to the best peer over the sizes of each benchmark,",
            "synchronization and window (below 1 is faster)",
            "%-20s %-12s %-9s %6s %6s %6s %6s  %s" % (
                "benchmark", "sync", "window", "met", "min", "median", "max", "worst at")]
    for g in groups:
        rs = sorted(ratios[g])
        if not rs:
            continue
        over.append("%-20s %-12s %-9s %6s %6.2f %6.2f %6.2f  %d B" % (
            g[0], g[1], g[2], "%d/%d" % (sum(r <= TARGET for r, _ in rs), len(rs)),
            rs[0][0], statistics.median(r for r, _ in rs), rs[-1][0], rs[-1][1]))
    out = over + out
    out += ["", "Target: every row at or below the best peer's median (ratio <= %.1f): "
            "%d met, %d missed" % (TARGET, nmet, len(missed))]
    out += ["  missed " + m for m in missed]
    print("\n".join(out).lstrip("\n"))

    # --- plot: one log-log panel per benchmark and synchronization, a line per MPI
    # (colour) and window (dash)
    panels = []
    for b, sync, _, _ in groups:
        if (b, sync) not in panels:
            panels.append((b, sync))
    wins = []
    for g in groups:
        if g[2] not in wins:
            wins.append(g[2])
    cols = 6
    nrows = (len(panels) + cols - 1) // cols
    gp = ['set terminal pngcairo noenhanced size 2400,%d font ",8"' % (300 * nrows),
          'set output "%s"' % png,
          'set multiplot layout %d,%d title "%s"' % (nrows, cols, title.replace('"', "'")),
          "set grid", 'set key top left opaque font ",7"', 'set xlabel "bytes"',
          'set format x "%.0s%cB"', "set logscale xy", "set offsets graph 0.05, graph 0.05, 0, 0"]
    for b, sync in panels:
        lines = []
        for g in (g for g in groups if g[:2] == (b, sync)):
            for m in mpis:
                pts = sorted((k[4], x) for k, x in med.items() if k[:4] == g and k[5] == m)
                pts = [p for p in pts if p[0] > 0]
                if not pts:
                    continue
                dat = os.path.join(plotdir, "%s-%s-%s-%s.dat" % (m, b, sync, g[2]))
                with open(dat, "w") as f:
                    f.writelines("%d %g\n" % p for p in pts)
                lines.append('"%s" using 1:2 with linespoints lc rgb "%s" dt %d title "%s %s"'
                             % (dat, COLORS[m], 1 + wins.index(g[2]), NAMES[m], g[2]))
        gp += ['set ylabel "%s"' % ("MB/s" if units[b] == "MB/s" else "usec"),
               'set title "%s -s %s" noenhanced' % (b, sync),
               "plot " + ", ".join(lines) if lines else "set multiplot next"]
    gp.append("unset multiplot")
    with open(os.path.join(plotdir, "osu-rma.gp"), "w") as f:
        f.write("\n".join(gp) + "\n")


if __name__ == "__main__":
    main()
