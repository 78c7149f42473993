/*
 * win_args.h -- what the API files of one-sided communication share (win_api.c,
 * rma_api.c, win_sync_api.c): a window's errors go to the window's error handler, and
 * the checks of a window handle and of a target rank.  The mpi_arg_win* checks are the
 * generated entry points' vocabulary (tools/mpigen/cgen.py) for the arguments of a
 * procedure whose errors go to a window: they are core/mpi/args.h's, raised on the window.
 *
 * Ownership: nothing here owns anything.
 */
#ifndef COMPI_MPI_WIN_ARGS_H
#define COMPI_MPI_WIN_ARGS_H

#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/win_state.h"
#include "core/op/op.h"

#include <stdarg.h>
#include <stdio.h>

/* raise errclass on w's error handler (no window: MPI_COMM_WORLD's) */
static inline int win_err(mpi_win_t *w, int errclass, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int win_err(mpi_win_t *w, int errclass, const char *fn, const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (w == NULL || w->errh == NULL) {
        return mpi_err_invoke(NULL, errclass, fn, what);
    }
    return mpi_err_invoke_errh(w->errh, w->handle, errclass, fn, what);
}

/* the window behind h, or NULL with MPI_ERR_WIN raised into *rc */
static inline mpi_win_t *win_arg(MPI_Win h, const char *fn, int *rc)
{
    mpi_win_t *w = win_from_handle(h);
    *rc = MPI_SUCCESS;
    if (w == NULL) {
        *rc = mpi_err_raise(NULL, MPI_ERR_WIN, fn, "invalid window handle 0x%x%s", (unsigned)h,
                            h == MPI_WIN_NULL ? " (MPI_WIN_NULL)" : "");
    }
    return w;
}

/* a rank of the window, or MPI_PROC_NULL when proc_null_ok */
static inline int win_rank_check(mpi_win_t *w, int rank, int proc_null_ok, const char *fn)
{
    if ((rank == MPI_PROC_NULL && proc_null_ok) || (rank >= 0 && rank < w->osc->p)) {
        return MPI_SUCCESS;
    }
    return win_err(w, MPI_ERR_RANK, fn, "rank=%d is not a rank of the window (size %d)", rank,
                   w->osc->p);
}

/*
 * The checks of the generated entry points of a window's procedures (cgen.py): the window
 * first (MPI_ERR_WIN, on MPI_COMM_WORLD: there is no window to raise it on), then each
 * argument in order, raised on the window's error handler.
 */
static inline int mpi_arg_win(MPI_Win h, const char *fn, mpi_win_t **w_p)
{
    int rc;
    *w_p = win_arg(h, fn, &rc);
    return rc;
}

/* a count of elements: not negative (MPI_ERR_COUNT) */
static inline int mpi_arg_win_count(mpi_win_t *w, MPI_Count count, const char *what, const char *fn)
{
    if (compi_unlikely(count < 0)) {
        return win_err(w, MPI_ERR_COUNT, fn, "%s=%lld is negative", what, (long long)count);
    }
    return MPI_SUCCESS;
}

/* the datatype of a buffer: valid and committed (MPI_ERR_TYPE) */
static inline int mpi_arg_win_type(mpi_win_t *w, MPI_Datatype h, const char *what, const char *fn,
                                   compi_datatype_t **dt_p)
{
    compi_datatype_t *dt = dt_from_handle(h);
    if (compi_unlikely(dt == NULL || h == MPI_DATATYPE_NULL)) {
        return win_err(w, MPI_ERR_TYPE, fn, "invalid %s (handle 0x%x)", what, (unsigned)h);
    }
    if (compi_unlikely(!dt->committed && !dt->predefined)) {
        return win_err(w, MPI_ERR_TYPE, fn, "%s %s is not committed", what, dt_name(dt));
    }
    *dt_p = dt;
    return MPI_SUCCESS;
}

/* A buffer that data goes to or comes from when target_rank is not MPI_PROC_NULL: not
   NULL with data (MPI_ERR_BUFFER), but as MPI_BOTTOM with a datatype of absolute
   addresses (true lower bound not 0). */
static inline int mpi_arg_win_buf(mpi_win_t *w, const void *buf, size_t count,
                                  const compi_datatype_t *dt, int target_rank, const char *what,
                                  const char *fn)
{
    if (compi_unlikely(buf == NULL && target_rank != MPI_PROC_NULL && count > 0 && dt->size > 0 &&
                       dt->true_lb == 0)) {
        return win_err(w, MPI_ERR_BUFFER, fn, "%s is NULL with %zu elements", what, count);
    }
    return MPI_SUCCESS;
}

/* a target rank: a rank of the window or MPI_PROC_NULL (MPI_ERR_RANK) */
static inline int mpi_arg_win_rank(mpi_win_t *w, int rank, const char *fn)
{
    return win_rank_check(w, rank, 1, fn);
}

/* a displacement into the target's window: not negative but in a dynamic window, whose
   displacements are addresses (MPI_ERR_DISP); nothing for MPI_PROC_NULL */
static inline int mpi_arg_win_disp(mpi_win_t *w, int target_rank, MPI_Aint disp, const char *fn)
{
    if (compi_unlikely(disp < 0 && target_rank != MPI_PROC_NULL &&
                       w->attr_flavor != MPI_WIN_FLAVOR_DYNAMIC)) {
        return win_err(w, MPI_ERR_DISP, fn, "target_disp=%ld is negative", (long)disp);
    }
    return MPI_SUCCESS;
}

/* the operation of an accumulate: a predefined one (MPI_ERR_OP); user operations are not
   allowed in one-sided communication */
static inline int mpi_arg_win_op(mpi_win_t *w, MPI_Op h, const char *fn, compi_op_t **op_p)
{
    compi_op_t *op = op_from_handle(h);
    if (compi_unlikely(op == NULL || h == MPI_OP_NULL || !op->predefined)) {
        return win_err(w, MPI_ERR_OP, fn,
                       "op 0x%x is not a predefined operation (user ops are not allowed in "
                       "accumulates)",
                       (unsigned)h);
    }
    *op_p = op;
    return MPI_SUCCESS;
}

/* a pointer the procedure writes its result through (MPI_ERR_ARG) */
static inline int mpi_arg_win_ptr(mpi_win_t *w, const void *p, const char *what, const char *fn)
{
    if (compi_unlikely(p == NULL)) {
        return win_err(w, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    return MPI_SUCCESS;
}

/* a lock type: MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE (MPI_ERR_LOCKTYPE) */
static inline int mpi_arg_win_lock_type(mpi_win_t *w, int lock_type, const char *fn)
{
    if (compi_unlikely(lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)) {
        return win_err(w, MPI_ERR_LOCKTYPE, fn,
                       "lock_type=%d is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", lock_type);
    }
    return MPI_SUCCESS;
}

/* the assertions each synchronization call takes (MPI-4.1, 12.5.5; MPI_Win_fence also
   MPI_MODE_NOCHECK, which compi has always accepted there and ignores) */
#define MPI_ARG_WIN_MODES_FENCE                                                                    \
    (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)
#define MPI_ARG_WIN_MODES_LOCK MPI_MODE_NOCHECK
#define MPI_ARG_WIN_MODES_LOCK_ALL MPI_MODE_NOCHECK
#define MPI_ARG_WIN_MODES_POST (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)
#define MPI_ARG_WIN_MODES_START MPI_MODE_NOCHECK

/* an assertion: only bits of `allowed`, those the call takes (MPI_ERR_ASSERT) */
static inline int mpi_arg_win_assert(mpi_win_t *w, int assert, int allowed, const char *fn)
{
    if (compi_unlikely((assert & ~allowed) != 0)) {
        return win_err(w, MPI_ERR_ASSERT, fn, "assert=0x%x holds bits this call does not take",
                       (unsigned)assert);
    }
    return MPI_SUCCESS;
}

/* a group (MPI_ERR_GROUP) */
static inline int mpi_arg_win_group(mpi_win_t *w, MPI_Group h, const char *fn, compi_group_t **g_p)
{
    compi_group_t *g = group_from_handle(h);
    if (compi_unlikely(g == NULL || h == MPI_GROUP_NULL)) {
        return win_err(w, MPI_ERR_GROUP, fn, "invalid group handle 0x%x", (unsigned)h);
    }
    *g_p = g;
    return MPI_SUCCESS;
}

/* a size in bytes: not negative (MPI_ERR_SIZE) */
static inline int mpi_arg_win_size(mpi_win_t *w, MPI_Aint size, const char *what, const char *fn)
{
    if (compi_unlikely(size < 0)) {
        return win_err(w, MPI_ERR_SIZE, fn, "%s=%ld is negative", what, (long)size);
    }
    return MPI_SUCCESS;
}

/* hints: MPI_INFO_NULL or a valid info (MPI_ERR_INFO) */
static inline int mpi_arg_win_info(mpi_win_t *w, MPI_Info info, const char *fn)
{
    if (compi_unlikely(info != MPI_INFO_NULL && !mpi_info_valid(info))) {
        return win_err(w, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    }
    return MPI_SUCCESS;
}

/* an error handler (MPI_ERR_ERRHANDLER) */
static inline int mpi_arg_win_errhandler(mpi_win_t *w, MPI_Errhandler h, const char *fn,
                                         compi_errhandler_t **e_p)
{
    compi_errhandler_t *e = errh_from_handle(h);
    if (compi_unlikely(e == NULL)) {
        return win_err(w, MPI_ERR_ERRHANDLER, fn, "invalid error handler handle 0x%x", (unsigned)h);
    }
    *e_p = e;
    return MPI_SUCCESS;
}

/* an access epoch of this rank covers target t: a fence, a lock on t or lock_all, or an
   MPI_Win_start whose group holds t */
static inline int win_access_ok(const mpi_win_t *w, int t)
{
    if (w->fence_open || w->lock_all || w->lock_type[t] != 0) {
        return 1;
    }
    for (int i = 0; i < w->osc->naccess; i++) {
        if (w->osc->access[i] == t) {
            return 1;
        }
    }
    return 0;
}

/* the window ranks of a group's members (MPI_ERR_GROUP raised when one is not in the
   window); *ranks_p is the caller's to free */
int win_group_ranks(mpi_win_t *w, const compi_group_t *g, int **ranks_p, int *n_p, const char *fn);

#endif
