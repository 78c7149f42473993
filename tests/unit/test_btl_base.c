/*
 * test_btl_base.c -- loading BTL components by the "btl" parameter: the default list
 * opens self and sm (as modules from the build tree, or built in), unknown or malformed
 * names are refused, and a list of which nothing can run here is an error.
 */
#include "core/btl/btl.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void quiet_verbose(int level, const char *fmt, ...)
{
}

static void no_recv(int src, const void *frag, size_t len)
{
}

static int all_local(int rank)
{
    return 1;
}

static btl_services_t make_svc(int local_size)
{
    return (btl_services_t){
        .size = sizeof(btl_services_t),
        .world_rank = 0,
        .world_size = local_size,
        .local_rank = 0,
        .local_size = local_size,
        .pid = getpid(),
        .hostname = "localhost",
        .jobid = "compi-test-base",
        .recv_cb = no_recv,
        .rank_is_local = all_local,
        .param_int = param_register_int,
        .param_string = param_register_string,
        .log_error = compi_log_error,
        .log_verbose = quiet_verbose,
    };
}

/* the modules of an uninstalled build live in lib/.libs, not next to this program */
static void use_build_tree(const char *btl_list)
{
    const char *top = getenv("top_builddir");
    char path[4096];

    if (top != NULL) {
        snprintf(path, sizeof(path), "%s/lib/.libs", top);
        setenv("COMPI_MCA_module_path", path, 1);
    }
    if (btl_list != NULL)
        setenv("COMPI_MCA_btl", btl_list, 1);
}

START_TEST(test_base_default)
{
    btl_services_t svc = make_svc(2);
    btl_module_t **mods;
    int n = 0;

    use_build_tree(NULL);
    unsetenv("COMPI_MCA_btl");
    ck_assert_int_eq(btl_base_open(&svc, &mods, &n), COMPI_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(mods[0]->name, "self");
    ck_assert_str_eq(mods[1]->name, "sm");
    ck_assert_int_gt(mods[0]->exclusivity, mods[1]->exclusivity);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(mods[i]->finalize(), COMPI_OK);
    btl_base_close();
}
END_TEST

START_TEST(test_base_unknown)
{
    btl_services_t svc = make_svc(2);
    btl_module_t **mods;
    int n = 0;

    use_build_tree("self,nosuch");
    ck_assert_int_eq(btl_base_open(&svc, &mods, &n), COMPI_ERR_NOT_FOUND);
}
END_TEST

START_TEST(test_base_bad_name)
{
    btl_services_t svc = make_svc(2);
    btl_module_t **mods;
    int n = 0;

    use_build_tree("self,../sm");
    ck_assert_int_eq(btl_base_open(&svc, &mods, &n), COMPI_ERR_CONFIG);
}
END_TEST

START_TEST(test_base_nothing_runs)
{
    btl_services_t svc = make_svc(1);
    btl_module_t **mods;
    int n = 0;

    /* sm has no peer on a host of one rank: it declines, and nothing is left */
    use_build_tree(" sm ");
    ck_assert_int_eq(btl_base_open(&svc, &mods, &n), COMPI_ERR_UNREACHABLE);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        test_base_default, test_base_unknown, test_base_bad_name, test_base_nothing_runs
    };
    const unit_case_t tc = {.suite = "btl_base", .name = "load"};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
