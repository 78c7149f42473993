#!/bin/sh
# bridge_start.sh -- starting Guile in the library: quiet (no notes about stale compiled
# files on stderr), compiles nothing at run time (nothing written under $HOME or
# $XDG_CACHE_HOME), and does the same from another directory.  The start-up time is
# measured and printed as a diagnostic (median of 10 runs), never asserted: timings on a
# shared CI machine are not a test.

. "$(dirname "$0")/lib.sh"
PROBE="$top_builddir/tests/scheme/bridge_probe"
sandbox compi-scheme
unset COMPI_SCHEME_DIR GUILE_AUTO_COMPILE
mkdir -p "$TMP/home" "$TMP/cache"


echo "1..3"

: >"$TMP/times"
quiet=1
for i in 1 2 3 4 5 6 7 8 9 10; do
    timeout 20 "$PROBE" -t >>"$TMP/times" 2>"$TMP/err" </dev/null || quiet=0
    [ -s "$TMP/err" ] && quiet=0
done
if [ "$quiet" -eq 1 ]; then
    ok "bridge_init succeeds without a word on stderr"
else
    not_ok "bridge_init succeeds without a word on stderr"
    sed 's/^/# stderr: /' "$TMP/err"
fi
if [ -z "$(find "$TMP/home" "$TMP/cache" -type f)" ]; then
    ok "nothing is compiled at run time (no file under HOME or XDG_CACHE_HOME)"
else
    not_ok "nothing is compiled at run time (no file under HOME or XDG_CACHE_HOME)"
    find "$TMP/home" "$TMP/cache" -type f | sed 's/^/# /'
fi
(cd "$TMP" && timeout 20 "$PROBE" -c >"$TMP/out" 2>"$TMP/err" </dev/null)
if [ $? -eq 0 ] && grep -q "^exscan 1" "$TMP/out"; then
    ok "the modules are found from any working directory"
else
    not_ok "the modules are found from any working directory"
    sed 's/^/# /' "$TMP/err"
fi
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", v[int((NR + 1) / 2)] }'; }
echo "# bridge_init, median of $(wc -l <"$TMP/times") runs:" \
    "$(awk '{ print $2 }' "$TMP/times" | median) ms wall," \
    "$(awk '{ print $4 }' "$TMP/times" | median) ms CPU"

exit $((failed > 0))
