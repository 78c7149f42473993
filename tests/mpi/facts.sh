#!/bin/sh
# TAP: rank facts (host, addresses, hwloc place) and mpirun's binding, compi only.
#
# The 'facts' line of test-list.txt gives the process counts and the time limit; for each
# count this script runs tests/mpi/facts (which checks every rank's view of every rank,
# see facts.c) twice:
#   plain    the machine's own facts, default binding, --report-bindings, and the config
#            tests/mpi/configs/facts.scm, whose barrier creator logs (call-ranks call):
#            the Scheme lines must equal the C lines, the binding report must agree with
#            what each rank found, and the ranks of WORLD and of WORLD reversed must come
#            in communicator order;
#   layout   host names and addresses overridden per rank (rte_hostname a,a,b,b,...,
#            rte_addresses one list per rank): each rank must report exactly its entry.
# Then, once: default binding at np 1 (bound) and at np = CPUs + 1 (not bound),
# --bind-to core past the CPUs (bound round-robin), --bind-to numa, --bind-to none, the
# place from mpirun's CPU table against hwloc's in the rank, and a bad rte_addresses (the
# job fails and says why).
. "$(dirname "$0")/lib.sh"

CONFIG="$MT_SRCDIR/configs/facts.scm"
HOSTS="a,a,b,b,c,c,c,c"
ADDRS="10.1.0.1/24;10.1.0.2/24;10.2.0.1/24;10.2.0.2/24;10.3.0.1/24,fd00:3::1/64"
ADDRS="$ADDRS;10.3.0.2/24;10.3.0.3/24;10.3.0.4/24"
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config COMPI_MCA_rte_hostname COMPI_MCA_rte_addresses

mt_skip_unless_compi "rank facts and --bind-to are compi's"
mt_first_line facts
prog=$(mt_prog facts) || exit 99
ncpu=$(getconf _NPROCESSORS_ONLN)
host=$(hostname)
plan=0
# the checks run once (below the per-count ones) go with one part of the script when it
# is split by tier (lib.sh, mt_own_checks)
mt_own_checks && plan=7
for np in $nps; do
    plan=$((plan + 2))
done
echo "1..$plan"
echo "# MPIRUN=$MPIRUN cpus=$ncpu"

# run NAME NP MPIRUN-ARGS... -- PROGRAM-ARGS...: the job, then the common judgement
run() {
    r_name=$1
    r_np=$2
    shift 2
    r_margs=
    while [ "$1" != -- ]; do
        r_margs="$r_margs $1"
        shift
    done
    shift
    mt_why=
    t0=$(mt_now)
    MPIRUN_ARGS=$r_margs mt_launch "$r_np" "$lim" "$prog" "$@"
    mt_end=$(mt_now)
    mt_elapsed=$(mt_secs "$t0" "$mt_end")
    mt_judge ok facts "$r_np" "$lim"
}

out="$MT_TMP/out"

# the binding report and the ranks' own "bound" agree, rank by rank
check_report() {
    for r in $(seq 0 $(($1 - 1))); do
        rep=$(grep "^mpirun: rank $r host $host: " "$out")
        fact=$(grep "^facts: $r " "$out" | awk '{ print $6 }')
        case $rep in
        *"bound to core"*) want=bound ;;
        *"not bound"* | *"bound to numa"*) want=any ;;
        *) mt_why="no --report-bindings line for rank $r"; return 1 ;;
        esac
        if [ "$want" = bound ] && [ "$fact" != bound ]; then
            mt_why="rank $r: mpirun says '$rep' but the rank found itself '$fact'"
            return 1
        fi
    done
}

# the Scheme lines (call-ranks in the barrier creator) equal facts.c's lines
check_scheme() {
    grep -o 'scheme-facts: .*' "$out" | sed 's/^scheme-facts:/facts:/' | sort -u >"$MT_TMP/s"
    grep '^facts: ' "$out" | sort -u >"$MT_TMP/c"
    if ! cmp -s "$MT_TMP/s" "$MT_TMP/c"; then
        mt_why="call-ranks differs from the runtime's facts: $(diff "$MT_TMP/c" "$MT_TMP/s" |
            tr '\n' ' ')"
        return 1
    fi
    fwd=$(seq 0 $(($1 - 1)) | tr '\n' ' ' | sed 's/ $//')
    rev=$(seq $(($1 - 1)) -1 0 | tr '\n' ' ' | sed 's/ $//')
    for want in "$fwd" "$rev"; do
        if ! grep -q "scheme-ranks: $1 $want\$" "$out"; then
            mt_why="no creator saw the ranks in the order '$want'"
            return 1
        fi
    done
}

# rank r reports host entry r and address entry r
check_layout() {
    for r in $(seq 0 $(($1 - 1))); do
        h=$(echo "$HOSTS" | cut -d, -f$((r + 1)))
        a=$(echo "$ADDRS" | cut -d';' -f$((r + 1)))
        if ! grep -q "^facts: $r $h $a " "$out"; then
            mt_why="rank $r: expected host $h and addresses $a"
            return 1
        fi
    done
}

for np in $nps; do
    name="plain np=$np: every rank's facts, --report-bindings, call-ranks in a creator"
    if run plain "$np" --report-bindings --coll-config "$CONFIG" -- any &&
        check_report "$np" && check_scheme "$np"; then
        mt_ok "$name"
    else
        mt_not_ok "$name"
    fi
    name="layout np=$np: hosts $HOSTS and addresses per rank overridden"
    if run layout "$np" --bind-to none --coll-config "$CONFIG" \
        -x "COMPI_MCA_rte_hostname=$HOSTS" --mca rte_addresses "$ADDRS" -- unbound &&
        check_layout "$np" && check_scheme "$np"; then
        mt_ok "$name"
    else
        mt_not_ok "$name"
    fi
done

if ! mt_own_checks; then
    [ "$mt_failed" -eq 0 ]
    exit
fi

name="np=1: bound to core 0 by default"
if run bind1 1 --report-bindings -- bound &&
    grep -q "^mpirun: rank 0 host $host: bound to core 0 " "$out"; then
    mt_ok "$name"
else
    [ -n "$mt_why" ] || mt_why="no report line 'rank 0 ... bound to core 0'"
    mt_not_ok "$name"
fi

over=$((ncpu + 1))
name="np=$over (> $ncpu CPUs): not bound by default"
if run over "$over" --report-bindings -- unbound &&
    [ "$(grep -c "^mpirun: rank [0-9]* host $host: not bound" "$out")" -eq "$over" ]; then
    mt_ok "$name"
else
    [ -n "$mt_why" ] || mt_why="expected $over 'not bound' report lines"
    mt_not_ok "$name"
fi

name="np=$over --bind-to core: bound round-robin even when oversubscribed"
if run core "$over" --bind-to core --report-bindings -- bound &&
    [ "$(grep -c "^mpirun: rank [0-9]* host $host: bound to core" "$out")" -eq "$over" ]; then
    mt_ok "$name"
else
    [ -n "$mt_why" ] || mt_why="expected $over 'bound to core' report lines"
    mt_not_ok "$name"
fi

name="np=2 --bind-to numa: each rank bound to its core's NUMA node"
if run numa 2 --bind-to numa --report-bindings -- any &&
    [ "$(grep -c "^mpirun: rank [0-9]* host $host: bound to numa [0-9]* (cores" "$out")" -eq 2 ]
then
    mt_ok "$name"
else
    [ -n "$mt_why" ] || mt_why="expected 2 'bound to numa' report lines"
    mt_not_ok "$name"
fi

name="np=2: the places from mpirun's CPU table equal hwloc's in the rank"
run table 2 -- bound && grep '^facts: ' "$out" | awk '{ print $1, $2, $5, $6 }' >"$MT_TMP/t1"
run hwloc 2 -x "COMPI_CPU_PLACES=no-such-host|" -- bound &&
    grep '^facts: ' "$out" | awk '{ print $1, $2, $5, $6 }' >"$MT_TMP/t2"
if [ -z "$mt_why" ] && [ -s "$MT_TMP/t1" ] && cmp -s "$MT_TMP/t1" "$MT_TMP/t2"; then
    mt_ok "$name"
else
    [ -n "$mt_why" ] || mt_why="table: $(cat "$MT_TMP/t1" | tr '\n' ' ') hwloc: $(cat "$MT_TMP/t2" |
        tr '\n' ' ')"
    mt_not_ok "$name"
fi

name="np=2 --bind-to none: not bound"
if run none 2 --bind-to none -- unbound; then
    mt_ok "$name"
else
    mt_not_ok "$name"
fi

name="a bad rte_addresses fails the job and says why"
run bad 2 --mca rte_addresses "10.1.0.300/24" -- any
if [ "$mt_rc" -ne 0 ] && grep -q "rte_addresses.*10.1.0.300/24" "$out"; then
    mt_ok "$name"
else
    mt_why="exit $mt_rc; expected a failure naming rte_addresses and the bad entry"
    mt_not_ok "$name"
fi
[ "$mt_failed" -eq 0 ]
