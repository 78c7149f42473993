/*
 * osc_rma.c -- the transfers of one-sided communication: put, get, the accumulates,
 * fetch-and-op and compare-and-swap, on segment memory by loads and stores, on the
 * user's memory of another process by single copy.
 *
 * The origin's datatype and the target's are walked together, with nothing packed in
 * between and nothing allocated: dt_copy between the two layouts where the target memory
 * is mapped; where it is not, iovecs of both layouts (dt_to_iov, a fixed array of them on
 * the stack per system call), so process_vm_readv / writev touch exactly the target's
 * blocks and never the gaps between them (another origin may write there at the same
 * time).  A side whose datatype is NULL is packed bytes (the data of an active message).
 *
 * An accumulate with an elementwise op (MPI_SUM ... MPI_BXOR) combines stretch by
 * stretch (dt_zip) straight into mapped target memory; on single-copy memory it reads the
 * target through a chunk (4 KiB on the stack, or up to 256 KiB of a scratch the window
 * keeps for larger ones), combines there and writes the chunk back.
 * MPI_MINLOC and MPI_MAXLOC (pair types, whose elements a stretch of one basic type would
 * cut) unpack the origin into a scratch laid out as the target and let the op engine walk
 * it: an allocation per call on that cold path.  All under the target's accumulate lock
 * (osc.h says why every accumulate takes it).
 */
#include "config.h"

#include "core/osc/osc.h"
#include "core/osc/osc_seg.h"

#include "core/pml/pml.h"

#include "core/runtime/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define OSC_IOV 256              /* iovecs per system call and side (under IOV_MAX), on the stack */
#define OSC_CHUNK 4096           /* bytes of a remote accumulate combined at a time, on the stack */
#define OSC_SCRATCH (256 * 1024) /* ... or through the window's scratch, larger ones */
#define OSC_ELEM_MAX 64          /* bytes of one predefined element, packed (compare-and-swap) */

/*
 * Single copy between this process and (dt, count) at tg->remote, bytes [off, off+bytes)
 * of the packed stream: the local side is (ldt, lbuf) walked alongside, or (ldt NULL)
 * packed bytes at lbuf that start at `off`.
 */
static compi_status_t cma_xfer(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                               const compi_datatype_t *ldt, char *lbuf, size_t off, size_t bytes,
                               int write)
{
    struct iovec riov[OSC_IOV], liov[OSC_IOV];
    size_t start = off, end = off + bytes;
    void *remote = (void *)(uintptr_t)tg->remote;

    while (off < end) {
        size_t got = 0, lgot = 0;
        int n = dt_to_iov(dt, remote, count, off, end - off, riov, OSC_IOV, &got);
        int nl = 1;
        if (n <= 0 || got == 0) {
            return COMPI_ERR_INTERNAL;
        }
        if (ldt != NULL) {
            size_t lcount = (end + ldt->size - 1) / ldt->size;
            nl = dt_to_iov(ldt, lbuf, lcount, off, got, liov, OSC_IOV, &lgot);
            if (nl <= 0 || lgot == 0) {
                return COMPI_ERR_INTERNAL;
            }
            if (lgot < got) { /* the local side ran out of iovecs first */
                n = dt_to_iov(dt, remote, count, off, lgot, riov, OSC_IOV, &got);
            }
        } else {
            liov[0] = (struct iovec){.iov_base = lbuf + (off - start), .iov_len = got};
        }
        ssize_t done =
            write ? process_vm_writev(tg->pid, liov, (unsigned long)nl, riov, (unsigned long)n, 0)
                  : process_vm_readv(tg->pid, liov, (unsigned long)nl, riov, (unsigned long)n, 0);
        if (done != (ssize_t)got) {
            compi_log_error("osc: %s rank %d (pid %d) at 0x%llx, %zu bytes: %s",
                            write ? "process_vm_writev to" : "process_vm_readv from", tg->t,
                            tg->pid, (unsigned long long)tg->remote, got,
                            done < 0 ? strerror(errno) : "short copy");
            return COMPI_ERR_IO;
        }
        off += got;
    }
    return COMPI_OK;
}

/* target (dt, count) at tg = source (sdt, src) */
static compi_status_t osc_put(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                              const compi_datatype_t *sdt, const void *src, size_t bytes)
{
    if (bytes == 0) {
        return COMPI_OK;
    }
    if (tg->local != NULL) {
        dt_copy(dt, tg->local, sdt, src, 0, bytes);
        return COMPI_OK;
    }
    return cma_xfer(tg, dt, count, sdt, (char *)src, 0, bytes, 1);
}

/* destination (ddt, dst) = target (dt, count) at tg */
static compi_status_t osc_get(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                              const compi_datatype_t *ddt, void *dst, size_t bytes)
{
    if (bytes == 0) {
        return COMPI_OK;
    }
    if (tg->local != NULL) {
        dt_copy(ddt, dst, dt, tg->local, 0, bytes);
        return COMPI_OK;
    }
    return cma_xfer(tg, dt, count, ddt, dst, 0, bytes, 0);
}

/* ---- the accumulate lock ----------------------------------------------------------- */

static void acc_lock(compi_win_t *w, int t)
{
    uint32_t *l = &w->ranks[t].acc;
    unsigned spins = 0;
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0) {
        osc_relax(&spins);
    }
}

static void acc_unlock(compi_win_t *w, int t)
{
    __atomic_store_n(&w->ranks[t].acc, 0, __ATOMIC_RELEASE);
}

/* one stretch of one basic type: dst = src op dst */
static compi_status_t op_step(void *ctx, char *dst, const char *src, size_t n, int basic)
{
    compi_datatype_t *bt = basic >= 0 ? (compi_datatype_t *)dt_basic_type(basic) : NULL;
    if (bt == NULL || bt->size == 0) {
        return COMPI_ERR_INTERNAL;
    }
    return coll_op_apply(ctx, bt, src, dst, n / bt->size);
}

/* the end of a chunk from `off` of at most `chunk` bytes that cuts no basic element of
   dt's stream */
static size_t chunk_end(const compi_datatype_t *dt, size_t off, size_t end, size_t chunk)
{
    size_t e = off + chunk;
    if (e >= end) {
        return end;
    }
    size_t within = e % dt->unit_size;
    int b = 0;
    while (b + 1 < dt->nblocks && dt->block_off[b + 1] <= within) {
        b++;
    }
    size_t bs = dt_basic_type(dt->blocks[b].basic)->size;
    return e - (bs > 0 ? (within - dt->block_off[b]) % bs : 0);
}

/* MPI_MINLOC, MPI_MAXLOC: the origin unpacked into a scratch laid out as the target,
   combined by the op engine (which keeps pairs whole) */
static compi_status_t combine_scratch(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                                      const compi_op_t *op, const compi_datatype_t *sdt,
                                      const void *src, size_t bytes)
{
    ptrdiff_t last = (ptrdiff_t)(count - 1) * dt->extent;
    ptrdiff_t lo = dt->true_lb + (last < 0 ? last : 0);
    ptrdiff_t hi = dt->true_lb + dt->true_extent + (last > 0 ? last : 0);
    size_t len = (size_t)(hi - lo);
    /* the target's copy starts at the next 16 bytes: the op engine reads whole pairs */
    size_t tgt_off = (len + 15) & ~(size_t)15;
    char *scratch = malloc(tg->local != NULL ? len : tgt_off + len);
    compi_status_t st;

    if (scratch == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    /* element starts: the datatype's blocks lie at lo.. past them, inside the scratch */
    char *obuf = scratch - lo;
    dt_copy(dt, obuf, sdt, src, 0, bytes);
    if (tg->local != NULL) {
        st = coll_op_apply(op, dt, obuf, tg->local, count);
    } else {
        char *tbuf = scratch + tgt_off - lo;
        st = cma_xfer(tg, dt, count, dt, tbuf, 0, bytes, 0);
        if (st == COMPI_OK) {
            st = coll_op_apply(op, dt, obuf, tbuf, count);
        }
        if (st == COMPI_OK) {
            st = cma_xfer(tg, dt, count, dt, tbuf, 0, bytes, 1);
        }
    }
    free(scratch);
    return st;
}

/* target = source op target, the accumulate lock held */
static compi_status_t combine(compi_win_t *w, const osc_target_t *tg, compi_datatype_t *dt,
                              size_t count, const compi_op_t *op, const compi_datatype_t *sdt,
                              const void *src, size_t bytes)
{
    if (op->handle == MPI_NO_OP || bytes == 0) {
        return COMPI_OK;
    }
    if (op->handle == MPI_REPLACE) {
        return osc_put(tg, dt, count, sdt, src, bytes);
    }
    if (op->handle == MPI_MINLOC || op->handle == MPI_MAXLOC) {
        return combine_scratch(tg, dt, count, op, sdt, src, bytes);
    }
    if (tg->local != NULL) {
        return dt_zip(dt, tg->local, sdt, src, 0, bytes, 1, op_step, (void *)op);
    }
    /* single copy: the target's stream a chunk at a time through the stack; the stretches
       take their basic types from the source's blocks (packed bytes of a contiguous type
       are laid out as that type) */
    if (sdt == NULL && dt->contig) {
        sdt = dt;
        src = (const char *)src - dt->true_lb;
    }
    _Alignas(64) char stack_chunk[OSC_CHUNK];
    char *chunk = stack_chunk;
    size_t clen = OSC_CHUNK;
    if (bytes > OSC_CHUNK) {
        /* fewer system calls through the window's scratch, made once and kept (nothing
           between the read and the write below lets another call of this process in) */
        size_t want = bytes < OSC_SCRATCH ? bytes : OSC_SCRATCH;
        if (w->scratch_len < want) {
            char *n = realloc(w->scratch, want);
            if (n != NULL) {
                w->scratch = n;
                w->scratch_len = want;
            }
        }
        if (w->scratch_len >= want) {
            chunk = w->scratch;
            clen = want;
        }
    }
    for (size_t off = 0; off < bytes;) {
        size_t e = chunk_end(dt, off, bytes, clen);
        compi_status_t st = cma_xfer(tg, dt, count, NULL, chunk, off, e - off, 0);
        if (st == COMPI_OK) {
            /* the chunk is the target's packed stream from off: by the target's blocks */
            st = dt_zip(NULL, chunk, sdt, src, off, e - off, 1, op_step, (void *)op);
        }
        if (st == COMPI_OK) {
            st = cma_xfer(tg, dt, count, NULL, chunk, off, e - off, 1);
        }
        if (st != COMPI_OK) {
            return st;
        }
        off = e;
    }
    return COMPI_OK;
}

static compi_status_t osc_accumulate(compi_win_t *w, const osc_target_t *tg, compi_datatype_t *dt,
                                     size_t count, const compi_op_t *op,
                                     const compi_datatype_t *sdt, const void *src,
                                     const compi_datatype_t *rdt, void *result)
{
    compi_status_t st = COMPI_OK;
    size_t bytes = count * dt->size;
    acc_lock(w, tg->t);
    if (result != NULL) {
        st = osc_get(tg, dt, count, rdt, result, bytes);
    }
    if (st == COMPI_OK) {
        st = combine(w, tg, dt, count, op, sdt, src, bytes);
    }
    acc_unlock(w, tg->t);
    return st;
}

/* ---- single-element atomics -------------------------------------------------------- */

/* the size of predefined integer dt when __atomic operations serve it, else 0 */
static size_t atomic_int_size(const compi_datatype_t *dt)
{
    static const MPI_Datatype ints[] = {
        MPI_CHAR,     MPI_SIGNED_CHAR,    MPI_UNSIGNED_CHAR, MPI_BYTE,
        MPI_SHORT,    MPI_UNSIGNED_SHORT, MPI_INT,           MPI_UNSIGNED,
        MPI_LONG,     MPI_UNSIGNED_LONG,  MPI_LONG_LONG,     MPI_UNSIGNED_LONG_LONG,
        MPI_INT8_T,   MPI_INT16_T,        MPI_INT32_T,       MPI_INT64_T,
        MPI_UINT8_T,  MPI_UINT16_T,       MPI_UINT32_T,      MPI_UINT64_T,
        MPI_AINT,     MPI_OFFSET,         MPI_COUNT,         MPI_INTEGER,
        MPI_INTEGER4, MPI_INTEGER8};
    if (!dt->predefined || (dt->size != 4 && dt->size != 8)) {
        return 0;
    }
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        if (dt->handle == ints[i]) {
            return dt->size;
        }
    }
    return 0;
}

#define ATOMIC_FOP(T)                                                                              \
    do {                                                                                           \
        T *a = (T *)(void *)tg->local, v = 0;                                                      \
        if (op->handle != MPI_NO_OP) { /* its origin may be NULL */                                \
            memcpy(&v, origin, sizeof(T));                                                         \
        }                                                                                          \
        T old;                                                                                     \
        switch (op->handle) {                                                                      \
        case MPI_SUM:                                                                              \
            old = __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                      \
            break;                                                                                 \
        case MPI_BAND:                                                                             \
            old = __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                      \
            break;                                                                                 \
        case MPI_BOR:                                                                              \
            old = __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                       \
            break;                                                                                 \
        case MPI_BXOR:                                                                             \
            old = __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                      \
            break;                                                                                 \
        case MPI_REPLACE:                                                                          \
            old = __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                     \
            break;                                                                                 \
        default: /* MPI_NO_OP */                                                                   \
            old = __atomic_load_n(a, __ATOMIC_SEQ_CST);                                            \
            break;                                                                                 \
        }                                                                                          \
        memcpy(result, &old, sizeof(T));                                                           \
    } while (0)

static int fop_atomic_ok(const compi_op_t *op)
{
    switch (op->handle) {
    case MPI_SUM:
    case MPI_BAND:
    case MPI_BOR:
    case MPI_BXOR:
    case MPI_REPLACE:
    case MPI_NO_OP:
        return 1;
    default:
        return 0;
    }
}

/* one element of predefined dt: result = target; target = origin op target.  The origin
   is laid out as odt, the result as rdt (NULL: packed bytes, as an active message carries
   them); a pair type has padding that the packed form lacks */
static compi_status_t osc_fetch_and_op(compi_win_t *w, const osc_target_t *tg, compi_datatype_t *dt,
                                       const compi_op_t *op, const compi_datatype_t *odt,
                                       const void *origin, const compi_datatype_t *rdt,
                                       void *result)
{
    size_t n = tg->local != NULL && fop_atomic_ok(op) ? atomic_int_size(dt) : 0;
    compi_status_t st = COMPI_OK;

    acc_lock(w, tg->t);
    if (n == 4) {
        ATOMIC_FOP(uint32_t);
    } else if (n == 8) {
        ATOMIC_FOP(uint64_t);
    } else {
        st = osc_get(tg, dt, 1, rdt, result, dt->size);
        if (st == COMPI_OK) {
            st = combine(w, tg, dt, 1, op, odt, origin, dt->size);
        }
    }
    acc_unlock(w, tg->t);
    return st;
}

/* one element: result = target; if target == compare, target = origin (origin and compare
   laid out as odt, the result as rdt; NULL: packed) */
static compi_status_t osc_compare_and_swap(compi_win_t *w, const osc_target_t *tg,
                                           compi_datatype_t *dt, const compi_datatype_t *odt,
                                           const void *origin, const void *compare,
                                           const compi_datatype_t *rdt, void *result)
{
    size_t n = tg->local != NULL ? atomic_int_size(dt) : 0;
    compi_status_t st = COMPI_OK;

    acc_lock(w, tg->t);
    if (n == 4) {
        uint32_t exp, des;
        memcpy(&exp, compare, 4);
        memcpy(&des, origin, 4);
        __atomic_compare_exchange_n((uint32_t *)(void *)tg->local, &exp, des, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        memcpy(result, &exp, 4); /* the old value, whether it matched or not */
    } else if (n == 8) {
        uint64_t exp, des;
        memcpy(&exp, compare, 8);
        memcpy(&des, origin, 8);
        __atomic_compare_exchange_n((uint64_t *)(void *)tg->local, &exp, des, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        memcpy(result, &exp, 8);
    } else {
        /* compared packed: the padding of a pair type is no part of the value */
        char old[OSC_ELEM_MAX], cmp[OSC_ELEM_MAX];
        if (dt->size > OSC_ELEM_MAX) {
            st = COMPI_ERR_INTERNAL;
        } else if ((st = osc_get(tg, dt, 1, NULL, old, dt->size)) == COMPI_OK) {
            dt_copy(NULL, cmp, odt, compare, 0, dt->size);
            dt_copy(rdt, result, NULL, old, 0, dt->size);
            if (memcmp(old, cmp, dt->size) == 0) {
                st = osc_put(tg, dt, 1, odt, origin, dt->size);
            }
        }
    }
    acc_unlock(w, tg->t);
    return st;
}

compi_status_t osc_apply(compi_win_t *w, const osc_target_t *tg, const osc_rma_t *a)
{
    size_t bytes = a->tcount * a->tdt->size;
    switch (a->kind) {
    case OSC_PUT:
        return osc_put(tg, a->tdt, a->tcount, a->odt, a->origin, bytes);
    case OSC_GET:
        return osc_get(tg, a->tdt, a->tcount, a->rdt, a->result, bytes);
    case OSC_ACC:
    case OSC_GACC:
        return osc_accumulate(w, tg, a->tdt, a->tcount, a->op, a->odt, a->origin, a->rdt,
                              a->kind == OSC_GACC ? a->result : NULL);
    case OSC_FOP:
        return osc_fetch_and_op(w, tg, a->tdt, a->op, a->odt, a->origin, a->rdt, a->result);
    case OSC_CAS:
        return osc_compare_and_swap(w, tg, a->tdt, a->odt, a->origin, a->compare, a->rdt,
                                    a->result);
    default:
        return COMPI_ERR_INTERNAL;
    }
}

compi_status_t osc_seg_rma(compi_win_t *w, const osc_rma_t *a, struct compi_request *req)
{
    osc_target_t tg;
    compi_status_t st = osc_target(w, a->t, a->disp, a->tdt, a->tcount, &tg);
    if (st == COMPI_OK) {
        st = osc_apply(w, &tg, a);
    }
    if (st == COMPI_OK && req != NULL) {
        pml_request_complete(req); /* done in the call */
    }
    return st;
}
