/*
 * pml_recv.c -- the receiving side: the fragment handler the BTLs call, posting
 * receives, the unexpected-message store, probes and cancel.
 *
 * An eager message that finds no posted receive is copied out of the BTL's fragment
 * (whose memory is only lent during the callback) into a pooled unexpected entry; a
 * RNDV header is kept the same way until a receive matches it.  Pooled entries keep
 * their data buffer, so after warm-up nothing here allocates.
 */
#include "core/pml/pml_internal.h"

#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <stdlib.h>
#include <string.h>

static pml_unexp_t *unexp_pool;

/* Entries come in batches, each with UNEXP_DATA bytes (an eager message of the
   shared-memory BTL at its default limit, btl_sm_eager_limit, fits): UNEXP_BATCH first,
   then as many as there are already, so that a new high of unexpected messages (senders
   of eager messages may run ahead of a busy receiver) allocates rarely, and not once per
   message.  The first batch is made at pml_init (pml_unexp_prefill), so a run's first
   unexpected message allocates nothing either.  Past UNEXP_EAGER_MAX entries (4 MiB of
   data), an entry's data comes when it is first needed, and stays with it. */
#define UNEXP_BATCH 64
#define UNEXP_DATA 16384
#define UNEXP_EAGER_MAX 256

static size_t unexp_total; /* entries made so far */

static int unexp_refill(void)
{
    size_t n = unexp_total > UNEXP_BATCH ? unexp_total : UNEXP_BATCH;
    pml_unexp_t *batch = calloc(n, sizeof(*batch));
    if (batch == NULL) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        /* the entries are never freed one by one (pml_unexp_free pools them) */
        batch[i].data = unexp_total < UNEXP_EAGER_MAX ? malloc(UNEXP_DATA) : NULL;
        batch[i].cap = batch[i].data != NULL ? UNEXP_DATA : 0;
        batch[i].next = unexp_pool;
        unexp_pool = &batch[i];
    }
    unexp_total += n;
    return 0;
}

compi_status_t pml_unexp_prefill(void)
{
    return unexp_pool != NULL || unexp_refill() == 0 ? COMPI_OK : COMPI_ERR_NO_MEMORY;
}

static pml_unexp_t *unexp_alloc(size_t len)
{
    if (unexp_pool == NULL && unexp_refill() != 0) {
        goto err;
    }
    pml_unexp_t *u = unexp_pool;
    unexp_pool = u->next;
    if (u->cap < len) {
        free(u->data);
        u->cap = len < UNEXP_DATA ? UNEXP_DATA : len;
        if ((u->data = malloc(u->cap)) == NULL) {
            u->cap = 0;
            pml_unexp_free(u);
            goto err;
        }
    }
    return u;
err:
    rte_abort(1, "pml: out of memory storing an unexpected message");
}

void pml_unexp_free(pml_unexp_t *u)
{
    if (u->cap > 65536) {
        /* do not hoard large buffers */
        free(u->data);
        u->data = NULL;
        u->cap = 0;
    }
    u->next = unexp_pool;
    unexp_pool = u;
}

/* copy `len` packed bytes into a receive buffer of `cap` bytes; fills the result */
static inline void deliver(void *buf, size_t count, compi_datatype_t *dt, size_t cap, int src,
                           int tag, const void *data, size_t len, pml_result_t *res)
{
    size_t n = len;
    res->source = src;
    res->tag = tag;
    res->error = COMPI_OK;
    res->cancelled = 0;
    if (compi_unlikely(len > cap)) {
        n = cap;
        res->error = COMPI_ERR_TRUNCATE;
    }
    res->count = n;
    if (n > 0) {
        void *dst = dt_contig_ptr(dt, buf, count);
        if (compi_likely(dst != NULL)) {
            pml_copy(dst, data, n);
        } else {
            dt_unpack(dt, buf, count, 0, data, n);
        }
    }
}

/* copy a matched eager payload into the receive */
static void pml_recv_eager(pml_request_t *req, int src, int tag, const void *data, size_t len)
{
    deliver(req->buf, req->count, req->dt, req->bytes, src, tag, data, len, &req->super.result);
    pml_req_complete(req);
}

/* read the sender's contiguous data straight into the receive buffer */
static compi_status_t rndv_get(pml_request_t *req, pml_peer_t *p, uint64_t addr, uint64_t key,
                               size_t target)
{
    void *dst = dt_contig_ptr(req->dt, req->buf, req->count);
    if (dst != NULL) {
        struct iovec iov = {.iov_base = dst, .iov_len = target};
        return pml_btl_get(p, &iov, 1, addr, key, target);
    }
    struct iovec iov[32];
    size_t off = 0;
    while (off < target) {
        size_t got = 0;
        int n = dt_to_iov(req->dt, req->buf, req->count, off, target - off, iov,
                          (int)COMPI_ARRAY_SIZE(iov), &got);
        if (n <= 0 || got == 0) {
            return COMPI_ERR_INTERNAL;
        }
        compi_status_t st = pml_btl_get(p, iov, n, addr + off, key, got);
        if (st != COMPI_OK) {
            return st;
        }
        off += got;
    }
    return COMPI_OK;
}

/* ---- split rendezvous: both ranks copy ------------------------------------------------
 *
 *   receiver                                 sender
 *   matches RNDV(addr)
 *   PUT(second part, my address) --------->
 *   get(first part)                          put(second part)
 *                                <---------  PUT_DONE
 *   both over: FIN ----------------------->  send complete
 *   receive complete
 *
 * On two cores this copies at nearly twice the rate of one get(), in ping-pong as in
 * streaming.  FIN waits for PUT_DONE, so the sender keeps its buffer until the receiver
 * has stopped reading it whatever failed; a part that neither single copy moved is then
 * asked for as FRAGs (an ACK naming the missing range), as when get() fails alone.
 *
 * Not for a receive whose caller reads the data at once (pml_recv_whole: a reduction
 * combines it; the data written by the sender would be read from the other core's cache,
 * reduce of 64 KiB at 2 ranks, OSU: 11.8 us split against 6.7 not), and not when the
 * receiver's own rendezvous send to the same peer is still unanswered
 * (pml_peer_t.rndv_out): the message is then half of an exchange (a sendrecv, a
 * collective's step), the peer's processor is busy reading our data, and a split only
 * adds the PUT and PUT_DONE hand-offs (allreduce and alltoall of 64 KiB at 2 ranks, OSU:
 * about 12.7 and 9.3 us split against 8.2 and 7.5 us not).
 */

static void split_advance(pml_request_t *req)
{
    pml_peer_t *p = &pml_state.peers[req->world_peer];
    size_t split = req->offset, target = req->target;
    uint64_t sreq = req->remote;
    pml_hdr_ctl_t ctl;

    if (req->state & (PML_RST_GET | PML_RST_PUT)) {
        return;
    }
    if (req->reg != NULL) {
        p->btl->deregister_mem(req->reg);
        req->reg = NULL;
    }
    if ((req->state & (PML_RST_GETFAIL | PML_RST_PUTFAIL)) == PML_RST_PUTFAIL) {
        /* the put failed but reading works: read that part too */
        char *dst = dt_contig_ptr(req->dt, req->buf, req->count);
        struct iovec iov = {.iov_base = dst + split, .iov_len = target - split};
        if (pml_btl_get(p, &iov, 1, req->remote_addr + split, req->remote_key, target - split) ==
            COMPI_OK) {
            req->state &= ~(unsigned)PML_RST_PUTFAIL;
        }
    }
    memset(&ctl, 0, sizeof(ctl));
    unsigned fails = req->state & (PML_RST_GETFAIL | PML_RST_PUTFAIL);
    req->state = 0;
    if (fails == 0) {
        ctl.fin.type = PML_HDR_FIN;
        ctl.fin.sreq = sreq;
        pml_req_complete(req);
        pml_ctl_send(p->world_rank, &ctl, sizeof(ctl.fin));
        return;
    }
    size_t lo = fails & PML_RST_GETFAIL ? 0 : split;
    size_t hi = fails & PML_RST_PUTFAIL ? target : split;
    compi_log_verbose(pml_state.verbose, 1,
                      "pml: single copy with rank %d failed, bytes %zu-%zu come as frags",
                      p->world_rank, lo, hi);
    ctl.ack.type = PML_HDR_ACK;
    ctl.ack.sreq = sreq;
    ctl.ack.rreq = (uint64_t)(uintptr_t)req;
    ctl.ack.offset = lo;
    ctl.ack.len = hi - lo;
    req->target = hi - lo;
    req->offset = 0;
    /* the sender completes after its last FRAG; on_frag completes us */
    pml_ctl_send(p->world_rank, &ctl, sizeof(ctl.ack));
}

/* start a split rendezvous; 0 when this message cannot be split (nothing was sent) */
static int split_start(pml_request_t *req, pml_peer_t *p, int world_src, uint64_t sreq,
                       uint64_t addr, uint64_t key, size_t target)
{
    char *dst = dt_contig_ptr(req->dt, req->buf, req->count);
    if (dst == NULL || !pml_btl_can_put(p->btl)) {
        return 0;
    }
    /* a page boundary in our buffer: the two copies never write the same page */
    size_t split = target / 100 * (size_t)pml_state.split_get_pct;
    size_t aligned = (size_t)((((uintptr_t)dst + split) & ~(uintptr_t)4095) - (uintptr_t)dst);
    if (aligned > 0 && aligned < target) {
        split = aligned;
    }
    if (split == 0 || split >= target) {
        return 0;
    }
    uint64_t rkey = 0;
    req->reg = NULL;
    if (p->btl->register_mem != NULL &&
        p->btl->register_mem(dst + split, target - split, &rkey, &req->reg) != COMPI_OK) {
        return 0;
    }
    req->world_peer = world_src;
    req->remote = sreq;
    req->target = target;
    req->offset = split;
    req->remote_addr = addr;
    req->remote_key = key;
    req->state = PML_RST_GET | PML_RST_PUT;

    pml_hdr_ctl_t ctl;
    memset(&ctl, 0, sizeof(ctl));
    ctl.put.type = PML_HDR_PUT;
    ctl.put.sreq = sreq;
    ctl.put.rreq = (uint64_t)(uintptr_t)req;
    ctl.put.addr = (uint64_t)(uintptr_t)(dst + split);
    ctl.put.key = rkey;
    ctl.put.offset = split;
    ctl.put.len = target - split;
    /* first, so the sender copies while we do */
    pml_ctl_send(world_src, &ctl, sizeof(ctl.put));

    struct iovec iov = {.iov_base = dst, .iov_len = split};
    if (pml_btl_get(p, &iov, 1, addr, key, split) != COMPI_OK) {
        req->state |= PML_RST_GETFAIL;
    }
    req->state &= ~(unsigned)PML_RST_GET;
    split_advance(req);
    return 1;
}

static void pml_recv_on_put_done(const pml_hdr_put_done_t *h)
{
    pml_request_t *req = (pml_request_t *)(uintptr_t)h->rreq;
    req->state &= ~(unsigned)PML_RST_PUT;
    if (!h->ok) {
        req->state |= PML_RST_PUTFAIL;
    }
    split_advance(req);
}

/* a matched RNDV: read with get() or ask for FRAGs */
static void pml_recv_rndv(pml_request_t *req, int world_src, int src, int tag, size_t len,
                          unsigned flags, uint64_t sreq, uint64_t addr, uint64_t key)
{
    pml_result_t *res = &req->super.result;
    pml_peer_t *p = &pml_state.peers[world_src];
    size_t target = len;
    pml_hdr_ctl_t ctl;

    res->source = src;
    res->tag = tag;
    if (target > req->bytes) {
        target = req->bytes;
        res->error = COMPI_ERR_TRUNCATE;
    }
    res->count = target;
    memset(&ctl, 0, sizeof(ctl));

    if ((flags & PML_HFLAG_ADDR) && (p->btl->flags & BTL_FLAG_GET)) {
        if (pml_state.split_min > 0 && target >= pml_state.split_min && p->rndv_out == 0 &&
            !(req->mode & PML_RECV_WHOLE) &&
            split_start(req, p, world_src, sreq, addr, key, target)) {
            return;
        }
        if (target == 0 || rndv_get(req, p, addr, key, target) == COMPI_OK) {
            ctl.fin.type = PML_HDR_FIN;
            ctl.fin.sreq = sreq;
            pml_req_complete(req);
            pml_ctl_send(world_src, &ctl, sizeof(ctl.fin));
            return;
        }
        /* get() failed (e.g. no permission to read the peer): fall back to FRAGs */
        compi_log_verbose(pml_state.verbose, 1, "pml: get from rank %d failed, using frags",
                          world_src);
    }
    ctl.ack.type = PML_HDR_ACK;
    ctl.ack.sreq = sreq;
    ctl.ack.rreq = (uint64_t)(uintptr_t)req;
    ctl.ack.len = target;
    req->target = target;
    req->offset = 0;
    if (target == 0) {
        pml_req_complete(req);
    }
    /* after this, FRAGs may arrive (even inside the call, over the self BTL) */
    pml_ctl_send(world_src, &ctl, sizeof(ctl.ack));
}

static void pml_recv_unexp(pml_request_t *req, pml_unexp_t *u)
{
    if (u->type == PML_HDR_MATCH) {
        pml_recv_eager(req, u->src, u->tag, u->data, u->len);
    } else {
        pml_recv_rndv(req, u->world_src, u->src, u->tag, u->len, u->flags, u->sreq, u->addr,
                      u->key);
    }
    pml_unexp_free(u);
}

/* ---- the BTLs' receive callback ----------------------------------------------------- */

static void on_match(int world_src, const pml_hdr_match_t *h, int rndv)
{
    pml_comm_t *pc = pml_match_comm(h->ctx, 1);
    if (compi_unlikely(pc == NULL)) {
        rte_abort(1, "pml: out of memory for a communicator's queues");
    }
    uint32_t pkey = compi_unlikely(h->flags & PML_HFLAG_PART) ? PML_PKEY(h->pseq) : 0;
    pml_request_t *req =
        pc->posted_head != NULL ? pml_match_posted(pc, h->src, h->tag, pkey) : NULL;
    if (!rndv) {
        if (compi_likely(req != NULL)) {
            pml_recv_eager(req, h->src, h->tag, h + 1, h->len);
            return;
        }
        pml_unexp_t *u = unexp_alloc(h->len);
        u->type = PML_HDR_MATCH;
        /* a fresh entry for an empty message has no buffer: memcpy(NULL, .., 0) is UB */
        if (h->len > 0) {
            memcpy(u->data, h + 1, h->len);
        }
        u->src = h->src;
        u->tag = h->tag;
        u->pkey = pkey;
        u->len = h->len;
        u->world_src = world_src;
        pml_match_add_unexp(pc, u);
        return;
    }
    const pml_hdr_rndv_t *r = (const pml_hdr_rndv_t *)h;
    if (req != NULL) {
        pml_recv_rndv(req, world_src, h->src, h->tag, h->len, h->flags, r->sreq, r->addr,
                      r->key);
        return;
    }
    pml_unexp_t *u = unexp_alloc(0);
    u->type = PML_HDR_RNDV;
    u->flags = h->flags;
    u->src = h->src;
    u->tag = h->tag;
    u->pkey = pkey;
    u->len = h->len;
    u->world_src = world_src;
    u->sreq = r->sreq;
    u->addr = r->addr;
    u->key = r->key;
    pml_match_add_unexp(pc, u);
}

static void on_frag(const pml_hdr_frag_t *h, size_t len)
{
    pml_request_t *req = (pml_request_t *)(uintptr_t)h->rreq;
    size_t n = len - sizeof(*h);
    void *dst = dt_contig_ptr(req->dt, req->buf, req->count);
    if (dst != NULL) {
        memcpy((char *)dst + h->offset, h + 1, n);
    } else {
        dt_unpack(req->dt, req->buf, req->count, h->offset, h + 1, n);
    }
    req->offset += n;
    if (req->offset >= req->target) {
        pml_req_complete(req);
    }
}

void pml_recv_cb(int src_world_rank, const void *frag, size_t len)
{
    pml_state.peers[src_world_rank].bytes_recvd += len;
    switch (*(const uint8_t *)frag) {
    case PML_HDR_MATCH:
        on_match(src_world_rank, frag, 0);
        break;
    case PML_HDR_RNDV:
        on_match(src_world_rank, frag, 1);
        break;
    case PML_HDR_ACK:
        pml_send_on_ack(frag);
        break;
    case PML_HDR_FRAG:
        on_frag(frag, len);
        break;
    case PML_HDR_FIN:
        pml_send_on_fin(frag);
        break;
    case PML_HDR_PUT:
        pml_send_on_put(frag);
        break;
    case PML_HDR_PUT_DONE:
        pml_recv_on_put_done(frag);
        break;
    default:
        compi_log_error("pml: fragment of unknown type %u from rank %d (%zu bytes)",
                        *(const uint8_t *)frag, src_world_rank, len);
        break;
    }
}

/* ---- posting receives --------------------------------------------------------------- */

static void recv_init_fields(pml_request_t *r, void *buf, size_t count, compi_datatype_t *dt,
                             int src, int tag, unsigned char flags)
{
    r->buf = buf;
    r->count = count;
    r->peer = src;
    r->tag = tag;
    r->bytes = count * dt->size;
    r->mode = flags;
}

static void result_proc_null(pml_result_t *res)
{
    pml_result_empty(res);
    res->source = PML_PROC_NULL;
}

void pml_recv_start(pml_request_t *req)
{
    req->super.complete = 0;
    req->offset = 0;
    pml_result_empty(&req->super.result);
    if (compi_unlikely(req->peer == PML_PROC_NULL)) {
        result_proc_null(&req->super.result);
        pml_req_complete(req);
        return;
    }
    pml_comm_t *pc = req->super.comm->pml;
    pml_unexp_t *u =
        pc->unexp_head != NULL ? pml_match_unexp(pc, req->peer, req->tag, req->pkey, 1) : NULL;
    if (u != NULL) {
        pml_recv_unexp(req, u);
    } else {
        pml_match_post(pc, req);
    }
}

static inline compi_status_t irecv_flags(void *buf, size_t count, compi_datatype_t *dt, int src,
                                         int tag, compi_comm_t *comm, compi_request_t **req_p,
                                         unsigned char flags)
{
    pml_request_t *r = pml_req_alloc(REQ_RECV, comm, dt);
    if (compi_unlikely(r == NULL)) {
        return COMPI_ERR_NO_MEMORY;
    }
    recv_init_fields(r, buf, count, dt, src, tag, flags);
    *req_p = &r->super;
    pml_recv_start(r);
    return COMPI_OK;
}

compi_status_t pml_irecv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                         compi_comm_t *comm, compi_request_t **req_p)
{
    return irecv_flags(buf, count, dt, src, tag, comm, req_p, 0);
}

compi_status_t pml_irecv_whole(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                               compi_comm_t *comm, compi_request_t **req_p)
{
    return irecv_flags(buf, count, dt, src, tag, comm, req_p, PML_RECV_WHOLE);
}

compi_status_t pml_recv_init(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                             compi_comm_t *comm, compi_request_t **req_p)
{
    pml_request_t *r = pml_req_alloc(REQ_RECV, comm, dt);
    if (r == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    recv_init_fields(r, buf, count, dt, src, tag, 0);
    r->super.persistent = 1;
    r->super.complete = 1;
    *req_p = &r->super;
    return COMPI_OK;
}

static inline compi_status_t recv_flags(void *buf, size_t count, compi_datatype_t *dt, int src,
                                        int tag, compi_comm_t *comm, pml_result_t *res,
                                        unsigned char flags)
{
    pml_result_t local;
    pml_result_t *st = res != NULL ? res : &local;
    if (compi_unlikely(src == PML_PROC_NULL)) {
        result_proc_null(st);
        return COMPI_OK;
    }
    pml_comm_t *pc = comm->pml;
    pml_unexp_t *u = NULL;
    if (pc->unexp_head != NULL) {
        u = pml_match_unexp(pc, src, tag, 0, 1);
        if (u != NULL && u->type == PML_HDR_MATCH) {
            /* already here: no request needed */
            deliver(buf, count, dt, count * dt->size, u->src, u->tag, u->data, u->len, st);
            pml_unexp_free(u);
            return st->error;
        }
    }
    /* The request lives on this stack frame: the call returns only once it is complete,
       and nothing refers to it after that (its address, sent as the id of a rendezvous
       receive, is answered before completion).  The caller holds comm and dt for the
       whole call, so they are not retained. */
    pml_request_t r = {.super = {.kind = REQ_RECV, .comm = comm}, .dt = dt};
    pml_result_empty(&r.super.result);
    recv_init_fields(&r, buf, count, dt, src, tag, flags);
    if (u != NULL) {
        pml_recv_unexp(&r, u);
    } else {
        pml_match_post(pc, &r);
    }
    while (!__atomic_load_n(&r.super.complete, __ATOMIC_ACQUIRE)) {
        pml_progress_wait();
    }
    *st = r.super.result;
    return st->error;
}

compi_status_t pml_recv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                        compi_comm_t *comm, pml_result_t *res)
{
    return recv_flags(buf, count, dt, src, tag, comm, res, 0);
}

compi_status_t pml_recv_whole(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                              compi_comm_t *comm, pml_result_t *res)
{
    return recv_flags(buf, count, dt, src, tag, comm, res, PML_RECV_WHOLE);
}

/* ---- probes and matched messages ---------------------------------------------------- */

static void result_of_unexp(const pml_unexp_t *u, pml_result_t *res)
{
    if (res == NULL) {
        return;
    }
    *res = (pml_result_t){.source = u->src, .tag = u->tag, .error = COMPI_OK, .count = u->len};
}

compi_status_t pml_iprobe(int src, int tag, compi_comm_t *comm, int *flag, pml_result_t *res)
{
    if (src == PML_PROC_NULL) {
        *flag = 1;
        if (res != NULL) {
            result_proc_null(res);
        }
        return COMPI_OK;
    }
    pml_progress();
    pml_unexp_t *u = pml_match_unexp(comm->pml, src, tag, 0, 0);
    *flag = u != NULL;
    if (u != NULL) {
        result_of_unexp(u, res);
    }
    return COMPI_OK;
}

compi_status_t pml_improbe(int src, int tag, compi_comm_t *comm, int *flag, compi_message_t **msg_p,
                           pml_result_t *res)
{
    *msg_p = NULL;
    pml_progress();
    pml_unexp_t *u = pml_match_unexp(comm->pml, src, tag, 0, 0);
    *flag = 0;
    if (u == NULL) {
        return COMPI_OK;
    }
    compi_message_t *m = malloc(sizeof(*m));
    if (m == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    pml_match_unexp(comm->pml, src, tag, 0, 1);
    m->u = u;
    m->comm = comm;
    comm_retain(comm);
    result_of_unexp(u, res);
    *flag = 1;
    *msg_p = m;
    return COMPI_OK;
}

compi_status_t pml_imrecv(void *buf, size_t count, compi_datatype_t *dt, compi_message_t *msg,
                          compi_request_t **req_p)
{
    pml_request_t *r = pml_req_alloc(REQ_RECV, msg->comm, dt);
    if (r == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    recv_init_fields(r, buf, count, dt, msg->u->src, msg->u->tag, 0);
    *req_p = &r->super;
    pml_recv_unexp(r, msg->u);
    comm_release(msg->comm);
    free(msg);
    return COMPI_OK;
}

int pml_cancel(compi_request_t *req)
{
    pml_request_t *r = (pml_request_t *)req;
    if (req->kind != REQ_RECV || req->complete || req->comm == NULL || req->comm->pml == NULL) {
        return 0;
    }
    if (!pml_match_unpost(req->comm->pml, r)) {
        return 0;
    }
    pml_result_empty(&req->result);
    req->result.cancelled = 1;
    pml_req_complete(r);
    return 1;
}

int pml_cancel_tags(compi_comm_t *comm, int lo, int hi)
{
    pml_comm_t *pc = comm->pml;
    int n = 0;
    pml_request_t *r = pc != NULL ? pc->posted_head : NULL;
    while (r != NULL) {
        pml_request_t *next = r->next;
        if (r->tag >= lo && r->tag <= hi && pml_cancel(&r->super)) {
            n++;
        }
        r = next;
    }
    return n;
}

compi_comm_t *pml_message_comm(const compi_message_t *msg)
{
    return msg->comm;
}
