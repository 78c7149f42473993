#!/bin/sh
# Builds compi outside the sources, in _build/ (_build/bin/mpicc, _build/bin/mpirun,
# _build/lib/.libs/libmpi.so).  Re-running it only rebuilds what changed.  Extra
# arguments go to configure the first time (COMPI_PREFIX sets the install prefix).
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
top=$(pwd)
mkdir -p _build
cd _build
# configure by its absolute path, so the paths the build records are plain ones
[ -f Makefile ] || "$top/configure" --prefix="${COMPI_PREFIX:-/usr/local}" "$@"
make -j"$(nproc)"
