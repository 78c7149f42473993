/*
 * win_sync_api.c -- the synchronisation of one-sided communication: MPI_Win_fence;
 * passive target (MPI_Win_lock, _unlock, _lock_all, _unlock_all, the flushes,
 * MPI_Win_sync); post-start-complete-wait (MPI_Win_post, _start, _complete, _wait, _test).
 *
 * The entry points are generated (core/mpi/gen/win_sync.c): they check each argument on
 * the window (core/mpi/win_args.h: a lock type, the assertions each call takes, a rank
 * of the window or MPI_PROC_NULL, a group).  The implementations check this rank's
 * epochs, then go through the window's
 * module (core/osc/osc.h): on the shared segment the flushes and the ends of epochs only
 * order memory (transfers are done in their calls); over active messages they wait for
 * the targets' acknowledgements.  MPI_Win_fence is a flush, then a barrier over the
 * window's communicator through the trampolines (like MPI_Barrier), then a memory fence.
 * This rank's epochs are tracked on the API's window (win_state.h) so that a transfer
 * outside one, or an end without its start, gives MPI_ERR_RMA_SYNC.
 */
#include "core/mpi/win_args.h"

#include <stdlib.h>

/* lock_type[t] and lock_all: how this rank holds the lock (NOCHECK: not taken at all) */
enum { HELD_SHARED = 1, HELD_EXCL = 2, HELD_NOCHECK = 4 };

int win_group_ranks(mpi_win_t *w, const compi_group_t *g, int **ranks_p, int *n_p, const char *fn)
{
    int *ranks = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    if (ranks == NULL) {
        return win_err(w, MPI_ERR_NO_MEM, fn, "no memory for the group's ranks");
    }
    for (int i = 0; i < g->size; i++) {
        ranks[i] = -1;
        for (int r = 0; r < w->osc->p; r++) {
            if (w->osc->comm->world_ranks[r] == g->world_ranks[i]) {
                ranks[i] = r;
                break;
            }
        }
        if (ranks[i] < 0) {
            free(ranks);
            return win_err(w, MPI_ERR_GROUP, fn, "member %d of the group is not in the window", i);
        }
    }
    *ranks_p = ranks;
    *n_p = g->size;
    return MPI_SUCCESS;
}

/* ---- fence ------------------------------------------------------------------------- */

static int win_fence_impl(int assert, mpi_win_t *w, const char *fn)
{
    if (w->nlocks > 0 || w->lock_all || w->osc->access != NULL || w->osc->exposure_open) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "a lock or post-start-complete-wait epoch is open");
    }
    /* this rank's stores to its window and its transfers come before the barrier, the
       others' after it (over active messages: every put and accumulate was applied) */
    compi_status_t st = osc_flush(w->osc, -1);
    int rc = PMPI_Barrier(w->osc->comm->handle);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (rc != MPI_SUCCESS) {
        return win_err(w, rc, fn, "the barrier failed");
    }
    w->fence_open = (assert &MPI_MODE_NOSUCCEED) == 0;
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_OTHER, fn, "a transfer of the epoch failed: %s",
                       compi_status_string(st));
    }
    return MPI_SUCCESS;
}

/* ---- passive target ---------------------------------------------------------------- */

static int win_lock_impl(int lock_type, int rank, int assert, mpi_win_t *w, const char *fn)
{
    if (rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (w->lock_type[rank] != 0 || w->lock_all) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "rank %d is locked already", rank);
    }
    int nocheck = (assert &MPI_MODE_NOCHECK) != 0;
    if (!nocheck) {
        osc_lock(w->osc, rank, lock_type);
    }
    w->lock_type[rank] = (unsigned char)((lock_type == MPI_LOCK_SHARED ? HELD_SHARED : HELD_EXCL) |
                                         (nocheck ? HELD_NOCHECK : 0));
    w->nlocks++;
    return MPI_SUCCESS;
}

static int win_unlock_impl(int rank, mpi_win_t *w, const char *fn)
{
    if (rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    int held = w->lock_type[rank];
    if (held == 0) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "rank %d is not locked (MPI_Win_lock first)", rank);
    }
    compi_status_t st = osc_flush(w->osc, rank);
    if ((held & HELD_NOCHECK) == 0) {
        osc_unlock(w->osc, rank, (held & HELD_EXCL) ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED);
    }
    w->lock_type[rank] = 0;
    w->nlocks--;
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_OTHER, fn, "a transfer of the epoch failed: %s",
                       compi_status_string(st));
    }
    return MPI_SUCCESS;
}

static int win_lock_all_impl(int assert, mpi_win_t *w, const char *fn)
{
    if (w->lock_all || w->nlocks > 0) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "a lock is held already");
    }
    int nocheck = (assert &MPI_MODE_NOCHECK) != 0;
    for (int t = 0; t < w->osc->p && !nocheck; t++) {
        osc_lock(w->osc, t, MPI_LOCK_SHARED);
    }
    w->lock_all = HELD_SHARED | (nocheck ? HELD_NOCHECK : 0);
    return MPI_SUCCESS;
}

static int win_unlock_all_impl(mpi_win_t *w, const char *fn)
{
    if (!w->lock_all) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "MPI_Win_lock_all was not called");
    }
    compi_status_t st = osc_flush(w->osc, -1);
    if ((w->lock_all & HELD_NOCHECK) == 0) {
        for (int t = 0; t < w->osc->p; t++) {
            osc_unlock(w->osc, t, MPI_LOCK_SHARED);
        }
    }
    w->lock_all = 0;
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_OTHER, fn, "a transfer of the epoch failed: %s",
                       compi_status_string(st));
    }
    return MPI_SUCCESS;
}

/* the flushes: within a passive-target epoch (of `rank`, or any when rank < 0) */
static int flush_any(mpi_win_t *w, int rank, int one, const char *fn)
{
    if (one && rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    int held = w->lock_all || (one ? w->lock_type[rank] != 0 : w->nlocks > 0);
    if (!held) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "no passive-target epoch is open%s",
                       one ? " on that rank" : "");
    }
    /* segment windows: the transfers are done, only memory needs ordering; active
       messages: wait for the targets' acknowledgements */
    compi_status_t st = osc_flush(w->osc, one ? rank : -1);
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_OTHER, fn, "a transfer failed: %s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

static int win_flush_impl(int rank, mpi_win_t *win, const char *fn)
{
    return flush_any(win, rank, 1, fn);
}

static int win_flush_all_impl(mpi_win_t *win, const char *fn)
{
    return flush_any(win, -1, 0, fn);
}

static int win_flush_local_impl(int rank, mpi_win_t *win, const char *fn)
{
    return flush_any(win, rank, 1, fn);
}

static int win_flush_local_all_impl(mpi_win_t *win, const char *fn)
{
    return flush_any(win, -1, 0, fn);
}

static int win_sync_impl(mpi_win_t *w, const char *fn)
{
    (void)fn;
    /* the public and private copies are one (MPI_WIN_UNIFIED): order memory; over active
       messages also serve what arrived, so a rank that polls its window with
       MPI_Win_sync sees the others' puts */
    osc_win_sync(w->osc);
    return MPI_SUCCESS;
}

/* ---- post-start-complete-wait ------------------------------------------------------ */

static int win_post_impl(compi_group_t *group, int assert, mpi_win_t *w, const char *fn)
{
    int rc, *ranks, n;
    if (w->osc->exposure_open) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "an exposure epoch is open already");
    }
    if ((rc = win_group_ranks(w, group, &ranks, &n, fn)) != MPI_SUCCESS) {
        return rc;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    osc_post(w->osc, ranks, n, (assert &MPI_MODE_NOCHECK) != 0);
    free(ranks);
    return MPI_SUCCESS;
}

static int win_start_impl(compi_group_t *group, int assert, mpi_win_t *w, const char *fn)
{
    int rc, *ranks, n;
    if (w->osc->access != NULL) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "an access epoch is open already");
    }
    if ((rc = win_group_ranks(w, group, &ranks, &n, fn)) != MPI_SUCCESS) {
        return rc;
    }
    osc_start(w->osc, ranks, n, (assert &MPI_MODE_NOCHECK) != 0);
    w->osc->access = ranks;
    w->osc->naccess = n;
    return MPI_SUCCESS;
}

static int win_complete_impl(mpi_win_t *w, const char *fn)
{
    if (w->osc->access == NULL) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "no access epoch (MPI_Win_start first)");
    }
    osc_complete(w->osc);
    free(w->osc->access);
    w->osc->access = NULL;
    w->osc->naccess = 0;
    return MPI_SUCCESS;
}

static int win_wait_impl(mpi_win_t *w, const char *fn)
{
    if (!w->osc->exposure_open) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "no exposure epoch (MPI_Win_post first)");
    }
    osc_wait(w->osc);
    return MPI_SUCCESS;
}

static int win_test_impl(mpi_win_t *w, int *flag, const char *fn)
{
    if (!w->osc->exposure_open) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn, "no exposure epoch (MPI_Win_post first)");
    }
    *flag = osc_test(w->osc);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/win_sync.c"
