/*
 * win_state.h -- what the API layer keeps of a window: its handle, attributes, name,
 * hints, error handler, the values the predefined attributes point to, and this rank's
 * fence and lock epochs (checked before any call reaches the transport).  The transport's
 * window (core/osc: memory, segment, the module and its state) hangs on it.
 *
 * Ownership: mpi_win_new makes the object and its handle around a transport window it
 * takes over; mpi_win_free releases the hints, the error handler, the transport window
 * and the handle (the caller ran the attribute delete callbacks and synchronised first).
 */
#ifndef COMPI_MPI_WIN_STATE_H
#define COMPI_MPI_WIN_STATE_H

#include "core/comm/errhandler.h"
#include "core/osc/osc.h"
#include "core/runtime/handle.h"

#include <mpi.h>

typedef struct mpi_win {
    compi_win_t *osc; /* the transport's window (core/osc) */
    int handle;
    struct attr_list *attrs;
    char name[MPI_MAX_OBJECT_NAME];
    int info;                 /* MPI_Info handle of the hints, or MPI_INFO_NULL */
    compi_errhandler_t *errh; /* one reference */
    MPI_Aint attr_size;       /* the values the predefined attributes point to */
    int attr_disp_unit, attr_flavor, attr_model;
    /* this rank's epochs */
    int fence_open;           /* a fence opened an epoch that no NOSUCCEED fence closed */
    int lock_all;             /* MPI_Win_lock_all held (HELD_* bits) */
    unsigned char *lock_type; /* [p]: how each target is locked (HELD_* bits), 0 if not */
    int nlocks;               /* targets locked with MPI_Win_lock */
} mpi_win_t;

extern handle_table_t win_table;

static inline mpi_win_t *win_from_handle(MPI_Win h)
{
    return (mpi_win_t *)handle_get(&win_table, h);
}

/* the API's window around transport window `osc` (taken over, freed on failure) */
compi_status_t mpi_win_new(compi_win_t *osc, mpi_win_t **win_p);
void mpi_win_free(mpi_win_t *w);
/* windows the program never freed, and the table (MPI_Finalize) */
void mpi_win_finalize(void);

#endif
