/*
 * shm.c -- the shared segment of the shared-memory collectives (shm.h): creation at a
 * communicator's first shared-memory collective, release with the communicator.
 *
 * Rank 0 makes an anonymous memfd (never a name in /dev/shm), sizes and maps it, and
 * broadcasts its pid and descriptor; the others open /proc/PID/fd/N (as the sm BTL
 * shares its memfd segments) and map it; an allreduce of the failures then tells every
 * rank that all have mapped it, or that one could not, and rank 0 closes the
 * descriptor.  From then on only the mappings keep the memory: nothing outlives the
 * processes, whatever way they end.
 */
#include "config.h"

#include "core/coll/shm.h"
#include "core/coll/shm_group.h"
#include "core/coll/executors/tree_closure.h"
#include "core/comm/comm_coll.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/rte.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define COLL_SHM_SLOT_DEFAULT 8192

int coll_shm_comm_ok(const compi_comm_t *comm)
{
    if (comm_is_inter(comm) || comm->world_ranks == NULL) {
        return 0;
    }
    if (rte_local_ranks() == NULL) {
        return 1; /* no runtime: a tool's stand-in job, whose facts the creators read */
    }
    for (int i = 0; i < comm->size; i++) {
        if (!rte_world_rank_is_local(comm->world_ranks[i])) {
            return 0;
        }
    }
    return 1;
}

size_t coll_shm_slot_size(void)
{
    static long slot;
    if (slot == 0) {
        slot = param_register_int_range(
            "coll_shm_slot", COLL_SHM_SLOT_DEFAULT, 256, 1L << 20,
            "bytes of each rank's data slot in the segment of the shared-memory collectives "
            "(the shm algorithms): the most data one round of them moves; longer messages "
            "take several rounds (barrier, bcast, reduce, allreduce) or go over the PML "
            "(the others)");
        slot = (slot + COLL_SHM_LINE - 1) / COLL_SHM_LINE * COLL_SHM_LINE;
    }
    return (size_t)slot;
}

int coll_shm_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return !comm_is_inter(call->comm);
}

/* 1 when every call with `call`'s key fits the slots: what one round needs of a slot */
static int shm_fits(const coll_call_t *call)
{
    const compi_datatype_t *dt = call->sdt;
    size_t slot = coll_shm_slot_size(), p = (size_t)call->comm->size;

    switch (call->kind) {
    case COLL_ALLGATHER: /* one block (the key's bytes), packed, in one round */
    case COLL_GATHER:
        return call->bytes <= slot;
    case COLL_ALLTOALL: /* p packed blocks in one round */
    case COLL_SCATTER:
        return call->bytes <= slot / p;
    default:
        break;
    }
    if (call->op == NULL || dt == NULL || dt->size == 0) {
        return 1; /* no elements to keep whole */
    }
    /* A user-defined op may come with a different layout of the same type signature on
       each rank (a predefined op needs the same datatype everywhere), and the slots
       hold each rank's own layout: only the PML's algorithms, which pack, can combine
       those.  The op is the same on every rank, so every rank falls back alike. */
    if (call->op->predefined == 0) {
        return 0;
    }
    /* reductions copy whole elements, gaps included, into a slot */
    if (dt->extent <= 0 || (size_t)dt->true_extent > slot) {
        return 0;
    }
    if (call->kind == COLL_REDUCE_SCATTER || call->kind == COLL_REDUCE_SCATTER_BLOCK) {
        /* the whole vector in one round (the key holds its count: bytes / size) */
        return call->scount <= coll_shm_elems_of(slot, dt);
    }
    return 1; /* reduce, allreduce: in rounds of whole elements */
}

/* what a shm algorithm's call runs when the segment cannot serve it (coll_shm_prepare):
   the PML's algorithm of the same shape; for reductions one that combines in rank order,
   as the shm algorithms do, unless the op allows any order */
static const char *shm_fallback(const coll_call_t *call)
{
    switch (call->kind) {
    case COLL_BARRIER:
        return "dissemination";
    case COLL_BCAST:
        return "binomial";
    case COLL_REDUCE:
        return "in-order-binomial";
    case COLL_ALLREDUCE:
        /* every rank combines the same two halves in recursive doubling, so a
           commutative op gives the same bits everywhere */
        return call->op->commutative ? "recursive-doubling" : "reduce-bcast";
    case COLL_ALLGATHER:
        return "ring";
    case COLL_ALLTOALL:
        return "pairwise";
    case COLL_GATHER:
    case COLL_SCATTER:
        return "linear";
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
        return call->op->commutative ? "ring" : "reduce-scatterv";
    default:
        return NULL;
    }
}

compi_status_t coll_shm_prepare(const coll_call_t *call, coll_params_t *params)
{
    compi_status_t st = COMPI_OK;
    /* persistent calls never use the segment (shm.h) */
    int unfit = call->mode == COLL_MODE_PERSISTENT || !coll_shm_comm_ok(call->comm) ||
                !shm_fits(call);

    if (!unfit && call->mode == COLL_MODE_BLOCKING) {
        return COMPI_OK;
    }
    const char *name = shm_fallback(call);
    const coll_algo_t *algo = name != NULL ? coll_algo_find(call->kind, name) : NULL;
    coll_shm_fb_t *fb = malloc(sizeof(*fb));
    coll_params_t none = {0};
    if (algo == NULL || fb == NULL) {
        free(fb);
        return algo == NULL ? COMPI_ERR_INTERNAL : COMPI_ERR_NO_MEMORY;
    }
    fb->algo = algo;
    fb->unfit = unfit;
    fb->closure = coll_closure_algo(algo, &none, call, &st);
    if (fb->closure == NULL) {
        free(fb);
        return st != COMPI_OK ? st : COMPI_ERR_INTERNAL;
    }
    params->aux = fb;
    return COMPI_OK;
}

void coll_shm_release_fallback(void *aux)
{
    coll_shm_fb_t *fb = aux;
    coll_closure_release(fb->closure);
    free(fb);
}

/* the fallback's steps in `s`: its own schedule, or its tree's */
static void shm_sched_fallback(const coll_shm_fb_t *fb, const coll_call_t *call, coll_sched_t *s)
{
    if (fb->algo->sched != NULL) {
        /* a native closure's state starts with its params (what its .prepare made) */
        fb->algo->sched(call, fb->closure->state, s);
    } else {
        coll_tree_sched_add(fb->closure, call, s);
    }
}

/* the schedule of a call is freed: normally after its phases ended; if an error ended it
   before (the agreement at a miss failed, on every rank alike: its rounds were never
   numbered), it leaves the segment's queue here so that the later calls are not held
   up waiting for it */
/* a schedule's call: its state, and the call, which the caller's stack no longer holds */
typedef struct shm_sched_op {
    coll_shm_op_t op;
    coll_call_t call;
} shm_sched_op_t;

static void shm_op_release(void *arg)
{
    shm_sched_op_t *so = arg;
    coll_shm_op_t *o = &so->op;
    if (!o->over && o->rounds != 0) {
        coll_shm_t *shm = o->shm;
        if (o->started &&
            __atomic_load_n(&shm->ctl[shm->rank].done, __ATOMIC_RELAXED) < o->last) {
            coll_shm_done(shm, o->last);
        }
        /* out of the queue: the calls after it take their turns without it */
        coll_shm_op_t **pp = &shm->queue, *prev = NULL;
        while (*pp != o) {
            prev = *pp;
            pp = &(*pp)->next;
        }
        *pp = o->next;
        if (shm->queue_tail == o) {
            shm->queue_tail = prev;
        }
    }
    if (so->call.sdt != NULL) {
        dt_release(so->call.sdt);
    }
    if (so->call.rdt != NULL) {
        dt_release(so->call.rdt);
    }
}

void coll_shm_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s,
                    coll_shm_rounds_fn_t rounds_of, coll_sched_check_fn_t poll)
{
    const coll_shm_fb_t *fb = params->aux;
    coll_shm_t *shm = call->comm->coll_shm;

    if (fb->unfit || shm == NULL) {
        shm_sched_fallback(fb, call, s);
        return;
    }
    shm_sched_op_t *so = coll_sched_alloc(s, sizeof(*so));
    if (so == NULL) {
        return; /* the schedule fails */
    }
    coll_shm_op_t *o = &so->op; /* first: the poll function's argument is both */
    so->call = *call;
    o->call = &so->call;
    o->shm = shm;
    o->phase = o->j = 0;
    o->started = o->over = 0;
    o->fanout = params->fanout;
    o->st = COMPI_OK;
    o->base = o->seq = o->last = 0;
    o->rounds = rounds_of(call, shm->slot);
    o->next = NULL;
    if (o->rounds > 0) { /* numbered when its turn comes */
        if (shm->queue_tail != NULL) {
            shm->queue_tail->next = o;
        } else {
            shm->queue = o;
        }
        shm->queue_tail = o;
    }
    /* the datatypes may be freed by the user before the call completes */
    if (call->sdt != NULL) {
        dt_retain(call->sdt);
    }
    if (call->rdt != NULL) {
        dt_retain(call->rdt);
    }
    coll_sched_hold(s, shm_op_release, so);
    coll_sched_wait(s, poll, o);
}

void coll_shm_drain(coll_shm_t *shm)
{
    while (shm->queue != NULL) {
        (void)pml_progress_wait();
    }
}

size_t coll_shm_len(int p, size_t slot)
{
    return (size_t)p * (sizeof(coll_shm_ctl_t) + COLL_SHM_NBUF * slot);
}

void coll_shm_init(coll_shm_t *shm, void *base, size_t len, size_t slot, int p, int rank,
                   const int *world)
{
    shm->ctl = base;
    shm->slots = (char *)base + (size_t)p * sizeof(coll_shm_ctl_t);
    shm->slot = slot;
    shm->len = len;
    shm->seq = 0;
    shm->min_done = 0;
    shm->queue = shm->queue_tail = NULL;
    shm->p = p;
    shm->rank = rank;
    shm->oversubscribed = rte_proc.oversubscribed;
    shm->world = world;
}

coll_shm_t *coll_shm_create(compi_comm_t *comm, compi_status_t *st_p)
{
    size_t slot = coll_shm_slot_size();
    size_t len = coll_shm_len(comm->size, slot);
    comm_coll_set_t set = comm_coll_whole(comm);
    void *base = NULL;

    set.tag = COMPI_TAG_COLL_SHM;
    coll_shm_t *shm = malloc(sizeof(*shm));
    compi_status_t st = comm_coll_shared_map(&set, len, "coll shm", 1, shm == NULL, &base);
    if (st != COMPI_OK) {
        free(shm);
        if (st_p != NULL) {
            *st_p = st;
        }
        return NULL;
    }
    coll_shm_init(shm, base, len, slot, comm->size, comm->rank, comm->world_ranks);
    comm->coll_shm = shm;
    return shm;
}

void coll_shm_release(compi_comm_t *comm)
{
    coll_shm_t *shm = comm->coll_shm;
    coll_shm_groups_release(comm);
    if (shm == NULL) {
        return;
    }
    munmap(shm->ctl, shm->len);
    free(shm);
    comm->coll_shm = NULL;
}

int coll_shm_slot_free__(coll_shm_t *shm, uint64_t seq, int block)
{
    uint64_t min = UINT64_MAX;
    for (int j = 0; j < shm->p; j++) {
        if (!coll_shm_ready(shm, &shm->ctl[j].done, seq - COLL_SHM_NBUF, block)) {
            return 0;
        }
        uint64_t d = __atomic_load_n(&shm->ctl[j].done, __ATOMIC_ACQUIRE);
        min = d < min ? d : min;
    }
    shm->min_done = min;
    return 1;
}

void coll_shm_put(coll_shm_t *shm, compi_datatype_t *dt, const void *buf, size_t first, size_t n,
                  uint64_t seq)
{
    const char *src = (const char *)buf + dt->true_lb + (ptrdiff_t)first * dt->extent;
    memcpy(coll_shm_slot(shm, shm->rank, seq), src, coll_shm_span(dt, n));
}

compi_status_t coll_shm_combine_own(const coll_shm_t *shm, const compi_op_t *op,
                                    compi_datatype_t *dt, void *out, size_t at, size_t n,
                                    uint64_t seq, int self, const void *mine)
{
    int p = shm->p;
    /* a slot as a user buffer: its first element's data sits true_lb past it; rank
       self's is `mine` (self -1: every rank's from its slot) */
#define SLOT_BUF(j)                                                                           \
    ((j) == self ? mine : coll_shm_slot(shm, (j), seq) - dt->true_lb + (ptrdiff_t)at * dt->extent)
    compi_status_t st = coll_op_apply3(op, dt, SLOT_BUF(p - 2), SLOT_BUF(p - 1), out, n);
    for (int j = p - 3; j >= 0 && st == COMPI_OK; j--) {
        st = coll_op_apply(op, dt, SLOT_BUF(j), out, n);
    }
#undef SLOT_BUF
    return st;
}

compi_status_t coll_shm_combine(const coll_shm_t *shm, const compi_op_t *op, compi_datatype_t *dt,
                                void *out, size_t at, size_t n, uint64_t seq)
{
    return coll_shm_combine_own(shm, op, dt, out, at, n, seq, -1, NULL);
}

compi_status_t coll_shm_reduce_local(const coll_call_t *call, const void *src)
{
    compi_datatype_t *dt = call->sdt;
    size_t count = call->scount;
    if (count == 0 || dt->size == 0 || call->in_place) {
        return COMPI_OK;
    }
    return coll_copy(src, count, dt, call->rbuf, count, dt);
}
