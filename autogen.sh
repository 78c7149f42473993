#!/bin/sh
# Regenerates configure and Makefile.in from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --force --install -Wall
# the TAP driver every test uses is shipped with automake but not installed by autoreconf
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/
