/*
 * coll_comms: collectives on several communicators at once never mix their traffic.
 *
 * Communicators: WORLD, two dups of it, a split by parity, a split of everyone with
 * reversed keys (rank order size-1 .. 0), a parity split with reversed keys, and
 * MPI_COMM_SELF.  Each round calls a sequence of different collective kinds on them,
 * interleaved, in the same order on every rank.  Roots send and run ahead into the next
 * call while the others are still receiving, so a message of one call can reach a rank
 * that is in another call, on another communicator or of another kind: its content
 * (which names the communicator, the round and the kind) would then be wrong.
 *
 * Meanwhile a wildcard receive (ANY_SOURCE, ANY_TAG) is posted on WORLD for the whole
 * round: collective traffic must never match it; only the message sent after the round.
 * (Debian's MPICH 4.0.2 hangs in Alltoall on one rank while such a receive is pending on
 * the same communicator; built against MPICH, the one-rank run posts it after the round.)
 */
#include "tests/mpi/mpitest.h"

#define ROUNDS 12
#define N_SMALL 16
#define N_LARGE 20000 /* 80 KB: past the rendezvous threshold */

enum { K_BCAST, K_REDUCE, K_ALLREDUCE, K_GATHER, K_SCATTER, K_ALLGATHER, K_ALLTOALL, K_SCAN };

typedef struct {
    MPI_Comm comm;
    const char *name;
    int id, rank, size;
} tcomm_t;

static int cv(int cid, int round, int kind, int r, long i)
{
    uint64_t x = (uint64_t)cid * 0x9E3779B1u + (uint64_t)round * 0x85EBCA77u +
                 (uint64_t)kind * 0xC2B2AE3Du + (uint64_t)r * 0x27D4EB2Fu +
                 (uint64_t)i * 2654435761u;

    x ^= x >> 29;
    return (int)(x % 100000) - 50000;
}

static void expect(const int *got, long n, const tcomm_t *c, int round, int kind, const char *what,
                   int (*ref)(const tcomm_t *, int, int, long))
{
    for (long i = 0; i < n; i++) {
        int e = ref(c, round, kind, i);

        if (got[i] != e) {
            CHECK(0, "%s on %s round %d: element %ld is %d, expected %d", what, c->name, round, i,
                  got[i], e);
            return;
        }
    }
}

static int bcast_root(const tcomm_t *c, int round)
{
    return (round * 3 + c->id) % c->size;
}

static int ref_bcast(const tcomm_t *c, int round, int kind, long i)
{
    return cv(c->id, round, kind, bcast_root(c, round), i);
}

static int ref_sum(const tcomm_t *c, int round, int kind, long i)
{
    long acc = 0;

    for (int r = 0; r < c->size; r++)
        acc += cv(c->id, round, kind, r, i);
    return (int)acc;
}

static int ref_scan(const tcomm_t *c, int round, int kind, long i)
{
    long acc = 0;

    for (int r = 0; r <= c->rank; r++)
        acc += cv(c->id, round, kind, r, i);
    return (int)acc;
}

/* element i of a gathered buffer of blocks of n: block r comes from rank r */
static long g_n;

static int ref_blocks(const tcomm_t *c, int round, int kind, long i)
{
    return cv(c->id, round, kind, (int)(i / g_n), i % g_n);
}

/* alltoall: block s of rank d's result is what s sent to d */
static int ref_a2a(const tcomm_t *c, int round, int kind, long i)
{
    int s = (int)(i / g_n);

    return cv(c->id, round, kind, s * 64 + c->rank, i % g_n);
}

static int ref_mine(const tcomm_t *c, int round, int kind, long i)
{
    return cv(c->id, round, kind, c->rank, i);
}

/* one collective of kind `kind` on c, checked; n elements per block */
static void run_kind(const tcomm_t *c, int round, int kind, long n)
{
    long big = n * c->size;
    int *s = mt_malloc((size_t)big * sizeof(int)), *r = mt_malloc((size_t)big * sizeof(int));
    int root = bcast_root(c, round);

    g_n = n;
    for (long i = 0; i < big; i++)
        r[i] = -1;
    switch (kind) {
    case K_BCAST:
        for (long i = 0; i < n; i++)
            r[i] = c->rank == root ? cv(c->id, round, kind, root, i) : -1;
        MPI_OK(MPI_Bcast(r, (int)n, MPI_INT, root, c->comm));
        expect(r, n, c, round, kind, "Bcast", ref_bcast);
        break;
    case K_REDUCE:
    case K_ALLREDUCE:
    case K_SCAN:
        for (long i = 0; i < n; i++)
            s[i] = cv(c->id, round, kind, c->rank, i);
        if (kind == K_REDUCE) {
            MPI_OK(MPI_Reduce(s, r, (int)n, MPI_INT, MPI_SUM, root, c->comm));
            if (c->rank == root)
                expect(r, n, c, round, kind, "Reduce", ref_sum);
        } else if (kind == K_ALLREDUCE) {
            MPI_OK(MPI_Allreduce(s, r, (int)n, MPI_INT, MPI_SUM, c->comm));
            expect(r, n, c, round, kind, "Allreduce", ref_sum);
        } else {
            MPI_OK(MPI_Scan(s, r, (int)n, MPI_INT, MPI_SUM, c->comm));
            expect(r, n, c, round, kind, "Scan", ref_scan);
        }
        break;
    case K_GATHER:
    case K_ALLGATHER:
        for (long i = 0; i < n; i++)
            s[i] = cv(c->id, round, kind, c->rank, i);
        if (kind == K_GATHER) {
            MPI_OK(MPI_Gather(s, (int)n, MPI_INT, r, (int)n, MPI_INT, root, c->comm));
            if (c->rank == root)
                expect(r, big, c, round, kind, "Gather", ref_blocks);
        } else {
            MPI_OK(MPI_Allgather(s, (int)n, MPI_INT, r, (int)n, MPI_INT, c->comm));
            expect(r, big, c, round, kind, "Allgather", ref_blocks);
        }
        break;
    case K_SCATTER:
        for (long i = 0; i < big; i++)
            s[i] = cv(c->id, round, kind, (int)(i / n), i % n);
        MPI_OK(MPI_Scatter(s, (int)n, MPI_INT, r, (int)n, MPI_INT, root, c->comm));
        expect(r, n, c, round, kind, "Scatter", ref_mine);
        break;
    case K_ALLTOALL:
        for (long i = 0; i < big; i++)
            s[i] = cv(c->id, round, kind, c->rank * 64 + (int)(i / n), i % n);
        MPI_OK(MPI_Alltoall(s, (int)n, MPI_INT, r, (int)n, MPI_INT, c->comm));
        expect(r, big, c, round, kind, "Alltoall", ref_a2a);
        break;
    }
    free(s);
    free(r);
}

static void make(tcomm_t *c, MPI_Comm comm, const char *name, int id)
{
    c->comm = comm;
    c->name = name;
    c->id = id;
    MPI_OK(MPI_Comm_rank(comm, &c->rank));
    MPI_OK(MPI_Comm_size(comm, &c->size));
}

int main(int argc, char **argv)
{
    MPI_Comm dup1, dup2, par, rev, parrev;
    tcomm_t world, d1, d2, p, rv, prv, self;
    const tcomm_t *all[7];

    mt_init(&argc, &argv, "coll_comms");
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup1));
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &par));
    MPI_OK(MPI_Comm_dup(dup1, &dup2));
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &rev));
    MPI_OK(MPI_Comm_split(dup2, mt_rank % 2, -mt_rank, &parrev));
    make(&world, MPI_COMM_WORLD, "WORLD", 1);
    make(&d1, dup1, "dup of WORLD", 2);
    make(&d2, dup2, "dup of the dup", 3);
    make(&p, par, "parity split", 4);
    make(&rv, rev, "reversed split", 5);
    make(&prv, parrev, "parity split, reversed keys", 6);
    make(&self, MPI_COMM_SELF, "SELF", 7);
    all[0] = &world;
    all[1] = &d1;
    all[2] = &d2;
    all[3] = &p;
    all[4] = &rv;
    all[5] = &prv;
    all[6] = &self;
    CHECK(rv.rank == mt_size - 1 - mt_rank, "reversed split: rank %d", rv.rank);
    CHECK(prv.size == (mt_size + (mt_rank % 2 ? 0 : 1)) / 2, "parity split size %d", prv.size);

    for (int round = 0; round < ROUNDS; round++) {
        int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
        int in[2] = {-1, -1}, out[2] = {round, mt_rank};
        long n = round % 4 == 3 ? N_LARGE : N_SMALL;
        MPI_Request req;
        MPI_Status st;
        int early = 1;

#if defined(MPICH)
        early = mt_size > 1;
#endif
        if (early)
            MPI_OK(MPI_Irecv(in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
        /* every kind on every communicator, the communicator changing fastest: the same
           kind runs back to back on different communicators of the same ranks */
        for (int kind = K_BCAST; kind <= K_SCAN; kind++)
            for (int k = 0; k < 7; k++)
                run_kind(all[(k + round) % 7], round, kind, n);
        /* and the other way round: all kinds back to back on one communicator */
        for (int k = 0; k < 7; k++) {
            for (int kind = K_SCAN; kind >= K_BCAST; kind--)
                run_kind(all[k], round, kind, N_SMALL);
            if (k % 2)
                MPI_OK(MPI_Barrier(all[k]->comm));
        }
        if (!early)
            MPI_OK(MPI_Irecv(in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Send(out, 2, MPI_INT, right, 1000 + round, MPI_COMM_WORLD));
        MPI_OK(MPI_Wait(&req, &st));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 1000 + round && in[0] == round &&
                  in[1] == left,
              "round %d: the wildcard receive got source %d tag %d payload {%d,%d}, "
              "expected source %d tag %d",
              round, st.MPI_SOURCE, st.MPI_TAG, in[0], in[1], left, 1000 + round);
    }

    MPI_OK(MPI_Comm_free(&parrev));
    MPI_OK(MPI_Comm_free(&rev));
    MPI_OK(MPI_Comm_free(&dup2));
    MPI_OK(MPI_Comm_free(&par));
    MPI_OK(MPI_Comm_free(&dup1));
    return mt_finish();
}
