/*
 * btl_self.c -- loopback BTL: fragments a rank sends to itself.
 *
 * commit() only queues; progress() delivers, because the PML is not re-entrant inside a
 * send.  Fragments committed while progress() delivers (a reply from inside recv_cb) wait
 * for the next call, so one call always ends.
 */
#include "core/btl/self/btl_self.h"

#include "core/include/compi_common.h"

#include <stdlib.h>
#include <string.h>

#define SELF_FREE_MAX 16 /* buffers kept for reuse */

typedef struct self_frag {
    struct self_frag *next;
    size_t len;
    union {
        max_align_t align; /* the PML casts the start to its header types */
        char data[1];
    } u;
} self_frag_t;

struct btl_endpoint {
    int world_rank;
};

static struct {
    const btl_services_t *svc;
    size_t max_frag;
    self_frag_t *pending; /* reserved, not committed: handed out again by reserve() */
    self_frag_t *head;    /* committed, in order */
    self_frag_t **tailp;
    self_frag_t *free;
    int n_free;
    size_t queued;        /* committed and not yet delivered: the PML polls us only then */
} self_st;

static btl_endpoint_t self_ep;

static compi_status_t btl_self_publish(void)
{
    return COMPI_OK;
}

static compi_status_t btl_self_add_procs(int n, const int *world_ranks, btl_endpoint_t **eps)
{
    for (int i = 0; i < n; i++)
        eps[i] = world_ranks[i] == self_st.svc->world_rank ? &self_ep : NULL;
    return COMPI_OK;
}

static void *btl_self_reserve(btl_endpoint_t *ep, size_t len)
{
    self_frag_t *f = self_st.pending;

    if (compi_unlikely(len > self_st.max_frag))
        return NULL;
    if (f == NULL) {
        f = self_st.free;
        if (f != NULL) {
            self_st.free = f->next;
            self_st.n_free--;
        } else {
            f = malloc(offsetof(self_frag_t, u) + self_st.max_frag);
            if (f == NULL)
                return NULL;
        }
        self_st.pending = f;
    }
    return f->u.data;
}

static compi_status_t btl_self_commit(btl_endpoint_t *ep, void *frag, size_t len)
{
    self_frag_t *f = compi_container_of(frag, self_frag_t, u);

    if (compi_unlikely(f != self_st.pending))
        return COMPI_ERR_INVALID_PARAM;
    self_st.pending = NULL;
    f->len = len;
    f->next = NULL;
    *self_st.tailp = f;
    self_st.tailp = &f->next;
    self_st.queued++;
    return COMPI_OK;
}

static void frag_release(self_frag_t *f)
{
    if (self_st.n_free < SELF_FREE_MAX) {
        f->next = self_st.free;
        self_st.free = f;
        self_st.n_free++;
    } else {
        free(f);
    }
}

static int btl_self_progress(void)
{
    self_frag_t *f = self_st.head;
    int n = 0;

    if (compi_likely(f == NULL))
        return 0;
    /* detach what is queued now; recv_cb may queue more behind a fresh list */
    self_st.head = NULL;
    self_st.tailp = &self_st.head;
    self_st.queued = 0;
    while (f != NULL) {
        self_frag_t *next = f->next;
        self_st.svc->recv_cb(self_st.svc->world_rank, f->u.data, f->len);
        frag_release(f);
        f = next;
        n++;
    }
    return n;
}

/* our own memory: a plain copy */
static compi_status_t btl_self_get(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                                   uint64_t remote_addr, uint64_t remote_key, size_t len)
{
    const char *src = (const char *)(uintptr_t)remote_addr;

    for (int i = 0; i < nlocal && len > 0; i++) {
        size_t l = local[i].iov_len < len ? local[i].iov_len : len;
        memcpy(local[i].iov_base, src, l);
        src += l;
        len -= l;
    }
    return len == 0 ? COMPI_OK : COMPI_ERR_INVALID_PARAM;
}

/* our own memory: a plain copy the other way */
static compi_status_t btl_self_put(btl_endpoint_t *ep, const struct iovec *local, int nlocal,
                                   uint64_t remote_addr, uint64_t remote_key, size_t len)
{
    char *dst = (char *)(uintptr_t)remote_addr;

    for (int i = 0; i < nlocal && len > 0; i++) {
        size_t l = local[i].iov_len < len ? local[i].iov_len : len;
        memcpy(dst, local[i].iov_base, l);
        dst += l;
        len -= l;
    }
    return len == 0 ? COMPI_OK : COMPI_ERR_INVALID_PARAM;
}

static void free_chain(self_frag_t *f)
{
    while (f != NULL) {
        self_frag_t *next = f->next;
        free(f);
        f = next;
    }
}

static compi_status_t btl_self_finalize(void)
{
    free_chain(self_st.head);
    free_chain(self_st.free);
    free(self_st.pending);
    memset(&self_st, 0, sizeof(self_st));
    self_st.tailp = &self_st.head;
    return COMPI_OK;
}

compi_status_t btl_self_init(const btl_services_t *svc, size_t eager_limit, size_t max_frag)
{
    if (self_st.svc != NULL)
        btl_self_finalize();
    self_st.svc = svc;
    self_st.max_frag = max_frag;
    self_st.tailp = &self_st.head;
    self_ep.world_rank = svc->world_rank;
    btl_self_module.eager_limit = eager_limit;
    btl_self_module.max_frag = max_frag;
    return COMPI_OK;
}

btl_module_t btl_self_module = {
    .size = sizeof(btl_module_t),
    .name = "self",
    .flags = BTL_FLAG_GET | BTL_FLAG_PUT,
    .exclusivity = 1000,
    .publish = btl_self_publish,
    .add_procs = btl_self_add_procs,
    .reserve = btl_self_reserve,
    .commit = btl_self_commit,
    .progress = btl_self_progress,
    .progress_work = &self_st.queued,
    .get = btl_self_get,
    .register_mem = NULL,
    .deregister_mem = NULL,
    .finalize = btl_self_finalize,
    .put = btl_self_put,
};
