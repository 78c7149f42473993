#!/bin/sh
# TAP: the 'ofi' lines of tests/mpi/test-list.txt: MPI programs over btl ofi (libfabric),
# compi only, skipped when compi was built without libfabric.
#
# Every line runs with --mca btl ofi,self unless its args column names a btl list of its
# own; with ofi,self a rank reaches the others only through ofi, so a job that passes
# used it.  In these lines the args column also carries the launcher's settings, comma
# separated:
#   btl=A+B+C    mpirun --mca btl A,B,C;  btl=default: no btl setting (the default list)
#   NAME=VALUE   mpirun --mca NAME VALUE
#   netns        rank r runs in network namespace r % 2 with its own host name (h0, h1),
#                the two joined by a veth pair (10.9.x.1/24, 10.9.x.2/24): two "hosts" on
#                one machine, which only ofi (over TCP) joins.  Needs root, ip and unshare;
#                skipped otherwise.  The namespaces are removed when the script ends.
#   client=N     two jobs of two mpiruns instead of one: `PROG server FILE` at the
#                line's np, which writes its port's name to FILE, and `PROG client FILE`
#                at np N, which connects to it (portjobs), with netns each mpirun in a
#                namespace of its own (0, host h0: the server; 1, h1: the client), else
#                both on this host; for ok both exit 0 and print their ok lines, and
#                neither leaves anything behind
#   client.NAME=VALUE  (with client=N) the client's mpirun alone gets --mca NAME VALUE
#                (as COMPI_MCA_NAME in its environment)
#   anything else an argument of the program
# and two more expectations are understood (judged here, see mt_judge_extra):
#   error=ERE[~ERE...]   non-zero exit within the limit, and each ERE (grep -E) matches
#   says=ERE[~ERE...]    as ok, and each ERE matches the output (of a client=N line:
#                        both jobs', each line prefixed "server: " or "client: "); !ERE:
#                        no line matches ERE
. "$(dirname "$0")/lib.sh"

mt_judge_extra() {
    case $1 in
    error=*)
        if [ "$mt_rc" -eq 0 ]; then
            mt_why="exit status 0: the bad setting was not reported as a failure"
            return 1
        fi
        if ! mt_le "$mt_elapsed" "$4"; then
            mt_why="the job took $mt_elapsed s to fail (limit $4 s): a hang, or nearly"
            return 1
        fi
        mt_grep_all "${1#error=}"
        ;;
    says=*)
        if [ -n "$client" ]; then
            # two jobs (mt_jobs_run): their outputs, prefixed "server: " and "client: "
            if [ "$mt_rc" -ne 0 ]; then
                mt_why="exit status $mt_rc, expected 0 from both jobs"
                return 1
            fi
            if ! grep -qx "server: ok: $2 np=$3" "$MT_TMP/out" ||
                ! grep -qx "client: ok: $2-client np=$client" "$MT_TMP/out"; then
                mt_why="no line 'ok: $2 np=$3' from the server or 'ok: $2-client np=$client' from the client"
                return 1
            fi
        else
            mt_judge ok "$2" "$3" "$4" || return 1
        fi
        x_ifs=$IFS
        IFS='~'
        set -f
        # shellcheck disable=SC2086 # split on ~
        set -- ${1#says=}
        set +f
        IFS=$x_ifs
        for x_p in "$@"; do
            case $x_p in
            !*)
                if grep -qE -- "${x_p#!}" "$MT_TMP/out"; then
                    mt_why="a line of the output matches '${x_p#!}': $(grep -E -m1 -- "${x_p#!}" "$MT_TMP/out")"
                    return 1
                fi
                ;;
            *) mt_grep_all "$x_p" || return 1 ;;
            esac
        done
        ;;
    *)
        mt_why="test-list.txt: unknown expectation '$1'"
        return 1
        ;;
    esac
}

mt_skip_unless_compi "btl ofi is compi's"
if ! grep -q '^#define COMPI_HAVE_OFI 1' "$top_builddir/config.h" 2>/dev/null; then
    echo "1..0 # SKIP compi was configured without libfabric (no btl ofi)"
    exit 0
fi

# ---- two network namespaces, made on first use --------------------------------------

NS_A="compiofi$$a"
NS_B="compiofi$$b"
NS_NET="10.9.$(($$ % 250)).0/24"
ns_state=none # none | up | failed: why in ns_why

ns_cleanup() {
    [ "$ns_state" = up ] || return 0
    ip netns del "$NS_A" 2>/dev/null
    ip netns del "$NS_B" 2>/dev/null
}
trap 'ns_cleanup; rm -rf "$MT_TMP"' EXIT

ns_setup() {
    ns_state=failed
    if [ "$(id -u)" != 0 ]; then
        ns_why="network namespaces need root"
        return 1
    fi
    for c in ip unshare hostname; do
        if ! command -v $c >/dev/null 2>&1; then
            ns_why="no '$c' command"
            return 1
        fi
    done
    pre=${NS_NET%.0/24}
    va="cofi$$a"
    vb="cofi$$b"
    ns_state=up # from here on, clean up whatever exists
    if ! { ip netns add "$NS_A" && ip netns add "$NS_B" &&
        ip link add "$va" type veth peer name "$vb" &&
        ip link set "$va" netns "$NS_A" && ip link set "$vb" netns "$NS_B" &&
        ip -n "$NS_A" addr add "$pre.1/24" dev "$va" &&
        ip -n "$NS_B" addr add "$pre.2/24" dev "$vb" &&
        ip -n "$NS_A" link set "$va" up && ip -n "$NS_B" link set "$vb" up &&
        ip -n "$NS_A" link set lo up && ip -n "$NS_B" link set lo up; } >"$MT_TMP/ns.log" 2>&1
    then
        ns_why="setting up network namespaces failed: $(tr '\n' ' ' <"$MT_TMP/ns.log")"
        ns_cleanup
        ns_state=failed
        return 1
    fi
}

# for netns lines: the program, wrapped so that rank r starts in namespace r % 2 under
# host name h<r % 2> (mpirun's PMI descriptor is inherited through the wrapper)
mt_prog_plain() {
    if [ -z "$MPICC" ]; then
        echo "$top_builddir/tests/mpi/$1"
        return 0
    fi
    if [ ! -x "$MT_TMP/$1" ]; then
        $MPICC -O2 -w -o "$MT_TMP/$1" "$MT_SRCDIR/$1.c" >"$MT_TMP/build.log" 2>&1 || return 1
    fi
    echo "$MT_TMP/$1"
}

mt_prog_netns() {
    p=$(mt_prog_plain "$1") || return 1
    w="$MT_TMP/netns-$1"
    cat >"$w" <<EOF
#!/bin/sh
n=\$((PMI_RANK % 2))
if [ \$n = 0 ]; then ns=$NS_A; else ns=$NS_B; fi
exec ip netns exec \$ns unshare --uts sh -c 'hostname "h\$0" && exec "\$@"' "\$n" "$p" "\$@"
EOF
    chmod +x "$w"
    echo "$w"
}

# the two jobs of a client=N line (lib.sh's mt_jobs_run): with netns each mpirun in a
# namespace of its own, under host name h0 (the server) or h1 (the client)
mt_jobs_side0() {
    if [ "$netns" = 0 ]; then
        "$@"
        return
    fi
    # shellcheck disable=SC2016 # $@ is the inner shell's
    ip netns exec "$NS_A" unshare --uts sh -c 'hostname h0 && exec "$@"' sh "$@"
}
mt_jobs_side1() {
    # shellcheck disable=SC2086 # $client_env: words NAME=VALUE for env
    if [ "$netns" = 0 ]; then
        env $client_env "$@"
        return
    fi
    # shellcheck disable=SC2016,SC2086
    ip netns exec "$NS_B" unshare --uts sh -c 'hostname h1 && exec "$@"' sh env $client_env "$@"
}

mt_stamp
lines=$(mt_lines ofi)
if [ -z "$lines" ]; then
    echo "1..0 # SKIP no tests for 'ofi' in test-list.txt (MT_FILTER='$MT_FILTER')"
    exit 0
fi
plan=0
for np in $(echo "$lines" | awk '{ print $4 }' | tr , ' '); do
    plan=$((plan + 1))
done
echo "1..$plan"
echo "# MPIRUN=$MPIRUN flavor=compi"
# here, not in the loop below (a subshell): the EXIT trap must see what was made
if echo "$lines" | awk '{ print $3 }' | tr , '\n' | grep -qx netns; then
    ns_setup && echo "# network namespaces $NS_A and $NS_B ($NS_NET)"
fi
base_args=$MPIRUN_ARGS
echo "$lines" | while read -r script prog args nps expect lim desc; do
    launch=$base_args
    pargs=
    btl="--mca btl ofi,self"
    netns=0
    client=
    client_env=
    for a in $(echo "$args" | tr , ' '); do
        case $a in
        -) ;;
        netns) netns=1 ;;
        client=*) client=${a#client=} ;;
        client.*=*) client_env="$client_env COMPI_MCA_${a#client.}" ;;
        btl=default) btl= ;;
        btl=*) btl="--mca btl $(echo "${a#btl=}" | tr + ,)" ;;
        *=*) launch="$launch --mca ${a%%=*} ${a#*=}" ;;
        *) pargs="${pargs:+$pargs,}$a" ;;
        esac
    done
    MPIRUN_ARGS="$btl $launch"
    if [ $netns = 1 ] && [ "$ns_state" != up ]; then
        for np in $(echo "$nps" | tr , ' '); do
            mt_n=$((mt_n + 1))
            echo "ok $mt_n - $prog np=$np: $desc # SKIP $ns_why"
        done
        continue
    fi
    if [ $netns = 1 ] && [ -z "$client" ]; then
        mt_prog() { mt_prog_netns "$@"; }
    else
        mt_prog() { mt_prog_plain "$@"; }
    fi
    for np in $(echo "$nps" | tr , ' '); do
        if [ -n "$client" ]; then
            slim=$(awk -v l="$lim" -v s="$MT_TIMEOUT_SCALE" 'BEGIN { printf "%d", l * s }')
            mt_jobs_run "$prog" "$client" "$np" "$expect" "$slim" "$desc [$args]" </dev/null
        else
            mt_run_one "$prog" "${pargs:--}" "$np" "$expect" "$lim" "$desc [$args]" </dev/null
        fi
    done
done
