#!/bin/sh
# Builds compi outside the sources, in _build/ (_build/bin/mpicc, _build/bin/mpirun,
# _build/lib/.libs/libmpi.so).  Re-running it only rebuilds what changed.  Extra
# arguments go to configure the first time (COMPI_PREFIX sets the install prefix).  The
# compiler goes through ccache when it is installed (scripts/ccache-env.sh), so a build
# from scratch of sources compiled before, in this clone or another, takes its objects
# from the cache; COMPI_CCACHE=0 leaves it out.
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
top=$(pwd)
. scripts/ccache-env.sh
mkdir -p _build
cd _build
# configure by its absolute path, so the paths the build records are plain ones
if [ ! -f Makefile ]; then
    "$top/configure" CC="$cc" --prefix="${COMPI_PREFIX:-/usr/local}" "$@"
fi
make -j"$(nproc)"
