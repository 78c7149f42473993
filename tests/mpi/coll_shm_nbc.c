/*
 * coll_shm_nbc.c -- nonblocking collectives through the shared segment
 * (tests/mpi/configs/shm.scm), several outstanding on one communicator, between blocking
 * ones, and completed in another order on every rank.
 *
 * Each batch starts up to 6 calls (the same on every rank: barrier, bcast, reduce,
 * allreduce, allgather, alltoall, gather, scatter, reduce-scatter-block, reduce-scatter,
 * random roots and counts, some past a slot so that they take two rounds or go over the
 * PML), each nonblocking or, one time in four, blocking; a blocking one then runs while
 * the nonblocking ones before it are outstanding.  Each rank completes the batch its own
 * way, by its rank and the batch: MPI_Waitall, MPI_Wait from the last request to the
 * first, or MPI_Test over the requests in a rank-drawn order until all are complete; so
 * in one batch a rank may wait for the third call while its peer waits for the first.
 * Every result is compared with a reference computed locally, with guard elements.  Runs
 * on WORLD, then on a split communicator (ranks reversed); the first batch of each comes
 * before any blocking collective on it (no segment yet: the fallback over the PML).
 *
 * Usage: coll_shm_nbc [BATCHES] (default 150).
 */
#include "tests/mpi/mpitest.h"

#define GUARD 4
#define NOPS 6
#define MAXN 2600 /* ints: past the default 8 KiB slot */

enum { K_BARRIER, K_BCAST, K_REDUCE, K_ALLREDUCE, K_ALLGATHER, K_ALLTOALL, K_GATHER,
       K_SCATTER, K_RSB, K_RS, NKINDS };

static const char *kind_name[NKINDS] = {"barrier",   "bcast",  "reduce",  "allreduce",
                                        "allgather", "alltoall", "gather", "scatter",
                                        "reduce_scatter_block", "reduce_scatter"};

typedef struct op {
    int kind, root, blocking, s;
    long n; /* ints per block (bcast, reduce, allreduce: the vector) */
    int *sbuf, *rbuf, *exp, *counts;
    long rlen; /* ints of rbuf checked, guards after them */
    MPI_Request req;
} op_t;

static unsigned long rnd(unsigned long *x)
{
    *x = *x * 6364136223846793005ul + 1442695040888963407ul;
    return *x >> 33;
}

static long sum_at(int p, long i, int s)
{
    long acc = 0;
    for (int r = 0; r < p; r++) {
        acc += mt_ival(r, i, s);
    }
    return acc;
}

/* fills the send buffer and the expected result of `o` on `rank` of `p` */
static void prepare(op_t *o, int rank, int p)
{
    long n = o->n, total = 0, at = 0;
    int s = o->s;

    switch (o->kind) {
    case K_BARRIER:
        o->rlen = 0;
        break;
    case K_BCAST:
        for (long i = 0; i < n; i++) {
            o->exp[i] = mt_ival(o->root, i, s);
            o->rbuf[i] = rank == o->root ? o->exp[i] : 0;
        }
        o->rlen = n;
        break;
    case K_REDUCE:
    case K_ALLREDUCE:
        for (long i = 0; i < n; i++) {
            o->sbuf[i] = mt_ival(rank, i, s);
            o->exp[i] = (int)sum_at(p, i, s);
        }
        o->rlen = o->kind == K_ALLREDUCE || rank == o->root ? n : 0;
        break;
    case K_ALLGATHER:
    case K_GATHER:
        for (long i = 0; i < n; i++) {
            o->sbuf[i] = mt_ival(rank, i, s);
        }
        for (int r = 0; r < p; r++) {
            for (long i = 0; i < n; i++) {
                o->exp[r * n + i] = mt_ival(r, i, s);
            }
        }
        o->rlen = o->kind == K_ALLGATHER || rank == o->root ? p * n : 0;
        break;
    case K_ALLTOALL:
        for (long i = 0; i < p * n; i++) {
            o->sbuf[i] = mt_ival(rank, i, s);
        }
        for (int r = 0; r < p; r++) {
            for (long i = 0; i < n; i++) {
                o->exp[r * n + i] = mt_ival(r, rank * n + i, s);
            }
        }
        o->rlen = p * n;
        break;
    case K_SCATTER:
        for (long i = 0; i < p * n; i++) {
            o->sbuf[i] = mt_ival(o->root, i, s);
        }
        for (long i = 0; i < n; i++) {
            o->exp[i] = mt_ival(o->root, rank * n + i, s);
        }
        o->rlen = n;
        break;
    case K_RSB:
    case K_RS:
        for (int r = 0; r < p; r++) {
            o->counts[r] = (int)(o->kind == K_RSB ? n : n + r);
            total += o->counts[r];
            at += r < rank ? o->counts[r] : 0;
        }
        for (long i = 0; i < total; i++) {
            o->sbuf[i] = mt_ival(rank, i, s);
        }
        for (long i = 0; i < o->counts[rank]; i++) {
            o->exp[i] = (int)sum_at(p, at + i, s);
        }
        o->rlen = o->counts[rank];
        break;
    }
    for (long i = o->rlen; i < o->rlen + GUARD; i++) {
        o->exp[i] = MT_SENTINEL;
    }
    if (o->kind != K_BCAST) {
        for (long i = 0; i < o->rlen + GUARD; i++) {
            o->rbuf[i] = MT_SENTINEL;
        }
    } else {
        for (long i = o->rlen; i < o->rlen + GUARD; i++) {
            o->rbuf[i] = MT_SENTINEL;
        }
    }
}

#define CALL(blocking_call, nonblocking_call)                                                 \
    do {                                                                                      \
        if (o->blocking) {                                                                    \
            MPI_OK(blocking_call);                                                            \
            o->req = MPI_REQUEST_NULL;                                                        \
        } else {                                                                              \
            MPI_OK(nonblocking_call);                                                         \
        }                                                                                     \
    } while (0)

static void start(op_t *o, MPI_Comm comm)
{
    int n = (int)o->n;
    switch (o->kind) {
    case K_BARRIER:
        CALL(MPI_Barrier(comm), MPI_Ibarrier(comm, &o->req));
        break;
    case K_BCAST:
        CALL(MPI_Bcast(o->rbuf, n, MPI_INT, o->root, comm),
             MPI_Ibcast(o->rbuf, n, MPI_INT, o->root, comm, &o->req));
        break;
    case K_REDUCE:
        CALL(MPI_Reduce(o->sbuf, o->rbuf, n, MPI_INT, MPI_SUM, o->root, comm),
             MPI_Ireduce(o->sbuf, o->rbuf, n, MPI_INT, MPI_SUM, o->root, comm, &o->req));
        break;
    case K_ALLREDUCE:
        CALL(MPI_Allreduce(o->sbuf, o->rbuf, n, MPI_INT, MPI_SUM, comm),
             MPI_Iallreduce(o->sbuf, o->rbuf, n, MPI_INT, MPI_SUM, comm, &o->req));
        break;
    case K_ALLGATHER:
        CALL(MPI_Allgather(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, comm),
             MPI_Iallgather(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, comm, &o->req));
        break;
    case K_ALLTOALL:
        CALL(MPI_Alltoall(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, comm),
             MPI_Ialltoall(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, comm, &o->req));
        break;
    case K_GATHER:
        CALL(MPI_Gather(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, o->root, comm),
             MPI_Igather(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, o->root, comm, &o->req));
        break;
    case K_SCATTER:
        CALL(MPI_Scatter(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, o->root, comm),
             MPI_Iscatter(o->sbuf, n, MPI_INT, o->rbuf, n, MPI_INT, o->root, comm, &o->req));
        break;
    case K_RSB:
        CALL(MPI_Reduce_scatter_block(o->sbuf, o->rbuf, n, MPI_INT, MPI_SUM, comm),
             MPI_Ireduce_scatter_block(o->sbuf, o->rbuf, n, MPI_INT, MPI_SUM, comm, &o->req));
        break;
    case K_RS:
        CALL(MPI_Reduce_scatter(o->sbuf, o->rbuf, o->counts, MPI_INT, MPI_SUM, comm),
             MPI_Ireduce_scatter(o->sbuf, o->rbuf, o->counts, MPI_INT, MPI_SUM, comm, &o->req));
        break;
    }
}

/* completes the batch: Waitall, Wait from the last, or Test in a drawn order */
static void complete(op_t *ops, int nops, int how, unsigned long *x)
{
    MPI_Request reqs[NOPS];
    int left = 0; /* the blocking calls have none */
    for (int i = 0; i < nops; i++) {
        reqs[i] = ops[i].req;
        left += reqs[i] != MPI_REQUEST_NULL;
    }
    if (how == 0) {
        MPI_OK(MPI_Waitall(nops, reqs, MPI_STATUSES_IGNORE));
    } else if (how == 1) {
        for (int i = nops - 1; i >= 0; i--) {
            MPI_OK(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
        }
    } else {
        while (left > 0) {
            int i = (int)(rnd(x) % (unsigned long)nops), flag = 0;
            if (reqs[i] == MPI_REQUEST_NULL) {
                continue;
            }
            MPI_OK(MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE));
            left -= flag;
        }
    }
}

static void run(MPI_Comm comm, int batches, const char *name, op_t *ops)
{
    int rank, p;
    unsigned long shared = 12345, mine = 777 + (unsigned long)mt_rank;
    MPI_OK(MPI_Comm_rank(comm, &rank));
    MPI_OK(MPI_Comm_size(comm, &p));

    for (int b = 0; b < batches; b++) {
        int nops = 1 + (int)(rnd(&shared) % NOPS);
        for (int k = 0; k < nops; k++) {
            op_t *o = &ops[k];
            o->kind = (int)(rnd(&shared) % NKINDS);
            o->root = (int)(rnd(&shared) % (unsigned long)p);
            /* the first batch before any blocking call: no segment yet */
            o->blocking = b > 0 && rnd(&shared) % 4 == 0;
            o->s = b * NOPS + k;
            long max = o->kind <= K_ALLREDUCE ? MAXN : MAXN / p;
            o->n = 1 + (long)(rnd(&shared) % (unsigned long)max);
            o->req = MPI_REQUEST_NULL;
            prepare(o, rank, p);
            start(o, comm);
        }
        complete(ops, nops, (b + rank) % 3, &mine);
        for (int k = 0; k < nops; k++) {
            char what[96];
            snprintf(what, sizeof(what), "%s batch %d call %d: %s %s n=%ld root %d", name, b, k,
                     ops[k].blocking ? "blocking" : "nonblocking", kind_name[ops[k].kind],
                     ops[k].n, ops[k].root);
            mt_check_ints(GUARD, ops[k].rbuf, ops[k].exp, ops[k].rlen, what);
        }
        if (b == 0) {
            MPI_OK(MPI_Barrier(comm)); /* the segment, for the batches after */
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_shm_nbc");
    int batches = argc > 1 ? atoi(argv[1]) : 150;
    long len = (long)mt_size * MAXN + 2 * mt_size + GUARD;
    op_t ops[NOPS];
    for (int k = 0; k < NOPS; k++) {
        ops[k].sbuf = mt_malloc((size_t)len * sizeof(int));
        ops[k].rbuf = mt_malloc((size_t)len * sizeof(int));
        ops[k].exp = mt_malloc((size_t)len * sizeof(int));
        ops[k].counts = mt_malloc((size_t)mt_size * sizeof(int));
    }

    run(MPI_COMM_WORLD, batches, "world", ops);
    MPI_Comm rev;
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &rev));
    run(rev, batches / 2, "reversed", ops);
    MPI_OK(MPI_Comm_free(&rev));

    for (int k = 0; k < NOPS; k++) {
        free(ops[k].sbuf);
        free(ops[k].rbuf);
        free(ops[k].exp);
        free(ops[k].counts);
    }
    return mt_finish();
}
