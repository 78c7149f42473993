/*
 * bsend_threads: MPI_Bsend from several threads at once (MPI_THREAD_MULTIPLE) with an
 * attached buffer of exactly the data plus MPI_BSEND_OVERHEAD of every message that can
 * be pending, as the standard's sizing rule allows: no call may fail.  Each of NTHREADS
 * threads sends rounds of BURST messages of sizes 1 B .. 12 KiB (their order rotating
 * each round, so space frees out of allocation order) to a peer of its own (at 4
 * processes the threads of a rank send to different ranks, whose rings drain at
 * different speeds), receives its partner's burst, and exchanges a token with it; after
 * the token the round's messages have left.  Every ROUNDS_PER_ATTACH rounds the threads
 * meet, one detaches the buffer and attaches it again at another alignment.  Contents
 * checked; errors are returned (MPI_ERRORS_RETURN) and counted.  First, on one thread,
 * the rule where the buffer's free space lies in pieces (split_space).
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define NTHREADS 4
#define BURST 24
#define ROUNDS 24
#define ROUNDS_PER_ATTACH 6
#define MAXMSG 100000

static const int sizes[BURST] = {1,    12000, 300,  8,     5000,  64,    100000, 2,
                                 4096, 17,    9000, 40000, 1,     12288, 33,     2500,
                                 96,   65536, 4,    1500,  20000, 100,   10000,  50};

static int thread_errors[NTHREADS];
static pthread_barrier_t meet;
static char *attach_mem;
static int attach_size;

/* the thread that threads t of ranks `to` and `from` pair with: rank r's thread t sends
   to (r + 1 + t) % np and receives from (r - 1 - t) % np */
static int peer_to(int t)
{
    return (mt_rank + 1 + t) % mt_size;
}

static int peer_from(int t)
{
    return ((mt_rank - 1 - t) % mt_size + mt_size) % mt_size;
}

static unsigned char byte_of(int src, int t, int round, int k, int i)
{
    return (unsigned char)(src * 31 + t * 7 + round * 13 + k * 3 + i);
}

static void *run(void *arg)
{
    int t = (int)(long)arg, errs = 0;
    unsigned char *out = malloc(MAXMSG), *in = malloc(MAXMSG);
    int to = peer_to(t), from = peer_from(t);

    for (int round = 0; round < ROUNDS && errs == 0; round++) {
        for (int j = 0; j < BURST && errs == 0; j++) {
            int k = (j + round * 5 + t) % BURST, n = sizes[k];
            for (int i = 0; i < n; i++) {
                out[i] = byte_of(mt_rank, t, round, k, i);
            }
            int rc = MPI_Bsend(out, n, MPI_BYTE, to, t, MPI_COMM_WORLD);
            if (rc != MPI_SUCCESS) {
                char msg[MPI_MAX_ERROR_STRING];
                int len = 0;
                MPI_Error_string(rc, msg, &len);
                fprintf(stderr, "rank %d thread %d round %d: MPI_Bsend of %d B failed: %s\n",
                        mt_rank, t, round, n, msg);
                errs++;
            }
        }
        for (int j = 0; j < BURST && errs == 0; j++) {
            int k = (j + round * 5 + t) % BURST, n = sizes[k], got = -1;
            MPI_Status st;
            if (MPI_Recv(in, MAXMSG, MPI_BYTE, from, t, MPI_COMM_WORLD, &st) != MPI_SUCCESS) {
                errs++;
                break;
            }
            MPI_Get_count(&st, MPI_BYTE, &got);
            if (got != n) {
                fprintf(stderr, "rank %d thread %d round %d: message %d has %d B, expected %d\n",
                        mt_rank, t, round, j, got, n);
                errs++;
                break;
            }
            for (int i = 0; i < n; i++) {
                if (in[i] != byte_of(from, t, round, k, i)) {
                    fprintf(stderr, "rank %d thread %d round %d: message %d byte %d wrong\n",
                            mt_rank, t, round, j, i);
                    errs++;
                    break;
                }
            }
        }
        /* the partner has our burst: nothing of this round is pending any more */
        int token = round, back = -1;
        if (MPI_Sendrecv(&token, 1, MPI_INT, from, 1000 + t, &back, 1, MPI_INT, to, 1000 + t,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
            back != round) {
            errs++;
        }
        if ((round + 1) % ROUNDS_PER_ATTACH == 0) {
            pthread_barrier_wait(&meet);
            if (t == 0) {
                void *buf;
                int size;
                MPI_OK(MPI_Buffer_detach(&buf, &size));
                CHECK((char *)buf == attach_mem + (round / ROUNDS_PER_ATTACH) % 8,
                      "detach gave another buffer");
                CHECK(size == attach_size, "detach gave %d B, attached %d", size, attach_size);
                MPI_OK(MPI_Buffer_attach(attach_mem + (round / ROUNDS_PER_ATTACH + 1) % 8,
                                         attach_size));
            }
            pthread_barrier_wait(&meet);
        }
    }
    thread_errors[t] = errs;
    free(out);
    free(in);
    return NULL;
}

/*
 * One thread, to itself: three messages of S bytes pending in a buffer of 3 (S +
 * overhead); the first and the third received, so one is pending; then a message of 2 S
 * + overhead is within the rule although no free piece of the buffer holds it whole.
 */
static void split_space(void)
{
    enum { S = 1 << 20 };
    int size = 3 * (S + MPI_BSEND_OVERHEAD), big = 2 * S + MPI_BSEND_OVERHEAD, got;
    char *mem = malloc((size_t)size), *msg = malloc((size_t)big), *in = malloc((size_t)big);
    MPI_Status st;
    void *buf;

    for (int i = 0; i < big; i++) {
        msg[i] = (char)(i * 7 + 1);
    }
    MPI_OK(MPI_Buffer_attach(mem, size));
    for (int k = 1; k <= 3; k++) {
        MPI_OK(MPI_Bsend(msg, S, MPI_BYTE, 0, k, MPI_COMM_SELF));
    }
    MPI_OK(MPI_Recv(in, S, MPI_BYTE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Recv(in, S, MPI_BYTE, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    int rc = MPI_Bsend(msg, big, MPI_BYTE, 0, 4, MPI_COMM_SELF);
    CHECK(rc == MPI_SUCCESS, "a Bsend of %d B with %d B pending in %d B failed (%d)", big,
          S + MPI_BSEND_OVERHEAD, size, rc);
    MPI_OK(MPI_Recv(in, S, MPI_BYTE, 0, 2, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    if (rc == MPI_SUCCESS) {
        MPI_OK(MPI_Recv(in, big, MPI_BYTE, 0, 4, MPI_COMM_SELF, &st));
        MPI_OK(MPI_Get_count(&st, MPI_BYTE, &got));
        CHECK(got == big && memcmp(in, msg, (size_t)big) == 0, "the big message arrived wrong");
    }
    MPI_OK(MPI_Buffer_detach(&buf, &size));
    free(mem);
    free(msg);
    free(in);
}

int main(int argc, char **argv)
{
    int burst = 0;
    pthread_t th[NTHREADS];

    mt_init_level(&argc, &argv, "bsend_threads", 1);
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    split_space();

    /* the rule: the data and MPI_BSEND_OVERHEAD of every message that can be pending */
    for (int k = 0; k < BURST; k++) {
        burst += sizes[k] + MPI_BSEND_OVERHEAD;
    }
    attach_size = NTHREADS * burst;
    attach_mem = malloc((size_t)attach_size + 8);
    MPI_OK(MPI_Buffer_attach(attach_mem, attach_size));
    pthread_barrier_init(&meet, NULL, NTHREADS);
    for (long t = 0; t < NTHREADS; t++) {
        CHECK(pthread_create(&th[t], NULL, run, (void *)t) == 0, "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK(thread_errors[t] == 0, "thread %d: %d error(s)", t, thread_errors[t]);
    }
    pthread_barrier_destroy(&meet);
    {
        void *buf;
        int size;
        MPI_OK(MPI_Buffer_detach(&buf, &size));
    }
    free(attach_mem);
    return mt_finish();
}
