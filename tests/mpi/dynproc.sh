#!/bin/sh
# TAP: the 'dynproc' lines of tests/mpi/test-list.txt (MPI_Comm_spawn, ports, join), run
# through mpirun (see lib.sh).  They need compi's mpirun, which serves dynamic processes.
#
# The 'portjobs' line runs two jobs of two mpiruns at once: `portjobs server FILE` at the
# line's np, which writes its port's name to FILE, and `portjobs client FILE` at the np of
# its args column, which connects to it (lib.sh's mt_jobs_run).  Both must exit 0 and
# print their ok line, and leave nothing behind.
. "$(dirname "$0")/lib.sh"
mt_skip_unless_compi "dynamic processes under compi's mpirun"

mt_stamp
lines=$(mt_lines dynproc)
if [ -z "$lines" ]; then
    echo "1..0 # SKIP no tests for 'dynproc' in test-list.txt (MT_FILTER='$MT_FILTER')"
    exit 0
fi
echo "# MPIRUN=$MPIRUN flavor=compi"
while read -r script prog args nps expect lim desc; do
    [ -n "$script" ] || continue
    slim=$(awk -v l="$lim" -v s="$MT_TIMEOUT_SCALE" 'BEGIN { printf "%d", l * s }')
    for np in $(echo "$nps" | tr , ' '); do
        if [ "$prog" = portjobs ]; then
            mt_jobs_run "$prog" "$args" "$np" "$expect" "$slim" "$desc"
        else
            mt_run_one "$prog" "$args" "$np" "$expect" "$lim" "$desc" </dev/null
        fi
    done
done <<LINES
$lines
LINES
echo "1..$mt_n"
[ "$mt_failed" -eq 0 ]
