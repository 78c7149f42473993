/*
 * pml_internal.h -- types shared by the files of the PML (not by other layers).
 *
 * Ownership: pml_request_t objects come from the pool in pml_request.c and keep their
 * address for life (their address is their id on the wire).  A request holds a
 * reference on its datatype and communicator from creation to pml_req_release().
 * pml_comm_t entries are owned by the ctx map in pml_match.c; unexpected entries by
 * their pml_comm_t until matched, then by whoever matched them.
 */
#ifndef COMPI_PML_INTERNAL_H
#define COMPI_PML_INTERNAL_H

#include "core/btl/btl.h"
#include "core/pml/pml.h"
#include "core/pml/pml_hdr.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* send-side protocol state */
enum {
    PML_SST_NONE = 0,
    PML_SST_QUEUED,   /* on the peer's pending list: first fragment not written yet */
    PML_SST_WAIT_ACK, /* RNDV written, waiting for ACK or FIN */
    PML_SST_FRAGS,    /* ACK received, sending FRAGs */
};

/* receive-side state of a split rendezvous (bits of `state`) */
enum {
    PML_RST_GET = 1u << 0,     /* our get() of the first part is not over */
    PML_RST_PUT = 1u << 1,     /* waiting for PUT_DONE */
    PML_RST_GETFAIL = 1u << 2, /* the first part must come another way */
    PML_RST_PUTFAIL = 1u << 3, /* the second part must come another way */
};

/* pml_request_t.mode of a receive: copy all of a rendezvous message here (pml_recv_whole) */
#define PML_RECV_WHOLE 1

typedef struct pml_request {
    compi_request_t super;
    struct pml_request *next, *prev; /* posted queue, peer pending list or frag list */

    void *buf;
    size_t count;
    compi_datatype_t *dt;
    int peer;           /* comm rank: destination, or source (may be PML_ANY_SOURCE) */
    int tag;            /* may be PML_ANY_TAG for receives */
    uint32_t pkey;      /* 0, or a partitioned operation's PML_PKEY (matched exactly) */
    int world_peer;     /* world rank of the destination (sends), of the source (split
                           rendezvous receives) */
    unsigned char state;
    unsigned char on_frag_list;
    unsigned char mode; /* a send: its pml_send_mode_t; a receive: PML_RECV_WHOLE or 0 */
    size_t bytes;       /* send: packed size; receive: capacity */
    size_t target;      /* rendezvous: bytes to move */
    size_t offset;      /* rendezvous: bytes moved so far; split receive: where it splits */
    uint64_t remote;    /* the peer's request id */
    uint64_t remote_addr, remote_key; /* split receive: the sender's data, for get() */
    void *reg;          /* register_mem handle of the send (or split receive) buffer */
    void *bsend_region; /* buffered send: space in the attached buffer */
    struct pml_request *join; /* the REQ_JOIN request this one reports to, or NULL (beside
                                 bsend_region: pml_req_complete reads both) */
    int parts;          /* partitioned (MPI_Psend_init, MPI_Precv_init): partitions, else 0 */
    int parts_ready;    /* partitioned send: partitions marked ready since the start */
    unsigned char *ready_map; /* partitioned send: a bit per partition marked (malloc) */

    int njoined;              /* REQ_JOIN: requests (and pml_join_end) still to report */
    void *adopted;            /* REQ_JOIN: memory freed at release (pml_join_adopt) */
} pml_request_t;

/* a message that arrived before its receive was posted */
typedef struct pml_unexp {
    struct pml_unexp *next;
    int src, tag;  /* comm rank of the sender, tag */
    uint32_t pkey; /* 0, or the PML_PKEY of a partitioned send */
    int world_src;
    uint8_t type;  /* PML_HDR_MATCH (data below) or PML_HDR_RNDV */
    uint8_t flags;
    size_t len;    /* message bytes */
    uint64_t sreq, addr, key;
    void *data;    /* eager payload copy (cap bytes available) */
    size_t cap;
} pml_unexp_t;

struct compi_message {
    pml_unexp_t *u;
    compi_comm_t *comm; /* retained */
};

/* the partitioned operations initialized so far towards (send) or from (receive) one
   peer with one tag on a communicator: the next one's number (pml_part.c) */
typedef struct pml_part_seq {
    struct pml_part_seq *next;
    int peer, tag, send;
    uint32_t next_seq;
} pml_part_seq_t;

typedef struct pml_comm {
    uint32_t ctx;
    compi_comm_t *comm; /* NULL until this process creates the communicator */
    struct pml_comm *hnext;
    pml_request_t *posted_head, *posted_tail;
    pml_unexp_t *unexp_head, *unexp_tail;
    pml_part_seq_t *part_seqs; /* freed with the entry */
    /* MPI_Comm_attach_buffer's buffer for buffered sends (pml_bsend.c), or NULL;
       released with the communicator (pml_comm_del) */
    pml_bsend_buf_t *bsend;
} pml_comm_t;

/* how we reach one world rank */
typedef struct pml_peer {
    btl_module_t *btl;
    btl_endpoint_t *ep;
    size_t eager_max; /* payload bytes of an eager message */
    size_t frag_max;  /* payload bytes of one FRAG */
    /* MPI_T (pml_btl_bytes): bytes committed to and delivered from this peer's BTL, single
       copies included; one addition per fragment, beside the fields every send reads */
    unsigned long long bytes_sent, bytes_recvd;
    /* our rendezvous sends to this peer that it has not answered yet (RNDV written, no
       ACK or FIN): while one is out, a large receive from the peer is half of an exchange,
       both processors already copy, and splitting it would only add hand-offs */
    int rndv_out;
    pml_request_t *pend_head, *pend_tail; /* sends waiting for room, in order */
    struct pml_peer *pend_next;           /* on the list of peers with pending sends */
    int on_pend_list;
    int world_rank;
} pml_peer_t;

/* MPI_T (pml_queue_lengths, pml_unexpected_peak): receives posted and messages
   unexpected, over every communicator, and the most unexpected at once since the peak was
   last restarted; kept by pml_match.c and by drop_comm in pml.c */
extern struct pml_queue_len {
    unsigned long long posted, unexp, unexp_peak;
} pml_queue_len;

/* ---- pml_match.c: the matching queues (no dependency beyond libc) ------------------- */

/* Partitioned operations match only each other, in the order of their initialization
   (MPI-4.0, 4.2.2): each carries a number, counted per communicator, peer, tag and
   direction by both ends (pml_part.c), and its key is that number (mod 2^16) with a bit
   no ordinary message has.  An ordinary receive's key is 0, so ANY_SOURCE and ANY_TAG
   never reach a partitioned message. */
#define PML_PKEY_PART 0x10000u
#define PML_PKEY(pseq) (PML_PKEY_PART | (uint16_t)(pseq))

static inline int pml_match_ok(int want_src, int want_tag, uint32_t want_pkey, int src, int tag,
                               uint32_t pkey)
{
    return (want_src == src || want_src == PML_ANY_SOURCE) &&
           (want_tag == tag || (want_tag == PML_ANY_TAG && tag >= 0)) && want_pkey == pkey;
}

/* the entry for `ctx`, created when `create` and absent; NULL on no memory / absent.  In
   line: the entry of the last lookup (most fragments in a row are for the same
   communicator); else the map's search. */
extern pml_comm_t *pml__match_last;
pml_comm_t *pml__match_comm_find(uint32_t ctx, int create);
static inline pml_comm_t *pml_match_comm(uint32_t ctx, int create)
{
    pml_comm_t *pc = pml__match_last;
    if (compi_likely(pc != NULL && pc->ctx == ctx)) {
        return pc;
    }
    return pml__match_comm_find(ctx, create);
}
/* forget `pc` (its queues must have been emptied by the caller) */
void pml_match_comm_remove(pml_comm_t *pc);
/* visit every entry (finalize) */
void pml_match_comm_foreach(void (*fn)(pml_comm_t *pc));

/* The posted queue is doubly linked, so cancel is O(1) once found.  Posting, matching
   and unlinking are in line: every receive does them once. */
static inline void pml__posted_unlink(pml_comm_t *pc, pml_request_t *r)
{
    pml_queue_len.posted--;
    if (r->prev != NULL) {
        r->prev->next = r->next;
    } else {
        pc->posted_head = r->next;
    }
    if (r->next != NULL) {
        r->next->prev = r->prev;
    } else {
        pc->posted_tail = r->prev;
    }
    r->next = r->prev = NULL;
}

/* first posted receive that an incoming (src, tag, pkey) matches, removed; or NULL */
static inline pml_request_t *pml_match_posted(pml_comm_t *pc, int src, int tag, uint32_t pkey)
{
    for (pml_request_t *r = pc->posted_head; r != NULL; r = r->next) {
        if (pml_match_ok(r->peer, r->tag, r->pkey, src, tag, pkey)) {
            pml__posted_unlink(pc, r);
            return r;
        }
    }
    return NULL;
}

static inline void pml_match_post(pml_comm_t *pc, pml_request_t *req)
{
    req->next = NULL;
    req->prev = pc->posted_tail;
    if (pc->posted_tail != NULL) {
        pc->posted_tail->next = req;
    } else {
        pc->posted_head = req;
    }
    pc->posted_tail = req;
    pml_queue_len.posted++;
}

/* remove a posted receive (cancel); 1 when it was there */
int pml_match_unpost(pml_comm_t *pc, pml_request_t *req);
/* first unexpected message a receive for (src, tag, pkey) matches; removed when `remove` */
pml_unexp_t *pml_match_unexp(pml_comm_t *pc, int src, int tag, uint32_t pkey, int remove);
void pml_match_add_unexp(pml_comm_t *pc, pml_unexp_t *u);

/* ---- pml.c -------------------------------------------------------------------------- */

#define PML_MAX_MODULES 8
/* measured on 2 cores: from 64 KiB both streaming and ping-pong gain (32 KiB: break-even) */
#define PML_SPLIT_MIN_DEFAULT (64 * 1024)
/* an even split finished first: 40 and 60 were both slower */
#define PML_SPLIT_GET_PCT_DEFAULT 50

typedef struct pml_state {
    pml_peer_t *peers; /* [npeers]: world ranks, then other worlds' processes (rte.h) */
    int world_size;
    int npeers;
    btl_module_t **modules;
    int nmodules;
    const size_t *progress_work[PML_MAX_MODULES]; /* per module: skip progress() while 0 */
    int npending;     /* sends queued on peers, control messages and frag lists */
    pml_peer_t *pend_peers;
    pml_request_t *frag_head, *frag_tail;
    int oversubscribed;
    int verbose;
    size_t split_min;  /* split rendezvous from this many bytes (0: never) */
    int split_get_pct; /* share of a split message the receiver reads itself */
    /* oversubscribed and idle: sleep in this module's wait() (NULL: sched_yield) when
       every other module's progress_work is 0; see pml_progress() */
    btl_module_t *block_btl;
    unsigned block_after; /* idle polls before sleeping */
    int block_ms;         /* longest sleep, so the other modules are polled again soon */
} pml_state_t;
extern pml_state_t pml_state;

/* send a control message (ACK, FIN, PUT, PUT_DONE) now, or queue it when the BTL is full */
void pml_ctl_send(int world_peer, const pml_hdr_ctl_t *hdr, size_t len);
void pml_peer_enqueue(pml_peer_t *p, pml_request_t *req);

/* the module's wait(), or NULL (modules built before the field was added are shorter) */
static inline int (*pml_btl_wait(const btl_module_t *btl))(int)
{
    return btl->size >= offsetof(btl_module_t, wait) + sizeof(btl->wait) ? btl->wait : NULL;
}

/* btl->wake, or NULL when the module has none (or is older than the field) */
static inline void (*pml_btl_wake(const btl_module_t *btl))(btl_endpoint_t *)
{
    return btl->size >= offsetof(btl_module_t, wake) + sizeof(btl->wake) ? btl->wake : NULL;
}

/* whether `btl` offers put() (modules built before the field was added are shorter) */
static inline int pml_btl_can_put(const btl_module_t *btl)
{
    return (btl->flags & BTL_FLAG_PUT) &&
           btl->size >= offsetof(btl_module_t, put) + sizeof(btl->put) && btl->put != NULL;
}

/* memcpy of an eager payload: up to 16 bytes with two overlapping loads and stores in
   line, where a call to memcpy would cost more than the copy (the buffers are distinct) */
static inline void pml_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (compi_likely(n - 8 <= 8)) { /* 8 to 16 bytes */
        uint64_t head, tail;
        memcpy(&head, s, 8);
        memcpy(&tail, s + n - 8, 8);
        memcpy(d, &head, 8);
        memcpy(d + n - 8, &tail, 8);
    } else if (n - 4 <= 3) { /* 4 to 7 */
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
    } else {
        memcpy(d, s, n);
    }
}

/* the BTL calls that move bytes, counted for MPI_T (no branch: a failed get or put adds 0) */
static inline compi_status_t pml_btl_commit(pml_peer_t *p, void *frag, size_t len)
{
    p->bytes_sent += len;
    return p->btl->commit(p->ep, frag, len);
}

static inline compi_status_t pml_btl_get(pml_peer_t *p, const struct iovec *iov, int n,
                                         uint64_t addr, uint64_t key, size_t len)
{
    compi_status_t st = p->btl->get(p->ep, iov, n, addr, key, len);
    p->bytes_recvd += st == COMPI_OK ? len : 0;
    return st;
}

static inline compi_status_t pml_btl_put(pml_peer_t *p, const struct iovec *iov, int n,
                                         uint64_t addr, uint64_t key, size_t len)
{
    compi_status_t st = p->btl->put(p->ep, iov, n, addr, key, len);
    p->bytes_sent += st == COMPI_OK ? len : 0;
    return st;
}

/* ---- pml_request.c ------------------------------------------------------------------ */

pml_request_t *pml_req_alloc(int kind, compi_comm_t *comm, compi_datatype_t *dt);
void pml_req_release(pml_request_t *req);
void pml_req_finalize(void);
/* a joined request is complete: report it to its REQ_JOIN request */
void pml_join_report(pml_request_t *req);

/* marks complete (release order) and disposes of internally owned requests */
static inline void pml_req_complete(pml_request_t *req)
{
    void pml_bsend_done(pml_request_t *req);

    if (compi_unlikely(req->bsend_region != NULL)) {
        pml_bsend_done(req);
    }
    if (compi_unlikely(req->join != NULL)) {
        pml_join_report(req);
    }
    __atomic_store_n(&req->super.complete, 1, __ATOMIC_RELEASE);
    if (compi_unlikely(req->super.user_freed)) {
        pml_req_release(req);
    }
}

/* ---- pml_send.c / pml_recv.c -------------------------------------------------------- */

void pml_send_start(pml_request_t *req);
/* pml_part.c: MPI_Start of a partitioned send (nothing leaves until MPI_Pready) */
void pml_psend_start(pml_request_t *req);
/* write the first fragment of a send: COMPI_ERR_NO_RESOURCE when the BTL is full */
compi_status_t pml_send_first(pml_request_t *req, pml_peer_t *p);
/* push FRAGs of a rendezvous until done or the BTL is full; returns fragments sent */
int pml_send_frags(pml_request_t *req);
void pml_send_on_ack(const pml_hdr_ack_t *h);
void pml_send_on_fin(const pml_hdr_fin_t *h);
/* PUT: write the part the receiver asks for, answer PUT_DONE */
void pml_send_on_put(const pml_hdr_put_t *h);
void pml_recv_start(pml_request_t *req);
void pml_unexp_free(pml_unexp_t *u);
/* the first batch of unexpected-message entries, made at pml_init so that the first
   unexpected message of a run does not allocate mid-run; COMPI_ERR_NO_MEMORY */
compi_status_t pml_unexp_prefill(void);
void pml_recv_cb(int src_world_rank, const void *frag, size_t len);

/* ---- pml_bsend.c -------------------------------------------------------------------- */

compi_status_t pml_bsend(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                         compi_comm_t *comm);
void pml_bsend_flush(void);

#endif
