/*
 * bridge_probe.c -- helper program for the tests of tests/scheme/: drives the Guile
 * bridge the way MPI_Init will, without MPI.
 *
 *   bridge_probe [-t] [-c] [-r KIND] [CONFIG-LIST...]
 *
 * Starts the bridge, loads each CONFIG-LIST (colon-separated, as COMPI_COLL_CONFIG; with
 * none given, the list of bridge_config_list()), then:
 *   -t        prints "bridge_init_ms N cpu_ms M" (wall and CPU time of bridge_init)
 *   -c        prints "KIND COUNT" for every kind, then "  DESCRIPTION" per creator
 *   -r KIND   runs KIND's creators for a 4-rank call, prints "result: VALUE"
 * A failure prints "compi: MESSAGE" on stderr and exits 1, as MPI_Init will abort.
 */
#include "bridge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int fail(const char *msg)
{
    fprintf(stderr, "compi: %s\n", msg);
    return 1;
}

static int print_creators(void)
{
    char buf[512];

    for (int k = 0; k < BRIDGE_KIND_COUNT; k++) {
        size_t n = 0;
        if (bridge_creator_count((bridge_kind_t)k, &n) != COMPI_OK) {
            return fail("cannot count creators");
        }
        printf("%s %zu\n", bridge_kind_name((bridge_kind_t)k), n);
        for (size_t i = 0; i < n; i++) {
            if (bridge_creator_describe((bridge_kind_t)k, i, buf, sizeof(buf)) != COMPI_OK) {
                return fail(buf);
            }
            printf("  %s\n", buf);
        }
    }
    return 0;
}

static int run_kind(const char *name)
{
    char result[512], errbuf[1024];
    bridge_call_desc_t desc = {.kind = bridge_kind_from_name(name),
                               .size = 4,
                               .rank = 0,
                               .root = 0,
                               .bytes = 8,
                               .datatype = "MPI_INT",
                               .op = "MPI_SUM",
                               .commutative = 1,
                               .comm = "MPI_COMM_WORLD"};

    if (desc.kind == BRIDGE_KIND_COUNT) {
        return fail("unknown kind");
    }
    if (bridge_run_creators(&desc, result, sizeof(result), errbuf, sizeof(errbuf)) != COMPI_OK) {
        return fail(errbuf);
    }
    printf("result: %s\n", result);
    return 0;
}

int main(int argc, char **argv)
{
    int timing = 0, creators = 0, opt;
    const char *run = NULL;
    char errbuf[1024];

    while ((opt = getopt(argc, argv, "tcr:")) != -1) {
        switch (opt) {
        case 't':
            timing = 1;
            break;
        case 'c':
            creators = 1;
            break;
        case 'r':
            run = optarg;
            break;
        default:
            fprintf(stderr, "usage: %s [-t] [-c] [-r KIND] [CONFIG-LIST...]\n", argv[0]);
            return 2;
        }
    }

    /* CPU time too: on a busy machine the wall time mostly measures the neighbours */
    double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    if (bridge_init(errbuf, sizeof(errbuf)) != COMPI_OK) {
        return fail(errbuf);
    }
    double t1 = now_ms(CLOCK_MONOTONIC), c1 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    if (timing) {
        printf("bridge_init_ms %.2f cpu_ms %.2f\n", t1 - t0, c1 - c0);
    }

    if (optind == argc) {
        if (bridge_load_config_list(bridge_config_list(), errbuf, sizeof(errbuf)) != COMPI_OK) {
            return fail(errbuf);
        }
    }
    for (int i = optind; i < argc; i++) {
        if (bridge_load_config_list(argv[i], errbuf, sizeof(errbuf)) != COMPI_OK) {
            return fail(errbuf);
        }
    }
    if (creators && print_creators() != 0) {
        return 1;
    }
    if (run && run_kind(run) != 0) {
        return 1;
    }
    return 0;
}
