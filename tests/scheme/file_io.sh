#!/bin/sh
# file_io.sh -- runs tests/scheme/file_io_test.scm, the TAP test of the creators of
# collective file access (the defaults' reading of ROMIO's hints, aggregators from a
# topology), with guile alone (no MPI).

. "$(dirname "$0")/lib.sh"
guile_test "$top_srcdir/tests/scheme/file_io_test.scm"
