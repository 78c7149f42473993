/*
 * errors.h -- raising MPI errors at the API layer.
 *
 * Internal code returns compi_status_t; only the API layer (core/mpi/) turns problems
 * into MPI error classes and calls the communicator's error handler:
 *
 *     if (count < 0)
 *         return mpi_err_raise(comm, MPI_ERR_COUNT, __func__, "count=%d is negative", count);
 *
 * mpi_err_raise() invokes the handler of `comm` (MPI_COMM_WORLD's when comm is NULL):
 * MPI_ERRORS_ARE_FATAL prints "compi: MPI_Send: MPI_ERR_COUNT: count=-1 is negative"
 * (rank and host prefixed) and aborts the job; MPI_ERRORS_RETURN returns the class;
 * user handlers are called with the class.  The function name passed is the MPI_ name
 * (PMPI_Send reports as MPI_Send).
 */
#ifndef COMPI_ERRORS_H
#define COMPI_ERRORS_H

#include "core/include/compi_status.h"

#include <mpi.h>

struct compi_comm;

int mpi_err_raise(struct compi_comm *comm, int errclass, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* MPI error class for an internal status */
int mpi_err_class_of(compi_status_t st);

/* error checks before MPI_Init / after MPI_Finalize: prints and aborts */
int mpi_err_not_initialized(const char *func);

/* mpi_err_raise with the message already written (MPI_Comm_call_errhandler) */
int mpi_err_invoke(struct compi_comm *comm, int errclass, const char *func, const char *what);

/* error classes: valid code?, "MPI_ERR_RANK", "invalid rank" */
int mpi_err_code_valid(int code);
const char *mpi_err_class_name(int code);
const char *mpi_err_class_text(int code);

#endif
