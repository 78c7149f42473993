#!/usr/bin/python3
"""creators-summary.py: the tables and the plot of bench/run-creators.sh.

Usage: creators-summary.py creators.csv plotdir out.png title [variants] > stats.txt

  variants  the per-call variants run, in words (default: the four peers of peers.py and
            compi's three configs): the rows of the table and the bars of the plot
  stdout    medians over rounds of: the 8 B allreduce and bcast latency of every variant
            (OSU's Avg Latency), what each compi config adds to the defaults, and compi's
            defaults over the best peer that ran (below 1: compi is faster); the miss
            benchmark's numbers with the agreement round on and off, and their difference
  plotdir/  calls.dat, miss.dat and creators.gp, the gnuplot script that draws out.png

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import NAMES as PEER_NAMES, PEERS, best_peer  # noqa: E402

COMPI_VARIANTS = ["compi-defaults", "compi-profile", "compi-timing-wrapper"]
NAMES = dict(PEER_NAMES, **{"compi-defaults": "compi, defaults",
                            "compi-profile": "compi, (profiling ...)",
                            "compi-timing-wrapper": "compi, Scheme wrapper + run-closure"})
BENCHES = ("osu_allreduce", "osu_bcast")
MISS_ROWS = [("miss_usec", "a call that misses (us)"), ("hit_usec", "the same call, a hit (us)"),
             ("extra_per_miss_usec", "the miss beyond the call (us)"),
             ("dup_loop_usec", "dup + 1st Allreduce + free (us)")]


def main():
    path, plotdir, png, title = sys.argv[1:5]
    variants = sys.argv[5].split() if len(sys.argv) > 5 else PEERS + COMPI_VARIANTS
    vals = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            vals[(row["part"], row["variant"], row["benchmark"], int(row["np"]))].append(
                float(row["value_us"]))
    med = {k: statistics.median(v) for k, v in vals.items()}
    nrounds = {k: len(v) for k, v in vals.items()}
    out = []
    out.append("Per call: 8 B at 2 ranks, OSU Avg Latency (us), median over rounds")
    out.append("  %-38s %12s %12s   %s" % ("variant", "allreduce", "bcast",
                                           "added to compi's defaults (allreduce, bcast)"))
    for v in variants:
        cells = [med.get(("call", v, b, 2)) for b in BENCHES]
        base = [med.get(("call", "compi-defaults", b, 2)) for b in BENCHES]
        added = ""
        if v.startswith("compi-") and v != "compi-defaults" and None not in cells + base:
            added = "%+.2f us, %+.2f us" % (cells[0] - base[0], cells[1] - base[1])
        out.append("  %-38s %12s %12s   %s" % (
            NAMES[v], *["%.2f" % c if c is not None else "-" for c in cells], added))
    ratios = []
    for b in BENCHES:
        peers = {m: med.get(("call", m, b, 2)) for m in PEERS if m in variants}
        best = best_peer(peers)
        own = med.get(("call", "compi-defaults", b, 2))
        if best is None or own is None:
            ratios.append("-")
            continue
        who = [NAMES[m] for m in PEERS if peers.get(m) == best][0]
        ratios.append("%.2f (best peer: %s, %.2f us)" % (own / best, who, best))
    out.append("  compi's defaults over the best peer: allreduce %s, bcast %s" % tuple(ratios))
    out.append("")
    nps = sorted({k[3] for k in med if k[0] == "miss"})
    for np in nps:
        out.append("Per miss: bench/miss_cost.c at %d ranks, median over rounds "
                   "(each run: the median of 11 trials)" % np)
        out.append("  %-44s %14s %14s %12s" % ("", "agreement on", "agreement off",
                                               "difference"))
        for key, label in MISS_ROWS:
            on = med.get(("miss", "agreement-1", key, np))
            off = med.get(("miss", "agreement-0", key, np))
            diff = "%+.1f" % (on - off) if on is not None and off is not None else "-"
            out.append("  %-44s %14s %14s %12s" % (
                label, "%.1f" % on if on is not None else "-",
                "%.1f" % off if off is not None else "-", diff))
        out.append("")
    out.append("rounds per cell: %d to %d" % (min(nrounds.values()), max(nrounds.values()))
               if nrounds else "no data")
    print("\n".join(out))

    os.makedirs(plotdir, exist_ok=True)
    with open(os.path.join(plotdir, "calls.dat"), "w") as f:
        for i, v in enumerate(variants):
            a = med.get(("call", v, "osu_allreduce", 2))
            b = med.get(("call", v, "osu_bcast", 2))
            f.write('%d "%s" %s %s\n' % (i, NAMES[v], a if a is not None else "NaN",
                                         b if b is not None else "NaN"))
    np = nps[0] if nps else 2
    with open(os.path.join(plotdir, "miss.dat"), "w") as f:
        for i, (key, label) in enumerate(MISS_ROWS):
            on = med.get(("miss", "agreement-1", key, np))
            off = med.get(("miss", "agreement-0", key, np))
            f.write('%d "%s" %s %s\n' % (i, label.replace(" (us)", ""),
                                         on if on is not None else "NaN",
                                         off if off is not None else "NaN"))
    gp = os.path.join(plotdir, "creators.gp")
    with open(gp, "w") as f:
        f.write("""set terminal pngcairo size 1300,620 font ",10" noenhanced
set output "%(png)s"
set multiplot layout 1,2 title "%(title)s"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set xtics rotate by -25 scale 0
set key below
set bmargin 10
set ylabel "us"
set title "per call: 8 B at 2 ranks (OSU Avg Latency, log scale)"
set logscale y
plot "%(dir)s/calls.dat" using 3:xtic(2) title "allreduce", "" using 4 title "bcast"
unset logscale y
set title "per miss at %(np)d ranks (bench/miss_cost.c)"
plot "%(dir)s/miss.dat" using 3:xtic(2) title "agreement on (default)", "" using 4 title "agreement off"
unset multiplot
""" % {"png": png, "title": title, "dir": plotdir, "np": np})


if __name__ == "__main__":
    main()
