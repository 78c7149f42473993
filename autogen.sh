#!/bin/sh
# Regenerates configure and Makefile.in from configure.ac and Makefile.am (and installs
# the auxiliary files configure.ac asks for into build-aux/).
set -e
cd "$(dirname "$0")"
mkdir -p m4
autoreconf --force --install -Wall
