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
 * and are never matched by PML_ANY_TAG.
 *
 * No MPI type crosses this interface: a finished operation reports a pml_result_t
 * (source, tag, bytes received, cancelled, a compi_status_t), and the API layer
 * (core/mpi) makes MPI statuses, handles and error classes of it.
 *
 * Ownership: requests come from the PML's pool; pml_request_free() returns them.  The
 * PML retains the datatype and communicator of a request until it completes.  The
 * caller owns the buffers and must not touch them before completion.  A blocking
 * pml_recv() takes nothing from the pool (its request lives on its stack) and retains
 * nothing, since the caller holds both for the call; nor does a pml_send() of an eager
 * message, which needs no request.
 */
#ifndef COMPI_PML_H
#define COMPI_PML_H

#include "core/include/compi_status.h"
#include "core/comm/comm.h"
#include "core/dt/dt.h"

#include <stddef.h>

typedef enum {
    PML_SEND_STANDARD,
    PML_SEND_SYNC,
    PML_SEND_READY,
    PML_SEND_BUFFERED
} pml_send_mode_t;

/* wildcards and the null peer; core/mpi checks that MPI's constants have these values */
enum { PML_ANY_SOURCE = -2, PML_PROC_NULL = -1, PML_ANY_TAG = -1 };

/* REQ_GREQ: made and completed by the API layer (generalized requests); REQ_COLL: by a
   layer above (schedules, one-sided); REQ_JOIN: by the requests joined to it (pml_join) */
enum { REQ_SEND = 1, REQ_RECV, REQ_GREQ, REQ_COLL, REQ_JOIN };

/* What a finished operation reports.  A receive: the matched sender's rank and tag and
   the bytes received; PML_PROC_NULL as source for a receive from PML_PROC_NULL; an empty
   result (nothing received) has PML_ANY_SOURCE, PML_ANY_TAG and count 0.  `error` is
   COMPI_OK or how the operation failed (COMPI_ERR_TRUNCATE: the message was longer than
   the receive; COMPI_ERR_NO_RESOURCE: a buffered send found no room in the attached
   buffer); a cancelled receive is COMPI_OK with `cancelled` set. */
typedef struct pml_result {
    int source;
    int tag;
    compi_status_t error;
    int cancelled;
    size_t count; /* bytes received */
} pml_result_t;

typedef struct compi_request {
    volatile int complete;    /* set last (release) when the operation is done */
    unsigned char kind;       /* REQ_* */
    unsigned char persistent;
    unsigned char active;     /* persistent: started, not yet completed by wait/test */
    unsigned char user_freed; /* freed while in flight: released at completion */
    pml_result_t result;      /* valid once complete */
    compi_comm_t *comm;       /* for the error handler; retained */
    void *owner;              /* the layer that made a REQ_COLL or REQ_GREQ request: its
                                 state (a persistent schedule, a generalized request) */
    char *errtext;            /* REQ_COLL: a failure's message for MPI_Error_string (malloc'ed,
                                 freed with the request), or NULL */
    int err_report;           /* with errtext: this rank reports it when errors are fatal */
    int errclass;             /* with errtext: the class the API layer gave the failure (an
                                 MPI-IO access's), or 0: the class of result.error */
} compi_request_t;

/* a matched-but-not-received message (MPI_Mprobe) */
typedef struct compi_message compi_message_t;

/* an empty result (see pml_result_t) */
static inline void pml_result_empty(pml_result_t *res)
{
    *res = (pml_result_t){.source = PML_ANY_SOURCE, .tag = PML_ANY_TAG, .error = COMPI_OK};
}

/* after rte_init: opens the BTLs and connects to every peer of the job */
compi_status_t pml_init(void);
compi_status_t pml_finalize(void);
/* endpoints for peers of other worlds (indices from rte_peer_add) not yet connected; the
   other side must add us at about the same time (the BTLs attach in both directions) */
compi_status_t pml_add_peers(int n, const int *peers);
/* opens BTL `name` after MPI_Init, for peers of other worlds that the open ones do not
   reach (a port's meeting with a job on another host: "ofi"), and publishes its business
   card (visible at once under compi's mpirun); COMPI_OK also when it is open already,
   else an error with the reason in why[0..len) */
compi_status_t pml_open_btl_late(const char *name, char *why, size_t len);

/* called by comm.c when a communicator appears / goes (context ids) */
compi_status_t pml_comm_add(compi_comm_t *comm);
void pml_comm_del(compi_comm_t *comm);

/* Drive all transports once.  Returns the number of events handled. */
int pml_progress(void);
/* The same inside a loop that waits anyway (MPI_Wait, a blocking send or receive): on an
   oversubscribed host, after some idle rounds, it may sleep up to pml_block_ms in a
   transport that can wake it (btl sm's doorbell, btl ofi's completion queue) instead of
   only yielding the CPU.  The sleeper wakes for a transport's message only: a loop that
   waits for anything else (a flag in shared memory) calls pml_progress(). */
int pml_progress_wait(void);
/* pml_progress_wait() in a loop that waits for *flag to reach seq, a flag in memory
   shared with local peers: the sleeper looks at it once more after announcing its sleep,
   and the peer that sets it calls pml_wake_peers() after the (release) store */
int pml_progress_wait_for(const uint64_t *flag, uint64_t seq);
/* wakes those of world_ranks[0..n) (but index `self`) that sleep in the transport the
   PML sleeps in; a fence comes first, so a store before it is seen by a sleeper's
   second look or the sleeper is woken */
void pml_wake_peers(int n, const int *world_ranks, int self);
/* A layer above that has work to advance while requests are outstanding (core/coll's
   schedule engine, slot PML_HOOK_SCHED; core/osc's active messages, slot PML_HOOK_OSC;
   core/comm's nonblocking context id agreements, slot PML_HOOK_COMM; the trampolines'
   watch over an intercommunicator's other group, slot PML_HOOK_TRAMP):
   pml_progress() calls the hooks after the transports, and counts what they return as
   events handled.  NULL removes one.  One hook per slot; the PML never includes its
   owners' headers. */
enum { PML_HOOK_SCHED, PML_HOOK_OSC, PML_HOOK_COMM, PML_HOOK_TRAMP, PML_HOOK_SLOTS };
void pml_set_progress_hook(int slot, int (*hook)(void));
/* MPI_THREAD_MULTIPLE: the API layer's lock (core/mpi/thread_lock.h) is dropped and taken
   again by `yield`, which pml_progress_wait() calls after each round, so a thread that
   waits lets the others in.  A wait that sleeps in a transport (host oversubscribed)
   sleeps holding the lock, so it sleeps only in a transport that can be woken, and not
   while `waiting` says that another thread waits for the lock; such a thread calls
   pml_wake_sleeper() after it says so and before it blocks.  Set once, before pml_init;
   NULL (the default) below MPI_THREAD_MULTIPLE, and the layers that keep per-thread state
   ask pml_threaded(). */
void pml_set_thread_yield(void (*yield)(void), int (*waiting)(void));
void pml_wake_sleeper(void);
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
/* res may be NULL; truncation gives COMPI_ERR_TRUNCATE with *res filled */
compi_status_t pml_recv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                        compi_comm_t *comm, pml_result_t *res);
/* pml_recv and pml_irecv for a caller that reads the data as soon as it is there (a
   reduction combining it, a root's next step): this rank copies all of a rendezvous
   message itself instead of splitting the copy with the sender (pml_split_min), so the
   data lands in its own core's caches and the sender is free at once for its own work */
compi_status_t pml_recv_whole(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                              compi_comm_t *comm, pml_result_t *res);
compi_status_t pml_irecv_whole(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                               compi_comm_t *comm, compi_request_t **req_p);

/* probes: *res (unless NULL) describes the message found (count: its bytes) */
compi_status_t pml_iprobe(int src, int tag, compi_comm_t *comm, int *flag, pml_result_t *res);
compi_status_t pml_improbe(int src, int tag, compi_comm_t *comm, int *flag, compi_message_t **msg_p,
                           pml_result_t *res);
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
/* cancel a receive not yet matched: 1 when cancelled (its result says so), 0 otherwise */
int pml_cancel(compi_request_t *req);
/* pml_cancel of every receive posted on `comm` with a tag in [lo, hi] (the trampolines
   release a collective that the other group of an intercommunicator abandoned); returns
   how many */
int pml_cancel_tags(compi_comm_t *comm, int lo, int hi);

/* block until complete, progressing; copies the result to *res unless NULL; returns
   the result's error */
compi_status_t pml_wait(compi_request_t *req, pml_result_t *res);
/* wait for every request, then free them and set their slots to NULL (NULL slots are
   skipped); the first error wins */
compi_status_t pml_wait_all_free(size_t n, compi_request_t **reqs);
/* return a request to the pool; one still in flight is released when it completes */
void pml_request_free(compi_request_t *req);
/* a bare request from the pool (e.g. REQ_GREQ, REQ_COLL), comm retained when not NULL;
   its result is empty */
compi_request_t *pml_request_new(int kind, compi_comm_t *comm);
/* mark a request of the caller's (REQ_GREQ, REQ_COLL) complete; one the user freed while
   in flight is released */
void pml_request_complete(compi_request_t *req);

/*
 * Joined requests (MPI_Isendrecv): a REQ_JOIN request completes when every request joined
 * to it has, and after pml_join_end().  Its result is that of its joined receive (the
 * last one, should there be several), PML_PROC_NULL's without one; its error is the
 * first error of any.  No progress hook and no allocation: each joined request reports
 * to it as it completes.
 *
 *   pml_join_new(comm) -> j;  pml_irecv(..., &r); pml_join(j, r);
 *                             pml_isend(..., &s); pml_join(j, s);  pml_join_end(j);
 *
 * pml_join() gives the joined request up (as pml_request_free would: the PML releases it
 * once complete).  pml_join_adopt() gives the REQ_JOIN request malloc'ed memory to free
 * when it is released (a copy the send reads).
 */
compi_request_t *pml_join_new(compi_comm_t *comm);
void pml_join(compi_request_t *join, compi_request_t *req);
void pml_join_adopt(compi_request_t *join, void *mem);
void pml_join_end(compi_request_t *join);

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

/* MPI_Buffer_attach / detach (detach waits for the buffered sends to leave).  Each
   buffered send takes at most PML_BSEND_OVERHEAD bytes of the buffer beyond its data
   (core/mpi checks that MPI_BSEND_OVERHEAD covers it). */
#define PML_BSEND_OVERHEAD 48
compi_status_t pml_buffer_attach(void *buf, size_t size);
compi_status_t pml_buffer_detach(void **buf_p, size_t *size_p);

/* A buffer for buffered sends (MPI-4.1: a communicator's or a session's; the process's is
   the one above).  A buffered send on a communicator takes the communicator's buffer when
   one is attached, else the process's.  pml_bsend_buf_attach: PML_BSEND_AUTOMATIC instead
   of memory copies every send to the heap (MPI_BUFFER_AUTOMATIC); COMPI_ERR_INVALID_PARAM
   when a buffer is attached already.  Detach waits for the buffer's sends, then gives back what was
   attached (NULL, 0 when nothing was).  Release frees the object (at once, or when its
   last send leaves). */
#define PML_BSEND_AUTOMATIC ((void *)-2)
typedef struct pml_bsend_buf pml_bsend_buf_t;
pml_bsend_buf_t *pml_bsend_buf_new(void);
void pml_bsend_buf_release(pml_bsend_buf_t *bs);
int pml_bsend_buf_attached(const pml_bsend_buf_t *bs);
compi_status_t pml_bsend_buf_attach(pml_bsend_buf_t *bs, void *buf, size_t size);
void pml_bsend_buf_detach(pml_bsend_buf_t *bs, void **buf_p, size_t *size_p);
void pml_bsend_buf_flush(pml_bsend_buf_t *bs);
compi_status_t pml_bsend_buf_iflush(pml_bsend_buf_t *bs, compi_request_t **req_p);
/* where a communicator keeps its buffer (released with the communicator); NULL before
   pml_comm_add */
pml_bsend_buf_t **pml_comm_bsend_buf(compi_comm_t *comm);

#endif
