# bench/common.sh -- what every benchmark script shares that changes nothing on the
# machine: message helpers, the --help text and unknown-argument error, finding compi's
# build (find_compi: compi_bin, CC) and each MPI's launcher line.  Only defines; sourced
# first by run-p2p.sh, run-coll.sh and run-tramp.sh.

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
    compi) printf '%s/mpirun -np %s%s' "$compi_bin" "$2" "$compi_nobind" ;;
    base) printf '%s/mpirun -np %s%s' "$base_bin" "$2" "$base_nobind" ;;
    esac
}
