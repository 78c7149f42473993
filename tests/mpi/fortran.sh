#!/bin/sh
# TAP: the 'fortran' lines of tests/mpi/test-list.txt: Fortran programs
# (tests/fortran/<program>.f, fixed form with mpif.h, or .f90, use mpi / use mpi_f08, with
# the module tests/fortran/ftest.f90), built here with compi's mpifort (with
# tests/fortran/f2c_check.c, built with mpicc) and run as the other lines are.  The args column is read as in coll_config.sh (FILE.scm is
# --coll-config, NAME=VALUE is --mca NAME VALUE), and one more expectation is understood:
#   says=ERE[~ERE...]   as ok, and each ERE (grep -E) matches the output
# compi only; skipped when compi was built without Fortran (configure found no gfortran).
. "$(dirname "$0")/lib.sh"
unset COMPI_COLL_CONFIG COMPI_MCA_coll_config

mt_skip_unless_compi "programs built with compi's mpifort"
if [ ! -x "$top_builddir/bin/mpifort" ]; then
    echo "1..0 # SKIP no $top_builddir/bin/mpifort: compi was configured without Fortran"
    exit 0
fi

# a sanitized build's libmpi needs its runtime in the program too: the -fsanitize flags
# of the build's LDFLAGS
mt_fsan=$(sed -n 's/^LDFLAGS = //p' "$top_builddir/Makefile" 2>/dev/null | tr ' ' '\n' |
    grep '^-fsanitize=' | tr '\n' ' ')

# the program, built once per script run
mt_prog() {
    if [ ! -x "$MT_TMP/$1" ]; then
        src=$(ls "$top_srcdir/tests/fortran/$1".f "$top_srcdir/tests/fortran/$1".f90 \
            2>/dev/null | head -n 1)
        [ -n "$src" ] || { echo "no tests/fortran/$1.f or .f90" >"$MT_TMP/build.log"; return 1; }
        # free-form programs share the module ftest (built first, beside them)
        ftest=
        case $src in *.f90) ftest=$top_srcdir/tests/fortran/ftest.f90 ;; esac
        { "$top_builddir/bin/mpicc" $mt_fsan -c -o "$MT_TMP/f2c_check.o" \
            "$top_srcdir/tests/fortran/f2c_check.c" &&
            (cd "$MT_TMP" && "$top_builddir/bin/mpifort" -w $mt_fsan -o "$MT_TMP/$1" \
                $ftest "$src" "$MT_TMP/f2c_check.o"); } >"$MT_TMP/build.log" 2>&1 || return 1
    fi
    echo "$MT_TMP/$1"
}

mt_judge_extra() {
    case $1 in
    says=*)
        mt_judge ok "$2" "$3" "$4" || return 1
        mt_grep_all "${1#says=}" "$MT_TMP/out" || return 1
        ;;
    *)
        mt_why="test-list.txt: unknown expectation '$1'"
        return 1
        ;;
    esac
}

mt_run_config_suite fortran
