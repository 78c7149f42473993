/*
 * comm_coll.h -- the few collectives that communicator creation needs, run before the
 * new communicator (and therefore its configured collectives) exists.
 *
 * They run over a set of ranks of a parent communicator: all of it (members == NULL), or
 * the members listed (MPI_Comm_create_group, where only the group takes part).  They go
 * straight over the PML with a negative tag, so user traffic never matches them.
 *
 * Ownership: every buffer belongs to the caller.
 */
#ifndef COMPI_COMM_COLL_H
#define COMPI_COMM_COLL_H

#include "core/comm/comm.h"

#include <stdint.h>

typedef struct comm_coll_set {
    compi_comm_t *comm; /* the parent: messages travel on its context */
    const int *members; /* [n] ranks in comm, or NULL for 0..comm->size-1 */
    int n;
    int me;  /* my index in 0..n-1 */
    int tag; /* negative: COMPI_TAG_COMM_CREATE or comm_create_group_tag */
} comm_coll_set_t;

/* the whole of `comm` (of an intercommunicator: its local group), on COMPI_TAG_COMM_CREATE */
comm_coll_set_t comm_coll_whole(compi_comm_t *comm);

/* the whole of intracommunicator `comm` with `root` as index 0 (the others in rank
   order); *members_p is the set's member array, the caller's to free */
compi_status_t comm_coll_rooted(compi_comm_t *comm, int root, comm_coll_set_t *set,
                                int **members_p);

/* *out = max over the set of `in` (binomial reduce to index 0, then binomial broadcast) */
compi_status_t comm_coll_allreduce_max_u32(const comm_coll_set_t *set, uint32_t in, uint32_t *out);

/* buf[0 .. count) of index 0 to every member */
compi_status_t comm_coll_bcast_int(const comm_coll_set_t *set, int *buf, int count);

/* recv[i*blk .. (i+1)*blk) = send of member i, on every member */
compi_status_t comm_coll_allgather_int(const comm_coll_set_t *set, const int *send, int blk,
                                       int *recv);

/* A segment of `len` bytes shared by every member of the set (all on this host): index 0
   makes an anonymous memfd, the others map it through /proc/PID/fd/N, and once every
   member has mapped it (or one failed) the descriptor goes, so the memory has no name
   anywhere and disappears with the last mapping, however the processes end.  `fail_here`
   non-zero makes the call fail on every member (a member's own allocation failed);
   `what` names the user in messages; `populate` maps with MAP_POPULATE.  Collective; on
   success *base_p is this member's mapping, the caller's to munmap. */
compi_status_t comm_coll_shared_map(const comm_coll_set_t *set, size_t len, const char *what,
                                    int populate, int fail_here, void **base_p);

/* comm_alloc_ctx over a set of members only (comm.c; MPI_Comm_create_group) */
compi_status_t comm_alloc_ctx_set(const comm_coll_set_t *set, uint32_t *ctx_p);

#endif
