#!/bin/sh
# TAP: mpi4py's own test suite (test/main.py of its source distribution) against compi,
# at np 1, 2 and 5, one TAP line per np with the counts (run, passed, failed, errors,
# skipped).  Idempotent; everything it makes lives in $top_builddir/mpi4py/:
#   mpi4py-4.1.2.tar.gz  the source distribution from PyPI (pip download), kept
#   wheels/              the wheels of what the build needs (Cython, setuptools, wheel,
#                        NumPy), downloaded once (pip download); later virtual
#                        environments install from here without the network
#   src/                 it unpacked (the tests come from src/test)
#   venv-<mpicc>/        a virtual environment with Cython and mpi4py built from that
#                        source with MPICC=<mpicc>; rebuilt when mpi.h or the symbols
#                        libmpi exports change (mpi4py's build checks which functions
#                        exist), not for every change to the library
#   logs-<mpicc>/        per np and rank: the unittest output, the progress (start and
#                        end of each test) and the counts (runner.py)
#   wheels-binary/       with MPI4PY_WHEEL=1: mpi4py's binary wheel and NumPy's (pip
#                        download --only-binary :all:), downloaded once
#   venv-wheel/          with MPI4PY_WHEEL=1: a virtual environment with that wheel,
#                        installed as it is; it loads compi's libmpi.so.12 (the wheel's
#                        MPICH flavor, MPI4PY_MPIABI=mpich) from the library path
#                        compi's mpirun gives the ranks
# Tests that fail for a feature compi lacks or a known bug are excluded by
# tests/mpi4py/excluded.txt, each with its reason.  A run that passes its time limit is
# killed and reported with the test each rank was running.
#
# Environment (all optional):
#   MPI4PY_MPICC    the MPI's compiler wrapper (default: compi's, $top_builddir/bin/mpicc)
#   MPI4PY_MPIRUN   its launcher (default: compi's mpirun); for MPICH:
#                   MPI4PY_MPICC=mpicc.mpich MPI4PY_MPIRUN=mpiexec.mpich sh run.sh
#   MPI4PY_NPS      the process counts (default "1 2 5"; empty: build only)
#   MPI4PY_EXCLUDE  the exclusion file (default tests/mpi4py/excluded.txt; "none": none)
#   MPI4PY_TIMEOUT  the time limit of each np in seconds (default 300; doubled for an np
#                   above the number of cores)
#   MPI4PY_PYTHON   the Python to build the virtual environment from (default
#                   /usr/bin/python3, Debian's, which python3-dev matches)
#   MPI4PY_CFLAGS   added to the C compiler's flags of the build (default "-O0 -g0"; the key
#                   of the build includes them)
#   MPI4PY_WHEEL    1: mpi4py's binary wheel from PyPI instead of a build (logs-wheel/)
#   MPI4PY_EXCLUDE_EXTRA  another exclusion file, for this run only (the wheel's)
#   MPI4PY_COMPARE  a logs folder (logs-mpicc) of another run: every test that passed
#                   there at an np passes here too, but those this run leaves out
#                   (compared where that np's outcomes exist)
#   COMPI_MPI4PY=0  skip (it is a test of tier 2: `make check COMPI_TIER=2` runs it)
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir/_build}"
here="$top_srcdir/tests/mpi4py"
version=4.1.2
dir="$top_builddir/mpi4py"
: "${MPI4PY_MPICC:=$top_builddir/bin/mpicc}"
: "${MPI4PY_MPIRUN:=$top_builddir/bin/mpirun}"
: "${MPI4PY_NPS=1 2 5}"
: "${MPI4PY_EXCLUDE:=$here/excluded.txt}"
: "${MPI4PY_TIMEOUT:=300}"
: "${MPI4PY_PYTHON:=/usr/bin/python3}"
: "${MPI4PY_WHEEL:=0}"
: "${MPI4PY_COMPARE:=}"
: "${MPI4PY_EXCLUDE_EXTRA:=}"

if [ "${COMPI_MPI4PY:-1}" = 0 ]; then
    echo "1..0 # SKIP COMPI_MPI4PY=0"
    exit 0
fi
nps=$(echo $MPI4PY_NPS | wc -w)
echo "1..$((nps + 1))"

what1="built against $MPI4PY_MPICC"
[ "$MPI4PY_WHEEL" = 1 ] && what1="binary wheel"
bail() {
    echo "not ok 1 - mpi4py $version $what1: $1"
    [ -n "${2:-}" ] && [ -f "$2" ] && tail -n 40 "$2" | sed 's/^/# /'
    # this run's build log stays as build-<mpicc>.log
    [ -n "${log:-}" ] && [ -f "$log" ] && mv -f "$log" "$blog"
    n=2
    for np in $MPI4PY_NPS; do
        echo "not ok $n - mpi4py test suite at np $np # not run: no mpi4py"
        n=$((n + 1))
    done
    exit 1
}

# ---- the build ----------------------------------------------------------------------
mkdir -p "$dir" || bail "cannot create $dir"
mpicc_path=$(command -v "$MPI4PY_MPICC") || bail "no compiler wrapper $MPI4PY_MPICC"
flavor_name=$(basename "$mpicc_path")
[ "$MPI4PY_WHEEL" = 1 ] && flavor_name=wheel
venv="$dir/venv-$flavor_name"
py="$venv/bin/python"
# one build at a time: the build and the runs of each np are tests of their own
# (tests/mpi4py/build.sh, np*.sh) that make may start together; the first builds, the
# others wait here and find it built
exec 9>"$dir/.build.lock"
flock 9 || bail "cannot lock $dir/.build.lock"
# this run's log of the build steps, kept as build-<mpicc>.log when it built something
blog="$dir/build-$flavor_name.log"
log="$blog.$$"
: >"$log"
t0=$(date +%s)
# pip's and the compiler's temporary files in the build tree (one directory a venv): a
# killed build leaves nothing in /tmp
rm -rf "$venv.tmp"
mkdir -p "$venv.tmp"
export TMPDIR="$venv.tmp"
if [ ! -x "$py" ]; then
    "$MPI4PY_PYTHON" -m venv "$venv" >>"$log" 2>&1 ||
        bail "cannot make a virtual environment (python3-venv)" "$log"
fi
if [ "$MPI4PY_WHEEL" = 1 ]; then
    # the binary wheel as pip installs it, and NumPy; nothing is built
    wheels="$dir/wheels-binary"
    if ! "$py" -c 'import numpy, mpi4py' 2>/dev/null ||
        [ "$("$py" -c 'import mpi4py; print(mpi4py.__version__)' 2>/dev/null)" != "$version" ]; then
        if [ ! -f "$wheels/.complete" ]; then
            "$py" -m pip download -q -d "$wheels" --only-binary :all: "mpi4py==$version" numpy \
                >>"$log" 2>&1 && touch "$wheels/.complete" ||
                bail "pip download --only-binary :all: mpi4py==$version numpy failed" "$log"
        fi
        "$py" -m pip install -q --no-index --find-links "$wheels" --only-binary :all: \
            "mpi4py==$version" numpy >>"$log" 2>&1 ||
            bail "pip install of mpi4py's binary wheel failed" "$log"
    fi
fi
# mpi4py 4.x builds with a backend of its own (conf/builder.py, on setuptools) and needs
# Cython >= 3 to generate its C source; wheel for setuptools' bdist_wheel.  NumPy is not
# needed to build but about 30 tests at each np use it as a buffer type (they skip
# without it).  Installed from PyPI as wheels, once.  (numba and cupy, which some tests
# also try, are left out: cupy needs a GPU, numba a whole LLVM.)
wheels="$dir/wheels"
if [ "$MPI4PY_WHEEL" != 1 ] && ! "$py" -c 'import Cython, setuptools, wheel, numpy' 2>/dev/null; then
    if [ ! -f "$wheels/.complete" ]; then
        "$py" -m pip download -q -d "$wheels" --only-binary :all: 'cython>=3.0.1' \
            'setuptools>=42' wheel numpy >>"$log" 2>&1 &&
            touch "$wheels/.complete" || bail "pip download cython setuptools wheel numpy failed" "$log"
    fi
    "$py" -m pip install -q --no-index --find-links "$wheels" 'cython>=3.0.1' 'setuptools>=42' \
        wheel numpy >>"$log" 2>&1 || bail "pip install cython setuptools wheel numpy failed" "$log"
fi
sdist="$dir/mpi4py-$version.tar.gz"
if [ ! -f "$sdist" ]; then
    # only mpi4py as source: its build requirements are installed above (no isolation;
    # the wheel's environment has none, so pip reads the metadata in one of its own)
    isolation=--no-build-isolation
    [ "$MPI4PY_WHEEL" = 1 ] && isolation=
    "$py" -m pip download --no-binary mpi4py --no-deps $isolation \
        -d "$dir" "mpi4py==$version" >>"$log" 2>&1 || bail "pip download failed" "$log"
fi
src="$dir/src"
if [ ! -f "$src/test/main.py" ] || [ "$sdist" -nt "$src/test/main.py" ]; then
    rm -rf "$src" "$dir/mpi4py-$version"
    tar -xzf "$sdist" -C "$dir" >>"$log" 2>&1 || bail "cannot unpack $sdist" "$log"
    mv "$dir/mpi4py-$version" "$src" && touch "$src/test/main.py"
fi
# What mpi4py's build depends on: the header, the functions the library exports (its
# configure step checks each MPI function) and the wrapper.
incdir=$("$mpicc_path" -show -c x.c 2>/dev/null | tr ' ' '\n' | sed -n 's/^-I//p' | head -n 1)
libdirs=$("$mpicc_path" -show x.o 2>/dev/null | tr ' ' '\n' | sed -n 's/^-L//p')
key=$(
    {
        echo "$version $mpicc_path ${MPI4PY_CFLAGS--O0 -g0}"
        cat "$incdir/mpi.h" 2>/dev/null
        for d in $libdirs; do
            for l in "$d"/libmpi.so "$d"/libmpich.so; do
                [ -e "$l" ] && nm -D --defined-only "$l" 2>/dev/null | awk '{ print $NF }' | sort
            done
        done
    } | sha256sum | cut -d' ' -f1
)
if [ "$MPI4PY_WHEEL" != 1 ] && [ "$(cat "$venv/.mpi4py-key" 2>/dev/null)" != "$key" ]; then
    rm -f "$venv/.mpi4py-key"
    # from the kept source distribution, offline
    # -O0: the build is mostly the compile of one large generated C file (MPI.c), which
    # takes 5 to 6 minutes at -O2 on one core; the tests run the same either way.
    # Through ccache where it is installed (scripts/install-deps.sh; COMPI_CCACHE=0: not),
    # as the builds of compi are (scripts/ccache-env.sh): the same MPI.c against the same
    # preprocessed mpi.h is compiled once per cache, not once per build tree.  ccache
    # knows the wrapper by the compiler it runs (`mpicc -dumpversion`), not by its time
    # stamp (every build tree has a new one), and takes paths relative to the top of the
    # tree, so another clone finds the same entry.
    build_cc=$mpicc_path
    if [ "${COMPI_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
        build_cc="ccache $mpicc_path"
        CCACHE_COMPILERCHECK="%compiler% -dumpversion"
        CCACHE_BASEDIR=$(cd "$top_srcdir" && pwd)
        CCACHE_NOHASHDIR=1
        export CCACHE_COMPILERCHECK CCACHE_BASEDIR CCACHE_NOHASHDIR
    fi
    env MPICC="$build_cc" CFLAGS="${MPI4PY_CFLAGS--O0 -g0}" \
        "$py" -m pip install -v --force-reinstall --no-deps --no-index \
        --no-binary :all: --no-build-isolation --no-cache-dir "$sdist" >>"$log" 2>&1 ||
        bail "pip install mpi4py (MPICC=$mpicc_path) failed" "$log"
    echo "$key" >"$venv/.mpi4py-key"
fi
if [ "$MPI4PY_WHEEL" = 1 ]; then
    # the wheel's MPICH flavor (MPI.mpich.*.so, linked against libmpi.so.12), on compi's
    # library: the runs find it first in the library path compi's mpirun gives them
    MPI4PY_MPIABI=mpich
    export MPI4PY_MPIABI
    libpath=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
    libpath=${LD_LIBRARY_PATH:-}
fi
vendor=$(cd "$dir" && LD_LIBRARY_PATH=$libpath "$py" -c 'import mpi4py; mpi4py.rc.initialize = False
from mpi4py import MPI; print(MPI.Get_library_version().splitlines()[0].strip())' 2>&1 |
    tail -n 1)
if [ "$MPI4PY_WHEEL" = 1 ]; then
    case $vendor in
    compi*) echo "ok 1 - mpi4py $version binary wheel ($(( $(date +%s) - t0 ))s) loads $vendor" ;;
    *) bail "it does not load compi's library: $vendor" ;;
    esac
else
    echo "ok 1 - mpi4py $version built against $mpicc_path ($(( $(date +%s) - t0 ))s): $vendor"
fi

rm -rf "$venv.tmp"
unset TMPDIR
if [ -s "$log" ]; then mv -f "$log" "$blog"; else rm -f "$log"; fi
flock -u 9
exec 9>&-

# ---- the exclusions -----------------------------------------------------------------
# excluded.txt: "[np>N] PATTERN REASON...", one a line; '#' lines are comments.  A PATTERN
# with no dot is a whole test module (test_rma); otherwise it is matched against the end
# of the test's id (test_comm.TestCommWorld.testIDup; '*' as in fnmatch).  A line that
# starts with "np>N" leaves its tests out of the runs above N processes only ("np>1":
# tests that do the same local work on every rank, run at np 1).
# (patterns hold '*': $excl is expanded with globbing off)
excl=
excl_multi= # "N:-x ..." / "N:-e ...", one word per np>N exclusion (spaces as '|')
nexcl=0
exclude_files=$MPI4PY_EXCLUDE
[ "$MPI4PY_EXCLUDE" = none ] && exclude_files=
for exclude_file in $exclude_files $MPI4PY_EXCLUDE_EXTRA; do
    while read -r pat reason; do
        case $pat in '' | '#'*) continue ;; esac
        above=0
        case $pat in
        np\>[0-9]*)
            above=${pat#np>}
            pat=${reason%% *}
            reason=${reason#"$pat"}
            ;;
        esac
        if [ -z "$pat" ] || [ -z "${reason# }" ]; then
            echo "# $exclude_file: no reason given for $pat" >&2
            echo "Bail out! every exclusion needs its reason ($pat)"
            exit 1
        fi
        case $pat in
        *.*) x="-x *$pat" ;;
        *) x="-e ^$pat\\.py\$" ;;
        esac
        if [ "$above" -gt 0 ]; then
            excl_multi="$excl_multi $above:$(echo "$x" | tr ' ' '|')"
        else
            excl="$excl $x"
            nexcl=$((nexcl + 1))
        fi
    done <"$exclude_file"
done

# ---- the runs -----------------------------------------------------------------------
logs="$dir/logs-$flavor_name"
mkdir -p "$logs"
case $("$MPI4PY_MPIRUN" --version 2>&1 | head -n 20) in
*HYDRA* | *MPICH*) flavor=mpich ;;
*) flavor=compi ;;
esac
n=2
rc=0
for np in $MPI4PY_NPS; do
    # held while this np's logs are rewritten: a run comparing with them waits
    exec 7>"$logs/.np$np.lock"
    flock 7
    rm -f "$logs/np$np".*
    np_excl=
    n_excl=$nexcl
    set -f
    for e in $excl_multi; do
        if [ "$np" -gt "${e%%:*}" ]; then
            np_excl="$np_excl $(echo "${e#*:}" | tr '|' ' ')"
            n_excl=$((n_excl + 1))
        fi
    done
    set +f
    lim=$MPI4PY_TIMEOUT
    # more ranks than cores (np 5 on 2) run the suite's CPU-bound datatype tests at a
    # fraction of the speed, beside the other tests of a parallel make check
    [ "$np" -gt "$(nproc)" ] && lim=$((lim * 2))
    if [ "$flavor" = mpich ]; then
        set -- env MPIEXEC_TIMEOUT="$lim" "$MPI4PY_MPIRUN" -n "$np"
    else
        set -- "$MPI4PY_MPIRUN" --timeout "$lim" -np "$np"
    fi
    t0=$(date +%s)
    # the runs start in $dir, away from the source tree's own mpi4py-less python paths;
    # NumPy's BLAS without its threads (one per core in every rank, idle but woken: the
    # suite does no linear algebra)
    set -f
    (cd "$dir" && OPENBLAS_NUM_THREADS=1 && export OPENBLAS_NUM_THREADS && timeout -k 5 $((lim + 20)) "$@" "$py" "$here/runner.py" "$src/test" \
        "$logs" --no-builddir $excl $np_excl) >"$logs/np$np.out" 2>&1 </dev/null
    run_rc=$?
    set +f
    secs=$(( $(date +%s) - t0 ))
    # counts: run and skipped from rank 0; failed and errors: distinct tests on any rank
    c0="$logs/np$np.rank0.counts"
    get() { sed -n "1s/.*$1=\([0-9]*\).*/\1/p" "$c0" 2>/dev/null; }
    run=$(get run)
    skipped=$(get skipped)
    xfail=$(get xfail)
    failed_ids=$(sed -n 's/^failed_ids=//p' "$logs/np$np".rank*.counts 2>/dev/null |
        tr ' ' '\n' | grep -v '^$' | sort -u)
    error_ids=$(sed -n 's/^error_ids=//p' "$logs/np$np".rank*.counts 2>/dev/null |
        tr ' ' '\n' | grep -v '^$' | sort -u)
    failed=$(printf '%s' "$failed_ids" | grep -c .)
    errors=$(printf '%s' "$error_ids" | grep -c .)
    ranks_done=$(ls "$logs/np$np".rank*.counts 2>/dev/null | wc -l)
    what="mpi4py test suite at np $np ($secs s, $n_excl exclusions)"
    if [ -n "$run" ]; then
        passed=$((run - skipped - xfail - failed - errors))
        what="$what: run $run, passed $passed, failed $failed, errors $errors, skipped $skipped"
        [ "$xfail" -gt 0 ] && what="$what, expected failures $xfail"
    fi
    # every test another run (the source build's) passed at this np passes here, but
    # those this run leaves out (MPI4PY_EXCLUDE_EXTRA): rank 0's outcomes, by test
    same=1
    if [ -n "$MPI4PY_COMPARE" ] && [ -n "$run" ]; then
        op="$MPI4PY_COMPARE/np$np.rank0.progress"
        if [ -d "$MPI4PY_COMPARE" ]; then
            exec 6>>"$MPI4PY_COMPARE/.np$np.lock"
            flock -s 6
        fi
        if [ -f "$MPI4PY_COMPARE/np$np.rank0.counts" ] && [ -f "$op" ]; then
            p0="$logs/np$np.rank0.progress"
            awk '$1 == "end" && $3 == "ok" { print $2 }' "$op" | sort -u >"$logs/np$np.other-ok"
            awk '$1 == "end" && $3 == "ok" { print $2 }' "$p0" | sort -u >"$logs/np$np.ok"
            awk '$1 == "start" { print $2 }' "$p0" | sort -u >"$logs/np$np.started"
            lost=$(comm -23 "$logs/np$np.other-ok" "$logs/np$np.ok" |
                comm -12 - "$logs/np$np.started")
            left=$(comm -23 "$logs/np$np.other-ok" "$logs/np$np.started" | grep -c .)
            what="$what; $(basename "$MPI4PY_COMPARE") passed $(grep -c . "$logs/np$np.other-ok")"
            [ "$left" -gt 0 ] && what="$what, $left of them not run here"
            if [ -n "$lost" ]; then
                same=0
                what="$what, $(echo "$lost" | grep -c .) of them not passed here"
            fi
        else
            what="$what; no outcomes in $(basename "$MPI4PY_COMPARE") to compare"
        fi
        [ -d "$MPI4PY_COMPARE" ] && exec 6>&-
    fi
    if [ "$run_rc" -eq 0 ] && [ -n "$run" ] && [ "$failed" -eq 0 ] && [ "$errors" -eq 0 ] &&
        [ "$ranks_done" -eq "$np" ] && [ $same = 1 ]; then
        echo "ok $n - $what"
    else
        rc=1
        why="exit status $run_rc"
        [ $same = 0 ] && why="tests the other run passed do not pass"
        [ $same = 0 ] && echo "$lost" | sed 's/^/# not passed here: /'
        [ "$run_rc" -eq 124 ] || [ "$run_rc" -eq 137 ] || [ "$secs" -ge "$lim" ] &&
            why="timed out after $lim s"
        echo "not ok $n - $what; $why"
        # the test each unfinished rank was in: its last "start" with no "end" after it
        r=0
        while [ $r -lt "$np" ]; do
            p="$logs/np$np.rank$r.progress"
            if [ ! -f "$logs/np$np.rank$r.counts" ]; then
                last=$(tail -n 1 "$p" 2>/dev/null)
                case $last in
                start*) echo "# rank $r did not finish: it was running ${last#start }" ;;
                end*) echo "# rank $r did not finish: between tests, after ${last#end }" ;;
                *) echo "# rank $r did not finish: no test started" ;;
                esac
            fi
            r=$((r + 1))
        done
        for t in $failed_ids; do echo "# failed: $t"; done
        for t in $error_ids; do echo "# error: $t"; done
        # the tracebacks of rank 0 (or of the first rank that has some), then the job's
        # own output
        for f in "$logs/np$np".rank*.log; do
            if grep -q '^\(FAIL\|ERROR\):' "$f" 2>/dev/null; then
                echo "# ---- $f"
                sed -n '/^=\{10,\}$/,$p' "$f" | head -n 300 | sed 's/^/# /'
                break
            fi
        done
        echo "# ---- the job's output ($logs/np$np.out)"
        tail -n 60 "$logs/np$np.out" | sed 's/^/# /'
    fi
    exec 7>&-
    n=$((n + 1))
done
exit $rc
