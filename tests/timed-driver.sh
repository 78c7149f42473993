#!/bin/sh
# timed-driver.sh DRIVER ARGS...: automake's test driver (DRIVER ARGS..., the LOG_DRIVER
# of Makefile.am), then one more line at the end of the test's log (its --log-file):
#   compi-test-seconds: S
# the wall time of the test in seconds; scripts/test.sh lists the slowest tests from it.
log=
prev=
for a; do
    [ "$prev" = --log-file ] && log=$a
    prev=$a
done
t0=$(date +%s.%N)
"$@"
rc=$?
t1=$(date +%s.%N)
[ -n "$log" ] && [ -f "$log" ] &&
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "compi-test-seconds: %.1f\n", b - a }' >>"$log"
exit $rc
