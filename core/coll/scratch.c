/*
 * scratch.c -- the scratch stack of blocking collectives (coll.h, coll_scratch_get).
 *
 * A blocking collective takes its temporary buffers here and gives them back before it
 * returns; a collective run inside another (a hierarchy's inner steps) takes and gives
 * back within the outer one's lifetime, so the buffers come and go last in, first out,
 * and a stack serves them:
 *
 *   chunk 0 [ outer tmp | inner acc | inner tmp |      free      ]
 *                                   ^ used
 *
 * A request that does not fit the current chunk opens a new one; when the stack is empty
 * again, several chunks are merged into one of their total size (one allocation), so
 * after the first calls of a steady stream of collectives nothing here allocates: the
 * chunk is as large as the deepest need seen.  Memory stays for the life of the process,
 * up to SCRATCH_KEEP bytes; a larger stack is freed when it empties.
 *
 * Giving back a buffer gives back everything taken after it (the callers free all of
 * their buffers at their end, in any order; freeing one already given back does
 * nothing).  Nonblocking collectives do not use it: their schedules own their scratch
 * (core/coll/sched/sched.h).  No lock: MPI_THREAD_SERIALIZED at most.
 */
#include "core/coll/coll.h"

#include <stdint.h>
#include <stdlib.h>

#define SCRATCH_CHUNKS 16
#define SCRATCH_MIN ((size_t)64 << 10)
#define SCRATCH_KEEP ((size_t)256 << 20)
#define SCRATCH_ALIGN 64

typedef struct chunk {
    char *base;
    size_t size, used;
} chunk_t;

static chunk_t chunks[SCRATCH_CHUNKS];
static int nchunks;
static int cur; /* the chunk taken from now; the ones after it are empty */

/* a chunk of `size` bytes (a multiple of SCRATCH_ALIGN), aligned to SCRATCH_ALIGN */
static char *chunk_alloc(size_t size)
{
    void *p;
    return posix_memalign(&p, SCRATCH_ALIGN, size) == 0 ? p : NULL;
}

static int owner_of(const void *p)
{
    for (int i = 0; i < nchunks; i++) {
        const char *c = p;
        if (c >= chunks[i].base && c < chunks[i].base + chunks[i].size) {
            return i;
        }
    }
    return -1;
}

/* the stack is empty: merge its chunks into one (or free them all past SCRATCH_KEEP) */
static void merge(void)
{
    size_t total = 0;
    for (int i = 0; i < nchunks; i++) {
        total += chunks[i].size;
    }
    if (nchunks <= 1 && total <= SCRATCH_KEEP) {
        return;
    }
    for (int i = 0; i < nchunks; i++) {
        free(chunks[i].base);
    }
    nchunks = 0;
    cur = 0;
    if (total <= SCRATCH_KEEP && (chunks[0].base = chunk_alloc(total)) != NULL) {
        chunks[0].size = total;
        chunks[0].used = 0;
        nchunks = 1;
    }
}

void *coll_scratch_get(size_t bytes)
{
    size_t need = (bytes + SCRATCH_ALIGN - 1) & ~(size_t)(SCRATCH_ALIGN - 1);
    if (need == 0) {
        need = SCRATCH_ALIGN;
    }
    if (cur < nchunks && chunks[cur].size - chunks[cur].used < need) {
        if (cur + 1 < nchunks && chunks[cur + 1].size >= need) {
            cur++;
        } else {
            /* a larger chunk after this one: drop the (empty) ones there */
            for (int i = cur + 1; i < nchunks; i++) {
                free(chunks[i].base);
            }
            nchunks = cur + 1;
            if (nchunks == SCRATCH_CHUNKS) {
                return NULL;
            }
            cur++;
        }
    }
    if (cur == nchunks) {
        size_t size = need > SCRATCH_MIN ? need : SCRATCH_MIN;
        char *base = chunk_alloc(size);
        if (base == NULL) {
            return NULL;
        }
        chunks[nchunks++] = (chunk_t){.base = base, .size = size, .used = 0};
    }
    chunk_t *c = &chunks[cur];
    void *p = c->base + c->used;
    c->used += need;
    return p;
}

void coll_scratch_put(void *p)
{
    int i = p != NULL ? owner_of(p) : -1;
    if (i < 0 || i > cur || (i == cur && (char *)p >= chunks[i].base + chunks[i].used)) {
        return; /* NULL, or given back already */
    }
    for (int j = i + 1; j <= cur && j < nchunks; j++) {
        chunks[j].used = 0;
    }
    cur = i;
    chunks[i].used = (size_t)((char *)p - chunks[i].base);
    if (cur == 0 && chunks[0].used == 0) {
        merge();
    }
}

void *coll_tmp_get(compi_datatype_t *dt, size_t count, void **mem_p)
{
    size_t span = count == 0 ? 1 : (size_t)dt->true_extent + (count - 1) * (size_t)dt->extent;
    char *mem = coll_scratch_get(span);
    *mem_p = mem;
    return mem != NULL ? mem - dt->true_lb : NULL;
}

size_t coll_rs_counts_fill(const coll_call_t *call, size_t *c)
{
    int p = call->comm->size;
    size_t total = 0;
    for (int i = 0; i < p; i++) {
        c[i] = call->kind == COLL_REDUCE_SCATTER_BLOCK ? call->rcount : (size_t)call->rcounts[i];
        c[p + i] = total;
        total += c[i];
    }
    return total;
}

size_t *coll_rs_counts_get(const coll_call_t *call, size_t *total_p)
{
    size_t *c = coll_scratch_get(2 * (size_t)call->comm->size * sizeof(*c));
    if (c != NULL) {
        *total_p = coll_rs_counts_fill(call, c);
    }
    return c;
}

void coll_blocks_fill(size_t count, int p, size_t *c)
{
    size_t base = count / (size_t)p, extra = count % (size_t)p, o = 0;
    for (int i = 0; i < p; i++) {
        c[i] = base + ((size_t)i < extra ? 1 : 0);
        c[p + i] = o;
        o += c[i];
    }
}

size_t *coll_blocks_get(size_t count, int p)
{
    size_t *c = coll_scratch_get(2 * (size_t)p * sizeof(*c));
    if (c != NULL) {
        coll_blocks_fill(count, p, c);
    }
    return c;
}
