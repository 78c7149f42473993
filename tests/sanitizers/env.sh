# env.sh -- run-time settings of the sanitized build (configure --enable-sanitizers),
# sourced by the test environment of `make check` there (Makefile.am) with $top_srcdir set.
# Every program of a test then finds the suppressions of tests/sanitizers/ and stops on
# the first finding with a stack trace, so a finding fails its test.
#
# ASan: abort_on_error=0 keeps the exit status (1) instead of a SIGABRT and a core;
#   detect_leaks=1 runs LeakSanitizer at exit (its suppressions in lsan.supp);
#   detect_stack_use_after_return=0 (the default, said here because it matters): with it,
#   C locals would live in frames ASan allocates off the stack, which libgc does not scan,
#   so a Scheme object held only by a C local could be collected under our feet.
# Ranks started through a launch agent get these too only if the agent passes them on
#   (tests/mpi/fake-agent.sh does; ssh would need them in the remote login environment).
# UBSan: the build uses -fno-sanitize-recover=undefined already; halt_on_error=1 says the
#   same for the run time, print_stacktrace=1 shows where.
# allocator_may_return_null=1: an allocation too large to satisfy returns NULL, as libc's
#   does, instead of ASan aborting; MPI_Alloc_mem must then answer MPI_ERR_NO_MEM
#   (tests/mpi/info_mem.c asks for 2^62 bytes).
# Everything runs 2-3 times slower (and -O0: the sanitized build is configured with
# --enable-debug for its assertions): Check's per-test limits (4 s by default) times 5,
# the MPI tests' limits (tests/mpi/lib.sh) doubled, unless the caller set them; a hang
# still fails.  The programs that sweep message sizes up to 1 MiB per rank
# (coll_algos_move, coll_algos_reduce, coll_trees) stop at 256 KiB here
# (COMPI_TEST_MAX_BYTES, tests/mpi/mpitest.h): still rendezvous, several pipeline segments
# and single copy, at a quarter of the bytes the sanitizers check; the plain build runs
# them to 1 MiB.
: "${CK_TIMEOUT_MULTIPLIER:=5}" "${MT_TIMEOUT_SCALE:=2}" "${COMPI_TEST_MAX_BYTES:=262144}"
export CK_TIMEOUT_MULTIPLIER MT_TIMEOUT_SCALE COMPI_TEST_MAX_BYTES
compi_san=$top_srcdir/tests/sanitizers
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1:detect_stack_use_after_return=0:suppressions=$compi_san/asan.supp"
LSAN_OPTIONS="suppressions=$compi_san/lsan.supp:print_suppressions=0"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$compi_san/ubsan.supp"
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
unset compi_san
# tests/mpi/coll_alloc.sh cannot preload its allocation counter behind ASan's malloc
COMPI_SANITIZED=1
export COMPI_SANITIZED
