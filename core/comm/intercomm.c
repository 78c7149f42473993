/*
 * intercomm.c -- intercommunicators: MPI_Intercomm_create, _create_from_groups and _merge,
 * and dup, split and create on an intercommunicator.
 *
 * Every step that involves both groups runs the same way: a step inside each group over
 * its local_comm (comm_coll.h), then the two leaders (rank 0 of each local group, or the
 * leaders the user named for MPI_Intercomm_create) exchange what their group found, then
 * each leader broadcasts what it received inside its group.
 *
 * Context ids: both groups take part in the agreement (the max of all members' next free
 * ids, comm.c), and the new intercommunicator takes two ids: ctx for its traffic between
 * the groups, ctx + 1 for its local_comm.  The groups are disjoint, so the two local_comms
 * share ctx + 1 without ever meeting; the disjoint results of a split share both ids.
 */
#include "core/comm/comm.h"

#include "core/comm/attr.h"
#include "core/comm/comm_coll.h"
#include "core/comm/group.h"
#include "core/dt/dt.h"
#include "core/pml/pml.h"
#include "core/runtime/rte.h"

#include <stdlib.h>
#include <string.h>

/* the leader's side of an exchange with the other leader: send ns ints to `peer` of
   `over` and receive nr from it (both posted before waiting: no order to deadlock on) */
static compi_status_t leader_swap(compi_comm_t *over, int peer, int tag, const int *send, int ns,
                                  int *recv, int nr)
{
    compi_request_t *sreq = NULL;
    compi_datatype_t *dt = dt_from_handle(MPI_INT);
    compi_status_t st = pml_isend(send, (size_t)ns, dt, peer, tag, over, PML_SEND_STANDARD, &sreq);

    if (st != COMPI_OK) {
        return st;
    }
    st = pml_recv(recv, (size_t)nr, dt, peer, tag, over, NULL);
    compi_status_t wst = pml_wait(sreq, NULL);
    pml_request_free(sreq);
    return st != COMPI_OK ? st : wst;
}

/*
 * Over an intercommunicator: rank 0 of each group sends `send` (ns ints, the same on
 * every member of its group or only meaningful at rank 0) to the other leader and every
 * member gets the other group's nr ints in recv.
 */
static compi_status_t inter_exchange(compi_comm_t *inter, const int *send, int ns, int *recv,
                                     int nr)
{
    comm_coll_set_t set = comm_coll_whole(inter);
    compi_status_t st = COMPI_OK;

    if (inter->rank == 0) {
        st = leader_swap(inter, 0, COMPI_TAG_COMM_CREATE, send, ns, recv, nr);
    }
    /* the others wait in the broadcast whatever happened; a failed leader still sends */
    compi_status_t bst = comm_coll_bcast_int(&set, recv, nr);
    return st != COMPI_OK ? st : bst;
}

/* a context id (and the next) free on every member of both groups, confirmed free
   everywhere by a second exchange, and agreed again higher where another thread took
   part of it meanwhile (comm_ctx_claim; both groups run the second exchange whatever
   their thread levels, which may differ) */
static compi_status_t inter_alloc_ctx(compi_comm_t *inter, uint32_t *ctx_p)
{
    comm_coll_set_t set = comm_coll_whole(inter);

    for (;;) {
        uint32_t ctx, mine, taken, any;
        int theirs;
        compi_status_t st = comm_coll_allreduce_max_u32(&set, comm_ctx_next(), &mine);

        if (st == COMPI_OK) {
            st = inter_exchange(inter, (const int *)&mine, 1, &theirs, 1);
        }
        if (st != COMPI_OK) {
            return st;
        }
        ctx = (uint32_t)theirs > mine ? (uint32_t)theirs : mine;
        if (ctx >= COMM_CTX_DYN_BASE - 2 - COMM_CTX_POOL) {
            return COMPI_ERR_NO_RESOURCE;
        }
        taken = (uint32_t)comm_ctx_claim(ctx, 1 + COMM_CTX_POOL);
        *ctx_p = ctx;
        st = comm_coll_allreduce_max_u32(&set, taken, &any);
        if (st == COMPI_OK) {
            st = inter_exchange(inter, (const int *)&any, 1, &theirs, 1);
        }
        if (st != COMPI_OK || (any == 0 && theirs == 0)) {
            return st;
        }
    }
}

/* MPI_Intercomm_create's step over both groups: the max of `in` over the members of both,
   through the leaders over `peer` */
static compi_status_t create_max(const comm_coll_set_t *set, int leader, compi_comm_t *peer,
                                 int remote_leader, int tag, uint32_t in, uint32_t *out)
{
    uint32_t mine;
    int theirs[1] = {0};
    compi_status_t st = comm_coll_allreduce_max_u32(set, in, &mine), lst = COMPI_OK;

    if (st != COMPI_OK) {
        return st;
    }
    if (leader) {
        int m = (int)mine;
        lst = leader_swap(peer, remote_leader, tag, &m, 1, theirs, 1);
    }
    st = comm_coll_bcast_int(set, theirs, 1);
    *out = (uint32_t)theirs[0] > mine ? (uint32_t)theirs[0] : mine;
    return lst != COMPI_OK ? lst : st;
}

static compi_status_t finish(compi_comm_t *parent, compi_status_t st, compi_comm_t *c,
                             compi_comm_t **new_p)
{
    if (st == COMPI_OK && c != NULL) {
        comm_set_errhandler(c, parent->errh);
        comm_set_errhandler(c->local_comm, parent->errh);
        comm_pool_reserved(c);
    }
    *new_p = st == COMPI_OK ? c : NULL;
    return st;
}

compi_status_t comm_intercomm_create(compi_comm_t *local, int local_leader, compi_comm_t *peer,
                                     int remote_leader, int tag, compi_comm_t **new_p)
{
    comm_coll_set_t set;
    int *members = NULL, *remote = NULL;
    int hdr[2], rhdr[2] = {0, 0};
    uint32_t mine;
    compi_group_t *rg = NULL;
    compi_comm_t *c = NULL;
    compi_status_t st, lst = COMPI_OK;

    *new_p = NULL;
    st = comm_coll_rooted(local, local_leader, &set, &members);
    if (st != COMPI_OK) {
        return st;
    }
    set.tag = COMPI_TAG_COMM_CREATE;
    st = comm_coll_allreduce_max_u32(&set, comm_ctx_next(), &mine);
    if (st != COMPI_OK) {
        goto out;
    }
    if (local->rank == local_leader) {
        hdr[0] = local->size;
        hdr[1] = (int)mine;
        lst = leader_swap(peer, remote_leader, tag, hdr, 2, rhdr, 2);
        if (lst == COMPI_OK && rhdr[0] <= 0) {
            lst = COMPI_ERR_INVALID_PARAM;
        }
        if (lst != COMPI_OK) {
            rhdr[0] = -1; /* tells the group */
        }
    }
    st = comm_coll_bcast_int(&set, rhdr, 2);
    if (st == COMPI_OK && rhdr[0] < 0) {
        st = lst != COMPI_OK ? lst : COMPI_ERR_INVALID_PARAM;
    }
    if (st != COMPI_OK) {
        goto out;
    }
    remote = malloc((size_t)rhdr[0] * sizeof(int));
    if (remote == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    if (local->rank == local_leader) {
        /* global ids: the groups may come from different worlds (spawn, connect), whose
           processes number their peers differently */
        int *gids = malloc((size_t)local->size * sizeof(int));
        st = gids == NULL ? COMPI_ERR_NO_MEMORY : COMPI_OK;
        for (int i = 0; st == COMPI_OK && i < local->size; i++) {
            gids[i] = rte_peer_gid(local->world_ranks[i]);
        }
        if (st == COMPI_OK) {
            st = leader_swap(peer, remote_leader, tag, gids, local->size, remote, rhdr[0]);
        }
        free(gids);
    }
    lst = comm_coll_bcast_int(&set, remote, rhdr[0]);
    st = st != COMPI_OK ? st : lst;
    for (int i = 0; st == COMPI_OK && i < rhdr[0]; i++) {
        st = rte_peer_add(remote[i], &remote[i]); /* known: a member of `peer` */
    }
    if (st != COMPI_OK) {
        goto out;
    }
    /* the groups must be disjoint; both sides see the same lists, so all agree */
    for (int i = 0; i < rhdr[0]; i++) {
        if (group_rank_of_world(local->group, remote[i]) != MPI_UNDEFINED) {
            st = COMPI_ERR_INVALID_PARAM;
            goto out;
        }
    }
    uint32_t ctx = (uint32_t)rhdr[1] > mine ? (uint32_t)rhdr[1] : mine;
    for (;;) {
        uint32_t any = 0;
        if (ctx >= COMM_CTX_DYN_BASE - 2 - COMM_CTX_POOL) {
            st = COMPI_ERR_NO_RESOURCE;
            goto out;
        }
        /* confirmed free on every member, or agreed again (inter_alloc_ctx) */
        uint32_t taken = (uint32_t)comm_ctx_claim(ctx, 1 + COMM_CTX_POOL);
        int leader = local->rank == local_leader;
        st = create_max(&set, leader, peer, remote_leader, tag, taken, &any);
        if (st == COMPI_OK && any != 0) {
            st = create_max(&set, leader, peer, remote_leader, tag, comm_ctx_next(), &ctx);
        }
        if (st != COMPI_OK) {
            goto out;
        }
        if (any == 0) {
            break;
        }
    }
    st = group_create(rhdr[0], remote, &rg);
    if (st == COMPI_OK) {
        st = comm_create_inter(local->group, rg, ctx, &c);
    }
out:
    if (rg != NULL) {
        group_release(rg);
    }
    free(remote);
    free(members);
    return finish(local, st, c, new_p);
}

/* ascending ints, for the members of a set over WORLD */
static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/*
 * MPI_Intercomm_create_from_groups: every process names both groups, so nothing but the
 * context id has to travel, and no leader has to route anything: one agreement over the
 * union of the groups, in WORLD rank order (the same list on every member, whichever
 * group it is in) on the string tag's comm_create_group_tag over WORLD.  That agreement reserves
 * the ids after its answer on every member (comm.h), so ctx + 1 is free for the local_comms.
 */
compi_status_t comm_intercomm_from_groups(compi_group_t *local, compi_group_t *remote, int tag,
                                          compi_errhandler_t *errh, compi_comm_t **new_p)
{
    int n = local->size + remote->size;
    int *members = NULL;
    uint32_t ctx;
    compi_comm_t *c = NULL;
    comm_coll_set_t set;
    compi_status_t st;

    *new_p = NULL;
    if (local->rank == MPI_UNDEFINED) {
        return COMPI_ERR_INVALID_PARAM;
    }
    /* disjoint groups: each member sees both lists, so all find an overlap alike */
    for (int i = 0; i < remote->size; i++) {
        if (group_rank_of_world(local, remote->world_ranks[i]) != MPI_UNDEFINED) {
            return COMPI_ERR_INVALID_PARAM;
        }
    }
    members = malloc((size_t)n * sizeof(int));
    if (members == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    memcpy(members, local->world_ranks, (size_t)local->size * sizeof(int));
    memcpy(members + local->size, remote->world_ranks, (size_t)remote->size * sizeof(int));
    qsort(members, (size_t)n, sizeof(int), int_cmp);
    set.comm = comm_world();
    set.members = members; /* WORLD ranks are world ranks */
    set.n = n;
    set.me = 0;
    while (members[set.me] != local->world_ranks[local->rank]) {
        set.me++;
    }
    set.tag = comm_create_group_tag(tag);
    st = comm_alloc_ctx_set(&set, &ctx);
    if (st == COMPI_OK) {
        st = comm_create_inter(local, remote, ctx, &c);
    }
    if (st == COMPI_OK) {
        comm_pool_reserved(c);
    }
    free(members);
    if (st == COMPI_OK && errh != NULL) {
        comm_set_errhandler(c, errh);
        comm_set_errhandler(c->local_comm, errh);
    }
    *new_p = c;
    return st;
}

/* 1 when group a's first member comes before group b's in an order every process sees
   alike: by universe (the mpirun job), then global id.  Not by peer index: another
   world's processes come after a process's own world in its numbering, so the parents
   and the children of a spawn would each put themselves first. */
int comm_inter_first_lower(const compi_group_t *a, const compi_group_t *b)
{
    char ua[sizeof(rte_proc.universe)] = "", ub[sizeof(rte_proc.universe)] = "";
    int pa = a->world_ranks[0], pb = b->world_ranks[0];

    if (rte_modex_get(pa, RTE_KEY_UNIVERSE, ua, sizeof(ua)) != COMPI_OK) {
        ua[0] = '\0';
    }
    if (rte_modex_get(pb, RTE_KEY_UNIVERSE, ub, sizeof(ub)) != COMPI_OK) {
        ub[0] = '\0';
    }
    int c = strcmp(ua, ub);
    return c != 0 ? c < 0 : rte_peer_gid(pa) < rte_peer_gid(pb);
}

compi_status_t comm_intercomm_merge(compi_comm_t *inter, int high, compi_comm_t **new_p)
{
    int mine = high != 0, theirs = 0;
    uint32_t ctx;
    compi_group_t *g = NULL, *first, *second;
    compi_comm_t *c = NULL;
    int *ranks = NULL;
    compi_status_t st = inter_exchange(inter, &mine, 1, &theirs, 1);

    *new_p = NULL;
    if (st == COMPI_OK) {
        st = inter_alloc_ctx(inter, &ctx);
    }
    if (st != COMPI_OK) {
        return st;
    }
    int local_first =
        mine != theirs ? !mine : comm_inter_first_lower(inter->group, inter->remote_group);
    first = local_first ? inter->group : inter->remote_group;
    second = local_first ? inter->remote_group : inter->group;
    ranks = malloc((size_t)(first->size + second->size) * sizeof(int));
    if (ranks == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    memcpy(ranks, first->world_ranks, (size_t)first->size * sizeof(int));
    memcpy(ranks + first->size, second->world_ranks, (size_t)second->size * sizeof(int));
    st = group_create(first->size + second->size, ranks, &g);
    free(ranks);
    if (st == COMPI_OK) {
        st = comm_create_with_group(g, ctx, &c);
        group_release(g);
    }
    if (st == COMPI_OK) {
        comm_set_errhandler(c, inter->errh);
        comm_pool_reserved(c);
        *new_p = c;
    }
    return st;
}

compi_status_t comm_inter_dup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p)
{
    uint32_t ctx;
    compi_comm_t *c = NULL;
    compi_status_t st = inter_alloc_ctx(parent, &ctx);

    *new_p = NULL;
    if (st == COMPI_OK) {
        st = comm_create_inter(parent->group, parent->remote_group, ctx, &c);
    }
    if (st == COMPI_OK) {
        st = attr_comm_copy_all(parent, c, cb_code_p);
        if (st != COMPI_OK) {
            comm_release(c);
            c = NULL;
        }
    }
    return finish(parent, st, c, new_p);
}

compi_status_t comm_inter_idup(compi_comm_t *parent, compi_comm_t **new_p, int *cb_code_p,
                               compi_request_t *req)
{
    compi_comm_t *c = NULL;
    int agree = parent->ctx_pool_end - parent->ctx_pool < 2;
    compi_status_t st;

    *new_p = NULL;
    if (agree) {
        /* no ids at hand: both groups agree on them without waiting (comm_ctx_nb.c) */
        st = comm_create_inter_unbound(parent->group, parent->remote_group, &c);
    } else {
        uint32_t ctx = parent->ctx_pool;
        parent->ctx_pool += 2; /* its own and its local_comm's */
        st = comm_create_inter(parent->group, parent->remote_group, ctx, &c);
    }
    if (st != COMPI_OK) {
        return st;
    }
    comm_set_errhandler(c, parent->errh);
    comm_set_errhandler(c->local_comm, parent->errh);
    if (!agree) {
        comm_pool_share(parent, c);
    }
    return comm_dup_finish(parent, c, agree, new_p, cb_code_p, req);
}

/* the members of g whose (color, key) in ck[2 r] has `color`, ordered by key then rank */
static compi_status_t split_group(const compi_group_t *g, const int *ck, int color,
                                  compi_group_t **out_p)
{
    comm_split_entry_t *e = malloc((size_t)g->size * sizeof(*e));
    int *w = malloc((size_t)g->size * sizeof(int));
    int n = 0;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    *out_p = NULL;
    if (e != NULL && w != NULL) {
        for (int r = 0; r < g->size; r++) {
            if (ck[2 * r] == color) {
                e[n].key = ck[2 * r + 1];
                e[n].rank = r;
                n++;
            }
        }
        qsort(e, (size_t)n, sizeof(*e), comm_split_entry_cmp);
        for (int i = 0; i < n; i++) {
            w[i] = g->world_ranks[e[i].rank];
        }
        st = n > 0 ? group_create(n, w, out_p) : COMPI_OK;
    }
    free(e);
    free(w);
    return st;
}

compi_status_t comm_inter_split(compi_comm_t *parent, int color, int key, compi_comm_t **new_p)
{
    int n = comm_local_size(parent), m = parent->size;
    int mine[2] = {color, key};
    int *local = malloc((size_t)n * 2 * sizeof(int));
    int *remote = malloc((size_t)m * 2 * sizeof(int));
    compi_group_t *lg = NULL, *rg = NULL;
    compi_comm_t *c = NULL;
    comm_coll_set_t set = comm_coll_whole(parent);
    uint32_t ctx;
    compi_status_t st = COMPI_ERR_NO_MEMORY;

    *new_p = NULL;
    if (local == NULL || remote == NULL) {
        goto out; /* NOTE: the others then wait; out of memory here is fatal anyway */
    }
    st = comm_coll_allgather_int(&set, mine, 2, local);
    if (st == COMPI_OK) {
        st = inter_exchange(parent, local, 2 * n, remote, 2 * m);
    }
    if (st == COMPI_OK) {
        st = inter_alloc_ctx(parent, &ctx);
    }
    if (st != COMPI_OK || color == MPI_UNDEFINED) {
        goto out;
    }
    st = split_group(parent->group, local, color, &lg);
    if (st == COMPI_OK) {
        st = split_group(parent->remote_group, remote, color, &rg);
    }
    if (st == COMPI_OK && lg != NULL && rg != NULL) {
        /* a color on one side only: MPI_COMM_NULL */
        st = comm_create_inter(lg, rg, ctx, &c);
    }
out:
    if (lg != NULL) {
        group_release(lg);
    }
    if (rg != NULL) {
        group_release(rg);
    }
    free(local);
    free(remote);
    return finish(parent, st, c, new_p);
}

compi_status_t comm_inter_create(compi_comm_t *parent, compi_group_t *group, compi_comm_t **new_p)
{
    int msize = group->size, rsize = 0;
    int *remote = NULL;
    uint32_t ctx;
    compi_group_t *rg = NULL;
    compi_comm_t *c = NULL;
    compi_status_t st = inter_exchange(parent, &msize, 1, &rsize, 1);

    *new_p = NULL;
    if (st == COMPI_OK) {
        remote = malloc((size_t)(rsize > 0 ? rsize : 1) * sizeof(int));
        st = remote != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;
    }
    if (st == COMPI_OK) {
        st = inter_exchange(parent, group->world_ranks, msize, remote, rsize);
    }
    if (st == COMPI_OK) {
        st = inter_alloc_ctx(parent, &ctx);
    }
    if (st == COMPI_OK && group->rank != MPI_UNDEFINED && msize > 0 && rsize > 0) {
        st = group_create(rsize, remote, &rg);
        if (st == COMPI_OK) {
            st = comm_create_inter(group, rg, ctx, &c);
            group_release(rg);
        }
    }
    free(remote);
    return finish(parent, st, c, new_p);
}
