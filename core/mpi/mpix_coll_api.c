/*
 * mpix_coll_api.c -- compi's extensions for the collectives: MPIX_Coll_reconfigure and
 * MPIX_Coll_flush (include/mpi.h, docs/mpi_t.md).  The MPI_T control variables coll_config
 * and coll_flush (mpit_api.c) do the same through the tool interface.
 */
#include "core/mpi/args.h"
#include "trampolines/tramp.h"

int MPIX_Coll_reconfigure(MPI_Comm comm, const char *config_list)
{
    static const char fn[] = "MPIX_Coll_reconfigure";
    COMPI_API_LOCK();
    COMPI_CHECK_INIT_HELD(fn);
    compi_comm_t *c = NULL;
    int rc = mpi_arg_comm(comm, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (config_list == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "config_list is NULL");
    }
    compi_status_t st = tramp_reconfigure(c, config_list);
    if (st == COMPI_OK) {
        return MPI_SUCCESS;
    }
    /* the same text on every rank; the lowest failing rank reports it when fatal */
    int report = 1;
    const char *what = tramp_error_take(&report);
    return mpi_err_raise_text(c, mpi_err_class_of(st), fn,
                              what != NULL ? what : compi_status_string(st), report);
}

int MPIX_Coll_flush(MPI_Comm comm)
{
    static const char fn[] = "MPIX_Coll_flush";
    COMPI_API_LOCK();
    COMPI_CHECK_INIT_HELD(fn);
    compi_comm_t *c = NULL;
    int rc = mpi_arg_comm(comm, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    tramp_flush(c);
    return MPI_SUCCESS;
}
