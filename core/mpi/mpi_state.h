/*
 * mpi_state.h -- where the process is in its MPI life (before Init, running, finalized).
 * Written only by MPI_Init, MPI_Init_thread and MPI_Finalize (core/mpi/init_api.c).
 */
#ifndef COMPI_MPI_STATE_H
#define COMPI_MPI_STATE_H

#include "core/include/compi_common.h"
#include "core/mpi/errors.h"
#include "core/mpi/thread_lock.h"

enum { COMPI_STATE_PRE_INIT = 0, COMPI_STATE_INITIALIZED = 1, COMPI_STATE_FINALIZED = 2 };
extern int compi_mpi_state;

/* the same check in a helper whose callers (API functions) took the lock already */
#define COMPI_CHECK_INIT_HELD(fname)                                                          \
    do {                                                                                      \
        if (compi_unlikely(compi_mpi_state != COMPI_STATE_INITIALIZED))                       \
            return mpi_err_not_initialized(fname);                                            \
    } while (0)

/* checked at the top of every API function that needs an initialized library; it also
   takes the library's lock at MPI_THREAD_MULTIPLE (core/mpi/thread_lock.h) until the
   function returns, so it is a declaration: write it first in the function's body */
#define COMPI_CHECK_INIT(fname)                                                               \
    COMPI_API_LOCK();                                                                         \
    do {                                                                                      \
        if (compi_unlikely(compi_mpi_state != COMPI_STATE_INITIALIZED))                       \
            return mpi_err_not_initialized(fname);                                            \
    } while (0)

#endif
