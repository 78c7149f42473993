/*
 * comm.c -- communicator objects: MPI_COMM_WORLD and MPI_COMM_SELF, creation from a
 * group and a context id, references, and context id agreement.
 *
 * Context ids: every process keeps the next id it has never used (starting at 2, after
 * WORLD's 0 and SELF's 1).  A new communicator takes the max of its members' next ids,
 * and each member then moves its own counter past it, so no process ever sees one id on
 * two of its communicators.  Disjoint communicators made by one call (each color of a
 * split) share the id: no process belongs to two of them.
 */
#include "core/comm/comm.h"

#include "core/comm/attr.h"
#include "core/comm/comm_coll.h"
#include "core/comm/errhandler.h"
#include "core/comm/group.h"
#include "core/comm/topo.h"
#include "core/runtime/log.h"
#include "core/pml/pml.h"
#include "core/runtime/rte.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

handle_table_t comm_table = HANDLE_TABLE_INIT(COMPI_HKIND_COMM, 3);

static compi_comm_t *world, *self;
static uint32_t next_ctx = 2;
static uint32_t next_dyn = COMM_CTX_DYN_BASE; /* comm_dyn_join's (comm.h) */
static comm_hook_fn free_hook;

compi_comm_t *comm_world(void)
{
    return world;
}

void comm_set_free_hook(comm_hook_fn fn)
{
    free_hook = fn;
}

int comm_is_predefined(const compi_comm_t *comm)
{
    return comm != NULL && (comm == world || comm == self);
}

/* the object with its references, handle and name, not yet known to the PML */
static compi_status_t comm_build(compi_group_t *group, uint32_t ctx, int fixed_idx,
                                 const char *name, compi_comm_t **comm_p)
{
    compi_comm_t *c = calloc(1, sizeof(*c));
    compi_status_t st;

    if (c == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    c->ctx = ctx;
    c->rank = group->rank;
    c->size = group->size;
    c->world_ranks = group->world_ranks;
    c->refcount = 1;
    c->group = group;
    group_retain(group);
    c->errh = errh_predefined(ERRH_FATAL);
    if (name != NULL) {
        snprintf(c->name, sizeof(c->name), "%s", name);
    }
    if (fixed_idx > 0) {
        /* 1: MPI_COMM_WORLD, 2: MPI_COMM_SELF */
        c->handle = fixed_idx == 1 ? MPI_COMM_WORLD : MPI_COMM_SELF;
        st = handle_set_fixed(&comm_table, (unsigned)fixed_idx, c->handle, c);
    } else {
        st = handle_alloc(&comm_table, c, &c->handle);
    }
    if (st != COMPI_OK) {
        goto err;
    }
    *comm_p = c;
    return COMPI_OK;

err:
    group_release(group);
    free(c);
    return st;
}

static void comm_destroy(compi_comm_t *c)
{
    /* attributes normally went in MPI_Comm_free; this catches internal frees */
    if (c->attrs != NULL && attr_comm_free_all(c, NULL) != COMPI_OK) {
        compi_log_warn("communicator %s freed with an attribute whose delete callback failed",
                       c->name);
    }
    if (free_hook != NULL) {
        free_hook(c);
    }
    if (c->pml != NULL) {
        pml_comm_del(c);
    }
    if (c != world && c != self) {
        handle_free(&comm_table, c->handle);
    }
    group_release(c->group);
    if (c->remote_group != NULL) {
        group_release(c->remote_group);
        comm_release(c->local_comm);
    }
    errh_release(c->errh);
    topo_release(c->topo);
    free(c);
}

void comm_retain(compi_comm_t *comm)
{
    comm->refcount++;
}

void comm_release(compi_comm_t *comm)
{
    if (comm != NULL && --comm->refcount == 0) {
        comm_destroy(comm);
    }
}

void comm_set_errhandler(compi_comm_t *comm, compi_errhandler_t *errh)
{
    compi_errhandler_t *old = comm->errh;

    errh_retain(errh);
    comm->errh = errh;
    errh_release(old);
}

compi_status_t comm_create_with_group(compi_group_t *group, uint32_t ctx, compi_comm_t **comm_p)
{
    compi_comm_t *c;
    compi_status_t st;

    if (group->rank == MPI_UNDEFINED) {
        return COMPI_ERR_INVALID_PARAM;
    }
    st = comm_build(group, ctx, 0, NULL, &c);
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_comm_add(c);
    if (st != COMPI_OK) {
        comm_release(c);
        return st;
    }
    *comm_p = c;
    return COMPI_OK;
}

compi_status_t comm_create_unbound(compi_group_t *group, compi_comm_t **comm_p)
{
    if (group->rank == MPI_UNDEFINED) {
        return COMPI_ERR_INVALID_PARAM;
    }
    return comm_build(group, 0, 0, NULL, comm_p);
}

compi_status_t comm_bind_ctx(compi_comm_t *c, uint32_t ctx)
{
    if (c->remote_group != NULL) {
        /* an intercommunicator: its local_comm has the id after its own */
        compi_status_t st = comm_bind_ctx(c->local_comm, ctx + 1);
        if (st != COMPI_OK) {
            return st;
        }
    }
    c->ctx = ctx;
    return pml_comm_add(c);
}

uint32_t comm_ctx_next(void)
{
    return next_ctx;
}

int comm_ctx_claim(uint32_t ctx, uint32_t span)
{
    if (ctx < next_ctx) {
        return 1;
    }
    next_ctx = ctx + span;
    return 0;
}

uint32_t comm_ctx_dyn_next(void)
{
    return next_dyn;
}

void comm_ctx_dyn_taken(uint32_t last)
{
    if (last >= next_dyn) {
        next_dyn = last + 1;
    }
}

/* an intercommunicator over local and remote, with ids ctx and ctx + 1, or (bind 0)
   without ids yet (comm_bind_ctx gives them) */
static compi_status_t inter_build(compi_group_t *local, compi_group_t *remote, uint32_t ctx,
                                  int bind, compi_comm_t **comm_p)
{
    compi_comm_t *lc, *c;
    compi_status_t st;

    if (local->rank == MPI_UNDEFINED) {
        return COMPI_ERR_INVALID_PARAM;
    }
    st = bind ? comm_create_with_group(local, ctx + 1, &lc) : comm_create_unbound(local, &lc);
    if (st != COMPI_OK) {
        return st;
    }
    snprintf(lc->name, sizeof(lc->name), "(local group of an intercommunicator)");
    st = comm_build(local, ctx, 0, NULL, &c);
    if (st != COMPI_OK) {
        comm_release(lc);
        return st;
    }
    /* point-to-point addresses the remote group (comm.h) */
    c->size = remote->size;
    c->world_ranks = remote->world_ranks;
    c->remote_group = remote;
    group_retain(remote);
    c->local_comm = lc;
    st = bind ? pml_comm_add(c) : COMPI_OK;
    if (st != COMPI_OK) {
        comm_release(c);
        return st;
    }
    *comm_p = c;
    return COMPI_OK;
}

compi_status_t comm_create_inter(compi_group_t *local, compi_group_t *remote, uint32_t ctx,
                                 compi_comm_t **comm_p)
{
    return inter_build(local, remote, ctx, 1, comm_p);
}

compi_status_t comm_create_inter_unbound(compi_group_t *local, compi_group_t *remote,
                                         compi_comm_t **comm_p)
{
    return inter_build(local, remote, 0, 0, comm_p);
}

/* The members agree on the largest of their next free ids; every id this process took
   is below its next_ctx, so the answer is free here unless something took ids while the
   agreement waited: at MPI_THREAD_MULTIPLE another thread (the lock is dropped there).  So
   a second round asks whether it is free at every member, and all try again higher if
   not.  The id is claimed (next_ctx moves past it) before that round, so no other thread
   can take it.  The second round runs whatever the thread level: processes may ask for
   different levels, and all members must run the same rounds. */
/* the agreement behind both: [ctx, ctx + span) claimed on every member */
static compi_status_t alloc_ctx_span(const comm_coll_set_t *set, uint32_t span, uint32_t *ctx_p)
{
    for (;;) {
        uint32_t ctx, taken = 0, any_taken = 0;
        compi_status_t st = comm_coll_allreduce_max_u32(set, next_ctx, &ctx);

        if (st != COMPI_OK) {
            return st;
        }
        if (ctx >= COMM_CTX_DYN_BASE - 1 - 2 * COMM_CTX_POOL) {
            compi_log_error("out of communicator context ids");
            return COMPI_ERR_NO_RESOURCE;
        }
        /* the id, and after it the new communicator's pool for MPI_Comm_idup (comm.h) */
        taken = (uint32_t)comm_ctx_claim(ctx, span);
        st = comm_coll_allreduce_max_u32(set, taken, &any_taken);
        if (st != COMPI_OK) {
            return st;
        }
        if (!any_taken) {
            *ctx_p = ctx;
            return COMPI_OK;
        }
    }
}

compi_status_t comm_alloc_ctx_set(const comm_coll_set_t *set, uint32_t *ctx_p)
{
    return alloc_ctx_span(set, 1 + COMM_CTX_POOL, ctx_p);
}

compi_status_t comm_alloc_ctx(compi_comm_t *parent, uint32_t *ctx_p)
{
    comm_coll_set_t set = comm_coll_whole(parent);
    /* every member of parent is here and sees the same pool: one under half full gets
       the pool after the new communicator's, claimed with it (another thread's agreement
       may claim what follows as soon as this one's claim is made) */
    int refill = parent->ctx_pool_end - parent->ctx_pool < COMM_CTX_POOL / 2;
    compi_status_t st = alloc_ctx_span(&set, 1 + (refill ? 2 : 1) * COMM_CTX_POOL, ctx_p);
    if (st == COMPI_OK && refill) {
        parent->ctx_pool = *ctx_p + 1 + COMM_CTX_POOL;
        parent->ctx_pool_end = parent->ctx_pool + COMM_CTX_POOL;
    }
    return st;
}

/* one predefined communicator: group, object at its fixed handle, PML registration */
static compi_status_t comm_init_one(int size, const int *ranks, uint32_t ctx, int fixed_idx,
                                    const char *name, compi_comm_t **comm_p)
{
    compi_group_t *g;
    compi_status_t st = group_create(size, ranks, &g);

    if (st != COMPI_OK) {
        return st;
    }
    st = comm_build(g, ctx, fixed_idx, name, comm_p);
    group_release(g); /* the communicator holds its own reference */
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_comm_add(*comm_p);
    if (st != COMPI_OK) {
        comm_release(*comm_p);
        *comm_p = NULL;
    }
    return st;
}

compi_status_t comm_init(void)
{
    int n = rte_proc.world_size;
    int *ranks = NULL;
    compi_status_t st;

    st = errh_init();
    if (st != COMPI_OK) {
        goto err;
    }
    st = handle_set_fixed(&group_table, 1, MPI_GROUP_EMPTY, group_empty());
    if (st != COMPI_OK) {
        goto err;
    }
    ranks = malloc((size_t)n * sizeof(int));
    if (ranks == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    for (int i = 0; i < n; i++) {
        ranks[i] = i;
    }
    st = comm_init_one(n, ranks, 0, 1, "MPI_COMM_WORLD", &world);
    if (st != COMPI_OK) {
        goto err;
    }
    st = comm_init_one(1, &rte_proc.world_rank, 1, 2, "MPI_COMM_SELF", &self);
    if (st != COMPI_OK) {
        goto err;
    }
    /* the pools of WORLD and SELF for MPI_Comm_idup (comm.h) */
    world->ctx_pool = 2;
    world->ctx_pool_end = self->ctx_pool = 2 + COMM_CTX_POOL;
    self->ctx_pool_end = 2 + 2 * COMM_CTX_POOL;
    next_ctx = self->ctx_pool_end;
    free(ranks);
    return COMPI_OK;

err:
    compi_log_error("cannot set up MPI_COMM_WORLD and MPI_COMM_SELF: %s", compi_status_string(st));
    free(ranks);
    return st;
}

void comm_finalize(void)
{
    /* MPI_Finalize deleted MPI_COMM_SELF's attributes first (MPI-3.1 8.7.1); what is left
     * here (WORLD's, or SELF's set by a callback since) goes as if freed, newest first */
    compi_comm_t *const predef[] = {self, world};

    for (size_t i = 0; i < COMPI_ARRAY_SIZE(predef); i++) {
        compi_comm_t *c = predef[i];
        if (c == NULL) {
            continue;
        }
        if (attr_comm_free_all(c, NULL) != COMPI_OK) {
            compi_log_warn("MPI_Finalize: a delete callback of an attribute on %s failed", c->name);
        }
        comm_release(c);
    }
    self = world = NULL;
    attr_finalize();
    /* what comm_init registered; objects the application never freed are not reached
       through a handle any more (MPI calls after MPI_Finalize are refused anyway) */
    errh_finalize();
    handle_table_destroy(&group_table);
    handle_table_destroy(&comm_table);
}
