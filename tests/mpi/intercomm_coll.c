/*
 * intercomm_coll.c -- every blocking collective on intercommunicators made from halves
 * of WORLD (even, uneven, one against the rest, interleaved), checked on both groups
 * against values computed by hand: rooted kinds with MPI_ROOT / MPI_PROC_NULL on the
 * root's group (each group root in turn, first and last rank), reductions of the other
 * group's data (a non-commutative op too), the data movers in both directions; then the
 * error classes (scans, bad roots, MPI_IN_PLACE).  With the argument nbc every call is the
 * nonblocking one (MPI_Ibcast, ... and MPI_Wait), with persist the persistent one
 * (MPI_Bcast_init, ... MPI_Start, MPI_Wait).  np 1: nothing.
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

#define SENT (-7)

/* how the collectives run: blocking, nonblocking (MPI_I..., then MPI_Wait) or persistent
   (MPI_..._init, MPI_Start, MPI_Wait, MPI_Request_free): the argument nbc or persist */
static int mode;
#define COLL(blocking, nonblocking, persistent)                                               \
    do {                                                                                      \
        MPI_Request r_;                                                                       \
        if (mode == 0) {                                                                      \
            MPI_OK(blocking);                                                                 \
        } else if (mode == 1) {                                                               \
            MPI_OK(nonblocking);                                                              \
            MPI_OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                         \
        } else {                                                                              \
            MPI_OK(persistent);                                                               \
            MPI_OK(MPI_Start(&r_));                                                           \
            MPI_OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                         \
            MPI_OK(MPI_Request_free(&r_));                                                    \
        }                                                                                     \
    } while (0)

static int side, ln, rn, lrank;
static int *lw, *rw; /* world ranks of the local and the remote group */
static MPI_Comm inter;

/* a op b = a: the reduction is the value of the lowest rank, if the order is kept */
static void first_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static int sum_of(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

static void check_bcast_reduce(MPI_Op first)
{
    for (int s = 0; s < 2; s++) {
        int gsize = s == side ? ln : rn;
        for (int pick = 0; pick < 2; pick++) {
            int r = pick ? gsize - 1 : 0;
            int buf[3] = {SENT, SENT, SENT}, root;
            if (s == side) {
                root = lrank == r ? MPI_ROOT : MPI_PROC_NULL;
                if (root == MPI_ROOT) {
                    buf[0] = 1000 + mt_rank; buf[1] = 7; buf[2] = -mt_rank;
                }
            } else {
                root = r;
            }
            COLL(MPI_Bcast(buf, 3, MPI_INT, root, inter),
                 MPI_Ibcast(buf, 3, MPI_INT, root, inter, &r_),
                 MPI_Bcast_init(buf, 3, MPI_INT, root, inter, MPI_INFO_NULL, &r_));
            if (s != side) {
                CHECK(buf[0] == 1000 + rw[r] && buf[1] == 7 && buf[2] == -rw[r],
                      "bcast from remote %d: %d %d %d", r, buf[0], buf[1], buf[2]);
            } else if (root == MPI_PROC_NULL) {
                CHECK(buf[0] == SENT, "bcast: MPI_PROC_NULL's buffer touched");
            }
            /* reduce: sum and the order-keeping op */
            int in[2] = {mt_rank, 2 * mt_rank + 1}, out[2] = {SENT, SENT};
            COLL(MPI_Reduce(in, out, 2, MPI_INT, MPI_SUM, root, inter),
                 MPI_Ireduce(in, out, 2, MPI_INT, MPI_SUM, root, inter, &r_),
                 MPI_Reduce_init(in, out, 2, MPI_INT, MPI_SUM, root, inter, MPI_INFO_NULL, &r_));
            if (root == MPI_ROOT) {
                int sr = sum_of(rw, rn);
                CHECK(out[0] == sr && out[1] == 2 * sr + rn, "reduce sum %d %d", out[0], out[1]);
            } else {
                CHECK(out[0] == SENT, "reduce: a non-root's receive buffer touched");
            }
            out[0] = SENT;
            COLL(MPI_Reduce(in, out, 1, MPI_INT, first, root, inter),
                 MPI_Ireduce(in, out, 1, MPI_INT, first, root, inter, &r_),
                 MPI_Reduce_init(in, out, 1, MPI_INT, first, root, inter, MPI_INFO_NULL, &r_));
            if (root == MPI_ROOT) {
                CHECK(out[0] == rw[0], "reduce in rank order: %d, expected %d", out[0], rw[0]);
            }
            /* gather / scatter and their v forms */
            int *big = mt_malloc(sizeof(int) * (size_t)(4 * mt_size + 4));
            int *cnt = mt_malloc(sizeof(int) * (size_t)(mt_size + 1));
            int *dsp = mt_malloc(sizeof(int) * (size_t)(mt_size + 1));
            for (int i = 0; i < 4 * mt_size + 4; i++) big[i] = SENT;
            int mine[2] = {mt_rank, lrank};
            COLL(MPI_Gather(mine, 2, MPI_INT, big, 2, MPI_INT, root, inter),
                 MPI_Igather(mine, 2, MPI_INT, big, 2, MPI_INT, root, inter, &r_),
                 MPI_Gather_init(mine, 2, MPI_INT, big, 2, MPI_INT, root, inter,
                     MPI_INFO_NULL, &r_));
            if (root == MPI_ROOT) {
                for (int i = 0; i < rn; i++)
                    CHECK(big[2 * i] == rw[i] && big[2 * i + 1] == i, "gather block %d", i);
            }
            int off = 0;
            for (int i = 0; i < rn; i++) { cnt[i] = i % 3 + 1; dsp[i] = off; off += cnt[i] + 1; }
            for (int i = 0; i < 4 * mt_size + 4; i++) big[i] = SENT;
            int v3[3] = {mt_rank, mt_rank, mt_rank};
            COLL(MPI_Gatherv(v3, lrank % 3 + 1, MPI_INT, big, cnt, dsp, MPI_INT, root, inter),
                 MPI_Igatherv(v3, lrank % 3 + 1, MPI_INT, big, cnt, dsp, MPI_INT, root, inter, &r_),
                 MPI_Gatherv_init(v3, lrank % 3 + 1, MPI_INT, big, cnt, dsp, MPI_INT, root, inter,
                     MPI_INFO_NULL, &r_));
            if (root == MPI_ROOT) {
                for (int i = 0; i < rn; i++) {
                    for (int k = 0; k < cnt[i]; k++)
                        CHECK(big[dsp[i] + k] == rw[i], "gatherv block %d", i);
                    CHECK(big[dsp[i] + cnt[i]] == SENT, "gatherv gap %d", i);
                }
            }
            for (int i = 0; i < rn; i++) { big[2 * i] = 5000 + i; big[2 * i + 1] = mt_rank; }
            int got[3] = {SENT, SENT, SENT};
            COLL(MPI_Scatter(big, 2, MPI_INT, got, 2, MPI_INT, root, inter),
                 MPI_Iscatter(big, 2, MPI_INT, got, 2, MPI_INT, root, inter, &r_),
                 MPI_Scatter_init(big, 2, MPI_INT, got, 2, MPI_INT, root, inter,
                     MPI_INFO_NULL, &r_));
            if (s != side) {
                CHECK(got[0] == 5000 + lrank && got[1] == rw[r], "scatter %d %d", got[0], got[1]);
            }
            for (int i = 0; i < rn; i++)
                for (int k = 0; k < cnt[i]; k++) big[dsp[i] + k] = 6000 + i * 10 + k;
            got[0] = got[1] = got[2] = SENT;
            COLL(MPI_Scatterv(big, cnt, dsp, MPI_INT, got, lrank % 3 + 1, MPI_INT, root, inter),
                 MPI_Iscatterv(big, cnt, dsp, MPI_INT, got, lrank % 3 + 1, MPI_INT, root,
                     inter, &r_),
                 MPI_Scatterv_init(big, cnt, dsp, MPI_INT, got, lrank % 3 + 1, MPI_INT, root, inter,
                     MPI_INFO_NULL, &r_));
            if (s != side) {
                for (int k = 0; k < lrank % 3 + 1; k++)
                    CHECK(got[k] == 6000 + lrank * 10 + k, "scatterv %d: %d", k, got[k]);
            }
            free(big); free(cnt); free(dsp);
        }
    }
}

static void check_all(MPI_Op first)
{
    int in[2] = {mt_rank, 1}, out[2] = {SENT, SENT};
    COLL(MPI_Barrier(inter),
         MPI_Ibarrier(inter, &r_),
         MPI_Barrier_init(inter, MPI_INFO_NULL, &r_));
    COLL(MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, inter),
         MPI_Iallreduce(in, out, 2, MPI_INT, MPI_SUM, inter, &r_),
         MPI_Allreduce_init(in, out, 2, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r_));
    CHECK(out[0] == sum_of(rw, rn) && out[1] == rn, "allreduce: %d %d", out[0], out[1]);
    COLL(MPI_Allreduce(in, out, 1, MPI_INT, first, inter),
         MPI_Iallreduce(in, out, 1, MPI_INT, first, inter, &r_),
         MPI_Allreduce_init(in, out, 1, MPI_INT, first, inter, MPI_INFO_NULL, &r_));
    CHECK(out[0] == rw[0], "allreduce in rank order: %d", out[0]);

    int m = mt_size + 1;
    int *rb = mt_malloc(sizeof(int) * (size_t)(4 * m));
    int *sb = mt_malloc(sizeof(int) * (size_t)(4 * m));
    int *sc = mt_malloc(sizeof(int) * (size_t)m), *sd = mt_malloc(sizeof(int) * (size_t)m);
    int *rc = mt_malloc(sizeof(int) * (size_t)m), *rd = mt_malloc(sizeof(int) * (size_t)m);
    MPI_Datatype *ty = mt_malloc(sizeof(MPI_Datatype) * (size_t)m);
    for (int i = 0; i < 4 * m; i++) rb[i] = SENT;
    COLL(MPI_Allgather(&mt_rank, 1, MPI_INT, rb, 1, MPI_INT, inter),
         MPI_Iallgather(&mt_rank, 1, MPI_INT, rb, 1, MPI_INT, inter, &r_),
         MPI_Allgather_init(&mt_rank, 1, MPI_INT, rb, 1, MPI_INT, inter, MPI_INFO_NULL, &r_));
    for (int i = 0; i < rn; i++) CHECK(rb[i] == rw[i], "allgather %d: %d", i, rb[i]);

    int off = 0;
    for (int i = 0; i < rn; i++) { rc[i] = i % 3 + 1; rd[i] = off; off += rc[i]; }
    int v3[3] = {mt_rank, mt_rank, mt_rank};
    for (int i = 0; i < 4 * m; i++) rb[i] = SENT;
    COLL(MPI_Allgatherv(v3, lrank % 3 + 1, MPI_INT, rb, rc, rd, MPI_INT, inter),
         MPI_Iallgatherv(v3, lrank % 3 + 1, MPI_INT, rb, rc, rd, MPI_INT, inter, &r_),
         MPI_Allgatherv_init(v3, lrank % 3 + 1, MPI_INT, rb, rc, rd, MPI_INT, inter,
             MPI_INFO_NULL, &r_));
    for (int i = 0; i < rn; i++)
        for (int k = 0; k < rc[i]; k++) CHECK(rb[rd[i] + k] == rw[i], "allgatherv %d", i);

    for (int i = 0; i < rn; i++) sb[i] = mt_rank * 100 + i;
    for (int i = 0; i < 4 * m; i++) rb[i] = SENT;
    COLL(MPI_Alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, inter),
         MPI_Ialltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, inter, &r_),
         MPI_Alltoall_init(sb, 1, MPI_INT, rb, 1, MPI_INT, inter, MPI_INFO_NULL, &r_));
    for (int j = 0; j < rn; j++)
        CHECK(rb[j] == rw[j] * 100 + lrank, "alltoall from %d: %d", j, rb[j]);

    int so = 0, ro = 0;
    for (int i = 0; i < rn; i++) {
        sc[i] = (lrank + i) % 2 + 1; sd[i] = so;
        for (int k = 0; k < sc[i]; k++) sb[so + k] = mt_rank * 100 + i;
        so += sc[i];
        rc[i] = (i + lrank) % 2 + 1; rd[i] = ro; ro += rc[i];
    }
    for (int i = 0; i < 4 * m; i++) rb[i] = SENT;
    COLL(MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, inter),
         MPI_Ialltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, inter, &r_),
         MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, inter, MPI_INFO_NULL, &r_));
    for (int j = 0; j < rn; j++)
        for (int k = 0; k < rc[j]; k++)
            CHECK(rb[rd[j] + k] == rw[j] * 100 + lrank, "alltoallv from %d", j);

    for (int i = 0; i < rn; i++) {
        sb[i] = mt_rank * 100 + i; sc[i] = rc[i] = 1; ty[i] = MPI_INT;
        sd[i] = i * (int)sizeof(int); rd[i] = (rn - 1 - i) * (int)sizeof(int);
    }
    for (int i = 0; i < 4 * m; i++) rb[i] = SENT;
    COLL(MPI_Alltoallw(sb, sc, sd, ty, rb, rc, rd, ty, inter),
         MPI_Ialltoallw(sb, sc, sd, ty, rb, rc, rd, ty, inter, &r_),
         MPI_Alltoallw_init(sb, sc, sd, ty, rb, rc, rd, ty, inter, MPI_INFO_NULL, &r_));
    for (int j = 0; j < rn; j++)
        CHECK(rb[rn - 1 - j] == rw[j] * 100 + lrank, "alltoallw from %d", j);

    /* reduce-scatter: T elements reduced over the other group, T split over this one */
    enum { T = 6 };
    int send[T], recv[T], base = sum_of(rw, rn);
    for (int k = 0; k < T; k++) send[k] = mt_rank + k * 1000;
    off = 0;
    for (int i = 0; i < ln; i++) { rc[i] = T / ln + (i < T % ln); if (i < lrank) off += rc[i]; }
    for (int k = 0; k < T; k++) recv[k] = SENT;
    COLL(MPI_Reduce_scatter(send, recv, rc, MPI_INT, MPI_SUM, inter),
         MPI_Ireduce_scatter(send, recv, rc, MPI_INT, MPI_SUM, inter, &r_),
         MPI_Reduce_scatter_init(send, recv, rc, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r_));
    for (int k = 0; k < rc[lrank]; k++)
        CHECK(recv[k] == base + rn * (off + k) * 1000, "reduce_scatter %d: %d", k, recv[k]);
    if (ln == rn && T % ln == 0) {
        /* the block form needs the same total on both sides */
        for (int k = 0; k < T; k++) recv[k] = SENT;
        COLL(MPI_Reduce_scatter_block(send, recv, T / ln, MPI_INT, MPI_SUM, inter),
             MPI_Ireduce_scatter_block(send, recv, T / ln, MPI_INT, MPI_SUM, inter, &r_),
             MPI_Reduce_scatter_block_init(send, recv, T / ln, MPI_INT, MPI_SUM, inter,
                 MPI_INFO_NULL, &r_));
        for (int k = 0; k < T / ln; k++)
            CHECK(recv[k] == base + rn * (lrank * (T / ln) + k) * 1000, "reduce_scatter_block");
    }
    free(rb); free(sb); free(sc); free(sd); free(rc); free(rd); free(ty);
}

/* messages past the eager limit: the rendezvous paths of the leaders' exchanges */
static void check_large(void)
{
    enum { N = 100000 };
    int *a = mt_malloc(sizeof(int) * N);
    int *b = mt_malloc(sizeof(int) * (size_t)N * (size_t)mt_size);
    int root = side == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int rroot = side == 0 ? lw[0] : rw[0]; /* world rank of group 0's rank 0 */
    for (int i = 0; i < N; i++) a[i] = root == MPI_ROOT ? i ^ 0x5a5a : -1;
    COLL(MPI_Bcast(a, N, MPI_INT, root, inter),
         MPI_Ibcast(a, N, MPI_INT, root, inter, &r_),
         MPI_Bcast_init(a, N, MPI_INT, root, inter, MPI_INFO_NULL, &r_));
    if (side == 1) {
        long bad = 0;
        for (int i = 0; i < N; i++) bad += a[i] != (i ^ 0x5a5a);
        CHECK(bad == 0, "large bcast: %ld wrong (root world %d)", bad, rroot);
    }
    for (int i = 0; i < N; i++) a[i] = mt_rank + i;
    COLL(MPI_Allreduce(a, b, N, MPI_INT, MPI_SUM, inter),
         MPI_Iallreduce(a, b, N, MPI_INT, MPI_SUM, inter, &r_),
         MPI_Allreduce_init(a, b, N, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r_));
    long bad = 0, sr = sum_of(rw, rn);
    for (int i = 0; i < N; i++) bad += b[i] != sr + (long)rn * i;
    CHECK(bad == 0, "large allreduce: %ld wrong", bad);
    COLL(MPI_Allgather(a, N, MPI_INT, b, N, MPI_INT, inter),
         MPI_Iallgather(a, N, MPI_INT, b, N, MPI_INT, inter, &r_),
         MPI_Allgather_init(a, N, MPI_INT, b, N, MPI_INT, inter, MPI_INFO_NULL, &r_));
    bad = 0;
    for (int j = 0; j < rn; j++)
        for (int i = 0; i < N; i++) bad += b[(size_t)j * N + i] != rw[j] + i;
    CHECK(bad == 0, "large allgather: %ld wrong", bad);
    free(a);
    free(b);
}

/* nbc: several collectives outstanding at once on the intercommunicator and a dup of it,
   with point-to-point on the same ranks, completed in one MPI_Waitall */
static void check_overlap(void)
{
    MPI_Comm d;
    MPI_Request r[6];
    int in[2] = {mt_rank, 1}, sum[2] = {SENT, SENT}, sum2 = SENT, token = SENT, bval = SENT;
    int *ag = mt_malloc(sizeof(int) * (size_t)mt_size);
    int *a2a = mt_malloc(sizeof(int) * (size_t)mt_size);
    int *mine = mt_malloc(sizeof(int) * (size_t)mt_size);
    MPI_OK(MPI_Comm_dup(inter, &d));
    for (int j = 0; j < rn; j++) {
        mine[j] = mt_rank * 100 + j;
    }
    int broot = side == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (broot == MPI_ROOT) {
        bval = 4242;
    }
    MPI_OK(MPI_Iallreduce(in, sum, 2, MPI_INT, MPI_SUM, inter, &r[0]));
    MPI_OK(MPI_Iallgather(&mt_rank, 1, MPI_INT, ag, 1, MPI_INT, d, &r[1]));
    MPI_OK(MPI_Ialltoall(mine, 1, MPI_INT, a2a, 1, MPI_INT, inter, &r[2]));
    MPI_OK(MPI_Ibcast(&bval, 1, MPI_INT, broot, d, &r[3]));
    MPI_OK(MPI_Iallreduce(&mt_rank, &sum2, 1, MPI_INT, MPI_MAX, d, &r[4]));
    /* user traffic between the two groups meanwhile: each rank to its peer of the same
       local rank, where there is one */
    if (lrank < rn) {
        MPI_OK(MPI_Sendrecv(&mt_rank, 1, MPI_INT, lrank, 0, &token, 1, MPI_INT, lrank, 0, inter,
                            MPI_STATUS_IGNORE));
        CHECK(token == rw[lrank], "p2p beside the collectives: %d", token);
    }
    MPI_OK(MPI_Ibarrier(inter, &r[5]));
    MPI_OK(MPI_Waitall(6, r, MPI_STATUSES_IGNORE));
    CHECK(sum[0] == sum_of(rw, rn) && sum[1] == rn, "overlapped allreduce");
    for (int j = 0; j < rn; j++) {
        CHECK(ag[j] == rw[j], "overlapped allgather %d", j);
        CHECK(a2a[j] == rw[j] * 100 + lrank, "overlapped alltoall %d", j);
    }
    if (side == 1) {
        CHECK(bval == 4242, "overlapped bcast: %d", bval);
    }
    CHECK(sum2 == rw[rn - 1], "overlapped max: %d", sum2);
    MPI_OK(MPI_Comm_free(&d));
    free(ag);
    free(a2a);
    free(mine);
}

static void check_errors(void)
{
    int rc, ec, x = 1, y;
    MPI_Request req;
    MPI_OK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    rc = MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "Scan on an intercommunicator: class %d", ec);
    rc = MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "Exscan on an intercommunicator: class %d", ec);
    rc = MPI_Iscan(&x, &y, 1, MPI_INT, MPI_SUM, inter, &req);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_COMM, "Iscan on an intercommunicator: class %d", ec);
    rc = MPI_Bcast(&x, 1, MPI_INT, rn, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_ROOT, "Bcast with root = remote size: class %d", ec);
    rc = MPI_Bcast(&x, 1, MPI_INT, -5, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_ROOT, "Bcast with root -5: class %d", ec);
    rc = MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_ARG, "Allreduce MPI_IN_PLACE on an intercommunicator: class %d", ec);
    rc = MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, &y, 1, MPI_INT, inter);
    MPI_Error_class(rc, &ec);
    CHECK(ec == MPI_ERR_ARG, "Allgather MPI_IN_PLACE on an intercommunicator: class %d", ec);
    /* still usable afterwards */
    MPI_OK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, inter));
    CHECK(y == rn, "allreduce after the errors: %d", y);
}

static int halves(int r, int n) { return r < n / 2; }
static int one_rest(int r, int n) { (void)n; return r == 0; }
static int parity(int r, int n) { (void)n; return r % 2; }

static void one_split(int (*color)(int, int), MPI_Op first)
{
    side = color(mt_rank, mt_size);
    ln = rn = 0;
    for (int r = 0; r < mt_size; r++) {
        if (color(r, mt_size) == side) lw[ln++] = r; else rw[rn++] = r;
    }
    if (ln == 0 || rn == 0) return;
    MPI_Comm half;
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, side, mt_rank, &half));
    MPI_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rw[0], 3, &inter));
    MPI_OK(MPI_Comm_rank(inter, &lrank));
    for (int rep = 0; rep < 2; rep++) { /* the second time from the closure cache */
        check_bcast_reduce(first);
        check_all(first);
    }
    check_large();
    if (mode == 1) {
        check_overlap();
    }
    check_errors();
    /* a dup has caches of its own */
    MPI_Comm d;
    MPI_OK(MPI_Comm_dup(inter, &d));
    MPI_Comm keep = inter;
    inter = d;
    check_all(first);
    inter = keep;
    MPI_OK(MPI_Comm_free(&d));
    MPI_OK(MPI_Comm_free(&inter));
    MPI_OK(MPI_Comm_free(&half));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "intercomm_coll");
    if (argc > 1) {
        mode = strcmp(argv[1], "nbc") == 0 ? 1 : strcmp(argv[1], "persist") == 0 ? 2 : 0;
    }
    MPI_Op first;
    MPI_OK(MPI_Op_create(first_op, 0, &first));
    lw = mt_malloc(sizeof(int) * (size_t)mt_size);
    rw = mt_malloc(sizeof(int) * (size_t)mt_size);
    if (mt_size >= 2) {
        one_split(halves, first);
        one_split(one_rest, first);
        one_split(parity, first);
    }
    free(lw);
    free(rw);
    MPI_OK(MPI_Op_free(&first));
    return mt_finish();
}
