/*
 * op_bench.c: the speed of an MPI library's reduction engine alone, through the public
 * MPI_Reduce_local (inoutbuf = inbuf op inoutbuf), against memcpy of the same bytes.
 * One rank, no communication: what a reduce or allreduce pays per byte to combine a
 * received block.  Standard MPI and C only, so each MPI's own mpicc builds it.
 *
 * For each trial (outermost), each case (an op on a type, then memcpy) and each size
 * (64 B ... -m, doubling): in the first trial an untimed call checks every element of
 * its result on known inputs; then the buffers are set to ones, one call estimates the
 * cost, then a loop of back-to-back calls sized to take about 2 ms
 * (at least 3 calls) is timed.  The buffers stay the same between calls, so a size that
 * fits a cache level measures that level; 2 x 16 MiB goes past most L2s and some L3s.
 *
 * Output: '#' comments (library, host, options), then CSV
 *   op,type,bytes,median_usec,min_usec,gbps,max_gbps,iters
 * where bytes is the size of one vector, gbps = bytes / median time (10^9 B/s), and
 * iters the fewest calls any trial timed.  A reduction reads 2 x bytes and writes
 * bytes; memcpy reads and writes bytes once.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_BYTES 64
#define TARGET_SEC 2e-3
#define MAX_ITERS 1000000L

/* how the check reads an element and computes the expected value */
enum kind { K_SIGNED, K_UNSIGNED, K_FLOAT };

typedef struct bench_case {
    const char *op_name, *type_name;
    MPI_Op op;             /* MPI_OP_NULL: memcpy */
    MPI_Datatype type;
    size_t size;
    enum kind kind;
} bench_case_t;

static int ncases;
static bench_case_t cases[32];

static void add(const char *on, MPI_Op op, const char *tn, MPI_Datatype t, size_t sz,
                enum kind k)
{
    cases[ncases++] = (bench_case_t){on, tn, op, t, sz, k};
}

/* MPI handles are not constant expressions in every MPI: the table is filled at run time */
static void fill_cases(void)
{
    add("sum", MPI_SUM, "double", MPI_DOUBLE, 8, K_FLOAT);
    add("sum", MPI_SUM, "float", MPI_FLOAT, 4, K_FLOAT);
    add("sum", MPI_SUM, "int32", MPI_INT32_T, 4, K_SIGNED);
    add("sum", MPI_SUM, "int64", MPI_INT64_T, 8, K_SIGNED);
    add("sum", MPI_SUM, "int8", MPI_INT8_T, 1, K_SIGNED);
    add("prod", MPI_PROD, "double", MPI_DOUBLE, 8, K_FLOAT);
    add("max", MPI_MAX, "double", MPI_DOUBLE, 8, K_FLOAT);
    add("min", MPI_MIN, "int32", MPI_INT32_T, 4, K_SIGNED);
    add("max", MPI_MAX, "int64", MPI_INT64_T, 8, K_SIGNED);
    add("max", MPI_MAX, "uint8", MPI_UINT8_T, 1, K_UNSIGNED);
    add("band", MPI_BAND, "uint64", MPI_UINT64_T, 8, K_UNSIGNED);
    add("bxor", MPI_BXOR, "uint16", MPI_UINT16_T, 2, K_UNSIGNED);
    add("lor", MPI_LOR, "int32", MPI_INT32_T, 4, K_SIGNED);
    add("memcpy", MPI_OP_NULL, "byte", MPI_BYTE, 1, K_UNSIGNED);
}

static void put(const bench_case_t *c, void *buf, size_t i, long long v)
{
    char *p = (char *)buf + i * c->size;
    if (c->kind == K_FLOAT) {
        if (c->size == 4) {
            float f = (float)v;
            memcpy(p, &f, 4);
        } else {
            double d = (double)v;
            memcpy(p, &d, 8);
        }
        return;
    }
    /* little- or big-endian alike: write the low bytes of a same-size integer */
    switch (c->size) {
    case 1: *(int8_t *)p = (int8_t)v; break;
    case 2: *(int16_t *)p = (int16_t)v; break;
    case 4: *(int32_t *)p = (int32_t)v; break;
    default: *(int64_t *)p = (int64_t)v; break;
    }
}

static long long get(const bench_case_t *c, const void *buf, size_t i)
{
    const char *p = (const char *)buf + i * c->size;
    if (c->kind == K_FLOAT) {
        if (c->size == 4) {
            float f;
            memcpy(&f, p, 4);
            return (long long)f;
        }
        double d;
        memcpy(&d, p, 8);
        return (long long)d;
    }
    if (c->kind == K_UNSIGNED) {
        switch (c->size) {
        case 1: return *(const uint8_t *)p;
        case 2: return *(const uint16_t *)p;
        case 4: return *(const uint32_t *)p;
        default: return (long long)*(const uint64_t *)p;
        }
    }
    switch (c->size) {
    case 1: return *(const int8_t *)p;
    case 2: return *(const int16_t *)p;
    case 4: return *(const int32_t *)p;
    default: return *(const int64_t *)p;
    }
}

/* small inputs whose results fit every type: a in 1..7, b in 1..5 */
static long long in_val(size_t i) { return (long long)(i % 7) + 1; }
static long long io_val(size_t i) { return (long long)(i % 5) + 1; }

static long long expect(const bench_case_t *c, long long a, long long b)
{
    const char *o = c->op_name;
    if (strcmp(o, "sum") == 0) return a + b;
    if (strcmp(o, "prod") == 0) return a * b;
    if (strcmp(o, "max") == 0) return a > b ? a : b;
    if (strcmp(o, "min") == 0) return a < b ? a : b;
    if (strcmp(o, "band") == 0) return a & b;
    if (strcmp(o, "bxor") == 0) return a ^ b;
    if (strcmp(o, "lor") == 0) return a || b;
    return a; /* memcpy */
}

static void run(const bench_case_t *c, const void *in, void *io, size_t bytes)
{
    if (c->op == MPI_OP_NULL) {
        memcpy(io, in, bytes);
    } else {
        MPI_Reduce_local(in, io, (int)(bytes / c->size), c->type, c->op);
    }
}

/* one call on known inputs; every element is checked */
static void check(const bench_case_t *c, void *in, void *io, size_t bytes)
{
    size_t n = bytes / c->size;
    for (size_t i = 0; i < n; i++) {
        put(c, in, i, in_val(i));
        put(c, io, i, io_val(i));
    }
    run(c, in, io, bytes);
    for (size_t i = 0; i < n; i++) {
        long long want = expect(c, in_val(i), io_val(i)), got = get(c, io, i);
        if (got != want)
            bench_die("%s %s, %zu bytes: element %zu is %lld, expected %lld", c->op_name,
                      c->type_name, bytes, i, got, want);
    }
}

/* the timed calls run on ones: products stay 1, sums grow slowly, nothing becomes a
   denormal (whatever the case before left in the buffers) */
static void fill_ones(const bench_case_t *c, void *buf, size_t bytes)
{
    size_t n = bytes / c->size;
    if (c->kind == K_FLOAT && c->size == 4) {
        float *f = buf;
        for (size_t i = 0; i < n; i++)
            f[i] = 1.0f;
    } else if (c->kind == K_FLOAT) {
        double *d = buf;
        for (size_t i = 0; i < n; i++)
            d[i] = 1.0;
    } else if (c->size == 1) {
        memset(buf, 1, bytes);
    } else if (c->size == 2) {
        int16_t *p = buf;
        for (size_t i = 0; i < n; i++)
            p[i] = 1;
    } else if (c->size == 4) {
        int32_t *p = buf;
        for (size_t i = 0; i < n; i++)
            p[i] = 1;
    } else {
        int64_t *p = buf;
        for (size_t i = 0; i < n; i++)
            p[i] = 1;
    }
}

int main(int argc, char **argv)
{
    bench_opts_t opts;

    MPI_Init(&argc, &argv);
    bench_parse_args_max(argc, argv, 0, (size_t)16 << 20, &opts);
    fill_cases();

    int nsizes = 0;
    for (size_t b = MIN_BYTES; b <= opts.max_bytes; b *= 2)
        nsizes++;
    void *in = bench_alloc(opts.max_bytes), *io = bench_alloc(opts.max_bytes);
    size_t cells = (size_t)ncases * (size_t)nsizes;
    double *usec = calloc(cells * (size_t)opts.trials, sizeof(*usec));
    long *iters = malloc(cells * sizeof(*iters));
    if (usec == NULL || iters == NULL)
        bench_die("out of memory");
    for (size_t k = 0; k < cells; k++)
        iters[k] = MAX_ITERS;

    bench_print_comments("op_bench", "MPI_Reduce_local (one rank) against memcpy", &opts);
    printf("op,type,bytes,median_usec,min_usec,gbps,max_gbps,iters\n");
    fflush(stdout);

    for (int t = 0; t < opts.trials; t++) {
        for (int ci = 0; ci < ncases; ci++) {
            const bench_case_t *c = &cases[ci];
            int si = 0;
            for (size_t bytes = MIN_BYTES; bytes <= opts.max_bytes; bytes *= 2, si++) {
                if (t == 0)
                    check(c, in, io, bytes);
                fill_ones(c, in, bytes);
                fill_ones(c, io, bytes);
                double t0 = MPI_Wtime();
                run(c, in, io, bytes);
                double one = MPI_Wtime() - t0;
                long n = one > 0 ? (long)(TARGET_SEC / one) : MAX_ITERS;
                n = (long)((double)n * opts.iter_scale);
                n = n < 3 ? 3 : n > MAX_ITERS ? MAX_ITERS : n;
                t0 = MPI_Wtime();
                for (long k = 0; k < n; k++)
                    run(c, in, io, bytes);
                double el = MPI_Wtime() - t0;
                size_t cell = (size_t)ci * (size_t)nsizes + (size_t)si;
                usec[cell * (size_t)opts.trials + (size_t)t] = el / (double)n * 1e6;
                if (n < iters[cell])
                    iters[cell] = n;
            }
        }
    }

    for (int ci = 0; ci < ncases; ci++) {
        int si = 0;
        for (size_t bytes = MIN_BYTES; bytes <= opts.max_bytes; bytes *= 2, si++) {
            size_t cell = (size_t)ci * (size_t)nsizes + (size_t)si;
            const double *v = &usec[cell * (size_t)opts.trials];
            double med = bench_median(v, opts.trials), mn = bench_min(v, opts.trials);
            printf("%s,%s,%zu,%.4f,%.4f,%.3f,%.3f,%ld\n", cases[ci].op_name,
                   cases[ci].type_name, bytes, med, mn, (double)bytes / med / 1e3,
                   (double)bytes / mn / 1e3, iters[cell]);
        }
    }
    free(usec);
    free(iters);
    free(in);
    free(io);
    MPI_Finalize();
    return 0;
}
