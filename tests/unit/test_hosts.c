/*
 * test_hosts.c -- mpirun's host lists and host files (core/runtime/launcher/hosts.c): a
 * FIFO as host file is refused at once (opening it used to wait for a writer, before
 * --timeout applies), a file over the size limit is refused before it is read, and a
 * file of tens of thousands of distinct hosts is read in time linear in its size.
 */
#include "core/runtime/launcher/launcher.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
    /* not "compi*": the MPI tests running beside it count those as leftovers */
    snprintf(dir, sizeof(dir), "/tmp/test_hosts-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static double cpu_s(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

START_TEST(fifo_refused)
{
    char path[128];
    mpirun_hosts_t h = {0};
    snprintf(path, sizeof(path), "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    /* no writer ever comes: a blocking open would hang here until Check's time limit */
    ck_assert_int_eq(hosts_add_file(&h, path, "test"), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(h.n, 0);
    hosts_free(&h);
}
END_TEST

START_TEST(too_big_refused_unread)
{
    char path[128];
    mpirun_hosts_t h = {0};
    snprintf(path, sizeof(path), "%s/big", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 200000; i++) {
        fprintf(f, "node%07d slots=1\n", i); /* 3.6 MB of distinct hosts */
    }
    ck_assert_int_eq(fclose(f), 0);
    double t0 = cpu_s();
    ck_assert_int_eq(hosts_add_file(&h, path, "test"), COMPI_ERR_INVALID_PARAM);
    ck_assert_int_eq(h.n, 0); /* refused before the first line */
    ck_assert(cpu_s() - t0 < 0.5);
    hosts_free(&h);
}
END_TEST

START_TEST(many_hosts_linear)
{
    char path[128];
    mpirun_hosts_t h = {0};
    snprintf(path, sizeof(path), "%s/many", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    int n = 0;
    long bytes = 0;
    while (bytes + 60 < (1 << 20)) {
        bytes += fprintf(f, "n%06d slots=2\n", n++);
    }
    fprintf(f, "n000001:3\nn%06d\n", n - 1); /* repeats add up */
    ck_assert_int_eq(fclose(f), 0);
    double t0 = cpu_s();
    ck_assert_int_eq(hosts_add_file(&h, path, "test"), COMPI_OK);
    double t = cpu_s() - t0;
    ck_assert_int_eq(h.n, n);
    ck_assert_int_eq(hosts_total_slots(&h), 2 * n + 4);
    ck_assert_int_eq(h.host[1].slots, 5);
    ck_assert_int_eq(h.host[n - 1].slots, 3);
    char last[16];
    snprintf(last, sizeof(last), "n%06d", n - 1);
    ck_assert_str_eq(h.host[n - 1].name, last);
    /* 65 thousand hosts: tens of milliseconds when each line costs the same, seconds when
       each new host is compared with all before it */
    ck_assert_msg(t < 1.0, "%d hosts read in %.2f s of CPU", n, t);
    hosts_free(&h);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {fifo_refused, too_big_refused_unread, many_hosts_linear};
    const unit_case_t tc = {.suite = "hosts",
                            .name = "hostfile",
                            .setup = setup,
                            .teardown = teardown,
                            .timeout_s = 20};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
