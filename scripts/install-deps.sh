#!/bin/sh
# Installs what compi needs to build, test and benchmark on Debian 12.  Idempotent: does
# nothing (not even apt-get update) when every package is already there.
# mpich, libmpich-dev: mpiexec.hydra and mpicc.mpich for the Hydra launcher tests;
# openmpi-bin: mpirun.openmpi, a PMIx launcher (tests/mpi/pmix.sh); iproute2,
# iputils-ping: tests/wan; python3: compi-summary and tests/api_locks.sh; python3-venv,
# python3-dev: tests/mpi4py (mpi4py built in a virtual environment against compi);
# ccache: the builds of scripts/build.sh and scripts/test.sh share compiled objects;
# gfortran: the Fortran bindings (mpif.h, use mpi, use mpi_f08, mpifort) and their tests.
set -e
pkgs="build-essential autoconf automake libtool libltdl-dev pkg-config guile-3.0-dev
  libhwloc-dev hwloc libfabric-dev check libpmix-dev graphviz procps
  iproute2 iputils-ping mpich libmpich-dev openmpi-bin python3 python3-venv python3-dev
  ccache gfortran"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
