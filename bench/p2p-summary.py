#!/usr/bin/python3
"""p2p-summary.py: folds the per-round rows of p2p.csv into one value per
(implementation, benchmark, size) and writes what run-p2p.sh needs from them.

Usage: p2p-summary.py p2p.csv median.csv plotdir > stats.txt

  median.csv   mpi,benchmark,bytes,rounds,median_usec,min_usec,mbps,max_mbps: the median
               over rounds of each round's median, and the best value seen in any round
  plotdir/     <mpi>-<benchmark>.dat, whitespace columns for gnuplot (bytes median_usec
               min_usec mbps max_mbps), sizes of 0 bytes left out (log axes)
  stdout       the comparison the summary asks for: 0-8 B latency (compi against each
               other MPI) and 1-4 MiB bandwidth (compi as % of the best of the others)

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import NAMES, ORDER  # noqa: E402
SMALL = [0, 1, 2, 4, 8]
LARGE = [1 << 20, 2 << 20, 4 << 20]


def load(path):
    rows = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["mpi"], r["benchmark"], int(r["bytes"]))
            rows[key].append(r)
    return rows


def fold(rows):
    out = {}
    for key, rs in rows.items():
        out[key] = {
            "rounds": len(rs),
            "median_usec": statistics.median(float(r["median_usec"]) for r in rs),
            "min_usec": min(float(r["min_usec"]) for r in rs),
            "mbps": statistics.median(float(r["mbps"]) for r in rs),
            "max_mbps": max(float(r["max_mbps"]) for r in rs),
        }
    return out


def write_median(agg, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mpi", "benchmark", "bytes", "rounds", "median_usec", "min_usec", "mbps",
                    "max_mbps"])
        for (mpi, bench, size) in sorted(agg, key=lambda k: (ORDER.index(k[0])
                                                             if k[0] in ORDER else 99,
                                                             k[1], k[2])):
            a = agg[(mpi, bench, size)]
            w.writerow([mpi, bench, size, a["rounds"], "%.3f" % a["median_usec"],
                        "%.3f" % a["min_usec"], "%.1f" % a["mbps"], "%.1f" % a["max_mbps"]])


def write_plot_data(agg, plotdir):
    os.makedirs(plotdir, exist_ok=True)
    series = defaultdict(list)
    for (mpi, bench, size), a in agg.items():
        if size > 0:
            series[(mpi, bench)].append((size, a))
    for (mpi, bench), pts in series.items():
        with open(os.path.join(plotdir, "%s-%s.dat" % (mpi, bench)), "w") as f:
            f.write("# bytes median_usec min_usec mbps max_mbps\n")
            for size, a in sorted(pts, key=lambda p: p[0]):
                f.write("%d %.4f %.4f %.2f %.2f\n" % (size, a["median_usec"], a["min_usec"],
                                                     a["mbps"], a["max_mbps"]))


def human(size):
    return "%d MiB" % (size >> 20) if size >= 1 << 20 else "%d B" % size


def fmt(v, spec):
    return "n/a" if v is None else spec % v


def latency_table(agg, mpis):
    others = [m for m in mpis if m != "compi"]
    have_compi = "compi" in mpis
    head = "%-8s" % "size" + "".join("%12s" % NAMES.get(m, m) for m in mpis)
    if have_compi:
        head += "".join("%18s" % ("compi/" + NAMES.get(m, m)) for m in others)
    elif others == ["omp", "mpich"]:
        head += "%16s" % "MPICH/Open MPI"
    print(head)
    sums = defaultdict(list)
    for size in SMALL:
        vals = {m: agg.get((m, "pingpong", size), {}).get("median_usec") for m in mpis}
        line = "%-8s" % human(size) + "".join("%12s" % fmt(vals[m], "%.3f") for m in mpis)
        for m in mpis:
            if vals[m] is not None:
                sums[m].append(vals[m])
        if have_compi:
            for m in others:
                ok = vals["compi"] is not None and vals[m]
                line += "%18s" % (fmt(vals["compi"] / vals[m], "%.2fx") if ok else "n/a")
        elif others == ["omp", "mpich"] and vals["omp"] and vals["mpich"] is not None:
            line += "%16s" % ("%.2fx" % (vals["mpich"] / vals["omp"]))
        print(line)
    means = {m: statistics.mean(sums[m]) if len(sums[m]) == len(SMALL) else None for m in mpis}
    line = "%-8s" % "mean" + "".join("%12s" % fmt(means[m], "%.3f") for m in mpis)
    if have_compi:
        for m in others:
            ok = means["compi"] is not None and means[m]
            line += "%18s" % (fmt(means["compi"] / means[m], "%.2fx") if ok else "n/a")
    elif others == ["omp", "mpich"] and means["omp"] and means["mpich"] is not None:
        line += "%16s" % ("%.2fx" % (means["mpich"] / means["omp"]))
    print(line)


def bandwidth_table(agg, mpis):
    others = [m for m in mpis if m != "compi"]
    have_compi = "compi" in mpis
    head = "%-8s" % "size" + "".join("%12s" % NAMES.get(m, m) for m in mpis)
    head += "%26s" % ("compi % of best other" if have_compi else "")
    print(head.rstrip())
    sums = defaultdict(list)
    for size in LARGE:
        vals = {m: agg.get((m, "bandwidth", size), {}).get("mbps") for m in mpis}
        line = "%-8s" % human(size) + "".join("%12s" % fmt(vals[m], "%.1f") for m in mpis)
        for m in mpis:
            if vals[m] is not None:
                sums[m].append(vals[m])
        best = max((vals[m] for m in others if vals[m] is not None), default=None)
        if have_compi:
            ok = vals["compi"] is not None and best
            line += "%26s" % (fmt(100.0 * vals["compi"] / best, "%.0f%%") if ok else "n/a")
        print(line)
    means = {m: statistics.mean(sums[m]) if len(sums[m]) == len(LARGE) else None for m in mpis}
    line = "%-8s" % "mean" + "".join("%12s" % fmt(means[m], "%.1f") for m in mpis)
    best = max((means[m] for m in others if means[m] is not None), default=None)
    if have_compi:
        ok = means["compi"] is not None and best
        line += "%26s" % (fmt(100.0 * means["compi"] / best, "%.0f%%") if ok else "n/a")
    print(line)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    agg = fold(load(sys.argv[1]))
    write_median(agg, sys.argv[2])
    write_plot_data(agg, sys.argv[3])
    present = {k[0] for k in agg}
    mpis = [m for m in ORDER if m in present]
    if not mpis:
        print("no results")
        return
    print("One-way latency, 0-8 B: median over rounds of each run's median, usec"
          " (ratio > 1: compi slower)")
    latency_table(agg, mpis)
    print()
    print("Streaming bandwidth, 1-4 MiB: median over rounds, MB/s (MB = 10^6 B)")
    bandwidth_table(agg, mpis)


if __name__ == "__main__":
    main()
