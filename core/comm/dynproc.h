/*
 * dynproc.h -- intercommunicators between two worlds (MPI_Comm_spawn, accept / connect,
 * join), met through mpirun (dynproc.c says how).
 *
 * Ownership: the new intercommunicator is the caller's (one reference, a handle); the
 * keys are the caller's strings.
 */
#ifndef COMPI_DYNPROC_H
#define COMPI_DYNPROC_H

#include "core/comm/comm.h"

/* what the root does around the meeting (arg is the caller's) */
typedef struct comm_dyn_ops {
    /* before publishing: the keys to publish under and to read (mpirun-wide names) */
    compi_status_t (*prepare)(void *arg, char *mine, char *theirs, size_t len);
    /* after publishing, before waiting for the other group (MPI_Comm_spawn starts it
       here); NULL: nothing */
    compi_status_t (*between)(void *arg);
    /* first, before prepare: a connected socket to the other group's root when the two
       groups are of different mpirun jobs (dynproc.c: they swap their records over it;
       the socket stays the caller's; *first set when this side sends its record first,
       as one of the two must), -1 to meet through the keys (prepare, between), -2 for an
       error the caller reports; NULL: the keys */
    int (*sock)(void *arg, int *first);
    /* on every member, before an error is returned, when the meeting failed for a reason
       the user should read (btl ofi, needed between the two jobs' hosts, cannot open on
       one side: what it said); NULL: not told */
    void (*failed)(void *arg, const char *why);
} comm_dyn_ops_t;

/*
 * Collective over intracommunicator `local`: its root runs ops->prepare, publishes the
 * group, runs ops->between, reads the other group, and every member gets the
 * intercommunicator of both in *inter_p (its error handler `local`'s).  An error at the
 * root (the callbacks' included) is returned on every member, nothing made.
 * COMPI_ERR_UNSUPPORTED when the launcher cannot connect worlds (rte_dynamic).
 */
compi_status_t comm_dyn_join(compi_comm_t *local, int root, const comm_dyn_ops_t *ops, void *arg,
                             compi_comm_t **inter_p);

/* all n bytes of buf written to (out) or read from descriptor fd: 0, else -1 (errno) */
int comm_dyn_xfer(int fd, char *buf, size_t n, int out);

/* a barrier over both groups of intercommunicator `inter` (MPI_Comm_disconnect) */
compi_status_t comm_dyn_sync(compi_comm_t *inter);

#endif
