/*
 * mpi_state.h -- where the process is in its MPI life (before Init, running, finalized).
 * Written only by core/mpi/init_api.c (MPI_Init, MPI_Finalize, and the sessions' start and end).
 */
#ifndef COMPI_MPI_STATE_H
#define COMPI_MPI_STATE_H

#include "core/include/compi_common.h"
#include "core/mpi/errors.h"
#include "core/mpi/thread_lock.h"

enum { COMPI_STATE_PRE_INIT = 0, COMPI_STATE_INITIALIZED = 1, COMPI_STATE_FINALIZED = 2 };
/* the library's state: up from the first of MPI_Init and MPI_Session_init to the last of
   MPI_Finalize and MPI_Session_finalize */
extern int compi_mpi_state;
/* the world model: 0 before MPI_Init, 1 after it, 2 after MPI_Finalize (MPI_Initialized,
   MPI_Finalized); the library may be up without it (sessions) */
extern int compi_world_model;

/* a session starts the library if nobody has (MPI_ERR_OTHER once it was finalized: it
   starts once per process) and counts as a user; *provided is the thread level */
int compi_lib_session_up(int required, int *provided, const char *fn);
/* a session ends; the last user finalizes the library (synchronising with every process) */
void compi_lib_session_down(void);

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

/* dynproc_api.c, at MPI_Init: a spawned world meets its parents (the parent
   intercommunicator); nothing for a world mpirun started */
compi_status_t mpi_dyn_init(void);

#endif
