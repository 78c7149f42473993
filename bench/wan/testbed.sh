#!/bin/bash
# testbed.sh -- an emulated multi-cluster wide-area testbed on one machine, out of Linux
# network namespaces, for running MPI jobs across "clusters" joined by a slow link.
#
#   testbed.sh [options] up            build it (K clusters x M hosts, delay D)
#   testbed.sh [options] down          remove exactly what `up` made (from the state file)
#   testbed.sh [options] status        what exists, the router's statistics
#   testbed.sh [options] rtt [N]       median ping round trip inside and between clusters
#   testbed.sh [options] hosts [C]     host names, comma separated (all, or cluster C)
#   testbed.sh [options] exec HOST CMD...    run CMD on HOST (its namespace and host name)
#   testbed.sh [options] router CMD...       run CMD in the router namespace (launchers)
#   testbed.sh [options] reset         kill every process left on the hosts and in the
#                                      router namespace (but the router): between jobs
#   testbed.sh [options] list          testbeds recorded in the state directory
#   testbed.sh [options] reap          take down every testbed whose --owner has exited
#
# Options (or the environment variable in brackets):
#   -k, --clusters K    clusters, 1..254 (WAN_CLUSTERS, 3)
#   -m, --hosts M       hosts per cluster, 1..253 (WAN_HOSTS, 4)
#   -d, --delay USEC    one-way delay between clusters in microseconds (WAN_DELAY_US, 250)
#   -r, --rate RATE     cap each cluster's incoming wide-area traffic at RATE (tc syntax:
#                       1gbit, 100mbit) with an htb qdisc (WAN_RATE, no cap)
#   --mtu BYTES         MTU of every link, 576..65535 (WAN_MTU, 1500); larger packets
#                       mean fewer of them for the router to carry (see README.md)
#   -p, --prefix P      names of everything made start with P, so that two testbeds (two
#                       CI runs) never collide (WAN_PREFIX, wan)
#   --owner PID         the testbed belongs to process PID: `reap` removes it once PID has
#                       exited (CI scripts pass their $$)
#   --state-dir DIR     where the state is kept (WAN_STATE_DIR, /run/compi-wan)
#   --rt PRIO           the router runs SCHED_FIFO at PRIO, 0 for normal (WAN_RT_PRIO, 10)
#   --queue N           packets the router holds at most; more are dropped and counted
#                       (WAN_QUEUE, 4096)
#   --spin USEC         the router busy-waits the last USEC before a packet is due (0)
#   -f, --force         with down: also remove namespaces named like this prefix's when
#                       the state file is gone
#
# Layout (prefix P, clusters k = 1..K, hosts h = 1..M):
#
#   namespace Pckhh: eth0 10.k.0.h/24, default route via 10.k.0.254, host name "ckhh"
#        │ veth
#   namespace Pr (the router):  brk 10.k.0.254/24 (one bridge per cluster, its hosts'
#        veths as ports), tun0, ip_forward on, rp_filter off,
#        rule "iif brk to 10.0.0.0/8 lookup 100", table 100: 10.0.0.0/8 dev tun0,
#        bench/wan/wanrouter on tun0: holds each packet D us, writes it back; the main
#        table then forwards it to the destination's bridge.
#
# Inside a cluster, packets cross one bridge and are never delayed; between clusters each
# packet crosses the router once: one-way delay D, round trip 2 D.  Addresses of the
# router itself (10.k.0.254) are local to its namespace and reached without delay, so
# launchers run with `router` (mpirun's and its daemons' control connections) are one
# bridge away from every host.  Each namespace gets /etc/netns/NS/hosts (bind-mounted over
# /etc/hosts by `ip netns exec`) naming every host and "router" (10.1.0.254); commands
# started by `exec` and `router` get their own UTS namespace with that host name, so MPI
# libraries see one distinct host per namespace.
#
# Nothing is made in the root namespace: no interface, rule or route there.  The state
# (settings, the list of what was made, the router's pid file and log) is in
# STATE_DIR/PREFIX/; `down` reads it, kills the router and every process left in the
# namespaces, deletes the namespaces and the /etc/netns entries, and checks that nothing
# is left.  A failed `up` takes down what it had made.  Root only.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
me=testbed.sh

K=${WAN_CLUSTERS:-3}
M=${WAN_HOSTS:-4}
DELAY=${WAN_DELAY_US:-250}
RATE=${WAN_RATE:-}
MTU=${WAN_MTU:-1500}
PREFIX=${WAN_PREFIX:-wan}
STATE_DIR=${WAN_STATE_DIR:-/run/compi-wan}
RT_PRIO=${WAN_RT_PRIO:-10}
SPIN=${WAN_SPIN_US:-0}
QUEUE=${WAN_QUEUE:-4096}
OWNER=
FORCE=0

die() {
    printf '%s: %s\n' "$me" "$*" >&2
    exit 1
}
say() { printf '%s: %s\n' "$me" "$*" >&2; }
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

is_uint() { case $1 in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac; }
is_usec() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }

# --- options: before the command word, and after it for the commands without a CMD --------
cmd=
args=()
parse_opts() {
    while [ $# -gt 0 ]; do
        case $1 in
        -k | --clusters | -m | --hosts | -d | --delay | -r | --rate | -p | --prefix | \
            --owner | --state-dir | --rt | --spin | --mtu | --queue)
            [ $# -ge 2 ] || die "option '$1' needs a value"
            case $1 in
            -k | --clusters) K=$2 ;;
            -m | --hosts) M=$2 ;;
            -d | --delay) DELAY=$2 ;;
            -r | --rate) RATE=$2 ;;
            -p | --prefix) PREFIX=$2 ;;
            --owner) OWNER=$2 ;;
            --state-dir) STATE_DIR=$2 ;;
            --rt) RT_PRIO=$2 ;;
            --spin) SPIN=$2 ;;
            --mtu) MTU=$2 ;;
            --queue) QUEUE=$2 ;;
            esac
            shift
            ;;
        -f | --force) FORCE=1 ;;
        -h | --help)
            usage
            exit 0
            ;;
        -*) die "unknown option '$1' (try --help)" ;;
        *)
            if [ -z "$cmd" ]; then
                cmd=$1
                case $cmd in
                exec | router)
                    shift
                    args=("$@")
                    return 0
                    ;;
                esac
            else
                args+=("$1")
            fi
            ;;
        esac
        shift
    done
}
parse_opts "$@"
[ -n "$cmd" ] || {
    usage >&2
    exit 2
}

# --- validation -------------------------------------------------------------------------
is_uint "$K" && [ "$K" -ge 1 ] && [ "$K" -le 254 ] || die "--clusters '$K': 1 to 254"
is_uint "$M" && [ "$M" -ge 1 ] && [ "$M" -le 253 ] || die "--hosts '$M': 1 to 253"
is_usec "$DELAY" || die "--delay '$DELAY': microseconds, a number >= 0 (e.g. 250 or 12.5)"
is_uint "$MTU" && [ "$MTU" -ge 576 ] && [ "$MTU" -le 65535 ] || die "--mtu '$MTU': 576 to 65535"
is_uint "$QUEUE" && [ "$QUEUE" -ge 1 ] && [ "$QUEUE" -le 1048576 ] ||
    die "--queue '$QUEUE': 1 to 1048576 packets"
is_usec "$SPIN" || die "--spin '$SPIN': microseconds, a number >= 0"
is_uint "$RT_PRIO" && [ "$RT_PRIO" -le 99 ] || die "--rt '$RT_PRIO': 0 (off) to 99"
[[ $PREFIX =~ ^[A-Za-z][A-Za-z0-9_-]{0,31}$ ]] ||
    die "--prefix '$PREFIX': a letter, then up to 31 letters, digits, '_' or '-'"
[ -z "$RATE" ] || [[ $RATE =~ ^[0-9]+(\.[0-9]+)?([kKmMgGtT]?(bit|bps))$ ]] ||
    die "--rate '$RATE': a tc rate such as 1gbit, 500mbit or 100mbps"
[ -z "$OWNER" ] || is_uint "$OWNER" || die "--owner '$OWNER': a process id"

SDIR=$STATE_DIR/$PREFIX
STATE=$SDIR/state
RNS=${PREFIX}r

need_root() {
    [ "$(id -u)" = 0 ] || die "must run as root (network namespaces, TUN, bridges)"
    command -v ip >/dev/null || die "'ip' (iproute2) not found"
}

# settings of a testbed that is up come from its state file, not from the options
load_state() {
    [ -r "$STATE" ] || die "no testbed '$PREFIX' is up (no state file $STATE)"
    K=$(sed -n 's/^clusters=//p' "$STATE")
    M=$(sed -n 's/^hosts=//p' "$STATE")
    DELAY=$(sed -n 's/^delay_us=//p' "$STATE")
    RATE=$(sed -n 's/^rate=//p' "$STATE")
    MTU=$(sed -n 's/^mtu=//p' "$STATE")
    OWNER=$(sed -n 's/^owner=//p' "$STATE")
}

host_ns() { echo "$PREFIX$1"; }
all_hosts() {
    local k h first=1
    for ((k = 1; k <= K; k++)); do
        [ -n "${1-}" ] && [ "$1" != "$k" ] && continue
        for ((h = 1; h <= M; h++)); do
            [ $first = 1 ] || printf ','
            printf 'c%dh%d' "$k" "$h"
            first=0
        done
    done
    echo
}
valid_host() {
    [[ $1 =~ ^c([0-9]+)h([0-9]+)$ ]] || return 1
    local k=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]}
    [ "$k" -ge 1 ] && [ "$k" -le "$K" ] && [ "$h" -ge 1 ] && [ "$h" -le "$M" ] &&
        [ "$1" = "c$((10#$k))h$((10#$h))" ]
}

find_router() {
    local c
    for c in "${WAN_ROUTER:-}" "${top_builddir:-$repo/_build}/bench/wan/wanrouter" \
        "$here/wanrouter" "$repo/bench/build/wan/wanrouter"; do
        [ -n "$c" ] && [ -x "$c" ] && [ "$c" -nt "$here/wanrouter.c" -o ! -e "$here/wanrouter.c" ] &&
            { echo "$c" && return 0; }
    done
    # not built by make (or older than its source): build it beside the benchmarks
    command -v cc >/dev/null || return 1
    mkdir -p "$repo/bench/build/wan" || return 1
    cc -O2 -std=gnu11 -Wall -o "$repo/bench/build/wan/wanrouter" "$here/wanrouter.c" >&2 ||
        return 1
    echo "$repo/bench/build/wan/wanrouter"
}

# records one thing `up` made; `down` undoes them in reverse order
record() { echo "$*" >>"$STATE"; }

nsx() { ip netns exec "$@"; }

# --- up -----------------------------------------------------------------------------------
write_hosts_file() {
    local f=$1 k h
    {
        echo "127.0.0.1 localhost"
        echo "10.1.0.254 router"
        for ((k = 1; k <= K; k++)); do
            for ((h = 1; h <= M; h++)); do
                echo "10.$k.0.$h c${k}h$h"
            done
        done
    } >"$f"
}

# a namespace, with its /etc/netns entry (hosts file) and lo up
make_ns() {
    local ns=$1
    ip netns add "$ns" || return 1
    record "netns $ns"
    mkdir -p "/etc/netns/$ns" || return 1
    record "etcdir /etc/netns/$ns"
    write_hosts_file "/etc/netns/$ns/hosts" || return 1
    ip -n "$ns" link set lo up || return 1
    # IPv4 only: no IPv6 router solicitations or duplicate address checks in the way
    nsx "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
        >/dev/null 2>&1 || true
}

cmd_up() {
    need_root
    [ -c /dev/net/tun ] || die "/dev/net/tun is missing (no TUN support)"
    ip netns list >/dev/null 2>&1 || die "'ip netns' does not work here"
    local router
    router=$(find_router) || die "cannot find or build bench/wan/wanrouter (run make, or set WAN_ROUTER)"
    mkdir -p "$STATE_DIR" || die "cannot create $STATE_DIR"
    mkdir "$SDIR" 2>/dev/null ||
        die "testbed '$PREFIX' is already up or was not taken down (state in $SDIR):" \
            "$me --prefix $PREFIX down"
    local ns
    for ns in $(ip netns list | awk '{ print $1 }'); do
        if [ "$ns" = "$RNS" ] || [[ $ns =~ ^${PREFIX}c[0-9]+h[0-9]+$ ]]; then
            rmdir "$SDIR"
            die "a namespace named '$ns' exists already: another testbed with prefix" \
                "'$PREFIX'? ($me --prefix $PREFIX --force down removes them)"
        fi
    done
    {
        echo "# compi wan testbed: written by $me up, read by $me down"
        echo "prefix=$PREFIX"
        echo "clusters=$K"
        echo "hosts=$M"
        echo "delay_us=$DELAY"
        echo "rate=$RATE"
        echo "mtu=$MTU"
        echo "owner=$OWNER"
        echo "created=$(date -Is)"
    } >"$STATE"
    # from here, a failure takes down what was made
    if ! build_up "$router"; then
        say "up failed; taking down what was made"
        cmd_down >/dev/null
        exit 1
    fi
    say "testbed '$PREFIX' up: $K clusters x $M hosts, one-way delay $DELAY us${RATE:+, $RATE per cluster}"
}

build_up() {
    local router=$1 k h ns v
    make_ns "$RNS" || return 1
    nsx "$RNS" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 \
        net.ipv4.conf.default.rp_filter=0 net.ipv4.conf.all.send_redirects=0 \
        net.ipv4.conf.default.send_redirects=0 >/dev/null || return 1
    for ((k = 1; k <= K; k++)); do
        ip -n "$RNS" link add "br$k" mtu "$MTU" type bridge forward_delay 0 stp_state 0 ||
            return 1
        ip -n "$RNS" addr add "10.$k.0.254/24" dev "br$k" || return 1
        ip -n "$RNS" link set "br$k" up || return 1
        if [ -n "$RATE" ]; then
            # what the kernel forwards into cluster k (from the WAN) leaves through brk;
            # frames between hosts of the cluster are bridged and never pass this qdisc
            tc -n "$RNS" qdisc add dev "br$k" root handle 1: htb default 10 || return 1
            tc -n "$RNS" class add dev "br$k" parent 1: classid 1:10 htb rate "$RATE" quantum 1514 ||
                return 1
        fi
        for ((h = 1; h <= M; h++)); do
            ns=$(host_ns "c${k}h$h")
            v=c${k}h$h
            make_ns "$ns" || return 1
            ip -n "$RNS" link add "$v" mtu "$MTU" type veth peer name eth0 mtu "$MTU" \
                netns "$ns" || return 1
            ip -n "$RNS" link set "$v" master "br$k" up || return 1
            ip -n "$ns" addr add "10.$k.0.$h/24" dev eth0 || return 1
            ip -n "$ns" link set eth0 up || return 1
            ip -n "$ns" route add default via "10.$k.0.254" || return 1
        done
    done
    # the wide-area link: whatever comes from a cluster for 10/8 goes to tun0 (the router's
    # own addresses match the local table first and stay undelayed)
    ip -n "$RNS" tuntap add dev tun0 mode tun || return 1
    nsx "$RNS" sysctl -qw net.ipv4.conf.tun0.rp_filter=0 >/dev/null || return 1
    ip -n "$RNS" link set tun0 mtu "$MTU" up || return 1
    ip -n "$RNS" route add 10.0.0.0/8 dev tun0 table 100 || return 1
    for ((k = 1; k <= K; k++)); do
        ip -n "$RNS" rule add pref 100 iif "br$k" to 10.0.0.0/8 lookup 100 || return 1
    done
    local rt=()
    [ "$RT_PRIO" = 0 ] || rt=(--rt "$RT_PRIO")
    record "router $SDIR/router.pid"
    nsx "$RNS" "$router" --dev tun0 --delay "$DELAY" --queue "$QUEUE" --spin "$SPIN" "${rt[@]}" --daemon \
        --pidfile "$SDIR/router.pid" --log "$SDIR/router.log" || return 1
    # the links work: cluster 1 reaches its neighbour and the first host of every cluster
    if command -v ping >/dev/null; then
        local to=()
        [ "$M" -ge 2 ] && to+=(10.1.0.2)
        for ((k = 2; k <= K; k++)); do to+=("10.$k.0.1"); done
        for v in "${to[@]}"; do
            nsx "$(host_ns c1h1)" ping -n -q -c 1 -W 2 "$v" >/dev/null ||
                { say "c1h1 cannot reach $v"; return 1; }
        done
    fi
}

# --- down ---------------------------------------------------------------------------------
# kills what runs in namespace $1 (stray ranks, launcher daemons): TERM, then KILL
kill_ns_pids() {
    local pids i
    pids=$(ip netns pids "$1" 2>/dev/null)
    [ -z "$pids" ] && return 0
    kill -TERM $pids 2>/dev/null
    for ((i = 0; i < 20; i++)); do
        sleep 0.1
        pids=$(ip netns pids "$1" 2>/dev/null)
        [ -z "$pids" ] && return 0
    done
    kill -KILL $pids 2>/dev/null
    sleep 0.2
}

stop_router() {
    local pidfile=$1 pid i
    [ -r "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    is_uint "$pid" || return 0
    # only our router: the pid file may be stale and the pid reused
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "wanrouter.*--pidfile $pidfile" ||
        return 0
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 30; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    say "router $pid ignored SIGTERM; killing it"
    kill -KILL "$pid" 2>/dev/null
}

cmd_down() {
    need_root
    local what arg lines=() i ok=0 left=()
    if [ ! -r "$STATE" ]; then
        if [ $FORCE = 1 ]; then
            for arg in $(ip netns list | awk '{ print $1 }'); do
                if [ "$arg" = "$RNS" ] || [[ $arg =~ ^${PREFIX}c[0-9]+h[0-9]+$ ]]; then
                    lines+=("netns $arg" "etcdir /etc/netns/$arg")
                fi
            done
            [ ${#lines[@]} -gt 0 ] || die "no testbed '$PREFIX': no state file, no namespaces"
            say "no state file: removing namespaces named like testbed '$PREFIX' (--force)"
        else
            die "no testbed '$PREFIX' (no state file $STATE); --force removes namespaces" \
                "named like its own"
        fi
    else
        mapfile -t lines < <(grep -E '^(netns|etcdir|router) ' "$STATE")
        # the router first: a process inside a namespace keeps it alive after `ip netns del`
        for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
            [ "${lines[i]%% *}" = router ] && stop_router "${lines[i]#* }"
        done
    fi
    for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
        what=${lines[i]%% *}
        arg=${lines[i]#* }
        case $what in
        netns)
            [ -e "/run/netns/$arg" ] || continue
            kill_ns_pids "$arg"
            ip netns del "$arg" || ok=1
            ;;
        etcdir)
            case $arg in /etc/netns/"$PREFIX"*) rm -rf "$arg" ;; esac
            ;;
        esac
    done
    rmdir /etc/netns 2>/dev/null || true
    # nothing of ours may be left
    for arg in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
        if [ "$arg" = "$RNS" ] || [[ $arg =~ ^${PREFIX}c[0-9]+h[0-9]+$ ]]; then
            left+=("namespace $arg")
        fi
    done
    if [ ${#left[@]} -gt 0 ] || [ $ok != 0 ]; then
        say "testbed '$PREFIX' not completely removed: ${left[*]:-see the errors above}"
        return 1
    fi
    [ -d "$SDIR" ] && rm -rf "$SDIR"
    rmdir "$STATE_DIR" 2>/dev/null || true
    say "testbed '$PREFIX' down"
}

# --- status, rtt, list, reap ----------------------------------------------------------------
router_pid() {
    local pid
    pid=$(cat "$SDIR/router.pid" 2>/dev/null) || return 1
    is_uint "$pid" && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

cmd_status() {
    load_state
    local k h ns missing=0 pid
    echo "testbed '$PREFIX': $K clusters x $M hosts, one-way delay $DELAY us," \
        "rate ${RATE:-uncapped}, mtu ${MTU:-1500}${OWNER:+, owner pid $OWNER}"
    echo "  created $(sed -n 's/^created=//p' "$STATE"), state $STATE"
    for ns in "$RNS" $(all_hosts | tr , '\n' | sed "s/^/$PREFIX/"); do
        [ -e "/run/netns/$ns" ] || {
            echo "  MISSING namespace $ns"
            missing=1
        }
    done
    [ $missing = 0 ] && echo "  namespaces: $RNS and $((K * M)) hosts, all present"
    if pid=$(router_pid); then
        kill -USR1 "$pid"
        sleep 0.2
        echo "  router: pid $pid, $(grep 'stats (SIGUSR1)' "$SDIR/router.log" | tail -1)"
    else
        echo "  router: NOT RUNNING (log: $SDIR/router.log)"
        missing=1
    fi
    return $missing
}

# median, min and max round trip in microseconds of N pings from host $1 to address $2
ping_stats() {
    nsx "$(host_ns "$1")" ping -n -c "$3" -i 0.01 -W 1 "$2" 2>/dev/null |
        sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p' | sort -g |
        awk '{ v[NR] = $1 * 1000 }
             END { if (NR == 0) { print "no replies"; exit 1 }
                   m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                   printf "median %.0f us (min %.0f, max %.0f, %d replies)\n", m, v[1], v[NR], NR }'
}

cmd_rtt() {
    load_state
    command -v ping >/dev/null || die "ping not found (Debian: apt-get install iputils-ping)"
    local n=${args[0]:-50} k
    is_uint "$n" && [ "$n" -ge 1 ] || die "rtt: count '$n' must be a positive number"
    echo "round trips, $n pings each (one-way delay $DELAY us, so 2 x delay = $(awk -v d="$DELAY" 'BEGIN { print 2 * d }') us between clusters)"
    if [ "$M" -ge 2 ]; then
        echo "  inside cluster 1  c1h1 -> c1h2: $(ping_stats c1h1 10.1.0.2 "$n")"
    fi
    for ((k = 2; k <= K; k++)); do
        echo "  between clusters  c1h1 -> c${k}h1: $(ping_stats c1h1 "10.$k.0.1" "$n")"
    done
    echo "  to the router     c1h1 -> router: $(ping_stats c1h1 10.1.0.254 "$n")"
}

cmd_list() {
    local d p o
    [ -d "$STATE_DIR" ] || return 0
    for d in "$STATE_DIR"/*/; do
        [ -r "$d/state" ] || continue
        p=$(basename "$d")
        o=$(sed -n 's/^owner=//p' "$d/state")
        printf '%s: %s clusters x %s hosts, delay %s us, created %s%s\n' "$p" \
            "$(sed -n 's/^clusters=//p' "$d/state")" "$(sed -n 's/^hosts=//p' "$d/state")" \
            "$(sed -n 's/^delay_us=//p' "$d/state")" "$(sed -n 's/^created=//p' "$d/state")" \
            "${o:+, owner $o$(kill -0 "$o" 2>/dev/null || echo ' (gone)')}"
    done
}

cmd_reap() {
    need_root
    local d p o rc=0
    [ -d "$STATE_DIR" ] || return 0
    for d in "$STATE_DIR"/*/; do
        [ -r "$d/state" ] || continue
        o=$(sed -n 's/^owner=//p' "$d/state")
        [ -n "$o" ] || continue
        kill -0 "$o" 2>/dev/null && continue
        p=$(basename "$d")
        say "testbed '$p': owner $o has exited; taking it down"
        (PREFIX=$p SDIR=$STATE_DIR/$p STATE=$STATE_DIR/$p/state RNS=${p}r cmd_down) || rc=1
    done
    return $rc
}

cmd_reset() {
    need_root
    load_state
    local ns pid pids rpid
    rpid=$(router_pid) || rpid=
    for ns in $(all_hosts | tr , '\n' | sed "s/^/$PREFIX/"); do
        kill_ns_pids "$ns"
    done
    pids=
    for pid in $(ip netns pids "$RNS" 2>/dev/null); do
        [ "$pid" = "$rpid" ] || pids="$pids $pid"
    done
    [ -z "$pids" ] && return 0
    kill -TERM $pids 2>/dev/null
    sleep 0.5
    kill -KILL $pids 2>/dev/null || true
}

# --- exec, router ---------------------------------------------------------------------------
cmd_exec() {
    need_root
    load_state
    [ ${#args[@]} -ge 2 ] || die "usage: $me exec HOST CMD [ARGS...]"
    valid_host "${args[0]}" || die "exec: no host '${args[0]}' in testbed '$PREFIX'" \
        "(hosts: $(all_hosts))"
    export WAN_PREFIX=$PREFIX WAN_STATE_DIR=$STATE_DIR
    exec "$here/agent" "${args[@]}"
}

cmd_router() {
    need_root
    load_state
    [ ${#args[@]} -ge 1 ] || die "usage: $me router CMD [ARGS...]"
    [ -e "/run/netns/$RNS" ] || die "router namespace $RNS is missing"
    export WAN_PREFIX=$PREFIX WAN_STATE_DIR=$STATE_DIR
    exec ip netns exec "$RNS" unshare --uts sh -c 'hostname router && exec "$@"' sh \
        "${args[@]}"
}

case $cmd in
up) cmd_up ;;
down) cmd_down ;;
status) cmd_status ;;
rtt) cmd_rtt ;;
hosts)
    load_state
    all_hosts "${args[0]:-}"
    ;;
exec) cmd_exec ;;
router) cmd_router ;;
reset) cmd_reset ;;
list) cmd_list ;;
reap) cmd_reap ;;
*) die "unknown command '$cmd' (up, down, status, rtt, hosts, exec, router, reset, list, reap)" ;;
esac
