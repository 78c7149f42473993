#!/bin/sh
# TAP: allgather through the hierarchical and MagPIe creators and allreduce through the
# exchange creator, with ranks grouped several ways, compi only.
#
# The 'coll_hier' line of test-list.txt gives the process counts and the time limit; for
# each count this script runs tests/mpi/coll_hier (which checks every result against a
# local reference, see coll_hier.c) once per layout:
#   blocks   hier_ex_blocks.scm   groups by rank block, no overrides
#   hosts    hier_ex_hosts.scm    rte_hostname a,a,b,b,b,c,c,d (consecutive hosts)
#   mixed    hier_ex_mixed.scm    rte_hostname a,b,c,a,b,c,a,b (interleaved hosts)
#   subnets  hier_ex_subnets.scm  rte_addresses 10.1.0.1/24;10.1.0.2/24;10.2.0.1/24;...
#                                 and one host name per rank: by-subnets, then by-host
#   prefix   hier_ex_prefix.scm   the same addresses, by-subnet-prefix 24
#   lanes    hier_lanes.scm       blocks of 2, allreduce by the lanes schedule
# with coll_verbose 1 (and coll_check_determinism 1 for blocks, mixed and prefix).  Each
# config also installs, from hier_ex_checks.scm, checking creators that fail the job when
# a call was not served as expected.  Beyond the program's own "ok" line, the verbose output must show that
# every allgather ran over a tree and every allreduce over the exchange with as many
# groups as the layout has at that count -- except, in the mixed layout, the
# non-commutative ones, which must have gone to the next creator; in the lanes layout,
# every commutative allreduce over the lanes at an even count (blocks of one size) and
# none otherwise.
. "$(dirname "$0")/lib.sh"

HOSTS="a,a,b,b,b,c,c,d"
MIXED="a,b,c,a,b,c,a,b"
ADDRS="10.1.0.1/24;10.1.0.2/24;10.2.0.1/24;10.2.0.2/24;10.3.0.1/24;10.3.0.2/24"
ADDRS="$ADDRS;10.3.0.3/24;10.3.0.4/24"
NAMES="h0,h1,h1,h2,h3,h3,h4,h5"
LAYOUTS="blocks hosts mixed subnets prefix lanes"
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config COMPI_MCA_rte_hostname COMPI_MCA_rte_addresses
unset COMPI_MCA_coll_verbose COMPI_MCA_coll_check_determinism

mt_skip_unless_compi "collective configuration files are compi's"
mt_first_line coll_hier
prog=$(mt_prog coll_hier) || exit 99
plan=0
for np in $nps; do
    for l in $LAYOUTS; do
        plan=$((plan + 1))
    done
done
echo "1..$plan"
echo "# MPIRUN=$MPIRUN flavor=compi"
out="$MT_TMP/out"

# the number of distinct entries among the first $2 of the list $1 (separator $3)
distinct() {
    echo "$1" | tr "$3" '\n' | head -n "$2" | sort -u | wc -l | tr -d ' '
}

# the expected number of exchange groups of layout $1 at np $2
groups_of() {
    case $1 in
    blocks) echo $((($2 + 2) / 3)) ;;
    lanes) echo $((($2 + 1) / 2)) ;;
    hosts) distinct "$HOSTS" "$2" , ;;
    mixed) distinct "$MIXED" "$2" , ;;
    *) distinct "$(echo "$ADDRS" | sed 's/\.[0-9]*\/24//g')" "$2" ';' ;;
    esac
}

# the config of layout $1
config_of() {
    case $1 in
    lanes) echo hier_lanes.scm ;;
    *) echo "hier_ex_$1.scm" ;;
    esac
}

# the lanes layout at np $1 with $2 blocks: every commutative allreduce over the lanes
# when the blocks are of one size, none otherwise
check_lanes() {
    c_lanes="allreduce:schedule(lanes-$2x2)"
    c_comm=$(grep 'coll: allreduce ' "$out" | grep -v 'user(non-commutative)')
    c_nonc=$(grep 'coll: allreduce ' "$out" | grep 'user(non-commutative)')
    if [ -z "$c_comm" ] || [ -z "$c_nonc" ]; then
        mt_why="no commutative or no non-commutative allreduce in the verbose output"
        return 1
    fi
    if echo "$c_nonc" | grep -qF -- '-> allreduce:schedule(lanes'; then
        mt_why="a non-commutative allreduce ran over the lanes"
        return 1
    fi
    if [ $(($1 % 2)) -eq 0 ]; then
        if echo "$c_comm" | grep -vqF -- "-> $c_lanes"; then
            mt_why="not every commutative allreduce ran as $c_lanes"
            return 1
        fi
    elif echo "$c_comm" | grep -qF -- '-> allreduce:schedule(lanes'; then
        mt_why="an allreduce ran over the lanes with blocks of two sizes"
        return 1
    fi
    return 0
}

# the verbose lines say which closure served each kind (rank 0, once per key)
check_served() {
    c_layout=$1
    c_np=$2
    c_groups=$(groups_of "$c_layout" "$c_np")
    c_ag=$(grep -c 'coll: allgather .*-> allgather:tree(' "$out")
    c_ag_all=$(grep -c 'coll: allgather ' "$out")
    if [ "$c_ag" -eq 0 ] || [ "$c_ag" -ne "$c_ag_all" ]; then
        mt_why="$c_ag of $c_ag_all allgather keys were served by a tree"
        return 1
    fi
    if [ "$c_layout" = lanes ]; then
        check_lanes "$c_np" "$c_groups"
        return
    fi
    c_ex="allreduce:exchange($c_np ranks,$c_groups group"
    c_comm=$(grep 'coll: allreduce ' "$out" | grep -v 'user(non-commutative)')
    c_nonc=$(grep 'coll: allreduce ' "$out" | grep 'user(non-commutative)')
    if [ -z "$c_comm" ] || echo "$c_comm" | grep -vqF -- "-> $c_ex"; then
        mt_why="not every commutative allreduce ran as $c_ex...): $(echo "$c_comm" |
            grep -vF -- "-> $c_ex" | head -n 1)"
        return 1
    fi
    if [ -z "$c_nonc" ]; then
        mt_why="no non-commutative allreduce in the verbose output"
        return 1
    fi
    # interleaved hosts from 4 ranks on: group order is not rank order
    if [ "$c_layout" = mixed ] && [ "$c_np" -gt 3 ]; then
        if echo "$c_nonc" | grep -qF -- '-> allreduce:exchange('; then
            mt_why="a non-commutative allreduce ran as an exchange over interleaved groups"
            return 1
        fi
    elif echo "$c_nonc" | grep -vqF -- "-> $c_ex"; then
        mt_why="not every non-commutative allreduce ran as $c_ex...)"
        return 1
    fi
    return 0
}

for np in $nps; do
    for layout in $LAYOUTS; do
        args="--mca coll_verbose 1"
        case $layout in
        blocks) args="$args --mca coll_check_determinism 1" ;;
        hosts) args="$args --mca rte_hostname $HOSTS" ;;
        mixed) args="$args --mca coll_check_determinism 1 --mca rte_hostname $MIXED" ;;
        subnets) args="$args --mca rte_addresses $ADDRS --mca rte_hostname $NAMES" ;;
        prefix) args="$args --mca coll_check_determinism 1 --mca rte_addresses $ADDRS" ;;
        lanes) args="$args --mca coll_check_determinism 1" ;;
        esac
        name="$layout np=$np: allgather over trees, allreduce by the exchange"
        [ "$layout" = lanes ] && name="$layout np=$np: allgather over trees, allreduce by the lanes"
        name="$name ($(groups_of "$layout" "$np") groups)"
        mt_why=
        t0=$(mt_now)
        MPIRUN_ARGS="$args --coll-config $MT_SRCDIR/configs/$(config_of "$layout")" \
            mt_launch "$np" "$lim" "$prog" noncomm
        mt_end=$(mt_now)
        mt_elapsed=$(mt_secs "$t0" "$mt_end")
        if mt_judge ok coll_hier "$np" "$lim" && check_served "$layout" "$np"; then
            mt_ok "$name ($mt_elapsed s)"
        else
            mt_not_ok "$name"
        fi
    done
done
