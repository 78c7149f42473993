/*
 * topo_check.h -- the neighbourhood collectives of one communicator against a local
 * reference, for topo_cart.c and topo_graph.c.
 *
 * The test describes the calling process's neighbourhood as it expects it (tc_nbhd_t):
 * in[i], out[j], and for each receive block i the index of the sender's send block that
 * must land there (src_block[i]; Cartesian: i ^ 1, graphs: the k-th edge from q to me is
 * q's k-th send block to me).  Every value a process sends names the sender, the block
 * and the call, so a block from the wrong neighbour, or the wrong block of the right one,
 * is caught; blocks from MPI_PROC_NULL, and the gaps between blocks, must stay as they
 * were.
 *
 * Ownership: header-only; the buffers are allocated and freed by each check.
 */
#ifndef TOPO_CHECK_H
#define TOPO_CHECK_H

#include "tests/mpi/mpitest.h"

typedef struct tc_nbhd {
    int nin, nout;
    const int *in, *out;
    const int *src_block; /* [nin]: the sender's block index (ignored for MPI_PROC_NULL) */
} tc_nbhd_t;

/* numbers the calls, so that data of another call is caught; a test whose processes do
   not all run the same checks sets it to the same value on every process between them */
static int tc_serial;

/* element e of send block j of rank r in call s */
static inline int tc_val(int r, int j, long e, int s)
{
    return mt_ival(r, (long)j * 100003 + e, s);
}

/* counts of the v and w calls: of send block j, and of the one block of allgatherv */
static inline long tc_vcount(long n, int j)
{
    return n + j % 4;
}
static inline long tc_gcount(long n, int r)
{
    return n + r % 3;
}

static void tc_allgather(MPI_Comm comm, const tc_nbhd_t *nb, long n, int v, const char *what)
{
    int me, s = ++tc_serial;
    MPI_OK(MPI_Comm_rank(comm, &me));
    long mine = v ? tc_gcount(n, me) : n, total = 0;
    int *rc = mt_malloc(sizeof(int) * (size_t)(nb->nin + 1));
    int *rd = mt_malloc(sizeof(int) * (size_t)(nb->nin + 1));
    for (int i = 0; i < nb->nin; i++) {
        rc[i] = (int)(v && nb->in[i] != MPI_PROC_NULL ? tc_gcount(n, nb->in[i]) : n);
        rd[i] = (int)total;
        total += rc[i] + (v ? 1 : 0); /* v: a gap after each block */
    }
    int *sbuf = mt_ibuf(0, mine), *rbuf = mt_ibuf(1, total), *exp = mt_ibuf(1, total);
    for (long e = 0; e < mine; e++) {
        sbuf[e] = tc_val(me, 0, e, s);
    }
    for (int i = 0; i < nb->nin; i++) {
        for (long e = 0; nb->in[i] != MPI_PROC_NULL && e < rc[i]; e++) {
            exp[rd[i] + e] = tc_val(nb->in[i], 0, e, s);
        }
    }
    if (v) {
        MPI_OK(MPI_Neighbor_allgatherv(sbuf, (int)mine, MPI_INT, rbuf, rc, rd, MPI_INT, comm));
    } else {
        MPI_OK(MPI_Neighbor_allgather(sbuf, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, comm));
    }
    char msg[160];
    snprintf(msg, sizeof(msg), "%s: Neighbor_allgather%s n=%ld", what, v ? "v" : "", n);
    mt_check_ints(1, rbuf, exp, total, msg);
    free(sbuf);
    free(rbuf);
    free(exp);
    free(rc);
    free(rd);
}

/* alltoall (v = 0), alltoallv (v = 1) or alltoallw (v = 2) */
static void tc_alltoall(MPI_Comm comm, const tc_nbhd_t *nb, long n, int v, const char *what)
{
    int me, s = ++tc_serial, nin = nb->nin, nout = nb->nout;
    MPI_Datatype pair;
    MPI_OK(MPI_Comm_rank(comm, &me));
    MPI_OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    MPI_OK(MPI_Type_commit(&pair));
    /* ints per block; w: twice the v counts, so either side may count pairs */
    int *sc = mt_malloc(sizeof(int) * (size_t)(nout + 1)), *rc = mt_malloc(sizeof(int) * (size_t)(nin + 1));
    int *sd = mt_malloc(sizeof(int) * (size_t)(nout + 1)), *rd = mt_malloc(sizeof(int) * (size_t)(nin + 1));
    long stotal = 0, rtotal = 0;
    for (int j = 0; j < nout; j++) {
        sc[j] = (int)(v == 0 ? n : (v == 1 ? 1 : 2) * tc_vcount(n, j));
        sd[j] = (int)stotal;
        stotal += sc[j] + (v ? 1 : 0);
    }
    for (int i = 0; i < nin; i++) {
        int live = nb->in[i] != MPI_PROC_NULL;
        rc[i] = (int)(v == 0 || !live ? (v == 2 ? 2 : 1) * n
                                      : (v == 1 ? 1 : 2) * tc_vcount(n, nb->src_block[i]));
        rd[i] = (int)rtotal;
        rtotal += rc[i] + (v ? 1 : 0);
    }
    int *sbuf = mt_ibuf(0, stotal), *rbuf = mt_ibuf(1, rtotal), *exp = mt_ibuf(1, rtotal);
    for (int j = 0; j < nout; j++) {
        for (long e = 0; e < sc[j]; e++) {
            sbuf[sd[j] + e] = tc_val(me, j, e, s);
        }
    }
    for (int i = 0; i < nin; i++) {
        for (long e = 0; nb->in[i] != MPI_PROC_NULL && e < rc[i]; e++) {
            exp[rd[i] + e] = tc_val(nb->in[i], nb->src_block[i], e, s);
        }
    }
    if (v == 0) {
        MPI_OK(MPI_Neighbor_alltoall(sbuf, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, comm));
    } else if (v == 1) {
        MPI_OK(MPI_Neighbor_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm));
    } else {
        /* even send blocks as ints, odd ones as pairs; the other way round on receipt */
        int *swc = mt_malloc(sizeof(int) * (size_t)(nout + 1)), *rwc = mt_malloc(sizeof(int) * (size_t)(nin + 1));
        MPI_Aint *swd = mt_malloc(sizeof(MPI_Aint) * (size_t)(nout + 1));
        MPI_Aint *rwd = mt_malloc(sizeof(MPI_Aint) * (size_t)(nin + 1));
        MPI_Datatype *st = mt_malloc(sizeof(MPI_Datatype) * (size_t)(nout + 1));
        MPI_Datatype *rt = mt_malloc(sizeof(MPI_Datatype) * (size_t)(nin + 1));
        for (int j = 0; j < nout; j++) {
            st[j] = j % 2 ? pair : MPI_INT;
            swc[j] = j % 2 ? sc[j] / 2 : sc[j];
            swd[j] = (MPI_Aint)sd[j] * (MPI_Aint)sizeof(int);
        }
        for (int i = 0; i < nin; i++) {
            rt[i] = i % 2 ? MPI_INT : pair;
            rwc[i] = i % 2 ? rc[i] : rc[i] / 2;
            rwd[i] = (MPI_Aint)rd[i] * (MPI_Aint)sizeof(int);
        }
        MPI_OK(MPI_Neighbor_alltoallw(sbuf, swc, swd, st, rbuf, rwc, rwd, rt, comm));
        free(swc);
        free(rwc);
        free(swd);
        free(rwd);
        free(st);
        free(rt);
    }
    char msg[160];
    snprintf(msg, sizeof(msg), "%s: Neighbor_alltoall%s n=%ld", what,
             v == 0 ? "" : v == 1 ? "v" : "w", n);
    mt_check_ints(1, rbuf, exp, rtotal, msg);
    MPI_OK(MPI_Type_free(&pair));
    free(sbuf);
    free(rbuf);
    free(exp);
    free(sc);
    free(rc);
    free(sd);
    free(rd);
}

/* every neighbourhood collective at a few sizes (large: across the eager limit too) */
static void tc_check_all(MPI_Comm comm, const tc_nbhd_t *nb, int large, const char *what)
{
    static const long sizes[] = {0, 1, 7, 20000}; /* 80 KB: rendezvous */
    size_t ns = sizeof(sizes) / sizeof(sizes[0]) - (large ? 0 : 1);
    for (size_t k = 0; k < ns; k++) {
        tc_allgather(comm, nb, sizes[k], 0, what);
        tc_allgather(comm, nb, sizes[k], 1, what);
        tc_alltoall(comm, nb, sizes[k], 0, what);
        tc_alltoall(comm, nb, sizes[k], 1, what);
        tc_alltoall(comm, nb, sizes[k], 2, what);
    }
}

#endif
