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


echo "1..8"

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
contract() { # DESCRIPTION RC EXPECTED-STDERR [PROBE-ARGS...]
    d=$1 want_rc=$2 want=$3
    shift 3
    [ $# -gt 0 ] || set -- -c
    COMPI_SCHEME_DIR=$mods timeout 60 "$PROBE" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
    if [ "$rc" -eq "$want_rc" ] && { [ -z "$want" ] || grep -qF -- "$want" "$TMP/err"; } &&
        [ "$(wc -l <"$TMP/err")" -le 1 ]; then
        ok "$d"
    else
        not_ok "$d"
        echo "# rc=$rc, expected $want_rc and stderr with: $want"
        sed 's/^/# stderr: /' "$TMP/err" | head -5
    fi
}
contract "the bridge starts on modules whose records are the ones its C reads" 0 ""
cp "$mods/compi/private.scm" "$TMP/private.scm"
sed 's/comm handle keep$/comm handle kept/' "$TMP/private.scm" >"$mods/compi/private.scm"
contract "a call record without a field C reads stops bridge_init, naming it" 1 \
    "do not match this library: record <call> of (compi private) has no field keep, which C reads"
sed -e 's/ranks mode topology inter? remote-size hints)/ranks mode topology inter remote-size hints)/' \
    -e "s/(record-accessor <call> 'inter?)/(record-accessor <call> 'inter)/" \
    "$TMP/private.scm" >"$mods/compi/private.scm"
contract "a call record without the intercommunicator field stops bridge_init, naming it" 1 \
    "do not match this library: record <call> of (compi private) has no field inter?, which C reads"
sed "s/(set! %kinds ((%compi-primitive '%collective-kinds)))/(set! %kinds (cdr ((%compi-primitive '%collective-kinds))))/" \
    "$TMP/private.scm" >"$mods/compi/private.scm"
contract "kinds other than C's stop bridge_init, naming the first that differs" 1 \
    "do not match this library: collective kind barrier is not where C has it"
# a lowering that answers with something else than a lowered record: the miss fails with
# a message, the bridge does not guess what it is
cp "$TMP/private.scm" "$mods/compi/private.scm"
cp "$mods/compi/internal.scm" "$TMP/internal.scm"
sed 's/((record-constructor <lowered-native>) (kind-number/(vector (quote native) (kind-number/' \
    "$TMP/internal.scm" >"$mods/compi/internal.scm"
contract "a lowered description of no known type is an error naming it, not a guess" 1 \
    "internal error: (compi internal) lowered a description to #(native 1 \"binomial\"" -b bcast
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", v[int((NR + 1) / 2)] }'; }
echo "# bridge_init, median of $(wc -l <"$TMP/times") runs:" \
    "$(awk '{ print $2 }' "$TMP/times" | median) ms wall," \
    "$(awk '{ print $4 }' "$TMP/times" | median) ms CPU"

exit $((failed > 0))
