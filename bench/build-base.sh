#!/bin/bash
# build-base.sh: builds compi as it was at an earlier revision, to compare a change
# against what came before it in the same benchmark run (implementation "base" of
# run-coll.sh and run-nbc.sh).
#
#   1. exports the revision's files with `git archive` into bench/build/base/<rev>/src
#      (no worktree, nothing in the repository changes)
#   2. builds them there with that revision's scripts/build.sh (into src/_build)
#   3. prints the prefix to give the benchmark scripts: COMPI_BASE_PREFIX=<it>
#
# Usage: bench/build-base.sh REV      (a commit, tag or branch; built once per commit)
# Example:
#   COMPI_BASE_PREFIX=$(bench/build-base.sh c92eddc) MPIS="omp mpich compi base" \
#       bench/run-coll.sh
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/common.sh"

case ${1:-} in
-h | --help)
    usage
    exit 0
    ;;
"") die "which revision? (try --help)" ;;
esac
[ $# = 1 ] || bad_arg "$2"
rev=$(git -C "$repo" rev-parse --verify --quiet "$1^{commit}") ||
    die "'$1' is not a commit of $repo"
dir=$here/build/base/${rev:0:12}
if [ ! -x "$dir/src/_build/bin/mpirun" ]; then
    rm -rf "$dir"
    mkdir -p "$dir/src"
    say "exporting ${rev:0:12} into $dir/src"
    git -C "$repo" archive "$rev" | tar x -C "$dir/src"
    say "building it (log: $dir/build.log)"
    (cd "$dir/src" && sh scripts/build.sh) >"$dir/build.log" 2>&1 ||
        die "the build of ${rev:0:12} failed; see $dir/build.log"
fi
echo "$dir/src/_build"
