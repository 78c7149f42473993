/*
 * osc_rma.c -- the transfers of one-sided communication: put, get, the accumulates,
 * fetch-and-op and compare-and-swap, on segment memory by loads and stores, on the
 * user's memory of another process by single copy.
 *
 * The origin's data comes and goes packed (the API packs and unpacks the origin's
 * datatype); the target's datatype is walked here: dt_pack / dt_unpack where the target
 * memory is mapped, dt_to_iov of the target's address otherwise, so process_vm_readv /
 * writev touch exactly the target's blocks and never the gaps between them (another
 * origin may write there at the same time).
 *
 * An accumulate unpacks the origin's data into a scratch laid out as the target (the
 * target datatype's span), and the op engine combines it block by block into the target
 * memory, or into a copy read by single copy and written back; all under the target's
 * accumulate lock (osc.h says why every accumulate takes it).
 */
#include "config.h"

#include "core/osc/osc.h"

#include "core/runtime/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define OSC_IOV 64 /* iovecs per system call (well under IOV_MAX) */

/*
 * Single copy between this process and (dt, count) at tg->remote, bytes [0, bytes) of
 * the packed stream: the local side is the packed buffer `packed`, or (lbase != NULL)
 * memory laid out as the target at lbase.
 */
static compi_status_t cma_xfer(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                               char *packed, char *lbase, size_t bytes, int write)
{
    struct iovec riov[OSC_IOV], liov[OSC_IOV];
    size_t off = 0;

    while (off < bytes) {
        size_t got = 0, lgot = 0;
        int n = dt_to_iov(dt, (void *)(uintptr_t)tg->remote, count, off, bytes - off, riov, OSC_IOV,
                          &got);
        int nl = 1;
        if (n <= 0 || got == 0) {
            return COMPI_ERR_INTERNAL;
        }
        if (lbase != NULL) {
            nl = dt_to_iov(dt, lbase, count, off, got, liov, OSC_IOV, &lgot);
        } else {
            liov[0] = (struct iovec){.iov_base = packed + off, .iov_len = got};
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

compi_status_t osc_put(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                       const void *packed, size_t bytes)
{
    if (bytes == 0) {
        return COMPI_OK;
    }
    if (tg->local != NULL) {
        dt_unpack(dt, tg->local, count, 0, packed, bytes);
        return COMPI_OK;
    }
    return cma_xfer(tg, dt, count, (char *)packed, NULL, bytes, 1);
}

compi_status_t osc_get(const osc_target_t *tg, compi_datatype_t *dt, size_t count, void *packed,
                       size_t bytes)
{
    if (bytes == 0) {
        return COMPI_OK;
    }
    if (tg->local != NULL) {
        dt_pack(dt, tg->local, count, 0, packed, bytes);
        return COMPI_OK;
    }
    return cma_xfer(tg, dt, count, packed, NULL, bytes, 0);
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

/* target = origin op target, the accumulate lock held */
static compi_status_t combine(const osc_target_t *tg, compi_datatype_t *dt, size_t count,
                              const compi_op_t *op, const void *packed, size_t bytes)
{
    if (op->handle == MPI_NO_OP || bytes == 0) {
        return COMPI_OK;
    }
    if (op->handle == MPI_REPLACE) {
        return osc_put(tg, dt, count, packed, bytes);
    }
    ptrdiff_t last = (ptrdiff_t)(count - 1) * dt->extent;
    ptrdiff_t lo = dt->true_lb + (last < 0 ? last : 0);
    ptrdiff_t hi = dt->true_lb + dt->true_extent + (last > 0 ? last : 0);
    size_t len = (size_t)(hi - lo);
    char *scratch = malloc(tg->local != NULL ? len : 2 * len);
    compi_status_t st;

    if (scratch == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    /* element starts: the datatype's blocks lie at lo.. past them, inside the scratch */
    char *obuf = scratch - lo;
    dt_unpack(dt, obuf, count, 0, packed, bytes);
    if (tg->local != NULL) {
        st = coll_op_apply(op, dt, obuf, tg->local, count);
    } else {
        char *tbuf = scratch + len - lo;
        st = cma_xfer(tg, dt, count, NULL, tbuf, bytes, 0);
        if (st == COMPI_OK) {
            st = coll_op_apply(op, dt, obuf, tbuf, count);
        }
        if (st == COMPI_OK) {
            st = cma_xfer(tg, dt, count, NULL, tbuf, bytes, 1);
        }
    }
    free(scratch);
    return st;
}

compi_status_t osc_accumulate(compi_win_t *w, const osc_target_t *tg, compi_datatype_t *dt,
                              size_t count, const compi_op_t *op, const void *packed, size_t bytes,
                              void *result)
{
    compi_status_t st = COMPI_OK;
    acc_lock(w, tg->t);
    if (result != NULL) {
        st = osc_get(tg, dt, count, result, count * dt->size);
    }
    if (st == COMPI_OK) {
        st = combine(tg, dt, count, op, packed, bytes);
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

compi_status_t osc_fetch_and_op(compi_win_t *w, const osc_target_t *tg, compi_datatype_t *dt,
                                const compi_op_t *op, const void *origin, void *result)
{
    size_t n = tg->local != NULL && fop_atomic_ok(op) ? atomic_int_size(dt) : 0;
    compi_status_t st = COMPI_OK;

    acc_lock(w, tg->t);
    if (n == 4) {
        ATOMIC_FOP(uint32_t);
    } else if (n == 8) {
        ATOMIC_FOP(uint64_t);
    } else {
        st = osc_get(tg, dt, 1, result, dt->size);
        if (st == COMPI_OK) {
            st = combine(tg, dt, 1, op, origin, dt->size);
        }
    }
    acc_unlock(w, tg->t);
    return st;
}

compi_status_t osc_compare_and_swap(compi_win_t *w, const osc_target_t *tg, compi_datatype_t *dt,
                                    const void *origin, const void *compare, void *result)
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
        st = osc_get(tg, dt, 1, result, dt->size);
        if (st == COMPI_OK && memcmp(result, compare, dt->size) == 0) {
            st = osc_put(tg, dt, 1, origin, dt->size);
        }
    }
    acc_unlock(w, tg->t);
    return st;
}
