/*
 * btl_ofi.c -- libfabric BTL: business cards, endpoints, the hot path and tear-down.
 *
 * Order: we post the sends of a pair in commit order (through the endpoint's backlog when
 * the provider says -FI_EAGAIN) and libfabric matches them to our receive buffers in that
 * order (FI_ORDER_SAS), but their completions may come out of order (see btl_ofi.h): the
 * receiver delivers by sequence number, holding back what completed early.
 *
 * Flow control is the provider's: rxm keeps what arrives before we have a receive posted,
 * and a full send queue answers -FI_EAGAIN (the backlog holds our fragment, and the PML
 * holds what did not get a buffer from reserve()).
 */
#include "core/btl/ofi/btl_ofi.h"

#include "core/include/compi_common.h"

#include <rdma/fi_cm.h>
#include <inttypes.h>
#include <rdma/fi_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define OFI_BATCH 16     /* completions read per fi_cq_read */
#define OFI_DRAIN_SECS 2 /* finalize: how long sends in flight may take to complete */

btl_ofi_state_t btl_ofi_state;

static size_t rx_len(void)
{
    return btl_ofi_state.stride - ((sizeof(ofi_buf_t) + 15) & ~(size_t)15);
}

static void tx_release(ofi_buf_t *b)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    b->next = st->tx_free;
    st->tx_free = b;
    st->tx_out--;
}

/* post one committed send; 0, -FI_EAGAIN (try later) or another error */
static inline int post_send(ofi_buf_t *b)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    ssize_t rc;

    if (b->len <= st->inject_size) {
        rc = fi_inject(st->ep, ofi_buf_wire(b), b->len, b->ep->addr);
        if (rc == 0)
            tx_release(b); /* the provider copied it: no completion will come */
        return (int)rc;
    }
    rc = fi_send(st->ep, ofi_buf_wire(b), b->len, st->tx_desc, b->ep->addr, &b->ctx);
    return (int)rc;
}

static void backlog_add(btl_endpoint_t *ep, ofi_buf_t *b)
{
    btl_ofi_state_t *st = &btl_ofi_state;

    b->next = NULL;
    if (ep->bl_tail != NULL)
        ep->bl_tail->next = b;
    else
        ep->bl_head = b;
    ep->bl_tail = b;
    if (!ep->on_bl_list) {
        ep->on_bl_list = 1;
        ep->bl_next = st->bl_list;
        st->bl_list = ep;
    }
}

static void send_failed(ofi_buf_t *b, int rc)
{
    btl_ofi_state.svc->log_error("btl ofi: sending %zu bytes to rank %d: %s", b->len,
                                 b->ep->world_rank, btl_ofi_lib.strerror(-rc));
    tx_release(b);
}

/* post what waits on the endpoints' backlogs, in order; how many went out */
static int backlog_flush(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    btl_endpoint_t **pp = &st->bl_list;
    int n = 0;

    while (*pp != NULL) {
        btl_endpoint_t *ep = *pp;
        while (ep->bl_head != NULL) {
            ofi_buf_t *b = ep->bl_head;
            ofi_buf_t *next = b->next;
            int rc = post_send(b);
            if (rc == -FI_EAGAIN)
                break;
            ep->bl_head = next;
            if (next == NULL)
                ep->bl_tail = NULL;
            if (rc != 0)
                send_failed(b, rc);
            n++;
        }
        if (ep->bl_head == NULL) {
            ep->on_bl_list = 0;
            *pp = ep->bl_next;
        } else {
            pp = &ep->bl_next;
        }
    }
    return n;
}

/* ---- hot path ---------------------------------------------------------------------- */

static void *btl_ofi_reserve(btl_endpoint_t *ep, size_t len)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    ofi_buf_t *b = ep->reserved;

    if (compi_unlikely(len > btl_ofi_module.max_frag))
        return NULL;
    if (b == NULL) {
        b = st->tx_free;
        if (compi_unlikely(b == NULL))
            return NULL; /* all in flight: the PML progresses (completions free some) */
        st->tx_free = b->next;
        st->tx_out++;
        b->ep = ep;
        ep->reserved = b;
    }
    return ofi_buf_frag(b);
}

static compi_status_t btl_ofi_commit(btl_endpoint_t *ep, void *frag, size_t len)
{
    ofi_buf_t *b = ep->reserved;

    if (compi_unlikely(b == NULL || frag != ofi_buf_frag(b)))
        return COMPI_ERR_INVALID_PARAM;
    ep->reserved = NULL;
    ofi_wire_hdr_t *h = ofi_buf_wire(b);
    h->seq = ep->tx_seq++;
    if (compi_likely(ep->world_rank < btl_ofi_state.svc->world_size)) {
        h->src = (uint32_t)btl_ofi_state.svc->world_rank;
        h->magic = OFI_WIRE_MAGIC;
    } else {
        h->src = (uint32_t)btl_ofi_state.id;
        h->id_hi = (uint32_t)(btl_ofi_state.id >> 32);
        h->magic = OFI_WIRE_MAGIC_OTHER;
    }
    b->len = sizeof(*h) + len;
    if (compi_likely(ep->bl_head == NULL)) {
        int rc = post_send(b);
        if (compi_likely(rc == 0))
            return COMPI_OK;
        if (rc != -FI_EAGAIN) {
            send_failed(b, rc);
            return COMPI_ERR_IO;
        }
    }
    /* behind what already waits, to keep the pair's order; progress() posts it */
    backlog_add(ep, b);
    return COMPI_OK;
}

static void rx_post(ofi_buf_t *b)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    ssize_t rc = fi_recv(st->ep, ofi_buf_wire(b), rx_len(), st->rx_desc, FI_ADDR_UNSPEC, &b->ctx);
    if (compi_unlikely(rc != 0)) {
        if (rc != -FI_EAGAIN)
            st->svc->log_error("btl ofi: posting a receive buffer: %s",
                               btl_ofi_lib.strerror((int)-rc));
        b->next = st->rx_repost; /* try again at the next progress() */
        st->rx_repost = b;
    }
}

static void rx_deliver(btl_endpoint_t *ep, ofi_buf_t *b)
{
    const ofi_wire_hdr_t *h = ofi_buf_wire(b);

    ep->rx_seq++;
    btl_ofi_state.svc->recv_cb(ep->world_rank, h + 1, b->len - sizeof(*h));
    rx_post(b);
}

/* hold `b` back until the fragments before it have completed */
static void rx_hold(btl_endpoint_t *ep, ofi_buf_t *b, uint32_t seq)
{
    ofi_buf_t **pp = &ep->early;

    b->seq = seq;
    while (*pp != NULL && (int32_t)((*pp)->seq - seq) < 0)
        pp = &(*pp)->next;
    b->next = *pp;
    *pp = b;
}

/* the endpoint of the process of another world whose id is `id`; NULL: not met yet */
static btl_endpoint_t *dyn_find(uint64_t id)
{
    btl_ofi_state_t *st = &btl_ofi_state;

    for (int i = 0; i < st->n_dyn; i++) {
        if (st->dyn[i] != NULL && st->dyn[i]->id == id)
            return st->dyn[i];
    }
    return NULL;
}

static uint64_t wire_id(const ofi_wire_hdr_t *h)
{
    return (uint64_t)h->id_hi << 32 | h->src;
}

/* deliver what `ep` holds back from its next sequence number on; how many */
static int rx_drain_early(btl_endpoint_t *ep)
{
    int n = 0;

    while (ep->early != NULL && ep->early->seq == ep->rx_seq) {
        ofi_buf_t *e = ep->early;
        ep->early = e->next;
        rx_deliver(ep, e);
        n++;
    }
    return n;
}

/* `b` came from the peer of `ep`: deliver it if it is the pair's next, then those it held
   up; how many were delivered */
static int rx_take(btl_endpoint_t *ep, ofi_buf_t *b)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    const ofi_wire_hdr_t *h = ofi_buf_wire(b);

    if (compi_unlikely(h->seq != ep->rx_seq)) {
        if ((int32_t)(h->seq - ep->rx_seq) < 0) {
            /* a fragment twice: going on would hand the PML a wrong stream */
            st->svc->log_error("btl ofi: fragment %u from peer %d arrived again (expecting %u) "
                               "over provider %s",
                               h->seq, ep->world_rank, ep->rx_seq,
                               st->info->fabric_attr->prov_name);
            abort();
        }
        rx_hold(ep, b, h->seq);
        return 0;
    }
    rx_deliver(ep, b);
    return 1 + rx_drain_early(ep);
}

/* a receive completed: deliver it if it is the pair's next, then those it held up */
static int rx_arrived(ofi_buf_t *b, size_t len)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    const ofi_wire_hdr_t *h = ofi_buf_wire(b);
    btl_endpoint_t *ep;

    b->len = len;
    if (compi_likely(len >= sizeof(*h) && h->magic == OFI_WIRE_MAGIC &&
                     h->src < (uint32_t)st->svc->world_size)) {
        ep = &st->eps[h->src];
    } else if (len >= sizeof(*h) && h->magic == OFI_WIRE_MAGIC_OTHER && st->dynamic) {
        ep = dyn_find(wire_id(h));
        if (ep == NULL) {
            /* its add_procs ran before ours: kept until ours makes the endpoint */
            ofi_buf_t **pp = &st->unclaimed;
            while (*pp != NULL)
                pp = &(*pp)->next;
            b->next = NULL;
            *pp = b;
            return 0;
        }
    } else {
        st->svc->log_error("btl ofi: dropped a message of %zu bytes that is not ours (magic "
                           "0x%x, source %u)",
                           len, len >= sizeof(*h) ? h->magic : 0, len >= sizeof(*h) ? h->src : 0);
        rx_post(b);
        return 0;
    }
    return rx_take(ep, b);
}

/* the error behind -FI_EAVAIL: a failed send or receive */
static void cq_error(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    struct fi_cq_err_entry e;

    memset(&e, 0, sizeof(e));
    if (fi_cq_readerr(st->cq, &e, 0) != 1)
        return;
    ofi_buf_t *b = e.op_context;
    if (e.err == FI_ECANCELED)
        return; /* a receive cancelled while closing */
    st->svc->log_error("btl ofi: %s failed: %s (%s)",
                       b != NULL && b->is_rx ? "a receive" : "a send", btl_ofi_lib.strerror(e.err),
                       fi_cq_strerror(st->cq, e.prov_errno, e.err_data, NULL, 0));
    if (b == NULL)
        return;
    if (b->is_rx)
        rx_post(b);
    else
        tx_release(b);
}

static int handle(const struct fi_cq_msg_entry *ents, int n)
{
    int done = 0;

    for (int i = 0; i < n; i++) {
        ofi_buf_t *b = ents[i].op_context;
        if (b->is_rx) {
            done += rx_arrived(b, ents[i].len);
        } else {
            tx_release(b);
        }
    }
    return done;
}

/* read completions once; fragments delivered, or a negative libfabric error */
static int cq_poll(void)
{
    struct fi_cq_msg_entry ents[OFI_BATCH];
    ssize_t n = fi_cq_read(btl_ofi_state.cq, ents, OFI_BATCH);

    if (n > 0)
        return handle(ents, (int)n);
    if (n == -FI_EAVAIL)
        cq_error();
    return 0;
}

static int repost_waiting(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    ofi_buf_t *b = st->rx_repost;

    st->rx_repost = NULL;
    while (b != NULL) {
        ofi_buf_t *next = b->next;
        rx_post(b);
        b = next;
    }
    return 0;
}

/* deliver what add_procs took off the unclaimed list for the endpoints it made */
static int claimed_deliver(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    int n = 0;

    st->claimed = 0;
    for (int i = 0; i < st->n_dyn; i++) {
        if (st->dyn[i] != NULL)
            n += rx_drain_early(st->dyn[i]);
    }
    return n;
}

static int btl_ofi_progress(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    int n = 0;

    if (compi_unlikely(st->bl_list != NULL))
        n += backlog_flush();
    if (compi_unlikely(st->rx_repost != NULL))
        repost_waiting();
    if (compi_unlikely(st->claimed))
        n += claimed_deliver();
    n += cq_poll();
    return n;
}

/* progress, or sleep in the completion queue until something completes */
static int btl_ofi_wait(int timeout_ms)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    struct fi_cq_msg_entry ents[OFI_BATCH];
    int n = btl_ofi_progress();

    if (compi_unlikely(!st->can_wait))
        return n > 0 ? n : COMPI_ERR_UNSUPPORTED;
    if (n > 0 || st->bl_list != NULL || st->rx_repost != NULL || st->claimed)
        return n;
    ssize_t got = fi_cq_sread(st->cq, ents, OFI_BATCH, NULL, timeout_ms);
    if (got > 0)
        return handle(ents, (int)got);
    if (got == -FI_EAVAIL)
        cq_error();
    else if (got != -FI_EAGAIN && got != -FI_ETIMEDOUT && got != -FI_EINTR) {
        /* the provider cannot sleep after all: say so once, and poll from now on */
        st->svc->log_verbose(1, "btl ofi: fi_cq_sread: %s; not sleeping in the CQ",
                             btl_ofi_lib.strerror((int)-got));
        st->can_wait = 0;
        return COMPI_ERR_UNSUPPORTED;
    }
    return 0;
}

/* ---- setup ------------------------------------------------------------------------- */

static compi_status_t btl_ofi_publish(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    static const char hex[] = "0123456789abcdef";
    char val[2 * OFI_NAME_MAX + 96];

    /* "<largest fragment>:<provider>:<process id>:<endpoint name in hex>": a peer with
       larger fragments than our receive buffers, or another provider, could not talk to
       us; one of another world knows our fragments by the id */
    int w = snprintf(val, sizeof(val), "%zu:%.64s:%016" PRIx64 ":", btl_ofi_module.max_frag,
                     st->info->fabric_attr->prov_name, st->id);
    for (size_t i = 0; i < st->name_len; i++) {
        val[w + 2 * i] = hex[(unsigned char)st->name[i] >> 4];
        val[w + 2 * i + 1] = hex[(unsigned char)st->name[i] & 15];
    }
    val[w + 2 * st->name_len] = '\0';
    compi_status_t rc = st->svc->modex_put(OFI_MODEX_KEY, val);
    if (rc != COMPI_OK)
        st->svc->log_error("btl ofi: publishing the endpoint name failed (%d)", rc);
    return rc;
}

static int unhex(const char *s, char *out, size_t max)
{
    size_t n = 0;

    for (; s[0] != '\0' && s[1] != '\0'; s += 2) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char c = s[k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0)
                return -1;
            v = v * 16 + d;
        }
        if (n == max)
            return -1;
        out[n++] = (char)v;
    }
    return s[0] == '\0' ? (int)n : -1;
}

/* peer r's card: its endpoint's address in our AV (ep->addr) and its id (ep->id) */
static compi_status_t connect_peer(int r, btl_endpoint_t *ep)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    const btl_services_t *svc = st->svc;
    char val[2 * OFI_NAME_MAX + 96], name[OFI_NAME_MAX];
    size_t max_frag = 0;
    uint64_t id = 0;
    int off = 0;

    compi_status_t rc = svc->modex_get(r, OFI_MODEX_KEY, val, sizeof(val));
    if (rc != COMPI_OK) {
        if (r >= svc->world_size) {
            /* another world: its job has no ofi open (one host, its ports met no job on
               another host) */
            svc->log_verbose(1,
                             "btl ofi: process %d of another world published no libfabric "
                             "address (btl ofi not open there)",
                             r);
            return COMPI_ERR_NOT_FOUND;
        }
        /* its ofi declined (every rank it has is on its host) or failed */
        svc->log_error("btl ofi: rank %d published no libfabric address (btl ofi not open "
                       "there?)",
                       r);
        return COMPI_ERR_UNREACHABLE;
    }
    char prov[65];
    if (sscanf(val, "%zu:%64[^:]:%" SCNx64 ":%n", &max_frag, prov, &id, &off) != 3 || off == 0) {
        svc->log_error("btl ofi: bad business card from rank %d: '%s'", r, val);
        return COMPI_ERR_UNREACHABLE;
    }
    if (strcmp(prov, st->info->fabric_attr->prov_name) != 0) {
        svc->log_error("btl ofi: rank %d uses provider %s, this rank %s: set btl_ofi_provider "
                       "(or btl_ofi_iface) so that every rank picks the same",
                       r, prov, st->info->fabric_attr->prov_name);
        return COMPI_ERR_UNREACHABLE;
    }
    if (max_frag != btl_ofi_module.max_frag) {
        svc->log_error("btl ofi: rank %d sends fragments of up to %zu bytes, this rank %zu: "
                       "set btl_ofi_max_frag alike on every rank",
                       r, max_frag, btl_ofi_module.max_frag);
        return COMPI_ERR_UNREACHABLE;
    }
    int len = unhex(val + off, name, sizeof(name));
    if (len <= 0 || (size_t)len != st->name_len) {
        svc->log_error("btl ofi: rank %d's address '%s' is not one of provider %s (%zu bytes): "
                       "the same btl_ofi_provider on every rank?",
                       r, val + off, st->info->fabric_attr->prov_name, st->name_len);
        return COMPI_ERR_UNREACHABLE;
    }
    if (r >= svc->world_size && (id == st->id || dyn_find(id) != NULL)) {
        svc->log_error("btl ofi: process %d of another world has the id %016" PRIx64
                       " of a process met before",
                       r, id);
        return COMPI_ERR_UNREACHABLE;
    }
    int n = fi_av_insert(st->av, name, 1, &ep->addr, 0, NULL);
    if (n != 1) {
        svc->log_error("btl ofi: fi_av_insert of rank %d: %s", r,
                       n < 0 ? btl_ofi_lib.strerror(-n) : "address refused");
        ep->addr = FI_ADDR_NOTAVAIL;
        return COMPI_ERR_UNREACHABLE;
    }
    ep->id = id;
    return COMPI_OK;
}

/* the endpoint of peer r of another world (r >= world_size), made at the first call:
 *ep_p NULL when its job has no ofi */
static compi_status_t connect_dyn(int r, btl_endpoint_t **ep_p)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    int k = r - st->svc->world_size;

    *ep_p = NULL;
    if (k < st->n_dyn && st->dyn[k] != NULL) {
        *ep_p = st->dyn[k];
        return COMPI_OK;
    }
    if (k >= st->n_dyn) {
        btl_endpoint_t **d = realloc(st->dyn, (size_t)(k + 1) * sizeof(*d));
        if (d == NULL)
            return COMPI_ERR_NO_MEMORY;
        memset(d + st->n_dyn, 0, (size_t)(k + 1 - st->n_dyn) * sizeof(*d));
        st->dyn = d;
        st->n_dyn = k + 1;
    }
    btl_endpoint_t *ep = calloc(1, sizeof(*ep));
    if (ep == NULL)
        return COMPI_ERR_NO_MEMORY;
    ep->addr = FI_ADDR_NOTAVAIL;
    ep->world_rank = r;
    compi_status_t rc = connect_peer(r, ep);
    if (rc != COMPI_OK) {
        free(ep);
        return rc == COMPI_ERR_NOT_FOUND ? COMPI_OK : rc;
    }
    st->dyn[k] = ep;
    /* what it sent before we knew it, in sequence order, for the next progress() */
    int early = 0;
    for (ofi_buf_t **pp = &st->unclaimed; *pp != NULL;) {
        ofi_buf_t *b = *pp;
        if (wire_id(ofi_buf_wire(b)) == ep->id) {
            *pp = b->next;
            rx_hold(ep, b, ofi_buf_wire(b)->seq);
            early++;
        } else {
            pp = &b->next;
        }
    }
    if (early > 0) {
        st->claimed = 1;
        st->svc->log_verbose(2,
                             "btl ofi: %d fragments from process %d of another world came "
                             "before its endpoint",
                             early, r);
    }
    *ep_p = ep;
    return COMPI_OK;
}

static compi_status_t btl_ofi_add_procs(int n, const int *world_ranks, btl_endpoint_t **eps)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    const btl_services_t *svc = st->svc;
    int served = 0;

    for (int i = 0; i < n; i++) {
        int r = world_ranks[i];
        eps[i] = NULL;
        if (r < 0 || r == svc->world_rank || (r >= svc->world_size && !st->dynamic))
            continue;
        if (svc->rank_is_local(r) && !st->serve_local)
            continue; /* sm's */
        compi_status_t rc;
        if (r >= svc->world_size) {
            rc = connect_dyn(r, &eps[i]);
        } else {
            eps[i] = &st->eps[r];
            rc = eps[i]->addr != FI_ADDR_NOTAVAIL ? COMPI_OK : connect_peer(r, eps[i]);
            if (rc != COMPI_OK)
                eps[i] = NULL;
        }
        if (rc != COMPI_OK)
            return rc;
        served += eps[i] != NULL;
    }
    svc->log_verbose(1, "btl ofi: reaches %d of %d peers through %s", served, n,
                     st->info->fabric_attr->prov_name);
    return COMPI_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static compi_status_t btl_ofi_finalize(void)
{
    btl_ofi_state_t *st = &btl_ofi_state;

    if (st->svc == NULL)
        return COMPI_OK;
    /* the job has synchronised: what we still have in flight was received; let the
       provider finish with it (bounded: a peer that died does not hold us) */
    for (int i = 0; st->eps != NULL && i < st->svc->world_size; i++) {
        if (st->eps[i].reserved != NULL) {
            tx_release(st->eps[i].reserved);
            st->eps[i].reserved = NULL;
        }
    }
    for (int i = 0; i < st->n_dyn; i++) {
        if (st->dyn[i] != NULL && st->dyn[i]->reserved != NULL) {
            tx_release(st->dyn[i]->reserved);
            st->dyn[i]->reserved = NULL;
        }
    }
    double until = now_s() + OFI_DRAIN_SECS;
    while ((st->tx_out > 0 || st->bl_list != NULL) && now_s() < until) {
        if (st->bl_list != NULL)
            backlog_flush();
        cq_poll();
    }
    if (st->tx_out > 0)
        st->svc->log_verbose(1, "btl ofi: %d sends still in flight at finalize", st->tx_out);
    btl_ofi_close_objects(st);
    if (st->info != NULL)
        btl_ofi_lib.freeinfo(st->info);
    free(st->eps);
    for (int i = 0; i < st->n_dyn; i++)
        free(st->dyn[i]);
    free(st->dyn);
    memset(st, 0, sizeof(*st));
    return COMPI_OK;
}

/* a process id for other worlds' peers (ofi_wire_hdr_t): random, else of pid and time */
static uint64_t make_id(void)
{
    uint64_t id = 0;

    if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != (ssize_t)sizeof(id)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        id = (uint64_t)getpid() << 40 ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)ts.tv_nsec;
    }
    return id;
}

compi_status_t btl_ofi_init(const btl_services_t *svc, const ofi_config_t *cfg, size_t eager_limit,
                            int serve_local, int dynamic)
{
    btl_ofi_state_t *st = &btl_ofi_state;
    compi_status_t rc;

    if (st->svc != NULL)
        btl_ofi_finalize();
    st->svc = svc;
    st->serve_local = serve_local;
    st->dynamic = dynamic;
    st->id = make_id();
    double t0 = now_s();
    rc = btl_ofi_lib_load(svc);
    if (rc != COMPI_OK)
        goto err;
    double t1 = now_s();
    rc = btl_ofi_pick(svc, cfg, &st->info);
    if (rc != COMPI_OK)
        goto err;
    double t2 = now_s();
    st->eps = calloc((size_t)svc->world_size, sizeof(*st->eps));
    if (st->eps == NULL) {
        svc->log_error("btl ofi: out of memory for %d endpoints", svc->world_size);
        rc = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    for (int i = 0; i < svc->world_size; i++) {
        st->eps[i].addr = FI_ADDR_NOTAVAIL;
        st->eps[i].world_rank = i;
    }
    rc = btl_ofi_open_objects(st, cfg);
    if (rc != COMPI_OK)
        goto err;
    /* libfabric's own start-up is most of a job's MPI_Init: say where it goes */
    svc->log_verbose(2, "btl ofi: loading libfabric %.1f ms, fi_getinfo %.1f ms, opening %.1f ms",
                     1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (now_s() - t2));

    btl_ofi_module.eager_limit = eager_limit;
    btl_ofi_module.max_frag = cfg->max_frag;
    btl_ofi_module.wait = st->can_wait ? btl_ofi_wait : NULL;
    svc->log_verbose(1,
                     "btl ofi: provider %s, fabric %s, domain %s, eager %zu, frag %zu, %d+%d "
                     "buffers, inject %zu, %s%s%s",
                     st->info->fabric_attr->prov_name, st->info->fabric_attr->name,
                     st->info->domain_attr->name, eager_limit, cfg->max_frag, st->n_tx, st->n_rx,
                     st->inject_size, st->can_wait ? "can sleep in the CQ" : "polls only",
                     serve_local ? ", serves local peers too" : "",
                     dynamic ? ", serves other worlds" : "");
    return COMPI_OK;

err:
    if (st->info != NULL)
        btl_ofi_lib.freeinfo(st->info);
    free(st->eps);
    memset(st, 0, sizeof(*st));
    return rc;
}

btl_module_t btl_ofi_module = {
    .size = sizeof(btl_module_t),
    .name = "ofi",
    .flags = 0,        /* large messages: the PML's fragment pipeline */
    .exclusivity = 50, /* below sm (100) and self (1000) */
    .publish = btl_ofi_publish,
    .add_procs = btl_ofi_add_procs,
    .reserve = btl_ofi_reserve,
    .commit = btl_ofi_commit,
    .progress = btl_ofi_progress,
    .get = NULL,
    .register_mem = NULL,
    .deregister_mem = NULL,
    .finalize = btl_ofi_finalize,
    .progress_work = NULL,
    .put = NULL,
    .wait = btl_ofi_wait,
};
