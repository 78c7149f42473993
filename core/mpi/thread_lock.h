/*
 * thread_lock.h -- the library's one critical section, for MPI_THREAD_MULTIPLE.
 *
 * At MPI_THREAD_MULTIPLE every API entry point takes one process-wide lock and gives it
 * back when it returns (COMPI_API_LOCK, which COMPI_CHECK_INIT includes, so every entry
 * that checks initialization is covered without a line of its own).  The lock is
 * recursive per thread (a depth in thread-local storage): callbacks the library runs
 * under it -- error handlers, attribute copy and delete functions, user reductions,
 * generalized requests' query and free -- may call MPI again.
 *
 * A thread that waits (MPI_Recv, MPI_Wait, a blocking collective's sends and receives,
 * the agreement at a closure-cache miss) waits in the PML's progress loop, which calls
 * compi_big_lock_yield after each round (pml_set_thread_yield): the lock is dropped,
 * the CPU is offered to a thread that wants the lock, and the lock is taken again.  So a
 * thread blocked in MPI_Recv never starves the thread whose MPI_Send it waits for, and
 * two threads in blocking collectives on two communicators both progress.  What one
 * thread holds across such a wait (its requests, its scratch, its closure) is its own:
 * the rest of the library's state is only touched with the lock held.
 *
 * Below MPI_THREAD_MULTIPLE nothing is taken: COMPI_API_LOCK reads one flag, set once by
 * MPI_Init_thread (or by MPI_T_init_thread asking for MPI_THREAD_MULTIPLE before the
 * library starts: the tools interface may then be called from any thread), and
 * branches.  Defined in core/mpi/init_api.c.
 */
#ifndef COMPI_MPI_THREAD_LOCK_H
#define COMPI_MPI_THREAD_LOCK_H

#include "core/include/compi_common.h"

/* 1 when MPI_Init_thread granted MPI_THREAD_MULTIPLE, or MPI_T_init_thread asked for it
   before the library started; never changes afterwards */
extern int compi_thread_multiple;

/* MPI_T_init_thread's request for MPI_THREAD_MULTIPLE: granted (the lock turned on) before
   the library starts, or when it runs at that level; returns compi_thread_multiple */
int compi_thread_multiple_early(void);

/* take the lock (again, if this thread holds it); returns 1 */
int compi_big_lock_enter(void);
/* give back one level */
void compi_big_lock_leave(void);
/* drop every level this thread holds, let a waiting thread in, take them back */
void compi_big_lock_yield(void);

static inline int compi_api_lock(void)
{
    return compi_unlikely(compi_thread_multiple) ? compi_big_lock_enter() : 0;
}

static inline void compi_api_unlock(int *taken)
{
    if (compi_unlikely(*taken)) {
        compi_big_lock_leave();
    }
}

/* At the top of an API function: held from here until the function returns, by any
   path (the variable's cleanup runs after the return value is computed). */
#define COMPI_API_LOCK()                                                                      \
    int compi__api_locked __attribute__((cleanup(compi_api_unlock), unused)) = compi_api_lock()

#endif
