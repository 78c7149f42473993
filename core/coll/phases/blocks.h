/*
 * phases/blocks.h -- helpers shared by the data-movement algorithms (gather, scatter,
 * allgather, alltoall and their v/w variants).
 *
 * The algorithms see a rank's data as numbered blocks: block i of the receive side is
 * what comes from (or, for scatter, goes to) rank i; block i of the send side is what
 * goes to rank i.  The accessors below hide the difference between the plain, v and w
 * kinds (count * i, displacements in elements, displacements in bytes) and MPI_IN_PLACE,
 * so one schedule serves alltoall, alltoallv and alltoallw alike.
 *
 * Ownership: a coll_blk_t points into the call's buffers and owns nothing.  The packed
 * copy a coll_a2a_t makes for an in-place exchange belongs to its schedule.  Request
 * arrays belong to the caller; pml_wait_all_free() frees the requests in them and sets
 * the slots to NULL.
 */
#ifndef COMPI_COLL_BLOCKS_H
#define COMPI_COLL_BLOCKS_H

#include "core/coll/coll.h"
#include "core/pml/pml.h"

#include <stddef.h>

/* peers a linear algorithm talks to at once: bounds the requests in flight for large p */
#define COLL_MOVE_WINDOW 32

/* one block of a call's data: `count` elements of `dt` at `buf` */
typedef struct coll_blk {
    char *buf;
    size_t count;
    compi_datatype_t *dt;
} coll_blk_t;

static inline size_t coll_blk_bytes(const coll_blk_t *b)
{
    return b->count * b->dt->size;
}

/* MPI_BYTE, for packed temporaries */
compi_datatype_t *coll_move_byte(void);

/* block i of the receive buffer (gather(v) at the root, allgather(v), alltoall(v/w), and
   of the neighbourhood kinds: what comes from in-neighbour i) */
void coll_rblock(const coll_call_t *call, int i, coll_blk_t *b);
/* block i of the send buffer (scatter(v) at the root, alltoall(v/w) not in place, and of
   the neighbourhood kinds: what goes to out-neighbour i) */
void coll_sblock(const coll_call_t *call, int i, coll_blk_t *b);
/* what this rank contributes to a gather(v) or allgather(v): sbuf, or its own receive
   block when in place */
void coll_own_sblock(const coll_call_t *call, coll_blk_t *b);
/* what this rank keeps of a scatter(v): rbuf, or nothing (count 0) when in place at the
   root, where the data already sits in the send buffer */
void coll_own_rblock(const coll_call_t *call, coll_blk_t *b);

/* a local copy between two blocks of matching signature */
static inline compi_status_t coll_blk_copy(const coll_blk_t *s, const coll_blk_t *d)
{
    return coll_copy(s->buf, s->count, s->dt, d->buf, d->count, d->dt);
}

static inline compi_status_t coll_blk_isend(const coll_blk_t *b, int dst, const coll_call_t *call,
                                            compi_request_t **req_p)
{
    *req_p = NULL;
    return pml_isend(b->buf, b->count, b->dt, dst, coll_tag(call->kind), call->comm,
                     PML_SEND_STANDARD, req_p);
}

static inline compi_status_t coll_blk_irecv(const coll_blk_t *b, int src, const coll_call_t *call,
                                            compi_request_t **req_p)
{
    *req_p = NULL;
    return pml_irecv(b->buf, b->count, b->dt, src, coll_tag(call->kind), call->comm, req_p);
}

/* keep the first error of a sequence of steps */
static inline void coll_move_keep(compi_status_t *st, compi_status_t s)
{
    if (s != COMPI_OK && *st == COMPI_OK) {
        *st = s;
    }
}

/* allgather(v): copy this rank's contribution into its own receive block (nothing to do
   in place) */
compi_status_t coll_own_to_rblock(const coll_call_t *call);
/* allgather(v)'s first step sends this rank's contribution straight from the send buffer
   while it is copied into its own receive block (coll_sched_allgather_ring and the
   allgather schedules).  Sent from the receive block instead, it would be read by the
   peer's processor after this one wrote it, and the next call's copy would then have to
   take every line back (allgather of 64 KiB at 2 ranks: about twice the time). */
/* The root's side of a linear gather(v) (`gather`) or scatter(v): block i from (to) each
   of the `npeers` ranks i = first, first + 1, ... (mod the communicator's size), at most
   COLL_MOVE_WINDOW requests in flight; its own block `own` (NULL: none, as on an
   intercommunicator) copied into (out of) its place once the first window is posted,
   while the peers' data is on its way.  The first error. */
compi_status_t coll_linear_root(const coll_call_t *call, int gather, int first, int npeers,
                                const coll_blk_t *own);

/*
 * The send side of an alltoall(v/w).  With MPI_IN_PLACE the data to send sits in the
 * receive buffer that the exchange overwrites, so coll_a2a_init_sched() packs it into a
 * temporary first (copy steps of the schedule's first round, at each start); the send
 * blocks are then MPI_BYTE slices of that copy, which belongs to the schedule.
 */
typedef struct coll_a2a {
    const coll_call_t *call;
    char *packed; /* in place: the packed receive blocks, else NULL */
    size_t *off;  /* in place: [p + 1] packed offsets of the blocks */
    struct coll_sched *sched; /* the schedule that owns them */
} coll_a2a_t;

compi_status_t coll_a2a_init_sched(coll_a2a_t *a, const coll_call_t *call,
                                   struct coll_sched *s);
void coll_a2a_sblock(const coll_a2a_t *a, int i, coll_blk_t *b);

#endif
