#!/bin/sh
# TAP: every example config (examples/configs/*.scm) runs examples/collectives, compi only.
# Each is given by name (--coll-config hierarchical), as users name the installed ones.
#
# The 'examples' line of test-list.txt gives the process counts and the time limit.  Each
# config runs with --mca coll_verbose 1 and the layout its header suggests for trying
# clusters on one machine (hosts a,a,b,c; subnets 10.1, 10.1, 10.2, 10.3; ranks past the
# fourth on host c), and passes when
#   - the program exits 0 and says its results are correct;
#   - a closure was built by a creator the config installed ("installed at
#     .../examples/configs/FILE:LINE");
#   - a config whose code (not comments) builds trees (install-hierarchical!,
#     install-magpie!, tree-closure)
#     served bcast with a tree; one that profiles printed the profile of bcast at
#     MPI_Finalize; one that does both, with the tree inside the profiling wrapper.
# A new example config is picked up with no change here.
. "$(dirname "$0")/lib.sh"

HOSTS="a,a,b,c"
ADDRS="10.1.0.1/24;10.1.0.2/24;10.2.0.1/24;10.3.0.1/24"
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config COMPI_MCA_rte_hostname COMPI_MCA_rte_addresses
unset COMPI_MCA_coll_verbose GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH

mt_skip_unless_compi "example configs are compi's"
mt_first_line examples
prog="$top_builddir/examples/collectives"
dir="$top_srcdir/examples/configs"
configs=$(cd "$dir" && ls ./*.scm | sed 's|^\./||')
plan=0
for f in $configs; do
    for np in $nps; do
        plan=$((plan + 1))
    done
done
echo "1..$plan"
echo "# MPIRUN=$MPIRUN configs: $(echo $configs)"
out="$MT_TMP/out"

# judge the run of config $1 at np $2; sets mt_why
judge() {
    if mt_le "$mt_outer" "$mt_elapsed"; then
        mt_why="TIMEOUT: killed after $mt_elapsed s (limit $lim s + grace): a hang"
        return 1
    fi
    if [ "$mt_rc" -ne 0 ]; then
        mt_why="exit status $mt_rc, expected 0"
        return 1
    fi
    if ! grep -q "^collectives: .* correct on $2 ranks" "$out"; then
        mt_why="no line 'collectives: ... correct on $2 ranks'"
        return 1
    fi
    if ! grep -qF "installed at $dir/$1:" "$out"; then
        mt_why="no closure was built by a creator of $1 (coll_verbose lines)"
        return 1
    fi
    trees=0
    profiles=0
    # what the config does, from its code (comments left out)
    grep -v '^[[:space:]]*;' "$dir/$1" >"$MT_TMP/code"
    grep -qE 'install-hierarchical!|install-magpie!|tree-closure' "$MT_TMP/code" && trees=1
    grep -qE 'profiling' "$MT_TMP/code" && profiles=1
    if [ $trees = 1 ] && [ $profiles = 0 ] && ! grep -qE 'coll: bcast .* -> bcast:tree\(' "$out"; then
        mt_why="bcast was not served by a tree"
        return 1
    fi
    if [ $profiles = 1 ] && ! grep -qE 'profile: bcast ' "$out"; then
        mt_why="no profile of bcast at MPI_Finalize"
        return 1
    fi
    if [ $trees = 1 ] && [ $profiles = 1 ] &&
        ! grep -qE 'coll: bcast .* -> profile\(bcast:tree\(' "$out"; then
        mt_why="bcast was not served by a tree inside the profiling wrapper"
        return 1
    fi
    return 0
}

for f in $configs; do
    for np in $nps; do
        name="examples/configs/$f np=$np: examples/collectives right, the config's creators used"
        mt_why=
        t0=$(mt_now)
        # no spaces in the values: MPIRUN_ARGS is split on them
        # by name, as the configs that come with compi are found (scheme/bridge_path.c):
        # from the build tree, in examples/configs of the source tree
        MPIRUN_ARGS="$MPIRUN_ARGS --coll-config ${f%.scm} --mca coll_verbose 1 \
            --mca rte_hostname $HOSTS --mca rte_addresses $ADDRS" mt_launch "$np" "$lim" "$prog"
        mt_end=$(mt_now)
        mt_elapsed=$(mt_secs "$t0" "$mt_end")
        if [ ! -x "$prog" ]; then
            mt_why="program $prog is missing (not built?)"
            mt_not_ok "$name"
        elif judge "$f" "$np"; then
            mt_ok "$name ($mt_elapsed s)"
        else
            mt_not_ok "$name"
        fi
    done
done
[ "$mt_failed" -eq 0 ]
