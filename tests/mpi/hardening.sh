#!/bin/bash
# TAP: mpirun and the library against outsiders, misbehaving ranks and careless input
# (compi only).  bash, not sh: the outsiders speak TCP through bash's /dev/tcp.
#
#  1. the 'hardening' lines of test-list.txt (fdcheck: a child started with system()
#     inherits no descriptor of the library), then fdcheck through the launch agent;
#  2. TCP PMI: outsiders with a wrong or no secret are refused at once and counted while
#     the job runs on; 100 idle outsider connections do not keep a job from starting;
#  3. a rank flooding PMI: cut off when it does not read, and whether it reads or not,
#     another rank's death is reported within 2 s of it; --timeout and SIGINT act on time;
#  4. mpirun SIGKILLed at random points of MPI_Init (np 8, 20 times): nothing in /dev/shm,
#     no rank left;
#  5. bounded input: /dev/zero as host file and as config fails clearly within 2 s; the
#     key-value space quota; malformed spawn requests refused, nothing started; control
#     characters from ranks escaped; out-of-range parameters named with their range.
# Every mpirun runs with --timeout and under `timeout`.  The fake hosts h1, h2 are
# reached through tests/mpi/fake-agent.sh, as in launch.sh.
. "$(dirname "$0")/lib.sh"

AGENT="$MT_SRCDIR/fake-agent.sh"
PROBE="$top_builddir/tests/unit/pmi_client_probe"
out="$MT_TMP/out"
unset COMPI_COLL_CONFIG FAKE_AGENT_LOG FAKE_AGENT_STAY

mt_skip_unless_compi "these are checks of compi's mpirun"
case $(hostname) in
h1 | h2)
    echo "1..0 # SKIP this machine is called $(hostname), one of the fake hosts"
    exit 0
    ;;
esac
if [ ! -x "$PROBE" ]; then
    echo "1..0 # SKIP $PROBE is not built"
    exit 0
fi
mt_stamp

# hrun LIMIT ARGS...: mpirun --timeout LIMIT ARGS..., output in $out; sets mt_rc, mt_elapsed
hrun() {
    h_lim=$1
    shift
    mt_cmd="$MPIRUN --timeout $h_lim $*"
    mt_why=
    h_t0=$(mt_now)
    timeout -k 5 $((h_lim + 10)) "$MPIRUN" --timeout "$h_lim" "$@" >"$out" 2>&1 </dev/null
    mt_rc=$?
    mt_end=$(mt_now)
    mt_elapsed=$(mt_secs "$h_t0" "$mt_end")
}

check() {
    c_name=$1
    shift
    if "$@"; then
        mt_ok "$c_name"
    else
        mt_not_ok "$c_name"
    fi
}

# succeeded N: status 0 and N "ok rank" lines of the probe
succeeded() {
    if [ "$mt_rc" -ne 0 ]; then
        mt_why="exit status $mt_rc, expected 0"
        return 1
    fi
    if [ "$(grep -c '^ok rank' "$out")" -ne "$1" ]; then
        mt_why="expected $1 lines 'ok rank'"
        return 1
    fi
}

# says ERE: the output has a line matching ERE
says() {
    grep -qE -- "$1" "$out" || { mt_why="no line matches '$1'" && return 1; }
}

# within SECS: the run took at most SECS seconds
within() {
    mt_le "$mt_elapsed" "$1" || { mt_why="took $mt_elapsed s (limit $1 s)" && return 1; }
}

# --- 1. no descriptor of the library in a child of a rank -------------------------------
lines=$(mt_lines hardening)
while read -r script prog args nps expect lim desc; do
    [ -n "$script" ] || continue
    for np in $(echo "$nps" | tr , ' '); do
        mt_run_one "$prog" "$args" "$np" "$expect" "$lim" "$desc" </dev/null
    done
done <<EOF
$lines
EOF
hrun 60 --host h1:2,h2:2 --oversubscribe --launch-agent "$AGENT" "$top_builddir/tests/mpi/fdcheck"
check "fdcheck through the launch agent (PMI over TCP): no descriptor inherited" \
    says "^ok: fdcheck np=4$"

# --- 2. outsiders on the TCP PMI port ---------------------------------------------------
# An agent that, before starting rank $OUTSIDER_RANK, plays an outsider who read PMI_PORT
# and PMI_ID in ps: it connects as that rank with a wrong secret, with none, and with a
# line that is not even initack, and logs how each connection ended.  With OUTSIDER_IDLE=N
# it instead leaves N connections open and silent (a background holder, ended by the test).
cat >"$MT_TMP/outsider-agent" <<'EOF'
#!/bin/bash
# helper of hardening.sh: fake-agent.sh preceded by an outsider on the PMI port
host=$1
port=
rank=
for w in "$@"; do
    case $w in
    PMI_PORT=*) port=${w#PMI_PORT=} ;;
    PMI_RANK=*) rank=${w#PMI_RANK=} ;;
    esac
done
addr=${port%:*}
port=${port##*:}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
if [ "$rank" = "$OUTSIDER_RANK" ] && [ -z "$OUTSIDER_IDLE" ]; then
    for line in "cmd=initack pmiid=$rank secret=0123456789abcdef0123456789abcdef" \
        "cmd=initack pmiid=$rank" "cmd=get kvsname=x key=btl.sm"; do
        exec 3<>"/dev/tcp/$addr/$port" || { echo "outsider: cannot connect" >>"$OUTSIDER_LOG"; continue; }
        printf '%s\n' "$line" >&3
        t0=$(now_ms)
        if read -t 3 -r reply <&3; then
            echo "outsider: answered '$reply'" >>"$OUTSIDER_LOG"
        else
            echo "outsider: closed after $(($(now_ms) - t0)) ms" >>"$OUTSIDER_LOG"
        fi
        exec 3>&-
    done
fi
if [ "$rank" = "$OUTSIDER_RANK" ] && [ -n "$OUTSIDER_IDLE" ]; then
    (
        for i in $(seq "$OUTSIDER_IDLE"); do
            exec {fd}<>"/dev/tcp/$addr/$port" || exit 1
        done
        touch "$OUTSIDER_LOG.ready"
        exec sleep 20
    ) </dev/null >/dev/null 2>&1 &
    echo $! >"$OUTSIDER_LOG.pid"
    for i in $(seq 100); do
        [ -e "$OUTSIDER_LOG.ready" ] && break
        sleep 0.05
    done
fi
exec "$OUTSIDER_AGENT" "$@"
EOF
chmod +x "$MT_TMP/outsider-agent"
OUTSIDER_LOG="$MT_TMP/outsider.log"
OUTSIDER_AGENT=$AGENT
export OUTSIDER_LOG OUTSIDER_AGENT
: >"$OUTSIDER_LOG"
OUTSIDER_RANK=1 hrun 30 --host h1:2,h2:2 --launch-agent "$MT_TMP/outsider-agent" "$PROBE"
refused() {
    succeeded 4 || return 1
    says "PMI connection from .* refused: its first line does not carry the job's secret; the job goes on" ||
        return 1
    says "refused 3 PMI connections without the job's secret" || return 1
    if [ "$(grep -cE '^outsider: closed after [0-9]{1,3} ms$' "$OUTSIDER_LOG")" -ne 3 ]; then
        mt_why="the outsiders were not all closed at once: $(cat "$OUTSIDER_LOG")"
        return 1
    fi
}
check "outsiders with a wrong secret, none, or no initack: closed at once, counted; the job runs on" \
    refused
cat "$OUTSIDER_LOG" | mt_diag

: >"$OUTSIDER_LOG"
rm -f "$OUTSIDER_LOG.ready" "$OUTSIDER_LOG.pid"
OUTSIDER_RANK=0 OUTSIDER_IDLE=100 hrun 30 --host h1:2,h2:2 --launch-agent \
    "$MT_TMP/outsider-agent" "$PROBE"
idle_ok() {
    [ -e "$OUTSIDER_LOG.ready" ] || { mt_why="the 100 idle connections were not all made" && return 1; }
    succeeded 4 || return 1
    within 10
}
check "100 idle outsider connections do not keep the job from starting" idle_ok
echo "100 idle outsiders: job done in $mt_elapsed s; $(grep -o 'refused [0-9]* PMI connections' "$out")" |
    mt_diag
[ -s "$OUTSIDER_LOG.pid" ] && kill "$(cat "$OUTSIDER_LOG.pid")" 2>/dev/null
unset OUTSIDER_LOG OUTSIDER_AGENT

# --- 3. a rank flooding PMI -------------------------------------------------------------
# rank 0 floods (reading the replies or not), rank 1 exits with status 3 after 1 s
cat >"$MT_TMP/flood" <<'EOF'
#!/bin/bash
# helper of hardening.sh: rank 0 floods mpirun with PMI requests, rank 1 dies at 1 s
trap '' PIPE
if [ "$PMI_RANK" = 0 ]; then
    if [ "$FLOOD_READS" = 1 ]; then
        cat <&"$PMI_FD" >/dev/null 2>&1 &
    fi
    yes cmd=get_universe_size >&"$PMI_FD" 2>/dev/null
    exec sleep 30
fi
# a victim that lives on is the sleep itself: nothing of it outlives a SIGTERM
[ -n "$FLOOD_VICTIM_SECS" ] && exec sleep "$FLOOD_VICTIM_SECS"
sleep 1
exit 3
EOF
chmod +x "$MT_TMP/flood"
# hrun_stamped LIMIT ARGS...: hrun, each output line prefixed with its time (s) since start
hrun_stamped() {
    h_lim=$1
    shift
    mt_cmd="$MPIRUN --timeout $h_lim $*"
    mt_why=
    h_t0=$(mt_now)
    timeout -k 5 $((h_lim + 10)) "$MPIRUN" --timeout "$h_lim" "$@" 2>&1 </dev/null |
        while IFS= read -r l; do printf '%s %s\n' "$(mt_secs "$h_t0" "$(mt_now)")" "$l"; done \
            >"$out"
    mt_rc=${PIPESTATUS[0]}
    mt_end=$(mt_now)
    mt_elapsed=$(mt_secs "$h_t0" "$mt_end")
}
death_on_time() {
    says "rank 1 \(pid [0-9]+\) exited with status 3; terminating the job" || return 1
    reported=$(grep -E "rank 1 \(pid [0-9]+\) exited with status 3" "$out" | awk '{ print $1; exit }')
    # its death at 1 s, reported within 2 s of it
    mt_le "$reported" 3 || { mt_why="rank 1's death (at 1 s) reported at $reported s" && return 1; }
}
cut_off() {
    says "rank 0 \(pid [0-9]+\) sends PMI requests without reading the replies .* cut off" ||
        return 1
    death_on_time
}
hrun_stamped 20 -np 2 "$MT_TMP/flood"
check "a rank that floods without reading is cut off, named; another's death is reported on time" \
    cut_off
echo "flood without reading: rank 1 died at 1 s, reported at $reported s, job down at $mt_elapsed s" |
    mt_diag
FLOOD_READS=1 hrun_stamped 20 -np 2 "$MT_TMP/flood"
check "a rank flooding (and reading) does not delay another rank's death report past 2 s" \
    death_on_time
echo "flood while reading: rank 1 died at 1 s, reported at $reported s, job down at $mt_elapsed s" |
    mt_diag
FLOOD_READS=1 FLOOD_VICTIM_SECS=30 hrun_stamped 2 -np 2 "$MT_TMP/flood"
timed_out() {
    [ "$mt_rc" -eq 124 ] || { mt_why="exit status $mt_rc, expected 124" && return 1; }
    says "job timed out after 2 s" || return 1
    fired=$(grep "job timed out after 2 s" "$out" | awk '{ print $1; exit }')
    mt_le "$fired" 2.5 || { mt_why="--timeout 2 fired at $fired s" && return 1; }
}
check "--timeout 2 fires on time under a flood" timed_out
echo "flood while reading: --timeout 2 fired at $fired s" | mt_diag
# SIGINT to mpirun at 1 s under the same flood
mt_cmd="$MPIRUN --timeout 20 -np 2 flood (SIGINT at 1 s)"
h_t0=$(mt_now)
(
    FLOOD_READS=1 FLOOD_VICTIM_SECS=30 timeout -k 5 30 sh -c 'echo $$ >"$0.pid"; exec "$@"' \
        "$MT_TMP/mpirun" "$MPIRUN" --timeout 20 -np 2 "$MT_TMP/flood" 2>&1 </dev/null |
        while IFS= read -r l; do printf '%s %s\n' "$(mt_secs "$h_t0" "$(mt_now)")" "$l"; done \
            >"$out"
) &
sub=$!
sleep 1
kill -INT "$(cat "$MT_TMP/mpirun.pid")"
wait "$sub"
interrupted() {
    caught=$(grep "caught signal 2" "$out" | awk '{ print $1; exit }')
    [ -n "$caught" ] || { mt_why="no 'caught signal 2' line" && return 1; }
    mt_le "$caught" 2 || { mt_why="SIGINT at 1 s took effect at $caught s" && return 1; }
}
check "SIGINT takes effect at once under a flood" interrupted
echo "flood while reading: SIGINT at 1 s took effect at $caught s" | mt_diag
# nothing of the floods may outlive them
for i in 1 2 3 4 5 6; do
    left=$(ps -eo pid=,args= | grep -F "cmd=get_universe_size" | grep -v grep)
    [ -z "$left" ] && break
    sleep 0.5
done
check "the flooding processes ended with their job" test -z "$left"

# --- 4. mpirun SIGKILLed during MPI_Init ------------------------------------------------
prog="$top_builddir/tests/mpi/init_basics"
leaks=0
strays=0
for i in $(seq 20); do
    "$MPIRUN" --timeout 30 -np 8 "$prog" >"$out" 2>&1 </dev/null &
    pid=$!
    # a random moment of the first half second (MPI_Init at np 8 takes about that long)
    sleep "0.$(od -An -N2 -tu2 /dev/urandom | awk '{ printf "%03d", $1 % 500 }')"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    for k in 1 2 3 4 5 6 7 8 9 10; do
        left=$(ps -eo pid=,args= | grep -F "$prog" | grep -v grep)
        [ -z "$left" ] && break
        sleep 0.2
    done
    [ -n "$left" ] && strays=$((strays + 1)) && kill -KILL $(echo "$left" | awk '{ print $1 }')
    files=$(ls /dev/shm 2>/dev/null | grep "^compi\.$pid\.")
    if [ -n "$files" ]; then
        leaks=$((leaks + 1))
        echo "$files" | sed "s|^|/dev/shm/|" | xargs rm -f
    fi
done
check "mpirun SIGKILLed in MPI_Init at np 8, 20 times: no file left in /dev/shm" \
    test "$leaks" -eq 0
check "mpirun SIGKILLed in MPI_Init at np 8, 20 times: no rank left" test "$strays" -eq 0
echo "20 kills: $leaks left files in /dev/shm, $strays left ranks" | mt_diag

# --- 5. bounded input -------------------------------------------------------------------
hrun 5 --hostfile /dev/zero "$PROBE"
zero_host() {
    [ "$mt_rc" -eq 1 ] || { mt_why="exit status $mt_rc, expected 1" && return 1; }
    says "/dev/zero:1: a NUL byte: this is not a host file" || return 1
    within 2
}
check "--hostfile /dev/zero: a clear error within 2 s" zero_host
hrun 10 -np 2 --coll-config /dev/zero "$top_builddir/tests/mpi/fdcheck"
zero_config() {
    [ "$mt_rc" -ne 0 ] && [ "$mt_rc" -ne 124 ] || { mt_why="exit status $mt_rc" && return 1; }
    says "config error: /dev/zero: not a regular file" || return 1
    within 2
}
check "--coll-config /dev/zero: a clear error within 2 s" zero_config
echo "/dev/zero as config: failed in $mt_elapsed s" | mt_diag

cat >"$MT_TMP/kvs-hog" <<'EOF'
#!/bin/bash
# helper of hardening.sh: rank 0 puts 1100 new keys and prints the last reply
if [ "$PMI_RANK" = 0 ]; then
    for i in $(seq 1100); do
        printf 'cmd=put kvsname=x key=hog%d value=%0200d\n' "$i" 0 >&"$PMI_FD"
        read -r reply <&"$PMI_FD"
    done
    echo "last reply: $reply"
fi
EOF
chmod +x "$MT_TMP/kvs-hog"
hrun 20 -np 2 "$MT_TMP/kvs-hog"
quota() {
    says "rank 0 put more than 1024 keys into the PMI key-value space \(the limit per rank\)" ||
        return 1
    says "^last reply: cmd=put_result rc=-1 msg=kvs_quota_of_1024_keys_per_rank$"
}
check "the key-value space refuses a rank's keys past its quota, naming it" quota

cat >"$MT_TMP/spawn-junk" <<'EOF'
#!/bin/bash
# helper of hardening.sh: rank 0 sends malformed spawn requests and prints each reply
if [ "$PMI_RANK" = 0 ]; then
    ask() {
        for line in "$@"; do printf '%s\n' "$line" >&"$PMI_FD"; done
        read -r reply <&"$PMI_FD"
        echo "reply: $reply"
    }
    ask "cmd=spawn_go parent=k"
    ask "cmd=spawn_cmd maxprocs=999999 appnum=0 argc=1 arg0=2f62696e2f74727565" \
        "cmd=spawn_go parent=k"
    ask "cmd=spawn_cmd maxprocs=1 appnum=0 argc=1 arg0=zz" "cmd=spawn_go parent=k"
    ask "cmd=spawn_cmd maxprocs=1 appnum=0 argc=2 arg0=2f62696e2f74727565" \
        "cmd=spawn_go parent=k"
    ask "cmd=spawn_cmd maxprocs=2 appnum=0 argc=1 arg0=2f6e6f2f73756368" "cmd=spawn_go parent=k"
    ask "cmd=spawn_go"
fi
EOF
chmod +x "$MT_TMP/spawn-junk"
hrun 20 -np 2 "$MT_TMP/spawn-junk"
spawn_junk() {
    [ "$mt_rc" -eq 0 ] || { mt_why="exit status $mt_rc" && return 1; }
    n=$(grep -c '^reply: cmd=spawn_result rc=-1 why=[0-9a-f]*$' "$out")
    [ "$n" -eq 6 ] || { mt_why="$n of 6 requests refused" && return 1; }
    # "cannot execute '/no/such'..." in hex: the program is looked for before any start
    says "why=$(printf "cannot execute '/no/such'" | od -An -tx1 | tr -d ' \n')"
}
check "malformed spawn requests are refused (rc=-1 and why), nothing is started" spawn_junk

cat >"$MT_TMP/escape" <<'EOF'
#!/bin/bash
# helper of hardening.sh: rank 1 aborts with a message holding an escape sequence
[ "$PMI_RANK" = 1 ] && printf 'cmd=abort exitcode=3 message=\033[2Jgone\a\n' >&"$PMI_FD"
sleep 5
EOF
chmod +x "$MT_TMP/escape"
hrun 10 -np 2 "$MT_TMP/escape"
escaped() {
    says 'rank 1 aborted the job with error code 3: \\x1b\[2Jgone\\x07' || return 1
    if grep -q "$(printf '\033')" "$out"; then
        mt_why="a raw escape character reached mpirun's output"
        return 1
    fi
}
check "control characters from a rank are escaped before mpirun prints them" escaped

hrun 30 -np 1 --mca pml_split_get_pct 500 --mca coll_cache_size -4 \
    "$top_builddir/tests/mpi/fdcheck"
ranges() {
    says "pml_split_get_pct: 500 is out of range \(1 to 99\)" || return 1
    says "coll_cache_size: -4 is out of range \(1 to [0-9]+\)"
}
check "out-of-range parameters: a warning naming the range" ranges

echo "1..$mt_n"
[ "$mt_failed" -eq 0 ]
