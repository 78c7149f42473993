/*
 * pml_bsend.c -- buffered sends: MPI_Buffer_attach/detach and the space allocator over
 * the attached buffer; MPI_Buffer_flush/iflush wait for the buffered sends to leave.
 *
 * The buffer is a sequence of blocks, each starting with a small header (size, in use).
 * Allocation is first fit, merging free neighbours as it walks; a block is freed when
 * the internal send that carries it completes.  The header and alignment cost stays
 * below PML_BSEND_OVERHEAD per message (and so below MPI_BSEND_OVERHEAD, as the standard
 * promises users).
 *
 * The limit is the sizing rule users apply: a send is taken when its data plus
 * PML_BSEND_OVERHEAD, with that of every send still pending (`charged`), fits the size
 * attached.  Sends complete out of order (other peers, other threads), so the free space
 * can lie in pieces none of which holds a message the rule admits; such a message is
 * copied to the heap instead (a header marks it), and the buffer's size still bounds what
 * is pending.
 *
 * Ownership: the attached memory belongs to the user; we use it until detach returns.
 * Internal send requests are owned by this file (user_freed: released at completion).
 */
#include "core/pml/pml_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct bsend_blk {
    size_t size; /* bytes of the block, header included */
    size_t used; /* 0 free, 1 in use, BLK_HEAP: in use, on the heap */
} bsend_blk_t;

#define BLK_HEAP 2

#define BLK_ALIGN 16
COMPI_STATIC_ASSERT(sizeof(bsend_blk_t) + 2 * BLK_ALIGN <= PML_BSEND_OVERHEAD,
                    "bsend block overhead exceeds PML_BSEND_OVERHEAD");

static struct {
    void *user_buf;  /* as attached */
    size_t user_size;
    char *base;      /* aligned start */
    size_t size;     /* usable bytes from base */
    int outstanding; /* internal sends not yet complete */
    size_t charged;  /* their data plus PML_BSEND_OVERHEAD each */
} bs;

static void *blk_alloc(size_t n)
{
    size_t need = COMPI_ALIGN_UP(sizeof(bsend_blk_t) + n, BLK_ALIGN);
    char *end = bs.base + bs.size;
    for (char *pos = bs.base; pos != NULL && pos < end;) {
        bsend_blk_t *b = (bsend_blk_t *)pos;
        if (!b->used) {
            /* merge the free blocks that follow */
            char *next = pos + b->size;
            while (next < end && !((bsend_blk_t *)next)->used) {
                b->size += ((bsend_blk_t *)next)->size;
                next = pos + b->size;
            }
            if (b->size >= need) {
                if (b->size - need >= sizeof(bsend_blk_t) + BLK_ALIGN) {
                    bsend_blk_t *rest = (bsend_blk_t *)(pos + need);
                    rest->size = b->size - need;
                    rest->used = 0;
                    b->size = need;
                }
                b->used = 1;
                return b + 1;
            }
        }
        pos += b->size;
    }
    return NULL;
}

static void blk_free(void *p)
{
    bsend_blk_t *b = (bsend_blk_t *)p - 1;

    if (b->used == BLK_HEAP) {
        free(b);
    } else {
        b->used = 0;
    }
}

/* 1 when n more bytes keep what is pending within the size attached */
static int blk_admits(size_t n)
{
    return bs.size > 0 && n <= bs.user_size && bs.charged <= bs.user_size - n &&
           bs.user_size - n - bs.charged >= PML_BSEND_OVERHEAD;
}

/* room for n bytes when the rule admits them: in the buffer, else on the heap */
static void *blk_take(size_t n)
{
    bsend_blk_t *b;
    void *p;

    /* A send whose receive has completed may not be retired yet (its end is a message
       still to be read): progress, which never waits, until nothing more happens. */
    while (!blk_admits(n) && bs.outstanding > 0 && pml_progress() > 0) {
    }
    if (!blk_admits(n)) {
        return NULL;
    }
    p = blk_alloc(n);
    if (p == NULL) {
        if ((b = malloc(sizeof(*b) + n)) == NULL) {
            return NULL;
        }
        b->size = sizeof(*b) + n;
        b->used = BLK_HEAP;
        p = b + 1;
    }
    bs.charged += n + PML_BSEND_OVERHEAD;
    return p;
}

compi_status_t pml_buffer_attach(void *buf, size_t size)
{
    if (bs.user_buf != NULL) {
        return COMPI_ERR_INVALID_PARAM;
    }
    uintptr_t start = COMPI_ALIGN_UP((uintptr_t)buf, BLK_ALIGN);
    size_t skip = start - (uintptr_t)buf;
    bs.user_buf = buf;
    bs.user_size = size;
    bs.base = (char *)start;
    bs.size = size > skip ? (size - skip) / BLK_ALIGN * BLK_ALIGN : 0;
    if (bs.size < sizeof(bsend_blk_t) + BLK_ALIGN) {
        bs.size = 0;
        return COMPI_OK;
    }
    bsend_blk_t *b = (bsend_blk_t *)bs.base;
    b->size = bs.size;
    b->used = 0;
    return COMPI_OK;
}

void pml_bsend_flush(void)
{
    while (bs.outstanding > 0) {
        pml_progress_wait();
    }
}

/* MPI_Buffer_iflush's requests not complete yet: completed when the last buffered send
   leaves (pml_bsend_done) */
static compi_request_t **flushers;
static size_t nflush, capflush;

void pml_buffer_flush(void)
{
    pml_bsend_flush();
}

compi_status_t pml_buffer_iflush(compi_request_t **req_p)
{
    compi_request_t *r = pml_request_new(REQ_COLL, NULL);
    if (r == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (bs.outstanding > 0 && nflush == capflush) {
        size_t cap = capflush ? 2 * capflush : 4;
        compi_request_t **grown = realloc(flushers, cap * sizeof(*grown));
        if (grown == NULL) {
            pml_request_free(r);
            return COMPI_ERR_NO_MEMORY;
        }
        flushers = grown;
        capflush = cap;
    }
    if (bs.outstanding == 0) {
        pml_request_complete(r);
    } else {
        flushers[nflush++] = r;
    }
    *req_p = r;
    return COMPI_OK;
}

compi_status_t pml_buffer_detach(void **buf_p, size_t *size_p)
{
    pml_bsend_flush();
    *buf_p = bs.user_buf;
    *size_p = bs.user_size;
    memset(&bs, 0, sizeof(bs));
    return COMPI_OK;
}

void pml_bsend_done(pml_request_t *req)
{
    blk_free(req->bsend_region);
    req->bsend_region = NULL;
    bs.charged -= req->bytes + PML_BSEND_OVERHEAD;
    if (--bs.outstanding == 0) {
        for (size_t i = 0; i < nflush; i++) {
            pml_request_complete(flushers[i]);
        }
        nflush = 0;
    }
}

compi_status_t pml_bsend(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                         compi_comm_t *comm)
{
    if (dst == PML_PROC_NULL) {
        return COMPI_OK;
    }
    size_t bytes = count * dt->size;
    void *region = blk_take(bytes);
    if (region == NULL) {
        return COMPI_ERR_NO_RESOURCE;
    }
    compi_datatype_t *bytes_dt = dt_byte();
    pml_request_t *r = pml_req_alloc(REQ_SEND, comm, bytes_dt);
    if (r == NULL) {
        blk_free(region);
        bs.charged -= bytes + PML_BSEND_OVERHEAD;
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
    bs.outstanding++;
    pml_send_start(r);
    return COMPI_OK;
}
