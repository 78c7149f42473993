#!/bin/sh
# The whole test suite, from a fresh clone: installs dependencies, builds, runs
# `make check` (unit tests, MPI tests, Scheme tests), and prints the logs of failures.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
if make -j2 check; then
    exit 0
fi
for f in $(find tests -name '*.log' ! -name 'test-suite.log'); do
    if grep -q -e '^not ok' -e '^ERROR' -e '^FAIL' "$f" 2>/dev/null; then
        echo "===== $f"
        cat "$f"
    fi
done
exit 1
