/*
 * unit_tap.h -- the one way the Check unit tests in tests/unit/ run their suite: TAP on
 * stdout (what the automake TAP driver reads), no forking output of Check's own.
 *
 * Tests are registered in one list per program (libuv's test-list style):
 *
 *     const TTest *tests[] = {parse_well_formed, parse_spaces, format_round_trip};
 *     const unit_case_t tc = {.suite = "pmi_wire", .name = "wire"};
 *     return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
 *
 * Ownership: header-only; unit_tap_run() frees the runner and, with it, the suite.
 */
#ifndef COMPI_UNIT_TAP_H
#define COMPI_UNIT_TAP_H

#include <check.h>
#include <stddef.h>

/* how many entries an array of tests has */
#define UNIT_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* a suite of one test case: names, optional checked fixture and time limit */
typedef struct {
    const char *suite;
    const char *name;  /* of the test case */
    SFun setup;        /* NULL for none */
    SFun teardown;     /* NULL for none */
    double timeout_s;  /* 0: Check's default */
} unit_case_t;

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

/* a suite of the one test case `c` holding `tests[0..n)` in that order */
static inline Suite *unit_suite(const unit_case_t *c, const TTest *const tests[], size_t n)
{
    Suite *s = suite_create(c->suite);
    TCase *tc = tcase_create(c->name);
    if (c->setup != NULL || c->teardown != NULL) {
        tcase_add_checked_fixture(tc, c->setup, c->teardown);
    }
    if (c->timeout_s > 0) {
        tcase_set_timeout(tc, c->timeout_s);
    }
    for (size_t i = 0; i < n; i++) {
        tcase_add_test(tc, tests[i]);
    }
    suite_add_tcase(s, tc);
    return s;
}

/* unit_tap_run() of unit_suite(c, tests, n) */
static inline int unit_tap_run_list(const unit_case_t *c, const TTest *const tests[], size_t n)
{
    return unit_tap_run(unit_suite(c, tests, n));
}

#endif
