/*
 * unit_tap.h -- the one way the Check unit tests in tests/unit/ run their suite: TAP on
 * stdout (what the automake TAP driver reads), no forking output of Check's own.
 *
 * Ownership: header-only; unit_tap_run() frees the runner and, with it, the suite.
 */
#ifndef COMPI_UNIT_TAP_H
#define COMPI_UNIT_TAP_H

#include <check.h>

/* runs every test of `s`; the exit status of the test program: 0 when all passed */
static inline int unit_tap_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_set_tap(sr, "-");
    srunner_run_all(sr, CK_SILENT);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

#endif
