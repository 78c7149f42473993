#!/bin/sh
# TAP: the 'coll_config' lines of tests/mpi/test-list.txt: MPI programs run with collective
# configuration files (tests/mpi/configs/*.scm), compi only.
#
# In these lines the args column also carries the launcher's settings, comma separated:
#   FILE.scm      mpirun --coll-config tests/mpi/configs/FILE.scm
#   NAME=VALUE    mpirun --mca NAME VALUE
#   anything else an argument of the program
# and two more expectations are understood (judged here, see mt_judge_extra):
#   error=ERE[~ERE...]   non-zero exit within the limit, and each ERE (grep -E) matches the
#                        output; a config error must never become a hang
#   traced=P[~P...]      as ok, and for every collective kind K and every prefix P the
#                        output has the line "P K" (a wrapper saw every kind)
#   gtraced=P[~P...]     the same for every kind that needs no process topology (all
#                        but the neighbourhood kinds)
#   says=ERE[~ERE...]    as ok, and each ERE (grep -E) matches the output (with
#                        coll_verbose=1: the closure that served a kind)
#   error1=ERE[~ERE...]  as error=, and the first ERE matches exactly one line: one
#                        message, from one rank
#   quiet=ERE            as ok, and no line of the output matches ERE (errors the program
#                        handles itself are not printed)
# A config outside configs/ is named by its path from there (../../../examples/configs/X.scm).
. "$(dirname "$0")/lib.sh"

# the kinds that need no process topology, then all of them
MT_GKINDS="barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv
alltoall alltoallv alltoallw reduce-scatter reduce-scatter-block scan exscan"
MT_KINDS="$MT_GKINDS neighbor-allgather neighbor-allgatherv neighbor-alltoall
neighbor-alltoallv neighbor-alltoallw"
# configs must not depend on the user's own
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH

mt_judge_extra() {
    x_out="$MT_TMP/out"
    case $1 in
    error=* | error1=*)
        if [ "$mt_rc" -eq 0 ]; then
            mt_why="exit status 0: the configuration error was not reported as a failure"
            return 1
        fi
        if ! mt_le "$mt_elapsed" "$4"; then
            mt_why="the job took $mt_elapsed s to fail (limit $4 s): a hang, or nearly"
            return 1
        fi
        x_pats=${1#error=}
        x_one=
        case $1 in error1=*) x_pats=${1#error1=} x_one=1 ;; esac
        mt_grep_all "$x_pats" "$x_out" || return 1
        if [ -n "$x_one" ]; then
            x_first=${x_pats%%~*}
            x_n=$(grep -cE -- "$x_first" "$x_out")
            if [ "$x_n" -ne 1 ]; then
                mt_why="$x_n lines of the output match '$x_first', expected one"
                return 1
            fi
        fi
        ;;
    quiet=*)
        mt_judge ok "$2" "$3" "$4" || return 1
        if grep -qE -- "${1#quiet=}" "$x_out"; then
            mt_why="the output has '$(grep -E -- "${1#quiet=}" "$x_out" | head -n 1)'"
            return 1
        fi
        ;;
    says=*)
        mt_judge ok "$2" "$3" "$4" || return 1
        mt_grep_all "${1#says=}" "$x_out" || return 1
        ;;
    traced=* | gtraced=*)
        x_kinds=$MT_KINDS
        case $1 in gtraced=*) x_kinds=$MT_GKINDS ;; esac
        x_pats=${1#*traced=}
        mt_judge ok "$2" "$3" "$4" || return 1
        x_ifs=$IFS
        IFS='~'
        set -f
        set -- $x_pats
        set +f
        IFS=$x_ifs
        x_missing=
        for x_p in "$@"; do
            for x_k in $x_kinds; do
                grep -qx -- "$x_p $x_k" "$x_out" || x_missing="$x_missing $x_p:$x_k"
            done
        done
        if [ -n "$x_missing" ]; then
            mt_why="kinds not seen by the wrappers:$x_missing"
            return 1
        fi
        ;;
    *)
        mt_why="test-list.txt: unknown expectation '$1'"
        return 1
        ;;
    esac
    return 0
}

mt_skip_unless_compi "collective configuration files are compi's"

mt_run_config_suite coll_config
