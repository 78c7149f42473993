#!/usr/bin/python3
"""osu-coll-summary.py: medians, ratios, targets and the plot of bench/run-osu-coll.sh.

Usage: osu-coll-summary.py osu-coll.csv osu-coll-median.csv plotdir out.png title [limits.csv]
       > stats.txt

  osu-coll.csv         input: mpi,benchmark,np,size,value,unit,round (one OSU row each)
  osu-coll-median.csv  output: benchmark,np,size,unit, the median of each MPI over the
                       rounds, best_peer (the best of the peers that ran: bench/peers.py),
                       ratio, target,
                       met, and with a "base" (compi at an earlier revision) in the runs,
                       vs_base: compi's time over the base's (bandwidth: base / compi)
  stdout               every row of the median table, then the targets met and missed
  plotdir/             the .dat files and osu-coll.gp, the gnuplot script for out.png
  limits.csv           optional input: name,value,unit,round rows of bench/hw_limits (the
                       machine's limits, measured in the same run), printed after the
                       rows with what they bound

ratio is always compi's time over the best peer's, so below 1 is faster: for latency
rows compi_us / min(peers), for osu_bw (MB/s) max(peers) / compi.  Targets: every row
ratio <= 0.9; osu_latency at 8 B also <= 0.15 us, osu_allreduce at 1 MiB also <= 100 us
(on the 2-core Intel Xeon these were set for: a cache line's hand-off is about 66 ns).

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import COLORS, NAMES, ORDER, best_peer  # noqa: E402

MIB = 1 << 20


def target(bench, size):
    """(text, predicate over (compi value, ratio)) or None"""
    if bench == "osu_latency" and size == 8:
        return "<=0.9x,<=0.15us", lambda v, r: r <= 0.9 and v <= 0.15
    if bench == "osu_allreduce" and size == MIB:
        return "<=0.9x,<=100us", lambda v, r: r <= 0.9 and v <= 100
    return "<=0.9x", lambda v, r: r <= 0.9


def read_limits(path):
    """bench/hw_limits' rows (one set per round): name -> (median value, unit)"""
    vals, units = defaultdict(list), {}
    if path and os.path.exists(path):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                vals[r["name"]].append(float(r["value"]))
                units[r["name"]] = r["unit"]
    return {k: (statistics.median(v), units[k]) for k, v in vals.items()}


def limit_lines(lim):
    """the machine's limits, and what they bound"""
    out = []
    if "handoff_ns" in lim:
        out.append("  a cache line's hand-off between two cores, one way: %.0f ns: the floor "
                   "of osu_latency at 8 B" % lim["handoff_ns"][0])
    if "handoff2_ns" in lim:
        out.append("  the same through two lines, one per direction (a transport's rings): %.0f "
                   "ns: each write first takes its line back from the core that polls it"
                   % lim["handoff2_ns"][0])
    if "handoff_work_ns" in lim and "handoff2_work_ns" in lim:
        out.append("  with about 60 ns of work between reading and replying, as a library "
                   "does: one line %.0f ns, two lines %.0f ns (the waiting core polls the one "
                   "line back meanwhile)"
                   % (lim["handoff_work_ns"][0], lim["handoff2_work_ns"][0]))
    if "memcpy_1mib_us" in lim:
        out.append("  memcpy of 1 MiB on one core, in its caches: %.1f us (%.1f GB/s)"
                   % (lim["memcpy_1mib_us"][0], MIB / lim["memcpy_1mib_us"][0] / 1e3))
    if "xcopy_1mib_us" in lim:
        out.append("  memcpy of 1 MiB that the other core has just written: %.1f us: the floor "
                   "of osu_latency at 1 MiB, and of osu_allreduce at 1 MiB at 2 ranks (each "
                   "rank reads half of the other's vector and its half of the result)"
                   % lim["xcopy_1mib_us"][0])
    return out


def main():
    rows_csv, median_csv, plotdir, png, title = sys.argv[1:6]
    lim = read_limits(sys.argv[6] if len(sys.argv) > 6 else None)
    vals = defaultdict(list)
    units = {}
    benches = []
    with open(rows_csv, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["benchmark"], int(r["np"]), int(r["size"]))
            vals[key + (r["mpi"],)].append(float(r["value"]))
            units[r["benchmark"]] = r["unit"]
            if r["benchmark"] not in benches:
                benches.append(r["benchmark"])
    mpis = [m for m in ORDER if any(k[3] == m for k in vals)]
    has_base = "base" in mpis
    keys = sorted({k[:3] for k in vals}, key=lambda k: (benches.index(k[0]), k[1], k[2]))
    med = {k: statistics.median(v) for k, v in vals.items()}

    out, table, met, missed = [], [], [], []
    hdr = "%-20s %3s %8s" % ("benchmark", "np", "bytes") + "".join(
        "%11s" % NAMES[m] for m in mpis) + "%9s %14s %5s" % ("ratio", "target", "met") + (
        "%9s" % "vs base" if has_base else "")
    last = None
    for b, np_, size in keys:
        if b != last:
            out += ["", "%s (%s, median of %d round(s); ratio = compi time / best peer's)"
                    % (b, "MB/s, higher is better" if units[b] == "MB/s"
                       else "usec, lower is better",
                       max(len(vals[(b, np_, size, m)]) for m in mpis)), hdr]
            last = b
        v = {m: med.get((b, np_, size, m)) for m in mpis}
        best = best_peer(v, units[b] == "MB/s")
        ratio = None
        c = v.get("compi")
        if best is not None and c:
            ratio = best / c if units[b] == "MB/s" else c / best
        vs_base = None
        if has_base and c and v.get("base"):
            vs_base = v["base"] / c if units[b] == "MB/s" else c / v["base"]
        t = target(b, size)
        ok = ""
        if t and c is not None and ratio is not None:
            ok = "yes" if t[1](c, ratio) else "no"
            (met if ok == "yes" else missed).append((b, size, ratio, c))
        out.append("%-20s %3d %8d" % (b, np_, size) + "".join(
            "%11s" % ("%.2f" % v[m] if v[m] is not None else "-") for m in mpis) +
            "%9s %14s %5s" % ("%.2f" % ratio if ratio is not None else "-",
                              t[0] if t else "-", ok or "-") +
            ("%9s" % ("%.2f" % vs_base if vs_base is not None else "-") if has_base else ""))
        table.append([b, np_, size, units[b]] +
                     ["%g" % v[m] if v[m] is not None else "" for m in ORDER if m in mpis] +
                     ["%g" % best if best is not None else "",
                      "%.3f" % ratio if ratio is not None else "",
                      t[0] if t else "", ok] +
                     (["%.3f" % vs_base if vs_base is not None else ""] if has_base else []))
    with open(median_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "np", "size", "unit"] + mpis +
                   ["best_peer", "ratio", "target", "met"] + (["vs_base"] if has_base else []))
        w.writerows(table)

    if lim:
        out += ["", "The machine's limits (bench/hw_limits, in the same run: median of the rounds)"]
        out += limit_lines(lim)
    out += ["", "Targets: %d met, %d missed" % (len(met), len(missed))]
    by_bench = defaultdict(list)
    for b, size, ratio, c in missed:
        by_bench[b].append("%d (%.2f)" % (size, ratio))
    for b in benches:
        if by_bench[b]:
            out.append("  missed %-18s bytes (ratio): %s" % (b, ", ".join(by_bench[b])))
    print("\n".join(out).lstrip("\n"))

    # --- plot: one log-log panel per benchmark, then compi's ratio per collective
    n = len(benches) + 1
    cols = 4
    gp = ['set terminal pngcairo noenhanced size 1800,%d font ",9"' % (330 * ((n + cols - 1) // cols)),
          'set output "%s"' % png,
          'set multiplot layout %d,%d title "%s"' % ((n + cols - 1) // cols, cols,
                                                     title.replace('"', "'")),
          "set grid", 'set key top left font ",8"', 'set xlabel "bytes"',
          'set format x "%.0s%cB"']
    for b in benches:
        lines = []
        for m in mpis:
            pts = sorted((k[2], x) for k, x in med.items() if k[0] == b and k[3] == m)
            if b == "osu_barrier":
                pts = [(1, x) for _, x in pts]
            pts = [p for p in pts if p[0] > 0]
            if not pts:
                continue
            dat = os.path.join(plotdir, "%s-%s.dat" % (m, b))
            with open(dat, "w") as f:
                f.writelines("%d %g\n" % p for p in pts)
            lines.append('"%s" using 1:2 with linespoints lc rgb "%s" title "%s"'
                         % (dat, COLORS[m], NAMES[m]))
        gp += ["set logscale xy", 'set ylabel "%s"' % (
            "MB/s, higher is better" if units[b] == "MB/s" else "usec, lower is better"),
            'set title "%s"' % b, "plot " + ", ".join(lines) if lines else "set multiplot next"]
    lines = []
    for b in benches:
        if units[b] == "MB/s" or b in ("osu_latency", "osu_barrier"):
            continue
        ri = 5 + len(mpis)  # the ratio's column: after the medians and best_peer
        pts = [(r[2], float(r[ri])) for r in table if r[0] == b and r[ri] and r[2] > 0]
        if not pts:
            continue
        dat = os.path.join(plotdir, "ratio-%s.dat" % b)
        with open(dat, "w") as f:
            f.writelines("%d %g\n" % p for p in pts)
        lines.append('"%s" using 1:2 with linespoints title "%s"' % (dat, b[4:]))
    gp += ["set logscale x", "unset logscale y", 'set ylabel "compi / best peer"',
           'set title "compi time / best peer (target 0.9)"', 'set key top left font ",7"',
           "plot " + ", ".join(lines + ["0.9 with lines dt 2 lc rgb 'black' title '0.9'"])]
    gp.append("unset multiplot")
    with open(os.path.join(plotdir, "osu-coll.gp"), "w") as f:
        f.write("\n".join(gp) + "\n")


if __name__ == "__main__":
    main()
