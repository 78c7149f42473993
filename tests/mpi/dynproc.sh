#!/bin/sh
# TAP: the 'dynproc' lines of tests/mpi/test-list.txt (MPI_Comm_spawn, ports, join), run
# through mpirun (see lib.sh).  They need compi's mpirun, which serves dynamic processes.
#
# The 'portjobs' line runs two jobs of two mpiruns at once: `portjobs server FILE` at the
# line's np, which writes its port's name to FILE, and `portjobs client FILE` at the np of
# its args column, which connects to it.  Both must exit 0 and print their ok line, and
# leave nothing behind.
. "$(dirname "$0")/lib.sh"
mt_skip_unless_compi "dynamic processes under compi's mpirun"

# jobs_run prog client_np np expect limit description
jobs_run() {
    name="$1 np=$3+$2: $6"
    mt_why=
    path=$(mt_prog "$1")
    portfile="$MT_TMP/port"
    rm -f "$portfile" "$portfile.tmp"
    mt_list_ours >"$MT_TMP/before"
    mt_outer=$(($5 + 15))
    mt_cmd="$MPIRUN --timeout $5 -np $3 $path server FILE & $MPIRUN --timeout $5 -np $2 $path client FILE"
    start=$(mt_now)
    timeout -k 5 "$mt_outer" "$MPIRUN" --timeout "$5" $MPIRUN_ARGS -np "$3" "$path" server \
        "$portfile" >"$MT_TMP/server" 2>&1 </dev/null &
    spid=$!
    timeout -k 5 "$mt_outer" "$MPIRUN" --timeout "$5" $MPIRUN_ARGS -np "$2" "$path" client \
        "$portfile" >"$MT_TMP/client" 2>&1 </dev/null
    crc=$?
    wait $spid
    src=$?
    mt_rc=$((src != 0 ? src : crc))
    mt_elapsed=$(mt_secs "$start" "$(mt_now)")
    { sed 's/^/server: /' "$MT_TMP/server"; sed 's/^/client: /' "$MT_TMP/client"; } >"$MT_TMP/out"
    if [ "$src" -ne 0 ] || [ "$crc" -ne 0 ]; then
        mt_why="exit status: server $src, client $crc; expected 0 and 0"
    elif ! grep -qx "ok: $1 np=$3" "$MT_TMP/server" ||
        ! grep -qx "ok: $1-client np=$2" "$MT_TMP/client"; then
        mt_why="no line 'ok: $1 np=$3' from the server or 'ok: $1-client np=$2' from the client"
    elif ! mt_le "$mt_elapsed" "$5"; then
        mt_why="the jobs took $mt_elapsed s (limit $5 s)"
    elif ! left=$(mt_leftovers_since "$MT_TMP/before"); then
        mt_why="the jobs left files behind: $(echo $left)"
    fi
    if [ -n "$mt_why" ]; then
        mt_not_ok "$name"
    else
        mt_ok "$name ($mt_elapsed s)"
    fi
}

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
            jobs_run "$prog" "$args" "$np" "$expect" "$slim" "$desc"
        else
            mt_run_one "$prog" "$args" "$np" "$expect" "$lim" "$desc" </dev/null
        fi
    done
done <<LINES
$lines
LINES
echo "1..$mt_n"
[ "$mt_failed" -eq 0 ]
