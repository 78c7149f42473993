# tests/scheme/lib.sh -- sourced (never run) by the shell tests of tests/scheme/ and
# tests/tools/: where the trees are, a private home for Guile, TAP counters, and running
# one program under a time limit with its output kept for the checks.
#
#   . "$(dirname "$0")/lib.sh"      (from tests/tools/: "$(dirname "$0")/../scheme/lib.sh")
#   sandbox compi-scheme            TMP, HOME and XDG_CACHE_HOME fresh, removed at exit
#   RUN_PROG=$PROBE RUN_TIMEOUT=20  what run and run_env start
#   run ARGS...; show               rc, $TMP/out, $TMP/err; those as TAP comments

top_builddir=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_srcdir=${top_srcdir:-$top_builddir}

# sandbox PREFIX: a temporary directory $TMP (removed at exit) holding HOME and
# XDG_CACHE_HOME, so that nothing is written elsewhere, and no Guile set-up or config of
# the user's in the environment
sandbox() {
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    unset GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH COMPI_COLL_CONFIG COMPI_MCA_coll_config
    HOME=$TMP/home XDG_CACHE_HOME=$TMP/cache
    export HOME XDG_CACHE_HOME
}

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# run ARGS...: $RUN_PROG under timeout $RUN_TIMEOUT; sets rc, output in $TMP/out and
# $TMP/err
run() {
    timeout "$RUN_TIMEOUT" "$RUN_PROG" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
# run_env "VAR=VALUE ..." ARGS...: the same with variables set for the program only
run_env() {
    vars=$1
    shift
    # shellcheck disable=SC2086 # one word per assignment
    timeout "$RUN_TIMEOUT" env $vars "$RUN_PROG" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
}
# show [OUT_LINES [ERR_LINES]]: rc and the first lines (20 unless told) of the output
show() {
    echo "# rc=$rc"
    sed 's/^/# stdout: /' "$TMP/out" | head -"${1:-20}"
    sed 's/^/# stderr: /' "$TMP/err" | head -"${2:-${1:-20}}"
}

# guile_test FILE.scm: replaces the shell with guile alone (no MPI) running the TAP test
# FILE.scm under a limit of 120 s; nothing compiled at run time, the user's Guile set-up
# ignored, top_srcdir passed on, (compi trees)'s C primitives from the build tree
# (scheme/.libs/compi-trees.so); a TAP skip when there is no guile.  In the sanitized
# build the extension needs the ASan runtime loaded first: COMPI_GUILE_PRELOAD
# (tests/sanitizers/Makefile.inc) names it.
guile_test() {
    unset GUILE_LOAD_PATH GUILE_LOAD_COMPILED_PATH
    GUILE_EXTENSIONS_PATH=$top_builddir/scheme/.libs
    export GUILE_EXTENSIONS_PATH
    GUILE=${GUILE:-guile}
    if ! command -v "$GUILE" >/dev/null 2>&1; then
        echo "1..0 # SKIP $GUILE not found"
        exit 0
    fi
    export top_srcdir
    GUILE_AUTO_COMPILE=0 exec timeout 120 \
        ${COMPI_GUILE_PRELOAD:+env LD_PRELOAD="$COMPI_GUILE_PRELOAD"} "$GUILE" --no-auto-compile \
        -L "$top_srcdir/scheme" -L "$top_srcdir/creators" -L "$top_srcdir/topologies" "$1"
}
