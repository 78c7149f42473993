#!/bin/sh
# schedule.sh -- runs tests/scheme/schedule_test.scm, the TAP test of the Scheme side of
# schedules (the description, the checks made at the miss, the steps handed to C), with
# guile alone (no MPI).  top_srcdir is passed on: the test loads the example config there.

. "$(dirname "$0")/lib.sh"
guile_test "$top_srcdir/tests/scheme/schedule_test.scm"
