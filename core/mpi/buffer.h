/*
 * buffer.h -- what session_api.c and buffer_api.c tell each other about the buffers
 * attached to sessions (MPI_Session_attach_buffer).
 *
 * Ownership: buffer_api.c owns each session's pml_bsend_buf_t; the memory attached is the
 * user's.
 */
#ifndef COMPI_MPI_BUFFER_H
#define COMPI_MPI_BUFFER_H

#include <mpi.h>

/* session_api.c: a session, and the checks of the entry points of its procedures (the
   session first: MPI_ERR_SESSION; then the pointers they read or write through:
   MPI_ERR_ARG), for those of its buffer (core/mpi/gen/session_buffer.c) */
typedef struct session session_t;
int mpi_arg_session(MPI_Session h, const char *fn, session_t **s_p);
int mpi_arg_session_ptr(session_t *s, const void *p, const char *what, const char *fn);
/* an error raised on the session's error handler: its class, or what the handler returned */
int mpi_session_raise(session_t *s, int errclass, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* the index (from 1) of a session in use */
int mpi_session_index_of(const session_t *s);

/* buffer_api.c: a session ends (MPI_Session_finalize): its buffer's sends leave, and the
   buffer is detached */
void mpi_session_buffer_end(int index);

#endif
