/*
 * pml.c -- PML set-up and tear-down, the services given to the BTLs, endpoint
 * selection, progress, and the queues of work that waits for room in a BTL.
 *
 * Nothing here blocks forever inside a nonblocking call: when btl->reserve() has no room,
 * sends wait on their peer's pending list (later sends to that peer queue behind them, so
 * order holds) and ACK/FIN wait on the control queue; pml_progress() retries both.
 */
#include "core/pml/pml_internal.h"

#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/rte.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pml_state_t pml_state;

/* a control message waiting for room */
typedef struct pml_ctl {
    struct pml_ctl *next;
    int world_peer;
    size_t len;
    pml_hdr_ctl_t hdr;
} pml_ctl_t;

static pml_ctl_t *ctl_head, *ctl_tail, *ctl_free;
static int btl_verbose;
static unsigned idle_polls;

/* ---- services for the BTLs ---------------------------------------------------------- */

static void svc_log_verbose(int level, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    compi_log_verbose(btl_verbose, level, "%s", msg);
}

static btl_services_t services;

/* what a pml_progress_wait_for() waits for, besides fragments (NULL: nothing) */
static const uint64_t *wait_flag;
static uint64_t wait_seq;

/* MPI_THREAD_MULTIPLE: whether another thread waits for the API's lock (which the
   sleeper holds), or NULL */
static int (*thread_waiting)(void);

static int svc_wait_ready(void)
{
    return (wait_flag != NULL && __atomic_load_n(wait_flag, __ATOMIC_ACQUIRE) >= wait_seq) ||
           (thread_waiting != NULL && thread_waiting());
}

static void fill_services(void)
{
    services = (btl_services_t){
        .size = sizeof(btl_services_t),
        .world_rank = rte_proc.world_rank,
        .world_size = rte_proc.world_size,
        .local_rank = rte_proc.local_rank,
        .local_size = rte_proc.local_size,
        .oversubscribed = rte_proc.oversubscribed,
        .pid = rte_proc.pid,
        .hostname = rte_proc.hostname,
        .jobid = rte_proc.jobid,
        .recv_cb = pml_recv_cb,
        .modex_put = rte_modex_put,
        .modex_get = rte_modex_get,
        .rank_is_local = rte_world_rank_is_local,
        .param_int = param_register_int,
        .param_string = param_register_string,
        .log_error = compi_log_error,
        .log_verbose = svc_log_verbose,
        .universe = rte_dynamic() ? rte_proc.universe : NULL,
        .param_int_range = param_register_int_range,
        .wait_ready = svc_wait_ready,
    };
}

/* ---- a module opened after MPI_Init --------------------------------------------------- */

/* its services: what it reports with log_error while it opens goes to late_why */
static btl_services_t late_services;
static char *late_why;
static size_t late_why_len;

static void svc_late_log_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (late_why == NULL) {
        compi_log_error("%s", msg);
        return;
    }
    if (late_why[0] == '\0') {
        snprintf(late_why, late_why_len, "%s", msg);
    }
    compi_log_verbose(btl_verbose, 1, "%s", msg);
}

static void choose_block_btl(void);

compi_status_t pml_open_btl_late(const char *name, char *why, size_t len)
{
    int n = pml_state.nmodules;
    compi_status_t st;

    why[0] = '\0';
    for (int m = 0; m < n; m++) {
        if (strcmp(pml_state.modules[m]->name, name) == 0) {
            return COMPI_OK;
        }
    }
    if (n == PML_MAX_MODULES) {
        snprintf(why, len, "%d transports are open already, at most %d are supported", n,
                 PML_MAX_MODULES);
        return COMPI_ERR_NO_RESOURCE;
    }
    late_services = services;
    late_services.late_open = 1;
    late_services.log_error = svc_late_log_error;
    late_why = why;
    late_why_len = len;
    st = btl_base_open_late(name, &late_services, &n, why, len);
    late_why = NULL;
    if (st != COMPI_OK) {
        return st;
    }
    btl_module_t *btl = pml_state.modules[n - 1];
    pml_state.progress_work[n - 1] =
        btl->size >= offsetof(btl_module_t, progress_work) + sizeof(btl->progress_work)
            ? btl->progress_work
            : NULL;
    /* in the list from now on: pml_finalize finalizes it whatever happens next */
    pml_state.nmodules = n;
    choose_block_btl();
    st = btl->publish();
    if (st != COMPI_OK) {
        snprintf(why, len, "btl %s: publishing its address failed: %s", name,
                 compi_status_string(st));
        return st;
    }
    compi_log_verbose(pml_state.verbose, 1, "pml: btl %s opened for peers of other worlds", name);
    return COMPI_OK;
}

/* ---- init / finalize ---------------------------------------------------------------- */

/* endpoints for the peers ranks[0..n) (indices into pml_state.peers), the best BTL each */
static compi_status_t connect_peers(int n, const int *ranks)
{
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    btl_endpoint_t **eps = malloc(sizeof(*eps) * (size_t)(n > 0 ? n : 1));
    if (eps == NULL) {
        goto err;
    }
    for (int m = 0; m < pml_state.nmodules; m++) {
        btl_module_t *btl = pml_state.modules[m];
        memset(eps, 0, sizeof(*eps) * (size_t)n);
        st = btl->add_procs(n, ranks, eps);
        if (st != COMPI_OK) {
            compi_log_error("pml: btl %s: add_procs failed: %s", btl->name,
                            compi_status_string(st));
            goto err;
        }
        for (int i = 0; i < n; i++) {
            pml_peer_t *p = &pml_state.peers[ranks[i]];
            if (eps[i] != NULL && (p->btl == NULL || btl->exclusivity > p->btl->exclusivity)) {
                p->btl = btl;
                p->ep = eps[i];
            }
        }
    }
    for (int i = 0; i < n; i++) {
        pml_peer_t *p = &pml_state.peers[ranks[i]];
        p->world_rank = ranks[i];
        if (p->btl == NULL) {
            char tried[256] = "";
            for (int m = 0; m < pml_state.nmodules; m++) {
                size_t used = strlen(tried);
                snprintf(tried + used, sizeof(tried) - used, "%s%s", m ? "," : "",
                         pml_state.modules[m]->name);
            }
            if (ranks[i] < rte_proc.world_size) {
                compi_log_error("pml: no transport reaches rank %d (btls tried: %s)", ranks[i],
                                tried[0] ? tried : "none");
            } else {
                compi_log_error("pml: no transport reaches process %d of another world (btls "
                                "tried: %s; sm reaches one on this host, ofi one on another "
                                "host, its job's ofi open too)",
                                rte_peer_gid(ranks[i]), tried[0] ? tried : "none");
            }
            st = COMPI_ERR_UNREACHABLE;
            goto err;
        }
        p->eager_max = p->btl->eager_limit > sizeof(pml_hdr_match_t)
                           ? p->btl->eager_limit - sizeof(pml_hdr_match_t)
                           : 0;
        p->frag_max = p->btl->max_frag - sizeof(pml_hdr_frag_t);
        compi_log_verbose(pml_state.verbose, 1, "pml: peer %d via %s (eager %zu, frag %zu)",
                          ranks[i], p->btl->name, p->eager_max, p->frag_max);
    }
    st = COMPI_OK;
err:
    free(eps);
    return st;
}

compi_status_t pml_add_peers(int n, const int *peers)
{
    int total = rte_peer_count(), old = pml_state.npeers, nnew = 0;
    compi_status_t st;

    if (total > old) {
        /* the array moves: the list of peers with pending sends points into it */
        pml_peer_t *base = pml_state.peers;
        pml_peer_t *grown = calloc((size_t)total, sizeof(pml_peer_t));
        if (grown == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        memcpy(grown, base, (size_t)old * sizeof(pml_peer_t));
        for (pml_peer_t **pp = &pml_state.pend_peers; *pp != NULL; pp = &(*pp)->pend_next) {
            *pp = grown + (*pp - base);
        }
        free(base);
        pml_state.peers = grown;
        pml_state.npeers = total;
    }
    int *fresh = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (fresh == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < nnew; j++) {
            dup |= fresh[j] == peers[i];
        }
        if (!dup && peers[i] >= 0 && peers[i] < total && pml_state.peers[peers[i]].btl == NULL) {
            fresh[nnew++] = peers[i];
        }
    }
    st = nnew > 0 ? connect_peers(nnew, fresh) : COMPI_OK;
    free(fresh);
    return st;
}

/*
 * Where an idle, oversubscribed rank may sleep: in the first module with a wait() (sm, on
 * its doorbell; ofi, in its completion queue), provided every other module can say it has
 * nothing to do (progress_work: self).  Any other module must be polled, as the sleeper
 * would not wake for it (sm and ofi both open, between hosts): everyone stays on
 * sched_yield().
 */
static void choose_block_btl(void)
{
    btl_module_t *sleeper = NULL;

    pml_state.block_btl = NULL;
    if (!pml_state.oversubscribed || pml_state.block_after == 0) {
        return;
    }
    for (int m = 0; m < pml_state.nmodules; m++) {
        btl_module_t *btl = pml_state.modules[m];
        if (sleeper == NULL && pml_btl_wait(btl) != NULL) {
            sleeper = btl;
        } else if (pml_state.progress_work[m] == NULL) {
            compi_log_verbose(pml_state.verbose, 1,
                              "pml: btl %s must be polled: idle ranks yield instead of sleeping",
                              btl->name);
            return;
        }
    }
    pml_state.block_btl = sleeper;
    if (sleeper != NULL) {
        compi_log_verbose(pml_state.verbose, 1,
                          "pml: oversubscribed: idle ranks sleep in btl %s after %u polls "
                          "(at most %d ms at a time)",
                          sleeper->name, pml_state.block_after, pml_state.block_ms);
    }
}

compi_status_t pml_init(void)
{
    compi_status_t st;

    pml_state.verbose = (int)param_register_int("pml_verbose", 0, "PML verbosity (0: quiet)");
    btl_verbose = (int)param_register_int("btl_verbose", 0, "BTL verbosity (0: quiet)");
    /* With more ranks than cores the two halves of a split copy do not run at the same
       time, and the receiver would wait for the sender to be scheduled: off by default. */
    long split_min = param_register_int_range(
        "pml_split_min", rte_proc.oversubscribed ? 0 : PML_SPLIT_MIN_DEFAULT, 0, 1L << 40,
        "rendezvous messages from this many bytes are copied by both ranks at once (the "
        "receiver reads one part, the sender writes the other) when the BTL has get and put "
        "and the receive buffer is contiguous, and the receiver's own large send to that peer "
        "is not waiting for an answer (an exchange); the receive then also waits for the "
        "sender's library to run.  0: never (the default when the host is oversubscribed)");
    long split_pct = param_register_int_range("pml_split_get_pct", PML_SPLIT_GET_PCT_DEFAULT, 1,
                                              99,
                                              "percentage of a split message the receiver "
                                              "reads itself (the sender writes the rest)");
    pml_state.split_min = split_min > 0 ? (size_t)split_min : 0;
    pml_state.split_get_pct = (int)split_pct;
    long block_after = param_register_int_range(
        "pml_block_after", 16, 0, 1L << 30,
        "on an oversubscribed host, idle polls after which a waiting rank sleeps in the "
        "transport (btl sm: on its doorbell; btl ofi: in its completion queue) instead of "
        "yielding, when no other transport needs polling; 0: never sleep");
    long block_ms = param_register_int_range(
        "pml_block_ms", 1, 1, 1000,
        "longest such sleep in milliseconds: the sleeper wakes at once when a message "
        "arrives, so this only bounds a wait for what arrives otherwise (the other "
        "transports are polled in between)");
    pml_state.block_after = block_after > 0 ? (unsigned)block_after : 0;
    pml_state.block_ms = (int)block_ms;
    pml_state.oversubscribed = rte_proc.oversubscribed;
    pml_state.world_size = rte_proc.world_size;
    pml_state.npeers = rte_proc.world_size;
    pml_state.peers = calloc((size_t)pml_state.world_size, sizeof(pml_peer_t));
    int *all = malloc(sizeof(int) * (size_t)pml_state.world_size);
    if (pml_state.peers == NULL || all == NULL || pml_unexp_prefill() != COMPI_OK) {
        free(all);
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < pml_state.world_size; i++) {
        all[i] = i;
    }
    fill_services();
    st = btl_base_open(&services, &pml_state.modules, &pml_state.nmodules);
    if (st != COMPI_OK) {
        compi_log_error("pml: opening the BTLs failed: %s", compi_status_string(st));
        goto err;
    }
    if (pml_state.nmodules > PML_MAX_MODULES) {
        compi_log_error("pml: %d transports opened, at most %d are supported",
                        pml_state.nmodules, PML_MAX_MODULES);
        st = COMPI_ERR_UNSUPPORTED;
        goto err;
    }
    for (int m = 0; m < pml_state.nmodules; m++) {
        const btl_module_t *btl = pml_state.modules[m];
        /* modules older than the progress_work field do not have it */
        pml_state.progress_work[m] =
            btl->size >= offsetof(btl_module_t, progress_work) + sizeof(btl->progress_work)
                ? btl->progress_work
                : NULL;
    }
    choose_block_btl();
    for (int m = 0; m < pml_state.nmodules; m++) {
        st = pml_state.modules[m]->publish();
        if (st != COMPI_OK) {
            compi_log_error("pml: btl %s: publish failed: %s", pml_state.modules[m]->name,
                            compi_status_string(st));
            goto err;
        }
    }
    st = rte_fence();
    if (st != COMPI_OK) {
        goto err;
    }
    st = connect_peers(pml_state.world_size, all);
    if (st != COMPI_OK) {
        goto err;
    }
    free(all);
    return COMPI_OK;
err:
    free(all);
    free(pml_state.peers);
    pml_state.peers = NULL;
    return st;
}

static void drop_comm(pml_comm_t *pc)
{
    while (pc->unexp_head != NULL) {
        pml_unexp_t *u = pc->unexp_head;
        pc->unexp_head = u->next;
        pml_unexp_free(u);
        pml_queue_len.unexp--;
    }
    /* receives still posted on a communicator freed under them are not matched again */
    for (pml_request_t *r = pc->posted_head; r != NULL; r = r->next) {
        pml_queue_len.posted--;
    }
    pml_match_comm_remove(pc);
}

/* the bytes of every BTL once the peers are gone (MPI_T reads them after MPI_Finalize),
   by name: the modules, their names included, are unloaded */
static struct {
    char name[32];
    unsigned long long sent, recvd;
} btl_done[PML_MAX_MODULES];

/* move the peers' byte counts into btl_done, before the modules go */
static void btl_bytes_fold(void)
{
    for (int r = 0; r < pml_state.world_size; r++) {
        pml_peer_t *p = &pml_state.peers[r];
        int i = 0;
        while (p->btl != NULL && i < PML_MAX_MODULES && btl_done[i].name[0] != '\0' &&
               strcmp(btl_done[i].name, p->btl->name) != 0) {
            i++;
        }
        if (p->btl == NULL || i == PML_MAX_MODULES) {
            continue;
        }
        snprintf(btl_done[i].name, sizeof(btl_done[i].name), "%s", p->btl->name);
        btl_done[i].sent += p->bytes_sent;
        btl_done[i].recvd += p->bytes_recvd;
        p->bytes_sent = p->bytes_recvd = 0;
    }
}

/* The caller (MPI_Finalize) has synchronised the job (barrier and fence), as the BTLs'
   finalize requires; what is still queued here is flushed first. */
compi_status_t pml_finalize(void)
{
    pml_bsend_flush();
    while (pml_state.npending > 0) {
        pml_progress_wait();
    }
    btl_bytes_fold();
    pml_state.block_btl = NULL; /* pml_wake_sleeper: nothing to wake any more */
    for (int m = 0; m < pml_state.nmodules; m++) {
        if (pml_state.modules[m]->finalize != NULL) {
            pml_state.modules[m]->finalize();
        }
    }
    btl_base_close();
    pml_match_comm_foreach(drop_comm);
    while (ctl_free != NULL) {
        pml_ctl_t *c = ctl_free;
        ctl_free = c->next;
        free(c);
    }
    free(pml_state.peers);
    pml_state.peers = NULL;
    pml_state.nmodules = 0;
    pml_req_finalize();
    return COMPI_OK;
}

/* ---- MPI_T ---------------------------------------------------------------------------- */

void pml_queue_lengths(unsigned long long *posted, unsigned long long *unexpected)
{
    *posted = pml_queue_len.posted;
    *unexpected = pml_queue_len.unexp;
}

unsigned long long pml_unexpected_peak(int restart)
{
    unsigned long long peak = pml_queue_len.unexp_peak;
    if (restart) {
        pml_queue_len.unexp_peak = pml_queue_len.unexp;
    }
    return peak;
}

void pml_btl_bytes(const char *btl, unsigned long long *sent, unsigned long long *recvd)
{
    *sent = *recvd = 0;
    for (int i = 0; i < PML_MAX_MODULES && btl_done[i].name[0] != '\0'; i++) {
        if (strcmp(btl_done[i].name, btl) == 0) {
            *sent += btl_done[i].sent;
            *recvd += btl_done[i].recvd;
        }
    }
    for (int r = 0; pml_state.peers != NULL && r < pml_state.world_size; r++) {
        const pml_peer_t *p = &pml_state.peers[r];
        if (p->btl != NULL && strcmp(p->btl->name, btl) == 0) {
            *sent += p->bytes_sent;
            *recvd += p->bytes_recvd;
        }
    }
}

/* ---- communicators ------------------------------------------------------------------ */

compi_status_t pml_comm_add(compi_comm_t *comm)
{
    pml_comm_t *pc = pml_match_comm(comm->ctx, 1);
    if (pc == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    pc->comm = comm;
    comm->pml = pc;
    return COMPI_OK;
}

void pml_comm_del(compi_comm_t *comm)
{
    pml_comm_t *pc = comm->pml;
    if (pc == NULL) {
        return;
    }
    if (pc->posted_head != NULL || pc->unexp_head != NULL) {
        compi_log_verbose(pml_state.verbose, 1,
                          "pml: communicator ctx %u freed with messages pending", pc->ctx);
    }
    /* a buffer still attached to the communicator goes with it (its sends still leave) */
    pml_bsend_buf_release(pc->bsend);
    pc->bsend = NULL;
    comm->pml = NULL;
    drop_comm(pc);
}

/* ---- queues of work waiting for room ------------------------------------------------ */

void pml_ctl_send(int world_peer, const pml_hdr_ctl_t *hdr, size_t len)
{
    pml_peer_t *p = &pml_state.peers[world_peer];
    if (ctl_head == NULL) {
        void *frag = p->btl->reserve(p->ep, len);
        if (compi_likely(frag != NULL)) {
            memcpy(frag, hdr, len);
            pml_btl_commit(p, frag, len);
            return;
        }
    }
    pml_ctl_t *c = ctl_free;
    if (c != NULL) {
        ctl_free = c->next;
    } else if ((c = malloc(sizeof(*c))) == NULL) {
        rte_abort(1, "pml: out of memory queueing a control message");
    }
    c->next = NULL;
    c->world_peer = world_peer;
    c->len = len;
    memcpy(&c->hdr, hdr, len);
    if (ctl_tail != NULL) {
        ctl_tail->next = c;
    } else {
        ctl_head = c;
    }
    ctl_tail = c;
    pml_state.npending++;
}

void pml_peer_enqueue(pml_peer_t *p, pml_request_t *req)
{
    req->state = PML_SST_QUEUED;
    req->next = NULL;
    if (p->pend_tail != NULL) {
        p->pend_tail->next = req;
    } else {
        p->pend_head = req;
    }
    p->pend_tail = req;
    if (!p->on_pend_list) {
        p->on_pend_list = 1;
        p->pend_next = pml_state.pend_peers;
        pml_state.pend_peers = p;
    }
    pml_state.npending++;
}

static int progress_ctl(void)
{
    int n = 0;
    while (ctl_head != NULL) {
        pml_ctl_t *c = ctl_head;
        pml_peer_t *p = &pml_state.peers[c->world_peer];
        void *frag = p->btl->reserve(p->ep, c->len);
        if (frag == NULL) {
            break;
        }
        memcpy(frag, &c->hdr, c->len);
        ctl_head = c->next;
        if (ctl_head == NULL) {
            ctl_tail = NULL;
        }
        c->next = ctl_free;
        ctl_free = c;
        pml_state.npending--;
        /* commit last: with the self BTL it may run our receive handler at once */
        pml_btl_commit(p, frag, c->len);
        n++;
    }
    return n;
}

static int progress_peer_sends(void)
{
    int n = 0;
    pml_peer_t **pp = &pml_state.pend_peers;
    while (*pp != NULL) {
        pml_peer_t *p = *pp;
        while (p->pend_head != NULL) {
            pml_request_t *r = p->pend_head;
            /* unlink first: the send may complete (and be released) inside */
            p->pend_head = r->next;
            if (p->pend_head == NULL) {
                p->pend_tail = NULL;
            }
            r->next = NULL;
            r->state = PML_SST_NONE;
            if (pml_send_first(r, p) != COMPI_OK) {
                /* still no room: put it back in front */
                r->state = PML_SST_QUEUED;
                r->next = p->pend_head;
                p->pend_head = r;
                if (p->pend_tail == NULL) {
                    p->pend_tail = r;
                }
                break;
            }
            pml_state.npending--;
            n++;
        }
        if (p->pend_head == NULL) {
            p->on_pend_list = 0;
            *pp = p->pend_next;
        } else {
            pp = &p->pend_next;
        }
    }
    return n;
}

static int progress_frags(void)
{
    int n = 0;
    pml_request_t *r = pml_state.frag_head;
    while (r != NULL) {
        pml_request_t *next = r->next;
        n += pml_send_frags(r); /* unlinks (and may release) r when done */
        r = next;
    }
    return n;
}

/* every module but the sleeping one has nothing to do (they all have progress_work) */
static int others_idle(void)
{
    for (int m = 0; m < pml_state.nmodules; m++) {
        const size_t *work = pml_state.progress_work[m];
        if (pml_state.modules[m] != pml_state.block_btl && *work != 0) {
            return 0;
        }
    }
    return 1;
}

/* NULL unless a layer above has work (core/coll/sched: an active schedule; core/osc: a
   window of the active-message transport); progress_hooks_on: any is set */
static int (*progress_hook[PML_HOOK_SLOTS])(void);
static int progress_hooks_on;

void pml_set_progress_hook(int slot, int (*hook)(void))
{
    progress_hook[slot] = hook;
    progress_hooks_on = 0;
    for (int i = 0; i < PML_HOOK_SLOTS; i++) {
        progress_hooks_on |= progress_hook[i] != NULL;
    }
}

static int run_hooks(void)
{
    int n = 0;
    for (int i = 0; i < PML_HOOK_SLOTS; i++) {
        if (progress_hook[i] != NULL) {
            n += progress_hook[i]();
        }
    }
    return n;
}

void (*pml__thread_yield)(void);

void pml_set_thread_yield(void (*yield)(void), int (*waiting)(void))
{
    pml__thread_yield = yield;
    thread_waiting = waiting;
}

void pml_wake_sleeper(void)
{
    btl_module_t *b = pml_state.block_btl;
    void (*wake)(btl_endpoint_t *) = b != NULL ? pml_btl_wake(b) : NULL;
    if (wake != NULL) {
        wake(NULL); /* this process's own sleeper */
    }
}

/* the queues of sends and control messages that waited for room, then the layers
   above: after the transports, so the schedules see what they just completed */
static __attribute__((noinline)) int progress_queues_hooks(void)
{
    int n = 0;
    if (pml_state.npending > 0) {
        n += progress_ctl();
        n += progress_peer_sends();
        n += progress_frags();
    }
    if (progress_hooks_on) {
        n += run_hooks();
    }
    return n;
}

/* A round that handled nothing, when oversubscribed or the 1024th in a row.  More ranks
   than cores: give the CPU to the rank we are waiting for.  Even when not
   oversubscribed, a long idle spell means someone else holds our core (another job, a
   build): yield now and then rather than burn whole time slices.  Returns what a sleep
   handled. */
static __attribute__((noinline)) int progress_idle(int may_sleep)
{
    int n = 0;
    if (compi_unlikely(pml_state.oversubscribed)) {
        /* in a blocking call, after a short spin, sleep where the next message will wake
           us (a rank that yields stays runnable and keeps taking turns from the ranks
           that work); never in MPI_Test and the like, which must return at once.  At
           MPI_THREAD_MULTIPLE only in a transport that another thread of ours can wake
           when it wants the lock the sleeper holds (pml_wake_sleeper). */
        ++idle_polls;
        if (may_sleep && pml_state.block_btl != NULL && idle_polls >= pml_state.block_after &&
            (pml__thread_yield == NULL || pml_btl_wake(pml_state.block_btl) != NULL) &&
            others_idle()) {
            n = pml_state.block_btl->wait(pml_state.block_ms);
            if (n > 0) {
                idle_polls = 0;
            } else if (compi_unlikely(n < 0)) {
                compi_log_verbose(pml_state.verbose, 1,
                                  "pml: btl %s cannot sleep after all: idle ranks yield",
                                  pml_state.block_btl->name);
                pml_state.block_btl = NULL;
                n = 0;
            }
        } else {
            sched_yield();
        }
    } else {
        /* the 1024th idle poll in a row (progress_once counted it) */
        idle_polls = 0;
        sched_yield();
    }
    return n;
}

/* One round over the transports and the queues; `may_sleep`: the caller blocks anyway.
   What every round does is here; the rest, out of line, keeps this one's registers few. */
static inline int progress_once(int may_sleep)
{
    int n = 0;
    for (int m = 0; m < pml_state.nmodules; m++) {
        const size_t *work = pml_state.progress_work[m];
        if (work == NULL || *work != 0) {
            n += pml_state.modules[m]->progress();
        }
    }
    if (compi_unlikely((pml_state.npending > 0) | progress_hooks_on)) {
        n += progress_queues_hooks();
    }
    if (compi_likely(n > 0)) {
        idle_polls = 0;
        return n;
    }
    if (compi_likely(!pml_state.oversubscribed) && compi_likely(++idle_polls < 1024)) {
#if defined(__x86_64__) || defined(__i386__)
        /* a blocking wait spins here: the pause keeps the processor from running ahead
           through the loop, so the store that ends the wait costs no pipeline flush
           (8-byte ping-pong at np 2: 0.181 us one way without, 0.168 with; the
           shared-memory collectives' waits do the same, coll_shm_wait) */
        if (may_sleep) {
            __builtin_ia32_pause();
        }
#endif
        return 0;
    }
    return progress_idle(may_sleep);
}

int pml_progress(void)
{
    return progress_once(0);
}

int pml_progress_wait(void)
{
    int n = progress_once(1);
    /* MPI_THREAD_MULTIPLE: between rounds, the other threads' turn */
    if (compi_unlikely(pml__thread_yield != NULL)) {
        pml__thread_yield();
    }
    return n;
}

int pml_progress_wait_for(const uint64_t *flag, uint64_t seq)
{
    /* a sleeper that cannot be woken for the flag (btl ofi) must not sleep for it */
    if (pml_state.block_btl == NULL || pml_btl_wake(pml_state.block_btl) == NULL) {
        int n = progress_once(0);
        if (compi_unlikely(pml__thread_yield != NULL)) {
            pml__thread_yield();
        }
        return n;
    }
    wait_flag = flag;
    wait_seq = seq;
    int n = pml_progress_wait();
    wait_flag = NULL;
    return n;
}

void pml_wake_peers(int n, const int *world_ranks, int self)
{
    for (int i = 0; i < n; i++) {
        const pml_peer_t *p = &pml_state.peers[world_ranks[i]];
        if (i != self && p->btl == pml_state.block_btl && p->btl != NULL) {
            void (*wake)(btl_endpoint_t *) = pml_btl_wake(p->btl);
            if (wake != NULL) {
                wake(p->ep);
            }
        }
    }
}

/* ---- waiting ------------------------------------------------------------------------ */

compi_status_t pml_wait(compi_request_t *req, pml_result_t *res)
{
    while (!__atomic_load_n(&req->complete, __ATOMIC_ACQUIRE)) {
        pml_progress_wait();
    }
    if (res != NULL) {
        *res = req->result;
    }
    return req->result.error;
}

static compi_status_t pml_wait_all(size_t n, compi_request_t **reqs)
{
    compi_status_t st = COMPI_OK;
    for (size_t i = 0; i < n; i++) {
        if (reqs[i] == NULL) {
            continue;
        }
        compi_status_t s = pml_wait(reqs[i], NULL);
        if (s != COMPI_OK && st == COMPI_OK) {
            st = s;
        }
    }
    return st;
}

compi_status_t pml_wait_all_free(size_t n, compi_request_t **reqs)
{
    compi_status_t st = pml_wait_all(n, reqs);
    for (size_t i = 0; i < n; i++) {
        if (reqs[i] != NULL) {
            pml_request_free(reqs[i]);
            reqs[i] = NULL;
        }
    }
    return st;
}
