#!/bin/sh
# TAP: mpirun on many hosts, compi only: --host, --hostfile, --map-by, --oversubscribe,
# ranks started through a launch agent with PMI over TCP, and the library under Hydra.
#
# The hosts h1 and h2 are fake: tests/mpi/fake-agent.sh "reaches" them by running the
# rank here with an emptied environment and no inherited descriptors, so a rank knows only
# what mpirun put on the agent's command line and must speak PMI over TCP.  (The ranks
# still share this machine's name, so they talk over shared memory.)
#
#  1. the 'launch' lines of test-list.txt: MPI programs on h1:2,h2:2 through the agent.
#     In their args column, words starting with "--" are mpirun options ("--map-by=node",
#     "--host=localhost:2+h1:2" instead of the default hosts, '+' standing for the comma
#     that separates the column's words); the others are the program's.
#  2. checks of this script: bad host lists and host files, placement (--map-by,
#     oversubscription, host files), the environment a remote rank gets, ssh-style quoting
#     through a fake ssh, job control through the agent (crash, agent failure, refused
#     PMI ids, no rank left behind), output, bindings, and MPICH's Hydra starting our
#     ranks (skipped when mpiexec.hydra is absent).
# Every mpirun runs with --timeout and under `timeout`.
. "$(dirname "$0")/lib.sh"

AGENT="$MT_SRCDIR/fake-agent.sh"
PROBE="$top_builddir/tests/unit/pmi_client_probe"
out="$MT_TMP/out"
unset COMPI_COLL_CONFIG FAKE_AGENT_LOG FAKE_AGENT_STAY

mt_skip_unless_compi "mpirun's host options are compi's"
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
echo "# MPIRUN=$MPIRUN agent=$AGENT"

# --- 1. the list's MPI programs through the agent ---------------------------------------
lines=$(mt_lines launch)
while read -r script prog args nps expect lim desc; do
    [ -n "$script" ] || continue
    launch="--oversubscribe --launch-agent $AGENT"
    hosts="--host h1:2,h2:2"
    pargs=
    for a in $(echo "$args" | tr , ' '); do
        case $a in
        -) ;;
        --host=* | --hostfile=*) hosts=$(echo "$a" | tr + ,) ;;
        --*) launch="$launch $(echo "$a" | tr + ,)" ;;
        *) pargs="${pargs:+$pargs,}$a" ;;
        esac
    done
    MPIRUN_ARGS="$hosts $launch"
    for np in $(echo "$nps" | tr , ' '); do
        mt_run_one "$prog" "${pargs:--}" "$np" "$expect" "$lim" "$desc [$hosts]" </dev/null
    done
done <<EOF
$lines
EOF
MPIRUN_ARGS=
# the checks below run in one part of the script when it is split by tier (lib.sh)
if ! mt_own_checks; then
    echo "1..$mt_n"
    exit 0
fi

# --- helpers of the checks --------------------------------------------------------------

# lrun LIMIT ARGS...: mpirun --timeout LIMIT ARGS..., output in $out; sets mt_rc, mt_elapsed
lrun() {
    l_lim=$1
    shift
    mt_cmd="$MPIRUN --timeout $l_lim $*"
    mt_why=
    l_t0=$(mt_now)
    timeout -k 5 $((l_lim + 10)) "$MPIRUN" --timeout "$l_lim" "$@" >"$out" 2>&1 </dev/null
    mt_rc=$?
    mt_end=$(mt_now)
    mt_elapsed=$(mt_secs "$l_t0" "$mt_end")
}

# check NAME COMMAND...: one TAP line, ok when COMMAND succeeds
check() {
    c_name=$1
    shift
    if "$@"; then
        mt_ok "$c_name"
    else
        mt_not_ok "$c_name"
    fi
}

# usage_error ERE: mpirun refused at once (status 1) with a message matching ERE
usage_error() {
    if [ "$mt_rc" -ne 1 ]; then
        mt_why="exit status $mt_rc, expected 1"
        return 1
    fi
    if ! grep -qE -- "$1" "$out"; then
        mt_why="no message matches '$1'"
        return 1
    fi
    if grep -q '^ok rank' "$out"; then
        mt_why="ranks ran"
        return 1
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

# has LINE...: status 0 and every LINE is a whole line of the output
has() {
    if [ "$mt_rc" -ne 0 ]; then
        mt_why="exit status $mt_rc, expected 0"
        return 1
    fi
    for h_line in "$@"; do
        if ! grep -qxF -- "$h_line" "$out"; then
            mt_why="no line '$h_line'"
            return 1
        fi
    done
}

# failed_fast ERE SECS: non-zero status (not the time limit), within SECS, message ERE
failed_fast() {
    if [ "$mt_rc" -eq 0 ] || [ "$mt_rc" -eq 124 ]; then
        mt_why="exit status $mt_rc: the failure did not end the job"
        return 1
    fi
    if ! mt_le "$mt_elapsed" "$2"; then
        mt_why="the job took $mt_elapsed s to go down (limit $2 s)"
        return 1
    fi
    if ! grep -qE -- "$1" "$out"; then
        mt_why="no message matches '$1'"
        return 1
    fi
}

# placed EXPECTED: status 0 and the agent's log, sorted by rank, is "HOST RANK" per line
# (EXPECTED: "h1 0,h1 1,...")
placed() {
    if [ "$mt_rc" -ne 0 ]; then
        mt_why="exit status $mt_rc, expected 0"
        return 1
    fi
    p_got=$(sort -k2,2n "$FAKE_AGENT_LOG" | tr '\n' , | sed 's/,$//')
    if [ "$p_got" != "$1" ]; then
        mt_why="the agent started '$p_got', expected '$1'"
        return 1
    fi
}

# placement NAME EXPECTED ARGS...: runs the probe with the agent logging
placement() {
    p_name=$1
    p_want=$2
    shift 2
    FAKE_AGENT_LOG="$MT_TMP/agent.log"
    export FAKE_AGENT_LOG
    : >"$FAKE_AGENT_LOG"
    lrun 20 --launch-agent "$AGENT" "$@" "$PROBE" exit 0
    check "$p_name" placed "$p_want"
    unset FAKE_AGENT_LOG
}

# --- 2a. bad host lists and host files --------------------------------------------------
lrun 10 --host h1:x --launch-agent "$AGENT" "$PROBE"
check "--host h1:x: bad slot count named" usage_error "bad slot count 'x' in 'h1:x'"
lrun 10 --host h1:0 --launch-agent "$AGENT" "$PROBE"
check "--host h1:0: zero slots refused" usage_error "bad slot count '0'"
lrun 10 --host 'h1,,h2' --launch-agent "$AGENT" "$PROBE"
check "--host h1,,h2: empty host name refused" usage_error "bad host name ''"
lrun 10 --host '-oProxyCommand=x' --launch-agent "$AGENT" "$PROBE"
check "--host -oProxyCommand=x: a name the agent would take for an option" \
    usage_error "bad host name '-oProxyCommand=x'"
lrun 10 --hostfile "$MT_TMP/no-such-file" "$PROBE"
check "--hostfile missing: file and reason named" \
    usage_error "cannot open host file '.*no-such-file': No such file or directory"
printf '# hosts\nh1 slots=2\n\nh2 slots=two\n' >"$MT_TMP/bad1"
lrun 10 --hostfile "$MT_TMP/bad1" "$PROBE"
check "host file with slots=two: file:line named" usage_error "bad1:4: bad slot count 'two'"
printf 'h1:2\nh2 cpus=4\n' >"$MT_TMP/bad2"
lrun 10 --hostfile "$MT_TMP/bad2" "$PROBE"
check "host file with an unknown word: file:line named" \
    usage_error "bad2:2: unexpected 'cpus=4' after host 'h2'"
printf '# nothing\n\n' >"$MT_TMP/empty"
lrun 10 --hostfile "$MT_TMP/empty" "$PROBE"
check "host file naming no host refused" usage_error "names no host"
lrun 10 --host h1:2,h2:1 -np 4 --launch-agent "$AGENT" "$PROBE"
check "np 4 > 3 slots without --oversubscribe refused" \
    usage_error "4 ranks asked for, but the hosts given have 3 slots.*--oversubscribe"
lrun 10 --host h1 --map-by socket "$PROBE"
check "--map-by socket refused" usage_error "--map-by takes slot or node, got 'socket'"
lrun 10 --host h1 --launch-agent ' ' "$PROBE"
check "--launch-agent with no command refused" usage_error "--launch-agent needs a command"

# --- 2b. placement ----------------------------------------------------------------------
placement "--host h1:2,h2:2, no -np: 4 ranks, by slot" "h1 0,h1 1,h2 2,h2 3" --host h1:2,h2:2
placement "--map-by node: round-robin over the hosts" "h1 0,h2 1,h1 2,h2 3" \
    --host h1:2,h2:2 --map-by node
placement "--host h1,h2,h1: a slot per occurrence, merged per host" "h1 0,h1 1,h2 2" \
    --host h1,h2,h1
placement "--map-by node skips full hosts" "h1 0,h2 1,h1 2,h1 3" --host h1:3,h2:1 --map-by node
placement "-np 5 on 3 slots with --oversubscribe wraps around" "h1 0,h1 1,h2 2,h1 3,h1 4" \
    --host h1:2,h2:1 -np 5 --oversubscribe
placement "-np 2 on 4 slots uses the first host's slots" "h1 0,h1 1" --host h1:2,h2:2 -np 2
cat >"$MT_TMP/hosts" <<'EOF'
# Open MPI and MPICH lines, comments and blank lines

h1 slots=2   # two here
h2:1
h1
	h2   slots=1
EOF
placement "--hostfile: 'slots=N', 'name:N', bare names, comments, repeats" \
    "h1 0,h1 1,h1 2,h2 3,h2 4" --hostfile "$MT_TMP/hosts"
placement "localhost is this machine: started directly, not through the agent" \
    "h1 1,h2 3" --host localhost:1,h1:1,$(hostname):1,h2:1

# --- 2c. PMI over TCP, mixed with local ranks -------------------------------------------
lrun 30 --host localhost:2,h1:2,h2:1 --launch-agent "$AGENT" "$PROBE"
check "put/barrier/get: 2 local ranks (socketpair) and 3 remote (TCP)" succeeded 5
# pmi_fds: rank 0 (local) has a descriptor, rank 1 (remote) none
pmi_fds() {
    has "rank 1 PMI_FD=unset" || return 1
    grep -qE '^rank 0 PMI_FD=[0-9]+$' "$out" || { mt_why="rank 0 has no PMI_FD" && return 1; }
}
lrun 20 --host localhost:1,h1:1 --launch-agent "$AGENT" "$PROBE" env PMI_FD
check "a local rank gets PMI_FD, a remote one does not" pmi_fds
lrun 20 --host localhost:1,h1:1 --launch-agent "$AGENT" --pmi-address 127.0.0.1 \
    "$PROBE" env PMI_PORT
check "--pmi-address is the address remote ranks get" \
    grep -qE '^rank 1 PMI_PORT=127\.0\.0\.1:[0-9]+$' "$out"
lrun 20 --host localhost:1,h1:1 --launch-agent "$AGENT" --pmi-address 255.255.255.255 "$PROBE"
check "an address the rank cannot reach: the rank's failure ends the job" \
    failed_fast "rank 1 .*on h1 through" 25
lrun 20 --host h1:2,h2:2 --launch-agent "$AGENT" "$PROBE" get PMI_process_mapping
check "PMI_process_mapping tells MPICH the node of each rank (by slot)" \
    has "rank 3 PMI_process_mapping=(vector,(0,2,2))"
lrun 20 --host localhost:1,h1:2,h2:1 --map-by node -np 5 --oversubscribe --launch-agent "$AGENT" \
    "$PROBE" get PMI_process_mapping
check "PMI_process_mapping by node, wrapping past the slots" \
    has "rank 4 PMI_process_mapping=(vector,(0,3,1),(1,1,1))"

# --- 2d. what a remote rank's environment holds -----------------------------------------
cat >"$MT_TMP/show-env" <<'EOF'
#!/bin/sh
# helper of launch.sh: prints the variables a rank got, one per line
for v in PMI_RANK PMI_SIZE PMI_ID MPI_LOCALRANKID MPI_LOCALNRANKS COMPI_JOBID \
    COMPI_OVERSUBSCRIBED COMPI_COLL_CONFIG COMPI_MCA_pml_verbose COMPI_TEST_X COMPI_TEST_Y \
    COMPI_LAUNCH_FROM_ENV COMPI_CPU_PLACES HOME; do
    eval "echo \"rank $PMI_RANK $v=\${$v-unset}\""
done
EOF
chmod +x "$MT_TMP/show-env"
COMPI_TEST_X='x with spaces'
COMPI_LAUNCH_FROM_ENV=inherited
export COMPI_TEST_X COMPI_LAUNCH_FROM_ENV
here=$(pwd)
cd "$MT_TMP" || exit 99
lrun 20 --host h1:1,h2:2 --launch-agent "$AGENT" -x COMPI_TEST_X \
    -x 'COMPI_TEST_Y=y "q" $z' --mca pml_verbose 3 --coll-config rel.scm --coll-config /abs.scm \
    ./show-env
cd "$here" || exit 99
unset COMPI_TEST_X COMPI_LAUNCH_FROM_ENV
check "remote rank: PMI and local-rank variables" \
    has "rank 2 PMI_RANK=2" "rank 2 PMI_SIZE=3" "rank 2 PMI_ID=2" "rank 2 MPI_LOCALRANKID=1" \
    "rank 2 MPI_LOCALNRANKS=2" "rank 0 MPI_LOCALNRANKS=1"
check "remote rank: -x, --mca and this environment's COMPI_* variables" \
    has "rank 1 COMPI_TEST_X=x with spaces" 'rank 1 COMPI_TEST_Y=y "q" $z' \
    "rank 1 COMPI_MCA_pml_verbose=3" "rank 1 COMPI_LAUNCH_FROM_ENV=inherited"
check "remote rank: --coll-config paths made absolute" \
    has "rank 0 COMPI_COLL_CONFIG=$MT_TMP/rel.scm:/abs.scm"
check "remote rank: nothing else of this environment (HOME, COMPI_CPU_PLACES)" \
    has "rank 0 HOME=unset" "rank 0 COMPI_CPU_PLACES=unset"
check "remote rank: no COMPI_OVERSUBSCRIBED without --oversubscribe (the rank decides)" \
    has "rank 0 COMPI_OVERSUBSCRIBED=unset"
check "remote rank: the same COMPI_JOBID as the others" \
    test "$(grep -c "COMPI_JOBID=compi\." "$out")" -eq 3 -a \
    "$(grep "COMPI_JOBID=" "$out" | sed 's/^rank [0-9]* //' | sort -u | wc -l)" -eq 1
lrun 20 --host h1:1 -np 2 --oversubscribe --launch-agent "$AGENT" "$MT_TMP/show-env"
check "remote rank: COMPI_OVERSUBSCRIBED=1 with --oversubscribe" \
    has "rank 0 COMPI_OVERSUBSCRIBED=1" "rank 1 COMPI_OVERSUBSCRIBED=1"

# --- 2e. an agent named ssh: the command is shell-quoted --------------------------------
mkdir -p "$MT_TMP/bin"
cat >"$MT_TMP/bin/ssh" <<'EOF'
#!/bin/sh
# fake ssh (helper of launch.sh): drops its options and the host, then runs the rest in a
# shell with an emptied environment, as sshd runs a remote command (but for the
# sanitizers' options: the machine's settings, see fake-agent.sh)
echo "$*" >>"${0%/*}/ssh.log"
while [ $# -gt 0 ]; do
    case $1 in
    -*) shift ;;
    *) break ;;
    esac
done
shift
exec env -i PATH="$PATH" ${ASAN_OPTIONS:+"ASAN_OPTIONS=$ASAN_OPTIONS"} \
    ${LSAN_OPTIONS:+"LSAN_OPTIONS=$LSAN_OPTIONS"} ${UBSAN_OPTIONS:+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} \
    sh -c "$*"
EOF
chmod +x "$MT_TMP/bin/ssh"
lrun 20 --host h1,h2 --launch-agent "$MT_TMP/bin/ssh" -x "V=it's \"q\" \$HOME *" \
    sh -c 'printf "[%s]" "$@" "$V" "$PMI_RANK"; echo' sh "a b" "it's" '"q"' '$PATH' '*' '' 'x\y'
want="[a b][it's][\"q\"][\$PATH][*][][x\\y][it's \"q\" \$HOME *]"
check "agent ssh: arguments and values with blanks, quotes, \$, * arrive intact" \
    has "$want[0]" "$want[1]"
lrun 20 --host h1 --launch-agent "$MT_TMP/bin/ssh" "$PROBE" env PMI_PORT
check "agent ssh: the rank speaks PMI over TCP" grep -qE '^rank 0 PMI_PORT=.+:[0-9]+$' "$out"
lrun 20 --host h1:2,h2:2 --launch-agent "bash $AGENT" -x "W=two  blanks" sh -c 'echo "$W"'
check "an exec-style agent of two words: arguments passed as they are" \
    test "$mt_rc" -eq 0 -a "$(grep -cx 'two  blanks' "$out")" -eq 4

# --- 2e'. -x, --mca and COMPI_* values stay off the agent's command line ----------------
cat >"$MT_TMP/argv-agent" <<EOF
#!/bin/sh
# helper of launch.sh: logs its arguments (what ps shows of the agent), then is fake-agent.sh
echo "\$*" >>"$MT_TMP/argv.log"
exec "$AGENT" "\$@"
EOF
chmod +x "$MT_TMP/argv-agent"
# off_line WORD...: the agent ran, and no WORD is on any of its command lines
off_line() {
    grep -q 'PMI_RANK=1' "$MT_TMP/argv.log" || { mt_why="the agent never ran" && return 1; }
    for o_word in "$@"; do
        if grep -qF -- "$o_word" "$MT_TMP/argv.log"; then
            mt_why="'$o_word' is on the agent's command line" && return 1
        fi
    done
}
: >"$MT_TMP/argv.log"
COMPI_TEST_FROM_ENV=env-value-5
export COMPI_TEST_FROM_ENV
lrun 20 --host h1:1,h2:1 --launch-agent "$MT_TMP/argv-agent" -x 'COMPI_TEST_X=x-value-3 $q' \
    --mca coll_test_value mca-value-4 "$PROBE" env COMPI_TEST_X
unset COMPI_TEST_FROM_ENV
check "-x, --mca and COMPI_* values: not on the agent's command line" \
    off_line x-value-3 mca-value-4 env-value-5
check "-x value: the remote rank still gets it (from the agent's stdin)" \
    has 'rank 1 COMPI_TEST_X=x-value-3 $q'
: >"$MT_TMP/argv.log"
lrun 30 --host h1:2,h2:2 --launch-agent "$MT_TMP/argv-agent" --mca btl_sm_eager_limit 99999999999 \
    "$top_builddir/tests/mpi/ring"
# mca_seen: the ring ran and a rank warned about the --mca value, which is not on the line
mca_seen() {
    has "ok: ring np=4" || return 1
    grep -q "btl_sm_eager_limit: 99999999999 is out of range" "$out" ||
        { mt_why="no rank warned about btl_sm_eager_limit 99999999999" && return 1; }
    off_line 99999999999
}
check "--mca value: remote MPI ranks read it (out of range, warned), not on the command line" \
    mca_seen

# --- 2f. job control through the agent --------------------------------------------------
FAKE_AGENT_STAY=1
export FAKE_AGENT_STAY
lrun 30 --host h1:2,h2:2 --launch-agent "$AGENT" "$PROBE" crash 2 9
check "agent outliving its rank (as ssh): a killed rank ends the job, rank named" \
    failed_fast "rank 2 \(pid [0-9]+, on h2 through .*fake-agent.sh\) exited with status 137" 5
ln -s "$PROBE" "$MT_TMP/probe-left"
lrun 30 --host h1:2,h2:2 --launch-agent "$AGENT" "$MT_TMP/probe-left" crash 1 9
left=
for i in 1 2 3 4 5 6; do
    left=$(ps -eo pid=,args= | grep -F "$MT_TMP/probe-left" | grep -v grep)
    [ -z "$left" ] && break
    sleep 0.5
done
check "agent outliving its rank: the other ranks end when mpirun has gone" \
    test $mt_rc -ne 0 -a -z "$left"
[ -n "$left" ] && echo "$left" | mt_diag && kill -9 $(echo "$left" | awk '{ print $1 }')
unset FAKE_AGENT_STAY
lrun 30 --host h1:2,h2:2 --launch-agent "$AGENT" "$PROBE" abort 5 "remote gives up"
check "MPI_Abort of a remote rank: its code and message" \
    failed_fast "rank 1 aborted the job with error code 5: remote gives up" 5
lrun 10 --host h1:2 --launch-agent "$MT_TMP/no-such-agent" "$PROBE"
check "a missing launch agent is named" \
    failed_fast "cannot execute the launch agent '.*no-such-agent' for rank 0: No such file" 5
printf '#!/bin/sh\necho "agent: cannot reach $1" >&2\nexit 255\n' >"$MT_TMP/unreachable"
chmod +x "$MT_TMP/unreachable"
lrun 10 --host h1,h2 --launch-agent "$MT_TMP/unreachable" "$PROBE"
check "an agent that cannot reach its host: rank, host and status named" \
    failed_fast "rank [01] \(pid [0-9]+, on h[12] through .*unreachable\) exited with status 255" 5
cat >"$MT_TMP/bad-id" <<'EOF'
#!/bin/sh
# helper of launch.sh: an agent that hands the rank the PMI id $BAD_ID instead of its own
shift
for w in "$@"; do
    shift
    case $w in
    PMI_ID=*) set -- "$@" "PMI_ID=$BAD_ID" ;;
    *) set -- "$@" "$w" ;;
    esac
done
exec "$@"
EOF
chmod +x "$MT_TMP/bad-id"
BAD_ID=7
export BAD_ID
lrun 20 --host h1,h2 --launch-agent "$MT_TMP/bad-id" "$PROBE"
check "a PMI connection naming an unknown id is refused, the job ends" \
    failed_fast "refused: id 7 is not a rank started through the launch agent" 10
BAD_ID=0
lrun 20 --host h1,h2 --launch-agent "$MT_TMP/bad-id" "$PROBE"
check "a second PMI connection for the same rank is refused, the job ends" \
    failed_fast "refused: rank 0 is already connected" 10
unset BAD_ID

# --- 2g. output, input and bindings -----------------------------------------------------
lrun 20 --tag-output --host localhost:1,h1:1,h2:1 --launch-agent "$AGENT" "$PROBE" lines 200
check "--tag-output through the agent: every line tagged with its rank, none lost" \
    test "$mt_rc" -eq 0 -a \
    "$(grep -c '^\[1,[0-2]\]<stdout>:out [0-9]* from rank [0-2]$' "$out")" -eq 600 -a \
    "$(grep -c '^\[1,[0-2]\]<stderr>:err [0-9]* from rank [0-2]$' "$out")" -eq 600 -a \
    "$(grep -c '^\[1,2\]<stdout>:out [0-9]* from rank 2$' "$out")" -eq 200
printf 'to rank zero\n' >"$MT_TMP/in"
mt_cmd="$MPIRUN --host h1,h2 --launch-agent $AGENT $PROBE echo-stdin <in"
timeout -k 5 30 "$MPIRUN" --timeout 20 --host h1,h2 --launch-agent "$AGENT" "$PROBE" \
    echo-stdin >"$out" 2>&1 <"$MT_TMP/in"
mt_rc=$?
check "stdin reaches remote rank 0 through the agent" has "to rank zero"
bindings() {
    has "mpirun: rank 1 host h1: remote (not bound by mpirun)" || return 1
    grep -q "^mpirun: rank 0 host .*: bound to core 0 " "$out" ||
        { mt_why="rank 0 is not reported bound to core 0" && return 1; }
}
lrun 20 --report-bindings --host localhost:1,h1:1 --launch-agent "$AGENT" "$PROBE" exit 0
check "--report-bindings: a remote rank is 'remote', a local one bound" bindings

# --- 2h. MPICH's Hydra starting our ranks -----------------------------------------------
ring="$top_builddir/tests/mpi/ring"
if command -v mpiexec.hydra >/dev/null 2>&1; then
    hydra() {
        mt_cmd="mpiexec.hydra $*"
        mt_why=
        timeout -k 5 120 env MPIEXEC_TIMEOUT=100 mpiexec.hydra "$@" >"$out" 2>&1 </dev/null
        mt_rc=$?
    }
    hydra -n 2 "$ring"
    check "mpiexec.hydra -n 2 ring" has "ok: ring np=2"
    : >"$MT_TMP/bin/ssh.log"
    hydra -launcher ssh -launcher-exec "$MT_TMP/bin/ssh" -hosts h1,h2 -n 4 "$ring"
    through_ssh() {
        has "ok: ring np=4" || return 1
        grep -q ' h2 ' "$MT_TMP/bin/ssh.log" || { mt_why="the fake ssh never ran" && return 1; }
    }
    check "mpiexec.hydra through a fake ssh to hosts h1,h2 -n 4 ring" through_ssh
    hydra -pmi-port -launcher ssh -launcher-exec "$MT_TMP/bin/ssh" -hosts h1,h2 -n 4 \
        "$top_builddir/tests/mpi/coll_basic"
    check "mpiexec.hydra -pmi-port (PMI over TCP) through a fake ssh: coll_basic" \
        has "ok: coll_basic np=4"
else
    for d in "mpiexec.hydra -n 2 ring" "mpiexec.hydra through a fake ssh" \
        "mpiexec.hydra -pmi-port through a fake ssh"; do
        mt_n=$((mt_n + 1))
        echo "ok $mt_n - $d # SKIP mpiexec.hydra not installed"
    done
fi

echo "1..$mt_n"
