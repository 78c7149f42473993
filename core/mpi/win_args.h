/*
 * win_args.h -- what the API files of one-sided communication share (win_api.c,
 * rma_api.c, win_sync_api.c): a window's errors go to the window's error handler, and
 * the checks of a window handle and of a target rank.
 *
 * Ownership: nothing here owns anything.
 */
#ifndef COMPI_MPI_WIN_ARGS_H
#define COMPI_MPI_WIN_ARGS_H

#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/win_state.h"

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
int win_group_ranks(mpi_win_t *w, MPI_Group group, int **ranks_p, int *n_p, const char *fn);

#endif
