/*
 * bridge_probe.c -- helper program for the tests of tests/scheme/: drives the Guile
 * bridge the way MPI_Init and the trampolines do, without MPI.
 *
 *   bridge_probe [-t] [-c] [-b CALL]... [CONFIG-LIST...]
 *
 * Starts the bridge, loads each CONFIG-LIST (colon-separated, as COMPI_COLL_CONFIG; with
 * none given, the list of bridge_config_list()), then:
 *   -t        prints "bridge_init_ms N cpu_ms M" (wall and CPU time of bridge_init)
 *   -c        prints "KIND COUNT" for every kind, then "  DESCRIPTION" per creator
 *   -b CALL   builds the closure for a hand-made call (bridge_build_closure, the
 *             trampolines' miss path) and prints "closure: NAME", with " (scheme)" for a
 *             Scheme closure.  CALL is KIND[,size=N][,rank=R][,root=R][,bytes=B]
 *             [,op=sum|max|noncommutative][,dt=int|double|derived][,comm=NAME]
 *             [,topo=cart|graph|dist-graph|none][,mode=blocking|nonblocking|persistent]:
 *             defaults size 4, rank 0, root 0 for
 *             rooted kinds, bytes 8 (barrier 0), op sum for reductions, dt int, comm
 *             MPI_COMM_WORLD, topo cart for the neighbourhood kinds and none otherwise,
 *             mode blocking.
 * A failure prints "compi: MESSAGE" on stderr and exits 1, as MPI_Init and the
 * trampolines do.  No communication happens: building a closure reads only the
 * communicator's size, rank and name, so a communicator is faked here.
 */
#include "scheme/bridge.h"
#include "core/coll/coll.h"
#include "core/comm/topo.h"
#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/op/op.h"

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

static void user_noncomm(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

static int is_reduction(coll_kind_t k)
{
    return k == COLL_REDUCE || k == COLL_ALLREDUCE || k == COLL_REDUCE_SCATTER ||
           k == COLL_REDUCE_SCATTER_BLOCK || k == COLL_SCAN || k == COLL_EXSCAN;
}

static int is_rooted(coll_kind_t k)
{
    return k == COLL_BCAST || k == COLL_REDUCE || k == COLL_GATHER || k == COLL_GATHERV ||
           k == COLL_SCATTER || k == COLL_SCATTERV;
}

static int is_neighbor(coll_kind_t k)
{
    return k >= COLL_NEIGHBOR_ALLGATHER && k <= COLL_NEIGHBOR_ALLTOALLW;
}

static int build(const char *spec)
{
    /* what the communicator's topology looks like to creators: its kind only */
    static comm_topo_t topos[] = {{.kind = TOPO_CART}, {.kind = TOPO_GRAPH},
                                  {.kind = TOPO_DIST_GRAPH}};
    char topo[16] = "";
    static compi_op_t noncomm = {
        .handle = 0x7777, .commutative = 0, .user_fn = user_noncomm, .refcount = 1, .name = "user"};
    compi_comm_t comm = {.size = 4, .rank = 0};
    coll_call_t call = {.root = -1};
    char *copy = strdup(spec), *save = NULL, errbuf[2048], op[32] = "sum", dt[32] = "int";
    long root = 0;

    snprintf(comm.name, sizeof(comm.name), "MPI_COMM_WORLD");
    call.bytes = 8;
    char *kind = strtok_r(copy, ",", &save);
    bridge_kind_t k = kind ? bridge_kind_from_name(kind) : BRIDGE_KIND_COUNT;
    if (k == BRIDGE_KIND_COUNT) {
        free(copy);
        return fail("-b: unknown kind");
    }
    call.kind = (coll_kind_t)k;
    call.bytes = call.kind == COLL_BARRIER ? 0 : 8;
    for (char *f = strtok_r(NULL, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        char *v = strchr(f, '=');
        if (v == NULL) {
            free(copy);
            return fail("-b: expected NAME=VALUE");
        }
        *v++ = '\0';
        if (strcmp(f, "size") == 0) {
            comm.size = atoi(v);
        } else if (strcmp(f, "rank") == 0) {
            comm.rank = atoi(v);
        } else if (strcmp(f, "root") == 0) {
            root = atol(v);
        } else if (strcmp(f, "bytes") == 0) {
            call.bytes = strtoull(v, NULL, 10);
        } else if (strcmp(f, "op") == 0) {
            snprintf(op, sizeof(op), "%s", v);
        } else if (strcmp(f, "dt") == 0) {
            snprintf(dt, sizeof(dt), "%s", v);
        } else if (strcmp(f, "comm") == 0) {
            snprintf(comm.name, sizeof(comm.name), "%s", v);
        } else if (strcmp(f, "topo") == 0) {
            snprintf(topo, sizeof(topo), "%s", v);
        } else if (strcmp(f, "mode") == 0) {
            call.mode = strcmp(v, "nonblocking") == 0  ? COLL_MODE_NONBLOCKING
                        : strcmp(v, "persistent") == 0 ? COLL_MODE_PERSISTENT
                                                       : COLL_MODE_BLOCKING;
        }
    }
    free(copy);

    compi_datatype_t *d = dt_from_handle(strcmp(dt, "double") == 0 ? MPI_DOUBLE : MPI_INT);
    if (strcmp(dt, "derived") == 0 && dt_create_contiguous(2, d, &d) != COMPI_OK) {
        return fail("cannot make a derived datatype");
    }
    /* topo=cart|graph|dist-graph|none; neighbourhood kinds get a Cartesian one unless
       told otherwise */
    if (topo[0] == '\0') {
        snprintf(topo, sizeof(topo), "%s", is_neighbor(call.kind) ? "cart" : "none");
    }
    comm.topo = strcmp(topo, "cart") == 0    ? &topos[0]
                : strcmp(topo, "graph") == 0 ? &topos[1]
                : strcmp(topo, "dist-graph") == 0 ? &topos[2]
                                                  : NULL;
    call.comm = &comm;
    call.sdt = call.rdt = d;
    call.scount = call.rcount = call.bytes / (d->size ? d->size : 1);
    if (is_rooted(call.kind)) {
        call.root = (int)root;
    }
    if (is_reduction(call.kind)) {
        call.op = strcmp(op, "noncommutative") == 0
                      ? &noncomm
                      : op_from_handle(strcmp(op, "max") == 0 ? MPI_MAX : MPI_SUM);
    }

    coll_closure_t *c;
    compi_status_t st = bridge_build_closure(&call, &c, errbuf, sizeof(errbuf));
    if (st == COMPI_OK) {
        printf("closure: %s%s\n", c->name, c->is_scheme ? " (scheme)" : "");
        coll_closure_release(c);
    }
    dt_release(d); /* the derived one; a predefined type is not counted */
    return st == COMPI_OK ? 0 : fail(errbuf);
}

int main(int argc, char **argv)
{
    int timing = 0, creators = 0, opt, nbuild = 0;
    const char *builds[argc];
    char errbuf[1024];

    while ((opt = getopt(argc, argv, "tcb:")) != -1) {
        switch (opt) {
        case 't':
            timing = 1;
            break;
        case 'c':
            creators = 1;
            break;
        case 'b':
            builds[nbuild++] = optarg;
            break;
        default:
            fprintf(stderr, "usage: %s [-t] [-c] [-b CALL]... [CONFIG-LIST...]\n", argv[0]);
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
    if (nbuild > 0 && (dt_init() != COMPI_OK || op_init() != COMPI_OK)) {
        return fail("cannot set up datatypes and ops");
    }
    for (int i = 0; i < nbuild; i++) {
        if (build(builds[i]) != 0) {
            return 1;
        }
    }
    return 0;
}
