/*
 * win_state.c -- the API layer's windows (win_state.h): the handle table, making and
 * freeing the object that wraps a transport window.
 */
#include "config.h"

#include "core/mpi/win_state.h"

#include "core/mpi/info.h"

#include <stdlib.h>

handle_table_t win_table = HANDLE_TABLE_INIT(COMPI_HKIND_WIN, 1);

compi_status_t mpi_win_new(compi_win_t *osc, mpi_win_t **win_p)
{
    mpi_win_t *w = calloc(1, sizeof(*w));
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    if (w == NULL || (w->lock_type = calloc((size_t)osc->p, 1)) == NULL) {
        goto err;
    }
    w->osc = osc;
    w->info = MPI_INFO_NULL;
    w->handle = MPI_WIN_NULL;
    if ((st = handle_alloc(&win_table, w, &w->handle)) != COMPI_OK) {
        goto err;
    }
    w->errh = errh_predefined(ERRH_FATAL);
    errh_retain(w->errh);
    *win_p = w;
    return COMPI_OK;
err:
    if (w != NULL) {
        free(w->lock_type);
        free(w);
    }
    osc_win_free(osc);
    return st;
}

void mpi_win_free(mpi_win_t *w)
{
    if (w->info != MPI_INFO_NULL) {
        mpi_info_release(w->info);
    }
    errh_release(w->errh);
    osc_win_free(w->osc);
    handle_free(&win_table, w->handle);
    free(w->lock_type);
    free(w);
}

void mpi_win_finalize(void)
{
    /* windows the program never freed: their memory goes with the process; the table's
       own memory goes here */
    handle_table_destroy(&win_table);
}
