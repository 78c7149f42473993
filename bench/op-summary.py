#!/usr/bin/python3
"""op-summary.py: folds the per-round rows of op.csv (bench/run-op.sh) into one value per
(implementation, op, type, size) and writes what run-op.sh needs from them.

Usage: op-summary.py op.csv median.csv plotdir out.png title > stats.txt

  median.csv   mpi,op,type,bytes,rounds,gbps,max_gbps: the median over rounds of each
               round's median GB/s, and the best value seen in any round
  plotdir/     <mpi>-<op>-<type>.dat (bytes gbps max_gbps) and op.gp, the gnuplot script
               that draws out.png: one log-x panel per op and type, GB/s against size, one
               line per implementation, memcpy (every implementation's memcpy rows folded
               together: the same libc) dashed
  stdout       GB/s at a few sizes for every case and implementation beside memcpy, then
               compi's ratio to the best peer (bench/peers.py), on the medians and on
               the best trials

Standard library only, so the Debian python3 runs it without extra packages.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import COLORS, NAMES, PEERS  # noqa: E402

NAMES = dict(NAMES, **{"compi-avx2": "compi avx2", "compi-sse2": "compi sse2"})
ORDER = PEERS + ["compi", "compi-avx2", "compi-sse2"]
COLORS = dict(COLORS, **{"compi-avx2": "#ff7f0e", "compi-sse2": "#8c564b"})
SHOWN = [1024, 4096, 65536, 1 << 20, 16 << 20]


def human(size):
    if size >= 1 << 20:
        return "%d MiB" % (size >> 20)
    if size >= 1024:
        return "%d KiB" % (size >> 10)
    return "%d B" % size


def load(path):
    rows = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            mpi = "memcpy" if r["op"] == "memcpy" else r["mpi"]
            rows[(mpi, r["op"], r["type"], int(r["bytes"]))].append(r)
    return {k: {"rounds": len(rs),
                "gbps": statistics.median(float(r["gbps"]) for r in rs),
                "max_gbps": max(float(r["max_gbps"]) for r in rs)}
            for k, rs in rows.items()}


def cases(agg):
    seen = []
    for (mpi, op, typ, _size) in agg:
        if op != "memcpy" and (op, typ) not in seen:
            seen.append((op, typ))
    return seen


def write_median(agg, path):
    order = ORDER + ["memcpy"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mpi", "op", "type", "bytes", "rounds", "gbps", "max_gbps"])
        for k in sorted(agg, key=lambda k: (order.index(k[0]) if k[0] in order else 99,
                                            k[1], k[2], k[3])):
            a = agg[k]
            w.writerow(list(k) + [a["rounds"], "%.3f" % a["gbps"], "%.3f" % a["max_gbps"]])


def write_plot(agg, cs, plotdir, png, title):
    os.makedirs(plotdir, exist_ok=True)
    series = defaultdict(list)
    for (mpi, op, typ, size), a in agg.items():
        series[(mpi, op, typ)].append((size, a))
    files = {}
    for key, pts in series.items():
        path = os.path.join(plotdir, "%s-%s-%s.dat" % key)
        with open(path, "w") as f:
            f.write("# bytes gbps max_gbps\n")
            for size, a in sorted(pts, key=lambda p: p[0]):
                f.write("%d %.3f %.3f\n" % (size, a["gbps"], a["max_gbps"]))
        files[key] = path
    if not cs:
        return
    mpis = [m for m in ORDER if any(k[0] == m for k in files)]
    cols = 4
    rows = (len(cs) + cols - 1) // cols
    gp = ['set terminal pngcairo noenhanced size 1800,%d font ",9"' % (330 * rows + 60),
          'set output "%s"' % png,
          'set multiplot layout %d,%d title "%s"' % (rows, cols, title.replace('"', "'")),
          "set grid", 'set key top right font ",7"', "set logscale x 2",
          'set xtics ("64" 64, "1K" 1024, "16K" 16384, "256K" 262144, "4M" 4194304)',
          'set xlabel "bytes per vector"', 'set ylabel "GB/s (higher is better)"',
          "set yrange [0:*]"]
    memcpy = files.get(("memcpy", "memcpy", "byte"))
    for op, typ in cs:
        lines = []
        for m in mpis:
            if (m, op, typ) in files:
                lines.append('"%s" using 1:2 with linespoints lw 2 lc rgb "%s" title "%s"'
                             % (files[(m, op, typ)], COLORS[m], NAMES[m]))
        if memcpy:
            lines.append('"%s" using 1:2 with lines dt 2 lw 2 lc rgb "#555555" '
                         'title "memcpy"' % memcpy)
        gp.append('set title "MPI_%s, %s"' % (op.upper(), typ))
        gp.append("plot " + ", ".join(lines))
    gp.append("unset multiplot")
    with open(os.path.join(plotdir, "op.gp"), "w") as f:
        f.write("\n".join(gp) + "\n")


def val(agg, mpi, op, typ, size, col="gbps"):
    a = agg.get((mpi, op, typ, size))
    return a[col] if a else None


def tables(agg, cs):
    mpis = [m for m in ORDER if any(k[0] == m for k in agg)]
    print("GB/s (vector bytes / time), median over rounds; memcpy: the same bytes copied")
    for size in SHOWN:
        mc = val(agg, "memcpy", "memcpy", "byte", size)
        if mc is None and not any(val(agg, m, o, t, size) for m in mpis for o, t in cs):
            continue
        print()
        print("%-14s" % human(size) + "".join("%12s" % NAMES[m] for m in mpis) +
              "%12s" % "memcpy")
        for op, typ in cs:
            cells = [val(agg, m, op, typ, size) for m in mpis]
            print("%-14s" % ("%s %s" % (op, typ)) +
                  "".join("%12s" % ("n/a" if v is None else "%.1f" % v) for v in cells) +
                  "%12s" % ("n/a" if mc is None else "%.1f" % mc))
    others = [m for m in mpis if m in PEERS]
    if "compi" not in mpis or not others:
        return
    for col, what in (("gbps", "medians over rounds"),
                      ("max_gbps", "best trial of any round: what each reaches when no other "
                       "work interrupts it")):
        print()
        print("compi (op_simd=auto) / best of %s, GB/s ratio (> 1: compi faster);" %
              " and ".join(NAMES[m] for m in others))
        print("  " + what)
        print("%-14s" % "" + "".join("%10s" % human(s) for s in SHOWN))
        for op, typ in cs:
            cells = []
            for s in SHOWN:
                c = val(agg, "compi", op, typ, s, col)
                have = [v for v in (val(agg, m, op, typ, s, col) for m in others) if v]
                cells.append("%.2fx" % (c / max(have)) if c is not None and have else "n/a")
            print("%-14s" % ("%s %s" % (op, typ)) + "".join("%10s" % x for x in cells))


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    agg = load(sys.argv[1])
    cs = cases(agg)
    write_median(agg, sys.argv[2])
    write_plot(agg, cs, sys.argv[3], sys.argv[4], sys.argv[5])
    if not agg:
        print("no results")
        return
    tables(agg, cs)


if __name__ == "__main__":
    main()
