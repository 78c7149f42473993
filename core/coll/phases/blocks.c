/*
 * phases/blocks.c -- block accessors, the in-place copy and the radix-k tree shape
 * shared by the data-movement algorithms.
 */
#include "core/coll/phases/blocks.h"

#include "core/coll/sched/sched.h"

#include <stdlib.h>

compi_datatype_t *coll_move_byte(void)
{
    return dt_from_handle(MPI_BYTE);
}

void coll_rblock(const coll_call_t *call, int i, coll_blk_t *b)
{
    char *base = call->rbuf;
    switch (call->kind) {
    case COLL_GATHERV:
    case COLL_ALLGATHERV:
    case COLL_ALLTOALLV:
    case COLL_NEIGHBOR_ALLGATHERV:
    case COLL_NEIGHBOR_ALLTOALLV:
        b->buf = base + (ptrdiff_t)coll_vec_at(call->rdispls, i) * call->rdt->extent;
        b->count = (size_t)coll_vec_at(call->rcounts, i);
        b->dt = call->rdt;
        break;
    case COLL_ALLTOALLW:
    case COLL_NEIGHBOR_ALLTOALLW:
        /* the w kinds' displacements are in bytes */
        b->buf = base + coll_vec_at(call->rdispls, i);
        b->count = (size_t)coll_vec_at(call->rcounts, i);
        b->dt = call->rdts[i];
        break;
    default:
        b->buf = base + (ptrdiff_t)i * (ptrdiff_t)call->rcount * call->rdt->extent;
        b->count = call->rcount;
        b->dt = call->rdt;
        break;
    }
}

void coll_sblock(const coll_call_t *call, int i, coll_blk_t *b)
{
    char *base = (char *)call->sbuf;
    switch (call->kind) {
    case COLL_SCATTERV:
    case COLL_ALLTOALLV:
    case COLL_NEIGHBOR_ALLTOALLV:
        b->buf = base + (ptrdiff_t)coll_vec_at(call->sdispls, i) * call->sdt->extent;
        b->count = (size_t)coll_vec_at(call->scounts, i);
        b->dt = call->sdt;
        break;
    case COLL_ALLTOALLW:
    case COLL_NEIGHBOR_ALLTOALLW:
        b->buf = base + coll_vec_at(call->sdispls, i);
        b->count = (size_t)coll_vec_at(call->scounts, i);
        b->dt = call->sdts[i];
        break;
    case COLL_NEIGHBOR_ALLGATHER:
    case COLL_NEIGHBOR_ALLGATHERV:
        /* the same block goes to every out-neighbour */
        b->buf = base;
        b->count = call->scount;
        b->dt = call->sdt;
        break;
    default:
        b->buf = base + (ptrdiff_t)i * (ptrdiff_t)call->scount * call->sdt->extent;
        b->count = call->scount;
        b->dt = call->sdt;
        break;
    }
}

void coll_own_sblock(const coll_call_t *call, coll_blk_t *b)
{
    if (call->in_place) {
        coll_rblock(call, call->comm->rank, b);
        return;
    }
    b->buf = (char *)call->sbuf;
    b->count = call->scount;
    b->dt = call->sdt;
}

compi_status_t coll_own_to_rblock(const coll_call_t *call)
{
    coll_blk_t own, b;
    if (call->in_place) {
        return COMPI_OK;
    }
    coll_own_sblock(call, &own);
    coll_rblock(call, call->comm->rank, &b);
    return coll_blk_copy(&own, &b);
}

/* the root's own block of a linear gather (into its receive block) or scatter (out of
   its send block) */
static compi_status_t linear_own(const coll_call_t *call, int gather, const coll_blk_t *own)
{
    coll_blk_t b;
    if (gather) {
        coll_rblock(call, call->root, &b);
        return coll_blk_copy(own, &b);
    }
    coll_sblock(call, call->root, &b);
    return coll_blk_copy(&b, own);
}

compi_status_t coll_linear_root(const coll_call_t *call, int gather, int first, int npeers,
                                const coll_blk_t *own)
{
    int p = call->comm->size;
    compi_status_t st = COMPI_OK;
    compi_request_t *reqs[COLL_MOVE_WINDOW];
    size_t n = 0;
    int own_done = own == NULL || call->in_place;
    coll_blk_t b;

    for (int k = 0; k < npeers; k++) {
        int i = (first + k) % p;
        if (gather) {
            coll_rblock(call, i, &b);
            coll_move_keep(&st, coll_blk_irecv(&b, i, call, &reqs[n++]));
        } else {
            coll_sblock(call, i, &b);
            coll_move_keep(&st, coll_blk_isend(&b, i, call, &reqs[n++]));
        }
        if (n == COLL_MOVE_WINDOW || k == npeers - 1) {
            if (!own_done) {
                coll_move_keep(&st, linear_own(call, gather, own));
                own_done = 1;
            }
            coll_move_keep(&st, pml_wait_all_free(n, reqs));
            n = 0;
        }
    }
    if (!own_done) { /* no peers */
        coll_move_keep(&st, linear_own(call, gather, own));
    }
    return st;
}

void coll_own_rblock(const coll_call_t *call, coll_blk_t *b)
{
    if (call->in_place) {
        b->buf = NULL;
        b->count = 0;
        b->dt = coll_move_byte();
        return;
    }
    b->buf = call->rbuf;
    b->count = call->rcount;
    b->dt = call->rdt;
}

compi_status_t coll_a2a_init_sched(coll_a2a_t *a, const coll_call_t *call, coll_sched_t *s)
{
    int p = call->comm->size;
    a->call = call;
    a->packed = NULL;
    a->off = NULL;
    a->sched = s;
    if (!call->in_place) {
        return COMPI_OK;
    }
    a->off = coll_sched_alloc(s, (size_t)(p + 1) * sizeof(*a->off));
    if (a->off == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    a->off[0] = 0;
    for (int i = 0; i < p; i++) {
        coll_blk_t b;
        coll_rblock(call, i, &b);
        a->off[i + 1] = a->off[i] + coll_blk_bytes(&b);
    }
    a->packed = coll_sched_alloc(s, a->off[p] > 0 ? a->off[p] : 1);
    if (a->packed == NULL) {
        a->off = NULL;
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < p; i++) {
        coll_blk_t b;
        size_t len = a->off[i + 1] - a->off[i];
        coll_rblock(call, i, &b);
        /* a step, not now: a persistent schedule must pack what the buffer holds at each
           start, not what it held when the schedule was built */
        coll_sched_copy(s, b.buf, b.count, b.dt, a->packed + a->off[i], len, coll_move_byte());
    }
    coll_sched_round(s); /* the copies run before the exchange overwrites the blocks */
    return COMPI_OK;
}

void coll_a2a_sblock(const coll_a2a_t *a, int i, coll_blk_t *b)
{
    if (a->packed == NULL) {
        coll_sblock(a->call, i, b);
        return;
    }
    b->buf = a->packed + a->off[i];
    b->count = a->off[i + 1] - a->off[i];
    b->dt = coll_move_byte();
}

