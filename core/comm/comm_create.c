/*
 * comm_create.c -- making communicators from communicators: dup, split, create and
 * create_group.
 *
 * Every constructor first agrees on a context id over the processes taking part (the
 * parent, or only the group for create_group), then builds its communicator locally from
 * a group: nothing but the context id and, for split, the (color, key) pairs needs to
 * travel.
 */
#include "core/comm/comm.h"

#include "core/comm/attr.h"
#include "core/comm/comm_coll.h"
#include "core/comm/group.h"
#include "core/comm/topo.h"
#include "core/pml/pml.h"

#include <stdlib.h>

/* the new communicator on group with the parent's error handler; ctx came from
   comm_alloc_ctx(_set), so the ids after it are its pool for MPI_Comm_idup (comm.h) */
static compi_status_t comm_derive(compi_comm_t *parent, compi_group_t *group, uint32_t ctx,
                                  compi_comm_t **new_p)
{
    compi_status_t st = comm_create_with_group(group, ctx, new_p);

    if (st == COMPI_OK) {
        comm_set_errhandler(*new_p, parent->errh);
        (*new_p)->ctx_pool = ctx + 1;
        (*new_p)->ctx_pool_end = ctx + 1 + COMM_CTX_POOL;
    }
    return st;
}

/* from_pool: MPI_Comm_idup, which completes `req` (now, or when a nonblocking agreement
   gave the id: an empty pool) */
static compi_status_t comm_dup_any(compi_comm_t *parent, int from_pool, compi_comm_t **new_p,
                                   int *cb_code_p, compi_request_t *req)
{
    compi_comm_t *c;
    uint32_t ctx;
    compi_status_t st = COMPI_OK;
    int agree = 0;

    if (comm_is_inter(parent)) {
        if (from_pool) {
            return comm_inter_idup(parent, new_p, cb_code_p, req);
        }
        return comm_inter_dup(parent, new_p, cb_code_p);
    }
    if (from_pool && parent->ctx_pool == parent->ctx_pool_end) {
        /* no id at hand: the new communicator gets one from an agreement that never waits */
        st = comm_create_unbound(parent->group, &c);
        if (st == COMPI_OK) {
            comm_set_errhandler(c, parent->errh);
            agree = 1;
        }
    } else if (from_pool) {
        ctx = parent->ctx_pool++;
        st = comm_create_with_group(parent->group, ctx, &c);
        if (st == COMPI_OK) {
            comm_set_errhandler(c, parent->errh);
            comm_pool_share(parent, c);
        }
    } else {
        st = comm_alloc_ctx(parent, &ctx);
        if (st == COMPI_OK) {
            st = comm_derive(parent, parent->group, ctx, &c);
        }
    }
    if (st != COMPI_OK) {
        return st;
    }
    if (parent->topo != NULL) {
        /* a dup has its parent's topology; topologies never change, so it is shared */
        topo_retain(parent->topo);
        c->topo = parent->topo;
    }
    return comm_dup_finish(parent, c, agree, new_p, cb_code_p, req);
}

compi_status_t comm_dup_finish(compi_comm_t *parent, compi_comm_t *c, int agree,
                               compi_comm_t **new_p, int *cb_code_p, compi_request_t *req)
{
    compi_status_t st = attr_comm_copy_all(parent, c, cb_code_p);
    if (st == COMPI_OK && agree) {
        comm_retain(c); /* the agreement's */
        st = comm_idup_agree(parent, c, req);
        if (st != COMPI_OK) {
            comm_release(c);
        }
    } else if (st == COMPI_OK && req != NULL) {
        pml_request_complete(req);
    }
    if (st != COMPI_OK) {
        /* the copies made so far are deleted with the half-built communicator */
        comm_release(c);
        return st;
    }
    *new_p = c;
    return COMPI_OK;
}

compi_status_t comm_dup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p)
{
    return comm_dup_any(parent, 0, new_p, cb_code_p, NULL);
}

compi_status_t comm_idup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p,
                         compi_request_t *req)
{
    return comm_dup_any(parent, 1, new_p, cb_code_p, req);
}

int comm_split_entry_cmp(const void *a, const void *b)
{
    const comm_split_entry_t *x = a, *y = b;

    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return (x->rank > y->rank) - (x->rank < y->rank);
}

compi_status_t comm_split(compi_comm_t *parent, int color, int key, compi_comm_t **new_p)
{
    int mine[2] = {color, key};
    int *all = NULL, *world_ranks = NULL;
    comm_split_entry_t *members = NULL;
    int n = 0;
    uint32_t ctx;
    compi_group_t *g = NULL;
    comm_coll_set_t set = comm_coll_whole(parent);
    compi_status_t st;

    if (comm_is_inter(parent)) {
        return comm_inter_split(parent, color, key, new_p);
    }
    *new_p = NULL;
    all = malloc((size_t)parent->size * 2 * sizeof(int));
    if (all == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    st = comm_coll_allgather_int(&set, mine, 2, all);
    if (st != COMPI_OK) {
        goto err;
    }
    /* every process takes part in the context agreement, even those left out */
    st = comm_alloc_ctx(parent, &ctx);
    if (st != COMPI_OK || color == MPI_UNDEFINED) {
        goto err;
    }
    members = malloc((size_t)parent->size * sizeof(*members));
    world_ranks = malloc((size_t)parent->size * sizeof(int));
    if (members == NULL || world_ranks == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    for (int r = 0; r < parent->size; r++) {
        if (all[2 * r] == color) {
            members[n].key = all[2 * r + 1];
            members[n].rank = r;
            n++;
        }
    }
    qsort(members, (size_t)n, sizeof(*members), comm_split_entry_cmp);
    for (int i = 0; i < n; i++) {
        world_ranks[i] = parent->world_ranks[members[i].rank];
    }
    st = group_create(n, world_ranks, &g);
    if (st != COMPI_OK) {
        goto err;
    }
    st = comm_derive(parent, g, ctx, new_p);

err:
    if (g != NULL) {
        group_release(g);
    }
    free(members);
    free(world_ranks);
    free(all);
    return st;
}

int comm_group_is_subset(const compi_comm_t *comm, const compi_group_t *group)
{
    compi_group_t *inter;
    int subset;

    /* group is a subset of comm's exactly when intersecting keeps all of it */
    if (group_intersection((compi_group_t *)group, comm->group, &inter) != COMPI_OK) {
        return 0;
    }
    subset = inter->size == group->size;
    group_release(inter);
    return subset;
}

compi_status_t comm_create_from_group(compi_comm_t *parent, compi_group_t *group,
                                      compi_comm_t **new_p)
{
    uint32_t ctx;
    compi_status_t st;

    if (comm_is_inter(parent)) {
        return comm_inter_create(parent, group, new_p);
    }
    st = comm_alloc_ctx(parent, &ctx);
    *new_p = NULL;
    if (st != COMPI_OK || group->rank == MPI_UNDEFINED) {
        return st;
    }
    return comm_derive(parent, group, ctx, new_p);
}

compi_status_t comm_create_group(compi_comm_t *parent, compi_group_t *group, int tag,
                                 compi_comm_t **new_p)
{
    int *ranks;
    uint32_t ctx;
    comm_coll_set_t set;
    compi_status_t st;

    *new_p = NULL;
    if (group->rank == MPI_UNDEFINED) {
        return COMPI_OK;
    }
    ranks = malloc((size_t)group->size * sizeof(int));
    if (ranks == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 0; i < group->size; i++) {
        ranks[i] = group_rank_of_world(parent->group, group->world_ranks[i]);
    }
    set.comm = parent;
    set.members = ranks;
    set.n = group->size;
    set.me = group->rank;
    set.tag = comm_create_group_tag(tag);
    st = comm_alloc_ctx_set(&set, &ctx);
    free(ranks);
    if (st != COMPI_OK) {
        return st;
    }
    return comm_derive(parent, group, ctx, new_p);
}
