#!/bin/sh
# topology.sh -- runs tests/scheme/topology_test.scm, the TAP test of (compi topology),
# the hierarchical and MagPIe trees and (compi hierarchy), with guile alone (no MPI).
# Nothing is compiled at run time (GUILE_AUTO_COMPILE=0) and the user's Guile set-up is
# ignored.  top_srcdir is passed on: the test loads the example configs from there.

. "$(dirname "$0")/lib.sh"
guile_test "$top_srcdir/tests/scheme/topology_test.scm"
