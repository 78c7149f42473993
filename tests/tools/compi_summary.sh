#!/bin/sh
# compi_summary.sh -- bin/compi-summary in the build tree, beside mpirun and compi-tree:
# there, executable, the copy of tools/compi-summary, and it draws a coll_summary CSV file
# (SVG, and the --text table).  TAP output; every run is under `timeout 30`.

. "$(dirname "$0")/../scheme/lib.sh"
TOOL="$top_builddir/bin/compi-summary"
sandbox compi-summary
RUN_PROG=$TOOL RUN_TIMEOUT=30

echo "1..3"
if ! command -v python3 >/dev/null 2>&1; then
    for i in 1 2 3; do echo "ok $i # SKIP no python3"; done
    exit 0
fi

if [ -x "$TOOL" ] && cmp -s "$TOOL" "$top_srcdir/tools/compi-summary"; then
    ok "bin/compi-summary in the build tree, executable, the source's copy"
else
    not_ok "bin/compi-summary in the build tree ($TOOL)"
fi

cat >"$TMP/run.csv" <<'CSV'
rank,comm,kind,size_class,closure,signature,calls,bytes,seconds
0,MPI_COMM_WORLD,allreduce,<=64,allreduce:recursive-doubling,0123456789abcdef,10,80,0.002
1,MPI_COMM_WORLD,allreduce,<=64,allreduce:recursive-doubling,0123456789abcdef,10,80,0.004
0,MPI_COMM_WORLD,bcast,<=1K,bcast:binomial,fedcba9876543210,3,300,0.001
CSV
run "$TMP/run.csv" -o "$TMP/run.svg"
if [ "$rc" -eq 0 ] && grep -q '<svg' "$TMP/run.svg" && grep -q 'allreduce:recursive-doubling' "$TMP/run.svg" &&
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/run.svg"; then
    ok "bin/compi-summary draws a summary as well-formed SVG naming the closures"
else
    not_ok "bin/compi-summary draws a summary"
    show 20 10
fi

run --text "$TMP/run.csv"
if [ "$rc" -eq 0 ] && grep -q 'allreduce' "$TMP/out" && grep -q 'bcast:binomial' "$TMP/out"; then
    ok "bin/compi-summary --text: a table with every kind and closure"
else
    not_ok "bin/compi-summary --text"
    show 20 10
fi

[ "$failed" -eq 0 ]
