#!/bin/sh
# make check's entry for tests/wan/wan.sh.  wan.sh exits 77 when it cannot run (not root,
# no network namespaces), after printing a TAP skip plan; the TAP driver counts any
# non-zero exit as an error, so 77 becomes 0 here.  Every other status passes through.
sh "$(dirname "$0")/wan.sh"
rc=$?
[ $rc -eq 77 ] && exit 0
exit $rc
