/*
 * btl_sm_ring.h -- one single-producer / single-consumer ring of variable-length records,
 * living in the receiver's shared-memory segment.
 *
 *   ctrl (128 B, receiver writes)   data (size bytes, power of two, sender writes)
 *   +-----------+----------------+  +------+------+--------+----+------+--------+
 *   | tail      | (pad: own line |  | rec  | rec  | skip   |  0 | free ...      |
 *   |           |  pair)         |  +------+------+--------+----+------+--------+
 *   +-----------+----------------+     ^tail                  ^head (sender-private)
 *
 * A record is a header (rec_size, len) and the payload, padded to 64 bytes, so a small
 * message is one cache line.  Positions are absolute byte counts (64 bits, never wrap);
 * the offset in the ring is pos & (size - 1).  A record never straddles the end of the
 * ring: the sender pads the end with a "skip" record instead.
 *
 * Why the receiver can trust a non-zero rec_size: before publishing a record the sender
 * makes sure the header slot that follows it holds rec_size = 0 (the ring always keeps
 * that one slot free), so the slot the receiver polls next holds either that zero or a
 * record published later -- never stale payload bytes from an earlier lap.
 *
 * The sender zeroes those slots ahead of time, after publishing a record: the header
 * slots of the next SM_ZERO_AHEAD bytes of free space (`zeroed` says how far that went),
 * again whenever half of that is used.  Zeroing the next slot just before the record, as
 * a store ordered before the record's release, would put the transfer of that slot's
 * line (the receiver read it on the previous lap) on the path of every message: x86
 * makes stores visible in order, so the record waited for it.  Done after the release,
 * it overlaps with the receiver's work, and the record's own line is the only one a
 * small message waits for.
 *
 * After a record of 512 bytes or more the distance grows by two such records (at most
 * SM_ZERO_AHEAD_MAX).  Every line of free space is a header slot, so this also
 * takes the lines of the next records' payload from the receiver's cache before they
 * are written: at 2 ranks it took 0.1 us off an eager message of 768 B to 4 KiB one way
 * (1 KiB: 0.79 -> 0.68 us).
 *
 * Ownership: the ring memory belongs to the receiver's segment; the sender owns `head`
 * and its cached copy of the tail, the receiver owns `tail`.
 */
#ifndef COMPI_BTL_SM_RING_H
#define COMPI_BTL_SM_RING_H

#include "core/include/compi_common.h"

#include <stdint.h>

#define SM_REC_ALIGN 64u
#define SM_REC_SKIP UINT32_MAX   /* len of a padding record at the end of the ring */
#define SM_CTRL_SIZE 128u        /* two lines: keeps the adjacent-line prefetcher off the data */
#define SM_ZERO_AHEAD 512u       /* bytes of free space whose header slots the sender zeroes, */
#define SM_ZERO_AHEAD_MAX 16384u /* plus twice the last record, up to this */

typedef struct sm_rec {
    uint32_t rec_size; /* bytes of the whole record; 0 = nothing yet; written last (release) */
    uint32_t len;      /* payload bytes, or SM_REC_SKIP */
} sm_rec_t;

COMPI_STATIC_ASSERT(sizeof(sm_rec_t) == 8, "record header must stay 8 bytes");

typedef struct sm_ring_ctrl {
    uint64_t tail; /* receiver's consumed position (release by the receiver) */
    char pad[SM_CTRL_SIZE - sizeof(uint64_t)];
} sm_ring_ctrl_t;

COMPI_STATIC_ASSERT(sizeof(sm_ring_ctrl_t) == SM_CTRL_SIZE, "ring control block size");

/* bytes a record with `len` payload bytes takes in the ring */
static inline uint32_t sm_rec_bytes(size_t len)
{
    return (uint32_t)COMPI_ALIGN_UP(sizeof(sm_rec_t) + len, SM_REC_ALIGN);
}

/* the sender's view of one ring (private memory of the sender) */
typedef struct sm_ring_tx {
    char *data;           /* ring data in the receiver's segment */
    sm_ring_ctrl_t *ctrl; /* its control block (the receiver's tail) */
    uint64_t head;        /* next position to write */
    uint64_t tail_cache;  /* last tail read from ctrl: re-read only when the ring looks full */
    uint64_t mask;        /* size - 1 */
    uint64_t skip;        /* padding the pending reservation needs before it, or 0 */
    uint64_t zeroed;      /* the header slots from head up to this position hold 0 */
} sm_ring_tx_t;

/* the receiver's view of one ring (private memory of the receiver) */
typedef struct sm_ring_rx {
    const char *data;
    sm_ring_ctrl_t *ctrl;
    uint64_t tail; /* next position to read; published to ctrl->tail after use */
    uint64_t mask;
    int src; /* world rank of the sender */
} sm_ring_rx_t;

/*
 * Room for `len` payload bytes, or NULL when the ring is full.  Nothing is shared until
 * sm_ring_commit(), so a reservation that is never committed costs nothing.  The caller
 * keeps len small enough that a record, its padding and the zero slot fit in the ring.
 */
static inline void *sm_ring_reserve(sm_ring_tx_t *tx, size_t len)
{
    uint64_t need = sm_rec_bytes(len);
    uint64_t size = tx->mask + 1;
    uint64_t off = tx->head & tx->mask;
    uint64_t skip = off + need > size ? size - off : 0;
    /* the padding, the record and the zero slot after it must all be free */
    uint64_t end = tx->head + skip + need + SM_REC_ALIGN;

    if (compi_unlikely(end > tx->tail_cache + size)) {
        /* acquire: the receiver's reads of the records it released happen before we
           overwrite them */
        tx->tail_cache = __atomic_load_n(&tx->ctrl->tail, __ATOMIC_ACQUIRE);
        if (end > tx->tail_cache + size)
            return NULL;
    }
    tx->skip = skip;
    return tx->data + ((tx->head + skip) & tx->mask) + sizeof(sm_rec_t);
}

/* zero the header slots of free space past `zeroed` up to `ahead` bytes past head (free:
   below the tail we know of plus the ring's size) */
static inline void sm_ring_zero_ahead(sm_ring_tx_t *tx, uint64_t ahead)
{
    uint64_t end = tx->head + ahead;
    uint64_t free_end = tx->tail_cache + tx->mask + 1;
    if (end > free_end)
        end = free_end;
    while (tx->zeroed + SM_REC_ALIGN <= end) {
        ((sm_rec_t *)(tx->data + (tx->zeroed & tx->mask)))->rec_size = 0;
        tx->zeroed += SM_REC_ALIGN;
    }
}

/* publish the reservation `frag` with `len` (<= the reserved length) payload bytes */
static inline void sm_ring_commit(sm_ring_tx_t *tx, void *frag, size_t len)
{
    sm_rec_t *rec = (sm_rec_t *)frag - 1;
    uint32_t bytes = sm_rec_bytes(len);
    uint64_t pos = tx->head + tx->skip;

    if (compi_unlikely(pos + bytes >= tx->zeroed)) {
        /* not zeroed ahead (the first record, a long one, a ring that was full) */
        ((sm_rec_t *)(tx->data + ((pos + bytes) & tx->mask)))->rec_size = 0;
        tx->zeroed = pos + bytes + SM_REC_ALIGN;
    }
    rec->len = (uint32_t)len;
    /* release: the payload, len and the zeroed next slot are visible before rec_size says
       the record is there */
    __atomic_store_n(&rec->rec_size, bytes, __ATOMIC_RELEASE);
    if (tx->skip) {
        sm_rec_t *pad = (sm_rec_t *)(tx->data + (tx->head & tx->mask));
        pad->len = SM_REC_SKIP;
        /* release: the record at the start of the ring is complete before the receiver
           can step over the padding to it */
        __atomic_store_n(&pad->rec_size, (uint32_t)tx->skip, __ATOMIC_RELEASE);
        tx->skip = 0;
    }
    tx->head = pos + bytes;
    /* in batches, when half the distance is used up; the distance covers two more
       records of this size, so a stream of them never takes the slow path above */
    uint64_t ahead = bytes < SM_ZERO_AHEAD ? SM_ZERO_AHEAD : SM_ZERO_AHEAD + 2 * (uint64_t)bytes;
    if (ahead > SM_ZERO_AHEAD_MAX)
        ahead = SM_ZERO_AHEAD_MAX;
    if (tx->zeroed - tx->head < ahead / 2)
        sm_ring_zero_ahead(tx, ahead);
}

/* non-zero when something (a record or padding) has arrived: a look without ordering,
   for an idle poll; sm_ring_peek() then reads it with acquire */
static inline int sm_ring_ready(const sm_ring_rx_t *rx)
{
    const sm_rec_t *rec = (const sm_rec_t *)(rx->data + (rx->tail & rx->mask));
    return __atomic_load_n(&rec->rec_size, __ATOMIC_RELAXED) != 0;
}

/* the next record, or NULL when none has arrived; steps over padding */
static inline const sm_rec_t *sm_ring_peek(sm_ring_rx_t *rx)
{
    for (;;) {
        const sm_rec_t *rec = (const sm_rec_t *)(rx->data + (rx->tail & rx->mask));
        /* acquire: pairs with the sender's release of rec_size, so len and the payload
           read after this are the ones written before it */
        uint32_t bytes = __atomic_load_n(&rec->rec_size, __ATOMIC_ACQUIRE);
        if (compi_likely(bytes == 0))
            return NULL;
        if (compi_likely(rec->len != SM_REC_SKIP))
            return rec;
        rx->tail += bytes;
    }
}

/* done with the record peek() returned: give its space back to the sender */
static inline void sm_ring_consume(sm_ring_rx_t *rx, const sm_rec_t *rec)
{
    rx->tail += rec->rec_size;
    /* release: our reads of the record (and the padding before it) are finished before
       the sender can see the space as free and overwrite it */
    __atomic_store_n(&rx->ctrl->tail, rx->tail, __ATOMIC_RELEASE);
}

#endif
