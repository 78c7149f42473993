# Sourced by scripts/build.sh and scripts/test.sh: the C compiler for configure, in $cc.
# With ccache installed (scripts/install-deps.sh installs it) it is "ccache $CC" (gcc by
# default), and ccache is told to hash paths relative to the top of the tree
# (CCACHE_BASEDIR) and not the build directory (CCACHE_NOHASHDIR), so a build of the same
# configuration in another clone or folder takes its objects from the cache (~/.cache/ccache
# or $CCACHE_DIR).  COMPI_CCACHE=0 leaves ccache out.  The installed compiler wrappers
# (mpicc) never call ccache (tools/Makefile.inc takes it out of $(CC)).
cc=${CC:-gcc}
if [ "${COMPI_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
    cc="ccache $cc"
    CCACHE_BASEDIR=$(pwd)
    CCACHE_NOHASHDIR=1
    export CCACHE_BASEDIR CCACHE_NOHASHDIR
fi
