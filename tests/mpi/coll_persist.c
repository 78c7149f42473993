/*
 * coll_persist.c -- persistent collectives (MPI-4) and nonblocking neighbourhood
 * collectives against local references.
 *
 *   1. every MPI_*_init kind (barrier ... exscan), small and rendezvous-sized blocks: one
 *      request made once, restarted ITERS times with new send buffer contents each time
 *      (the schedule must read the buffers at each start, not at init), completed by
 *      MPI_Wait or an MPI_Test loop, checked every time; then freed and re-created;
 *   2. MPI_Startall over several persistent requests on two communicators, completed by
 *      MPI_Waitall, many rounds; requests freed without ever being started;
 *   3. neighbourhood collectives on a periodic Cartesian grid (2-D, so dimensions of 1
 *      or 2 processes appear) and on a distributed graph with repeated edges at small
 *      sizes: MPI_Ineighbor_* (two outstanding at once, completed in reverse order) and
 *      MPI_Neighbor_*_init restarted many times.
 *
 * Every value is a function of (round, sender, block, element), so each rank computes
 * what it must receive without communicating.
 */
#include <mpi.h>

#include "tests/mpi/mpitest.h"

#define ITERS 200

static int rank, size;

static int val(int it, int r, int blk, int i)
{
    return it * 7919 + r * 1009 + blk * 101 + i;
}

/* complete: MPI_Wait, or an MPI_Test loop on odd rounds */
static void complete(MPI_Request *req, int it)
{
    if (it & 1) {
        int flag = 0;
        while (!flag) {
            MPI_OK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        }
    } else {
        MPI_OK(MPI_Wait(req, MPI_STATUS_IGNORE));
    }
    CHECK(*req != MPI_REQUEST_NULL, "a persistent request was freed by its completion");
}

static void expect(const char *what, int it, const int *got, const int *exp, int n)
{
    for (int i = 0; i < n; i++) {
        if (got[i] != exp[i]) {
            CHECK(0, "%s round %d: element %d is %d, expected %d", what, it, i, got[i], exp[i]);
            return;
        }
    }
}

/* ---- 1. every persistent kind ------------------------------------------------------ */

enum {
    P_BARRIER,
    P_BCAST,
    P_REDUCE,
    P_ALLREDUCE,
    P_GATHER,
    P_GATHERV,
    P_SCATTER,
    P_SCATTERV,
    P_ALLGATHER,
    P_ALLGATHERV,
    P_ALLTOALL,
    P_ALLTOALLV,
    P_ALLTOALLW,
    P_RS,
    P_RSB,
    P_SCAN,
    P_EXSCAN,
    P_N
};

static const char *const pname[P_N] = {
    "Barrier_init",    "Bcast_init",          "Reduce_init",
    "Allreduce_init",  "Gather_init",         "Gatherv_init",
    "Scatter_init",    "Scatterv_init",       "Allgather_init",
    "Allgatherv_init", "Alltoall_init",       "Alltoallv_init",
    "Alltoallw_init",  "Reduce_scatter_init", "Reduce_scatter_block_init",
    "Scan_init",       "Exscan_init"};

/* the buffers of one persistent call of n elements per block */
typedef struct pcall {
    int kind, n, root;
    int *s, *r, *e; /* send, receive, expected */
    int ns, nr;
    int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Datatype *types;
    MPI_Request req;
} pcall_t;

/* v counts: block of rank p (or pair p, q) */
static int vcount(int n, int p, int q)
{
    return n + (p + 2 * q) % 3;
}

static void pcall_init(pcall_t *c, int kind, int n)
{
    int p = size;
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->n = n;
    c->root = kind == P_BCAST ? p - 1 : p / 2;
    c->scounts = calloc((size_t)p, sizeof(int));
    c->sdispls = calloc((size_t)p, sizeof(int));
    c->rcounts = calloc((size_t)p, sizeof(int));
    c->rdispls = calloc((size_t)p, sizeof(int));
    c->types = malloc((size_t)p * sizeof(MPI_Datatype));
    for (int q = 0; q < p; q++) {
        c->types[q] = MPI_INT;
    }
    int ns = n, nr = n;
    switch (kind) {
    case P_GATHER:
    case P_ALLGATHER:
        nr = n * p;
        break;
    case P_SCATTER:
        ns = n * p;
        break;
    case P_GATHERV:
    case P_ALLGATHERV:
        ns = vcount(n, rank, 0);
        nr = 0;
        for (int q = 0; q < p; q++) {
            c->rcounts[q] = vcount(n, q, 0);
            c->rdispls[q] = nr + 1; /* a gap of one element */
            nr += c->rcounts[q] + 1;
        }
        break;
    case P_SCATTERV:
        ns = 0;
        for (int q = 0; q < p; q++) {
            c->scounts[q] = vcount(n, q, 0);
            c->sdispls[q] = ns + 2;
            ns += c->scounts[q] + 2;
        }
        nr = vcount(n, rank, 0);
        break;
    case P_ALLTOALL:
        ns = nr = n * p;
        break;
    case P_ALLTOALLV:
    case P_ALLTOALLW:
        ns = nr = 0;
        for (int q = 0; q < p; q++) {
            c->scounts[q] = vcount(n, rank, q);
            c->sdispls[q] = ns;
            ns += c->scounts[q];
            c->rcounts[q] = vcount(n, q, rank);
            c->rdispls[q] = nr;
            nr += c->rcounts[q];
        }
        if (kind == P_ALLTOALLW) {
            for (int q = 0; q < p; q++) {
                c->sdispls[q] *= (int)sizeof(int);
                c->rdispls[q] *= (int)sizeof(int);
            }
        }
        break;
    case P_RS:
        ns = 0;
        for (int q = 0; q < p; q++) {
            c->rcounts[q] = vcount(n, q, 0);
            ns += c->rcounts[q];
        }
        nr = c->rcounts[rank];
        break;
    case P_RSB:
        ns = n * p;
        break;
    default:
        break;
    }
    c->ns = ns;
    c->nr = nr;
    c->s = calloc((size_t)ns + 1, sizeof(int));
    c->r = calloc((size_t)nr + 1, sizeof(int));
    c->e = calloc((size_t)nr + 1, sizeof(int));
}

static void pcall_make(pcall_t *c, MPI_Comm comm)
{
    int n = c->n, root = c->root;
    MPI_Info info = MPI_INFO_NULL;
    MPI_Request *q = &c->req;
    switch (c->kind) {
    case P_BARRIER:
        MPI_OK(MPI_Barrier_init(comm, info, q));
        break;
    case P_BCAST:
        MPI_OK(MPI_Bcast_init(c->r, n, MPI_INT, root, comm, info, q));
        break;
    case P_REDUCE:
        MPI_OK(MPI_Reduce_init(c->s, c->r, n, MPI_INT, MPI_SUM, root, comm, info, q));
        break;
    case P_ALLREDUCE:
        MPI_OK(MPI_Allreduce_init(c->s, c->r, n, MPI_INT, MPI_SUM, comm, info, q));
        break;
    case P_GATHER:
        MPI_OK(MPI_Gather_init(c->s, n, MPI_INT, c->r, n, MPI_INT, root, comm, info, q));
        break;
    case P_GATHERV:
        MPI_OK(MPI_Gatherv_init(c->s, c->ns, MPI_INT, c->r, c->rcounts, c->rdispls, MPI_INT, root,
                                comm, info, q));
        break;
    case P_SCATTER:
        MPI_OK(MPI_Scatter_init(c->s, n, MPI_INT, c->r, n, MPI_INT, root, comm, info, q));
        break;
    case P_SCATTERV:
        MPI_OK(MPI_Scatterv_init(c->s, c->scounts, c->sdispls, MPI_INT, c->r, c->nr, MPI_INT, root,
                                 comm, info, q));
        break;
    case P_ALLGATHER:
        MPI_OK(MPI_Allgather_init(c->s, n, MPI_INT, c->r, n, MPI_INT, comm, info, q));
        break;
    case P_ALLGATHERV:
        MPI_OK(MPI_Allgatherv_init(c->s, c->ns, MPI_INT, c->r, c->rcounts, c->rdispls, MPI_INT,
                                   comm, info, q));
        break;
    case P_ALLTOALL:
        MPI_OK(MPI_Alltoall_init(c->s, n, MPI_INT, c->r, n, MPI_INT, comm, info, q));
        break;
    case P_ALLTOALLV:
        MPI_OK(MPI_Alltoallv_init(c->s, c->scounts, c->sdispls, MPI_INT, c->r, c->rcounts,
                                  c->rdispls, MPI_INT, comm, info, q));
        break;
    case P_ALLTOALLW:
        MPI_OK(MPI_Alltoallw_init(c->s, c->scounts, c->sdispls, c->types, c->r, c->rcounts,
                                  c->rdispls, c->types, comm, info, q));
        break;
    case P_RS:
        MPI_OK(MPI_Reduce_scatter_init(c->s, c->r, c->rcounts, MPI_INT, MPI_SUM, comm, info, q));
        break;
    case P_RSB:
        MPI_OK(MPI_Reduce_scatter_block_init(c->s, c->r, n, MPI_INT, MPI_SUM, comm, info, q));
        break;
    case P_SCAN:
        MPI_OK(MPI_Scan_init(c->s, c->r, n, MPI_INT, MPI_SUM, comm, info, q));
        break;
    case P_EXSCAN:
        MPI_OK(MPI_Exscan_init(c->s, c->r, n, MPI_INT, MPI_SUM, comm, info, q));
        break;
    }
}

/* new contents for round `it`, and what this rank must receive */
static void pcall_fill(pcall_t *c, int it)
{
    int n = c->n, p = size, root = c->root, k = 0;
    for (int i = 0; i < c->nr; i++) {
        c->r[i] = c->e[i] = -1 - it;
    }
    switch (c->kind) {
    case P_BCAST:
        for (int i = 0; i < n; i++) {
            c->e[i] = val(it, root, 0, i);
            if (rank == root) {
                c->r[i] = c->e[i];
            }
        }
        break;
    case P_REDUCE:
    case P_ALLREDUCE:
    case P_SCAN:
    case P_EXSCAN:
        for (int i = 0; i < n; i++) {
            c->s[i] = val(it, rank, 0, i);
            int upto = c->kind == P_SCAN ? rank + 1 : c->kind == P_EXSCAN ? rank : p;
            int sum = 0;
            for (int q = 0; q < upto; q++) {
                sum += val(it, q, 0, i);
            }
            if ((c->kind != P_REDUCE || rank == root) && (c->kind != P_EXSCAN || rank > 0)) {
                c->e[i] = sum;
            }
        }
        break;
    case P_GATHER:
    case P_ALLGATHER:
        for (int i = 0; i < n; i++) {
            c->s[i] = val(it, rank, 0, i);
        }
        if (c->kind == P_ALLGATHER || rank == root) {
            for (int q = 0; q < p; q++) {
                for (int i = 0; i < n; i++) {
                    c->e[q * n + i] = val(it, q, 0, i);
                }
            }
        }
        break;
    case P_GATHERV:
    case P_ALLGATHERV:
        for (int i = 0; i < c->ns; i++) {
            c->s[i] = val(it, rank, 0, i);
        }
        if (c->kind == P_ALLGATHERV || rank == root) {
            for (int q = 0; q < p; q++) {
                for (int i = 0; i < c->rcounts[q]; i++) {
                    c->e[c->rdispls[q] + i] = val(it, q, 0, i);
                }
            }
        }
        break;
    case P_SCATTER:
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < n; i++) {
                c->s[q * n + i] = val(it, q, 1, i);
            }
        }
        for (int i = 0; i < n; i++) {
            c->e[i] = val(it, rank, 1, i);
        }
        break;
    case P_SCATTERV:
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < c->scounts[q]; i++) {
                c->s[c->sdispls[q] + i] = val(it, q, 1, i);
            }
        }
        for (int i = 0; i < c->nr; i++) {
            c->e[i] = val(it, rank, 1, i);
        }
        break;
    case P_ALLTOALL:
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < n; i++) {
                c->s[q * n + i] = val(it, rank, q, i);
                c->e[q * n + i] = val(it, q, rank, i);
            }
        }
        break;
    case P_ALLTOALLV:
    case P_ALLTOALLW: {
        int scale = c->kind == P_ALLTOALLW ? (int)sizeof(int) : 1;
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < c->scounts[q]; i++) {
                c->s[c->sdispls[q] / scale + i] = val(it, rank, q, i);
            }
            for (int i = 0; i < c->rcounts[q]; i++) {
                c->e[c->rdispls[q] / scale + i] = val(it, q, rank, i);
            }
        }
        break;
    }
    case P_RS:
    case P_RSB:
        for (int i = 0; i < c->ns; i++) {
            c->s[i] = val(it, rank, 0, i);
        }
        for (int q = 0; q < rank; q++) {
            k += c->kind == P_RS ? c->rcounts[q] : n;
        }
        for (int i = 0; i < c->nr; i++) {
            int sum = 0;
            for (int q = 0; q < p; q++) {
                sum += val(it, q, 0, k + i);
            }
            c->e[i] = sum;
        }
        break;
    default:
        break;
    }
}

static void pcall_free(pcall_t *c)
{
    free(c->s);
    free(c->r);
    free(c->e);
    free(c->scounts);
    free(c->sdispls);
    free(c->rcounts);
    free(c->rdispls);
    free(c->types);
}

static void every_kind(int n, int iters)
{
    for (int kind = 0; kind < P_N; kind++) {
        pcall_t c;
        pcall_init(&c, kind, n);
        for (int round = 0; round < 2; round++) { /* made, freed, made again */
            pcall_make(&c, MPI_COMM_WORLD);
            for (int it = 0; it < iters; it++) {
                pcall_fill(&c, it + round * iters);
                MPI_OK(MPI_Start(&c.req));
                complete(&c.req, it);
                if (kind != P_EXSCAN || rank > 0) { /* rank 0's exscan result is undefined */
                    expect(pname[kind], it, c.r, c.e, c.nr);
                }
            }
            MPI_OK(MPI_Request_free(&c.req));
            CHECK(c.req == MPI_REQUEST_NULL, "%s: MPI_Request_free left the handle", pname[kind]);
        }
        pcall_free(&c);
    }
}

/* ---- 2. Startall over several, on two communicators --------------------------------- */

static void startall(void)
{
    enum { NREQ = 5 };
    static const int kinds[NREQ] = {P_ALLREDUCE, P_BCAST, P_ALLTOALL, P_BARRIER, P_SCAN};
    pcall_t c[NREQ];
    MPI_Request reqs[NREQ];
    MPI_Comm dup;
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int j = 0; j < NREQ; j++) {
        pcall_init(&c[j], kinds[j], 3 + j);
        pcall_make(&c[j], (j & 1) ? dup : MPI_COMM_WORLD);
        reqs[j] = c[j].req;
    }
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < NREQ; j++) {
            pcall_fill(&c[j], it);
        }
        MPI_OK(MPI_Startall(NREQ, reqs));
        MPI_OK(MPI_Waitall(NREQ, reqs, MPI_STATUSES_IGNORE));
        for (int j = 0; j < NREQ; j++) {
            expect(pname[kinds[j]], it, c[j].r, c[j].e, c[j].nr);
        }
    }
    for (int j = 0; j < NREQ; j++) {
        MPI_OK(MPI_Request_free(&reqs[j]));
        pcall_free(&c[j]);
    }
    /* made and freed without a start, many times: nothing leaks into later calls */
    for (int it = 0; it < 50; it++) {
        pcall_t x;
        pcall_init(&x, P_ALLREDUCE, 2);
        pcall_make(&x, dup);
        MPI_OK(MPI_Request_free(&x.req));
        pcall_free(&x);
    }
    MPI_OK(MPI_Comm_free(&dup));
}

/* ---- 3. neighbourhood collectives ---------------------------------------------------- */

enum { N_AG, N_AGV, N_A2A, N_A2AV, N_A2AW, N_N };
static const char *const nname[N_N] = {"allgather", "allgatherv", "alltoall", "alltoallv",
                                       "alltoallw"};

/* one neighbourhood: in[i] sends me its block from[i] */
typedef struct nbhd {
    MPI_Comm comm;
    int cart;
    int nin, nout;
    int in[8], out[8], from[8];
} nbhd_t;

/* elements of block b (alltoallv/w), the same on both ends of an edge */
static int ncount(const nbhd_t *h, int b)
{
    return h->cart ? b / 2 + 1 : b + 1;
}

typedef struct nbufs {
    int s[64], r[64], e[64];
    int sc[8], sd[8], rc[8], rd[8];
    MPI_Aint sdw[8], rdw[8];
    MPI_Datatype st[8], rt[8];
} nbufs_t;

static void nb_layout(const nbhd_t *h, int kind, nbufs_t *b)
{
    int off = 0;
    for (int j = 0; j < h->nout; j++) {
        b->sc[j] = kind == N_A2AV || kind == N_A2AW ? ncount(h, j) : 2;
        b->sd[j] = off;
        b->sdw[j] = (MPI_Aint)off * (MPI_Aint)sizeof(int);
        b->st[j] = MPI_INT;
        off += b->sc[j];
    }
    off = 0;
    for (int i = 0; i < h->nin; i++) {
        b->rc[i] = kind == N_A2AV || kind == N_A2AW ? ncount(h, i) : 2;
        b->rd[i] = off + 1; /* gaps */
        b->rdw[i] = (MPI_Aint)(off + 1) * (MPI_Aint)sizeof(int);
        b->rt[i] = MPI_INT;
        off += b->rc[i] + 1;
    }
}

static void nb_fill(const nbhd_t *h, int kind, nbufs_t *b, int it)
{
    int gather = kind == N_AG || kind == N_AGV;
    for (int i = 0; i < 64; i++) {
        b->r[i] = b->e[i] = -7;
    }
    for (int j = 0; j < h->nout; j++) {
        for (int i = 0; i < b->sc[j]; i++) {
            b->s[(gather ? 0 : b->sd[j]) + i] = val(it, rank, gather ? 0 : j, i);
        }
    }
    for (int k = 0; k < h->nin; k++) {
        if (h->in[k] == MPI_PROC_NULL) {
            continue;
        }
        int rbase = kind == N_AGV || kind == N_A2AV || kind == N_A2AW ? b->rd[k] : 2 * k;
        for (int i = 0; i < b->rc[k]; i++) {
            b->e[rbase + i] = val(it, h->in[k], gather ? 0 : h->from[k], i);
        }
    }
}

static void nb_call(const nbhd_t *h, int kind, nbufs_t *b, MPI_Request *q, int persistent)
{
    MPI_Comm c = h->comm;
    MPI_Info info = MPI_INFO_NULL;
    switch (kind + N_N * persistent) {
    case N_AG:
        MPI_OK(MPI_Ineighbor_allgather(b->s, 2, MPI_INT, b->r, 2, MPI_INT, c, q));
        break;
    case N_AGV:
        MPI_OK(MPI_Ineighbor_allgatherv(b->s, 2, MPI_INT, b->r, b->rc, b->rd, MPI_INT, c, q));
        break;
    case N_A2A:
        MPI_OK(MPI_Ineighbor_alltoall(b->s, 2, MPI_INT, b->r, 2, MPI_INT, c, q));
        break;
    case N_A2AV:
        MPI_OK(MPI_Ineighbor_alltoallv(b->s, b->sc, b->sd, MPI_INT, b->r, b->rc, b->rd, MPI_INT, c,
                                       q));
        break;
    case N_A2AW:
        MPI_OK(
            MPI_Ineighbor_alltoallw(b->s, b->sc, b->sdw, b->st, b->r, b->rc, b->rdw, b->rt, c, q));
        break;
    case N_N + N_AG:
        MPI_OK(MPI_Neighbor_allgather_init(b->s, 2, MPI_INT, b->r, 2, MPI_INT, c, info, q));
        break;
    case N_N + N_AGV:
        MPI_OK(MPI_Neighbor_allgatherv_init(b->s, 2, MPI_INT, b->r, b->rc, b->rd, MPI_INT, c, info,
                                            q));
        break;
    case N_N + N_A2A:
        MPI_OK(MPI_Neighbor_alltoall_init(b->s, 2, MPI_INT, b->r, 2, MPI_INT, c, info, q));
        break;
    case N_N + N_A2AV:
        MPI_OK(MPI_Neighbor_alltoallv_init(b->s, b->sc, b->sd, MPI_INT, b->r, b->rc, b->rd, MPI_INT,
                                           c, info, q));
        break;
    case N_N + N_A2AW:
        MPI_OK(MPI_Neighbor_alltoallw_init(b->s, b->sc, b->sdw, b->st, b->r, b->rc, b->rdw, b->rt,
                                           c, info, q));
        break;
    }
}

static void nb_expect(const nbhd_t *h, int kind, const nbufs_t *b, int it, const char *how)
{
    char what[96];
    snprintf(what, sizeof(what), "%s neighbor_%s on a %s", how, nname[kind],
             h->cart ? "Cartesian grid" : "distributed graph");
    expect(what, it, b->r, b->e, 64);
}

static void neighbours(const nbhd_t *h)
{
    static nbufs_t b[2];
    for (int kind = 0; kind < N_N; kind++) {
        /* nonblocking: two outstanding at once, completed in reverse order */
        for (int it = 0; it < 20; it++) {
            MPI_Request q[2];
            for (int j = 0; j < 2; j++) {
                nb_layout(h, kind, &b[j]);
                nb_fill(h, kind, &b[j], 2 * it + j);
                nb_call(h, kind, &b[j], &q[j], 0);
            }
            MPI_OK(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
            MPI_OK(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
            nb_expect(h, kind, &b[0], 2 * it, "nonblocking");
            nb_expect(h, kind, &b[1], 2 * it + 1, "nonblocking");
        }
        /* persistent: made once, restarted */
        MPI_Request q;
        nb_layout(h, kind, &b[0]);
        nb_fill(h, kind, &b[0], 0);
        nb_call(h, kind, &b[0], &q, 1);
        for (int it = 0; it < ITERS / 2; it++) {
            nb_fill(h, kind, &b[0], it);
            MPI_OK(MPI_Start(&q));
            complete(&q, it);
            nb_expect(h, kind, &b[0], it, "persistent");
        }
        MPI_OK(MPI_Request_free(&q));
    }
}

static void cart_grid(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    nbhd_t h = {.cart = 1, .nin = 4, .nout = 4};
    MPI_OK(MPI_Dims_create(size, 2, dims));
    MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &h.comm));
    for (int d = 0; d < 2; d++) {
        int src, dst;
        MPI_OK(MPI_Cart_shift(h.comm, d, 1, &src, &dst));
        h.in[2 * d] = h.out[2 * d] = src;
        h.in[2 * d + 1] = h.out[2 * d + 1] = dst;
        /* block 2d comes from the source's upward block 2d+1, and the other way round */
        h.from[2 * d] = 2 * d + 1;
        h.from[2 * d + 1] = 2 * d;
    }
    neighbours(&h);
    MPI_OK(MPI_Comm_free(&h.comm));
}

static void dist_graph(void)
{
    /* out-edges to r+1 and r+3, in-edges from r-1 and r-3: repeated edges when size <= 3;
       the k-th edge from p to q pairs with the k-th on q, so block i comes from the
       sender's block i */
    nbhd_t h = {.cart = 0, .nin = 2, .nout = 2};
    for (int i = 0; i < 2; i++) {
        int step = 2 * i + 1;
        h.out[i] = (rank + step) % size;
        h.in[i] = ((rank - step) % size + size) % size;
        h.from[i] = i;
    }
    MPI_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, h.in, MPI_UNWEIGHTED, 2, h.out,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &h.comm));
    neighbours(&h);
    MPI_OK(MPI_Comm_free(&h.comm));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_persist");
    rank = mt_rank;
    size = mt_size;
    every_kind(3, ITERS);
    every_kind(5000, 6); /* 20 KB blocks: the rendezvous protocol */
    startall();
    cart_grid();
    dist_graph();
    return mt_finish();
}
