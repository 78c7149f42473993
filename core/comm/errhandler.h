/*
 * errhandler.h -- error handler objects (MPI_Errhandler).
 *
 * Ownership: error handlers are refcounted.  The three predefined ones
 * (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ABORT) are static and never freed;
 * a user handler is freed when MPI_Errhandler_free has dropped the user's reference and
 * no communicator uses it any more.
 */
#ifndef COMPI_ERRHANDLER_H
#define COMPI_ERRHANDLER_H

#include "core/comm/comm.h"

/* registers the predefined handlers in errh_table (called by comm_init); errh_finalize
   frees the table (called by comm_finalize) */
compi_status_t errh_init(void);
void errh_finalize(void);

compi_errhandler_t *errh_predefined(int kind); /* ERRH_FATAL, ERRH_RETURN or ERRH_ABORT */

/* a user handler with a handle; the caller owns one reference */
compi_status_t errh_create(MPI_Comm_errhandler_function *fn, compi_errhandler_t **errh_p);
void errh_retain(compi_errhandler_t *errh);
void errh_release(compi_errhandler_t *errh);

#endif
