/*
 * mpix_coll_api.c -- compi's extensions for the collectives: MPIX_Coll_reconfigure and
 * MPIX_Coll_flush (include/mpi.h, docs/mpi_t.md).  The MPI_T control variables coll_config
 * and coll_flush (mpit_api.c) do the same through the tool interface.
 */
#include "core/comm/comm.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "trampolines/tramp.h"

static int mpix_comm(const char *func, MPI_Comm h, compi_comm_t **c_p)
{
    COMPI_CHECK_INIT_HELD(func);
    *c_p = comm_from_handle(h);
    if (*c_p == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_COMM, func,
                             h == MPI_COMM_NULL ? "communicator is MPI_COMM_NULL"
                                                : "invalid communicator handle");
    }
    return MPI_SUCCESS;
}

int MPIX_Coll_reconfigure(MPI_Comm comm, const char *config_list)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    int rc = mpix_comm("MPIX_Coll_reconfigure", comm, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (config_list == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPIX_Coll_reconfigure", "config_list is NULL");
    }
    compi_status_t st = tramp_reconfigure(c, config_list);
    if (st == COMPI_OK) {
        return MPI_SUCCESS;
    }
    /* the same text on every rank; the lowest failing rank reports it when fatal */
    int report = 1;
    const char *what = tramp_error_take(&report);
    return mpi_err_raise_text(c, mpi_err_class_of(st), "MPIX_Coll_reconfigure",
                              what != NULL ? what : compi_status_string(st), report);
}

int MPIX_Coll_flush(MPI_Comm comm)
{
    COMPI_API_LOCK();
    compi_comm_t *c;
    int rc = mpix_comm("MPIX_Coll_flush", comm, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    tramp_flush(c);
    return MPI_SUCCESS;
}
