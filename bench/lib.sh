# bench/lib.sh -- the first steps the benchmark scripts that compare MPIs share, run when
# sourced: installing the other MPIs (Debian's, and PyPI's newest when MPIS names omp5 or
# mpich5) and the plotting tools (unless --no-install), and
# finding compi's build (find_compi: compi_bin, CC).  Sourced by the run-*.sh that compare
# MPIs, after bench/common.sh and after they have set `install' and COMPI_PREFIX.

# --- 1. dependencies ------------------------------------------------------------------
install_missing() {
    local missing=() p sudo=()
    for p in openmpi-bin libopenmpi-dev mpich libmpich-dev; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    command -v gnuplot >/dev/null || missing+=(gnuplot-nox)
    [ -x /usr/bin/python3 ] || missing+=(python3)
    /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
    [ ${#missing[@]} = 0 ] && return 0
    [ $install = 1 ] || die "missing packages: ${missing[*]} (and --no-install given)"
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || die "missing ${missing[*]}; run as root or install sudo"
        sudo=(sudo)
    fi
    say "installing ${missing[*]}"
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${missing[@]}"
}
install_missing
for c in mpicc.openmpi mpirun.openmpi mpicc.mpich mpiexec.mpich gnuplot taskset timeout; do
    command -v "$c" >/dev/null || die "'$c' not found after installation"
done

# --- 2. the newest Open MPI and MPICH from PyPI, when MPIS names them (common.sh) --------
install_pypi_peers

find_compi
