#!/bin/sh
# config_errors.sh -- configuration files as MPI_Init will load them, through the bridge
# (helper program bridge_probe): a good config installs creators that C sees, in order;
# each kind of broken config gives one message naming the file, line and column, exit 1,
# quickly.  TAP output; every probe runs under `timeout 20` so a hang fails.

. "$(dirname "$0")/lib.sh"
PROBE="$top_builddir/tests/scheme/bridge_probe"
CONF="$top_srcdir/tests/scheme/configs"
# configs must not depend on the user's Guile set-up, nor leave files behind
sandbox compi-scheme
RUN_PROG=$PROBE RUN_TIMEOUT=20

# expect_error DESC FILE TEXT: loading FILE fails with exit 1 and one stderr line that
# contains TEXT
expect_error() {
    run "$CONF/$2"
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -qF -- "$3" "$TMP/err"; then
        ok "$1"
    else
        not_ok "$1 (want: $3)"
        show
    fi
}
# expect_out DESC TEXT: the last run succeeded with TEXT on stdout and nothing on stderr
expect_out() {
    if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] && grep -qF -- "$2" "$TMP/out"; then
        ok "$1"
    else
        not_ok "$1 (want: $2)"
        show
    fi
}

echo "1..33"

run -c "$CONF/good.scm"
expect_out "a good config installs creators C can count (after the default one)" "bcast 3"
expect_out "creators are listed latest first, with where they were installed" \
    "  first-bcast (installed at $CONF/good.scm:8:1)"
expect_out "the default creator comes last" "  default-bcast (installed at compi/defaults.scm)"
run -c "$CONF/good.scm:$CONF/good2.scm"
expect_out "a colon-separated list loads every file" "allreduce 2"
run -b bcast "$CONF/good.scm"
expect_out "creators run latest first and reach earlier ones through next" \
    "closure: trace(bcast:kary(fanout=4))"
run -b bcast,size=8 "$CONF/good.scm"
expect_out "a creator that passes the call on reaches the default creator" \
    "closure: trace(bcast:binomial)"
run -b allreduce "$CONF/good.scm" "$CONF/good2.scm"
expect_out "a creator sees the call's op and size" \
    "closure: profile(allreduce:recursive-doubling)"
run -b barrier "$CONF/good.scm"
expect_out "configs see the bridge's C primitives" "closure: barrier:dissemination"
run_env "COMPI_COLL_CONFIG=$CONF/good2.scm" -c
expect_out "COMPI_COLL_CONFIG is read when no file is given" "allreduce 2"
run_env "COMPI_MCA_coll_config=$CONF/good.scm COMPI_COLL_CONFIG=$CONF/good2.scm" -c
expect_out "the coll_config parameter wins over COMPI_COLL_CONFIG" "bcast 3"

# configs that come with compi, by name (scheme/bridge_path.c): from the build tree, the
# source tree's examples/configs
EX="$top_srcdir/examples/configs"
run -c hierarchical
expect_out "a bare name is a config that comes with compi (from the build tree: examples/configs)" \
    "  hierarchical (installed at $EX/hierarchical.scm:"
run -c "flat:profile"
expect_out "names in a list, loaded in order" "  profile-all (installed at $EX/profile.scm:"
run -c hierarchial
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
    grep -qF "config error: no config named hierarchial (did you mean hierarchical?): looked for hierarchial.scm in $EX, " "$TMP/err" &&
    grep -qE "configs there: exchange flat hierarchical .*timing-wrapper; a file of yours needs a '/' or the .scm suffix$" "$TMP/err"; then
    ok "a name found nowhere: one error naming where it looked, the names there, the closest"
else
    not_ok "a name found nowhere: one error naming where it looked, the names there, the closest"
    show
fi
unlisted=
for f in "$EX"/*.scm; do
    grep -qF "examples/configs/$(basename "$f")" "$top_srcdir/examples/Makefile.inc" ||
        unlisted="$unlisted $(basename "$f")"
done
if [ -z "$unlisted" ]; then
    ok "every example config is installed (listed in examples/Makefile.inc)"
else
    not_ok "every example config is installed (not in examples/Makefile.inc:$unlisted)"
fi
here=$(pwd)
cd "$TMP" && : >mine && run -c mine
cd "$here" || exit 1
if [ "$rc" -eq 1 ] && grep -qF "no config named mine: " "$TMP/err" &&
    grep -qF "(the file mine here: give it as ./mine)" "$TMP/err"; then
    ok "a bare name is never a file of the current directory; the error says how to give one"
else
    not_ok "a bare name is never a file of the current directory; the error says how to give one"
    show
fi

expect_error "unbalanced parenthesis points at the form left open" unbalanced.scm \
    "compi: config error: $CONF/unbalanced.scm:1:1: syntax error: this form is never closed"
expect_error "an extra closing parenthesis gives its line and column" extra_paren.scm \
    "config error: $CONF/extra_paren.scm:3:59: syntax error: unexpected \")\""
expect_error "an unbound variable names the variable and its call" unbound.scm \
    "config error: $CONF/unbound.scm:4:3: unbound variable: instal-creator!"
expect_error "(error ...) gives the message and the line of the call" error.scm \
    "config error: $CONF/error.scm:5:7: no tree builder for magpie"
expect_error "(raise 'foo) names the object raised" raise.scm \
    "config error: $CONF/raise.scm:3:1: exception raised: foo"
expect_error "a creator that is not a procedure is a wrong-type error" wrong_type.scm \
    "$CONF/wrong_type.scm:2:1: in install-creator!: creator for bcast must be a procedure"
expect_error "an unknown kind is named, with the valid ones" bad_kind.scm \
    "bad_kind.scm:3:1: in install-creator!: unknown collective kind: bcats (valid kinds: barrier"
expect_error "a creator must take (call next)" bad_arity.scm \
    "bad_arity.scm:1:1: in install-creator!: creator for reduce must accept 2 arguments"
expect_error "a wrong type passed to a Guile procedure" not_procedure.scm \
    "not_procedure.scm:2:1: in +: Wrong type argument in position 2"
expect_error "a syntax error in a special form" syntax.scm \
    "syntax.scm:3:1: syntax error:"
expect_error "a missing file is named" does-not-exist.scm \
    "config error: $CONF/does-not-exist.scm: cannot read: No such file or directory"

run -b bcast "$CONF/creator_fails.scm"
want="creator exploding (bcast, installed at $CONF/creator_fails.scm:4:1) failed at $CONF/creator_fails.scm:3:3: in car: Wrong type"
if [ "$rc" -eq 1 ] && grep -qF "$want" "$TMP/err" &&
    grep -qF "(call: bcast root=0 bytes=8 comm=MPI_COMM_WORLD size=4)" "$TMP/err"; then
    ok "an error in a creator names the creator, its kind, where it was installed, the line that failed, the call"
else
    not_ok "an error in a creator names the creator, its kind, where it was installed, the line that failed, the call"
    show
fi

# expect_miss DESC KIND TEXT: building a closure for KIND with miss_errors.scm fails with
# exit 1 and a message that contains TEXT
M="$CONF/miss_errors.scm"
expect_miss() {
    run -b "$2" "$M"
    if [ "$rc" -eq 1 ] && grep -qF -- "$3" "$TMP/err"; then
        ok "$1"
    else
        not_ok "$1 (want: $3)"
        show
    fi
}
expect_miss "at a miss, (error ...) gives the line of the call, not only the install line" \
    bcast "creator too-big (bcast, installed at $M:23:1) failed at $M:5:7: too big: 8 (call: bcast"
expect_miss "at a miss, an unbound variable gives the line that names it" \
    reduce "creator misspelt (reduce, installed at $M:24:1) failed at $M:10:5: unbound variable: nativ"
expect_miss "at a miss, a wrong type passed to car gives the line of that car" \
    allreduce "creator not-a-pair (allreduce, installed at $M:25:1) failed at $M:13:9: in car: Wrong type"
expect_miss "an error raised by a helper the creator calls gives the helper's line" \
    gather "creator uses-helper (gather, installed at $M:26:1) failed at $M:17:5: a helper refuses size 4"
expect_miss "an anonymous creator: the line inside the form that installed it" \
    scatter "creator anonymous (scatter, installed at $M:27:1) failed at $M:29:34: in vector-ref:"
expect_miss "a schedule builder that raises: the line in the builder" \
    barrier "its builder failed at $M:35:7: in list-ref: Argument 2 out of range: 1 (call: barrier"

exit $((failed > 0))
