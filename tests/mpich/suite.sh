# sourced by tests/mpich/run.sh: MPICH's own test suite (test/mpi of MPICH 4.0.2's source,
# Debian's mpich_4.0.2.orig.tar.xz), fetched once and built against compi in
# $top_builddir/mpich-suite/:
#   mpich_4.0.2.orig.tar.xz   the source, downloaded once (curl); later runs need no network
#   src/                      its test/mpi and src/mpi/romio/test, unpacked
#   build/                    test/mpi configured with compi's wrappers (bin/mpicc,
#                             bin/mpifort, bin/mpif77) and mpiexec, then built directory
#                             by directory, only the directories run.sh runs
#   build/.compi-key          what the built programs were compiled against (mpi.h,
#                             mpif.h, the modules, the wrappers): when it changes they are
#                             built again; a change of the library alone needs no rebuild
# Sets mpich_skip to the reason when the source cannot be had, mpich_fail when the
# configure step fails (with its log in mpich_faillog).
# COMPI_MPICH_TARBALL names a copy of the tarball to use instead of downloading it.
mpich_version=4.0.2
mpich_sha256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860
mpich_url=http://deb.debian.org/debian/pool/main/m/mpich/mpich_$mpich_version.orig.tar.xz
mpich_dir=$top_builddir/mpich-suite
mpich_src=$mpich_dir/src
mpich_build=$mpich_dir/build
mpich_skip=
mpich_fail=
mpich_faillog=
: "${MPICH_JOBS:=2}"

# the source, unpacked into $mpich_src (test/mpi and ROMIO's tests only)
mpich_fetch() {
    mkdir -p "$mpich_dir" || { mpich_skip="cannot create $mpich_dir"; return 1; }
    [ -f "$mpich_src/.complete" ] && return 0
    tarball=$mpich_dir/mpich_$mpich_version.orig.tar.xz
    if [ ! -f "$tarball" ]; then
        if [ -n "${COMPI_MPICH_TARBALL:-}" ]; then
            cp "$COMPI_MPICH_TARBALL" "$tarball.part" 2>/dev/null || {
                mpich_skip="cannot copy $COMPI_MPICH_TARBALL"
                return 1
            }
        elif ! curl -sSfL --retry 2 --connect-timeout 20 -o "$tarball.part" "$mpich_url" \
            >"$mpich_dir/fetch.log" 2>&1; then
            rm -f "$tarball.part"
            mpich_skip="cannot download $mpich_url (no network?)"
            return 1
        fi
        if [ "$(sha256sum <"$tarball.part" | cut -d' ' -f1)" != "$mpich_sha256" ]; then
            rm -f "$tarball.part"
            mpich_skip="mpich_$mpich_version.orig.tar.xz: not the expected SHA-256"
            return 1
        fi
        mv -f "$tarball.part" "$tarball"
    fi
    rm -rf "$mpich_src" "$mpich_dir/mpich-$mpich_version"
    tar -xJf "$tarball" -C "$mpich_dir" "mpich-$mpich_version/test/mpi" \
        "mpich-$mpich_version/src/mpi/romio/test" >"$mpich_dir/unpack.log" 2>&1 || {
        mpich_fail="cannot unpack $tarball"
        mpich_faillog=$mpich_dir/unpack.log
        return 1
    }
    mv "$mpich_dir/mpich-$mpich_version" "$mpich_src" && touch "$mpich_src/.complete"
}

# what the programs are compiled against; the build is redone when it changes
mpich_key() {
    {
        echo "$mpich_version"
        cat "$top_builddir/bin/mpicc" "$top_builddir/bin/mpifort" "$top_builddir/bin/mpif77"
        cat "$top_srcdir/include/mpi.h" "$top_builddir"/fortran/include/*.h \
            "$top_builddir"/fortran/include/*.mod
    } 2>/dev/null | sha256sum | cut -d' ' -f1
}

# test/mpi's own configure, once (and again when what it found may have changed:
# mpich_key).  --with-mpi: the wrappers and mpiexec of the build tree.  Left out: C++
# (compi has no C++ bindings), dtpools (generated datatype tests, C), perftest (timings,
# not correctness); no maintainer mode (its rules would regenerate the Makefiles with
# automake).  dtpools' own configure runs all the same: its library is linked by the C
# MPI-IO tests.  The tests are
# compiled at -O0: they check results, not speed, and the compile is most of the time.
mpich_configure() {
    key=$(mpich_key)
    if [ -f "$mpich_build/Makefile" ] && [ "$(cat "$mpich_build/.compi-key" 2>/dev/null)" = "$key" ]; then
        return 0
    fi
    rm -rf "$mpich_build"
    mkdir -p "$mpich_build"
    # (configure reads top_srcdir from the environment, where the tests have compi's)
    (cd "$mpich_build" && env -u top_srcdir -u top_builddir \
        "$mpich_src/test/mpi/configure" --disable-maintainer-mode \
        --with-mpi="$top_builddir" CFLAGS=-O0 FFLAGS=-O0 FCFLAGS=-O0 \
        --disable-cxx --disable-dtpools --disable-perftest --enable-fortran=all \
        >configure.out 2>&1) || {
        mpich_fail="test/mpi's configure failed"
        mpich_faillog=$mpich_build/configure.out
        return 1
    }
    echo "$key" >"$mpich_build/.compi-key"
}

# mpich_make DIR...: build the programs of these directories of test/mpi (make -k: a
# program that does not compile is reported by run.sh, the others are built), each
# directory's output in DIR/build.log.  The Fortran 2008 tests' helper library
# (util/libmtest_f08.la) is built only by a configure run from inside MPICH's own build
# (FROM_MPICH=yes); it is made here from its source with the Makefile's own rule, its
# object list given on make's command line.
mpich_make() {
    # the helper libraries first, once: each directory's Makefile would make them on
    # demand, from two jobs at once under -j
    if [ ! -f "$mpich_build/util/.compi-built" ]; then
        make -C "$mpich_build/util" libmtest.la libmtest_single.la libmtest_f77.la \
            libmtest_f90.la >"$mpich_build/util/build.log" 2>&1 || return 1
        rm -f "$mpich_build/util/libmtest_f08.la"
        make -C "$mpich_build/util" libmtest_f08.la am_libmtest_f08_la_OBJECTS=mtest_f08.lo \
            >>"$mpich_build/util/build.log" 2>&1 || return 1
        touch "$mpich_build/util/.compi-built"
    fi
    # dtpools' library, which test/mpi/io links (for its own tests as well)
    case " $* " in
    *" io "* | *" f90/f90types "*)
        if [ ! -f "$mpich_build/dtpools/.compi-built" ]; then
            make -j"$MPICH_JOBS" -C "$mpich_build/dtpools" >"$mpich_build/dtpools/build.log" 2>&1 &&
                touch "$mpich_build/dtpools/.compi-built"
        fi
        ;;
    esac
    # each directory once per configure (the build tree goes when the key changes): a
    # program that does not compile is not tried again at every run
    # (and the programs its testlist names beside "all": some are EXTRA_PROGRAMS, which
    # MPICH's runner makes when it comes to them)
    for d; do
        if [ "$d" = romio ]; then
            mpich_romio_make
            continue
        fi
        [ -f "$mpich_build/$d/.compi-built" ] && continue
        list=$mpich_build/$d/testlist
        [ -f "$list" ] || list=$mpich_src/test/mpi/$d/testlist
        progs=$(sed -e 's/#.*//' -e '/^[[:space:]]*!/d' "$list" 2>/dev/null | awk 'NF { print $1 }' | sort -u)
        # shellcheck disable=SC2086
        make -k -j"$MPICH_JOBS" -C "$mpich_build/$d" all $progs >"$mpich_build/$d/build.log" 2>&1
        touch "$mpich_build/$d/.compi-built"
    done
    return 0
}

# ROMIO's tests (src/mpi/romio/test): C programs that take the name of the file they
# write (-fname NAME).  ROMIO builds them inside MPICH's own build; here each is compiled
# with compi's mpicc into build/romio/.  The runs are the lines of ROMIO's own runner
# (its runtests.in, "$mpirun -np N ./program ARGS"), C programs only (the Fortran ones
# need that build's substitutions): mpich_romio_list prints them as
# "program np args...", with $FILENAME as program.testfile and $srcdir the source.
mpich_romio_src=$mpich_src/src/mpi/romio/test
mpich_romio_list() {
    awk -v src="$mpich_romio_src" '
        /^[ \t]*\$mpirun -np [0-9]+ \.\// {
            prog = substr($4, 3)
            line = prog " " $3
            for (i = 5; i <= NF; i++) {
                a = $i
                sub(/\$FILENAME/, prog ".testfile", a)
                sub(/\$srcdir/, src, a)
                line = line " " a
            }
            print line
        }' "$mpich_romio_src/runtests.in" | while read -r prog rest; do
        if [ -f "$mpich_romio_src/$prog.c" ] || [ -f "$mpich_romio_src/$prog.c.in" ]; then
            echo "$prog $rest"
        fi
    done
}
mpich_romio_make() {
    dir=$mpich_build/romio
    [ -f "$dir/.compi-built" ] && return 0
    mkdir -p "$dir"
    : >"$dir/build.log"
    for prog in $(mpich_romio_list | awk '{ print $1 }' | sort -u); do
        src=$mpich_romio_src/$prog.c
        if [ ! -f "$src" ]; then
            # misc.c.in: configure puts the printf length of MPI_Offset in @LL@
            sed 's/@LL@/lld/g' "$src.in" >"$dir/$prog.c"
            src=$dir/$prog.c
        fi
        echo "$top_builddir/bin/mpicc -O0 -o $dir/$prog $src"
    done | tr '\n' '\0' | xargs -0 -r -n 1 -P "$MPICH_JOBS" sh -c '$0 >>"'"$dir"'/build.log" 2>&1'
    touch "$dir/.compi-built"
}

