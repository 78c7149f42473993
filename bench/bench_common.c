/*
 * bench_common.c: option parsing, buffers, statistics and the output header shared by
 * pingpong.c and bandwidth.c.  Built by each MPI's own mpicc (bench/run-p2p.sh), so it
 * uses nothing beyond standard MPI, C11 and POSIX.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage_and_exit(const char *prog, int has_window, size_t default_max)
{
    int rank = 0;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        fprintf(stderr,
                "usage: %s [-t trials] [-m max_bytes] [-i iteration_scale]%s\n"
                "  -t  timed sweeps over all sizes (default 7); the median is reported\n"
                "  -m  largest message in bytes, a power of two (default %zu)\n"
                "  -i  multiply iteration counts (default 1.0; 0.1 for a quick run)\n"
                "%s",
                prog, has_window ? " [-w window]" : "", default_max,
                has_window ? "  -w  messages in flight per window (default 64)\n" : "");
    }
    MPI_Finalize();
    exit(2);
}

static int is_power_of_two(size_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

void bench_parse_args(int argc, char **argv, int has_window, bench_opts_t *opts)
{
    bench_parse_args_max(argc, argv, has_window, BENCH_MAX_BYTES, opts);
}

void bench_parse_args_max(int argc, char **argv, int has_window, size_t default_max,
                          bench_opts_t *opts)
{
    int c, rank = 0;
    char *end;

    opts->trials = 7;
    opts->max_bytes = default_max;
    opts->iter_scale = 1.0;
    opts->window = 64;

    /* Every rank parses the same argv, so all ranks agree on the sweep without talking;
     * only rank 0 complains about a bad option. */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    opterr = rank == 0;
    while ((c = getopt(argc, argv, has_window ? "t:m:i:w:h" : "t:m:i:h")) != -1) {
        switch (c) {
        case 't':
            opts->trials = (int)strtol(optarg, &end, 10);
            if (*end != '\0' || opts->trials < 1 || opts->trials > 1000)
                usage_and_exit(argv[0], has_window, default_max);
            break;
        case 'm':
            opts->max_bytes = (size_t)strtoull(optarg, &end, 10);
            if (*end != '\0' || !is_power_of_two(opts->max_bytes) ||
                opts->max_bytes > ((size_t)1 << 30))
                usage_and_exit(argv[0], has_window, default_max);
            break;
        case 'i':
            opts->iter_scale = strtod(optarg, &end);
            if (*end != '\0' || !(opts->iter_scale > 0.0) || opts->iter_scale > 1000.0)
                usage_and_exit(argv[0], has_window, default_max);
            break;
        case 'w':
            opts->window = (int)strtol(optarg, &end, 10);
            if (*end != '\0' || opts->window < 1 || opts->window > 4096)
                usage_and_exit(argv[0], has_window, default_max);
            break;
        default:
            usage_and_exit(argv[0], has_window, default_max);
        }
    }
}

void *bench_alloc(size_t bytes)
{
    void *p = NULL;
    /* posix_memalign rejects size 0 on some libcs; one page keeps the pointer valid. */
    size_t n = bytes ? bytes : 4096;

    if (posix_memalign(&p, 4096, n) != 0)
        bench_die("cannot allocate %zu bytes", n);
    memset(p, 0, n);
    return p;
}

long bench_agree_count(int rank, long planned, long floor, double unit_sec, double target_sec)
{
    long n = planned;

    if (rank == 0) {
        if (unit_sec * (double)planned > target_sec)
            n = (long)(target_sec / unit_sec);
        if (n < floor)
            n = floor;
        MPI_Send(&n, 1, MPI_LONG, 1, BENCH_CTL_TAG, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&n, 1, MPI_LONG, 0, BENCH_CTL_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double bench_median(const double *v, int n)
{
    double *s, m;

    if (n <= 0)
        return 0.0;
    s = malloc((size_t)n * sizeof(*s));
    if (s == NULL)
        bench_die("out of memory sorting %d values", n);
    memcpy(s, v, (size_t)n * sizeof(*s));
    qsort(s, (size_t)n, sizeof(*s), cmp_double);
    m = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

double bench_min(const double *v, int n)
{
    double m = n > 0 ? v[0] : 0.0;

    for (int i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

void bench_print_header(const char *name, const char *what, const bench_opts_t *opts)
{
    bench_print_comments(name, what, opts);
    printf("benchmark,bytes,median_usec,min_usec,mbps,max_mbps,iters\n");
    fflush(stdout);
}

void bench_print_comments(const char *name, const char *what, const bench_opts_t *opts)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0, size = 0;

    MPI_Get_library_version(lib, &len);
    MPI_Get_processor_name(host, &len);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Library strings are often several lines long; keep only the first in the header. */
    lib[strcspn(lib, "\r\n")] = '\0';

    printf("# %s: %s\n", name, what);
    printf("# library: %s\n", lib);
    printf("# host: %s, ranks: %d, MPI_Wtick: %.3g s\n", host, size, MPI_Wtick());
    printf("# trials: %d, max bytes: %zu, iteration scale: %g", opts->trials, opts->max_bytes,
           opts->iter_scale);
    if (strcmp(name, "bandwidth") == 0)
        printf(", window: %d", opts->window);
    printf("\n# MB = 10^6 bytes; usec = microseconds\n");
    printf("# iters: fewest timed repetitions in any trial (capped by time on a loaded machine)\n");
    fflush(stdout);
}

void bench_die(const char *fmt, ...)
{
    va_list ap;
    int rank = -1;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "bench (rank %d): ", rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* MPI_Abort should not return; this keeps the noreturn promise if it does */
}
