#!/bin/sh
# Compiles one or more C files of the library in isolation, with the project's include
# path and warnings, before the whole tree builds.  Usage: tools/dev-cc.sh [-c|-o out] file.c ...
# Extra flags may come first (e.g. -DCOMPI_TEST).  Objects go to /tmp/compi-devcc/.
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p /tmp/compi-devcc
cat > /tmp/compi-devcc/config.h <<'H'
#define _GNU_SOURCE 1
#define HAVE_PROCESS_VM_READV 1
#define PACKAGE_VERSION "0.1.0"
H
exec gcc -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -fvisibility=hidden -fPIC \
  -include /tmp/compi-devcc/config.h \
  -I"$top/include" -I"$top/core/include" -I"$top/core/runtime" -I"$top/core/mpi" \
  -I"$top/core/dt" -I"$top/core/comm" -I"$top/core/pml" -I"$top/core/btl" -I"$top/core/coll" -I"$top/trampolines" -I"$top/scheme" \
  -DCOMPI_PKGLIBDIR=\"/usr/local/lib/compi\" -DCOMPI_PKGDATADIR=\"/usr/local/share/compi\" \
  -DCOMPI_SRCDIR=\"$top\" -DCOMPI_BUILDDIR=\"$top\" "$@"
