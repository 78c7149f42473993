#!/bin/sh
# TAP: run-time parameters that name nothing, compi only.
#   1. the list of every parameter name in core/runtime/params.c holds every name the
#      sources register (param_register_* and the BTL services' param_int/param_string, btl_param_int),
#      so that a parameter registered only in some runs is never called unknown;
#   2. a misspelled --mca NAME gives one warning, on rank 0, naming the parameter closest
#      to it, and the job still runs;
#   3. the same for a COMPI_MCA_NAME variable of the environment, and a name close to
#      nothing gets a warning without a suggestion;
#   4. known names give no warning.
. "$(dirname "$0")/lib.sh"
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config COMPI_MCA_coll_verbose

# --- 1. the list against the sources (no build needed) ----------------------------------
list=$(sed -n '/param_all_names\[\] = {/,/^};/p' "$top_srcdir/core/runtime/params.c" |
    grep -oE '"[a-z_0-9]+"' | tr -d '"' | sort)
missing=
for f in $(cd "$top_srcdir" && grep -rlE 'param_(register_[a-z_]+|int|string)\(' \
    --include='*.c' core scheme topologies trampolines tools); do
    for name in $(tr '\n' ' ' <"$top_srcdir/$f" |
        grep -oE '(param_register_(int_range|int|string)|svc->param_(int|string)|btl_param_int)\( *(svc, *)?"[a-z_0-9]+"' |
        sed -E 's/.*"(.*)"/\1/'); do
        echo "$list" | grep -qx "$name" || missing="$missing $name ($f)"
    done
done
if [ -n "$list" ] && [ -z "$missing" ]; then
    mt_ok "core/runtime/params.c lists every parameter the sources register"
else
    mt_why="not in param_all_names:${missing:- (the list was not found)}"
    mt_not_ok "core/runtime/params.c lists every parameter the sources register"
fi
mt_why=

mt_skip_unless_compi_counted() {
    if [ "$(mt_flavor)" != compi ]; then
        echo "1..$mt_n # SKIP the rest: compi's parameters (MPIRUN=$MPIRUN)"
        exit 0
    fi
}
mt_skip_unless_compi_counted
mt_stamp
prog=$(mt_prog init_basics) || exit 99
out="$MT_TMP/out"

# prun ENV... -- MPIRUN-ARGS...: the program at np 2 under a 60 s limit
prun() {
    p_env=
    while [ "$1" != -- ]; do
        p_env="$p_env $1"
        shift
    done
    shift
    mt_cmd="env$p_env $MPIRUN --timeout 60 -np 2 $* $prog"
    # shellcheck disable=SC2086 # one word per assignment
    timeout -k 5 70 env $p_env "$MPIRUN" --timeout 60 -np 2 "$@" "$prog" >"$out" 2>&1 </dev/null
    mt_rc=$?
    mt_elapsed=
}

# ran: exit 0 and the program's ok line
ran() {
    [ "$mt_rc" -eq 0 ] && grep -qx "ok: init_basics np=2" "$out" ||
        { mt_why="the job did not run to its end" && return 1; }
}
# once ERE: exactly one line of the output matches ERE
once() {
    o_n=$(grep -cE -- "$1" "$out")
    [ "$o_n" -eq 1 ] || { mt_why="$o_n lines match '$1', expected one" && return 1; }
}
check() {
    c_name=$1
    shift
    mt_why=
    if "$@"; then mt_ok "$c_name"; else mt_not_ok "$c_name"; fi
}

prun -- --mca coll_verbos 1
typo_mca() {
    ran || return 1
    once 'unknown parameter' || return 1
    once '^compi: rank 0 \([^)]*\): warning: unknown parameter coll_verbos \(COMPI_MCA_coll_verbos\); did you mean coll_verbose\?$'
}
check "a misspelled --mca: one warning, from rank 0, naming the closest parameter; the job runs" typo_mca

prun COMPI_MCA_btl_sm_eagr_limit=8192 COMPI_MCA_frobnicate=1 --
typo_env() {
    ran || return 1
    once 'unknown parameter btl_sm_eagr_limit \(COMPI_MCA_btl_sm_eagr_limit\); did you mean btl_sm_eager_limit\?' || return 1
    once 'unknown parameter frobnicate \(COMPI_MCA_frobnicate\); compi_info lists the parameters$'
}
check "a misspelled COMPI_MCA_ variable and a name close to nothing: one warning each" typo_env

prun COMPI_MCA_btl_ofi_tx_bufs=4 COMPI_MCA_coll_profile_all=0 -- --mca coll_verbose 0
known() {
    ran || return 1
    if grep -q 'unknown parameter' "$out"; then
        mt_why="a known name was called unknown: $(grep 'unknown parameter' "$out" | head -n 1)"
        return 1
    fi
}
check "known names, registered in this run or not (btl ofi not opened), give no warning" known

echo "1..$mt_n"
[ "$mt_failed" -eq 0 ]
