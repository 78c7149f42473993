/*
 * pml.h -- point-to-point messaging layer (in the mould of Open MPI's ob1).
 *
 * Matching on (context id, source, tag) with MPI's non-overtaking order; an eager
 * protocol for small messages (header + data in one BTL fragment) and a rendezvous
 * protocol for large ones: single copy through btl->get when the BTL offers it; for
 * contiguous messages of pml_split_min bytes or more, a cooperative copy in which the
 * receiver gets the first part while the sender puts the second (both cores copy);
 * else a pipeline of fragments after the receiver's acknowledgement.  Synchronous
 * sends always take the rendezvous path, so they complete only once matched.
 *
 * Ranks in this interface are ranks in `comm`; the PML maps them to world ranks and BTL
 * endpoints.  Tags >= 0 are the user's; negative tags are library traffic (see comm.h)
 * and are never matched by MPI_ANY_TAG.
 *
 * Ownership: requests come from the PML's pool; pml_request_free() returns them.  The
 * PML retains the datatype and communicator of a request until it completes.  The
 * caller owns the buffers and must not touch them before completion.
 */
#ifndef COMPI_PML_H
#define COMPI_PML_H

#include "core/include/compi_status.h"
#include "core/comm/comm.h"
#include "core/dt/dt.h"

#include <mpi.h>
#include <stddef.h>

typedef enum {
    PML_SEND_STANDARD,
    PML_SEND_SYNC,
    PML_SEND_READY,
    PML_SEND_BUFFERED
} pml_send_mode_t;

enum { REQ_SEND = 1, REQ_RECV, REQ_GREQ, REQ_COLL };

typedef struct compi_request {
    volatile int complete;  /* set last (release) when the operation is done */
    unsigned char kind;     /* REQ_* */
    unsigned char persistent;
    unsigned char active;   /* persistent: started, not yet completed by wait/test */
    unsigned char user_freed; /* MPI_Request_free while in flight: release at completion */
    int handle;             /* MPI handle, MPI_REQUEST_NULL when not exposed */
    MPI_Status status;
    compi_comm_t *comm;     /* for the error handler; retained */
    void *owner;            /* persistent REQ_COLL: its schedule (core/coll/sched) */
} compi_request_t;

/* a matched-but-not-received message (MPI_Mprobe) */
typedef struct compi_message compi_message_t;

extern handle_table_t req_table;
static inline compi_request_t *req_from_handle(MPI_Request h)
{
    return (compi_request_t *)handle_get(&req_table, h);
}

/* after rte_init: opens the BTLs and connects to every peer of the job */
compi_status_t pml_init(void);
compi_status_t pml_finalize(void);
/* endpoints for peers of other worlds (indices from rte_peer_add) not yet connected; the
   other side must add us at about the same time (the BTLs attach in both directions) */
compi_status_t pml_add_peers(int n, const int *peers);

/* called by comm.c when a communicator appears / goes (context ids) */
compi_status_t pml_comm_add(compi_comm_t *comm);
void pml_comm_del(compi_comm_t *comm);

/* Drive all transports once.  Returns the number of events handled. */
int pml_progress(void);
/* The same inside a loop that waits anyway (MPI_Wait, a blocking send or receive): on an
   oversubscribed host, after some idle rounds, it may sleep up to pml_block_ms in a
   transport that can wake it (btl ofi) instead of only yielding the CPU. */
int pml_progress_wait(void);
/* A layer above that has work to advance while requests are outstanding (core/coll's
   schedule engine, slot PML_HOOK_SCHED; core/osc's active messages, slot PML_HOOK_OSC):
   pml_progress() calls the hooks after the transports, and counts what they return as
   events handled.  NULL removes one.  One hook per slot; the PML never includes its
   owners' headers. */
enum { PML_HOOK_SCHED, PML_HOOK_OSC, PML_HOOK_SLOTS };
void pml_set_progress_hook(int slot, int (*hook)(void));
/* MPI_THREAD_MULTIPLE: the API layer's lock (core/mpi/thread_lock.h) is dropped and taken
   again by `yield`, which pml_progress_wait() calls after each round, so a thread that
   waits lets the others in; with it set, a wait never sleeps in a transport (it would
   sleep holding the lock).  Set once, before pml_init; NULL (the default) below
   MPI_THREAD_MULTIPLE, and the layers that keep per-thread state ask pml_threaded(). */
void pml_set_thread_yield(void (*yield)(void));
extern void (*pml__thread_yield)(void);
static inline int pml_threaded(void)
{
    return pml__thread_yield != NULL;
}
/* The same layer's persistent collectives (REQ_COLL requests with `persistent' set):
   pml_start() hands them to `start', and pml_request_free() to `release' (before the
   request goes back to the pool) when it is inactive or complete. */
void pml_set_coll_hooks(void (*start)(compi_request_t *req), void (*release)(compi_request_t *req));

compi_status_t pml_isend(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                         compi_comm_t *comm, pml_send_mode_t mode, compi_request_t **req_p);
compi_status_t pml_send(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                        compi_comm_t *comm, pml_send_mode_t mode);
/* 1 when a standard-mode send of `bytes` to `dst` completes without the receiver taking
   part (the eager protocol): collectives use it to send before receiving without
   risking a deadlock */
int pml_send_is_local(const compi_comm_t *comm, int dst, size_t bytes);

compi_status_t pml_irecv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                         compi_comm_t *comm, compi_request_t **req_p);
/* status may be NULL; truncation gives COMPI_ERR_TRUNCATE with status filled */
compi_status_t pml_recv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                        compi_comm_t *comm, MPI_Status *status);

compi_status_t pml_iprobe(int src, int tag, compi_comm_t *comm, int *flag, MPI_Status *status);
compi_status_t pml_improbe(int src, int tag, compi_comm_t *comm, int *flag,
                           compi_message_t **msg_p, MPI_Status *status);
/* the communicator a matched message came on */
compi_comm_t *pml_message_comm(const compi_message_t *msg);
compi_status_t pml_imrecv(void *buf, size_t count, compi_datatype_t *dt, compi_message_t *msg,
                          compi_request_t **req_p);

/* persistent requests (MPI_Send_init, MPI_Recv_init, and the persistent collectives):
   created inactive, started by pml_start(), reusable until pml_request_free() */
compi_status_t pml_send_init(const void *buf, size_t count, compi_datatype_t *dt, int dst,
                             int tag, compi_comm_t *comm, pml_send_mode_t mode,
                             compi_request_t **req_p);
compi_status_t pml_recv_init(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                             compi_comm_t *comm, compi_request_t **req_p);
void pml_start(compi_request_t *req);

/* partitioned communication (MPI-4, pml_part.c): persistent requests over `partitions`
   blocks of `count` elements each.  A started send leaves as one message once every
   partition is ready; a receive's partitions all arrive with that message. */
compi_status_t pml_psend_init(const void *buf, int partitions, size_t count,
                              compi_datatype_t *dt, int dst, int tag, compi_comm_t *comm,
                              compi_request_t **req_p);
compi_status_t pml_precv_init(void *buf, int partitions, size_t count, compi_datatype_t *dt,
                              int src, int tag, compi_comm_t *comm, compi_request_t **req_p);
/* the request's partitions, 0 for a request that is not partitioned */
int pml_request_partitions(const compi_request_t *req);
/* a started partitioned send: mark partition `p` ready (the caller checked the range);
   COMPI_ERR_INVALID_PARAM when it was marked already since the start */
compi_status_t pml_pready(compi_request_t *req, int p);
/* a started partitioned receive: 1 when partition `p` has arrived (progresses first) */
int pml_parrived(compi_request_t *req, int p);
/* cancel a receive not yet matched: 1 when cancelled (status says so), 0 otherwise */
int pml_cancel(compi_request_t *req);

/* block until complete, progressing; fills *status unless NULL/MPI_STATUS_IGNORE */
compi_status_t pml_wait(compi_request_t *req, MPI_Status *status);
/* wait for every request, then free them and set their slots to NULL (NULL slots are
   skipped); the first error wins */
compi_status_t pml_wait_all_free(size_t n, compi_request_t **reqs);
/* return a request to the pool; one still in flight is released when it completes */
void pml_request_free(compi_request_t *req);
/* a bare request from the pool (e.g. REQ_GREQ, REQ_COLL), comm retained when not NULL */
compi_request_t *pml_request_new(int kind, compi_comm_t *comm);
/* mark a request of the caller's (REQ_GREQ, REQ_COLL) complete; one the user freed while
   in flight is released */
void pml_request_complete(compi_request_t *req);

/* MPI_Buffer_flush: progress until every buffered send has left the attached buffer */
void pml_buffer_flush(void);
/* MPI_Buffer_iflush: a request (the caller's) that completes when they have */
compi_status_t pml_buffer_iflush(compi_request_t **req_p);

/* MPI_T performance variables.  Receives posted and messages unexpected now, over every
   communicator: */
void pml_queue_lengths(unsigned long long *posted, unsigned long long *unexpected);
/* The most messages unexpected at once since the last restart (at least the number now);
   with `restart', the peak then starts over from the number now. */
unsigned long long pml_unexpected_peak(int restart);
/* Bytes this process sent and received through the BTL named `btl` ("self", "sm",
   "ofi") since MPI_Init, headers and control messages included, single copies counted
   by the side that made them (get: received, put: sent); 0 for a BTL not in use.  Kept
   after MPI_Finalize. */
void pml_btl_bytes(const char *btl, unsigned long long *sent, unsigned long long *recvd);

/* MPI_Buffer_attach / detach (detach waits for the buffered sends to leave) */
compi_status_t pml_buffer_attach(void *buf, size_t size);
compi_status_t pml_buffer_detach(void **buf_p, size_t *size_p);

#endif
