#!/bin/sh
# TAP: compi across the emulated wide-area testbed (bench/wan/testbed.sh).
#
# Brings up 2 clusters x 2 hosts with a 1 ms one-way delay under a prefix of its own
# ("wt" and this script's pid, owner: this script), and checks
#   - the testbed itself: bad options are refused, a second `up` of the same prefix is
#     refused, every host has its own name and address, round trips between clusters
#     take at least 2 x delay and inside a cluster less than the delay, only traffic
#     between clusters passes the router;
#   - compi on it: every collective against local references (tests/mpi/coll_basic) at
#     4 ranks, one per host, over btl self,sm,ofi; a rank killed by SIGKILL on one host
#     brings the job down with a message naming it (tests/mpi/crash kill); the same
#     coll_basic started by MPICH's Hydra through bench/wan/ssh-agent.  These need
#     mpirun's --host/--launch-agent and the ofi BTL, and are skipped (with the reason)
#     where the build has neither;
#   - MPI-IO on it: tests/mpi/io_coll (collective reads and writes by two-phase, blocking
#     and nonblocking) and
#     io_access (explicit, individual, shared-pointer and ordered access) at 4 ranks, one
#     per host, on one file in a directory every host sees, under
#     tests/mpi/configs/io_subnets.scm (aggregators by subnet: one per cluster).  The
#     hosts share the root's file systems: `ip netns exec` gives each command a mount
#     namespace of its own, but a copy of the root's mounts (only /sys and /etc/hosts
#     differ), so a directory made here is the same directory on every host, and fcntl
#     locks on it (the shared pointer's) hold between them.  coll_verbose's lines must
#     show file-write and file-read closures whose aggregators are one rank per cluster;
#     the programs check the file's contents;
#   - `down`: no namespace, router process, /etc/netns entry or state left, and nothing
#     new in the root namespace's links and rules.
# The testbed is taken down on every exit (trap), also after a failure or a signal;
# testbeds of earlier runs whose owner has died are reaped first.
#
# Exits 77 (skip) when not root or when network namespaces or TUN are unavailable
# (tests/wan/check-wan.sh, the `make check` entry, turns that into a TAP skip).
# Every MPI run has a time limit (tests/mpi/lib.sh); WAN_TEST_DELAY_US changes the delay.

wan_skip() {
    echo "1..0 # SKIP $*"
    echo "wan.sh: skipped: $*" >&2
    exit 77
}
[ "$(id -u)" = 0 ] || wan_skip "needs root (network namespaces, TUN, bridges)"
command -v ip >/dev/null 2>&1 || wan_skip "no 'ip' command (iproute2)"
command -v unshare >/dev/null 2>&1 || wan_skip "no 'unshare' command (util-linux)"
[ -c /dev/net/tun ] || wan_skip "no /dev/net/tun (TUN support)"
probe=wanprobe$$
ip netns add "$probe" 2>/dev/null || wan_skip "'ip netns add' does not work here"
ip netns del "$probe"

. "$(dirname "$0")/../mpi/lib.sh"

WAN_SRCDIR=$top_srcdir/bench/wan
TB=$WAN_SRCDIR/testbed.sh
PFX=wt$$
DELAY=${WAN_TEST_DELAY_US:-1000}
HOSTS=c1h1,c1h2,c2h1,c2h2
tb() { timeout -k 5 60 "$TB" --prefix "$PFX" "$@"; }

links_rules() {
    ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print "link " $2 }'
    ip rule show | sed 's/^/rule /'
}
links_rules | sort >"$MT_TMP/root-before"

teardown() {
    if [ -d "/run/compi-wan/$PFX" ]; then
        "$TB" --prefix "$PFX" down >"$MT_TMP/down.out" 2>&1 || cat "$MT_TMP/down.out" >&2
    fi
}
trap 'teardown; rm -rf "$MT_TMP"' EXIT
trap 'exit 99' INT TERM HUP

echo "1..13"
echo "# testbed $PFX: 2 clusters x 2 hosts, one-way delay $DELAY us"
"$TB" reap 2>&1 | mt_diag

# --- 1: bad input is refused -------------------------------------------------------------
mt_cmd="testbed.sh --clusters 0 up; testbed.sh --delay 1ms up"
out1=$("$TB" --prefix "$PFX" --clusters 0 up 2>&1)
rc1=$?
out2=$("$TB" --prefix "$PFX" --delay 1ms up 2>&1)
rc2=$?
mt_rc=$rc1
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && echo "$out1" | grep -q -- '--clusters' &&
    echo "$out2" | grep -q -- '--delay' && [ ! -e "/run/compi-wan/$PFX" ]; then
    mt_ok "bad --clusters and --delay are refused with a message naming the option"
else
    mt_why="expected two failures naming the options and no state; got: $out1 / $out2"
    mt_not_ok "bad --clusters and --delay are refused with a message naming the option"
fi

# --- 2: up ---------------------------------------------------------------------------------
mt_cmd="testbed.sh --prefix $PFX -k 2 -m 2 -d $DELAY --owner $$ up"
if tb -k 2 -m 2 -d "$DELAY" --owner $$ up >"$MT_TMP/out" 2>&1; then
    mt_ok "up: 2 clusters x 2 hosts, delay $DELAY us"
else
    mt_rc=$?
    mt_why="testbed.sh up failed"
    mt_not_ok "up: 2 clusters x 2 hosts, delay $DELAY us"
    echo "Bail out! no testbed"
    exit 1
fi

# --- 3: the same prefix twice --------------------------------------------------------------
mt_cmd="testbed.sh --prefix $PFX up (again)"
if out=$(tb -k 2 -m 2 up 2>&1); then
    mt_why="a second up of the same prefix succeeded"
    mt_not_ok "a second up of prefix $PFX is refused"
elif ! echo "$out" | grep -q 'already up'; then
    mt_why="refused, but without saying the testbed is up: $out"
    mt_not_ok "a second up of prefix $PFX is refused"
elif ! tb status >"$MT_TMP/out" 2>&1; then
    mt_why="the refused up broke the testbed that was up"
    mt_not_ok "a second up of prefix $PFX is refused"
else
    mt_ok "a second up of prefix $PFX is refused, the first testbed still works"
fi

# --- 4: every host has its own name and address ---------------------------------------------
mt_cmd="testbed.sh exec HOST sh -c 'hostname; ip -4 -o addr show eth0'"
mt_why=
for h in $(echo "$HOSTS" | tr , ' '); do
    want_addr=10.$(echo "$h" | sed 's/^c\([0-9]*\)h\([0-9]*\)$/\1.0.\2/')
    got=$(tb exec "$h" sh -c 'hostname; ip -4 -o addr show dev eth0' 2>&1)
    name=$(echo "$got" | head -n 1)
    [ "$name" = "$h" ] || mt_why="$mt_why host $h calls itself '$name';"
    echo "$got" | grep -q "inet $want_addr/24" || mt_why="$mt_why host $h lacks $want_addr/24;"
done
if [ -z "$mt_why" ]; then
    mt_ok "each host has its own host name and address 10.K.0.M/24"
else
    mt_not_ok "each host has its own host name and address 10.K.0.M/24"
fi

# --- 5: round trips ------------------------------------------------------------------------
mt_cmd="testbed.sh rtt 20"
median() { sed -n "s/.*$1.*median \([0-9]*\) us.*/\1/p" "$MT_TMP/rtt" | head -n 1; }
if ! command -v ping >/dev/null 2>&1; then
    mt_ok "# SKIP round trips: no ping (Debian: iputils-ping)"
elif ! tb rtt 20 >"$MT_TMP/rtt" 2>&1; then
    cp "$MT_TMP/rtt" "$MT_TMP/out"
    mt_why="testbed.sh rtt failed"
    mt_not_ok "round trips"
else
    intra=$(median 'c1h1 -> c1h2')
    inter=$(median 'c1h1 -> c2h1')
    cp "$MT_TMP/rtt" "$MT_TMP/out"
    # the router cannot deliver early; late it may be on a loaded machine (20 ms of slack)
    if [ -z "$intra" ] || [ -z "$inter" ]; then
        mt_why="no medians in the output"
        mt_not_ok "round trips"
    elif [ "$inter" -lt $((2 * DELAY)) ] || [ "$inter" -gt $((2 * DELAY + 20000)) ]; then
        mt_why="between clusters: median $inter us, expected 2 x $DELAY us (+ up to 20 ms)"
        mt_not_ok "round trips"
    elif [ "$intra" -ge "$DELAY" ]; then
        mt_why="inside a cluster: median $intra us, should be below the delay ($DELAY us)"
        mt_not_ok "round trips"
    else
        mt_ok "round trips: between clusters $inter us (>= 2 x $DELAY), inside $intra us"
    fi
fi

# --- 6: only traffic between clusters passes the router -------------------------------------
router_in() {
    pid=$(cat "/run/compi-wan/$PFX/router.pid")
    kill -USR1 "$pid"
    sleep 0.3
    grep 'stats (SIGUSR1)' "/run/compi-wan/$PFX/router.log" | tail -n 1 |
        sed 's/.* in \([0-9]*\) .*/\1/'
}
# UDP datagrams from bash's /dev/udp (no ping needed): 10 inside cluster 1, then 10 across
mt_cmd="testbed.sh exec c1h1 bash -c 'echo x >/dev/udp/ADDR/9' (x10)"
send_udp() {
    tb exec c1h1 bash -c "for i in 1 2 3 4 5 6 7 8 9 10; do echo x >/dev/udp/$1/9; done" \
        >/dev/null 2>&1
}
in0=$(router_in)
send_udp 10.1.0.2
in1=$(router_in)
send_udp 10.2.0.1
in2=$(router_in)
if [ -z "$in0" ] || [ -z "$in2" ]; then
    mt_why="no statistics from the router (log: $(tail -n 3 "/run/compi-wan/$PFX/router.log"))"
    mt_not_ok "only traffic between clusters passes the router"
elif [ "$in1" -ne "$in0" ] || [ $((in2 - in1)) -lt 10 ]; then
    mt_why="router packet count $in0 -> $in1 (10 inside cluster 1: expected no change)"
    mt_why="$mt_why -> $in2 (10 to cluster 2: expected +10 at least)"
    mt_not_ok "only traffic between clusters passes the router"
else
    mt_ok "only traffic between clusters passes the router ($in0 -> $in1 -> $in2 packets)"
fi

# --- 7-9: compi on the testbed ---------------------------------------------------------------
COMPI_MPIRUN=$top_builddir/bin/mpirun
why_no_ofi=
if [ ! -e "$top_builddir/lib/btl_ofi.la" ] &&
    ! "$top_builddir/bin/compi_info" --params 2>/dev/null | grep -q 'btl_ofi'; then
    why_no_ofi="no ofi BTL in this build (ranks on different hosts cannot talk)"
fi
why_no_compi=$why_no_ofi
if ! "$COMPI_MPIRUN" --help 2>&1 | grep -q -- '--launch-agent'; then
    why_no_compi="this mpirun has no --launch-agent (multi-host launcher not built)"
fi

# launcher wrappers: the launchers run in the router namespace
cat >"$MT_TMP/compi-mpirun" <<EOF
#!/bin/sh
exec "$TB" --prefix "$PFX" router "$COMPI_MPIRUN" --host c1h1:1,c1h2:1,c2h1:1,c2h2:1 \\
    --launch-agent "$WAN_SRCDIR/agent" "\$@"
EOF
cat >"$MT_TMP/hydra" <<EOF
#!/bin/sh
exec "$TB" --prefix "$PFX" router mpiexec.hydra -launcher ssh \\
    -launcher-exec "$WAN_SRCDIR/ssh-agent" -hosts $HOSTS "\$@"
EOF
chmod +x "$MT_TMP/compi-mpirun" "$MT_TMP/hydra"

if [ -n "$why_no_compi" ]; then
    mt_ok "# SKIP compi coll_basic across hosts: $why_no_compi"
    mt_ok "# SKIP compi crash across hosts: $why_no_compi"
else
    MPIRUN=$MT_TMP/compi-mpirun MPI_FLAVOR=compi MPIRUN_ARGS="--mca btl self,sm,ofi"
    mt_run_one coll_basic - 4 ok 240 "every collective, one rank per host, 2 clusters"
    mt_run_one crash kill 4 crash 60 "a rank killed on c2h2 brings the job down"
fi

# --- MPI-IO across hosts: one directory, aggregators by subnet ------------------------------
# rank r runs on the r-th host of --host (one slot each): its cluster is that host's cK
wan_cluster_of() {
    echo "$HOSTS" | tr , '\n' | sed -n "$(($1 + 1))s/^c\([0-9]*\)h.*/\1/p"
}
# mt_judge's hook for "ok-by-subnet": as ok, and every file-write and file-read closure
# that coll_verbose shows has as aggregators exactly one rank of each cluster (but those
# the hints make 'direct', without any)
mt_judge_extra() {
    [ "$1" = ok-by-subnet ] || {
        mt_why="unknown expectation '$1'"
        return 1
    }
    mt_judge ok "$2" "$3" "$4" || return 1
    lines=$(grep -E 'file-(write|read):' "$MT_TMP/out")
    if [ -z "$lines" ]; then
        mt_why="no coll_verbose line for a file-write or file-read closure"
        return 1
    fi
    for aggs in $(echo "$lines" | sed -n 's/.*file-[a-z]*:[^(]*([^)]*ranks=\([0-9+]*\).*/\1/p'); do
        clusters=
        for r in $(echo "$aggs" | tr + ' '); do
            clusters="$clusters $(wan_cluster_of "$r")"
        done
        got=$(echo $clusters | tr ' ' '\n' | sort | tr '\n' ' ')
        if [ "$got" != "1 2 " ]; then
            mt_why="aggregators $aggs are in clusters '$got', expected one in each of 1 2"
            return 1
        fi
    done
    # only 'direct' (collective buffering disabled by the hints) has no aggregators
    if echo "$lines" | grep -v 'ranks=' | grep -qv 'file-[a-z]*:direct'; then
        mt_why="a file closure without aggregators: $(echo "$lines" | grep -v 'ranks=' |
            grep -v 'file-[a-z]*:direct' | head -n 1)"
        return 1
    fi
    return 0
}
if [ -n "$why_no_compi" ]; then
    mt_ok "# SKIP MPI-IO across hosts: $why_no_compi"
    mt_ok "# SKIP nonblocking MPI-IO across hosts: $why_no_compi"
    mt_ok "# SKIP MPI-IO shared and ordered access across hosts: $why_no_compi"
else
    mkdir -p "$MT_TMP/io" && chmod 1777 "$MT_TMP/io"
    MPIRUN=$MT_TMP/compi-mpirun MPI_FLAVOR=compi
    MPIRUN_ARGS="--mca btl self,sm,ofi --coll-config $top_srcdir/tests/mpi/configs/io_subnets.scm"
    MPIRUN_ARGS="$MPIRUN_ARGS --mca coll_verbose 1"
    old_tmpdir=${TMPDIR-}
    export TMPDIR=$MT_TMP/io
    mt_run_one io_coll quick 4 ok-by-subnet 60 \
        "collective MPI-IO on one file from 4 hosts, one aggregator per subnet"
    mt_run_one io_coll nb 4 ok-by-subnet 60 \
        "the same through the nonblocking forms (two-phase as a schedule), one aggregator per subnet"
    MPIRUN_ARGS="--mca btl self,sm,ofi"
    mt_run_one io_access - 4 ok 60 \
        "MPI-IO shared-pointer and ordered access on one file from 4 hosts"
    if [ -n "$old_tmpdir" ]; then TMPDIR=$old_tmpdir; else unset TMPDIR; fi
fi
if [ -n "$why_no_ofi" ]; then
    mt_ok "# SKIP compi coll_basic under Hydra: $why_no_ofi"
elif ! command -v mpiexec.hydra >/dev/null 2>&1; then
    mt_ok "# SKIP compi coll_basic under Hydra: no mpiexec.hydra (Debian: mpich)"
else
    # the ranks inherit the launcher's environment through ssh-agent
    MPIRUN=$MT_TMP/hydra MPI_FLAVOR=mpich MPIRUN_ARGS=
    export COMPI_MCA_btl=self,sm,ofi
    mt_run_one coll_basic - 4 ok 240 "Hydra + ssh-agent: every collective, one rank per host"
    unset COMPI_MCA_btl
fi

# --- 10: down leaves nothing ----------------------------------------------------------------
mt_cmd="testbed.sh --prefix $PFX down"
router_pid=$(cat "/run/compi-wan/$PFX/router.pid" 2>/dev/null)
mt_why=
if ! tb down >"$MT_TMP/out" 2>&1; then
    mt_why="down failed;"
fi
left=$(ip netns list | awk '{ print $1 }' | grep -E "^${PFX}(r|c[0-9]+h[0-9]+)\$" | tr '\n' ' ')
[ -z "$left" ] || mt_why="$mt_why namespaces left: $left;"
if [ -n "$router_pid" ] && kill -0 "$router_pid" 2>/dev/null; then
    mt_why="$mt_why router $router_pid still running;"
fi
ls -d /etc/netns/"$PFX"* >/dev/null 2>&1 && mt_why="$mt_why /etc/netns/$PFX* left;"
[ -e "/run/compi-wan/$PFX" ] && mt_why="$mt_why state /run/compi-wan/$PFX left;"
links_rules | sort >"$MT_TMP/root-after"
# other jobs may change the root namespace meanwhile: only names like ours count
new=$(comm -13 "$MT_TMP/root-before" "$MT_TMP/root-after" |
    grep -E '^link (br[0-9]+|tun[0-9]+|c[0-9]+h[0-9]+|eth0)$|^rule .*lookup 100' | tr '\n' ' ')
[ -z "$new" ] || mt_why="$mt_why new in the root namespace: $new;"
if [ -z "$mt_why" ]; then
    mt_ok "down: no namespace, router, /etc/netns entry, state or root-namespace change left"
else
    mt_not_ok "down: no namespace, router, /etc/netns entry, state or root-namespace change left"
fi
[ "$mt_failed" = 0 ]
