/*
 * dt_internal.h -- helpers shared by the files of core/dt, not used outside it.
 *
 * Ownership: dt_alloc returns a zeroed datatype with refcount 1 and a handle; the
 * constructor that called it fills the blocks (heap memory owned by the datatype).
 */
#ifndef COMPI_DT_INTERNAL_H
#define COMPI_DT_INTERNAL_H

#include "core/dt/dt.h"

/* size in bytes of basic type `basic` (an index of the predefined table) */
size_t dt_basic_size(int basic);
/* the handle mpi.h gives the predefined type of basic type `basic` */
int dt_basic_handle(int basic);
/* a new, empty derived datatype with a handle */
compi_status_t dt_alloc(compi_datatype_t **dt_p);
/* sets dt->contig from the blocks, size and extent */
void dt_compute_contig(compi_datatype_t *dt);

/* the block holding packed byte `within` (< size) of one element: a binary search over
   the blocks' packed offsets */
static inline int dt__find_block(const compi_datatype_t *dt, size_t within)
{
    int lo = 0, hi = dt->nblocks - 1;

    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (dt->block_off[mid] <= within) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

/* a position in a stream of units: the current unit's start, walked one unit at a time
   without a division per step */
typedef struct dt__pos {
    char *elem; /* the current element's start */
    size_t rep; /* the unit inside it */
    char *base; /* the current unit's start */
} dt__pos_t;

static inline void dt__pos_at(const compi_datatype_t *dt, char *buf, size_t unit, dt__pos_t *p)
{
    p->elem = buf + (ptrdiff_t)(unit / dt->nrep) * dt->extent;
    p->rep = unit % dt->nrep;
    p->base = p->elem + (ptrdiff_t)p->rep * dt->rep_stride;
}

static inline void dt__pos_next(const compi_datatype_t *dt, dt__pos_t *p)
{
    if (++p->rep == dt->nrep) {
        p->rep = 0;
        p->elem += dt->extent;
        p->base = p->elem;
    } else {
        p->base += dt->rep_stride;
    }
}

#endif
