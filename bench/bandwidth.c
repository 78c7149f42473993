/*
 * bandwidth.c: streaming point-to-point bandwidth from rank 0 to rank 1, in the manner of
 * the OSU bandwidth test.
 *
 *     rank 0                           rank 1
 *     MPI_Isend(n) x window ─────────► MPI_Irecv(n) x window (distinct buffers)
 *     MPI_Waitall                      MPI_Waitall
 *     MPI_Recv(ack) ◄───────────────── MPI_Send(ack, 4 bytes)
 *
 *     bandwidth(n) = n * window * iters / time of `iters` windows      (MB/s, MB = 10^6 B)
 *
 * Keeping a window of messages in flight measures how fast the transport moves data when
 * latency is hidden; the single small ack per window keeps the sender from running ahead
 * and costs one latency per window, which is why large windows are used.  Sizes go 1, 2,
 * 4 ... max bytes.  Every send of a window reads the same buffer (allowed since MPI-3.0);
 * every receive has its own slot, since the standard forbids overlapping receive buffers,
 * which costs rank 1 window * max bytes of memory (256 MiB at the defaults).
 *
 * As in pingpong.c, the trial loop is outermost, each (trial, size) starts with an
 * untimed warm-up window (which checks the payload), and rank 0 prints the median and
 * best over trials: "bandwidth,bytes,median_usec,min_usec,mbps,max_mbps,iters" where the
 * usec columns are the time per message, bytes / mbps, and iters the fewest windows timed
 * in a trial: the count falls from the planned one (at most MAX_WINDOWS, at most
 * BYTES_PER_TRIAL of data) when the warm-up window says a (trial, size) would take longer
 * than TARGET_SEC, which keeps a run short on a loaded machine.
 */
#include "bench_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BYTES_PER_TRIAL ((double)(128 << 20)) /* data moved per (trial, size), at most */
#define MAX_WINDOWS 500                       /* windows per trial for small messages */
#define MIN_WINDOWS 2
#define TARGET_SEC 0.05 /* time of one (trial, size) beyond which windows are cut */
#define TAG 23
#define ACK_TAG 24
#define STAMP(seed, it) ((char)(((seed) + (it)) % 255 + 1))

static int num_sizes(size_t max_bytes)
{
    int n = 1; /* 1 B */

    for (size_t s = 1; s < max_bytes; s <<= 1)
        n++;
    return n;
}

static long windows_for(size_t bytes, int window, double scale)
{
    double w = BYTES_PER_TRIAL / ((double)bytes * window);

    if (w > MAX_WINDOWS)
        w = MAX_WINDOWS;
    w *= scale;
    return w < MIN_WINDOWS ? MIN_WINDOWS : (long)w;
}

/* Runs `n` windows.  With a non-zero `verify` seed, rank 0 stamps the first and last byte
 * of each window's messages with a non-zero value derived from the seed (fresh buffers are
 * zero) and rank 1 checks every slot, so a transport that delivers into the wrong slot or
 * truncates shows up here instead of as a fast number.  Returns elapsed seconds (rank 0). */
static double run_windows(int rank, const bench_opts_t *o, char *sbuf, char *rbuf,
                          MPI_Request *reqs, MPI_Status *stats, size_t bytes, long n, int verify)
{
    int cnt = (int)bytes, ack = 0;
    double t0 = MPI_Wtime();

    for (long it = 0; it < n; it++) {
        if (rank == 0) {
            for (int w = 0; w < o->window; w++) {
                /* The send buffer is shared by the whole window, so a per-message stamp
                 * is impossible; the stamp changes per window instead. */
                if (verify && w == 0) {
                    sbuf[0] = sbuf[bytes - 1] = STAMP(verify, it);
                }
                MPI_Isend(sbuf, cnt, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &reqs[w]);
            }
            MPI_Waitall(o->window, reqs, stats);
            MPI_Recv(&ack, 1, MPI_INT, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < o->window; w++)
                MPI_Irecv(rbuf + (size_t)w * bytes, cnt, MPI_BYTE, 0, TAG, MPI_COMM_WORLD,
                          &reqs[w]);
            MPI_Waitall(o->window, reqs, stats);
            for (int w = 0; verify && w < o->window; w++) {
                const char *slot = rbuf + (size_t)w * bytes;

                if (slot[0] != STAMP(verify, it) || slot[bytes - 1] != STAMP(verify, it))
                    bench_die("bandwidth: corrupt payload at %zu bytes, window %ld slot %d", bytes,
                              it, w);
            }
            MPI_Send(&ack, 1, MPI_INT, 0, ACK_TAG, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    int rank, nranks, nsizes;
    char *sbuf = NULL, *rbuf = NULL;
    MPI_Request *reqs = NULL;
    /* A real status array rather than MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's
     * definition of that constant as a zero-length array and warns on every build. */
    MPI_Status *stats = NULL;
    double *mbps = NULL; /* mbps[size index * trials + trial] */
    long *used = NULL;   /* fewest windows timed per size, over trials */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_parse_args(argc, argv, 1, &opts);
    if (nranks < 2)
        bench_die("bandwidth needs 2 ranks, got %d", nranks);

    nsizes = num_sizes(opts.max_bytes);
    if (rank == 0) {
        bench_print_header("bandwidth",
                           "streaming bandwidth rank 0 -> rank 1, window of "
                           "Isends, one ack per window",
                           &opts);
        if (nranks > 2)
            printf("# note: %d ranks; ranks 2.. sit idle until MPI_Finalize\n", nranks);
        mbps = malloc((size_t)nsizes * (size_t)opts.trials * sizeof(*mbps));
        used = calloc((size_t)nsizes, sizeof(*used));
        if (mbps == NULL || used == NULL)
            bench_die("out of memory");
    }

    if (rank < 2) {
        reqs = malloc((size_t)opts.window * sizeof(*reqs));
        stats = malloc((size_t)opts.window * sizeof(*stats));
        if (reqs == NULL || stats == NULL)
            bench_die("out of memory");
        if (rank == 0)
            sbuf = bench_alloc(opts.max_bytes);
        else
            rbuf = bench_alloc(opts.max_bytes * (size_t)opts.window);

        /* One window of every size before any timing: first-use costs (connection set-up,
         * lazily created queues, registration caches) must not land in the warm-up window
         * that decides a trial's length. */
        for (int i = 0; i < nsizes; i++)
            run_windows(rank, &opts, sbuf, rbuf, reqs, stats, (size_t)1 << i, 1, i + 1);

        for (int t = 0; t < opts.trials; t++) {
            for (int i = 0; i < nsizes; i++) {
                size_t bytes = (size_t)1 << i;
                long n = windows_for(bytes, opts.window, opts.iter_scale);
                double sec;

                sec = run_windows(rank, &opts, sbuf, rbuf, reqs, stats, bytes, 1,
                                  (t + 1) * nsizes + i + 1);
                n = bench_agree_count(rank, n, MIN_WINDOWS, sec, TARGET_SEC * opts.iter_scale);
                sec = run_windows(rank, &opts, sbuf, rbuf, reqs, stats, bytes, n, 0);
                if (rank == 0) {
                    mbps[i * opts.trials + t] = (double)bytes * opts.window * (double)n / sec / 1e6;
                    if (used[i] == 0 || n < used[i])
                        used[i] = n;
                }
            }
        }
    }

    if (rank == 0) {
        for (int i = 0; i < nsizes; i++) {
            size_t bytes = (size_t)1 << i;
            double med = bench_median(&mbps[i * opts.trials], opts.trials);
            double best = 0.0;

            for (int t = 0; t < opts.trials; t++)
                if (mbps[i * opts.trials + t] > best)
                    best = mbps[i * opts.trials + t];
            printf("bandwidth,%zu,%.3f,%.3f,%.1f,%.1f,%ld\n", bytes,
                   med > 0 ? (double)bytes / med : 0.0, best > 0 ? (double)bytes / best : 0.0, med,
                   best, used[i]);
        }
        fflush(stdout);
    }

    free(mbps);
    free(used);
    free(reqs);
    free(stats);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
