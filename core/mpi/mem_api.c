/*
 * mem_api.c -- MPI_Alloc_mem and MPI_Free_mem.  Nothing here is registered with a
 * network or shared with other processes: the memory is plain, aligned to a cache line,
 * and the info argument (MPI_INFO_NULL or an info object) is accepted and ignored.  The
 * entry points are generated (core/mpi/gen/mem.c).
 *
 * Every block handed out is remembered in a small hash set, so MPI_Free_mem can tell a
 * pointer that did not come from MPI_Alloc_mem (MPI_ERR_BASE) without reading memory
 * around it.
 *
 * Ownership: a block belongs to the user from MPI_Alloc_mem to MPI_Free_mem; the set's
 * nodes belong to this file.  Blocks never freed are the user's leak.
 */
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdint.h>
#include <stdlib.h>

#define MEM_ALIGN 64
#define MEM_BUCKETS 256

typedef struct mem_block {
    void *base;
    struct mem_block *next;
} mem_block_t;

static mem_block_t *buckets[MEM_BUCKETS];

static mem_block_t **bucket_of(const void *p)
{
    uintptr_t x = (uintptr_t)p / MEM_ALIGN;
    return &buckets[(x ^ (x >> 8) ^ (x >> 16)) % MEM_BUCKETS];
}

/* the implementations of the entry points of core/mpi/gen/mem.c, which checked the size,
   the hints and baseptr */
static int alloc_mem_impl(MPI_Aint size, MPI_Info info, void *baseptr, const char *fn)
{
    mem_block_t *b, **head;
    void *p = NULL;
    (void)info;
    b = malloc(sizeof(*b));
    /* size 0 still gives a block of its own, so every result can be freed */
    if (b == NULL || posix_memalign(&p, MEM_ALIGN, size > 0 ? (size_t)size : 1) != 0) {
        free(b);
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "cannot allocate %ld bytes", (long)size);
    }
    b->base = p;
    head = bucket_of(p);
    b->next = *head;
    *head = b;
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

static int free_mem_impl(void *base, const char *fn)
{
    mem_block_t **pp;
    if (base == NULL) {
        return MPI_SUCCESS;
    }
    for (pp = bucket_of(base); *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->base == base) {
            mem_block_t *b = *pp;
            *pp = b->next;
            free(b);
            free(base);
            return MPI_SUCCESS;
        }
    }
    return mpi_err_raise(NULL, MPI_ERR_BASE, fn,
                         "%p was not returned by MPI_Alloc_mem (or was freed already)", base);
}

#include "core/mpi/gen/mem.c"
