#!/bin/sh
# TAP: the 'coll_reconfig' lines of tests/mpi/test-list.txt: collectives reconfigured in
# the middle of a run (MPI_T control variables, MPIX_Coll_reconfigure), with a summary.
#
# Every run gets --mca coll_summary FILE, and MT_CONFIGS (tests/mpi/configs) for the
# program to find the configs it switches to.  The args column is read as in
# coll_config.sh (FILE.scm, NAME=VALUE, program arguments), and one more expectation:
#   summary=ERE[~ERE...]  as ok, and the summary file exists, starts with the CSV header,
#                         has rows of every rank 0..np-1, and each ERE (grep -E) matches
#                         one of its lines; with python3 at hand, tools/compi-summary
#                         draws the file as well-formed SVG naming every closure in it
#   error1=ERE[~ERE...]   non-zero exit within the limit, each ERE matches the output and
#                         the first matches exactly one line (one message, from one rank)
. "$(dirname "$0")/lib.sh"

unset COMPI_COLL_CONFIG COMPI_MCA_coll_config GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH
MT_CONFIGS=$MT_SRCDIR/configs
export MT_CONFIGS
MT_SUMMARY=$MT_TMP/summary.csv
MPIRUN_ARGS="$MPIRUN_ARGS --mca coll_summary $MT_SUMMARY"

mt_judge_extra() {
    case $1 in
    summary=*)
        mt_judge ok "$2" "$3" "$4" || return 1
        if [ ! -s "$MT_SUMMARY" ]; then
            mt_why="no summary file $MT_SUMMARY"
            return 1
        fi
        x_head=rank,comm,kind,size_class,closure,signature,calls,bytes,seconds
        if [ "$(head -n 1 "$MT_SUMMARY")" != "$x_head" ]; then
            mt_why="the summary does not start with '$x_head'"
            return 1
        fi
        x_r=0
        while [ "$x_r" -lt "$3" ]; do
            if ! grep -q "^$x_r," "$MT_SUMMARY"; then
                mt_why="the summary has no row of rank $x_r"
                return 1
            fi
            x_r=$((x_r + 1))
        done
        if ! mt_grep_all "${1#summary=}" "$MT_SUMMARY" summary; then
            sed 's/^/summary: /' "$MT_SUMMARY" >>"$MT_TMP/out"
            return 1
        fi
        if command -v python3 >/dev/null 2>&1; then
            if ! python3 "$top_srcdir/tools/compi-summary" -o "$MT_TMP/summary.svg" \
                "$MT_SUMMARY" >>"$MT_TMP/out" 2>&1; then
                mt_why="compi-summary failed on the summary"
                return 1
            fi
            if ! python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \
                "$MT_TMP/summary.svg" >>"$MT_TMP/out" 2>&1; then
                mt_why="compi-summary wrote SVG that is not well-formed XML"
                return 1
            fi
            for x_c in $(cut -d, -f5 "$MT_SUMMARY" | sed 1d | tr -d '"' | sort -u); do
                if ! grep -qF -- ">$x_c<" "$MT_TMP/summary.svg"; then
                    mt_why="the drawing does not name the closure $x_c"
                    return 1
                fi
            done
            rm -f "$MT_TMP/summary.svg"
        fi
        rm -f "$MT_SUMMARY"
        ;;
    error1=*)
        if [ "$mt_rc" -eq 0 ]; then
            mt_why="exit status 0: the error did not end the job"
            return 1
        fi
        if ! mt_le "$mt_elapsed" "$4"; then
            mt_why="the job took $mt_elapsed s to fail (limit $4 s)"
            return 1
        fi
        x_pats=${1#error1=}
        mt_grep_all "$x_pats" || return 1
        x_first=${x_pats%%~*}
        x_n=$(grep -cE -- "$x_first" "$MT_TMP/out")
        if [ "$x_n" -ne 1 ]; then
            mt_why="$x_n lines of the output match '$x_first', expected one"
            return 1
        fi
        rm -f "$MT_SUMMARY"
        ;;
    *)
        mt_why="test-list.txt: unknown expectation '$1'"
        return 1
        ;;
    esac
    return 0
}

mt_skip_unless_compi "reconfiguring the collectives is compi's"

mt_run_config_suite coll_reconfig
