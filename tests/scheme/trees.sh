#!/bin/sh
# trees.sh -- runs tests/scheme/trees_test.scm, the TAP test of (compi trees), with guile
# alone (no MPI) and the C primitives of scheme/.libs/compi-trees.so: builders for sizes 1
# to 33, validation errors by message, drawings.  Nothing is compiled at run time
# (GUILE_AUTO_COMPILE=0) and the user's Guile set-up is ignored.

. "$(dirname "$0")/lib.sh"
guile_test "$top_srcdir/tests/scheme/trees_test.scm"
