# tsan-env.sh -- run-time settings of the ThreadSanitizer build (configure
# --enable-sanitizers=thread), sourced by the test environment of `make check` there
# (tests/sanitizers/Makefile.inc) with $top_srcdir set.  scripts/test.sh runs only the
# MPI_THREAD_MULTIPLE stress test and a few point-to-point tests in that build.
#
# halt_on_error=1 with exitcode 66: the first report ends the rank with a stack trace and
# a non-zero status, which fails its test.  second_deadlock_stack=1: a lock-order report
# shows both stacks.  The suppressions (tsan.supp) are empty: the stress test and the
# point-to-point tests run clean.  Guile's collector (libgc) and libguile are not
# instrumented, so TSan sees none of their accesses (the collector's marking threads and
# its stop-the-world signals included); what it checks is compi's own code, and the
# libraries' effects only through the interceptors (malloc, pthread, signals).
# Everything runs several times slower: the MPI tests' limits (tests/mpi/lib.sh) are
# tripled unless the caller set them.
: "${MT_TIMEOUT_SCALE:=3}"
export MT_TIMEOUT_SCALE
TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:suppressions=$top_srcdir/tests/sanitizers/tsan.supp"
export TSAN_OPTIONS
# tests/mpi/coll_alloc.sh cannot preload its allocation counter behind TSan's malloc
COMPI_SANITIZED=1
export COMPI_SANITIZED
