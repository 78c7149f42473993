#!/bin/sh
# exchange.sh -- runs tests/scheme/exchange_test.scm, the TAP test of the exchange
# allreduce's Scheme side (exchange-closure, its lowering, the creator), with guile alone
# (no MPI).  Nothing is compiled at run time (GUILE_AUTO_COMPILE=0) and the user's Guile
# set-up is ignored.  top_srcdir is passed on: the test loads the example config there.

. "$(dirname "$0")/lib.sh"
guile_test "$top_srcdir/tests/scheme/exchange_test.scm"
