/*
 * pml_match.c -- per-communicator matching queues and the context id -> queues map.
 *
 * Each context id has one ordered queue of posted receives and one ordered queue of
 * unexpected messages.  An incoming message takes the FIRST posted receive it matches;
 * a new receive takes the FIRST unexpected message it matches.  Because BTLs deliver in
 * FIFO order per pair and both queues keep arrival / posting order, this is MPI's
 * non-overtaking rule, ANY_SOURCE included.  Cost: linear in the queue length, which is
 * short in the programs this layer is tuned for (latency benchmarks, collectives).
 *
 * The map creates an entry the first time a fragment names a context this process has
 * not created yet: a peer may finish MPI_Comm_dup and send before we do.  The messages
 * wait in the unexpected queue until the communicator appears (pml_comm_add).
 *
 * This file depends on libc only, so tests/unit/test_match.c can drive it alone.
 */
#include "core/pml/pml_internal.h"

#include <stdlib.h>

#define MAP_BUCKETS 256 /* power of two */

static pml_comm_t *map[MAP_BUCKETS];
pml_comm_t *pml__match_last; /* pml_match_comm's fast path */

static inline unsigned bucket_of(uint32_t ctx)
{
    return (ctx ^ (ctx >> 8)) & (MAP_BUCKETS - 1);
}

pml_comm_t *pml__match_comm_find(uint32_t ctx, int create)
{
    unsigned b = bucket_of(ctx);
    for (pml_comm_t *pc = map[b]; pc != NULL; pc = pc->hnext) {
        if (pc->ctx == ctx) {
            pml__match_last = pc;
            return pc;
        }
    }
    if (!create) {
        return NULL;
    }
    pml_comm_t *pc = calloc(1, sizeof(*pc));
    if (pc == NULL) {
        return NULL;
    }
    pc->ctx = ctx;
    pc->hnext = map[b];
    map[b] = pc;
    return pc;
}

void pml_match_comm_remove(pml_comm_t *pc)
{
    pml_comm_t **pp = &map[bucket_of(pc->ctx)];
    if (pml__match_last == pc) {
        pml__match_last = NULL;
    }
    while (*pp != NULL && *pp != pc) {
        pp = &(*pp)->hnext;
    }
    if (*pp == pc) {
        *pp = pc->hnext;
    }
    while (pc->part_seqs != NULL) {
        pml_part_seq_t *s = pc->part_seqs;
        pc->part_seqs = s->next;
        free(s);
    }
    free(pc);
}

void pml_match_comm_foreach(void (*fn)(pml_comm_t *pc))
{
    for (unsigned b = 0; b < MAP_BUCKETS; b++) {
        pml_comm_t *pc = map[b];
        while (pc != NULL) {
            pml_comm_t *next = pc->hnext; /* fn may remove pc */
            fn(pc);
            pc = next;
        }
    }
}

/* ---- posted receives (the hot part is in line in pml_internal.h) ------------------ */

struct pml_queue_len pml_queue_len;

int pml_match_unpost(pml_comm_t *pc, pml_request_t *req)
{
    for (pml_request_t *r = pc->posted_head; r != NULL; r = r->next) {
        if (r == req) {
            pml__posted_unlink(pc, r);
            return 1;
        }
    }
    return 0;
}

/* ---- unexpected messages: singly linked, removal while scanning ------------------- */

pml_unexp_t *pml_match_unexp(pml_comm_t *pc, int src, int tag, uint32_t pkey, int remove)
{
    pml_unexp_t *prev = NULL;
    for (pml_unexp_t *u = pc->unexp_head; u != NULL; prev = u, u = u->next) {
        if (!pml_match_ok(src, tag, pkey, u->src, u->tag, u->pkey)) {
            continue;
        }
        if (remove) {
            if (prev != NULL) {
                prev->next = u->next;
            } else {
                pc->unexp_head = u->next;
            }
            if (pc->unexp_tail == u) {
                pc->unexp_tail = prev;
            }
            u->next = NULL;
            pml_queue_len.unexp--;
        }
        return u;
    }
    return NULL;
}

void pml_match_add_unexp(pml_comm_t *pc, pml_unexp_t *u)
{
    u->next = NULL;
    if (pc->unexp_tail != NULL) {
        pc->unexp_tail->next = u;
    } else {
        pc->unexp_head = u;
    }
    pc->unexp_tail = u;
    pml_queue_len.unexp++;
    /* a conditional move, no branch: this path already copies the message */
    pml_queue_len.unexp_peak = pml_queue_len.unexp > pml_queue_len.unexp_peak
                                   ? pml_queue_len.unexp
                                   : pml_queue_len.unexp_peak;
}
