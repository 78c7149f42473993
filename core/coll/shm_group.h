/*
 * shm_group.h -- shared segments over groups of a communicator's ranks: the host level of
 * hierarchical and MagPIe trees (core/coll/executors/tree_host.c), where each innermost
 * group of the tree is a set of ranks that share memory and its part of a collective
 * runs through the shm algorithms (algorithms/<kind>/shm.c) instead of messages.
 *
 * A grouping is group_of[r] for every rank r of the communicator (the index of r's
 * group).  Each group of two ranks or more gets a segment of its own (shm.h's layout
 * over its members, in ascending rank order), and a stand-in communicator, `view`, through
 * which the shm algorithms see the group: its size and this rank's position in it, the
 * segment, the members' world ranks.  Nothing is ever sent on the view (it has no
 * context of its own): the shm algorithms only read and write the segment, and their
 * fallback over the PML is never built for it (tree_host.c serves only what fits a
 * slot).
 *
 * Creation is collective over the whole communicator, at a blocking call that every rank
 * runs alike (the first blocking call of a tree closure with a host level on the
 * communicator; a nonblocking start only looks, coll_shm_group_find): each group maps its segment
 * among its members (comm_coll_shared_map, an anonymous memfd: no name in /dev/shm or anywhere),
 * then every rank of the communicator agrees whether all groups succeeded, so either every group
 * has its segment or none does (and every rank fails the creation alike: the closure then runs its
 * plain tree).  A grouping is looked up by its whole vector, so whether a lookup hits is the same
 * on every rank.
 *
 * Ownership: the communicator owns its groups' segments (comm->coll_shm_groups), freed
 * with comm->coll_shm through coll_shm_release (the trampolines' free hook).  Closures
 * point at them and check, at each call, that the communicator is the one they bound.
 */
#ifndef COMPI_COLL_SHM_GROUP_H
#define COMPI_COLL_SHM_GROUP_H

#include "core/coll/shm.h"

typedef struct coll_shm_group {
    struct coll_shm_group *next; /* in comm->coll_shm_groups */
    int n;                       /* the communicator's size: group_of has n entries */
    int *group_of;               /* the grouping */
    int *members;                /* this rank's group, ascending (view.size of them) */
    int *world;                  /* their world ranks */
    int pos;                     /* this rank's place in members (view.rank) */
    coll_shm_t shm;              /* its segment (when view.size > 1) */
    compi_comm_t view;           /* the group as the shm algorithms see a communicator */
} coll_shm_group_t;

/* comm's groups for the grouping group_of[0 .. comm->size): found, or made (collective:
   every rank of comm calls it at the same call, with the same grouping); NULL when they
   could not be made, on every rank alike, with the status in *st_p */
coll_shm_group_t *coll_shm_group_get(compi_comm_t *comm, const int *group_of, compi_status_t *st_p);

/* the same, found only (a nonblocking start, which must not exchange): NULL when comm
   has no segments for the grouping yet */
coll_shm_group_t *coll_shm_group_find(compi_comm_t *comm, const int *group_of);

/* frees comm's groups and unmaps their segments (coll_shm_release) */
void coll_shm_groups_release(compi_comm_t *comm);

#endif
