# sourced by tests/abi/abi_run.sh and abi_consts.sh: another implementation of the MPI-5
# standard ABI to compare with, MPICH 5's Python wheel (its include/mpi_abi.h and
# bin/mpicc_abi), fetched from PyPI once (pip download) into $top_builddir/mpich-abi and
# installed into a virtual environment there; later runs need no network.  Sets
# mpich5_prefix, or mpich5_skip to the reason it is not there.  COMPI_MPICH5_PREFIX
# names an installation to use instead.
mpich5_version=5.0.2
mpich5_prefix=
mpich5_skip=
mpich5_find() {
    if [ -n "${COMPI_MPICH5_PREFIX:-}" ]; then
        mpich5_prefix=$COMPI_MPICH5_PREFIX
        return 0
    fi
    dir=$top_builddir/mpich-abi
    venv=$dir/venv
    if [ ! -x "$venv/bin/mpicc_abi" ]; then
        mkdir -p "$dir" || { mpich5_skip="cannot create $dir"; return 1; }
        exec 8>"$dir/.lock"
        flock 8
        if [ ! -x "$venv/bin/mpicc_abi" ]; then
            rm -rf "$venv"
            /usr/bin/python3 -m venv "$venv" >"$dir/setup.log" 2>&1 ||
                { mpich5_skip="cannot make a virtual environment (python3-venv)"; return 1; }
            if [ ! -f "$dir/wheels/.complete" ]; then
                "$venv/bin/python" -m pip download -q --no-deps -d "$dir/wheels" \
                    "mpich==$mpich5_version" >>"$dir/setup.log" 2>&1 &&
                    touch "$dir/wheels/.complete" || {
                    mpich5_skip="pip download mpich==$mpich5_version failed (no network?)"
                    return 1
                }
            fi
            "$venv/bin/python" -m pip install -q --no-index --find-links "$dir/wheels" \
                "mpich==$mpich5_version" >>"$dir/setup.log" 2>&1 ||
                { mpich5_skip="pip install mpich failed: $dir/setup.log"; return 1; }
        fi
        exec 8>&-
    fi
    mpich5_prefix=$venv
}
# for a TAP script that needs MPICH 5: finds it, or skips the whole script
mpich5_require() {
    if ! mpich5_find; then
        echo "1..0 # SKIP $mpich5_skip"
        exit 0
    fi
}
