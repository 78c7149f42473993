#!/bin/sh
# TAP: MPICH's own test suite (test/mpi of MPICH 4.0.2), built unmodified with compi's
# wrappers and run with compi's mpirun: the Fortran tests (f77: mpif.h, f90: use mpi,
# f08: use mpi_f08), the MPI-IO tests (with ROMIO's) and the C ones.  tests/mpich/suite.sh
# fetches the source once and builds the directories run here in
# $top_builddir/mpich-suite/build (README.md).
#
# Each line of a directory's testlist (MPICH's: "program np [key=value ...]") is one run,
# and one TAP line: at its np (at most MPICH_MAXNP), with its arg= and env=, under its
# timeLimit= (else MPICH_TIMEOUT seconds), from its directory of the build tree, as
# MPICH's runner (test/mpi/runtests) runs it, two at a time (an MPI-IO test from a folder
# of its own, for its files).  A run passes as that runner says: exit status 0 and, in
# its output (stdout and stderr), a line " No Errors" and no other line but "Test Passed"
# (or gfortran's "FORTRAN STOP"); one whose line says resultTest=TestStatus or
# TestErrFatal must fail instead (a non-zero exit status).  A program that did not
# compile fails.  Lines the testlist itself marks xfail= are skipped, as that runner
# skips them, and so are those whose mem= asks more memory than MPICH_MEMORY.
#
# tests/mpich/xfail.txt lists the runs known to fail, each with its reason: such a run
# is a TODO line of TAP (an expected failure); when it passes, it is an unexpected pass,
# which fails the test, as does any failure not listed, and a line of xfail.txt that
# names no run of the directories run.
#
# Environment (all optional):
#   MPICH_DIRS     the directories of test/mpi to run (default: every Fortran one but
#                  spawn and f77/io, f90/io (the MPI-IO tests of f08/io again, through
#                  mpif.h and use mpi: 20 to 60 s more), the MPI-IO ones: io, f08/io
#                  and "romio", ROMIO's C tests, src/mpi/romio/test, as its own runner
#                  runs them, and the C ones but spawn, errors, cxx, ft and
#                  threads/pt2pt (its large-message runs take four minutes here))
#   MPICH_FILTER   only the runs whose "dir/program" matches this grep -E pattern
#   MPICH_MAXNP    the most processes a run gets (default 4; a line asking more runs at 4)
#   MPICH_TIMEOUT  seconds a run may take when its line says none (default 60)
#   MPICH_MEMORY   gigabytes a run may use: lines whose mem= asks more are skipped, as
#                  MPICH's runner skips them above its memory total (default 2)
#   MPICH_JOBS     programs compiled, and runs made, at once (default 2)
#   MPICH_XFAIL    the list of known failures (default tests/mpich/xfail.txt; "none")
#   MPIRUN         the launcher (default compi's, $top_builddir/bin/mpirun)
#   COMPI_MPICH_TARBALL  a copy of mpich_4.0.2.orig.tar.xz to use instead of downloading
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir/_build}"
here=$top_srcdir/tests/mpich
export top_srcdir top_builddir
. "$here/suite.sh"
: "${MPICH_DIRS:=f77/attr f77/coll f77/comm f77/datatype f77/ext f77/info f77/init f77/pt2pt \
f77/rma f77/topo f77/profile \
f90/attr f90/coll f90/comm f90/datatype f90/ext f90/f90types f90/info f90/init f90/misc \
f90/pt2pt f90/rma f90/timer f90/topo f90/profile \
f08/attr f08/coll f08/comm f08/datatype f08/ext f08/info f08/init f08/misc f08/pt2pt \
f08/rma f08/subarray f08/timer f08/topo f08/profile \
io f08/io romio \
attr coll comm datatype errhan group info init mpi_t part pt2pt rma topo \
threads/comm threads/coll threads/rma threads/init threads/mpi_t threads/part}"
: "${MPICH_FILTER:=}"
: "${MPICH_MAXNP:=4}"
: "${MPICH_TIMEOUT:=60}"
: "${MPICH_MEMORY:=2}"
: "${MPICH_XFAIL:=$here/xfail.txt}"
: "${MPIRUN:=$top_builddir/bin/mpirun}"
export MPIRUN

# ---- one run (run.sh --one RES JOB, from xargs below) -----------------------------------
# A job line: index, directory, program, np, time limit, then the testlist's arg= and
# env= words.  Writes RES/<index>: "pass", "nobuild", or "fail <why>"; RES/<index>.out
# the run's output.
if [ "${1:-}" = --one ]; then
    res=$2
    set -f
    set -- $3
    set +f
    idx=$1 dir=$2 prog=$3 np=$4 lim=$5
    shift 5
    args=
    envs=
    rtest=
    for w; do
        case $w in
        arg=*) args="$args ${w#arg=}" ;;
        env=*) envs="$envs ${w#env=}" ;;
        resultTest=*) rtest=${w#resultTest=} ;;
        esac
    done
    exe=$mpich_build/$dir/$prog
    if [ ! -x "$exe" ]; then
        echo nobuild >"$res/$idx"
        exit 0
    fi
    # from its directory, as MPICH's runner runs it (spawn tests start ./program); an
    # MPI-IO test in a folder of its own, for the files it writes: two runs at once may
    # be of one directory, and its tests share file names
    case $dir in
    io | */io | romio) mkdir -p "$res/$idx.d" && cd "$res/$idx.d" || exit 0 ;;
    *) cd "$mpich_build/$dir" || exit 0 ;;
    esac
    # mpirun's own limit first; timeout(1) in case the launcher itself hangs
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    env $envs timeout -k 5 $((lim + 15)) "$MPIRUN" --timeout "$lim" -np "$np" "$exe" $args \
        >"$res/$idx.out" 2>&1 </dev/null
    rc=$?
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", b - a }' >"$res/$idx.t"
    cd "$res" && rm -rf "$res/$idx.d"
    # resultTest=TestStatus or TestErrFatal: the program must fail (a non-zero exit, an
    # abort, its time limit), as MPICH's runner judges them; its output does not count
    case $rtest in
    TestStatus | TestErrFatal)
        if [ "$rc" -ne 0 ]; then echo pass; else echo "fail exit status 0 (a failure expected)"; fi >"$res/$idx"
        exit 0
        ;;
    esac
    why=$(awk -v rc="$rc" -v lim="$lim" '
        /FORTRAN STOP/ { next }
        /^[ \t]*No [Ee]rrors[ \t]*$/ { if (!found) { found = 1; next } }
        /^[ \t]*Test Passed[ \t]*$/ { next }
        { if (!nbad++) bad = $0 }
        END {
            if (rc == 124 || rc == 137) print "timed out after " lim " s"
            else if (rc != 0) print "exit status " rc
            else if (nbad) print "unexpected output: \"" substr(bad, 1, 100) "\""
            else if (!found) print "no \"No Errors\" line"
        }' "$res/$idx.out")
    if [ -z "$why" ]; then echo pass; else echo "fail $why"; fi >"$res/$idx"
    exit 0
fi

# ---- the build --------------------------------------------------------------------------
if [ ! -x "$top_builddir/bin/mpifort" ]; then
    echo "1..0 # SKIP no $top_builddir/bin/mpifort: compi was configured without Fortran"
    exit 0
fi
t0=$(date +%s)
mkdir -p "$mpich_dir" 2>/dev/null
exec 9>"$mpich_dir/.lock"
flock 9
mpich_fetch && mpich_configure && mpich_make $MPICH_DIRS
flock -u 9
exec 9>&-
if [ -n "$mpich_skip" ]; then
    echo "1..0 # SKIP $mpich_skip"
    exit 0
fi
if [ -n "$mpich_fail" ]; then
    echo "1..1"
    echo "not ok 1 - MPICH $mpich_version's test suite: $mpich_fail"
    [ -f "$mpich_faillog" ] && tail -n 30 "$mpich_faillog" | sed 's/^/# /'
    exit 1
fi
t1=$(date +%s)

# ---- the runs ---------------------------------------------------------------------------
# (in the build tree: the MPI-IO tests' files go on its file system, not in a tmpfs)
tmp=$(mktemp -d "$mpich_dir/runs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 99' INT TERM
mkdir "$tmp/res"
# the jobs, from each directory's testlist (the configured one where configure makes it)
n=0
for d in $MPICH_DIRS; do
    if [ "$d" = romio ]; then
        list=$tmp/romio.list
        mpich_romio_list | awk '{ printf "%s %s", $1, $2; for (i = 3; i <= NF; i++) printf " arg=%s", $i; print "" }' >"$list"
    else
        list=$mpich_build/$d/testlist
        [ -f "$list" ] || list=$mpich_src/test/mpi/$d/testlist
    fi
    [ -f "$list" ] || continue
    awk -v d="$d" -v maxnp="$MPICH_MAXNP" -v deflim="$MPICH_TIMEOUT" -v mem="$MPICH_MEMORY" '
        { sub(/#.*/, "") }
        NF == 0 || $1 ~ /^!/ { next }
        {
            np = (NF >= 2 && $2 ~ /^[0-9]+$/) ? $2 : 2
            lim = deflim; xf = ""; rest = ""
            for (i = 3; i <= NF; i++) {
                if ($i ~ /^timeLimit=[0-9]+$/) lim = substr($i, 11)
                else if ($i ~ /^xfail=/) xf = substr($i, 7)
                else if ($i ~ /^mem=/ && substr($i, 5) + 0 > mem + 0)
                    xf = "needs " substr($i, 5) " GB of memory (MPICH_MEMORY=" mem ")"
                else if ($i ~ /^(arg|env|resultTest)=/) rest = rest " " $i
            }
            asked = np
            if (np > maxnp) np = maxnp
            print d " " $1 " " np " " asked " " lim "\t" rest "\t" (xf == "" ? "-" : xf)
        }' "$list"
done | if [ -n "$MPICH_FILTER" ]; then
    awk -v f="$MPICH_FILTER" '($1 "/" $2) ~ f'
else
    cat
fi >"$tmp/lines"
# TAP names and the job lines (the index is the line's number)
awk -F'\t' '{
    split($1, a, " ")
    name = a[1] "/" a[2] " np=" a[3] (a[4] != a[3] ? " (the testlist says " a[4] ")" : "")
    if ($2 != "") name = name " [" substr($2, 2) "]"
    print NR "\t" a[1] "/" a[2] "\t" a[3] "\t" $3 "\t" name > "'"$tmp/names"'"
    if ($3 == "-") print NR, a[1], a[2], a[3], a[5] $2 > "'"$tmp/jobs"'"
}' "$tmp/lines"
[ -f "$tmp/jobs" ] || : >"$tmp/jobs"
[ -f "$tmp/names" ] || : >"$tmp/names"
tr '\n' '\0' <"$tmp/jobs" | xargs -0 -r -n 1 -P "$MPICH_JOBS" sh "$0" --one "$tmp/res"
t2=$(date +%s)

# ---- the report -------------------------------------------------------------------------
# xfail.txt: "dir/program[:np] reason...", '#' lines are comments
: >"$tmp/xfail"
if [ "$MPICH_XFAIL" != none ]; then
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$MPICH_XFAIL" >"$tmp/xfail"
fi
total=$(wc -l <"$tmp/names")
nx=$(awk -v dirs=" $MPICH_DIRS " -v f="$MPICH_FILTER" '{
    p = $1; sub(/:[0-9]+$/, "", p); d = p; sub(/\/[^\/]*$/, "", d)
    if (index(dirs, " " d " ") && (f == "" || p ~ f)) n++
} END { print n + 0 }' "$tmp/xfail")
echo "1..$((total + nx))"
awk -F'\t' -v res="$tmp/res" -v xf="$tmp/xfail" -v dirs=" $MPICH_DIRS " -v f="$MPICH_FILTER" '
    BEGIN {
        while ((getline l < xf) > 0) {
            split(l, w, /[ \t]+/)
            key = w[1]; why = l; sub(/^[^ \t]+[ \t]+/, "", why)
            if (why == l || why == "") why = "(no reason given)"
            reason[key] = why; order[++nx] = key
        }
    }
    function diag(file,   line, k) {
        k = 0
        while ((getline line < file) > 0 && k < 15) {
            sub(/[ \t]+$/, "", line)
            print "#   " substr(line, 1, 160); k++
        }
        close(file)
    }
    {
        idx = $1; prog = $2; np = $3; mx = $4; name = $5
        if (mx != "-") {
            print "ok " idx " - " name " # SKIP " (mx ~ /^needs / ? mx : "the testlist marks it xfail: " mx)
            seen[prog] = 1
            next
        }
        st = ""
        if ((getline st < (res "/" idx)) <= 0) st = "fail not run"
        close(res "/" idx)
        secs = ""
        if ((getline secs < (res "/" idx ".t")) > 0) name = name " (" secs " s)"
        close(res "/" idx ".t")
        key = ""
        if ((prog ":" np) in reason) key = prog ":" np
        else if (prog in reason) key = prog
        if (key != "") used[key] = 1
        seen[prog] = 1
        todo = key != "" ? " # TODO " reason[key] : ""
        if (st == "pass") {
            print "ok " idx " - " name todo
            npass++
        } else {
            why = st == "nobuild" ? "did not compile (its directory'"'"'s build.log)" : substr(st, 6)
            print "not ok " idx " - " name ": " why todo
            if (key == "" && st != "nobuild") diag(res "/" idx ".out")
            if (key == "") nfail++; else nxfail++
        }
    }
    END {
        n = NR
        for (i = 1; i <= nx; i++) {
            key = order[i]; p = key; sub(/:[0-9]+$/, "", p)
            d = p; sub(/\/[^\/]*$/, "", d)
            if (!index(dirs, " " d " ") || (f != "" && p !~ f)) continue
            n++
            if (key in used) print "ok " n " - xfail.txt: " key " names a run"
            else print "not ok " n " - xfail.txt: " key " names no run of " d
        }
        printf "# %d runs: %d passed, %d known failures (xfail.txt), %d failed\n", \
            NR, npass, nxfail, nfail
    }' "$tmp/names"
echo "# build $((t1 - t0)) s, runs $((t2 - t1)) s (MPICH_JOBS=$MPICH_JOBS)"
