#!/bin/sh
# bench/wan/install-deps.sh: the Debian 12 packages that the WAN testbed and its
# experiment need beyond scripts/install-deps.sh: iproute2 (ip, tc), util-linux
# (unshare), iputils-ping (testbed.sh rtt), python3-matplotlib (the plot of
# run-multicluster.sh), and the other MPIs (openmpi-bin, libopenmpi-dev, mpich,
# libmpich-dev).  Idempotent: nothing is done (not even apt-get update) when every package
# is there.  run-multicluster.sh calls it unless given --no-install.
set -e
pkgs="iproute2 util-linux iputils-ping python3 python3-matplotlib python3-venv openmpi-bin libopenmpi-dev
  mpich libmpich-dev"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "bench/wan/install-deps: installing$missing"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
