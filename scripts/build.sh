#!/bin/sh
# Builds compi outside the sources, in _build/ (_build/bin/mpicc, _build/bin/mpirun,
# _build/lib/.libs/libmpi.so).  Re-running it only rebuilds what changed.  Extra
# arguments go to configure the first time (COMPI_PREFIX sets the install prefix).  With
# ccache installed (scripts/install-deps.sh installs it) the compiler is "ccache gcc" (or
# "ccache $CC"), so a build from scratch of sources compiled before, here or in another
# build of the same configuration, takes the objects from ccache's cache (its default
# place, ~/.cache/ccache, or $CCACHE_DIR); COMPI_CCACHE=0 leaves it out.
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
top=$(pwd)
mkdir -p _build
cd _build
# configure by its absolute path, so the paths the build records are plain ones
if [ ! -f Makefile ]; then
    cc=${CC:-gcc}
    if [ "${COMPI_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
        cc="ccache $cc"
    fi
    "$top/configure" CC="$cc" --prefix="${COMPI_PREFIX:-/usr/local}" "$@"
fi
make -j"$(nproc)"
