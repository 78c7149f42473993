/*
 * pml_send.c -- the sending side: eager, rendezvous (RNDV, then FIN after the peer's
 * get() or ACK then a pipeline of FRAGs), and the sender's half of the control messages.
 *
 *   eager   (len <= eager_max, not synchronous):   MATCH+data ------------------->  done
 *   get     (contiguous buffer, BTL_FLAG_GET):      RNDV(addr) ----> get <---- FIN   done
 *   split   (get, and the receiver asks for it):    RNDV(addr) ----> <---- PUT
 *                                                   put (while the receiver gets)
 *                                                   PUT_DONE ------> <---- FIN       done
 *   pipeline (otherwise):                           RNDV ------> <------ ACK
 *                                                   FRAG, FRAG, ... ----------->     done
 *
 * The blocking MPI_Send of a small message needs no request: reserve, header, copy,
 * commit.
 */
#include "core/pml/pml_internal.h"

#include "core/runtime/log.h"

#include <inttypes.h>
#include <string.h>

/* write MATCH + data; COMPI_ERR_NO_RESOURCE when the BTL has no room */
static inline compi_status_t eager_write(pml_peer_t *p, const void *buf, size_t count,
                                         compi_datatype_t *dt, size_t bytes, int tag, uint32_t pkey,
                                         compi_comm_t *comm)
{
    size_t len = sizeof(pml_hdr_match_t) + bytes;
    pml_hdr_match_t *h = p->btl->reserve(p->ep, len);
    if (compi_unlikely(h == NULL)) {
        return COMPI_ERR_NO_RESOURCE;
    }
    h->type = PML_HDR_MATCH;
    h->flags = pkey != 0 ? PML_HFLAG_PART : 0;
    h->pseq = (uint16_t)pkey;
    h->ctx = comm->ctx;
    h->src = comm->rank;
    h->tag = tag;
    h->len = bytes;
    const void *src = dt_contig_ptr(dt, buf, count);
    if (compi_likely(src != NULL)) {
        pml_copy(h + 1, src, bytes);
    } else {
        dt_pack(dt, buf, count, 0, h + 1, bytes);
    }
    return pml_btl_commit(p, h, len);
}

compi_status_t pml_send(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                        compi_comm_t *comm, pml_send_mode_t mode)
{
    if (compi_unlikely(dst == PML_PROC_NULL)) {
        return COMPI_OK;
    }
    if (compi_unlikely(mode == PML_SEND_BUFFERED)) {
        return pml_bsend(buf, count, dt, dst, tag, comm);
    }
    pml_peer_t *p = &pml_state.peers[comm->world_ranks[dst]];
    size_t bytes = count * dt->size;
    if (compi_likely(mode != PML_SEND_SYNC && bytes <= p->eager_max)) {
        for (;;) {
            /* behind queued sends to this peer, to keep their order */
            if (compi_likely(p->pend_head == NULL)) {
                compi_status_t st = eager_write(p, buf, count, dt, bytes, tag, 0, comm);
                if (compi_likely(st != COMPI_ERR_NO_RESOURCE)) {
                    return st;
                }
            }
            pml_progress_wait();
        }
    }
    compi_request_t *req;
    compi_status_t st = pml_isend(buf, count, dt, dst, tag, comm, mode, &req);
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_wait(req, NULL);
    pml_request_free(req);
    return st;
}

int pml_send_is_local(const compi_comm_t *comm, int dst, size_t bytes)
{
    return dst >= 0 && dst < comm->size &&
           bytes <= pml_state.peers[comm->world_ranks[dst]].eager_max;
}

static void send_init_fields(pml_request_t *r, const void *buf, size_t count,
                             compi_datatype_t *dt, int dst, int tag, compi_comm_t *comm,
                             pml_send_mode_t mode)
{
    r->buf = (void *)buf;
    r->count = count;
    r->peer = dst;
    r->tag = tag;
    r->mode = (unsigned char)mode;
    r->bytes = count * dt->size;
    r->world_peer = dst == PML_PROC_NULL ? -1 : comm->world_ranks[dst];
}

compi_status_t pml_isend(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                         compi_comm_t *comm, pml_send_mode_t mode, compi_request_t **req_p)
{
    if (compi_unlikely(mode == PML_SEND_BUFFERED)) {
        /* the data is copied out now; the request the caller sees is complete at once */
        compi_status_t st = pml_bsend(buf, count, dt, dst, tag, comm);
        if (st != COMPI_OK) {
            return st;
        }
        pml_request_t *r = pml_req_alloc(REQ_SEND, comm, NULL);
        if (r == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        r->super.complete = 1;
        *req_p = &r->super;
        return COMPI_OK;
    }
    pml_request_t *r = pml_req_alloc(REQ_SEND, comm, dt);
    if (compi_unlikely(r == NULL)) {
        return COMPI_ERR_NO_MEMORY;
    }
    send_init_fields(r, buf, count, dt, dst, tag, comm, mode);
    *req_p = &r->super;
    pml_send_start(r);
    return COMPI_OK;
}

compi_status_t pml_send_init(const void *buf, size_t count, compi_datatype_t *dt, int dst,
                             int tag, compi_comm_t *comm, pml_send_mode_t mode,
                             compi_request_t **req_p)
{
    pml_request_t *r = pml_req_alloc(REQ_SEND, comm, dt);
    if (r == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    send_init_fields(r, buf, count, dt, dst, tag, comm, mode);
    r->super.persistent = 1;
    r->super.complete = 1; /* inactive: waits return at once */
    *req_p = &r->super;
    return COMPI_OK;
}

void pml_send_start(pml_request_t *r)
{
    r->super.complete = 0;
    r->state = PML_SST_NONE;
    r->offset = 0;
    pml_result_empty(&r->super.result);
    if (compi_unlikely(r->peer == PML_PROC_NULL)) {
        r->super.result.source = PML_PROC_NULL;
        pml_req_complete(r);
        return;
    }
    if (compi_unlikely(r->mode == PML_SEND_BUFFERED)) {
        /* persistent Bsend_init: copy into the attached buffer on each start */
        r->super.result.error = pml_bsend(r->buf, r->count, r->dt, r->peer, r->tag, r->super.comm);
        pml_req_complete(r);
        return;
    }
    pml_peer_t *p = &pml_state.peers[r->world_peer];
    if (p->pend_head != NULL || pml_send_first(r, p) != COMPI_OK) {
        pml_peer_enqueue(p, r);
    }
}

static compi_status_t rndv_write(pml_request_t *r, pml_peer_t *p)
{
    pml_hdr_rndv_t *h = p->btl->reserve(p->ep, sizeof(*h));
    if (h == NULL) {
        return COMPI_ERR_NO_RESOURCE;
    }
    compi_comm_t *comm = r->super.comm;
    h->m.type = PML_HDR_RNDV;
    h->m.flags =
        (r->mode == PML_SEND_SYNC ? PML_HFLAG_SYNC : 0) | (r->pkey != 0 ? PML_HFLAG_PART : 0);
    h->m.pseq = (uint16_t)r->pkey;
    h->m.ctx = comm->ctx;
    h->m.src = comm->rank;
    h->m.tag = r->tag;
    h->m.len = r->bytes;
    h->sreq = (uint64_t)(uintptr_t)r;
    h->addr = 0;
    h->key = 0;
    void *data = r->bytes > 0 ? dt_contig_ptr(r->dt, r->buf, r->count) : NULL;
    if (data != NULL && (p->btl->flags & BTL_FLAG_GET)) {
        uint64_t key = 0;
        if (p->btl->register_mem == NULL ||
            p->btl->register_mem(data, r->bytes, &key, &r->reg) == COMPI_OK) {
            h->m.flags |= PML_HFLAG_ADDR;
            h->addr = (uint64_t)(uintptr_t)data;
            h->key = key;
        }
    }
    /* state first: with the self BTL the answer may come inside commit() */
    r->state = PML_SST_WAIT_ACK;
    p->rndv_out++;
    compi_status_t st = pml_btl_commit(p, h, sizeof(*h));
    if (st != COMPI_OK && r->state == PML_SST_WAIT_ACK) {
        r->state = PML_SST_NONE;
        p->rndv_out--;
    }
    return st;
}

/* the peer answered our RNDV (ACK or FIN) */
static void rndv_answered(pml_request_t *r, pml_peer_t *p)
{
    if (r->state == PML_SST_WAIT_ACK) {
        p->rndv_out--;
    }
}

compi_status_t pml_send_first(pml_request_t *r, pml_peer_t *p)
{
    if (r->mode != PML_SEND_SYNC && r->bytes <= p->eager_max) {
        compi_status_t st =
            eager_write(p, r->buf, r->count, r->dt, r->bytes, r->tag, r->pkey, r->super.comm);
        if (st == COMPI_ERR_NO_RESOURCE) {
            return st;
        }
        r->super.result.error = st;
        pml_req_complete(r);
        return COMPI_OK;
    }
    compi_status_t st = rndv_write(r, p);
    if (st == COMPI_ERR_NO_RESOURCE) {
        return st;
    }
    if (st != COMPI_OK) {
        r->super.result.error = st;
        pml_req_complete(r);
    }
    return COMPI_OK;
}

static void frag_list_remove(pml_request_t *r)
{
    if (!r->on_frag_list) {
        return;
    }
    if (r->prev != NULL) {
        r->prev->next = r->next;
    } else {
        pml_state.frag_head = r->next;
    }
    if (r->next != NULL) {
        r->next->prev = r->prev;
    } else {
        pml_state.frag_tail = r->prev;
    }
    r->next = r->prev = NULL;
    r->on_frag_list = 0;
    pml_state.npending--;
}

static void frag_list_add(pml_request_t *r)
{
    if (r->on_frag_list) {
        return;
    }
    r->next = NULL;
    r->prev = pml_state.frag_tail;
    if (pml_state.frag_tail != NULL) {
        pml_state.frag_tail->next = r;
    } else {
        pml_state.frag_head = r;
    }
    pml_state.frag_tail = r;
    r->on_frag_list = 1;
    pml_state.npending++;
}

int pml_send_frags(pml_request_t *r)
{
    pml_peer_t *p = &pml_state.peers[r->world_peer];
    int n = 0;
    while (r->offset < r->target) {
        size_t chunk = r->target - r->offset;
        if (chunk > p->frag_max) {
            chunk = p->frag_max;
        }
        pml_hdr_frag_t *h = p->btl->reserve(p->ep, sizeof(*h) + chunk);
        if (h == NULL) {
            frag_list_add(r);
            return n;
        }
        h->type = PML_HDR_FRAG;
        memset(h->pad, 0, sizeof(h->pad));
        h->rreq = r->remote;
        h->offset = r->offset;
        dt_pack(r->dt, r->buf, r->count, r->offset, h + 1, chunk);
        r->offset += chunk;
        pml_btl_commit(p, h, sizeof(*h) + chunk);
        n++;
    }
    frag_list_remove(r);
    r->state = PML_SST_NONE;
    pml_req_complete(r);
    return n + 1;
}

/* ACK: the receiver matched and wants `len` bytes as FRAGs */
void pml_send_on_ack(const pml_hdr_ack_t *h)
{
    pml_request_t *r = (pml_request_t *)(uintptr_t)h->sreq;
    pml_peer_t *p = &pml_state.peers[r->world_peer];
    if (r->reg != NULL) {
        p->btl->deregister_mem(r->reg);
        r->reg = NULL;
    }
    rndv_answered(r, p);
    r->remote = h->rreq;
    r->target = h->offset + h->len;
    r->offset = h->offset;
    r->state = PML_SST_FRAGS;
    pml_send_frags(r);
}

/* FIN: the receiver read our data with get() */
void pml_send_on_fin(const pml_hdr_fin_t *h)
{
    pml_request_t *r = (pml_request_t *)(uintptr_t)h->sreq;
    pml_peer_t *p = &pml_state.peers[r->world_peer];
    if (r->reg != NULL) {
        p->btl->deregister_mem(r->reg);
        r->reg = NULL;
    }
    rndv_answered(r, p);
    r->state = PML_SST_NONE;
    pml_req_complete(r);
}

/*
 * PUT: the receiver splits the copy with us.  Runs inside the BTL's receive callback and
 * blocks for the length of the put; the receiver reads the other part meanwhile.  Our
 * send stays incomplete until FIN, which the receiver sends once it no longer needs our
 * buffer (after this PUT_DONE, and after whatever it does when the put failed).
 */
void pml_send_on_put(const pml_hdr_put_t *h)
{
    pml_request_t *r = (pml_request_t *)(uintptr_t)h->sreq;
    pml_peer_t *p = &pml_state.peers[r->world_peer];
    const char *data = dt_contig_ptr(r->dt, r->buf, r->count);
    pml_hdr_ctl_t ctl;

    memset(&ctl, 0, sizeof(ctl));
    ctl.put_done.type = PML_HDR_PUT_DONE;
    ctl.put_done.rreq = h->rreq;
    if (data != NULL && h->offset + h->len <= r->bytes && pml_btl_can_put(p->btl)) {
        struct iovec iov = {.iov_base = (void *)(data + h->offset), .iov_len = h->len};
        ctl.put_done.ok = pml_btl_put(p, &iov, 1, h->addr, h->key, h->len) == COMPI_OK;
    }
    if (!ctl.put_done.ok) {
        compi_log_verbose(pml_state.verbose, 1,
                          "pml: put of %" PRIu64 " bytes to rank %d failed; the receiver "
                          "reads them",
                          h->len, r->world_peer);
    }
    pml_ctl_send(r->world_peer, &ctl, sizeof(ctl.put_done));
}
