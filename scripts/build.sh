#!/bin/sh
# Builds compi in the source tree (bin/mpicc, bin/mpirun, lib/.libs/libmpi.so).
# Re-running it only rebuilds what changed.
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
[ -f Makefile ] || ./configure --prefix="${COMPI_PREFIX:-/usr/local}"
make -j"$(nproc)"
