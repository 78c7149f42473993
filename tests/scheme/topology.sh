#!/bin/sh
# topology.sh -- runs tests/scheme/topology_test.scm, the TAP test of (compi topology),
# the hierarchical and MagPIe trees and (compi hierarchy), with guile alone (no MPI).
# Nothing is compiled at run time (GUILE_AUTO_COMPILE=0) and the user's Guile set-up is
# ignored.  top_srcdir is passed on: the test loads the example configs from there.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
unset GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH
GUILE=${GUILE:-guile}
if ! command -v "$GUILE" >/dev/null 2>&1; then
    echo "1..0 # SKIP $GUILE not found"
    exit 0
fi
export top_srcdir
GUILE_AUTO_COMPILE=0 exec timeout 120 "$GUILE" --no-auto-compile \
    -L "$top_srcdir/scheme" -L "$top_srcdir/creators" -L "$top_srcdir/topologies" \
    "$top_srcdir/tests/scheme/topology_test.scm"
