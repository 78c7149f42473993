#!/bin/sh
# compi_tree_job.sh -- compi-tree draws what a job runs: a job started with
# mpirun --layout L (parameter rte_layout) under a config, with --mca coll_verbose 1,
# prints for each new call of MPI_COMM_WORLD the closure and its signature; compi-tree
# with the same --layout, config and call must print the same signature, for every such
# line (tests/mpi/coll_topo: every tree kind at several roots and sizes).  Then the
# errors of rte_layout: counts that do not add up to the job's size, and rte_layout
# beside rte_hostname.  TAP output; every run is under a time limit.
. "$(dirname "$0")/../scheme/lib.sh"
TOOL="$top_builddir/bin/compi-tree"
MPIRUN="$top_builddir/bin/mpirun"
PROG="$top_builddir/tests/mpi/coll_topo"
sandbox compi-tree-job
unset COMPI_MCA_rte_hostname COMPI_MCA_rte_addresses COMPI_MCA_rte_layout COMPI_MCA_coll_verbose
cd "$top_srcdir" || exit 1

echo "1..7"

# job NAME CONFIG LAYOUT: the job's coll_verbose lines of WORLD in $TMP/NAME.lines
job() {
    timeout -k 5 150 "$MPIRUN" --timeout 120 --layout "$3" --coll-config "$2" --mca coll_verbose 1 \
        "$PROG" >"$TMP/$1.out" 2>&1 </dev/null
    jrc=$?
    grep 'coll: .* on MPI_COMM_WORLD (' "$TMP/$1.out" |
        sed 's/^.*coll: //' >"$TMP/$1.lines"
}

# compare NAME CONFIG LAYOUT: compi-tree's signature for each line of the job's
compare() {
    c_config=$2 c_layout=$3 bad=0 count=0
    while IFS= read -r line; do
        call=${line%% on MPI_COMM_WORLD*}
        # compi-tree names predefined datatypes only
        case $call in *"(derived datatype)"*) continue ;; esac
        sig=$(echo "$line" | sed -n 's/.*, signature \([0-9a-f]\{16\}\).*/\1/p')
        # "bcast root=3 bytes=8" or "allreduce bytes=8 MPI_INT MPI_SUM"
        set -- $call
        kind=$1
        shift
        args="--op $kind"
        for w in "$@"; do
            case $w in
            root=*) args="$args --root ${w#root=}" ;;
            bytes=*) args="$args --bytes ${w#bytes=}" ;;
            user) args="$args --reduce-op user" ;;
            "user(non-commutative)") args="$args --non-commutative" ;;
            MPI_[A-Z]*_*|MPI_INT|MPI_DOUBLE|MPI_FLOAT|MPI_CHAR|MPI_BYTE|MPI_LONG)
                case $w in
                MPI_SUM|MPI_MAX|MPI_MIN|MPI_PROD|MPI_BAND|MPI_BOR|MPI_BXOR|MPI_LAND|MPI_LOR|MPI_LXOR|MPI_MAXLOC|MPI_MINLOC|MPI_REPLACE|MPI_NO_OP)
                    args="$args --reduce-op $w" ;;
                *) args="$args --datatype $w" ;;
                esac
                ;;
            esac
        done
        count=$((count + 1))
        # shellcheck disable=SC2086 # one word per option
        got=$(timeout -k 5 30 "$TOOL" --config "$c_config" --layout "$c_layout" $args 2>&1 |
            sed -n 's/^signature: \([0-9a-f]\{16\}\) .*/\1/p')
        if [ -z "$sig" ] || [ "$got" != "$sig" ]; then
            bad=$((bad + 1))
            [ "$bad" -le 3 ] && echo "# job: $line" && echo "# compi-tree $args: ${got:-no signature}"
        fi
    done <"$TMP/$1.lines"
}

check_job() {
    name=$1 config=$2 layout=$3
    job "$name" "$config" "$layout"
    compare "$name" "$config" "$layout"
    if [ "$jrc" -eq 0 ] && [ "$count" -ge 10 ] && [ "$bad" -eq 0 ]; then
        ok "$name: the $count signatures of the job's coll_verbose lines are compi-tree's"
    else
        not_ok "$name: signatures (job exit $jrc, $count lines, $bad differ)"
        tail -5 "$TMP/$name.out" | sed 's/^/# /'
    fi
}

check_job hierarchical examples/configs/hierarchical.scm a:2@10.1.0.0/24,b:1@10.2.0.0/24,c:2@10.3.0.0/24
check_job magpie examples/configs/magpie.scm a:1@10.1.0.0/24,b:2@10.2.0.0/24,a:1@10.1.0.0/24
check_job by-host tests/tools/configs/by_host.scm x:2,y:2

# coll_verbose 2: each rank's parent and children, which compi-tree draws
timeout -k 5 150 "$MPIRUN" --timeout 120 --layout a:2@10.1.0.0/24,b:2@10.2.0.0/24 \
    --coll-config examples/configs/hierarchical.scm --mca coll_verbose 2 "$PROG" \
    >"$TMP/v2.out" 2>&1 </dev/null
v2rc=$?
grep -A4 'coll: bcast root=3 bytes=8 on MPI_COMM_WORLD' "$TMP/v2.out" | sed 's/^.*coll:   //' |
    tail -4 >"$TMP/v2.edges"
printf '%s\n' "rank 0: parent 3, children 1" "rank 1: parent 0, children none" \
    "rank 2: parent 3, children none" "rank 3: parent -1, children 0 2" >"$TMP/v2.want"
timeout -k 5 30 "$TOOL" --config examples/configs/hierarchical.scm --op bcast --root 3 \
    --layout a:2@10.1.0.0/24,b:2@10.2.0.0/24 >"$TMP/v2.tree" 2>&1
if [ "$v2rc" -eq 0 ] && cmp -s "$TMP/v2.edges" "$TMP/v2.want" &&
    grep -qx '3 (b 10.2.0.2)' "$TMP/v2.tree" && grep -qx '  0 (a 10.1.0.1)  \[WAN\]' "$TMP/v2.tree" &&
    grep -qx '    1 (a 10.1.0.2)' "$TMP/v2.tree" && grep -qx '  2 (b 10.2.0.1)' "$TMP/v2.tree"; then
    ok "coll_verbose 2: each rank's parent and children, the tree compi-tree draws"
else
    not_ok "coll_verbose 2 edges"
    sed 's/^/# /' "$TMP/v2.edges" "$TMP/v2.tree" | head -20
fi

# what each rank of a job under --layout reports: the layout's host and address (no
# address for an entry without a subnet), seen from Scheme (tests/mpi/configs/facts.scm
# logs (call-ranks call) at a barrier)
# a /30 holds two addresses: b's entry does not fit, so first the layout must be refused
timeout -k 5 60 "$MPIRUN" --layout 'a:2@10.1.0.0/30,b:1@10.1.0.0/30' true >"$TMP/fit.out" 2>&1
fit=$?
timeout -k 5 150 "$MPIRUN" --timeout 120 --layout 'a:2@10.1.0.0/31,b:1@10.2.0.0/32,c:1' \
    --coll-config tests/mpi/configs/facts.scm "$PROG" >"$TMP/facts.out" 2>&1 </dev/null
frc=$?
sed -n 's/^.*scheme-facts: \([0-9]*\) \([^ ]*\) \([^ ]*\) .*/\1 \2 \3/p' "$TMP/facts.out" |
    sort -u >"$TMP/facts.got"
printf '%s\n' "0 a 10.1.0.0/31" "1 a 10.1.0.1/31" "2 b 10.2.0.0/32" "3 c -" >"$TMP/facts.want"
if [ "$fit" -ne 0 ] &&
    grep -q "bad layout entry 'b:1@10.1.0.0/30': 1 ranks do not fit in 10.1.0.0/30 (2 addresses, 2 taken by earlier entries)" "$TMP/fit.out" &&
    [ "$frc" -eq 0 ] && cmp -s "$TMP/facts.got" "$TMP/facts.want"; then
    ok "mpirun --layout: each rank reports its entry's host and address, as compi-tree numbers them"
else
    not_ok "mpirun --layout: the ranks' facts (exit $frc)"
    sed 's/^/# /' "$TMP/fit.out" "$TMP/facts.got" | head -10
fi

# rte_layout's errors, at start-up
timeout -k 5 60 env COMPI_MCA_rte_layout=a:2,b:1 "$MPIRUN" --timeout 30 -np 2 "$PROG" \
    >"$TMP/size.out" 2>&1 </dev/null
if [ $? -ne 0 ] && grep -q "rte_layout='a:2,b:1' holds 3 ranks, but the job has 2" "$TMP/size.out"; then
    ok "rte_layout whose counts are not the job's size: an error naming both numbers"
else
    not_ok "rte_layout of the wrong size"
    tail -5 "$TMP/size.out" | sed 's/^/# /'
fi
timeout -k 5 60 "$MPIRUN" --timeout 30 --layout a:2 --mca rte_hostname x "$PROG" \
    >"$TMP/both.out" 2>&1 </dev/null
rc1=$?
timeout -k 5 60 "$MPIRUN" --timeout 30 --layout a:2,b:2 -np 3 "$PROG" >"$TMP/np.out" 2>&1 </dev/null
rc2=$?
if [ $rc1 -ne 0 ] && grep -q 'rte_layout is set, and so is rte_hostname' "$TMP/both.out" &&
    [ $rc2 -ne 0 ] && grep -q "mpirun: --layout 'a:2,b:2' holds 4 ranks, but -np asks for 3" "$TMP/np.out"; then
    ok "rte_layout with rte_hostname, and mpirun --layout against -np: clear errors"
else
    not_ok "rte_layout conflicts"
    tail -3 "$TMP/both.out" "$TMP/np.out" | sed 's/^/# /'
fi

[ "$failed" -eq 0 ]
