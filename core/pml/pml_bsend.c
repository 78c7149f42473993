/*
 * pml_bsend.c -- buffered sends: the buffers they take space from (MPI_Buffer_attach's,
 * the process's; MPI_Comm_attach_buffer's, a communicator's; MPI_Session_attach_buffer's,
 * held by the API layer) and the space allocator over each; flushes wait for a buffer's
 * buffered sends to leave.
 *
 * A buffered send on a communicator takes the communicator's buffer when one is attached,
 * else the process's (a session's buffer is attached, flushed and detached, but compi does
 * not know which session a communicator comes from: core/mpi/buffer_api.c).
 * PML_BSEND_AUTOMATIC attached instead of memory: every send is copied to the heap,
 * without limit.
 *
 * A buffer is a sequence of blocks, each starting with a small header (size and state
 * in one word, the buffer it belongs to).  Allocation is first fit, merging free
 * neighbours as it walks; a block is freed when the internal send that carries it
 * completes.  The header and alignment cost stays below PML_BSEND_OVERHEAD per message
 * (and so below MPI_BSEND_OVERHEAD, as the standard promises users).
 *
 * The limit is the sizing rule users apply: a send is taken when its data plus
 * PML_BSEND_OVERHEAD, with that of every send still pending (`charged`), fits the size
 * attached.  Sends complete out of order (other peers, other threads), so the free space
 * can lie in pieces none of which holds a message the rule admits; such a message is
 * copied to the heap instead (a header marks it), and the buffer's size still bounds what
 * is pending.
 *
 * Ownership: the attached memory belongs to the user; we use it until detach returns.
 * A pml_bsend_buf_t is its creator's until pml_bsend_buf_release, then freed when its
 * last send leaves.  Internal send requests are owned by this file (user_freed: released
 * at completion).
 */
#include "core/pml/pml_internal.h"

#include <stdlib.h>
#include <string.h>

struct pml_bsend_buf {
    void *user_buf; /* as attached (PML_BSEND_AUTOMATIC too); NULL: none attached */
    size_t user_size;
    char *base;      /* aligned start */
    size_t size;     /* usable bytes from base */
    int outstanding; /* internal sends not yet complete */
    size_t charged;  /* their data plus PML_BSEND_OVERHEAD each */
    int released;    /* pml_bsend_buf_release called: freed when outstanding drops to 0 */
    /* iflush requests not complete yet: completed when the last buffered send leaves */
    compi_request_t **flushers;
    size_t nflush, capflush;
};

/* the header of a block: its size (a multiple of BLK_ALIGN) and state in one word */
typedef struct bsend_blk {
    size_t size_state;           /* size | BLK_USED / BLK_HEAP */
    struct pml_bsend_buf *owner; /* the buffer whose send the block carries */
} bsend_blk_t;

#define BLK_USED 1u
#define BLK_HEAP 2u
#define BLK_STATE 15u
#define BLK_ALIGN 16
#define BLK_SIZE(b) ((b)->size_state & ~(size_t)BLK_STATE)
COMPI_STATIC_ASSERT(sizeof(bsend_blk_t) + 2 * BLK_ALIGN <= PML_BSEND_OVERHEAD,
                    "bsend block overhead exceeds PML_BSEND_OVERHEAD");

/* the process's buffer (MPI_Buffer_attach) */
static pml_bsend_buf_t process_buf;
/* buffered sends not yet complete, over every buffer (pml_bsend_flush) */
static int outstanding_all;

static void *blk_alloc(pml_bsend_buf_t *bs, size_t n)
{
    size_t need = COMPI_ALIGN_UP(sizeof(bsend_blk_t) + n, BLK_ALIGN);
    char *end = bs->base + bs->size;
    for (char *pos = bs->base; pos != NULL && pos < end;) {
        bsend_blk_t *b = (bsend_blk_t *)pos;
        if (!(b->size_state & BLK_STATE)) {
            /* merge the free blocks that follow */
            char *next = pos + b->size_state;
            while (next < end && !(((bsend_blk_t *)next)->size_state & BLK_STATE)) {
                b->size_state += ((bsend_blk_t *)next)->size_state;
                next = pos + b->size_state;
            }
            if (b->size_state >= need) {
                if (b->size_state - need >= sizeof(bsend_blk_t) + BLK_ALIGN) {
                    bsend_blk_t *rest = (bsend_blk_t *)(pos + need);
                    rest->size_state = b->size_state - need;
                    b->size_state = need;
                }
                b->size_state |= BLK_USED;
                b->owner = bs;
                return b + 1;
            }
        }
        pos += BLK_SIZE(b);
    }
    return NULL;
}

static pml_bsend_buf_t *blk_free(void *p)
{
    bsend_blk_t *b = (bsend_blk_t *)p - 1;
    pml_bsend_buf_t *owner = b->owner;

    if (b->size_state & BLK_HEAP) {
        free(b);
    } else {
        b->size_state = BLK_SIZE(b);
    }
    return owner;
}

/* 1 when n more bytes keep what is pending within the size attached */
static int blk_admits(const pml_bsend_buf_t *bs, size_t n)
{
    if (bs->user_buf == PML_BSEND_AUTOMATIC) {
        return 1;
    }
    return bs->size > 0 && n <= bs->user_size && bs->charged <= bs->user_size - n &&
           bs->user_size - n - bs->charged >= PML_BSEND_OVERHEAD;
}

/* room for n bytes when the rule admits them: in the buffer, else on the heap */
static void *blk_take(pml_bsend_buf_t *bs, size_t n)
{
    bsend_blk_t *b;
    void *p;

    /* A send whose receive has completed may not be retired yet (its end is a message
       still to be read): progress, which never waits, until nothing more happens. */
    while (!blk_admits(bs, n) && bs->outstanding > 0 && pml_progress() > 0) {
    }
    if (!blk_admits(bs, n)) {
        return NULL;
    }
    p = blk_alloc(bs, n);
    if (p == NULL) {
        if ((b = malloc(sizeof(*b) + n)) == NULL) {
            return NULL;
        }
        b->size_state = BLK_HEAP;
        b->owner = bs;
        p = b + 1;
    }
    bs->charged += n + PML_BSEND_OVERHEAD;
    return p;
}

pml_bsend_buf_t *pml_bsend_buf_new(void)
{
    return calloc(1, sizeof(pml_bsend_buf_t));
}

void pml_bsend_buf_release(pml_bsend_buf_t *bs)
{
    if (bs == NULL) {
        return;
    }
    if (bs->outstanding > 0) {
        bs->released = 1;
        return;
    }
    free(bs->flushers);
    free(bs);
}

int pml_bsend_buf_attached(const pml_bsend_buf_t *bs)
{
    return bs != NULL && bs->user_buf != NULL;
}

compi_status_t pml_bsend_buf_attach(pml_bsend_buf_t *bs, void *buf, size_t size)
{
    if (bs->user_buf != NULL) {
        return COMPI_ERR_INVALID_PARAM;
    }
    bs->user_buf = buf;
    bs->user_size = size;
    bs->base = NULL;
    bs->size = 0;
    if (buf == PML_BSEND_AUTOMATIC) {
        bs->user_size = 0;
        return COMPI_OK;
    }
    uintptr_t start = COMPI_ALIGN_UP((uintptr_t)buf, BLK_ALIGN);
    size_t skip = start - (uintptr_t)buf;
    bs->base = (char *)start;
    bs->size = size > skip ? (size - skip) / BLK_ALIGN * BLK_ALIGN : 0;
    if (bs->size < sizeof(bsend_blk_t) + BLK_ALIGN) {
        bs->size = 0;
        return COMPI_OK;
    }
    bsend_blk_t *b = (bsend_blk_t *)bs->base;
    b->size_state = bs->size;
    return COMPI_OK;
}

void pml_bsend_buf_flush(pml_bsend_buf_t *bs)
{
    while (bs->outstanding > 0) {
        pml_progress_wait();
    }
}

compi_status_t pml_bsend_buf_iflush(pml_bsend_buf_t *bs, compi_request_t **req_p)
{
    compi_request_t *r = pml_request_new(REQ_COLL, NULL);
    if (r == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (bs->outstanding > 0 && bs->nflush == bs->capflush) {
        size_t cap = bs->capflush ? 2 * bs->capflush : 4;
        compi_request_t **grown = realloc(bs->flushers, cap * sizeof(*grown));
        if (grown == NULL) {
            pml_request_free(r);
            return COMPI_ERR_NO_MEMORY;
        }
        bs->flushers = grown;
        bs->capflush = cap;
    }
    if (bs->outstanding == 0) {
        pml_request_complete(r);
    } else {
        bs->flushers[bs->nflush++] = r;
    }
    *req_p = r;
    return COMPI_OK;
}

void pml_bsend_buf_detach(pml_bsend_buf_t *bs, void **buf_p, size_t *size_p)
{
    pml_bsend_buf_flush(bs);
    *buf_p = bs->user_buf;
    *size_p = bs->user_size;
    bs->user_buf = NULL;
    bs->user_size = bs->size = bs->charged = 0;
    bs->base = NULL;
}

pml_bsend_buf_t **pml_comm_bsend_buf(compi_comm_t *comm)
{
    return comm->pml != NULL ? &comm->pml->bsend : NULL;
}

/* ---- the process's buffer --------------------------------------------------------- */

compi_status_t pml_buffer_attach(void *buf, size_t size)
{
    return pml_bsend_buf_attach(&process_buf, buf, size);
}

void pml_bsend_flush(void)
{
    while (outstanding_all > 0) {
        pml_progress_wait();
    }
}

void pml_buffer_flush(void)
{
    pml_bsend_buf_flush(&process_buf);
}

compi_status_t pml_buffer_iflush(compi_request_t **req_p)
{
    return pml_bsend_buf_iflush(&process_buf, req_p);
}

compi_status_t pml_buffer_detach(void **buf_p, size_t *size_p)
{
    pml_bsend_buf_detach(&process_buf, buf_p, size_p);
    return COMPI_OK;
}

void pml_bsend_done(pml_request_t *req)
{
    pml_bsend_buf_t *bs = blk_free(req->bsend_region);
    req->bsend_region = NULL;
    bs->charged -= req->bytes + PML_BSEND_OVERHEAD;
    outstanding_all--;
    if (--bs->outstanding == 0) {
        for (size_t i = 0; i < bs->nflush; i++) {
            pml_request_complete(bs->flushers[i]);
        }
        bs->nflush = 0;
        if (bs->released) {
            free(bs->flushers);
            free(bs);
        }
    }
}

/* the buffer a buffered send on comm takes: the communicator's, else the process's */
static pml_bsend_buf_t *bsend_buf_of(compi_comm_t *comm)
{
    const pml_comm_t *pc = comm->pml;
    return pc != NULL && pml_bsend_buf_attached(pc->bsend) ? pc->bsend : &process_buf;
}

compi_status_t pml_bsend(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                         compi_comm_t *comm)
{
    if (dst == PML_PROC_NULL) {
        return COMPI_OK;
    }
    size_t bytes = count * dt->size;
    pml_bsend_buf_t *bs = bsend_buf_of(comm);
    void *region = blk_take(bs, bytes);
    if (region == NULL) {
        return COMPI_ERR_NO_RESOURCE;
    }
    compi_datatype_t *bytes_dt = dt_byte();
    pml_request_t *r = pml_req_alloc(REQ_SEND, comm, bytes_dt);
    if (r == NULL) {
        blk_free(region);
        bs->charged -= bytes + PML_BSEND_OVERHEAD;
        return COMPI_ERR_NO_MEMORY;
    }
    dt_pack(dt, buf, count, 0, region, bytes);
    r->buf = region;
    r->count = bytes;
    r->bytes = bytes;
    r->peer = dst;
    r->tag = tag;
    r->mode = PML_SEND_STANDARD;
    r->world_peer = comm->world_ranks[dst];
    r->bsend_region = region;
    r->super.user_freed = 1;
    bs->outstanding++;
    outstanding_all++;
    pml_send_start(r);
    return COMPI_OK;
}
