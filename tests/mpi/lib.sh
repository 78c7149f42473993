# lib.sh -- runner for the MPI tests: sourced by the TAP scripts (p2p.sh, crash.sh, ...),
# and by gen-tests.sh for the tiers of the list.
#
# Reads test-list.txt, runs each line's program at each np through mpirun under a time
# limit, and prints TAP: one line per (program, args, np), with the program's output as
# '#' diagnostics when it fails.  After every run it also checks that the run left no
# shared-memory or temporary files of ours behind (names starting with "compi").
#
# Environment (all optional):
#   MPIRUN        launcher; default $top_builddir/bin/mpirun (compi, built by make)
#   MPICC         when set, the programs are built here with it (to test the tests against
#                 another MPI: MPICC=mpicc.openmpi MPIRUN=mpirun.openmpi sh tests/mpi/p2p.sh);
#                 otherwise they are the ones automake built in $top_builddir/tests/mpi
#   MPI_FLAVOR    compi | openmpi | mpich; default: guessed from "$MPIRUN --version"
#   MPIRUN_ARGS   extra launcher arguments
#   MT_TIMEOUT_SCALE  multiply every time limit (slow machines, valgrind)
#   MT_CRASH_SECS     how soon after a crash mpirun must return (default 5)
#   MT_FILTER     only run programs whose name matches this grep -E pattern
#   MT_TIERS      only the runs of these tiers (space-separated, default "0 1 2"; a run's
#                 tier comes from its np entry, see test-list.txt)
#   MT_LINE       only line MT_LINE of test-list.txt (its number in the file)
#   MT_OWN        0: a script runs its lines only, not the checks of its own (the other
#                 tiers' parts of a script split by tier, see gen-tests.sh); default 1
#   MT_LEFTOVER_GLOBS where our leftovers would be (default "/dev/shm/compi* /tmp/compi*")
#
# POSIX sh (dash): no arrays, no [[ ]].

MT_SRCDIR=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$MT_SRCDIR/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
MT_LIST="$MT_SRCDIR/test-list.txt"
: "${MPIRUN:=$top_builddir/bin/mpirun}"
: "${MT_TIMEOUT_SCALE:=1}"
: "${MT_CRASH_SECS:=5}"
: "${MT_LEFTOVER_GLOBS:=/dev/shm/compi* /tmp/compi*}"
# ranks may drop core on purpose (crash tests): no core files in the build tree
ulimit -c 0 2>/dev/null

MT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/mpitest.XXXXXX") || exit 99
trap 'rm -rf "$MT_TMP"' EXIT
trap 'exit 99' INT TERM
mt_n=0
mt_failed=0
mt_outer=0

mt_now() { date +%s.%N; }
mt_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
mt_le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

# every ERE of the '~'-separated list $1 matches a line of file $2 (default: the run's
# output, $MT_TMP/out), called $3 in the message (default: output); sets mt_why at the
# first that does not
mt_grep_all() {
    x_file=${2:-$MT_TMP/out}
    x_what=${3:-output}
    x_ifs=$IFS
    IFS='~'
    set -f
    set -- $1
    set +f
    IFS=$x_ifs
    for x_p in "$@"; do
        if ! grep -qE -- "$x_p" "$x_file"; then
            mt_why="no line of the $x_what matches '$x_p'"
            return 1
        fi
    done
}

mt_diag() { sed 's/^/# /'; }

mt_flavor() {
    if [ -n "$MPI_FLAVOR" ]; then
        echo "$MPI_FLAVOR"
        return
    fi
    v=$("$MPIRUN" --version 2>&1 | head -n 20)
    case $v in
    *"Open MPI"* | *OpenRTE*) echo openmpi ;;
    *HYDRA* | *MPICH*) echo mpich ;;
    *) echo compi ;;
    esac
}

# path of a test program, building it with $MPICC when one is given
mt_prog() {
    if [ -z "$MPICC" ]; then
        echo "$top_builddir/tests/mpi/$1"
        return 0
    fi
    if [ ! -x "$MT_TMP/$1" ]; then
        $MPICC -O2 -w -o "$MT_TMP/$1" "$MT_SRCDIR/$1.c" >"$MT_TMP/build.log" 2>&1 || return 1
    fi
    echo "$MT_TMP/$1"
}

# --- leftovers: files named compi* that a finished run left in /dev/shm or /tmp -------

mt_list_ours() {
    for g in $MT_LEFTOVER_GLOBS; do
        for f in $g; do
            [ -e "$f" ] || continue
            # somebody's build tree copied to /tmp is not a leftover of a run
            [ -d "$f" ] && [ -e "$f/configure.ac" ] && continue
            [ "$f" = /tmp/compi-devcc ] && continue
            echo "$f"
        done
    done | sort
}

# is any live process holding $1 open or mapped (a job of another script running now)?
mt_in_use() {
    for p in /proc/[0-9]*; do
        ls -l "$p/fd" 2>/dev/null | grep -qF -- "$1" && return 0
        grep -qF -- "$1" "$p/maps" 2>/dev/null && return 0
    done
    return 1
}

# entries of the list in file $2 that are not in file $1, still there, and not in use
mt_orphans() {
    mt_list_ours >"$MT_TMP/after"
    comm -13 "$1" "$MT_TMP/after" | while read -r f; do
        [ -e "$f" ] || continue
        mt_in_use "$f" && continue
        [ -e "$f" ] && echo "$f"
    done
}

# leftovers of the run that began with snapshot $1; waits up to 3 s for the launcher's
# clean-up, since a killed job's files may be removed just after mpirun returns
mt_leftovers_since() {
    i=0
    while :; do
        left=$(mt_orphans "$1")
        [ -z "$left" ] && return 0
        i=$((i + 1))
        [ $i -ge 6 ] && break
        sleep 0.5
    done
    echo "$left"
    return 1
}

# --- one run --------------------------------------------------------------------------

# mt_launch np limit prog args... : runs the job, output to $MT_TMP/out, sets mt_rc
mt_launch() {
    l_np=$1
    l_lim=$2
    shift 2
    mt_outer=$((l_lim + 15))
    case $(mt_flavor) in
    openmpi)
        set -- env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            OMPI_MCA_btl_vader_single_copy_mechanism=none \
            "$MPIRUN" --oversubscribe --timeout "$l_lim" $MPIRUN_ARGS -np "$l_np" "$@"
        ;;
    mpich)
        set -- env MPIEXEC_TIMEOUT="$l_lim" "$MPIRUN" $MPIRUN_ARGS -n "$l_np" "$@"
        ;;
    *)
        set -- "$MPIRUN" --timeout "$l_lim" $MPIRUN_ARGS -np "$l_np" "$@"
        ;;
    esac
    mt_cmd="$*"
    timeout -k 5 "$mt_outer" "$@" >"$MT_TMP/out" 2>&1 </dev/null
    mt_rc=$?
}

# mt_begin prog name: a run's state reset, and $path the program (built here with
# $MPICC when set); non-zero, the test reported as failed, when it cannot be built
mt_begin() {
    mt_why=
    mt_cmd=
    mt_rc=0
    mt_elapsed=0
    : >"$MT_TMP/out"
    if ! path=$(mt_prog "$1"); then
        mt_why="could not build $1 with $MPICC"
        cp "$MT_TMP/build.log" "$MT_TMP/out"
        mt_not_ok "$2"
        return 1
    fi
}

# mt_jobs_run prog client_np np expect limit description: two jobs of two mpiruns at
# once (portjobs): `PROG server FILE` at np, which writes its port's name to FILE, and
# `PROG client FILE` at client_np, which connects to it, each started through the
# command prefix function mt_jobs_side0 / mt_jobs_side1 (default: none; ofi.sh puts
# each in a network namespace of its own).  expect ok: both exit 0 and print their ok
# lines; anything else goes to mt_judge_extra over both outputs.  Neither may leave
# files behind.
mt_jobs_side0() { "$@"; }
mt_jobs_side1() { "$@"; }
mt_jobs_run() {
    name="$1 np=$3+$2: $6"
    mt_begin "$1" "$name" || return
    portfile="$MT_TMP/port"
    rm -f "$portfile" "$portfile.tmp"
    mt_list_ours >"$MT_TMP/before"
    mt_outer=$(($5 + 15))
    mt_cmd="$MPIRUN --timeout $5 $MPIRUN_ARGS -np $3 $path server FILE & $MPIRUN --timeout $5 $MPIRUN_ARGS -np $2 $path client FILE"
    start=$(mt_now)
    mt_jobs_side0 timeout -k 5 "$mt_outer" "$MPIRUN" --timeout "$5" $MPIRUN_ARGS -np "$3" \
        "$path" server "$portfile" >"$MT_TMP/server" 2>&1 </dev/null &
    spid=$!
    mt_jobs_side1 timeout -k 5 "$mt_outer" "$MPIRUN" --timeout "$5" $MPIRUN_ARGS -np "$2" \
        "$path" client "$portfile" >"$MT_TMP/client" 2>&1 </dev/null
    crc=$?
    wait $spid
    src=$?
    mt_rc=$((src != 0 ? src : crc))
    mt_elapsed=$(mt_secs "$start" "$(mt_now)")
    { sed 's/^/server: /' "$MT_TMP/server"; sed 's/^/client: /' "$MT_TMP/client"; } >"$MT_TMP/out"
    if mt_le "$mt_outer" "$mt_elapsed"; then
        mt_why="TIMEOUT: killed after $mt_elapsed s (limit $5 s + grace): a hang"
    elif [ "$4" != ok ]; then
        mt_judge_extra "$4" "$1" "$3" "$5" || :
    elif [ "$src" -ne 0 ] || [ "$crc" -ne 0 ]; then
        mt_why="exit status: server $src, client $crc; expected 0 and 0"
    elif ! grep -qx "ok: $1 np=$3" "$MT_TMP/server" ||
        ! grep -qx "ok: $1-client np=$2" "$MT_TMP/client"; then
        mt_why="no line 'ok: $1 np=$3' from the server or 'ok: $1-client np=$2' from the client"
    elif ! mt_le "$mt_elapsed" "$5"; then
        mt_why="the jobs took $mt_elapsed s (limit $5 s)"
    fi
    if [ -z "$mt_why" ] && ! left=$(mt_leftovers_since "$MT_TMP/before"); then
        mt_why="the jobs left files behind: $(echo $left)"
    fi
    if [ -n "$mt_why" ]; then
        mt_not_ok "$name"
    else
        mt_ok "$name ($mt_elapsed s)"
    fi
}

mt_ok() {
    mt_n=$((mt_n + 1))
    echo "ok $mt_n - $*"
}

mt_not_ok() {
    mt_n=$((mt_n + 1))
    mt_failed=$((mt_failed + 1))
    echo "not ok $mt_n - $*"
    [ -n "$mt_why" ] && echo "$mt_why" | mt_diag
    echo "command: $mt_cmd (exit $mt_rc, $mt_elapsed s)" | mt_diag
    if [ -s "$MT_TMP/out" ]; then
        echo "output (last 60 lines):" | mt_diag
        tail -n 60 "$MT_TMP/out" | mt_diag
    fi
}

# judge the run against `expect`; sets mt_why and returns non-zero on failure
mt_judge() {
    j_expect=$1
    j_prog=$2
    j_np=$3
    j_lim=$4
    out="$MT_TMP/out"
    # the outer `timeout` fired (mpirun itself may exit 137 when a rank got SIGKILL)
    if mt_le "$mt_outer" "$mt_elapsed"; then
        mt_why="TIMEOUT: killed after $mt_elapsed s (limit $j_lim s + grace): a hang"
        return 1
    fi
    case $j_expect in
    ok)
        if [ "$mt_rc" -ne 0 ]; then
            mt_why="exit status $mt_rc, expected 0"
            return 1
        fi
        # the success line proves the program ran to its end with the right size
        if ! grep -qx "ok: $j_prog np=$j_np" "$out"; then
            mt_why="exit 0 but no line 'ok: $j_prog np=$j_np' from rank 0"
            return 1
        fi
        ;;
    fatal=*)
        fn=${j_expect#fatal=}
        if [ "$mt_rc" -eq 0 ]; then
            mt_why="exit status 0: the invalid call did not abort the job"
            return 1
        fi
        if grep -q 'returned instead of aborting\|the receive completed' "$out"; then
            mt_why="the invalid call returned; the job did not abort"
            return 1
        fi
        if ! grep -q -- "$fn" "$out"; then
            mt_why="the error message does not name $fn"
            return 1
        fi
        if ! mt_le "$mt_elapsed" "$j_lim"; then
            mt_why="the job took $mt_elapsed s to go down (limit $j_lim s)"
            return 1
        fi
        ;;
    crash)
        line=$(grep '^crashing rank' "$out" | head -n 1)
        if [ -z "$line" ]; then
            mt_why="no 'crashing rank' line: the job did not get to the crash"
            return 1
        fi
        if [ "$mt_rc" -eq 0 ]; then
            mt_why="exit status 0 after a rank died: the failure was not reported"
            return 1
        fi
        r=$(echo "$line" | awk '{ print $3 }')
        t=$(echo "$line" | awk '{ print $5 }')
        d=$(mt_secs "$t" "$mt_end")
        if ! mt_le "$d" "$MT_CRASH_SECS"; then
            mt_why="mpirun returned $d s after the crash (limit $MT_CRASH_SECS s)"
            return 1
        fi
        # the launcher's message, not our own line, must name the rank
        if ! grep -v '^crashing rank' "$out" | grep -qiE "rank[^0-9a-z]{0,3}$r([^0-9]|\$)"; then
            mt_why="no message names the dead rank $r (looked for 'rank $r')"
            return 1
        fi
        if grep -q 'did not end the process\|the receive completed' "$out"; then
            mt_why="the crash did not happen as planned"
            return 1
        fi
        ;;
    *)
        # a script may judge expectations of its own (coll_config.sh: error=, traced=)
        if command -v mt_judge_extra >/dev/null 2>&1; then
            mt_judge_extra "$j_expect" "$j_prog" "$j_np" "$j_lim"
            return $?
        fi
        mt_why="test-list.txt: unknown expectation '$j_expect'"
        return 1
        ;;
    esac
    return 0
}

# mt_run_one prog args np expect limit description
mt_run_one() {
    r_prog=$1
    r_args=$2
    r_np=$3
    r_expect=$4
    r_lim=$(awk -v l="$5" -v s="$MT_TIMEOUT_SCALE" 'BEGIN { printf "%d", l * s }')
    r_desc=$6
    name="$r_prog"
    [ "$r_args" != - ] && name="$name $(echo "$r_args" | tr , ' ')"
    name="$name np=$r_np: $r_desc"
    mt_begin "$r_prog" "$name" || return
    if [ ! -x "$path" ]; then
        mt_why="program $path is missing (not built?)"
        mt_not_ok "$name"
        return
    fi
    [ "$r_args" = - ] && r_args=
    r_args=$(echo "$r_args" | tr , ' ')
    mt_list_ours >"$MT_TMP/before"
    start=$(mt_now)
    if [ "$r_np" = single ]; then
        # singleton: no launcher at all, and none of its variables either
        mt_cmd="$path $r_args"
        env -u PMI_FD -u PMI_PORT -u PMI_RANK -u PMI_SIZE -u PMIX_RANK -u PMIX_NAMESPACE \
            timeout -k 5 "$r_lim" "$path" $r_args >"$MT_TMP/out" 2>&1 </dev/null
        mt_rc=$?
        r_np=1
        mt_outer=$r_lim
    else
        mt_launch "$r_np" "$r_lim" "$path" $r_args
    fi
    mt_end=$(mt_now)
    mt_elapsed=$(mt_secs "$start" "$mt_end")
    if ! mt_judge "$r_expect" "$r_prog" "$r_np" "$r_lim"; then
        mt_not_ok "$name"
        return
    fi
    if ! left=$(mt_leftovers_since "$MT_TMP/before"); then
        mt_why="the run left files behind: $(echo $left)"
        mt_not_ok "$name"
        return
    fi
    mt_ok "$name ($mt_elapsed s)"
}

# awk: np_tier(ENTRY) is the tier of an entry of the np column (N, N:T or single) and
# sets np_n to its count: N:T is in tier T, others in tier 1 up to 4 processes (and
# single), 2 above (gen-tests.sh uses it too)
MT_NP_TIER_AWK='
function np_tier(entry,   c) {
    c = index(entry, ":")
    if (c) {
        np_n = substr(entry, 1, c - 1)
        return substr(entry, c + 1)
    }
    np_n = entry
    return (entry != "single" && entry + 0 > 4) ? 2 : 1
}'

# mt_lines SCRIPT [TIERS]: the lines of test-list.txt for one script, filtered by
# MT_FILTER and MT_LINE, with only the process counts of the tiers TIERS (default
# $MT_TIERS) left in the np column, written without their ":TIER" (lines with none left
# are dropped)
mt_lines() {
    awk -v s="$1" -v f="$MT_FILTER" -v only="${MT_LINE:-}" -v tiers=" ${2:-${MT_TIERS:-0 1 2}} " "$MT_NP_TIER_AWK"'
        /^[[:space:]]*#/ || NF == 0 || $1 != s { next }
        only != "" && NR != only + 0 { next }
        f != "" && $2 !~ f { next }
        {
            n = split($4, e, ",")
            keep = ""
            for (i = 1; i <= n; i++) {
                t = np_tier(e[i])
                if (index(tiers, " " t " ")) keep = keep (keep == "" ? "" : ",") np_n
            }
            if (keep == "") next
            $4 = keep
            print
        }' "$MT_LIST"
}

# mt_own_checks: true when this script is to run the checks of its own (beyond its
# lines of test-list.txt): always, unless MT_OWN=0
mt_own_checks() {
    [ "${MT_OWN:-1}" != 0 ]
}

# mt_skip_unless_compi WHY: a TAP skip (the script exits 0) unless MPIRUN is compi's; WHY
# says what only compi has
mt_skip_unless_compi() {
    if [ "$(mt_flavor)" != compi ]; then
        echo "1..0 # SKIP $1 (MPIRUN=$MPIRUN)"
        exit 0
    fi
}

# mt_first_line SCRIPT: the stamp, then the first line of test-list.txt for SCRIPT in
# $line, its process counts of the tiers MT_TIERS (space-separated) in $nps, all its
# process counts in $all_nps and its time limit (scaled) in $lim; a TAP skip (the script
# exits 0) when there is none
mt_first_line() {
    mt_stamp
    line=$(mt_lines "$1" | head -n 1)
    if [ -z "$line" ]; then
        echo "1..0 # SKIP no '$1' line in test-list.txt (MT_FILTER='$MT_FILTER' MT_TIERS='${MT_TIERS:-0 1 2}')"
        exit 0
    fi
    nps=$(echo "$line" | awk '{ print $4 }' | tr , ' ')
    all_nps=$(mt_lines "$1" "0 1 2" | head -n 1 | awk '{ print $4 }' | tr , ' ')
    lim=$(echo "$line" | awk -v s="$MT_TIMEOUT_SCALE" '{ printf "%d", $6 * s }')
}

# records that the suite has started (leftovers.sh only trusts files newer than this)
mt_stamp() {
    stamp="$top_builddir/tests/mpi/mpitest-start.stamp"
    [ -e "$stamp" ] || { mkdir -p "$(dirname "$stamp")" && touch "$stamp"; }
}

# mt_run_config_suite SCRIPT [NOTE]: as mt_run_suite, for lines whose args column also
# carries the launcher's settings, comma separated: FILE.scm runs the program under the
# collective configuration tests/mpi/configs/FILE.scm (mpirun --coll-config), NAME=VALUE
# is --mca NAME VALUE, anything else goes to the program, '-' is nothing.  NOTE, when
# given, is printed as a TAP comment after the header.  compi only (configuration files).
mt_run_config_suite() {
    mt_stamp
    lines=$(mt_lines "$1")
    if [ -z "$lines" ]; then
        echo "1..0 # SKIP no tests for '$1' in test-list.txt (MT_FILTER='$MT_FILTER')"
        return 0
    fi
    plan=0
    for np in $(echo "$lines" | awk '{ print $4 }' | tr , ' '); do
        plan=$((plan + 1))
    done
    echo "1..$plan"
    echo "# MPIRUN=$MPIRUN flavor=compi"
    [ -z "${2:-}" ] || echo "# $2"
    base_args=$MPIRUN_ARGS
    echo "$lines" | while read -r script prog args nps expect lim desc; do
        launch=$base_args
        pargs=
        for a in $(echo "$args" | tr , ' '); do
            case $a in
            -) ;;
            *.scm) launch="$launch --coll-config $MT_SRCDIR/configs/$a" ;;
            *=*) launch="$launch --mca ${a%%=*} ${a#*=}" ;;
            *) pargs="${pargs:+$pargs,}$a" ;;
            esac
        done
        MPIRUN_ARGS=$launch
        shown=$desc # (not `name': mt_run_one sets that)
        [ "$args" = - ] || shown="$desc [$args]"
        for np in $(echo "$nps" | tr , ' '); do
            mt_run_one "$prog" "${pargs:--}" "$np" "$expect" "$lim" "$shown" </dev/null
        done
    done
}

# mt_run_suite script: the whole TAP stream of one script
mt_run_suite() {
    mt_stamp
    plan=0
    lines=$(mt_lines "$1")
    if [ -z "$lines" ]; then
        echo "1..0 # SKIP no tests for '$1' in test-list.txt (MT_FILTER='$MT_FILTER')"
        return 0
    fi
    for np in $(echo "$lines" | awk '{ print $4 }' | tr , ' '); do
        plan=$((plan + 1))
    done
    echo "1..$plan"
    echo "# MPIRUN=$MPIRUN flavor=$(mt_flavor) MPICC=${MPICC:-(automake-built programs)}"
    echo "$lines" | while read -r script prog args nps expect lim desc; do
        for np in $(echo "$nps" | tr , ' '); do
            mt_run_one "$prog" "$args" "$np" "$expect" "$lim" "$desc" </dev/null
        done
    done
}
