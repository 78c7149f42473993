/*
 * buffer_api.c -- buffers for buffered sends attached to a communicator or a session
 * (MPI 4.1): MPI_Comm_attach_buffer, _detach_buffer, _flush_buffer, _iflush_buffer and
 * their MPI_Session_ twins, with the large-count forms of attach and detach.
 * MPI_Buffer_attach and its kin (pt2pt_api.c) do the same for the process's buffer.
 *
 * The PML keeps each buffer (core/pml/pml_bsend.c): MPI_Bsend on a communicator takes
 * the communicator's buffer when one is attached, else the process's.  A session's
 * buffer is attached, detached and flushed as the standard says, and MPI_Session_finalize
 * waits for its sends; but compi does not record which session a communicator was made
 * from (process sets' groups are those of MPI_COMM_WORLD and MPI_COMM_SELF, shared by
 * every session), so no buffered send takes a session's buffer: it takes the
 * communicator's or the process's.  The entry points of both are generated
 * (core/mpi/gen/buffer.c and gen/session_buffer.c, included last): the errors of a
 * communicator's calls are raised on the communicator, those of a session's on the session
 * (but for a request handle the iflush cannot allocate: on MPI_COMM_WORLD's handler).
 *
 * MPI_BUFFER_AUTOMATIC attached instead of memory: every buffered send is copied to
 * memory the library allocates, without a limit; detach gives MPI_BUFFER_AUTOMATIC back
 * with size 0.  Detaching where nothing is attached gives NULL and 0, as MPI_Buffer_detach
 * does.
 *
 * Ownership: a communicator's pml_bsend_buf_t is made at its first attach and released
 * with the communicator (pml_comm_del); a session's lives as long as the process (one per
 * session slot, reused).  The memory attached is the user's.
 */
#include "core/mpi/args.h"
#include "core/mpi/buffer.h"
#include "core/mpi/req_handle.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

COMPI_STATIC_ASSERT(PML_BSEND_AUTOMATIC == MPI_BUFFER_AUTOMATIC,
                    "the PML's automatic buffer is not MPI_BUFFER_AUTOMATIC");

/* each session's buffer, by session index (mpi_session_index_of); grown on demand */
static pml_bsend_buf_t **session_bufs;
static int n_session_bufs;

/* whose buffer a call works on, and where it raises its errors: a communicator, or a
   session (comm NULL) */
typedef struct buffer_owner {
    compi_comm_t *comm;
    session_t *session;
} buffer_owner_t;

static int buffer__raise(buffer_owner_t o, int errclass, const char *fn, const char *what)
{
    return o.session != NULL ? mpi_session_raise(o.session, errclass, fn, "%s", what)
                             : mpi_err_raise(o.comm, errclass, fn, "%s", what);
}

/* the slot of `c`'s buffer, or an error raised */
static int buffer__comm_slot(compi_comm_t *c, pml_bsend_buf_t ***slot_p, const char *fn)
{
    *slot_p = pml_comm_bsend_buf(c);
    if (*slot_p == NULL) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn, "the communicator cannot send");
    }
    return MPI_SUCCESS;
}

/* the slot of session s's buffer, or an error raised on it */
static int buffer__session_slot(session_t *s, pml_bsend_buf_t ***slot_p, const char *fn)
{
    int idx = mpi_session_index_of(s);
    if (idx >= n_session_bufs) {
        pml_bsend_buf_t **grown = realloc(session_bufs, (size_t)(idx + 1) * sizeof(*grown));
        if (grown == NULL) {
            return mpi_session_raise(s, MPI_ERR_NO_MEM, fn, "out of memory");
        }
        for (int i = n_session_bufs; i <= idx; i++) {
            grown[i] = NULL;
        }
        session_bufs = grown;
        n_session_bufs = idx + 1;
    }
    *slot_p = &session_bufs[idx];
    return MPI_SUCCESS;
}

/* the memory attached to a session and its size (MPI_ERR_BUFFER, as mpi_arg_attach) */
static int mpi_arg_session_attach(session_t *s, const void *buffer, MPI_Count size, const char *fn)
{
    if (compi_unlikely(!mpi_attach_valid(buffer, size))) {
        return mpi_session_raise(s, MPI_ERR_BUFFER, fn, "invalid buffer %p of size %lld", buffer,
                                 (long long)size);
    }
    return MPI_SUCCESS;
}

static int buffer__attach(buffer_owner_t o, pml_bsend_buf_t **slot, void *buffer, MPI_Count size,
                          const char *fn)
{
    if (*slot == NULL && (*slot = pml_bsend_buf_new()) == NULL) {
        return buffer__raise(o, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    if (pml_bsend_buf_attach(*slot, buffer, (size_t)size) != COMPI_OK) {
        return buffer__raise(o, MPI_ERR_BUFFER, fn, "a buffer is already attached");
    }
    return MPI_SUCCESS;
}

/* detach into *buffer_addr and *size_p; a size larger than the int form of the call (fn)
   holds is still detached, and MPI_ERR_VALUE_TOO_LARGE raised */
static int buffer__detach(buffer_owner_t o, pml_bsend_buf_t **slot, void *buffer_addr,
                          MPI_Count *size_p, const char *fn)
{
    MPI_Count max = mpi_fn_large(fn) ? LLONG_MAX : INT_MAX;
    void *buf = NULL;
    size_t size = 0;
    if (*slot != NULL) {
        pml_bsend_buf_detach(*slot, &buf, &size);
    }
    *(void **)buffer_addr = buf;
    *size_p = (MPI_Count)size;
    if ((MPI_Count)size > max) {
        char what[96];
        snprintf(what, sizeof(what), "the buffer detached has %zu bytes, more than an int holds",
                 size);
        return buffer__raise(o, MPI_ERR_VALUE_TOO_LARGE, fn, what);
    }
    return MPI_SUCCESS;
}

static int buffer__iflush(buffer_owner_t o, pml_bsend_buf_t **slot, MPI_Request *request,
                          const char *fn)
{
    compi_request_t *r;
    if (*slot == NULL && (*slot = pml_bsend_buf_new()) == NULL) {
        return buffer__raise(o, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    if (pml_bsend_buf_iflush(*slot, &r) != COMPI_OK) {
        return buffer__raise(o, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    return mpi_req_expose(o.comm, r, request, fn);
}

/* ---- a communicator's ------------------------------------------------------------- */

static int comm_attach_buffer_impl(compi_comm_t *comm, void *buffer, MPI_Count size, const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__comm_slot(comm, &slot, fn);
    return rc != MPI_SUCCESS
               ? rc
               : buffer__attach((buffer_owner_t){.comm = comm}, slot, buffer, size, fn);
}

static int comm_detach_buffer_impl(compi_comm_t *comm, void *buffer_addr, MPI_Count *size,
                                   const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__comm_slot(comm, &slot, fn);
    return rc != MPI_SUCCESS
               ? rc
               : buffer__detach((buffer_owner_t){.comm = comm}, slot, buffer_addr, size, fn);
}

static int comm_flush_buffer_impl(compi_comm_t *comm, const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__comm_slot(comm, &slot, fn);
    if (rc == MPI_SUCCESS && *slot != NULL) {
        pml_bsend_buf_flush(*slot);
    }
    return rc;
}

static int comm_iflush_buffer_impl(compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__comm_slot(comm, &slot, fn);
    return rc != MPI_SUCCESS ? rc
                             : buffer__iflush((buffer_owner_t){.comm = comm}, slot, request, fn);
}

/* ---- a session's ------------------------------------------------------------------- */

static int session_attach_buffer_impl(session_t *session, void *buffer, MPI_Count size,
                                      const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__session_slot(session, &slot, fn);
    return rc != MPI_SUCCESS
               ? rc
               : buffer__attach((buffer_owner_t){.session = session}, slot, buffer, size, fn);
}

static int session_detach_buffer_impl(session_t *session, void *buffer_addr, MPI_Count *size,
                                      const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__session_slot(session, &slot, fn);
    return rc != MPI_SUCCESS
               ? rc
               : buffer__detach((buffer_owner_t){.session = session}, slot, buffer_addr, size, fn);
}

static int session_flush_buffer_impl(session_t *session, const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__session_slot(session, &slot, fn);
    if (rc == MPI_SUCCESS && *slot != NULL) {
        pml_bsend_buf_flush(*slot);
    }
    return rc;
}

static int session_iflush_buffer_impl(session_t *session, MPI_Request *request, const char *fn)
{
    pml_bsend_buf_t **slot;
    int rc = buffer__session_slot(session, &slot, fn);
    return rc != MPI_SUCCESS
               ? rc
               : buffer__iflush((buffer_owner_t){.session = session}, slot, request, fn);
}

void mpi_session_buffer_end(int index)
{
    void *buf;
    size_t size;
    if (index > 0 && index < n_session_bufs && session_bufs[index] != NULL) {
        pml_bsend_buf_detach(session_bufs[index], &buf, &size);
    }
}

static void __attribute__((destructor)) session_bufs_free(void)
{
    for (int i = 0; i < n_session_bufs; i++) {
        pml_bsend_buf_release(session_bufs[i]);
    }
    free(session_bufs);
    session_bufs = NULL;
    n_session_bufs = 0;
}

#include "core/mpi/gen/buffer.c"
#include "core/mpi/gen/session_buffer.c"
