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

/* session_api.c: the index (from 1) of a session in use, or 0 when h names none */
int mpi_session_index(MPI_Session h);

/* buffer_api.c: a session ends (MPI_Session_finalize): its buffer's sends leave, and the
   buffer is detached */
void mpi_session_buffer_end(int index);

#endif
