#!/bin/sh
# TAP: collectives through the hierarchical and MagPIe creators of (compi hierarchy) under
# layouts of "clusters" and "hosts" given per rank with the rank-facts overrides
# (rte_hostname, rte_addresses), compi only.
#
# Each run is tests/mpi/coll_topo (every tree kind and allgather on WORLD, WORLD reversed
# and the halves of WORLD, checked against local references) under one config of
# tests/mpi/configs/topo_*.scm, with --mca coll_verbose 1, and passes when
#   - the program prints "ok: coll_topo np=N" and exits 0 within the limit;
#   - rank 0's coll_verbose lines show, for every kind of (compi hierarchy)'s tree-kinds,
#     a call served by the config's creator (hierarchical or magpie) with a tree closure
#     ("coll: KIND ... creator hierarchical (...) ... -> KIND:tree(").
# Rank r of a layout is in cluster C, on host H: host name cC-hH, addresses
# 10.C.H.(r+1)/24 and fd00:C:H::(r+1)/64, so the configs group the same ranks by host
# name, by IPv4 subnet or prefix, or by IPv6 subnet or prefix.  Layouts (for np ranks):
#   two-uneven    the first ceil(np/3) ranks in cluster 1, the others in cluster 2
#   three-single  the last rank alone in cluster 3; the others alternate clusters 1 and 2
#   interleaved   clusters 1,2,1,2,...; hosts change every two ranks
#   three-blocks  clusters 1,2,3 in consecutive blocks, hosts alternating inside
# Every np of the 'topo_layouts' line of test-list.txt runs under one hierarchical and
# one MagPIe config at least; each run takes the next layout in turn.  TOPO_PLAN replaces
# the plan below (e.g. TOPO_PLAN=topo_nested.scm:4,8 to try one config by hand).
# Then one run gives its layout with mpirun --layout (parameter rte_layout, compi-tree's
# syntax) instead, and two broken descriptions must stop the job within the limit with
# the creator's message naming the description and a rank: a rank in two subnets, a host
# that no pattern matches.
. "$(dirname "$0")/lib.sh"

# config and the process counts it runs at (filtered by the test-list line's counts)
PLAN=${TOPO_PLAN:-"topo_host.scm:2,5,8
topo_subnets.scm:3,6,7
topo_nested.scm:2,4,7
topo_ipv6.scm:3,5,8
topo_prefix_magpie.scm:2,4,6,8
topo_nested_magpie.scm:3,5,7"}
LAYOUTS="two-uneven three-single interleaved three-blocks"
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config COMPI_MCA_rte_hostname COMPI_MCA_rte_addresses
unset COMPI_MCA_coll_verbose GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH

mt_skip_unless_compi "topology configs and rank-fact overrides are compi's"
mt_first_line topo_layouts
nps=" $nps "
all_nps=" $all_nps "
prog=$(mt_prog coll_topo) || exit 99

# the kinds the creators serve with trees, as (compi hierarchy) says
kinds=$(cd "$top_srcdir" && GUILE_AUTO_COMPILE=0 timeout 60 guile --no-auto-compile \
    -L scheme -L creators -L topologies \
    -c '(use-modules (compi hierarchy)) (for-each (lambda (k) (display k) (newline)) tree-kinds)' \
    2>/dev/null | tr '\n' ' ')
[ -n "$kinds" ] || kinds="barrier bcast reduce allreduce gather scatter"

# layout NAME NP: "C H" for each rank, one line each
layout() {
    awk -v name="$1" -v np="$2" 'BEGIN {
        for (r = 0; r < np; r++) {
            if (name == "two-uneven") {
                c = r < int((np + 2) / 3) ? 1 : 2; h = 1 + int(r / 2) % 2
            } else if (name == "three-single") {
                if (r == np - 1) { c = 3; h = 1 } else { c = 1 + r % 2; h = 1 + int(r / 4) }
            } else if (name == "interleaved") {
                c = 1 + r % 2; h = 1 + int(r / 2) % 2
            } else {
                c = 1 + int(3 * r / np); h = 1 + r % 2
            }
            print c, h
        }
    }'
}

# the rte_hostname and rte_addresses values of a layout
hosts_of() {
    layout "$1" "$2" | awk '{ printf "%sc%d-h%d", (NR > 1 ? "," : ""), $1, $2 }'
}
addrs_of() {
    layout "$1" "$2" | awk '{ printf "%s10.%d.%d.%d/24,fd00:%d:%d::%d/64", (NR > 1 ? ";" : ""),
                              $1, $2, NR, $1, $2, NR }'
}

in_nps() {
    case $nps in
    *" $1 "*) return 0 ;;
    esac
    return 1
}
# (the line's counts of every tier: a run's layout is the same whichever tiers run)
in_all_nps() {
    case $all_nps in
    *" $1 "*) return 0 ;;
    esac
    return 1
}

plan=0
for entry in $PLAN; do
    for np in $(echo "${entry#*:}" | tr , ' '); do
        in_nps "$np" && plan=$((plan + 1))
    done
done
own=0
mt_own_checks && own=3
echo "1..$((plan + own))"
echo "# MPIRUN=$MPIRUN tree kinds: $kinds"

out="$MT_TMP/out"

# run CONFIG NP LAYOUT [MPIRUN-ARGS...]: the job, timed; sets mt_rc, mt_elapsed
run() {
    r_cfg=$1
    r_np=$2
    r_lay=$3
    shift 3
    mt_why=
    t0=$(mt_now)
    # no spaces in the values: MPIRUN_ARGS is split on them
    MPIRUN_ARGS="$MPIRUN_ARGS_BASE --coll-config $MT_SRCDIR/configs/$r_cfg \
        --mca rte_hostname $(hosts_of "$r_lay" "$r_np") \
        --mca rte_addresses $(addrs_of "$r_lay" "$r_np") $*" mt_launch "$r_np" "$lim" "$prog"
    mt_end=$(mt_now)
    mt_elapsed=$(mt_secs "$t0" "$mt_end")
}
MPIRUN_ARGS_BASE=$MPIRUN_ARGS

# every tree kind was served by CREATOR with a tree closure
check_trees() {
    missing=
    for t_kind in $kinds; do
        grep -qE "coll: $t_kind .*creator $1 \(.* -> $t_kind:tree\(" "$out" ||
            missing="$missing $t_kind"
    done
    if [ -n "$missing" ]; then
        mt_why="no call served by a tree of the $1 creator for:$missing (coll_verbose lines)"
        return 1
    fi
}

nrun=0
for entry in $PLAN; do
    cfg=${entry%%:*}
    case $cfg in
    *magpie*) creator=magpie ;;
    *) creator=hierarchical ;;
    esac
    for np in $(echo "${entry#*:}" | tr , ' '); do
        in_all_nps "$np" || continue
        set -- $LAYOUTS
        shift $((nrun % $#))
        lay=$1
        nrun=$((nrun + 1))
        in_nps "$np" || continue
        name="$cfg np=$np layout $lay (hosts $(hosts_of "$lay" "$np"))"
        run "$cfg" "$np" "$lay" --mca coll_verbose 1
        if mt_judge ok coll_topo "$np" "$lim" && check_trees "$creator"; then
            mt_ok "$name ($mt_elapsed s)"
        else
            mt_not_ok "$name"
        fi
    done
done

# the checks below run in one part of the script when it is split by tier (lib.sh)
if ! mt_own_checks; then
    [ "$mt_failed" -eq 0 ]
    exit
fi

# the same kind of run with the layout in compi-tree's syntax (mpirun --layout): hosts
# c1-h1 .. c3-h1, each its own /24 inside its cluster's 10.C.0.0/16
LAYOUT=c1-h1:2@10.1.1.0/24,c1-h2:1@10.1.2.0/24,c2-h1:2@10.2.1.0/24,c3-h1:1@10.3.1.0/24
MPIRUN_ARGS="$MPIRUN_ARGS_BASE --coll-config $MT_SRCDIR/configs/topo_subnets.scm \
    --layout $LAYOUT --mca coll_verbose 1" mt_launch 6 "$lim" "$prog"
mt_why=
if mt_judge ok coll_topo 6 "$lim" && check_trees hierarchical &&
    grep -q 'coll: bcast root=0 .* -> bcast:tree(6 ranks,' "$out"; then
    mt_ok "topo_subnets.scm np=6 with mpirun --layout $LAYOUT"
else
    mt_not_ok "topo_subnets.scm np=6 with mpirun --layout $LAYOUT"
fi

# broken NAME CONFIG NP LAYOUT ERE...: the job fails within the limit, each ERE matches
broken() {
    b_name=$1
    b_cfg=$2
    b_np=$3
    b_lay=$4
    shift 4
    run "$b_cfg" "$b_np" "$b_lay"
    mt_why=
    if mt_le "$mt_outer" "$mt_elapsed"; then
        mt_why="TIMEOUT: killed after $mt_elapsed s: a broken topology became a hang"
    elif [ "$mt_rc" -eq 0 ]; then
        mt_why="exit status 0: the broken topology was not reported"
    elif ! mt_le "$mt_elapsed" "$lim"; then
        mt_why="the job took $mt_elapsed s to fail (limit $lim s)"
    else
        for p in "$@"; do
            grep -qE -- "$p" "$out" || { mt_why="no line of the output matches '$p'"; break; }
        done
    fi
    if [ -z "$mt_why" ]; then
        mt_ok "$b_name ($mt_elapsed s)"
    else
        mt_not_ok "$b_name"
    fi
}

broken "topo_overlap.scm np=4 layout three-single: a rank in two subnets stops the job" \
    topo_overlap.scm 4 three-single \
    'creator hierarchical \(.*topo_overlap\.scm.*\) failed' \
    'topology \(by-subnets "10\.0\.0\.0/8" "10\.2\.0\.0/16"\): rank [0-9]+ \(host c2-h1, addresses 10\.2\.1\.[0-9]+/24.* is in two groups: 10\.0\.0\.0/8 and 10\.2\.0\.0/16'
broken "topo_missing.scm np=5 layout three-blocks: a host in no pattern stops the job" \
    topo_missing.scm 5 three-blocks \
    'creator magpie \(.*topo_missing\.scm.*\) failed' \
    'topology \(by-host-patterns "c1-\*" "c2-\*"\): rank [0-9]+ \(host c3-h[12], .* is in no group'
[ "$mt_failed" -eq 0 ]
