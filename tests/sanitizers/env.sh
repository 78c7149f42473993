# env.sh -- run-time settings of the sanitized build (configure --enable-sanitizers),
# sourced by the test environment of `make check` there (Makefile.am) with $top_srcdir set.
# Every program of a test then finds the suppressions of tests/sanitizers/ and stops on
# the first finding with a stack trace, so a finding fails its test.
#
# ASan: abort_on_error=0 keeps the exit status (1) instead of a SIGABRT and a core;
#   detect_leaks=1 runs LeakSanitizer at exit (its suppressions in lsan.supp).
# UBSan: the build uses -fno-sanitize-recover=undefined already; halt_on_error=1 says the
#   same for the run time, print_stacktrace=1 shows where.
compi_san=$top_srcdir/tests/sanitizers
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:suppressions=$compi_san/asan.supp"
LSAN_OPTIONS="suppressions=$compi_san/lsan.supp:print_suppressions=0"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$compi_san/ubsan.supp"
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
unset compi_san
