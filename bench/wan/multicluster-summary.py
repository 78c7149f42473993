#!/usr/bin/python3
"""multicluster-summary.py CSV PNG DELAY_US TITLE [PATH_US] -- tables, ratios and the plot of
bench/wan/run-multicluster.sh.

CSV has the columns mpi,config,count,usec_per_call (one run per (mpi, config)).  The
compi config "local4" is compi's allreduce inside one cluster (4 ranks, no WAN); the
"limit" of a count is DELAY_US (one wide-area crossing) + local4 at that count: an
allreduce whose data crosses the WAN once and whose local parts cost what one cluster's
allreduce costs.  PATH_US, when given, is the one-way time between clusters as measured
(half the median ping round trip: the delay plus what the path itself costs), and
"limit (path)" = PATH_US + local4.  Prints, on stdout:
  - every series by count;
  - the best compi WAN config per count and its ratio to each peer that ran (Open MPI
    and MPICH, Debian's and PyPI's: bench/peers.py), compi's defaults and the limits, for the small counts (<= SMALL, 100 ints), and the geometric
    mean of each ratio over those counts.
Writes the log-log plot to PNG when matplotlib is there (the tables do not need it).
"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from peers import NAMES, PEERS  # noqa: E402

SMALL = 100  # ints: "small counts" for the ratios
# the run of each peer: Open MPI over tcp, MPICH over UCX's tcp
PEER_CONFIG = {"omp": "tcp", "mpich": "ucx-tcp", "omp5": "tcp", "mpich5": "ucx-tcp"}


def label(mpi, config):
    return "%s %s" % (NAMES.get(mpi, mpi), config)


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit("usage: multicluster-summary.py CSV PNG DELAY_US TITLE [PATH_US]")
    path, png, delay, title = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    path_us = float(sys.argv[5]) if len(sys.argv) == 6 and sys.argv[5] else None
    series = {}  # (mpi, config) -> {count: usec}
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["mpi"], row["config"])
            series.setdefault(key, {})[int(row["count"])] = float(row["usec_per_call"])
    if not series:
        print("no data: every run failed (see the list of failed runs)")
        return 0
    counts = sorted({c for s in series.values() for c in s})
    local = series.get(("compi", "local4"), {})
    limit = {c: delay + local[c] for c in local}
    limit_path = {c: path_us + local[c] for c in local} if path_us is not None else {}
    wan_compi = [k for k in series if k[0] == "compi" and k[1] != "local4"]

    # --- every series ------------------------------------------------------------------
    keys = sorted(series, key=lambda k: (k[0] != "compi", k))
    cols = [label(*k) for k in keys] + (["limit"] if limit else [])
    cols += ["limit (path)"] if limit_path else []
    width = max(12, max(len(c) for c in cols) + 1)
    print("usec per MPI_Allreduce (max over ranks of the per-rank average)")
    print("count".rjust(7) + "".join(c.rjust(width) for c in cols))
    for c in counts:
        vals = [series[k].get(c) for k in keys] + ([limit.get(c)] if limit else [])
        vals += [limit_path.get(c)] if limit_path else []
        print(str(c).rjust(7) + "".join(
            ("%.1f" % v if v is not None else "-").rjust(width) for v in vals))
    if limit:
        print("limit = %g us (one-way delay) + compi local4 (one cluster of 4 ranks)" % delay)
    if limit_path:
        print("limit (path) = %g us (measured one-way time between clusters) + compi local4"
              % path_us)

    # --- best compi against the others at small counts -----------------------------------
    print()
    if not wan_compi:
        print("no compi runs across the clusters: no ratios")
    else:
        others = [(NAMES[m], series[(m, PEER_CONFIG[m])]) for m in PEERS
                  if (m, PEER_CONFIG[m]) in series]
        others += [("compi defaults", series.get(("compi", "defaults"), {})), ("limit", limit)]
        if limit_path:
            others.append(("limit (path)", limit_path))
        print("best compi config per count, and best-compi time / other time "
              "(< 1: compi faster), counts <= %d ints" % SMALL)
        head = "count".rjust(7) + "best compi".rjust(26)
        head += "".join(("/ " + n).rjust(17) for n, _ in others)
        print(head)
        ratios = {n: [] for n, _ in others}
        for c in counts:
            if c > SMALL:
                continue
            have = [(series[k][c], k[1]) for k in wan_compi if c in series[k]]
            if not have:
                continue
            best, which = min(have)
            line = str(c).rjust(7) + ("%.1f (%s)" % (best, which)).rjust(26)
            for n, s in others:
                if c in s and s[c] > 0:
                    r = best / s[c]
                    ratios[n].append(r)
                    line += (("%.2f" if r >= 0.1 else "%.3f") % r).rjust(17)
                else:
                    line += "-".rjust(17)
            print(line)
        line = "geomean".rjust(7) + "".rjust(26)
        for n, _ in others:
            g = geomean(ratios[n]) if ratios[n] else None
            line += ((("%.2f" if g >= 0.1 else "%.3f") % g) if g else "-").rjust(17)
        print(line)

    # --- plot ----------------------------------------------------------------------------
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("\nno matplotlib: no plot (Debian: python3-matplotlib)", file=sys.stderr)
        return 0
    fig, ax = plt.subplots(figsize=(9, 6))
    for k in keys:
        xs = sorted(series[k])
        style = ":" if k[1] == "local4" else ("-" if k[0] == "compi" else "--")
        ax.plot(xs, [series[k][x] for x in xs], style, marker="o", markersize=3,
                label=label(*k) + (" (1 cluster, 4 ranks)" if k[1] == "local4" else ""))
    if limit:
        xs = sorted(limit)
        ax.plot(xs, [limit[x] for x in xs], "k-.", label="limit: delay + local4")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("count (ints per MPI_Allreduce, MPI_SUM)")
    ax.set_ylabel("time per call (us)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
