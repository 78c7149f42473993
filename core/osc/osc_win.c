/*
 * osc_win.c -- windows: the shared segment (creation, release), the check that single
 * copy works between the ranks, where a target's data lies, and the registry of a
 * dynamic window's attached regions.
 *
 * Creation, collective over the window's communicator:
 *   1. the sizes of every rank (an allgather: the allocate flavors lay out the data)
 *   2. rank 0 makes the memfd and broadcasts its pid and descriptor; the others open
 *      /proc/PID/fd/N; everyone maps it; an allreduce of the failures
 *   3. each rank fills its osc_rank_t; an allreduce (a barrier) publishes them
 *   4. flavors with the user's memory: each rank reads every peer's probe word by
 *      single copy; an allreduce of the failures, and where one fails the window drops
 *      its segment and takes active messages
 * A window but MPI_Win_allocate_shared's whose segment cannot be made (step 2) takes
 * active messages too.
 * Rank 0 closes its descriptor after step 2, so only the mappings keep the memory.
 * A window of the active-message transport (osc_use_am) stops after step 1: no segment,
 * its ranks[] a private copy of the sizes and disp_units, memory of its own
 * (MPI_Win_allocate), the transport's state (osc_am_open).
 */
#include "config.h"

#include "core/osc/osc.h"

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
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#define OSC_PROBE_MAGIC 0x6f73632d636f6d70ull /* "osc-comp" */

/* read by peers through process_vm_readv at window creation */
static volatile uint64_t osc_probe_word;

int osc_comm_local(const compi_comm_t *comm)
{
    if (comm->world_ranks == NULL || rte_local_ranks() == NULL) {
        return 1; /* no runtime: one process */
    }
    for (int i = 0; i < comm->size; i++) {
        if (!rte_world_rank_is_local(comm->world_ranks[i])) {
            return 0;
        }
    }
    return 1;
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* steps 1 and 2: the sizes, and the segment mapped on every rank */
static compi_status_t seg_make(compi_win_t *w, comm_coll_set_t *set, size_t data_len,
                               size_t ctl_len)
{
    size_t len = ctl_len + data_len;
    void *base = NULL;
    compi_status_t st = comm_coll_shared_map(set, len, "osc", 0, 0, &base);
    if (st != COMPI_OK) {
        return st;
    }
    w->seg = base;
    w->seg_len = len;
    w->ranks = (osc_rank_t *)base;
    w->post = (uint64_t *)(w->seg + (size_t)w->p * sizeof(osc_rank_t));
    w->data = data_len > 0 ? w->seg + ctl_len : NULL;
    return COMPI_OK;
}

/* step 4: 0 when this rank reads every peer's probe word by single copy */
static int cma_check(compi_win_t *w)
{
    for (int r = 0; r < w->p; r++) {
        if (r == w->rank) {
            continue;
        }
        const osc_rank_t *e = &w->ranks[r];
        uint64_t word = 0;
        struct iovec l = {.iov_base = &word, .iov_len = sizeof(word)};
        struct iovec rem = {.iov_base = (void *)(uintptr_t)e->probe, .iov_len = sizeof(word)};
        ssize_t got = process_vm_readv(e->pid, &l, 1, &rem, 1, 0);
        if (got != (ssize_t)sizeof(word) || word != (OSC_PROBE_MAGIC ^ (uint64_t)e->pid)) {
            compi_log_warn("osc: single copy (process_vm_readv) from rank %d (pid %d) of the "
                           "window fails: %s (ptrace permission between the processes: see "
                           "Yama's ptrace_scope); the window takes active messages instead",
                           r, (int)e->pid, got < 0 ? strerror(errno) : "wrong contents");
            return 1;
        }
    }
    return 0;
}

int osc_use_am(const compi_comm_t *comm, int flavor)
{
    static int forced = -1;
    if (flavor == MPI_WIN_FLAVOR_SHARED) {
        return 0;
    }
    if (forced < 0) {
        const char *v = param_register_string(
            "osc_transport", "auto",
            "one-sided communication: auto (the shared segment when every rank of the window "
            "is on this host, active messages over the PML otherwise) or am (active messages "
            "always; MPI_Win_allocate_shared keeps the segment)");
        forced = v != NULL && strcmp(v, "am") == 0;
        if (v != NULL && !forced && strcmp(v, "auto") != 0) {
            compi_log_warn("osc_transport=%s is neither auto nor am: auto", v);
        }
    }
    return forced || !osc_comm_local(comm);
}

/* the active-message transport: every rank's size and disp_unit (the allgather's sz),
   this rank's memory, the transport's state; an allreduce of the failures */
static compi_status_t am_create(compi_win_t *w, comm_coll_set_t *set, const int *sz, void *base)
{
    uint32_t failed = 0, any = 0;
    compi_status_t st;

    w->ranks = calloc((size_t)w->p, sizeof(osc_rank_t));
    if (w->ranks == NULL) {
        failed = 1;
    } else {
        for (int r = 0; r < w->p; r++) {
            uint64_t hi = (uint32_t)sz[3 * r + 1];
            w->ranks[r].size = (uint64_t)(uint32_t)sz[3 * r] | hi << 32;
            w->ranks[r].disp_unit = sz[3 * r + 2];
        }
        w->ranks[w->rank].base = (uint64_t)(uintptr_t)base;
    }
    if (!failed && w->flavor == MPI_WIN_FLAVOR_ALLOCATE && w->size > 0) {
        if (posix_memalign(&w->am_mem, OSC_LINE, w->size) != 0) {
            w->am_mem = NULL;
            failed = 1;
        }
        base = w->am_mem;
    }
    w->base = w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? NULL : base;
    if (!failed && osc_am_open(w) != COMPI_OK) {
        failed = 1;
    }
    st = comm_coll_allreduce_max_u32(set, failed, &any);
    if (st == COMPI_OK && any) {
        st = COMPI_ERR_NO_MEMORY;
    }
    return st;
}

compi_status_t osc_win_create(compi_comm_t *comm, int flavor, size_t size, int disp_unit,
                              void *base, compi_win_t **win_p)
{
    compi_win_t *w = calloc(1, sizeof(*w));
    comm_coll_set_t set = comm_coll_whole(comm);
    int *sz = NULL;
    size_t *sizes = NULL, *offs = NULL;
    uint32_t failed = 0, any = 0;
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    int p = comm->size;

    set.tag = COMPI_TAG_OSC;
    if (w == NULL) {
        comm_release(comm);
        return COMPI_ERR_NO_MEMORY;
    }
    w->comm = comm;
    w->rank = comm->rank;
    w->p = p;
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;
    w->size = size;
    w->disp_unit = disp_unit;
    w->am = osc_use_am(comm, flavor);
    w->mod = w->am ? &osc_am_module : &osc_seg_module;
    w->cma = !w->am && (flavor == MPI_WIN_FLAVOR_CREATE || flavor == MPI_WIN_FLAVOR_DYNAMIC);
    w->started = calloc((size_t)p, sizeof(uint64_t));
    sz = malloc(3 * sizeof(int) * (size_t)p);
    if (sz == NULL) {
        /* the allgather below is collective: without its buffer this rank cannot take part,
           and leaving would hang the others */
        rte_abort(MPI_ERR_NO_MEM, "osc: no memory for the sizes of a window's ranks");
    }
    sizes = malloc(sizeof(size_t) * (size_t)p);
    offs = malloc(sizeof(size_t) * (size_t)p);
    if (w->started == NULL || sizes == NULL || offs == NULL) {
        failed = 1;
    }
    /* step 1 (also agrees that every rank got its memory) */
    int mine[3] = {(int)(uint32_t)size, (int)(uint32_t)((uint64_t)size >> 32), disp_unit};
    if (failed) {
        mine[0] = mine[1] = -1;
    }
    st = comm_coll_allgather_int(&set, mine, 3, sz);
    if (st != COMPI_OK) {
        goto err;
    }
    for (int r = 0; r < p; r++) {
        if (sz[3 * r] == -1 && sz[3 * r + 1] == -1) {
            st = COMPI_ERR_NO_MEMORY; /* on every rank alike */
            goto err;
        }
    }
    size_t data_len = 0;
    for (int r = 0; r < p; r++) {
        sizes[r] =
            (size_t)((uint64_t)(uint32_t)sz[3 * r] | (uint64_t)(uint32_t)sz[3 * r + 1] << 32);
        offs[r] = data_len;
        /* MPI_Win_allocate_shared: contiguous by default, each rank's memory right after
           the previous rank's; MPI_Win_allocate: each rank's in lines of its own */
        data_len += flavor == MPI_WIN_FLAVOR_SHARED ? sizes[r] : round_up(sizes[r], OSC_LINE);
    }
    if (flavor != MPI_WIN_FLAVOR_ALLOCATE && flavor != MPI_WIN_FLAVOR_SHARED) {
        data_len = 0;
    }
    if (w->am) {
        st = am_create(w, &set, sz, base);
        if (st != COMPI_OK) {
            goto err;
        }
        goto done;
    }
    size_t ctl_len = round_up((size_t)p * sizeof(osc_rank_t) + (size_t)p * p * sizeof(uint64_t),
                              (size_t)sysconf(_SC_PAGESIZE));
    /* step 2 (its failures are the same on every rank: a broadcast, an allreduce) */
    st = seg_make(w, &set, data_len, ctl_len);
    if (st == COMPI_ERR_IO && flavor != MPI_WIN_FLAVOR_SHARED) {
        /* no segment (the log says why): active messages need none */
        compi_log_warn("osc: the window takes active messages instead of a shared segment");
        w->am = 1;
        w->mod = &osc_am_module;
        w->cma = 0;
        if ((st = am_create(w, &set, sz, base)) != COMPI_OK) {
            goto err;
        }
        goto done;
    }
    if (st != COMPI_OK) {
        goto err;
    }
    /* step 3 */
    if (w->data != NULL) {
        w->base = sizes[w->rank] > 0 ? w->data + offs[w->rank] : NULL; /* size 0: NULL */
    } else {
        w->base = base;
    }
    osc_rank_t *me = &w->ranks[w->rank];
    if (w->cma) {
        /* under Yama ptrace_scope=1 a sibling may read us only if we say so; harmless
           (EINVAL) where Yama is absent */
        (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
        osc_probe_word = OSC_PROBE_MAGIC ^ (uint64_t)rte_proc.pid;
    }
    me->pid = (int32_t)rte_proc.pid;
    me->disp_unit = disp_unit;
    me->size = size;
    me->base = w->data != NULL ? offs[w->rank] : (uint64_t)(uintptr_t)base;
    me->probe = (uint64_t)(uintptr_t)&osc_probe_word;
    /* the entry is written before the allreduce's messages leave (they order it for the
       ranks that receive them) */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if ((st = comm_coll_allreduce_max_u32(&set, 0, &any)) != COMPI_OK) {
        goto err;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* step 4 */
    if (w->cma && p > 1) {
        failed = cma_check(w);
        if ((st = comm_coll_allreduce_max_u32(&set, failed, &any)) != COMPI_OK) {
            goto err;
        }
        if (any) {
            /* without single copy somewhere, the window takes active messages on every
               rank alike (nothing was attached yet, nothing accessed) */
            munmap(w->seg, w->seg_len);
            w->seg = NULL;
            w->ranks = NULL;
            w->post = NULL;
            w->am = 1;
            w->mod = &osc_am_module;
            w->cma = 0;
            if ((st = am_create(w, &set, sz, base)) != COMPI_OK) {
                goto err;
            }
        }
    }
done:
    free(sz);
    free(sizes);
    free(offs);
    *win_p = w;
    return COMPI_OK;
err:
    free(sz);
    free(sizes);
    free(offs);
    osc_win_free(w);
    return st;
}

void osc_win_free(compi_win_t *w)
{
    if (w == NULL) {
        return;
    }
    if (w->seg != NULL) {
        munmap(w->seg, w->seg_len);
    }
    w->mod->close(w);
    if (w->am) {
        free(w->ranks);
        free(w->am_mem);
    }
    if (w->comm != NULL) {
        comm_release(w->comm);
    }
    free(w->started);
    free(w->access);
    free(w->scratch);
    free(w->regs);
    free(w);
}

/* the registry of a rank, under its lock (a spin lock: attach, detach and the lookups
   are short) */
static void reg_lock(osc_rank_t *e)
{
    unsigned spins = 0;
    while (__atomic_exchange_n(&e->reg_lock, 1, __ATOMIC_ACQUIRE) != 0) {
        osc_relax(&spins);
    }
}

static void reg_unlock(osc_rank_t *e)
{
    __atomic_store_n(&e->reg_lock, 0, __ATOMIC_RELEASE);
}

#define REG_READ 64 /* regions of another rank read by one system call */

/* whether rank t's attached regions cover [a, b): the regions (sorted by base, not
   overlapping) walked in order, each that starts at or before the covered end extending
   it, so that adjacent regions cover together what none covers alone */
static compi_status_t reg_covers(compi_win_t *w, int t, uint64_t a, uint64_t b, int *ok)
{
    osc_rank_t *e = &w->ranks[t];
    osc_region_t buf[REG_READ];
    compi_status_t st = COMPI_OK;
    uint64_t cur = a;
    int stop = 0;

    reg_lock(e);
    for (uint32_t i = 0, n = e->nreg; i < n && !stop && st == COMPI_OK;) {
        uint32_t k = n - i < REG_READ ? n - i : REG_READ;
        const osc_region_t *r = buf;
        if (t == w->rank) {
            r = w->regs + i;
        } else {
            struct iovec l = {.iov_base = buf, .iov_len = k * sizeof(osc_region_t)};
            struct iovec rv = {.iov_base =
                                   (void *)(uintptr_t)(e->reg_addr + i * sizeof(osc_region_t)),
                               .iov_len = l.iov_len};
            if (process_vm_readv(e->pid, &l, 1, &rv, 1, 0) != (ssize_t)l.iov_len) {
                st = COMPI_ERR_IO;
                break;
            }
        }
        for (uint32_t j = 0; j < k && !stop; j++) {
            if (r[j].base > cur) {
                stop = 1; /* a gap: the later regions start later still */
            } else if (r[j].base + r[j].size > cur) {
                cur = r[j].base + r[j].size;
                stop = cur >= b;
            }
        }
        i += k;
    }
    reg_unlock(e);
    *ok = cur >= b;
    return st;
}

/* the bytes [lo, hi) from the element start an access to (dt, count) touches */
static void span(const compi_datatype_t *dt, size_t count, ptrdiff_t *lo, ptrdiff_t *hi)
{
    ptrdiff_t last = (ptrdiff_t)(count - 1) * dt->extent;
    *lo = dt->true_lb + (last < 0 ? last : 0);
    *hi = dt->true_lb + dt->true_extent + (last > 0 ? last : 0);
}

compi_status_t osc_target(compi_win_t *w, int t, MPI_Aint disp, compi_datatype_t *dt, size_t count,
                          osc_target_t *tg)
{
    osc_rank_t *e = &w->ranks[t];
    ptrdiff_t lo = 0, hi = 0;

    tg->t = t;
    tg->pid = e->pid;
    tg->local = NULL;
    tg->remote = 0;
    if (count > 0 && dt->size > 0) {
        span(dt, count, &lo, &hi);
    }
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        if (w->am && t != w->rank) {
            /* the target checks its own regions when it serves the access */
            tg->remote = (uint64_t)disp;
            return COMPI_OK;
        }
        /* disp is an address in the target (MPI_Get_address there) */
        int ok = hi <= lo;
        if (!ok) {
            compi_status_t st =
                reg_covers(w, t, (uint64_t)disp + (uint64_t)lo, (uint64_t)disp + (uint64_t)hi, &ok);
            if (st != COMPI_OK) {
                return st;
            }
        }
        if (!ok) {
            return COMPI_ERR_NOT_FOUND;
        }
        if (t == w->rank) {
            tg->local = (char *)(uintptr_t)disp;
        } else {
            tg->remote = (uint64_t)disp;
        }
        return COMPI_OK;
    }
    ptrdiff_t off = (ptrdiff_t)disp * e->disp_unit;
    if (hi > lo && (off + lo < 0 || (uint64_t)(off + hi) > e->size)) {
        return COMPI_ERR_NOT_FOUND;
    }
    if (w->data != NULL) {
        tg->local = w->data + e->base + off;
    } else if (t == w->rank) {
        tg->local = (char *)w->base + off;
    } else {
        tg->remote = e->base + (uint64_t)off;
    }
    return COMPI_OK;
}

compi_status_t osc_attach(compi_win_t *w, void *base, size_t size)
{
    osc_rank_t *e = &w->ranks[w->rank];
    uint64_t a = (uint64_t)(uintptr_t)base;
    compi_status_t st = COMPI_OK;
    uint32_t at = 0;

    reg_lock(e);
    for (uint32_t i = 0; i < e->nreg; i++) {
        const osc_region_t *r = &w->regs[i];
        if (a < r->base + r->size && r->base < a + size) {
            st = COMPI_ERR_INVALID_PARAM;
        }
        if (r->base <= a) {
            at = i + 1; /* sorted by base: the new region goes after this one */
        }
    }
    if (st == COMPI_OK && e->nreg == w->regs_cap) {
        /* the registry grows (others read it under the lock held here) */
        size_t cap = w->regs_cap > 0 ? 2 * w->regs_cap : 16;
        osc_region_t *n = cap <= UINT32_MAX ? realloc(w->regs, cap * sizeof(*n)) : NULL;
        if (n == NULL) {
            st = COMPI_ERR_NO_MEMORY;
        } else {
            w->regs = n;
            w->regs_cap = cap;
            e->reg_addr = (uint64_t)(uintptr_t)n;
        }
    }
    if (st == COMPI_OK) {
        memmove(&w->regs[at + 1], &w->regs[at], (e->nreg - at) * sizeof(osc_region_t));
        w->regs[at] = (osc_region_t){.base = a, .size = size};
        e->nreg++;
    }
    reg_unlock(e);
    return st;
}

compi_status_t osc_detach(compi_win_t *w, const void *base)
{
    osc_rank_t *e = &w->ranks[w->rank];
    uint64_t a = (uint64_t)(uintptr_t)base;
    compi_status_t st = COMPI_ERR_NOT_FOUND;

    reg_lock(e);
    for (uint32_t i = 0; i < e->nreg; i++) {
        if (w->regs[i].base == a) {
            memmove(&w->regs[i], &w->regs[i + 1], (e->nreg - i - 1) * sizeof(osc_region_t));
            e->nreg--;
            st = COMPI_OK;
            break;
        }
    }
    reg_unlock(e);
    return st;
}

/* rank r's segment as this rank can load and store it: every rank's of the segment's data
   part, otherwise only this rank's own memory (another process's is not mapped here) */
static void query_one(const compi_win_t *w, int r, size_t *size, int *disp_unit, void **base)
{
    const osc_rank_t *e = &w->ranks[r];
    *disp_unit = e->disp_unit;
    *size = 0;
    *base = NULL;
    if (w->data != NULL) {
        *size = (size_t)e->size;
        *base = e->size > 0 ? w->data + e->base : NULL;
    } else if (r == w->rank) {
        *size = w->size;
        *base = w->size > 0 ? w->base : NULL;
    }
}

void osc_shared_query(const compi_win_t *w, int rank, size_t *size, int *disp_unit, void **base)
{
    if (rank != MPI_PROC_NULL) {
        query_one(w, rank, size, disp_unit, base);
        return;
    }
    /* the lowest rank with memory this rank can reach (size 0 and NULL when none has) */
    for (int r = 0; r < w->p; r++) {
        query_one(w, r, size, disp_unit, base);
        if (*size > 0) {
            return;
        }
    }
    query_one(w, 0, size, disp_unit, base);
    *size = 0;
    *base = NULL;
}
