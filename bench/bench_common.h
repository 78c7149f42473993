/*
 * bench_common.h: what the point-to-point benchmarks share (options, buffers, statistics,
 * output).  Standard MPI and C only, so the same source builds with any MPI's mpicc.
 *
 * Ownership: bench_alloc() returns memory the caller frees with free(); the statistics
 * helpers copy their input and never keep a pointer to it.  Nothing here is thread-safe
 * or meant to be: the benchmarks are single-threaded.
 */
#ifndef COMPI_BENCH_COMMON_H
#define COMPI_BENCH_COMMON_H

#include <stddef.h>

/* Largest message any benchmark sends: 4 MiB, the top of the comparison range. */
#define BENCH_MAX_BYTES ((size_t)4 << 20)

/* Tag of the one control message per (trial, size); distinct from the data tags. */
#define BENCH_CTL_TAG 99

typedef struct bench_opts {
    int trials;        /* timed repetitions of the whole size sweep */
    size_t max_bytes;  /* last size of the sweep (a power of two) */
    double iter_scale; /* multiplies every iteration count (quick runs: 0.1) */
    int window;        /* messages in flight per window (bandwidth only) */
} bench_opts_t;

/* Fills opts from argv (-t trials, -m max bytes, -i iteration scale, -w window when
 * has_window).  On a bad option, rank 0 prints the usage and every rank calls
 * MPI_Finalize and exits 2, so a typo never turns into a hang. */
void bench_parse_args(int argc, char **argv, int has_window, bench_opts_t *opts);
/* The same with another default for -m (the collectives stop at 1 MiB per rank). */
void bench_parse_args_max(int argc, char **argv, int has_window, size_t default_max,
                          bench_opts_t *opts);

/* Page-aligned buffer, every byte written once, so first-touch page faults land outside
 * the timed loops.  Aborts the job when memory runs out. */
void *bench_alloc(size_t bytes);

/* Number of timed repetitions for one (trial, size), decided by rank 0 and sent to rank 1:
 * `planned`, unless the warm-up (`unit_sec` per repetition) says that would take longer
 * than `target_sec`, in which case as many as fit in the target, but at least `floor`.
 * The cap keeps a run's length bounded when the machine is loaded (busy-polling ranks
 * that lose their core make every round trip cost a scheduler time slice). */
long bench_agree_count(int rank, long planned, long floor, double unit_sec, double target_sec);

/* Median (mean of the two middle values for an even count) and minimum of n values. */
double bench_median(const double *v, int n);
double bench_min(const double *v, int n);

/* Prints a '#' comment block naming the benchmark, the MPI library (from
 * MPI_Get_library_version), the processor and the options, then the CSV column line. */
void bench_print_header(const char *name, const char *what, const bench_opts_t *opts);
/* Only the '#' comment block of bench_print_header, for programs with other columns. */
void bench_print_comments(const char *name, const char *what, const bench_opts_t *opts);

/* MPI_Abort with a message on stderr: the benchmarks' only error path. */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
