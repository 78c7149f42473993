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
 * (core/coll/sched/sched.h).
 *
 * At MPI_THREAD_MULTIPLE each thread has a stack of its own (made at its first use, freed
 * when the thread exits): a thread's blocking collective waits with the library's lock
 * dropped, and another thread's collective on another communicator would otherwise take
 * and give back buffers in the middle of its stack.  Below that level one stack serves
 * the process, as before, and the only cost is a test of pml_threaded().
 */
#include "core/coll/coll.h"
#include "core/pml/pml.h"

#include <pthread.h>
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

typedef struct scratch {
    chunk_t chunks[SCRATCH_CHUNKS];
    int nchunks;
    int cur; /* the chunk taken from now; the ones after it are empty */
} scratch_t;

static scratch_t process_stack;
static __thread scratch_t *thread_stack;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

static void thread_stack_free(void *p)
{
    scratch_t *s = p;
    for (int i = 0; i < s->nchunks; i++) {
        free(s->chunks[i].base);
    }
    free(s);
}

static void thread_key_make(void)
{
    pthread_key_create(&thread_key, thread_stack_free);
}

static scratch_t *thread_stack_get(void)
{
    if (thread_stack == NULL) {
        pthread_once(&thread_key_once, thread_key_make);
        scratch_t *s = calloc(1, sizeof(*s));
        if (s == NULL) {
            return NULL;
        }
        pthread_setspecific(thread_key, s);
        thread_stack = s;
    }
    return thread_stack;
}

/* this thread's stack: the process's one below MPI_THREAD_MULTIPLE; NULL: no memory */
static inline scratch_t *stack_get(void)
{
    return compi_likely(!pml_threaded()) ? &process_stack : thread_stack_get();
}

/* a chunk of `size` bytes (a multiple of SCRATCH_ALIGN), aligned to SCRATCH_ALIGN */
static char *chunk_alloc(size_t size)
{
    void *p;
    return posix_memalign(&p, SCRATCH_ALIGN, size) == 0 ? p : NULL;
}

static int owner_of(const scratch_t *s, const void *p)
{
    const chunk_t *chunks = s->chunks;
    for (int i = 0; i < s->nchunks; i++) {
        const char *c = p;
        if (c >= chunks[i].base && c < chunks[i].base + chunks[i].size) {
            return i;
        }
    }
    return -1;
}

/* the stack is empty: merge its chunks into one (or free them all past SCRATCH_KEEP) */
static void merge(scratch_t *s)
{
    chunk_t *chunks = s->chunks;
    size_t total = 0;
    for (int i = 0; i < s->nchunks; i++) {
        total += chunks[i].size;
    }
    if (s->nchunks <= 1 && total <= SCRATCH_KEEP) {
        return;
    }
    for (int i = 0; i < s->nchunks; i++) {
        free(chunks[i].base);
    }
    s->nchunks = 0;
    s->cur = 0;
    if (total <= SCRATCH_KEEP && (chunks[0].base = chunk_alloc(total)) != NULL) {
        chunks[0].size = total;
        chunks[0].used = 0;
        s->nchunks = 1;
    }
}

void *coll_scratch_get(size_t bytes)
{
    scratch_t *s = stack_get();
    if (compi_unlikely(s == NULL)) {
        return NULL;
    }
    chunk_t *chunks = s->chunks;
    size_t need = (bytes + SCRATCH_ALIGN - 1) & ~(size_t)(SCRATCH_ALIGN - 1);
    if (need == 0) {
        need = SCRATCH_ALIGN;
    }
    if (s->cur < s->nchunks && chunks[s->cur].size - chunks[s->cur].used < need) {
        if (s->cur + 1 < s->nchunks && chunks[s->cur + 1].size >= need) {
            s->cur++;
        } else {
            /* a larger chunk after this one: drop the (empty) ones there */
            for (int i = s->cur + 1; i < s->nchunks; i++) {
                free(chunks[i].base);
            }
            s->nchunks = s->cur + 1;
            if (s->nchunks == SCRATCH_CHUNKS) {
                return NULL;
            }
            s->cur++;
        }
    }
    if (s->cur == s->nchunks) {
        size_t size = need > SCRATCH_MIN ? need : SCRATCH_MIN;
        char *base = chunk_alloc(size);
        if (base == NULL) {
            return NULL;
        }
        chunks[s->nchunks++] = (chunk_t){.base = base, .size = size, .used = 0};
    }
    chunk_t *c = &chunks[s->cur];
    void *p = c->base + c->used;
    c->used += need;
    return p;
}

void coll_scratch_put(void *p)
{
    scratch_t *s = stack_get();
    if (compi_unlikely(s == NULL)) {
        return;
    }
    chunk_t *chunks = s->chunks;
    int i = p != NULL ? owner_of(s, p) : -1;
    if (i < 0 || i > s->cur || (i == s->cur && (char *)p >= chunks[i].base + chunks[i].used)) {
        return; /* NULL, or given back already */
    }
    for (int j = i + 1; j <= s->cur && j < s->nchunks; j++) {
        chunks[j].used = 0;
    }
    s->cur = i;
    chunks[i].used = (size_t)((char *)p - chunks[i].base);
    /* chunks below this one may be empty too (a request too large for an empty chunk
       opens the next one): the stack is empty when all of them are, and then it starts
       again from chunk 0, merged, instead of opening one more chunk for each larger
       request until there are SCRATCH_CHUNKS of them */
    while (s->cur > 0 && chunks[s->cur].used == 0 && chunks[s->cur - 1].used == 0) {
        s->cur--;
    }
    if (s->cur == 0 && chunks[0].used == 0) {
        merge(s);
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
        c[i] = call->kind == COLL_REDUCE_SCATTER_BLOCK ? call->rcount
                                                       : (size_t)coll_vec_at(call->rcounts, i);
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
