/*
 * handle.c -- tables that turn int handles into objects.
 *
 * The pointer array may be reallocated as it grows; objects never move (the table only
 * stores pointers), so callers may keep object pointers across allocations.
 */
#include "core/runtime/handle.h"

#include <stdlib.h>
#include <string.h>

/* freed slots wait in FIFO order until this many are free */
#define HANDLE_REUSE_DELAY 64

static compi_status_t table_grow(handle_table_t *t, unsigned need)
{
    if (need <= t->cap) {
        return COMPI_OK;
    }
    if (need > HANDLE_MAX_IDX) {
        return COMPI_ERR_NO_RESOURCE;
    }
    /* the first size holds the freed slots that wait (HANDLE_REUSE_DELAY) and as many
       live ones again, so a program with few handles alive at a time never grows the
       table after its first calls */
    unsigned ncap = t->cap ? t->cap : 4 * HANDLE_REUSE_DELAY;
    while (ncap < need) {
        ncap *= 2;
    }
    void **no = realloc(t->objs, ncap * sizeof(*no));
    if (!no) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (unsigned i = t->cap; i < ncap; i++) {
        no[i] = NULL;
    }
    t->objs = no;
    t->cap = ncap;
    return COMPI_OK;
}

compi_status_t handle_set_fixed(handle_table_t *t, unsigned idx, int h, void *obj)
{
    unsigned key = HANDLE_PREDEF_KEY((unsigned)h);
    if (idx == 0 || idx >= HANDLE_MAX_FIXED ||
        (t->predef_idx[key] != 0 && t->predef_idx[key] != idx)) {
        return COMPI_ERR_INVALID_PARAM;
    }
    t->predef_idx[key] = (unsigned char)idx;
    t->predef_val[idx] = (unsigned)h;
    compi_status_t st = table_grow(t, (t->nfixed > idx ? t->nfixed : idx + 1));
    if (st != COMPI_OK) {
        return st;
    }
    t->objs[idx] = obj;
    if (t->n < t->nfixed) {
        t->n = t->nfixed;
    }
    if (t->n <= idx) {
        t->n = idx + 1;
    }
    return COMPI_OK;
}

compi_status_t handle_alloc(handle_table_t *t, void *obj, int *h_p)
{
    unsigned idx;
    if (t->n < t->nfixed) {
        compi_status_t st = table_grow(t, t->nfixed);
        if (st != COMPI_OK) {
            return st;
        }
        t->n = t->nfixed;
    }
    if (t->nfree >= HANDLE_REUSE_DELAY) {
        /* oldest freed slot first, so a stale copy of a freed handle stays invalid for
           a while instead of silently naming the next object */
        idx = t->freelist[t->freehead];
        t->freehead = (t->freehead + 1) & (t->freecap - 1);
        t->nfree--;
    } else {
        compi_status_t st = table_grow(t, t->n + 1);
        if (st != COMPI_OK) {
            return st;
        }
        idx = t->n++;
    }
    t->objs[idx] = obj;
    *h_p = HANDLE_MAKE(t->kind, idx);
    return COMPI_OK;
}

void handle_free(handle_table_t *t, int h)
{
    unsigned idx = (unsigned)h & HANDLE_IDX_MASK;
    if (((unsigned)h >> HANDLE_KIND_SHIFT) != ((HANDLE_CLASS_DYNAMIC << 5) | t->kind) ||
        idx < t->nfixed || idx >= t->n || !t->objs[idx]) {
        return;
    }
    t->objs[idx] = NULL;
    /* the ring of freed slots doubles when full (unrolled, oldest first), so that in a
       steady state of allocations and frees nothing is allocated or moved */
    if (t->nfree == t->freecap) {
        unsigned ncap = t->freecap ? 2 * t->freecap : 2 * HANDLE_REUSE_DELAY;
        unsigned *nf = malloc(ncap * sizeof(*nf));
        if (!nf) {
            return; /* slot leaks but stays NULL: lookups still fail correctly */
        }
        for (unsigned i = 0; i < t->nfree; i++) {
            nf[i] = t->freelist[(t->freehead + i) & (t->freecap - 1)];
        }
        free(t->freelist);
        t->freelist = nf;
        t->freecap = ncap;
        t->freehead = 0;
    }
    t->freelist[(t->freehead + t->nfree++) & (t->freecap - 1)] = idx;
}

void handle_table_destroy(handle_table_t *t)
{
    free(t->objs);
    free(t->freelist);
    t->objs = NULL;
    t->freelist = NULL;
    t->n = t->cap = t->nfree = t->freecap = t->freehead = 0;
    memset(t->predef_idx, 0, sizeof(t->predef_idx));
    memset(t->predef_val, 0, sizeof(t->predef_val));
}
