/*
 * tramp_bench.c: what the trampolines cost, measured from inside the library.
 *
 * Built against lib/libcompi.la (the library's internals, like tools/compi_info.c) by
 * bench/run-tramp.sh, and run as a singleton (MPI_Init without a launcher: one rank), so
 * every closure it meets does (almost) nothing and what is left is the machinery:
 *
 *   hit    tramp_run(call) on a cached key, against calling a closure for the same key
 *          directly (closure->fn(closure, call)), in a loop of N calls; the difference is
 *          the trampoline: packing the key, one hash, one bucket probe.  Each pair of
 *          loops is repeated and the medians are compared.  The closures are the ones the
 *          default creators build at 1 rank (a barrier that sends nothing, a bcast that
 *          sends nothing, an 8-byte allreduce that copies 8 bytes); an empty closure
 *          (fn returns at once) shows what one indirect call in the loop costs.
 *
 *                tramp_run ──key──► bucket ──► closure->fn     (timed: A)
 *                                              closure->fn     (timed: B)
 *                hit cost = A - B
 *
 *   miss   the first call of a key never seen: the creator chain runs in Guile, the
 *          closure description becomes a closure, the closure is cached and run.
 *          Measured call by call over many fresh keys (allreduce and bcast with a new
 *          byte count each time; barrier on a new communicator each time, whose cache
 *          is also created then), and bridge_build_closure alone (Guile and closure
 *          building without the cache and the run).
 *
 *   init   bridge_init (Guile start-up, compi's modules, the default creators) timed on
 *          its own before MPI_Init, then MPI_Init (which finds Guile already up).  With
 *          --init-only the program stops there, so a script can run it several times.
 *
 * Output: "key value unit" lines, one per number, then nothing else; run-tramp.sh turns
 * them into bench/results/tramp.txt.  A timing is measured and printed, never asserted.
 */
#include "scheme/bridge.h"
#include "core/coll/coll.h"
#include "trampolines/tramp.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HIT_CALLS 1000000 /* calls per timed loop */
#define HIT_REPS 15       /* timed loops per variant; the median is kept */
#define MISS_KEYS 200     /* fresh keys per miss series (the cache keeps 256 by default) */
#define MISS_COMMS 50     /* fresh communicators for the barrier misses */

static double now_sec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* sorts v in place */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void die(const char *what, compi_status_t st)
{
    fprintf(stderr, "tramp_bench: %s failed (status %d)\n", what, (int)st);
    exit(1);
}

static compi_status_t empty_fn(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    (void)call;
    return COMPI_OK;
}

/* Calls of one key: a barrier, an 8-byte bcast, an allreduce of `count` floats. */
static void make_call(coll_call_t *call, coll_kind_t kind, compi_comm_t *comm, size_t count,
                      float *sbuf, float *rbuf)
{
    compi_datatype_t *dt = dt_from_handle(kind == COLL_BCAST ? MPI_BYTE : MPI_FLOAT);

    memset(call, 0, sizeof(*call));
    call->kind = kind;
    call->comm = comm;
    call->root = -1;
    if (kind == COLL_BARRIER)
        return;
    call->sbuf = sbuf;
    call->rbuf = rbuf;
    call->scount = call->rcount = count;
    call->sdt = call->rdt = dt;
    call->bytes = count * dt->size;
    if (kind == COLL_BCAST) {
        call->root = 0;
        call->sbuf = rbuf;
    } else {
        call->op = op_from_handle(MPI_SUM);
    }
}

/* ns per call of N trampoline calls (via = 1) or N direct calls of c (via = 0) */
static double loop_ns(const coll_call_t *call, coll_closure_t *c, int via)
{
    compi_status_t st = COMPI_OK;
    double t0 = now_sec();

    if (via) {
        for (long i = 0; i < HIT_CALLS; i++)
            st |= tramp_run(call);
    } else {
        for (long i = 0; i < HIT_CALLS; i++)
            st |= c->fn(c, call);
    }
    if (st != COMPI_OK)
        die("a timed call", st);
    return (now_sec() - t0) * 1e9 / HIT_CALLS;
}

/* One hit measurement: fills the cache, builds the same closure for direct calls, times
 * both in alternating loops. */
static void bench_hit(const char *label, const coll_call_t *call)
{
    char err[1024];
    coll_closure_t *c = NULL;
    double via[HIT_REPS], direct[HIT_REPS], diff[HIT_REPS];
    compi_status_t st;

    if ((st = tramp_run(call)) != COMPI_OK)
        die("the first tramp_run", st);
    if ((st = bridge_build_closure(call, &c, err, sizeof(err))) != COMPI_OK) {
        fprintf(stderr, "tramp_bench: %s\n", err);
        die("bridge_build_closure", st);
    }
    for (int r = 0; r < HIT_REPS; r++) {
        via[r] = loop_ns(call, c, 1);
        direct[r] = loop_ns(call, c, 0);
        diff[r] = via[r] - direct[r];
    }
    printf("hit.%s.closure %s\n", label, c->name);
    printf("hit.%s.direct_ns %.2f ns\n", label, median(direct, HIT_REPS));
    printf("hit.%s.tramp_ns %.2f ns\n", label, median(via, HIT_REPS));
    /* the median of the pairwise differences: each pair ran back to back */
    printf("hit.%s.cost_ns %.2f ns\n", label, median(diff, HIT_REPS));
    coll_closure_release(c);
}

static void bench_empty(void)
{
    coll_closure_t *c = coll_closure_new(empty_fn, NULL, NULL, "empty");
    coll_call_t call;
    double v[HIT_REPS];

    if (c == NULL)
        die("coll_closure_new", COMPI_ERR_NO_MEMORY);
    make_call(&call, COLL_BARRIER, comm_from_handle(MPI_COMM_WORLD), 0, NULL, NULL);
    for (int r = 0; r < HIT_REPS; r++)
        v[r] = loop_ns(&call, c, 0);
    printf("hit.empty.direct_ns %.2f ns\n", median(v, HIT_REPS));
    coll_closure_release(c);
}

static void report_series(const char *label, double *us, int n)
{
    double first = us[0];

    printf("miss.%s.first_us %.1f us\n", label, first);
    printf("miss.%s.median_us %.1f us\n", label, median(us, n));
    printf("miss.%s.min_us %.1f us\n", label, us[0]);
    printf("miss.%s.p90_us %.1f us\n", label, us[(n * 9) / 10]);
    printf("miss.%s.keys %d\n", label, n);
}

/* misses of `kind` with a fresh count each time; build_only: bridge_build_closure alone */
static void bench_miss(const char *label, coll_kind_t kind, size_t base, int build_only,
                       float *sbuf, float *rbuf)
{
    compi_comm_t *world = comm_from_handle(MPI_COMM_WORLD);
    double us[MISS_KEYS];
    char err[1024];

    for (int i = 0; i < MISS_KEYS; i++) {
        coll_call_t call;
        coll_closure_t *c = NULL;
        compi_status_t st;
        double t0;

        make_call(&call, kind, world, base + (size_t)i, sbuf, rbuf);
        t0 = now_sec();
        st = build_only ? bridge_build_closure(&call, &c, err, sizeof(err)) : tramp_run(&call);
        us[i] = (now_sec() - t0) * 1e6;
        if (st != COMPI_OK)
            die(build_only ? "bridge_build_closure" : "tramp_run (miss)", st);
        if (c != NULL)
            coll_closure_release(c);
    }
    report_series(label, us, MISS_KEYS);
}

static void bench_miss_comms(void)
{
    double us[MISS_COMMS];

    for (int i = 0; i < MISS_COMMS; i++) {
        MPI_Comm dup;
        coll_call_t call;
        compi_status_t st;
        double t0;

        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        make_call(&call, COLL_BARRIER, comm_from_handle(dup), 0, NULL, NULL);
        t0 = now_sec();
        st = tramp_run(&call);
        us[i] = (now_sec() - t0) * 1e6;
        if (st != COMPI_OK)
            die("tramp_run (barrier miss)", st);
        MPI_Comm_free(&dup);
    }
    report_series("barrier_new_comm", us, MISS_COMMS);
}

int main(int argc, char **argv)
{
    int init_only = argc > 1 && strcmp(argv[1], "--init-only") == 0;
    char err[1024];
    compi_status_t st;
    double t0, t1, t2;
    int size;
    float *sbuf, *rbuf;
    coll_call_t call;

    if (argc > 1 && !init_only) {
        fprintf(stderr, "usage: tramp_bench [--init-only]  (run it without mpirun)\n");
        return 2;
    }
    t0 = now_sec();
    if ((st = bridge_init(err, sizeof(err))) != COMPI_OK) {
        fprintf(stderr, "tramp_bench: %s\n", err);
        die("bridge_init", st);
    }
    t1 = now_sec();
    MPI_Init(&argc, &argv);
    t2 = now_sec();
    printf("init.bridge_init_ms %.2f ms\n", (t1 - t0) * 1e3);
    printf("init.mpi_init_after_bridge_ms %.2f ms\n", (t2 - t1) * 1e3);
    if (init_only) {
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 1) {
        fprintf(stderr, "tramp_bench: run it as a singleton (no mpirun), not at %d ranks\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* the biggest allreduce of the miss series: MISS_KEYS * 2 floats */
    sbuf = calloc(4 * MISS_KEYS, sizeof(float));
    rbuf = calloc(4 * MISS_KEYS, sizeof(float));
    if (sbuf == NULL || rbuf == NULL)
        die("calloc", COMPI_ERR_NO_MEMORY);

    bench_empty();
    make_call(&call, COLL_BARRIER, comm_from_handle(MPI_COMM_WORLD), 0, sbuf, rbuf);
    bench_hit("barrier", &call);
    make_call(&call, COLL_BCAST, comm_from_handle(MPI_COMM_WORLD), 8, sbuf, rbuf);
    bench_hit("bcast_8B", &call);
    make_call(&call, COLL_ALLREDUCE, comm_from_handle(MPI_COMM_WORLD), 2, sbuf, rbuf);
    bench_hit("allreduce_8B", &call);

    /* keys the hit loops did not use: counts from 3 floats and 16 bytes up */
    bench_miss("allreduce", COLL_ALLREDUCE, 3, 0, sbuf, rbuf);
    bench_miss("bcast", COLL_BCAST, 16, 0, sbuf, rbuf);
    bench_miss_comms();
    bench_miss("allreduce_build_only", COLL_ALLREDUCE, 3 + MISS_KEYS, 1, sbuf, rbuf);

    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
