#!/usr/bin/python3
"""osu-summary.py: the tables and the plot of bench/run-osu.sh.

Usage: osu-summary.py osu-nbc.csv osu-nbc-runs.csv plotdir out.png title > stats.txt

  stdout    the verdict of every run (benchmark and topology against MPI and rank
            count: PASS, FAIL, ERROR, TIMEOUT, or TIMED where OSU has no validation),
            then the latency of each MPI at a few sizes (OSU's Overall(us) for the
            nonblocking benchmarks, Avg Latency(us) for the blocking ones) and compi's
            ratio to the best peer (bench/peers.py)
  plotdir/  <mpi>-<bench>-np<np>.dat (size latency) and osu.gp, the gnuplot script that
            draws out.png: one log-log panel per benchmark in PLOTTED

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import COLORS, NAMES, ORDER  # noqa: E402
SHOWN = [8, 1024, 65536, 1 << 20]
# (benchmark, topology) per panel; neighbourhood ones on the graph, which every np has
PLOTTED = [("osu_iallreduce", "-"), ("osu_ibcast", "-"), ("osu_iallgather", "-"),
           ("osu_ialltoall", "-"), ("osu_neighbor_alltoall", "graph:ring"),
           ("osu_ineighbor_allgather", "graph:ring")]
DASH = {2: 1, 3: 4, 4: 2}


def latency(r):
    v = r["overall_us"] or r["avg_latency_us"]
    return float(v) if v else None


def main():
    rows_csv, runs_csv, plotdir, png, title = sys.argv[1:6]
    with open(runs_csv, newline="") as f:
        runs = list(csv.DictReader(f))
    with open(rows_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    mpis = [m for m in ORDER if any(r["mpi"] == m for r in runs)]
    nps = sorted({int(r["np"]) for r in runs})

    # --- verdicts
    verdict = {}
    benches = []
    for r in runs:
        key = (r["benchmark"], r["topology"])
        if key not in benches:
            benches.append(key)
        verdict[key + (r["mpi"], int(r["np"]))] = r["result"]
    order = []
    for b, _ in benches:
        if b not in order:
            order.append(b)
    benches.sort(key=lambda k: (order.index(k[0]), k[1]))
    cols = [(m, n) for m in mpis for n in nps]
    w = max([len(b if t == "-" else "%s %s" % (b, t)) for b, t in benches] + [10])
    out = ["Validation (OSU -c): PASS = every size Pass; TIMED = no -c in OSU;",
           "SKIPPED = more ranks than cores and not in OVERSUB_MPIS;",
           "'.' = not run (OSU's default Cartesian ring needs 3 ranks)", "",
           " " * w + "  " + "  ".join("%-8s" % ("%s np%d" % (m[:5], n)) for m, n in cols)]
    for b, t in benches:
        name = b if t == "-" else "%s %s" % (b, t)
        out.append("%-*s  " % (w, name) + "  ".join(
            "%-8s" % verdict.get((b, t, m, n), ".") for m, n in cols))
    counts = defaultdict(lambda: defaultdict(int))
    for r in runs:
        counts[r["mpi"]][r["result"]] += 1
    out.append("")
    for m in mpis:
        out.append("  %-8s %s" % (NAMES[m] + ":", ", ".join(
            "%d %s" % (c, v) for v, c in sorted(counts[m].items()))))
    notes = [r for r in runs if r["result"] not in ("PASS", "TIMED", "SKIPPED")]
    if notes:
        out += ["", "Runs that did not pass"]
        out += ["  %s np %s %s %s: %s (exit %s) %s" % (r["mpi"], r["np"], r["benchmark"],
                r["topology"], r["result"], r["exit"], r["note"]) for r in notes]

    # --- latencies
    lat = {}
    for r in rows:
        v = latency(r)
        if v is None:
            continue
        size = int(r["size"]) if r["size"] else 0
        lat[(r["benchmark"], r["topology"], r["mpi"], int(r["np"]), size)] = v
    out += ["", "Latency (usec; nonblocking: Overall = init + compute + test + wait;",
            "blocking neighbourhood: Avg Latency) and compi / best of the others", ""]
    hdr = "%-*s %3s %8s" % (w, "benchmark", "np", "bytes") + "".join(
        "%11s" % NAMES[m] for m in mpis) + ("   compi/best" if "compi" in mpis else "")
    out.append(hdr)
    for b, t in benches:
        name = b if t == "-" else "%s %s" % (b, t)
        for n in nps:
            sizes = [0] if b == "osu_ibarrier" else SHOWN
            for s in sizes:
                vals = {m: lat.get((b, t, m, n, s)) for m in mpis}
                if all(v is None for v in vals.values()):
                    continue
                line = "%-*s %3d %8d" % (w, name, n, s) + "".join(
                    "%11s" % ("%.2f" % vals[m] if vals[m] is not None else "-") for m in mpis)
                others = [vals[m] for m in mpis if m != "compi" and vals[m] is not None]
                if vals.get("compi") is not None and others:
                    line += "   %8.2fx" % (vals["compi"] / min(others))
                out.append(line)
    print("\n".join(out))

    # --- plot
    gp = ['set terminal pngcairo size 1500,900 font ",9"', 'set output "%s"' % png,
          'set multiplot layout 2,3 title "%s"' % title.replace('"', "'"),
          "set grid", 'set key top left font ",8"', "set logscale xy",
          'set xlabel "bytes"', 'set ylabel "latency (usec, lower is better)"',
          'set format x "%.0s%cB"']
    drawn = False
    for b, t in PLOTTED:
        lines = []
        for m in mpis:
            for n in nps:
                pts = sorted((s, v) for (bb, tt, mm, nn, s), v in lat.items()
                             if (bb, tt, mm, nn) == (b, t, m, n) and s > 0)
                if not pts:
                    continue
                dat = os.path.join(plotdir, "%s-%s-np%d.dat" % (m, b, n))
                with open(dat, "w") as f:
                    f.writelines("%d %g\n" % p for p in pts)
                lines.append('"%s" using 1:2 with linespoints dt %d lc rgb "%s" '
                             'title "%s np%d"' % (dat, DASH.get(n, 3), COLORS[m],
                                                  NAMES[m], n))
        gp.append('set title "%s%s"' % (b, "" if t == "-" else " (" + t + ")"))
        gp.append("plot " + ", ".join(lines) if lines else "set multiplot next")
        drawn = drawn or bool(lines)
    gp.append("unset multiplot")
    if drawn:
        with open(os.path.join(plotdir, "osu.gp"), "w") as f:
            f.write("\n".join(gp) + "\n")


if __name__ == "__main__":
    main()
