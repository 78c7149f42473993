#!/usr/bin/python3
"""nbc-summary.py: the tables and the plot of bench/run-nbc.sh.

Usage: nbc-summary.py nbc.csv plotdir out.png title > stats.txt

  stdout    medians over rounds of: the blocking 8 B allreduce and bcast and the
            barrier (OSU's Avg Latency); the nonblocking MPI_Iallreduce and MPI_Ibcast
            latency (OSU's Pure Comm., the collective alone) at every size, with compi's
            ratio to the best peer (bench/peers.py); the overlap (OSU's Overlap(%))
            of each MPI at every size
  plotdir/  <mpi>-<bench>-np<np>.dat (size latency overlap) and nbc.gp, the gnuplot
            script that draws out.png: latency and overlap against size

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import COLORS, NAMES, ORDER, peer_names  # noqa: E402
BLOCKING = [("osu_allreduce", "allreduce 8 B"), ("osu_bcast", "bcast 8 B"),
            ("osu_barrier", "barrier")]
NONBLOCKING = ["osu_iallreduce", "osu_ibcast"]
LATENCY_GOAL = 1.10  # nonblocking latency within 10% of the best of the others


def human(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return "%d %s" % (n // scale, unit)
    return "%d B" % n


def num(v):
    return float(v) if v not in (None, "") else None


def fold(path):
    """(mpi, bench, np, size) -> {column: median over rounds}"""
    runs = defaultdict(lambda: defaultdict(list))
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            size = int(float(r["size"])) if r["size"] else 0
            key = (r["mpi"], r["benchmark"], int(r["np"]), size)
            for col in ("avg_latency_us", "overall_us", "pure_comm_us", "overlap_pct"):
                v = num(r[col])
                if v is not None:
                    runs[key][col].append(v)
    return {k: {c: (statistics.median(v), len(v)) for c, v in cols.items()}
            for k, cols in runs.items()}


def get(agg, mpi, bench, np, size, col):
    v = agg.get((mpi, bench, np, size), {}).get(col)
    return v[0] if v else None


def fmt(v, spec="%.2f"):
    return "n/a" if v is None else spec % v


def blocking(agg, mpis, nps):
    others = [m for m in mpis if m != "compi"]
    print("Blocking latency, usec (OSU Avg Latency; median over rounds); ratio: compi /")
    print("the best of %s (> 1: compi slower)" % peer_names(others))
    print("%-16s%4s" % ("", "np") + "".join("%10s" % NAMES[m] for m in mpis) + "%9s" % "ratio")
    for np in nps:
        for bench, label in BLOCKING:
            size = 0 if bench == "osu_barrier" else 8
            vals = {m: get(agg, m, bench, np, size, "avg_latency_us") for m in mpis}
            have = [vals[m] for m in others if vals[m] is not None]
            c = vals.get("compi")
            ratio = fmt(c / min(have), "%.2fx") if c is not None and have else "n/a"
            print("%-16s%4d" % (label, np) + "".join("%10s" % fmt(vals[m]) for m in mpis)
                  + "%9s" % ratio)


def nonblocking(agg, mpis, nps):
    others = [m for m in mpis if m != "compi"]
    sizes = sorted({k[3] for k in agg if k[1] in NONBLOCKING})
    for bench in NONBLOCKING:
        for np in nps:
            print()
            print("%s, %d ranks: latency (Pure Comm., usec), compi / best, and overlap (%%)"
                  % (bench, np))
            print("%10s" % "size" + "".join("%10s" % NAMES[m] for m in mpis)
                  + "%9s%6s" % ("ratio", "goal") + "".join("%10s" % ("ovl " + m) for m in mpis)
                  + "%6s" % "goal")
            met_lat = met_ovl = total = 0
            for s in sizes:
                lat = {m: get(agg, m, bench, np, s, "pure_comm_us") for m in mpis}
                ovl = {m: get(agg, m, bench, np, s, "overlap_pct") for m in mpis}
                c = lat.get("compi")
                have = [lat[m] for m in others if lat[m] is not None]
                ratio = c / min(have) if c is not None and have and min(have) > 0 else None
                oh = [ovl[m] for m in others if ovl[m] is not None]
                co = ovl.get("compi")
                lgoal = "n/a" if ratio is None else ("met" if ratio <= LATENCY_GOAL else "no")
                ogoal = "n/a" if co is None or not oh else ("met" if co >= max(oh) else "no")
                if ratio is not None and co is not None and oh:
                    total += 1
                    met_lat += ratio <= LATENCY_GOAL
                    met_ovl += co >= max(oh)
                print("%10s" % human(s) + "".join("%10s" % fmt(lat[m]) for m in mpis)
                      + "%9s%6s" % (fmt(ratio, "%.2fx"), lgoal)
                      + "".join("%10s" % fmt(ovl[m], "%.1f") for m in mpis) + "%6s" % ogoal)
            if total:
                print("  latency within %d%% of the best: %d of %d sizes; overlap at least"
                      " theirs: %d of %d" % (round((LATENCY_GOAL - 1) * 100), met_lat, total,
                                             met_ovl, total))


def write_plot(agg, mpis, nps, plotdir, png, title):
    os.makedirs(plotdir, exist_ok=True)
    files = {}
    for m in mpis:
        for bench in NONBLOCKING:
            for np in nps:
                sizes = sorted(k[3] for k in agg if k[:3] == (m, bench, np))
                if not sizes:
                    continue
                path = os.path.join(plotdir, "%s-%s-np%d.dat" % (m, bench, np))
                with open(path, "w") as f:
                    for s in sizes:
                        f.write("%d %s %s\n" % (s, fmt(get(agg, m, bench, np, s, "pure_comm_us"),
                                                       "%.3f"),
                                                fmt(get(agg, m, bench, np, s, "overlap_pct"),
                                                    "%.1f")))
                files[(m, bench, np)] = path
    if not files:
        return
    dash = {n: i + 1 for i, n in enumerate(nps)}
    with open(os.path.join(plotdir, "nbc.gp"), "w") as g:
        g.write('set terminal pngcairo size 1400,900 font ",10"\n')
        g.write('set output "%s"\n' % png)
        g.write('set multiplot layout 2,2 title "%s"\n' % title.replace('"', "'"))
        g.write("set termoption noenhanced\nset logscale x 2\nset grid\nset key top left\n")
        g.write('set format x "%.0s%cB"\n')
        for what, col, ylabel, logy in (("latency", 2, "usec (Pure Comm.)", True),
                                         ("overlap", 3, "overlap %", False)):
            for bench in NONBLOCKING:
                g.write("set title '%s %s'\n" % (bench, what))
                g.write("set ylabel '%s'\n" % ylabel)
                g.write("set logscale y\n" if logy else "unset logscale y\nset yrange [0:105]\n")
                plots = []
                for m in mpis:
                    for np in nps:
                        p = files.get((m, bench, np))
                        if p:
                            plots.append("'%s' using 1:%d with linespoints lc rgb '%s' dt %d "
                                         "title '%s np %d'" % (p, col, COLORS[m], dash[np],
                                                               NAMES[m], np))
                g.write("plot " + ", \\\n     ".join(plots) + "\n")
                g.write("set autoscale y\n")
        g.write("unset multiplot\n")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    agg = fold(sys.argv[1])
    present = {k[0] for k in agg}
    mpis = [m for m in ORDER if m in present]
    nps = sorted({k[2] for k in agg})
    if not mpis:
        print("no results")
        return
    write_plot(agg, mpis, nps, sys.argv[2], sys.argv[3], sys.argv[4])
    blocking(agg, mpis, nps)
    nonblocking(agg, mpis, nps)


if __name__ == "__main__":
    main()
