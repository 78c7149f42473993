/*
 * coll_nbc.c -- every nonblocking collective against a local reference.
 *
 *   1. one at a time: every MPI_I* kind, sizes across the eager/rendezvous boundary
 *      (up to 17000 ints, 68 KB per block), roots 0, last and middle, in place where
 *      MPI allows it, completed by MPI_Wait or an MPI_Test loop; reductions with
 *      MPI_SUM and with a non-commutative user op (composition of affine maps), so the
 *      rank order of the combination is checked;
 *   2. many at once: every kind started twice on two communicators (a dup of WORLD and a
 *      reversed split), interleaved with point-to-point ring traffic on WORLD (eager and
 *      rendezvous sizes), then completed in a random order of each rank's own by
 *      MPI_Waitany, MPI_Test loops, MPI_Wait and MPI_Testall;
 *   3. derived datatypes: Ibcast, Ireduce, Iallreduce (MPI_SUM on a strided vector of
 *      ints), Igather, Iscatter, Iallgather and Ialltoall with a strided vector type on
 *      one side and plain MPI_INT on the other, eager and rendezvous sizes, each also as
 *      a persistent collective (MPI_*_init) started twice; the gaps of every strided
 *      receive buffer must stay untouched.
 *
 * Every receive buffer has guard elements that must stay untouched.  Argument
 * "barrier-first": a blocking MPI_Barrier on each communicator before its nonblocking
 * calls.
 */
#include <mpi.h>

#include "tests/mpi/mpitest.h"

#include <string.h>

#define GUARD 4
#define AFF_M 1009

enum {
    K_BARRIER,
    K_BCAST,
    K_REDUCE,
    K_ALLREDUCE,
    K_GATHER,
    K_GATHERV,
    K_SCATTER,
    K_SCATTERV,
    K_ALLGATHER,
    K_ALLGATHERV,
    K_ALLTOALL,
    K_ALLTOALLV,
    K_ALLTOALLW,
    K_RS,
    K_RSB,
    K_SCAN,
    K_EXSCAN,
    K_REDUCE_NC, /* the non-commutative op on pairs */
    K_ALLREDUCE_NC,
    K_SCAN_NC,
    K_N
};

static const char *const kname[K_N] = {
    "Ibarrier",   "Ibcast",   "Ireduce",         "Iallreduce",      "Igather",
    "Igatherv",   "Iscatter", "Iscatterv",       "Iallgather",      "Iallgatherv",
    "Ialltoall",  "Ialltoallv", "Ialltoallw",    "Ireduce_scatter", "Ireduce_scatter_block",
    "Iscan",      "Iexscan",  "Ireduce(affine)", "Iallreduce(affine)", "Iscan(affine)"};

/* "barrier-first": a blocking barrier on each communicator before its nonblocking calls,
   which a closure may need to make its segments before they can use them (a tree's host
   level, core/coll/executors/tree_host.c) */
static int barrier_first;
static MPI_Datatype pair_t;
static MPI_Op affine_op;

/* (a1, b1) op (a2, b2): x -> a1 x + b1, then a2 x + b2; associative, not commutative */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *a = in;
    int *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        int a1 = a[2 * i], b1 = a[2 * i + 1], a2 = b[2 * i], b2 = b[2 * i + 1];
        b[2 * i] = (a1 * a2) % AFF_M;
        b[2 * i + 1] = (a2 * b1 + b2) % AFF_M;
    }
}

static int pos(int v, int m)
{
    return ((v % m) + m) % m;
}

typedef struct nbc {
    int kind, root, n, inplace, seed;
    MPI_Comm comm;
    int me, p;
    int *sbuf, *rbuf, *exp;
    long rlen;            /* checked elements of rbuf (plus GUARD) */
    int check;            /* compare rbuf with exp at the end */
    int *sc, *sd, *rc, *rd; /* counts and displacements (v, w kinds) */
    MPI_Datatype *st, *rt;  /* alltoallw */
    MPI_Request req;
} nbc_t;

static int val(const nbc_t *t, long r, long i)
{
    return mt_ival(r, i, t->seed);
}

static int is_nc(int k)
{
    return k >= K_REDUCE_NC;
}

/* the element count of the reduction kinds' vectors (pairs count 2 ints) */
static int width(const nbc_t *t)
{
    return is_nc(t->kind) ? 2 : 1;
}

/* rank r's pair at i */
static void pair_of(const nbc_t *t, long r, long i, int *a, int *b)
{
    *a = 1 + pos(val(t, r, i), AFF_M - 1);
    *b = pos(val(t, r, i + 100000), AFF_M);
}

/* the combination of ranks lo..hi (inclusive) at element i into exp[w*i..] */
static void reference(const nbc_t *t, int lo, int hi, long i, int *out)
{
    if (is_nc(t->kind)) {
        int a = 1, b = 0;
        for (int r = lo; r <= hi; r++) {
            int a2, b2;
            pair_of(t, r, i, &a2, &b2);
            b = (a2 * b + b2) % AFF_M;
            a = (a * a2) % AFF_M;
        }
        out[0] = a;
        out[1] = b;
        return;
    }
    long s = 0;
    for (int r = lo; r <= hi; r++) {
        s += val(t, r, i);
    }
    out[0] = (int)s;
}

/* this rank's input of a reduction at element i */
static void input_of(const nbc_t *t, long i, int *out)
{
    if (is_nc(t->kind)) {
        pair_of(t, t->me, i, &out[0], &out[1]);
    } else {
        out[0] = val(t, t->me, i);
    }
}

static int *ibuf(long n)
{
    return mt_ibuf(GUARD, n);
}

/* counts[r] = base + (r * mult) % 3, displacements with a gap of one after each block */
static long v_layout(int p, int base, int mult, int *counts, int *displs)
{
    long off = 0;
    for (int r = 0; r < p; r++) {
        counts[r] = base + (r * mult) % 3;
        displs[r] = (int)off;
        off += counts[r] + 1;
    }
    return off;
}

/* the blocks of p ranks in *counts and *displs (allocated here): with v those of v_layout,
   else n each, back to back; returns the elements they span */
static long blocks(int v, int p, int n, int **counts, int **displs)
{
    *counts = mt_malloc(sizeof(int) * (size_t)p);
    *displs = mt_malloc(sizeof(int) * (size_t)p);
    if (v) {
        return v_layout(p, n, 1, *counts, *displs);
    }
    for (int r = 0; r < p; r++) {
        (*counts)[r] = n;
        (*displs)[r] = r * n;
    }
    return (long)p * n;
}

/* every rank's block into buf, at its displacement */
static void fill_blocks(const nbc_t *t, int *buf, const int *counts, const int *displs)
{
    for (int r = 0; r < t->p; r++) {
        for (long i = 0; i < counts[r]; i++) {
            buf[displs[r] + i] = val(t, r, i);
        }
    }
}

static void setup(nbc_t *t)
{
    int p = t->p, me = t->me, n = t->n, root = t->root;
    long total;
    t->check = 1;
    t->rlen = 0;
    t->req = MPI_REQUEST_NULL;
    switch (t->kind) {
    case K_BARRIER:
        t->check = 0;
        break;
    case K_BCAST:
        t->rbuf = ibuf(n);
        t->exp = ibuf(n);
        t->rlen = n;
        for (long i = 0; i < n; i++) {
            t->exp[i] = val(t, root, i);
            if (me == root) {
                t->rbuf[i] = t->exp[i];
            }
        }
        break;
    case K_REDUCE:
    case K_ALLREDUCE:
    case K_SCAN:
    case K_EXSCAN:
    case K_REDUCE_NC:
    case K_ALLREDUCE_NC:
    case K_SCAN_NC: {
        int w = width(t), k = t->kind;
        int receives = (k != K_REDUCE && k != K_REDUCE_NC) || me == root;
        t->sbuf = ibuf((long)w * n);
        t->rbuf = ibuf((long)w * n);
        t->exp = ibuf((long)w * n);
        t->rlen = (long)w * n;
        for (long i = 0; i < n; i++) {
            input_of(t, i, &t->sbuf[w * i]);
            if (t->inplace) {
                input_of(t, i, &t->rbuf[w * i]);
            }
            if (!receives) {
                if (t->inplace) {
                    input_of(t, i, &t->exp[w * i]);
                }
                continue;
            }
            int hi = (k == K_SCAN || k == K_SCAN_NC) ? me : k == K_EXSCAN ? me - 1 : p - 1;
            reference(t, 0, hi, i, &t->exp[w * i]);
        }
        /* exscan: rank 0's receive buffer is undefined */
        t->check = !(k == K_EXSCAN && me == 0);
        break;
    }
    case K_GATHER:
    case K_GATHERV: {
        total = blocks(t->kind == K_GATHERV, p, n, &t->rc, &t->rd);
        t->sbuf = ibuf(t->rc[me]);
        for (long i = 0; i < t->rc[me]; i++) {
            t->sbuf[i] = val(t, me, i);
        }
        t->rbuf = ibuf(total);
        t->exp = ibuf(total);
        t->rlen = total;
        if (me == root) {
            fill_blocks(t, t->exp, t->rc, t->rd);
            if (t->inplace) {
                memcpy(t->rbuf + t->rd[me], t->sbuf, sizeof(int) * (size_t)t->rc[me]);
            }
        }
        break;
    }
    case K_SCATTER:
    case K_SCATTERV: {
        total = blocks(t->kind == K_SCATTERV, p, n, &t->sc, &t->sd);
        t->sbuf = ibuf(total);
        fill_blocks(t, t->sbuf, t->sc, t->sd);
        t->rbuf = ibuf(t->sc[me]);
        t->exp = ibuf(t->sc[me]);
        t->rlen = t->sc[me];
        for (long i = 0; i < t->sc[me]; i++) {
            t->exp[i] = val(t, me, i);
        }
        if (me == root && t->inplace) {
            t->check = 0; /* the root's block stays where it is, in sbuf */
        }
        break;
    }
    case K_ALLGATHER:
    case K_ALLGATHERV: {
        total = blocks(t->kind == K_ALLGATHERV, p, n, &t->rc, &t->rd);
        t->sbuf = ibuf(t->rc[me]);
        t->rbuf = ibuf(total);
        t->exp = ibuf(total);
        t->rlen = total;
        fill_blocks(t, t->exp, t->rc, t->rd);
        for (long i = 0; i < t->rc[me]; i++) {
            t->sbuf[i] = val(t, me, i);
            if (t->inplace) {
                t->rbuf[t->rd[me] + i] = t->sbuf[i];
            }
        }
        break;
    }
    case K_ALLTOALL:
    case K_ALLTOALLV:
    case K_ALLTOALLW: {
        int v = t->kind != K_ALLTOALL;
        long stotal;
        t->sc = mt_malloc(sizeof(int) * (size_t)p);
        t->sd = mt_malloc(sizeof(int) * (size_t)p);
        t->rc = mt_malloc(sizeof(int) * (size_t)p);
        t->rd = mt_malloc(sizeof(int) * (size_t)p);
        /* me sends n + (me + j) % 3 to j; receives n + (j + me) % 3 from j; in place
           needs the send layout to be the receive layout */
        stotal = 0;
        total = 0;
        for (int j = 0; j < p; j++) {
            t->sc[j] = t->rc[j] = v ? n + (me + j) % 3 : n;
            t->sd[j] = (int)stotal;
            t->rd[j] = (int)total;
            stotal += t->sc[j] + (v && !t->inplace ? 2 : 0);
            total += t->rc[j] + (v ? 1 : 0);
        }
        if (t->inplace) {
            stotal = total;
        }
        t->sbuf = ibuf(stotal);
        t->rbuf = ibuf(total);
        t->exp = ibuf(total);
        t->rlen = total;
        for (int j = 0; j < p; j++) {
            for (long i = 0; i < t->sc[j]; i++) {
                t->sbuf[t->sd[j] + i] = val(t, (long)me * p + j, i);
                if (t->inplace) {
                    t->rbuf[t->rd[j] + i] = val(t, (long)me * p + j, i);
                }
            }
            for (long i = 0; i < t->rc[j]; i++) {
                t->exp[t->rd[j] + i] = val(t, (long)j * p + me, i);
            }
        }
        if (t->kind == K_ALLTOALLW) {
            t->st = mt_malloc(sizeof(MPI_Datatype) * (size_t)p);
            t->rt = mt_malloc(sizeof(MPI_Datatype) * (size_t)p);
            for (int j = 0; j < p; j++) {
                t->st[j] = t->rt[j] = MPI_INT;
                t->sd[j] *= (int)sizeof(int); /* bytes */
                t->rd[j] *= (int)sizeof(int);
            }
        }
        break;
    }
    case K_RS:
    case K_RSB: {
        long off = 0, mine_off = 0;
        t->rc = mt_malloc(sizeof(int) * (size_t)p);
        for (int r = 0; r < p; r++) {
            t->rc[r] = t->kind == K_RSB ? n : n + r % 2;
            if (r == me) {
                mine_off = off;
            }
            off += t->rc[r];
        }
        total = off;
        t->sbuf = ibuf(total);
        for (long i = 0; i < total; i++) {
            t->sbuf[i] = val(t, me, i);
        }
        t->rbuf = ibuf(t->inplace ? total : t->rc[me]);
        if (t->inplace) {
            memcpy(t->rbuf, t->sbuf, sizeof(int) * (size_t)total);
        }
        t->exp = ibuf(t->rc[me]);
        t->rlen = t->rc[me];
        for (long i = 0; i < t->rc[me]; i++) {
            reference(t, 0, p - 1, mine_off + i, &t->exp[i]);
        }
        break;
    }
    }
}

static void start(nbc_t *t)
{
    MPI_Comm c = t->comm;
    int n = t->n, root = t->root, ip = t->inplace;
    void *s = t->sbuf;
    int *r = t->rbuf;
    switch (t->kind) {
    case K_BARRIER:
        MPI_OK(MPI_Ibarrier(c, &t->req));
        break;
    case K_BCAST:
        MPI_OK(MPI_Ibcast(r, n, MPI_INT, root, c, &t->req));
        break;
    case K_REDUCE:
        MPI_OK(MPI_Ireduce(ip && t->me == root ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, root,
                           c, &t->req));
        break;
    case K_REDUCE_NC:
        MPI_OK(MPI_Ireduce(ip && t->me == root ? MPI_IN_PLACE : s, r, n, pair_t, affine_op, root,
                           c, &t->req));
        break;
    case K_ALLREDUCE:
        MPI_OK(MPI_Iallreduce(ip ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, c, &t->req));
        break;
    case K_ALLREDUCE_NC:
        MPI_OK(MPI_Iallreduce(ip ? MPI_IN_PLACE : s, r, n, pair_t, affine_op, c, &t->req));
        break;
    case K_SCAN:
        MPI_OK(MPI_Iscan(ip ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, c, &t->req));
        break;
    case K_SCAN_NC:
        MPI_OK(MPI_Iscan(ip ? MPI_IN_PLACE : s, r, n, pair_t, affine_op, c, &t->req));
        break;
    case K_EXSCAN:
        MPI_OK(MPI_Iexscan(ip ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, c, &t->req));
        break;
    case K_GATHER:
        MPI_OK(MPI_Igather(ip && t->me == root ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT,
                           root, c, &t->req));
        break;
    case K_GATHERV:
        MPI_OK(MPI_Igatherv(ip && t->me == root ? MPI_IN_PLACE : s, t->rc[t->me], MPI_INT, r,
                            t->rc, t->rd, MPI_INT, root, c, &t->req));
        break;
    case K_SCATTER:
        MPI_OK(MPI_Iscatter(s, n, MPI_INT, ip && t->me == root ? MPI_IN_PLACE : (void *)r, n,
                            MPI_INT, root, c, &t->req));
        break;
    case K_SCATTERV:
        MPI_OK(MPI_Iscatterv(s, t->sc, t->sd, MPI_INT,
                             ip && t->me == root ? MPI_IN_PLACE : (void *)r, t->sc[t->me],
                             MPI_INT, root, c, &t->req));
        break;
    case K_ALLGATHER:
        MPI_OK(MPI_Iallgather(ip ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, c, &t->req));
        break;
    case K_ALLGATHERV:
        MPI_OK(MPI_Iallgatherv(ip ? MPI_IN_PLACE : s, t->rc[t->me], MPI_INT, r, t->rc, t->rd,
                               MPI_INT, c, &t->req));
        break;
    case K_ALLTOALL:
        MPI_OK(MPI_Ialltoall(ip ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, c, &t->req));
        break;
    case K_ALLTOALLV:
        MPI_OK(MPI_Ialltoallv(ip ? MPI_IN_PLACE : s, t->sc, t->sd, MPI_INT, r, t->rc, t->rd,
                              MPI_INT, c, &t->req));
        break;
    case K_ALLTOALLW:
        MPI_OK(MPI_Ialltoallw(ip ? MPI_IN_PLACE : s, t->sc, t->sd, t->st, r, t->rc, t->rd, t->rt,
                              c, &t->req));
        break;
    case K_RS:
        MPI_OK(MPI_Ireduce_scatter(ip ? MPI_IN_PLACE : s, r, t->rc, MPI_INT, MPI_SUM, c,
                                   &t->req));
        break;
    case K_RSB:
        MPI_OK(MPI_Ireduce_scatter_block(ip ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, c,
                                         &t->req));
        break;
    }
    CHECK(t->req != MPI_REQUEST_NULL, "%s returned MPI_REQUEST_NULL", kname[t->kind]);
}

static void finish(nbc_t *t)
{
    char what[128];
    CHECK(t->req == MPI_REQUEST_NULL, "%s: the request is not MPI_REQUEST_NULL after completion",
          kname[t->kind]);
    if (t->check && t->exp != NULL) {
        snprintf(what, sizeof(what), "%s n=%d root=%d%s", kname[t->kind], t->n, t->root,
                 t->inplace ? " in place" : "");
        if (t->kind == K_REDUCE || t->kind == K_REDUCE_NC) {
            if (t->me != t->root && !t->inplace) {
                /* a non-root's receive buffer is not touched */
                for (long i = 0; i < t->rlen; i++) {
                    t->exp[i] = MT_SENTINEL;
                }
            }
        }
        if ((t->kind == K_RS || t->kind == K_RSB) && t->inplace) {
            /* in place, the input vector fills rbuf: past this rank's block it is undefined */
            memcpy(t->exp + t->rlen, t->rbuf + t->rlen, sizeof(int) * GUARD);
        }
        mt_check_ints(GUARD, t->rbuf, t->exp, t->rlen, what);
    }
    free(t->sbuf);
    free(t->rbuf);
    free(t->exp);
    free(t->sc);
    free(t->sd);
    free(t->rc);
    free(t->rd);
    free(t->st);
    free(t->rt);
}

static int in_place_ok(int k)
{
    return k != K_BARRIER && k != K_BCAST;
}

static int rooted(int k)
{
    return k == K_BCAST || k == K_REDUCE || k == K_REDUCE_NC || k == K_GATHER ||
           k == K_GATHERV || k == K_SCATTER || k == K_SCATTERV;
}

static void init(nbc_t *t, int kind, MPI_Comm comm, int root, int n, int inplace, int seed)
{
    memset(t, 0, sizeof(*t));
    t->kind = kind;
    t->comm = comm;
    t->root = root;
    t->n = n;
    t->inplace = inplace;
    t->seed = seed;
    MPI_OK(MPI_Comm_rank(comm, &t->me));
    MPI_OK(MPI_Comm_size(comm, &t->p));
    setup(t);
}

/* 1: one at a time */
static void one_at_a_time(void)
{
    static const int sizes[] = {1, 300, 17000};
    int p = mt_size, seed = 1;
    int roots[3] = {0, p - 1, p / 2};
    nbc_t t;

    for (int k = 0; k < K_N; k++) {
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            int nroots = rooted(k) ? (sizes[si] > 1000 ? 1 : 3) : 1;
            for (int ri = 0; ri < nroots; ri++) {
                if (ri > 0 && roots[ri] == roots[ri - 1]) {
                    continue;
                }
                for (int ip = 0; ip <= in_place_ok(k); ip++) {
                    init(&t, k, MPI_COMM_WORLD, rooted(k) ? roots[ri] : 0, sizes[si], ip, seed++);
                    start(&t);
                    if (seed % 2) {
                        MPI_OK(MPI_Wait(&t.req, MPI_STATUS_IGNORE));
                    } else {
                        int flag = 0;
                        while (!flag) {
                            MPI_OK(MPI_Test(&t.req, &flag, MPI_STATUS_IGNORE));
                        }
                    }
                    finish(&t);
                }
            }
        }
    }
}

/* 2: many outstanding on two communicators, with point-to-point traffic, completed in a
   random order */
#define P2P_MSGS 4
static void many_at_once(void)
{
    MPI_Comm comms[2];
    int p = mt_size, me = mt_rank;
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]));
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, p - me, &comms[1]));
    if (barrier_first) {
        MPI_OK(MPI_Barrier(comms[0]));
        MPI_OK(MPI_Barrier(comms[1]));
    }

    int nt = 2 * 2 * K_N;
    nbc_t *t = mt_malloc(sizeof(*t) * (size_t)nt);
    int nreq = nt + 2 * P2P_MSGS;
    MPI_Request *reqs = mt_malloc(sizeof(MPI_Request) * (size_t)nreq);
    int *owner = mt_malloc(sizeof(int) * (size_t)nreq);
    size_t p2p_len[P2P_MSGS] = {8, 1000, 70000, 200000};
    unsigned char *sbufs[P2P_MSGS], *rbufs[P2P_MSGS];
    int i = 0, r = 0;

    for (int m = 0; m < P2P_MSGS; m++) {
        sbufs[m] = mt_malloc(p2p_len[m]);
        rbufs[m] = mt_malloc(p2p_len[m]);
        mt_fill(sbufs[m], p2p_len[m], me, m);
    }
    /* same order of collectives on each communicator on every rank; the p2p traffic
       interleaved */
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < K_N; k++) {
            for (int c = 0; c < 2; c++) {
                int n = (k == K_BCAST || k == K_ALLREDUCE) && round == 1 ? 17000 : 5 + k;
                init(&t[i], k, comms[c], rooted(k) ? (k + c + round) % p : 0, n,
                     in_place_ok(k) && (k + round) % 2, 1000 + i);
                start(&t[i]);
                reqs[r] = t[i].req;
                owner[r++] = i;
                i++;
            }
            if (round == 0 && k < P2P_MSGS) {
                MPI_OK(MPI_Irecv(rbufs[k], (int)p2p_len[k], MPI_BYTE, (me - 1 + p) % p, 7,
                                 MPI_COMM_WORLD, &reqs[r]));
                owner[r++] = -1 - k;
                MPI_OK(MPI_Isend(sbufs[k], (int)p2p_len[k], MPI_BYTE, (me + 1) % p, 7,
                                 MPI_COMM_WORLD, &reqs[r]));
                owner[r++] = -100;
            }
        }
    }
    /* shuffle, this rank's own way */
    srand(4242u + (unsigned)me * 7919u);
    for (int a = r - 1; a > 0; a--) {
        int b = rand() % (a + 1);
        MPI_Request tr = reqs[a];
        int to = owner[a];
        reqs[a] = reqs[b];
        owner[a] = owner[b];
        reqs[b] = tr;
        owner[b] = to;
    }
    int left = r, step = 0;
    while (left > 0) {
        int idx = MPI_UNDEFINED, flag = 0;
        switch (step++ % 4) {
        case 0:
            MPI_OK(MPI_Waitany(r, reqs, &idx, MPI_STATUS_IGNORE));
            break;
        case 1: /* a Test loop on the first one left */
            for (int a = 0; a < r; a++) {
                if (reqs[a] != MPI_REQUEST_NULL) {
                    while (!flag) {
                        MPI_OK(MPI_Test(&reqs[a], &flag, MPI_STATUS_IGNORE));
                    }
                    idx = a;
                    break;
                }
            }
            break;
        case 2: /* Wait on the last one left */
            for (int a = r - 1; a >= 0; a--) {
                if (reqs[a] != MPI_REQUEST_NULL) {
                    MPI_OK(MPI_Wait(&reqs[a], MPI_STATUS_IGNORE));
                    idx = a;
                    break;
                }
            }
            break;
        default:
            MPI_OK(MPI_Testany(r, reqs, &idx, &flag, MPI_STATUS_IGNORE));
            if (!flag) {
                idx = MPI_UNDEFINED;
            }
            break;
        }
        if (idx == MPI_UNDEFINED) {
            continue;
        }
        left--;
        if (owner[idx] >= 0) {
            t[owner[idx]].req = MPI_REQUEST_NULL;
        }
        /* every few completions, the rest in one Testall when it happens to be done */
        if (left > 0 && left % 7 == 0) {
            int all = 0;
            MPI_OK(MPI_Testall(r, reqs, &all, MPI_STATUSES_IGNORE));
            if (all) {
                left = 0;
                for (int a = 0; a < nt; a++) {
                    t[a].req = MPI_REQUEST_NULL;
                }
            }
        }
    }
    for (int a = 0; a < nt; a++) {
        finish(&t[a]);
    }
    for (int m = 0; m < P2P_MSGS; m++) {
        long bad = mt_verify(rbufs[m], p2p_len[m], (me - 1 + p) % p, m);
        CHECK(bad < 0, "ring message %d (%zu bytes): wrong byte at %ld", m, p2p_len[m], bad);
        free(sbufs[m]);
        free(rbufs[m]);
    }
    free(t);
    free(reqs);
    free(owner);
    MPI_OK(MPI_Comm_free(&comms[0]));
    MPI_OK(MPI_Comm_free(&comms[1]));
}

/* ---- 3. derived datatypes ------------------------------------------------------------ */

#define GAP (-7)

/* start kind k (nonblocking, or persistent: init, then start) on WORLD with the strided
   type `vec' (n ints, stride 2) or `vecr' (the same resized to 2n ints, for blocks) */
static void dt_start(int k, int persist, int root, int n, MPI_Datatype vec, MPI_Datatype vecr,
                     int *sv, int *rv, int *cont, MPI_Request *req)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info in = MPI_INFO_NULL;
    switch (k) {
    case K_BCAST:
        MPI_OK(persist ? MPI_Bcast_init(rv, 1, vec, root, w, in, req)
                       : MPI_Ibcast(rv, 1, vec, root, w, req));
        break;
    case K_REDUCE:
        MPI_OK(persist ? MPI_Reduce_init(sv, rv, 1, vec, MPI_SUM, root, w, in, req)
                       : MPI_Ireduce(sv, rv, 1, vec, MPI_SUM, root, w, req));
        break;
    case K_ALLREDUCE:
        MPI_OK(persist ? MPI_Allreduce_init(sv, rv, 1, vec, MPI_SUM, w, in, req)
                       : MPI_Iallreduce(sv, rv, 1, vec, MPI_SUM, w, req));
        break;
    case K_GATHER: /* strided send, contiguous blocks at the root */
        MPI_OK(persist ? MPI_Gather_init(sv, 1, vec, cont, n, MPI_INT, root, w, in, req)
                       : MPI_Igather(sv, 1, vec, cont, n, MPI_INT, root, w, req));
        break;
    case K_SCATTER: /* contiguous blocks at the root, strided receive */
        MPI_OK(persist ? MPI_Scatter_init(cont, n, MPI_INT, rv, 1, vec, root, w, in, req)
                       : MPI_Iscatter(cont, n, MPI_INT, rv, 1, vec, root, w, req));
        break;
    case K_ALLGATHER: /* contiguous send, strided blocks received */
        MPI_OK(persist ? MPI_Allgather_init(cont, n, MPI_INT, rv, 1, vecr, w, in, req)
                       : MPI_Iallgather(cont, n, MPI_INT, rv, 1, vecr, w, req));
        break;
    case K_ALLTOALL: /* strided blocks sent, contiguous blocks received */
        MPI_OK(persist ? MPI_Alltoall_init(sv, 1, vecr, cont, n, MPI_INT, w, in, req)
                       : MPI_Ialltoall(sv, 1, vecr, cont, n, MPI_INT, w, req));
        break;
    }
    if (persist) {
        MPI_OK(MPI_Start(req));
    }
}

/* fill the inputs, clear the outputs (strided ones to GAP) */
static void dt_fill(int k, int me, int p, int root, int n, int *sv, int *rv, int *cont)
{
    long vlen = 2L * n * p;
    for (long i = 0; i < vlen; i++) {
        sv[i] = GAP;
        rv[i] = GAP;
    }
    for (long i = 0; i < (long)n * p; i++) {
        cont[i] = GAP;
    }
    for (long i = 0; i < n; i++) {
        switch (k) {
        case K_BCAST:
            if (me == root) {
                rv[2 * i] = mt_ival(root, i, 31);
            }
            break;
        case K_REDUCE:
        case K_ALLREDUCE:
        case K_GATHER:
            sv[2 * i] = mt_ival(me, i, 31);
            break;
        case K_ALLGATHER:
            cont[i] = mt_ival(me, i, 31);
            break;
        case K_SCATTER:
            if (me == root) {
                for (int r = 0; r < p; r++) {
                    cont[(long)r * n + i] = mt_ival(r, i, 31);
                }
            }
            break;
        case K_ALLTOALL:
            for (int j = 0; j < p; j++) {
                sv[2L * n * j + 2 * i] = mt_ival((long)me * p + j, i, 31);
            }
            break;
        }
    }
}

/* check the outputs against the reference; gaps must still be GAP */
static void dt_check(int k, int me, int p, int root, int n, const int *rv, const int *cont,
                     const char *how)
{
    long bad = -1, got = 0, want = 0;
    for (long i = 0; i < n && bad < 0; i++) {
        for (int b = 0; b < p && bad < 0; b++) {
            long at;
            const int *buf;
            int exp;
            switch (k) {
            case K_BCAST:
                if (b > 0) {
                    continue;
                }
                buf = rv, at = 2 * i, exp = mt_ival(root, i, 31);
                break;
            case K_REDUCE:
            case K_ALLREDUCE: {
                if (b > 0 || (k == K_REDUCE && me != root)) {
                    continue;
                }
                long sum = 0;
                for (int r = 0; r < p; r++) {
                    sum += mt_ival(r, i, 31);
                }
                buf = rv, at = 2 * i, exp = (int)sum;
                break;
            }
            case K_GATHER:
                if (me != root) {
                    continue;
                }
                buf = cont, at = (long)b * n + i, exp = mt_ival(b, i, 31);
                break;
            case K_SCATTER:
                if (b > 0) {
                    continue;
                }
                buf = rv, at = 2 * i, exp = mt_ival(me, i, 31);
                break;
            case K_ALLGATHER:
                buf = rv, at = 2L * n * b + 2 * i, exp = mt_ival(b, i, 31);
                break;
            default: /* K_ALLTOALL: block b came from rank b */
                buf = cont, at = (long)b * n + i, exp = mt_ival((long)b * p + me, i, 31);
                break;
            }
            if (buf[at] != exp) {
                bad = at, got = buf[at], want = exp;
            } else if (buf == rv && rv[at + 1] != GAP) {
                bad = at + 1, got = rv[at + 1], want = GAP;
            }
        }
    }
    CHECK(bad < 0, "%s %s n=%d root %d: element %ld is %ld, expected %ld", how, kname[k], n,
          root, bad, got, want);
}

static void derived_types(void)
{
    static const int kinds[] = {K_BCAST,  K_REDUCE,    K_ALLREDUCE, K_GATHER,
                                K_SCATTER, K_ALLGATHER, K_ALLTOALL};
    static const int sizes[] = {3, 17000};
    int me = mt_rank, p = mt_size;
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        int n = sizes[si];
        MPI_Datatype vec, vecr;
        MPI_OK(MPI_Type_vector(n, 1, 2, MPI_INT, &vec));
        MPI_OK(MPI_Type_commit(&vec));
        MPI_OK(MPI_Type_create_resized(vec, 0, (MPI_Aint)(2L * n * sizeof(int)), &vecr));
        MPI_OK(MPI_Type_commit(&vecr));
        int *sv = mt_malloc(sizeof(int) * 2 * (size_t)n * (size_t)p);
        int *rv = mt_malloc(sizeof(int) * 2 * (size_t)n * (size_t)p);
        int *cont = mt_malloc(sizeof(int) * (size_t)n * (size_t)p);
        for (size_t ki = 0; ki < sizeof(kinds) / sizeof(kinds[0]); ki++) {
            int k = kinds[ki], root = (int)(ki + si) % p;
            for (int persist = 0; persist < 2; persist++) {
                MPI_Request req = MPI_REQUEST_NULL;
                const char *how = persist ? "persistent" : "nonblocking";
                dt_fill(k, me, p, root, n, sv, rv, cont);
                dt_start(k, persist, root, n, vec, vecr, sv, rv, cont, &req);
                MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                dt_check(k, me, p, root, n, rv, cont, how);
                if (persist) { /* once more, on fresh buffers' contents */
                    dt_fill(k, me, p, root, n, sv, rv, cont);
                    MPI_OK(MPI_Start(&req));
                    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                    dt_check(k, me, p, root, n, rv, cont, "persistent (restarted)");
                    MPI_OK(MPI_Request_free(&req));
                }
            }
        }
        free(sv);
        free(rv);
        free(cont);
        MPI_OK(MPI_Type_free(&vec));
        MPI_OK(MPI_Type_free(&vecr));
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_nbc");
    MPI_OK(MPI_Type_contiguous(2, MPI_INT, &pair_t));
    MPI_OK(MPI_Type_commit(&pair_t));
    MPI_OK(MPI_Op_create(affine, 0, &affine_op));
    barrier_first = argc > 1 && strcmp(argv[1], "barrier-first") == 0;
    if (barrier_first) {
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    one_at_a_time();
    many_at_once();
    derived_types();

    /* the op and the type may go while nothing uses them */
    MPI_OK(MPI_Op_free(&affine_op));
    MPI_OK(MPI_Type_free(&pair_t));
    return mt_finish();
}
