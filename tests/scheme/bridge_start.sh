#!/bin/sh
# bridge_start.sh -- starting Guile in the library: quiet (no notes about stale compiled
# files on stderr), compiles nothing at run time (nothing written under $HOME or
# $XDG_CACHE_HOME), and does the same from another directory; checks the modules it loads
# against what its C expects (bridge_layout.c) and stops, with one line naming the
# mismatch, when they differ.  The start-up time is
# measured and printed as a diagnostic (median of 10 runs), never asserted: timings on a
# shared CI machine are not a test.

. "$(dirname "$0")/lib.sh"
PROBE="$top_builddir/tests/scheme/bridge_probe"
sandbox compi-scheme
unset COMPI_SCHEME_DIR GUILE_AUTO_COMPILE
mkdir -p "$TMP/home" "$TMP/cache"


echo "1..6"

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
# The contract between the C bridge and the modules: a copy of the modules loads (from
# source, COMPI_SCHEME_DIR); a copy whose call record lost a field C reads, or whose
# kinds are not C's, stops bridge_init with one line naming what differs.
mods=$TMP/modules
mkdir -p "$mods/compi"
cp "$top_srcdir/scheme/compi.scm" "$mods/"
cp "$top_srcdir"/scheme/compi/*.scm "$top_srcdir"/creators/compi/*.scm \
    "$top_srcdir"/topologies/compi/*.scm "$mods/compi/"
contract() { # DESCRIPTION RC EXPECTED-STDERR
    COMPI_SCHEME_DIR=$mods timeout 60 "$PROBE" -c >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
    if [ "$rc" -eq "$2" ] && { [ -z "$3" ] || grep -qF -- "$3" "$TMP/err"; } &&
        [ "$(wc -l <"$TMP/err")" -le 1 ]; then
        ok "$1"
    else
        not_ok "$1"
        echo "# rc=$rc, expected $2 and stderr with: $3"
        sed 's/^/# stderr: /' "$TMP/err" | head -5
    fi
}
contract "the bridge starts on modules whose records are the ones its C reads" 0 ""
cp "$mods/compi/private.scm" "$TMP/private.scm"
sed 's/comm handle keep$/comm handle kept/' "$TMP/private.scm" >"$mods/compi/private.scm"
contract "a call record without a field C reads stops bridge_init, naming it" 1 \
    "do not match this library: record <call> of (compi private) has no field keep, which C reads"
sed "s/(set! %kinds ((%compi-primitive '%collective-kinds)))/(set! %kinds (cdr ((%compi-primitive '%collective-kinds))))/" \
    "$TMP/private.scm" >"$mods/compi/private.scm"
contract "kinds other than C's stop bridge_init, naming the first that differs" 1 \
    "do not match this library: collective kind barrier is not where C has it"
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", v[int((NR + 1) / 2)] }'; }
echo "# bridge_init, median of $(wc -l <"$TMP/times") runs:" \
    "$(awk '{ print $2 }' "$TMP/times" | median) ms wall," \
    "$(awk '{ print $4 }' "$TMP/times" | median) ms CPU"

exit $((failed > 0))
