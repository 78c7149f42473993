#!/usr/bin/python3
"""io-summary.py: folds the per-round rows of io.csv (bench/run-io.sh) into one value per
(implementation, file system, ranks, layout, mode, operation, record size).

Usage: io-summary.py io.csv dd.csv median.csv plotdir > stats.txt

  median.csv  the median over rounds of each run's median bandwidth, and the best seen
  plotdir/    <mpi>-<fs>-<np>-<layout>-<mode>-<op>.dat: record_bytes median_mbps
  stdout      the file systems' own bandwidth (dd), then every row with compi's ratio to
              the best of the other MPIs (above 1: compi is faster), and a count of the
              collective strided rows at or above the best peer

Standard library only.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import PEERS  # noqa: E402


def main():
    src, ddsrc, median_csv, plotdir = sys.argv[1:5]
    rows = defaultdict(list)
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["mpi"], r["fs"], int(r["np"]), r["layout"], r["mode"], r["op"],
                   int(r["record_bytes"]))
            rows[key].append((float(r["median_mbps"]), float(r["max_mbps"])))
    agg = {k: (statistics.median(v[0] for v in vs), max(v[1] for v in vs), len(vs))
           for k, vs in rows.items()}
    with open(median_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mpi", "fs", "np", "layout", "mode", "op", "record_bytes", "rounds",
                    "median_mbps", "max_mbps"])
        for k in sorted(agg):
            w.writerow(list(k) + [agg[k][2], "%.1f" % agg[k][0], "%.1f" % agg[k][1]])
    os.makedirs(plotdir, exist_ok=True)
    series = defaultdict(list)
    for k, v in agg.items():
        series[k[:6]].append((k[6], v[0]))
    for s, pts in series.items():
        with open(os.path.join(plotdir, "-".join(str(x) for x in s) + ".dat"), "w") as f:
            for rec, mbps in sorted(pts):
                f.write("%d %.1f\n" % (rec, mbps))

    dd = defaultdict(lambda: ([], []))
    with open(ddsrc, newline="") as f:
        for r in csv.DictReader(f):
            dd[r["fs"]][0].append(float(r["write_mbps"]))
            dd[r["fs"]][1].append(float(r["read_mbps"]))
    print("The file systems alone (dd, 4 MiB blocks, write with fsync; median of rounds)")
    for fs, (wr, rd) in sorted(dd.items()):
        print("  %-6s write %8.0f MB/s   read %8.0f MB/s" % (fs, statistics.median(wr),
                                                           statistics.median(rd)))
    print()
    mpis = sorted({k[0] for k in agg}, key=lambda m: (m == "compi", m))
    print("Median bandwidth over rounds, MB/s (ratio: compi / the best peer)")
    head = "  %-5s %2s %-10s %-11s %-5s %8s" % ("fs", "np", "layout", "mode", "op", "record")
    print(head + "".join("%10s" % m for m in mpis) + "%8s" % "ratio")
    ahead = total = 0
    ratios = defaultdict(list)
    for k in sorted({k[1:] for k in agg}):
        vals = {m: agg.get((m,) + k) for m in mpis}
        line = "  %-5s %2d %-10s %-11s %-5s %8d" % k
        line += "".join("%10.1f" % vals[m][0] if vals[m] else "%10s" % "-" for m in mpis)
        peers = [vals[m][0] for m in PEERS if vals.get(m)]
        if vals.get("compi") and peers:
            ratio = vals["compi"][0] / max(peers)
            line += "%8.2f" % ratio
            ratios[k[2:5]].append(ratio)
            if k[2] == "strided" and k[3] == "collective":
                total += 1
                ahead += ratio >= 1.0
        print(line)
    print()
    print("compi / best peer, median over file systems, rank counts and record sizes")
    for g in sorted(ratios):
        v = ratios[g]
        print("  %-10s %-11s %-5s  median %.2f  (%.2f .. %.2f, %d rows)" %
              (g + (statistics.median(v), min(v), max(v), len(v))))
    if total:
        print()
        print("collective strided rows where compi is at or above the best peer: "
              "%d of %d" % (ahead, total))


main()
